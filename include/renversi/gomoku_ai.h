/*
 * renversi — Gomoku / Renju engine: threat-aware alpha-beta search, VCF
 * (victory by continuous fours) and VCT (fours and threes) threat solvers.
 *
 * One think: a five if there is one, else the side to move's VCF, then its VCT,
 * then iterative-deepening PVS; the chosen move is finally checked against the
 * opponent's VCF/VCT (docs/match.md lists what each level spends).
 *
 * An rv_gomoku_ai is an opaque engine that owns its transposition table and
 * its pattern tables; there are no globals, so any number of engines can run
 * in one process (one thread per engine at a time). The position to think
 * about is an rv_gomoku (gomoku.h): its rule variant and size are used as is,
 * for all rule variants and sizes 5..26.
 *
 * Guarantees: a move returned by rv_gomoku_ai_think is always on the board,
 * empty, and — under Renju, when black is to move — not a forbidden point.
 */
#ifndef RENVERSI_GOMOKU_AI_H
#define RENVERSI_GOMOKU_AI_H

#include "renversi/common.h"
#include "renversi/gomoku.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Engine levels: 1 (weakest, instant) .. 20 (strongest); RV_GOMOKU_AI_DEFAULT_LEVEL by default. */
#define RV_GOMOKU_AI_MIN_LEVEL 1
#define RV_GOMOKU_AI_MAX_LEVEL 20
#define RV_GOMOKU_AI_DEFAULT_LEVEL 10

/* Scores: |eval| >= RV_GOMOKU_AI_WIN_MIN means a proven win (> 0) or loss (< 0). */
#define RV_GOMOKU_AI_WIN 30000
#define RV_GOMOKU_AI_WIN_MIN 29000

typedef struct rv_gomoku_ai rv_gomoku_ai; /* opaque; owns its TT; no globals */

/*
 * A new engine with a transposition table of at most tt_bytes (0 = a default of
 * 16 MB; a table is at least 64 KB). NULL when out of memory.
 */
rv_gomoku_ai *rv_gomoku_ai_new(size_t tt_bytes);

/* Frees the engine (NULL is fine). */
void rv_gomoku_ai_free(rv_gomoku_ai *ai);

/* Forgets everything learned (TT, history), e.g. before a new game. */
void rv_gomoku_ai_clear(rv_gomoku_ai *ai);

/*
 * Limits of one think. level 1..20 picks depth and time from a table (see
 * docs/match.md); level 0 means "use depth / time_ms / nodes as given", where
 * 0 means no limit for each (at least one should be set). With a level, a
 * non-zero depth, time_ms or nodes further caps the search.
 */
typedef struct rv_gomoku_limits {
    int level;       /* 1..20, 0 = use depth/time/nodes */
    int depth;       /* maximum nominal depth in plies, 0 = no limit */
    int64_t time_ms; /* per move, 0 = by level (no limit with level 0) */
    int64_t nodes;   /* maximum nodes, 0 = no limit */
    /* with time_ms as a target (a match clock's share), the most this move may take when
       the position needs it; 0 = time_ms is the move's own time, which a think with no
       node limit spends nearly all (time not used is not saved for later) */
    int64_t time_max_ms;
} rv_gomoku_limits;

/* What a think found. */
typedef struct rv_gomoku_ai_info {
    int x, y;       /* the move: column from the left, row from the top, from 0 */
    int eval;       /* for the side to move; +-RV_GOMOKU_AI_WIN-ish = proven win/loss */
    int depth;      /* deepest completed iteration */
    uint64_t nodes; /* nodes searched (alpha-beta + threat search) */
    double seconds; /* wall-clock time spent */
    int win_found;  /* 1: a forced win was proven for the side to move, -1: a forced loss */
} rv_gomoku_ai_info;

/*
 * Chooses a move for the side to move in g. RV_OK and *out filled; RV_EOVER when
 * the game has ended or the board is full; RV_EINVAL for a NULL argument or a
 * bad level. The move is never occupied, off the board or (black, Renju)
 * forbidden; when black has only forbidden points left it still returns RV_EOVER.
 * Not thread-safe for one engine, except rv_gomoku_ai_stop.
 */
rv_status rv_gomoku_ai_think(rv_gomoku_ai *ai, const rv_gomoku *g, const rv_gomoku_limits *lim,
                             rv_gomoku_ai_info *out);

/*
 * Asks the think running in another thread to return as soon as possible with the best
 * move found so far. Thread-safe; a think started after the call runs normally.
 */
void rv_gomoku_ai_stop(rv_gomoku_ai *ai);

/*
 * Race-free stopping of a think handed to another thread. Each think gets the next
 * number when it is called; rv_gomoku_ai_next_think() is the number the next one will
 * get (ask before handing the work over, while no other think is called), and
 * rv_gomoku_ai_stop_think() stops that think whenever it is called: before it began
 * (it then returns at once with a legal move), while it runs, or after (no effect on
 * later ones). Both are thread-safe.
 */
uint64_t rv_gomoku_ai_next_think(rv_gomoku_ai *ai);
void rv_gomoku_ai_stop_think(rv_gomoku_ai *ai, uint64_t think);

/* ------------------------------------------------------------------ VCF solver */

#define RV_GOMOKU_VCF_MAX_MOVES 226

/* A winning continuous-four sequence: both sides' moves, attacker first. */
typedef struct rv_gomoku_vcf_result {
    int found;  /* 1 when a win was proven */
    int nmoves; /* moves in the sequence (attacker's and defender's, in order) */
    uint16_t x[RV_GOMOKU_VCF_MAX_MOVES], y[RV_GOMOKU_VCF_MAX_MOVES];
    uint64_t nodes; /* nodes searched */
} rv_gomoku_vcf_result;

/*
 * Looks for a VCF for the side to move in g: a sequence of fours (each forcing
 * the only defence) ending in a five, or — Renju, white attacking — in black having
 * only a forbidden point to defend with. The sequence ends with the attacker's
 * winning move (the five, or the four black cannot legally block). max_depth caps
 * the attacker's moves (0 = 40), max_nodes the work (0 = 10 million). RV_OK with
 * out->found 0 when no VCF exists within the limits; RV_EOVER when the game has
 * ended; RV_ENOMEM.
 */
rv_status rv_gomoku_vcf(const rv_gomoku *g, int max_depth, uint64_t max_nodes,
                        rv_gomoku_vcf_result *out);

#ifdef __cplusplus
}
#endif
#endif
