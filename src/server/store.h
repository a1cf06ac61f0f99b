/*
 * The SQLite store of `renversi serve`: rooms, games and their moves.
 *
 * Every write is its own committed transaction (WAL journal) that returns
 * before the server acknowledges the action, so a `kill -9` loses nothing that
 * was acknowledged. Only the network thread touches the store.
 */
#ifndef RV_SERVER_STORE_H
#define RV_SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>

typedef struct rv_store rv_store;

/* A stored game's header (strings are copied into the fixed fields). */
typedef struct rv_store_game {
    int64_t id;
    char room[24];
    char variant[16]; /* freestyle, standard, renju, caro, reversi */
    int size;
    char black[16], white[16]; /* "human", "ai 3", ... */
    int64_t created;  /* unix seconds */
    int nmoves;
    char result[96];  /* "" while the game goes on */
} rv_store_game;

/* A stored room: its current game and the two seats' tokens ("" = open seat). */
typedef struct rv_store_room {
    char id[24];
    char mode[8];     /* "ai" or "online" */
    int64_t game_id;
    char token[2][40]; /* [0] black, [1] white */
    int ai_color;     /* 0 none, 1 black, 2 white, 3 both */
    int level;
} rv_store_room;

/* Opens (creating the schema if needed) PATH, or ":memory:". NULL on failure, *err set. */
rv_store *rv_store_open(const char *path, char *err, size_t errlen);
void rv_store_close(rv_store *s);

/* Creates a game row; returns its id, or -1. */
int64_t rv_store_new_game(rv_store *s, const char *room, const char *variant, int size,
                          const char *black, const char *white);
/* Appends move number PLY (from 0) to a game. 0 on success. */
int rv_store_add_move(rv_store *s, int64_t game, int ply, const char *move);
/* Deletes the moves from PLY on (an undo). 0 on success. */
int rv_store_truncate(rv_store *s, int64_t game, int ply);
/* Sets (or clears with "") a game's result. 0 on success. */
int rv_store_set_result(rv_store *s, int64_t game, const char *result);
/* Reads a game header. 0 when found. */
int rv_store_get_game(rv_store *s, int64_t game, rv_store_game *out);
/*
 * Reads a game's moves in order into a malloc'd array of malloc'd strings
 * (*moves, *n). 0 on success; the caller frees with rv_store_free_moves.
 */
int rv_store_get_moves(rv_store *s, int64_t game, char ***moves, int *n);
void rv_store_free_moves(char **moves, int n);
/* The most recent games (up to MAX) with at least one move, newest first. Returns the count. */
int rv_store_list_games(rv_store *s, rv_store_game *out, int max);

/* Updates a game's players (after the colours were exchanged). 0 on success. */
int rv_store_set_players(rv_store *s, int64_t game, const char *black, const char *white);

#define RV_STORE_EVENT_TEXT 1024 /* bytes of an event's text, NUL included */

/*
 * Something said or decided during a game besides its moves: a chat line, a hint used, an
 * opening choice ("chat", "hint", "rules", "choose", "declare", "offer"), with who
 * ("black", "white", "spectator", "ai") and the number of moves on the board then.
 */
typedef struct rv_store_event {
    int ply;
    char kind[12];
    char who[12];
    int64_t created; /* unix seconds */
    char text[RV_STORE_EVENT_TEXT];
} rv_store_event;

/* Appends an event to a game (text is cut to RV_STORE_EVENT_TEXT - 1 bytes). 0 on success. */
int rv_store_add_event(rv_store *s, int64_t game, int ply, const char *kind, const char *who,
                       const char *text);
/* A game's events in order into a malloc'd array (*events, *n; free() it). 0 on success. */
int rv_store_get_events(rv_store *s, int64_t game, rv_store_event **events, int *n);

/* Inserts or replaces a room. 0 on success. */
int rv_store_put_room(rv_store *s, const rv_store_room *r);
/* Reads a room. 0 when found. */
int rv_store_get_room(rv_store *s, const char *id, rv_store_room *out);

#endif
