/*
 * Meta functions of the ops that read or write a tensor at positions given by index tensors. Two
 * kernels serve them all (tc_indexing.h has their ints):
 *
 *   index      out[e] = src[e + sum_j idx_j[e] * stride_j]     (index, index_select, gather, take)
 *   index_put  dst[e + sum_j idx_j[e] * stride_j] op= values[e]  (index_put_, index_add_, index_copy_,
 *                                                    index_fill_, put_, scatter_*, scatter_reduce_)
 *
 * Every operand is presented to the kernel at one shape, the "result shape" of the indexing: the
 * tensor read (or written) is restrided with stride 0 along the dims the indices replace, and each
 * index is broadcast over the dims it does not cover. So the kernels are plain elementwise loops,
 * and each op's meta function only decides that geometry, its checks and its error style, as
 * PyTorch's AdvancedIndex (TensorAdvancedIndexing.cpp) and the per-op checks do.
 */
#include "core_internal.h"
#include "torch_core/tc_indexing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PyTorch names C++ types in conversion errors ("value cannot be converted to type float"). */
static const char *cpp_type_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool", "uint8_t", "int8_t", "int16_t", "int", "int64_t",
                                               "c10::Half", "c10::BFloat16", "float", "double"};
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? names[dtype] : "?";
}

