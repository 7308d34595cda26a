/*
 * cpu.h - what the files of the CPU plugin share: the core's function table, the shape of the
 * per-file kernel tables that plugin.c registers, and the threading policy.
 *
 * Every name here has hidden visibility (the build passes -fvisibility=hidden); the plugin's only
 * export is tc_plugin_entry.
 */
#ifndef CPU_CPU_H
#define CPU_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "torch_core/tc_abi.h"

/* The table the core handed to init; set before any kernel can run, cleared by shutdown. */
extern const tc_core_api *cpu_core;

/* One registration: kernel `op` (a kernel= name of core/ops.table) for one dtype. */
typedef struct cpu_kernel_entry {
    const char *op;
    int32_t dtype;
    tc_kernel_fn fn;
} cpu_kernel_entry;

/* Each kernel file lists its kernels in one table and declares it with CPU_KERNEL_TABLE: the table's
 * address goes into a section of its own, which the linker gathers from every file and plugin.c
 * walks, so a new kernel file is registered without touching any other file. */
typedef struct cpu_kernel_table {
    const cpu_kernel_entry *entries;
    size_t count;
    uint32_t flags; /* TC_KERNEL_* for every kernel of the table (register_kernel_flags) */
} cpu_kernel_table;

#define CPU_KERNEL_TABLE_FLAGS(entries, flags)                                                     \
    static const cpu_kernel_table entries##_table                                                  \
        __attribute__((used, section("cpu_kernel_tables"), aligned(sizeof(void *)))) = {           \
            entries, sizeof(entries) / sizeof(entries[0]), flags}
#define CPU_KERNEL_TABLE(entries) CPU_KERNEL_TABLE_FLAGS(entries, 0)
/* A table of elementwise kernels that take inputs of any dtype and convert them while loading
 * (cpu_iterate_as): the core then skips its full-size conversion copies. */
#define CPU_CONVERTING_KERNEL_TABLE(entries) CPU_KERNEL_TABLE_FLAGS(entries, TC_KERNEL_CONVERTS_INPUTS)

/* The bytes of one vector register at the ISA level this file is built for (reductions' lanes,
 * mv's dot products). */
#if defined(CPU_ISA_LEVEL) && CPU_ISA_LEVEL >= 4
#define CPU_VEC_BYTES 64
#elif defined(CPU_ISA_LEVEL) && CPU_ISA_LEVEL >= 3
#define CPU_VEC_BYTES 32
#else
#define CPU_VEC_BYTES 16
#endif

/* The least work (in elements) worth giving a thread: below it, waking a worker costs more than it
 * saves. */
#define CPU_GRAIN ((int64_t)32768)

/* How many threads to use for `work` elements: what torch.set_num_threads asked for
 * (core->get_num_threads), but no more than one per CPU_GRAIN elements, so under two grains the
 * kernel stays on the calling thread. */
int cpu_threads_for(int64_t work);

/* A piece [begin, end) of a kernel's loop; ctx is the kernel's. Runs on any thread of the pool, so it
 * must not call set_error: it records failures in ctx instead. */
typedef void (*cpu_range_fn)(void *ctx, int64_t begin, int64_t end);

/* Runs fn over [0, n) cut into at most `parts` contiguous pieces (cpu_threads_for's answer) on the
 * core's thread pool; with one part, or a core without a pool, fn runs once, inline, on [0, n). */
void cpu_parallel(int64_t n, int parts, cpu_range_fn fn, void *ctx);

/* Raises RuntimeError when a kernel was called with fewer views than its contract promises: a core
 * bug, but one that would otherwise read out of bounds. */
int cpu_check_args(const tc_kernel_args *args, int n_inputs, int n_outputs, const char *op);

#endif
