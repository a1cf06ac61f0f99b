/*
 * Internal to `renversi gomocup`: the game a brain is playing, kept as the list
 * of stones in the order they arrived (so TAKEBACK and BOARD are exact), turned
 * into an rv_gomoku with the brain to move whenever it has to think.
 */
#ifndef RV_PROTO_GOMOCUP_GAME_H
#define RV_PROTO_GOMOCUP_GAME_H

#include "renversi/gomoku.h"

typedef struct gc_stone {
    int x, y;
    int own; /* 1: the brain's stone, 0: the opponent's */
} gc_stone;

typedef struct gc_game {
    int w, h; /* 0 before START */
    rv_gomoku_rule rule;
    int n;
    gc_stone st[RV_GOMOKU_MAX_POINTS];
} gc_game;

/* Is (x, y) on the board and free? 0 when yes, else a status (RV_ERANGE, RV_EOCCUPIED). */
rv_status gc_free_point(const gc_game *gm, int x, int y);

/*
 * The position with the brain to move (black is the side that moved first,
 * i.e. has more stones, the brain when counts are equal). Stones given in
 * alternating order are replayed as moves; otherwise they are set up. RV_EOVER
 * when the game has already ended or the board is full; RV_EINVAL when the stone
 * counts cannot give the brain the move; other statuses from the rules.
 */
rv_status gc_position(const gc_game *gm, rv_gomoku *out);

#endif
