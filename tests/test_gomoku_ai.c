/*
 * The Gomoku engine: its moves are always legal (never occupied, never a Renju
 * forbidden point for black, checked by the rules module), it takes a five,
 * blocks a four, wins a hand-checked VCF and a win by threes at level 5, defends against
 * a four-three, answers within its time, and stops when asked.
 */
#include <pthread.h>
#include <unistd.h>

#include "renversi/core.h"
#include "renversi/gomoku_ai.h"
#include "renversi/gomoku_record.h"
#include "test.h"

static void setup(rv_gomoku *g, rv_gomoku_rule rule, const char *moves) {
    rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    int n = 0;
    rv_gomoku_init(g, 15, 15, rule);
    CHECK(rv_gomoku_moves_parse(moves, strlen(moves), 15, pts, RV_GOMOKU_MAX_POINTS, &n, NULL) ==
          RV_OK);
    for (int i = 0; i < n; i++) CHECK(rv_gomoku_play(g, pts[i].x, pts[i].y) == RV_OK);
}

static void name(int x, int y, char *buf) { rv_gomoku_point_format(x, y, 15, buf, 8); }

/* A level's depth and threat budgets, bounded by nodes instead of the level's time,
   so that the answer does not depend on how busy the machine is. */
static rv_gomoku_limits level_by_nodes(int level) {
    rv_gomoku_limits lim = {level, 0, 60000, 400000, 0};
    return lim;
}

/* The engine's move at a level, as "h8". */
static void think_at(rv_gomoku_ai *ai, const rv_gomoku *g, int level, char *buf) {
    rv_gomoku_limits lim = level_by_nodes(level);
    rv_gomoku_ai_info info;
    strcpy(buf, "?");
    if (rv_gomoku_ai_think(ai, g, &lim, &info) == RV_OK) name(info.x, info.y, buf);
}

/* Random games: every move the engine proposes is accepted by the rules. */
static void random_positions(rv_gomoku_ai *ai) {
    static const rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU,
                                           RV_RULE_CARO, RV_RULE_STANDARD_CARO};
    rv_rng rng;
    rv_rng_seed(&rng, 12345);
    int bad = 0, thinks = 0, renju_black = 0;
    long games = 30 * test_scale();
    for (long gi = 0; gi < games; gi++) {
        rv_gomoku_rule rule = rules[gi % 5];
        int size = gi % 3 == 2 && rule != RV_RULE_RENJU ? 9 + (int)rv_rng_below(&rng, 12) : 15;
        rv_gomoku g;
        rv_gomoku_init(&g, size, size, rule);
        for (int ply = 0; ply < size * size; ply++) {
            rv_gomoku_result r;
            rv_gomoku_get_result(&g, &r);
            if (r.over) break;
            int x, y;
            if (rv_rng_below(&rng, 3) == 0) {
                /* the engine moves */
                rv_gomoku_limits lim = {1 + (int)rv_rng_below(&rng, 4), 0, 0, 20000, 0};
                rv_gomoku_ai_info info;
                rv_status s = rv_gomoku_ai_think(ai, &g, &lim, &info);
                if (s == RV_EOVER) break;
                thinks++;
                if (rule == RV_RULE_RENJU && rv_gomoku_to_move(&g) == RV_BLACK) renju_black++;
                if (s != RV_OK || rv_gomoku_check(&g, info.x, info.y, NULL) != RV_OK) {
                    bad++;
                    break;
                }
                x = info.x, y = info.y;
            } else {
                /* a random legal move near the centre (dense positions, many forbidden points) */
                int tries = 0;
                do {
                    x = size / 2 - 3 + (int)rv_rng_below(&rng, 7);
                    y = size / 2 - 3 + (int)rv_rng_below(&rng, 7);
                    if (++tries > 50)
                        x = (int)rv_rng_below(&rng, (uint64_t)size),
                        y = (int)rv_rng_below(&rng, (uint64_t)size);
                } while (rv_gomoku_check(&g, x, y, NULL) != RV_OK && tries < 2000);
                if (tries >= 2000) break;
            }
            rv_gomoku_play(&g, x, y);
        }
    }
    CHECK_MSG(bad == 0, "%d illegal engine moves in %d thinks", bad, thinks);
    CHECK(thinks > 100);
    CHECK(renju_black > 10);
}

struct stopper {
    rv_gomoku_ai *ai;
    int ms;
};

static void *stop_later(void *arg) {
    struct stopper *s = arg;
    usleep((useconds_t)s->ms * 1000);
    rv_gomoku_ai_stop(s->ai);
    return NULL;
}

