/* `renversi vcf`: a winning continuous-four sequence for the side to move, or "none". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "renversi/gomoku_ai.h"
#include "renversi/gomoku_record.h"

static const char help[] =
    "usage: renversi vcf [--rule R] [--size N] [--depth D] [--nodes N] MOVES\n"
    "\n"
    "Looks for a VCF (victory by continuous fours) for the side to move after MOVES\n"
    "(a move list, black first: \"h8 i9 h9\" or \"h8i9h9\"). Prints one line:\n"
    "  win: <attacker's and defender's moves in order, ending with the winning move>\n"
    "  none\n"
    "Under Renju a line may end with a white four whose only defence is forbidden\n"
    "for black. The node count goes to stderr.\n"
    "\n"
    "  --rule R    freestyle (default), standard, renju, caro, standard-caro\n"
    "  --size N    board size 5..26 (default 15)\n"
    "  --depth D   at most D attacking fours (default 40)\n"
    "  --nodes N   give up after N nodes (default 10000000): prints none\n";

int rv_cmd_vcf(int argc, char **argv) {
    rv_gomoku_rule rule = RV_RULE_FREESTYLE;
    long size = 15, depth = 40, nodes = 10000000;
    const char *moves = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(help, stdout);
            return RV_EXIT_OK;
        }
        if (strcmp(a, "--rule") == 0 || strcmp(a, "--size") == 0 || strcmp(a, "--depth") == 0 ||
            strcmp(a, "--nodes") == 0) {
            if (i + 1 >= argc) return rv_cli_fail("vcf", "%s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--rule") == 0) {
                if (rv_gomoku_rule_parse(v, &rule) != RV_OK)
                    return rv_cli_fail("vcf",
                                       "unknown rule '%s' (expected freestyle, standard, "
                                       "renju, caro or standard-caro)",
                                       v);
            } else if (strcmp(a, "--size") == 0) {
                if (rv_cli_parse_int(v, RV_GOMOKU_MIN_SIZE, RV_GOMOKU_MAX_SIZE, &size) != 0)
                    return rv_cli_fail("vcf", "--size expects 5..26, got '%s'", v);
            } else if (strcmp(a, "--depth") == 0) {
                if (rv_cli_parse_int(v, 1, 100, &depth) != 0)
                    return rv_cli_fail("vcf", "--depth expects 1..100, got '%s'", v);
            } else if (rv_cli_parse_int(v, 1, 2000000000, &nodes) != 0)
                return rv_cli_fail("vcf", "--nodes expects 1..2000000000, got '%s'", v);
        } else if (a[0] == '-' && a[1] != '\0')
            return rv_cli_fail("vcf", "unknown option '%s' (try --help)", a);
        else if (moves)
            return rv_cli_fail("vcf", "give the moves as one argument (quote them)");
        else
            moves = a;
    }
    if (!moves) return rv_cli_fail("vcf", "missing MOVES (try --help)");
    rv_gomoku g;
    if (rv_gomoku_init(&g, (int)size, (int)size, rule) != RV_OK)
        return rv_cli_fail("vcf", "cannot use a %ldx%ld board", size, size);
    rv_gomoku_point *pts = malloc(sizeof *pts * RV_GOMOKU_MAX_POINTS);
    if (!pts) return rv_cli_fail("vcf", "out of memory");
    int n = 0;
    rv_parse_error err;
    rv_status s =
        rv_gomoku_moves_parse(moves, strlen(moves), (int)size, pts, RV_GOMOKU_MAX_POINTS, &n, &err);
    if (s != RV_OK) {
        free(pts);
        if (s == RV_ETOOLONG) return rv_cli_fail("vcf", "more moves than points on the board");
        return rv_cli_fail("vcf", "bad move list at offset %zu ('%s'): expected %s", err.offset,
                           err.token, err.expected ? err.expected : "a point like h8");
    }
    if (n == 0) {
        free(pts);
        return rv_cli_fail("vcf", "empty move list");
    }
    for (int i = 0; i < n; i++) {
        s = rv_gomoku_play(&g, pts[i].x, pts[i].y);
        if (s != RV_OK) {
            char p[8] = "?";
            rv_gomoku_point_format(pts[i].x, pts[i].y, (int)size, p, sizeof p);
            free(pts);
            return rv_cli_fail("vcf", "illegal move %d (%s): %s", i + 1, p,
                               s == RV_ERANGE      ? "off the board"
                               : s == RV_EOCCUPIED ? "occupied"
                               : s == RV_EOVER     ? "after the end"
                                                   : rv_strerror(s));
        }
    }
    free(pts);
    rv_gomoku_vcf_result *r = malloc(sizeof *r);
    if (!r) return rv_cli_fail("vcf", "out of memory");
    s = rv_gomoku_vcf(&g, (int)depth, (uint64_t)nodes, r);
    if (s == RV_EOVER) {
        free(r);
        return rv_cli_fail("vcf", "the game is already over");
    }
    if (s != RV_OK) {
        free(r);
        return rv_cli_fail("vcf", "%s", rv_strerror(s));
    }
    if (!r->found)
        puts("none");
    else {
        fputs("win:", stdout);
        for (int i = 0; i < r->nmoves; i++) {
            char p[8];
            rv_gomoku_point_format(r->x[i], r->y[i], (int)size, p, sizeof p);
            printf(" %s", p);
        }
        putchar('\n');
    }
    fprintf(stderr, "vcf: %llu nodes\n", (unsigned long long)r->nodes);
    free(r);
    return RV_EXIT_OK;
}
