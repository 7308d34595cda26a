/* torch.dtype objects (one per dtype) and torch.Size. */
#include "tp.h"

#include <structmember.h>

static TPDtype dtype_objects[TC_NUM_DTYPES];

PyObject *tp_dtype_object(int32_t dtype) { return (PyObject *)&dtype_objects[dtype]; }

static PyObject *dtype_repr(PyObject *self) {
    return PyUnicode_FromFormat("torch.%s", tc_dtype_name(((TPDtype *)self)->dtype));
}

static PyObject *dtype_is_floating_point(PyObject *self, void *unused) {
    return PyBool_FromLong(tc_dtype_is_floating(((TPDtype *)self)->dtype));
}

static PyObject *dtype_is_signed(PyObject *self, void *unused) {
    return PyBool_FromLong(tc_dtype_is_signed(((TPDtype *)self)->dtype));
}

static PyObject *dtype_itemsize(PyObject *self, void *unused) {
    return PyLong_FromSize_t(tc_dtype_size(((TPDtype *)self)->dtype));
}

static PyObject *dtype_is_complex(PyObject *self, void *unused) {
    return PyBool_FromLong(tc_dtype_is_complex(((TPDtype *)self)->dtype));
}

static PyObject *dtype_reduce(PyObject *self, PyObject *unused) {
    return PyUnicode_FromString(tc_dtype_name(((TPDtype *)self)->dtype));
}

/* torch.float32.__module__ is "torch": pickle names a dtype as the global torch.<name>, as PyTorch's
 * pickles do (without it pickle would search sys.modules and might find torch._C first). */
static PyObject *dtype_module(PyObject *self, void *unused) { return PyUnicode_FromString("torch"); }

static PyGetSetDef dtype_getset[] = {
    {"__module__", dtype_module, NULL, NULL, NULL},
    {"is_floating_point", dtype_is_floating_point, NULL, NULL, NULL},
    {"is_signed", dtype_is_signed, NULL, NULL, NULL},
    {"is_complex", dtype_is_complex, NULL, NULL, NULL},
    {"itemsize", dtype_itemsize, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject TPDtype_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "torch.dtype",
    .tp_basicsize = sizeof(TPDtype),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = dtype_repr,
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
};

int tp_dtype_init(PyObject *module) {
    if (PyType_Ready(&TPDtype_Type) < 0) return -1;
    for (int32_t d = 0; d < TC_NUM_DTYPES; d++) {
        PyObject *o = (PyObject *)&dtype_objects[d];
        Py_SET_TYPE(o, &TPDtype_Type);
        Py_SET_REFCNT(o, 1); /* statically allocated: never freed */
        dtype_objects[d].dtype = d;
        if (PyModule_AddObjectRef(module, tc_dtype_name(d), o) < 0) return -1;
    }
    return PyModule_AddObjectRef(module, "dtype", (PyObject *)&TPDtype_Type);
}

/* torch.Size: a tuple of ints with PyTorch's repr. */
static PyObject *size_repr(PyObject *self) {
    PyObject *list = PySequence_List(self);
    if (!list) return NULL;
    PyObject *r = PyUnicode_FromFormat("torch.Size(%R)", list);
    Py_DECREF(list);
    return r;
}

static PyObject *size_numel(PyObject *self, PyObject *unused) {
    int64_t n = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self); i++) {
        int64_t v = PyLong_AsLongLong(PyTuple_GET_ITEM(self, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        n *= v;
    }
    return PyLong_FromLongLong(n);
}

static PyObject *size_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *seq = NULL;
    if (kwds && PyDict_Size(kwds)) /* tuple's own words, as PyTorch's Size (a tuple) says them */
        return PyErr_Format(PyExc_TypeError, "tuple() takes no keyword arguments");
    if (!PyArg_ParseTuple(args, "|O:Size", &seq)) return NULL;
    PyObject *items = seq ? PySequence_Tuple(seq) : PyTuple_New(0);
    if (!items) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    PyObject *self = type->tp_alloc(type, n);
    if (!self) {
        Py_DECREF(items);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        PyObject *index = PyNumber_Index(item);
        if (!index) {
            PyErr_Format(PyExc_TypeError, "torch.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                         Py_TYPE(item)->tp_name);
            Py_DECREF(items);
            Py_DECREF(self);
            return NULL;
        }
        PyTuple_SET_ITEM(self, i, index);
    }
    Py_DECREF(items);
    return self;
}

/* A tuple result of tuple's own slot, as a Size (slicing, +, *: PyTorch's Size wraps the same three). */
static PyObject *as_size(PyObject *r) {
    if (!r || !PyTuple_CheckExact(r)) return r;
    PyObject *args = PyTuple_Pack(1, r);
    Py_DECREF(r);
    if (!args) return NULL;
    PyObject *size = size_new(&TPSize_Type, args, NULL);
    Py_DECREF(args);
    return size;
}

static PyObject *size_subscript(PyObject *self, PyObject *key) {
    return as_size(PyTuple_Type.tp_as_mapping->mp_subscript(self, key));
}

static PyObject *size_concat(PyObject *self, PyObject *other) {
    return as_size(PyTuple_Type.tp_as_sequence->sq_concat(self, other));
}

static PyObject *size_repeat(PyObject *self, Py_ssize_t n) {
    return as_size(PyTuple_Type.tp_as_sequence->sq_repeat(self, n));
}

static PySequenceMethods size_as_sequence;
static PyMappingMethods size_as_mapping;

/* (torch.Size, (tuple,)): what PyTorch's Size.__reduce__ gives, so that pickles match byte for byte. */
static PyObject *size_reduce(PyObject *self, PyObject *unused) {
    PyObject *items = PySequence_Tuple(self);
    if (!items) return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), items);
}

static PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, NULL},
    {"__reduce__", size_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject TPSize_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "torch.Size",
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_TUPLE_SUBCLASS,
    .tp_repr = size_repr,
    .tp_methods = size_methods,
    .tp_new = size_new,
};

int tp_size_init(PyObject *module) {
    TPSize_Type.tp_base = &PyTuple_Type;
    /* tuple's slots, with the three that make tuples making Sizes */
    size_as_sequence = *PyTuple_Type.tp_as_sequence;
    size_as_sequence.sq_concat = size_concat;
    size_as_sequence.sq_repeat = size_repeat;
    size_as_mapping = *PyTuple_Type.tp_as_mapping;
    size_as_mapping.mp_subscript = size_subscript;
    TPSize_Type.tp_as_sequence = &size_as_sequence;
    TPSize_Type.tp_as_mapping = &size_as_mapping;
    if (PyType_Ready(&TPSize_Type) < 0) return -1;
    return PyModule_AddObjectRef(module, "Size", (PyObject *)&TPSize_Type);
}

PyObject *tp_size_new(int32_t ndim, const int64_t *sizes) {
    PyObject *self = TPSize_Type.tp_alloc(&TPSize_Type, ndim);
    if (!self) return NULL;
    for (int32_t i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (!v) {
            Py_DECREF(self);
            return NULL;
        }
        PyTuple_SET_ITEM(self, i, v);
    }
    return self;
}
