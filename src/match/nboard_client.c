/*
 * The NBoard side of `renversi match`: an external Othello engine gets
 * `nboard 2`, its depth and/or time once per process (then a ping it must
 * answer), and per move `set game GGF` (the game so far, with the clock and
 * each move's time) and `go`, answered by `=== MOVE[/eval[/time]]`.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "renversi/core.h"
#include "renversi/reversi_record.h"

#define NBOARD_DEFAULT_DEPTH 12

int nboard_greet(engine *e, const match_setup *ms, char *why, size_t why_size) {
    int timed = ms->tc.turn_ms > 0 || ms->tc.game_ms > 0;
    int ok = engine_send(e, "nboard 2") == 0;
    /* with a time control, no depth unless asked: engines that keep time use it all */
    if (ms->depth > 0)
        ok = ok && engine_send(e, "set depth %d", ms->depth) == 0;
    else if (!timed)
        ok = ok && engine_send(e, "set depth %d", NBOARD_DEFAULT_DEPTH) == 0;
    if (ms->tc.turn_ms > 0) ok = ok && engine_send(e, "set time %lld", (long long)ms->tc.turn_ms) == 0;
    ok = ok && engine_send(e, "ping 1") == 0;
    if (!ok) {
        snprintf(why, why_size, "stopped reading");
        return -1;
    }
    double t0 = rv_clock_seconds();
    int64_t wait = match_start_wait(&ms->tc);
    char line[512];
    for (;;) {
        int r = engine_next_line(e, t0, wait, line, sizeof line, why, why_size);
        if (r == -2) {
            snprintf(why, why_size, "no pong within %lld ms", (long long)wait);
            return -1;
        }
        if (r < 0) return -1;
        if (strcmp(line, "pong 1") == 0) break;
    }
    e->greeted = 1;
    return 0;
}

/* A GGF time "H:MM:SS" (or "M:SS") for ms milliseconds, whole seconds. */
static void ggf_time(char *buf, size_t n, int64_t ms) {
    long long s = ms / 1000;
    if (s >= 3600)
        snprintf(buf, n, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, n, "%lld:%02lld", s / 60, s % 60);
}

int nboard_move(engine *e, const rv_game *g, const int32_t *times, const match_setup *ms,
                int64_t wait_ms, int *x, int *y, char *why, size_t why_size) {
    const rv_reversi_game *rg = rv_game_reversi(g);
    rv_reversi_ggf *ggf = malloc(sizeof *ggf);
    char *text = malloc(8192);
    if (!ggf || !text) {
        free(ggf), free(text);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    rv_reversi_ggf_init(ggf);
    snprintf(ggf->pc, sizeof ggf->pc, "renversi match");
    if (ms->tc.game_ms > 0) ggf_time(ggf->ti, sizeof ggf->ti, ms->tc.game_ms);
    ggf->start = rg->start;
    ggf->nmoves = rg->nplies;
    for (int i = 0; i < rg->nplies; i++) {
        memset(&ggf->moves[i], 0, sizeof ggf->moves[i]);
        ggf->moves[i].sq = rg->moves[i];
        /* the clock: each move's time, so an engine can tell what it has left */
        if (ms->tc.game_ms > 0) {
            ggf->moves[i].has_time = 1;
            ggf->moves[i].seconds = times[i] / 1000.0;
        }
    }
    rv_reversi_ggf_format(ggf, text, 8192);
    int ok = engine_send(e, "set game %s", text) == 0 && engine_send(e, "go") == 0;
    free(ggf);
    free(text);
    if (!ok) {
        snprintf(why, why_size, "stopped reading");
        return -1;
    }
    double t0 = rv_clock_seconds();
    char line[512];
    for (;;) {
        int r = engine_next_line(e, t0, wait_ms, line, sizeof line, why, why_size);
        if (r < 0) return r;
        if (strncmp(line, "===", 3) != 0) continue; /* status, nodestats, pong, ... */
        const char *p = line + 3;
        while (*p == ' ') p++;
        size_t len = strcspn(p, "/ \t");
        int sq;
        if (len == 2 && (p[0] == 'P' || p[0] == 'p') && (p[1] == 'A' || p[1] == 'a')) {
            *x = *y = -1; /* a pass: the referee judges it */
            return 0;
        }
        if (len == 2 && rv_reversi_square_parse(p, 2, &sq) == RV_OK) {
            *x = sq % 8;
            *y = sq / 8;
            return 0;
        }
        snprintf(why, why_size, "answered '%.60s'", line);
        return -1;
    }
}
