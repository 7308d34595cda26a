"""complex32, complex64 and complex128: dtypes, promotion, creation and conversion, arithmetic in closed
form, views sharing memory (real, imag, view_as_real/complex, the lazy conj), reductions, products,
autograd, and the errors PyTorch raises."""
import cmath
import math
import subprocess
import sys

import pytest
import torch
from torch.autograd import gradcheck, gradgradcheck

C64, C128, C32 = torch.complex64, torch.complex128, torch.complex32


def close(t, values, tol=1e-6):
    got = t.reshape(-1).tolist() if isinstance(t, torch.Tensor) else [t]
    want = values if isinstance(values, list) else [values]
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        g, w = complex(g), complex(w)
        assert g == w or abs(g - w) <= tol * (1 + abs(w)), (got, want)


@pytest.fixture
def default_dtype():
    saved = torch.get_default_dtype()
    yield torch.set_default_dtype
    torch.set_default_dtype(saved)


# ---- dtypes ---------------------------------------------------------------------------------------

def test_dtype_facts():
    assert (torch.cfloat, torch.cdouble, torch.chalf) == (C64, C128, C32)
    assert [str(d) for d in (C32, C64, C128)] == ['torch.complex32', 'torch.complex64', 'torch.complex128']
    for d in (C32, C64, C128):
        assert d.is_complex and not d.is_floating_point and d.is_signed
    assert [d.itemsize for d in (C32, C64, C128)] == [4, 8, 16]
    assert not torch.float32.is_complex and not torch.int64.is_complex
    assert torch.get_default_dtype() == torch.float32
    with pytest.raises(TypeError, match='only floating-point types are supported as the default type'):
        torch.set_default_dtype(C64)
    x = torch.zeros(2, dtype=C64)
    assert x.is_complex() and not x.is_floating_point() and torch.is_complex(x)
    assert x.element_size() == 8 and x.type() == 'torch.ComplexFloatTensor'
    assert torch.zeros(1, dtype=C128).type() == 'torch.ComplexDoubleTensor'


PROMOTION = [  # (a, b, result), PyTorch's lattice
    (C32, torch.float16, C32), (C32, torch.bfloat16, C64), (C32, torch.float32, C64), (C32, torch.float64, C128),
    (C64, torch.float64, C128), (C64, torch.int64, C64), (C64, torch.bool, C64), (C64, torch.uint8, C64),
    (C64, C128, C128), (C32, C64, C64), (C128, torch.float16, C128), (C32, torch.int8, C32),
]


@pytest.mark.parametrize('a, b, want', PROMOTION)
def test_promotion_of_tensors(a, b, want):
    x, y = torch.zeros(2, dtype=a), torch.zeros(2, dtype=b)
    assert (x + y).dtype == want and (y + x).dtype == want


@pytest.mark.parametrize('dtype, want', [(torch.float32, C64), (torch.float64, C128), (torch.float16, C32),
                                         (torch.bfloat16, C64), (torch.int64, C64), (torch.bool, C64),
                                         (C128, C128), (C32, C32)])
def test_promotion_with_python_complex(dtype, want):
    assert (torch.ones(2, dtype=dtype) * 1j).dtype == want
    assert (1j + torch.ones(2, dtype=dtype)).dtype == want


def test_promotion_follows_the_default_dtype(default_dtype):
    default_dtype(torch.float64)
    assert (torch.ones(2, dtype=torch.int32) * 1j).dtype == C128
    assert (torch.ones(2, dtype=torch.float32) * 1j).dtype == C64
    assert torch.tensor(1j).dtype == C128 and torch.full((1,), 1j).dtype == C128
    default_dtype(torch.float16)
    assert (torch.ones(2, dtype=torch.int32) * 1j).dtype == C32
    with pytest.raises(RuntimeError, match='invalid default scalar type for complex'):
        torch.tensor(1j)
    assert torch.full((1,), 1j).dtype == C64  # PyTorch 1.13's full has no complex32 case


def test_zero_dim_operands_lift_the_category():
    # a 0-dim complex operand with a float64 tensor: complex with float64's precision
    assert (torch.tensor(1j) * torch.ones(2, dtype=torch.float64)).dtype == C128
    assert (torch.tensor(1j, dtype=C128) * torch.ones(2)).dtype == C64


def test_complex_results_do_not_go_into_real_tensors():
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired output type Float"):
        torch.ones(2).add_(1j)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        torch.abs(torch.tensor([3 + 4j]), out=torch.empty(1, dtype=torch.int64))
    x = torch.ones(2, dtype=C64)
    x.add_(torch.ones(2, dtype=C128))  # complex128 into complex64 may be cast
    close(x, [2, 2])
    x.mul_(torch.tensor([2.0, 3.0]))
    close(x, [4, 6])


