/*
 * random_rows.c - the order random kernels visit elements in, and the generator they draw from (see
 * random.h).
 *
 * PyTorch's random kernels run cpu_serial_kernel over a TensorIterator, so an element's value depends
 * on its place in the iterator's order. That order sorts the dimensions by stride with an insertion
 * sort whose comparison may be ambiguous (a zero stride) and then does not swap but keeps comparing
 * further down: reproduced here step for step, size-1 dimensions included, because they take part
 * in the comparisons.
 */
#include <string.h>

#include "iterate.h"
#include "random.h"

tc_generator *cpu_random_generator(const tc_kernel_args *args) {
    if (args->n_ints > 0) {
        const int64_t i = args->ints[0];
        if (i >= 0 && i < args->n_args && args->args[i].tag == TC_VALUE_GENERATOR && args->args[i].v.generator)
            return args->args[i].v.generator;
    }
    tc_generator *g = cpu_core->generator_default(TC_DEVICE_CPU);
    if (!g) cpu_core->set_error(TC_ERR_RUNTIME, "the core has no default CPU generator");
    return g;
}

double cpu_uniform_f64(tc_generator *g) {
    uint64_t bits;
    cpu_draw_u64(g, &bits, 1);
    return cpu_unit_f64(bits);
}

float cpu_uniform_f32(tc_generator *g) {
    uint32_t bits;
    cpu_draw_u32(g, &bits, 1);
    return cpu_unit_f32(bits, 24);
}

int cpu_random_is_contiguous(const tc_view *v) {
    int64_t expected = 1;
    for (int d = v->ndim - 1; d >= 0; d--) {
        if (v->sizes[d] == 0) return 1;
        if (v->sizes[d] != 1 && v->strides[d] != expected) return 0;
        expected *= v->sizes[d];
    }
    return 1;
}

/* TensorIterator::reorder_dimensions' comparison: 1 when dimension a should be visited outside b,
 * -1 when inside, 0 when no operand can tell. */
static int should_swap(const tc_view *const *views, int nops, int a, int b) {
    for (int op = 0; op < nops; op++) {
        const int64_t sa = views[op]->strides[a], sb = views[op]->strides[b];
        if (sa == 0 || sb == 0) continue;
        if (sa < sb) return -1;
        if (sa > sb) return 1;
        if (views[0]->sizes[a] > views[0]->sizes[b]) return 1;
    }
    return 0;
}

int cpu_random_rows(const tc_view *const *views, int nops, cpu_row_fn fn, void *ctx) {
    const tc_view *out = views[0];
    const int ndim = out->ndim;
    for (int d = 0; d < ndim; d++)
        if (out->sizes[d] == 0) return TC_OK;
    /* perm[0] is the innermost dimension */
    int perm[TC_MAX_DIMS];
    for (int i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
    for (int i = 1; i < ndim; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            const int c = should_swap(views, nops, perm[d0], perm[d1]);
            if (c > 0) {
                const int t = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = t;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    cpu_layout l = {.ndim = 0, .nops = nops};
    for (int i = ndim - 1; i >= 0; i--) { /* outer to inner */
        const int d = perm[i];
        if (out->sizes[d] == 1) continue;
        int64_t strides[CPU_MAX_OPS] = {0};
        for (int op = 0; op < nops; op++) strides[op] = views[op]->strides[d];
        if (cpu_layout_push(&l, out->sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    if (l.ndim == 0) {
        const int64_t ones[CPU_MAX_OPS] = {1, 1, 1, 1};
        cpu_layout_push(&l, 1, ones);
    }
    cpu_layout_coalesce(&l);

    const int last = l.ndim - 1;
    int64_t idx[CPU_MAX_DIMS] = {0}, off[CPU_MAX_OPS] = {0}, inner[CPU_MAX_OPS];
    size_t elsize[CPU_MAX_OPS];
    char *ptr[CPU_MAX_OPS];
    for (int op = 0; op < nops; op++) {
        inner[op] = l.stride[op][last];
        elsize[op] = cpu_dtype_size(views[op]->dtype);
    }
    for (;;) {
        for (int op = 0; op < nops; op++) ptr[op] = (char *)views[op]->data + (size_t)off[op] * elsize[op];
        const int rc = fn(ctx, l.size[last], ptr, inner);
        if (rc) return rc;
        int d = last - 1;
        for (; d >= 0; d--) { /* carry into the outer dimensions */
            for (int op = 0; op < nops; op++) off[op] += l.stride[op][d];
            if (++idx[d] < l.size[d]) break;
            for (int op = 0; op < nops; op++) off[op] -= l.size[d] * l.stride[op][d];
            idx[d] = 0;
        }
        if (d < 0) return TC_OK;
    }
}
