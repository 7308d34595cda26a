/*
 * mm_kernel.c - float32 and float64 matrix products on AVX-512 without packing: the products that
 * mm.c (and conv.c) run themselves instead of calling the BLAS provider, up to a size.
 *
 * Which: float32 products up to 1024^3 multiply-adds (float64: 2^29; BLIS is ahead from about 800^3),
 * past 16^3 (smaller ones stay in mm.c's loop), with c's rows contiguous, and fewer than 16 columns
 * only up to 64^3 (the vectors would be mostly masked). A b read along its columns is packed into
 * rows first, when a has 16 rows or more to repay it. Rows of c are split over the pool.
 *
 * Why: BLIS packs both operands and walks its full blocking framework on every call, which costs a
 * 64x64x64 float32 product about two thirds of its time (65 GFLOP/s on one thread of this project's
 * machine, against 171 for the reference's OpenBLAS; float64: 44 against 91) and a batch of 128^3
 * products a fifth. Products that fit the caches need no packing: each tile of 6 rows x 4 vectors of c
 * (64 float32 or 32 float64 columns) is 24 vector accumulators, fed per step of k by four loads of b's
 * row and six broadcasts of a's elements, so the FMA units stay busy (float32: about 200-220 GFLOP/s
 * from 32^3 to 512^3, 185 at 1024^3, measured standalone).
 *
 * b is read along its rows (unit column stride; mm_kernel_try packs it otherwise), a through any strides
 * (its elements are broadcast one by one), c is written along its rows. k is taken in blocks of
 * MK_KC so that b's panel stays in L2; later blocks add into c. Both dtypes are stamped from one
 * macro (MK_STAMP). Only the AVX-512 variant has the kernel: elsewhere mm_kernel_try takes nothing
 * and products go to the provider as before. (The same kernel with AVX2's 16 registers, tiles
 * of 6 x 16 floats, only matched BLIS's haswell/zen3 kernels at 64^3 to 256^3 and fell to two thirds
 * of them at 1024^3: those have their own small-product path.)
 */
#include "cpu.h"
#include "dtype.h"
#include "mm.h"
#include "mm_kernel.h"

#if defined(CPU_ISA_LEVEL) && CPU_ISA_LEVEL >= 4
#include <immintrin.h>

#define MK_ROWS 6 /* rows of c per tile */
#define MK_VECS 4 /* vectors per tile row */
#define MK_KC 256 /* steps of k per block */

/* The float32 and float64 instances: element type T, vector type VT (W elements), mask type MT with
 * FULL set, and the intrinsics' suffix X. */
