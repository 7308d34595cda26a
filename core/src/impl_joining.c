/*
 * Joining and splitting, as composites: stack and its h/v/d/column forms over cat; split, chunk,
 * tensor_split and unbind as lists of views (narrow/slice/select); broadcast_tensors and meshgrid as
 * lists of expanded views. PyTorch's checks and messages, in its order (TensorShape.cpp).
 */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- lists of tensors ----------------------------------------------------------------------------- */

/* A Tensor[] result under construction: a malloc'd array the caller of the op frees (tc_values_release). */
typedef struct tensor_list {
    tc_tensor **items;
    int64_t len, cap;
} tensor_list;

static int list_init(tensor_list *l, int64_t cap) {
    l->len = 0;
    l->cap = cap > 0 ? cap : 1;
    if ((uint64_t)l->cap > SIZE_MAX / sizeof(tc_tensor *) || !(l->items = malloc(sizeof(tc_tensor *) * (size_t)l->cap)))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    return TC_OK;
}

/* Takes over t (NULL: the op that made it failed). */
static int list_push(tensor_list *l, tc_tensor *t) {
    if (!t) return TC_FAIL;
    if (l->len == l->cap) {
        tc_tensor_release(t);
        return tc_set_error(TC_ERR_RUNTIME, "internal error: list overflow");
    }
    l->items[l->len++] = t;
    return TC_OK;
}

static void list_free(tensor_list *l) {
    tc_tensor_vec v = {l->items, l->len};
    tc_tensor_vec_release(&v);
}

/* Returns the list as the op's result, or frees it when rc says the op failed. */
static int list_return(tc_opcall *c, tensor_list *l, int rc) {
    if (rc) {
        list_free(l);
        return TC_FAIL;
    }
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR_LIST, .v.tensors = {l->items, l->len}};
    return TC_OK;
}

static tc_tensor_list arg_list(const tc_opcall *c, int i) {
    return (tc_tensor_list){c->args[i].v.tensors.items, c->args[i].v.tensors.len};
}

/* ---- joining ---------------------------------------------------------------------------------------- */

/* concat / concatenate (tensors, dim): cat's other names. */
int tc_impl_concat(tc_opcall *c) { return tc_return(c, tc_cat(arg_list(c, 0), tc_arg_int(c, 1))); }

/* cat of `n` tensors each made by `shape` (which returns a new reference), along dim. */
static int cat_of(tc_opcall *c, tc_tensor_list in, int64_t dim, tc_tensor *(*shape)(tc_tensor *, int64_t),
                  int64_t arg) {
    tensor_list l;
    if (list_init(&l, in.len)) return TC_FAIL;
    int rc = TC_OK;
    for (int64_t i = 0; i < in.len && rc == TC_OK; i++) rc = list_push(&l, shape(in.items[i], arg));
    tc_tensor *r = rc ? NULL : tc_cat((tc_tensor_list){l.items, l.len}, dim);
    list_free(&l);
    return tc_return(c, r);
}

static tc_tensor *unsqueezed(tc_tensor *t, int64_t dim) { return tc_unsqueeze(t, dim); }

/* stack(tensors, dim): each tensor unsqueezed at dim, then cat. */
int tc_impl_stack(tc_opcall *c) {
    tc_tensor_list in = arg_list(c, 0);
    if (in.len == 0) return tc_set_error(TC_ERR_RUNTIME, "stack expects a non-empty TensorList");
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), in.items[0]->ndim + 1, &dim)) return TC_FAIL;
    for (int64_t i = 1; i < in.len; i++) {
        const tc_tensor *a = in.items[0], *b = in.items[i];
        if (tc_shape_equal(a->ndim, a->sizes, b->ndim, b->sizes)) continue;
        char sa[256], sb[256];
        tc_shape_format(a->ndim, a->sizes, sa, sizeof sa);
        tc_shape_format(b->ndim, b->sizes, sb, sizeof sb);
        return tc_set_error(TC_ERR_RUNTIME,
                            "stack expects each tensor to be equal size, but got %s at entry 0 and %s "
                            "at entry %lld",
                            sa, sb, (long long)i);
    }
    return cat_of(c, in, dim, unsqueezed, dim);
}

