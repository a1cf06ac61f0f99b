/*
 * renversi — one game of either kind (Gomoku family or Reversi) behind one
 * interface: variant and size, moves, undo, passes, resignation and time
 * losses, the result with its reason, the marks a board shows, notation and
 * records. Every front end that referees or shows a game (the judge, the
 * terminal game, the server's rooms, the match referee) asks this module, so
 * a result is computed in exactly one place: rv_game_get_result().
 *
 * Coordinates are display coordinates for both games: x the column from the
 * left, y the row from the TOP, both from 0 (Reversi square = y * 8 + x).
 * Rules come from gomoku.h and reversi.h, notation from the record modules.
 *
 * An rv_game is a plain struct (about 9 KB) the caller owns; it may be copied
 * with memcpy. Its fields are private: use the functions. Nothing here keeps
 * global state; functions that fail leave the game unchanged.
 */
#ifndef RENVERSI_GAME_H
#define RENVERSI_GAME_H

#include "renversi/common.h"
#include "renversi/gomoku.h"
#include "renversi/reversi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a game ended (rv_game_result.end). */
typedef enum rv_game_end {
    RV_END_NONE = 0,   /* the game goes on */
    RV_END_FIVE,       /* a winning row (five, or an overline where the rule lets it win) */
    RV_END_FORBIDDEN,  /* Renju: black played a forbidden point and lost (rv_game_play_forced) */
    RV_END_BOARD_FULL, /* Gomoku family: the board is full, a draw */
    RV_END_RESIGN,     /* a player resigned */
    RV_END_TIME,       /* a player lost on time */
    RV_END_SCORE       /* Reversi: neither side can move; the discs decide */
} rv_game_end;

/* The result of a game, as rv_game_get_result() computes it. */
typedef struct rv_game_result {
    rv_game_end end;
    rv_color winner; /* RV_EMPTY for a draw or a game going on */
    rv_color loser;  /* RV_END_RESIGN / RV_END_TIME: who resigned or ran out of time */
    /*
     * The score. Reversi ended by RV_END_SCORE: tournament scoring (othello.md),
     * the empty squares go to the winner and are shared in a draw, so
     * black + white = 64. Otherwise the discs or stones on the board.
     */
    int black, white;
    int discs_black, discs_white; /* discs or stones on the board as they stand */
    /*
     * RV_END_FIVE: the winning row's end stones, (x0, y0) the one written first
     * (smaller column, or on a column the lower row), and its length (5, or more
     * for an overline). RV_END_FORBIDDEN: both ends are the forbidden point.
     */
    int x0, y0, x1, y1, length;
    rv_forbid_kind kind; /* RV_END_FORBIDDEN: why the point was forbidden */
} rv_game_result;

/* Marks from rv_game_marks(): a legal move, or the rv_forbid_kind of a forbidden point. */
enum { RV_MARK_NONE = 0, RV_MARK_LEGAL = 1 };

typedef struct rv_game {
    /* private */
    int reversi;        /* 0: Gomoku family, 1: Reversi */
    int size;           /* board side */
    char variant[16];   /* canonical name: freestyle, standard, renju, caro, standard-caro, reversi */
    rv_game_end conceded; /* RV_END_RESIGN or RV_END_TIME, or RV_END_NONE */
    rv_color loser;       /* who resigned or lost on time */
    rv_gomoku g;
    rv_reversi_game r;
} rv_game;

/* ---------------------------------------------------------------- setup and queries */

/*
 * Starts a game of a variant: freestyle (also "gomoku"), standard, renju, caro,
 * standard-caro, reversi (also "othello"); size 0 = the default (15, Reversi 8).
 * RV_EINVAL (unknown variant) or RV_ERANGE (size; Reversi is 8 only), with a
 * one-line message in err (errlen bytes) when err is not NULL.
 */
rv_status rv_game_init(rv_game *g, const char *variant, int size, char *err, size_t errlen);

/* Starts a Reversi game from a game record (its start position and moves, passes included);
 * a pass the next player is forced to make is played at once. */
void rv_game_init_reversi(rv_game *g, const rv_reversi_game *record);

int rv_game_is_reversi(const rv_game *g);
/* The canonical variant name (see rv_game_init). */
const char *rv_game_variant(const rv_game *g);
/* The board side (8 for Reversi). */
int rv_game_size(const rv_game *g);
/* The underlying rules state (read only), for engines and searches. */
const rv_gomoku *rv_game_gomoku(const rv_game *g);
const rv_reversi_game *rv_game_reversi(const rv_game *g);

