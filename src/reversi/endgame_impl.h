/*
 * The body of the endgame solver, included by endgame.c once per code path
 * (plain C, and x86-64 with POPCNT/BMI2/AVX2 chosen at run time) with EGF()
 * naming each copy's functions.  See endgame.c for the algorithm.
 */
static inline unsigned EGF(parity_of)(uint64_t E) {
    unsigned p = 0;
    for (int q = 0; q < 4; q++) p |= (unsigned)(bit_count(E & QUADRANT[q]) & 1) << q;
    return p;
}

/* Squares tried first by the small solver: corners and the squares that are
 * neither X- nor C-squares. */
#define SMALL_GOOD (~(BB_X_SQUARES | BB_C_SQUARES))

static inline int EGF(should_poll)(rv_reversi_ai *ai) {
    if (ai->aborted) return 1;
    if ((ai->nodes & 0xFFF) == 0 && rv_ai_should_stop(ai)) ai->aborted = 1;
    return ai->aborted;
}

#ifdef EG_PEXT
/* Discs flipped by own at the last empty square x (every other square is
 * own or the opponent's). */
static inline int EGF(count_last)(uint64_t own, int x) {
    const uint64_t *m = EG_LINE_MASK[x];
    const uint8_t *pos = EG_LINE_POS[x];
    return EG_LINE_FLIPS[pos[0]][_pext_u64(own, m[0])] + EG_LINE_FLIPS[pos[1]][_pext_u64(own, m[1])] +
           EG_LINE_FLIPS[pos[2]][_pext_u64(own, m[2])] + EG_LINE_FLIPS[pos[3]][_pext_u64(own, m[3])];
}

/* The last empty square x; P to move, O = every other square. */
static inline __attribute__((always_inline)) int EGF(last1)(rv_reversi_ai *ai, uint64_t P, int x) {
    int p = bit_count(P);
    ai->nodes++;
    int c = EGF(count_last)(P, x);
    if (c) return 2 * (p + 1 + c) - 64;
    c = EGF(count_last)(~(P | (1ULL << x)), x);
    if (c) return 2 * (p - c) - 64;
    return p > 63 - p ? 2 * p - 62 : 2 * p - 64;
}
#else
/* The last empty square x; P to move, O = every other square. */
static inline __attribute__((always_inline)) int EGF(last1)(rv_reversi_ai *ai, uint64_t P, int x) {
    uint64_t bit = 1ULL << x, O = ~(P | bit);
    int p = bit_count(P);
    ai->nodes++;
    uint64_t f = (EG_NEIGHBOUR[x] & O) ? EG_FLIPS(P, O, x) : 0;
    if (f) return 2 * (p + 1 + bit_count(f)) - 64;
    f = (EG_NEIGHBOUR[x] & P) ? EG_FLIPS(O, P, x) : 0;
    if (f) return 2 * (p - bit_count(f)) - 64;
    /* Nobody can fill the last square: it goes to the winner (63 discs, odd). */
    return p > 63 - p ? 2 * p - 62 : 2 * p - 64;
}
#endif

/* The last two empty squares x1 and x2 (inlined into its callers, so the
 * pass is handled here rather than by a recursive call). */
static inline __attribute__((always_inline)) int EGF(last2)(rv_reversi_ai *ai, uint64_t P,
                                                            uint64_t O, int alpha, int beta,
                                                            int x1, int x2, int passed) {
    ai->nodes++;
    int best = -65;
    uint64_t f = (EG_NEIGHBOUR[x1] & O) ? EG_FLIPS(P, O, x1) : 0;
    if (f) {
        best = -EGF(last1)(ai, O ^ f, x2);
        if (best >= beta) return best;
    }
    f = (EG_NEIGHBOUR[x2] & O) ? EG_FLIPS(P, O, x2) : 0;
    if (f) {
        int v = -EGF(last1)(ai, O ^ f, x1);
        if (v > best) best = v;
    }
    if (best != -65) return best;
    if (passed) return final_score(P, O);
    /* P passes: the opponent's moves, scored for P (lowest first is best
     * for the opponent; at or below alpha it refutes P's window). */
    ai->nodes++;
    int worst = 65;
    f = (EG_NEIGHBOUR[x1] & P) ? EG_FLIPS(O, P, x1) : 0;
    if (f) {
        worst = EGF(last1)(ai, P ^ f, x2);
        if (worst <= alpha) return worst;
    }
    f = (EG_NEIGHBOUR[x2] & P) ? EG_FLIPS(O, P, x2) : 0;
    if (f) {
        int v = EGF(last1)(ai, P ^ f, x1);
        if (v < worst) worst = v;
    }
    return worst != 65 ? worst : final_score(P, O);
}

static int EGF(last3)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int x1,
                      int x2, int x3, int passed);
