"""torch.testing.assert_close and make_tensor, with PyTorch's tolerances, messages and errors."""
import numpy as np
import pytest

import torch
from torch.testing import assert_close, make_tensor


def test_close_within_default_tolerances():
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6]))
    assert_close(torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor([1.0, 2.001], dtype=torch.float16))
    assert_close(torch.tensor([0.0, 1]), torch.tensor([1e-6, 1]))
    assert_close(1.0, 1.0 + 1e-9)
    assert_close([torch.ones(2), {'a': 3}], (torch.ones(2), {'a': 3}))
    assert_close(None, None)
    assert_close(torch.tensor([float('inf')]), torch.tensor([float('inf')]))
    assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    assert_close(torch.ones(2, requires_grad=True), torch.ones(2))


def test_messages_as_pytorch():
    with pytest.raises(AssertionError) as e:
        assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
    assert str(e.value) == ('Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n'
                            'Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n'
                            'Greatest relative difference: 0.2 at index (1,) (up to 1.3e-06 allowed)')
    with pytest.raises(AssertionError) as e:
        assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 4, 3]))
    assert str(e.value) == ('Tensor-likes are not equal!\n\nMismatched elements: 1 / 3 (33.3%)\n'
                            'Greatest absolute difference: 2 at index (1,)\nGreatest relative difference: 0.5 at index (1,)')
    with pytest.raises(AssertionError) as e:
        assert_close(torch.tensor(1.0), torch.tensor(1.5))
    assert str(e.value) == ('Scalars are not close!\n\nAbsolute difference: 0.5 (up to 1e-05 allowed)\n'
                            'Relative difference: 0.3333333333333333 (up to 1.3e-06 allowed)')
    with pytest.raises(AssertionError) as e:
        assert_close(1, 2)
    assert str(e.value) == 'Scalars are not equal!\n\nAbsolute difference: 1\nRelative difference: 0.5'
    with pytest.raises(AssertionError) as e:
        assert_close((1, {'a': [torch.tensor(1.0)]}), [1, {'a': [torch.tensor(2.0)]}])
    assert str(e.value).endswith("\n\nThe failure occurred for item [1]['a'][0]")
    with pytest.raises(AssertionError, match='at index \\(0, 0\\)'):
        assert_close(torch.zeros(2, 3), torch.ones(2, 3))
    with pytest.raises(AssertionError, match='Greatest absolute difference: 1 at index \\(0,\\)'):
        assert_close(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([2, 1], dtype=torch.uint8))


def test_attribute_checks():
    with pytest.raises(AssertionError, match="attribute 'dtype' do not match: torch.float32 != torch.float64"):
        assert_close(torch.ones(2), torch.ones(2, dtype=torch.float64))
    assert_close(torch.ones(2), torch.ones(2, dtype=torch.float64), check_dtype=False)
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]), check_dtype=False)
    with pytest.raises(AssertionError, match="attribute 'shape' do not match"):
        assert_close(torch.ones(2), torch.ones(3))
    with pytest.raises(AssertionError, match="attribute 'device' do not match: cpu != meta"):
        assert_close(torch.ones(2), torch.ones(2, device='meta'))
    with pytest.raises(AssertionError, match="attribute 'stride\\(\\)' do not match: \\(2, 1\\) != \\(1, 2\\)"):
        assert_close(torch.ones(2, 2), torch.ones(2, 2).t(), check_stride=True)
    assert_close(torch.ones(2, 2), torch.ones(2, 2).t())
    with pytest.raises(AssertionError, match="The \\(d\\)types do not match: <class 'int'> != <class 'float'>"):
        assert_close(1, 1.0)
    assert_close(1, 1.0, check_dtype=False)


def test_nan_and_containers():
    nan = torch.tensor([float('nan')])
    with pytest.raises(AssertionError, match='not close'):
        assert_close(nan, nan)
    assert_close(nan, nan, equal_nan=True)
    with pytest.raises(AssertionError, match='The length of the sequences mismatch: 2 != 3'):
        assert_close([1, 2], [1, 2, 3])
    with pytest.raises(AssertionError, match="Missing keys in the actual mapping: \\['b'\\]"):
        assert_close({'a': 1}, {'b': 1})
    with pytest.raises(AssertionError, match='None mismatch'):
        assert_close(None, 1)


def test_tolerance_arguments_and_msg():
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol' must be either specified or omitted, but got no atol"):
        assert_close(torch.ones(1), torch.ones(1), rtol=1e-3)
    with pytest.raises(ValueError, match='but got no rtol'):
        assert_close(torch.ones(1), torch.ones(1), atol=1)
    assert_close(torch.tensor([1.0]), torch.tensor([1.5]), rtol=0, atol=0.5)
    with pytest.raises(AssertionError, match='^custom$'):
        assert_close(torch.tensor([1.0]), torch.tensor([2.0]), msg='custom')
    with pytest.raises(AssertionError, match='^XTenso$'):
        assert_close(torch.tensor([1.0]), torch.tensor([2.0]), msg=lambda m: 'X' + m[:5])


def test_unpairable_inputs_raise_typeerror():
    with pytest.raises(TypeError, match='No comparison pair was able to handle inputs'):
        assert_close(torch.ones(1), 1.0)
    with pytest.raises(TypeError):
        assert_close('a', 'a')
    with pytest.raises(TypeError):
        assert_close(torch.ones(1), np.ones(1))


@pytest.mark.parametrize('dtype,low,high', [
    (torch.float32, -9, 9), (torch.float64, -9, 9), (torch.int64, -9, 10), (torch.uint8, 0, 10),
    (torch.int8, -9, 10), (torch.bool, 0, 2)])
def test_make_tensor_default_ranges(dtype, low, high):
    t = make_tensor(200, dtype=dtype, device='cpu')
    assert t.dtype == dtype and t.shape == (200,)
    v = t.to(torch.float64)
    assert v.min().item() >= low and v.max().item() < high


def test_make_tensor_options():
    t = make_tensor((3, 4), dtype=torch.float32, device='cpu', low=-1, high=1, requires_grad=True)
    assert t.requires_grad and t.is_leaf and t.abs().max().item() <= 1
    assert make_tensor(2, 3, dtype=torch.float32, device='cpu').shape == (2, 3)
    assert not make_tensor(2, 3, dtype=torch.float32, device='cpu', noncontiguous=True).is_contiguous()
    assert (make_tensor(500, dtype=torch.int64, device='cpu', low=-1, high=2, exclude_zero=True) != 0).all()
    c = make_tensor(5, dtype=torch.complex64, device='cpu')
    assert c.dtype == torch.complex64 and c.real.abs().max().item() <= 9
    assert make_tensor(4, dtype=torch.uint8, device='cpu', low=-100, high=1000).dtype == torch.uint8  # clamped
    with pytest.raises(ValueError, match='requires_grad must be False for integral dtype'):
        make_tensor(2, dtype=torch.int64, device='cpu', requires_grad=True)
    with pytest.raises(ValueError, match='low must be weakly less than high'):
        make_tensor(2, dtype=torch.float32, device='cpu', low=2, high=1)
    with pytest.raises(ValueError, match='NaN'):
        make_tensor(2, dtype=torch.float32, device='cpu', low=float('nan'))
