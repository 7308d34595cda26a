/*
 * torch.tensor(data): nested Python data to a new CPU tensor, in PyTorch 1.13's three steps
 * (torch/csrc/utils/tensor_new.cpp): the shape from the first element at each depth, the dtype from
 * every element (promoted), then every element stored, checked against the shape still expected.
 *
 * Safety: data is arbitrary Python. Every element is held by a strong reference while it is used, and
 * a list's length is read again before each element, because converting an element runs Python code
 * (__float__, __index__, __len__) that may change or free the containers; writes are counted against
 * the element count, never past it. Depth is bounded by TC_MAX_DIMS, so self-referential data fails
 * cleanly.
 *
 * Tensors inside data: a one-element tensor is a number, as in PyTorch. A tensor of any other size
 * contributes its dims to the shape when it comes first at its depth ([t, t] stacks two equal-shaped
 * tensors: this project's extension; PyTorch refuses it with ValueError); wherever a tensor sits, its
 * dims are checked against the dims still expected, like a nested list's.
 */
#include "tp.h"

#include <string.h>

typedef struct {
    int32_t ndim;
    int64_t sizes[TC_MAX_DIMS];
    bool from_tensor; /* some dims came from a tensor in the data (this project's extension) */
} data_shape;

/* ---- numpy, recognised without linking it: an object can only be numpy's once numpy is imported ---- */

static PyObject *np_ndarray, *np_generic; /* strong references, set the first time numpy is seen */

