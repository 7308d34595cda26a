/*
 * Meta functions of im2col (F.unfold: the sliding blocks of an image as columns) and col2im (F.fold:
 * the columns summed back into an image), with PyTorch's checks (Im2Col.cpp, Col2Im.cpp).
 *
 * Kernel contract (im2col, col2im): the image side is [N][C][H][W] contiguous (N = 1 unbatched), the
 * columns [N][C * kh * kw][L]; ints [kh, kw, dh, dw, ph, pw, sh, sw]; float16/bfloat16 operands
 * arrive as float32 and the kernel of the 16-bit dtype writes its own dtype.
 */
#include "core_internal.h"

typedef struct fold_params {
    int64_t k[2], d[2], p[2], s[2];
} fold_params;

static int params(const tc_opcall *c, int first, fold_params *f) {
    int64_t *dst[4] = {f->k, f->d, f->p, f->s};
    for (int a = 0; a < 4; a++) {
        tc_int_list v = tc_arg_ints(c, first + a);
        if (v.len != 2 && v.len != 1)
            return tc_set_error(TC_ERR_RUNTIME, "It is expected %s equals to 2, but got size %lld",
                                c->op->schema.args[first + a].name, (long long)v.len);
        for (int i = 0; i < 2; i++) dst[a][i] = v.items[v.len == 1 ? 0 : i];
    }
    if (f->k[0] <= 0 || f->k[1] <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "kernel size should be greater than zero, but got kernel_height: %lld "
                                            "kernel_width: %lld", (long long)f->k[0], (long long)f->k[1]);
    if (f->d[0] <= 0 || f->d[1] <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "dilation should be greater than zero, but got dilation_height: %lld "
                                            "dilation_width: %lld", (long long)f->d[0], (long long)f->d[1]);
    if (f->p[0] < 0 || f->p[1] < 0)
        return tc_set_error(TC_ERR_RUNTIME, "padding should be non-negative, but got pad_height: %lld pad_width: %lld",
                            (long long)f->p[0], (long long)f->p[1]);
    if (f->s[0] <= 0 || f->s[1] <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "stride should be greater than zero, but got stride_height: %lld "
                                            "stride_width: %lld", (long long)f->s[0], (long long)f->s[1]);
    return TC_OK;
}

/* The number of blocks along each spatial dim of an image of sizes hw. */
static void blocks(const fold_params *f, const int64_t *hw, int64_t *out) {
    for (int i = 0; i < 2; i++) {
        int64_t span = hw[i] + 2 * f->p[i] - (f->d[i] * (f->k[i] - 1) + 1);
        out[i] = span < 0 ? 0 : span / f->s[i] + 1;
    }
}

static int plan_common(tc_plan *p, tc_tensor *in, const fold_params *f) {
    int32_t dtype = in->dtype == TC_FLOAT16 || in->dtype == TC_BFLOAT16 ? TC_FLOAT32 : in->dtype;
    if (!tc_dtype_is_floating(in->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"%s_out_cpu\" not implemented for '%s'", p->call->op->schema.name,
                            tc_dtype_scalar_name(in->dtype));
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, in, dtype)) return TC_FAIL;
    const int64_t *groups[4] = {f->k, f->d, f->p, f->s};
    for (int a = 0; a < 4; a++)
        if (tc_plan_int(p, groups[a][0]) || tc_plan_int(p, groups[a][1])) return TC_FAIL;
    return TC_OK;
}

