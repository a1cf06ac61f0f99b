/*
 * Internal to `renversi nboard`: the game clock a GUI or referee gives in the
 * GGF of `set game` (TI[] for both players, TB[]/TW[] for one), the time each
 * move took, and the share of what is left that one move may spend.
 */
#ifndef RV_PROTO_NBOARD_CLOCK_H
#define RV_PROTO_NBOARD_CLOCK_H

#include <stdint.h>

#include "renversi/reversi.h"

typedef struct nb_clock {
    int on;          /* a clock was given */
    double main_s[3]; /* main time by colour (RV_BLACK, RV_WHITE), seconds */
    double inc_s[3];  /* added after each of that colour's moves, seconds */
} nb_clock;

/*
 * Reads a GGF time control "MAIN[/INC[/EXT]]", each part [[H:]M:]S[.FRAC]
 * (an empty part is 0; the extension is not used). 0 on success with the
 * seconds in *main_s and *inc_s, -1 when the text is not a time control.
 */
int nb_clock_parse(const char *text, double *main_s, double *inc_s);

/*
 * Milliseconds the side to move of g may spend on this move: what its clock has
 * left after the moves so far (used[i] = seconds move i took), shared over the
 * moves it still has to play, less a margin for the pipe. At least 10.
 */
int64_t nb_clock_budget(const nb_clock *c, const rv_reversi_game *g, const double *used);

#endif
