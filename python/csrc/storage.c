/*
 * What torch.storage.TypedStorage needs from the core: the whole storage under a tensor, as a 1-D
 * tensor of the tensor's dtype that shares its memory (x.storage() indexes, copies and fills
 * through it).
 */
#include "tp.h"

/* _storage_tensor(t): every element of t's storage, from its first, as a 1-D view. */
static PyObject *py_storage_tensor(PyObject *m, PyObject *arg) {
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    tc_tensor *t = tp_unwrap(arg);
    int64_t n = (int64_t)(tc_storage_nbytes(t->storage) / tc_dtype_size(t->dtype)), one = 1;
    return tp_wrap(tc_tensor_new_view(t->storage, 0, 1, &n, &one, t->dtype, t->device));
}

PyMethodDef tp_storage_functions[] = {
    {"_storage_tensor", py_storage_tensor, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
