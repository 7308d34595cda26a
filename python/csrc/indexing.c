/*
 * Tensor indexing from Python, as PyTorch does it (torch/csrc/autograd/python_variable_indexing.cpp
 * and ATen's TensorIndexing.h): the key is applied item by item to a view (ints select, slices
 * slice, None unsqueezes, Ellipsis skips dims), and tensors, lists and bools are recorded as index
 * tensors at the dim they apply to. With none recorded the result is the view; otherwise it goes
 * through the ops index.Tensor (reading) and index_put_ (writing), whose meta functions do the rest
 * of PyTorch's advanced indexing (masks, broadcasting, where the indexed dims land).
 *
 * A bool (True/False, or a 0-dim bool or uint8 tensor) inserts a dim like None and indexes it with
 * [0] or an empty index; a 0-dim integer tensor is an int; a list is one index tensor (long, or bool
 * when its items are), unless it holds slices, None, Ellipsis, tensors or lists, when it is a tuple
 * (numpy's old rule, kept by PyTorch for short lists).
 */
#include "tp.h"

#include <string.h>

/* What a key selected: the view after its basic items, and an index tensor (or NULL) per dim of it. */
typedef struct index_result {
    tc_tensor *view;                 /* new reference */
    tc_tensor *indices[TC_MAX_DIMS]; /* owned; NULL where a dim is not indexed */
    int32_t n_indices;               /* the list's length: last indexed dim + 1 */
} index_result;

static void result_release(index_result *r) {
    tc_tensor_release(r->view);
    for (int32_t i = 0; i < r->n_indices; i++) tc_tensor_release(r->indices[i]);
    r->view = NULL;
    r->n_indices = 0;
}

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

/* A tensor index other than the 0-dim ones above. */
static int is_tensor_index(PyObject *item) { return tp_is_tensor(item) && !is_bool_index(item) && !is_int_index(item); }

/* numpy's rule, as PyTorch keeps it (treatSequenceAsTuple): a short non-tuple sequence is a tuple of
 * indices when an item is a tensor, a sequence, a slice, None or Ellipsis, else one index. */
static int sequence_as_tuple(PyObject *key) {
    if (PyTuple_Check(key)) return 1;
    if (tp_is_tensor(key) || !PySequence_Check(key)) return 0;
    Py_ssize_t n = PySequence_Size(key);
    if (n < 0) {
        PyErr_Clear();
        return 0;
    }
    if (n >= 32) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(key, i);
        if (!item) {
            PyErr_Clear();
            return 0;
        }
        int yes = tp_is_tensor(item) || PySequence_Check(item) || PySlice_Check(item) || item == Py_None ||
                  item == Py_Ellipsis;
        Py_DECREF(item);
        if (yes) return 1;
    }
    return 0;
}

/* A list (or other sequence) used as an index: a long tensor, or a bool/uint8 one when its items are
 * (PyTorch's indexing_tensor_from_data). New reference, NULL with an exception. */
static tc_tensor *sequence_index(PyObject *seq) {
    PyObject *args = Py_BuildValue("(OO)", seq, Py_None);
    PyObject *t = args ? tp_tensor_from_data(NULL, args) : NULL;
    Py_XDECREF(args);
    if (!t) return NULL;
    int32_t dtype = tp_unwrap(t)->dtype;
    if (dtype != TC_BOOL && dtype != TC_UINT8 && dtype != TC_INT64) {
        Py_DECREF(t);
        args = Py_BuildValue("(OO)", seq, tp_dtype_object(TC_INT64));
        t = args ? tp_tensor_from_data(NULL, args) : NULL;
        Py_XDECREF(args);
        if (!t) return NULL;
    }
    tc_tensor *r = tp_unwrap(t);
    tc_tensor_retain(r);
    Py_DECREF(t);
    return r;
}

/* The index a bool stands for at a new dim of size 1: [0] (True) or none (False). */
static tc_tensor *bool_as_index(bool value) {
    int64_t n = value ? 1 : 0;
    tc_tensor *t = tc_empty(1, &n, TC_INT64, (tc_device){TC_DEVICE_CPU, 0});
    if (t && value) *(int64_t *)tc_tensor_data(t) = 0;
    return t;
}

/* How many of self's dims the items index: PyTorch's count_specified_dimensions. */
static int specified_dims(PyObject *const *items, Py_ssize_t n) {
    int count = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = items[i];
        if (item == Py_None || item == Py_Ellipsis || PyBool_Check(item)) continue;
        if (tp_is_tensor(item)) {
            tc_tensor *t = tp_unwrap(item);
            count += (t->dtype == TC_BOOL || t->dtype == TC_UINT8) ? t->ndim : 1;
        } else {
            count++;
        }
    }
    return count;
}

