/*
 * conv.c - convolution and convolution_backward (1-D, 2-D, 3-D; groups, stride, padding, dilation;
 * transposed), by columns (im2col.h) and matrix products.
 *
 * A convolution maps a "big" tensor (its input) to a "small" one (its output) through windows; a
 * transposed convolution is the same map read backwards. Per image and group, with W[g] the
 * [cs x cb*k] matrix both kinds of weight are laid out as:
 *
 *   small_from_big:  small = W . im2col(big)          conv forward, transposed conv's grad_input
 *   big_from_small:  big = col2im(W^T . small)        conv grad_input, transposed conv forward
 *   weight_grad:     gW += small . im2col(big)^T      both (small = gO, big = x; or the reverse)
 *
 * With the BLAS provider, small_from_big and weight_grad run transposed, the long side of the product
 * as its rows: small^T = im2col(big)^T . W^T into scratch, transposed into place with the bias, and
 * gW^T += im2col(big) . small^T into transposed accumulators (BLIS runs these about 1.4x as fast as
 * the direct forms at the MNIST convnet's shapes).
 *
 * float32/float64 products go to the BLAS provider; the 16-bit floats compute in float32 and integer
 * dtypes in wrapping uint64 (the meta function hands their operands over as float32 or int64), into
 * scratch converted at the end. Images are split across threads (one scratch and one weight-gradient
 * accumulator per part); with fewer images than threads the images run in turn and BLAS takes the
 * threads.
 */
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "im2col.h"
#include "mm_kernel.h"

enum { CT_F32, CT_F64, CT_U64 };

/* The compute type of a kernel dtype (the dtype of its outputs). */
static int compute_type(int32_t dtype) {
    if (dtype == TC_FLOAT64) return CT_F64;
    return dtype == TC_FLOAT32 || dtype == TC_FLOAT16 || dtype == TC_BFLOAT16 ? CT_F32 : CT_U64;
}

typedef struct conv_job {
    int ct;
    size_t es; /* bytes per compute-type element */
    conv_geom g;
    int64_t batch, groups;
    int64_t cb, cs;    /* channels per group: big side, small side */
    int64_t K, L, B;   /* rows of a group's columns (cb * kernel), small-side and big-side positions */
    bool identity;     /* the columns are the big side itself */
    const void *w;     /* [groups][cs][K] */
    const void *big_src, *small_src;
    void *big_dst, *small_dst;
    const void *bias;  /* added to whichever side is written, or NULL */
    bool blas;         /* products go to the BLAS provider: the transposed forms below */
    void **gw_parts;   /* weight_grad: one accumulator per part, [groups][K][cs] when blas, else [groups][cs][K] */
    void (*image)(const struct conv_job *j, int64_t n, void *cols, void *tmp, void *gw);
    int64_t parts;
    size_t cols_bytes, tmp_bytes; /* scratch per part: columns, and the transposed small side (blas) */
    int failed;
} conv_job;

static const char *at(const void *base, int64_t elems, size_t es) { return (const char *)base + (size_t)elems * es; }
static char *at_mut(void *base, int64_t elems, size_t es) { return (char *)base + (size_t)elems * es; }

/* ---- matrix products: C[m,n] (+)= op(A) . op(B), row-major ---- */

#define GEMM_LOOP(S, T)                                                                            \
    static void gemm_loop_##S(int ta, int tb, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,  \
                              const T *b, int64_t ldb, bool acc, T *c, int64_t ldc) {               \
        for (int64_t i = 0; i < m; i++) {                                                          \
            T *ci = c + i * ldc;                                                                   \
            if (!acc) memset(ci, 0, sizeof(T) * (size_t)n);                                        \
            for (int64_t p = 0; p < k; p++) {                                                      \
                const T av = ta ? a[p * lda + i] : a[i * lda + p];                                 \
                if (tb)                                                                            \
                    for (int64_t jj = 0; jj < n; jj++) ci[jj] += av * b[jj * ldb + p];             \
                else                                                                               \
                    for (int64_t jj = 0; jj < n; jj++) ci[jj] += av * b[p * ldb + jj];             \
            }                                                                                      \
        }                                                                                          \
    }
GEMM_LOOP(f32, float)
GEMM_LOOP(f64, double)
GEMM_LOOP(u64, uint64_t)

static bool fits_blas(int64_t x) { return x <= INT32_MAX; }

