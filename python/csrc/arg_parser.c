/*
 * The one argument parser behind every op binding, built-in or added at run time: it reads the op's
 * schema from the core (tc_op_schema_of), binds Python arguments to it (trying a name's ops in
 * order, as PyTorch's parser tries overloads), converts them into boxed values, runs tc_call_op and
 * turns the results into Python objects. Per-op code is generated (bindings.inc only lists which ops
 * each Python name tries); this file is the only parser.
 */
#include "tp.h"
#include "torch_core/tc_autograd.h"

#include <structmember.h>
#include <stdlib.h>
#include <string.h>

/* ---- a per-call arena: values, lists and owned tensors, on the stack unless the call is big ---- */

typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    char data[];
} arena_block;

typedef struct arena {
    char inline_buf[2048];
    size_t used;
    arena_block *blocks;
    tc_tensor *owned_inline[16];
    tc_tensor **owned;
    int n_owned, cap_owned;
} arena;

static void arena_init(arena *a) {
    a->used = 0;
    a->blocks = NULL;
    a->owned = a->owned_inline;
    a->n_owned = 0;
    a->cap_owned = 16;
}

static void *arena_alloc(arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (a->used + n <= sizeof a->inline_buf) {
        void *p = a->inline_buf + a->used;
        a->used += n;
        return p;
    }
    if (!a->blocks || a->blocks->used + n > a->blocks->cap) {
        size_t cap = n > 8192 ? n : 8192;
        arena_block *b = malloc(sizeof(arena_block) + cap);
        if (!b) return PyErr_NoMemory(), NULL;
        b->next = a->blocks;
        b->used = 0;
        b->cap = cap;
        a->blocks = b;
    }
    void *p = a->blocks->data + a->blocks->used;
    a->blocks->used += n;
    return p;
}

static int arena_own(arena *a, tc_tensor *t) {
    if (a->n_owned == a->cap_owned) {
        int cap = a->cap_owned * 2;
        tc_tensor **owned = malloc(sizeof(tc_tensor *) * (size_t)cap);
        if (!owned) {
            tc_tensor_release(t);
            PyErr_NoMemory();
            return -1;
        }
        memcpy(owned, a->owned, sizeof(tc_tensor *) * (size_t)a->n_owned);
        if (a->owned != a->owned_inline) free(a->owned);
        a->owned = owned;
        a->cap_owned = cap;
    }
    a->owned[a->n_owned++] = t;
    return 0;
}

static void arena_free(arena *a) {
    for (int i = 0; i < a->n_owned; i++) tc_tensor_release(a->owned[i]);
    if (a->owned != a->owned_inline) free(a->owned);
    while (a->blocks) {
        arena_block *next = a->blocks->next;
        free(a->blocks);
        a->blocks = next;
    }
    a->n_owned = 0;
    a->used = 0;
}

/* ---- enum-like Python objects the parser recognises ---- */

static PyObject *layout_class, *memory_format_class, *generator_class;

/* _set_enum_classes(layout, memory_format, generator): their instances carry an int `_value`. */
PyObject *tp_set_enum_classes(PyObject *m, PyObject *args) {
    PyObject *l, *f, *g;
    if (!PyArg_ParseTuple(args, "OOO", &l, &f, &g)) return NULL;
    Py_XSETREF(layout_class, Py_NewRef(l));
    Py_XSETREF(memory_format_class, Py_NewRef(f));
    Py_XSETREF(generator_class, g == Py_None ? NULL : Py_NewRef(g));
    Py_RETURN_NONE;
}

static int enum_value(PyObject *o, PyObject *cls, int64_t *out) {
    if (!cls || PyObject_IsInstance(o, cls) != 1) return -1;
    PyObject *v = PyObject_GetAttrString(o, "_value");
    if (!v) {
        PyErr_Clear();
        return -1;
    }
    *out = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? (PyErr_Clear(), -1) : 0;
}

/* ---- single values ---- */

