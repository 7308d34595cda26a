"""gradcheck samples of the linear algebra ops (test_autograd_ops.py's SAMPLES takes them in).

Factorisations get well-conditioned inputs: symmetric positive-definite matrices for Cholesky and
eigh, matrices with distinct singular values for svd, diagonally dominant ones for LU and solves."""
import torch


def _samples(T, mixed):
    def spd(n, batch=()):
        a = T(*batch, n, n, low=-1, high=1, requires_grad=False)
        return (a @ a.transpose(-2, -1) + n * torch.eye(n, dtype=torch.float64)).requires_grad_()

    def dominant(n, batch=()):
        a = T(*batch, n, n, low=-1, high=1, requires_grad=False)
        return (a + 3 * torch.eye(n, dtype=torch.float64)).requires_grad_()

    return {
        'dot': lambda: [((T(3), T(3)), {})],
        'vdot': lambda: [((T(3), T(3)), {})],
        'mv': lambda: [((T(2, 3), T(3)), {})],
        'addmm': lambda: [((T(2, 4), T(2, 3), T(3, 4)), {}), ((T(4), T(2, 3), T(3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addmv': lambda: [((T(2), T(2, 3), T(3)), {}), ((T(1), T(2, 3), T(3)), {'beta': 0.5, 'alpha': 2})],
        'addr': lambda: [((T(2, 3), T(2), T(3)), {}), ((T(3), T(2), T(3)), {'beta': 0.5, 'alpha': 2})],
        'baddbmm': lambda: [((T(2, 2, 4), T(2, 2, 3), T(2, 3, 4)), {}),
                            ((T(4), T(2, 2, 3), T(2, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addbmm': lambda: [((T(2, 4), T(3, 2, 3), T(3, 3, 4)), {}),
                           ((T(4), T(3, 2, 3), T(3, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        # in place: the bias is the result, so it has the result's sizes
        'addmm_': lambda: [((T(2, 4), T(2, 3), T(3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addmv_': lambda: [((T(2), T(2, 3), T(3)), {'beta': 0.5, 'alpha': 2})],
        'addr_': lambda: [((T(2, 3), T(2), T(3)), {'beta': 0.5, 'alpha': 2})],
        'baddbmm_': lambda: [((T(2, 2, 4), T(2, 2, 3), T(2, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addbmm_': lambda: [((T(2, 4), T(3, 2, 3), T(3, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        'outer': lambda: [((T(2), T(3)), {})],
        'ger': lambda: [((T(2), T(3)), {})],
        '_unsafe_view': lambda: [((T(2, 3), [3, 2]), {})],
    }


def samples(T, mixed):
    return _samples(T, mixed)
