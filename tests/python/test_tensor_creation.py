"""Creating tensors: torch.tensor and its dtype inference, the factories (empty, zeros, ones, full,
arange, linspace, eye and the *_like forms), dtype conversions, the dtype and device objects, and the
default dtype."""
import math
import struct

import pytest

import torch

ALL_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
              torch.bfloat16, torch.float32, torch.float64]
FLOAT_DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
ITEMSIZE = {torch.bool: 1, torch.uint8: 1, torch.int8: 1, torch.int16: 2, torch.int32: 4, torch.int64: 8,
            torch.float16: 2, torch.bfloat16: 2, torch.float32: 4, torch.float64: 8}


@pytest.fixture
def default_dtype():
    """Lets a test change the default dtype; restores it whatever happens."""
    saved = torch.get_default_dtype()
    yield
    torch.set_default_dtype(saved)


def f16(x):
    return struct.unpack('e', struct.pack('e', x))[0]


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def bf16(x):
    """float -> bfloat16 -> float, rounding to nearest even as PyTorch does."""
    bits = struct.unpack('I', struct.pack('f', x))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack('f', struct.pack('I', bits))[0]


ROUND = {torch.float16: f16, torch.bfloat16: bf16, torch.float32: f32, torch.float64: float}


# ---- torch.tensor: dtype inference --------------------------------------------------------------

@pytest.mark.parametrize('data, dtype, shape, values', [
    ([1, 2, 3], torch.int64, (3,), [1, 2, 3]),
    ([1, 2.0], torch.float32, (2,), [1.0, 2.0]),
    ([True, False], torch.bool, (2,), [True, False]),
    ([True, 2], torch.int64, (2,), [1, 2]),
    ([True, 2.5], torch.float32, (2,), [1.0, 2.5]),
    (3, torch.int64, (), 3),
    (3.5, torch.float32, (), 3.5),
    (False, torch.bool, (), False),
    ([], torch.float32, (0,), []),
    ([[], []], torch.float32, (2, 0), [[], []]),
    (((1, 2), (3, 4)), torch.int64, (2, 2), [[1, 2], [3, 4]]),
    ([[1, 2], [3, 4.5]], torch.float32, (2, 2), [[1.0, 2.0], [3.0, 4.5]]),
    ([[[1]], [[2]]], torch.int64, (2, 1, 1), [[[1]], [[2]]]),
    (range(4), torch.int64, (4,), [0, 1, 2, 3]),
    ([range(2), (5, 6)], torch.int64, (2, 2), [[0, 1], [5, 6]]),
], ids=str)
def test_tensor_infers_dtype_and_shape(data, dtype, shape, values):
    t = torch.tensor(data)
    assert t.dtype == dtype
    assert t.shape == shape
    assert t.tolist() == values
    assert type(t.tolist()) is type(values)


def test_tensor_values_are_exact():
    assert torch.tensor([2 ** 40, -3]).tolist() == [2 ** 40, -3]
    assert torch.tensor([2 ** 63 - 1]).item() == 2 ** 63 - 1
    assert torch.tensor([-2 ** 63]).item() == -2 ** 63
    assert torch.tensor([0.1]).item() == f32(0.1)
    assert torch.tensor([0.1], dtype=torch.float64).item() == 0.1
    assert torch.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]


def test_tensor_uses_the_default_dtype_for_floats(default_dtype):
    torch.set_default_dtype(torch.float64)
    assert torch.tensor([1.5]).dtype == torch.float64
    assert torch.tensor([1.5]).item() == 1.5
    assert torch.tensor([]).dtype == torch.float64
    assert torch.tensor([1]).dtype == torch.int64


@pytest.mark.parametrize('dtype', ALL_DTYPES, ids=str)
def test_tensor_with_explicit_dtype(dtype):
    t = torch.tensor([[0, 1], [2, 3]], dtype=dtype)
    assert t.dtype == dtype and t.shape == (2, 2)
    expected = [[False, True], [True, True]] if dtype == torch.bool else [[0, 1], [2, 3]]
    assert t.tolist() == expected
    assert t.element_size() == ITEMSIZE[dtype]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES, ids=str)
def test_tensor_rounds_to_the_float_dtype(dtype):
    values = [0.1, 1 / 3, -2.5, 1000.7]
    assert torch.tensor(values, dtype=dtype).tolist() == [ROUND[dtype](v) for v in values]


