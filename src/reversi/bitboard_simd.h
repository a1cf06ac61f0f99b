/*
 * Internal: move generation and flips with x86-64 SIMD, for code paths
 * chosen at run time (the engine may include this header too).
 *
 * Every function here carries a target attribute, so it may only be called
 * (and is only inlined) from functions compiled for the same target, and
 * only after rv_reversi_simd_cpu() said the CPU has it. The plain-C versions
 * are the static inline functions of renversi/reversi.h; these must agree
 * with them bit for bit (tests/test_reversi_moves.c checks all paths).
 *
 * Layout: rv_reversi_rays[sq][0..3] are the four rays towards higher square
 * indices (+1, +7, +8, +9), [4..7] the four towards lower ones (-1, -7, -8,
 * -9), so one 256-bit load takes a half and one 512-bit load all eight.
 */
#ifndef RV_REVERSI_BITBOARD_SIMD_H
#define RV_REVERSI_BITBOARD_SIMD_H

#include "renversi/reversi.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(RV_NO_SIMD)
#define RV_REVERSI_X86_SIMD 1
#include <immintrin.h>

#define RV_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define RV_TARGET_AVX512                                                                   \
    __attribute__((target("avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx2,bmi,bmi2,popcnt,lzcnt")))

/* ---------------------------------------------------------------- AVX2 */

static RV_TARGET_AVX2 inline uint64_t rv_reversi_or4_avx2(__m256i v) {
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    return (uint64_t)_mm_cvtsi128_si64(x);
}

/* Moves: the four directions 1, 8, 7, 9 in the four lanes, each shifted both
 * ways; the same doubling flood as rv_reversi_moves_bb(). */
static RV_TARGET_AVX2 inline uint64_t rv_reversi_moves_avx2(uint64_t P, uint64_t O) {
    const __m256i sh = _mm256_set_epi64x(9, 7, 8, 1);
    const __m256i sh2 = _mm256_set_epi64x(18, 14, 16, 2);
    const __m256i cols = _mm256_set_epi64x(0x7E7E7E7E7E7E7E7EULL, 0x7E7E7E7E7E7E7E7EULL,
                                           -1LL, 0x7E7E7E7E7E7E7E7EULL);
    __m256i pp = _mm256_set1_epi64x((long long)P);
    __m256i mo = _mm256_and_si256(_mm256_set1_epi64x((long long)O), cols);
    __m256i fl = _mm256_and_si256(mo, _mm256_sllv_epi64(pp, sh));
    __m256i fr = _mm256_and_si256(mo, _mm256_srlv_epi64(pp, sh));
    fl = _mm256_or_si256(fl, _mm256_and_si256(mo, _mm256_sllv_epi64(fl, sh)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mo, _mm256_srlv_epi64(fr, sh)));
    __m256i pl = _mm256_and_si256(mo, _mm256_sllv_epi64(mo, sh));
    __m256i pr = _mm256_and_si256(mo, _mm256_srlv_epi64(mo, sh));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
    __m256i m = _mm256_or_si256(_mm256_sllv_epi64(fl, sh), _mm256_srlv_epi64(fr, sh));
    return rv_reversi_or4_avx2(m) & ~(P | O);
}

/*
 * Flips. Up rays: the nearest non-O square is the lowest bit b of r & ~O;
 * the run is r & (b - 1), taken when b is P's. Down rays: smearing t = r & ~O
 * downwards by d, 2d, 4d covers every ray square at or below the nearest
 * blocker, so c = r & ~smear is the run of O's above it; it is taken when
 * the square one step beyond is P's: (c >> d) & r holds the O's of the run
 * and the blocker itself (the & r drops a step off the end of the ray).
 */
