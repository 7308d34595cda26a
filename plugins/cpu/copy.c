/*
 * copy.c - the copy kernel: materialise a view and convert its dtype.
 *
 * One kernel per output dtype D; each dispatches on the input's dtype to one of ten stamped loops
 * that convert like PyTorch's casts (dtype.h's cpu_from_*: to bool is != 0, float to integer
 * truncates, NaN and out-of-range floats give what x86's conversion instructions give). A same-dtype copy moves raw bits
 * instead, so it is a plain (vectorised) copy and float16/bfloat16 NaN payloads survive.
 */
#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* A second list of every dtype: the pair loops below nest one dtype list inside another, and a
 * macro cannot expand inside its own expansion. */
#define SRC_DTYPES(X, A)                                                                           \
    X(A, b8) X(A, u8) X(A, i8) X(A, i16) X(A, i32) X(A, i64) X(A, f16) X(A, bf16) X(A, f32) X(A, f64)

#define BODY_IDENTITY(C, U, x) (x)
#define KEEP(x) (x)

#define STAMP_BITS(T) CPU_UNARY_LOOP(loop_bits_##T, T, T, T, T, KEEP, KEEP, BODY_IDENTITY)
STAMP_BITS(uint8_t)
STAMP_BITS(uint16_t)
STAMP_BITS(uint32_t)
STAMP_BITS(uint64_t)
STAMP_BITS(cpu_bits16)

cpu_loop_fn cpu_bits_loop(size_t elsize) {
    switch (elsize) {
    case 1: return loop_bits_uint8_t;
    case 2: return loop_bits_uint16_t;
    case 4: return loop_bits_uint32_t;
    case 16: return loop_bits_cpu_bits16;
    default: return loop_bits_uint64_t;
    }
}

/* loop_copy_D_S converts S to D: load S into its compute type, then cpu_from_<S's widest>_D. */
#define STAMP_PAIR(D, S)                                                                           \
    CPU_UNARY_LOOP(loop_copy_##D##_##S, CPU_T_##D, CPU_T_##S, CPU_C_##S, CPU_C_##S, cpu_ld_##S,    \
                   CPU_CAT4(cpu_from_, CPU_CV_##S, _, D), BODY_IDENTITY)
#define LOOP_ENTRY(D, S) [CPU_DT_##S] = loop_copy_##D##_##S,

#define STAMP_DST(_, D)                                                                            \
    SRC_DTYPES(STAMP_PAIR, D)                                                                      \
    static const cpu_loop_fn copy_to_##D[TC_NUM_DTYPES] = {SRC_DTYPES(LOOP_ENTRY, D)};             \
    static int k_copy_##D(const tc_kernel_args *args) {                                            \
        if (cpu_check_args(args, 1, 1, "copy") != TC_OK) return TC_FAIL;                           \
        const int32_t src = args->inputs[0].dtype;                                                 \
        if (src < 0 || src >= TC_NUM_DTYPES || !copy_to_##D[src]) /* complex: the core's real view */ \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu copy: unknown input dtype %d", src);   \
        if (src == CPU_DT_##D) return cpu_unary_apply(args, cpu_bits_loop(sizeof(CPU_T_##D)), "copy"); \
        return cpu_unary_apply(args, copy_to_##D[src], "copy");                                    \
    }
CPU_DTYPES_ALL(STAMP_DST, _)

#define TO_ENTRY(_, D) [CPU_DT_##D] = copy_to_##D,
static const cpu_loop_fn *const copy_to[TC_NUM_DTYPES] = {CPU_DTYPES_ALL(TO_ENTRY, _)};

cpu_loop_fn cpu_convert_loop(int32_t to, int32_t from) {
    if (to < 0 || to >= TC_NUM_DTYPES || from < 0 || from >= TC_NUM_DTYPES) return NULL;
    if (to == from) return cpu_bits_loop(cpu_dtype_size(to));
    return copy_to[to][from];
}

#define ENTRY(_, D) {"copy", CPU_DT_##D, k_copy_##D},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
