/* The built-in opening sets of `renversi match`. */
#include "match/match.h"

int match_builtin_openings(int size, rv_gomoku_point (*out)[3], int max) {
    /* the centre, white's second stone beside it (direct) or diagonal (indirect), and
       every third black stone within two points, one of each mirror pair: the 26
       classical three-stone openings */
    int c = size / 2, n = 0;
    for (int kind = 0; kind < 2; kind++) {
        int wx = kind ? 1 : 0, wy = -1; /* direct: h9, indirect: i9 (y grows downwards) */
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                if ((dx == 0 && dy == 0) || (dx == wx && dy == wy)) continue;
                /* keep one of each pair mirrored across the axis through the first two stones */
                if (kind == 0 && dx < 0) continue;
                if (kind == 1 && dx < -dy) continue;
                if (n < max) {
                    out[n][0] = (rv_gomoku_point){c, c};
                    out[n][1] = (rv_gomoku_point){c + wx, c + wy};
                    out[n][2] = (rv_gomoku_point){c + dx, c + dy};
                }
                n++;
            }
    }
    return n;
}

int match_reversi_openings(uint8_t (*out)[4], int max) {
    rv_reversi_pos p0;
    rv_reversi_init(&p0);
    int n = 0, f5 = 4 * 8 + 5; /* f5: column f, row 5 from the top */
    rv_reversi_pos p1 = p0;
    if (rv_reversi_play(&p1, f5) != RV_OK) return 0;
    for (uint64_t m2 = rv_reversi_moves(&p1); m2; m2 &= m2 - 1) {
        rv_reversi_pos p2 = p1;
        int s2 = rv_bb_first(m2);
        rv_reversi_play(&p2, s2);
        for (uint64_t m3 = rv_reversi_moves(&p2); m3; m3 &= m3 - 1) {
            rv_reversi_pos p3 = p2;
            int s3 = rv_bb_first(m3);
            rv_reversi_play(&p3, s3);
            for (uint64_t m4 = rv_reversi_moves(&p3); m4; m4 &= m4 - 1) {
                if (n < max) {
                    out[n][0] = (uint8_t)f5, out[n][1] = (uint8_t)s2;
                    out[n][2] = (uint8_t)s3, out[n][3] = (uint8_t)rv_bb_first(m4);
                }
                n++;
            }
        }
    }
    return n < max ? n : max;
}
