/*
 * The Gomoku engine's public API: levels, limits, and the order of work in one
 * think — an immediate five, a VCF for the side to move, then alpha-beta.
 */
#include <stdlib.h>
#include <string.h>

#include "gomoku/search.h"
#include "renversi/core.h"

/* Level table: nominal depth, time per move (ms), VCF node budget. Levels 1-9 are held back
   by their depth; from level 10 the depth is above what the level's time reaches (about
   10-12 plies in 300 ms), so the clock decides and the level uses its time. */
static const struct {
    int depth;
    int time_ms;
    int vcf_nodes;
} levels[RV_GOMOKU_AI_MAX_LEVEL + 1] = {
    {0, 0, 0},           {1, 20, 0},         {2, 40, 0},         {3, 60, 200},
    {4, 80, 1000},       {5, 100, 2000},     {6, 120, 5000},     {7, 150, 10000},
    {8, 200, 20000},     {9, 250, 30000},    {16, 300, 50000},   {18, 500, 80000},
    {20, 800, 100000},   {22, 1000, 150000}, {24, 1500, 200000}, {26, 2000, 300000},
    {30, 3000, 400000},  {34, 5000, 600000}, {40, 8000, 800000}, {50, 12000, 1000000},
    {60, 20000, 2000000}};

rv_gomoku_ai *rv_gomoku_ai_new(size_t tt_bytes) {
    rv_gomoku_ai *ai = calloc(1, sizeof *ai);
    if (!ai) return NULL;
    if (tt_bytes == 0) tt_bytes = (size_t)16 << 20;
    if (tt_bytes < ((size_t)64 << 10)) tt_bytes = (size_t)64 << 10;
    ai->memo_mask = (1u << 15) - 1;
    ai->memo = calloc(ai->memo_mask + 1, sizeof *ai->memo);
    if (!ai->memo || gtt_alloc(ai, tt_bytes) != 0) {
        rv_gomoku_ai_free(ai);
        return NULL;
    }
    atomic_init(&ai->thinks, 0);
    atomic_init(&ai->stop_upto, 0);
    return ai;
}

void rv_gomoku_ai_free(rv_gomoku_ai *ai) {
    if (!ai) return;
    gtt_free(ai);
    free(ai->memo);
    free(ai);
}

void rv_gomoku_ai_clear(rv_gomoku_ai *ai) {
    gtt_clear(ai);
    memset(ai->history, 0, sizeof ai->history);
    memset(ai->killer, 0xFF, sizeof ai->killer);
}

/* Raises *a to v (never lowers it): stop requests from several threads add up. */
static void raise_to(atomic_uint_least64_t *a, uint64_t v) {
    uint_least64_t cur = atomic_load(a);
    while (cur < v && !atomic_compare_exchange_weak(a, &cur, v)) {
    }
}

void rv_gomoku_ai_stop(rv_gomoku_ai *ai) {
    if (ai) raise_to(&ai->stop_upto, atomic_load(&ai->thinks));
}

uint64_t rv_gomoku_ai_next_think(rv_gomoku_ai *ai) { return ai ? atomic_load(&ai->thinks) + 1 : 0; }

void rv_gomoku_ai_stop_think(rv_gomoku_ai *ai, uint64_t think) {
    if (ai) raise_to(&ai->stop_upto, think);
}

/* Builds the pattern tables for g's rule and loads g. */
static void load(rv_gomoku_ai *ai, const rv_gomoku *g) {
    gb_tables_build(&ai->tables, rv_gomoku_get_rule(g), 0x9E3779B97F4A7C15ull);
    gb_load(&ai->board, &ai->tables, g);
}

static int game_over(const rv_gomoku *g) {
    rv_gomoku_result r;
    rv_gomoku_get_result(g, &r);
    return r.over;
}

