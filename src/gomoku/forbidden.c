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
static inline void classify(const rv_lines *black, const rv_lines *other, int height, int x, int y,
                            unsigned cls[4]) {
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
    /* the map's fast reject (see rv_gomoku_forbidden_map), for one point */
    const int h = g->height;
    if (rv_line_near[(g->black[RV_DIR_ROW][y] >> x) & 0x7FF] +
            rv_line_near[(g->black[RV_DIR_COL][x] >> y) & 0x7FF] +
            rv_line_near[(g->black[RV_DIR_DIAG][x - y + h - 1] >> x) & 0x7FF] +
            rv_line_near[(g->black[RV_DIR_ANTI][x + y] >> x) & 0x7FF] <
        2)
        return RV_FORBID_NONE;
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

/*
 * Four rows at a time: GCC/Clang vector extensions, which become SSE2 on any
 * x86-64 (AVX2 when the compiler may use it), NEON on ARM, and plain scalar
 * code elsewhere. Only macros and locals touch the vector type, so no vector
 * crosses a function call (no ABI questions).
 */
typedef uint64_t rv_v4 __attribute__((vector_size(32)));

/*
 * Bit-sliced counter of the inputs a (one bit per point): s1, s2 the low
 * bits of the count, s4 set once it reaches 4. Then "at least 2" is s2 | s4.
 */
#define COUNT_IN(s1, s2, s4, a)                                                                    \
    do {                                                                                           \
        rv_v4 in_ = (a), carry_ = (s1)&in_;                                                        \
        (s1) ^= in_;                                                                               \
        (s4) |= (s2)&carry_;                                                                       \
        (s2) ^= carry_;                                                                            \
    } while (0)

/*
 * The whole board. Most empty points are settled by a fast reject: a
 * forbidden point needs two lines each with at least 2 black stones within 4
 * points (two threes or fours), or one line with at least 4 (an overline, or
 * two fours on one line: their two fives share at most 3 stones besides the
 * point). The reject runs on whole rows at once, four rows per step: per
 * direction a bit-sliced count of the black stones at steps 1..4 either way,
 * read from the rows around (column: the rows above and below; diagonals:
 * those rows shifted). Only the points it keeps get their four line classes
 * and the verdict.
 */
int rv_gomoku_forbidden_map(const rv_gomoku *g, uint8_t *kinds) {
    rv_lines black[4];
    int copied = 0, n = 0;
    const int w = g->width, h = g->height;
    /* the black rows, with 4 empty rows before and 4 + 3 after (the last group of four) */
    uint64_t rows[RV_GOMOKU_MAX_SIZE + 11];
    memset(kinds, 0, (size_t)(w * h));
    memset(rows, 0, sizeof rows);
    memcpy(rows + 4, g->black[RV_DIR_ROW], (size_t)h * sizeof rows[0]);
    for (int y0 = 0; y0 < h; y0 += 4) {
        const uint64_t *r = rows + 4 + y0;
        rv_v4 zero = {0, 0, 0, 0}, mid, up, down;
        rv_v4 a1 = zero, a2 = zero, a4 = zero, b1 = zero, b2 = zero, b4 = zero;
        rv_v4 c1 = zero, c2 = zero, c4 = zero, d1 = zero, d2 = zero, d4 = zero;
        memcpy(&mid, r, sizeof mid);
        for (int k = 1; k <= 4; k++) {
            memcpy(&up, r - k, sizeof up);
            memcpy(&down, r + k, sizeof down);
            COUNT_IN(a1, a2, a4, mid >> k); /* row */
            COUNT_IN(a1, a2, a4, mid << k);
            COUNT_IN(b1, b2, b4, down); /* column */
            COUNT_IN(b1, b2, b4, up);
            COUNT_IN(c1, c2, c4, down >> k); /* diagonal: (x + k, y + k) */
            COUNT_IN(c1, c2, c4, up << k);
            COUNT_IN(d1, d2, d4, up >> k); /* anti-diagonal: (x + k, y - k) */
            COUNT_IN(d1, d2, d4, down << k);
        }
        rv_v4 a = a2 | a4, b = b2 | b4, c = c2 | c4, d = d2 | d4;
        rv_v4 keep4 = ((a | b) & (c | d)) | (a & b) | (c & d) | a4 | b4 | c4 | d4;
        uint64_t keeps[4];
        memcpy(keeps, &keep4, sizeof keeps);
        for (int i = 0; i < 4 && y0 + i < h; i++) {
            const int y = y0 + i;
            uint64_t keep = keeps[i] & ~(g->black[RV_DIR_ROW][y] | g->other[RV_DIR_ROW][y]);
            while (keep) {
                const int x = __builtin_ctzll(keep) - 5;
                keep &= keep - 1;
                const int diag = x - y + h - 1, anti = x + y;
                unsigned cls[4];
                cls[0] = rv_line_class((unsigned)(g->black[RV_DIR_ROW][y] >> x) & 0x7FF,
                                       (unsigned)(g->other[RV_DIR_ROW][y] >> x) & 0x7FF);
                cls[1] = rv_line_class((unsigned)(g->black[RV_DIR_COL][x] >> y) & 0x7FF,
                                       (unsigned)(g->other[RV_DIR_COL][x] >> y) & 0x7FF);
                cls[2] = rv_line_class((unsigned)(g->black[RV_DIR_DIAG][diag] >> x) & 0x7FF,
                                       (unsigned)(g->other[RV_DIR_DIAG][diag] >> x) & 0x7FF);
                cls[3] = rv_line_class((unsigned)(g->black[RV_DIR_ANTI][anti] >> x) & 0x7FF,
                                       (unsigned)(g->other[RV_DIR_ANTI][anti] >> x) & 0x7FF);
                int v = quick_verdict(cls);
                if (v == V_FIVE || v == V_NONE) continue;
                if (v == V_THREES) {
                    if (!copied) memcpy(black, g->black, sizeof black), copied = 1;
                    if (real_threes(black, g->other, h, x, y, cls) < 2) continue;
                    v = RV_FORBID_DOUBLE_THREE;
                }
                kinds[y * w + x] = (uint8_t)v;
                n++;
            }
        }
    }
    return n;
}