static void gemm(int ct, int ta, int tb, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda, const void *b,
                 int64_t ldb, bool acc, void *c, int64_t ldc) {
    if (m <= 0 || n <= 0) return;
    const size_t es = ct == CT_F32 ? 4 : 8;
    if (k <= 0) {
        if (!acc)
            for (int64_t i = 0; i < m; i++) memset(at_mut(c, i * ldc, es), 0, es * (size_t)n);
        return;
    }
    if (ct != CT_U64 && mm_kernel_gemm(ct == CT_F32 ? TC_FLOAT32 : TC_FLOAT64, ta, tb, m, n, k, a, lda, b, ldb,
                                       acc ? 1.0 : 0.0, c, ldc) == 1)
        return;
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    bool blas = bp && ct != CT_U64 && (ct == CT_F32 ? bp->sgemm != NULL : bp->dgemm != NULL) && fits_blas(m) &&
                fits_blas(n) && fits_blas(k) && fits_blas(lda) && fits_blas(ldb) && fits_blas(ldc);
    if (blas && ct == CT_F32)
        bp->sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, acc ? 1.0f : 0.0f, c, ldc);
    else if (blas)
        bp->dgemm(ta, tb, m, n, k, 1.0, a, lda, b, ldb, acc ? 1.0 : 0.0, c, ldc);
    else if (ct == CT_F32)
        gemm_loop_f32(ta, tb, m, n, k, a, lda, b, ldb, acc, c, ldc);
    else if (ct == CT_F64)
        gemm_loop_f64(ta, tb, m, n, k, a, lda, b, ldb, acc, c, ldc);
    else
        gemm_loop_u64(ta, tb, m, n, k, a, lda, b, ldb, acc, c, ldc);
}

/* Whether gemm() hands products of compute type ct to the BLAS provider (sizes permitting). */
static bool blas_for(int ct) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    return bp && ct != CT_U64 && (ct == CT_F32 ? bp->sgemm != NULL : bp->dgemm != NULL);
}

/* dst[c][p] (+)= src[p][c] for a [rows][cols] src (row stride cols) and a [cols][rows] dst, in
 * 16x16 blocks so that both sides stay in cache; bias[c] is added when given. */
