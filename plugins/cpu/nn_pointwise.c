/*
 * nn_pointwise.c - the driver of the nn family's elementwise kernels (see nn_pointwise.h).
 */
#include "nn_pointwise.h"

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"

typedef struct nnp_job {
    nnp_fn fn;
    const nnp_params *p;
    int nin;
    int32_t dtype;
} nnp_job;

/* One loop per storage type S computing in C: rows of the compute type that are contiguous go to
 * the block function as they are (DIRECT), everything else through blocks on the stack. */
#define NNP_LOOP(S, C, FN, DIRECT)                                                                 \
    static void loop_##S(int64_t n, char *const *ptr, const int64_t *s, const nnp_job *j) {        \
        _Alignas(64) C in[NNP_MAX_IN][NNP_BLOCK];                                                  \
        _Alignas(64) C out[NNP_BLOCK];                                                             \
        const C *xp[NNP_MAX_IN];                                                                   \
        CPU_T_##S *o = (CPU_T_##S *)ptr[0];                                                        \
        int direct = DIRECT && s[0] == 1;                                                          \
        for (int k = 0; k < j->nin; k++) direct &= s[k + 1] == 1;                                  \
        const int64_t step = direct ? j->fn.block : NNP_BLOCK;                                     \
        for (int64_t b = 0; b < n; b += step) {                                                    \
            const int64_t m = n - b < step ? n - b : step;                                         \
            for (int k = 0; k < j->nin; k++) {                                                     \
                const CPU_T_##S *x = (const CPU_T_##S *)ptr[k + 1];                                \
                const int64_t st = s[k + 1];                                                       \
                if (DIRECT && st == 1) {                                                           \
                    xp[k] = (const C *)(const void *)(x + b);                                      \
                } else if (st == 0) {                                                              \
                    const C v = cpu_ld_##S(x[0]);                                                  \
                    for (int64_t i = 0; i < m; i++) in[k][i] = v;                                  \
                    xp[k] = in[k];                                                                 \
                } else {                                                                           \
                    for (int64_t i = 0; i < m; i++) in[k][i] = cpu_ld_##S(x[(b + i) * st]);        \
                    xp[k] = in[k];                                                                 \
                }                                                                                  \
            }                                                                                      \
            C *yp = (DIRECT && s[0] == 1) ? (C *)(void *)(o + b) : out;                            \
            j->fn.FN(j->p, m, yp, xp);                                                             \
            if (yp == out)                                                                         \
                for (int64_t i = 0; i < m; i++) o[(b + i) * s[0]] = cpu_st_##S(out[i]);            \
        }                                                                                          \
    }
NNP_LOOP(f16, float, f32, 0)
NNP_LOOP(bf16, float, f32, 0)
NNP_LOOP(f32, float, f32, 1)
NNP_LOOP(f64, double, f64, 1)
#undef NNP_LOOP

static void loop(int64_t n, char *const *ptr, const int64_t *s, void *ctx) {
    const nnp_job *j = ctx;
    switch (j->dtype) {
    case TC_FLOAT16: loop_f16(n, ptr, s, j); break;
    case TC_BFLOAT16: loop_bf16(n, ptr, s, j); break;
    case TC_FLOAT32: loop_f32(n, ptr, s, j); break;
    default: loop_f64(n, ptr, s, j); break;
    }
}

static int floating(int32_t dtype) {
    return dtype == TC_FLOAT16 || dtype == TC_BFLOAT16 || dtype == TC_FLOAT32 || dtype == TC_FLOAT64;
}

int nnp_run_views(const tc_view *out, const tc_view *const *in, int nin, nnp_fn fn, const nnp_params *p) {
    if (nin > NNP_MAX_IN || nin + 1 > CPU_MAX_OPS)
        return cpu_core->set_error(TC_ERR_RUNTIME, "nn kernels: %d inputs, at most %d", nin, NNP_MAX_IN);
    if (!floating(out->dtype))
        return cpu_core->set_error(TC_ERR_RUNTIME, "nn kernels: dtype %d is not floating", out->dtype);
    const tc_view *views[CPU_MAX_OPS] = {out};
    for (int k = 0; k < nin; k++) {
        if (in[k]->dtype != out->dtype)
            return cpu_core->set_error(TC_ERR_RUNTIME, "nn kernels: input %d has dtype %d, the output %d", k,
                                       in[k]->dtype, out->dtype);
        views[k + 1] = in[k];
    }
    nnp_job job = {fn, p, nin, out->dtype};
    return cpu_iterate_write_only(views, nin + 1, loop, &job);
}

