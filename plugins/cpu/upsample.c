/*
 * upsample.c - nearest and (bi)linear upsampling and their backward ops (contract in
 * core/src/meta_upsample.c).
 *
 * Source positions follow PyTorch's UpSample.h in its precision: nearest reads floor(dst * scale)
 * computed in float; linear reads between floor(src) and the next element, src = scale * dst with
 * align_corners, else scale * (dst + 0.5) - 0.5 clamped at 0, the weights in the compute type. The
 * positions of one axis are computed once per kernel call. The backward ops add each output
 * gradient into the input positions it was read from.
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"

enum { UP_NEAREST, UP_LINEAR };

typedef struct axis {
    int64_t *i0, *i1; /* the two source positions of each output position (nearest: i1 unused) */
    double *l0, *l1;  /* their weights */
} axis;

typedef struct up_job {
    const void *in;
    void *out;
    int64_t ih, iw, oh, ow;
    int mode;
    axis h, w;
} up_job;

/* compute_scales_value: 1 / the user's scale factor, or in / out */
static double scales_value(double scale, int64_t in, int64_t out) {
    return scale > 0 ? 1.0 / scale : (double)in / (double)out;
}

static void nearest_axis(axis *a, int64_t in, int64_t out, double scale) {
    const float s = (float)scales_value(scale, in, out);
    for (int64_t o = 0; o < out; o++) {
        int64_t src = out == in ? o : out == 2 * in ? o >> 1 : (int64_t)floorf((float)o * s);
        a->i0[o] = src < in - 1 ? src : in - 1;
    }
}

/* area_pixel_compute_scale / _source_index and guard_index_and_lambda, in `single` (float) or double */
static void linear_axis(axis *a, int64_t in, int64_t out, double scale, bool align, bool single) {
    double s = align ? (out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0) : scales_value(scale, in, out);
    if (single) s = (float)s;
    for (int64_t o = 0; o < out; o++) {
        double src;
        if (single) {
            const float fs = (float)s;
            float r = align ? fs * (float)o : fs * ((float)o + 0.5f) - 0.5f;
            src = !align && r < 0 ? 0.0f : r;
        } else {
            double r = align ? s * (double)o : s * ((double)o + 0.5) - 0.5;
            src = !align && r < 0 ? 0.0 : r;
        }
        int64_t i0 = (int64_t)floor(src);
        if (i0 > in - 1) i0 = in - 1;
        double l1 = src - (double)i0;
        if (single) l1 = (float)((float)src - (float)i0);
        l1 = l1 < 0 ? 0 : l1 > 1 ? 1 : l1;
        a->i0[o] = i0;
        a->i1[o] = i0 + (i0 < in - 1 ? 1 : 0);
        a->l1[o] = l1;
        a->l0[o] = single ? (float)(1.0f - (float)l1) : 1.0 - l1;
    }
}