/* numpy's atleast_{1,2,3}d: a 0-dim tensor becomes [1]*n; a 1-dim one [1, k] (2d) or [1, k, 1] (3d);
 * a 2-dim one [a, b, 1] (3d). */
static tc_tensor *at_least(tc_tensor *t, int64_t n) {
    if (t->ndim >= n) return tc_alias(t);
    int64_t sizes[3] = {1, 1, 1};
    if (t->ndim == 1) sizes[1] = t->sizes[0];
    if (t->ndim == 2) {
        sizes[0] = t->sizes[0];
        sizes[1] = t->sizes[1];
    }
    return tc_reshape(t, (tc_int_list){sizes, n});
}

static int check_nonempty(tc_tensor_list in, const char *op) {
    if (in.len) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s expects a non-empty TensorList", op);
}

/* hstack(tensors): along dim 1, or 0 for vectors. */
int tc_impl_hstack(tc_opcall *c) {
    tc_tensor_list in = arg_list(c, 0);
    if (check_nonempty(in, "hstack")) return TC_FAIL;
    return cat_of(c, in, in.items[0]->ndim <= 1 ? 0 : 1, at_least, 1);
}

/* vstack / row_stack (tensors): atleast_2d, along dim 0. */
int tc_impl_vstack(tc_opcall *c) {
    tc_tensor_list in = arg_list(c, 0);
    if (check_nonempty(in, "vstack")) return TC_FAIL;
    return cat_of(c, in, 0, at_least, 2);
}

/* dstack(tensors): atleast_3d, along dim 2. */
int tc_impl_dstack(tc_opcall *c) {
    tc_tensor_list in = arg_list(c, 0);
    if (check_nonempty(in, "dstack")) return TC_FAIL;
    return cat_of(c, in, 2, at_least, 3);
}

/* A vector or scalar as a column [n, 1]; other tensors as they are. */
static tc_tensor *as_column(tc_tensor *t, int64_t unused) {
    if (t->ndim > 1) return tc_alias(t);
    int64_t sizes[2] = {tc_tensor_numel(t), 1};
    return tc_reshape(t, (tc_int_list){sizes, 2});
}

/* column_stack(tensors): vectors as columns, then hstack. */
int tc_impl_column_stack(tc_opcall *c) {
    tc_tensor_list in = arg_list(c, 0);
    if (check_nonempty(in, "column_stack")) return TC_FAIL;
    tensor_list l;
    if (list_init(&l, in.len)) return TC_FAIL;
    int rc = TC_OK;
    for (int64_t i = 0; i < in.len && rc == TC_OK; i++) rc = list_push(&l, as_column(in.items[i], 0));
    tc_tensor *r = rc ? NULL : tc_hstack((tc_tensor_list){l.items, l.len});
    list_free(&l);
    return tc_return(c, r);
}

/* ---- splitting ------------------------------------------------------------------------------------ */

/* The size of self along dim for the split family, which refuses 0-dim tensors. */
static int split_dim(const tc_tensor *self, int64_t dim, const char *what, int32_t *d) {
    if (self->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "%s", what);
    return tc_shape_wrap_dim(dim, self->ndim, d);
}

