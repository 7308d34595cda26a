/*
 * random.c - in-place random fills: uniform, random (integer ranges), exponential, geometric, cauchy,
 * log_normal, bernoulli_float (a probability for every element) and bernoulli_tensor (one per
 * element). Contracts in docs/plugin-abi.md; why each runs serially, in PyTorch's order and with its
 * arithmetic, in random.h.
 *
 * Each value is PyTorch 1.13's formula on PyTorch's draw:
 *   uniform      (bits & (2^d - 1)) * 2^-d * (to - from) + from, d the dtype's mantissa digits
 *                (24 for float, 11 and 8 for the 16-bit floats from one 32-bit draw; 53 for double
 *                from a 64-bit one), in float (double for double), the product and sum fused
 *   random       a draw reduced modulo the range and offset by its base (64-bit draws for int64,
 *                double, float and bfloat16 when the range needs them)
 *   exponential  -1/lambda * log(1 - u),  geometric  ceil(log(u) / log(1 - p)),
 *   cauchy       median + sigma * tan(pi * (u - 1/2)),  log_normal  exp(mean + std * normal),
 *   bernoulli    u < p
 * where u is uniform_real_distribution<double>(0, 1) (one 64-bit draw) and every value is computed in
 * double, then converted to the dtype with static_cast's rules.
 */
#include <math.h>

#include "dtype.h"
#include "random.h"

#define CHUNK 1024

/* What every kernel here shares: the generator and the first failure found. */
typedef struct fill_ctx {
    tc_generator *g;
    double a, b;      /* the distribution's parameters */
    uint64_t range;   /* random: the width of [base, base + range), 0 for 2^64 */
    int64_t base;
    int mode;         /* random: RANDOM_* */
    int bad_p;        /* bernoulli_tensor: a probability outside [0, 1] was met */
} fill_ctx;

/* Runs `row` over the output (and the inputs, for bernoulli_tensor) with the generator locked. */
static int fill_run(const tc_kernel_args *args, int nops, cpu_row_fn row, fill_ctx *ctx, const char *op) {
    if (cpu_check_args(args, nops - 1, 1, op) != TC_OK) return TC_FAIL;
    if (!(ctx->g = cpu_random_generator(args))) return TC_FAIL;
    const tc_view *views[2] = {&args->outputs[0], nops > 1 ? &args->inputs[0] : NULL};
    cpu_core->generator_lock(ctx->g);
    const int rc = cpu_random_rows(views, nops, row, ctx);
    cpu_core->generator_unlock(ctx->g);
    return rc == TC_FAIL ? TC_FAIL : TC_OK;
}

static double scalar_arg(const tc_kernel_args *args, int i) {
    if (i >= args->n_scalars) return 0;
    const tc_scalar *s = &args->scalars[i];
    return s->kind == TC_SCALAR_FLOAT ? s->v.f : (double)s->v.i;
}

/* ---- uniform ---- */

/* One row: n draws turned into n values of `unit * (to - from) + from`. The bounds are T values (the
 * kernel's scalars were converted to T by PyTorch), their difference is a T value too, and the rest
 * is float arithmetic (double for double). */
#define UNIFORM_ROW(S, WORD, DRAW, UNIT, C, FMA)                                                   \
    static int uniform_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {          \
        fill_ctx *ctx = vctx;                                                                      \
        const CPU_T_##S from_t = RANDOM_FROM_F64_##S(ctx->a), to_t = RANDOM_FROM_F64_##S(ctx->b);  \
        const C from = cpu_ld_##S(from_t);                                                         \
        const C span = cpu_ld_##S(cpu_st_##S(cpu_ld_##S(to_t) - from));                            \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        WORD bits[CHUNK];                                                                          \
        for (int64_t i = 0; i < n; i += CHUNK) {                                                   \
            const int64_t m = n - i < CHUNK ? n - i : CHUNK;                                       \
            DRAW(ctx->g, bits, m);                                                                 \
            for (int64_t k = 0; k < m; k++) o[(i + k) * s[0]] = cpu_st_##S(FMA(UNIT, span, from)); \
        }                                                                                          \
        return 0;                                                                                  \
    }
