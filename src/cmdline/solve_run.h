/*
 * Shared by `renversi solve` and `renversi bench solve`: reading an OBF file
 * and solving its positions, in order or on several threads.
 */
#ifndef RV_CLI_SOLVE_RUN_H
#define RV_CLI_SOLVE_RUN_H

#include "renversi/reversi_ai.h"
#include "renversi/reversi_record.h"

#include <stdio.h>

typedef struct solve_item {
    rv_reversi_obf obf;     /* the position and the file's scores, if any */
    long line;              /* line number in the input */
    rv_reversi_solve_result res;
    double seconds;
    rv_status status;
} solve_item;

typedef struct solve_set {
    solve_item *items;
    int n, cap;
    int first_index; /* INDEX printed for items[0], minus one */
} solve_set;

/*
 * Reads every position of f (blank, '#' and '%' lines skipped).  Returns 0,
 * or prints "renversi CMD: NAME:LINE: message" and returns -1 (bad OBF, too
 * long a line, a read error, out of memory, no position at all).
 */
int solve_read(const char *cmd, const char *name, FILE *f, solve_set *set);

/*
 * Solves items [0, n) with `threads` engines of tt_mb megabytes each.  When
 * `print` is set, prints each result line "INDEX MOVE SCORE NODES SECONDS" in
 * order as soon as it and all before it are done; print == 2 adds " WRONG"
 * when the result disagrees with the file's scores.  Returns 0, or -1 when an
 * engine could not be created.
 */
int solve_run(solve_set *set, int threads, size_t tt_mb, int wld, int print);

/* True when the item's move and score agree with the file's scores (always
 * true when the file gives none). With wld, only the sign is compared. */
int solve_agrees(const solve_item *it, int wld);

void solve_free(solve_set *set);

#endif
