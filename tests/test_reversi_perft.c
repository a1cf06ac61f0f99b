/*
 * Perft against the published counts (shared/spec/othello.md) in both
 * conventions and on every code path this CPU has, and against the
 * square-by-square reference perft on random positions.
 */
#include "test.h"

#include "renversi/reversi.h"
#include "reversi/bitboard_simd.h"
#include "reversi_ref.h"

/* Published leaf counts from the start, depth 1..13. */
static const uint64_t counts[14] = {1,        4,         12,        56,         244,
                                    1396,     8200,      55092,     390216,     3005288,
                                    24571284, 212258800, 1939886636, 18429641748ULL};
static const uint64_t alive[14] = {1,        4,         12,        56,         244,
                                   1396,     8200,      55092,     390216,     3005288,
                                   24571056, 212258216, 1939879668, 18429618408ULL};

static void test_published(int maxdepth_all, int maxdepth_best) {
    rv_reversi_pos p;
    rv_reversi_init(&p);
    rv_reversi_simd best = rv_reversi_simd_cpu();
    for (int s = RV_REVERSI_SIMD_PLAIN; s <= (int)best; s++) {
        int maxd = s == (int)best ? maxdepth_best : maxdepth_all;
        for (int d = 0; d <= maxd; d++) {
            uint64_t n = 0, a = 0;
            CHECK(rv_reversi_perft_with(&p, d, 0, (rv_reversi_simd)s, &n) == RV_OK);
            CHECK(rv_reversi_perft_with(&p, d, 1, (rv_reversi_simd)s, &a) == RV_OK);
            CHECK_MSG(n == counts[d], "%s depth %d: %llu", rv_reversi_simd_name(s), d,
                      (unsigned long long)n);
            CHECK_MSG(a == alive[d], "%s alive depth %d: %llu", rv_reversi_simd_name(s), d,
                      (unsigned long long)a);
        }
        printf("perft %s: depth 1..%d ok in both conventions\n", rv_reversi_simd_name(s), maxd);
    }
    /* The public entry point agrees. */
    CHECK_EQ_U64(rv_reversi_perft(&p, 8, 0), counts[8]);
    /* A path beyond this CPU is refused, nothing written. */
    uint64_t n = 12345;
    if (best < RV_REVERSI_SIMD_AVX512) {
        CHECK(rv_reversi_perft_with(&p, 3, 0, RV_REVERSI_SIMD_AVX512, &n) == RV_EINVAL);
        CHECK_EQ_U64(n, 12345);
    }
    CHECK(rv_reversi_perft_with(&p, 3, 0, (rv_reversi_simd)9, &n) == RV_EINVAL);
}

/* Random positions (mostly late games, where passes and game ends happen),
 * all paths vs the reference, both conventions. */
static void test_random(long n) {
    rv_rng g;
    rv_rng_seed(&g, 77);
    rv_reversi_simd best = rv_reversi_simd_cpu();
    long bad = 0;
    for (long i = 0; i < n; i++) {
        uint64_t P, O;
        if (i % 4 == 0) ref_random_board(&g, &P, &O);
        else ref_random_game(&g, 30 + (int)rv_rng_below(&g, 40), &P, &O);
        int depth = 1 + (int)rv_rng_below(&g, 4);
        for (int al = 0; al <= 1; al++) {
            uint64_t want = ref_perft(P, O, depth, al);
            rv_reversi_pos pos = {P, O, RV_BLACK};
            for (int s = RV_REVERSI_SIMD_PLAIN; s <= (int)best; s++) {
                uint64_t got = 0;
                rv_reversi_perft_with(&pos, depth, al, (rv_reversi_simd)s, &got);
                if (got != want && bad++ < 5)
                    fprintf(stderr, "perft %s d%d al%d P=%#llx O=%#llx: %llu want %llu\n",
                            rv_reversi_simd_name(s), depth, al, (unsigned long long)P,
                            (unsigned long long)O, (unsigned long long)got,
                            (unsigned long long)want);
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* A finished game: depth 0 is one leaf; greater depths 1 (default) or 0. */
static void test_finished(void) {
    rv_reversi_pos p = {0xFFFFFFFFFFFFFFFFULL, 0, RV_BLACK};
    for (int d = 0; d < 5; d++) {
        CHECK_EQ_U64(rv_reversi_perft(&p, d, 0), 1);
        CHECK_EQ_U64(rv_reversi_perft(&p, d, 1), d == 0 ? 1 : 0);
    }
}

int main(void) {
    /* The sanitizer build is ~20x slower: the plain and AVX2 paths stop at
     * depth 10 there; the best path always goes to 11. */
    int sanitized = getenv("RV_SANITIZED") != NULL;
    test_published(sanitized ? 10 : 11, 11);
    test_finished();
    test_random(3000 * test_scale());
    return test_finish();
}
