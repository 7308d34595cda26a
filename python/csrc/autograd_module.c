/*
 * torch._C's autograd functions: the engine (with the GIL released while it runs: nodes and hooks
 * written in Python take it back), grad/inference/anomaly modes, saved-tensor hooks.
 */
#include "tp.h"

#include "torch_core/tc_autograd.h"

#include <stdlib.h>
#include <string.h>

/* A tuple of tensors (or None where allowed) as an array of borrowed tc_tensor pointers. */
static int tensor_array(PyObject *seq, const char *what, bool none_ok, tc_tensor ***out, Py_ssize_t *n) {
    *out = NULL;
    *n = PySequence_Fast_GET_SIZE(seq);
    tc_tensor **a = calloc((size_t)(*n ? *n : 1), sizeof(tc_tensor *));
    if (!a) return PyErr_NoMemory(), -1;
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        if (o == Py_None && none_ok) continue;
        if (!tp_is_tensor(o)) {
            free(a);
            PyErr_Format(PyExc_TypeError, "%s must be tensors%s, not %s", what, none_ok ? " or None" : "",
                         Py_TYPE(o)->tp_name);
            return -1;
        }
        a[i] = tp_unwrap(o);
    }
    *out = a;
    return 0;
}

/* _run_backward(tensors, grad_tensors, keep_graph, create_graph, inputs) */
static PyObject *py_run_backward(PyObject *m, PyObject *args) {
    PyObject *tensors, *grads, *inputs;
    int keep_graph, create_graph;
    if (!PyArg_ParseTuple(args, "OOppO", &tensors, &grads, &keep_graph, &create_graph, &inputs)) return NULL;
    PyObject *ts = PySequence_Fast(tensors, "tensors"), *gs = PySequence_Fast(grads, "grad_tensors"),
             *is = PySequence_Fast(inputs, "inputs");
    tc_tensor **t = NULL, **g = NULL, **in = NULL;
    Py_ssize_t nt = 0, ng = 0, ni = 0;
    PyObject *result = NULL;
    if (ts && gs && is && !tensor_array(ts, "tensors", false, &t, &nt) &&
        !tensor_array(gs, "grad_tensors", true, &g, &ng) && !tensor_array(is, "inputs", false, &in, &ni)) {
        if (ng != nt) {
            PyErr_Format(PyExc_RuntimeError, "got %zd tensors and %zd gradients", nt, ng);
        } else {
            int rc;
            Py_BEGIN_ALLOW_THREADS
            rc = tc_backward((int32_t)nt, t, g, keep_graph, create_graph, (int32_t)ni, in);
            Py_END_ALLOW_THREADS
            result = rc ? tp_raise_core_error() : Py_NewRef(Py_None);
        }
    }
    free(t);
    free(g);
    free(in);
    Py_XDECREF(ts);
    Py_XDECREF(gs);
    Py_XDECREF(is);
    return result;
}

/* _run_grad(outputs, grad_outputs, inputs, keep_graph, create_graph, allow_unused) -> tuple */
static PyObject *py_run_grad(PyObject *m, PyObject *args) {
    PyObject *outputs, *grads, *inputs;
    int keep_graph, create_graph, allow_unused;
    if (!PyArg_ParseTuple(args, "OOOppp", &outputs, &grads, &inputs, &keep_graph, &create_graph, &allow_unused))
        return NULL;
    PyObject *os = PySequence_Fast(outputs, "outputs"), *gs = PySequence_Fast(grads, "grad_outputs"),
             *is = PySequence_Fast(inputs, "inputs");
    tc_tensor **o = NULL, **g = NULL, **in = NULL, **res = NULL;
    Py_ssize_t no = 0, ng = 0, ni = 0;
    PyObject *result = NULL;
    if (os && gs && is && !tensor_array(os, "outputs", false, &o, &no) &&
        !tensor_array(gs, "grad_outputs", true, &g, &ng) && !tensor_array(is, "inputs", false, &in, &ni)) {
        if (ng != no) {
            PyErr_Format(PyExc_RuntimeError, "got %zd outputs and %zd gradients", no, ng);
        } else if (!(res = calloc((size_t)(ni ? ni : 1), sizeof(tc_tensor *)))) {
            PyErr_NoMemory();
        } else {
            int rc;
            Py_BEGIN_ALLOW_THREADS
            rc = tc_grad((int32_t)no, o, g, (int32_t)ni, in, keep_graph, create_graph, allow_unused, res);
            Py_END_ALLOW_THREADS
            if (rc) {
                tp_raise_core_error();
            } else if ((result = PyTuple_New(ni))) {
                for (Py_ssize_t i = 0; i < ni; i++) {
                    PyObject *v = res[i] ? tp_wrap(res[i]) : Py_NewRef(Py_None);
                    res[i] = NULL;
                    if (!v) {
                        Py_CLEAR(result);
                        break;
                    }
                    PyTuple_SET_ITEM(result, i, v);
                }
            }
            for (Py_ssize_t i = 0; i < ni; i++) tc_tensor_release(res[i]);
        }
    }
    free(res);
    free(o);
    free(g);
    free(in);
    Py_XDECREF(os);
    Py_XDECREF(gs);
    Py_XDECREF(is);
    return result;
}

