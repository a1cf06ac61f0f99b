/*
 * The search's exact defences (gsearch_defences in src/gomoku/search.c): facing an open
 * three, a double four to come or a four-three, the side to move may only play the
 * points that take the threat away (or its own fours). Each position below is a
 * hand-checked diagram; the expected sets follow from the Gomoku definitions (an open
 * three is a three that one more stone turns into an open four), not from the engine.
 *
 * Diagrams: row 8 of 15x15 (y = 7), columns a..o = x 0..14; X the attacker, O the
 * defender (to move), '.' empty; far-away stones keep the stone counts and the side to
 * move right and touch none of the lines involved.
 */
#include "gomoku/pattern.h"
#include "gomoku/search.h"
#include "renversi/core.h"
#include "test.h"

static gb_tables tables;
static gboard board;
static int fives_seen; /* five points made by random_positions' stones */

/* Sets up a position: black's and white's stones as "x,y;x,y;..."; black to move when the
   counts are equal, white when black has one more. load() puts it on the test's board. */
static void position(rv_gomoku *g, rv_gomoku_rule rule, const char *black, const char *white) {
    rv_gomoku_init(g, 15, 15, rule);
    const char *lists[2] = {black, white};
    int cnt[2] = {0, 0}, lx = -1, ly = -1;
    for (int c = 0; c < 2; c++)
        for (const char *s = lists[c]; s && *s;) {
            int x, y, n;
            CHECK(sscanf(s, "%d,%d%n", &x, &y, &n) == 2);
            CHECK(rv_gomoku_set_stone(g, x, y, c == 0 ? RV_BLACK : RV_WHITE) == RV_OK);
            cnt[c]++;
            if (c == 0) lx = x, ly = y;
            s += n;
            if (*s == ';') s++;
        }
    /* set stones leave black to move; one black stone more: play the last one instead */
    if (cnt[0] > cnt[1]) {
        CHECK(rv_gomoku_set_stone(g, lx, ly, RV_EMPTY) == RV_OK);
        CHECK(rv_gomoku_play(g, lx, ly) == RV_OK);
    }
}

static void load(rv_gomoku_rule rule, const char *black, const char *white) {
    rv_gomoku g;
    position(&g, rule, black, white);
    tables.ready = 0;
    gb_tables_build(&tables, rule, 11);
    gb_load(&board, &tables, &g);
}

/* The defences as a sorted list of x values on row y = 7 (-1 for a point off the row). */
static int defences_on_row(int *xs) {
    int pts[64], n = gsearch_defences(&board, pts, 64);
    for (int i = 0; i < n; i++) xs[i] = gb_y(pts[i]) == 7 ? gb_x(pts[i]) : -1;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
            int t = xs[j];
            xs[j] = xs[j - 1], xs[j - 1] = t;
        }
    return n;
}

static void expect_row(const char *what, const int *want, int nwant) {
    int xs[64], n = defences_on_row(xs);
    int same = n == nwant;
    for (int i = 0; same && i < n; i++) same = xs[i] == want[i];
    CHECK_MSG(same, "%s: got %d defences", what, n);
    if (!same)
        for (int i = 0; i < n; i++) fprintf(stderr, "  x=%d\n", xs[i]);
}

/* The search's shortcuts (src/gomoku/search.h) against the board's own answers on random
   positions: gsearch_makes_four is gb_makes_four, gsearch_four_count counts those points,
   no point outside gsearch_box_of has a near stone, a threat level or a line of a three
   or more, gsearch_collect is gb_collect, gsearch_fours lists the gb_makes_four points in
   board order (and at most max of them), and gsearch_defences is the set of every empty
   point after which no threat point of the opponent's keeps its threat (all points tried,
   gb_tl_if_blocked). */
static int in_box(const gsearch_box *r, int p) {
    return gb_x(p) >= r->x0 && gb_x(p) <= r->x1 && gb_y(p) >= r->y0 && gb_y(p) <= r->y1;
}

