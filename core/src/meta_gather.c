/*
 * Meta functions of the ops that index along one dim, or through an index of self's rank, or linearly:
 * index_select, index_add_, index_copy_, index_fill_, gather, scatter_ (and scatter_add_,
 * scatter_reduce_), take and put_. They plan the `index` or `index_put` kernel (meta_index.c says how
 * the operands are presented) with PyTorch's per-op checks, messages and error style.
 */
#include "core_internal.h"
#include "indexing.h"
#include "torch_core/tc_indexing.h"

#include <stdio.h>
#include <string.h>

/* ---- one index along one dim: index_select, index_add_, index_copy_, index_fill_ ----------------- */

/* The geometry of "t with dim's size replaced by the index's length": sizes, t's strides with 0
 * along dim, and the index's strides (0 except along dim). */
static int32_t along_dim(const tc_tensor *t, int32_t dim, const tc_tensor *index, int64_t *sizes, int64_t *strides,
                         int64_t *istrides) {
    int64_t tsizes[TC_MAX_DIMS], tstrides[TC_MAX_DIMS];
    int32_t n = tc_index_nonempty(t, tsizes, tstrides);
    for (int32_t d = 0; d < n; d++) {
        sizes[d] = d == dim ? tc_tensor_numel(index) : tsizes[d];
        strides[d] = d == dim ? 0 : tstrides[d];
        istrides[d] = d == dim && index->ndim ? index->strides[0] : 0;
    }
    return t->ndim == 0 ? 0 : n; /* a 0-dim tensor stays 0-dim (its index has one element) */
}

/* index_select(self, dim, index) */
int tc_meta_index_select(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2), *out = tc_written_arg(c, 0);
    int32_t dim;
    if (out && out->dtype != self->dtype) /* out= is never cast into, checked first as PyTorch does */
        return tc_set_error(TC_ERR_RUNTIME, "index_select(): self and result must have the same scalar type");
    if (index->dtype != TC_INT64 && index->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
    if (index->ndim > 1) return tc_set_error(TC_ERR_INDEX, "index_select(): Index is supposed to be a vector");
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (self->ndim > 1 && tc_tensor_numel(self) == 0 && tc_tensor_numel(index) > 0 && self->sizes[dim] == 0)
        return tc_set_error(TC_ERR_RUNTIME, "index_select(): self indexing axis dim should be positive");
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], istrides[TC_MAX_DIMS], ss[TC_MAX_DIMS], st[TC_MAX_DIMS];
    int32_t ndim = along_dim(self, dim, index, sizes, strides, istrides);
    tc_index_nonempty(self, ss, st);
    if (tc_plan_output(p, 0, ndim, sizes, self->dtype) || tc_index_check_out_overlap(p, self)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_index_plan_view(p, self, false, ndim, sizes, strides) ||
        tc_index_plan_view(p, index, true, ndim, sizes, istrides))
        return TC_FAIL;
    if (tc_plan_int(p, TC_INDEX_IN_SELF) || tc_plan_int(p, dim)) return TC_FAIL;
    return tc_index_plan_dims(p, 1, &ss[dim], &st[dim]);
}

/* Plans the write of `values` (already at the kernel's shape or broadcastable to it) into self's
 * elements along dim at `index`. */
static int plan_put_along(tc_plan *p, tc_tensor *self, int32_t dim, tc_tensor *index, tc_tensor *values, int mode,
                          int style) {
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    tc_tensor *out = p->out[0];
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], istrides[TC_MAX_DIMS], os[TC_MAX_DIMS], ot[TC_MAX_DIMS];
    int32_t ndim = along_dim(out, dim, index, sizes, strides, istrides);
    tc_index_nonempty(out, os, ot);
    p->dtype = self->dtype;
    if (tc_plan_kernel_view(p, 0, ndim, sizes, strides) || tc_index_plan_broadcast(p, values, ndim, sizes) ||
        tc_index_plan_view(p, index, true, ndim, sizes, istrides))
        return TC_FAIL;
    if (tc_plan_int(p, mode) || tc_plan_int(p, 1) || tc_plan_int(p, style) || tc_plan_int(p, dim)) return TC_FAIL;
    return tc_index_plan_dims(p, 1, &os[dim], &ot[dim]);
}

