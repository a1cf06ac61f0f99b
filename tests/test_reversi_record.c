/*
 * Reversi records: squares, transcripts, OBF and GGF, read and written, with
 * round trips, hand-checked values and the errors on bad input.
 */
#include "test.h"

#include "renversi/reversi_record.h"
#include "reversi_ref.h"

#define S(str) str, strlen(str)

static void test_squares(void) {
    int sq = -1;
    char b[3];
    CHECK(rv_reversi_square_parse(S("a1"), &sq) == RV_OK && sq == 0);
    CHECK(rv_reversi_square_parse(S("H1"), &sq) == RV_OK && sq == 7);
    CHECK(rv_reversi_square_parse(S("a8"), &sq) == RV_OK && sq == 56);
    CHECK(rv_reversi_square_parse(S("h8"), &sq) == RV_OK && sq == 63);
    CHECK(rv_reversi_square_parse(S("f5"), &sq) == RV_OK && sq == 4 * 8 + 5);
    CHECK(rv_reversi_square_parse(S("PA"), &sq) == RV_OK && sq == RV_REVERSI_PASS);
    CHECK(rv_reversi_square_parse(S("pA"), &sq) == RV_OK && sq == RV_REVERSI_PASS);
    sq = 99;
    CHECK(rv_reversi_square_parse(S("i1"), &sq) == RV_EINVAL);
    CHECK(rv_reversi_square_parse(S("a9"), &sq) == RV_EINVAL);
    CHECK(rv_reversi_square_parse(S("a0"), &sq) == RV_EINVAL);
    CHECK(rv_reversi_square_parse(S("a"), &sq) == RV_EINVAL);
    CHECK(rv_reversi_square_parse("a1", 1, &sq) == RV_EINVAL);
    CHECK(rv_reversi_square_parse(S("pb"), &sq) == RV_EINVAL);
    CHECK_EQ_INT(sq, 99);
    CHECK_EQ_STR(rv_reversi_square_format(0, 0, b), "a1");
    CHECK_EQ_STR(rv_reversi_square_format(63, 1, b), "H8");
    CHECK_EQ_STR(rv_reversi_square_format(12, 0, b), "e2");
    CHECK_EQ_STR(rv_reversi_square_format(RV_REVERSI_PASS, 0, b), "pa");
    CHECK_EQ_STR(rv_reversi_square_format(-3, 0, b), "??");
    for (int i = 0; i <= 64; i++) {
        int back = -1;
        rv_reversi_square_parse(rv_reversi_square_format(i, i & 1, b), 2, &back);
        CHECK_EQ_INT(back, i);
    }
}