static void check_position(const char *what, int game, int ply) {
    const gboard *b = &board;
    gsearch_box r;
    gsearch_box_of(b, &r);
    int bad = 0;
    for (int c = 1; c <= 2; c++) {
        int fours = 0, fp[RV_GOMOKU_MAX_POINTS];
        for (int y = 0; y < b->h; y++)
            for (int x = 0; x < b->w; x++) {
                int p = gb_index(x, y), big = 0;
                if (b->cell[p]) continue;
                int f = gb_makes_four(b, c, p);
                if (f) fp[fours] = p;
                fours += f;
                if (gsearch_makes_four(b, c, p) != f) bad |= 1;
                for (int d = 0; d < 4; d++) big |= gb_pat(b, c, p, d) >= PAT_BLOCK3;
                if ((big || b->near[p] || b->tl[c - 1][p] != TL_NONE) && !in_box(&r, p)) bad |= 2;
            }
        for (int lvl = TL_THREE; lvl < TL_N; lvl++)
            for (int max = 1; max <= 8; max += 7) {
                int a[8], e[8], na = gsearch_collect(b, c, lvl, a, max),
                                ne = gb_collect(b, c, lvl, e, max);
                if (na != ne) bad |= 16;
                for (int i = 0; i < na && na == ne; i++)
                    if (a[i] != e[i]) bad |= 16;
            }
        for (int max = 1; max <= RV_GOMOKU_MAX_POINTS; max += RV_GOMOKU_MAX_POINTS - 1) {
            int a[RV_GOMOKU_MAX_POINTS], na = gsearch_fours(b, &r, c, a, max);
            if (na != (fours < max ? fours : max)) bad |= 32;
            for (int i = 0; i < na && i < fours; i++)
                if (a[i] != fp[i]) bad |= 32;
        }
        int k = gsearch_four_count(b, c);
        if (k >= 0 && k != fours) bad |= 4;
        if (k < 0 && !(b->renju && c == RV_BLACK)) bad |= 4;
    }
    /* the defences, by trying every point */
    int them = 2 - b->stm, q[RV_GOMOKU_MAX_POINTS], nq = 0, want[RV_GOMOKU_MAX_POINTS], nw = 0;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            int p = gb_index(x, y), t = b->tl[them][p];
            if (!b->cell[p] && (t == TL_FLEX4 || t == TL_FOUR3)) q[nq++] = p;
        }
    for (int y = 0; y < b->h && nq && nq <= 24; y++)
        for (int x = 0; x < b->w; x++) {
            int p = gb_index(x, y), ok = !b->cell[p];
            for (int i = 0; i < nq && ok; i++)
                if (q[i] != p && gb_tl_if_blocked(b, them + 1, q[i], p) >= TL_FOUR3) ok = 0;
            if (ok) want[nw++] = p;
        }
    int got[64], n = gsearch_defences(b, got, 64);
    if (!nq || nq > 24) {
        if (n != -1) bad |= 8;
    } else if (n != nw)
        bad |= 8;
    else
        for (int i = 0; i < n; i++) {
            int found = 0;
            for (int j = 0; j < nw; j++) found |= want[j] == got[i];
            if (!found) bad |= 8;
        }
    CHECK_MSG(!bad, "%s game %d ply %d: shortcut check failed (bits %d)", what, game, ply, bad);
}

static void random_positions(rv_gomoku_rule rule, int size, const char *what) {
    rv_rng rng;
    rv_rng_seed(&rng, 20261127 + (uint64_t)rule * 100 + (uint64_t)size);
    for (int game = 0; game < 30; game++) {
        rv_gomoku g;
        rv_gomoku_init(&g, size, size, rule);
        tables.ready = 0;
        gb_tables_build(&tables, rule, 11);
        gb_load(&board, &tables, &g);
        check_position(what, game, 0);
        int plies = 20 + (int)rv_rng_below(&rng, 60);
        for (int ply = 1; ply <= plies && board.nempty; ply++) {
            /* mostly next to the stones, now and then anywhere (the box's edges) */
            int p, tries = 0;
            do {
                int x = (int)rv_rng_below(&rng, (uint64_t)size),
                    y = (int)rv_rng_below(&rng, (uint64_t)size);
                p = gb_index(x, y);
            } while (
                (board.cell[p] || (board.nstones && !board.near[p] && rv_rng_below(&rng, 8))) &&
                ++tries < 1000);
            if (board.cell[p]) break;
            int c = board.stm, had_five = board.cnt[c - 1][TL_FIVE] > 0;
            gb_play(&board, p);
            check_position(what, game, ply);
            if (!had_five) {
                /* the five points the stone made, from its lines alone: gb_collect's */
                int a[4], e[4], na = gb_collect_fives_through(&board, c, p, a, 4),
                                ne = gb_collect(&board, c, TL_FIVE, e, 4);
                int same = na == ne;
                for (int i = 0; same && i < na; i++) same = a[i] == e[i];
                CHECK_MSG(same, "%s game %d ply %d: fives through the stone %d, all %d", what, game,
                          ply, na, ne);
                fives_seen += ne;
            }
        }
    }
}

