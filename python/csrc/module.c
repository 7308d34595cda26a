/* torch._C: module init and the functions that are not generated ops (factories, devices,
 * plugins, BLAS, threads, numpy memory). */
#include "tp.h"

#include <limits.h>
#include <string.h>

static int parse_dtype(PyObject *o, int32_t fallback, int32_t *out) {
    if (!o || o == Py_None) {
        *out = fallback;
        return 0;
    }
    if (!PyObject_TypeCheck(o, &TPDtype_Type)) {
        PyErr_Format(PyExc_TypeError, "argument 'dtype' must be torch.dtype, not %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = ((TPDtype *)o)->dtype;
    return 0;
}

static int parse_sizes(PyObject *o, int32_t *ndim, int64_t *sizes) {
    PyObject *seq = PySequence_Fast(o, "size must be a tuple of ints");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > TC_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_RuntimeError, "tensors may have at most %d dimensions, got %zd", TC_MAX_DIMS, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (PyBool_Check(item) || PyFloat_Check(item) || !PyIndex_Check(item)) {
            PyErr_Format(PyExc_TypeError, "size must be a tuple of ints, but got element %zd of type %s", i,
                         Py_TYPE(item)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        PyObject *index = PyNumber_Index(item);
        int overflow = 0;
        sizes[i] = index ? PyLong_AsLongLongAndOverflow(index, &overflow) : -1;
        Py_XDECREF(index);
        if (overflow) {
            PyErr_SetString(PyExc_RuntimeError, "size is too large (does not fit in int64)");
            Py_DECREF(seq);
            return -1;
        }
        if (!index || (sizes[i] == -1 && PyErr_Occurred())) {
            Py_DECREF(seq);
            return -1;
        }
    }
    *ndim = (int32_t)n;
    Py_DECREF(seq);
    return 0;
}

/* Foreign CPU memory (numpy) kept alive by a reference to its owner. */
static void release_owner(void *ctx, void *data, size_t nbytes) {
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(gil);
}

/* _from_buffer(owner, address, nbytes, shape, strides_in_elements, offset_in_elements, dtype) */
static PyObject *py_from_buffer(PyObject *m, PyObject *args) {
    PyObject *owner, *shape, *strides_obj, *dtype_obj;
    unsigned long long address, nbytes;
    long long offset;
    if (!PyArg_ParseTuple(args, "OKKOOLO", &owner, &address, &nbytes, &shape, &strides_obj, &offset, &dtype_obj))
        return NULL;
    int32_t ndim, nstrides, dtype;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    if (parse_sizes(shape, &ndim, sizes) || parse_sizes(strides_obj, &nstrides, strides) ||
        parse_dtype(dtype_obj, -1, &dtype))
        return NULL;
    if (ndim != nstrides || dtype < 0) return PyErr_Format(PyExc_ValueError, "shape and strides differ in length");
    tc_device cpu = {TC_DEVICE_CPU, 0};
    Py_INCREF(owner);
    tc_storage *s = tc_storage_wrap((void *)(uintptr_t)address, nbytes, cpu, release_owner, owner);
    if (!s) {
        Py_DECREF(owner);
        return tp_raise_core_error();
    }
    tc_tensor *base = tc_tensor_new_view(s, 0, 0, NULL, NULL, dtype, cpu);
    tc_storage_release(s);
    if (!base) return tp_raise_core_error();
    int64_t start = offset;
    tc_tensor *t = tc_as_strided(base, (tc_int_list){sizes, ndim}, (tc_int_list){strides, ndim}, &start);
    tc_tensor_release(base);
    return tp_wrap(t);
}

static PyObject *py_set_tensor_class(PyObject *m, PyObject *cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &TPTensorBase_Type))
        return PyErr_Format(PyExc_TypeError, "expected a subclass of _TensorBase");
    Py_INCREF(cls);
    tp_tensor_class = (PyTypeObject *)cls;
    Py_RETURN_NONE;
}

static PyObject *py_set_device_class(PyObject *m, PyObject *cls) {
    Py_XSETREF(tp_device_class, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static const char *state_names[] = {"loaded", "not supported", "shadowed", "disabled", "failed"};

static PyObject *py_plugins(PyObject *m, PyObject *unused) {
    int32_t n = tc_plugin_count();
    PyObject *list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) {
        const tc_plugin_record *r = tc_plugin_get(i);
        PyObject *d = Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s,s:i}", "name", r->name, "kind", r->kind, "version",
                                    r->version, "path", r->path, "state", state_names[r->state], "reason", r->reason,
                                    "score", r->score);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

/* The provider kinds (BLAS, FFT) share these: switch by name, the current one's name, the names loaded. */
static PyObject *provider_use(PyObject *name, int (*use)(const char *)) {
    const char *s = PyUnicode_AsUTF8(name);
    if (!s) return NULL;
    if (use(s)) return tp_raise_core_error();
    Py_RETURN_NONE;
}

static PyObject *provider_current(const char *name) {
    if (!name) Py_RETURN_NONE;
    return PyUnicode_FromString(name);
}

static PyObject *provider_names(int32_t n, const char *(*name)(int32_t)) {
    PyObject *list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, PyUnicode_FromString(name(i)));
    return list;
}

static PyObject *py_blas_use(PyObject *m, PyObject *name) { return provider_use(name, tc_blas_use); }
static PyObject *py_blas_current(PyObject *m, PyObject *unused) { return provider_current(tc_blas_current_name()); }
static PyObject *py_blas_describe(PyObject *m, PyObject *unused) { return PyUnicode_FromString(tc_blas_describe()); }
static PyObject *py_blas_names(PyObject *m, PyObject *unused) { return provider_names(tc_blas_count(), tc_blas_name); }
static PyObject *py_fft_use(PyObject *m, PyObject *name) { return provider_use(name, tc_fft_use); }
static PyObject *py_fft_current(PyObject *m, PyObject *unused) { return provider_current(tc_fft_current_name()); }
static PyObject *py_fft_describe(PyObject *m, PyObject *unused) { return PyUnicode_FromString(tc_fft_describe()); }
static PyObject *py_fft_names(PyObject *m, PyObject *unused) { return provider_names(tc_fft_count(), tc_fft_name); }

static PyObject *py_blas_num_threads(PyObject *m, PyObject *unused) { return PyLong_FromLong(tc_blas_num_threads()); }

static PyObject *py_set_num_threads(PyObject *m, PyObject *arg) {
    if (!PyLong_Check(arg) || PyBool_Check(arg)) /* RuntimeError, as PyTorch raises */
        return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects an int, but got %s", Py_TYPE(arg)->tp_name);
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (n == -1 && PyErr_Occurred()) return NULL;
    /* PyTorch's words for 0, negatives and anything past a C int; what is used is capped in the core */
    if (overflow || n <= 0 || n > INT_MAX)
        return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects a positive integer");
    if (tc_set_num_threads((int)n)) return tp_raise_core_error();
    Py_RETURN_NONE;
}

static PyObject *py_get_num_threads(PyObject *m, PyObject *unused) { return PyLong_FromLong(tc_get_num_threads()); }

static PyObject *py_get_default_dtype(PyObject *m, PyObject *unused) {
    return Py_NewRef(tp_dtype_object(tc_default_dtype()));
}

static PyObject *py_set_default_dtype(PyObject *m, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, &TPDtype_Type))
        return PyErr_Format(PyExc_TypeError, "invalid dtype object: only floating-point types are supported as the "
                                             "default type");
    if (tc_set_default_dtype(((TPDtype *)arg)->dtype)) return tp_raise_core_error();
    Py_RETURN_NONE;
}

