/*
 * The one argument parser behind every generated op binding: binds Python arguments to a
 * signature from core/ops.table (trying overloads in order), converts them into a tc_call and
 * runs the op. Per-op code is generated; this file is the only parser.
 */
#include "tp.h"

#include <string.h>

#define MAX_ARGS 8

static PyObject *return_types[TC_NUM_OPS];
static PyStructSequence_Field pair_fields[] = {{"values", NULL}, {"indices", NULL}, {NULL, NULL}};

/* PyTorch writes one field per line: "torch.return_types.max(\nvalues=...,\nindices=...)". */
static PyObject *pair_repr(PyObject *self) {
    return PyUnicode_FromFormat("%s(\nvalues=%R,\nindices=%R)", Py_TYPE(self)->tp_name,
                                PyStructSequence_GET_ITEM(self, 0), PyStructSequence_GET_ITEM(self, 1));
}

/* torch.return_types.<name>: a named (values, indices) pair, created on first use. */
static PyObject *pair_type(int32_t op) {
    if (return_types[op]) return return_types[op];
    static char names[TC_NUM_OPS][64];
    snprintf(names[op], sizeof names[op], "torch.return_types.%s", tc_op_infos[op].name);
    PyStructSequence_Desc desc = {names[op], NULL, pair_fields, 2};
    PyTypeObject *type = PyStructSequence_NewType(&desc);
    if (type) type->tp_repr = pair_repr;
    return_types[op] = (PyObject *)type;
    return return_types[op];
}

int tp_is_numpy_bool(PyObject *o) {
    /* numpy.bool_ is no int subclass but has __index__ (deprecated): recognise it before that */
    return strcmp(Py_TYPE(o)->tp_name, "numpy.bool_") == 0;
}