int tc_index_check_fits(tc_scalar value, int32_t dtype) {
    if (tc_scalar_fits(value, dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow", cpp_type_name(dtype));
}

int tc_index_fill_value(const tc_opcall *c, int arg, int32_t dtype, const char *op, tc_tensor **value) {
    if (c->args[arg].tag == TC_VALUE_TENSOR) {
        tc_tensor *v = c->args[arg].v.tensor;
        if (v->ndim != 0)
            return tc_set_error(TC_ERR_RUNTIME, "%s only supports a 0-dimensional value tensor, but got tensor with %d "
                                                "dimension(s).", op, v->ndim);
        *value = tc_kernel_cast(v, dtype);
    } else {
        if (tc_index_check_fits(c->args[arg].v.scalar, dtype)) return TC_FAIL;
        *value = tc_index_value_tensor(c, c->args[arg].v.scalar, dtype);
    }
    return *value ? TC_OK : TC_FAIL;
}

/* A 0-dim tensor of `dtype` holding value, on the call's device; the kernels read it through zero strides. */
tc_tensor *tc_index_value_tensor(const tc_opcall *c, tc_scalar value, int32_t dtype) {
    tc_tensor *host = tc_scalar_tensor(value, dtype);
    if (!host || (c->device.type == TC_DEVICE_CPU && c->device.index == 0)) return host;
    tc_tensor *moved = tc__to_copy(host, -1, -1, &c->device, NULL, false, -1);
    tc_tensor_release(host);
    return moved;
}

int tc_index_check_out_overlap(const tc_plan *p, const tc_tensor *read) {
    const tc_tensor *out = p->out[0];
    if (p->call->op->variant == TC_VARIANT_FUNCTIONAL || out->storage != read->storage || tc_tensor_numel(out) == 0 ||
        tc_tensor_numel(read) == 0)
        return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to "
                                        "tensor refer to a single memory location. Please clone() the tensor before "
                                        "performing the operation.");
}

/* Adds t as a kernel input, restrided to (ndim, sizes, strides) after converting it to int64 (when
 * `to_long`) in its own shape, so that a broadcast view is never materialised. */
static int plan_view(tc_plan *p, tc_tensor *t, bool to_long, int32_t ndim, const int64_t *sizes,
                     const int64_t *strides) {
    tc_tensor *base = to_long ? tc_kernel_cast(t, TC_INT64) : (tc_tensor_retain(t), t);
    if (!base) return TC_FAIL;
    tc_tensor *v = tc_tensor_restride(base, ndim, sizes, strides, base->offset);
    tc_tensor_release(base);
    if (!v) return TC_FAIL;
    int rc = tc_plan_input(p, v, -1);
    tc_tensor_release(v);
    return rc;
}

/* Ints of both kernels end with the indexed dims' sizes and strides. */
static int plan_dims(tc_plan *p, int32_t k, const int64_t *sizes, const int64_t *strides) {
    for (int32_t j = 0; j < k; j++)
        if (tc_plan_int(p, sizes[j]) || tc_plan_int(p, strides[j])) return TC_FAIL;
    return TC_OK;
}

/* A 0-dim tensor acts as a 1-dim one of size 1 (PyTorch's ensure_nonempty_dim): its sizes and strides. */
static int32_t nonempty(const tc_tensor *t, int64_t *sizes, int64_t *strides) {
    if (t->ndim == 0) {
        sizes[0] = 1;
        strides[0] = 0;
        return 1;
    }
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    return t->ndim;
}

/* ---- advanced indexing: index.Tensor and index_put_ ---------------------------------------------- */

/* PyTorch's AdvancedIndex: masks replaced by the long indices of their nonzero elements, every index
 * broadcast to one shape, and where the result's dims come from. */
typedef struct adv_index {
    int32_t k;                   /* indexed dims */
    int32_t dims[TC_MAX_DIMS];   /* the dims of self they index, in order */
    tc_tensor *idx[TC_MAX_DIMS]; /* owned: int64, broadcast to `shape` */
    int32_t n_shape;
    int64_t shape[TC_MAX_DIMS]; /* the indices' broadcast shape, which replaces the indexed dims */
    int32_t before;             /* non-indexed dims placed before the index dims in the result */
    int32_t n_rest;
    int32_t rest[TC_MAX_DIMS]; /* the non-indexed dims of self, in result order */
} adv_index;

static void adv_release(adv_index *a) {
    for (int32_t j = 0; j < a->k; j++) tc_tensor_release(a->idx[j]);
    a->k = 0;
}

static int mask_mismatch(const tc_tensor *self, const tc_tensor *mask, int32_t j, int32_t src) {
    char m[256], s[256];
    tc_shape_format(mask->ndim, mask->sizes, m, sizeof m);
    tc_shape_format(self->ndim, self->sizes, s, sizeof s);
    return tc_set_error(TC_ERR_INDEX, "The shape of the mask %s at index %d does not match the shape of the indexed "
                                      "tensor %s at index %d", m, j, s, src);
}

/* Appends to `slots` (the index of each of self's leading dims, NULL for none) what one entry of the
 * index list stands for: itself, or a mask's nonzero coordinates, one per mask dim. */
static int expand_entry(const tc_tensor *self, tc_tensor *t, tc_tensor **slots, int32_t *n) {
    if (!t) {
        if (*n >= TC_MAX_DIMS) return tc_set_error(TC_ERR_INDEX, "too many indices");
        slots[(*n)++] = NULL;
        return TC_OK;
    }
    if (t->dtype != TC_INT64 && t->dtype != TC_UINT8 && t->dtype != TC_BOOL)
        return tc_set_error(TC_ERR_INDEX, "tensors used as indices must be long, byte or bool tensors");
    if (t->dtype == TC_INT64) {
        if (*n >= TC_MAX_DIMS) return tc_set_error(TC_ERR_INDEX, "too many indices");
        tc_tensor_retain(t);
        slots[(*n)++] = t;
        return TC_OK;
    }
    if (t->dtype == TC_UINT8)
        tc_warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
    for (int32_t j = 0; j < t->ndim; j++) {
        int32_t src;
        if (tc_shape_wrap_dim(*n + j, self->ndim, &src)) return TC_FAIL;
        if (t->sizes[j] != self->sizes[src]) return mask_mismatch(self, t, j, src);
    }
    tc_tensor *nz = tc_nonzero(t);
    if (!nz) return TC_FAIL;
    int rc = TC_OK;
    for (int32_t j = 0; j < t->ndim && rc == TC_OK; j++) {
        tc_tensor *col = tc_select_int(nz, 1, j);
        if (!col) rc = TC_FAIL;
        else slots[(*n)++] = col;
    }
    tc_tensor_release(nz);
    return rc;
}

static int broadcast_mismatch(tc_tensor *const *slots, int32_t n) {
    char shapes[1024] = "";
    size_t used = 0;
    for (int32_t i = 0; i < n; i++) {
        if (!slots[i]) continue;
        char one[256];
        tc_shape_format(slots[i]->ndim, slots[i]->sizes, one, sizeof one);
        if (used < sizeof shapes)
            used += (size_t)snprintf(shapes + used, sizeof shapes - used, "%s%s", used ? ", " : "", one);
    }
    tc_error_clear();
    return tc_set_error(TC_ERR_INDEX, "shape mismatch: indexing tensors could not be broadcast together with shapes %s",
                        shapes);
}

static int adv_build(const tc_tensor *self, tc_tensor_list indices, adv_index *a) {
    memset(a, 0, sizeof *a);
    if (indices.len > self->ndim)
        return tc_set_error(TC_ERR_INDEX, "too many indices for tensor of dimension %d (got %lld)", self->ndim,
                            (long long)indices.len);
    tc_tensor *slots[TC_MAX_DIMS] = {0};
    int32_t n = 0;
    int rc = TC_OK;
    for (int64_t i = 0; i < indices.len && rc == TC_OK; i++) rc = expand_entry(self, indices.items[i], slots, &n);
    if (rc == TC_OK && n > self->ndim)
        rc = tc_set_error(TC_ERR_INDEX, "too many indices for tensor of dimension %d (got %d)", self->ndim, n);
    /* the broadcast shape of the indices */
    bool any = false;
    for (int32_t i = 0; i < n && rc == TC_OK; i++) {
        if (!slots[i]) continue;
        if (!any) {
            a->n_shape = slots[i]->ndim;
            memcpy(a->shape, slots[i]->sizes, sizeof(int64_t) * (size_t)a->n_shape);
            any = true;
        } else if (tc_shape_broadcast(a->n_shape, a->shape, slots[i]->ndim, slots[i]->sizes, &a->n_shape, a->shape)) {
            rc = broadcast_mismatch(slots, n);
        }
    }
    /* where the result's dims come from: adjacent indices replace their dims in place, others go first */
    int32_t first = -1, last = -1;
    for (int32_t i = 0; i < n; i++)
        if (slots[i]) {
            if (first < 0) first = i;
            last = i;
        }
    bool adjacent = true;
    for (int32_t i = first; first >= 0 && i <= last; i++) adjacent &= slots[i] != NULL;
    for (int32_t d = 0; d < self->ndim; d++)
        if (d >= n || !slots[d]) a->rest[a->n_rest++] = d;
    a->before = adjacent && first >= 0 ? first : 0;
    for (int32_t i = 0; i < n && rc == TC_OK; i++) {
        if (!slots[i]) continue;
        a->dims[a->k] = i;
        if (!(a->idx[a->k] = tc_expand_to(slots[i], a->n_shape, a->shape))) rc = TC_FAIL;
        else a->k++;
    }
    for (int32_t i = 0; i < n; i++) tc_tensor_release(slots[i]);
    if (rc == TC_OK && any) { /* an index into an empty dim can only be valid when there is no index */
        int64_t count = 1;
        for (int32_t i = 0; i < a->n_shape; i++) count *= a->shape[i];
        for (int32_t j = 0; j < a->k && rc == TC_OK; j++)
            if (self->sizes[a->dims[j]] == 0 && count != 0)
                rc = tc_set_error(TC_ERR_INDEX, "index is out of bounds for dimension with size 0");
    }
    if (rc) adv_release(a);
    return rc;
}

/* The result shape: dims before, the index shape, dims after. */
static int32_t adv_sizes(const adv_index *a, const tc_tensor *self, int64_t *sizes) {
    int32_t n = 0;
    for (int32_t i = 0; i < a->before; i++) sizes[n++] = self->sizes[a->rest[i]];
    for (int32_t i = 0; i < a->n_shape; i++) sizes[n++] = a->shape[i];
    for (int32_t i = a->before; i < a->n_rest; i++) sizes[n++] = self->sizes[a->rest[i]];
    return n;
}

/* Strides of t (self, or the tensor written) seen at the result shape: zero over the index dims. */
static void adv_strides(const adv_index *a, const tc_tensor *t, int64_t *strides) {
    int32_t n = 0;
    for (int32_t i = 0; i < a->before; i++) strides[n++] = t->strides[a->rest[i]];
    for (int32_t i = 0; i < a->n_shape; i++) strides[n++] = 0;
    for (int32_t i = a->before; i < a->n_rest; i++) strides[n++] = t->strides[a->rest[i]];
}

/* The indices as kernel inputs at the result shape, and the indexed dims' sizes and strides of t. */
static int adv_plan_indices(tc_plan *p, const adv_index *a, const tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    int64_t strides[TC_MAX_DIMS], isizes[TC_MAX_DIMS], istrides[TC_MAX_DIMS];
    for (int32_t j = 0; j < a->k; j++) {
        const tc_tensor *ix = a->idx[j];
        for (int32_t d = 0; d < ndim; d++) strides[d] = 0;
        for (int32_t d = 0; d < a->n_shape; d++) strides[a->before + d] = ix->strides[d];
        if (plan_view(p, a->idx[j], false, ndim, sizes, strides)) return TC_FAIL;
        isizes[j] = t->sizes[a->dims[j]];
        istrides[j] = t->strides[a->dims[j]];
    }
    return plan_dims(p, a->k, isizes, istrides);
}

/* x[mask] with a mask over self's leading dims: the elements (or trailing blocks) where it is true, by
 * the masked_select kernel, without materialising the mask's coordinates. 0 when not that case. */
static int index_by_mask(tc_opcall *c, tc_plan *p, tc_tensor *self, tc_tensor_list indices, bool *done) {
    tc_tensor *mask = indices.len == 1 ? indices.items[0] : NULL;
    *done = false;
    if (!mask || (mask->dtype != TC_BOOL && mask->dtype != TC_UINT8) || mask->ndim == 0 || mask->ndim > self->ndim)
        return TC_OK;
    for (int32_t j = 0; j < mask->ndim; j++)
        if (mask->sizes[j] != self->sizes[j]) return mask_mismatch(self, mask, j, j);
    if (mask->dtype == TC_UINT8)
        tc_warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
    int64_t sizes[TC_MAX_DIMS];
    if (tc_masked_count(c, mask, &sizes[0])) return TC_FAIL;
    int32_t ndim = 1 + self->ndim - mask->ndim;
    memcpy(sizes + 1, self->sizes + mask->ndim, sizeof(int64_t) * (size_t)(ndim - 1));
    if (tc_plan_output(p, 0, ndim, sizes, self->dtype) || tc_index_check_out_overlap(p, self)) return TC_FAIL;
    *done = true;
    p->dtype = self->dtype;
    p->kernel = TC_KERNEL_masked_select;
    return tc_plan_input(p, self, -1) || tc_plan_input(p, mask, -1) ? TC_FAIL : TC_OK;
}

/* index.Tensor(self, indices) and index.Tensor_out */
int tc_meta_index(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_tensor_list indices = {c->args[1].v.tensors.items, c->args[1].v.tensors.len};
    bool done;
    if (indices.len > self->ndim)
        return tc_set_error(TC_ERR_INDEX, "too many indices for tensor of dimension %d (got %lld)", self->ndim,
                            (long long)indices.len);
    if (index_by_mask(c, p, self, indices, &done) || done) return done ? TC_OK : TC_FAIL;
    adv_index a;
    if (adv_build(self, indices, &a)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t ndim = adv_sizes(&a, self, sizes);
    int rc = TC_FAIL;
    if (tc_shape_check_ndim(ndim) || tc_plan_output(p, 0, ndim, sizes, self->dtype) ||
        tc_index_check_out_overlap(p, self))
        goto done;
    adv_strides(&a, self, strides);
    p->dtype = self->dtype;
    if (plan_view(p, self, false, ndim, sizes, strides)) goto done;
    if (tc_plan_int(p, TC_INDEX_BOUNDS) || tc_plan_int(p, 0)) goto done;
    rc = adv_plan_indices(p, &a, self, ndim, sizes);
done:
    adv_release(&a);
    return rc;
}

/* PyTorch writes a one-element value through a single mask with masked_fill_ (canDispatchToMaskedFill),
 * which converts the value instead of requiring self's dtype. */
static int index_put_by_mask(tc_opcall *c, tc_plan *p, bool *done) {
    tc_tensor *self = tc_arg_tensor(c, 0), *values = tc_arg_tensor(c, 2);
    const tc_value *list = &c->args[1];
    *done = false;
    if (tc_arg_bool(c, 3) || tc_tensor_numel(values) != 1 || values->device.type != TC_DEVICE_CPU) return TC_OK;
    tc_tensor *mask = NULL;
    int32_t at = 0, mask_at = 0;
    for (int64_t i = 0; i < list->v.tensors.len; i++) {
        tc_tensor *t = list->v.tensors.items[i];
        if (!t) {
            at++;
            continue;
        }
        if ((t->dtype != TC_BOOL && t->dtype != TC_UINT8) || mask ||
            t->device.type != self->device.type || t->device.index != self->device.index)
            return TC_OK;
        for (int32_t j = 0; j < t->ndim; j++) {
            int32_t src;
            if (tc_shape_wrap_dim(at + j, self->ndim, &src)) return TC_FAIL;
            if (t->sizes[j] != self->sizes[src]) return mask_mismatch(self, t, j, src);
        }
        mask = t;
        mask_at = at;
        at += t->ndim;
    }
    if (!mask) return TC_OK;
    /* the mask at self's dims: its own dims from mask_at on, size-1 dims elsewhere */
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    for (int32_t d = 0; d < self->ndim; d++) {
        bool inside = d >= mask_at && d < mask_at + mask->ndim;
        sizes[d] = inside ? mask->sizes[d - mask_at] : 1;
        strides[d] = inside ? mask->strides[d - mask_at] : 0;
    }
    tc_tensor *m = tc_tensor_restride(mask, self->ndim, sizes, strides, mask->offset);
    tc_scalar v;
    tc_tensor *r = NULL;
    if (m && tc__local_scalar_dense(values, &v) == TC_OK) r = tc_masked_fill__Scalar(self, m, v);
    tc_tensor_release(m);
    if (!r) return TC_FAIL;
    tc_tensor_release(r);
    *done = true;
    p->flags |= TC_PLAN_NO_KERNEL;
    return tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype);
}

static int value_mismatch(const tc_tensor *values, int32_t ndim, const int64_t *sizes) {
    char v[256], r[256];
    tc_shape_format(values->ndim, values->sizes, v, sizeof v);
    tc_shape_format(ndim, sizes, r, sizeof r);
    return tc_set_error(TC_ERR_RUNTIME, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                                        "result of shape %s", v, r);
}

/* Whether `from` expands to `to` (PyTorch's is_expandable_to). */
static bool expandable(int32_t nf, const int64_t *from, int32_t nt, const int64_t *to) {
    if (nf > nt) return false;
    for (int32_t i = 0; i < nf; i++) {
        int64_t f = from[nf - 1 - i], t = to[nt - 1 - i];
        if (f != t && f != 1) return false;
    }
    return true;
}

/* Presents `values` at the kernel's shape: trailing dims aligned, broadcast dims with stride 0. */
static int plan_broadcast(tc_plan *p, tc_tensor *values, int32_t ndim, const int64_t *sizes) {
    int64_t strides[TC_MAX_DIMS];
    for (int32_t d = 0; d < ndim; d++) {
        int32_t j = values->ndim - ndim + d;
        strides[d] = j >= 0 && values->sizes[j] == sizes[d] ? values->strides[j] : 0;
    }
    return plan_view(p, values, false, ndim, sizes, strides);
}

/* index_put_(self, indices, values, accumulate) */
int tc_meta_index_put(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *values = tc_arg_tensor(c, 2);
    tc_tensor_list indices = {c->args[1].v.tensors.items, c->args[1].v.tensors.len};
    bool accumulate = tc_arg_bool(c, 3), done;
    if (indices.len > self->ndim)
        return tc_set_error(TC_ERR_INDEX, "too many indices for tensor of dimension %d (got %lld)", self->ndim,
                            (long long)indices.len);
    if (index_put_by_mask(c, p, &done) || done) return done ? TC_OK : TC_FAIL;
    adv_index a;
    if (adv_build(self, indices, &a)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t ndim = adv_sizes(&a, self, sizes);
    int rc = TC_FAIL;
    if (!expandable(values->ndim, values->sizes, ndim, sizes)) {
        value_mismatch(values, ndim, sizes);
        goto done;
    }
    if (values->dtype != self->dtype) {
        tc_set_error(TC_ERR_RUNTIME, "Index put requires the source and destination dtypes match, got %s for the "
                                     "destination and %s for the source.", tc_dtype_scalar_name(self->dtype),
                     tc_dtype_scalar_name(values->dtype));
        goto done;
    }
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) goto done;
    tc_tensor *out = p->out[0];
    adv_strides(&a, out, strides);
    p->dtype = self->dtype;
    if (tc_plan_kernel_view(p, 0, ndim, sizes, strides) || plan_broadcast(p, values, ndim, sizes)) goto done;
    if (tc_plan_int(p, accumulate ? TC_PUT_ADD : TC_PUT_ASSIGN) || tc_plan_int(p, 1) ||
        tc_plan_int(p, TC_INDEX_BOUNDS) || tc_plan_int(p, 0))
        goto done;
    rc = adv_plan_indices(p, &a, out, ndim, sizes);
done:
    adv_release(&a);
    return rc;
}

/* ---- one index along one dim: index_select, index_add_, index_copy_, index_fill_ ----------------- */

/* The geometry of "t with dim's size replaced by the index's length": sizes, t's strides with 0
 * along dim, and the index's strides (0 except along dim). */
static int32_t along_dim(const tc_tensor *t, int32_t dim, const tc_tensor *index, int64_t *sizes, int64_t *strides,
                         int64_t *istrides) {
    int64_t tsizes[TC_MAX_DIMS], tstrides[TC_MAX_DIMS];
    int32_t n = nonempty(t, tsizes, tstrides);
    for (int32_t d = 0; d < n; d++) {
        sizes[d] = d == dim ? tc_tensor_numel(index) : tsizes[d];
        strides[d] = d == dim ? 0 : tstrides[d];
        istrides[d] = d == dim && index->ndim ? index->strides[0] : 0;
    }
    return t->ndim == 0 ? 0 : n; /* a 0-dim tensor stays 0-dim (its index has one element) */
}

/* index_select(self, dim, index) */
int tc_meta_index_select(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2);
    int32_t dim;
    if (index->dtype != TC_INT64 && index->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
    if (index->ndim > 1) return tc_set_error(TC_ERR_INDEX, "index_select(): Index is supposed to be a vector");
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (self->ndim > 1 && tc_tensor_numel(self) == 0 && tc_tensor_numel(index) > 0 && self->sizes[dim] == 0)
        return tc_set_error(TC_ERR_RUNTIME, "index_select(): self indexing axis dim should be positive");
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], istrides[TC_MAX_DIMS], ss[TC_MAX_DIMS], st[TC_MAX_DIMS];
    int32_t ndim = along_dim(self, dim, index, sizes, strides, istrides);
    nonempty(self, ss, st);
    if (tc_plan_output(p, 0, ndim, sizes, self->dtype) || tc_index_check_out_overlap(p, self)) return TC_FAIL;
    p->dtype = self->dtype;
    if (plan_view(p, self, false, ndim, sizes, strides) || plan_view(p, index, true, ndim, sizes, istrides))
        return TC_FAIL;
    if (tc_plan_int(p, TC_INDEX_IN_SELF) || tc_plan_int(p, dim)) return TC_FAIL;
    return plan_dims(p, 1, &ss[dim], &st[dim]);
}

