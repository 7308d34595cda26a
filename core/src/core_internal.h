/*
 * core_internal.h - what the core's own files share and nothing outside the core sees.
 * Prefixes: tc_alloc_* (allocators), tc_dispatch_* (dispatcher and kernel registry), tc_op_*
 * (op registry), tc_plan_* (structured ops), tc_shape_* (shape arithmetic), tc_plugin_* (loader),
 * tc_blas_* (providers), tc_schema_* (the run-time schema parser).
 */
#ifndef TC_CORE_INTERNAL_H
#define TC_CORE_INTERNAL_H

#define TC_INTERNAL __attribute__((visibility("hidden")))

#include "tc_ops_gen.h"
#include "torch_core/tc_core.h"

#include <stdatomic.h>

struct tc_storage {
    atomic_int_fast64_t refcount;
    void *data;
    size_t nbytes;
    tc_device device;
    const tc_allocator *allocator; /* frees data unless deleter is set; the one that made it */
    tc_deleter_fn deleter;         /* foreign memory (numpy, ...) */
    void *deleter_ctx;
    uint64_t version; /* the version counter shared by every view of this storage */
};

/* A version counter of a tensor's own (tc_tensor_new_version_counter), shared by its views. */
struct tc_version_counter {
    atomic_int_fast64_t refcount;
    uint64_t value;
};
TC_INTERNAL void tc_version_counter_release(struct tc_version_counter *c);

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

/* ---- device and layout registries ---- */
TC_INTERNAL const tc_allocator *tc_alloc_for(int32_t device_type);
TC_INTERNAL const tc_allocator *tc_alloc_cpu(void);
/* Reads TORCH_CPU_CACHE_LIMIT_MB (once; an invalid value is reported with tc_warn). */
TC_INTERNAL void tc_alloc_cpu_configure(void);
TC_INTERNAL void tc_thread_pool_configure(void);
TC_INTERNAL int32_t tc_device_register(const tc_device_type_desc *desc);
TC_INTERNAL int tc_device_set_allocator(int32_t device_type, const tc_allocator *allocator);
TC_INTERNAL bool tc_device_valid(tc_device device);
TC_INTERNAL int32_t tc_device_type_count(void);
TC_INTERNAL const tc_device_type_desc *tc_device_desc(int32_t device_type);
TC_INTERNAL int32_t tc_layout_register(const char *name);
/* Backend index of (device type, layout): the row of the kernel and impl tables. */
#define TC_MAX_BACKENDS (TC_MAX_DEVICE_TYPES * TC_MAX_LAYOUTS)
static inline int32_t tc_backend_of(int32_t device_type, int32_t layout) {
    return device_type * TC_MAX_LAYOUTS + layout;
}
TC_INTERNAL void tc_backend_format(int32_t backend, char *buf, size_t len); /* "cpu", "cpu(sparse_coo)" */

/* ---- scalars ---- */
TC_INTERNAL double tc_scalar_to_double(tc_scalar s);
/* Reads one host element of `dtype` (a valid dtype) as a scalar. */
TC_INTERNAL tc_scalar tc_scalar_load(const void *src, int32_t dtype);
/* The value `s` becomes once stored in `dtype` (wrapped, truncated or rounded), as a scalar. */
TC_INTERNAL tc_scalar tc_scalar_cast(tc_scalar s, int32_t dtype);

/* ---- storage and tensors ---- */
TC_INTERNAL tc_storage *tc_storage_new(size_t nbytes, tc_device device);
/* Grows s in place to nbytes, contents kept, so every view of s sees the new memory (PyTorch's
 * storage resize); RuntimeError for foreign memory (a deleter: numpy, from_blob), which cannot grow. */
TC_INTERNAL int tc_storage_grow(tc_storage *s, size_t nbytes);
TC_INTERNAL tc_tensor *tc_tensor_alloc(int32_t ndim);
/* A view of t with t's storage, dtype and version counter but new geometry; new reference. */
TC_INTERNAL tc_tensor *tc_tensor_restride(tc_tensor *t, int32_t ndim, const int64_t *sizes,
                                          const int64_t *strides, int64_t offset);
/* Broadcast view of t at `sizes` (zero strides on expanded dims); RuntimeError when impossible. */
TC_INTERNAL tc_tensor *tc_expand_to(tc_tensor *t, int32_t ndim, const int64_t *sizes);
/* A tensor like t (sizes, dtype unless `dtype` >= 0, device) whose strides follow t's memory order
 * when t is non-overlapping and dense (PyTorch's preserve_format), else contiguous. */
