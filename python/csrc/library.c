/*
 * Ops added while the program runs, from Python (torch.library: define, impl) and from shared
 * objects (torch.ops.load_library), and the calls torch.ops makes. A Python impl becomes a boxed
 * implementation in the core whose context is the Python function: the dispatcher calls back here,
 * the arguments become Python objects, the results boxed values again.
 */
#include "tp.h"

#include "torch_core/tc_autograd.h"

#include <stdlib.h>
#include <string.h>

/* ---- the core's warnings as Python warnings ---- */

static void warn_in_python(const char *message) {
    PyGILState_STATE gil = PyGILState_Ensure();
    if (PyErr_WarnEx(PyExc_UserWarning, message, 1) < 0) PyErr_WriteUnraisable(NULL);
    PyGILState_Release(gil);
}

void tp_install_warning_handler(void) { tc_set_warning_handler(warn_in_python); }

/* ---- the GIL around long kernels ----
 * The core calls these around kernels that run long enough to matter, so that other Python threads
 * run meanwhile (PyTorch releases the GIL in every op). A kernel reached from a thread that does not
 * hold the GIL (the autograd engine runs without it; a kernel's own callbacks, nested) leaves it
 * alone. Everything the core calls back into Python takes the GIL itself (PyGILState_Ensure):
 * warnings above, Python implementations of ops below, hooks, custom Functions, anomaly traces and
 * saved-tensor hooks (autograd_module.c, autograd_node.c, tensor_autograd.c), numpy owners. */
static void *gil_release(void) { return PyGILState_Check() ? PyEval_SaveThread() : NULL; }

static void gil_restore(void *state) {
    if (state) PyEval_RestoreThread(state);
}

static const tc_long_kernel_hooks gil_hooks = {
    .struct_size = sizeof(tc_long_kernel_hooks), .enter = gil_release, .leave = gil_restore};

void tp_install_gil_hooks(void) { tc_set_long_kernel_hooks(&gil_hooks); }

/* ---- boxed values <-> Python ---- */

static PyObject *enum_object(const char *attr, int64_t value) {
    PyObject *torch = PyImport_ImportModule("torch._enums");
    PyObject *r = torch ? PyObject_CallMethod(torch, attr, "L", (long long)value) : NULL;
    Py_XDECREF(torch);
    return r;
}

static PyObject *arg_to_python(const tc_value *v) {
    switch (v->tag) {
    case TC_VALUE_NONE: Py_RETURN_NONE;
    case TC_VALUE_TENSOR:
        tc_tensor_retain(v->v.tensor);
        return tp_wrap(v->v.tensor);
    case TC_VALUE_TENSOR_LIST: {
        PyObject *list = PyList_New(v->v.tensors.len);
        for (int64_t i = 0; list && i < v->v.tensors.len; i++) {
            tc_tensor *t = v->v.tensors.items[i];
            PyObject *item = t ? (tc_tensor_retain(t), tp_wrap(t)) : Py_NewRef(Py_None);
            if (!item) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, i, item);
        }
        return list;
    }
    case TC_VALUE_INT_LIST:
    case TC_VALUE_FLOAT_LIST:
    case TC_VALUE_BOOL_LIST: {
        int64_t n = v->v.ints.len;
        PyObject *list = PyList_New(n);
        for (int64_t i = 0; list && i < n; i++) {
            PyObject *item = v->tag == TC_VALUE_INT_LIST ? PyLong_FromLongLong(v->v.ints.items[i])
                             : v->tag == TC_VALUE_FLOAT_LIST ? PyFloat_FromDouble(v->v.floats.items[i])
                                                             : PyBool_FromLong(v->v.bools.items[i]);
            if (!item) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, i, item);
        }
        return list;
    }
    case TC_VALUE_SCALAR: return tp_scalar_to_python(v->v.scalar, -1);
    case TC_VALUE_INT: return PyLong_FromLongLong(v->v.i);
    case TC_VALUE_FLOAT: return PyFloat_FromDouble(v->v.f);
    case TC_VALUE_BOOL: return PyBool_FromLong(v->v.b);
    case TC_VALUE_STR: return PyUnicode_FromString(v->v.s);
    case TC_VALUE_DTYPE: return Py_NewRef(tp_dtype_object((int32_t)v->v.i));
    case TC_VALUE_DEVICE: return tp_device_object(v->v.device);
    case TC_VALUE_LAYOUT: return enum_object("layout_of", v->v.i);
    case TC_VALUE_MEMORY_FORMAT: return enum_object("memory_format_of", v->v.i);
    default: return PyErr_Format(PyExc_TypeError, "argument of value type %d cannot be passed to Python", v->tag);
    }
}