/* The exact defences skip the lines of a threat point that make no open three or more
   there: that holds only if an opponent stone put anywhere in a line's window never
   makes the point's pattern on that line stronger than a closed three. Every key of every
   rule's and colour's pattern table (gb_pat_tab), every empty point of its window. */
static void blocks_never_strengthen(void) {
    int bad = 0, checked = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 2; c++)
            for (int key = 0; key < PAT_KEYS; key++) {
                if (gb_pat_tab[r][c][key] > PAT_BLOCK3) continue;
                for (int i = 0, w = 1; i < 10; i++, w *= 3) {
                    if (key / w % 3 != 0) continue;
                    checked++;
                    if (gb_pat_tab[r][c][key + 2 * w] > PAT_BLOCK3) bad++;
                }
            }
    CHECK_MSG(checked > 100000 && bad == 0, "a block made a line stronger: %d of %d", bad, checked);
}

/* The search's leaves (qsearch in src/gomoku/search.c): a leaf's side to move tries its
   best four, whose block is forced, before it takes the static value. Freestyle, black to
   move (hand-checked): rows 8 and 10, h i j black closed by white g8 and g10; black k9; no
   open four to make. Black k10 is a four (h10..k10, white must take l10) and then k8 is a
   four (h8..k8, white must take l8) and an open three k8 k9 k10 (k6, k7, k11 and k12 empty),
   after which k7 or k11 is an open four: a win in 7 plies whose black moves are all fours
   (k8 first wins the same way, with k10 second). A search of depth 1 reaches the leaf after
   k10 and l10 (a four's block costs no depth) or after k8 and l8, where black has a four
   and a three but no open four to make: the static value there is no win, the leaf's four
   and its block are. The search is called directly (no VCF or VCT solver before it). */
static void leaf_fours(void) {
    rv_gomoku_ai *ai = rv_gomoku_ai_new(1 << 16);
    CHECK(ai != NULL);
    if (!ai) return;
    rv_gomoku g;
    position(&g, RV_RULE_FREESTYLE, "7,7;8,7;9,7;10,8;7,9;8,9;9,9",
             "6,7;6,9;8,10;8,6;0,0;14,0;0,14");
    rv_gomoku_ai_clear(ai);
    gb_tables_build(&ai->tables, RV_RULE_FREESTYLE, 11);
    gb_load(&ai->board, &ai->tables, &g);
    ai->nodes = 0, ai->aborted = 0, ai->budget_s = 0, ai->budget_nodes = 0, ai->think_no = 0;
    int move = -1, score = 0, done = 0, order[64], norder = 0;
    CHECK(gsearch_root(ai, 1, &move, &score, &done, order, &norder) == 1);
    CHECK_EQ_INT(done, 1);
    CHECK_MSG(score >= RV_GOMOKU_AI_WIN_MIN && (move == gb_index(10, 9) || move == gb_index(10, 7)),
              "depth 1: move (%d,%d), score %d; a win with k10 or k8 expected", gb_x(move),
              gb_y(move), score);
    rv_gomoku_ai_free(ai);
}

/* gsearch_trap_four (src/gomoku/search.h) on ai's board for the position; white to move. */
static int trap_four(rv_gomoku_ai *ai, const char *black, const char *white) {
    rv_gomoku g;
    position(&g, RV_RULE_RENJU, black, white);
    gb_tables_build(&ai->tables, RV_RULE_RENJU, 11);
    gb_load(&ai->board, &ai->tables, &g);
    CHECK_EQ_INT(ai->board.stm, RV_WHITE);
    return gsearch_trap_four(ai);
}

