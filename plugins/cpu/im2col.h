/*
 * im2col.h - the column layout of a convolution window (im2col) and its adjoint (col2im), shared by
 * the convolution kernels and unfold/fold.
 *
 * A convolution reads a "big" tensor [C][in...] through windows and writes a "small" one [..][out...].
 * Its columns are the matrix [C * k...][out...]: row (c, kd, kh, kw) holds, for every output position,
 * the input element that kernel tap sees there (0 in the padding). 1-D and 2-D convolutions are 3-D
 * ones with leading sizes (and kernel sizes) of 1. Compute types: float (f32), double (f64), and
 * uint64_t (u64: integer convolutions wrap around as PyTorch's do).
 */
#ifndef CPU_IM2COL_H
#define CPU_IM2COL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct conv_geom {
    int64_t in[3];  /* spatial sizes of the big side */
    int64_t out[3]; /* spatial sizes of the small side */
    int64_t k[3], s[3], p[3], d[3];
} conv_geom;

/* Sets up g from nd (1..3) spatial dims, padding the leading ones with 1s (padding 0). */
void conv_geom_init(conv_geom *g, int nd, const int64_t *in, const int64_t *out, const int64_t *k,
                    const int64_t *stride, const int64_t *pad, const int64_t *dil);
static inline int64_t conv_geom_in_numel(const conv_geom *g) { return g->in[0] * g->in[1] * g->in[2]; }
static inline int64_t conv_geom_out_numel(const conv_geom *g) { return g->out[0] * g->out[1] * g->out[2]; }
static inline int64_t conv_geom_k_numel(const conv_geom *g) { return g->k[0] * g->k[1] * g->k[2]; }
/* Whether the columns are the input itself (1x1 kernel, stride 1, no padding). */
bool conv_geom_is_identity(const conv_geom *g);

/* cols[C * k][out] from x[C][in] (contiguous). */
void im2col_f32(const float *x, int64_t channels, const conv_geom *g, float *cols);
void im2col_f64(const double *x, int64_t channels, const conv_geom *g, double *cols);
void im2col_u64(const uint64_t *x, int64_t channels, const conv_geom *g, uint64_t *cols);
/* x[C][in] += the columns summed back onto the positions they were read from. */
void col2im_f32(const float *cols, int64_t channels, const conv_geom *g, float *x);
void col2im_f64(const double *cols, int64_t channels, const conv_geom *g, double *x);
void col2im_u64(const uint64_t *cols, int64_t channels, const conv_geom *g, uint64_t *x);

#endif
