/*
 * The Gomoku engine's incremental board (src/gomoku/pattern.c): after any sequence
 * of gb_play / gb_undo, every derived field (line masks, keys and patterns, point values
 * and threat levels, counts, sums, hash) equals a fresh gb_load of the same
 * position. gb_undo restores from an undo log for the first GB_LOG_PLIES moves
 * after a load and recomputes after that; the games here go past that limit on a
 * 19x19 board, so both ways are checked, with takebacks in the middle.
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
                for (int d = 0; d < 4; d++) bad += gb_key(a, c, d, p) != gb_key(b, c, d, p);
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
           memcmp(a->etot, b->etot, sizeof a->etot) == 0;
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

int main(void) {
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_RENJU, RV_RULE_CARO};
    for (int i = 0; i < 3; i++) test_play_undo(rules[i]);
    return test_finish();
}
