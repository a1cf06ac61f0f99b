/*
 * `renversi forbidden`: the Renju forbidden points for black in a position
 * (shared/DESIGN.md): one line, points sorted by column letter then row
 * number, `point:kind` with --explain, an empty line when there are none.
 */
#include "cli/cli.h"
#include "cmdline/gomoku_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: renversi forbidden [--size N] [--explain] MOVES\n"
    "       renversi forbidden [--size N] [--explain] --black PTS --white PTS\n"
    "       renversi forbidden [--size N] [--explain] --file FILE|-\n"
    "\n"
    "Prints the Renju forbidden points for black in a position, on one line, sorted\n"
    "by column letter then row number (`g5 g10 h3`); an empty line when there are none.\n"
    "\n"
    "  MOVES        a move list, black first, alternating: `h8 i9 h10` or `h8i9h10`\n"
    "  --black PTS  black stones (any number), e.g. --black 'h8 i8' --white 'h9'\n"
    "  --white PTS  white stones (`-` = none)\n"
    "  --file FILE  one move list per line (`-` = stdin; text after ` | ` is ignored,\n"
    "               blank lines and lines starting with # or % are skipped); one\n"
    "               answer line per position\n"
    "  --size N     board size 5..26 (default 15)\n"
    "  --explain    print point:kind, kind = overline, double-four or double-three\n";

typedef struct opts {
    int size;
    int explain;
} opts;

/* Prints the forbidden points of g on one line. */
static void print_map(const rv_gomoku *g, const opts *o) {
    uint8_t map[RV_GOMOKU_MAX_POINTS];
    int n = rv_gomoku_width(g), first = 1;
    rv_gomoku_forbidden_map(g, map);
    /* by column letter, then by row number counted from the bottom */
    for (int x = 0; x < n; x++)
        for (int y = n - 1; y >= 0; y--) {
            int k = map[y * n + x];
            if (k == RV_FORBID_NONE) continue;
            char p[8];
            fputs(first ? "" : " ", stdout);
            fputs(rv_gcli_point(x, y, n, p), stdout);
            if (o->explain) printf(":%s", rv_forbid_name((rv_forbid_kind)k));
            first = 0;
        }
    putchar('\n');
}

/* Sets up g from one move list; -1 after printing an error. */
static int setup_moves(rv_gomoku *g, const opts *o, const char *where, const char *text,
                       size_t len) {
    static rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    rv_gomoku_init(g, o->size, o->size, RV_RULE_RENJU);
    int n = rv_gcli_parse_moves("forbidden", where, text, len, o->size, o->size, pts);
    if (n < 0) return -1;
    if (n == 0) {
        rv_cli_fail("forbidden", "%sempty move list", where);
        return -1;
    }
    return rv_gcli_place("forbidden", where, "move", g, pts, n, RV_EMPTY);
}

static int run_file(const char *path, const opts *o) {
    FILE *f = rv_cli_open(path);
    if (f == NULL) return rv_cli_fail("forbidden", "cannot open %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0, len;
    long lineno = 0, positions = 0;
    int rc = RV_EXIT_OK, got;
    static rv_gomoku g;
    while ((got = rv_cli_read_line("forbidden", path, f, &line, &cap, &len, &lineno)) > 0) {
        if (rv_cli_skip_line(line)) continue;
        char *bar = strstr(line, " | ");
        if (bar) len = (size_t)(bar - line);
        char where[48];
        snprintf(where, sizeof where, "line %ld: ", lineno);
        if (setup_moves(&g, o, where, line, (size_t)len) < 0) {
            rc = RV_EXIT_BAD;
            break;
        }
        print_map(&g, o);
        positions++;
    }
    if (rc == RV_EXIT_OK && got < 0)
        rc = RV_EXIT_BAD;
    else if (rc == RV_EXIT_OK && positions == 0)
        rc = rv_cli_fail("forbidden", "no positions in %s", path);
    free(line);
    if (f != stdin) fclose(f);
    return rc;
}

/* The position from MOVES or from --black/--white, then its answer line. */
static int run_one(const opts *o, const char *black, const char *white, char **moves, int nmoves) {
    static rv_gomoku g;
    if (nmoves > 0) {
        char *text = rv_gcli_join(moves, nmoves);
        if (text == NULL) return rv_cli_fail("forbidden", "out of memory");
        int r = setup_moves(&g, o, "", text, strlen(text));
        free(text);
        if (r < 0) return RV_EXIT_BAD;
    } else {
        static rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
        rv_gomoku_init(&g, o->size, o->size, RV_RULE_RENJU);
        /* "-" (as in the test data) or nothing means no stones of that colour */
        const char *sets[2] = {black && strcmp(black, "-") ? black : "",
                               white && strcmp(white, "-") ? white : ""};
        if (strspn(sets[0], " \t") == strlen(sets[0]) && strspn(sets[1], " \t") == strlen(sets[1]))
            return rv_cli_fail("forbidden", "no stones in --black and --white");
        for (int c = 0; c < 2; c++) {
            const char *where = c == 0 ? "--black: " : "--white: ";
            int n = rv_gcli_parse_moves("forbidden", where, sets[c], strlen(sets[c]), o->size,
                                        o->size, pts);
            if (n < 0) return RV_EXIT_BAD;
            if (rv_gcli_place("forbidden", where, "stone", &g, pts, n,
                              c == 0 ? RV_BLACK : RV_WHITE) < 0)
                return RV_EXIT_BAD;
        }
    }
    print_map(&g, o);
    return RV_EXIT_OK;
}

int rv_cmd_forbidden(int argc, char **argv) {
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    opts o = {15, 0};
    const char *file = NULL, *black = NULL, *white = NULL;
    /* MOVES may come before, between or after the options; "--" ends the options */
    char **moves = malloc((size_t)argc * sizeof *moves);
    if (moves == NULL) return rv_cli_fail("forbidden", "out of memory");
    int nmoves = 0, rc = RV_EXIT_OK, options = 1;
    for (int i = 1; i < argc && rc == RV_EXIT_OK; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!options || a[0] != '-' || a[1] == '\0') {
            moves[nmoves++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            options = 0;
        } else if (strcmp(a, "--explain") == 0) {
            o.explain = 1;
        } else if (strcmp(a, "--size") == 0 || strcmp(a, "--file") == 0 ||
                   strcmp(a, "--black") == 0 || strcmp(a, "--white") == 0) {
            i++;
            long n;
            if (val == NULL)
                rc = rv_cli_fail("forbidden", "%s needs a value", a);
            else if (strcmp(a, "--file") == 0)
                file = val;
            else if (strcmp(a, "--black") == 0)
                black = val;
            else if (strcmp(a, "--white") == 0)
                white = val;
            else if (rv_cli_parse_int(val, RV_GOMOKU_MIN_SIZE, RV_GOMOKU_MAX_SIZE, &n) != 0)
                rc = rv_cli_fail("forbidden", "bad board size '%s' (expected 5..26)", val);
            else
                o.size = (int)n;
        } else {
            rc = rv_cli_fail("forbidden", "unknown option '%s' (see --help)", a);
        }
    }
    if (rc == RV_EXIT_OK) {
        int sources = (nmoves > 0) + (file != NULL) + (black != NULL || white != NULL);
        if (sources == 0)
            rc = rv_cli_fail("forbidden", "no position: give MOVES, --black/--white or --file");
        else if (sources > 1)
            rc = rv_cli_fail("forbidden", "give only one of MOVES, --black/--white and --file");
        else if (file)
            rc = run_file(file, &o);
        else
            rc = run_one(&o, black, white, moves, nmoves);
    }
    free(moves);
    return rc;
}
