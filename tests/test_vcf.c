/*
 * VCF solver: hand-checked puzzles. Every winning line the solver prints is
 * re-checked here with the rules module alone (a slow, obviously correct
 * referee): each attacker move is a four, each defender move is that four's
 * only completion, and the line ends in a five — or, under Renju, in a white
 * four whose completions are all forbidden for black.
 */
#include "renversi/gomoku_ai.h"
#include "renversi/gomoku_record.h"
#include "test.h"

/* Does colour c win at once by playing the empty point (x, y)? (A copy is changed.) */
static int wins_at(const rv_gomoku *g, int x, int y, rv_color c) {
    if (rv_gomoku_at(g, x, y) != RV_EMPTY) return 0;
    rv_gomoku t = *g;
    rv_gomoku_set_stone(&t, x, y, c);
    rv_gomoku_result r;
    rv_gomoku_get_result(&t, &r);
    /* black's overline is no five under Renju: set_stone judges by the rule */
    return r.over && r.winner == c;
}

/* The points where colour c would make a five now. */
static int five_points(const rv_gomoku *g, rv_color c, int *xs, int *ys) {
    int n = 0, w = rv_gomoku_width(g), h = rv_gomoku_height(g);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (wins_at(g, x, y, c)) xs[n] = x, ys[n++] = y, (void)0;
    return n;
}

/* Re-checks a winning line with the rules alone; returns 1 when it is a real VCF. */
static int verify_line(const rv_gomoku *start, const rv_gomoku_vcf_result *r) {
    rv_gomoku g = *start;
    rv_color att = rv_gomoku_to_move(&g);
    int xs[RV_GOMOKU_MAX_POINTS], ys[RV_GOMOKU_MAX_POINTS];
    for (int i = 0; i < r->nmoves; i++) {
        int x = r->x[i], y = r->y[i];
        rv_color mover = rv_gomoku_to_move(&g);
        if (mover != (i % 2 == 0 ? att : rv_opponent(att))) return 0;
        if (i % 2 == 1) {
            /* the defender's move must be the only completion of the attacker's four,
               unless the four had two completions (then the next move is a five) */
            int n = five_points(&g, att, xs, ys);
            int is_comp = 0;
            for (int k = 0; k < n; k++) is_comp |= xs[k] == x && ys[k] == y;
            if (!is_comp) return 0;
        }
        if (rv_gomoku_play(&g, x, y) != RV_OK) return 0; /* never forbidden or occupied */
        rv_gomoku_result res;
        rv_gomoku_get_result(&g, &res);
        if (res.over) return i == r->nmoves - 1 && res.winner == att;
        if (i % 2 == 0) {
            /* an attacker move must leave a five threat, and the defender none */
            if (five_points(&g, att, xs, ys) == 0) return 0;
            if (five_points(&g, rv_opponent(att), xs, ys) != 0) return 0;
        }
    }
    /* no five at the end: only a Renju white four whose every completion is forbidden */
    if (att != RV_WHITE || rv_gomoku_get_rule(&g) != RV_RULE_RENJU) return 0;
    int n = five_points(&g, RV_WHITE, xs, ys);
    if (n == 0) return 0;
    for (int k = 0; k < n; k++)
        if (rv_gomoku_check(&g, xs[k], ys[k], NULL) != RV_EFORBIDDEN) return 0;
    return five_points(&g, RV_BLACK, xs, ys) == 0;
}

static void setup(rv_gomoku *g, rv_gomoku_rule rule, const char *moves) {
    rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS];
    int n = 0;
    rv_gomoku_init(g, 15, 15, rule);
    CHECK(rv_gomoku_moves_parse(moves, strlen(moves), 15, pts, RV_GOMOKU_MAX_POINTS, &n, NULL) ==
          RV_OK);
    for (int i = 0; i < n; i++) CHECK(rv_gomoku_play(g, pts[i].x, pts[i].y) == RV_OK);
}

