/*
 * `renversi bench search`: the Gomoku engine searched to a fixed depth on a fixed
 * set of positions (or the move lists of FILE, one per line, optionally
 * "RULE: MOVES"). Last line: `search: <nodes> nodes, <seconds> s, <knps> k nodes/s`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline/cmdline.h"
#include "renversi/gomoku_ai.h"
#include "renversi/gomoku_record.h"

/* Middle-game positions from engine self-play (freestyle and Renju), 15x15. */
static const char *const builtin[] = {
    "freestyle: h8 h9 h10 g11 g9 f10 f8 e7 e9 g7 i8 g8",
    "freestyle: h8 h9 h10 f7 g8 f8 j8 f9 f6 i9",
    "freestyle: h8 h9 i10 i9 k10 g9 j9 j8 k7 k8 l10",
    "freestyle: h8 h9 i10 i9 k10 g9 j9 j8 k8 h11 k7 k9 l11 i8",
    "freestyle: h8 i9 h9 h10 i8 g8 j7 k6",
    "renju: h8 h9 h10 g11 g9 f10 f8 e7 e9",
    "renju: h8 h9 i10 i9 k10 g9 j9 j8 k7 k8",
    "renju: h8 i9 j10 i8 i10 h10 j8 j9",
    "renju: h8 h9 j8 g9 i9 i8 g7",
    "renju: h8 i9 g10 g9 h10 h9 f9",
};

static const char help[] =
    "usage: renversi bench search [FILE] [--depth N]\n"
    "\n"
    "Searches each position to a fixed depth (default 8) with the Gomoku engine and\n"
    "prints one line per position (index, rule, move, eval, nodes, seconds), then\n"
    "  search: <nodes> nodes, <seconds> s, <knps> k nodes/s\n"
    "FILE has one position per line: a move list, optionally preceded by a rule and\n"
    "a colon (\"renju: h8 h9 j8\"); blank lines and # comments are skipped.\n";

static int run_one(rv_gomoku_ai *ai, const char *line, int depth, int index, uint64_t *nodes,
                   double *secs) {
    rv_gomoku_rule rule = RV_RULE_FREESTYLE;
    const char *moves = line, *colon = strchr(line, ':');
    if (colon) {
        char name[32];
        size_t n = (size_t)(colon - line);
        if (n >= sizeof name) return rv_cli_fail("bench", "position %d: bad rule", index);
        memcpy(name, line, n);
        name[n] = '\0';
        if (rv_gomoku_rule_parse(name, &rule) != RV_OK)
            return rv_cli_fail("bench", "position %d: unknown rule '%s'", index, name);
        moves = colon + 1;
    }
    rv_gomoku g;
    rv_gomoku_init(&g, 15, 15, rule);
    rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    int n = 0;
    if (rv_gomoku_moves_parse(moves, strlen(moves), 15, pts, RV_GOMOKU_MAX_POINTS, &n, NULL) !=
        RV_OK)
        return rv_cli_fail("bench", "position %d: bad move list", index);
    for (int i = 0; i < n; i++)
        if (rv_gomoku_play(&g, pts[i].x, pts[i].y) != RV_OK)
            return rv_cli_fail("bench", "position %d: illegal move %d", index, i + 1);
    rv_gomoku_ai_clear(ai);
    rv_gomoku_limits lim = {0, depth, 0, 0};
    rv_gomoku_ai_info info;
    rv_status s = rv_gomoku_ai_think(ai, &g, &lim, &info);
    if (s != RV_OK) return rv_cli_fail("bench", "position %d: %s", index, rv_strerror(s));
    char p[8];
    rv_gomoku_point_format(info.x, info.y, 15, p, sizeof p);
    printf("%d %s %s %d %llu %.3f\n", index, rv_gomoku_rule_name(rule), p, info.eval,
           (unsigned long long)info.nodes, info.seconds);
    fflush(stdout);
    *nodes += info.nodes;
    *secs += info.seconds;
    return 0;
}

typedef struct bench_run {
    rv_gomoku_ai *ai;
    int depth;
    uint64_t nodes;
    double secs;
} bench_run;

static int run_line(void *ctx, const char *line, int index) {
    bench_run *r = ctx;
    return run_one(r->ai, line, r->depth, index, &r->nodes, &r->secs);
}

int rv_bench_search(int argc, char **argv) {
    const char *file = NULL;
    long depth = 8;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return RV_EXIT_OK;
        }
        if (strcmp(argv[i], "--depth") == 0) {
            if (i + 1 >= argc || rv_cli_parse_int(argv[++i], 1, 60, &depth) != 0)
                return rv_cli_fail("bench", "--depth expects 1..60");
        } else if (!file)
            file = argv[i];
        else
            return rv_cli_fail("bench", "unexpected argument '%s'", argv[i]);
    }
    rv_cli_describe_machine();
    bench_run run = {rv_gomoku_ai_new(16u << 20), (int)depth, 0, 0};
    if (!run.ai) return rv_cli_fail("bench", "out of memory");
    int rc = rv_cli_each_line("bench", file, builtin, sizeof builtin / sizeof builtin[0], run_line,
                              &run);
    rv_gomoku_ai_free(run.ai);
    if (rc) return rc;
    printf("search: %llu nodes, %.3f s, %.0f k nodes/s\n", (unsigned long long)run.nodes,
           run.secs, run.secs > 0 ? (double)run.nodes / run.secs / 1000.0 : 0.0);
    return RV_EXIT_OK;
}
