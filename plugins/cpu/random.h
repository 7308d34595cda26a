/*
 * random.h - what the random kernels share (random.c, random_normal.c, random_sample.c).
 *
 * Every kernel reproduces PyTorch 1.13's CPU results for the same seed, so each draws exactly the
 * numbers PyTorch draws, in PyTorch's order, converted with PyTorch's arithmetic:
 *   - draws come from the call's generator (the op's Generator? argument, or the CPU default) under
 *     its lock, held for the whole kernel as PyTorch holds the generator's mutex;
 *   - elements are visited serially, in the order PyTorch's TensorIterator visits them
 *     (cpu_random_rows): PyTorch runs these kernels with cpu_serial_kernel, and the value an
 *     element gets depends on how many draws came before it, so they cannot be split over threads;
 *   - PyTorch's CPU kernels are compiled with -mfma and GCC's default -ffp-contract=fast, so most
 *     a*b+c of theirs is one fused multiply-add: the kernels here call fma()/fmaf() at those places
 *     (an instruction from x86-64-v3 up, libm's exact software version below).
 */
#ifndef CPU_RANDOM_H
#define CPU_RANDOM_H

#include <stdint.h>

#include "cpu.h"
#include "dtype.h"

/* The generator a kernel draws from: args->args[index] when it holds a generator (index is the
 * contract's ints[0], -1 when the op has none), else the CPU's default one. NULL with the error set
 * when there is none. */
tc_generator *cpu_random_generator(const tc_kernel_args *args);

/* A row of the walk: n elements; ptrs[op] points at operand op's first element and strides[op] is its
 * stride in elements. Returns nonzero to stop the walk (a kernel found an invalid parameter). */
typedef int (*cpu_row_fn)(void *ctx, int64_t n, char *const *ptrs, const int64_t *strides);

/* Visits every element of views[0] (the output) and of the nops-1 inputs presented at its sizes,
 * serially, in the order of PyTorch's TensorIterator: dimensions sorted by stride (outputs first,
 * zero strides ambiguous, equal strides broken by size), neighbours that are contiguous merged.
 * Returns what the last row returned. nops <= 2. */
int cpu_random_rows(const tc_view *const *views, int nops, cpu_row_fn fn, void *ctx);

/* Whether v is contiguous in PyTorch's sense (row-major; size-1 dimensions may have any stride). */
int cpu_random_is_contiguous(const tc_view *v);

/* Draws straight into a kernel's buffer, with the lock held. */
static inline void cpu_draw_u32(tc_generator *g, uint32_t *out, int64_t n) { cpu_core->generator_fill_u32(g, out, n); }
static inline void cpu_draw_u64(tc_generator *g, uint64_t *out, int64_t n) { cpu_core->generator_fill_u64(g, out, n); }

/* One value of PyTorch's uniform_real_distribution<T>(0, 1) before scaling: the low `digits` bits
 * of a draw times 2^-digits (float for 24 bits or fewer, double for 53). */
static inline float cpu_unit_f32(uint32_t bits, int digits) {
    return (float)(bits & ((1u << digits) - 1u)) * (1.0f / (float)(1u << digits));
}
static inline double cpu_unit_f64(uint64_t bits) {
    return (double)(bits & ((UINT64_C(1) << 53) - 1)) * (1.0 / 9007199254740992.0);
}
/* A draw of uniform_real_distribution<double>(0, 1) and <float>(0, 1), one at a time. */
double cpu_uniform_f64(tc_generator *g);
float cpu_uniform_f32(tc_generator *g);

/* A sample of PyTorch's normal_distribution<double>(mean, std): Box-Muller on two 64-bit draws, the
 * second value of the pair kept in the generator for the next call (random_normal.c). */
double cpu_normal_f64(tc_generator *g, double mean, double std);

/* static_cast<T>(double) and static_cast<T>(int64_t) as PyTorch's kernels compile them, per dtype
 * suffix S: c10::Half and c10::BFloat16 are built from a float, so a double rounds twice (to float,
 * then to 16 bits); GCC converts a double to uint8_t through the 32-bit truncation (a value past
 * int32 gives 0), unlike c10's copy casts, which go through int64 (dtype.h); integers keep the low
 * bits of an int64. */
static inline CPU_T_f16 cpu_random_f16(double v) { return cpu_st_f16((float)v); }
static inline CPU_T_bf16 cpu_random_bf16(double v) { return cpu_st_bf16((float)v); }

#define RANDOM_FROM_F64_b8(v) cpu_from_f64_b8(v)
#define RANDOM_FROM_F64_u8(v) ((uint8_t)(uint32_t)tc_cvtt_i32(v))
#define RANDOM_FROM_F64_i8(v) cpu_from_f64_i8(v)
#define RANDOM_FROM_F64_i16(v) cpu_from_f64_i16(v)
#define RANDOM_FROM_F64_i32(v) cpu_from_f64_i32(v)
#define RANDOM_FROM_F64_i64(v) cpu_from_f64_i64(v)
#define RANDOM_FROM_F64_f16(v) cpu_random_f16(v)
#define RANDOM_FROM_F64_bf16(v) cpu_random_bf16(v)
#define RANDOM_FROM_F64_f32(v) ((float)(v))
#define RANDOM_FROM_F64_f64(v) (v)

#define RANDOM_FROM_I64_b8(v) ((uint8_t)((v) != 0))
#define RANDOM_FROM_I64_u8(v) ((uint8_t)(v))
#define RANDOM_FROM_I64_i8(v) ((int8_t)(v))
#define RANDOM_FROM_I64_i16(v) ((int16_t)(v))
#define RANDOM_FROM_I64_i32(v) ((int32_t)(v))
#define RANDOM_FROM_I64_i64(v) (v)
#define RANDOM_FROM_I64_f16(v) cpu_st_f16((float)(v))
#define RANDOM_FROM_I64_bf16(v) cpu_st_bf16((float)(v))
#define RANDOM_FROM_I64_f32(v) ((float)(v))
#define RANDOM_FROM_I64_f64(v) ((double)(v))

#endif