TC_INTERNAL tc_tensor *tc_empty_preserving(const tc_tensor *t, int32_t dtype, tc_device device);
TC_INTERNAL bool tc_tensor_non_overlapping_and_dense(const tc_tensor *t);

/* Memory overlap of a written tensor with another (PyTorch's get_overlap_status; tc_tensor_overlap). */
TC_INTERNAL int tc_overlap(const tc_tensor *a, const tc_tensor *b);
/* RuntimeError when two elements of t share memory (t is about to be written). */
TC_INTERNAL int tc_check_internal_overlap(const tc_tensor *t);
/* RuntimeError for a partial overlap of written and read. */
TC_INTERNAL int tc_check_partial_overlap(const tc_tensor *written, const tc_tensor *read);
/* PyTorch's assert_no_overlap: refuses any shared element, full or partial. */
TC_INTERNAL int tc_check_no_overlap(const tc_tensor *written, const tc_tensor *read);

/* ---- shapes (every multiplication checked for overflow) ---- */
TC_INTERNAL int tc_shape_numel(int32_t ndim, const int64_t *sizes, int64_t *numel);
TC_INTERNAL int tc_shape_nbytes(int32_t ndim, const int64_t *sizes, int32_t dtype, size_t *nbytes);
TC_INTERNAL void tc_shape_contiguous_strides(int32_t ndim, const int64_t *sizes, int64_t *strides);
TC_INTERNAL int tc_shape_broadcast(int32_t na, const int64_t *a, int32_t nb, const int64_t *b,
                                   int32_t *nout, int64_t *out);
/* Wraps a possibly negative dim into [0, ndim); IndexError when out of range. */
TC_INTERNAL int tc_shape_wrap_dim(int64_t dim, int32_t ndim, int32_t *out);
TC_INTERNAL void tc_shape_format(int32_t ndim, const int64_t *sizes, char *buf, size_t len);
/* RuntimeError unless 0 <= ndim <= TC_MAX_DIMS. */
TC_INTERNAL int tc_shape_check_ndim(int64_t ndim);
TC_INTERNAL bool tc_shape_equal(int32_t na, const int64_t *a, int32_t nb, const int64_t *b);

/* The C++ type name PyTorch's messages print for a dtype (caffe2::TypeMeta's name): "long int". */
TC_INTERNAL const char *tc_dtype_cpp_name(int32_t dtype);
/* "Casting complex values to real discards the imaginary part", once per process as PyTorch's. */
TC_INTERNAL void tc_warn_complex_to_real(void);
/* The legacy tensor type name PyTorch's messages print for a dtype: "torch.LongTensor" (NULL for the
 * complex dtypes, which have none here). */
TC_INTERNAL const char *tc_dtype_legacy_name(int32_t dtype);

/* ---- promotion ---- */
/* PyTorch's result_type over operands, with wrapped numbers and 0-dim tensors ranked lower. */
TC_INTERNAL int32_t tc_result_type(tc_tensor *const *operands, int n);

/* ---- the op registry (op_registry.c) ---- */

typedef struct tc_opcall tc_opcall;
typedef struct tc_plan tc_plan;
typedef int (*tc_impl_fn)(tc_opcall *call);

enum { TC_VARIANT_FUNCTIONAL = 0, TC_VARIANT_INPLACE = 1, TC_VARIANT_OUT = 2 };

typedef struct tc_backend_impl {
    tc_boxed_fn fn;
    void *ctx;
    char owner[64];
} tc_backend_impl;

/* One op. Built-in ops are the generated tc_builtin_ops; runtime ops are allocated. The schema and
 * the implementation fields never change once the op is published; `overrides` and
 * `impl_autograd` are filled by registration (a slot, once set, is never replaced). */
