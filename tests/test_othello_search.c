/*
 * The Othello engine's search API: argument checks, passes and finished
 * games, legal moves and principal variations at every level, exact scores
 * near the end against a reference negamax written here, time limits, stop
 * from another thread, move lists, independence of engines, and the
 * evaluation's symmetry (the game is the same under the board's 8 symmetries).
 */
#include "test.h"

#include "renversi/core.h"
#include "renversi/reversi_ai.h"
#include "reversi/ai_internal.h"
#include "othello_ref.h"

#include <pthread.h>
#include <time.h>


/* Checks that pv[0..len) is a legal line from pos starting with move. */
static int pv_is_legal(const rv_reversi_pos *pos, const rv_reversi_ai_info *info) {
    if (info->pv_len < 1 || info->pv[0] != info->move) return 0;
    rv_reversi_pos p = *pos;
    for (int i = 0; i < info->pv_len; i++)
        if (rv_reversi_play(&p, info->pv[i]) != RV_OK) return 0;
    return 1;
}

static void test_arguments(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(1 << 20);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    rv_reversi_ai_info info;
    info.move = 12345;
    rv_reversi_limits zero = {0, 0, 0, 0}, l21 = {21, 0, 0, 0}, d61 = {0, 61, 0, 0}, neg = {0, 0, -5, 0},
                      negn = {0, 4, 0, -1}, ok = {3, 0, 0, 0};
    CHECK(rv_reversi_ai_think(ai, &start, &zero, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, &start, &l21, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, &start, &d61, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, &start, &neg, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, &start, &negn, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(NULL, &start, &ok, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, NULL, &ok, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, &start, NULL, &info) == RV_EINVAL);
    CHECK(rv_reversi_ai_think(ai, &start, &ok, NULL) == RV_EINVAL);
    rv_reversi_pos overlap = {3, 1, RV_BLACK};
    CHECK(rv_reversi_ai_think(ai, &overlap, &ok, &info) == RV_EINVAL);
    CHECK_EQ_INT(info.move, 12345); /* untouched on failure */

    /* Finished game: RV_EOVER; a side without moves passes. */
    rv_reversi_pos over = {~0ULL >> 1, 0, RV_BLACK};
    CHECK(rv_reversi_ai_think(ai, &over, &ok, &info) == RV_EOVER);
    CHECK_EQ_INT(info.move, 12345);
    /* O to move: a1 empty, b1 O, the rest X; O has no move, X has a1. */
    rv_reversi_pos pass = {2ULL, ~3ULL, RV_WHITE};
    CHECK(rv_reversi_ai_think(ai, &pass, &ok, &info) == RV_OK);
    CHECK_EQ_INT(info.move, RV_REVERSI_PASS);
    rv_reversi_move_eval ev[32];
    int n = -1;
    CHECK(rv_reversi_ai_eval_moves(ai, &pass, &ok, ev, 32, &n) == RV_OK);
    CHECK_EQ_INT(n, 0);
    CHECK(rv_reversi_ai_eval_moves(ai, &over, &ok, ev, 32, &n) == RV_EOVER);
    CHECK(rv_reversi_ai_eval_moves(ai, &start, &zero, ev, 32, &n) == RV_EINVAL);
    rv_reversi_ai_free(ai);
    rv_reversi_ai_free(NULL); /* allowed */
}

static void test_levels_play_legal(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_rng rng;
    rv_rng_seed(&rng, 7);
    for (int level = 1; level <= 12; level++) {
        /* A midgame position (30 empties) and an endgame one (12). */
        for (int k = 0; k < 2; k++) {
            rv_reversi_pos pos = ref_random_position(&rng, k ? 12 : 30);
            if (rv_reversi_is_over(&pos) || !rv_reversi_moves(&pos)) continue;
            rv_reversi_limits lim = {level, 0, 0, 0};
            rv_reversi_ai_info info;
            CHECK(rv_reversi_ai_think(ai, &pos, &lim, &info) == RV_OK);
            CHECK_MSG((rv_reversi_moves(&pos) >> info.move) & 1, "level %d: move %d", level,
                      info.move);
            CHECK_MSG(pv_is_legal(&pos, &info), "level %d: bad pv", level);
            CHECK(info.nodes > 0);
        }
    }
    rv_reversi_ai_free(ai);
}

/* Near the end the engine solves exactly: eval and move agree with the
 * reference negamax. */
static void test_exact_endgame(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_rng rng;
    rv_rng_seed(&rng, 99);
    for (int i = 0; i < 20; i++) {
        rv_reversi_pos pos = ref_random_position(&rng, 6 + i % 4);
        if (rv_reversi_is_over(&pos) || !rv_reversi_moves(&pos)) continue;
        int want = ref_solve(pos.player, pos.opponent, 0);
        rv_reversi_limits lim = {10, 0, 0, 0};
        rv_reversi_ai_info info;
        CHECK(rv_reversi_ai_think(ai, &pos, &lim, &info) == RV_OK);
        CHECK_EQ_INT(info.exact, 1);
        CHECK_EQ_INT(info.eval_centi, 100 * want);
        uint64_t f = rv_reversi_flips_bb(pos.player, pos.opponent, info.move);
        CHECK(f != 0);
        CHECK_EQ_INT(-ref_solve(pos.opponent & ~f, pos.player | f | (1ULL << info.move), 0), want);
        CHECK(pv_is_legal(&pos, &info));
        /* Every move's exact value in the move list. */
        rv_reversi_move_eval ev[32];
        int n = 0;
        CHECK(rv_reversi_ai_eval_moves(ai, &pos, &lim, ev, 32, &n) == RV_OK);
        CHECK_EQ_INT(n, rv_bb_count(rv_reversi_moves(&pos)));
        for (int k = 0; k < n; k++) {
            uint64_t g = rv_reversi_flips_bb(pos.player, pos.opponent, ev[k].move);
            CHECK(ev[k].exact);
            CHECK_EQ_INT(ev[k].eval_centi,
                         -100 * ref_solve(pos.opponent & ~g, pos.player | g | (1ULL << ev[k].move), 0));
            if (k) CHECK(ev[k - 1].eval_centi >= ev[k].eval_centi);
        }
        CHECK_EQ_INT(ev[0].eval_centi, 100 * want);
    }
    rv_reversi_ai_free(ai);
}

static void test_eval_moves_midgame(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    rv_reversi_limits lim = {0, 4, 0, 0};
    rv_reversi_move_eval ev[32];
    int n = 0;
    CHECK(rv_reversi_ai_eval_moves(ai, &start, &lim, ev, 32, &n) == RV_OK);
    CHECK_EQ_INT(n, 4);
    uint64_t seen = 0;
    for (int k = 0; k < n; k++) seen |= 1ULL << ev[k].move;
    CHECK_EQ_U64(seen, rv_reversi_moves(&start));
    /* The 4 opening moves are symmetric: all the same value. */
    for (int k = 1; k < n; k++) CHECK_EQ_INT(ev[k].eval_centi, ev[0].eval_centi);
    /* max limits the count. */
    CHECK(rv_reversi_ai_eval_moves(ai, &start, &lim, ev, 2, &n) == RV_OK);
    CHECK_EQ_INT(n, 2);
    /* The best move's value equals think()'s at the same depth. */
    rv_reversi_pos pos = start;
    rv_reversi_play(&pos, 37); /* f5 */
    rv_reversi_play(&pos, 43); /* d6 */
    rv_reversi_ai_info info;
    CHECK(rv_reversi_ai_eval_moves(ai, &pos, &lim, ev, 32, &n) == RV_OK);
    CHECK(rv_reversi_ai_think(ai, &pos, &lim, &info) == RV_OK);
    CHECK_EQ_INT(info.eval_centi, ev[0].eval_centi);
    rv_reversi_ai_free(ai);
}

static void test_time_limit(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    rv_reversi_limits lim = {0, 0, 300, 0};
    rv_reversi_ai_info info;
    double t0 = rv_clock_seconds();
    CHECK(rv_reversi_ai_think(ai, &start, &lim, &info) == RV_OK);
    double dt = rv_clock_seconds() - t0;
    /* Not timed (a loaded machine stretches any wall-clock bound): the budget ends a
       search that would otherwise never end; 300 ms of one core is about 1 M nodes on the
       project's machine (68 M in 20 s), fewer on a busy one. The wall-clock bound is a
       hang guard. */
    CHECK_MSG(info.nodes < 30000000, "a 300 ms budget searched %llu nodes",
              (unsigned long long)info.nodes);
    CHECK_MSG(dt < 120.0, "300 ms budget took %.3f s", dt);
    CHECK((rv_reversi_moves(&start) >> info.move) & 1);
    CHECK(info.depth >= 1);
    rv_reversi_ai_free(ai);
}

/* A time budget with `depth 60` (what a timed NBoard game sends) solves
 * exactly only what fits the budget: 10 empties in 150 ms, not 18 (the
 * solve used to be tried at any size there, which cut the midgame search at
 * 8 plies on every move and spent the rest of the time on a hopeless solve). */
static void test_time_limit_solve_size(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_rng rng;
    rv_rng_seed(&rng, 12);
    int big = 0, small = 0;
    for (int i = 0; i < 40 && (big < 2 || small < 2); i++) {
        int empties = i % 2 ? 18 : 10;
        rv_reversi_pos pos = ref_random_position(&rng, empties);
        if (rv_reversi_is_over(&pos) || !rv_reversi_moves(&pos)) continue;
        rv_reversi_limits lim = {0, 60, 150, 0};
        rv_reversi_ai_info info;
        CHECK(rv_reversi_ai_think(ai, &pos, &lim, &info) == RV_OK);
        CHECK((rv_reversi_moves(&pos) >> info.move) & 1);
        if (empties == 18) {
            CHECK_EQ_INT(info.exact, 0);
            big++;
        } else {
            CHECK_EQ_INT(info.exact, 1);
            CHECK_EQ_INT(info.eval_centi, 100 * ref_solve(pos.player, pos.opponent, 0));
            small++;
        }
    }
    CHECK(big == 2 && small == 2);
    rv_reversi_ai_free(ai);
}

/* The game clock's plan, by hand.  Weights: a move at 47 empties or more
 * 0.5, from 30 to 19 empties 1.5, else 1; two moves of weight 1 are kept in
 * reserve.  60 empties, 60 s left: a margin of 50 ms + 2% (1.25 s) leaves
 * 58.75 s; the mover's moves 60..18 weigh 7 x 0.5 (60..48) + 8 x 1 (46..32)
 * + 6 x 1.5 (30..20) + 1 (18) = 21.5, with the reserve 23.5; this move's
 * share 58.75 s x 0.5 / 23.5 = 1250 ms, over the 0.6 of a budget a move
 * spends on average: 2083 ms.  At 14 empties the plan (58.75 s / 2 / 0.6) is
 * over the cap, half of what is left (29375 ms); an increment adds three
 * quarters of itself before the division ((1250 + 1500) / 0.6 = 4583 ms);
 * never more than what is left, never under 10 ms. */
static void test_clock_budget(void) {
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(60000, 0, 60), 2083);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(60000, 0, 14), 29375);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(60000, 2000, 60), 4583);
    /* 5 s at the first move of a game from the standard 8-ply openings (52
     * empties, or 51 for white): 4.85 s; 3 x 0.5 + 8 + 9 + 1 + 2 = 21.5;
     * 4850 x 0.5 / 21.5 / 0.6 = 187.98 */
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(5000, 0, 52), 187);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(5000, 0, 51), 187);
    /* 4 s at 40 empties: 3.87 s; 5 x 1 + 9 + 1 + 2 = 17; 3870 / 17 / 0.6 = 379.4 */
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(4000, 0, 40), 379);
    /* 1 s at 28 empties: 930 ms; 5 x 1.5 + 1 + 2 = 10.5; 930 x 1.5 / 10.5 / 0.6
     * = 221.4; at 20 empties 930 x 1.5 / 4.5 / 0.6 = 516.7, over the cap (465) */
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(1000, 0, 28), 221);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(1000, 0, 20), 465);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(1000, 0, 0), 465);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(100, 100000, 40), 48);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(30, 0, 40), 10);
    CHECK_EQ_INT(rv_reversi_clock_budget_ms(-500, 0, 40), 10);

    /* Whole games on the plan (no search: each move charged a share of its
     * budget), from every start between 60 and 51 empties (either colour, the
     * 8-ply openings) and clocks from 1 s to 5 min.  Spending 0.6 of each
     * budget above 16 empties and nothing below (the solves there take
     * milliseconds), the clock is 84-91% spent; the moves at 47 empties and
     * more take at most 17% of it (the eleventh session's flat plan: 31% from
     * 60 empties, 16% from 52), those from 30 to 19 empties at least 40%
     * (flat: 28% / 34%).  Spending all of every
     * budget above 16 empties, the clock still holds the margin at 16 empties. */
    static const int64_t clocks[] = {1000, 4000, 60000, 300000};
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
        for (int start = 60; start >= 51; start--) {
            int64_t left = clocks[i], open = 0, mid = 0, worst = clocks[i];
            for (int e = start; e > 0; e -= 2) {
                int64_t b = rv_reversi_clock_budget_ms(left, 0, e);
                int64_t spent = e > 16 ? b * 6 / 10 : 0;
                left -= spent;
                if (e >= 47) open += spent;
                if (e <= 30 && e >= 19) mid += spent;
                if (e > 16) worst -= rv_reversi_clock_budget_ms(worst, 0, e);
            }
            int64_t spent = clocks[i] - left;
            CHECK_MSG(spent * 100 >= clocks[i] * 84 && spent * 100 <= clocks[i] * 95,
                      "clock %lld from %d empties: %lld ms spent", (long long)clocks[i], start,
                      (long long)spent);
            CHECK_MSG(open * 100 <= spent * 17 && mid * 100 >= spent * 40,
                      "clock %lld from %d empties: %lld ms at 47+, %lld at 30-19 of %lld",
                      (long long)clocks[i], start, (long long)open, (long long)mid,
                      (long long)spent);
            CHECK_MSG(worst >= 50, "clock %lld from %d empties: %lld ms left at 16 empties",
                      (long long)clocks[i], start, (long long)worst);
        }
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* The win/draw/loss value of (P, O) for P by the library's exact solver
 * (checked against the FFO positions in test_othello_solve). */