static PyObject *py_device_count(PyObject *m, PyObject *name) {
    const char *s = PyUnicode_AsUTF8(name);
    if (!s) return NULL;
    int32_t id = tc_device_type_id(s);
    return PyLong_FromLong(id < 0 ? 0 : tc_device_count(id));
}

/* Whether torch.device may name this type: cpu, cuda (which may merely be absent here), or a type a
 * plugin registered or failed to (then using it explains why it is unavailable). */
static PyObject *py_is_device_type(PyObject *m, PyObject *name) {
    const char *s = PyUnicode_AsUTF8(name);
    if (!s) return NULL;
    return PyBool_FromLong(strcmp(s, "cpu") == 0 || strcmp(s, "cuda") == 0 || tc_device_type_id(s) >= 0 ||
                           tc_device_unavailable_reason(s) != NULL);
}

static PyObject *py_device_unavailable_reason(PyObject *m, PyObject *name) {
    const char *s = PyUnicode_AsUTF8(name);
    if (!s) return NULL;
    const char *reason = tc_device_unavailable_reason(s);
    if (!reason) Py_RETURN_NONE;
    return PyUnicode_FromString(reason);
}

static PyObject *py_allocator_stats(PyObject *m, PyObject *name) {
    const char *s = PyUnicode_AsUTF8(name);
    int32_t type = 0;
    if (!s || tp_device_type(s, &type)) return NULL;
    tc_allocator_stats st;
    if (tc_device_allocator_stats(type, &st)) return tp_raise_core_error();
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K}", "allocated_bytes", st.allocated_bytes, "cached_bytes",
                         st.cached_bytes, "peak_allocated_bytes", st.peak_allocated_bytes, "n_allocs", st.n_allocs,
                         "n_cache_hits", st.n_cache_hits);
}

