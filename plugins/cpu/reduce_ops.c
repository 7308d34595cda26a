/*
 * reduce_ops.c - the plain reductions on the driver of reduce.h: sum, nansum, prod, max, min (also
 * amax/amin, aminmax), all, any, count_nonzero.
 *
 * Accumulators: integer sums and products wrap in 64 bits (PyTorch's int64 results); float32 sums
 * and products accumulate in double (sums in float lanes within a block of RED_BLOCK elements),
 * float16/bfloat16 in float. nansum counts a NaN as 0. max/min
 * propagate NaN. all/any read any dtype and write one byte per output (bool, or uint8 for uint8
 * inputs as PyTorch does). count_nonzero reads any dtype into an int64 count.
 */
#include "complex.h"
#include "reduce.h"

#define SUM_A_u8 uint64_t
#define SUM_A_i8 uint64_t
#define SUM_A_i16 uint64_t
#define SUM_A_i32 uint64_t
#define SUM_A_i64 uint64_t
#define SUM_A_f16 float
#define SUM_A_bf16 float
#define SUM_A_f32 double
#define SUM_A_f64 double

#define EXTREME_KB(OP) CPU_CAT(OP, _I)
#define EXTREME_KU(OP) CPU_CAT(OP, _I)
#define EXTREME_KI(OP) CPU_CAT(OP, _I)
#define EXTREME_KF(OP) CPU_CAT(OP, _F)

#define MAP_SUM(x, c) (x)
#define MAP_NANSUM(x, c) ((x) != (x) ? 0 : (x))
#define MAP_TRUTH(x, c) ((uint8_t)((x) != 0))
/* The truth of an element per kind, for all/any (TRUTH) and count_nonzero (NONZERO). Of a complex
 * value, all and any read the real part alone, as PyTorch 1.13 does (it casts the input to bool,
 * which drops the imaginary part, and warns: meta_reduce.c); count_nonzero counts it when either
 * part is nonzero. */
#define TRUTH_KB MAP_TRUTH
#define TRUTH_KU MAP_TRUTH
#define TRUTH_KI MAP_TRUTH
#define TRUTH_KF MAP_TRUTH
#define TRUTH_KC(x, c) ((uint8_t)((x).re != 0))
#define NONZERO_KB MAP_TRUTH
#define NONZERO_KU MAP_TRUTH
#define NONZERO_KI MAP_TRUTH
#define NONZERO_KF MAP_TRUTH
#define NONZERO_KC(x, c) ((uint8_t)((x).re != 0 || (x).im != 0))
#define MUL(a, v) ((a) * (v))
#define AND(a, v) ((a) & (v))
#define OR(a, v) ((a) | (v))
#define ST_BYTE(v) ((uint8_t)(v))

/* The lanes of a block (reduce.h's RED_STAMP_LANES): float32 sums in float there, the rest as A. */
#define SUM_L_u8 uint64_t
#define SUM_L_i8 uint64_t
#define SUM_L_i16 uint64_t
#define SUM_L_i32 uint64_t
#define SUM_L_i64 uint64_t
#define SUM_L_f16 float
#define SUM_L_bf16 float
#define SUM_L_f32 float
#define SUM_L_f64 double

/* Sums and products whose lanes are as wide as the elements or wider (float32, float64, int64 sums;
 * float32, float64 products) run reduce_vector.h's vector blocks: the same results as the lanes in
 * arrays, faster on short rows and from memory. LI: the integer type as wide as the lanes. */
