/*
 * Pooling composed of the 2-D pooling ops: max_pool2d (the values of max_pool2d_with_indices), the
 * 1-D forms (a 2-D pooling of the input with a height of 1, as PyTorch computes them), and
 * adaptive_avg_pool2d (a mean for a 1x1 output).
 */
#include "core_internal.h"

#include "torch_core/tc_autograd.h"

/* max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode) */
int tc_impl_max_pool2d(tc_opcall *c) {
    tc_tensor *values = NULL, *indices = NULL;
    if (tc_max_pool2d_with_indices(tc_arg_tensor(c, 0), tc_arg_ints(c, 1), tc_arg_ints(c, 2), tc_arg_ints(c, 3),
                                   tc_arg_ints(c, 4), tc_arg_bool(c, 5), &values, &indices))
        return TC_FAIL;
    tc_tensor_release(indices);
    return tc_return(c, values);
}

/* PyTorch's check1d: a 1-D pooling's list argument holds one int. */
static int one_int(const char *op, const char *name, tc_int_list v) {
    if (v.len == 1) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s() argument '%s' should contain one int (got %lld)", op, name,
                        (long long)v.len);
}

/* checkDimRange(op, self, 2, 4): a 1-D pooling takes [C, L] or [N, C, L]. */
static int two_or_three_dims(const char *op, const tc_tensor *t) {
    if (t->ndim == 2 || t->ndim == 3) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 "
                                        "'self' (while checking arguments for %s)", t->ndim, op);
}

/* [1, v] */
static tc_int_list with_one(int64_t *buf, int64_t v, int64_t one) {
    buf[0] = one;
    buf[1] = v;
    return (tc_int_list){buf, 2};
}

/* Squeezes dim -2 of each result back out (the height of 1 the 1-D forms pool over). */
static int squeeze_results(tc_opcall *c, tc_tensor **r, int n) {
    int rc = TC_OK;
    for (int i = 0; i < n; i++) {
        tc_tensor *s = rc == TC_OK ? tc_squeeze_dim(r[i], -2) : NULL;
        tc_tensor_release(r[i]);
        r[i] = s;
        if (!s) rc = TC_FAIL;
    }
    if (rc) {
        for (int i = 0; i < n; i++) tc_tensor_release(r[i]);
        return TC_FAIL;
    }
    for (int i = 0; i < n; i++) c->outs[i] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = r[i]};
    return TC_OK;
}

/* check_max_pool1d: PyTorch's messages for 1-D max pooling's arguments. */
static int check_max_pool1d(const tc_tensor *self, tc_int_list k, tc_int_list s, tc_int_list p, tc_int_list d,
                            bool ceil, int64_t *out_len) {
    if (self->ndim != 2 && self->ndim != 3)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() Expected 2D or 3D input tensor, but got %d", self->ndim);
    if (k.len != 1)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of "
                                            "size 1 but got size %lld", (long long)k.len);
    if (s.len != 0 && s.len != 1)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() stride must be None, an int, list of ints, or tuple of ints "
                                            "of size 1 but got size %lld", (long long)s.len);
    if (p.len != 1)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() padding must be an int, list of ints, or tuple of ints of "
                                            "size 1 but got size %lld", (long long)p.len);
    if (d.len != 1)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() dilation must be an int, list of ints or tuple of ints of "
                                            "size 1 but got size %lld", (long long)d.len);
    int64_t kk = k.items[0], ss = s.len ? s.items[0] : kk, pp = p.items[0], dd = d.items[0];
    if (kk <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() kernel_size must be greater than zero, but got %lld",
                            (long long)kk);
    if (ss <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() stride must be greater than zero, but got %lld", (long long)ss);
    if (pp < 0)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() padding must be non-negative, but got %lld", (long long)pp);
    if (pp > kk / 2)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() padding should be at most half of kernel size, but got "
                                            "padding=%lld and kernel_size=%lld", (long long)pp, (long long)kk);
    if (dd <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() dilation must be greater than zero, but got %lld",
                            (long long)dd);
    int64_t len = self->sizes[self->ndim - 1];
    int64_t num = len + 2 * pp - dd * (kk - 1) - 1 + (ceil ? ss - 1 : 0);
    int64_t q = num >= 0 ? num / ss : -((-num + ss - 1) / ss);
    int64_t out = q + 1;
    if (ceil && (out - 1) * ss >= len + pp) out--;
    if (out < 0)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() Invalid computed output size: %lld", (long long)out);
    *out_len = out;
    return TC_OK;
}

