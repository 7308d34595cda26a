/*
 * tc_abi.h - the plugin ABI of libtorch_core (ABI major 1).
 *
 * Everything a plugin (device backend, BLAS provider, layout, third-party extension) sees of the
 * core is in this header. Plugins do not link libtorch_core.so: the core hands each plugin's init a
 * table of function pointers (tc_core_api) that only ever grows at its end. Only plain C types and
 * DLPack-like views cross the boundary; every struct that does has a size assertion below, and every
 * struct a plugin fills starts with its own size so the core can tell older layouts apart.
 *
 * Rules for changing this file:
 *   - never reorder, remove or retype a member; append members at the end and bump TC_ABI_MINOR;
 *   - a change that cannot be made by appending bumps TC_ABI_MAJOR, and the core then refuses
 *     plugins built for another major (they are reported as failed, with the reason).
 */
#ifndef TC_ABI_H
#define TC_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_ABI_MAJOR 1
#define TC_ABI_MINOR 1

#if defined(__GNUC__)
#define TC_EXPORT __attribute__((visibility("default")))
#else
#define TC_EXPORT
#endif

/* ---- dtypes ---------------------------------------------------------------------------------- */

/* Values are ABI: appended to, never renumbered. */
typedef enum tc_dtype {
    TC_BOOL = 0,
    TC_UINT8 = 1,
    TC_INT8 = 2,
    TC_INT16 = 3,
    TC_INT32 = 4,
    TC_INT64 = 5,
    TC_FLOAT16 = 6,
    TC_BFLOAT16 = 7,
    TC_FLOAT32 = 8,
    TC_FLOAT64 = 9,
    TC_NUM_DTYPES = 10
} tc_dtype;

/* ---- errors ---------------------------------------------------------------------------------- */

/* Every call that can fail returns an int: TC_OK (0) on success, TC_FAIL (-1) on failure with the
 * message and kind stored in the calling thread's error state (tc_core_api.set_error). */
#define TC_OK 0
#define TC_FAIL (-1)

/* Kinds map onto Python exceptions: runtime -> RuntimeError, type -> TypeError, index -> IndexError,
 * value -> ValueError, out_of_memory -> RuntimeError ("out of memory"), not_implemented ->
 * NotImplementedError. */
typedef enum tc_error_kind {
    TC_ERR_NONE = 0,
    TC_ERR_RUNTIME = 1,
    TC_ERR_TYPE = 2,
    TC_ERR_INDEX = 3,
    TC_ERR_VALUE = 4,
    TC_ERR_OUT_OF_MEMORY = 5,
    TC_ERR_NOT_IMPLEMENTED = 6
} tc_error_kind;

/* ---- devices and layouts --------------------------------------------------------------------- */

/* Device type ids: 0 is the built-in CPU; plugins register further types by name and receive an id. */
#define TC_DEVICE_CPU 0
#define TC_MAX_DEVICE_TYPES 16

typedef struct tc_device {
    int32_t type;  /* device type id */
    int32_t index; /* device ordinal; 0 for the CPU */
} tc_device;
_Static_assert(sizeof(tc_device) == 8, "tc_device is ABI");

typedef enum tc_layout { TC_STRIDED = 0, TC_SPARSE_COO = 1, TC_NUM_LAYOUTS = 2 } tc_layout;

/* ---- views handed to kernels ----------------------------------------------------------------- */

/* A plain, DLPack-like description of one tensor operand. `data` already includes the storage
 * offset; strides are in elements and may be 0 (broadcast) or negative-free (the core never hands
 * out negative strides). The arrays are owned by the caller and valid for the kernel call only. */
typedef struct tc_view {
    void *data;
    const int64_t *sizes;
    const int64_t *strides;
    int32_t ndim;
    int32_t dtype; /* tc_dtype */
    tc_device device;
} tc_view;
_Static_assert(sizeof(tc_view) == 40, "tc_view is ABI");

/* A scalar argument. Floating values travel as double, integral and boolean ones as int64. */
typedef struct tc_scalar {
    int32_t is_float;
    int32_t reserved;
    union {
        double f;
        int64_t i;
    } v;
} tc_scalar;
_Static_assert(sizeof(tc_scalar) == 16, "tc_scalar is ABI");

/* Everything one kernel invocation receives. The core has already checked shapes, promoted dtypes
 * and allocated outputs; the kernel only computes. See docs/plugin-abi.md for each op's contract
 * (which views, which scalars and ints). */