@pytest.mark.parametrize('dtype', INT_DTYPES, ids=str)
def test_tensor_truncates_floats_into_int_dtypes(dtype):
    assert torch.tensor([1.9, 0.5, 2.0], dtype=dtype).tolist() == [1, 0, 2]
    if dtype != torch.uint8:
        assert torch.tensor([-1.9, -0.5], dtype=dtype).tolist() == [-1, 0]


def test_tensor_to_bool_is_nonzero():
    assert torch.tensor([0.0, -0.0, 0.5, float('nan'), 2], dtype=torch.bool).tolist() == [False, False, True, True,
                                                                                        True]


def test_tensor_from_tensors_and_numpy_scalars():
    import numpy as np
    assert torch.tensor(torch.tensor([1, 2])).tolist() == [1, 2]
    assert torch.tensor([torch.tensor(1.5), 2]).tolist() == [1.5, 2.0]
    # inside a list a tensor is one number, as in PyTorch 1.13 (torch.stack joins tensors)
    with pytest.raises(ValueError, match='only one element tensors can be converted to Python scalars'):
        torch.tensor([torch.tensor([1., 2]), torch.tensor([3., 4])])
    with pytest.raises(TypeError, match='only integer tensors of a single element can be converted to an index'):
        torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])])
    assert torch.tensor([[1, 2], torch.tensor([3, 4])]).tolist() == [[1, 2], [3, 4]]  # iterated where a row is due
    assert torch.tensor([torch.ones(1, 1), 3]).tolist() == [1.0, 3.0]
    t = torch.tensor([np.float32(2.5), 1])
    assert t.dtype == torch.float32 and t.tolist() == [2.5, 1.0]
    assert torch.tensor([np.int32(2), 1]).dtype == torch.int64
    assert torch.tensor([np.True_, False]).dtype == torch.bool
    assert torch.tensor(np.int64(7)).item() == 7


def test_tensor_copies_its_data():
    src = torch.tensor([1, 2, 3])
    t = torch.tensor(src)
    t[0] = 100
    assert src.tolist() == [1, 2, 3]
    assert t.data_ptr() != src.data_ptr()


def test_tensor_class_constructor():
    assert torch.Tensor([1, 2]).dtype == torch.float32
    assert torch.Tensor([1, 2]).tolist() == [1.0, 2.0]
    assert torch.Tensor(2, 3).shape == (2, 3)
    assert torch.Tensor().shape == (0,)
    assert isinstance(torch.tensor(1), torch.Tensor)
    assert torch.is_tensor(torch.ones(1)) and not torch.is_tensor([1])


# ---- factories ------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL_DTYPES, ids=str)
def test_zeros_ones_full_empty_every_dtype(dtype):
    one = True if dtype == torch.bool else 1
    zero = False if dtype == torch.bool else 0
    assert torch.zeros(2, 3, dtype=dtype).tolist() == [[zero] * 3] * 2
    assert torch.ones((2,), dtype=dtype).tolist() == [one, one]
    assert torch.full((2, 2), 1, dtype=dtype).tolist() == [[one, one], [one, one]]
    e = torch.empty(3, 1, dtype=dtype)
    assert e.shape == (3, 1) and e.dtype == dtype and e.stride() == (1, 1) and e.is_contiguous()
    for t in (torch.zeros(2, 3, dtype=dtype), torch.ones(2, 3, dtype=dtype), torch.full((2, 3), 1, dtype=dtype)):
        assert t.dtype == dtype and t.stride() == (3, 1)


@pytest.mark.parametrize('size', [(2, 3), ((2, 3),), ([2, 3],), (torch.Size([2, 3]),)], ids=str)
def test_size_spellings(size):
    for factory in (torch.zeros, torch.ones, torch.empty):
        assert factory(*size).shape == (2, 3)
    assert torch.zeros(size=(2, 3)).shape == (2, 3)


def test_factories_default_dtype_and_scalars(default_dtype):
    assert torch.zeros(2).dtype == torch.float32
    assert torch.empty(2).dtype == torch.float32
    assert torch.zeros(()).shape == () and torch.zeros(()).item() == 0.0
    assert torch.ones([]).shape == ()
    assert torch.empty(0).shape == (0,)
    assert torch.ones(0, 2).shape == (0, 2) and torch.ones(0, 2).tolist() == []
    torch.set_default_dtype(torch.float64)
    assert torch.ones(2).dtype == torch.float64
    assert torch.full((2,), 1.5).dtype == torch.float64


