/*
 * The exact endgame solver: fail-soft negamax with principal variation search.
 *
 * Three regimes, by the number of empty squares n:
 *   - n == 1: the last move is played by counting its flips (no board update);
 *   - n <= EG_SMALL: no move generation and no transposition table: every
 *     empty square next to an opponent disc is tried, those in quadrants
 *     with an odd number of empties first (parity: the last move of a region
 *     usually goes to whoever moves first in an odd region), corners before
 *     X- and C-squares;
 *   - larger n: generated moves sorted fastest-first (fewest replies for the
 *     opponent, corners weighted), the transposition-table move first, a
 *     stability cut-off (the stable discs of the opponent bound the score
 *     from above), and the table.
 * Scores are final disc differences for the side to move, empties to the
 * winner (spec/othello.md, "Rules").
 */
#include "reversi/ai_internal.h"
#include "reversi/bitboard_simd.h"
#include "reversi/endgame_probcut.h"
#include "reversi/endgame_stable.h"
#include "reversi/pattern.h"

#ifndef EG_SMALL
#define EG_SMALL 6   /* up to this many empties: the small solver (7: 7% slower) */
#endif
#ifndef EG_TT_MIN
#define EG_TT_MIN 8  /* from this many empties on: transposition table */
#endif
#ifndef EG_ETC_MIN
#define EG_ETC_MIN 12 /* above this many empties: enhanced transposition cut-offs */
#endif

#ifndef EG_LAST4
#define EG_LAST4 1 /* a dedicated solver for the last four empties */
#endif
#ifndef EG_SMALL_SPLIT
#define EG_SMALL_SPLIT 1 /* the small solver compiled once per count of empties (5, 6) */
#endif
#ifndef EG_SMALL_FLAT
#define EG_SMALL_FLAT 1 /* the small solver's moves walked in one loop (BMI2 copies) */
#endif
#ifndef EG_SORT4_TABLE
#define EG_SORT4_TABLE 1 /* the last four empties ordered by EG_SORT4 (BMI2 copies) */
#endif

/* From EG_IID_MIN empties on, a node of the exact pass without a table move
 * first runs a selective search (ProbCut level EG_IID_LEVEL) of itself, as a
 * root, for one (0: never). */
#ifndef EG_IID_MIN
#define EG_IID_MIN 18
#endif
#ifndef EG_IID_LEVEL
#define EG_IID_LEVEL 2
#endif

#ifndef EG_EARLY_GEN
#define EG_EARLY_GEN 1 /* above EG_TT_MIN empties: children generated and prefetched before the probe */
#endif

#ifndef EG_HASH_FIRST
#define EG_HASH_FIRST 1 /* the table's move searched before the others are keyed */
#endif
#ifndef EG_KEYS_EARLY
/* from EG_TT_MIN to EG_EVAL_MIN - 1 empties: the keys too before the probe */
#define EG_KEYS_EARLY (EG_EARLY_GEN && EG_HASH_FIRST)
#endif

/*
 * Selective passes (ai->eg_sel > 0, run by solve.c before the exact one to
 * fill the table with good moves and a close score): ProbCut from
 * EG_PC_MIN empties on with a midgame search of EG_PC_DEPTH(n) plies.
 * exact score = shallow + EG_PC_BIAS[d] with residual sd EG_PC_SIGMA[d]
 * (centidiscs; endgame_probcut.c, fitted by `rv-train eg-probcut-fit` on
 * positions solved exactly, scripts/fit-eg-probcut.sh; the slope is taken as
 * 1, which it is within a few percent at every depth).
 * Results of a pass go to the table with its certainty (EG_CERT: 0-2 for the
 * levels 1-3, 3 exact) in the depth's low bits; bounds are used only by passes at
 * least as certain, moves by every pass.
 */
