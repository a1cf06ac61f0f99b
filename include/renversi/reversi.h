/*
 * renversi — Reversi/Othello rules on 8x8 bitboards.
 *
 * Squares are 0..63, index = row*8 + col, with a1 = 0 in the top-left corner,
 * h1 = 7, a8 = 56 and h8 = 63 (rows are numbered top to bottom, see
 * docs/formats.md). Bit i of a bitboard is square i. RV_REVERSI_PASS (64)
 * stands for a pass wherever a move is expected.
 *
 * A position is a plain struct: the discs of the side to move ("player"), the
 * discs of the other side ("opponent") and which colour is to move. Nothing
 * here allocates or keeps state; every function may run in many threads.
 *
 * The two primitives rv_reversi_moves_bb() and rv_reversi_flips_bb() are
 * static inline plain C, so a search can inline them into its hot loop. When
 * such a loop is compiled for a wider instruction set (e.g. a function with
 * __attribute__((target("avx2"))) chosen once at run time), the compiler
 * inlines these into it and uses that instruction set; see also
 * src/reversi/bitboard_simd.h for explicit SIMD versions used by perft.
 */
#ifndef RENVERSI_REVERSI_H
#define RENVERSI_REVERSI_H

#include "renversi/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RV_REVERSI_PASS 64   /* the "square" of a pass */
#define RV_REVERSI_NOMOVE 65 /* "no move": e.g. the best move of a finished game */
#define RV_REVERSI_MAX_PLIES 128 /* a game never has more plies (60 moves + passes) */

/* A position: player = discs of the side to move, side = its colour. */
typedef struct rv_reversi_pos {
    uint64_t player, opponent;
    rv_color side;
} rv_reversi_pos;

/*
 * Rays: rv_reversi_rays[sq][d] is the set of squares strictly beyond sq in
 * direction d, up to the edge. d = 0..3 walk towards higher square indices
 * (+1 east, +7 south-west, +8 south, +9 south-east), d = 4..7 towards lower
 * ones (-1 west, -7 north-east, -8 north, -9 north-west). A const table.
 */
extern const uint64_t rv_reversi_rays[64][8];

/* ---------------------------------------------------------------- bit helpers */

static inline int rv_bb_count(uint64_t b) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(b);
#else
    int n = 0;
    for (; b; b &= b - 1) n++;
    return n;
#endif
}

/* Index of the lowest set bit; b must not be 0. */
static inline int rv_bb_first(uint64_t b) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(b);
#else
    int i = 0;
    while (!(b & 1)) b >>= 1, i++;
    return i;
#endif
}

/* Index of the highest set bit; b must not be 0. */
static inline int rv_bb_last(uint64_t b) {
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(b);
#else
    int i = 63;
    while (!(b >> i)) i--;
    return i;
#endif
}

/* ---------------------------------------------------------------- primitives */

/*
 * One direction of move generation: squares reached from P's discs by a run
 * of one or more of O's discs (mask O: O without the wrapping columns) and
 * then one more shift. The run is at most 6 long; the doubling steps cover it
 * in 4 shifts instead of 6.
 */
#define RV_BB_DIR_L_(P, mO, d, out)                                                        \
    do {                                                                                   \
        uint64_t f_ = (mO) & ((P) << (d));                                                 \
        f_ |= (mO) & (f_ << (d));                                                          \
        uint64_t p_ = (mO) & ((mO) << (d));                                                \
        f_ |= p_ & (f_ << (2 * (d)));                                                      \
        f_ |= p_ & (f_ << (2 * (d)));                                                      \
        (out) |= f_ << (d);                                                                \
    } while (0)
#define RV_BB_DIR_R_(P, mO, d, out)                                                        \
    do {                                                                                   \
        uint64_t f_ = (mO) & ((P) >> (d));                                                 \
        f_ |= (mO) & (f_ >> (d));                                                          \
        uint64_t p_ = (mO) & ((mO) >> (d));                                                \
        f_ |= p_ & (f_ >> (2 * (d)));                                                      \
        f_ |= p_ & (f_ >> (2 * (d)));                                                      \
        (out) |= f_ >> (d);                                                                \
    } while (0)

