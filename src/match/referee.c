/*
 * One game of `renversi match`, either kind, refereed by the library's rv_game:
 * the rules decide what is legal and how the game ended (a Renju forbidden
 * point is played and loses, Reversi passes are forced by the rules, the score
 * gives the empties to the winner). This file only asks the engines, keeps
 * their clocks and ends the game against an engine at fault.
 */
#include <stdio.h>
#include <string.h>

#include "match/match.h"
#include "renversi/core.h"

/* Milliseconds an internal engine may use for this move. */
static int64_t budget(const match_setup *ms, int64_t clock_left, int empties) {
    const match_tc *tc = &ms->tc;
    int64_t b = 0;
    if (tc->turn_ms > 0) {
        int64_t margin = tc->turn_ms / 10 > 20 ? tc->turn_ms / 10 : 20;
        b = tc->turn_ms - margin;
    }
    if (tc->game_ms > 0) {
        int64_t share;
        if (ms->reversi) {
            /* the engine's own plan, as `renversi nboard` spends a GGF clock */
            share = rv_reversi_clock_budget_ms(clock_left, 0, empties);
            if (share > clock_left - 20) share = clock_left - 20;
        } else {
            int64_t moves_left = empties / 6;
            if (moves_left < 12) moves_left = 12;
            if (moves_left > 40) moves_left = 40;
            share = (clock_left - 50) / moves_left;
        }
        if (b == 0 || share < b) b = share;
    }
    if ((tc->turn_ms > 0 || tc->game_ms > 0) && b < 2) b = 2;
    return b;
}

/* Empty points or squares left. */
static int empties(const rv_game *g) {
    int n = rv_game_size(g), k = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) k += rv_game_at(g, x, y) == RV_EMPTY;
    return k;
}

/* An internal level's move. 0 ok, -1 when it found none. */
static int level_move(engine *e, const rv_game *g, const match_setup *ms, int64_t clock_left,
                      int *x, int *y) {
    int64_t b = budget(ms, clock_left, empties(g));
    if (ms->reversi) {
        rv_reversi_limits lim = {e->spec->level, 0, b, 0};
        rv_reversi_ai_info info;
        const rv_reversi_game *rg = rv_game_reversi(g);
        if (rv_reversi_ai_think(e->rai, rv_reversi_game_position(rg), &lim, &info) != RV_OK ||
            info.move < 0)
            return -1;
        if (info.move == RV_REVERSI_PASS) *x = *y = -1;
        else *x = info.move % 8, *y = info.move / 8;
        return 0;
    }
    rv_gomoku_limits lim = {0};
    lim.level = e->spec->level;
    lim.time_ms = b;
    rv_gomoku_ai_info info;
    if (rv_gomoku_ai_think(e->ai, rv_game_gomoku(g), &lim, &info) != RV_OK) return -1;
    *x = info.x, *y = info.y;
    return 0;
}

/* Ends the game against colour c (an engine at fault): how and why. */
static void fault(rv_game *g, game_result *res, rv_color c, int how, const char *name,
                  const char *why) {
    if (how == END_TIME) rv_game_lose_on_time(g, c);
    else rv_game_resign(g, c);
    res->winner = c == RV_BLACK ? 2 : 1;
    res->how = how;
    snprintf(res->detail, sizeof res->detail, "%.63s %.160s", name, why);
}

void match_game(engine *black, engine *white, const match_setup *ms, rv_game *g,
                int32_t *times, game_result *res) {
    engine *eng[3] = {NULL, black, white};
    int64_t clock[3] = {0, ms->tc.game_ms, ms->tc.game_ms};
    const match_tc *tc = &ms->tc;
    char why[160];
    memset(res, 0, sizeof *res);
    for (int i = 0; i < rv_game_nmoves(g); i++) times[i] = 0;
    for (int c = RV_BLACK; c <= RV_WHITE; c++) {
        engine *e = eng[c];
        int s = 0;
        why[0] = '\0';
        if (e->spec->kind == ENG_PBRAIN) s = pbrain_start(e, ms, why, sizeof why);
        else if (e->spec->kind == ENG_NBOARD && !e->greeted) s = nboard_greet(e, ms, why, sizeof why);
        if (s != 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "did not start a game: %.130s", why);
            fault(g, res, (rv_color)c, END_CRASH, e->spec->name, msg);
            return;
        }
    }
    while (!rv_game_over(g)) {
        rv_color c = rv_game_to_move(g);
        engine *e = eng[c];
        int x = -1, y = -1;
        double t0 = rv_clock_seconds();
        if (e->spec->kind == ENG_LEVEL) {
            if (level_move(e, g, ms, clock[c], &x, &y) != 0) {
                fault(g, res, c, END_ILLEGAL, e->spec->name, "found no move");
                return;
            }
        } else {
            /* the answer may come until the move's limit or the clock runs out (plus the
               tolerance); without a time control, ten minutes */
            int64_t wait = -1;
            if (tc->turn_ms > 0) wait = tc->turn_ms + tc->tolerance_ms;
            if (tc->game_ms > 0 && (wait < 0 || clock[c] + tc->tolerance_ms < wait))
                wait = clock[c] + tc->tolerance_ms;
            if (wait < 0) wait = 600000;
            if (wait < 1) wait = 1;
            why[0] = '\0';
            int s = e->spec->kind == ENG_PBRAIN
                        ? pbrain_move(e, g, ms, clock[c], wait, &x, &y, why, sizeof why)
                        : nboard_move(e, g, times, ms, wait, &x, &y, why, sizeof why);
            if (s == -2) {
                fault(g, res, c, END_TIME, e->spec->name, "lost on time");
                return;
            }
            if (s != 0) {
                fault(g, res, c, END_CRASH, e->spec->name, why);
                return;
            }
        }
        int64_t ms_used = (int64_t)((rv_clock_seconds() - t0) * 1000.0 + 0.5);
        if (tc->game_ms > 0) clock[c] -= ms_used;
        if ((tc->turn_ms > 0 && ms_used > tc->turn_ms + tc->tolerance_ms) ||
            (tc->game_ms > 0 && clock[c] < -tc->tolerance_ms)) {
            fault(g, res, c, END_TIME, e->spec->name, "lost on time");
            return;
        }
        int before = rv_game_nmoves(g);
        rv_status s = rv_game_play_forced(g, x, y, why, sizeof why);
        if (s != RV_OK) {
            fault(g, res, c, END_ILLEGAL, e->spec->name, why);
            return;
        }
        times[before] = (int32_t)(ms_used > INT32_MAX ? INT32_MAX : ms_used);
        /* a forced pass the rules added after the move took no time */
        for (int i = before + 1; i < rv_game_nmoves(g); i++) times[i] = 0;
    }
    rv_game_result r;
    rv_game_get_result(g, &r);
    res->winner = r.winner == RV_BLACK ? 1 : r.winner == RV_WHITE ? 2 : 0;
    res->how = r.end == RV_END_FORBIDDEN ? END_FORBIDDEN
               : r.winner == RV_EMPTY    ? END_DRAW
                                         : END_FIVE;
    rv_game_result_text(g, res->detail, sizeof res->detail);
}
