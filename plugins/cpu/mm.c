/*
 * mm.c - matrix products: c = alpha * a @ b + beta * bias, for one matrix (mm, addmm; mv, addmv and
 * addr arrive as matrix products, their vectors seen as one-column or one-row matrices), per batch
 * (bmm, baddbmm), or summed over a batch (addbmm); and dot.
 *
 * float32/float64 products with one column or one row (mv, addmv) run in mv.c; other float32
 * products up to 1024^3 multiply-adds (float64: 2^29) run in mm_kernel.c where this ISA variant has
 * it (AVX-512). Other float32/float64 (and complex64/complex128, whose portable loop is in complex_mm.c)
 * products go to the BLAS provider (core->blas_current) unless they are small: an
 * operand with unit stride in either dim is passed as is (transposed if its rows are the strided dim),
 * any other is first packed into contiguous scratch. Small products, every other dtype, and
 * float32/float64 without a provider run a plain loop: for each row of a and each tile of columns,
 * rows of b are scaled and added into a tile of accumulators (float for the 16-bit floats and
 * float32, double for float64, wrapping uint64 for integers, or-of-ands for bool), with the b panel
 * reused across a's rows. A 4x4 product costs the loop a few dozen nanoseconds; BLIS's packing costs a
 * microsecond or more, which is what the small-size threshold weighs.
 *
 * Batches run whole products side by side on the core's pool, unless the products are big enough for
 * the provider to split and too few to share out evenly; the pieces never raise (an out-of-memory while packing is recorded and raised
 * after the pool returns).
 *
 * Contracts (docs/plugin-abi.md): mm a, b -> c; bmm a, b -> c per batch; addmm/addr bias, a, b -> c,
 * addmv the same with a vector bias, vector b and vector c
 * with scalars beta, alpha (the bias at c's sizes, zero strides where broadcast; beta == 0 never reads
 * it); baddbmm the same per batch; addbmm bias[m,n], a[B,m,k], b[B,k,n] -> c; dot a[n], b[n] -> c[].
 */
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "mm.h"
#include "mm_kernel.h"
#include "mv.h"

#define MM_TILE 256

/* ---- the portable loop, stamped per dtype ---- */

#define MM_A_b8 uint32_t
#define MM_A_u8 uint64_t
#define MM_A_i8 uint64_t
#define MM_A_i16 uint64_t
#define MM_A_i32 uint64_t
#define MM_A_i64 uint64_t
#define MM_A_f16 float
#define MM_A_bf16 float
#define MM_A_f32 float
#define MM_A_f64 double

#define MAC_KB(acc, x, y) ((acc) | (uint32_t)(((x) != 0) & ((y) != 0)))
#define MAC_KU(acc, x, y) ((acc) + (x) * (y))
#define MAC_KI MAC_KU
#define MAC_KF MAC_KU

/* alpha * acc + beta * old (beta == 0: old unread): logical for bool, wrapping for integers */
#define AXPBY_KB(acc, al, be, old) (((al) && (acc)) || ((be) && (old)))
#define AXPBY_KU(acc, al, be, old) ((al) * (acc) + ((be) ? (be) * (old) : 0))
#define AXPBY_KI AXPBY_KU
#define AXPBY_KF AXPBY_KU

#define MM_SCALE_ALPHA_KB(s) ((uint32_t)((s)->i_alpha != 0))
#define MM_SCALE_BETA_KB(s) ((uint32_t)((s)->i_beta != 0))
#define MM_SCALE_ALPHA_KU(s) ((s)->i_alpha)
#define MM_SCALE_BETA_KU(s) ((s)->i_beta)
#define MM_SCALE_ALPHA_KI MM_SCALE_ALPHA_KU
#define MM_SCALE_BETA_KI MM_SCALE_BETA_KU
#define MM_SCALE_ALPHA_KF(s) ((s)->f_alpha)
#define MM_SCALE_BETA_KF(s) ((s)->f_beta)