#define UP_STAMP(_, S)                                                                             \
    static void up_planes_##S(void *vj, int64_t p0, int64_t p1) {                                  \
        const up_job *j = vj;                                                                      \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + p * j->ih * j->iw;                      \
            CPU_T_##S *y = (CPU_T_##S *)j->out + p * j->oh * j->ow;                                 \
            for (int64_t oh = 0; oh < j->oh; oh++) {                                               \
                const CPU_T_##S *r0 = x + j->h.i0[oh] * j->iw;                                     \
                if (j->mode == UP_NEAREST) {                                                       \
                    for (int64_t ow = 0; ow < j->ow; ow++) y[oh * j->ow + ow] = r0[j->w.i0[ow]];   \
                    continue;                                                                      \
                }                                                                                  \
                const CPU_T_##S *r1 = x + j->h.i1[oh] * j->iw;                                     \
                const CPU_C_##S h0 = (CPU_C_##S)j->h.l0[oh], h1 = (CPU_C_##S)j->h.l1[oh];          \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    const int64_t a = j->w.i0[ow], b = j->w.i1[ow];                                \
                    const CPU_C_##S w0 = (CPU_C_##S)j->w.l0[ow], w1 = (CPU_C_##S)j->w.l1[ow];      \
                    const CPU_C_##S top = w0 * cpu_ld_##S(r0[a]) + w1 * cpu_ld_##S(r0[b]);         \
                    const CPU_C_##S bottom = w0 * cpu_ld_##S(r1[a]) + w1 * cpu_ld_##S(r1[b]);      \
                    y[oh * j->ow + ow] = cpu_st_##S(h0 * top + h1 * bottom);                       \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void up_back_planes_##S(void *vj, int64_t p0, int64_t p1) {                             \
        const up_job *j = vj;                                                                      \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *gy = (const CPU_T_##S *)j->in + p * j->oh * j->ow;                     \
            CPU_T_##S *gx = (CPU_T_##S *)j->out + p * j->ih * j->iw;                                \
            memset(gx, 0, sizeof(CPU_T_##S) * (size_t)(j->ih * j->iw));                            \
            for (int64_t oh = 0; oh < j->oh; oh++)                                                 \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    const CPU_C_##S g = cpu_ld_##S(gy[oh * j->ow + ow]);                           \
                    if (j->mode == UP_NEAREST) {                                                   \
                        CPU_T_##S *t = gx + j->h.i0[oh] * j->iw + j->w.i0[ow];                     \
                        *t = cpu_st_##S(cpu_ld_##S(*t) + g);                                       \
                        continue;                                                                  \
                    }                                                                              \
                    const int64_t hs[2] = {j->h.i0[oh], j->h.i1[oh]}, ws[2] = {j->w.i0[ow], j->w.i1[ow]}; \
                    const CPU_C_##S hl[2] = {(CPU_C_##S)j->h.l0[oh], (CPU_C_##S)j->h.l1[oh]};      \
                    const CPU_C_##S wl[2] = {(CPU_C_##S)j->w.l0[ow], (CPU_C_##S)j->w.l1[ow]};      \
                    for (int a = 0; a < 2; a++)                                                    \
                        for (int b = 0; b < 2; b++) {                                              \
                            CPU_T_##S *t = gx + hs[a] * j->iw + ws[b];                             \
                            *t = cpu_st_##S(cpu_ld_##S(*t) + g * hl[a] * wl[b]);                   \
                        }                                                                          \
                }                                                                                  \
        }                                                                                          \
    }
UP_STAMP(_, u8)
CPU_DTYPES_FLOAT(UP_STAMP, _)

/* [planes][H][W] of a 3-D (1-D upsampling: H = 1) or 4-D view */
static void plane_sizes(const tc_view *v, int64_t *planes, int64_t *h, int64_t *w) {
    *planes = v->sizes[0] * v->sizes[1];
    *h = v->ndim == 4 ? v->sizes[2] : 1;
    *w = v->sizes[v->ndim - 1];
}

static int run(const tc_kernel_args *a, cpu_range_fn fn, bool backward, int32_t dtype) {
    if (cpu_check_args(a, 1, 1, backward ? "upsample_backward" : "upsample")) return TC_FAIL;
    const tc_view *big = backward ? &a->outputs[0] : &a->inputs[0], *small = backward ? &a->inputs[0] : &a->outputs[0];
    up_job j = {.in = a->inputs[0].data, .out = a->outputs[0].data, .mode = (int)a->ints[0]};
    int64_t planes;
    plane_sizes(big, &planes, &j.ih, &j.iw);
    plane_sizes(small, &planes, &j.oh, &j.ow);
    size_t count = (size_t)(j.oh + j.ow);
    size_t bytes = count * (2 * sizeof(int64_t) + 2 * sizeof(double));
    char *buf = cpu_core->host_alloc(bytes);
    if (!buf) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "upsample: out of memory");
    int64_t *ints = (int64_t *)(void *)buf;
    double *dbl = (double *)(void *)(buf + count * 2 * sizeof(int64_t));
    j.h = (axis){ints, ints + j.oh, dbl, dbl + j.oh};
    j.w = (axis){ints + 2 * j.oh, ints + 2 * j.oh + j.ow, dbl + 2 * j.oh, dbl + 2 * j.oh + j.ow};
    bool align = a->ints[1] != 0, single = dtype != TC_FLOAT64;
    if (j.mode == UP_NEAREST) {
        nearest_axis(&j.h, j.ih, j.oh, a->scalars[0].v.f);
        nearest_axis(&j.w, j.iw, j.ow, a->scalars[1].v.f);
    } else {
        linear_axis(&j.h, j.ih, j.oh, a->scalars[0].v.f, align, single);
        linear_axis(&j.w, j.iw, j.ow, a->scalars[1].v.f, align, single);
    }
    int64_t work;
    if (__builtin_mul_overflow(planes, (j.oh * j.ow + j.ih * j.iw) * (j.mode == UP_LINEAR ? 4 : 1), &work))
        work = INT64_MAX;
    cpu_parallel(planes, cpu_threads_for(work), fn, &j);
    cpu_core->host_free(buf, bytes);
    return TC_OK;
}

#define KERNELS(_, S)                                                                              \
    static int k_up_##S(const tc_kernel_args *a) { return run(a, up_planes_##S, false, CPU_DT_##S); } \
    static int k_up_back_##S(const tc_kernel_args *a) { return run(a, up_back_planes_##S, true, CPU_DT_##S); }
KERNELS(_, u8)
CPU_DTYPES_FLOAT(KERNELS, _)

#define ENTRY(_, S) {"upsample", CPU_DT_##S, k_up_##S}, {"upsample_backward", CPU_DT_##S, k_up_back_##S},
static const cpu_kernel_entry kernels[] = {ENTRY(_, u8) CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
