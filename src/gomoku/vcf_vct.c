/*
 * VCT — victory by continuous threats: the attacker plays fours and open threes.
 * A four is answered at its completion point; an open three may be answered at
 * any point that stops the open four (the attacker's four-making points) or by a
 * counter-four of the defender — every such defence is tried (an AND node), so a
 * win found here is forced. A counter-four is blocked, and the three, if it still
 * stands, must be answered again (the defender's fours are finite). Black's moves
 * are filtered by the Renju rules (gb_legal), and a completion point black may not
 * take wins for white.
 */
#include <string.h>

#include "gomoku/search.h"

typedef struct vct_ctx {
    rv_gomoku_ai *ai;
    gboard *b;
    int att;
    uint64_t max_nodes;
    int stopped;
} vct_ctx;

static int memo_failed(const vct_ctx *v, int depth) {
    return gmemo_failed(v->ai, v->b->hash ^ 0x5bd1e995u, depth);
}

static void memo_fail(vct_ctx *v, int depth) {
    gmemo_fail(v->ai, v->b->hash ^ 0x5bd1e995u, depth);
}

static int attack(vct_ctx *v, int depth);

/* Can colour c (Renju black: legally) make an open four somewhere? */
static int open_four_legal(gboard *b, int c) {
    int f[8], k = gsearch_collect(b, c, TL_FLEX4, f, 8);
    for (int j = 0; j < k; j++)
        if (c == RV_WHITE || !b->renju ||
            gb_forbidden(b, f[j]) == RV_FORBID_NONE)
            return 1;
    return 0;
}

/* The defender (to move) must answer the attacker's open three: 1 when every defence loses. */
static int defend_three(vct_ctx *v, int depth) {
    gboard *b = v->b;
    int A = v->att, D = 3 - A;
    int pts[RV_GOMOKU_MAX_POINTS], n = 0;
    gsearch_box r;
    gsearch_box_of(b, &r);
    for (int y = r.y0; y <= r.y1; y++)
        for (int x = r.x0; x <= r.x1; x++) {
            int p = gb_index(x, y);
            if (b->cell[p]) continue;
            if ((gsearch_makes_four(b, A, p) || gsearch_makes_four(b, D, p)) && gb_legal(b, p))
                pts[n++] = p;
        }
    for (int i = 0; i < n; i++) {
        gb_play(b, pts[i]);
        int win = attack(v, depth);
        gb_undo(b);
        if (!win) return 0;
    }
    return 1;
}

/* The attacker (to move, the defender having no five point) plays the threat m: 1 when it wins. */
static int try_threat(vct_ctx *v, int m, int depth) {
    gboard *b = v->b;
    int A = v->att, D = 3 - A, win = 0, had_five = b->cnt[A - 1][TL_FIVE] > 0;
    gb_play(b, m);
    int comp[4], nc = had_five ? gb_collect(b, A, TL_FIVE, comp, 4)
                               : gb_collect_fives_through(b, A, m, comp, 4);
    if (nc >= 2)
        win = 1;
    else if (nc == 1) {
        if (!gb_legal(b, comp[0]))
            win = 1; /* Renju: black may not block */
        else {
            gb_play(b, comp[0]);
            win = attack(v, depth - 1);
            gb_undo(b);
        }
    } else if (depth > 0 && b->cnt[A - 1][TL_FLEX4] && !b->cnt[D - 1][TL_FIVE] &&
               open_four_legal(b, A))
        win = defend_three(v, depth - 1);
    gb_undo(b);
    return win;
}

/* The attacker's threats (fours and open threes), strongest first; at most max. */
static int threats(gboard *b, int A, int *pts, int max) {
    int n = 0;
    gsearch_box r;
    gsearch_box_of(b, &r);
    for (int y = r.y0; y <= r.y1; y++)
        for (int x = r.x0; x <= r.x1; x++) {
            int p = gb_index(x, y);
            if (!b->cell[p] && (gsearch_makes_four(b, A, p) || b->tl[A - 1][p] >= TL_THREE) &&
                gb_legal(b, p))
                pts[n++] = p;
        }
    for (int i = 1; i < n; i++) {
        int m = pts[i], j = i;
        while (j > 0 && gb_val(b, A - 1, pts[j - 1]) < gb_val(b, A - 1, m)) pts[j] = pts[j - 1], j--;
        pts[j] = m;
    }
    return n < max ? n : max;
}

/* Attacker to move; 1 when a VCT within depth threats exists. */
static int attack(vct_ctx *v, int depth) {
    gboard *b = v->b;
    rv_gomoku_ai *ai = v->ai;
    int A = v->att, D = 3 - A;
    ai->nodes++;
    /* VCT nodes are heavy (a threat scan with Renju checks): poll the clock often */
    if (ai->nodes > v->max_nodes || ((ai->nodes & 15) == 0 && gai_should_stop(ai))) v->stopped = 1;
    if (v->stopped) return 0;
    if (b->cnt[A - 1][TL_FIVE]) return 1;
    int pts[RV_GOMOKU_MAX_POINTS], n;
    if (b->cnt[D - 1][TL_FIVE]) {
        /* the defender's four (a counter-four against our open three) must be blocked: a
           block that is a four of ours goes on as a threat; a plain block leaves the
           defender to move with our open three still standing, to be answered again (the
           block counts as a threat of the depth) */
        if (gb_collect(b, D, TL_FIVE, pts, 2) != 1 || !gb_legal(b, pts[0]) || depth <= 0) return 0;
        if (gb_makes_four(b, A, pts[0])) return try_threat(v, pts[0], depth);
        gb_play(b, pts[0]);
        int win = b->cnt[A - 1][TL_FLEX4] && !b->cnt[D - 1][TL_FIVE] && open_four_legal(b, A) &&
                  defend_three(v, depth - 1);
        gb_undo(b);
        return win;
    }
    if (b->cnt[A - 1][TL_FLEX4] && open_four_legal(b, A)) return 1;
    if (depth <= 0 || memo_failed(v, depth)) return 0;
    n = threats(b, A, pts, 12);
    for (int i = 0; i < n; i++) {
        if (try_threat(v, pts[i], depth)) return 1;
        if (v->stopped) return 0;
    }
    memo_fail(v, depth);
    return 0;
}

int gvct_run(rv_gomoku_ai *ai, int max_depth, uint64_t max_nodes, int *first) {
    vct_ctx v = {.ai = ai, .b = &ai->board, .att = ai->board.stm};
    gboard *b = v.b;
    int A = v.att, pts[RV_GOMOKU_MAX_POINTS];
    if (b->cnt[2 - A][TL_FIVE] || gai_should_stop(ai)) return 0;
    v.max_nodes = max_nodes ? ai->nodes + max_nodes : UINT64_MAX;
    gmemo_begin(ai);
    int n = threats(b, A, pts, 24);
    for (int d = 1; d <= max_depth; d++)
        for (int i = 0; i < n; i++) {
            if (try_threat(&v, pts[i], d)) {
                *first = pts[i];
                return 1;
            }
            if (v.stopped) return 0;
        }
    return 0;
}
