/*
 * Threat-aware alpha-beta (PVS) for Gomoku/Renju, with iterative deepening,
 * null-move pruning, late-move reductions and move-count pruning, a transposition
 * table and killer/history move ordering.
 *
 * Threats prune the tree: a side with a five point wins; a side facing the
 * opponent's four must block it (no depth spent — the reply is forced); a side
 * with an open four (or two fours) to make wins in 3 plies; facing an open three
 * or a four-three, only its exact defences (gsearch_defences) and own fours are tried
 * (against a four-three its own threes too: counter-fours), and when the exact defences
 * and fours are 3 or fewer the node costs no depth (as the four's block). A node whose
 * list was cut to its width and lost every move searches the rest before it is lost.
 * Under Renju black's moves are filtered through rv_gomoku_forbidden (gb_legal),
 * so a white four whose only defence is forbidden wins for white by itself, and white to
 * move with such a four to make wins as with an open four (gsearch_trap_four). At the leaves a
 * quiescence over fours (qsearch): the static value, or the side's best four and its forced
 * block, four in a row at most.
 */
#include "gomoku/search.h"

#include <math.h>
#include <stdlib.h>

#if defined(__SSE2__) && !defined(RV_NO_SIMD)
#include <emmintrin.h>
#define GSEARCH_SSE2 1
#else
#define GSEARCH_SSE2 0
#endif

#include "renversi/core.h"

#define MAX_MOVES 64
#define ASPIRATION 150
#define FUTILITY 100 /* per ply of depth left, at depth 1-2 */
#define QS_FOURS 4   /* fours in a row at the leaves (qsearch) */

static int mate_to_tt(int s, int ply) {
    return s >= RV_GOMOKU_AI_WIN_MIN ? s + ply : s <= -RV_GOMOKU_AI_WIN_MIN ? s - ply : s;
}
static int mate_from_tt(int s, int ply) {
    return s >= RV_GOMOKU_AI_WIN_MIN ? s - ply : s <= -RV_GOMOKU_AI_WIN_MIN ? s + ply : s;
}

/* The time budget less what a late answer may need: twice the longest wait between two
   polls (on a quiet machine a fraction of a millisecond; on a loaded one the thread waits
   for a core that long, after the stop and again to send the answer), at most half. */
static double time_budget(const rv_gomoku_ai *ai) {
    double late = 2 * ai->late_s, most = 0.5 * ai->budget_s;
    return ai->budget_s - (late < most ? late : most);
}

int gai_should_stop(rv_gomoku_ai *ai) {
    /* think_no 0: a search no think numbered (rv_gomoku_vcf's own engine) */
    if (ai->think_no && atomic_load_explicit(&ai->stop_upto, memory_order_relaxed) >= ai->think_no)
        return 1;
    if (ai->budget_nodes && (double)ai->nodes >= ai->stop_frac * (double)ai->budget_nodes) return 1;
    if (ai->budget_s > 0) {
        double now = rv_clock_seconds();
        if (now - ai->last_poll > ai->late_s) ai->late_s = now - ai->last_poll;
        ai->last_poll = now;
        if (now - ai->t0 >= ai->stop_frac * time_budget(ai)) return 1;
    }
    return 0;
}

double gai_used(const rv_gomoku_ai *ai) {
    double u = 0;
    if (ai->budget_nodes) u = (double)ai->nodes / (double)ai->budget_nodes;
    if (ai->budget_s > 0) {
        double t = (rv_clock_seconds() - ai->t0) / time_budget(ai);
        if (t > u) u = t;
    }
    return u;
}

/* Static evaluation for the side to move: the fitted tables (eval_weights.c) summed over
   the empty points of both colours, plus the side to move's tempo and threat term. */
static int evaluate(const gboard *b) {
    int us = b->stm - 1, them = 1 - us;
    const int16_t *x = b->t->extra[us];
    int s = b->etot[us][GB_TO_MOVE] - b->etot[them][GB_WAITING] + x[GB_X_TEMPO];
    int term = gb_threat_term(b);
    if (term != GB_X_TEMPO) s += x[term];
    if (s > 20000) s = 20000;
    if (s < -20000) s = -20000;
    return s;
}

/* The score used to order and choose moves: the fitted move score (gb_move_score, from both
   colours' patterns and threat levels at p), plus a little history; the node's tables are
   looked up once for its many points (scorer_init, then scorer_score for each point). */
typedef struct move_scorer {
    const int16_t *own, *opp;    /* the side to move's scores by its combo, by the opponent's */
    const int16_t (*pair)[TL_N]; /* by both threat levels */
    const uint16_t *cu, *ct;     /* the combos of the side to move, of the opponent */
    const uint8_t *tu, *tt;      /* their threat levels */
    const int *hist;
} move_scorer;

static void scorer_init(move_scorer *s, const rv_gomoku_ai *ai, const gboard *b) {
    int us = b->stm - 1, them = 1 - us;
    s->own = b->t->ms[us][0], s->opp = b->t->ms[us][1], s->pair = b->t->ms_pair[us];
    s->cu = b->combo[us], s->ct = b->combo[them], s->tu = b->tl[us], s->tt = b->tl[them];
    s->hist = ai->history[us];
}