int main(void) {
    rv_gomoku_ai *ai = rv_gomoku_ai_new(0);
    CHECK(ai != NULL);
    char mv[8];
    rv_gomoku g;

    /* an empty board: the centre */
    setup(&g, RV_RULE_FREESTYLE, "");
    think_at(ai, &g, 10, mv);
    CHECK_EQ_STR(mv, "h8");

    /* black has a four (h8-k8, g8 white): the five at l8, at every level */
    setup(&g, RV_RULE_FREESTYLE, "h8 g8 i8 a1 j8 a2 k8 a3");
    for (int level = 1; level <= 12; level += 11) {
        think_at(ai, &g, level, mv);
        CHECK_EQ_STR(mv, "l8");
    }
    /* white to move must block black's four at l8 (white has nothing) */
    setup(&g, RV_RULE_FREESTYLE, "h8 g8 i8 a1 j8 a2 k8");
    think_at(ai, &g, 5, mv);
    CHECK_EQ_STR(mv, "l8");
    /* white's own five beats blocking: a1-a4 + a5 */
    setup(&g, RV_RULE_FREESTYLE, "h8 a1 i8 a2 j8 a3 o15 a4 k8");
    think_at(ai, &g, 5, mv);
    CHECK_EQ_STR(mv, "a5");

    /* Renju: black's double four at h8 (e8-g8 with d8 white, h9-h11 with h12 white) is
       forbidden; freestyle plays it and wins */
    const char *dbl4 = "e8 d8 f8 h12 g8 a1 h9 o1 h10 a15 h11 o15";
    setup(&g, RV_RULE_FREESTYLE, dbl4);
    think_at(ai, &g, 8, mv);
    CHECK_EQ_STR(mv, "h8");
    setup(&g, RV_RULE_RENJU, dbl4);
    for (int level = 1; level <= 10; level += 3) {
        think_at(ai, &g, level, mv);
        CHECK(strcmp(mv, "h8") != 0 && strcmp(mv, "?") != 0);
    }
    /* Renju: white wins by a four whose only block (h8) is a double three for black */
    setup(&g, RV_RULE_RENJU, "g8 e5 i8 f6 h7 g7 h9 a15 c3 o15 i9");
    rv_gomoku_limits lim = level_by_nodes(6);
    rv_gomoku_ai_info info;
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK_MSG(info.win_found == 1, "white's forbidden-point win not seen (played %s)", mv);
    CHECK(rv_gomoku_play(&g, info.x, info.y) == RV_OK);
    {
        /* whatever black does now, white can win at once or black is forbidden */
        int x0, y0;
        rv_gomoku_move_at(&g, rv_gomoku_move_count(&g) - 1, &x0, &y0);
        CHECK(rv_gomoku_check(&g, 7, 7, NULL) == RV_EFORBIDDEN || info.eval > 0);
    }

    /* a double open three (h8 i8 + j8, j7 j6 + j8): a forced win in freestyle (the
       threat search sees it); under Renju j8 is a forbidden double three */
    const char *d33 = "h8 a15 i8 o15 j7 a1 j6 o1";
    setup(&g, RV_RULE_FREESTYLE, d33);
    lim = level_by_nodes(8);
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK_EQ_STR(mv, "j8");
    CHECK(info.win_found == 1);
    setup(&g, RV_RULE_RENJU, d33);
    CHECK(rv_gomoku_forbidden(&g, 9, 7) == RV_FORBID_DOUBLE_THREE);
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK(strcmp(mv, "j8") != 0);
    CHECK(rv_gomoku_check(&g, info.x, info.y, NULL) == RV_OK);

    /* a win by threes from a game against Rapfi (freestyle, black to move; Rapfi 0.43 given
       200,000 nodes announces a mate in 13 plies with f9, and the engine's own threat
       solver, level 10, wins with d10). Level 5 has no threat solver beyond a small VCF
       and searches 5 plies: it sees the win only because answering an open three with at
       most 3 moves costs no depth */
    setup(&g, RV_RULE_FREESTYLE, "h8 h9 i10 i9 g9 g10 f11 i8 e11 f10 e10 g12 e9 e8 d11 g11");
    lim = level_by_nodes(5);
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK_MSG(info.win_found == 1, "level 5 misses the win by threes (played %s, eval %d)", mv,
              info.eval);
    CHECK_MSG(!strcmp(mv, "d10") || !strcmp(mv, "f9"), "played %s", mv);
    lim = level_by_nodes(10);
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    CHECK(info.win_found == 1);

    /* A defence the exact ones do not see (freestyle, white to move; a game against Rapfi).
       Black threatens h9, an open four on the diagonal f11-k6 (g10 i8 j7), and j6, a four
       (g9 h8 i7 j6, completed only at k5 since f10 is white) with the open three j6 j7 j8.
       White has no four. h9 and f11 stop the open four but leave the four-three at j6;
       k6 stops it too and makes white's split three k6 . k8 k9, so that the block of
       black's four at k5 is a white four (k5 k6 . k8 k9) and wins the tempo to stop the
       three. The search took the position as lost (no exact defence) and played a1. */
    setup(&g, RV_RULE_FREESTYLE, "h8 h7 j8 i9 i7 k9 i8 k8 g9 f10 g10 g8 j7");
    lim = (rv_gomoku_limits){0, 0, 60000, 100000, 0};
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK_MSG(!strcmp(mv, "k6") && info.eval > -RV_GOMOKU_AI_WIN_MIN,
              "the counter-four defence: played %s, eval %d", mv, info.eval);
    /* A loss proven from a node's list of 12 / 9 / 6 moves is no proof (Renju, black to
       move; a game against Rapfi, which at 400,000 nodes rates the position -110 for black,
       no mate). The search announced a win with g6 (g6 g9 f7 and a win); white answers e8
       (Rapfi's reply in the game, after which the search sees no win either): once a node
       whose listed moves all lost searches the rest of its candidates, no win is found. */
    setup(&g, RV_RULE_RENJU, "h8 h7 i6 i7 g7 f6 j7 k8 i8 k6 g8 f8");
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK_MSG(info.win_found != 1 && info.eval < RV_GOMOKU_AI_WIN_MIN,
              "a win from a narrow list: played %s, eval %d", mv, info.eval);
    /* The same under a threat (Renju, black to move; Rapfi at 400,000 nodes: -643 for
       black, no mate): after black's j9, white must answer the four-three at l7 (the four
       i7 j7 k7 l7, closed by h7, and the split three l7 . j9 i10), and its answers (the
       exact defences, its fours and its threes) are more than the node's width; k9,
       Rapfi's reply in the game, makes white's three k9 j10 i11 and holds. The search
       announced a win with j9. */
    setup(&g, RV_RULE_RENJU, "h8 h7 j7 j8 i9 j10 i7 g9 i8 i6 k6 l5 k7 j5 i10 i11 g8 j11");
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
    name(info.x, info.y, mv);
    CHECK_MSG(info.win_found != 1 && info.eval < RV_GOMOKU_AI_WIN_MIN,
              "a win from a narrow list of answers: played %s, eval %d", mv, info.eval);

    /* The threat solver (VCT) against counter-fours: a defender's four is blocked, and a
       plain block leaves the defender to answer the open three again. Two won positions of
       `bench search --threats` with two winning moves each (Rapfi 0.43 at 1,000,000 nodes, to
       move after j10 or g11, f11 or g7, rates itself mated in 6-12 plies); a think of depth 1
       wins only if the solver finds the win before alpha-beta (it did not when a
       counter-four's plain block ended the line). */
    {
        static const struct {
            rv_gomoku_rule rule;
            const char *moves, *win, *win2;
        } vct[] = {
            {RV_RULE_FREESTYLE, "h8 h9 h7 f7 g8 i6 g10 i8 f9 i7 i9 g6 e8 d7 h10 i4 i5 e10", "j10",
             "g11"},
            {RV_RULE_RENJU,
             "h8 i9 j8 i8 i7 h6 j9 j6 i6 i5 j4 h4 k7 h5 h7 j7 j5 k4 h3 f9 k6 i4 j3 g3 f2 f8 j2 j1 "
             "g9 f10 f7",
             "f11", "g7"},
        };
        for (size_t i = 0; i < sizeof vct / sizeof vct[0]; i++) {
            setup(&g, vct[i].rule, vct[i].moves);
            lim = (rv_gomoku_limits){0, 1, 0, 400000, 0};
            CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK);
            name(info.x, info.y, mv);
            CHECK_MSG(info.win_found == 1 && (!strcmp(mv, vct[i].win) || !strcmp(mv, vct[i].win2)),
                      "VCT position %zu: played %s, eval %d (expected a win with %s or %s)", i, mv,
                      info.eval, vct[i].win, vct[i].win2);
        }
    }

    /* a VCF (hand-checked): black h8 i8 j8 (g8 white) and k9 k10; k8 is a four and a three,
       white must take l8, then k11 or k7 is an open four. The line starts at k8 (l8, the
       other four on row 8, lets white block at k8) and the rules module sees it end in a
       black five. */
    setup(&g, RV_RULE_FREESTYLE, "h8 a1 i8 c1 j8 e1 k9 g8 k10 o15");
    {
        rv_gomoku_vcf_result vr;
        CHECK(rv_gomoku_vcf(&g, 0, 0, &vr) == RV_OK);
        CHECK(vr.found == 1);
        CHECK(vr.nmoves >= 3 && vr.nmoves % 2 == 1);
        name(vr.x[0], vr.y[0], mv);
        CHECK_EQ_STR(mv, "k8");
        rv_gomoku line = g;
        for (int i = 0; i < vr.nmoves; i++) CHECK(rv_gomoku_play(&line, vr.x[i], vr.y[i]) == RV_OK);
        rv_gomoku_result r;
        rv_gomoku_get_result(&line, &r);
        CHECK(r.over && r.winner == RV_BLACK);
        /* the engine plays it and knows it wins */
        rv_gomoku_limits dl = {0, 4, 0, 0, 0};
        CHECK(rv_gomoku_ai_think(ai, &g, &dl, &info) == RV_OK);
        name(info.x, info.y, mv);
        CHECK_EQ_STR(mv, "k8");
        CHECK(info.win_found == 1);
    }

    /* defence against a four-three: white h9 i9 j9 (g9 black) and k10 k11 threatens k9
       (a four and an open three). By hand, black's only defences are k9, l9, k8 and k12
       (after k7 or k13 white still wins: k9, l9, then an open four on column k). Both
       rules; after the engine's move white has no VCF. */
    for (int rule = 0; rule < 2; rule++) {
        const char *pos = "a1 h9 o1 i9 a15 j9 g9 k10 c13 k11";
        rv_gomoku_rule rr = rule ? RV_RULE_RENJU : RV_RULE_FREESTYLE;
        rv_gomoku_vcf_result vr;
        /* the threat is real: with one more black stone far away, white wins from k9 */
        char more[64];
        snprintf(more, sizeof more, "%s o15", pos);
        setup(&g, rr, more);
        CHECK(rv_gomoku_vcf(&g, 0, 0, &vr) == RV_OK);
        CHECK(vr.found == 1);
        name(vr.x[0], vr.y[0], mv);
        CHECK_EQ_STR(mv, "k9");
        setup(&g, rr, pos);
        rv_gomoku_limits dl = {0, 6, 0, 0, 0};
        CHECK(rv_gomoku_ai_think(ai, &g, &dl, &info) == RV_OK);
        name(info.x, info.y, mv);
        CHECK_MSG(strcmp(mv, "k9") == 0 || strcmp(mv, "l9") == 0 || strcmp(mv, "k8") == 0 ||
                      strcmp(mv, "k12") == 0,
                  "rule %d: played %s against the four-three at k9", rule, mv);
        CHECK(rv_gomoku_play(&g, info.x, info.y) == RV_OK);
        CHECK(rv_gomoku_vcf(&g, 0, 0, &vr) == RV_OK);
        CHECK_MSG(vr.found == 0, "rule %d: white still has a VCF after %s", rule, mv);
    }

    /* the game over: RV_EOVER; bad limits: RV_EINVAL */
    setup(&g, RV_RULE_FREESTYLE, "h8 a1 i8 a2 j8 a3 k8 a4 l8");
    CHECK(rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_EOVER);
    rv_gomoku_limits badlim = {21, 0, 0, 0, 0};
    setup(&g, RV_RULE_FREESTYLE, "h8");
    CHECK(rv_gomoku_ai_think(ai, &g, &badlim, &info) == RV_EINVAL);
    rv_gomoku_limits badmax = {0, 0, 100, 0, -1};
    CHECK(rv_gomoku_ai_think(ai, &g, &badmax, &info) == RV_EINVAL);

    /* a time limit ends the think. Not timed (a loaded machine stretches any wall-clock
       bound): unlimited, this position's think searches about 18 M nodes (33 s on the
       project's machine, longer under sanitizers or load), while 200 ms of one core is
       well under 1 M at any speed this code reaches, fewer when the machine is busy; the
       wall-clock bound is only a hang guard */
    setup(&g, RV_RULE_FREESTYLE, "h8 i9 h9 h10 i8 g8");
    rv_gomoku_limits tl = {0, 0, 200, 0, 0};
    double t0 = rv_clock_seconds();
    CHECK(rv_gomoku_ai_think(ai, &g, &tl, &info) == RV_OK);
    double took = rv_clock_seconds() - t0;
    CHECK_MSG(info.nodes < 5000000, "a 200 ms think searched %llu nodes",
              (unsigned long long)info.nodes);
    CHECK_MSG(took < 120.0, "200 ms think took %.3f s", took);
    CHECK(rv_gomoku_check(&g, info.x, info.y, NULL) == RV_OK);
    /* a target with a larger most-this-move (a match clock's share): still a legal move */
    rv_gomoku_limits tm = {0, 0, 50, 0, 150};
    CHECK(rv_gomoku_ai_think(ai, &g, &tm, &info) == RV_OK);
    CHECK(rv_gomoku_check(&g, info.x, info.y, NULL) == RV_OK);

    /* rv_gomoku_ai_stop from another thread ends an unlimited think */
    rv_gomoku_limits inf = {0, 60, 0, 0, 0};
    struct stopper st = {ai, 200};
    pthread_t th;
    pthread_create(&th, NULL, stop_later, &st);
    t0 = rv_clock_seconds();
    CHECK(rv_gomoku_ai_think(ai, &g, &inf, &info) == RV_OK);
    took = rv_clock_seconds() - t0;
    pthread_join(th, NULL);
    /* the same measure as the time limit's: stopped after 200 ms, far short of 18 M nodes */
    CHECK_MSG(info.nodes < 5000000, "a think stopped after 200 ms searched %llu nodes",
              (unsigned long long)info.nodes);
    CHECK_MSG(took < 120.0, "stopped think took %.3f s", took);
    CHECK(rv_gomoku_check(&g, info.x, info.y, NULL) == RV_OK);

    /* a stop asked for the next think's number, before it began, stops it (and no
       later one); the move is still legal */
    /* (a node limit only bounds the failure: unstopped, the think would use all of it;
       stopped, it ends at its first poll, after a few hundred nodes) */
    rv_gomoku_limits big = {0, 60, 0, 3000000, 0};
    uint64_t ticket = rv_gomoku_ai_next_think(ai);
    rv_gomoku_ai_stop_think(ai, ticket);
    CHECK(rv_gomoku_ai_think(ai, &g, &big, &info) == RV_OK);
    CHECK_MSG(info.nodes < 20000, "a pre-stopped think searched %llu nodes",
              (unsigned long long)info.nodes);
    CHECK(rv_gomoku_check(&g, info.x, info.y, NULL) == RV_OK);
    rv_gomoku_limits d4 = {0, 4, 0, 0, 0};
    CHECK(rv_gomoku_ai_think(ai, &g, &d4, &info) == RV_OK);
    CHECK_EQ_INT(info.depth, 4);

    /* a node limit is kept approximately */
    rv_gomoku_limits nl = {0, 0, 0, 5000, 0};
    CHECK(rv_gomoku_ai_think(ai, &g, &nl, &info) == RV_OK);
    CHECK_MSG(info.nodes < 5000 + 5000, "nodes %llu", (unsigned long long)info.nodes);

    /* levels 1-9 are held back by their depth; from level 10 the level's time decides, not
       a depth (docs/match.md): with a node limit in place of the time, level 10 goes past the
       10 plies it once stopped at, level 5 stays at 5 */
    setup(&g, RV_RULE_FREESTYLE, "h8 h9 i10");
    rv_gomoku_ai_clear(ai);
    rv_gomoku_limits l10 = {10, 0, 600000, 1000000, 0};
    CHECK(rv_gomoku_ai_think(ai, &g, &l10, &info) == RV_OK);
    CHECK_MSG(info.depth > 10, "level 10 with 1,000,000 nodes: depth %d", info.depth);
    rv_gomoku_ai_clear(ai);
    rv_gomoku_limits l5 = {5, 0, 600000, 1000000, 0};
    CHECK(rv_gomoku_ai_think(ai, &g, &l5, &info) == RV_OK);
    CHECK_MSG(info.depth == 5, "level 5 with 1,000,000 nodes: depth %d", info.depth);

    random_positions(ai);
    rv_gomoku_ai_free(ai);

    /* two engines in one process do not share state */
    rv_gomoku_ai *a = rv_gomoku_ai_new(1 << 16), *b = rv_gomoku_ai_new(1 << 16);
    setup(&g, RV_RULE_FREESTYLE, "h8 g8 i8 a1 j8 a2 k8 a3");
    char m1[8], m2[8];
    think_at(a, &g, 3, m1);
    setup(&g, RV_RULE_RENJU, dbl4);
    think_at(b, &g, 3, m2);
    setup(&g, RV_RULE_FREESTYLE, "h8 g8 i8 a1 j8 a2 k8 a3");
    think_at(a, &g, 3, m2);
    CHECK_EQ_STR(m1, m2);
    rv_gomoku_ai_free(a);
    rv_gomoku_ai_free(b);
    return test_finish();
}
