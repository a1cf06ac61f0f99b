/*
 * One Gomoku/Renju game of `renversi match`, refereed by the rules module: an
 * occupied or off-board point, a Renju forbidden move, a protocol error, a crash
 * or a late answer ends the game against the engine at fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/match.h"
#include "renversi/core.h"
#include "renversi/gomoku_record.h"

/* The Gomocup rule code of a variant (spec/gomocup.md). */
static int gomocup_rule(rv_gomoku_rule r) { return (int)r; }

static void lose(game_result *res, int loser, int how, const char *fmt, const char *arg) {
    res->winner = 3 - loser;
    res->how = how;
    snprintf(res->detail, sizeof res->detail, fmt, arg);
}

/* Milliseconds an internal engine may use for this move. */
static int64_t budget(const match_tc *tc, int64_t clock_left, int empties) {
    int64_t b = 0;
    if (tc->turn_ms > 0) {
        int64_t margin = tc->turn_ms / 10 > 20 ? tc->turn_ms / 10 : 20;
        b = tc->turn_ms - margin;
    }
    if (tc->game_ms > 0) {
        int64_t moves_left = empties / 6;
        if (moves_left < 12) moves_left = 12;
        if (moves_left > 40) moves_left = 40;
        int64_t share = (clock_left - 50) / moves_left;
        if (b == 0 || share < b) b = share;
    }
    if ((tc->turn_ms > 0 || tc->game_ms > 0) && b < 2) b = 2;
    return b;
}

/* Sends the game start to an external brain; 0 when it answered OK. */
static int pbrain_start(engine *e, rv_gomoku_rule rule, int size, const match_tc *tc) {
    char line[512];
    if (engine_send(e, "START %d", size) != 0) return -1;
    for (;;) {
        int n = engine_read_line(e, line, sizeof line, 30000);
        if (n < 0) return -1;
        if (strncmp(line, "OK", 2) == 0) break;
        if (strncmp(line, "ERROR", 5) == 0) return -1;
    }
    engine_send(e, "INFO timeout_turn %lld", (long long)(tc->turn_ms > 0 ? tc->turn_ms : 0));
    engine_send(e, "INFO timeout_match %lld", (long long)tc->game_ms);
    engine_send(e, "INFO max_memory %lld", 268435456LL);
    engine_send(e, "INFO game_type 1");
    engine_send(e, "INFO rule %d", gomocup_rule(rule));
    return 0;
}

/* Asks an external brain for its move in g. 0 ok, -1 protocol error/crash, -2 late. */
static int pbrain_move(engine *e, const rv_gomoku *g, int64_t clock_left, const match_tc *tc,
                       int64_t wait_ms, int *x, int *y, char *why, size_t why_size) {
    if (tc->game_ms > 0) engine_send(e, "INFO time_left %lld", (long long)clock_left);
    int n = rv_gomoku_move_count(g);
    rv_color me = rv_gomoku_to_move(g);
    if (n == 0)
        engine_send(e, "BEGIN");
    else {
        engine_send(e, "BOARD");
        for (int i = 0; i < n; i++) {
            int mx, my;
            rv_gomoku_move_at(g, i, &mx, &my);
            engine_send(e, "%d,%d,%d", mx, my, rv_gomoku_at(g, mx, my) == me ? 1 : 2);
        }
        if (engine_send(e, "DONE") != 0) {
            snprintf(why, why_size, "engine stopped reading");
            return -1;
        }
    }
    double t0 = rv_clock_seconds();
    char line[512];
    for (;;) {
        int r = engine_next_line(e, t0, wait_ms, line, sizeof line, why, why_size);
        if (r < 0) return r;
        if (strncmp(line, "MESSAGE", 7) == 0 || strncmp(line, "DEBUG", 5) == 0 ||
            strncmp(line, "SUGGEST", 7) == 0 || strncmp(line, "OK", 2) == 0)
            continue;
        if (rv_gomoku_gomocup_parse(line, strlen(line), x, y) == RV_OK) return 0;
        snprintf(why, why_size, "answered '%.60s'", line);
        return -1;
    }
}

