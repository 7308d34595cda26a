/*
 * mv.h - float32/float64 matrix-vector products for mm.c (mv.c).
 */
#ifndef CPU_MV_H
#define CPU_MV_H

#include <stdint.h>

/* y[len] = alpha * M[len, k] @ v[k] + beta * y (beta 0: y unread); strides in elements. */
typedef struct mv_args {
    int64_t len, k;
    const void *m;
    int64_t ms0, ms1; /* between M's rows, along a row */
    const void *v;
    int64_t vs;
    void *y;
    int64_t ys;
    double alpha, beta;
} mv_args;

/* 1 when it computed the product (float32 and float64), 0 for other dtypes. `nested`: already on a
 * piece of a batch, stay on this thread. */
int cpu_mv_run(int32_t dtype, const mv_args *g, int nested);

#endif