int nnp_run(const tc_kernel_args *args, int nin, nnp_fn fn, const nnp_params *p, const char *op) {
    if (cpu_check_args(args, nin, 1, op) != TC_OK) return TC_FAIL;
    const tc_view *in[NNP_MAX_IN];
    for (int k = 0; k < nin && k < NNP_MAX_IN; k++) in[k] = &args->inputs[k];
    return nnp_run_views(&args->outputs[0], in, nin, fn, p);
}

void nnp_param(nnp_params *p, int k, double v, int32_t dtype) {
    p->d[k] = v;
    switch (dtype) {
    case TC_BFLOAT16: p->f[k] = cpu_bf16_to_f32(cpu_f32_to_bf16((float)v)); break;
    case TC_FLOAT16: p->f[k] = cpu_ld_f16(cpu_from_f64_f16(v)); break;
    default: p->f[k] = (float)v; break;
    }
}

double nnp_scalar(const tc_value *v) {
    const tc_scalar *s = &v->v.scalar;
    return s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX ? s->v.f : (double)s->v.i;
}

void nnp_store(void *dst, int32_t dtype, double v) {
    switch (dtype) {
    case TC_FLOAT16: *(_Float16 *)dst = cpu_from_f64_f16(v); break;
    case TC_BFLOAT16: *(uint16_t *)dst = cpu_from_f64_bf16(v); break;
    case TC_FLOAT32: *(float *)dst = (float)v; break;
    default: *(double *)dst = v; break;
    }
}

/* ---- sums ---- */

#define NNP_CHUNK ((int64_t)65536)

typedef struct sum_job {
    const void *data;
    int32_t dtype;
    int64_t n;
    double *partial;
} sum_job;

#define NNP_SUM(S)                                                                                 \
    static double sum_##S(const CPU_T_##S *x, int64_t n) {                                         \
        double acc[8] = {0};                                                                       \
        int64_t i = 0;                                                                             \
        for (; i + 8 <= n; i += 8)                                                                 \
            for (int k = 0; k < 8; k++) acc[k] += (double)cpu_ld_##S(x[i + k]);                    \
        for (; i < n; i++) acc[0] += (double)cpu_ld_##S(x[i]);                                     \
        return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));  \
    }
NNP_SUM(f16)
NNP_SUM(bf16)
NNP_SUM(f32)
NNP_SUM(f64)
#undef NNP_SUM

static double sum_chunk(const sum_job *j, int64_t c) {
    const int64_t begin = c * NNP_CHUNK, m = j->n - begin < NNP_CHUNK ? j->n - begin : NNP_CHUNK;
    switch (j->dtype) {
    case TC_FLOAT16: return sum_f16((const _Float16 *)j->data + begin, m);
    case TC_BFLOAT16: return sum_bf16((const uint16_t *)j->data + begin, m);
    case TC_FLOAT32: return sum_f32((const float *)j->data + begin, m);
    default: return sum_f64((const double *)j->data + begin, m);
    }
}

static void sum_chunks(void *ctx, int64_t c0, int64_t c1) {
    sum_job *j = ctx;
    for (int64_t c = c0; c < c1; c++) j->partial[c] = sum_chunk(j, c);
}

int nnp_sum(const void *data, int32_t dtype, int64_t n, double *sum) {
    *sum = 0;
    if (n <= 0) return TC_OK;
    const int64_t chunks = (n + NNP_CHUNK - 1) / NNP_CHUNK;
    double one;
    double *partial = chunks == 1 ? &one : cpu_core->host_alloc(sizeof(double) * (size_t)chunks);
    if (!partial) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory summing a loss");
    sum_job job = {data, dtype, n, partial};
    cpu_parallel(chunks, cpu_threads_for(n), sum_chunks, &job);
    for (int64_t c = 0; c < chunks; c++) *sum += partial[c];
    if (partial != &one) cpu_core->host_free(partial, sizeof(double) * (size_t)chunks);
    return TC_OK;
}