static RV_TARGET_AVX2 inline uint64_t rv_reversi_flips_avx2(uint64_t P, uint64_t O, int sq) {
    /* lanes in ray-table order: 1, 7, 8, 9 */
    const __m256i sh = _mm256_set_epi64x(9, 8, 7, 1);
    const __m256i sh2 = _mm256_set_epi64x(18, 16, 14, 2);
    const __m256i sh4 = _mm256_set_epi64x(36, 32, 28, 4);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i pp = _mm256_set1_epi64x((long long)P);
    __m256i oo = _mm256_set1_epi64x((long long)O);
    __m256i ru = _mm256_loadu_si256((const __m256i *)&rv_reversi_rays[sq][0]);
    __m256i rd = _mm256_loadu_si256((const __m256i *)&rv_reversi_rays[sq][4]);

    __m256i tu = _mm256_andnot_si256(oo, ru);
    __m256i b = _mm256_and_si256(tu, _mm256_sub_epi64(zero, tu));
    __m256i cu = _mm256_and_si256(ru, _mm256_sub_epi64(b, one));
    __m256i okU = _mm256_cmpeq_epi64(_mm256_and_si256(b, pp), zero);
    __m256i fu = _mm256_andnot_si256(okU, cu);

    __m256i td = _mm256_andnot_si256(oo, rd);
    td = _mm256_or_si256(td, _mm256_srlv_epi64(td, sh));
    td = _mm256_or_si256(td, _mm256_srlv_epi64(td, sh2));
    td = _mm256_or_si256(td, _mm256_srlv_epi64(td, sh4));
    __m256i cd = _mm256_andnot_si256(td, rd);
    __m256i beyond = _mm256_and_si256(_mm256_srlv_epi64(cd, sh), rd);
    __m256i okD = _mm256_cmpeq_epi64(_mm256_and_si256(beyond, pp), zero);
    __m256i fd = _mm256_andnot_si256(okD, cd);
    return rv_reversi_or4_avx2(_mm256_or_si256(fu, fd));
}

/* ---------------------------------------------------------------- AVX-512 */

/*
 * Moves with all eight directions in one register: lanes 0-3 rotate left by
 * 1, 8, 7, 9 and lanes 4-7 rotate right by the same. A rotation brings bits
 * around the end of the word into the first (or last) d squares; those are
 * masked out of O (so no flood step lands there) and out of the result.
 */
static RV_TARGET_AVX512 inline uint64_t rv_reversi_moves_avx512_zmm(uint64_t P, uint64_t O) {
    const __m512i rot = _mm512_set_epi64(64 - 9, 64 - 7, 64 - 8, 64 - 1, 9, 7, 8, 1);
    const __m512i rot2 = _mm512_set_epi64(64 - 18, 64 - 14, 64 - 16, 64 - 2, 18, 14, 16, 2);
#define H_ 0x7E7E7E7E7E7E7E7EULL
    /* keep: where a step in that lane may land (no wrap-around region). */
    const __m512i keep = _mm512_set_epi64(
        (long long)(~0ULL >> 9), (long long)(~0ULL >> 7), (long long)(~0ULL >> 8),
        (long long)(~0ULL >> 1), (long long)(~0ULL << 9), (long long)(~0ULL << 7),
        (long long)(~0ULL << 8), (long long)(~0ULL << 1));
    const __m512i cols = _mm512_set_epi64((long long)H_, (long long)H_, -1LL, (long long)H_,
                                          (long long)H_, (long long)H_, -1LL, (long long)H_);
#undef H_
    __m512i pp = _mm512_set1_epi64((long long)P);
    __m512i mo = _mm512_and_si512(_mm512_and_si512(_mm512_set1_epi64((long long)O), cols), keep);
    __m512i f = _mm512_and_si512(mo, _mm512_rolv_epi64(pp, rot));
    f = _mm512_or_si512(f, _mm512_and_si512(mo, _mm512_rolv_epi64(f, rot)));
    __m512i pre = _mm512_and_si512(mo, _mm512_rolv_epi64(mo, rot));
    f = _mm512_or_si512(f, _mm512_and_si512(pre, _mm512_rolv_epi64(f, rot2)));
    f = _mm512_or_si512(f, _mm512_and_si512(pre, _mm512_rolv_epi64(f, rot2)));
    __m512i m = _mm512_and_si512(_mm512_rolv_epi64(f, rot), keep);
    __m256i h = _mm256_or_si256(_mm512_castsi512_si256(m), _mm512_extracti64x4_epi64(m, 1));
    return rv_reversi_or4_avx2(h) & ~(P | O);
}

