/*
 * The midgame search: iterative deepening, principal variation search with
 * aspiration windows and the transposition table, the heuristic evaluation
 * at the leaves, and the exact solver (endgame.c) once the position is close
 * enough to the end for the level or the time budget.
 */
#include "reversi/ai_internal.h"
#include "reversi/bitboard_simd.h"
#include "reversi/pattern.h"
#include "reversi/probcut.h"

#include "renversi/core.h"

#include <math.h>
#include <string.h>

#define ID_GROWTH 2.5 /* the assumed cost of an iteration over the previous one's, at first */
#ifndef WLD_MID_SHARE
#define WLD_MID_SHARE 0.3 /* timed: the midgame search's share of the budget before a WLD solve */
#endif
#ifndef LMR_R
#define LMR_R 2 /* late-move reductions in play: plies (even: the leaves keep their parity; 0: none) */
#endif
#ifndef LMR_DEPTH
#define LMR_DEPTH 4 /* ... at null-window nodes of this depth and more */
#endif
#ifndef LMR_MOVES
#define LMR_MOVES 3 /* ... for the moves after the first LMR_MOVES (corners excepted) */
#endif
#ifndef ASP_W
#define ASP_W 300 /* the root's aspiration window: half-width, centidiscs */
#endif
#ifndef PC_T
#define PC_T 1.2 /* ProbCut's confidence in play: cut beyond PC_T standard deviations */
#endif

/* Move generation of the CPU's code path (ai->simd): the midgame search asks
 * for moves and flips through these, as the solver's per-CPU copies do. */
typedef struct mid_gen {
    uint64_t (*moves)(uint64_t P, uint64_t O);
    uint64_t (*flips)(uint64_t P, uint64_t O, int sq);
    int (*mobility)(uint64_t P, uint64_t O); /* the number of moves of P */
} mid_gen;

static uint64_t moves_plain(uint64_t P, uint64_t O) { return rv_reversi_moves_bb(P, O); }
static int mobility_plain(uint64_t P, uint64_t O) { return bit_count(rv_reversi_moves_bb(P, O)); }
static uint64_t flips_plain(uint64_t P, uint64_t O, int sq) { return rv_reversi_flips_bb(P, O, sq); }
#if RV_REVERSI_X86_SIMD
static RV_TARGET_AVX2 uint64_t moves_avx2(uint64_t P, uint64_t O) {
    return rv_reversi_moves_avx2(P, O);
}
static RV_TARGET_AVX2 uint64_t flips_avx2(uint64_t P, uint64_t O, int sq) {
    return rv_reversi_flips_avx2(P, O, sq);
}
static RV_TARGET_AVX2 int mobility_avx2(uint64_t P, uint64_t O) {
    return (int)_mm_popcnt_u64(rv_reversi_moves_avx2(P, O));
}
static RV_TARGET_AVX512 uint64_t moves_avx512(uint64_t P, uint64_t O) {
    return rv_reversi_moves_avx512(P, O);
}
static RV_TARGET_AVX512 uint64_t flips_avx512(uint64_t P, uint64_t O, int sq) {
    return rv_reversi_flips_avx512(P, O, sq);
}
static RV_TARGET_AVX512 int mobility_avx512(uint64_t P, uint64_t O) {
    return (int)_mm_popcnt_u64(rv_reversi_moves_avx512(P, O));
}
#endif

static const mid_gen *gen_of(const rv_reversi_ai *ai) {
    static const mid_gen plain = {moves_plain, flips_plain, mobility_plain};
#if RV_REVERSI_X86_SIMD
    static const mid_gen avx2 = {moves_avx2, flips_avx2, mobility_avx2},
                         avx512 = {moves_avx512, flips_avx512, mobility_avx512};
    if (ai->simd == RV_REVERSI_SIMD_AVX512) return &avx512;
    if (ai->simd == RV_REVERSI_SIMD_AVX2) return &avx2;
#endif
    return &plain;
}

/* The pattern state of (P, O), with pext where the CPU has it (the solver's
 * ProbCut tests and ordering searches start one per call). */
static inline void state_init(const rv_reversi_ai *ai, rv_pat_state *st, uint64_t P, uint64_t O) {
    if (ai->simd != RV_REVERSI_SIMD_PLAIN) rv_pat_state_init_bmi2(st, P, O);
    else rv_pat_state_init(st, P, O);
}

