/*
 * mm_kernel_f32.c - float32 matrix products on AVX-512 without packing: the product that mm.c runs
 * itself instead of calling the BLAS provider, up to a size (mm.c: MM_KERNEL_MAX_WORK).
 *
 * Why: BLIS packs both operands and walks its full blocking framework on every call, which costs a
 * 64x64x64 product about two thirds of its time (65 GFLOP/s on one thread of this project's machine,
 * against 171 for the reference's OpenBLAS) and a batch of 128^3 products a fifth. Products that
 * fit the caches need no packing: each tile of 6 rows x 64 columns of c is 24 vector accumulators,
 * fed per step of k by four loads of b's row and six broadcasts of a's elements, so the FMA units
 * stay busy (about 200-220 GFLOP/s from 32^3 to 512^3, 185 at 1024^3, measured standalone).
 *
 * b is read along its rows (unit column stride; mm.c packs it otherwise), a through any strides
 * (its elements are broadcast one by one), c is written along its rows. k is taken in blocks of
 * MK_KC so that b's panel stays in L2; later blocks add into c. Only the AVX-512 variant has the
 * kernel: elsewhere mm_kernel_f32_available() is false and products go to the provider as before.
 * (The same kernel with AVX2's 16 registers, tiles of 6 x 16, only matched BLIS's haswell/zen3
 * kernels at 64^3 to 256^3 and fell to two thirds of them at 1024^3: those have their own small-
 * product path.)
 */
#include "cpu.h"
#include "mm.h"
#include "mm_kernel_f32.h"

#if defined(CPU_ISA_LEVEL) && CPU_ISA_LEVEL >= 4
#include <immintrin.h>

#define MK_ROWS 6  /* rows of c per tile */
#define MK_VECS 4  /* 16-float vectors per tile row: 64 columns */
#define MK_KC 256  /* steps of k per block */

bool mm_kernel_f32_available(void) { return true; }

/* One tile: mr rows, nv vectors (the last masked by `last`) of c = alpha * a @ b + beta * c over kc
 * steps; beta 0 leaves c unread. mr and nv are constants at every call site (mk_dispatch), so the
 * loops unroll into registers. */
static inline __attribute__((always_inline)) void mk_tile(const int mr, const int nv, __mmask16 last, int64_t kc,
                                                          const float *a, int64_t as0, int64_t as1,
                                                          const float *b, int64_t ldb, float *c, int64_t ldc,
                                                          float alpha, float beta) {
    __m512 acc[MK_ROWS][MK_VECS];
    _Pragma("GCC unroll 8") for (int r = 0; r < mr; r++)
        _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++) acc[r][v] = _mm512_setzero_ps();
    for (int64_t p = 0; p < kc; p++) {
        const float *brow = b + p * ldb;
        __m512 bv[MK_VECS];
        _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++)
            bv[v] = v == nv - 1 ? _mm512_maskz_loadu_ps(last, brow + 16 * v) : _mm512_loadu_ps(brow + 16 * v);
        _Pragma("GCC unroll 8") for (int r = 0; r < mr; r++) {
            const __m512 x = _mm512_set1_ps(a[r * as0 + p * as1]);
            _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++) acc[r][v] = _mm512_fmadd_ps(x, bv[v], acc[r][v]);
        }
    }
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    _Pragma("GCC unroll 8") for (int r = 0; r < mr; r++)
        _Pragma("GCC unroll 8") for (int v = 0; v < nv; v++) {
            float *out = c + r * ldc + 16 * v;
            const __mmask16 m = v == nv - 1 ? last : (__mmask16)0xffff;
            __m512 y = _mm512_mul_ps(va, acc[r][v]);
            if (beta != 0.0f) y = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m, out), y);
            _mm512_mask_storeu_ps(out, m, y);
        }
}

#define MK_NV_CASES(MR)                                                                            \
    switch (nv) {                                                                                  \
    case 1: mk_tile(MR, 1, last, kc, a, as0, as1, b, ldb, c, ldc, alpha, beta); break;             \
    case 2: mk_tile(MR, 2, last, kc, a, as0, as1, b, ldb, c, ldc, alpha, beta); break;             \
    case 3: mk_tile(MR, 3, last, kc, a, as0, as1, b, ldb, c, ldc, alpha, beta); break;             \
    default: mk_tile(MR, 4, last, kc, a, as0, as1, b, ldb, c, ldc, alpha, beta); break;            \
    }

