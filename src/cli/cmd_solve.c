/* `renversi solve [FILE.obf | -]`: exact Reversi endgame solves (DESIGN.md). */
#include "cli/cli.h"
#include "cmdline/solve_run.h"

#include "renversi/core.h"

#include <errno.h>
#include <string.h>

#define SOLVE_MAX_EMPTIES 36

static const char help[] =
    "usage: renversi solve [FILE.obf | -] [--wld] [--threads N] [--hash MB] [--max-empties N]\n"
    "\n"
    "Solves each OBF position of FILE (default: standard input) exactly and prints\n"
    "one line per position:\n"
    "  INDEX MOVE SCORE NODES SECONDS\n"
    "MOVE is a best move (upper case; PA when the side to move must pass, -- when\n"
    "the game is over), SCORE the exact final disc difference for the side to move\n"
    "(empties to the winner), then a summary line starting with '#'. Blank lines\n"
    "and lines starting with '#' or '%' are skipped.\n"
    "\n"
    "  --wld         only decide win/draw/loss: SCORE is +1, 0 or -1\n"
    "  --threads N   solve N positions at a time (default 1)\n"
    "  --hash MB     transposition table per thread (default 64)\n"
    "  --max-empties N  solve positions with up to N empty squares (default 36, the\n"
    "                FFO suites' largest; each more empty square costs about 3x the\n"
    "                time); a position with more is refused before anything is solved\n"
    "\n"
    "Exit status: 0, or 2 on a bad option, a bad OBF line, an input with no\n"
    "position or a position above --max-empties (nothing solved).\n";

int rv_cmd_solve(int argc, char **argv) {
    const char *cmd = "solve";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    const char *path = NULL;
    int wld = 0;
    long threads = 1, hash = 64, max_empties = SOLVE_MAX_EMPTIES;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--wld") == 0) {
            wld = 1;
        } else if (strcmp(a, "--threads") == 0 || strcmp(a, "--hash") == 0) {
            if (i + 1 >= argc) return rv_cli_fail(cmd, "%s needs a number", a);
            long *dst = a[2] == 't' ? &threads : &hash;
            long hi = a[2] == 't' ? 64 : 65536;
            if (rv_cli_parse_int(argv[++i], 1, hi, dst) != 0)
                return rv_cli_fail(cmd, "%s: expected a number 1..%ld, got '%s'", a, hi, argv[i]);
        } else if (strcmp(a, "--max-empties") == 0) {
            if (i + 1 >= argc || rv_cli_parse_int(argv[++i], 0, 60, &max_empties) != 0)
                return rv_cli_fail(cmd, "--max-empties: expected a number 0..60");
        } else if (a[0] == '-' && a[1] != '\0') {
            return rv_cli_fail(cmd, "unknown option '%s' (see renversi solve --help)", a);
        } else if (path) {
            return rv_cli_fail(cmd, "more than one input file ('%s' and '%s')", path, a);
        } else {
            path = a;
        }
    }
    if (!path) path = "-";
    FILE *f = rv_cli_open(path);
    if (!f) return rv_cli_fail(cmd, "cannot open '%s': %s", path, strerror(errno));
    solve_set set = {0};
    const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
    int rc = solve_read(cmd, name, f, &set);
    if (f != stdin) fclose(f);
    /* An exact solve costs about 3x more per empty square: above the limit it would run
       for hours or days, so it is refused unless asked for. */
    for (int i = 0; rc == 0 && i < set.n; i++) {
        const rv_reversi_pos *p = &set.items[i].obf.pos;
        int empties = 64 - rv_bb_count(p->player | p->opponent);
        if (empties > max_empties)
            rc = rv_cli_fail(cmd,
                             "%s line %ld: %d empty squares, more than --max-empties %ld "
                             "(raise it to solve this position)",
                             name, set.items[i].line, empties, max_empties);
    }
    if (rc != 0) {
        solve_free(&set);
        return RV_EXIT_BAD;
    }
    double t0 = rv_clock_seconds();
    if (solve_run(&set, (int)threads, (size_t)hash, wld, 1) != 0) {
        solve_free(&set);
        return rv_cli_fail(cmd, "out of memory (try a smaller --hash)");
    }
    double secs = rv_clock_seconds() - t0;
    uint64_t nodes = 0;
    int agree = 0, scored = 0;
    for (int i = 0; i < set.n; i++) {
        nodes += set.items[i].res.nodes;
        if (set.items[i].obf.nscores) {
            scored++;
            agree += solve_agrees(&set.items[i], wld);
        }
    }
    printf("# %d positions, %llu nodes, %.3f s, %.1f M nodes/s", set.n, (unsigned long long)nodes,
           secs, secs > 0 ? (double)nodes / secs / 1e6 : 0.0);
    if (scored) printf(", %d/%d agree with the file's scores", agree, scored);
    printf("\n");
    solve_free(&set);
    return RV_EXIT_OK;
}
