"""gradcheck samples for the indexing, gathering and scattering ops and the joining, splitting and
rearranging ops of the op table (test_autograd_ops.py reads them).

Indices written through (scatter, index_copy, put, index_put without accumulate) are distinct, so
that which value lands is not a matter of order; gradients are defined only then.
"""
import torch


def L(values):
    return torch.tensor(values, dtype=torch.int64)


def B(values):
    return torch.tensor(values, dtype=torch.bool)


# Declared without a derivative where PyTorch 1.13 has none either (by base name). None here: scatter
# with a reduce (scatter.reduce, scatter.value_reduce and their in-place forms) records a node that
# raises, as PyTorch's does, and the test skips ops whose formulas are all `not_implemented` by itself
# (NOT_IMPLEMENTED would skip every scatter overload).
NOT_IMPLEMENTED = set()


def _diagonal_grad(sizes, offset, dim1, dim2, T):
    return T(*torch.zeros(sizes).diagonal(offset, dim1, dim2).shape)


def _unfold_grad(sizes, dim, size, step, T):
    return T(*torch.zeros(sizes).unfold(dim, size, step).shape)


def samples(T, mixed):
    mask = lambda: B([[True, False, True, False], [False, False, True, True], [True, True, False, False]])
    # distinct rows per column (a write of two values to one place would make the result order-dependent)
    idx = lambda: L([[0, 1, 2, 0], [2, 0, 1, 1]])
    # with repeats: for the accumulating writes and the reductions
    rep = lambda: L([[0, 1, 2, 0], [0, 0, 1, 1], [2, 0, 1, 0]])

    def scatter_reduce_cases():
        cases = []
        for reduce in ('sum', 'prod', 'mean', 'amax', 'amin'):
            for include_self in (True, False):
                cases.append(((T(3, 4), 0, rep(), T(3, 4), reduce), {'include_self': include_self}))
        cases.append(((T(3, 5), 1, L([[0, 0], [4, 1], [2, 2]]), T(3, 2), 'mean'), {}))
        return cases

    return {
        # indexing and gathering
        'index.Tensor': lambda: [((T(3, 4), [L([0, 2, 0])]), {}), ((T(3, 4), [None, L([[1, 3], [3, 3]])]), {}),
                                 ((T(3, 4), [L([2, 0]), L([1, 1])]), {}), ((T(3, 4), [mask()]), {})],
        'index_select': lambda: [((T(3, 4), 0, L([2, 0, 2])), {}), ((T(3, 4), 1, L([3])), {}),
                                 ((T(), 0, L([0])), {})],
        'gather': lambda: [((T(3, 4), 1, L([[0, 1, 1], [3, 2, 0], [1, 1, 1]])), {}), ((T(3, 4), 0, rep()), {})],
        'take': lambda: [((T(3, 4), L([[0, 5], [11, 5]])), {}), ((T(3, 4), L(7)), {})],
        'take_along_dim': lambda: [((T(3, 4), L([[0], [2], [1]]), 1), {}), ((T(3, 4), L([1, 1, 10])), {})],
        # writes at indices (the in-place forms take the same samples)
        'index_put': lambda: [((T(3, 4), [L([0, 2])], T(2, 4)), {}), ((T(3, 4), [L([0, 2]), L([1, 3])], T(1)), {}),
                              ((T(3, 4), [L([0, 0, 2])], T(3, 4), True), {}),
                              ((T(3, 4), [None, L([1, 1])], T(3, 1)), {'accumulate': True}),
                              ((T(3, 4), [mask()], T(6)), {})],
        'index_add': lambda: [((T(3, 4), 0, L([0, 2, 0]), T(3, 4)), {}),
                              ((T(3, 4), 1, L([3, 1]), T(3, 2)), {'alpha': 2.5}), ((T(), 0, L([0]), T()), {})],
        'index_copy': lambda: [((T(3, 4), 0, L([2, 0]), T(2, 4)), {}), ((T(3, 4), 1, L([3, 0, 1]), T(3, 3)), {})],
        'index_fill.int_Scalar': lambda: [((T(3, 4), 1, L([0, 2]), 1.5), {}), ((T(3, 4), 0, L([1, 1]), -2), {})],
        'index_fill.int_Tensor': lambda: [((T(3, 4), 1, L([0, 2, 2]), T()), {}), ((T(3, 4), 0, L([2]), T()), {})],
        'put': lambda: [((T(3, 4), L([0, 5, 11]), T(3)), {}), ((T(3, 4), L([[1, 1], [4, 0]]), T(2, 2), True), {})],
        'scatter.src': lambda: [((T(3, 4), 0, idx(), T(2, 4)), {}), ((T(3, 4), 1, L([[3, 0], [1, 2]]), T(2, 2)), {})],
        'scatter.value': lambda: [((T(3, 4), 0, idx(), 1.5), {}), ((T(3, 4), 1, L([[3, 3]]), -1), {})],
        'scatter_add': lambda: [((T(3, 4), 0, rep(), T(3, 4)), {}), ((T(3, 4), 1, L([[3, 3], [0, 1]]), T(2, 2)), {})],
        'scatter_reduce.two': scatter_reduce_cases,
        'masked_fill.Scalar': lambda: [((T(3, 4), mask(), 2.0), {}), ((T(3, 4), B([True, False, False, True]), -1), {})],
        'masked_fill.Tensor': lambda: [((T(3, 4), mask(), T()), {}), ((T(3, 4), B([False, True, False, True]), T()), {})],
        'masked_scatter': lambda: [((T(3, 4), mask(), T(12)), {}), ((T(3, 1), mask(), T(3, 3)), {}),
                                   ((T(3, 4), B([True, False, False, True]), T(7)), {})],
        'masked_scatter_': lambda: [((T(3, 4), mask(), T(12)), {}),
                                    ((T(3, 4), B([True, False, False, True]), T(2, 4)), {})],
        'masked_select': lambda: [((T(3, 4), mask()), {}), ((T(3, 1), mask()), {}),
                                  ((T(3, 4), B([True, False, False, True])), {})],
        'where.self': lambda: [((mask(), T(3, 4), T(4)), {}), ((B([True, False]), T(3, 1), T(1, 2)), {})],
        'where.ScalarSelf': lambda: [((mask(), 1.5, T(3, 4)), {})],
        'where.ScalarOther': lambda: [((mask(), T(3, 4), -2), {}), ((mask(), T(4), 0.5), {})],
        # splitting
        'split.Tensor': lambda: [((T(5, 4), 2), {}), ((T(5, 4), 3, 1), {})],
        'split.sizes': lambda: [((T(5, 4), [2, 3]), {}), ((T(5, 4), [1, 3], 1), {})],
        'split': lambda: [((T(5, 4), [2, 3]), {}), ((T(5, 4), [4, 0], 1), {})],
        'split_with_sizes': lambda: [((T(5, 4), [1, 4]), {}), ((T(5, 4), [2, 2], 1), {})],
        'tensor_split.sections': lambda: [((T(5, 4), 2), {}), ((T(5, 4), 3, 1), {})],
        'tensor_split.indices': lambda: [((T(5, 4), [1, 3]), {}), ((T(5, 4), [2], -1), {})],
        'tensor_split.tensor_indices_or_sections': lambda: [((T(5, 4), L([1, 3])), {}), ((T(5, 4), L(2), 1), {})],
        'chunk': lambda: [((T(5, 4), 2), {}), ((T(5, 4), 3, 1), {})],
        # repeating, flipping, rolling
        'repeat': lambda: [((T(2, 3), [2, 1, 2]), {})],
        'repeat_interleave.Tensor': lambda: [((L([1, 2]),), {})],
        'repeat_interleave.self_Tensor': lambda: [((T(2, 3), L([1, 2]), 0), {}), ((T(2, 3), L(2)), {})],
        'repeat_interleave.self_int': lambda: [((T(2, 3), 2), {}), ((T(2, 3), 3, 1), {})],
        'tile': lambda: [((T(2, 3), [2, 1]), {}), ((T(2, 3), [2]), {})],
        'flip': lambda: [((T(2, 3, 2), [0, 2]), {}), ((T(3), [-1]), {})],
        'roll': lambda: [((T(3, 4), [1], [0]), {}), ((T(3, 4), [2, -1], [0, 1]), {}), ((T(3, 4), [3]), {})],
        'rot90': lambda: [((T(3, 4),), {}), ((T(3, 4), 2, [1, 0]), {}), ((T(2, 3, 4), -1, [0, 2]), {})],
        # triangles and diagonals
        'tril': lambda: [((T(4, 3),), {}), ((T(4, 3), -1), {}), ((T(2, 3, 3), 1), {})],
        'triu': lambda: [((T(4, 3),), {}), ((T(4, 3), -1), {}), ((T(2, 3, 3), 1), {})],
        'diag': lambda: [((T(3, 3),), {}), ((T(3), 1), {}), ((T(3, 4), -1), {})],
        'diagonal': lambda: [((T(3, 4),), {}), ((T(3, 4), 1), {}), ((T(2, 3, 4), -1, 2, 0), {}),
                             ((T(2, 3), 5), {})],
        'trace': lambda: [((T(3, 3),), {}), ((T(2, 3),), {})],
        # narrowing and rearranging views
        'narrow': lambda: [((T(5, 4), 0, 1, 3), {}), ((T(5, 4), -1, -2, 2), {})],
        'narrow.Tensor': lambda: [((T(5, 4), 1, L(1), 2), {})],
        'narrow_copy': lambda: [((T(5, 4), 0, 1, 3), {})],
        'index_reduce': lambda: [((T(4, 3), 0, torch.tensor([1, 3, 1]), T(3, 3), 'prod'), {}),
                                 ((T(4, 3), 1, torch.tensor([0, 2]), T(4, 2), 'mean'), {'include_self': False}),
                                 ((T(4, 3), 0, torch.tensor([2]), T(1, 3), 'amax'), {})],
        'renorm': lambda: [((T(4, 3), 2, 1, 0.5), {}), ((T(2, 3, 2), 1, 0, 1.5), {})],
        'linalg_vander': lambda: [((T(5),), {'N': 4}), ((T(2, 3),), {})],
        # the inverses of views: a copy with src written into the view
        'slice_scatter': lambda: [((T(5, 4), T(2, 4), 0, 1, 5, 2), {}), ((T(5, 4), T(5, 1)), {'dim': 1, 'start': -1})],
        'select_scatter': lambda: [((T(5, 4), T(4), 0, 2), {}), ((T(2, 3, 4), T(2, 3), -1, -1), {})],
        'diagonal_scatter': lambda: [((T(3, 4), T(3)), {}), ((T(2, 3, 4), T(3, 2), 1, 0, 2), {})],
        'unfold': lambda: [((T(7, 3), 0, 3, 2), {}), ((T(7, 3), 0, 2, 3), {}), ((T(2, 5), -1, 5, 1), {}),
                           ((T(), 0, 1, 1), {})],
        'unflatten.int': lambda: [((T(2, 6), 1, [2, 3]), {}), ((T(2, 6), -1, [3, -1]), {})],
        'movedim.intlist': lambda: [((T(2, 3, 4), [0, 1], [2, 0]), {})],
        'movedim.int': lambda: [((T(2, 3, 4), 0, 2), {})],
        'moveaxis.intlist': lambda: [((T(2, 3, 4), [0, 1], [2, 0]), {})],
        'moveaxis.int': lambda: [((T(2, 3, 4), -1, 0), {})],
        'swapaxes': lambda: [((T(2, 3, 4), 0, 2), {})],
        'swapdims': lambda: [((T(2, 3, 4), -1, 1), {})],
        'broadcast_to': lambda: [((T(3, 1), [2, 3, 4]), {})],
        # the backward helpers of these ops
        'diagonal_backward': lambda: [((_diagonal_grad([3, 4], 1, 0, 1, T), [3, 4], 1, 0, 1), {}),
                                      ((_diagonal_grad([2, 3, 4], -1, 2, 0, T), [2, 3, 4], -1, 2, 0), {})],
        'unfold_backward': lambda: [((_unfold_grad([7, 3], 0, 3, 2, T), [7, 3], 0, 3, 2), {}),
                                    ((_unfold_grad([2, 7], 1, 2, 3, T), [2, 7], 1, 2, 3), {})],
        'cat_tensors_backward': lambda: [((T(5, 3), [2, 0, 3], [2, 1, 2], 0), {})],
        'masked_scatter_backward': lambda: [((T(3, 4), mask(), [2, 4]), {}), ((T(3, 4), mask(), [7]), {})],
        'scatter_reduce_backward_self': lambda: [
            ((T(3, 4), T(3, 4), 0, rep(), T(3, 4), reduce, include_self, T(3, 4, requires_grad=False)), {})
            for reduce in ('sum', 'mean', 'prod') for include_self in (True, False)],
        'scatter_reduce_backward_src': lambda: [
            ((T(3, 4), T(3, 4), 0, rep(), T(3, 4), reduce, include_self, T(3, 4, requires_grad=False)), {})
            for reduce in ('sum', 'mean', 'prod') for include_self in (True, False)],
    }