/* im2col(self, kernel_size, dilation, padding, stride) */
int tc_meta_im2col(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    fold_params f;
    int32_t d;
    if (params(c, 1, &f) || tc_shape_wrap_dim(2, in->ndim, &d)) return TC_FAIL;
    char s[256];
    tc_shape_format(in->ndim, in->sizes, s, sizeof s);
    bool valid = (in->ndim == 3 || in->ndim == 4) && in->sizes[in->ndim - 3] != 0 && in->sizes[in->ndim - 2] != 0 &&
                 in->sizes[in->ndim - 1] != 0;
    if (!valid)
        return tc_set_error(TC_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for "
                                            "input, but got: %s", s);
    int64_t hw[2] = {in->sizes[in->ndim - 2], in->sizes[in->ndim - 1]}, n[2];
    blocks(&f, hw, n);
    if (n[0] < 1 || n[1] < 1)
        return tc_set_error(TC_ERR_RUNTIME, "Given input with spatial size (%lld, %lld), kernel_size=(%lld, %lld), "
                                            "dilation=(%lld, %lld), padding=(%lld, %lld), calculated shape of the array "
                                            "of sliding blocks as (%lld, %lld), but its components must be at least "
                                            "one.", (long long)hw[0], (long long)hw[1], (long long)f.k[0],
                            (long long)f.k[1], (long long)f.d[0], (long long)f.d[1], (long long)f.p[0],
                            (long long)f.p[1], (long long)n[0], (long long)n[1]);
    int64_t sizes[3], channels = in->sizes[in->ndim - 3];
    int32_t nd = 0;
    if (in->ndim == 4) sizes[nd++] = in->sizes[0];
    sizes[nd++] = channels * f.k[0] * f.k[1];
    sizes[nd++] = n[0] * n[1];
    if (tc_plan_output(p, 0, nd, sizes, in->dtype)) return TC_FAIL;
    return plan_common(p, in, &f);
}

/* col2im(self, output_size, kernel_size, dilation, padding, stride) */
int tc_meta_col2im(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    tc_int_list out = tc_arg_ints(c, 1);
    fold_params f;
    if (out.len != 2 && out.len != 1)
        return tc_set_error(TC_ERR_RUNTIME, "It is expected output_size equals to 2, but got size %lld",
                            (long long)out.len);
    if (params(c, 2, &f)) return TC_FAIL;
    int64_t hw[2] = {out.items[0], out.items[out.len == 1 ? 0 : 1]}, n[2];
    char s[256];
    tc_shape_format(in->ndim, in->sizes, s, sizeof s);
    bool valid = (in->ndim == 2 || in->ndim == 3) && in->sizes[in->ndim - 2] != 0 && in->sizes[in->ndim - 1] != 0;
    if (!valid)
        return tc_set_error(TC_ERR_RUNTIME, "Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                                            "input, but got: %s", s);
    int64_t rows = in->sizes[in->ndim - 2], kk = f.k[0] * f.k[1];
    if (rows % kk)
        return tc_set_error(TC_ERR_RUNTIME, "Expected size of input's dimension 1 to be divisible by the product of "
                                            "kernel_size, but got input.size(1)=%lld and kernel_size=(%lld, %lld).",
                            (long long)rows, (long long)f.k[0], (long long)f.k[1]);
    blocks(&f, hw, n);
    if (n[0] < 1 || n[1] < 1 || n[0] * n[1] != in->sizes[in->ndim - 1])
        return tc_set_error(TC_ERR_RUNTIME, "Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, "
                                            "%lld), padding=(%lld, %lld), stride=(%lld, %lld), expected size of "
                                            "input's dimension 2 to match the calculated number of sliding blocks %lld "
                                            "* %lld = %lld, but got input.size(2)=%lld.", (long long)hw[0],
                            (long long)hw[1], (long long)f.k[0], (long long)f.k[1], (long long)f.d[0],
                            (long long)f.d[1], (long long)f.p[0], (long long)f.p[1], (long long)f.s[0],
                            (long long)f.s[1], (long long)n[0], (long long)n[1], (long long)(n[0] * n[1]),
                            (long long)in->sizes[in->ndim - 1]);
    int64_t sizes[4];
    int32_t nd = 0;
    if (in->ndim == 3) sizes[nd++] = in->sizes[0];
    sizes[nd++] = rows / kk;
    sizes[nd++] = hw[0];
    sizes[nd++] = hw[1];
    if (tc_plan_output(p, 0, nd, sizes, in->dtype)) return TC_FAIL;
    return plan_common(p, in, &f);
}
