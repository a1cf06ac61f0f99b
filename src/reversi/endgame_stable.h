/*
 * Stable discs (included by endgame_stable.c and by the per-CPU copies of
 * the solver, so the hot loop inlines it): discs that no sequence of moves can flip any more.
 *
 * A disc can only be flipped along a line (horizontal, vertical, two
 * diagonals) that has an empty square to place on.  So along one line a disc
 * is safe when the line is full, when the line ends at the board's edge on
 * one side of it, or when its neighbour on one side is a stable disc of the
 * same colour (a flip would have to flip that neighbour too).  A disc safe
 * along all four lines is stable.  Starting from no stable discs and applying
 * the rule until nothing changes yields a subset of the truly stable discs
 * (the least fixpoint), which is what a safe cut-off needs.
 */

#ifndef RV_REVERSI_ENDGAME_STABLE_H
#define RV_REVERSI_ENDGAME_STABLE_H

#include "reversi/ai_internal.h"

/* The squares whose horizontal / vertical / diagonal line is full. */
static inline uint64_t full_rows(uint64_t f) {
    f &= f >> 1;
    f &= f >> 2;
    f &= f >> 4;
    return (f & BB_FILE_A) * 0xFF;
}

static inline uint64_t full_cols(uint64_t f) {
    f &= f >> 8;
    f &= f >> 16;
    f &= f >> 32;
    return (f & 0xFF) * BB_FILE_A;
}

/* The 15 lines in the h1-a8 direction (step 7) and in the a1-h8 direction (step 9). */
static const uint64_t DIAG[15] = {
    0x0000000000000001ULL, 0x0000000000000102ULL, 0x0000000000010204ULL, 0x0000000001020408ULL,
    0x0000000102040810ULL, 0x0000010204081020ULL, 0x0001020408102040ULL, 0x0102040810204080ULL,
    0x0204081020408000ULL, 0x0408102040800000ULL, 0x0810204080000000ULL, 0x1020408000000000ULL,
    0x2040800000000000ULL, 0x4080000000000000ULL, 0x8000000000000000ULL};
static const uint64_t ANTI[15] = {
    0x0000000000000080ULL, 0x0000000000008040ULL, 0x0000000000804020ULL, 0x0000000080402010ULL,
    0x0000008040201008ULL, 0x0000804020100804ULL, 0x0080402010080402ULL, 0x8040201008040201ULL,
    0x4020100804020100ULL, 0x2010080402010000ULL, 0x1008040201000000ULL, 0x0804020100000000ULL,
    0x0402010000000000ULL, 0x0201000000000000ULL, 0x0100000000000000ULL};

static inline uint64_t full_lines(uint64_t f, const uint64_t *lines) {
    uint64_t r = 0;
    for (int i = 0; i < 15; i++)
        if ((f & lines[i]) == lines[i]) r |= lines[i];
    return r;
}

static inline uint64_t stable_discs(uint64_t own, uint64_t other) {
    uint64_t filled = own | other;
    /* Per line: safe because full or because the line ends at the edge. */
    uint64_t h0 = full_rows(filled) | BB_FILE_A | BB_FILE_H;
    uint64_t v0 = full_cols(filled) | BB_RANK_1 | BB_RANK_8;
    uint64_t d0 = full_lines(filled, DIAG) | BB_BORDER;
    uint64_t a0 = full_lines(filled, ANTI) | BB_BORDER;
    uint64_t s = 0, prev;
    do {
        prev = s;
        uint64_t h = h0 | ((s << 1) & ~BB_FILE_A) | ((s >> 1) & ~BB_FILE_H);
        uint64_t v = v0 | (s << 8) | (s >> 8);
        uint64_t d = d0 | ((s << 7) & ~BB_FILE_H) | ((s >> 7) & ~BB_FILE_A);
        uint64_t a = a0 | ((s << 9) & ~BB_FILE_A) | ((s >> 9) & ~BB_FILE_H);
        s = own & h & v & d & a;
    } while (s != prev);
    return s;
}

#endif
