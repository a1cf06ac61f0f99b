/*
 * The Gomoku engine's fitted evaluation tables (src/gomoku/eval_weights.c):
 * point classes are the multisets of the 4 line patterns, the tables built for a
 * rule are the fitted ones, they rank hand-checked shapes as a player would (an
 * open four above a four-three above a lone three or four; Renju black's double
 * three and double four below white's), and the incremental sums equal a fresh
 * load after any play/undo; the fitted move scores (move_weights.c) rank
 * hand-checked shapes and positions' best moves as a player would.
 */
#include "gomoku/pattern.h"
#include "gomoku/pattern_classify.h"
#include "renversi/core.h"
#include "test.h"

static int combo(int a, int b, int c, int d) { return gb_combo(a, b, c, d); }

static void test_classes(void) {
    static int seen[GB_CLASSES];
    memset(seen, 0, sizeof seen);
    int bad = 0;
    for (int i = 0; i < GB_COMBOS; i++) {
        int k = gb_class_of(i);
        if (k < 0 || k >= GB_CLASSES) {
            bad++;
            continue;
        }
        seen[k]++;
        /* the order of the directions does not matter */
        int k4[4];
        gb_combo_kinds(i, k4);
        int a = k4[0], b = k4[1], c = k4[2], d = k4[3];
        if (combo(a, b, c, d) != i) bad++;
        if (gb_class_of(combo(d, c, b, a)) != k || gb_class_of(combo(b, a, d, c)) != k ||
            gb_class_of(combo(c, d, a, b)) != k)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    int classes = 0;
    for (int k = 0; k < GB_CLASSES; k++) classes += seen[k] > 0;
    /* C(GB_KINDS + 3, 4) multisets, every one reached (715 for 10 kinds) */
    int multisets = 0;
    for (int a = 0; a < GB_KINDS; a++)
        for (int b = a; b < GB_KINDS; b++)
            for (int c = b; c < GB_KINDS; c++)
                for (int d = c; d < GB_KINDS; d++) multisets++;
    CHECK_EQ_INT(GB_CLASSES, multisets);
    CHECK_EQ_INT(classes, multisets);
    CHECK_EQ_INT(gb_class_of(0), 0);
    CHECK_EQ_INT(gb_class_of(GB_COMBOS - 1), GB_CLASSES - 1);
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
    for (int i = 0; i < GB_COMBOS; i++)
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
            for (int t3 = PAT_FLEX3; t3 <= PAT_FLEX3_2; t3++) { /* both open threes */
            int three = value(&t, c, r, t3, 0, 0, 0);
            int four = value(&t, c, r, PAT_BLOCK4, 0, 0, 0);
            int four3 = value(&t, c, r, PAT_BLOCK4, t3, 0, 0);
            int three3 = value(&t, c, r, t3, t3, 0, 0);
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

/* The fitted move score of the point (x, y) in b. */
static int ms_at(const gboard *b, int x, int y) { return gb_move_score(b, gb_index(x, y)); }

/* The empty point of b with the highest move score among the legal ones near a stone. */
static int best_point(gboard *b) {
    int best = -1, bs = 0;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            int p = gb_index(x, y);
            if (b->cell[p] || !b->near[p] || !gb_legal(b, p)) continue;
            if (best < 0 || gb_move_score(b, p) > bs) best = p, bs = gb_move_score(b, p);
        }
    return best;
}

/* Loads the stones given as "x,y" pairs, black first, then alternating. */
static void load_moves(gboard *b, const gb_tables *t, rv_gomoku_rule rule, const int *xy, int n) {
    rv_gomoku g;
    rv_gomoku_init(&g, 15, 15, rule);
    for (int i = 0; i < n; i++) CHECK_EQ_INT(rv_gomoku_play(&g, xy[2 * i], xy[2 * i + 1]), RV_OK);
    gb_load(b, t, &g);
}

/* The fitted move scores (move_weights.c) are the built tables' and order hand-checked
   shapes and positions as a player would. */
static void test_move_scores(rv_gomoku_rule rule) {
    static gb_tables t;
    static gboard b;
    t.ready = 0;
    gb_tables_build(&t, rule, 5);
    const gb_move_weights *w = &gb_move_fitted[gb_eval_rule_index(rule)];
    int bad = 0;
    for (int i = 0; i < GB_COMBOS; i++)
        for (int c = 0; c < 2; c++)
            bad += t.ms[c][0][i] != w->own[c][gb_class_of(i)] ||
                   t.ms[c][1][i] != w->opp[c][gb_class_of(i)];
    CHECK_EQ_INT(bad, 0);
    CHECK(memcmp(t.ms_pair, w->pair, sizeof t.ms_pair) == 0);

    /* shapes at a point for the side to move, the opponent making nothing there (white:
       no forbidden points in any rule) */
    for (int us = 0; us < 2; us++) {
        int ms[5], forb = rule == RV_RULE_RENJU && us == 0;
        int own[5] = {combo(PAT_FIVE, 0, 0, 0), combo(PAT_FLEX4, 0, 0, 0),
                      combo(PAT_BLOCK4, PAT_FLEX3, 0, 0), combo(PAT_FLEX3, 0, 0, 0), 0};
        int lv[5] = {TL_FIVE, TL_FLEX4, TL_FOUR3, TL_THREE, TL_NONE};
        for (int k = 0; k < 5; k++) ms[k] = t.ms[us][0][own[k]] + t.ms[us][1][0] + t.ms_pair[us][lv[k]][0];
        CHECK_MSG(ms[0] > ms[1] && ms[1] > ms[3] && ms[3] > ms[4],
                  "rule %d side %d: five %d, open four %d, three %d, nothing %d", (int)rule, us,
                  ms[0], ms[1], ms[3], ms[4]);
        if (!forb)
            CHECK_MSG(ms[2] > ms[3], "rule %d side %d: four-three %d, three %d", (int)rule, us,
                      ms[2], ms[3]);
        /* blocking the opponent's five beats everything but a five of one's own */
        int block5 = t.ms[us][0][0] + t.ms[us][1][combo(PAT_FIVE, 0, 0, 0)] + t.ms_pair[us][0][TL_FIVE];
        CHECK_MSG(block5 < ms[0] && block5 > ms[1], "rule %d side %d: block a five %d, five %d, "
                  "open four %d", (int)rule, us, block5, ms[0], ms[1]);
    }

    /* black's open three h8 i8 j8 (white far away on a1 a2): white's best-scored move is one of
       its four exact defences f8 g8 k8 l8; the same three with black to move: the open four
       at g8 or k8 */
    int three[] = {7, 7, 0, 14, 8, 7, 0, 13, 9, 7};
    load_moves(&b, &t, rule, three, 5);
    int p = best_point(&b);
    CHECK_MSG(p == gb_index(5, 7) || p == gb_index(6, 7) || p == gb_index(10, 7) ||
                  p == gb_index(11, 7),
              "rule %d: white facing an open three plays (%d,%d)", (int)rule, gb_x(p), gb_y(p));
    int three_b[] = {7, 7, 0, 14, 8, 7, 0, 13, 9, 7, 0, 12};
    load_moves(&b, &t, rule, three_b, 6);
    p = best_point(&b);
    CHECK_MSG(p == gb_index(6, 7) || p == gb_index(10, 7), "rule %d: black with an open three "
              "plays (%d,%d)", (int)rule, gb_x(p), gb_y(p));
    /* a point that makes black's open four outscores the three's far ends and a lone
       neighbour */
    CHECK(ms_at(&b, 6, 7) > ms_at(&b, 5, 7) && ms_at(&b, 6, 7) > ms_at(&b, 8, 8));
}

/* The build-time pattern tables equal the classification computed here, for every rule,
   colour and key; a few keys checked by hand: black's centre with 4 black stones to its
   right makes a five (an overline under Renju with a fifth), with 3 an open four. */
static void test_pattern_tables(void) {
    static const rv_gomoku_rule rules[5] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU,
                                            RV_RULE_CARO, RV_RULE_STANDARD_CARO};
    static uint8_t tab[PAT_KEYS];
    static gb_tables t;
    for (int r = 0; r < 5; r++) {
        for (int c = 0; c < 2; c++) {
            gb_classify_all(tab, rules[r], c == 0);
            CHECK_MSG(memcmp(tab, gb_pat_tab[r][c], PAT_KEYS) == 0, "rule %d colour %d",
                      (int)rules[r], c + 1);
        }
        t.ready = 0;
        gb_tables_build(&t, rules[r], 1);
        CHECK(t.pat == gb_pat_tab[r]);
    }
    /* key digits: points -5..-1 are 3^0..3^4, +1..+5 are 3^5..3^9; own stone 1 */
    int four_right = 243 + 729 + 2187 + 6561, three_right = 243 + 729 + 2187;
    CHECK_EQ_INT(gb_pat_tab[0][0][four_right], PAT_FIVE);
    CHECK_EQ_INT(gb_pat_tab[0][0][three_right], PAT_FLEX4);
    CHECK_EQ_INT(gb_pat_tab[2][0][four_right + 19683], PAT_OVERLINE);
    CHECK_EQ_INT(gb_pat_tab[2][1][four_right + 19683], PAT_FIVE);
    CHECK_EQ_INT(gb_pat_tab[1][1][four_right + 19683], PAT_NONE); /* exact five: a six */
    /* the splits, black freestyle on an open line: a solid three ..XXX.. has two open-four
       points, a split three X.XX one (the gap), and so has a solid three with an opponent
       stone two points beyond one end (...XXX.O: that side's four is closed); a solid two
       has 4 points that make an open three (the two next to it and the two one further),
       X.X 3 (the gap and the two next to it), X..X 2 (the two gaps) */
    const int at[11] = {1, 3, 9, 27, 81, 0, 243, 729, 2187, 6561, 19683}; /* point -5..5 */
    CHECK_EQ_INT(gb_pat_tab[0][0][at[6] + at[7]], PAT_FLEX3_2);
    CHECK_EQ_INT(gb_pat_tab[0][0][at[4] + at[6]], PAT_FLEX3_2);
    CHECK_EQ_INT(gb_pat_tab[0][0][at[7] + at[8]], PAT_FLEX3);
    CHECK_EQ_INT(gb_pat_tab[0][0][at[6] + at[7] + 2 * at[9]], PAT_FLEX3);
    CHECK_EQ_INT(gb_pat_tab[0][0][at[6]], PAT_FLEX2_4);
    CHECK_EQ_INT(gb_pat_tab[0][0][at[7]], PAT_FLEX2_3);
    CHECK_EQ_INT(gb_pat_tab[0][0][at[8]], PAT_FLEX2);
    /* X.X with the opponent right after the far stone (X.XO): no more stone gives a
       straight four's chance, only closed threes */
    CHECK_EQ_INT(gb_pat_tab[0][0][at[7] + 2 * at[8]], PAT_BLOCK2);
    for (int k = 0; k < GB_KINDS; k++) /* the splits keep their base pattern's strength */
        CHECK(k == 0 || gb_kind_base(k) >= gb_kind_base(k - 1));
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
    test_pattern_tables();
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU};
    for (int i = 0; i < 3; i++) {
        test_tables(rules[i]);
        test_incremental(rules[i]);
        test_move_scores(rules[i]);
    }
    return test_finish();
}
