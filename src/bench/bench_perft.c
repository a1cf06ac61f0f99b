/* `renversi bench perft`: perft 12 from the start and perft from a few
 * mid-game and endgame positions; last line "perft: N nodes, S s, M M nodes/s". */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmdline/cmdline.h"
#include "renversi/core.h"
#include "renversi/reversi_record.h"

static const char help[] =
    "usage: renversi bench perft [--quick] [--simd plain|avx2|avx512]\n"
    "\n"
    "Runs Reversi perft (default convention, single thread) on a fixed set:\n"
    "the start position to depth 12, three mid-game positions (after the\n"
    "openings shown) to depth 9, and FFO #40 (20 empties) to depth 11. Prints a\n"
    "line per position and, last, the total:\n"
    "  perft: <nodes> nodes, <seconds> s, <mnps> M nodes/s\n"
    "(nodes = leaves counted; seconds = wall clock, the process CPU time is\n"
    "shown too, which is what to compare on a busy machine). The machine and\n"
    "the code path go to stderr.\n"
    "  --quick   smaller depths (a second or so), for smoke tests\n"
    "  --simd    force a code path (default: the best this CPU has)\n";

/* CPU time of this process: on a shared machine the wall clock also counts
 * the time other programs ran, CPU time only ours (single thread). */
static double cpu_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench_pos {
    const char *name, *moves, *board;
    int depth, quick;
};

static const struct bench_pos set[] = {
    {"start", "", NULL, 12, 9},
    {"f5d6c3d3c4f4f6f3e6e7", "f5d6c3d3c4f4f6f3e6e7", NULL, 9, 6},
    {"f5f6e6f4e3c5c4d3c3", "f5f6e6f4e3c5c4d3c3", NULL, 9, 6},
    {"f5d6c5f4e3f6d3f3g5", "f5d6c5f4e3f6d3f3g5", NULL, 9, 6},
    {"ffo40", NULL,
     "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 11, 8},
};

int rv_bench_perft(int argc, char **argv) {
    const char *cmd = "bench perft";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    int quick = 0;
    rv_reversi_simd simd = rv_reversi_simd_best();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--simd") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            int found = 0;
            for (int s = RV_REVERSI_SIMD_PLAIN; s <= RV_REVERSI_SIMD_AVX512; s++)
                if (strcmp(v, rv_reversi_simd_name((rv_reversi_simd)s)) == 0) {
                    simd = (rv_reversi_simd)s;
                    found = 1;
                }
            if (!found) return rv_cli_fail(cmd, "unknown --simd '%s'", v);
            if (simd > rv_reversi_simd_cpu())
                return rv_cli_fail(cmd, "this CPU cannot run --simd %s", v);
        } else return rv_cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[i]);
    }
    rv_cli_describe_machine();
    fprintf(stderr, "code path: %s (best on this CPU: %s)\n", rv_reversi_simd_name(simd),
            rv_reversi_simd_name(rv_reversi_simd_cpu()));
    uint64_t total = 0;
    double seconds = 0, cpu = 0;
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        const struct bench_pos *b = &set[k];
        rv_reversi_pos pos;
        rv_reversi_init(&pos);
        if (b->board) {
            rv_reversi_obf o;
            rv_reversi_obf_parse(b->board, strlen(b->board), 0, &o, NULL);
            pos = o.pos;
        } else {
            uint8_t mv[RV_REVERSI_MAX_PLIES];
            int n = 0;
            rv_reversi_game g;
            rv_reversi_game_init(&g, NULL);
            rv_reversi_transcript_parse(b->moves, strlen(b->moves), mv, RV_REVERSI_MAX_PLIES, &n,
                                        NULL);
            rv_reversi_transcript_replay(&g, mv, n, NULL);
            pos = *rv_reversi_game_position(&g);
        }
        int depth = quick ? b->quick : b->depth;
        uint64_t nodes = 0;
        double c0 = cpu_seconds(), t0 = rv_clock_seconds();
        rv_reversi_perft_with(&pos, depth, 0, simd, &nodes);
        double t = rv_clock_seconds() - t0, c = cpu_seconds() - c0;
        printf("%-22s depth %2d: %llu nodes, %.3f s, %.1f M nodes/s (CPU %.3f s)\n", b->name,
               depth, (unsigned long long)nodes, t, t > 0 ? nodes / t / 1e6 : 0.0, c);
        cpu += c;
        fflush(stdout);
        total += nodes;
        seconds += t;
    }
    printf("# CPU time %.3f s, %.1f M nodes/s\n", cpu, cpu > 0 ? total / cpu / 1e6 : 0.0);
    printf("perft: %llu nodes, %.3f s, %.1f M nodes/s\n", (unsigned long long)total, seconds,
           seconds > 0 ? total / seconds / 1e6 : 0.0);
    return RV_EXIT_OK;
}