/* first: the expected first move when it is the only one ("" when several win). */
static void puzzle(const char *name, rv_gomoku_rule rule, const char *moves, int win,
                   const char *first) {
    rv_gomoku g;
    setup(&g, rule, moves);
    rv_gomoku_vcf_result *r = malloc(sizeof *r);
    CHECK(rv_gomoku_vcf(&g, 0, 0, r) == RV_OK);
    CHECK_MSG(r->found == win, "%s: found %d, want %d", name, r->found, win);
    if (win && r->found) {
        CHECK_MSG(verify_line(&g, r), "%s: the line is not a VCF", name);
        if (*first) {
            char p[8];
            rv_gomoku_point_format(r->x[0], r->y[0], 15, p, sizeof p);
            CHECK_MSG(strcmp(p, first) == 0, "%s: first move %s, want %s", name, p, first);
        }
    }
    free(r);
}

int main(void) {
    /* black's open three g8-i8... h8 i8 j8: the open four wins */
    puzzle("open three", RV_RULE_FREESTYLE, "h8 a1 i8 a2 j8 a3", 1, "");
    /* a five on the board to make: the line is that one move */
    puzzle("four on board", RV_RULE_FREESTYLE, "h8 a1 i8 a2 j8 a3 k8 a4", 1, "");
    /* black's row e8-g8 (d8 white) and column h9-h11 (h12 white) cross at h8: a double
       four wins in freestyle; under Renju h8 is forbidden and every other black four is
       answered at h8, so there is no VCF */
    const char *dbl4 = "e8 d8 f8 h12 g8 a1 h9 o1 h10 a15 h11 o15";
    puzzle("double four, freestyle", RV_RULE_FREESTYLE, dbl4, 1, "h8");
    puzzle("double four, standard", RV_RULE_STANDARD, dbl4, 1, "h8");
    puzzle("double four forbidden, renju", RV_RULE_RENJU, dbl4, 0, "");
    /* a two-step VCF: e5 (row b5-e5, a5 white) forces f5, then e2 is a double four
       (row b2-e2 with a2 white, column e2-e5 with e1 white); under Renju the same
       start with e6 (open four on column e) instead of the forbidden e2 */
    const char *two = "b2 a2 c2 e1 d2 a5 e3 a15 e4 c15 b5 o15 c5 o13 d5 o11";
    puzzle("two steps, freestyle", RV_RULE_FREESTYLE, two, 1, "e5");
    puzzle("two steps, renju", RV_RULE_RENJU, two, 1, "e5");
    /* e8 f8 g8 . i8 j8: h8 is a six — a win in freestyle, nothing in exactly-five */
    const char *six = "e8 a1 f8 o1 g8 a15 i8 o15 j8 h15";
    puzzle("overline, freestyle", RV_RULE_FREESTYLE, six, 1, "h8");
    puzzle("overline, standard", RV_RULE_STANDARD, six, 0, "");
    puzzle("overline, renju", RV_RULE_RENJU, six, 0, "");
    /* black's open three cannot be used: white's a1-a4 must be blocked first */
    puzzle("defender's four first", RV_RULE_FREESTYLE, "g8 a1 h8 a2 i8 a3 o15 a4", 0, "");
    /* Renju: white d4 makes d4-g7 (c3 black); its only completion h8 is a double three
       for black (g8 i8 / h7 h9), so black cannot stop the five */
    const char *forb = "g8 e5 i8 f6 h7 g7 h9 a15 c3 o15 i9";
    puzzle("white forces a forbidden point, renju", RV_RULE_RENJU, forb, 1, "d4");
    puzzle("same position, freestyle", RV_RULE_FREESTYLE, forb, 0, "");
    {
        rv_gomoku g;
        setup(&g, RV_RULE_RENJU, forb);
        CHECK(rv_gomoku_forbidden(&g, 7, 7) == RV_FORBID_DOUBLE_THREE); /* h8, hand-checked */
    }
    /* Renju, white attacking through an overline point: black b8 c8 d8 . f8 g8 makes e8 a
       six for black; white's four on column e (e4 e5 e6 e7, e3 black) has only e8 */
    puzzle("white forces an overline point, renju", RV_RULE_RENJU,
           "b8 e4 c8 e5 d8 e6 f8 a15 g8 o15 e3", 1, "e7");
    /* the game already over */
    {
        rv_gomoku g;
        setup(&g, RV_RULE_FREESTYLE, "h8 a1 i8 a2 j8 a3 k8 a4 l8");
        rv_gomoku_vcf_result *r = malloc(sizeof *r);
        CHECK(rv_gomoku_vcf(&g, 0, 0, r) == RV_EOVER);
        free(r);
    }
    return test_finish();
}
