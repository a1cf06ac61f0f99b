/* The engines behind one interface for the terminal game and the server (tui_game.h). */
#include <stdlib.h>

#include "cli/tui_game.h"
#include "renversi/gomoku_ai.h"
#include "renversi/reversi_ai.h"

/* ---------------------------------------------------------------- the engine */

struct pg_ai {
    rv_gomoku_ai *gomoku;
    rv_reversi_ai *reversi;
};

pg_ai *pg_ai_new(void) {
    pg_ai *ai = calloc(1, sizeof *ai);
    if (!ai) return NULL;
    ai->gomoku = rv_gomoku_ai_new(16u << 20);
    ai->reversi = rv_reversi_ai_new(16u << 20);
    if (!ai->gomoku || !ai->reversi) {
        pg_ai_free(ai);
        return NULL;
    }
    return ai;
}

void pg_ai_free(pg_ai *ai) {
    if (!ai) return;
    rv_gomoku_ai_free(ai->gomoku);
    rv_reversi_ai_free(ai->reversi);
    free(ai);
}

void pg_ai_stop(pg_ai *ai) {
    rv_gomoku_ai_stop(ai->gomoku);
    rv_reversi_ai_stop(ai->reversi);
}

rv_status pg_ai_think(pg_ai *ai, const pg_game *p, int level, int ms, int *x, int *y) {
    if (pg_over(p)) return RV_EOVER;
    if (p->reversi) {
        rv_reversi_limits lim = {.level = level, .depth = 0, .time_ms = ms};
        rv_reversi_ai_info info;
        rv_status st = rv_reversi_ai_think(ai->reversi, rv_reversi_game_position(&p->r), &lim, &info);
        if (st != RV_OK) return st;
        if (info.move == RV_REVERSI_PASS) *x = *y = -1;
        else if (info.move >= 0 && info.move < 64) *x = info.move % 8, *y = info.move / 8;
        else return RV_EOVER;
        return RV_OK;
    }
    rv_gomoku_limits lim = {.level = level, .depth = 0, .time_ms = ms, .nodes = 0};
    rv_gomoku_ai_info info;
    rv_status st = rv_gomoku_ai_think(ai->gomoku, &p->g, &lim, &info);
    if (st != RV_OK) return st;
    *x = info.x;
    *y = info.y;
    return RV_OK;
}
