"""Activation checkpointing: run part of a model without keeping its intermediate results, and
recompute them during backward.

checkpoint(function, *args) runs function under no_grad in the forward pass and again, with grad, when
the gradient reaches it; random ops draw the same numbers both times (the CPU generator's state is
saved and restored, preserve_rng_state=True). use_reentrant=True (the default, as in PyTorch 1.13)
recomputes inside a custom Function's backward; use_reentrant=False uses saved-tensor hooks, which
also supports inputs that do not require grad and torch.autograd.grad.
"""
import warnings

import torch


def detach_variable(inputs):
    if isinstance(inputs, tuple):
        out = []
        for inp in inputs:
            if not isinstance(inp, torch.Tensor):
                out.append(inp)
                continue
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            out.append(x)
        return tuple(out)
    raise RuntimeError('Only tuple of tensors is supported. Got Unsupported input type: ', type(inputs).__name__)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, torch.Tensor)):
        warnings.warn('None of the inputs have requires_grad=True. Gradients will be None')


def _rng_state():
    return torch.get_rng_state()


def _set_rng_state(state):
    torch.set_rng_state(state)


class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = _rng_state()
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, torch.Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with torch.no_grad():
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx, *args):
        if not torch.autograd._is_checkpoint_valid():
            raise RuntimeError('Checkpointing is not compatible with .grad() or when an `inputs` parameter is passed '
                               'to .backward(). Please use .backward() and do not pass its `inputs` argument.')
        inputs = list(ctx.inputs)
        for idx, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[idx] = t
        if ctx.preserve_rng_state:
            state_now = _rng_state()
            _set_rng_state(ctx.fwd_cpu_state)
        try:
            detached = detach_variable(tuple(inputs))
            with torch.enable_grad():
                outputs = ctx.run_function(*detached)
        finally:
            if ctx.preserve_rng_state:
                _set_rng_state(state_now)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        outs, grads = [], []
        for o, g in zip(outputs, args):
            if isinstance(o, torch.Tensor) and o.requires_grad:
                outs.append(o)
                grads.append(g)
        if not outs:
            raise RuntimeError('none of output has requires_grad=True, this checkpoint() is not necessary')
        torch.autograd.backward(outs, grads)
        return (None, None) + tuple(inp.grad if isinstance(inp, torch.Tensor) else None for inp in detached)


def checkpoint(function, *args, use_reentrant=True, **kwargs):
    """function(*args), keeping no intermediate results: they are recomputed in backward."""
    preserve = kwargs.pop('preserve_rng_state', True)
    if kwargs and use_reentrant:
        raise ValueError('Unexpected keyword arguments: ' + ','.join(arg for arg in kwargs))
    if use_reentrant:
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, *args, **kwargs)


def _checkpoint_without_reentrant(function, preserve_rng_state=True, *args, **kwargs):
    """The saved tensors of the block are not kept: each is recomputed (the whole block, once per
    backward) when backward unpacks it."""
    if preserve_rng_state:
        fwd_state = _rng_state()
    storage = {}
    counter = [0]

    def pack(x):
        counter[0] += 1
        return counter[0] - 1

    def unpack(index):
        if index not in storage:
            recomputed = []

            def inner_pack(t):
                recomputed.append(t.detach())
                return None

            def inner_unpack(_):
                raise RuntimeError('You are calling backwards on a tensor that is never exposed. Please open an issue.')

            if preserve_rng_state:
                state_now = _rng_state()
                _set_rng_state(fwd_state)
            try:
                with torch.enable_grad(), torch.autograd.graph.saved_tensors_hooks(inner_pack, inner_unpack):
                    function(*args, **kwargs)
            finally:
                if preserve_rng_state:
                    _set_rng_state(state_now)
            for i, t in enumerate(recomputed):
                storage[i] = t
        return storage[index]

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        output = function(*args, **kwargs)
    return output


def checkpoint_sequential(functions, segments, input, use_reentrant=True, **kwargs):
    """A sequential model run in `segments` checkpointed pieces (the last one normally)."""
    preserve = kwargs.pop('preserve_rng_state', True)
    if kwargs:
        raise ValueError('Unexpected keyword arguments: ' + ','.join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if hasattr(functions, 'children'):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
