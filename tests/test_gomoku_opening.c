/*
 * The opening rules (include/renversi/opening.h) against the rules' text:
 * swap2 (three stones black-white-black; the other player takes black, takes white, or
 * places two more and lets the opener choose) and Soosõrv-8 (RIF: one of the 26 openings,
 * swap, declaration of 1..8 fifth moves and the 4th move, swap, non-symmetrical offers,
 * white's pick as move 5). Every refused act must leave the opening and the board unchanged.
 * Points are (x, y) from the top-left: h8 is (7, 7) on 15x15.
 */
#include "renversi/opening.h"
#include "test.h"

static rv_opening_act place(int n, const int *xy) {
    rv_opening_act a;
    memset(&a, 0, sizeof a);
    a.step = RV_STEP_PLACE;
    a.n = n;
    for (int i = 0; i < n; i++) a.pts[i] = (rv_gomoku_point){xy[2 * i], xy[2 * i + 1]};
    return a;
}

static rv_opening_act choose(rv_opening_choice c) {
    rv_opening_act a;
    memset(&a, 0, sizeof a);
    a.step = RV_STEP_CHOOSE;
    a.choice = c;
    return a;
}

static rv_opening_act points(rv_opening_step step, int n, const int *xy) {
    rv_opening_act a = place(n, xy);
    a.step = step;
    return a;
}

/* A refused act changes neither the opening nor the board. */
static void refused(rv_opening *o, rv_gomoku *g, const rv_opening_act *a, rv_status want) {
    rv_opening o0 = *o;
    rv_gomoku g0 = *g;
    int swapped = 7;
    rv_status s = rv_opening_apply(o, g, a, &swapped);
    CHECK_MSG(s == want, "status %d, wanted %d", (int)s, (int)want);
    CHECK(memcmp(&o0, o, sizeof o0) == 0);
    CHECK(memcmp(&g0, g, sizeof g0) == 0);
    CHECK_EQ_INT(swapped, 7);
}

static void ok(rv_opening *o, rv_gomoku *g, const rv_opening_act *a, int want_swap) {
    int swapped = -1;
    rv_status s = rv_opening_apply(o, g, a, &swapped);
    CHECK_MSG(s == RV_OK, "status %d", (int)s);
    CHECK_EQ_INT(swapped, want_swap);
}

static void test_names(void) {
    rv_opening_rule r;
    CHECK(rv_opening_rule_parse("swap2", &r) == RV_OK && r == RV_OPENING_SWAP2);
    CHECK(rv_opening_rule_parse("soosorv8", &r) == RV_OK && r == RV_OPENING_SOOSORV8);
    CHECK(rv_opening_rule_parse("soosorv-8", &r) == RV_OK && r == RV_OPENING_SOOSORV8);
    CHECK(rv_opening_rule_parse("free", &r) == RV_OK && r == RV_OPENING_FREE);
    CHECK(rv_opening_rule_parse("swap", &r) == RV_EINVAL);
    CHECK(rv_opening_rule_parse("", &r) == RV_EINVAL);
    CHECK_EQ_STR(rv_opening_rule_name(RV_OPENING_SOOSORV8), "soosorv8");
    CHECK_EQ_STR(rv_opening_step_name(RV_STEP_OFFER), "offer");
}

static void test_init(void) {
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, RV_RULE_RENJU);
    CHECK(rv_opening_init(&o, RV_OPENING_SWAP2, &g) == RV_OK);
    CHECK(rv_opening_init(&o, RV_OPENING_SOOSORV8, &g) == RV_OK);
    CHECK(rv_opening_init(&o, RV_OPENING_FREE, &g) == RV_OK);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLAY);
    rv_gomoku_init(&g, 13, 13, RV_RULE_RENJU);
    CHECK(rv_opening_init(&o, RV_OPENING_SOOSORV8, &g) == RV_EINVAL); /* Renju is 15x15 */
    rv_gomoku_init(&g, 15, 15, RV_RULE_FREESTYLE);
    CHECK(rv_opening_init(&o, RV_OPENING_SOOSORV8, &g) == RV_EINVAL);
    CHECK(rv_opening_init(&o, RV_OPENING_SWAP2, &g) == RV_OK);
    rv_gomoku_init(&g, 15, 15, RV_RULE_STANDARD);
    CHECK(rv_opening_init(&o, RV_OPENING_SWAP2, &g) == RV_OK);
    rv_gomoku_play(&g, 7, 7);
    CHECK(rv_opening_init(&o, RV_OPENING_SWAP2, &g) == RV_EINVAL); /* only before move 1 */
}