#define MK_STAMP(S, T, VT, W, MT, FULL, X)                                                         \
    /* One tile: mr rows, nv vectors (the last masked by `last`) of c = alpha * a @ b + beta * c   \
     * over kc steps; beta 0 leaves c unread. mr and nv are constants at every call site, so the   \
     * loops unroll into registers. */                                                             \
    static inline __attribute__((always_inline)) void mk_tile_##S(                                 \
        const int mr, const int nv, MT last, int64_t kc, const T *a, int64_t as0, int64_t as1,     \
        const T *b, int64_t ldb, T *c, int64_t ldc, T alpha, T beta) {                             \
        VT acc[MK_ROWS][MK_VECS];                                                                  \
        _Pragma("GCC unroll 8") for (int r = 0; r < mr; r++)                                       \
            _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++) acc[r][v] = _mm512_setzero_##X(); \
        for (int64_t p = 0; p < kc; p++) {                                                         \
            const T *brow = b + p * ldb;                                                           \
            VT bv[MK_VECS];                                                                        \
            _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++) bv[v] =                           \
                v == nv - 1 ? _mm512_maskz_loadu_##X(last, brow + W * v) : _mm512_loadu_##X(brow + W * v); \
            _Pragma("GCC unroll 8") for (int r = 0; r < mr; r++) {                                 \
                const VT x = _mm512_set1_##X(a[r * as0 + p * as1]);                                \
                _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++)                               \
                    acc[r][v] = _mm512_fmadd_##X(x, bv[v], acc[r][v]);                             \
            }                                                                                      \
        }                                                                                          \
        const VT va = _mm512_set1_##X(alpha), vb = _mm512_set1_##X(beta);                          \
        _Pragma("GCC unroll 8") for (int r = 0; r < mr; r++)                                       \
            _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++) {                                 \
                T *out = c + r * ldc + W * v;                                                      \
                const MT m = v == nv - 1 ? last : (MT)(FULL);                                      \
                VT y = _mm512_mul_##X(va, acc[r][v]);                                              \
                if (beta != 0) y = _mm512_fmadd_##X(vb, _mm512_maskz_loadu_##X(m, out), y);        \
                _mm512_mask_storeu_##X(out, m, y);                                                 \
            }                                                                                      \
    }                                                                                              \
                                                                                                   \
    /* The edge tiles: fewer rows or vectors than a full tile, each its own unrolled instance. */  \
    static void mk_edge_##S(int mr, int nv, MT last, int64_t kc, const T *a, int64_t as0, int64_t as1, \
                            const T *b, int64_t ldb, T *c, int64_t ldc, T alpha, T beta) {          \
        switch (mr * 8 + nv) {                                                                     \
            MK_EDGE_CASES(S, 1) MK_EDGE_CASES(S, 2) MK_EDGE_CASES(S, 3)                            \
            MK_EDGE_CASES(S, 4) MK_EDGE_CASES(S, 5) MK_EDGE_CASES(S, 6)                            \
        default: break;                                                                            \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void mk_rows_##S(const mm_args *g, const T *b, int64_t ldb, int64_t i0, int64_t i1) {    \
        const T *a = (const T *)g->a;                                                              \
        T *c = (T *)g->c;                                                                          \
        const int64_t n = g->n, k = g->k, as0 = g->as0, as1 = g->as1, ldc = g->cs0;                \
        const T alpha = (T)g->scale->f_alpha, beta = (T)g->scale->f_beta;                          \
        for (int64_t p0 = 0; p0 < k; p0 += MK_KC) {                                                \
            const int64_t kc = k - p0 < MK_KC ? k - p0 : MK_KC;                                    \
            const T beta_here = p0 == 0 ? beta : (T)1; /* later blocks add to what the first wrote */ \
            for (int64_t j0 = 0; j0 < n; j0 += W * MK_VECS) {                                      \
                const int64_t w = n - j0 < W * MK_VECS ? n - j0 : W * MK_VECS;                     \
                const int nv = (int)((w + W - 1) / W);                                             \
                const int tail = (int)(w - (int64_t)W * (nv - 1));                                 \
                const MT last = (MT)(tail == W ? (FULL) : (1u << tail) - 1);                       \
                const T *bp = b + p0 * ldb + j0;                                                   \
                for (int64_t i = i0; i < i1; i += MK_ROWS) {                                       \
                    const int mr = i1 - i < MK_ROWS ? (int)(i1 - i) : MK_ROWS;                     \
                    const T *ap = a + i * as0 + p0 * as1;                                          \
                    T *cp = c + i * ldc + j0;                                                      \
                    if (mr == MK_ROWS && nv == MK_VECS)                                            \
                        mk_tile_##S(MK_ROWS, MK_VECS, last, kc, ap, as0, as1, bp, ldb, cp, ldc, alpha, beta_here); \
                    else                                                                           \
                        mk_edge_##S(mr, nv, last, kc, ap, as0, as1, bp, ldb, cp, ldc, alpha, beta_here); \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

#define MK_EDGE_CASE(S, MR, NV)                                                                    \
    case MR * 8 + NV: mk_tile_##S(MR, NV, last, kc, a, as0, as1, b, ldb, c, ldc, alpha, beta); break;
#define MK_EDGE_CASES(S, MR) MK_EDGE_CASE(S, MR, 1) MK_EDGE_CASE(S, MR, 2) MK_EDGE_CASE(S, MR, 3) MK_EDGE_CASE(S, MR, 4)

MK_STAMP(f32, float, __m512, 16, __mmask16, 0xffffu, ps)
MK_STAMP(f64, double, __m512d, 8, __mmask8, 0xffu, pd)

/* dst[16 x 16] (row stride ldd) = the transpose of src[16 x 16] (row stride lds): three rounds of
 * in-register shuffles (pairs of rows, pairs of pairs, then 128-bit lanes twice). */
static void mk_transpose16(float *dst, int64_t ldd, const float *src, int64_t lds) {
    __m512 r[16], t[16];
    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src + i * lds);
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);     /* per lane: a0 b0 a1 b1 */
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]); /* a2 b2 a3 b3 */
    }
    for (int i = 0; i < 16; i += 4) { /* r[i + c]: rows i..i+3 of columns c, c+4, c+8, c+12 (one per lane) */
        const __m512d t0 = _mm512_castps_pd(t[i]), t1 = _mm512_castps_pd(t[i + 1]);
        const __m512d t2 = _mm512_castps_pd(t[i + 2]), t3 = _mm512_castps_pd(t[i + 3]);
        r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
        r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
        r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
        r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
    }
    for (int h = 0; h < 16; h += 8) /* t[h + c], t[h + 4 + c]: rows h..h+7 of columns c, c+8 and c+4, c+12 */
        for (int c = 0; c < 4; c++) {
            t[h + c] = _mm512_shuffle_f32x4(r[h + c], r[h + 4 + c], 0x88);
            t[h + 4 + c] = _mm512_shuffle_f32x4(r[h + c], r[h + 4 + c], 0xdd);
        }
    for (int c = 0; c < 8; c++) {
        _mm512_storeu_ps(dst + c * ldd, _mm512_shuffle_f32x4(t[c], t[8 + c], 0x88));
        _mm512_storeu_ps(dst + (c + 8) * ldd, _mm512_shuffle_f32x4(t[c], t[8 + c], 0xdd));
    }
}

/* dst[k x n] (rows n apart) = b[k x n] read through strides bs0, bs1, element by element from row p0
 * on, and for rows above p0 from column j0 on. */
