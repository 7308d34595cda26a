"""torch.nn.utils: gradient clipping, parameters as a vector, packed sequences, against the reference
PyTorch 1.13.1 (recorded in tests/data/reference/nn_utils.json by tools/record_reference).

Nothing at module level imports this project's torch (the recorder loads this file by path)."""
import pytest

from snippets import SnippetSuite

PARAMS = '''
a = torch.tensor([3.0, -4.0, 0.5], requires_grad=True); a.grad = torch.tensor([3.0, -4.0, 0.5])
b = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True); b.grad = torch.tensor([[0.1, -2.0], [7.0, 0.0]])
c = torch.ones(2, requires_grad=True)
'''

CASES = {
    'clip_norm_2': PARAMS + 'n = nn.utils.clip_grad_norm_([a, b, c], 1.0)\nout = [n, a.grad, b.grad, c.grad]',
    'clip_norm_inf': PARAMS + 'n = nn.utils.clip_grad_norm_([a, b], 2.0, norm_type="inf")\nout = [n, a.grad, b.grad]',
    'clip_norm_1': PARAMS + 'n = nn.utils.clip_grad_norm_(iter([a, b]), 5, norm_type=1)\nout = [n, a.grad, b.grad]',
    # (norms other than 2 and inf are summed in double here: the last bit may differ)
    'clip_norm_3': (PARAMS + 'n = nn.utils.clip_grad_norm_([a, b], 2.0, norm_type=3)\nout = [n, a.grad]', 2e-7),
    'clip_norm_no_clip': PARAMS + 'n = nn.utils.clip_grad_norm_(a, 100.0)\nout = [n, a.grad]',
    'clip_norm_empty': 'out = nn.utils.clip_grad_norm_([torch.ones(1, requires_grad=True)], 1.0)',
    'clip_norm_nonfinite': PARAMS + 'a.grad[0] = float("inf")\nnn.utils.clip_grad_norm_([a, b], 1.0, '
                                    'error_if_nonfinite=True)',
    'clip_norm_nonfinite_allowed': PARAMS + 'a.grad[0] = float("nan")\nn = nn.utils.clip_grad_norm_([a, b], 1.0)\n'
                                            'out = [n, b.grad]',
    'clip_norm_double': 'p = torch.ones(3, dtype=torch.float64, requires_grad=True)\np.grad = torch.full((3,), 2.0, '
                        'dtype=torch.float64)\nout = [nn.utils.clip_grad_norm_([p], 0.5), p.grad]',
    'clip_value': PARAMS + 'nn.utils.clip_grad_value_([a, b, c], 1.5)\nout = [a.grad, b.grad]',
    'clip_value_nan': 'p = torch.ones(3, requires_grad=True)\np.grad = torch.tensor([float("nan"), -5.0, 0.25])\n'
                      'nn.utils.clip_grad_value_(p, 1)\nout = p.grad',
    'to_vector': PARAMS + 'v = nn.utils.parameters_to_vector([a, b, c])\nout = [v, v.requires_grad]',
    'to_vector_grad': PARAMS + 'v = nn.utils.parameters_to_vector([a, b])\n(v * torch.arange(7.)).sum().backward()\n'
                               'out = [a.grad, b.grad]',
    'from_vector': PARAMS + 'nn.utils.vector_to_parameters(torch.arange(9.), [a, b, c])\nout = [a, b, c]',
    'from_vector_error': PARAMS + 'nn.utils.vector_to_parameters([1.0], [a])',
    'pad_sequence': 'out = [nn.utils.rnn.pad_sequence([torch.ones(2, 2), torch.ones(3, 2) * 2]), '
                    'nn.utils.rnn.pad_sequence([torch.arange(2.), torch.arange(4.)], batch_first=True, '
                    'padding_value=-1)]',
    'pad_sequence_error': 'nn.utils.rnn.pad_sequence(3)',
    'pack_padded': '''
x = torch.arange(24.).reshape(4, 3, 2)
p = nn.utils.rnn.pack_padded_sequence(x, [4, 2, 1])
q = nn.utils.rnn.pack_padded_sequence(x.transpose(0, 1), torch.tensor([3, 4, 1]), batch_first=True,
                                      enforce_sorted=False)
out = [p.data, p.batch_sizes, p.sorted_indices, q.data, q.batch_sizes, q.sorted_indices, q.unsorted_indices,
       type(p).__name__]
''',
    'pack_ties': 'x = torch.arange(12.).reshape(2, 6)\np = nn.utils.rnn.pack_padded_sequence(x, [2, 1, 2, 2, 1, 2], '
                 'enforce_sorted=False)\nout = [p.data, p.sorted_indices]',
    'pad_packed': '''
x = torch.arange(24.).reshape(4, 3, 2)
p = nn.utils.rnn.pack_padded_sequence(x, [3, 4, 1], enforce_sorted=False)
out = [list(nn.utils.rnn.pad_packed_sequence(p)),
       list(nn.utils.rnn.pad_packed_sequence(p, batch_first=True, padding_value=-1.0, total_length=6))]
''',
    'pack_grad': '''
x = torch.arange(12.).reshape(3, 2, 2).requires_grad_()
p = nn.utils.rnn.pack_padded_sequence(x, [3, 1])
(p.data * torch.arange(8.).reshape(4, 2)).sum().backward()
out = x.grad
''',
    'pack_sequence': 'out = list(nn.utils.rnn.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5]), '
                     'torch.tensor([6])]))',
    'pack_sequence_unsorted': 'out = list(nn.utils.rnn.pack_sequence([torch.tensor([1.]), torch.tensor([4., 5])], '
                              'enforce_sorted=False))',
    'unpack': 'p = nn.utils.rnn.pack_sequence([torch.tensor([1., 2]), torch.tensor([3.]), torch.tensor([4., 5, 6])], '
              'enforce_sorted=False)\nout = nn.utils.rnn.unpack_sequence(p)',
    'pack_errors_sorted': 'nn.utils.rnn.pack_padded_sequence(torch.ones(4, 3), [2, 4, 1])',
    'pack_errors_len': 'nn.utils.rnn.pack_padded_sequence(torch.ones(4, 3), [4, 2])',
    'pack_errors_zero': 'nn.utils.rnn.pack_padded_sequence(torch.ones(4, 3), [4, 2, 0])',
    'pack_errors_empty': 'nn.utils.rnn.pack_padded_sequence(torch.ones(0, 3), [0, 0, 0])',
    'pad_packed_error': 'p = nn.utils.rnn.pack_padded_sequence(torch.ones(4, 3), [4, 2, 1])\n'
                        'nn.utils.rnn.pad_packed_sequence(p, total_length=2)',
    'packed_methods': 'p = nn.utils.rnn.pack_sequence([torch.tensor([1., 2]), torch.tensor([3.])])\n'
                      'out = [p.double().data, p.long().data, p.to(torch.float16).data, p.is_cuda, p.cpu() is p]',
}

SUITE = SnippetSuite('nn_utils', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('case', SUITE.names)
def test_matches_reference(reports, case):
    SUITE.check(reports, case)


def test_clip_grad_norm_by_hand():
    import torch
    p = torch.zeros(2, requires_grad=True)
    p.grad = torch.tensor([3.0, 4.0])
    assert torch.nn.utils.clip_grad_norm_(p, 1.0).item() == pytest.approx(5.0)
    assert p.grad.tolist() == pytest.approx([0.6, 0.8], rel=1e-6)
