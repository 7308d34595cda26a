/*
 * scan.c - cumulative ops along one dim: cumsum, cumprod (complex too), logcumsumexp (output of the
 * input's dtype), cummax, cummin (values and int64 indices). ints[0] is the dim.
 *
 * Each line is scanned in order with the accumulator PyTorch uses (double for float32, float for
 * float16/bfloat16, wrapping 64-bit integers), so results are PyTorch's to the bit: a scan cannot be
 * reassociated without changing its rounding. Speed comes from the layout instead: when the other
 * dims end in a contiguous run (cumsum(dim=0) of a matrix), a tile of columns is carried row by row
 * and the loop over the tile vectorises; lines and tiles are spread across threads.
 *
 * cummax/cummin follow PyTorch: a later equal value takes over the index (>=), and NaN propagates,
 * each new NaN taking over the index.
 */
#include <math.h>

#include "complex.h"
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"

#define SCAN_TILE 512

#define ACC_b8 uint64_t
#define ACC_u8 uint64_t
#define ACC_i8 uint64_t
#define ACC_i16 uint64_t
#define ACC_i32 uint64_t
#define ACC_i64 uint64_t
#define ACC_f16 float
#define ACC_bf16 float
#define ACC_f32 double
#define ACC_f64 double

#define ISNAN_KB(x) 0
#define ISNAN_KU(x) 0
#define ISNAN_KI(x) 0
#define ISNAN_KF(x) ((x) != (x))

typedef struct scan_ops {
    /* one line: n elements at in (stride si) to out (so), indices to idx (sx) when the op has them */
    void (*line)(const char *in, int64_t n, int64_t si, char *out, int64_t so, int64_t *idx, int64_t sx);
    /* w <= SCAN_TILE contiguous columns, n rows (row strides ri, ro, rx) */
    void (*cols)(const char *in, int64_t n, int64_t ri, int64_t w, char *out, int64_t ro, int64_t *idx, int64_t rx);
} scan_ops;

/* PyTorch's log-add-exp of logcumsumexp, std::min/std::max included (a NaN x comes back from both):
 * NaN propagates; two equal infinities stay what they are. */
static inline double log_add_exp(double x, double y) {
    const double lo = isnan(y) ? y : (y < x ? y : x), hi = isnan(y) ? y : (x < y ? y : x);
    if (lo != hi || isfinite(lo)) return log1p(exp(lo - hi)) + hi;
    return x;
}

#define ADD(a, x) ((a) + (x))
#define MUL(a, x) ((a) * (x))
#define LSE(a, x) log_add_exp((double)(x), (double)(a))

