/*
 * The Gomoku engine's incremental board (src/gomoku/pattern.c): after any sequence
 * of gb_play / gb_undo, every derived field (line masks, keys and patterns, point values
 * and threat levels, counts, sums, hash, the stones' box) equals a fresh gb_load of the same
 * position. gb_undo restores from an undo log for the first GB_LOG_PLIES moves
 * after a load and recomputes after that; the games here go past that limit on a
 * 19x19 board, so both ways are checked, with takebacks in the middle.
 *
 * A second test checks the board after random play and takeback against a rebuild from
 * its stones alone, not through gb_load: the line masks from the cells, every empty
 * point's patterns looked up from its windows (and the keys the board keeps against
 * them), its combo, threat level and values from those, the sums and counts added up
 * over the board, near[] counted, the hash from the keys, the box from the stones' rows
 * and columns; and, under Renju, the
 * forbidden verdicts through the lazily kept mirror (gb_forbidden) against the game's
 * own, gb_black_may_be_forbidden true wherever a point is forbidden, and gb_legal for black
 * the verdict. Every rule, boards of 15 and 20.
 */
#include <string.h>

#include "gomoku/pattern.h"
#include "renversi/core.h"
#include "test.h"

/* Number of empty on-board points where a and b differ in any derived field. */
static int diff_points(const gboard *a, const gboard *b) {
    int bad = 0;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            int p = gb_index(x, y);
            if (a->cell[p] != b->cell[p]) {
                bad++;
                continue;
            }
            for (int c = 0; c < 2; c++) {
                for (int d = 0; d < 4; d++) {
                    bad += gb_key(a, c, d, p) != gb_key(b, c, d, p);
                    /* the keys the boards keep up to date, against their lines */
                    bad += gb_key_kept(a, c, d, p) != gb_key(a, c, d, p);
                    bad += gb_key_kept(b, c, d, p) != gb_key(b, c, d, p);
                }
                if (a->cell[p]) continue; /* patterns and values are kept at empty points */
                bad += memcmp(a->pc[c][p], b->pc[c][p], 4) != 0;
                bad += a->tl[c][p] != b->tl[c][p] || a->combo[c][p] != b->combo[c][p];
            }
            bad += a->near[p] != b->near[p];
        }
    return bad;
}

static int same_board(const gboard *a, const gboard *b) {
    return diff_points(a, b) == 0 && memcmp(a->line, b->line, sizeof a->line) == 0 &&
           a->hash == b->hash && a->stm == b->stm &&
           a->nempty == b->nempty && memcmp(a->cnt, b->cnt, sizeof a->cnt) == 0 &&
           memcmp(a->etot, b->etot, sizeof a->etot) == 0 &&
           memcmp(&a->box[a->nstones], &b->box[b->nstones], sizeof(gb_box)) == 0;
}

static void test_play_undo(rv_gomoku_rule rule) {
    static gb_tables t;
    static gboard b, f;
    t.ready = 0;
    gb_tables_build(&t, rule, 7);
    rv_rng r;
    rv_rng_seed(&r, 1000 + (uint64_t)rule);
    int bad = 0, checks = 0, deepest = 0;
    for (int game = 0; game < 6; game++) {
        rv_gomoku g;
        rv_gomoku_init(&g, 19, 19, rule);
        gb_load(&b, &t, &g);
        for (int tries = 0; tries < 2000 && b.nstones < 250; tries++) {
            int x = (int)rv_rng_below(&r, 19), y = (int)rv_rng_below(&r, 19);
            /* a move the rules refuse (occupied, forbidden) or one that ends the game is
               taken back at once: the board must still match */
            if (rv_gomoku_at(&g, x, y) != RV_EMPTY) continue;
            gb_play(&b, gb_index(x, y));
            int ok = rv_gomoku_play(&g, x, y) == RV_OK, over = 0;
            if (ok) {
                rv_gomoku_result res;
                rv_gomoku_get_result(&g, &res);
                over = res.over;
            }
            if (!ok || over || tries % 5 == 2) {
                gb_undo(&b);
                if (ok) rv_gomoku_undo(&g);
            }
            if (b.nstones > deepest) deepest = b.nstones;
            if (tries % 3 == 0) {
                gb_load(&f, &t, &g);
                checks++;
                bad += !same_board(&b, &f);
            }
        }
        /* all the way back to the empty board */
        while (b.nstones) gb_undo(&b);
        rv_gomoku_init(&g, 19, 19, rule);
        gb_load(&f, &t, &g);
        bad += !same_board(&b, &f);
    }
    CHECK_MSG(deepest > GB_LOG_PLIES, "deepest %d plies: the recomputing undo was not reached",
              deepest);
    CHECK(checks > 300);
    CHECK_EQ_INT(bad, 0);
}

