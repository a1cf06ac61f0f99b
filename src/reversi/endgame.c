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

#define EG_SMALL 6   /* up to this many empties: the small solver */
#define EG_TT_MIN 9  /* from this many empties on: transposition table */
#define EG_SORT_MID 15 /* from this many empties on: order by a shallow evaluation */

static const uint64_t QUADRANT[4] = {0x000000000F0F0F0FULL, 0x00000000F0F0F0F0ULL,
                                     0x0F0F0F0F00000000ULL, 0xF0F0F0F000000000ULL};

/* The quadrants holding an odd number of empty squares, as one mask. */
static inline uint64_t odd_quadrants(uint64_t E) {
    uint64_t m = 0;
    for (int q = 0; q < 4; q++)
        if (bit_count(E & QUADRANT[q]) & 1) m |= QUADRANT[q];
    return m;
}

/* Squares tried first by the small solver: corners and the squares that are
 * neither X- nor C-squares. */
#define SMALL_GOOD (~(BB_X_SQUARES | BB_C_SQUARES))

static inline int should_poll(rv_reversi_ai *ai) {
    if (ai->aborted) return 1;
    if ((ai->nodes & 0xFFF) == 0 && rv_ai_should_stop(ai)) ai->aborted = 1;
    return ai->aborted;
}

/* The last empty square x; P to move, O = every other square. */
static int last1(rv_reversi_ai *ai, uint64_t P, int x) {
    uint64_t bit = 1ULL << x, O = ~(P | bit);
    int p = bit_count(P);
    ai->nodes++;
    uint64_t f = rv_reversi_flips_bb(P, O, x);
    if (f) return 2 * (p + 1 + bit_count(f)) - 64;
    f = rv_reversi_flips_bb(O, P, x);
    if (f) return 2 * (p - bit_count(f)) - 64;
    /* Nobody can fill the last square: it goes to the winner (63 discs, odd). */
    return p > 63 - p ? 2 * p - 62 : 2 * p - 64;
}

static int eg_small(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int n,
                    int passed) {
    uint64_t E = ~(P | O);
    if (n == 1) return last1(ai, P, first_bit(E));
    ai->nodes++;
    uint64_t odd = odd_quadrants(E);
    uint64_t order[4] = {E & odd & SMALL_GOOD, E & odd & ~SMALL_GOOD, E & ~odd & SMALL_GOOD,
                         E & ~odd & ~SMALL_GOOD};
    int best = -65;
    for (int k = 0; k < 4; k++) {
        for (uint64_t m = order[k]; m; m &= m - 1) {
            int x = first_bit(m);
            uint64_t f = rv_reversi_flips_bb(P, O, x);
            if (!f) continue;
            uint64_t np = O ^ f, no = P ^ f ^ (1ULL << x);
            int v = n == 2 ? -last1(ai, np, first_bit(E ^ (1ULL << x)))
                           : -eg_small(ai, np, no, -beta, -alpha, n - 1, 0);
            if (v > best) {
                best = v;
                if (v > alpha) {
                    if (v >= beta) return v;
                    alpha = v;
                }
            }
        }
    }
    if (best == -65) {
        if (passed) return final_score(P, O);
        return -eg_small(ai, O, P, -beta, -alpha, n, 1);
    }
    return best;
}

typedef struct eg_move {
    uint64_t flips;
    int sq;
    int key;
} eg_move;

static void sort_moves(eg_move *mv, int n) {
    for (int i = 1; i < n; i++) {
        eg_move t = mv[i];
        int j = i;
        while (j > 0 && mv[j - 1].key > t.key) {
            mv[j] = mv[j - 1];
            j--;
        }
        mv[j] = t;
    }
}

/* Lowest stable-disc count of the opponent at which the cut-off can fire
 * is cheap to test; the stable discs themselves cost more, so they are only
 * computed when alpha is high enough for a cut-off to be possible at all. */
static inline int stability_cutoff_possible(int alpha, int n) {
    /* With n empties the opponent has at most 64 - n discs; the bound
     * 64 - 2 * stable can only reach alpha when alpha is large. */
    return alpha >= 64 - 2 * (64 - n) && alpha > 0;
}