/* ---- modes ---- */

static PyObject *py_set_grad_enabled(PyObject *m, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    tc_set_grad_enabled(on);
    Py_RETURN_NONE;
}
static PyObject *py_is_grad_enabled(PyObject *m, PyObject *unused) { return PyBool_FromLong(tc_grad_enabled()); }

static PyObject *py_set_inference_mode(PyObject *m, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    tc_set_inference_mode(on);
    Py_RETURN_NONE;
}
static PyObject *py_is_inference_mode_enabled(PyObject *m, PyObject *unused) {
    return PyBool_FromLong(tc_inference_mode_enabled());
}

/* The forward traceback anomaly mode keeps with each node. */
static char *capture_trace(void) {
    PyGILState_STATE gil = PyGILState_Ensure();
    char *r = NULL;
    PyObject *tb = PyImport_ImportModule("traceback");
    PyObject *lines = tb ? PyObject_CallMethod(tb, "format_stack", NULL) : NULL;
    PyObject *sep = lines ? PyUnicode_FromString("") : NULL;
    PyObject *text = sep ? PyUnicode_Join(sep, lines) : NULL;
    const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
    if (s) r = strdup(s);
    if (!s) PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(sep);
    Py_XDECREF(lines);
    Py_XDECREF(tb);
    PyGILState_Release(gil);
    return r;
}

static PyObject *py_set_anomaly_enabled(PyObject *m, PyObject *args) {
    int on, check_nan = 1;
    if (!PyArg_ParseTuple(args, "p|p", &on, &check_nan)) return NULL;
    tc_set_anomaly_trace_fn(capture_trace);
    tc_set_anomaly_enabled(on, check_nan);
    Py_RETURN_NONE;
}
static PyObject *py_is_anomaly_enabled(PyObject *m, PyObject *unused) { return PyBool_FromLong(tc_anomaly_enabled()); }
static PyObject *py_is_anomaly_check_nan_enabled(PyObject *m, PyObject *unused) {
    return PyBool_FromLong(tc_anomaly_check_nan());
}

/* ---- saved-tensor hooks: ctx is the (pack, unpack) pair on top of the thread's stack ---- */

static void *saved_pack(void *ctx, tc_tensor *t) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *pair = ctx, *r = NULL;
    tc_tensor_retain(t);
    PyObject *x = tp_wrap(t);
    PyObject *packed = x ? PyObject_CallOneArg(PyTuple_GET_ITEM(pair, 0), x) : NULL;
    if (packed) r = PyTuple_Pack(2, PyTuple_GET_ITEM(pair, 1), packed);
    if (!r) tp_fail_from_python();
    Py_XDECREF(packed);
    Py_XDECREF(x);
    PyGILState_Release(gil);
    return r;
}

static tc_tensor *saved_unpack(void *ctx, void *packed) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *p = packed;
    PyObject *r = PyObject_CallOneArg(PyTuple_GET_ITEM(p, 0), PyTuple_GET_ITEM(p, 1));
    tc_tensor *t = NULL;
    if (r && !tp_is_tensor(r))
        PyErr_Format(PyExc_TypeError, "Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                                      "type %s", Py_TYPE(r)->tp_name);
    else if (r)
        tc_tensor_retain(t = tp_unwrap(r));
    if (!t) tp_fail_from_python();
    Py_XDECREF(r);
    PyGILState_Release(gil);
    return t;
}

