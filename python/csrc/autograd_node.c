/*
 * Nodes of the autograd graph as Python objects (grad_fn, next_functions), their hooks, and the node
 * of a custom torch.autograd.Function, whose backward is Python.
 *
 * Every built-in node is shown as an instance of a class named after it (AddBackward0), made on
 * first use as a subclass of torch.autograd.graph.Node (registered by torch/autograd/graph.py), so
 * `type(y.grad_fn).__name__` and its repr are PyTorch's. A node keeps its Python object in its
 * frontend slot while that object lives: `y.grad_fn is y.grad_fn`.
 *
 * A custom Function's ctx is itself the node's Python object (as in PyTorch): the node owns the ctx,
 * the ctx points back at the node weakly (cleared when the node goes).
 */
#include "tp.h"

#include "torch_core/tc_autograd.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    tc_node *node;
    int owned; /* 1: this object holds a reference (built-in nodes); 0: a custom Function's ctx */
} TPNode;

static PyObject *node_base;    /* torch.autograd.graph.Node: what per-name classes derive from */
static PyObject *node_classes; /* name -> class */

static tc_node *node_of(PyObject *self) {
    tc_node *n = ((TPNode *)self)->node;
    if (!n) PyErr_SetString(PyExc_RuntimeError, "this node of the autograd graph has been freed");
    return n;
}

static PyObject *class_for(const char *name) {
    PyObject *cls = node_classes ? PyDict_GetItemString(node_classes, name) : NULL;
    if (cls) return Py_NewRef(cls);
    if (!node_base) return PyErr_Format(PyExc_RuntimeError, "torch.autograd is not initialised");
    if (!node_classes && !(node_classes = PyDict_New())) return NULL;
    PyObject *dict = Py_BuildValue("{s:s}", "__module__", "torch.autograd.graph");
    cls = dict ? PyObject_CallFunction((PyObject *)&PyType_Type, "s(O)O", name, node_base, dict) : NULL;
    Py_XDECREF(dict);
    if (cls && PyDict_SetItemString(node_classes, name, cls)) Py_CLEAR(cls);
    return cls;
}

PyObject *tp_node_wrap(tc_node *n) {
    PyObject *o = tc_node_frontend(n);
    if (o) {
        Py_INCREF(o);
        tc_node_release(n);
        return o;
    }
    PyObject *cls = class_for(tc_node_name(n));
    if (!cls) {
        tc_node_release(n);
        return NULL;
    }
    o = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    Py_DECREF(cls);
    if (!o) {
        tc_node_release(n);
        return NULL;
    }
    ((TPNode *)o)->node = n;
    ((TPNode *)o)->owned = 1;
    tc_node_set_frontend(n, o);
    return o;
}

static void node_dealloc(PyObject *self) {
    TPNode *t = (TPNode *)self;
    if (t->node && t->owned) {
        if (tc_node_frontend(t->node) == self) tc_node_set_frontend(t->node, NULL);
        tc_node_release(t->node);
    }
    t->node = NULL;
    Py_TYPE(self)->tp_free(self);
}

static PyObject *node_name(PyObject *self, PyObject *unused) {
    tc_node *n = node_of(self);
    return n ? PyUnicode_FromString(tc_node_name(n)) : NULL;
}

static PyObject *node_next_functions(PyObject *self, void *unused) {
    tc_node *n = node_of(self);
    if (!n) return NULL;
    int32_t count = tc_node_num_edges(n);
    PyObject *r = PyTuple_New(count);
    for (int32_t i = 0; r && i < count; i++) {
        uint32_t nr = 0;
        tc_node *next = tc_node_edge(n, i, &nr);
        PyObject *fn;
        if (next) {
            tc_node_retain(next);
            fn = tp_node_wrap(next);
        } else {
            fn = Py_NewRef(Py_None);
        }
        PyObject *pair = fn ? Py_BuildValue("(NI)", fn, nr) : NULL;
        if (!pair) {
            Py_CLEAR(r);
            break;
        }
        PyTuple_SET_ITEM(r, i, pair);
    }
    return r;
}

static PyObject *node_variable(PyObject *self, void *unused) {
    tc_node *n = node_of(self);
    if (!n) return NULL;
    tc_tensor *v = tc_node_variable(n);
    if (!v) return PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute 'variable'", tc_node_name(n));
    return tp_wrap(v);
}

