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
 *   - Ops: every op of core/ops.table has a typed entry (torch_core/tc_ops.h, generated) and all of
 *     them, and ops added at run time, have the boxed form tc_call_op. Both go through the
 *     dispatcher; nothing else runs an op.
 */
#ifndef TC_CORE_H
#define TC_CORE_H

#include "tc_abi.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---------------------------------------------------------------------------------- */

TC_EXPORT int tc_set_error(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
TC_EXPORT int tc_last_error_kind(void);         /* TC_ERR_NONE when no error is pending */
TC_EXPORT const char *tc_last_error_message(void);
TC_EXPORT void tc_error_clear(void);
/* Warnings the core raises (PyTorch's UserWarnings: a resized out= tensor). The front end installs a
 * handler that turns them into Python warnings; without one they go to stderr. */
typedef void (*tc_warning_handler)(const char *message);
TC_EXPORT void tc_set_warning_handler(tc_warning_handler handler);
TC_EXPORT void tc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An observer of op calls (the profiler's): begin(ctx, name, args, n_args) runs on the calling
 * thread before each op (its schema name, e.g. "add", and its borrowed arguments) and returns a
 * token that end(ctx, token) receives when the op returns; ops an op calls nest inside it. Both must
 * be thread-safe and must not call ops. tc_set_op_observer(NULL) stops observing; the observer
 * struct must outlive every call that may still be running it. With none set, dispatch pays one
 * atomic load. */
typedef struct tc_op_observer {
    void *ctx;
    void *(*begin)(void *ctx, const char *name, const struct tc_value *args, int32_t n_args);
    void (*end)(void *ctx, void *token);
} tc_op_observer;
TC_EXPORT void tc_set_op_observer(const tc_op_observer *observer);

/* ---- deterministic algorithms (deterministic.c) ------------------------------------------------ */

/* torch.use_deterministic_algorithms(mode, warn_only=): one switch for the whole process (thread-safe;
 * both off at start). */
TC_EXPORT void tc_deterministic_set(bool mode, bool warn_only);
TC_EXPORT bool tc_deterministic_enabled(void);
TC_EXPORT bool tc_deterministic_warn_only(void);
/* Called first by an op that has no deterministic implementation (PyTorch's alertNotDeterministic;
 * `op` names it in the message). TC_OK when the switch is off, or on with warn_only (after tc_warn);
 * else TC_FAIL with PyTorch's RuntimeError set. */
TC_EXPORT int tc_deterministic_alert(const char *op);

/* ---- dtypes ---------------------------------------------------------------------------------- */

TC_EXPORT size_t tc_dtype_size(int32_t dtype);
TC_EXPORT const char *tc_dtype_name(int32_t dtype); /* "float32" */
/* PyTorch's ScalarType name, as its messages spell dtypes: "Float", "Long". */
TC_EXPORT const char *tc_dtype_scalar_name(int32_t dtype);
TC_EXPORT bool tc_dtype_is_floating(int32_t dtype);
TC_EXPORT bool tc_dtype_is_integral(int32_t dtype); /* bool excluded */
TC_EXPORT bool tc_dtype_is_signed(int32_t dtype);
TC_EXPORT int32_t tc_promote_types(int32_t a, int32_t b);
TC_EXPORT int32_t tc_default_dtype(void);
TC_EXPORT int tc_set_default_dtype(int32_t dtype); /* floating dtypes only */
/* Whether a value of dtype `from` may be written into a tensor of dtype `to` by an in-place or out=
 * op (PyTorch's canCast: no float into integers, no complex into real, nothing but bool into bool). */
TC_EXPORT bool tc_can_cast(int32_t from, int32_t to);
/* complex32, complex64, complex128 (tc_dtype_is_floating is false for them, as isFloatingType). */
TC_EXPORT bool tc_dtype_is_complex(int32_t dtype);
/* The dtype of a complex dtype's parts (complex64 -> float32); any other dtype unchanged. */
TC_EXPORT int32_t tc_dtype_to_real(int32_t dtype);
/* The complex dtype for a floating dtype's values (float32 -> complex64, bfloat16 -> complex64 as
 * in PyTorch); complex dtypes unchanged; -1 for integers and bool. */
TC_EXPORT int32_t tc_dtype_to_complex(int32_t dtype);
/* What complex Python numbers promote to: PyTorch's default complex dtype, which follows the default
 * dtype (float16 -> complex32, float64 -> complex128, else complex64). */
TC_EXPORT int32_t tc_default_complex_dtype(void);

/* ---- devices --------------------------------------------------------------------------------- */

/* Device type id by name ("cpu", "cuda"), or -1 (no error set) when no plugin registered it. */
TC_EXPORT int32_t tc_device_type_id(const char *name);
TC_EXPORT const char *tc_device_type_name(int32_t type);
TC_EXPORT int32_t tc_device_count(int32_t type);
/* Allocator statistics and cache release for one device type. */
TC_EXPORT int tc_device_allocator_stats(int32_t type, tc_allocator_stats *out);
TC_EXPORT void tc_empty_cache(int32_t type);

/* The CPU block cache (docs/architecture.md, "CPU memory"): freed large blocks are kept for reuse,
 * up to a bound, and given back to the system when they sit unused for idle_ms. */
typedef struct tc_cpu_cache_info {
    uint64_t limit_bytes;        /* the bound: TORCH_CPU_CACHE_LIMIT_MB, else 1/8 of memory_bytes */
    uint64_t memory_bytes;       /* the memory the process may use: RAM, or its cgroup's limit if smaller */
    uint64_t cgroup_limit_bytes; /* the cgroup's memory limit; 0 when none applies */
    uint64_t cached_bytes;       /* held for reuse now */
    uint64_t cached_blocks;
    uint64_t idle_ms;            /* how long a cached block may sit unused */
    uint64_t n_idle_releases;    /* blocks given back for sitting unused */
    uint64_t idle_released_bytes;
} tc_cpu_cache_info;
TC_EXPORT void tc_cpu_cache_info_get(tc_cpu_cache_info *out);
/* The memory limit of the calling process's cgroup in bytes, 0 when none applies: v2's memory.max or
 * v1's memory.limit_in_bytes, the smallest along the cgroup's path, found through
 * /proc/self/cgroup and /proc/self/mountinfo. Every file is read under `root` ("" or NULL: the
 * system's; tests hand it a fake tree). */
TC_EXPORT uint64_t tc_cgroup_memory_limit(const char *root);

/* ---- layouts --------------------------------------------------------------------------------- */

/* Layout id by name ("strided", "sparse_coo", or one a plugin registered), -1 (no error) if none. */
TC_EXPORT int32_t tc_layout_id(const char *name);
TC_EXPORT const char *tc_layout_name(int32_t layout); /* "unknown" for an unused id */
TC_EXPORT int32_t tc_layout_count(void);

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

/* Shared-memory storages (shm.c; torch.multiprocessing's sharing strategies). TC_SHM_FD: an
 * anonymous memfd, passed between processes as a file descriptor and freed by the kernel with its
 * last fd and mapping. TC_SHM_NAMED: a POSIX shm_open segment under /dev/shm with a reference count
 * of mappings and references in flight in its header; the last reference unlinks the name.
 * Errors name the limit met (open files, /dev/shm space) and the other strategy. Not thread-safe
 * against concurrent use of the storage's bytes while it moves (the caller serialises, as in PyTorch). */
enum { TC_SHM_FD = 0, TC_SHM_NAMED = 1 };
/* Moves a CPU storage's bytes into a new segment of `kind`, in place: the storage keeps its identity
 * and every tensor over it sees the bytes at their new address; the old memory is freed. TC_OK at
 * once when the storage already lives in a segment of that kind. */
TC_EXPORT int tc_storage_share(tc_storage *s, int kind);
/* A new CPU storage of nbytes (contents unspecified) in a new segment of `kind`. */
TC_EXPORT tc_storage *tc_storage_new_shared(size_t nbytes, int kind);
TC_EXPORT int tc_storage_shm_kind(const tc_storage *s); /* TC_SHM_*, or -1 when not shared */
TC_EXPORT int tc_storage_shm_fd(const tc_storage *s);   /* the memfd, owned by s; -1 if none */
TC_EXPORT const char *tc_storage_shm_name(const tc_storage *s); /* owned by s; NULL unless named */
/* Adds (delta > 0) or drops (delta < 0) one reference of s's named segment: a pickle in flight holds
 * one so that the segment outlives its sender until the receiver maps it. */
TC_EXPORT int tc_storage_shm_ref(tc_storage *s, int delta);
/* A new CPU storage of nbytes over the segment behind fd (which it duplicates: the caller keeps fd),
 * or over the named segment (taking a reference). NULL when the segment is smaller than that. */
TC_EXPORT tc_storage *tc_storage_from_shm_fd(int fd, size_t nbytes);
TC_EXPORT tc_storage *tc_storage_from_shm_name(const char *name, size_t nbytes);

/* ---- tensors --------------------------------------------------------------------------------- */

#define TC_TENSOR_WRAPPED_NUMBER 1u /* a Python number turned tensor: lowest promotion priority */
#define TC_TENSOR_INFERENCE 2u      /* made in inference mode (tc_autograd.h) */
/* PyTorch's lazy "math bits": the tensor's values are the complex conjugate (CONJ) or the negation
 * (NEG) of what its memory holds (x.conj(), the imaginary part of a conjugate view). Views keep
 * them; kernels never see them: the core resolves them when it hands tensors to kernels and when it
 * writes results into such a tensor. Code reading a tensor's memory itself must apply them. */
#define TC_TENSOR_CONJ 4u
#define TC_TENSOR_NEG 8u
#define TC_TENSOR_MATH_BITS (TC_TENSOR_CONJ | TC_TENSOR_NEG)

/* Dispatch keys, as bits of a tc_keyset; a call runs the highest key present. */
typedef uint64_t tc_keyset;
#define TC_KEY_BACKEND 0  /* always present: the kernels of the call's backend (device and layout) */
#define TC_KEY_AUTOGRAD 8 /* the autograd engine's step (tensors that require grad bring it) */
#define TC_KEY_FORWARD_AD 10 /* forward-mode AD (dual tensors bring it) */
#define TC_KEY_PYTHON 12  /* reserved: Python-level interposition (tracing, subclasses) */
#define TC_KEYBIT(k) ((tc_keyset)1 << (k))

struct tc_tensor {
    int64_t refcount; /* atomic */
    tc_storage *storage;
    int64_t offset; /* in elements */
    int32_t ndim;
    int32_t dtype;
    int32_t layout;
    uint32_t flags;
    tc_device device;
    uint64_t *version; /* shared by all views of one storage; bumped by in-place writes */
    void *autograd;    /* the autograd engine's record (grad, grad_fn, hooks); NULL when never needed */
    int64_t *sizes;
    int64_t *strides; /* in elements */
    tc_keyset keys;   /* dispatch keys beyond TC_KEY_BACKEND that this tensor brings to a call */
    tc_tensor *base;  /* owned: the tensor a view op made this one from (the root of a chain of views) */
    void *frontend;   /* the front end's object for this tensor (torch._C: its Python object), weak */
    struct tc_version_counter *own_version; /* owned, when `version` is not the storage's (x.data) */
};

TC_EXPORT tc_tensor *tc_empty(int32_t ndim, const int64_t *sizes, int32_t dtype, tc_device device);
/* A 0-dim CPU tensor holding `value` converted to `dtype`. */
TC_EXPORT tc_tensor *tc_scalar_tensor(tc_scalar value, int32_t dtype);
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
/* Reads element `flat_index` (row-major over the tensor's sizes) of a CPU tensor as a scalar, as the
 * tensor reads (its math bits applied). */
TC_EXPORT int tc_tensor_get(const tc_tensor *t, int64_t flat_index, tc_scalar *out);
TC_EXPORT void tc_tensor_bump_version(tc_tensor *t);
/* How a and b share memory, as PyTorch judges it: none, _FULL (the same elements in the same layout),
 * _PARTIAL (some shared elements), or _TOO_HARD (layouts too irregular to tell cheaply). */
enum { TC_OVERLAP_NONE, TC_OVERLAP_FULL, TC_OVERLAP_PARTIAL, TC_OVERLAP_TOO_HARD };
TC_EXPORT int tc_tensor_overlap(const tc_tensor *a, const tc_tensor *b);
/* Gives t a version counter of its own (x.data: writing through it is not an in-place change that
 * autograd checks, as in PyTorch); views made from t afterwards share it. */
TC_EXPORT int tc_tensor_new_version_counter(tc_tensor *t);
/* Gives t new sizes with contiguous strides, growing its storage in place (contents kept, every view
 * of the storage seeing the new memory) when it is too small: what out= and resize_ do with a tensor
 * of the wrong shape. RuntimeError "Trying to resize storage that is not resizable" for foreign
 * memory (numpy, from_blob), as in PyTorch. */
TC_EXPORT int tc_tensor_resize(tc_tensor *t, int32_t ndim, const int64_t *sizes);

/* ---- values and lists ------------------------------------------------------------------------ */

typedef struct tc_int_list {
    const int64_t *items;
    int64_t len;
} tc_int_list;
typedef struct tc_float_list {
    const double *items;
    int64_t len;
} tc_float_list;
typedef struct tc_bool_list {
    const bool *items;
    int64_t len;
} tc_bool_list;
typedef struct tc_tensor_list {
    tc_tensor *const *items;
    int64_t len;
} tc_tensor_list;
/* A list of tensors an op returned: the caller owns the array and one reference per item, and
 * releases both with tc_tensor_vec_release. */
typedef struct tc_tensor_vec {
    tc_tensor **items;
    int64_t len;
} tc_tensor_vec;
TC_EXPORT void tc_tensor_vec_release(tc_tensor_vec *v);

/* TC_INTS(0, 1) is the int list [0, 1]; TC_NO_INTS the empty one. */
#define TC_INTS(...)                                                                               \
    ((tc_int_list){(const int64_t[]){__VA_ARGS__}, sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)})
#define TC_NO_INTS ((tc_int_list){NULL, 0})
/* Optional by-value arguments of typed entries take a pointer, NULL for None: TC_SOME_INT(3). */
#define TC_SOME_INT(x) (&(const int64_t){(x)})
#define TC_SOME_BOOL(x) (&(const bool){(x)})
#define TC_SOME_FLOAT(x) (&(const double){(x)})
#define TC_SCALAR_OF_INT(x) ((tc_scalar){.kind = TC_SCALAR_INT, .v.i = (x)})
#define TC_SCALAR_OF_FLOAT(x) ((tc_scalar){.kind = TC_SCALAR_FLOAT, .v.f = (x)})
#define TC_SCALAR_OF_COMPLEX(re, im) ((tc_scalar){.kind = TC_SCALAR_COMPLEX, .v.f = (re), .imag = (im)})

/* Releases what results of an op own: tensor references and the arrays of tensor lists. */
TC_EXPORT void tc_values_release(tc_value *values, int32_t n);

/* ---- ops: schemas, the boxed call, ops added at run time -------------------------------------- */

/* The most results an op may have (schemas with more are refused). */
#define TC_MAX_RETURNS 8

/* Argument flags of a schema. */
#define TC_ARG_OPTIONAL 1u        /* T?: may be None */
#define TC_ARG_KWONLY 2u          /* after `*` */
#define TC_ARG_WRITE 4u           /* Tensor(a!): the op writes it */
#define TC_ARG_ALIAS 8u           /* Tensor(a) or (a!): a result may share its memory */
#define TC_ARG_HAS_DEFAULT 16u
#define TC_ARG_OPTIONAL_ITEMS 32u /* Tensor?[]: items may be None (NULL) */

typedef struct tc_arg_schema {
    const char *name;
    int32_t type;      /* the tc_value_tag of a present value */
    uint32_t flags;    /* TC_ARG_* */
    int32_t fixed_len; /* N of int[N], else 0 */
    const char *default_text;
    tc_value default_value; /* TC_VALUE_NONE unless HAS_DEFAULT with a default other than None */
} tc_arg_schema;

typedef struct tc_return_schema {
    const char *name; /* NULL when unnamed */
    int32_t type;
    uint32_t flags;    /* TC_ARG_WRITE / TC_ARG_ALIAS */
    int32_t alias_arg; /* the argument this result is or views (same alias letter), else -1 */
} tc_return_schema;

/* Op flags: where Python exposes the op and small facts the bindings need. */
#define TC_OPF_METHOD 1u      /* a Tensor method */
#define TC_OPF_FUNCTION 2u    /* a torch function */
#define TC_OPF_NUMBER_SELF 4u /* the first Tensor argument also takes a Python number */
#define TC_OPF_NO_BOOL 8u
#define TC_OPF_FLOAT_ONLY 16u
#define TC_OPF_FACTORY 32u   /* creation function: Python takes requires_grad= */
#define TC_OPF_COMPOSITE 64u /* written in terms of other ops */
#define TC_OPF_VIEW 128u     /* the result shares the first argument's storage */
#define TC_OPF_RUNTIME 256u  /* added while the program runs */
#define TC_OPF_OUT 512u      /* an out= variant: written keyword-only tensor arguments */
#define TC_OPF_VARARGS 1024u /* Python may spread its Tensor[] argument over positional ones (einsum) */
#define TC_OPF_OUT_EXACT 2048u /* out= takes only the result's own dtype, no cast (gather, tril, matmul) */

typedef struct tc_op_schema {
    const char *name;     /* "add", or "myext::scale" for a runtime op */
    const char *overload; /* "Tensor", or "" */
    const char *text;     /* the schema as declared */
    int32_t n_args;
    int32_t n_returns;
    const tc_arg_schema *args;
    const tc_return_schema *returns;
    uint32_t flags; /* TC_OPF_* */
} tc_op_schema;

/* Parses a schema without adding an op (what tc_op_define would record); free it with
 * tc_schema_free. NULL with a ValueError naming the problem when the schema is malformed. */
TC_EXPORT tc_op_schema *tc_schema_parse_text(const char *text);
TC_EXPORT void tc_schema_free(tc_op_schema *schema);

/* Number of ops (built-in and added at run time); ids are 0..count-1 and never change. */
TC_EXPORT int32_t tc_op_count(void);
TC_EXPORT const tc_op_schema *tc_op_schema_of(int32_t op); /* NULL for an unknown id */
/* Op id of "name.overload", "name" (overload ""), or "ns::name[.overload]"; -1 (no error) if none. */
TC_EXPORT int32_t tc_op_lookup(const char *qualified_name);
/* The boxed call: args holds exactly the schema's arguments (the caller fills defaults), outs
 * receives its n_returns results (release with tc_values_release). TC_OK or TC_FAIL. */
TC_EXPORT int tc_call_op(int32_t op, const tc_value *args, tc_value *outs);
/* Parses a schema ("ns::name(Tensor x) -> Tensor") and adds the op; its id, or TC_FAIL
 * (ValueError for a malformed schema, RuntimeError for an op that exists). `meta` may be NULL. */
TC_EXPORT int32_t tc_op_define(const char *schema, tc_meta_fn meta);

/* A boxed implementation of an op on one backend (device type and layout), with a context: what
 * torch.library's impl registers for a Python function. Results as for tc_call_op. */
typedef int (*tc_boxed_fn)(void *ctx, int32_t op, const tc_value *args, tc_value *outs);
/* Registers fn for op on (device_type, layout); `owner` names who did it, for error messages.
 * Refused with a RuntimeError naming both owners when the slot is taken. */
TC_EXPORT int tc_op_impl(int32_t op, int32_t device_type, int32_t layout, tc_boxed_fn fn, void *ctx,
                         const char *owner);

/* The kernel name a structured op runs ("add" for add.Tensor, add_.Tensor and add.out), NULL for
 * composites and views; and whether a kernel of that name is registered for (device type, layout,
 * dtype) (TC_ANY_DTYPE asks about the any-dtype slot). For docs/api-coverage.md. */
TC_EXPORT const char *tc_op_kernel_name(int32_t op);
TC_EXPORT bool tc_kernel_registered(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype);

/* Thread-local dispatch key sets: keys added to / removed from every call this thread makes
 * (torch.no_grad removes TC_KEY_AUTOGRAD). */
TC_EXPORT tc_keyset tc_dispatch_included(void);
TC_EXPORT tc_keyset tc_dispatch_excluded(void);
TC_EXPORT void tc_dispatch_set_included(tc_keyset keys);
TC_EXPORT void tc_dispatch_set_excluded(tc_keyset keys);

/* ---- random number generators ---------------------------------------------------------------- */

/* A generator (tc_generator, opaque) is PyTorch's CPU generator, bit for bit: an mt19937 seeded as
 * PyTorch seeds it, the seed it was given, and the cached second sample of a Box-Muller pair per
 * precision. Generators are reference counted; each has a lock that every draw holds, so several
 * threads may share one. Kernels draw through tc_core_api (generator_lock, generator_fill_u32, ...). */

/* The default generator of a device type (borrowed; it lives as long as the core): the CPU's is
 * seeded from the operating system's entropy the first time it is asked for, as PyTorch's is.
 * NULL with a RuntimeError for device types without one. */
TC_EXPORT tc_generator *tc_generator_default(int32_t device_type);
/* A new generator (new reference) for `device`, seeded with PyTorch's default seed 67280421310721;
 * NULL with PyTorch's RuntimeError for a device type without generators. */
TC_EXPORT tc_generator *tc_generator_new(tc_device device);
TC_EXPORT void tc_generator_retain(tc_generator *g);
TC_EXPORT void tc_generator_release(tc_generator *g); /* NULL-safe; default generators are never freed */
TC_EXPORT tc_device tc_generator_device(const tc_generator *g);
/* Re-seeds g (any 64-bit value; the stream depends on its low 32 bits, initial_seed reports all 64)
 * and forgets the cached normal samples. */
TC_EXPORT void tc_generator_manual_seed(tc_generator *g, uint64_t seed);
/* Re-seeds g from the operating system's entropy and returns the seed in *seed. */
TC_EXPORT int tc_generator_seed(tc_generator *g, uint64_t *seed);
TC_EXPORT uint64_t tc_generator_initial_seed(tc_generator *g);
/* g's state as PyTorch's get_state() writes it: a new uint8 CPU tensor of 5056 bytes (the layout of
 * CPUGeneratorImplState), so states move between this project and PyTorch. */
TC_EXPORT tc_tensor *tc_generator_get_state(tc_generator *g);
/* Restores a state of 5056 bytes, or one of 5048 bytes (PyTorch's older CPUGeneratorImplStateLegacy);
 * PyTorch's TypeError for anything but a CPU uint8 tensor, RuntimeError for another size or an
 * invalid mt19937 state (g is then unchanged). */
TC_EXPORT int tc_generator_set_state(tc_generator *g, const tc_tensor *state);

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
/* The current provider's LAPACK (tc_lapack.describe), or "none". */
TC_EXPORT const char *tc_blas_lapack_describe(void);
/* The thread count the current provider reports using (0 when no provider is loaded). */
TC_EXPORT int tc_blas_num_threads(void);
TC_EXPORT int32_t tc_blas_count(void);
TC_EXPORT const char *tc_blas_name(int32_t i);
/* FFT providers (plugins/fft): the current one by name (TORCH_FFT at start-up), switching, listing. */
TC_EXPORT int tc_fft_use(const char *name); /* TC_FAIL (ValueError) for an unknown provider */
TC_EXPORT const char *tc_fft_current_name(void); /* NULL when no FFT plugin loaded */
TC_EXPORT const char *tc_fft_describe(void);     /* thread-local storage, valid until the next call */
TC_EXPORT int32_t tc_fft_count(void);
TC_EXPORT const char *tc_fft_name(int32_t i);

TC_EXPORT int tc_set_num_threads(int n);
TC_EXPORT int tc_get_num_threads(void);

/* A front end's pair of hooks around kernels that run long enough to matter: torch._C gives up the
 * GIL there, so that other Python threads run while the kernel computes. `enter` runs on the
 * kernel's calling thread just before the kernel and returns a token that `leave` receives just
 * after it. In between the kernel may call back into the core (a warning, an extension kernel's
 * call_op reaching a Python implementation) and so into the front end, whose callbacks must take
 * back whatever `enter` gave up; `enter` may therefore also be called on a thread that does not hold
 * it (nested kernels, the autograd engine's thread), and must then do nothing.
 * A kernel is long when its largest operand has at least TC_LONG_KERNEL_ELEMENTS elements, or, for
 * the matrix products, convolutions and factorizations, when its multiply-adds exceed
 * TC_LONG_KERNEL_PRODUCT_WORK (the size below which the CPU plugin keeps products off BLAS).
 * `hooks` has static storage duration (it is used until replaced); NULL removes them. */
typedef struct tc_long_kernel_hooks {
    uint32_t struct_size;
    uint32_t reserved;
    void *(*enter)(void);
    void (*leave)(void *token);
} tc_long_kernel_hooks;
#define TC_LONG_KERNEL_ELEMENTS ((int64_t)1 << 16)
#define TC_LONG_KERNEL_PRODUCT_WORK ((int64_t)16 * 16 * 16)
TC_EXPORT void tc_set_long_kernel_hooks(const tc_long_kernel_hooks *hooks);

/* The table handed to plugins (exposed for tests that load plugins by hand). */
TC_EXPORT const tc_core_api *tc_core_api_table(void);
/* Loads one more plugin after start-up (torch.ops.load_library): it joins the list of records.
 * TC_OK when it loaded; TC_FAIL with the reason (its record says it too) otherwise. */
TC_EXPORT int tc_plugin_load_path(const char *path);

#ifdef __cplusplus
}
#endif
#endif /* TC_CORE_H */
