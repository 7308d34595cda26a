/*
 * lines.h - running a function over every line of a tensor along one dim: the shape of sort, topk,
 * kthvalue, median, mode and quantile, whose work per line is more than a loop over elements.
 *
 * Operands are views of the same ndim whose sizes agree except along `dim` (topk's outputs have k
 * there, median's 1). The other dims are merged as iterate.h merges them; lines are split across the
 * core's thread pool when there is enough work, and each piece of lines gets its own scratch memory
 * from the core (scratch_bytes), reused line after line. A line function receives each operand's
 * first element and reports failures through its context, never through set_error (it may run on a
 * worker thread); cpu_lines_run raises an allocation failure itself.
 */
#ifndef CPU_LINES_H
#define CPU_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "torch_core/tc_abi.h"

#define CPU_LINES_MAX_OPS 4

/* One line: ptr[op] is operand op's first element of the line; stride[op] its element stride along
 * the dim (the same for every line). */
typedef void (*cpu_line_fn)(void *ctx, char *const *ptr, const int64_t *stride, void *scratch);

int cpu_lines_run(const tc_view *views, int nops, int dim, size_t scratch_bytes, cpu_line_fn fn, void *ctx,
                  const char *name);

/* Copies every element of a view into dst (dst_size bytes each, converted by `load`, or copied as
 * they are when load is NULL): in row-major order (as contiguous() holds them), or in the order of
 * memory for dense views (as clone() does). */
typedef void (*cpu_gather_load)(void *dst, const char *src);
void cpu_gather(const tc_view *in, int memory_order, void *dst, size_t dst_size, cpu_gather_load load);

#endif
