/*
 * select.c - selection along one dim, each as PyTorch's CPU kernel computes it, ties included:
 *
 *   topk          ints [dim, k, largest, sorted] -> values and indices of length k. std::partial_sort
 *                 when k * 64 <= n (its heap selection run on the line in place), else
 *                 std::nth_element (and, sorted, std::sort of the first k - 1), NaN counting as the
 *                 largest value (stl_sort.h replicas).
 *   kthvalue      ints [dim, k] -> keepdim values and indices: TH's quickselect (Sedgewick's
 *                 partitioning, median of three), written again below.
 *   median_dim,   ints [dim] -> keepdim values and indices: the lower median; median_dim returns the
 *   nanmedian_dim first NaN when there is one, nanmedian_dim the median of the non-NaN values.
 *                 Ties are broken by index, so the index is the stable one.
 *   mode          ints [dim] -> keepdim values and indices: std::sort of (value, index) by value,
 *                 then the longest run, the last index of its run in that order.
 *   median_all,   every element -> a 0-dim value: std::nth_element on the values alone.
 *   nanmedian_all
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"
#include "lines.h"
#include "order.h"
#include "stl_sort.h"

typedef struct select_ctx {
    int64_t n, k;
    int largest, sorted;
} select_ctx;

/* median's order: by value, ties by index; nanmedian's also puts NaN last. */
#define MED_LESS(S, a, b) ((a).v < (b).v || ((a).v == (b).v && (a).i < (b).i))
#define NANMED_LESS(S, a, b) (MED_LESS(S, a, b) || (ORD_ISNAN(S, (b).v) && !ORD_ISNAN(S, (a).v)))

/* TH's quickselect: k-th smallest of p[0..n) under "greater or NaN" (GT), moved to p[k]. */
#define QSELECT_STAMP(NAME, T, GT)                                                                 \
    static void NAME(T *p, int64_t n, int64_t k) {                                                 \
        int64_t L = 0, R = n - 1;                                                                  \
        for (;;) {                                                                                 \
            if (R <= L) return;                                                                    \
            if (R == L + 1) {                                                                      \
                if (GT(p[L], p[R])) NAME##_swap(p, L, R);                                          \
                return;                                                                            \
            }                                                                                      \
            NAME##_swap(p, (L + R) >> 1, L + 1);                                                   \
            if (GT(p[L + 1], p[R])) NAME##_swap(p, L + 1, R);                                      \
            if (GT(p[L], p[R])) NAME##_swap(p, L, R);                                              \
            if (GT(p[L + 1], p[L])) NAME##_swap(p, L + 1, L);                                      \
            int64_t i = L + 1, j = R;                                                              \
            const T piv = p[L];                                                                    \
            for (;;) {                                                                             \
                do i++;                                                                            \
                while (i < R && GT(piv, p[i]));                                                    \
                do j--;                                                                            \
                while (j > L && GT(p[j], piv));                                                    \
                if (j < i) break;                                                                  \
                NAME##_swap(p, i, j);                                                              \
            }                                                                                      \
            NAME##_swap(p, L, j);                                                                  \
            if (j <= k) L = i;                                                                     \
            if (j >= k) R = j - 1;                                                                 \
        }                                                                                          \
    }

/* Whether PyTorch's topk takes std::partial_sort (else std::nth_element): k * 64 <= n. */
static inline int topk_by_heap(int64_t k, int64_t n) { return k <= n / 64; }

/* Whether value v goes before the heap's top t, as desc/asc order them (NaN the largest); written
 * without branches so that a run of elements is tested as vectors. */
#define TOPK_BEYOND_MAX(S, v, t) ((ORD_ISNAN(S, v) & !ORD_ISNAN(S, t)) | ((v) > (t)))
#define TOPK_BEYOND_MIN(S, v, t) ((!ORD_ISNAN(S, v) & ORD_ISNAN(S, t)) | ((v) < (t)))
/* Elements tested at once against the heap's top before any is looked at alone. */
#define TOPK_RUN 64

