/* The NBoard engine's game clock: GGF time controls and the per-move share. */
#include "test.h"

#include "proto/nboard_clock.h"

static void test_parse(void) {
    double m = -1, inc = -1;
    /* GGF writes [[H:]M:]S, optionally /increment/extension (ggf spec example) */
    CHECK(nb_clock_parse("15:00", &m, &inc) == 0);
    CHECK(m == 900 && inc == 0);
    CHECK(nb_clock_parse("30:00/00:05/02:00", &m, &inc) == 0);
    CHECK(m == 1800 && inc == 5);
    CHECK(nb_clock_parse("1:00:00", &m, &inc) == 0);
    CHECK(m == 3600);
    CHECK(nb_clock_parse("90", &m, &inc) == 0);
    CHECK(m == 90);
    CHECK(nb_clock_parse("0:01.5//", &m, &inc) == 0);
    CHECK(m == 1.5 && inc == 0);
    m = inc = 7;
    const char *bad[] = {"", "abc", "1:2:3:4", "5/6/7/8", "/5", "15:", ":15", "1.", "1e3", "-5",
                         "15:00 ", "9999999:00"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_MSG(nb_clock_parse(bad[i], &m, &inc) == -1, "'%s' was read as a clock", bad[i]);
    CHECK(m == 7 && inc == 7); /* a failed parse leaves the outputs alone */
}

static void test_budget(void) {
    rv_reversi_game g;
    rv_reversi_game_init(&g, NULL);
    double used[RV_REVERSI_MAX_PLIES] = {0};
    nb_clock c = {1, {0, 60, 60}, {0, 0, 0}};
    /* 60 s for black on the start position: a share, far below all of it */
    int64_t b0 = nb_clock_budget(&c, &g, used);
    CHECK_MSG(b0 > 100 && b0 < 60000 / 10, "budget %lld ms", (long long)b0);
    /* after f5 (black, 50 s) d6 (white, 1 s) black has 10 s left: less to spend */
    CHECK(rv_reversi_game_play(&g, 4 * 8 + 5) == RV_OK);
    CHECK(rv_reversi_game_play(&g, 5 * 8 + 3) == RV_OK);
    used[0] = 50, used[1] = 1;
    int64_t b1 = nb_clock_budget(&c, &g, used);
    CHECK_MSG(b1 < b0 && b1 < 10000, "budget %lld after 50 s used (was %lld)", (long long)b1,
              (long long)b0);
    /* white's time does not count for black */
    used[1] = 59;
    CHECK_EQ_INT(nb_clock_budget(&c, &g, used), b1);
    /* an increment is given back per own move */
    c.inc_s[RV_BLACK] = 10;
    CHECK(nb_clock_budget(&c, &g, used) > b1);
    c.inc_s[RV_BLACK] = 0;
    /* overdrawn: the floor, never zero or negative */
    used[0] = 100;
    CHECK_EQ_INT(nb_clock_budget(&c, &g, used), 10);
}

int main(void) {
    test_parse();
    test_budget();
    return test_finish();
}
