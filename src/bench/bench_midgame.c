/*
 * `renversi bench midgame`: the Othello engine's midgame search (iterative
 * deepening PVS with the evaluation at the leaves) to a fixed depth on a fixed
 * set of positions, or on the transcripts of FILE, one per line.  Last line:
 * `midgame: <nodes> nodes, <seconds> s, <knps> k nodes/s`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmdline/cmdline.h"
#include "renversi/reversi_ai.h"
#include "renversi/reversi_record.h"

/* 24-ply positions from engine self-play (level 6, random first 4 plies). */
static const char *const builtin[] = {
    "c4c5c6c3e3b5a6d3b6b3b4f5f4g3g4e2c2a5a4f3d6d7e7c7",
    "f5f4d3c4e3e6c3f6g4f3g5g6f2d2c6c5c2e2e1d1d6b3b5a6",
    "c4e3f4c5d6b3c6f5g6f3f2g4d3f6e6c2g3e2h4g5e1h3h2d2",
    "d3c5d6c7f5g5f6f7d7e3c4e6f4c6e7g3g6h5h6f3e8d8h4g4",
    "f5d6c6f6e6f4g5g6g4e7f8h3g3h4f3c7d7c4f7c5b6e2d3c3",
    "e6d6c7f5g4e3f4g5d3d7f7c4f3c5c6b5f6g6b3h3a6e8b6c8",
    "e6f6f5f4g3f3c3d6f7c5b6c4c6e7d3b5e3f8g4d2d7c2b3g6",
    "e6f4f3f6f5d6e7f7d7g5h6c8c7d8c6g3g4d3g6e3f2b5c4c3",
    "f5d6c5b4d3g5f6e7b6b5a5f4e6d7f7e3g6g4c3c4c6c7f2f8",
};

static const char help[] =
    "usage: renversi bench midgame [FILE] [--depth N] [--eval pattern|simple] [--probcut on|off]\n"
    "\n"
    "Searches each position to a fixed depth (default 11) with the Othello engine's\n"
    "midgame search, no exact solving, one table cleared before each position, and\n"
    "prints one line per position (index, move, eval in discs, nodes, seconds), then\n"
    "  midgame: <nodes> nodes, <seconds> s, <knps> k nodes/s, <cpu> s CPU\n"
    "(seconds of wall-clock time in the searches; CPU: the searching thread's CPU\n"
    "time, which a busy machine does not inflate; the table clears are in neither)\n"
    "FILE has one transcript per line (\"f5d6c3...\"); blank lines and # comments\n"
    "are skipped.  --eval picks the evaluation: the fitted patterns (default) or\n"
    "the hand-weighted one.  --probcut off switches the search's forward pruning\n"
    "(Multi-ProbCut, on by default with the fitted patterns) off.\n";

/* CPU seconds of the calling thread (the search's own time, whatever the load). */
static double thread_cpu_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run_one(rv_reversi_ai *ai, const char *line, int depth, int index, uint64_t *nodes,
                   double *secs, double *cpu) {
    uint8_t moves[RV_REVERSI_MAX_PLIES];
    int n = 0, failed = 0;
    if (rv_reversi_transcript_parse(line, strlen(line), moves, RV_REVERSI_MAX_PLIES, &n, NULL) !=
        RV_OK)
        return rv_cli_fail("bench", "position %d: bad transcript '%s'", index, line);
    rv_reversi_game g;
    rv_reversi_game_init(&g, NULL);
    if (rv_reversi_transcript_replay(&g, moves, n, &failed) != RV_OK)
        return rv_cli_fail("bench", "position %d: move %d is illegal", index, failed + 1);
    rv_reversi_ai_clear(ai);
    /* Exact solving would start at 2 * depth empties: keep it midgame only. */
    rv_reversi_limits lim = {0, depth, 0, 0};
    rv_reversi_ai_info info;
    double c0 = thread_cpu_seconds();
    rv_status s = rv_reversi_ai_think(ai, rv_reversi_game_position(&g), &lim, &info);
    *cpu += thread_cpu_seconds() - c0;
    if (s != RV_OK) return rv_cli_fail("bench", "position %d: %s", index, rv_strerror(s));
    char sq[3];
    printf("%d %s %+.2f %llu %.3f%s\n", index, rv_reversi_square_format(info.move, 1, sq),
           info.eval_centi / 100.0, (unsigned long long)info.nodes, info.seconds,
           info.exact ? " exact" : "");
    fflush(stdout);
    *nodes += info.nodes;
    *secs += info.seconds;
    return 0;
}

typedef struct bench_run {
    rv_reversi_ai *ai;
    int depth;
    uint64_t nodes;
    double secs, cpu;
} bench_run;

static int run_line(void *ctx, const char *line, int index) {
    bench_run *r = ctx;
    return run_one(r->ai, line, r->depth, index, &r->nodes, &r->secs, &r->cpu);
}

int rv_bench_midgame(int argc, char **argv) {
    const char *file = NULL;
    long depth = 11;
    rv_reversi_eval eval = RV_REVERSI_EVAL_PATTERN;
    int probcut = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return RV_EXIT_OK;
        }
        if (strcmp(argv[i], "--depth") == 0) {
            if (i + 1 >= argc || rv_cli_parse_int(argv[++i], 1, 30, &depth) != 0)
                return rv_cli_fail("bench", "--depth expects 1..30");
        } else if (strcmp(argv[i], "--eval") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "pattern") == 0) eval = RV_REVERSI_EVAL_PATTERN;
            else if (strcmp(v, "simple") == 0) eval = RV_REVERSI_EVAL_SIMPLE;
            else return rv_cli_fail("bench", "--eval expects pattern or simple, not '%s'", v);
        } else if (strcmp(argv[i], "--probcut") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "on") == 0) probcut = 1;
            else if (strcmp(v, "off") == 0) probcut = 0;
            else return rv_cli_fail("bench", "--probcut expects on or off, not '%s'", v);
        } else if (!file)
            file = argv[i];
        else
            return rv_cli_fail("bench", "unexpected argument '%s'", argv[i]);
    }
    rv_cli_describe_machine();
    bench_run run = {rv_reversi_ai_new(64u << 20), (int)depth, 0, 0, 0};
    if (!run.ai) return rv_cli_fail("bench", "out of memory");
    rv_reversi_ai_set_eval(run.ai, eval);
    rv_reversi_ai_set_probcut(run.ai, probcut);
    int rc = rv_cli_each_line("bench", file, builtin, sizeof builtin / sizeof builtin[0], run_line,
                              &run);
    rv_reversi_ai_free(run.ai);
    if (rc) return rc;
    printf("midgame: %llu nodes, %.3f s, %.0f k nodes/s, %.3f s CPU\n", (unsigned long long)run.nodes,
           run.secs, run.secs > 0 ? (double)run.nodes / run.secs / 1000.0 : 0.0, run.cpu);
    return RV_EXIT_OK;
}
