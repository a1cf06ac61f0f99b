/*
 * The exact endgame solver against independent expectations: the published
 * FFO scores of positions #1-#19, and a slow, obviously correct negamax
 * written here on random positions with few empties.  Every code path of
 * the solver (plain C, and the SIMD ones this CPU has) is checked.
 */
#include "test.h"

#include "renversi/core.h"
#include "renversi/reversi_ai.h"
#include "renversi/reversi_record.h"
#include "reversi/ai_internal.h"
#include "othello_ref.h"
#include "reversi/endgame_stable.h"


static const int PATHS[] = {RV_REVERSI_SIMD_PLAIN, RV_REVERSI_SIMD_AVX2, RV_REVERSI_SIMD_AVX512};

static int path_available(int path) { return path <= (int)rv_reversi_simd_cpu(); }

/* The best score the file lists for a position (-65 when it lists none). */
static int obf_best(const rv_reversi_obf *o) {
    int best = -65;
    for (int i = 0; i < o->nscores; i++)
        if (o->scores[i] > best) best = o->scores[i];
    return best;
}

static void test_ffo_1_19(int path) {
    FILE *f = fopen(test_data_path("othello/fforum-1-19.obf"), "r");
    CHECK_MSG(f != NULL, "%s", test_data_path("othello/fforum-1-19.obf"));
    if (!f) return;
    rv_reversi_ai *ai = rv_reversi_ai_new(16 << 20);
    ai->simd = path;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        rv_reversi_obf obf;
        rv_reversi_error err;
        if (rv_reversi_obf_parse(line, strcspn(line, "\r\n"), 1, &obf, &err) != RV_OK) continue;
        n++;
        int best = obf_best(&obf);
        rv_reversi_solve_result r;
        CHECK(rv_reversi_solve(ai, &obf.pos, 0, &r) == RV_OK);
        CHECK_MSG(r.score == best, "path %d FFO #%d: score %d, want %d", path, n, r.score, best);
        int listed = 0, move_ok = 0;
        for (int i = 0; i < obf.nscores; i++)
            if (obf.moves[i] == r.move) listed = 1, move_ok = obf.scores[i] == best;
        CHECK_MSG(listed && move_ok, "path %d FFO #%d: move %d is not a best move", path, n,
                  r.move);
        /* Win/draw/loss agrees with the exact score. */
        rv_reversi_solve_result w;
        CHECK(rv_reversi_solve(ai, &obf.pos, 1, &w) == RV_OK);
        CHECK_EQ_INT(w.score, (best > 0) - (best < 0));
    }
    fclose(f);
    CHECK_EQ_INT(n, 19);
    rv_reversi_ai_free(ai);
}

/*
 * FFO #29 and #30 (20 empties: the exact pass's nodes of 20 empties that no
 * selective pass reached run a selective search first for a move, endgame.c
 * EG_IID_MIN), whole solves on a fresh table: score and move against the
 * file.
 */
static void test_ffo_29_30(int path) {
    FILE *f = fopen(test_data_path("othello/fforum-20-39.obf"), "r");
    CHECK_MSG(f != NULL, "%s", test_data_path("othello/fforum-20-39.obf"));
    if (!f) return;
    char line[512];
    int n = 19, done = 0;
    while (fgets(line, sizeof line, f)) {
        rv_reversi_obf obf;
        rv_reversi_error err;
        if (rv_reversi_obf_parse(line, strcspn(line, "\r\n"), 1, &obf, &err) != RV_OK) continue;
        n++;
        if (n != 29 && n != 30) continue;
        CHECK_EQ_INT(bit_count(~(obf.pos.player | obf.pos.opponent)), 20);
        rv_reversi_ai *ai = rv_reversi_ai_new(16 << 20);
        ai->simd = path;
        int best = obf_best(&obf);
        rv_reversi_solve_result r;
        CHECK(rv_reversi_solve(ai, &obf.pos, 0, &r) == RV_OK);
        CHECK_MSG(r.score == best, "path %d FFO #%d: score %d, want %d", path, n, r.score, best);
        int move_ok = 0;
        for (int i = 0; i < obf.nscores; i++)
            if (obf.moves[i] == r.move) move_ok = obf.scores[i] == best;
        CHECK_MSG(move_ok, "path %d FFO #%d: move %d is not a best move", path, n, r.move);
        rv_reversi_ai_free(ai);
        done++;
    }
    fclose(f);
    CHECK_EQ_INT(done, 2);
}