/* Renju: a white four whose only five point is forbidden to black wins. Coordinates x,y
   from 0; white to move in each (black has one stone more, its last listed).
   1. Black b8 c8 d8 e8 g8 (x 1-4 and 6 on row 7) closed by white a8: f8 (5,7) would make six,
      an overline, forbidden to black for good. White f9 f10 f11, closed by black f12: white
      f7 (5,6) makes the four f7-f11 whose only five point is f8. A trap.
   2. The same with black's row b8 c8 d8 g8 (no e8): f8 is no longer forbidden (f8 makes
      b8-d8 + f8 g8, no six; a closed four at most). No trap.
   3. Double three: black f8 g8 (row 7) and h9 h10 (column 7) make h8 (7,7) a double three;
      white i9 j10 k11 on the diagonal, closed by black g7 and m13: white l12 (11,11) makes
      the four i9-l12 whose only five point is h8 (white h8 makes a four blocked at l12:
      no win). A trap.
   4. The same with black e8 (4,7) too: h8 makes the four e8-h8 and the three h8-h10, a
      four-three, which is allowed. No trap. */
static void renju_trap_four(void) {
    rv_gomoku_ai *ai = rv_gomoku_ai_new(1 << 16);
    CHECK(ai != NULL);
    if (!ai) return;
    rv_gomoku g;
    position(&g, RV_RULE_RENJU, "1,7;2,7;3,7;4,7;6,7;14,14;5,11", "0,7;5,8;5,9;5,10;0,0;0,14");
    CHECK(rv_gomoku_forbidden(&g, 5, 7) == RV_FORBID_OVERLINE);
    CHECK_EQ_INT(trap_four(ai, "1,7;2,7;3,7;4,7;6,7;14,14;5,11", "0,7;5,8;5,9;5,10;0,0;0,14"), 1);
    CHECK_EQ_INT(trap_four(ai, "1,7;2,7;3,7;6,7;14,14;5,11", "0,7;5,8;5,9;5,10;0,0"), 0);
    position(&g, RV_RULE_RENJU, "5,7;6,7;7,8;7,9;6,6;12,12", "8,8;9,9;10,10;0,0;14,0");
    CHECK(rv_gomoku_forbidden(&g, 7, 7) == RV_FORBID_DOUBLE_THREE);
    CHECK_EQ_INT(trap_four(ai, "5,7;6,7;7,8;7,9;6,6;12,12", "8,8;9,9;10,10;0,0;14,0"), 1);
    CHECK_EQ_INT(trap_four(ai, "5,7;6,7;7,8;7,9;6,6;4,7;12,12", "8,8;9,9;10,10;0,0;14,0;0,14"), 0);
    rv_gomoku_ai_free(ai);
}

/* Does white hold five in a row (or more: white's overlines win under Renju) through
   (x, y) of g? Counted stone by stone. */
static int white_row_through(const rv_gomoku *g, int x, int y) {
    static const int dx[4] = {1, 0, 1, 1}, dy[4] = {0, 1, 1, -1};
    for (int d = 0; d < 4; d++) {
        int n = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int k = 1; rv_gomoku_at(g, x + s * k * dx[d], y + s * k * dy[d]) == RV_WHITE; k++)
                n++;
        if (n >= 5) return 1;
    }
    return 0;
}

/* gsearch_trap_four against the rules module on random Renju positions, white to move and
   no five point on either side: a trap is a point where white's stone leaves five points
   (made white's stone by stone and counted) of which black may legally take none
   (rv_gomoku_forbidden), or two or more. Some traps must come up. */