/* swap2: three stones by the opener; the other player takes white and plays the 4th. */
static void test_swap2_take_white(void) {
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, RV_RULE_FREESTYLE);
    rv_opening_init(&o, RV_OPENING_SWAP2, &g);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLACE);
    CHECK(rv_opening_actor(&o, &g) == RV_BLACK);
    const int xy[] = {7, 7, 8, 6, 0, 0};
    rv_opening_act a = place(3, xy);
    ok(&o, &g, &a, 0);
    /* black, white, black, anywhere on the board (a15 is a corner) */
    CHECK(rv_gomoku_at(&g, 7, 7) == RV_BLACK && rv_gomoku_at(&g, 8, 6) == RV_WHITE &&
          rv_gomoku_at(&g, 0, 0) == RV_BLACK);
    CHECK(rv_opening_get_step(&o) == RV_STEP_CHOOSE);
    CHECK(rv_opening_actor(&o, &g) == RV_WHITE);
    CHECK_EQ_INT(rv_opening_choices(&o),
                 (1u << RV_CHOICE_BLACK) | (1u << RV_CHOICE_WHITE) | (1u << RV_CHOICE_PLUS2));
    CHECK_EQ_INT(rv_opening_locked_moves(&o), 0);
    rv_opening_act d = points(RV_STEP_DECLARE, 0, NULL);
    d.declared = 3;
    refused(&o, &g, &d, RV_EINVAL); /* no declaration in swap2 */
    const int more[] = {1, 1};
    a = place(1, more);
    refused(&o, &g, &a, RV_EINVAL); /* a stone while a choice is due */
    rv_opening_act c = choose(RV_CHOICE_WHITE);
    ok(&o, &g, &c, 0);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLAY);
    CHECK_EQ_INT(rv_opening_locked_moves(&o), 3);
    CHECK(rv_opening_actor(&o, &g) == RV_WHITE); /* white plays the 4th move */
    refused(&o, &g, &c, RV_EINVAL);             /* the opening is over */
}

/* swap2: the other player takes black: the players exchange colours. */
static void test_swap2_take_black(void) {
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, RV_RULE_STANDARD);
    rv_opening_init(&o, RV_OPENING_SWAP2, &g);
    const int xy[] = {7, 7, 7, 6, 9, 7};
    for (int i = 0; i < 3; i++) {
        rv_opening_act a = place(1, xy + 2 * i);
        ok(&o, &g, &a, 0);
        CHECK(rv_opening_actor(&o, &g) == (i < 2 ? RV_BLACK : RV_WHITE));
    }
    rv_opening_act c = choose(RV_CHOICE_BLACK);
    ok(&o, &g, &c, 1);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLAY);
    CHECK(rv_gomoku_to_move(&g) == RV_WHITE); /* the opener, now white, plays the 4th */
}

