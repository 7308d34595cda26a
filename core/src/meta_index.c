/*
 * Meta functions of advanced indexing: index.Tensor (x[idx]) and index_put_ (x[idx] = v).
 *
 * Every op that reads or writes a tensor at positions given by index tensors runs one of two kernels
 * (torch_core/tc_indexing.h has their ints):
 *
 *   index      out[e] = src[e + sum_j idx_j[e] * stride_j]     (index, index_select, gather, take)
 *   index_put  dst[e + sum_j idx_j[e] * stride_j] op= values[e]  (index_put_, index_add_, index_copy_,
 *                                                    index_fill_, put_, scatter_*, scatter_reduce_)
 *
 * Every operand is presented to the kernel at one shape, the "result shape" of the indexing: the
 * tensor read (or written) is restrided with stride 0 along the dims the indices replace, and each
 * index is broadcast over the dims it does not cover. So the kernels are plain elementwise loops,
 * and each op's meta function only decides that geometry, its checks and its error style, as
 * PyTorch's AdvancedIndex (TensorAdvancedIndexing.cpp) and the per-op checks do. Here: masks become
 * the coordinates of their true elements (nonzero), except for x[mask] over leading dims, which goes
 * straight to the masked_select kernel.
 */
#include "core_internal.h"
#include "indexing.h"
#include "torch_core/tc_indexing.h"

#include <stdio.h>
#include <string.h>

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
    return tc_set_error(TC_ERR_INDEX,
                        "The shape of the mask %s at index %d does not match the shape of the indexed "
                        "tensor %s at index %d",
                        m, j, s, src);
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
        if (!col)
            rc = TC_FAIL;
        else
            slots[(*n)++] = col;
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
        if (!(a->idx[a->k] = tc_expand_to(slots[i], a->n_shape, a->shape)))
            rc = TC_FAIL;
        else
            a->k++;
    }
    for (int32_t i = 0; i < n; i++) tc_tensor_release(slots[i]);
    if (rc == TC_OK) rc = tc_shape_check_ndim(a->n_shape + a->n_rest); /* the result's rank */
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
        if (tc_index_plan_view(p, a->idx[j], false, ndim, sizes, strides)) return TC_FAIL;
        isizes[j] = t->sizes[a->dims[j]];
        istrides[j] = t->strides[a->dims[j]];
    }
    return tc_index_plan_dims(p, a->k, isizes, istrides);
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
    if (tc_plan_output(p, 0, ndim, sizes, self->dtype) ||
        tc_index_check_out_overlap(p, self))
        goto done;
    adv_strides(&a, self, strides);
    p->dtype = self->dtype;
    if (tc_index_plan_view(p, self, false, ndim, sizes, strides)) goto done;
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
        if ((t->dtype != TC_BOOL && t->dtype != TC_UINT8) || mask || t->device.type != self->device.type ||
            t->device.index != self->device.index)
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
    return tc_set_error(TC_ERR_RUNTIME,
                        "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                        "result of shape %s",
                        v, r);
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
    /* PyTorch's assert_no_overlap(self, values): any shared element, even when nothing is written */
    if (tc_check_no_overlap(self, values)) return TC_FAIL;
    adv_index a;
    if (adv_build(self, indices, &a)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t ndim = adv_sizes(&a, self, sizes);
    int rc = TC_FAIL;
    if (!tc_index_expandable(values->ndim, values->sizes, ndim, sizes)) {
        value_mismatch(values, ndim, sizes);
        goto done;
    }
    if (values->dtype != self->dtype) {
        tc_set_error(TC_ERR_RUNTIME,
                     "Index put requires the source and destination dtypes match, got %s for the "
                     "destination and %s for the source.",
                     tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(values->dtype));
        goto done;
    }
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) goto done;
    tc_tensor *out = p->out[0];
    adv_strides(&a, out, strides);
    p->dtype = self->dtype;
    if (tc_plan_kernel_view(p, 0, ndim, sizes, strides) || tc_index_plan_broadcast(p, values, ndim, sizes)) goto done;
    if (tc_plan_int(p, accumulate ? TC_PUT_ADD : TC_PUT_ASSIGN) || tc_plan_int(p, 1) ||
        tc_plan_int(p, TC_INDEX_BOUNDS) || tc_plan_int(p, 0))
        goto done;
    rc = adv_plan_indices(p, &a, out, ndim, sizes);
done:
    adv_release(&a);
    return rc;
}
