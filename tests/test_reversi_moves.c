/*
 * Move generation and flips on every code path (plain C, AVX2, AVX-512 as
 * this CPU allows) against the square-by-square reference of reversi_ref.h,
 * on hand-checked positions and on random boards and random games.
 */
#include "test.h"

#include "renversi/reversi.h"
#include "reversi_paths.h"
#include "reversi_ref.h"

static int npaths;

static void check_board(uint64_t P, uint64_t O, long *bad) {
    uint64_t want = ref_moves(P, O);
    for (int path = RV_REVERSI_SIMD_PLAIN; path <= npaths; path++) {
        uint64_t got = path_moves(path, P, O);
        if (got != want && (*bad)++ < 5)
            fprintf(stderr, "moves %s P=%#llx O=%#llx: %#llx want %#llx\n",
                    rv_reversi_simd_name(path), (unsigned long long)P, (unsigned long long)O,
                    (unsigned long long)got, (unsigned long long)want);
        CHECK(got == want);
        /* Flips are defined for every empty square, legal (nonzero) or not. */
        uint64_t empty = ~(P | O);
        for (; empty; empty &= empty - 1) {
            int sq = rv_bb_first(empty);
            uint64_t f = path_flips(path, P, O, sq), wf = ref_flips(P, O, sq);
            if (f != wf) {
                if ((*bad)++ < 5)
                    fprintf(stderr, "flips %s P=%#llx O=%#llx sq=%d: %#llx want %#llx\n",
                            rv_reversi_simd_name(path), (unsigned long long)P,
                            (unsigned long long)O, sq, (unsigned long long)f,
                            (unsigned long long)wf);
                CHECK(f == wf);
            }
        }
    }
}

static void test_start(void) {
    rv_reversi_pos p;
    rv_reversi_init(&p);
    /* Black's four openings: d3 (19), c4 (26), f5 (37), e6 (44). */
    uint64_t want = (1ULL << 19) | (1ULL << 26) | (1ULL << 37) | (1ULL << 44);
    CHECK_EQ_U64(rv_reversi_moves(&p), want);
    for (int path = RV_REVERSI_SIMD_PLAIN; path <= npaths; path++) {
        CHECK_EQ_U64(path_moves(path, p.player, p.opponent), want);
        /* f5 flips e5 (36). */
        CHECK_EQ_U64(path_flips(path, p.player, p.opponent, 37), 1ULL << 36);
        CHECK_EQ_U64(path_flips(path, p.player, p.opponent, 0), 0);
    }
}

/* Hand-made rays: a long run in every direction, and runs that would wrap. */
static void test_edges(void) {
    long bad = 0;
    /* Player on a1, opponent b1..g1, h1 empty: h1 flips 6 discs. */
    uint64_t P = 1ULL << 0, O = 0x7EULL;
    for (int path = RV_REVERSI_SIMD_PLAIN; path <= npaths; path++) {
        CHECK_EQ_U64(path_flips(path, P, O, 7), 0x7EULL);
        CHECK_EQ_U64(path_moves(path, P, O), 1ULL << 7);
    }
    /* h1 player, a2 opponent, b2 empty: no wrap from h1 to a2 (bit 7 -> 8). */
    P = 1ULL << 7;
    O = 1ULL << 8;
    for (int path = RV_REVERSI_SIMD_PLAIN; path <= npaths; path++) {
        CHECK_EQ_U64(path_moves(path, P, O), 0);
        CHECK_EQ_U64(path_flips(path, P, O, 9), 0);
    }
    /* Full diagonals a1-h8 and h1-a8 with the centre empty. */
    check_board(1ULL << 0, 0x8040201000000000ULL & ~(1ULL << 63), &bad);
    check_board(1ULL << 63 | 1ULL << 56, 0x0002040810204000ULL, &bad);
    /* Everything opponent but the corners (player) and one hole. */
    for (int hole = 0; hole < 64; hole++) {
        uint64_t corners = 0x8100000000000081ULL;
        check_board(corners & ~(1ULL << hole), ~corners & ~(1ULL << hole), &bad);
        check_board(~corners & ~(1ULL << hole) & 0x00FFFFFFFFFFFF00ULL,
                    corners & ~(1ULL << hole), &bad);
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_random(long boards, long games) {
    rv_rng g;
    rv_rng_seed(&g, 20261121);
    long bad = 0;
    for (long i = 0; i < boards; i++) {
        uint64_t P, O;
        ref_random_board(&g, &P, &O);
        check_board(P, O, &bad);
    }
    for (long i = 0; i < games; i++) {
        uint64_t P, O;
        ref_random_game(&g, (int)rv_rng_below(&g, 70), &P, &O);
        check_board(P, O, &bad);
    }
    CHECK_EQ_INT(bad, 0);
}

int main(void) {
    npaths = rv_reversi_simd_cpu();
    printf("code paths tested: plain..%s\n", rv_reversi_simd_name(npaths));
    long scale = test_scale();
    test_start();
    test_edges();
    test_random(20000 * scale, 5000 * scale);
    return test_finish();
}
