/*
 * Errors across the boundary. Core error kinds become Python exceptions of PyTorch's types; a
 * Python exception raised inside the core's work (a hook or a custom Function run by the autograd
 * engine, a Python op implementation) becomes a core error on its way through C, and is raised again
 * as itself, traceback included, when that error reaches Python.
 */
#include "tp.h"

#include <string.h>

/* The Python exception that the pending core error stands for (this thread), with the message the
 * core error carried: a core error with another message means the stashed one was handled. */
static _Thread_local PyObject *stash_type, *stash_value, *stash_tb;
static _Thread_local char *stash_message;

/* torch._C._LinAlgError (torch.linalg.LinAlgError): a RuntimeError, as in PyTorch 1.13. */
static PyObject *linalg_error;
/* torch.OutOfMemoryError (torch.cuda.OutOfMemoryError): a RuntimeError, raised for the CUDA
 * allocator's out-of-memory errors ("CUDA out of memory. Tried to allocate ..."). */
static PyObject *oom_error;

int tp_errors_init(PyObject *module) {
    linalg_error = PyErr_NewExceptionWithDoc("torch._C._LinAlgError",
                                             "Error raised by torch.linalg for singular or not positive-definite "
                                             "inputs", PyExc_RuntimeError, NULL);
    if (!linalg_error || PyModule_AddObjectRef(module, "_LinAlgError", linalg_error) < 0) return -1;
    oom_error = PyErr_NewExceptionWithDoc("torch.OutOfMemoryError", "Exception raised when device is out of memory",
                                          PyExc_RuntimeError, NULL);
    return oom_error ? PyModule_AddObjectRef(module, "OutOfMemoryError", oom_error) : -1;
}

static void stash_clear(void) {
    Py_CLEAR(stash_type);
    Py_CLEAR(stash_value);
    Py_CLEAR(stash_tb);
    PyMem_Free(stash_message);
    stash_message = NULL;
}

PyObject *tp_raise_core_error(void) {
    if (stash_type && stash_message && tc_last_error_kind() != TC_ERR_NONE &&
        strcmp(stash_message, tc_last_error_message()) == 0) {
        PyErr_Restore(stash_type, stash_value, stash_tb);
        stash_type = stash_value = stash_tb = NULL;
        stash_clear();
        tc_error_clear();
        return NULL;
    }
    stash_clear();
    PyObject *type;
    switch (tc_last_error_kind()) {
    case TC_ERR_TYPE: type = PyExc_TypeError; break;
    case TC_ERR_INDEX: type = PyExc_IndexError; break;
    case TC_ERR_VALUE: type = PyExc_ValueError; break;
    case TC_ERR_NOT_IMPLEMENTED: type = PyExc_NotImplementedError; break; /* a RuntimeError subclass */
    case TC_ERR_LINALG: type = linalg_error ? linalg_error : PyExc_RuntimeError; break;
    case TC_ERR_OUT_OF_MEMORY: /* a device allocator's (PyTorch raises RuntimeError for the CPU's) */
        type = oom_error && strncmp(tc_last_error_message(), "CUDA out of memory", 18) == 0 ? oom_error
                                                                                           : PyExc_RuntimeError;
        break;
    case TC_ERR_NONE:
        PyErr_SetString(PyExc_RuntimeError, "internal error: the core failed without saying why");
        return NULL;
    default: type = PyExc_RuntimeError;
    }
    PyErr_SetString(type, tc_last_error_message());
    tc_error_clear();
    return NULL;
}

int tp_fail_from_python(void) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) PyException_SetTraceback(value, tb);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
    if (!msg) PyErr_Clear();
    int kind = TC_ERR_RUNTIME;
    if (type && PyErr_GivenExceptionMatches(type, PyExc_TypeError)) kind = TC_ERR_TYPE;
    else if (type && PyErr_GivenExceptionMatches(type, PyExc_IndexError)) kind = TC_ERR_INDEX;
    else if (type && PyErr_GivenExceptionMatches(type, PyExc_ValueError)) kind = TC_ERR_VALUE;
    else if (type && PyErr_GivenExceptionMatches(type, PyExc_NotImplementedError)) kind = TC_ERR_NOT_IMPLEMENTED;
    else if (type && linalg_error && PyErr_GivenExceptionMatches(type, linalg_error)) kind = TC_ERR_LINALG;
    tc_set_error(kind, "%s", msg ? msg : "error in Python code");
    Py_XDECREF(text);
    stash_clear();
    const char *now = tc_last_error_message();
    size_t n = strlen(now) + 1;
    stash_message = PyMem_Malloc(n);
    if (stash_message) {
        memcpy(stash_message, now, n);
        stash_type = type;
        stash_value = value;
        stash_tb = tb;
    } else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
    return TC_FAIL;
}
