/* `points` and `end` of the state and replay messages (docs/protocol-web.md). The result
 * comes from the library (rv_game_get_result); this only writes it down. */
#include "server/game_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *srv_points_json(const rv_game *g) {
    int n = rv_game_nmoves(g);
    size_t cap = (size_t)n * 10 + 3;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t len = 0;
    out[len++] = '[';
    for (int i = 0; i < n; i++) {
        int x, y;
        if (i) out[len++] = ',';
        if (rv_game_move_xy(g, i, &x, &y)) len += (size_t)snprintf(out + len, cap - len, "[%d,%d]", x, y);
        else len += (size_t)snprintf(out + len, cap - len, "null");
    }
    out[len++] = ']';
    out[len] = 0;
    return out;
}

static const char *side(rv_color c) { return c == RV_BLACK ? "black" : c == RV_WHITE ? "white" : "draw"; }

static const char *reason_name(rv_game_end e) {
    switch (e) {
    case RV_END_FIVE: return "five";
    case RV_END_FORBIDDEN: return "forbidden";
    case RV_END_BOARD_FULL: return "board_full";
    case RV_END_RESIGN: return "resign";
    case RV_END_TIME: return "time";
    case RV_END_SCORE: return "score";
    default: return "";
    }
}

/* The longest end object: a winning row across a 26×26 board. */
enum { END_CAP = 160 + 26 * 10 };

char *srv_end_json(const rv_game *g) {
    char *out = malloc(END_CAP);
    if (!out) return NULL;
    rv_game_result r;
    rv_game_get_result(g, &r);
    if (r.end == RV_END_NONE) {
        strcpy(out, "null");
        return out;
    }
    int len = snprintf(out, END_CAP, "{\"reason\":\"%s\",\"winner\":\"%s\"", reason_name(r.end), side(r.winner));
    char a[8], z[8];
    switch (r.end) {
    case RV_END_RESIGN:
    case RV_END_TIME:
        len += snprintf(out + len, END_CAP - (size_t)len, ",\"loser\":\"%s\"", side(r.loser));
        break;
    case RV_END_SCORE:
        len += snprintf(out + len, END_CAP - (size_t)len, ",\"score\":[%d,%d],\"discs\":[%d,%d]", r.black,
                        r.white, r.discs_black, r.discs_white);
        break;
    case RV_END_FORBIDDEN:
        rv_game_point_text(g, r.x0, r.y0, a, sizeof a);
        len += snprintf(out + len, END_CAP - (size_t)len, ",\"point\":\"%s\",\"xy\":[%d,%d],\"kind\":\"%s\"", a,
                        r.x0, r.y0, rv_forbid_name(r.kind));
        break;
    case RV_END_FIVE: {
        /* Every stone of the row, from one end stone to the other. */
        int dx = (r.x1 > r.x0) - (r.x1 < r.x0), dy = (r.y1 > r.y0) - (r.y1 < r.y0);
        rv_game_point_text(g, r.x0, r.y0, a, sizeof a);
        rv_game_point_text(g, r.x1, r.y1, z, sizeof z);
        len += snprintf(out + len, END_CAP - (size_t)len, ",\"from\":\"%s\",\"to\":\"%s\",\"length\":%d,\"line\":[",
                        a, z, r.length);
        for (int i = 0; i < r.length && i < 26; i++)
            len += snprintf(out + len, END_CAP - (size_t)len, "%s[%d,%d]", i ? "," : "", r.x0 + i * dx,
                            r.y0 + i * dy);
        len += snprintf(out + len, END_CAP - (size_t)len, "]");
        break;
    }
    default: break;
    }
    snprintf(out + len, END_CAP - (size_t)len, "}");
    return out;
}

/* The step of one move: the mover's stone, then the points whose stone changed, the move's
 * own point (mx, my) first. before[] holds the board before it as rv_color values. */
static size_t step_text(const rv_game *after, const unsigned char *before, int mx, int my, char *d) {
    int n = rv_game_size(after);
    size_t len = 0;
    if (mx >= 0 && my >= 0 && rv_game_at(after, mx, my) != (rv_color)before[my * n + mx]) {
        d[len++] = rv_game_at(after, mx, my) == RV_BLACK ? 'X' : 'O';
        d[len++] = (char)('a' + mx);
        d[len++] = (char)('a' + my);
    }
    for (int k = 0; k < n * n; k++) {
        rv_color col = rv_game_at(after, k % n, k / n);
        if (col == (rv_color)before[k] || (k % n == mx && k / n == my)) continue;
        if (!len) d[len++] = col == RV_BLACK ? 'X' : 'O';
        d[len++] = (char)('a' + k % n);
        d[len++] = (char)('a' + k / n);
    }
    d[len] = 0;
    return len;
}

char *srv_recent_json(const rv_game *g, int k) {
    int n = rv_game_size(g), nm = rv_game_nmoves(g);
    rv_game *w = malloc(sizeof *w);
    unsigned char *before = malloc((size_t)n * n);
    size_t cap = 40 + (size_t)k * (4 + 2 * (size_t)n * n);
    char *out = malloc(cap), *d = malloc(2 * (size_t)n * n + 4);
    if (!w || !before || !out || !d) {
        free(w), free(before), free(out), free(d);
        return NULL;
    }
    /* Back to k moves ago (a forced pass goes with the move before it), then forward again. */
    *w = *g;
    while (rv_game_nmoves(w) > nm - k && rv_game_undo(w) == RV_OK) {}
    int from = rv_game_nmoves(w);
    size_t len = (size_t)snprintf(out, cap, "{\"from\":%d,\"steps\":[", from);
    for (int i = from; i < nm; i++) {
        for (int q = 0; q < n * n; q++) before[q] = (unsigned char)rv_game_at(w, q % n, q / n);
        if (i >= rv_game_nmoves(w)) {
            char t[16], why[64];
            int kind;
            rv_game_move_text(g, i, t, sizeof t);
            if (rv_game_play_text(w, t, why, sizeof why, &kind) != RV_OK) break;
        }
        int mx = -1, my = -1;
        if (!rv_game_move_xy(g, i, &mx, &my)) mx = my = -1;
        /* A forced pass was played with the move before it: its step is empty. */
        if (rv_game_is_pass(g, i)) d[0] = 0;
        else step_text(w, before, mx, my, d);
        len += (size_t)snprintf(out + len, cap - len, "%s\"%s\"", i > from ? "," : "", d);
    }
    snprintf(out + len, cap - len, "]}");
    free(w);
    free(before);
    free(d);
    return out;
}
