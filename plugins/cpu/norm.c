/*
 * norm.c - vector p-norms over any set of dims (the "norm" kernel; torch.norm's numeric orders).
 *
 * scalars[0] is p. The orders with a cheaper form than (sum |x|^p)^(1/p) get their own stamp:
 * 2 (sqrt of the sum of squares), 1, inf (largest |x|), -inf (smallest |x|), 0 (count of nonzero
 * elements). Float32 accumulates in double, float16/bfloat16 in float, as sums do; NaN propagates.
 */
#include "reduce.h"

#define NORM_A_f16 float
#define NORM_A_bf16 float
#define NORM_A_f32 double
#define NORM_A_f64 double

#define MAP_SQ(x, c) ((double)(x) * (double)(x))
#define MAP_ABS(x, c) fabs(x)
#define MAP_NONZERO(x, c) ((x) != 0)
#define MAP_POW(x, c) pow(fabs((double)(x)), cx->p)
#define FIN_SQRT(a, c) sqrt(a)
#define FIN_ROOT(a, c) pow((double)(a), cx->inv_p)

/* The 2-norm of float32 and float64 squares and sums double vectors (reduce_vector.h's blocks, two
 * streams from memory): on double lanes in arrays, float32's had been compute-bound at 10 GB/s on
 * one Zen 3 thread. */
#define VMAP_SQUARE(v) v = v * v;
#define N2_LOAD_f32 RED_VEC_LOAD_F32_AS_F64
#define N2_LOAD_f64 RED_VEC_LOAD_AS_IS
#define STAMP_n2_vectors(S)                                                                        \
    RED_STAMP_IMPL(n2_##S, S, double, double, CPU_T_##S, 0, MAP_SQ, RED_ADD, FIN_SQRT, cpu_st_##S,  \
                   RED_LANES1_VECTORS, (int64_t, RED_VEC_ADD, VMAP_SQUARE, N2_LOAD_##S))
#define STAMP_n2_lanes(S) RED_STAMP(n2_##S, S, NORM_A_##S, CPU_T_##S, 0, MAP_SQ, RED_ADD, FIN_SQRT, cpu_st_##S)
#define N2_STAMP_f16 lanes
#define N2_STAMP_bf16 lanes
#define N2_STAMP_f32 vectors
#define N2_STAMP_f64 vectors

#define STAMP(_, S)                                                                                \
    CPU_CAT(STAMP_n2_, N2_STAMP_##S)(S)                                                            \
    RED_STAMP(n1_##S, S, NORM_A_##S, CPU_T_##S, 0, MAP_ABS, RED_ADD, RED_FIN_SELF, cpu_st_##S)     \
    RED_STAMP(ninf_##S, S, NORM_A_##S, CPU_T_##S, 0, MAP_ABS, RED_MAX_F, RED_FIN_SELF, cpu_st_##S) \
    RED_STAMP(nminf_##S, S, NORM_A_##S, CPU_T_##S, INFINITY, MAP_ABS, RED_MIN_F, RED_FIN_SELF, cpu_st_##S) \
    RED_STAMP(n0_##S, S, NORM_A_##S, CPU_T_##S, 0, MAP_NONZERO, RED_ADD, RED_FIN_SELF, cpu_st_##S) \
    RED_STAMP(np_##S, S, double, CPU_T_##S, 0, MAP_POW, RED_ADD, FIN_ROOT, cpu_st_##S)            \
    static int k_norm_##S(const tc_kernel_args *args) {                                           \
        if (args->n_scalars < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu norm: missing p"); \
        const tc_scalar ps = args->scalars[0];                                                    \
        const double p = ps.kind == TC_SCALAR_FLOAT ? ps.v.f : (double)ps.v.i;                     \
        const red_call cx = {.p = p, .inv_p = 1.0 / p};                                            \
        const red_ops *ops = p == 2 ? &n2_##S##_ops : p == 1 ? &n1_##S##_ops : p == INFINITY ? &ninf_##S##_ops \
                           : p == -INFINITY ? &nminf_##S##_ops : p == 0 ? &n0_##S##_ops : &np_##S##_ops; \
        return reduce_run(args, ops, &cx, "norm");                                                 \
    }
CPU_DTYPES_FLOAT(STAMP, _)

#define ENTRY(_, S) {"norm", CPU_DT_##S, k_norm_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
