/*
 * The solver's own copy of the midgame search (search.c's mid_search as
 * rv_ai_mid_search_st runs it: the solver's ProbCut confidence PC_T_SOLVE,
 * no late-move reductions), included by endgame_impl.h into each code path,
 * so its move generation, flips and evaluation are that path's, inlined,
 * instead of calls through search.c's function pointers.  The same nodes in
 * the same order as search.c's (the solver's tests compare the trees): the
 * ordering searches, the ProbCut tests of the selective passes and the
 * selective searches for a move run here.  Play's searches stay search.c's.
 */

/* The pattern evaluation of (P, O), state st, in centidiscs; mob is P's
 * number of moves if counted, else -1 (search.c's eval_mob; the solver runs
 * these searches with the pattern evaluation only). */
static inline int EGF(mid_eval)(const rv_reversi_ai *ai, const rv_pat_state *st, uint64_t P,
                                uint64_t O, int mob) {
    return eg_pat_centi(EG_PAT_EVAL(ai->pat_w, st, P, O, mob));
}

/* The stop request and the deadline every 1024 nodes, the node limit at
 * every interior node (search.c's poll_stop). */
static inline int EGF(mid_poll)(rv_reversi_ai *ai) {
    if (ai->aborted) return 1;
    if (((ai->nodes & 0x3FF) == 0 && rv_ai_should_stop(ai)) ||
        (ai->node_limit && ai->nodes >= ai->node_limit))
        ai->aborted = 1;
    return ai->aborted;
}

/* The moves of P into mv[] with their keys (search.c's gen_moves, unsorted):
 * the table move first, then by the children's evaluation from depth
 * EG_MID_EVAL_ORDER_MIN (child[] gets their states), else by the square's
 * rank and the opponent's replies. */
static inline int EGF(mid_gen)(const rv_reversi_ai *ai, uint64_t P, uint64_t O, uint64_t moves,
                               int tt_move, int depth, eg_mid_move *mv, const rv_pat_state *st,
                               rv_pat_state *child) {
    int n = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
        int x = first_bit(m);
        uint64_t f = EG_FLIPS(P, O, x);
        eg_mid_move *e = &mv[n];
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
        e->mob = bit_count(EG_MOVES(cp, co));
        if (child)
            e->key = -EGF(mid_eval)(ai, &child[n], cp, co, e->mob) - EG_MID_MOB2_W * e->mob;
        else
            e->key = EG_MID_SQ_ORDER_W * EG_MID_SQ_ORDER[x] - EG_MID_MOB_W * e->mob;
        n++;
    }
    return n;
}

static int EGF(mid_search)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                           int depth, int passed, int draw, const rv_pat_state *st);

/* Multi-ProbCut (search.c's probcut at the solver's confidence): 1 and *v
 * set when the shallow search predicts the node outside the window. */
static int EGF(mid_probcut)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                            int depth, int draw, const rv_pat_state *st, int *v) {
    int e = bit_count(~(P | O));
    if (depth >= e) return 0; /* the search reaches the end of the game */
    const rv_pc_param *pc = rv_pc_get(e, depth);
    if (pc->sigma <= 0 || pc->a <= 0.1f) return 0;
    const int s = rv_pc_shallow(depth);
    const double t = EG_MID_PC_T * pc->sigma;
    double hb = (beta + t - pc->b) / pc->a;
    double lb = (alpha - t - pc->b) / pc->a;
    /* A test whose bound is far beyond the static evaluation is not tried. */
    const int ev = EGF(mid_eval)(ai, st, P, O, -1);
    if (ev + EG_MID_PC_EVM < hb) hb = EG_MID_SCORE_MAX;
    if (ev - EG_MID_PC_EVM > lb) lb = -EG_MID_SCORE_MAX;
    if (beta < EG_MID_SCORE_MAX && hb < EG_MID_SCORE_MAX) {
        int bound = (int)ceil(hb);
        int r = EGF(mid_search)(ai, P, O, bound - 1, bound, s, 0, draw, st);
        if (ai->aborted) return 0;
        if (r >= bound) {
            *v = beta;
            return 1;
        }
    }
    if (alpha > -EG_MID_SCORE_MAX && lb > -EG_MID_SCORE_MAX) {
        int bound = (int)floor(lb);
        int r = EGF(mid_search)(ai, P, O, bound, bound + 1, s, 0, draw, st);
        if (ai->aborted) return 0;
        if (r <= bound) {
            *v = alpha;
            return 1;
        }
    }
    return 0;
}

/* Negamax with PVS in centidiscs (search.c's mid_search without late-move
 * reductions); draw: the score of a drawn game for P. */
