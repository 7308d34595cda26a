/*
 * cat.c - cat: each input copied into its slice of the result along ints[0] (the inputs already in
 * the result's dtype; the core drops empty ones).
 *
 * When the result and every input are dense and there are many outer rows, each outer row of the
 * result is its inputs' rows one after another: the rows are written in order (sequential writes
 * stream best) and split over the pool. Otherwise each input is copied into a view of its slice by
 * the elementwise driver, whose dense runs become memcpy.
 */
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "loops.h"

#include <string.h>

/* A dense run is one memcpy (the library's, tuned for long copies); anything else the copy loop. */
static void loop_cat_bytes(int64_t n, char *const *p, const int64_t *s, void *ctx) {
    const size_t es = *(const size_t *)ctx;
    if (s[0] == 1 && s[1] == 1) {
        memcpy(p[0], p[1], (size_t)n * es);
        return;
    }
    cpu_bits_loop(es)(n, p, s, NULL);
}

static int is_dense(const tc_view *v) {
    int64_t expect = 1;
    for (int32_t d = v->ndim - 1; d >= 0; d--) {
        if (v->sizes[d] != 1 && v->strides[d] != expect) return 0;
        expect *= v->sizes[d];
    }
    return 1;
}

/* Bytes of one outer row of v: its dims from `dim` on. */
static size_t row_bytes(const tc_view *v, int32_t dim, size_t es) {
    size_t n = es;
    for (int32_t d = dim; d < v->ndim; d++) n *= (size_t)v->sizes[d];
    return n;
}

typedef struct cat_rows {
    const tc_kernel_args *args;
    const size_t *in_row; /* bytes per outer row, per input */
    size_t out_row;
} cat_rows;

static void cat_dense_rows(void *vjob, int64_t begin, int64_t end) {
    const cat_rows *j = vjob;
    const tc_kernel_args *a = j->args;
    for (int64_t r = begin; r < end; r++) {
        char *o = (char *)a->outputs[0].data + (size_t)r * j->out_row;
        for (int32_t i = 0; i < a->n_inputs; i++) {
            memcpy(o, (const char *)a->inputs[i].data + (size_t)r * j->in_row[i], j->in_row[i]);
            o += j->in_row[i];
        }
    }
}

static int cat_dense(const tc_kernel_args *args, int32_t dim, size_t es) {
    const tc_view *out = &args->outputs[0];
    int64_t outer = 1;
    for (int32_t d = 0; d < dim; d++) outer *= out->sizes[d];
    size_t bytes = sizeof(size_t) * (size_t)args->n_inputs;
    size_t *in_row = cpu_core->host_alloc(bytes ? bytes : 1);
    if (!in_row) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in cat");
    for (int32_t i = 0; i < args->n_inputs; i++) in_row[i] = row_bytes(&args->inputs[i], dim, es);
    cat_rows j = {args, in_row, row_bytes(out, dim, es)};
    const int64_t elems = (int64_t)(j.out_row / es) * outer;
    cpu_parallel(outer, cpu_threads_for(elems), cat_dense_rows, &j);
    cpu_core->host_free(in_row, bytes ? bytes : 1);
    return TC_OK;
}

static int k_cat(const tc_kernel_args *args) {
    if (cpu_check_args(args, 0, 1, "cat") != TC_OK) return TC_FAIL;
    const tc_view *out = &args->outputs[0];
    if (args->n_ints < 1 || args->ints[0] < 0 || args->ints[0] >= out->ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu cat: expected the dim in ints[0]");
    const int32_t dim = (int32_t)args->ints[0];
    size_t es = cpu_dtype_size(out->dtype);
    int64_t at = 0;
    int dense = is_dense(out);
    for (int32_t i = 0; i < args->n_inputs; i++) {
        const tc_view *in = &args->inputs[i];
        if (in->ndim != out->ndim || at + in->sizes[dim] > out->sizes[dim])
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu cat: input %d does not fit the output", i);
        dense = dense && is_dense(in);
        at += in->sizes[dim];
    }
    int64_t outer = 1;
    for (int32_t d = 0; d < dim; d++) outer *= out->sizes[d];
    /* with few outer rows (cat along dim 0), copying input by input splits better over threads */
    if (dense && outer >= 64) return cat_dense(args, dim, es);
    at = 0;
    for (int32_t i = 0; i < args->n_inputs; i++) {
        const tc_view *in = &args->inputs[i];
        tc_view slice = *out;
        slice.sizes = in->sizes;
        slice.data = (char *)out->data + (ptrdiff_t)at * out->strides[dim] * (ptrdiff_t)es;
        const tc_view *views[2] = {&slice, in};
        if (cpu_iterate(views, 2, loop_cat_bytes, &es)) return TC_FAIL;
        at += in->sizes[dim];
    }
    return TC_OK;
}

#define ENTRY(_, S) {"cat", CPU_DT_##S, k_cat},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
