"""Custom differentiable operations: subclass Function with static forward(ctx, ...) and
backward(ctx, *grads), and call Function.apply(...).

The ctx is the node itself (a torch._C._FunctionBase made for each call), as in PyTorch: what
forward saves with ctx.save_for_backward is kept by the core like any op's saved tensors (checked
against in-place changes, freed after backward), and `y.grad_fn` is the ctx.
"""
import functools

import torch
from torch import _C
from torch.autograd.graph import Node


class FunctionCtx:
    """What forward tells backward through ctx."""

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError('save_for_backward can only save variables, but argument %d is not a Variable'
                                % tensors.index(t))
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        """Tensors forward modified in place."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        """Outputs that have no gradient."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """Whether undefined output gradients reach backward as zeros (default) or as None."""
        self.materialize_grads = value


class BackwardCFunction(_C._FunctionBase, FunctionCtx, Node):
    """The ctx of one call: a node of the graph whose backward is the Function's."""

    def _do_backward(self, grads):
        result = self._forward_cls.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        return result

    def apply(self, *args):
        return self._forward_cls.backward(self, *args)

    def name(self):
        return type(self).__name__


class FunctionMeta(type):
    """Gives each Function subclass its node class: `<Name>Backward`."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + 'Backward', (BackwardCFunction,), {'_forward_cls': cls})
        super().__init__(name, bases, attrs)


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base of custom autograd Functions (use the static methods through Function.apply)."""

    def __init__(self, *args, **kwargs):
        import warnings
        warnings.warn('%s should not be instantiated. Methods on autograd functions are all static, so you should '
                      'invoke them on the class itself. Instantiating an autograd function will raise an error in a '
                      'future version of PyTorch.' % type(self), DeprecationWarning)

    def __call__(self, *args, **kwargs):
        raise RuntimeError('Legacy autograd function with non-static forward method is deprecated. Please use new-style '
                           'autograd function with static forward method. (Example: '
                           'https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)')

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError('You must implement the forward function for custom autograd.Function.')

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError('You must implement either the backward or vjp method for your custom '
                                  'autograd.Function to use it with backward mode AD.')

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError('You must implement the jvp function for custom autograd.Function to use it with '
                                  'forward mode AD.')

    @classmethod
    def apply(cls, *args):
        from torch.autograd import forward_ad
        tangents = [forward_ad.unpack_dual(a) if isinstance(a, torch.Tensor) else None for a in args]
        if any(t is not None and t.tangent is not None for t in tangents):
            return cls._apply_dual(args, tangents)
        return cls._apply(*args)

    @classmethod
    def _apply_dual(cls, args, unpacked):
        """Dual inputs: forward on the primals, the output tangents from the Function's jvp."""
        from torch.autograd import forward_ad
        if cls.jvp is Function.jvp:
            raise NotImplementedError('You must implement the jvp function for custom autograd.Function to use it '
                                      'with forward mode AD.')
        primals = tuple(u.primal if u is not None else a for a, u in zip(args, unpacked))
        ctx_holder = {}
        outputs = cls._apply(*primals, _ctx_out=ctx_holder)
        ctx = ctx_holder['ctx']
        in_tangents = tuple(u.tangent if u is not None and u.tangent is not None
                            else (torch.zeros_like(a) if isinstance(a, torch.Tensor) else None)
                            for a, u in zip(args, unpacked))
        with torch.no_grad():
            out_tangents = cls.jvp(ctx, *in_tangents)
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        tans = out_tangents if isinstance(out_tangents, tuple) else (out_tangents,)
        if len(tans) != len(outs):
            raise RuntimeError('jvp returned %d tangents for %d outputs' % (len(tans), len(outs)))
        duals = tuple(forward_ad.make_dual(o, t) if isinstance(o, torch.Tensor) and t is not None else o
                      for o, t in zip(outs, tans))
        return duals[0] if single else duals

    @classmethod
    def _apply(cls, *args, _ctx_out=None):
        ctx = cls._backward_cls()
        if _ctx_out is not None:
            _ctx_out['ctx'] = ctx
        ctx.to_save = ()
        ctx.dirty_tensors = ()
        ctx.non_differentiable = ()
        ctx.materialize_grads = True
        is_tensor = [isinstance(a, torch.Tensor) for a in args]
        grad_on = _C.is_grad_enabled()
        needs = tuple(grad_on and t and a.requires_grad for a, t in zip(args, is_tensor))
        ctx.needs_input_grad = needs
        with torch.no_grad():
            outputs = cls.forward(ctx, *args)
        single = not isinstance(outputs, tuple)
        out_tuple = (outputs,) if single else outputs
        if any(needs):
            out_tuple = ctx._record(tuple(args), out_tuple, ctx.dirty_tensors, ctx.non_differentiable, ctx.to_save,
                                    ctx.materialize_grads)
        else:
            ctx.saved_tensors_plain = ctx.to_save
        del ctx.to_save
        return out_tuple[0] if single else out_tuple


def once_differentiable(fn):
    """For a backward that is not itself differentiable: it runs without recording, and when the
    gradients it receives require grad, what it returns carries a node that raises if a second
    backward reaches it."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            outputs = fn(ctx, *args)
        if not _C.is_grad_enabled():
            return outputs
        requiring = tuple(a for a in args if isinstance(a, torch.Tensor) and a.requires_grad)
        if not requiring:
            return outputs
        single = not isinstance(outputs, tuple)
        out_tuple = (outputs,) if single else outputs
        err = _DelayedError._backward_cls()
        err.message = 'trying to differentiate twice a function that was marked with @once_differentiable'
        wrapped = err._record(requiring, tuple(o.detach() if isinstance(o, torch.Tensor) else o for o in out_tuple),
                              (), (), (), True)
        return wrapped[0] if single else wrapped

    return wrapper


class _DelayedError(Function):
    """The node once_differentiable puts on what it returns: differentiating through it raises."""

    @staticmethod
    def forward(ctx, *tensors):
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(ctx.message)


_DelayedError._backward_cls = type('Error', (BackwardCFunction,), {'_forward_cls': _DelayedError})


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    pass
