/*
 * Meta functions of the padding modes that read the input at mapped positions: reflection and
 * replication (1-D and 2-D, PyTorch's ops) and circular padding (_pad_circular, any 1 to 3 padded
 * dims in PyTorch's F.pad; here the last 1 or 2), with their backward ops.
 *
 * Kernel contract (pad_nd, pad_nd_backward): the input side is [planes][IH][IW] contiguous, the
 * padded side [planes][OH][OW] (1-D: H = 1); ints [mode (0 reflect, 1 replicate, 2 circular),
 * pad_top, pad_left, padded dims (1 or 2)]: output (h, w) reads input (map(h - pad_top), map(w - pad_left)), negative pads
 * cropping. The backward adds each output gradient into the position it read.
 */
#include "core_internal.h"

#include <stdio.h>

enum { PAD_REFLECT, PAD_REPLICATE, PAD_CIRCULAR };

typedef struct pad_geom {
    int32_t nd; /* padded dims: 1 or 2 */
    int64_t lo[2], hi[2]; /* per padded dim (h, w), before and after */
    int64_t in[2], out[2];
} pad_geom;

/* padding = (left, right[, top, bottom]) for the last nd dims of t. */
static int geometry(const char *op, int mode, const tc_tensor *t, tc_int_list padding, int32_t nd, pad_geom *g) {
    char s[256];
    tc_shape_format(t->ndim, t->sizes, s, sizeof s);
    if (padding.len != 2 * nd)
        return tc_set_error(TC_ERR_RUNTIME, "padding size is expected to be %d, but got: %lld", 2 * nd,
                            (long long)padding.len);
    bool dims_ok = t->ndim == nd + 1 || t->ndim == nd + 2;
    for (int32_t d = t->ndim - nd - 1; dims_ok && d < t->ndim; d++) dims_ok = t->sizes[d] != 0;
    if (!dims_ok)
        return tc_set_error(TC_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other "
                                            "non-zero dimensions for input, but got: %s", nd + 1, nd + 2, s);
    g->nd = nd;
    for (int32_t i = 0; i < 2; i++) {
        int32_t k = i - (2 - nd); /* padded dim index (0 = last but one), < 0 for H of a 1-D padding */
        int32_t d = t->ndim - 2 + i;
        g->in[i] = k < 0 ? 1 : t->sizes[d];
        g->lo[i] = k < 0 ? 0 : padding.items[2 * (nd - 1 - k)];
        g->hi[i] = k < 0 ? 0 : padding.items[2 * (nd - 1 - k) + 1];
        if (k >= 0 && mode == PAD_REFLECT && (g->lo[i] >= g->in[i] || g->hi[i] >= g->in[i]))
            return tc_set_error(TC_ERR_RUNTIME, "Argument #%d: Padding size should be less than the corresponding input "
                                                "dimension, but got: padding (%lld, %lld) at dimension %d of input %d",
                                i == 1 ? 4 : 6, (long long)g->lo[i], (long long)g->hi[i], d, t->ndim);
        if (k >= 0 && mode == PAD_CIRCULAR && (g->lo[i] > g->in[i] || g->hi[i] > g->in[i]))
            return tc_set_error(TC_ERR_RUNTIME, "Padding value causes wrapping around more than once.");
        g->out[i] = g->in[i] + g->lo[i] + g->hi[i];
    }
    if (g->out[0] < 1 || g->out[1] < 1) {
        if (nd == 1)
            return tc_set_error(TC_ERR_RUNTIME, "input (W: %lld) is too small. Calculated output W: %lld",
                                (long long)g->in[1], (long long)g->out[1]);
        return tc_set_error(TC_ERR_RUNTIME, "input (H: %lld, W: %lld) is too small. Calculated output H: %lld W: %lld",
                            (long long)g->in[0], (long long)g->in[1], (long long)g->out[0], (long long)g->out[1]);
    }
    if (mode != PAD_CIRCULAR && t->dtype != TC_FLOAT32 && t->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", op, tc_dtype_scalar_name(t->dtype));
    return TC_OK;
}

static int plan_ints(tc_plan *p, int mode, const pad_geom *g) {
    return tc_plan_int(p, mode) || tc_plan_int(p, g->lo[0]) || tc_plan_int(p, g->lo[1]) || tc_plan_int(p, g->nd)
               ? TC_FAIL
               : TC_OK;
}

/* op(self, padding) */
static int pad(tc_opcall *c, tc_plan *p, const char *op, int mode, int32_t nd) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    pad_geom g;
    if (geometry(op, mode, in, tc_arg_ints(c, 1), nd, &g)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t d = 0; d < in->ndim; d++) sizes[d] = in->sizes[d];
    sizes[in->ndim - 1] = g.out[1];
    if (nd == 2) sizes[in->ndim - 2] = g.out[0];
    if (tc_plan_output(p, 0, in->ndim, sizes, in->dtype)) return TC_FAIL;
    p->dtype = in->dtype;
    return tc_plan_input_contiguous(p, in, -1) || plan_ints(p, mode, &g) ? TC_FAIL : TC_OK;
}