/*
 * A selective (ProbCut) pass leaves bounds in the table that may be wrong;
 * the exact solve that follows in the same table must not trust them. On
 * FFO #1-#19 a loose selective pass (level 1) runs first, then the exact
 * solve, and the exact score must be the file's. The test also requires the
 * selective pass to have been wrong somewhere (else it would prove nothing).
 */
static void test_selective_then_exact(int path) {
    FILE *f = fopen(test_data_path("othello/fforum-1-19.obf"), "r");
    CHECK(f != NULL);
    if (!f) return;
    rv_reversi_ai *ai = rv_reversi_ai_new(16 << 20);
    ai->simd = path;
    char line[512];
    int n = 0, differ = 0;
    while (fgets(line, sizeof line, f)) {
        rv_reversi_obf obf;
        rv_reversi_error err;
        if (rv_reversi_obf_parse(line, strcspn(line, "\r\n"), 1, &obf, &err) != RV_OK) continue;
        n++;
        int best = obf_best(&obf);
        int move;
        rv_ai_begin(ai, 0);
        ai->eg_sel = 1;
        int sel = rv_ai_endgame(ai, obf.pos.player, obf.pos.opponent, -64, 64, &move);
        ai->eg_sel = 0;
        differ += sel != best;
        int v = rv_ai_endgame(ai, obf.pos.player, obf.pos.opponent, -64, 64, &move);
        CHECK_MSG(v == best, "path %d FFO #%d: exact %d after selective %d, want %d", path, n, v,
                  sel, best);
    }
    fclose(f);
    CHECK_EQ_INT(n, 19);
    CHECK_MSG(differ > 0, "path %d: the selective pass agreed everywhere", path);
    rv_reversi_ai_free(ai);
}

/* Random positions with 1..10 empties (including ones where a side must
 * pass) against the reference negamax. */
static void test_random_vs_reference(int path) {
    rv_rng rng;
    rv_rng_seed(&rng, 12345 + (uint64_t)path);
    rv_reversi_ai *ai = rv_reversi_ai_new(1 << 20);
    ai->simd = path;
    int checked = 0;
    for (int game = 0; game < 60; game++) {
        int stop_at = 1 + (int)rv_rng_below(&rng, 10);
        rv_reversi_pos pos = ref_random_position(&rng, stop_at);
        int want = ref_solve(pos.player, pos.opponent, 0);
        rv_reversi_solve_result r;
        CHECK(rv_reversi_solve(ai, &pos, 0, &r) == RV_OK);
        CHECK_MSG(r.score == want, "path %d game %d: %d, want %d", path, game, r.score, want);
        /* The move reported must reach that score. */
        if (r.move >= 0 && r.move < 64) {
            uint64_t f = rv_reversi_flips_bb(pos.player, pos.opponent, r.move);
            CHECK(f != 0);
            CHECK_EQ_INT(-ref_solve(pos.opponent & ~f, pos.player | f | (1ULL << r.move), 0), want);
        } else if (r.move == RV_REVERSI_PASS) {
            CHECK(rv_reversi_moves(&pos) == 0);
            CHECK(!rv_reversi_is_over(&pos));
        } else {
            CHECK_EQ_INT(r.move, RV_REVERSI_AI_NONE);
            CHECK(rv_reversi_is_over(&pos));
        }
        checked++;
    }
    CHECK_EQ_INT(checked, 60);
    rv_reversi_ai_free(ai);
}

/*
 * Fail-soft bounds in narrow windows: on random positions of 5-8 empties
 * solved with windows around (and far from) the true score, a result at or
 * below alpha must bound the score from above, one at or above beta from
 * below, and one inside must be exact.  High windows reach the stability
 * cut-offs of the small solver (4-6 empties, alpha >= 2 * empties - 2),
 * whose returned bound must hold.
 */
static void test_windows_vs_reference(int path) {
    rv_rng rng;
    rv_rng_seed(&rng, 999 + (uint64_t)path);
    rv_reversi_ai *ai = rv_reversi_ai_new(1 << 20);
    ai->simd = path;
    int low = 0, high = 0, inside = 0;
    for (int i = 0; i < 1000; i++) {
        rv_reversi_pos pos = ref_random_position(&rng, 5 + (int)rv_rng_below(&rng, 4));
        if (rv_reversi_is_over(&pos)) continue;
        int want = ref_solve(pos.player, pos.opponent, 0);
        for (int k = 0; k < 4; k++) {
            int alpha = want - 13 + (int)rv_rng_below(&rng, 27);
            int beta = alpha + 1 + (k & 1 ? (int)rv_rng_below(&rng, 6) : 0);
            if (alpha < -64 || beta > 64) continue;
            int move;
            rv_ai_begin(ai, 0);
            int v = rv_ai_endgame(ai, pos.player, pos.opponent, alpha, beta, &move);
            if (v <= alpha) {
                CHECK_MSG(want <= v, "path %d: %d in (%d, %d) failed low at %d", path, want,
                          alpha, beta, v);
                low++;
            } else if (v >= beta) {
                CHECK_MSG(want >= v, "path %d: %d in (%d, %d) failed high at %d", path, want,
                          alpha, beta, v);
                high++;
            } else {
                CHECK_EQ_INT(v, want);
                inside++;
            }
        }
    }
    CHECK(low > 100 && high > 100 && inside > 10);
    rv_reversi_ai_free(ai);
}

