/* torch.fft's public functions: PyTorch's argument handling (n/s trimming or zero padding, dim, norm,
 * promotion of real and integer inputs) over the three transforms _fft_c2c/_fft_r2c/_fft_c2r
 * (meta_fft.c), and the backward formulas of the real transforms, as in PyTorch's SpectralOps.cpp. */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

enum { NORM_NONE = 0, NORM_BY_ROOT_N = 1, NORM_BY_N = 2 };

/* PyTorch's norm_from_string: which side of a forward/backward pair scales. -1 after an error. */
static int norm_mode(const char *norm, bool forward) {
    if (!norm || strcmp(norm, "backward") == 0) return forward ? NORM_NONE : NORM_BY_N;
    if (strcmp(norm, "forward") == 0) return forward ? NORM_BY_N : NORM_NONE;
    if (strcmp(norm, "ortho") == 0) return NORM_BY_ROOT_N;
    tc_set_error(TC_ERR_RUNTIME, "Invalid normalization mode: \"%s\"", norm);
    return -1;
}

/* promote_tensor_fft: integers and bool to the default float dtype; complex kept; float16 refused
 * on the CPU; to complex when require_complex. A new reference. */
static tc_tensor *promote(tc_tensor *t, bool require_complex) {
    int32_t dt = t->dtype;
    if (!tc_dtype_is_complex(dt)) {
        if (!tc_dtype_is_floating(dt)) dt = tc_default_dtype();
        if (dt != TC_FLOAT32 && dt != TC_FLOAT64) {
            tc_set_error(TC_ERR_RUNTIME, "Unsupported dtype %s", tc_dtype_scalar_name(dt));
            return NULL;
        }
        if (require_complex) dt = tc_dtype_to_complex(dt);
    }
    if (dt == t->dtype) {
        tc_tensor_retain(t);
        return t;
    }
    return tc_to_dtype(t, dt, false, false, -1);
}

/* resize_fft_input: each dims[i] trimmed or zero-padded at its end to sizes[i]. A new reference. */
static tc_tensor *resize_input(tc_tensor *x, int32_t n, const int64_t *dims, const int64_t *sizes) {
    tc_tensor_retain(x);
    int64_t *pad = calloc((size_t)x->ndim * 2 + 1, sizeof(int64_t));
    if (!pad) {
        tc_tensor_release(x);
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    bool must_pad = false;
    for (int32_t i = 0; i < n && x; i++) {
        const int64_t have = x->sizes[dims[i]];
        if (have < sizes[i]) {
            must_pad = true;
            pad[2 * (x->ndim - 1 - dims[i]) + 1] = sizes[i] - have;
        } else if (have > sizes[i]) {
            const int64_t start = 0, end = sizes[i];
            tc_tensor *s = tc_slice_Tensor(x, dims[i], &start, &end, 1);
            tc_tensor_release(x);
            x = s;
        }
    }
    if (x && must_pad) {
        tc_tensor *p = tc_constant_pad_nd(x, (tc_int_list){pad, 2 * x->ndim}, TC_SCALAR_OF_INT(0));
        tc_tensor_release(x);
        x = p;
    }
    free(pad);
    return x;
}

static int check_n(int64_t n) {
    return n >= 1 ? TC_OK : tc_set_error(TC_ERR_RUNTIME, "Invalid number of data points (%lld) specified", (long long)n);
}

enum { ONE_C2C, ONE_R2C, ONE_C2R };

/* The one-dimensional functions: fft/ifft (c2c, or r2c two-sided for real input), rfft/ihfft (r2c),
 * irfft/hfft (c2r). PyTorch's fft_c2c/fft_r2c/fft_c2r. */
static int one_dim(tc_opcall *c, const char *name, int kind, bool forward, bool onesided) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    const bool has_n = !tc_arg_none(c, 1);
    const char *norm = tc_arg_none(c, 3) ? NULL : c->args[3].v.s;
    if (kind == ONE_C2C && !tc_dtype_is_complex(self->dtype)) kind = ONE_R2C, onesided = false;
    if (kind == ONE_R2C && tc_dtype_is_complex(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "%s expects a real input tensor, but got %s", name,
                            tc_dtype_scalar_name(self->dtype));
    int32_t d;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &d)) return TC_FAIL;
    tc_tensor *x = promote(self, kind != ONE_R2C);
    if (!x) return TC_FAIL;
    const int64_t dim = d;
    const int64_t n = has_n ? tc_arg_int(c, 1) : kind == ONE_C2R ? 2 * (x->sizes[d] - 1) : x->sizes[d];
    const int mode = norm_mode(norm, forward);
    tc_tensor *r = NULL;
    if (check_n(n) == TC_OK && mode >= 0) {
        const int64_t want = kind == ONE_C2R ? n / 2 + 1 : n;
        tc_tensor *y = has_n ? resize_input(x, 1, &dim, &want) : (tc_tensor_retain(x), x);
        if (y && kind == ONE_C2R && forward) { /* hfft: the conjugate's inverse */
            tc_tensor *cj = tc_conj(y);
            tc_tensor_release(y);
            y = cj;
        }
        const tc_int_list dims = {&dim, 1};
        if (y) {
            r = kind == ONE_C2C   ? tc__fft_c2c(y, dims, mode, forward)
                : kind == ONE_R2C ? tc__fft_r2c(y, dims, mode, onesided)
                                  : tc__fft_c2r(y, dims, mode, n);
            if (r && kind == ONE_R2C && !forward) { /* ihfft: _fft_r2c is forward only */
                tc_tensor *cj = tc_conj(r);
                tc_tensor_release(r);
                r = cj;
            }
        }
        tc_tensor_release(y);
    }
    tc_tensor_release(x);
    return tc_return(c, r);
}