static PyObject *node_sequence_nr(PyObject *self, PyObject *unused) {
    tc_node *n = node_of(self);
    return n ? PyLong_FromUnsignedLongLong(tc_node_sequence_nr(n)) : NULL;
}

static PyObject *node_trace(PyObject *self, PyObject *unused) {
    tc_node *n = node_of(self);
    if (!n) return NULL;
    const char *t = tc_node_trace(n);
    return t ? PyUnicode_FromString(t) : Py_NewRef(Py_None);
}

/* ---- hooks on nodes ---- */

static PyObject *grads_tuple(tc_tensor *const *grads, int32_t n) {
    PyObject *t = PyTuple_New(n);
    for (int32_t i = 0; t && i < n; i++) {
        PyObject *g;
        if (grads[i]) {
            tc_tensor_retain(grads[i]);
            g = tp_wrap(grads[i]);
        } else {
            g = Py_NewRef(Py_None);
        }
        if (!g) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, g);
    }
    return t;
}

/* Replaces grads[0..n) with the items of a hook's result (None: keep them). */
static int take_replacement(PyObject *r, tc_tensor **grads, int32_t n, const char *what) {
    if (r == Py_None) return 0;
    if (!PyTuple_Check(r) && !PyList_Check(r)) {
        PyErr_Format(PyExc_TypeError, "%s hook must return None or a tuple of gradients", what);
        return -1;
    }
    PyObject *seq = PySequence_Fast(r, "hook result");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_RuntimeError, "hook '%s' has returned an incorrect number of values (got %zd, but expected %d)",
                     what, PySequence_Fast_GET_SIZE(seq), n);
        Py_DECREF(seq);
        return -1;
    }
    for (int32_t i = 0; i < n; i++) {
        PyObject *g = PySequence_Fast_GET_ITEM(seq, i);
        if (g != Py_None && !tp_is_tensor(g)) {
            PyErr_Format(PyExc_TypeError, "expected a Tensor or None from the %s hook, got %s", what, Py_TYPE(g)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        PyObject *g = PySequence_Fast_GET_ITEM(seq, i);
        tc_tensor *t = g == Py_None ? NULL : tp_unwrap(g);
        if (t) tc_tensor_retain(t);
        tc_tensor_release(grads[i]);
        grads[i] = t;
    }
    Py_DECREF(seq);
    return 0;
}

static int node_hook(void *ctx, tc_tensor **grads, int32_t n, tc_tensor *const *received, int32_t n_received) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int rc = TC_OK;
    PyObject *a = grads_tuple(grads, n), *b = NULL, *r = NULL;
    if (a && received) b = grads_tuple(received, n_received);
    if (a && (!received || b))
        r = received ? PyObject_CallFunctionObjArgs((PyObject *)ctx, a, b, NULL) : PyObject_CallOneArg((PyObject *)ctx, a);
    if (!r || take_replacement(r, grads, n, received ? "post" : "pre")) rc = tp_fail_from_python();
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(r);
    PyGILState_Release(gil);
    return rc;
}

static void release_callable(void *ctx) {
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(gil);
}

static PyObject *add_hook(PyObject *self, PyObject *fn, bool pre) {
    tc_node *n = node_of(self);
    if (!n) return NULL;
    if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "hook must be callable");
    Py_INCREF(fn);
    int64_t id = pre ? tc_node_add_prehook(n, node_hook, fn, release_callable)
                     : tc_node_add_posthook(n, node_hook, fn, release_callable);
    if (id < 0) {
        Py_DECREF(fn);
        return tp_raise_core_error();
    }
    return PyLong_FromLongLong(id);
}

static PyObject *node_register_hook(PyObject *self, PyObject *fn) { return add_hook(self, fn, false); }
static PyObject *node_register_prehook(PyObject *self, PyObject *fn) { return add_hook(self, fn, true); }

static PyObject *node_remove_hook(PyObject *self, PyObject *id) {
    tc_node *n = node_of(self);
    long long v = PyLong_AsLongLong(id);
    if (!n || (v == -1 && PyErr_Occurred())) return NULL;
    tc_node_remove_hook(n, v);
    Py_RETURN_NONE;
}

