/*
 * The midgame search's node (negamax, PVS, the table, Multi-ProbCut, ETC),
 * one body for play (search.c) and the exact solver (endgame_impl.h, once
 * per code path), each instance specialised by macros:
 *   MIDF(name)            the instance's name of each function
 *   MID_GEN_DECL          declarations a function needs for the next two
 *   MID_MOVES(P, O)       the moves of P
 *   MID_FLIPS(P, O, sq)   the discs flipped by P's move sq
 *   MID_EVAL(ai, st, P, O, mob)  the evaluation of (P, O), state st, in
 *                         centidiscs (mob: P's number of moves, or -1)
 *   MID_EVAL_FRESH(ai, P, O)     the same without a state
 *   MID_PC_T(ai)          ProbCut's confidence in standard deviations
 *   MID_LMR               1: late-move reductions where ai->lmr (play)
 * The solver's instances (its ordering searches, ProbCut tests and searches
 * for a move) are search.c's search as rv_ai_mid_search runs it (t =
 * PC_T_SOLVE, no reductions) with the code path's move generation and
 * evaluation inlined: the same trees as through rv_ai_mid_search
 * (BENCHMARKS.md, o-solve's eighteenth session).
 */
#ifndef RV_REVERSI_MID_NODE_COMMON
#define RV_REVERSI_MID_NODE_COMMON

#include "reversi/probcut.h"

#include <math.h>
#include <string.h>

#define INF 30000
#define MID_TT_MIN 2 /* store in the table from this depth on */
#ifndef ETC_MIN
#define ETC_MIN 3 /* enhanced transposition cut-offs from this depth on (children from MID_TT_MIN) */
#endif
#ifndef EVAL_ORDER_MIN
#define EVAL_ORDER_MIN 3 /* order by the children's evaluation from this depth on */
#endif
#define SCORE_MAX 6400 /* the largest score: 100 * 64 discs */
#ifndef PC_EVM
#define PC_EVM 300 /* ProbCut: skip a test whose bound is this far beyond the evaluation */
#endif
#ifndef SQ_ORDER_W
#define SQ_ORDER_W 1 /* depth-1 ordering: weight of the square's rank (SQ_ORDER) */
#endif
#ifndef MOB_W
#define MOB_W 3 /* depth-1 and -2 ordering: weight of the opponent's number of moves */
#endif
#ifndef MOB2_W
#define MOB2_W 50 /* deeper ordering: centidiscs per move the opponent has after ours */
#endif
#ifndef PC_T_SOLVE
#define PC_T_SOLVE 1.5 /* ProbCut's confidence in the exact solver's shallow searches (its instances, rv_ai_mid_search) */
#endif

/* The stop request and the deadline are looked at every 1024 nodes, the node
 * limit at every interior node (a compare: it stops within a node's children). */
static inline int poll_stop(rv_reversi_ai *ai) {
    if (ai->aborted) return 1;
    if (((ai->nodes & 0x3FF) == 0 && rv_ai_should_stop(ai)) ||
        (ai->node_limit && ai->nodes >= ai->node_limit))
        ai->aborted = 1;
    return ai->aborted;
}

typedef struct mid_move {
    uint64_t flips;
    int sq;
    int key;
    int child; /* index of the pattern state after the move */
    int mob;   /* the opponent's number of moves after it (-1: not counted) */
} mid_move;

/* A fixed preference of squares ordering the moves of nodes of depth 1 and 2
 * (where evaluating every child to order them costs more than it saves):
 * corners, then the edges away from them and the centre, then the squares
 * next to the edges, C-squares and X-squares last. */
static const signed char SQ_ORDER[64] = {
    9, 2, 6, 5, 5, 6, 2, 9,
    2, 0, 3, 3, 3, 3, 0, 2,
    6, 3, 4, 4, 4, 4, 3, 6,
    5, 3, 4, 4, 4, 4, 3, 5,
    5, 3, 4, 4, 4, 4, 3, 5,
    6, 3, 4, 4, 4, 4, 3, 6,
    2, 0, 3, 3, 3, 3, 0, 2,
    9, 2, 6, 5, 5, 6, 2, 9,
};

#endif /* RV_REVERSI_MID_NODE_COMMON */

/*
 * Moves of P with their keys (the best-looking has the highest): the table move, then by the evaluation of
 * the position after the move (from depth EVAL_ORDER_MIN), else by the
 * square's rank and the opponent's replies.  With child != NULL, child[i]
 * gets the pattern state after move i (mv[].child says which is whose).
 */
