/*
 * tc_core.h - the C API of libtorch_core for its front ends (torch._C, C programs, tests).
 *
 * Conventions:
 *   - Functions returning int return TC_OK or TC_FAIL; functions returning pointers return NULL on
 *     failure. Either way the reason is in the calling thread's error state (tc_error_*).
 *   - Tensors and storages are reference counted. A function that returns a tc_tensor* hands the
 *     caller one reference ("new reference"); release it with tc_tensor_release. Arguments are
 *     borrowed unless the comment says otherwise.
 *   - Thread safety: reference counts are atomic; a tensor's metadata is immutable except through
 *     the in-place functions, which the caller serialises (as in PyTorch).
 */
#ifndef TC_CORE_H
#define TC_CORE_H

#include "tc_abi.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_MAX_DIMS 64

/* ---- errors ---------------------------------------------------------------------------------- */

TC_EXPORT int tc_set_error(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
TC_EXPORT int tc_last_error_kind(void);         /* TC_ERR_NONE when no error is pending */
TC_EXPORT const char *tc_last_error_message(void);
TC_EXPORT void tc_error_clear(void);

/* ---- dtypes ---------------------------------------------------------------------------------- */

TC_EXPORT size_t tc_dtype_size(int32_t dtype);
TC_EXPORT const char *tc_dtype_name(int32_t dtype); /* "float32" */
TC_EXPORT bool tc_dtype_is_floating(int32_t dtype);
TC_EXPORT bool tc_dtype_is_integral(int32_t dtype); /* bool excluded */
TC_EXPORT bool tc_dtype_is_signed(int32_t dtype);
TC_EXPORT int32_t tc_promote_types(int32_t a, int32_t b);
TC_EXPORT int32_t tc_default_dtype(void);
TC_EXPORT int tc_set_default_dtype(int32_t dtype); /* floating dtypes only */

/* ---- devices --------------------------------------------------------------------------------- */

/* Device type id by name ("cpu", "cuda"), or -1 (no error set) when no plugin registered it. */
TC_EXPORT int32_t tc_device_type_id(const char *name);
TC_EXPORT const char *tc_device_type_name(int32_t type);
TC_EXPORT int32_t tc_device_count(int32_t type);
/* Allocator statistics and cache release for one device type. */
TC_EXPORT int tc_device_allocator_stats(int32_t type, tc_allocator_stats *out);
TC_EXPORT void tc_empty_cache(int32_t type);

/* ---- storages -------------------------------------------------------------------------------- */

typedef void (*tc_deleter_fn)(void *ctx, void *data, size_t nbytes);

typedef struct tc_storage tc_storage;

/* Wraps foreign memory: the storage calls deleter(ctx, data, nbytes) when its last reference goes. */
TC_EXPORT tc_storage *tc_storage_wrap(void *data, size_t nbytes, tc_device device,
                                      tc_deleter_fn deleter, void *ctx);
TC_EXPORT void tc_storage_retain(tc_storage *s);
TC_EXPORT void tc_storage_release(tc_storage *s);
TC_EXPORT void *tc_storage_data(const tc_storage *s);
TC_EXPORT size_t tc_storage_nbytes(const tc_storage *s);

/* ---- tensors --------------------------------------------------------------------------------- */

#define TC_TENSOR_WRAPPED_NUMBER 1u /* a Python number turned tensor: lowest promotion priority */

typedef struct tc_tensor {
    int64_t refcount; /* atomic */
    tc_storage *storage;
    int64_t offset; /* in elements */
    int32_t ndim;
    int32_t dtype;
    int32_t layout;
    uint32_t flags;
    tc_device device;
    uint64_t *version; /* shared by all views of one storage; bumped by in-place writes */
    void *autograd;    /* reserved for the autograd engine */
    int64_t *sizes;
    int64_t *strides; /* in elements */
} tc_tensor;

TC_EXPORT tc_tensor *tc_empty(int32_t ndim, const int64_t *sizes, int32_t dtype, tc_device device);
/* A 0-dim tensor holding one value; is_float picks which of f/i is read. */
TC_EXPORT tc_tensor *tc_scalar_tensor(tc_scalar value, int32_t dtype, tc_device device);
TC_EXPORT tc_tensor *tc_tensor_new_view(tc_storage *storage, int64_t offset, int32_t ndim,
                                        const int64_t *sizes, const int64_t *strides, int32_t dtype,
                                        tc_device device);
TC_EXPORT void tc_tensor_retain(tc_tensor *t);
TC_EXPORT void tc_tensor_release(tc_tensor *t);
TC_EXPORT int64_t tc_tensor_numel(const tc_tensor *t);
TC_EXPORT bool tc_tensor_is_contiguous(const tc_tensor *t);
TC_EXPORT void *tc_tensor_data(const tc_tensor *t); /* storage data + offset */
/* Converts a scalar to `dtype` and writes it to host memory at dst (out-of-range floats saturate). */
TC_EXPORT void tc_scalar_store(tc_scalar value, int32_t dtype, void *dst);
/* Whether value fits dtype by PyTorch's checked conversion (used when filling tensors with Python
 * numbers; arithmetic with wrapped numbers wraps instead). */
TC_EXPORT bool tc_scalar_fits(tc_scalar value, int32_t dtype);
/* Reads element `flat_index` (row-major over the tensor's sizes) of a CPU tensor as a scalar. */
TC_EXPORT int tc_tensor_get(const tc_tensor *t, int64_t flat_index, tc_scalar *out);
TC_EXPORT void tc_tensor_bump_version(tc_tensor *t);
/* How a and b share memory, as PyTorch judges it: TC_OVERLAP_NO, _FULL (the same elements in the same
 * layout), _PARTIAL (some shared elements), or _TOO_HARD (layouts too irregular to tell cheaply). */
enum { TC_OVERLAP_NO, TC_OVERLAP_FULL, TC_OVERLAP_PARTIAL, TC_OVERLAP_TOO_HARD };
TC_EXPORT int tc_tensor_overlap(const tc_tensor *a, const tc_tensor *b);

/* ---- ops ------------------------------------------------------------------------------------- */

#define TC_CALL_MAX_TENSORS 4
#define TC_CALL_MAX_SCALARS 4
#define TC_CALL_MAX_BOOLS 4

/* The arguments of one op call, filled in schema order per kind (see core/ops.table). */
typedef struct tc_call {
    tc_tensor *tensors[TC_CALL_MAX_TENSORS]; /* borrowed */
    int32_t n_tensors;
    int32_t n_scalars;
    tc_scalar scalars[TC_CALL_MAX_SCALARS];
    int64_t ints[TC_MAX_DIMS];
    int32_t n_ints;
    int32_t ints_given; /* 0 when an optional int / int[] argument was None */
    int32_t bools[TC_CALL_MAX_BOOLS];
    int32_t n_bools;
    int32_t dtype;   /* ScalarType argument, -1 when None */
    int32_t inplace; /* write the result into tensors[0] */
} tc_call;

/* Runs op `op` (an enum tc_op_id) and stores up to `max_outs` new references in outs. Returns the
 * number of outputs, or TC_FAIL. */
TC_EXPORT int tc_op_call(int32_t op, const tc_call *call, tc_tensor **outs, int max_outs);
TC_EXPORT int32_t tc_op_lookup(const char *name);

/* Frequently used ops, callable directly. */
TC_EXPORT tc_tensor *tc_binary(int32_t op, tc_tensor *a, tc_tensor *b, tc_scalar alpha, bool inplace);
TC_EXPORT tc_tensor *tc_to_dtype(tc_tensor *t, int32_t dtype);           /* copies only if needed */
TC_EXPORT tc_tensor *tc_contiguous(tc_tensor *t);                       /* copies only if needed */
TC_EXPORT int tc_copy_into(tc_tensor *dst, tc_tensor *src);             /* broadcasts and casts */
TC_EXPORT int tc_fill(tc_tensor *dst, tc_scalar value);
TC_EXPORT tc_tensor *tc_as_strided(tc_tensor *t, int32_t ndim, const int64_t *sizes,
                                   const int64_t *strides, int64_t offset);
TC_EXPORT tc_tensor *tc_select(tc_tensor *t, int32_t dim, int64_t index);
TC_EXPORT tc_tensor *tc_slice(tc_tensor *t, int32_t dim, int64_t start, int64_t stop, int64_t step);
TC_EXPORT tc_tensor *tc_unsqueeze(tc_tensor *t, int32_t dim);
TC_EXPORT tc_tensor *tc_view_shape(tc_tensor *t, int32_t ndim, const int64_t *sizes);
TC_EXPORT tc_tensor *tc_reshape(tc_tensor *t, int32_t ndim, const int64_t *sizes);
TC_EXPORT tc_tensor *tc_arange(tc_scalar start, tc_scalar end, tc_scalar step, int32_t dtype,
                               tc_device device);
TC_EXPORT tc_tensor *tc_linspace(tc_scalar start, tc_scalar end, int64_t steps, int32_t dtype,
                                 tc_device device);
TC_EXPORT tc_tensor *tc_eye(int64_t n, int64_t m, int32_t dtype, tc_device device);

/* ---- plugins, BLAS, threads ------------------------------------------------------------------ */

typedef enum tc_plugin_state {
    TC_PLUGIN_LOADED = 0,
    TC_PLUGIN_NOT_SUPPORTED = 1,
    TC_PLUGIN_SHADOWED = 2,
    TC_PLUGIN_DISABLED = 3,
    TC_PLUGIN_FAILED = 4
} tc_plugin_state;

typedef struct tc_plugin_record {
    const char *name;    /* descriptor name, or the file name when the descriptor was unreadable */
    const char *kind;
    const char *version;
    const char *path;
    int32_t state;       /* tc_plugin_state */
    int32_t score;
    const char *reason;  /* why not loaded; "" when loaded */
} tc_plugin_record;

/* Discovers and loads plugins once (later calls return the first result). Never fails because of
 * one plugin; returns TC_FAIL only when the core itself cannot work (e.g. out of memory). */
TC_EXPORT int tc_plugins_load(void);
TC_EXPORT int32_t tc_plugin_count(void);
TC_EXPORT const tc_plugin_record *tc_plugin_get(int32_t i);
/* The reason a device type could not be used, or NULL when it is loaded or unknown. */
TC_EXPORT const char *tc_device_unavailable_reason(const char *device_name);

TC_EXPORT int tc_blas_use(const char *name); /* TC_FAIL (ValueError) for an unknown provider */
TC_EXPORT const char *tc_blas_current_name(void);
TC_EXPORT const char *tc_blas_describe(void);
/* The thread count the current provider reports using (0 when no provider is loaded). */
TC_EXPORT int tc_blas_num_threads(void);
TC_EXPORT int32_t tc_blas_count(void);
TC_EXPORT const char *tc_blas_name(int32_t i);

TC_EXPORT int tc_set_num_threads(int n);
TC_EXPORT int tc_get_num_threads(void);

/* The table handed to plugins (exposed for tests that load plugins by hand). */
TC_EXPORT const tc_core_api *tc_core_api_table(void);

#ifdef __cplusplus
}
#endif
#endif /* TC_CORE_H */