def test_alpha_rules():
    close(torch.ones(2, dtype=C64).add(torch.ones(2, dtype=C64), alpha=1j), [1 + 1j, 1 + 1j])
    with pytest.raises(RuntimeError, match='For non-complex input tensors, argument alpha must not be a complex'):
        torch.ones(2).add(1, alpha=1j)
    with pytest.raises(RuntimeError, match='For integral input tensors, argument alpha must not be a floating'):
        torch.ones(2, dtype=torch.long).add(1, alpha=1j)


# ---- creation and conversion ---------------------------------------------------------------------------

def test_tensor_from_python_complex():
    t = torch.tensor([1 + 2j, 3, -1.5j])
    assert t.dtype == C64 and t.tolist() == [1 + 2j, 3 + 0j, -1.5j]
    assert torch.tensor(2 - 1j).shape == () and torch.tensor(2 - 1j).item() == 2 - 1j
    assert torch.tensor([1 + 2j], dtype=C128).dtype == C128
    assert torch.tensor([[1 + 1j]], dtype=C32).tolist() == [[1 + 1j]]
    assert torch.tensor([1j], dtype=torch.bool).tolist() == [True]
    with pytest.raises(TypeError, match='must be real number, not complex'):
        torch.tensor([1.0, 2j], dtype=torch.float64)
    assert torch.tensor([1e39j]).tolist() == [complex(0, math.inf)]  # unchecked, as floats are


def test_factories():
    close(torch.zeros(2, 2, dtype=C64), [0] * 4)
    close(torch.ones(3, dtype=C128), [1] * 3)
    assert torch.full((2,), 1 + 2j).dtype == C64
    close(torch.full((2,), 1 + 2j), [1 + 2j] * 2)
    close(torch.full((2,), 3, dtype=C64), [3, 3])
    close(torch.eye(2, dtype=C64), [1, 0, 0, 1])
    close(torch.linspace(0j, 1 + 1j, 3), [0, 0.5 + 0.5j, 1 + 1j])
    close(torch.linspace(1 + 1j, 2, 4, dtype=C64), [1 + 1j, 4 / 3 + 2j / 3, 5 / 3 + 1j / 3, 2])
    assert torch.linspace(0, 1j, 3).dtype == C64
    with pytest.raises(RuntimeError, match="inferred dtype c10::complex<float> can.t be safely cast to passed dtype Float"):
        torch.linspace(0, 1j, 3, dtype=torch.float32)
    with pytest.raises(RuntimeError):
        torch.arange(3, dtype=C64)
    with pytest.raises(RuntimeError, match='without overflow'):
        torch.arange(0, 2j)
    assert torch.empty(2, dtype=C128).dtype == C128
    close(torch.zeros_like(torch.tensor([1 + 2j])), [0])
    close(torch.tensor([1j]).new_full((2,), 1j), [1j, 1j])
    with pytest.raises(RuntimeError, match='value cannot be converted to type float.* without overflow'):
        torch.zeros(2).fill_(1 + 2j)
    close(torch.zeros(2).fill_(1 + 0j), [1, 1])
    assert torch.zeros(2, dtype=torch.bool).fill_(1j).tolist() == [False, False]  # the real part, as PyTorch


def test_item_and_python_numbers():
    assert torch.tensor(1 + 2j).item() == 1 + 2j
    assert complex(torch.tensor(1 + 2j)) == 1 + 2j and complex(torch.tensor(1.5)) == 1.5 + 0j
    assert float(torch.tensor(1 + 0j)) == 1.0 and int(torch.tensor(2 + 0j)) == 2
    with pytest.raises(RuntimeError, match='value cannot be converted to type double without overflow'):
        float(torch.tensor(1 + 2j))
    with pytest.raises(RuntimeError, match='value cannot be converted to type int64_t without overflow'):
        int(torch.tensor(1 + 2j))
    assert bool(torch.tensor(1j)) and not bool(torch.tensor(0j))
    assert torch.tensor([1 + 2j], dtype=C32)[0].item() == 1 + 2j


def test_conversions():
    x = torch.tensor([1 + 2j, -3 - 4j])
    close(x.to(C128), [1 + 2j, -3 - 4j])
    assert x.to(C128).dtype == C128
    close(torch.tensor([1, 2]).to(C64), [1, 2])
    close(torch.tensor([True, False]).to(C64), [1, 0])
    assert x.to(torch.int32).tolist() == [1, -3] and x.bool().tolist() == [True, True]
    assert torch.tensor([0j, 1j]).bool().tolist() == [False, False]  # the real part decides, as in PyTorch
    close(torch.ones(2).cfloat(), [1, 1])
    assert torch.ones(2).cdouble().dtype == C128 and torch.ones(2).chalf().dtype == C32
    close(torch.tensor([1e5 + 1j]).to(C32), [complex(math.inf, 1)])
    assert x.sum(dtype=torch.float32).item() == -2.0  # real parts, without a warning
    assert torch.tensor([1, 2]).sum(dtype=C64).dtype == C64