struct tc_op {
    tc_op_schema schema;
    int32_t id;
    int32_t variant;    /* TC_VARIANT_* */
    int32_t base;       /* the functional op this variant derives from (itself when functional) */
    int32_t dtype_rule; /* enum tc_dtype_rule, read by meta functions */
    int32_t kernel;     /* kernel id run by the structured runner, -1 for none */
    int (*meta)(tc_opcall *call, tc_plan *plan);
    tc_impl_fn impl;          /* the implementation for every backend (runner, composite, view) */
    tc_impl_fn impl_autograd; /* what runs at TC_KEY_AUTOGRAD; NULL falls through */
    tc_impl_fn impl_forward_ad; /* what runs at TC_KEY_FORWARD_AD; NULL falls through */
    tc_meta_fn user_meta;     /* a runtime op's meta function from the ABI */
    const struct tc_grad_info *grad; /* its derivative formulas (autograd/), NULL when none */
    tc_backward_kernel_fn user_backward; /* a runtime op's backward (register_backward) */
    void *user_backward_ctx;
    _Atomic(tc_backend_impl *) *overrides; /* per-backend boxed impls, TC_MAX_BACKENDS slots */
};

/* Everything an implementation sees of one call. */
struct tc_opcall {
    struct tc_op *op;
    tc_keyset keys;  /* keys still to run, the current one included */
    int32_t backend; /* tc_backend_of(device.type, layout) */
    tc_device device;
    const tc_value *args; /* n_args values, defaults filled */
    tc_value *outs;       /* n_returns results to fill (new references) */
};

/* The generated built-in ops (tc_ops_gen.c); ids 0..TC_NUM_BUILTIN_OPS-1. */
extern struct tc_op tc_builtin_ops[TC_NUM_BUILTIN_OPS];
TC_INTERNAL struct tc_op *tc_op_at(int32_t id); /* NULL for an unknown id */
TC_INTERNAL int tc_op_registry_init(void);
/* The boxed dispatcher: keys from the arguments and the thread's sets, then the highest key's impl. */
TC_INTERNAL int tc_dispatch(struct tc_op *op, const tc_value *args, tc_value *outs);
/* Runs the next key below the current one (what an autograd impl calls to compute). */
TC_INTERNAL int tc_redispatch(tc_opcall *call, tc_keyset below);
/* The generic implementation of structured ops (structured.c). */
TC_INTERNAL int tc_structured_run(tc_opcall *call);
/* The autograd step of every op (autograd/op_autograd.c): what runs at TC_KEY_AUTOGRAD. */
TC_INTERNAL int tc_ag_op_impl(tc_opcall *call);
TC_INTERNAL int tc_fw_op_impl(tc_opcall *call); /* autograd/forward_ad.c: at TC_KEY_FORWARD_AD */
/* Frees a tensor's autograd record (tensor.c calls it as the tensor goes). */
TC_INTERNAL void tc_ag_meta_free(tc_tensor *t);
/* Inference mode of this thread (autograd/modes.c): tensors made meanwhile are marked. */
extern _Thread_local bool tc_tls_inference_mode;

/* ---- the kernel registry (kernels.c) ---- */

typedef struct tc_kernel_slot {
    tc_kernel_fn fn;
    int32_t abi_minor; /* of the plugin that registered it: the layout of the args it expects */
    uint32_t flags;    /* TC_KERNEL_* (register_kernel_flags), set before fn is published */
    char owner[64];
} tc_kernel_slot;

/* Kernel id of a kernel name, -1 if unknown (no error set). */
TC_INTERNAL int32_t tc_kernel_id(const char *name);
/* Adds a kernel name (runtime ops); its id or TC_FAIL. */
TC_INTERNAL int32_t tc_kernel_add_name(const char *name);
TC_INTERNAL const char *tc_kernel_name(int32_t kernel);
/* Checks a registration before it is staged; the kernel id or TC_FAIL (ValueError). */
TC_INTERNAL int32_t tc_kernel_check(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype,
                                    tc_kernel_fn fn);
/* Whether the slot (or the fallback slot with kernel == -1) is free; RuntimeError naming both
 * owners when it is not. */
TC_INTERNAL int tc_kernel_slot_free(int32_t kernel, int32_t backend, int32_t dtype, const char *owner);
TC_INTERNAL int tc_kernel_set(int32_t kernel, int32_t backend, int32_t dtype, tc_kernel_fn fn, int32_t abi_minor,
                              uint32_t flags, const char *owner);
TC_INTERNAL void tc_kernel_unset(int32_t kernel, int32_t backend, int32_t dtype);
/* The kernel for (kernel, backend, dtype): exact dtype, any-dtype, then the backend's fallback;
 * NULL with a NotImplementedError listing what is registered when there is none. */
