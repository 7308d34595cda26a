/*
 * reduce_vector.h - the contiguous block of a reduction whose lanes are as wide as, or wider than,
 * its elements, written on vector types: float32, float64 and int64 sums, float32/float64 products
 * (in double lanes), float32/float64 max and min.
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
#include <immintrin.h>

#define RED_VEC_ADD(a, v) ((a) + (v))
#define RED_VEC_MUL(a, v) ((a) * (v))
/* Floating max/min as RED_MAX_F/RED_MIN_F: v where it is NaN, else v where it is beyond a, else a
 * (ties and a NaN keep a). The instruction's own max (min) keeps its second operand on ties and
 * NaNs, so max(v, a) and a blend of v's NaNs give exactly that: three instructions, two of them on
 * a's chain (a select on the bits took five, and ran at two thirds of the reference's speed along
 * rows of float64). */
#if RED_VEC_BYTES == 64 /* the blend through a mask register: VEX's blendv reaches half the registers */
#define RED_VEC_EXTREME_FN(NAME, T, OP, SUFFIX)                                                    \
    static inline T NAME(T a, T v) {                                                               \
        return _mm256_mask_mov_##SUFFIX(_mm256_##OP##_##SUFFIX(v, a), _mm256_cmp_##SUFFIX##_mask(v, v, _CMP_UNORD_Q), v); \
    }
#define RED_VEC_F32 __m256
#define RED_VEC_F64 __m256d
#elif RED_VEC_LOAD_BYTES == 32
#define RED_VEC_EXTREME_FN(NAME, T, OP, SUFFIX)                                                \
    static inline T NAME(T a, T v) {                                                               \
        return _mm256_blendv_##SUFFIX(_mm256_##OP##_##SUFFIX(v, a), v, _mm256_cmp_##SUFFIX(v, v, _CMP_UNORD_Q)); \
    }
#define RED_VEC_F32 __m256
#define RED_VEC_F64 __m256d
#else
#define RED_VEC_EXTREME_FN(NAME, T, OP, SUFFIX)                                                \
    static inline T NAME(T a, T v) {                                                               \
        return _mm_blendv_##SUFFIX(_mm_##OP##_##SUFFIX(v, a), v, _mm_cmpunord_##SUFFIX(v, v));       \
    }
