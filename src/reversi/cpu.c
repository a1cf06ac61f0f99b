/* Run-time CPU feature detection for the SIMD code paths. */
#include "reversi/bitboard_simd.h"

rv_reversi_simd rv_reversi_simd_cpu(void) {
#if RV_REVERSI_X86_SIMD
    /* __builtin_cpu_supports reads data libgcc/compiler-rt fill in before
     * main(); it is a few loads, so no caching (and no global) is needed. */
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    if (!avx2) return RV_REVERSI_SIMD_PLAIN;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq"))
        return RV_REVERSI_SIMD_AVX512;
    return RV_REVERSI_SIMD_AVX2;
#else
    return RV_REVERSI_SIMD_PLAIN;
#endif
}