/* split.Tensor(self, split_size, dim): pieces of split_size, the last one shorter. */
int tc_impl_split_Tensor(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t size = tc_arg_int(c, 1);
    int32_t dim;
    if (split_dim(self, tc_arg_int(c, 2), "split expects at least a 1-dimensional tensor", &dim)) return TC_FAIL;
    if (size < 0)
        return tc_set_error(TC_ERR_RUNTIME, "split expects split_size be non-negative, but got split_size=%lld",
                            (long long)size);
    int64_t dim_size = self->sizes[dim];
    if (size == 0 && dim_size != 0)
        return tc_set_error(TC_ERR_RUNTIME,
                            "split_size can only be 0 if dimension size is 0, but got dimension size "
                            "of %lld",
                            (long long)dim_size);
    int64_t n = size ? (dim_size + size - 1) / size : 1;
    if (n < 1) n = 1;
    tensor_list l;
    if (list_init(&l, n)) return TC_FAIL;
    int rc = TC_OK;
    for (int64_t i = 0; i < n && rc == TC_OK; i++) {
        int64_t start = i * size, length = i < n - 1 ? size : dim_size - start;
        rc = list_push(&l, tc_narrow(self, dim, start, length));
    }
    return list_return(c, &l, rc);
}

/* PyTorch prints split_sizes as a list, "[1, 1]". */
static void sizes_text(tc_int_list sizes, char *buf, size_t len) {
    tc_shape_format((int32_t)(sizes.len < TC_MAX_DIMS ? sizes.len : TC_MAX_DIMS), sizes.items, buf, len);
}

/* split_with_sizes / split.sizes / split (self, split_sizes, dim): pieces of the given sizes. */
int tc_impl_split_with_sizes(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list sizes = tc_arg_ints(c, 1);
    int32_t dim;
    if (split_dim(self, tc_arg_int(c, 2), "split expects at least a 1-dimensional tensor", &dim)) return TC_FAIL;
    tensor_list l;
    if (list_init(&l, sizes.len)) return TC_FAIL;
    int64_t start = 0;
    int rc = TC_OK;
    for (int64_t i = 0; i < sizes.len && rc == TC_OK; i++) {
        if (sizes.items[i] < 0) {
            char text[512];
            sizes_text(sizes, text, sizeof text);
            rc = tc_set_error(TC_ERR_RUNTIME,
                              "split_with_sizes expects split_sizes have only non-negative entries, but "
                              "got split_sizes=%s",
                              text);
            break;
        }
        rc = list_push(&l, tc_narrow(self, dim, start, sizes.items[i]));
        start += sizes.items[i];
    }
    if (rc == TC_OK && start != self->sizes[dim]) {
        char text[512];
        sizes_text(sizes, text, sizeof text);
        rc = tc_set_error(TC_ERR_RUNTIME,
                          "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's "
                          "size at dimension %d), but got split_sizes=%s",
                          (long long)self->sizes[dim], dim, text);
    }
    return list_return(c, &l, rc);
}

static const char *tensor_split_0dim = "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 "
                                       "dims";

/* The pieces of self along dim between consecutive bounds (slice semantics: clamped, never negative). */
static int split_at(tc_opcall *c, tc_tensor *self, int32_t dim, const int64_t *bounds, int64_t n_bounds) {
    tensor_list l;
    if (list_init(&l, n_bounds + 1)) return TC_FAIL;
    int64_t start = 0;
    int rc = TC_OK;
    for (int64_t i = 0; i <= n_bounds && rc == TC_OK; i++) {
        int64_t end = i < n_bounds ? bounds[i] : self->sizes[dim];
        rc = list_push(&l, tc_slice_Tensor(self, dim, &start, &end, 1));
        start = end;
    }
    return list_return(c, &l, rc);
}

static int split_sections(tc_opcall *c, tc_tensor *self, int64_t sections, int64_t dim_arg) {
    int32_t dim;
    if (split_dim(self, dim_arg, tensor_split_0dim, &dim)) return TC_FAIL;
    if (sections <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "number of sections must be larger than 0, got %lld", (long long)sections);
    if ((uint64_t)sections > SIZE_MAX / sizeof(int64_t)) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    int64_t size = self->sizes[dim], each = size / sections, extra = size % sections;
    int64_t *bounds = malloc(sizeof(int64_t) * (size_t)sections);
    if (!bounds) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t i = 0, at = 0; i < sections; i++) {
        at += each + (i < extra);
        bounds[i] = at;
    }
    int rc = split_at(c, self, dim, bounds, sections - 1);
    free(bounds);
    return rc;
}

