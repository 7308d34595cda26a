/*
 * reduce_vector.h - the contiguous block of a reduction whose lanes are as wide as, or wider than,
 * its elements, written on vector types: float32, float64 and int64 sums, float32/float64 products
 * (in double lanes), and float32/float64 max and min of blocks shorter than RED_SHORT_ROW.
 *
 * It combines the elements into the lanes RED_BLOCK_FN uses (element i of a period into lane
 * i mod V of group i / V), folds the four groups as it does and runs the same final tree.
 * RED_BLOCK_FN keeps its lanes in arrays that GCC vectorises loop by loop; between those loops (the
 * periods, the tail, the fold, the tree) it stored them to the stack and read them back, which cost
 * more than the arithmetic on the short rows of a sum along a dim. Here the lanes are vector
 * variables from start to end, and a row of fewer elements than a period takes them too (from one
 * vector's worth on; the array stamp gives such rows a single accumulator, element by element).
 *
 * The loads are 32 bytes wide at every ISA level that has them: on this project's machine (AMD Zen,
 * which splits a 64-byte operation in two) 32-byte loads streamed a float32 sum from memory at
 * 44-50 GB/s on one thread, 64-byte ones at 28-32 from rows that start 16 bytes past a cache line
 * (numpy's arrays, most slices) and 37-42 when such rows were realigned through aligned loads and a
 * permute, as this project did before. Lanes wider than the elements are converted from the load
 * (LOAD: RED_VEC_LOAD_AS_IS or RED_VEC_LOAD_F32_AS_F64). The lanes stay those of the ISA level
 * (RED_VEC_BYTES), so results do not change with the load width.
 *
 * VCOMB is COMB on vectors (RED_VEC_ADD, RED_VEC_MUL, RED_VEC_MAX, RED_VEC_MIN), ID its identity.
 * VMAP(v) turns a vector of loaded elements into what they contribute, as MAP does one element:
 * RED_VEC_SELF, or RED_VEC_ZERO_NAN for nansum.
 *
 * The tail (fewer elements than a period) is combined a vector at a time into the first group, in
 * the order RED_BLOCK_FN combines it element by element; its last partial vector is read as the
 * vector that ends at the row's end, moved down and filled with the identity. Combining with the
 * identity leaves a lane as it is (a sum's lane starts at +0.0 and can never become -0.0), so
 * nothing depends on how the tail is cut.
 */
#ifndef CPU_REDUCE_VECTOR_H
#define CPU_REDUCE_VECTOR_H

#if RED_VEC_BYTES >= 32
#define RED_VEC_LOAD_BYTES 32
#else
#define RED_VEC_LOAD_BYTES RED_VEC_BYTES
#endif
#if RED_VEC_BYTES == 64
#include <immintrin.h>
#endif

#define RED_VEC_ADD(a, v) ((a) + (v))
#define RED_VEC_MUL(a, v) ((a) * (v))
/* Floating max/min as RED_MAX_F/RED_MIN_F: v replaces a where it is beyond it or NaN (a select on
 * the bits, which C's vector extensions lack). */
#define RED_VEC_SELECT(a, v, BEYOND)                                                               \
    ({                                                                                             \
        const vec a_ = (a), v_ = (v);                                                              \
        const ivec take_ = (ivec)(v_ BEYOND a_) | (ivec)(v_ != v_);                                \
        ivec ab_, vb_;                                                                             \
        memcpy(&ab_, &a_, sizeof(vec));                                                            \
        memcpy(&vb_, &v_, sizeof(vec));                                                            \
        ab_ = (vb_ & take_) | (ab_ & ~take_);                                                      \
        vec r_;                                                                                    \
        memcpy(&r_, &ab_, sizeof(vec));                                                            \
        r_;                                                                                        \
    })
#define RED_VEC_MAX(a, v) RED_VEC_SELECT(a, v, >)
#define RED_VEC_MIN(a, v) RED_VEC_SELECT(a, v, <)

#define RED_VEC_SELF(v)
#define RED_VEC_ZERO_NAN(v)                                                                        \
    {                                                                                              \
        ivec bits_;                                                                                \
        memcpy(&bits_, &v, sizeof(vec));                                                           \
        bits_ &= (ivec)(v == v);                                                                   \
        memcpy(&v, &bits_, sizeof(vec));                                                           \
    }

/* v = the W elements at src as lanes. GCC 12 splits a float32 to float64 vector conversion into
 * five instructions (two loads, an extract, two conversions and an insert) where AVX-512 has one,
 * which made the product compute-bound below memory speed. */
#define RED_VEC_LOAD_AS_IS(v, src) memcpy(&v, (src), sizeof(vec));
#if RED_VEC_BYTES == 64
#define RED_VEC_LOAD_F32_AS_F64(v, src)                                                            \
    {                                                                                              \
        const __m512d wide_ = _mm512_cvtps_pd(_mm256_loadu_ps((const float *)(src)));              \
        memcpy(&v, &wide_, sizeof(vec));                                                           \
    }