/* Records index t (taken over) for the view's dim `dim`. */
static int record(index_result *r, int32_t dim, tc_tensor *t) {
    if (!t) return -1;
    if (dim >= TC_MAX_DIMS) {
        tc_tensor_release(t);
        PyErr_SetString(PyExc_IndexError, "too many indices");
        return -1;
    }
    while (r->n_indices <= dim) r->indices[r->n_indices++] = NULL;
    tc_tensor_release(r->indices[dim]);
    r->indices[dim] = t;
    return 0;
}

/* Applies `key` to t (PyTorch's applySlicing); 0, or -1 with an exception. */
static int apply_key(tc_tensor *t, PyObject *key, index_result *r) {
    PyObject *items_small[TC_MAX_DIMS + 1], **items = items_small, *seq = NULL;
    Py_ssize_t n;
    memset(r, 0, sizeof *r);
    if (sequence_as_tuple(key)) {
        seq = PySequence_Tuple(key);
        if (!seq) return -1;
        n = PyTuple_GET_SIZE(seq);
        items = &PyTuple_GET_ITEM(seq, 0);
    } else {
        items[0] = key;
        n = 1;
    }
    /* several Ellipses are not refused: each skips the dims nothing specifies, as in PyTorch 1.13 */
    int specified = specified_dims(items, n), rc = -1;
    if (specified > t->ndim) {
        if (t->ndim == 0 && !seq && is_int_index(key)) /* PyTorch's hint for the common mistake */
            PyErr_SetString(PyExc_IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                              "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
        goto out;
    }
    tc_tensor_retain(t);
    tc_tensor *cur = t;
    int32_t dim = 0;
    for (Py_ssize_t i = 0; i < n && cur; i++) {
        PyObject *item = items[i];
        tc_tensor *next = NULL;
        if (item == Py_None) {
            next = tc_unsqueeze(cur, dim++);
        } else if (item == Py_Ellipsis) {
            dim += t->ndim - specified; /* skips the dims no item specifies */
            tc_tensor_retain(cur);
            next = cur;
        } else if (is_bool_index(item)) {
            bool value;
            if (bool_index_value(item, &value)) break;
            next = tc_unsqueeze(cur, dim);
            if (next && record(r, dim, bool_as_index(value))) {
                tc_tensor_release(next);
                next = NULL;
                break;
            }
            dim++;
        } else if ((PySlice_Check(item) || is_int_index(item)) && dim >= cur->ndim) {
            /* no dim left for this item (the count above should have said so already) */
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
            break;
        } else if (PySlice_Check(item)) {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(item, &start, &stop, &step) < 0) break;
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                break;
            }
            PySlice_AdjustIndices((Py_ssize_t)cur->sizes[dim], &start, &stop, step);
            int64_t begin = start, end = stop < start ? start : stop;
            next = tc_slice_Tensor(cur, dim++, &begin, &end, step);
        } else if (is_int_index(item)) {
            PyObject *index = PyNumber_Index(item);
            if (!index) break;
            long long v = PyLong_AsLongLong(index);
            Py_DECREF(index);
            if (v == -1 && PyErr_Occurred()) break;
            if (cur->ndim > dim && (v < -cur->sizes[dim] || v >= cur->sizes[dim])) { /* indexing's words, not select's */
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %d with size %lld", v, dim,
                             (long long)cur->sizes[dim]);
                break;
            }
            next = tc_select_int(cur, dim, v);
        } else if (is_tensor_index(item) || PySequence_Check(item)) {
            tc_tensor *index = tp_is_tensor(item) ? tp_unwrap(item) : sequence_index(item);
            if (!index) break;
            if (tp_is_tensor(item)) tc_tensor_retain(index);
            if (record(r, dim++, index)) break;
            tc_tensor_retain(cur);
            next = cur;
        } else {
            PyErr_Format(PyExc_IndexError,
                         "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                         "Variables are valid indices (got %s)",
                         Py_TYPE(item)->tp_name);
            break;
        }
        tc_tensor_release(cur);
        cur = next;
        if (!cur && !PyErr_Occurred()) tp_raise_core_error();
    }
    if (PyErr_Occurred()) {
        tc_tensor_release(cur);
        result_release(r);
        goto out;
    }
    r->view = cur;
    rc = 0;
out:
    Py_XDECREF(seq);
    return rc;
}

