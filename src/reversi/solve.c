/* rv_reversi_solve(): the exact endgame solve behind `renversi solve`. */
#include "reversi/ai_internal.h"

#ifndef SOLVE_ASPIRATION
#define SOLVE_ASPIRATION 4 /* half-width of the first window, in discs; 0 = none */
#endif
#define SOLVE_GUESS_MIN 14 /* from this many empties on, guess the score first */

/*
 * The exact score with an aspiration window: a shallow midgame search guesses
 * the score, the solver first searches a narrow window around the guess (far
 * fewer nodes when it holds), and widens the failing side until the score
 * falls strictly inside the window.
 */
int rv_ai_solve_exact(rv_reversi_ai *ai, uint64_t P, uint64_t O, int *move) {
    int n = bit_count(~(P | O));
    if (SOLVE_ASPIRATION == 0 || n < SOLVE_GUESS_MIN)
        return rv_ai_endgame(ai, P, O, -64, 64, move);
    int d = (n - 4) / 2 < 10 ? (n - 4) / 2 : 10;
    uint64_t nodes0 = ai->nodes;
    int g = rv_ai_mid_search(ai, P, O, -30000, 30000, d);
    (void)nodes0;
    g = g >= 0 ? (g + 50) / 100 : -((-g + 50) / 100);
    if (g > 64) g = 64;
    if (g < -64) g = -64;
    int lo = g - SOLVE_ASPIRATION, hi = g + SOLVE_ASPIRATION;
    if (lo < -64) lo = -64;
    if (hi > 64) hi = 64;
    for (;;) {
        int v = rv_ai_endgame(ai, P, O, lo, hi, move);
        if (ai->aborted) return v;
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
