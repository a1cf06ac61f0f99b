/* rv_reversi_solve(): the exact endgame solve behind `renversi solve`. */
#include "reversi/ai_internal.h"

rv_status rv_reversi_solve(rv_reversi_ai *ai, const rv_reversi_pos *pos, int wld_only,
                           rv_reversi_solve_result *out) {
    if (!ai || !out || !rv_ai_valid_pos(pos)) return RV_EINVAL;
    rv_ai_begin(ai, 0);
    int move;
    /* Win/loss/draw: a null window around 0 on each side decides the sign. */
    int v = wld_only ? rv_ai_endgame(ai, pos->player, pos->opponent, -1, 1, &move)
                     : rv_ai_endgame(ai, pos->player, pos->opponent, -64, 64, &move);
    if (ai->aborted) return RV_EOVER;
    out->move = move;
    out->score = wld_only ? (v > 0) - (v < 0) : v;
    out->nodes = ai->nodes;
    return RV_OK;
}
