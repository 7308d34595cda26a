/*
 * iterate.h - N-d strided iteration for the CPU kernels.
 *
 * A kernel describes its operands as a cpu_layout: one size per dimension and one stride per
 * operand and dimension (in elements, innermost dimension last). Size-1 dimensions are dropped,
 * dimensions are ordered so the first operand (the output) is walked in memory order, and adjacent
 * dimensions that are contiguous for every operand are merged, so a contiguous tensor of any shape
 * becomes one long row. Elementwise kernels then only write a 1-D loop (cpu_loop_fn) that sees a
 * row of n elements and one stride per operand; stride 1 everywhere and stride 0 (a broadcast
 * scalar) are the fast paths worth specialising. Reductions use the layout helpers directly.
 */
#ifndef CPU_ITERATE_H
#define CPU_ITERATE_H

#include <stddef.h>
#include <stdint.h>

#include "torch_core/tc_abi.h"

/* Dimensions of size > 1 multiply to at most 2^63, so no tensor has more than 63 of them. */
#define CPU_MAX_DIMS 64
#define CPU_MAX_OPS 4

typedef struct cpu_layout {
    int ndim;
    int nops;
    int64_t size[CPU_MAX_DIMS];
    int64_t stride[CPU_MAX_OPS][CPU_MAX_DIMS];
} cpu_layout;

/* Appends an outer-to-inner dimension; strides[op] for each of l->nops operands. Returns TC_FAIL
 * (with the error set) when the layout is full, which a real tensor cannot reach. */
int cpu_layout_push(cpu_layout *l, int64_t size, const int64_t *strides);

/* Reorders dimensions so operand `key` has descending strides (stable: ties keep their order). */
void cpu_layout_sort(cpu_layout *l, int key);

/* Merges each pair of neighbouring dimensions that every operand walks as one. */
void cpu_layout_coalesce(cpu_layout *l);

int64_t cpu_layout_numel(const cpu_layout *l);

/* Element offset, for operand `op`, of the element with row-major linear index `index`. */
int64_t cpu_layout_offset(const cpu_layout *l, int op, int64_t index);

/* The 1-D inner loop of an elementwise kernel: n elements; ptrs[op] points at the first element of
 * operand op and strides[op] is its stride in elements. */
typedef void (*cpu_loop_fn)(int64_t n, char *const *ptrs, const int64_t *strides, void *ctx);

/* Walks linear indices [begin, end) of a layout (row-major over its dims as they stand), one
 * inner-row piece per call of `loop`; data[op] points at operand op's first element and elsize[op]
 * is its element size. Kernels whose result depends on the order elements are met in (nonzero,
 * masked_select) build a layout without sorting it and walk pieces of it themselves. */
void cpu_layout_run(const cpu_layout *l, char *const *data, const size_t *elsize, int64_t begin, int64_t end,
                    cpu_loop_fn loop, void *ctx);

/* Runs `loop` over every element of nops same-shaped views. Inside the plugin an input view may have
 * negative strides (its data pointing at its first element), as flip walks its input backwards. views[0] is the output: its sizes are
 * the shape and its memory order the walking order. Splits the work over the core's thread pool above
 * the grain (cpu_threads_for); `loop` must then be safe to call concurrently on disjoint rows. */
int cpu_iterate(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx);

/* cpu_iterate for a loop that writes its output without ever reading it (an elementwise result):
 * a large contiguous result that overlaps no input is then written with streaming stores, around
 * the caches (iterate.c says when and why). */
int cpu_iterate_write_only(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx);

/* Results at least this large are written with streaming (non-temporal) stores where the writer can
 * (see iterate.c): they would not stay in a cache for the next op anyway. cat counts its inputs' bytes
 * too, and streams only when one thread copies (cat.c). */
#define CPU_STREAM_MIN_BYTES ((int64_t)32 << 20)
/* Copies `bytes` from src to dst with streaming stores (any alignment; the ends that do not fill a
 * 16-byte store go through memcpy). The stores are weakly ordered: the writer issues _mm_sfence()
 * before other threads may read dst. */
void cpu_stream_bytes(char *dst, const char *src, size_t bytes);

/* cpu_iterate_write_only for a loop written for given operand dtypes: want[op] is the dtype `loop` reads
 * operand op in (-1: as it is). Inputs (op >= 1) of another dtype are converted while loading, a
 * block of CPU_CONVERT_BLOCK elements at a time into a buffer on the stack (a broadcast operand
 * once per row), with the `copy` kernel's conversions; no full-size temporary is made. */
#define CPU_CONVERT_BLOCK 512
int cpu_iterate_as(const tc_view *const *views, int nops, const int32_t *want, cpu_loop_fn loop, void *ctx);
/* cpu_iterate_as without the streaming stores: for loops that compute so much per element (the
 * transcendentals) that memory traffic does not limit them, where the extra copy would only cost. */
int cpu_iterate_as_cached(const tc_view *const *views, int nops, const int32_t *want, cpu_loop_fn loop,
                          void *ctx);

/* The loop of the `copy` kernel converting `from` into `to` (plain bits when equal); NULL for an
 * unknown dtype. Its operands are {destination, source}. */
cpu_loop_fn cpu_convert_loop(int32_t to, int32_t from);
/* The same on the calling thread, in the layout's order: for loops whose iterations may write one
 * element twice (index_put with repeated indices), where the later write must win. */
int cpu_iterate_serial(const tc_view *const *views, int nops, cpu_loop_fn loop, void *ctx);

#endif
