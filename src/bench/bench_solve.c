/* `renversi bench solve [FILE]`: endgame solver speed on the FFO positions. */
#include "cmdline/cmdline.h"
#include "cmdline/solve_run.h"

#include "renversi/core.h"

#include <errno.h>
#include <sys/resource.h>
#include <string.h>

#ifndef RV_TEST_DATA_DIR
#define RV_TEST_DATA_DIR "tests/data"
#endif
#define DEFAULT_FILE RV_TEST_DATA_DIR "/othello/fforum-40-59.obf"

static const char help[] =
    "usage: renversi bench solve [FILE.obf] [--first N] [--skip N] [--threads N] [--hash MB]\n"
    "\n"
    "Solves the positions of FILE (default: the FFO #40-#59 set shipped in\n"
    "tests/data/othello) exactly, one line per position\n"
    "  INDEX MOVE SCORE NODES SECONDS [WRONG]\n"
    "(WRONG when the file's stated best score disagrees), the machine on stderr,\n"
    "the CPU time used (a '#' line), and last:\n"
    "  solve: <positions> positions, <nodes> nodes, <seconds> s, <mnps> M nodes/s\n"
    "\n"
    "  --skip N      leave out the first N positions of the file\n"
    "  --first N     solve only the first N positions (after --skip); FFO #40-#49\n"
    "                is --first 10\n"
    "  --threads N   positions solved at a time (default 1)\n"
    "  --hash MB     transposition table per thread (default 64)\n"
    "\n"
    "Exit status: 0; 1 if a result disagrees with the file; 2 on bad input.\n";

int rv_bench_solve(int argc, char **argv) {
    const char *cmd = "bench solve";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    const char *path = NULL;
    long first = 0, skip = 0, threads = 1, hash = 64;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long *dst = NULL, lo = 1, hi = 0;
        if (strcmp(a, "--first") == 0) dst = &first, hi = 1000000;
        else if (strcmp(a, "--skip") == 0) dst = &skip, lo = 0, hi = 1000000;
        else if (strcmp(a, "--threads") == 0) dst = &threads, hi = 64;
        else if (strcmp(a, "--hash") == 0) dst = &hash, hi = 65536;
        if (dst) {
            if (i + 1 >= argc) return rv_cli_fail(cmd, "%s needs a number", a);
            if (rv_cli_parse_int(argv[++i], lo, hi, dst) != 0)
                return rv_cli_fail(cmd, "%s: expected a number %ld..%ld, got '%s'", a, lo, hi,
                                   argv[i]);
        } else if (a[0] == '-' && a[1] != '\0') {
            return rv_cli_fail(cmd, "unknown option '%s' (see renversi bench solve --help)", a);
        } else if (path) {
            return rv_cli_fail(cmd, "more than one input file ('%s' and '%s')", path, a);
        } else {
            path = a;
        }
    }
    if (!path) path = DEFAULT_FILE;
    FILE *f = rv_cli_open(path);
    if (!f) return rv_cli_fail(cmd, "cannot open '%s': %s", path, strerror(errno));
    solve_set set = {0};
    int rc = solve_read(cmd, strcmp(path, "-") == 0 ? "stdin" : path, f, &set);
    if (f != stdin) fclose(f);
    if (rc != 0) {
        solve_free(&set);
        return RV_EXIT_BAD;
    }
    if (skip > set.n) skip = set.n;
    solve_set sub = {set.items + skip, set.n - (int)skip, 0, (int)skip};
    if (first && first < sub.n) sub.n = (int)first;

    rv_cli_describe_machine();
    double t0 = rv_clock_seconds();
    if (solve_run(&sub, (int)threads, (size_t)hash, 0, 2) != 0) {
        solve_free(&set);
        return rv_cli_fail(cmd, "out of memory (try a smaller --hash)");
    }
    double secs = rv_clock_seconds() - t0;
    uint64_t nodes = 0;
    int wrong = 0;
    for (int i = 0; i < sub.n; i++) {
        const solve_item *it = &sub.items[i];
        wrong += !solve_agrees(it, 0);
        nodes += it->res.nodes;
    }
    /* On a shared machine wall-clock time depends on the load; the CPU time
     * this process used is printed too, for comparisons. */
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        printf("# cpu time %.3f s, %.1f M nodes per cpu-second\n", cpu,
               cpu > 0 ? (double)nodes / cpu / 1e6 : 0.0);
    }
    printf("solve: %d positions, %llu nodes, %.3f s, %.1f M nodes/s\n", sub.n,
           (unsigned long long)nodes, secs, secs > 0 ? (double)nodes / secs / 1e6 : 0.0);
    solve_free(&set);
    return wrong ? 1 : RV_EXIT_OK;
}
