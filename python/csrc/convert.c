/* Between Python values and tensors: .item(), .tolist(), and torch.tensor(nested data). */
#include "tp.h"

#include <string.h>

/* .item(): the op _local_scalar_dense, which reads device tensors through a copy to the host. */
PyObject *tp_item(PyObject *self, PyObject *unused) {
    tc_scalar s;
    if (tc__local_scalar_dense(tp_unwrap(self), &s)) return tp_raise_core_error();
    return tp_scalar_to_python(s, tp_unwrap(self)->dtype);
}

static PyObject *element(const tc_tensor *t, const char *p) {
    switch (t->dtype) {
    case TC_BOOL: return PyBool_FromLong(*(const uint8_t *)p != 0);
    case TC_UINT8: return PyLong_FromLong(*(const uint8_t *)p);
    case TC_INT8: return PyLong_FromLong(*(const int8_t *)p);
    case TC_INT16: return PyLong_FromLong(*(const int16_t *)p);
    case TC_INT32: return PyLong_FromLong(*(const int32_t *)p);
    case TC_INT64: return PyLong_FromLongLong(*(const int64_t *)p);
    case TC_FLOAT16: return PyFloat_FromDouble((double)*(const _Float16 *)p);
    case TC_BFLOAT16: {
        uint32_t bits = (uint32_t)*(const uint16_t *)p << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        return PyFloat_FromDouble(f);
    }
    case TC_FLOAT32: return PyFloat_FromDouble(*(const float *)p);
    default: return PyFloat_FromDouble(*(const double *)p);
    }
}

