/*
 * `renversi bench forbidden [FILE]`: whole-board Renju forbidden maps over a
 * set of positions, repeated for a few seconds. The last line is exactly
 *   forbidden: <maps> maps, <points> empty points, <seconds> s, <ns> ns/point
 */
#include "cmdline/cmdline.h"
#include "cmdline/gomoku_cli.h"

#include "renversi/core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char help[] =
    "usage: renversi bench forbidden [FILE] [--seconds S] [--size N]\n"
    "\n"
    "Computes whole-board Renju forbidden maps (every empty point judged for black)\n"
    "over a set of positions, again and again for about S seconds (default 3), and\n"
    "prints the cost per empty point, timed by the thread's CPU clock (other work on\n"
    "a shared machine does not count). The last line is exactly\n"
    "  forbidden: <maps> maps, <points> empty points, <seconds> s, <ns> ns/point\n"
    "\n"
    "  FILE         one move list per line (`-` = stdin; text after ` | ` ignored);\n"
    "               default: 1020 built-in mid-game positions, 15x15, 10 to 60 stones\n"
    "               each (random local play from a fixed seed)\n"
    "  --seconds S  how long to run, 0.1..600 (default 3)\n"
    "  --size N     board size for FILE, 5..26 (default 15)\n";

/*
 * CPU time of this thread in seconds: on a machine shared with other work the
 * wall clock also counts the time other processes ran, this does not.
 */
static double cpu_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return rv_clock_seconds();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct posset {
    rv_gomoku *pos;
    int n, cap;
} posset;

static rv_gomoku *add(posset *s) {
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        rv_gomoku *p = realloc(s->pos, (size_t)cap * sizeof *p);
        if (p == NULL) return NULL;
        s->pos = p;
        s->cap = cap;
    }
    return &s->pos[s->n++];
}

/*
 * The built-in set: 15x15 positions of 10..60 stones (20 of each count),
 * black and white alternating, each stone within two points of an earlier
 * one, as in real mid-game play.
 */
static int builtin_positions(posset *s) {
    rv_rng r;
    rv_rng_seed(&r, 15);
    for (int i = 0; i < 51 * 20; i++) {
        int stones = 10 + i % 51;
        rv_gomoku *g = add(s);
        if (g == NULL) return -1;
        rv_gomoku_init(g, 15, 15, RV_RULE_RENJU);
        int xs[64], ys[64], placed = 0;
        while (placed < stones) {
            int x = 7, y = 7;
            if (placed > 0) {
                int k = (int)rv_rng_below(&r, (uint64_t)placed);
                x = xs[k] + (int)rv_rng_below(&r, 5) - 2;
                y = ys[k] + (int)rv_rng_below(&r, 5) - 2;
            }
            if (x < 0 || y < 0 || x > 14 || y > 14 || rv_gomoku_at(g, x, y) != RV_EMPTY) continue;
            rv_gomoku_set_stone(g, x, y, placed % 2 ? RV_WHITE : RV_BLACK);
            xs[placed] = x;
            ys[placed] = y;
            placed++;
        }
    }
    return 0;
}

