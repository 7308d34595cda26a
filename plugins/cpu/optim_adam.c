/*
 * optim_adam.c - the fused updates of the Adam family: Adam and AdamW (amsgrad), Adamax, NAdam and
 * RAdam, each PyTorch 1.13's single-tensor step element by element (optim.h says how roundings and
 * fused multiply-adds follow PyTorch's). The optimizers pass the per-step numbers (bias corrections,
 * step sizes) computed in Python's double arithmetic, as PyTorch computes them.
 */
#include <tgmath.h>

#include "optim.h"

/* The two moments every member keeps: m = beta1 m + (1 - beta1) g (mul_, then add_ with alpha) and
 * v = beta2 v + (1 - beta2) g g (mul_, then addcmul_). */
#define ADAM_MOMENTS(S, C, m, v, g, b1, keep1, b2, keep2)                                          \
    const C m = OPTIM_R(S, fma(keep1, g, OPTIM_R(S, OPTIM_LD(S, exp_avg[i]) * b1)));               \
    const C v = OPTIM_R(S, fma(keep2 * g, g, OPTIM_R(S, OPTIM_LD(S, exp_avg_sq[i]) * b2)));        \
    exp_avg[i] = OPTIM_ST(S, m);                                                                   \
    exp_avg_sq[i] = OPTIM_ST(S, v);

#define ADAM_COEFFS(C, first)                                                                      \
    const C b1 = (C)OPTIM_F(first), keep1 = (C)(1 - OPTIM_F(first));                               \
    const C b2 = (C)OPTIM_F(first + 1), keep2 = (C)(1 - OPTIM_F(first + 1));

/* ---- adam_update: floats beta1, beta2, weight_decay, decay (AdamW's 1 - lr * weight_decay, 1 for
 * Adam), eps, step_size, bias_correction2_sqrt; bools maximize; outputs param, exp_avg, exp_avg_sq[,
 * max_exp_avg_sq (amsgrad)]; input grad ---- */
static const optim_contract adam_update_contract = {"adam_update", 1, 3, 4, 5, 7, 1, NULL};

/* amsgrad is a separate loop; the flags are selects, so that the loops vectorise. */
#define ADAM_LOOP(S, T, C, AMSGRAD)                                                                \
    for (int64_t i = b; i < e; i++) {                                                              \
        C p = OPTIM_LD(S, param[i]);                                                               \
        C g = OPTIM_LD(S, grad[i]) * flip;                                                         \
        p = decoupled ? OPTIM_R(S, p * shrink) : p;                                                \
        g = decay ? OPTIM_R(S, fma(wd, p, g)) : g;                                                 \
        ADAM_MOMENTS(S, C, m, v, g, b1, keep1, b2, keep2)                                          \
        C src = v;                                                                                 \
        if (AMSGRAD) {                                                                             \
            src = OPTIM_MAX(OPTIM_LD(S, vmax[i]), v);                                              \
            vmax[i] = OPTIM_ST(S, src);                                                            \
        }                                                                                          \
        const C denom = OPTIM_R(S, OPTIM_R(S, OPTIM_R(S, sqrt(src)) / bc2) + eps);                 \
        param[i] = OPTIM_ST(S, p + neg_step * m / denom);                                          \
    }

#define adam_update_BODY(S, T, C)                                                                  \
    T *restrict param = OPTIM_OUT(T, 0), *restrict exp_avg = OPTIM_OUT(T, 1);                      \
    T *restrict exp_avg_sq = OPTIM_OUT(T, 2), *restrict vmax = a->n_outputs > 3 ? OPTIM_OUT(T, 3) : NULL; \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    ADAM_COEFFS(C, 0)                                                                              \
    const C wd = (C)OPTIM_F(2), shrink = (C)OPTIM_F(3), eps = (C)OPTIM_F(4);                       \
    const C neg_step = (C)-OPTIM_F(5), bc2 = (C)OPTIM_F(6), flip = OPTIM_B(0) ? -1 : 1;            \
    const bool decay = OPTIM_F(2) != 0, decoupled = OPTIM_F(3) != 1;                              \
    if (vmax)                                                                                      \
        ADAM_LOOP(S, T, C, 1)                                                                      \
    else                                                                                           \
        ADAM_LOOP(S, T, C, 0)

/* ---- adamax_update: floats beta1, beta2, eps, weight_decay, clr (lr / bias correction); bools
 * maximize; outputs param, exp_avg, exp_inf; input grad ---- */
static const optim_contract adamax_update_contract = {"adamax_update", 1, 3, 3, 4, 5, 1, NULL};