/* The arguments are copied into locals so the compiler knows stores to c cannot change them. */
#define MM_STAMP(_, S)                                                                             \
    static void mm_rows_##S(const mm_args *g, int64_t i0, int64_t i1) {                            \
        typedef MM_A_##S acc_t;                                                                    \
        const CPU_T_##S *a = (const CPU_T_##S *)g->a, *b = (const CPU_T_##S *)g->b;               \
        CPU_T_##S *c = (CPU_T_##S *)g->c;                                                          \
        const int64_t n = g->n, k = g->k, as0 = g->as0, as1 = g->as1, bs0 = g->bs0, bs1 = g->bs1;  \
        const int64_t cs0 = g->cs0, cs1 = g->cs1;                                                  \
        const int plain = g->scale->plain;                                                         \
        const acc_t alpha = (acc_t)CPU_CAT(MM_SCALE_ALPHA_, CPU_K_##S)(g->scale);                  \
        const acc_t beta = (acc_t)CPU_CAT(MM_SCALE_BETA_, CPU_K_##S)(g->scale);                    \
        acc_t acc[MM_TILE];                                                                        \
        for (int64_t j0 = 0; j0 < n; j0 += MM_TILE) {                                              \
            const int64_t jn = n - j0 < MM_TILE ? n - j0 : MM_TILE;                                \
            for (int64_t i = i0; i < i1; i++) {                                                    \
                for (int64_t j = 0; j < jn; j++) acc[j] = 0;                                       \
                for (int64_t p = 0; p < k; p++) {                                                  \
                    const acc_t x = (acc_t)cpu_ld_##S(a[i * as0 + p * as1]);                       \
                    const CPU_T_##S *brow = b + p * bs0 + j0 * bs1;                                \
                    if (bs1 == 1)                                                                  \
                        for (int64_t j = 0; j < jn; j++)                                           \
                            acc[j] = CPU_CAT(MAC_, CPU_K_##S)(acc[j], x, (acc_t)cpu_ld_##S(brow[j])); \
                    else                                                                           \
                        for (int64_t j = 0; j < jn; j++)                                           \
                            acc[j] = CPU_CAT(MAC_, CPU_K_##S)(acc[j], x, (acc_t)cpu_ld_##S(brow[j * bs1])); \
                }                                                                                  \
                CPU_T_##S *crow = c + i * cs0 + j0 * cs1;                                          \
                if (plain)                                                                         \
                    for (int64_t j = 0; j < jn; j++) crow[j * cs1] = cpu_st_##S((CPU_C_##S)acc[j]); \
                else                                                                               \
                    for (int64_t j = 0; j < jn; j++) {                                             \
                        const acc_t old = beta ? (acc_t)cpu_ld_##S(crow[j * cs1]) : 0;             \
                        crow[j * cs1] = cpu_st_##S((CPU_C_##S)CPU_CAT(AXPBY_, CPU_K_##S)(acc[j], alpha, beta, old)); \
                    }                                                                              \
            }                                                                                      \
        }                                                                                          \
    }
CPU_DTYPES_ALL(MM_STAMP, _)

static const mm_rows_fn mm_rows[TC_NUM_DTYPES] = {
#define MM_ROWS_ENTRY(_, S) [CPU_DT_##S] = mm_rows_##S,
    CPU_DTYPES_ALL(MM_ROWS_ENTRY, _)};

typedef struct mm_job {
    const mm_args *g;
    mm_rows_fn rows;
} mm_job;

static void mm_rows_range(void *vjob, int64_t i0, int64_t i1) {
    const mm_job *j = vjob;
    j->rows(j->g, i0, i1);
}

int64_t cpu_mm_work(int64_t m, int64_t n, int64_t k) {
    int64_t work;
    if (__builtin_mul_overflow(m, n, &work) || __builtin_mul_overflow(work, k > 0 ? k : 1, &work)) work = INT64_MAX;
    return work;
}

/* Rows of c split over the pool; `nested`: already on a piece of a batch, stay on this thread. */
static void mm_loop(const mm_args *g, mm_rows_fn rows, int nested) {
    const int nt = nested ? 1 : cpu_threads_for(cpu_mm_work(g->m, g->n, g->k));
    mm_job job = {g, rows};
    cpu_parallel(g->m, nt, mm_rows_range, &job);
}

/* ---- BLAS ---- */

typedef struct mm_operand {
    const void *data;
    int trans;
    int64_t ld;
    void *scratch; /* host_alloc'd packed copy, or NULL */
    size_t scratch_bytes;
} mm_operand;

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

/* A rows x cols operand as row-major BLAS sees it. A stride along a size-1 dim is meaningless, so
 * such a dim accepts any layout. Returns -1 (no error set: it may run on a pool worker) only when
 * packing runs out of memory. */
static int mm_operand_prepare(const char *data, int64_t rows, int64_t cols, int64_t s0, int64_t s1, size_t es,
                              mm_operand *op) {
    *op = (mm_operand){.data = data};
    if (cols == 1 || s1 == 1) {
        op->ld = rows == 1 ? max1(cols) : s0;
        if (op->ld >= max1(cols)) return 0;
    }
    if (rows == 1 || s0 == 1) {
        op->trans = 1;
        op->ld = cols == 1 ? max1(rows) : s1;
        if (op->ld >= max1(rows)) return 0;
    }
    op->trans = 0;
    op->ld = cols;
    op->scratch_bytes = (size_t)rows * (size_t)cols * es;
    op->scratch = cpu_core->host_alloc(op->scratch_bytes);
    if (!op->scratch) return -1;
    char *dst = op->scratch;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            memcpy(dst + (size_t)(r * cols + c) * es, data + (size_t)(r * s0 + c * s1) * es, es);
    op->data = op->scratch;
    return 0;
}

static void mm_operand_release(mm_operand *op) {
    if (op->scratch) cpu_core->host_free(op->scratch, op->scratch_bytes);
    op->scratch = NULL;
}

/* The provider's index type is not part of the ABI; 32-bit is the narrowest in use (LP64 BLAS). */
static int fits_blas(int64_t x) { return x <= INT32_MAX; }

/* Whether bp computes products of dtype (providers older than ABI 1.3 have no complex ones). */
static int blas_has(const tc_blas_provider *bp, int32_t dtype) {
    switch (dtype) {
    case TC_FLOAT32: return bp->sgemm != NULL;
    case TC_FLOAT64: return bp->dgemm != NULL;
    case TC_COMPLEX64: return TC_BLAS_HAS(bp, cgemm);
    case TC_COMPLEX128: return TC_BLAS_HAS(bp, zgemm);
    default: return 0;
    }
}

/* Returns 1 when it handled the product, 0 to fall back to the loop, -1 when out of memory. */
static int mm_try_blas(int32_t dtype, const mm_args *g) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    if (!bp || g->k == 0 || cpu_mm_work(g->m, g->n, g->k) <= MM_SMALL_WORK || !blas_has(bp, dtype)) return 0;
    const int64_t ldc = g->m == 1 ? max1(g->n) : g->cs0;
    if (!(g->n == 1 || g->cs1 == 1) || ldc < max1(g->n)) return 0;
    if (!fits_blas(g->m) || !fits_blas(g->n) || !fits_blas(g->k) || !fits_blas(ldc)) return 0;
    const size_t es = cpu_dtype_size(dtype);
    mm_operand a, b;
    if (mm_operand_prepare(g->a, g->m, g->k, g->as0, g->as1, es, &a)) return -1;
    if (mm_operand_prepare(g->b, g->k, g->n, g->bs0, g->bs1, es, &b)) {
        mm_operand_release(&a);
        return -1;
    }
    int done = 0;
    if (fits_blas(a.ld) && fits_blas(b.ld)) {
        const mm_scale *s = g->scale;
        /* complex products are plain (mm, bmm): alpha 1, beta 0 */
        static const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
        static const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
        if (dtype == TC_FLOAT32)
            bp->sgemm(a.trans, b.trans, g->m, g->n, g->k, (float)s->f_alpha, a.data, a.ld, b.data, b.ld,
                      (float)s->f_beta, (float *)g->c, ldc);
        else if (dtype == TC_FLOAT64)
            bp->dgemm(a.trans, b.trans, g->m, g->n, g->k, s->f_alpha, a.data, a.ld, b.data, b.ld, s->f_beta,
                      (double *)g->c, ldc);
        else if (dtype == TC_COMPLEX64)
            bp->cgemm(a.trans, b.trans, g->m, g->n, g->k, one_f, a.data, a.ld, b.data, b.ld, zero_f,
                      (float *)g->c, ldc);
        else
            bp->zgemm(a.trans, b.trans, g->m, g->n, g->k, one_d, a.data, a.ld, b.data, b.ld, zero_d,
                      (double *)g->c, ldc);
        done = 1;
    }
    mm_operand_release(&a);
    mm_operand_release(&b);
    return done;
}

/* c = alpha * a @ b + beta * c for one matrix: float32/float64 in this plugin's kernel where it applies, BLAS
 * when it takes the operands, else the loop. 0, or -1 when out of memory (nothing raised: `nested`
 * pieces run on pool workers). */
static int mm_compute(int32_t dtype, const mm_args *g, mm_rows_fn rows, int nested) {
    if (g->m == 0 || g->n == 0) return 0;
    if (!rows && (g->n == 1 || g->m == 1)) { /* a matrix and a vector: mv.c (float32/float64) */
        const double alpha = g->scale->f_alpha, beta = g->scale->f_beta;
        const mv_args mv = g->n == 1 ? (mv_args){g->m, g->k, g->a, g->as0, g->as1, g->b, g->bs0, g->c, g->cs0, alpha, beta}
                                     : (mv_args){g->n, g->k, g->b, g->bs1, g->bs0, g->a, g->as1, g->c, g->cs1, alpha, beta};
        if (cpu_mv_run(dtype, &mv, nested)) return 0;
    }
    if (!rows) { /* float32/float64 on AVX-512: mm_kernel.c */
        const int done = mm_kernel_try(dtype, g, nested);
        if (done) return done < 0 ? -1 : 0;
    }
    const int blas = mm_try_blas(dtype, g);
    if (blas < 0) return -1;
    if (!blas) mm_loop(g, rows ? rows : mm_rows[dtype], nested);
    return 0;
}

static int mm_oom(const char *op) { return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "%s: out of memory packing an operand", op); }

/* ---- the kernels' shared parts ---- */

/* PyTorch's CPU products refuse bool; float16 is computed here (in float32, rounded once), where
 * PyTorch 1.13's CPU build refuses it too: a superset the differential suite checks. */
static int mm_dtype_ok(int32_t dtype, const char *name) {
    if (dtype != TC_BOOL) return TC_OK;
    return cpu_core->set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for 'Bool'", name);
}

static double scalar_f(const tc_scalar *s) { return s->kind == TC_SCALAR_FLOAT ? s->v.f : (double)s->v.i; }

/* Integers take a float scalar truncated toward zero, as PyTorch's scalar conversion does. */
static uint64_t scalar_i(const tc_scalar *s) {
    return (uint64_t)(s->kind == TC_SCALAR_FLOAT ? cpu_f2i64(s->v.f) : s->v.i);
}

static mm_scale scale_of(const tc_kernel_args *args, int has_scalars) {
    mm_scale s = {.f_alpha = 1, .f_beta = 0, .i_alpha = 1, .i_beta = 0, .plain = 1};
    if (has_scalars && args->n_scalars >= 2) {
        s.f_beta = scalar_f(&args->scalars[0]);
        s.f_alpha = scalar_f(&args->scalars[1]);
        s.i_beta = scalar_i(&args->scalars[0]);
        s.i_alpha = scalar_i(&args->scalars[1]);
        s.plain = 0;
    }
    return s;
}

static int beta_is_zero(int32_t dtype, const mm_scale *s) {
    const int floating = dtype == TC_FLOAT16 || dtype == TC_BFLOAT16 || dtype == TC_FLOAT32 || dtype == TC_FLOAT64;
    return floating ? s->f_beta == 0 : s->i_beta == 0;
}

/* The bias written into c before c = alpha * a @ b + beta * c (not when c already is the bias, in place). */
static void mm_copy_bias(const tc_view *bias, const tc_view *c, int64_t off_bias, int64_t off_c, int32_t d0, size_t es) {
    const char *src = (const char *)bias->data + (size_t)off_bias * es;
    char *dst = (char *)c->data + (size_t)off_c * es;
    const int64_t rows = c->sizes[d0], cols = c->sizes[d0 + 1];
    const int64_t bs0 = bias->strides[d0], bs1 = bias->strides[d0 + 1], cs0 = c->strides[d0], cs1 = c->strides[d0 + 1];
    if (src == dst && bs0 == cs0 && bs1 == cs1) return;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t q = 0; q < cols; q++)
            memcpy(dst + (size_t)(r * cs0 + q * cs1) * es, src + (size_t)(r * bs0 + q * bs1) * es, es);
}

