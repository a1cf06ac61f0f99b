/*
 * Perft with run-time CPU dispatch: perft_impl.h is compiled once per code
 * path (plain C, and on x86-64 also AVX2 and AVX-512 through gcc/clang
 * target attributes), and rv_reversi_perft() picks one per call.
 */
#include <stdlib.h>
#include <string.h>

#include "renversi/reversi.h"
#include "reversi/bitboard_simd.h"

/* ---- plain C */
#define PF_(name) perft_##name##_plain
#define PF_ATTR
#define PF_MOVES(P, O) rv_reversi_moves_bb(P, O)
#define PF_FLIPS(P, O, sq) rv_reversi_flips_bb(P, O, sq)
#include "reversi/perft_impl.h"
#undef PF_
#undef PF_ATTR
#undef PF_MOVES
#undef PF_FLIPS

#if RV_REVERSI_X86_SIMD
/* ---- AVX2 */
#define PF_(name) perft_##name##_avx2
#define PF_ATTR RV_TARGET_AVX2
#define PF_MOVES(P, O) rv_reversi_moves_avx2(P, O)
#define PF_FLIPS(P, O, sq) rv_reversi_flips_avx2(P, O, sq)
#include "reversi/perft_impl.h"
#undef PF_
#undef PF_ATTR
#undef PF_MOVES
#undef PF_FLIPS

/* ---- AVX-512 (see bitboard_simd.h for which primitives and why) */
#define PF_(name) perft_##name##_avx512
#define PF_ATTR RV_TARGET_AVX512
#define PF_MOVES(P, O) rv_reversi_moves_avx512(P, O)
#define PF_FLIPS(P, O, sq) rv_reversi_flips_avx512(P, O, sq)
#include "reversi/perft_impl.h"
#undef PF_
#undef PF_ATTR
#undef PF_MOVES
#undef PF_FLIPS
#endif

rv_reversi_simd rv_reversi_simd_best(void) {
    rv_reversi_simd best = rv_reversi_simd_cpu();
    /* The environment can only lower the choice, so it can never select
     * instructions the CPU lacks. */
    const char *env = getenv("RV_REVERSI_SIMD");
    if (env) {
        rv_reversi_simd want = best;
        if (strcmp(env, "plain") == 0) want = RV_REVERSI_SIMD_PLAIN;
        else if (strcmp(env, "avx2") == 0) want = RV_REVERSI_SIMD_AVX2;
        else if (strcmp(env, "avx512") == 0) want = RV_REVERSI_SIMD_AVX512;
        if (want < best) best = want;
    }
    return best;
}

const char *rv_reversi_simd_name(rv_reversi_simd s) {
    switch (s) {
    case RV_REVERSI_SIMD_PLAIN: return "plain";
    case RV_REVERSI_SIMD_AVX2: return "avx2";
    case RV_REVERSI_SIMD_AVX512: return "avx512";
    default: return "auto";
    }
}

rv_status rv_reversi_perft_with(const rv_reversi_pos *pos, int depth, int alive_only,
                                rv_reversi_simd simd, uint64_t *nodes) {
    if (simd == RV_REVERSI_SIMD_AUTO) simd = rv_reversi_simd_best();
    if (simd < RV_REVERSI_SIMD_AUTO || simd > rv_reversi_simd_cpu()) return RV_EINVAL;
    uint64_t a = alive_only ? 1 : 0, n;
    switch (simd) {
#if RV_REVERSI_X86_SIMD
    case RV_REVERSI_SIMD_AVX512: n = perft_root_avx512(pos->player, pos->opponent, depth, a); break;
    case RV_REVERSI_SIMD_AVX2: n = perft_root_avx2(pos->player, pos->opponent, depth, a); break;
#endif
    default: n = perft_root_plain(pos->player, pos->opponent, depth, a); break;
    }
    *nodes = n;
    return RV_OK;
}

uint64_t rv_reversi_perft(const rv_reversi_pos *pos, int depth, int alive_only) {
    uint64_t n = 0;
    rv_reversi_perft_with(pos, depth, alive_only, RV_REVERSI_SIMD_AUTO, &n);
    return n;
}