#define TRANSPOSE(S, T)                                                                            \
    static void transpose_##S(const T *src, int64_t rows, int64_t cols, const T *bias, bool acc, T *dst) { \
        for (int64_t c0 = 0; c0 < cols; c0 += 16) {                                               \
            const int64_t c1 = c0 + 16 < cols ? c0 + 16 : cols;                                    \
            for (int64_t p0 = 0; p0 < rows; p0 += 16) {                                           \
                const int64_t p1 = p0 + 16 < rows ? p0 + 16 : rows;                                \
                for (int64_t c = c0; c < c1; c++) {                                                \
                    T *d = dst + c * rows;                                                         \
                    const T b = bias ? bias[c] : (T)0;                                             \
                    if (acc)                                                                       \
                        for (int64_t q = p0; q < p1; q++) d[q] += src[q * cols + c];               \
                    else                                                                           \
                        for (int64_t q = p0; q < p1; q++) d[q] = src[q * cols + c] + b;            \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
TRANSPOSE(f32, float)
TRANSPOSE(f64, double)

static void transpose(int ct, const void *src, int64_t rows, int64_t cols, const void *bias, bool acc, void *dst) {
    if (ct == CT_F32) transpose_f32(src, rows, cols, bias, acc, dst);
    else transpose_f64(src, rows, cols, bias, acc, dst);
}

static void im2col(int ct, const void *x, int64_t channels, const conv_geom *g, void *cols) {
    if (ct == CT_F32) im2col_f32(x, channels, g, cols);
    else if (ct == CT_F64) im2col_f64(x, channels, g, cols);
    else im2col_u64(x, channels, g, cols);
}

static void col2im(int ct, const void *cols, int64_t channels, const conv_geom *g, void *x) {
    if (ct == CT_F32) col2im_f32(cols, channels, g, x);
    else if (ct == CT_F64) col2im_f64(cols, channels, g, x);
    else col2im_u64(cols, channels, g, x);
}

/* rows [n][channel][positions] += bias[channel] (or = when `set`) */
static void add_bias(int ct, void *rows, const void *bias, int64_t channels, int64_t positions, bool set) {
    for (int64_t c = 0; c < channels; c++) {
        char *r = at_mut(rows, c * positions, ct == CT_F32 ? 4 : 8);
        if (ct == CT_F32) {
            float *v = (float *)r, b = ((const float *)bias)[c];
            for (int64_t i = 0; i < positions; i++) v[i] = set ? b : v[i] + b;
        } else if (ct == CT_F64) {
            double *v = (double *)r, b = ((const double *)bias)[c];
            for (int64_t i = 0; i < positions; i++) v[i] = set ? b : v[i] + b;
        } else {
            uint64_t *v = (uint64_t *)r, b = ((const uint64_t *)bias)[c];
            for (int64_t i = 0; i < positions; i++) v[i] = set ? b : v[i] + b;
        }
    }
}

/* ---- one image ---- */

/* Group g of image n's big side as columns: the big side itself where they are the same (identity),
 * else im2col'd into cols. */
static const void *big_columns(const conv_job *j, int64_t n, int64_t g, void *cols) {
    const char *big = at(j->big_src, (n * j->groups + g) * j->cb * j->B, j->es);
    if (j->identity) return big;
    im2col(j->ct, big, j->cb, &j->g, cols);
    return cols;
}

/* With BLAS, small^T [L x cs] = cols^T . W^T into tmp, then transposed into place with the bias:
 * BLIS runs this form (the long side as rows of the product) about 1.4x as fast as W . cols. */
static void small_from_big(const conv_job *j, int64_t n, void *cols, void *tmp, void *gw) {
    (void)gw;
    const size_t es = j->es;
    char *small = at_mut(j->small_dst, n * j->groups * j->cs * j->L, es);
    if (j->blas) {
        for (int64_t g = 0; g < j->groups; g++) {
            const void *b = big_columns(j, n, g, cols);
            gemm(j->ct, 1, 1, j->L, j->cs, j->K, b, j->L, at(j->w, g * j->cs * j->K, es), j->K, false, tmp, j->cs);
            transpose(j->ct, tmp, j->L, j->cs, j->bias ? at(j->bias, g * j->cs, es) : NULL, false,
                      at_mut(small, g * j->cs * j->L, es));
        }
        return;
    }
    if (j->bias) add_bias(j->ct, small, j->bias, j->groups * j->cs, j->L, true);
    for (int64_t g = 0; g < j->groups; g++) {
        const void *b = big_columns(j, n, g, cols);
        gemm(j->ct, 0, 0, j->cs, j->L, j->K, at(j->w, g * j->cs * j->K, es), j->K, b, j->L, j->bias != NULL,
             at_mut(small, g * j->cs * j->L, es), j->L);
    }
}

static void big_from_small(const conv_job *j, int64_t n, void *cols, void *tmp, void *gw) {
    (void)tmp;
    (void)gw;
    const size_t es = j->es;
    char *big = at_mut(j->big_dst, n * j->groups * j->cb * j->B, es);
    if (!j->identity) memset(big, 0, es * (size_t)(j->groups * j->cb * j->B));
    for (int64_t g = 0; g < j->groups; g++) {
        const char *small = at(j->small_src, (n * j->groups + g) * j->cs * j->L, es);
        char *bg = big + (size_t)(g * j->cb * j->B) * es;
        void *c = j->identity ? bg : cols;
        gemm(j->ct, 1, 0, j->K, j->L, j->cs, at(j->w, g * j->cs * j->K, es), j->K, small, j->L, false, c, j->L);
        if (!j->identity) col2im(j->ct, cols, j->cb, &j->g, bg);
    }
    if (j->bias) add_bias(j->ct, big, j->bias, j->groups * j->cb, j->B, false);
}

/* With BLAS, gW^T [K x cs] += cols . small^T (the faster form, as for small_from_big), into an
 * accumulator in that layout. */
static void weight_grad(const conv_job *j, int64_t n, void *cols, void *tmp, void *gw) {
    (void)tmp;
    const size_t es = j->es;
    if (j->blas) {
        for (int64_t g = 0; g < j->groups; g++) {
            const void *b = big_columns(j, n, g, cols);
            gemm(j->ct, 0, 1, j->K, j->cs, j->L, b, j->L, at(j->small_src, (n * j->groups + g) * j->cs * j->L, es),
                 j->L, true, at_mut(gw, g * j->K * j->cs, es), j->cs);
        }
        return;
    }
    for (int64_t g = 0; g < j->groups; g++) {
        const void *b = big_columns(j, n, g, cols);
        gemm(j->ct, 0, 1, j->cs, j->K, j->L, at(j->small_src, (n * j->groups + g) * j->cs * j->L, es), j->L, b, j->L,
             true, at_mut(gw, g * j->cs * j->K, es), j->K);
    }
}

/* ---- the driver ---- */

static void run_part(void *vjob, int64_t p0, int64_t p1) {
    conv_job *j = vjob;
    for (int64_t p = p0; p < p1; p++) {
        void *cols = NULL;
        const size_t bytes = j->cols_bytes + j->tmp_bytes;
        if (bytes && !(cols = cpu_core->host_alloc(bytes))) {
            __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
            return;
        }
        void *tmp = j->tmp_bytes ? at_mut(cols, (int64_t)(j->cols_bytes / j->es), j->es) : NULL;
        int64_t n0 = j->batch * p / j->parts, n1 = j->batch * (p + 1) / j->parts;
        for (int64_t n = n0; n < n1; n++) j->image(j, n, cols, tmp, j->gw_parts ? j->gw_parts[p] : NULL);
        if (cols) cpu_core->host_free(cols, bytes);
    }
}

/* Runs j->image over every image. gw_bytes > 0: weight_grad, whose parts' accumulators are
 * allocated (zeroed) here and summed into `gw` at the end; without BLAS the first part's is `gw`
 * itself, with it they are all scratch in the transposed layout. */
static int run_images(conv_job *j, void *gw, size_t gw_bytes) {
    int64_t macs = j->groups * j->cs * j->K * j->L;
    if (__builtin_mul_overflow(macs, j->batch, &macs)) macs = INT64_MAX;
    int nt = cpu_threads_for(macs / 4);
    j->parts = j->batch < nt ? 1 : nt;
    if (j->batch == 0) {
        if (gw_bytes) memset(gw, 0, gw_bytes);
        return TC_OK;
    }
    int64_t cols;
    if (__builtin_mul_overflow(j->K, j->L, &cols) || cols > (int64_t)(SIZE_MAX / 8))
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "convolution: the columns are too large");
    j->cols_bytes = j->identity ? 0 : (size_t)cols * j->es;
    j->tmp_bytes = j->blas && j->image == small_from_big ? (size_t)(j->L * j->cs) * j->es : 0;
    void *slots[256];
    if (gw_bytes) {
        if (j->parts > 256) j->parts = 256;
        j->gw_parts = slots;
        const int64_t first = j->blas ? 0 : 1;
        if (!j->blas) {
            memset(gw, 0, gw_bytes);
            slots[0] = gw;
        }
        for (int64_t p = first; p < j->parts; p++) {
            if (!(slots[p] = cpu_core->host_alloc(gw_bytes))) {
                for (int64_t q = first; q < p; q++) cpu_core->host_free(slots[q], gw_bytes);
                return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "convolution: out of memory");
            }
            memset(slots[p], 0, gw_bytes);
        }
    }
    j->failed = 0;
    cpu_parallel(j->parts, (int)j->parts, run_part, j);
    if (gw_bytes && j->blas) {
        /* parts [groups][K][cs] -> gw [groups][cs][K] */
        for (int64_t p = 0; p < j->parts; p++) {
            for (int64_t g = 0; g < j->groups; g++)
                transpose(j->ct, at(slots[p], g * j->K * j->cs, j->es), j->K, j->cs, NULL, p > 0,
                          at_mut(gw, g * j->cs * j->K, j->es));
            cpu_core->host_free(slots[p], gw_bytes);
        }
        j->gw_parts = NULL;
    } else if (gw_bytes) {
        int64_t count = (int64_t)(gw_bytes / j->es);
        for (int64_t p = 1; p < j->parts; p++) {
            if (j->ct == CT_F32)
                for (int64_t i = 0; i < count; i++) ((float *)gw)[i] += ((float *)slots[p])[i];
            else if (j->ct == CT_F64)
                for (int64_t i = 0; i < count; i++) ((double *)gw)[i] += ((double *)slots[p])[i];
            else
                for (int64_t i = 0; i < count; i++) ((uint64_t *)gw)[i] += ((uint64_t *)slots[p])[i];
            cpu_core->host_free(slots[p], gw_bytes);
        }
        j->gw_parts = NULL;
    }
   if (j->failed) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "convolution: out of memory for its columns");
    return TC_OK;
}