int tp_parse_scalar(PyObject *o, tc_scalar *out) {
    out->reserved = 0;
    if (PyBool_Check(o) || tp_is_numpy_bool(o)) {
        int truth = PyObject_IsTrue(o);
        if (truth < 0) return -1;
        out->is_float = 0;
        out->v.i = truth;
        return 0;
    }
    if (PyLong_Check(o)) {
        int overflow;
        out->is_float = 0;
        out->v.i = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        return out->v.i == -1 && PyErr_Occurred() ? -1 : 0;
    }
    if (PyFloat_Check(o)) {
        out->is_float = 1;
        out->v.f = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (tp_is_tensor(o) && tc_tensor_numel(tp_unwrap(o)) == 1) {
        tc_tensor *t = tp_unwrap(o);
        if (tc_tensor_get(t, 0, out)) return tp_raise_core_error(), -1;
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
        out->is_float = 1;
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
    tc_tensor *t = tc_scalar_tensor(s, dtype, (tc_device){TC_DEVICE_CPU, 0});
    if (!t) {
        tp_raise_core_error();
        return NULL;
    }
    t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

PyObject *tp_scalar_to_python(tc_scalar s, int32_t dtype) {
    if (dtype == TC_BOOL) return PyBool_FromLong((long)s.v.i);
    if (s.is_float) return PyFloat_FromDouble(s.v.f);
    return PyLong_FromLongLong(s.v.i);
}

static int parse_int(PyObject *o, int64_t *out) {
    if (PyBool_Check(o) || PyFloat_Check(o)) return -1;
    if (tp_is_tensor(o)) {
        tc_tensor *t = tp_unwrap(o);
        tc_scalar s;
        if (t->ndim != 0 || !tc_dtype_is_integral(t->dtype) || tc_tensor_get(t, 0, &s)) return -1;
        *out = s.v.i;
        return 0;
    }
    if (!PyIndex_Check(o)) return -1;
    PyObject *i = PyNumber_Index(o);
    if (!i) {
        PyErr_Clear();
        return -1;
    }
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    return overflow ? -1 : 0;
}

static int parse_int_list(PyObject *o, int64_t *out, int32_t *n) {
    int64_t single;
    if (parse_int(o, &single) == 0) {
        out[0] = single;
        *n = 1;
        return 0;
    }
    if (!PyTuple_Check(o) && !PyList_Check(o)) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(o);
    if (len > TC_MAX_DIMS) return -1;
    for (Py_ssize_t i = 0; i < len; i++)
        if (parse_int(PySequence_Fast_GET_ITEM(o, i), &out[i])) return -1;
    *n = (int32_t)len;
    return 0;
}

typedef struct {
    PyObject *values[MAX_ARGS];
    tc_tensor *owned[MAX_ARGS]; /* wrapped numbers made while converting */
    int n_owned;
    const char *bad_arg;        /* for the error message */
    const char *bad_type;
    int bad_position;
} binding;

static void binding_release(binding *b) {
    for (int i = 0; i < b->n_owned; i++) tc_tensor_release(b->owned[i]);
    b->n_owned = 0;
}

/* Matches positional and keyword arguments to parameters. 0 on success, -1 when this signature
 * does not fit (no exception set). */
static int bind(const tp_signature *sig, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames, binding *b, PyObject **varargs_tuple) {
    memset(b->values, 0, sizeof b->values);
    int p = 0;
    if (self) b->values[p++] = self;
    /* As in PyTorch, x.view(2, 3) spreads an int list over positional arguments only in a method
     * whose one positional parameter is that list: x.sum(0, True) is dim=0, keepdim=True. */
    int positional = 0;
    for (int i = p; i < sig->n_args; i++) positional += !(sig->args[i].flags & TP_KWONLY);
    int varargs_ok = self && positional == 1;
    Py_ssize_t a = 0;
    for (; a < nargs && p < sig->n_args; a++, p++) {
        const tp_arg *arg = &sig->args[p];
        if (arg->flags & TP_KWONLY) return -1;
        /* x.view(2, 3): an int list given as separate positional ints */
        if (varargs_ok && arg->kind == TP_INTLIST && nargs - a > 1 && PyIndex_Check(args[a]) &&
            !tp_is_tensor(args[a])) {
            PyObject *t = PyTuple_New(nargs - a);
            if (!t) return -1;
            for (Py_ssize_t i = a; i < nargs; i++) {
                Py_INCREF(args[i]);
                PyTuple_SET_ITEM(t, i - a, args[i]);
            }
            *varargs_tuple = t;
            b->values[p] = t;
            a = nargs;
            p++;
            break;
        }
        b->values[p] = args[a];
    }
    if (a < nargs) return -1; /* too many positional arguments */
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = self ? 1 : 0; i < sig->n_args && found < 0; i++) {
            const char *pname = sig->args[i].name;
            /* PyTorch's aliases: input= for self, and numpy's axis= / keepdims= */
            if (PyUnicode_CompareWithASCIIString(name, pname) == 0 ||
                (i == 0 && PyUnicode_CompareWithASCIIString(name, "input") == 0) ||
                (strcmp(pname, "dim") == 0 && PyUnicode_CompareWithASCIIString(name, "axis") == 0) ||
                (strcmp(pname, "keepdim") == 0 && PyUnicode_CompareWithASCIIString(name, "keepdims") == 0))
                found = i;
        }
        if (found < 0 || b->values[found]) return -1;
        b->values[found] = args[nargs + k];
    }
    for (int i = 0; i < sig->n_args; i++)
        if (!b->values[i] && !sig->args[i].has_default && !(sig->args[i].flags & TP_OPTIONAL)) return -1;
    return 0;
}

static void note_bad(binding *b, const tp_arg *arg, PyObject *value, int position) {
    b->bad_arg = arg->name;
    b->bad_type = value ? Py_TYPE(value)->tp_name : "None";
    b->bad_position = position;
}

static int default_int(const char *text, int64_t *out) {
    char *end;
    *out = strtoll(text, &end, 10);
    return *end ? -1 : 0;
}

/* Converts bound values into a tc_call. -1 when a value has the wrong type (no exception set,
 * b->bad_* says which), -2 on a Python error. */
static int convert(const tp_signature *sig, binding *b, tc_call *call) {
    memset(call, 0, offsetof(tc_call, ints));
    call->n_ints = call->ints_given = call->n_bools = 0;
    call->dtype = -1;
    int tensor_index = 0;
    for (int i = 0; i < sig->n_args; i++) {
        const tp_arg *arg = &sig->args[i];
        PyObject *v = b->values[i];
        int is_none = !v || v == Py_None;
        const char *dflt = arg->has_default ? arg->default_text : NULL;
        if (v == Py_None && !(arg->flags & TP_OPTIONAL)) { /* x.max(dim=None): only `T?` takes None */
            note_bad(b, arg, v, i);
            return -1;
        }
        switch (arg->kind) {
        case TP_TENSOR: {
            tc_tensor *t = NULL;
            /* a number stands for a later tensor operand (x.add(1)), and for the first one too in
             * the ops PyTorch allows it for (torch.pow(2, x), torch.add(1, x)) */
            int number_ok = tensor_index > 0 || (tc_op_infos[sig->op].flags & TC_OPF_NUMBER_SELF);
            if (v && tp_is_tensor(v)) {
                t = tp_unwrap(v);
            } else if (v && number_ok && (t = tp_wrap_number(v))) {
                b->owned[b->n_owned++] = t;
            } else {
                if (PyErr_Occurred()) return -2;
                note_bad(b, arg, v, i);
                return -1;
            }
            call->tensors[call->n_tensors++] = t;
            tensor_index++;
            break;
        }
        case TP_SCALAR: {
            tc_scalar s = {.v.i = 1};
            if (!is_none) {
                if (tp_is_tensor(v) || tp_parse_scalar(v, &s)) {
                    PyErr_Clear();
                    note_bad(b, arg, v, i);
                    return -1;
                }
            } else if (dflt) {
                int64_t d;
                if (default_int(dflt, &d) == 0) s.v.i = d;
            }
            call->scalars[call->n_scalars++] = s;
            break;
        }
        case TP_INT: {
            int64_t x;
            if (is_none) {
                if (!dflt || default_int(dflt, &x)) break; /* optional int left as None */
            } else if (parse_int(v, &x)) {
                note_bad(b, arg, v, i);
                return -1;
            }
            call->ints[call->n_ints++] = x;
            call->ints_given = 1;
            break;
        }
        case TP_INTLIST: {
            if (is_none) break;
            int32_t n;
            if (parse_int_list(v, call->ints + call->n_ints, &n)) {
                note_bad(b, arg, v, i);
                return -1;
            }
            call->n_ints += n;
            call->ints_given = 1;
            break;
        }
        case TP_BOOL: {
            int x = dflt && strcmp(dflt, "True") == 0;
            if (!is_none) {
                if (!PyBool_Check(v)) {
                    note_bad(b, arg, v, i);
                    return -1;
                }
                x = v == Py_True;
            }
            call->bools[call->n_bools++] = x;
            break;
        }
        case TP_DTYPE:
            if (!is_none) {
                if (!PyObject_TypeCheck(v, &TPDtype_Type)) {
                    note_bad(b, arg, v, i);
                    return -1;
                }
                call->dtype = ((TPDtype *)v)->dtype;
            }
            break;
        default:
            note_bad(b, arg, v, i);
            return -1;
        }
    }
    return 0;
}

static const char *kind_name(int kind) {
    static const char *names[] = {"Tensor", "Number", "int", "tuple of ints", "bool", "torch.dtype", "float"};
    return names[kind];
}

static PyObject *raise_no_match(const tp_signature *const *overloads, PyObject *self, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames, binding *last, const tp_signature *last_sig) {
    const char *name = tc_op_infos[overloads[0]->op].name;
    if (!overloads[1] && last->bad_arg) {
        const tp_arg *arg = &last_sig->args[last->bad_position];
        return PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be %s, not %s", name,
                            last->bad_arg, last->bad_position + (self ? 0 : 1), kind_name(arg->kind),
                            last->bad_type);
    }
    PyObject *got = PyUnicode_FromString("");
    for (Py_ssize_t i = 0; got && i < nargs; i++) {
        PyObject *next = PyUnicode_FromFormat("%U%s%s", got, i ? ", " : "", Py_TYPE(args[i])->tp_name);
        Py_SETREF(got, next);
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; got && k < nkw; k++) {
        PyObject *next = PyUnicode_FromFormat("%U%s%U=%s", got, (nargs || k) ? ", " : "",
                                              PyTuple_GET_ITEM(kwnames, k), Py_TYPE(args[nargs + k])->tp_name);
        Py_SETREF(got, next);
    }
    PyObject *expected = PyUnicode_FromString("");
    for (int i = 0; expected && overloads[i]; i++) {
        PyObject *next = PyUnicode_FromFormat("%U\n * %s", expected, overloads[i]->text);
        Py_SETREF(expected, next);
    }
    if (got && expected)
        PyErr_Format(PyExc_TypeError, "%s() received an invalid combination of arguments - got (%U), but "
                                      "expected one of:%U", name, got, expected);
    Py_XDECREF(got);
    Py_XDECREF(expected);
    return NULL;
}

