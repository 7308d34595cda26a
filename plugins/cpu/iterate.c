/*
 * iterate.c - layouts and the elementwise driver (see iterate.h).
 */
#include "iterate.h"

#include <stdbool.h>
#include <string.h>
#include <immintrin.h>

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
    if (l->ndim == 1 && index < l->size[0]) return index * l->stride[op][0]; /* no division: per-row callers */
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

/* ---- writing large results around the caches ----
 * A store to a line that is not in the cache first reads the line from memory (a read for
 * ownership), so an out-of-place elementwise op on operands far larger than the caches moves its
 * result twice: `out = a + b` reads a, b and out and writes out. Non-temporal stores skip that read.
 * They cannot be had from the compiler's vectorised loops, so the loop computes a block into a
 * buffer that stays in L1, and the block goes out with streaming stores: measured on this project's
 * machine, a 16M-element float32 add into a preallocated result went from 22 to about 29 GB/s on one
 * thread (the whole loop written with streaming stores: 34). Only for results of at least
 * CPU_STREAM_MIN_BYTES (iterate.h), which would not stay in a cache for the next op anyway, and only
 * when the result overlaps no input (an in-place op reads its lines anyway) and the loop never reads it. */
#define CPU_STREAM_BLOCK 2048

typedef struct stream_job {
    cpu_loop_fn loop;
    void *ctx;
    int nops;
    size_t elsize[CPU_MAX_OPS];
} stream_job;

void cpu_stream_bytes(char *dst, const char *src, size_t bytes) {
    size_t i = ((size_t)16 - ((uintptr_t)dst & 15)) & 15; /* up to the first 16-byte boundary: memcpy */
    if (i > bytes) i = bytes;
    memcpy(dst, src, i);
#if defined(__AVX__)
    if (i + 16 <= bytes && ((uintptr_t)(dst + i) & 16)) { /* to a 32-byte boundary */
        _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
        i += 16;
    }
    for (; i + 32 <= bytes; i += 32)
        _mm256_stream_si256((__m256i *)(void *)(dst + i), _mm256_loadu_si256((const __m256i *)(const void *)(src + i)));
#endif
    for (; i + 16 <= bytes; i += 16)
        _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
    if (i < bytes) memcpy(dst + i, src + i, bytes - i);
}

static void streaming_loop(int64_t n, char *const *p, const int64_t *s, void *vjob) {
    const stream_job *j = vjob;
    const size_t es = j->elsize[0];
    char *const out = p[0];
    /* elements up to the output's first 64-byte boundary go the ordinary way */
    int64_t i = (int64_t)(((64 - ((uintptr_t)out & 63)) & 63) / es);
    if (s[0] != 1 || i >= n) {
        j->loop(n, p, s, j->ctx);
        return;
    }
    if (i > 0) j->loop(i, p, s, j->ctx);
    _Alignas(64) char buf[CPU_STREAM_BLOCK];
    const int64_t block = (int64_t)(CPU_STREAM_BLOCK / es);
    char *q[CPU_MAX_OPS];
    int64_t qs[CPU_MAX_OPS];
    q[0] = buf;
    qs[0] = 1;
    for (int op = 1; op < j->nops; op++) qs[op] = s[op];
    for (; i < n; i += block) {
        const int64_t m = n - i < block ? n - i : block;
        for (int op = 1; op < j->nops; op++) q[op] = p[op] + (ptrdiff_t)(i * s[op]) * (ptrdiff_t)j->elsize[op];
        j->loop(m, q, qs, j->ctx);
        cpu_stream_bytes(out + (size_t)i * es, buf, (size_t)m * es);
    }
    _mm_sfence(); /* streaming stores are weakly ordered: make them visible before the pool's join */
}

/* The bytes [lo, hi) a view's elements lie in. */
static void view_extent(const tc_view *v, size_t es, uintptr_t *lo, uintptr_t *hi) {
    int64_t neg = 0, pos = 0;
    for (int d = 0; d < v->ndim; d++) {
        const int64_t span = (v->sizes[d] - 1) * v->strides[d];
        if (span < 0) neg += span;
        else pos += span;
    }
    *lo = (uintptr_t)v->data + (uintptr_t)(neg * (int64_t)es);
    *hi = (uintptr_t)v->data + (uintptr_t)((pos + 1) * (int64_t)es);
}

/* Whether a write-only loop over this layout should stream its result (see above). */
static bool worth_streaming(const tc_view *const *views, int nops, const cpu_layout *l, const size_t *elsize) {
    const size_t es = elsize[0];
    if (l->ndim != 1 || l->stride[0][0] != 1 || es == 0 || 64 % es != 0 || (uintptr_t)views[0]->data % es != 0)
        return false;
    if (l->size[0] < CPU_STREAM_MIN_BYTES / (int64_t)es) return false;
    const uintptr_t lo = (uintptr_t)views[0]->data, hi = lo + (uintptr_t)l->size[0] * es;
    for (int op = 1; op < nops; op++) {
        uintptr_t a, b;
        view_extent(views[op], elsize[op], &a, &b);
        if (a < hi && lo < b) return false;
    }
    return true;
}