/* Legal moves (as a bitboard) for the side owning P against O. */
static inline uint64_t rv_reversi_moves_bb(uint64_t P, uint64_t O) {
    /* Horizontal and diagonal runs must not wrap from column h to a: they
     * may only pass through columns b..g. */
    const uint64_t mh = O & 0x7E7E7E7E7E7E7E7EULL;
    uint64_t m = 0;
    RV_BB_DIR_L_(P, mh, 1, m);
    RV_BB_DIR_R_(P, mh, 1, m);
    RV_BB_DIR_L_(P, O, 8, m);
    RV_BB_DIR_R_(P, O, 8, m);
    RV_BB_DIR_L_(P, mh, 7, m);
    RV_BB_DIR_R_(P, mh, 7, m);
    RV_BB_DIR_L_(P, mh, 9, m);
    RV_BB_DIR_R_(P, mh, 9, m);
    return m & ~(P | O);
}

/*
 * Discs of O that a disc played on the empty square sq by P would flip (0 if
 * the move is illegal). Along each ray the first square that is not O's
 * decides: if it is P's, everything between is flipped.
 */
static inline uint64_t rv_reversi_flips_bb(uint64_t P, uint64_t O, int sq) {
    const uint64_t *r = rv_reversi_rays[sq];
    uint64_t f = 0;
    for (int d = 0; d < 4; d++) {
        /* Towards higher indices the nearest square is the lowest bit. */
        uint64_t t = r[d] & ~O;
        uint64_t b = t & (0 - t);
        f |= r[d] & (b - 1) & (0 - (uint64_t)((b & P) != 0));
    }
    for (int d = 4; d < 8; d++) {
        /* Towards lower indices the nearest square is the highest bit. The
         * OR with 1 keeps the bit scan defined; when the ray holds no
         * blocker, h = 0 and square 0 is either off the ray or O's, so the
         * test on P & r fails as it should. */
        uint64_t t = (r[d] & ~O) | 1;
        int h = rv_bb_last(t);
        uint64_t above = ~1ULL << h; /* squares with index > h */
        f |= r[d] & above & (0 - (((P & r[d]) >> h) & 1));
    }
    return f;
}

/* ---------------------------------------------------------------- positions */

/* Sets *pos to the start position: white d4 e5, black d5 e4, black to move. */
void rv_reversi_init(rv_reversi_pos *pos);

/* Builds a position from black and white discs and the side to move.
 * Returns RV_EINVAL if the sets overlap or side is not black or white. */
rv_status rv_reversi_from_colors(rv_reversi_pos *pos, uint64_t black, uint64_t white,
                                 rv_color side);

/* Discs of a colour in a position. */
uint64_t rv_reversi_discs(const rv_reversi_pos *pos, rv_color c);

/* Legal moves of the side to move, as a bitboard (0: it must pass or the game is over). */
uint64_t rv_reversi_moves(const rv_reversi_pos *pos);

/* The colour on square sq (0..63): RV_BLACK, RV_WHITE or RV_EMPTY. */
rv_color rv_reversi_at(const rv_reversi_pos *pos, int sq);

/*
 * Plays sq (0..63, or RV_REVERSI_PASS) for the side to move. Fails, leaving
 * *pos unchanged, with RV_EOVER when neither side can move, RV_ERANGE for a
 * square outside 0..64, RV_EOCCUPIED for an occupied square, RV_EILLEGAL for
 * a move that flips nothing or a pass while a move exists.
 */
rv_status rv_reversi_play(rv_reversi_pos *pos, int sq);

/* True when neither side has a legal move (board full or both blocked). */
int rv_reversi_is_over(const rv_reversi_pos *pos);

/* True when the side to move has no move but the game goes on (it must pass). */
int rv_reversi_must_pass(const rv_reversi_pos *pos);

/* Number of discs of colour c (RV_EMPTY: empty squares). */
int rv_reversi_count(const rv_reversi_pos *pos, rv_color c);

/*
 * Final disc difference for the side to move, -64..64, with the empty squares
 * given to the side that has more discs (tournament scoring); 0 is a draw.
 * Meaningful at the end of a game; on any position it scores the discs as
 * they stand.
 */
