/*
 * VCF — victory by continuous fours. The attacker only plays fours; each four
 * has one completion point, which the defender must take. The attacker wins
 * with a five, with a four that has two completions, or (Renju, white
 * attacking) with a four whose only completion is forbidden for black: black
 * cannot legally stop the five. Failed positions are remembered (by hash and
 * remaining depth) so transpositions are searched once.
 */
#include <stdlib.h>
#include <string.h>

#include "gomoku/search.h"

typedef struct vcf_ctx {
    rv_gomoku_ai *ai;
    gboard *b;
    int att;
    uint64_t max_nodes;
    int path[RV_GOMOKU_VCF_MAX_MOVES];
    int npath;
    int *seq;
    int *nseq;
    int stopped; /* node budget spent, time up or stop asked */
} vcf_ctx;

static void found(vcf_ctx *v) {
    memcpy(v->seq, v->path, (size_t)v->npath * sizeof(int));
    *v->nseq = v->npath;
}

static int memo_failed(const vcf_ctx *v, int depth) {
    return gmemo_failed(v->ai, v->b->hash, depth);
}

static void memo_fail(vcf_ctx *v, int depth) {
    gmemo_fail(v->ai, v->b->hash, depth);
}

static void sort_by_value(const gboard *b, int c, int *mv, int n) {
    for (int i = 1; i < n; i++) {
        int m = mv[i], j = i;
        while (j > 0 && gb_val(b, c - 1, mv[j - 1]) < gb_val(b, c - 1, m)) mv[j] = mv[j - 1], j--;
        mv[j] = m;
    }
}

/* Attacker to move; returns 1 when a VCF within depth fours exists. */
static int attack(vcf_ctx *v, int depth) {
    gboard *b = v->b;
    rv_gomoku_ai *ai = v->ai;
    int A = v->att, D = 3 - A;
    ai->nodes++;
    if (ai->nodes > v->max_nodes || ((ai->nodes & 63) == 0 && gai_should_stop(ai))) v->stopped = 1;
    if (v->stopped || ai->aborted) return 0;
    int pts[RV_GOMOKU_MAX_POINTS];
    if (b->cnt[A - 1][TL_FIVE]) { /* an exact five is never forbidden */
        gb_collect(b, A, TL_FIVE, pts, 1);
        v->path[v->npath++] = pts[0];
        found(v);
        v->npath--;
        return 1;
    }
    if (depth <= 0 || v->npath + 3 >= RV_GOMOKU_VCF_MAX_MOVES) return 0;
    if (memo_failed(v, depth)) return 0;
    int n = 0;
    if (b->cnt[D - 1][TL_FIVE]) {
        /* the defender has a four: the attacker must block it, with a four of his own */
        if (gb_collect(b, D, TL_FIVE, pts, 2) != 1) return 0;
        if (!gb_makes_four(b, A, pts[0]) || !gb_legal(b, pts[0])) return 0;
        n = 1;
    } else {
        gsearch_box r;
        gsearch_box_of(b, &r);
        int nf = gsearch_fours(b, &r, A, pts, RV_GOMOKU_MAX_POINTS);
        for (int k = 0; k < nf; k++) /* the legal ones, in place */
            if (gb_legal(b, pts[k])) pts[n++] = pts[k];
        sort_by_value(b, A, pts, n);
    }
    for (int i = 0; i < n; i++) {
        int m = pts[i], comp[4];
        gb_play(b, m);
        v->path[v->npath++] = m;
        int nc = gb_collect_fives_through(b, A, m, comp, 4); /* A had none before m */
        int win = 0;
        if (nc >= 2) {
            /* two completions: whichever the defender takes, the other is a five */
            int d = comp[0];
            if (D == RV_BLACK && b->renju && !gb_legal(b, comp[0]) && gb_legal(b, comp[1]))
                d = comp[1];
            if (gb_legal(b, d)) {
                v->path[v->npath++] = d;
                v->path[v->npath++] = d == comp[0] ? comp[1] : comp[0];
                found(v);
                v->npath -= 2;
            } else
                found(v); /* black may take neither completion */
            win = 1;
        } else if (nc == 1) {
            if (!gb_legal(b, comp[0])) { /* Renju: black's only defence is forbidden */
                found(v);
                win = 1;
            } else {
                gb_play(b, comp[0]);
                v->path[v->npath++] = comp[0];
                win = attack(v, depth - 1);
                v->npath--;
                gb_undo(b);
            }
        }
        v->npath--;
        gb_undo(b);
        if (win) return 1;
        if (v->stopped || ai->aborted) return 0;
    }
    memo_fail(v, depth);
    return 0;
}

int gvcf_run(rv_gomoku_ai *ai, int max_depth, uint64_t max_nodes, int *seq, int *nseq) {
    vcf_ctx v = {
        .ai = ai, .b = &ai->board, .att = ai->board.stm, .npath = 0, .seq = seq, .nseq = nseq};
    uint64_t start = ai->nodes;
    if (gai_should_stop(ai)) return 0;
    v.max_nodes = max_nodes ? start + max_nodes : UINT64_MAX;
    gmemo_begin(ai);
    /* deepen gradually so the line found is short */
    for (int d = 1; d <= max_depth; d += d < 8 ? 1 : 4) {
        int depth = d > max_depth ? max_depth : d;
        if (attack(&v, depth)) return 1;
        if (v.stopped || ai->aborted) break;
    }
    return 0;
}
