/* `points` and `end` of the state and replay messages (docs/protocol-web.md). The result
 * itself comes from the library; this only writes it down. */
#include "server/game_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *srv_points_json(const pg_game *p) {
    int n = pg_nmoves(p);
    size_t cap = (size_t)n * 10 + 3;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t len = 0;
    out[len++] = '[';
    for (int i = 0; i < n; i++) {
        int x, y;
        if (i) out[len++] = ',';
        if (pg_move_xy(p, i, &x, &y)) len += (size_t)snprintf(out + len, cap - len, "[%d,%d]", x, y);
        else len += (size_t)snprintf(out + len, cap - len, "null");
    }
    out[len++] = ']';
    out[len] = 0;
    return out;
}

static const char *side(rv_color c) { return c == RV_BLACK ? "black" : c == RV_WHITE ? "white" : "draw"; }

char *srv_end_json(const pg_game *p) {
    char *out = malloc(512);
    if (!out) return NULL;
    if (!pg_over(p)) {
        strcpy(out, "null");
        return out;
    }
    rv_color win = pg_winner(p);
    int len = snprintf(out, 512, "{\"winner\":\"%s\"", side(win));
    if (p->resigned) {
        snprintf(out + len, 512 - (size_t)len, ",\"reason\":\"resign\",\"loser\":\"%s\"}", side(p->resigned));
        return out;
    }
    int b, w;
    pg_counts(p, &b, &w);
    if (p->reversi) {
        snprintf(out + len, 512 - (size_t)len, ",\"reason\":\"score\",\"score\":[%d,%d],\"discs\":[%d,%d]}",
                 b, w, b, w);
        return out;
    }
    rv_gomoku_result r;
    rv_gomoku_get_result(&p->g, &r);
    if (r.winner == RV_EMPTY) {
        snprintf(out + len, 512 - (size_t)len, ",\"reason\":\"board_full\"}");
    } else if (r.forbidden) {
        char t[8];
        pg_point_text(p, r.x0, r.y0, t, sizeof t);
        snprintf(out + len, 512 - (size_t)len,
                 ",\"reason\":\"forbidden\",\"point\":\"%s\",\"xy\":[%d,%d],\"kind\":\"%s\"}", t, r.x0, r.y0,
                 rv_forbid_name(r.forbid_kind));
    } else {
        /* The row from one end stone to the other, one step at a time. */
        int dx = (r.x1 > r.x0) - (r.x1 < r.x0), dy = (r.y1 > r.y0) - (r.y1 < r.y0);
        int steps = abs(r.x1 - r.x0) > abs(r.y1 - r.y0) ? abs(r.x1 - r.x0) : abs(r.y1 - r.y0);
        char a[8], z[8];
        pg_point_text(p, r.x0, r.y0, a, sizeof a);
        pg_point_text(p, r.x1, r.y1, z, sizeof z);
        len += snprintf(out + len, 512 - (size_t)len,
                        ",\"reason\":\"five\",\"from\":\"%s\",\"to\":\"%s\",\"length\":%d,\"line\":[", a, z,
                        steps + 1);
        for (int i = 0; i <= steps && len < 480; i++)
            len += snprintf(out + len, 512 - (size_t)len, "%s[%d,%d]", i ? "," : "", r.x0 + i * dx, r.y0 + i * dy);
        snprintf(out + len, 512 - (size_t)len, "]}");
    }
    return out;
}