#ifndef EG_PC
#define EG_PC 1
#endif
#ifndef EG_PC_MIN
#define EG_PC_MIN 12
#endif
#ifndef EG_PC_DEPTH
#define EG_PC_DEPTH(n) ((n) >= 16 ? ((n) - 10) / 3 : 2)
#endif
#define EG_PC_BIAS rv_eg_pc_bias   /* endgame_probcut.c, refitted by rv-train eg-probcut-fit */
#define EG_PC_SIGMA rv_eg_pc_sigma
/* The confidence t of each selective level, in hundredths of sigma (index:
 * ai->eg_sel, 1..3: the table keeps the certainty in 2 bits; solve.c runs
 * levels 1 and 2). */
static const int EG_PC_T[4] = {0, 70, 130, 200};
#define EG_CERT(ai) ((ai)->eg_sel ? (ai)->eg_sel - 1 : 3)
#define EG_TT_CERT(e) ((e)->depth & 3)
#define EG_TT_DEPTH(n, c) (((n) << 2) | (c))

#ifndef EG_SMALL_STAB_MIN
#define EG_SMALL_STAB_MIN 4 /* the small solver's stability cut-off from this many empties */
#endif

#ifndef EG_STAB4_ALPHA
#define EG_STAB4_ALPHA 6 /* the stability cut-off at 4 empties from this alpha on */
#endif

#ifndef EG_CHEAP_MAX
#define EG_CHEAP_MAX 9 /* up to this many empties: order by mobility, corners, parity only */
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

/* From EG_EVAL_MIN empties on, the evaluation of each child joins the
 * ordering key, KW_EVAL per disc; from EG_SHALLOW_MIN on, a shallow midgame
 * search of (empties - 14) / 3 plies replaces the evaluation. */
#ifndef EG_EVAL_MIN
#define EG_EVAL_MIN 14
#endif
#ifndef KW_EVAL
#define KW_EVAL 8
#endif
#ifndef EG_SHALLOW_MIN
#define EG_SHALLOW_MIN 18
#endif
/* The shallow search's plies at n empties: (n - EG_SHALLOW_OFF) / 3, and
 * (n - EG_SHALLOW_TOP_OFF) / 3 from EG_SHALLOW_TOP to EG_SHALLOW_TOP_MAX
 * empties (one ply more at 22, 24 and 25: FFO #53 and #54 about 10% fewer
 * nodes, from the selective searches for a move, whose moves improve; with
 * the half-open window below their cost stays what it was; BENCHMARKS.md,
 * sixteenth and seventeenth sessions). */
#ifndef EG_SHALLOW_OFF
#define EG_SHALLOW_OFF 14
#endif
#ifndef EG_SHALLOW_TOP
#define EG_SHALLOW_TOP 22
#endif
#ifndef EG_SHALLOW_TOP_OFF
#define EG_SHALLOW_TOP_OFF 12
#endif
#ifndef EG_SHALLOW_TOP_MAX
#define EG_SHALLOW_TOP_MAX 26
#endif
#define EG_SHALLOW_DEPTH(n)                                                                   \
    (((n) - ((n) >= EG_SHALLOW_TOP && (n) <= EG_SHALLOW_TOP_MAX ? EG_SHALLOW_TOP_OFF          \
                                                                  : EG_SHALLOW_OFF)) /         \
     3)
/* The shallow searches' window (the mover's view): [alpha - EG_SORT_DELTA,
 * +inf] in centidiscs (0: the full window): a move that looks more than 6
 * discs below alpha is only bounded, which is all its place needs. */
#ifndef EG_SORT_DELTA
#define EG_SORT_DELTA 600
#endif
/* The evaluations of the EG_EVAL_MIN..EG_SHALLOW_MIN-1 keys from the node's
 * pattern state, moved to each child (the same values as a fresh evaluation
 * of the child, at a fraction of its cost), where the node keys at least
 * EG_EVAL_INCR moves (0: a fresh evaluation of each child). */
