/*
 * linalg.c - the shared parts of the LAPACK kernels (see linalg.h): provider access, batch offsets,
 * gathering and scattering matrices, scratch, and running batch items on the pool.
 */
#include "linalg.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "complex.h"
#include "dtype.h"

const tc_lapack *la_lapack(const char *api) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    const tc_lapack *l = bp && TC_STRUCT_HAS(bp, tc_blas_provider, lapack) ? bp->lapack : NULL;
    if (l && l->struct_size >= TC_LAPACK_SIZE_1_3) return l; /* members added later: TC_STRUCT_HAS */
    return cpu_core->set_error(TC_ERR_RUNTIME, "%s: the BLAS provider '%s' offers no LAPACK (select another with "
                                               "torch.backends.blas.use or TORCH_BLAS)", api, bp ? bp->name : "none"),
           NULL;
}

int la_raise(int status, const char *api) {
    switch (status) {
    case TC_LAPACK_NOMEM: return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "%s: out of memory for LAPACK's workspace", api);
    case TC_LAPACK_TOO_LARGE:
        return cpu_core->set_error(TC_ERR_RUNTIME, "%s: the matrices are too large for the BLAS provider's LAPACK "
                                                   "(32-bit sizes)", api);
    case TC_LAPACK_DTYPE: return cpu_core->set_error(TC_ERR_RUNTIME, "%s: LAPACK does not take this dtype", api);
    case LA_BAD_PIVOTS:
        return cpu_core->set_error(TC_ERR_RUNTIME, "%s: pivots must be between 1 and the size of the matrix; did you "
                                                   "pass the pivots of linalg.lu_factor?", api);
    default:
        return cpu_core->set_error(TC_ERR_RUNTIME, "%s: LAPACK rejected an argument (status %d); this is a bug in the "
                                                   "CPU plugin", api, status);
    }
}

int la_raise_item(int st, int64_t failed, const tc_view *a, const char *api, const char *what) {
    char batch[64] = "";
    if (a->ndim > 2) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)failed);
    if (st == LA_NONFINITE)
        return cpu_core->set_error(TC_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix "
                                                  "contained non-finite values.", api, batch);
    if (st > 0)
        return cpu_core->set_error(TC_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix is "
                                                  "ill-conditioned or has too many repeated %s (error code: %d).",
                                   api, batch, what, st);
    return la_raise(st, api);
}

/* What a complex member computes, and the plugin ABI that added it (1.4 unless listed as 1.5). */
static const char *complex_member_kind(const char *member) {
    if (!strcmp(member, "geev_complex") || !strcmp(member, "heevd_complex")) return "eigendecomposition";
    return strcmp(member, "gesdd_complex") ? "factorisation" : "singular value decomposition";
}

static const char *complex_member_abi(const char *member) {
    static const char *const since_1_5[] = {"trsm_complex", "geqrf_complex", "ungqr_complex", "unmqr_complex",
                                            "gesdd_complex", "heevd_complex", "gels_complex", "gelsy_complex",
                                            "gelsd_complex", "gelss_complex"};
    for (size_t i = 0; i < sizeof since_1_5 / sizeof since_1_5[0]; i++)
        if (!strcmp(member, since_1_5[i])) return "1.5";
    return "1.4";
}

int la_no_complex(const char *api, const char *member) {
    return cpu_core->set_error(TC_ERR_RUNTIME, "%s: the LAPACK of the BLAS provider '%s' has no %s of complex "
                                               "matrices (%s, plugin ABI %s); select another provider with "
                                               "torch.backends.blas.use or TORCH_BLAS", api,
                               cpu_core->blas_current()->name, complex_member_kind(member), member,
                               complex_member_abi(member));
}

int la_dtype_error(const char *kernel, int32_t dtype) {
    static const char *const names[TC_NUM_DTYPES] = {"Bool",  "Byte",   "Char",       "Short",        "Int",
                                                     "Long",  "Half",   "BFloat16",   "Float",        "Double",
                                                     "ComplexHalf", "ComplexFloat", "ComplexDouble"};
    return cpu_core->set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                               dtype >= 0 && dtype < TC_NUM_DTYPES ? names[dtype] : "?");
}

int la_no_member(const char *api, const char *member) {
    return cpu_core->set_error(TC_ERR_RUNTIME, "%s: the LAPACK of the BLAS provider '%s' has no %s (plugin ABI 1.5, "
                                               "for complex matrices); select another provider with "
                                               "torch.backends.blas.use or TORCH_BLAS", api,
                               cpu_core->blas_current()->name, member);
}

void la_conj(int32_t dtype, void *m, int64_t rows, int64_t cols, int64_t ld) {
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) {
            const int64_t k = 2 * (i + j * ld) + 1;
            if (dtype == TC_COMPLEX128)
                ((double *)m)[k] = -((double *)m)[k];
            else if (dtype == TC_COMPLEX64)
                ((float *)m)[k] = -((float *)m)[k];
        }
}

