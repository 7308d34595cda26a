/*
 * sort.c - sort along one dim: values and int64 indices (the "sort" kernel; argsort and msort are
 * its composites). ints: [dim, descending, stable].
 *
 * PyTorch sorts each line with std::stable_sort when stable=True and with std::sort otherwise, both
 * comparing values only (order.h). A stable sort's result is unique, so any stable algorithm gives
 * PyTorch's: an LSD radix sort of order-preserving integer keys here (a merge sort of pairs for
 * short lines). std::sort's result differs from it only in the order of tied values, so an unstable
 * sort is radix-sorted first and, only when its keys hold ties, sorted again with the replica of
 * std::sort (stl_sort.h) from the original order; a long line whose sampled keys already tie goes
 * to the replica without the radix pass.
 */
#include "cpu.h"
#include "dtype.h"
#include "lines.h"
#include "order.h"
#include "stl_sort.h"

#define SORT_RUN 32               /* merge sort: insertion-sorted runs */
#define SORT_REPLICA_BELOW 64     /* lines this short sort (value, index) pairs directly */
#define SORT_SAMPLE 256           /* keys sampled for ties before an unstable radix sort ... */
#define SORT_SAMPLE_FROM 65536    /* ... of a line this long (shorter ones would feel the cost) */

/* NAME(a, buf, n): sorts a[0..n) stably, buf has room for n elements. */
#define MERGE_SORT_STAMP(NAME, T, LESS)                                                            \
    static void NAME##_runs(T *a, int64_t n) {                                                     \
        for (int64_t s = 0; s < n; s += SORT_RUN) {                                                \
            T *r = a + s;                                                                          \
            const int64_t m = n - s < SORT_RUN ? n - s : SORT_RUN;                                 \
            for (int64_t i = 1; i < m; i++) {                                                      \
                T v = r[i];                                                                        \
                int64_t j = i;                                                                     \
                while (j > 0 && LESS(v, r[j - 1])) {                                               \
                    r[j] = r[j - 1];                                                               \
                    j--;                                                                           \
                }                                                                                  \
                r[j] = v;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void NAME(T *a, T *buf, int64_t n) {                                                    \
        NAME##_runs(a, n);                                                                         \
        T *src = a, *dst = buf;                                                                    \
        for (int64_t w = SORT_RUN; w < n; w *= 2) {                                                \
            for (int64_t s = 0; s < n; s += 2 * w) {                                               \
                const int64_t mid = s + w < n ? s + w : n, end = s + 2 * w < n ? s + 2 * w : n;    \
                int64_t i = s, j = mid, k = s;                                                     \
                while (i < mid && j < end) dst[k++] = LESS(src[j], src[i]) ? src[j++] : src[i++];  \
                while (i < mid) dst[k++] = src[i++];                                               \
                while (j < end) dst[k++] = src[j++];                                               \
            }                                                                                      \
            T *t = src;                                                                            \
            src = dst;                                                                             \
            dst = t;                                                                               \
        }                                                                                          \
        if (src != a) memcpy(a, src, sizeof(T) * (size_t)n);                                       \
    }

/* ---- radix keys: unsigned integers that order as the comparator does ---- */

/* NaN is the largest key (all NaNs equal), -0.0 equals 0.0, negatives come first: then a stable
 * LSD radix sort of the keys is the stable sort PyTorch computes. Descending flips every bit. */
static inline uint32_t rkey_f32(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0xffffffffu;
    if (u == 0x80000000u) u = 0;
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
static inline uint64_t rkey_f64(double v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return ~0ull;
    if (u == 0x8000000000000000ull) u = 0;
    return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
}
/* the 16-bit floats by their bits: exponent width `nan_from` is where NaN begins */
static inline uint32_t rkey_h(uint16_t h, uint16_t nan_from) {
    if ((h & 0x7fffu) > nan_from) return 0xffffu;
    if (h == 0x8000u) h = 0;
    return (h & 0x8000u) ? (uint32_t)(uint16_t)~h : (uint32_t)(h | 0x8000u);
}
static inline uint16_t f16_bits(_Float16 v) {
    uint16_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}
#define RKEY_b8(v) ((uint32_t)(v))
#define RKEY_u8(v) ((uint32_t)(v))
#define RKEY_i8(v) ((uint32_t)((uint8_t)(v) ^ 0x80u))
#define RKEY_i16(v) ((uint32_t)((uint16_t)(v) ^ 0x8000u))
#define RKEY_i32(v) ((uint32_t)(v) ^ 0x80000000u)
#define RKEY_i64(v) ((uint64_t)(v) ^ 0x8000000000000000ull)
#define RKEY_f16(v) rkey_h(f16_bits(v), 0x7c00u)
#define RKEY_bf16(v) rkey_h((v), 0x7f80u)
#define RKEY_f32(v) rkey_f32(v)
#define RKEY_f64(v) rkey_f64(v)
#define RK_b8 uint32_t
#define RK_u8 uint32_t
#define RK_i8 uint32_t
#define RK_i16 uint32_t
#define RK_i32 uint32_t
#define RK_i64 uint64_t
#define RK_f16 uint32_t
#define RK_bf16 uint32_t
#define RK_f32 uint32_t
#define RK_f64 uint64_t

/* Sorts keys (and idx along) by their low nbytes bytes, stably, one byte per pass, skipping
 * bytes that every key shares; the result ends in key/idx. k2/i2 are scratch of n each. */
#define RADIX_STAMP(K)                                                                             \
    static void radix_##K(K *key, int64_t *idx, K *k2, int64_t *i2, int64_t n, int nbytes) {       \
        int64_t count[8][256];                                                                     \
        memset(count, 0, sizeof(int64_t) * 256 * (size_t)nbytes);                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            for (int b = 0; b < nbytes; b++) count[b][(key[i] >> (8 * b)) & 255]++;                 \
        K *src = key, *dst = k2;                                                                   \
        int64_t *isrc = idx, *idst = i2;                                                           \
        for (int b = 0; b < nbytes; b++) {                                                         \
            int64_t *c = count[b];                                                                 \
            if (c[(src[0] >> (8 * b)) & 255] == n) continue; /* one digit: nothing moves */        \
            int64_t at = 0;                                                                        \
            for (int d = 0; d < 256; d++) {                                                        \
                const int64_t k = c[d];                                                            \
                c[d] = at;                                                                         \
                at += k;                                                                           \
            }                                                                                      \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const int64_t to = c[(src[i] >> (8 * b)) & 255]++;                                 \
                dst[to] = src[i];                                                                  \
                idst[to] = isrc[i];                                                                \
            }                                                                                      \
            K *t = src;                                                                            \
            src = dst;                                                                             \
            dst = t;                                                                               \
            int64_t *it = isrc;                                                                    \
            isrc = idst;                                                                           \
            idst = it;                                                                             \
        }                                                                                          \
        if (src != key) {                                                                          \
            memcpy(key, src, sizeof(K) * (size_t)n);                                               \
            memcpy(idx, isrc, sizeof(int64_t) * (size_t)n);                                        \
        }                                                                                          \
    }
RADIX_STAMP(uint32_t)
RADIX_STAMP(uint64_t)

typedef struct sort_ctx {
    int64_t n;
    int descending, stable;
} sort_ctx;

#define SORT_STAMP(_, S)                                                                           \
    static inline int asc_##S(ord_pair_##S a, ord_pair_##S b) { return ORD_ASC(S, a, b); }          \
    static inline int desc_##S(ord_pair_##S a, ord_pair_##S b) { return ORD_DESC(S, a, b); }        \
    STL_SORT_STAMP(stl_asc_##S, ord_pair_##S, asc_##S)                                             \
    STL_SORT_STAMP(stl_desc_##S, ord_pair_##S, desc_##S)                                           \
    MERGE_SORT_STAMP(msort_asc_##S, ord_pair_##S, asc_##S)                                         \
    MERGE_SORT_STAMP(msort_desc_##S, ord_pair_##S, desc_##S)                                       \
    static void gather_##S(ord_pair_##S *p, const CPU_T_##S *in, int64_t n, int64_t s) {           \
        for (int64_t j = 0; j < n; j++) {                                                          \
            p[j].v = cpu_ld_##S(in[j * s]);                                                        \
            p[j].i = j;                                                                            \
        }                                                                                          \
    }                                                                                              \
    /* A short line, or a long one whose keys tie under an unstable sort: (value, index) pairs     \
     * through the merge sort (stable) or the std::sort replica. */                               \
    static void sort_pairs_##S(const sort_ctx *cx, char *const *ptr, const int64_t *st, ord_pair_##S *p, \
                               ord_pair_##S *buf) {                                                \
        const int64_t n = cx->n;                                                                   \
        gather_##S(p, (const CPU_T_##S *)ptr[0], n, st[0]);                                        \
        if (cx->stable) {                                                                          \
            if (cx->descending) msort_desc_##S(p, buf, n);                                         \
            else msort_asc_##S(p, buf, n);                                                         \
        } else if (cx->descending) {                                                               \
            stl_desc_##S##_sort(p, n);                                                             \
        } else {                                                                                   \
            stl_asc_##S##_sort(p, n);                                                              \
        }                                                                                          \
        CPU_T_##S *vals = (CPU_T_##S *)ptr[1];                                                     \
        int64_t *idx = (int64_t *)ptr[2];                                                          \
        for (int64_t j = 0; j < n; j++) {                                                          \
            vals[j * st[1]] = cpu_st_##S(p[j].v);                                                  \
            idx[j * st[2]] = p[j].i;                                                               \
        }                                                                                          \
    }                                                                                              \
    /* Whether evenly spaced keys of a long line already tie (then the line's keys do, and an     \
     * unstable sort goes to the replica at once: its radix pass would be wasted). The same keys  \
     * as the check after the radix pass, so the same lines reach the replica. */                 \
    static int sample_ties_##S(const CPU_T_##S *in, int64_t n, int64_t s) {                       \
        RK_##S k[SORT_SAMPLE];                                                                     \
        for (int j = 0; j < SORT_SAMPLE; j++) {                                                    \
            const RK_##S v = RKEY_##S(in[n / SORT_SAMPLE * j * s]);                                \
            int i = j;                                                                             \
            for (; i > 0 && k[i - 1] > v; i--) k[i] = k[i - 1];                                    \
            if (i > 0 && k[i - 1] == v) return 1;                                                  \
            k[i] = v;                                                                              \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static void sort_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {    \
        const sort_ctx *cx = vctx;                                                                 \
        const int64_t n = cx->n;                                                                   \
        const CPU_T_##S *in = (const CPU_T_##S *)ptr[0];                                           \
        if (n < SORT_REPLICA_BELOW || (!cx->stable && n >= SORT_SAMPLE_FROM && sample_ties_##S(in, n, st[0]))) { \
            sort_pairs_##S(cx, ptr, st, scratch, (ord_pair_##S *)scratch + n);                     \
            return;                                                                                \
        }                                                                                          \
        RK_##S *key = scratch, *k2 = key + n;                                                      \
        int64_t *idx = (int64_t *)(k2 + n), *i2 = idx + n;                                         \
        const RK_##S flip = cx->descending ? (RK_##S)((~(RK_##S)0) >> (8 * (sizeof(RK_##S) - sizeof(CPU_T_##S)))) : 0; \
        for (int64_t j = 0; j < n; j++) {                                                          \
            key[j] = RKEY_##S(in[j * st[0]]) ^ flip;                                               \
            idx[j] = j;                                                                            \
        }                                                                                          \
        CPU_CAT(radix_, RK_##S)(key, idx, k2, i2, n, (int)sizeof(CPU_T_##S));                     \
        if (!cx->stable)                                                                           \
            for (int64_t j = 1; j < n; j++)                                                        \
                if (key[j - 1] == key[j]) { /* ties: std::sort's order of them is PyTorch's */     \
                    sort_pairs_##S(cx, ptr, st, scratch, (ord_pair_##S *)scratch + n);             \
                    return;                                                                        \
                }                                                                                  \
        CPU_T_##S *vals = (CPU_T_##S *)ptr[1];                                                     \
        int64_t *oidx = (int64_t *)ptr[2];                                                         \
        for (int64_t j = 0; j < n; j++) {                                                          \
            vals[j * st[1]] = in[idx[j] * st[0]];                                                  \
            oidx[j * st[2]] = idx[j];                                                              \
        }                                                                                          \
    }                                                                                              \
    static int k_sort_##S(const tc_kernel_args *args) {                                            \
        if (cpu_check_args(args, 1, 2, "sort") != TC_OK) return TC_FAIL;                           \
        if (args->n_ints < 3) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu sort: missing arguments"); \
        const tc_view views[3] = {args->inputs[0], args->outputs[0], args->outputs[1]};            \
        const int dim = (int)args->ints[0];                                                        \
        if (dim < 0 || dim >= views[0].ndim) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu sort: bad dim"); \
        sort_ctx cx = {.n = views[0].sizes[dim], .descending = args->ints[1] != 0, .stable = args->ints[2] != 0}; \
        if (cx.n == 0) return TC_OK;                                                               \
        /* scratch: keys and indices twice over, or the pairs (and merge buffer) of the fallback */ \
        const size_t keys = 2 * (sizeof(RK_##S) + sizeof(int64_t)), pairs = 2 * sizeof(ord_pair_##S); \
        const size_t per = keys > pairs ? keys : pairs;                                            \
        if ((uint64_t)cx.n > SIZE_MAX / per)                                                       \
            return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu sort: a line of %lld elements is too long", \
                                       (long long)cx.n);                                           \
        return cpu_lines_run(views, 3, dim, per * (size_t)cx.n, sort_line_##S, &cx, "sort");       \
    }
CPU_DTYPES_ALL(SORT_STAMP, _)

#define ENTRY(_, S) {"sort", CPU_DT_##S, k_sort_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
