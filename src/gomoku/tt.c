/* Transposition table of the Gomoku engine: one entry per bucket, depth-preferred. */
#include <string.h>

#include "gomoku/search.h"
#include "renversi/core.h"

int gtt_alloc(rv_gomoku_ai *ai, size_t bytes) {
    size_t n = 4096;
    while (n * 2 * sizeof(tt_entry) <= bytes) n *= 2;
    tt_entry *t = rv_table_alloc(n * sizeof *t);
    if (!t) return -1;
    gtt_free(ai);
    ai->tt = t;
    ai->tt_mask = n - 1;
    ai->tt_gen = 1;
    return 0;
}

void gtt_free(rv_gomoku_ai *ai) {
    if (ai->tt) rv_table_free(ai->tt, (ai->tt_mask + 1) * sizeof *ai->tt);
    ai->tt = NULL;
}

void gtt_clear(rv_gomoku_ai *ai) {
    if (++ai->tt_gen == 0) {
        /* generation numbers wrapped: old entries could look current, so wipe them */
        memset(ai->tt, 0, (ai->tt_mask + 1) * sizeof(tt_entry));
        ai->tt_gen = 1;
    }
}

const tt_entry *gtt_probe(const rv_gomoku_ai *ai, uint64_t key) {
    const tt_entry *e = &ai->tt[key & ai->tt_mask];
    return e->key == key && e->gen == ai->tt_gen && e->flag != TT_NONE ? e : NULL;
}

void gtt_store(rv_gomoku_ai *ai, uint64_t key, int depth, int flag, int score, int move) {
    tt_entry *e = &ai->tt[key & ai->tt_mask];
    /* keep a deeper result for the same position; otherwise always replace */
    if (e->key == key && e->gen == ai->tt_gen && e->depth > depth && flag != TT_EXACT) return;
    e->key = key;
    e->score = (int16_t)score;
    e->move = (int16_t)move;
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->flag = (uint8_t)flag;
    e->gen = ai->tt_gen;
}
