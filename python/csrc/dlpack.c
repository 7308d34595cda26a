/*
 * dlpack.c - DLPack (the array exchange protocol of numpy, CuPy, JAX, ...): tensors handed out and
 * taken in without copies, as PyCapsules named "dltensor" holding a DLManagedTensor.
 *
 * Out (_to_dlpack): the capsule owns a reference to the tensor and the shape and strides arrays; the
 * consumer calls the managed tensor's deleter when done, or, if nobody consumed it, the capsule's
 * destructor does. In (_from_dlpack): the capsule is renamed "used_dltensor" (it is consumed once)
 * and the tensor's storage wraps the producer's memory with a deleter that calls the producer's.
 * The structs are DLPack's ABI (dlpack.h, version 0.6, as PyTorch 1.13 and numpy 1.24 use it).
 */
#include "tp.h"
#include "torch_core/tc_autograd.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t device_type; /* kDLCPU 1, kDLCUDA 2 */
    int32_t device_id;
} dl_device;

typedef struct {
    uint8_t code; /* kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLComplex 5 */
    uint8_t bits;
    uint16_t lanes;
} dl_dtype;

typedef struct {
    void *data;
    dl_device device;
    int32_t ndim;
    dl_dtype dtype;
    int64_t *shape;
    int64_t *strides; /* in elements; NULL: compact row-major */
    uint64_t byte_offset;
} dl_tensor;

typedef struct dl_managed_tensor {
    dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct dl_managed_tensor *self);
} dl_managed_tensor;

_Static_assert(sizeof(dl_tensor) == 48, "DLTensor's layout");
_Static_assert(sizeof(dl_managed_tensor) == 64, "DLManagedTensor's layout");

enum { DL_CPU = 1, DL_CUDA = 2 };
enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BFLOAT = 4, DL_COMPLEX = 5 };

/* The DLPack type of a dtype, as PyTorch 1.13 exports it; 0 when it has none (bool). */
static int dl_type_of(int32_t dtype, dl_dtype *out) {
    static const struct { int32_t dtype; uint8_t code, bits; } table[] = {
        {TC_UINT8, DL_UINT, 8},     {TC_INT8, DL_INT, 8},           {TC_INT16, DL_INT, 16},
        {TC_INT32, DL_INT, 32},     {TC_INT64, DL_INT, 64},         {TC_FLOAT16, DL_FLOAT, 16},
        {TC_BFLOAT16, DL_BFLOAT, 16}, {TC_FLOAT32, DL_FLOAT, 32},   {TC_FLOAT64, DL_FLOAT, 64},
        {TC_COMPLEX64, DL_COMPLEX, 64}, {TC_COMPLEX128, DL_COMPLEX, 128},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].dtype == dtype) {
            *out = (dl_dtype){table[i].code, table[i].bits, 1};
            return 1;
        }
    return 0;
}

/* The dtype of a DLPack type, -1 when there is none. */
static int32_t dtype_of_dl(dl_dtype t) {
    static const int32_t dtypes[] = {TC_UINT8, TC_INT8, TC_INT16, TC_INT32, TC_INT64, TC_FLOAT16, TC_BFLOAT16,
                                     TC_FLOAT32, TC_FLOAT64, TC_COMPLEX64, TC_COMPLEX128};
    if (t.lanes != 1) return -1;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
        dl_dtype d;
        if (dl_type_of(dtypes[i], &d) && d.code == t.code && d.bits == t.bits) return dtypes[i];
    }
    return t.code == 6 && t.bits == 8 ? TC_BOOL : -1; /* kDLBool (DLPack 0.8) */
}

/* What an exported tensor's manager owns: the tensor and the arrays the DLTensor points at. */
typedef struct {
    dl_managed_tensor managed;
    tc_tensor *tensor;
    int64_t dims[]; /* shape, then strides */
} export_ctx;

static void export_delete(dl_managed_tensor *self) {
    export_ctx *ctx = self->manager_ctx;
    tc_tensor_release(ctx->tensor);
    free(ctx);
}

static void export_capsule_destructor(PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, "dltensor")) return; /* consumed: the consumer deletes */
    dl_managed_tensor *m = PyCapsule_GetPointer(capsule, "dltensor");
    if (m && m->deleter) m->deleter(m);
}

