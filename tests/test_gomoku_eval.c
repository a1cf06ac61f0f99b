/*
 * The Gomoku engine's fitted evaluation tables (src/gomoku/eval_weights.c):
 * point classes are the multisets of the 4 line patterns, the tables built for a
 * rule are the fitted ones, they rank hand-checked shapes as a player would (an
 * open four above a four-three above a lone three or four; Renju black's double
 * three and double four below white's), and the incremental sums equal a fresh
 * load after any play/undo.
 */
#include "gomoku/pattern.h"
#include "renversi/core.h"
#include "test.h"

static int combo(int a, int b, int c, int d) { return ((a * 10 + b) * 10 + c) * 10 + d; }

static void test_classes(void) {
    static int seen[GB_CLASSES];
    memset(seen, 0, sizeof seen);
    int bad = 0;
    for (int i = 0; i < 10000; i++) {
        int k = gb_class_of(i);
        if (k < 0 || k >= GB_CLASSES) {
            bad++;
            continue;
        }
        seen[k]++;
        /* the order of the directions does not matter */
        int a = i / 1000, b = i / 100 % 10, c = i / 10 % 10, d = i % 10;
        if (gb_class_of(combo(d, c, b, a)) != k || gb_class_of(combo(b, a, d, c)) != k ||
            gb_class_of(combo(c, d, a, b)) != k)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    int classes = 0;
    for (int k = 0; k < GB_CLASSES; k++) classes += seen[k] > 0;
    CHECK_EQ_INT(classes, 715); /* C(13, 4): every class is reached */
    CHECK_EQ_INT(gb_class_of(0), 0);
    CHECK_EQ_INT(gb_class_of(9999), 714);
    CHECK(gb_class_of(combo(PAT_FLEX3, 0, 0, 0)) != gb_class_of(combo(PAT_BLOCK4, 0, 0, 0)));
    /* 4 equal digits: one ordering; 4 distinct: 24 */
    CHECK_EQ_INT(seen[gb_class_of(combo(3, 3, 3, 3))], 1);
    CHECK_EQ_INT(seen[gb_class_of(combo(1, 2, 3, 4))], 24);
}

static int value(const gb_tables *t, int colour, int role, int a, int b, int c, int d) {
    return t->combo[colour - 1][combo(a, b, c, d)].ev[role];
}

static void test_tables(rv_gomoku_rule rule) {
    static gb_tables t;
    t.ready = 0;
    gb_tables_build(&t, rule, 7);
    const gb_eval_weights *w = &gb_eval_fitted[gb_eval_rule_index(rule)];
    int bad = 0;
    for (int i = 0; i < 10000; i++)
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 2; r++) bad += t.combo[c][i].ev[r] != w->cls[c][r][gb_class_of(i)];
    CHECK_EQ_INT(bad, 0);
    CHECK(memcmp(t.extra, w->extra, sizeof t.extra) == 0);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++) CHECK_EQ_INT(t.combo[c][GB_COMBO_NONE].ev[r], 0);

    /* shapes for the side to move (white: no forbidden points in any rule); a fitted
       linear model spreads the worth of weak shapes over correlated classes, so only the
       strong shapes' order is checked */
    for (int c = RV_BLACK; c <= RV_WHITE; c++) {
        int forb = rule == RV_RULE_RENJU && c == RV_BLACK;
        for (int r = 0; r < 2; r++) {
            int three = value(&t, c, r, PAT_FLEX3, 0, 0, 0);
            int four = value(&t, c, r, PAT_BLOCK4, 0, 0, 0);
            int four3 = value(&t, c, r, PAT_BLOCK4, PAT_FLEX3, 0, 0);
            int three3 = value(&t, c, r, PAT_FLEX3, PAT_FLEX3, 0, 0);
            int four4 = value(&t, c, r, PAT_BLOCK4, PAT_BLOCK4, 0, 0);
            int open4 = value(&t, c, r, PAT_FLEX4, 0, 0, 0);
            CHECK_MSG(four3 > three && four3 > four, "rule %d colour %d role %d: four-three %d, "
                      "three %d, four %d", (int)rule, c, r, four3, three, four);
            /* both win (an open four at once, a four-three in two moves) */
            CHECK_MSG(open4 >= four3 && open4 > four, "rule %d colour %d role %d: open four %d, "
                      "four-three %d", (int)rule, c, r, open4, four3);
            if (!forb) {
                CHECK_MSG(three3 > three && three3 > four, "rule %d colour %d role %d: double "
                          "three %d, three %d, four %d", (int)rule, c, r, three3, three, four);
                CHECK_MSG(four4 > four3, "rule %d colour %d role %d: double four %d, "
                          "four-three %d", (int)rule, c, r, four4, four3);
            }
        }
    }
    /* a four-three to play is worth more than a double three (it cannot be stopped) */
    for (int s = 0; s < 2; s++)
        CHECK_MSG(t.extra[s][GB_X_FOUR3] > t.extra[s][GB_X_THREE3], "rule %d: %d vs %d",
                  (int)rule, t.extra[s][GB_X_FOUR3], t.extra[s][GB_X_THREE3]);
    if (rule == RV_RULE_RENJU) {
        /* black's double three and double four are forbidden: worth less to black than to
           white, and less than black's four-three */
        for (int r = 0; r < 2; r++) {
            int b33 = value(&t, RV_BLACK, r, PAT_FLEX3, PAT_FLEX3, 0, 0);
            int w33 = value(&t, RV_WHITE, r, PAT_FLEX3, PAT_FLEX3, 0, 0);
            int b44 = value(&t, RV_BLACK, r, PAT_BLOCK4, PAT_BLOCK4, 0, 0);
            int w44 = value(&t, RV_WHITE, r, PAT_BLOCK4, PAT_BLOCK4, 0, 0);
            int b43 = value(&t, RV_BLACK, r, PAT_BLOCK4, PAT_FLEX3, 0, 0);
            CHECK_MSG(b33 < w33 && b33 < b43, "role %d: black 3x3 %d, white's %d, black 4x3 %d",
                      r, b33, w33, b43);
            CHECK_MSG(b44 < w44 && b44 < b43, "role %d: black 4x4 %d, white's %d, black 4x3 %d",
                      r, b44, w44, b43);
        }
    }
}

