/*
 * embedding.c - embeddings and embedding bags: row gathers, their scatter-add backward ops and the
 * gathers that are those ops' adjoints, and embedding_renorm_ (contracts in
 * core/src/meta_embedding.c).
 *
 * Indices are int64 and checked while they are read; a piece that meets one out of range records it
 * and the kernel raises after the pool returns. Scatter-adds split the output rows among threads
 * (each thread reads every index and keeps those of its rows), so no two threads write one row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"

enum { MODE_SUM, MODE_MEAN, MODE_MAX };

typedef struct emb_job {
    const tc_kernel_args *a;
    const char *w;      /* rows of `d` elements */
    const int64_t *idx; /* n indices */
    int64_t n, rows, d;
    int64_t row_stride, col_stride; /* of the weight embedding_renorm_ writes in place, in elements */
    int64_t padding_idx;
    const int64_t *counts; /* per row, when gradients are scaled by frequency */
    const int64_t *o2b, *bag_size, *max_idx, *offsets;
    int64_t bags, n_offsets;
    const void *psw;
    int mode;
    bool include_last;
    void *out, *out2, *out3, *out4;
    const void *grad;
    int bad; /* an index out of range (1), bad offsets (2) */
    bool bag; /* an embedding bag: out-of-range indices are RuntimeErrors, as PyTorch's */
} emb_job;

static void flag(emb_job *j, int what) { __atomic_store_n(&j->bad, what, __ATOMIC_RELAXED); }

static int64_t numel_of(const tc_view *v) {
    int64_t n = 1;
    for (int32_t i = 0; i < v->ndim; i++) n *= v->sizes[i];
    return n;
}

static int parallel(emb_job *j, int64_t count, int64_t work, cpu_range_fn fn) {
    cpu_parallel(count, cpu_threads_for(work), fn, j);
    return TC_OK;
}

/* How often each row is named (padding excluded); NULL with an error when out of memory or when an
 * index is out of range (j->bad then says so). */
static int64_t *row_counts(emb_job *j) {
    int64_t *counts = cpu_core->host_alloc(sizeof(int64_t) * (size_t)(j->rows > 0 ? j->rows : 1));
    if (!counts) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "embedding: out of memory"), NULL;
    memset(counts, 0, sizeof(int64_t) * (size_t)j->rows);
    for (int64_t i = 0; i < j->n; i++) {
        int64_t r = j->idx[i];
        if (r < 0 || r >= j->rows) {
            j->bad = 1;
            continue;
        }
        if (r != j->padding_idx) counts[r]++;
    }
    return counts;
}

/* ---- per dtype ---- */

#define SCALE_KF(v, f) ((v) * (f))
#define SCALE_KI(v, f) ((void)(f), (v))
#define SCALE_KU(v, f) ((void)(f), (v))
#define SCALE_KB(v, f) ((void)(f), (v))