/* swap2: two more stones (white, black), then the opener chooses; PLUS2 only once. */
static void test_swap2_plus2(void) {
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, RV_RULE_FREESTYLE);
    rv_opening_init(&o, RV_OPENING_SWAP2, &g);
    const int xy[] = {7, 7, 8, 6, 6, 5};
    rv_opening_act a = place(3, xy);
    ok(&o, &g, &a, 0);
    rv_opening_act c = choose(RV_CHOICE_PLUS2);
    ok(&o, &g, &c, 0);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLACE);
    CHECK(rv_opening_actor(&o, &g) == RV_WHITE); /* the chooser places both */
    const int bad3[] = {1, 1, 2, 2, 3, 3};
    a = place(3, bad3);
    refused(&o, &g, &a, RV_EINVAL); /* only two stones */
    const int occ[] = {7, 7};
    a = place(1, occ);
    refused(&o, &g, &a, RV_EOCCUPIED);
    const int off[] = {15, 3};
    a = place(1, off);
    refused(&o, &g, &a, RV_ERANGE);
    const int two[] = {9, 9, 10, 10};
    a = place(2, two);
    ok(&o, &g, &a, 0);
    CHECK(rv_gomoku_at(&g, 9, 9) == RV_WHITE && rv_gomoku_at(&g, 10, 10) == RV_BLACK);
    CHECK(rv_opening_get_step(&o) == RV_STEP_CHOOSE);
    CHECK(rv_opening_actor(&o, &g) == RV_BLACK); /* the opener chooses now */
    CHECK_EQ_INT(rv_opening_choices(&o), (1u << RV_CHOICE_BLACK) | (1u << RV_CHOICE_WHITE));
    c = choose(RV_CHOICE_PLUS2);
    refused(&o, &g, &c, RV_EINVAL);
    c = choose((rv_opening_choice)9);
    refused(&o, &g, &c, RV_EINVAL);
    c = choose(RV_CHOICE_WHITE);
    ok(&o, &g, &c, 1); /* the opener takes white: colours exchange */
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLAY);
    CHECK_EQ_INT(rv_opening_locked_moves(&o), 5);
    CHECK(rv_gomoku_to_move(&g) == RV_WHITE);
}

/* Soosõrv-8 from the rule's text, with every refusal along the way. */
static void test_soosorv(void) {
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, RV_RULE_RENJU);
    rv_opening_init(&o, RV_OPENING_SOOSORV8, &g);
    rv_opening_act a;
    /* The 26 openings: h8, then a point of the central 3x3, then of the central 5x5. */
    const int g7[] = {6, 8}, h8[] = {7, 7}, j8[] = {9, 7}, i9[] = {8, 6}, k7[] = {10, 8},
              j6[] = {9, 9};
    a = place(1, g7);
    refused(&o, &g, &a, RV_EILLEGAL);
    a = place(1, h8);
    ok(&o, &g, &a, 0);
    a = place(1, j8); /* two points from the centre: not in the 3x3 */
    refused(&o, &g, &a, RV_EILLEGAL);
    a = place(1, i9);
    ok(&o, &g, &a, 0);
    a = place(1, k7); /* three points out: not in the 5x5 */
    refused(&o, &g, &a, RV_EILLEGAL);
    a = place(1, j6);
    ok(&o, &g, &a, 0);
    /* The other player may swap. */
    CHECK(rv_opening_get_step(&o) == RV_STEP_CHOOSE && rv_opening_actor(&o, &g) == RV_WHITE);
    rv_opening_act c = choose(RV_CHOICE_PLUS2);
    refused(&o, &g, &c, RV_EINVAL);
    c = choose(RV_CHOICE_BLACK);
    ok(&o, &g, &c, 1);
    /* White declares 1..8 fifth moves, then plays the 4th anywhere. */
    CHECK(rv_opening_get_step(&o) == RV_STEP_DECLARE && rv_opening_actor(&o, &g) == RV_WHITE);
    rv_opening_act d = points(RV_STEP_DECLARE, 0, NULL);
    d.declared = 0;
    refused(&o, &g, &d, RV_ERANGE);
    d.declared = 9;
    refused(&o, &g, &d, RV_ERANGE);
    d.declared = 2;
    ok(&o, &g, &d, 0);
    CHECK_EQ_INT(rv_opening_declared(&o), 2);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLACE && rv_opening_actor(&o, &g) == RV_WHITE);
    const int a15[] = {0, 0};
    a = place(1, a15);
    ok(&o, &g, &a, 0);
    /* The other player may swap again: black's holder chooses. */
    CHECK(rv_opening_get_step(&o) == RV_STEP_CHOOSE && rv_opening_actor(&o, &g) == RV_BLACK);
    c = choose(RV_CHOICE_BLACK);
    ok(&o, &g, &c, 0);
    /* Black offers exactly the declared number of fifth moves. */
    CHECK(rv_opening_get_step(&o) == RV_STEP_OFFER && rv_opening_actor(&o, &g) == RV_BLACK);
    const int one[] = {6, 6}, three[] = {6, 6, 5, 5, 4, 4}, twice[] = {6, 6, 6, 6},
              taken[] = {6, 6, 7, 7}, offboard[] = {6, 6, 15, 0}, good[] = {6, 6, 10, 10};
    rv_opening_act f = points(RV_STEP_OFFER, 1, one);
    refused(&o, &g, &f, RV_EINVAL);
    f = points(RV_STEP_OFFER, 3, three);
    refused(&o, &g, &f, RV_EINVAL);
    f = points(RV_STEP_OFFER, 2, twice);
    refused(&o, &g, &f, RV_EOCCUPIED);
    f = points(RV_STEP_OFFER, 2, taken);
    refused(&o, &g, &f, RV_EOCCUPIED);
    f = points(RV_STEP_OFFER, 2, offboard);
    refused(&o, &g, &f, RV_ERANGE);
    f = points(RV_STEP_OFFER, 2, good);
    ok(&o, &g, &f, 0);
    rv_gomoku_point got[RV_OPENING_MAX_OFFERS];
    CHECK_EQ_INT(rv_opening_offers(&o, got), 2);
    CHECK(got[1].x == 10 && got[1].y == 10);
    CHECK_EQ_INT(rv_gomoku_move_count(&g), 4); /* offers are not moves */
    /* White picks one offer: it is move 5 (black), and white plays the 6th. */
    CHECK(rv_opening_get_step(&o) == RV_STEP_SELECT && rv_opening_actor(&o, &g) == RV_WHITE);
    const int other[] = {5, 5};
    rv_opening_act s = points(RV_STEP_SELECT, 1, other);
    refused(&o, &g, &s, RV_EILLEGAL);
    s = points(RV_STEP_SELECT, 1, good + 2);
    ok(&o, &g, &s, 0);
    CHECK(rv_gomoku_at(&g, 10, 10) == RV_BLACK);
    CHECK(rv_gomoku_at(&g, 6, 6) == RV_EMPTY);
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLAY);
    CHECK_EQ_INT(rv_opening_locked_moves(&o), 5);
    CHECK(rv_opening_actor(&o, &g) == RV_WHITE);
}

