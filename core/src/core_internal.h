/*
 * core_internal.h - what the core's own files share and nothing outside the core sees.
 * Prefixes: tc_alloc_* (allocators), tc_dispatch_* (kernel registry), tc_shape_* (shape
 * arithmetic), tc_plugin_* (loader), tc_blas_* (providers).
 */
#ifndef TC_CORE_INTERNAL_H
#define TC_CORE_INTERNAL_H

#include "tc_ops_gen.h"
#include "torch_core/tc_core.h"

#include <stdatomic.h>

#define TC_INTERNAL __attribute__((visibility("hidden")))

struct tc_storage {
    atomic_int_fast64_t refcount;
    void *data;
    size_t nbytes;
    tc_device device;
    tc_deleter_fn deleter; /* NULL: memory came from the device's allocator */
    void *deleter_ctx;
    uint64_t version; /* the version counter shared by every view of this storage */
};

/* ---- block map (block_map.c): block address -> block size, for allocators ---- */
typedef struct tc_blockmap_entry {
    void *ptr; /* NULL: empty slot */
    size_t size;
} tc_blockmap_entry;
typedef struct tc_blockmap {
    tc_blockmap_entry *entries;
    size_t capacity; /* 0 or a power of two */
    size_t count;
} tc_blockmap;
/* Records ptr's size; TC_FAIL (no error set) when the table cannot grow. */
TC_INTERNAL int tc_blockmap_put(tc_blockmap *m, void *ptr, size_t size);
/* Removes ptr and returns its size, or 0 when ptr is not in the map. */
TC_INTERNAL size_t tc_blockmap_take(tc_blockmap *m, const void *ptr);

/* ---- plugin files (elf_check.c) ---- */
/* TC_OK when path is a regular file holding a 64-bit x86-64 ELF shared object whose headers and
 * mapped segments lie within the file, so dlopen cannot fault on it; else TC_FAIL with the reason in
 * `why` (no error state set). */
TC_INTERNAL int tc_elf_check(const char *path, char *why, size_t len);

/* ---- warnings: printed once to stderr as "torch: warning: ..." ---- */
TC_INTERNAL void tc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- device registry ---- */
TC_INTERNAL const tc_allocator *tc_alloc_for(int32_t device_type);
TC_INTERNAL const tc_allocator *tc_alloc_cpu(void);
/* Reads TORCH_CPU_CACHE_LIMIT_MB (once; an invalid value is reported with tc_warn). */
TC_INTERNAL void tc_alloc_cpu_configure(void);
TC_INTERNAL int32_t tc_device_register(const tc_device_type_desc *desc);
TC_INTERNAL int tc_device_set_allocator(int32_t device_type, const tc_allocator *allocator);
TC_INTERNAL bool tc_device_valid(tc_device device);
TC_INTERNAL int32_t tc_device_type_count(void);

/* ---- scalars ---- */
TC_INTERNAL double tc_scalar_to_double(tc_scalar s);
/* Reads one host element of `dtype` (a valid dtype) as a scalar. */
TC_INTERNAL tc_scalar tc_scalar_load(const void *src, int32_t dtype);
/* The value `s` becomes once stored in `dtype` (wrapped, truncated or rounded), as a scalar. */
TC_INTERNAL tc_scalar tc_scalar_cast(tc_scalar s, int32_t dtype);

/* ---- storage ---- */
TC_INTERNAL tc_storage *tc_storage_new(size_t nbytes, tc_device device);

/* ---- shapes (every multiplication checked for overflow) ---- */
TC_INTERNAL int tc_shape_numel(int32_t ndim, const int64_t *sizes, int64_t *numel);
TC_INTERNAL int tc_shape_nbytes(int32_t ndim, const int64_t *sizes, int32_t dtype, size_t *nbytes);
TC_INTERNAL void tc_shape_contiguous_strides(int32_t ndim, const int64_t *sizes, int64_t *strides);
TC_INTERNAL int tc_shape_broadcast(int32_t na, const int64_t *a, int32_t nb, const int64_t *b,
                                   int32_t *nout, int64_t *out);
/* Wraps a possibly negative dim into [0, ndim); IndexError when out of range. */
TC_INTERNAL int tc_shape_wrap_dim(int64_t dim, int32_t ndim, int32_t *out);
TC_INTERNAL void tc_shape_format(int32_t ndim, const int64_t *sizes, char *buf, size_t len);

