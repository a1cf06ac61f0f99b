/*
 * renversi — the Othello engine: midgame search and the exact endgame solver.
 *
 * An rv_reversi_ai is an opaque engine that owns its transposition table.
 * There is no global state: a program may run any number of engines at once,
 * one per thread (a single engine is not re-entrant, except for
 * rv_reversi_ai_stop(), which any thread may call at any time).
 *
 * Squares are those of renversi/reversi.h: 0..63 with a1 = 0 (top-left),
 * index row * 8 + col, and RV_REVERSI_PASS for a pass.
 */
#ifndef RENVERSI_REVERSI_AI_H
#define RENVERSI_REVERSI_AI_H

#include "renversi/common.h"
#include "renversi/reversi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The "move" of a finished game: neither side can move. */
#define RV_REVERSI_AI_NONE (-1)

/* Strongest and weakest playing levels. */
#define RV_REVERSI_AI_LEVEL_MIN 1
#define RV_REVERSI_AI_LEVEL_MAX 20

typedef struct rv_reversi_ai rv_reversi_ai;

/*
 * A new engine with a transposition table of about tt_bytes bytes (0 picks
 * the default, 64 MB; small values are rounded up to a minimum of 64 kB).
 * Returns NULL when out of memory.
 */
rv_reversi_ai *rv_reversi_ai_new(size_t tt_bytes);

/* Frees the engine and its table (NULL is allowed). */
void rv_reversi_ai_free(rv_reversi_ai *ai);

/* Forgets everything learned (clears the transposition table). */
void rv_reversi_ai_clear(rv_reversi_ai *ai);

/*
 * Draw contempt in centidiscs, from the engine's point of view: a draw is
 * scored as -contempt for the side to move at the root (0 by default).
 * Only the midgame search uses it; exact solves report true scores.
 */
void rv_reversi_ai_set_contempt(rv_reversi_ai *ai, int contempt_centi);

/* The heuristic evaluation of the midgame search. */
typedef enum rv_reversi_eval {
    RV_REVERSI_EVAL_PATTERN = 0, /* fitted pattern weights (the default, strongest) */
    RV_REVERSI_EVAL_SIMPLE = 1   /* hand-weighted mobility, corners, stability... */
} rv_reversi_eval;

/* Chooses the evaluation (RV_EINVAL for an unknown one); exact solves are
 * not affected, except for their speed. */
rv_status rv_reversi_ai_set_eval(rv_reversi_ai *ai, rv_reversi_eval eval);

/*
 * Replaces the fitted evaluation's weights by those of a weights file image
 * of len bytes (the format of src/reversi/eval_weights.bin, written by
 * `rv-train fit`; docs/engine-othello.md), which is copied.  data NULL
 * restores the built-in weights.  RV_EINVAL (nothing changed) when the data is
 * not a weights file for this build's patterns, RV_ENOMEM when out of memory.
 * For comparing weights: the search's forward pruning stays calibrated for
 * the built-in ones.
 */
rv_status rv_reversi_ai_set_weights(rv_reversi_ai *ai, const void *data, size_t len);
/* Switches the midgame search's forward pruning (Multi-ProbCut, calibrated
 * for the pattern evaluation) on (the default) or off for
 * rv_reversi_ai_think().  rv_reversi_ai_eval_moves() never prunes; exact
 * solves stay exact either way. */
void rv_reversi_ai_set_probcut(rv_reversi_ai *ai, int on);

/* Makes the time limits of this engine's searches count the CPU time of the
 * thread that searches (on) instead of the wall clock (off, the default), so
 * a time budget means the same on a busy machine as on an idle one. */
void rv_reversi_ai_set_cpu_clock(rv_reversi_ai *ai, int on);

/* The time plan of a game clock: milliseconds (at least 10) to give the next
 * move when left_ms remain on the mover's clock, inc_ms come back after each
 * move and the board has empties empty squares.  A budget given to
 * rv_reversi_ai_think() as time_ms is spent only in part (about 0.6 of it on
 * average: an iteration is started only when it is expected to finish), and
 * the plan counts on that, so a game spends most of its clock.  `renversi
 * nboard` (GGF clock) and `renversi match --tc-game` both ask it. */
int64_t rv_reversi_clock_budget_ms(int64_t left_ms, int64_t inc_ms, int empties);

/*
 * How long / how deep to think.  level 1..20 picks a depth (and an exact
 * endgame solve near the end) like a human-facing difficulty setting; level 0
 * means "use depth, time_ms and nodes": depth 1..60 (0 = no depth limit),
 * time_ms the wall-clock budget (0 = none) and nodes a budget of positions
 * visited (0 = none).  With level > 0 a non-zero time_ms or nodes still caps
 * the search.  At least one of level, depth, time_ms and nodes must be
 * non-zero.
 *
 * A node budget is a clock that counts nodes: the search stops when it is
 * spent and keeps the best move found so far (the midgame search stops at
 * once, the exact solver at its next check of the clock, which it makes every
 * few thousand nodes, so a solve can run over), and without time_ms it plans
 * like a time budget of one millisecond per RV_REVERSI_PLAN_NODES_PER_MS
 * nodes (which endgames it solves exactly or win/draw/loss, which iterations
 * it starts).  The same position, engine state and limits then give the same
 * move on any machine whatever its speed or load.
 */