static int eg_deep(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int n,
                   int passed, int *best_move) {
    if (n <= EG_SMALL && !best_move) return eg_small(ai, P, O, alpha, beta, n, passed);
    ai->nodes++;
    if (should_poll(ai)) return alpha;

    if (stability_cutoff_possible(alpha, n)) {
        int ub = 64 - 2 * bit_count(rv_ai_stable(O, P));
        if (ub <= alpha) return ub;
    }

    uint64_t moves = rv_reversi_moves_bb(P, O);
    if (!moves) {
        if (passed) {
            if (best_move) *best_move = RV_REVERSI_AI_NONE;
            return final_score(P, O);
        }
        if (!rv_reversi_moves_bb(O, P)) {
            if (best_move) *best_move = RV_REVERSI_AI_NONE;
            return final_score(P, O);
        }
        if (best_move) *best_move = RV_REVERSI_PASS;
        return -eg_deep(ai, O, P, -beta, -alpha, n, 1, NULL);
    }

    int tt_move = -1;
    if (n >= EG_TT_MIN) {
        const tt_entry *e = tt_probe(&ai->tt, P, O, TT_KIND_EXACT);
        if (e) {
            if (!best_move) {
                if (e->lower >= beta) return e->lower;
                if (e->upper <= alpha) return e->upper;
                if (e->lower == e->upper) return e->lower;
            }
            if (e->lower > alpha) alpha = e->lower;
            if (e->upper < beta) beta = e->upper;
            tt_move = e->move;
        }
    }
    const int alpha0 = alpha;

    eg_move mv[32];
    int nm = 0;
    uint64_t E = ~(P | O);
    uint64_t odd = odd_quadrants(E);
    for (uint64_t m = moves; m; m &= m - 1) {
        int x = first_bit(m);
        uint64_t f = rv_reversi_flips_bb(P, O, x);
        eg_move *e = &mv[nm++];
        e->flips = f;
        e->sq = x;
        if (x == tt_move) {
            e->key = -1000000;
            continue;
        }
        uint64_t np = O ^ f, no = P ^ f ^ (1ULL << x);
        uint64_t rep = rv_reversi_moves_bb(np, no);
        int key = (bit_count(rep) + bit_count(rep & BB_CORNERS)) * 16;
        key -= ((odd >> x) & 1) * 4;
        /* Potential mobility of the opponent: empty squares next to our discs. */
        key += bit_count(bb_neighbours(no) & E & ~(1ULL << x));
        e->key = key;
    }
    sort_moves(mv, nm);

    int best = -65, bm = mv[0].sq;
    for (int i = 0; i < nm; i++) {
        uint64_t f = mv[i].flips, bit = 1ULL << mv[i].sq;
        uint64_t np = O ^ f, no = P ^ f ^ bit;
        int v;
        if (i == 0) {
            v = -eg_deep(ai, np, no, -beta, -alpha, n - 1, 0, NULL);
        } else {
            v = -eg_deep(ai, np, no, -alpha - 1, -alpha, n - 1, 0, NULL);
            if (v > alpha && v < beta) v = -eg_deep(ai, np, no, -beta, -alpha, n - 1, 0, NULL);
        }
        if (ai->aborted) return alpha;
        if (v > best) {
            best = v;
            bm = mv[i].sq;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    if (n >= EG_TT_MIN) {
        int lo = best >= beta ? best : (best > alpha0 ? best : -64);
        int hi = best <= alpha0 ? best : (best >= beta ? 64 : best);
        tt_store(&ai->tt, P, O, TT_KIND_EXACT, n, lo, hi, bm);
    }
    if (best_move) *best_move = bm;
    return best;
}

int rv_ai_endgame(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int *best) {
    int n = bit_count(~(P | O));
    int bm = RV_REVERSI_AI_NONE;
    int v = eg_deep(ai, P, O, alpha, beta, n, 0, &bm);
    *best = bm;
    return v;
}