#define RED_VEC_F32 __m128
#define RED_VEC_F64 __m128d
#endif
RED_VEC_EXTREME_FN(red_vec_max_f32, RED_VEC_F32, max, ps)
RED_VEC_EXTREME_FN(red_vec_max_f64, RED_VEC_F64, max, pd)
RED_VEC_EXTREME_FN(red_vec_min_f32, RED_VEC_F32, min, ps)
RED_VEC_EXTREME_FN(red_vec_min_f64, RED_VEC_F64, min, pd)
/* vec is C's vector type of the block (float or double lanes, as wide as the intrinsics' type) */
#define RED_VEC_EXTREME(a, v, OP)                                                                  \
    ({                                                                                             \
        vec a_ = (a), v_ = (v);                                                                    \
        _Generic(a_[0], float: RED_VEC_VIA(red_vec_##OP##_f32, RED_VEC_F32),                       \
                 double: RED_VEC_VIA(red_vec_##OP##_f64, RED_VEC_F64));                            \
    })
#define RED_VEC_VIA(FN, T)                                                                         \
    ({                                                                                             \
        T x_, y_;                                                                                  \
        memcpy(&x_, &a_, sizeof(x_));                                                              \
        memcpy(&y_, &v_, sizeof(y_));                                                              \
        x_ = FN(x_, y_);                                                                           \
        memcpy(&a_, &x_, sizeof(x_));                                                              \
        a_;                                                                                        \
    })
#define RED_VEC_MAX(a, v) RED_VEC_EXTREME(a, v, max)
#define RED_VEC_MIN(a, v) RED_VEC_EXTREME(a, v, min)
/* Whether combining the identity with v gives v bit for bit, so that a lane's first vector can
 * be taken as it is (a short row's lanes start from their first loads; a select on max's chain
 * costs more than the load). Not for sums: +0.0 + -0.0 is +0.0, which keeps a sum's lanes and
 * results from ever being -0.0, as PyTorch's. */
#define RED_VEC_ADD_TAKES_FIRST 0
#define RED_VEC_MUL_TAKES_FIRST 1
#define RED_VEC_MAX_TAKES_FIRST 1
#define RED_VEC_MIN_TAKES_FIRST 1

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
 * which made the product compute-bound below memory speed. Below AVX-512 a load of float32 elements
 * converted to double lanes is half a load (W above): lanes wider than a register made GCC pass
 * them through the stack, and the AVX2 product ran at 7 GB/s, a third of the reference's speed. */
#define RED_VEC_LOAD_AS_IS(v, src) memcpy(&v, (src), sizeof(vec));
#if RED_VEC_BYTES == 64
#define RED_VEC_LOAD_F32_AS_F64(v, src)                                                            \
    {                                                                                              \
        const __m512d wide_ = _mm512_cvtps_pd(_mm256_loadu_ps((const float *)(src)));              \
        memcpy(&v, &wide_, sizeof(vec));                                                           \
    }
#elif RED_VEC_BYTES == 32 /* GCC 12 turned __builtin_convertvector into two half conversions here too */
#define RED_VEC_LOAD_F32_AS_F64(v, src)                                                            \
    {                                                                                              \
        const __m256d wide_ = _mm256_cvtps_pd(_mm_loadu_ps((const float *)(src)));                 \
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

/* Bytes ahead of its loads that the period loop asks the cache for, once per line. The hardware's
 * prefetchers alone kept too little in flight for the longer loops: on one thread a float64 max
 * along rows of 256 ran at 11 GB/s in some builds and 33 in others (the same loop at another
 * address), float32 max and prod of 16M elements at 29 against the reference's 41-46. Ahead by
 * 2, 4 and 8 KiB they ran at 36-40, 42-47 and 46-50 (alternating runs; sums gained 2-10% too). */
#define RED_VEC_PREFETCH_AHEAD 8192
/* Whether a loop combining with VCOMB prefetches: always where the lanes are 64 bytes wide (AVX-512:
 * Zen 4 and 5, Intel's cores from Skylake-SP on); below that not for sums. On Zen 3 (the AVX2
 * variant) the prefetches slowed a float32 sum streamed from memory on one thread from 20.5 to 18.7
 * GB/s, while max (18.0 -> 19.5) and the product in double lanes (17 -> 19) gained from them (C
 * loops of eight accumulators, alternating runs). */
#if RED_VEC_BYTES == 64
#define RED_VEC_ADD_PREFETCHES 1
#else
#define RED_VEC_ADD_PREFETCHES 0
#endif
#define RED_VEC_MUL_PREFETCHES 1
#define RED_VEC_MAX_PREFETCHES 1
#define RED_VEC_MIN_PREFETCHES 1

/* Vector g of the first group takes v, for a g known only at run time (GCC keeps l0 in registers
 * only when every index is a constant). */
#define RED_VEC_COMBINE_INTO(g, v, VCOMB)                                                          \
    _Pragma("GCC unroll 16") for (int q = 0; q < GV; q++) if (q == (g)) l0[q] = VCOMB(l0[q], v);

/* One period of loads from p combined into acc[NV] (in NAME##_to_vec's scope: W, NV, vec). */
#define RED_VEC_PERIOD(acc, p, S, VCOMB, VMAP, LOAD, PREFETCHES)                                   \
    _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) {                                        \
        if (PREFETCHES && k * W * sizeof(CPU_T_##S) % 64 == 0) /* once a line */            \
            __builtin_prefetch((const char *)((p) + k * W) + RED_VEC_PREFETCH_AHEAD);              \
        vec v;                                                                                     \
        LOAD(v, (p) + k * W)                                                                       \
        VMAP(v)                                                                                    \
        acc[k] = VCOMB(acc[k], v);                                                                 \
    }
/* The four groups' vectors folded into the first (l0[GV]). */
#define RED_VEC_FOLD_GROUPS(l0, acc, VCOMB)                                                        \
    _Pragma("GCC unroll 16") for (int k = 0; k < GV; k++)                                          \
        l0[k] = VCOMB(VCOMB(acc[k], acc[GV + k]), VCOMB(acc[2 * GV + k], acc[3 * GV + k]));
/* the tree: lane j takes lane j + w, for w = V/2 down to W */
#define RED_VEC_TREE(l0, VCOMB)                                                                    \
    _Pragma("GCC unroll 16") for (int w = GV / 2; w >= 1; w /= 2)                                  \
        _Pragma("GCC unroll 16") for (int k = 0; k < w; k++) l0[k] = VCOMB(l0[k], l0[k + w]);

/* L: the lanes' type, LI: the integer type as wide (masks and shuffle indices). W: elements per
 * load (and lanes per vector); V: lanes per group; NV: vectors per period; GV: vectors per group.
 * NAME##_to_vec reduces a block to its last vector of W lanes, NAME finishes it with the tree's
 * last steps on one row, NAME##_batch on W rows at once (below). */
#define RED_VECTOR_BLOCK_FN(NAME, S, A, L, LI, ID, COMB, VCOMB, VMAP, LOAD)                        \
    /* the shortest block it takes: a load's elements, no more than a register of lanes */       \
    enum { NAME##_min = RED_VEC_LOAD_BYTES / sizeof(CPU_T_##S) < RED_VEC_BYTES / sizeof(L)          \
                            ? RED_VEC_LOAD_BYTES / sizeof(CPU_T_##S) : RED_VEC_BYTES / sizeof(L) };  \
    typedef L NAME##_vec __attribute__((vector_size(NAME##_min * sizeof(L))));                     \
    typedef LI NAME##_ivec __attribute__((vector_size(NAME##_min * sizeof(L))));                   \
    /* inlined (GCC would call it once a row), its vector out through a pointer (returned, one   \
     * wider than the ISA level's registers changes the ABI) */                                    \
    static inline __attribute__((always_inline)) void NAME##_to_vec(NAME##_vec *last, const CPU_T_##S *p, int64_t n) { \
        enum { W = NAME##_min, V = RED_GROUP_LANES(L), PERIOD = RED_GROUPS * V, NV = PERIOD / W, GV = V / W }; \
        typedef NAME##_vec vec;                                                                    \
        typedef NAME##_ivec ivec;                                                                  \
        _Static_assert(V % W == 0 && W <= 8, "a group is whole vectors; the tail's indices go to 8"); \
        const vec id = (vec){0} + (L)(ID);                                                         \
        vec l0[GV];                                                                                \
        int64_t i = 0;                                                                             \
        if (n < PERIOD) { /* the groups would fold identities only: a short row starts here */     \
            _Pragma("GCC unroll 16") for (int k = 0; k < GV; k++) l0[k] = id;                      \
        } else {                                                                                   \
            vec acc[NV];                                                                           \
            if (VCOMB##_TAKES_FIRST && n < 2 * PERIOD) { /* one period: the lanes are its loads */ \
                _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) {                            \
                    LOAD(acc[k], p + k * W)                                                        \
                    VMAP(acc[k])                                                                   \
                }                                                                                  \
                i = PERIOD;                                                                        \
            } else {                                                                               \
                _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) acc[k] = id;                 \
                for (; i + PERIOD <= n; i += PERIOD) RED_VEC_PERIOD(acc, p + i, S, VCOMB, VMAP, LOAD, VCOMB##_PREFETCHES) \
            }                                                                                      \
            RED_VEC_FOLD_GROUPS(l0, acc, VCOMB)                                                    \
        }                                                                                          \
        if (i < n) { /* the caller gives at least W elements */                                    \
            const int64_t rem = n - i;                                                             \
            _Pragma("GCC unroll 16") for (int k = 0; k < NV - 1; k++) if ((k + 1) * W <= rem) {    \
                vec v;                                                                             \
                LOAD(v, p + i + k * W)                                                             \
                VMAP(v)                                                                            \
                l0[k % GV] = VCOMB##_TAKES_FIRST && n < PERIOD && k < GV ? v : VCOMB(l0[k % GV], v); \
            }                                                                                      \
            const int r = (int)(rem % W);                                                          \
            if (r) {                                                                               \
                static const LI iota_src[8] = {0, 1, 2, 3, 4, 5, 6, 7};                            \
                ivec iota, bits, id_bits;                                                          \
                memcpy(&iota, iota_src, sizeof(ivec));                                             \
                vec v;                                                                             \
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
        RED_VEC_TREE(l0, VCOMB)                                                                    \
        *last = l0[0];                                                                             \
    }                                                                                              \
    /* NAME##_to_vec of two whole blocks (RED_BLOCK elements each, so no tail) at once: their     \
     * loads alternate period by period, two streams for the memory system (RED_STREAM_GAP). With \
     * two streams the prefetches only slowed every op down on Zen 3 (float32 max 18.1 -> 15.3 GB/s, \
     * prod 18 -> 17 on one thread), so there are none. */                                        \
    static inline __attribute__((always_inline)) void NAME##_pair_to_vec(NAME##_vec last[2], const CPU_T_##S *p, \
                                                                         const CPU_T_##S *q) {     \
        enum { W = NAME##_min, V = RED_GROUP_LANES(L), PERIOD = RED_GROUPS * V, NV = PERIOD / W, GV = V / W }; \
        typedef NAME##_vec vec;                                                                    \
        typedef NAME##_ivec ivec __attribute__((unused)); /* VMAP's masks */                       \
        _Static_assert(RED_BLOCK % PERIOD == 0 && RED_BLOCK >= 2 * PERIOD, "whole periods, more than one"); \
        const vec id = (vec){0} + (L)(ID);                                                         \
        vec a[NV], b[NV], l0[GV];                                                                  \
        _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) a[k] = b[k] = id;                    \
        for (int64_t i = 0; i < RED_BLOCK; i += PERIOD) {                                          \
            RED_VEC_PERIOD(a, p + i, S, VCOMB, VMAP, LOAD, 0)                                       \
            RED_VEC_PERIOD(b, q + i, S, VCOMB, VMAP, LOAD, 0)                                       \
        }                                                                                          \
        RED_VEC_FOLD_GROUPS(l0, a, VCOMB)                                                          \
        RED_VEC_TREE(l0, VCOMB)                                                                    \
        last[0] = l0[0];                                                                           \
        RED_VEC_FOLD_GROUPS(l0, b, VCOMB)                                                          \
        RED_VEC_TREE(l0, VCOMB)                                                                    \
        last[1] = l0[0];                                                                           \
    }                                                                                              \
    /* within the last vector the same steps, on an array GCC keeps in a register */              \
    static inline A NAME##_finish(NAME##_vec last) {                                               \
        enum { W = NAME##_min };                                                                   \
        L t[W];                                                                                    \
        memcpy(t, &last, sizeof(last));                                                            \
        RED_VEC_HALVE(8, COMB) RED_VEC_HALVE(4, COMB) RED_VEC_HALVE(2, COMB) RED_VEC_HALVE(1, COMB) \
        return (A)t[0];                                                                            \
    }                                                                                              \
    static A NAME(const CPU_T_##S *p, int64_t n, int64_t s, const red_call *cx, double c) {        \
        (void)cx;                                                                                  \
        (void)c;                                                                                   \
        (void)s;                                                                                   \
        NAME##_vec last;                                                                           \
        NAME##_to_vec(&last, p, n);                                                                \
        return NAME##_finish(last);                                                                \
    }                                                                                              \
    /* NAME of the whole blocks at p and q, into *x and *y */                                      \
    enum { NAME##_pairs = 1 };                                                                     \
    static void NAME##_pair(A *x, A *y, const CPU_T_##S *p, const CPU_T_##S *q, const red_call *cx, double cp, double cq) { \
        (void)cx;                                                                                  \
        (void)cp;                                                                                  \
        (void)cq; /* the vector blocks' ops have no centres */                                    \
        NAME##_vec last[2];                                                                        \
        NAME##_pair_to_vec(last, p, q);                                                            \
        *x = NAME##_finish(last[0]);                                                               \
        *y = NAME##_finish(last[1]);                                                               \
    }                                                                                              \
    RED_VECTOR_BATCH_FN(NAME, S, A, L, LI, VCOMB)

/* out[r] = NAME of the block of n elements at p + r * step (bytes), for the W rows r < W: the last
 * steps of the tree (lane j takes lane j + w for w = W/2 down to 1) run on the W rows' last vectors
 * together, as vector operations on lanes shuffled out of pairs of them, instead of on each row's
 * lanes one by one (on rows of 64 floats, that scalar tail took longer than reading the row). The
 * lanes combine as in NAME, so the results are the same. In the step of width h each vector holds
 * segments of 2h lanes, one per row; a pair of vectors gives the first h lanes of every segment
 * (RED_VEC_HALF_LANE(.., 0)) and the last h (.., 1), and their combination holds twice as many
 * segments, of h lanes, in row order. */
#define RED_VEC_HALF_LANE(o, h, upper) ((o) < W / 2 ? 0 : W) + (o) % (W / 2) / (h) * 2 * (h) + (o) % (h) + (upper) * (h)
#define RED_VEC_HALF_LANES(h, upper)                                                               \
    {RED_VEC_HALF_LANE(0, h, upper), RED_VEC_HALF_LANE(1, h, upper), RED_VEC_HALF_LANE(2, h, upper), \
     RED_VEC_HALF_LANE(3, h, upper), RED_VEC_HALF_LANE(4, h, upper), RED_VEC_HALF_LANE(5, h, upper), \
     RED_VEC_HALF_LANE(6, h, upper), RED_VEC_HALF_LANE(7, h, upper)}
#define RED_VECTOR_BATCH_FN(NAME, S, A, L, LI, VCOMB)                                              \
    static void NAME##_batch(A *out, const char *p, int64_t step, int64_t n) {                     \
        enum { W = NAME##_min };                                                                   \
        typedef NAME##_vec vec;                                                                    \
        typedef NAME##_ivec ivec;                                                                  \
        /* the lanes of step h = 1, 2, 4 */                                                        \
        static const LI halves[3][2][8] = {{RED_VEC_HALF_LANES(1, 0), RED_VEC_HALF_LANES(1, 1)},   \
                                           {RED_VEC_HALF_LANES(2, 0), RED_VEC_HALF_LANES(2, 1)},   \
                                           {RED_VEC_HALF_LANES(4, 0), RED_VEC_HALF_LANES(4, 1)}};  \
        vec z[W];                                                                                  \
        _Pragma("GCC unroll 1") for (int r = 0; r < W; r++)                                        \
            NAME##_to_vec(&z[r], (const CPU_T_##S *)(p + r * step), n);                            \
        _Pragma("GCC unroll 4") for (int h = W / 2; h >= 1; h /= 2)                                \
            _Pragma("GCC unroll 4") for (int q = 0; q < h; q++) { /* W / h vectors into h */        \
                ivec lower, upper;                                                                 \
                memcpy(&lower, halves[(h >= 2) + (h >= 4)][0], sizeof(ivec));                      \
                memcpy(&upper, halves[(h >= 2) + (h >= 4)][1], sizeof(ivec));                      \
                z[q] = VCOMB(__builtin_shuffle(z[2 * q], z[2 * q + 1], lower),                     \
                             __builtin_shuffle(z[2 * q], z[2 * q + 1], upper));                    \
            }                                                                                      \
        L t[W];                                                                                    \
        memcpy(t, &z[0], sizeof(vec));                                                             \
        for (int r = 0; r < W; r++) out[r] = (A)t[r];                                              \
    }                                                                                              \
    /* The rows' driver (reduce.h): out[r] for as many whole batches of the nrows rows as there   \
     * are, when each row is one block; returns how many rows it reduced. */                       \
    static int64_t NAME##_batches(A *out, const char *p, int64_t step, int64_t nrows, int64_t n) {  \
        if (n < NAME##_min || n > RED_BLOCK) return 0;                                          \
        int64_t r = 0;                                                                             \
        for (; r + NAME##_min <= nrows; r += NAME##_min) NAME##_batch(out + r, p + r * step, step, n); \
        return r;                                                                                  \
    }

#define RED_VEC_HALVE(w, COMB)                                                                     \
    if (W >= 2 * (w)) {                                                                            \
        _Pragma("GCC unroll 1") for (int j = 0; j < (w); j++) t[j] = COMB(t[j], t[j + (w)]);       \
    }

#endif
