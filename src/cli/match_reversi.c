/*
 * One Othello game of `renversi match`, refereed by the Reversi rules: an
 * illegal move, a protocol error, a crash or a late answer loses. Passes are
 * played by the referee (an engine is only asked when it has a move).
 * External engines speak NBoard: `nboard 2`, then per move `set game GGF`
 * and `go`, answered by `=== MOVE[/eval[/time]]`.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/match.h"
#include "renversi/core.h"
#include "renversi/reversi_record.h"

static void lose(game_result *res, int loser, int how, const char *msg) {
    res->winner = 3 - loser;
    res->how = how;
    snprintf(res->detail, sizeof res->detail, "%s", msg);
}

static int64_t budget(const match_tc *tc, int64_t clock_left, int empties) {
    int64_t b = 0;
    if (tc->turn_ms > 0) {
        int64_t margin = tc->turn_ms / 10 > 20 ? tc->turn_ms / 10 : 20;
        b = tc->turn_ms - margin;
    }
    if (tc->game_ms > 0) {
        int64_t moves_left = empties / 2 + 2;
        int64_t share = (clock_left - 50) / moves_left;
        if (b == 0 || share < b) b = share;
    }
    if ((tc->turn_ms > 0 || tc->game_ms > 0) && b < 2) b = 2;
    return b;
}

/* Asks an NBoard engine for its move. 0 ok, -1 protocol error/crash, -2 late. */
static int nboard_move(engine *e, const rv_reversi_game *g, int64_t wait_ms, int *sq, char *why,
                       size_t why_size) {
    rv_reversi_ggf *ggf = malloc(sizeof *ggf);
    char *text = malloc(8192);
    if (!ggf || !text) {
        free(ggf), free(text);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    rv_reversi_ggf_init(ggf);
    snprintf(ggf->pc, sizeof ggf->pc, "renversi match");
    ggf->start = g->start;
    ggf->nmoves = g->nplies;
    for (int i = 0; i < g->nplies; i++) {
        memset(&ggf->moves[i], 0, sizeof ggf->moves[i]);
        ggf->moves[i].sq = g->moves[i];
    }
    rv_reversi_ggf_format(ggf, text, 8192);
    int ok = engine_send(e, "set game %s", text) == 0 && engine_send(e, "go") == 0;
    free(ggf);
    free(text);
    if (!ok) {
        snprintf(why, why_size, "engine stopped reading");
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
        if (rv_reversi_square_parse(p, strlen(p) >= 2 ? 2 : strlen(p), sq) == RV_OK &&
            (p[2] == '\0' || p[2] == '/' || isspace((unsigned char)p[2])))
            return 0;
        snprintf(why, why_size, "answered '%.60s'", line);
        return -1;
    }
}

void match_reversi_game(engine *black, engine *white, const uint8_t *opening, int nopening,
                        const match_tc *tc, game_result *res, uint8_t *moves, int32_t *times,
                        int *nmoves, int *black_discs, int *white_discs) {
    engine *eng[3] = {NULL, black, white};
    int64_t clock[3] = {0, tc->game_ms, tc->game_ms};
    rv_reversi_game *g = malloc(sizeof *g);
    memset(res, 0, sizeof *res);
    *nmoves = 0;
    if (!g) {
        lose(res, 1, END_CRASH, "out of memory");
        return;
    }
    rv_reversi_game_init(g, NULL);
    for (int i = 0; i < nopening; i++) {
        rv_reversi_game_play(g, opening[i]);
        moves[*nmoves] = opening[i];
        times[(*nmoves)++] = 0;
    }
    for (int c = 1; c <= 2; c++)
        if (eng[c]->spec->kind == ENG_NBOARD && !eng[c]->greeted) {
            engine_send(eng[c], "nboard 2");
            engine_send(eng[c], "set depth 12");
            eng[c]->greeted = 1;
        }
    for (;;) {
        const rv_reversi_pos *pos = rv_reversi_game_position(g);
        if (rv_reversi_is_over(pos)) {
            int b = rv_reversi_count(pos, RV_BLACK), w = rv_reversi_count(pos, RV_WHITE);
            rv_color win = rv_reversi_winner(pos);
            res->winner = win == RV_BLACK ? 1 : win == RV_WHITE ? 2 : 0;
            res->how = win == RV_EMPTY ? END_DRAW : END_FIVE;
            snprintf(res->detail, sizeof res->detail, "%d-%d", b, w);
            *black_discs = b, *white_discs = w;
            break;
        }
        if (rv_reversi_must_pass(pos)) {
            rv_reversi_game_play(g, RV_REVERSI_PASS);
            moves[*nmoves] = RV_REVERSI_PASS;
            times[(*nmoves)++] = 0;
            continue;
        }
        int c = pos->side;
        engine *e = eng[c];
        int sq = -1;
        double t0 = rv_clock_seconds();
        char msg[200];
        if (e->spec->kind == ENG_LEVEL) {
            rv_reversi_limits lim = {e->spec->level, 0, 0};
            int64_t b = budget(tc, clock[c], rv_reversi_count(pos, RV_EMPTY));
            if (b > 0) lim.time_ms = b;
            rv_reversi_ai_info info;
            if (rv_reversi_ai_think(e->rai, pos, &lim, &info) != RV_OK) {
                snprintf(msg, sizeof msg, "%s found no move", e->spec->name);
                lose(res, c, END_ILLEGAL, msg);
                break;
            }
            sq = info.move;
        } else {
            int64_t wait = -1;
            if (tc->turn_ms > 0) wait = tc->turn_ms + tc->tolerance_ms;
            if (tc->game_ms > 0 && (wait < 0 || clock[c] + tc->tolerance_ms < wait))
                wait = clock[c] + tc->tolerance_ms;
            if (wait < 0) wait = 600000;
            char why[128] = "";
            int s = nboard_move(e, g, wait, &sq, why, sizeof why);
            if (s == -2) {
                snprintf(msg, sizeof msg, "%s lost on time", e->spec->name);
                lose(res, c, END_TIME, msg);
                break;
            }
            if (s != 0) {
                snprintf(msg, sizeof msg, "%s: %s", e->spec->name, why);
                lose(res, c, END_CRASH, msg);
                break;
            }
        }
        int64_t ms = (int64_t)((rv_clock_seconds() - t0) * 1000.0 + 0.5);
        if (tc->game_ms > 0) clock[c] -= ms;
        if ((tc->turn_ms > 0 && ms > tc->turn_ms + tc->tolerance_ms) ||
            (tc->game_ms > 0 && clock[c] < -tc->tolerance_ms)) {
            snprintf(msg, sizeof msg, "%s lost on time", e->spec->name);
            lose(res, c, END_TIME, msg);
            break;
        }
        rv_status s = rv_reversi_game_play(g, sq);
        if (s != RV_OK) {
            char name[3];
            snprintf(msg, sizeof msg, "%s played %s: %s", e->spec->name,
                     rv_reversi_square_format(sq, 0, name), rv_strerror(s));
            lose(res, c, END_ILLEGAL, msg);
            break;
        }
        moves[*nmoves] = (uint8_t)sq;
        times[(*nmoves)++] = (int32_t)(ms > INT32_MAX ? INT32_MAX : ms);
    }
    free(g);
}

int match_reversi_openings(uint8_t (*out)[4], int max) {
    rv_reversi_pos p0;
    rv_reversi_init(&p0);
    int n = 0, f5 = 4 * 8 + 5; /* f5: column f, row 5 from the top */
    rv_reversi_pos p1 = p0;
    if (rv_reversi_play(&p1, f5) != RV_OK) return 0;
    for (uint64_t m2 = rv_reversi_moves(&p1); m2; m2 &= m2 - 1) {
        rv_reversi_pos p2 = p1;
        int s2 = rv_bb_first(m2);
        rv_reversi_play(&p2, s2);
        for (uint64_t m3 = rv_reversi_moves(&p2); m3; m3 &= m3 - 1) {
            rv_reversi_pos p3 = p2;
            int s3 = rv_bb_first(m3);
            rv_reversi_play(&p3, s3);
            for (uint64_t m4 = rv_reversi_moves(&p3); m4; m4 &= m4 - 1) {
                if (n < max) {
                    out[n][0] = (uint8_t)f5, out[n][1] = (uint8_t)s2;
                    out[n][2] = (uint8_t)s3, out[n][3] = (uint8_t)rv_bb_first(m4);
                }
                n++;
            }
        }
    }
    return n < max ? n : max;
}