def test_casting_to_real_warns_once_per_process():  # any/all of complex input share the one warning
    code = ('import warnings, torch\n'
            'x = torch.tensor([1+2j])\n'
            'with warnings.catch_warnings(record=True) as w:\n'
            '    warnings.simplefilter("always")\n'
            '    a = x.float(); b = torch.zeros(1).copy_(x); c = x.real.clone(); x.any(); x.all()\n'
            'print(len(w), str(w[0].message), a.tolist(), b.tolist())\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == '1 Casting complex values to real discards the imaginary part [1.0] [1.0]'


def test_numpy_bridge():
    np = pytest.importorskip('numpy')
    a = np.array([1 + 2j, 3 - 1j])
    t = torch.from_numpy(a)
    assert t.dtype == C128
    t[0] = 5j
    assert a[0] == 5j  # shared memory
    assert torch.from_numpy(a.astype(np.complex64)).dtype == C64
    x = torch.tensor([1 + 2j, 0.5j])
    n = x.numpy()
    assert n.dtype == np.complex64 and n.tolist() == [1 + 2j, 0.5j]
    n[1] = 7
    assert x[1].item() == 7  # shared memory
    assert torch.tensor(np.complex64(1 + 2j)).dtype == C64
    assert torch.tensor(np.array([1 + 2j])).dtype == C128
    close(torch.ones(2) * np.complex128(1j), [1j, 1j])
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that has conjugate bit set"):
        x.conj().numpy()
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that has negative bit set"):
        x.conj().imag.numpy()
    assert x.conj().resolve_conj().numpy().tolist() == [1 - 2j, 7]
    with pytest.raises(TypeError, match='Got unsupported ScalarType ComplexHalf'):
        torch.zeros(1, dtype=C32).numpy()


# ---- arithmetic -------------------------------------------------------------------------------------------

def test_arithmetic_closed_forms():
    a, b = torch.tensor([1 + 2j, 3 - 4j]), torch.tensor([3 - 4j, 1 + 1j])
    close(a + b, [4 - 2j, 4 - 3j])
    close(a - b, [-2 + 6j, 2 - 5j])
    close(a * b, [11 + 2j, 7 - 1j])
    close(a / b, [-0.2 + 0.4j, -0.5 - 3.5j])
    close(-a, [-1 - 2j, -3 + 4j])
    close(torch.add(a, b, alpha=2 + 1j), [1 + 2j + (2 + 1j) * (3 - 4j), 3 - 4j + (2 + 1j) * (1 + 1j)])
    close(torch.sub(a, b, alpha=1j), [1 + 2j - 1j * (3 - 4j), 3 - 4j - 1j * (1 + 1j)])
    close(a + 1, [2 + 2j, 4 - 4j])
    close(a * torch.tensor([2, 3]), [2 + 4j, 9 - 12j])  # integers promote
    assert (a == torch.tensor([1 + 2j, 3 + 4j])).tolist() == [True, False]
    assert (a != 1 + 2j).tolist() == [False, True]
    # the schoolbook formulas, as PyTorch's kernels: no C99 Annex G recovery of infinities
    s = torch.tensor([1 + 0j]) + torch.tensor([complex(0, math.inf)])
    assert math.isnan(s.real.item()) and s.imag.item() == math.inf
    q = torch.tensor([1 + 2j]) / 0
    assert math.isnan(q.real.item()) and math.isnan(q.imag.item())


def test_pow():
    x = torch.tensor([1 + 2j, -0.5 + 0.25j], dtype=C128)
    assert (x ** 2).tolist() == [(1 + 2j) * (1 + 2j), (-0.5 + 0.25j) ** 2]  # a product, exactly
    close(x ** 3, [(1 + 2j) ** 3, (-0.5 + 0.25j) ** 3], 1e-15)
    close(x ** -1, [1 / (1 + 2j), 1 / (-0.5 + 0.25j)], 1e-15)
    close(x ** 0.5, [cmath.sqrt(1 + 2j), cmath.sqrt(-0.5 + 0.25j)], 1e-15)
    close(x ** 0, [1, 1])
    close(torch.tensor([0j]) ** 0, [1])
    close(x ** (1 + 1j), [(1 + 2j) ** (1 + 1j), (-0.5 + 0.25j) ** (1 + 1j)], 1e-12)
    close(x ** x, [(1 + 2j) ** (1 + 2j), (-0.5 + 0.25j) ** (-0.5 + 0.25j)], 1e-12)
    close(torch.tensor(2) ** 1j, [2 ** 1j])
    close(torch.pow(2, torch.tensor([1 + 2j])), [2 ** (1 + 2j)])
    close(torch.tensor([1.0, 2.0]) ** 1j, [1, 2 ** 1j])


@pytest.mark.parametrize('name, fn', [('exp', cmath.exp), ('log', cmath.log), ('sqrt', cmath.sqrt), ('sin', cmath.sin),
                                      ('cos', cmath.cos), ('tanh', cmath.tanh),
                                      ('sigmoid', lambda z: 1 / (1 + cmath.exp(-z)))])
def test_unary_math(name, fn):
    values = [1 + 2j, -0.5 + 0.25j, -2 - 1j, 0.3j]
    for dtype, tol in ((C64, 1e-6), (C128, 1e-14)):
        x = torch.tensor(values, dtype=dtype)
        close(getattr(torch, name)(x), [fn(v) for v in values], tol)
        close(getattr(x, name)(), [fn(v) for v in values], tol)
        y = x.clone()
        getattr(y, name + '_')()
        close(y, [fn(v) for v in values], tol)


def test_unary_identities():
    close(torch.exp(torch.tensor([math.pi * 1j], dtype=C128)), [-1], 1e-15)
    close(torch.log(torch.tensor([-1 + 0j], dtype=C128)), [math.pi * 1j], 1e-15)
    close(torch.sqrt(torch.tensor([-4 + 0j])), [2j])


@pytest.mark.parametrize('dtype', [C64, C128])
def test_exp_of_an_element_does_not_depend_on_its_neighbours(dtype):
    # vectors of parts below and above SLEEF's switch to its wide argument reduction (125 for
    # float32), whose rounding of small parts can differ: each element must come out as it does alone
    n = 3000
    re = (torch.arange(n, dtype=torch.float64) * 7919 % 997) / 40 - 12
    im = torch.where(torch.arange(n) % 13 == 5, (torch.arange(n) * 31 % 89) * 9.5 + 130,
                     (torch.arange(n, dtype=torch.float64) * 104729 % 1009) / 5 - 100)
    z = torch.complex(re, im).to(dtype)
    whole = torch.exp(z).tolist()
    assert [torch.exp(z[i]).item() for i in range(n)] == whole
    assert torch.exp(z[1::3]).tolist() == whole[1::3]
    assert torch.exp(z.view(-1, 2).t()).t().flatten().tolist() == whole


def test_abs_and_angle():
    x = torch.tensor([3 + 4j, -1 + 0j, 1j, 0j])
    assert x.abs().dtype == torch.float32 and x.abs().tolist() == [5, 1, 1, 0]
    assert torch.abs(x.to(C128)).dtype == torch.float64
    assert torch.abs(torch.tensor([3 + 4j], dtype=C32)).dtype == torch.float16
    close(x.angle(), [math.atan2(4, 3), math.pi, math.pi / 2, 0])
    assert x.to(C128).angle().dtype == torch.float64
    close(torch.angle(torch.tensor([-2.0, 0.0, 3.0])), [math.pi, 0, 0])
    assert math.isnan(torch.angle(torch.tensor([math.nan])).item())
    close(torch.angle(torch.tensor([1, -1])), [0, math.pi])  # integers: the default float dtype
    assert torch.abs(torch.tensor([3 + 4j]), out=torch.empty(1, dtype=torch.float64)).tolist() == [5.0]
    close(torch.abs(torch.tensor([3 + 4j]), out=torch.empty(1, dtype=C64)), [5])
    with pytest.raises(RuntimeError, match='In-place abs is not supported for complex tensors.'):
        x.abs_()
    assert abs(torch.tensor([3 - 4j])).tolist() == [5.0]


@pytest.mark.parametrize('expr', ['x < x', 'x.relu()', 'x // 1', 'x % 2', 'x.max()', 'x.max(0)', 'x.argmax()',
                                  'torch.maximum(x, x)', 'x.sum() > 0'])
def test_what_complex_numbers_do_not_support(expr):
    x = torch.tensor([1 + 2j])
    with pytest.raises(RuntimeError):
        eval(expr)


def test_complex32_has_what_pytorch_has():
    h = torch.ones(2, dtype=C32)
    close(h + h, [2, 2])
    close(h * (1 + 1j), [1 + 1j] * 2)
    close(h - 1, [0, 0])
    close(-h, [-1, -1])
    assert (h == h).tolist() == [True, True]
    assert (h + torch.ones(2)).dtype == C64
    close(h.conj_physical(), [1, 1])
    for expr in ('h / h', 'h.sum()', 'h.exp()', 'h @ h', 'h ** 2', 'h.angle()'):
        with pytest.raises(RuntimeError):
            eval(expr)


# ---- views ---------------------------------------------------------------------------------------------------

def test_real_and_imag_are_views():
    x = torch.tensor([1 + 2j, 3 - 4j])
    r, i = x.real, x.imag
    assert r.tolist() == [1, 3] and i.tolist() == [2, -4]
    assert r.dtype == torch.float32 and r.stride() == (2,) and i.storage_offset() == 1
    assert r._base is x and i._base is x
    r[0] = 10
    i.mul_(2)
    assert x.tolist() == [10 + 4j, 3 - 8j]
    x.imag = torch.tensor([0.5, 0.25])
    x.real = 7
    assert x.tolist() == [7 + 0.5j, 7 + 0.25j]
    y = torch.tensor([1.0, 2.0])
    assert y.real is y
    with pytest.raises(RuntimeError, match='imag is not implemented for tensors with non-complex dtypes.'):
        y.imag
    assert torch.tensor([[1 + 2j]]).imag.stride() == (2, 2)
    assert torch.ones(3, dtype=C64)[1:].imag.storage_offset() == 3


def test_view_as_real_and_view_as_complex():
    x = torch.tensor([[1 + 2j, 3], [4j, -1]])
    r = torch.view_as_real(x)
    assert r.shape == (2, 2, 2) and r.stride() == (4, 2, 1) and r.tolist()[0] == [[1, 2], [3, 0]]
    r[1, 1, 1] = 9
    assert x[1, 1].item() == -1 + 9j
    assert torch.view_as_real(x.t()).stride() == (2, 4, 1)
    assert torch.view_as_real(torch.tensor(1 + 2j)).tolist() == [1, 2]
    assert torch.view_as_real(torch.ones(0, dtype=C64)).shape == (0, 2)
    f = torch.arange(8.0).view(2, 2, 2)
    c = torch.view_as_complex(f)
    assert c.dtype == C64 and c.tolist() == [[1j, 2 + 3j], [4 + 5j, 6 + 7j]]
    c[0, 0] = 5
    assert f[0, 0].tolist() == [5, 0]
    assert torch.view_as_complex(torch.ones(2, dtype=torch.float64)).dtype == C128
    assert torch.view_as_complex(torch.ones(2, dtype=torch.float16)).dtype == C32
    assert torch.view_as_complex(torch.ones(6)[2:].view(2, 2)).storage_offset() == 1
    assert torch.view_as_complex(torch.ones(3, 4).view(3, 2, 2).transpose(0, 1)).stride() == (1, 2)
    assert torch.view_as_complex(torch.ones(1, 2).expand(3, 2)).stride() == (0,)


@pytest.mark.parametrize('expr, message', [
    ('torch.view_as_real(torch.ones(2))', 'view_as_real is only supported for complex tensors'),
    ('torch.view_as_real(torch.ones(2, dtype=torch.complex64).conj())', "view_as_real doesn't work on unresolved "
                                                                        "conjugated tensors"),
    ('torch.view_as_complex(torch.ones(2, 3))', 'Tensor must have a last dimension of size 2'),
    ('torch.view_as_complex(torch.ones(2, 2).t())', 'Tensor must have a last dimension with stride 1'),
    ('torch.view_as_complex(torch.ones(4)[::2])', 'Tensor must have a last dimension with stride 1'),
    ('torch.view_as_complex(torch.ones(5)[1:].view(2, 2))', 'Tensor must have a storage_offset divisible by 2'),
    ('torch.view_as_complex(torch.ones(3, 2, 2)[:, :1, :].transpose(0, 1).reshape(1, 3, 2)[:, :, :].as_strided('
     '(2, 2), (3, 1)))', 'Tensor must have a stride divisible by 2 for all but last dimension'),
    ('torch.view_as_complex(torch.ones(2, 2, dtype=torch.int64))', 'view_as_complex is only supported for half, '
                                                                   'float and double tensors, but got a tensor of '
                                                                   'scalar type: Long'),
    ('torch.view_as_complex(torch.tensor(1.0))', 'Input tensor must have one or more dimensions'),
])
def test_view_errors(expr, message):
    with pytest.raises(RuntimeError, match=message.replace('(', '\\(').replace(')', '\\)')):
        eval(expr)


def test_conj_is_a_lazy_view():
    x = torch.tensor([1 + 2j, 3 - 4j])
    c = x.conj()
    assert c.is_conj() and not x.is_conj() and c._base is x and c.data_ptr() == x.data_ptr()
    assert c.tolist() == [1 - 2j, 3 + 4j] and c[1].item() == 3 + 4j and repr(c) == 'tensor([1.-2.j, 3.+4.j])'
    x[0] = 5j  # the view reads the base's memory
    assert c[0].item() == -5j
    assert c.conj().tolist() == x.tolist() and not c.conj().is_conj()
    assert c.t().is_conj() and c[0].is_conj() and c.reshape(2, 1).is_conj() and c.contiguous().is_conj()
    assert not c.clone().is_conj() and c.clone().tolist() == c.tolist()
    assert not (c + 0).is_conj() and (c + 0).tolist() == c.tolist()
    r = c.resolve_conj()
    assert not r.is_conj() and r.tolist() == c.tolist() and r.data_ptr() != x.data_ptr()
    assert x.resolve_conj() is x
    assert c.real.tolist() == [0, 3] and not c.real.is_neg()
    im = c.imag
    assert im.is_neg() and im.tolist() == [-5, 4] and im.resolve_neg().tolist() == [-5, 4]
    assert not im.resolve_neg().is_neg()
    y = torch.ones(2)
    assert y.conj() is y and not y.is_conj() and y.conj_physical() is y


def test_writing_through_a_conjugate_view():
    x = torch.tensor([1 + 2j, 3 - 4j])
    c = x.conj()
    c.mul_(2)  # the view's values double: so do the base's
    assert x.tolist() == [2 + 4j, 6 - 8j]
    c[0] = 1 + 1j
    assert x[0].item() == 1 - 1j
    c.fill_(2j)
    assert x.tolist() == [-2j, -2j]
    c.copy_(torch.tensor([1j, 2]))
    assert x.tolist() == [-1j, 2]
    x.copy_(x.conj())  # the same memory, conjugated in place
    assert x.tolist() == [1j, 2]
    c.imag.add_(1)  # c's imaginary parts grow by 1: x's shrink
    assert x.tolist() == [0j, 2 - 1j]
    torch.zeros(2).copy_(c.real)
    out = torch.empty(2, dtype=torch.complex64).conj()
    torch.mul(torch.tensor([1j, 1]), 1, out=out)
    assert out.tolist() == [1j, 1] and out._base.tolist() == [-1j, 1]


def test_conj_physical():
    x = torch.tensor([1 + 2j, -3j])
    assert x.conj_physical().tolist() == [1 - 2j, 3j] and not x.conj_physical().is_conj()
    y = x.clone()
    y.conj_physical_()
    assert y.tolist() == [1 - 2j, 3j]
    o = torch.empty(2, dtype=C64)
    torch.conj_physical(x, out=o)
    assert o.tolist() == [1 - 2j, 3j]
    assert torch.conj_physical(torch.tensor([1, 2])).tolist() == [1, 2]


def test_complex_and_polar():
    re, im = torch.tensor([1.0, 2.0]), torch.tensor([3.0, -4.0])
    z = torch.complex(re, im)
    assert z.dtype == C64 and z.tolist() == [1 + 3j, 2 - 4j]
    assert torch.complex(re.double(), im.double()).dtype == C128
    assert torch.complex(re.half(), im.half()).dtype == C32
    assert torch.complex(torch.ones(2, 1), torch.zeros(3)).shape == (2, 3)  # broadcast
    close(torch.polar(torch.tensor([2.0]), torch.tensor([math.pi / 2])), [2j])
    close(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, math.pi])), [1, -2])
    out = torch.empty(2, dtype=C64)
    torch.complex(re, im, out=out)
    assert out.tolist() == [1 + 3j, 2 - 4j]
    with pytest.raises(RuntimeError, match='Expected both inputs to be Half, Float or Double tensors but got Long '
                                           'and Long'):
        torch.complex(torch.tensor([1]), torch.tensor([2]))
    with pytest.raises(RuntimeError, match='Expected object of scalar type Float but got scalar type Double for '
                                           'second argument'):
        torch.polar(torch.ones(1), torch.ones(1, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="Expected object of scalar type ComplexFloat but got scalar type Float "
                                           "for argument 'out'"):
        torch.complex(re, im, out=torch.empty(2))
    with pytest.raises(RuntimeError, match='must match the size'):
        torch.polar(torch.ones(2), torch.ones(3))


# ---- reductions and products ----------------------------------------------------------------------------------

def test_sum_and_mean():
    x = torch.tensor([[1 + 2j, 3], [-1j, 2 - 2j]])
    assert x.sum().item() == 6 - 1j and x.sum().dtype == C64
    assert x.sum(0).tolist() == [1 + 1j, 5 - 2j] and x.sum(1, keepdim=True).tolist() == [[4 + 2j], [2 - 3j]]
    assert x.mean().item() == 1.5 - 0.25j and x.mean(1).tolist() == [2 + 1j, 1 - 1.5j]
    assert x.t().sum(1).tolist() == [1 + 1j, 5 - 2j]  # non-contiguous
    assert x.conj().sum().item() == 6 + 1j
    assert x.sum(dtype=C128).dtype == C128
    assert torch.zeros(0, dtype=C64).sum().item() == 0
    assert torch.tensor([1, 2]).mean(dtype=C64).item() == 1.5
    big = torch.full((100000,), 0.5 + 0.25j)
    assert big.sum().item() == 50000 + 25000j
    with pytest.raises(RuntimeError, match='sum_cpu" not implemented for \'ComplexHalf\''):
        torch.ones(2, dtype=C32).sum()


def test_matrix_products():
    a = torch.tensor([[1 + 1j, 2], [3, 4j]])
    want = [[6 + 2j, 2 + 10j], [3 + 15j, -10]]
    assert torch.mm(a, a).tolist() == want and (a @ a).tolist() == want
    assert (a.to(C128) @ a.to(C128)).tolist() == want
    assert (a.t() @ a).tolist() == [[9 + 2j, 2 + 14j], [2 + 14j, -12]]
    assert (a.conj() @ a).tolist() == [[8, 2 + 6j], [3 - 9j, 22]]
    assert torch.bmm(a.unsqueeze(0), a.unsqueeze(0)).tolist() == [want]
    v = torch.tensor([1 + 1j, 2 - 1j])
    assert (a @ v).tolist() == [4 + 0j, 7 + 11j]
    assert (v @ v).item() == (1 + 1j) ** 2 + (2 - 1j) ** 2  # PyTorch 1.13's CPU build returns 0 here
    big = torch.complex(torch.arange(600.0).view(20, 30), torch.ones(20, 30))
    ref = [[sum(big[i, k].item() * big.t()[k, j].item() for k in range(30)) for j in range(20)] for i in range(20)]
    close(big @ big.t(), [v for row in ref for v in row], 1e-6)
    with pytest.raises(RuntimeError):
        torch.ones(2, 2, dtype=C32) @ torch.ones(2, 2, dtype=C32)


def test_blas_providers_agree():
    x = torch.complex(torch.arange(96.0).view(8, 12) / 7, torch.ones(8, 12) * 0.5).to(C128)
    results = []
    for name in torch.backends.blas.available():
        torch.backends.blas.use(name)
        results.append((x @ x.t().conj()).tolist())
    torch.backends.blas.use('blis')
    for r in results[1:]:
        close(torch.tensor(r, dtype=C128), [v for row in results[0] for v in row], 1e-12)


# ---- autograd ------------------------------------------------------------------------------------------------

def test_gradients_are_conjugate_wirtinger_derivatives():
    x = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    (x * x.conj()).real.sum().backward()  # |z|^2: 2z
    assert x.grad.tolist() == [2 + 4j, 6 - 2j]
    x.grad = None
    x.imag.sum().backward()
    assert x.grad.tolist() == [1j, 1j]
    x.grad = None
    x.abs().sum().backward()  # z / |z|
    close(x.grad, [(1 + 2j) / abs(1 + 2j), (3 - 1j) / abs(3 - 1j)])
    x.grad = None
    x.angle().sum().backward()  # 1j z / |z|^2
    close(x.grad, [1j * (1 + 2j) / 5, 1j * (3 - 1j) / 10])
    r = torch.tensor([1.0, -2.0], requires_grad=True)
    (r * (1 + 2j)).abs().sum().backward()  # a real input gets a real gradient
    assert r.grad.dtype == torch.float32
    close(r.grad, [math.sqrt(5), -math.sqrt(5)])
    z = torch.zeros(2, dtype=C64, requires_grad=True)
    (z.sum() * 1j).backward()  # PyTorch 1.13 seeds a complex scalar with 1 (later versions refuse)
    assert z.grad.tolist() == [-1j, -1j]


def test_gradcheck_on_complex_functions():
    c = torch.tensor([1 + 2j, -0.5 + 0.3j], dtype=C128, requires_grad=True)
    r = torch.tensor([0.7, -1.2], dtype=torch.float64, requires_grad=True)
    for fn in (lambda a: a * a, lambda a: a.conj() * a, torch.exp, torch.abs, torch.angle, torch.sigmoid,
               lambda a: a / (a + 2), lambda a: a.imag, lambda a: torch.view_as_real(a), lambda a: a.sum()):
        assert gradcheck(fn, (c,)) and gradgradcheck(fn, (c,))
    assert gradcheck(lambda a, b: a * b, (c, r))
    assert gradcheck(lambda a: torch.complex(a, 2 * a), (r,)) and gradgradcheck(lambda a: torch.polar(a, a), (r,))
    m = torch.complex(torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 3, dtype=torch.float64))
    n = torch.complex(torch.randn(3, 2, dtype=torch.float64), torch.randn(3, 2, dtype=torch.float64))
    assert gradcheck(torch.mm, (m.requires_grad_(), n.requires_grad_()))


