/*
 * A slow, obviously correct Reversi reference for the tests: walks the board
 * square by square in the 8 directions with row/column coordinates, no bit
 * tricks. Shared by tests/test_reversi_*.c and tests/long_reversi_*.c.
 */
#ifndef RV_TEST_REVERSI_REF_H
#define RV_TEST_REVERSI_REF_H

#include <stdint.h>

#include "renversi/core.h"

static const int ref_dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int ref_dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

/* board[r][c]: 0 empty, 1 player, 2 opponent. */
static inline void ref_unpack(uint64_t P, uint64_t O, int board[8][8]) {
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            int sq = r * 8 + c;
            board[r][c] = (P >> sq & 1) ? 1 : (O >> sq & 1) ? 2 : 0;
        }
}

/* Discs flipped by the player playing (r, c), as a bitboard. */
static inline uint64_t ref_flips(uint64_t P, uint64_t O, int sq) {
    int b[8][8];
    ref_unpack(P, O, b);
    int r0 = sq / 8, c0 = sq % 8;
    if (b[r0][c0] != 0) return 0;
    uint64_t all = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t line = 0;
        int r = r0 + ref_dr[d], c = c0 + ref_dc[d];
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && b[r][c] == 2) {
            line |= 1ULL << (r * 8 + c);
            r += ref_dr[d];
            c += ref_dc[d];
        }
        if (line && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r][c] == 1) all |= line;
    }
    return all;
}

static inline uint64_t ref_moves(uint64_t P, uint64_t O) {
    uint64_t m = 0;
    for (int sq = 0; sq < 64; sq++)
        if (!((P | O) >> sq & 1) && ref_flips(P, O, sq)) m |= 1ULL << sq;
    return m;
}

/* Perft by the reference, both conventions (see shared/spec/othello.md). */
static inline uint64_t ref_perft(uint64_t P, uint64_t O, int depth, int alive_only) {
    if (depth == 0) return 1;
    uint64_t m = ref_moves(P, O);
    if (!m) {
        if (!ref_moves(O, P)) return alive_only ? 0 : 1;
        return ref_perft(O, P, depth - 1, alive_only);
    }
    uint64_t n = 0;
    for (int sq = 0; sq < 64; sq++)
        if (m >> sq & 1) {
            uint64_t f = ref_flips(P, O, sq);
            n += ref_perft(O & ~f, P | f | (1ULL << sq), depth - 1, alive_only);
        }
    return n;
}

/* A random board: each square empty, player or opponent with probabilities
 * that vary from board to board (sparse to nearly full). */
static inline void ref_random_board(rv_rng *g, uint64_t *P, uint64_t *O) {
    unsigned fill = (unsigned)rv_rng_below(g, 101); /* percent occupied */
    uint64_t p = 0, o = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (rv_rng_below(g, 100) >= fill) continue;
        if (rv_rng_next(g) & 1) p |= 1ULL << sq;
        else o |= 1ULL << sq;
    }
    *P = p;
    *O = o;
}

/* A position reached by `plies` random legal moves (passes when needed)
 * from the start; stops early at the end of the game. */
static inline void ref_random_game(rv_rng *g, int plies, uint64_t *P, uint64_t *O) {
    uint64_t p = (1ULL << 35) | (1ULL << 28), o = (1ULL << 27) | (1ULL << 36);
    for (int i = 0; i < plies; i++) {
        uint64_t m = ref_moves(p, o);
        if (!m) {
            if (!ref_moves(o, p)) break;
        } else {
            int k = (int)rv_rng_below(g, (uint64_t)__builtin_popcountll(m));
            int sq = 0;
            for (sq = 0; sq < 64; sq++)
                if (m >> sq & 1 && k-- == 0) break;
            uint64_t f = ref_flips(p, o, sq);
            p |= f | (1ULL << sq);
            o &= ~f;
        }
        uint64_t t = p;
        p = o;
        o = t;
    }
    *P = p;
    *O = o;
}

#endif
