/*
 * Meta functions of reductions: sum/prod/nansum (a dim list or one dim, dtype=), amax/amin and
 * max()/min(), all/any, var/std (and with the mean), norm, logsumexp, and max/min along one dim
 * with indices. The op's results drop the reduced dims unless keepdim; kernels always see their
 * outputs in keepdim form (same ndim as the input, reduced dims of size 1), a view of the results
 * the plan allocated.
 *
 * The arguments are found by their schema names (self, dim, keepdim, dtype, ...), so one meta
 * function serves every overload of an op and its out= variant.
 */
#include "core_internal.h"
#include "torch_core/tc_autograd.h"

#include <string.h>

/* The argument named `name`, or NULL when the op's schema has none. */
static const tc_value *arg_named(const tc_opcall *c, const char *name) {
    const tc_op_schema *s = &c->op->schema;
    for (int32_t i = 0; i < s->n_args; i++)
        if (strcmp(s->args[i].name, name) == 0) return &c->args[i];
    return NULL;
}

static bool bool_named(const tc_opcall *c, const char *name, bool dflt) {
    const tc_value *v = arg_named(c, name);
    return v && v->tag == TC_VALUE_BOOL ? v->v.b : dflt;
}

/* ScalarType? arguments: -1 for None or absent. */
static int32_t dtype_named(const tc_opcall *c, const char *name) {
    const tc_value *v = arg_named(c, name);
    return v && v->tag == TC_VALUE_DTYPE ? (int32_t)v->v.i : -1;
}

/* Which dims a reduction reduces: a dim list (empty or absent or None: every dim) or one dim. */
static int dims_to_mask(const tc_tensor *t, const tc_value *dims, bool *mask) {
    memset(mask, 0, sizeof(bool) * TC_MAX_DIMS);
    if (dims && dims->tag == TC_VALUE_INT) {
        int32_t d;
        if (tc_shape_wrap_dim(dims->v.i, t->ndim, &d)) return TC_FAIL;
        if (t->ndim) mask[d] = true;
        return TC_OK;
    }
    int64_t n = dims && dims->tag == TC_VALUE_INT_LIST ? dims->v.ints.len : 0;
    if (n == 0) {
        for (int32_t d = 0; d < t->ndim; d++) mask[d] = true;
        return TC_OK;
    }
    bool seen[TC_MAX_DIMS + 1] = {0};
    for (int64_t i = 0; i < n; i++) { /* every dim in range first, then repeats: PyTorch's order */
        int32_t d;
        if (tc_shape_wrap_dim(dims->v.ints.items[i], t->ndim, &d)) return TC_FAIL;
    }
    for (int64_t i = 0; i < n; i++) {
        int32_t d;
        tc_shape_wrap_dim(dims->v.ints.items[i], t->ndim, &d);
        if (seen[d]) return tc_set_error(TC_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        seen[d] = true;
        if (t->ndim) mask[d] = true;
    }
    return TC_OK;
}

/* The result's sizes: reduced dims dropped, or kept as 1. */
static int32_t reduced_sizes(const tc_tensor *t, const bool *mask, bool keepdim, int64_t *sizes) {
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (!mask[d]) sizes[n++] = t->sizes[d];
        else if (keepdim) sizes[n++] = 1;
    }
    return n;
}

/* Presents output i to the kernel in keepdim form. */
static int keepdim_view(tc_plan *p, int32_t i, const tc_tensor *in, const bool *mask) {
    tc_tensor *o = p->out[i];
    if (o->ndim == in->ndim) return TC_OK;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    for (int32_t d = 0, j = 0; d < in->ndim; d++) {
        if (mask[d]) {
            sizes[d] = 1;
            strides[d] = 0;
        } else {
            sizes[d] = o->sizes[j];
            strides[d] = o->strides[j++];
        }
    }
    return tc_plan_kernel_view(p, i, in->ndim, sizes, strides);
}

/* One reduction: its input and which dims it reduces, from the call's `dim` and `keepdim`. */
typedef struct reduction {
    tc_tensor *self;
    bool mask[TC_MAX_DIMS];
    bool keepdim;
} reduction;

