/* The Gomoku board: set-up, moves, take-backs and winner detection for every rule variant. */
#include "gomoku/lines.h"

#include <string.h>

/* Writes colour c at (x, y) into the cell array and the four bit lines. */
static void put(rv_gomoku *g, int x, int y, rv_color c) {
    int i = y * g->width + x;
    if (g->cell[i] != RV_EMPTY) g->nstones--;
    if (c != RV_EMPTY) g->nstones++;
    g->cell[i] = (uint8_t)c;
    for (int d = 0; d < 4; d++) {
        int li = rv_line_index(d, x, y, g->height);
        uint64_t bit = (uint64_t)1 << (rv_line_pos(d, x, y) + 5);
        g->black[d][li] &= ~bit;
        g->other[d][li] &= ~bit;
        if (c == RV_BLACK)
            g->black[d][li] |= bit;
        else if (c == RV_WHITE)
            g->other[d][li] |= bit;
    }
}

rv_status rv_gomoku_init(rv_gomoku *g, int width, int height, rv_gomoku_rule rule) {
    if (width < RV_GOMOKU_MIN_SIZE || width > RV_GOMOKU_MAX_SIZE || height < RV_GOMOKU_MIN_SIZE ||
        height > RV_GOMOKU_MAX_SIZE)
        return RV_ERANGE;
    if (rule != RV_RULE_FREESTYLE && rule != RV_RULE_STANDARD && rule != RV_RULE_RENJU &&
        rule != RV_RULE_CARO && rule != RV_RULE_STANDARD_CARO)
        return RV_EINVAL;
    memset(g, 0, sizeof *g);
    g->width = width;
    g->height = height;
    g->rule = rule;
    /* Every bit is "off the board" until its point is found on the board. */
    memset(g->other, 0xff, sizeof g->other);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            for (int d = 0; d < 4; d++)
                g->other[d][rv_line_index(d, x, y, height)] &=
                    ~((uint64_t)1 << (rv_line_pos(d, x, y) + 5));
    return RV_OK;
}

int rv_gomoku_width(const rv_gomoku *g) { return g->width; }
int rv_gomoku_height(const rv_gomoku *g) { return g->height; }
rv_gomoku_rule rv_gomoku_get_rule(const rv_gomoku *g) { return g->rule; }

static int on_board(const rv_gomoku *g, int x, int y) {
    return x >= 0 && y >= 0 && x < g->width && y < g->height;
}

rv_color rv_gomoku_at(const rv_gomoku *g, int x, int y) {
    return on_board(g, x, y) ? (rv_color)g->cell[y * g->width + x] : RV_EMPTY;
}

rv_color rv_gomoku_to_move(const rv_gomoku *g) { return g->nmoves % 2 == 0 ? RV_BLACK : RV_WHITE; }

int rv_gomoku_move_count(const rv_gomoku *g) { return g->nmoves; }

rv_status rv_gomoku_move_at(const rv_gomoku *g, int i, int *x, int *y) {
    if (i < 0 || i >= g->nmoves) return RV_ERANGE;
    *x = g->moves[i] % g->width;
    *y = g->moves[i] / g->width;
    return RV_OK;
}

/*
 * Does the stone at (x, y) complete a winning row under the board's rule?
 * Fills the result (winner and the row's two end stones) when it does. Every
 * direction is tried: under Renju an exact five by black wins even when the
 * same stone also makes an overline on another line.
 */
static int find_win(const rv_gomoku *g, int x, int y, rv_gomoku_result *r) {
    rv_color c = rv_gomoku_at(g, x, y), opp = rv_opponent(c);
    if (c == RV_EMPTY) return 0;
    for (int d = 0; d < 4; d++) {
        int dx = rv_dir_dx[d], dy = rv_dir_dy[d];
        int ax = x, ay = y, bx = x, by = y;
        while (rv_gomoku_at(g, ax - dx, ay - dy) == c) ax -= dx, ay -= dy;
        while (rv_gomoku_at(g, bx + dx, by + dy) == c) bx += dx, by += dy;
        int len = (d == RV_DIR_COL ? by - ay : bx - ax) + 1;
        /* Caro: opponent stones just beyond both ends; the edge does not block. */
        int blocked =
            rv_gomoku_at(g, ax - dx, ay - dy) == opp && rv_gomoku_at(g, bx + dx, by + dy) == opp;
        int win = 0;
        switch (g->rule) {
        case RV_RULE_FREESTYLE: win = len >= 5; break;
        case RV_RULE_STANDARD: win = len == 5; break;
        case RV_RULE_RENJU: win = c == RV_BLACK ? len == 5 : len >= 5; break;
        case RV_RULE_CARO: win = len >= 6 || (len == 5 && !blocked); break;
        case RV_RULE_STANDARD_CARO: win = len == 5 && !blocked; break;
        }
        if (!win) continue;
        memset(r, 0, sizeof *r);
        r->over = 1;
        r->winner = c;
        /* Ends ordered as printed: by column, then by row number (bottom first). */
        if (ax < bx || (ax == bx && ay > by)) {
            r->x0 = ax, r->y0 = ay, r->x1 = bx, r->y1 = by;
        } else {
            r->x0 = bx, r->y0 = by, r->x1 = ax, r->y1 = ay;
        }
        return 1;
    }
    return 0;
}

