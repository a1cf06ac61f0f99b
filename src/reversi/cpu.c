/* Run-time CPU feature detection for the SIMD code paths. */
#include "reversi/bitboard_simd.h"

#if RV_REVERSI_X86_SIMD
#include <cpuid.h>

/* LZCNT (CPUID 0x80000001, ECX bit 5) has no __builtin_cpu_supports name
 * that both gcc 12 and clang 14 know, so ask CPUID directly. */
static int has_lzcnt(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d)) return 0;
    return (c >> 5) & 1;
}
#endif

rv_reversi_simd rv_reversi_simd_cpu(void) {
#if RV_REVERSI_X86_SIMD
    /* __builtin_cpu_supports reads what libgcc / compiler-rt detected in a
     * constructor before main(): a few loads, nothing written here. */
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    if (!avx2) return RV_REVERSI_SIMD_PLAIN;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && has_lzcnt())
        return RV_REVERSI_SIMD_AVX512;
    return RV_REVERSI_SIMD_AVX2;
#else
    return RV_REVERSI_SIMD_PLAIN;
#endif
}
