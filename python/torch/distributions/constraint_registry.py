"""biject_to and transform_to: registries from constraints to transforms onto them.

biject_to(c) is a bijective transform from the reals (unconstrained space) onto c, with a
log-Jacobian (what HMC-like samplers need); transform_to(c) only promises to land in c (fit for
optimizing constrained parameters). Registration is by the constraint's type: later registrations of
a type replace earlier ones, as PyTorch's do.
"""
import numbers

from torch.distributions import constraints, transforms

__all__ = ['ConstraintRegistry', 'biject_to', 'transform_to']


class ConstraintRegistry(object):
    """A map from constraint types to factories of transforms."""

    def __init__(self):
        self._registry = {}
        super().__init__()

    def register(self, constraint, factory=None):
        """Registers factory(constraint) -> Transform for a constraint subclass or instance; without
        a factory, a decorator."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError('Expected constraint to be either a Constraint subclass or instance, '
                            'but got {}'.format(constraint))
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(f'Cannot transform {type(constraint).__name__} constraints') from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _register_both(constraint_list, factory):
    for c in constraint_list:
        biject_to.register(c, factory)
        transform_to.register(c, factory)


def _to_real(constraint):
    return transforms.identity_transform


def _to_positive(constraint):
    return transforms.ExpTransform()


def _to_greater_than(constraint):
    return transforms.ComposeTransform([transforms.ExpTransform(),
                                        transforms.AffineTransform(constraint.lower_bound, 1)])


def _to_less_than(constraint):
    return transforms.ComposeTransform([transforms.ExpTransform(),
                                        transforms.AffineTransform(constraint.upper_bound, -1)])


def _to_interval(constraint):
    lower_is_0 = isinstance(constraint.lower_bound, numbers.Number) and constraint.lower_bound == 0
    upper_is_1 = isinstance(constraint.upper_bound, numbers.Number) and constraint.upper_bound == 1
    if lower_is_0 and upper_is_1:  # the unit interval
        return transforms.SigmoidTransform()
    loc = constraint.lower_bound
    scale = constraint.upper_bound - constraint.lower_bound
    return transforms.ComposeTransform([transforms.SigmoidTransform(), transforms.AffineTransform(loc, scale)])


def _to_corr_cholesky(constraint):
    return transforms.CorrCholeskyTransform()


def _structured(registry):
    """The factories of constraints made of others (independent, cat, stack), through registry."""
    def independent(constraint):
        return transforms.IndependentTransform(registry(constraint.base_constraint),
                                               constraint.reinterpreted_batch_ndims)

    def cat(constraint):
        return transforms.CatTransform([registry(c) for c in constraint.cseq], constraint.dim, constraint.lengths)

    def stack(constraint):
        return transforms.StackTransform([registry(c) for c in constraint.cseq], constraint.dim)
    registry.register(constraints.independent, independent)
    registry.register(constraints.cat, cat)
    registry.register(constraints.stack, stack)


_register_both([constraints.real], _to_real)
_structured(biject_to)
_structured(transform_to)
# positive and nonnegative share their types with greater_than(_eq), whose registration replaces theirs
_register_both([constraints.positive, constraints.nonnegative], _to_positive)
_register_both([constraints.greater_than, constraints.greater_than_eq], _to_greater_than)
_register_both([constraints.less_than], _to_less_than)
_register_both([constraints.interval, constraints.half_open_interval], _to_interval)
_register_both([constraints.corr_cholesky], _to_corr_cholesky)
biject_to.register(constraints.simplex, lambda constraint: transforms.StickBreakingTransform())
transform_to.register(constraints.simplex, lambda constraint: transforms.SoftmaxTransform())
transform_to.register(constraints.lower_cholesky, lambda constraint: transforms.LowerCholeskyTransform())
