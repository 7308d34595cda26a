"""Bad input: one test per case, each checking PyTorch's exception type and that the message names the
problem. The last tests run inputs that could crash a careless implementation in a child process, so
that a crash fails a test instead of killing pytest."""
import math
import os
import subprocess
import sys
import textwrap

import pytest

import torch


# ---- shapes ---------------------------------------------------------------------------------------------

def test_shape_mismatch_in_elementwise_op():
    with pytest.raises(RuntimeError, match=r'size of tensor a \(3\) must match the size of tensor b \(4\) at '
                                           r'non-singleton dimension 1'):
        torch.ones(2, 3) + torch.ones(4)


def test_shape_mismatch_in_inplace_op():
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        torch.ones(3).add_(torch.ones(2, 3))


def test_shape_mismatch_in_assignment():
    with pytest.raises(RuntimeError, match=r'shape mismatch|must match'):
        torch.zeros(2, 3)[0] = torch.ones(2)


def test_view_incompatible_with_strides():
    with pytest.raises(RuntimeError, match=r'view size is not compatible .*Use \.reshape'):
        torch.ones(2, 3).t().view(6)


def test_view_wrong_element_count():
    with pytest.raises(RuntimeError, match=r"shape '\[4\]' is invalid for input of size 6"):
        torch.ones(2, 3).view(4)


def test_view_two_inferred_dims():
    with pytest.raises(RuntimeError, match='only one dimension can be inferred'):
        torch.ones(4).view(-1, -1)


def test_reshape_wrong_element_count():
    with pytest.raises(RuntimeError, match=r"shape '\[5\]' is invalid for input of size 6"):
        torch.ones(2, 3).reshape(5)


def test_expand_to_incompatible_size():
    with pytest.raises(RuntimeError, match=r'expanded size of the tensor \(3\) must match the existing size \(2\)'):
        torch.ones(2, 3).expand(3, 3)


def test_expand_to_fewer_dims():
    with pytest.raises(RuntimeError, match='number of sizes provided'):
        torch.ones(2, 3).expand(3)


def test_permute_wrong_length():
    with pytest.raises(RuntimeError, match='permute'):
        torch.ones(2, 3).permute(0)


def test_permute_repeated_dim():
    with pytest.raises(RuntimeError, match='duplicate dims'):
        torch.ones(2, 3).permute(0, 0)


def test_t_of_3d_tensor():
    with pytest.raises(RuntimeError, match=r't\(\) expects a tensor with <= 2 dimensions, but self is 3D'):
        torch.ones(2, 3, 4).t()


def test_flatten_start_after_end():
    with pytest.raises(RuntimeError, match='start_dim cannot come after end_dim'):
        torch.ones(2, 3).flatten(1, 0)


# ---- dims and indices -------------------------------------------------------------------------------------

@pytest.mark.parametrize('call', [
    lambda: torch.ones(2, 3).sum(2), lambda: torch.ones(2, 3).max(-3), lambda: torch.ones(2, 3).transpose(0, 2),
    lambda: torch.ones(2, 3).unsqueeze(3), lambda: torch.ones(2, 3).squeeze(2), lambda: torch.ones(2, 3).argmax(5),
    lambda: torch.ones(2, 3).size(2), lambda: torch.ones(2, 3).stride(-3), lambda: torch.ones(2, 3).mean(-5),
    lambda: torch.ones(2, 3).flatten(0, 4),
], ids=['sum', 'max', 'transpose', 'unsqueeze', 'squeeze', 'argmax', 'size', 'stride', 'mean', 'flatten'])
def test_dim_out_of_range(call):
    with pytest.raises(IndexError, match=r'Dimension out of range \(expected to be in range of \[-\d, \d\], but '
                                         r'got -?\d\)'):
        call()


def test_dim_of_zero_dim_tensor():
    with pytest.raises(IndexError, match='no dimensions'):
        torch.tensor(1.0).size(0)


