/* Core error kinds become Python exceptions of PyTorch's types. */
#include "tp.h"

PyObject *tp_raise_core_error(void) {
    PyObject *type;
    switch (tc_last_error_kind()) {
    case TC_ERR_TYPE: type = PyExc_TypeError; break;
    case TC_ERR_INDEX: type = PyExc_IndexError; break;
    case TC_ERR_VALUE: type = PyExc_ValueError; break;
    case TC_ERR_NOT_IMPLEMENTED: type = PyExc_NotImplementedError; break; /* a RuntimeError subclass */
    case TC_ERR_NONE:
        PyErr_SetString(PyExc_RuntimeError, "internal error: the core failed without saying why");
        return NULL;
    default: type = PyExc_RuntimeError;
    }
    PyErr_SetString(type, tc_last_error_message());
    tc_error_clear();
    return NULL;
}
