/*
 * reduce_dim.c - max_dim and min_dim: the extreme value along one dim and the index of its first
 * occurrence (int64). A NaN counts as more extreme than anything, and the first NaN wins, as in
 * PyTorch.
 *
 * Two plans, after merging the other dims as iterate.h does:
 *   scan: one output element at a time, walking the dim with its stride (the dim is innermost, or
 *         the other dims are not contiguous);
 *   cols: the other dims end in a contiguous run (max(dim=0) of a matrix): whole rows along the
 *         dim update a tile of running extremes and indices, so memory is read in order.
 */

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "reduce.h"

#define ARG_TILE 256

typedef struct argred_ops {
    /* n >= 1 elements at p with stride s: best value to *val (as the dtype), its index to *idx */
    void (*scan)(const char *p, int64_t n, int64_t s, char *val, int64_t *idx);
    /* w <= ARG_TILE contiguous columns, rows 0..n-1 at p + j*s (elements): the best of each column
     * to vals[c*vs] and idxs[c*is] */
    void (*cols)(const char *p, int64_t n, int64_t s, int64_t w, char *vals, int64_t vs, int64_t *idxs,
                 int64_t is);
} argred_ops;

/* BETTER_<op>(v, b): v replaces the running best b. */
#define BETTER_max(v, b) ((v) > (b))
#define BETTER_min(v, b) ((v) < (b))
#define ISNAN_KB(x) 0
#define ISNAN_KU(x) 0
#define ISNAN_KI(x) 0
#define ISNAN_KF(x) ((x) != (x))

/* A contiguous line of at least ARG_VECTOR_FROM elements takes two vectorised passes: its extreme
 * value (the reduction lanes of reduce.h, NaN winning), then the first element equal to it (or the
 * first NaN), found 64 elements at a time. The value written is that element, so a tie between
 * -0.0 and 0.0 reports the first of them, as the scan does. */
