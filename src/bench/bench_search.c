/*
 * `renversi bench search`: the Gomoku engine on fixed positions. By default each
 * position is searched to a fixed depth (or for a fixed time, reporting the depth
 * reached); with --threats, the VCF solver and the whole engine are run on positions
 * where the side to move is known to win, and the solve rates are printed.
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

/*
 * Positions where the side to move has a forced win, from the endings of games against
 * Rapfi 0.43 (2026-11-23): Rapfi, given 500 ms, reported a win in `plies` plies starting
 * with `move` (an independent search). When the set was made, the first 10 freestyle and
 * 11 Renju positions had a VCF our solver found within 2 million nodes; the others did not.
 */
static const struct {
    const char *pos;
    int plies;
    const char *move;
} threat_set[] = {
    {"freestyle: h8 i9 g6 g9 f7 h9 f9 f8 e8 d9 e7 d7 e6 e9 h7 k9 j9 i8", 5, "h6"},
    {"freestyle: h8 h9 h10 f11 i8 g8 i10 i9 k10 j10 j9 l11 k8 l7 i7 k7 j6 g9 h6 f9 e9 h7", 5, "j8"},
    {"freestyle: h8 i9 g6 i8 i6 j7 h6 j6 h9 h7 g8 i10 i7 j8 j9 k7 h10 k5 j5 l8 e6 f6 f7 d5 h12 h11 "
     "i5",
     5, "k8"},
    {"freestyle: h8 h9 j8 i8 j7 j9 i7 h7 k10 i6 k9 g6 f5 h6 j6 g9 j5 j4 g7 i9 f9 f7 i10 l10 k7 k8 "
     "l8 e6 f6 d5 g8 c4 b3 i5",
     5, "m7"},
    {"freestyle: h8 i9 g7 h9 i8 f8 h7 i7 j9 g6 k8 j8 i10 l7 f9 k7 h10 g10 i6 j5 e10 g8 g12 h11 d9 "
     "f11 e9 e12 d13 c9 e7 e8 h6 j7 m7 l8 k10 l11 l10 j10 h4 h5 f7 d7 l6",
     5, "j6"},
    {"freestyle: h8 h9 j10 i9 j8 j9 k9 i7 i8 k8 i11 h12 i10 h10 l10 m10 l11 l9 n11 m11 f9 g8 h11 "
     "g10 g11 f11 k11 j11 m9 n8 l12 l13 j12 i13 k13 k12 m14 e12 d13 n14 g12 f13 l8 m7 k7 j6 l6 h13 "
     "m5 n4 n10 o11 g13 i12 k10",
     5, "g14"},
    {"freestyle: h8 i9 i7 g9 j8 h6 i8 g8 j9 g6 g7 i6 j6 j7 k8 l8 k10 h7 m12 l11 f9 h5 k5 l4 j11 k4 "
     "j5",
     7, "h4"},
    {"freestyle: h8 h9 i7 g9 i9 g7 i8 i6 g8 j8 j10 k11 e10 i11 f9 d11 f8 e8 l11 k10 k12 f7 d9 j12 "
     "f11 g12 j13 m10 f12 f10 h11 m9 l10 l9 i12 g10 c8 b7 h15 i14 k14 l15 c9",
     7, "k8"},
    {"freestyle: h8 i9 f6 h10 j8 f9 j9 g9 i8 g8 j7 j6 h7 g6 g7 h9 e9 f7", 9, "k10"},
    {"freestyle: h8 h9 j8 i8 j6 j7 k6 i7 k7 i6 i9 i5 i4 l6 k8 k9 g10 j10 g11 h10 j4 k4 j5 l7 j3 j2 "
     "l8 g6 f7 f5 e4 j11 g9 g8 j9 e5 h5 h3 e11 g4 f10 d12 g13 g12 m9 n10 l1 k2 i2 g3 g7",
     9, "e6"},
    {"freestyle: h8 i9 j6 i7 i8 j8 k7 h4 k9 g5 k6 h6 f4 k8 l8 i5 l6 m6", 5, "l5"},
    {"freestyle: h8 h9 h7 f7 g8 i6 g10 i8 f9 i7 i9 g6 e8 d7 h10 i4 i5 e10", 7, "g11"},
    {"freestyle: h8 h9 i8 i7 j8 k8 k7 g8 i9 h10 j10 g7 l6 m5 f7 g9 g6 f8 i11 g11 g10 e9 k11 l12 "
     "d10 e8 i12",
     7, "i10"},
    {"freestyle: h8 i9 f6 g10 g7 h10 f7 g11 f12 i10 f10 g9 g8 f8 i11", 9, "j9"},
    {"freestyle: h8 i9 j8 i8 h7 h9 i7 j7 g10 g9 f9 h6 k9 f8 e10 i6 k6 g7 g8 d11 e9 e8 d10 h10 l10 "
     "m11 i11 h5 c10 f10 k8 k5 i5 g6 k10",
     9, "k7"},
    {"freestyle: h8 i9 i6 g9 j7 h9 j9 j8 k8 h5 l9 m10 l7 i10 k7 i7", 11, "k10"},
    {"freestyle: h8 i9 h6 h7 j6 g9 i7 i6 j8 k9 h9 k8 j7 j5 g8 i8 i10 f7 j10 j9 k10 h10 j11 k12 l10 "
     "m10 l9 i12 j12 f8 f4 g5 e7 k5 h5 l5 j13 j14 n5",
     11, "k4"},
    {"freestyle: h8 h9 j7 j6 i6 i9 k8 l9 h7 k7 h5 g4 j5 g8", 13, "i5"},
    {"freestyle: h8 i9 j8 i8 h6 i7 i6 h9 j9 j7 k6 i10 i11 g6 j11 f7 g7 e8 h5 e9 h7 h4 f9 e10 j10",
     13, "j12"},
    {"freestyle: h8 h9 i7 g9 i9 g7 i8 i6 g8 j8 j10 k11 e10 i11 f9 d11 f8 e8 l11 k10 k12 f7 d9 j12 "
     "f11 g12 j13 m10 f12 f10 h11 m9 l10 l9 i12 g10 c8 b7 h15 i14 k14",
     13, "l15"},
    {"renju: h8 i9 j9 k8 h7 k11 i7 k10 k7 k12 k9 j7 j6 k5 h4 k13 k14 i5", 5, "h6"},
    {"renju: h8 i9 i8 j8 h10 j7 g9 j6 j5 j9 j10 f8 f10 i7 g11 g10 h11 h7", 5, "h12"},
    {"renju: h8 h9 j6 i7 j7 i9 i6 g9 j9 j8 h6 g6 k8 h5 l9 m10 l7 e9 f9 i10", 5, "l6"},
    {"renju: h8 h9 j7 g9 j9 j8 k8 g8 i6 l9 g6 i10 h5 g4 f7 i4 h6 j11 k12 f6", 5, "h7"},
    {"renju: h8 h9 h7 g9 i9 g7 i8 g8 g6 j9 h5 i10 f7 i4 f6 j11 k12 g11 g10 h6", 5, "f5"},
    {"renju: h8 h9 j9 j8 g6 i8 e8 i7 g10 i9 i10 h6 g5 k7 h10 i6 i5 l6 m5 k6 j6", 5, "j7"},
    {"renju: h8 h9 j6 g9 j9 g10 j10 g8 g7 i9 g11 i10 j11 j12 i11 f9 e9 h11 e8 h12 i12", 5, "e10"},
    {"renju: h8 h9 j10 i9 j8 i8 i7 j7 g10 g9 j9 k9 g5 j11 i10 k10 k8 h11 i11 h13 i12 e9 f9 h12 h10 "
     "f10 g11 i13 g13 h6 k13 e11 e8 d8 g7 d7 g6 g4 e5 d9 d6 d10 d11 c7 b6 c9 g12 g14 a7 b9 a9 b10 "
     "f6 d4 j12 l14 m6 l7 e10",
     5, "b8"},
    {"renju: h8 h9 h10 i11 i7 i10 g8 i8 g9 f10 g7 g10 j7 h7 i9 f11 e12 j10", 7, "j8"},
    {"renju: h8 h9 h6 g7 g6 i6 j8 i7 i8 g8 h7 j9 e6 h5 d6 f6 e4 f5 e5 e7 f4 g3 g4 d4 d8 c7 e3 e2 "
     "d7 d9 i10 k7 i9 i11 c6 k8 d5 b7 e8 f9 b5 a4 g9 k9 a6 b6 g2 f3 k6 g5 i5 h4 i3 l8 a5 c5 j10",
     7, "l9"},
    {"renju: h8 h9 h10 g9 i9 j8 j10 g7 l10 k11 i10 k10 g10 f10 i12 i11 h11 f9 g12 j9 h12 d9 e9 f12 "
     "k12 j12 j13 k14 f13 e14 l11 f8 f11 f6 f7 i14",
     9, "h13"},
    {"renju: h8 h9 i8 i7 j8 k8 f6 j9 i9 g7 k7 h10 f8 g8 f7 f9 g10 i10 h11 g5 g6 i6 f5 f4 h7 e4 h5 "
     "i4 e3 h4 g4 d9 h3 e9 g9 e6 i3 e10 d11 e11 e12 c8 b7 c9 b9 c10 i2 j1 c7 e7 e8 d10 l6 m5 f3 g3 "
     "d1",
     5, "e2"},
    {"renju: h8 i9 i8 j8 h10 j7 g9 j6 j5 j9 j10 f8 f10 i7 g11 g10", 7, "h11"},
    {"renju: h8 i9 j8 i8 i7 h6 j9 j6 i6 i5 j4 h4 k7 h5 h7 j7 j5 k4 h3 f9 k6 i4 j3 g3 f2 f8 j2 j1 "
     "g9 f10 f7 g10 g7 e7 f11",
     7, "i10"},
    {"renju: h8 h9 j7 g7 j9 g8 j8 j6 i10 g6 g9 h6 i6 i5 f8", 9, "h5"},
    {"renju: h8 h9 i10 i9 j9 k8 g9 f10 f8 h10 j8 j7 i8 g8 i6 i7 h7 g6 h5 f12 i5 h6 g5 f5 e13 h12 "
     "h13 g11 i13 g13 j11 i12 g12 e11 h11 f13 j10 j12 j5 k5 l11 k10 k11",
     9, "i11"},
    {"renju: h8 h9 i6 g9 i9 g7 i8 i7 g8 f8 h7 f9 h6 h5 j8 k8", 11, "j6"},
    {"renju: h8 i9 j8 i8 i7 h6 j9 j6 i6 i5 j4 h4 k7 h5 h7 j7 j5 k4 h3 f9 k6 i4 j3 g3 f2 f8 j2 j1 "
     "g9 f10 f7",
     11, "g7"},
    {"renju: h8 h9 j9 j8 i7 g10 i8 i10 i5 i6", 13, "j6"},
    {"renju: h8 h9 h7 g7 g10 f8 h6 f9 g9 f10 f11 h5 g12 g11 e10 d9 e9 g5 e8 f6 f7 e7 h4 d7 e12", 13,
     "e11"},
};