/* max_pool1d / max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode) */
static int max_pool1d(tc_opcall *c, bool with_indices) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list k = tc_arg_ints(c, 1), s = tc_arg_ints(c, 2), p = tc_arg_ints(c, 3), d = tc_arg_ints(c, 4);
    bool ceil = tc_arg_bool(c, 5);
    int64_t out_len = 0;
    if (!with_indices) {
        int32_t nd = self->ndim;
        if (!((nd == 2 && self->sizes[0] != 0 && self->sizes[1] != 0) ||
              (nd == 3 && self->sizes[1] != 0 && self->sizes[2] != 0))) {
            char got[256];
            tc_shape_format(nd, self->sizes, got, sizeof got);
            return tc_set_error(TC_ERR_RUNTIME, "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim "
                                                "batch size for input, but got:%s", got);
        }
        if (check_max_pool1d(self, k, s, p, d, ceil, &out_len)) return TC_FAIL;
        /* without gradients PyTorch's own 1-D kernel runs, which gives an empty result rather than the
         * 2-D pooling's "output size is too small" */
        if (out_len == 0 && !(tc_requires_grad(self) && tc_grad_enabled())) {
            int64_t sizes[3];
            for (int32_t i = 0; i < nd; i++) sizes[i] = i == nd - 1 ? 0 : self->sizes[i];
            return tc_return(c, tc_new_empty(self, (tc_int_list){sizes, nd}, -1, -1, NULL, NULL));
        }
    }
    int64_t kb[2], sb[2], pb[2], db[2];
    if (k.len < 1 || p.len < 1 || d.len < 1)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool1d() expects kernel_size, padding and dilation of one value");
    tc_tensor *u = tc_unsqueeze(self, -2);
    if (!u) return TC_FAIL;
    tc_tensor *r[2] = {NULL, NULL};
    int rc = tc_max_pool2d_with_indices(u, with_one(kb, k.items[0], 1), with_one(sb, s.len ? s.items[0] : k.items[0], 1),
                                        with_one(pb, p.items[0], 0), with_one(db, d.items[0], 1), ceil, &r[0], &r[1]);
    tc_tensor_release(u);
    if (rc) return TC_FAIL;
    if (!with_indices) {
        tc_tensor_release(r[1]);
        return squeeze_results(c, r, 1);
    }
    return squeeze_results(c, r, 2);
}

int tc_impl_max_pool1d(tc_opcall *c) { return max_pool1d(c, false); }
int tc_impl_max_pool1d_with_indices(tc_opcall *c) { return max_pool1d(c, true); }

/* avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad) */
int tc_impl_avg_pool1d(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list k = tc_arg_ints(c, 1), s = tc_arg_ints(c, 2), p = tc_arg_ints(c, 3);
    if (s.len == 0) s = k;
    if (two_or_three_dims("avg_pool1d", self) || one_int("avg_pool1d", "kernel_size", k) ||
        one_int("avg_pool1d", "stride", s) || one_int("avg_pool1d", "padding", p))
        return TC_FAIL;
    int64_t kb[2], sb[2], pb[2];
    tc_tensor *u = tc_unsqueeze(self, -2);
    if (!u) return TC_FAIL;
    tc_tensor *r[1] = {tc_avg_pool2d(u, with_one(kb, k.items[0], 1), with_one(sb, s.items[0], 1),
                                     with_one(pb, p.items[0], 0), tc_arg_bool(c, 4), tc_arg_bool(c, 5), NULL)};
    tc_tensor_release(u);
    return r[0] ? squeeze_results(c, r, 1) : TC_FAIL;
}

/* adaptive_avg_pool2d(self, output_size): a mean over the plane for a 1x1 output. */
int tc_impl_adaptive_avg_pool2d(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list size = tc_arg_ints(c, 1);
    if (size.len != 2) return tc_set_error(TC_ERR_RUNTIME, "adaptive_avg_pool2d: output_size must be 2");
    if (size.items[0] < 0 || size.items[1] < 0)
        return tc_set_error(TC_ERR_RUNTIME, "adaptive_avg_pool2d: elements of output_size must be greater than or equal "
                                            "to 0 but received {%lld, %lld}", (long long)size.items[0],
                            (long long)size.items[1]);
    if (size.items[0] == 1 && size.items[1] == 1)
        return tc_return(c, tc_mean_dim(self, &TC_INTS(-1, -2), true, -1));
    return tc_return(c, tc__adaptive_avg_pool2d(self, size));
}

/* adaptive_avg_pool1d / adaptive_max_pool1d(self, output_size) */
static int adaptive_1d(tc_opcall *c, bool max) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list size = tc_arg_ints(c, 1);
    const char *op = max ? "adaptive_max_pool1d" : "adaptive_avg_pool1d";
    if (two_or_three_dims(op, self) || one_int(op, "output_size", size)) return TC_FAIL;
    int64_t ob[2];
    tc_tensor *u = tc_unsqueeze(self, -2);
    if (!u) return TC_FAIL;
    tc_tensor *r[2] = {NULL, NULL};
    int rc = TC_OK;
    if (max)
        rc = tc_adaptive_max_pool2d(u, with_one(ob, size.items[0], 1), &r[0], &r[1]);
    else
        rc = (r[0] = tc_adaptive_avg_pool2d(u, with_one(ob, size.items[0], 1))) ? TC_OK : TC_FAIL;
    tc_tensor_release(u);
    return rc ? TC_FAIL : squeeze_results(c, r, max ? 2 : 1);
}

int tc_impl_adaptive_avg_pool1d(tc_opcall *c) { return adaptive_1d(c, false); }
int tc_impl_adaptive_max_pool1d(tc_opcall *c) { return adaptive_1d(c, true); }