/* The evaluation of (P, O) whose pattern state is st; mob is P's number of
 * moves if counted (for the ordering), else -1. */
static inline int eval_mob(const rv_reversi_ai *ai, const rv_pat_state *st, uint64_t P, uint64_t O,
                           int mob) {
    if (ai->eval_kind != RV_REVERSI_EVAL_PATTERN) return rv_ai_eval(ai, P, O);
    return rv_ai_pattern_centi(ai->simd != RV_REVERSI_SIMD_PLAIN
                                   ? rv_pat_eval_state_bmi2(ai->pat_w, st, P, O, mob, -1)
                                   : rv_pat_eval_state(ai->pat_w, st, P, O, mob, -1));
}

#define MIDF(name) name
#define MID_GEN_DECL const mid_gen *g = gen_of(ai);
#define MID_MOVES(P, O) g->moves(P, O)
#define MID_FLIPS(P, O, sq) g->flips(P, O, sq)
#define MID_MOBILITY(P, O) g->mobility(P, O)
#define MID_EVAL(ai, st, P, O, mob) eval_mob(ai, st, P, O, mob)
#define MID_EVAL_FRESH(ai, P, O) rv_ai_eval(ai, P, O)
#define MID_PC_T(ai) ((ai)->pc_t)
#define MID_LMR (LMR_R > 0)
#include "reversi/mid_node_impl.h"

static void sort_desc(mid_move *mv, int n) {
    for (int i = 1; i < n; i++) {
        mid_move t = mv[i];
        int j = i;
        while (j > 0 && mv[j - 1].key < t.key) {
            mv[j] = mv[j - 1];
            j--;
        }
        mv[j] = t;
    }
}

/* The search of the position after move m of (P, O), whose state is st,
 * from the point of view of P. */
static int search_move(rv_reversi_ai *ai, uint64_t P, uint64_t O, const rv_pat_state *st,
                       const mid_move *m, int alpha, int beta, int depth, int draw) {
    rv_pat_state cs;
    rv_pat_state_move(st, &cs, m->sq, m->flips);
    uint64_t np = O ^ m->flips, no = P ^ m->flips ^ (1ULL << m->sq);
    return -mid_search(ai, np, no, -beta, -alpha, depth - 1, 0, -draw, &cs);
}

/* The solver's midgame search (its ProbCut confidence, no reductions) from
 * play's instance: solve.c's iterative deepening and the trainer's labels. */
int rv_ai_mid_search(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int depth) {
    rv_pat_state st;
    state_init(ai, &st, P, O);
    const double t = ai->pc_t;
    const int lmr = ai->lmr;
    ai->pc_t = PC_T_SOLVE;
    ai->lmr = 0;
    int v = mid_search(ai, P, O, alpha, beta, depth, 0, -ai->contempt, &st);
    ai->pc_t = t;
    ai->lmr = lmr;
    return v;
}

/* ------------------------------------------------------------ levels */

/* Midgame depth and exact-solve empties of each level (index 1..20).  Depth
 * grows by one per level up to 12 (one to a few seconds a move on one core in
 * the midgame, `renversi bench midgame --depth 12`), then
 * more slowly: the top levels are for analysis or for use with a time cap. */
static const int LEVEL_DEPTH[21] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                    11, 12, 12, 13, 13, 14, 14, 15, 16, 18};
static const int LEVEL_SOLVE[21] = {0, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                    19, 20, 20, 21, 21, 22, 22, 23, 23, 24};
/* Random noise added to root scores at the lowest levels, in centidiscs. */
static const int LEVEL_NOISE[21] = {0, 900, 500, 250};

typedef struct plan {
    int depth;        /* maximum midgame depth */
    int solve;        /* solve exactly at most this many empties */
    int wld;          /* with a time budget: decide win/draw/loss at most this many */
    int noise;        /* root noise amplitude */
    int64_t time_ms;  /* the deadline, 0 = none */
    int64_t nodes;    /* the node limit, 0 = none */
    int64_t plan_ms;  /* the budget the sizes and iterations are planned for
                         (time_ms, or nodes at RV_REVERSI_PLAN_NODES_PER_MS,
                         the smaller of the two), 0 = none */
} plan;

/* Rough sizes solvable exactly within a budget of t ms on one core. */
static int solve_for_time(int64_t t) {
    return t < 100 ? 14 : t < 500 ? 17 : t < 2000 ? 19 : t < 10000 ? 21 : t < 60000 ? 23 : 25;
}

