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