static int wld_of(rv_reversi_ai *ref, uint64_t P, uint64_t O) {
    rv_reversi_pos pos = {P, O, RV_BLACK};
    rv_reversi_solve_result r;
    if (rv_reversi_solve(ref, &pos, 1, &r) != RV_OK) return 99;
    return r.score;
}

/* With a budget, positions above the exact solve's size but within reach of a
 * win/draw/loss solve get a move that keeps the game's value, and an
 * evaluation of that sign; among them some where a shallow midgame search
 * alone (depth 2) picks a move that throws the value away.  The budget is 16 M
 * nodes, which plans like 400 ms (exact up to 17 empties, win/draw/loss up to
 * 24; these 18-empty positions take 0.4-8.2 M nodes with the midgame share),
 * so the test does not depend on the machine's speed or load. */
static void test_time_limit_wld(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(8 << 20), *ref = rv_reversi_ai_new(8 << 20);
    rv_rng rng;
    rv_rng_seed(&rng, 2026);
    int tested = 0, fixed = 0;
    for (int i = 0; i < 60 && (tested < 8 || !fixed); i++) {
        rv_reversi_pos pos = ref_random_position(&rng, 18);
        if (rv_reversi_is_over(&pos) || !rv_reversi_moves(&pos)) continue;
        int want = wld_of(ref, pos.player, pos.opponent);
        rv_reversi_limits budget = {0, 60, 0, 16000000}, plain = {0, 2, 0, 0};
        rv_reversi_ai_info info, mid;
        CHECK(rv_reversi_ai_think(ai, &pos, &budget, &info) == RV_OK);
        CHECK_EQ_INT(info.exact, 0);
        uint64_t f = rv_reversi_flips_bb(pos.player, pos.opponent, info.move);
        CHECK(f != 0);
        CHECK_EQ_INT(-wld_of(ref, pos.opponent & ~f, pos.player | f | (1ULL << info.move)), want);
        CHECK_EQ_INT(sign(info.eval_centi), want);
        CHECK(rv_reversi_ai_think(ai, &pos, &plain, &mid) == RV_OK);
        uint64_t g = rv_reversi_flips_bb(pos.player, pos.opponent, mid.move);
        fixed += -wld_of(ref, pos.opponent & ~g, pos.player | g | (1ULL << mid.move)) < want;
        tested++;
    }
    CHECK_MSG(tested >= 8 && fixed >= 1, "%d positions, %d where depth 2 lost value", tested, fixed);
    rv_reversi_ai_free(ai);
    rv_reversi_ai_free(ref);
}