static int EGF(last3_nws)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int x1, int x2,
                          int x3, int passed);

/* The last three empty squares, tried in the order given.  nws (a constant):
 * a null window, beta == alpha + 1, as at all but a few in 10^5 calls of the
 * last four and three (FFO #52); the copy compiled for it keeps no beta and
 * never raises alpha (a move above alpha cuts). */
static inline __attribute__((always_inline)) int EGF(last3_body)(rv_reversi_ai *ai, uint64_t P,
                                                                 uint64_t O, int alpha, int beta,
                                                                 int x1, int x2, int x3,
                                                                 int passed, const int nws) {
    if (nws) beta = alpha + 1;
    ai->nodes++;
    int best = -65;
    uint64_t f = (EG_NEIGHBOUR[x1] & O) ? EG_FLIPS(P, O, x1) : 0;
    if (f) {
        best = -EGF(last2)(ai, O ^ f, P ^ f ^ (1ULL << x1), -beta, -alpha, x2, x3, 0);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }
    f = (EG_NEIGHBOUR[x2] & O) ? EG_FLIPS(P, O, x2) : 0;
    if (f) {
        int v = -EGF(last2)(ai, O ^ f, P ^ f ^ (1ULL << x2), -beta, -alpha, x1, x3, 0);
        if (v > best) {
            best = v;
            if (v >= beta) return v;
            if (v > alpha) alpha = v;
        }
    }
    f = (EG_NEIGHBOUR[x3] & O) ? EG_FLIPS(P, O, x3) : 0;
    if (f) {
        int v = -EGF(last2)(ai, O ^ f, P ^ f ^ (1ULL << x3), -beta, -alpha, x1, x2, 0);
        if (v > best) best = v;
    }
    if (best == -65) {
        if (passed) return final_score(P, O);
        if (nws) return -EGF(last3_nws)(ai, O, P, -beta, x1, x2, x3, 1);
        return -EGF(last3)(ai, O, P, -beta, -alpha, x1, x2, x3, 1);
    }
    return best;
}

static int EGF(last3)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int x1,
                      int x2, int x3, int passed) {
    return EGF(last3_body)(ai, P, O, alpha, beta, x1, x2, x3, passed, 0);
}

static int EGF(last3_nws)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int x1, int x2,
                          int x3, int passed) {
    return EGF(last3_body)(ai, P, O, alpha, alpha + 1, x1, x2, x3, passed, 1);
}

/* The last three empties, a square alone in its quadrant (odd parity)
 * first. */
static inline int EGF(last3_par)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                                 int x1, int x2, int x3, unsigned parity, int passed,
                                 const int nws) {
    uint64_t odd3 = PARITY_MASK[parity];
    if (!((odd3 >> x1) & 1)) {
        if ((odd3 >> x2) & 1) { int t = x1; x1 = x2; x2 = t; }
        else if ((odd3 >> x3) & 1) { int t = x1; x1 = x3; x3 = t; }
    }
    if (nws) return EGF(last3_nws)(ai, P, O, alpha, x1, x2, x3, passed);
    return EGF(last3)(ai, P, O, alpha, beta, x1, x2, x3, passed);
}

/* The small solver's order of the squares E: the four classes odd quadrants
 * x good squares, odd x X/C-squares, even x good, even x X/C (parity: bit q
 * of the 4-bit word set when quadrant q has an odd number of empties). */
static inline void EGF(small_classes)(uint64_t E, unsigned parity, uint64_t cls[4]) {
    uint64_t odd = PARITY_MASK[parity];
    cls[0] = E & odd & SMALL_GOOD;
    cls[1] = E & odd & ~SMALL_GOOD;
    cls[2] = E & ~odd & SMALL_GOOD;
    cls[3] = E & ~odd & ~SMALL_GOOD;
}

#if EG_LAST4
/* One move of the last four: square s, the other three a, b, c (in their
 * order), for last4 below. */