/* One Python result as the schema's result type; a new reference for tensors. */
static int result_from_python(PyObject *o, const tc_return_schema *r, tc_value *out) {
    out->reserved = 0;
    switch (r->type) {
    case TC_VALUE_TENSOR:
        if (!tp_is_tensor(o)) break;
        out->tag = TC_VALUE_TENSOR;
        out->v.tensor = tp_unwrap(o);
        tc_tensor_retain(out->v.tensor);
        return 0;
    case TC_VALUE_TENSOR_LIST: {
        if (!PyList_Check(o) && !PyTuple_Check(o)) break;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        tc_tensor **items = malloc(sizeof(tc_tensor *) * (size_t)(n ? n : 1));
        if (!items) return PyErr_NoMemory(), -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(o, i);
            if (!tp_is_tensor(item)) {
                for (Py_ssize_t j = 0; j < i; j++) tc_tensor_release(items[j]);
                free(items);
                PyErr_Format(PyExc_TypeError, "expected a list of Tensors as the result, got a %s in it",
                             Py_TYPE(item)->tp_name);
                return -1;
            }
            items[i] = tp_unwrap(item);
            tc_tensor_retain(items[i]);
        }
        out->tag = TC_VALUE_TENSOR_LIST;
        out->v.tensors.items = items;
        out->v.tensors.len = n;
        return 0;
    }
    case TC_VALUE_SCALAR:
        out->tag = TC_VALUE_SCALAR;
        return tp_parse_scalar(o, &out->v.scalar);
    case TC_VALUE_BOOL:
        if (!PyBool_Check(o)) break;
        out->tag = TC_VALUE_BOOL;
        out->v.b = o == Py_True;
        return 0;
    case TC_VALUE_INT:
        if (!PyLong_Check(o)) break;
        out->tag = TC_VALUE_INT;
        out->v.i = PyLong_AsLongLong(o);
        return out->v.i == -1 && PyErr_Occurred() ? -1 : 0;
    case TC_VALUE_FLOAT:
        out->tag = TC_VALUE_FLOAT;
        out->v.f = PyFloat_AsDouble(o);
        return out->v.f == -1.0 && PyErr_Occurred() ? -1 : 0;
    default:
        break;
    }
    PyErr_Format(PyExc_TypeError, "the implementation returned %s where the schema promises another type",
                 Py_TYPE(o)->tp_name);
    return -1;
}

static int fail_from_python(void) { return tp_fail_from_python(); }