/* A node budget: the midgame search stops at it (within the leaves of the
 * node where it ran out), plays a legal move, and the same calls on two
 * engines give the same move, score, depth and node count; a larger budget
 * completes deeper iterations. */
static void test_node_limit(void) {
    rv_reversi_ai *a = rv_reversi_ai_new(4 << 20), *b = rv_reversi_ai_new(4 << 20);
    rv_rng rng;
    rv_rng_seed(&rng, 77);
    int tested = 0, small_depth = 0, big_depth = 0;
    for (int i = 0; i < 20 && tested < 6; i++) {
        rv_reversi_pos pos = ref_random_position(&rng, 30 + 4 * (i % 6));
        if (rv_reversi_is_over(&pos) || !rv_reversi_moves(&pos)) continue;
        rv_reversi_limits small = {0, 60, 0, 30000}, big = {0, 60, 0, 600000};
        rv_reversi_ai_info x, y, z, w;
        CHECK(rv_reversi_ai_think(a, &pos, &small, &x) == RV_OK);
        CHECK(rv_reversi_ai_think(b, &pos, &small, &y) == RV_OK);
        CHECK((rv_reversi_moves(&pos) >> x.move) & 1);
        CHECK_MSG(x.nodes <= 30000 + 64, "%llu nodes for a budget of 30000",
                  (unsigned long long)x.nodes);
        CHECK_EQ_INT(x.move, y.move);
        CHECK_EQ_INT(x.eval_centi, y.eval_centi);
        CHECK_EQ_INT(x.depth, y.depth);
        CHECK(x.nodes == y.nodes);
        CHECK(rv_reversi_ai_think(a, &pos, &big, &z) == RV_OK);
        CHECK(rv_reversi_ai_think(b, &pos, &big, &w) == RV_OK);
        CHECK(z.nodes <= 600000 + 64);
        CHECK(z.move == w.move && z.eval_centi == w.eval_centi && z.nodes == w.nodes);
        small_depth += x.depth;
        big_depth += z.depth;
        tested++;
    }
    CHECK(tested == 6);
    CHECK_MSG(big_depth >= small_depth + 2 * tested, "depths %d with 30 k nodes, %d with 600 k",
              small_depth, big_depth);
    /* A depth limit with a node budget stops at whichever comes first. */
    rv_reversi_pos start;
    rv_reversi_init(&start);
    rv_reversi_limits d3 = {0, 3, 0, 1000000}, d30 = {0, 30, 0, 20000};
    rv_reversi_ai_info info;
    CHECK(rv_reversi_ai_think(a, &start, &d3, &info) == RV_OK);
    CHECK_EQ_INT(info.depth, 3);
    CHECK(rv_reversi_ai_think(a, &start, &d30, &info) == RV_OK);
    CHECK(info.depth >= 3 && info.depth < 30);
    CHECK(info.nodes <= 20000 + 64);
    rv_reversi_ai_free(a);
    rv_reversi_ai_free(b);
}

