"""gradcheck samples for the reductions, scans, sorting and selection family (test_autograd_ops.py).

samples(T, mixed) gives {qualified op name: lambda: [(args, kwargs), ...]} for the ops whose arguments
cannot be sampled automatically (or whose interesting cases automatic samples miss: zeros for prod and
cumprod, NaN for the nan- ops, every p of norm and every interpolation of quantile).
"""
import torch

# PyTorch declares these without a derivative (aminmax and bincount's weights have no formula; unique's
# are not_implemented("...")): their gradients raise there too.
NOT_IMPLEMENTED = {'aminmax', 'bincount', '_unique', '_unique2', 'unique_dim', 'unique_consecutive'}

nan = float('nan')
inf = float('inf')


def samples(T, mixed):
    def V(values, requires_grad=True):
        """A float64 leaf of exactly these values."""
        return torch.tensor(values, dtype=torch.float64).requires_grad_(requires_grad)

    def L(values):
        return torch.tensor(values, dtype=torch.int64)

    def some_zeros():  # rows with one, none, two and three zeros
        return V([[0.7, 0.0, 1.3, 0.9], [1.4, 0.6, 1.2, 0.9], [1.1, 0.0, 0.8, 0.0], [0.0, 0.0, 1.2, 0.0]])

    def zeros_along_rows():  # lines of cumprod with none, one, two and only zeros
        return V([[0.7, 1.2, 1.3, 0.9, 1.1], [1.1, 0.0, 0.8, 1.2, 0.9], [0.0, 1.3, 0.0, 0.7, 1.2],
                  [0.0, 0.0, 0.0, 0.0, 0.0]])

    def with_nan():
        return V([[0.7, nan, 1.3, 0.9], [1.1, 1.2, 0.8, 0.6]])

    def q(*values, requires_grad=True):
        return V(list(values) if len(values) != 1 else values[0], requires_grad)

    def norm_backward_case(p, dim, keepdim):  # the norm is x's (p = inf: a change of x moves its maxima)
        x = mixed(2, 3)
        norm = torch.ops.aten.norm.ScalarOpt_dim(x.detach(), p, dim, keepdim).requires_grad_()
        return (T(*norm.shape), x, p, norm, dim, keepdim), {}

    interpolations = ['linear', 'lower', 'higher', 'midpoint', 'nearest']
    s = {
        'prod': lambda: [((T(2, 3),), {}), ((T(),), {}), ((V([[0.7, 0.0, 1.3], [1.1, 1.2, 0.8]]),), {}),
                         ((V([[0.7, 0.0, 1.3], [1.1, 0.0, 0.8]]),), {}), ((V([0.0]),), {})],
        'prod.dim_int': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0, True), {}), ((some_zeros(), 1), {}),
                                 ((some_zeros(), 0, True), {}), ((T(), 0), {})],
        'nansum': lambda: [((T(2, 3),), {}), ((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], True), {}),
                           ((with_nan(),), {}), ((with_nan(), 1), {})],
        'std': lambda: [((T(2, 3),), {}), ((T(2, 3), False), {})],
        'std.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], False, True), {}), ((T(2, 3), None), {})],
        'std.correction': lambda: [((T(2, 3), [1]), {'correction': 0}), ((T(2, 3), None), {'correction': 2}),
                                   ((T(2, 3, 2), [-1]), {'correction': None, 'keepdim': True})],
        'var': lambda: [((T(2, 3),), {}), ((T(2, 3), False), {})],
        'var.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], False, True), {}), ((T(2, 3), None), {})],
        'var.correction': lambda: [((T(2, 3), [1]), {'correction': 0}), ((T(2, 3), None), {'correction': 2}),
                                   ((T(2, 3, 2), [-1]), {'correction': None, 'keepdim': True})],
        'std_mean': lambda: [((T(2, 3),), {}), ((T(2, 3), False), {})],
        'std_mean.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], False, True), {})],
        'std_mean.correction': lambda: [((T(2, 3), [1]), {'correction': 0}),
                                        ((T(2, 3), None), {'correction': None, 'keepdim': True})],
        'var_mean': lambda: [((T(2, 3),), {}), ((T(2, 3), False), {})],
        'var_mean.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], False, True), {})],
        'var_mean.correction': lambda: [((T(2, 3), [1]), {'correction': 0}),
                                        ((T(2, 3), None), {'correction': None, 'keepdim': True})],
        'norm.Scalar': lambda: [((mixed(2, 3), p), {}) for p in (2, 1, 3, 1.5, 0.5, 0, inf, -inf)]
                               + [((mixed(2, 3),), {})],
        'norm.ScalarOpt_dim': lambda: [((mixed(2, 3), 2, [1]), {}), ((mixed(2, 3), 3, [0], True), {}),
                                       ((mixed(2, 3), None, [1]), {}), ((mixed(2, 3, 2), inf, [0, 2]), {}),
                                       ((mixed(2, 3), 0.5, [1], True), {}), ((mixed(2, 3), 1, [0]), {})],
        'norm.ScalarOpt_dim_dtype': lambda: [((mixed(2, 3), 2, [1], False), {'dtype': torch.float64}),
                                             ((mixed(2, 3), 1.5, [0], True), {'dtype': torch.float64})],
        'norm.ScalarOpt_dtype': lambda: [((mixed(2, 3), 2), {'dtype': torch.float64}),
                                         ((mixed(2, 3), inf), {'dtype': torch.float64})],
        'frobenius_norm.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], True), {})],
        'logsumexp': lambda: [((mixed(2, 3), [1]), {}), ((mixed(2, 3, 2), [0, 2], True), {}), ((mixed(2, 3), [0]), {})],
        'amax': lambda: [((T(2, 3),), {}), ((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], True), {})],
        'amin': lambda: [((T(2, 3),), {}), ((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], True), {})],
        'cumsum': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0), {}), ((T(4), 0), {})],
        'cumprod': lambda: [((mixed(2, 3), 1), {}), ((mixed(3, 2), 0), {}), ((T(1), 0), {}),
                            ((zeros_along_rows(), 1), {}), ((zeros_along_rows().t(), 0), {})],
        'logcumsumexp': lambda: [((mixed(2, 3), 1), {}), ((mixed(4), 0), {}), ((T(), 0), {})],
        'cummax': lambda: [((mixed(2, 4), 1), {}), ((mixed(4, 2), 0), {})],
        'cummin': lambda: [((mixed(2, 4), 1), {}), ((mixed(4, 2), 0), {})],
        'sort': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3), 0, True), {})],
        'sort.stable': lambda: [((mixed(2, 3),), {'stable': True}), ((mixed(2, 3),), {'stable': False, 'dim': 0})],
        'argsort.stable': lambda: [((mixed(2, 3),), {'stable': True})],
        'topk': lambda: [((mixed(2, 5), 2), {}), ((mixed(4, 3), 2, 0, False), {}), ((mixed(5), 3), {'sorted': False})],
        'kthvalue': lambda: [((mixed(2, 5), 2), {}), ((mixed(3, 4), 2, 0, True), {})],
        'median': lambda: [((T(2, 3),), {}), ((T(2, 4),), {})],
        'median.dim': lambda: [((T(2, 3), 1), {}), ((T(2, 4), 0, True), {})],
        'nanmedian': lambda: [((T(2, 3),), {}), ((with_nan(),), {})],
        'nanmedian.dim': lambda: [((T(2, 3), 1), {}), ((with_nan(), 1, True), {})],
        'mode': lambda: [((T(2, 3),), {}), ((T(3, 2), 0, True), {})],
        'quantile.scalar': lambda: [((T(2, 5), 0.3), {}), ((T(2, 5), 0.3, 1, True), {}), ((T(3, 4), 0.6, 0), {})]
                                   + [((T(2, 5), 0.3, 1), {'interpolation': i}) for i in interpolations],
        'quantile': lambda: [((T(2, 5), q(0.3, 0.8)), {}), ((T(2, 5), q(0.3), 1), {}), ((T(3, 4), q(0.3, 0.6), 0, True), {}),
                             ((T(2, 5), q(0.3, 0.8), None, True), {})]
                            + [((T(2, 5), q(0.3, 0.7), 1), {'interpolation': i}) for i in interpolations],
        'nanquantile.scalar': lambda: [((T(2, 5), 0.3), {}), ((with_nan(), 0.4, 1), {})]
                                      + [((with_nan(), 0.3, 1), {'interpolation': i}) for i in interpolations],
        'nanquantile': lambda: [((T(2, 5), q(0.3, 0.8)), {}), ((with_nan(), q(0.3, 0.6), 1), {}),
                                ((with_nan(), q(0.4), 1, True), {})]
                               + [((with_nan(), q(0.3, 0.7), 1), {'interpolation': i}) for i in interpolations],
        # the helpers the formulas are written with
        'prod_backward': lambda: [((T(), T(2, 3), T(), None, False), {}), ((T(2), T(2, 3), T(2), 1, False), {}),
                                  ((T(2, 1), T(2, 3), T(2, 1), 1, True), {})],
        'var_backward': lambda: [((T(2), T(2, 3), [1], 1, False), {}), ((T(), T(2, 3), None, 0, False), {}),
                                 ((T(1, 3), T(2, 3), [0], None, True), {})],
        'std_backward': lambda: [((T(2), T(2), T(2, 3), [1], 1, False), {}), ((T(), T(), T(2, 3), None, 0, False), {})],
        'norm_backward': lambda: [norm_backward_case(p, [1], False) for p in (2, 1, 3, 1.5, 0.5, 0)]
                                 + [norm_backward_case(None, [], False), norm_backward_case(3, [0], True)],
        'cumsum_backward': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0), {}), ((T(), 0), {})],
        'cumprod_backward': lambda: [((T(2, 3), mixed(2, 3), 1, T(2, 3)), {}), ((T(), T(), 0, T()), {})],
        'logcumsumexp_backward': lambda: [((mixed(2, 3), mixed(2, 3), mixed(2, 3), 1), {}), ((mixed(4), mixed(4), T(4), 0), {})],
        'logcumsumexp_jvp': lambda: [((mixed(2, 3), mixed(2, 3), mixed(2, 3), 1), {}), ((mixed(4), mixed(4), T(4), 0), {})],
        '_select_values_at': lambda: [((T(2, 3), 1, L([0, 2]), False), {}), ((T(2, 3), 0, L([[1, 0, 1]]), True), {}),
                                      ((T(2, 3), 1, L([[2, 2], [0, 1]]), True), {})],
        'quantile_backward': lambda: [((T(2), T(2, 5), q(0.3), 1, False, 'linear', False), {}),
                                      ((T(2, 1, 1), T(3, 4), q(0.3, 0.7), None, True, 'midpoint', False), {}),
                                      ((T(2, 2), with_nan(), q(0.3, 0.7), 1, False, 'lower', True), {})],
        'quantile_backward_q': lambda: [((T(2), T(2, 5), q(0.3), 1, False, 'linear', False), {}),
                                        ((T(2, 2), T(2, 5), q(0.3, 0.7), 1, False, 'linear', True), {})],
    }
    return s