static void test_transcripts(void) {
    uint8_t m[128];
    int n = 0;
    rv_reversi_error err;
    CHECK(rv_reversi_transcript_parse(S("f5d6C3 d3,c4-F4"), m, 128, &n, &err) == RV_OK);
    CHECK_EQ_INT(n, 6);
    CHECK_EQ_INT(m[0], 37);
    CHECK_EQ_INT(m[2], 2 * 8 + 2);
    CHECK_EQ_INT(m[5], 3 * 8 + 5);
    CHECK(rv_reversi_transcript_parse(S(""), m, 128, &n, &err) == RV_OK && n == 0);
    n = 7;
    CHECK(rv_reversi_transcript_parse(S("f5d6x3"), m, 128, &n, &err) == RV_EINVAL);
    CHECK_EQ_INT(n, 7);
    CHECK_EQ_INT(err.offset, 4);
    CHECK(strstr(err.message, "offset 4") != NULL);
    CHECK(strstr(err.message, "x3") != NULL);
    /* The same failure in the library-wide form (common.h). */
    CHECK_EQ_INT(err.parse.offset, 4);
    CHECK_EQ_STR(err.parse.token, "x3");
    CHECK_EQ_STR(err.parse.expected, "a square a1..h8 or pa");
    CHECK(rv_reversi_transcript_parse(S("f5d"), m, 128, &n, &err) == RV_EINVAL);
    CHECK_EQ_INT(err.offset, 2);
    CHECK(rv_reversi_transcript_parse(S("f5d6c3"), m, 2, &n, &err) == RV_ETOOLONG);
    CHECK(rv_reversi_transcript_parse(S("a1\nb2\nzz"), m, 128, &n, &err) == RV_EINVAL);
    CHECK_EQ_INT(err.line, 3);

    /* The shortest game (9 moves, a 13-0 wipe-out, a published fact): */
    rv_reversi_game g;
    rv_reversi_game_init(&g, NULL);
    CHECK(rv_reversi_transcript_parse(S("d3c3b3d2e1d6d7e3f4"), m, 128, &n, &err) == RV_OK);
    int failed = -1;
    CHECK(rv_reversi_transcript_replay(&g, m, n, &failed) == RV_OK);
    const rv_reversi_pos *p = rv_reversi_game_position(&g);
    CHECK(rv_reversi_is_over(p));
    CHECK_EQ_INT(rv_reversi_count(p, RV_BLACK), 13);
    CHECK_EQ_INT(rv_reversi_count(p, RV_WHITE), 0);
    CHECK(rv_reversi_winner(p) == RV_BLACK);
    /* One more move is after the end. */
    CHECK(rv_reversi_transcript_parse(S("d3c3b3d2e1d6d7e3f4a1"), m, 128, &n, &err) == RV_OK);
    rv_reversi_game_init(&g, NULL);
    CHECK(rv_reversi_transcript_replay(&g, m, n, &failed) == RV_EOVER);
    CHECK_EQ_INT(failed, 9);
    CHECK_EQ_INT(g.nplies, 9);

    /* Round trip of random whole games; passes left out come back implied. */
    rv_rng r;
    rv_rng_seed(&r, 3);
    long bad = 0;
    char text[400];
    for (int i = 0; i < 300; i++) {
        rv_reversi_game_init(&g, NULL);
        for (;;) {
            const rv_reversi_pos *q = rv_reversi_game_position(&g);
            if (rv_reversi_is_over(q)) break;
            uint64_t mv = rv_reversi_moves(q);
            int sq = RV_REVERSI_PASS;
            if (mv) {
                int k = (int)rv_rng_below(&r, (uint64_t)rv_bb_count(mv));
                while (k--) mv &= mv - 1;
                sq = rv_bb_first(mv);
            }
            rv_reversi_game_play(&g, sq);
        }
        for (int wp = 0; wp <= 1; wp++) {
            size_t len = rv_reversi_transcript_format(g.moves, g.nplies, wp, text, sizeof text);
            if (len >= sizeof text) bad++;
            rv_reversi_game h;
            rv_reversi_game_init(&h, NULL);
            if (rv_reversi_transcript_parse(text, len, m, 128, &n, &err) != RV_OK ||
                rv_reversi_transcript_replay(&h, m, n, &failed) != RV_OK || h.nplies != g.nplies ||
                memcmp(h.moves, g.moves, (size_t)g.nplies) != 0)
                bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    /* Truncating output still terminates the string and reports the size. */
    uint8_t two[2] = {37, 43};
    CHECK_EQ_INT(rv_reversi_transcript_format(two, 2, 0, text, 3), 4);
    CHECK_EQ_STR(text, "f5");
}

static const char *ffo40 =
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";

static void test_obf(void) {
    rv_reversi_obf o;
    rv_reversi_error err;
    CHECK(rv_reversi_obf_parse(S(ffo40), 1, &o, &err) == RV_OK);
    CHECK(o.pos.side == RV_BLACK);
    CHECK(rv_reversi_at(&o.pos, 0) == RV_WHITE);
    CHECK(rv_reversi_at(&o.pos, 1) == RV_EMPTY);
    CHECK(rv_reversi_at(&o.pos, 7) == RV_BLACK);
    CHECK_EQ_INT(rv_reversi_count(&o.pos, RV_EMPTY), 20); /* FFO #40 has 20 empties */
    CHECK_EQ_INT(o.nscores, 2);
    CHECK_EQ_INT(o.moves[0], 8); /* a2 */
    CHECK_EQ_INT(o.scores[0], 38);
    CHECK_EQ_INT(o.moves[1], 6 * 8 + 2); /* c7 */
    char buf[800];
    size_t len = rv_reversi_obf_format(&o, buf, sizeof buf);
    CHECK_EQ_STR(buf, "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; "
                      "C7:+36;");
    CHECK_EQ_INT(len, strlen(buf));
    /* Without moves, and '*' for black, lower case. */
    CHECK(rv_reversi_obf_parse(S("---------------------------ox------xo--------------------------- o"),
                               1, &o, &err) == RV_OK);
    CHECK(o.pos.side == RV_WHITE);
    CHECK_EQ_INT(o.nscores, 0);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    CHECK(o.pos.player == start.opponent && o.pos.opponent == start.player);

    /* Every FFO line of the data files reads and writes back identically
     * (modulo the spacing the files use). */
    const char *files[] = {"fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf",
                           "fforum-60-79.obf"};
    int lines = 0;
    long bad = 0;
    for (int f = 0; f < 4; f++) {
        FILE *fp = fopen(test_data_path(files[f]), "r");
        CHECK_MSG(fp != NULL, "%s", test_data_path(files[f]));
        if (!fp) continue;
        char line[1024];
        while (fgets(line, sizeof line, fp)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (line[0] == '\0' || line[0] == '#' || line[0] == '%') continue;
            lines++;
            if (rv_reversi_obf_parse(S(line), 1, &o, &err) != RV_OK) {
                fprintf(stderr, "%s: %s\n", line, err.message);
                bad++;
                continue;
            }
            rv_reversi_obf_format(&o, buf, sizeof buf);
            rv_reversi_obf o2;
            if (rv_reversi_obf_parse(S(buf), 1, &o2, &err) != RV_OK ||
                memcmp(&o2.pos, &o.pos, sizeof o.pos) != 0 || o2.nscores != o.nscores ||
                memcmp(o2.moves, o.moves, (size_t)o.nscores) != 0 ||
                memcmp(o2.scores, o.scores, (size_t)o.nscores) != 0)
                bad++;
            /* The first move listed is a legal move with the best score. */
            if (o.nscores > 0 && !(rv_reversi_moves(&o.pos) >> o.moves[0] & 1)) bad++;
        }
        fclose(fp);
    }
    CHECK_EQ_INT(lines, 79);
    CHECK_EQ_INT(bad, 0);

    /* Errors: place and problem. */
    struct {
        const char *text, *want;
        long offset;
    } cases[] = {
        {"", "empty line", 0},
        {"O--OOOOX", "board has only 8 of 64 squares", 8},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOZX----O--X-------- X;", "bad board character 'Z'", 46},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- Y;", "bad side to move 'Y'", 65},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", "missing side", 64},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2+38;", "expected ':'", 70},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+99;", "bad score", 71},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; Z2:+9;", "bad move 'Z2'", 68},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+9", "expected ';'", 73},
        {"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X: A2", "unexpected ':'", 66},
        {"---------------------------------------------------------------- X;", "centre square d4 is empty", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        o.nscores = 77;
        memset(&err, 0, sizeof err);
        rv_status st = rv_reversi_obf_parse(S(cases[i].text), 1, &o, &err);
        CHECK_MSG(st == RV_EINVAL, "case %zu", i);
        CHECK_MSG(strstr(err.message, cases[i].want) != NULL, "case %zu: '%s'", i, err.message);
        CHECK_MSG(err.offset == cases[i].offset, "case %zu: offset %ld", i, err.offset);
        CHECK_MSG(err.parse.offset == (size_t)err.offset && err.parse.expected != NULL &&
                      err.parse.expected[0] != '\0',
                  "case %zu: parse form", i);
        CHECK_EQ_INT(o.nscores, 77);
    }
    /* with_moves = 0 ignores the tail, whatever it is. */
    CHECK(rv_reversi_obf_parse(S("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; junk"),
                               0, &o, &err) == RV_OK);
}