typedef struct stopper {
    rv_reversi_ai *ai;
} stopper;

static void *stop_later(void *arg) {
    stopper *s = arg;
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    rv_reversi_ai_stop(s->ai);
    return NULL;
}

static void test_stop(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    rv_reversi_play(&start, 37);
    rv_reversi_limits lim = {0, 60, 0, 0}; /* far too deep to finish */
    rv_reversi_ai_info info;
    stopper s = {ai};
    pthread_t t;
    double t0 = rv_clock_seconds();
    CHECK(pthread_create(&t, NULL, stop_later, &s) == 0);
    CHECK(rv_reversi_ai_think(ai, &start, &lim, &info) == RV_OK);
    pthread_join(t, NULL);
    double dt = rv_clock_seconds() - t0;
    /* as for the time limit: stopped after 200 ms, a few million nodes at most */
    CHECK_MSG(info.nodes < 30000000, "a search stopped after 200 ms searched %llu nodes",
              (unsigned long long)info.nodes);
    CHECK_MSG(dt < 120.0, "stop took %.3f s", dt);
    CHECK((rv_reversi_moves(&start) >> info.move) & 1);
    /* A solve can be stopped too: it then reports RV_EOVER. */
    rv_reversi_pos deep;
    rv_reversi_init(&deep);
    rv_reversi_play(&deep, 37);
    rv_reversi_solve_result r;
    r.score = 77;
    CHECK(pthread_create(&t, NULL, stop_later, &s) == 0);
    CHECK(rv_reversi_solve(ai, &deep, 0, &r) == RV_EOVER);
    pthread_join(t, NULL);
    CHECK_EQ_INT(r.score, 77);
    rv_reversi_ai_free(ai);
}