/* Number of disagreements between b and a rebuild from b's cells (see the top). */
static int scratch_diff(const gboard *b) {
    const gb_tables *t = b->t;
    int bad = 0, nempty = 0, cnt[2][TL_N] = {{0}};
    int64_t etot[2][2] = {{0}};
    uint64_t hash = 0;
    int bx0 = GB_STRIDE, bx1 = -1, by0 = GB_STRIDE, by1 = -1; /* the stones' padded rectangle */
    for (int p = 0; p < GB_CELLS; p++) {
        int x = gb_x(p), y = gb_y(p);
        int on = x >= 0 && y >= 0 && x < b->w && y < b->h;
        bad += on ? b->cell[p] > 2 : b->cell[p] != 3;
        /* the line masks: exactly the point's own layer has its bit */
        int layer = b->cell[p] == 3 ? 2 : b->cell[p] - 1;
        for (int d = 0; d < 4; d++)
            for (int k = 0; k < 3; k++)
                bad += (int)((b->line[k][d][gb_line_of(p, d)] >> gb_line_pos(p, d)) & 1) !=
                       (k == layer);
        if (!on) continue;
        if (b->cell[p]) {
            int px = x + GB_PAD, py = y + GB_PAD;
            if (px < bx0) bx0 = px;
            if (px > bx1) bx1 = px;
            if (py < by0) by0 = py;
            if (py > by1) by1 = py;
            hash ^= t->zob[b->cell[p] - 1][p];
            bad += b->combo[0][p] != GB_COMBO_NONE || b->combo[1][p] != GB_COMBO_NONE;
            continue;
        }
        nempty++;
        int stones = 0;
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                int v = b->cell[p + dy * GB_STRIDE + dx];
                stones += v == 1 || v == 2;
            }
        bad += b->near[p] != stones;
        for (int c = 0; c < 2; c++) {
            int k4[4];
            for (int d = 0; d < 4; d++) {
                /* the window read cell by cell: own 1, opponent or off the board 2 */
                int key = 0, w = 1;
                for (int i = -5; i <= 5; i++) {
                    if (i == 0) continue;
                    int v = b->cell[p + i * gb_dir[d]];
                    key += w * (v == 0 ? 0 : v == c + 1 ? 1 : 2);
                    w *= 3;
                }
                k4[d] = t->pat[c][key];
                bad += gb_key_kept(b, c, d, p) != key; /* the key the board keeps */
                bad += b->pc[c][p][d] != k4[d];
            }
            int combo = gb_combo(k4[0], k4[1], k4[2], k4[3]);
            bad += b->combo[c][p] != combo;
            bad += b->tl[c][p] != t->combo[c][combo].tl;
            cnt[c][t->combo[c][combo].tl]++;
            for (int r = 0; r < 2; r++) etot[c][r] += t->combo[c][combo].ev[r];
        }
    }
    if (b->stm == RV_WHITE) hash = ~hash;
    bad += b->nempty != nempty || b->hash != hash;
    const gb_box *k = &b->box[b->nstones];
    if (bx1 < 0)
        bad += k->x1 >= k->x0 || k->y1 >= k->y0; /* no stone: an empty box */
    else
        bad += k->x0 != bx0 || k->x1 != bx1 || k->y0 != by0 || k->y1 != by1;
    for (int c = 0; c < 2; c++) {
        for (int l = 0; l < TL_N; l++) bad += b->cnt[c][l] != cnt[c][l];
        for (int r = 0; r < 2; r++) bad += b->etot[c][r] != etot[c][r];
    }
    return bad;
}