TC_INTERNAL const tc_kernel_slot *tc_kernel_find(int32_t kernel, int32_t backend, int32_t dtype);

/* Runs one kernel on tensors: views (inputs broadcast to outputs[0]'s sizes when `broadcast`),
 * the contract's scalars and ints, and the op's args, in the layout the kernel's plugin expects. */
typedef struct tc_kernel_run {
    int32_t kernel;
    int32_t backend;
    int32_t dtype;
    tc_tensor *const *inputs;
    int32_t n_inputs;
    tc_tensor *const *outputs;
    int32_t n_outputs;
    const tc_scalar *scalars;
    int32_t n_scalars;
    const int64_t *ints;
    int32_t n_ints;
    bool broadcast;
    int32_t schema_op; /* -1 when the core runs a kernel for itself (casts, copies) */
    const tc_value *args;
    int32_t n_args;
    /* NULL, or per input the dtype the kernel computes it in (-1: as it is). Inputs of another dtype
     * are converted first, unless the kernel converts while loading (TC_KERNEL_CONVERTS_INPUTS). */
    const int32_t *in_dtypes;
    const struct tc_plan *plan; /* the structured op's plan: NULL outputs are its deferred ones */
} tc_kernel_run;
TC_INTERNAL int tc_kernel_invoke(const tc_kernel_run *run);
/* Internal conversions below the dispatcher (the runner's casts, copy_ within a device): the copy
 * kernel from src into dst of the same sizes (src may have zero strides), no checks. */
TC_INTERNAL int tc_kernel_copy(tc_tensor *dst, tc_tensor *src);
/* A fresh tensor holding t converted to dtype on t's device (t itself, retained, when it already is
 * and has no math bits: the result never has them). */
TC_INTERNAL tc_tensor *tc_kernel_cast(tc_tensor *t, int32_t dtype);

/* ---- complex tensors and math bits (math_bits.c) ---- */
/* After dst was copied from src's memory: applies to dst's memory the math bits in which the two
 * differ, so that dst reads as src reads. */
TC_INTERNAL int tc_math_bits_copied(tc_tensor *dst, const tc_tensor *src);
/* A value read from memory, as a tensor with `bits` reads it. */
TC_INTERNAL void tc_math_bits_apply_scalar(uint32_t bits, tc_scalar *s);
/* The parts of a complex tensor as a view of their real dtype: the real parts (strides doubled),
 * or with extra_dim both parts along a new last dim of size 2 (view_as_real's geometry). Keeps the
 * NEG bit, drops CONJ; the caller decides what a conjugate view means. */
TC_INTERNAL tc_tensor *tc_complex_as_real(tc_tensor *t, int32_t extra_dim);

/* ---- structured ops: what meta functions fill (structured.c) ---- */

#define TC_PLAN_INLINE_INPUTS 8
#define TC_PLAN_MAX_SCALARS 4
#define TC_PLAN_MAX_INTS (2 * TC_MAX_DIMS + 8) /* a size and a stride per dim, and a few more */
#define TC_PLAN_BROADCAST 1u /* present inputs at out[0]'s sizes through zero strides */
#define TC_PLAN_NO_KERNEL 2u /* the meta function did all the work (empty, a reduction of nothing) */
#define TC_PLAN_OUT_ANY_DTYPE 4u /* out= of any dtype takes the results, cast (std, var: PyTorch's) */

struct tc_plan {
    tc_opcall *call;
    int32_t dtype;  /* the kernel's dtype (the compute dtype) */
    int32_t kernel; /* defaults to the op's */
    uint32_t flags;
    int32_t n_in, cap_in;
    tc_tensor **in; /* owned references */
    tc_tensor *in_inline[TC_PLAN_INLINE_INPUTS];
    int32_t *in_dtype; /* per input, its compute dtype (-1: as it is); converted at the kernel call */
    int32_t in_dtype_inline[TC_PLAN_INLINE_INPUTS];
    int32_t n_out;
    tc_tensor *out[TC_MAX_RETURNS];    /* what the kernel writes (owned) */
    tc_tensor *target[TC_MAX_RETURNS]; /* what the op returns (owned); differs from out when a temp */
    tc_tensor *kview[TC_MAX_RETURNS];  /* NULL, or how the kernel sees out[i] (a view of it; owned) */
    int32_t n_scalars;
    tc_scalar scalars[TC_PLAN_MAX_SCALARS];
    int32_t n_ints;
    int64_t ints[TC_PLAN_MAX_INTS];
    uint32_t deferred;                       /* bit i: output i is allocated by the kernel */
    uint32_t allocated;                      /* bit i: ... and the kernel has asked for it */
    int32_t deferred_dtype[TC_MAX_RETURNS];
    /* NULL, or run once the outputs hold the kernel's results (their targets written): checks that
     * read results, as PyTorch's structured impls do after their kernels (linalg's info tensors) */
    int (*after)(tc_plan *p);
};