static const char *ggf_sample =
    "(;GM[Othello]PC[NBoard]DT[2026-11-21 06:00:00 GMT]PB[alice]PW[bob]RE[?]TI[15:00//02:00]\n"
    "TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\n"
    "B[F5]W[F6/-1.00/0.5]B[e6//2]W[f4/0.50]KW[ignored tag];)";

static void test_ggf(void) {
    rv_reversi_ggf g;
    rv_reversi_error err;
    size_t used = 0;
    CHECK(rv_reversi_ggf_parse(S(ggf_sample), &g, &used, &err) == RV_OK);
    CHECK_EQ_INT(used, strlen(ggf_sample));
    CHECK_EQ_STR(g.pb, "alice");
    CHECK_EQ_STR(g.pw, "bob");
    CHECK_EQ_STR(g.pc, "NBoard");
    CHECK_EQ_STR(g.ti, "15:00//02:00");
    CHECK_EQ_INT(g.nmoves, 4);
    CHECK_EQ_INT(g.moves[0].sq, 37);
    CHECK(!g.moves[0].has_eval && !g.moves[0].has_time);
    CHECK(g.moves[1].has_eval && g.moves[1].eval == -1.0);
    CHECK(g.moves[1].has_time && g.moves[1].seconds == 0.5);
    CHECK(!g.moves[2].has_eval && g.moves[2].has_time && g.moves[2].seconds == 2);
    CHECK(g.moves[3].has_eval && g.moves[3].eval == 0.5 && !g.moves[3].has_time);
    rv_reversi_pos start;
    rv_reversi_init(&start);
    CHECK(memcmp(&g.start, &start, sizeof start) == 0);
    rv_reversi_game game;
    CHECK(rv_reversi_ggf_game(&g, &game) == RV_OK);
    CHECK_EQ_INT(game.nplies, 4);

    char buf[4096];
    size_t len = rv_reversi_ggf_format(&g, buf, sizeof buf);
    CHECK_EQ_INT(len, strlen(buf));
    CHECK_EQ_STR(buf,
                 "(;GM[Othello]PC[NBoard]DT[2026-11-21 06:00:00 GMT]PB[alice]PW[bob]RE[?]"
                 "TI[15:00//02:00]TY[8]BO[8 ---------------------------O*------*O-----------"
                 "---------------- *]B[F5]W[F6/-1.00/0.5]B[E6//2]W[F4/0.50];)");
    /* Empty evaluation and time fields are "not given", whichever are empty (issue #10:
     * B[f5//] was refused while B[f5/] was read). */
    static const char *const empty_fields[] = {"B[f5/]", "B[f5//]", "B[f5/1.5/]", "B[f5//2]"};
    for (size_t k = 0; k < 4; k++) {
        char t[64];
        rv_reversi_ggf e;
        snprintf(t, sizeof t, "(;GM[Othello]%s;)", empty_fields[k]);
        CHECK_MSG(rv_reversi_ggf_parse(t, strlen(t), &e, NULL, &err) == RV_OK, "%s: %s", t, err.message);
        CHECK(e.nmoves == 1 && e.moves[0].sq == 37);
        CHECK_EQ_INT(e.moves[0].has_eval, k == 2);
        CHECK_EQ_INT(e.moves[0].has_time, k == 3);
    }
    rv_reversi_ggf g2;
    CHECK(rv_reversi_ggf_parse(buf, len, &g2, NULL, &err) == RV_OK);
    CHECK(memcmp(&g2, &g, sizeof g) == 0 || (g2.nmoves == g.nmoves && strcmp(g2.pb, g.pb) == 0));
    char buf2[4096];
    rv_reversi_ggf_format(&g2, buf2, sizeof buf2);
    CHECK_EQ_STR(buf2, buf);

    /* A BO[] with white to move (white's f4 flips e4), and two games in one text. */
    const char *two =
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- O]"
        "W[f4];)\n(;GM[Othello]B[d3]W[c3]B[b3]W[d2]B[e1]W[d6]B[d7]W[e3]B[f4];)";
    CHECK_MSG(rv_reversi_ggf_parse(S(two), &g, &used, &err) == RV_OK, "%s", err.message);
    CHECK(g.start.side == RV_WHITE);
    CHECK_EQ_INT(g.nmoves, 1);
    if (used > strlen(two)) used = strlen(two);
    CHECK(rv_reversi_ggf_parse(two + used, strlen(two) - used, &g, &used, &err) == RV_OK);
    CHECK_EQ_INT(g.nmoves, 9);

    /* Round trip of random games with passes, evals and times. */
    rv_rng r;
    rv_rng_seed(&r, 8);
    long bad = 0;
    for (int i = 0; i < 200; i++) {
        rv_reversi_ggf_init(&g);
        snprintf(g.pb, sizeof g.pb, "player]%d\\", i);
        rv_reversi_pos p = g.start;
        while (!rv_reversi_is_over(&p) && g.nmoves < RV_REVERSI_MAX_PLIES) {
            uint64_t mv = rv_reversi_moves(&p);
            int sq = RV_REVERSI_PASS;
            if (mv) {
                int k = (int)rv_rng_below(&r, (uint64_t)rv_bb_count(mv));
                while (k--) mv &= mv - 1;
                sq = rv_bb_first(mv);
            }
            rv_reversi_play(&p, sq);
            rv_reversi_ggf_move *m = &g.moves[g.nmoves++];
            m->sq = (uint8_t)sq;
            m->has_eval = rv_rng_below(&r, 2);
            m->eval = m->has_eval ? ((int)rv_rng_below(&r, 12801) - 6400) / 100.0 : 0;
            m->has_time = rv_rng_below(&r, 2);
            m->seconds = m->has_time ? (double)rv_rng_below(&r, 1000) / 4 : 0;
        }
        len = rv_reversi_ggf_format(&g, buf, sizeof buf);
        if (len >= sizeof buf || rv_reversi_ggf_parse(buf, len, &g2, NULL, &err) != RV_OK) {
            bad++;
            continue;
        }
        if (strcmp(g2.pb, g.pb) != 0 || g2.nmoves != g.nmoves) bad++;
        for (int k = 0; k < g.nmoves && k < g2.nmoves; k++)
            if (g2.moves[k].sq != g.moves[k].sq || g2.moves[k].has_eval != g.moves[k].has_eval ||
                g2.moves[k].has_time != g.moves[k].has_time ||
                g2.moves[k].eval != g.moves[k].eval || g2.moves[k].seconds != g.moves[k].seconds)
                bad++;
    }
    CHECK_EQ_INT(bad, 0);

    struct {
        const char *text, *want;
    } cases[] = {
        {"", "expected '(;'"},
        {"(;GM[Othello]B[f5]", "not closed"},
        {"(;GM[Chess];)", "not Othello"},
        {"(;GM[Othello]TY[10];)", "not supported"},
        {"(;GM[Othello]B[f5]W[f5];)", "move 2 (f5) is illegal: occupied"},
        {"(;GM[Othello]B[f5]B[d6];)", "black moves but it is white's turn"},
        {"(;GM[Othello]B[a1];)", "flips nothing"},
        {"(;GM[Othello]B[PA];)", "a pass while a move exists"},
        {"(;GM[Othello]B[z9];)", "bad move 'z9'"},
        {"(;GM[Othello]B[f5/x];)", "bad evaluation 'x'"},
        {"(;GM[Othello]B[f5/1/y];)", "bad time 'y'"},
        {"(;GM[Othello]B[f5///];)", "bad time '/'"},
        {"(;GM[Othello]PB[abc;)", "no closing ']'"},
        {"(;GM[Othello]pb[x];)", "expected a tag"},
        {"(;GM[Othello]BO[8 ---];)", "board has only 3 of 64 squares"},
        {"(;GM[Othello]BO[7 ---];)", "size 8"},
        {"(;GM[Othello]B[f5];x", "expected ')'"},
        {"(;BO[8 ---------------------------O*------*O--------------------------- *]x];)",
         "expected a tag"},
        {"(;GM[Othello]\nB[f5]\nW[q1];)", "line 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&err, 0, sizeof err);
        rv_status st = rv_reversi_ggf_parse(S(cases[i].text), &g, &used, &err);
        CHECK_MSG(st == RV_EINVAL, "case %zu", i);
        CHECK_MSG(strstr(err.message, cases[i].want) != NULL, "case %zu: '%s'", i, err.message);
        CHECK_MSG(err.parse.expected != NULL && err.parse.offset == (size_t)err.offset,
                  "case %zu: parse form", i);
    }
    rv_reversi_ggf_parse(S("(;GM[Othello]B[f5/x];)"), &g, &used, &err);
    CHECK_EQ_STR(err.parse.token, "x");
    CHECK_EQ_STR(err.parse.expected, "a decimal evaluation");
}