static int MIDF(gen_moves)(const rv_reversi_ai *ai, uint64_t P, uint64_t O, uint64_t moves, int tt_move,
                     int depth, mid_move *mv, const rv_pat_state *st, rv_pat_state *child) {
    int n = 0;
    MID_GEN_DECL
    for (uint64_t m = moves; m; m &= m - 1) {
        int x = first_bit(m);
        uint64_t f = MID_FLIPS(P, O, x);
        mid_move *e = &mv[n];
        e->flips = f;
        e->sq = x;
        e->child = n;
        if (child) rv_pat_state_move(st, &child[n], x, f);
        if (x == tt_move) {
            e->mob = -1;
            e->key = 1 << 20;
            n++;
            continue;
        }
        uint64_t cp = O ^ f, co = P ^ f ^ (1ULL << x); /* the child, its mover first */
        e->mob = MID_MOBILITY(cp, co);
        if (depth >= EVAL_ORDER_MIN)
            e->key = (child ? -MID_EVAL(ai, &child[n], cp, co, e->mob) : -MID_EVAL_FRESH(ai, cp, co)) -
                     MOB2_W * e->mob;
        else e->key = SQ_ORDER_W * SQ_ORDER[x] - MOB_W * e->mob;
        n++;
    }
    return n;
}

/* Negamax with PVS in centidiscs; game ends score 100 * the disc difference. */
/* draw: the score of a drawn game for P (minus the contempt at the root). */
static int MIDF(mid_search)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int depth,
                      int passed, int draw, const rv_pat_state *st);

/*
 * Multi-ProbCut: with deep = a * shallow + b + error (sd sigma) fitted for
 * this stage and depth, a shallow search that is at least t = MID_PC_T(ai) sigmas
 * beyond the window predicts the deep result; returns 1 and sets *v (beta or
 * alpha) when it cuts.
 */
static int MIDF(probcut)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int depth,
                   int draw, const rv_pat_state *st, int *v) {
    int e = bit_count(~(P | O));
    if (depth >= e) return 0; /* the search reaches the end of the game */
    const rv_pc_param *pc = rv_pc_get(e, depth);
    if (pc->sigma <= 0 || pc->a <= 0.1f) return 0;
    const int s = rv_pc_shallow(depth);
    const double t = MID_PC_T(ai) * pc->sigma;
    double hb = (beta + t - pc->b) / pc->a;
    double lb = (alpha - t - pc->b) / pc->a;
#if PC_EVM > 0
    /* The static evaluation says which test can succeed: a shallow search
     * rarely lands more than PC_EVM centidiscs from it, so a test whose bound
     * is farther is not tried (measured: it cut in under 6% of such tries). */
    const int ev = MID_EVAL(ai, st, P, O, -1);
    if (ev + PC_EVM < hb) hb = SCORE_MAX;
    if (ev - PC_EVM > lb) lb = -SCORE_MAX;
#endif
    if (beta < SCORE_MAX && hb < SCORE_MAX) {
        int bound = (int)ceil(hb);
        int r = MIDF(mid_search)(ai, P, O, bound - 1, bound, s, 0, draw, st);
        if (ai->aborted) return 0;
        if (r >= bound) {
            *v = beta;
            return 1;
        }
    }
    if (alpha > -SCORE_MAX && lb > -SCORE_MAX) {
        int bound = (int)floor(lb);
        int r = MIDF(mid_search)(ai, P, O, bound, bound + 1, s, 0, draw, st);
        if (ai->aborted) return 0;
        if (r <= bound) {
            *v = alpha;
            return 1;
        }
    }
    return 0;
}