/* _cpu_cache_stats(): the CPU block cache's bound, where it comes from, and what it holds. */
static PyObject *py_cpu_cache_stats(PyObject *m, PyObject *unused) {
    tc_cpu_cache_info i;
    tc_cpu_cache_info_get(&i);
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "limit_bytes", i.limit_bytes, "memory_bytes",
                         i.memory_bytes, "cgroup_limit_bytes", i.cgroup_limit_bytes, "cached_bytes", i.cached_bytes,
                         "cached_blocks", i.cached_blocks, "idle_ms", i.idle_ms, "n_idle_releases",
                         i.n_idle_releases, "idle_released_bytes", i.idle_released_bytes);
}

/* _set_deterministic_algorithms(mode, *, warn_only=False): PyTorch's argument parser's words. */
static PyObject *py_set_deterministic_algorithms(PyObject *m, PyObject *args, PyObject *kwargs) {
    static const char *const name = "_set_deterministic_algorithms()";
    const Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > 1) return PyErr_Format(PyExc_TypeError, "%s takes 1 positional argument but %zd were given", name, n);
    PyObject *mode = n ? PyTuple_GET_ITEM(args, 0) : NULL, *warn_only = NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (kwargs && PyDict_Next(kwargs, &pos, &key, &value)) {
        const char *k = PyUnicode_AsUTF8(key);
        if (!k) return NULL;
        if (strcmp(k, "mode") == 0 && !mode)
            mode = value;
        else if (strcmp(k, "warn_only") == 0)
            warn_only = value;
        else
            return PyErr_Format(PyExc_TypeError, "%s got an unexpected keyword argument '%s'", name, k);
    }
    if (!mode) return PyErr_Format(PyExc_TypeError, "%s missing 1 required positional arguments: \"mode\"", name);
    if (!PyBool_Check(mode))
        return PyErr_Format(PyExc_TypeError, "%s: argument 'mode' (position 1) must be bool, not %s", name,
                            Py_TYPE(mode)->tp_name);
    if (warn_only && !PyBool_Check(warn_only))
        return PyErr_Format(PyExc_TypeError, "%s: argument 'warn_only' must be bool, not %s", name,
                            Py_TYPE(warn_only)->tp_name);
    tc_deterministic_set(mode == Py_True, warn_only == Py_True);
    Py_RETURN_NONE;
}

static PyObject *py_get_deterministic_algorithms(PyObject *m, PyObject *unused) {
    return PyBool_FromLong(tc_deterministic_enabled());
}

static PyObject *py_get_deterministic_algorithms_warn_only(PyObject *m, PyObject *unused) {
    return PyBool_FromLong(tc_deterministic_warn_only());
}

static PyObject *py_empty_cache(PyObject *m, PyObject *name) {
    const char *s = PyUnicode_AsUTF8(name);
    int32_t type = 0;
    if (!s || tp_device_type(s, &type)) return NULL;
    tc_empty_cache(type);
    Py_RETURN_NONE;
}

