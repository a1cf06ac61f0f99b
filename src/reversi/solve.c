/* rv_reversi_solve(): the exact endgame solve behind `renversi solve`. */
#include "reversi/ai_internal.h"

#ifndef SOLVE_ASPIRATION
#define SOLVE_ASPIRATION 4 /* half-width of the first window, in discs; 0 = none */
#endif
#define SOLVE_GUESS_MIN 14 /* from this many empties on, guess the score first */

#ifndef SOLVE_SEL_MIN
#define SOLVE_SEL_MIN 18 /* from this many empties on, selective passes first */
#endif
#ifndef SOLVE_SEL_FIRST
#define SOLVE_SEL_FIRST 1 /* the selective levels run, in order (endgame.c, EG_PC_T) */
#endif
#ifndef SOLVE_SEL_LAST
#define SOLVE_SEL_LAST 2
#endif

/* The solver's score in a window of SOLVE_ASPIRATION around the guess g,
 * widening the failing side until the score falls strictly inside; at most
 * tries searches (0: no limit), the last result returned. */
static int aspiration(rv_reversi_ai *ai, uint64_t P, uint64_t O, int g, int *move, int tries) {
    int lo = g - SOLVE_ASPIRATION, hi = g + SOLVE_ASPIRATION;
    if (lo < -64) lo = -64;
    if (hi > 64) hi = 64;
    for (int k = 1;; k++) {
        int v = rv_ai_endgame(ai, P, O, lo, hi, move);
        if (ai->aborted || k == tries) return v;
        if (v <= lo && lo > -64) {
            hi = v + 1;
            lo = v - 2 * SOLVE_ASPIRATION < -64 ? -64 : v - 2 * SOLVE_ASPIRATION;
        } else if (v >= hi && hi < 64) {
            lo = v - 1;
            hi = v + 2 * SOLVE_ASPIRATION > 64 ? 64 : v + 2 * SOLVE_ASPIRATION;
        } else {
            return v;
        }
    }
}

/*
 * The exact score: a shallow midgame search guesses the score; from
 * SOLVE_SEL_MIN empties, selective solves (ProbCut at rising confidence)
 * refine the guess and leave their best moves in the table; then the exact
 * solve searches a narrow window around the last guess (far fewer nodes when
 * it holds), widening the failing side until the score falls inside it.
 */
int rv_ai_solve_exact(rv_reversi_ai *ai, uint64_t P, uint64_t O, int *move) {
    int n = bit_count(~(P | O));
    ai->eg_sel = 0;
    if (SOLVE_ASPIRATION == 0 || n < SOLVE_GUESS_MIN)
        return rv_ai_endgame(ai, P, O, -64, 64, move);
    int d = (n - 4) / 2 < 10 ? (n - 4) / 2 : 10;
    int g = rv_ai_mid_search(ai, P, O, -30000, 30000, d);
    g = g >= 0 ? (g + 50) / 100 : -((-g + 50) / 100);
    if (g > 64) g = 64;
    if (g < -64) g = -64;
    if (n >= SOLVE_SEL_MIN && ai->eval_kind == RV_REVERSI_EVAL_PATTERN) {
        for (int level = SOLVE_SEL_FIRST; level <= SOLVE_SEL_LAST; level++) {
            ai->eg_sel = level;
            int m, v = aspiration(ai, P, O, g, &m, 3);
            ai->eg_sel = 0;
            if (ai->aborted) return v;
            g = v;
        }
    }
    return aspiration(ai, P, O, g, move, 0);
}

rv_status rv_reversi_solve(rv_reversi_ai *ai, const rv_reversi_pos *pos, int wld_only,
                           rv_reversi_solve_result *out) {
    if (!ai) return RV_EINVAL;
    rv_ai_enter(ai);
    if (!out || !rv_ai_valid_pos(pos)) return RV_EINVAL;
    rv_ai_begin(ai, 0);
    int move;
    /* Win/loss/draw: a null window around 0 on each side decides the sign. */
    int v = wld_only ? rv_ai_endgame(ai, pos->player, pos->opponent, -1, 1, &move)
                     : rv_ai_solve_exact(ai, pos->player, pos->opponent, &move);
    if (ai->aborted) return RV_EOVER;
    out->move = move;
    out->score = wld_only ? (v > 0) - (v < 0) : v;
    out->nodes = ai->nodes;
    return RV_OK;
}