/* The product of matrix dims d0, d0+1 of a, b into c, at the given element offsets. */
static mm_args mm_args_at(const tc_view *a, const tc_view *b, const tc_view *c, int32_t d0, int64_t oa, int64_t ob,
                          int64_t oc, const mm_scale *s) {
    const size_t es = cpu_dtype_size(c->dtype);
    return (mm_args){.a = (const char *)a->data + (size_t)oa * es, .b = (const char *)b->data + (size_t)ob * es,
                     .c = (char *)c->data + (size_t)oc * es, .m = a->sizes[d0], .k = a->sizes[d0 + 1],
                     .n = b->sizes[d0 + 1], .as0 = a->strides[d0], .as1 = a->strides[d0 + 1], .bs0 = b->strides[d0],
                     .bs1 = b->strides[d0 + 1], .cs0 = c->strides[d0], .cs1 = c->strides[d0 + 1], .scale = s};
}

/* ---- one matrix: mm, addmm, addr ---- */

/* rows: the loop of a dtype this file has none of (NULL: mm_rows's) */
static int run_matrix(const tc_kernel_args *args, int with_bias, const char *name, int check_dtype, mm_rows_fn rows) {
    const int nin = with_bias ? 3 : 2;
    if (cpu_check_args(args, nin, 1, name) != TC_OK) return TC_FAIL;
    const tc_view *a = &args->inputs[nin - 2], *b = &args->inputs[nin - 1], *c = &args->outputs[0];
    if (check_dtype && mm_dtype_ok(c->dtype, "addmm_impl_cpu_")) return TC_FAIL;
    if (a->ndim != 2 || b->ndim != 2 || c->ndim != 2)
        return cpu_core->set_error(TC_ERR_RUNTIME, "%s: expected 2-D operands, got %d, %d and %d dims", name,
                                   a->ndim, b->ndim, c->ndim);
    const mm_scale s = scale_of(args, with_bias);
    if (with_bias && !beta_is_zero(c->dtype, &s)) mm_copy_bias(&args->inputs[0], c, 0, 0, 0, cpu_dtype_size(c->dtype));
    const mm_args g = mm_args_at(a, b, c, 0, 0, 0, 0, &s);
    return mm_compute(c->dtype, &g, rows, 0) ? mm_oom(name) : TC_OK;
}