def test_gradcheck_finds_wrong_complex_backwards():
    class Doubled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    class NotConjugated(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1j

        @staticmethod
        def backward(ctx, g):
            return g * 1j  # should be g * -1j (the conjugate)

    from torch.autograd.gradcheck import GradcheckError
    c = torch.tensor([1 + 2j], dtype=C128, requires_grad=True)
    with pytest.raises(GradcheckError,
                       match='While considering the imaginary part of complex outputs only, Jacobian mismatch'):
        gradcheck(Doubled.apply, (c,))
    assert not gradcheck(NotConjugated.apply, (c,), raise_exception=False)


def test_in_place_on_real_and_imag_views_in_a_graph():
    x = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    y = x * 1
    y.real.mul_(2)  # y = 2 Re(x) + 1j Im(x)
    (y * y.conj()).real.sum().backward()  # d/dx of 4 Re^2 + Im^2: 8 Re + 2j Im
    assert x.grad.tolist() == [8 + 4j, 24 - 2j]
    f = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = f * 1
    torch.view_as_complex(g).mul_(1j)
    g.sum().backward()
    assert f.grad.tolist() == [[1, -1], [1, -1]]
    with pytest.raises(RuntimeError, match='a view of a leaf Variable that requires grad'):
        x.real.mul_(2)


# ---- random numbers, the meta device, odd shapes ----------------------------------------------------------------

def test_random_complex_draws_its_parts():
    for dtype, part in ((C64, torch.float32), (C128, torch.float64)):
        torch.manual_seed(0)
        a = torch.randn(40, dtype=dtype)
        torch.manual_seed(0)
        b = torch.empty(40, 2, dtype=part).normal_(0, 1 / math.sqrt(2))
        assert torch.view_as_real(a).tolist() == b.tolist()
        torch.manual_seed(0)
        u = torch.rand(5, dtype=dtype)
        torch.manual_seed(0)
        assert torch.view_as_real(u).tolist() == torch.rand(5, 2, dtype=part).tolist()
    big = torch.randn(20000, dtype=C128)
    assert abs((big.real * big.real).mean().item() - 0.5) < 0.05 and abs(big.imag.mean().item()) < 0.05
    with pytest.raises(RuntimeError):
        torch.empty(2, dtype=C64).random_()


def test_meta_device():
    x = torch.empty(2, 3, dtype=C64, device='meta')
    assert (x * x).dtype == C64 and (x * x).device.type == 'meta'
    assert x.abs().dtype == torch.float32 and torch.view_as_real(x).shape == (2, 3, 2)
    assert x.real.shape == (2, 3) and x.conj().is_conj() and (x @ x.t()).shape == (2, 2)
    assert x.sum().shape == () and torch.complex(x.real, x.imag).dtype == C64


def test_empty_zero_dim_broadcast_and_strided():
    e = torch.zeros(0, 3, dtype=C64)
    assert (e * 1j).shape == (0, 3) and e.sum(0).tolist() == [0j] * 3 and e.abs().shape == (0, 3)
    s = torch.tensor(1 + 1j)
    assert (s * s).item() == 2j and s.abs().dim() == 0
    a = torch.tensor([[1j], [2]])
    assert (a * torch.tensor([1, 1j, -1])).tolist() == [[1j, -1, -1j], [2, 2j, -2]]
    z = torch.complex(torch.arange(12.0), -torch.arange(12.0)).view(3, 4)
    assert (z.t() * 2).tolist() == (z * 2).t().tolist()
    assert z[:, ::2].exp().tolist() == z.exp()[:, ::2].tolist()
    z2 = z.clone()
    z2[:, 1::2] *= 1j
    assert z2[:, 1::2].tolist() == (z[:, 1::2] * 1j).tolist()


def test_vdot_and_vecdot_conjugate_their_first_argument():
    """vdot(x, y) = sum(conj(x) y) (it had summed x y), linalg.vecdot the same along a dim, dot none;
    the gradients, checked by central differences, follow PyTorch's conjugate convention."""
    x = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128)
    y = torch.tensor([2 - 1j, 1j], dtype=torch.complex128)
    assert torch.vdot(x, y).item() == -1 - 2j and torch.dot(x, y).item() == 5 + 6j
    assert torch.linalg.vecdot(x, y).item() == -1 - 2j
    assert torch.linalg.vecdot(torch.stack([x, y]), torch.stack([y, x]), dim=1).tolist() == [-1 - 2j, -1 + 2j]
    assert torch.vdot(x.conj(), y).item() == 5 + 6j
    for op in (torch.dot, torch.vdot):
        a = x.clone().requires_grad_()
        op(a, y).abs().backward()
        h = 1e-6
        for i in range(2):
            step = torch.zeros(2, dtype=torch.complex128)
            parts = []
            for d in (h, 1j * h):
                step[i] = d
                parts.append((op(x + step, y).abs().item() - op(x - step, y).abs().item()) / (2 * h))
            assert abs(a.grad[i].item() - complex(*parts)) < 1e-6, (op, i, a.grad[i], parts)
