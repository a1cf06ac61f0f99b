/*
 * One game of either kind behind one interface, for the two front ends that
 * let people play: the terminal game (tui_*.c) and the server's rooms
 * (src/server/). Every rule question goes to the library (gomoku.h,
 * reversi.h); notation goes to the record modules. Nothing here is a rule.
 *
 * Coordinates here are display coordinates: x the column from the left, y the
 * row from the TOP, both from 0, for both games.
 */
#ifndef RV_TUI_GAME_H
#define RV_TUI_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "renversi/common.h"
#include "renversi/gomoku.h"
#include "renversi/reversi.h"

/* Per-point marks from pg_marks(). */
enum { PG_MARK_NONE = 0, PG_MARK_LEGAL = 1, PG_MARK_DOUBLE_THREE = 3, PG_MARK_DOUBLE_FOUR = 4,
       PG_MARK_OVERLINE = 6 };

typedef struct pg_game {
    int reversi;        /* 0: Gomoku family, 1: Reversi */
    char variant[16];   /* freestyle, standard, renju, caro, reversi */
    int size;
    rv_color resigned;  /* the colour that resigned, or RV_EMPTY */
    rv_gomoku g;
    rv_reversi_game r;
} pg_game;

/* Starts a game: variant as above (also "gomoku" = freestyle, "othello" = reversi), size 0 =
 * default (15, or 8 for Reversi). RV_EINVAL / RV_ERANGE with a message in err. */
rv_status pg_init(pg_game *p, const char *variant, int size, char *err, size_t errlen);

/* The side to move; RV_EMPTY when the game is over. */
rv_color pg_to_move(const pg_game *p);
int pg_over(const pg_game *p);
int pg_nmoves(const pg_game *p);
/* 1 when move i is a pass. */
int pg_is_pass(const pg_game *p, int i);
/* Colour that played move i. */
rv_color pg_move_color(const pg_game *p, int i);
/* Move i in the game's notation (h8, d3, or "pass") into buf (at least 8 bytes). */
void pg_move_text(const pg_game *p, int i, char *buf, size_t n);
/* Display coordinates of move i; 0 when it is a pass or out of range. */
int pg_move_xy(const pg_game *p, int i, int *x, int *y);
/* The notation of display point (x, y) ("h8", "a1") into buf. */
void pg_point_text(const pg_game *p, int x, int y, char *buf, size_t n);
/* Parses a point or move in the game's notation into display coordinates (*x = -1: a pass).
 * RV_EINVAL when it is not one. */
rv_status pg_parse_point(const pg_game *p, const char *text, int *x, int *y);
/* The stone at display point (x, y). */
rv_color pg_at(const pg_game *p, int x, int y);
/* Fills marks[y * size + x]: legal moves (Reversi) or forbidden kinds for black (Renju, black
 * to move). Returns how many points are marked. */
int pg_marks(const pg_game *p, uint8_t *marks);

/*
 * Plays a move given as text in the game's notation (Reversi: "pass" too) for the side to
 * move. On failure returns the status, writes a reason to why ("forbidden move h8:
 * double-three") and *kind gets the forbidden kind (or 0). Under Reversi a forced pass of the
 * next player is played at once (it is part of the record).
 */
rv_status pg_play_text(pg_game *p, const char *text, char *why, size_t n, int *kind);
/* The same for display coordinates. */
rv_status pg_play_xy(pg_game *p, int x, int y, char *why, size_t n, int *kind);
/* Takes back the last move (a Reversi forced pass goes with the move before it). */
rv_status pg_undo(pg_game *p);
/* Takes back moves until colour `who` has one move fewer, so it is `who`'s turn again (the
 * opponent's moves after it go too). RV_EEMPTY (nothing changed) when `who` has no move. */
rv_status pg_undo_for(pg_game *p, rv_color who);
/* Resigns for colour c. RV_EOVER when the game is over. */
rv_status pg_resign(pg_game *p, rv_color c);

/* The result line ("black wins: five c3-g7", "black wins 40-24", "white wins: black
 * resigned", "draw: board full"), or "" while the game goes on. */
void pg_result_text(const pg_game *p, char *buf, size_t n);
/* The winner (RV_EMPTY for a draw or a game going on). */
rv_color pg_winner(const pg_game *p);
/* Disc counts (Reversi) or stone counts. */
void pg_counts(const pg_game *p, int *black, int *white);

/* Export formats: "psq", "moves", "ggf", "transcript". Returns a malloc'd text or NULL
 * (format not for this game, or out of memory). */
char *pg_export(const pg_game *p, const char *format);
/* Loads a record (move list, PSQ, transcript or GGF) into a new game of the same kind. */
rv_status pg_load(pg_game *p, const char *text, char *why, size_t n);

/* An engine for both games, owned by one thread. */
typedef struct pg_ai pg_ai;
pg_ai *pg_ai_new(void);
void pg_ai_free(pg_ai *ai);
/* Asks a think running in another thread to return soon. */
void pg_ai_stop(pg_ai *ai);
/* Chooses a move (display coordinates; *x = -1 for a pass) at level 1..20, at most ms
 * milliseconds (0: the level's own time). RV_EOVER when there is nothing to play. */
rv_status pg_ai_think(pg_ai *ai, const pg_game *p, int level, int ms, int *x, int *y);

#endif