static void trap_four_random(void) {
    rv_gomoku_ai *ai = rv_gomoku_ai_new(1 << 16);
    CHECK(ai != NULL);
    if (!ai) return;
    rv_rng rng;
    rv_rng_seed(&rng, 20261129);
    int positions = 0, traps = 0, bad = 0;
    for (int game = 0; game < 300; game++) {
        rv_gomoku g;
        rv_gomoku_init(&g, 15, 15, RV_RULE_RENJU);
        for (int ply = 0; ply < 120; ply++) {
            rv_gomoku_result res;
            rv_gomoku_get_result(&g, &res);
            if (res.over) break;
            gb_tables_build(&ai->tables, RV_RULE_RENJU, 11);
            gb_load(&ai->board, &ai->tables, &g);
            gboard *b = &ai->board;
            if (b->stm == RV_WHITE && !b->cnt[0][TL_FIVE] && !b->cnt[1][TL_FIVE]) {
                int want = 0, wins = 0; /* a trap; a trap or an open four or double four */
                for (int y = 0; y < 15 && !want; y++)
                    for (int x = 0; x < 15 && !want; x++) {
                        rv_gomoku h = g;
                        if (rv_gomoku_play(&h, x, y) != RV_OK) continue;
                        rv_gomoku_get_result(&h, &res);
                        if (res.over) continue; /* (no five point: cannot happen) */
                        /* white had no five point: a new one lies on a line through
                           (x, y), within 4 points */
                        static const int ddx[4] = {1, 0, 1, 1}, ddy[4] = {0, 1, 1, -1};
                        int fives = 0, blockable = 0;
                        for (int d = 0; d < 4; d++)
                            for (int k = -4; k <= 4; k++) {
                                int qx = x + k * ddx[d], qy = y + k * ddy[d];
                                if (k == 0 || qx < 0 || qy < 0 || qx >= 15 || qy >= 15 ||
                                    rv_gomoku_at(&h, qx, qy) != RV_EMPTY)
                                    continue;
                                rv_gomoku t = h;
                                if (rv_gomoku_set_stone(&t, qx, qy, RV_WHITE) != RV_OK ||
                                    !white_row_through(&t, qx, qy))
                                    continue;
                                fives++;
                                blockable += rv_gomoku_forbidden(&h, qx, qy) == RV_FORBID_NONE;
                            }
                        want = fives == 1 && !blockable;
                        wins |= want || fives >= 2;
                    }
                /* every trap found, and nothing reported that is not a win (an open four
                   found on the way is one) */
                int got = gsearch_trap_four(ai);
                positions++;
                traps += want;
                if ((want && !got) || (got && !wins))
                    if (bad++ < 5)
                        fprintf(stderr, "game %d ply %d: trap %d, the rules say %d (a win %d)\n",
                                game, ply, got, want, wins);
            }
            /* a random legal move near the stones */
            int x, y, tries = 0;
            do {
                x = 3 + (int)rv_rng_below(&rng, 9), y = 3 + (int)rv_rng_below(&rng, 9);
            } while ((rv_gomoku_at(&g, x, y) != RV_EMPTY ||
                      (rv_gomoku_to_move(&g) == RV_BLACK &&
                       rv_gomoku_forbidden(&g, x, y) != RV_FORBID_NONE)) &&
                     ++tries < 1000);
            if (tries >= 1000 || rv_gomoku_play(&g, x, y) != RV_OK) break;
        }
    }
    CHECK_MSG(!bad && traps >= 40, "trap fours: %d wrong in %d positions (%d traps)", bad,
              positions, traps);
    fprintf(stderr, "trap fours: %d positions, %d traps\n", positions, traps);
    rv_gomoku_ai_free(ai);
}