/*
 * Every code path walks the same tree at 5-10 empties: the plain copy orders
 * the small solver's moves class by class, the BMI2 copies by a table (the
 * last four empties) and one flattened loop (five and six), so the same
 * order gives the same node count on the same positions (no evaluation
 * takes part below 14 empties).  A table entry out of order changes some
 * counts (and no score: the reference checks above see only scores).
 */
static void test_paths_same_tree(void) {
    uint64_t plain_nodes[200];
    int plain_score[200];
    for (size_t p = 0; p < sizeof PATHS / sizeof *PATHS; p++) {
        int path = PATHS[p];
        if (!path_available(path)) continue;
        rv_rng rng;
        rv_rng_seed(&rng, 4242);
        rv_reversi_ai *ai = rv_reversi_ai_new(1 << 20);
        ai->simd = path;
        int differ = 0;
        for (int i = 0; i < 200; i++) {
            rv_reversi_pos pos = ref_random_position(&rng, 5 + (int)rv_rng_below(&rng, 6));
            int move;
            rv_ai_begin(ai, 0);
            int v = rv_ai_endgame(ai, pos.player, pos.opponent, -64, 64, &move);
            if (path == RV_REVERSI_SIMD_PLAIN) {
                plain_nodes[i] = ai->nodes;
                plain_score[i] = v;
            } else {
                CHECK_EQ_INT(v, plain_score[i]);
                differ += ai->nodes != plain_nodes[i];
            }
        }
        CHECK_MSG(differ == 0, "path %d: %d of 200 node counts differ from plain C's", path,
                  differ);
        rv_reversi_ai_free(ai);
    }
}

/* Hand-checked small cases. */
static void test_hand_cases(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(0);
    rv_reversi_solve_result r;
    /* Game over: black 63 discs, h8 empty and nobody can move there
     * (no white disc at all): 63-0 plus the empty to the winner = +64. */
    rv_reversi_pos p = {~0ULL >> 1, 0, RV_BLACK};
    CHECK(rv_reversi_solve(ai, &p, 0, &r) == RV_OK);
    CHECK_EQ_INT(r.move, RV_REVERSI_AI_NONE);
    CHECK_EQ_INT(r.score, 64);
    /* The same position seen by white, who has no disc: -64. */
    rv_reversi_pos q = {0, ~0ULL >> 1, RV_WHITE};
    CHECK(rv_reversi_solve(ai, &q, 0, &r) == RV_OK);
    CHECK_EQ_INT(r.score, -64);
    /* Overlapping discs are rejected; outputs untouched. */
    rv_reversi_pos bad = {1, 1, RV_BLACK};
    r.score = 99;
    CHECK(rv_reversi_solve(ai, &bad, 0, &r) == RV_EINVAL);
    CHECK_EQ_INT(r.score, 99);
    CHECK(rv_reversi_solve(NULL, &p, 0, &r) == RV_EINVAL);
    CHECK(rv_reversi_solve(ai, NULL, 0, &r) == RV_EINVAL);
    rv_reversi_ai_free(ai);
}

/* Stable discs: corners and full edges (hand-checked diagrams). */
static void test_stable(void) {
    /* A lone corner disc is stable, a lone X-square disc is not. */
    CHECK_EQ_U64(rv_ai_stable(1ULL, 1ULL << 9), 1ULL);
    CHECK_EQ_U64(rv_ai_stable(1ULL << 9, 1ULL), 0);
    /* a1 b1 c1 owned, d1 empty: a run from the corner is stable. */
    CHECK_EQ_U64(rv_ai_stable(0x7ULL, 0), 0x7ULL);
    /* b1 c1 without the corner: not stable. */
    CHECK_EQ_U64(rv_ai_stable(0x6ULL, 0), 0);
    /* A full board: everything is stable. */
    CHECK_EQ_U64(rv_ai_stable(0x00000000FFFFFFFFULL, 0xFFFFFFFF00000000ULL),
                 0x00000000FFFFFFFFULL);
}

