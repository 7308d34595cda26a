/*
 * Calling a kernel: builds its tc_kernel_args from tensors, in the struct layout of the ABI minor
 * the kernel's plugin was built for (1.0: 40-byte views, 16-byte scalars, 64-byte args; 1.1: the
 * current layouts), with inputs presented at the first output's sizes through zero strides when
 * the op broadcasts. Everything lives on the stack except for calls with many operands. Long
 * kernels run between the front end's hooks (tc_set_long_kernel_hooks: torch._C releases the GIL).
 */
#include "core_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define INLINE_OPS 8

typedef struct tc_view_1_0 {
    void *data;
    const int64_t *sizes;
    const int64_t *strides;
    int32_t ndim;
    int32_t dtype;
    tc_device device;
} tc_view_1_0;
_Static_assert(sizeof(tc_view_1_0) == TC_VIEW_SIZE_1_0, "the 1.0 view layout");

static void fill_view(tc_view *v, const tc_tensor *t) {
    if (!t) { /* an undefined output (tc_plan_output_none) */
        *v = (tc_view){.ndim = -1, .struct_size = sizeof(tc_view)};
        return;
    }
    v->data = tc_tensor_data(t);
    v->sizes = t->sizes;
    v->strides = t->strides;
    v->ndim = t->ndim;
    v->dtype = t->dtype;
    v->device = t->device;
    v->struct_size = sizeof(tc_view);
    v->layout = t->layout;
}

/* A deferred output before the kernel asks for it (tc_core_api.kernel_output): no data, no sizes. */
static void fill_deferred_view(tc_view *v, const tc_plan *p, int32_t i) {
    *v = (tc_view){.data = NULL, .sizes = NULL, .strides = NULL, .ndim = -1, .dtype = p->deferred_dtype[i],
                   .device = p->call->device, .struct_size = sizeof(tc_view), .layout = TC_STRIDED};
}

/* Strides that present t at out's sizes: 0 along broadcast dims (the meta function checked that
 * the shapes broadcast). */
static void broadcast_strides(const tc_tensor *t, const tc_tensor *out, int64_t *strides) {
    for (int32_t i = 0; i < out->ndim; i++) {
        int32_t j = t->ndim - out->ndim + i;
        strides[i] = (j >= 0 && t->sizes[j] == out->sizes[i]) ? t->strides[j] : 0;
    }
}

static int call_legacy(const tc_kernel_slot *slot, const tc_kernel_args *args) {
    /* A 1.0 plugin indexes 40-byte views and 16-byte scalars and reads a 64-byte args struct. */
    int32_t n_views = args->n_inputs + args->n_outputs;
    tc_view_1_0 small[2 * INLINE_OPS], *views = n_views <= 2 * INLINE_OPS ? small : malloc(sizeof *views * (size_t)n_views);
    struct {
        int32_t is_float, reserved;
        union {
            double f;
            int64_t i;
        } v;
    } scalars[TC_PLAN_MAX_SCALARS];
    if (!views) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory calling a kernel");
    for (int32_t i = 0; i < n_views; i++) {
        const tc_view *v = i < args->n_inputs ? &args->inputs[i] : &args->outputs[i - args->n_inputs];
        memcpy(&views[i], v, sizeof views[i]);
    }
    int32_t n_scalars = args->n_scalars < TC_PLAN_MAX_SCALARS ? args->n_scalars : TC_PLAN_MAX_SCALARS;
    for (int32_t i = 0; i < n_scalars; i++) {
        bool floating = args->scalars[i].kind == TC_SCALAR_FLOAT || args->scalars[i].kind == TC_SCALAR_COMPLEX;
        scalars[i].is_float = floating;
        scalars[i].reserved = 0;
        if (floating)
            scalars[i].v.f = args->scalars[i].v.f;
        else
            scalars[i].v.i = args->scalars[i].v.i;
    }
    tc_kernel_args legacy = *args;
    legacy.struct_size = TC_KERNEL_ARGS_SIZE_1_0;
    legacy.inputs = (const tc_view *)(void *)views;
    legacy.outputs = (const tc_view *)(void *)(views + args->n_inputs);
    legacy.scalars = (const tc_scalar *)(void *)scalars;
    legacy.n_scalars = n_scalars;
    int rc = slot->fn(&legacy);
    if (views != small) free(views);
    return rc;
}

