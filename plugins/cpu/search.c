/*
 * search.c - searchsorted (also bucketize): where each value would go in a sorted row.
 *
 * Contract: inputs [sorted_sequence, values, optional sorter (int64, the sequence's shape)], all of
 * one dtype; output int64 or int32 of the values' shape. The sequence is 1-D, or has the values'
 * leading dims with one row each. ints[0] = right (upper bound instead of lower). The binary search
 * is PyTorch's, comparisons included (`!(x >= v)` / `!(x > v)`), so NaN lands where it does there.
 * A sorter entry outside the row is refused (PyTorch would read outside the tensor).
 */
#include "cpu.h"
#include "dtype.h"
#include "lines.h"

typedef struct search_ctx {
    const char *seq;      /* a 1-D sequence (or each row's start, for N-D ones) */
    const int64_t *sorter;
    int64_t n, seq_s, sorter_s; /* the row length, and element strides along it */
    int64_t rows_inner;         /* values per line (the values' last dim) */
    int right, out32;
    int bad_sorter;
} search_ctx;

#define SEARCH_STAMP(_, S)                                                                         \
    static int64_t bound_##S(const search_ctx *cx, const CPU_T_##S *seq, const int64_t *sort, CPU_C_##S v) { \
        int64_t lo = 0, hi = cx->n;                                                                \
        while (lo < hi) {                                                                          \
            const int64_t mid = lo + ((hi - lo) >> 1);                                             \
            int64_t at = mid;                                                                      \
            if (sort) {                                                                            \
                at = sort[mid * cx->sorter_s];                                                     \
                if (at < 0 || at >= cx->n) return -1;                                              \
            }                                                                                      \
            const CPU_C_##S x = cpu_ld_##S(seq[at * cx->seq_s]);                                   \
            if (cx->right ? !(x > v) : !(x >= v)) lo = mid + 1;                                    \
            else hi = mid;                                                                         \
        }                                                                                          \
        return lo;                                                                                 \
    }                                                                                              \
    static void put_##S(search_ctx *cx, char *out, int64_t pos) {                                  \
        if (pos < 0) __atomic_store_n(&cx->bad_sorter, 1, __ATOMIC_RELAXED);                        \
        if (cx->out32) *(int32_t *)out = (int32_t)pos;                                             \
        else *(int64_t *)out = pos;                                                                \
    }                                                                                              \
    /* A 1-D sequence: any line of values searches the one row. */                               \
    static void search_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) {  \
        search_ctx *cx = vctx;                                                                     \
        (void)scratch;                                                                             \
        const CPU_T_##S *v = (const CPU_T_##S *)ptr[0];                                            \
        const size_t oes = cx->out32 ? 4 : 8;                                                      \
        for (int64_t j = 0; j < cx->rows_inner; j++)                                               \
            put_##S(cx, ptr[1] + (size_t)(j * st[1]) * oes,                                        \
                    bound_##S(cx, (const CPU_T_##S *)cx->seq, cx->sorter, cpu_ld_##S(v[j * st[0]]))); \
    }                                                                                              \
    /* An N-D sequence: value (i..., j) searches row (i...), walked in row-major order. */       \
    static void search_rows_##S(search_ctx *cx, const tc_view *v, const tc_view *o, const tc_view *seq, \
                                const tc_view *sorter) {                                           \
        int64_t at[TC_MAX_DIMS] = {0}, numel = 1;                                                  \
        for (int d = 0; d < v->ndim; d++) numel *= v->sizes[d];                                    \
        const size_t oes = cx->out32 ? 4 : 8;                                                      \
        for (int64_t k = 0; k < numel; k++) {                                                      \
            int64_t vo = 0, oo = 0, so = 0, ro = 0;                                                \
            for (int d = 0; d < v->ndim; d++) {                                                    \
                vo += at[d] * v->strides[d];                                                       \
                oo += at[d] * o->strides[d];                                                       \
                if (d < v->ndim - 1) {                                                             \
                    so += at[d] * seq->strides[d];                                                 \
                    ro += sorter ? at[d] * sorter->strides[d] : 0;                                 \
                }                                                                                  \
            }                                                                                      \
            const CPU_T_##S x = ((const CPU_T_##S *)v->data)[vo];                                  \
            put_##S(cx, (char *)o->data + (size_t)oo * oes,                                        \
                    bound_##S(cx, (const CPU_T_##S *)seq->data + so, sorter ? (const int64_t *)sorter->data + ro : NULL, \
                              cpu_ld_##S(x)));                                                     \
            for (int d = v->ndim - 1; d >= 0; d--) {                                               \
                if (++at[d] < v->sizes[d]) break;                                                  \
                at[d] = 0;                                                                         \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static int k_searchsorted_##S(const tc_kernel_args *args) {                                    \
        search_ctx cx;                                                                             \
        tc_view v, o;                                                                              \
        int64_t one = 1, zero = 0;                                                                 \
        if (search_setup(args, &cx, &v, &o, &one, &zero) != TC_OK) return TC_FAIL;                 \
        int rc = TC_OK;                                                                            \
        if (v.sizes[v.ndim - 1] == 0 || numel_of(&v) == 0) return TC_OK;                           \
        if (args->inputs[0].ndim == 1) {                                                           \
            const tc_view views[2] = {v, o};                                                       \
            rc = cpu_lines_run(views, 2, v.ndim - 1, 0, search_line_##S, &cx, "searchsorted");     \
        } else {                                                                                   \
            search_rows_##S(&cx, &v, &o, &args->inputs[0], args->n_inputs > 2 ? &args->inputs[2] : NULL); \
        }                                                                                          \
        if (rc == TC_OK && cx.bad_sorter)                                                          \
            return cpu_core->set_error(TC_ERR_RUNTIME, "torch.searchsorted(): sorter index out of range"); \
        return rc;                                                                                 \
    }

static int64_t numel_of(const tc_view *v) {
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* The contract's arguments; values (and the output) of a 0-dim input as one line of one. */
static int search_setup(const tc_kernel_args *args, search_ctx *cx, tc_view *v, tc_view *o, int64_t *one,
                        int64_t *zero) {
    if (cpu_check_args(args, 2, 1, "searchsorted") != TC_OK) return TC_FAIL;
    if (args->n_ints < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu searchsorted: missing arguments");
    const tc_view *seq = &args->inputs[0], *sorter = args->n_inputs > 2 ? &args->inputs[2] : NULL;
    if (seq->ndim < 1 || args->inputs[1].ndim != args->outputs[0].ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu searchsorted: bad operands");
    *cx = (search_ctx){.seq = seq->data, .sorter = sorter ? sorter->data : NULL, .right = args->ints[0] != 0,
                       .out32 = args->outputs[0].dtype == TC_INT32, .n = seq->sizes[seq->ndim - 1],
                       .seq_s = seq->strides[seq->ndim - 1], .sorter_s = sorter ? sorter->strides[sorter->ndim - 1] : 0};
    *v = args->inputs[1];
    *o = args->outputs[0];
    if (v->ndim == 0) {
        v->ndim = o->ndim = 1;
        v->sizes = o->sizes = one;
        v->strides = o->strides = zero;
    }
    cx->rows_inner = v->sizes[v->ndim - 1];
    return TC_OK;
}

CPU_DTYPES_NUMERIC(SEARCH_STAMP, _)

#define ENTRY(_, S) {"searchsorted", CPU_DT_##S, k_searchsorted_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
