/*
 * Strength, through the public API only, each match from varied openings
 * (random legal 4-9 ply starts that a depth-12 search scores within 4 discs,
 * each played with both colours; win 1, draw 1/2), every move checked against
 * the rules of the core:
 *   level 10 against level 5 (100 games) must score at least 75%;
 *   the built-in weights (the round-2 fit with the round-3 delta, smoothed
 *   between stages at build time) against the round-2 weights file as
 *   fitted, loaded with
 *   rv_reversi_ai_set_weights, both level 6 (same depth, same speed: equal
 *   time), 200 games: at least 51%;
 *   level 20 against level 10 (RV_TEST_SCALE * 3 / 5 openings: 60 games with
 *   make test-long's 50; level 20 searches 18 plies and solves exactly from
 *   24 empties, a minute or more a game) at least 75%;
 *   the fitted pattern evaluation against the hand-weighted one, both at
 *   level 6 (same depth), must score at least 65% (100 games).
 */
#include "test.h"

#include "renversi/core.h"
#include "renversi/reversi_ai.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The least share of the points the built-in weights must take from the
 * round-2 file (BENCHMARKS.md: 55.8% in this match, 57.5% over 400 other
 * games at depth 6; 51% leaves room for the noise of a changed search). */
#define BUILT_IN_MIN 0.51

/* The largest score, in discs, of an opening the matches start from. */
#define BALANCE 4

/* Plays one game from start; returns the final disc difference for black. */
static int play_game(rv_reversi_ai *black, int black_level, rv_reversi_ai *white,
                     int white_level, const rv_reversi_pos *start, int *illegal) {
    rv_reversi_pos pos = *start;
    for (int ply = 0; ply < 200 && !rv_reversi_is_over(&pos); ply++) {
        int is_black = pos.side == RV_BLACK;
        rv_reversi_limits lim = {is_black ? black_level : white_level, 0, 0, 0};
        rv_reversi_ai_info info;
        if (rv_reversi_ai_think(is_black ? black : white, &pos, &lim, &info) != RV_OK ||
            rv_reversi_play(&pos, info.move) != RV_OK) {
            (*illegal)++;
            return 0;
        }
    }
    int b = rv_reversi_count(&pos, RV_BLACK), w = rv_reversi_count(&pos, RV_WHITE);
    int e = 64 - b - w;
    return b > w ? b - w + e : b < w ? b - w - e : 0;
}

typedef struct side {
    int level;
    rv_reversi_eval eval;
    const char *name;
    const unsigned char *weights; /* a weights file image, NULL = the built-in weights */
    size_t weights_len;
} side;

/* A random legal start of 4-9 plies.  Only balanced ones are kept: a depth-12
 * search must score it within BALANCE discs.  A lost opening scores one win for
 * each side whatever their strength (2026-11-24: level 20 against level 10 won
 * 11 of 12 games from the openings of the last run within 6 discs, and only won
 * with the colour that a depth-14 search favoured from the 15 openings beyond 6
 * discs), so unbalanced ones only dilute a match towards 50%; the XOT opening
 * set is built on the same idea.  ai is cleared before and after. */
static void draw_opening(rv_rng *rng, rv_reversi_ai *ai, rv_reversi_pos *start) {
    for (int tries = 0;; tries++) {
        rv_reversi_init(start);
        int plies = 4 + (int)rv_rng_below(rng, 6);
        for (int i = 0; i < plies && !rv_reversi_is_over(start); i++) {
            uint64_t m = rv_reversi_moves(start);
            int k = (int)rv_rng_below(rng, (uint64_t)rv_bb_count(m));
            while (k--) m &= m - 1;
            rv_reversi_play(start, rv_bb_first(m));
        }
        rv_reversi_limits lim = {0, 12, 0, 0};
        rv_reversi_ai_info info;
        rv_reversi_ai_clear(ai);
        CHECK_EQ_INT(rv_reversi_ai_think(ai, start, &lim, &info), RV_OK);
        rv_reversi_ai_clear(ai);
        /* About one start in four is kept; 1,000 tries cannot all fail in practice. */
        if (abs(info.eval_centi) <= BALANCE * 100 || tries >= 1000) return;
    }
}