/* index_add_(self, dim, index, source, *, alpha) */
int tc_meta_index_add(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2), *source = tc_arg_tensor(c, 3);
    int32_t dim, sdim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (index->ndim > 1) {
        char shape[256];
        tc_shape_format(index->ndim, index->sizes, shape, sizeof shape);
        return tc_set_error(TC_ERR_INDEX,
                            "index_add_(): Index is supposed to be a vector, but got dim: %d with type: "
                            "%s and size: %s",
                            index->ndim, tc_dtype_scalar_name(index->dtype), shape);
    }
    if (index->dtype != TC_INT64 && index->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "index_add_(): Expected dtype int32/int64 for index but got: %s",
                            tc_dtype_scalar_name(index->dtype));
    int64_t n = tc_tensor_numel(index), along = 1;
    if (source->ndim) {
        if (tc_shape_wrap_dim(dim, source->ndim, &sdim)) return TC_FAIL;
        along = source->sizes[sdim];
    }
    if (n != along)
        return tc_set_error(TC_ERR_RUNTIME,
                            "index_add_(): Number of indices (%lld) should be equal to "
                            "source.size(dim): (%lld), for dim: %d",
                            (long long)n, (long long)along, dim);
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "index_add_(): self (%s) and source (%s) must have the same scalar type",
                            tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(source->dtype));
    /* the source must broadcast to the slices of self it is added to */
    int64_t want[TC_MAX_DIMS], got[TC_MAX_DIMS], unused[TC_MAX_DIMS];
    int32_t nw = tc_index_nonempty(self, want, unused), ng;
    want[dim] = n;
    if (tc_shape_broadcast(nw, want, source->ndim, source->sizes, &ng, got)) return TC_FAIL;
    if (!tc_shape_equal(ng, got, nw, want)) {
        char have[256], bc[256];
        tc_shape_format(nw - 1, want + 1, have, sizeof have);
        tc_shape_format(ng - 1, got + 1, bc, sizeof bc);
        return tc_set_error(TC_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", have, bc);
    }
    if (plan_put_along(p, self, dim, index, source, TC_PUT_ADD, TC_INDEX_IN_SELF)) return TC_FAIL;
    return tc_plan_scalar(p, tc_scalar_cast(c->args[4].v.scalar, self->dtype));
}

/* A shape without one dim, as c10 prints a vector ("3 4"). */
static void sliced_shape(const tc_tensor *t, int32_t dim, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    for (int32_t e = 0; e < t->ndim && used < len; e++)
        if (e != dim)
            used += (size_t)snprintf(buf + used, len - used, "%s%lld", used ? " " : "", (long long)t->sizes[e]);
}