UNIFORM_ROW(f16, uint32_t, cpu_draw_u32, cpu_unit_f32(bits[k], 11), float, fmaf)
UNIFORM_ROW(bf16, uint32_t, cpu_draw_u32, cpu_unit_f32(bits[k], 8), float, fmaf)
UNIFORM_ROW(f32, uint32_t, cpu_draw_u32, cpu_unit_f32(bits[k], 24), float, fmaf)
UNIFORM_ROW(f64, uint64_t, cpu_draw_u64, cpu_unit_f64(bits[k]), double, fma)

#define UNIFORM_KERNEL(_, S)                                                                       \
    static int k_uniform_##S(const tc_kernel_args *args) {                                         \
        fill_ctx ctx = {.a = scalar_arg(args, 0), .b = scalar_arg(args, 1)};                       \
        return fill_run(args, 1, uniform_row_##S, &ctx, "uniform");                                \
    }
CPU_DTYPES_FLOAT(UNIFORM_KERNEL, _)

/* ---- random: integers of a range ---- */

enum { RANDOM_DEFAULT = 0, RANDOM_RANGE = 1, RANDOM_FULL = 2 };

/* The default range of each dtype: [0, 2^digits] for floats (a draw modulo 2^digits + 1),
 * [0, max] for integers, {0, 1} for bool; from a 64-bit draw for int64 and double. */
#define DEFAULT_MOD_b8 0
#define DEFAULT_MOD_u8 UINT64_C(256)
#define DEFAULT_MOD_i8 UINT64_C(128)
#define DEFAULT_MOD_i16 UINT64_C(32768)
#define DEFAULT_MOD_i32 UINT64_C(2147483648)
#define DEFAULT_MOD_i64 UINT64_C(9223372036854775808)
#define DEFAULT_MOD_f16 UINT64_C(2049)
#define DEFAULT_MOD_bf16 UINT64_C(257)
#define DEFAULT_MOD_f32 UINT64_C(16777217)
#define DEFAULT_MOD_f64 UINT64_C(9007199254740993)
#define WIDE_DEFAULT_b8 0
#define WIDE_DEFAULT_u8 0
#define WIDE_DEFAULT_i8 0
#define WIDE_DEFAULT_i16 0
#define WIDE_DEFAULT_i32 0
#define WIDE_DEFAULT_i64 1
#define WIDE_DEFAULT_f16 0
#define WIDE_DEFAULT_bf16 0
#define WIDE_DEFAULT_f32 0
#define WIDE_DEFAULT_f64 1
/* Which dtypes use 64-bit draws for a range of 2^32 or more. */
#define WIDE_RANGE_b8 0
#define WIDE_RANGE_u8 0
#define WIDE_RANGE_i8 0
#define WIDE_RANGE_i16 0
#define WIDE_RANGE_i32 0
#define WIDE_RANGE_i64 1
#define WIDE_RANGE_f16 0
#define WIDE_RANGE_bf16 1
#define WIDE_RANGE_f32 1
#define WIDE_RANGE_f64 1

