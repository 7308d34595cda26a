/*
 * reduce_sum.h - the contiguous block of a sum (float32, float64, int64), written on vector types.
 *
 * It adds the elements into the lanes RED_BLOCK_FN uses (element i of a period into lane i mod V
 * of group i / V), folds the four groups as it does and runs the same final tree. RED_BLOCK_FN
 * keeps its lanes in arrays that GCC vectorises loop by loop; between those loops (the periods, the
 * tail, the fold, the tree) it stored them to the stack and read them back, which cost more than the
 * arithmetic on the short rows of a sum along a dim. Here the lanes are vector variables from start
 * to end, and a row of fewer elements than a period takes them too (from one vector's worth on;
 * the array stamp gives such rows a single accumulator, element by element).
 *
 * The loads are 32 bytes wide at every ISA level that has them: on this project's machine (AMD Zen,
 * which splits a 64-byte operation in two) 32-byte loads streamed a float32 sum from memory at
 * 44-50 GB/s on one thread, 64-byte ones at 28-32 from rows that start 16 bytes past a cache line
 * (numpy's arrays, most slices) and 37-42 when such rows were realigned through aligned loads and a
 * permute, as this project did before. The lanes stay those of the ISA level (RED_VEC_BYTES), so
 * results do not change with the load width.
 *
 * VMAP(v) turns a vector of loaded elements into what they contribute, as MAP does one element:
 * RED_SUM_SELF for sum, RED_SUM_ZERO_NAN for nansum.
 *
 * The tail (fewer elements than a period) is added a vector at a time into the first group, in the
 * order RED_BLOCK_FN adds it element by element; its last partial vector is read as the vector that
 * ends at the row's end, moved down and zero-filled. Adding zero leaves a lane as it is (a lane
 * starts at +0.0 and can never become -0.0), so nothing depends on how the tail is cut.
 */
#ifndef CPU_REDUCE_SUM_H
#define CPU_REDUCE_SUM_H

#if RED_VEC_BYTES >= 32
#define RED_SUM_VEC_BYTES 32
#else
#define RED_SUM_VEC_BYTES RED_VEC_BYTES
#endif

/* The integer lanes as wide as each element type (indices and masks). */
#define RED_SUM_LI_f32 int32_t
#define RED_SUM_LI_f64 int64_t
#define RED_SUM_LI_i64 int64_t

#define RED_SUM_SELF(v)
#define RED_SUM_ZERO_NAN(v)                                                                        \
    {                                                                                              \
        ivec bits_;                                                                                \
        memcpy(&bits_, &v, sizeof(vec));                                                           \
        bits_ &= (ivec)(v == v);                                                                   \
        memcpy(&v, &bits_, sizeof(vec));                                                           \
    }

/* Vector g of the first group gets v, for a g known only at run time (GCC keeps l0 in registers
 * only when every index is a constant). */
#define RED_SUM_ADD_TO(g, v)                                                                       \
    _Pragma("GCC unroll 16") for (int q = 0; q < GV; q++) if (q == (g)) l0[q] += (v);

/* W: lanes per vector; V: lanes per group; NV: vectors per period; GV: vectors per group. */
#define RED_SUM_BLOCK_FN(NAME, S, A, L, VMAP)                                                          \
    enum { NAME##_min = RED_SUM_VEC_BYTES / sizeof(L) }; /* the shortest block it takes */         \
    static A NAME(const CPU_T_##S *p, int64_t n, int64_t s, const red_call *cx, double c) {        \
        (void)cx;                                                                                  \
        (void)c;                                                                                   \
        (void)s;                                                                                   \
        typedef L vec __attribute__((vector_size(RED_SUM_VEC_BYTES)));                             \
        typedef CPU_CAT(RED_SUM_LI_, S) ivec __attribute__((vector_size(RED_SUM_VEC_BYTES)));      \
        enum { W = NAME##_min, V = RED_GROUP_LANES(L), PERIOD = RED_GROUPS * V, NV = PERIOD / W, GV = V / W }; \
        vec acc[NV];                                                                               \
        _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) acc[k] = (vec){0};                   \
        int64_t i = 0;                                                                             \
        for (; i + PERIOD <= n; i += PERIOD)                                                       \
            _Pragma("GCC unroll 16") for (int k = 0; k < NV; k++) {                                \
                vec v;                                                                             \
                memcpy(&v, p + i + k * W, sizeof(vec));                                            \
                VMAP(v)                                                                            \
                acc[k] += v;                                                                       \
            }                                                                                      \
        vec l0[GV];                                                                                \
        _Pragma("GCC unroll 16") for (int k = 0; k < GV; k++)                                      \
            l0[k] = (acc[k] + acc[GV + k]) + (acc[2 * GV + k] + acc[3 * GV + k]);                  \
        if (i < n) { /* the caller gives at least W elements */                                    \
            const int64_t rem = n - i;                                                             \
            _Pragma("GCC unroll 16") for (int k = 0; k < NV - 1; k++) if ((k + 1) * W <= rem) {    \
                vec v;                                                                             \
                memcpy(&v, p + i + k * W, sizeof(vec));                                            \
                VMAP(v)                                                                            \
                l0[k % GV] += v;                                                                   \
            }                                                                                      \
            const int r = (int)(rem % W);                                                          \
            if (r) {                                                                               \
                static const CPU_CAT(RED_SUM_LI_, S) iota_src[8] = {0, 1, 2, 3, 4, 5, 6, 7};       \
                ivec iota;                                                                         \
                memcpy(&iota, iota_src, sizeof(ivec));                                             \
                vec v;                                                                             \
                memcpy(&v, p + n - W, sizeof(vec));                                                \
                VMAP(v)                                                                            \
                v = __builtin_shuffle(v, iota + (W - r));                                          \
                ivec bits;                                                                         \
                memcpy(&bits, &v, sizeof(vec));                                                    \
                bits &= (ivec)(iota < r);                                                          \
                memcpy(&v, &bits, sizeof(vec));                                                    \
                RED_SUM_ADD_TO((int)(rem / W) % GV, v)                                             \
            }                                                                                      \
        }                                                                                          \
        /* the tree: lane j takes lane j + w, for w = V/2 down to 1 */                            \
        _Pragma("GCC unroll 16") for (int w = GV / 2; w >= 1; w /= 2)                              \
            _Pragma("GCC unroll 16") for (int k = 0; k < w; k++) l0[k] += l0[k + w];              \
        L t[W]; /* within the last vector the same steps, on an array GCC keeps in a register */  \
        memcpy(t, &l0[0], sizeof(vec));                                                            \
        RED_SUM_HALVE(8) RED_SUM_HALVE(4) RED_SUM_HALVE(2) RED_SUM_HALVE(1)                        \
        return (A)t[0];                                                                            \
    }

#define RED_SUM_HALVE(w)                                                                           \
    if (W >= 2 * (w)) {                                                                            \
        _Pragma("GCC unroll 1") for (int j = 0; j < (w); j++) t[j] += t[j + (w)];                  \
    }

#endif