int tc_impl_fft_fft(tc_opcall *c) { return one_dim(c, "fft", ONE_C2C, true, false); }
int tc_impl_fft_ifft(tc_opcall *c) { return one_dim(c, "ifft", ONE_C2C, false, false); }
int tc_impl_fft_rfft(tc_opcall *c) { return one_dim(c, "rfft", ONE_R2C, true, true); }
int tc_impl_fft_ihfft(tc_opcall *c) { return one_dim(c, "ihfft", ONE_R2C, false, true); }
int tc_impl_fft_irfft(tc_opcall *c) { return one_dim(c, "irfft", ONE_C2R, false, false); }
int tc_impl_fft_hfft(tc_opcall *c) { return one_dim(c, "hfft", ONE_C2R, true, false); }

/* canonicalize_fft_shape_and_dim_args: the transformed dims (wrapped, unique) and their sizes (-1 in s:
 * the input's). dims and shape hold ndim entries; *n receives how many are used. */
static int shape_and_dims(tc_opcall *c, tc_tensor *x, int64_t *dims, int64_t *shape, int32_t *n) {
    const bool has_s = !tc_arg_none(c, 1), has_dim = !tc_arg_none(c, 2);
    const tc_int_list s = has_s ? tc_arg_ints(c, 1) : (tc_int_list){NULL, 0};
    const tc_int_list dl = has_dim ? tc_arg_ints(c, 2) : (tc_int_list){NULL, 0};
    if (has_dim) {
        if (dl.len > x->ndim) return tc_set_error(TC_ERR_RUNTIME, "FFT dims must be unique");
        for (int64_t i = 0; i < dl.len; i++) {
            int32_t d;
            if (tc_shape_wrap_dim(dl.items[i], x->ndim, &d)) return TC_FAIL;
            dims[i] = d;
            for (int64_t j = 0; j < i; j++)
                if (dims[j] == d) return tc_set_error(TC_ERR_RUNTIME, "FFT dims must be unique");
        }
    }
    if (has_s) {
        if (has_dim && dl.len != s.len)
            return tc_set_error(TC_ERR_RUNTIME, "When given, dim and shape arguments must have the same length");
        if (s.len > x->ndim)
            return tc_set_error(TC_ERR_RUNTIME, "Got shape with %lld values but input tensor only has %d dimensions.",
                                (long long)s.len, (int)x->ndim);
        *n = (int32_t)s.len;
        for (int32_t i = 0; i < *n; i++) {
            if (!has_dim) dims[i] = x->ndim - *n + i;
            shape[i] = s.items[i] == -1 ? x->sizes[dims[i]] : s.items[i];
        }
    } else {
        *n = has_dim ? (int32_t)dl.len : x->ndim;
        for (int32_t i = 0; i < *n; i++) {
            if (!has_dim) dims[i] = i;
            shape[i] = x->sizes[dims[i]];
        }
    }
    for (int32_t i = 0; i < *n; i++)
        if (check_n(shape[i])) return TC_FAIL;
    return TC_OK;
}

enum { N_C2C, N_R2C, N_C2R, N_HFFT, N_IHFFT };