/* _to_dlpack(tensor) -> capsule */
PyObject *tp_to_dlpack(PyObject *m, PyObject *arg) {
    if (!tp_is_tensor(arg)) return PyErr_Format(PyExc_TypeError, "to_dlpack expects a Tensor");
    tc_tensor *t = tp_unwrap(arg);
    if (tc_requires_grad(t))
        return PyErr_Format(PyExc_RuntimeError, "Can't export tensors that require gradient, use tensor.detach()");
    dl_dtype type;
    if (!dl_type_of(t->dtype, &type))
        return PyErr_Format(PyExc_RuntimeError, "%s type is not supported by dlpack", tc_dtype_scalar_name(t->dtype));
    if (t->layout != TC_STRIDED)
        return PyErr_Format(PyExc_RuntimeError, "Cannot pack tensors of layout %s", tc_layout_name(t->layout));
    export_ctx *ctx = malloc(sizeof(export_ctx) + sizeof(int64_t) * 2 * (size_t)t->ndim);
    if (!ctx) return PyErr_NoMemory();
    memcpy(ctx->dims, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(ctx->dims + t->ndim, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    tc_tensor_retain(t);
    ctx->tensor = t;
    ctx->managed = (dl_managed_tensor){
        .dl_tensor = {.data = tc_tensor_data(t), .device = {t->device.type == TC_DEVICE_CPU ? DL_CPU : DL_CUDA,
                                                             t->device.index},
                      .ndim = t->ndim, .dtype = type, .shape = ctx->dims, .strides = ctx->dims + t->ndim,
                      .byte_offset = 0},
        .manager_ctx = ctx, .deleter = export_delete};
    PyObject *capsule = PyCapsule_New(&ctx->managed, "dltensor", export_capsule_destructor);
    if (!capsule) export_delete(&ctx->managed);
    return capsule;
}

static void import_release(void *ctx, void *data, size_t nbytes) {
    dl_managed_tensor *m = ctx;
    if (m->deleter) m->deleter(m);
}

/* _from_dlpack(capsule) -> tensor sharing the producer's memory */
PyObject *tp_from_dlpack(PyObject *mod, PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, "dltensor"))
        return PyErr_Format(PyExc_RuntimeError, "from_dlpack received an invalid capsule. Note that DLTensor "
                                                "capsules can be consumed only once, so you might have already "
                                                "constructed a tensor from it once.");
    dl_managed_tensor *m = PyCapsule_GetPointer(capsule, "dltensor");
    if (!m) return NULL;
    const dl_tensor *d = &m->dl_tensor;
    if (d->device.device_type != DL_CPU)
        return PyErr_Format(PyExc_RuntimeError, "Unsupported device_type: %d (this build takes CPU memory)",
                            d->device.device_type);
    const int32_t dtype = dtype_of_dl(d->dtype);
    if (dtype < 0)
        return PyErr_Format(PyExc_RuntimeError, "Unsupported kUInt bits %d (DLPack type code %d, %d lanes)",
                            d->dtype.bits, d->dtype.code, d->dtype.lanes);
    if (d->ndim < 0 || d->ndim > TC_MAX_DIMS)
        return PyErr_Format(PyExc_RuntimeError, "from_dlpack: %d dimensions", d->ndim);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], reach = 0, expected = 1;
    for (int32_t i = d->ndim - 1; i >= 0; i--) {
        sizes[i] = d->shape[i];
        strides[i] = d->strides ? d->strides[i] : expected;
        if (sizes[i] < 0) return PyErr_Format(PyExc_RuntimeError, "from_dlpack: negative size %lld",
                                              (long long)sizes[i]);
        if (__builtin_mul_overflow(expected, sizes[i], &expected))
            return PyErr_Format(PyExc_RuntimeError, "from_dlpack: the tensor's size overflows");
        if (sizes[i] == 0) reach = -1;
        else if (reach >= 0 && strides[i] > 0) reach += (sizes[i] - 1) * strides[i];
    }
    /* the memory wrapped: from data + byte_offset to the farthest element (negative strides are not
     * DLPack's, and a zero-size tensor wraps nothing) */
    const size_t es = tc_dtype_size(dtype);
    const size_t nbytes = reach < 0 ? 0 : (size_t)(reach + 1) * es;
    tc_device cpu = {TC_DEVICE_CPU, 0};
    if (PyCapsule_SetName(capsule, "used_dltensor")) return NULL; /* from here on m is ours to delete */
    tc_storage *s = tc_storage_wrap((char *)d->data + d->byte_offset, nbytes, cpu, import_release, m);
    if (!s) {
        if (m->deleter) m->deleter(m);
        return tp_raise_core_error();
    }
    tc_tensor *base = tc_tensor_new_view(s, 0, 0, NULL, NULL, dtype, cpu);
    tc_storage_release(s);
    if (!base) return tp_raise_core_error();
    int64_t start = 0;
    tc_tensor *t = tc_as_strided(base, (tc_int_list){sizes, d->ndim}, (tc_int_list){strides, d->ndim}, &start);
    tc_tensor_release(base);
    return t ? tp_wrap(t) : tp_raise_core_error();
}
