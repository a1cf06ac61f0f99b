/*
 * Internal helpers shared by the Gomoku subcommands (forbidden, judge, bench
 * forbidden): option values and move lists with one-line error messages.
 */
#ifndef RV_GOMOKU_CLI_H
#define RV_GOMOKU_CLI_H

#include "renversi/gomoku_record.h"

#include <stddef.h>

/*
 * Parses a move list of len bytes for a width x height board into pts
 * (RV_GOMOKU_MAX_POINTS long). On a malformed token or too many points prints
 * "renversi CMD: WHERE..." on stderr (where: "" or "line 3: ") and returns -1;
 * otherwise returns the number of points (possibly off the board).
 */
int rv_gcli_parse_moves(const char *cmd, const char *where, const char *text, size_t len, int width,
                        int height, rv_gomoku_point *pts);

/*
 * Places n points as set-up stones: alternating black/white from black when
 * c is RV_EMPTY, else all of colour c. On a point off the board or occupied,
 * prints "renversi CMD: WHERE<what> N (h8): off the board|occupied" and returns -1.
 */
int rv_gcli_place(const char *cmd, const char *where, const char *what, rv_gomoku *g,
                  const rv_gomoku_point *pts, int n, rv_color c);

/* Joins items[0..n) with spaces into a malloc'd string (NULL if out of memory). */
char *rv_gcli_join(char **items, int n);

/* Formats (x, y) as "h8" into buf (8 bytes); "?" if it cannot be named. */
const char *rv_gcli_point(int x, int y, int height, char buf[8]);

#endif
