/* The autograd side of torch.Tensor: requires_grad, grad, grad_fn, is_leaf, data, _base, hooks. */
#include "tp.h"

#include "torch_core/tc_autograd.h"

PyObject *tp_tensor_get_requires_grad(PyObject *self, void *unused) {
    return PyBool_FromLong(tc_requires_grad(tp_unwrap(self)));
}

int tp_tensor_set_requires_grad(PyObject *self, PyObject *value, void *unused) {
    if (!value || !PyBool_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "requires_grad must be a bool");
        return -1;
    }
    if (tc_set_requires_grad(tp_unwrap(self), value == Py_True)) return tp_raise_core_error(), -1;
    return 0;
}

PyObject *tp_tensor_requires_grad_(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"requires_grad", NULL};
    int requires = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|p:requires_grad_", names, &requires)) return NULL;
    if (tc_set_requires_grad(tp_unwrap(self), requires)) return tp_raise_core_error();
    return Py_NewRef(self);
}

PyObject *tp_tensor_get_is_leaf(PyObject *self, void *unused) { return PyBool_FromLong(tc_is_leaf(tp_unwrap(self))); }

PyObject *tp_tensor_get_grad_fn(PyObject *self, void *unused) {
    tc_error_clear();
    tc_node *n = tc_tensor_grad_fn(tp_unwrap(self));
    if (!n) return tc_last_error_kind() != TC_ERR_NONE ? tp_raise_core_error() : Py_NewRef(Py_None);
    return tp_node_wrap(n);
}

PyObject *tp_tensor_get_grad(PyObject *self, void *unused) {
    tc_tensor *t = tp_unwrap(self);
    tc_tensor *g = tc_tensor_grad(t);
    if (g) return tp_wrap(g); /* set by hand, or by backward(inputs=[t]): no warning, as in PyTorch */
    if (!tc_is_leaf(t) && !tc_tensor_retains_grad(t) &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                     "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
                     "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
                     "Tensor by mistake, make sure you access the leaf Tensor instead. See "
                     "github.com/pytorch/pytorch/pull/30531 for more informations.", 1))
        return NULL;
    Py_RETURN_NONE;
}

int tp_tensor_set_grad(PyObject *self, PyObject *value, void *unused) {
    if (!value || value == Py_None) return tc_tensor_set_grad(tp_unwrap(self), NULL) ? (tp_raise_core_error(), -1) : 0;
    if (!tp_is_tensor(value)) {
        /* PyTorch's message, missing space included */
        PyErr_Format(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got grad of type%s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    if (tc_tensor_set_grad(tp_unwrap(self), tp_unwrap(value))) return tp_raise_core_error(), -1;
    return 0;
}

/* x.data: x's elements without history, with a version counter of its own, so that writing
 * through it (optimizers, initialisers) does not trip autograd's in-place checks. */
PyObject *tp_tensor_get_data(PyObject *self, void *unused) {
    tc_tensor *d = tc_tensor_detach(tp_unwrap(self));
    if (d && tc_tensor_new_version_counter(d)) {
        tc_tensor_release(d);
        d = NULL;
    }
    return tp_wrap(d);
}

int tp_tensor_set_data(PyObject *self, PyObject *value, void *unused) {
    if (!value || !tp_is_tensor(value)) {
        PyErr_Format(PyExc_TypeError, "Variable data has to be a tensor, but got %s",
                     value ? Py_TYPE(value)->tp_name : "None");
        return -1;
    }
    if (tc_tensor_set_data(tp_unwrap(self), tp_unwrap(value))) return tp_raise_core_error(), -1;
    return 0;
}

PyObject *tp_tensor_get_base(PyObject *self, void *unused) {
    tc_tensor *b = tc_tensor_base(tp_unwrap(self));
    return b ? tp_wrap(b) : Py_NewRef(Py_None);
}

PyObject *tp_tensor_get_is_view(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(tp_unwrap(self)->base != NULL);
}

PyObject *tp_tensor_get_retains_grad(PyObject *self, void *unused) {
    return PyBool_FromLong(tc_tensor_retains_grad(tp_unwrap(self)));
}

PyObject *tp_tensor_get_output_nr(PyObject *self, void *unused) {
    return PyLong_FromUnsignedLong(tc_tensor_output_nr(tp_unwrap(self)));
}

PyObject *tp_tensor_retain_grad(PyObject *self, PyObject *unused) {
    if (tc_tensor_retain_grad(tp_unwrap(self))) return tp_raise_core_error();
    Py_RETURN_NONE;
}

PyObject *tp_tensor_detach_(PyObject *self, PyObject *unused) {
    if (tc_tensor_detach_(tp_unwrap(self))) return tp_raise_core_error();
    return Py_NewRef(self);
}

PyObject *tp_tensor_is_inference(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(tc_tensor_is_inference(tp_unwrap(self)));
}

/* ---- hooks: a Python callable fn(grad) -> None or a replacement ---- */

static void release_callable(void *ctx) {
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(gil);
}

static int tensor_hook(void *ctx, tc_tensor **grad) {
    PyGILState_STATE gil = PyGILState_Ensure();
    tc_tensor_retain(*grad);
    PyObject *g = tp_wrap(*grad);
    PyObject *r = g ? PyObject_CallOneArg((PyObject *)ctx, g) : NULL;
    int rc = TC_OK;
    if (!r) {
        rc = tp_fail_from_python();
    } else if (r != Py_None) {
        if (!tp_is_tensor(r)) {
            PyErr_Format(PyExc_TypeError, "a hook returned %s where a Tensor or None was expected",
                         Py_TYPE(r)->tp_name);
            rc = tp_fail_from_python();
        } else {
            tc_tensor *replacement = tp_unwrap(r);
            tc_tensor_retain(replacement);
            tc_tensor_release(*grad);
            *grad = replacement;
        }
    }
    Py_XDECREF(r);
    Py_XDECREF(g);
    PyGILState_Release(gil);
    return rc;
}

PyObject *tp_tensor_register_hook(PyObject *self, PyObject *fn) {
    if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "hook must be callable");
    Py_INCREF(fn);
    int64_t id = tc_tensor_add_hook(tp_unwrap(self), tensor_hook, fn, release_callable);
    if (id < 0) {
        Py_DECREF(fn);
        return tp_raise_core_error();
    }
    return PyLong_FromLongLong(id);
}

PyObject *tp_tensor_remove_hook(PyObject *self, PyObject *id) {
    long long v = PyLong_AsLongLong(id);
    if (v == -1 && PyErr_Occurred()) return NULL;
    tc_tensor_remove_hook(tp_unwrap(self), v);
    Py_RETURN_NONE;
}
