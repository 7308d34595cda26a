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

#define IM2COL_STAMP(S, T)                                                                         \
    void im2col_##S(const T *x, int64_t channels, const conv_geom *g, T *cols) {                    \
        const int64_t ID = g->in[0], IH = g->in[1], IW = g->in[2];                                 \
        const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                              \
        const int64_t L = OD * OH * OW;                                                            \
        int64_t wlo, whi;                                                                          \
        for (int64_t c = 0; c < channels; c++)                                                     \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                           \
                    for (int64_t kw = 0; kw < g->k[2]; kw++) {                                     \
                        T *dst = cols;                                                             \
                        cols += L;                                                                 \
                        valid_run(IW, OW, g->s[2], g->p[2], kw * g->d[2], &wlo, &whi);             \
                        const int64_t w0 = wlo * g->s[2] - g->p[2] + kw * g->d[2];                  \
                        for (int64_t od = 0; od < OD; od++) {                                      \
                            const int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];               \
                            for (int64_t oh = 0; oh < OH; oh++, dst += OW) {                       \
                                const int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];           \
                                if (id < 0 || id >= ID || ih < 0 || ih >= IH) {                    \
                                    memset(dst, 0, sizeof(T) * (size_t)OW);                        \
                                    continue;                                                      \
                                }                                                                  \
                                for (int64_t ow = 0; ow < wlo; ow++) dst[ow] = 0;                  \
                                for (int64_t ow = whi; ow < OW; ow++) dst[ow] = 0;                 \
                                if (whi == wlo) continue;                                          \
                                const T *src = x + ((c * ID + id) * IH + ih) * IW + w0;            \
                                if (g->s[2] == 1)                                                  \
                                    memcpy(dst + wlo, src, sizeof(T) * (size_t)(whi - wlo));       \
                                else                                                               \
                                    for (int64_t ow = wlo; ow < whi; ow++) dst[ow] = src[(ow - wlo) * g->s[2]]; \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
    }                                                                                              \
    void col2im_##S(const T *cols, int64_t channels, const conv_geom *g, T *x) {                    \
        const int64_t ID = g->in[0], IH = g->in[1], IW = g->in[2];                                 \
        const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                              \
        const int64_t L = OD * OH * OW;                                                            \
        int64_t wlo, whi;                                                                          \
        for (int64_t c = 0; c < channels; c++)                                                     \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                           \
                    for (int64_t kw = 0; kw < g->k[2]; kw++) {                                     \
                        const T *src = cols;                                                       \
                        cols += L;                                                                 \
                        valid_run(IW, OW, g->s[2], g->p[2], kw * g->d[2], &wlo, &whi);             \
                        const int64_t w0 = wlo * g->s[2] - g->p[2] + kw * g->d[2];                  \
                        for (int64_t od = 0; od < OD; od++) {                                      \
                            const int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];               \
                            for (int64_t oh = 0; oh < OH; oh++, src += OW) {                       \
                                const int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];           \
                                if (id < 0 || id >= ID || ih < 0 || ih >= IH || whi == wlo) continue; \
                                T *dst = x + ((c * ID + id) * IH + ih) * IW + w0;                  \
                                if (g->s[2] == 1)                                                  \
                                    for (int64_t ow = wlo; ow < whi; ow++) dst[ow - wlo] += src[ow]; \
                                else                                                               \
                                    for (int64_t ow = wlo; ow < whi; ow++) dst[(ow - wlo) * g->s[2]] += src[ow]; \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
    }

IM2COL_STAMP(f32, float)
IM2COL_STAMP(f64, double)
IM2COL_STAMP(u64, uint64_t)