static int reduction_of(const tc_opcall *c, reduction *r) {
    r->self = tc_arg_tensor(c, 0);
    r->keepdim = bool_named(c, "keepdim", false);
    return dims_to_mask(r->self, arg_named(c, "dim"), r->mask);
}

/* Outputs 0..n-1 of `dtype` in the reduced shape (keepdim form for the kernel); the input converted
 * to `compute` (< 0: as it is); the kernel of dtype `kernel` (< 0: the input's). */
static int plan_reduction(tc_plan *p, const reduction *r, int32_t n, int32_t dtype, int32_t compute, int32_t kernel) {
    int64_t sizes[TC_MAX_DIMS];
    int32_t ndim = reduced_sizes(r->self, r->mask, r->keepdim, sizes);
    for (int32_t i = 0; i < n; i++)
        if (tc_plan_output(p, i, ndim, sizes, dtype) || keepdim_view(p, i, r->self, r->mask)) return TC_FAIL;
    p->dtype = kernel >= 0 ? kernel : compute >= 0 ? compute : r->self->dtype;
    return tc_plan_input(p, r->self, compute);
}

/* An op with no identity (max, amax, aminmax) refuses to reduce a dim of size 0; `all` says the
 * call reduces every dim without naming them. */
static int check_nonempty(const tc_opcall *c, const reduction *r, bool all, const char *name) {
    const tc_tensor *t = r->self;
    if (tc_tensor_numel(t) != 0) return TC_OK;
    if (all || t->ndim == 0)
        return tc_set_error(TC_ERR_RUNTIME, "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                                            "Specify the reduction dim with the 'dim' argument.", name);
    for (int32_t d = 0; d < t->ndim; d++)
        if (r->mask[d] && t->sizes[d] == 0)
            return tc_set_error(TC_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", name, d);
    (void)c;
    return TC_OK;
}

/* prod of complex input: complex products (not part by part), as a pairwise product over the
 * reduced elements (moved last and flattened) through the complex mul kernel, computed here; an
 * odd element out is folded into the first product of its round. */
static int prod_complex(tc_opcall *c, tc_plan *p, const reduction *r, int32_t dtype) {
    if (dtype == TC_COMPLEX32) return tc_set_error(TC_ERR_RUNTIME, "\"prod_cpu\" not implemented for 'ComplexHalf'");
    tc_tensor *self = r->self;
    int64_t sizes[TC_MAX_DIMS], perm[TC_MAX_DIMS], kept[TC_MAX_DIMS + 1], n = 1;
    const int32_t ndim = reduced_sizes(self, r->mask, r->keepdim, sizes);
    if (tc_plan_output(p, 0, ndim, sizes, dtype)) return TC_FAIL;
    int32_t nk = 0, np = 0;
    for (int32_t d = 0; d < self->ndim; d++)
        if (!r->mask[d]) perm[np++] = d, kept[nk++] = self->sizes[d];
    for (int32_t d = 0; d < self->ndim; d++)
        if (r->mask[d]) perm[np++] = d, n *= self->sizes[d];
    kept[nk] = n;
    const bool grad = tc_grad_enabled();
    tc_set_grad_enabled(false);
    tc_tensor *x = tc_kernel_cast(self, dtype), *xp = x ? tc_permute(x, (tc_int_list){perm, np}) : NULL;
    tc_tensor *cur = xp ? tc_reshape(xp, (tc_int_list){kept, nk + 1}) : NULL;
    tc_tensor_release(x);
    tc_tensor_release(xp);
    while (cur && n > 1) {
        const int64_t h = n / 2;
        tc_tensor *a = tc_narrow(cur, -1, 0, h), *b = a ? tc_narrow(cur, -1, h, h) : NULL;
        tc_tensor *y = b ? tc_mul_Tensor(a, b) : NULL;
        if (y && n % 2) {
            tc_tensor *odd = tc_narrow(cur, -1, 2 * h, 1), *first = odd ? tc_narrow(y, -1, 0, 1) : NULL;
            tc_tensor *done = first ? tc_mul__Tensor(first, odd) : NULL;
            if (!done) tc_tensor_release(y), y = NULL;
            tc_tensor_release(odd);
            tc_tensor_release(first);
            tc_tensor_release(done);
        }
        tc_tensor_release(a);
        tc_tensor_release(b);
        tc_tensor_release(cur);
        cur = y;
        n = h;
    }
    tc_tensor *res = !cur ? NULL : n == 0 ? tc_ones((tc_int_list){sizes, ndim}, dtype, -1, NULL, NULL)
                                          : tc_reshape(cur, (tc_int_list){sizes, ndim});
    tc_tensor_release(cur);
    tc_set_grad_enabled(grad);
    if (!res) return TC_FAIL;
    tc_plan_result(p, 0, res);
    return TC_OK;
}

/* sum, prod, nansum: over a dim list or one dim; the result is dtype=, else the input's floating
 * dtype or int64. An int64 kernel reads integer and bool inputs as they are (widening each element),
 * so mask.sum() never makes an int64 copy of the mask. The kernels of bool (a sum is "any", a
 * product "all") are the plugin's affair. */
int tc_meta_sum(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    int32_t dtype = dtype_named(c, "dtype");
    const tc_tensor *out = tc_written_arg(c, 0);
    if (dtype >= 0 && tc_check_out_dtype(out, dtype)) return TC_FAIL;
    if (out) /* PyTorch reduces in out='s dtype, the input converted to it */
        dtype = out->dtype;
    else if (dtype < 0)
        dtype = tc_dtype_is_floating(r.self->dtype) || tc_dtype_is_complex(r.self->dtype) ? r.self->dtype : TC_INT64;
    if (tc_dtype_is_complex(r.self->dtype) && !tc_dtype_is_complex(dtype) && tc_tensor_numel(r.self) > 0)
        tc_warn_complex_to_real();
    if (tc_dtype_is_complex(dtype) && c->op->kernel == TC_KERNEL_prod) return prod_complex(c, p, &r, dtype);
    if (tc_dtype_is_complex(dtype)) { /* the kernel sums the parts, as real views with a last dim of 2 */
        int64_t sizes[TC_MAX_DIMS];
        int32_t ndim = reduced_sizes(r.self, r.mask, r.keepdim, sizes);
        if (tc_plan_output(p, 0, ndim, sizes, dtype) || keepdim_view(p, 0, r.self, r.mask)) return TC_FAIL;
        return tc_meta_sum_complex(p, r.self, dtype);
    }
    bool widen = dtype == TC_INT64 && !tc_dtype_is_floating(r.self->dtype) && !tc_dtype_is_complex(r.self->dtype);
    return plan_reduction(p, &r, 1, dtype, widen ? -1 : dtype, dtype);
}

/* nansum: integers have no NaN and sum as `sum` does; a float input asked for an integer dtype is
 * refused, as PyTorch's kernel is. */
int tc_meta_nansum(tc_opcall *c, tc_plan *p) {
    if (tc_dtype_is_complex(tc_arg_tensor(c, 0)->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "nansum does not support complex inputs");
    int32_t dtype = dtype_named(c, "dtype");
    const tc_tensor *out = tc_written_arg(c, 0);
    if (out && dtype >= 0 && dtype != out->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "nansum: provided dtype must match dtype of result. Got %s and %s.",
                            tc_dtype_scalar_name(out->dtype), tc_dtype_scalar_name(dtype));
    if (out) dtype = out->dtype;
    if (dtype >= 0 && !tc_dtype_is_floating(dtype) && tc_dtype_is_floating(tc_arg_tensor(c, 0)->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"nansum_cpu\" not implemented for '%s'", tc_dtype_scalar_name(dtype));
    return tc_meta_sum(c, p);
}

/* max(self) and min(self), amax/amin(self, dim list, keepdim): the extreme element, no indices. */
int tc_meta_extreme_all(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    const tc_value *dims = arg_named(c, "dim");
    bool all = !dims || dims->tag != TC_VALUE_INT_LIST || dims->v.ints.len == 0;
    const tc_tensor *out = tc_written_arg(c, 0);
    if (out && out->dtype != r.self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Expected the dtype for input and out to match, but got %s for input's "
                                            "dtype and %s for out's dtype.", tc_dtype_scalar_name(r.self->dtype),
                            tc_dtype_scalar_name(out->dtype));
    if (tc_dtype_is_complex(r.self->dtype)) { /* PyTorch's kernels' names: max_all, max_values_cpu, ... */
        const bool is_max = c->op->kernel == TC_KERNEL_max, values = c->op->schema.name[0] == 'a';
        return tc_set_error(TC_ERR_RUNTIME, "\"%s_%s\" not implemented for '%s'", is_max ? "max" : "min",
                            values ? "values_cpu" : "all", tc_dtype_scalar_name(r.self->dtype));
    }
    if (check_nonempty(c, &r, all, c->op->schema.name)) return TC_FAIL;
    return plan_reduction(p, &r, 1, r.self->dtype, -1, -1);
}

/* aminmax(self, *, dim, keepdim): (min, max) over one dim or everything, one kernel for both. */
int tc_meta_aminmax(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    const tc_value *dim = arg_named(c, "dim");
    if (tc_tensor_numel(r.self) == 0) {
        if (!dim || dim->tag != TC_VALUE_INT)
            return tc_set_error(TC_ERR_RUNTIME, "aminmax(): cannot compute aminmax over an empty dimension as the "
                                                "operation has no identity.");
        for (int32_t d = 0; d < r.self->ndim; d++)
            if (r.mask[d] && r.self->sizes[d] == 0)
                return tc_set_error(TC_ERR_INDEX, "aminmax: Expected reduction dim %d to have non-zero size.", d);
    }
    if (tc_dtype_is_complex(r.self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"aminmax_cpu\" not implemented for '%s'",
                            tc_dtype_scalar_name(r.self->dtype));
    if (tc_check_out_dtype(tc_written_arg(c, 0), r.self->dtype) || tc_check_out_dtype(tc_written_arg(c, 1), r.self->dtype))
        return TC_FAIL;
    return plan_reduction(p, &r, 2, r.self->dtype, -1, -1);
}

/* all / any: every dim or one; a bool result (uint8 for uint8 inputs, as PyTorch keeps it). The
 * kernel reads the input in its own dtype. */
int tc_meta_logical_reduce(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    /* PyTorch casts a complex input to bool, which reads the real part (so do the kernels) */
    if (tc_dtype_is_complex(r.self->dtype) && tc_tensor_numel(r.self) > 0)
        tc_warn_complex_to_real();
    int32_t dtype = r.self->dtype == TC_UINT8 ? TC_UINT8 : TC_BOOL;
    const tc_tensor *out = tc_written_arg(c, 0);
    if (out) { /* a bool or uint8 out= */
        if (out->dtype != TC_BOOL && out->dtype != TC_UINT8)
            return tc_set_error(TC_ERR_RUNTIME, "%s only supports bool tensor for result, got: %s",
                                c->op->schema.name, tc_dtype_scalar_name(out->dtype));
        dtype = out->dtype;
    }
    /* into uint8, PyTorch reads the input as uint8 (0.5 is then 0, -1 is 255) */
    const int32_t compute = dtype == TC_UINT8 && r.self->dtype != TC_UINT8 ? TC_UINT8 : -1;
    return plan_reduction(p, &r, 1, dtype, compute, -1);
}

/* count_nonzero(self, dim) over a dim list or one dim: an int64 count; the kernel reads the input in
 * its own dtype. */
int tc_meta_count_nonzero(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    return plan_reduction(p, &r, 1, TC_INT64, -1, -1);
}

/* var and std of complex input as PyTorch computes them: the real and imaginary parts' variances
 * added (then the root); var_mean's mean is complex(mean of the real parts, of the imaginary ones),
 * each from the parts' own var_mean. Computed here through the real kernels, without recording
 * gradients (the op's own formula does). */
static int var_complex(tc_opcall *c, tc_plan *p, const reduction *r, int64_t correction) {
    const int32_t n = c->op->schema.n_returns, real = tc_dtype_to_real(r->self->dtype);
    int64_t sizes[TC_MAX_DIMS], dims[TC_MAX_DIMS];
    const int32_t ndim = reduced_sizes(r->self, r->mask, r->keepdim, sizes);
    tc_int_list list = {dims, 0};
    for (int32_t d = 0; d < r->self->ndim; d++)
        if (r->mask[d]) dims[list.len++] = d;
    for (int32_t i = 0; i < n; i++)
        if (tc_plan_output(p, i, ndim, sizes, i == 0 ? real : r->self->dtype)) return TC_FAIL;
    const bool grad = tc_grad_enabled(), root = strncmp(c->op->schema.name, "std", 3) == 0;
    tc_set_grad_enabled(false);
    tc_tensor *parts[2] = {tc_real(r->self), tc_imag(r->self)}, *var[2] = {NULL, NULL}, *mean[2] = {NULL, NULL};
    const tc_int_list *dl = r->self->ndim ? &list : NULL;
    for (int k = 0; k < 2 && parts[k]; k++) {
        if (n == 2 ? tc_var_mean_correction(parts[k], dl, &correction, r->keepdim, &var[k], &mean[k])
                   : !(var[k] = tc_var_correction(parts[k], dl, &correction, r->keepdim)))
            break;
    }
    tc_tensor *v = var[0] && var[1] ? tc_add_Tensor(var[0], var[1], TC_SCALAR_OF_INT(1)) : NULL;
    if (v && root) {
        tc_tensor *s = tc_sqrt(v);
        tc_tensor_release(v);
        v = s;
    }
    tc_tensor *m = v && n == 2 && mean[0] && mean[1] ? tc_complex(mean[0], mean[1]) : NULL;
    tc_set_grad_enabled(grad);
    for (int k = 0; k < 2; k++) {
        tc_tensor_release(parts[k]);
        tc_tensor_release(var[k]);
        tc_tensor_release(mean[k]);
    }
    if (!v || (n == 2 && !m)) {
        tc_tensor_release(v);
        return TC_FAIL;
    }
    tc_plan_result(p, 0, v);
    if (n == 2) tc_plan_result(p, 1, m);
    return TC_OK;
}

/* var, std, var_mean, std_mean: (dim, unbiased) or (dim, correction); ints[0] = correction. A
 * second result, when the op has one, is the mean. */
int tc_meta_var(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    const bool complex = tc_dtype_is_complex(r.self->dtype);
    if (!tc_dtype_is_floating(r.self->dtype) && !complex)
        return tc_set_error(TC_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
    const tc_value *corr = arg_named(c, "correction");
    int64_t correction = corr ? (corr->tag == TC_VALUE_INT ? corr->v.i : 1) : bool_named(c, "unbiased", true);
    if (complex) return var_complex(c, p, &r, correction);
    /* Into out=, PyTorch computes in out's dtype (a floating one), the input converted; a result of
     * one element it computes in double and fills into out of any dtype. */
    const tc_tensor *out = tc_written_arg(c, 0);
    int32_t dtype = r.self->dtype, compute = -1;
    if (out) {
        int64_t sizes[TC_MAX_DIMS], count = 1;
        const int32_t ndim = reduced_sizes(r.self, r.mask, r.keepdim, sizes);
        for (int32_t d = 0; d < ndim; d++) count *= sizes[d];
        if (count == 1 && r.self->dtype != TC_FLOAT16 && r.self->dtype != TC_BFLOAT16) {
            dtype = compute = TC_FLOAT64;
            p->flags |= TC_PLAN_OUT_ANY_DTYPE;
        } else if (!tc_dtype_is_floating(out->dtype)) {
            return tc_set_error(TC_ERR_RUNTIME, "\"std_cpu\" not implemented for '%s'",
                                tc_dtype_scalar_name(out->dtype));
        } else {
            dtype = compute = out->dtype;
        }
    }
    if (plan_reduction(p, &r, c->op->schema.n_returns, dtype, compute, -1)) return TC_FAIL;
    return tc_plan_int(p, correction);
}

/* norm of complex input: linalg.vector_norm's (the norm of |z|, a real result), computed here */
static int norm_complex(tc_opcall *c, tc_plan *p, const reduction *r, int32_t dtype) {
    if (dtype >= 0 && !tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "norm(): the desired output dtype should be complex for complex input. "
                                            "Got %s instead.", tc_dtype_scalar_name(dtype));
    const tc_value *pv = arg_named(c, "p");
    const tc_scalar order = pv && pv->tag == TC_VALUE_SCALAR ? pv->v.scalar : TC_SCALAR_OF_INT(2);
    if (order.kind == TC_SCALAR_COMPLEX) return tc_set_error(TC_ERR_RUNTIME, "norm(): p must be a real number");
    int64_t dims[TC_MAX_DIMS];
    tc_int_list list = {dims, 0};
    for (int32_t d = 0; d < r->self->ndim; d++)
        if (r->mask[d]) dims[list.len++] = d;
    const bool grad = tc_grad_enabled();
    tc_set_grad_enabled(false);
    tc_tensor *v = tc_linalg_vector_norm(r->self, order, r->self->ndim ? &list : NULL, r->keepdim, dtype);
    tc_set_grad_enabled(grad);
    if (!v) return TC_FAIL;
    if (tc_plan_output(p, 0, v->ndim, v->sizes, v->dtype)) {
        tc_tensor_release(v);
        return TC_FAIL;
    }
    tc_plan_result(p, 0, v);
    return TC_OK;
}

/* norm(self, p, dim, keepdim, *, dtype): p None is 2; the result is dtype= (the input converted to
 * it) or the input's floating dtype. kernel scalars[0] = p. */
int tc_meta_norm(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    int32_t dtype = dtype_named(c, "dtype");
    if (dtype >= 0 && !tc_dtype_is_floating(dtype) && !tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "norm(): the desired output dtype should be either floating point or "
                                            "complex. Got %s instead.", tc_dtype_scalar_name(dtype));
    if (tc_dtype_is_complex(r.self->dtype) || (dtype >= 0 && tc_dtype_is_complex(dtype)))
        return norm_complex(c, p, &r, dtype);
    if (dtype < 0 && !tc_dtype_is_floating(r.self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got %s "
                                            "instead.", tc_dtype_scalar_name(r.self->dtype));
    const tc_tensor *out = tc_written_arg(c, 0);
    if (dtype < 0 && out) { /* PyTorch computes in out='s dtype */
        if (!tc_dtype_is_floating(out->dtype) && !tc_dtype_is_complex(out->dtype))
            return tc_set_error(TC_ERR_RUNTIME, "\"norm_cpu\" not implemented for '%s'", tc_dtype_scalar_name(out->dtype));
        if (tc_dtype_is_floating(out->dtype)) dtype = out->dtype;
    }
    if (dtype < 0) dtype = r.self->dtype;
    const tc_value *pv = arg_named(c, "p");
    tc_scalar order = pv && pv->tag == TC_VALUE_SCALAR ? pv->v.scalar : TC_SCALAR_OF_INT(2);
    if (order.kind == TC_SCALAR_COMPLEX) return tc_set_error(TC_ERR_RUNTIME, "norm(): p must be a real number");
    if (order.kind == TC_SCALAR_BOOL) order.kind = TC_SCALAR_INT;
    if (plan_reduction(p, &r, 1, dtype, dtype, -1)) return TC_FAIL;
    return tc_plan_scalar(p, order);
}

/* logsumexp(self, dim, keepdim): integers and bool compute in the default float dtype. PyTorch
 * 1.13 adds the maxima back in place, which fails for an empty dim list without keepdim on an
 * input with dims: the same error here. */
int tc_meta_logsumexp(tc_opcall *c, tc_plan *p) {
    reduction r;
    if (reduction_of(c, &r)) return TC_FAIL;
    const tc_tensor *out = tc_written_arg(c, 0);
    if (out && !tc_dtype_is_floating(out->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "logsumexp(): Expected floating point type for result tensor, but got: %s",
                            tc_dtype_scalar_name(out->dtype));
    if (tc_dtype_is_complex(r.self->dtype) && out)
        return tc_set_error(TC_ERR_RUNTIME, "\"max_values_cpu\" not implemented for '%s'",
                            tc_dtype_scalar_name(r.self->dtype));
    if (tc_dtype_is_complex(r.self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "logsumexp(): Expected floating point type for result tensor, but got: %s",
                            tc_dtype_scalar_name(r.self->dtype));
    const tc_value *dims = arg_named(c, "dim");
    if (dims && dims->tag == TC_VALUE_INT_LIST && dims->v.ints.len == 0 && !r.keepdim && r.self->ndim > 0) {
        char ones[256];
        int64_t sizes[TC_MAX_DIMS];
        for (int32_t d = 0; d < r.self->ndim; d++) sizes[d] = 1;
        tc_shape_format(r.self->ndim, sizes, ones, sizeof ones);
        return tc_set_error(TC_ERR_RUNTIME, "output with shape [] doesn't match the broadcast shape %s", ones);
    }
    int32_t dtype = out ? out->dtype : tc_dtype_is_floating(r.self->dtype) ? r.self->dtype : tc_default_dtype();
    return plan_reduction(p, &r, 1, dtype, dtype, -1);
}

/* Values (the input's dtype) and int64 indices along one dim, each output of size 1 there (keepdim
 * form for the kernel): max.dim, min.dim, median.dim, nanmedian.dim, mode, kthvalue. ints[0] = dim.
 * A 0-dim input reduces as a one-element vector. Out= tensors must have exactly those dtypes. */
static int plan_values_indices(tc_opcall *c, tc_plan *p, int32_t *dim_out) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    const tc_value *dv = arg_named(c, "dim");
    bool keepdim = bool_named(c, "keepdim", false);
    int32_t dim;
    if (tc_shape_wrap_dim(dv ? dv->v.i : -1, self->ndim, &dim)) return TC_FAIL;
    if (self->ndim > 0 && self->sizes[dim] == 0)
        return tc_set_error(TC_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.",
                            c->op->schema.name, dim);
    const bool max_min = c->op->kernel == TC_KERNEL_max_dim || c->op->kernel == TC_KERNEL_min_dim;
    if (max_min && tc_dtype_is_complex(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "%s(): does not support complex input", c->op->schema.name);
    for (int32_t i = 0; i < 2; i++) { /* max/min.dim are structured ops of PyTorch's, the others older kernels */
        const int32_t want = i == 0 ? self->dtype : TC_INT64;
        if ((max_min ? tc_check_out_dtype : tc_check_out_scalar_type)(tc_written_arg(c, i), want)) return TC_FAIL;
    }
    bool mask[TC_MAX_DIMS] = {0};
    if (self->ndim > 0) mask[dim] = true;
    int64_t sizes[TC_MAX_DIMS];
    int32_t n = reduced_sizes(self, mask, keepdim, sizes);
    if (tc_plan_output(p, 0, n, sizes, self->dtype) || tc_plan_output(p, 1, n, sizes, TC_INT64)) return TC_FAIL;
    p->dtype = self->dtype;
    *dim_out = dim;
    if (self->ndim > 0) {
        if (keepdim_view(p, 0, self, mask) || keepdim_view(p, 1, self, mask)) return TC_FAIL;
        if (tc_plan_input(p, self, -1)) return TC_FAIL;
        return tc_plan_int(p, dim);
    }
    int64_t one = 1, zero = 0;
    tc_tensor *as1d = tc_tensor_restride(self, 1, &one, &zero, self->offset);
    if (!as1d) return TC_FAIL;
    int rc = tc_plan_input(p, as1d, -1);
    tc_tensor_release(as1d);
    for (int32_t i = 0; rc == TC_OK && i < 2; i++) rc = tc_plan_kernel_view(p, i, 1, &one, &zero);
    return rc ? rc : tc_plan_int(p, 0);
}

/* median(self), nanmedian(self): one value of the input's dtype from every element (NaN, converted,
 * for an empty input: the kernel writes it). */
int tc_meta_median_all(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (tc_plan_output(p, 0, 0, NULL, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    return tc_plan_input(p, self, -1);
}

/* max.dim, min.dim, median.dim, nanmedian.dim, mode: ints = [dim]. */
int tc_meta_extreme_dim(tc_opcall *c, tc_plan *p) {
    int32_t dim;
    return plan_values_indices(c, p, &dim);
}

/* kthvalue(self, k, dim, keepdim): ints = [dim, k], 1 <= k <= the dim's size. */
int tc_meta_kthvalue(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dim;
    if (plan_values_indices(c, p, &dim)) return TC_FAIL;
    int64_t k = tc_arg_int(c, 1), size = self->ndim > 0 ? self->sizes[dim] : 1;
    if (k < 1 || k > size)
        return tc_set_error(TC_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %d", dim);
    return tc_plan_int(p, k);
}

/* quantile / nanquantile (self, q tensor or float, dim, keepdim, *, interpolation): results
 * [len(q)] + the reduced shape (no q dim for a scalar q); the kernel sees them with a leading q dim
 * and the input's dims in keepdim form. Checks in PyTorch's order and words. */
int tc_meta_quantile(tc_opcall *c, tc_plan *p) {
    static const char *const modes[] = {"linear", "lower", "higher", "midpoint", "nearest"};
    tc_tensor *self = tc_arg_tensor(c, 0);
    const bool scalar_q = c->args[1].tag == TC_VALUE_FLOAT;
    tc_tensor *q = scalar_q ? NULL : tc_arg_tensor(c, 1);
    if (scalar_q && !(c->args[1].v.f >= 0 && c->args[1].v.f <= 1))
        return tc_set_error(TC_ERR_RUNTIME, "quantile() q must be in the range [0, 1] but got %g", c->args[1].v.f);
    const char *interp = c->args[4].v.s;
    int64_t mode = -1;
    for (int64_t m = 0; m < 5 && mode < 0; m++)
        if (strcmp(interp, modes[m]) == 0) mode = m;
    if (mode < 0)
        return tc_set_error(TC_ERR_RUNTIME, "quantile() interpolation must be one of linear, lower, higher, midpoint "
                                            "or nearest, but got %s", interp);
    if (tc_tensor_numel(self) == 0) return tc_set_error(TC_ERR_RUNTIME, "quantile() input tensor must be non-empty");
    if (q && q->ndim > 1) return tc_set_error(TC_ERR_RUNTIME, "quantile() q must be a scalar or 1D tensor");
    if (self->dtype != TC_FLOAT32 && self->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "quantile() input tensor must be either float or double dtype");
    if (q && q->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "quantile() q tensor must be same dtype as the input tensor");
    if (c->op->variant == TC_VARIANT_OUT && c->args[5].v.tensor->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "quantile() out tensor must be same dtype as the input tensor");
    bool keepdim = tc_arg_bool(c, 3), all = tc_arg_none(c, 2);
    int32_t dim = 0;
    if (!all && tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &dim)) return TC_FAIL;
    /* results: q's length (a tensor q with dims), then the reduced dims */
    bool mask[TC_MAX_DIMS] = {0};
    for (int32_t d = 0; d < self->ndim; d++) mask[d] = all || d == dim;
    int64_t sizes[TC_MAX_DIMS + 1], nq = q ? tc_tensor_numel(q) : 1;
    int32_t lead = q && q->ndim == 1;
    sizes[0] = nq;
    int32_t ndim = lead + reduced_sizes(self, mask, keepdim, sizes + lead);
    if (ndim > TC_MAX_DIMS) return tc_shape_check_ndim(ndim);
    if (tc_plan_output(p, 0, ndim, sizes, self->dtype)) return TC_FAIL;
    /* the kernel's view: [q, self's dims with the reduced ones of size 1] */
    tc_tensor *o = p->out[0];
    int64_t ksizes[TC_MAX_DIMS + 1], kstrides[TC_MAX_DIMS + 1];
    ksizes[0] = nq;
    kstrides[0] = lead ? o->strides[0] : 0;
    for (int32_t d = 0, j = lead; d < self->ndim; d++) {
        if (mask[d]) {
            ksizes[d + 1] = 1;
            kstrides[d + 1] = 0;
            j += keepdim;
        } else {
            ksizes[d + 1] = o->sizes[j];
            kstrides[d + 1] = o->strides[j++];
        }
    }
    if (self->ndim + 1 > TC_MAX_DIMS) return tc_shape_check_ndim(self->ndim + 1);
    if (tc_plan_kernel_view(p, 0, self->ndim + 1, ksizes, kstrides)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1) || (q && tc_plan_input(p, q, -1))) return TC_FAIL;
    if (scalar_q && tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[1].v.f))) return TC_FAIL;
    return tc_plan_int(p, all || self->ndim == 0 ? -1 : dim) || tc_plan_int(p, mode) ? TC_FAIL : TC_OK;
}
