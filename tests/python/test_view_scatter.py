"""slice_scatter, select_scatter, diagonal_scatter: a copy of the input with src written into one of
its views (PyTorch 1.13's ops, torch.* and Tensor methods), their gradients and PyTorch's errors."""
import pytest
import torch


def test_values_against_writing_through_the_view():
    x = torch.arange(24.).reshape(2, 3, 4)
    cases = [
        (torch.slice_scatter(x, torch.full((2, 3, 2), -1.), dim=2, start=1, end=4, step=2),
         lambda y: y[:, :, 1:4:2].fill_(-1)),
        (x.slice_scatter(torch.zeros(1, 3, 4), start=-1), lambda y: y[-1:].zero_()),
        (torch.select_scatter(x, torch.full((2, 4), 9.), 1, -1), lambda y: y[:, -1].fill_(9)),
        (torch.diagonal_scatter(x, torch.full((2, 3), 5.), 1, 1, 2), lambda y: y.diagonal(1, 1, 2).fill_(5)),
        (torch.diagonal_scatter(x[0], torch.full((2,), 7.), -1), lambda y: y[0].diagonal(-1).fill_(7)),
    ]
    for got, write in cases:
        want = x.clone()
        write(want)
        if got.shape != x.shape:
            want = want[0]
        assert torch.equal(got, want)
    assert torch.equal(x, torch.arange(24.).reshape(2, 3, 4))  # the input is left as it was


def test_src_is_cast_to_the_input_dtype_and_out_is_aten_only():
    x = torch.zeros(2, 3)
    r = torch.select_scatter(x, torch.ones(3, dtype=torch.float64), 0, 1)
    assert r.dtype == torch.float32 and r.tolist() == [[0, 0, 0], [1, 1, 1]]
    out = torch.empty(2, 3)
    torch.ops.aten.select_scatter.out(x, torch.ones(3), 0, 0, out=out)
    assert out.tolist() == [[1, 1, 1], [0, 0, 0]]
    with pytest.raises(TypeError):
        torch.select_scatter(x, torch.ones(3), 0, 0, out=out)  # as PyTorch 1.13: no out= in torch.*


def test_gradients():
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: torch.diagonal_scatter(a, b),
                                    (a, torch.randn(3, dtype=torch.float64, requires_grad=True)))
    assert torch.autograd.gradgradcheck(lambda a, b: torch.select_scatter(a, b, 1, 2),
                                        (a, torch.randn(3, dtype=torch.float64, requires_grad=True)))
    assert torch.autograd.gradcheck(lambda a, b: torch.slice_scatter(a, b, dim=1, start=1, step=2),
                                    (a, torch.randn(3, 2, dtype=torch.float64, requires_grad=True)))
    s = torch.ones(3, 2, requires_grad=True)
    x = torch.zeros(3, 4, requires_grad=True)
    torch.slice_scatter(x, s * 2, dim=1, start=0, end=4, step=2).sum().backward()
    assert x.grad.tolist() == [[0, 1, 0, 1]] * 3 and s.grad.tolist() == [[2, 2]] * 3


def test_errors_as_pytorch():
    x = torch.zeros(3, 4)
    with pytest.raises(RuntimeError, match=r'expected src to have a size equal to the slice of self. src size = '
                                           r'\[4\], slice size = \[3\]'):
        torch.select_scatter(x, torch.ones(4), 1, 0)
    with pytest.raises(RuntimeError, match=r'src size = \[2\], slice size = \[3\]'):
        torch.diagonal_scatter(x, torch.ones(2))
    with pytest.raises(IndexError, match=r'select\(\): index 5 out of range for tensor of size \[3, 4\] at dimension 1'):
        torch.select_scatter(x, torch.ones(3), -1, 5)
    with pytest.raises(IndexError, match=r'select\(\): index -4 out of range for tensor of size \[3, 4\] at '
                                         r'dimension 0'):
        x.select(0, -4)
    with pytest.raises(IndexError, match='index 7 is out of bounds for dimension 1 with size 4'):
        x[:, 7]  # indexing keeps its own words