/* addmv: bias[m], mat[m,k], vec[k] -> c[m], as the matrix product of mat and vec's column. */
static tc_view as_column(const tc_view *v, int64_t *sizes, int64_t *strides) {
    tc_view col = *v;
    sizes[0] = v->sizes[0], sizes[1] = 1;
    strides[0] = v->strides[0], strides[1] = 1;
    col.sizes = sizes, col.strides = strides, col.ndim = 2;
    return col;
}

static int run_addmv(const tc_kernel_args *args) {
    if (cpu_check_args(args, 3, 1, "addmv") != TC_OK) return TC_FAIL;
    const tc_view *mat = &args->inputs[1], *c1 = &args->outputs[0];
    if (mm_dtype_ok(c1->dtype, "addmv_impl_cpu")) return TC_FAIL;
    if (mat->ndim != 2 || args->inputs[0].ndim != 1 || args->inputs[2].ndim != 1 || c1->ndim != 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "addmv: expected a matrix and vectors");
    int64_t sz[3][2], st[3][2];
    const tc_view bias = as_column(&args->inputs[0], sz[0], st[0]), vec = as_column(&args->inputs[2], sz[1], st[1]);
    const tc_view c = as_column(c1, sz[2], st[2]);
    const mm_scale s = scale_of(args, 1);
    if (!beta_is_zero(c.dtype, &s)) mm_copy_bias(&bias, &c, 0, 0, 0, cpu_dtype_size(c.dtype));
    const mm_args g = mm_args_at(mat, &vec, &c, 0, 0, 0, 0, &s);
    return mm_compute(c.dtype, &g, NULL, 0) ? mm_oom("addmv") : TC_OK;
}