/* Rough sizes whose win/draw/loss is decided within t ms on one core (a
 * null-window solve around 0: 20-40 times cheaper than the exact score at
 * 20-24 empties, each empty about 2.5 times the cost; at 21-22 empties
 * usually 2-10 ms, at worst 0.3-0.5 s, after which the midgame move stands). */
static int wld_for_time(int64_t t) {
    return t < 15 ? 17 : t < 35 ? 20 : t < 80 ? 21 : t < 180 ? 22 : t < 400 ? 23 : t < 1000 ? 24 : 25;
}

static int make_plan(const rv_reversi_limits *l, int empties, plan *p) {
    if (l->level < 0 || l->level > RV_REVERSI_AI_LEVEL_MAX || l->depth < 0 || l->depth > 60 ||
        l->time_ms < 0 || l->nodes < 0)
        return -1;
    if (!l->level && !l->depth && !l->time_ms && !l->nodes) return -1;
    memset(p, 0, sizeof *p);
    p->time_ms = l->time_ms;
    p->nodes = l->nodes;
    p->plan_ms = l->time_ms;
    if (l->nodes) {
        int64_t t = l->nodes / RV_REVERSI_PLAN_NODES_PER_MS + 1;
        if (!p->plan_ms || t < p->plan_ms) p->plan_ms = t;
    }
    if (l->level) {
        p->depth = LEVEL_DEPTH[l->level];
        p->solve = LEVEL_SOLVE[l->level];
        p->noise = l->level < 4 ? LEVEL_NOISE[l->level] : 0;
    } else if (l->depth) {
        p->depth = l->depth;
        /* An exact solve costs about as much as a midgame search twice as
         * deep would; solve when that fits. */
        p->solve = l->depth * 2 < 26 ? l->depth * 2 : 26;
        /* depth 60 with a deadline: the deadline decides, and the solve is
         * tried at the sizes that fit it (it was tried at any size, so every
         * move of a timed `renversi nboard` game stopped the midgame search at
         * 8 plies and spent the rest of its time on a hopeless solve). A
         * smaller depth caps the solve too, so a set depth means the same
         * with or without a clock. */
        if (p->plan_ms && l->depth >= 60) {
            p->solve = solve_for_time(p->plan_ms);
            p->wld = wld_for_time(p->plan_ms);
        }
    } else {
        p->depth = 60;
        p->solve = solve_for_time(p->plan_ms);
        p->wld = wld_for_time(p->plan_ms);
    }
    if (p->depth > empties) p->depth = empties;
    return 0;
}

/* ------------------------------------------------------------ root */

static void fill_pv(rv_reversi_ai *ai, uint64_t P, uint64_t O, int kind, rv_reversi_ai_info *out) {
    out->pv_len = 0;
    int m = out->move;
    while (out->pv_len < 60 && m >= 0 && m < 64) {
        out->pv[out->pv_len++] = m;
        uint64_t f = rv_reversi_flips_bb(P, O, m);
        if (!f) {
            out->pv_len--;
            break;
        }
        uint64_t np = O ^ f, no = P ^ f ^ (1ULL << m);
        P = np;
        O = no;
        if (!rv_reversi_moves_bb(P, O)) {
            if (!rv_reversi_moves_bb(O, P)) break;
            out->pv[out->pv_len++] = RV_REVERSI_PASS;
            uint64_t t = P;
            P = O;
            O = t;
        }
        const tt_entry *e = tt_probe(&ai->tt, P, O, kind);
        m = e ? e->move : -1;
    }
}

/*
 * One iteration at the root: every move searched to depth - 1 (or solved
 * exactly when depth < 0), best first from the previous iteration.  Returns
 * the best score; *best gets its move.  noise is added to each move's score
 * (low levels).  Returns with ai->aborted set if stopped; *best then holds
 * the best completely searched move, or -1.
 */