static const char help[] =
    "usage: renversi bench search [FILE] [--depth N | --time MS | --nodes N]\n"
    "       renversi bench search --threats [FILE] [--nodes N]\n"
    "\n"
    "Searches each position with the Gomoku engine, to a fixed depth (default 8), for\n"
    "MS milliseconds or within N nodes (the whole think, as `gomocup --nodes N`: the\n"
    "depth reached at fixed nodes shows how selective the search is), and prints one\n"
    "line per position (index, rule, move, eval, depth\n"
    "reached, nodes, seconds), then\n"
    "  search: <nodes> nodes, <seconds> s, <knps> k nodes/s, depth <average>\n"
    "\n"
    "--threats runs the built-in set of 40 won positions (or FILE's, each a win for the\n"
    "side to move): the VCF solver alone and the whole engine (VCF, VCT and search,\n"
    "at most N nodes a position, default 300000) on each; one line per position\n"
    "(index, rule, VCF found yes/no, engine proved a win yes/no, its move), then\n"
    "  threats: <n> positions, VCF <k> (<pct>%), engine <k> (<pct>%), <nodes> nodes, <seconds> s\n"
    "\n"
    "FILE has one position per line: a move list, optionally preceded by a rule and\n"
    "a colon (\"renju: h8 h9 j8\"); blank lines and # comments are skipped.\n";