static int file_positions(posset *s, const char *path, int size) {
    FILE *f = rv_cli_open(path);
    if (f == NULL) {
        rv_cli_fail("bench", "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0, len;
    long lineno = 0;
    int rc = 0, got;
    static rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    while ((got = rv_cli_read_line("bench", path, f, &line, &cap, &len, &lineno)) > 0) {
        if (rv_cli_skip_line(line)) continue;
        char *bar = strstr(line, " | ");
        if (bar) len = (size_t)(bar - line);
        char where[48];
        snprintf(where, sizeof where, "%s line %ld: ", path, lineno);
        int n = rv_gcli_parse_moves("bench", where, line, (size_t)len, size, size, pts);
        rv_gomoku *g = n < 0 ? NULL : add(s);
        if (n >= 0 && g == NULL) rv_cli_fail("bench", "out of memory");
        if (g == NULL) {
            rc = -1;
            break;
        }
        rv_gomoku_init(g, size, size, RV_RULE_RENJU);
        if (rv_gcli_place("bench", where, "move", g, pts, n, RV_EMPTY) < 0) {
            rc = -1;
            break;
        }
    }
    free(line);
    if (f != stdin) fclose(f);
    if (rc == 0 && s->n == 0) {
        rv_cli_fail("bench", "no positions in %s", path);
        rc = -1;
    }
    return rc;
}

int rv_bench_forbidden(int argc, char **argv) {
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    const char *file = NULL;
    double seconds = 3;
    int size = 15;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--seconds") == 0 || strcmp(a, "--size") == 0) {
            if (i + 1 >= argc) return rv_cli_fail("bench", "%s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--size") == 0) {
                long n;
                if (rv_cli_parse_int(v, RV_GOMOKU_MIN_SIZE, RV_GOMOKU_MAX_SIZE, &n) != 0)
                    return rv_cli_fail("bench", "bad board size '%s' (expected 5..26)", v);
                size = (int)n;
            } else {
                char *end;
                errno = 0;
                seconds = strtod(v, &end);
                if (errno || end == v || *end || !(seconds >= 0.1 && seconds <= 600))
                    return rv_cli_fail("bench", "bad --seconds '%s' (expected 0.1..600)", v);
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            return rv_cli_fail("bench", "unknown option '%s' (see --help)", a);
        } else if (file == NULL) {
            file = a;
        } else {
            return rv_cli_fail("bench", "more than one FILE ('%s')", a);
        }
    }
    posset set = {NULL, 0, 0};
    int rc = file ? file_positions(&set, file, size) : builtin_positions(&set);
    if (rc < 0) {
        free(set.pos);
        return file ? RV_EXIT_BAD : rv_cli_fail("bench", "out of memory");
    }
    rv_cli_describe_machine();
    long stones = 0, empties = 0, forbidden = 0;
    for (int i = 0; i < set.n; i++) {
        int area = rv_gomoku_width(&set.pos[i]) * rv_gomoku_height(&set.pos[i]);
        int empty = 0;
        for (int y = 0; y < rv_gomoku_height(&set.pos[i]); y++)
            for (int x = 0; x < rv_gomoku_width(&set.pos[i]); x++)
                empty += rv_gomoku_at(&set.pos[i], x, y) == RV_EMPTY;
        stones += area - empty;
        empties += empty;
    }
    printf("positions: %d (%s), %.1f stones and %.1f empty points on average\n", set.n,
           file ? file : "built-in", (double)stones / set.n, (double)empties / set.n);
    fflush(stdout);

    /* Single-point queries (what a search asks per candidate move), briefly. */
    long queries = 0;
    double qstart = cpu_seconds(), qtime = 0;
    do {
        for (int i = 0; i < set.n; i++) {
            const rv_gomoku *g = &set.pos[i];
            for (int y = 0; y < rv_gomoku_height(g); y++)
                for (int x = 0; x < rv_gomoku_width(g); x++)
                    if (rv_gomoku_at(g, x, y) == RV_EMPTY)
                        forbidden += rv_gomoku_forbidden(g, x, y) != RV_FORBID_NONE, queries++;
        }
        qtime = cpu_seconds() - qstart;
    } while (qtime < seconds / 10);
    printf("single points: %ld queries, %.3f s, %.2f ns/query\n", queries, qtime,
           qtime * 1e9 / (double)queries);
    forbidden = 0;

    /* Whole passes over the set until the time is up. */
    static uint8_t map[RV_GOMOKU_MAX_POINTS];
    long maps = 0, points = 0;
    double wall = rv_clock_seconds(), start = cpu_seconds(), elapsed = 0;
    do {
        for (int i = 0; i < set.n; i++) forbidden += rv_gomoku_forbidden_map(&set.pos[i], map);
        maps += set.n;
        points += empties;
        elapsed = cpu_seconds() - start;
    } while (elapsed < seconds);
    wall = rv_clock_seconds() - wall;
    printf("forbidden points found: %ld per pass\n", forbidden / (maps / set.n));
    printf("wall time %.3f s, thread CPU time %.3f s (the figure below)\n", wall, elapsed);
    printf("forbidden: %ld maps, %ld empty points, %.3f s, %.2f ns/point\n", maps, points, elapsed,
           elapsed * 1e9 / (double)points);
    free(set.pos);
    return RV_EXIT_OK;
}