/* index_copy_(self, dim, index, source), with PyTorch's checks in its order */
int tc_meta_index_copy(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2), *source = tc_arg_tensor(c, 3);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (index->ndim >= 2)
        return tc_set_error(TC_ERR_INDEX, "index_copy_(): Index should have dimension 1 or 0 (got %d)", index->ndim);
    int64_t n = tc_tensor_numel(index);
    if (source->ndim == 0 && n != 1)
        return tc_set_error(TC_ERR_INDEX,
                            "index_copy_(): When source is scalar, index should have one element (got "
                            "%lld)",
                            (long long)n);
    if (source->ndim && self->ndim && source->ndim != self->ndim)
        return tc_set_error(TC_ERR_INDEX,
                            "index_copy_(): When source and destination are not scalars, their "
                            "dimensionality must match. Source dimensionality (%d), destination "
                            "dimensionality (%d)",
                            source->ndim, self->ndim);
    if (index->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "index_copy_(): Expected a long tensor for index, but got %s",
                            tc_dtype_scalar_name(index->dtype));
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME,
                            "index_copy_(): self and source expected to have the same dtype, but got "
                            "(self) %s and (source) %s",
                            tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(source->dtype));
    /* self's and source's shapes without dim (a 0-dim tensor's shape is empty) */
    int64_t ds[TC_MAX_DIMS], ss[TC_MAX_DIMS];
    int32_t nd = 0, nr = 0;
    for (int32_t d = 0; d < self->ndim; d++)
        if (d != dim) ds[nd++] = self->sizes[d];
    for (int32_t d = 0; d < source->ndim; d++)
        if (d != dim) ss[nr++] = source->sizes[d];
    if (!tc_shape_equal(nd, ds, nr, ss)) {
        char dtext[512], stext[512];
        sliced_shape(self, dim, dtext, sizeof dtext);
        sliced_shape(source, dim, stext, sizeof stext);
        return tc_set_error(TC_ERR_RUNTIME,
                            "index_copy_(): Source/destination tensor must have same slice shapes. "
                            "Destination slice shape: %s at dimension %d and source slice shape: %s at "
                            "dimension 0.",
                            dtext, dim, stext);
    }
    if (source->ndim && n != source->sizes[dim])
        return tc_set_error(TC_ERR_INDEX,
                            "index_copy_(): Number of indices (%lld) should be equal to source.size(dim) "
                            "(%lld)",
                            (long long)n, (long long)source->sizes[dim]);
    return plan_put_along(p, self, dim, index, source, TC_PUT_ASSIGN, TC_INDEX_COPY);
}

/* index_fill_.int_Scalar / .int_Tensor (self, dim, index, value) */
int tc_meta_index_fill(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2);
    int32_t dim;
    tc_tensor *value;
    const tc_value *given = &c->args[3];
    bool complex_value = given->tag == TC_VALUE_TENSOR ? tc_dtype_is_complex(given->v.tensor->dtype)
                                                       : given->v.scalar.kind == TC_SCALAR_COMPLEX;
    if (complex_value && !tc_dtype_is_complex(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "index_fill_(): Converting complex Scalar to non-complex type is not "
                                            "supported");
    if (tc_index_fill_value(c, 3, self->dtype, "index_fill_", &value)) return TC_FAIL;
    int rc = TC_FAIL;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) goto done;
    if (index->dtype != TC_INT64) {
        tc_set_error(TC_ERR_INDEX, "index_fill_(): Expected dtype int64 for index.");
        goto done;
    }
    if (index->ndim > 1) {
        tc_set_error(TC_ERR_RUNTIME, "Index has to be a vector/scalar");
        goto done;
    }
    rc = plan_put_along(p, self, dim, index, value, TC_PUT_ASSIGN, TC_INDEX_BOUNDS);
done:
    tc_tensor_release(value);
    return rc;
}

/* ---- gather and scatter: an index of self's rank ---------------------------------------------------- */

static int index_smaller_error(const tc_tensor *index, const tc_tensor *self, const tc_tensor *src, int32_t dim) {
    char i[256], s[256], r[256];
    tc_shape_format(index->ndim, index->sizes, i, sizeof i);
    tc_shape_format(self->ndim, self->sizes, s, sizeof s);
    if (!src)
        return tc_set_error(TC_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %d", i,
                            s, dim);
    tc_shape_format(src->ndim, src->sizes, r, sizeof r);
    return tc_set_error(TC_ERR_RUNTIME,
                        "Expected index %s to be smaller than self %s apart from dimension %d and to be "
                        "smaller size than src %s",
                        i, s, dim, r);
}