static PyObject *tolist_dim(const tc_tensor *t, int32_t dim, const char *p, size_t itemsize) {
    if (dim == t->ndim) return element(t, p);
    PyObject *list = PyList_New(t->sizes[dim]);
    for (int64_t i = 0; list && i < t->sizes[dim]; i++) {
        PyObject *v = tolist_dim(t, dim + 1, p + i * t->strides[dim] * (int64_t)itemsize, itemsize);
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

PyObject *tp_tolist(PyObject *self, PyObject *unused) {
    tc_tensor *t = tp_unwrap(self);
    if (t->device.type != TC_DEVICE_CPU) return PyErr_Format(PyExc_RuntimeError, "tolist() needs a CPU tensor");
    return tolist_dim(t, 0, tc_tensor_data(t), tc_dtype_size(t->dtype));
}

/* ---- torch.tensor(data) ---- */

enum { KIND_BOOL = 0, KIND_INT = 1, KIND_FLOAT = 2 };

typedef struct {
    int32_t ndim;
    int64_t sizes[TC_MAX_DIMS];
    int kind;
} data_shape;

/* Lists and tuples, and any other sequence (range, numpy arrays inside a list) except text, bytes
 * and tensors, which have their own branches. */
static int is_sequence(PyObject *o) {
    if (PyList_Check(o) || PyTuple_Check(o)) return 1;
    if (tp_is_tensor(o) || PyUnicode_Check(o) || PyBytes_Check(o) || PyByteArray_Check(o) || !PySequence_Check(o))
        return 0;
    if (PySequence_Size(o) < 0) { /* e.g. a 0-d numpy array: a number, not a sequence */
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* Shape from the first element at each depth; the fill pass checks every other element. */
static int infer_shape(PyObject *data, data_shape *shape) {
    shape->ndim = 0;
    PyObject *cur = Py_NewRef(data);
    int rc = 0;
    while (is_sequence(cur) || tp_is_tensor(cur)) {
        if (shape->ndim == TC_MAX_DIMS) {
            PyErr_SetString(PyExc_ValueError, "too many dimensions in the data");
            rc = -1;
            break;
        }
        if (tp_is_tensor(cur)) {
            tc_tensor *t = tp_unwrap(cur);
            if (shape->ndim + t->ndim > TC_MAX_DIMS) {
                PyErr_SetString(PyExc_ValueError, "too many dimensions in the data");
                rc = -1;
                break;
            }
            for (int32_t d = 0; d < t->ndim; d++) shape->sizes[shape->ndim++] = t->sizes[d];
            break;
        }
        PyObject *seq = PySequence_Fast(cur, "not a sequence");
        if (!seq) {
            rc = -1;
            break;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        shape->sizes[shape->ndim++] = n;
        PyObject *next = n ? Py_NewRef(PySequence_Fast_GET_ITEM(seq, 0)) : NULL;
        Py_DECREF(seq);
        if (!next) break;
        Py_SETREF(cur, next);
    }
    Py_DECREF(cur);
    return rc;
}

static int scalar_kind(PyObject *o, int *kind) {
    if (PyBool_Check(o) || tp_is_numpy_bool(o)) *kind = KIND_BOOL;
    else if (PyLong_Check(o) || (PyIndex_Check(o) && !PyFloat_Check(o))) *kind = KIND_INT;
    else if (PyFloat_Check(o) || PyNumber_Check(o)) *kind = KIND_FLOAT;
    else return -1;
    return 0;
}

typedef struct {
    const data_shape *shape;
    int32_t dtype;
    char *out;
    size_t itemsize;
    int kind; /* widest kind seen, for dtype inference */
    int write;
} fill_state;

static int fill(fill_state *st, PyObject *o, int32_t dim) {
    const data_shape *shape = st->shape;
    if (dim == shape->ndim) {
        if (is_sequence(o) || tp_is_tensor(o)) {
            if (tp_is_tensor(o) && tp_unwrap(o)->ndim == 0) goto scalar;
            PyErr_Format(PyExc_TypeError, "expected a number at dim %d but got a sequence", dim);
            return -1;
        }
    scalar:;
        int kind;
        if (tp_is_tensor(o)) {
            int32_t d = tp_unwrap(o)->dtype;
            kind = d == TC_BOOL ? KIND_BOOL : tc_dtype_is_floating(d) ? KIND_FLOAT : KIND_INT;
        } else if (scalar_kind(o, &kind)) {
            PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(o)->tp_name);
            return -1;
        }
        if (kind > st->kind) st->kind = kind;
        if (!st->write) return 0;
        tc_scalar s;
        if (tp_parse_scalar(o, &s)) return -1;
        /* PyTorch checks the range for integer dtypes only: tensor([300], dtype=uint8) fails, while
         * tensor([1e10], dtype=float16) gives inf */
        if (tc_dtype_is_integral(st->dtype) && !tc_scalar_fits(s, st->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                         tc_dtype_name(st->dtype));
            return -1;
        }
        tc_scalar_store(s, st->dtype, st->out);
        st->out += st->itemsize;
        return 0;
    }
    if (tp_is_tensor(o)) { /* a tensor inside a list: copy its elements in order */
        tc_tensor *t = tp_unwrap(o);
        int64_t n = tc_tensor_numel(t);
        for (int32_t d = 0; d < t->ndim; d++)
            if (t->sizes[d] != shape->sizes[dim + d]) {
                PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %lld)",
                             (long long)shape->sizes[dim + d], dim + d, (long long)t->sizes[d]);
                return -1;
            }
        int kind = t->dtype == TC_BOOL ? KIND_BOOL : tc_dtype_is_floating(t->dtype) ? KIND_FLOAT : KIND_INT;
        if (kind > st->kind) st->kind = kind;
        if (!st->write) return 0;
        for (int64_t i = 0; i < n; i++) {
            tc_scalar s;
            if (tc_tensor_get(t, i, &s)) return tp_raise_core_error(), -1;
            tc_scalar_store(s, st->dtype, st->out);
            st->out += st->itemsize;
        }
        return 0;
    }
    if (!is_sequence(o)) { /* a type problem (TypeError), unlike a length mismatch (ValueError) */
        PyErr_Format(PyExc_TypeError, "expected sequence of length %lld at dim %d (got a %s)",
                     (long long)shape->sizes[dim], dim, Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *seq = PySequence_Fast(o, "not a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int rc = 0;
    if (n != shape->sizes[dim]) {
        PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)",
                     (long long)shape->sizes[dim], dim, n);
        rc = -1;
    }
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) rc = fill(st, PySequence_Fast_GET_ITEM(seq, i), dim + 1);
    Py_DECREF(seq);
    return rc;
}

/* _C._tensor_from_data(data, dtype or None): a new CPU tensor holding a copy of nested data. */
PyObject *tp_tensor_from_data(PyObject *module, PyObject *args) {
    PyObject *data, *dtype_obj;
    if (!PyArg_ParseTuple(args, "OO", &data, &dtype_obj)) return NULL;
    data_shape shape;
    if (infer_shape(data, &shape)) return NULL;
    fill_state st = {.shape = &shape, .kind = KIND_BOOL, .write = 0};
    if (fill(&st, data, 0)) return NULL; /* validate and find the widest kind */
    int32_t dtype;
    if (dtype_obj != Py_None) {
        if (!PyObject_TypeCheck(dtype_obj, &TPDtype_Type))
            return PyErr_Format(PyExc_TypeError, "tensor(): argument 'dtype' must be torch.dtype, not %s",
                                Py_TYPE(dtype_obj)->tp_name);
        dtype = ((TPDtype *)dtype_obj)->dtype;
    } else {
        int has_elements = 1;
        for (int32_t d = 0; d < shape.ndim; d++) has_elements &= shape.sizes[d] != 0;
        dtype = !has_elements ? tc_default_dtype()
                : st.kind == KIND_FLOAT ? tc_default_dtype()
                : st.kind == KIND_INT ? TC_INT64 : TC_BOOL;
        /* a single tensor passed as data keeps its dtype */
        if (tp_is_tensor(data)) dtype = tp_unwrap(data)->dtype;
    }
    tc_tensor *t = tc_empty(shape.ndim, shape.sizes, dtype, (tc_device){TC_DEVICE_CPU, 0});
    if (!t) return tp_raise_core_error();
    st.write = 1;
    st.dtype = dtype;
    st.itemsize = tc_dtype_size(dtype);
    st.out = tc_tensor_data(t);
    if (fill(&st, data, 0)) {
        tc_tensor_release(t);
        return NULL;
    }
    return tp_wrap(t);
}