/* Output i: allocated (functional op), or the written argument checked against the sizes and
 * dtype (in-place: same sizes, dtype castable; out=: resized, dtype castable), with a temporary of
 * `dtype` for the kernel when the written tensor has another dtype. */
/* Gives t these sizes and strides over the same storage and offset (the in-place view ops: t_,
 * squeeze_, unsqueeze_); the caller checks they stay within the storage. */
TC_INTERNAL int tc_tensor_set_geometry(tc_tensor *t, int32_t ndim, const int64_t *sizes, const int64_t *strides);
TC_INTERNAL int tc_plan_output(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes, int32_t dtype);
/* Output i (planned by tc_plan_output) will hold `result` (a new reference, taken): the runner copies
 * it into the output, and no kernel runs. For ops a meta function computes through other ops (the
 * complex forms of var and the norms). */
TC_INTERNAL void tc_plan_result(tc_plan *p, int32_t i, tc_tensor *result);
/* An out= tensor given the sizes `sizes` (PyTorch's resize_output): resized, with PyTorch's
 * deprecation warning when it held elements; nothing when it already has them. */
TC_INTERNAL int tc_resize_output(tc_tensor *t, int32_t ndim, const int64_t *sizes);
/* Output i whose sizes depend on the data: the kernel asks for it (tc_core_api.kernel_output) once it
 * knows them. The written argument of an out= call is checked for `dtype` here, resized and written
 * after the kernel. On a backend whose kernel does not ask (the meta device) the op raises
 * NotImplementedError, as PyTorch's data-dependent ops do there. */
TC_INTERNAL int tc_plan_output_deferred(tc_plan *p, int32_t i, int32_t dtype);
/* tc_core_api.kernel_output: allocates deferred output i of the kernel running on this thread. */
TC_INTERNAL int tc_kernel_output(const tc_kernel_args *args, int32_t i, int32_t ndim, const int64_t *sizes,
                                 tc_view *out);
/* Output i with explicit strides (empty_strided); functional ops only. */
TC_INTERNAL int tc_plan_output_strided(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes,
                                       const int64_t *strides, int32_t dtype);
/* Output i undefined: the op returns None there (PyTorch's undefined tensor: a backward op's
 * output_mask asking for no gradient); the kernel sees a view with NULL data and ndim -1.
 * Functional ops only. */
TC_INTERNAL int tc_plan_output_none(tc_plan *p, int32_t i);
/* Presents output i to the kernel as a view of it with other geometry (keepdim form of a
 * reduction's result, say); offset relative to the output's own. */
TC_INTERNAL int tc_plan_kernel_view(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes,
                                    const int64_t *strides);
/* Outputs 0..n-1 (dtypes[i]) of self's sizes for an op working along one dim (scans, sort): the
 * input converted to `compute` (< 0: as it is), the kernel's dtype, ints[0] = the wrapped dim; a
 * 0-dim input is presented as a one-element vector (meta_scan.c). */
TC_INTERNAL int tc_plan_along_dim(tc_plan *p, tc_tensor *self, int64_t dim, int32_t n, const int32_t *dtypes,
                                  int32_t compute, int32_t kernel_dtype);
/* PyTorch's RuntimeError when a result of dtype `from` cannot be written into a `to` tensor. */
TC_INTERNAL int tc_check_can_cast(int32_t from, int32_t to);
/* The tensor an in-place or out= call writes as result i; NULL for the functional form. */
TC_INTERNAL tc_tensor *tc_written_arg(const tc_opcall *c, int32_t i);
/* An out= tensor (NULL passes) of exactly `want`, as PyTorch's structured ops' set_output requires:
 * "Expected out tensor to have dtype float, but got double instead". */