static inline int scorer_score(const move_scorer *s, int p) {
    int h = s->hist[p] >> 6;
    return s->own[s->cu[p]] + s->opp[s->ct[p]] + s->pair[s->tu[p]][s->tt[p]] + (h < 24 ? h : 24);
}

#define MAX_THREATS 24 /* threat points gsearch_defences checks; more: the old rule */

#if GSEARCH_SSE2
/* Bit i set when the point p + i is empty and colour index ci's threat level there is in
   lo..hi (levels are 0..TL_N - 1, so signed byte compares serve). Reads 16 cells and
   levels from p, inside the padded board (the caller masks the points past its row's
   run). */
static inline unsigned tl16(const gboard *b, int ci, int p, int lo, int hi) {
    __m128i cell = _mm_loadu_si128((const __m128i *)(b->cell + p));
    __m128i tl = _mm_loadu_si128((const __m128i *)(b->tl[ci] + p));
    __m128i in = _mm_andnot_si128(_mm_cmpgt_epi8(tl, _mm_set1_epi8((char)hi)),
                                  _mm_cmpgt_epi8(tl, _mm_set1_epi8((char)(lo - 1))));
    return (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(cell, _mm_setzero_si128()), in));
}
#endif

/* gsearch_defences with the board's box r (gsearch_box_of) */
static int defences_in(const gboard *b, const gsearch_box *rb, int *out, int max) {
    int us = b->stm - 1, them = 1 - us;
    int total = b->cnt[them][TL_FLEX4] + b->cnt[them][TL_FOUR3];
    if (!total || total > MAX_THREATS) return -1;
    int q[MAX_THREATS], nq = 0;
    gsearch_box r = *rb;
#if GSEARCH_SSE2
    _Static_assert(TL_FLEX4 == TL_FOUR3 + 1, "the two levels are one range");
    for (int y = r.y0; y <= r.y1 && nq < total; y++) {
        int p0 = gb_index(r.x0, y), w = r.x1 - r.x0 + 1;
        for (int k = 0; k < w && nq < total; k += 16) {
            unsigned m = tl16(b, them, p0 + k, TL_FOUR3, TL_FLEX4);
            if (w - k < 16) m &= (1u << (w - k)) - 1;
            for (; m && nq < total; m &= m - 1) q[nq++] = p0 + k + __builtin_ctz(m);
        }
    }
#else
    for (int y = r.y0; y <= r.y1 && nq < total; y++)
        for (int x = r.x0; x <= r.x1; x++) {
            int p = gb_index(x, y), t = b->tl[them][p];
            if (b->cell[p] || (t != TL_FLEX4 && t != TL_FOUR3)) continue;
            q[nq++] = p;
            if (nq == total) break;
        }
#endif
    /* a defence takes away q[0]'s threat, so it is q[0] or on one of its lines within 5
       points, one that makes an open three or more there (a block on a weaker line
       leaves it weaker than an open three, since an opponent stone never strengthens a
       line, test_gomoku_defence, and q[0]'s threat as it is); each such point is kept
       when every threat point loses its threat */
    int n = 0;
    for (int d = 0; d < 4; d++)
        for (int k = -5; k <= 5; k++) {
            if (d && k == 0) continue;
            if (k && gb_pat(b, them + 1, q[0], d) <= PAT_BLOCK3) continue;
            int p = q[0] + k * gb_dir[d];
            if (b->cell[p]) continue;
            int ok = 1;
            for (int i = 0; i < nq && ok; i++)
                if (q[i] != p && gb_tl_if_blocked(b, them + 1, q[i], p) >= TL_FOUR3) ok = 0;
            if (ok && n < max) out[n++] = p;
        }
    return n;
}

int gsearch_collect(const gboard *b, int c, int lvl, int *out, int max) {
    int left = 0, n = 0;
    for (int t = lvl; t < TL_N; t++) left += b->cnt[c - 1][t];
    if (left > max) left = max;
    if (!left) return 0;
    gsearch_box r;
    gsearch_box_of(b, &r);
#if GSEARCH_SSE2
    for (int y = r.y0; y <= r.y1; y++) {
        int p0 = gb_index(r.x0, y), w = r.x1 - r.x0 + 1;
        for (int k = 0; k < w; k += 16) {
            unsigned m = tl16(b, c - 1, p0 + k, lvl, TL_N - 1);
            if (w - k < 16) m &= (1u << (w - k)) - 1;
            for (; m; m &= m - 1) {
                out[n++] = p0 + k + __builtin_ctz(m);
                if (n == left) return n;
            }
        }
    }
#else
    for (int y = r.y0; y <= r.y1; y++)
        for (int x = r.x0; x <= r.x1; x++) {
            int p = gb_index(x, y);
            if (b->cell[p] || b->tl[c - 1][p] < lvl) continue;
            out[n++] = p;
            if (n == left) return n;
        }
#endif
    return n;
}

