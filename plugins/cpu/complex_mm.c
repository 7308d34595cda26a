/*
 * complex_mm.c - mm and bmm of complex64 and complex128: the provider's cgemm/zgemm (mm.c decides,
 * as for float32/float64), else this loop, which accumulates each output element in complex double
 * along k; dot and addmv (matmul's vector cases) by the same accumulation. complex32 has no products,
 * as in PyTorch 1.13.
 */
#include "complex.h"
#include "cpu.h"
#include "mm.h"

#define CMM_STAMP(_, S)                                                                            \
    static void cmm_rows_##S(const mm_args *g, int64_t i0, int64_t i1) {                           \
        const CPU_T_##S *a = (const CPU_T_##S *)g->a, *b = (const CPU_T_##S *)g->b;               \
        CPU_T_##S *c = (CPU_T_##S *)g->c;                                                          \
        for (int64_t i = i0; i < i1; i++)                                                          \
            for (int64_t j = 0; j < g->n; j++) {                                                   \
                cpu_cd acc = {0.0, 0.0};                                                           \
                for (int64_t p = 0; p < g->k; p++) {                                               \
                    const CPU_T_##S x = a[i * g->as0 + p * g->as1], y = b[p * g->bs0 + j * g->bs1]; \
                    acc = cpu_cx_add_d(acc, cpu_cx_mul_d((cpu_cd){x.re, x.im}, (cpu_cd){y.re, y.im})); \
                }                                                                                  \
                c[i * g->cs0 + j * g->cs1] = cpu_cx_from_cd_##S(acc);                              \
            }                                                                                      \
    }                                                                                              \
    static int k_mm_##S(const tc_kernel_args *args) { return cpu_mm_run(args, cmm_rows_##S); }     \
    static int k_bmm_##S(const tc_kernel_args *args) { return cpu_bmm_run(args, cmm_rows_##S); }
CPU_DTYPES_COMPLEX_FULL(CMM_STAMP, _)

/* A Scalar argument (alpha, beta) as a complex double. */
static cpu_cd scalar_cd(const tc_scalar *s) {
    switch (s->kind) {
    case TC_SCALAR_FLOAT: return (cpu_cd){s->v.f, 0.0};
    case TC_SCALAR_COMPLEX: return (cpu_cd){s->v.f, s->imag};
    default: return (cpu_cd){(double)s->v.i, 0.0};
    }
}

/* dot a[n], b[n] -> c[] (no conjugation: vdot conjugates through a's conj bit, resolved by the core);
 * addmv bias[m], mat[m,k], vec[k] -> c[m] = beta * bias + alpha * mat @ vec (beta 0: bias unread). */
#define CVEC_STAMP(_, S)                                                                           \
    static int k_dot_##S(const tc_kernel_args *args) {                                             \
        if (cpu_check_args(args, 2, 1, "dot") != TC_OK) return TC_FAIL;                            \
        const tc_view *a = &args->inputs[0], *b = &args->inputs[1];                                \
        const CPU_T_##S *x = a->data, *y = b->data;                                                \
        cpu_cd acc = {0.0, 0.0};                                                                   \
        for (int64_t i = 0; i < a->sizes[0]; i++) {                                                \
            const CPU_T_##S u = x[i * a->strides[0]], v = y[i * b->strides[0]];                    \
            acc = cpu_cx_add_d(acc, cpu_cx_mul_d((cpu_cd){u.re, u.im}, (cpu_cd){v.re, v.im}));     \
        }                                                                                          \
        *(CPU_T_##S *)args->outputs[0].data = cpu_cx_from_cd_##S(acc);                            \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int k_addmv_##S(const tc_kernel_args *args) {                                           \
        if (cpu_check_args(args, 3, 1, "addmv") != TC_OK) return TC_FAIL;                          \
        const tc_view *bias = &args->inputs[0], *mat = &args->inputs[1], *vec = &args->inputs[2];  \
        const tc_view *out = &args->outputs[0];                                                    \
        if (mat->ndim != 2 || bias->ndim != 1 || vec->ndim != 1 || out->ndim != 1)                  \
            return cpu_core->set_error(TC_ERR_RUNTIME, "addmv: expected a matrix and vectors");    \
        const cpu_cd beta = args->n_scalars >= 2 ? scalar_cd(&args->scalars[0]) : (cpu_cd){0, 0};  \
        const cpu_cd alpha = args->n_scalars >= 2 ? scalar_cd(&args->scalars[1]) : (cpu_cd){1, 0}; \
        const int use_bias = beta.re != 0 || beta.im != 0;                                         \
        const CPU_T_##S *m = mat->data, *v = vec->data, *bb = bias->data;                          \
        CPU_T_##S *c = out->data;                                                                  \
        for (int64_t i = 0; i < mat->sizes[0]; i++) {                                              \
            cpu_cd acc = {0.0, 0.0};                                                               \
            for (int64_t p = 0; p < mat->sizes[1]; p++) {                                          \
                const CPU_T_##S x = m[i * mat->strides[0] + p * mat->strides[1]], y = v[p * vec->strides[0]]; \
                acc = cpu_cx_add_d(acc, cpu_cx_mul_d((cpu_cd){x.re, x.im}, (cpu_cd){y.re, y.im})); \
            }                                                                                      \
            acc = cpu_cx_mul_d(alpha, acc);                                                        \
            if (use_bias) {                                                                        \
                const CPU_T_##S o = bb[i * bias->strides[0]];                                      \
                acc = cpu_cx_add_d(acc, cpu_cx_mul_d(beta, (cpu_cd){o.re, o.im}));                 \
            }                                                                                      \
            c[i * out->strides[0]] = cpu_cx_from_cd_##S(acc);                                      \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_COMPLEX_FULL(CVEC_STAMP, _)

#define ENTRY(_, S)                                                                                \
    {"mm", CPU_DT_##S, k_mm_##S}, {"bmm", CPU_DT_##S, k_bmm_##S}, {"dot", CPU_DT_##S, k_dot_##S}, \
        {"addmv", CPU_DT_##S, k_addmv_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_COMPLEX_FULL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