TC_INTERNAL int tc_check_out_dtype(const tc_tensor *out, int32_t want);
/* The same in the words of PyTorch's older kernels: "expected scalar_type Float but found Double". */
TC_INTERNAL int tc_check_out_scalar_type(const tc_tensor *out, int32_t want);
/* Adds a kernel input (retained), to be computed in `dtype` unless dtype < 0: the kernel receives it
 * converted, or converts it while loading when it says it can (TC_KERNEL_CONVERTS_INPUTS). */
TC_INTERNAL int tc_plan_input(tc_plan *p, tc_tensor *t, int32_t dtype);
/* The same, contiguous (a copy when t is not), for kernels that walk rows of memory. */
TC_INTERNAL int tc_plan_input_contiguous(tc_plan *p, tc_tensor *t, int32_t dtype);
TC_INTERNAL int tc_plan_scalar(tc_plan *p, tc_scalar s);
TC_INTERNAL int tc_plan_int(tc_plan *p, int64_t v);

/* Argument accessors for impls and meta functions (the dispatcher has checked the tags). */
static inline tc_tensor *tc_arg_tensor(const tc_opcall *c, int i) { return c->args[i].v.tensor; }
static inline bool tc_arg_none(const tc_opcall *c, int i) { return c->args[i].tag == TC_VALUE_NONE; }
static inline int64_t tc_arg_int(const tc_opcall *c, int i) { return c->args[i].v.i; }
static inline bool tc_arg_bool(const tc_opcall *c, int i) { return c->args[i].v.b; }
/* ScalarType?/Layout?/MemoryFormat? as an int, -1 for None. */
static inline int32_t tc_arg_enum(const tc_opcall *c, int i) {
    return c->args[i].tag == TC_VALUE_NONE ? -1 : (int32_t)c->args[i].v.i;
}
static inline tc_int_list tc_arg_ints(const tc_opcall *c, int i) {
    return (tc_int_list){c->args[i].v.ints.items, c->args[i].v.ints.len};
}
/* The result of an impl that returns one tensor (takes over the reference). */
/* Returns v (a new reference, or NULL after a failure) as a view op's result: v records the tensor
 * t views (the root of t's views), which autograd rebases when v is written in place. */
TC_INTERNAL int tc_return_view(tc_opcall *c, tc_tensor *t, tc_tensor *v);

static inline int tc_return(tc_opcall *c, tc_tensor *t) {
    if (!t) return TC_FAIL;
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = t};
    return TC_OK;
}

/* ---- elementwise meta functions shared by families (meta_elementwise.c, meta_complex.c) ---- */
/* The compute and result dtypes of an elementwise op's dtype rule (ops.table's dtype=) over its
 * operands (the op's refusals are tc_meta_check_supported's). */
TC_INTERNAL int tc_elementwise_dtypes(const tc_opcall *c, tc_tensor *const *ts, int n, int32_t *compute,
                                      int32_t *result);
/* pow's complex part: a Python-number exponent goes to the kernel as a scalar too, for PyTorch's
 * special cases (x ** 2 is x * x). */
TC_INTERNAL int tc_meta_pow_complex(tc_opcall *c, tc_plan *p);
/* Hands a Python number exponent of a floating pow to the kernel as its scalar (meta_elementwise.c). */
TC_INTERNAL int tc_meta_pow_plan_exponent(tc_opcall *c, tc_plan *p);
/* sum of complex values as a sum of their parts: the input and the output presented to the kernel
 * as real views with a last dim of 2, which the reduction keeps. */
TC_INTERNAL int tc_meta_sum_complex(tc_plan *p, tc_tensor *self, int32_t dtype);
/* The kernel writes complex output 0 as its parts: a real view with a last dim of 2 (view_as_real's
 * geometry) and the kernel dtype the parts' (the random fills of complex tensors, sum). */
TC_INTERNAL int tc_plan_complex_parts(tc_plan *p);
/* Broadcasts the operands, applies the op's dtype rule and flags, plans output 0 and the inputs. */
TC_INTERNAL int tc_meta_elementwise(tc_opcall *c, tc_plan *p, tc_tensor *const *ts, int n);
/* The same with dtypes the caller chose: output 0 of `result` at the broadcast shape, inputs computed
 * in `compute`. */
TC_INTERNAL int tc_meta_elementwise_as(tc_plan *p, tc_tensor *const *ts, int n, int32_t compute, int32_t result);
/* RuntimeError "Found dtype Double but expected Float" when an out= variant's output is not of the
 * result's dtype (ops that write without casting). */