static PyMethodDef node_methods[] = {
    {"name", node_name, METH_NOARGS, NULL},
    {"_sequence_nr", node_sequence_nr, METH_NOARGS, NULL},
    {"_forward_trace", node_trace, METH_NOARGS, NULL},
    {"_register_hook", node_register_hook, METH_O, NULL},
    {"_register_prehook", node_register_prehook, METH_O, NULL},
    {"_remove_hook", node_remove_hook, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef node_getset[] = {
    {"next_functions", node_next_functions, NULL, NULL, NULL},
    {"variable", node_variable, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject TPNode_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "torch._C._Node",
    .tp_basicsize = sizeof(TPNode),
    .tp_dealloc = node_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_methods = node_methods,
    .tp_getset = node_getset,
};

/* ---- custom Functions ---- */

typedef struct py_function_state {
    PyObject *ctx; /* owned */
    char *name;
    bool *input_is_tensor; /* per forward input */
    int32_t n_saved;
    tc_saved_tensor **saved;
} py_function_state;

static int py_function_apply(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out) {
    py_function_state *s = state;
    PyGILState_STATE gil = PyGILState_Ensure();
    int rc = TC_FAIL;
    int32_t n_edges = tc_node_num_edges(n);
    PyObject *args = grads_tuple(grads, tc_node_num_inputs(n));
    PyObject *r = args ? PyObject_CallMethod(s->ctx, "_do_backward", "(O)", args) : NULL;
    PyObject *seq = r ? PySequence_Fast(r, "backward must return a tuple") : NULL;
    if (seq) {
        Py_ssize_t got = PySequence_Fast_GET_SIZE(seq);
        bool extra_none = true;
        for (Py_ssize_t i = n_edges; i < got; i++) extra_none = extra_none && PySequence_Fast_GET_ITEM(seq, i) == Py_None;
        if (got < n_edges || (got > n_edges && !extra_none)) {
            PyErr_Format(PyExc_RuntimeError, "function %s returned an incorrect number of gradients (expected %d, got %zd)",
                         s->name, n_edges, got);
        } else {
            rc = TC_OK;
            for (int32_t i = 0; i < n_edges; i++) {
                PyObject *g = PySequence_Fast_GET_ITEM(seq, i);
                if (g == Py_None) continue;
                if (!tp_is_tensor(g)) {
                    PyErr_Format(PyExc_RuntimeError, "expected Variable or None (got %s)", Py_TYPE(g)->tp_name);
                    rc = TC_FAIL;
                    break;
                }
                if (!s->input_is_tensor[i]) {
                    PyErr_Format(PyExc_RuntimeError, "function %s returned a gradient different than None at position "
                                                     "%d, but the corresponding forward input was not a Variable",
                                 s->name, i + 1);
                    rc = TC_FAIL;
                    break;
                }
                if (!tc_node_needs_input_grad(n, i)) continue;
                out[i] = tp_unwrap(g);
                tc_tensor_retain(out[i]);
            }
        }
    }
    if (rc) {
        for (int32_t i = 0; i < n_edges; i++) {
            tc_tensor_release(out[i]);
            out[i] = NULL;
        }
        tp_fail_from_python();
    }
    Py_XDECREF(seq);
    Py_XDECREF(r);
    Py_XDECREF(args);
    PyGILState_Release(gil);
    return rc;
}

static void py_function_release_saved(tc_node *n, void *state) {
    py_function_state *s = state;
    for (int32_t i = 0; i < s->n_saved; i++) {
        tc_saved_tensor_free(s->saved[i]);
        s->saved[i] = NULL;
    }
}

static void py_function_destroy(tc_node *n, void *state) {
    py_function_state *s = state;
    py_function_release_saved(n, state);
    free(s->saved);
    free(s->name);
    free(s->input_is_tensor);
    if (s->ctx) {
        PyGILState_STATE gil = PyGILState_Ensure();
        ((TPNode *)s->ctx)->node = NULL;
        Py_DECREF(s->ctx);
        PyGILState_Release(gil);
    }
}

static const tc_node_class py_function_class = {
    .name = "PythonFunction",
    .apply = py_function_apply,
    .release_saved = py_function_release_saved,
    .destroy = py_function_destroy,
    .flags = TC_NODE_MATERIALIZE_GRADS | TC_NODE_APPLY_UNDEFINED,
};
static const tc_node_class py_function_class_raw = {
    .name = "PythonFunction",
    .apply = py_function_apply,
    .release_saved = py_function_release_saved,
    .destroy = py_function_destroy,
    .flags = TC_NODE_APPLY_UNDEFINED,
};

static bool contains(PyObject *seq, PyObject *o) {
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++)
        if (PySequence_Fast_GET_ITEM(seq, i) == o) return true;
    return false;
}

/* ctx._record(inputs, outputs, dirty, non_differentiable, to_save, materialize) -> outputs: makes
 * this ctx's node once forward has run (grad mode on and some input requiring grad). An input
 * returned unchanged comes back as an alias of it, so that it can carry the node as grad_fn. */
static PyObject *function_record(PyObject *self, PyObject *args) {
    PyObject *inputs, *outputs, *dirty, *non_diff, *to_save;
    int materialize;
    if (!PyArg_ParseTuple(args, "O!O!OOOp", &PyTuple_Type, &inputs, &PyTuple_Type, &outputs, &dirty, &non_diff,
                          &to_save, &materialize))
        return NULL;
    PyObject *dirty_seq = PySequence_Fast(dirty, "dirty"), *nd_seq = PySequence_Fast(non_diff, "non_differentiable");
    PyObject *save_seq = PySequence_Fast(to_save, "saved tensors");
    PyObject *result = NULL;
    tc_tensor **edge_tensors = NULL;
    tc_node *node = NULL;
    if (!dirty_seq || !nd_seq || !save_seq) goto done;
    Py_ssize_t n_in = PyTuple_GET_SIZE(inputs), n_out = PyTuple_GET_SIZE(outputs);
    if (!(edge_tensors = calloc((size_t)(n_in ? n_in : 1), sizeof(tc_tensor *)))) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_in; i++) {
        PyObject *x = PyTuple_GET_ITEM(inputs, i);
        edge_tensors[i] = tp_is_tensor(x) ? tp_unwrap(x) : NULL;
    }
    node = tc_node_create(materialize ? &py_function_class : &py_function_class_raw, (int32_t)n_out, edge_tensors,
                          (int32_t)n_in, sizeof(py_function_state));
    if (!node) {
        tp_raise_core_error();
        goto done;
    }
    py_function_state *s = tc_node_state(node);
    const char *cls_name = Py_TYPE(self)->tp_name;
    const char *dot = strrchr(cls_name, '.');
    if (!(s->name = strdup(dot ? dot + 1 : cls_name))) {
        PyErr_NoMemory();
        goto done;
    }
    tc_node_set_name(node, s->name);
    if (!(s->input_is_tensor = calloc((size_t)(n_in ? n_in : 1), sizeof(bool)))) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_in; i++) s->input_is_tensor[i] = edge_tensors[i] != NULL;
    s->ctx = Py_NewRef(self);
    ((TPNode *)self)->node = node;
    ((TPNode *)self)->owned = 0;
    tc_node_set_frontend(node, self);
    if (!(result = PyTuple_New(n_out))) goto done;
    for (Py_ssize_t i = 0; i < n_out; i++) {
        PyObject *o = PyTuple_GET_ITEM(outputs, i);
        if (!tp_is_tensor(o) || contains(nd_seq, o)) {
            PyTuple_SET_ITEM(result, i, Py_NewRef(o));
            continue;
        }
        tc_tensor *t = tp_unwrap(o);
        PyObject *final = NULL;
        if (contains(dirty_seq, o)) {
            if (tc_node_set_output(node, (int32_t)i, t, true) == TC_OK) final = Py_NewRef(o);
        } else if (contains(inputs, o)) { /* returned unchanged: an alias carries the history */
            bool was = tc_grad_enabled();
            tc_set_grad_enabled(false);
            tc_tensor *alias = tc_alias(t);
            tc_set_grad_enabled(was);
            if (alias && tc_node_set_output(node, (int32_t)i, alias, false) == TC_OK) final = tp_wrap(alias);
            else tc_tensor_release(alias);
        } else if ((!tc_dtype_is_floating(t->dtype) && !tc_dtype_is_complex(t->dtype)) ||
                   tc_node_set_output(node, (int32_t)i, t, false) == TC_OK) {
            final = Py_NewRef(o);
        }
        if (!final) {
            if (!PyErr_Occurred()) tp_raise_core_error();
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, i, final);
    }
    Py_ssize_t n_save = PySequence_Fast_GET_SIZE(save_seq);
    if (n_save && !(s->saved = calloc((size_t)n_save, sizeof(tc_saved_tensor *)))) {
        PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_save; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(save_seq, i);
        if (o != Py_None && !tp_is_tensor(o)) {
            PyErr_SetString(PyExc_TypeError, "save_for_backward can only save variables, but argument %zd is not a "
                                             "Variable");
            Py_CLEAR(result);
            goto done;
        }
        bool is_output = o != Py_None && contains(result, o);
        s->saved[i] = tc_saved_tensor_new(o == Py_None ? NULL : tp_unwrap(o), is_output);
        if (!s->saved[i]) {
            tp_raise_core_error();
            Py_CLEAR(result);
            goto done;
        }
        s->n_saved = (int32_t)i + 1;
    }
done:
    free(edge_tensors);
    tc_node_release(node); /* the outputs hold it (and through it this ctx) */
    Py_XDECREF(dirty_seq);
    Py_XDECREF(nd_seq);
    Py_XDECREF(save_seq);
    return result;
}