#else
#define RED_VEC_LOAD_F32_AS_F64(v, src)                                                            \
    {                                                                                              \
        typedef float narrow_ __attribute__((vector_size(W * sizeof(float))));                     \
        narrow_ raw_;                                                                              \
        memcpy(&raw_, (src), sizeof(raw_));                                                        \
        v = __builtin_convertvector(raw_, vec);                                                    \
    }
#endif

/* Vector g of the first group takes v, for a g known only at run time (GCC keeps l0 in registers
 * only when every index is a constant). */
#define RED_VEC_COMBINE_INTO(g, v, VCOMB)                                                          \
    _Pragma("GCC unroll 16") for (int q = 0; q < GV; q++) if (q == (g)) l0[q] = VCOMB(l0[q], v);

/* L: the lanes' type, LI: the integer type as wide (masks and shuffle indices). W: elements per
 * load (and lanes per vector); V: lanes per group; NV: vectors per period; GV: vectors per group. */
#define RED_VECTOR_BLOCK_FN(NAME, S, A, L, LI, ID, COMB, VCOMB, VMAP, LOAD)                        \
    enum { NAME##_min = RED_VEC_LOAD_BYTES / sizeof(CPU_T_##S) }; /* the shortest block it takes */ \
    static A NAME(const CPU_T_##S *p, int64_t n, int64_t s, const red_call *cx, double c) {        \
        (void)cx;                                                                                  \
        (void)c;                                                                                   \
        (void)s;                                                                                   \
        enum { W = NAME##_min, V = RED_GROUP_LANES(L), PERIOD = RED_GROUPS * V, NV = PERIOD / W, GV = V / W }; \
        typedef L vec __attribute__((vector_size(W * sizeof(L))));                                 \
        typedef LI ivec __attribute__((vector_size(W * sizeof(L))));                               \
        _Static_assert(V % W == 0 && W <= 8, "a group is whole vectors; the tail's indices go to 8"); \
        vec acc[NV];                                                                               \
        _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) acc[k] = (vec){0} + (L)(ID);         \
        int64_t i = 0;                                                                             \
        for (; i + PERIOD <= n; i += PERIOD)                                                       \
            _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) {                                \
                vec v;                                                                             \
                LOAD(v, p + i + k * W)                                                             \
                VMAP(v)                                                                            \
                acc[k] = VCOMB(acc[k], v);                                                         \
            }                                                                                      \
        vec l0[GV];                                                                                \
        _Pragma("GCC unroll 16") for (int k = 0; k < GV; k++)                                      \
            l0[k] = VCOMB(VCOMB(acc[k], acc[GV + k]), VCOMB(acc[2 * GV + k], acc[3 * GV + k]));    \
        if (i < n) { /* the caller gives at least W elements */                                    \
            const int64_t rem = n - i;                                                             \
            _Pragma("GCC unroll 16") for (int k = 0; k < NV - 1; k++) if ((k + 1) * W <= rem) {    \
                vec v;                                                                             \
                LOAD(v, p + i + k * W)                                                             \
                VMAP(v)                                                                            \
                l0[k % GV] = VCOMB(l0[k % GV], v);                                                 \
            }                                                                                      \
            const int r = (int)(rem % W);                                                          \
            if (r) {                                                                               \
                static const LI iota_src[8] = {0, 1, 2, 3, 4, 5, 6, 7};                            \
                ivec iota, bits, id_bits;                                                          \
                memcpy(&iota, iota_src, sizeof(ivec));                                             \
                vec v, id = (vec){0} + (L)(ID);                                                    \
                LOAD(v, p + n - W)                                                                 \
                VMAP(v)                                                                            \
                v = __builtin_shuffle(v, iota + (W - r));                                          \
                const ivec keep = (ivec)(iota < r);                                                \
                memcpy(&bits, &v, sizeof(vec));                                                    \
                memcpy(&id_bits, &id, sizeof(vec));                                                \
                bits = (bits & keep) | (id_bits & ~keep);                                          \
                memcpy(&v, &bits, sizeof(vec));                                                    \
                RED_VEC_COMBINE_INTO((int)(rem / W) % GV, v, VCOMB)                                \
            }                                                                                      \
        }                                                                                          \
        /* the tree: lane j takes lane j + w, for w = V/2 down to 1 */                             \
        _Pragma("GCC unroll 16") for (int w = GV / 2; w >= 1; w /= 2)                              \
            _Pragma("GCC unroll 16") for (int k = 0; k < w; k++) l0[k] = VCOMB(l0[k], l0[k + w]);  \
        L t[W]; /* within the last vector the same steps, on an array GCC keeps in a register */   \
        memcpy(t, &l0[0], sizeof(vec));                                                            \
        RED_VEC_HALVE(8, COMB) RED_VEC_HALVE(4, COMB) RED_VEC_HALVE(2, COMB) RED_VEC_HALVE(1, COMB) \
        return (A)t[0];                                                                            \
    }

#define RED_VEC_HALVE(w, COMB)                                                                     \
    if (W >= 2 * (w)) {                                                                            \
        _Pragma("GCC unroll 1") for (int j = 0; j < (w); j++) t[j] = COMB(t[j], t[j + (w)]);       \
    }

#endif