/* Is the whole line through square x in direction (df, dr) filled in f?
 * Walked square by square both ways. */
static int line_full(uint64_t f, int x, int df, int dr) {
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        int c = x % 8, r = x / 8;
        while (c >= 0 && c < 8 && r >= 0 && r < 8) {
            if (!((f >> (r * 8 + c)) & 1)) return 0;
            c += sgn * df;
            r += sgn * dr;
        }
    }
    return 1;
}

/* The doubling full-diagonal helpers of the stability bound against the
 * walk, on random fillings from sparse to nearly full (so that many lines
 * are full) and on the full and empty boards. */
static void test_full_diagonals(void) {
    rv_rng rng;
    rv_rng_seed(&rng, 777);
    int full7 = 0, full9 = 0;
    for (int i = 0; i < 20000 + 2; i++) {
        uint64_t f;
        if (i == 0) f = 0;
        else if (i == 1) f = ~0ULL;
        else {
            int holes = (int)rv_rng_below(&rng, 12);
            f = ~0ULL;
            for (int h = 0; h < holes; h++) f &= ~(1ULL << rv_rng_below(&rng, 64));
            if (i % 4 == 0) f &= rv_rng_next(&rng) | rv_rng_next(&rng);
        }
        uint64_t w7 = 0, w9 = 0;
        for (int x = 0; x < 64; x++) {
            if (line_full(f, x, -1, 1)) w7 |= 1ULL << x; /* step 7: file - 1, rank + 1 */
            if (line_full(f, x, 1, 1)) w9 |= 1ULL << x;  /* step 9: file + 1, rank + 1 */
        }
        CHECK_EQ_U64(full_diag7(f), w7);
        CHECK_EQ_U64(full_diag9(f), w9);
        full7 += w7 != 0 && w7 != ~0ULL;
        full9 += w9 != 0 && w9 != ~0ULL;
    }
    /* The fillings did exercise partly full boards. */
    CHECK(full7 > 1000 && full9 > 1000);
}

/* The stable discs by the rule itself, square by square: an own disc is
 * safe along a line when the line is full or when, on either side, the
 * board ends or the neighbour is an own disc already found stable; discs
 * safe along all four lines are added until nothing changes. */
static uint64_t ref_stable(uint64_t own, uint64_t other) {
    static const int dir[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    uint64_t f = own | other, s = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int x = 0; x < 64; x++) {
            if (!((own >> x) & 1) || ((s >> x) & 1)) continue;
            int safe = 0;
            for (int d = 0; d < 4; d++) {
                int ok = line_full(f, x, dir[d][0], dir[d][1]);
                for (int sgn = -1; sgn <= 1 && !ok; sgn += 2) {
                    int c = x % 8 + sgn * dir[d][0], r = x / 8 + sgn * dir[d][1];
                    ok = c < 0 || c > 7 || r < 0 || r > 7 || ((s >> (r * 8 + c)) & 1);
                }
                safe += ok;
            }
            if (safe == 4) {
                s |= 1ULL << x;
                changed = 1;
            }
        }
    }
    return s;
}

/* The stable discs against the rule walked square by square, on random
 * fillings from sparse to full with random owners, and in each colour. */
static void test_stable_reference(void) {
    rv_rng rng;
    rv_rng_seed(&rng, 4049);
    int edge = 0, inner = 0;
    for (int i = 0; i < 20000; i++) {
        int holes = (int)rv_rng_below(&rng, 24);
        uint64_t f = ~0ULL;
        for (int h = 0; h < holes; h++) f &= ~(1ULL << rv_rng_below(&rng, 64));
        if (i % 8 == 0) f &= rv_rng_next(&rng) | rv_rng_next(&rng);
        /* Owners in runs as well as scattered, so that long edge runs occur. */
        uint64_t own = i % 2 ? rv_rng_next(&rng) : rv_rng_next(&rng) | rv_rng_next(&rng);
        own &= f;
        uint64_t other = f & ~own;
        uint64_t want = ref_stable(own, other), want_o = ref_stable(other, own);
        CHECK_EQ_U64(rv_ai_stable(own, other), want);
        CHECK_EQ_U64(rv_ai_stable(other, own), want_o);
        edge += (want & BB_BORDER & ~BB_CORNERS) != 0;
        inner += (want & ~BB_BORDER) != 0;
    }
    /* The cases did exercise edge runs and discs inside the board. */
    CHECK(edge > 2000 && inner > 500);
}

/* A position (disjoint random boards) whose bucket is the one starting at
 * entry b of t. */
