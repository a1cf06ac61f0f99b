/* A Reversi game with its history, for undo and for records. */
#include "renversi/reversi.h"

void rv_reversi_game_init(rv_reversi_game *g, const rv_reversi_pos *start) {
    if (start) g->start = *start;
    else rv_reversi_init(&g->start);
    g->nplies = 0;
    g->history[0] = g->start;
}

rv_status rv_reversi_game_play(rv_reversi_game *g, int sq) {
    if (g->nplies >= RV_REVERSI_MAX_PLIES) return RV_ETOOLONG;
    rv_reversi_pos p = g->history[g->nplies];
    rv_status st = rv_reversi_play(&p, sq);
    if (st != RV_OK) return st;
    g->moves[g->nplies++] = (uint8_t)sq;
    g->history[g->nplies] = p;
    return RV_OK;
}

rv_status rv_reversi_game_undo(rv_reversi_game *g) {
    if (g->nplies == 0) return RV_EEMPTY;
    g->nplies--;
    return RV_OK;
}

const rv_reversi_pos *rv_reversi_game_position(const rv_reversi_game *g) {
    return &g->history[g->nplies];
}

const uint8_t *rv_reversi_game_moves(const rv_reversi_game *g, int *n) {
    if (n) *n = g->nplies;
    return g->moves;
}
