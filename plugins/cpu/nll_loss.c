/*
 * nll_loss.c - nll_loss_forward, nll_loss2d_forward and their backward kernels.
 *
 * The core hands contiguous operands (meta_loss.c). A 1-D input is one sample of C classes, a 2-D
 * one N samples, a 4-D one (nll_loss2d) N samples of C x H x W; all are addressed as [N, C, M]
 * with the target [N, M]. Targets are int64 or uint8; an out-of-range target raises IndexError.
 *
 * Reductions replay PyTorch's cascade sum (eight levels of partial sums in the input's dtype), so
 * float32 results match it bit for bit; 16-bit floats round after every operation, as
 * c10::BFloat16 arithmetic does. The work is a gather of one element per sample, run on the
 * calling thread.
 */
#include "cpu.h"
#include "dtype.h"

enum { REDUCE_NONE = 0, REDUCE_MEAN = 1 };

typedef struct nll_shape {
    int64_t n, c, m;
    bool spatial; /* nll_loss2d: its backward divides after multiplying, as PyTorch's does */
} nll_shape;

static nll_shape shape_of(const tc_view *x) {
    nll_shape s = {1, 1, 1, x->ndim == 4};
    if (x->ndim == 1) {
        s.c = x->sizes[0];
    } else {
        s.n = x->sizes[0];
        s.c = x->sizes[1];
        for (int32_t d = 2; d < x->ndim; d++) s.m *= x->sizes[d];
    }
    return s;
}

static int64_t target_at(const tc_view *t, int64_t i) {
    return t->dtype == TC_UINT8 ? (int64_t)((const uint8_t *)t->data)[i] : ((const int64_t *)t->data)[i];
}

static int out_of_bounds(int64_t t) { return cpu_core->set_error(TC_ERR_INDEX, "Target %lld is out of bounds.", (long long)t); }

static int ceil_log2(int64_t x) {
    int r = 0;
    while (r < 63 && ((int64_t)1 << r) < x) r++;
    return r;
}