def test_full_infers_its_dtype_from_the_value():
    assert torch.full((2,), 7).dtype == torch.int64
    assert torch.full((2,), 7.5).dtype == torch.float32
    assert torch.full((2,), True).dtype == torch.bool
    assert torch.full((2,), 7.5).tolist() == [7.5, 7.5]
    assert torch.full((), 3).shape == ()
    assert torch.full([2], 1.5, dtype=torch.int32).tolist() == [1, 1]
    assert torch.full((2,), -1, dtype=torch.uint8).tolist() == [255, 255]  # negative ints wrap, as in PyTorch


def test_arange_values_and_dtypes():
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4] and torch.arange(5).dtype == torch.int64
    assert torch.arange(2, 8).tolist() == [2, 3, 4, 5, 6, 7]
    assert torch.arange(10, 0, -3).tolist() == [10, 7, 4, 1]
    assert torch.arange(-5, 5, 3).tolist() == [-5, -2, 1, 4]
    assert torch.arange(3, 3).tolist() == []
    assert torch.arange(5.).dtype == torch.float32
    assert torch.arange(1, 2.5, 0.5).tolist() == [1.0, 1.5, 2.0]
    assert torch.arange(0, -1, -0.25).tolist() == [0.0, -0.25, -0.5, -0.75]
    assert torch.arange(0, 1, 0.1).tolist() == [f32(i * 0.1) for i in range(10)]
    assert torch.arange(0, 1, 0.1, dtype=torch.float64).tolist() == [i * 0.1 for i in range(10)]
    assert torch.arange(0, 10, 3.3).tolist() == [f32(i * 3.3) for i in range(4)]
    assert torch.arange(start=1, end=4).tolist() == [1, 2, 3]


@pytest.mark.parametrize('dtype', INT_DTYPES + FLOAT_DTYPES, ids=str)
def test_arange_every_dtype(dtype):
    t = torch.arange(1, 10, 3, dtype=dtype)
    assert t.dtype == dtype and t.tolist() == [1, 4, 7]
    if dtype.is_floating_point:
        assert torch.arange(0, 2, 0.5, dtype=dtype).tolist() == [0.0, 0.5, 1.0, 1.5]
        assert torch.arange(0, 1, 0.1, dtype=dtype).tolist() == [ROUND[dtype](f32(i * 0.1) if dtype != torch.float64
                                                                              else i * 0.1) for i in range(10)]


@pytest.mark.parametrize('dtype,name', [(torch.bool, 'Bool'), (torch.complex64, 'ComplexFloat'),
                                        (torch.complex128, 'ComplexDouble')])
def test_arange_refuses_bool_and_complex_as_pytorch(dtype, name):
    for args in [(5,), (0.0, 2.5, 0.5), (0, 5, 2)]:
        with pytest.raises(RuntimeError, match='"arange_cpu" not implemented for \'%s\'' % name):
            torch.arange(*args, dtype=dtype)


def test_arange_converts_bounds_to_the_dtype_first():
    # PyTorch computes an integer arange in int64: the step 0.5 becomes 0, the start -0.5 becomes 0
    with pytest.raises(RuntimeError, match='step must be nonzero'):
        torch.arange(0, 5, 0.5, dtype=torch.int64)
    assert torch.arange(-0.5, 3, 1, dtype=torch.int64).tolist() == [0, 1, 2]
    assert torch.arange(0, 3, 1.9, dtype=torch.int32).tolist() == [0, 1]
    assert torch.arange(0.5, 3, 1, dtype=torch.int32).tolist() == [0, 1, 2]


def test_arange_big_int64_values_are_exact():
    big = 2 ** 60
    assert torch.arange(big, big + 3).tolist() == [big, big + 1, big + 2]
    assert torch.arange(0, 2 ** 62, 2 ** 60).tolist() == [0, 2 ** 60, 2 ** 61, 3 * 2 ** 60]


def test_linspace_values():
    assert torch.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert torch.linspace(0, 1, 1).tolist() == [0.0]
    assert torch.linspace(3, 3, 0).tolist() == []
    assert torch.linspace(1, 0, 3).tolist() == [1.0, 0.5, 0.0]
    assert torch.linspace(0, 1, 5).dtype == torch.float32
    assert torch.linspace(start=0, end=1, steps=3, dtype=torch.float64).tolist() == [0.0, 0.5, 1.0]
    t = torch.linspace(-2.5, 7.25, 11, dtype=torch.float64).tolist()
    assert all(abs(a - b) < 1e-14 for a, b in zip(t, [-2.5 + i * 0.975 for i in range(11)]))
    assert t[0] == -2.5 and t[-1] == 7.25  # both ends exact