static int parse_int(PyObject *o, int64_t *out) {
    if (PyBool_Check(o) || PyFloat_Check(o)) return -1;
    if (tp_is_tensor(o)) {
        tc_tensor *t = tp_unwrap(o);
        tc_scalar s;
        if (t->ndim != 0 || !tc_dtype_is_integral(t->dtype) || tc__local_scalar_dense(t, &s)) {
            tc_error_clear();
            return -1;
        }
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

static int parse_float(PyObject *o, double *out) {
    if (PyBool_Check(o)) return -1;
    if (PyFloat_Check(o)) {
        *out = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (PyLong_Check(o)) {
        *out = PyLong_AsDouble(o);
        return *out == -1.0 && PyErr_Occurred() ? (PyErr_Clear(), -1) : 0;
    }
    if (tp_is_tensor(o)) {
        /* PyTorch takes a 0-dim real tensor that does not require grad for a float argument
         * (x.uniform_(lo[0], lo[1]) with lo a tensor, as torchvision's RandomResizedCrop does) */
        tc_tensor *t = tp_unwrap(o);
        tc_scalar s;
        if (t->ndim != 0 || tc_dtype_is_complex(t->dtype) || tc_requires_grad(t) || tc__local_scalar_dense(t, &s)) {
            tc_error_clear();
            return -1;
        }
        *out = s.kind == TC_SCALAR_FLOAT ? s.v.f : (double)s.v.i;
        return 0;
    }
    if (PySequence_Check(o) || !PyNumber_Check(o)) return -1;
    *out = PyFloat_AsDouble(o);
    return *out == -1.0 && PyErr_Occurred() ? (PyErr_Clear(), -1) : 0;
}

static int parse_dtype(PyObject *o, int64_t *out) {
    if (PyObject_TypeCheck(o, &TPDtype_Type)) {
        *out = ((TPDtype *)o)->dtype;
        return 0;
    }
    /* Python's scalar types stand for their dtypes, as in PyTorch: x.to(float) is float64 */
    if (o == (PyObject *)&PyFloat_Type) return *out = TC_FLOAT64, 0;
    if (o == (PyObject *)&PyLong_Type) return *out = TC_INT64, 0;
    if (o == (PyObject *)&PyBool_Type) return *out = TC_BOOL, 0;
    return -1;
}

/* A sequence (tuple, list, torch.Size) of items of one kind into an arena array. */
typedef int (*item_parser)(PyObject *item, void *dst);

static int parse_int_item(PyObject *o, void *dst) { return parse_int(o, dst); }
static int parse_float_item(PyObject *o, void *dst) { return parse_float(o, dst); }
static int parse_bool_item(PyObject *o, void *dst) {
    if (!PyBool_Check(o)) return -1;
    *(bool *)dst = o == Py_True;
    return 0;
}

static int parse_list(arena *a, PyObject *o, size_t item_size, item_parser parse, const void **items, int64_t *len) {
    if (!PyTuple_Check(o) && !PyList_Check(o)) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    char *buf = n ? arena_alloc(a, item_size * (size_t)n) : NULL;
    if (n && !buf) return -2;
    for (Py_ssize_t i = 0; i < n; i++)
        if (parse(PySequence_Fast_GET_ITEM(o, i), buf + item_size * (size_t)i)) return -1;
    *items = buf;
    *len = n;
    return 0;
}

/* ---- binding Python arguments to one schema ---- */

typedef struct binding {
    PyObject *small[24];
    PyObject **values; /* per schema argument, borrowed; NULL when not given */
    uint64_t by_keyword; /* bit i: argument i was given by keyword (first 64) */
    PyObject *varargs; /* a tuple made from x.view(2, 3)'s separate ints (owned) */
    /* why the last schema did not fit, for the error message */
    const tc_arg_schema *bad_arg;
    int bad_position;
    bool bad_by_keyword;
    PyObject *bad_value;
    int converted_but_bad; /* candidates that bound but had an argument of the wrong type */
    bool numbers_as_tensors; /* whether a Python number may stand for a Tensor argument (second pass) */
    PyObject *out_list, *out_tuple; /* out= given as a list, and the tuple bound in its place */
} binding;

static bool kw_matches(PyObject *key, const tc_arg_schema *arg, int index) {
    if (PyUnicode_CompareWithASCIIString(key, arg->name) == 0) return true;
    /* PyTorch's aliases: input= for self, and numpy's axis= / keepdims= */
    if (index == 0 && PyUnicode_CompareWithASCIIString(key, "input") == 0) return true;
    if (strcmp(arg->name, "dim") == 0 && PyUnicode_CompareWithASCIIString(key, "axis") == 0) return true;
    if (strcmp(arg->name, "keepdim") == 0 && PyUnicode_CompareWithASCIIString(key, "keepdims") == 0) return true;
    return false;
}

/* Output arguments are the schema's written keyword-only tensors; Python passes them all as out=. */
static int n_out_args(const tc_op_schema *s) {
    int n = 0;
    for (int32_t i = 0; i < s->n_args; i++)
        if ((s->args[i].flags & TC_ARG_WRITE) && (s->args[i].flags & TC_ARG_KWONLY)) n++;
    return n;
}

/* Where a method's tensor goes: the argument called self, which is not always the first
 * (x.polygamma(2) is polygamma(int n, Tensor self)). */
static int32_t self_index(const tc_op_schema *s) {
    for (int32_t i = 0; i < s->n_args; i++)
        if (strcmp(s->args[i].name, "self") == 0) return i;
    return 0;
}

/* 0 when the arguments fit, -1 when they do not (no exception), -2 on a Python error. */
static int bind(const tc_op_schema *s, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject *out, binding *b) {
    memset(b->values, 0, sizeof(PyObject *) * (size_t)s->n_args);
    b->by_keyword = 0;
    int32_t self_at = self ? self_index(s) : -1;
    if (self) b->values[self_at] = self;
    int positional = 0;
    for (int32_t i = 0; i < s->n_args; i++) positional += i != self_at && !(s->args[i].flags & TC_ARG_KWONLY);
    /* x.view(2, 3), torch.zeros(2, 3): an int list spread over positional arguments, when it is the
     * one positional parameter (as in PyTorch: x.sum(0, True) is dim=0, keepdim=True) */
    int varargs_ok = positional == 1;
    Py_ssize_t a = 0;
    for (int32_t p = 0; a < nargs && p < s->n_args; p++) {
        if (p == self_at) continue;
        const tc_arg_schema *arg = &s->args[p];
        if (arg->flags & TC_ARG_KWONLY) return -1;
        /* torch.einsum('ij,jk', a, b), torch.chain_matmul(a, b, c): tensors spread over the positional
         * arguments from the Tensor[] on, for ops marked `varargs` (their Python signatures in PyTorch) */
        const bool tensor_varargs = (s->flags & TC_OPF_VARARGS) && arg->type == TC_VALUE_TENSOR_LIST &&
                                    tp_is_tensor(args[a]);
        if (tensor_varargs ||
            (varargs_ok && arg->type == TC_VALUE_INT_LIST && nargs - a > 1 && PyIndex_Check(args[a]) &&
             !tp_is_tensor(args[a]))) {
            PyObject *t = PyTuple_New(nargs - a);
            if (!t) return -2;
            for (Py_ssize_t i = a; i < nargs; i++) PyTuple_SET_ITEM(t, i - a, Py_NewRef(args[i]));
            Py_XSETREF(b->varargs, t);
            b->values[p] = t;
            a = nargs;
            break;
        }
        b->values[p] = args[a++];
    }
    if (a < nargs) return -1; /* too many positional arguments */
    /* torch.meshgrid(): a varargs op called without tensors gets an empty Tensor[] (the op says what
     * it makes of that, as PyTorch's Python function passes its empty *tensors on) */
    if (s->flags & TC_OPF_VARARGS)
        for (int32_t p = 0; p < s->n_args; p++)
            if (s->args[p].type == TC_VALUE_TENSOR_LIST && !b->values[p] && !(s->args[p].flags & TC_ARG_KWONLY)) {
                PyObject *t = PyTuple_New(0);
                if (!t) return -2;
                Py_XSETREF(b->varargs, t);
                b->values[p] = t;
                break;
            }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        if (PyUnicode_CompareWithASCIIString(key, "out") == 0 || PyUnicode_CompareWithASCIIString(key,
                                                                                                   "requires_grad") == 0)
            continue; /* handled by the caller */
        int found = -1;
        for (int32_t i = 0; i < s->n_args && found < 0; i++)
            if (i != self_at && !((s->args[i].flags & TC_ARG_WRITE) && (s->args[i].flags & TC_ARG_KWONLY)) &&
                kw_matches(key, &s->args[i], i))
                found = i;
        if (found < 0 || b->values[found]) return -1;
        b->values[found] = args[nargs + k];
        if (found < 64) b->by_keyword |= (uint64_t)1 << found;
    }
    int outs = out ? n_out_args(s) : 0;
    if (out && outs) {
        int j = 0;
        bool tuple = outs > 1;
        if (tuple && (!PyTuple_Check(out) && !PyList_Check(out))) return -1;
        if (tuple && PySequence_Fast_GET_SIZE(out) != outs) return -1;
        for (int32_t i = 0; i < s->n_args; i++)
            if ((s->args[i].flags & TC_ARG_WRITE) && (s->args[i].flags & TC_ARG_KWONLY))
                b->values[i] = tuple ? PySequence_Fast_GET_ITEM(out, j++) : out;
    }
    /* as in PyTorch, an argument without a default is required even when it may be None */
    for (int32_t i = 0; i < s->n_args; i++)
        if (!b->values[i] && !(s->args[i].flags & TC_ARG_HAS_DEFAULT)) return -1;
    return 0;
}

/* ---- converting bound values ---- */

static void note_bad(binding *b, const tc_arg_schema *arg, int position, PyObject *value) {
    b->bad_arg = arg;
    b->bad_position = position;
    b->bad_value = value;
    b->bad_by_keyword = position < 64 && (b->by_keyword >> position) & 1;
}

/* A tensor argument: a tensor, or (where allowed) a Python number as a wrapped 0-dim tensor. */
static int convert_tensor(arena *a, PyObject *v, bool number_ok, tc_tensor **out) {
    if (tp_is_tensor(v)) {
        *out = tp_unwrap(v);
        return 0;
    }
    if (!number_ok) return -1;
    tc_tensor *t = tp_wrap_number(v);
    if (!t) return PyErr_Occurred() ? -2 : -1;
    if (arena_own(a, t)) return -2;
    *out = t;
    return 0;
}

/* Tensors read from a Python list: another thread may change the list while the GIL is released
 * around a long kernel, before a composite reads its later items, so the call holds references of
 * its own. -1 (a Python error) when they cannot be recorded. */
static __attribute__((noinline)) int own_items(arena *a, tc_tensor **items, Py_ssize_t n) {
    for (Py_ssize_t j = 0; j < n; j++) {
        if (!items[j]) continue; /* None in a Tensor?[] */
        tc_tensor_retain(items[j]);
        if (arena_own(a, items[j])) return -1;
    }
    return 0;
}

/* 0, -1 (wrong type: note_bad), -2 (Python error). */
static int convert(arena *a, const tc_op_schema *s, int32_t op, binding *b, tc_value *vals, int is_method) {
    int first_tensor_seen = 0;
    for (int32_t i = 0; i < s->n_args; i++) {
        const tc_arg_schema *arg = &s->args[i];
        PyObject *v = b->values[i];
        tc_value *out = &vals[i];
        out->reserved = 0;
        if (!v) { /* a default from the schema */
            *out = (arg->flags & TC_ARG_HAS_DEFAULT) ? arg->default_value : (tc_value){.tag = TC_VALUE_NONE};
            if (arg->type == TC_VALUE_TENSOR) first_tensor_seen = 1;
            continue;
        }
        /* PyTorch reads None for a list whose default is [] as that default (max_pool2d's stride=[]) */
        if (v == Py_None && !(arg->flags & TC_ARG_OPTIONAL) && (arg->flags & TC_ARG_HAS_DEFAULT) &&
            arg->type == TC_VALUE_INT_LIST && arg->default_value.v.ints.len == 0) {
            *out = arg->default_value;
            continue;
        }
        if (v == Py_None) {
            if (!(arg->flags & TC_ARG_OPTIONAL)) { /* x.max(dim=None): only `T?` takes None */
                note_bad(b, arg, i, v);
                return -1;
            }
            out->tag = TC_VALUE_NONE;
            if (arg->type == TC_VALUE_TENSOR) first_tensor_seen = 1;
            continue;
        }
        int rc = 0;
        out->tag = arg->type;
        switch (arg->type) {
        case TC_VALUE_TENSOR: {
            /* a number stands for a later tensor operand (x.add(1)), and for the first one too in
             * the ops PyTorch allows it for (torch.pow(2, x), torch.add(1, x)) */
            bool number_ok = b->numbers_as_tensors && (first_tensor_seen || (s->flags & TC_OPF_NUMBER_SELF)) &&
                             !(arg->flags & TC_ARG_WRITE);
            rc = convert_tensor(a, v, number_ok, &out->v.tensor);
            first_tensor_seen = 1;
            break;
        }
        case TC_VALUE_TENSOR_LIST: {
            if (!PyTuple_Check(v) && !PyList_Check(v)) {
                rc = -1;
                break;
            }
            Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
            tc_tensor **items = n ? arena_alloc(a, sizeof(tc_tensor *) * (size_t)n) : NULL;
            if (n && !items) return -2;
            for (Py_ssize_t j = 0; j < n && rc == 0; j++) {
                PyObject *item = PySequence_Fast_GET_ITEM(v, j);
                if (item == Py_None && (arg->flags & TC_ARG_OPTIONAL_ITEMS))
                    items[j] = NULL;
                else
                    rc = convert_tensor(a, item, false, &items[j]);
            }
            if (rc == 0 && PyList_Check(v) && own_items(a, items, n)) return -2;
            out->v.tensors.items = items;
            out->v.tensors.len = n;
            break;
        }
        case TC_VALUE_SCALAR:
            /* PyTorch's rule: a Scalar takes a 0-dim tensor only when it does not require grad (one
             * that does goes to the Tensor overload, where its gradient is computed) */
            if (tp_is_tensor(v) && (tp_unwrap(v)->ndim != 0 || tc_requires_grad(tp_unwrap(v)))) {
                rc = -1;
            } else if (tp_parse_scalar(v, &out->v.scalar)) {
                PyErr_Clear();
                rc = -1;
            }
            break;
        case TC_VALUE_INT:
            rc = parse_int(v, &out->v.i);
            break;
        case TC_VALUE_INT_LIST: {
            int64_t single;
            /* one int for int[N] means N copies, for int[] a list of one; int[1] is PyTorch's "any length,
             * and a single int is a list of one" */
            int32_t fixed = arg->fixed_len > 1 ? arg->fixed_len : 0;
            if (parse_int(v, &single) == 0) {
                int64_t n = fixed ? fixed : 1;
                int64_t *items = arena_alloc(a, sizeof(int64_t) * (size_t)n);
                if (!items) return -2;
                for (int64_t j = 0; j < n; j++) items[j] = single;
                out->v.ints.items = items;
                out->v.ints.len = n;
            } else {
                rc = parse_list(a, v, sizeof(int64_t), parse_int_item, (const void **)&out->v.ints.items,
                                &out->v.ints.len);
                /* a list of another length passes on as PyTorch's parser passes it: the op checks the
                 * length with its own message (max_pool2d's stride=[], conv2d's stride=[1, 1, 1]) */
                if (rc == 0 && fixed && out->v.ints.len == 1) { /* [k] for int[2] */
                    int64_t *items = arena_alloc(a, sizeof(int64_t) * (size_t)fixed);
                    if (!items) return -2;
                    for (int32_t j = 0; j < fixed; j++) items[j] = out->v.ints.items[0];
                    out->v.ints.items = items;
                    out->v.ints.len = fixed;
                }
            }
            break;
        }
        case TC_VALUE_FLOAT:
            rc = parse_float(v, &out->v.f);
            break;
        case TC_VALUE_FLOAT_LIST: {
            double single;
            if (parse_float(v, &single) == 0) {
                double *items = arena_alloc(a, sizeof(double));
                if (!items) return -2;
                items[0] = single;
                out->v.floats.items = items;
                out->v.floats.len = 1;
            } else {
                rc = parse_list(a, v, sizeof(double), parse_float_item, (const void **)&out->v.floats.items,
                                &out->v.floats.len);
            }
            break;
        }
        case TC_VALUE_BOOL:
            if (PyBool_Check(v) || tp_is_numpy_bool(v)) {
                int truth = PyObject_IsTrue(v);
                if (truth < 0) return -2;
                out->v.b = truth;
            } else {
                rc = -1;
            }
            break;
        case TC_VALUE_BOOL_LIST:
            rc = parse_list(a, v, sizeof(bool), parse_bool_item, (const void **)&out->v.bools.items, &out->v.bools.len);
            break;
        case TC_VALUE_STR:
            if (!PyUnicode_Check(v) || !(out->v.s = PyUnicode_AsUTF8(v))) rc = PyErr_Occurred() ? -2 : -1;
            break;
        case TC_VALUE_DTYPE:
            rc = parse_dtype(v, &out->v.i);
            break;
        case TC_VALUE_LAYOUT:
            rc = enum_value(v, layout_class, &out->v.i);
            break;
        case TC_VALUE_MEMORY_FORMAT:
            rc = enum_value(v, memory_format_class, &out->v.i);
            break;
        case TC_VALUE_DEVICE:
            if (PyUnicode_Check(v) || (PyLong_Check(v) && !PyBool_Check(v)) ||
                (tp_device_class && PyObject_IsInstance(v, tp_device_class) == 1))
                rc = tp_parse_device(v, &out->v.device) ? -2 : 0;
            else
                rc = -1;
            break;
        case TC_VALUE_GENERATOR:
            if (generator_class && PyObject_IsInstance(v, generator_class) == 1) {
                PyObject *handle = PyObject_GetAttrString(v, "_handle");
                out->v.generator = handle ? PyLong_AsVoidPtr(handle) : NULL;
                Py_XDECREF(handle);
                rc = out->v.generator ? 0 : -2;
            } else {
                rc = -1;
            }
            break;
        default:
            rc = -1;
        }
        if (rc == -2) return -2;
        if (rc) {
            if (PyErr_Occurred()) return -2;
            note_bad(b, arg, i, v);
            return -1;
        }
    }
    (void)op;
    (void)is_method;
    return 0;
}

/* ---- results ---- */

static PyObject *return_type_cache; /* dict: op name -> structseq type */

/* torch.return_types.<name>, or <name>_out for an out= variant (its results are its arguments), as
 * PyTorch names them. The cache is keyed by that name; the type's own copy is allocated once. */
static PyObject *return_type(const tc_op_schema *s) {
    if (!return_type_cache && !(return_type_cache = PyDict_New())) return NULL;
    bool out_variant = s->n_returns > 0;
    for (int32_t i = 0; i < s->n_returns; i++) out_variant = out_variant && s->returns[i].alias_arg >= 0;
    PyObject *key = PyUnicode_FromFormat("%s%s", s->name, out_variant ? "_out" : "");
    if (!key) return NULL;
    PyObject *type = PyDict_GetItemWithError(return_type_cache, key);
    if (type || PyErr_Occurred()) {
        Py_DECREF(key);
        return type;
    }
    PyStructSequence_Field fields[TC_MAX_RETURNS + 1];
    for (int32_t i = 0; i < s->n_returns; i++) fields[i] = (PyStructSequence_Field){s->returns[i].name, NULL};
    fields[s->n_returns] = (PyStructSequence_Field){NULL, NULL};
    const char *key_text = PyUnicode_AsUTF8(key);
    char *name = key_text ? PyMem_Malloc(strlen(key_text) + 32) : NULL; /* kept for the type's lifetime */
    if (!name) {
        Py_DECREF(key);
        return key_text ? PyErr_NoMemory() : NULL;
    }
    sprintf(name, "torch.return_types.%s", key_text);
    PyStructSequence_Desc desc = {name, NULL, fields, s->n_returns};
    PyTypeObject *t = PyStructSequence_NewType(&desc);
    if (!t) {
        PyMem_Free(name);
        Py_DECREF(key);
        return NULL;
    }
    t->tp_repr = tp_return_type_repr;
    int rc = PyDict_SetItem(return_type_cache, key, (PyObject *)t);
    Py_DECREF(key);
    Py_DECREF(t);
    return rc ? NULL : (PyObject *)t;
}

/* PyTorch writes one field per line: "torch.return_types.max(\nvalues=...,\nindices=...)". */
PyObject *tp_return_type_repr(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    Py_ssize_t n = PyTuple_GET_SIZE(self);
    PyObject *text = PyUnicode_FromFormat("%s(", type->tp_name);
    for (Py_ssize_t i = 0; text && i < n; i++) {
        PyObject *next = PyUnicode_FromFormat("%U\n%s=%R%s", text, type->tp_members[i].name,
                                              PyStructSequence_GET_ITEM(self, i), i + 1 < n ? "," : ")");
        Py_SETREF(text, next);
    }
    return text;
}

static PyObject *value_to_python(tc_value *v) {
    switch (v->tag) {
    case TC_VALUE_TENSOR: {
        tc_tensor *t = v->v.tensor;
        v->tag = TC_VALUE_NONE;
        return tp_wrap(t);
    }
    case TC_VALUE_TENSOR_LIST: {
        PyObject *tuple = PyTuple_New(v->v.tensors.len);
        for (int64_t i = 0; tuple && i < v->v.tensors.len; i++) {
            PyObject *t = tp_wrap(v->v.tensors.items[i]);
            ((tc_tensor **)v->v.tensors.items)[i] = NULL;
            if (!t) {
                Py_CLEAR(tuple);
                break;
            }
            PyTuple_SET_ITEM(tuple, i, t);
        }
        tc_values_release(v, 1);
        return tuple;
    }
    case TC_VALUE_SCALAR: return tp_scalar_to_python(v->v.scalar, -1);
    case TC_VALUE_INT: return PyLong_FromLongLong(v->v.i);
    case TC_VALUE_FLOAT: return PyFloat_FromDouble(v->v.f);
    case TC_VALUE_BOOL: return PyBool_FromLong(v->v.b);
    case TC_VALUE_DTYPE: return Py_NewRef(tp_dtype_object((int32_t)v->v.i));
    case TC_VALUE_NONE: Py_RETURN_NONE;
    default: return PyErr_Format(PyExc_RuntimeError, "unsupported result type %d", v->tag);
    }
}

static PyObject *wrap_results(const tc_op_schema *s, binding *b, tc_value *outs) {
    PyObject *items[TC_MAX_RETURNS] = {0};
    int32_t n = s->n_returns;
    for (int32_t i = 0; i < n; i++) {
        const tc_return_schema *r = &s->returns[i];
        if (r->alias_arg >= 0 && b->values[r->alias_arg] && tp_is_tensor(b->values[r->alias_arg]) &&
            outs[i].tag == TC_VALUE_TENSOR && outs[i].v.tensor == tp_unwrap(b->values[r->alias_arg])) {
            /* x.add_(1) is x; torch.add(a, b, out=o) is o; x.to(x.dtype) is x */
            tc_values_release(&outs[i], 1);
            items[i] = Py_NewRef(b->values[r->alias_arg]);
        } else {
            items[i] = value_to_python(&outs[i]);
        }
        if (!items[i]) {
            for (int32_t j = 0; j < n; j++) Py_XDECREF(items[j]);
            tc_values_release(outs, n);
            return NULL;
        }
    }
    if (n == 0) Py_RETURN_NONE;
    if (n == 1) return items[0];
    bool named = s->returns[0].name != NULL;
    PyObject *type = named ? return_type(s) : NULL;
    PyObject *result = named ? (type ? PyStructSequence_New((PyTypeObject *)type) : NULL) : PyTuple_New(n);
    for (int32_t i = 0; i < n; i++) {
        if (!result) {
            Py_DECREF(items[i]);
        } else if (named) {
            PyStructSequence_SET_ITEM(result, i, items[i]);
        } else {
            PyTuple_SET_ITEM(result, i, items[i]);
        }
    }
    return result;
}

/* ---- errors ---- */

static const char *type_name(const tc_arg_schema *a) {
    switch (a->type) {
    case TC_VALUE_TENSOR: return "Tensor";
    case TC_VALUE_TENSOR_LIST: return "tuple of Tensors";
    case TC_VALUE_SCALAR: return "Number";
    case TC_VALUE_INT: return "int";
    case TC_VALUE_INT_LIST: return "tuple of ints";
    case TC_VALUE_FLOAT: return "float";
    case TC_VALUE_FLOAT_LIST: return "tuple of floats";
    case TC_VALUE_BOOL: return "bool";
    case TC_VALUE_BOOL_LIST: return "tuple of bools";
    case TC_VALUE_STR: return "str";
    case TC_VALUE_DTYPE: return "torch.dtype";
    case TC_VALUE_LAYOUT: return "torch.layout";
    case TC_VALUE_DEVICE: return "torch.device";
    case TC_VALUE_GENERATOR: return "torch.Generator";
    case TC_VALUE_MEMORY_FORMAT: return "torch.memory_format";
    default: return "?";
    }
}

static PyObject *describe_given(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *got = PyUnicode_FromString("");
    for (Py_ssize_t i = 0; got && i < nargs; i++) {
        PyObject *next = PyUnicode_FromFormat("%U%s%s", got, i ? ", " : "", Py_TYPE(args[i])->tp_name);
        Py_SETREF(got, next);
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; got && k < nkw; k++) {
        PyObject *next = PyUnicode_FromFormat("%U%s%U=%s", got, (nargs || k) ? ", " : "", PyTuple_GET_ITEM(kwnames, k),
                                              Py_TYPE(args[nargs + k])->tp_name);
        Py_SETREF(got, next);
    }
    return got;
}

/* The signature as Python sees it: self dropped for methods, out= once. */
static PyObject *python_signature(const tc_op_schema *s, int is_method) {
    const char *text = strchr(s->text, '(');
    const char *arrow = strstr(s->text, "->");
    if (!text || !arrow) return PyUnicode_FromString(s->text);
    PyObject *sig = PyUnicode_FromStringAndSize(text, arrow - text);
    if (sig && is_method) { /* "(Tensor self, Tensor other)" -> "(Tensor other)" */
        PyObject *trimmed = NULL;
        const char *p = PyUnicode_AsUTF8(sig);
        const char *comma = p ? strchr(p, ',') : NULL;
        trimmed = comma ? PyUnicode_FromFormat("(%s", comma + 2) : PyUnicode_FromString("()");
        Py_SETREF(sig, trimmed);
    }
    return sig;
}

static PyObject *raise_no_match(const int32_t *ops, int n_candidates, int last_candidate, const char *name,
                                PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                                binding *last) {
    /* a keyword no candidate has is named as such */
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        bool known = PyUnicode_CompareWithASCIIString(key, "out") == 0 ||
                     PyUnicode_CompareWithASCIIString(key, "requires_grad") == 0;
        for (int o = 0; ops[o] >= 0 && !known; o++) {
            const tc_op_schema *s = tc_op_schema_of(ops[o]);
            for (int32_t i = self ? 1 : 0; i < s->n_args && !known; i++) known = kw_matches(key, &s->args[i], i);
        }
        if (!known) return PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", name, key);
    }
    /* one candidate, or one that took the arguments' shape but not a type: name that argument */
    if ((n_candidates == 1 || last->converted_but_bad == 1) && last->bad_arg) {
        PyObject *bad = last->out_tuple && last->bad_value == last->out_tuple ? last->out_list : last->bad_value;
        const char *given = bad == Py_None ? "NoneType" : Py_TYPE(bad)->tp_name;
        if (last->bad_by_keyword)
            return PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not %s", name, last->bad_arg->name,
                                type_name(last->bad_arg), given);
        return PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be %s, not %s%s", name,
                            last->bad_arg->name, last->bad_position + (self ? 0 : 1), type_name(last->bad_arg), given,
                            PyLong_Check(last->bad_value) && !PyBool_Check(last->bad_value)
                                ? " (or a value too large for int64)" : "");
    }
    PyObject *got = describe_given(args, nargs, kwnames);
    PyObject *expected = PyUnicode_FromString("");
    for (int o = 0; expected && ops[o] >= 0; o++) {
        PyObject *sig = python_signature(tc_op_schema_of(ops[o]), self != NULL);
        PyObject *next = sig ? PyUnicode_FromFormat("%U\n * %U", expected, sig) : NULL;
        Py_XDECREF(sig);
        Py_SETREF(expected, next);
    }
    if (got && expected)
        PyErr_Format(PyExc_TypeError, "%s() received an invalid combination of arguments - got (%U), but expected "
                                      "one of:%U", name, got, expected);
    Py_XDECREF(got);
    Py_XDECREF(expected);
    (void)last_candidate;
    return NULL;
}

