/* Python numbers as core scalars and wrapped-number tensors, and back. */
#include "tp.h"

#include <string.h>

int tp_is_numpy_bool(PyObject *o) {
    /* numpy.bool_ is no int subclass but has __index__ (deprecated): recognise it before that */
    return strcmp(Py_TYPE(o)->tp_name, "numpy.bool_") == 0;
}

int tp_is_complex_number(PyObject *o) {
    /* numpy.complex64 is no complex subclass, and its __float__ drops the imaginary part */
    const char *name = Py_TYPE(o)->tp_name;
    return PyComplex_Check(o) || strncmp(name, "numpy.complex", 13) == 0 || strcmp(name, "numpy.clongdouble") == 0;
}

int tp_parse_scalar(PyObject *o, tc_scalar *out) {
    out->struct_size = sizeof(tc_scalar);
    out->imag = 0;
    if (PyBool_Check(o) || tp_is_numpy_bool(o)) {
        int truth = PyObject_IsTrue(o);
        if (truth < 0) return -1;
        out->kind = TC_SCALAR_BOOL;
        out->v.i = truth;
        return 0;
    }
    if (PyLong_Check(o)) {
        int overflow;
        out->kind = TC_SCALAR_INT;
        out->v.i = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        return out->v.i == -1 && PyErr_Occurred() ? -1 : 0;
    }
    if (PyFloat_Check(o)) {
        out->kind = TC_SCALAR_FLOAT;
        out->v.f = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (tp_is_complex_number(o)) {
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred()) return -1;
        out->kind = TC_SCALAR_COMPLEX;
        out->v.f = c.real;
        out->imag = c.imag;
        return 0;
    }
    if (tp_is_tensor(o) && tc_tensor_numel(tp_unwrap(o)) == 1) {
        tc_scalar s;
        if (tc__local_scalar_dense(tp_unwrap(o), &s)) return tp_raise_core_error(), -1;
        *out = s;
        return 0;
    }
    if (PyIndex_Check(o)) { /* numpy integers and the like */
        PyObject *i = PyNumber_Index(o);
        if (!i) return -1;
        int rc = tp_parse_scalar(i, out);
        Py_DECREF(i);
        return rc;
    }
    if (PyNumber_Check(o) && !PySequence_Check(o)) {
        double d = PyFloat_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) return -1;
        out->kind = TC_SCALAR_FLOAT;
        out->v.f = d;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "expected a number, got %s", Py_TYPE(o)->tp_name);
    return -1;
}

tc_tensor *tp_wrap_number(PyObject *o) {
    int32_t dtype;
    if (PyBool_Check(o) || tp_is_numpy_bool(o))
        dtype = TC_BOOL;
    else if (PyLong_Check(o))
        dtype = TC_INT64;
    else if (PyFloat_Check(o))
        dtype = TC_FLOAT64;
    else if (tp_is_complex_number(o)) /* promoted as the default complex dtype, as floats as the default */
        dtype = TC_COMPLEX128;
    else if (tp_is_tensor(o) || PySequence_Check(o)) /* numpy arrays included */
        return NULL;
    else if (PyIndex_Check(o)) /* numpy integers: numbers, as PyTorch treats them */
        dtype = TC_INT64;
    else if (PyNumber_Check(o) && PyObject_HasAttrString(o, "__float__")) /* numpy.float32 and the like */
        dtype = TC_FLOAT64;
    else
        return NULL;
    tc_scalar s;
    if (tp_parse_scalar(o, &s)) return NULL;
    tc_tensor *t = tc_scalar_tensor(s, dtype);
    if (!t) {
        tp_raise_core_error();
        return NULL;
    }
    t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

PyObject *tp_scalar_to_python(tc_scalar s, int32_t dtype) {
    if (dtype == TC_BOOL || s.kind == TC_SCALAR_BOOL) return PyBool_FromLong((long)(s.v.i != 0));
    if (s.kind == TC_SCALAR_FLOAT) return PyFloat_FromDouble(s.v.f);
    if (s.kind == TC_SCALAR_COMPLEX) return PyComplex_FromDoubles(s.v.f, s.imag);
    return PyLong_FromLongLong(s.v.i);
}
