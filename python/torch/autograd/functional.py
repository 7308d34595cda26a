"""torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp, hvp of a function of tensors.

All are built on autograd.grad. jvp and hvp use the double-backward trick: the vector-Jacobian
product g(u) = J^T u is linear in u, so J v is the gradient of <g(u), v> with respect to u.
"""
import torch


def _as_tuple(x, arg_name, fn_name):
    is_tuple = isinstance(x, tuple)
    if not is_tuple:
        x = (x,)
    for i, el in enumerate(x):
        if not isinstance(el, torch.Tensor):
            if is_tuple:
                raise TypeError('The %s given to %s must be either a Tensor or a tuple of Tensors but the value at '
                                'index %d has type %s.' % (arg_name, fn_name, i, type(el)))
            raise TypeError('The %s given to %s must be either a Tensor or a tuple of Tensors but the given %s has '
                            'type %s.' % (arg_name, fn_name, arg_name, type(el)))
    return is_tuple, x


def _tuple_postprocess(res, to_unpack):
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph, need_graph):
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(inp.view_as(inp))
        else:
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs, create_graph):
    if isinstance(inputs[0], torch.Tensor):
        if not create_graph:
            return tuple(inp.detach() if inp is not None else None for inp in inputs)
        return inputs
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError('v is a tuple of invalid length: should be %d but got %d.' % (len(other), len(v)))
        raise RuntimeError('The given v should contain a single Tensor.')
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = 'Entry %d in ' % idx if is_other_tuple else ''
            raise RuntimeError('%sv has invalid size: should be %s but got %s.' % (prepend, el_other.size(), el_v.size()))


