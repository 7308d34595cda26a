/*
 * Basic indexing: ints, slices (positive steps), None, Ellipsis and bools, for reading and
 * assignment. Each step is a view op through its typed entry (select, slice, unsqueeze,
 * as_strided); assignment is copy_ or fill_ on the selected view.
 *
 * A bool (True, False, or a 0-dim bool or uint8 tensor) is PyTorch's degenerate mask: it inserts a
 * dimension like None and indexes it with [0] (True) or [] (False), as advanced indexing does. All
 * such dims of one key broadcast into a single dim of size 1 or 0, which stays where they were when
 * they are adjacent and moves to the front otherwise (advanced indexing's rule). Since a mask makes
 * the index advanced, reading returns a copy, not a view.
 */
#include "tp.h"

#include <string.h>

/* The view a key selects, and what its bools did. */
typedef struct {
    tc_tensor *view;     /* new reference */
    tc_tensor *sliced;   /* with bools: the view before their dims merge (new reference), else NULL */
    int n_bools;         /* dims inserted for bools */
    bool any_false;
    int32_t bool_dims[TC_MAX_DIMS];
} index_result;

static int is_bool_index(PyObject *item) {
    if (PyBool_Check(item)) return 1;
    if (!tp_is_tensor(item)) return 0;
    tc_tensor *t = tp_unwrap(item);
    return t->ndim == 0 && (t->dtype == TC_BOOL || t->dtype == TC_UINT8);
}

static int bool_index_value(PyObject *item, bool *value) {
    if (PyBool_Check(item)) {
        *value = item == Py_True;
        return 0;
    }
    tc_scalar s;
    if (tc__local_scalar_dense(tp_unwrap(item), &s)) return tp_raise_core_error(), -1;
    *value = s.v.i != 0;
    return 0;
}

static int is_int_index(PyObject *item) {
    if (PyLong_Check(item)) return !PyBool_Check(item);
    if (tp_is_tensor(item)) {
        tc_tensor *t = tp_unwrap(item);
        return t->ndim == 0 && tc_dtype_is_integral(t->dtype) && t->dtype != TC_UINT8;
    }
    return PyIndex_Check(item) != 0;
}

/* The bools' dims broadcast into one dim of size 1 (all True) or 0 (any False): in place of the
 * first when they are adjacent, else in front. New reference; releases `v`. */
static tc_tensor *merge_bool_dims(tc_tensor *v, const index_result *r) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    bool is_bool[TC_MAX_DIMS] = {false};
    for (int i = 0; i < r->n_bools; i++) is_bool[r->bool_dims[i]] = true;
    const bool adjacent = r->bool_dims[r->n_bools - 1] - r->bool_dims[0] == r->n_bools - 1;
    const int32_t at = adjacent ? r->bool_dims[0] : 0;
    int32_t n = 0;
    for (int32_t d = 0; d < v->ndim; d++) {
        if (n == at && (!adjacent || d == at)) {
            sizes[n] = r->any_false ? 0 : 1;
            strides[n++] = v->strides[r->bool_dims[0]];
        }
        if (is_bool[d]) continue;
        sizes[n] = v->sizes[d];
        strides[n++] = v->strides[d];
    }
    tc_tensor *merged = tc_as_strided(v, (tc_int_list){sizes, n}, (tc_int_list){strides, n}, &v->offset);
    tc_tensor_release(v);
    return merged;
}

/* Applies `key` to t; 0, or -1 with an exception. */
static int index_view(tc_tensor *t, PyObject *key, index_result *r) {
    PyObject *items[TC_MAX_DIMS + 1];
    Py_ssize_t n;
    memset(r, 0, sizeof *r);
    if (PyTuple_Check(key)) {
        n = PyTuple_GET_SIZE(key);
        if (n > TC_MAX_DIMS) {
            PyErr_SetString(PyExc_IndexError, "too many indices");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) items[i] = PyTuple_GET_ITEM(key, i);
    } else {
        items[0] = key;
        n = 1;
    }
    int specified = 0, ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (items[i] == Py_Ellipsis) ellipses++;
        else if (items[i] != Py_None && !is_bool_index(items[i])) specified++;
    }
    if (ellipses > 1) {
        PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
        return -1;
    }
    if (specified > t->ndim) {
        if (t->ndim == 0) /* PyTorch's hint for the common mistake */
            PyErr_SetString(PyExc_IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                              "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
        return -1;
    }
    tc_tensor_retain(t);
    tc_tensor *cur = t;
    int32_t dim = 0;
    for (Py_ssize_t i = 0; i < n && cur; i++) {
        PyObject *item = items[i];
        tc_tensor *next = NULL;
        if (item == Py_None) {
            next = tc_unsqueeze(cur, dim);
            dim++;
        } else if (is_bool_index(item)) {
            bool value;
            if (bool_index_value(item, &value)) goto fail;
            r->any_false |= !value;
            r->bool_dims[r->n_bools++] = dim;
            next = tc_unsqueeze(cur, dim);
            dim++;
        } else if (item == Py_Ellipsis) {
            /* skip the dims the remaining specified indices do not cover */
            int remaining = 0;
            for (Py_ssize_t j = i + 1; j < n; j++)
                if (items[j] != Py_None && items[j] != Py_Ellipsis && !is_bool_index(items[j])) remaining++;
            dim = cur->ndim - remaining;
            tc_tensor_retain(cur);
            next = cur;
        } else if (PySlice_Check(item)) {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(item, &start, &stop, &step) < 0) goto fail;
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                goto fail;
            }
            PySlice_AdjustIndices((Py_ssize_t)cur->sizes[dim], &start, &stop, step);
            int64_t begin = start, end = stop < start ? start : stop;
            next = tc_slice_Tensor(cur, dim, &begin, &end, step);
            dim++;
        } else if (is_int_index(item)) {
            PyObject *index = PyNumber_Index(item);
            if (!index) goto fail;
            long long v = PyLong_AsLongLong(index);
            Py_DECREF(index);
            if (v == -1 && PyErr_Occurred()) goto fail;
            next = tc_select_int(cur, dim, v);
        } else {
            PyErr_Format(PyExc_IndexError,
                         "only integers, slices (`:`), ellipsis (`...`), None and bools are valid indices (got %s); "
                         "indexing with tensors and lists is not supported yet",
                         Py_TYPE(item)->tp_name);
            goto fail;
        }
        tc_tensor_release(cur);
        cur = next;
        if (!cur) tp_raise_core_error();
    }
    if (cur && r->n_bools) {
        tc_tensor_retain(cur);
        r->sliced = cur;
        if (!(cur = merge_bool_dims(cur, r))) {
            tp_raise_core_error();
            tc_tensor_release(r->sliced);
            r->sliced = NULL;
        }
    }
    r->view = cur;
    return cur ? 0 : -1;