static int EGF(mid_search)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                           int depth, int passed, int draw, const rv_pat_state *st) {
    ai->nodes++;
    if (depth <= 0) return EGF(mid_eval)(ai, st, P, O, -1);
    if (EGF(mid_poll)(ai)) return alpha;
    uint64_t moves = EG_MOVES(P, O);
    if (!moves) {
        if (passed || !EG_MOVES(O, P)) {
            int fs = final_score(P, O);
            return fs ? 100 * fs : draw;
        }
        rv_pat_state ps;
        rv_pat_state_pass(st, &ps);
        return -EGF(mid_search)(ai, O, P, -beta, -alpha, depth, 1, -draw, &ps);
    }
    int tt_move = -1;
    const tt_entry *e = depth >= EG_MID_TT_MIN ? eg_probe(&ai->tt, P, O, TT_KIND_MID) : NULL;
    if (e) {
        if (e->depth >= depth) {
            if (e->lower >= beta) return e->lower;
            if (e->upper <= alpha) return e->upper;
            if (e->lower == e->upper) return e->lower;
        }
        tt_move = e->move < 64 ? e->move : -1;
    }
    if (ai->probcut && depth >= RV_PC_MIN_DEPTH) {
        int v;
        if (EGF(mid_probcut)(ai, P, O, alpha, beta, depth, draw, st, &v)) return v;
        if (ai->aborted) return alpha;
    }
    const int alpha0 = alpha;
    eg_mid_move mv[32];
    rv_pat_state child[32];
    int n = EGF(mid_gen)(ai, P, O, moves, tt_move, depth, mv, st,
                         depth >= EG_MID_EVAL_ORDER_MIN ? child : NULL);
    /* Enhanced transposition cut-offs (the children's buckets prefetched
     * first). */
    if (depth >= EG_MID_ETC_MIN) {
        for (int i = 0; i < n; i++) {
            uint64_t f = mv[i].flips;
            tt_prefetch(&ai->tt, O ^ f, P ^ f ^ (1ULL << mv[i].sq));
        }
        for (int i = 0; i < n; i++) {
            uint64_t f = mv[i].flips;
            const tt_entry *ce = eg_probe(&ai->tt, O ^ f, P ^ f ^ (1ULL << mv[i].sq), TT_KIND_MID);
            if (ce && ce->depth >= depth - 1 && -ce->upper >= beta) {
                EG_MID_STORE(&ai->tt, P, O, depth, -ce->upper, EG_MID_INF, mv[i].sq);
                return -ce->upper;
            }
        }
    }
    int best = -EG_MID_INF, bm = mv[0].sq;
    for (int i = 0; i < n; i++) {
        /* the best-looking remaining move next (the first of equal keys,
         * the others keeping their order, as search.c) */
        int k = i;
        for (int j = i + 1; j < n; j++)
            if (mv[j].key > mv[k].key) k = j;
        if (k != i) {
            eg_mid_move t = mv[k];
            for (int j = k; j > i; j--) mv[j] = mv[j - 1];
            mv[i] = t;
        }
        uint64_t f = mv[i].flips, np = O ^ f, no = P ^ f ^ (1ULL << mv[i].sq);
        const rv_pat_state *cs = &child[mv[i].child];
        if (depth < EG_MID_EVAL_ORDER_MIN) rv_pat_state_move(st, &child[mv[i].child], mv[i].sq, f);
        int v;
        if (depth == 1) {
            /* a leaf, counted as search.c counts it (a full-window
             * re-search would give the same value) */
            ai->nodes++;
            v = -EGF(mid_eval)(ai, cs, np, no, mv[i].mob);
            if (i > 0 && v > alpha && v < beta) ai->nodes++;
        } else if (i == 0) {
            v = -EGF(mid_search)(ai, np, no, -beta, -alpha, depth - 1, 0, -draw, cs);
        } else {
            v = -EGF(mid_search)(ai, np, no, -alpha - 1, -alpha, depth - 1, 0, -draw, cs);
            if (v > alpha && v < beta)
                v = -EGF(mid_search)(ai, np, no, -beta, -alpha, depth - 1, 0, -draw, cs);
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
    if (depth >= EG_MID_TT_MIN) {
        int lo = best > alpha0 ? best : -EG_MID_INF;
        int hi = best < beta ? best : EG_MID_INF;
        EG_MID_STORE(&ai->tt, P, O, depth, lo, hi, bm);
    }
    return best;
}

/* The solver's midgame search of (P, O), state st, to depth plies. */
static inline int EGF(mid_root)(rv_reversi_ai *ai, const rv_pat_state *st, uint64_t P, uint64_t O,
                                int alpha, int beta, int depth) {
    return EGF(mid_search)(ai, P, O, alpha, beta, depth, 0, -ai->contempt, st);
}