/* A stop asked for a think's number before the think began still stops it (the
 * NBoard worker's race), and applies to no later think. */
static void test_stop_ticket(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(4 << 20);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    rv_reversi_play(&start, 37);
    /* the time only bounds the failure: unstopped, this think searches millions of
       nodes; stopped, it ends at its first poll (every 1024 nodes) */
    rv_reversi_limits deep = {0, 60, 5000, 0}, shallow = {0, 6, 0, 0};
    rv_reversi_ai_info info;
    uint64_t t = rv_reversi_ai_next_think(ai);
    rv_reversi_ai_stop_think(ai, t); /* before the think: it must stop at once */
    CHECK(rv_reversi_ai_think(ai, &start, &deep, &info) == RV_OK);
    CHECK((rv_reversi_moves(&start) >> info.move) & 1);
    CHECK_MSG(info.nodes < 20000, "a pre-stopped think searched %llu nodes",
              (unsigned long long)info.nodes);
    /* the stop was for that think only: the next one completes its depth */
    CHECK(rv_reversi_ai_think(ai, &start, &shallow, &info) == RV_OK);
    CHECK_EQ_INT(info.depth, 6);
    /* a stop for a think that already ended changes nothing either */
    rv_reversi_ai_stop_think(ai, rv_reversi_ai_next_think(ai) - 1);
    CHECK(rv_reversi_ai_think(ai, &start, &shallow, &info) == RV_OK);
    CHECK_EQ_INT(info.depth, 6);
    /* a call that fails at once still uses up its number */
    t = rv_reversi_ai_next_think(ai);
    CHECK(rv_reversi_ai_think(ai, &start, NULL, &info) == RV_EINVAL);
    rv_reversi_ai_stop_think(ai, t);
    CHECK(rv_reversi_ai_think(ai, &start, &shallow, &info) == RV_OK);
    CHECK_EQ_INT(info.depth, 6);
    rv_reversi_ai_free(ai);
}

