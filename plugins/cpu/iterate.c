/*
 * iterate.c - layouts and the elementwise driver (see iterate.h).
 */
#include "iterate.h"

#include <stdbool.h>

#include "cpu.h"
#include "dtype.h"

int cpu_layout_push(cpu_layout *l, int64_t size, const int64_t *strides) {
    if (l->ndim >= CPU_MAX_DIMS)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu kernels: more than %d dimensions of size > 1",
                                   CPU_MAX_DIMS);
    l->size[l->ndim] = size;
    for (int op = 0; op < l->nops; op++) l->stride[op][l->ndim] = strides[op];
    l->ndim++;
    return TC_OK;
}

static void swap_dims(cpu_layout *l, int a, int b) {
    int64_t t = l->size[a];
    l->size[a] = l->size[b];
    l->size[b] = t;
    for (int op = 0; op < l->nops; op++) {
        t = l->stride[op][a];
        l->stride[op][a] = l->stride[op][b];
        l->stride[op][b] = t;
    }
}

void cpu_layout_sort(cpu_layout *l, int key) {
    for (int i = 1; i < l->ndim; i++)
        for (int j = i; j > 0 && l->stride[key][j - 1] < l->stride[key][j]; j--) swap_dims(l, j - 1, j);
}

void cpu_layout_coalesce(cpu_layout *l) {
    if (l->ndim == 0) return;
    int out = 0; /* dims [0, out] are final; dim `out` is the one a later dim may merge into */
    for (int d = 1; d < l->ndim; d++) {
        int mergeable = 1;
        for (int op = 0; op < l->nops; op++)
            if (l->stride[op][out] != l->stride[op][d] * l->size[d]) mergeable = 0;
        if (mergeable) {
            l->size[out] *= l->size[d];
            for (int op = 0; op < l->nops; op++) l->stride[op][out] = l->stride[op][d];
        } else {
            out++;
            l->size[out] = l->size[d];
            for (int op = 0; op < l->nops; op++) l->stride[op][out] = l->stride[op][d];
        }
    }
    l->ndim = out + 1;
}

int64_t cpu_layout_numel(const cpu_layout *l) {
    int64_t n = 1;
    for (int d = 0; d < l->ndim; d++) n *= l->size[d];
    return n;
}

int64_t cpu_layout_offset(const cpu_layout *l, int op, int64_t index) {
    int64_t off = 0;
    for (int d = l->ndim - 1; d >= 0 && index != 0; d--) {
        off += (index % l->size[d]) * l->stride[op][d];
        index /= l->size[d];
    }
    return off;
}

/* Offsets are kept as integers and turned into pointers only for the call, so no pointer ever
 * steps outside its tensor. */
void cpu_layout_run(const cpu_layout *l, char *const *data, const size_t *elsize, int64_t begin,
                      int64_t end, cpu_loop_fn loop, void *ctx) {
    const int last = l->ndim - 1;
    int64_t idx[CPU_MAX_DIMS], off[CPU_MAX_OPS], inner[CPU_MAX_OPS];
    char *ptr[CPU_MAX_OPS];
    int64_t rem = begin;
    for (int d = last; d >= 0; d--) {
        idx[d] = rem % l->size[d];
        rem /= l->size[d];
    }
    for (int op = 0; op < l->nops; op++) {
        off[op] = 0;
        for (int d = 0; d <= last; d++) off[op] += idx[d] * l->stride[op][d];
        inner[op] = l->stride[op][last];
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t n = l->size[last] - idx[last];
        if (n > end - pos) n = end - pos;
        for (int op = 0; op < l->nops; op++) ptr[op] = data[op] + (ptrdiff_t)off[op] * (ptrdiff_t)elsize[op];
        loop(n, ptr, inner, ctx);
        pos += n;
        if (pos >= end) break;
        /* The row is finished: back to its start, then carry into the outer dimensions. */
        for (int op = 0; op < l->nops; op++) off[op] -= idx[last] * inner[op];
        idx[last] = 0;
        for (int d = last - 1; d >= 0; d--) {
            idx[d]++;
            for (int op = 0; op < l->nops; op++) off[op] += l->stride[op][d];
            if (idx[d] < l->size[d]) break;
            for (int op = 0; op < l->nops; op++) off[op] -= l->size[d] * l->stride[op][d];
            idx[d] = 0;
        }
    }
}

typedef struct iterate_job {
    const cpu_layout *l;
    char *const *data;
    const size_t *elsize;
    int64_t numel;
    cpu_loop_fn loop;
    void *ctx;
} iterate_job;

static void iterate_blocks(void *vjob, int64_t b0, int64_t b1) {
    const iterate_job *j = vjob;
    const int64_t begin = b0 * 64, end = b1 * 64 < j->numel ? b1 * 64 : j->numel;
    if (begin < end) cpu_layout_run(j->l, j->data, j->elsize, begin, end, j->loop, j->ctx);
}

static int iterate(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx, bool serial) {
    const tc_view *out = views[0];
    cpu_layout l = {.ndim = 0, .nops = nops};
    char *data[CPU_MAX_OPS];
    size_t elsize[CPU_MAX_OPS];
    for (int op = 0; op < nops; op++) {
        if (views[op]->ndim != out->ndim)
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu kernels: operand %d has %d dims, the output %d", op,
                                       views[op]->ndim, out->ndim);
        data[op] = views[op]->data;
        elsize[op] = cpu_dtype_size(views[op]->dtype);
    }
    for (int d = 0; d < out->ndim; d++)
        if (out->sizes[d] == 0) return TC_OK;
    for (int d = 0; d < out->ndim; d++) {
        if (out->sizes[d] == 1) continue;
        int64_t strides[CPU_MAX_OPS];
        for (int op = 0; op < nops; op++) strides[op] = views[op]->strides[d];
        if (cpu_layout_push(&l, out->sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    if (l.ndim == 0) { /* a single element: a contiguous row of one */
        int64_t ones[CPU_MAX_OPS] = {1, 1, 1, 1};
        cpu_layout_push(&l, 1, ones);
    }
    cpu_layout_sort(&l, 0);
    cpu_layout_coalesce(&l);

    const int64_t numel = cpu_layout_numel(&l);
    const int nt = serial ? 1 : cpu_threads_for(numel);
    if (nt <= 1) {
        cpu_layout_run(&l, data, elsize, 0, numel, loop, ctx);
        return TC_OK;
    }
    /* Pieces are whole blocks of 64 elements, so neighbouring threads rarely write one cache line. */
    iterate_job job = {&l, data, elsize, numel, loop, ctx};
    cpu_parallel((numel + 63) / 64, nt, iterate_blocks, &job);
    return TC_OK;
}

int cpu_iterate(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx) {
    return iterate(views, nops, loop, ctx, false);
}

int cpu_iterate_serial(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx) {
    return iterate(views, nops, loop, ctx, true);
}
