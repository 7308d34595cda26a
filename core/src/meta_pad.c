/*
 * Meta functions of the padding modes that read the input at mapped positions: reflection and
 * replication (1-D, 2-D and 3-D, PyTorch's ops) and circular padding (_pad_circular), with their
 * backward ops.
 *
 * Kernel contract (pad_nd, pad_nd_backward): the input side is [planes][ID][IH][IW] contiguous and
 * the padded side [planes][OD][OH][OW] (fewer padded dims: leading sizes of 1); ints [mode (0
 * reflect, 1 replicate, 2 circular), padded dims (1..3), then (before, after) for D, H, W]. Output
 * position o of an axis reads the input at reflect/clamp(o - before); circular padding first crops
 * the negative pads and then wraps around within what is left, as PyTorch's _pad_circular does. The
 * backward adds each output gradient into the position it read.
 */
#include "core_internal.h"

#include <stdio.h>

enum { PAD_REFLECT, PAD_REPLICATE, PAD_CIRCULAR };

typedef struct pad_geom {
    int32_t nd;           /* padded dims: 1 to 3 */
    int64_t lo[3], hi[3]; /* per axis (d, h, w), before and after; 0 for unpadded axes */
    int64_t in[3], out[3];
} pad_geom;

static void format_sizes(const int64_t *v, int32_t first, char *buf, size_t len, const char *const *names) {
    size_t at = 0;
    for (int32_t i = first; i < 3 && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s: %lld", i > first ? ", " : "", names[i], (long long)v[i]);
}

/* padding = (left, right[, top, bottom[, front, back]]) for the last nd dims of t. */
static int geometry(const char *op, int mode, const tc_tensor *t, tc_int_list padding, int32_t nd, pad_geom *g) {
    char s[256];
    tc_shape_format(t->ndim, t->sizes, s, sizeof s);
    if (padding.len != 2 * nd)
        return tc_set_error(TC_ERR_RUNTIME, "padding size is expected to be %d, but got: %lld", 2 * nd,
                            (long long)padding.len);
    bool dims_ok = mode == PAD_CIRCULAR ? t->ndim == nd + 2 : t->ndim == nd + 1 || t->ndim == nd + 2;
    if (mode == PAD_CIRCULAR && !dims_ok)
        return tc_set_error(TC_ERR_RUNTIME, "Invalid padding size, expected %d but got %lld", 2 * (t->ndim - 2),
                            (long long)padding.len);
    for (int32_t d = t->ndim - nd - 1; dims_ok && mode != PAD_CIRCULAR && d < t->ndim; d++) dims_ok = t->sizes[d] != 0;
    if (!dims_ok)
        return tc_set_error(TC_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other "
                                            "non-zero dimensions for input, but got: %s", nd + 1, nd + 2, s);
    g->nd = nd;
    for (int32_t a = 0; a < 3; a++) {
        int32_t k = a - (3 - nd); /* padded axis index, < 0 for an axis this padding leaves alone */
        int32_t d = t->ndim - 3 + a;
        g->in[a] = k < 0 ? 1 : t->sizes[d];
        g->lo[a] = k < 0 ? 0 : padding.items[2 * (nd - 1 - k)];
        g->hi[a] = k < 0 ? 0 : padding.items[2 * (nd - 1 - k) + 1];
        if (k >= 0 && mode == PAD_REFLECT && (g->lo[a] >= g->in[a] || g->hi[a] >= g->in[a]))
            return tc_set_error(TC_ERR_RUNTIME, "Argument #%d: Padding size should be less than the corresponding input "
                                                "dimension, but got: padding (%lld, %lld) at dimension %d of input %d",
                                4 + 2 * (2 - a), (long long)g->lo[a], (long long)g->hi[a], d, t->ndim);
        if (k >= 0 && mode == PAD_CIRCULAR && (g->lo[a] > g->in[a] || g->hi[a] > g->in[a]))
            return tc_set_error(TC_ERR_RUNTIME, "Padding value causes wrapping around more than once.");
        g->out[a] = g->in[a] + g->lo[a] + g->hi[a];
        if (k >= 0 && mode == PAD_CIRCULAR && g->out[a] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Negative padding value is resulting in an empty dimension");
    }
    if (mode != PAD_CIRCULAR && (g->out[0] < 1 || g->out[1] < 1 || g->out[2] < 1)) {
        static const char *const names[3] = {"D", "H", "W"};
        char in[128], out[128];
        format_sizes(g->in, 3 - nd, in, sizeof in, names);
        format_sizes(g->out, 3 - nd, out, sizeof out, names);
        return tc_set_error(TC_ERR_RUNTIME, "input (%s) is too small. Calculated output %s", in, out);
    }
    if (mode != PAD_CIRCULAR && t->dtype != TC_FLOAT32 && t->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", op, tc_dtype_scalar_name(t->dtype));
    return TC_OK;
}

static int plan_ints(tc_plan *p, int mode, const pad_geom *g) {
    if (tc_plan_int(p, mode) || tc_plan_int(p, g->nd)) return TC_FAIL;
    for (int a = 0; a < 3; a++)
        if (tc_plan_int(p, g->lo[a]) || tc_plan_int(p, g->hi[a])) return TC_FAIL;
    return TC_OK;
}

/* op(self, padding) */
static int pad(tc_opcall *c, tc_plan *p, const char *op, int mode, int32_t nd) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    pad_geom g;
    if (geometry(op, mode, in, tc_arg_ints(c, 1), nd, &g)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t d = 0; d < in->ndim; d++) sizes[d] = in->sizes[d];
    for (int32_t a = 3 - nd; a < 3; a++) sizes[in->ndim - 3 + a] = g.out[a];
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
        int32_t a = d - (in->ndim - 3);
        ok = go->sizes[d] == (a >= 3 - nd ? g.out[a] : in->sizes[d]);
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

#define PAD_METAS(kind, MODE, nd, name)                                                            \
    int tc_meta_##kind##_pad##nd##d(tc_opcall *c, tc_plan *p) { return pad(c, p, name, MODE, nd); } \
    int tc_meta_##kind##_pad##nd##d_backward(tc_opcall *c, tc_plan *p) {                           \
        return pad_backward(c, p, #kind "_pad" #nd "d_backward", MODE, nd);                        \
    }
PAD_METAS(reflection, PAD_REFLECT, 1, "reflection_pad1d")
PAD_METAS(reflection, PAD_REFLECT, 2, "reflection_pad2d")
PAD_METAS(reflection, PAD_REFLECT, 3, "reflection_pad3d")
PAD_METAS(replication, PAD_REPLICATE, 1, "replication_pad1d")
PAD_METAS(replication, PAD_REPLICATE, 2, "replication_pad2d_cpu")
PAD_METAS(replication, PAD_REPLICATE, 3, "replication_pad3d_cpu")

/* _pad_circular(self, pad): the last len(pad) / 2 dims, which must be all but two. */
static int32_t circular_dims(const tc_tensor *t, tc_int_list pad) {
    if (pad.len % 2 || pad.len > 6 || pad.len + 4 != 2 * (int64_t)t->ndim)
        return -1;
    return (int32_t)(pad.len / 2);
}

int tc_meta_pad_circular(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    tc_int_list padding = tc_arg_ints(c, 1);
    int32_t nd = circular_dims(in, padding);
    if (nd < 1)
        return tc_set_error(TC_ERR_RUNTIME, "Invalid padding size, expected %d but got %lld", 2 * (in->ndim - 2),
                            (long long)padding.len);
    return pad(c, p, "_pad_circular", PAD_CIRCULAR, nd);
}

int tc_meta_pad_circular_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 1);
    tc_int_list padding = tc_arg_ints(c, 2);
    int32_t nd = circular_dims(in, padding);
    if (nd < 1)
        return tc_set_error(TC_ERR_RUNTIME, "Invalid padding size, expected %d but got %lld", 2 * (in->ndim - 2),
                            (long long)padding.len);
    return pad_backward(c, p, "_pad_circular_backward", PAD_CIRCULAR, nd);
}
