/*
 * im2col.c - convolution windows as columns and back (see im2col.h).
 *
 * Both walk the columns row by row; within a row, the output positions of one input line form a run
 * that reads (or writes) the line with the stride, with the positions that fall into the padding on
 * either side: the run's bounds are computed once per line instead of testing every element.
 */
#include "im2col.h"

#include <string.h>

void conv_geom_init(conv_geom *g, int nd, const int64_t *in, const int64_t *out, const int64_t *k,
                    const int64_t *stride, const int64_t *pad, const int64_t *dil) {
    for (int i = 0; i < 3; i++) {
        int j = i - (3 - nd); /* the source dim, or < 0 for a leading dim of 1 */
        g->in[i] = j < 0 ? 1 : in[j];
        g->out[i] = j < 0 ? 1 : out[j];
        g->k[i] = j < 0 ? 1 : k[j];
        g->s[i] = j < 0 ? 1 : stride[j];
        g->p[i] = j < 0 ? 0 : pad[j];
        g->d[i] = j < 0 ? 1 : dil[j];
    }
}

bool conv_geom_is_identity(const conv_geom *g) {
    for (int i = 0; i < 3; i++)
        if (g->k[i] != 1 || g->s[i] != 1 || g->p[i] != 0 || g->in[i] != g->out[i]) return false;
    return true;
}

/* The output positions o in [0, n_out) whose input position o*s - p + off lies in [0, n_in). */
static void valid_run(int64_t n_in, int64_t n_out, int64_t s, int64_t p, int64_t off, int64_t *lo, int64_t *hi) {
    int64_t shift = p - off; /* input = o*s - shift */
    int64_t a = shift > 0 ? (shift + s - 1) / s : 0;
    int64_t b = n_in - 1 + shift >= 0 ? (n_in - 1 + shift) / s + 1 : 0;
    *lo = a < n_out ? a : n_out;
    *hi = b < n_out ? b : n_out;
    if (*hi < *lo) *hi = *lo;
}

/* The copy and zeroing loops below stay loops: the runs are a few dozen elements, and a memcpy or
 * memset call per run (what GCC would turn them into) costs twice the whole copy. */
#define NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))

#define IM2COL_STAMP(S, T)                                                                         \
    NO_LIBCALLS void im2col_##S(const T *restrict x, int64_t channels, const conv_geom *g, T *restrict cols) { \
        const int64_t ID = g->in[0], IH = g->in[1], IW = g->in[2];                                 \
        const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                              \
        const int64_t L = OD * OH * OW, sw = g->s[2];                                              \
        int64_t wlo, whi;                                                                          \
        for (int64_t c = 0; c < channels; c++)                                                     \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                           \
                    for (int64_t kw = 0; kw < g->k[2]; kw++) {                                     \
                        T *restrict dst = cols;                                                    \
                        cols += L;                                                                 \
                        valid_run(IW, OW, sw, g->p[2], kw * g->d[2], &wlo, &whi);                  \
                        const int64_t w0 = wlo * sw - g->p[2] + kw * g->d[2], run = whi - wlo;     \
                        for (int64_t od = 0; od < OD; od++) {                                      \
                            const int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];               \
                            for (int64_t oh = 0; oh < OH; oh++, dst += OW) {                       \
                                const int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];           \
                                if (id < 0 || id >= ID || ih < 0 || ih >= IH) {                    \
                                    for (int64_t ow = 0; ow < OW; ow++) dst[ow] = 0;               \
                                    continue;                                                      \
                                }                                                                  \
                                for (int64_t ow = 0; ow < wlo; ow++) dst[ow] = 0;                  \
                                for (int64_t ow = whi; ow < OW; ow++) dst[ow] = 0;                 \
                                const T *restrict src = x + ((c * ID + id) * IH + ih) * IW + w0;   \
                                T *restrict d = dst + wlo;                                         \
                                if (sw == 1)                                                       \
                                    for (int64_t i = 0; i < run; i++) d[i] = src[i];               \
                                else                                                               \
                                    for (int64_t i = 0; i < run; i++) d[i] = src[i * sw];          \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
    }                                                                                              \
    NO_LIBCALLS void col2im_##S(const T *restrict cols, int64_t channels, const conv_geom *g, T *restrict x) { \
        const int64_t ID = g->in[0], IH = g->in[1], IW = g->in[2];                                 \
        const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                              \
        const int64_t L = OD * OH * OW, sw = g->s[2];                                              \
        int64_t wlo, whi;                                                                          \
        for (int64_t c = 0; c < channels; c++)                                                     \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                           \
                    for (int64_t kw = 0; kw < g->k[2]; kw++) {                                     \
                        const T *restrict src = cols;                                              \
                        cols += L;                                                                 \
                        valid_run(IW, OW, sw, g->p[2], kw * g->d[2], &wlo, &whi);                  \
                        const int64_t w0 = wlo * sw - g->p[2] + kw * g->d[2], run = whi - wlo;     \
                        for (int64_t od = 0; od < OD; od++) {                                      \
                            const int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];               \
                            for (int64_t oh = 0; oh < OH; oh++, src += OW) {                       \
                                const int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];           \
                                if (id < 0 || id >= ID || ih < 0 || ih >= IH) continue;            \
                                T *restrict dst = x + ((c * ID + id) * IH + ih) * IW + w0;         \
                                const T *restrict s = src + wlo;                                   \
                                if (sw == 1)                                                       \
                                    for (int64_t i = 0; i < run; i++) dst[i] += s[i];              \
                                else                                                               \
                                    for (int64_t i = 0; i < run; i++) dst[i * sw] += s[i];         \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
    }

IM2COL_STAMP(f32, float)
IM2COL_STAMP(f64, double)
IM2COL_STAMP(u64, uint64_t)
