"""gradcheck and gradgradcheck: analytical gradients (from backward) against finite differences.

The numerical Jacobian perturbs each element of each input that requires grad by +-eps (central
differences); the analytical one runs backward once per output element. Both are small, so they are
kept as Python lists of numbers.

Complex numbers follow PyTorch's conventions. The gradient backward computes for a complex input z
of a real output is the conjugate Wirtinger derivative (times 2): d/dx + 1j * d/dy, which is what
the numerical Jacobian measures by perturbing the real and the imaginary part of z in turn. A
function with complex outputs is checked twice, as PyTorch does: with its complex outputs replaced
by their imaginary parts, then by their real parts, each a function with real outputs.
"""
import cmath
import random
import warnings

import torch


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _differentiable_outputs(outputs):
    return tuple(o for o in outputs if isinstance(o, torch.Tensor) and o.requires_grad)


def _flat_values(t):
    values = t.detach().reshape(-1).tolist()
    return [complex(v) if isinstance(v, complex) else float(v) for v in values]


def _is_complex(t):
    return isinstance(t, torch.Tensor) and t.dtype.is_complex


def _real_and_imag_output(func):
    """func with its complex outputs replaced by their real parts, and by their imaginary parts."""
    def apply_to_complex_outputs(part):
        def wrapped(*inputs):
            return tuple(part(o) if _is_complex(o) else o for o in _as_tuple(func(*inputs)))
        return wrapped
    return apply_to_complex_outputs(torch.real), apply_to_complex_outputs(torch.imag)


def _numerical_jacobian(func, inputs, eps):
    """jac[i][j][k]: d output[j].flat[k] / d inputs[i].flat[.]: per input, a list (one per element)
    of per-output value lists."""
    result = []
    for x in inputs:
        if not (isinstance(x, torch.Tensor) and x.requires_grad):
            result.append(None)
            continue
        columns = []
        data = x.data
        for k in range(x.numel()):
            idx = _unravel(k, x.shape)
            orig = data[idx].item()
            column = _central_difference(func, inputs, data, idx, orig, eps)
            if _is_complex(x):  # d/dx + 1j * d/dy: the gradient backward gives for z = x + 1j * y
                along_imag = _central_difference(func, inputs, data, idx, orig, eps * 1j)
                column = [[dx + 1j * dy for dx, dy in zip(cx, cy)] for cx, cy in zip(column, along_imag)]
            columns.append(column)
        result.append(columns)
    return result


def _central_difference(func, inputs, data, idx, orig, step):
    """Per output, (f(x + step) - f(x - step)) / (2 |step|) for each element, x[idx] moved by step."""
    data[idx] = orig + step
    plus = [_flat_values(o) for o in _outputs_of(func, inputs)]
    data[idx] = orig - step
    minus = [_flat_values(o) for o in _outputs_of(func, inputs)]
    data[idx] = orig
    return [[(p - m) / (2 * abs(step)) for p, m in zip(po, mo)] for po, mo in zip(plus, minus)]


def _unravel(k, shape):
    idx = []
    for s in reversed(tuple(shape)):
        idx.append(k % s)
        k //= s
    return tuple(reversed(idx))


def _one_hot(like, k):
    """Zeros shaped like `like` (contiguous) with a one at flat position k."""
    t = torch.zeros(tuple(like.shape), dtype=like.dtype, device=like.device)
    t[_unravel(k, like.shape)] = 1.0
    return t


def _outputs_of(func, inputs):
    out = _as_tuple(func(*inputs))
    return tuple(o for o in out if isinstance(o, torch.Tensor))


def _analytical_jacobian(outputs, inputs):
    """Same layout as the numerical one, from one backward per output element."""
    wanted = [isinstance(x, torch.Tensor) and x.requires_grad for x in inputs]
    diff_inputs = [x for x, w in zip(inputs, wanted) if w]
    result = [[[[0.0] * o.numel() for o in outputs] for _ in range(x.numel())] if w else None
              for x, w in zip(inputs, wanted)]
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for k in range(out.numel()):
            grad_out = _one_hot(out, k)
            grads = torch.autograd.grad(out, diff_inputs, grad_out, retain_graph=True, allow_unused=True)
            gi = 0
            for i, x in enumerate(inputs):
                if result[i] is None:
                    continue
                g = grads[gi]
                gi += 1
                if g is None:
                    continue
                if g.shape != x.shape:
                    raise GradcheckError('Gradient has incorrect size')
                if g.dtype != x.dtype:
                    raise GradcheckError('Gradient has dtype mismatch')
                for e, v in enumerate(_flat_values(g)):
                    result[i][e][j][k] = v
    return result


def _close(a, n, atol, rtol):
    return abs(a - n) <= atol + rtol * abs(n) or (cmath.isnan(a) and cmath.isnan(n))


def _number(v):
    return '%.4f%+.4fj' % (v.real, v.imag) if isinstance(v, complex) else '%.4f' % v


def _format(jac, i, j):
    return '\n'.join(' '.join(_number(row[j][k]) for k in range(len(row[j]))) for row in jac[i])


