/*
 * pad.c - reflection, replication and circular padding and their backward ops (contract in
 * core/src/meta_pad.c): every output position reads one input position, found per axis once.
 */
#include <string.h>

#include "cpu.h"
#include "dtype.h"

enum { PAD_REFLECT, PAD_REPLICATE, PAD_CIRCULAR };

typedef struct pad_job {
    const void *in;
    void *out;
    int64_t ih, iw, oh, ow;
    const int64_t *hmap, *wmap; /* input position of each output row / column */
} pad_job;

static int64_t source(int mode, int64_t i, int64_t in) {
    if (mode == PAD_REFLECT) {
        if (i < 0) i = -i;
        if (i >= in) i = 2 * (in - 1) - i;
        return i;
    }
    if (mode == PAD_REPLICATE) return i < 0 ? 0 : i >= in ? in - 1 : i;
    return ((i % in) + in) % in;
}

#define PAD_STAMP(_, S)                                                                            \
    static void pad_planes_##S(void *vj, int64_t p0, int64_t p1) {                                 \
        const pad_job *j = vj;                                                                     \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + p * j->ih * j->iw;                      \
            CPU_T_##S *y = (CPU_T_##S *)j->out + p * j->oh * j->ow;                                 \
            for (int64_t h = 0; h < j->oh; h++) {                                                  \
                const CPU_T_##S *row = x + j->hmap[h] * j->iw;                                     \
                for (int64_t w = 0; w < j->ow; w++) y[h * j->ow + w] = row[j->wmap[w]];            \
            }                                                                                      \
        }                                                                                          \
    }
CPU_DTYPES_ALL(PAD_STAMP, _)

#define PAD_BACK_STAMP(_, S)                                                                       \
    static void pad_back_planes_##S(void *vj, int64_t p0, int64_t p1) {                            \
        const pad_job *j = vj;                                                                     \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *gy = (const CPU_T_##S *)j->in + p * j->oh * j->ow;                     \
            CPU_T_##S *gx = (CPU_T_##S *)j->out + p * j->ih * j->iw;                                \
            memset(gx, 0, sizeof(CPU_T_##S) * (size_t)(j->ih * j->iw));                            \
            for (int64_t h = 0; h < j->oh; h++) {                                                  \
                CPU_T_##S *row = gx + j->hmap[h] * j->iw;                                          \
                for (int64_t w = 0; w < j->ow; w++)                                                \
                    row[j->wmap[w]] = cpu_st_##S(cpu_ld_##S(row[j->wmap[w]]) + cpu_ld_##S(gy[h * j->ow + w])); \
            }                                                                                      \
        }                                                                                          \
    }
CPU_DTYPES_FLOAT(PAD_BACK_STAMP, _)

static int run(const tc_kernel_args *a, cpu_range_fn fn, bool backward) {
    if (cpu_check_args(a, 1, 1, backward ? "pad_nd_backward" : "pad_nd")) return TC_FAIL;
    const tc_view *small = backward ? &a->outputs[0] : &a->inputs[0], *big = backward ? &a->inputs[0] : &a->outputs[0];
    int mode = (int)a->ints[0];
    bool two = a->ints[3] == 2;
    pad_job j = {.in = a->inputs[0].data, .out = a->outputs[0].data};
    j.iw = small->sizes[small->ndim - 1];
    j.ow = big->sizes[big->ndim - 1];
    j.ih = two ? small->sizes[small->ndim - 2] : 1;
    j.oh = two ? big->sizes[big->ndim - 2] : 1;
    int64_t planes = 1;
    for (int32_t d = 0; d < small->ndim - (two ? 2 : 1); d++) planes *= small->sizes[d];
    size_t bytes = sizeof(int64_t) * (size_t)(j.oh + j.ow);
    int64_t *map = cpu_core->host_alloc(bytes);
    if (!map) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "padding: out of memory");
    for (int64_t h = 0; h < j.oh; h++) map[h] = source(mode, h - a->ints[1], j.ih);
    for (int64_t w = 0; w < j.ow; w++) map[j.oh + w] = source(mode, w - a->ints[2], j.iw);
    j.hmap = map;
    j.wmap = map + j.oh;
    int64_t work;
    if (__builtin_mul_overflow(planes, j.oh * j.ow, &work)) work = INT64_MAX;
    cpu_parallel(planes, cpu_threads_for(work), fn, &j);
    cpu_core->host_free(map, bytes);
    return TC_OK;
}

#define KERNEL(_, S) static int k_pad_##S(const tc_kernel_args *a) { return run(a, pad_planes_##S, false); }
CPU_DTYPES_ALL(KERNEL, _)
#define BACK_KERNEL(_, S)                                                                          \
    static int k_pad_back_##S(const tc_kernel_args *a) { return run(a, pad_back_planes_##S, true); }
CPU_DTYPES_FLOAT(BACK_KERNEL, _)

#define ENTRY(_, S) {"pad_nd", CPU_DT_##S, k_pad_##S},
#define BACK_ENTRY(_, S) {"pad_nd_backward", CPU_DT_##S, k_pad_back_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_FLOAT(BACK_ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