/* Parses "RULE: MOVES" (or just MOVES, freestyle) into g; 0 or an error (reported). */
static int load_position(const char *line, int index, rv_gomoku *g) {
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
    rv_gomoku_init(g, 15, 15, rule);
    rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    int n = 0;
    if (rv_gomoku_moves_parse(moves, strlen(moves), 15, pts, RV_GOMOKU_MAX_POINTS, &n, NULL) !=
        RV_OK)
        return rv_cli_fail("bench", "position %d: bad move list", index);
    for (int i = 0; i < n; i++)
        if (rv_gomoku_play(g, pts[i].x, pts[i].y) != RV_OK)
            return rv_cli_fail("bench", "position %d: illegal move %d", index, i + 1);
    return 0;
}

typedef struct bench_run {
    rv_gomoku_ai *ai;
    int depth;
    int64_t time_ms, nodes_cap;
    int count, vcf_won, engine_won, depth_sum;
    uint64_t nodes;
    double secs;
} bench_run;

/* One position searched to the depth or for the time. */
static int run_search(void *ctx, const char *line, int index) {
    bench_run *r = ctx;
    rv_gomoku g;
    if (load_position(line, index, &g) != 0) return RV_EXIT_BAD;
    rv_gomoku_ai_clear(r->ai);
    int fixed = r->time_ms > 0 || r->nodes_cap > 0;
    rv_gomoku_limits lim = {0, fixed ? 0 : r->depth, r->time_ms, r->nodes_cap, 0};
    rv_gomoku_ai_info info;
    rv_status s = rv_gomoku_ai_think(r->ai, &g, &lim, &info);
    if (s != RV_OK) return rv_cli_fail("bench", "position %d: %s", index, rv_strerror(s));
    char p[8];
    rv_gomoku_point_format(info.x, info.y, 15, p, sizeof p);
    printf("%d %s %s %d %d %llu %.3f\n", index, rv_gomoku_rule_name(rv_gomoku_get_rule(&g)), p,
           info.eval, info.depth, (unsigned long long)info.nodes, info.seconds);
    fflush(stdout);
    r->count++;
    r->depth_sum += info.depth;
    r->nodes += info.nodes;
    r->secs += info.seconds;
    return 0;
}