/* gather(self, dim, index, *, sparse_grad) */
int tc_meta_gather(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (index->dtype != TC_INT64) return tc_set_error(TC_ERR_RUNTIME, "gather(): Expected dtype int64 for index");
    int64_t ss[TC_MAX_DIMS], st[TC_MAX_DIMS], is[TC_MAX_DIMS], it[TC_MAX_DIMS];
    int32_t ns = tc_index_nonempty(self, ss, st), ni = tc_index_nonempty(index, is, it);
    if (ns != ni)
        return tc_set_error(TC_ERR_RUNTIME, "Index tensor must have the same number of dimensions as input tensor");
    if (tc_tensor_numel(index) != 0)
        for (int32_t d = 0; d < ns; d++)
            if (d != dim && is[d] > ss[d]) {
                char i[256], s[256];
                tc_shape_format(index->ndim, index->sizes, i, sizeof i);
                tc_shape_format(self->ndim, self->sizes, s, sizeof s);
                return tc_set_error(TC_ERR_RUNTIME,
                                    "Size does not match at dimension %d expected index %s to be "
                                    "smaller than self %s apart from dimension %d",
                                    d, i, s, dim);
            }
    if (tc_plan_output(p, 0, index->ndim, index->sizes, self->dtype) || tc_index_check_out_overlap(p, self))
        return TC_FAIL;
    int64_t strides[TC_MAX_DIMS];
    for (int32_t d = 0; d < ni; d++) strides[d] = d == dim ? 0 : st[d];
    p->dtype = self->dtype;
    if (tc_index_plan_view(p, self, false, index->ndim, index->sizes, strides) ||
        tc_index_plan_view(p, index, false, index->ndim, index->sizes, index->strides))
        return TC_FAIL;
    if (tc_plan_int(p, TC_INDEX_BOUNDS_RT) || tc_plan_int(p, dim)) return TC_FAIL;
    return tc_index_plan_dims(p, 1, &ss[dim], &st[dim]);
}

