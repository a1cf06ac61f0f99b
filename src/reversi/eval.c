/*
 * The heuristic evaluations of the midgame search, in centidiscs for the side
 * to move.  The default is the pattern evaluation (pattern.c), whose weights
 * the project fits itself (tools/othello_train.c).  The simple evaluation
 * below (RV_REVERSI_EVAL_SIMPLE) has hand-chosen weights (none from other
 * engines); the first self-play games of the fitting pipeline use it.
 * Its features:
 *   mobility           legal moves of each side (corner moves count double);
 *   potential mobility empty squares next to the other side's discs;
 *   corners            owned corners;
 *   X- and C-squares   discs next to an empty corner (they give it away);
 *   stability          discs that can never be flipped (endgame_stable.c);
 *   edges              discs on the border (positive late, when they hold);
 *   parity             who is expected to play the last move (odd empties);
 *   discs              the disc difference, only near the end.
 * Each weight is interpolated between an opening and an ending value by the
 * number of empty squares, because the features matter differently over the
 * game (mobility early, discs and stability late).
 */
#include "reversi/ai_internal.h"
#include "reversi/endgame_stable.h"
#include "reversi/pattern.h"

/* The evaluation counts bits a lot: on x86-64 an extra copy compiled for
 * CPUs with POPCNT/BMI2/AVX2 is chosen at load time (an ifunc).  GCC only:
 * clang 14 wants the attribute on every declaration in every caller. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(RV_NO_SIMD)
#define EVAL_CLONES __attribute__((target_clones("default", "arch=x86-64-v3")))
#else
#define EVAL_CLONES
#endif

typedef struct weights {
    int mob, pot, corner, xsq, csq, stable, edge, parity, disc;
} weights;

/* At 60 empties and at 0 empties; linear in between. */
static const weights W_OPEN = {70, 25, 450, -320, -110, 80, 0, 0, -8};
static const weights W_END = {55, 10, 350, -120, -40, 140, 20, 120, 60};

static inline int lerp(int a, int b, int e) { return (a * e + b * (60 - e)) / 60; }

/* Squares next to each corner: the X-square and the two C-squares. */
static const int CORNER_SQ[4] = {0, 7, 56, 63};
static const uint64_t XSQ[4] = {1ULL << 9, 1ULL << 14, 1ULL << 49, 1ULL << 54};
static const uint64_t CSQ[4] = {(1ULL << 1) | (1ULL << 8), (1ULL << 6) | (1ULL << 15),
                                (1ULL << 48) | (1ULL << 57), (1ULL << 55) | (1ULL << 62)};

/* A heuristic is never as sure as a finished game: stay inside +-50 discs. */
static inline int clamp_heuristic(int v) { return v > 5000 ? 5000 : v < -5000 ? -5000 : v; }

EVAL_CLONES static int eval_simple(uint64_t P, uint64_t O) {
    uint64_t E = ~(P | O);
    int e = bit_count(E);
    weights w = {lerp(W_OPEN.mob, W_END.mob, e),         lerp(W_OPEN.pot, W_END.pot, e),
                 lerp(W_OPEN.corner, W_END.corner, e),   lerp(W_OPEN.xsq, W_END.xsq, e),
                 lerp(W_OPEN.csq, W_END.csq, e),         lerp(W_OPEN.stable, W_END.stable, e),
                 lerp(W_OPEN.edge, W_END.edge, e),       lerp(W_OPEN.parity, W_END.parity, e),
                 lerp(W_OPEN.disc, W_END.disc, e)};
    uint64_t mp = rv_reversi_moves_bb(P, O), mo = rv_reversi_moves_bb(O, P);
    int v = w.mob * (bit_count(mp) + bit_count(mp & BB_CORNERS) - bit_count(mo) -
                     bit_count(mo & BB_CORNERS));
    v += w.pot * (bit_count(bb_neighbours(O) & E) - bit_count(bb_neighbours(P) & E));
    v += w.corner * (bit_count(P & BB_CORNERS) - bit_count(O & BB_CORNERS));
    for (int c = 0; c < 4; c++) {
        if (!((E >> CORNER_SQ[c]) & 1)) continue;
        v += w.xsq * (bit_count(P & XSQ[c]) - bit_count(O & XSQ[c]));
        v += w.csq * (bit_count(P & CSQ[c]) - bit_count(O & CSQ[c]));
    }
    /* Stable discs only exist once a corner or a full line is taken. */
    if ((P | O) & BB_CORNERS || e < 20)
        v += w.stable * (bit_count(stable_discs(P, O)) - bit_count(stable_discs(O, P)));
    v += w.edge * (bit_count(P & BB_BORDER) - bit_count(O & BB_BORDER));
    v += w.parity * ((e & 1) ? 1 : -1);
    v += w.disc * (bit_count(P) - bit_count(O));
    /* A side without moves is in trouble: the other side moves twice. */
    if (!mp && mo) v -= 300;
    return clamp_heuristic(v);
}

int rv_ai_pattern_centi(int v) {
    /* 1/RV_PAT_SCALE discs to centidiscs, rounded to nearest. */
    v = v >= 0 ? (v * 100 + RV_PAT_SCALE / 2) / RV_PAT_SCALE : -((-v * 100 + RV_PAT_SCALE / 2) / RV_PAT_SCALE);
    return clamp_heuristic(v);
}

int rv_ai_eval(const rv_reversi_ai *ai, uint64_t P, uint64_t O) {
    if (ai->eval_kind == RV_REVERSI_EVAL_SIMPLE) return eval_simple(P, O);
    return rv_ai_pattern_centi(ai->simd != RV_REVERSI_SIMD_PLAIN ? rv_pat_eval_bmi2(ai->pat_w, P, O)
                                                                 : rv_pat_eval(ai->pat_w, P, O));
}