/* tensor_split.sections(self, sections, dim): as equal as possible, the first ones one longer. */
int tc_impl_tensor_split_sections(tc_opcall *c) {
    return split_sections(c, tc_arg_tensor(c, 0), tc_arg_int(c, 1), tc_arg_int(c, 2));
}

/* tensor_split.indices(self, indices, dim): cut before each index. */
int tc_impl_tensor_split_indices(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list at = tc_arg_ints(c, 1);
    int32_t dim;
    if (split_dim(self, tc_arg_int(c, 2), tensor_split_0dim, &dim)) return TC_FAIL;
    return split_at(c, self, dim, at.items, at.len);
}

/* tensor_split.tensor_indices_or_sections(self, t, dim): a 0-dim t is the number of sections, a
 * 1-dim one the indices; read on the host. */
int tc_impl_tensor_split_tensor_indices_or_sections(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *t = tc_arg_tensor(c, 1);
    if (self->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "%s", tensor_split_0dim);
    if (t->device.type != TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_RUNTIME,
                            "tensor_split expected tensor_indices_or_sections to be on cpu, but it's on "
                            "%s",
                            tc_device_type_name(t->device.type));
    if (t->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME,
                            "tensor_split expected tensor_indices_or_sections to have dtype of long, but "
                            "got %s",
                            tc_dtype_scalar_name(t->dtype));
    if (t->ndim > 1)
        return tc_set_error(TC_ERR_RUNTIME,
                            "tensor_split expected tensor_indices_or_sections to be a zero-dimensional "
                            "or one-dimensional tensor, but got a tensor with %d dims",
                            t->ndim);
    int64_t n = tc_tensor_numel(t);
    if (t->ndim == 0) {
        tc_scalar s;
        if (tc_tensor_get(t, 0, &s)) return TC_FAIL;
        return split_sections(c, self, s.v.i, tc_arg_int(c, 2));
    }
    int64_t *at = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    if (!at) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    int rc = TC_OK;
    for (int64_t i = 0; i < n && rc == TC_OK; i++) {
        tc_scalar s;
        rc = tc_tensor_get(t, i, &s);
        at[i] = s.v.i;
    }
    int32_t dim;
    if (rc == TC_OK) rc = tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &dim);
    if (rc == TC_OK) rc = split_at(c, self, dim, at, n);
    free(at);
    return rc;
}

/* chunk(self, chunks, dim): pieces of ceil(size / chunks); as many empty pieces as asked of an empty dim. */
int tc_impl_chunk(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t chunks = tc_arg_int(c, 1);
    int32_t dim;
    if (self->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
    if (chunks <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: %lld",
                            (long long)chunks);
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &dim)) return TC_FAIL;
    int64_t size = self->sizes[dim], each = size / chunks + (size % chunks != 0);
    if (size == 0) {
        if ((uint64_t)chunks > SIZE_MAX / sizeof(int64_t)) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        int64_t *zeros = calloc((size_t)chunks, sizeof(int64_t));
        if (!zeros) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        tc_tensor_vec pieces;
        int rc = tc_split_with_sizes(self, (tc_int_list){zeros, chunks}, dim, &pieces);
        free(zeros);
        if (rc) return TC_FAIL;
        c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR_LIST, .v.tensors = {pieces.items, pieces.len}};
        return TC_OK;
    }
    tc_tensor_vec pieces;
    if (tc_split_Tensor(self, each, dim, &pieces)) return TC_FAIL;
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR_LIST, .v.tensors = {pieces.items, pieces.len}};
    return TC_OK;
}

