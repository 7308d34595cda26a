/*
 * What torch.storage and torch.serialization need from the core: the whole storage under a tensor,
 * as a 1-D tensor that shares its memory (x.storage() indexes, copies and fills through it), the
 * storage's identity (PyTorch's storage._cdata: what torch.save uses to write a shared storage once),
 * and its bytes as a Python buffer (torch.save writes them and torch.load reads into them without
 * a copy in between).
 */
#include "tp.h"

/* _storage_tensor(t, dtype=None): every element of t's storage, from its first, as a 1-D view of
 * t's dtype, or of `dtype` (the same bytes seen as other elements: UntypedStorage's bytes). */
static PyObject *py_storage_tensor(PyObject *m, PyObject *args) {
    PyObject *arg, *dtype_obj = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &arg, &dtype_obj)) return NULL;
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    if (dtype_obj != Py_None && !PyObject_TypeCheck(dtype_obj, &TPDtype_Type))
        return PyErr_Format(PyExc_TypeError, "expected a torch.dtype, got %s", Py_TYPE(dtype_obj)->tp_name);
    tc_tensor *t = tp_unwrap(arg);
    int32_t dtype = dtype_obj == Py_None ? t->dtype : ((TPDtype *)dtype_obj)->dtype;
    int64_t n = (int64_t)(tc_storage_nbytes(t->storage) / tc_dtype_size(dtype)), one = 1;
    return tp_wrap(tc_tensor_new_view(t->storage, 0, 1, &n, &one, dtype, t->device));
}

/* _storage_id(t): an integer naming t's storage, the same for every tensor that shares it. */
static PyObject *py_storage_id(PyObject *m, PyObject *arg) {
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    return PyLong_FromVoidPtr(tp_unwrap(arg)->storage);
}

static int parse_int64s(PyObject *seq_obj, const char *what, int64_t *out, int32_t *n) {
    PyObject *seq = PySequence_Fast(seq_obj, "expected a sequence of ints");
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > TC_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_RuntimeError, "too many dimensions in %s (%zd)", what, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    *n = (int32_t)len;
    Py_DECREF(seq);
    return 0;
}

static PyObject *format_ints(const int64_t *v, int32_t n) {
    PyObject *list = PyList_New(n);
    for (int32_t i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLongLong(v[i]));
    if (!list) return NULL;
    PyObject *parts = PyObject_Str(list);
    Py_DECREF(list);
    return parts;
}

/* _storage_view(t, offset, size, stride): a tensor of t's dtype over t's storage with this geometry
 * and no view base: what PyTorch's tensor.set_(storage, offset, size, stride) makes, and how
 * torch.load and deepcopy rebuild tensors on shared storages. */
static PyObject *py_storage_view(PyObject *m, PyObject *args) {
    PyObject *arg, *size_obj, *stride_obj;
    long long offset;
    if (!PyArg_ParseTuple(args, "OLOO", &arg, &offset, &size_obj, &stride_obj)) return NULL;
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    tc_tensor *t = tp_unwrap(arg);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t ndim, nstrides;
    if (parse_int64s(size_obj, "size", sizes, &ndim) || parse_int64s(stride_obj, "stride", strides, &nstrides))
        return NULL;
    if (ndim != nstrides)
        return PyErr_Format(PyExc_RuntimeError, "mismatch in length of strides and shape");
    if (offset < 0) return PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", offset);
    int64_t itemsize = (int64_t)tc_dtype_size(t->dtype), extent = 1; /* elements needed, past the offset */
    for (int32_t i = 0; i < ndim; i++) {
        if (sizes[i] < 0)
            return PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld",
                                (long long)sizes[i]);
        if (strides[i] < 0) return PyErr_Format(PyExc_RuntimeError, "negative strides are not supported");
        if (sizes[i] == 0) extent = 0;
    }
    if (extent) {
        for (int32_t i = 0; i < ndim; i++) extent += (sizes[i] - 1) * strides[i];
    }
    int64_t needed = extent ? (offset + extent) * itemsize : 0;
    int64_t have = (int64_t)tc_storage_nbytes(t->storage);
    if (needed > have) {
        PyObject *s = format_ints(sizes, ndim), *st = s ? format_ints(strides, ndim) : NULL;
        if (s && st)
            PyErr_Format(PyExc_RuntimeError,
                         "setStorage: sizes %U, strides %U, storage offset %lld, and itemsize %lld requiring a storage "
                         "size of %lld are out of bounds for storage of size %lld",
                         s, st, offset, (long long)itemsize, (long long)needed, (long long)have);
        Py_XDECREF(s);
        Py_XDECREF(st);
        return NULL;
    }
    return tp_wrap(tc_tensor_new_view(t->storage, offset, ndim, sizes, strides, t->dtype, t->device));
}

/* A writable buffer over the bytes of one CPU storage, holding a reference to the storage. */
typedef struct {
    PyObject_HEAD
    tc_storage *storage;
} TPStorageBytes;

static int storage_bytes_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    tc_storage *s = ((TPStorageBytes *)self)->storage;
    return PyBuffer_FillInfo(view, self, tc_storage_data(s), (Py_ssize_t)tc_storage_nbytes(s), 0, flags);
}

static void storage_bytes_dealloc(PyObject *self) {
    tc_storage_release(((TPStorageBytes *)self)->storage);
    Py_TYPE(self)->tp_free(self);
}