def _check_requires_grad(inputs, input_type, strict):
    if not strict:
        return
    if input_type not in ('outputs', 'grad_inputs', 'jacobian', 'hessian'):
        raise RuntimeError('Invalid input_type to _check_requires_grad')
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError('The output of the user-provided function is independent of input %d. This is not '
                               'allowed in strict mode.' % i)
        if not inp.requires_grad:
            if input_type == 'hessian':
                raise RuntimeError('The hessian of the user-provided function with respect to input %d is independent '
                                   'of the input. This is not allowed in strict mode. You should ensure that your '
                                   'function is thrice differentiable and that the hessian depends on the inputs.' % i)
            if input_type == 'jacobian':
                raise RuntimeError('While computing the hessian, found that the jacobian of the user-provided function '
                                   'with respect to input %d is independent of the input. This is not allowed in '
                                   'strict mode. You should ensure that your function is twice differentiable and '
                                   'that the jacobian depends on the inputs (this would be violated by a linear '
                                   'function for example).' % i)
            if input_type == 'grad_inputs':
                raise RuntimeError('The gradient with respect to input %d is independent of the inputs of the '
                                   'user-provided function. This is not allowed in strict mode.' % i)
            raise RuntimeError('Output %d of the user-provided function does not require gradients. The outputs must '
                               'be computed in a differentiable manner from the input when running in strict mode.' % i)


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grad_outputs = [], []
    for out, grad_out in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            new_outputs.append(out)
            new_grad_outputs.append(grad_out)
    if not new_outputs:
        return (None,) * len(inputs)
    return torch.autograd.grad(new_outputs, inputs, new_grad_outputs, allow_unused=True, create_graph=create_graph,
                               retain_graph=retain_graph)


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    res = []
    for i, grads_i in enumerate(grads):
        if grads_i is None:
            if strict:
                if stage == 'back':
                    raise RuntimeError('The output of the user-provided function is independent of input %d. This is '
                                       'not allowed in strict mode.' % i)
                if stage == 'back_trick':
                    raise RuntimeError('The gradient with respect to the input is independent of entry %d in the '
                                       'grad_outputs when using the double backward trick to compute forward mode '
                                       'gradients. This is not allowed in strict mode.' % i)
                if stage == 'double_back':
                    raise RuntimeError('The jacobian of the user-provided function is independent of input %d. This '
                                       'is not allowed in strict mode.' % i)
                raise RuntimeError('The hessian of the user-provided function is independent of entry %d in the grad_'
                                   'jacobian. This is not allowed in strict mode as it prevents from using the double '
                                   'backward trick to replace forward mode AD.' % i)
            grads_i = torch.zeros_like(refs[i])
        elif strict and create_graph and not grads_i.requires_grad:
            if 'double' not in stage:
                raise RuntimeError('The jacobian of the user-provided function is independent of input %d. This is '
                                   'not allowed in strict mode when create_graph=True.' % i)
            raise RuntimeError('The hessian of the user-provided function is independent of input %d. This is not '
                               'allowed in strict mode when create_graph=True.' % i)
        res.append(grads_i)
    return tuple(res)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J)."""
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, 'inputs', 'vjp')
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, 'outputs of the user-provided function', 'vjp')
        _check_requires_grad(outputs, 'outputs', strict=strict)
        if v is not None:
            _, v = _as_tuple(v, 'v', 'vjp')
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, outputs, is_outputs_tuple)
        else:
            if len(outputs) != 1 or outputs[0].nelement() != 1:
                raise RuntimeError('The vector v can only be None if the user-provided function returns a single '
                                   'Tensor with a single element.')
        enable_grad = True if create_graph else torch.is_grad_enabled()
        with torch.set_grad_enabled(enable_grad):
            grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
            vjp_res = _fill_in_zeros(grad_res, inputs, strict, create_graph, 'back')
    outputs = _grad_postprocess(outputs, create_graph)
    vjp_res = _grad_postprocess(vjp_res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vjp_res, is_inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v), by the double-backward trick."""
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, 'inputs', 'jvp')
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, 'v', 'jvp')
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, inputs, is_inputs_tuple)
        else:
            if len(inputs) != 1 or inputs[0].nelement() != 1:
                raise RuntimeError('The vector v can only be None if the input to the user-provided function is a '
                                   'single Tensor with a single element.')
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, 'outputs of the user-provided function', 'jvp')
        _check_requires_grad(outputs, 'outputs', strict=strict)
        grad_outputs = tuple(torch.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, 'grad_inputs', strict=strict)
        if create_graph:
            with torch.enable_grad():
                grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
                jvp_res = _fill_in_zeros(grad_res, outputs, strict, create_graph, 'back_trick')
        else:
            grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
            jvp_res = _fill_in_zeros(grad_res, outputs, strict, create_graph, 'back_trick')
    outputs = _grad_postprocess(outputs, create_graph)
    jvp_res = _grad_postprocess(jvp_res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(jvp_res, is_outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'):
    """The Jacobian of func at inputs: J[i][j] has shape outputs[i].shape + inputs[j].shape."""
    if strategy not in ('forward-mode', 'reverse-mode'):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has '
                         'more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to '
                         'use "reverse-mode".')
    if strategy == 'forward-mode' and not vectorize:
        raise NotImplementedError('torch.autograd.functional.jacobian: `strategy="forward-mode"` is only implemented '
                                  'when `vectorize=True`.')
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, 'inputs', 'jacobian')
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, 'outputs of the user-provided function', 'jacobian')
        _check_requires_grad(outputs, 'outputs', strict=strict)
        jacobian = tuple()
        for i, out in enumerate(outputs):
            jac_i = tuple([] for _ in range(len(inputs)))
            flat = out.reshape(-1)
            for j in range(flat.nelement()):
                vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for el_idx, (jac_i_el, vj_el, inp_el) in enumerate(zip(jac_i, vj, inputs)):
                    if vj_el is not None:
                        if strict and create_graph and not vj_el.requires_grad:
                            raise RuntimeError('The jacobian of the user-provided function is independent of input '
                                               '%d. This is not allowed in strict mode when create_graph=True.' % i)
                        jac_i_el.append(vj_el)
                    else:
                        if strict:
                            raise RuntimeError('Output %d of the user-provided function is independent of input %d. '
                                               'This is not allowed in strict mode.' % (i, el_idx))
                        jac_i_el.append(torch.zeros_like(inp_el))
            jacobian += (tuple(_stack(jac_i_el, out.size() + inputs[el_idx].size(), inputs[el_idx])
                               for (el_idx, jac_i_el) in enumerate(jac_i)),)
        jacobian = _grad_postprocess(jacobian, create_graph)
        return _tuple_postprocess(jacobian, (is_outputs_tuple, is_inputs_tuple))