/* Two engines, same question, same answer: no shared state. */
static void test_independent_engines(void) {
    rv_reversi_ai *a = rv_reversi_ai_new(2 << 20), *b = rv_reversi_ai_new(2 << 20);
    rv_rng rng;
    rv_rng_seed(&rng, 5);
    rv_reversi_pos pos = ref_random_position(&rng, 40);
    rv_reversi_limits lim = {0, 5, 0, 0};
    rv_reversi_ai_info x, y;
    CHECK(rv_reversi_ai_think(a, &pos, &lim, &x) == RV_OK);
    CHECK(rv_reversi_ai_think(b, &pos, &lim, &y) == RV_OK);
    CHECK_EQ_INT(x.move, y.move);
    CHECK_EQ_INT(x.eval_centi, y.eval_centi);
    CHECK_EQ_U64(x.nodes, y.nodes);
    rv_reversi_ai_free(a);
    rv_reversi_ai_free(b);
}

/* ------------------------------------------------- symmetry of the eval */

static void test_eval_symmetry(void) {
    rv_rng rng;
    rv_rng_seed(&rng, 31);
    rv_reversi_ai *ai = rv_reversi_ai_new(1 << 20);
    CHECK(ai != NULL);
    CHECK_EQ_INT(rv_reversi_ai_set_eval(ai, (rv_reversi_eval)7), RV_EINVAL);
    CHECK_EQ_INT(rv_reversi_ai_set_eval(ai, RV_REVERSI_EVAL_SIMPLE), RV_OK);
    for (int i = 0; i < 300; i++) {
        rv_reversi_pos p = ref_random_position(&rng, 4 + (int)rv_rng_below(&rng, 55));
        uint64_t P = p.player, O = p.opponent;
        int v = rv_ai_eval(ai, P, O);
        CHECK_EQ_INT(rv_ai_eval(ai, ref_flip_rows(P), ref_flip_rows(O)), v);
        CHECK_EQ_INT(rv_ai_eval(ai, ref_flip_cols(P), ref_flip_cols(O)), v);
        CHECK_EQ_INT(rv_ai_eval(ai, ref_transpose(P), ref_transpose(O)), v);
        CHECK_EQ_U64(rv_bb_count(rv_ai_stable(ref_transpose(P), ref_transpose(O))),
                     rv_bb_count(rv_ai_stable(P, O)));
        CHECK_EQ_U64(rv_bb_count(rv_ai_stable(ref_flip_cols(P), ref_flip_cols(O))),
                     rv_bb_count(rv_ai_stable(P, O)));
        /* Stable discs are really stable: no legal move of either side
         * flips one (one ply checked). */
        uint64_t s = rv_ai_stable(P, O);
        for (uint64_t m = rv_reversi_moves_bb(O, P); m; m &= m - 1)
            CHECK((rv_reversi_flips_bb(O, P, rv_bb_first(m)) & s) == 0);
    }
    rv_reversi_ai_free(ai);
}