rv_status rv_gomoku_check(const rv_gomoku *g, int x, int y, rv_forbid_kind *kind) {
    if (g->result.over) return RV_EOVER;
    if (!on_board(g, x, y)) return RV_ERANGE;
    if (g->cell[y * g->width + x] != RV_EMPTY) return RV_EOCCUPIED;
    if (g->rule == RV_RULE_RENJU && rv_gomoku_to_move(g) == RV_BLACK) {
        rv_forbid_kind k = rv_gomoku_forbidden(g, x, y);
        if (k != RV_FORBID_NONE) {
            if (kind) *kind = k;
            return RV_EFORBIDDEN;
        }
    }
    return RV_OK;
}

/* Puts the side to move's stone on (x, y) and records it as a move. */
static void place_move(rv_gomoku *g, int x, int y) {
    put(g, x, y, rv_gomoku_to_move(g));
    g->moves[g->nmoves++] = (uint16_t)(y * g->width + x);
}

rv_status rv_gomoku_play(rv_gomoku *g, int x, int y) {
    rv_status s = rv_gomoku_check(g, x, y, NULL);
    if (s != RV_OK) return s;
    place_move(g, x, y);
    if (!find_win(g, x, y, &g->result) && g->nstones == g->width * g->height) {
        memset(&g->result, 0, sizeof g->result);
        g->result.over = 1; /* a draw: winner stays RV_EMPTY */
    }
    return RV_OK;
}

rv_status rv_gomoku_play_forced(rv_gomoku *g, int x, int y) {
    rv_forbid_kind kind = RV_FORBID_NONE;
    rv_status s = rv_gomoku_check(g, x, y, &kind);
    if (s != RV_EFORBIDDEN) return s == RV_OK ? rv_gomoku_play(g, x, y) : s;
    place_move(g, x, y);
    memset(&g->result, 0, sizeof g->result);
    g->result.over = 1;
    g->result.winner = RV_WHITE;
    g->result.forbidden = 1;
    g->result.forbid_kind = kind;
    g->result.x0 = g->result.x1 = x;
    g->result.y0 = g->result.y1 = y;
    return RV_OK;
}

rv_status rv_gomoku_undo(rv_gomoku *g) {
    if (g->nmoves == 0) return RV_EEMPTY;
    int p = g->moves[--g->nmoves];
    put(g, p % g->width, p / g->width, RV_EMPTY);
    /* The position before a move was not over: moves after the end are refused. */
    memset(&g->result, 0, sizeof g->result);
    return RV_OK;
}

void rv_line_put(rv_gomoku *g, int x, int y, rv_color c) { put(g, x, y, c); }

rv_status rv_gomoku_set_stone(rv_gomoku *g, int x, int y, rv_color c) {
    if (!on_board(g, x, y)) return RV_ERANGE;
    if (c != RV_EMPTY && c != RV_BLACK && c != RV_WHITE) return RV_EINVAL;
    put(g, x, y, c);
    /* A set-up stone that completes a winning row ends the game like a move would. */
    if (c != RV_EMPTY && !g->result.over) find_win(g, x, y, &g->result);
    return RV_OK;
}

void rv_gomoku_get_result(const rv_gomoku *g, rv_gomoku_result *r) { *r = g->result; }

rv_status rv_gomoku_play_moves(rv_gomoku *g, const rv_gomoku_point *moves, int n, int *bad) {
    for (int i = 0; i < n; i++) {
        rv_status s = rv_gomoku_play_forced(g, moves[i].x, moves[i].y);
        if (s != RV_OK) {
            if (bad) *bad = i;
            return s;
        }
    }
    return RV_OK;
}