PyObject *tp_getitem(PyObject *self, PyObject *key) {
    index_result r;
    if (apply_key(tp_unwrap(self), key, &r)) return NULL;
    if (!r.n_indices && r.view == tp_unwrap(self)) { /* x[...], x[()]: an alias view, as PyTorch returns */
        tc_tensor *alias = tc_alias(r.view);
        tc_tensor_release(r.view);
        return alias ? tp_wrap(alias) : (tp_raise_core_error(), NULL);
    }
    if (!r.n_indices) return tp_wrap(r.view);
    tc_tensor *result = tc_index_Tensor(r.view, (tc_tensor_list){r.indices, r.n_indices});
    result_release(&r);
    return tp_wrap(result);
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

/* Writing through index tensors: the value without its leading size-1 dims (PyTorch's
 * slicePrefix1sSize), then index_put_. */
static int assign_indexed(index_result *r, tc_tensor *value) {
    int32_t lead = 0;
    while (lead < value->ndim && value->sizes[lead] == 1) lead++;
    tc_tensor *v = lead ? tc_as_strided(value, (tc_int_list){value->sizes + lead, value->ndim - lead},
                                        (tc_int_list){value->strides + lead, value->ndim - lead}, &value->offset)
                        : (tc_tensor_retain(value), value);
    tc_tensor *done = v ? tc_index_put_(r->view, (tc_tensor_list){r->indices, r->n_indices}, v, false) : NULL;
    tc_tensor_release(done);
    tc_tensor_release(v);
    return done ? TC_OK : TC_FAIL;
}

/* "torch.FloatTensor": the legacy type name PyTorch's messages use. */
static const char *legacy_type_name(int32_t dtype) {
    static const char *names[] = {
        "torch.BoolTensor", "torch.ByteTensor", "torch.CharTensor",     "torch.ShortTensor", "torch.IntTensor",
        "torch.LongTensor", "torch.HalfTensor", "torch.BFloat16Tensor", "torch.FloatTensor", "torch.DoubleTensor",
        "torch.ComplexHalfTensor", "torch.ComplexFloatTensor", "torch.ComplexDoubleTensor"};
    _Static_assert(sizeof names / sizeof *names == TC_NUM_DTYPES, "a name for every dtype (%s of NULL crashes)");
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? names[dtype] : "torch.Tensor";
}

/* The numbers PyTorch's valueToTensor takes: bool, int (numpy integers too), float and complex (and
 * their subclasses, numpy.float64 among them); not numpy.float32, numpy.bool_, Fraction, Decimal or
 * objects that only convert through __float__ / __index__. */
static bool assignable_number(PyObject *v) {
    if (PyBool_Check(v) || PyLong_Check(v) || PyFloat_Check(v) || PyComplex_Check(v)) return true;
    const char *name = Py_TYPE(v)->tp_name;
    return strncmp(name, "numpy.int", 9) == 0 || strncmp(name, "numpy.uint", 10) == 0 ||
           strncmp(name, "numpy.long", 10) == 0 || strncmp(name, "numpy.ulong", 11) == 0;
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
        if (!assignable_number(value) || tp_parse_scalar(value, &s)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "can't assign a %s to a %s", Py_TYPE(value)->tp_name,
                         legacy_type_name(t->dtype));
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
    /* a lone True, None or Ellipsis writes the whole tensor like basic indexing (PyTorch's fast paths) */
    if (key == Py_True || key == Py_None) {
        memset(&r, 0, sizeof r);
        r.view = tc_unsqueeze(t, 0);
        if (!r.view) return tp_raise_core_error(), -1;
    } else if (apply_key(t, key, &r)) {
        return -1;
    }
    int rc;
    if (r.n_indices) {
        tc_tensor *v =
            is_tensor ? (tc_tensor_retain(tp_unwrap(value)), tp_unwrap(value)) : tc_scalar_tensor(s, t->dtype);
        if (v && !is_tensor && t->device.type != TC_DEVICE_CPU) {
            tc_tensor *moved = tc__to_copy(v, -1, -1, &t->device, NULL, false, -1);
            tc_tensor_release(v);
            v = moved;
        }
        rc = v ? assign_indexed(&r, v) : TC_FAIL;
        tc_tensor_release(v);
    } else if (is_tensor) {
        rc = assign_tensor(r.view, tp_unwrap(value));
    } else {
        tc_tensor *filled = tc_fill__Scalar(r.view, s);
        rc = filled ? TC_OK : TC_FAIL;
        tc_tensor_release(filled);
    }
    result_release(&r);
    if (rc) {
        tp_raise_core_error();
        return -1;
    }
    return 0;
}