typedef enum iterate_mode {
    ITERATE_PARALLEL,   /* over the pool above the grain */
    ITERATE_SERIAL,     /* on the calling thread, in order */
    ITERATE_WRITE_ONLY, /* parallel; the loop never reads its output, which may then be streamed */
} iterate_mode;

static int iterate(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx, iterate_mode mode) {
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
    stream_job streaming = {loop, ctx, nops, {0}};
    if (mode == ITERATE_WRITE_ONLY && worth_streaming(views, nops, &l, elsize)) {
        memcpy(streaming.elsize, elsize, sizeof(size_t) * (size_t)nops);
        loop = streaming_loop;
        ctx = &streaming;
    }
    const int nt = mode == ITERATE_SERIAL ? 1 : cpu_threads_for(numel);
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
    return iterate(views, nops, loop, ctx, ITERATE_PARALLEL);
}

int cpu_iterate_write_only(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx) {
    return iterate(views, nops, loop, ctx, ITERATE_WRITE_ONLY);
}

int cpu_iterate_serial(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx) {
    return iterate(views, nops, loop, ctx, ITERATE_SERIAL);
}

/* ---- converting while loading (cpu_iterate_as) ---- */

typedef struct convert_job {
    cpu_loop_fn loop;
    void *ctx;
    int nops;
    cpu_loop_fn conv[CPU_MAX_OPS]; /* NULL: the operand is read as it is */
    size_t elsize[CPU_MAX_OPS];    /* bytes per element as stored */
} convert_job;

static void converting_loop(int64_t n, char *const *p, const int64_t *s, void *vjob) {
    const convert_job *j = vjob;
    /* 8 bytes per element: the widest dtype */
    _Alignas(64) char buf[CPU_MAX_OPS][CPU_CONVERT_BLOCK * 8];
    char *q[CPU_MAX_OPS];
    int64_t qs[CPU_MAX_OPS];
    static const int64_t unit[2] = {1, 1};
    for (int op = 0; op < j->nops; op++) {
        if (j->conv[op] && s[op] == 0) { /* a broadcast operand: one conversion for the whole row */
            char *pp[2] = {buf[op], p[op]};
            j->conv[op](1, pp, unit, NULL);
            q[op] = buf[op];
            qs[op] = 0;
        }
    }
    for (int64_t i = 0; i < n; i += CPU_CONVERT_BLOCK) {
        const int64_t m = n - i < CPU_CONVERT_BLOCK ? n - i : CPU_CONVERT_BLOCK;
        for (int op = 0; op < j->nops; op++) {
            char *at = p[op] + (size_t)(i * s[op]) * j->elsize[op];
            if (!j->conv[op]) {
                q[op] = at;
                qs[op] = s[op];
            } else if (s[op] != 0) {
                char *pp[2] = {buf[op], at};
                const int64_t ss[2] = {1, s[op]};
                j->conv[op](m, pp, ss, NULL);
                q[op] = buf[op];
                qs[op] = 1;
            }
        }
        j->loop(m, q, qs, j->ctx);
    }
}

static int iterate_as(const tc_view *const *views, int nops, const int32_t *want, cpu_loop_fn loop, void *ctx,
                      iterate_mode mode);

int cpu_iterate_as(const tc_view *const *views, int nops, const int32_t *want, cpu_loop_fn loop, void *ctx) {
    return iterate_as(views, nops, want, loop, ctx, ITERATE_WRITE_ONLY);
}

int cpu_iterate_as_cached(const tc_view *const *views, int nops, const int32_t *want, cpu_loop_fn loop, void *ctx) {
    return iterate_as(views, nops, want, loop, ctx, ITERATE_PARALLEL);
}

static int iterate_as(const tc_view *const *views, int nops, const int32_t *want, cpu_loop_fn loop, void *ctx,
                      iterate_mode mode) {
    if (nops > CPU_MAX_OPS)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu kernels: %d operands, at most %d", nops, CPU_MAX_OPS);
    convert_job job = {.loop = loop, .ctx = ctx, .nops = nops};
    int converting = 0;
    for (int op = 1; op < nops; op++) {
        const int32_t have = views[op]->dtype;
        if (want[op] < 0 || want[op] == have) continue;
        if (!(job.conv[op] = cpu_convert_loop(want[op], have)))
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu kernels: cannot convert dtype %d to %d", have, want[op]);
        job.elsize[op] = cpu_dtype_size(have);
        converting = 1;
    }
    if (!converting) return iterate(views, nops, loop, ctx, mode);
    for (int op = 0; op < nops; op++) job.elsize[op] = cpu_dtype_size(views[op]->dtype);
    return iterate(views, nops, converting_loop, &job, mode);
}
