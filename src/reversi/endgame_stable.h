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

/*
 * The squares whose diagonal (step 7: h1-a8 direction) or anti-diagonal
 * (step 9: a1-h8 direction) is full, by doubling: up_k(x) is the AND of f
 * over x and the next 2^k - 1 squares of the line (or up to the board's
 * edge), so up_{k+1}(x) = up_k(x) & up_k(x + 2^k steps), except where the
 * edge is fewer than 2^k steps away (the masks: squares whose distance to
 * the edge in that direction is < 1, 2, 4), whose up_k already reaches it.
 * Three steps each way cover the longest line (8 squares); a square's line
 * is full when both ways are.
 */
static inline uint64_t full_diag7(uint64_t f) {
    uint64_t u = f & ((f >> 7) | 0xFF01010101010101ULL);
    u &= (u >> 14) | 0xFFFF030303030303ULL;
    u &= (u >> 28) | 0xFFFFFFFF0F0F0F0FULL;
    uint64_t d = f & ((f << 7) | 0x80808080808080FFULL);
    d &= (d << 14) | 0xC0C0C0C0C0C0FFFFULL;
    d &= (d << 28) | 0xF0F0F0F0FFFFFFFFULL;
    return u & d;
}

static inline uint64_t full_diag9(uint64_t f) {
    uint64_t u = f & ((f >> 9) | 0xFF80808080808080ULL);
    u &= (u >> 18) | 0xFFFFC0C0C0C0C0C0ULL;
    u &= (u >> 36) | 0xFFFFFFFFF0F0F0F0ULL;
    uint64_t d = f & ((f << 9) | 0x01010101010101FFULL);
    d &= (d << 18) | 0x030303030303FFFFULL;
    d &= (d << 36) | 0x0F0F0F0FFFFFFFFFULL;
    return u & d;
}

static inline uint64_t stable_discs(uint64_t own, uint64_t other) {
    uint64_t filled = own | other;
    /* Per line: safe because full or because the line ends at the edge. */
    uint64_t h0 = full_rows(filled) | BB_FILE_A | BB_FILE_H;
    uint64_t v0 = full_cols(filled) | BB_RANK_1 | BB_RANK_8;
    uint64_t d0 = full_diag7(filled) | BB_BORDER;
    uint64_t a0 = full_diag9(filled) | BB_BORDER;
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