#if GSEARCH_SSE2
/* gsearch_makes_four for the 16 points from p (a row's run; the caller masks the ones
   past its end): bit i set when p + i is empty and colour c makes a four there; with
   hidden 0, only the points of four level or above (under Renju black's fours at its
   probably forbidden points, level none, are left out). Reads 16 cells, threat levels and
   pattern words from p, all inside the padded board. */
static inline unsigned fours16(const gboard *b, int c, int p, int hidden) {
    const __m128i zero = _mm_setzero_si128();
    __m128i cell = _mm_loadu_si128((const __m128i *)(b->cell + p));
    __m128i tl = _mm_loadu_si128((const __m128i *)(b->tl[c - 1] + p));
    /* t >= TL_FOUR && t != TL_THREE3 */
    __m128i four = _mm_andnot_si128(_mm_cmpeq_epi8(tl, _mm_set1_epi8(TL_THREE3)),
                                    _mm_cmpgt_epi8(tl, _mm_set1_epi8(TL_FOUR - 1)));
    if (hidden && b->renju && c == RV_BLACK) {
        /* at TL_NONE, a line pattern in PAT_BLOCK4..PAT_FIVE (gb_makes_four) */
        __m128i lo = _mm_set1_epi8(PAT_BLOCK4 - 1), hi = _mm_set1_epi8(PAT_OVERLINE);
        __m128i w[4];
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(b->pc[c - 1][p + 4 * k]));
            __m128i f = _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi));
            /* a point's 4 bytes to one lane of all ones or all zeros */
            w[k] = _mm_xor_si128(_mm_cmpeq_epi32(f, zero), _mm_set1_epi32(-1));
        }
        __m128i raw = _mm_packs_epi16(_mm_packs_epi32(w[0], w[1]), _mm_packs_epi32(w[2], w[3]));
        four = _mm_or_si128(four, _mm_and_si128(raw, _mm_cmpeq_epi8(tl, zero)));
    }
    four = _mm_and_si128(four, _mm_cmpeq_epi8(cell, zero));
    return (unsigned)_mm_movemask_epi8(four);
}
#endif

/* gsearch_fours; with hidden 0, only the points of four level or above (their count is
   known, so the scan stops at the last). */
static int fours_in(const gboard *b, const gsearch_box *r, int c, int *out, int max, int hidden) {
    /* -1: unknown, look everywhere */
    int n = 0, left = hidden ? gsearch_four_count(b, c) : gsearch_four_level_count(b, c);
#if GSEARCH_SSE2
    _Static_assert(TL_NONE == 0 && GB_KINDS < 127 && TL_N < 127,
                   "fours16: signed byte compares, TL_NONE at 0");
    for (int y = r->y0; y <= r->y1 && left && n < max; y++) {
        int p0 = gb_index(r->x0, y), w = r->x1 - r->x0 + 1;
        unsigned m = fours16(b, c, p0, hidden) & ((1u << w) - 1); /* w <= RV_GOMOKU_MAX_SIZE */
        for (; m && left && n < max; m &= m - 1) {
            left--;
            out[n++] = p0 + __builtin_ctz(m);
        }
        if (w > 16)
            for (m = fours16(b, c, p0 + 16, hidden) & ((1u << (w - 16)) - 1); m && left && n < max;
                 m &= m - 1) {
                left--;
                out[n++] = p0 + 16 + __builtin_ctz(m);
            }
    }
#else
    for (int y = r->y0; y <= r->y1 && left && n < max; y++)
        for (int x = r->x0; x <= r->x1 && left && n < max; x++) {
            int p = gb_index(x, y), t = b->tl[c - 1][p];
            if (b->cell[p] ||
                !(hidden ? gsearch_makes_four(b, c, p) : t >= TL_FOUR && t != TL_THREE3))
                continue;
            left--;
            out[n++] = p;
        }
#endif
    return n;
}

int gsearch_fours(const gboard *b, const gsearch_box *r, int c, int *out, int max) {
    return fours_in(b, r, c, out, max, 1);
}

int gsearch_defences(const gboard *b, int *out, int max) {
    gsearch_box r;
    gsearch_box_of(b, &r);
    return defences_in(b, &r, out, max);
}

/* Does colour c playing the empty point p make a three (open or closed) on some line, so
   that one more stone of that line's makes a four? */
static int makes_three(const gboard *b, int c, int p) {
    for (int d = 0; d < 4; d++) {
        int k = gb_pat(b, c, p, d);
        if (k >= PAT_BLOCK3 && k <= PAT_FLEX3_2) return 1;
    }
    return 0;
}

/* The best `width` legal points by score, best first, ties in the order offered
   (top_offer): each point that would enter the sorted list so far is checked for legality
   and inserted; m is the count. */
typedef struct top_moves {
    int m, width, renju_black;
    int *mv;
    int msc[MAX_MOVES];
} top_moves;

static inline void top_init(top_moves *t, const gboard *b, int *mv, int width) {
    t->m = 0, t->width = width > MAX_MOVES ? MAX_MOVES : width, t->mv = mv;
    t->renju_black = b->renju && b->stm == RV_BLACK;
}

