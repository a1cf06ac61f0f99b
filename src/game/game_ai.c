/* The engines of both games behind one call (game_ai.h). */
#include "renversi/game_ai.h"

#include <stdlib.h>

#include "renversi/gomoku_ai.h"
#include "renversi/reversi_ai.h"

struct rv_game_ai {
    rv_gomoku_ai *gomoku;
    rv_reversi_ai *reversi;
};

rv_game_ai *rv_game_ai_new(void) {
    rv_game_ai *ai = calloc(1, sizeof *ai);
    if (!ai) return NULL;
    ai->gomoku = rv_gomoku_ai_new(16u << 20);
    ai->reversi = rv_reversi_ai_new(16u << 20);
    if (!ai->gomoku || !ai->reversi) {
        rv_game_ai_free(ai);
        return NULL;
    }
    return ai;
}

void rv_game_ai_free(rv_game_ai *ai) {
    if (!ai) return;
    rv_gomoku_ai_free(ai->gomoku);
    rv_reversi_ai_free(ai->reversi);
    free(ai);
}

void rv_game_ai_stop(rv_game_ai *ai) {
    rv_gomoku_ai_stop(ai->gomoku);
    rv_reversi_ai_stop(ai->reversi);
}

rv_status rv_game_ai_think(rv_game_ai *ai, const rv_game *g, int level, int ms, int *x, int *y) {
    if (rv_game_over(g)) return RV_EOVER;
    if (rv_game_is_reversi(g)) {
        rv_reversi_limits lim = {.level = level, .depth = 0, .time_ms = ms};
        rv_reversi_ai_info info;
        rv_status st = rv_reversi_ai_think(ai->reversi, rv_reversi_game_position(rv_game_reversi(g)),
                                           &lim, &info);
        if (st != RV_OK) return st;
        if (info.move == RV_REVERSI_PASS) *x = *y = -1;
        else if (info.move >= 0 && info.move < 64) *x = info.move % 8, *y = info.move / 8;
        else return RV_EOVER;
        return RV_OK;
    }
    rv_gomoku_limits lim = {.level = level, .depth = 0, .time_ms = ms, .nodes = 0};
    rv_gomoku_ai_info info;
    rv_status st = rv_gomoku_ai_think(ai->gomoku, rv_game_gomoku(g), &lim, &info);
    if (st != RV_OK) return st;
    *x = info.x;
    *y = info.y;
    return RV_OK;
}
