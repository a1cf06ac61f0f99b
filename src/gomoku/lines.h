/*
 * Internal: the bit-line view of a Gomoku board and the classification of one
 * line through a point (not public API).
 *
 * Every point lies on 4 lines (row, column, diagonal, anti-diagonal). A line
 * is two uint64_t: black stones, and "other" (white stones and points off the
 * board). Bit (pos + 5) stands for position pos along the line, so 5 guard
 * bits on each side read as off-board, and the 11-cell window centred on a
 * point is simply (line >> pos) & 0x7FF with the point itself at bit 5.
 *
 * A window of 5 cells on each side is exactly enough to judge everything the
 * point makes on that line (shared/spec/renju.md): a run through the centre
 * that reaches the window's edge is already 6 long (an overline), a five made
 * by a completion lies within +-4 and its "exactly five" check within +-5, and
 * a straight four made from a three spans +-3 with its end checks at +-5.
 */
#ifndef RV_GOMOKU_LINES_H
#define RV_GOMOKU_LINES_H

#include "renversi/gomoku.h"

enum { RV_DIR_ROW, RV_DIR_COL, RV_DIR_DIAG, RV_DIR_ANTI };

/* Step (dx, dy) of each direction; y grows downwards. */
static const int rv_dir_dx[4] = {1, 0, 1, 1};
static const int rv_dir_dy[4] = {0, 1, 1, -1};

/* Puts colour c (RV_EMPTY: nothing) on the on-board point (x, y) without judging the
   result or recording a move: the forbidden-point code reads only the stones (a search's
   mirror of its board, which never holds a five). */
void rv_line_put(rv_gomoku *g, int x, int y, rv_color c);

/* The line through (x, y) in direction d on a board of the given height. */
static inline int rv_line_index(int d, int x, int y, int height) {
    switch (d) {
    case RV_DIR_ROW: return y;
    case RV_DIR_COL: return x;
    case RV_DIR_DIAG: return x - y + height - 1;
    default: return x + y;
    }
}

/* The position of (x, y) along its line in direction d (the shift of its window). */
static inline int rv_line_pos(int d, int x, int y) { return d == RV_DIR_COL ? y : x; }

/*
 * Class of one line through a point, assuming black plays the point:
 *   bit 0      the run through the point is exactly 5 (a five)
 *   bit 1      the run through the point is 6 or more (an overline)
 *   bits 2-3   number of fours the move makes on this line (0..2); a straight
 *              four counts once, two fours with separate completions twice
 *   bits 4-9   only when there is no five, overline or four: the points q at
 *              offsets -3,-2,-1,+1,+2,+3 where a second black stone would make
 *              a straight four through the point (the three's candidate
 *              straight-four points, still to be checked: no five, not forbidden)
 */
#define RV_LC_FIVE 0x1u
#define RV_LC_OVERLINE 0x2u
#define RV_LC_FOUR_SHIFT 2
#define RV_LC_FOUR_MASK 0xCu
#define RV_LC_THREE_SHIFT 4
#define RV_LC_THREE_MASK 0x3F0u

/* The offset (-3..3, not 0) of three-candidate bit i (0..5). */
static inline int rv_lc_three_offset(int i) { return i < 3 ? i - 3 : i - 2; }

/*
 * Computes the class from an 11-cell window: wb has the black stones, wo the
 * white stones and off-board points (bit 5, the point itself, is ignored and
 * taken as black). The generator of the lookup table and the tests use this
 * direct form; the library reads the table.
 */
static inline unsigned rv_line_class_direct(unsigned wb, unsigned wo) {
    int c[11]; /* 0 empty, 1 black, 2 white or off the board */
    for (int i = 0; i < 11; i++) c[i] = (wb >> i) & 1 ? 1 : (wo >> i) & 1 ? 2 : 0;
    c[5] = 1;

    /* The run through the centre. One that touches the window edge is >= 6. */
    int l = 5, r = 5;
    while (l > 0 && c[l - 1] == 1) l--;
    while (r < 10 && c[r + 1] == 1) r++;
    int len = r - l + 1;
    if (l == 0 || r == 10 || len >= 6) return RV_LC_OVERLINE;
    if (len == 5) return RV_LC_FIVE;

    /* Fours: empty points that complete an exact five containing the centre. */
    int comp[11], ncomp = 0;
    for (int i = 1; i <= 9; i++) {
        if (c[i] != 0) continue;
        c[i] = 1;
        int a = i, b = i;
        while (a > 0 && c[a - 1] == 1) a--;
        while (b < 10 && c[b + 1] == 1) b++;
        c[i] = 0;
        if (a <= 5 && b >= 5 && a > 0 && b < 10 && b - a + 1 == 5) comp[ncomp++] = i;
    }
    int fours = ncomp;
    /* Two completions five apart with four stones between: one straight four. */
    for (int i = 0; i + 1 < ncomp; i++)
        if (comp[i + 1] - comp[i] == 5) fours--;
    if (fours > 2) fours = 2;
    if (fours > 0) return (unsigned)fours << RV_LC_FOUR_SHIFT;

    /* Threes: a second stone at q making a straight four through the centre. */
    unsigned three = 0;
    for (int bit = 0; bit < 6; bit++) {
        int q = 5 + rv_lc_three_offset(bit);
        if (c[q] != 0) continue;
        c[q] = 1;
        int a = 5, b = 5;
        while (a > 0 && c[a - 1] == 1) a--;
        while (b < 10 && c[b + 1] == 1) b++;
        /* .XXXX. whose two completions both give exactly five (4 long: 2 <= a, b <= 8) */
        if (b - a + 1 == 4 && a <= q && q <= b && c[a - 1] == 0 && c[b + 1] == 0 && c[a - 2] != 1 &&
            c[b + 2] != 1)
            three |= 1u << bit;
        c[q] = 0;
    }
    return three << RV_LC_THREE_SHIFT;
}

#endif