static inline void top_offer(top_moves *t, gboard *b, int p, int s) {
    int m = t->m, *mv = t->mv, *msc = t->msc;
    if (m == t->width && s <= msc[m - 1]) return;
    if (t->renju_black && !gb_legal(b, p)) return; /* the rest: empty is legal */
    int j = m < t->width ? (t->m = m + 1, m) : m - 1;
    for (; j > 0 && msc[j - 1] < s; j--) mv[j] = mv[j - 1], msc[j] = msc[j - 1];
    mv[j] = p, msc[j] = s;
}

/*
 * Candidate moves for the side to move (no five points on either side). Facing a threat
 * to win in two moves (an open three or a double four to come, a four-three), its exact
 * defences (gsearch_defences), own fours, and, against a four-three, own threes: the
 * opponent's four must be blocked, and a block that makes a four of ours wins the tempo
 * to stop its three (a defence the exact ones do not see). Otherwise the best `width` points by
 * pattern value. Returns the count; legal moves only.
 */
static int gen_moves(rv_gomoku_ai *ai, gboard *b, int *mv, int width, int *nanswers) {
    int us = b->stm - 1, them = 1 - us;
    int sc[RV_GOMOKU_MAX_POINTS], all[RV_GOMOKU_MAX_POINTS], n = 0;
    top_moves top; /* the best `width`: the quiet scan offers its points straight to it */
    top_init(&top, b, mv, width);
    gsearch_box r; /* every candidate lies in it */
    gsearch_box_of(b, &r);
    int def[64], ndef = defences_in(b, &r, def, 64);
    int defend = b->cnt[them][TL_FLEX4] || b->cnt[them][TL_FOUR3];
    int counter = b->cnt[them][TL_FOUR3] > 0;
    move_scorer ms;
    scorer_init(&ms, ai, b);
    *nanswers = 64;
    if (ndef >= 0) {
        /* the exact defences, then own fours and (against a four-three) own threes that
           are not among them */
        for (int i = 0; i < ndef; i++) all[n] = def[i], sc[n++] = scorer_score(&ms, def[i]);
        int nf = gsearch_fours(b, &r, us + 1, all + ndef, RV_GOMOKU_MAX_POINTS - ndef);
        for (int k = 0; k < nf; k++) { /* kept in place: n <= ndef + k */
            int p = all[ndef + k], dup = 0;
            for (int i = 0; i < ndef; i++) dup |= def[i] == p;
            if (!dup) all[n] = p, sc[n++] = scorer_score(&ms, p);
        }
        *nanswers = n;
        if (counter)
            for (int y = r.y0; y <= r.y1; y++)
                for (int x = r.x0; x <= r.x1; x++) {
                    int p = gb_index(x, y), dup = 0;
                    if (b->cell[p] || gsearch_makes_four(b, us + 1, p) ||
                        !makes_three(b, us + 1, p))
                        continue;
                    for (int i = 0; i < ndef; i++) dup |= def[i] == p;
                    if (!dup) all[n] = p, sc[n++] = scorer_score(&ms, p);
                }
    } else if (defend)
        /* too many threat points to check one by one: fours, the points of the
           opponent's threatening lines, and own threes against a four-three */
        for (int y = r.y0; y <= r.y1; y++)
            for (int x = r.x0; x <= r.x1; x++) {
                int p = gb_index(x, y);
                if (b->cell[p]) continue;
                if (!(b->tl[us][p] >= TL_FOUR && b->tl[us][p] != TL_THREE3) &&
                    !gsearch_makes_four(b, them + 1, p) && b->tl[them][p] < TL_FOUR3 &&
                    !(counter && makes_three(b, us + 1, p)))
                    continue;
                all[n] = p;
                sc[n++] = scorer_score(&ms, p);
            }
    else
        for (int y = r.y0; y <= r.y1; y++) {
#if GSEARCH_SSE2
            /* 16 points at a time: empty, and a stone near or a threat level */
            int p0 = gb_index(r.x0, y), w = r.x1 - r.x0 + 1;
            for (int k = 0; k < w; k += 16) {
                int q = p0 + k;
                const __m128i zero = _mm_setzero_si128();
                __m128i any =
                    _mm_or_si128(_mm_loadu_si128((const __m128i *)(b->near + q)),
                                 _mm_or_si128(_mm_loadu_si128((const __m128i *)(b->tl[0] + q)),
                                              _mm_loadu_si128((const __m128i *)(b->tl[1] + q))));
                __m128i ok = _mm_andnot_si128(
                    _mm_cmpeq_epi8(any, zero),
                    _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b->cell + q)), zero));
                unsigned m = (unsigned)_mm_movemask_epi8(ok);
                if (w - k < 16) m &= (1u << (w - k)) - 1;
                for (; m; m &= m - 1) {
                    int p = q + __builtin_ctz(m);
                    top_offer(&top, b, p, scorer_score(&ms, p));
                }
            }
#else
            for (int x = r.x0; x <= r.x1; x++) {
                int p = gb_index(x, y);
                if (b->cell[p]) continue;
                if (!b->near[p] && b->tl[0][p] == TL_NONE && b->tl[1][p] == TL_NONE) continue;
                top_offer(&top, b, p, scorer_score(&ms, p));
            }