static int root_iteration(rv_reversi_ai *ai, uint64_t P, uint64_t O, const rv_pat_state *st,
                          mid_move *mv, int n, int depth, int alpha, int beta, int noise, rv_rng *rng,
                          int *best) {
    int bestv = -INF;
    const int draw = -ai->contempt;
    *best = -1;
    for (int i = 0; i < n; i++) {
        int v, a = alpha > bestv ? alpha : bestv;
        if (noise) {
            v = search_move(ai, P, O, st, &mv[i], -INF, INF, depth, draw);
            v += (int)rv_rng_below(rng, (uint64_t)(2 * noise + 1)) - noise;
        } else if (i == 0) {
            v = search_move(ai, P, O, st, &mv[i], alpha, beta, depth, draw);
        } else {
            v = search_move(ai, P, O, st, &mv[i], a, a + 1, depth, draw);
            if (v > a && v < beta) v = search_move(ai, P, O, st, &mv[i], a, beta, depth, draw);
        }
        if (ai->aborted) return bestv;
        mv[i].key = v;
        if (v > bestv) {
            bestv = v;
            *best = mv[i].sq;
            if (v >= beta) break;
        }
    }
    return bestv;
}

static void move_to_front(mid_move *mv, int n, int sq) {
    for (int i = 0; i < n; i++) {
        if (mv[i].sq != sq) continue;
        mid_move t = mv[i];
        memmove(mv + 1, mv, (size_t)i * sizeof *mv);
        mv[0] = t;
        return;
    }
}

/*
 * Timed play between the exact-solve size and p->wld empties: decides whether
 * the midgame search's move wins, draws or loses (a null-window solve around
 * 0), and if it does not win, whether another move does better.  out keeps
 * the midgame move when nothing better is proven (or the time runs out); else
 * it gets the winning or drawing move, and its evaluation the proven sign.
 */
static void solve_wld(rv_reversi_ai *ai, uint64_t P, uint64_t O, rv_reversi_ai_info *out) {
    const int m0 = out->move;
    uint64_t f = rv_reversi_flips_bb(P, O, m0);
    if (!f) return;
    int bm, best;
    int v = -rv_ai_endgame(ai, O ^ f, P ^ f ^ (1ULL << m0), -1, 1, &bm);
    if (ai->aborted) return;
    if (v <= 0) {
        int lo = v < 0 ? -1 : 0;
        int w = rv_ai_endgame(ai, P, O, lo, 1, &best);
        if (ai->aborted) return;
        if (w > lo && best >= 0 && best < 64) {
            out->move = best;
            v = w;
        }
    }
    if (v > 0 && out->eval_centi < 100) out->eval_centi = 100;
    if (v == 0) out->eval_centi = 0;
    if (v < 0 && out->eval_centi > -100) out->eval_centi = -100;
}

/* The share of the plan's budget used since c0 (on the engine's clock): the
 * larger of the time's and the node limit's. */
static double budget_used(const rv_reversi_ai *ai, const plan *p, uint64_t c0) {
    double u = 0;
    if (p->time_ms) u = (double)(rv_ai_now_ns(ai) - c0) * 1e-6 / (double)p->time_ms;
    if (p->nodes) {
        double n = (double)ai->nodes / (double)p->nodes;
        if (n > u) u = n;
    }
    return u;
}

