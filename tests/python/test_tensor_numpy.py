"""The numpy bridge: torch.from_numpy and Tensor.numpy() share memory both ways; torch.tensor copies;
numpy scalars and arrays work as operands."""
import gc

import numpy as np
import pytest

import torch

PAIRS = [(np.bool_, torch.bool), (np.uint8, torch.uint8), (np.int8, torch.int8), (np.int16, torch.int16),
         (np.int32, torch.int32), (np.int64, torch.int64), (np.float16, torch.float16), (np.float32, torch.float32),
         (np.float64, torch.float64)]


@pytest.mark.parametrize('np_dtype, dtype', PAIRS, ids=[str(d) for _, d in PAIRS])
def test_from_numpy_shares_memory_both_ways(np_dtype, dtype):
    a = np.arange(6).reshape(2, 3).astype(np_dtype)
    t = torch.from_numpy(a)
    assert t.dtype == dtype and t.shape == (2, 3) and t.stride() == (3, 1)
    assert t.data_ptr() == a.ctypes.data
    assert t.tolist() == a.tolist()
    t[0, 0] = 1
    assert a[0, 0] == 1
    a[1, 2] = 0
    assert t[1, 2].item() == 0
    t.add_(1) if dtype != torch.bool else t.fill_(True)
    assert t.tolist() == a.tolist()


@pytest.mark.parametrize('np_dtype, dtype', PAIRS, ids=[str(d) for _, d in PAIRS])
def test_numpy_shares_memory_both_ways(np_dtype, dtype):
    t = torch.arange(6).to(dtype).view(2, 3)
    n = t.numpy()
    assert n.dtype == np_dtype and n.shape == (2, 3) and n.ctypes.data == t.data_ptr()
    assert n.flags['WRITEABLE']
    n[0, 1] = 0
    assert t[0, 1].item() == 0
    t[1, 1] = 1
    assert n[1, 1] == 1


def test_numpy_of_non_contiguous_views():
    t = torch.arange(6.).view(2, 3).t()
    n = t.numpy()
    assert n.shape == (3, 2) and n.strides == (4, 12)  # bytes
    n[0, 1] = 77
    assert t[0, 1].item() == 77.0
    s = torch.arange(10)[1::3]
    assert s.numpy().tolist() == [1, 4, 7] and s.numpy().strides == (24,)
    assert torch.tensor(3.5).numpy().shape == () and float(torch.tensor(3.5).numpy()) == 3.5
    assert torch.zeros(0, 2).numpy().shape == (0, 2)
    assert np.asarray(torch.arange(3)).tolist() == [0, 1, 2]


def test_from_numpy_of_non_contiguous_arrays():
    a = np.arange(6.).reshape(2, 3).T
    t = torch.from_numpy(a)
    assert t.shape == (3, 2) and t.stride() == (1, 3) and not t.is_contiguous()
    assert t.tolist() == a.tolist()
    b = np.arange(6)[::2]
    tb = torch.from_numpy(b)
    assert tb.tolist() == [0, 2, 4] and tb.stride() == (2,)
    tb[1] = -1
    assert b[1] == -1
    assert torch.from_numpy(np.array(5.0)).shape == ()
    assert torch.from_numpy(np.zeros((0, 3))).shape == (0, 3)


def test_memory_outlives_the_other_side():
    a = np.arange(4.)
    t = torch.from_numpy(a)
    del a
    gc.collect()
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    t2 = torch.arange(4.)
    n = t2.numpy()
    del t2
    gc.collect()
    assert n.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_from_numpy_refuses():
    with pytest.raises(ValueError, match='negative'):
        torch.from_numpy(np.arange(6)[::-1])
    with pytest.raises(TypeError, match='uint16'):
        torch.from_numpy(np.array([1, 2], dtype=np.uint16))
    with pytest.raises(ValueError, match='byte order'):
        torch.from_numpy(np.array([1, 2], dtype='>i4'))
    with pytest.raises(TypeError, match='ndarray'):
        torch.from_numpy([1, 2])
    with pytest.raises(TypeError, match='BFloat16'):
        torch.ones(2, dtype=torch.bfloat16).numpy()


def test_tensor_copies_numpy_data():
    a = np.array([1, 2, 3])
    t = torch.tensor(a)
    assert t.dtype == torch.int64 and t.tolist() == [1, 2, 3]
    t[0] = 100
    assert a[0] == 1
    assert torch.tensor(np.array([1.5, 2])).dtype == torch.float64
    assert torch.tensor(np.array([[1, 2], [3, 4]], dtype=np.int8)).dtype == torch.int8
    assert torch.tensor(np.float32(2.5)).dtype == torch.float32
    assert torch.tensor(np.array([1, 2]), dtype=torch.float16).dtype == torch.float16


def test_numpy_scalars_as_operands():
    t = torch.ones(3, dtype=torch.int32)
    r = t * np.int64(2)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.int32 and r.tolist() == [2, 2, 2]
    r = np.int64(2) * t
    assert isinstance(r, torch.Tensor) and r.dtype == torch.int32
    r = np.float64(2.5) + torch.ones(3)
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float32 and r.tolist() == [3.5] * 3
    assert (torch.ones(2, dtype=torch.float16) * np.float64(2.5)).dtype == torch.float16
    assert (t * np.float32(2.5)).dtype == torch.float32
    assert (torch.ones(3) == np.float32(1)).tolist() == [True] * 3
    assert torch.full((2,), np.int64(3)).tolist() == [3, 3]
    x = torch.zeros(3)
    x[np.int64(1)] = np.float64(2.5)  # a float; numpy.float32 is not, and PyTorch refuses to assign it
    assert x.tolist() == [0.0, 2.5, 0.0]
    with pytest.raises(TypeError, match="can't assign a numpy.float32 to a torch.FloatTensor"):
        x[np.int64(1)] = np.float32(2.5)
    assert torch.arange(np.int64(3)).tolist() == [0, 1, 2]
    assert torch.zeros(np.int64(2), 3).shape == (2, 3)
    assert torch.ones(3).sum(np.int64(0)).item() == 3.0


def test_numpy_arrays_as_operands():
    r = torch.ones(3, dtype=torch.int32) + np.array([2, 3, 4])
    assert isinstance(r, torch.Tensor) and r.dtype == torch.int64 and r.tolist() == [3, 4, 5]
    r = torch.ones(3) * np.array([2, 3, 4], dtype=np.float16)
    assert r.dtype == torch.float32 and r.tolist() == [2.0, 3.0, 4.0]


def test_numpy_of_a_tensor_that_requires_grad_raises():
    x = torch.zeros(2, requires_grad=True)
    for f in (x.numpy, lambda: np.asarray(x), x.__array__):
        with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad. "
                                               r"Use tensor.detach\(\).numpy\(\) instead."):
            f()
    assert x.detach().numpy().tolist() == [0., 0.]
    assert x.numpy(force=True).tolist() == [0., 0.]