#endif
        }
    /* the best `width` legal points, best first */
    for (int i = 0; i < n; i++) top_offer(&top, b, all[i], sc[i]);
    int m = top.m;
    if (m == 0 && !defend) {
        /* nothing near the stones (empty board, or everything forbidden): any legal point,
           nearest the centre first */
        int cx = b->w / 2, cy = b->h / 2, bestd = 1 << 30;
        for (int y = 0; y < b->h; y++)
            for (int x = 0; x < b->w; x++) {
                int p = gb_index(x, y), d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
                if (!b->cell[p] && d < bestd && gb_legal(b, p)) bestd = d, mv[0] = p, m = 1;
            }
    }
    return m;
}

static int search(rv_gomoku_ai *ai, int depth, int alpha, int beta, int ply);

/* The one point where the side to move can block the five points colour c made with its
   last stone p (c had none before, or it would have won: every one lies on a line through
   p), or -1 when it cannot: two five points, or under Renju only a point forbidden to black. */
static int block_point(gboard *b, int c, int p) {
    int pts[4], k = gb_collect_fives_through(b, c, p, pts, 4);
    return k == 1 && gb_legal(b, pts[0]) ? pts[0] : -1;
}

/* A leaf (depth 0 or below, no four of the opponent's to block: that node is forced) is
   worth its static value, or what the side to move's best-scored four gets after the block
   it forces, whichever is more: a four costs the opponent no choice, so a leaf's value sees
   the fours the static evaluation does not (a four that makes a four-three or an open four
   next, or a block that stops a three). At most QS_FOURS such fours in a row (the depth
   counts them below 0). Under Renju black's fours at points its patterns mark as probably
   forbidden (threat level none: worth nothing to it in the evaluation) are not followed. */
static int qsearch(rv_gomoku_ai *ai, int depth, int alpha, int beta, int ply) {
    gboard *b = &ai->board;
    int c = b->stm, stand = evaluate(b);
    if (depth <= -QS_FOURS || stand >= beta) return stand;
    if (!gsearch_four_level_count(b, c)) return stand;
    gsearch_box r;
    gsearch_box_of(b, &r);
    int f[RV_GOMOKU_MAX_POINTS], nf = fours_in(b, &r, c, f, RV_GOMOKU_MAX_POINTS, 0);
    int best = -1, best_sc = 0;
    move_scorer ms;
    scorer_init(&ms, ai, b);
    for (int k = 0; k < nf; k++) {
        int p = f[k];
        if (b->renju && c == RV_BLACK && !gb_legal(b, p)) continue;
        int s = scorer_score(&ms, p);
        if (best < 0 || s > best_sc) best = p, best_sc = s;
    }
    if (best < 0) return stand;
    int lo = alpha > stand ? alpha : stand, s;
    gb_play(b, best);
    if (ply + 1 >= AI_MAX_PLY - 2 || !b->cnt[c - 1][TL_FIVE]) {
        /* (a Renju black "four" whose five point would be an overline threatens nothing) */
        s = -search(ai, depth - 1, -beta, -lo, ply + 1);
    } else {
        /* the opponent's reply is forced (it had no five point, or this node would have been
           forced, and every five point of ours is on a line through the four): the node of
           the block (search's forced case) is played here, without a table probe or store of
           its own; it counts as a node */
        ++ai->nodes;
        if (ply + 1 > ai->seldepth) ai->seldepth = ply + 1;
        int block = block_point(b, c, best);
        if (block < 0) {
            s = AI_WIN - ply - 2;
        } else {
            gb_play(b, block);
            gtt_prefetch(ai, b->hash);
            s = search(ai, depth - 1, lo, beta, ply + 2);
            gb_undo(b);
        }
    }
    gb_undo(b);
    if (ai->aborted) return 0;
    return s > stand ? s : stand;
}

int gsearch_trap_four(rv_gomoku_ai *ai) {
    gboard *b = &ai->board;
    if (!gsearch_four_count(b, RV_WHITE)) return 0;
    gsearch_box r;
    gsearch_box_of(b, &r);
    int f[RV_GOMOKU_MAX_POINTS], nf = gsearch_fours(b, &r, RV_WHITE, f, RV_GOMOKU_MAX_POINTS);
    /* a four's five point is one of white's four points: none may be forbidden, no trap */
    int any = 0;
    for (int i = 0; i < nf && !any; i++) any = gb_black_may_be_forbidden(b, f[i]);
    if (!any) return 0;
    for (int i = 0; i < nf; i++) {
        int p = f[i], maybe = 0;
        for (int d = 0; d < 4 && !maybe; d++) {
            int k = gb_pat(b, RV_WHITE, p, d);
            if (k < PAT_BLOCK4 || k > PAT_FIVE) continue;
            /* the four's five points are where white makes a four on this line now */
            for (int s = -4; s <= 4 && !maybe; s++) {
                int q = p + s * gb_dir[d], kq = gb_pat(b, RV_WHITE, q, d);
                maybe = s != 0 && b->cell[q] == 0 && (kq == PAT_BLOCK4 || kq == PAT_FLEX4) &&
                        gb_black_may_be_forbidden(b, q);
            }
        }
        if (!maybe) continue;
        gb_play(b, p);
        ai->nodes++;
        int comp[4], nc = gb_collect_fives_through(b, RV_WHITE, p, comp, 4);
        int win = nc >= 2 || (nc == 1 && !gb_legal(b, comp[0]));
        gb_undo(b);
        if (win) return 1;
    }
    return 0;
}