int rv_reversi_score(const rv_reversi_pos *pos);

/* Winner by rv_reversi_score(): RV_BLACK, RV_WHITE, or RV_EMPTY for a draw. */
rv_color rv_reversi_winner(const rv_reversi_pos *pos);

/*
 * Zobrist hash of (player, opponent): the XOR of a fixed random key per
 * (square, owner) with "owner" relative to the side to move, so a search sees
 * the same key for the same situation whoever's colour it is. Const tables.
 */
uint64_t rv_reversi_hash(const rv_reversi_pos *pos);
uint64_t rv_reversi_hash_bb(uint64_t player, uint64_t opponent);

/* Zobrist key of square sq (0..63) owned by the player (who = 0) or opponent (1):
 * XORing keys updates a hash incrementally. */
uint64_t rv_reversi_zobrist(int who, int sq);

/*
 * Perft: leaves of the game tree DEPTH plies below pos, a pass being one ply.
 * alive_only = 0: a game that ended before DEPTH counts as one leaf at every
 * greater depth; alive_only = 1: it adds nothing (shared/spec/othello.md).
 * Uses the fastest code path this CPU supports (chosen once per call).
 */
uint64_t rv_reversi_perft(const rv_reversi_pos *pos, int depth, int alive_only);

/* Code paths for rv_reversi_perft_with(). */
typedef enum rv_reversi_simd {
    RV_REVERSI_SIMD_AUTO = 0, /* best this CPU supports (RV_REVERSI_SIMD env may lower it) */
    RV_REVERSI_SIMD_PLAIN = 1, /* portable C */
    RV_REVERSI_SIMD_AVX2 = 2,  /* x86-64 AVX2 + BMI2 */
    RV_REVERSI_SIMD_AVX512 = 3 /* x86-64 AVX-512 F/VL/CD */
} rv_reversi_simd;

/* The best code path this CPU (and build) supports; RV_REVERSI_SIMD_AUTO
 * never comes back. The environment variable RV_REVERSI_SIMD=plain|avx2|avx512
 * lowers the choice (for tests and comparisons); it never raises it. */
rv_reversi_simd rv_reversi_simd_best(void);

/* The best code path this CPU (and build) has, ignoring the environment. */
rv_reversi_simd rv_reversi_simd_cpu(void);

/* Name of a code path: "plain", "avx2", "avx512" ("auto" for AUTO). */
const char *rv_reversi_simd_name(rv_reversi_simd s);

/* Perft with a given code path. Returns RV_EINVAL if this CPU lacks it
 * (nothing written); otherwise stores the count in *nodes. */
rv_status rv_reversi_perft_with(const rv_reversi_pos *pos, int depth, int alive_only,
                                rv_reversi_simd simd, uint64_t *nodes);

/* ---------------------------------------------------------------- games */

/* A game: the start position, the moves played and every position so far,
 * so moves can be undone. A plain struct; init it before use. */
typedef struct rv_reversi_game {
    rv_reversi_pos start;
    int nplies;                                   /* moves played, passes included */
    uint8_t moves[RV_REVERSI_MAX_PLIES];          /* squares, RV_REVERSI_PASS for a pass */
    rv_reversi_pos history[RV_REVERSI_MAX_PLIES + 1]; /* history[i] = before move i */
} rv_reversi_game;

/* Starts a game from *start (NULL: the standard start position). */
void rv_reversi_game_init(rv_reversi_game *g, const rv_reversi_pos *start);

/* Plays sq; fails like rv_reversi_play() (and RV_ETOOLONG when full). */
rv_status rv_reversi_game_play(rv_reversi_game *g, int sq);

/* Takes back the last ply; RV_EEMPTY when none was played. */
rv_status rv_reversi_game_undo(rv_reversi_game *g);

/* The current position. */
const rv_reversi_pos *rv_reversi_game_position(const rv_reversi_game *g);

/* The moves played (count in *n). */
const uint8_t *rv_reversi_game_moves(const rv_reversi_game *g, int *n);

#ifdef __cplusplus
}
#endif
#endif