/* _log_api_usage_once(event): PyTorch hands the event to a logger a host application installs; no
 * logger can be installed here, so checking the argument is all there is to do. */
static PyObject *py_log_api_usage_once(PyObject *m, PyObject *event) {
    if (!PyUnicode_Check(event))
        return PyErr_Format(PyExc_TypeError, "_log_api_usage_once(): incompatible function arguments: expected a str, "
                                             "got %s", Py_TYPE(event)->tp_name);
    Py_RETURN_NONE;
}

static PyMethodDef module_functions[] = {
    {"_tensor_from_data", tp_tensor_from_data, METH_VARARGS, NULL},
    {"_from_buffer", py_from_buffer, METH_VARARGS, NULL},
    {"_set_tensor_class", py_set_tensor_class, METH_O, NULL},
    {"_set_device_class", py_set_device_class, METH_O, NULL},
    {"_set_enum_classes", tp_set_enum_classes, METH_VARARGS, NULL},
    {"_plugins", py_plugins, METH_NOARGS, NULL},
    {"_blas_use", py_blas_use, METH_O, NULL},
    {"_blas_current", py_blas_current, METH_NOARGS, NULL},
    {"_blas_describe", py_blas_describe, METH_NOARGS, NULL},
    {"_blas_names", py_blas_names, METH_NOARGS, NULL},
    {"_fft_use", py_fft_use, METH_O, NULL},
    {"_fft_current", py_fft_current, METH_NOARGS, NULL},
    {"_fft_describe", py_fft_describe, METH_NOARGS, NULL},
    {"_fft_names", py_fft_names, METH_NOARGS, NULL},
    {"_blas_num_threads", py_blas_num_threads, METH_NOARGS, NULL},
    {"set_num_threads", py_set_num_threads, METH_O, NULL},
    {"get_num_threads", py_get_num_threads, METH_NOARGS, NULL},
    {"get_default_dtype", py_get_default_dtype, METH_NOARGS, NULL},
    {"set_default_dtype", py_set_default_dtype, METH_O, NULL},
    {"_device_count", py_device_count, METH_O, NULL},
    {"_device_unavailable_reason", py_device_unavailable_reason, METH_O, NULL},
    {"_is_device_type", py_is_device_type, METH_O, NULL},
    {"_allocator_stats", py_allocator_stats, METH_O, NULL},
    {"_empty_cache", py_empty_cache, METH_O, NULL},
    {"_cpu_cache_stats", py_cpu_cache_stats, METH_NOARGS, NULL},
    {"_to_dlpack", tp_to_dlpack, METH_O, NULL},
    {"_from_dlpack", tp_from_dlpack, METH_O, NULL},
    {"_profiler_enable", tp_profiler_enable, METH_O, NULL},
    {"_profiler_disable", tp_profiler_disable, METH_NOARGS, NULL},
    {"_profiler_range_push", tp_profiler_range_push, METH_O, NULL},
    {"_profiler_range_pop", tp_profiler_range_pop, METH_O, NULL},
    {"_log_api_usage_once", py_log_api_usage_once, METH_O, NULL},
    {"_set_deterministic_algorithms", (PyCFunction)(void (*)(void))py_set_deterministic_algorithms,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"_get_deterministic_algorithms", py_get_deterministic_algorithms, METH_NOARGS, NULL},
    {"_get_deterministic_algorithms_warn_only", py_get_deterministic_algorithms_warn_only, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "torch._C", NULL, -1, module_functions};

PyMODINIT_FUNC PyInit__C(void) {
    if (tc_plugins_load()) return tp_raise_core_error();
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    tp_install_warning_handler();
    tp_install_gil_hooks();
    if (tp_dtype_init(m) || tp_size_init(m) || tp_tensor_type_init(m) || tp_generator_init(m) ||
        PyModule_AddFunctions(m, tp_library_functions) || PyModule_AddFunctions(m, tp_storage_functions) ||
        tp_autograd_init(m) || tp_errors_init(m) ||
        PyModule_AddFunctions(m, tp_pickle_functions)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
