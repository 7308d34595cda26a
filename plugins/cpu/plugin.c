/*
 * plugin.c - the CPU plugin's descriptor, probe and registration.
 *
 * The same sources build three plugins, one per x86-64 level (CPU_ISA_LEVEL 2, 3, 4), all named
 * "cpu"; the core keeps the highest-scoring one whose probe passes. This file and cpu_features.c
 * are compiled for the baseline ISA, never with the variant's -march, because probe runs on CPUs
 * that may lack the variant's instructions: only after probe has passed does code compiled for the
 * variant (the kernel files) run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "cpu_features.h"

#ifndef CPU_ISA_LEVEL
#error "build with -DCPU_ISA_LEVEL=2, 3 or 4"
#endif

#define CPU_STR(x) CPU_STR_(x)
#define CPU_STR_(x) #x

const tc_core_api *cpu_core;

/* TORCH_CPU_ISA=2|3|4 forces the variant of that x86-64 level, so that tests (and users chasing a
 * difference) can run any variant the CPU supports. The level it asks for, or 0 when it is unset,
 * not one of 2, 3, 4, or above what this CPU supports: then the best supported variant loads, and
 * the one that does reports the value on stderr (cpu_init). */
static int forced_isa_level(tc_isa_level have) {
    const char *env = getenv("TORCH_CPU_ISA");
    if (!env || !env[0] || env[1] || env[0] < '2' || env[0] > '4') return 0;
    const int level = env[0] - '0';
    return level <= (int)have ? level : 0;
}

/* Why TORCH_CPU_ISA did not choose this variant, when it was set: written into msg (empty if it
 * did, or if it was unset). */
static void describe_forced_isa(tc_isa_level have, char *msg, size_t len) {
    const char *env = getenv("TORCH_CPU_ISA");
    msg[0] = 0;
    if (!env || !env[0] || forced_isa_level(have) == CPU_ISA_LEVEL) return;
    char runs[128] = "";
    for (int level = 2; level <= (int)have; level++)
        snprintf(runs + strlen(runs), sizeof runs - strlen(runs), "%s%d (%s)", level > 2 ? ", " : "", level,
                 tc_cpu_isa_name((tc_isa_level)level));
    const int forced = forced_isa_level(have);
    if (forced)
        snprintf(msg, len, "no %s variant of the CPU plugin was found", tc_cpu_isa_name((tc_isa_level)forced));
    else if (env[1] || env[0] < '2' || env[0] > '4')
        snprintf(msg, len, "'%s' is not one of 2, 3, 4", env);
    else
        snprintf(msg, len, "this CPU does not support %s", tc_cpu_isa_name((tc_isa_level)(env[0] - '0')));
    snprintf(msg + strlen(msg), len - strlen(msg), "; the variants this CPU runs: %s; loading %s", runs,
             tc_cpu_isa_name((tc_isa_level)CPU_ISA_LEVEL));
}

static int cpu_probe(const tc_core_api *core, char *reason, size_t reason_len) {
    (void)core;
    const tc_isa_level have = tc_cpu_isa_level();
    if (have < CPU_ISA_LEVEL) {
        snprintf(reason, reason_len, "needs %s; this CPU supports %s",
                 tc_cpu_isa_name((tc_isa_level)CPU_ISA_LEVEL), tc_cpu_isa_name(have));
        return 0;
    }
    /* a forced variant outranks every other; the rest keep their order, and are shadowed */
    return forced_isa_level(have) == CPU_ISA_LEVEL ? 100 : 10 * CPU_ISA_LEVEL;
}

/* The tables every kernel file declared (CPU_KERNEL_TABLE); the linker defines the bounds. */
extern const cpu_kernel_table __start_cpu_kernel_tables[], __stop_cpu_kernel_tables[];

/* Kernel flags need a 1.2 core; an older one gets the same kernels without them (it converts inputs
 * itself, which every converting kernel also handles). */
static int register_entry(const tc_core_api *core, const cpu_kernel_entry *e, uint32_t flags) {
    if (flags && TC_CORE_HAS(core, register_kernel_flags) && core->register_kernel_flags)
        return core->register_kernel_flags(e->op, TC_DEVICE_CPU, TC_STRIDED, e->dtype, e->fn, flags);
    return core->register_kernel(e->op, TC_DEVICE_CPU, TC_STRIDED, e->dtype, e->fn);
}

static int cpu_init(const tc_core_api *core, char *err, size_t err_len) {
    if (core->abi_major != TC_ABI_MAJOR || core->struct_size < TC_CORE_API_SIZE_1_1) {
        snprintf(err, err_len, "core ABI %u.%u (table of %u bytes) is older than the 1.1 this plugin needs",
                 core->abi_major, core->abi_minor, core->struct_size);
        return TC_FAIL;
    }
    cpu_core = core;
    char forced[512];
    describe_forced_isa(tc_cpu_isa_level(), forced, sizeof forced);
    if (forced[0]) fprintf(stderr, "torch: TORCH_CPU_ISA: %s\n", forced);
    for (const cpu_kernel_table *t = __start_cpu_kernel_tables; t < __stop_cpu_kernel_tables; t++) {
        for (size_t i = 0; i < t->count; i++) {
            const cpu_kernel_entry *e = &t->entries[i];
            if (register_entry(core, e, t->flags) != TC_OK) {
                snprintf(err, err_len, "registering kernel %s for dtype %d failed", e->op, (int)e->dtype);
                return TC_FAIL;
            }
        }
    }
    return TC_OK;
}

static void cpu_shutdown(void) { cpu_core = NULL; }

static const tc_plugin_desc descriptor = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "cpu",
    .kind = TC_PLUGIN_KIND_DEVICE,
    .version = "1.0.0 (x86-64-v" CPU_STR(CPU_ISA_LEVEL) ")",
    .probe = cpu_probe,
    .init = cpu_init,
    .shutdown = cpu_shutdown,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &descriptor; }