TC_INTERNAL int tc_meta_check_out_dtype(const tc_opcall *c, int32_t result);
/* Argument i as an operand: its tensor, or a Scalar argument as a wrapped number (so Scalar overloads
 * promote as Python numbers do); *owned (NULL or a new reference) is the caller's to release. NULL
 * with the error set on failure. */
TC_INTERNAL tc_tensor *tc_meta_operand(const tc_opcall *c, int i, tc_tensor **owned);
/* RuntimeError "\"op\" not implemented for 'Float'": the op has no kernel for the dtype. */
TC_INTERNAL int tc_meta_refuse_dtype(const tc_opcall *c, int32_t dtype);
/* The same refusal for the dtypes the op's flags exclude (no_bool, float_only, dtype=int_only). */
TC_INTERNAL int tc_meta_check_supported(const tc_opcall *c, int32_t compute);

/* ---- factories shared by meta functions and composites (meta_factory.c) ---- */
/* The dtype, device and checks of a creation op's dtype/layout/device/pin_memory arguments starting
 * at argument `first` (the schema order ScalarType?, Layout?, Device?, bool?). */
TC_INTERNAL int tc_factory_options(const tc_opcall *c, int first, int32_t default_dtype, int32_t *dtype);

/* ---- BLAS and threads ---- */
TC_INTERNAL int tc_blas_register(const tc_blas_provider *provider);
TC_INTERNAL void tc_blas_unregister(const tc_blas_provider *provider);
TC_INTERNAL const tc_blas_provider *tc_blas_find(const char *name); /* NULL when none has the name */
/* Makes room for `more` providers, so that registering them cannot fail for lack of memory. */
TC_INTERNAL int tc_blas_reserve(int32_t more);
TC_INTERNAL const tc_blas_provider *tc_blas_current(void);
TC_INTERNAL void tc_blas_select_default(void);
/* ---- FFT providers (fft.c) ---- */
TC_INTERNAL int tc_fft_check(const tc_fft_provider *provider); /* ValueError for a malformed one */
TC_INTERNAL int tc_fft_register(const tc_fft_provider *provider);
TC_INTERNAL void tc_fft_unregister(const tc_fft_provider *provider);
TC_INTERNAL const tc_fft_provider *tc_fft_find(const char *name); /* NULL when none has the name */
TC_INTERNAL int tc_fft_reserve(int32_t more);
TC_INTERNAL void tc_fft_select_default(void);
TC_INTERNAL const tc_fft_provider *tc_fft_for(int32_t dtype);
/* The most threads the pool, kernels and BLAS are ever handed, whatever set_num_threads asked for. */
#define TC_THREADS_MAX 256
/* min(tc_get_num_threads(), TC_THREADS_MAX): what is actually used. */
TC_INTERNAL int tc_threads_effective(void);
/* tc_core_api.parallel_for (thread_pool.c; see tc_abi.h for the contract). */
TC_INTERNAL int tc_parallel_for(int64_t begin, int64_t end, int64_t grain,
                                void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx);

/* ---- random number generators (generator.c): the tc_core_api members kernels draw through ---- */
TC_INTERNAL void tc_generator_lock(tc_generator *g);
TC_INTERNAL void tc_generator_unlock(tc_generator *g);
TC_INTERNAL void tc_generator_fill_u32(tc_generator *g, uint32_t *out, int64_t n);
TC_INTERNAL void tc_generator_fill_u64(tc_generator *g, uint64_t *out, int64_t n);
TC_INTERNAL int tc_generator_take_normal(tc_generator *g, int32_t dtype, double *value);
TC_INTERNAL void tc_generator_put_normal(tc_generator *g, int32_t dtype, double value);

/* ---- schemas (schema.c) ---- */
/* Parses a schema into a freshly allocated op record (schema text, names and defaults copied into
 * one allocation owned by the record). ValueError with the reason on a malformed schema. */
TC_INTERNAL struct tc_op *tc_schema_parse(const char *text);

/* ---- the plugin-facing table (core_api.c) ----
 * Registrations made during a plugin's init are staged and take effect on tc_api_commit, all or
 * nothing, so a plugin whose init or commit fails leaves nothing behind. */
TC_INTERNAL void tc_api_begin(const char *plugin_name, int32_t abi_minor);
TC_INTERNAL int tc_api_commit(void);
TC_INTERNAL void tc_api_abort(void);
#endif
