/*
 * Internal declarations of the Othello engine (not public API): the engine
 * struct, the transposition table, the evaluation, the endgame solver and the
 * midgame search.  Boards are (P, O) bitboards: P the side to move, O the
 * other side; bit i is square i (a1 = 0, h8 = 63).
 */
#ifndef RV_REVERSI_AI_INTERNAL_H
#define RV_REVERSI_AI_INTERNAL_H

#include "renversi/reversi_ai.h"

#include <stdatomic.h>
#include <stdint.h>

/* ------------------------------------------------------------ bit helpers */

static inline int bit_count(uint64_t b) { return __builtin_popcountll(b); }
static inline int first_bit(uint64_t b) { return __builtin_ctzll(b); }

#define BB_CORNERS 0x8100000000000081ULL
#define BB_FILE_A 0x0101010101010101ULL
#define BB_FILE_H 0x8080808080808080ULL
#define BB_RANK_1 0x00000000000000FFULL
#define BB_RANK_8 0xFF00000000000000ULL
#define BB_BORDER (BB_FILE_A | BB_FILE_H | BB_RANK_1 | BB_RANK_8)
/* X-squares (diagonally next to a corner) and C-squares (beside a corner). */
#define BB_X_SQUARES 0x0042000000004200ULL
#define BB_C_SQUARES 0x4281000000008142ULL

/* The discs of O that can never be flipped any more (a safe subset). */
uint64_t rv_ai_stable(uint64_t P, uint64_t O);

/* Squares next to any disc of b (8 directions, no wrap-around). */
static inline uint64_t bb_neighbours(uint64_t b) {
    uint64_t h = ((b << 1) & ~BB_FILE_A) | ((b >> 1) & ~BB_FILE_H);
    uint64_t hb = h | b;
    return h | (hb << 8) | (hb >> 8);
}

/* ------------------------------------------------- transposition table */

/*
 * One entry: the full position as the key (no false hits), score bounds in
 * the unit of the search that stored them, the depth it was searched to and
 * the best move.  kind tells the endgame solver's exact entries (disc units)
 * from the midgame search's (centidisc units) so they never mix.
 */
typedef struct tt_entry {
    uint64_t player, opponent;
    int16_t lower, upper;
    uint8_t depth, move, kind, date;
} tt_entry;

enum { TT_KIND_EMPTY = 0, TT_KIND_EXACT = 1, TT_KIND_MID = 2 };

/* Entries a bucket (consecutive entries, the first at a multiple of
 * TT_WAYS): a position may sit in any entry of its bucket; a new one
 * replaces the bucket's oldest or shallowest entry (tt_store). */
#ifndef TT_WAYS
#define TT_WAYS 2
#endif

typedef struct tt_table {
    tt_entry *entries;
    uint64_t mask; /* number of entries - 1 (a power of two) */
    uint8_t date;
} tt_table;

int tt_init(tt_table *t, size_t bytes);
void tt_free(tt_table *t);
void tt_clear(tt_table *t);
void tt_store(tt_table *t, uint64_t P, uint64_t O, int kind, int depth, int lower, int upper,
              int move);
/* tt_store with (P, O)'s index (tt_index) already known. */
void tt_store_at(tt_table *t, uint64_t i, uint64_t P, uint64_t O, int kind, int depth, int lower,
                 int upper, int move);