/* unbind.int(self, dim): every index along dim, selected. */
int tc_impl_unbind_int(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dim;
    if (self->ndim == 0) return tc_set_error(TC_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    tensor_list l;
    if (list_init(&l, self->sizes[dim])) return TC_FAIL;
    int rc = TC_OK;
    for (int64_t i = 0; i < self->sizes[dim] && rc == TC_OK; i++) rc = list_push(&l, tc_select_int(self, dim, i));
    return list_return(c, &l, rc);
}

/* ---- broadcasting --------------------------------------------------------------------------------- */

/* broadcast_tensors(tensors): each expanded to their common shape. */
int tc_impl_broadcast_tensors(tc_opcall *c) {
    tc_tensor_list in = arg_list(c, 0);
    int32_t ndim = 0;
    int64_t shape[TC_MAX_DIMS];
    for (int64_t i = 0; i < in.len; i++)
        if (tc_shape_broadcast(ndim, shape, in.items[i]->ndim, in.items[i]->sizes, &ndim, shape)) return TC_FAIL;
    tensor_list l;
    if (list_init(&l, in.len)) return TC_FAIL;
    int rc = TC_OK;
    for (int64_t i = 0; i < in.len && rc == TC_OK; i++) {
        tc_tensor *t = in.items[i];
        if (tc_shape_equal(t->ndim, t->sizes, ndim, shape)) { /* the tensor itself, as in PyTorch */
            tc_tensor_retain(t);
            rc = list_push(&l, t);
        } else { /* through the op, so that autograd records it */
            rc = list_push(&l, tc_expand(t, (tc_int_list){shape, ndim}, false));
        }
    }
    return list_return(c, &l, rc);
}

static int meshgrid(tc_opcall *c, const char *indexing) {
    tc_tensor_list in = arg_list(c, 0);
    if (in.len == 0) return tc_set_error(TC_ERR_RUNTIME, "meshgrid expects a non-empty TensorList");
    for (int64_t i = 0; i + 1 < in.len; i++) {
        if (in.items[i]->dtype != in.items[i + 1]->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "meshgrid expects all tensors to have the same dtype");
        if (in.items[i]->device.type != in.items[i + 1]->device.type ||
            in.items[i]->device.index != in.items[i + 1]->device.index)
            return tc_set_error(TC_ERR_RUNTIME, "meshgrid expects all tensors to have the same device");
    }
    bool xy = strcmp(indexing, "xy") == 0;
    if (!xy && strcmp(indexing, "ij") != 0)
        return tc_set_error(TC_ERR_RUNTIME,
                            "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", indexing);
    if (in.len > TC_MAX_DIMS) return tc_shape_check_ndim(in.len);
    /* "xy" is "ij" with the first two inputs (and outputs) swapped */
    bool swap = xy && in.len >= 2;
    int64_t shape[TC_MAX_DIMS], view[TC_MAX_DIMS];
    for (int64_t i = 0; i < in.len; i++) {
        const tc_tensor *t = in.items[swap && i < 2 ? 1 - i : i];
        if (t->ndim > 1) {
            char s[256];
            tc_shape_format(t->ndim, t->sizes, s, sizeof s);
            return tc_set_error(TC_ERR_RUNTIME,
                                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a "
                                "tensor of shape %s",
                                s);
        }
        shape[i] = tc_tensor_numel(t);
        view[i] = 1;
    }
    tensor_list l;
    if (list_init(&l, in.len)) return TC_FAIL;
    int rc = TC_OK;
    for (int64_t i = 0; i < in.len && rc == TC_OK; i++) {
        int64_t k = swap && i < 2 ? 1 - i : i; /* the output for input i is the grid of position k */
        view[k] = -1;
        tc_tensor *v = tc_view_default(in.items[i], (tc_int_list){view, in.len});
        view[k] = 1;
        rc = list_push(&l, v ? tc_expand(v, (tc_int_list){shape, in.len}, false) : NULL);
        tc_tensor_release(v);
    }
    return list_return(c, &l, rc);
}

/* meshgrid(tensors): "ij", with PyTorch's warning that the argument will be required. */
int tc_impl_meshgrid(tc_opcall *c) {
    tc_warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.");
    return meshgrid(c, "ij");
}

/* meshgrid.indexing(tensors, *, indexing) */
int tc_impl_meshgrid_indexing(tc_opcall *c) { return meshgrid(c, c->args[1].v.s); }