/* "The fifth moves can not be symmetrical": offers one symmetry of the position maps onto
   each other are refused, both for a mirror line and for a diagonal. */
static void test_soosorv_symmetry(void) {
    rv_gomoku g;
    rv_opening o;
    rv_opening_act a, c, d, f;
    /* h8, h9, h10 (direct opening), 4th at h15: the column h is a mirror line. */
    rv_gomoku_init(&g, 15, 15, RV_RULE_RENJU);
    rv_opening_init(&o, RV_OPENING_SOOSORV8, &g);
    const int col[] = {7, 7, 7, 6, 7, 5};
    a = place(3, col);
    ok(&o, &g, &a, 0);
    c = choose(RV_CHOICE_WHITE);
    ok(&o, &g, &c, 0);
    d = points(RV_STEP_DECLARE, 0, NULL);
    d.declared = 2;
    ok(&o, &g, &d, 0);
    const int h15[] = {7, 0};
    a = place(1, h15);
    ok(&o, &g, &a, 0);
    c = choose(RV_CHOICE_BLACK);
    ok(&o, &g, &c, 0);
    const int mirror[] = {6, 7, 8, 7}, diag[] = {6, 8, 8, 6};
    f = points(RV_STEP_OFFER, 2, mirror); /* g8 and i8 */
    refused(&o, &g, &f, RV_EILLEGAL);
    f = points(RV_STEP_OFFER, 2, diag); /* g7 and i9: not mirror images across column h */
    ok(&o, &g, &f, 0);

    /* h8, i9, j10 (indirect), 4th at k11: the anti-diagonal through them is a mirror line. */
    rv_gomoku_init(&g, 15, 15, RV_RULE_RENJU);
    rv_opening_init(&o, RV_OPENING_SOOSORV8, &g);
    const int dia[] = {7, 7, 8, 6, 9, 5};
    a = place(3, dia);
    ok(&o, &g, &a, 0);
    c = choose(RV_CHOICE_WHITE);
    ok(&o, &g, &c, 0);
    d.declared = 3;
    ok(&o, &g, &d, 0);
    const int k11[] = {10, 4};
    a = place(1, k11);
    ok(&o, &g, &a, 0);
    c = choose(RV_CHOICE_BLACK);
    ok(&o, &g, &c, 0);
    const int sym3[] = {3, 3, 8, 7, 7, 6}; /* i8 and h9 mirror each other */
    f = points(RV_STEP_OFFER, 3, sym3);
    refused(&o, &g, &f, RV_EILLEGAL);
    const int asym3[] = {3, 3, 8, 7, 6, 7}; /* i8 and g8 do not */
    f = points(RV_STEP_OFFER, 3, asym3);
    ok(&o, &g, &f, 0);
}

