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

#ifndef EG_CHEAP_MAX
#define EG_CHEAP_MAX 9
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

/* The squares next to each square: a move needs an opponent disc there, so
 * the small solver skips squares without one before computing flips. */
static const uint64_t EG_NEIGHBOUR[64] = {
    0x0000000000000302ULL, 0x0000000000000705ULL, 0x0000000000000E0AULL, 0x0000000000001C14ULL,
    0x0000000000003828ULL, 0x0000000000007050ULL, 0x000000000000E0A0ULL, 0x000000000000C040ULL,
    0x0000000000030203ULL, 0x0000000000070507ULL, 0x00000000000E0A0EULL, 0x00000000001C141CULL,
    0x0000000000382838ULL, 0x0000000000705070ULL, 0x0000000000E0A0E0ULL, 0x0000000000C040C0ULL,
    0x0000000003020300ULL, 0x0000000007050700ULL, 0x000000000E0A0E00ULL, 0x000000001C141C00ULL,
    0x0000000038283800ULL, 0x0000000070507000ULL, 0x00000000E0A0E000ULL, 0x00000000C040C000ULL,
    0x0000000302030000ULL, 0x0000000705070000ULL, 0x0000000E0A0E0000ULL, 0x0000001C141C0000ULL,
    0x0000003828380000ULL, 0x0000007050700000ULL, 0x000000E0A0E00000ULL, 0x000000C040C00000ULL,
    0x0000030203000000ULL, 0x0000070507000000ULL, 0x00000E0A0E000000ULL, 0x00001C141C000000ULL,
    0x0000382838000000ULL, 0x0000705070000000ULL, 0x0000E0A0E0000000ULL, 0x0000C040C0000000ULL,
    0x0003020300000000ULL, 0x0007050700000000ULL, 0x000E0A0E00000000ULL, 0x001C141C00000000ULL,
    0x0038283800000000ULL, 0x0070507000000000ULL, 0x00E0A0E000000000ULL, 0x00C040C000000000ULL,
    0x0302030000000000ULL, 0x0705070000000000ULL, 0x0E0A0E0000000000ULL, 0x1C141C0000000000ULL,
    0x3828380000000000ULL, 0x7050700000000000ULL, 0xE0A0E00000000000ULL, 0xC040C00000000000ULL,
    0x0203000000000000ULL, 0x0507000000000000ULL, 0x0A0E000000000000ULL, 0x141C000000000000ULL,
    0x2838000000000000ULL, 0x5070000000000000ULL, 0xA0E0000000000000ULL, 0x40C0000000000000ULL,
};

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