#define GATHER_STAMP(_, S)                                                                         \
    static void gather_##S(void *vj, int64_t i0, int64_t i1) {                                     \
        emb_job *j = vj;                                                                           \
        const CPU_T_##S *w = (const CPU_T_##S *)j->w;                                              \
        CPU_T_##S *out = j->out;                                                                   \
        for (int64_t i = i0; i < i1; i++) {                                                        \
            const int64_t r = j->idx[i];                                                           \
            CPU_T_##S *o = out + i * j->d;                                                         \
            if (r < 0 || r >= j->rows) {                                                           \
                flag(j, 1);                                                                        \
                memset(o, 0, sizeof(CPU_T_##S) * (size_t)j->d);                                    \
                continue;                                                                          \
            }                                                                                      \
            if (r == j->padding_idx) {                                                             \
                memset(o, 0, sizeof(CPU_T_##S) * (size_t)j->d);                                    \
            } else if (j->counts) {                                                                \
                const CPU_C_##S f = (CPU_C_##S)(1.0 / (double)j->counts[r]);                      \
                for (int64_t k = 0; k < j->d; k++)                                                 \
                    o[k] = cpu_st_##S(CPU_CAT(SCALE_, CPU_K_##S)(cpu_ld_##S(w[r * j->d + k]), f));  \
            } else {                                                                               \
                memcpy(o, w + r * j->d, sizeof(CPU_T_##S) * (size_t)j->d);                         \
            }                                                                                      \
        }                                                                                          \
    }
CPU_DTYPES_ALL(GATHER_STAMP, _)

#define FLOAT_STAMP(_, S)                                                                          \
    /* grad_weight rows [r0, r1): every index naming one of them adds its gradient row */          \
    static void scatter_##S(void *vj, int64_t r0, int64_t r1) {                                    \
        emb_job *j = vj;                                                                           \
        const CPU_T_##S *g = j->grad;                                                              \
        CPU_T_##S *out = j->out;                                                                   \
        memset(out + r0 * j->d, 0, sizeof(CPU_T_##S) * (size_t)((r1 - r0) * j->d));                \
        for (int64_t i = 0; i < j->n; i++) {                                                       \
            const int64_t r = j->idx[i];                                                           \
            if (r < r0 || r >= r1 || r == j->padding_idx) continue;                                \
            const CPU_C_##S f = j->counts ? (CPU_C_##S)(1.0 / (double)j->counts[r]) : (CPU_C_##S)1; \
            for (int64_t k = 0; k < j->d; k++)                                                     \
                out[r * j->d + k] = cpu_st_##S(cpu_ld_##S(out[r * j->d + k]) + cpu_ld_##S(g[i * j->d + k]) * f); \
        }                                                                                          \
    }                                                                                              \
    static void renorm_##S(emb_job *j, const int64_t *unique, int64_t count, double max_norm, double p) { \
        CPU_T_##S *w = j->out;                                                                     \
        for (int64_t u = 0; u < count; u++) {                                                      \
            CPU_T_##S *row = w + unique[u] * j->row_stride;                                        \
            const int64_t cs = j->col_stride;                                                      \
            double norm = 0;                                                                       \
            for (int64_t k = 0; k < j->d; k++) {                                                   \
                const double v = fabs((double)cpu_ld_##S(row[k * cs]));                            \
                if (p == 1) norm += v;                                                             \
                else if (p == 2) norm += v * v;                                                    \
                else if (isinf(p)) norm = v > norm ? v : norm;                                     \
                else if (p == 0) norm += v != 0;                                                   \
                else norm += pow(v, p);                                                            \
            }                                                                                      \
            if (p == 2) norm = sqrt(norm);                                                         \
            else if (p != 1 && p != 0 && !isinf(p)) norm = pow(norm, 1.0 / p);                     \
            if (norm > max_norm) {                                                                 \
                const double scale = max_norm / (norm + 1e-7);                                     \
                for (int64_t k = 0; k < j->d; k++)                                                 \
                    row[k * cs] = cpu_st_##S((CPU_C_##S)(cpu_ld_##S(row[k * cs]) * scale));        \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* the bags [b0, b1): sum, mean or max of their rows */                                        \
    static void bag_##S(void *vj, int64_t b0, int64_t b1) {                                        \
        emb_job *j = vj;                                                                           \
        const CPU_T_##S *w = (const CPU_T_##S *)j->w, *psw = j->psw;                               \
        CPU_T_##S *out = j->out;                                                                   \
        int64_t *o2b = j->out2, *bag_size = j->out3, *max_idx = j->out4;                           \
        for (int64_t b = b0; b < b1; b++) {                                                        \
            const int64_t start = j->offsets[b];                                                   \
            const int64_t end = b + 1 < j->n_offsets ? j->offsets[b + 1] : j->n;                    \
            CPU_T_##S *o = out + b * j->d;                                                         \
            int64_t count = 0;                                                                     \
            if (start < 0 || end < start || end > j->n) {                                          \
                flag(j, 2);                                                                        \
                memset(o, 0, sizeof(CPU_T_##S) * (size_t)j->d);                                    \
                continue;                                                                          \
            }                                                                                      \
            for (int64_t i = start; i < end; i++) o2b[i] = b;                                      \
            if (j->mode == MODE_MAX) {                                                             \
                int64_t *mi = max_idx + b * j->d;                                                  \
                for (int64_t k = 0; k < j->d; k++) mi[k] = -1;                                     \
                for (int64_t i = start; i < end; i++) {                                            \
                    const int64_t r = j->idx[i];                                                   \
                    if (r < 0 || r >= j->rows) { flag(j, 1); continue; }                           \
                    if (r == j->padding_idx) continue;                                             \
                    count++;                                                                       \
                    for (int64_t k = 0; k < j->d; k++) {                                           \
                        const CPU_C_##S v = cpu_ld_##S(w[r * j->d + k]);                           \
                        if (mi[k] < 0 || v > cpu_ld_##S(o[k])) {                                   \
                            o[k] = w[r * j->d + k];                                                \
                            mi[k] = r;                                                             \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                for (int64_t k = 0; k < j->d; k++)                                                 \
                    if (mi[k] < 0) o[k] = cpu_st_##S(0);                                           \
                bag_size[b] = count;                                                               \
                continue;                                                                          \
            }                                                                                      \
            CPU_C_##S acc[256];                                                                    \
            for (int64_t k0 = 0; k0 < j->d; k0 += 256) {                                           \
                const int64_t kn = j->d - k0 < 256 ? j->d - k0 : 256;                              \
                for (int64_t k = 0; k < kn; k++) acc[k] = 0;                                       \
                count = 0;                                                                         \
                for (int64_t i = start; i < end; i++) {                                            \
                    const int64_t r = j->idx[i];                                                   \
                    if (r < 0 || r >= j->rows) { flag(j, 1); continue; }                           \
                    if (r == j->padding_idx) continue;                                             \
                    count++;                                                                       \
                    const CPU_T_##S *row = w + r * j->d + k0;                                      \
                    if (psw) {                                                                     \
                        const CPU_C_##S f = cpu_ld_##S(psw[i]);                                    \
                        for (int64_t k = 0; k < kn; k++) acc[k] += cpu_ld_##S(row[k]) * f;         \
                    } else {                                                                       \
                        for (int64_t k = 0; k < kn; k++) acc[k] += cpu_ld_##S(row[k]);             \
                    }                                                                              \
                }                                                                                  \
                const CPU_C_##S div = j->mode == MODE_MEAN && count ? (CPU_C_##S)count : (CPU_C_##S)1; \
                for (int64_t k = 0; k < kn; k++) o[k0 + k] = cpu_st_##S(acc[k] / div);             \
            }                                                                                      \
            bag_size[b] = j->mode == MODE_SUM ? 0 : count;                                         \
            if (j->mode != MODE_MAX) max_idx[b] = j->mode == MODE_MEAN ? count : 0;                \
        }                                                                                          \
    }                                                                                              \
    /* the weight of index i's row in the gradient of its bag */                                   \
    static CPU_C_##S bag_factor_##S(const emb_job *j, int64_t i, int64_t r) {                       \
        CPU_C_##S f = j->psw ? cpu_ld_##S(((const CPU_T_##S *)j->psw)[i]) : (CPU_C_##S)1;          \
        if (j->mode == MODE_MEAN) {                                                                \
            const int64_t size = j->bag_size[j->o2b[i]];                                           \
            if (size) f /= (CPU_C_##S)size;                                                        \
        }                                                                                          \
        if (j->counts) f *= (CPU_C_##S)(1.0 / (double)j->counts[r]);                               \
        return f;                                                                                  \
    }                                                                                              \
    static void bag_backward_##S(void *vj, int64_t r0, int64_t r1) {                               \
        emb_job *j = vj;                                                                           \
        const CPU_T_##S *g = j->grad;                                                              \
        CPU_T_##S *out = j->out;                                                                   \
        memset(out + r0 * j->d, 0, sizeof(CPU_T_##S) * (size_t)((r1 - r0) * j->d));                \
        if (j->mode == MODE_MAX) {                                                                 \
            for (int64_t e = 0; e < j->bags * j->d; e++) {                                         \
                const int64_t r = j->max_idx[e], k = e % j->d;                                     \
                if (r < r0 || r >= r1 || r == j->padding_idx) continue;                            \
                const CPU_C_##S f = j->counts ? (CPU_C_##S)(1.0 / (double)j->counts[r]) : (CPU_C_##S)1; \
                out[r * j->d + k] = cpu_st_##S(cpu_ld_##S(out[r * j->d + k]) + cpu_ld_##S(g[e]) * f); \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < j->n; i++) {                                                       \
            const int64_t r = j->idx[i], b = j->o2b[i];                                            \
            if (r < r0 || r >= r1 || r == j->padding_idx) continue;                                \
            if (b < 0 || b >= j->bags) { flag(j, 2); continue; }                                   \
            const CPU_C_##S f = bag_factor_##S(j, i, r);                                           \
            for (int64_t k = 0; k < j->d; k++)                                                     \
                out[r * j->d + k] = cpu_st_##S(cpu_ld_##S(out[r * j->d + k]) + cpu_ld_##S(g[b * j->d + k]) * f); \
        }                                                                                          \
    }                                                                                              \
    /* the adjoint of bag_backward: bags [b0, b1) read back the rows they sent gradients to */      \
    static void bag_double_backward_##S(void *vj, int64_t b0, int64_t b1) {                        \
        emb_job *j = vj;                                                                           \
        const CPU_T_##S *w = (const CPU_T_##S *)j->w;                                              \
        CPU_T_##S *out = j->out;                                                                   \
        memset(out + b0 * j->d, 0, sizeof(CPU_T_##S) * (size_t)((b1 - b0) * j->d));                \
        if (j->mode == MODE_MAX) {                                                                 \
            for (int64_t e = b0 * j->d; e < b1 * j->d; e++) {                                      \
                const int64_t r = j->max_idx[e];                                                   \
                if (r < 0 || r == j->padding_idx) continue;                                        \
                if (r >= j->rows) { flag(j, 1); continue; }                                        \
                const CPU_C_##S f = j->counts ? (CPU_C_##S)(1.0 / (double)j->counts[r]) : (CPU_C_##S)1; \
                out[e] = cpu_st_##S(cpu_ld_##S(w[r * j->d + e % j->d]) * f);                       \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < j->n; i++) {                                                       \
            const int64_t r = j->idx[i], b = j->o2b[i];                                            \
            if (b < b0 || b >= b1 || r == j->padding_idx) continue;                                \
            if (r < 0 || r >= j->rows) { flag(j, 1); continue; }                                   \
            const CPU_C_##S f = bag_factor_##S(j, i, r);                                           \
            for (int64_t k = 0; k < j->d; k++)                                                     \
                out[b * j->d + k] = cpu_st_##S(cpu_ld_##S(out[b * j->d + k]) + cpu_ld_##S(w[r * j->d + k]) * f); \
        }                                                                                          \
    }                                                                                              \
    static void psw_backward_##S(void *vj, int64_t i0, int64_t i1) {                               \
        emb_job *j = vj;                                                                           \
        const CPU_T_##S *g = j->grad, *w = (const CPU_T_##S *)j->w;                                \
        CPU_T_##S *out = j->out;                                                                   \
        for (int64_t i = i0; i < i1; i++) {                                                        \
            const int64_t r = j->idx[i], b = j->o2b[i];                                            \
            out[i] = cpu_st_##S(0);                                                                \
            if (r == j->padding_idx) continue;                                                     \
            if (r < 0 || r >= j->rows || b < 0 || b >= j->bags) { flag(j, 1); continue; }          \
            CPU_C_##S dot = 0;                                                                     \
            for (int64_t k = 0; k < j->d; k++) dot += cpu_ld_##S(g[b * j->d + k]) * cpu_ld_##S(w[r * j->d + k]); \
            out[i] = cpu_st_##S(dot);                                                              \
        }                                                                                          \
    }
CPU_DTYPES_FLOAT(FLOAT_STAMP, _)

/* ---- kernels ---- */

static int raise_bad(const emb_job *j) {
    if (j->bad == 1 && j->bag)
        return cpu_core->set_error(TC_ERR_RUNTIME, "embedding_bag: an index is out of range for a weight of %lld rows",
                                   (long long)j->rows);
    if (j->bad == 1) return cpu_core->set_error(TC_ERR_INDEX, "index out of range in self");
    if (j->bad == 2)
        return cpu_core->set_error(TC_ERR_RUNTIME, "embedding_bag: offsets must be non-decreasing and within the "
                                                   "indices");
    return TC_OK;
}

/* embedding: weight, indices -> rows; ints [padding_idx, scale by frequency] */
static int embedding(const tc_kernel_args *a, cpu_range_fn fn) {
    if (cpu_check_args(a, 2, 1, "embedding")) return TC_FAIL;
    const tc_view *w = &a->inputs[0];
    emb_job j = {.a = a, .w = w->data, .idx = a->inputs[1].data, .n = numel_of(&a->inputs[1]), .rows = w->sizes[0],
                 .d = w->sizes[1], .padding_idx = a->ints[0], .out = a->outputs[0].data};
    int64_t *counts = NULL;
    if (a->ints[1] && !(counts = row_counts(&j))) return TC_FAIL;
    j.counts = counts;
    if (!j.bad) parallel(&j, j.n, j.n * j.d, fn);
    if (counts) cpu_core->host_free(counts, sizeof(int64_t) * (size_t)(j.rows > 0 ? j.rows : 1));
    return raise_bad(&j);
}

/* embedding_dense_backward: grad, indices -> grad_weight; ints [padding_idx, scale_grad_by_freq] */
static int embedding_backward(const tc_kernel_args *a, cpu_range_fn fn) {
    if (cpu_check_args(a, 2, 1, "embedding_dense_backward")) return TC_FAIL;
    const tc_view *out = &a->outputs[0];
    emb_job j = {.a = a, .grad = a->inputs[0].data, .idx = a->inputs[1].data, .n = numel_of(&a->inputs[1]),
                 .rows = out->sizes[0], .d = out->sizes[1], .padding_idx = a->ints[0], .out = out->data};
    int64_t *counts = row_counts(&j);
    if (!counts) return TC_FAIL;
    j.counts = a->ints[1] ? counts : NULL;
    if (!j.bad) parallel(&j, j.rows, j.n * j.d, fn);
    cpu_core->host_free(counts, sizeof(int64_t) * (size_t)(j.rows > 0 ? j.rows : 1));
    return raise_bad(&j);
}

static int cmp_i64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* embedding_renorm_: each row the indices name, once, scaled down to max_norm when its norm exceeds it */
static int embedding_renorm(const tc_kernel_args *a, void (*fn)(emb_job *, const int64_t *, int64_t, double, double)) {
    if (cpu_check_args(a, 1, 1, "embedding_renorm_")) return TC_FAIL;
    const tc_view *self = &a->outputs[0];
    emb_job j = {.a = a, .idx = a->inputs[0].data, .n = numel_of(&a->inputs[0]), .rows = self->sizes[0],
                 .d = self->sizes[1], .row_stride = self->strides[0], .col_stride = self->strides[1],
                 .out = self->data}; /* written in place: any strides (a transposed weight) */
    size_t bytes = sizeof(int64_t) * (size_t)(j.n > 0 ? j.n : 1);
    int64_t *sorted = cpu_core->host_alloc(bytes);
    if (!sorted) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "embedding_renorm_: out of memory");
    memcpy(sorted, j.idx, sizeof(int64_t) * (size_t)j.n);
    qsort(sorted, (size_t)j.n, sizeof(int64_t), cmp_i64);
    int64_t count = 0;
    for (int64_t i = 0; i < j.n; i++) {
        if (sorted[i] < 0 || sorted[i] >= j.rows) {
            long long bad = (long long)sorted[i];
            cpu_core->host_free(sorted, bytes);
            return cpu_core->set_error(TC_ERR_INDEX, "select(): index %lld out of range for tensor of size [%lld, %lld] "
                                                     "at dimension 0", bad, (long long)j.rows, (long long)j.d);
        }
        if (count == 0 || sorted[count - 1] != sorted[i]) sorted[count++] = sorted[i];
    }
    fn(&j, sorted, count, a->scalars[0].v.f, a->scalars[1].v.f);
    cpu_core->host_free(sorted, bytes);
    return TC_OK;
}

/* _embedding_bag: weight, indices, offsets[, psw] -> output, offset2bag, bag_size, max_indices */
static int embedding_bag(const tc_kernel_args *a, cpu_range_fn fn) {
    if (cpu_check_args(a, 3, 4, "embedding_bag")) return TC_FAIL;
    const tc_view *w = &a->inputs[0], *out = &a->outputs[0];
    emb_job j = {.a = a, .w = w->data, .idx = a->inputs[1].data, .n = numel_of(&a->inputs[1]), .rows = w->sizes[0],
                 .d = w->sizes[1], .offsets = a->inputs[2].data, .n_offsets = numel_of(&a->inputs[2]),
                 .mode = (int)a->ints[0], .padding_idx = a->ints[1], .include_last = a->ints[2] != 0,
                 .psw = a->ints[3] && a->n_inputs > 3 ? a->inputs[3].data : NULL, .bags = out->sizes[0],
                 .out = out->data, .out2 = a->outputs[1].data, .out3 = a->outputs[2].data, .out4 = a->outputs[3].data,
                 .bag = true};
    if (j.n_offsets > 0 && j.offsets[0] != 0)
        return cpu_core->set_error(TC_ERR_RUNTIME, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                                                   "has to start from position 0. However, got %lld",
                                   (long long)j.offsets[0]);
    for (int64_t b = 1; b < j.n_offsets; b++)
        if (j.offsets[b] < j.offsets[b - 1] || j.offsets[b] > j.n) return (j.bad = 2, raise_bad(&j));
    for (int64_t i = 0; i < j.n; i++) ((int64_t *)j.out2)[i] = 0;
    parallel(&j, j.bags, j.n * j.d, fn);
    return raise_bad(&j);
}

/* _embedding_bag_dense_backward: grad, indices, offset2bag, bag_size, max_indices[, psw] -> grad_weight;
 * _embedding_bag_dense_double_backward: self, the same -> [bags, D] */
static int bag_backward(const tc_kernel_args *a, cpu_range_fn fn, bool adjoint) {
    if (cpu_check_args(a, 5, 1, "embedding_bag backward")) return TC_FAIL;
    const tc_view *out = &a->outputs[0], *big = adjoint ? &a->inputs[0] : out;
    emb_job j = {.a = a, .idx = a->inputs[1].data, .n = numel_of(&a->inputs[1]), .rows = big->sizes[0],
                 .d = big->sizes[1], .o2b = a->inputs[2].data, .bag_size = a->inputs[3].data,
                 .max_idx = a->inputs[4].data, .bags = numel_of(&a->inputs[3]), .mode = (int)a->ints[0],
                 .padding_idx = a->ints[1], .psw = a->ints[3] && a->n_inputs > 5 ? a->inputs[5].data : NULL,
                 .out = out->data, .bag = true};
    if (adjoint) j.w = a->inputs[0].data;
    else j.grad = a->inputs[0].data;
    int64_t *counts = row_counts(&j);
    if (!counts) return TC_FAIL;
    j.counts = a->ints[2] ? counts : NULL;
    if (j.mode == MODE_MAX)
        for (int64_t e = 0; e < j.bags * j.d && !j.bad; e++)
            if (j.max_idx[e] >= j.rows) j.bad = 1;
    if (!j.bad) parallel(&j, adjoint ? j.bags : j.rows, j.n * j.d, fn);
    cpu_core->host_free(counts, sizeof(int64_t) * (size_t)(j.rows > 0 ? j.rows : 1));
    return raise_bad(&j);
}

/* _embedding_bag_per_sample_weights_backward: grad, weight, indices, offset2bag -> [n] */
static int psw_backward(const tc_kernel_args *a, cpu_range_fn fn) {
    if (cpu_check_args(a, 4, 1, "embedding_bag per_sample_weights backward")) return TC_FAIL;
    const tc_view *w = &a->inputs[1];
    emb_job j = {.a = a, .grad = a->inputs[0].data, .w = w->data, .idx = a->inputs[2].data,
                 .n = numel_of(&a->inputs[2]), .rows = w->sizes[0], .d = w->sizes[1], .o2b = a->inputs[3].data,
                 .bags = a->inputs[0].sizes[0], .padding_idx = a->ints[1], .out = a->outputs[0].data, .bag = true};
    parallel(&j, j.n, j.n * j.d, fn);
    return raise_bad(&j);
}

#define GATHER_KERNEL(_, S)                                                                        \
    static int k_embedding_##S(const tc_kernel_args *a) { return embedding(a, gather_##S); }
CPU_DTYPES_ALL(GATHER_KERNEL, _)

#define FLOAT_KERNELS(_, S)                                                                        \
    static int k_embedding_backward_##S(const tc_kernel_args *a) { return embedding_backward(a, scatter_##S); } \
    static int k_renorm_##S(const tc_kernel_args *a) { return embedding_renorm(a, renorm_##S); }   \
    static int k_bag_##S(const tc_kernel_args *a) { return embedding_bag(a, bag_##S); }            \
    static int k_bag_backward_##S(const tc_kernel_args *a) { return bag_backward(a, bag_backward_##S, false); } \
    static int k_bag_double_backward_##S(const tc_kernel_args *a) {                                \
        return bag_backward(a, bag_double_backward_##S, true);                                     \
    }                                                                                              \
    static int k_psw_backward_##S(const tc_kernel_args *a) { return psw_backward(a, psw_backward_##S); }
CPU_DTYPES_FLOAT(FLOAT_KERNELS, _)

#define GATHER_ENTRY(_, S) {"embedding", CPU_DT_##S, k_embedding_##S},
#define FLOAT_ENTRY(_, S)                                                                          \
    {"embedding_dense_backward", CPU_DT_##S, k_embedding_backward_##S},                            \
    {"embedding_renorm", CPU_DT_##S, k_renorm_##S},                                                \
    {"_embedding_bag", CPU_DT_##S, k_bag_##S},                                                     \
    {"_embedding_bag_dense_backward", CPU_DT_##S, k_bag_backward_##S},                             \
    {"_embedding_bag_dense_double_backward", CPU_DT_##S, k_bag_double_backward_##S},               \
    {"_embedding_bag_per_sample_weights_backward", CPU_DT_##S, k_psw_backward_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(GATHER_ENTRY, _) CPU_DTYPES_FLOAT(FLOAT_ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