#ifndef EG_EVAL_INCR
#define EG_EVAL_INCR 3
#endif

/* An ordering key is key * EG_KEY_IDX + the move's index (at most 32 moves). */
#define EG_KEY_IDX 32

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

#if RV_REVERSI_X86_SIMD
/*
 * The last move counted with BMI2: the four lines through the square are
 * extracted (pext) as 8-bit patterns of the mover's discs; every other square
 * of the line is the opponent's (one empty square left), so a table indexed
 * by the square's place in the line and the pattern gives the flips.
 * EG_LINE_FLIPS[pos][pat]: discs flipped by a move at pos of a line whose own
 * discs are pat, every other square (but pos) the opponent's; squares beyond
 * a short line read as 0 = opponent's, and a run reaching the end of the line
 * flips nothing, as on the board.
 */
static const uint8_t EG_LINE_FLIPS[8][256] = {
    {0,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,4,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,5,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,4,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,6,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,4,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,5,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,4,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0,3,0,0,0,1,0,0,0,2,0,0,0,1,0,0,0},
    {0,0,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,3,3,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,4,4,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,3,3,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,5,5,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,3,3,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,4,4,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0,3,3,0,0,0,0,0,0,1,1,0,0,0,0,0,0,2,2,0,0,0,0,0,0,1,1,0,0,0,0,0,0},
    {0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,2,3,2,2,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,3,4,3,3,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,2,3,2,2,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,4,5,4,4,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,2,3,2,2,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,3,4,3,3,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0,2,3,2,2,0,0,0,0,0,1,0,0,0,0,0,0,1,2,1,1,0,0,0,0,0,1,0,0,0,0,0,0},
    {0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,1,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,2,4,3,3,2,2,2,2,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,1,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,3,5,4,4,3,3,3,3,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,1,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,2,4,3,3,2,2,2,2,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,1,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0},
    {0,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,4,3,3,2,2,2,2,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,5,4,4,3,3,3,3,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,4,3,3,2,2,2,2,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3,2,2,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0},
    {0,4,3,3,2,2,2,2,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4,3,3,2,2,2,2,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,5,4,4,3,3,3,3,2,2,2,2,2,2,2,2,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4,3,3,2,2,2,2,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0},
    {0,5,4,4,3,3,3,3,2,2,2,2,2,2,2,2,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,5,4,4,3,3,3,3,2,2,2,2,2,2,2,2,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0},
    {0,6,5,5,4,4,4,4,3,3,3,3,3,3,3,3,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0},
};
static const uint64_t EG_LINE_MASK[64][4] = {
    {0x00000000000000FFULL, 0x0101010101010101ULL, 0x8040201008040201ULL, 0x0000000000000001ULL},
    {0x00000000000000FFULL, 0x0202020202020202ULL, 0x0080402010080402ULL, 0x0000000000000102ULL},
    {0x00000000000000FFULL, 0x0404040404040404ULL, 0x0000804020100804ULL, 0x0000000000010204ULL},
    {0x00000000000000FFULL, 0x0808080808080808ULL, 0x0000008040201008ULL, 0x0000000001020408ULL},
    {0x00000000000000FFULL, 0x1010101010101010ULL, 0x0000000080402010ULL, 0x0000000102040810ULL},
    {0x00000000000000FFULL, 0x2020202020202020ULL, 0x0000000000804020ULL, 0x0000010204081020ULL},
    {0x00000000000000FFULL, 0x4040404040404040ULL, 0x0000000000008040ULL, 0x0001020408102040ULL},
    {0x00000000000000FFULL, 0x8080808080808080ULL, 0x0000000000000080ULL, 0x0102040810204080ULL},
    {0x000000000000FF00ULL, 0x0101010101010101ULL, 0x4020100804020100ULL, 0x0000000000000102ULL},
    {0x000000000000FF00ULL, 0x0202020202020202ULL, 0x8040201008040201ULL, 0x0000000000010204ULL},
    {0x000000000000FF00ULL, 0x0404040404040404ULL, 0x0080402010080402ULL, 0x0000000001020408ULL},
    {0x000000000000FF00ULL, 0x0808080808080808ULL, 0x0000804020100804ULL, 0x0000000102040810ULL},
    {0x000000000000FF00ULL, 0x1010101010101010ULL, 0x0000008040201008ULL, 0x0000010204081020ULL},
    {0x000000000000FF00ULL, 0x2020202020202020ULL, 0x0000000080402010ULL, 0x0001020408102040ULL},
    {0x000000000000FF00ULL, 0x4040404040404040ULL, 0x0000000000804020ULL, 0x0102040810204080ULL},
    {0x000000000000FF00ULL, 0x8080808080808080ULL, 0x0000000000008040ULL, 0x0204081020408000ULL},
    {0x0000000000FF0000ULL, 0x0101010101010101ULL, 0x2010080402010000ULL, 0x0000000000010204ULL},
    {0x0000000000FF0000ULL, 0x0202020202020202ULL, 0x4020100804020100ULL, 0x0000000001020408ULL},
    {0x0000000000FF0000ULL, 0x0404040404040404ULL, 0x8040201008040201ULL, 0x0000000102040810ULL},
    {0x0000000000FF0000ULL, 0x0808080808080808ULL, 0x0080402010080402ULL, 0x0000010204081020ULL},
    {0x0000000000FF0000ULL, 0x1010101010101010ULL, 0x0000804020100804ULL, 0x0001020408102040ULL},
    {0x0000000000FF0000ULL, 0x2020202020202020ULL, 0x0000008040201008ULL, 0x0102040810204080ULL},
    {0x0000000000FF0000ULL, 0x4040404040404040ULL, 0x0000000080402010ULL, 0x0204081020408000ULL},
    {0x0000000000FF0000ULL, 0x8080808080808080ULL, 0x0000000000804020ULL, 0x0408102040800000ULL},
    {0x00000000FF000000ULL, 0x0101010101010101ULL, 0x1008040201000000ULL, 0x0000000001020408ULL},
    {0x00000000FF000000ULL, 0x0202020202020202ULL, 0x2010080402010000ULL, 0x0000000102040810ULL},
    {0x00000000FF000000ULL, 0x0404040404040404ULL, 0x4020100804020100ULL, 0x0000010204081020ULL},
    {0x00000000FF000000ULL, 0x0808080808080808ULL, 0x8040201008040201ULL, 0x0001020408102040ULL},
    {0x00000000FF000000ULL, 0x1010101010101010ULL, 0x0080402010080402ULL, 0x0102040810204080ULL},
    {0x00000000FF000000ULL, 0x2020202020202020ULL, 0x0000804020100804ULL, 0x0204081020408000ULL},
    {0x00000000FF000000ULL, 0x4040404040404040ULL, 0x0000008040201008ULL, 0x0408102040800000ULL},
    {0x00000000FF000000ULL, 0x8080808080808080ULL, 0x0000000080402010ULL, 0x0810204080000000ULL},
    {0x000000FF00000000ULL, 0x0101010101010101ULL, 0x0804020100000000ULL, 0x0000000102040810ULL},
    {0x000000FF00000000ULL, 0x0202020202020202ULL, 0x1008040201000000ULL, 0x0000010204081020ULL},
    {0x000000FF00000000ULL, 0x0404040404040404ULL, 0x2010080402010000ULL, 0x0001020408102040ULL},
    {0x000000FF00000000ULL, 0x0808080808080808ULL, 0x4020100804020100ULL, 0x0102040810204080ULL},
    {0x000000FF00000000ULL, 0x1010101010101010ULL, 0x8040201008040201ULL, 0x0204081020408000ULL},
    {0x000000FF00000000ULL, 0x2020202020202020ULL, 0x0080402010080402ULL, 0x0408102040800000ULL},
    {0x000000FF00000000ULL, 0x4040404040404040ULL, 0x0000804020100804ULL, 0x0810204080000000ULL},
    {0x000000FF00000000ULL, 0x8080808080808080ULL, 0x0000008040201008ULL, 0x1020408000000000ULL},
    {0x0000FF0000000000ULL, 0x0101010101010101ULL, 0x0402010000000000ULL, 0x0000010204081020ULL},
    {0x0000FF0000000000ULL, 0x0202020202020202ULL, 0x0804020100000000ULL, 0x0001020408102040ULL},
    {0x0000FF0000000000ULL, 0x0404040404040404ULL, 0x1008040201000000ULL, 0x0102040810204080ULL},
    {0x0000FF0000000000ULL, 0x0808080808080808ULL, 0x2010080402010000ULL, 0x0204081020408000ULL},
    {0x0000FF0000000000ULL, 0x1010101010101010ULL, 0x4020100804020100ULL, 0x0408102040800000ULL},
    {0x0000FF0000000000ULL, 0x2020202020202020ULL, 0x8040201008040201ULL, 0x0810204080000000ULL},
    {0x0000FF0000000000ULL, 0x4040404040404040ULL, 0x0080402010080402ULL, 0x1020408000000000ULL},
    {0x0000FF0000000000ULL, 0x8080808080808080ULL, 0x0000804020100804ULL, 0x2040800000000000ULL},
    {0x00FF000000000000ULL, 0x0101010101010101ULL, 0x0201000000000000ULL, 0x0001020408102040ULL},
    {0x00FF000000000000ULL, 0x0202020202020202ULL, 0x0402010000000000ULL, 0x0102040810204080ULL},
    {0x00FF000000000000ULL, 0x0404040404040404ULL, 0x0804020100000000ULL, 0x0204081020408000ULL},
    {0x00FF000000000000ULL, 0x0808080808080808ULL, 0x1008040201000000ULL, 0x0408102040800000ULL},
    {0x00FF000000000000ULL, 0x1010101010101010ULL, 0x2010080402010000ULL, 0x0810204080000000ULL},
    {0x00FF000000000000ULL, 0x2020202020202020ULL, 0x4020100804020100ULL, 0x1020408000000000ULL},
    {0x00FF000000000000ULL, 0x4040404040404040ULL, 0x8040201008040201ULL, 0x2040800000000000ULL},
    {0x00FF000000000000ULL, 0x8080808080808080ULL, 0x0080402010080402ULL, 0x4080000000000000ULL},
    {0xFF00000000000000ULL, 0x0101010101010101ULL, 0x0100000000000000ULL, 0x0102040810204080ULL},
    {0xFF00000000000000ULL, 0x0202020202020202ULL, 0x0201000000000000ULL, 0x0204081020408000ULL},
    {0xFF00000000000000ULL, 0x0404040404040404ULL, 0x0402010000000000ULL, 0x0408102040800000ULL},
    {0xFF00000000000000ULL, 0x0808080808080808ULL, 0x0804020100000000ULL, 0x0810204080000000ULL},
    {0xFF00000000000000ULL, 0x1010101010101010ULL, 0x1008040201000000ULL, 0x1020408000000000ULL},
    {0xFF00000000000000ULL, 0x2020202020202020ULL, 0x2010080402010000ULL, 0x2040800000000000ULL},
    {0xFF00000000000000ULL, 0x4040404040404040ULL, 0x4020100804020100ULL, 0x4080000000000000ULL},
    {0xFF00000000000000ULL, 0x8080808080808080ULL, 0x8040201008040201ULL, 0x8000000000000000ULL},
};
/*
 * The order of the last four empties without branches: with e0 < e1 < e2 <
 * e3 the empty squares, bit i of the index's low nibble is set when e_i lies
 * in an even quadrant and bit 4 + i when it is an X- or C-square; entry j
 * (bits 2j..2j+1) of EG_SORT4[index] is the i of the j-th square tried, the
 * small solver's four classes in a stable sort (so the same order as its
 * class-by-class walk; the walk's data-dependent loop exits were 12% of the
 * small solver's samples on FFO #52).
 */