#define EG_LAST4_TRY(s, a, b, c)                                                          \
    if (EG_NEIGHBOUR[s] & O) {                                                            \
        uint64_t f = EG_FLIPS(P, O, s);                                                   \
        if (f) {                                                                          \
            int v = -EGF(last3_par)(ai, O ^ f, P ^ f ^ (1ULL << (s)), -beta, -alpha, a, b, \
                                    c, parity ^ QUAD_BIT(s), 0, nws);                     \
            if (v > best) {                                                               \
                best = v;                                                                 \
                if (v > alpha) {                                                          \
                    if (v >= beta) return v;                                              \
                    alpha = v;                                                            \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
    }

/* The last four empties x0..x3, tried in that order (odd quadrants and good
 * squares first, as sorted by the caller); -65 when P has no move.  The
 * squares are scalars and the loop unrolled: an array of squares indexed
 * through a table of the other three put loads (and a store forwarded to
 * them) on the path of every move. */
static inline __attribute__((always_inline)) int EGF(last4)(rv_reversi_ai *ai, uint64_t P,
                                                            uint64_t O, int alpha, int beta,
                                                            int x0, int x1, int x2, int x3,
                                                            unsigned parity, const int nws) {
    ai->nodes++;
    int best = -65;
    EG_LAST4_TRY(x0, x1, x2, x3)
    EG_LAST4_TRY(x1, x0, x2, x3)
    EG_LAST4_TRY(x2, x0, x1, x3)
    EG_LAST4_TRY(x3, x0, x1, x2)
    return best;
}
#undef EG_LAST4_TRY
#endif

static int EGF(eg_small)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int n,
                         int passed, unsigned parity);

#if EG_LAST4
/* Four empties: the stability bound, then the squares sorted once (in the
 * classes of small_classes) for last4; nws as in last3_body. */
static inline __attribute__((always_inline)) int EGF(small4_body)(rv_reversi_ai *ai, uint64_t P,
                                                                  uint64_t O, int alpha, int beta,
                                                                  int passed, unsigned parity,
                                                                  const int nws) {
    if (nws) beta = alpha + 1;
    uint64_t E = ~(P | O);
#if EG_SMALL_STAB_MIN <= 4
    /* The stability bound here too: 18% fewer nodes on FFO #40-#49 (the
     * lopsided positions), nothing on near-even ones. */
    if (alpha >= EG_STAB4_ALPHA) {
        int ub = 64 - 2 * bit_count(stable_discs(O, P));
        if (ub <= alpha) {
            ai->nodes++;
            return ub;
        }
    }
#endif
    int x0, x1, x2, x3;
#if defined(EG_PEXT) && EG_SORT4_TABLE
    /* Entry j of the table's byte is the index i of the j-th square tried
     * among the empties (in square order): its square is the i-th set bit
     * of E, deposited by pdep (no array in memory). */
    uint64_t even = ~PARITY_MASK[parity];
    unsigned perm = EG_SORT4[_pext_u64(even, E) | _pext_u64(~SMALL_GOOD, E) << 4];
    x0 = first_bit(_pdep_u64(1ULL << (perm & 3), E));
    x1 = first_bit(_pdep_u64(1ULL << ((perm >> 2) & 3), E));
    x2 = first_bit(_pdep_u64(1ULL << ((perm >> 4) & 3), E));
    x3 = first_bit(_pdep_u64(1ULL << (perm >> 6), E));
#else
    uint64_t cls[4];
    int x[4], k = 0;
    EGF(small_classes)(E, parity, cls);
    for (int c = 0; c < 4; c++)
        for (uint64_t m = cls[c]; m; m &= m - 1) x[k++] = first_bit(m);
    x0 = x[0];
    x1 = x[1];
    x2 = x[2];
    x3 = x[3];
#endif
    int v = EGF(last4)(ai, P, O, alpha, beta, x0, x1, x2, x3, parity, nws);
    if (v != -65) return v;
    if (passed) return final_score(P, O);
    /* P passes: the opponent's moves (a second pass ends the game). */
    v = EGF(last4)(ai, O, P, -beta, -alpha, x0, x1, x2, x3, parity, nws);
    return v != -65 ? -v : final_score(P, O);
}

static int EGF(small4)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                       int passed, unsigned parity) {
    return EGF(small4_body)(ai, P, O, alpha, beta, passed, parity, 0);
}

static int EGF(small4_nws)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int passed,
                           unsigned parity) {
    return EGF(small4_body)(ai, P, O, alpha, alpha + 1, passed, parity, 1);
}
#endif

#if EG_SMALL_SPLIT
static int EGF(small5)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                       int passed, unsigned parity);
static int EGF(small6)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                       int passed, unsigned parity);
#endif

/* The small solver at n empties; with n a constant (the copies small5 and
 * small6 below) the choice of the child's solver folds away, a branch on n
 * that was 3.5% of the small solver's mispredictions (callgrind, FFO #47). */
static inline __attribute__((always_inline)) int EGF(small_at)(rv_reversi_ai *ai, uint64_t P,
                                                               uint64_t O, int alpha, int beta,
                                                               const int n, int passed,
                                                               unsigned parity) {
#if EG_LAST4
    if (n == 4) {
        if (beta == alpha + 1) return EGF(small4_nws)(ai, P, O, alpha, passed, parity);
        return EGF(small4)(ai, P, O, alpha, beta, passed, parity);
    }
#endif
#if EG_SMALL_SPLIT
    if (n == 5) return EGF(small5)(ai, P, O, alpha, beta, passed, parity);
    if (n == 6) return EGF(small6)(ai, P, O, alpha, beta, passed, parity);
#endif
    return EGF(eg_small)(ai, P, O, alpha, beta, n, passed, parity);
}

