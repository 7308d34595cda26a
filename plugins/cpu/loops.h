/*
 * loops.h - macros that stamp the 1-D inner loops of elementwise kernels, and the drivers that run
 * them from kernel arguments.
 *
 * A loop is stamped from a BODY macro that maps loaded compute-type values to a result:
 * BODY(C, U, x) for unary loops, BODY(C, U, x, y) for binary ones (C the compute type, U the
 * wrapping type, see dtype.h). Each stamped loop has a branch for the all-contiguous case and, for
 * binary loops, for either input being a broadcast scalar (stride 0), so the compiler vectorises
 * the common cases; the general strided branch handles everything else. Every branch reads an
 * element's inputs before writing its output, so an output aliasing an input exactly (in-place ops)
 * is correct.
 *
 * Binary bodies may read `alpha` (the op's scalar, as U) and set bits of `err` (an int) to report a
 * failure; the driver turns the bits into an error after the loop (see CPU_ERR_*).
 */
#ifndef CPU_LOOPS_H
#define CPU_LOOPS_H

#include <stdint.h>

#include "dtype.h"
#include "iterate.h"

/* Failures a binary body can report; never raised inside a loop, which may run on a worker thread. */
#define CPU_ERR_ZERO_DIVISION 1

typedef struct cpu_binary_ctx {
    double alpha_f;  /* the scalar for floating dtypes */
    int64_t alpha_i; /* the scalar for integral dtypes */
    int error;       /* CPU_ERR_* bits, or-ed in atomically by the loops */
} cpu_binary_ctx;

#define CPU_ALPHA(U, ctx)                                                                          \
    _Generic((U)0, float: (U)(ctx)->alpha_f, double: (U)(ctx)->alpha_f, default: (U)(ctx)->alpha_i)

#define CPU_BINARY_LOOP(NAME, TO, TI, C, U, LOAD, STORE, BODY)                                      \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *vctx) {                    \
        cpu_binary_ctx *ctx = vctx;                                                                \
        const U alpha = CPU_ALPHA(U, ctx);                                                         \
        int err = 0;                                                                               \
        TO *o = (TO *)p[0];                                                                        \
        const TI *a = (const TI *)p[1], *b = (const TI *)p[2];                                     \
        (void)alpha;                                                                               \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1) {                                                 \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i]), y = LOAD(b[i]);                                            \
                o[i] = STORE(BODY(C, U, x, y));                                                    \
            }                                                                                      \
        } else if (s[0] == 1 && s[1] == 1 && s[2] == 0) {                                          \
            const C y = LOAD(b[0]);                                                                \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i]);                                                            \
                o[i] = STORE(BODY(C, U, x, y));                                                    \
            }                                                                                      \
        } else if (s[0] == 1 && s[1] == 0 && s[2] == 1) {                                          \
            const C x = LOAD(a[0]);                                                                \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C y = LOAD(b[i]);                                                            \
                o[i] = STORE(BODY(C, U, x, y));                                                    \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i * s[1]]), y = LOAD(b[i * s[2]]);                              \
                o[i * s[0]] = STORE(BODY(C, U, x, y));                                             \
            }                                                                                      \
        }                                                                                          \
        if (err) __atomic_fetch_or(&ctx->error, err, __ATOMIC_RELAXED);                            \
    }

#define CPU_UNARY_LOOP(NAME, TO, TI, C, U, LOAD, STORE, BODY)                                       \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *vctx) {                    \
        TO *o = (TO *)p[0];                                                                        \
        const TI *a = (const TI *)p[1];                                                            \
        (void)vctx;                                                                                \
        if (s[0] == 1 && s[1] == 1) {                                                              \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i]);                                                            \
                o[i] = STORE(BODY(C, U, x));                                                       \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i * s[1]]);                                                     \
                o[i * s[0]] = STORE(BODY(C, U, x));                                                \
            }                                                                                      \
        }                                                                                          \
    }

/* Three inputs: BODY(C, U, x, y, z), with `alpha` and `err` as for binary loops. Fast branches for
 * all-contiguous operands and for a contiguous first input with the other two broadcast (clamp or
 * lerp with scalar bounds or weight). */
#define CPU_TERNARY_LOOP(NAME, TO, TI, C, U, LOAD, STORE, BODY)                                     \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *vctx) {                    \
        cpu_binary_ctx *ctx = vctx;                                                                \
        const U alpha = CPU_ALPHA(U, ctx);                                                         \
        int err = 0;                                                                               \
        TO *o = (TO *)p[0];                                                                        \
        const TI *a = (const TI *)p[1], *b = (const TI *)p[2], *c = (const TI *)p[3];              \
        (void)alpha;                                                                               \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1 && s[3] == 1) {                                    \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i]), y = LOAD(b[i]), z = LOAD(c[i]);                            \
                o[i] = STORE(BODY(C, U, x, y, z));                                                 \
            }                                                                                      \
        } else if (s[0] == 1 && s[1] == 1 && s[2] == 0 && s[3] == 0) {                             \
            const C y = LOAD(b[0]), z = LOAD(c[0]);                                                \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i]);                                                            \
                o[i] = STORE(BODY(C, U, x, y, z));                                                 \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C x = LOAD(a[i * s[1]]), y = LOAD(b[i * s[2]]), z = LOAD(c[i * s[3]]);       \
                o[i * s[0]] = STORE(BODY(C, U, x, y, z));                                          \
            }                                                                                      \
        }                                                                                          \
        if (err) __atomic_fetch_or(&ctx->error, err, __ATOMIC_RELAXED);                            \
    }

/* Runs a binary loop: outputs[0] = f(inputs[0], inputs[1]), alpha from scalars[0] (default 1).
 * Turns the loop's error bits into the op's error. */
int cpu_binary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op);

/* The loop that copies elements of `elsize` bytes (1, 2, 4, 8 or 16) unchanged: out = in (copy.c). */
cpu_loop_fn cpu_bits_loop(size_t elsize);

/* Runs a unary (or conversion) loop: outputs[0] = f(inputs[0]). */
int cpu_unary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op);

/* The same for loops written for inputs of `dtype`: inputs of another dtype are converted while
 * loading (cpu_iterate_as), so the kernels can be registered with TC_KERNEL_CONVERTS_INPUTS. The
 * ternary form runs a CPU_TERNARY_LOOP over inputs[0..2], alpha from scalars[0]. */
int cpu_binary_apply_as(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int32_t dtype);
int cpu_unary_apply_as(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int32_t dtype);
int cpu_ternary_apply_as(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int32_t dtype);

#endif