/* R(x) rounds a computed value as the dtype S stores it (a no-op for float32 and float64). */
#define NLL_DEFINE(S)                                                                              \
    static inline CPU_C_##S round_##S(CPU_C_##S x) { return cpu_ld_##S(cpu_st_##S(x)); }          \
    static int forward_##S(const tc_kernel_args *a, nll_shape s, int64_t reduction, int64_t ignore) { \
        const CPU_T_##S *x = a->inputs[0].data;                                                    \
        const tc_view *t = &a->inputs[1];                                                          \
        const CPU_T_##S *w = a->n_inputs > 2 ? a->inputs[2].data : NULL;                           \
        CPU_T_##S *out = a->outputs[0].data, *total = a->outputs[1].data;                          \
        *total = cpu_st_##S(0);                                                                    \
        if (reduction == REDUCE_NONE && a->outputs[0].ndim > 0) {                                  \
            for (int64_t b = 0; b < s.n; b++)                                                      \
                for (int64_t k = 0; k < s.m; k++) {                                                \
                    const int64_t i = b * s.m + k, tg = target_at(t, i);                           \
                    if (tg == ignore) {                                                            \
                        out[i] = cpu_st_##S(0);                                                    \
                        continue;                                                                  \
                    }                                                                              \
                    if (tg < 0 || tg >= s.c) return out_of_bounds(tg);                             \
                    const CPU_C_##S wv = w ? cpu_ld_##S(w[tg]) : (CPU_C_##S)1;                     \
                    out[i] = cpu_st_##S(-cpu_ld_##S(x[(b * s.c + tg) * s.m + k]) * wv);            \
                }                                                                                  \
            return TC_OK;                                                                          \
        }                                                                                          \
        enum { LEVELS = 8 };                                                                       \
        const int64_t count = s.n * s.m;                                                           \
        const int power = ceil_log2(count) / LEVELS > 4 ? ceil_log2(count) / LEVELS : 4;           \
        const int64_t mask = ((int64_t)1 << power) - 1;                                            \
        CPU_C_##S loss[LEVELS] = {0}, wsum[LEVELS] = {0};                                          \
        int64_t ignored = 0;                                                                       \
        for (int64_t i = 0; i < count; i++) {                                                      \
            const int64_t b = i / s.m, k = i % s.m, tg = target_at(t, i);                          \
            if (tg == ignore) {                                                                    \
                ignored++;                                                                         \
                continue;                                                                          \
            }                                                                                      \
            if (tg < 0 || tg >= s.c) return out_of_bounds(tg);                                     \
            const CPU_C_##S v = cpu_ld_##S(x[(b * s.c + tg) * s.m + k]);                           \
            if (w) {                                                                               \
                const CPU_C_##S wv = cpu_ld_##S(w[tg]);                                            \
                loss[0] = round_##S(loss[0] - round_##S(v * wv));                                  \
                wsum[0] = round_##S(wsum[0] + wv);                                                 \
            } else {                                                                               \
                loss[0] = round_##S(loss[0] - v);                                                  \
            }                                                                                      \
            for (int j = 0; j + 1 < LEVELS; j++) {                                                 \
                if (i & (mask << (j * power))) break;                                              \
                wsum[j + 1] = round_##S(wsum[j + 1] + wsum[j]);                                    \
                loss[j + 1] = round_##S(loss[j + 1] + loss[j]);                                    \
                wsum[j] = loss[j] = 0;                                                             \
            }                                                                                      \
        }                                                                                          \
        CPU_C_##S tw = 0, lv = 0;                                                                  \
        for (int j = 0; j < LEVELS; j++) {                                                         \
            tw = round_##S(tw + wsum[j]);                                                          \
            lv = round_##S(lv + loss[j]);                                                          \
        }                                                                                          \
        if (!w) tw = round_##S((CPU_C_##S)(count - ignored));                                      \
        if (reduction == REDUCE_MEAN) lv = round_##S(lv / tw);                                     \
        *out = cpu_st_##S(lv);                                                                     \
        *total = cpu_st_##S(tw);                                                                   \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int backward_##S(const tc_kernel_args *a, nll_shape s, int64_t reduction, int64_t ignore) { \
        const CPU_T_##S *g = a->inputs[0].data;                                                    \
        const tc_view *t = &a->inputs[1];                                                          \
        const CPU_T_##S *total = a->inputs[2].data;                                                \
        const CPU_T_##S *w = a->n_inputs > 3 ? a->inputs[3].data : NULL;                           \
        CPU_T_##S *gi = a->outputs[0].data;                                                        \
        const int64_t count = s.n * s.m;                                                           \
        for (int64_t i = 0; i < count * s.c; i++) gi[i] = cpu_st_##S(0);                           \
        const bool per_item = reduction == REDUCE_NONE && a->inputs[0].ndim > 0;                   \
        const CPU_C_##S g0 = cpu_ld_##S(g[0]), tw = cpu_ld_##S(total[0]);                          \
        const CPU_C_##S norm = reduction == REDUCE_MEAN ? tw : (CPU_C_##S)1;                       \
        const CPU_C_##S scaled = round_##S(-round_##S(reduction == REDUCE_MEAN ? round_##S(g0 / tw) : g0)); \
        for (int64_t i = 0; i < count; i++) {                                                      \
            const int64_t b = i / s.m, k = i % s.m, tg = target_at(t, i);                          \
            if (tg == ignore) continue;                                                            \
            if (tg < 0 || tg >= s.c) return out_of_bounds(tg);                                     \
            const CPU_C_##S wv = w ? cpu_ld_##S(w[tg]) : (CPU_C_##S)1;                             \
            CPU_C_##S v;                                                                           \
            if (per_item) v = round_##S(-wv * cpu_ld_##S(g[i]));                                   \
            else if (s.spatial) v = round_##S(round_##S(-wv * g0) / norm);                         \
            else v = w ? round_##S(wv * scaled) : scaled;                                          \
            gi[(b * s.c + tg) * s.m + k] = cpu_st_##S(v);                                          \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
NLL_DEFINE(bf16)
NLL_DEFINE(f32)
NLL_DEFINE(f64)

static int k_nll_forward(const tc_kernel_args *a) {
    if (cpu_check_args(a, 2, 2, "nll_loss_forward")) return TC_FAIL;
    const nll_shape s = shape_of(&a->inputs[0]);
    const int64_t reduction = a->args[3].v.i, ignore = a->args[4].v.i;
    switch (a->outputs[0].dtype) {
    case TC_BFLOAT16: return forward_bf16(a, s, reduction, ignore);
    case TC_FLOAT32: return forward_f32(a, s, reduction, ignore);
    default: return forward_f64(a, s, reduction, ignore);
    }
}

static int k_nll_backward(const tc_kernel_args *a) {
    if (cpu_check_args(a, 3, 1, "nll_loss_backward")) return TC_FAIL;
    const nll_shape s = shape_of(&a->outputs[0]);
    const int64_t reduction = a->args[4].v.i, ignore = a->args[5].v.i;
    switch (a->outputs[0].dtype) {
    case TC_BFLOAT16: return backward_bf16(a, s, reduction, ignore);
    case TC_FLOAT32: return backward_f32(a, s, reduction, ignore);
    default: return backward_f64(a, s, reduction, ignore);
    }
}

#define FLOATS(OP, FN) {OP, TC_BFLOAT16, FN}, {OP, TC_FLOAT32, FN}, {OP, TC_FLOAT64, FN}
static const cpu_kernel_entry kernels[] = {
    FLOATS("nll_loss_forward", k_nll_forward),
    FLOATS("nll_loss2d_forward", k_nll_forward),
    FLOATS("nll_loss_backward", k_nll_backward),
    FLOATS("nll_loss2d_backward", k_nll_backward),
};
CPU_KERNEL_TABLE(kernels);