#if EG_SORT4_TABLE && EG_LAST4 /* used by the last four's order only */
static const uint8_t EG_SORT4[256] = {
    0xE4, 0x39, 0x78, 0x4E, 0xB4, 0x8D, 0x9C, 0x93, 0xE4, 0xC9, 0xD8, 0xD2, 0xE4, 0xE1, 0xE4, 0xE4,
    0x39, 0x39, 0x4E, 0x1E, 0x8D, 0x2D, 0x93, 0x27, 0xC9, 0x39, 0xD2, 0x36, 0xE1, 0x39, 0xE4, 0x39,
    0x78, 0x1E, 0x78, 0x4E, 0x9C, 0x87, 0x6C, 0x63, 0xD8, 0xC6, 0x78, 0x72, 0xE4, 0xE1, 0x78, 0x78,
    0x4E, 0x1E, 0x4E, 0x4E, 0x93, 0x27, 0x63, 0x4B, 0xD2, 0x36, 0x72, 0x4E, 0xE4, 0x39, 0x78, 0x4E,
    0xB4, 0x2D, 0x6C, 0x4B, 0xB4, 0x8D, 0x9C, 0x93, 0xE4, 0xC9, 0xD8, 0xD2, 0xB4, 0xB1, 0xB4, 0xB4,
    0x8D, 0x2D, 0x63, 0x1B, 0x8D, 0x8D, 0x93, 0x87, 0xE1, 0x39, 0xD8, 0x36, 0xB1, 0x8D, 0xB4, 0x8D,
    0x9C, 0x27, 0x6C, 0x4B, 0x9C, 0x87, 0x9C, 0x93, 0xE4, 0xC9, 0x78, 0x72, 0xB4, 0xB1, 0x9C, 0x9C,
    0x93, 0x27, 0x63, 0x4B, 0x93, 0x87, 0x93, 0x93, 0xE4, 0x39, 0x78, 0x4E, 0xB4, 0x8D, 0x9C, 0x93,
    0xE4, 0x39, 0x78, 0x4E, 0xB4, 0x8D, 0x9C, 0x93, 0xE4, 0xC9, 0xD8, 0xD2, 0xE4, 0xE1, 0xE4, 0xE4,
    0xC9, 0x39, 0x72, 0x1E, 0xB1, 0x2D, 0x9C, 0x27, 0xC9, 0xC9, 0xD2, 0xC6, 0xE1, 0xC9, 0xE4, 0xC9,
    0xD8, 0x36, 0x78, 0x4E, 0xB4, 0x8D, 0x6C, 0x63, 0xD8, 0xC6, 0xD8, 0xD2, 0xE4, 0xE1, 0xD8, 0xD8,
    0xD2, 0x36, 0x72, 0x4E, 0xB4, 0x2D, 0x6C, 0x4B, 0xD2, 0xC6, 0xD2, 0xD2, 0xE4, 0xC9, 0xD8, 0xD2,
    0xE4, 0x39, 0x78, 0x4E, 0xB4, 0x8D, 0x9C, 0x93, 0xE4, 0xC9, 0xD8, 0xD2, 0xE4, 0xE1, 0xE4, 0xE4,
    0xE1, 0x39, 0x78, 0x1E, 0xB1, 0x8D, 0x9C, 0x87, 0xE1, 0xC9, 0xD8, 0xC6, 0xE1, 0xE1, 0xE4, 0xE1,
    0xE4, 0x39, 0x78, 0x4E, 0xB4, 0x8D, 0x9C, 0x93, 0xE4, 0xC9, 0xD8, 0xD2, 0xE4, 0xE1, 0xE4, 0xE4,
    0xE4, 0x39, 0x78, 0x4E, 0xB4, 0x8D, 0x9C, 0x93, 0xE4, 0xC9, 0xD8, 0xD2, 0xE4, 0xE1, 0xE4, 0xE4,
};
#endif
static const uint8_t EG_LINE_POS[64][4] = {
    {0, 0, 0, 0},
    {1, 0, 0, 0},
    {2, 0, 0, 0},
    {3, 0, 0, 0},
    {4, 0, 0, 0},
    {5, 0, 0, 0},
    {6, 0, 0, 0},
    {7, 0, 0, 0},
    {0, 1, 0, 1},
    {1, 1, 1, 1},
    {2, 1, 1, 1},
    {3, 1, 1, 1},
    {4, 1, 1, 1},
    {5, 1, 1, 1},
    {6, 1, 1, 1},
    {7, 1, 1, 0},
    {0, 2, 0, 2},
    {1, 2, 1, 2},
    {2, 2, 2, 2},
    {3, 2, 2, 2},
    {4, 2, 2, 2},
    {5, 2, 2, 2},
    {6, 2, 2, 1},
    {7, 2, 2, 0},
    {0, 3, 0, 3},
    {1, 3, 1, 3},
    {2, 3, 2, 3},
    {3, 3, 3, 3},
    {4, 3, 3, 3},
    {5, 3, 3, 2},
    {6, 3, 3, 1},
    {7, 3, 3, 0},
    {0, 4, 0, 4},
    {1, 4, 1, 4},
    {2, 4, 2, 4},
    {3, 4, 3, 4},
    {4, 4, 4, 3},
    {5, 4, 4, 2},
    {6, 4, 4, 1},
    {7, 4, 4, 0},
    {0, 5, 0, 5},
    {1, 5, 1, 5},
    {2, 5, 2, 5},
    {3, 5, 3, 4},
    {4, 5, 4, 3},
    {5, 5, 5, 2},
    {6, 5, 5, 1},
    {7, 5, 5, 0},
    {0, 6, 0, 6},
    {1, 6, 1, 6},
    {2, 6, 2, 5},
    {3, 6, 3, 4},
    {4, 6, 4, 3},
    {5, 6, 5, 2},
    {6, 6, 6, 1},
    {7, 6, 6, 0},
    {0, 7, 0, 7},
    {1, 7, 1, 6},
    {2, 7, 2, 5},
    {3, 7, 3, 4},
    {4, 7, 4, 3},
    {5, 7, 5, 2},
    {6, 7, 6, 1},
    {7, 7, 7, 0},
};
#endif

