#include "cpu_features.h"

#include <cpuid.h>
#include <stdint.h>
#include <string.h>

static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

tc_isa_level tc_cpu_isa_level(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return TC_ISA_V1;
    int sse42 = (c >> 20) & 1, popcnt = (c >> 23) & 1, fma = (c >> 12) & 1;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
    if (!(sse42 && popcnt)) return TC_ISA_V1;
    if (!(osxsave && avx && fma && f16c)) return TC_ISA_V2;
    uint64_t xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6) return TC_ISA_V2; /* OS does not save XMM+YMM state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return TC_ISA_V2;
    int avx2 = (b >> 5) & 1, bmi1 = (b >> 3) & 1, bmi2 = (b >> 8) & 1;
    if (!(avx2 && bmi1 && bmi2)) return TC_ISA_V2;
    int avx512f = (b >> 16) & 1, avx512dq = (b >> 17) & 1, avx512cd = (b >> 28) & 1;
    int avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
    if (!(avx512f && avx512dq && avx512cd && avx512bw && avx512vl)) return TC_ISA_V3;
    if ((xcr0 & 0xe6) != 0xe6) return TC_ISA_V3; /* opmask, ZMM_Hi256, Hi16_ZMM state */
    return TC_ISA_V4;
}

const char *tc_cpu_isa_name(tc_isa_level level) {
    switch (level) {
    case TC_ISA_V4: return "x86-64-v4 (AVX-512)";
    case TC_ISA_V3: return "x86-64-v3 (AVX2/FMA)";
    case TC_ISA_V2: return "x86-64-v2";
    default: return "x86-64";
    }
}

int tc_cpu_is_amd(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    char vendor[13];
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    return strcmp(vendor, "AuthenticAMD") == 0;
}
