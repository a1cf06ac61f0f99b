/*
 * The pattern evaluation (src/reversi/pattern.c): board symmetries, the
 * instances generated from the pattern masks, the features of a hand-checked
 * position, agreement between the trainer's view (features) and the engine's
 * (eval), exact symmetry of the fitted weights, and sanity of their signs.
 */
#include "test.h"

#include "renversi/core.h"
#include "renversi/reversi_ai.h"
#include "reversi/ai_internal.h"
#include "reversi/pattern.h"
#include "othello_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t naive_transform(uint64_t b, int k) {
    if (k & 1) b = ref_flip_rows(b);
    if (k & 2) b = ref_flip_cols(b);
    if (k & 4) b = ref_transpose(b);
    return b;
}

static void test_transforms(void) {
    rv_rng rng;
    rv_rng_seed(&rng, 5);
    for (int i = 0; i < 200; i++) {
        uint64_t b = rv_rng_next(&rng);
        for (int k = 0; k < 8; k++) CHECK_EQ_U64(rv_pat_transform(b, k), naive_transform(b, k));
    }
    /* The eight are the eight different symmetries of the square. */
    uint64_t a1b1c2 = (1ULL << 0) | (1ULL << 1) | (1ULL << 10);
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < k; j++)
            CHECK(rv_pat_transform(a1b1c2, k) != rv_pat_transform(a1b1c2, j));
}

static void test_instances(void) {
    /* Expected number of distinct images of each pattern (pattern.h order). */
    static const int images[RV_PAT_TYPES] = {4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4};
    int count[RV_PAT_TYPES] = {0};
    uint64_t squares[RV_PAT_INSTANCES];
    for (int i = 0; i < RV_PAT_INSTANCES; i++) {
        int t = rv_pat_inst_type[i], k = rv_pat_inst_sym[i];
        CHECK(t < RV_PAT_TYPES && k < 8);
        count[t]++;
        squares[i] = 0;
        for (int sq = 0; sq < 64; sq++)
            if (rv_pat_transform(1ULL << sq, k) & rv_pat_mask[t]) squares[i] |= 1ULL << sq;
        CHECK_EQ_INT(rv_bb_count(squares[i]), rv_bb_count(rv_pat_mask[t]));
        for (int j = 0; j < i; j++)
            if (rv_pat_inst_type[j] == t) CHECK(squares[j] != squares[i]);
    }
    for (int t = 0; t < RV_PAT_TYPES; t++) CHECK_EQ_INT(count[t], images[t]);
    /* The four edges with their X-squares are all there. */
    uint64_t edges = 0;
    for (int i = 0; i < RV_PAT_INSTANCES; i++)
        if (rv_pat_inst_type[i] == 0) edges |= squares[i];
    CHECK_EQ_U64(edges, BB_BORDER | BB_X_SQUARES);
}

/* The start position, black to move: P = {e4, d5}, O = {d4, e5}. */
static void test_features_start(void) {
    rv_reversi_pos p;
    rv_reversi_init(&p);
    uint32_t f[RV_PAT_FEATURES];
    rv_pat_features(p.player, p.opponent, f);
    /* The fourth line a4..h4 unmoved (symmetry 0): d4 = O is digit 3, e4 = P
     * digit 4: 2 * 27 + 1 * 81. */
    int found = 0;
    for (int i = 0; i < RV_PAT_INSTANCES; i++) {
        if (rv_pat_inst_type[i] == 5 && rv_pat_inst_sym[i] == 0) {
            CHECK_EQ_INT((int)f[i], (int)rv_pat_offset[5] + 135);
            found = 1;
        }
        /* Every edge, corner and second line is empty: index 0. */
        if (rv_pat_inst_type[i] <= 3) CHECK_EQ_INT((int)f[i], (int)rv_pat_offset[rv_pat_inst_type[i]]);
    }
    CHECK(found);
    CHECK_EQ_INT((int)f[RV_PAT_INSTANCES], (int)rv_pat_offset[RV_PAT_TYPES] + 4);     /* 4 moves */
    CHECK_EQ_INT((int)f[RV_PAT_INSTANCES + 1], (int)rv_pat_offset[RV_PAT_TYPES + 1] + 4);
    CHECK_EQ_INT((int)f[RV_PAT_INSTANCES + 2], (int)rv_pat_offset[RV_PAT_TYPES + 2] + 4); /* 60 - 56 */
}

static int eval_from_features(uint64_t P, uint64_t O) {
    uint32_t f[RV_PAT_FEATURES];
    rv_pat_features(P, O, f);
    uint32_t base = (uint32_t)rv_pat_stage(rv_bb_count(~(P | O))) * rv_pat_offset[RV_PAT_GROUPS];
    int s = 0;
    for (int i = 0; i < RV_PAT_FEATURES; i++) s += rv_pat_weight(rv_pat_weight_bytes, base + f[i]);
    return s;
}