static inline uint64_t tt_hash(uint64_t P, uint64_t O) {
    uint64_t h = P * 0x9E3779B97F4A7C15ULL ^ (O + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

/* The index of (P, O)'s entry (its bucket's, with two ways): a node that
 * prefetches, probes and stores its own position hashes it once. */
static inline uint64_t tt_index(const tt_table *t, uint64_t P, uint64_t O) {
    return tt_hash(P, O) & t->mask;
}

/* Finds the entry of (P, O, kind), i its index; NULL if absent.  Inline: the
 * solver and the midgame search probe at most of their nodes, and a call
 * spilled their registers around a load that usually waits for memory anyway. */
static inline const tt_entry *tt_probe_at(const tt_table *t, uint64_t i, uint64_t P, uint64_t O,
                                          int kind) {
#if TT_WAYS == 2
    const tt_entry *e = &t->entries[i];
    if (e->player == P && e->opponent == O && e->kind == kind) return e;
    e = &t->entries[i ^ 1];
    if (e->player == P && e->opponent == O && e->kind == kind) return e;
#else
    const tt_entry *b = &t->entries[i & ~(uint64_t)(TT_WAYS - 1)];
    for (int k = 0; k < TT_WAYS; k++)
        if (b[k].player == P && b[k].opponent == O && b[k].kind == kind) return &b[k];
#endif
    return NULL;
}

/* Finds the entry of (P, O, kind); NULL if absent. */
static inline const tt_entry *tt_probe(const tt_table *t, uint64_t P, uint64_t O, int kind) {
    return tt_probe_at(t, tt_index(t, P, O), P, O, kind);
}

/* Starts loading the bucket of index i into the cache (a probe follows).
 * always_inline: gcc 12 drops a call of a plain inline function whose only
 * effect is a prefetch. */
static inline __attribute__((always_inline)) void tt_prefetch_at(const tt_table *t, uint64_t i) {
    const tt_entry *e = &t->entries[i & ~(uint64_t)(TT_WAYS - 1)];
    __builtin_prefetch(e);
    __builtin_prefetch((const char *)(e + TT_WAYS) - 1);
}

/* Starts loading the bucket of (P, O) into the cache. */
static inline __attribute__((always_inline)) void tt_prefetch(const tt_table *t, uint64_t P,
                                                              uint64_t O) {
    tt_prefetch_at(t, tt_index(t, P, O));
}

/* ---------------------------------------------------------- the engine */

struct rv_reversi_ai {
    tt_table tt;
    /* Stop requests by number (race-free, see rv_reversi_ai_stop_think): thinks
     * begun so far, the highest number asked to stop, the running think's number. */
    atomic_uint_least64_t thinks;
    atomic_uint_least64_t stop_upto;
    uint64_t think_no;
    int contempt;         /* centidiscs */
    uint64_t nodes;       /* counter of the running search */
    uint64_t deadline_ns; /* 0 = none */
    uint64_t node_limit;  /* stop once nodes reaches it; 0 = none */
    int check_counter;    /* poll the clock every so many nodes */
    int aborted;          /* the running search was cut short */
    int simd;             /* rv_reversi_simd code path of the solver */
    int eval_kind;        /* rv_reversi_eval of the midgame search */
    int probcut;          /* Multi-ProbCut in the midgame search (pattern evaluation only) */
    double pc_t;          /* its confidence in sigmas: play's, or the solver's in rv_ai_mid_search */
    int lmr;              /* late-move reductions in the midgame search: in play only (think) */
    int eg_sel;           /* endgame pass: 0 exact, k > 0 selective (ProbCut at level k, solve.c) */
    int cpu_clock;        /* time limits count the searching thread's CPU time */
    const unsigned char *pat_w; /* the pattern weights: rv_pat_weight_bytes or pat_own */
    unsigned char *pat_own;     /* the weights in use on huge pages (ai.c), or NULL */
};

/* True when the running search must stop (stop request or time out). */
int rv_ai_should_stop(rv_reversi_ai *ai);

/* Numbers a think/eval_moves/solve call for stop requests: first thing in each. */
void rv_ai_enter(rv_reversi_ai *ai);

/* The clock of the engine's time limits, in ns: monotonic wall time, or the
 * calling thread's CPU time (rv_reversi_ai_set_cpu_clock). */
uint64_t rv_ai_now_ns(const rv_reversi_ai *ai);

/* Starts a search: clears the counters, sets the deadline, and no node limit
 * (the caller sets node_limit after it). */
void rv_ai_begin(rv_reversi_ai *ai, int64_t time_ms);

/* A usable position: not NULL, no square holding two discs. */
int rv_ai_valid_pos(const rv_reversi_pos *pos);

/* ------------------------------------------------------------ evaluation */

/* Heuristic evaluation of (P, O) for P to move, in centidiscs (within
 * +-5000), with the engine's evaluation. */
int rv_ai_eval(const rv_reversi_ai *ai, uint64_t P, uint64_t O);

/* A pattern evaluation (1/RV_PAT_SCALE discs) in clamped centidiscs. */
int rv_ai_pattern_centi(int v);

/* Midgame PVS of (P, O) to depth plies in centidiscs, at the solver's
 * ProbCut confidence and without reductions (search.c). */
int rv_ai_mid_search(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int depth);

/* ------------------------------------------------------ endgame solver */

/*
 * Exact negamax score of (P, O) for P (final disc difference, empties to the
 * winner) within [alpha, beta] (fail-soft).  *best gets a best move or
 * RV_REVERSI_PASS / RV_REVERSI_AI_NONE.  Sets ai->aborted if stopped.
 */
int rv_ai_endgame(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int *best);

/* The exact score of (P, O) (*move a best move), searched first in a narrow
 * window around a shallow midgame guess (solve.c).  Sets ai->aborted if
 * stopped. */
int rv_ai_solve_exact(rv_reversi_ai *ai, uint64_t P, uint64_t O, int *move);

/* Final score of a finished game (or of any position counted as finished). */
static inline int final_score(uint64_t P, uint64_t O) {
    int p = bit_count(P), o = bit_count(O), e = 64 - p - o;
    if (p > o) return p - o + e;
    if (p < o) return p - o - e;
    return 0;
}

#endif