/* The search of rv_reversi_ai_think() once the position has moves. */
static void think(rv_reversi_ai *ai, uint64_t P, uint64_t O, const plan *p,
                  rv_reversi_ai_info *out) {
    const double t0 = rv_clock_seconds();
    const uint64_t c0 = rv_ai_now_ns(ai); /* the clock of the time limit */
    ai->pc_t = PC_T;
    /* late-move reductions: in play only, with ProbCut (the fitted evaluation) */
    ai->lmr = ai->probcut && ai->eval_kind == RV_REVERSI_EVAL_PATTERN;
    int empties = bit_count(~(P | O));
    uint64_t moves = rv_reversi_moves_bb(P, O);
    mid_move mv[32];
    rv_pat_state st;
    state_init(ai, &st, P, O);
    int n = gen_moves(ai, P, O, moves, -1, 2, mv, NULL, NULL);
    sort_desc(mv, n);
    rv_rng rng;
    rv_rng_seed(&rng, tt_hash(P, O) ^ ai->nodes ^ (uint64_t)ai->tt.date * 0x9E3779B97F4A7C15ULL);

    out->move = mv[0].sq;
    out->eval_centi = 0;
    out->depth = 0;
    out->exact = 0;

    /* Iterative deepening.  With a time budget, an iteration is started only
     * if it is expected to finish within it: it is predicted to cost the
     * last one times the growth between the last two (1.5 to 4).  When the
     * best move has just changed, the next iteration starts while less than
     * half the budget is used even if it may not finish (a move it completes
     * that beats the previous best move at that depth is still taken). */
    int prev = rv_ai_eval(ai, P, O), prev2 = prev;
    int max_depth = p->depth;
    int direct_solve = empties <= p->solve && !p->plan_ms && !p->noise;
    if (direct_solve) max_depth = 0;
    if (empties <= p->solve && p->plan_ms && max_depth > 8) max_depth = 8;
    double u0 = 0, last = 0; /* budget used before this iteration; the last one's cost */
    for (int d = 1; d <= max_depth; d++) {
        int best, v;
        const int prev_move = out->move;
        if (p->noise || d <= 2) {
            v = root_iteration(ai, P, O, &st, mv, n, d, -INF, INF, p->noise, &rng, &best);
        } else {
            /* The window is centred on the score of the iteration two plies
             * back: scores alternate with the depth's parity (about 3 discs
             * higher for the mover at odd depths than at even ones), so the
             * last iteration's score is off by about the window's width. */
            int lo = prev2 - ASP_W, hi = prev2 + ASP_W;
            for (;;) {
                v = root_iteration(ai, P, O, &st, mv, n, d, lo, hi, 0, &rng, &best);
                if (ai->aborted || (v > lo && v < hi)) break;
                if (v <= lo) lo = v <= -INF + 1000 ? -INF : v - 600;
                if (v >= hi) hi = v >= INF - 1000 ? INF : v + 600;
                if (lo <= -INF && hi >= INF) {
                    v = root_iteration(ai, P, O, &st, mv, n, d, -INF, INF, 0, &rng, &best);
                    break;
                }
            }
        }
        if (ai->aborted) {
            /* a move that beat the previous best move at this depth (it was
             * searched first) is taken; comparing with the last iteration's
             * score mixed the parities and kept nearly every such move out
             * at even depths */
            if (best >= 0 && best != out->move) {
                out->move = best;
                out->eval_centi = v;
            }
            break;
        }
        prev2 = prev;
        prev = v;
        out->move = best;
        out->eval_centi = v;
        out->depth = d;
        move_to_front(mv, n, best);
        if (!p->noise) {
            /* Keep the rest ordered by this iteration's scores. */
            mid_move *rest = mv + 1;
            sort_desc(rest, n - 1);
        }
        if (p->plan_ms) {
            /* in shares of the budget (time or nodes, whichever is used more) */
            double used = budget_used(ai, p, c0), it = used - u0;
            double growth = last > 0 ? it / last : ID_GROWTH;
            growth = growth < 1.5 ? 1.5 : growth > 4.0 ? 4.0 : growth;
            double next = it * growth;
            /* an exact or win/draw/loss solve follows: leave it most of the budget */
            double budget = empties <= p->solve ? 0.25 : empties <= p->wld ? WLD_MID_SHARE : 1.0;
            u0 = used;
            last = it;
            int changed = d > 1 && best != prev_move;
            if (used + next > budget && !(changed && 2 * used < budget))
                break;
        }
        if (d >= empties) break;
    }
    fill_pv(ai, P, O, TT_KIND_MID, out);

    /* With a clock, a position too big to solve exactly may be small enough
     * to tell a won game from a drawn or lost one. */
    if (empties > p->solve && empties <= p->wld && !p->noise && !ai->aborted) solve_wld(ai, P, O, out);

    /* The exact solve, when the position is small enough. */
    if (empties <= p->solve && !p->noise && !ai->aborted) {
        int move;
        int v = rv_ai_solve_exact(ai, P, O, &move);
        if (!ai->aborted && move >= 0 && move < 64) {
            out->move = move;
            out->eval_centi = 100 * v;
            out->depth = empties;
            out->exact = 1;
            fill_pv(ai, P, O, TT_KIND_EXACT, out);
        }
    }
    out->nodes = ai->nodes;
    out->seconds = rv_clock_seconds() - t0;
    ai->lmr = 0;
}

