/* `renversi perft DEPTH [--alive-only] [--board BOARD]`: Reversi perft,
 * one line "DEPTH NODES SECONDS" per depth (shared/DESIGN.md). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "renversi/core.h"
#include "renversi/reversi_record.h"

static const char help[] =
    "usage: renversi perft DEPTH [--alive-only] [--board BOARD] [--simd PATH]\n"
    "\n"
    "Counts the leaves of the Reversi game tree DEPTH plies below a position\n"
    "(a pass is one ply) and prints one line per depth 1..DEPTH:\n"
    "  DEPTH NODES SECONDS\n"
    "with SECONDS the time of that depth alone.\n"
    "\n"
    "  --alive-only   a game that ended before DEPTH adds nothing at greater\n"
    "                 depths (default: it stays one leaf at every greater depth)\n"
    "  --board BOARD  64 characters a1..h8 (X or * black, O white, - empty), a\n"
    "                 space and the side to move X or O; anything from ';' on is\n"
    "                 ignored (default: the start position)\n"
    "  --simd PATH    plain, avx2 or avx512 (default: the best this CPU has)\n"
    "\n"
    "From the start: 1 4, 2 12, 3 56, ... 11 212258800, 12 1939886636.\n";

int rv_cmd_perft(int argc, char **argv) {
    const char *cmd = "perft";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    long depth = -1;
    int alive = 0;
    const char *board = NULL, *simd_name = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--alive-only") == 0) alive = 1;
        else if (strcmp(a, "--board") == 0 || strcmp(a, "--simd") == 0) {
            if (i + 1 >= argc) return rv_cli_fail(cmd, "%s needs a value", a);
            if (a[2] == 'b') board = argv[++i];
            else simd_name = argv[++i];
        } else if (strncmp(a, "--board=", 8) == 0) board = a + 8;
        else if (strncmp(a, "--simd=", 7) == 0) simd_name = a + 7;
        else if (a[0] == '-' && a[1] != '\0') return rv_cli_fail(cmd, "unknown option '%s'", a);
        else if (depth >= 0) return rv_cli_fail(cmd, "unexpected argument '%s'", a);
        else if (rv_cli_parse_int(a, 1, 60, &depth) != 0)
            return rv_cli_fail(cmd, "bad depth '%s' (expected an integer 1..60)", a);
    }
    if (depth < 0) return rv_cli_fail(cmd, "missing DEPTH (try `renversi perft --help`)");

    rv_reversi_pos pos;
    rv_reversi_init(&pos);
    if (board) {
        rv_reversi_obf obf;
        rv_reversi_error err;
        if (rv_reversi_obf_parse(board, strlen(board), 0, &obf, &err) != RV_OK)
            return rv_cli_fail(cmd, "bad --board: %s", err.message);
        pos = obf.pos;
    }
    rv_reversi_simd simd = rv_reversi_simd_best();
    if (simd_name) {
        rv_reversi_simd want = RV_REVERSI_SIMD_AUTO;
        for (int s = RV_REVERSI_SIMD_PLAIN; s <= RV_REVERSI_SIMD_AVX512; s++)
            if (strcmp(simd_name, rv_reversi_simd_name((rv_reversi_simd)s)) == 0)
                want = (rv_reversi_simd)s;
        if (want == RV_REVERSI_SIMD_AUTO)
            return rv_cli_fail(cmd, "unknown --simd '%s' (expected plain, avx2 or avx512)",
                               simd_name);
        if (want > rv_reversi_simd_cpu())
            return rv_cli_fail(cmd, "this CPU cannot run --simd %s", simd_name);
        simd = want;
    }
    for (int d = 1; d <= depth; d++) {
        uint64_t n = 0;
        double t0 = rv_clock_seconds();
        rv_reversi_perft_with(&pos, d, alive, simd, &n);
        printf("%d %llu %.3f\n", d, (unsigned long long)n, rv_clock_seconds() - t0);
        fflush(stdout);
    }
    return RV_EXIT_OK;
}