typedef struct tc_kernel_args {
    uint32_t struct_size;
    int32_t op; /* core op id, as returned by tc_core_api.op_id */
    int32_t n_inputs;
    int32_t n_outputs;
    const tc_view *inputs;
    const tc_view *outputs;
    int32_t n_scalars;
    int32_t n_ints;
    const tc_scalar *scalars;
    const int64_t *ints;
    void *stream; /* device stream; NULL on the CPU */
} tc_kernel_args;
_Static_assert(sizeof(tc_kernel_args) == 64, "tc_kernel_args is ABI");

/* Returns TC_OK, or TC_FAIL after tc_core_api.set_error. */
typedef int (*tc_kernel_fn)(const tc_kernel_args *args);

/* Register with dtype TC_ANY_DTYPE for a kernel that handles every dtype itself; a kernel registered
 * for the exact dtype wins over it. */
#define TC_ANY_DTYPE (-1)

/* ---- allocators ------------------------------------------------------------------------------ */

typedef struct tc_allocator_stats {
    uint64_t allocated_bytes; /* live bytes handed out */
    uint64_t cached_bytes;    /* bytes held for reuse */
    uint64_t peak_allocated_bytes;
    uint64_t n_allocs;
    uint64_t n_cache_hits;
} tc_allocator_stats;
_Static_assert(sizeof(tc_allocator_stats) == 40, "tc_allocator_stats is ABI");

/* One allocator per device type. alloc returns NULL on failure (the core raises out-of-memory);
 * free receives the size and stream that alloc received. Both must be thread-safe. */
typedef struct tc_allocator {
    uint32_t struct_size;
    uint32_t reserved;
    void *ctx;
    void *(*alloc)(void *ctx, size_t nbytes, int32_t device_index, void *stream);
    void (*free)(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream);
    void (*empty_cache)(void *ctx);
    void (*stats)(void *ctx, tc_allocator_stats *out);
} tc_allocator;
_Static_assert(sizeof(tc_allocator) == 48, "tc_allocator is ABI");

/* ---- device types ---------------------------------------------------------------------------- */

/* What a device plugin registers for a new device type (e.g. "cuda"). */
typedef struct tc_device_type_desc {
    uint32_t struct_size;
    uint32_t reserved;
    const char *name;                /* "cuda"; static storage */
    int32_t (*device_count)(void);   /* 0 when no device is present */
    /* Copies nbytes between any two devices of which at least one is of this type. */
    int (*copy)(void *dst, tc_device dst_device, const void *src, tc_device src_device, size_t nbytes,
                void *stream);
    int (*synchronize)(int32_t device_index);
} tc_device_type_desc;
_Static_assert(sizeof(tc_device_type_desc) == 40, "tc_device_type_desc is ABI");

/* ---- BLAS providers -------------------------------------------------------------------------- */

/* Row-major GEMM in the manner of cblas: C[m,n] = alpha * op(A) @ op(B) + beta * C, where op
 * transposes when trans is nonzero; lda/ldb/ldc are row strides in elements (the column stride is 1).
 * Sizes are > 0 and may be any int64_t: a provider whose library has narrower integers splits the
 * product itself. A one-row operand may have any leading dimension; beta == 0 never reads C. */
typedef struct tc_blas_provider {
    uint32_t struct_size;
    uint32_t reserved;
    const char *name;                  /* "blis", "openblas" */
    const char *(*describe)(void);     /* e.g. "BLIS 0.9.0, kernels: skx (AVX-512)"; static storage */
    void (*sgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                  int64_t ldc);
    void (*dgemm)(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                  const double *a, int64_t lda, const double *b, int64_t ldb, double beta, double *c,
                  int64_t ldc);
    void (*set_num_threads)(int n);
    int (*get_num_threads)(void);
} tc_blas_provider;
_Static_assert(sizeof(tc_blas_provider) == 56, "tc_blas_provider is ABI");

/* ---- the table of core functions handed to plugins -------------------------------------------- */