/* The boxed implementation of a Python impl: ctx is the Python function. */
static int python_impl(void *ctx, int32_t op, const tc_value *args, tc_value *outs) {
    const tc_op_schema *s = tc_op_schema_of(op);
    PyGILState_STATE gil = PyGILState_Ensure();
    int rc = TC_FAIL;
    PyObject *pos = PyList_New(0), *kw = PyDict_New(), *result = NULL;
    for (int32_t i = 0; pos && kw && i < s->n_args; i++) {
        PyObject *v = arg_to_python(&args[i]);
        int bad = !v || ((s->args[i].flags & TC_ARG_KWONLY) ? PyDict_SetItemString(kw, s->args[i].name, v)
                                                            : PyList_Append(pos, v));
        Py_XDECREF(v);
        if (bad) {
            Py_CLEAR(pos);
            break;
        }
    }
    PyObject *tuple = pos ? PyList_AsTuple(pos) : NULL;
    if (tuple) result = PyObject_Call((PyObject *)ctx, tuple, kw);
    if (result) {
        int32_t n = s->n_returns;
        if (n == 0) {
            rc = TC_OK;
        } else if (n == 1) {
            rc = result_from_python(result, &s->returns[0], &outs[0]) ? TC_FAIL : TC_OK;
        } else if (PyTuple_Check(result) && PyTuple_GET_SIZE(result) == n) {
            int32_t done = 0;
            for (; done < n; done++)
                if (result_from_python(PyTuple_GET_ITEM(result, done), &s->returns[done], &outs[done])) break;
            rc = done == n ? TC_OK : TC_FAIL;
            if (rc) tc_values_release(outs, done);
        } else {
            PyErr_Format(PyExc_TypeError, "%s: the implementation must return a tuple of %d values", s->name, n);
        }
    }
    if (rc) fail_from_python();
    Py_XDECREF(result);
    Py_XDECREF(tuple);
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    PyGILState_Release(gil);
    return rc;
}

/* ---- module functions ---- */

/* _op_define(schema) -> op id */
static PyObject *py_op_define(PyObject *m, PyObject *schema) {
    const char *text = PyUnicode_AsUTF8(schema);
    if (!text) return NULL;
    int32_t id = tc_op_define(text, NULL);
    if (id < 0) return tp_raise_core_error();
    return PyLong_FromLong(id);
}

/* _op_impl(op id, device type name, fn, owner): fn implements the op on that device (strided). */
static PyObject *py_op_impl(PyObject *m, PyObject *args) {
    int id;
    const char *device, *owner;
    PyObject *fn;
    if (!PyArg_ParseTuple(args, "isOs", &id, &device, &fn, &owner)) return NULL;
    if (!PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "impl: expected a function");
    int32_t type;
    if (tp_device_type(device, &type)) return NULL;
    Py_INCREF(fn); /* lives as long as the registration: for the rest of the process */
    if (tc_op_impl(id, type, TC_STRIDED, python_impl, fn, owner)) {
        Py_DECREF(fn);
        return tp_raise_core_error();
    }
    Py_RETURN_NONE;
}

