"""gradcheck and gradgradcheck: analytical gradients (from backward) against finite differences.

The numerical Jacobian perturbs each element of each input that requires grad by +-eps (central
differences); the analytical one runs backward once per output element. Both are small, so they are
kept as Python lists of floats.
"""
import math
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
    return [float(v) for v in values]


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
            data[idx] = orig + eps
            plus = [_flat_values(o) for o in _outputs_of(func, inputs)]
            data[idx] = orig - eps
            minus = [_flat_values(o) for o in _outputs_of(func, inputs)]
            data[idx] = orig
            columns.append([[(p - m) / (2 * eps) for p, m in zip(po, mo)] for po, mo in zip(plus, minus)])
        result.append(columns)
    return result


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
    return abs(a - n) <= atol + rtol * abs(n) or (math.isnan(a) and math.isnan(n))


def _format(jac, i, j):
    return '\n'.join(' '.join('%.4f' % row[j][k] for k in range(len(row[j]))) for row in jac[i])


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, check_sparse_nnz=False,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False):
    """Whether the gradients backward computes for func at inputs match finite differences."""
    inputs = _as_tuple(inputs)
    if not any(isinstance(x, torch.Tensor) and x.requires_grad for x in inputs):
        raise ValueError('gradcheck expects at least one input tensor to require gradient, but none of the them '
                         'have requires_grad=True.')
    for idx, x in enumerate(inputs):
        if isinstance(x, torch.Tensor) and x.requires_grad and x.dtype != torch.float64:
            warnings.warn('Input #%d requires gradient and is not a double precision floating point or complex. This '
                          'check will likely fail if all the inputs are not of double precision floating point or '
                          'complex. ' % idx)

    def fail(msg):
        if raise_exception:
            raise GradcheckError(msg)
        return False

    outputs = _differentiable_outputs(_as_tuple(func(*inputs)))
    all_outputs = _outputs_of(func, inputs)
    numerical = _numerical_jacobian(func, inputs, eps)
    if check_backward_ad:
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
                                return fail('Jacobian mismatch for output %d with respect to input %d,\nnumerical:%s\n'
                                            'analytical:%s\n' % (j, i, _format(numerical, i, j),
                                                                  _format(analytical, i, j)))
                            if abs(a - again[i][e][j][k]) > nondet_tol:
                                return fail('Backward is not reentrant, i.e., running backward with same input and '
                                            'grad_output multiple times gives different values, although analytical '
                                            'gradient matches numerical gradient.The tolerance for nondeterminism '
                                            'was %s.' % nondet_tol)
    if check_forward_ad:
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
        grad_outputs = tuple(torch.tensor([rng.uniform(-1, 1) for _ in range(o.numel())], dtype=o.dtype)
                             .reshape(o.shape).requires_grad_(True) for o in outputs)
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
