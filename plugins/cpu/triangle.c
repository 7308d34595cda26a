/*
 * triangle.c - tril/triu (each matrix of the input copied with the elements above, or below, its
 * ints[0]-th diagonal zeroed; in place when the output is the input) and tril_indices/triu_indices
 * (the coordinates of those elements of a ints[0] x ints[1] matrix, ints[2] the diagonal, into a
 * 2 x N result).
 */
#include "cpu.h"
#include "dtype.h"

#include <string.h>

typedef struct triangle_job {
    const tc_view *in, *out;
    int64_t diagonal, rows, cols;
    int lower;
    size_t es;
} triangle_job;

/* Matrix rows [begin, end) of all batches: the columns kept are copied, the others zeroed. */
static void triangle_rows(void *vjob, int64_t begin, int64_t end) {
    const triangle_job *j = vjob;
    const tc_view *in = j->in, *out = j->out;
    const int32_t nd = in->ndim;
    const ptrdiff_t es = (ptrdiff_t)j->es;
    for (int64_t r = begin; r < end; r++) {
        int64_t row = r % j->rows, batch = r / j->rows;
        int64_t ioff = row * in->strides[nd - 2], ooff = row * out->strides[nd - 2];
        for (int32_t d = nd - 3; d >= 0; d--) {
            int64_t k = batch % in->sizes[d];
            batch /= in->sizes[d];
            ioff += k * in->strides[d];
            ooff += k * out->strides[d];
        }
        /* kept columns: j <= row + diagonal (tril) or j >= row + diagonal (triu) */
        int64_t edge = row + j->diagonal, lo = j->lower ? 0 : edge, hi = j->lower ? edge + 1 : j->cols;
        if (lo < 0) lo = 0;
        if (hi > j->cols) hi = j->cols;
        const char *src = (const char *)in->data + ioff * es;
        char *dst = (char *)out->data + ooff * es;
        const int64_t is = in->strides[nd - 1], os = out->strides[nd - 1];
        for (int64_t c = 0; c < j->cols; c++) {
            char *o = dst + c * os * es;
            if (c >= lo && c < hi) {
                if (o != src + c * is * es) memcpy(o, src + c * is * es, j->es);
            } else {
                memset(o, 0, j->es);
            }
        }
    }
}

static int triangle(const tc_kernel_args *args, int lower) {
    if (cpu_check_args(args, 1, 1, lower ? "tril" : "triu") != TC_OK) return TC_FAIL;
    const tc_view *in = &args->inputs[0], *out = &args->outputs[0];
    if (in->ndim < 2 || out->ndim != in->ndim || args->n_ints < 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu tril/triu: expected matrices and the diagonal");
    int64_t rows = 1;
    for (int32_t d = 0; d < in->ndim - 1; d++) rows *= in->sizes[d];
    triangle_job j = {in, out, args->ints[0], in->sizes[in->ndim - 2], in->sizes[in->ndim - 1], lower,
                      cpu_dtype_size(in->dtype)};
    if (rows == 0 || j.cols == 0) return TC_OK;
    cpu_parallel(rows, cpu_threads_for(rows * j.cols), triangle_rows, &j);
    return TC_OK;
}

static int k_tril(const tc_kernel_args *args) { return triangle(args, 1); }
static int k_triu(const tc_kernel_args *args) { return triangle(args, 0); }

/* The coordinates, row by row, of the kept elements. */
#define INDICES_STAMP(_, S)                                                                        \
    static int indices_##S(const tc_kernel_args *args, int lower) {                                \
        if (cpu_check_args(args, 0, 1, "tril_indices") != TC_OK) return TC_FAIL;                  \
        if (args->n_ints < 3 || args->outputs[0].ndim != 2)                                        \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu tril_indices: expected row, col, offset"); \
        const tc_view *out = &args->outputs[0];                                                    \
        const int64_t rows = args->ints[0], cols = args->ints[1], offset = args->ints[2];          \
        const int64_t n = out->sizes[1], s0 = out->strides[0], s1 = out->strides[1];              \
        CPU_T_##S *o = out->data;                                                                  \
        int64_t k = 0;                                                                             \
        for (int64_t r = 0; r < rows && k < n; r++) {                                              \
            int64_t lo = lower ? 0 : r + offset, hi = lower ? r + offset + 1 : cols;               \
            if (lo < 0) lo = 0;                                                                    \
            if (hi > cols) hi = cols;                                                              \
            for (int64_t c = lo; c < hi && k < n; c++, k++) {                                      \
                o[k * s1] = cpu_from_i64_##S(r);                                                   \
                o[s0 + k * s1] = cpu_from_i64_##S(c);                                              \
            }                                                                                      \
        }                                                                                          \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int k_tril_indices_##S(const tc_kernel_args *args) { return indices_##S(args, 1); }     \
    static int k_triu_indices_##S(const tc_kernel_args *args) { return indices_##S(args, 0); }
INDICES_STAMP(_, i32)
INDICES_STAMP(_, i64)

#define ENTRY(_, S) {"tril", CPU_DT_##S, k_tril}, {"triu", CPU_DT_##S, k_triu},
#define INDICES_ENTRY(_, S)                                                                        \
    {"tril_indices", CPU_DT_##S, k_tril_indices_##S}, {"triu_indices", CPU_DT_##S, k_triu_indices_##S},
/* tril/triu copy and zero elements by their size, complex64/complex128 too */
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(ENTRY, _)
                                               INDICES_ENTRY(_, i32) INDICES_ENTRY(_, i64)};
CPU_KERNEL_TABLE(kernels);
