/*
 * cpu_features.h - what this x86-64 CPU and its operating system can run.
 *
 * Compiled into each plugin that needs it (plugins share no library). A feature counts only when
 * both the CPU reports it (CPUID) and the OS saves its register state (XGETBV), so a VM that hides
 * AVX-512 state gets the AVX2 answer.
 */
#ifndef TC_CPU_FEATURES_H
#define TC_CPU_FEATURES_H

/* x86-64 micro-architecture levels: 1 baseline, 2 (SSE4.2, POPCNT), 3 (AVX2, FMA, BMI2),
 * 4 (AVX-512 F/DQ/CD/BW/VL). */
typedef enum tc_isa_level { TC_ISA_V1 = 1, TC_ISA_V2 = 2, TC_ISA_V3 = 3, TC_ISA_V4 = 4 } tc_isa_level;

/* The highest level the CPU and OS both support. Thread-safe, cheap. */
tc_isa_level tc_cpu_isa_level(void);

/* "x86-64", "x86-64-v2", "x86-64-v3 (AVX2/FMA)", "x86-64-v4 (AVX-512)". */
const char *tc_cpu_isa_name(tc_isa_level level);

/* 1 if the CPU vendor string is "AuthenticAMD". */
int tc_cpu_is_amd(void);

#endif
