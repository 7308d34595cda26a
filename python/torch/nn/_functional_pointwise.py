"""Activations, the softmax family, losses, recurrent cells and attention (torch.nn.functional).

These are PyTorch 1.13's Python functions: argument handling, defaults, deprecated arguments,
warnings and the messages of the errors raised here. The work is done by ops of the op table
(torch.*, torch._C._nn.*); nothing numeric happens in Python.
"""
import math
import warnings

import torch
from torch import _C
from torch.nn import _reduction as _Reduction

_nn = _C._nn

__all__ = [
    'threshold', 'threshold_', 'relu', 'relu_', 'relu6', 'hardtanh', 'hardtanh_', 'elu', 'elu_', 'selu', 'selu_',
    'celu', 'celu_', 'leaky_relu', 'leaky_relu_', 'prelu', 'rrelu', 'rrelu_', 'glu', 'gelu', 'logsigmoid',
    'hardshrink', 'tanhshrink', 'softsign', 'softplus', 'softmin', 'softmax', 'log_softmax', 'softshrink', 'tanh',
    'gumbel_softmax',
    'sigmoid', 'hardsigmoid', 'silu', 'mish', 'hardswish',
    'nll_loss', 'poisson_nll_loss', 'kl_div', 'cross_entropy', 'binary_cross_entropy',
    'binary_cross_entropy_with_logits', 'smooth_l1_loss', 'huber_loss', 'l1_loss', 'mse_loss',
    'margin_ranking_loss', 'hinge_embedding_loss', 'cosine_embedding_loss', 'triplet_margin_loss', 'ctc_loss',
    'pairwise_distance', 'scaled_dot_product_attention', '_scaled_dot_product_attention',
    'multi_head_attention_forward',
]


# ---- activations ---------------------------------------------------------------------------------

def threshold(input, threshold, value, inplace=False):
    """Thresholds each element: value where input <= threshold, else input."""
    if inplace:
        return torch.threshold_(input, threshold, value)
    return torch.threshold(input, threshold, value)


threshold_ = _C.threshold_


def relu(input, inplace=False):
    return torch.relu_(input) if inplace else torch.relu(input)


relu_ = _C.relu_


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _nn.glu(input, dim)


def hardtanh(input, min_val=-1., max_val=1., inplace=False):
    if inplace:
        return _nn.hardtanh_(input, min_val, max_val)
    return _nn.hardtanh(input, min_val, max_val)


hardtanh_ = _nn.hardtanh_


def relu6(input, inplace=False):
    return _nn.relu6_(input) if inplace else _nn.relu6(input)


def elu(input, alpha=1.0, inplace=False):
    return _nn.elu_(input, alpha) if inplace else _nn.elu(input, alpha)


elu_ = _nn.elu_


def selu(input, inplace=False):
    return torch.selu_(input) if inplace else torch.selu(input)


selu_ = _C.selu_


def celu(input, alpha=1., inplace=False):
    return torch.celu_(input, alpha) if inplace else torch.celu(input, alpha)


celu_ = _C.celu_


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        return _nn.leaky_relu_(input, negative_slope)
    return _nn.leaky_relu(input, negative_slope)


leaky_relu_ = _nn.leaky_relu_
prelu = _C.prelu


def rrelu(input, lower=1. / 8, upper=1. / 3, training=False, inplace=False):
    if inplace:
        return torch.rrelu_(input, lower, upper, training)
    return torch.rrelu(input, lower, upper, training)