def _stack(rows, shape, like):
    """Rows (each shaped like `like`) stacked into a tensor of `shape`. Writing them into zeros keeps
    their history (the zeros become a CopySlices of them)."""
    flat = torch.zeros((len(rows), like.numel()), dtype=like.dtype, device=like.device)
    for k, r in enumerate(rows):
        flat[k] = r.reshape(-1)
    return flat.reshape(shape)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy='reverse-mode'):
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    is_inputs_tuple, inputs = _as_tuple(inputs, 'inputs', 'hessian')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, 'outputs of the user-provided function', 'hessian')
        _check_requires_grad(t_out, 'outputs', strict=strict)
        if is_out_tuple or not isinstance(out, torch.Tensor):
            raise RuntimeError('The function given to hessian should return a single Tensor')
        if out.nelement() != 1:
            raise RuntimeError('The Tensor returned by the function given to hessian should contain a single element')
        return out.squeeze()

    def jac_func(*inp):
        inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, 'jacobian', strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H)."""
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, 'inputs', 'vhp')
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, 'v', 'vhp')
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, inputs, is_inputs_tuple)
        else:
            if len(inputs) != 1 or inputs[0].nelement() != 1:
                raise RuntimeError('The vector v can only be None if the input to the user-provided function is a '
                                   'single Tensor with a single element.')
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, 'outputs of the user-provided function', 'vhp')
        _check_requires_grad(outputs, 'outputs', strict=strict)
        if is_outputs_tuple or not isinstance(outputs[0], torch.Tensor):
            raise RuntimeError('The function given to vhp should return a single Tensor')
        if outputs[0].nelement() != 1:
            raise RuntimeError('The Tensor returned by the function given to vhp should contain a single element')
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, 'jacobian', strict=strict)
    enable_grad = True if create_graph else torch.is_grad_enabled()
    with torch.set_grad_enabled(enable_grad):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        vhp_res = _fill_in_zeros(grad_res, inputs, strict, create_graph, 'double_back')
    outputs = _grad_postprocess(outputs, create_graph)
    vhp_res = _grad_postprocess(vhp_res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vhp_res, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v), by the double-backward trick."""
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, 'inputs', 'hvp')
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, 'v', 'hvp')
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, inputs, is_inputs_tuple)
        else:
            if len(inputs) != 1 or inputs[0].nelement() != 1:
                raise RuntimeError('The vector v can only be None if the input to the user-provided function is a '
                                   'single Tensor with a single element.')
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, 'outputs of the user-provided function', 'hvp')
        _check_requires_grad(outputs, 'outputs', strict=strict)
        if is_outputs_tuple or not isinstance(outputs[0], torch.Tensor):
            raise RuntimeError('The function given to hvp should return a single Tensor')
        if outputs[0].nelement() != 1:
            raise RuntimeError('The Tensor returned by the function given to hvp should contain a single element')
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, 'jacobian', strict=strict)
        grad_jac = tuple(torch.zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, 'hessian', strict=strict)
    enable_grad = True if create_graph else torch.is_grad_enabled()
    with torch.set_grad_enabled(enable_grad):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        hvp_res = _fill_in_zeros(grad_res, inputs, strict, create_graph, 'double_back_trick')
    outputs = _grad_postprocess(outputs, create_graph)
    hvp_res = _grad_postprocess(hvp_res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(hvp_res, is_inputs_tuple)
