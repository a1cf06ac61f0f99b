/*
 * Internal to the Gomoku engine: the engine object shared by the search,
 * the transposition table and the VCF solver.
 */
#ifndef RV_GOMOKU_SEARCH_H
#define RV_GOMOKU_SEARCH_H

#include <stdatomic.h>
#include <string.h>

#include "gomoku/pattern.h"
#include "renversi/gomoku_ai.h"

#define AI_MAX_PLY 128
#define AI_WIN RV_GOMOKU_AI_WIN

enum { TT_NONE, TT_UPPER, TT_LOWER, TT_EXACT };

typedef struct tt_entry {
    uint64_t key;
    int16_t score;
    int16_t move; /* padded index, -1 none */
    int8_t depth;
    uint8_t flag;
    uint8_t gen; /* the table's generation when stored: older ones count as empty */
    uint8_t pad;
} tt_entry;

/* Memo of positions where the VCF failed, with the depth it failed at; an entry of another
   run's generation (gmemo_begin) reads as an empty one (key 0, depth 0). */
typedef struct vcf_memo {
    uint64_t key;
    int depth;
    uint32_t gen;
} vcf_memo;

struct rv_gomoku_ai {
    gb_tables tables;
    gboard board;
    tt_entry *tt;
    size_t tt_mask;
    uint8_t tt_gen; /* gtt_clear's count: entries of another generation are empty */
    vcf_memo *memo;
    size_t memo_mask;
    uint32_t memo_gen; /* gmemo_begin's count: the memo's entries of another are empty */
    /* stop requests by number (rv_gomoku_ai_stop_think): thinks begun, the highest
       number asked to stop, the running think's number */
    atomic_uint_least64_t thinks, stop_upto;
    uint64_t think_no;
    int history[2][GB_CELLS];
    int killer[AI_MAX_PLY][2];
    uint64_t nodes;
    /* the think's budget, in time and/or nodes; each phase of the think (own VCF, VCT,
       alpha-beta, the check of the chosen move) stops at a fraction of it */
    double t0, budget_s;   /* start (rv_clock_seconds) and seconds, 0 = no clock */
    uint64_t budget_nodes; /* 0 = no node limit */
    double stop_frac;      /* the running phase stops at this fraction of the budget */
    double ext_frac;       /* alpha-beta's stop when its best move is unstable */
    int turn_mode;         /* a clock and no node limit: alpha-beta runs to near the end */
    /* the clock's polls: the last one, and the longest wait between two (the thread was off
       the core, or the machine is slow); the budget is shortened by twice that, since the
       answer may wait as long again after the stop (it fades by half from think to think) */
    double last_poll, late_s;
    double soft_frac;      /* iterations start until here (1: no target below the budget) */
    int spend_all;         /* no level: with a clock alone, iterations start until the stop */
    int aborted;
    int seldepth;
    uint8_t nulled[AI_MAX_PLY + 1]; /* the node at this ply follows a null move */
};

/* Transposition table (tt.c), in rv_table_alloc's memory (huge pages). gtt_clear empties
   it in O(1) by starting a new generation (a full wipe once every 255), so a new game never
   waits for hundreds of MB to be zeroed. */
int gtt_alloc(rv_gomoku_ai *ai, size_t bytes);
void gtt_free(rv_gomoku_ai *ai);
void gtt_clear(rv_gomoku_ai *ai);
const tt_entry *gtt_probe(const rv_gomoku_ai *ai, uint64_t key);
void gtt_store(rv_gomoku_ai *ai, uint64_t key, int depth, int flag, int score, int move);

/* Starts loading key's table entry into the cache (the probe follows soon). */
static inline void gtt_prefetch(const rv_gomoku_ai *ai, uint64_t key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&ai->tt[key & ai->tt_mask]);
#else
    (void)ai, (void)key;
#endif
}

/* The VCF/VCT memo (vcf.c, vcf_vct.c): gmemo_begin empties it for a run by starting a new
   generation (a full wipe once every 2^32 - 1 runs, and never the 512 KB per run it was);
   an entry of another generation reads as a wiped one (key 0, depth 0), so the searches
   see what they saw with the wipe. */
static inline void gmemo_begin(rv_gomoku_ai *ai) {
    if (++ai->memo_gen == 0) {
        memset(ai->memo, 0, (ai->memo_mask + 1) * sizeof(vcf_memo));
        ai->memo_gen = 1;
    }
}
/* Whether the memo holds key as failed at depth or deeper. */
static inline int gmemo_failed(const rv_gomoku_ai *ai, uint64_t key, int depth) {
    const vcf_memo *m = &ai->memo[key & ai->memo_mask];
    if (m->gen != ai->memo_gen) return key == 0 && depth <= 0;
    return m->key == key && m->depth >= depth;
}
static inline void gmemo_fail(rv_gomoku_ai *ai, uint64_t key, int depth) {
    vcf_memo *m = &ai->memo[key & ai->memo_mask];
    m->key = key;
    m->depth = depth;
    m->gen = ai->memo_gen;
}

/* VCF (vcf.c): the side to move in ai->board attacks; on success seq/nseq hold the
   winning line (padded indices). Returns 1 found, 0 not found (or aborted). */
int gvcf_run(rv_gomoku_ai *ai, int max_depth, uint64_t max_nodes, int *seq, int *nseq);

/* VCT (vcf_vct.c): fours and open threes for the side to move; *first = the winning
   threat. Returns 1 found, 0 not found within depth/nodes/time. */
int gvct_run(rv_gomoku_ai *ai, int max_depth, uint64_t max_nodes, int *first);

