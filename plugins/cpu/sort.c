/*
 * sort.c - sort along one dim: values and int64 indices (the "sort" kernel; argsort and msort are
 * its composites). ints: [dim, descending, stable].
 *
 * PyTorch sorts each line with std::stable_sort when stable=True and with std::sort otherwise, both
 * comparing values only (order.h). A stable sort's result is unique, so any stable algorithm gives
 * PyTorch's: a merge sort here. std::sort's result differs from it only in the order of tied
 * values, so a long line is merge-sorted first and, only when it holds ties, sorted again with the
 * replica of std::sort (stl_sort.h) from its original order; short lines go to the replica at once.
 */
#include "cpu.h"
#include "dtype.h"
#include "lines.h"
#include "order.h"
#include "stl_sort.h"

#define SORT_RUN 32               /* merge sort: insertion-sorted runs */
#define SORT_REPLICA_BELOW 256    /* lines this short go straight to the std::sort replica */

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
    /* Whether two neighbours of a sorted line are equivalent (neither orders before the other). */ \
    static int has_ties_##S(const ord_pair_##S *p, int64_t n, int desc) {                          \
        for (int64_t j = 1; j < n; j++)                                                            \
            if (desc ? !desc_##S(p[j - 1], p[j]) : !asc_##S(p[j - 1], p[j])) return 1;             \
        return 0;                                                                                  \
    }                                                                                              \
    static void sort_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {    \
        const sort_ctx *cx = vctx;                                                                 \
        const int64_t n = cx->n;                                                                   \
        ord_pair_##S *p = scratch, *buf = p + n;                                                   \
        gather_##S(p, (const CPU_T_##S *)ptr[0], n, st[0]);                                        \
        if (cx->stable || n >= SORT_REPLICA_BELOW) {                                               \
            if (cx->descending) msort_desc_##S(p, buf, n);                                         \
            else msort_asc_##S(p, buf, n);                                                         \
        }                                                                                          \
        if (!cx->stable && (n < SORT_REPLICA_BELOW || has_ties_##S(p, n, cx->descending))) {       \
            if (n >= SORT_REPLICA_BELOW) gather_##S(p, (const CPU_T_##S *)ptr[0], n, st[0]);       \
            if (cx->descending) stl_desc_##S##_sort(p, n);                                         \
            else stl_asc_##S##_sort(p, n);                                                         \
        }                                                                                          \
        CPU_T_##S *vals = (CPU_T_##S *)ptr[1];                                                     \
        int64_t *idx = (int64_t *)ptr[2];                                                          \
        for (int64_t j = 0; j < n; j++) {                                                          \
            vals[j * st[1]] = cpu_st_##S(p[j].v);                                                  \
            idx[j * st[2]] = p[j].i;                                                               \
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
        if ((uint64_t)cx.n > SIZE_MAX / (2 * sizeof(ord_pair_##S)))                                \
            return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu sort: a line of %lld elements is too long", \
                                       (long long)cx.n);                                           \
        return cpu_lines_run(views, 3, dim, 2 * sizeof(ord_pair_##S) * (size_t)cx.n, sort_line_##S, &cx, "sort"); \
    }
CPU_DTYPES_ALL(SORT_STAMP, _)

#define ENTRY(_, S) {"sort", CPU_DT_##S, k_sort_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
