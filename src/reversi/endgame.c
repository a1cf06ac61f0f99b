/*
 * The exact endgame solver: fail-soft negamax with principal variation search.
 *
 * Three regimes, by the number of empty squares n:
 *   - n == 1: the last move is played by counting its flips (no board update);
 *   - n <= EG_SMALL: no move generation and no transposition table: every
 *     empty square is tried, those in quadrants with an odd number of empties
 *     first (parity: the last move of a region usually goes to whoever moves
 *     first in an odd region), corners before X- and C-squares;
 *   - larger n: generated moves sorted fastest-first (fewest replies for the
 *     opponent, corners weighted), the transposition-table move first, a
 *     stability cut-off (the stable discs of the opponent bound the score
 *     from above), and the table.
 * Scores are final disc differences for the side to move, empties to the
 * winner (spec/othello.md, "Rules").
 */
#include "reversi/ai_internal.h"
#include "reversi/bitboard_simd.h"
#include "reversi/endgame_stable.h"

#ifndef EG_SMALL
#define EG_SMALL 7   /* up to this many empties: the small solver */
#endif
#ifndef EG_TT_MIN
#define EG_TT_MIN 9  /* from this many empties on: transposition table */
#endif
#ifndef EG_ETC_MIN
#define EG_ETC_MIN 14 /* above this many empties: enhanced transposition cut-offs */
#endif

/* Weights of the fastest-first move ordering (lower key first). */
#ifndef KW_MOB
#define KW_MOB 16
#endif
#ifndef KW_CORNER
#define KW_CORNER 32
#endif
#ifndef KW_PAR
#define KW_PAR 4
#endif
#ifndef KW_POT
#define KW_POT 6
#endif
#ifndef KW_OWNMOB
#define KW_OWNMOB 4
#endif
#ifndef KW_CSTAB
#define KW_CSTAB 8
#endif

static const uint64_t QUADRANT[4] = {0x000000000F0F0F0FULL, 0x00000000F0F0F0F0ULL,
                                     0x0F0F0F0F00000000ULL, 0xF0F0F0F000000000ULL};

/* The quadrant of square x (0..3, the index into QUADRANT) as a bit. */
#define QUAD_BIT(x) (1u << ((((x) >> 2) & 1) | (((x) >> 4) & 2)))

/* The union of the quadrants whose bit is set in a 4-bit parity word. */
#define PM_(p)                                                                             \
    (((p) & 1 ? QUADRANT_0 : 0) | ((p) & 2 ? QUADRANT_1 : 0) | ((p) & 4 ? QUADRANT_2 : 0) | \
     ((p) & 8 ? QUADRANT_3 : 0))
#define QUADRANT_0 0x000000000F0F0F0FULL
#define QUADRANT_1 0x00000000F0F0F0F0ULL
#define QUADRANT_2 0x0F0F0F0F00000000ULL
#define QUADRANT_3 0xF0F0F0F000000000ULL
static const uint64_t PARITY_MASK[16] = {PM_(0),  PM_(1),  PM_(2),  PM_(3), PM_(4),  PM_(5),
                                         PM_(6),  PM_(7),  PM_(8),  PM_(9), PM_(10), PM_(11),
                                         PM_(12), PM_(13), PM_(14), PM_(15)};

typedef struct eg_move {
    uint64_t flips;
    int sq;
    int key;
} eg_move;

#define EGF(name) name##_plain
#define EG_MOVES rv_reversi_moves_bb
#define EG_FLIPS rv_reversi_flips_bb
#include "reversi/endgame_impl.h"
#undef EGF
#undef EG_MOVES
#undef EG_FLIPS

#if RV_REVERSI_X86_SIMD
#if defined(__clang__)
#define EG_TARGET_BEGIN_AVX2 \
    _Pragma("clang attribute push(__attribute__((target(\"avx2,bmi,bmi2,popcnt\"))), apply_to = function)")
#define EG_TARGET_BEGIN_AVX512 \
    _Pragma("clang attribute push(__attribute__((target(\"avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx2,bmi,bmi2,popcnt,lzcnt\"))), apply_to = function)")
#define EG_TARGET_END _Pragma("clang attribute pop")
#else
#define EG_TARGET_BEGIN_AVX2 \
    _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,bmi,bmi2,popcnt\")")
#define EG_TARGET_BEGIN_AVX512 \
    _Pragma("GCC push_options") \
    _Pragma("GCC target(\"avx512f,avx512vl,avx512cd,avx512bw,avx512dq,avx2,bmi,bmi2,popcnt,lzcnt\")")
#define EG_TARGET_END _Pragma("GCC pop_options")
#endif

EG_TARGET_BEGIN_AVX2
#define EGF(name) name##_avx2
#define EG_MOVES rv_reversi_moves_avx2
#define EG_FLIPS rv_reversi_flips_avx2
#include "reversi/endgame_impl.h"
#undef EGF
#undef EG_MOVES
#undef EG_FLIPS
EG_TARGET_END

EG_TARGET_BEGIN_AVX512
#define EGF(name) name##_avx512
#define EG_MOVES rv_reversi_moves_avx512
#define EG_FLIPS rv_reversi_flips_avx512
#include "reversi/endgame_impl.h"
#undef EGF
#undef EG_MOVES
#undef EG_FLIPS
EG_TARGET_END
#endif

int rv_ai_endgame(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int *best) {
#if RV_REVERSI_X86_SIMD
    if (ai->simd == RV_REVERSI_SIMD_AVX512) return eg_root_avx512(ai, P, O, alpha, beta, best);
    if (ai->simd == RV_REVERSI_SIMD_AVX2) return eg_root_avx2(ai, P, O, alpha, beta, best);
#endif
    return eg_root_plain(ai, P, O, alpha, beta, best);
}
