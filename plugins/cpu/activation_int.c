/*
 * activation_int.c - the activations PyTorch also runs on integers: threshold(self, threshold,
 * value) and hardtanh(self, min_val, max_val) (relu6 is hardtanh(0, 6)), for uint8..int64 and the
 * float dtypes but float16.
 *
 * Both compare against two Scalars converted to the tensor's dtype first (PyTorch's
 * Scalar::to<scalar_t>: a float threshold truncates for integers, rounds for bfloat16); NaN inputs
 * stay NaN.
 */
#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* The two Scalars of the op as values of dtype S, then computed in S's compute type. */
typedef struct two_params {
    double f[2];
    int64_t i[2];
} two_params;

#define PARAM(S, ctx, k)                                                                           \
    _Generic((CPU_C_##S)0, float: cpu_ld_##S(cpu_from_f64_##S((ctx)->f[k])),                       \
             double: (double)(ctx)->f[k], default: cpu_ld_##S(cpu_from_i64_##S((ctx)->i[k])))

/* x <= threshold ? value : x */
#define BODY_threshold(x, a, b) ((x) <= (a) ? (b) : (x))
/* min(max(x, lo), hi), so hi wins when lo > hi; a NaN compares false both times and passes through */
#define MAX_LO(x, a) ((x) < (a) ? (a) : (x))
#define BODY_hardtanh(x, a, b) (MAX_LO(x, a) > (b) ? (b) : MAX_LO(x, a))

#define STAMP(OP, S)                                                                               \
    static void loop_##OP##_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {         \
        const two_params *ctx = vctx;                                                              \
        const CPU_C_##S a = PARAM(S, ctx, 0), b = PARAM(S, ctx, 1);                                \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *x = (const CPU_T_##S *)p[1];                                              \
        if (s[0] == 1 && s[1] == 1) {                                                              \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const CPU_C_##S v = cpu_ld_##S(x[i]);                                              \
                o[i] = cpu_st_##S(BODY_##OP(v, a, b));                                             \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const CPU_C_##S v = cpu_ld_##S(x[i * s[1]]);                                       \
                o[i * s[0]] = cpu_st_##S(BODY_##OP(v, a, b));                                      \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                         \
        if (cpu_check_args(args, 1, 1, #OP)) return TC_FAIL;                                       \
        two_params ctx;                                                                            \
        for (int k = 0; k < 2; k++) {                                                              \
            const tc_scalar *sc = &args->args[1 + k].v.scalar;                                     \
            const int fl = sc->kind == TC_SCALAR_FLOAT || sc->kind == TC_SCALAR_COMPLEX;           \
            ctx.f[k] = fl ? sc->v.f : (double)sc->v.i;                                             \
            ctx.i[k] = fl ? cpu_f2i64(sc->v.f) : sc->v.i;                                          \
        }                                                                                          \
        const tc_view *views[2] = {&args->outputs[0], &args->inputs[0]};                           \
        return cpu_iterate_write_only(views, 2, loop_##OP##_##S, &ctx);                           \
    }

#define DTYPES(X, A) CPU_DTYPES_INT(X, A) X(A, bf16) X(A, f32) X(A, f64)
DTYPES(STAMP, threshold)
DTYPES(STAMP, hardtanh)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
static const cpu_kernel_entry kernels[] = {DTYPES(ENTRY, threshold) DTYPES(ENTRY, hardtanh)};
CPU_KERNEL_TABLE(kernels);
