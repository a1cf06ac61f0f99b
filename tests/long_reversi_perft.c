/*
 * Perft 12 from the start in both conventions on every code path, and
 * perft 13 (default convention) on the best one, against the published
 * counts (shared/spec/othello.md).
 */
#include "test.h"

#include "renversi/core.h"
#include "renversi/reversi.h"

int main(void) {
    rv_reversi_pos p;
    rv_reversi_init(&p);
    rv_reversi_simd best = rv_reversi_simd_cpu();
    for (int s = RV_REVERSI_SIMD_PLAIN; s <= (int)best; s++) {
        uint64_t n = 0, a = 0;
        double t = rv_clock_seconds();
        rv_reversi_perft_with(&p, 12, 0, (rv_reversi_simd)s, &n);
        rv_reversi_perft_with(&p, 12, 1, (rv_reversi_simd)s, &a);
        CHECK_EQ_U64(n, 1939886636ULL);
        CHECK_EQ_U64(a, 1939879668ULL);
        printf("perft 12 %s: both conventions in %.1f s\n", rv_reversi_simd_name(s),
               rv_clock_seconds() - t);
    }
    uint64_t n = 0;
    rv_reversi_perft_with(&p, 13, 0, best, &n);
    CHECK_EQ_U64(n, 18429641748ULL);
    return test_finish();
}