/* ---- batches: bmm, baddbmm, addbmm ---- */

typedef struct batch_job {
    const tc_kernel_args *args;
    const tc_view *bias, *a, *b, *c;
    const mm_scale *scale;
    mm_rows_fn rows;
    int nested;
    int failed; /* set by a piece that ran out of memory */
} batch_job;

static void batch_range(void *vjob, int64_t i0, int64_t i1) {
    batch_job *j = vjob;
    const size_t es = cpu_dtype_size(j->c->dtype);
    for (int64_t i = i0; i < i1; i++) {
        const int64_t oc = i * j->c->strides[0];
        if (j->bias && !beta_is_zero(j->c->dtype, j->scale)) mm_copy_bias(j->bias, j->c, i * j->bias->strides[0], oc, 1, es);
        const mm_args g = mm_args_at(j->a, j->b, j->c, 1, i * j->a->strides[0], i * j->b->strides[0], oc, j->scale);
        if (mm_compute(j->c->dtype, &g, j->rows, j->nested)) __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
    }
}

/* Products of one batch run side by side, or one after another each split over the pool. */
static int run_batch(const tc_kernel_args *args, int with_bias, const char *name, mm_rows_fn rows) {
    const int nin = with_bias ? 3 : 2;
    if (cpu_check_args(args, nin, 1, name) != TC_OK) return TC_FAIL;
    const tc_view *a = &args->inputs[nin - 2], *b = &args->inputs[nin - 1], *c = &args->outputs[0];
    if (mm_dtype_ok(c->dtype, name)) return TC_FAIL;
    if (a->ndim != 3 || b->ndim != 3 || c->ndim != 3)
        return cpu_core->set_error(TC_ERR_RUNTIME, "%s: expected 3-D operands, got %d, %d and %d dims", name,
                                   a->ndim, b->ndim, c->ndim);
    const mm_scale s = scale_of(args, with_bias);
    const int64_t batch = c->sizes[0], each = cpu_mm_work(c->sizes[1], c->sizes[2], a->sizes[2]);
    int64_t total;
    if (__builtin_mul_overflow(each, batch, &total)) total = INT64_MAX;
    /* Whole products per thread need no synchronisation inside a product: 64 products of 128^3 ran at
     * 124 GFLOP/s on 2 threads split one by one, 146 on 1, 210 side by side. Each product split only
     * pays when the products are big enough for the provider to split (plugins/common/gemm_parallel.h's
     * grain) and too few to share out evenly. */
    const int threads = cpu_threads_for(total);
    const int side_by_side = each < ((int64_t)1 << 21) || batch % threads == 0 || batch >= 4 * (int64_t)threads;
    batch_job job = {args, with_bias ? &args->inputs[0] : NULL, a, b, c, &s, rows, side_by_side, 0};
    cpu_parallel(batch, side_by_side ? threads : 1, batch_range, &job);
    return job.failed ? mm_oom(name) : TC_OK;
}

