/*
 * A slow, obviously-correct Renju forbidden-point checker for the tests,
 * written straight from the definitions of shared/spec/renju.md and sharing
 * no code with the library: a plain 2-D array, whole lines scanned cell by
 * cell, stones placed and removed, and the recursion spelled out.
 */
#ifndef RV_TEST_RENJU_REF_H
#define RV_TEST_RENJU_REF_H

enum { REF_EMPTY = 0, REF_BLACK = 1, REF_WHITE = 2 };
enum { REF_NONE = 0, REF_THREE3 = 3, REF_FOUR4 = 4, REF_OVER6 = 6 };

typedef struct ref_board {
    int w, h;
    int c[26][26]; /* c[y][x], y from the top */
} ref_board;

static const int ref_dx[4] = {1, 0, 1, 1};
static const int ref_dy[4] = {0, 1, 1, -1};

static int ref_on(const ref_board *b, int x, int y) {
    return x >= 0 && y >= 0 && x < b->w && y < b->h;
}

static int ref_black(const ref_board *b, int x, int y) {
    return ref_on(b, x, y) && b->c[y][x] == REF_BLACK;
}

/* The black row through the black stone (x, y) along d: its first and last step from (x, y). */
static void ref_row(const ref_board *b, int x, int y, int d, int *lo, int *hi) {
    int a = 0, z = 0;
    while (ref_black(b, x + (a - 1) * ref_dx[d], y + (a - 1) * ref_dy[d])) a--;
    while (ref_black(b, x + (z + 1) * ref_dx[d], y + (z + 1) * ref_dy[d])) z++;
    *lo = a;
    *hi = z;
}

static int ref_row_len(const ref_board *b, int x, int y, int d) {
    int lo, hi;
    ref_row(b, x, y, d, &lo, &hi);
    return hi - lo + 1;
}

/* Black (already on (x, y)) has an exact five through (x, y) on some line. */
static int ref_has_five(const ref_board *b, int x, int y) {
    for (int d = 0; d < 4; d++)
        if (ref_row_len(b, x, y, d) == 5) return 1;
    return 0;
}

/*
 * The completions of the black stone (x, y) along d: steps t such that black
 * on the empty point x + t*dx makes a row of exactly five that contains
 * (x, y). Every point of the whole line is tried.
 */
static int ref_completions(ref_board *b, int x, int y, int d, int *ts) {
    int n = 0;
    for (int t = -30; t <= 30; t++) {
        int qx = x + t * ref_dx[d], qy = y + t * ref_dy[d];
        if (t == 0 || !ref_on(b, qx, qy) || b->c[qy][qx] != REF_EMPTY) continue;
        b->c[qy][qx] = REF_BLACK;
        int lo, hi;
        ref_row(b, qx, qy, d, &lo, &hi);
        /* (x, y) lies at step -t from q */
        if (hi - lo + 1 == 5 && lo <= -t && -t <= hi) ts[n++] = t;
        b->c[qy][qx] = REF_EMPTY;
    }
    return n;
}

/* The number of fours through (x, y) along d: completions, a straight four counting once. */
static int ref_fours(ref_board *b, int x, int y, int d) {
    int ts[64];
    int n = ref_completions(b, x, y, d, ts), fours = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (ts[j] - ts[i] == 5) {
                /* the four stones between two completions five apart: one straight four */
                int all = 1;
                for (int k = ts[i] + 1; k < ts[j]; k++)
                    all &= ref_black(b, x + k * ref_dx[d], y + k * ref_dy[d]);
                if (all) fours--;
            }
    return fours;
}

/* Does (x, y) hold a straight four along d: two completions five apart? */
static int ref_straight_four(ref_board *b, int x, int y, int d) {
    int ts[64];
    int n = ref_completions(b, x, y, d, ts);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (ts[j] - ts[i] == 5) return 1;
    return 0;
}

static int ref_forbidden(ref_board *b, int x, int y);

/*
 * Is there a real three through the black stone (x, y) along d? Some empty
 * point q of the line where a black stone makes a straight four through
 * (x, y), makes no five, and is not itself forbidden.
 */
static int ref_three(ref_board *b, int x, int y, int d) {
    for (int t = -30; t <= 30; t++) {
        int qx = x + t * ref_dx[d], qy = y + t * ref_dy[d];
        if (t == 0 || !ref_on(b, qx, qy) || b->c[qy][qx] != REF_EMPTY) continue;
        b->c[qy][qx] = REF_BLACK;
        int straight = ref_straight_four(b, x, y, d);
        int five = straight && ref_has_five(b, qx, qy);
        b->c[qy][qx] = REF_EMPTY;
        if (straight && !five && ref_forbidden(b, qx, qy) == REF_NONE) return 1;
    }
    return 0;
}

/* The forbidden kind of the empty point (x, y) for black (REF_NONE when legal). */
static int ref_forbidden(ref_board *b, int x, int y) {
    if (!ref_on(b, x, y) || b->c[y][x] != REF_EMPTY) return REF_NONE;
    b->c[y][x] = REF_BLACK;
    int verdict = REF_NONE;
    int over = 0, fours = 0, threes = 0;
    if (ref_has_five(b, x, y)) goto done; /* an exact five is never forbidden */
    for (int d = 0; d < 4; d++)
        if (ref_row_len(b, x, y, d) >= 6) over = 1;
    if (over) {
        verdict = REF_OVER6;
        goto done;
    }
    for (int d = 0; d < 4; d++) fours += ref_fours(b, x, y, d);
    if (fours >= 2) {
        verdict = REF_FOUR4;
        goto done;
    }
    /* at most one three per line, and none on a line where the move makes a four */
    for (int d = 0; d < 4; d++)
        if (ref_fours(b, x, y, d) == 0 && ref_three(b, x, y, d)) threes++;
    if (threes >= 2) verdict = REF_THREE3;
done:
    b->c[y][x] = REF_EMPTY;
    return verdict;
}

#endif