/* Times and evaluations write back in a form the reader takes (a fuzzer found
 * "%g" writing 5.55556e+07, which the reader rejects), and absurd values are
 * refused by the reader instead. */
static void test_ggf_numbers(void) {
    static rv_reversi_ggf g, g2;
    rv_reversi_error err;
    static const char big[] = "(;GM[Othello]BO[8 ---------------------------O*------*O"
                              "--------------------------- *]B[E6//55555555.];)";
    CHECK_MSG(rv_reversi_ggf_parse(big, strlen(big), &g, NULL, &err) == RV_OK, "%s", err.message);
    static char buf[4096];
    size_t len = rv_reversi_ggf_format(&g, buf, sizeof buf);
    CHECK(strstr(buf, "E6//55555555]") != NULL);
    CHECK_MSG(rv_reversi_ggf_parse(buf, len, &g2, NULL, &err) == RV_OK, "%s", err.message);
    CHECK(g2.nmoves == 1 && g2.moves[0].seconds == 55555555.0);
    static const char slow[] = "(;GM[Othello]BO[8 ---------------------------O*------*O"
                               "--------------------------- *]B[E6//1000000000];)";
    CHECK(rv_reversi_ggf_parse(slow, strlen(slow), &g, NULL, &err) == RV_EINVAL);
    CHECK(strstr(err.message, "out of range") != NULL);
    static const char eval[] = "(;GM[Othello]BO[8 ---------------------------O*------*O"
                               "--------------------------- *]B[E6/12345678901234567890];)";
    CHECK(rv_reversi_ggf_parse(eval, strlen(eval), &g, NULL, &err) == RV_EINVAL);
}

int main(void) {
    test_ggf_numbers();
    test_squares();
    test_transcripts();
    test_obf();
    test_ggf();
    return test_finish();
}