/* addbmm: the products accumulate into c one after another (the first with beta, the rest with 1). */
static int k_addbmm_any(const tc_kernel_args *args) {
    if (cpu_check_args(args, 3, 1, "addbmm") != TC_OK) return TC_FAIL;
    const tc_view *a = &args->inputs[1], *b = &args->inputs[2], *c = &args->outputs[0];
    if (mm_dtype_ok(c->dtype, "addmm_impl_cpu_")) return TC_FAIL;
    mm_scale s = scale_of(args, 1);
    if (!beta_is_zero(c->dtype, &s)) mm_copy_bias(&args->inputs[0], c, 0, 0, 0, cpu_dtype_size(c->dtype));
    const int64_t batch = a->sizes[0];
    /* no products: c = beta * bias, a product with nothing to sum (k = 0) */
    const tc_view a0 = {.data = a->data, .sizes = (int64_t[]){c->sizes[0], batch ? a->sizes[2] : 0},
                        .strides = a->strides + 1, .ndim = 2, .dtype = a->dtype};
    const tc_view b0 = {.data = b->data, .sizes = (int64_t[]){batch ? b->sizes[1] : 0, c->sizes[1]},
                        .strides = b->strides + 1, .ndim = 2, .dtype = b->dtype};
    for (int64_t i = 0; i < (batch ? batch : 1); i++) {
        const mm_args g = mm_args_at(&a0, &b0, c, 0, i * a->strides[0], i * b->strides[0], 0, &s);
        if (mm_compute(c->dtype, &g, NULL, 0)) return mm_oom("addbmm");
        s.f_beta = 1, s.i_beta = 1;
    }
    return TC_OK;
}