void match_gomoku_game(engine *black, engine *white, rv_gomoku_rule rule, int size,
                       const rv_gomoku_point *opening, int nopening, const match_tc *tc,
                       game_result *res, rv_gomoku_point *moves, int32_t *times, int *nmoves) {
    engine *eng[3] = {NULL, black, white};
    int64_t clock[3] = {0, tc->game_ms, tc->game_ms};
    rv_gomoku g;
    memset(res, 0, sizeof *res);
    *nmoves = 0;
    rv_gomoku_init(&g, size, size, rule);
    for (int i = 0; i < nopening; i++) {
        rv_gomoku_play(&g, opening[i].x, opening[i].y);
        moves[*nmoves] = opening[i];
        times[(*nmoves)++] = 0;
    }
    for (int c = 1; c <= 2; c++)
        if (eng[c]->spec->kind == ENG_PBRAIN && pbrain_start(eng[c], rule, size, tc) != 0) {
            lose(res, c, END_CRASH, "%s did not start a game", eng[c]->spec->name);
            return;
        }
    for (;;) {
        rv_gomoku_result r;
        rv_gomoku_get_result(&g, &r);
        if (r.over) {
            res->winner = r.winner == RV_BLACK ? 1 : r.winner == RV_WHITE ? 2 : 0;
            res->how = r.winner == RV_EMPTY ? END_DRAW : END_FIVE;
            snprintf(res->detail, sizeof res->detail, "%s", r.winner == RV_EMPTY ? "draw" : "five");
            return;
        }
        if (rv_gomoku_move_count(&g) >= size * size) {
            res->winner = 0;
            res->how = END_DRAW;
            snprintf(res->detail, sizeof res->detail, "board full");
            return;
        }
        int c = rv_gomoku_to_move(&g);
        engine *e = eng[c];
        int x = -1, y = -1;
        double t0 = rv_clock_seconds();
        if (e->spec->kind == ENG_LEVEL) {
            rv_gomoku_limits lim = {0};
            lim.level = e->spec->level;
            int64_t b = budget(tc, clock[c], size * size - rv_gomoku_move_count(&g));
            if (b > 0) lim.time_ms = b;
            rv_gomoku_ai_info info;
            rv_status s = rv_gomoku_ai_think(e->ai, &g, &lim, &info);
            if (s != RV_OK) {
                lose(res, c, END_ILLEGAL, "%s found no legal move", e->spec->name);
                return;
            }
            x = info.x, y = info.y;
        } else {
            int64_t wait = -1;
            if (tc->turn_ms > 0) wait = tc->turn_ms + tc->tolerance_ms;
            if (tc->game_ms > 0 && (wait < 0 || clock[c] + tc->tolerance_ms < wait))
                wait = clock[c] + tc->tolerance_ms;
            if (wait < 0 && tc->turn_ms == 0 && tc->game_ms == 0) wait = 600000;
            char why[128] = "";
            int s = pbrain_move(e, &g, clock[c], tc, wait, &x, &y, why, sizeof why);
            if (s == -2) {
                lose(res, c, END_TIME, "%s lost on time", e->spec->name);
                return;
            }
            if (s != 0) {
                char msg[200];
                snprintf(msg, sizeof msg, "%s: %s", e->spec->name, why);
                lose(res, c, END_CRASH, "%s", msg);
                return;
            }
        }
        int64_t ms = (int64_t)((rv_clock_seconds() - t0) * 1000.0 + 0.5);
        if (tc->game_ms > 0) clock[c] -= ms;
        if ((tc->turn_ms > 0 && ms > tc->turn_ms + tc->tolerance_ms) ||
            (tc->game_ms > 0 && clock[c] < -tc->tolerance_ms)) {
            lose(res, c, END_TIME, "%s lost on time", e->spec->name);
            return;
        }
        rv_forbid_kind kind = RV_FORBID_NONE;
        rv_status s = rv_gomoku_check(&g, x, y, &kind);
        char pt[16] = "?";
        if (rv_gomoku_point_format(x, y, size, pt, sizeof pt) < 0)
            snprintf(pt, sizeof pt, "%d,%d", x, y);
        if (s == RV_EFORBIDDEN) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s played the forbidden %s (%s)", e->spec->name, pt,
                     rv_forbid_name(kind));
            lose(res, c, END_FORBIDDEN, "%s", msg);
            moves[*nmoves] = (rv_gomoku_point){x, y};
            times[(*nmoves)++] = (int32_t)ms;
            return;
        }
        if (s != RV_OK) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s played %s: %s", e->spec->name, pt,
                     s == RV_EOCCUPIED ? "occupied" : "off the board");
            lose(res, c, END_ILLEGAL, "%s", msg);
            return;
        }
        rv_gomoku_play(&g, x, y);
        moves[*nmoves] = (rv_gomoku_point){x, y};
        times[(*nmoves)++] = (int32_t)(ms > INT32_MAX ? INT32_MAX : ms);
    }
}

int match_builtin_openings(int size, rv_gomoku_point (*out)[3], int max) {
    /* the centre, white's second stone beside it (direct) or diagonal (indirect), and
       every third black stone within two points, one of each mirror pair: the 26
       classical three-stone openings */
    int c = size / 2, n = 0;
    for (int kind = 0; kind < 2; kind++) {
        int wx = kind ? 1 : 0, wy = -1; /* direct: h9, indirect: i9 (y grows downwards) */
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                if ((dx == 0 && dy == 0) || (dx == wx && dy == wy)) continue;
                /* keep one of each pair mirrored across the axis through the first two stones */
                if (kind == 0 && dx < 0) continue;
                if (kind == 1 && dx < -dy) continue;
                if (n < max) {
                    out[n][0] = (rv_gomoku_point){c, c};
                    out[n][1] = (rv_gomoku_point){c + wx, c + wy};
                    out[n][2] = (rv_gomoku_point){c + dx, c + dy};
                }
                n++;
            }
    }
    return n;
}
