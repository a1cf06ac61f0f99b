/* The parts of a game's JSON that say where each move went and how the game ended
 * (docs/protocol-web.md: `points` and `end`), shared by the state and replay messages. */
#ifndef RV_SERVER_GAME_JSON_H
#define RV_SERVER_GAME_JSON_H

#include "renversi/game.h"

/* `[[x,y],null,…]`: the display point of every move, null for a pass. malloc'd, or NULL. */
char *srv_points_json(const rv_game *g);
/* `null` while the game goes on, else the end object from rv_game_get_result(): reason,
 * winner, the winning row, the forbidden point, the loser, the score. malloc'd, or NULL. */
char *srv_end_json(const rv_game *g);

/* `{"from":F,"steps":[…]}`: what each of the last moves (at most k, from move F on)
 * changed, written like the replay's steps (docs/protocol-web.md), so a page that missed a
 * state (a newer one replaced it) can still show each move and its flips. malloc'd, or NULL. */
char *srv_recent_json(const rv_game *g, int k);

#endif
