/*
 * torch._C.Generator (torch.Generator): a Python handle on a core generator (tc_generator), with
 * PyTorch's methods and messages, and torch._C.default_generator, the CPU's default one. The op
 * bindings read a Generator argument's `_handle` (arg_parser.c), which is read-only here, so a
 * program cannot hand the core a pointer of its own making.
 */
#include "tp.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    tc_generator *g; /* owned reference; never NULL once constructed */
} TPGenerator;

static PyTypeObject TPGenerator_Type;

static PyObject *generator_wrap(PyTypeObject *type, tc_generator *g) {
    TPGenerator *self = (TPGenerator *)type->tp_alloc(type, 0);
    if (!self) {
        tc_generator_release(g);
        return NULL;
    }
    self->g = g;
    return (PyObject *)self;
}

/* Generator(device='cpu'): a device string, torch.device, an int (a CUDA ordinal) or None. */
static PyObject *generator_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"device", NULL};
    PyObject *device = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Generator", kwlist, &device)) return NULL;
    tc_device d = {TC_DEVICE_CPU, 0};
    if (device != Py_None) {
        PyObject *name = NULL;
        if (PyLong_Check(device) && !PyBool_Check(device)) {
            name = PyUnicode_FromString("cuda");
        } else if (PyUnicode_Check(device)) {
            name = PyUnicode_FromString(PyUnicode_AsUTF8(device));
        } else if (tp_device_class && PyObject_IsInstance(device, tp_device_class) == 1) {
            name = PyObject_GetAttrString(device, "type");
        } else {
            return PyErr_Format(PyExc_TypeError, "Generator(): argument 'device' must be torch.device, not %s",
                                Py_TYPE(device)->tp_name);
        }
        const char *text = name ? PyUnicode_AsUTF8(name) : NULL;
        if (!text) {
            Py_XDECREF(name);
            return NULL;
        }
        char type_name[64];
        size_t len = strcspn(text, ":");
        if (len >= sizeof type_name) len = sizeof type_name - 1;
        memcpy(type_name, text, len);
        type_name[len] = 0;
        Py_DECREF(name);
        if (strcmp(type_name, "cpu") != 0) {
            int32_t id = tc_device_type_id(type_name);
            if (id < 0 && strcmp(type_name, "cuda") != 0 && !tc_device_unavailable_reason(type_name))
                return PyErr_Format(PyExc_RuntimeError,
                                    "Expected one of cpu, cuda device type at start of device string: %s", type_name);
            for (char *c = type_name; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
            return PyErr_Format(PyExc_RuntimeError, "Device type %s is not supported for torch.Generator() api.",
                                type_name);
        }
    }
    tc_generator *g = tc_generator_new(d);
    return g ? generator_wrap(type, g) : tp_raise_core_error();
}

static void generator_dealloc(PyObject *self) {
    tc_generator_release(((TPGenerator *)self)->g);
    Py_TYPE(self)->tp_free(self);
}

static tc_generator *unwrap(PyObject *self) { return ((TPGenerator *)self)->g; }

/* manual_seed(seed): any int of 64 bits, unsigned or signed (a negative seed is its two's
 * complement, as in PyTorch); returns the generator. */
static PyObject *generator_manual_seed(PyObject *self, PyObject *seed) {
    if (!PyLong_Check(seed) || PyBool_Check(seed)) {
        if (PyIndex_Check(seed) && !tp_is_tensor(seed) && !PyBool_Check(seed))
            return PyErr_Format(PyExc_TypeError, "an integer is required");
        return PyErr_Format(PyExc_RuntimeError, "manual_seed expected a long, but got %s", Py_TYPE(seed)->tp_name);
    }
    unsigned long long value = PyLong_AsUnsignedLongLong(seed);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        long long signed_value = PyLong_AsLongLong(seed);
        if (signed_value == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return PyErr_Format(PyExc_RuntimeError, "Overflow when unpacking long");
        }
        value = (unsigned long long)signed_value;
    }
    tc_generator_manual_seed(unwrap(self), (uint64_t)value);
    return Py_NewRef(self);
}

static PyObject *generator_seed(PyObject *self, PyObject *unused) {
    uint64_t seed;
    if (tc_generator_seed(unwrap(self), &seed)) return tp_raise_core_error();
    return PyLong_FromUnsignedLongLong(seed);
}

static PyObject *generator_initial_seed(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(tc_generator_initial_seed(unwrap(self)));
}

static PyObject *generator_get_state(PyObject *self, PyObject *unused) {
    return tp_wrap(tc_generator_get_state(unwrap(self)));
}

static PyObject *generator_set_state(PyObject *self, PyObject *state) {
    if (!tp_is_tensor(state))
        return PyErr_Format(PyExc_TypeError, "expected a torch.ByteTensor, but got %s", Py_TYPE(state)->tp_name);
    if (tc_generator_set_state(unwrap(self), tp_unwrap(state))) return tp_raise_core_error();
    return Py_NewRef(self);
}

static PyObject *generator_device(PyObject *self, void *unused) {
    return tp_device_object(tc_generator_device(unwrap(self)));
}

static PyObject *generator_handle(PyObject *self, void *unused) { return PyLong_FromVoidPtr(unwrap(self)); }

static PyMethodDef generator_methods[] = {
    {"manual_seed", generator_manual_seed, METH_O, "Seeds the generator; returns it."},
    {"seed", generator_seed, METH_NOARGS, "Seeds the generator from the operating system's entropy; returns the seed."},
    {"initial_seed", generator_initial_seed, METH_NOARGS, "The seed the generator was last seeded with."},
    {"get_state", generator_get_state, METH_NOARGS, "The generator's state as a torch.ByteTensor (PyTorch's layout)."},
    {"set_state", generator_set_state, METH_O, "Restores a state from get_state (or PyTorch's); returns the generator."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef generator_getset[] = {
    {"device", generator_device, NULL, "The device the generator draws for.", NULL},
    {"_handle", generator_handle, NULL, "The core's generator, for the op bindings.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TPGenerator_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C.Generator",
    .tp_basicsize = sizeof(TPGenerator),
    .tp_dealloc = generator_dealloc,
    /* not subclassable: a subclass could shadow `_handle`, which the op bindings trust */
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Generator(device='cpu'): a stream of random numbers (PyTorch's CPU generator, bit for bit).",
    .tp_methods = generator_methods,
    .tp_getset = generator_getset,
    .tp_new = generator_new,
};

int tp_generator_init(PyObject *module) {
    if (PyType_Ready(&TPGenerator_Type) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Generator", (PyObject *)&TPGenerator_Type) < 0) return -1;
    tc_generator *g = tc_generator_default(TC_DEVICE_CPU);
    if (!g) {
        tp_raise_core_error();
        return -1;
    }
    tc_generator_retain(g);
    PyObject *def = generator_wrap(&TPGenerator_Type, g);
    if (!def) return -1;
    int rc = PyModule_AddObjectRef(module, "default_generator", def);
    Py_DECREF(def);
    return rc;
}