static PyObject *wrap_outputs(const tp_signature *sig, PyObject *self, int inplace, tc_tensor **outs, int n) {
    if (inplace) {
        for (int i = 0; i < n; i++) tc_tensor_release(outs[i]);
        Py_INCREF(self);
        return self;
    }
    if (sig->n_returns == 2 && n == 2) {
        PyObject *type = pair_type(sig->op);
        PyObject *pair = type ? PyStructSequence_New((PyTypeObject *)type) : NULL;
        if (!pair) {
            tc_tensor_release(outs[0]);
            tc_tensor_release(outs[1]);
            return NULL;
        }
        PyObject *values = tp_wrap(outs[0]);
        PyObject *indices = tp_wrap(outs[1]);
        if (!values || !indices) {
            Py_XDECREF(values);
            Py_XDECREF(indices);
            Py_DECREF(pair);
            return NULL;
        }
        PyStructSequence_SET_ITEM(pair, 0, values);
        PyStructSequence_SET_ITEM(pair, 1, indices);
        return pair;
    }
    return tp_wrap(outs[0]);
}

PyObject *tp_dispatch(const tp_signature *const *overloads, PyObject *self, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames, int inplace) {
    binding b = {0};
    const tp_signature *last_sig = overloads[0];
    for (int o = 0; overloads[o]; o++) {
        const tp_signature *sig = overloads[o];
        PyObject *varargs = NULL;
        b.bad_arg = NULL;
        if (bind(sig, self, args, nargs, kwnames, &b, &varargs)) {
            Py_XDECREF(varargs);
            if (PyErr_Occurred()) return NULL;
            continue;
        }
        tc_call call;
        int rc = convert(sig, &b, &call);
        Py_XDECREF(varargs);
        if (rc == -2) {
            binding_release(&b);
            return NULL;
        }
        if (rc == -1) {
            binding_release(&b);
            last_sig = sig;
            continue;
        }
        call.inplace = inplace;
        tc_tensor *outs[2];
        int n = tc_op_call(sig->op, &call, outs, 2);
        binding_release(&b);
        if (n < 0) return tp_raise_core_error();
        return wrap_outputs(sig, self, inplace, outs, n);
    }
    return raise_no_match(overloads, self, args, nargs, kwnames, &b, last_sig);
}
