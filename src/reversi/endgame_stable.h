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
 *
 * On the border the fixpoint grows from the corners one disc per round
 * (in the FFO endgames most calls took 6-8 rounds), so it starts instead
 * from the border runs that a corner holds, computed at once (edge_runs);
 * the rounds then add the rest, with the same result.
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
 * The squares whose diagonal line of step s is full (s = 7: the h1-a8
 * direction, s = 9: a1-h8), by doubling: up_k(x) is the AND of f over x and
 * the next 2^k - 1 squares of the line upwards (or up to the board's edge),
 * so up_{k+1}(x) = up_k(x) & up_k(x + 2^k steps), except where the edge is
 * fewer than 2^k steps away, whose up_k already reaches it.  edge_up is the
 * set of squares one step from the upper edge (the top rank and the file the
 * line leaves by); the squares fewer than 2 and 4 steps away follow from it
 * by the same doubling (a square is 2j steps short when it or the square j
 * steps further is j short; what a shift wraps round to the other file is in
 * the set already).  Likewise downwards with edge_down.  Three steps each way
 * cover the longest line (8 squares); a square's line is full when both ways
 * are.  The masks fold to constants where s and the edges are constants.
 */
static inline uint64_t full_diag(uint64_t f, int s, uint64_t edge_up, uint64_t edge_down) {
    uint64_t up2 = edge_up | (edge_up >> s), up4 = up2 | (up2 >> 2 * s);
    uint64_t dn2 = edge_down | (edge_down << s), dn4 = dn2 | (dn2 << 2 * s);
    uint64_t u = f & ((f >> s) | edge_up);
    u &= (u >> 2 * s) | up2;
    u &= (u >> 4 * s) | up4;
    uint64_t d = f & ((f << s) | edge_down);
    d &= (d << 2 * s) | dn2;
    d &= (d << 4 * s) | dn4;
    return u & d;
}

static inline uint64_t full_diag7(uint64_t f) {
    return full_diag(f, 7, BB_RANK_8 | BB_FILE_A, BB_RANK_1 | BB_FILE_H);
}

static inline uint64_t full_diag9(uint64_t f) {
    return full_diag(f, 9, BB_RANK_8 | BB_FILE_H, BB_RANK_1 | BB_FILE_A);
}

/* x shifted by s squares: left for s > 0, right for s < 0. */
static inline uint64_t shift_by(uint64_t x, int s) { return s > 0 ? x << s : x >> -s; }

/* The squares of p joined to g along direction s through p: g filled into p
 * by shifts of s, 2s and 4s; p must leave out the squares a shift would wrap
 * onto.  Inlined with s constant, the shifts fold to constants. */
static inline uint64_t fill_run(uint64_t g, uint64_t p, int s) {
    g |= p & shift_by(g, s);
    p &= shift_by(p, s);
    g |= p & shift_by(g, 2 * s);
    p &= shift_by(p, 2 * s);
    return g | (p & shift_by(g, 4 * s));
}

/* The own discs on the border joined to an own corner along the border by
 * own discs.  Each is safe along the border by its neighbour towards the
 * corner and along the other lines by the edge, so all are in the least
 * fixpoint of stable_discs. */
static inline uint64_t edge_runs(uint64_t own) {
    uint64_t c = own & BB_CORNERS;
    uint64_t ph = own & (BB_RANK_1 | BB_RANK_8), pv = own & (BB_FILE_A | BB_FILE_H);
    return fill_run(c, ph & ~BB_FILE_A, 1) | fill_run(c, ph & ~BB_FILE_H, -1) | fill_run(c, pv, 8) |
           fill_run(c, pv, -8);
}

static inline uint64_t stable_discs(uint64_t own, uint64_t other) {
    uint64_t filled = own | other;
    /* Per line: safe because full or because the line ends at the edge. */
    uint64_t h0 = full_rows(filled) | BB_FILE_A | BB_FILE_H;
    uint64_t v0 = full_cols(filled) | BB_RANK_1 | BB_RANK_8;
    uint64_t d0 = full_diag7(filled) | BB_BORDER;
    uint64_t a0 = full_diag9(filled) | BB_BORDER;
    uint64_t s = edge_runs(own), prev;
    do {
        prev = s;
        uint64_t h = h0 | ((s << 1) & ~BB_FILE_A) | ((s >> 1) & ~BB_FILE_H);
        uint64_t v = v0 | (s << 8) | (s >> 8);
        uint64_t d = d0 | ((s << 7) & ~BB_FILE_H) | ((s >> 7) & ~BB_FILE_A);
        uint64_t a = a0 | ((s << 9) & ~BB_FILE_A) | ((s >> 9) & ~BB_FILE_H);
        s |= own & h & v & d & a; /* s only grows: the start is below the fixpoint */
    } while (s != prev);
    return s;
}

#endif