static void test_eval_consistent_and_symmetric(void) {
    rv_rng rng;
    rv_rng_seed(&rng, 77);
    int bmi2 = rv_reversi_simd_best() != RV_REVERSI_SIMD_PLAIN;
    int nonzero = 0;
    for (int i = 0; i < 2000; i++) {
        rv_reversi_pos p = ref_random_position(&rng, 2 + (int)rv_rng_below(&rng, 58));
        uint64_t P = p.player, O = p.opponent;
        int v = rv_pat_eval(rv_pat_weight_bytes, P, O);
        nonzero += v != 0;
        CHECK_EQ_INT(eval_from_features(P, O), v);
        if (bmi2) CHECK_EQ_INT(rv_pat_eval_bmi2(rv_pat_weight_bytes, P, O), v);
        for (int k = 1; k < 8; k++)
            CHECK_EQ_INT(rv_pat_eval(rv_pat_weight_bytes, rv_pat_transform(P, k), rv_pat_transform(O, k)), v);
    }
    /* The weights are fitted, not empty. */
    CHECK(nonzero > 1900);
}

/*
 * The incremental feature indices: along random games (passes included), the
 * state updated move by move equals the state computed from scratch, and its
 * evaluation equals rv_pat_eval().
 */
static void test_incremental_state(void) {
    rv_rng rng;
    rv_rng_seed(&rng, 4242);
    int bmi2 = rv_reversi_simd_best() != RV_REVERSI_SIMD_PLAIN;
    int moves_checked = 0, passes = 0;
    for (int g = 0; g < 200; g++) {
        rv_reversi_pos p;
        rv_reversi_init(&p);
        rv_pat_state st, fresh;
        rv_pat_state_init(&st, p.player, p.opponent);
        while (!rv_reversi_is_over(&p)) {
            uint64_t moves = rv_reversi_moves(&p);
            rv_pat_state next;
            if (!moves) {
                rv_pat_state_pass(&st, &next);
                CHECK_EQ_INT(rv_reversi_play(&p, RV_REVERSI_PASS), RV_OK);
                passes++;
            } else {
                int k = (int)rv_rng_below(&rng, (uint64_t)rv_bb_count(moves));
                while (k--) moves &= moves - 1;
                int sq = rv_bb_first(moves);
                uint64_t f = rv_reversi_flips_bb(p.player, p.opponent, sq);
                rv_pat_state_move(&st, &next, sq, f);
                CHECK_EQ_INT(rv_reversi_play(&p, sq), RV_OK);
                moves_checked++;
            }
            st = next;
            rv_pat_state_init(&fresh, p.player, p.opponent);
            CHECK(memcmp(&st, &fresh, sizeof st) == 0);
            if (bmi2) {
                rv_pat_state fast;
                rv_pat_state_init_bmi2(&fast, p.player, p.opponent);
                CHECK(memcmp(&st, &fast, sizeof st) == 0);
            }
            int v = rv_pat_eval(rv_pat_weight_bytes, p.player, p.opponent);
            CHECK_EQ_INT(rv_pat_eval_state(rv_pat_weight_bytes, &st, p.player, p.opponent, -1, -1), v);
            if (bmi2)
                CHECK_EQ_INT(rv_pat_eval_state_bmi2(rv_pat_weight_bytes, &st, p.player, p.opponent, -1, -1), v);
        }
    }
    CHECK(moves_checked > 10000);
    CHECK(passes > 0);
}

/* The evaluation of (P, O) with the weights w summed here from the trainer's
 * features, each weight read from its two bytes. */
static int sum_of_features(const unsigned char *w, uint64_t P, uint64_t O) {
    uint32_t f[RV_PAT_FEATURES];
    rv_pat_features(P, O, f);
    uint32_t base = (uint32_t)rv_pat_stage(rv_bb_count(~(P | O))) * rv_pat_offset[RV_PAT_GROUPS];
    int s = 0;
    for (int i = 0; i < RV_PAT_FEATURES; i++) {
        const unsigned char *b = w + 2 * (size_t)(base + f[i]);
        int v = b[0] | b[1] << 8;
        s += v >= 32768 ? v - 65536 : v;
    }
    return s;
}

/* Every path of the evaluation of (P, O), with the state st, against the sum
 * of the trainer's features; returns that sum. */