static int search(rv_gomoku_ai *ai, int depth, int alpha, int beta, int ply) {
    gboard *b = &ai->board;
    int us = b->stm - 1, them = 1 - us;
    if ((++ai->nodes & 255) == 0 && gai_should_stop(ai)) ai->aborted = 1;
    if (ai->aborted) return 0;
    if (ply > ai->seldepth) ai->seldepth = ply;
    if (b->cnt[us][TL_FIVE]) return AI_WIN - ply;
    if (b->nempty == 0) return 0;

    int mv[MAX_MOVES], n = 0, nanswers = 0, forced = 0;
    int width = depth >= 6 ? 12 : depth >= 3 ? 9 : 6;
    if (b->cnt[them][TL_FIVE]) {
        int block = block_point(b, them + 1, b->stack[b->nstones - 1]);
        if (block < 0) return -(AI_WIN - ply - 1);
        mv[n++] = block;
        forced = 1;
    } else if (b->cnt[us][TL_FLEX4]) {
        int pts[8];
        int k = gsearch_collect(b, us + 1, TL_FLEX4, pts, 8);
        for (int i = 0; i < k; i++)
            if (gb_legal(b, pts[i])) return AI_WIN - ply - 2;
    }
    if (!forced && b->renju && b->stm == RV_WHITE && ply < AI_MAX_PLY - 2 && gsearch_trap_four(ai))
        return AI_WIN - ply - 2;
    if (ply >= AI_MAX_PLY - 2) return evaluate(b);
    if (!forced && depth <= 0) return qsearch(ai, depth, alpha, beta, ply);

    /* off the principal variation, the static value decides whether quiet moves near
       the leaves are worth searching (futility) */
    int pv = beta - alpha > 1;
    int threatened = b->cnt[them][TL_FLEX4] || b->cnt[them][TL_FOUR3];
    int futile = !forced && !pv && !threatened && depth <= 2 && alpha > -RV_GOMOKU_AI_WIN_MIN &&
                 evaluate(b) + FUTILITY * depth <= alpha;

    int tt_move = -1;
    const tt_entry *e = gtt_probe(ai, b->hash);
    if (e) {
        tt_move = e->move;
        if (e->depth >= depth && ply > 0) {
            int s = mate_from_tt(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) ||
                (e->flag == TT_UPPER && s <= alpha))
                return s;
        }
    }
    /* null move: the side to move passes; if the opponent, with a free move and
       3 + depth/6 plies less, still can't get below beta, a real move won't either (a
       stone never hurts its owner in Gomoku). Not in a row, not on the PV, not when
       threatened (open three, four-three, a four to block) or near a proven score; from
       depth 2 (at 2-4 the pass is answered by the quiescence). */
    if (!forced && !pv && !threatened && depth >= 2 && !ai->nulled[ply] &&
        beta > -RV_GOMOKU_AI_WIN_MIN && beta < RV_GOMOKU_AI_WIN_MIN && evaluate(b) >= beta) {
        b->stm = 3 - b->stm;
        b->hash = ~b->hash; /* the side to move's part of the key */
        ai->nulled[ply + 1] = 1;
        int s = -search(ai, depth - 4 - depth / 6, -beta, -beta + 1, ply + 1);
        ai->nulled[ply + 1] = 0;
        b->stm = 3 - b->stm;
        b->hash = ~b->hash;
        if (ai->aborted) return 0;
        if (s >= beta) return s >= RV_GOMOKU_AI_WIN_MIN ? beta : s;
    }
    if (!forced) {
        n = gen_moves(ai, b, mv, width, &nanswers);
        if (n == 0)
            return b->cnt[them][TL_FLEX4] || b->cnt[them][TL_FOUR3] ? -(AI_WIN - ply - 4) : 0;
        /* TT move and killers first */
        int front = 0;
        int pri[3] = {tt_move, ai->killer[ply][0], ai->killer[ply][1]};
        for (int k = 0; k < 3; k++) {
            if (pri[k] < 0) continue;
            for (int i = front; i < n; i++)
                if (mv[i] == pri[k]) {
                    int t = mv[i];
                    for (int j = i; j > front; j--) mv[j] = mv[j - 1];
                    mv[front++] = t;
                    break;
                }
        }
    }

    int best = -AI_WIN - 1, best_move = mv[0], alpha0 = alpha;
    /* a node that must answer an open three or a four-three and has at most 3 answers
       (its exact defences and own fours) costs no depth, as a forced block does: the
       opponent's threat sequences are followed as far as its fours would be */
    int newdepth = forced || (threatened && nanswers <= 3) ? depth : depth - 1;
    /* a full list of the node's width may have left out the one move that holds: a loss
       is proven only after the rest of the candidates (up to MAX_MOVES; under a threat,
       the rest of its answers) lost too */
    int widen = !forced && n == width;
    for (int i = 0; i < n; i++) {
        int m = mv[i], s;
        /* a quiet move makes no three or four of ours and blocks none of theirs */
        int quiet = b->tl[us][m] < TL_THREE && b->tl[them][m] < TL_THREE;
        int attacking = b->tl[us][m] >= TL_THREE;
        /* futility: a quiet move can't lift a position this far below alpha */
        if (futile && quiet && i > 0 && best > -RV_GOMOKU_AI_WIN_MIN) continue;
        /* move-count pruning: off the PV and not threatened, only the first 3, 6 and 11
           moves at depth 1, 2 and 3, then the ones that make or block a three */
        if (!forced && !pv && !threatened && depth <= 3 && quiet && i >= 2 + depth * depth &&
            best > -RV_GOMOKU_AI_WIN_MIN)
            continue;
        gb_play(b, m);
        gtt_prefetch(ai, b->hash);
        if (i == 0)
            s = -search(ai, newdepth, -beta, -alpha, ply + 1);
        else {
            int r = 0;
            if (!forced && depth >= 2 && i >= 2 && !attacking) {
                /* from the 3rd move, growing with the depth and the move's rank:
                   0.75 + ln(depth) ln(i), at least one ply (1 at depth 2-4 for the 3rd
                   move, 3 at depth 6 for the 6th, 5 at depth 8 for the 9th); one less on
                   the PV and for a move that blocks a three; none for a move that makes a
                   three or a four */
                r = (int)(0.75 + log(depth) * log(i)) - pv;
                if (r < 1) r = 1;
                if (!quiet) r = r > 1 ? r - 1 : 0;
                if (r > newdepth) r = newdepth;
            }
            s = -search(ai, newdepth - r, -alpha - 1, -alpha, ply + 1);
            if (s > alpha && (r || s < beta)) s = -search(ai, newdepth, -beta, -alpha, ply + 1);
        }
        gb_undo(b);
        if (ai->aborted) return 0;
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                if (alpha >= beta) {
                    if (!forced && ai->killer[ply][0] != m) {
                        ai->killer[ply][1] = ai->killer[ply][0];
                        ai->killer[ply][0] = m;
                    }
                    ai->history[us][m] += depth * depth;
                    break;
                }
            }
        }
        if (i == n - 1 && widen && best <= -RV_GOMOKU_AI_WIN_MIN) {
            /* every move of the list lost: the rest of the candidates, after them */
            int more[MAX_MOVES], nm = gen_moves(ai, b, more, MAX_MOVES, &(int){0});
            widen = 0;
            for (int j = 0; j < nm; j++) {
                int dup = 0;
                for (int k = 0; k < i + 1; k++) dup |= mv[k] == more[j];
                if (!dup && n < MAX_MOVES) mv[n++] = more[j];
            }
        }
    }
    int flag = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    gtt_store(ai, b->hash, depth, flag, mate_to_tt(best, ply), best_move);
    return best;
}