typedef struct eg_move {
    uint64_t flips;
    int sq;
    int key;
} eg_move;

/* A node's way from its parent when the parent has its pattern state: the
 * node's state is that state after the move (cheaper than a fresh one). */
typedef struct eg_from {
    const rv_pat_state *st; /* the parent's state */
    uint64_t flips;         /* the move's flips */
    int sq;                 /* the move */
} eg_from;

#define EGF(name) name##_plain
#define EG_MOVES rv_reversi_moves_bb
#define EG_FLIPS rv_reversi_flips_bb
#define EG_PAT_INIT rv_pat_state_init
#define EG_PAT_EVAL rv_pat_eval_state
#include "reversi/endgame_impl.h"
#undef EGF
#undef EG_MOVES
#undef EG_FLIPS
#undef EG_PAT_INIT
#undef EG_PAT_EVAL

/* The SIMD copies run only where the CPU has BMI2 and AVX2 (ai->simd). */
#define EG_PAT_INIT rv_pat_state_init_bmi2
#define EG_PAT_EVAL rv_pat_eval_state_bmi2

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
#define EG_PEXT 1
#define EG_MOVES rv_reversi_moves_avx2
#define EG_FLIPS rv_reversi_flips_avx2
#include "reversi/endgame_impl.h"
#undef EGF
#undef EG_MOVES
#undef EG_FLIPS
#undef EG_PEXT
EG_TARGET_END