static int check_all_paths(const unsigned char *w, const rv_pat_state *st, uint64_t P, uint64_t O,
                           int fast) {
    int want = sum_of_features(w, P, O);
    CHECK_EQ_INT(rv_pat_eval(w, P, O), want);
    /* the state's evaluation counting the sides' moves itself or told their numbers */
    int mob = rv_bb_count(rv_reversi_moves_bb(P, O)), omob = rv_bb_count(rv_reversi_moves_bb(O, P));
    CHECK_EQ_INT(rv_pat_eval_state(w, st, P, O, -1, -1), want);
    CHECK_EQ_INT(rv_pat_eval_state(w, st, P, O, mob, -1), want);
    CHECK_EQ_INT(rv_pat_eval_state(w, st, P, O, -1, omob), want);
    CHECK_EQ_INT(rv_pat_eval_state(w, st, P, O, mob, omob), want);
    if (fast) {
        CHECK_EQ_INT(rv_pat_eval_bmi2(w, P, O), want);
        CHECK_EQ_INT(rv_pat_eval_state_bmi2(w, st, P, O, -1, -1), want);
        CHECK_EQ_INT(rv_pat_eval_state_bmi2(w, st, P, O, mob, -1), want);
        CHECK_EQ_INT(rv_pat_eval_state_bmi2(w, st, P, O, -1, omob), want);
        CHECK_EQ_INT(rv_pat_eval_state_bmi2(w, st, P, O, mob, omob), want);
    }
    return want;
}

/*
 * The fast paths (the search's weight reads by vector gathers, the state
 * updated by whole vectors) and the plain ones give the same evaluation,
 * with random weights over the whole int16 range (so a weight's sign and
 * its neighbours' bytes matter), along random games and on boards whose
 * every instance reads its last weight (all discs the other side's).
 */
static void test_fast_paths_agree(void) {
    size_t bytes = (size_t)rv_pat_offset[RV_PAT_GROUPS] * RV_PAT_STAGES * 2;
    unsigned char *w = malloc(bytes);
    CHECK(w != NULL);
    if (!w) return;
    rv_rng rng;
    rv_rng_seed(&rng, 1313);
    for (size_t i = 0; i < bytes / 2; i++) {
        uint64_t r = rv_rng_next(&rng);
        unsigned v = (unsigned)(r & 0xFFFF);
        if ((r >> 16) % 8 == 0) v = (r >> 20) & 1 ? 0x7FFF : 0x8000; /* the extremes */
        w[2 * i] = (unsigned char)(v & 0xFF);
        w[2 * i + 1] = (unsigned char)(v >> 8);
    }
    int fast = rv_reversi_simd_best() != RV_REVERSI_SIMD_PLAIN;
    int positions = 0, negative = 0, big = 0;
    for (int g = 0; g < 60; g++) {
        rv_reversi_pos p;
        rv_reversi_init(&p);
        rv_pat_state st;
        rv_pat_state_init(&st, p.player, p.opponent);
        while (!rv_reversi_is_over(&p)) {
            int v = check_all_paths(w, &st, p.player, p.opponent, fast);
            positions++;
            negative += v < 0;
            big += v > 100000 || v < -100000;
            uint64_t moves = rv_reversi_moves(&p);
            rv_pat_state next;
            if (!moves) {
                rv_pat_state_pass(&st, &next);
                CHECK_EQ_INT(rv_reversi_play(&p, RV_REVERSI_PASS), RV_OK);
            } else {
                int k = (int)rv_rng_below(&rng, (uint64_t)rv_bb_count(moves));
                while (k--) moves &= moves - 1;
                int sq = rv_bb_first(moves);
                rv_pat_state_move(&st, &next, sq, rv_reversi_flips_bb(p.player, p.opponent, sq));
                CHECK_EQ_INT(rv_reversi_play(&p, sq), RV_OK);
            }
            st = next;
        }
    }
    CHECK(positions > 3000);
    CHECK(negative > positions / 4 && negative < positions * 3 / 4);
    CHECK(big > 0);
    /* Every instance at its last configuration (all digits 2) in each stage:
     * the other side owns every square but e of them (a1, b1, ... empty). */
    for (int e = 0; e <= 60; e += 4) {
        uint64_t O = ~0ULL << e;
        rv_pat_state st;
        rv_pat_state_init(&st, 0, O);
        check_all_paths(w, &st, 0, O, fast);
        /* the same with the mover owning the squares (all digits 1) */
        rv_pat_state_init(&st, O, 0);
        check_all_paths(w, &st, O, 0, fast);
    }
    free(w);
}

/*
 * The evaluation predicts exact results: over positions 16 empties from the
 * end of random games, solved exactly, the fitted evaluation's error is
 * small and smaller than the hand-weighted evaluation's.
 */