#define ARG_VECTOR_FROM 128
#define ARG_MAP(x, c) (x)
#define ARG_ID_max(S) RED_MAX_ID_##S
#define ARG_ID_min(S) RED_MIN_ID_##S
#define ARG_COMB_max_KB RED_MAX_I
#define ARG_COMB_max_KU RED_MAX_I
#define ARG_COMB_max_KI RED_MAX_I
#define ARG_COMB_max_KF RED_MAX_F
#define ARG_COMB_min_KB RED_MIN_I
#define ARG_COMB_min_KU RED_MIN_I
#define ARG_COMB_min_KI RED_MIN_I
#define ARG_COMB_min_KF RED_MIN_F
#define ARG_VECTOR_STAMP(OP, S, ISNAN)                                                             \
    RED_BLOCK_FN(vext_##OP##_##S, S, CPU_C_##S, CPU_C_##S, ARG_ID_##OP(S), ARG_MAP, CPU_CAT(ARG_COMB_##OP##_, CPU_K_##S), 1) \
    static int64_t first_of_##OP##_##S(const CPU_T_##S *p, int64_t n, CPU_C_##S m) {               \
        const int nan = ISNAN(m);                                                                  \
        for (int64_t c = 0; c < n; c += 64) {                                                      \
            const int64_t w = n - c < 64 ? n - c : 64;                                             \
            int hit = 0;                                                                           \
            if (nan)                                                                               \
                for (int64_t k = 0; k < w; k++) hit |= ISNAN(cpu_ld_##S(p[c + k]));                \
            else                                                                                   \
                for (int64_t k = 0; k < w; k++) hit |= cpu_ld_##S(p[c + k]) == m;                  \
            if (!hit) continue;                                                                    \
            for (int64_t k = 0; k < w; k++) {                                                      \
                const CPU_C_##S v = cpu_ld_##S(p[c + k]);                                          \
                if (nan ? ISNAN(v) : v == m) return c + k;                                         \
            }                                                                                      \
        }                                                                                          \
        return 0; /* not reached: m is one of the elements */                                     \
    }

#define ARG_STAMP(OP, S, ISNAN)                                                                    \
    ARG_VECTOR_STAMP(OP, S, ISNAN)                                                                 \
    static void OP##_##S##_scan(const char *vp, int64_t n, int64_t s, char *val, int64_t *idx) {    \
        const CPU_T_##S *p = (const CPU_T_##S *)vp;                                                \
        if (s == 1 && n >= ARG_VECTOR_FROM) {                                                      \
            const int64_t at = first_of_##OP##_##S(p, n, vext_##OP##_##S(p, n, 1, NULL, 0.0));     \
            *(CPU_T_##S *)val = p[at];                                                             \
            *idx = at;                                                                             \
            return;                                                                                \
        }                                                                                          \
        CPU_C_##S best = cpu_ld_##S(p[0]);                                                         \
        int64_t bi = 0;                                                                            \
        if (!ISNAN(best)) {                                                                        \
            for (int64_t j = 1; j < n; j++) {                                                      \
                const CPU_C_##S v = cpu_ld_##S(p[j * s]);                                          \
                if (ISNAN(v)) {                                                                    \
                    best = v;                                                                      \
                    bi = j;                                                                        \
                    break;                                                                         \
                }                                                                                  \
                if (BETTER_##OP(v, best)) {                                                        \
                    best = v;                                                                      \
                    bi = j;                                                                        \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        *(CPU_T_##S *)val = cpu_st_##S(best);                                                      \
        *idx = bi;                                                                                 \
    }                                                                                              \
    static void OP##_##S##_cols(const char *vp, int64_t n, int64_t s, int64_t w, char *vals,       \
                                int64_t vs, int64_t *idxs, int64_t is) {                           \
        const CPU_T_##S *p = (const CPU_T_##S *)vp;                                                \
        CPU_C_##S best[ARG_TILE];                                                                  \
        int64_t bi[ARG_TILE];                                                                      \
        for (int64_t c = 0; c < w; c++) {                                                          \
            best[c] = cpu_ld_##S(p[c]);                                                            \
            bi[c] = 0;                                                                             \
        }                                                                                          \
        for (int64_t j = 1; j < n; j++) {                                                          \
            const CPU_T_##S *row = p + j * s;                                                      \
            for (int64_t c = 0; c < w; c++) {                                                      \
                const CPU_C_##S v = cpu_ld_##S(row[c]), b = best[c];                               \
                /* a NaN best is final; a NaN v beats any other best */                            \
                const int take = (BETTER_##OP(v, b) | ISNAN(v)) & !ISNAN(b);                       \
                best[c] = take ? v : b;                                                            \
                bi[c] = take ? j : bi[c];                                                          \
            }                                                                                      \
        }                                                                                          \
        CPU_T_##S *o = (CPU_T_##S *)vals;                                                          \
        for (int64_t c = 0; c < w; c++) {                                                          \
            o[c * vs] = cpu_st_##S(best[c]);                                                       \
            idxs[c * is] = bi[c];                                                                  \
        }                                                                                          \
    }                                                                                              \
    static const argred_ops OP##_##S##_ops = {OP##_##S##_scan, OP##_##S##_cols};                   \
    static int k_##OP##_dim_##S(const tc_kernel_args *args) {                                      \
        return argreduce_run(args, &OP##_##S##_ops, #OP "_dim");                                   \
    }

/* What the pieces handed to the pool need: tiles of columns, or single lines along the dim. */
typedef struct argred_job {
    const argred_ops *ops;
    const cpu_layout *l;
    const char *ip;
    char *vp;
    int64_t *xp;
    int64_t n, s, w, vs, is, ntiles;
    size_t in_es, val_es;
} argred_job;

static void argred_tiles(void *vjob, int64_t t0, int64_t t1) {
    const argred_job *j = vjob;
    for (int64_t t = t0; t < t1; t++) {
        const int64_t k = t / j->ntiles, c0 = (t % j->ntiles) * ARG_TILE;
        const int64_t wn = j->w - c0 < ARG_TILE ? j->w - c0 : ARG_TILE;
        j->ops->cols(j->ip + (size_t)(cpu_layout_offset(j->l, 0, k) + c0) * j->in_es, j->n, j->s, wn,
                     j->vp + (size_t)(cpu_layout_offset(j->l, 1, k) + c0 * j->vs) * j->val_es, j->vs,
                     j->xp + cpu_layout_offset(j->l, 2, k) + c0 * j->is, j->is);
    }
}

static void argred_lines(void *vjob, int64_t k0, int64_t k1) {
    const argred_job *j = vjob;
    for (int64_t k = k0; k < k1; k++)
        j->ops->scan(j->ip + (size_t)cpu_layout_offset(j->l, 0, k) * j->in_es, j->n, j->s,
                     j->vp + (size_t)cpu_layout_offset(j->l, 1, k) * j->val_es, j->xp + cpu_layout_offset(j->l, 2, k));
}

static int argreduce_run(const tc_kernel_args *args, const argred_ops *ops, const char *name) {
    if (cpu_check_args(args, 1, 2, name) != TC_OK) return TC_FAIL;
    const tc_view *in = &args->inputs[0], *vals = &args->outputs[0], *idxs = &args->outputs[1];
    if (args->n_ints < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: missing dim", name);
    if (vals->ndim != in->ndim || idxs->ndim != in->ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: outputs have %d and %d dims, input %d", name,
                                   vals->ndim, idxs->ndim, in->ndim);
    int64_t dim = args->ints[0];
    if (dim < 0) dim += in->ndim;
    if (in->ndim == 0 && (dim == 0 || dim == -1)) dim = -1; /* a 0-dim tensor: its one element */
    else if (dim < 0 || dim >= in->ndim)
        return cpu_core->set_error(TC_ERR_INDEX, "cpu %s: dim %lld out of range for %d dims", name,
                                   (long long)args->ints[0], in->ndim);
    int64_t numel = 1;
    for (int d = 0; d < in->ndim; d++) numel *= in->sizes[d];
    if (numel == 0) return TC_OK;

    const int64_t n = dim >= 0 ? in->sizes[dim] : 1, s = dim >= 0 ? in->strides[dim] : 1;
    const size_t in_es = cpu_dtype_size(in->dtype), val_es = cpu_dtype_size(vals->dtype);
    cpu_layout l = {.ndim = 0, .nops = 3}; /* operands: in, values, indices */
    for (int d = 0; d < in->ndim; d++) {
        if (d == dim || in->sizes[d] == 1) continue;
        const int64_t strides[3] = {in->strides[d], vals->strides[d], idxs->strides[d]};
        if (cpu_layout_push(&l, in->sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    cpu_layout_sort(&l, 0);
    cpu_layout_coalesce(&l);
    const char *ip = in->data;
    char *vp = vals->data;
    int64_t *xp = idxs->data;
    const int nt = cpu_threads_for(numel);
    const int last = l.ndim - 1;

    argred_job job = {.ops = ops, .l = &l, .ip = ip, .vp = vp, .xp = xp, .n = n, .s = s, .in_es = in_es,
                      .val_es = val_es};
    if (last >= 0 && l.stride[0][last] == 1 && l.size[last] >= 16 && n > 1) {
        job.w = l.size[last];
        job.vs = l.stride[1][last];
        job.is = l.stride[2][last];
        l.ndim--; /* the remaining dims index the rows of tiles */
        job.ntiles = (job.w + ARG_TILE - 1) / ARG_TILE;
        cpu_parallel(cpu_layout_numel(&l) * job.ntiles, nt, argred_tiles, &job);
        return TC_OK;
    }
    cpu_parallel(cpu_layout_numel(&l), nt, argred_lines, &job);
    return TC_OK;
}

#define STAMP(OP, S) ARG_STAMP(OP, S, CPU_CAT(ISNAN_, CPU_K_##S))
CPU_DTYPES_ALL(STAMP, max)
CPU_DTYPES_ALL(STAMP, min)

#define ENTRY(OP, S) {#OP "_dim", CPU_DT_##S, k_##OP##_dim_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, max) CPU_DTYPES_ALL(ENTRY, min)};
CPU_KERNEL_TABLE(kernels);