/* The sums of a board reached by play/undo equal those of the same position loaded. */
static void test_incremental(rv_gomoku_rule rule) {
    static gb_tables t;
    static gboard b, f;
    t.ready = 0;
    gb_tables_build(&t, rule, 3);
    rv_rng r;
    rv_rng_seed(&r, 42 + (uint64_t)rule);
    int bad = 0, checks = 0;
    for (int game = 0; game < 20; game++) {
        rv_gomoku g;
        rv_gomoku_init(&g, 15, 15, rule);
        gb_load(&b, &t, &g);
        for (int ply = 0; ply < 60; ply++) {
            int x = 3 + (int)rv_rng_below(&r, 9), y = 3 + (int)rv_rng_below(&r, 9);
            if (rv_gomoku_play(&g, x, y) != RV_OK) continue;
            gb_play(&b, gb_index(x, y));
            rv_gomoku_result res;
            rv_gomoku_get_result(&g, &res);
            if (ply % 7 == 3) { /* take one back now and then */
                rv_gomoku_undo(&g);
                gb_undo(&b);
            } else if (res.over)
                break;
            gb_load(&f, &t, &g);
            checks++;
            bad += memcmp(b.etot, f.etot, sizeof b.etot) != 0;
        }
        /* back to the empty board */
        while (b.nstones) gb_undo(&b);
        rv_gomoku_init(&g, 15, 15, rule);
        gb_load(&f, &t, &g);
        bad += memcmp(b.etot, f.etot, sizeof b.etot) != 0;
    }
    CHECK(checks > 500);
    CHECK_EQ_INT(bad, 0);
}

int main(void) {
    test_classes();
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU};
    for (int i = 0; i < 3; i++) {
        test_tables(rules[i]);
        test_incremental(rules[i]);
    }
    return test_finish();
}
