"""torch.autograd: reverse-mode automatic differentiation.

The tape is recorded by the core as ops run (core/src/autograd); this package is the Python face:
backward() and grad(), grad modes, custom Functions, hooks, anomaly detection, gradient checks and
the functional API.
"""
import threading

import torch
from torch import _C
from torch.autograd.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: F401
from torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from torch.autograd.function import Function, once_differentiable  # noqa: F401
from torch.autograd.variable import Variable  # noqa: F401
from torch.autograd import graph  # noqa: F401


def _as_tuple(x):
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


def _make_grads(outputs, grads):
    new_grads = []
    for out, grad in zip(outputs, grads):
        if isinstance(grad, torch.Tensor):
            if out.shape != grad.shape:
                raise RuntimeError('Mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape '
                                   'of %s.' % (grads.index(grad), grad.shape, outputs.index(out), out.shape))
            if out.dtype.is_complex != grad.dtype.is_complex:
                raise RuntimeError('For complex Tensors, both grad_output and output are required to have the same '
                                   'dtype. Mismatch in dtype: grad_output[%d] has a dtype of %s and output[%d] has a '
                                   'dtype of %s.' % (grads.index(grad), grad.dtype, outputs.index(out), out.dtype))
            new_grads.append(grad)
        elif grad is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError('grad can be implicitly created only for scalar outputs')
                new_grads.append(torch.ones_like(out, memory_format=torch.preserve_format))
            else:
                new_grads.append(None)
        else:
            raise TypeError('gradients can be either Tensors or None, but got ' + type(grad).__name__)
    return tuple(new_grads)


class _CheckpointValid(threading.local):
    value = True


_checkpoint_state = _CheckpointValid()


def _is_checkpoint_valid():
    """False while autograd.grad or backward(inputs=) runs: reentrant checkpointing cannot serve them."""
    return _checkpoint_state.value


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulates the gradients of `tensors` (weighted by grad_tensors) into the .grad of the
    leaves (or of `inputs` only)."""
    if grad_variables is not None:
        import warnings
        warnings.warn("'grad_variables' is deprecated. Use 'grad_tensors' instead.")
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("'grad_tensors' and 'grad_variables' (deprecated) arguments both passed to backward(). "
                               "Please only use 'grad_tensors'.")
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    tensors = _as_tuple(tensors)
    inputs = _as_tuple(inputs) if inputs is not None else ()
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    else:
        grad_tensors = _as_tuple(grad_tensors) if not isinstance(grad_tensors, (list, tuple)) else tuple(grad_tensors)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError('got %d tensors and %d gradients' % (len(tensors), len(grad_tensors)))
    grad_tensors = _make_grads(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    valid = _checkpoint_state.value
    _checkpoint_state.value = valid and not inputs
    try:
        _C._run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs)
    finally:
        _checkpoint_state.value = valid


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, is_grads_batched=False):
    """The gradients of outputs with respect to inputs, without touching any .grad."""
    if is_grads_batched:
        raise NotImplementedError('grad(is_grads_batched=True) is not supported')
    if not only_inputs:
        import warnings
        warnings.warn('only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate '
                      'gradient for other parts of the graph, please use torch.autograd.backward.')
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError('grad requires one grad_output per output (got %d outputs and %d grad_outputs)'
                           % (len(outputs), len(grad_outputs)))
    grad_outputs = _make_grads(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    valid = _checkpoint_state.value
    _checkpoint_state.value = False
    try:
        return _C._run_grad(outputs, grad_outputs, inputs, retain_graph, create_graph, allow_unused)
    finally:
        _checkpoint_state.value = valid


from torch.autograd import function, functional, forward_ad  # noqa: E402,F401
from torch.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: E402,F401
from torch.autograd import profiler  # noqa: E402,F401
