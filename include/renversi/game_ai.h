/*
 * renversi — an engine for an rv_game of either kind: the Gomoku and the
 * Reversi engines (gomoku_ai.h, reversi_ai.h) behind one call, for front ends
 * that let people play against the computer.
 *
 * An rv_game_ai is owned by one thread at a time; rv_game_ai_stop() may be
 * called from another thread.
 */
#ifndef RENVERSI_GAME_AI_H
#define RENVERSI_GAME_AI_H

#include "renversi/game.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rv_game_ai rv_game_ai;

/* A new engine with 16 MB transposition tables; NULL when out of memory. */
rv_game_ai *rv_game_ai_new(void);
void rv_game_ai_free(rv_game_ai *ai);
/* Asks a think running in another thread to return soon. */
void rv_game_ai_stop(rv_game_ai *ai);
/*
 * Chooses a move for the side to move (display coordinates; *x = *y = -1 for a
 * Reversi pass) at level 1..20 in at most ms milliseconds (0: the level's own
 * time). RV_EOVER when the game is over; the engines' errors otherwise.
 */
rv_status rv_game_ai_think(rv_game_ai *ai, const rv_game *g, int level, int ms, int *x, int *y);

#ifdef __cplusplus
}
#endif
#endif