/*
 * The AVX-512 pair to use: rv_reversi_moves_avx512() and
 * rv_reversi_flips_avx512(). Measured on the build machine (AMD Zen 4, which
 * splits 512-bit operations in two; perft 11 CPU time): the all-512-bit
 * versions below (*_zmm) 0.278 s, the AVX2 code 0.266 s, the AVX2 code
 * compiled for AVX-512VL (vpternlogq fuses the logic) 0.240 s, with the
 * lzcnt flips 0.208 s. The *_zmm versions stay for CPUs with full-width
 * units and as a cross-check in the tests.
 */

/* Moves: the 256-bit flood of rv_reversi_moves_avx2(), AVX-512VL code. */
static RV_TARGET_AVX512 inline uint64_t rv_reversi_moves_avx512(uint64_t P, uint64_t O) {
    return rv_reversi_moves_avx2(P, O);
}

/*
 * Flips in two 256-bit halves with AVX-512VL/CD: as rv_reversi_flips_avx2()
 * for the up rays, and for the down rays the blocker comes straight from
 * lzcnt (64 when none); mask registers select the runs that end in P.
 */
static RV_TARGET_AVX512 inline uint64_t rv_reversi_flips_avx512(uint64_t P, uint64_t O, int sq) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i ones = _mm256_set1_epi64x(-1LL);
    const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    const __m256i sixty4 = _mm256_set1_epi64x(64);
    __m256i pp = _mm256_set1_epi64x((long long)P);
    __m256i oo = _mm256_set1_epi64x((long long)O);
    __m256i ru = _mm256_loadu_si256((const __m256i *)&rv_reversi_rays[sq][0]);
    __m256i rd = _mm256_loadu_si256((const __m256i *)&rv_reversi_rays[sq][4]);
    __m256i tu = _mm256_andnot_si256(oo, ru);
    __m256i b = _mm256_and_si256(tu, _mm256_sub_epi64(zero, tu));
    __m256i cu = _mm256_and_si256(ru, _mm256_sub_epi64(b, one));
    __m256i td = _mm256_andnot_si256(oo, rd);
    __m256i lz = _mm256_lzcnt_epi64(td);
    __m256i cd = _mm256_and_si256(rd, _mm256_sllv_epi64(ones, _mm256_sub_epi64(sixty4, lz)));
    __m256i bd = _mm256_srlv_epi64(top, lz);
    __m256i f = _mm256_or_si256(_mm256_maskz_mov_epi64(_mm256_test_epi64_mask(b, pp), cu),
                                _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(bd, pp), cd));
    return rv_reversi_or4_avx2(f);
}

/*
 * Flips with all eight rays in one register. Up lanes (0-3): blocker b =
 * lowest bit of r & ~O, run r & (b - 1). Down lanes (4-7): blocker = highest
 * bit, found with lzcnt (64 when none), run = ray squares above it. The run
 * counts when the blocker is P's.
 */
static RV_TARGET_AVX512 inline uint64_t rv_reversi_flips_avx512_zmm(uint64_t P, uint64_t O,
                                                                   int sq) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i ones = _mm512_set1_epi64(-1LL);
    const __m512i top = _mm512_set1_epi64((long long)0x8000000000000000ULL);
    const __m512i sixty4 = _mm512_set1_epi64(64);
    __m512i r = _mm512_loadu_si512((const void *)rv_reversi_rays[sq]);
    __m512i t = _mm512_andnot_si512(_mm512_set1_epi64((long long)O), r);
    __m512i b = _mm512_and_si512(t, _mm512_sub_epi64(zero, t));
    __m512i cu = _mm512_and_si512(r, _mm512_sub_epi64(b, one));
    __m512i lz = _mm512_lzcnt_epi64(t);
    __m512i cd = _mm512_and_si512(r, _mm512_sllv_epi64(ones, _mm512_sub_epi64(sixty4, lz)));
    __m512i bd = _mm512_srlv_epi64(top, lz);
    __m512i c = _mm512_mask_blend_epi64(0xF0, cu, cd);
    __m512i blocker = _mm512_mask_blend_epi64(0xF0, b, bd);
    __mmask8 ok = _mm512_test_epi64_mask(blocker, _mm512_set1_epi64((long long)P));
    __m512i f = _mm512_maskz_mov_epi64(ok, c);
    __m256i h = _mm256_or_si256(_mm512_castsi512_si256(f), _mm512_extracti64x4_epi64(f, 1));
    return rv_reversi_or4_avx2(h);
}

#else
#define RV_REVERSI_X86_SIMD 0
#endif

#endif