/* Plans the write of `values` (already at the kernel's shape or broadcastable to it) into self's
 * elements along dim at `index`. */
static int plan_put_along(tc_plan *p, tc_tensor *self, int32_t dim, tc_tensor *index, tc_tensor *values, int mode,
                          int style) {
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    tc_tensor *out = p->out[0];
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], istrides[TC_MAX_DIMS], os[TC_MAX_DIMS], ot[TC_MAX_DIMS];
    int32_t ndim = along_dim(out, dim, index, sizes, strides, istrides);
    nonempty(out, os, ot);
    p->dtype = self->dtype;
    if (tc_plan_kernel_view(p, 0, ndim, sizes, strides) || plan_broadcast(p, values, ndim, sizes) ||
        plan_view(p, index, true, ndim, sizes, istrides))
        return TC_FAIL;
    if (tc_plan_int(p, mode) || tc_plan_int(p, 1) || tc_plan_int(p, style) || tc_plan_int(p, dim)) return TC_FAIL;
    return plan_dims(p, 1, &os[dim], &ot[dim]);
}

/* index_add_(self, dim, index, source, *, alpha) */
int tc_meta_index_add(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2), *source = tc_arg_tensor(c, 3);
    int32_t dim, sdim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (index->ndim > 1) {
        char shape[256];
        tc_shape_format(index->ndim, index->sizes, shape, sizeof shape);
        return tc_set_error(TC_ERR_INDEX, "index_add_(): Index is supposed to be a vector, but got dim: %d with type: "
                                          "%s and size: %s", index->ndim, tc_dtype_scalar_name(index->dtype), shape);
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
        return tc_set_error(TC_ERR_RUNTIME, "index_add_(): Number of indices (%lld) should be equal to "
                                            "source.size(dim): (%lld), for dim: %d", (long long)n, (long long)along, dim);
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "index_add_(): self (%s) and source (%s) must have the same scalar type",
                            tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(source->dtype));
    /* the source must broadcast to the slices of self it is added to */
    int64_t want[TC_MAX_DIMS], got[TC_MAX_DIMS], unused[TC_MAX_DIMS];
    int32_t nw = nonempty(self, want, unused), ng;
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
        if (e != dim) used += (size_t)snprintf(buf + used, len - used, "%s%lld", used ? " " : "", (long long)t->sizes[e]);
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
        return tc_set_error(TC_ERR_INDEX, "index_copy_(): When source is scalar, index should have one element (got "
                                          "%lld)", (long long)n);
    if (source->ndim && self->ndim && source->ndim != self->ndim)
        return tc_set_error(TC_ERR_INDEX, "index_copy_(): When source and destination are not scalars, their "
                                          "dimensionality must match. Source dimensionality (%d), destination "
                                          "dimensionality (%d)", source->ndim, self->ndim);
    if (index->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "index_copy_(): Expected a long tensor for index, but got %s",
                            tc_dtype_scalar_name(index->dtype));
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "index_copy_(): self and source expected to have the same dtype, but got "
                                            "(self) %s and (source) %s", tc_dtype_scalar_name(self->dtype),
                            tc_dtype_scalar_name(source->dtype));
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
        return tc_set_error(TC_ERR_RUNTIME, "index_copy_(): Source/destination tensor must have same slice shapes. "
                                            "Destination slice shape: %s at dimension %d and source slice shape: %s at "
                                            "dimension 0.", dtext, dim, stext);
    }
    if (source->ndim && n != source->sizes[dim])
        return tc_set_error(TC_ERR_INDEX, "index_copy_(): Number of indices (%lld) should be equal to source.size(dim) "
                                          "(%lld)", (long long)n, (long long)source->sizes[dim]);
    return plan_put_along(p, self, dim, index, source, TC_PUT_ASSIGN, TC_INDEX_COPY);
}