/* A draw to the value of the kernel's mode (conversions: random.h). */
#define RANDOM_VALUE(S, ctx, bits)                                                                 \
    ((ctx)->mode == RANDOM_FULL    ? RANDOM_FROM_I64_##S((int64_t)(bits))                          \
     : (ctx)->mode == RANDOM_RANGE ? RANDOM_FROM_I64_##S((int64_t)((bits) % (ctx)->range + (uint64_t)(ctx)->base)) \
     : DEFAULT_MOD_##S == 0        ? RANDOM_FROM_I64_##S((int64_t)((bits) & 1))                    \
                                   : RANDOM_FROM_I64_##S((int64_t)((bits) % (DEFAULT_MOD_##S ? DEFAULT_MOD_##S : 1))))

#define RANDOM_KERNEL(_, S)                                                                        \
    static int random_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {           \
        fill_ctx *ctx = vctx;                                                                      \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const int wide = ctx->mode == RANDOM_FULL ||                                               \
                         (ctx->mode == RANDOM_RANGE && WIDE_RANGE_##S && ctx->range >= (UINT64_C(1) << 32)) || \
                         (ctx->mode == RANDOM_DEFAULT && WIDE_DEFAULT_##S);                        \
        uint64_t bits[CHUNK];                                                                      \
        uint32_t bits32[CHUNK];                                                                    \
        for (int64_t i = 0; i < n; i += CHUNK) {                                                   \
            const int64_t m = n - i < CHUNK ? n - i : CHUNK;                                       \
            if (wide) {                                                                            \
                cpu_draw_u64(ctx->g, bits, m);                                                     \
            } else {                                                                               \
                cpu_draw_u32(ctx->g, bits32, m);                                                   \
                for (int64_t k = 0; k < m; k++) bits[k] = bits32[k];                               \
            }                                                                                      \
            for (int64_t k = 0; k < m; k++) o[(i + k) * s[0]] = RANDOM_VALUE(S, ctx, bits[k]);     \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_random_##S(const tc_kernel_args *args) {                                          \
        if (args->n_ints < 4) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu random: expected 4 ints"); \
        fill_ctx ctx = {.mode = (int)args->ints[1], .range = (uint64_t)args->ints[2], .base = args->ints[3]}; \
        if (ctx.mode == RANDOM_RANGE && ctx.range == 0) ctx.mode = RANDOM_FULL; /* a width of 2^64 */ \
        return fill_run(args, 1, random_row_##S, &ctx, "random");                                  \
    }
CPU_DTYPES_ALL(RANDOM_KERNEL, _)

/* ---- distributions of one 64-bit draw per element, computed in double ---- */

static inline double exponential_of(double u, double lambda) { return -1.0 / lambda * log(1.0 - u); }
static inline double geometric_of(double u, double p) { return ceil(log(u) / log(1.0 - p)); }
static inline double cauchy_of(double u, double median, double sigma) {
    return fma(sigma, tan(M_PI * (u - 0.5)), median);
}

#define DRAWN_ROW(NAME, S, EXPR)                                                                   \
    static int NAME##_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {           \
        fill_ctx *ctx = vctx;                                                                      \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        uint64_t bits[CHUNK];                                                                      \
        for (int64_t i = 0; i < n; i += CHUNK) {                                                   \
            const int64_t m = n - i < CHUNK ? n - i : CHUNK;                                       \
            cpu_draw_u64(ctx->g, bits, m);                                                         \
            for (int64_t k = 0; k < m; k++) {                                                      \
                const double u = cpu_unit_f64(bits[k]);                                            \
                o[(i + k) * s[0]] = RANDOM_FROM_F64_##S(EXPR);                                     \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_##NAME##_##S(const tc_kernel_args *args) {                                        \
        fill_ctx ctx = {.a = scalar_arg(args, 0), .b = scalar_arg(args, 1)};                       \
        return fill_run(args, 1, NAME##_row_##S, &ctx, #NAME);                                     \
    }

#define EXPONENTIAL(_, S) DRAWN_ROW(exponential, S, exponential_of(u, ctx->a))
#define GEOMETRIC(_, S) DRAWN_ROW(geometric, S, geometric_of(u, ctx->a))
#define CAUCHY(_, S) DRAWN_ROW(cauchy, S, cauchy_of(u, ctx->a, ctx->b))
#define BERNOULLI_FLOAT(_, S) DRAWN_ROW(bernoulli_float, S, (double)(u < ctx->a))
CPU_DTYPES_FLOAT(EXPONENTIAL, _)
CPU_DTYPES_NUMERIC(GEOMETRIC, _)
CPU_DTYPES_FLOAT(CAUCHY, _)
CPU_DTYPES_BOOL(BERNOULLI_FLOAT, _)
CPU_DTYPES_INT(BERNOULLI_FLOAT, _)
BERNOULLI_FLOAT(_, bf16)
BERNOULLI_FLOAT(_, f32)
BERNOULLI_FLOAT(_, f64)

/* log_normal draws a normal sample, which may be the one the last pair left over (random.h). */
#define LOG_NORMAL(_, S)                                                                           \
    static int log_normal_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {       \
        fill_ctx *ctx = vctx;                                                                      \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        for (int64_t i = 0; i < n; i++) o[i * s[0]] = RANDOM_FROM_F64_##S(exp(cpu_normal_f64(ctx->g, ctx->a, ctx->b))); \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_log_normal_##S(const tc_kernel_args *args) {                                      \
        fill_ctx ctx = {.a = scalar_arg(args, 0), .b = scalar_arg(args, 1)};                       \
        return fill_run(args, 1, log_normal_row_##S, &ctx, "log_normal");                          \
    }
CPU_DTYPES_FLOAT(LOG_NORMAL, _)

/* ---- bernoulli_tensor: u < p[i], u drawn at p's precision ----
 * A float64 p compares with a double from a 64-bit draw; any other p is widened to float and compares
 * with a float from a 32-bit draw. A p outside [0, 1] (or NaN) stops the walk at that element, as
 * PyTorch's check inside its loop does: the elements before it keep their new values. */
#define BERNOULLI_P(S, P)                                                                          \
    static int bernoulli_row_##S##_##P(void *vctx, int64_t n, char *const *p, const int64_t *s) {  \
        fill_ctx *ctx = vctx;                                                                      \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##P *prob = (const CPU_T_##P *)p[1];                                           \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const CPU_C_##P q = cpu_ld_##P(prob[i * s[1]]);                                        \
            if (!(q >= 0 && q <= 1)) {                                                             \
                ctx->bad_p = 1;                                                                    \
                return 1;                                                                          \
            }                                                                                      \
            const int hit = sizeof(CPU_C_##P) == 8 ? cpu_uniform_f64(ctx->g) < (double)q           \
                                                   : cpu_uniform_f32(ctx->g) < (float)q;           \
            o[i * s[0]] = RANDOM_FROM_I64_##S((int64_t)hit);                                       \
        }                                                                                          \
        return 0;                                                                                  \
    }
#define BERNOULLI_TENSOR(_, S)                                                                     \
    BERNOULLI_P(S, bf16)                                                                           \
    BERNOULLI_P(S, f32)                                                                            \
    BERNOULLI_P(S, f64)                                                                            \
    static int k_bernoulli_tensor_##S(const tc_kernel_args *args) {                                \
        fill_ctx ctx = {0};                                                                        \
        if (cpu_check_args(args, 1, 1, "bernoulli_tensor") != TC_OK) return TC_FAIL;               \
        const int32_t pd = args->inputs[0].dtype;                                                  \
        cpu_row_fn row = pd == TC_FLOAT64 ? bernoulli_row_##S##_f64 : pd == TC_FLOAT32 ? bernoulli_row_##S##_f32 \
                       : pd == TC_BFLOAT16 ? bernoulli_row_##S##_bf16 : NULL;                      \
        if (!row) return cpu_core->set_error(TC_ERR_RUNTIME, "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'", \
                                             cpu_core->dtype_name(pd));                            \
        if (fill_run(args, 2, row, &ctx, "bernoulli_tensor") != TC_OK) return TC_FAIL;             \
        if (ctx.bad_p)                                                                             \
            return cpu_core->set_error(TC_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  " \
                                                       "(Could this error message be improved?  If so, please report " \
                                                       "an enhancement request to PyTorch.)");     \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_BOOL(BERNOULLI_TENSOR, _)
CPU_DTYPES_INT(BERNOULLI_TENSOR, _)
BERNOULLI_TENSOR(_, bf16)
BERNOULLI_TENSOR(_, f32)
BERNOULLI_TENSOR(_, f64)

/* ---- the table ---- */

#define E_UNIFORM(_, S) {"uniform", CPU_DT_##S, k_uniform_##S}, {"exponential", CPU_DT_##S, k_exponential_##S}, \
    {"cauchy", CPU_DT_##S, k_cauchy_##S}, {"log_normal", CPU_DT_##S, k_log_normal_##S},
#define E_RANDOM(_, S) {"random", CPU_DT_##S, k_random_##S},
#define E_GEOMETRIC(_, S) {"geometric", CPU_DT_##S, k_geometric_##S},
#define E_BERNOULLI(_, S) {"bernoulli_float", CPU_DT_##S, k_bernoulli_float_##S},                  \
    {"bernoulli_tensor", CPU_DT_##S, k_bernoulli_tensor_##S},
static const cpu_kernel_entry kernels[] = {
    CPU_DTYPES_FLOAT(E_UNIFORM, _) CPU_DTYPES_ALL(E_RANDOM, _) CPU_DTYPES_NUMERIC(E_GEOMETRIC, _)
    CPU_DTYPES_BOOL(E_BERNOULLI, _) CPU_DTYPES_INT(E_BERNOULLI, _) E_BERNOULLI(_, bf16) E_BERNOULLI(_, f32)
    E_BERNOULLI(_, f64)};
CPU_KERNEL_TABLE(kernels);
