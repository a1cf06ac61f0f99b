/*
 * Renju forbidden points: every expectation of the tests/data/renju files (public
 * test positions, hand-made corner cases, the extra mid-game positions) for
 * the library's point query and whole-board map, and the same expectations
 * for the reference checker of renju_ref.h (so the reference is checked too).
 */
#include "renju_ref.h"
#include "test.h"

#include "renversi/gomoku.h"
#include "renversi/gomoku_record.h"

static int cases;

/* Places a list of points ("-" for none) as stones of colour c. */
static int place(rv_gomoku *g, ref_board *rb, const char *list, rv_color c) {
    while (*list == ' ') list++;
    if (strcmp(list, "-") == 0) return 1;
    rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    int n;
    if (rv_gomoku_moves_parse(list, strlen(list), 15, pts, RV_GOMOKU_MAX_POINTS, &n, NULL) != RV_OK)
        return 0;
    for (int i = 0; i < n; i++) {
        if (rv_gomoku_set_stone(g, pts[i].x, pts[i].y, c) != RV_OK) return 0;
        rb->c[pts[i].y][pts[i].x] = c == RV_BLACK ? REF_BLACK : REF_WHITE;
    }
    return 1;
}

/* Splits s at '|' into at most 4 trimmed fields. */
static int split(char *s, char **f) {
    int n = 0;
    f[n++] = s;
    for (char *p = s; *p; p++)
        if (*p == '|' && n < 4) *p = '\0', f[n++] = p + 1;
    for (int i = 0; i < n; i++) {
        while (*f[i] == ' ') f[i]++;
        char *e = f[i] + strlen(f[i]);
        while (e > f[i] && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r')) *--e = '\0';
    }
    return n;
}

static void run_case(char *line) {
    char *f[4];
    if (split(line, f) != 4) {
        CHECK_MSG(0, "bad test line: %s", line);
        return;
    }
    const char *id = f[0];
    rv_gomoku g;
    rv_gomoku_init(&g, 15, 15, RV_RULE_RENJU);
    ref_board rb;
    memset(&rb, 0, sizeof rb);
    rb.w = rb.h = 15;
    CHECK_MSG(place(&g, &rb, f[1], RV_BLACK) && place(&g, &rb, f[2], RV_WHITE), "%s: stones", id);

    /* expected kinds: -1 = not asserted */
    int want[15 * 15];
    const char *exp = f[3];
    int all = strncmp(exp, "ALL", 3) == 0;
    CHECK_MSG(all || strncmp(exp, "AT", 2) == 0, "%s: expectation %s", id, exp);
    for (int i = 0; i < 225; i++) want[i] = all ? RV_FORBID_NONE : -1;
    exp += all ? 3 : 2;
    while (*exp) {
        while (*exp == ' ') exp++;
        if (*exp == '\0' || strcmp(exp, "-") == 0) break;
        const char *colon = strchr(exp, ':');
        int x, y;
        if (!colon || rv_gomoku_point_parse(exp, (size_t)(colon - exp), 15, &x, &y) != RV_OK) {
            CHECK_MSG(0, "%s: bad expectation at '%s'", id, exp);
            return;
        }
        want[y * 15 + x] = colon[1] == '-' ? RV_FORBID_NONE : colon[1] - '0';
        exp = colon + 2;
    }

    uint8_t map[RV_GOMOKU_MAX_POINTS];
    int count = rv_gomoku_forbidden_map(&g, map), nwant = 0;
    for (int i = 0; i < 225; i++) {
        if (want[i] < 0) continue;
        int x = i % 15, y = i / 15;
        char p[8];
        rv_gomoku_point_format(x, y, 15, p, sizeof p);
        nwant += want[i] != RV_FORBID_NONE;
        CHECK_MSG(map[i] == want[i], "%s: map %s is %d, want %d", id, p, map[i], want[i]);
        CHECK_MSG((int)rv_gomoku_forbidden(&g, x, y) == want[i], "%s: point %s is %d, want %d", id,
                  p, (int)rv_gomoku_forbidden(&g, x, y), want[i]);
        CHECK_MSG(ref_forbidden(&rb, x, y) == want[i], "%s: reference %s is %d, want %d", id, p,
                  ref_forbidden(&rb, x, y), want[i]);
    }
    if (all) CHECK_MSG(count == nwant, "%s: map count %d, want %d", id, count, nwant);
    cases++;
}

static void run_file(const char *name, int expected_cases) {
    FILE *f = fopen(test_data_path(name), "r");
    CHECK_MSG(f != NULL, "cannot open %s", test_data_path(name));
    if (!f) return;
    char line[8192];
    int before = cases;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        run_case(line);
    }
    fclose(f);
    CHECK_MSG(cases - before == expected_cases, "%s: %d cases, want %d", name, cases - before,
              expected_cases);
}

int main(void) {
    run_file("renju/forbidden-cases-public.txt", 38);
    run_file("renju/forbidden-cases-corner.txt", 9);
    run_file("renju/forbidden-cases-extra.txt", 8);
    printf("%d positions\n", cases);
    return test_finish();
}
