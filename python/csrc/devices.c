/* torch.device objects: Python <-> tc_device, with the reason when a device type cannot be used. */
#include "tp.h"

#include <string.h>

PyObject *tp_device_class;
static PyObject *device_cache[TC_MAX_DEVICE_TYPES][16];

PyObject *tp_device_object(tc_device d) {
    bool cacheable = d.type >= 0 && d.type < TC_MAX_DEVICE_TYPES && d.index >= 0 && d.index < 16;
    if (cacheable && device_cache[d.type][d.index]) return Py_NewRef(device_cache[d.type][d.index]);
    if (!tp_device_class) return PyErr_Format(PyExc_RuntimeError, "torch.device is not registered");
    /* cpu and meta devices carry no index, as PyTorch shows them */
    bool indexless = d.type == TC_DEVICE_CPU || strcmp(tc_device_type_name(d.type), "meta") == 0;
    PyObject *dev = indexless
                        ? PyObject_CallFunction(tp_device_class, "s", tc_device_type_name(d.type))
                        : PyObject_CallFunction(tp_device_class, "si", tc_device_type_name(d.type), d.index);
    if (dev && cacheable) device_cache[d.type][d.index] = Py_NewRef(dev);
    return dev;
}

/* Resolves a device type name, explaining why a known-but-unavailable device cannot be used. */
int tp_device_type(const char *name, int32_t *out) {
    int32_t id = tc_device_type_id(name);
    if (id >= 0) {
        *out = id;
        return 0;
    }
    const char *reason = tc_device_unavailable_reason(name);
    if (reason)
        PyErr_Format(PyExc_RuntimeError, "%s device is not available: %s", name, reason);
    else if (strcmp(name, "cuda") == 0)
        PyErr_Format(PyExc_RuntimeError, "cuda device is not available: no CUDA plugin was found "
                                         "(see python3 -m torch.plugins)");
    else
        PyErr_Format(PyExc_RuntimeError, "Expected one of cpu, cuda device type at start of device string: %s", name);
    return -1;
}

int tp_parse_device(PyObject *o, tc_device *out) {
    out->type = TC_DEVICE_CPU;
    out->index = 0;
    if (!o || o == Py_None) return 0;
    PyObject *type_obj = NULL, *index_obj = NULL;
    const char *text;
    char name[64];
    long index = -1;
    if (PyUnicode_Check(o)) {
        text = PyUnicode_AsUTF8(o);
        if (!text) return -1;
        const char *colon = strchr(text, ':');
        size_t len = colon ? (size_t)(colon - text) : strlen(text);
        if (len >= sizeof name) len = sizeof name - 1;
        memcpy(name, text, len);
        name[len] = 0;
        if (colon) {
            char *end;
            index = strtol(colon + 1, &end, 10);
            if (*end || end == colon + 1 || index < 0) {
                PyErr_Format(PyExc_RuntimeError, "Invalid device string: '%s'", text);
                return -1;
            }
        }
    } else if (PyLong_Check(o)) {
        strcpy(name, "cuda");
        index = PyLong_AsLong(o);
    } else if (tp_device_class && PyObject_IsInstance(o, tp_device_class) == 1) {
        type_obj = PyObject_GetAttrString(o, "type");
        index_obj = PyObject_GetAttrString(o, "index");
        if (!type_obj || !index_obj || !(text = PyUnicode_AsUTF8(type_obj))) {
            Py_XDECREF(type_obj);
            Py_XDECREF(index_obj);
            return -1;
        }
        snprintf(name, sizeof name, "%s", text);
        index = index_obj == Py_None ? -1 : PyLong_AsLong(index_obj);
        Py_DECREF(type_obj);
        Py_DECREF(index_obj);
    } else {
        PyErr_Format(PyExc_TypeError, "expected a torch.device or a device string, got %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    if (tp_device_type(name, &out->type)) return -1;
    out->index = index < 0 ? 0 : (int32_t)index;
    if (out->index >= tc_device_count(out->type)) {
        PyErr_Format(PyExc_RuntimeError, "%s:%d is not available (%d device(s) present)", name, out->index,
                     tc_device_count(out->type));
        return -1;
    }
    return 0;
}