fail:
    tc_tensor_release(cur);
    return -1;
}

PyObject *tp_getitem(PyObject *self, PyObject *key) {
    index_result r;
    if (index_view(tp_unwrap(self), key, &r)) return NULL;
    if (!r.n_bools) return tp_wrap(r.view);
    /* a mask makes the index advanced: the result is a copy */
    tc_tensor *copy = tc_clone(r.view, TC_MEMORY_FORMAT_CONTIGUOUS);
    tc_tensor_release(r.view);
    tc_tensor_release(r.sliced);
    return tp_wrap(copy);
}

/* PyTorch's copy_to (torch/csrc/autograd/python_variable_indexing.cpp): a value of the same shape is
 * copied (copy_'s overlap checks apply), a 0-dim CPU value fills (fill_'s checked conversion), any
 * other value loses its leading size-1 dims and is expanded, then copied. */
static int assign_tensor(tc_tensor *dst, tc_tensor *src) {
    bool same = dst->ndim == src->ndim && memcmp(dst->sizes, src->sizes, sizeof(int64_t) * (size_t)dst->ndim) == 0;
    tc_tensor *r = NULL;
    if (same) {
        r = tc_copy_(dst, src, false);
    } else if (src->ndim == 0 && src->device.type == TC_DEVICE_CPU) {
        tc_scalar s;
        r = tc__local_scalar_dense(src, &s) ? NULL : tc_fill__Scalar(dst, s);
    } else {
        int32_t lead = 0;
        while (lead < src->ndim && src->sizes[lead] == 1) lead++;
        tc_tensor *trimmed = tc_as_strided(src, (tc_int_list){src->sizes + lead, src->ndim - lead},
                                           (tc_int_list){src->strides + lead, src->ndim - lead}, &src->offset);
        tc_tensor *expanded = trimmed ? tc_expand(trimmed, (tc_int_list){dst->sizes, dst->ndim}, false) : NULL;
        r = expanded ? tc_copy_(dst, expanded, false) : NULL;
        tc_tensor_release(expanded);
        tc_tensor_release(trimmed);
    }
    tc_tensor_release(r);
    return r ? TC_OK : TC_FAIL;
}

int tp_setitem(PyObject *self, PyObject *key, PyObject *value) {
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "tensor items cannot be deleted");
        return -1;
    }
    tc_tensor *t = tp_unwrap(self);
    tc_scalar s;
    const int is_tensor = tp_is_tensor(value);
    /* the value is converted before the key is looked at, as in PyTorch: x[False] = 'a' still fails */
    if (!is_tensor) {
        if (tp_parse_scalar(value, &s)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "can't assign a %s to a tensor", Py_TYPE(value)->tp_name);
            return -1;
        }
        if (!tc_scalar_fits(s, t->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                         tc_dtype_name(t->dtype));
            return -1;
        }
    }
    if (key == Py_False) return 0; /* PyTorch writes nothing and checks nothing more */
    index_result r;
    if (index_view(t, key, &r)) return -1;
    int rc = TC_OK;
    /* a mask makes PyTorch write through index_put_, which takes only a value of the tensor's dtype and
     * sharing no memory with the indexed tensor, even when nothing is written (a bare True is the
     * exception: it is copied into a new leading dim) */
    if (r.n_bools && key != Py_True && is_tensor) {
        tc_tensor *v = tp_unwrap(value);
        int overlap = tc_tensor_overlap(r.sliced, v);
        if (v->dtype != t->dtype)
            rc = tc_set_error(TC_ERR_RUNTIME, "Index put requires the source and destination dtypes match, got %s "
                              "for the destination and %s for the source.", tc_dtype_name(t->dtype),
                              tc_dtype_name(v->dtype));
        else if (overlap == TC_OVERLAP_PARTIAL || overlap == TC_OVERLAP_FULL)
            rc = tc_set_error(TC_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the "
                              "written-to tensor refer to a single memory location. Please clone() the tensor "
                              "before performing the operation.");
    }
    if (rc == TC_OK && is_tensor) {
        rc = assign_tensor(r.view, tp_unwrap(value));
    } else if (rc == TC_OK) {
        tc_tensor *filled = tc_fill__Scalar(r.view, s);
        rc = filled ? TC_OK : TC_FAIL;
        tc_tensor_release(filled);
    }
    tc_tensor_release(r.view);
    tc_tensor_release(r.sliced);
    if (rc) {
        tp_raise_core_error();
        return -1;
    }
    return 0;
}