/* The engine plays whole openings against itself; each act it decides must be accepted. */
static void engine_opening(rv_gomoku_ai *ai, rv_opening_rule rule, rv_gomoku_rule grule) {
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, grule);
    CHECK(rv_opening_init(&o, rule, &g) == RV_OK);
    rv_gomoku_limits lim = {0, 2, 0, 3000, 0};
    int acts = 0;
    while (rv_opening_get_step(&o) != RV_STEP_PLAY && acts < 20) {
        rv_opening_act a;
        rv_status s = rv_opening_decide(&o, &g, ai, &lim, &a);
        CHECK_MSG(s == RV_OK, "decide: %d at step %s", (int)s, rv_opening_step_name(o.step));
        if (s != RV_OK) return;
        CHECK(a.step == rv_opening_get_step(&o));
        if (a.step == RV_STEP_OFFER) {
            CHECK_EQ_INT(a.n, rv_opening_declared(&o));
            CHECK(a.n >= 1 && a.n <= 8);
        }
        s = rv_opening_apply(&o, &g, &a, NULL);
        CHECK_MSG(s == RV_OK, "apply: %d at step %s", (int)s, rv_opening_step_name(a.step));
        if (s != RV_OK) return;
        acts++;
    }
    CHECK(rv_opening_get_step(&o) == RV_STEP_PLAY);
    int n = rv_gomoku_move_count(&g);
    CHECK_MSG(rule == RV_OPENING_SWAP2 ? (n == 3 || n == 5) : n == 5, "%d moves", n);
    CHECK_EQ_INT(rv_opening_locked_moves(&o), n);
    rv_opening_act a;
    CHECK(rv_opening_decide(&o, &g, ai, &lim, &a) == RV_EINVAL); /* nothing to decide */
}

static void test_engine(void) {
    rv_gomoku_ai *ai = rv_gomoku_ai_new(1 << 20);
    CHECK(ai != NULL);
    if (!ai) return;
    engine_opening(ai, RV_OPENING_SWAP2, RV_RULE_FREESTYLE);
    engine_opening(ai, RV_OPENING_SWAP2, RV_RULE_STANDARD);
    engine_opening(ai, RV_OPENING_SOOSORV8, RV_RULE_RENJU);
    /* The engine joins an opening half made by someone else: it chooses after PLUS2. */
    rv_gomoku g;
    rv_opening o;
    rv_gomoku_init(&g, 15, 15, RV_RULE_FREESTYLE);
    rv_opening_init(&o, RV_OPENING_SWAP2, &g);
    const int xy[] = {7, 7, 8, 8, 3, 3};
    rv_opening_act a = place(3, xy), got;
    ok(&o, &g, &a, 0);
    rv_opening_act c = choose(RV_CHOICE_PLUS2);
    ok(&o, &g, &c, 0);
    rv_gomoku_limits lim = {0, 2, 0, 3000, 0};
    CHECK(rv_opening_decide(&o, &g, ai, &lim, &got) == RV_OK);
    CHECK(got.step == RV_STEP_PLACE && got.n == 2);
    CHECK(rv_opening_apply(&o, &g, &got, NULL) == RV_OK);
    CHECK(rv_opening_decide(&o, &g, ai, &lim, &got) == RV_OK);
    CHECK(got.step == RV_STEP_CHOOSE &&
          (got.choice == RV_CHOICE_BLACK || got.choice == RV_CHOICE_WHITE));
    rv_gomoku_ai_free(ai);
}

int main(void) {
    test_names();
    test_init();
    test_swap2_take_white();
    test_swap2_take_black();
    test_swap2_plus2();
    test_soosorv();
    test_soosorv_symmetry();
    test_engine();
    return test_finish();
}