/* index_fill_.int_Scalar / .int_Tensor (self, dim, index, value) */
int tc_meta_index_fill(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2);
    int32_t dim;
    tc_tensor *value;
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
        return tc_set_error(TC_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %d", i, s,
                            dim);
    tc_shape_format(src->ndim, src->sizes, r, sizeof r);
    return tc_set_error(TC_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %d and to be "
                                        "smaller size than src %s", i, s, dim, r);
}

/* gather(self, dim, index, *, sparse_grad) */
int tc_meta_gather(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (index->dtype != TC_INT64) return tc_set_error(TC_ERR_RUNTIME, "gather(): Expected dtype int64 for index");
    int64_t ss[TC_MAX_DIMS], st[TC_MAX_DIMS], is[TC_MAX_DIMS], it[TC_MAX_DIMS];
    int32_t ns = nonempty(self, ss, st), ni = nonempty(index, is, it);
    if (ns != ni)
        return tc_set_error(TC_ERR_RUNTIME, "Index tensor must have the same number of dimensions as input tensor");
    if (tc_tensor_numel(index) != 0)
        for (int32_t d = 0; d < ns; d++)
            if (d != dim && is[d] > ss[d]) {
                char i[256], s[256];
                tc_shape_format(index->ndim, index->sizes, i, sizeof i);
                tc_shape_format(self->ndim, self->sizes, s, sizeof s);
                return tc_set_error(TC_ERR_RUNTIME, "Size does not match at dimension %d expected index %s to be "
                                                    "smaller than self %s apart from dimension %d", d, i, s, dim);
            }
    if (tc_plan_output(p, 0, index->ndim, index->sizes, self->dtype) || tc_index_check_out_overlap(p, self))
        return TC_FAIL;
    int64_t strides[TC_MAX_DIMS];
    for (int32_t d = 0; d < ni; d++) strides[d] = d == dim ? 0 : st[d];
    p->dtype = self->dtype;
    if (plan_view(p, self, false, index->ndim, index->sizes, strides) || plan_view(p, index, false, index->ndim,
                                                                                    index->sizes, index->strides))
        return TC_FAIL;
    if (tc_plan_int(p, TC_INDEX_BOUNDS_RT) || tc_plan_int(p, dim)) return TC_FAIL;
    return plan_dims(p, 1, &ss[dim], &st[dim]);
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
    int32_t ns = nonempty(self, ss, st), ni = nonempty(index, is, it), nr = src ? nonempty(src, rs, rt) : ni;
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
        if (d >= nr) return tc_shape_wrap_dim(d, src->ndim, &unused);
        wrong = is[d] > rs[d];
    }
    if (wrong) return index_smaller_error(index, self, src, dim);
    tc_tensor *values = src;
    if (!src) {
        if (tc_index_check_fits(c->args[3].v.scalar, self->dtype)) return TC_FAIL;
        if (!(values = tc_index_value_tensor(c, c->args[3].v.scalar, self->dtype))) return TC_FAIL;
    }
    int rc = TC_FAIL;
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) goto done;
    int64_t os[TC_MAX_DIMS], ot[TC_MAX_DIMS], strides[TC_MAX_DIMS], vstrides[TC_MAX_DIMS];
    nonempty(p->out[0], os, ot);
    for (int32_t d = 0; d < ni; d++) {
        strides[d] = d == dim ? 0 : ot[d];
        vstrides[d] = src ? rt[d] : 0;
    }
    /* a 0-dim index with a 1-dim self (or the reverse) works at the index's rank */
    int32_t ndim = index->ndim;
    p->dtype = self->dtype;
    if (tc_plan_kernel_view(p, 0, ndim, index->sizes, strides) ||
        plan_view(p, values, false, ndim, index->sizes, vstrides) ||
        plan_view(p, index, false, ndim, index->sizes, index->strides))
        goto done;
    if (tc_plan_int(p, mode) || tc_plan_int(p, include_self) || tc_plan_int(p, TC_INDEX_BOUNDS_RT) ||
        tc_plan_int(p, dim))
        goto done;
    rc = plan_dims(p, 1, &os[dim], &ot[dim]);
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
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 1);
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
    if (plan_view(p, self, false, index->ndim, index->sizes, zeros) ||
        plan_view(p, index, false, index->ndim, index->sizes, index->strides))
        return TC_FAIL;
    if (tc_plan_int(p, TC_INDEX_LINEAR) || tc_plan_int(p, 0)) return TC_FAIL;
    return plan_dims(p, k, sizes, strides);
}