/* One won position: the VCF solver alone, then the whole engine within the node cap. */
static int run_threat(void *ctx, const char *line, int index) {
    bench_run *r = ctx;
    rv_gomoku g;
    if (load_position(line, index, &g) != 0) return RV_EXIT_BAD;
    rv_gomoku_vcf_result vcf;
    rv_status s = rv_gomoku_vcf(&g, 0, (uint64_t)r->nodes_cap, &vcf);
    if (s != RV_OK) return rv_cli_fail("bench", "position %d: %s", index, rv_strerror(s));
    rv_gomoku_ai_clear(r->ai);
    rv_gomoku_limits lim = {0, 0, 0, r->nodes_cap, 0};
    rv_gomoku_ai_info info;
    s = rv_gomoku_ai_think(r->ai, &g, &lim, &info);
    if (s != RV_OK) return rv_cli_fail("bench", "position %d: %s", index, rv_strerror(s));
    char p[8];
    rv_gomoku_point_format(info.x, info.y, 15, p, sizeof p);
    printf("%d %s vcf %s engine %s %s\n", index, rv_gomoku_rule_name(rv_gomoku_get_rule(&g)),
           vcf.found ? "yes" : "no", info.win_found == 1 ? "yes" : "no", p);
    fflush(stdout);
    r->count++;
    r->vcf_won += vcf.found;
    r->engine_won += info.win_found == 1;
    r->nodes += vcf.nodes + info.nodes;
    r->secs += info.seconds;
    return 0;
}

int rv_bench_search(int argc, char **argv) {
    long depth = 8, time_ms = 0, nodes = 0; /* --threats: 300000 by default */
    int threats = 0, npos;
    const rv_cli_opt opts[] = {{"--depth", RV_CLI_INT, &depth, 1, 60},
                               {"--time", RV_CLI_INT, &time_ms, 1, 3600000},
                               {"--nodes", RV_CLI_INT, &nodes, 1000, 1000000000},
                               {"--threats", RV_CLI_FLAG, &threats, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int rc = rv_cli_options("renversi bench", argc - 1, argv + 1, opts, &npos);
    if (rc == RV_CLI_HELP) return fputs(help, stdout), RV_EXIT_OK;
    if (rc) return rc;
    if (npos > 1) return rv_cli_fail("bench", "unexpected argument '%s'", argv[2]);
    const char *file = npos ? argv[1] : NULL;
    rv_cli_describe_machine();
    if (threats && nodes == 0) nodes = 300000;
    bench_run run = {rv_gomoku_ai_new(16u << 20), (int)depth, time_ms, nodes, 0, 0, 0, 0, 0, 0};
    if (!run.ai) return rv_cli_fail("bench", "out of memory");
    if (threats) {
        enum { N = sizeof threat_set / sizeof threat_set[0] };
        const char *pos[N];
        for (int i = 0; i < N; i++) pos[i] = threat_set[i].pos;
        rc = rv_cli_each_line("bench", file, pos, N, run_threat, &run);
    } else
        rc = rv_cli_each_line("bench", file, builtin, sizeof builtin / sizeof builtin[0],
                              run_search, &run);
    rv_gomoku_ai_free(run.ai);
    if (rc) return rc;
    if (threats)
        printf("threats: %d positions, VCF %d (%.0f%%), engine %d (%.0f%%), %llu nodes, %.3f s\n",
               run.count, run.vcf_won, 100.0 * run.vcf_won / run.count, run.engine_won,
               100.0 * run.engine_won / run.count, (unsigned long long)run.nodes, run.secs);
    else
        printf("search: %llu nodes, %.3f s, %.0f k nodes/s, depth %.1f\n",
               (unsigned long long)run.nodes, run.secs,
               run.secs > 0 ? (double)run.nodes / run.secs / 1000.0 : 0.0,
               (double)run.depth_sum / run.count);
    return RV_EXIT_OK;
}
