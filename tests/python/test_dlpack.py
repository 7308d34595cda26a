"""DLPack: tensors to and from numpy (and any DLPack producer or consumer) without copies, both ways;
PyTorch 1.13's errors."""
import gc

import numpy as np
import pytest
import torch
from torch.utils.dlpack import DLDeviceType, from_dlpack, to_dlpack


def test_numpy_array_to_tensor_shares_memory_with_strides():
    a = np.arange(6.).reshape(2, 3)[:, ::2]
    t = torch.from_dlpack(a)
    assert t.tolist() == [[0, 2], [3, 5]] and t.stride() == (3, 2) and t.dtype == torch.float64
    t[0, 0] = 100
    assert a[0, 0] == 100


def test_tensor_to_numpy_shares_memory_and_strides():
    z = torch.arange(12, dtype=torch.float64).reshape(3, 4).t()
    w = np.from_dlpack(z)
    assert w.strides == (8, 32) and w[1].tolist() == [1, 5, 9]
    z[1, 0] = -7
    assert w[1, 0] == -7


@pytest.mark.parametrize('np_dtype,dtype', [(np.int32, torch.int32), (np.uint8, torch.uint8), (np.int8, torch.int8),
                                            (np.int16, torch.int16), (np.int64, torch.int64),
                                            (np.float16, torch.float16), (np.float32, torch.float32),
                                            (np.complex64, torch.complex64), (np.complex128, torch.complex128)])
def test_dtypes_round_trip(np_dtype, dtype):
    a = (np.arange(5) - 2).astype(np_dtype)
    t = torch.from_dlpack(a)
    assert t.dtype == dtype and t.tolist() == a.tolist()
    back = np.from_dlpack(t)
    assert back.dtype == a.dtype and back.ctypes.data == a.ctypes.data


def test_capsules_and_lifetimes():
    x = torch.zeros(2)
    assert torch.from_dlpack(x).data_ptr() == x.data_ptr()
    assert x.__dlpack_device__() == (DLDeviceType.kDLCPU, 0)
    capsule = to_dlpack(torch.arange(3.))
    assert from_dlpack(capsule).tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError, match='DLTensor capsules can be consumed only once'):
        from_dlpack(capsule)
    q = np.ones(5)
    r = torch.from_dlpack(q)
    del q
    gc.collect()
    assert r.sum().item() == 5  # the tensor keeps the producer's memory alive
    unused = to_dlpack(torch.ones(3))
    del unused  # never consumed: the capsule's destructor frees it
    assert torch.from_dlpack(np.zeros((0, 3))).shape == (0, 3)
    assert torch.from_dlpack(np.array(3.5, dtype=np.float32)).shape == ()


def test_errors_as_pytorch():
    with pytest.raises(RuntimeError, match="Can't export tensors that require gradient, use tensor.detach()"):
        np.from_dlpack(torch.zeros(2, requires_grad=True))
    with pytest.raises(RuntimeError, match='Bool type is not supported by dlpack'):
        to_dlpack(torch.zeros(2, dtype=torch.bool))
    with pytest.raises(RuntimeError, match='from_dlpack received an invalid capsule'):
        torch.from_dlpack(5)
