/*
 * optim.h - what the fused optimizer kernels (optim_sgd.c, optim_adam.c) share.
 *
 * Each kernel is one pass over a parameter, its gradient and its state (contiguous arrays of one
 * dtype; core/src/impl_optim.c guarantees it), doing per element exactly what PyTorch 1.13's
 * single-tensor optimizer does with a chain of tensor ops, so that the results are the same bits:
 *   - every op PyTorch runs as a separate kernel ends in a rounding to the tensor's dtype (R: a no-op
 *     for float32 and float64, which compute in their own precision; float16 and bfloat16 compute in
 *     float and round where PyTorch stores);
 *   - where PyTorch's compiled kernels fuse a multiply and an add (add with alpha, addcmul: GCC
 *     contracts `self + alpha * other` into an FMA, and its vectorised forms call fmadd), the kernel
 *     calls fma; everywhere else the C arithmetic is not contracted (-std=c11 implies
 *     -ffp-contract=off), so `a * b + c` rounds twice as PyTorch's separate ops do;
 *   - Python numbers become the dtype's values as PyTorch's Scalar conversions make them.
 * The body of a kernel is a macro over the dtype suffix S (dtype.h), stamped for the floating dtypes.
 */
#ifndef CPU_OPTIM_H
#define CPU_OPTIM_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "dtype.h"

/* What a kernel expects of its arguments: its float arguments start at args[first_float] and its bool
 * arguments follow them (the op's schema order); `check`, when set, validates the optional tensors
 * against the flags (on the calling thread, where errors may be raised). */
typedef struct optim_contract {
    const char *name;
    int32_t n_inputs;
    int32_t min_outputs, max_outputs;
    int32_t first_float, n_floats, n_bools;
    int (*check)(const tc_kernel_args *a);
} optim_contract;

/* Checks the arguments against the contract, then runs `range` over the elements on the pool. */
int optim_run(const tc_kernel_args *a, const optim_contract *contract, cpu_range_fn range);

/* Inside a body: `a` (the kernel args), `k` (its contract), the element type T and the compute type C of
 * suffix S. OPTIM_F(i) is the kernel's i-th float argument, OPTIM_B(i) its i-th bool. */
#define OPTIM_OUT(T, i) ((T *)a->outputs[i].data)
#define OPTIM_IN(T, i) ((const T *)a->inputs[i].data)
#define OPTIM_F(i) (a->args[k->first_float + (i)].v.f)
#define OPTIM_B(i) (a->args[k->first_float + k->n_floats + (i)].v.b)
#define OPTIM_LD(S, x) cpu_ld_##S(x)
#define OPTIM_ST(S, x) cpu_st_##S(x)
#define OPTIM_R(S, x) cpu_ld_##S(cpu_st_##S(x))

/* The start of an element's step in the loops: p = param[i] and g = grad[i], negated for maximize
 * (flip = -1), with weight decay added where `decay` (PyTorch's grad.add(param, alpha=wd)). */
#define OPTIM_DECAYED_GRAD(S, C, p, g)                                                             \
    const C p = OPTIM_LD(S, param[i]);                                                             \
    C g = OPTIM_LD(S, grad[i]) * flip;                                                             \
    g = decay ? OPTIM_R(S, fma(wd, p, g)) : g

/* torch.maximum / amax of two values: a NaN in either wins. */
#define OPTIM_MAX(x, y) (((x) > (y) || (x) != (x)) ? (x) : (y))
/* torch.sign: -1, 0 or 1; 0 for NaN, as PyTorch's kernel gives. */
#define OPTIM_SIGN(C, x) ((C)(((x) > 0) - ((x) < 0)))

/* Stamps kernel NAME for suffix S from NAME##_BODY(S, T, C), which may use `a`, `b` and `e`. */
#define OPTIM_DEFINE(S, NAME)                                                                      \
    static void NAME##_range_##S(void *ctx, int64_t b, int64_t e) {                                \
        const tc_kernel_args *a = ctx;                                                             \
        const optim_contract *k = &NAME##_contract;                                                \
        NAME##_BODY(S, CPU_T_##S, CPU_C_##S)                                                       \
    }                                                                                              \
    static int k_##NAME##_##S(const tc_kernel_args *args) {                                        \
        return optim_run(args, &NAME##_contract, NAME##_range_##S);                                \
    }
#define OPTIM_ENTRY(S, NAME) {#NAME, CPU_DT_##S, k_##NAME##_##S},

#endif
