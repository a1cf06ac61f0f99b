/* The terminal game's board (see tui_board.h). */
#include "cli/tui_board.h"

#include <stdlib.h>
#include <string.h>

#define A_RESET "\033[0m"
#define A_BLACK "\033[1;31m" /* black's stones: bold red X, readable on dark and light */
#define A_WHITE "\033[1;37m"
#define A_DIM "\033[2m"
#define A_LAST "\033[1;33m"
#define A_FORBID "\033[31m"
#define A_LEGAL "\033[32m"
#define A_LABEL "\033[36m"

static void labels(FILE *out, const rv_game *p, int ansi, int width) {
    fprintf(out, "%*s", width, "");
    if (ansi) fputs(A_LABEL, out);
    for (int x = 0; x < rv_game_size(p); x++) {
        char t[16];
        rv_game_point_text(p, x, 0, t, sizeof t);
        t[strcspn(t, "0123456789")] = 0;
        fprintf(out, " %s", t);
    }
    if (ansi) fputs(A_RESET, out);
    fputc('\n', out);
}

void tui_draw(FILE *out, const rv_game *p, int ansi, tui_lang lang) {
    int n = rv_game_size(p);
    uint8_t *marks = calloc((size_t)n * n, 1);
    int nmarks = marks ? rv_game_marks(p, marks) : 0;
    int lx = -1, ly = -1, nm = rv_game_nmoves(p);
    for (int i = nm - 1; i >= 0 && lx < 0; i--)
        if (rv_game_move_xy(p, i, &lx, &ly)) break; /* the last stone played (not a pass) */
    if (nm == 0) lx = ly = -1;
    char t[16];
    rv_game_point_text(p, 0, 0, t, sizeof t);
    int width = (int)strlen(t + strcspn(t, "0123456789"));
    rv_game_point_text(p, 0, n - 1, t, sizeof t);
    int w2 = (int)strlen(t + strcspn(t, "0123456789"));
    if (w2 > width) width = w2;
    labels(out, p, ansi, width);
    for (int y = 0; y < n; y++) {
        rv_game_point_text(p, 0, y, t, sizeof t);
        const char *row = t + strcspn(t, "0123456789");
        if (ansi) fprintf(out, A_LABEL "%*s" A_RESET, width, row);
        else fprintf(out, "%*s", width, row);
        for (int x = 0; x <= n; x++) {
            /* The character between two cells brackets the last move: [X]. */
            char sep = (y == ly && x == lx) ? '[' : (y == ly && x - 1 == lx) ? ']' : ' ';
            if (sep != ' ' && ansi) fprintf(out, A_LAST "%c" A_RESET, sep);
            else fputc(sep, out);
            if (x == n) break;
            rv_color c = rv_game_at(p, x, y);
            int m = marks ? marks[y * n + x] : 0;
            const char *col = "", *ch = ".";
            if (c == RV_BLACK) col = A_BLACK, ch = "X";
            else if (c == RV_WHITE) col = A_WHITE, ch = "O";
            else if (m == RV_MARK_LEGAL) col = A_LEGAL, ch = "*";
            else if (m) col = A_FORBID, ch = "#";
            else col = A_DIM;
            if (ansi) fprintf(out, "%s%s" A_RESET, col, ch);
            else fputs(ch, out);
        }
        if (ansi) fprintf(out, A_LABEL "%s" A_RESET "\n", row);
        else fprintf(out, "%s\n", row);
    }
    labels(out, p, ansi, width);
    fprintf(out, "%s", tui_text(lang, M_LEGEND_LAST));
    if (rv_game_is_reversi(p)) {
        rv_game_result r;
        rv_game_get_result(p, &r);
        fprintf(out, "   %s   X %d  O %d", tui_text(lang, M_LEGEND_REVERSI), r.discs_black,
                r.discs_white);
    } else if (nmarks) {
        fprintf(out, "   %s", tui_text(lang, M_LEGEND_RENJU));
    }
    fputc('\n', out);
    free(marks);
}