static PyObject *function_saved_tensors(PyObject *self, void *unused) {
    tc_node *n = ((TPNode *)self)->node;
    if (!n)
        return PyErr_Format(PyExc_RuntimeError,
                            "Trying to backward through the graph a second time (or directly access saved tensors after "
                            "they have already been freed). Saved intermediate values of the graph are freed when you "
                            "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
                            "through the graph a second time or if you need to access saved tensors after calling "
                            "backward.");
    py_function_state *s = tc_node_state(n);
    PyObject *r = PyTuple_New(s->n_saved);
    for (int32_t i = 0; r && i < s->n_saved; i++) {
        tc_tensor *t = NULL;
        if (!s->saved[i]) {
            tc_set_error(TC_ERR_RUNTIME,
                         "Trying to backward through the graph a second time (or directly access saved tensors after "
                         "they have already been freed). Saved intermediate values of the graph are freed when you call "
                         ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
                         "graph a second time or if you need to access saved tensors after calling backward.");
            Py_CLEAR(r);
            return tp_raise_core_error();
        }
        if (tc_saved_tensor_unpack(s->saved[i], n, &t)) {
            Py_CLEAR(r);
            return tp_raise_core_error();
        }
        PyObject *v = t ? tp_wrap(t) : Py_NewRef(Py_None);
        if (!v) {
            Py_CLEAR(r);
            break;
        }
        PyTuple_SET_ITEM(r, i, v);
    }
    return r;
}

