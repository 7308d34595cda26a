/*
 * lines.c - the line driver and the gathering of a view's elements (see lines.h).
 */
#include "lines.h"

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"

#include <string.h>

typedef struct lines_job {
    cpu_layout l;
    int nops;
    char *data[CPU_LINES_MAX_OPS];
    size_t es[CPU_LINES_MAX_OPS];
    int64_t stride[CPU_LINES_MAX_OPS];
    size_t scratch_bytes;
    cpu_line_fn fn;
    void *ctx;
    int out_of_memory; /* set by a piece whose scratch could not be had */
} lines_job;

static void lines_piece(void *vjob, int64_t k0, int64_t k1) {
    lines_job *j = vjob;
    void *scratch = NULL;
    if (j->scratch_bytes && !(scratch = cpu_core->host_alloc(j->scratch_bytes))) {
        __atomic_store_n(&j->out_of_memory, 1, __ATOMIC_RELAXED);
        return;
    }
    char *ptr[CPU_LINES_MAX_OPS];
    for (int64_t k = k0; k < k1; k++) {
        for (int op = 0; op < j->nops; op++) ptr[op] = j->data[op] + (size_t)cpu_layout_offset(&j->l, op, k) * j->es[op];
        j->fn(j->ctx, ptr, j->stride, scratch);
    }
    if (scratch) cpu_core->host_free(scratch, j->scratch_bytes);
}

int cpu_lines_run(const tc_view *views, int nops, int dim, size_t scratch_bytes, cpu_line_fn fn, void *ctx,
                  const char *name) {
    if (nops < 1 || nops > CPU_LINES_MAX_OPS || dim < 0 || dim >= views[0].ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: bad line operands", name);
    lines_job job = {.l = {.ndim = 0, .nops = nops}, .nops = nops, .scratch_bytes = scratch_bytes, .fn = fn, .ctx = ctx};
    int64_t lines = 1, work = 1;
    for (int op = 0; op < nops; op++) {
        if (views[op].ndim != views[0].ndim)
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: operand %d has %d dims, not %d", name, op,
                                       views[op].ndim, views[0].ndim);
        job.data[op] = views[op].data;
        job.es[op] = cpu_dtype_size(views[op].dtype);
        job.stride[op] = views[op].strides[dim];
    }
    for (int d = 0; d < views[0].ndim; d++) {
        if (d == dim) continue;
        for (int op = 1; op < nops; op++)
            if (views[op].sizes[d] != views[0].sizes[d])
                return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: operand %d does not match along dim %d", name, op, d);
        lines *= views[0].sizes[d];
        if (views[0].sizes[d] == 1) continue;
        int64_t strides[CPU_LINES_MAX_OPS];
        for (int op = 0; op < nops; op++) strides[op] = views[op].strides[d];
        if (cpu_layout_push(&job.l, views[0].sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    if (lines == 0) return TC_OK;
    cpu_layout_sort(&job.l, 0);
    cpu_layout_coalesce(&job.l);
    work = lines * (views[0].sizes[dim] > 1 ? views[0].sizes[dim] : 1);
    cpu_parallel(lines, cpu_threads_for(work), lines_piece, &job);
    if (job.out_of_memory)
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu %s: out of memory for %zu bytes of scratch", name,
                                   scratch_bytes);
    return TC_OK;
}

void cpu_gather(const tc_view *in, int memory_order, void *dst, size_t dst_size, cpu_gather_load load) {
    cpu_layout l = {.ndim = 0, .nops = 1};
    for (int d = 0; d < in->ndim; d++)
        if (in->sizes[d] != 1) cpu_layout_push(&l, in->sizes[d], &in->strides[d]);
    if (memory_order) cpu_layout_sort(&l, 0);
    cpu_layout_coalesce(&l);
    const size_t es = cpu_dtype_size(in->dtype);
    const int64_t n = cpu_layout_numel(&l);
    if (l.ndim == 0) { /* one element */
        if (load) load(dst, in->data);
        else memcpy(dst, in->data, es);
        return;
    }
    /* row by row along the innermost dim: a contiguous row without conversion is one memcpy */
    const int last = l.ndim - 1;
    const int64_t row = l.size[last], s = l.stride[0][last];
    int64_t idx[CPU_MAX_DIMS] = {0}, off = 0;
    for (int64_t k = 0; k < n; k += row) {
        char *d = (char *)dst + (size_t)k * dst_size;
        const char *src = (const char *)in->data + (size_t)off * es;
        if (!load && s == 1) memcpy(d, src, (size_t)row * es);
        else if (!load) for (int64_t j = 0; j < row; j++) memcpy(d + (size_t)j * es, src + (size_t)(j * s) * es, es);
        else for (int64_t j = 0; j < row; j++) load(d + (size_t)j * dst_size, src + (size_t)(j * s) * es);
        /* the next row: an odometer over the outer dims */
        for (int dd = last - 1; dd >= 0; dd--) {
            off += l.stride[0][dd];
            if (++idx[dd] < l.size[dd]) break;
            off -= l.size[dd] * l.stride[0][dd];
            idx[dd] = 0;
        }
    }
}
