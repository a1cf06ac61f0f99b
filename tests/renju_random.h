/*
 * Random Gomoku positions for the property tests: "local play" (each stone
 * near an earlier one) so that rows, threes and fours are frequent, with
 * black somewhat more numerous than white to make forbidden points common.
 * Deterministic from the rv_rng seed.
 */
#ifndef RV_TEST_RENJU_RANDOM_H
#define RV_TEST_RENJU_RANDOM_H

#include "renju_ref.h"
#include "renversi/core.h"
#include "renversi/gomoku.h"

#include <stdio.h>
#include <string.h>

/* Fills g (Renju, w x h) and rb with the same random position of 'stones' stones. */
static void random_rect(rv_rng *r, int w, int h, int stones, rv_gomoku *g, ref_board *rb) {
    rv_gomoku_init(g, w, h, RV_RULE_RENJU);
    memset(rb, 0, sizeof *rb);
    rb->w = w;
    rb->h = h;
    int xs[RV_GOMOKU_MAX_POINTS], ys[RV_GOMOKU_MAX_POINTS], placed = 0;
    if (stones > w * h) stones = w * h;
    int tries = 0;
    while (placed < stones && tries++ < 100000) {
        int x, y;
        if (placed == 0 || rv_rng_below(r, 16) == 0) {
            x = (int)rv_rng_below(r, (uint64_t)w);
            y = (int)rv_rng_below(r, (uint64_t)h);
        } else {
            int k = (int)rv_rng_below(r, (uint64_t)placed);
            x = xs[k] + (int)rv_rng_below(r, 5) - 2;
            y = ys[k] + (int)rv_rng_below(r, 5) - 2;
        }
        if (x < 0 || y < 0 || x >= w || y >= h || rb->c[y][x] != REF_EMPTY) continue;
        int black = rv_rng_below(r, 100) < 58;
        rv_gomoku_set_stone(g, x, y, black ? RV_BLACK : RV_WHITE);
        rb->c[y][x] = black ? REF_BLACK : REF_WHITE;
        xs[placed] = x;
        ys[placed] = y;
        placed++;
    }
}

/* A square n x n random position (see random_rect). */
static inline void random_position(rv_rng *r, int n, int stones, rv_gomoku *g, ref_board *rb) {
    random_rect(r, n, n, stones, g, rb);
}

/*
 * Compares the library with the reference on every empty point of one random
 * position; returns the number of disagreements (printing the first few).
 * *forbidden counts the forbidden points seen, kinds[k] the points of each kind.
 */
static int compare_position(rv_gomoku *g, ref_board *rb, long *forbidden, long kinds[7],
                            int *reported) {
    uint8_t map[RV_GOMOKU_MAX_POINTS];
    int n = rv_gomoku_width(g), nh = rv_gomoku_height(g), bad = 0, count = 0;
    int got = rv_gomoku_forbidden_map(g, map);
    for (int y = 0; y < nh; y++)
        for (int x = 0; x < n; x++) {
            int want = rb->c[y][x] == REF_EMPTY ? ref_forbidden(rb, x, y) : REF_NONE;
            int one = rv_gomoku_forbidden(g, x, y);
            count += want != REF_NONE;
            kinds[want]++;
            if (map[y * n + x] != want || one != want) {
                bad++;
                if ((*reported)++ < 5) {
                    fprintf(stderr,
                            "disagreement on %dx%d at x=%d y=%d: map %d, point %d, reference %d\n",
                            n, nh, x, y, map[y * n + x], one, want);
                    for (int yy = 0; yy < nh; yy++) {
                        for (int xx = 0; xx < n; xx++)
                            fputc(xx == x && yy == y ? '*' : ".XO"[rb->c[yy][xx]], stderr);
                        fputc('\n', stderr);
                    }
                }
            }
        }
    if (got != count) bad++;
    *forbidden += count;
    return bad;
}

#endif