/* ---- outputs in another dtype than the compute type ---- */

/* Where the kernel computes an output: the output itself when it has the compute type, else
 * zeroed scratch converted by finish_output. */
static void *compute_buffer(int ct, const tc_view *out, int64_t numel, void **scratch, size_t *bytes) {
    *scratch = NULL;
    *bytes = 0;
    bool same = (ct == CT_F32 && out->dtype == TC_FLOAT32) || (ct == CT_F64 && out->dtype == TC_FLOAT64);
    if (same) return out->data;
    *bytes = (size_t)(numel > 0 ? numel : 1) * (ct == CT_F32 ? 4 : 8);
    *scratch = cpu_core->host_alloc(*bytes);
    if (*scratch) memset(*scratch, 0, *bytes);
    return *scratch;
}

#define STORE_FROM_F32(_, S)                                                                       \
    case CPU_DT_##S:                                                                               \
        for (int64_t i = 0; i < numel; i++) ((CPU_T_##S *)out->data)[i] = cpu_from_f32_##S(((const float *)src)[i]); \
        break;
#define STORE_FROM_U64(_, S)                                                                       \
    case CPU_DT_##S:                                                                               \
        for (int64_t i = 0; i < numel; i++)                                                        \
            ((CPU_T_##S *)out->data)[i] = cpu_from_i64_##S((int64_t)((const uint64_t *)src)[i]);   \
        break;

static void finish_output(int ct, const tc_view *out, int64_t numel, void *scratch, size_t bytes) {
    if (!scratch) return;
    const void *src = scratch;
    if (ct == CT_F32) {
        switch (out->dtype) { CPU_DTYPES_FLOAT(STORE_FROM_F32, _) default: break; }
    } else if (ct == CT_U64) {
        switch (out->dtype) { CPU_DTYPES_INT(STORE_FROM_U64, _) default: break; }
    }
    cpu_core->host_free(scratch, bytes);
}

static int64_t view_numel(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* The job's geometry from the contract's ints and the big/small side views. */
static void job_init(conv_job *j, const tc_kernel_args *args, const tc_view *big, const tc_view *small,
                     const tc_view *w) {
    const int64_t *ints = args->ints;
    int nd = (int)ints[0];
    memset(j, 0, sizeof *j);
    const tc_view *out = &args->outputs[0];
    for (int32_t i = 1; out->ndim < 0 && i < args->n_outputs; i++) out = &args->outputs[i];
    j->ct = compute_type(out->dtype); /* the runner calls no kernel when every output is undefined */
    j->es = j->ct == CT_F32 ? 4 : 8;
    conv_geom_init(&j->g, nd, big->sizes + 2, small->sizes + 2, w->sizes + 2, ints + 3, ints + 3 + nd,
                   ints + 3 + 2 * nd);
    j->batch = big->sizes[0];
    j->groups = ints[2];
    j->cb = big->sizes[1] / j->groups;
    j->cs = small->sizes[1] / j->groups;
    j->K = j->cb * conv_geom_k_numel(&j->g);
    j->L = conv_geom_out_numel(&j->g);
    j->B = conv_geom_in_numel(&j->g);
    j->identity = conv_geom_is_identity(&j->g);
    j->w = w->data;
    j->blas = blas_for(j->ct);
}

/* The sum of each channel of t [N][C][positions] over N and positions, in the compute type: each
 * (image, channel) row in 16 float lanes (the reference sums float32 in float as well), the rows in
 * double. */
static void channel_sums(int ct, const void *t, int64_t batch, int64_t channels, int64_t positions, void *out) {
    for (int64_t c = 0; c < channels; c++) {
        double sf = 0;
        uint64_t su = 0;
        for (int64_t n = 0; n < batch; n++) {
            int64_t base = (n * channels + c) * positions;
            if (ct == CT_F32) {
                const float *r = (const float *)t + base;
                float lanes[16] = {0};
                int64_t i = 0;
                for (; i + 16 <= positions; i += 16)
                    for (int l = 0; l < 16; l++) lanes[l] += r[i + l];
                double row = 0;
                for (int l = 0; l < 16; l++) row += lanes[l];
                for (; i < positions; i++) row += r[i];
                sf += row;
            } else if (ct == CT_F64) {
                const double *r = (const double *)t + base;
                double lanes[8] = {0};
                int64_t i = 0;
                for (; i + 8 <= positions; i += 8)
                    for (int l = 0; l < 8; l++) lanes[l] += r[i + l];
                for (int l = 0; l < 8; l++) sf += lanes[l];
                for (; i < positions; i++) sf += r[i];
            } else {
                for (int64_t i = 0; i < positions; i++) su += ((const uint64_t *)t)[base + i];
            }
        }
        if (ct == CT_F32) ((float *)out)[c] = (float)sf;
        else if (ct == CT_F64) ((double *)out)[c] = sf;
        else ((uint64_t *)out)[c] = su;
    }
}

/* The images carry src to the big side (big_from_small) or to the small one (small_from_big). */
static void job_direction(conv_job *j, const void *src, bool to_big) {
    if (to_big) {
        j->small_src = src;
        j->image = big_from_small;
    } else {
        j->big_src = src;
        j->image = small_from_big;
    }
}

/* Runs the job's images into output y, through a buffer in the compute type where y's dtype needs
 * one: the side j->image writes (big_from_small, small_from_big) or weight_grad's accumulator. */
static int run_output(conv_job *j, const tc_view *y, const char *op) {
    const int64_t numel = view_numel(y);
    void *scratch;
    size_t bytes;
    void *dst = compute_buffer(j->ct, y, numel, &scratch, &bytes);
    if (!dst) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    const bool gw = j->image == weight_grad;
    if (j->image == big_from_small) j->big_dst = dst;
    else if (!gw) j->small_dst = dst;
    int rc = run_images(j, gw ? dst : NULL, gw ? (size_t)(numel > 0 ? numel : 0) * j->es : 0);
    if (rc == TC_OK) finish_output(j->ct, y, numel, scratch, bytes);
    else if (scratch) cpu_core->host_free(scratch, bytes);
    return rc;
}

/* ---- kernels ---- */

/* convolution: x, w[, bias] -> y (contract in core/src/meta_conv.c). */
static int k_convolution(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "convolution") != TC_OK) return TC_FAIL;
    const tc_view *x = &args->inputs[0], *w = &args->inputs[1], *y = &args->outputs[0];
    bool transposed = args->ints[1] != 0;
    conv_job j;
    job_init(&j, args, transposed ? y : x, transposed ? x : y, w);
    j.bias = args->n_inputs > 2 ? args->inputs[2].data : NULL;
    job_direction(&j, x->data, transposed);
    return run_output(&j, y, "convolution");
}

/* convolution_backward: gO, x, w -> grad_input, grad_weight, grad_bias (each may be undefined). */
static int k_convolution_backward(const tc_kernel_args *args) {
    if (cpu_check_args(args, 3, 3, "convolution_backward") != TC_OK) return TC_FAIL;
    const tc_view *go = &args->inputs[0], *x = &args->inputs[1], *w = &args->inputs[2];
    const tc_view *gi = &args->outputs[0], *gw = &args->outputs[1], *gb = &args->outputs[2];
    bool transposed = args->ints[1] != 0;
    const tc_view *big = transposed ? go : x, *small = transposed ? x : go;
    conv_job j;
    job_init(&j, args, big, small, w);
    int rc = TC_OK;
    if (gi->ndim >= 0) {
        job_direction(&j, go->data, !transposed);
        rc = run_output(&j, gi, "convolution_backward");
    }
    if (rc == TC_OK && gw->ndim >= 0) {
        j.big_src = big->data;
        j.small_src = small->data;
        j.image = weight_grad;
        rc = run_output(&j, gw, "convolution_backward");
    }
    if (rc == TC_OK && gb->ndim >= 0) {
        int64_t channels = gb->sizes[0];
        void *scratch;
        size_t bytes;
        void *dst = compute_buffer(j.ct, gb, channels, &scratch, &bytes);
        if (!dst) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "convolution_backward: out of memory");
        int64_t positions = 1;
        for (int32_t d = 2; d < go->ndim; d++) positions *= go->sizes[d];
        channel_sums(j.ct, go->data, go->sizes[0], channels, positions, dst);
        finish_output(j.ct, gb, channels, scratch, bytes);
    }
    return rc;
}

#define ENTRY(_, S)                                                                                \
    {"convolution", CPU_DT_##S, k_convolution}, {"convolution_backward", CPU_DT_##S, k_convolution_backward},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