/* Random play and takeback on every rule and on boards of 15 and 20, each state checked
   against scratch_diff's rebuild; under Renju also gb_forbidden against the game. */
static void test_rebuild(void) {
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU,
                                           RV_RULE_CARO, RV_RULE_STANDARD_CARO};
    static const int sizes[] = {15, 20};
    static gb_tables t;
    static gboard b;
    for (int ri = 0; ri < 5; ri++)
        for (int si = 0; si < 2; si++) {
            rv_gomoku_rule rule = rules[ri];
            int n = sizes[si], bad = 0, checks = 0, fchecks = 0, fbad = 0, forbidden = 0;
            t.ready = 0;
            gb_tables_build(&t, rule, 11);
            rv_rng r;
            rv_rng_seed(&r, 77 + (uint64_t)(ri * 2 + si));
            for (int game = 0; game < 3; game++) {
                rv_gomoku g;
                rv_gomoku_init(&g, n, n, rule);
                gb_load(&b, &t, &g);
                for (int tries = 0; tries < 900; tries++) {
                    /* mostly near the middle, so that lines fill up and patterns change */
                    int x = n / 2 - 4 + (int)rv_rng_below(&r, 9),
                        y = n / 2 - 4 + (int)rv_rng_below(&r, 9);
                    if (tries % 4 == 3) x = (int)rv_rng_below(&r, (uint64_t)n);
                    if (rv_gomoku_at(&g, x, y) != RV_EMPTY) {
                        /* full there: take back one or two moves */
                        int back = 1 + (int)rv_rng_below(&r, 2);
                        for (int i = 0; i < back && b.nstones; i++) {
                            gb_undo(&b);
                            rv_gomoku_undo(&g);
                        }
                    } else {
                        gb_play(&b, gb_index(x, y));
                        rv_gomoku_result res;
                        int ok = rv_gomoku_play(&g, x, y) == RV_OK;
                        if (ok) rv_gomoku_get_result(&g, &res);
                        if (!ok || res.over) {
                            gb_undo(&b);
                            if (ok) rv_gomoku_undo(&g);
                        }
                    }
                    if (tries % 2 == 0) {
                        checks++;
                        bad += scratch_diff(&b) != 0;
                    }
                    if (rule == RV_RULE_RENJU && tries % 7 == 0) {
                        /* the mirror behind by any number of plays and takebacks */
                        for (int yy = 0; yy < n; yy++)
                            for (int xx = 0; xx < n; xx++) {
                                if (rv_gomoku_at(&g, xx, yy) != RV_EMPTY) continue;
                                rv_forbid_kind k = rv_gomoku_forbidden(&g, xx, yy);
                                forbidden += k != RV_FORBID_NONE;
                                fchecks++;
                                int p = gb_index(xx, yy);
                                fbad += gb_forbidden(&b, p) != k;
                                /* the quick test lets every forbidden point through, and
                                   black's legality is the verdict */
                                fbad += k != RV_FORBID_NONE && !gb_black_may_be_forbidden(&b, p);
                                if (b.stm == RV_BLACK)
                                    fbad += gb_legal(&b, p) != (k == RV_FORBID_NONE);
                            }
                    }
                }
            }
            CHECK_MSG(checks > 1000 && bad == 0, "rule %d, %dx%d: %d of %d states differ",
                      (int)rule, n, n, bad, checks);
            if (rule == RV_RULE_RENJU)
                CHECK_MSG(forbidden > 0 && fbad == 0,
                          "%dx%d: %d of %d forbidden verdicts differ (%d forbidden)", n, n, fbad,
                          fchecks, forbidden);
        }
}

int main(void) {
    test_rebuild();
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_RENJU, RV_RULE_CARO};
    for (int i = 0; i < 3; i++) test_play_undo(rules[i]);
    return test_finish();
}