static void saved_drop(void *packed) {
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_DECREF((PyObject *)packed);
    PyGILState_Release(gil);
}

/* _set_saved_tensors_hooks(pack, unpack) or (None, None): the thread's current pair. */
static PyObject *py_set_saved_tensors_hooks(PyObject *m, PyObject *args) {
    PyObject *pack, *unpack;
    if (!PyArg_ParseTuple(args, "OO", &pack, &unpack)) return NULL;
    tc_saved_hooks old = tc_saved_hooks_current();
    if (pack == Py_None) {
        tc_set_saved_hooks((tc_saved_hooks){0});
    } else {
        if (!PyCallable_Check(pack) || !PyCallable_Check(unpack))
            return PyErr_Format(PyExc_TypeError, "pack_hook and unpack_hook must be callable");
        PyObject *pair = PyTuple_Pack(2, pack, unpack);
        if (!pair) return NULL;
        tc_set_saved_hooks((tc_saved_hooks){saved_pack, saved_unpack, saved_drop, pair});
    }
    Py_XDECREF((PyObject *)old.ctx);
    Py_RETURN_NONE;
}

/* ---- forward AD ---- */

static PyObject *py_enter_dual_level(PyObject *m, PyObject *unused) {
    int64_t level = tc_fw_enter_level();
    return level < 0 ? tp_raise_core_error() : PyLong_FromLongLong(level);
}

static PyObject *py_exit_dual_level(PyObject *m, PyObject *arg) {
    long long level = PyLong_AsLongLong(arg);
    if (level == -1 && PyErr_Occurred()) return NULL;
    if (tc_fw_exit_level(level)) return tp_raise_core_error();
    Py_RETURN_NONE;
}

static PyObject *py_make_dual(PyObject *m, PyObject *args) {
    PyObject *primal, *tangent;
    long long level;
    if (!PyArg_ParseTuple(args, "O!O!L", tp_tensor_class, &primal, tp_tensor_class, &tangent, &level)) return NULL;
    return tp_wrap(tc_fw_make_dual(tp_unwrap(primal), tp_unwrap(tangent), level));
}

static PyObject *py_unpack_dual(PyObject *m, PyObject *args) {
    PyObject *t;
    long long level;
    if (!PyArg_ParseTuple(args, "O!L", tp_tensor_class, &t, &level)) return NULL;
    tc_tensor *tangent = tc_fw_tangent(tp_unwrap(t), level);
    if (!tangent) return Py_BuildValue("(OO)", t, Py_None);
    PyObject *primal = tp_wrap(tc_fw_primal(tp_unwrap(t)));
    PyObject *tan = tp_wrap(tangent);
    if (!primal || !tan) {
        Py_XDECREF(primal);
        Py_XDECREF(tan);
        return NULL;
    }
    return Py_BuildValue("(NN)", primal, tan);
}

static PyMethodDef autograd_functions[] = {
    {"_enter_dual_level", py_enter_dual_level, METH_NOARGS, NULL},
    {"_exit_dual_level", py_exit_dual_level, METH_O, NULL},
    {"_make_dual", py_make_dual, METH_VARARGS, NULL},
    {"_unpack_dual", py_unpack_dual, METH_VARARGS, NULL},
    {"_run_backward", py_run_backward, METH_VARARGS, NULL},
    {"_run_grad", py_run_grad, METH_VARARGS, NULL},
    {"_set_grad_enabled", py_set_grad_enabled, METH_O, NULL},
    {"is_grad_enabled", py_is_grad_enabled, METH_NOARGS, NULL},
    {"_set_inference_mode", py_set_inference_mode, METH_O, NULL},
    {"is_inference_mode_enabled", py_is_inference_mode_enabled, METH_NOARGS, NULL},
    {"_set_anomaly_enabled", py_set_anomaly_enabled, METH_VARARGS, NULL},
    {"is_anomaly_enabled", py_is_anomaly_enabled, METH_NOARGS, NULL},
    {"is_anomaly_check_nan_enabled", py_is_anomaly_check_nan_enabled, METH_NOARGS, NULL},
    {"_set_saved_tensors_hooks", py_set_saved_tensors_hooks, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int tp_autograd_init(PyObject *module) {
    if (tp_autograd_node_init(module)) return -1;
    return PyModule_AddFunctions(module, autograd_functions);
}