def test_repeated_dim_in_reduction():
    with pytest.raises(RuntimeError, match='appears multiple times'):
        torch.ones(2, 2).sum(dim=(0, 0))


def test_index_out_of_range():
    with pytest.raises(IndexError, match='index 2 is out of bounds for dimension 0 with size 2'):
        torch.ones(2, 3)[2]


def test_negative_index_out_of_range():
    with pytest.raises(IndexError, match='index -4 is out of bounds for dimension 1 with size 3'):
        torch.ones(2, 3)[:, -4]


def test_index_out_of_range_in_assignment():
    with pytest.raises(IndexError, match='out of bounds'):
        torch.zeros(3)[5] = 1


def test_too_many_indices():
    with pytest.raises(IndexError, match='too many indices for tensor of dimension 2'):
        torch.ones(2, 3)[0, 0, 0]


def test_index_into_zero_dim_tensor():
    with pytest.raises(IndexError, match='invalid index of a 0-dim tensor'):
        torch.tensor(5)[0]


def test_two_ellipses():
    # PyTorch 1.13 does not refuse a second Ellipsis: each skips the dims no item specifies
    assert torch.ones(2, 3)[..., 0, ...].shape == (2,)
    assert torch.ones(2, 3)[..., None, ...].shape == (2, 3, 1)


def test_unsupported_index_type():
    with pytest.raises(IndexError, match='only integers, slices'):
        torch.ones(3)[1.5]


def test_slice_step_zero():
    with pytest.raises(ValueError, match='slice step cannot be zero'):
        torch.ones(3)[::0]


def test_slice_step_negative():
    with pytest.raises(ValueError, match='step must be greater than zero'):
        torch.ones(3)[::-1]


def test_delete_item():
    with pytest.raises(TypeError, match='deleted'):
        del torch.ones(3)[0]


def test_assign_non_number():
    with pytest.raises(TypeError, match="can't assign a str"):
        torch.zeros(3)[0] = 'a'


# ---- arguments --------------------------------------------------------------------------------------------

def test_bad_dtype_argument_to_factory():
    with pytest.raises(TypeError, match="'dtype' must be torch.dtype, not str"):
        torch.ones(2, dtype='float32')


def test_bad_dtype_argument_to_tensor():
    with pytest.raises(TypeError, match="'dtype' must be torch.dtype, not int"):
        torch.tensor([1], dtype=3)


def test_python_type_as_dtype_argument():
    # PyTorch takes Python's scalar types for dtypes: float is float64
    assert torch.ones(2).sum(dtype=float).dtype == torch.float64
    with pytest.raises(TypeError, match="argument 'dtype' must be torch.dtype, not str"):
        torch.ones(2).sum(dtype='float64')


def test_wrong_argument_type_to_op():
    with pytest.raises(TypeError, match=r"add\(\): argument 'other' \(position 2\) must be Tensor, not str"):
        torch.add(torch.ones(2), 'a')


def test_wrong_argument_type_to_operator():
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'Tensor' and 'str'"):
        torch.ones(2) + 'a'


def test_wrong_argument_type_for_dim():
    with pytest.raises(TypeError, match=r"argument 'dim' .*must be tuple of ints, not str"):
        torch.ones(2).sum(dim='x')


def test_wrong_size_type():
    with pytest.raises(TypeError, match=r"ones\(\): argument 'size' \(position 1\) must be tuple of ints, not float"):
        torch.ones(2.5)


def test_none_for_a_required_int():
    with pytest.raises(TypeError, match='max'):
        torch.ones(2).max(dim=None)


def test_too_few_arguments():
    with pytest.raises(TypeError, match=r'add\(\) received an invalid combination of arguments'):
        torch.add(torch.ones(2))


def test_too_many_arguments():
    with pytest.raises(TypeError, match=r'received an invalid combination of arguments - got \(Tensor, Tensor, '
                                        r'Tensor\)'):
        torch.add(torch.ones(2), torch.ones(2), torch.ones(2))