/* put_(self, index, source, accumulate) */
int tc_meta_put(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 1), *source = tc_arg_tensor(c, 2);
    if (index->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "put_(): Expected a long tensor for index, but got %s",
                            tc_dtype_scalar_name(index->dtype));
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "put_(): self and source expected to have the same dtype, but got "
                                            "self.dtype = %s and source.dtype = %s", tc_dtype_scalar_name(self->dtype),
                            tc_dtype_scalar_name(source->dtype));
    int64_t n = tc_tensor_numel(index);
    if (tc_tensor_numel(source) != n)
        return tc_set_error(TC_ERR_INDEX, "put_(): Expected source and index to have the same number of elements, but "
                                          "got source.numel() = %lld, index.numel() = %lld",
                            (long long)tc_tensor_numel(source), (long long)n);
    if (tc_tensor_numel(self) == 0 && n != 0)
        return tc_set_error(TC_ERR_INDEX, "put_(): Tried to put elements into an empty tensor");
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    int64_t zeros[TC_MAX_DIMS] = {0}, sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t k = linear_dims(p->out[0], sizes, strides);
    /* index and source are walked in their own row-major orders, as 1-dim sequences */
    tc_tensor *flat_index = tc_reshape(index, TC_INTS(-1)), *flat_source = flat_index ? tc_reshape(source, TC_INTS(-1)) : NULL;
    int rc = TC_FAIL;
    p->dtype = self->dtype;
    if (flat_source && tc_plan_kernel_view(p, 0, 1, &n, zeros) == TC_OK && tc_plan_input(p, flat_source, -1) == TC_OK &&
        tc_plan_input(p, flat_index, -1) == TC_OK && tc_plan_int(p, tc_arg_bool(c, 3) ? TC_PUT_ADD : TC_PUT_ASSIGN) == TC_OK &&
        tc_plan_int(p, 1) == TC_OK && tc_plan_int(p, TC_INDEX_LINEAR) == TC_OK && tc_plan_int(p, 0) == TC_OK)
        rc = plan_dims(p, k, sizes, strides);
    tc_tensor_release(flat_index);
    tc_tensor_release(flat_source);
    return rc;
}
