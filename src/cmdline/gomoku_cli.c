/* Helpers shared by the Gomoku subcommands: move lists in, one-line errors out. */
#include "cmdline/gomoku_cli.h"

#include "cmdline/cmdline.h"

#include <stdlib.h>
#include <string.h>

int rv_gcli_parse_moves(const char *cmd, const char *where, const char *text, size_t len, int width,
                        int height, rv_gomoku_point *pts) {
    rv_parse_error err;
    int n = 0;
    rv_status s = rv_gomoku_moves_parse(text, len, height, pts, width * height, &n, &err);
    if (s == RV_ETOOLONG) {
        rv_cli_fail(cmd, "%smore moves than the %dx%d board has points", where, width, height);
        return -1;
    }
    if (s != RV_OK) {
        rv_cli_fail(cmd, "%sbad point '%s' at offset %zu: expected %s", where, err.token,
                    err.offset, err.expected);
        return -1;
    }
    return n;
}

const char *rv_gcli_point(int x, int y, int height, char buf[8]) {
    if (rv_gomoku_point_format(x, y, height, buf, 8) < 0) strcpy(buf, "?");
    return buf;
}

int rv_gcli_place(const char *cmd, const char *where, const char *what, rv_gomoku *g,
                  const rv_gomoku_point *pts, int n, rv_color c) {
    int w = rv_gomoku_width(g), h = rv_gomoku_height(g);
    for (int i = 0; i < n; i++) {
        char p[8];
        int x = pts[i].x, y = pts[i].y;
        if (x < 0 || y < 0 || x >= w || y >= h) {
            rv_cli_fail(cmd, "%s%s %d (%s): off the %dx%d board", where, what, i + 1,
                        rv_gcli_point(x, y, h, p), w, h);
            return -1;
        }
        if (rv_gomoku_at(g, x, y) != RV_EMPTY) {
            rv_cli_fail(cmd, "%s%s %d (%s): occupied", where, what, i + 1,
                        rv_gcli_point(x, y, h, p));
            return -1;
        }
        rv_color col = c != RV_EMPTY ? c : i % 2 ? RV_WHITE : RV_BLACK;
        rv_gomoku_set_stone(g, x, y, col);
    }
    return 0;
}

char *rv_gcli_join(char **items, int n) {
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(items[i]) + 1;
    char *s = malloc(len);
    if (s == NULL) return NULL;
    s[0] = '\0';
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t k = strlen(items[i]);
        if (i > 0) s[at++] = ' ';
        memcpy(s + at, items[i], k);
        at += k;
        s[at] = '\0';
    }
    return s;
}
