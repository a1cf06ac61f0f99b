/*
 * The engine object: its table, its stop flag and its clock.  Everything a
 * search needs lives here, so engines are independent of each other.
 */
#include "reversi/ai_internal.h"

#include "renversi/core.h"
#include "renversi/reversi.h"

#include <stdlib.h>

#define AI_DEFAULT_TT_BYTES ((size_t)64 << 20)

rv_reversi_ai *rv_reversi_ai_new(size_t tt_bytes) {
    rv_reversi_ai *ai = calloc(1, sizeof *ai);
    if (!ai) return NULL;
    if (tt_init(&ai->tt, tt_bytes ? tt_bytes : AI_DEFAULT_TT_BYTES) != 0) {
        free(ai);
        return NULL;
    }
    atomic_init(&ai->stop, 0);
    ai->simd = (int)rv_reversi_simd_best();
    return ai;
}

void rv_reversi_ai_free(rv_reversi_ai *ai) {
    if (!ai) return;
    tt_free(&ai->tt);
    free(ai);
}

void rv_reversi_ai_clear(rv_reversi_ai *ai) {
    if (ai) tt_clear(&ai->tt);
}

void rv_reversi_ai_set_contempt(rv_reversi_ai *ai, int contempt_centi) {
    if (ai) ai->contempt = contempt_centi;
}

rv_status rv_reversi_ai_set_eval(rv_reversi_ai *ai, rv_reversi_eval eval) {
    if (!ai || (eval != RV_REVERSI_EVAL_PATTERN && eval != RV_REVERSI_EVAL_SIMPLE)) return RV_EINVAL;
    ai->eval_kind = (int)eval;
    return RV_OK;
}

uint64_t rv_reversi_ai_nodes(const rv_reversi_ai *ai) { return ai ? ai->nodes : 0; }

void rv_reversi_ai_stop(rv_reversi_ai *ai) {
    if (ai) atomic_store(&ai->stop, 1);
}

int rv_ai_should_stop(rv_reversi_ai *ai) {
    if (atomic_load_explicit(&ai->stop, memory_order_relaxed)) return 1;
    return ai->deadline_ns && rv_clock_ns() >= ai->deadline_ns;
}

/* Starts a search: clears the stop request and the counters. */
void rv_ai_begin(rv_reversi_ai *ai, int64_t time_ms) {
    atomic_store(&ai->stop, 0);
    ai->nodes = 0;
    ai->aborted = 0;
    ai->deadline_ns = time_ms > 0 ? rv_clock_ns() + (uint64_t)time_ms * 1000000ULL : 0;
    ai->tt.date++;
}

/* Overlapping discs (or a NULL) make a position unusable. */
int rv_ai_valid_pos(const rv_reversi_pos *pos) {
    return pos && (pos->player & pos->opponent) == 0;
}