/* ---- batches ---- */

int64_t la_batch_count(const tc_view *v, int32_t mdims) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim - mdims; d++) n *= v->sizes[d];
    return n;
}

int64_t la_offset(const tc_view *v, int32_t mdims, int64_t b) {
    int64_t off = 0;
    for (int32_t d = v->ndim - mdims - 1; d >= 0; d--) {
        const int64_t size = v->sizes[d];
        off += (b % size) * v->strides[d];
        b /= size;
    }
    return off;
}

int64_t la_offset_bcast(const tc_view *v, int32_t v_mdims, const tc_view *like, int32_t like_mdims, int64_t b) {
    const int32_t nv = v->ndim - v_mdims, nl = like->ndim - like_mdims;
    int64_t off = 0;
    for (int32_t d = nl - 1; d >= 0; d--) {
        const int64_t size = like->sizes[d], idx = b % size;
        b /= size;
        const int32_t dv = d - (nl - nv);
        if (dv >= 0 && v->sizes[dv] != 1) off += idx * v->strides[dv];
    }
    return off;
}

/* ---- moving matrices ---- */

#define LA_MOVE(T)                                                                                 \
    static void gather_##T(const tc_view *v, int64_t off, T *dst, int64_t ld, bool trans) {        \
        const T *src = (const T *)v->data + off;                                                   \
        const int64_t r = la_rows(v), c = la_cols(v), s0 = v->strides[v->ndim - 2], s1 = v->strides[v->ndim - 1]; \
        for (int64_t j = 0; j < c; j++)                                                            \
            for (int64_t i = 0; i < r; i++) {                                                      \
                const T x = src[i * s0 + j * s1];                                                  \
                if (trans)                                                                         \
                    dst[j + i * ld] = x;                                                           \
                else                                                                               \
                    dst[i + j * ld] = x;                                                           \
            }                                                                                      \
    }                                                                                              \
    static void scatter_##T(const tc_view *v, int64_t off, const T *src, int64_t ld, bool trans) { \
        T *dst = (T *)v->data + off;                                                               \
        const int64_t r = la_rows(v), c = la_cols(v), s0 = v->strides[v->ndim - 2], s1 = v->strides[v->ndim - 1]; \
        if (!trans && s0 == 1)                                                                     \
            for (int64_t j = 0; j < c; j++) memcpy(dst + j * s1, src + j * ld, sizeof(T) * (size_t)r); \
        else if (trans && s1 == 1)                                                                 \
            for (int64_t i = 0; i < r; i++) memcpy(dst + i * s0, src + i * ld, sizeof(T) * (size_t)c); \
        else                                                                                       \
            for (int64_t i = 0; i < r; i++)                                                        \
                for (int64_t j = 0; j < c; j++) dst[i * s0 + j * s1] = trans ? src[j + i * ld] : src[i + j * ld]; \
    }
LA_MOVE(float)
LA_MOVE(double)
LA_MOVE(cpu_cf)
LA_MOVE(cpu_cd)

void la_gather(const tc_view *v, int64_t off, void *dst, int64_t ld, bool trans) {
    switch (v->dtype) {
    case TC_FLOAT64: gather_double(v, off, dst, ld, trans); break;
    case TC_COMPLEX64: gather_cpu_cf(v, off, dst, ld, trans); break;
    case TC_COMPLEX128: gather_cpu_cd(v, off, dst, ld, trans); break;
    default: gather_float(v, off, dst, ld, trans);
    }
}

void la_scatter(const tc_view *v, int64_t off, const void *src, int64_t ld, bool trans) {
    switch (v->dtype) {
    case TC_FLOAT64: scatter_double(v, off, src, ld, trans); break;
    case TC_COMPLEX64: scatter_cpu_cf(v, off, src, ld, trans); break;
    case TC_COMPLEX128: scatter_cpu_cd(v, off, src, ld, trans); break;
    default: scatter_float(v, off, src, ld, trans);
    }
}

void la_gather_vec(const tc_view *v, int64_t off, void *dst) {
    const int64_t n = v->sizes[v->ndim - 1], s = v->strides[v->ndim - 1];
    const size_t es = cpu_dtype_size(v->dtype);
    const char *src = (const char *)v->data + (size_t)off * es;
    for (int64_t i = 0; i < n; i++) memcpy((char *)dst + (size_t)i * es, src + (size_t)(i * s) * es, es);
}

void la_scatter_vec(const tc_view *v, int64_t off, const void *src) {
    const int64_t n = v->sizes[v->ndim - 1], s = v->strides[v->ndim - 1];
    const size_t es = cpu_dtype_size(v->dtype);
    char *dst = (char *)v->data + (size_t)off * es;
    for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)(i * s) * es, (const char *)src + (size_t)i * es, es);
}

