/*
 * renversi — Gomoku / Renju board and rules.
 *
 * One rules engine parameterised by the rule variant and the board size
 * (shared/spec/renju.md). Points are given as (x, y): x the column from the
 * left, y the row from the TOP, both from 0 — the Gomocup convention. The
 * printed notation ("h8", row numbers from the bottom) lives in gomoku_record.h.
 *
 * An rv_gomoku is a plain struct (about 5 KB) the caller owns; it may live on
 * the stack and be copied with memcpy. Its fields are private: use the
 * functions. Nothing here allocates.
 */
#ifndef RENVERSI_GOMOKU_H
#define RENVERSI_GOMOKU_H

#include "renversi/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RV_GOMOKU_MIN_SIZE 5
#define RV_GOMOKU_MAX_SIZE 26
#define RV_GOMOKU_MAX_POINTS (RV_GOMOKU_MAX_SIZE * RV_GOMOKU_MAX_SIZE)
/* Lines per direction (the diagonals of a 26x26 board); private sizing. */
#define RV_GOMOKU_LINES (2 * RV_GOMOKU_MAX_SIZE - 1)

/* A point (x, y), x from the left and y from the top, both from 0. */
typedef struct rv_gomoku_point {
    int x, y;
} rv_gomoku_point;

/* Rule variants; the values are the Gomocup `INFO rule` codes. */
typedef enum rv_gomoku_rule {
    RV_RULE_FREESTYLE = 0,    /* five or more wins, for both */
    RV_RULE_STANDARD = 1,     /* exactly five wins; an overline does not */
    RV_RULE_RENJU = 4,        /* black: exactly five, forbidden points; white: five or more */
    RV_RULE_CARO = 8,         /* five not blocked at both ends, or six and more */
    RV_RULE_STANDARD_CARO = 9 /* exactly five not blocked at both ends */
} rv_gomoku_rule;

/* Why a point is forbidden for black under Renju (values: 3, 4, 6 as in the test data). */
typedef enum rv_forbid_kind {
    RV_FORBID_NONE = 0,
    RV_FORBID_DOUBLE_THREE = 3,
    RV_FORBID_DOUBLE_FOUR = 4,
    RV_FORBID_OVERLINE = 6
} rv_forbid_kind;

/* The state of a game after its last move. */
typedef struct rv_gomoku_result {
    int over;        /* 1 when the game has ended */
    rv_color winner; /* RV_EMPTY for a draw or a game still going */
    int forbidden;   /* 1 when black lost by playing a forbidden point (see play_forced) */
    rv_forbid_kind forbid_kind;
    /*
     * The winning row's two end stones (a five: 4 steps apart), (x0, y0) the
     * one printed first: smaller column, or on a column the lower row. For a
     * forbidden move both are that move.
     */
    int x0, y0, x1, y1;
} rv_gomoku_result;

typedef struct rv_gomoku {
    /* private */
    int width, height;
    rv_gomoku_rule rule;
    int nmoves;
    rv_gomoku_result result;
    int nstones;                          /* stones on the board (moves + setup) */
    uint8_t cell[RV_GOMOKU_MAX_POINTS];   /* rv_color, index y * width + x */
    uint16_t moves[RV_GOMOKU_MAX_POINTS]; /* played points in order, y * width + x */
    /*
     * The board again as bit lines, for the forbidden-point code: per direction
     * (row, column, diagonal, anti-diagonal) and line, bit (position + 5) is set
     * in black[] for a black stone and in other[] for a white stone or a point
     * off the board (5 guard bits on each side). See src/gomoku/lines.h.
     */
    uint64_t black[4][RV_GOMOKU_LINES];
    uint64_t other[4][RV_GOMOKU_LINES];
} rv_gomoku;

/* Parses a rule name: freestyle, standard (or exact5), renju, caro, standard-caro. */
rv_status rv_gomoku_rule_parse(const char *name, rv_gomoku_rule *out);

/* Maps a Gomocup `INFO rule` value (bit sum) to a variant; a lone 2 means Renju. */
rv_status rv_gomoku_rule_from_gomocup(int bits, rv_gomoku_rule *out);