/*
 * The exact defences of the side to move in b against the opponent's threats to win in
 * two moves (its open-four / double-four points and its four-three points): the empty
 * points after which none of those points is one any more (the threat points themselves
 * included), found from the line patterns (gb_tl_if_blocked). Own fours (the other
 * answer to such a threat) and legality (Renju) are the caller's. Returns the number of
 * points put in out (at most max), 0 when nothing defends, -1 when there is no such
 * threat or too many threat points to check (the caller then falls back).
 */
int gsearch_defences(const gboard *b, int *out, int max);

/*
 * The rectangle of the board within 4 points of a stone, x0..x1 and y0..y1 (empty, x1 <
 * x0, on an empty board). A point outside it has no stone within 4 points on any line, so
 * none of its line patterns is a three or more (a three's and a four's stones lie within
 * 4 points of the point played), it is not near a stone and its threat levels are
 * TL_NONE: the candidate and threat scans need not look there. Kept by gb_play for
 * each move (gboard's box).
 */
typedef struct gsearch_box {
    int x0, x1, y0, y1;
} gsearch_box;
static inline void gsearch_box_of(const gboard *b, gsearch_box *r) {
    const gb_box *k = &b->box[b->nstones]; /* the stones' (padded) */
    if (k->x1 < k->x0) {
        r->x0 = r->y0 = 0, r->x1 = r->y1 = -1;
        return;
    }
    int x0 = k->x0 - GB_PAD - 4, x1 = k->x1 - GB_PAD + 4;
    int y0 = k->y0 - GB_PAD - 4, y1 = k->y1 - GB_PAD + 4;
    r->x0 = x0 > 0 ? x0 : 0, r->x1 = x1 < b->w - 1 ? x1 : b->w - 1;
    r->y0 = y0 > 0 ? y0 : 0, r->y1 = y1 < b->h - 1 ? y1 : b->h - 1;
}

/* gb_makes_four for colour c at the empty point p, from the threat level where that is
   exact (a four, four-three, open four or five level is a four: every rule but Renju's
   black, whose likely forbidden fours are at TL_NONE and are looked up). */
static inline int gsearch_makes_four(const gboard *b, int c, int p) {
    int t = b->tl[c - 1][p];
    if (b->renju && c == RV_BLACK && t == TL_NONE) {
        /* gb_makes_four's test of the 4 line patterns at once: a byte in PAT_BLOCK4 ..
           PAT_FIVE (each byte < 16, so adding 7 or 4 carries into its own bit 4 only) */
        uint32_t v;
        memcpy(&v, b->pc[c - 1][p], sizeof v);
        uint32_t ge4 = (v + 0x01010101u * (16 - PAT_BLOCK4)) & 0x10101010u;
        uint32_t ge6 = (v + 0x01010101u * (16 - PAT_OVERLINE)) & 0x10101010u;
        return (ge4 & ~ge6) != 0;
    }
    return t >= TL_FOUR && t != TL_THREE3;
}
_Static_assert(PAT_BLOCK4 + 1 == PAT_FLEX4 && PAT_FLEX4 + 1 == PAT_FIVE &&
                   PAT_FIVE + 1 == PAT_OVERLINE && GB_KINDS <= 16,
               "gsearch_makes_four's byte test: the fours and the five just below the overline");

/* How many empty points have colour c's threat level of a four or more (TL_FOUR, TL_FOUR3,
   TL_FLEX4, TL_FIVE). */
static inline int gsearch_four_level_count(const gboard *b, int c) {
    const int *k = b->cnt[c - 1];
    return k[TL_FOUR] + k[TL_FOUR3] + k[TL_FLEX4] + k[TL_FIVE];
}

/* How many empty points colour c makes a four at, or -1 when the threat levels do not tell
   (Renju black: its fours at probably forbidden points have level none). */
static inline int gsearch_four_count(const gboard *b, int c) {
    return b->renju && c == RV_BLACK ? -1 : gsearch_four_level_count(b, c);
}

/* gb_collect (the empty points where colour c has threat level >= lvl, in board order, at
   most max), looking only inside the box and only until the counted number is found. */
int gsearch_collect(const gboard *b, int c, int lvl, int *out, int max);

/* The empty points where colour c makes a four (gsearch_makes_four), in board order inside
   the box r (gsearch_box_of(b)), at most max; the scan stops at the counted number
   (gsearch_four_count) where that is known. Legality (Renju black) is the caller's. */
int gsearch_fours(const gboard *b, const gsearch_box *r, int c, int *out, int max);

/* Renju, white to move on ai->board and no five point on either side: 1 when white has a
   four whose only five point is forbidden to black (black cannot block it: a win, as an
   open four is). Only a four whose line holds an empty point where white makes a four now
   (a five point of the four's) that could be forbidden to black (gb_black_may_be_forbidden,
   on black's patterns before the four: a white stone never makes them stronger) is played
   to find its five point (counted as a node). */
int gsearch_trap_four(rv_gomoku_ai *ai);

/* Alpha-beta iterative deepening on ai->board (search.c). */
/* order/norder: the root moves, best first (at most 64). */
int gsearch_root(rv_gomoku_ai *ai, int max_depth, int *best_move, int *best_score, int *depth_done,
                 int *order, int *norder);

/* Polls time / node limits and the stop flag every so often. */
int gai_should_stop(rv_gomoku_ai *ai);

/* The share of the think's budget used so far, 0..1+ (the larger of time and nodes;
   0 with no budget). The time budget is shortened by twice the longest wait between two
   polls seen (at most by half). */
double gai_used(const rv_gomoku_ai *ai);

#endif
