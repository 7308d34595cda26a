/*
 * igamma.c - the regularized lower and upper incomplete gamma functions igamma(a, x) = P(a, x) and
 * igammac(a, x) = Q(a, x) (torch.special.gammainc, gammaincc), binary: float32 in float, float64 in
 * double, float16 and bfloat16 through float (igamma_generic.h holds the algorithm).
 */
#include <stdbool.h>
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* Boost's Lanczos approximation (N = 13, g = 6.0246800407767296), its sum scaled by exp(g). */
#define LANCZOS_EXPG_SCALED_NUM 0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993, \
    19.51992788247617482847860966235652136208, 449.9445569063168119446858607650988409623,                        \
    6955.999602515376140356310115515198987526, 75999.29304014542649875303443598909137092,                        \
    601859.6171681098786670226533699352302507, 3481712.15498064590882071018964774556468,                         \
    14605578.08768506808414169982791359218571, 43338889.32467613834773723740590533316085,                        \
    86363131.28813859145546927288977868422342, 103794043.1163445451906271053616070238554,                        \
    56906521.91347156388090791033559122686859
#define LANCZOS_EXPG_SCALED_DEN 1, 66, 1925, 32670, 357423, 2637558, 13339535, 45995730, 105258076, 150917976, \
    120543840, 39916800, 0

#include "igamma_generic.h"
#define CPU_STAMP_DOUBLE
#include "igamma_generic.h"
#undef CPU_STAMP_DOUBLE

/* Strided rows (element strides) of a, x -> out, each dtype loaded into its compute type. */
#define STAMP_S(OP, S, FS)                                                                         \
    static void loop_##OP##_##S(int64_t n, char *const *p, const int64_t *s, void *ctx) {          \
        (void)ctx;                                                                                 \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *a = (const CPU_T_##S *)p[1], *x = (const CPU_T_##S *)p[2];                \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i * s[0]] = cpu_st_##S(OP##_##FS(cpu_ld_##S(a[i * s[1]]), cpu_ld_##S(x[i * s[2]])));  \
    }                                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_binary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                        \
    }
#define STAMP(OP) STAMP_S(OP, f16, f32) STAMP_S(OP, bf16, f32) STAMP_S(OP, f32, f32) STAMP_S(OP, f64, f64)
STAMP(igamma)
STAMP(igammac)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, igamma) CPU_DTYPES_FLOAT(ENTRY, igammac)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