rv_status rv_gomoku_ai_think(rv_gomoku_ai *ai, const rv_gomoku *g, const rv_gomoku_limits *lim,
                             rv_gomoku_ai_info *out) {
    if (!ai) return RV_EINVAL;
    /* numbered before anything can return: a stop asked for this number applies */
    ai->think_no = atomic_fetch_add(&ai->thinks, 1) + 1;
    if (!g || !lim || !out) return RV_EINVAL;
    if (lim->level < 0 || lim->level > RV_GOMOKU_AI_MAX_LEVEL || lim->depth < 0 ||
        lim->time_ms < 0 || lim->nodes < 0 || lim->time_max_ms < 0)
        return RV_EINVAL;
    if (game_over(g)) return RV_EOVER;
    double t0 = rv_clock_seconds();
    load(ai, g);
    gboard *b = &ai->board;
    if (b->nempty == 0) return RV_EOVER;

    int depth = lim->depth, vcf_nodes = 0, level_vct = 0;
    int64_t time_ms = lim->time_ms;
    if (lim->level > 0) {
        int d = levels[lim->level].depth;
        depth = depth > 0 && depth < d ? depth : d;
        if (time_ms == 0) time_ms = levels[lim->level].time_ms;
        vcf_nodes = levels[lim->level].vcf_nodes;
        level_vct = lim->level >= 6 ? 2 + (lim->level - 6) / 3 : 0;
    } else {
        if (depth == 0) depth = 60;
        vcf_nodes = 200000;
        level_vct = 5;
    }
    if (depth > AI_MAX_PLY - 8) depth = AI_MAX_PLY - 8;
    ai->nodes = 0;
    ai->aborted = 0;
    ai->seldepth = 0;
    /* the budget plan, the same shares of the time and of a node limit: our VCF until
       30%, the VCT until 40%, alpha-beta until 85% (93% when its best move is unstable;
       gsearch_root starts an iteration when it can get half way, with a clock alone a
       quarter of the way, or with no level whenever time is left, and an unfinished one
       counts when it found a better move),
       the rest for checking the chosen move against the opponent's threats */
    ai->t0 = t0;
    ai->last_poll = t0;
    ai->late_s *= 0.5; /* the last think's longest wait, fading (search.h) */
    ai->budget_s = time_ms > 0 ? (double)time_ms / 1000.0 : 0;
    ai->budget_nodes = (uint64_t)lim->nodes;
    ai->ext_frac = 0.93;
    /* with a clock and no node limit, alpha-beta runs to near the end of the budget; the
       budget is time_max_ms when it is larger than the target time_ms (a match clock's
       share), and gsearch_root then starts iterations until the target, past it while the
       best move changes, and stops at half of it once the best move has held */
    ai->turn_mode = ai->budget_s > 0 && !ai->budget_nodes;
    ai->soft_frac = 1;
    ai->spend_all = lim->level == 0;
    if (ai->turn_mode && lim->time_max_ms > time_ms) {
        ai->soft_frac = (double)time_ms / (double)lim->time_max_ms;
        ai->budget_s = (double)lim->time_max_ms / 1000.0;
    }
    memset(ai->killer, 0xFF, sizeof ai->killer);
    /* history orders moves within a think; older counts fade so they never swamp the
       pattern scores that choose which moves are searched at all */
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < GB_CELLS; p++) ai->history[c][p] >>= 3;

    int move = -1, score = 0, done = 0, win = 0;
    int seq[RV_GOMOKU_VCF_MAX_MOVES], nseq = 0;
    if (vcf_nodes > 0 && !b->cnt[2 - b->stm][TL_FIVE]) {
        ai->stop_frac = 0.3;
        if (gvcf_run(ai, 30, (uint64_t)vcf_nodes, seq, &nseq) && nseq > 0) {
            move = seq[0];
            score = AI_WIN - nseq;
            win = 1;
        }
        ai->aborted = 0;
        if (move < 0 && level_vct > 0) {
            /* then fours and threes */
            ai->stop_frac = 0.4;
            int first;
            if (gvct_run(ai, level_vct, (uint64_t)vcf_nodes, &first)) {
                move = first;
                score = AI_WIN - 40;
                win = 1;
            }
        }
        ai->aborted = 0;
    }
    if (move < 0) {
        int order[64], norder = 0;
        /* a clock alone: to 97%, the rest for the check below (it takes 0-5 ms of 284, and
           stops at the budget: a cut check keeps the search's move); under a target
           (soft_frac < 1), to a quarter past it, and to 92% once the best move changes */
        ai->stop_frac = !ai->turn_mode ? 0.85 : ai->soft_frac < 1 ? 1.25 * ai->soft_frac : 0.97;
        if (ai->turn_mode) ai->ext_frac = ai->soft_frac < 1 ? 0.92 : 0.97;
        if (!gsearch_root(ai, depth, &move, &score, &done, order, &norder)) return RV_EOVER;
        if (score >= RV_GOMOKU_AI_WIN_MIN)
            win = 1;
        else if (score <= -RV_GOMOKU_AI_WIN_MIN)
            win = -1;
        else if (vcf_nodes > 0) {
            /* the search's horizon misses long four chains: skip a move after which the
               opponent has a VCF, if a later candidate has none */
            ai->stop_frac = 1.0;
            ai->aborted = 0;
            for (int k = 0; k < norder && k < 6 && !gai_should_stop(ai); k++) {
                gb_play(b, order[k]);
                int first, lost = gvcf_run(ai, 30, (uint64_t)vcf_nodes / 4, seq, &nseq);
                if (!lost && level_vct > 0)
                    lost = gvct_run(ai, level_vct < 3 ? level_vct : 3, (uint64_t)vcf_nodes / 4,
                                    &first);
                gb_undo(b);
                if (ai->aborted) break;
                if (!lost) {
                    move = order[k];
                    break;
                }
            }
        }
        ai->aborted = 0;
    }
    out->x = gb_x(move);
    out->y = gb_y(move);
    out->eval = score;
    out->depth = done;
    out->nodes = ai->nodes;
    out->seconds = rv_clock_seconds() - t0;
    out->win_found = win;
    return RV_OK;
}

rv_status rv_gomoku_vcf(const rv_gomoku *g, int max_depth, uint64_t max_nodes,
                        rv_gomoku_vcf_result *out) {
    if (!g || !out || max_depth < 0) return RV_EINVAL;
    if (game_over(g)) return RV_EOVER;
    rv_gomoku_ai *ai = rv_gomoku_ai_new((size_t)64 << 10);
    if (!ai) return RV_ENOMEM;
    load(ai, g);
    int seq[RV_GOMOKU_VCF_MAX_MOVES], nseq = 0;
    int ok = gvcf_run(ai, max_depth ? max_depth : 40, max_nodes ? max_nodes : 10000000, seq, &nseq);
    out->found = ok;
    out->nmoves = ok ? nseq : 0;
    for (int i = 0; i < out->nmoves; i++) {
        out->x[i] = (uint16_t)gb_x(seq[i]);
        out->y[i] = (uint16_t)gb_y(seq[i]);
    }
    out->nodes = ai->nodes;
    rv_gomoku_ai_free(ai);
    return RV_OK;
}
