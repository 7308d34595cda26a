"""Forward-mode automatic differentiation (torch.autograd.forward_ad).

    with fwAD.dual_level():
        x = fwAD.make_dual(primal, tangent)
        y = f(x)
        jvp = fwAD.unpack_dual(y).tangent

Every op with a derivative formula carries tangents through (the core computes them from the
reverse-mode formulas: see core/src/autograd/forward_ad.c). One level at a time, as PyTorch 1.13.
"""
from collections import namedtuple

from torch import _C

_current_level = -1


def enter_dual_level():
    """Enters a new forward-grad level; tangents made in it are dropped when it is exited."""
    global _current_level
    new_level = _C._enter_dual_level()
    _current_level = new_level
    return new_level


def exit_dual_level(*, level=None):
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError('Trying to exit a forward AD level that was not the last one that was created. This is '
                           'not supported.')
    _C._exit_dual_level(level)
    _current_level = -1


def make_dual(tensor, tangent, *, level=None):
    """A dual tensor: tensor's values (as a view of it) with `tangent` as its forward gradient."""
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError('To create a dual Tensor, you need to be in a forward AD level (using fwAD.dual_level()).')
    return _C._make_dual(tensor, tangent, level)


UnpackedDualTensor = namedtuple('UnpackedDualTensor', ['primal', 'tangent'])


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of a dual tensor; tangent is None for a tensor that has none."""
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    primal, tangent = _C._unpack_dual(tensor, level)
    return UnpackedDualTensor(primal, tangent)


class dual_level:
    """The block in which dual tensors live."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
