/*
 * The bytes of a tensor's pickled form (torch/_tensor.py's __reduce_ex__): the raw data of a
 * contiguous CPU tensor, and a tensor made back from them. Tensors cross processes this way (the
 * DataLoader's workers) at memcpy speed, instead of as lists of Python numbers.
 */
#include "tp.h"

#include <string.h>

/* _tensor_to_bytes(t): t's elements as bytes; t must be a contiguous CPU tensor. */
static PyObject *py_tensor_to_bytes(PyObject *m, PyObject *arg) {
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a Tensor, got %s", Py_TYPE(arg)->tp_name);
    tc_tensor *t = tp_unwrap(arg);
    if (t->device.type != TC_DEVICE_CPU || !tc_tensor_is_contiguous(t))
        return PyErr_Format(PyExc_ValueError, "_tensor_to_bytes needs a contiguous CPU tensor");
    int64_t n = tc_tensor_numel(t);
    size_t nbytes;
    if (n < 0 || __builtin_mul_overflow((size_t)n, tc_dtype_size(t->dtype), &nbytes) || nbytes > PY_SSIZE_T_MAX)
        return PyErr_Format(PyExc_OverflowError, "tensor too large to pickle");
    return PyBytes_FromStringAndSize(nbytes ? tc_tensor_data(t) : NULL, (Py_ssize_t)nbytes);
}

/* _tensor_from_bytes(buffer, dtype, shape): a new contiguous CPU tensor holding a copy of buffer. */
static PyObject *py_tensor_from_bytes(PyObject *m, PyObject *args) {
    PyObject *buffer, *dtype_obj, *shape;
    if (!PyArg_ParseTuple(args, "OO!O", &buffer, &TPDtype_Type, &dtype_obj, &shape)) return NULL;
    int32_t dtype = ((TPDtype *)dtype_obj)->dtype;
    PyObject *seq = PySequence_Fast(shape, "shape must be a sequence of ints");
    if (!seq) return NULL;
    Py_ssize_t ndim = PySequence_Fast_GET_SIZE(seq);
    int64_t sizes[TC_MAX_DIMS];
    size_t nbytes = tc_dtype_size(dtype);
    if (ndim > TC_MAX_DIMS) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "too many dimensions: %zd", ndim);
    }
    for (Py_ssize_t i = 0; i < ndim; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        if (v < 0 || __builtin_mul_overflow(nbytes, (size_t)v, &nbytes)) {
            Py_DECREF(seq);
            return PyErr_Format(PyExc_ValueError, "invalid tensor shape");
        }
        sizes[i] = v;
    }
    Py_DECREF(seq);
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE)) return NULL;
    PyObject *result = NULL;
    if ((size_t)view.len != nbytes) {
        PyErr_Format(PyExc_ValueError, "expected %zu bytes of tensor data, got %zd", nbytes, view.len);
    } else {
        tc_tensor *t = tc_empty((int32_t)ndim, sizes, dtype, (tc_device){TC_DEVICE_CPU, 0});
        if (t && nbytes) memcpy(tc_tensor_data(t), view.buf, nbytes);
        result = tp_wrap(t);
    }
    PyBuffer_Release(&view);
    return result;
}

PyMethodDef tp_pickle_functions[] = {
    {"_tensor_to_bytes", py_tensor_to_bytes, METH_O, NULL},
    {"_tensor_from_bytes", py_tensor_from_bytes, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