static PyObject *function_has_node(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(((TPNode *)self)->node != NULL);
}

static PyMethodDef function_methods[] = {
    {"_record", function_record, METH_VARARGS, NULL},
    {"_has_node", function_has_node, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef function_getset[] = {
    {"saved_tensors", function_saved_tensors, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static void function_dealloc(PyObject *self) { Py_TYPE(self)->tp_free(self); }

PyTypeObject TPFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "torch._C._FunctionBase",
    .tp_basicsize = sizeof(TPNode),
    .tp_dealloc = function_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_methods = function_methods,
    .tp_getset = function_getset,
    .tp_new = PyType_GenericNew,
};

static PyObject *py_set_node_base(PyObject *m, PyObject *cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &TPNode_Type))
        return PyErr_Format(PyExc_TypeError, "the node base must derive from torch._C._Node");
    Py_XSETREF(node_base, Py_NewRef(cls));
    Py_CLEAR(node_classes);
    Py_RETURN_NONE;
}

static PyMethodDef node_functions[] = {
    {"_set_node_base", py_set_node_base, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

int tp_autograd_node_init(PyObject *module) {
    TPFunction_Type.tp_base = &TPNode_Type;
    if (PyType_Ready(&TPNode_Type) < 0 || PyType_Ready(&TPFunction_Type) < 0) return -1;
    if (PyModule_AddObjectRef(module, "_Node", (PyObject *)&TPNode_Type) < 0) return -1;
    if (PyModule_AddObjectRef(module, "_FunctionBase", (PyObject *)&TPFunction_Type) < 0) return -1;
    return PyModule_AddFunctions(module, node_functions);
}