static void test_level_strength_order(void) {
    rv_reversi_ai *a = rv_reversi_ai_new(2 << 20), *b = rv_reversi_ai_new(2 << 20);
    int strong_wins = 0;
    for (int g = 0; g < 4; g++) {
        rv_reversi_pos pos;
        rv_reversi_init(&pos);
        int strong_black = g % 2 == 0;
        while (!rv_reversi_is_over(&pos)) {
            int strong_turn = (pos.side == RV_BLACK) == strong_black;
            rv_reversi_limits lim = {strong_turn ? 6 : 1, 0, 0, 0};
            rv_reversi_ai_info info;
            if (rv_reversi_ai_think(strong_turn ? a : b, &pos, &lim, &info) != RV_OK) break;
            if (rv_reversi_play(&pos, info.move) != RV_OK) break;
        }
        int d = rv_reversi_count(&pos, RV_BLACK) - rv_reversi_count(&pos, RV_WHITE);
        if (strong_black ? d > 0 : d < 0) strong_wins++;
    }
    CHECK_MSG(strong_wins >= 3, "level 6 won %d of 4 against level 1", strong_wins);
    rv_reversi_ai_free(a);
    rv_reversi_ai_free(b);
}

/*
 * Multi-ProbCut prunes and still plays well: over random midgame positions,
 * the depth-8 search with it visits far fewer nodes than without, and the
 * move it picks is, by the unpruned search's own scores of every move, within
 * 3 discs of the best in nearly every position.
 */
static void test_probcut(void) {
    rv_reversi_ai *ai = rv_reversi_ai_new(8 << 20);
    CHECK(ai != NULL);
    rv_rng rng;
    rv_rng_seed(&rng, 31337);
    uint64_t nodes_on = 0, nodes_off = 0;
    int n = 0, good = 0;
    while (n < 12) {
        rv_reversi_pos p = ref_random_position(&rng, 30 + (int)rv_rng_below(&rng, 16));
        if (!rv_reversi_moves(&p)) continue;
        rv_reversi_limits lim = {0, 8, 0, 0};
        rv_reversi_ai_info on, off;
        rv_reversi_ai_set_probcut(ai, 1);
        rv_reversi_ai_clear(ai);
        CHECK_EQ_INT(rv_reversi_ai_think(ai, &p, &lim, &on), RV_OK);
        rv_reversi_ai_set_probcut(ai, 0);
        rv_reversi_ai_clear(ai);
        CHECK_EQ_INT(rv_reversi_ai_think(ai, &p, &lim, &off), RV_OK);
        nodes_on += on.nodes;
        nodes_off += off.nodes;
        rv_reversi_move_eval ev[32];
        int count = 0;
        rv_reversi_ai_clear(ai);
        CHECK_EQ_INT(rv_reversi_ai_eval_moves(ai, &p, &lim, ev, 32, &count), RV_OK);
        for (int i = 0; i < count; i++)
            if (ev[i].move == on.move && ev[i].eval_centi >= ev[0].eval_centi - 300) good++;
        n++;
    }
    printf("probcut at depth 8: %llu nodes against %llu without; a good move in %d of %d\n",
           (unsigned long long)nodes_on, (unsigned long long)nodes_off, good, n);
    CHECK(nodes_on * 2 < nodes_off);
    CHECK(good >= 10);
    rv_reversi_ai_set_probcut(ai, 1);
    rv_reversi_ai_free(ai);
}

int main(void) {
    test_arguments();
    test_levels_play_legal();
    test_exact_endgame();
    test_eval_moves_midgame();
    test_time_limit();
    test_time_limit_solve_size();
    test_time_limit_wld();
    test_node_limit();
    test_clock_budget();
    test_stop();
    test_stop_ticket();
    test_independent_engines();
    test_eval_symmetry();
    test_level_strength_order();
    test_probcut();
    return test_finish();
}