static void tt_pos_in_bucket(const tt_table *t, rv_rng *rng, uint64_t b, uint64_t *P,
                             uint64_t *O) {
    for (;;) {
        uint64_t p = rv_rng_next(rng), o = rv_rng_next(rng) & ~p;
        if (((tt_hash(p, o) & t->mask) & ~(uint64_t)(TT_WAYS - 1)) == b) {
            *P = p;
            *O = o;
            return;
        }
    }
}

/*
 * The table's replacement: a bucket keeps TT_WAYS positions; a new one
 * replaces the shallowest entry, one of an earlier search (older date)
 * before any of the current one; a position stored again at the same depth
 * keeps the intersection of its bounds.
 */
static void test_table_buckets(void) {
    tt_table t;
    CHECK(tt_init(&t, 65536) == 0);
    CHECK((t.mask + 1) % TT_WAYS == 0);
    rv_rng rng;
    rv_rng_seed(&rng, 77);
    uint64_t b = (rv_rng_next(&rng) & t.mask) & ~(uint64_t)(TT_WAYS - 1);
    uint64_t P[TT_WAYS + 3], O[TT_WAYS + 3];
    for (int k = 0; k < TT_WAYS + 3; k++) tt_pos_in_bucket(&t, &rng, b, &P[k], &O[k]);
    /* Depths 40, 44, 48, ...: all kept. */
    for (int k = 0; k < TT_WAYS; k++)
        tt_store(&t, P[k], O[k], TT_KIND_EXACT, 40 + 4 * k, -10 - k, 10 + k, k);
    for (int k = 0; k < TT_WAYS; k++) {
        const tt_entry *e = tt_probe(&t, P[k], O[k], TT_KIND_EXACT);
        CHECK_MSG(e != NULL, "entry %d of a full bucket lost", k);
        if (e) CHECK(e->lower == -10 - k && e->upper == 10 + k && e->move == k && e->depth == 40 + 4 * k);
        CHECK(tt_probe(&t, P[k], O[k], TT_KIND_MID) == NULL);
    }
    /* One more (depth 42): the shallowest (40, position 0) goes. */
    tt_store(&t, P[TT_WAYS], O[TT_WAYS], TT_KIND_EXACT, 42, 0, 0, 5);
    CHECK(tt_probe(&t, P[0], O[0], TT_KIND_EXACT) == NULL);
    for (int k = 1; k <= TT_WAYS; k++) CHECK(tt_probe(&t, P[k], O[k], TT_KIND_EXACT) != NULL);
    /* The same position, the same depth: the bounds intersect. */
    tt_store(&t, P[1], O[1], TT_KIND_EXACT, 44, -3, 20, 7);
    const tt_entry *e = tt_probe(&t, P[1], O[1], TT_KIND_EXACT);
    CHECK(e && e->lower == -3 && e->upper == 11 && e->move == 7);
    /* A new search: a shallow new entry replaces the shallowest old one
     * (the one stored at 42) and the next one another old one (44), not the
     * new entry. */
    t.date++;
    tt_store(&t, P[TT_WAYS + 1], O[TT_WAYS + 1], TT_KIND_EXACT, 8, 1, 1, 3);
    CHECK(tt_probe(&t, P[TT_WAYS + 1], O[TT_WAYS + 1], TT_KIND_EXACT) != NULL);
    CHECK(tt_probe(&t, P[TT_WAYS], O[TT_WAYS], TT_KIND_EXACT) == NULL);
    CHECK(tt_probe(&t, P[1], O[1], TT_KIND_EXACT) != NULL);
    tt_store(&t, P[TT_WAYS + 2], O[TT_WAYS + 2], TT_KIND_EXACT, 8, 2, 2, 4);
    CHECK(tt_probe(&t, P[1], O[1], TT_KIND_EXACT) == NULL);
    CHECK(tt_probe(&t, P[TT_WAYS + 1], O[TT_WAYS + 1], TT_KIND_EXACT) != NULL);
    CHECK(tt_probe(&t, P[TT_WAYS + 2], O[TT_WAYS + 2], TT_KIND_EXACT) != NULL);
    tt_free(&t);
}

int main(void) {
    test_table_buckets();
    test_hand_cases();
    test_stable();
    test_full_diagonals();
    test_stable_reference();
    test_paths_same_tree();
    for (size_t i = 0; i < sizeof PATHS / sizeof *PATHS; i++) {
        if (!path_available(PATHS[i])) continue;
        test_ffo_1_19(PATHS[i]);
        test_selective_then_exact(PATHS[i]);
        test_ffo_29_30(PATHS[i]);
        test_random_vs_reference(PATHS[i]);
        test_windows_vs_reference(PATHS[i]);
    }
    return test_finish();
}