/* Five or more empties: every legal move, in the classes of small_classes. */
static inline __attribute__((always_inline)) int EGF(small_n)(rv_reversi_ai *ai, uint64_t P,
                                                              uint64_t O, int alpha, int beta,
                                                              const int n, int passed,
                                                              unsigned parity) {
    ai->nodes++;
    /* The opponent's stable discs bound the score (cheaper to skip where
     * alpha is too low for the bound to reach it). */
    if (n >= EG_SMALL_STAB_MIN && alpha >= 2 * n - 2) {
        int ub = 64 - 2 * bit_count(stable_discs(O, P));
        if (ub <= alpha) return ub;
    }
    uint64_t moves = EG_MOVES(P, O);
    if (!moves) {
        if (passed) return final_score(P, O);
        return -EGF(small_at)(ai, O, P, -beta, -alpha, n, 1, parity);
    }
    uint64_t order[4];
    EGF(small_classes)(moves, parity, order);
    int best = -65;
#if defined(EG_PEXT) && EG_SMALL_FLAT && EG_SMALL <= 8
    /* One loop over the moves in class order: the moves of class k as the
     * indices (among the empty squares E) in byte k of w, so the walk has a
     * single exit instead of four data-dependent ones (the class loop's exits
     * were 10% of the small solver's mispredictions on FFO #47). */
    const uint64_t E = ~(P | O);
    uint64_t w = _pext_u64(order[0], E) | _pext_u64(order[1], E) << 8 |
                 _pext_u64(order[2], E) << 16 | _pext_u64(order[3], E) << 24;
    for (; w; w &= w - 1) {
        int x = first_bit(_pdep_u64(1ULL << (first_bit(w) & 7), E));
#else
    for (int k = 0; k < 4; k++) {
        for (uint64_t m = order[k]; m; m &= m - 1) {
            int x = first_bit(m);
#endif
            uint64_t f = EG_FLIPS(P, O, x);
            uint64_t np = O ^ f, no = P ^ f ^ (1ULL << x);
            int v = -EGF(small_at)(ai, np, no, -beta, -alpha, n - 1, 0, parity ^ QUAD_BIT(x));
            if (v > best) {
                best = v;
                if (v > alpha) {
                    if (v >= beta) return v;
                    alpha = v;
                }
            }
#if defined(EG_PEXT) && EG_SMALL_FLAT && EG_SMALL <= 8
    }
#else
        }
    }
#endif
    return best;
}

#if EG_SMALL_SPLIT
static int EGF(small5)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                       int passed, unsigned parity) {
    return EGF(small_n)(ai, P, O, alpha, beta, 5, passed, parity);
}

static int EGF(small6)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                       int passed, unsigned parity) {
    return EGF(small_n)(ai, P, O, alpha, beta, 6, passed, parity);
}
#endif

/* parity: bit q set when quadrant q has an odd number of empties. */
static int EGF(eg_small)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int n,
                         int passed, unsigned parity) {
    uint64_t E = ~(P | O);
    if (n == 1) return EGF(last1)(ai, P, first_bit(E));
    if (n == 2) {
        int x1 = first_bit(E);
        return EGF(last2)(ai, P, O, alpha, beta, x1, first_bit(E & (E - 1)), passed);
    }
    if (n == 3) {
        int x1 = first_bit(E);
        uint64_t r = E & (E - 1);
        int x2 = first_bit(r), x3 = first_bit(r & (r - 1));
        return EGF(last3_par)(ai, P, O, alpha, beta, x1, x2, x3, parity, passed, 0);
    }
#if EG_LAST4
    if (n == 4) return EGF(small4)(ai, P, O, alpha, beta, passed, parity);
#endif
#if EG_SMALL_SPLIT
    if (n == 5) return EGF(small5)(ai, P, O, alpha, beta, passed, parity);
    if (n == 6) return EGF(small6)(ai, P, O, alpha, beta, passed, parity);
#endif
    return EGF(small_n)(ai, P, O, alpha, beta, n, passed, parity);
}

/* Moves mv[i] with the smallest key among mv[i..n-1] to mv[i] (keys are
 * distinct: each holds the move's index in its low bits, so the moves come
 * out in the order of a stable sort).  Sorting lazily pays because most
 * nodes that cut do so on their first move. */
static inline void EGF(pick_move)(eg_move *mv, int i, int n) {
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (mv[j].key < mv[b].key) b = j;
    if (b != i) {
        eg_move t = mv[i];
        mv[i] = mv[b];
        mv[b] = t;
    }
}

