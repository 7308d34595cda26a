/*
 * cat.c - cat: each input copied into its slice of the result along ints[0] (the inputs already in
 * the result's dtype; the core drops empty ones).
 *
 * When the result and every input are dense, the result is written in order as one run of bytes
 * (each outer row its inputs' rows in turn; sequential writes stream best), pieces of it split over
 * the pool in one parallel region. Otherwise each input is copied into a view of its slice by the
 * elementwise driver, whose dense runs become memcpy.
 */
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "loops.h"

#include <immintrin.h>
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

#define CAT_CHUNK ((size_t)1 << 16) /* bytes of the result per piece of work */

/* The row pieces of a cat along an inner dim are a few KiB each. There glibc's memcpy picks
 * `rep movsb`, which ran at 44 GB/s on this project's machine (AMD EPYC) for rows of 1024 floats
 * against 73 GB/s for PyTorch's 32-byte vector loop; the loop below matches it (64-byte blocks
 * were slower still: 38 GB/s). Long runs keep memcpy. */
typedef struct {
    char b[32];
} cat_block;

static void copy_piece(char *dst, const char *src, size_t n) {
    if (n < 8 * sizeof(cat_block) || n > CAT_CHUNK) {
        memcpy(dst, src, n);
        return;
    }
    size_t i = 0;
    for (; i + 4 * sizeof(cat_block) <= n; i += 4 * sizeof(cat_block)) {
        cat_block v[4];
        for (int k = 0; k < 4; k++) memcpy(&v[k], src + i + k * sizeof(cat_block), sizeof(cat_block));
        for (int k = 0; k < 4; k++) memcpy(dst + i + k * sizeof(cat_block), &v[k], sizeof(cat_block));
    }
    memcpy(dst + i, src + i, n - i);
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

/* The dense result as one run of bytes: row after row, each row its inputs' rows in turn. Pieces of
 * it (CAT_CHUNK bytes) are split over the pool in one parallel region, each copied in order. */
typedef struct cat_dense_job {
    const tc_kernel_args *args;
    const size_t *in_row; /* bytes per outer row, per input (never 0: the core drops empty inputs) */
    size_t out_row, total;
    int stream; /* write with streaming stores (below) */
} cat_dense_job;

static void cat_dense_range(void *vjob, int64_t chunk_begin, int64_t chunk_end) {
    const cat_dense_job *j = vjob;
    const tc_kernel_args *a = j->args;
    size_t b = (size_t)chunk_begin * CAT_CHUNK, e = (size_t)chunk_end * CAT_CHUNK;
    if (e > j->total) e = j->total;
    size_t row = b / j->out_row, at = b % j->out_row, start = 0; /* start: where input i's bytes begin in a row */
    int32_t i = 0;
    while (at >= start + j->in_row[i]) start += j->in_row[i++];
    while (b < e) {
        const size_t off = at - start, n = j->in_row[i] - off < e - b ? j->in_row[i] - off : e - b;
        char *dst = (char *)a->outputs[0].data + b;
        const char *src = (const char *)a->inputs[i].data + row * j->in_row[i] + off;
        if (j->stream) cpu_stream_bytes(dst, src, n);
        else copy_piece(dst, src, n);
        b += n;
        at += n;
        if (at == start + j->in_row[i]) { /* the next input, or the next row */
            start += j->in_row[i++];
            if (at == j->out_row) {
                row++;
                at = start = 0;
                i = 0;
            }
        }
    }
    if (j->stream) _mm_sfence(); /* before the pool's join */
}

static int cat_dense(const tc_kernel_args *args, int32_t dim, size_t es) {
    const tc_view *out = &args->outputs[0];
    size_t bytes = sizeof(size_t) * (size_t)args->n_inputs;
    size_t *in_row = cpu_core->host_alloc(bytes);
    if (!in_row) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in cat");
    for (int32_t i = 0; i < args->n_inputs; i++) in_row[i] = row_bytes(&args->inputs[i], dim, es);
    cat_dense_job j = {args, in_row, row_bytes(out, dim, es), 0, 0};
    j.total = j.out_row;
    for (int32_t d = 0; d < dim; d++) j.total *= (size_t)out->sizes[d];
    /* Where the inputs and the result together (twice the result) outgrow the caches and one thread
     * copies, the result is written with streaming stores: no read for ownership of its lines, and
     * the inputs keep the cache. Four 1024x1024 float32 inputs (a 16 MiB result, in-process on one
     * Zen 3 thread): 22-28 -> 38-42 GB/s, the reference 25-28. Two threads streaming were capped
     * near 44 GB/s, where ordinary stores reached 48-60 along dim 0 (the reference 51-60) and
     * 33-43 along dim 1 (the reference 34-43): there the caches still serve. */
    const int threads = cpu_threads_for((int64_t)(j.total / es));
    j.stream = threads == 1 && (int64_t)j.total >= CPU_STREAM_MIN_BYTES / 2;
    const int64_t chunks = (int64_t)((j.total + CAT_CHUNK - 1) / CAT_CHUNK);
    cpu_parallel(chunks, threads, cat_dense_range, &j);
    cpu_core->host_free(in_row, bytes);
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
    if (dense && args->n_inputs > 0) return cat_dense(args, dim, es);
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
/* complex64/complex128 move as 8- and 16-byte elements */
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
