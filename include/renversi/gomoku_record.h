/*
 * renversi — Gomoku notation: points ("h8"), move lists ("h8 i9 h10" or
 * "h8i9h10"), Gomocup coordinates ("7,7") and Piskvork PSQ game records.
 *
 * Printed points are <column letter><row number>: columns a.. from the left,
 * rows 1.. from the BOTTOM (h8 is the centre of 15x15). Library points
 * (rv_gomoku_point) count y from the top, so every conversion needs the board
 * height. Gomocup X,Y count from 0 at the top-left, PSQ x,y from 1. Everything
 * works on strings: no I/O, no allocation.
 */
#ifndef RENVERSI_GOMOKU_RECORD_H
#define RENVERSI_GOMOKU_RECORD_H

#include "renversi/gomoku.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses one point of exactly len bytes ("h8", "H8", "o15"): a letter a-z and
 * a row number 1-99 without leading zeros, on a board `height` rows high. The
 * result may lie off the board (x >= width, y < 0): callers check, so that they
 * can say "off the board". RV_EINVAL when malformed.
 */
rv_status rv_gomoku_point_parse(const char *s, size_t len, int height, int *x, int *y);

/*
 * Writes the point (x, y) of a board `height` rows high as "h8" into buf
 * (size >= 4 always suffices) and returns its length; RV_ERANGE (negative) when
 * the point cannot be named (x outside 0..25, row outside 1..99) or buf is too small.
 */
int rv_gomoku_point_format(int x, int y, int height, char *buf, size_t size);

/*
 * Parses a move list of len bytes: points separated by spaces, tabs or commas,
 * or written together ("h8i9h10"). Stores up to max points in out and their
 * number in *n; points may be off the board (see rv_gomoku_point_parse). An
 * empty list is RV_OK with *n = 0. RV_EINVAL on a malformed token, RV_ETOOLONG
 * when there are more than max points; err (when not NULL) then gets the
 * offset and text of the offending token. On failure out and *n are unchanged
 * except for points already stored.
 */
rv_status rv_gomoku_moves_parse(const char *s, size_t len, int height, rv_gomoku_point *out,
                                int max, int *n, rv_parse_error *err);

/*
 * Writes n points as "h8 i9 h10" into buf (NUL-terminated, cut to size) and
 * returns the length the whole list needs (as snprintf does), or RV_ERANGE
 * (negative) when a point cannot be named.
 */
int rv_gomoku_moves_format(const rv_gomoku_point *pts, int n, int height, char *buf, size_t size);

/*
 * Parses Gomocup coordinates "X,Y" (len bytes, decimal, 0-based from the
 * top-left, spaces allowed around the numbers). RV_EINVAL when malformed,
 * RV_ERANGE when a number is above RV_GOMOKU_MAX_SIZE - 1; the board's own
 * bounds are for the caller to check.
 */
rv_status rv_gomoku_gomocup_parse(const char *s, size_t len, int *x, int *y);

/* Writes "X,Y" into buf (size >= 6 suffices); returns its length or RV_ERANGE. */
int rv_gomoku_gomocup_format(int x, int y, char *buf, size_t size);

/* A Piskvork PSQ record: board size, moves in order and their thinking times. */
typedef struct rv_gomoku_psq {
    int width, height;
    int nmoves;
    rv_gomoku_point moves[RV_GOMOKU_MAX_POINTS];
    int32_t time_ms[RV_GOMOKU_MAX_POINTS];
} rv_gomoku_psq;

/*
 * Reads a PSQ record of len bytes: "Piskvorky WxH, ..." then one "x,y,ms"
 * line per move (1-based from the top-left; ",ms" optional); what follows the
 * moves (engine names, the result code) is ignored. Lines may end in LF, CR LF
 * or CR. RV_EINVAL (err filled when not NULL) on a bad header or a move off
 * the board (occupied points are found by replaying the moves), RV_ERANGE for
 * a board size outside 5..26. *out is unchanged on failure.
 */
rv_status rv_gomoku_psq_read(const char *text, size_t len, rv_gomoku_psq *out, rv_parse_error *err);

/*
 * Writes a PSQ record ("Piskvorky WxH, 11:11, 0", the moves, and "-1") into
 * buf (NUL-terminated, cut to size); returns the length the whole record needs.
 */
int rv_gomoku_psq_write(const rv_gomoku_psq *psq, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
