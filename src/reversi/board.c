/* Reversi positions: start, play, pass, game end, counts, score, hash. */
#include <assert.h>

#include "renversi/reversi.h"
#include "reversi/zobrist.h"

#define SQ_D4 27
#define SQ_E4 28
#define SQ_D5 35
#define SQ_E5 36

void rv_reversi_init(rv_reversi_pos *pos) {
    /* spec/othello.md: white on d4 and e5, black on d5 and e4, black first. */
    pos->player = (1ULL << SQ_D5) | (1ULL << SQ_E4);
    pos->opponent = (1ULL << SQ_D4) | (1ULL << SQ_E5);
    pos->side = RV_BLACK;
}

rv_status rv_reversi_from_colors(rv_reversi_pos *pos, uint64_t black, uint64_t white,
                                 rv_color side) {
    if ((black & white) != 0 || (side != RV_BLACK && side != RV_WHITE)) return RV_EINVAL;
    pos->player = side == RV_BLACK ? black : white;
    pos->opponent = side == RV_BLACK ? white : black;
    pos->side = side;
    return RV_OK;
}

uint64_t rv_reversi_discs(const rv_reversi_pos *pos, rv_color c) {
    if (c == RV_EMPTY) return ~(pos->player | pos->opponent);
    return c == pos->side ? pos->player : pos->opponent;
}

uint64_t rv_reversi_moves(const rv_reversi_pos *pos) {
    return rv_reversi_moves_bb(pos->player, pos->opponent);
}

rv_color rv_reversi_at(const rv_reversi_pos *pos, int sq) {
    if (sq < 0 || sq > 63) return RV_EMPTY;
    uint64_t b = 1ULL << sq;
    if (pos->player & b) return pos->side;
    if (pos->opponent & b) return rv_opponent(pos->side);
    return RV_EMPTY;
}

int rv_reversi_is_over(const rv_reversi_pos *pos) {
    return rv_reversi_moves_bb(pos->player, pos->opponent) == 0 &&
           rv_reversi_moves_bb(pos->opponent, pos->player) == 0;
}

int rv_reversi_must_pass(const rv_reversi_pos *pos) {
    return rv_reversi_moves_bb(pos->player, pos->opponent) == 0 &&
           rv_reversi_moves_bb(pos->opponent, pos->player) != 0;
}

rv_status rv_reversi_play(rv_reversi_pos *pos, int sq) {
    if (sq < 0 || sq > RV_REVERSI_PASS) return RV_ERANGE;
    uint64_t moves = rv_reversi_moves_bb(pos->player, pos->opponent);
    if (moves == 0 && rv_reversi_moves_bb(pos->opponent, pos->player) == 0) return RV_EOVER;
    if (sq == RV_REVERSI_PASS) {
        /* spec/othello.md: a player with a legal move may not pass. */
        if (moves != 0) return RV_EILLEGAL;
        uint64_t t = pos->player;
        pos->player = pos->opponent;
        pos->opponent = t;
        pos->side = rv_opponent(pos->side);
        return RV_OK;
    }
    uint64_t b = 1ULL << sq;
    if ((pos->player | pos->opponent) & b) return RV_EOCCUPIED;
    if (!(moves & b)) return RV_EILLEGAL;
    uint64_t f = rv_reversi_flips_bb(pos->player, pos->opponent, sq);
    assert(f != 0);
    uint64_t p = pos->player | f | b;
    pos->player = pos->opponent & ~f;
    pos->opponent = p;
    pos->side = rv_opponent(pos->side);
    return RV_OK;
}

int rv_reversi_count(const rv_reversi_pos *pos, rv_color c) {
    return rv_bb_count(rv_reversi_discs(pos, c));
}

int rv_reversi_score(const rv_reversi_pos *pos) {
    int p = rv_bb_count(pos->player), o = rv_bb_count(pos->opponent);
    int e = 64 - p - o;
    /* Tournament scoring: the empty squares go to the winner. */
    if (p > o) return p - o + e;
    if (p < o) return p - o - e;
    return 0;
}

rv_color rv_reversi_winner(const rv_reversi_pos *pos) {
    int s = rv_reversi_score(pos);
    if (s == 0) return RV_EMPTY;
    return s > 0 ? pos->side : rv_opponent(pos->side);
}

uint64_t rv_reversi_hash_bb(uint64_t player, uint64_t opponent) {
    const uint64_t(*t)[256] = rv_reversi_zobrist_bytes;
    uint64_t h = 0;
    for (int k = 0; k < 8; k++) {
        h ^= t[k][(player >> (8 * k)) & 0xFF];
        h ^= t[8 + k][(opponent >> (8 * k)) & 0xFF];
    }
    return h;
}

uint64_t rv_reversi_hash(const rv_reversi_pos *pos) {
    return rv_reversi_hash_bb(pos->player, pos->opponent);
}

uint64_t rv_reversi_zobrist(int who, int sq) {
    if (who < 0 || who > 1 || sq < 0 || sq > 63) return 0;
    return rv_reversi_zobrist_keys[who][sq];
}
