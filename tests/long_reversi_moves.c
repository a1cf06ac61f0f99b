/*
 * The long run of tests/test_reversi_moves.c: millions of random boards and
 * random game positions (fixed seeds), every code path against the
 * square-by-square reference, plus perft to depth 4 on random positions.
 * Scaled by RV_TEST_SCALE (make test-long uses 50).
 */
#include "test.h"

#include "renversi/reversi.h"
#include "reversi_paths.h"
#include "reversi_ref.h"

int main(void) {
    long scale = test_scale();
    int npaths = rv_reversi_simd_cpu();
    rv_rng g;
    rv_rng_seed(&g, 0x10A6);
    long bad = 0, boards = 0;
    for (long i = 0; i < 40000 * scale; i++) {
        uint64_t P, O;
        if (i & 1) ref_random_board(&g, &P, &O);
        else ref_random_game(&g, (int)rv_rng_below(&g, 70), &P, &O);
        uint64_t want = ref_moves(P, O);
        for (int path = RV_REVERSI_SIMD_PLAIN; path <= npaths; path++) {
            if (path_moves(path, P, O) != want) bad++;
            for (uint64_t e = ~(P | O); e; e &= e - 1) {
                int sq = rv_bb_first(e);
                if (path_flips(path, P, O, sq) != ref_flips(P, O, sq)) bad++;
            }
        }
        boards++;
    }
    printf("%ld positions, paths plain..%s\n", boards, rv_reversi_simd_name(npaths));
    CHECK_EQ_INT(bad, 0);
    for (long i = 0; i < 200 * scale; i++) {
        uint64_t P, O;
        ref_random_game(&g, 20 + (int)rv_rng_below(&g, 50), &P, &O);
        rv_reversi_pos pos = {P, O, RV_BLACK};
        for (int al = 0; al <= 1; al++) {
            uint64_t want = ref_perft(P, O, 4, al);
            for (int path = RV_REVERSI_SIMD_PLAIN; path <= npaths; path++) {
                uint64_t got = 0;
                rv_reversi_perft_with(&pos, 4, al, (rv_reversi_simd)path, &got);
                if (got != want) bad++;
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    return test_finish();
}
