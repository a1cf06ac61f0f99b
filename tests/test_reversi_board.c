/*
 * Positions: start, play, pass, illegal moves, game end, counts, scores,
 * hash and the game history, on hand-checked positions.
 */
#include "test.h"

#include "renversi/reversi.h"
#include "reversi/zobrist.h"
#include "reversi_ref.h"

#define SQ(col, row) (((row)-1) * 8 + ((col) - 'a'))

static void test_start(void) {
    rv_reversi_pos p;
    rv_reversi_init(&p);
    CHECK(p.side == RV_BLACK);
    CHECK(rv_reversi_at(&p, SQ('d', 4)) == RV_WHITE);
    CHECK(rv_reversi_at(&p, SQ('e', 5)) == RV_WHITE);
    CHECK(rv_reversi_at(&p, SQ('d', 5)) == RV_BLACK);
    CHECK(rv_reversi_at(&p, SQ('e', 4)) == RV_BLACK);
    CHECK(rv_reversi_at(&p, 0) == RV_EMPTY);
    CHECK_EQ_INT(rv_reversi_count(&p, RV_BLACK), 2);
    CHECK_EQ_INT(rv_reversi_count(&p, RV_WHITE), 2);
    CHECK_EQ_INT(rv_reversi_count(&p, RV_EMPTY), 60);
    CHECK(!rv_reversi_is_over(&p));
    CHECK(!rv_reversi_must_pass(&p));
}

static void test_play(void) {
    rv_reversi_pos p, q;
    rv_reversi_init(&p);
    q = p;
    /* Errors leave the position unchanged. */
    CHECK(rv_reversi_play(&p, SQ('a', 1)) == RV_EILLEGAL);
    CHECK(rv_reversi_play(&p, SQ('d', 4)) == RV_EOCCUPIED);
    CHECK(rv_reversi_play(&p, RV_REVERSI_PASS) == RV_EILLEGAL);
    CHECK(rv_reversi_play(&p, -1) == RV_ERANGE);
    CHECK(rv_reversi_play(&p, 65) == RV_ERANGE);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    /* f5 flips e5: black d5 e4 e5 f5, white d4. */
    CHECK(rv_reversi_play(&p, SQ('f', 5)) == RV_OK);
    CHECK(p.side == RV_WHITE);
    CHECK_EQ_INT(rv_reversi_count(&p, RV_BLACK), 4);
    CHECK_EQ_INT(rv_reversi_count(&p, RV_WHITE), 1);
    CHECK(rv_reversi_at(&p, SQ('e', 5)) == RV_BLACK);
    /* White answers d6 (flips d5): the parallel opening. */
    CHECK(rv_reversi_play(&p, SQ('d', 6)) == RV_OK);
    CHECK(rv_reversi_at(&p, SQ('d', 5)) == RV_WHITE);
    CHECK_EQ_INT(rv_reversi_count(&p, RV_WHITE), 3);
}

/* Hand-built positions where a side must pass and where the game ends. */
static void test_pass_and_end(void) {
    rv_reversi_pos p;
    /* Black a1, white b1: black's only move c1 flips b1. */
    CHECK(rv_reversi_from_colors(&p, 1ULL << 0, 1ULL << 1, RV_BLACK) == RV_OK);
    CHECK_EQ_U64(rv_reversi_moves(&p), 1ULL << 2);
    CHECK(rv_reversi_play(&p, 2) == RV_OK);
    /* Now all black: white cannot move, black cannot either: game over. */
    CHECK(rv_reversi_is_over(&p));
    CHECK(rv_reversi_play(&p, RV_REVERSI_PASS) == RV_EOVER);
    CHECK(rv_reversi_play(&p, 3) == RV_EOVER);
    /* White to move, 3 black discs, 61 empty: black wins 64-0. */
    CHECK(p.side == RV_WHITE);
    CHECK_EQ_INT(rv_reversi_score(&p), -64);
    CHECK(rv_reversi_winner(&p) == RV_BLACK);

    /* White a1 b1, black c1, black to move: black has no move (the run
     * c1-b1-a1 ends at the edge), white has d1 (flips c1): black passes. */
    CHECK(rv_reversi_from_colors(&p, 1ULL << 2, 3ULL, RV_BLACK) == RV_OK);
    CHECK(rv_reversi_must_pass(&p));
    CHECK(!rv_reversi_is_over(&p));
    CHECK(rv_reversi_play(&p, 3) == RV_EILLEGAL);
    CHECK(rv_reversi_play(&p, RV_REVERSI_PASS) == RV_OK);
    CHECK(p.side == RV_WHITE);
    CHECK_EQ_U64(rv_reversi_moves(&p), 1ULL << 3);
    CHECK(rv_reversi_play(&p, 3) == RV_OK);
    CHECK(rv_reversi_is_over(&p));
    /* Black to move, 0 black vs 4 white, 60 empty: -64. */
    CHECK_EQ_INT(rv_reversi_score(&p), -64);
    CHECK(rv_reversi_winner(&p) == RV_WHITE);
}

