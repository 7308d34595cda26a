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

typedef struct search_ctx {
    int64_t n, seq_s, sorter_s; /* the row length, and element strides along it */
    int right, out32;
    int bad_sorter;
} search_ctx;

typedef struct search_job {
    search_ctx cx;
    tc_view v, o; /* values and output; 0-dim ones as one line of one */
    const tc_view *seq, *sorter;
} search_job;

#define SEARCH_LANES 8

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
    /* SEARCH_LANES searches of one row at once, without a sorter: each makes the probes bound_ makes \
     * (so unsorted rows give the same answers), but the lanes' loads are independent, so their    \
     * cache misses overlap instead of following one another; selects instead of branches. A row  \
     * of n takes floor(log2 n) + 1 steps at most; a lane that has finished stays put. */          \
    static void bounds_##S(const search_ctx *cx, const CPU_T_##S *seq, const CPU_C_##S *v, int64_t *pos) { \
        int64_t lo[SEARCH_LANES], hi[SEARCH_LANES];                                                \
        const int64_t s = cx->seq_s;                                                               \
        for (int g = 0; g < SEARCH_LANES; g++) {                                                   \
            lo[g] = 0;                                                                             \
            hi[g] = cx->n;                                                                         \
        }                                                                                          \
        for (int64_t m = cx->n; m > 0; m >>= 1) {                                                  \
            for (int g = 0; g < SEARCH_LANES; g++) {                                               \
                const int active = lo[g] < hi[g];                                                  \
                const int64_t mid = lo[g] + ((hi[g] - lo[g]) >> 1);                                \
                const CPU_C_##S x = cpu_ld_##S(seq[(active ? mid : 0) * s]);                       \
                const int go_right = active && (cx->right ? !(x > v[g]) : !(x >= v[g]));           \
                lo[g] = go_right ? mid + 1 : lo[g];                                                \
                hi[g] = active && !go_right ? mid : hi[g];                                         \
            }                                                                                      \
        }                                                                                          \
        for (int g = 0; g < SEARCH_LANES; g++) pos[g] = lo[g];                                     \
    }                                                                                              \
    static void put_##S(search_ctx *cx, char *out, int64_t pos) {                                  \
        if (pos < 0) __atomic_store_n(&cx->bad_sorter, 1, __ATOMIC_RELAXED);                        \
        if (cx->out32) *(int32_t *)out = (int32_t)pos;                                             \
        else *(int64_t *)out = pos;                                                                \
    }                                                                                              \
    /* Values [begin, end) in row-major order: value (i..., j) searches row (i...) of an N-D        \
     * sequence, the one row of a 1-D one. Searches are independent, so pieces run on any thread. */ \
    static void search_range_##S(void *vjob, int64_t begin, int64_t end) {                         \
        search_job *j = vjob;                                                                      \
        const tc_view *v = &j->v, *o = &j->o, *seq = j->seq, *sorter = j->sorter;                  \
        const int nd = v->ndim, rows = seq->ndim > 1;                                              \
        const int64_t inner = v->sizes[nd - 1], vs = v->strides[nd - 1], os = o->strides[nd - 1];  \
        const size_t oes = j->cx.out32 ? 4 : 8;                                                    \
        int64_t at[TC_MAX_DIMS];                                                                   \
        for (int64_t d = nd - 1, rest = begin; d >= 0; d--) {                                      \
            at[d] = rest % v->sizes[d];                                                            \
            rest /= v->sizes[d];                                                                   \
        }                                                                                          \
        for (int64_t k = begin; k < end;) {                                                        \
            int64_t vo = 0, oo = 0, so = 0, ro = 0;                                                \
            for (int d = 0; d < nd; d++) {                                                         \
                vo += at[d] * v->strides[d];                                                       \
                oo += at[d] * o->strides[d];                                                       \
                if (rows && d < nd - 1) {                                                          \
                    so += at[d] * seq->strides[d];                                                 \
                    ro += sorter ? at[d] * sorter->strides[d] : 0;                                 \
                }                                                                                  \
            }                                                                                      \
            const CPU_T_##S *vals = (const CPU_T_##S *)v->data + vo;                               \
            const CPU_T_##S *row = (const CPU_T_##S *)seq->data + so;                              \
            const int64_t *sort = sorter ? (const int64_t *)sorter->data + ro : NULL;              \
            char *out = (char *)o->data + (size_t)oo * oes;                                        \
            const int64_t count = inner - at[nd - 1] < end - k ? inner - at[nd - 1] : end - k;     \
            int64_t i = 0;                                                                         \
            if (!sort && j->cx.n > 0) {                                                            \
                for (; i + SEARCH_LANES <= count; i += SEARCH_LANES) {                             \
                    CPU_C_##S lane_v[SEARCH_LANES];                                                \
                    int64_t lane_pos[SEARCH_LANES];                                                \
                    for (int g = 0; g < SEARCH_LANES; g++) lane_v[g] = cpu_ld_##S(vals[(i + g) * vs]); \
                    bounds_##S(&j->cx, row, lane_v, lane_pos);                                     \
                    for (int g = 0; g < SEARCH_LANES; g++)                                         \
                        put_##S(&j->cx, out + (size_t)((i + g) * os) * oes, lane_pos[g]);          \
                }                                                                                  \
            }                                                                                      \
            for (; i < count; i++)                                                                 \
                put_##S(&j->cx, out + (size_t)(i * os) * oes,                                      \
                        bound_##S(&j->cx, row, sort, cpu_ld_##S(vals[i * vs])));                   \
            k += count;                                                                            \
            at[nd - 1] += count;                                                                   \
            for (int d = nd - 1; d > 0 && at[d] == v->sizes[d]; d--) {                             \
                at[d] = 0;                                                                         \
                at[d - 1]++;                                                                       \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static int k_searchsorted_##S(const tc_kernel_args *args) {                                    \
        search_job j;                                                                              \
        int64_t one = 1, zero = 0;                                                                 \
        if (search_setup(args, &j, &one, &zero) != TC_OK) return TC_FAIL;                          \
        const int64_t numel = numel_of(&j.v);                                                      \
        if (numel == 0) return TC_OK;                                                              \
        cpu_parallel(numel, cpu_threads_for(search_work(numel, j.cx.n)), search_range_##S, &j);    \
        if (j.cx.bad_sorter)                                                                       \
            return cpu_core->set_error(TC_ERR_RUNTIME, "torch.searchsorted(): sorter index out of range"); \
        return TC_OK;                                                                              \
    }

static int64_t numel_of(const tc_view *v) {
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* A search costs about one step per bit of the row's length: the work the thread count follows. */
static int64_t search_work(int64_t numel, int64_t n) {
    const int64_t steps = n > 0 ? 65 - __builtin_clzll((unsigned long long)n) : 1; /* bits of n, plus one */
    return numel > INT64_MAX / steps ? INT64_MAX : numel * steps;
}

/* The contract's arguments; values (and the output) of a 0-dim input as one line of one. */
static int search_setup(const tc_kernel_args *args, search_job *j, int64_t *one, int64_t *zero) {
    if (cpu_check_args(args, 2, 1, "searchsorted") != TC_OK) return TC_FAIL;
    if (args->n_ints < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu searchsorted: missing arguments");
    const tc_view *seq = &args->inputs[0], *sorter = args->n_inputs > 2 ? &args->inputs[2] : NULL;
    if (seq->ndim < 1 || args->inputs[1].ndim != args->outputs[0].ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu searchsorted: bad operands");
    if (seq->ndim > 1 && seq->ndim != args->inputs[1].ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu searchsorted: the sequence's leading dims are not the values'");
    j->cx = (search_ctx){.sorter_s = sorter ? sorter->strides[sorter->ndim - 1] : 0, .right = args->ints[0] != 0,
                         .out32 = args->outputs[0].dtype == TC_INT32, .n = seq->sizes[seq->ndim - 1],
                         .seq_s = seq->strides[seq->ndim - 1]};
    j->seq = seq;
    j->sorter = sorter;
    j->v = args->inputs[1];
    j->o = args->outputs[0];
    if (j->v.ndim == 0) {
        j->v.ndim = j->o.ndim = 1;
        j->v.sizes = j->o.sizes = one;
        j->v.strides = j->o.strides = zero;
    }
    return TC_OK;
}

CPU_DTYPES_NUMERIC(SEARCH_STAMP, _)

#define ENTRY(_, S) {"searchsorted", CPU_DT_##S, k_searchsorted_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
