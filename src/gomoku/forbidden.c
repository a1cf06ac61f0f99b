/*
 * Renju forbidden points for black (shared/spec/renju.md, "Renju: forbidden
 * points for black"), exact and recursive.
 *
 * A point is judged from the classes of its four lines (lines.h): an exact
 * five on any line makes it legal whatever else it makes; otherwise an
 * overline, or two fours (two on one line count twice), make it forbidden.
 * Only when two or more lines hold a three candidate do we recurse: a three
 * is real when one of its straight-four points q, with the point played,
 * neither makes a five nor is itself forbidden. The recursion adds one black
 * stone per level into a private copy of the black bit lines (white stones
 * never change), so it always ends.
 */
#include "gomoku/lines.h"
#include "gomoku/line_table.h"

#include <string.h>

typedef uint64_t rv_lines[RV_GOMOKU_LINES];

/* Verdicts of eval(): the forbid kinds, plus "makes a five" and "needs the three check". */
enum { V_NONE = RV_FORBID_NONE, V_FIVE = 5, V_THREES = 7 };

/* The classes of the four lines through the empty point (x, y). */
static inline void classify(const rv_lines *black, const rv_lines *other, int height, int x,
                            int y, unsigned cls[4]) {
    for (int d = 0; d < 4; d++) {
        int li = rv_line_index(d, x, y, height), pos = rv_line_pos(d, x, y);
        unsigned wb = (unsigned)(black[d][li] >> pos) & 0x7FF;
        unsigned wo = (unsigned)(other[d][li] >> pos) & 0x7FF;
        cls[d] = rv_line_class(wb, wo);
    }
}

/* The verdict the classes give without recursion (V_THREES: two or more three lines). */
static inline int quick_verdict(const unsigned cls[4]) {
    unsigned all = cls[0] | cls[1] | cls[2] | cls[3];
    if (all & RV_LC_FIVE) return V_FIVE; /* five beats forbidden */
    if (all & RV_LC_OVERLINE) return RV_FORBID_OVERLINE;
    unsigned fours = ((cls[0] & RV_LC_FOUR_MASK) >> RV_LC_FOUR_SHIFT) +
                     ((cls[1] & RV_LC_FOUR_MASK) >> RV_LC_FOUR_SHIFT) +
                     ((cls[2] & RV_LC_FOUR_MASK) >> RV_LC_FOUR_SHIFT) +
                     ((cls[3] & RV_LC_FOUR_MASK) >> RV_LC_FOUR_SHIFT);
    if (fours >= 2) return RV_FORBID_DOUBLE_FOUR;
    int threes = ((cls[0] & RV_LC_THREE_MASK) != 0) + ((cls[1] & RV_LC_THREE_MASK) != 0) +
                 ((cls[2] & RV_LC_THREE_MASK) != 0) + ((cls[3] & RV_LC_THREE_MASK) != 0);
    return threes >= 2 ? V_THREES : V_NONE;
}

static void set_black(rv_lines *black, int height, int x, int y, int on) {
    for (int d = 0; d < 4; d++) {
        uint64_t bit = (uint64_t)1 << (rv_line_pos(d, x, y) + 5);
        uint64_t *line = &black[d][rv_line_index(d, x, y, height)];
        *line = on ? *line | bit : *line & ~bit;
    }
}

static int eval(rv_lines *black, const rv_lines *other, int height, int x, int y);

/*
 * How many of the three-candidate lines in cls hold a real three once black
 * plays (x, y)? Stops as soon as the answer (fewer than two, or two) is known.
 */
static int real_threes(rv_lines *black, const rv_lines *other, int height, int x, int y,
                       const unsigned cls[4]) {
    int remaining = 0, real = 0;
    for (int d = 0; d < 4; d++) remaining += (cls[d] & RV_LC_THREE_MASK) != 0;
    set_black(black, height, x, y, 1);
    for (int d = 0; d < 4 && real < 2 && real + remaining >= 2; d++) {
        unsigned mask = (cls[d] & RV_LC_THREE_MASK) >> RV_LC_THREE_SHIFT;
        if (mask == 0) continue;
        remaining--;
        for (int bit = 0; bit < 6; bit++) {
            if (!(mask >> bit & 1)) continue;
            int off = rv_lc_three_offset(bit);
            int qx = x + off * rv_dir_dx[d], qy = y + off * rv_dir_dy[d];
            /* The straight-four point must give no five and not be forbidden itself. */
            if (eval(black, other, height, qx, qy) == V_NONE) {
                real++;
                break;
            }
        }
    }
    set_black(black, height, x, y, 0);
    return real;
}

/* Full verdict for the empty point (x, y): V_FIVE or a forbid kind. */
static int eval(rv_lines *black, const rv_lines *other, int height, int x, int y) {
    unsigned cls[4];
    classify(black, other, height, x, y, cls);
    int v = quick_verdict(cls);
    if (v != V_THREES) return v;
    return real_threes(black, other, height, x, y, cls) >= 2 ? RV_FORBID_DOUBLE_THREE : V_NONE;
}

static int empty_on_board(const rv_gomoku *g, int x, int y) {
    return x >= 0 && y >= 0 && x < g->width && y < g->height &&
           g->cell[y * g->width + x] == RV_EMPTY;
}

rv_forbid_kind rv_gomoku_forbidden(const rv_gomoku *g, int x, int y) {
    if (!empty_on_board(g, x, y)) return RV_FORBID_NONE;
    unsigned cls[4];
    classify(g->black, g->other, g->height, x, y, cls);
    int v = quick_verdict(cls);
    if (v == V_FIVE) return RV_FORBID_NONE;
    if (v != V_THREES) return (rv_forbid_kind)v;
    rv_lines black[4];
    memcpy(black, g->black, sizeof black);
    return real_threes(black, g->other, g->height, x, y, cls) >= 2 ? RV_FORBID_DOUBLE_THREE
                                                                  : RV_FORBID_NONE;
}

int rv_gomoku_makes_five(const rv_gomoku *g, int x, int y) {
    if (!empty_on_board(g, x, y)) return 0;
    unsigned cls[4];
    classify(g->black, g->other, g->height, x, y, cls);
    return ((cls[0] | cls[1] | cls[2] | cls[3]) & RV_LC_FIVE) != 0;
}

int rv_gomoku_forbidden_map(const rv_gomoku *g, uint8_t *kinds) {
    rv_lines black[4];
    int copied = 0, n = 0;
    for (int y = 0; y < g->height; y++) {
        for (int x = 0; x < g->width; x++) {
            int i = y * g->width + x;
            kinds[i] = RV_FORBID_NONE;
            if (g->cell[i] != RV_EMPTY) continue;
            unsigned cls[4];
            classify(g->black, g->other, g->height, x, y, cls);
            int v = quick_verdict(cls);
            if (v == V_FIVE || v == V_NONE) continue;
            if (v == V_THREES) {
                if (!copied) memcpy(black, g->black, sizeof black), copied = 1;
                if (real_threes(black, g->other, g->height, x, y, cls) < 2) continue;
                v = RV_FORBID_DOUBLE_THREE;
            }
            kinds[i] = (uint8_t)v;
            n++;
        }
    }
    return n;
}