/* ---- dispatch ---- */
/* Kernel id of a kernel name (ops.table's kernel= names), -1 if unknown (no error set). */
TC_INTERNAL int32_t tc_dispatch_kernel_id(const char *name);
/* Validates a registration; the kernel id, or TC_FAIL with a ValueError naming what is wrong. */
TC_INTERNAL int32_t tc_dispatch_check(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype,
                                      tc_kernel_fn fn);
TC_INTERNAL int tc_dispatch_register(const char *kernel, int32_t device_type, int32_t layout,
                                     int32_t dtype, tc_kernel_fn fn);
/* The kernel for (kernel id, device, layout, dtype); NULL with a RuntimeError that lists what is
 * registered when there is none. */
TC_INTERNAL tc_kernel_fn tc_dispatch_find(int32_t kernel, tc_device device, int32_t layout,
                                          int32_t dtype);
/* Fills views of the tensors and runs the kernel. With `broadcast`, each input is presented with
 * outputs[0]'s ndim and sizes through 0 strides (no tensor is allocated for that). */
TC_INTERNAL int tc_dispatch_run(int32_t kernel, int32_t dtype, tc_tensor *const *inputs, int n_in,
                                tc_tensor *const *outputs, int n_out, const tc_scalar *scalars,
                                int n_scalars, const int64_t *ints, int n_ints, bool broadcast);
/* PyTorch's result_type over operands, with wrapped numbers and 0-dim tensors ranked lower. */
TC_INTERNAL int32_t tc_result_type(tc_tensor *const *operands, int n);
/* Same device, or a CPU 0-dim operand beside a device tensor; RuntimeError otherwise. */
TC_INTERNAL int tc_check_same_device(tc_tensor *const *operands, int n, const char *op);

/* ---- tensors ---- */
TC_INTERNAL tc_tensor *tc_tensor_alloc(int32_t ndim);
/* A view of t with t's data but `ndim`/`sizes`/`strides` (e.g. broadcast); new reference. */
TC_INTERNAL tc_tensor *tc_tensor_restride(tc_tensor *t, int32_t ndim, const int64_t *sizes,
                                          const int64_t *strides, int64_t offset);
TC_INTERNAL tc_tensor *tc_expand_to(tc_tensor *t, int32_t ndim, const int64_t *sizes);

/* ---- memory overlap between a written-to tensor and an input (overlap.c; tc_tensor_overlap) ---- */
/* RuntimeError (PyTorch's words) for TC_OVERLAP_PARTIAL, TC_OK otherwise. */
TC_INTERNAL int tc_check_partial_overlap(int status);

/* ---- op categories ---- */
TC_INTERNAL int tc_ops_elementwise(int32_t op, const tc_call *call, tc_tensor **outs);
TC_INTERNAL int tc_ops_reduce(int32_t op, const tc_call *call, tc_tensor **outs);
TC_INTERNAL int tc_ops_linalg(int32_t op, const tc_call *call, tc_tensor **outs);
TC_INTERNAL int tc_ops_views(int32_t op, const tc_call *call, tc_tensor **outs);
TC_INTERNAL int tc_ops_factory(int32_t op, const tc_call *call, tc_tensor **outs);

/* ---- BLAS and threads ---- */
TC_INTERNAL int tc_blas_register(const tc_blas_provider *provider);
TC_INTERNAL const tc_blas_provider *tc_blas_find(const char *name); /* NULL when none has the name */
/* Makes room for `more` providers, so that registering them cannot fail for lack of memory. */
TC_INTERNAL int tc_blas_reserve(int32_t more);
TC_INTERNAL const tc_blas_provider *tc_blas_current(void);
TC_INTERNAL void tc_blas_select_default(void);
/* The most threads the pool, kernels and BLAS are ever handed, whatever set_num_threads asked for. */
#define TC_THREADS_MAX 256
/* min(tc_get_num_threads(), TC_THREADS_MAX): what is actually used. */
TC_INTERNAL int tc_threads_effective(void);
/* tc_core_api.parallel_for (thread_pool.c; see tc_abi.h for the contract). */
TC_INTERNAL int tc_parallel_for(int64_t begin, int64_t end, int64_t grain,
                                void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx);



/* ---- the plugin-facing table (core_api.c) ----
 * Registrations made during a plugin's init are staged and only take effect on tc_api_commit, so a
 * plugin whose init fails leaves nothing behind. */
TC_INTERNAL void tc_api_begin(const char *plugin_name);
TC_INTERNAL int tc_api_commit(void);
TC_INTERNAL void tc_api_abort(void);
#endif
