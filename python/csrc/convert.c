/* From tensors to Python values: .item() and .tolist() (the other way: tensor_data.c). */
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
    case TC_COMPLEX32: return PyComplex_FromDoubles((double)((const _Float16 *)p)[0], (double)((const _Float16 *)p)[1]);
    case TC_COMPLEX64: return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
    case TC_COMPLEX128: return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
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
    if (!(t->flags & TC_TENSOR_MATH_BITS)) return tolist_dim(t, 0, tc_tensor_data(t), tc_dtype_size(t->dtype));
    /* a conjugate (or negative) view: its values written out first */
    tc_tensor *plain = tc_clone(t, -1);
    if (!plain) return tp_raise_core_error();
    PyObject *r = tolist_dim(plain, 0, tc_tensor_data(plain), tc_dtype_size(plain->dtype));
    tc_tensor_release(plain);
    return r;
}