/* fftn/ifftn/rfftn/irfftn/hfftn/ihfftn and their 2-D forms (the same with dim=[-2,-1] by default). */
static int n_dim(tc_opcall *c, const char *name, int kind, bool forward) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    const char *norm = tc_arg_none(c, 3) ? NULL : c->args[3].v.s;
    if ((kind == N_R2C || kind == N_IHFFT) && tc_dtype_is_complex(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "%s expects a real-valued input tensor, but got %s", name,
                            tc_dtype_scalar_name(self->dtype));
    const size_t cap = (size_t)self->ndim + 1;
    int64_t *dims = calloc(cap, sizeof(int64_t)), *shape = calloc(cap, sizeof(int64_t));
    tc_tensor *x = NULL, *y = NULL, *r = NULL;
    int32_t n = 0;
    int mode = -1;
    if (!dims || !shape) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    if (shape_and_dims(c, self, dims, shape, &n)) goto done;
    int64_t last_size = 0;
    if (kind == N_C2R || kind == N_HFFT) { /* canonicalize_fft_c2r_shape_and_dim_args */
        if (n == 0) {
            tc_set_error(TC_ERR_RUNTIME, "%s must transform at least one axis", name);
            goto done;
        }
        const bool given = !tc_arg_none(c, 1) && tc_arg_ints(c, 1).items[n - 1] != -1;
        last_size = given ? shape[n - 1] : 2 * (self->sizes[dims[n - 1]] - 1);
        if (check_n(last_size)) goto done;
        shape[n - 1] = last_size / 2 + 1;
    } else if (kind != N_C2C && n == 0) {
        tc_set_error(TC_ERR_RUNTIME, "%s must transform at least one axis", name);
        goto done;
    }
    if ((mode = norm_mode(norm, forward)) < 0) goto done;
    if (!(x = promote(self, kind == N_C2C || kind == N_C2R || kind == N_HFFT))) goto done;
    if (!(y = resize_input(x, n, dims, shape))) goto done;
    const tc_int_list all = {dims, n}, head = {dims, n - 1}, last = {dims + n - 1, 1};
    switch (kind) {
    case N_C2C: r = tc__fft_c2c(y, all, mode, forward); break;
    case N_R2C: r = tc__fft_r2c(y, all, mode, true); break;
    case N_C2R: r = tc__fft_c2r(y, all, mode, last_size); break;
    case N_HFFT: { /* c2c forward over all but the last dim, then the conjugate's c2r */
        tc_tensor *t = n > 1 ? tc__fft_c2c(y, head, mode, true) : (tc_tensor_retain(y), y);
        tc_tensor *cj = t ? tc_conj(t) : NULL;
        r = cj ? tc__fft_c2r(cj, last, mode, last_size) : NULL;
        tc_tensor_release(t);
        tc_tensor_release(cj);
        break;
    }
    default: { /* ihfftn: r2c over the last dim, conjugated, then c2c backward over the rest */
        tc_tensor *t = tc__fft_r2c(y, last, mode, true);
        tc_tensor *cj = t ? (n > 1 ? tc_conj_physical(t) : tc_conj(t)) : NULL;
        r = n > 1 && cj ? tc__fft_c2c(cj, head, mode, false) : (cj ? (tc_tensor_retain(cj), cj) : NULL);
        tc_tensor_release(t);
        tc_tensor_release(cj);
    }
    }
done:
    free(dims);
    free(shape);
    tc_tensor_release(x);
    tc_tensor_release(y);
    return tc_return(c, r);
}

int tc_impl_fft_fftn(tc_opcall *c) { return n_dim(c, "fftn", N_C2C, true); }
int tc_impl_fft_ifftn(tc_opcall *c) { return n_dim(c, "ifftn", N_C2C, false); }
int tc_impl_fft_rfftn(tc_opcall *c) { return n_dim(c, "rfftn", N_R2C, true); }
int tc_impl_fft_irfftn(tc_opcall *c) { return n_dim(c, "irfftn", N_C2R, false); }
int tc_impl_fft_hfftn(tc_opcall *c) { return n_dim(c, "hfftn", N_HFFT, true); }
int tc_impl_fft_ihfftn(tc_opcall *c) { return n_dim(c, "ihfftn", N_IHFFT, false); }
int tc_impl_fft_fft2(tc_opcall *c) { return n_dim(c, "fftn", N_C2C, true); }
int tc_impl_fft_ifft2(tc_opcall *c) { return n_dim(c, "ifftn", N_C2C, false); }
int tc_impl_fft_rfft2(tc_opcall *c) { return n_dim(c, "rfftn", N_R2C, true); }
int tc_impl_fft_irfft2(tc_opcall *c) { return n_dim(c, "irfftn", N_C2R, false); }
int tc_impl_fft_hfft2(tc_opcall *c) { return n_dim(c, "hfftn", N_HFFT, true); }
int tc_impl_fft_ihfft2(tc_opcall *c) { return n_dim(c, "ihfftn", N_IHFFT, false); }

/* fftfreq: [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d n), as roll(arange(-(n/2), n - n/2), -(n/2));
 * rfftfreq: arange(n/2 + 1) / (d n). */
