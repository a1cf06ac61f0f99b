/*
 * Helpers of the Othello tests: a reference endgame solver (plain negamax over
 * the public rules — moves, flips, pass, empties to the winner — with no
 * pruning, no table and no ordering: slow and obviously right) and random
 * positions.  Shared by the solver, search and evaluation tests.
 */
#ifndef RV_TEST_OTHELLO_REF_H
#define RV_TEST_OTHELLO_REF_H

#include "renversi/reversi.h"
#include "reversi/ai_internal.h"
#include "renversi/core.h"

/* Board symmetries square by square (slow and obviously right): rows
 * reversed (a1 <-> a8), columns reversed (a1 <-> h1), and a1-h8 transposed. */
static inline uint64_t ref_flip_rows(uint64_t b) {
    uint64_t r = 0;
    for (int sq = 0; sq < 64; sq++)
        if ((b >> sq) & 1) r |= 1ULL << (sq ^ 56);
    return r;
}
static inline uint64_t ref_flip_cols(uint64_t b) {
    uint64_t r = 0;
    for (int sq = 0; sq < 64; sq++)
        if ((b >> sq) & 1) r |= 1ULL << (sq ^ 7);
    return r;
}
static inline uint64_t ref_transpose(uint64_t b) {
    uint64_t r = 0;
    for (int sq = 0; sq < 64; sq++)
        if ((b >> sq) & 1) r |= 1ULL << ((sq & 7) * 8 + (sq >> 3));
    return r;
}

/* A position reached by random legal moves from the start, with at most
 * `empties` empty squares (fewer if the game ended first). */
static inline rv_reversi_pos ref_random_position(rv_rng *rng, int empties) {
    rv_reversi_pos pos;
    rv_reversi_init(&pos);
    while (!rv_reversi_is_over(&pos) && rv_reversi_count(&pos, RV_EMPTY) > empties) {
        uint64_t m = rv_reversi_moves(&pos);
        if (!m) {
            rv_reversi_play(&pos, RV_REVERSI_PASS);
            continue;
        }
        int k = (int)rv_rng_below(rng, (uint64_t)rv_bb_count(m));
        while (k--) m &= m - 1;
        rv_reversi_play(&pos, rv_bb_first(m));
    }
    return pos;
}

/* The exact final disc difference for the side to move (P), both sides playing perfectly. */
static inline int ref_solve(uint64_t P, uint64_t O, int passed) {
    uint64_t moves = rv_reversi_moves_bb(P, O);
    if (!moves) {
        if (passed) {
            int p = rv_bb_count(P), o = rv_bb_count(O), e = 64 - p - o;
            return p > o ? p - o + e : p < o ? p - o - e : 0;
        }
        return -ref_solve(O, P, 1);
    }
    int best = -100;
    for (int sq = 0; sq < 64; sq++) {
        if (!((moves >> sq) & 1)) continue;
        uint64_t f = rv_reversi_flips_bb(P, O, sq);
        int v = -ref_solve(O & ~f, P | f | (1ULL << sq), 0);
        if (v > best) best = v;
    }
    return best;
}

#endif
