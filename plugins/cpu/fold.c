/*
 * fold.c - im2col (F.unfold) and col2im (F.fold) over whole batches, with the column layout of the
 * convolutions (im2col.h); images split across threads. The 16-bit floats arrive as float32 and are
 * computed in float32 scratch, then converted.
 */
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "im2col.h"

typedef struct fold_job {
    conv_geom g;
    int64_t channels, image, cols; /* elements per image: image side, column side */
    const void *in;
    void *out;
    int ct; /* 0 float, 1 double */
    bool fold;
} fold_job;

static void images(void *vj, int64_t n0, int64_t n1) {
    const fold_job *j = vj;
    for (int64_t n = n0; n < n1; n++) {
        if (j->fold && j->ct == 0) {
            float *x = (float *)j->out + n * j->image;
            memset(x, 0, sizeof(float) * (size_t)j->image);
            col2im_f32((const float *)j->in + n * j->cols, j->channels, &j->g, x);
        } else if (j->fold) {
            double *x = (double *)j->out + n * j->image;
            memset(x, 0, sizeof(double) * (size_t)j->image);
            col2im_f64((const double *)j->in + n * j->cols, j->channels, &j->g, x);
        } else if (j->ct == 0) {
            im2col_f32((const float *)j->in + n * j->image, j->channels, &j->g, (float *)j->out + n * j->cols);
        } else {
            im2col_f64((const double *)j->in + n * j->image, j->channels, &j->g, (double *)j->out + n * j->cols);
        }
    }
}

static int64_t numel_of(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

static int run(const tc_kernel_args *a, bool fold, int32_t dtype) {
    if (cpu_check_args(a, 1, 1, fold ? "col2im" : "im2col")) return TC_FAIL;
    const tc_view *img = fold ? &a->outputs[0] : &a->inputs[0], *col = fold ? &a->inputs[0] : &a->outputs[0];
    const int64_t *i = a->ints;
    fold_job j = {.in = a->inputs[0].data, .out = a->outputs[0].data, .ct = dtype == TC_FLOAT64, .fold = fold};
    int64_t hw[2] = {img->sizes[img->ndim - 2], img->sizes[img->ndim - 1]};
    int64_t k[2] = {i[0], i[1]}, d[2] = {i[2], i[3]}, p[2] = {i[4], i[5]}, s[2] = {i[6], i[7]}, out[2];
    for (int x = 0; x < 2; x++) out[x] = (hw[x] + 2 * p[x] - (d[x] * (k[x] - 1) + 1)) / s[x] + 1;
    conv_geom_init(&j.g, 2, hw, out, k, s, p, d);
    j.channels = img->sizes[img->ndim - 3];
    j.image = j.channels * hw[0] * hw[1];
    j.cols = col->sizes[col->ndim - 2] * col->sizes[col->ndim - 1];
    int64_t batch = img->ndim == 4 ? img->sizes[0] : 1, total = numel_of(&a->outputs[0]);
    size_t bytes = 0;
    void *scratch = NULL;
    if (dtype == TC_FLOAT16 || dtype == TC_BFLOAT16) { /* computed in float, converted below */
        bytes = sizeof(float) * (size_t)(total > 0 ? total : 1);
        if (!(scratch = cpu_core->host_alloc(bytes))) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        j.out = scratch;
    }
    int64_t work;
    if (__builtin_mul_overflow(batch, j.cols, &work)) work = INT64_MAX;
    cpu_parallel(batch, cpu_threads_for(work), images, &j);
    if (scratch) {
        const float *f = scratch;
        if (dtype == TC_FLOAT16)
            for (int64_t e = 0; e < total; e++) ((_Float16 *)a->outputs[0].data)[e] = cpu_st_f16(f[e]);
        else
            for (int64_t e = 0; e < total; e++) ((uint16_t *)a->outputs[0].data)[e] = cpu_st_bf16(f[e]);
        cpu_core->host_free(scratch, bytes);
    }
    return TC_OK;
}

#define KERNELS(_, S)                                                                              \
    static int k_im2col_##S(const tc_kernel_args *a) { return run(a, false, CPU_DT_##S); }         \
    static int k_col2im_##S(const tc_kernel_args *a) { return run(a, true, CPU_DT_##S); }
CPU_DTYPES_FLOAT(KERNELS, _)

#define ENTRY(_, S) {"im2col", CPU_DT_##S, k_im2col_##S}, {"col2im", CPU_DT_##S, k_col2im_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