/* The edge tiles: fewer rows or vectors than a full tile, each its own unrolled instance. */
static void mk_edge(int mr, int nv, __mmask16 last, int64_t kc, const float *a, int64_t as0, int64_t as1,
                    const float *b, int64_t ldb, float *c, int64_t ldc, float alpha, float beta) {
    switch (mr) {
    case 1: MK_NV_CASES(1) break;
    case 2: MK_NV_CASES(2) break;
    case 3: MK_NV_CASES(3) break;
    case 4: MK_NV_CASES(4) break;
    case 5: MK_NV_CASES(5) break;
    default: MK_NV_CASES(6) break;
    }
}

void mm_kernel_f32_rows(const mm_args *g, const float *b, int64_t ldb, int64_t i0, int64_t i1) {
    const float *a = (const float *)g->a;
    float *c = (float *)g->c;
    const int64_t n = g->n, k = g->k, as0 = g->as0, as1 = g->as1, ldc = g->cs0;
    const float alpha = (float)g->scale->f_alpha, beta = (float)g->scale->f_beta;
    for (int64_t p0 = 0; p0 < k; p0 += MK_KC) {
        const int64_t kc = k - p0 < MK_KC ? k - p0 : MK_KC;
        const float beta_here = p0 == 0 ? beta : 1.0f; /* later blocks add to what the first wrote */
        for (int64_t j0 = 0; j0 < n; j0 += 16 * MK_VECS) {
            const int64_t w = n - j0 < 16 * MK_VECS ? n - j0 : 16 * MK_VECS;
            const int nv = (int)((w + 15) / 16);
            const __mmask16 last = (__mmask16)(w % 16 ? (1u << (w % 16)) - 1 : 0xffffu);
            const float *bp = b + p0 * ldb + j0;
            for (int64_t i = i0; i < i1; i += MK_ROWS) {
                const int mr = i1 - i < MK_ROWS ? (int)(i1 - i) : MK_ROWS;
                const float *ap = a + i * as0 + p0 * as1;
                float *cp = c + i * ldc + j0;
                if (mr == MK_ROWS && nv == MK_VECS)
                    mk_tile(MK_ROWS, MK_VECS, last, kc, ap, as0, as1, bp, ldb, cp, ldc, alpha, beta_here);
                else
                    mk_edge(mr, nv, last, kc, ap, as0, as1, bp, ldb, cp, ldc, alpha, beta_here);
            }
        }
    }
}

int64_t mm_kernel_f32_row_unit(void) { return MK_ROWS; }

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

void mm_kernel_f32_pack(float *dst, const float *b, int64_t k, int64_t n, int64_t bs0, int64_t bs1) {
    int64_t p0 = 0, j0 = 0;
    if (bs0 == 1) /* b stored transposed: n rows of k, bs1 apart, turned in 16 x 16 tiles */
        for (p0 = 0; p0 + 16 <= k; p0 += 16)
            for (j0 = 0; j0 + 16 <= n; j0 += 16) mk_transpose16(dst + p0 * n + j0, n, b + j0 * bs1 + p0, bs1);
    /* what the tiles did not cover: the last rows of dst (p >= p0), and its last columns */
    for (int64_t p = 0; p < k; p++)
        for (int64_t j = p < p0 ? n - n % 16 : 0; j < n; j++) dst[p * n + j] = b[p * bs0 + j * bs1];
}

#else

bool mm_kernel_f32_available(void) { return false; }

void mm_kernel_f32_rows(const mm_args *g, const float *b, int64_t ldb, int64_t i0, int64_t i1) {
    (void)g;
    (void)b;
    (void)ldb;
    (void)i0;
    (void)i1;
}

int64_t mm_kernel_f32_row_unit(void) { return 1; }

void mm_kernel_f32_pack(float *dst, const float *b, int64_t k, int64_t n, int64_t bs0, int64_t bs1) {
    for (int64_t p = 0; p < k; p++)
        for (int64_t j = 0; j < n; j++) dst[p * n + j] = b[p * bs0 + j * bs1];
}

#endif