typedef struct rv_reversi_limits {
    int level;       /* 1..20, or 0 to use depth/time_ms/nodes */
    int depth;       /* midgame depth in plies, 0 = no limit */
    int64_t time_ms; /* wall-clock budget in milliseconds, 0 = no limit */
    int64_t nodes;   /* budget of positions visited, 0 = no limit */
} rv_reversi_limits;

/* The speed a node budget's plan assumes: about the exact solver's on one
 * core of the reference machine (`renversi bench solve`). */
#define RV_REVERSI_PLAN_NODES_PER_MS 40000

/* What a search found. */
typedef struct rv_reversi_ai_info {
    int move;        /* best move: a square, RV_REVERSI_PASS, or RV_REVERSI_AI_NONE */
    int eval_centi;  /* evaluation in centidiscs from the mover's point of view;
                        when exact, 100 * the final disc difference */
    int depth;       /* depth of the last completed iteration (empties if exact) */
    int exact;       /* 1: eval is an exact endgame score; 0: heuristic */
    uint64_t nodes;  /* positions visited */
    double seconds;  /* wall-clock time spent */
    int pv[64];      /* principal variation, starting with move */
    int pv_len;
} rv_reversi_ai_info;

/*
 * Searches the position for the side to move and fills *out.  A side with no
 * legal move gets RV_REVERSI_PASS at once.  Returns RV_EOVER (out untouched)
 * when neither side can move, RV_EINVAL for a NULL argument, overlapping
 * discs or limits that are all zero / out of range.  A stop request makes it
 * return soon with the best move of the last completed iteration (always a
 * legal move).
 */
rv_status rv_reversi_ai_think(rv_reversi_ai *ai, const rv_reversi_pos *pos,
                              const rv_reversi_limits *limits, rv_reversi_ai_info *out);

/*
 * Evaluates every legal move of the position with the given limits (each move
 * gets the search a think() with those limits would give it, one ply less
 * deep) and writes up to max entries, best first, into out.  *count gets the
 * number of entries written (0 when the side to move must pass).  Errors as
 * rv_reversi_ai_think().
 */
typedef struct rv_reversi_move_eval {
    int move;
    int eval_centi; /* mover's point of view, as in rv_reversi_ai_info */
    int exact;
    int depth;
} rv_reversi_move_eval;
rv_status rv_reversi_ai_eval_moves(rv_reversi_ai *ai, const rv_reversi_pos *pos,
                                   const rv_reversi_limits *limits, rv_reversi_move_eval *out,
                                   int max, int *count);

/* Positions visited by the engine's last (or running) think, eval_moves or
 * solve. */
uint64_t rv_reversi_ai_nodes(const rv_reversi_ai *ai);

/*
 * Thread-safe: asks a running think/solve of this engine to return soon.  A
 * think/solve that begins after the call runs normally.
 */
void rv_reversi_ai_stop(rv_reversi_ai *ai);

/*
 * Race-free stopping of a think handed to another thread.  Each think,
 * eval_moves or solve gets the next number when it begins;
 * rv_reversi_ai_next_think() is the number the next one will get (ask it
 * before handing the work over, while no other begins), and
 * rv_reversi_ai_stop_think() stops that one whenever it is called: before it
 * began (it then returns at once), while it runs, or after (no effect on
 * later ones).  Both are thread-safe.
 */
uint64_t rv_reversi_ai_next_think(rv_reversi_ai *ai);
void rv_reversi_ai_stop_think(rv_reversi_ai *ai, uint64_t think);

/* The result of an exact solve. */
typedef struct rv_reversi_solve_result {
    int move;       /* a best move, RV_REVERSI_PASS, or RV_REVERSI_AI_NONE if the game is over */
    int score;      /* exact final disc difference for the side to move, empties to the
                       winner (-64..64); with wld_only: +1 win, 0 draw, -1 loss */
    uint64_t nodes; /* positions visited */
} rv_reversi_solve_result;

/*
 * Solves the position exactly (to the end of the game) for the side to move.
 * wld_only != 0 only decides win/draw/loss (faster).  Returns RV_OK, RV_EINVAL
 * for a NULL argument or overlapping discs, or RV_EOVER if stopped by
 * rv_reversi_ai_stop() before the solve finished (out untouched).
 */
rv_status rv_reversi_solve(rv_reversi_ai *ai, const rv_reversi_pos *pos, int wld_only,
                           rv_reversi_solve_result *out);

#ifdef __cplusplus
}
#endif
#endif