void la_fill(const tc_view *v, int64_t off, double value) {
    const int64_t r = la_rows(v), c = la_cols(v), s0 = v->strides[v->ndim - 2], s1 = v->strides[v->ndim - 1];
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++) {
            const int64_t at = off + i * s0 + j * s1;
            if (v->dtype == TC_FLOAT64)
                ((double *)v->data)[at] = value;
            else if (v->dtype == TC_FLOAT32)
                ((float *)v->data)[at] = (float)value;
            else if (v->dtype == TC_COMPLEX128)
                ((double *)v->data)[2 * at] = ((double *)v->data)[2 * at + 1] = value;
            else
                ((float *)v->data)[2 * at] = ((float *)v->data)[2 * at + 1] = (float)value;
        }
}

bool la_finite(int32_t dtype, const void *m, int64_t rows, int64_t cols, int64_t ld) {
    const bool cplx = dtype == TC_COMPLEX64 || dtype == TC_COMPLEX128, wide = dtype == TC_FLOAT64 || dtype == TC_COMPLEX128;
    const int64_t parts = cplx ? 2 : 1;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows * parts; i++) {
            const int64_t at = i + j * ld * parts;
            const double x = wide ? ((const double *)m)[at] : ((const float *)m)[at];
            if (!isfinite(x)) return false;
        }
    return true;
}

/* ---- scratch ---- */

void *la_scratch_get(la_scratch *s, size_t bytes) {
    if (bytes == SIZE_MAX) return NULL;
    if (s->buf && bytes <= s->bytes) return s->buf; /* an empty scratch has no buffer, even for 0 bytes */
    if (s->buf) cpu_core->host_free(s->buf, s->bytes);
    s->bytes = 0;
    s->buf = cpu_core->host_alloc(bytes ? bytes : 1);
    if (s->buf) s->bytes = bytes ? bytes : 1;
    return s->buf;
}

static void la_scratch_release(la_scratch *s) {
    if (s->buf) cpu_core->host_free(s->buf, s->bytes);
    s->buf = NULL;
    s->bytes = 0;
    if (s->lapack && s->ws.data) s->lapack->ws_release(&s->ws);
}

size_t la_bytes(size_t es, int64_t count_a, int64_t count_b, int64_t count_c) {
    uint64_t total = 0;
    const int64_t counts[3] = {count_a, count_b, count_c};
    for (int i = 0; i < 3; i++) {
        uint64_t part;
        if (counts[i] < 0 || __builtin_mul_overflow((uint64_t)counts[i], (uint64_t)es, &part) || part > UINT64_MAX / 2 ||
            __builtin_add_overflow(total, (part + 63) & ~(uint64_t)63, &total))
            return SIZE_MAX;
    }
    return total > SIZE_MAX / 2 ? SIZE_MAX : (size_t)total;
}

/* ---- running items ---- */

typedef struct la_job {
    const tc_lapack *lapack;
    la_item_fn fn;
    void *ctx;
    pthread_mutex_t lock;
    int64_t failed_item; /* lowest failing index; INT64_MAX when none */
    int status;
} la_job;

static void la_piece(void *vjob, int64_t b0, int64_t b1) {
    la_job *j = vjob;
    la_scratch s = {.lapack = j->lapack};
    for (int64_t b = b0; b < b1; b++) {
        const int st = j->fn(j->ctx, b, &s);
        if (!st) continue;
        pthread_mutex_lock(&j->lock);
        if (b < j->failed_item) j->failed_item = b, j->status = st;
        pthread_mutex_unlock(&j->lock);
        if (st < 0) break; /* out of memory or a bad argument: the rest of the piece would fail alike */
    }
    la_scratch_release(&s);
}

int la_batches(const tc_lapack *l, int64_t count, int64_t work, la_item_fn fn, void *ctx, int64_t *failed_item) {
    la_job job = {.lapack = l, .fn = fn, .ctx = ctx, .lock = PTHREAD_MUTEX_INITIALIZER, .failed_item = INT64_MAX};
    if (count <= 0) return 0;
    /* one item of this size or more is left to LAPACK's own threading (its BLAS), one at a time */
    const int side_by_side = work < ((int64_t)1 << 21);
    int64_t total;
    if (__builtin_mul_overflow(work > 1 ? work : 1, count, &total)) total = INT64_MAX;
    cpu_parallel(count, side_by_side ? cpu_threads_for(total) : 1, la_piece, &job);
    pthread_mutex_destroy(&job.lock);
    if (failed_item) *failed_item = job.failed_item;
    return job.failed_item == INT64_MAX ? 0 : job.status;
}
