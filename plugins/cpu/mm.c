/*
 * mm.c - matrix products: mm, c[m,n] = a[m,k] @ b[k,n], and bmm, one such product per batch.
 *
 * float32/float64 (and complex64/complex128, whose kernels are in complex_mm.c) go to the BLAS
 * provider (core->blas_current) when one is loaded: an operand with
 * unit stride in either dim is passed as is (transposed if its rows are the strided dim), any other
 * is first packed into contiguous scratch. Every other dtype, and float32/float64 without a
 * provider, runs a plain loop: for each row of a and each tile of columns, rows of b are scaled and
 * added into a tile of accumulators (float for the 16-bit floats and float32, double for float64,
 * wrapping uint64 for integers, or-of-ands for bool), with the b panel reused across a's rows.
 */
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "mm.h"

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

/* The arguments are copied into locals so the compiler knows stores to c cannot change them. */
#define MM_STAMP(_, S)                                                                             \
    static void mm_rows_##S(const mm_args *g, int64_t i0, int64_t i1) {                            \
        typedef MM_A_##S acc_t;                                                                    \
        const CPU_T_##S *a = (const CPU_T_##S *)g->a, *b = (const CPU_T_##S *)g->b;               \
        CPU_T_##S *c = (CPU_T_##S *)g->c;                                                          \
        const int64_t n = g->n, k = g->k, as0 = g->as0, as1 = g->as1, bs0 = g->bs0, bs1 = g->bs1;  \
        const int64_t cs0 = g->cs0, cs1 = g->cs1;                                                  \
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
                for (int64_t j = 0; j < jn; j++) c[i * cs0 + (j0 + j) * cs1] = cpu_st_##S((CPU_C_##S)acc[j]); \
            }                                                                                      \
        }                                                                                          \
    }
CPU_DTYPES_ALL(MM_STAMP, _)

typedef struct mm_job {
    const mm_args *g;
    mm_rows_fn rows;
} mm_job;

static void mm_rows_range(void *vjob, int64_t i0, int64_t i1) {
    const mm_job *j = vjob;
    j->rows(j->g, i0, i1);
}