def test_too_many_arguments_to_method():
    with pytest.raises(TypeError, match='transpose'):
        torch.ones(2, 3).transpose(0, 1, 2)


def test_unexpected_keyword():
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        torch.ones(2, foo=1)


def test_missing_argument_to_factory():
    with pytest.raises(TypeError, match='steps'):
        torch.linspace(0, 1)


def test_to_with_nonsense_arguments():
    with pytest.raises(TypeError, match=r'to\(\) received an invalid combination'):
        torch.ones(2).to(torch.float32, torch.float64, 1, 2)


# ---- sizes and allocation ----------------------------------------------------------------------------------

def test_negative_size():
    with pytest.raises(RuntimeError, match='negative dimension -1'):
        torch.empty(-1)


def test_negative_size_in_second_dim():
    with pytest.raises(RuntimeError, match='negative dimension -3'):
        torch.zeros(2, -3)


def test_absurd_allocation_size():
    with pytest.raises(RuntimeError, match='too large'):
        torch.empty(2 ** 62)


def test_allocation_size_overflowing_int64():
    with pytest.raises(RuntimeError, match='overflow'):
        torch.empty(2 ** 40, 2 ** 40)


def test_size_beyond_int64():
    with pytest.raises((RuntimeError, TypeError), match='int64|SymInt|large'):
        torch.empty(2 ** 63)


def test_expand_overflowing_int64():
    with pytest.raises(RuntimeError, match='overflow'):
        torch.ones(1).expand(2 ** 40, 2 ** 40)


def test_too_many_dims():
    with pytest.raises(RuntimeError, match='at most 64 dimensions'):
        torch.ones([1] * 65)


def test_arange_zero_step():
    with pytest.raises(RuntimeError, match='step must be nonzero'):
        torch.arange(0, 10, 0)


def test_arange_wrong_direction():
    with pytest.raises(RuntimeError, match='upper bound and larger bound inconsistent with step sign'):
        torch.arange(10, 0, 1)


def test_arange_infinite_bound():
    with pytest.raises(RuntimeError, match='unsupported range'):
        torch.arange(0, float('inf'))


def test_linspace_negative_steps():
    with pytest.raises(RuntimeError, match='number of steps must be non-negative'):
        torch.linspace(0, 1, -1)


def test_eye_negative():
    with pytest.raises(RuntimeError, match='n must be greater or equal to 0'):
        torch.eye(-1)


def test_fill_value_overflow():
    with pytest.raises(RuntimeError, match='value cannot be converted to type uint8 without overflow'):
        torch.full((2,), 300, dtype=torch.uint8)


def test_tensor_data_overflow():
    with pytest.raises(RuntimeError, match='value cannot be converted to type int8 without overflow'):
        torch.tensor([200], dtype=torch.int8)


def test_python_int_beyond_int64():
    with pytest.raises(RuntimeError, match='Overflow when unpacking long'):
        torch.tensor(2 ** 64)


def test_ragged_nested_list():
    with pytest.raises(ValueError, match='expected sequence of length 2 at dim 1 \\(got 1\\)'):
        torch.tensor([[1, 2], [3]])


def test_number_where_a_list_is_expected():
    with pytest.raises(TypeError, match='sequence'):
        torch.tensor([[1], 2])


def test_tensor_of_strings():
    with pytest.raises(TypeError, match="invalid data type 'str'"):
        torch.tensor('abc')


# ---- matrix products -------------------------------------------------------------------------------------

def test_matmul_shape_mismatch():
    with pytest.raises(RuntimeError, match=r'mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)'):
        torch.ones(2, 3) @ torch.ones(2, 3)


def test_batched_matmul_shape_mismatch():
    with pytest.raises(RuntimeError, match=r'Expected size for first two dimensions of batch2 tensor to be: '
                                           r'\[2, 4\] but got: \[2, 5\]'):
        torch.ones(2, 3, 4) @ torch.ones(2, 5, 6)