EG_TARGET_BEGIN_AVX512
#ifndef EG_FLIPS_TERNLOG
#define EG_FLIPS_TERNLOG 1 /* the solver's AVX-512 copy flips with eg_flips_avx512 */
#endif
#if EG_FLIPS_TERNLOG
/*
 * Flips for the solver's AVX-512 copy: rv_reversi_flips_avx512's rays in
 * fewer operations (the same result, bit for bit: the solver's tests compare
 * every copy's trees with the plain one's).  Up rays (towards higher
 * squares): t = the ray's squares that are not O; t - 1 keeps t's bits above
 * its lowest and sets those below, so the blocker is t & ~(t - 1) and the run
 * of O's before it (t - 1) & ~t & ray, one ternary-logic operation masked by
 * "the blocker is P's".  Down rays: the blocker is the highest bit of t
 * (lzcnt; 64 when none, and the shifts then give 0), the run the ray's
 * squares above it, ray & ~(~0 >> lz), merged in by a second masked
 * ternary-logic operation.  A loop of independent calls runs 15% faster than
 * with rv_reversi_flips_avx512 (20 operations instead of 25); a dependent
 * chain of calls as fast.
 */
static inline __attribute__((always_inline)) uint64_t eg_flips_avx512(uint64_t P, uint64_t O,
                                                                      int sq) {
    const __m256i ones = _mm256_set1_epi64x(-1LL);
    const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    __m256i pp = _mm256_set1_epi64x((long long)P);
    __m256i oo = _mm256_set1_epi64x((long long)O);
    __m256i ru = _mm256_loadu_si256((const __m256i *)&rv_reversi_rays[sq][0]);
    __m256i rd = _mm256_loadu_si256((const __m256i *)&rv_reversi_rays[sq][4]);
    __m256i tu = _mm256_andnot_si256(oo, ru);
    __m256i t1 = _mm256_add_epi64(tu, ones);
    __mmask8 ku = _mm256_test_epi64_mask(_mm256_andnot_si256(t1, tu), pp);
    /* t1 & ~tu & ru (ternary logic: the bit of index a << 2 | b << 1 | c) */
    __m256i f = _mm256_maskz_ternarylogic_epi64(ku, t1, tu, ru, 0x20);
    __m256i td = _mm256_andnot_si256(oo, rd);
    __m256i lz = _mm256_lzcnt_epi64(td);
    __mmask8 kd = _mm256_test_epi64_mask(_mm256_srlv_epi64(top, lz), pp);
    /* f | (rd & ~(~0 >> lz)) where the down blocker is P's */
    f = _mm256_mask_ternarylogic_epi64(f, kd, rd, _mm256_srlv_epi64(ones, lz), 0xF4);
    return rv_reversi_or4_avx2(f);
}
#define EG_FLIPS eg_flips_avx512
#else
#define EG_FLIPS rv_reversi_flips_avx512
#endif
#define EGF(name) name##_avx512
#define EG_PEXT 1
#define EG_MOVES rv_reversi_moves_avx512
#include "reversi/endgame_impl.h"
#undef EGF
#undef EG_MOVES
#undef EG_FLIPS
#undef EG_PEXT
EG_TARGET_END
#endif

int rv_ai_endgame(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int *best) {
#if RV_REVERSI_X86_SIMD
    if (ai->simd == RV_REVERSI_SIMD_AVX512) return eg_root_avx512(ai, P, O, alpha, beta, best);
    if (ai->simd == RV_REVERSI_SIMD_AVX2) return eg_root_avx2(ai, P, O, alpha, beta, best);
#endif
    return eg_root_plain(ai, P, O, alpha, beta, best);
}