static void mm_loop(const mm_args *g, mm_rows_fn rows) {
    int64_t work;
    if (__builtin_mul_overflow(g->m, g->n, &work) || __builtin_mul_overflow(work, g->k > 0 ? g->k : 1, &work))
        work = INT64_MAX;
    const int nt = cpu_threads_for(work);
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
 * such a dim accepts any layout. Returns TC_FAIL (error set) only when packing runs out of memory. */
static int mm_operand_prepare(const char *data, int64_t rows, int64_t cols, int64_t s0, int64_t s1,
                              size_t es, mm_operand *op) {
    *op = (mm_operand){.data = data};
    if (cols == 1 || s1 == 1) {
        op->ld = rows == 1 ? max1(cols) : s0;
        if (op->ld >= max1(cols)) return TC_OK;
    }
    if (rows == 1 || s0 == 1) {
        op->trans = 1;
        op->ld = cols == 1 ? max1(rows) : s1;
        if (op->ld >= max1(rows)) return TC_OK;
    }
    op->trans = 0;
    op->ld = cols;
    op->scratch_bytes = (size_t)rows * (size_t)cols * es;
    op->scratch = cpu_core->host_alloc(op->scratch_bytes);
    if (!op->scratch) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "mm: out of memory packing an operand");
    char *dst = op->scratch;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            memcpy(dst + (size_t)(r * cols + c) * es, data + (size_t)(r * s0 + c * s1) * es, es);
    op->data = op->scratch;
    return TC_OK;
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

/* Returns 1 when it handled the product, 0 to fall back to the loop, -1 on error. */
static int mm_try_blas(int32_t dtype, const mm_args *g) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    if (!bp || g->k == 0 || !blas_has(bp, dtype)) return 0;
    const int64_t ldc = g->m == 1 ? max1(g->n) : g->cs0;
    if (!(g->n == 1 || g->cs1 == 1) || ldc < max1(g->n)) return 0;
    if (!fits_blas(g->m) || !fits_blas(g->n) || !fits_blas(g->k) || !fits_blas(ldc)) return 0;
    const size_t es = cpu_dtype_size(dtype);
    mm_operand a, b;
    if (mm_operand_prepare(g->a, g->m, g->k, g->as0, g->as1, es, &a) != TC_OK) return -1;
    if (mm_operand_prepare(g->b, g->k, g->n, g->bs0, g->bs1, es, &b) != TC_OK) {
        mm_operand_release(&a);
        return -1;
    }
    int done = 0;
    if (fits_blas(a.ld) && fits_blas(b.ld)) {
        static const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
        static const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
        if (dtype == TC_FLOAT32)
            bp->sgemm(a.trans, b.trans, g->m, g->n, g->k, 1.0f, a.data, a.ld, b.data, b.ld, 0.0f,
                      (float *)g->c, ldc);
        else if (dtype == TC_FLOAT64)
            bp->dgemm(a.trans, b.trans, g->m, g->n, g->k, 1.0, a.data, a.ld, b.data, b.ld, 0.0,
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

/* ---- kernels ---- */

/* c = a @ b for one matrix: BLAS when it can take the operands, else the loop. */
static int mm_compute(int32_t dtype, const mm_args *g, mm_rows_fn rows) {
    if (g->m == 0 || g->n == 0) return TC_OK;
    const int blas = mm_try_blas(dtype, g);
    if (blas < 0) return TC_FAIL;
    if (!blas) mm_loop(g, rows);
    return TC_OK;
}

int cpu_mm_run(const tc_kernel_args *args, mm_rows_fn rows) {
    if (cpu_check_args(args, 2, 1, "mm") != TC_OK) return TC_FAIL;
    const tc_view *a = &args->inputs[0], *b = &args->inputs[1], *c = &args->outputs[0];
    if (a->ndim != 2 || b->ndim != 2 || c->ndim != 2)
        return cpu_core->set_error(TC_ERR_RUNTIME, "mm: expected 2-D operands, got %d, %d and %d dims",
                                   a->ndim, b->ndim, c->ndim);
    const mm_args g = {.a = a->data, .b = b->data, .c = c->data,
                       .m = a->sizes[0], .k = a->sizes[1], .n = b->sizes[1],
                       .as0 = a->strides[0], .as1 = a->strides[1], .bs0 = b->strides[0],
                       .bs1 = b->strides[1], .cs0 = c->strides[0], .cs1 = c->strides[1]};
    return mm_compute(c->dtype, &g, rows);
}

/* bmm: one product per batch, on views of the operands (batch strides may be 0: broadcast). */
int cpu_bmm_run(const tc_kernel_args *args, mm_rows_fn rows) {
    if (cpu_check_args(args, 2, 1, "bmm") != TC_OK) return TC_FAIL;
    const tc_view *a = &args->inputs[0], *b = &args->inputs[1], *c = &args->outputs[0];
    if (a->ndim != 3 || b->ndim != 3 || c->ndim != 3)
        return cpu_core->set_error(TC_ERR_RUNTIME, "bmm: expected 3-D operands, got %d, %d and %d dims",
                                   a->ndim, b->ndim, c->ndim);
    const size_t es = cpu_dtype_size(c->dtype);
    for (int64_t i = 0; i < c->sizes[0]; i++) {
        const mm_args g = {.a = (const char *)a->data + (size_t)(i * a->strides[0]) * es,
                           .b = (const char *)b->data + (size_t)(i * b->strides[0]) * es,
                           .c = (char *)c->data + (size_t)(i * c->strides[0]) * es,
                           .m = a->sizes[1], .k = a->sizes[2], .n = b->sizes[2],
                           .as0 = a->strides[1], .as1 = a->strides[2], .bs0 = b->strides[1],
                           .bs1 = b->strides[2], .cs0 = c->strides[1], .cs1 = c->strides[2]};
        if (mm_compute(c->dtype, &g, rows) != TC_OK) return TC_FAIL;
    }
    return TC_OK;
}

#define KERNEL(_, S)                                                                               \
    static int k_mm_##S(const tc_kernel_args *args) { return cpu_mm_run(args, mm_rows_##S); }      \
    static int k_bmm_##S(const tc_kernel_args *args) { return cpu_bmm_run(args, mm_rows_##S); }
CPU_DTYPES_ALL(KERNEL, _)

#define ENTRY(_, S) {"mm", CPU_DT_##S, k_mm_##S}, {"bmm", CPU_DT_##S, k_bmm_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