/* Plays the match; returns the first side's points (of 2 * openings). */
static double match(side first, side second, int openings, uint64_t seed, int *games_out) {
    rv_reversi_ai *a = rv_reversi_ai_new(32 << 20), *b = rv_reversi_ai_new(32 << 20);
    CHECK(a && b);
    rv_reversi_ai_set_eval(a, first.eval);
    rv_reversi_ai_set_eval(b, second.eval);
    if (first.weights) CHECK_EQ_INT(rv_reversi_ai_set_weights(a, first.weights, first.weights_len), RV_OK);
    if (second.weights) CHECK_EQ_INT(rv_reversi_ai_set_weights(b, second.weights, second.weights_len), RV_OK);
    rv_rng rng;
    rv_rng_seed(&rng, seed);
    double points = 0;
    int games = 0, wins = 0, draws = 0, illegal = 0;
    double t0 = rv_clock_seconds();
    for (int o = 0; o < openings; o++) {
        rv_reversi_pos start;
        draw_opening(&rng, a, &start);
        for (int first_is_black = 0; first_is_black < 2; first_is_black++) {
            rv_reversi_ai_clear(a);
            rv_reversi_ai_clear(b);
            int d = first_is_black ? play_game(a, first.level, b, second.level, &start, &illegal)
                                   : play_game(b, second.level, a, first.level, &start, &illegal);
            int s = first_is_black ? d : -d; /* for the first side */
            games++;
            if (s > 0) wins++, points += 1;
            else if (s == 0) draws++, points += 0.5;
            fprintf(stderr, "game %d: %s as %s, %+d\n", games, first.name,
                    first_is_black ? "black" : "white", s);
        }
    }
    printf("%s vs %s: %d games, %d wins, %d draws, %d losses, %.1f%%, %.0f s\n", first.name,
           second.name, games, wins, draws, games - wins - draws, 100.0 * points / games,
           rv_clock_seconds() - t0);
    CHECK_EQ_INT(illegal, 0);
    rv_reversi_ai_free(a);
    rv_reversi_ai_free(b);
    *games_out = games;
    return points;
}

/* The file at RV_TEST_DATA/rel in memory (*len bytes); NULL if unreadable. */
static unsigned char *read_data_file(const char *rel, size_t *len) {
    const char *dir = getenv("RV_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", rel);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 8u << 20;
    unsigned char *buf = malloc(cap);
    *len = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    return buf;
}

int main(void) {
    int games;
    side l10 = {10, RV_REVERSI_EVAL_PATTERN, "level 10", NULL, 0};
    side l5 = {5, RV_REVERSI_EVAL_PATTERN, "level 5", NULL, 0};
    double p = match(l10, l5, 50, 20261121, &games);
    CHECK_MSG(p >= 0.75 * games, "level 10 scored %.1f of %d", p, games);
    /* The built-in weights (round 3, smoothed between stages) against the round-2
     * fit as it is in the file: the same engine, so the same speed. */
    size_t r2_len = 0;
    unsigned char *r2 = read_data_file("../../src/reversi/eval_weights.bin", &r2_len);
    CHECK(r2 != NULL);
    if (r2) {
        side now = {6, RV_REVERSI_EVAL_PATTERN, "level 6 built-in weights", NULL, 0};
        side old = {6, RV_REVERSI_EVAL_PATTERN, "level 6 round-2 file", r2, r2_len};
        p = match(now, old, 100, 20261123, &games);
        CHECK_MSG(p >= BUILT_IN_MIN * games, "the built-in weights scored %.1f of %d", p, games);
        free(r2);
    }
    side l20 = {20, RV_REVERSI_EVAL_PATTERN, "level 20", NULL, 0};
    /* 60 games at RV_TEST_SCALE=50: 10 games cannot resolve the 75% line (2026-11-23: 84%
     * over 60 games on the f5 4-ply openings, 69% over 60 on random openings before they
     * were balanced: BENCHMARKS.md). */
    long openings = test_scale() * 3 / 5;
    p = match(l20, l10, openings > 1 ? (int)openings : 1, 2026112320, &games);
    CHECK_MSG(p >= 0.75 * games, "level 20 scored %.1f of %d", p, games);
    side pat = {6, RV_REVERSI_EVAL_PATTERN, "level 6 pattern", NULL, 0};
    side simple = {6, RV_REVERSI_EVAL_SIMPLE, "level 6 simple", NULL, 0};
    p = match(pat, simple, 50, 7, &games);
    CHECK_MSG(p >= 0.65 * games, "the pattern evaluation scored %.1f of %d", p, games);
    return test_finish();
}