/* The stable discs cost a fixpoint computation, so they are only counted
 * when alpha is high enough for the bound 64 - 2 * stable to have a fair
 * chance of reaching it: alpha >= 2 * empties (within noise of the earlier
 * alpha > 0 test on FFO #40-#44; the bound is safe at any alpha). */
static inline int EGF(stability_cutoff_possible)(int alpha, int n) {
    return alpha >= 2 * n;
}

/* This code path's instance of the midgame search (mid_node_impl.h) for the
 * ordering searches, the ProbCut tests and the searches for a move: search.c's
 * node as rv_ai_mid_search runs it (ProbCut at PC_T_SOLVE, no late-move
 * reductions), with the path's move generation and evaluation inlined (the
 * solver only runs it with the pattern evaluation). */
#define MIDF(name) EGF(mid_##name)
#define MID_GEN_DECL
#define MID_MOVES(P, O) EG_MOVES(P, O)
#define MID_FLIPS(P, O, sq) EG_FLIPS(P, O, sq)
#define MID_MOBILITY(P, O) bit_count(EG_MOVES(P, O))
#define MID_EVAL(ai, st, P, O, mob) rv_ai_pattern_centi(EG_PAT_EVAL((ai)->pat_w, st, P, O, mob, -1))
#define MID_EVAL_FRESH(ai, P, O) rv_ai_eval(ai, P, O)
#define MID_PC_T(ai) PC_T_SOLVE
#define MID_LMR 0
#include "reversi/mid_node_impl.h"
#undef MIDF
#undef MID_GEN_DECL
#undef MID_MOVES
#undef MID_FLIPS
#undef MID_MOBILITY
#undef MID_EVAL
#undef MID_EVAL_FRESH
#undef MID_PC_T
#undef MID_LMR

/* The solver's midgame search of (P, O), state st, to depth plies. */
static inline int EGF(mid_root)(rv_reversi_ai *ai, const rv_pat_state *st, uint64_t P, uint64_t O,
                                int alpha, int beta, int depth) {
    return EGF(mid_mid_search)(ai, P, O, alpha, beta, depth, 0, -ai->contempt, st);
}

#if EG_PC
/*
 * ProbCut in a selective pass: a shallow midgame search s predicts the exact
 * score as s + bias with error sd sigma (EG_PC_BIAS / EG_PC_SIGMA); the node
 * is cut when the prediction lies t * sigma beyond the window (t from the
 * pass's level).  Returns 1 and sets *v when it cuts.
 */
static int EGF(eg_probcut)(rv_reversi_ai *ai, const rv_pat_state *st, uint64_t P, uint64_t O,
                           int alpha, int beta, int n, int *v) {
    int ds = EG_PC_DEPTH(n) < RV_EG_PC_DEPTHS - 1 ? EG_PC_DEPTH(n) : RV_EG_PC_DEPTHS - 1;
    int t = EG_PC_T[ai->eg_sel] * EG_PC_SIGMA[ds] / 100, b = EG_PC_BIAS[ds];
    if (beta < 64) {
        int bound = 100 * beta + t - b;
        if (EGF(mid_root)(ai, st, P, O, bound - 1, bound, ds) >= bound) {
            *v = beta;
            return 1;
        }
        if (ai->aborted) return 0;
    }
    if (alpha > -64) {
        int bound = 100 * alpha - t - b;
        if (EGF(mid_root)(ai, st, P, O, bound, bound + 1, ds) <= bound) {
            *v = alpha;
            return 1;
        }
    }
    return 0;
}
#endif

/* The ordering key of move x (flips f) of (P, O) at n empties without the
 * evaluation (E the empties, odd the odd quadrants' squares); *rep gets the
 * opponent's moves after it, *own our number of moves after it (above
 * EG_CHEAP_MAX empties, else -1).  Fastest first: a low key is tried first. */
static inline __attribute__((always_inline)) int EGF(move_key)(uint64_t P, uint64_t O, uint64_t E,
                                                               uint64_t odd, int x, uint64_t f,
                                                               int n, uint64_t *rep, int *own) {
    uint64_t np = O ^ f, no = P ^ f ^ (1ULL << x);
    *rep = EG_MOVES(np, no);
    *own = -1;
    int key = bit_count(*rep) * KW_MOB + bit_count(*rep & BB_CORNERS) * KW_CORNER;
    key -= (int)((odd >> x) & 1) * KW_PAR;
    if (n <= EG_CHEAP_MAX) return key;
    /* Our own mobility afterwards: moves that keep options open. */
    *own = bit_count(EG_MOVES(no, np));
    key -= *own * KW_OWNMOB;
    {
        /* Corner stability: our corners and the discs beside them. */
        uint64_t c = no & BB_CORNERS;
        uint64_t adj = ((c << 1) & ~BB_FILE_A) | ((c >> 1) & ~BB_FILE_H) | (c << 8) | (c >> 8);
        key -= KW_CSTAB * bit_count(c | (adj & no));
    }
    /* Potential mobility of the opponent: empty squares next to our discs. */
    key += bit_count(bb_neighbours(no) & E & ~(1ULL << x)) * KW_POT;
    return key;
}

