/*
 * Tensor._make_subclass(cls, data, require_grad=False): a tensor of Python class `cls` sharing data's
 * storage (and version counter) without its history, as PyTorch's; nn.Parameter is made this way.
 */
#include "tp.h"

#include "torch_core/tc_autograd.h"

PyObject *tp_make_subclass(PyObject *unused, PyObject *args, PyObject *kw) {
    static char *names[] = {"cls", "data", "require_grad", NULL};
    PyObject *cls, *data;
    int require_grad = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|p:_make_subclass", names, &cls, &data, &require_grad)) return NULL;
    if (!PyType_Check(cls)) return PyErr_Format(PyExc_TypeError, "cls must be a type (got %s)", Py_TYPE(cls)->tp_name);
    if (!PyType_IsSubtype((PyTypeObject *)cls, &TPTensorBase_Type))
        return PyErr_Format(PyExc_TypeError, "cls must be a subclass of torch._C._TensorBase (got %s)",
                            ((PyTypeObject *)cls)->tp_name);
    if (!tp_is_tensor(data))
        return PyErr_Format(PyExc_TypeError, "_make_subclass(): argument 'data' must be Tensor, not %s",
                            Py_TYPE(data)->tp_name);
    tc_tensor *t = tc_tensor_detach(tp_unwrap(data));
    if (!t) return tp_raise_core_error();
    if (tc_set_requires_grad(t, require_grad != 0)) {
        tc_tensor_release(t);
        return tp_raise_core_error();
    }
    return tp_wrap_as((PyTypeObject *)cls, t);
}