static int MIDF(mid_search)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int depth,
                      int passed, int draw, const rv_pat_state *st) {
    ai->nodes++;
    if (depth <= 0) return MID_EVAL(ai, st, P, O, -1);
    if (poll_stop(ai)) return alpha;
    MID_GEN_DECL
    uint64_t moves = MID_MOVES(P, O);
    if (!moves) {
        if (passed || !MID_MOVES(O, P)) {
            int fs = final_score(P, O);
            return fs ? 100 * fs : draw;
        }
        rv_pat_state ps;
        rv_pat_state_pass(st, &ps);
        return -MIDF(mid_search)(ai, O, P, -beta, -alpha, depth, 1, -draw, &ps);
    }
    int tt_move = -1;
    const tt_entry *e = depth >= MID_TT_MIN ? tt_probe(&ai->tt, P, O, TT_KIND_MID) : NULL;
    if (e) {
        if (e->depth >= depth) {
            if (e->lower >= beta) return e->lower;
            if (e->upper <= alpha) return e->upper;
            if (e->lower == e->upper) return e->lower;
        }
        tt_move = e->move < 64 ? e->move : -1;
    }
    if (ai->probcut && depth >= RV_PC_MIN_DEPTH && ai->eval_kind == RV_REVERSI_EVAL_PATTERN) {
        int v;
        if (MIDF(probcut)(ai, P, O, alpha, beta, depth, draw, st, &v)) return v;
        if (ai->aborted) return alpha;
    }
    const int alpha0 = alpha;
    mid_move mv[32];
    rv_pat_state child[32];
    /* Child states are computed up front where the ordering evaluates the
     * children, else one by one as they are searched. */
    int n = MIDF(gen_moves)(ai, P, O, moves, tt_move, depth, mv, st, depth >= EVAL_ORDER_MIN ? child : NULL);
    /* Enhanced transposition cut-offs: a child whose table entry already
     * refutes the window cuts before anything is searched.  The children's
     * buckets are prefetched first, so the probes that follow (and those of
     * the children's own searches) mostly hit the cache. */
    if (depth >= ETC_MIN) {
        for (int i = 0; i < n; i++) {
            uint64_t f = mv[i].flips;
            tt_prefetch(&ai->tt, O ^ f, P ^ f ^ (1ULL << mv[i].sq));
        }
        for (int i = 0; i < n; i++) {
            uint64_t f = mv[i].flips;
            const tt_entry *ce = tt_probe(&ai->tt, O ^ f, P ^ f ^ (1ULL << mv[i].sq), TT_KIND_MID);
            if (ce && ce->depth >= depth - 1 && -ce->upper >= beta) {
                tt_store(&ai->tt, P, O, TT_KIND_MID, depth, -ce->upper, INF, mv[i].sq);
                return -ce->upper;
            }
        }
    }
    int best = -INF, bm = mv[0].sq;
    for (int i = 0; i < n; i++) {
        /* the best-looking remaining move next: most nodes cut on the first */
        int k = i;
        for (int j = i + 1; j < n; j++)
            if (mv[j].key > mv[k].key) k = j;
        if (k != i) {
            mid_move t = mv[k];
            memmove(mv + i + 1, mv + i, (size_t)(k - i) * sizeof *mv);
            mv[i] = t;
        }
        uint64_t f = mv[i].flips, np = O ^ f, no = P ^ f ^ (1ULL << mv[i].sq);
        const rv_pat_state *cs = &child[mv[i].child];
        if (depth < EVAL_ORDER_MIN) rv_pat_state_move(st, &child[mv[i].child], mv[i].sq, f);
        int v;
        if (depth == 1) {
            /* a leaf (what mid_search does at depth 0), with the count of
             * its moves made for the ordering; a leaf's full-window re-search
             * after a null-window one would give the same value, and is
             * counted as the node it was */
            ai->nodes++;
            v = -MID_EVAL(ai, cs, np, no, mv[i].mob);
            if (i > 0 && v > alpha && v < beta) ai->nodes++;
        } else if (i == 0) {
            v = -MIDF(mid_search)(ai, np, no, -beta, -alpha, depth - 1, 0, -draw, cs);
        } else {
            /* Late-move reduction: a late move is first searched LMR_R plies
             * shallower; only if that does not fail low is it searched in full. */
            int reduced = 0;
#if MID_LMR
            if (ai->lmr && depth >= LMR_DEPTH && i >= LMR_MOVES && beta - alpha == 1 &&
                !((1ULL << mv[i].sq) & BB_CORNERS)) {
                v = -MIDF(mid_search)(ai, np, no, -alpha - 1, -alpha, depth - 1 - LMR_R, 0, -draw, cs);
                reduced = v <= alpha;
            }
#endif
            if (!reduced) {
                v = -MIDF(mid_search)(ai, np, no, -alpha - 1, -alpha, depth - 1, 0, -draw, cs);
                if (v > alpha && v < beta) v = -MIDF(mid_search)(ai, np, no, -beta, -alpha, depth - 1, 0, -draw, cs);
            }
        }
        if (ai->aborted) return alpha;
        if (v > best) {
            best = v;
            bm = mv[i].sq;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    if (depth >= MID_TT_MIN) {
        int lo = best > alpha0 ? best : -INF;
        int hi = best < beta ? best : INF;
        tt_store(&ai->tt, P, O, TT_KIND_MID, depth, lo, hi, bm);
    }
    return best;
}