int gsearch_root(rv_gomoku_ai *ai, int max_depth, int *best_move, int *best_score, int *depth_done,
                 int *order, int *norder) {
    gboard *b = &ai->board;
    int mv[MAX_MOVES], n;
    int us = b->stm - 1, them = 1 - us;
    *depth_done = 0;
    if (b->cnt[us][TL_FIVE]) {
        gb_collect(b, us + 1, TL_FIVE, mv, 1);
        *best_move = mv[0];
        *best_score = AI_WIN - 1;
        return 1;
    }
    if (b->cnt[them][TL_FIVE]) {
        int pts[4], k = gb_collect(b, them + 1, TL_FIVE, pts, 4);
        n = 0;
        for (int i = 0; i < k; i++)
            if (gb_legal(b, pts[i])) mv[n++] = pts[i];
    } else
        n = gen_moves(ai, b, mv, 24, &(int){0});
    if (n == 0) {
        /* lost anyway (or only forbidden blocks): the best-scored point near the stones */
        int best = 0;
        move_scorer ms;
        scorer_init(&ms, ai, b);
        for (int y = 0; y < b->h; y++)
            for (int x = 0; x < b->w; x++) {
                int p = gb_index(x, y);
                if (b->cell[p] || !b->near[p] || !gb_legal(b, p)) continue;
                int s = scorer_score(&ms, p);
                if (n == 0 || s > best) mv[0] = p, n = 1, best = s;
            }
    }
    if (n == 0) {
        /* any legal point */
        for (int y = 0; y < b->h && n == 0; y++)
            for (int x = 0; x < b->w && n == 0; x++)
                if (gb_legal(b, gb_index(x, y))) mv[n++] = gb_index(x, y);
        if (n == 0) return 0;
    }
    *best_move = mv[0];
    *best_score = 0;
    for (int i = 0; i < n; i++) order[i] = mv[i];
    *norder = n;
    if (n == 1) {
        *depth_done = 1;
        return 1;
    }
    int scores[MAX_MOVES], stable = 0;
    double u_start = gai_used(ai), du_prev = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        int prev_move = *best_move, prev_score = *best_score;
        /* a stop or a spent limit ends the think between iterations too (a table full of
           the last think's results can finish several iterations between two polls) */
        if (depth > 1 && gai_should_stop(ai)) break;
        /* aspiration: from depth 4 the window is the last score +- ASPIRATION; a best
           score outside it is searched again with the failing side moved past it by twice
           the last margin (to no bound from 2,400 on, or for a proven score) */
        int lo = -AI_WIN - 1, hi = AI_WIN + 1, bm, bs, margin = ASPIRATION;
        if (depth >= 4 && *best_score > -RV_GOMOKU_AI_WIN_MIN && *best_score < RV_GOMOKU_AI_WIN_MIN)
            lo = *best_score - ASPIRATION, hi = *best_score + ASPIRATION;
        for (;;) {
            int alpha = lo, beta = hi;
            bm = -1, bs = -AI_WIN - 1;
            for (int i = 0; i < n; i++) {
                int s;
                gb_play(b, mv[i]);
                if (i == 0)
                    s = -search(ai, depth - 1, -beta, -alpha, 1);
                else {
                    s = -search(ai, depth - 1, -alpha - 1, -alpha, 1);
                    if (s > alpha && s < beta) s = -search(ai, depth - 1, -beta, -alpha, 1);
                }
                gb_undo(b);
                if (ai->aborted) break;
                scores[i] = s;
                if (s > bs) bs = s, bm = i;
                if (s > alpha) alpha = s;
                if (alpha >= beta) break;
            }
            if (ai->aborted) break;
            if (bs <= lo && lo > -AI_WIN - 1) {
                margin *= 2;
                lo = margin < 2400 && bs > -RV_GOMOKU_AI_WIN_MIN ? bs - margin : -AI_WIN - 1;
            } else if (bs >= hi && hi < AI_WIN + 1) {
                margin *= 2;
                hi = margin < 2400 && bs < RV_GOMOKU_AI_WIN_MIN ? bs + margin : AI_WIN + 1;
            } else
                break;
        }
        if (bm >= 0 && bs > lo && (!ai->aborted || bm != 0 || depth == 1)) {
            /* a partial iteration's best is kept only when it beat the previous best */
            int t = mv[bm];
            for (int j = bm; j > 0; j--) mv[j] = mv[j - 1], scores[j] = scores[j - 1];
            mv[0] = t;
            *best_move = t;
            *best_score = bs;
        }
        if (ai->aborted) break;
        *depth_done = depth;
        /* the others by their (bound) scores, for the caller's fallbacks */
        for (int i = 2; i < n; i++) {
            int m = mv[i], sc = scores[i], j = i;
            while (j > 1 && scores[j - 1] < sc) mv[j] = mv[j - 1], scores[j] = scores[j - 1], j--;
            mv[j] = m, scores[j] = sc;
        }
        for (int i = 0; i < n; i++) order[i] = mv[i];
        if (bs >= RV_GOMOKU_AI_WIN_MIN || bs <= -RV_GOMOKU_AI_WIN_MIN) break;
        if (ai->budget_s > 0 || ai->budget_nodes) {
            /* the budget plan: a best move that changed or a score that fell means the
               position needs more (up to ext_frac); the next iteration starts when it is
               expected to get at least half way (its first move takes about that), since
               even an unfinished one can change the move and fills the table for the next
               think. Expected: this iteration's share times the last growth (1.5..5). */
            double u = gai_used(ai), du = u - u_start;
            int changed = *best_move != prev_move || *best_score < prev_score - 60;
            stable = changed ? 0 : stable + 1;
            if (depth >= 4 && ai->ext_frac > ai->stop_frac && changed) ai->stop_frac = ai->ext_frac;
            double growth = du_prev > 1e-6 ? du / du_prev : 3;
            growth = growth < 1.5 ? 1.5 : growth > 5 ? 5 : growth;
            if (ai->turn_mode && ai->soft_frac >= 1 && ai->spend_all) {
                /* a clock alone, no target below it and no level (a move's own time,
                   which a quick answer does not save for later): the next iteration
                   starts whenever the budget has time left; an unfinished one can still
                   change the move (another move that beats the last best), and fills the
                   table for the next think */
            } else if (ai->turn_mode) {
                /* a level's clock (its answers stay quick), or a target below the budget
                   (a match clock's share, soft_frac < 1): the next iteration starts when
                   it can get a quarter of the way before the stop; under a target, only
                   before it, or while the best move changes, and not after half the
                   target once it has held for 3 */
                if (u + du * growth * 0.25 > ai->stop_frac) break;
                if (ai->soft_frac < 1 && !changed &&
                    (u >= ai->soft_frac || (stable >= 3 && u >= 0.5 * ai->soft_frac)))
                    break;
            } else if (u + du * growth * 0.5 > ai->stop_frac)
                break;
            u_start = u, du_prev = du;
        }
    }
    /* the caller's candidates start with the move chosen (an unfinished iteration's too) */
    for (int i = 0; i < *norder; i++)
        if (order[i] == *best_move) {
            for (int j = i; j > 0; j--) order[j] = order[j - 1];
            order[0] = *best_move;
            break;
        }
    return 1;
}