rv_status rv_reversi_ai_think(rv_reversi_ai *ai, const rv_reversi_pos *pos,
                              const rv_reversi_limits *limits, rv_reversi_ai_info *out) {
    if (!ai) return RV_EINVAL;
    rv_ai_enter(ai);
    if (!limits || !out || !rv_ai_valid_pos(pos)) return RV_EINVAL;
    uint64_t P = pos->player, O = pos->opponent;
    plan p;
    if (make_plan(limits, bit_count(~(P | O)), &p) != 0) return RV_EINVAL;
    uint64_t moves = rv_reversi_moves_bb(P, O);
    if (!moves && !rv_reversi_moves_bb(O, P)) return RV_EOVER;
    rv_ai_begin(ai, p.time_ms);
    ai->node_limit = (uint64_t)p.nodes;
    rv_reversi_ai_info info;
    memset(&info, 0, sizeof info);
    if (!moves) {
        info.move = RV_REVERSI_PASS;
        info.pv[0] = RV_REVERSI_PASS;
        info.pv_len = 1;
        info.eval_centi = -rv_ai_eval(ai, O, P);
    } else {
        think(ai, P, O, &p, &info);
    }
    *out = info;
    return RV_OK;
}

rv_status rv_reversi_ai_eval_moves(rv_reversi_ai *ai, const rv_reversi_pos *pos,
                                   const rv_reversi_limits *limits, rv_reversi_move_eval *out,
                                   int max, int *count) {
    if (!ai) return RV_EINVAL;
    rv_ai_enter(ai);
    if (!limits || !out || !count || max < 0 || !rv_ai_valid_pos(pos)) return RV_EINVAL;
    uint64_t P = pos->player, O = pos->opponent;
    int empties = bit_count(~(P | O));
    plan p;
    if (make_plan(limits, empties, &p) != 0) return RV_EINVAL;
    uint64_t moves = rv_reversi_moves_bb(P, O);
    if (!moves && !rv_reversi_moves_bb(O, P)) return RV_EOVER;
    rv_ai_begin(ai, p.time_ms);
    ai->node_limit = (uint64_t)p.nodes;
    /* Every move gets its own full-window search: without forward pruning,
     * so the scores are those of the plain search at that depth (a pruned
     * search's scores depend on the windows and on what the table holds). */
    const int probcut = ai->probcut;
    ai->probcut = 0;
    mid_move mv[32];
    rv_pat_state st;
    state_init(ai, &st, P, O);
    int n = gen_moves(ai, P, O, moves, -1, 2, mv, NULL, NULL);
    sort_desc(mv, n);
    rv_reversi_move_eval res[32];
    int done = 0;
    int exact = empties - 1 <= p.solve;
    /* Iterative deepening over all moves so a deadline still leaves
     * complete results of the last finished depth. */
    int max_depth = exact && !p.plan_ms ? 0 : p.depth;
    for (int d = 1; d <= max_depth; d++) {
        rv_reversi_move_eval cur[32];
        for (int i = 0; i < n && !ai->aborted; i++) {
            cur[i] = (rv_reversi_move_eval){mv[i].sq, search_move(ai, P, O, &st, &mv[i], -INF, INF, d, -ai->contempt),
                                            0, d};
        }
        if (ai->aborted) break;
        memcpy(res, cur, (size_t)n * sizeof *res);
        done = 1;
        if (d >= empties) break;
    }
    if (exact && !ai->aborted) {
        rv_reversi_move_eval cur[32];
        for (int i = 0; i < n && !ai->aborted; i++) {
            uint64_t f = mv[i].flips, np = O ^ f, no = P ^ f ^ (1ULL << mv[i].sq);
            int bm;
            cur[i] = (rv_reversi_move_eval){mv[i].sq, -100 * rv_ai_endgame(ai, np, no, -64, 64, &bm),
                                            1, empties};
        }
        if (!ai->aborted) {
            memcpy(res, cur, (size_t)n * sizeof *res);
            done = 1;
        }
    }
    if (!done) { /* stopped before depth 1 finished: a static guess */
        for (int i = 0; i < n; i++) {
            uint64_t f = mv[i].flips, np = O ^ f, no = P ^ f ^ (1ULL << mv[i].sq);
            res[i] = (rv_reversi_move_eval){mv[i].sq, -rv_ai_eval(ai, np, no), 0, 0};
        }
    }
    /* Best first (stable: equal scores keep the move-ordering order). */
    for (int i = 1; i < n; i++) {
        rv_reversi_move_eval t = res[i];
        int j = i;
        while (j > 0 && res[j - 1].eval_centi < t.eval_centi) {
            res[j] = res[j - 1];
            j--;
        }
        res[j] = t;
    }
    int k = n < max ? n : max;
    memcpy(out, res, (size_t)k * sizeof *out);
    *count = k;
    ai->probcut = probcut;
    return RV_OK;
}