static int numpy_types(void) {
    if (np_ndarray) return 1;
    PyObject *name = PyUnicode_FromString("numpy");
    PyObject *np = name ? PyImport_GetModule(name) : NULL;
    Py_XDECREF(name);
    if (!np) {
        PyErr_Clear();
        return 0;
    }
    np_ndarray = PyObject_GetAttrString(np, "ndarray");
    np_generic = PyObject_GetAttrString(np, "generic");
    Py_DECREF(np);
    if (!np_ndarray || !np_generic || !PyType_Check(np_ndarray) || !PyType_Check(np_generic)) {
        Py_CLEAR(np_ndarray);
        Py_CLEAR(np_generic);
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* 1 and the dtype for a numpy array or scalar, 0 for anything else, -1 with TypeError for a numpy
 * dtype tensors cannot hold. */
static int numpy_dtype(PyObject *o, int32_t *dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool",  "uint8",   "int8", "int16",   "int32",
                                               "int64", "float16", NULL,   "float32", "float64",
                                               [TC_COMPLEX64] = "complex64", [TC_COMPLEX128] = "complex128"};
    if (!numpy_types() || !(PyObject_TypeCheck(o, (PyTypeObject *)np_ndarray) ||
                            PyObject_TypeCheck(o, (PyTypeObject *)np_generic)))
        return 0;
    PyObject *dt = PyObject_GetAttrString(o, "dtype");
    PyObject *name = dt ? PyObject_GetAttrString(dt, "name") : NULL;
    Py_XDECREF(dt);
    const char *s = name ? PyUnicode_AsUTF8(name) : NULL;
    int rc = -1;
    for (int32_t d = 0; s && d < TC_NUM_DTYPES && rc < 0; d++)
        if (names[d] && strcmp(names[d], s) == 0) *dtype = d, rc = 1;
    if (s && rc < 0)
        PyErr_Format(PyExc_TypeError, "can't convert np.ndarray of type numpy.%s. The only supported types are: "
                                      "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                                      "uint8, and bool.", s);
    Py_XDECREF(name);
    return rc;
}

/* ---- what is a sequence here ---- */

static int one_element_tensor(PyObject *o) { return tp_is_tensor(o) && tc_tensor_numel(tp_unwrap(o)) == 1; }

/* Lists, tuples and other sequences (range, bytes, numpy arrays) hold elements, and so does a tensor
 * with dims (PyTorch iterates one where a sequence is expected). Text is refused by the callers. */
static int holds_elements(PyObject *o) {
    if (PyList_Check(o) || PyTuple_Check(o)) return 1;
    if (tp_is_tensor(o)) return tp_unwrap(o)->ndim > 0;
    return PySequence_Check(o) && !PyUnicode_Check(o);
}

static Py_ssize_t length_of(PyObject *o) {
    if (PyList_Check(o)) return PyList_GET_SIZE(o);
    if (PyTuple_Check(o)) return PyTuple_GET_SIZE(o);
    if (tp_is_tensor(o)) return (Py_ssize_t)tp_unwrap(o)->sizes[0];
    return PySequence_Size(o);
}

/* Element i of o, whose length was n (new reference). Converting an earlier element may have changed
 * a list: that is reported, never read through. */
static PyObject *element_of(PyObject *o, Py_ssize_t i, Py_ssize_t n) {
    if (PyList_Check(o)) {
        if (PyList_GET_SIZE(o) != n) {
            PyErr_SetString(PyExc_RuntimeError, "list changed size during conversion to a tensor");
            return NULL;
        }
        return Py_NewRef(PyList_GET_ITEM(o, i));
    }
    if (PyTuple_Check(o)) return Py_NewRef(PyTuple_GET_ITEM(o, i));
    if (tp_is_tensor(o)) {
        PyObject *index = PyLong_FromSsize_t(i);
        PyObject *item = index ? PyObject_GetItem(o, index) : NULL;
        Py_XDECREF(index);
        return item;
    }
    return PySequence_GetItem(o, i);
}

/* ---- step 1: the shape, from the first element at each depth ---- */

static int infer_shape(PyObject *data, data_shape *shape) {
    shape->ndim = 0;
    shape->from_tensor = false;
    PyObject *cur = Py_NewRef(data);
    int rc = 0;
    /* a one-element tensor is a number here, as in PyTorch */
    while (rc == 0 && ((holds_elements(cur) && !one_element_tensor(cur)) || PyUnicode_Check(cur))) {
        if (PyUnicode_Check(cur) || shape->ndim == TC_MAX_DIMS) { /* a string is a sequence of itself */
            PyErr_Format(PyExc_ValueError, "too many dimensions '%s'", Py_TYPE(cur)->tp_name);
            rc = -1;
            break;
        }
        if (tp_is_tensor(cur) && shape->ndim > 0) /* inside a sequence a tensor is one number, as in */
            break;                                   /* PyTorch (float() then refuses more elements) */
        if (tp_is_tensor(cur)) { /* the data itself: its dims, all at once */
            tc_tensor *t = tp_unwrap(cur);
            if (shape->ndim + t->ndim > TC_MAX_DIMS) {
                PyErr_SetString(PyExc_ValueError, "too many dimensions 'Tensor'");
                rc = -1;
            }
            for (int32_t d = 0; rc == 0 && d < t->ndim; d++) shape->sizes[shape->ndim++] = t->sizes[d];
            shape->from_tensor = true;
            break;
        }
        Py_ssize_t n = length_of(cur);
        if (n < 0) {
            rc = -1;
            break;
        }
        shape->sizes[shape->ndim++] = n;
        if (n == 0) break;
        PyObject *next = element_of(cur, 0, n);
        if (!next) rc = -1;
        else Py_SETREF(cur, next);
    }
    Py_DECREF(cur);
    return rc;
}

/* ---- step 2: the dtype, PyTorch's infer_scalar_type promoted over every element ---- */

static int infer_dtype(PyObject *o, int depth, int32_t *out) {
    int32_t d;
    int np = numpy_dtype(o, &d);
    if (np) {
        if (np > 0) *out = d;
        return np > 0 ? 0 : -1;
    }
    if (PyFloat_Check(o)) return *out = tc_default_dtype(), 0;
    if (PyBool_Check(o)) return *out = TC_BOOL, 0;
    if (PyLong_Check(o)) return *out = TC_INT64, 0;
    if (tp_is_tensor(o)) return *out = tp_unwrap(o)->dtype, 0;
    if (PyComplex_Check(o)) { /* PyTorch's default complex dtype for data: float and double defaults only */
        int32_t d = tc_default_dtype();
        if (d != TC_FLOAT32 && d != TC_FLOAT64) {
            PyErr_SetString(PyExc_RuntimeError, "invalid default scalar type for complex");
            return -1;
        }
        return *out = tc_dtype_to_complex(d), 0;
    }
    if (PyUnicode_Check(o) || PyBytes_Check(o)) { /* PyTorch's THPUtils_checkString */
        PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(o)->tp_name);
        return -1;
    }
    if (!PySequence_Check(o)) {
        PyErr_Format(PyExc_RuntimeError, "Could not infer dtype of %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    if (depth >= TC_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "too many dimensions '%s'", Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t n = length_of(o);
    if (n < 0) return -1;
    *out = tc_default_dtype(); /* an empty sequence: numpy's rule, with the default dtype for double */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = element_of(o, i, n);
        if (!item) return -1;
        if (item == o) {
            Py_DECREF(item);
            PyErr_SetString(PyExc_TypeError, "new(): self-referential lists are incompatible");
            return -1;
        }
        int32_t d_item;
        int rc = infer_dtype(item, depth + 1, &d_item);
        Py_DECREF(item);
        if (rc) return -1;
        *out = i == 0 ? d_item : tc_promote_types(*out, d_item);
    }
    return 0;
}

/* ---- step 3: every element, converted as PyTorch's store_scalar converts it ---- */

typedef struct {
    const data_shape *shape;
    int32_t dtype;
    char *out;
    size_t itemsize;
    int64_t written, numel;
} fill_state;

static int overflow_error(int32_t dtype) {
    PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow", tc_dtype_name(dtype));
    return -1;
}

/* Python's own conversions, as PyTorch uses them: floating dtypes take __float__ (then __index__),
 * integral dtypes a float's checked truncation or else __index__, bool any number's truth. */
static int scalar_value(PyObject *o, int32_t dtype, tc_scalar *s) {
    if (tc_dtype_is_complex(dtype)) {
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred()) return -1;
        *s = (tc_scalar){.kind = TC_SCALAR_COMPLEX, .v.f = c.real, .imag = c.imag}; /* unchecked, as floats */
        return 0;
    }
    if (tc_dtype_is_floating(dtype)) {
        double f = PyFloat_AsDouble(o);
        if (f == -1.0 && PyErr_Occurred()) return -1;
        *s = (tc_scalar){.is_float = 1, .v.f = f};
        return 0;
    }
    if (PyFloat_Check(o)) {
        *s = (tc_scalar){.is_float = 1, .v.f = PyFloat_AS_DOUBLE(o)};
    } else if (tp_is_numpy_bool(o)) { /* its __index__ is deprecated; its truth is what it means */
        int truth = PyObject_IsTrue(o);
        if (truth < 0) return -1;
        *s = (tc_scalar){.v.i = truth};
    } else if (dtype == TC_BOOL && PyComplex_Check(o)) {
        *s = (tc_scalar){.v.i = PyComplex_RealAsDouble(o) != 0.0 || PyComplex_ImagAsDouble(o) != 0.0};
    } else {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (overflow && dtype != TC_BOOL) {
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        *s = (tc_scalar){.v.i = overflow ? 1 : v};
    }
    if (dtype == TC_BOOL) *s = (tc_scalar){.v.i = s->is_float ? s->v.f != 0.0 : s->v.i != 0};
    return tc_scalar_fits(*s, dtype) ? 0 : overflow_error(dtype);
}

static int fill(fill_state *st, PyObject *o, int32_t dim) {
    const data_shape *shape = st->shape;
    if (dim == shape->ndim) {
        tc_scalar s;
        if (scalar_value(o, st->dtype, &s)) return -1;
        if (st->written >= st->numel) { /* cannot happen while every length is checked; never write past */
            PyErr_SetString(PyExc_RuntimeError, "data changed size during conversion to a tensor");
            return -1;
        }
        tc_scalar_store(s, st->dtype, st->out + (size_t)st->written * st->itemsize);
        st->written++;
        return 0;
    }
    /* A tensor with too few dims for the depth still expected is a shape mismatch, like a wrong length
     * (checked before iterating it, which would reach its 0-dim elements where lists are expected). A
     * 0-dim tensor placed there is not a sequence at all, as a number is not (TypeError below). */
    if (tp_is_tensor(o) && tp_unwrap(o)->ndim > 0 && tp_unwrap(o)->ndim < shape->ndim - dim) {
        PyErr_Format(PyExc_ValueError, "expected a tensor of %d dims at dim %d (got %d dims)", shape->ndim - dim,
                     dim, tp_unwrap(o)->ndim);
        return -1;
    }
    if (!holds_elements(o)) {
        PyErr_Format(PyExc_TypeError, "expected sequence of length %lld at dim %d (got a %s)",
                     (long long)shape->sizes[dim], dim, Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t n = length_of(o);
    if (n < 0) return -1;
    if (n != shape->sizes[dim]) {
        PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)",
                     (long long)shape->sizes[dim], dim, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = element_of(o, i, n);
        if (!item) return -1;
        int rc = fill(st, item, dim + 1);
        Py_DECREF(item);
        if (rc) return -1;
    }
    if (PyList_Check(o) && PyList_GET_SIZE(o) != n) { /* changed by its last element's conversion */
        PyErr_SetString(PyExc_RuntimeError, "list changed size during conversion to a tensor");
        return -1;
    }
    return 0;
}

/* _C._tensor_from_data(data, dtype or None): a new CPU tensor holding a copy of nested data. */
PyObject *tp_tensor_from_data(PyObject *module, PyObject *args) {
    PyObject *data, *dtype_obj;
    if (!PyArg_ParseTuple(args, "OO", &data, &dtype_obj)) return NULL;
    if (dtype_obj != Py_None && !PyObject_TypeCheck(dtype_obj, &TPDtype_Type))
        return PyErr_Format(PyExc_TypeError, "tensor(): argument 'dtype' must be torch.dtype, not %s",
                            Py_TYPE(dtype_obj)->tp_name);
    if (PyUnicode_Check(data) || PyBytes_Check(data))
        return PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(data)->tp_name);
    data_shape shape;
    if (infer_shape(data, &shape)) return NULL;
    int32_t dtype;
    if (dtype_obj != Py_None) dtype = ((TPDtype *)dtype_obj)->dtype;
    else if (infer_dtype(data, 0, &dtype)) return NULL;
    tc_tensor *t = tc_empty(shape.ndim, shape.sizes, dtype, (tc_device){TC_DEVICE_CPU, 0});
    if (!t) return tp_raise_core_error();
    fill_state st = {.shape = &shape, .dtype = dtype, .out = tc_tensor_data(t), .itemsize = tc_dtype_size(dtype),
                     .numel = tc_tensor_numel(t)};
    /* PyTorch stores nothing, and so checks nothing further, when there is nothing to store; stacked
     * tensors are checked against each other all the same */
    if ((st.numel > 0 || shape.from_tensor) && (fill(&st, data, 0) || st.written != st.numel)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "data changed size during conversion to a tensor");
        tc_tensor_release(t);
        return NULL;
    }
    return tp_wrap(t);
}