static int EGF(eg_deep)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int n,
                        int passed, unsigned parity, int *best_move, const eg_from *from);

/* The pattern state of (P, O), the node reached by from (NULL: none). */
static inline void EGF(node_state)(rv_pat_state *st, uint64_t P, uint64_t O, const eg_from *from) {
    if (from) rv_pat_state_move(from->st, st, from->sq, from->flips);
    else EG_PAT_INIT(st, P, O);
}

/* The children of (P, O) by moves into mv[] (in square order: the keys'
 * tie-break), their flips computed; with prefetch, each child's table bucket
 * is prefetched (the child probes it soon, or the cut-offs do), but skip's
 * (the table move, already searched; -1: none).  Returns their number. */
static inline __attribute__((always_inline)) int EGF(gen_children)(rv_reversi_ai *ai, uint64_t P,
                                                                   uint64_t O, uint64_t moves,
                                                                   eg_move *mv, int prefetch,
                                                                   int skip) {
    int nm = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
        int x = first_bit(m);
        uint64_t f = EG_FLIPS(P, O, x);
        mv[nm].flips = f;
        mv[nm++].sq = x;
        if (prefetch && x != skip) tt_prefetch(&ai->tt, O ^ f, P ^ f ^ (1ULL << x));
    }
    return nm;
}

/* A child of an ordered node after a move (no pass), n empties, parity its
 * parity word, from its way (or NULL): the small solver called directly
 * where it takes over. */
static inline int EGF(eg_child)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta,
                                int n, unsigned parity, const eg_from *from) {
    /* The common case (a child of 7 empties) straight to its copy. */
    if (n == EG_SMALL) return EGF(small_at)(ai, P, O, alpha, beta, EG_SMALL, 0, parity);
    if (n < EG_SMALL) return EGF(eg_small)(ai, P, O, alpha, beta, n, 0, parity);
    return EGF(eg_deep)(ai, P, O, alpha, beta, n, 0, parity, NULL, from);
}

/* parity: the node's parity word (as in small_classes), kept by the caller
 * from its own (flipped at the move's quadrant), not counted again here;
 * from: the node's way from its parent when the parent has its pattern
 * state (the node's own state from it), else NULL. */