/* std::partial_sort of the line's (value, index) pairs into q[0..k), without copying the line:
 * heap selection replaces the top by element i (pop_heap(first, middle, i)) only when i goes before
 * it, and writes the old top to position i, which it never reads again. So the line is read in
 * place, a run of TOPK_RUN elements at a time, and each element that beats the top sifts into the
 * heap as it would have; the heap goes through the same states, ties and NaNs included. */
#define TOPK_HEAP_STAMP(NAME, S, LESS, BEYOND)                                                     \
    static void NAME##_heap_stream(pair_##S *q, const char *in, int64_t n, int64_t s, int64_t k) { \
        const CPU_T_##S *x = (const CPU_T_##S *)in;                                                \
        gather_##S(q, in, k, s);                                                                   \
        NAME##_make_heap(q, q + k);                                                                \
        int64_t j = k;                                                                             \
        while (j < n) {                                                                            \
            if (j + TOPK_RUN <= n) {                                                               \
                const CPU_C_##S top = q[0].v;                                                      \
                const CPU_T_##S *r = x + j * s;                                                    \
                int any = 0;                                                                       \
                if (s == 1) /* as vectors */                                                       \
                    for (int t = 0; t < TOPK_RUN; t++) any |= BEYOND(S, cpu_ld_##S(r[t]), top);   \
                else                                                                               \
                    for (int t = 0; t < TOPK_RUN; t++) any |= BEYOND(S, cpu_ld_##S(r[t * s]), top); \
                if (!any) {                                                                        \
                    j += TOPK_RUN;                                                                 \
                    continue;                                                                      \
                }                                                                                  \
            }                                                                                      \
            for (const int64_t end = j + TOPK_RUN < n ? j + TOPK_RUN : n; j < end; j++) {          \
                const pair_##S e = {cpu_ld_##S(x[j * s]), j};                                      \
                if (LESS(e, q[0])) NAME##_adjust_heap(q, 0, k, e);                                 \
            }                                                                                      \
        }                                                                                          \
        NAME##_sort_heap(q, q + k);                                                                \
    }

#define SELECT_STAMP(_, S)                                                                         \
    typedef ord_pair_##S pair_##S;                                                                 \
    static inline int desc_##S(pair_##S a, pair_##S b) { return ORD_DESC(S, a, b); }               \
    static inline int asc_##S(pair_##S a, pair_##S b) { return ORD_ASC(S, a, b); }                \
    static inline int med_##S(pair_##S a, pair_##S b) { return MED_LESS(S, a, b); }                \
    static inline int nanmed_##S(pair_##S a, pair_##S b) { return NANMED_LESS(S, a, b); }          \
    static inline int mode_less_##S(pair_##S a, pair_##S b) { return a.v < b.v; }                  \
    STL_SORT_STAMP(top_##S, pair_##S, desc_##S)                                                    \
    STL_SORT_STAMP(bottom_##S, pair_##S, asc_##S)                                                  \
    STL_SORT_STAMP(med_##S, pair_##S, med_##S)                                                     \
    STL_SORT_STAMP(nanmed_##S, pair_##S, nanmed_##S)                                               \
    STL_SORT_STAMP(mode_##S, pair_##S, mode_less_##S)                                              \
    static inline void qsel_##S##_swap(pair_##S *p, int64_t a, int64_t b) {                        \
        pair_##S t = p[a];                                                                         \
        p[a] = p[b];                                                                               \
        p[b] = t;                                                                                  \
    }                                                                                              \
    QSELECT_STAMP(qsel_##S, pair_##S, desc_##S)                                                    \
    static void gather_##S(pair_##S *p, const char *in, int64_t n, int64_t s) {                    \
        const CPU_T_##S *x = (const CPU_T_##S *)in;                                                \
        for (int64_t j = 0; j < n; j++) {                                                          \
            p[j].v = cpu_ld_##S(x[j * s]);                                                         \
            p[j].i = j;                                                                            \
        }                                                                                          \
    }                                                                                              \
    static void put_##S(char *const *ptr, const int64_t *st, int64_t j, pair_##S e) {              \
        ((CPU_T_##S *)ptr[1])[j * st[1]] = cpu_st_##S(e.v);                                        \
        ((int64_t *)ptr[2])[j * st[2]] = e.i;                                                      \
    }                                                                                              \
    TOPK_HEAP_STAMP(top_##S, S, desc_##S, TOPK_BEYOND_MAX)                                         \
    TOPK_HEAP_STAMP(bottom_##S, S, asc_##S, TOPK_BEYOND_MIN)                                       \
    static void topk_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {    \
        const select_ctx *cx = vctx;                                                               \
        const int64_t n = cx->n, k = cx->k;                                                        \
        pair_##S *q = scratch;                                                                     \
        if (topk_by_heap(k, n)) {                                                                  \
            if (cx->largest) top_##S##_heap_stream(q, ptr[0], n, st[0], k);                        \
            else bottom_##S##_heap_stream(q, ptr[0], n, st[0], k);                                 \
            for (int64_t j = 0; j < k; j++) put_##S(ptr, st, j, q[j]);                             \
            return;                                                                                \
        }                                                                                          \
        gather_##S(q, ptr[0], n, st[0]);                                                           \
        if (cx->largest) {                                                                         \
            top_##S##_nth_element(q, k - 1, n);                                                    \
            if (cx->sorted) top_##S##_sort(q, k - 1);                                              \
        } else {                                                                                   \
            bottom_##S##_nth_element(q, k - 1, n);                                                 \
            if (cx->sorted) bottom_##S##_sort(q, k - 1);                                           \
        }                                                                                          \
        for (int64_t j = 0; j < k; j++) put_##S(ptr, st, j, q[j]);                                 \
    }                                                                                              \
    static void kth_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {     \
        const select_ctx *cx = vctx;                                                               \
        pair_##S *q = scratch;                                                                     \
        gather_##S(q, ptr[0], cx->n, st[0]);                                                       \
        qsel_##S(q, cx->n, cx->k - 1);                                                             \
        put_##S(ptr, st, 0, q[cx->k - 1]);                                                         \
    }                                                                                              \
    static void mode_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {    \
        const select_ctx *cx = vctx;                                                               \
        const int64_t n = cx->n;                                                                   \
        pair_##S *q = scratch;                                                                     \
        gather_##S(q, ptr[0], n, st[0]);                                                           \
        mode_##S##_sort(q, n);                                                                     \
        pair_##S best = {0, 0};                                                                    \
        int64_t run = 0, longest = 0;                                                              \
        for (int64_t j = 0; j < n; j++) {                                                          \
            run++;                                                                                 \
            if (j == n - 1 || q[j].v != q[j + 1].v) {                                              \
                if (run > longest) {                                                               \
                    best = q[j];                                                                   \
                    longest = run;                                                                 \
                }                                                                                  \
                run = 0;                                                                           \
            }                                                                                      \
        }                                                                                          \
        put_##S(ptr, st, 0, best);                                                                 \
    }                                                                                              \
    static int med_v_less_##S(CPU_C_##S a, CPU_C_##S b) { return a < b; }                           \
    static int nanmed_v_less_##S(CPU_C_##S a, CPU_C_##S b) {                                       \
        return a < b || (ORD_ISNAN(S, b) && !ORD_ISNAN(S, a));                                     \
    }                                                                                              \
    STL_SORT_STAMP(medv_##S, CPU_C_##S, med_v_less_##S)                                            \
    static void load_##S(void *dst, const char *src) { *(CPU_C_##S *)dst = cpu_ld_##S(*(const CPU_T_##S *)src); } \
    STL_SORT_STAMP(nanmedv_##S, CPU_C_##S, nanmed_v_less_##S)                                      \
    /* (value, index) order is total among non-NaN elements, so the element at a rank is known from \
     * its value alone: select on the values (a quarter of the pairs' bytes), then take the       \
     * (at - #smaller)-th element equal to it in index order. */                                  \
    static int64_t rank_index_##S(const char *in, int64_t n, int64_t s, CPU_C_##S v, int64_t at) { \
        const CPU_T_##S *x = (const CPU_T_##S *)in;                                                \
        int64_t less = 0;                                                                          \
        for (int64_t j = 0; j < n; j++) less += cpu_ld_##S(x[j * s]) < v;                          \
        for (int64_t j = 0, r = at - less; j < n; j++)                                             \
            if (cpu_ld_##S(x[j * s]) == v && r-- == 0) return j;                                   \
        return 0; /* not reached: v is one of the elements */                                     \
    }                                                                                              \
    static void put_rank_##S(char *const *ptr, const int64_t *st, int64_t n, CPU_C_##S v, int64_t at) { \
        const int64_t j = rank_index_##S(ptr[0], n, st[0], v, at);                                 \
        put_##S(ptr, st, 0, (pair_##S){cpu_ld_##S(((const CPU_T_##S *)ptr[0])[j * st[0]]), j});    \
    }                                                                                              \
    static void median_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {  \
        const select_ctx *cx = vctx;                                                               \
        const int64_t n = cx->n;                                                                   \
        const CPU_T_##S *x = (const CPU_T_##S *)ptr[0];                                            \
        CPU_C_##S *q = scratch;                                                                    \
        for (int64_t j = 0; j < n; j++) {                                                          \
            q[j] = cpu_ld_##S(x[j * st[0]]);                                                       \
            if (ORD_ISNAN(S, q[j])) {                                                              \
                put_##S(ptr, st, 0, (pair_##S){q[j], j});                                          \
                return;                                                                            \
            }                                                                                      \
        }                                                                                          \
        medv_##S##_nth_element(q, (n - 1) / 2, n);                                                 \
        put_rank_##S(ptr, st, n, q[(n - 1) / 2], (n - 1) / 2);                                     \
    }                                                                                              \
    static void nanmedian_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) { \
        const select_ctx *cx = vctx;                                                               \
        const int64_t n = cx->n;                                                                   \
        const CPU_T_##S *x = (const CPU_T_##S *)ptr[0];                                            \
        CPU_C_##S *q = scratch;                                                                    \
        int64_t nans = 0;                                                                          \
        for (int64_t j = 0; j < n; j++) {                                                          \
            q[j] = cpu_ld_##S(x[j * st[0]]);                                                       \
            nans += ORD_ISNAN(S, q[j]);                                                            \
        }                                                                                          \
        if (nans == n) { /* NaNs tie with each other: which one is PyTorch's nth_element's affair */ \
            pair_##S *p = scratch;                                                                 \
            gather_##S(p, ptr[0], n, st[0]);                                                       \
            nanmed_##S##_nth_element(p, 0, n);                                                     \
            put_##S(ptr, st, 0, p[0]);                                                             \
            return;                                                                                \
        }                                                                                          \
        const int64_t at = (n - nans - 1) / 2;                                                     \
        nanmedv_##S##_nth_element(q, at, n);                                                       \
        put_rank_##S(ptr, st, n, q[at], at);                                                       \
    }                                                                                              \
    /* The median of every element, PyTorch's way: the values in memory order, std::nth_element    \
     * on values alone (which of two tied zeros comes out depends on it), NaN when empty or, for    \
     * median, when any element is NaN. */                                                        \
    static int median_all_##S(const tc_kernel_args *args, int ignore_nan, const char *name) {      \
        if (cpu_check_args(args, 1, 1, name) != TC_OK) return TC_FAIL;                             \
        const tc_view *in = &args->inputs[0];                                                      \
        CPU_T_##S *out = args->outputs[0].data;                                                    \
        int64_t n = 1;                                                                             \
        for (int d = 0; d < in->ndim; d++) n *= in->sizes[d];                                      \
        if (n == 0) {                                                                              \
            *out = cpu_from_f64_##S(NAN);                                                          \
            return TC_OK;                                                                          \
        }                                                                                          \
        if ((uint64_t)n > SIZE_MAX / sizeof(CPU_C_##S))                                            \
            return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu %s: too many elements", name);   \
        CPU_C_##S *v = cpu_core->host_alloc(sizeof(CPU_C_##S) * (size_t)n);                         \
        if (!v) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu %s: out of memory", name);   \
        cpu_gather(in, 1, v, sizeof(CPU_C_##S), sizeof(CPU_C_##S) == sizeof(CPU_T_##S) ? NULL : load_##S);                               \
        int64_t nans = 0;                                                                          \
        for (int64_t j = 0; j < n; j++) nans += ORD_ISNAN(S, v[j]);                                \
        if (nans && !ignore_nan) {                                                                 \
            *out = cpu_from_f64_##S(NAN);                                                          \
        } else if (ignore_nan) {                                                                   \
            const int64_t at = (n - nans - 1) / 2;                                                 \
            nanmedv_##S##_nth_element(v, at, n);                                                   \
            *out = cpu_st_##S(v[at]);                                                              \
        } else {                                                                                   \
            medv_##S##_nth_element(v, (n - 1) / 2, n);                                             \
            *out = cpu_st_##S(v[(n - 1) / 2]);                                                     \
        }                                                                                          \
        cpu_core->host_free(v, sizeof(CPU_C_##S) * (size_t)n);                                      \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int k_median_all_##S(const tc_kernel_args *args) { return median_all_##S(args, 0, "median"); } \
    static int k_nanmedian_all_##S(const tc_kernel_args *args) { return median_all_##S(args, 1, "nanmedian"); } \
    static int k_topk_##S(const tc_kernel_args *args) {                                            \
        return select_run(args, 4, topk_line_##S, sizeof(pair_##S), "topk");                      \
    }                                                                                              \
    static int k_kthvalue_##S(const tc_kernel_args *args) {                                        \
        return select_run(args, 2, kth_line_##S, sizeof(pair_##S), "kthvalue");                    \
    }                                                                                              \
    static int k_median_##S(const tc_kernel_args *args) {                                          \
        return select_run(args, 1, median_line_##S, sizeof(pair_##S), "median_dim");               \
    }                                                                                              \
    static int k_nanmedian_##S(const tc_kernel_args *args) {                                       \
        return select_run(args, 1, nanmedian_line_##S, sizeof(pair_##S), "nanmedian_dim");         \
    }                                                                                              \
    static int k_mode_##S(const tc_kernel_args *args) {                                            \
        return select_run(args, 1, mode_line_##S, sizeof(pair_##S), "mode");                       \
    }

/* Reads the contract's ints ([dim, k, largest, sorted] as far as n_ints) and runs `line` over every
 * line of the input along dim, with scratch for one (value, index) pair per element. */
static int select_run(const tc_kernel_args *args, int n_ints, cpu_line_fn line, size_t pair_bytes, const char *name) {
    if (cpu_check_args(args, 1, 2, name) != TC_OK) return TC_FAIL;
    if (args->n_ints < n_ints) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: missing arguments", name);
    const tc_view views[3] = {args->inputs[0], args->outputs[0], args->outputs[1]};
    const int64_t dim = args->ints[0];
    if (dim < 0 || dim >= views[0].ndim) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: bad dim", name);
    select_ctx cx = {.n = views[0].sizes[dim], .k = n_ints > 1 ? args->ints[1] : 0,
                     .largest = n_ints > 2 && args->ints[2] != 0, .sorted = n_ints > 3 && args->ints[3] != 0};
    if (cx.n == 0 || (n_ints > 1 && (cx.k < 0 || cx.k > cx.n))) return TC_OK; /* the meta function refused the rest */
    if (n_ints == 4 && cx.k == 0) return TC_OK;
    if ((uint64_t)cx.n > SIZE_MAX / pair_bytes)
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu %s: a line of %lld elements is too long", name,
                                   (long long)cx.n);
    /* topk's heap selection holds k pairs; the rest hold the line */
    const int64_t held = n_ints == 4 && topk_by_heap(cx.k, cx.n) ? cx.k : cx.n;
    return cpu_lines_run(views, 3, (int)dim, pair_bytes * (size_t)held, line, &cx, name);
}

CPU_DTYPES_ALL(SELECT_STAMP, _)

#define ENTRY(_, S)                                                                                \
    {"topk", CPU_DT_##S, k_topk_##S}, {"kthvalue", CPU_DT_##S, k_kthvalue_##S},                    \
        {"median_dim", CPU_DT_##S, k_median_##S}, {"nanmedian_dim", CPU_DT_##S, k_nanmedian_##S},  \
        {"mode", CPU_DT_##S, k_mode_##S}, {"median_all", CPU_DT_##S, k_median_all_##S},            \
        {"nanmedian_all", CPU_DT_##S, k_nanmedian_all_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