/* op_backward(grad_output, self, padding) */
static int pad_backward(tc_opcall *c, tc_plan *p, const char *op, int mode, int32_t nd) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1);
    pad_geom g;
    if (geometry(op, mode, in, tc_arg_ints(c, 2), nd, &g)) return TC_FAIL;
    bool ok = go->ndim == in->ndim && go->dtype == in->dtype;
    for (int32_t d = 0; ok && d < in->ndim; d++) {
        int32_t k = d - (in->ndim - 2);
        ok = go->sizes[d] == (k >= 2 - nd && k >= 0 ? g.out[k] : in->sizes[d]);
    }
    if (!ok) {
        char s[256];
        tc_shape_format(go->ndim, go->sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "%s: grad_output of size %s does not match the padded input", op, s);
    }
    if (tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype)) return TC_FAIL;
    p->dtype = in->dtype;
    return tc_plan_input_contiguous(p, go, -1) || plan_ints(p, mode, &g) ? TC_FAIL : TC_OK;
}

int tc_meta_reflection_pad1d(tc_opcall *c, tc_plan *p) { return pad(c, p, "reflection_pad1d", PAD_REFLECT, 1); }
int tc_meta_reflection_pad2d(tc_opcall *c, tc_plan *p) { return pad(c, p, "reflection_pad2d", PAD_REFLECT, 2); }
int tc_meta_replication_pad1d(tc_opcall *c, tc_plan *p) { return pad(c, p, "replication_pad1d", PAD_REPLICATE, 1); }
int tc_meta_replication_pad2d(tc_opcall *c, tc_plan *p) { return pad(c, p, "replication_pad2d_cpu", PAD_REPLICATE, 2); }
int tc_meta_reflection_pad1d_backward(tc_opcall *c, tc_plan *p) {
    return pad_backward(c, p, "reflection_pad1d_backward", PAD_REFLECT, 1);
}
int tc_meta_reflection_pad2d_backward(tc_opcall *c, tc_plan *p) {
    return pad_backward(c, p, "reflection_pad2d_backward", PAD_REFLECT, 2);
}
int tc_meta_replication_pad1d_backward(tc_opcall *c, tc_plan *p) {
    return pad_backward(c, p, "replication_pad1d_backward", PAD_REPLICATE, 1);
}
int tc_meta_replication_pad2d_backward(tc_opcall *c, tc_plan *p) {
    return pad_backward(c, p, "replication_pad2d_backward", PAD_REPLICATE, 2);
}

/* _pad_circular(self, pad): the last len(pad) / 2 dims (1 or 2 here). */
static int32_t circular_dims(tc_int_list pad) { return pad.len == 2 ? 1 : 2; }

int tc_meta_pad_circular(tc_opcall *c, tc_plan *p) {
    tc_int_list padding = tc_arg_ints(c, 1);
    if (padding.len != 2 && padding.len != 4)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "circular padding of %lld dimensions is not supported (1 or 2 are)",
                            (long long)padding.len / 2);
    return pad(c, p, "_pad_circular", PAD_CIRCULAR, circular_dims(padding));
}

int tc_meta_pad_circular_backward(tc_opcall *c, tc_plan *p) {
    tc_int_list padding = tc_arg_ints(c, 2);
    if (padding.len != 2 && padding.len != 4)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "circular padding of %lld dimensions is not supported (1 or 2 are)",
                            (long long)padding.len / 2);
    return pad_backward(c, p, "_pad_circular_backward", PAD_CIRCULAR, circular_dims(padding));
}