/* The reduction a scatter's `reduce` argument names, or -1 with PyTorch's error. */
static int scatter_mode(const tc_opcall *c, int arg, bool two) {
    const char *r = c->args[arg].v.s;
    if (two) {
        static const char *names[] = {"sum", "prod", "mean", "amax", "amin"};
        static const int modes[] = {TC_PUT_ADD, TC_PUT_MUL, TC_PUT_MEAN, TC_PUT_AMAX, TC_PUT_AMIN};
        for (int i = 0; i < 5; i++)
            if (strcmp(r, names[i]) == 0) return modes[i];
        return tc_set_error(TC_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin."), -1;
    }
    if (strcmp(r, "add") == 0) return TC_PUT_ADD;
    if (strcmp(r, "multiply") == 0) return TC_PUT_MUL;
    return tc_set_error(TC_ERR_RUNTIME, "reduce argument must be either add or multiply."), -1;
}

/* scatter_ (.value, .src, .value_reduce, .reduce), scatter_add_ and scatter_reduce_.two: self, dim,
 * index, then a src tensor or a value, then reduce and include_self where the schema has them. */
int tc_meta_scatter(tc_opcall *c, tc_plan *p) {
    const tc_op_schema *s = &c->op->schema;
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2);
    bool two = strcmp(s->name, "scatter_reduce_") == 0, include_self = two ? tc_arg_bool(c, 5) : true;
    int mode = strcmp(s->name, "scatter_add_") == 0 ? TC_PUT_ADD : TC_PUT_ASSIGN;
    if (s->n_args > 4 && (mode = scatter_mode(c, 4, two)) < 0) return TC_FAIL;
    if (two) tc_warn("scatter_reduce() is in beta and the API may change at any time.");
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (index->dtype != TC_INT64) return tc_set_error(TC_ERR_RUNTIME, "scatter(): Expected dtype int64 for index");
    tc_tensor *src = c->args[3].tag == TC_VALUE_TENSOR ? c->args[3].v.tensor : NULL;
    if (src && src->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "scatter(): Expected self.dtype to be equal to src.dtype");
    int64_t ss[TC_MAX_DIMS], st[TC_MAX_DIMS], is[TC_MAX_DIMS], it[TC_MAX_DIMS], rs[TC_MAX_DIMS], rt[TC_MAX_DIMS];
    int32_t ns = tc_index_nonempty(self, ss, st), ni = tc_index_nonempty(index, is, it),
            nr = src ? tc_index_nonempty(src, rs, rt) : ni;
    if (tc_tensor_numel(index) == 0) { /* nothing written, nothing checked further */
        p->flags |= TC_PLAN_NO_KERNEL;
        return tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype);
    }
    /* PyTorch's scatter_shape_check, in its order: src's missing dims fail as an out-of-range dim */
    if (ns != ni)
        return tc_set_error(TC_ERR_RUNTIME, "Index tensor must have the same number of dimensions as self tensor");
    bool wrong = false;
    for (int32_t d = 0; d < ni && !wrong; d++) wrong = d != dim && is[d] > ss[d];
    for (int32_t d = 0; d < ni && !wrong && src; d++) {
        int32_t unused;
        if (d >= nr && src->ndim > 0) return tc_shape_wrap_dim(d, src->ndim, &unused);
        wrong = is[d] > (d < nr ? rs[d] : 1); /* a 0-dim src has size 1 at every dim */
    }
    if (src && nr != ni)
        return tc_set_error(TC_ERR_RUNTIME, "Index tensor must have the same number of dimensions as src tensor");
    if (wrong) return index_smaller_error(index, self, src, dim);
    tc_tensor *values = src;
    if (!src) {
        if (tc_index_check_fits(c->args[3].v.scalar, self->dtype)) return TC_FAIL;
        if (!(values = tc_index_value_tensor(c, c->args[3].v.scalar, self->dtype))) return TC_FAIL;
    }
    int rc = TC_FAIL;
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) goto done;
    int64_t os[TC_MAX_DIMS], ot[TC_MAX_DIMS], strides[TC_MAX_DIMS], vstrides[TC_MAX_DIMS];
    tc_index_nonempty(p->out[0], os, ot);
    for (int32_t d = 0; d < ni; d++) {
        strides[d] = d == dim ? 0 : ot[d];
        vstrides[d] = src ? rt[d] : 0;
    }
    /* a 0-dim index with a 1-dim self (or the reverse) works at the index's rank */
    int32_t ndim = index->ndim;
    p->dtype = self->dtype;
    if (tc_plan_kernel_view(p, 0, ndim, index->sizes, strides) ||
        tc_index_plan_view(p, values, false, ndim, index->sizes, vstrides) ||
        tc_index_plan_view(p, index, false, ndim, index->sizes, index->strides))
        goto done;
    if (tc_plan_int(p, mode) || tc_plan_int(p, include_self) || tc_plan_int(p, TC_INDEX_BOUNDS_RT) ||
        tc_plan_int(p, dim))
        goto done;
    rc = tc_index_plan_dims(p, 1, &os[dim], &ot[dim]);
done:
    if (values != src) tc_tensor_release(values);
    return rc;
}

/* ---- linear indices: take and put_ ---------------------------------------------------------------- */

/* The dims a linear index walks in t: t's dims with size-1 dims dropped and row-major runs merged, so
 * a contiguous tensor is one dim of stride 1. */
static int32_t linear_dims(const tc_tensor *t, int64_t *sizes, int64_t *strides) {
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 1) continue;
        if (n && strides[n - 1] == t->sizes[d] * t->strides[d]) {
            sizes[n - 1] *= t->sizes[d];
            strides[n - 1] = t->strides[d];
        } else {
            sizes[n] = t->sizes[d];
            strides[n++] = t->strides[d];
        }
    }
    if (n == 0) { /* one element (or a 0-dim tensor) */
        sizes[0] = tc_tensor_numel(t);
        strides[0] = 1;
        n = 1;
    }
    for (int32_t d = 0; d < n; d++)
        if (sizes[d] == 0) { /* empty: one dim of size 0 says it */
            sizes[0] = 0;
            strides[0] = 1;
            return 1;
        }
    return n;
}