static void test_score(void) {
    rv_reversi_pos p;
    /* 33-31 full board: +2 for black. */
    uint64_t black = (1ULL << 33) - 1;
    CHECK(rv_reversi_from_colors(&p, black, ~black, RV_BLACK) == RV_OK);
    CHECK_EQ_INT(rv_reversi_score(&p), 2);
    CHECK(rv_reversi_from_colors(&p, black, ~black, RV_WHITE) == RV_OK);
    CHECK_EQ_INT(rv_reversi_score(&p), -2);
    /* 20 black, 20 white, 24 empty: a draw. */
    CHECK(rv_reversi_from_colors(&p, 0xFFFFFULL, 0xFFFFFULL << 20, RV_WHITE) == RV_OK);
    CHECK_EQ_INT(rv_reversi_score(&p), 0);
    CHECK(rv_reversi_winner(&p) == RV_EMPTY);
    /* 30 black, 20 white, 14 empty: black 44-20 = +24. */
    CHECK(rv_reversi_from_colors(&p, (1ULL << 30) - 1, ((1ULL << 20) - 1) << 30, RV_BLACK) ==
          RV_OK);
    CHECK_EQ_INT(rv_reversi_score(&p), 24);
    CHECK(rv_reversi_from_colors(&p, 1, 1, RV_BLACK) == RV_EINVAL);
    CHECK(rv_reversi_from_colors(&p, 1, 2, RV_EMPTY) == RV_EINVAL);
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void test_hash(void) {
    /* The generated tables are what their comment says. */
    uint64_t x = 0x52454e5645525349ULL;
    for (int w = 0; w < 2; w++)
        for (int sq = 0; sq < 64; sq++) CHECK_EQ_U64(rv_reversi_zobrist(w, sq), splitmix(&x));
    /* Hash = XOR of per-square keys, on random boards. */
    rv_rng g;
    rv_rng_seed(&g, 5);
    long bad = 0;
    for (int i = 0; i < 2000; i++) {
        uint64_t P, O, h = 0;
        ref_random_board(&g, &P, &O);
        for (int sq = 0; sq < 64; sq++) {
            if (P >> sq & 1) h ^= rv_reversi_zobrist(0, sq);
            if (O >> sq & 1) h ^= rv_reversi_zobrist(1, sq);
        }
        if (rv_reversi_hash_bb(P, O) != h) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    rv_reversi_pos a, b;
    rv_reversi_init(&a);
    b = a;
    rv_reversi_play(&b, SQ('f', 5));
    CHECK(rv_reversi_hash(&a) != rv_reversi_hash(&b));
    CHECK(rv_reversi_zobrist(2, 0) == 0);
}

static void test_game(void) {
    rv_reversi_game g;
    rv_reversi_game_init(&g, NULL);
    rv_reversi_pos start = *rv_reversi_game_position(&g);
    CHECK(rv_reversi_game_undo(&g) == RV_EEMPTY);
    CHECK(rv_reversi_game_play(&g, SQ('f', 5)) == RV_OK);
    CHECK(rv_reversi_game_play(&g, SQ('f', 5)) == RV_EOCCUPIED);
    CHECK(rv_reversi_game_play(&g, SQ('d', 6)) == RV_OK);
    int n;
    const uint8_t *m = rv_reversi_game_moves(&g, &n);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(m[0], SQ('f', 5));
    CHECK_EQ_INT(m[1], SQ('d', 6));
    CHECK(rv_reversi_game_position(&g)->side == RV_BLACK);
    CHECK(rv_reversi_game_undo(&g) == RV_OK);
    CHECK(rv_reversi_game_undo(&g) == RV_OK);
    CHECK(memcmp(rv_reversi_game_position(&g), &start, sizeof start) == 0);

    /* Random games to the end: every ply is legal by the reference, the
     * game ends exactly when neither side can move, undo walks back. */
    rv_rng r;
    rv_rng_seed(&r, 11);
    long bad = 0;
    for (int i = 0; i < 300; i++) {
        rv_reversi_game_init(&g, NULL);
        for (;;) {
            const rv_reversi_pos *p = rv_reversi_game_position(&g);
            uint64_t mv = ref_moves(p->player, p->opponent);
            if (!mv && !ref_moves(p->opponent, p->player)) break;
            int sq = RV_REVERSI_PASS;
            if (mv) {
                int k = (int)rv_rng_below(&r, (uint64_t)rv_bb_count(mv));
                while (k--) mv &= mv - 1;
                sq = rv_bb_first(mv);
            }
            if (rv_reversi_game_play(&g, sq) != RV_OK) bad++;
        }
        const rv_reversi_pos *p = rv_reversi_game_position(&g);
        if (!rv_reversi_is_over(p)) bad++;
        int b = rv_reversi_count(p, RV_BLACK), w = rv_reversi_count(p, RV_WHITE);
        int want = p->side == RV_BLACK ? b - w : w - b;
        if (want > 0) want += 64 - b - w;
        if (want < 0) want -= 64 - b - w;
        if (rv_reversi_score(p) != want) bad++;
        while (rv_reversi_game_undo(&g) == RV_OK) {
        }
        if (memcmp(rv_reversi_game_position(&g), &start, sizeof start) != 0) bad++;
    }
    CHECK_EQ_INT(bad, 0);
}

int main(void) {
    test_start();
    test_play();
    test_pass_and_end();
    test_score();
    test_hash();
    test_game();
    return test_finish();
}