/* ---- the entry ---- */

static PyObject *find_kw(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *name) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), name) == 0) return args[nargs + k];
    return NULL;
}

/* requires_grad= on a creation function: the result becomes a leaf that requires grad. */
static int apply_requires_grad(PyObject *result, PyObject *requires_grad) {
    if (!requires_grad || requires_grad == Py_False) return 0;
    if (!PyBool_Check(requires_grad)) {
        PyErr_Format(PyExc_TypeError, "argument 'requires_grad' must be bool, not %s", Py_TYPE(requires_grad)->tp_name);
        return -1;
    }
    PyObject *r = PyObject_CallMethod(result, "requires_grad_", "O", Py_True);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static PyObject *call_ops(const int32_t *ops, const char *name, PyObject *self, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames, PyObject *out, PyObject *out_list);

/* out=[a, b]: the call binds a tuple of its own, which no other thread changes while the GIL is
 * released around a long kernel (error messages still describe what was passed). */
static __attribute__((noinline)) PyObject *call_with_out_tuple(const int32_t *ops, const char *name, PyObject *self,
                                                               PyObject *const *args, Py_ssize_t nargs,
                                                               PyObject *kwnames, PyObject *out) {
    PyObject *tuple = PyList_AsTuple(out);
    if (!tuple) return NULL;
    PyObject *result = call_ops(ops, name, self, args, nargs, kwnames, tuple, out);
    Py_DECREF(tuple);
    return result;
}

PyObject *tp_call_ops(const int32_t *ops, const char *name, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames) {
    PyObject *out = find_kw(args, nargs, kwnames, "out");
    if (out && PyList_Check(out)) return call_with_out_tuple(ops, name, self, args, nargs, kwnames, out);
    return call_ops(ops, name, self, args, nargs, kwnames, out, NULL);
}

/* tp_call_ops with out= as bound: the value of the out keyword, or a tuple made of out_list. */
static PyObject *call_ops(const int32_t *ops, const char *name, PyObject *self, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames, PyObject *out, PyObject *out_list) {
    if (out == Py_None) out = NULL;
    PyObject *requires_grad = find_kw(args, nargs, kwnames, "requires_grad");
    binding b = {.varargs = NULL, .bad_arg = NULL, .converted_but_bad = 0, .out_list = out_list,
                 .out_tuple = out_list ? out : NULL};
    arena a;
    arena_init(&a);
    int candidates = 0, last_candidate = -1;
    PyObject *result = NULL;
    bool done = false;
    /* As PyTorch's parser, a Python number binds to a Scalar argument before it stands for a Tensor:
     * x.pow(2) is pow.Tensor_Scalar, x.clamp(0) clamp(Scalar?, Scalar?) (their autograd nodes are
     * PowBackward0, ClampBackward1), and only where no overload takes it so does it become a wrapped
     * number (x.add(1), torch.pow(2, x) in ops without a Scalar overload). */
    for (int pass = 0; pass < 2 && !done && !PyErr_Occurred(); pass++) {
        b.numbers_as_tensors = pass == 1;
        b.bad_arg = NULL;
        b.converted_but_bad = 0;
        candidates = 0;
        last_candidate = -1;
        for (int o = 0; ops[o] >= 0 && !done; o++) {
            const tc_op_schema *s = tc_op_schema_of(ops[o]);
            if (((s->flags & TC_OPF_OUT) != 0) != (out != NULL)) continue; /* out= picks the out variant */
            if (requires_grad && !(s->flags & TC_OPF_FACTORY)) continue;
            candidates++;
            last_candidate = ops[o];
            b.values = s->n_args <= 24 ? b.small : PyMem_Malloc(sizeof(PyObject *) * (size_t)s->n_args);
            if (!b.values) {
                PyErr_NoMemory();
                break;
            }
            int rc = bind(s, self, args, nargs, kwnames, out, &b);
            tc_value small_vals[16], *vals = NULL;
            if (rc == 0) {
                vals = s->n_args <= 16 ? small_vals : arena_alloc(&a, sizeof(tc_value) * (size_t)s->n_args);
                rc = vals ? convert(&a, s, ops[o], &b, vals, self != NULL) : -2;
                b.converted_but_bad += rc == -1;
            }
            if (rc == 0) {
                tc_value outs[TC_MAX_RETURNS];
                done = true;
                if (tc_call_op(ops[o], vals, outs)) {
                    tp_raise_core_error();
                } else if ((result = wrap_results(s, &b, outs)) && requires_grad &&
                           apply_requires_grad(result, requires_grad)) {
                    Py_CLEAR(result);
                }
            } else if (rc == -2) {
                done = true;
            }
            if (b.values != b.small) PyMem_Free(b.values);
            arena_free(&a);
            arena_init(&a);
        }
    }
    if (!done && !PyErr_Occurred()) {
        if (!candidates && out && ops[0] >= 0)
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'out'", name);
        else if (!candidates && requires_grad)
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'requires_grad'", name);
        else
            raise_no_match(ops, candidates, last_candidate, name, self, args, nargs, kwnames, &b);
    }
    Py_XDECREF(b.varargs);
    arena_free(&a);
    return result;
}

/* nonzero(input, *, as_tuple=False): as_tuple=True runs `tuple_ops` (nonzero_numpy) instead, as
 * PyTorch's hand-written binding does. The keyword is removed before the op's own parsing. */
PyObject *tp_call_ops_as_tuple(const int32_t *ops, const int32_t *tuple_ops, const char *name, PyObject *self,
                               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0, at = -1;
    for (Py_ssize_t k = 0; k < nkw && at < 0; k++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), "as_tuple") == 0) at = k;
    if (at < 0) return tp_call_ops(ops, name, self, args, nargs, kwnames);
    PyObject *flag = args[nargs + at];
    if (!PyBool_Check(flag))
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'as_tuple' must be bool, not %s", name,
                            Py_TYPE(flag)->tp_name);
    PyObject **flat = PyMem_Malloc(sizeof(PyObject *) * (size_t)(nargs + nkw));
    PyObject *rest = nkw > 1 ? PyTuple_New(nkw - 1) : NULL;
    PyObject *result = NULL;
    if (flat && (nkw == 1 || rest)) {
        for (Py_ssize_t i = 0; i < nargs; i++) flat[i] = args[i];
        for (Py_ssize_t k = 0, j = 0; k < nkw; k++) {
            if (k == at) continue;
            flat[nargs + j] = args[nargs + k];
            PyTuple_SET_ITEM(rest, j++, Py_NewRef(PyTuple_GET_ITEM(kwnames, k)));
        }
        result = tp_call_ops(flag == Py_True ? tuple_ops : ops, name, self, flat, nargs, rest);
    } else {
        PyErr_NoMemory();
    }
    PyMem_Free(flat);
    Py_XDECREF(rest);
    return result;
}