/* _op_overloads(name) -> [(overload, id)] for "ns::name" or a built-in name. */
static PyObject *py_op_overloads(PyObject *m, PyObject *name) {
    const char *text = PyUnicode_AsUTF8(name);
    if (!text) return NULL;
    PyObject *list = PyList_New(0);
    int32_t n = tc_op_count();
    for (int32_t i = 0; list && i < n; i++) {
        const tc_op_schema *s = tc_op_schema_of(i);
        if (strcmp(s->name, text) != 0) continue;
        PyObject *item = Py_BuildValue("(si)", s->overload, i);
        if (!item || PyList_Append(list, item)) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list;
}

static PyObject *py_op_count(PyObject *m, PyObject *unused) { return PyLong_FromLong(tc_op_count()); }

/* _op_autograd(id) -> (kind, node name or None, [argument names with a formula]); kind is "none",
 * "formula", "composite" or "missing" (tc_op_autograd). */
static PyObject *py_op_autograd(PyObject *m, PyObject *arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    const tc_op_schema *s = tc_op_schema_of((int32_t)id);
    if (!s) return PyErr_Format(PyExc_ValueError, "unknown op id %ld", id);
    const char *name = NULL;
    uint64_t args = 0;
    static const char *kinds[] = {"none", "formula", "composite", "missing"};
    int kind = tc_op_autograd((int32_t)id, &name, &args);
    PyObject *names = PyList_New(0);
    for (int32_t i = 0; names && i < s->n_args && i < 64; i++) {
        if (!(args >> i & 1)) continue;
        PyObject *n = PyUnicode_FromString(s->args[i].name);
        if (!n || PyList_Append(names, n)) Py_CLEAR(names);
        Py_XDECREF(n);
    }
    if (!names) return NULL;
    return Py_BuildValue("(szN)", kinds[kind], name, names);
}

/* _op_coverage(id) -> (kernel name or None, {device type name: [dtype names]}) over the device types
 * and dtypes registered now (the any-dtype slot counts as every dtype). */
static PyObject *py_op_coverage(PyObject *m, PyObject *arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    if (!tc_op_schema_of((int32_t)id)) return PyErr_Format(PyExc_ValueError, "unknown op id %ld", id);
    const char *kernel = tc_op_kernel_name((int32_t)id);
    PyObject *by_device = PyDict_New();
    for (int32_t type = 0; kernel && by_device && type < TC_MAX_DEVICE_TYPES; type++) {
        const char *device = tc_device_type_name(type);
        if (strcmp(device, "unknown") == 0) break;
        bool any = tc_kernel_registered(kernel, type, TC_STRIDED, TC_ANY_DTYPE);
        PyObject *dtypes = PyList_New(0);
        for (int32_t d = 0; dtypes && d < TC_NUM_DTYPES; d++) {
            if (!any && !tc_kernel_registered(kernel, type, TC_STRIDED, d)) continue;
            PyObject *name = PyUnicode_FromString(tc_dtype_name(d));
            if (!name || PyList_Append(dtypes, name)) Py_CLEAR(dtypes);
            Py_XDECREF(name);
        }
        if (!dtypes || (PyList_GET_SIZE(dtypes) && PyDict_SetItemString(by_device, device, dtypes))) Py_CLEAR(by_device);
        Py_XDECREF(dtypes);
    }
    if (!by_device) return NULL;
    return Py_BuildValue("(zN)", kernel, by_device);
}

static PyObject *py_layout_names(PyObject *m, PyObject *unused) {
    int32_t n = tc_layout_count();
    PyObject *list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, PyUnicode_FromString(tc_layout_name(i)));
    return list;
}

/* _op_schema(id) -> the schema text */
static PyObject *py_op_schema(PyObject *m, PyObject *arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    const tc_op_schema *s = tc_op_schema_of((int32_t)id);
    if (!s) return PyErr_Format(PyExc_ValueError, "unknown op id %ld", id);
    return PyUnicode_FromString(s->text);
}

static PyObject *value_description(const tc_value *v) {
    if (v->tag == TC_VALUE_NONE) Py_RETURN_NONE;
    if (v->tag == TC_VALUE_SCALAR)
        return v->v.scalar.kind == TC_SCALAR_FLOAT ? PyFloat_FromDouble(v->v.scalar.v.f)
                                                  : PyLong_FromLongLong(v->v.scalar.v.i);
    return arg_to_python(v);
}

/* A schema as plain data: {"name", "overload", "args": [(name, type, flags, fixed_len, default)],
 * "returns": [(name, type, flags, alias_arg)]}. */
static PyObject *schema_info(const tc_op_schema *s) {
    PyObject *args = PyList_New(s->n_args), *rets = PyList_New(s->n_returns);
    for (int32_t i = 0; args && i < s->n_args; i++) {
        const tc_arg_schema *a = &s->args[i];
        PyObject *dflt = value_description(&a->default_value);
        PyObject *item = dflt ? Py_BuildValue("(siIiN)", a->name, a->type, a->flags, a->fixed_len, dflt) : NULL;
        if (!item) {
            Py_CLEAR(args);
            break;
        }
        PyList_SET_ITEM(args, i, item);
    }
    for (int32_t i = 0; rets && i < s->n_returns; i++) {
        const tc_return_schema *r = &s->returns[i];
        PyObject *item = Py_BuildValue("(ziIi)", r->name, r->type, r->flags, r->alias_arg);
        if (!item) {
            Py_CLEAR(rets);
            break;
        }
        PyList_SET_ITEM(rets, i, item);
    }
    if (!args || !rets) {
        Py_XDECREF(args);
        Py_XDECREF(rets);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:s,s:N,s:N,s:I}", "name", s->name, "overload", s->overload, "args", args, "returns",
                         rets, "flags", s->flags);
}