static void test_eval_predicts_exact_scores(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    CHECK(ai != NULL);
    rv_rng rng;
    rv_rng_seed(&rng, 2026);
    double se_pat = 0, se_simple = 0;
    int n = 0;
    while (n < 150) {
        rv_reversi_pos p = ref_random_position(&rng, 16);
        if (rv_reversi_count(&p, RV_EMPTY) != 16 || !rv_reversi_moves(&p)) continue;
        rv_reversi_solve_result r;
        CHECK_EQ_INT(rv_reversi_solve(ai, &p, 0, &r), RV_OK);
        rv_reversi_ai_set_eval(ai, RV_REVERSI_EVAL_PATTERN);
        double ep = rv_ai_eval(ai, p.player, p.opponent) / 100.0 - r.score;
        rv_reversi_ai_set_eval(ai, RV_REVERSI_EVAL_SIMPLE);
        double es = rv_ai_eval(ai, p.player, p.opponent) / 100.0 - r.score;
        se_pat += ep * ep;
        se_simple += es * es;
        n++;
    }
    double rms_pat = sqrt(se_pat / n), rms_simple = sqrt(se_simple / n);
    printf("rms error against exact scores at 16 empties: pattern %.1f, simple %.1f discs\n",
           rms_pat, rms_simple);
    CHECK(rms_pat < 14.0);
    CHECK(rms_pat < rms_simple);
    /* The start position is about even (within 2 discs). */
    rv_reversi_pos s;
    rv_reversi_init(&s);
    rv_reversi_ai_set_eval(ai, RV_REVERSI_EVAL_PATTERN);
    int v0 = rv_ai_eval(ai, s.player, s.opponent);
    CHECK(v0 > -200 && v0 < 200);
    rv_reversi_ai_free(ai);
}

/*
 * Weights loaded at run time (rv_reversi_ai_set_weights): the round-2 base
 * file src/reversi/eval_weights.bin drives the engine's evaluation (a depth-1
 * eval_moves scores each move by the loaded weights' evaluation of the
 * child), NULL restores the built-in ones, and a damaged or cut file is
 * refused with the weights left as they were.
 */
static void test_loaded_weights(void) {
    const char *dir = getenv("RV_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/../../src/reversi/eval_weights.bin", dir ? dir : "tests/data");
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f) return;
    size_t cap = 8u << 20;
    unsigned char *img = malloc(cap);
    CHECK(img != NULL);
    size_t len = fread(img, 1, cap, f);
    fclose(f);
    rv_reversi_ai *ai = rv_reversi_ai_new(1 << 20);
    CHECK(ai != NULL);
    CHECK_EQ_INT(rv_reversi_ai_set_weights(ai, img, len - 1), RV_EINVAL);
    img[RV_PAT_FILE_HEADER + 1000] ^= 1;
    CHECK_EQ_INT(rv_reversi_ai_set_weights(ai, img, len), RV_EINVAL);
    img[RV_PAT_FILE_HEADER + 1000] ^= 1;
    CHECK_EQ_INT(rv_reversi_ai_set_weights(NULL, img, len), RV_EINVAL);
    rv_rng rng;
    rv_rng_seed(&rng, 99);
    rv_reversi_limits d1 = {0, 1, 0, 0};
    for (int round = 0; round < 3; round++) {
        /* 0: built in (nothing loaded yet), 1: the file, 2: built in again. */
        if (round == 1) CHECK_EQ_INT(rv_reversi_ai_set_weights(ai, img, len), RV_OK);
        if (round == 2) CHECK_EQ_INT(rv_reversi_ai_set_weights(ai, NULL, 0), RV_OK);
        const unsigned char *w = round == 1 ? img + RV_PAT_FILE_HEADER : rv_pat_weight_bytes;
        for (int i = 0; i < 40; i++) {
            rv_reversi_pos p = ref_random_position(&rng, 20 + (int)rv_rng_below(&rng, 30));
            if (!rv_reversi_moves(&p)) continue;
            rv_reversi_move_eval ev[64];
            int n = 0;
            CHECK_EQ_INT(rv_reversi_ai_eval_moves(ai, &p, &d1, ev, 64, &n), RV_OK);
            for (int k = 0; k < n; k++) {
                uint64_t fl = rv_reversi_flips_bb(p.player, p.opponent, ev[k].move);
                uint64_t np = p.opponent ^ fl, no = p.player ^ fl ^ (1ULL << ev[k].move);
                CHECK_EQ_INT(ev[k].eval_centi, -rv_ai_pattern_centi(rv_pat_eval(w, np, no)));
            }
        }
    }
    rv_reversi_ai_free(ai);
    free(img);
}

int main(void) {
    test_loaded_weights();
    test_transforms();
    test_instances();
    test_features_start();
    test_eval_consistent_and_symmetric();
    test_incremental_state();
    test_fast_paths_agree();
    test_eval_predicts_exact_scores();
    return test_finish();
}