static int EGF(eg_deep)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int n,
                   int passed, unsigned parity, int *best_move, const eg_from *from) {
    if (n <= EG_SMALL && !best_move)
        return EGF(eg_small)(ai, P, O, alpha, beta, n, passed, parity);
    ai->nodes++;
    /* the node's table index, hashed once for its prefetch, probe and store */
    const uint64_t ti = n >= EG_TT_MIN ? tt_index(&ai->tt, P, O) : 0;
    if (n >= EG_TT_MIN) tt_prefetch_at(&ai->tt, ti);
    if (EGF(should_poll)(ai)) return alpha;

    if (EGF(stability_cutoff_possible)(alpha, n)) {
        int ub = 64 - 2 * bit_count(stable_discs(O, P));
        if (ub <= alpha) return ub;
    }

    uint64_t moves = EG_MOVES(P, O);
    if (!moves) {
        if (passed) {
            if (best_move) *best_move = RV_REVERSI_AI_NONE;
            return final_score(P, O);
        }
        if (!EG_MOVES(O, P)) {
            if (best_move) *best_move = RV_REVERSI_AI_NONE;
            return final_score(P, O);
        }
        if (best_move) *best_move = RV_REVERSI_PASS;
        return -EGF(eg_deep)(ai, O, P, -beta, -alpha, n, 1, parity, NULL, NULL);
    }

    eg_move mv[32];
    int nm = 0;
    int keyed = 0; /* mv[] has its keys */
#if EG_EARLY_GEN
    /* Every child generated and its bucket prefetched before this node's
     * own probe: that probe usually waits for a cache miss, and the
     * children's loads now overlap it (they used to start only after it,
     * so a first child's probe waited for most of its own miss). */
    if (n > EG_TT_MIN || (EG_KEYS_EARLY && n == EG_TT_MIN)) {
        nm = EGF(gen_children)(ai, P, O, moves, mv, n > EG_TT_MIN, -1);
#if EG_KEYS_EARLY
        /* Below EG_EVAL_MIN the keys need no memory (no evaluation, no
         * search): computed here too, while the node's own bucket (and the
         * children's) are still on their way. */
        if (n < EG_EVAL_MIN) {
            uint64_t E = ~(P | O), odd = PARITY_MASK[parity], rep;
            int own;
            for (int i = 0; i < nm; i++)
                mv[i].key = EGF(move_key)(P, O, E, odd, mv[i].sq, mv[i].flips, n, &rep, &own) *
                                EG_KEY_IDX + i;
            keyed = 1;
        }
#endif
    }
#endif

    int tt_move = -1;
    const int cert = EG_CERT(ai);
    if (n >= EG_TT_MIN) {
        const tt_entry *e = tt_probe_at(&ai->tt, ti, P, O, TT_KIND_EXACT);
        if (e) {
            /* Bounds only from a search at least as sure as this one; the
             * move from any. */
            if (EG_TT_CERT(e) >= cert && !best_move) {
                if (e->lower >= beta) return e->lower;
                if (e->upper <= alpha) return e->upper;
                if (e->lower == e->upper) return e->lower;
                /* Not at the root: there the bounds could cross the window
                 * (an entry above or below it) and the window is the
                 * caller's to keep. */
                if (e->lower > alpha) alpha = e->lower;
                if (e->upper < beta) beta = e->upper;
            }
            tt_move = e->move;
        }
    }
#if EG_PC && EG_IID_MIN > 0
    /* Far from the end, a node of the exact pass that no selective pass
     * reached (a ProbCut cut-off above it) has no table move: a selective
     * search of the node first finds one (and leaves moves in the table
     * below it) at a small fraction of the exact subtree's cost.  It is
     * searched as a root (a best-move pointer: no ProbCut test of the node
     * itself, whose cut-off would return without a move), so it always
     * yields a move: FFO #53 -4.6% nodes against the node's own ProbCut. */
    if (!ai->eg_sel && n >= EG_IID_MIN && (tt_move < 0 || tt_move >= 64) &&
        ai->eval_kind == RV_REVERSI_EVAL_PATTERN) {
        int im = -1;
        ai->eg_sel = EG_IID_LEVEL;
        (void)EGF(eg_deep)(ai, P, O, alpha, beta, n, passed, parity, &im, from);
        ai->eg_sel = 0;
        if (ai->aborted) return alpha;
        tt_move = im;
    }
#endif
    rv_pat_state st; /* this node's pattern state, set up where first needed */
    int st_ready = 0;
#if EG_PC
    if (ai->eg_sel && n >= EG_PC_MIN && !best_move && ai->eval_kind == RV_REVERSI_EVAL_PATTERN) {
        int v;
        EGF(node_state)(&st, P, O, from);
        st_ready = 1;
        if (EGF(eg_probcut)(ai, &st, P, O, alpha, beta, n, &v)) return v;
        if (ai->aborted) return alpha;
    }
#endif
    const int alpha0 = alpha;
    int best = -65, bm = -1;

#if EG_HASH_FIRST
    /* The table's move first, before the others are generated and keyed:
     * it usually refutes the node alone, and then the ordering work (the
     * shallow searches far from the end) is never done. */
    if (tt_move >= 0 && tt_move < 64 && ((moves >> tt_move) & 1)) {
        uint64_t bit = 1ULL << tt_move, f;
#if EG_EARLY_GEN
        int t = nm ? bit_count(moves & (bit - 1)) : 0;
        f = nm ? mv[t].flips : EG_FLIPS(P, O, tt_move);
#else
        f = EG_FLIPS(P, O, tt_move);
#endif
        const eg_from hf = {&st, f, tt_move}; /* where the ProbCut test set st up */
        best = -EGF(eg_deep)(ai, O ^ f, P ^ f ^ bit, -beta, -alpha, n - 1, 0,
                             parity ^ QUAD_BIT(tt_move), NULL,
                             st_ready ? &hf : NULL);
        if (ai->aborted) return alpha;
        bm = tt_move;
        moves &= ~bit;
        if (best > alpha) alpha = best;
        if (best >= beta || !moves) goto done;
#if EG_EARLY_GEN
        if (nm) { /* the others keep their order (the keys' tie-break) */
            for (int i = t + 1; i < nm; i++) {
                mv[i - 1] = mv[i];
                mv[i - 1].key -= keyed; /* its index, one less */
            }
            nm--;
        }
#endif
    }
#endif

    uint64_t E = ~(P | O);
    uint64_t odd = PARITY_MASK[parity];
    if (!nm) nm = EGF(gen_children)(ai, P, O, moves, mv, n > EG_TT_MIN, tt_move);
    if (n > EG_ETC_MIN) {
        /* Enhanced transposition cut-off: a child already known to be bad
         * enough for the opponent refutes this node at once (probed after
         * every child's bucket was prefetched, so the loads overlap). */
        for (int i = 0; i < nm; i++) {
            int x = mv[i].sq;
            if (x == tt_move) continue;
            uint64_t f = mv[i].flips;
            const tt_entry *c = tt_probe(&ai->tt, O ^ f, P ^ f ^ (1ULL << x), TT_KIND_EXACT);
            if (c && EG_TT_CERT(c) >= cert && -c->upper >= beta) {
                if (best_move) *best_move = x;
                return -c->upper;
            }
        }
    }
    /* The shallow searches' window, from the opponent's side: a move worse
     * for us than alpha by EG_SORT_DELTA only needs to be known as bad (its
     * fail-soft bound orders it behind the others), and the opponent's
     * search of it stops at the first good enough reply. */
    const int sort_hi = EG_SORT_DELTA > 0 ? EG_SORT_DELTA - 100 * alpha : 30000;
    for (int i = 0; i < nm && !keyed; i++) {
        eg_move *e = &mv[i];
        int x = e->sq;
        uint64_t f = e->flips;
        if (x == tt_move) {
            e->key = -1000000 * EG_KEY_IDX + i;
            continue;
        }
        uint64_t np = O ^ f, no = P ^ f ^ (1ULL << x), rep;
        int own;
        int key = EGF(move_key)(P, O, E, odd, x, f, n, &rep, &own);
        /* Far from the end, the fitted evaluation of the position after the
         * move (the opponent's view: low is good for us) sorts better still
         * (the hand-weighted one does not pay for itself). */
        if (n >= EG_EVAL_MIN && ai->eval_kind == RV_REVERSI_EVAL_PATTERN) {
            /* From EG_SHALLOW_MIN empties a shallow search instead, deeper
             * the further from the end. */
            int v;
#if EG_EVAL_INCR > 0
            if (n >= EG_SHALLOW_MIN || nm >= EG_EVAL_INCR) {
                /* The child's state from this node's: the same value as
                 * rv_ai_eval (FFO #55 keys ten-odd children a node at 14
                 * empties), and the shallow search starts from it. */
                if (!st_ready) {
                    EGF(node_state)(&st, P, O, from);
                    st_ready = 1;
                }
                rv_pat_state cs;
                rv_pat_state_move(&st, &cs, x, f);
                if (n >= EG_SHALLOW_MIN)
                    v = EGF(mid_root)(ai, &cs, np, no, -30000, sort_hi, EG_SHALLOW_DEPTH(n));
                else
                    v = rv_ai_pattern_centi(
                        EG_PAT_EVAL(ai->pat_w, &cs, np, no, bit_count(rep), own));
            } else {
#else
            if (n >= EG_SHALLOW_MIN) {
                v = rv_ai_mid_search(ai, np, no, -30000, sort_hi, EG_SHALLOW_DEPTH(n));
            } else {
#endif
                v = rv_ai_eval(ai, np, no);
            }
            key += v * KW_EVAL / 100;
        }
        e->key = key * EG_KEY_IDX + i;
    }

    for (int i = 0; i < nm; i++) {
        EGF(pick_move)(mv, i, nm);
        uint64_t f = mv[i].flips, bit = 1ULL << mv[i].sq;
        uint64_t np = O ^ f, no = P ^ f ^ bit;
        unsigned cp = parity ^ QUAD_BIT(mv[i].sq);
        /* the child's state from this node's, where it has one */
        const eg_from cf = {&st, f, mv[i].sq}, *fr = st_ready ? &cf : NULL;
        int v;
        if (i == 0 && best == -65) {
            v = -EGF(eg_child)(ai, np, no, -beta, -alpha, n - 1, cp, fr);
        } else {
            v = -EGF(eg_child)(ai, np, no, -alpha - 1, -alpha, n - 1, cp, fr);
            if (v > alpha && v < beta) v = -EGF(eg_child)(ai, np, no, -beta, -alpha, n - 1, cp, fr);
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
#if EG_HASH_FIRST
done:
#endif
    if (n >= EG_TT_MIN) {
        int lo = best >= beta ? best : (best > alpha0 ? best : -64);
        int hi = best <= alpha0 ? best : (best >= beta ? 64 : best);
        tt_store_at(&ai->tt, ti, P, O, TT_KIND_EXACT, EG_TT_DEPTH(n, cert), lo, hi, bm);
    }
    if (best_move) *best_move = bm;
    return best;
}


/* The entry of this copy: the root of a solve. */
static int EGF(eg_root)(rv_reversi_ai *ai, uint64_t P, uint64_t O, int alpha, int beta, int *best) {
    int n = bit_count(~(P | O));
    int bm = RV_REVERSI_AI_NONE;
    int v = EGF(eg_deep)(ai, P, O, alpha, beta, n, 0, EGF(parity_of)(~(P | O)), &bm, NULL);
    *best = bm;
    return v;
}
