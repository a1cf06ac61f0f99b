/* `renversi bench WHAT`: dispatches to the benchmark of each module. */
#include "cmdline/cmdline.h"

#include <string.h>

int rv_cmd_bench(int argc, char **argv) {
    static const char help[] =
        "usage: renversi bench forbidden|perft|solve|search|midgame [FILE] [OPTIONS]\n"
        "\n"
        "Measures throughput; the machine description goes to stderr and the last\n"
        "line of stdout is the figure to compare:\n"
        "  forbidden: <maps> maps, <points> empty points, <seconds> s, <ns> ns/point\n"
        "  perft: <nodes> nodes, <seconds> s, <mnps> M nodes/s\n"
        "  solve: <positions> positions, <nodes> nodes, <seconds> s, <mnps> M nodes/s\n"
        "  search: <nodes> nodes, <seconds> s, <knps> k nodes/s   (Gomoku)\n"
        "  midgame: <nodes> nodes, <seconds> s, <knps> k nodes/s  (Othello)\n"
        "`renversi bench WHAT --help` describes each one.\n";
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fputs(help, argc < 2 ? stderr : stdout);
        return argc < 2 ? RV_EXIT_BAD : RV_EXIT_OK;
    }
    const char *what = argv[1];
    if (strcmp(what, "forbidden") == 0) return rv_bench_forbidden(argc - 1, argv + 1);
    if (strcmp(what, "perft") == 0) return rv_bench_perft(argc - 1, argv + 1);
    if (strcmp(what, "solve") == 0) return rv_bench_solve(argc - 1, argv + 1);
    if (strcmp(what, "search") == 0) return rv_bench_search(argc - 1, argv + 1);
    if (strcmp(what, "midgame") == 0) return rv_bench_midgame(argc - 1, argv + 1);
    return rv_cli_fail("bench", "unknown benchmark '%s' (expected forbidden, perft, solve, search or midgame)",
                       what);
}
