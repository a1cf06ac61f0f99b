/*
 * The ray table of reversi.h, computed by the compiler: RAY_(s, dr, dc) is
 * the OR of the up-to-7 squares s + k*(dr,dc) still on the board (once a
 * step leaves the board the later ones do too, so no ray wraps).
 */
#include "renversi/reversi.h"

#define ON_(r, c) ((unsigned)(r) < 8u && (unsigned)(c) < 8u)
#define SQ_(r, c) (ON_(r, c) ? 1ULL << (((r) * 8 + (c)) & 63) : 0ULL)
#define STEP_(s, dr, dc, k) SQ_((s) / 8 + (k) * (dr), (s) % 8 + (k) * (dc))
#define RAY_(s, dr, dc)                                                                    \
    (STEP_(s, dr, dc, 1) | STEP_(s, dr, dc, 2) | STEP_(s, dr, dc, 3) | STEP_(s, dr, dc, 4) | \
     STEP_(s, dr, dc, 5) | STEP_(s, dr, dc, 6) | STEP_(s, dr, dc, 7))
#define RAYS_(s)                                                                           \
    {RAY_(s, 0, 1),  RAY_(s, 1, -1),  RAY_(s, 1, 0),  RAY_(s, 1, 1),                        \
     RAY_(s, 0, -1), RAY_(s, -1, 1), RAY_(s, -1, 0), RAY_(s, -1, -1)}
#define ROW_(b)                                                                            \
    RAYS_(b + 0), RAYS_(b + 1), RAYS_(b + 2), RAYS_(b + 3), RAYS_(b + 4), RAYS_(b + 5),     \
        RAYS_(b + 6), RAYS_(b + 7)

const uint64_t rv_reversi_rays[64][8] = {ROW_(0),  ROW_(8),  ROW_(16), ROW_(24),
                                         ROW_(32), ROW_(40), ROW_(48), ROW_(56)};