/* cumsum, cumprod, logcumsumexp: acc = STEP(acc, x), stored as S. */
#define SCAN_STAMP(NAME, S, A, INIT, STEP)                                                         \
    static void NAME##_line(const char *vin, int64_t n, int64_t si, char *vout, int64_t so, int64_t *idx, int64_t sx) { \
        const CPU_T_##S *in = (const CPU_T_##S *)vin;                                              \
        CPU_T_##S *out = (CPU_T_##S *)vout;                                                        \
        A acc = (A)(INIT);                                                                         \
        (void)idx;                                                                                 \
        (void)sx;                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                          \
            acc = STEP(acc, (A)cpu_ld_##S(in[i * si]));                                            \
            out[i * so] = cpu_st_##S((CPU_C_##S)acc);                                              \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_cols(const char *vin, int64_t n, int64_t ri, int64_t w, char *vout, int64_t ro, int64_t *idx, \
                            int64_t rx) {                                                          \
        A acc[SCAN_TILE];                                                                          \
        (void)idx;                                                                                 \
        (void)rx;                                                                                  \
        for (int64_t j = 0; j < w; j++) acc[j] = (A)(INIT);                                        \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const CPU_T_##S *in = (const CPU_T_##S *)vin + i * ri;                                 \
            CPU_T_##S *out = (CPU_T_##S *)vout + i * ro;                                           \
            for (int64_t j = 0; j < w; j++) {                                                      \
                acc[j] = STEP(acc[j], (A)cpu_ld_##S(in[j]));                                       \
                out[j] = cpu_st_##S((CPU_C_##S)acc[j]);                                            \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static const scan_ops NAME##_ops = {NAME##_line, NAME##_cols};

/* complex64 and complex128 cumsum and cumprod, in complex double as PyTorch's acc_type: each
 * element widened, combined with complex.h's schoolbook product, and narrowed again. */
#define CX_WIDE_c64(x) ((cpu_cd){(x).re, (x).im})
#define CX_WIDE_c128(x) (x)
#define CX_ADD(a, x) cpu_cx_add_d((a), (x))
#define CX_MUL(a, x) cpu_cx_mul_d((a), (x))
#define SCAN_CX_STAMP(NAME, S, INIT, STEP)                                                         \
    static void NAME##_line(const char *vin, int64_t n, int64_t si, char *vout, int64_t so, int64_t *idx, int64_t sx) { \
        const CPU_T_##S *in = (const CPU_T_##S *)vin;                                              \
        CPU_T_##S *out = (CPU_T_##S *)vout;                                                        \
        cpu_cd acc = {(INIT), 0};                                                                  \
        (void)idx;                                                                                 \
        (void)sx;                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                          \
            acc = STEP(acc, CX_WIDE_##S(in[i * si]));                                              \
            out[i * so] = cpu_cx_from_cd_##S(acc);                                                 \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_cols(const char *vin, int64_t n, int64_t ri, int64_t w, char *vout, int64_t ro, int64_t *idx, \
                            int64_t rx) {                                                          \
        for (int64_t j = 0; j < w; j++)                                                            \
            NAME##_line(vin + (size_t)j * sizeof(CPU_T_##S), n, ri, vout + (size_t)j * sizeof(CPU_T_##S), ro, idx, rx); \
    }                                                                                              \
    static const scan_ops NAME##_ops = {NAME##_line, NAME##_cols};

/* cummax, cummin: the running extreme and the index where it was last taken. */
#define CUMEXT_RUN 32
/* The update of the running extreme stays a branch: new extremes come rarely (random data) or
 * always (ascending data), both predictable, whereas selects would chain every element's compare
 * to the previous one's (~4 cycles each). An empty volatile asm keeps GCC from if-converting. */
#define CUMEXT_KEEP_BRANCH() __asm__ volatile("")
#define BETTER_max(x, b) ((x) >= (b))
#define BETTER_min(x, b) ((x) <= (b))
#define CUMEXT_STAMP(OP, S, ISNAN)                                                                 \
    static void cum##OP##_##S##_line(const char *vin, int64_t n, int64_t si, char *vout, int64_t so, int64_t *idx, \
                                     int64_t sx) {                                                 \
        const CPU_T_##S *in = (const CPU_T_##S *)vin;                                              \
        CPU_T_##S *out = (CPU_T_##S *)vout;                                                        \
        CPU_C_##S best = cpu_ld_##S(in[0]);                                                        \
        int64_t bi = 0;                                                                            \
        const int runs = si == 1 && so == 1 && sx == 1;                                            \
        for (int64_t i = 0; i < n;) {                                                              \
            /* contiguous runs of CUMEXT_RUN elements that neither beat the extreme nor are NaN     \
             * are filled at once; a run that does goes element by element */                     \
            int take = !runs || ISNAN(best) || i + CUMEXT_RUN > n;                                 \
            if (!take) {                                                                           \
                int hit = 0; /* the whole run, so that the test vectorises */                      \
                for (int k = 0; k < CUMEXT_RUN; k++) {                                             \
                    const CPU_C_##S x = cpu_ld_##S(in[i + k]);                                     \
                    hit |= ISNAN(x) | BETTER_##OP(x, best);                                        \
                }                                                                                  \
                take = hit;                                                                        \
            }                                                                                      \
            if (!take) {                                                                           \
                const CPU_T_##S b = cpu_st_##S(best);                                              \
                for (int k = 0; k < CUMEXT_RUN; k++) {                                             \
                    out[i + k] = b;                                                                \
                    idx[i + k] = bi;                                                               \
                }                                                                                  \
                i += CUMEXT_RUN;                                                                   \
                continue;                                                                          \
            }                                                                                      \
            const int64_t end = runs && i + CUMEXT_RUN < n ? i + CUMEXT_RUN : n;                   \
            for (; i < end; i++) {                                                                 \
                const CPU_C_##S x = cpu_ld_##S(in[i * si]);                                        \
                if (ISNAN(x) || (!ISNAN(best) && BETTER_##OP(x, best))) {                          \
                    CUMEXT_KEEP_BRANCH();                                                          \
                    best = x;                                                                      \
                    bi = i;                                                                        \
                }                                                                                  \
                out[i * so] = cpu_st_##S(best);                                                    \
                idx[i * sx] = bi;                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void cum##OP##_##S##_cols(const char *vin, int64_t n, int64_t ri, int64_t w, char *vout, int64_t ro, \
                                     int64_t *idx, int64_t rx) {                                   \
        CPU_C_##S best[SCAN_TILE];                                                                 \
        int64_t bi[SCAN_TILE];                                                                     \
        const CPU_T_##S *in0 = (const CPU_T_##S *)vin;                                             \
        for (int64_t j = 0; j < w; j++) {                                                          \
            best[j] = cpu_ld_##S(in0[j]);                                                          \
            bi[j] = 0;                                                                             \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const CPU_T_##S *in = in0 + i * ri;                                                    \
            CPU_T_##S *out = (CPU_T_##S *)vout + i * ro;                                           \
            int64_t *ix = idx + i * rx;                                                            \
            for (int64_t j = 0; j < w; j++) {                                                      \
                const CPU_C_##S x = cpu_ld_##S(in[j]), b = best[j];                                \
                const int take = ISNAN(x) | (!ISNAN(b) & BETTER_##OP(x, b));                       \
                best[j] = take ? x : b;                                                            \
                bi[j] = take ? i : bi[j];                                                          \
                out[j] = cpu_st_##S(best[j]);                                                      \
                ix[j] = bi[j];                                                                     \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static const scan_ops cum##OP##_##S##_ops = {cum##OP##_##S##_line, cum##OP##_##S##_cols};

/* ---- the driver ---- */

typedef struct scan_job {
    const scan_ops *ops;
    const cpu_layout *l; /* operands (in, out, idx): the dims other than the scanned one */
    const char *in;
    char *out;
    int64_t *idx;
    size_t in_es, out_es;
    int64_t n, si, so, sx; /* the scanned dim: length and strides */
    int64_t w, ntiles;     /* tiles: contiguous columns (the layout's last dim) */
} scan_job;

static void scan_lines(void *vjob, int64_t k0, int64_t k1) {
    const scan_job *j = vjob;
    for (int64_t k = k0; k < k1; k++)
        j->ops->line(j->in + (size_t)cpu_layout_offset(j->l, 0, k) * j->in_es, j->n, j->si,
                     j->out + (size_t)cpu_layout_offset(j->l, 1, k) * j->out_es, j->so,
                     j->idx ? j->idx + cpu_layout_offset(j->l, 2, k) : NULL, j->sx);
}

static void scan_tiles(void *vjob, int64_t t0, int64_t t1) {
    const scan_job *j = vjob;
    for (int64_t t = t0; t < t1; t++) {
        const int64_t k = t / j->ntiles, c0 = (t % j->ntiles) * SCAN_TILE;
        const int64_t wn = j->w - c0 < SCAN_TILE ? j->w - c0 : SCAN_TILE;
        j->ops->cols(j->in + (size_t)(cpu_layout_offset(j->l, 0, k) + c0) * j->in_es, j->n, j->si, wn,
                     j->out + (size_t)(cpu_layout_offset(j->l, 1, k) + c0) * j->out_es, j->so,
                     j->idx ? j->idx + cpu_layout_offset(j->l, 2, k) + c0 : NULL, j->sx);
    }
}

static int scan_run(const tc_kernel_args *args, const scan_ops *ops, int with_indices, const char *name) {
    if (cpu_check_args(args, 1, with_indices ? 2 : 1, name) != TC_OK) return TC_FAIL;
    if (args->n_ints < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: missing dim", name);
    const tc_view *in = &args->inputs[0], *out = &args->outputs[0], *idx = with_indices ? &args->outputs[1] : NULL;
    const int64_t dim = args->ints[0];
    if (dim < 0 || dim >= in->ndim || out->ndim != in->ndim || (idx && idx->ndim != in->ndim))
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: dim %lld or the outputs do not fit the input", name,
                                   (long long)dim);
    int64_t numel = 1;
    for (int d = 0; d < in->ndim; d++) numel *= in->sizes[d];
    if (numel == 0) return TC_OK;

    cpu_layout l = {.ndim = 0, .nops = 3};
    for (int d = 0; d < in->ndim; d++) {
        if (d == dim || in->sizes[d] == 1) continue;
        const int64_t strides[3] = {in->strides[d], out->strides[d], idx ? idx->strides[d] : 0};
        if (cpu_layout_push(&l, in->sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    cpu_layout_sort(&l, 1);
    cpu_layout_coalesce(&l);
    scan_job job = {.ops = ops, .l = &l, .in = in->data, .out = out->data, .idx = idx ? idx->data : NULL,
                    .in_es = cpu_dtype_size(in->dtype), .out_es = cpu_dtype_size(out->dtype), .n = in->sizes[dim],
                    .si = in->strides[dim], .so = out->strides[dim], .sx = idx ? idx->strides[dim] : 0};
    const int nt = cpu_threads_for(numel);
    const int last = l.ndim - 1;
    if (last >= 0 && l.size[last] >= 16 && l.stride[0][last] == 1 && l.stride[1][last] == 1 &&
        (!idx || l.stride[2][last] == 1) && job.n > 1) {
        job.w = l.size[last];
        job.ntiles = (job.w + SCAN_TILE - 1) / SCAN_TILE;
        l.ndim--; /* the remaining dims index the tiles' first columns */
        cpu_parallel(cpu_layout_numel(&l) * job.ntiles, nt, scan_tiles, &job);
        return TC_OK;
    }
    cpu_parallel(cpu_layout_numel(&l), nt, scan_lines, &job);
    return TC_OK;
}

#define STAMP_CUMSUM(_, S) SCAN_STAMP(cumsum_##S, S, ACC_##S, 0, ADD)
#define STAMP_CUMPROD(_, S) SCAN_STAMP(cumprod_##S, S, ACC_##S, 1, MUL)
#define STAMP_LCSE(_, S) SCAN_STAMP(logcumsumexp_##S, S, double, -INFINITY, LSE)
#define STAMP_CUMEXT(OP, S) CUMEXT_STAMP(OP, S, CPU_CAT(ISNAN_, CPU_K_##S))
CPU_DTYPES_NUMERIC(STAMP_CUMSUM, _)
CPU_DTYPES_NUMERIC(STAMP_CUMPROD, _)
#define STAMP_CX(_, S) SCAN_CX_STAMP(cumsum_##S, S, 0, CX_ADD) SCAN_CX_STAMP(cumprod_##S, S, 1, CX_MUL)
CPU_DTYPES_COMPLEX_FULL(STAMP_CX, _)
CPU_DTYPES_FLOAT(STAMP_LCSE, _)
CPU_DTYPES_ALL(STAMP_CUMEXT, max)
CPU_DTYPES_ALL(STAMP_CUMEXT, min)

#define KERNEL(OP, S)                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) { return scan_run(args, &OP##_##S##_ops, 0, #OP); }
#define KERNEL_IDX(OP, S)                                                                          \
    static int k_cum##OP##_##S(const tc_kernel_args *args) { return scan_run(args, &cum##OP##_##S##_ops, 1, "cum" #OP); }
CPU_DTYPES_NUMERIC(KERNEL, cumsum)
CPU_DTYPES_NUMERIC(KERNEL, cumprod)
CPU_DTYPES_COMPLEX_FULL(KERNEL, cumsum)
CPU_DTYPES_COMPLEX_FULL(KERNEL, cumprod)
CPU_DTYPES_FLOAT(KERNEL, logcumsumexp)
CPU_DTYPES_ALL(KERNEL_IDX, max)
CPU_DTYPES_ALL(KERNEL_IDX, min)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_EXT(OP, S) {"cum" #OP, CPU_DT_##S, k_cum##OP##_##S},
static const cpu_kernel_entry kernels[] = {
    CPU_DTYPES_NUMERIC(ENTRY, cumsum) CPU_DTYPES_NUMERIC(ENTRY, cumprod) CPU_DTYPES_FLOAT(ENTRY, logcumsumexp)
    CPU_DTYPES_COMPLEX_FULL(ENTRY, cumsum) CPU_DTYPES_COMPLEX_FULL(ENTRY, cumprod)
    CPU_DTYPES_ALL(ENTRY_EXT, max) CPU_DTYPES_ALL(ENTRY_EXT, min)};
CPU_KERNEL_TABLE(kernels);