@pytest.mark.parametrize('dtype', INT_DTYPES, ids=str)
def test_linspace_int_dtypes(dtype):
    assert torch.linspace(0, 10, 5, dtype=dtype).tolist() == [0, 2, 5, 7, 10]
    assert torch.linspace(0, 100, 9, dtype=dtype).tolist() == [0, 12, 25, 37, 50, 62, 75, 87, 100]


def test_linspace_converts_bounds_to_the_dtype_first():
    # as in PyTorch: -1 becomes 255 in uint8, then the range runs from 255 down to 1
    assert torch.linspace(-1, 1, 7, dtype=torch.uint8).tolist() == [255, 212, 170, 128, 85, 43, 1]
    assert torch.linspace(0.5, 10.5, 6, dtype=torch.int32).tolist() == [0, 2, 4, 6, 8, 10]
    assert torch.linspace(0.1, 0.7, 2, dtype=torch.float16).tolist() == [f16(0.1), f16(0.7)]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES, ids=str)
def test_linspace_float_dtypes(dtype):
    t = torch.linspace(0, 1, 5, dtype=dtype)
    assert t.dtype == dtype and t.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]


@pytest.mark.parametrize('dtype', ALL_DTYPES, ids=str)
def test_eye_every_dtype(dtype):
    one, zero = (True, False) if dtype == torch.bool else (1, 0)
    assert torch.eye(3, dtype=dtype).tolist() == [[one, zero, zero], [zero, one, zero], [zero, zero, one]]


