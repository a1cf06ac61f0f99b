/* `renversi analyse TRANSCRIPT`: the evaluation of every move of a game. */
#include "cli/cli.h"

#include "renversi/core.h"
#include "renversi/game.h"
#include "renversi/reversi_ai.h"
#include "renversi/reversi_record.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: renversi analyse TRANSCRIPT|- [--depth N] [--hash MB]\n"
    "\n"
    "Replays an Othello game (a transcript such as f5d6c3d3c4, passes implied;\n"
    "'-' reads it from standard input) and evaluates every move with the engine:\n"
    "  PLY MOVE COLOR PLAYED BEST BEST_EVAL LOSS [MARK]\n"
    "PLAYED and BEST_EVAL are the evaluations (discs, mover's view) of the move\n"
    "played and of the engine's best move, LOSS their difference; MARK is '?'\n"
    "(a mistake: loss of 2 discs or more), '?\?' (a blunder: 6 or more) and\n"
    "'exact' when the scores are exact endgame results. Passes are listed as\n"
    "'pa'. A closing '#' line gives the result and each side's total loss.\n"
    "\n"
    "  --depth N   midgame search depth (default 8); positions with at most\n"
    "              2*N empty squares (up to 26) are solved exactly\n"
    "  --hash MB   transposition table (default 64)\n";

static void put_eval(char *buf, size_t n, int centi) {
    int a = centi < 0 ? -centi : centi;
    snprintf(buf, n, "%c%d.%02d", centi < 0 ? '-' : '+', a / 100, a % 100);
}

int rv_cmd_analyse(int argc, char **argv) {
    const char *cmd = "analyse";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    const char *text = NULL;
    long depth = 8, hash = 64;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--depth") == 0 || strcmp(a, "--hash") == 0) {
            long *dst = a[2] == 'd' ? &depth : &hash, hi = a[2] == 'd' ? 30 : 65536;
            if (i + 1 >= argc || rv_cli_parse_int(argv[++i], 1, hi, dst) != 0)
                return rv_cli_fail(cmd, "%s: expected a number 1..%ld", a, hi);
        } else if (a[0] == '-' && a[1] != '\0') {
            return rv_cli_fail(cmd, "unknown option '%s' (see renversi analyse --help)", a);
        } else if (text) {
            return rv_cli_fail(cmd, "more than one transcript");
        } else {
            text = a;
        }
    }
    if (!text) return rv_cli_fail(cmd, "missing TRANSCRIPT (see renversi analyse --help)");
    char *buf = NULL;
    size_t cap = 0;
    if (strcmp(text, "-") == 0) {
        long lineno = 0;
        int got;
        do {
            got = rv_cli_read_line(cmd, "standard input", stdin, &buf, &cap, NULL, &lineno);
        } while (got > 0 && rv_cli_skip_line(buf));
        if (got <= 0) {
            free(buf);
            return got < 0 ? RV_EXIT_BAD : rv_cli_fail(cmd, "no transcript on standard input");
        }
        text = buf;
    }
    uint8_t moves[RV_REVERSI_MAX_PLIES];
    int n = 0, failed = 0;
    rv_reversi_error err;
    rv_status s = rv_reversi_transcript_parse(text, strlen(text), moves, RV_REVERSI_MAX_PLIES, &n,
                                              &err);
    if (s != RV_OK) {
        int rc = rv_cli_fail(cmd, "bad transcript: %s", err.message);
        free(buf);
        return rc;
    }
    if (n == 0) {
        free(buf);
        return rv_cli_fail(cmd, "empty transcript");
    }
    rv_reversi_game g;
    rv_reversi_game_init(&g, NULL);
    s = rv_reversi_transcript_replay(&g, moves, n, &failed);
    free(buf);
    if (s != RV_OK) {
        char sq[3];
        return rv_cli_fail(cmd, "illegal move %d (%s): %s", failed + 1,
                           rv_reversi_square_format(moves[failed], 0, sq), rv_strerror(s));
    }
    rv_reversi_ai *ai = rv_reversi_ai_new((size_t)hash << 20);
    if (!ai) return rv_cli_fail(cmd, "out of memory");
    rv_reversi_limits lim = {0, (int)depth, 0, 0};
    long loss[3] = {0, 0, 0};
    for (int ply = 0; ply < g.nplies; ply++) {
        const rv_reversi_pos *pos = &g.history[ply];
        int mv = g.moves[ply];
        char sq[3], best_sq[3], e_played[16], e_best[16], e_loss[16];
        const char *color = pos->side == RV_BLACK ? "black" : "white";
        if (mv == RV_REVERSI_PASS) {
            printf("%d pa %s\n", ply + 1, color);
            continue;
        }
        rv_reversi_move_eval ev[32];
        int cnt = 0;
        if (rv_reversi_ai_eval_moves(ai, pos, &lim, ev, 32, &cnt) != RV_OK || cnt == 0) {
            rv_reversi_ai_free(ai);
            return rv_cli_fail(cmd, "internal error evaluating ply %d", ply + 1);
        }
        int played = ev[0].eval_centi;
        for (int i = 0; i < cnt; i++)
            if (ev[i].move == mv) played = ev[i].eval_centi;
        int l = ev[0].eval_centi - played;
        loss[pos->side] += l;
        put_eval(e_played, sizeof e_played, played);
        put_eval(e_best, sizeof e_best, ev[0].eval_centi);
        snprintf(e_loss, sizeof e_loss, "%d.%02d", l / 100, l % 100);
        const char *mark = l >= 600 ? " ?\?" : l >= 200 ? " ?" : "";
        printf("%d %s %s %s %s %s %s%s%s\n", ply + 1, rv_reversi_square_format(mv, 0, sq), color,
               e_played, rv_reversi_square_format(ev[0].move, 0, best_sq), e_best, e_loss, mark,
               ev[0].exact ? " exact" : "");
        fflush(stdout);
    }
    const rv_reversi_pos *end = rv_reversi_game_position(&g);
    if (rv_reversi_is_over(end)) {
        /* The result as every front end words it (renversi/game.h), and the discs. */
        rv_game over;
        rv_game_result r;
        char text[64];
        rv_game_init_reversi(&over, &g);
        rv_game_get_result(&over, &r);
        rv_game_result_text(&over, text, sizeof text);
        printf("# game over: %s (discs %d-%d);", text, r.discs_black, r.discs_white);
    } else {
        printf("# game not finished (%s to move);", end->side == RV_BLACK ? "black" : "white");
    }
    printf(" total loss: black %ld.%02ld, white %ld.%02ld discs\n", loss[RV_BLACK] / 100,
           loss[RV_BLACK] % 100, loss[RV_WHITE] / 100, loss[RV_WHITE] % 100);
    rv_reversi_ai_free(ai);
    return RV_EXIT_OK;
}