/* The side to move; RV_EMPTY when the game is over. */
rv_color rv_game_to_move(const rv_game *g);
/* 1 when the game is over. */
int rv_game_over(const rv_game *g);
/* Moves played, Reversi passes included. */
int rv_game_nmoves(const rv_game *g);
/* 1 when move i is a (Reversi) pass. */
int rv_game_is_pass(const rv_game *g, int i);
/* The colour that played move i (RV_EMPTY when there is no such move). */
rv_color rv_game_move_color(const rv_game *g, int i);
/* Display coordinates of move i; 0 when it is a pass or out of range. */
int rv_game_move_xy(const rv_game *g, int i, int *x, int *y);
/* The stone or disc at (x, y); RV_EMPTY off the board. */
rv_color rv_game_at(const rv_game *g, int x, int y);
/*
 * Fills marks[y * size + x] (size * size bytes) for the side to move:
 * RV_MARK_LEGAL on Reversi's legal moves, the rv_forbid_kind on Renju's
 * forbidden points when black is to move. Returns how many points are marked
 * (0 when the game is over).
 */
int rv_game_marks(const rv_game *g, uint8_t *marks);

/* ---------------------------------------------------------------- notation */

/* The name of point (x, y) ("h8", "d3") into buf; "?" off the board. */
void rv_game_point_text(const rv_game *g, int x, int y, char *buf, size_t n);
/* Move i in the game's notation ("h8", "d3", "pass") into buf; "?" out of range. */
void rv_game_move_text(const rv_game *g, int i, char *buf, size_t n);
/* Reads a point in the game's notation (blanks around it allowed) into display
 * coordinates; Reversi "pass" or "pa" gives *x = *y = -1. RV_EINVAL otherwise. */
rv_status rv_game_parse_point(const rv_game *g, const char *text, int *x, int *y);

/* ---------------------------------------------------------------- moves */

/*
 * Plays (x, y) (Reversi: x = -1 is a pass) for the side to move. Fails with
 * the rules' status (RV_ERANGE, RV_EOCCUPIED, RV_EILLEGAL, RV_EOVER,
 * RV_EFORBIDDEN: a Renju forbidden point is refused, *kind set) and a one-line
 * reason in why ("forbidden move h8: double-three"). Under Reversi a pass the
 * next player is forced to make is played at once (it is part of the record).
 * kind may be NULL; why may be NULL.
 */
rv_status rv_game_play_xy(rv_game *g, int x, int y, char *why, size_t n, int *kind);
/* The same for a move written in the game's notation (RV_EINVAL when it is not one). */
rv_status rv_game_play_text(rv_game *g, const char *text, char *why, size_t n, int *kind);
/* Like rv_game_play_xy, but a Renju forbidden point is played and ends the game (white
 * wins, RV_END_FORBIDDEN): what a referee records. */
rv_status rv_game_play_forced(rv_game *g, int x, int y, char *why, size_t n);
/* Takes back the last move (a Reversi forced pass goes with the move before it), or a
 * resignation or time loss. RV_EEMPTY when there is nothing to take back. */
rv_status rv_game_undo(rv_game *g);
/* Takes back moves until colour `who` has one move fewer, so it is `who`'s turn again
 * (the opponent's moves after it go too). RV_EEMPTY (nothing changed) when it has none. */
rv_status rv_game_undo_for(rv_game *g, rv_color who);
/* Colour c resigns / loses on time. RV_EOVER when the game is already over. */
rv_status rv_game_resign(rv_game *g, rv_color c);
rv_status rv_game_lose_on_time(rv_game *g, rv_color c);

/* ---------------------------------------------------------------- result */

/* The result: why the game ended, the winner, the score and the winning row. */
void rv_game_get_result(const rv_game *g, rv_game_result *r);
/* The winner (RV_EMPTY for a draw or a game going on). */
rv_color rv_game_winner(const rv_game *g);
/*
 * The result in words, the judge's wording, into buf; "" while the game goes on:
 *   black wins: five c3-g7 | white wins: overline a1-f6
 *   white wins: black's forbidden move h8 (double-three)
 *   draw: board full | white wins: black resigned | black wins: white lost on time
 *   black wins 50-14 | white wins 33-31 | draw 32-32   (Reversi, empties to the winner)
 * Returns the length the full text needs (like snprintf).
 */
size_t rv_game_result_text(const rv_game *g, char *buf, size_t n);
/* The result text, or "black to move" / "white to move" while the game goes on. */
size_t rv_game_status_text(const rv_game *g, char *buf, size_t n);

/* ---------------------------------------------------------------- records */

/*
 * Writes the game as a record into a malloc'd, NUL-terminated text ending in a
 * newline: "moves" (h8 i9 ... / f5 d6 pa ...), "psq" (Gomoku), "transcript"
 * and "ggf" (Reversi; the GGF result is black's disc difference with the
 * empties to the winner, ":r" after a resignation, ":t" after a time loss).
 * RV_EINVAL for a format this game has no writer for, RV_ENOMEM.
 */
rv_status rv_game_export(const rv_game *g, const char *format, char **out);
/*
 * Reads a record of len bytes (Gomoku: a move list or PSQ; Reversi: a transcript
 * or GGF) into a new game of g's variant (PSQ may change the size), replaying
 * every move through the rules. On failure g is unchanged and why gets a one-line
 * reason. An empty record is RV_EEMPTY.
 */
rv_status rv_game_load(rv_game *g, const char *text, size_t len, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