def test_eye_shapes():
    assert torch.eye(2, 3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert torch.eye(3, 2).tolist() == [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    assert torch.eye(0).shape == (0, 0)
    assert torch.eye(1).tolist() == [[1.0]]
    assert torch.eye(2).dtype == torch.float32
    assert torch.eye(n=2, m=1).tolist() == [[1.0], [0.0]]


@pytest.mark.parametrize('dtype', ALL_DTYPES, ids=str)
def test_like_factories_keep_shape_and_dtype(dtype):
    src = torch.ones(2, 3, dtype=dtype).t()  # non-contiguous source
    one, zero = (True, False) if dtype == torch.bool else (1, 0)
    for made, value in ((torch.zeros_like(src), zero), (torch.ones_like(src), one),
                        (torch.full_like(src, 1), one), (torch.empty_like(src), None)):
        assert made.shape == (3, 2) and made.dtype == dtype and made.device == src.device
        if value is not None:
            assert made.tolist() == [[value] * 2] * 3
    assert torch.zeros_like(src, dtype=torch.float64).dtype == torch.float64
    assert torch.full_like(torch.ones(2, dtype=torch.int32), 2.7).tolist() == [2, 2]
    assert torch.ones_like(torch.ones(2, dtype=torch.int32), dtype=torch.bool).tolist() == [True, True]


def test_like_factories_allocate_new_memory():
    src = torch.arange(4.)
    z = torch.zeros_like(src)
    z[0] = 5
    assert src.tolist() == [0.0, 1.0, 2.0, 3.0] and z.data_ptr() != src.data_ptr()


# ---- conversions --------------------------------------------------------------------------------

@pytest.mark.parametrize('src', ALL_DTYPES, ids=str)
@pytest.mark.parametrize('dst', ALL_DTYPES, ids=str)
def test_to_every_dtype_pair(src, dst):
    values = [0, 1, 5, 100] if src != torch.bool else [False, True, True, False]
    t = torch.tensor(values, dtype=src).view(2, 2).t()  # non-contiguous
    r = t.to(dst)
    assert r.dtype == dst and r.shape == (2, 2)
    cast = bool if dst == torch.bool else (float if dst.is_floating_point else int)
    expected = [[cast(values[0]), cast(values[2])], [cast(values[1]), cast(values[3])]]
    assert r.tolist() == expected


def test_to_returns_self_when_nothing_changes():
    t = torch.ones(2)
    assert t.to(torch.float32) is t
    assert t.float() is t
    assert t.to('cpu') is t
    c = t.to(torch.float32, copy=True)
    assert c is not t and c.data_ptr() != t.data_ptr()


def test_conversion_methods():
    t = torch.tensor([1.7, -1.7, 0.0])
    assert t.long().dtype == torch.int64 and t.long().tolist() == [1, -1, 0]
    assert t.int().dtype == torch.int32 and t.int().tolist() == [1, -1, 0]
    assert t.double().dtype == torch.float64 and t.double().tolist() == [f32(1.7), f32(-1.7), 0.0]
    assert t.bool().tolist() == [True, True, False]
    assert torch.tensor([True, False]).float().tolist() == [1.0, 0.0]
    assert torch.tensor([3, 4]).float().dtype == torch.float32
    assert t.half().dtype == torch.float16 and t.half().tolist() == [f16(1.7), f16(-1.7), 0.0]
    assert t.bfloat16().tolist() == [bf16(1.7), bf16(-1.7), 0.0]
    assert torch.tensor([300, -1]).to(torch.uint8).tolist() == [44, 255]
    assert torch.tensor([200, -200]).to(torch.int8).tolist() == [-56, 56]
    assert t.to(dtype=torch.float64).dtype == torch.float64
    assert torch.tensor([1, 2]).to(torch.ones(1, dtype=torch.int8)).dtype == torch.int8
    assert torch.tensor([1, 2]).to(torch.device('cpu'), torch.float64).dtype == torch.float64
    assert t.type() == 'torch.FloatTensor' and torch.tensor([1]).type() == 'torch.LongTensor'


def test_float_to_half_rounding_and_overflow():
    assert torch.tensor([65519.0, 65520.0, 1e10, -1e10]).half().tolist() == [65504.0, math.inf, math.inf, -math.inf]
    assert torch.tensor([1.00048828125, 1.00146484375]).half().tolist() == [1.0, 1.001953125]  # ties to even
    assert torch.tensor([1.00390625, 1.01171875]).bfloat16().tolist() == [1.0, 1.015625]
    r = torch.tensor([float('nan'), float('inf')]).half().tolist()
    assert math.isnan(r[0]) and r[1] == math.inf
    assert torch.tensor([6e-8]).half().item() == f16(6e-8) and f16(6e-8) > 0  # subnormal


# ---- dtype and device objects, default dtype ------------------------------------------------------

def test_dtype_objects():
    assert [str(d) for d in ALL_DTYPES] == ['torch.bool', 'torch.uint8', 'torch.int8', 'torch.int16', 'torch.int32',
                                            'torch.int64', 'torch.float16', 'torch.bfloat16', 'torch.float32',
                                            'torch.float64']
    assert torch.float is torch.float32 and torch.double is torch.float64 and torch.half is torch.float16
    assert torch.long is torch.int64 and torch.int is torch.int32 and torch.short is torch.int16
    assert [d.is_floating_point for d in ALL_DTYPES] == [False] * 6 + [True] * 4
    assert torch.uint8.is_signed is False and torch.bool.is_signed is False and torch.int8.is_signed is True
    assert torch.float16.is_signed is True
    assert isinstance(torch.float32, torch.dtype)
    assert len(set(ALL_DTYPES)) == 10 and torch.float32 == torch.float32 and torch.float32 != torch.float64
    assert repr(torch.bfloat16) == 'torch.bfloat16'


def test_device_objects():
    d = torch.device('cpu')
    assert d.type == 'cpu' and d.index is None and str(d) == 'cpu' and repr(d) == "device(type='cpu')"
    assert torch.device('cpu', 0).index == 0 and str(torch.device('cpu:0')) == 'cpu:0'
    assert torch.device('cuda:1').type == 'cuda' and torch.device('cuda:1').index == 1
    assert torch.device(2) == torch.device('cuda', 2)
    assert torch.device(d) == d and hash(torch.device('cpu')) == hash(d)
    t = torch.ones(2)
    assert t.device == torch.device('cpu') and t.device.type == 'cpu'
    assert torch.ones(2, device='cpu').device.type == 'cpu'
    assert torch.tensor([1], device=torch.device('cpu')).device.type == 'cpu'
    assert not t.is_cuda


def test_cuda_is_not_available_and_does_not_crash():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert isinstance(torch.cuda.unavailable_reason(), str)
    with pytest.raises(RuntimeError, match='cuda'):
        torch.ones(2, device='cuda')
    with pytest.raises(RuntimeError, match='cuda'):
        torch.ones(2).to('cuda')
    with pytest.raises(RuntimeError, match='cuda'):
        torch.ones(2).cuda()


def test_default_dtype_round_trip(default_dtype):
    assert torch.get_default_dtype() == torch.float32
    for d in FLOAT_DTYPES:
        torch.set_default_dtype(d)
        assert torch.get_default_dtype() == d
        assert torch.tensor([1.5]).dtype == d
        assert torch.ones(1).dtype == d and torch.arange(1.).dtype == d and torch.linspace(0, 1, 2).dtype == d
        assert torch.eye(1).dtype == d and torch.full((1,), 2.5).dtype == d
        assert (torch.tensor([1]) / 2).dtype == d  # int / int: the default float dtype
        assert (torch.tensor([1]) + 1.5).dtype == d
        assert (torch.tensor([1, 2]) ** 0.5).dtype == d
        assert torch.tensor([1]).dtype == torch.int64
        assert (torch.ones(1, dtype=torch.float64) + 1.5).dtype == torch.float64


@pytest.mark.parametrize('bad', [torch.int32, torch.int64, torch.bool, torch.uint8])
def test_default_dtype_must_be_floating(default_dtype, bad):
    with pytest.raises(TypeError, match='floating'):
        torch.set_default_dtype(bad)
    assert torch.get_default_dtype() == torch.float32


def test_creation_functions_take_out():
    """PyTorch's out= forms of the creation functions: the result is computed in out's dtype (and
    written into out, resized silently as PyTorch's resize_), a dtype given beside out must be out's."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # PyTorch resizes these outs without a warning
        o = torch.empty(7, dtype=torch.float64)
        assert torch.arange(0, 1, 0.25, out=o) is o and o.tolist() == [0, 0.25, 0.5, 0.75]
        assert torch.arange(3, out=o).tolist() == [0., 1., 2.] and o.dtype == torch.float64
        assert torch.range(1, 2, 0.5, out=o).tolist() == [1, 1.5, 2]
        assert torch.linspace(0, 1, 5, out=o).tolist() == [0, 0.25, 0.5, 0.75, 1]
        assert torch.logspace(0, 2, 3, out=o).tolist() == [1, 10, 100]
        i = torch.empty(2, 2, dtype=torch.int64)
        assert torch.full((3,), 1.5, out=i) is i and i.tolist() == [1, 1, 1]  # the value in out's dtype
        assert torch.zeros(2, 3, out=i).tolist() == [[0] * 3] * 2 and torch.ones(4, out=i).tolist() == [1] * 4
        assert torch.eye(2, 3, out=i).tolist() == [[1, 0, 0], [0, 1, 0]] and torch.eye(2, out=i).shape == (2, 2)
        assert torch.empty(5, out=i) is i and i.shape == (5,)
        assert torch.zeros(3, out=i, dtype=torch.int64, device='cpu').tolist() == [0, 0, 0]
    with pytest.raises(RuntimeError, match=r'dtype Float does not match dtype of out parameter \(Long\)'):
        torch.zeros(3, out=i, dtype=torch.float32)
    with pytest.raises(RuntimeError, match=r'dtype Float does not match dtype of out parameter \(Long\)'):
        torch.arange(3, out=i, dtype=torch.float32)
    with pytest.raises(RuntimeError, match='step must be nonzero'):  # 0.25 is 0 in out's int64
        torch.arange(0, 1, 0.25, out=i)
    with pytest.raises(RuntimeError, match='floating point and complex dtype can require gradients'):
        torch.arange(3, out=i, requires_grad=True)


def test_tensor_refuses_text_data():
    for data in (b'ab', 'ab', [b'a']):
        with pytest.raises(TypeError, match="new\\(\\): invalid data type '(bytes|str)'"):
            torch.tensor(data)
    assert torch.tensor(bytearray(b'ab')).tolist() == [97, 98]  # a sequence of ints, as in PyTorch


def test_frombuffer_views_release_their_exports_in_any_order():
    """Each frombuffer tensor holds its buffer export until it goes; releasing an older one after a newer
    one was made used to raise inside __del__ (ctypes argument types shared between the exports)."""
    import gc
    import sys
    caught = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda info: caught.append(info)
    try:
        data = [bytearray(range(8)) for _ in range(3)]
        tensors = [torch.frombuffer(d, dtype=torch.uint8) for d in data]
        assert [t.tolist() for t in tensors] == [list(range(8))] * 3
        tensors[1][0] = 99
        assert data[1][0] == 99  # the memory is the buffer's
        del tensors[0]
        gc.collect()
        del tensors[:]
        gc.collect()
    finally:
        sys.unraisablehook = previous
    assert not caught, [str(c.exc_value) for c in caught]
