/*
 * The Gomocup side of `renversi match`: starting a game with an external brain
 * and asking it for moves (shared/spec/gomocup.md). Every wait has a deadline.
 */
#include <stdio.h>
#include <string.h>

#include "match/match.h"
#include "renversi/core.h"
#include "renversi/gomoku_record.h"

int64_t match_start_wait(const match_tc *tc) {
    int64_t w = 30000;
    if (tc->turn_ms > 0 || tc->game_ms > 0) {
        w = tc->turn_ms > 0 ? tc->turn_ms : tc->game_ms / 20;
        w += tc->tolerance_ms;
        if (w < 5000) w = 5000;
        if (w > 30000) w = 30000;
    }
    return w;
}

/* Lines a brain may send besides its answer (spec/gomocup.md). */
static int chatter(const char *line) {
    return strncmp(line, "MESSAGE", 7) == 0 || strncmp(line, "DEBUG", 5) == 0 ||
           strncmp(line, "SUGGEST", 7) == 0 || strncmp(line, "UNKNOWN", 7) == 0;
}

int pbrain_start(engine *e, const match_setup *ms, char *why, size_t why_size) {
    char line[512];
    if (engine_send(e, "START %d", ms->size) != 0) {
        snprintf(why, why_size, "stopped reading at START");
        return -1;
    }
    /* one deadline for the whole answer, however many lines come before it */
    double t0 = rv_clock_seconds();
    int64_t wait = match_start_wait(&ms->tc);
    for (;;) {
        int n = engine_next_line(e, t0, wait, line, sizeof line, why, why_size);
        if (n == -2) {
            snprintf(why, why_size, "no OK to START within %lld ms", (long long)wait);
            return -1;
        }
        if (n < 0) return -1;
        if (strncmp(line, "OK", 2) == 0) break;
        if (strncmp(line, "ERROR", 5) == 0) {
            snprintf(why, why_size, "START answered '%.60s'", line);
            return -1;
        }
    }
    const match_tc *tc = &ms->tc;
    int ok = engine_send(e, "INFO timeout_turn %lld", (long long)tc->turn_ms) == 0 &&
             engine_send(e, "INFO timeout_match %lld", (long long)tc->game_ms) == 0 &&
             engine_send(e, "INFO max_memory %lld", 268435456LL) == 0 &&
             engine_send(e, "INFO game_type 1") == 0 &&
             /* the rule enum's values are the Gomocup codes (gomoku.h) */
             engine_send(e, "INFO rule %d", (int)ms->rule) == 0;
    if (!ok) snprintf(why, why_size, "stopped reading after START");
    return ok ? 0 : -1;
}

int pbrain_move(engine *e, const rv_game *g, const match_setup *ms, int64_t clock_left,
                int64_t wait_ms, int *x, int *y, char *why, size_t why_size) {
    int ok = 1;
    if (ms->tc.game_ms > 0) ok = engine_send(e, "INFO time_left %lld", (long long)clock_left) == 0;
    int n = rv_game_nmoves(g);
    rv_color me = rv_game_to_move(g);
    if (n == 0)
        ok = ok && engine_send(e, "BEGIN") == 0;
    else {
        /* the whole position, stones in move order (required under Renju) */
        ok = ok && engine_send(e, "BOARD") == 0;
        for (int i = 0; ok && i < n; i++) {
            int mx, my;
            rv_game_move_xy(g, i, &mx, &my);
            ok = engine_send(e, "%d,%d,%d", mx, my, rv_game_move_color(g, i) == me ? 1 : 2) == 0;
        }
        ok = ok && engine_send(e, "DONE") == 0;
    }
    if (!ok) {
        snprintf(why, why_size, "stopped reading");
        return -1;
    }
    double t0 = rv_clock_seconds();
    char line[512];
    for (;;) {
        int r = engine_next_line(e, t0, wait_ms, line, sizeof line, why, why_size);
        if (r < 0) return r;
        if (chatter(line) || strncmp(line, "OK", 2) == 0) continue;
        if (rv_gomoku_gomocup_parse(line, strlen(line), x, y) == RV_OK) return 0;
        snprintf(why, why_size, "answered '%.60s'", line);
        return -1;
    }
}
