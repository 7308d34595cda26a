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
    int64_t in_sizes[3], out_sizes[3];
    const int64_t *map[3]; /* per axis: the input position of each output position */
} pad_job;

/* The input position output position o of an axis of `in` elements reads. */
static int64_t source(int mode, int64_t o, int64_t in, int64_t lo, int64_t hi) {
    int64_t i = o - lo;
    if (mode == PAD_REFLECT) {
        if (i < 0) i = -i;
        if (i >= in) i = 2 * (in - 1) - i;
        return i;
    }
    if (mode == PAD_REPLICATE) return i < 0 ? 0 : i >= in ? in - 1 : i;
    /* circular: the negative pads crop, and the rest wraps around within what they leave */
    int64_t crop = lo < 0 ? -lo : 0, kept = in - crop - (hi < 0 ? -hi : 0);
    int64_t j = o - (lo > 0 ? lo : 0);
    return kept > 0 ? crop + ((j % kept) + kept) % kept : 0;
}

#define PAD_STAMP(_, S)                                                                            \
    static void pad_planes_##S(void *vj, int64_t p0, int64_t p1) {                                 \
        const pad_job *j = vj;                                                                     \
        const int64_t ID = j->in_sizes[0], IH = j->in_sizes[1], IW = j->in_sizes[2];               \
        const int64_t OD = j->out_sizes[0], OH = j->out_sizes[1], OW = j->out_sizes[2];            \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + p * ID * IH * IW;                       \
            CPU_T_##S *y = (CPU_T_##S *)j->out + p * OD * OH * OW;                                  \
            for (int64_t d = 0; d < OD; d++)                                                       \
                for (int64_t h = 0; h < OH; h++) {                                                 \
                    const CPU_T_##S *row = x + (j->map[0][d] * IH + j->map[1][h]) * IW;             \
                    CPU_T_##S *o = y + (d * OH + h) * OW;                                          \
                    for (int64_t w = 0; w < OW; w++) o[w] = row[j->map[2][w]];                     \
                }                                                                                  \
        }                                                                                          \
    }
CPU_DTYPES_ALL(PAD_STAMP, _)

#define PAD_BACK_STAMP(_, S)                                                                       \
    static void pad_back_planes_##S(void *vj, int64_t p0, int64_t p1) {                            \
        const pad_job *j = vj;                                                                     \
        const int64_t ID = j->in_sizes[0], IH = j->in_sizes[1], IW = j->in_sizes[2];               \
        const int64_t OD = j->out_sizes[0], OH = j->out_sizes[1], OW = j->out_sizes[2];            \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *gy = (const CPU_T_##S *)j->in + p * OD * OH * OW;                      \
            CPU_T_##S *gx = (CPU_T_##S *)j->out + p * ID * IH * IW;                                 \
            memset(gx, 0, sizeof(CPU_T_##S) * (size_t)(ID * IH * IW));                             \
            for (int64_t d = 0; d < OD; d++)                                                       \
                for (int64_t h = 0; h < OH; h++) {                                                 \
                    CPU_T_##S *row = gx + (j->map[0][d] * IH + j->map[1][h]) * IW;                  \
                    const CPU_T_##S *g = gy + (d * OH + h) * OW;                                   \
                    for (int64_t w = 0; w < OW; w++)                                               \
                        row[j->map[2][w]] = cpu_st_##S(cpu_ld_##S(row[j->map[2][w]]) + cpu_ld_##S(g[w])); \
                }                                                                                  \
        }                                                                                          \
    }
CPU_DTYPES_FLOAT(PAD_BACK_STAMP, _)

static int run(const tc_kernel_args *a, cpu_range_fn fn, bool backward) {
    if (cpu_check_args(a, 1, 1, backward ? "pad_nd_backward" : "pad_nd")) return TC_FAIL;
    const tc_view *small = backward ? &a->outputs[0] : &a->inputs[0], *big = backward ? &a->inputs[0] : &a->outputs[0];
    int mode = (int)a->ints[0], nd = (int)a->ints[1];
    pad_job j = {.in = a->inputs[0].data, .out = a->outputs[0].data};
    for (int ax = 0; ax < 3; ax++) {
        int32_t d = small->ndim - 3 + ax;
        bool padded = ax >= 3 - nd;
        j.in_sizes[ax] = padded ? small->sizes[d] : 1;
        j.out_sizes[ax] = padded ? big->sizes[d] : 1;
    }
    int64_t planes = 1;
    for (int32_t d = 0; d < small->ndim - nd; d++) planes *= small->sizes[d];
    size_t count = (size_t)(j.out_sizes[0] + j.out_sizes[1] + j.out_sizes[2]);
    int64_t *map = cpu_core->host_alloc(sizeof(int64_t) * count);
    if (!map) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "padding: out of memory");
    int64_t *at = map;
    for (int ax = 0; ax < 3; ax++) {
        j.map[ax] = at;
        for (int64_t o = 0; o < j.out_sizes[ax]; o++)
            *at++ = source(mode, o, j.in_sizes[ax], a->ints[2 + 2 * ax], a->ints[3 + 2 * ax]);
    }
    int64_t work;
    if (__builtin_mul_overflow(planes, j.out_sizes[0] * j.out_sizes[1] * j.out_sizes[2], &work)) work = INT64_MAX;
    cpu_parallel(planes, cpu_threads_for(work), fn, &j);
    cpu_core->host_free(map, sizeof(int64_t) * count);
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