static PyBufferProcs storage_bytes_as_buffer = {storage_bytes_getbuffer, NULL};

static PyTypeObject TPStorageBytes_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._StorageBytes",
    .tp_basicsize = sizeof(TPStorageBytes),
    .tp_dealloc = storage_bytes_dealloc,
    .tp_as_buffer = &storage_bytes_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

/* _storage_bytes(t): a writable memoryview of every byte of t's storage (a CPU tensor's); it keeps
 * the storage alive while it lives. */
static PyObject *py_storage_bytes(PyObject *m, PyObject *arg) {
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    tc_tensor *t = tp_unwrap(arg);
    if (t->device.type != TC_DEVICE_CPU)
        return PyErr_Format(PyExc_RuntimeError, "_storage_bytes needs a CPU tensor");
    if (!(TPStorageBytes_Type.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&TPStorageBytes_Type) < 0) return NULL;
    TPStorageBytes *owner = PyObject_New(TPStorageBytes, &TPStorageBytes_Type);
    if (!owner) return NULL;
    tc_storage_retain(t->storage);
    owner->storage = t->storage;
    PyObject *view = PyMemoryView_FromObject((PyObject *)owner);
    Py_DECREF(owner);
    return view;
}

/* A 1-D uint8 tensor over every byte of a storage the caller hands over (its reference moves in). */
static PyObject *wrap_storage_bytes(tc_storage *s) {
    if (!s) return tp_raise_core_error();
    int64_t n = (int64_t)tc_storage_nbytes(s), one = 1;
    tc_tensor *t = tc_tensor_new_view(s, 0, 1, &n, &one, TC_UINT8, (tc_device){TC_DEVICE_CPU, 0});
    tc_storage_release(s);
    return t ? tp_wrap(t) : tp_raise_core_error();
}

/* Calls op(t's storage, n) for the arguments (t, n): TC_OK gives None, else the core's error. */
static PyObject *storage_int_op(PyObject *args, int (*op)(tc_storage *, int)) {
    PyObject *arg;
    int n;
    if (!PyArg_ParseTuple(args, "Oi", &arg, &n)) return NULL;
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    if (op(tp_unwrap(arg)->storage, n)) return tp_raise_core_error();
    Py_RETURN_NONE;
}

/* _share_memory(t, kind): moves t's storage into shared memory in place (kind 0: memfd, 1: named). */
static PyObject *py_share_memory(PyObject *m, PyObject *args) { return storage_int_op(args, tc_storage_share); }

/* _shm_ref(t, delta): one reference more or less on t's named segment. */
static PyObject *py_shm_ref(PyObject *m, PyObject *args) { return storage_int_op(args, tc_storage_shm_ref); }

/* _shm_info(t): None when t's storage is not shared, else (kind, fd or -1, name or None). */
static PyObject *py_shm_info(PyObject *m, PyObject *arg) {
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "expected a tensor, got %s", Py_TYPE(arg)->tp_name);
    tc_storage *s = tp_unwrap(arg)->storage;
    int kind = tc_storage_shm_kind(s);
    if (kind < 0) Py_RETURN_NONE;
    const char *name = tc_storage_shm_name(s);
    return Py_BuildValue("(iiz)", kind, tc_storage_shm_fd(s), name);
}

/* _new_shared(nbytes, kind): a uint8 tensor over a new shared segment. */
static PyObject *py_new_shared(PyObject *m, PyObject *args) {
    unsigned long long nbytes;
    int kind;
    if (!PyArg_ParseTuple(args, "Ki", &nbytes, &kind)) return NULL;
    return wrap_storage_bytes(tc_storage_new_shared((size_t)nbytes, kind));
}

/* _storage_from_shm_fd(fd, nbytes) / _storage_from_shm_name(name, nbytes): a uint8 tensor over a
 * segment another process shared. */
static PyObject *py_storage_from_shm_fd(PyObject *m, PyObject *args) {
    int fd;
    unsigned long long nbytes;
    if (!PyArg_ParseTuple(args, "iK", &fd, &nbytes)) return NULL;
    return wrap_storage_bytes(tc_storage_from_shm_fd(fd, (size_t)nbytes));
}

static PyObject *py_storage_from_shm_name(PyObject *m, PyObject *args) {
    const char *name;
    unsigned long long nbytes;
    if (!PyArg_ParseTuple(args, "sK", &name, &nbytes)) return NULL;
    return wrap_storage_bytes(tc_storage_from_shm_name(name, (size_t)nbytes));
}

PyMethodDef tp_storage_functions[] = {
    {"_storage_tensor", py_storage_tensor, METH_VARARGS, NULL},
    {"_storage_id", py_storage_id, METH_O, NULL},
    {"_storage_view", py_storage_view, METH_VARARGS, NULL},
    {"_storage_bytes", py_storage_bytes, METH_O, NULL},
    {"_share_memory", py_share_memory, METH_VARARGS, NULL},
    {"_new_shared", py_new_shared, METH_VARARGS, NULL},
    {"_shm_info", py_shm_info, METH_O, NULL},
    {"_shm_ref", py_shm_ref, METH_VARARGS, NULL},
    {"_storage_from_shm_fd", py_storage_from_shm_fd, METH_VARARGS, NULL},
    {"_storage_from_shm_name", py_storage_from_shm_name, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
