"""DIFFERENTIAL TEST OF THE FUNCTIONS COMPOSED IN PYTHON (torch/_composites.py, torch/_dtype_info.py)
AGAINST THE REFERENCE PYTORCH (1.13.1).

diff, trapezoid/trapz/cumulative_trapezoid, combinations, cov/corrcoef, logaddexp(2), sinc, vander,
inner, dist, the windows, isin, block_diag, cartesian_prod, atleast_*d, hsplit/vsplit/dsplit,
is_nonzero/is_same_size/is_signed, scalar_tensor, ravel, fill_diagonal_, finfo/iinfo,
promote_types/result_type/can_cast, torch.special's ndtr/entr/xlog1py/sinc/softmax/log_softmax/logsumexp/i0/i0e,
ldexp, frexp, i0, kaiser_window, the legacy Tensor.new/apply_/map_/map2_, and their Tensor methods, with the errors
each raises. The
reference's results are recorded in tests/data/reference/composites.json by tools/record_reference.
Nothing at module level may import this project's torch.
"""

import pytest

from differential import Suite

X = 'torch.tensor([1., 4, 9, 16])'
Y = 'torch.tensor([[1., 2, 4], [3, 5, 9]])'
INF = "float('inf')"

CASES = [
    'torch.diff(%s)' % X, 'torch.diff(%s, dim=0)' % Y, 'torch.diff(%s, n=2)' % X,
    'torch.diff(%s, prepend=torch.tensor([0.]), append=torch.tensor([20., 30]))' % X,
    'torch.diff(torch.tensor([True, False, False]))', 'torch.diff(%s, n=5)' % X, 'torch.diff(%s, n=-1)' % X,
    'torch.diff(torch.tensor(1.))', '%s.diff()' % X,
    # gradient: uniform steps, steps per dim, coordinates, second-order ends, integer input, errors
    'torch.gradient(%s)' % Y, 'torch.gradient(%s, dim=1)' % Y, 'torch.gradient(%s, spacing=2.0)' % Y,
    'torch.gradient(%s, spacing=[2.0, 0.5])' % Y, 'torch.gradient(%s, dim=-1, edge_order=2)' % Y,
    'torch.gradient(%s, spacing=3, edge_order=2)' % X,
    'torch.gradient(%s, spacing=(torch.tensor([0., 1, 2.5, 3, 7][:%s.shape[0]]), torch.arange(%s.shape[1]) ** 1.5))'
    % (Y, Y, Y),
    'torch.gradient(%s, spacing=[torch.arange(%s.shape[0]) ** 2.0], edge_order=2)' % (X, X),
    'torch.gradient(torch.tensor([1, 2, 4, 7]))', 'torch.gradient(torch.tensor([1., 2]), edge_order=2)',
    'torch.gradient(%s, edge_order=3)' % X, 'torch.gradient(%s, spacing=[1., 2, 3])' % Y,
    'torch.gradient(%s, spacing=[1., 2, 3], dim=[0])' % Y,
    '%s.__rdiv__(2)' % X,
    'torch.trapezoid(%s)' % X, 'torch.trapezoid(%s, dx=0.5)' % X, 'torch.trapezoid(%s, torch.tensor([0., 1, 3, 6]))' % X,
    'torch.trapz(%s)' % Y, 'torch.trapezoid(%s, dim=0)' % Y, 'torch.trapezoid(torch.ones(0))',
    'torch.cumulative_trapezoid(%s)' % X, 'torch.cumulative_trapezoid(%s, dx=2.)' % X,
    'torch.cumulative_trapezoid(%s, torch.tensor([0., 2, 3]))' % Y,
    'torch.combinations(torch.tensor([1, 2, 3]))', 'torch.combinations(torch.tensor([1, 2, 3]), 3)',
    'torch.combinations(torch.tensor([1, 2]), with_replacement=True)', 'torch.combinations(torch.tensor([1, 2, 3]), 0)',
    'torch.combinations(torch.tensor([1, 2, 3]), 4)', 'torch.combinations(torch.ones(2, 2))',
    'torch.cov(%s)' % Y, 'torch.cov(%s, correction=0)' % Y, 'torch.corrcoef(%s)' % Y, 'torch.cov(%s)' % X,
    'torch.cov(%s, fweights=torch.tensor([1, 2, 1]), aweights=torch.tensor([0.5, 1, 2]))' % Y,
    'torch.cov(%s, aweights=torch.tensor([0.5, 1, 2]))' % Y, 'torch.cov(torch.ones(2, 2, 2))', '%s.cov()' % Y,
    '%s.corrcoef()' % Y, 'torch.corrcoef(torch.tensor([[1., 2, 3], [3, 1, 2], [2, 2, 2.5]]))',
    'torch.logaddexp(torch.tensor([1., -%s, %s, 0.5]), torch.tensor([2., -%s, %s, -30]))' % (INF, INF, INF, INF),
    'torch.logaddexp2(torch.tensor([1., 100]), torch.tensor([3., -2]))', '%s.logaddexp(%s)' % (X, X),
    'torch.sinc(torch.tensor([0., 0.5, 1, -2.5, 1e-3]))', 'torch.sinc(torch.tensor([0, 1]))', '%s.sinc()' % X,
    'torch.vander(torch.tensor([1, 2, 3]))', 'torch.vander(torch.tensor([1., 2]), N=4, increasing=True)',
    'torch.vander(torch.tensor([2, 3]), N=0)', 'torch.inner(%s, %s)' % (X, X), 'torch.inner(%s, %s)' % (Y, Y),
    'torch.inner(%s, torch.tensor(2.))' % Y, 'torch.dist(%s, %s + 1)' % (X, X), 'torch.dist(%s, %s * 0, 1)' % (X, X),
    '%s.dist(%s * 2)' % (X, X), 'torch.inner(%s, torch.ones(2))' % Y,
    'torch.hann_window(5)', 'torch.hamming_window(4, periodic=False)', 'torch.blackman_window(6)',
    'torch.bartlett_window(5)', 'torch.hann_window(1)', 'torch.hann_window(0)', 'torch.hann_window(8, dtype=torch.float64)',
    'torch.bartlett_window(6, periodic=False)', 'torch.hamming_window(7, alpha=0.6, beta=0.4)',
    'torch.hamming_window(7, False, 0.6, 0.4)', 'torch.hamming_window(7, True, alpha=0.6)',
    'torch.blackman_window(5, periodic=False, dtype=torch.float64)', 'torch.hann_window(3, dtype=torch.int64)',
    'torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4, 6]))', 'torch.isin(torch.tensor([1, 2]), 2)',
    'torch.isin(3, torch.tensor([1, 3]))', 'torch.isin(torch.tensor([1., 2]), torch.tensor([2.]), invert=True)',
    'torch.block_diag(torch.tensor([[1, 2]]), torch.tensor(3), torch.tensor([4., 5]))', 'torch.block_diag()',
    'torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))', 'torch.cartesian_prod(torch.tensor([1, 2]))',
    'torch.atleast_2d(torch.tensor(1.))', 'torch.atleast_3d(torch.tensor([1, 2]))',
    'torch.atleast_1d(torch.tensor(1.), torch.tensor([2.]))', 'torch.atleast_1d([torch.tensor(1.)])',
    'torch.atleast_3d(torch.ones(2, 3)).shape', 'torch.atleast_2d(torch.ones(2, 3, 4)).shape',
    'torch.hsplit(torch.arange(8).view(2, 4), 2)', 'torch.vsplit(torch.arange(8).view(4, 2), [1, 3])',
    'torch.dsplit(torch.arange(8).view(1, 2, 4), 2)', 'torch.hsplit(torch.arange(8).view(2, 4), 3)',
    'torch.hsplit(torch.arange(6), 3)', 'torch.vsplit(torch.arange(3), 1)', '%s.hsplit(3)' % Y,
    'torch.is_nonzero(torch.tensor([1, 2]))', 'torch.is_nonzero(torch.tensor([]))', 'torch.is_nonzero(torch.tensor([0.]))',
    'torch.is_nonzero(torch.tensor(3))', 'torch.is_same_size(%s, %s)' % (X, Y),
    'torch.is_signed(torch.tensor([1], dtype=torch.uint8))', 'torch.tensor([1.]).is_signed()', 'torch.scalar_tensor(3)',
    'torch.scalar_tensor(2, dtype=torch.int32)', 'torch.ravel(%s)' % Y, '%s.t().ravel()' % Y,
    'torch.zeros(5, 3).fill_diagonal_(2, wrap=True)', 'torch.zeros(3, 3, 3).fill_diagonal_(1).sum()',
    'torch.zeros(7, 3).fill_diagonal_(1, wrap=True)', 'torch.zeros(2, 4).fill_diagonal_(5)',
    'torch.zeros(7, 3).fill_diagonal_(1)', 'torch.zeros(2, 3, 3).fill_diagonal_(1)',
    '%s.type_as(torch.tensor([1]))' % X, '%s.new_empty_strided((2, 2), (1, 2)).stride()' % X,
    'repr(torch.finfo(torch.float16))', 'repr(torch.finfo())', 'repr(torch.finfo(torch.bfloat16))',
    'torch.finfo(torch.float32).eps', 'torch.finfo(torch.complex128).max', 'repr(torch.iinfo(torch.int32))',
    'torch.iinfo(torch.int64).min', 'torch.iinfo(torch.uint8).bits', 'torch.finfo(torch.int32)', 'torch.iinfo(torch.bool)',
    'torch.iinfo(torch.float32)', 'torch.finfo(torch.float32) == torch.finfo(torch.float32)',
    'torch.finfo(torch.float64).tiny', 'torch.finfo(torch.float16).resolution', 'torch.finfo(torch.float32).smallest_normal',
    'torch.promote_types(torch.int32, torch.float16)', 'torch.promote_types(torch.bool, torch.uint8)',
    'torch.promote_types(torch.complex64, torch.float64)', 'torch.result_type(torch.tensor([1]), 1.0)',
    'torch.result_type(1, 2)', 'torch.result_type(torch.tensor(1., dtype=torch.float64), torch.tensor([1], dtype=torch.int32))',
    'torch.result_type(torch.tensor([1], dtype=torch.uint8), -1)', 'torch.result_type(True, 2.5)',
    'torch.result_type(torch.tensor([True]), 1j)',
    "torch.special.ndtr(torch.tensor([-3., -0.5, 0, 0.5, 2, float('inf'), float('nan')]))",
    "torch.special.entr(torch.tensor([-1., 0, 0.5, 1, float('inf')]))", 'torch.special.entr(torch.tensor([1, 2]))',
    "torch.special.xlog1py(torch.tensor([0., 2, 3, 0]), torch.tensor([-1., 1, float('nan'), float('nan')]))",
    'torch.special.ndtr(torch.tensor([1, 2]))', "torch.special.sinc(torch.tensor([-3., 0, 0.5]))",
    'torch.special.softmax(torch.tensor([1., 2, 3]), 0)',
    'torch.special.log_softmax(torch.tensor([1., 2, 3]), 0, dtype=torch.float64)',
    'torch.special.logsumexp(torch.tensor([1., 2, 3]), 0)',
    # ldexp, i0 (Cephes' series), kaiser_window, the legacy new/apply_/map_/map2_
    'torch.ldexp(torch.tensor([1.5, -2., 0.25]), torch.tensor([2, 3, -1]))',
    'torch.ldexp(torch.tensor([1, 2]), torch.tensor([1, 2]))', 'torch.ldexp(torch.tensor([1.5]), torch.tensor(2.5))',
    'torch.tensor([3., 5.]).ldexp(torch.tensor([1, -1]))', 'torch.tensor([3., 5.]).ldexp_(torch.tensor([1, -1]))',
    "torch.i0(torch.tensor([0., 1., -3.5, 7.99, 8., 8.01, 10., -20., 50., float('inf'), float('nan')], "
    "dtype=torch.float64))",
    'torch.i0(torch.linspace(-30, 30, 41))', 'torch.i0(torch.tensor([1, 2]))', 'torch.tensor([0.5, 2.]).i0()',
    'torch.tensor([0.5, 2.]).i0_()', "torch.special.i0e(torch.tensor([0., 1., -3.5, 8., 20., 700., float('inf')], "
    "dtype=torch.float64))", 'torch.special.i0e(torch.linspace(-30, 30, 41))', 'torch.special.i0(torch.tensor([2.]))',
    'torch.kaiser_window(5)', 'torch.kaiser_window(4, periodic=False, beta=5.)', 'torch.kaiser_window(1)',
    'torch.kaiser_window(0)', 'torch.kaiser_window(6, dtype=torch.float64)', 'torch.kaiser_window(3, dtype=torch.int64)',
    'torch.tensor([1., 2.]).new(2, 3).shape', 'torch.tensor([1., 2.]).new([1, 2])', 'torch.tensor([1., 2.]).new().shape',
    'torch.tensor([1, 2]).new(torch.Size([2, 1])).shape', 'torch.tensor([1., 2.]).new(torch.tensor([1, 2]))',
    'torch.tensor([1., 2.]).new(torch.tensor([3., 4.]))', 'torch.tensor([[1., 2.]]).apply_(lambda v: v * 3 + 1)',
    'torch.tensor([[1, 2], [3, 4]]).map_(torch.tensor([10, 20]), lambda a, b: a * b)',
    'torch.tensor([1., 2.]).map2_(torch.tensor([3., 4.]), torch.tensor(2.), lambda a, b, c: a + b * c)',
    "torch.frexp(torch.tensor([0., -0., 1., 0.75, -3., 1e-40, -1e-45, float('inf'), float('nan'), 3e38, 0.99999994]))",
    "torch.frexp(torch.tensor([0., 1.5, -6e-8, 6e-5, 65504., float('-inf')], dtype=torch.float16))",
    "torch.frexp(torch.tensor([0., 1.5, -6e-8, 1e-300, 1e300, 5e-324], dtype=torch.float64))",
    "torch.frexp(torch.tensor([0., 1.5, -6e-8, 1e-39, 1e30], dtype=torch.bfloat16))",
    'torch.frexp(torch.tensor([[2., 3.], [0.1, -7.]]).t())', 'torch.tensor([5.]).frexp()', 'torch.frexp(torch.tensor([1, 2]))',
]
for a in ('float32', 'int32', 'bool', 'complex64', 'float64', 'uint8'):
    for b in ('int32', 'float32', 'bool', 'int8', 'complex64', 'float64'):
        CASES.append('torch.can_cast(torch.%s, torch.%s)' % (a, b))

SUITE = Suite('composites', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)


def test_set_printoptions_is_torch_s():
    import torch
    try:
        torch.set_printoptions(precision=2)
        assert repr(torch.tensor([1.23456])) == 'tensor([1.23])'
    finally:
        torch.set_printoptions(profile='default')
    assert repr(torch.tensor([1.23456])) == 'tensor([1.2346])'


def test_frexp_mantissa_is_differentiable():
    import torch
    x = torch.tensor([3., -0.1, 40.], requires_grad=True)
    mantissa, exponent = torch.frexp(x)
    assert not exponent.requires_grad and type(mantissa.grad_fn).__name__ == 'FrexpBackward'
    mantissa.sum().backward()
    assert x.grad.tolist() == [0.25, 8.0, 1 / 64]  # 1 / 2 ** exponent, PyTorch's FrexpBackward0