def test_dot_size_mismatch():
    with pytest.raises(RuntimeError, match='inconsistent tensor size'):
        torch.ones(3) @ torch.ones(4)


def test_matmul_dtype_mismatch():
    with pytest.raises(RuntimeError, match='expected scalar type Float but found Double'):
        torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)


def test_matmul_of_zero_dim():
    with pytest.raises(RuntimeError, match='both arguments to matmul need to be at least 1D'):
        torch.tensor(1.0) @ torch.ones(1)


def test_mm_of_vector():
    with pytest.raises(RuntimeError, match='self must be a matrix'):
        torch.mm(torch.ones(3), torch.ones(3, 2))


# ---- conversions to Python ---------------------------------------------------------------------------------

def test_item_of_multi_element_tensor():
    with pytest.raises(ValueError, match='only one element tensors can be converted to Python scalars'):
        torch.ones(2).item()


def test_item_of_empty_tensor():
    with pytest.raises(ValueError, match='only one element tensors'):
        torch.zeros(0).item()


def test_int_of_multi_element_tensor():
    with pytest.raises(ValueError, match='only one element tensors'):
        int(torch.ones(3))


def test_bool_of_multi_element_tensor():
    with pytest.raises(RuntimeError, match='Boolean value of Tensor with more than one value is ambiguous'):
        bool(torch.ones(2))


def test_bool_of_empty_tensor():
    with pytest.raises(RuntimeError, match='Boolean value of Tensor with no values is ambiguous'):
        bool(torch.zeros(0))


def test_len_of_zero_dim_tensor():
    with pytest.raises(TypeError, match='len\\(\\) of a 0-d tensor'):
        len(torch.tensor(1))


def test_iterate_zero_dim_tensor():
    with pytest.raises(TypeError, match='iteration over a 0-d tensor'):
        iter(torch.tensor(5))


def test_float_tensor_as_index():
    with pytest.raises(TypeError, match='only integer tensors of a single element can be converted to an index'):
        [1, 2][torch.tensor(1.0)]


def test_numpy_of_bfloat16():
    with pytest.raises(TypeError, match='BFloat16'):
        torch.ones(2, dtype=torch.bfloat16).numpy()


# ---- arithmetic ----------------------------------------------------------------------------------------------

def test_inplace_int_plus_float():
    t = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        t += 1.5


def test_inplace_int_true_division():
    t = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        t /= 2


def test_inplace_bool_plus_int():
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        torch.tensor([True]).add_(1)


def test_inplace_on_expanded_tensor():
    with pytest.raises(RuntimeError, match='more than one element of the written-to tensor refers to a single '
                                           'memory location'):
        torch.zeros(3).expand(2, 3).add_(1)


def test_int_to_negative_int_power():
    with pytest.raises(RuntimeError, match='Integers to negative integer powers are not allowed'):
        torch.tensor([1, 2]) ** -1


def test_int_to_negative_int_power_inplace():
    t = torch.tensor([1, 2], dtype=torch.int16)
    with pytest.raises(RuntimeError, match='Integers to negative integer powers are not allowed'):
        t.pow_(-2)


def test_integer_floor_division_by_zero():
    with pytest.raises(RuntimeError, match='ZeroDivisionError'):
        torch.tensor([1]) // 0


def test_integer_remainder_by_zero():
    with pytest.raises(RuntimeError, match='ZeroDivisionError'):
        torch.tensor([5, 6], dtype=torch.int8) % torch.tensor([1, 0], dtype=torch.int8)


def test_integer_alpha_must_be_integral():
    with pytest.raises(RuntimeError, match='alpha must not be a floating point number'):
        torch.tensor([1, 2]).add(torch.tensor([1, 1]), alpha=1.5)


def test_bool_subtraction():
    with pytest.raises(RuntimeError, match='Subtraction, the `-` operator, with two bool tensors is not supported'):
        torch.tensor([True]) - torch.tensor([False])