static int freq(tc_opcall *c, bool onesided) {
    const int64_t n = tc_arg_int(c, 0);
    const double d = c->args[1].v.f;
    int32_t dtype;
    if (tc_factory_options(c, 2, tc_default_dtype(), &dtype)) return TC_FAIL;
    const bool pin = false;
    const int64_t lo = onesided ? 0 : -(n / 2), hi = onesided ? n / 2 + 1 : n - n / 2;
    tc_tensor *a = tc_arange_start(TC_SCALAR_OF_INT(lo), TC_SCALAR_OF_INT(hi), dtype, -1, &c->device, &pin);
    if (a && !onesided) {
        const int64_t shift = -(n / 2), zero = 0;
        tc_tensor *r = tc_roll(a, (tc_int_list){&shift, 1}, (tc_int_list){&zero, 1});
        tc_tensor_release(a);
        a = r;
    }
    tc_tensor *scale = a ? tc_scalar_tensor(TC_SCALAR_OF_FLOAT(1.0 / ((double)n * d)), TC_FLOAT64) : NULL;
    tc_tensor *r = scale ? tc_mul_Tensor(a, scale) : NULL;
    tc_tensor_release(a);
    tc_tensor_release(scale);
    return tc_return(c, r);
}

int tc_impl_fft_fftfreq(tc_opcall *c) { return freq(c, false); }
int tc_impl_fft_rfftfreq(tc_opcall *c) { return freq(c, true); }

/* fftshift/ifftshift: roll each dim (all by default) by size/2, or (size+1)/2 back. */
static int shift(tc_opcall *c, bool inverse) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    const bool all = tc_arg_none(c, 1);
    const int64_t n = all ? x->ndim : tc_arg_ints(c, 1).len;
    int64_t *dims = calloc((size_t)n + 1, sizeof(int64_t)), *shifts = calloc((size_t)n + 1, sizeof(int64_t));
    tc_tensor *r = NULL;
    if (!dims || !shifts) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        int32_t d = (int32_t)i;
        if (!all && tc_shape_wrap_dim(tc_arg_ints(c, 1).items[i], x->ndim, &d)) goto done;
        dims[i] = d;
        shifts[i] = inverse ? (x->sizes[d] + 1) / 2 : x->sizes[d] / 2;
    }
    r = tc_roll(x, (tc_int_list){shifts, n}, (tc_int_list){dims, n});
done:
    free(dims);
    free(shifts);
    return tc_return(c, r);
}

int tc_impl_fft_fftshift(tc_opcall *c) { return shift(c, false); }
int tc_impl_fft_ifftshift(tc_opcall *c) { return shift(c, true); }

/* PyTorch's fft_r2c_backward: two-sided, the real part of the inverse c2c; one-sided, the gradient
 * zero-padded to the signal's length along the last dim first. */
int tc_impl_fft_r2c_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *self = tc_arg_tensor(c, 1);
    const tc_int_list dims = tc_arg_ints(c, 2);
    const int64_t mode = tc_arg_int(c, 3);
    int32_t last;
    if (dims.len == 0 || tc_shape_wrap_dim(dims.items[dims.len - 1], g->ndim, &last)) return TC_FAIL;
    tc_tensor *full = g;
    tc_tensor_retain(g);
    if (tc_arg_bool(c, 4) && self->sizes[last] > g->sizes[last]) {
        const int64_t dim = last, want = self->sizes[last];
        tc_tensor_release(full);
        full = resize_input(g, 1, &dim, &want);
    }
    tc_tensor *t = full ? tc__fft_c2c(full, dims, mode, false) : NULL;
    tc_tensor *r = t ? tc_real(t) : NULL;
    tc_tensor_release(full);
    tc_tensor_release(t);
    return tc_return(c, r);
}

/* PyTorch's fft_c2r_backward: r2c of the gradient, the points whose mirror images the one-sided
 * input does not hold (1 .. n - (n/2+1)) doubled. */
int tc_impl_fft_c2r_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0);
    const tc_int_list dims = tc_arg_ints(c, 1);
    int32_t last;
    if (dims.len == 0 || tc_shape_wrap_dim(dims.items[dims.len - 1], g->ndim, &last)) return TC_FAIL;
    tc_tensor *r = tc__fft_r2c(g, dims, tc_arg_int(c, 2), true);
    const int64_t doubled = r ? g->sizes[last] - r->sizes[last] : 0;
    if (r && doubled > 0) {
        tc_tensor *part = tc_narrow(r, last, 1, doubled);
        tc_tensor *two = part ? tc_scalar_tensor(TC_SCALAR_OF_INT(2), TC_INT64) : NULL;
        tc_tensor *done = two ? tc_mul__Tensor(part, two) : NULL;
        if (!done) {
            tc_tensor_release(r);
            r = NULL;
        }
        tc_tensor_release(done);
        tc_tensor_release(two);
        tc_tensor_release(part);
    }
    return tc_return(c, r);
}
