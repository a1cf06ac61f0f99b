/*
 * The engine object: its table, its stop flag and its clock.  Everything a
 * search needs lives here, so engines are independent of each other.
 */
#include "reversi/ai_internal.h"
#include "reversi/pattern.h"

#include "renversi/core.h"
#include "renversi/reversi.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AI_DEFAULT_TT_BYTES ((size_t)64 << 20)

/* The bytes of a whole weight table. */
static size_t weights_bytes(void) {
    return (size_t)rv_pat_offset[RV_PAT_GROUPS] * RV_PAT_STAGES * 2;
}

/*
 * A copy of the pattern weights (bytes of them at src, 5 MB) in rv_table_alloc's memory
 * (on Linux on huge pages), or NULL when out of memory. An evaluation reads 46 weights
 * scattered over its stage's 330 KB; with 4 KB pages those reads also missed the TLB
 * (BENCHMARKS.md, "Othello midgame search", thirteenth session).
 */
static unsigned char *weights_copy(const unsigned char *src, size_t bytes) {
    unsigned char *mem = rv_table_alloc(bytes);
    if (mem) memcpy(mem, src, bytes);
    return mem;
}

/* Frees the engine's own copy of the weights. */
static void weights_free(rv_reversi_ai *ai) {
    rv_table_free(ai->pat_own, weights_bytes());
    ai->pat_own = NULL;
}

/* The built-in weights, copied where weights_copy() can. */
static void weights_builtin(rv_reversi_ai *ai) {
    weights_free(ai);
    ai->pat_own = weights_copy(rv_pat_weight_bytes, weights_bytes());
    ai->pat_w = ai->pat_own ? ai->pat_own : rv_pat_weight_bytes;
}

rv_reversi_ai *rv_reversi_ai_new(size_t tt_bytes) {
    rv_reversi_ai *ai = calloc(1, sizeof *ai);
    if (!ai) return NULL;
    if (tt_init(&ai->tt, tt_bytes ? tt_bytes : AI_DEFAULT_TT_BYTES) != 0) {
        free(ai);
        return NULL;
    }
    atomic_init(&ai->thinks, 0);
    atomic_init(&ai->stop_upto, 0);
    ai->simd = (int)rv_reversi_simd_best();
    ai->probcut = 1;
    weights_builtin(ai);
    return ai;
}