def test_subtraction_with_a_bool_operand():
    with pytest.raises(RuntimeError, match='Subtraction, the `-` operator, with a bool tensor is not supported'):
        2 - torch.tensor([True])


def test_bool_negation():
    with pytest.raises(RuntimeError, match='Negation, the `-` operator, on a bool tensor is not supported'):
        -torch.tensor([True, False])


def test_bool_floor_division():
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.tensor([True]) // torch.tensor([True])


def test_pow_with_modulus():
    with pytest.raises(TypeError, match='modulus'):
        pow(torch.tensor([2]), 2, 3)


def test_pow_of_reduced_floats_checks_the_exponent_fits():
    for dtype, name in ((torch.float16, 'at::Half'), (torch.bfloat16, 'at::BFloat16')):
        e = 1e10 if dtype == torch.float16 else 1e39
        for f in (lambda: torch.pow(torch.ones(2, dtype=dtype), e), lambda: torch.ones(2, dtype=dtype) ** e,
                  lambda: torch.ones(2, dtype=dtype).pow_(e)):
            with pytest.raises(RuntimeError, match='value cannot be converted to type %s without overflow' % name):
                f()
    assert torch.pow(torch.ones(2, dtype=torch.float16), float('inf')).tolist() == [1., 1.]
    assert torch.pow(torch.ones(2), 1e39).tolist() == [1., 1.]  # float and double take any exponent
    assert torch.pow(1e10, torch.ones(2, dtype=torch.float16)).tolist() == [math.inf, math.inf]


def test_binary_cross_entropy_with_logits_refuses_integer_tensors():
    import torch.nn.functional as F
    for x, y in ((torch.tensor([1, 2]), torch.tensor([1, 0])), (torch.tensor([1., 2.]), torch.tensor([1, 0])),
                 (torch.tensor([1, 2]), torch.tensor([1., 0.]))):
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            F.binary_cross_entropy_with_logits(x, y)


# ---- reductions -------------------------------------------------------------------------------------------

def test_mean_of_int_tensor():
    with pytest.raises(RuntimeError, match='mean\\(\\): could not infer output dtype. Input dtype must be either a '
                                           'floating point or complex dtype. Got: Long'):
        torch.tensor([1, 2]).mean()


def test_mean_of_bool_tensor():
    with pytest.raises(RuntimeError, match='Got: Bool'):
        torch.tensor([True]).mean()


def test_max_of_empty_tensor():
    with pytest.raises(RuntimeError, match=r'max\(\): Expected reduction dim to be specified for input.numel\(\) == 0'):
        torch.zeros(0).max()


def test_min_of_empty_tensor():
    with pytest.raises(RuntimeError, match=r'min\(\): Expected reduction dim'):
        torch.zeros(2, 0).min()


def test_max_along_an_empty_dim():
    with pytest.raises(IndexError, match=r'max\(\): Expected reduction dim 0 to have non-zero size'):
        torch.zeros(0, 3).max(0)


def test_argmax_of_empty_tensor():
    with pytest.raises(IndexError, match=r'argmax\(\): Expected reduction dim to be specified'):
        torch.zeros(0).argmax()


# ---- backends, devices, threads, dtypes ----------------------------------------------------------------------

def test_unknown_blas_provider():
    with pytest.raises(ValueError, match="unknown BLAS provider 'mkl'"):
        torch.backends.blas.use('mkl')


def test_blas_provider_name_must_be_a_string():
    with pytest.raises(TypeError, match='str'):
        torch.backends.blas.use(1)


def test_unknown_device_string():
    with pytest.raises(RuntimeError, match='Expected one of cpu, cuda device type at start of device string: gpu'):
        torch.device('gpu')


def test_unknown_device_in_factory():
    with pytest.raises(RuntimeError, match='xyz'):
        torch.ones(2, device='xyz')