/* take(self, index) */
int tc_meta_take(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 1), *out = tc_written_arg(c, 0);
    if (out && out->dtype != self->dtype) /* out= is never cast into, checked first as PyTorch does */
        return tc_set_error(TC_ERR_RUNTIME, "take(): self and out expected to have the same dtype, but got "
                                            "self.dtype = %s and out.dtype = %s", tc_dtype_scalar_name(self->dtype),
                            tc_dtype_scalar_name(out->dtype));
    if (index->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "take(): Expected a long tensor for index, but got %s",
                            tc_dtype_scalar_name(index->dtype));
    if (tc_tensor_numel(self) == 0 && tc_tensor_numel(index) != 0)
        return tc_set_error(TC_ERR_INDEX, "take(): tried to take from an empty tensor");
    if (tc_plan_output(p, 0, index->ndim, index->sizes, self->dtype) || tc_index_check_out_overlap(p, self))
        return TC_FAIL;
    int64_t zeros[TC_MAX_DIMS] = {0}, sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t k = linear_dims(self, sizes, strides);
    p->dtype = self->dtype;
    if (tc_index_plan_view(p, self, false, index->ndim, index->sizes, zeros) ||
        tc_index_plan_view(p, index, false, index->ndim, index->sizes, index->strides))
        return TC_FAIL;
    if (tc_plan_int(p, TC_INDEX_LINEAR) || tc_plan_int(p, 0)) return TC_FAIL;
    return tc_index_plan_dims(p, k, sizes, strides);
}

/* put_(self, index, source, accumulate) */
int tc_meta_put(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 1), *source = tc_arg_tensor(c, 2);
    /* which of several writes to one element lands is PyTorch's CPU kernel's thread schedule (ours is
     * the last in index order, but the switch answers as PyTorch does) */
    if (!tc_arg_bool(c, 3) && tc_deterministic_alert("put_")) return TC_FAIL;
    if (index->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "put_(): Expected a long tensor for index, but got %s",
                            tc_dtype_scalar_name(index->dtype));
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME,
                            "put_(): self and source expected to have the same dtype, but got "
                            "self.dtype = %s and source.dtype = %s",
                            tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(source->dtype));
    int64_t n = tc_tensor_numel(index);
    if (tc_tensor_numel(source) != n)
        return tc_set_error(TC_ERR_INDEX,
                            "put_(): Expected source and index to have the same number of elements, but "
                            "got source.numel() = %lld, index.numel() = %lld",
                            (long long)tc_tensor_numel(source), (long long)n);
    if (tc_tensor_numel(self) == 0 && n != 0)
        return tc_set_error(TC_ERR_INDEX, "put_(): Tried to put elements into an empty tensor");
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    int64_t zeros[TC_MAX_DIMS] = {0}, sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t k = linear_dims(p->out[0], sizes, strides);
    /* index and source are walked in their own row-major orders, as 1-dim sequences */
    tc_tensor *flat_index = tc_reshape(index, TC_INTS(-1)),
              *flat_source = flat_index ? tc_reshape(source, TC_INTS(-1)) : NULL;
    int rc = TC_FAIL;
    p->dtype = self->dtype;
    if (flat_source && tc_plan_kernel_view(p, 0, 1, &n, zeros) == TC_OK && tc_plan_input(p, flat_source, -1) == TC_OK &&
        tc_plan_input(p, flat_index, -1) == TC_OK &&
        tc_plan_int(p, tc_arg_bool(c, 3) ? TC_PUT_ADD : TC_PUT_ASSIGN) == TC_OK && tc_plan_int(p, 1) == TC_OK &&
        tc_plan_int(p, TC_INDEX_LINEAR) == TC_OK && tc_plan_int(p, 0) == TC_OK)
        rc = tc_index_plan_dims(p, k, sizes, strides);
    tc_tensor_release(flat_index);
    tc_tensor_release(flat_source);
    return rc;
}