rrelu_ = _C.rrelu_
logsigmoid = _nn.log_sigmoid
gelu = _nn.gelu
hardshrink = _C.hardshrink
softplus = _nn.softplus
softshrink = _nn.softshrink


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn("Implicit dimension choice for {} has been deprecated. Change the call to include dim=X as an "
                  "argument.".format(name), stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Samples from the Gumbel-softmax distribution: softmax((logits + Gumbel noise) / tau), or its one-hot
    argmax with the soft sample's gradient (straight-through) when hard."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.")
    gumbels = -torch.empty_like(logits, memory_format=torch.legacy_contiguous_format).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = torch.zeros_like(logits, memory_format=torch.legacy_contiguous_format).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def tanh(input):
    warnings.warn("nn.functional.tanh is deprecated. Use torch.tanh instead.")
    return input.tanh()


def sigmoid(input):
    warnings.warn("nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.")
    return input.sigmoid()


def hardsigmoid(input, inplace=False):
    return _nn.hardsigmoid_(input) if inplace else _nn.hardsigmoid(input)


def silu(input, inplace=False):
    return _nn.silu_(input) if inplace else _nn.silu(input)


def mish(input, inplace=False):
    return _nn.mish_(input) if inplace else _nn.mish(input)


def hardswish(input, inplace=False):
    return _nn.hardswish_(input) if inplace else _nn.hardswish(input)


# ---- losses --------------------------------------------------------------------------------------

def _broadcast_shape(a, b):
    """The shape two shapes broadcast to (torch.broadcast_shapes), with PyTorch's error."""
    a, b = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
                               "dimension {}".format(x, y, i))
        out.append(y if x == 1 else x)
    return torch.Size(out)


def _broadcast_pair(input, target):
    shape = _broadcast_shape(input.shape, target.shape)
    return input.expand(shape), target.expand(shape)


def _warn_size_mismatch(input, target):
    if not (target.size() == input.size()):
        warnings.warn("Using a target size ({}) that is different to the input size ({}). This will likely lead to "
                      "incorrect results due to broadcasting. Please ensure they have the same size."
                      .format(target.size(), input.size()), stacklevel=3)