/* _schema_info(op id or schema text): the op's schema, or the run-time parser's reading of a text. */
static PyObject *py_schema_info(PyObject *m, PyObject *arg) {
    if (PyUnicode_Check(arg)) {
        const char *text = PyUnicode_AsUTF8(arg);
        tc_op_schema *s = text ? tc_schema_parse_text(text) : NULL;
        if (!s) return text ? tp_raise_core_error() : NULL;
        PyObject *info = schema_info(s);
        tc_schema_free(s);
        return info;
    }
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    const tc_op_schema *s = tc_op_schema_of((int32_t)id);
    if (!s) return PyErr_Format(PyExc_ValueError, "unknown op id %ld", id);
    return schema_info(s);
}

/* _call_ops(ids, name, args tuple, kwargs dict or None): the op binding for torch.ops objects. */
static PyObject *py_call_ops(PyObject *m, PyObject *args) {
    PyObject *ids, *call_args, *kwargs;
    const char *name;
    if (!PyArg_ParseTuple(args, "O!sO!O", &PyTuple_Type, &ids, &name, &PyTuple_Type, &call_args, &kwargs)) return NULL;
    Py_ssize_t n_ids = PyTuple_GET_SIZE(ids), nargs = PyTuple_GET_SIZE(call_args);
    Py_ssize_t nkw = kwargs != Py_None ? PyDict_Size(kwargs) : 0;
    int32_t *list = PyMem_Malloc(sizeof(int32_t) * (size_t)(n_ids + 1));
    PyObject **flat = PyMem_Malloc(sizeof(PyObject *) * (size_t)(nargs + nkw + 1));
    PyObject *kwnames = nkw ? PyTuple_New(nkw) : NULL;
    PyObject *result = NULL;
    if (!list || !flat || (nkw && !kwnames)) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_ids; i++) list[i] = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(ids, i));
    list[n_ids] = -1;
    for (Py_ssize_t i = 0; i < nargs; i++) flat[i] = PyTuple_GET_ITEM(call_args, i);
    Py_ssize_t pos = 0, k = 0;
    PyObject *key, *value;
    while (nkw && PyDict_Next(kwargs, &pos, &key, &value)) {
        PyTuple_SET_ITEM(kwnames, k, Py_NewRef(key));
        flat[nargs + k++] = value;
    }
    result = tp_call_ops(list, name, NULL, flat, nargs, kwnames);
done:
    PyMem_Free(list);
    PyMem_Free(flat);
    Py_XDECREF(kwnames);
    return result;
}

/* _load_library(path): a plugin (an extension of ops and kernels) loaded now. */
static PyObject *py_load_library(PyObject *m, PyObject *path) {
    const char *text = PyUnicode_AsUTF8(path);
    if (!text) return NULL;
    /* the GIL stays held: the plugin list may grow and move, and other threads read it under the GIL */
    if (tc_plugin_load_path(text)) return tp_raise_core_error();
    Py_RETURN_NONE;
}

PyMethodDef tp_library_functions[] = {
    {"_op_define", py_op_define, METH_O, NULL},
    {"_op_impl", py_op_impl, METH_VARARGS, NULL},
    {"_op_overloads", py_op_overloads, METH_O, NULL},
    {"_op_schema", py_op_schema, METH_O, NULL},
    {"_schema_info", py_schema_info, METH_O, NULL},
    {"_op_count", py_op_count, METH_NOARGS, NULL},
    {"_op_autograd", py_op_autograd, METH_O, NULL},
    {"_layout_names", py_layout_names, METH_NOARGS, NULL},
    {"_op_coverage", py_op_coverage, METH_O, NULL},
    {"_call_ops", py_call_ops, METH_VARARGS, NULL},
    {"_load_library", py_load_library, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
