/*
 * The long property run (make test-long): at least 100,000 random positions
 * (2000 x RV_TEST_SCALE when that is more), library against the reference
 * checker of renju_ref.h on every empty point, zero disagreements allowed.
 * Other seeds than the unit test, more sizes and denser boards.
 */
#include "renju_random.h"
#include "test.h"

int main(void) {
    long positions = 2000 * test_scale(), forbidden = 0, kinds[7] = {0};
    if (positions < 100000) positions = 100000;
    rv_rng r;
    rv_rng_seed(&r, 0x5eed2026);
    int reported = 0;
    long bad = 0;
    for (long i = 0; i < positions; i++) {
        int n = i % 4 ? 15 : (int)(5 + rv_rng_below(&r, 22));
        int stones = 5 + (int)rv_rng_below(&r, i % 3 ? 56 : 116);
        rv_gomoku g;
        ref_board rb;
        random_position(&r, n, stones, &g, &rb);
        bad += compare_position(&g, &rb, &forbidden, kinds, &reported);
        if ((i + 1) % 20000 == 0) fprintf(stderr, "%ld positions, %ld disagreements\n", i + 1, bad);
    }
    printf("%ld positions, %ld forbidden points (%ld double-three, %ld double-four, %ld overline), "
           "%ld disagreements\n",
           positions, forbidden, kinds[3], kinds[4], kinds[6], bad);
    CHECK(bad == 0);
    return test_finish();
}