def _reduction_enum(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _Reduction.legacy_get_enum(size_average, reduce)
    return _Reduction.get_enum(reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    return _nn.nll_loss_nd(input, target, weight, _Reduction.get_enum(reduction), ignore_index)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not a valid value for reduction")
    return torch.poisson_nll_loss(input, target, log_input, full, eps, _Reduction.get_enum(reduction))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction_enum = _Reduction.legacy_get_enum(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
        reduction_enum = _Reduction.get_enum("sum" if reduction == "batchmean" else reduction)
    reduced = torch.kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    return _nn.cross_entropy_loss(input, target, weight, _Reduction.get_enum(reduction), ignore_index,
                                  label_smoothing)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError("Using a target size ({}) that is different to the input size ({}) is deprecated. Please "
                         "ensure they have the same size.".format(target.size(), input.size()))
    if weight is not None:
        weight = weight.expand(_broadcast_shape(target.size(), weight.size()))
    return _nn.binary_cross_entropy(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError("Target size ({}) must be the same as input size ({})".format(target.size(), input.size()))
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction_enum)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size_mismatch(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    return _nn.smooth_l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction), beta)


def huber_loss(input, target, reduction='mean', delta=1.0):
    _warn_size_mismatch(input, target)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    return _nn.huber_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction), delta)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size_mismatch(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    return _nn.l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size_mismatch(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    return _nn.mse_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           "input1: {}, input2: {}, target: {} ".format(input1.size(), input2.size(), target.size()))
    return torch.margin_ranking_loss(input1, input2, target, margin, reduction_enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    return torch.hinge_embedding_loss(input, target, margin, _reduction_enum(size_average, reduce, reduction))


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    return torch.cosine_embedding_loss(input1, input2, target, margin, _reduction_enum(size_average, reduce, reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                     _reduction_enum(size_average, reduce, reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _Reduction.get_enum(reduction),
                          zero_infinity)


pairwise_distance = _C.pairwise_distance


# ---- attention -----------------------------------------------------------------------------------

_scaled_dot_product_attention = _nn._scaled_dot_product_attention


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False):
    """softmax(query @ key^T / sqrt(E) + mask) @ value (PyTorch 2.0's function over 1.13's op); a bool
    mask says which positions may be attended to."""
    return _nn._scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, False, is_causal)[0]


def _linear(x, weight, bias):
    out = x.matmul(weight.t())
    return out if bias is None else out + bias


def _append(t, extra, dim):
    """cat([t, extra], dim) by copying into a new tensor (extra broadcast to one slice)."""
    shape = list(t.shape)
    n = shape[dim]
    shape[dim] = n + 1
    out = t.new_empty(shape)
    index = [slice(None)] * len(shape)
    index[dim] = slice(0, n)
    out[tuple(index)] = t
    index[dim] = slice(n, n + 1)
    out[tuple(index)] = extra
    return out


def _additive_mask(mask, dtype):
    """A bool mask (True: masked out, MultiheadAttention's sense) as 0 / -inf in dtype."""
    return (1 - mask.to(dtype)).log()


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        is_batched = True
        assert key.dim() == 3 and value.dim() == 3, \
            ("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found {}-D and {}-D tensors "
             "respectively".format(key.dim(), value.dim()))
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == 2, \
                ("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but found {}-D "
                 "tensor instead".format(key_padding_mask.dim()))
        if attn_mask is not None:
            assert attn_mask.dim() in (2, 3), \
                ("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found {}-D tensor "
                 "instead".format(attn_mask.dim()))
    elif query.dim() == 2:
        is_batched = False
        assert key.dim() == 2 and value.dim() == 2, \
            ("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found {}-D and {}-D tensors "
             "respectively".format(key.dim(), value.dim()))
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == 1, \
                ("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but found {}-D "
                 "tensor instead".format(key_padding_mask.dim()))
        if attn_mask is not None:
            assert attn_mask.dim() in (2, 3), \
                ("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found {}-D tensor "
                 "instead".format(attn_mask.dim()))
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                assert attn_mask.shape == expected_shape, \
                    ("Expected `attn_mask` shape to be {} but got {}".format(expected_shape, attn_mask.shape))
    else:
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received {}-D query tensor"
                             .format(query.dim()))
    return is_batched


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True):
    """The forward of nn.MultiheadAttention: inputs (L, N, E) (or unbatched (L, E)), outputs
    (L, N, E) and the attention weights (N, L, S), averaged over heads unless told not to."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len, _, _ = key.shape
    assert embed_dim == embed_dim_to_check, \
        "was expecting embedding dimension of {}, but got {}".format(embed_dim_to_check, embed_dim)
    head_dim = embed_dim // num_heads
    assert head_dim * num_heads == embed_dim, "embed_dim {} not divisible by num_heads {}".format(embed_dim, num_heads)
    if use_separate_proj_weight:
        assert key.shape[:2] == value.shape[:2], \
            "key's sequence and batch dims {} do not match value's {}".format(key.shape[:2], value.shape[:2])
    else:
        assert key.shape == value.shape, "key shape {} does not match value shape {}".format(key.shape, value.shape)

    # in-projection
    E = embed_dim
    if not use_separate_proj_weight:
        assert in_proj_weight is not None, "use_separate_proj_weight is False but in_proj_weight is None"
        w_q, w_k, w_v = in_proj_weight[0:E], in_proj_weight[E:2 * E], in_proj_weight[2 * E:3 * E]
    else:
        assert q_proj_weight is not None, "use_separate_proj_weight is True but q_proj_weight is None"
        assert k_proj_weight is not None, "use_separate_proj_weight is True but k_proj_weight is None"
        assert v_proj_weight is not None, "use_separate_proj_weight is True but v_proj_weight is None"
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
    if in_proj_bias is None:
        b_q = b_k = b_v = None
    else:
        b_q, b_k, b_v = in_proj_bias[0:E], in_proj_bias[E:2 * E], in_proj_bias[2 * E:3 * E]
    q, k, v = _linear(query, w_q, b_q), _linear(key, w_k, b_k), _linear(value, w_v, b_v)

    # the attention mask, 3-D
    if attn_mask is not None:
        if attn_mask.dtype == torch.uint8:
            warnings.warn("Byte tensor for attn_mask in nn.MultiheadAttention is deprecated. Use bool tensor instead.")
            attn_mask = attn_mask.to(torch.bool)
        else:
            assert attn_mask.is_floating_point() or attn_mask.dtype == torch.bool, \
                "Only float, byte, and bool types are supported for attn_mask, not {}".format(attn_mask.dtype)
        if attn_mask.dim() == 2:
            correct_2d_size = (tgt_len, src_len)
            if attn_mask.shape != correct_2d_size:
                raise RuntimeError("The shape of the 2D attn_mask is {}, but should be {}.".format(
                    attn_mask.shape, correct_2d_size))
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = (bsz * num_heads, tgt_len, src_len)
            if attn_mask.shape != correct_3d_size:
                raise RuntimeError("The shape of the 3D attn_mask is {}, but should be {}.".format(
                    attn_mask.shape, correct_3d_size))
        else:
            raise RuntimeError("attn_mask's dimension {} is not supported".format(attn_mask.dim()))
    if key_padding_mask is not None and key_padding_mask.dtype == torch.uint8:
        warnings.warn("Byte tensor for key_padding_mask in nn.MultiheadAttention is deprecated. Use bool tensor "
                      "instead.")
        key_padding_mask = key_padding_mask.to(torch.bool)

    # bias along the batch dimension (still the second)
    if bias_k is not None and bias_v is not None:
        assert static_k is None, "bias cannot be added to static key."
        assert static_v is None, "bias cannot be added to static value."
        k = _append(k, bias_k, 0)
        v = _append(v, bias_v, 0)
        if attn_mask is not None:
            attn_mask = _append(attn_mask, attn_mask.new_zeros(()), 2)
        if key_padding_mask is not None:
            key_padding_mask = _append(key_padding_mask, key_padding_mask.new_zeros(()), 1)
    else:
        assert bias_k is None
        assert bias_v is None

    # heads: (L, N, E) -> (N * heads, L, head_dim)
    q = q.contiguous().view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.contiguous().view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_k.size(0) == bsz * num_heads, \
            "expecting static_k.size(0) of {}, but got {}".format(bsz * num_heads, static_k.size(0))
        assert static_k.size(2) == head_dim, \
            "expecting static_k.size(2) of {}, but got {}".format(head_dim, static_k.size(2))
        k = static_k
    if static_v is None:
        v = v.contiguous().view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_v.size(0) == bsz * num_heads, \
            "expecting static_v.size(0) of {}, but got {}".format(bsz * num_heads, static_v.size(0))
        assert static_v.size(2) == head_dim, \
            "expecting static_v.size(2) of {}, but got {}".format(head_dim, static_v.size(2))
        v = static_v

    if add_zero_attn:
        k = _append(k, k.new_zeros(()), 1)
        v = _append(v, v.new_zeros(()), 1)
        if attn_mask is not None:
            attn_mask = _append(attn_mask, attn_mask.new_zeros(()), 2)
        if key_padding_mask is not None:
            key_padding_mask = _append(key_padding_mask, key_padding_mask.new_zeros(()), 1)
    src_len = k.size(1)

    # one additive float mask of key padding and attention masks
    if key_padding_mask is not None:
        assert key_padding_mask.shape == (bsz, src_len), \
            "expecting key_padding_mask shape of {}, but got {}".format((bsz, src_len), key_padding_mask.shape)
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1) \
            .reshape(bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == torch.bool:
            attn_mask = (attn_mask.to(torch.uint8) + key_padding_mask.to(torch.uint8)) > 0
        else:
            attn_mask = attn_mask + _additive_mask(key_padding_mask, attn_mask.dtype)
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = _additive_mask(attn_mask, q.dtype)
    if not training:
        dropout_p = 0.0

    attn_output, attn_output_weights = _scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, need_weights,
                                                                      False)
    attn_output = attn_output.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    attn_output = _linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if need_weights:
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.sum(dim=1) / num_heads
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None