int main(void) {
    leaf_fours();
    trap_four_random();
    renju_trap_four();
    /* . . . X X X . . .   (g8 h8 i8, white; black to move): an open three with room on
       both sides. White wins with f8 or j8 (open four); black stops both only by taking
       f8 or j8 itself. e8 / k8 fail: white j8 / f8 still makes an open four. */
    load(RV_RULE_FREESTYLE, "0,0;14,0;0,14", "6,7;7,7;8,7");
    {
        int want[] = {5, 9};
        expect_row("open three, room both sides", want, 2);
    }
    /* O . X X X . .   (e8 black, g8 h8 i8 white): only j8 makes an open four (f8 makes a
       four closed by e8). Defences: j8 itself, f8 (then j8 makes a four closed by f8), k8
       (then j8 makes . X X X X O, completed only at f8). Three points. */
    load(RV_RULE_FREESTYLE, "4,7;0,0;14,0", "6,7;7,7;8,7");
    {
        int want[] = {5, 9, 10};
        expect_row("three closed at distance 2", want, 3);
    }
    /* . . X . X X . .   (g8 i8 j8 white): the split three. Only h8 makes an open four
       (f8 and k8 make fours with one completion). Defences: h8, f8, k8. */
    load(RV_RULE_FREESTYLE, "0,0;14,0;0,14", "6,7;8,7;9,7");
    {
        int want[] = {5, 7, 10};
        expect_row("split three", want, 3);
    }
    /* A three already closed on one side is no threat: O X X X . . (e8 black, f8 g8 h8
       white) and nothing else: -1, the search plays normally. */
    load(RV_RULE_FREESTYLE, "4,7;0,0;14,0", "5,7;6,7;7,7");
    CHECK_EQ_INT(gsearch_defences(&board, (int[64]){0}, 64), -1);

    /* A four-three point. Row 8: O X X X . (e8 black, f8 g8 h8 white); column i: white
       i11 i10 (x 8, y 4 and 5). White i8 (8,7) would make the four f8..i8 (closed by e8,
       completion j8) and the split three i11 i10 . i8 on the column (open: i12, i9 and
       i7 empty): a four-three. Black's defences: i8 itself; j8 (the row can no longer
       become a four); i9 (the column's gap); i12 and i7 (the column's ends: with one end
       blocked the split three is no open three). e.g. j9 fails (the row still makes a
       four-three at i8), i13 and i6 fail (i9 would still give an open four). */
    load(RV_RULE_FREESTYLE, "4,7;0,0;14,0;0,14;14,14", "5,7;6,7;7,7;8,4;8,5");
    {
        int pts[64], n = gsearch_defences(&board, pts, 64), got = 0, extra = 0;
        static const int want[][2] = {{8, 7}, {9, 7}, {8, 6}, {8, 3}, {8, 8}};
        for (int i = 0; i < n; i++) {
            int found = 0;
            for (int k = 0; k < 5; k++)
                if (gb_x(pts[i]) == want[k][0] && gb_y(pts[i]) == want[k][1]) found = 1;
            got += found, extra += !found;
            if (!found)
                fprintf(stderr, "  four-three: unexpected %d,%d\n", gb_x(pts[i]), gb_y(pts[i]));
        }
        CHECK_MSG(got == 5 && extra == 0, "four-three: %d of 5 defences, %d others", got, extra);
    }

    /* Two separate open threes of white (row 8 and row 12): nothing defends both. */
    load(RV_RULE_FREESTYLE, "0,0;14,0;0,14;14,14;1,0;2,0", "6,7;7,7;8,7;6,11;7,11;8,11");
    CHECK_EQ_INT(gsearch_defences(&board, (int[64]){0}, 64), 0);

    /* Renju: the same open three of black (g8 h8 i8), white to move: white's defences are
       f8 and j8 as in freestyle (the attacker's open four is legal for black here). */
    load(RV_RULE_RENJU, "6,7;7,7;8,7;0,0", "14,0;0,14;14,14");
    {
        int want[] = {5, 9};
        expect_row("Renju, black's open three", want, 2);
    }
    /* Renju: a black three whose open-four point is an overline for black is no threat:
       X X X . X X . with black at c8 d8 e8 and g8 h8 (x 2,3,4,6,7): f8 makes six (an
       overline, no win, forbidden); that line has no open-four point, so there is no
       threat to answer (-1). In freestyle f8 makes a five for black instead: that is a
       five point, which the search handles before asking for defences. */
    load(RV_RULE_RENJU, "2,7;3,7;4,7;6,7;7,7;0,0", "14,0;0,14;14,14;14,7;0,7");
    CHECK_EQ_INT(gsearch_defences(&board, (int[64]){0}, 64), -1);

    blocks_never_strengthen();
    random_positions(RV_RULE_FREESTYLE, 15, "freestyle 15x15");
    random_positions(RV_RULE_RENJU, 15, "Renju 15x15");
    random_positions(RV_RULE_STANDARD, 20, "exact five 20x20");
    random_positions(RV_RULE_FREESTYLE, 20, "freestyle 20x20");
    random_positions(RV_RULE_CARO, 15, "Caro 15x15");
    CHECK_MSG(fives_seen > 100, "only %d five points made in the random games", fives_seen);
    return test_finish();
}