typedef struct tc_core_api {
    uint32_t struct_size; /* grows at its end; check it before using a member added after 1.0 */
    uint16_t abi_major;
    uint16_t abi_minor;

    /* Errors: record an error for the calling thread and return TC_FAIL. */
    int (*set_error)(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

    /* Ops: id of a core op by name ("add", "mm"), or -1 if the core has no such op. */
    int32_t (*op_id)(const char *name);

    /* Registration, valid during init only. register_kernel takes the op by name so that plugins
     * carry no op numbering; it fails (TC_FAIL) on an unknown op or an out-of-range dtype. */
    int (*register_kernel)(const char *op, int32_t device_type, int32_t layout, int32_t dtype,
                           tc_kernel_fn fn);
    /* Returns the new device type id (>0) or TC_FAIL. */
    int32_t (*register_device_type)(const tc_device_type_desc *desc);
    int (*register_allocator)(int32_t device_type, const tc_allocator *allocator);
    int (*register_blas)(const tc_blas_provider *provider);

    /* The BLAS provider in use (never NULL once a provider has loaded; NULL if none has). */
    const tc_blas_provider *(*blas_current)(void);

    /* Threads: how many threads kernels may use (torch.set_num_threads, capped at a sane bound). */
    int (*get_num_threads)(void);

    /* Host scratch memory for kernels (aligned to 64 bytes); NULL on failure. */
    void *(*host_alloc)(size_t nbytes);
    void (*host_free)(void *ptr, size_t nbytes);

    /* Dtype facts. */
    size_t (*dtype_size)(int32_t dtype);
    const char *(*dtype_name)(int32_t dtype);

    /* ---- ABI 1.1 additions (threads) ---- */

    /* Runs fn(ctx, b, e) on pieces [b, e) that together cover [begin, end) exactly once, on the
     * core's one thread pool (shared by every plugin, so kernels and BLAS never oversubscribe the
     * CPUs). Pieces are contiguous, at least `grain` long (the last may be shorter), at most one per
     * thread (get_num_threads); the calling thread runs pieces too. A range of less than two grains
     * runs inline on the caller without touching the pool, and so does a call made from inside a
     * piece (nested parallelism runs inline) or while another thread's call holds the pool. Returns
     * once every piece has run: TC_OK, or TC_FAIL for a NULL fn. Errors are per call: fn returns
     * nothing and must not call set_error (it may run on a worker thread, whose error state nobody
     * reads); record failures in ctx and raise them after parallel_for returns. The pool survives
     * fork(): the child recreates its threads when it first needs them. */
    int (*parallel_for)(int64_t begin, int64_t end, int64_t grain,
                        void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx);
} tc_core_api;
_Static_assert(offsetof(tc_core_api, parallel_for) == 104, "tc_core_api 1.0 members are ABI");
_Static_assert(sizeof(tc_core_api) == 112, "tc_core_api 1.1 layout is ABI");

/* Whether a core table has `member` (a plugin that declares an older minor ABI than the header it was
 * compiled with must check before using a member added later). */
#define TC_CORE_HAS(core, member)                                                                    \
    ((core)->struct_size >= offsetof(tc_core_api, member) + sizeof((core)->member))

/* ---- the plugin descriptor ------------------------------------------------------------------- */

/* Kinds, as reported by torch.backends.plugins(). */
#define TC_PLUGIN_KIND_DEVICE "device"
#define TC_PLUGIN_KIND_BLAS "blas"
#define TC_PLUGIN_KIND_LAYOUT "layout"
#define TC_PLUGIN_KIND_EXTENSION "extension"

typedef struct tc_plugin_desc {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    const char *name;    /* unique per plugin; candidates with the same name compete by probe score */
    const char *kind;    /* one of TC_PLUGIN_KIND_* */
    const char *version; /* the plugin's own version */
    /* Score > 0 when this machine can run the plugin (higher wins among same-named candidates);
     * 0 when it cannot, with the reason written to `reason`. May be NULL (score 1). */
    int (*probe)(const tc_core_api *core, char *reason, size_t reason_len);
    /* Registers what the plugin provides. TC_OK, or TC_FAIL with a message written to `err`. */
    int (*init)(const tc_core_api *core, char *err, size_t err_len);
    void (*shutdown)(void); /* may be NULL */
} tc_plugin_desc;
_Static_assert(sizeof(tc_plugin_desc) == 56, "tc_plugin_desc is ABI");

/* The one symbol every plugin exports. */
#define TC_PLUGIN_ENTRY_NAME "tc_plugin_entry"
typedef const tc_plugin_desc *(*tc_plugin_entry_fn)(void);

#define TC_PLUGIN_DESCRIPTOR_INIT                                                                   \
    .struct_size = sizeof(tc_plugin_desc), .abi_major = TC_ABI_MAJOR, .abi_minor = TC_ABI_MINOR

#ifdef __cplusplus
}
#endif
#endif /* TC_ABI_H */
