/*
 * Property test: the library's forbidden points (whole-board map and single
 * point) agree point for point with the slow reference checker of
 * renju_ref.h on thousands of random positions: squares 5..26 and rectangles,
 * fixed seeds, RV_TEST_SCALE multiplies the count. tests/long_gomoku_forbidden.c
 * runs >= 100,000.
 */
#include "renju_random.h"
#include "test.h"

int main(void) {
    long positions = 2000 * test_scale(), forbidden = 0, kinds[7] = {0};
#ifdef RV_SANITIZED
    positions /= 4; /* the sanitizer build is ~5x slower; the plain build runs them all */
#endif
    rv_rng r;
    rv_rng_seed(&r, 20261121);
    int reported = 0;
    long bad = 0;
    for (long i = 0; i < positions; i++) {
        /*
         * Mostly 15x15 mid-game positions; every 8th on another square size
         * (edges, 5x5, 26x26), every 16th on a rectangle.
         */
        int w = 15, h = 15;
        if (i % 16 == 4) {
            w = (int)(5 + rv_rng_below(&r, 22));
            h = (int)(5 + rv_rng_below(&r, 22));
        } else if (i % 8 == 0) {
            w = h = (int)(5 + rv_rng_below(&r, 22));
        }
        int stones = 10 + (int)rv_rng_below(&r, 51);
        rv_gomoku g;
        ref_board rb;
        random_rect(&r, w, h, stones, &g, &rb);
        bad += compare_position(&g, &rb, &forbidden, kinds, &reported);
    }
    printf("%ld positions, %ld forbidden points (%ld double-three, %ld double-four, %ld overline), "
           "%ld disagreements\n",
           positions, forbidden, kinds[3], kinds[4], kinds[6], bad);
    CHECK(bad == 0);
    /* the positions really exercise every kind */
    CHECK(kinds[3] > positions / 10 && kinds[4] > positions / 20 && kinds[6] > positions / 20);
    return test_finish();
}