void rv_reversi_ai_free(rv_reversi_ai *ai) {
    if (!ai) return;
    tt_free(&ai->tt);
    weights_free(ai);
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

static uint32_t rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

rv_status rv_reversi_ai_set_weights(rv_reversi_ai *ai, const void *data, size_t len) {
    if (!ai) return RV_EINVAL;
    if (!data) {
        weights_builtin(ai);
        return RV_OK;
    }
    const unsigned char *b = data;
    size_t bytes = weights_bytes();
    if (len != RV_PAT_FILE_HEADER + bytes || memcmp(b, RV_PAT_FILE_MAGIC, 4) ||
        rd32(b + 4) != RV_PAT_FILE_VERSION || rd32(b + 8) != RV_PAT_STAGES ||
        rd32(b + 12) != rv_pat_offset[RV_PAT_GROUPS] ||
        rd32(b + 16) != rv_pat_file_hash(b + RV_PAT_FILE_HEADER, bytes))
        return RV_EINVAL;
    unsigned char *w = weights_copy(b + RV_PAT_FILE_HEADER, bytes);
    if (!w) return RV_ENOMEM;
    weights_free(ai);
    ai->pat_own = w;
    ai->pat_w = w;
    return RV_OK;
}

void rv_reversi_ai_set_probcut(rv_reversi_ai *ai, int on) {
    if (ai) ai->probcut = on != 0;
}

void rv_reversi_ai_set_cpu_clock(rv_reversi_ai *ai, int on) {
    if (ai) ai->cpu_clock = on != 0;
}

/* A move spends on average about this share of its budget: think() starts an
 * iteration only if it is expected to finish within the budget, so the last
 * one often is not started (0.61-0.66 of the budget spent over the midgame in
 * the tenth session's games against NTest, 0.5-0.7 from 23 empties down). */
#define CLOCK_SPENT_SHARE 0.6

/* The weight of the mover's move at `empties` in the clock's plan: half in the
 * opening (47 empties and more: the positions are alike and a shallow search
 * decides little), one and a half from 30 to 19 empties (where NTest spends a
 * third of its time and where the games against it drift), one elsewhere. */
static double clock_stage_weight(int empties) {
    if (empties >= 47) return 0.5;
    if (empties <= 30 && empties >= 19) return 1.5;
    return 1.0;
}

int64_t rv_reversi_clock_budget_ms(int64_t left_ms, int64_t inc_ms, int empties) {
    /* About half the empties are the mover's, but from 16 empties on a move
     * costs next to nothing (solved in milliseconds): the time is planned over
     * the mover's moves down to 16 empties, each weighted by its stage, plus
     * two moves' worth (weight one each) kept for the endgame, after a margin.
     * The budget is this move's weighted share over the part of a budget a
     * move spends, so the clock is spent rather than a third of it left over;
     * never more than half of what is left (the reserve), so a search that
     * uses all of its budget cannot lose on time. */
    double left = (double)left_ms, inc = (double)inc_ms;
    double avail = left - (50.0 + left * 0.02);
    double weights = 2.0;
    for (int e = empties; e > 16; e -= 2) weights += clock_stage_weight(e);
    double own = empties > 16 ? clock_stage_weight(empties) : 1.0;
    double share = (avail * own / weights + inc * 0.75) / CLOCK_SPENT_SHARE;
    double cap = avail / 2 + inc * 0.75;
    if (cap > avail) cap = avail;
    if (share > cap) share = cap;
    return share < 10.0 ? 10 : (int64_t)share;
}

uint64_t rv_ai_now_ns(const rv_reversi_ai *ai) {
    struct timespec ts;
    if (ai->cpu_clock && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    return rv_clock_ns();
}

uint64_t rv_reversi_ai_nodes(const rv_reversi_ai *ai) { return ai ? ai->nodes : 0; }

/* Raises *a to v (never lowers it): stop requests from several threads add up. */
static void raise_to(atomic_uint_least64_t *a, uint64_t v) {
    uint_least64_t cur = atomic_load(a);
    while (cur < v && !atomic_compare_exchange_weak(a, &cur, v)) {
    }
}

void rv_reversi_ai_stop(rv_reversi_ai *ai) {
    if (ai) raise_to(&ai->stop_upto, atomic_load(&ai->thinks));
}

uint64_t rv_reversi_ai_next_think(rv_reversi_ai *ai) {
    return ai ? atomic_load(&ai->thinks) + 1 : 0;
}

void rv_reversi_ai_stop_think(rv_reversi_ai *ai, uint64_t think) {
    if (ai) raise_to(&ai->stop_upto, think);
}

int rv_ai_should_stop(rv_reversi_ai *ai) {
    /* think_no 0: an internal search that no public call numbered */
    if (ai->think_no && atomic_load_explicit(&ai->stop_upto, memory_order_relaxed) >= ai->think_no)
        return 1;
    if (ai->node_limit && ai->nodes >= ai->node_limit) return 1;
    return ai->deadline_ns && rv_ai_now_ns(ai) >= ai->deadline_ns;
}

/* Numbers a call on entry, before anything can make it return: a stop asked for
 * that number (even before the call began) applies to it and to no later one. */
void rv_ai_enter(rv_reversi_ai *ai) { ai->think_no = atomic_fetch_add(&ai->thinks, 1) + 1; }

/* Starts a search: clears the counters and the node limit, sets the deadline. */
void rv_ai_begin(rv_reversi_ai *ai, int64_t time_ms) {
    ai->nodes = 0;
    ai->node_limit = 0;
    ai->aborted = 0;
    ai->deadline_ns = time_ms > 0 ? rv_ai_now_ns(ai) + (uint64_t)time_ms * 1000000ULL : 0;
    ai->tt.date++;
}

/* Overlapping discs (or a NULL) make a position unusable. */
int rv_ai_valid_pos(const rv_reversi_pos *pos) {
    return pos && (pos->player & pos->opponent) == 0;
}