def test_malformed_device_index():
    with pytest.raises(RuntimeError, match="Invalid device string: 'cpu:x'"):
        torch.device('cpu:x')


def test_negative_device_index():
    with pytest.raises(RuntimeError, match='Device index must not be negative'):
        torch.device('cpu', -1)


def test_cuda_device_not_available():
    with pytest.raises(RuntimeError, match='cuda'):
        torch.zeros(1, device='cuda:0')


def test_set_num_threads_zero():
    with pytest.raises(RuntimeError, match='positive'):
        torch.set_num_threads(0)


def test_set_num_threads_negative():
    with pytest.raises(RuntimeError, match='positive'):
        torch.set_num_threads(-3)


def test_set_num_threads_not_an_int():
    with pytest.raises(RuntimeError, match='set_num_threads expects an int, but got float'):
        torch.set_num_threads(1.5)


def test_set_default_dtype_to_integer():
    with pytest.raises(TypeError, match='only floating-point types are supported as the default type'):
        torch.set_default_dtype(torch.int64)
    assert torch.get_default_dtype() == torch.float32


def test_from_numpy_negative_strides():
    import numpy as np
    with pytest.raises(ValueError, match='negative'):
        torch.from_numpy(np.arange(4)[::-1])


def test_errors_leave_no_pending_state():
    # after an error the next call works and raises nothing stale
    with pytest.raises(RuntimeError):
        torch.ones(2, 3) + torch.ones(4)
    assert (torch.ones(2) + torch.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(IndexError):
        torch.ones(2)[5]
    assert torch.arange(3).sum().item() == 3


# ---- out= arguments (issue #32) ----------------------------------------------------------------------------

_OVERLAP = r'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single ' \
           r'memory location'


def test_out_overlapping_an_input_is_checked_before_it_is_resized():
    # out=a[0] resized to a's shape would alias all of a: PyTorch checks the overlap first
    for f in (lambda a: torch.add(a, 1, out=a[0]), lambda a: torch.exp(a, out=a[1:]),
              lambda a: torch.neg(a[0], out=a), lambda a: torch.cat([a, a], out=a[:1]),
              lambda a: torch.index_select(a, 0, torch.tensor([0, 1]), out=a[:1])):
        a = torch.arange(6.).reshape(3, 2)
        with pytest.raises(RuntimeError, match=_OVERLAP):
            f(a)
        assert a.tolist() == [[0., 1.], [2., 3.], [4., 5.]]


def test_out_resized_grows_its_storage_in_place():
    x = torch.zeros(6)
    torch.add(torch.ones(3, 2), 1, out=x[4:])  # the view grows the storage every view of it shares
    assert x.tolist() == [0., 0., 0., 0., 2., 2.]
    x = torch.zeros(4)
    v = x.view(2, 2)
    with pytest.warns(UserWarning, match='was resized'):
        torch.add(torch.ones(3, 2), 1, out=v)
    assert x.tolist() == [2.] * 4 and v.shape == (3, 2)


def test_out_of_foreign_memory_cannot_grow():
    import numpy as np
    x = torch.from_numpy(np.zeros(2, dtype=np.float32))
    with pytest.raises(RuntimeError, match='Trying to resize storage that is not resizable'):
        torch.add(torch.ones(3, 2), 1, out=x)


@pytest.mark.parametrize('call, message', [
    (lambda o: torch.index_select(torch.arange(4), 0, torch.tensor([1]), out=o),
     r'index_select\(\): self and result must have the same scalar type'),
    (lambda o: torch.masked_select(torch.arange(4), torch.ones(4, dtype=torch.bool), out=o),
     r'masked_select\(\): self and result must have the same scalar type'),
    (lambda o: torch.take(torch.arange(4), torch.tensor([1]), out=o),
     r'take\(\): self and out expected to have the same dtype, but got self.dtype = Long and out.dtype = Float'),
    (lambda o: torch.nonzero(torch.arange(4), out=o),
     r'nonzero: Expected out tensor to have scalar type Long but got scalar typeFloat'),
    (lambda o: torch.histc(torch.rand(4, dtype=torch.float64), out=o),
     r'torch.histogram: input tensor and hist tensor should have the same dtype, but got input double and hist float'),
    (lambda o: torch.gather(torch.arange(4), 0, torch.tensor([1]), out=o),
     r'Expected out tensor to have dtype long int, but got float instead'),
    (lambda o: torch.tril(torch.ones(2, 2, dtype=torch.int64), out=o),
     r'Expected out tensor to have dtype long int, but got float instead'),
    (lambda o: torch.matmul(torch.ones(2, 2, dtype=torch.int64), torch.ones(2, 2, dtype=torch.int64), out=o),
     r'Expected out tensor to have dtype long int, but got float instead'),
    (lambda o: torch.scatter_add(torch.ones(2, dtype=torch.int64), 0, torch.tensor([0]),
                                 torch.ones(1, dtype=torch.int64), out=o),
     r'Expected out tensor to have dtype long int, but got float instead'),
    (lambda o: torch._C._nn.hardtanh(torch.ones(2, dtype=torch.float64), out=o), r'Found dtype Float but expected Double'),
    (lambda o: torch._C._nn.elu(torch.ones(2, dtype=torch.float64), out=o), r'Found dtype Float but expected Double'),
])
def test_out_of_another_dtype_is_refused_where_pytorch_refuses_it(call, message):
    out = torch.zeros(1)
    with pytest.raises(RuntimeError, match=message):
        call(out)
    assert out.tolist() == [0.]


def test_out_of_another_dtype_is_cast_into_where_pytorch_casts():
    out = torch.zeros(2, dtype=torch.float64)
    torch.add(torch.ones(2), 1, out=out)
    torch.exp(torch.zeros(2), out=out)
    assert out.tolist() == [1., 1.]


# ---- nothing crashes the interpreter ------------------------------------------------------------------------

# Each expression must either return or raise an ordinary exception; they run in a child process so
# that a crash (a segfault, an abort, a hang) fails the test instead of the whole run.
RISKY = [
    "torch.arange(10)[::2**63-1]", "torch.arange(10)[2**62:]", "torch.arange(10)[-2**63:2**63-1]",
    "torch.arange(10)[::-2**63]", "torch.arange(10)[2**70]", "torch.arange(10)[-2**63]",
    "torch.ones([1]*64).unsqueeze(0)", "torch.ones([1]*64)[None]", "torch.ones(3)[(None,)*70]",
    "torch.ones(3)[(None,)*64]", "torch.ones(1).view([1]*65)", "torch.ones(1).expand([1]*65)",
    "torch.ones(2).expand(2**62, 2)", "torch.ones(5).view(5, 1).expand(5, 2**61).sum(1)",
    "torch.ones(2**31, 0).view(0, 2**33)", "torch.zeros(2**40, 0).sum(0)", "torch.ones(0).view(2**62, 2**62, 0)",
    "torch.ones(2, 2).permute(2**40, 0)", "torch.ones(2).sum(-2**63)", "torch.ones(2).unsqueeze(2**31)",
    "torch.ones(2, 3).sum([0]*65)", "torch.ones(2).view(*([1]*70))", "torch.empty(2**61, 2, dtype=torch.int8)",
    "torch.zeros(2**35, 2**35)", "torch.eye(2**40)", "torch.eye(2**31, 2**31)", "torch.arange(2**62)",
    "torch.linspace(0, 1, 2**62)", "torch.arange(0, 1, 1e-300)", "torch.arange(-1e308, 1e308, 1e-300)",
    "torch.arange(0, 10, float('nan'))", "torch.arange(-2**63, 2**63-1)", "torch.full((2,), 10**30)",
    "torch.ones(2) + 10**30", "torch.ones(2).add(1, alpha=10**30)", "torch.ones(2, 2) @ torch.ones(2**40, 2)",
    "torch.Tensor(*([1]*65))", "torch.zeros(3, dtype=torch.int32).fill_(float('nan'))",
    "torch.tensor([2]).pow(2**63-1)", "torch.tensor([-2**63]) // -1", "torch.tensor([-2**63]) % -1",
    "torch.tensor([-128], dtype=torch.int8) // -1", "torch.tensor([-2**31], dtype=torch.int32) % -1",
    "torch.tensor([]).max(0)", "torch.tensor([]).argmin()", "torch.tensor(3.).max(1)", "torch.tensor(3.)[:]",
    "torch.ones(3).view(2**63-1)", "torch.ones(3).reshape(-2, -1)", "torch.tensor([1e400], dtype=torch.int32)",
    "torch.tensor([float('nan')], dtype=torch.int64)", "torch.full((2,), float('inf'), dtype=torch.int16)",
    "torch.tensor([1, 2]).to(torch.float16).view(torch.int8)", "torch.ones(2, 3).view(2, 3, 'x')",
    "torch.tensor((lambda a: (a.append(a), a)[1])([]))", "torch.tensor([[[[[[[[[[1]]]]]]]]]] * 3)",
    "torch.from_numpy(__import__('numpy').zeros((2, 0))).view(-1)", "torch.ones(2).numpy().__array_interface__",
    "torch.zeros(0, 3).t() @ torch.zeros(0, 4)", "torch.ones(3, 0).sum(1).max()", "torch.ones(3)[..., None, 1]",
    "torch.zeros(1).expand(3).clone().add_(1)", "torch.ones(2, 3).t().contiguous().view(-1)[::-1]",
    "torch._C._from_buffer(None, 0, 0, (2**62,), (1,), 0, torch.float32)",
    "torch._C._from_buffer(None, 0, 8, (4,), (1,), 0, torch.float32)",
    "torch._C._from_buffer(None, 0, 8, (2,), (-1,), 0, torch.float32)",
    "torch._C._empty((2,), torch.float32, 'cuda:5')", "torch._C._full((2,), 1, torch.int8, None)",
    "torch._C._copy(torch.ones(2), torch.float32)", "torch._C._arange(torch.ones(2, 2), 0, 1)",
    "torch._C._linspace(torch.ones(3), 0, 1)", "torch._C._blas_use('')", "torch._C.set_num_threads(2**40)",
]


def test_risky_inputs_raise_instead_of_crashing():
    script = textwrap.dedent('''
        import sys, torch
        for line in sys.stdin.read().split("\\n"):
            if not line:
                continue
            try:
                eval(line)
                outcome = "ok"
            except Exception as e:
                outcome = type(e).__name__
            print(outcome, line, flush=True)
        print("DONE", flush=True)
    ''')
    # the child imports the very torch package this run tests
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
    proc = subprocess.run([sys.executable, '-c', script], input='\n'.join(RISKY), capture_output=True, text=True,
                          env=env, timeout=120, cwd='/')
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and lines and lines[-1] == 'DONE', (
        'child died (rc %d) after:\n%s\nstderr:\n%s' % (proc.returncode, '\n'.join(lines[-3:]), proc.stderr[-2000:]))
    assert len(lines) == len(RISKY) + 1
    outcomes = dict((l.split(' ', 1)[1], l.split(' ', 1)[0]) for l in lines[:-1])
    # the ones that must fail, fail with an ordinary error
    for expr in ("torch.ones(2).expand(2**62, 2)", "torch.zeros(2**35, 2**35)", "torch.arange(2**62)",
                 "torch.ones(2, 2) @ torch.ones(2**40, 2)", "torch.tensor((lambda a: (a.append(a), a)[1])([]))",
                 "torch._C._from_buffer(None, 0, 8, (4,), (1,), 0, torch.float32)"):
        assert outcomes[expr] in ('RuntimeError', 'ValueError', 'TypeError', 'IndexError'), (expr, outcomes[expr])