#define MK_PACK_REST(S, T)                                                                         \
    static void mk_pack_rest_##S(T *dst, const T *b, int64_t k, int64_t n, int64_t bs0, int64_t bs1,   \
                                 int64_t p0, int64_t j0) {                                          \
        for (int64_t p = 0; p < k; p++)                                                            \
            for (int64_t j = p < p0 ? j0 : 0; j < n; j++) dst[p * n + j] = b[p * bs0 + j * bs1];   \
    }
MK_PACK_REST(f32, float)
MK_PACK_REST(f64, double)

/* float32's b stored transposed (n rows of k, bs1 apart) is turned in 16 x 16 tiles; float64's, and
 * other strides, element by element (float64 products are rarer). */
static void mk_pack_f32(float *dst, const float *b, int64_t k, int64_t n, int64_t bs0, int64_t bs1) {
    int64_t p0 = 0;
    if (bs0 == 1)
        for (p0 = 0; p0 + 16 <= k; p0 += 16)
            for (int64_t j0 = 0; j0 + 16 <= n; j0 += 16) mk_transpose16(dst + p0 * n + j0, n, b + j0 * bs1 + p0, bs1);
    mk_pack_rest_f32(dst, b, k, n, bs0, bs1, p0, n - n % 16);
}

typedef struct mk_job {
    const mm_args *g;
    int32_t dtype;
    const void *b;
    int64_t ldb;
} mk_job;

static void mk_range(void *vjob, int64_t u0, int64_t u1) {
    const mk_job *j = vjob;
    const int64_t i0 = u0 * MK_ROWS, i1 = u1 * MK_ROWS < j->g->m ? u1 * MK_ROWS : j->g->m;
    if (i0 >= i1) return;
    if (j->dtype == TC_FLOAT32)
        mk_rows_f32(j->g, j->b, j->ldb, i0, i1);
    else
        mk_rows_f64(j->g, j->b, j->ldb, i0, i1);
}

#define MK_MAX_WORK ((int64_t)1 << 30)
#define MK_MAX_WORK_F64 ((int64_t)1 << 29)
#define MK_NARROW_WORK ((int64_t)64 * 64 * 64)
#define MK_PACK_ROWS 16    /* fewer rows of a do not repay packing a transposed b */
#define MK_GRAIN_RATIO 16  /* a piece of a product: 16 times CPU_GRAIN multiply-adds at least */

int mm_kernel_try(int32_t dtype, const mm_args *g, int nested) {
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64) return 0;
    const int64_t work = cpu_mm_work(g->m, g->n, g->k);
    const int64_t max_work = dtype == TC_FLOAT64 ? MK_MAX_WORK_F64 : MK_MAX_WORK;
    if (g->m == 0 || g->n == 0 || g->k == 0 || work <= MM_SMALL_WORK || work > max_work) return 0;
    if (g->n < 16 && work > MK_NARROW_WORK) return 0;
    if (g->n > 1 && g->cs1 != 1) return 0;
    const size_t es = cpu_dtype_size(dtype);
    const void *b = g->b;
    int64_t ldb = g->bs0;
    void *packed = NULL;
    const size_t packed_bytes = (size_t)g->k * (size_t)g->n * es;
    if (g->n > 1 && g->bs1 != 1) { /* b read along its columns: copied into rows first */
        if (g->m < MK_PACK_ROWS) return 0;
        packed = cpu_core->host_alloc(packed_bytes);
        if (!packed) return -1;
        if (dtype == TC_FLOAT32)
            mk_pack_f32(packed, b, g->k, g->n, g->bs0, g->bs1);
        else
            mk_pack_rest_f64(packed, b, g->k, g->n, g->bs0, g->bs1, 0, 0);
        b = packed;
        ldb = g->n;
    }
    mk_job job = {g, dtype, b, ldb};
    const int nt = nested ? 1 : cpu_threads_for(work / MK_GRAIN_RATIO);
    cpu_parallel((g->m + MK_ROWS - 1) / MK_ROWS, nt, mk_range, &job);
    if (packed) cpu_core->host_free(packed, packed_bytes);
    return 1;
}

#else

int mm_kernel_try(int32_t dtype, const mm_args *g, int nested) {
    (void)dtype;
    (void)g;
    (void)nested;
    return 0; /* no kernel for this ISA variant: BLAS or mm.c's loop */
}

#endif

int mm_kernel_gemm(int32_t dtype, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const void *a,
                   int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc) {
    const mm_scale s = {.f_alpha = 1, .f_beta = beta, .i_alpha = 1, .i_beta = 0, .plain = beta == 0};
    const mm_args g = {.a = a, .b = b, .c = c, .m = m, .n = n, .k = k, .as0 = trans_a ? 1 : lda,
                       .as1 = trans_a ? lda : 1, .bs0 = trans_b ? 1 : ldb, .bs1 = trans_b ? ldb : 1, .cs0 = ldc,
                       .cs1 = 1, .scale = &s};
    return mm_kernel_try(dtype, &g, 0);
}
