/*
 * The transposition table of the Othello engine: two-way buckets keyed by
 * the full position, so a hit is never a different position.
 */
#include "reversi/ai_internal.h"

#include <string.h>

#include "renversi/core.h"

int tt_init(tt_table *t, size_t bytes) {
    size_t n = 1;
    if (bytes < 65536) bytes = 65536;
    while (n * 2 * sizeof(tt_entry) <= bytes) n *= 2;
    /* On huge pages (rv_table_alloc): a probe is a random access far outside the caches,
     * and with 4 KB pages it usually missed the TLB as well (FFO #45: about 6-10% less CPU
     * time). */
    tt_entry *e = rv_table_alloc(n * sizeof(tt_entry));
    if (!e) return -1;
    t->entries = e;
    t->mask = n - 1;
    t->date = 0;
    return 0;
}

void tt_free(tt_table *t) {
    if (t->entries) rv_table_free(t->entries, (t->mask + 1) * sizeof *t->entries);
    t->entries = NULL;
}

void tt_clear(tt_table *t) {
    memset(t->entries, 0, (t->mask + 1) * sizeof *t->entries);
    t->date = 0;
}

/*
 * Stores a search result.  An existing entry of the same position is updated
 * (its bounds tightened when the depth is the same); otherwise the slot of
 * the bucket holding the older or shallower entry is replaced.
 */
void tt_store(tt_table *t, uint64_t P, uint64_t O, int kind, int depth, int lower, int upper,
              int move) {
    tt_store_at(t, tt_index(t, P, O), P, O, kind, depth, lower, upper, move);
}

/* tt_store, i the index of (P, O) (tt_index). */
void tt_store_at(tt_table *t, uint64_t i, uint64_t P, uint64_t O, int kind, int depth, int lower,
                 int upper, int move) {
    tt_entry *e;
#if TT_WAYS == 2
    tt_entry *a = &t->entries[i], *b = &t->entries[i ^ 1];
    if (a->player == P && a->opponent == O && a->kind == kind) e = a;
    else if (b->player == P && b->opponent == O && b->kind == kind) e = b;
    else {
        int sa = (a->date == t->date) * 256 + a->depth;
        int sb = (b->date == t->date) * 256 + b->depth;
        e = sa <= sb ? a : b;
        e->kind = TT_KIND_EMPTY;
    }
#else
    tt_entry *b = &t->entries[i & ~(uint64_t)(TT_WAYS - 1)];
    e = NULL;
    for (int k = 0; k < TT_WAYS; k++)
        if (b[k].player == P && b[k].opponent == O && b[k].kind == kind) e = &b[k];
    if (!e) {
        int best = 1 << 30;
        for (int k = 0; k < TT_WAYS; k++) {
            int sk = (b[k].date == t->date) * 256 + b[k].depth;
            if (sk < best) {
                best = sk;
                e = &b[k];
            }
        }
        e->kind = TT_KIND_EMPTY;
    }
#endif
    if (e->kind == kind && e->depth == depth) {
        if (lower > e->lower) e->lower = (int16_t)lower;
        if (upper < e->upper) e->upper = (int16_t)upper;
        if (e->lower > e->upper) { /* inconsistent (search instability): keep the new */
            e->lower = (int16_t)lower;
            e->upper = (int16_t)upper;
        }
        if (move >= 0 && move < 64) e->move = (uint8_t)move;
    } else if (e->kind != kind || depth >= e->depth) {
        e->player = P;
        e->opponent = O;
        e->kind = (uint8_t)kind;
        e->depth = (uint8_t)depth;
        e->lower = (int16_t)lower;
        e->upper = (int16_t)upper;
        e->move = (uint8_t)(move >= 0 && move < 64 ? move : 255);
    }
    e->date = t->date;
}
