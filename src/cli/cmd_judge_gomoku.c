/*
 * `renversi judge --game gomoku`: replays a move list under a rule variant and
 * prints one verdict line (shared/DESIGN.md): who is to move, who won and
 * how, a draw, or the first illegal move.
 */
#include "cli/cli.h"
#include "cmdline/gomoku_cli.h"
#include "renversi/game.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: renversi judge [--game gomoku] [--rule RULE] [--size N] MOVES\n"
    "\n"
    "Replays a Gomoku game (black first, alternating; `h8 i9 h10` or `h8i9h10`)\n"
    "and prints one line:\n"
    "  black to move | white to move\n"
    "  black wins: five c3-g7          (overline a1-f6 when a longer row wins)\n"
    "  white wins: black's forbidden move h8 (double-three)\n"
    "  draw: board full\n"
    "Exit 0 when the record is valid (a record ending in black's forbidden move is:\n"
    "white wins). An illegal move prints `illegal move N (h8): occupied` (or `off the\n"
    "board`, or `after the end`) and exits 2, as do malformed points.\n"
    "\n"
    "  --rule RULE  freestyle (default), standard (exactly five), renju, caro,\n"
    "               standard-caro\n"
    "  --size N     board size 5..26 (default 15)\n"
    "  --game G     gomoku (default) or renju (= gomoku with --rule renju by default)\n";

static int illegal(int n, int x, int y, int height, const char *why) {
    char p[8];
    rv_gcli_point(x, y, height, p);
    /* the verdict on stdout for scripts, and the usual one-line diagnostic */
    printf("illegal move %d (%s): %s\n", n, p, why);
    return rv_cli_fail("judge", "illegal move %d (%s): %s", n, p, why);
}

int rv_cmd_judge_gomoku(int argc, char **argv) {
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    rv_gomoku_rule rule = RV_RULE_FREESTYLE;
    int size = 15, rule_given = 0, game_renju = 0;
    /* MOVES may come before, between or after the options; "--" ends the options */
    char **moves = malloc((size_t)argc * sizeof *moves);
    if (moves == NULL) return rv_cli_fail("judge", "out of memory");
    int nmoves = 0, rc = RV_EXIT_OK, options = 1;
    for (int i = 1; i < argc && rc == RV_EXIT_OK; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!options || a[0] != '-' || a[1] == '\0') {
            moves[nmoves++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            options = 0;
        } else if (strncmp(a, "--game=", 7) == 0) {
            game_renju = strcmp(a + 7, "renju") == 0; /* the game itself: see cmd_judge.c */
        } else if (strcmp(a, "--rule") == 0 || strcmp(a, "--size") == 0 ||
                   strcmp(a, "--game") == 0) {
            i++;
            if (val == NULL)
                rc = rv_cli_fail("judge", "%s needs a value", a);
            else if (strcmp(a, "--game") == 0)
                game_renju = strcmp(val, "renju") == 0;
            else if (strcmp(a, "--size") == 0 &&
                     rv_cli_parse_int(val, RV_GOMOKU_MIN_SIZE, RV_GOMOKU_MAX_SIZE, &n) != 0)
                rc = rv_cli_fail("judge", "bad board size '%s' (expected 5..26)", val);
            else if (strcmp(a, "--size") == 0)
                size = (int)n;
            else if (rv_gomoku_rule_parse(val, &rule) != RV_OK)
                rc = rv_cli_fail("judge",
                                 "unknown rule '%s' (expected freestyle, standard, renju, caro "
                                 "or standard-caro)",
                                 val);
            else
                rule_given = 1;
        } else {
            rc = rv_cli_fail("judge", "unknown option '%s' (see --help)", a);
        }
    }
    if (game_renju && !rule_given) rule = RV_RULE_RENJU;
    char *text = NULL;
    if (rc == RV_EXIT_OK && nmoves == 0) rc = rv_cli_fail("judge", "no moves given (see --help)");
    if (rc == RV_EXIT_OK && (text = rv_gcli_join(moves, nmoves)) == NULL)
        rc = rv_cli_fail("judge", "out of memory");
    free(moves);
    if (rc != RV_EXIT_OK) return rc;
    static rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    int n = rv_gcli_parse_moves("judge", "", text, strlen(text), size, size, pts);
    free(text);
    if (n < 0) return RV_EXIT_BAD;
    if (n == 0) return rv_cli_fail("judge", "empty move list");

    /* The verdict is the library's one result (renversi/game.h). */
    static rv_game g;
    char verdict[128];
    if (rv_game_init(&g, rv_gomoku_rule_name(rule), size, verdict, sizeof verdict) != RV_OK)
        return rv_cli_fail("judge", "%s", verdict);
    for (int i = 0; i < n; i++) {
        rv_status s = rv_game_play_forced(&g, pts[i].x, pts[i].y, NULL, 0);
        if (s == RV_OK) continue;
        const char *why = s == RV_EOVER       ? "after the end"
                          : s == RV_ERANGE    ? "off the board"
                          : s == RV_EOCCUPIED ? "occupied"
                                              : rv_strerror(s);
        return illegal(i + 1, pts[i].x, pts[i].y, size, why);
    }
    rv_game_status_text(&g, verdict, sizeof verdict);
    puts(verdict);
    return RV_EXIT_OK;
}