#define SUM_STAMP_u8 lanes
#define SUM_STAMP_i8 lanes
#define SUM_STAMP_i16 lanes
#define SUM_STAMP_i32 lanes
#define SUM_STAMP_i64 vectors
#define SUM_STAMP_f16 lanes
#define SUM_STAMP_bf16 lanes
#define SUM_STAMP_f32 vectors
#define SUM_STAMP_f64 vectors
#define SUM_LI_i64 int64_t
#define SUM_LI_f32 int32_t
#define SUM_LI_f64 int64_t
#define STAMP_sum_lanes(NAME, S, MAP, VMAP)                                                        \
    RED_STAMP_LANES(NAME##_##S, S, SUM_A_##S, SUM_L_##S, CPU_T_##S, 0, MAP, RED_ADD, RED_FIN_SELF, cpu_st_##S)
#define STAMP_sum_vectors(NAME, S, MAP, VMAP)                                                      \
    RED_STAMP_VECTOR(NAME##_##S, S, SUM_A_##S, SUM_L_##S, SUM_LI_##S, 0, MAP, RED_ADD, RED_VEC_ADD, VMAP, RED_VEC_LOAD_AS_IS, \
                     cpu_st_##S)
#define STAMP_sum(_, S) CPU_CAT(STAMP_sum_, SUM_STAMP_##S)(sum, S, MAP_SUM, RED_VEC_SELF)
#define STAMP_nansum(_, S) CPU_CAT(STAMP_sum_, SUM_STAMP_##S)(nansum, S, MAP_NANSUM, RED_VEC_ZERO_NAN)

/* Products of float32 keep double lanes (accuracy: float lanes drifted by 3e-6 per 2048 factors
 * near 1), converted as they are loaded. */
#define STAMP_prod_lanes(S) RED_STAMP(prod_##S, S, SUM_A_##S, CPU_T_##S, 1, MAP_SUM, MUL, RED_FIN_SELF, cpu_st_##S)
#define STAMP_prod_f32(S)                                                                          \
    RED_STAMP_VECTOR(prod_##S, S, double, double, int64_t, 1, MAP_SUM, MUL, RED_VEC_MUL, RED_VEC_SELF, RED_VEC_LOAD_F32_AS_F64, \
                     cpu_st_##S)
#define STAMP_prod_f64(S)                                                                          \
    RED_STAMP_VECTOR(prod_##S, S, double, double, int64_t, 1, MAP_SUM, MUL, RED_VEC_MUL, RED_VEC_SELF, RED_VEC_LOAD_AS_IS, \
                     cpu_st_##S)
#define PROD_STAMP_u8 lanes
#define PROD_STAMP_i8 lanes
#define PROD_STAMP_i16 lanes
#define PROD_STAMP_i32 lanes
#define PROD_STAMP_i64 lanes
#define PROD_STAMP_f16 lanes
#define PROD_STAMP_bf16 lanes
#define PROD_STAMP_f32 f32
#define PROD_STAMP_f64 f64
#define STAMP_prod(_, S) CPU_CAT(STAMP_prod_, PROD_STAMP_##S)(S)
/* max and min of float32 and float64 on the vector blocks (reduce_vector.h's RED_VEC_MAX/MIN). */
#define EXTREME_STAMP_b8 lanes
#define EXTREME_STAMP_u8 lanes
#define EXTREME_STAMP_i8 lanes
#define EXTREME_STAMP_i16 lanes
#define EXTREME_STAMP_i32 lanes
#define EXTREME_STAMP_i64 lanes
#define EXTREME_STAMP_f16 lanes
#define EXTREME_STAMP_bf16 lanes
#define EXTREME_STAMP_f32 vectors
#define EXTREME_STAMP_f64 vectors
#define STAMP_extreme_lanes(OP, OPV, S)                                                            \
    RED_STAMP(OP##_##S, S, CPU_C_##S, CPU_T_##S, CPU_CAT(RED_, CPU_CAT(OPV, _ID_##S)), MAP_SUM,     \
              CPU_CAT(EXTREME_, CPU_K_##S)(CPU_CAT(RED_, OPV)), RED_FIN_SELF, cpu_st_##S)
#define STAMP_extreme_vectors(OP, OPV, S)                                                          \
    RED_STAMP_VECTOR(OP##_##S, S, CPU_C_##S, CPU_C_##S, SUM_LI_##S, CPU_CAT(RED_, CPU_CAT(OPV, _ID_##S)), MAP_SUM, \
                     CPU_CAT(RED_, CPU_CAT(OPV, _F)), CPU_CAT(RED_VEC_, OPV), RED_VEC_SELF, RED_VEC_LOAD_AS_IS, \
                     cpu_st_##S)
#define STAMP_max(_, S) CPU_CAT(STAMP_extreme_, EXTREME_STAMP_##S)(max, MAX, S)
#define STAMP_min(_, S) CPU_CAT(STAMP_extreme_, EXTREME_STAMP_##S)(min, MIN, S)
#define TRUTH(S) CPU_CAT(TRUTH_, CPU_K_##S)
#define STAMP_all(_, S) RED_STAMP(all_##S, S, uint8_t, uint8_t, 1, TRUTH(S), AND, RED_FIN_SELF, ST_BYTE)
#define STAMP_any(_, S) RED_STAMP(any_##S, S, uint8_t, uint8_t, 0, TRUTH(S), OR, RED_FIN_SELF, ST_BYTE)

/* Integer sums and products into int64 read narrower integers and bool as they are. */
#define ST_I64(v) ((int64_t)(v))
#define STAMP_sum_wide(_, S) RED_STAMP(wsum_##S, S, uint64_t, int64_t, 0, MAP_SUM, RED_ADD, RED_FIN_SELF, ST_I64)
#define STAMP_prod_wide(_, S) RED_STAMP(wprod_##S, S, uint64_t, int64_t, 1, MAP_SUM, MUL, RED_FIN_SELF, ST_I64)
#define STAMP_count(_, S)                                                                          \
    RED_STAMP(count_##S, S, uint64_t, int64_t, 0, CPU_CAT(NONZERO_, CPU_K_##S), RED_ADD, RED_FIN_SELF, ST_I64)

CPU_DTYPES_NUMERIC(STAMP_sum, _)
CPU_DTYPES_FLOAT(STAMP_nansum, _)
CPU_DTYPES_NUMERIC(STAMP_prod, _)
CPU_DTYPES_ALL(STAMP_max, _)
CPU_DTYPES_ALL(STAMP_min, _)
CPU_DTYPES_ALL(STAMP_all, _)
CPU_DTYPES_ALL(STAMP_any, _)
CPU_DTYPES_ALL(STAMP_count, _)
CPU_DTYPES_COMPLEX_FULL(STAMP_all, _)
CPU_DTYPES_COMPLEX_FULL(STAMP_any, _)
CPU_DTYPES_COMPLEX_FULL(STAMP_count, _)
CPU_DTYPES_BOOL(STAMP_sum_wide, _)
CPU_DTYPES_INT(STAMP_sum_wide, _)
CPU_DTYPES_BOOL(STAMP_prod_wide, _)
CPU_DTYPES_INT(STAMP_prod_wide, _)

/* float32 products flush subnormal doubles to zero: a block's tree multiplies its 64 lanes
 * together, and for most data (uniform in [0, 1) has lanes near 1e-14 after a block) that result
 * falls below double's normal range, where every multiply took a microcode assist. That cost a
 * third of the in-cache speed (a loop over 1 MiB: 73 against 105 GB/s; x.prod() of 64K floats: 70
 * against 92). A double below 2.2e-308 lies some 260 decades under float32's smallest value, so
 * only a product that falls that low and climbs back (in lanes the reference's float32 ones would
 * have flushed far earlier) gives another result. Inputs are read as they are (FTZ, not DAZ), and
 * the stored float32 result is converted outside the flush, so float32 subnormal inputs and
 * results stay. */
#if defined(__SSE__)
#include <xmmintrin.h>
static inline unsigned flush_begin(void) {
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | _MM_FLUSH_ZERO_ON);
    return csr;
}
static inline void flush_end(unsigned csr) { _mm_setcsr(csr); }
#else
static inline unsigned flush_begin(void) { return 0; }
static inline void flush_end(unsigned csr) { (void)csr; }
#endif
/* NAME##_flushing_ops: NAME##_ops with its combining functions run under flush_begin/flush_end. */
#define FLUSHING(NAME, FN, PARAMS, ARGS)                                                           \
    static void NAME##_flushing_##FN PARAMS {                                                      \
        const unsigned csr = flush_begin();                                                        \
        NAME##_ops.FN ARGS;                                                                        \
        flush_end(csr);                                                                            \
    }
#define STAMP_FLUSHING(NAME)                                                                       \
    FLUSHING(NAME, row, (void *acc, const char *p, int64_t n, int64_t s, const red_call *cx, double c), \
             (acc, p, n, s, cx, c))                                                                \
    FLUSHING(NAME, combine, (void *acc, const void *other, int64_t w), (acc, other, w))            \
    FLUSHING(NAME, accum,                                                                          \
             (void *acc, const char *const *rows, int nrows, int64_t w, const red_call *cx, const double *c), \
             (acc, rows, nrows, w, cx, c))                                                         \
    FLUSHING(NAME, rows,                                                                           \
             (void *acc, const char *p, int64_t step, int64_t nrows, int64_t n, int64_t s, const red_call *cx, \
              const double *c),                                                                    \
             (acc, p, step, nrows, n, s, cx, c))                                                   \
    static const red_ops NAME##_flushing_ops = {NAME##_identity,       NAME##_flushing_row,        \
                                                NAME##_flushing_combine, NAME##_flushing_accum,    \
                                                NAME##_store,          NAME##_center,              \
                                                NAME##_flushing_rows,  sizeof(double)};
STAMP_FLUSHING(prod_f32)

#define KERNEL(OP, S)                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) { return reduce_run(args, &OP##_##S##_ops, NULL, #OP); }
CPU_DTYPES_FLOAT(KERNEL, sum)
CPU_DTYPES_FLOAT(KERNEL, nansum)
/* float32 flushes (above); float16, bfloat16 and float64 do not: their lanes' subnormals are results */
static int k_prod_f32(const tc_kernel_args *args) { return reduce_run(args, &prod_f32_flushing_ops, NULL, "prod"); }
KERNEL(prod, f16)
KERNEL(prod, bf16)
KERNEL(prod, f64)
CPU_DTYPES_ALL(KERNEL, max)
CPU_DTYPES_ALL(KERNEL, min)
CPU_DTYPES_ALL(KERNEL, all)
CPU_DTYPES_ALL(KERNEL, any)
CPU_DTYPES_ALL(KERNEL, count)
CPU_DTYPES_COMPLEX_FULL(KERNEL, all)
CPU_DTYPES_COMPLEX_FULL(KERNEL, any)
CPU_DTYPES_COMPLEX_FULL(KERNEL, count)

/* aminmax: min into outputs[0] and max into outputs[1], the input read once where it can be. A
 * contiguous span runs one loop keeping both, in two groups of lanes (two vectors each), as the
 * driver's lanes do: min and max computed apart cost about 30% more at memory speed. */
#define MINMAX_LANES(C) ((int)(2 * RED_VEC_BYTES / sizeof(C)))
/* Long spans are read as two streams, as the other reductions read long rows (reduce.h): each pair
 * of chunks in lockstep, one per group of lanes. Min and max combine in any order, so the result is
 * the same. */
#define MINMAX_CHUNK ((int64_t)RED_STREAM_GAP * RED_BLOCK)
#define MINMAX_STEP(S, G, IDX)                                                                     \
    _Pragma("GCC unroll 1") for (int j = 0; j < V; j++) {                                          \
        const CPU_C_##S x = cpu_ld_##S(p[IDX]);                                                    \
        lo##G[j] = CPU_CAT(EXTREME_, CPU_K_##S)(RED_MIN)(lo##G[j], x);                             \
        hi##G[j] = CPU_CAT(EXTREME_, CPU_K_##S)(RED_MAX)(hi##G[j], x);                             \
    }
#define KERNEL_AMINMAX(_, S)                                                                       \
    static void minmax_row_##S(red_acc acc[2], const char *bytes, int64_t n) {                     \
        typedef CPU_C_##S C;                                                                       \
        enum { V = MINMAX_LANES(C) };                                                              \
        const CPU_T_##S *p = (const CPU_T_##S *)bytes;                                             \
        C lo0[V], hi0[V], lo1[V], hi1[V];                                                          \
        for (int j = 0; j < V; j++) {                                                              \
            lo0[j] = lo1[j] = (C)(RED_MIN_ID_##S);                                                 \
            hi0[j] = hi1[j] = (C)(RED_MAX_ID_##S);                                                 \
        }                                                                                          \
        int64_t i = 0;                                                                             \
        for (; i + 2 * MINMAX_CHUNK <= n; i += 2 * MINMAX_CHUNK) /* two streams */                 \
            for (int64_t k = i; k < i + MINMAX_CHUNK; k += V) {                                    \
                MINMAX_STEP(S, 0, k + j)                                                           \
                MINMAX_STEP(S, 1, k + MINMAX_CHUNK + j)                                            \
            }                                                                                      \
        for (; i + 2 * V <= n; i += 2 * V) {                                                       \
            MINMAX_STEP(S, 0, i + j)                                                               \
            MINMAX_STEP(S, 1, i + V + j)                                                           \
        }                                                                                          \
        C lo = (C)(RED_MIN_ID_##S), hi = (C)(RED_MAX_ID_##S);                                      \
        for (int j = 0; j < V; j++) {                                                              \
            lo = CPU_CAT(EXTREME_, CPU_K_##S)(RED_MIN)(lo, CPU_CAT(EXTREME_, CPU_K_##S)(RED_MIN)(lo0[j], lo1[j])); \
            hi = CPU_CAT(EXTREME_, CPU_K_##S)(RED_MAX)(hi, CPU_CAT(EXTREME_, CPU_K_##S)(RED_MAX)(hi0[j], hi1[j])); \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            const C x = cpu_ld_##S(p[i]);                                                          \
            lo = CPU_CAT(EXTREME_, CPU_K_##S)(RED_MIN)(lo, x);                                     \
            hi = CPU_CAT(EXTREME_, CPU_K_##S)(RED_MAX)(hi, x);                                     \
        }                                                                                          \
        *(C *)(void *)&acc[0] = lo;                                                                \
        *(C *)(void *)&acc[1] = hi;                                                                \
    }                                                                                              \
    static int k_aminmax_##S(const tc_kernel_args *args) {                                         \
        return reduce_run_pair(args, &min_##S##_ops, &max_##S##_ops, minmax_row_##S, "aminmax");   \
    }
CPU_DTYPES_ALL(KERNEL_AMINMAX, _)

/* The sum or product of T in T (sum(dtype=torch.int8) wraps in int8), or, for T = int64, of any
 * integer or bool input widened to int64. */
#define WIDE_ENTRY(OP, S) [CPU_DT_##S] = &w##OP##_##S##_ops,
static const red_ops *const wide_sum[TC_NUM_DTYPES] = {CPU_DTYPES_BOOL(WIDE_ENTRY, sum) CPU_DTYPES_INT(WIDE_ENTRY, sum)};
static const red_ops *const wide_prod[TC_NUM_DTYPES] = {
    CPU_DTYPES_BOOL(WIDE_ENTRY, prod) CPU_DTYPES_INT(WIDE_ENTRY, prod)};
#define KERNEL_INT(OP, S)                                                                          \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        const red_ops *const *wide = wide_##OP;                                                    \
        const int32_t in = args->n_inputs > 0 ? args->inputs[0].dtype : -1;                        \
        const red_ops *ops = &OP##_##S##_ops;                                                      \
        if (CPU_DT_##S == TC_INT64 && in >= 0 && in < TC_NUM_DTYPES && in != TC_INT64 && wide[in]) ops = wide[in]; \
        return reduce_run(args, ops, NULL, #OP);                                                   \
    }
CPU_DTYPES_INT(KERNEL_INT, sum)
CPU_DTYPES_INT(KERNEL_INT, prod)

/* In bool a sum is "any" and a product "all"; integers have no NaN, so nansum is sum. */
#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_AS(OP, S, AS) {#OP, CPU_DT_##S, k_##AS##_##S},
#define NANSUM_INT(_, S) ENTRY_AS(nansum, S, sum)
#define COUNT(_, S) ENTRY_AS(count_nonzero, S, count)
static const cpu_kernel_entry kernels[] = {
    CPU_DTYPES_NUMERIC(ENTRY, sum) CPU_DTYPES_FLOAT(ENTRY, nansum) CPU_DTYPES_INT(NANSUM_INT, _)
    CPU_DTYPES_NUMERIC(ENTRY, prod) CPU_DTYPES_ALL(ENTRY, max) CPU_DTYPES_ALL(ENTRY, min)
    CPU_DTYPES_ALL(ENTRY, all) CPU_DTYPES_ALL(ENTRY, any) CPU_DTYPES_ALL(COUNT, _) CPU_DTYPES_ALL(ENTRY, aminmax)
    CPU_DTYPES_COMPLEX_FULL(ENTRY, all) CPU_DTYPES_COMPLEX_FULL(ENTRY, any) CPU_DTYPES_COMPLEX_FULL(COUNT, _)
    ENTRY_AS(sum, b8, any) ENTRY_AS(prod, b8, all) ENTRY_AS(nansum, b8, any)};
CPU_KERNEL_TABLE(kernels);
