/* Basic indexing: ints, slices (positive steps), None, Ellipsis and bools, for reading and
 * assignment. Each step is a view op through its typed entry (select, slice, unsqueeze); assignment
 * is copy_ or fill_ on the selected view. */
#include "tp.h"

static int is_bool_index(PyObject *o) { return PyBool_Check(o) || tp_is_numpy_bool(o); }

/* The view that `key` selects (new reference), NULL with an exception. */
static tc_tensor *index_view(tc_tensor *t, PyObject *key) {
    PyObject *items[TC_MAX_DIMS + 1];
    Py_ssize_t n;
    if (PyTuple_Check(key)) {
        n = PyTuple_GET_SIZE(key);
        if (n > TC_MAX_DIMS) {
            PyErr_SetString(PyExc_IndexError, "too many indices");
            return NULL;
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
        return NULL;
    }
    if (specified > t->ndim) {
        if (t->ndim == 0) /* PyTorch's hint for the common mistake */
            PyErr_SetString(PyExc_IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                              "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
        return NULL;
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
            /* x[True] adds a dim of size 1, x[False] one of size 0 (a mask over a new dim) */
            int truth = PyObject_IsTrue(item);
            if (truth < 0) goto fail;
            next = tc_unsqueeze(cur, dim);
            if (next && !truth) {
                tc_tensor *empty = tc_slice_Tensor(next, dim, TC_SOME_INT(0), TC_SOME_INT(0), 1);
                tc_tensor_release(next);
                next = empty;
            }
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
            if (dim >= cur->ndim) {
                PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", cur->ndim);
                goto fail;
            }
            PySlice_AdjustIndices((Py_ssize_t)cur->sizes[dim], &start, &stop, step);
            int64_t begin = start, end = stop < start ? start : stop;
            next = tc_slice_Tensor(cur, dim, &begin, &end, step);
            dim++;
        } else if ((PyLong_Check(item) && !PyBool_Check(item)) || (tp_is_tensor(item) && tp_unwrap(item)->ndim == 0 &&
                                          tc_dtype_is_integral(tp_unwrap(item)->dtype)) ||
                   (!PyBool_Check(item) && !tp_is_tensor(item) && PyIndex_Check(item))) {
            PyObject *index = PyNumber_Index(item);
            if (!index) goto fail;
            long long v = PyLong_AsLongLong(index);
            Py_DECREF(index);
            if (v == -1 && PyErr_Occurred()) goto fail;
            next = tc_select_int(cur, dim, v);
        } else {
            PyErr_Format(PyExc_IndexError,
                         "only integers, slices (`:`), ellipsis (`...`) and None are valid indices (got %s); "
                         "indexing with tensors, lists and bools is not supported yet",
                         Py_TYPE(item)->tp_name);
            goto fail;
        }
        tc_tensor_release(cur);
        cur = next;
        if (!cur) tp_raise_core_error();
    }
    return cur;
fail:
    tc_tensor_release(cur);
    return NULL;
}

PyObject *tp_getitem(PyObject *self, PyObject *key) {
    tc_tensor *v = index_view(tp_unwrap(self), key);
    return v ? tp_wrap(v) : NULL;
}

int tp_setitem(PyObject *self, PyObject *key, PyObject *value) {
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "tensor items cannot be deleted");
        return -1;
    }
    tc_tensor *v = index_view(tp_unwrap(self), key);
    if (!v) return -1;
    int rc;
    tc_tensor *r;
    if (tp_is_tensor(value)) {
        /* PyTorch drops the value's leading size-1 dims first (slicePrefix1sDims), so x[0, 0] = a
         * one-element [1] tensor and x[0] = a [1, n] row both work; then the value is expanded to
         * the selection (with expand's message when it cannot be) and copied in */
        tc_tensor *src = tp_unwrap(value);
        int32_t lead = 0;
        while (lead < src->ndim && src->sizes[lead] == 1) lead++;
        tc_tensor *trimmed = tc_as_strided(src, (tc_int_list){src->sizes + lead, src->ndim - lead},
                                           (tc_int_list){src->strides + lead, src->ndim - lead}, &src->offset);
        tc_tensor *expanded = trimmed ? tc_expand(trimmed, (tc_int_list){v->sizes, v->ndim}, false) : NULL;
        r = expanded ? tc_copy_(v, expanded, false) : NULL;
        tc_tensor_release(trimmed);
        tc_tensor_release(expanded);
    } else {
        tc_scalar s;
        if (tp_parse_scalar(value, &s)) {
            tc_tensor_release(v);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "can't assign a %s to a tensor", Py_TYPE(value)->tp_name);
            return -1;
        }
        r = tc_fill__Scalar(v, s);
    }
    rc = r ? TC_OK : TC_FAIL;
    tc_tensor_release(r);
    tc_tensor_release(v);
    if (rc) {
        tp_raise_core_error();
        return -1;
    }
    return 0;
}
