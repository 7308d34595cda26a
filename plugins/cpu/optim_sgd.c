/*
 * optim_sgd.c - the fused updates of the plain-gradient optimizers: SGD (momentum, dampening,
 * Nesterov), ASGD and Rprop, each PyTorch 1.13's single-tensor step element by element (optim.h
 * says how roundings and fused multiply-adds follow PyTorch's).
 */
#include <tgmath.h>

#include "optim.h"

/* ---- sgd_update: floats lr, weight_decay, momentum, dampening; bools nesterov, maximize, first_step;
 * outputs param[, momentum_buffer]; input grad ---- */
static const optim_contract sgd_update_contract;
static int sgd_check(const tc_kernel_args *a) {
    const optim_contract *k = &sgd_update_contract;
    if ((a->n_outputs == 2) == (OPTIM_F(2) != 0)) return TC_OK;
    return cpu_core->set_error(TC_ERR_RUNTIME, "_sgd_update_: a momentum_buffer is needed exactly when momentum "
                                               "is not 0");
}
static const optim_contract sgd_update_contract = {"sgd_update", 1, 1, 2, 3, 4, 3, sgd_check};

/* The buffer's presence and the first step are separate loops; the flags are selects, so that the
 * loops vectorise. */
#define SGD_LOOP(S, T, C, HAS_BUF, FIRST)                                                          \
    for (int64_t i = b; i < e; i++) {                                                              \
        OPTIM_DECAYED_GRAD(S, C, p, g);                                                            \
        if (HAS_BUF) {                                                                             \
            const C m = (FIRST) ? g : OPTIM_R(S, fma(keep, g, OPTIM_R(S, OPTIM_LD(S, buf[i]) * mom))); \
            buf[i] = OPTIM_ST(S, m);                                                               \
            g = nesterov ? OPTIM_R(S, fma(mom, m, g)) : m;                                         \
        }                                                                                          \
        param[i] = OPTIM_ST(S, fma(neg_lr, g, p));                                                 \
    }

#define sgd_update_BODY(S, T, C)                                                                   \
    T *restrict param = OPTIM_OUT(T, 0), *restrict buf = a->n_outputs > 1 ? OPTIM_OUT(T, 1) : NULL; \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C neg_lr = (C)-OPTIM_F(0), wd = (C)OPTIM_F(1), mom = (C)OPTIM_F(2), keep = (C)(1 - OPTIM_F(3)); \
    const C flip = OPTIM_B(1) ? -1 : 1; /* maximize: -g, exactly */                                \
    const bool decay = OPTIM_F(1) != 0, nesterov = OPTIM_B(0);                                    \
    if (!buf)                                                                                      \
        SGD_LOOP(S, T, C, 0, 0)                                                                    \
    else if (OPTIM_B(2))                                                                           \
        SGD_LOOP(S, T, C, 1, 1)                                                                    \
    else                                                                                           \
        SGD_LOOP(S, T, C, 1, 0)

/* ---- asgd_update: floats eta, mu, lambd, weight_decay (eta and mu: the float32 values of
 * PyTorch's state tensors); bools maximize; outputs param, ax; input grad ---- */
static const optim_contract asgd_update_contract = {"asgd_update", 1, 2, 2, 3, 4, 1, NULL};

#define asgd_update_BODY(S, T, C)                                                                  \
    T *restrict param = OPTIM_OUT(T, 0), *restrict ax = OPTIM_OUT(T, 1);                           \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C shrink = (C)(1 - OPTIM_F(2) * OPTIM_F(0)), neg_eta = (C)-OPTIM_F(0), mu = (C)OPTIM_F(1); \
    const C wd = (C)OPTIM_F(3), flip = OPTIM_B(0) ? -1 : 1;                                        \
    const bool decay = OPTIM_F(3) != 0, average = OPTIM_F(1) != 1;                                \
    for (int64_t i = b; i < e; i++) {                                                              \
        C p = OPTIM_LD(S, param[i]);                                                               \
        C g = OPTIM_LD(S, grad[i]) * flip;                                                         \
        g = decay ? OPTIM_R(S, fma(wd, p, g)) : g;                                                 \
        p = OPTIM_R(S, p * shrink);                                                                \
        p = OPTIM_R(S, fma(neg_eta, g, p));                                                        \
        param[i] = OPTIM_ST(S, p);                                                                 \
        const C x = OPTIM_LD(S, ax[i]);                                                            \
        ax[i] = OPTIM_ST(S, average ? x + OPTIM_R(S, OPTIM_R(S, p - x) * mu) : p);                 \
    }

/* ---- rprop_update: floats etaminus, etaplus, step_size_min, step_size_max; bools maximize;
 * outputs param, prev, step_size; input grad. PyTorch writes the sign tensor with three masked
 * fills in turn (> 0, then < 0, then == 0), so each test sees the previous fills' values. ---- */
static const optim_contract rprop_update_contract = {"rprop_update", 1, 3, 3, 4, 4, 1, NULL};

#define rprop_update_BODY(S, T, C)                                                                 \
    T *restrict param = OPTIM_OUT(T, 0), *restrict prev = OPTIM_OUT(T, 1), *restrict step = OPTIM_OUT(T, 2); \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C minus = (C)OPTIM_F(0), plus = (C)OPTIM_F(1), lo = (C)OPTIM_F(2), hi = (C)OPTIM_F(3);   \
    const C flip = OPTIM_B(0) ? -1 : 1;                                                            \
    for (int64_t i = b; i < e; i++) {                                                              \
        C g = OPTIM_LD(S, grad[i]) * flip;                                                         \
        C s = OPTIM_SIGN(C, OPTIM_R(S, g * OPTIM_LD(S, prev[i])));                                 \
        s = s > 0 ? plus : s;                                                                      \
        s = s < 0 ? minus : s;                                                                     \
        s = s == 0 ? 1 : s;                                                                        \
        C st = OPTIM_R(S, OPTIM_LD(S, step[i]) * s);                                               \
        st = st < lo ? lo : st; /* clamp_: a NaN stays */                                          \
        st = hi < st ? hi : st;                                                                    \
        g = s == minus ? 0 : g;                                                                    \
        step[i] = OPTIM_ST(S, st);                                                                 \
        prev[i] = OPTIM_ST(S, g);                                                                  \
        param[i] = OPTIM_ST(S, fma(-OPTIM_SIGN(C, g), st, OPTIM_LD(S, param[i])));                 \
    }

#define KERNELS(X, A) X(A, sgd_update) X(A, asgd_update) X(A, rprop_update)
#define STAMP(unused, S) KERNELS(OPTIM_DEFINE, S)
CPU_DTYPES_FLOAT(STAMP, _)
#define ENTRIES(unused, S) KERNELS(OPTIM_ENTRY, S)
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRIES, _)};
CPU_KERNEL_TABLE(kernels);