def _check_backward(func, inputs, numerical, atol, rtol, nondet_tol, fail, prefix='', prefixed_outputs=()):
    """The backward check of a function whose outputs are real, against its numerical Jacobian;
    messages about the outputs in prefixed_outputs start with prefix (which part of a complex output
    they are)."""
    outputs = _differentiable_outputs(_as_tuple(func(*inputs)))
    all_outputs = _outputs_of(func, inputs)
    if not outputs:
        for i, col in enumerate(numerical):
            if col is not None and any(abs(v) > atol for c in col for o in c for v in o):
                return fail('Numerical gradient for function expected to be zero')
    else:
        analytical = _analytical_jacobian(all_outputs, inputs)
        again = _analytical_jacobian(all_outputs, inputs)
        for i, col in enumerate(numerical):
            if col is None:
                continue
            for j in range(len(all_outputs)):
                for e in range(len(col)):
                    for k in range(len(col[e][j])):
                        a, n = analytical[i][e][j][k], col[e][j][k]
                        if not _close(a, n, atol, rtol):
                            return fail((prefix if j in prefixed_outputs else '') +
                                        'Jacobian mismatch for output %d with respect to input %d,\nnumerical:%s\n'
                                        'analytical:%s\n' % (j, i, _format(numerical, i, j),
                                                              _format(analytical, i, j)))
                        if abs(a - again[i][e][j][k]) > nondet_tol:
                            return fail('Backward is not reentrant, i.e., running backward with same input and '
                                        'grad_output multiple times gives different values, although analytical '
                                        'gradient matches numerical gradient.The tolerance for nondeterminism '
                                        'was %s.' % nondet_tol)
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, check_sparse_nnz=False,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False):
    """Whether the gradients backward computes for func at inputs match finite differences."""
    inputs = _as_tuple(inputs)
    if not any(isinstance(x, torch.Tensor) and x.requires_grad for x in inputs):
        raise ValueError('gradcheck expects at least one input tensor to require gradient, but none of the them '
                         'have requires_grad=True.')
    for idx, x in enumerate(inputs):
        if isinstance(x, torch.Tensor) and x.requires_grad and x.dtype not in (torch.float64, torch.complex128):
            warnings.warn('Input #%d requires gradient and is not a double precision floating point or complex. This '
                          'check will likely fail if all the inputs are not of double precision floating point or '
                          'complex. ' % idx)

    def fail(msg):
        if raise_exception:
            raise GradcheckError(msg)
        return False

    complex_outputs = {j for j, o in enumerate(_outputs_of(func, inputs)) if _is_complex(o)}
    if complex_outputs:
        if check_forward_ad:
            raise NotImplementedError('gradcheck: check_forward_ad with complex outputs is not supported here yet')
        if check_backward_ad:
            real_fn, imag_fn = _real_and_imag_output(func)
            for part, fn in (('imaginary', imag_fn), ('real', real_fn)):
                prefix = 'While considering the %s part of complex outputs only, ' % part
                if not _check_backward(fn, inputs, _numerical_jacobian(fn, inputs, eps), atol, rtol, nondet_tol,
                                       fail, prefix, complex_outputs):
                    return False
        return True
    numerical = _numerical_jacobian(func, inputs, eps)
    if check_backward_ad and not _check_backward(func, inputs, numerical, atol, rtol, nondet_tol, fail):
        return False
    if check_forward_ad:
        if any(_is_complex(x) for x in inputs):
            raise NotImplementedError('gradcheck: check_forward_ad with complex inputs is not supported here yet')
        from torch.autograd import forward_ad as fwAD
        for i, x in enumerate(inputs):
            if numerical[i] is None:
                continue
            for e in range(x.numel()):
                tangent = _one_hot(x, e)
                with fwAD.dual_level():
                    duals = [fwAD.make_dual(y.detach(), tangent) if y is x else
                             (y.detach() if isinstance(y, torch.Tensor) else y) for y in inputs]
                    outs = _outputs_of(func, duals)
                    for j, o in enumerate(outs):
                        t = fwAD.unpack_dual(o).tangent
                        values = _flat_values(t) if t is not None else [0.0] * o.numel()
                        for k, v in enumerate(values):
                            if not _close(v, numerical[i][e][j][k], atol, rtol):
                                return fail('Jacobian computed with forward mode mismatch for output %d with respect '
                                            'to input %d,\nnumerical:%s\nanalytical (forward):%s\n'
                                            % (j, i, numerical[i][e][j][k], v))
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False):
    """gradcheck of the gradients themselves: backward with create_graph, differentiated again."""
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = random.Random(0)
        outputs = _differentiable_outputs(_as_tuple(func(*inputs)))
        def sample():
            return rng.uniform(-1, 1)

        def values(o):  # complex outputs get complex gradients
            return [complex(sample(), sample()) if o.dtype.is_complex else sample() for _ in range(o.numel())]

        grad_outputs = tuple(torch.tensor(values(o), dtype=o.dtype).reshape(o.shape).requires_grad_(True)
                             for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)
    diff_positions = [i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]

    def first_derivatives(*args):
        xs, gos = args[:n_in], args[n_in:]
        outputs = _differentiable_outputs(_as_tuple(func(*xs)))
        diff = [xs[i] for i in diff_positions]
        grads = torch.autograd.grad(outputs, diff, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol)