/* The canonical name of a rule variant ("freestyle", "standard", "renju", ...). */
const char *rv_gomoku_rule_name(rv_gomoku_rule rule);

/* "double-three", "double-four", "overline", or "" for RV_FORBID_NONE. */
const char *rv_forbid_name(rv_forbid_kind kind);

/* An empty width×height board (each 5..26), black to move. RV_ERANGE on a bad size. */
rv_status rv_gomoku_init(rv_gomoku *g, int width, int height, rv_gomoku_rule rule);

int rv_gomoku_width(const rv_gomoku *g);
int rv_gomoku_height(const rv_gomoku *g);
rv_gomoku_rule rv_gomoku_get_rule(const rv_gomoku *g);

/* The stone at (x, y); RV_EMPTY for an empty or off-board point. */
rv_color rv_gomoku_at(const rv_gomoku *g, int x, int y);

/* Whose turn it is: black after an even number of moves. */
rv_color rv_gomoku_to_move(const rv_gomoku *g);

/* Number of moves played (setup stones are not moves). */
int rv_gomoku_move_count(const rv_gomoku *g);

/* The i-th move (0-based) into *x, *y. RV_ERANGE if there is no such move. */
rv_status rv_gomoku_move_at(const rv_gomoku *g, int i, int *x, int *y);

/*
 * Would the side to move be allowed to play (x, y)? RV_OK, or RV_ERANGE (off the
 * board), RV_EOCCUPIED, RV_EOVER (the game has ended), RV_EFORBIDDEN (Renju, black,
 * *kind set when kind is not NULL). Changes nothing.
 */
rv_status rv_gomoku_check(const rv_gomoku *g, int x, int y, rv_forbid_kind *kind);

/* Plays (x, y) for the side to move when rv_gomoku_check allows it; updates the result. */
rv_status rv_gomoku_play(rv_gomoku *g, int x, int y);

/*
 * Like rv_gomoku_play, but a Renju forbidden point is played and ends the game:
 * white wins, result.forbidden = 1 (what a referee records). Other errors as play.
 */
rv_status rv_gomoku_play_forced(rv_gomoku *g, int x, int y);

/*
 * Plays n moves in order with rv_gomoku_play_forced (so a record may end in
 * black's forbidden move). Stops at the first move that fails: returns its
 * status and its index in *bad (when not NULL); the moves before it stay played.
 */
rv_status rv_gomoku_play_moves(rv_gomoku *g, const rv_gomoku_point *moves, int n, int *bad);

/* Takes back the last move. RV_EEMPTY when no move has been played. */
rv_status rv_gomoku_undo(rv_gomoku *g);

/*
 * Puts a setup stone (c = RV_BLACK or RV_WHITE) or clears a point (RV_EMPTY),
 * outside the move history; the side to move stays as it is. For positions
 * given as stone sets. RV_ERANGE off the board.
 */
rv_status rv_gomoku_set_stone(rv_gomoku *g, int x, int y, rv_color c);

/* The game state after the last move (or setup). */
void rv_gomoku_get_result(const rv_gomoku *g, rv_gomoku_result *r);

/*
 * Renju: is the empty point (x, y) forbidden for BLACK in this position (whatever
 * the side to move and the board's rule)? Exact, recursive definition of
 * shared/spec/renju.md. RV_FORBID_NONE for occupied or off-board points.
 */
rv_forbid_kind rv_gomoku_forbidden(const rv_gomoku *g, int x, int y);

/*
 * Renju: the forbidden kind of every point for black into kinds[y * width + x]
 * (RV_FORBID_NONE for occupied points). Returns the number of forbidden points.
 */
int rv_gomoku_forbidden_map(const rv_gomoku *g, uint8_t *kinds);

/*
 * Would black playing the empty point (x, y) make a winning five under Renju
 * (a row of exactly five through it)? 0 for occupied or off-board points.
 */
int rv_gomoku_makes_five(const rv_gomoku *g, int x, int y);

#ifdef __cplusplus
}
#endif
#endif
