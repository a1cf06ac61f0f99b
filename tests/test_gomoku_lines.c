/*
 * The per-line classification behind the forbidden points (src/gomoku/lines.h):
 * hand-checked 11-cell windows from shared/spec/renju.md ("Lines and shapes"),
 * and the build-time table against the direct computation for every window.
 */
#include "test.h"

#include "gomoku/line_table.h"

/* Window text: 11 cells, centre '*' (the point played), X black, O white, # off board, . empty. */
static unsigned cls_of(const char *w) {
    unsigned b = 0, o = 0;
    for (int i = 0; i < 11; i++) {
        if (w[i] == 'X') b |= 1u << i;
        if (w[i] == 'O' || w[i] == '#') o |= 1u << i;
    }
    return rv_line_class(b, o);
}

static int fours(unsigned c) { return (int)((c & RV_LC_FOUR_MASK) >> RV_LC_FOUR_SHIFT); }

/* The straight-four points as offsets, e.g. "-1 +3" (empty when none). */
static const char *threes(unsigned c, char *buf) {
    unsigned m = (c & RV_LC_THREE_MASK) >> RV_LC_THREE_SHIFT;
    buf[0] = '\0';
    for (int bit = 0; bit < 6; bit++)
        if (m >> bit & 1)
            sprintf(buf + strlen(buf), "%s%+d", buf[0] ? " " : "", rv_lc_three_offset(bit));
    return buf;
}

static void check(const char *w, unsigned flags, int nfours, const char *three) {
    char buf[64];
    unsigned c = cls_of(w);
    CHECK_MSG((c & (RV_LC_FIVE | RV_LC_OVERLINE)) == flags && fours(c) == nfours &&
                  strcmp(threes(c, buf), three) == 0,
              "%s: class %#x (five/over %u, fours %d, threes '%s'), want %u, %d, '%s'", w, c, c & 3,
              fours(c), threes(c, buf), flags, nfours, three);
}

int main(void) {
    /*   offsets: -5 .. -1 * +1 .. +5 (the centre is always index 5) */
    check("...XX*XX...", RV_LC_FIVE, 0, "");
    check("..XXX*XX...", RV_LC_OVERLINE, 0, "");
    check("XXXXX*.....", RV_LC_OVERLINE, 0, ""); /* a run reaching the window edge */
    check("#XXXX*O....", RV_LC_FIVE, 0, "");     /* a five needs no open end */
    check("..XXX*.....", 0, 1, "");              /* .XXX*. a straight four: one four */
    check("...XX*X....", 0, 1, "");              /* .XX*X. likewise */
    check("..OXX*X....", 0, 1, "");              /* capped on one side: one four */
    check(".XXX.*.XXX.", 0, 2, "");              /* XXX.*.XXX: two fours on one line */
    check("..XX.*X.XX.", 0, 2, "");              /* XX.*X.XX */
    check("..X.X*X.X..", 0, 2, "");              /* X.X*X.X */
    check("...O.*XX.X.", 0, 1, "");              /* *XX.X: one four (the gap) */
    check(".X.XX*....X", 0, 1, "");              /* X.XX*: one completion */
    check("..XXX*.X...", 0, 1, "");              /* .XXX*.X: the right side makes six */
    check("...X.*X.X..", 0, 0, "");              /* X.*X.X: both fours would be sixes */
    check("...XX*.....", 0, 0, "-3 +1");         /* an open three: two straight-four points */
    check("..O.X*X....", 0, 0, "+2");            /* O.X*X.: only to the right */
    check("...X.*X....", 0, 0, "-1");            /* split three X.*X: the gap */
    check("..X.X*.....", 0, 0, "-2");            /* X.X*: the gap */
    check("..OXX*.....", 0, 0, "");              /* closed three: no straight four */
    check("#..XX*.....", 0, 0, "-3 +1");         /* the edge 5 away does not block */
    check("##.XX*.....", 0, 0, "+1");            /* the edge 4 away does */
    check("X..XX*.O...", 0, 0, "");              /* corner#8: X..XX*.O is no three */
    check(".X.XX*.....", 0, 1, "");              /* X.XX*: a four through the gap */
    check("OOOOO*OOOOO", 0, 0, "");
    check("...........", 0, 0, "");

    /* every table entry equals the direct computation */
    unsigned long bad = 0, total = 0;
    for (unsigned b = 0; b < 2048; b++)
        for (unsigned o = 0; o < 2048; o++) {
            if ((b | o) & 0x20 || (b & o)) continue;
            total++;
            if (rv_line_class(b, o) != rv_line_class_direct(b, o)) bad++;
        }
    CHECK_EQ_INT(total, 59049);
    CHECK_EQ_INT(bad, 0);
    return test_finish();
}
