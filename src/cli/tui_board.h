/* Drawing the board for the terminal game: plain text, or ANSI colours on a terminal. */
#ifndef RV_TUI_BOARD_H
#define RV_TUI_BOARD_H

#include <stdio.h>

#include "renversi/game.h"
#include "cli/tui_text.h"

/* Prints the board with coordinates, the last move in [ ], forbidden points (#) for black
 * under Renju, legal moves (*) in Reversi, and a legend. ansi = 1 adds colours. */
void tui_draw(FILE *out, const rv_game *p, int ansi, tui_lang lang);

#endif