/* The inputs in the dtypes the kernel computes them in: run's own, or converted copies (owned, in
 * `converted`, NULL where the input is used as it is; the caller releases them, on failure too). */
static int convert_inputs(const tc_kernel_run *run, const tc_kernel_slot *slot, tc_tensor **converted) {
    for (int32_t i = 0; i < run->n_inputs; i++) converted[i] = NULL;
    if (!run->in_dtypes || (slot->flags & TC_KERNEL_CONVERTS_INPUTS)) return TC_OK;
    for (int32_t i = 0; i < run->n_inputs; i++) {
        int32_t want = run->in_dtypes[i];
        if (want < 0 || want == run->inputs[i]->dtype) continue;
        if (!(converted[i] = tc_kernel_cast(run->inputs[i], want))) return TC_FAIL; /* the caller releases */
    }
    return TC_OK;
}

static int invoke_slot(const tc_kernel_run *run, const tc_kernel_slot *slot);

/* ---- long kernels: the front end's hooks around them (torch._C releases the GIL) ---- */

static const tc_long_kernel_hooks *_Atomic long_hooks;

void tc_set_long_kernel_hooks(const tc_long_kernel_hooks *hooks) {
    atomic_store_explicit(&long_hooks, hooks, memory_order_release);
}

static int64_t sat_mul(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* Elements of an operand (sizes were checked when the tensor was made: no overflow); 0 for a deferred
 * output, whose sizes the kernel decides. */
static inline int64_t numel_of(const tc_tensor *t) {
    if (!t) return 0;
    int64_t n = 1;
    for (int32_t i = 0; i < t->ndim; i++) n *= t->sizes[i];
    return n;
}

static int64_t dim_from_end(const tc_tensor *t, int32_t i) { return t && t->ndim >= i ? t->sizes[t->ndim - i] : 1; }

/* The multiply-adds of products, convolutions and factorizations (m*n*k, batches included; a lower
 * bound where the operands do not say it all); 0 for the other kernels. `largest` is the largest
 * operand's element count. */
static __attribute__((noinline)) int64_t product_work(const tc_kernel_run *run, int64_t largest) {
    const tc_tensor *last = run->n_inputs ? run->inputs[run->n_inputs - 1] : NULL;
    const tc_tensor *out = run->n_outputs ? run->outputs[0] : NULL;
    switch (run->kernel) {
    case TC_KERNEL_mm:
    case TC_KERNEL_bmm:
    case TC_KERNEL_addmm:
    case TC_KERNEL_baddbmm:
    case TC_KERNEL_addbmm:
    case TC_KERNEL_addmv:
        /* the last input is (..., k, n) and the result (..., m, n): the last input's elements times m */
        return last && out ? sat_mul(numel_of(last), dim_from_end(out, 2)) : 0;
    case TC_KERNEL_convolution:
    case TC_KERNEL_convolution_backward: {
        /* each result (or gradient) element takes one output channel's worth of the weight */
        int32_t at = run->kernel == TC_KERNEL_convolution ? 1 : 2;
        const tc_tensor *w = run->n_inputs > at ? run->inputs[at] : NULL;
        int64_t per_channel = w && w->ndim > 0 && w->sizes[0] > 0 ? numel_of(w) / w->sizes[0] : 1;
        return sat_mul(largest, per_channel);
    }
    case TC_KERNEL_cholesky_ex:
    case TC_KERNEL_cholesky_inverse:
    case TC_KERNEL_cholesky_solve:
    case TC_KERNEL_geqrf:
    case TC_KERNEL_householder_product:
    case TC_KERNEL_linalg_det:
    case TC_KERNEL_linalg_eig:
    case TC_KERNEL_linalg_eigh:
    case TC_KERNEL_linalg_inv_ex:
    case TC_KERNEL_linalg_lstsq:
    case TC_KERNEL_linalg_lu:
    case TC_KERNEL_linalg_qr:
    case TC_KERNEL_linalg_slogdet:
    case TC_KERNEL_linalg_solve_ex:
    case TC_KERNEL_linalg_svd:
    case TC_KERNEL_lu_factor:
    case TC_KERNEL_lu_solve:
    case TC_KERNEL_matrix_exp:
    case TC_KERNEL_solve_triangular:
    case TC_KERNEL_triangular_solve:
        /* factorizations and solves of n x n matrices: about n^3 each */
        return run->n_inputs ? sat_mul(largest, dim_from_end(run->inputs[0], 1)) : 0;
    default:
        return 0;
    }
}

/* Whether a call is long as TC_LONG_KERNEL_* counts work: its largest operand's elements, or a
 * product's multiply-adds. Cheap for the small calls that make up most of a program. */
static inline bool is_long(const tc_kernel_run *run) {
    int64_t largest = 0;
    for (int32_t i = 0; i < run->n_outputs; i++) {
        int64_t n = numel_of(run->outputs[i]);
        largest = n > largest ? n : largest;
    }
    for (int32_t i = 0; i < run->n_inputs; i++) {
        int64_t n = numel_of(run->inputs[i]);
        largest = n > largest ? n : largest;
    }
    /* a product's multiply-adds are at most largest^1.5 (m*n*k = sqrt(mk * kn * mn)), a convolution's
     * largest^2: operands of 64 elements or fewer never reach TC_LONG_KERNEL_PRODUCT_WORK */
    return largest >= TC_LONG_KERNEL_ELEMENTS ||
           (largest > 64 && product_work(run, largest) > TC_LONG_KERNEL_PRODUCT_WORK);
}

int tc_kernel_invoke(const tc_kernel_run *run) {
    const tc_kernel_slot *slot = tc_kernel_find(run->kernel, run->backend, run->dtype);
    if (!slot) return TC_FAIL;
    if (!run->in_dtypes || (slot->flags & TC_KERNEL_CONVERTS_INPUTS)) return invoke_slot(run, slot);
    tc_tensor *small[INLINE_OPS], **converted = small;
    if (run->n_inputs > INLINE_OPS && !(converted = malloc(sizeof(tc_tensor *) * (size_t)run->n_inputs)))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory calling a kernel");
    int rc = convert_inputs(run, slot, converted);
    if (rc == TC_OK) {
        tc_tensor *big[INLINE_OPS], **inputs = big;
        if (run->n_inputs > INLINE_OPS && !(inputs = malloc(sizeof(tc_tensor *) * (size_t)run->n_inputs)))
            rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory calling a kernel");
        if (rc == TC_OK) {
            for (int32_t i = 0; i < run->n_inputs; i++) inputs[i] = converted[i] ? converted[i] : run->inputs[i];
            tc_kernel_run plain = *run;
            plain.inputs = inputs;
            plain.in_dtypes = NULL;
            rc = invoke_slot(&plain, slot);
            if (inputs != big) free(inputs);
        }
        for (int32_t i = 0; i < run->n_inputs; i++) tc_tensor_release(converted[i]);
    }
    if (converted != small) free(converted);
    return rc;
}

static int invoke_slot(const tc_kernel_run *run, const tc_kernel_slot *slot) {
    int32_t n_in = run->n_inputs, n_out = run->n_outputs;
    tc_view small_views[2 * INLINE_OPS];
    int64_t small_strides[INLINE_OPS][TC_MAX_DIMS];
    tc_view *views = small_views;
    int64_t(*strides)[TC_MAX_DIMS] = small_strides;
    if (n_in + n_out > 2 * INLINE_OPS || (run->broadcast && n_in > INLINE_OPS)) {
        views = malloc(sizeof(tc_view) * (size_t)(n_in + n_out));
        strides = run->broadcast ? malloc(sizeof(*strides) * (size_t)n_in) : NULL;
        if (!views || (run->broadcast && !strides)) {
            free(views);
            free(strides);
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory calling a kernel");
        }
    }
    for (int32_t i = 0; i < n_in; i++) {
        fill_view(&views[i], run->inputs[i]);
        if (run->broadcast && n_out && run->outputs[0]) {
            const tc_tensor *o = run->outputs[0];
            broadcast_strides(run->inputs[i], o, strides[i]);
            views[i].ndim = o->ndim;
            views[i].sizes = o->sizes;
            views[i].strides = strides[i];
        }
    }
    for (int32_t i = 0; i < n_out; i++) {
        if (run->outputs[i]) fill_view(&views[n_in + i], run->outputs[i]);
        else fill_deferred_view(&views[n_in + i], run->plan, i);
    }
    tc_scalar scalars[TC_PLAN_MAX_SCALARS];
    int32_t n_scalars = run->n_scalars < TC_PLAN_MAX_SCALARS ? run->n_scalars : TC_PLAN_MAX_SCALARS;
    for (int32_t i = 0; i < n_scalars; i++) {
        scalars[i] = run->scalars[i];
        scalars[i].struct_size = sizeof(tc_scalar);
    }
    tc_kernel_args args = {
        .struct_size = sizeof(tc_kernel_args),
        .op = run->kernel,
        .n_inputs = n_in,
        .n_outputs = n_out,
        .inputs = views,
        .outputs = views + n_in,
        .n_scalars = n_scalars,
        .n_ints = run->n_ints,
        .scalars = scalars,
        .ints = run->ints,
        .stream = NULL,
        .schema_op = run->schema_op,
        .n_args = run->n_args,
        .args = run->args,
    };
    tc_error_clear();
    const tc_long_kernel_hooks *hooks = atomic_load_explicit(&long_hooks, memory_order_acquire);
    const bool hooked = hooks && is_long(run);
    void *token = hooked ? hooks->enter() : NULL;
    int rc = slot->abi_minor >= 1 ? slot->fn(&args) : call_legacy(slot, &args);
    if (hooked) hooks->leave(token);
    if (views != small_views) {
        free(views);
        if (strides != small_strides) free(strides);
    }
    if (rc == TC_OK) return TC_OK;
    if (tc_last_error_kind() == TC_ERR_NONE)
        tc_set_error(TC_ERR_RUNTIME, "kernel \"%s\" failed without saying why", tc_kernel_name(run->kernel));
    return TC_FAIL;
}

int tc_kernel_copy(tc_tensor *dst, tc_tensor *src) {
    if (tc_tensor_numel(dst) == 0) return TC_OK;
    uint32_t bits = src->flags & TC_TENSOR_MATH_BITS;
    if (tc_dtype_is_complex(src->dtype) && !tc_dtype_is_complex(dst->dtype)) bits &= ~TC_TENSOR_CONJ; /* real parts */
    if (bits && src->dtype != dst->dtype) {
        /* a conversion reads src's values: resolved in src's own dtype first, as PyTorch resolves them
         * (negating a converted value is not the same where a converted zero part gains a sign) */
        tc_tensor *plain = tc_empty(src->ndim, src->sizes, src->dtype, src->device);
        int rc = plain ? tc_kernel_copy(plain, src) : TC_FAIL;
        if (rc == TC_OK) rc = tc_kernel_copy(dst, plain);
        tc_tensor_release(plain);
        return rc;
    }
    /* complex into real keeps the real parts: copy kernels only ever convert between real dtypes or
     * into complex ones */
    tc_tensor *real = NULL;
    if (tc_dtype_is_complex(src->dtype) && !tc_dtype_is_complex(dst->dtype)) {
        if (!(real = tc_complex_as_real(src, 0))) return TC_FAIL;
        src = real;
    }
    tc_kernel_run run = {.kernel = TC_KERNEL_copy, .backend = tc_backend_of(dst->device.type, dst->layout),
                         .dtype = dst->dtype, .inputs = &src, .n_inputs = 1, .outputs = &dst, .n_outputs = 1,
                         .broadcast = src->ndim != dst->ndim || !tc_shape_equal(src->ndim, src->sizes, dst->ndim,
                                                                                  dst->sizes),
                         .schema_op = -1};
    int rc = tc_kernel_invoke(&run);
    if (rc == TC_OK) rc = tc_math_bits_copied(dst, src);
    tc_tensor_release(real);
    return rc;
}

tc_tensor *tc_kernel_cast(tc_tensor *t, int32_t dtype) {
    if (t->dtype == dtype && !(t->flags & TC_TENSOR_MATH_BITS)) {
        tc_tensor_retain(t);
        return t;
    }
    tc_tensor *out = tc_empty(t->ndim, t->sizes, dtype, t->device);
    if (out && tc_kernel_copy(out, t)) {
        tc_tensor_release(out);
        return NULL;
    }
    if (out) out->flags = t->flags & TC_TENSOR_WRAPPED_NUMBER;
    return out;
}
