"""The legacy API old programs use: torch.FloatTensor and its siblings (constructors and isinstance),
x.type(...), x.storage() (a TypedStorage sharing the tensor's memory), torch.is_tensor,
is_floating_point, is_complex, numel, is_storage, and resize_/resize_as_."""
import pytest
import torch

LEGACY = [('FloatTensor', torch.float32), ('DoubleTensor', torch.float64), ('HalfTensor', torch.float16),
          ('BFloat16Tensor', torch.bfloat16), ('LongTensor', torch.int64), ('IntTensor', torch.int32),
          ('ShortTensor', torch.int16), ('CharTensor', torch.int8), ('ByteTensor', torch.uint8), ('BoolTensor',
                                                                                                  torch.bool)]


@pytest.mark.parametrize('name, dtype', LEGACY)
def test_legacy_types(name, dtype):
    cls = getattr(torch, name)
    assert cls.dtype == dtype and not cls.is_cuda and cls.__name__ == name and str(cls) == "<class 'torch.%s'>" % name
    t = cls(2, 3)
    assert type(t) is torch.Tensor and t.dtype == dtype and t.shape == (2, 3)
    assert cls().shape == (0,) and cls(torch.Size([4])).shape == (4,)
    data = cls([[1, 0], [1, 1]])
    assert data.dtype == dtype and data.tolist() == [[1, 0], [1, 1]]
    assert isinstance(t, cls) and isinstance(t, torch.Tensor) and not isinstance(1, cls)
    assert not issubclass(cls, torch.Tensor)
    assert t.type() == 'torch.' + name and torch.zeros(1, dtype=dtype).storage().type() == 'torch.%sStorage' % name[:-6]
    other = next(n for n, d in LEGACY if d != dtype)
    assert not isinstance(t, getattr(torch, other))


def test_legacy_constructor_rules():
    x = torch.arange(4.)
    alias = torch.FloatTensor(x)
    assert alias.data_ptr() == x.data_ptr()
    with pytest.raises(TypeError):
        torch.FloatTensor(x.long())
    assert torch.LongTensor([1.7, -2.2]).tolist() == [1, -2]
    assert torch.FloatTensor(x.storage()).data_ptr() == x.data_ptr()
    with pytest.raises(RuntimeError, match='Expected a Storage of type Long'):
        torch.LongTensor(x.storage())
    with pytest.raises(TypeError):
        torch.FloatTensor(2, dtype=torch.float64)
    with pytest.raises(RuntimeError, match='negative dimension'):
        torch.FloatTensor(-1)


def test_type_conversions():
    x = torch.tensor([1.5, -2.5])
    assert x.type() == 'torch.FloatTensor'
    assert x.type(torch.FloatTensor) is x
    for target in (torch.IntTensor, 'torch.IntTensor', torch.int32):
        r = x.type(target)
        assert r.dtype == torch.int32 and r.tolist() == [1, -2]
    assert x.type('torch.DoubleTensor').dtype == torch.float64
    with pytest.raises(ValueError, match="invalid type: 'torch.int32'"):
        x.type('torch.int32')


def test_storage_shares_memory():
    x = torch.arange(6.).view(2, 3)
    s = x.storage()
    assert isinstance(s, torch.storage.TypedStorage) and torch.is_storage(s) and not torch.is_storage(x)
    assert len(s) == 6 and s.size() == 6 and s.dtype == torch.float32 and s.element_size() == 4 and s.nbytes() == 24
    assert s.tolist() == [0, 1, 2, 3, 4, 5] and s[2] == 2 and s[-1] == 5 and list(s) == s.tolist()
    assert s.data_ptr() == x.data_ptr() and x[1].storage().data_ptr() == x.data_ptr()
    assert x[1].storage().size() == 6  # the whole storage, whatever view it came from
    s[0] = 7
    assert x[0, 0].item() == 7
    s.fill_(1)
    assert x.tolist() == [[1, 1, 1], [1, 1, 1]]
    assert s.double().dtype == torch.float64 and s.clone().data_ptr() != s.data_ptr()
    assert str(torch.tensor([1, 2]).storage()) == \
        ' 1\n 2\n[torch.storage.TypedStorage(dtype=torch.int64, device=cpu) of size 2]'
    with pytest.raises(IndexError, match='index 6 out of range for storage of size 6'):
        s[6]
    with pytest.raises(RuntimeError, match='slices are only supported'):
        s[1:3]


def test_tensor_facts():
    x = torch.ones(2, 3)
    assert torch.is_tensor(x) and not torch.is_tensor([1])
    assert torch.is_floating_point(x) and not torch.is_floating_point(x.long()) and x.is_floating_point()
    assert not torch.is_complex(x) and not x.is_complex()
    assert torch.numel(x) == 6 and torch.numel(torch.tensor(1)) == 1
    with pytest.raises(TypeError):
        torch.numel(3)
    with pytest.raises(TypeError):
        torch.is_floating_point(1.0)


def test_resize_keeps_data_and_grows_the_shared_storage():
    x = torch.arange(4.)
    view = x[:2]
    assert x.resize_(2, 2) is x and x.shape == (2, 2) and x.tolist() == [[0, 1], [2, 3]]
    x.resize_(8)
    assert x[:4].tolist() == [0, 1, 2, 3] and x.is_contiguous()
    x[0] = 9
    assert view[0].item() == 9  # the view sees the grown storage
    assert x.resize_(0).shape == (0,) and x.storage().size() == 8
    assert torch.ones(3).resize_as_(torch.ones(1, 2)).shape == (1, 2)
    with pytest.raises(RuntimeError, match='negative dimension'):
        torch.ones(2).resize_(-1)
    import numpy as np
    with pytest.raises(RuntimeError, match='not resizable'):
        torch.from_numpy(np.zeros(2, dtype=np.float32)).resize_(10)