#define adamax_update_BODY(S, T, C)                                                                \
    T *restrict param = OPTIM_OUT(T, 0), *restrict exp_avg = OPTIM_OUT(T, 1), *restrict exp_inf = OPTIM_OUT(T, 2); \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C b1 = (C)OPTIM_F(0), keep1 = (C)(1 - OPTIM_F(0)), b2 = (C)OPTIM_F(1);                   \
    const C eps = (C)OPTIM_F(2), wd = (C)OPTIM_F(3), neg_clr = (C)-OPTIM_F(4), flip = OPTIM_B(0) ? -1 : 1; \
    const bool decay = OPTIM_F(3) != 0;                                                            \
    for (int64_t i = b; i < e; i++) {                                                              \
        OPTIM_DECAYED_GRAD(S, C, p, g);                                                            \
        const C m = OPTIM_R(S, fma(keep1, g, OPTIM_R(S, OPTIM_LD(S, exp_avg[i]) * b1)));           \
        exp_avg[i] = OPTIM_ST(S, m);                                                               \
        const C decayed = OPTIM_R(S, OPTIM_LD(S, exp_inf[i]) * b2);                                \
        const C fresh = OPTIM_R(S, OPTIM_R(S, fabs(g)) + eps);                                     \
        const C u = OPTIM_MAX(decayed, fresh);                                                     \
        exp_inf[i] = OPTIM_ST(S, u);                                                               \
        param[i] = OPTIM_ST(S, p + neg_clr * m / u);                                               \
    }

/* ---- nadam_update: floats beta1, beta2, weight_decay, eps, bias_correction2, grad_coeff and
 * exp_avg_coeff (the values PyTorch passes addcdiv_); outputs param, exp_avg, exp_avg_sq; input grad ---- */
static const optim_contract nadam_update_contract = {"nadam_update", 1, 3, 3, 4, 7, 0, NULL};

#define nadam_update_BODY(S, T, C)                                                                 \
    T *restrict param = OPTIM_OUT(T, 0), *restrict exp_avg = OPTIM_OUT(T, 1);                      \
    T *restrict exp_avg_sq = OPTIM_OUT(T, 2);                                                      \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    ADAM_COEFFS(C, 0)                                                                              \
    const C wd = (C)OPTIM_F(2), eps = (C)OPTIM_F(3), bc2 = (C)OPTIM_F(4);                          \
    const C cg = (C)OPTIM_F(5), cm = (C)OPTIM_F(6);                                                \
    const bool decay = OPTIM_F(2) != 0;                                                            \
    for (int64_t i = b; i < e; i++) {                                                              \
        C p = OPTIM_LD(S, param[i]);                                                               \
        C g = OPTIM_LD(S, grad[i]);                                                                \
        g = decay ? OPTIM_R(S, fma(wd, p, g)) : g;                                                 \
        ADAM_MOMENTS(S, C, m, v, g, b1, keep1, b2, keep2)                                          \
        const C denom = OPTIM_R(S, OPTIM_R(S, sqrt(OPTIM_R(S, v / bc2))) + eps);                   \
        p = OPTIM_R(S, p + cg * g / denom);                                                        \
        param[i] = OPTIM_ST(S, p + cm * m / denom);                                                \
    }

/* ---- radam_update: floats lr, beta1, beta2, weight_decay, eps, bias_correction1,
 * bias_correction2_sqrt, rect; bools rectified (rho_t > 5); outputs param, exp_avg, exp_avg_sq; input
 * grad. `number / tensor` is reciprocal() * number in PyTorch's Python, and rounds so here too. ---- */
static const optim_contract radam_update_contract = {"radam_update", 1, 3, 3, 4, 8, 1, NULL};

#define radam_update_BODY(S, T, C)                                                                 \
    T *restrict param = OPTIM_OUT(T, 0), *restrict exp_avg = OPTIM_OUT(T, 1);                      \
    T *restrict exp_avg_sq = OPTIM_OUT(T, 2);                                                      \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C lr = (C)OPTIM_F(0);                                                                    \
    ADAM_COEFFS(C, 1)                                                                              \
    const C wd = (C)OPTIM_F(3), eps = (C)OPTIM_F(4), bc1 = (C)OPTIM_F(5), bc2 = (C)OPTIM_F(6);     \
    const C rect = (C)OPTIM_F(7);                                                                  \
    const bool decay = OPTIM_F(3) != 0, rectified = OPTIM_B(0);                                   \
    for (int64_t i = b; i < e; i++) {                                                              \
        const C p = OPTIM_LD(S, param[i]);                                                         \
        C g = OPTIM_LD(S, grad[i]);                                                                \
        g = decay ? OPTIM_R(S, fma(wd, p, g)) : g;                                                 \
        ADAM_MOMENTS(S, C, m, v, g, b1, keep1, b2, keep2)                                          \
        const C corrected = OPTIM_R(S, m / bc1);                                                   \
        const C update = OPTIM_R(S, corrected * lr);                                               \
        const C adaptive = OPTIM_R(S, OPTIM_R(S, (C)1 / OPTIM_R(S, OPTIM_R(S, sqrt(v)) + eps)) * bc2); \
        const C rectified_update = OPTIM_R(S, OPTIM_R(S, update * adaptive) * rect);               \
        param[i] = OPTIM_ST(S, p - (rectified ? rectified_update : update));                       \
    }

#define KERNELS(X, A) X(A, adam_update) X(A, adamax_update) X(A, nadam_update) X(A, radam_update)
#define STAMP(unused, S) KERNELS(OPTIM_DEFINE, S)
CPU_DTYPES_FLOAT(STAMP, _)
#define ENTRIES(unused, S) KERNELS(OPTIM_ENTRY, S)
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRIES, _)};
CPU_KERNEL_TABLE(kernels);