/* ---- dot ---- */

#define DOT_A_b8 uint64_t
#define DOT_A_u8 uint64_t
#define DOT_A_i8 uint64_t
#define DOT_A_i16 uint64_t
#define DOT_A_i32 uint64_t
#define DOT_A_i64 uint64_t
#define DOT_A_f16 float
#define DOT_A_bf16 float
#define DOT_A_f32 double
#define DOT_A_f64 double

#define DOT_STAMP(_, S)                                                                            \
    static void dot_##S(const tc_view *a, const tc_view *b, const tc_view *c) {                    \
        const CPU_T_##S *x = a->data, *y = b->data;                                                \
        const int64_t n = a->sizes[0], sx = a->strides[0], sy = b->strides[0];                    \
        DOT_A_##S acc = 0;                                                                         \
        for (int64_t i = 0; i < n; i++)                                                            \
            acc += (DOT_A_##S)cpu_ld_##S(x[i * sx]) * (DOT_A_##S)cpu_ld_##S(y[i * sy]);            \
        *(CPU_T_##S *)c->data = cpu_st_##S((CPU_C_##S)acc);                                        \
    }
CPU_DTYPES_ALL(DOT_STAMP, _)

/* ---- other files' dtypes (complex_mm.c) ---- */

int cpu_mm_run(const tc_kernel_args *args, mm_rows_fn rows) { return run_matrix(args, 0, "mm", 1, rows); }
int cpu_bmm_run(const tc_kernel_args *args, mm_rows_fn rows) { return run_batch(args, 0, "bmm", rows); }

/* ---- registration ---- */

#define KERNEL(_, S)                                                                               \
    static int k_mm_##S(const tc_kernel_args *args) { return run_matrix(args, 0, "mm", 1, NULL); }      \
    static int k_addmm_##S(const tc_kernel_args *args) { return run_matrix(args, 1, "addmm", 1, NULL); } \
    static int k_addr_##S(const tc_kernel_args *args) { return run_matrix(args, 1, "addr", 0, NULL); }  \
    static int k_addmv_##S(const tc_kernel_args *args) { return run_addmv(args); }                       \
    static int k_bmm_##S(const tc_kernel_args *args) { return run_batch(args, 0, "bmm", NULL); }         \
    static int k_baddbmm_##S(const tc_kernel_args *args) { return run_batch(args, 1, "baddbmm", NULL); }
CPU_DTYPES_ALL(KERNEL, _)

#define DOT_KERNEL(_, S)                                                                           \
    static int k_dot_##S(const tc_kernel_args *args) {                                             \
        if (cpu_check_args(args, 2, 1, "dot") != TC_OK) return TC_FAIL;                            \
        if (mm_dtype_ok(args->outputs[0].dtype, "dot")) return TC_FAIL;                            \
        dot_##S(&args->inputs[0], &args->inputs[1], &args->outputs[0]);                            \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_ALL(DOT_KERNEL, _)

#define ENTRY(_, S)                                                                                \
    {"mm", CPU_DT_##S, k_mm_##S}, {"bmm", CPU_DT_##S, k_bmm_##S}, {"addmm", CPU_DT_##S, k_addmm_##S}, \
        {"addr", CPU_DT_##S, k_addr_##S}, {"baddbmm", CPU_DT_##S, k_baddbmm_##S},                    \
        {"addbmm", CPU_DT_##S, k_addbmm_any}, {"addmv", CPU_DT_##S, k_addmv_##S},
#define DOT_ENTRY(_, S) {"dot", CPU_DT_##S, k_dot_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_ALL(DOT_ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
