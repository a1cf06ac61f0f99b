/*
 * The code paths of the bitboard primitives, for the tests: plain C always,
 * and the SIMD ones when this CPU has them. Each test checks every path
 * against the reference, so the plain path is covered on any machine.
 */
#ifndef RV_TEST_REVERSI_PATHS_H
#define RV_TEST_REVERSI_PATHS_H

#include "reversi/bitboard_simd.h"

static inline uint64_t path_moves(int path, uint64_t P, uint64_t O);
static inline uint64_t path_flips(int path, uint64_t P, uint64_t O, int sq);

#if RV_REVERSI_X86_SIMD
static RV_TARGET_AVX2 uint64_t moves_avx2_(uint64_t P, uint64_t O) {
    return rv_reversi_moves_avx2(P, O);
}
static RV_TARGET_AVX2 uint64_t flips_avx2_(uint64_t P, uint64_t O, int sq) {
    return rv_reversi_flips_avx2(P, O, sq);
}
/* The AVX-512 versions and their 512-bit (*_zmm) variants must agree; a
 * disagreement shows as ~0, which no reference result equals. */
static RV_TARGET_AVX512 uint64_t moves_avx512_(uint64_t P, uint64_t O) {
    uint64_t a = rv_reversi_moves_avx512(P, O), b = rv_reversi_moves_avx512_zmm(P, O);
    return a == b ? a : ~0ULL;
}
static RV_TARGET_AVX512 uint64_t flips_avx512_(uint64_t P, uint64_t O, int sq) {
    uint64_t a = rv_reversi_flips_avx512(P, O, sq), b = rv_reversi_flips_avx512_zmm(P, O, sq);
    return a == b ? a : ~0ULL;
}
#endif

static inline uint64_t path_moves(int path, uint64_t P, uint64_t O) {
#if RV_REVERSI_X86_SIMD
    if (path == RV_REVERSI_SIMD_AVX2) return moves_avx2_(P, O);
    if (path == RV_REVERSI_SIMD_AVX512) return moves_avx512_(P, O);
#endif
    return rv_reversi_moves_bb(P, O);
}

static inline uint64_t path_flips(int path, uint64_t P, uint64_t O, int sq) {
#if RV_REVERSI_X86_SIMD
    if (path == RV_REVERSI_SIMD_AVX2) return flips_avx2_(P, O, sq);
    if (path == RV_REVERSI_SIMD_AVX512) return flips_avx512_(P, O, sq);
#endif
    return rv_reversi_flips_bb(P, O, sq);
}

#endif
