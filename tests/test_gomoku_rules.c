/*
 * Gomoku board and winner detection for every rule variant, from hand-made
 * diagrams (shared/spec/renju.md, "Who wins"): exact five against overline,
 * Caro's blocked fives, board edges, 5x5 and 26x26 boards, draws, and the
 * move bookkeeping (turns, undo, bad moves).
 */
#include "test.h"

#include "renversi/gomoku.h"
#include "renversi/gomoku_record.h"

/*
 * Sets up a diagram (rows from the top; X black, O white, . empty) as set-up
 * stones, then lets `mover` play the point marked '*'. Returns the play status.
 */
static rv_status diagram(rv_gomoku *g, int n, rv_gomoku_rule rule, const char *const *rows,
                         rv_color mover) {
    rv_gomoku_init(g, n, n, rule);
    int mx = -1, my = -1;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            char c = rows[y][x];
            if (c == 'X')
                rv_gomoku_set_stone(g, x, y, RV_BLACK);
            else if (c == 'O')
                rv_gomoku_set_stone(g, x, y, RV_WHITE);
            else if (c == '*')
                mx = x, my = y;
        }
    if (mover == RV_WHITE) {
        /* give black a move first so that white is to move: a far, harmless corner */
        rv_status s = rv_gomoku_play(g, n - 1, n - 1);
        if (s != RV_OK) return s;
    }
    return rv_gomoku_play(g, mx, my);
}

static void expect_win(const char *what, rv_gomoku *g, rv_color winner, const char *from,
                       const char *to) {
    rv_gomoku_result r;
    rv_gomoku_get_result(g, &r);
    char a[8] = "", b[8] = "";
    rv_gomoku_point_format(r.x0, r.y0, rv_gomoku_height(g), a, sizeof a);
    rv_gomoku_point_format(r.x1, r.y1, rv_gomoku_height(g), b, sizeof b);
    CHECK_MSG(r.over && r.winner == winner && strcmp(a, from) == 0 && strcmp(b, to) == 0,
              "%s: over %d winner %d line %s-%s, want %d %s-%s", what, r.over, r.winner, a, b,
              winner, from, to);
}

static void expect_going(const char *what, rv_gomoku *g) {
    rv_gomoku_result r;
    rv_gomoku_get_result(g, &r);
    CHECK_MSG(!r.over && r.winner == RV_EMPTY, "%s: over %d winner %d, want a game going", what,
              r.over, r.winner);
}

static void test_five_and_overline(void) {
    /* 9x9 board: row 5 (from the bottom) and a diagonal */
    static const char *five[] = {
        ".........", ".........", ".........", ".........", "XXXX*....",
        ".........", "OOOO.....", ".........", ".........",
    };
    static const char *six[] = {
        ".........", ".........", ".........", ".........", "XXX*XX...",
        ".........", "OOOO.O...", ".........", ".........",
    };
    rv_gomoku g;
    for (int rule = 0; rule < 5; rule++) {
        rv_gomoku_rule rules[] = {RV_RULE_FREESTYLE, RV_RULE_STANDARD, RV_RULE_RENJU, RV_RULE_CARO,
                                  RV_RULE_STANDARD_CARO};
        const char *name = rv_gomoku_rule_name(rules[rule]);
        /* an open five (nothing beyond either end but the edge and empty) wins everywhere */
        CHECK(diagram(&g, 9, rules[rule], five, RV_BLACK) == RV_OK);
        expect_win(name, &g, RV_BLACK, "a5", "e5");
        /* six in a row: freestyle and caro yes; standard and standard-caro no */
        rv_status s = diagram(&g, 9, rules[rule], six, RV_BLACK);
        if (rules[rule] == RV_RULE_RENJU) {
            CHECK_MSG(s == RV_EFORBIDDEN, "renju: black six is forbidden (%d)", s);
        } else {
            CHECK(s == RV_OK);
            if (rules[rule] == RV_RULE_FREESTYLE || rules[rule] == RV_RULE_CARO)
                expect_win(name, &g, RV_BLACK, "a5", "f5");
            else
                expect_going(name, &g);
        }
    }
    /* white's overline: wins under Renju (white has no restriction), not under standard */
    static const char *wsix[] = {
        ".........", ".........", ".........", ".........", "OOO*OO...",
        ".........", "XXXX.X...", "........X", ".........",
    };
    CHECK(diagram(&g, 9, RV_RULE_RENJU, wsix, RV_WHITE) == RV_OK);
    expect_win("renju white six", &g, RV_WHITE, "a5", "f5");
    CHECK(diagram(&g, 9, RV_RULE_STANDARD, wsix, RV_WHITE) == RV_OK);
    expect_going("standard white six", &g);
}

static void test_renju_forbidden_play(void) {
    static const char *six[] = {
        ".........", ".........", ".........", ".........", "XXX*XX...",
        ".........", "OOOO.O...", ".........", ".........",
    };
    rv_gomoku g;
    CHECK(diagram(&g, 9, RV_RULE_RENJU, six, RV_BLACK) == RV_EFORBIDDEN);
    rv_forbid_kind k = RV_FORBID_NONE;
    CHECK(rv_gomoku_check(&g, 3, 4, &k) == RV_EFORBIDDEN && k == RV_FORBID_OVERLINE);
    CHECK(rv_gomoku_play_forced(&g, 3, 4) == RV_OK);
    rv_gomoku_result r;
    rv_gomoku_get_result(&g, &r);
    CHECK(r.over && r.winner == RV_WHITE && r.forbidden && r.forbid_kind == RV_FORBID_OVERLINE);
    CHECK(rv_gomoku_play(&g, 0, 0) == RV_EOVER);
    /* five beats forbidden: an exact five on the column and six on the row at once */
    static const char *both[] = {
        ".........", "...X.....", "...X.....", "...X.....", "XXX*XX...",
        "...X.....", "OOOO.O...", "OOO......", ".........",
    };
    CHECK(diagram(&g, 9, RV_RULE_RENJU, both, RV_BLACK) == RV_OK);
    expect_win("five beats overline", &g, RV_BLACK, "d4", "d8");
    /* under freestyle the same move wins on the row (the first line found) */
    CHECK(diagram(&g, 9, RV_RULE_FREESTYLE, both, RV_BLACK) == RV_OK);
    rv_gomoku_get_result(&g, &r);
    CHECK(r.over && r.winner == RV_BLACK);
    /* white is never forbidden: white's double-four is a plain move */
    static const char *wdf[] = {
        ".........", "...O.....", "...O.....", "...O.....", "OOO*.....",
        ".........", "XXXX.....", "X........", ".........",
    };
    CHECK(diagram(&g, 9, RV_RULE_RENJU, wdf, RV_WHITE) == RV_OK);
    expect_going("white double four", &g);
}

static void test_caro(void) {
    /* five blocked at both ends by white: no win under caro, a win under freestyle */
    static const char *blocked[] = {
        ".........", ".........", ".........", ".........", "OXXXX*O..",
        ".........", "O.O.O.O..", ".........", ".........",
    };
    /* blocked at one end only */
    static const char *one[] = {
        ".........", ".........", ".........", ".........", "OXXXX*...",
        ".........", "O.O.O.O..", ".........", ".........",
    };
    /* the board edge does not block: edge + white is still a win */
    static const char *edge[] = {
        ".........", ".........", ".........", ".........", "XXXX*O...",
        ".........", "O.O.O.O..", ".........", ".........",
    };
    /* six blocked at both ends: caro wins (six and more), standard-caro does not */
    static const char *six[] = {
        ".........", ".........", ".........", ".........", "OXXX*XXO.",
        ".........", "O.O.O.O..", ".........", ".........",
    };
    rv_gomoku g;
    CHECK(diagram(&g, 9, RV_RULE_CARO, blocked, RV_BLACK) == RV_OK);
    expect_going("caro blocked five", &g);
    CHECK(diagram(&g, 9, RV_RULE_STANDARD_CARO, blocked, RV_BLACK) == RV_OK);
    expect_going("standard-caro blocked five", &g);
    CHECK(diagram(&g, 9, RV_RULE_FREESTYLE, blocked, RV_BLACK) == RV_OK);
    expect_win("freestyle blocked five", &g, RV_BLACK, "b5", "f5");
    CHECK(diagram(&g, 9, RV_RULE_CARO, one, RV_BLACK) == RV_OK);
    expect_win("caro one end", &g, RV_BLACK, "b5", "f5");
    CHECK(diagram(&g, 9, RV_RULE_STANDARD_CARO, one, RV_BLACK) == RV_OK);
    expect_win("standard-caro one end", &g, RV_BLACK, "b5", "f5");
    CHECK(diagram(&g, 9, RV_RULE_CARO, edge, RV_BLACK) == RV_OK);
    expect_win("caro edge", &g, RV_BLACK, "a5", "e5");
    CHECK(diagram(&g, 9, RV_RULE_CARO, six, RV_BLACK) == RV_OK);
    expect_win("caro six", &g, RV_BLACK, "b5", "g5");
    CHECK(diagram(&g, 9, RV_RULE_STANDARD_CARO, six, RV_BLACK) == RV_OK);
    expect_going("standard-caro six", &g);
    /* white blocked by black on a diagonal */
    static const char *wdiag[] = {
        "X........", ".O.......", "..O......", "...O.....", "....O....",
        ".....*...", "......X..", "XXX......", ".........",
    };
    CHECK(diagram(&g, 9, RV_RULE_CARO, wdiag, RV_WHITE) == RV_OK);
    expect_going("caro white blocked diagonal", &g);
    CHECK(diagram(&g, 9, RV_RULE_STANDARD, wdiag, RV_WHITE) == RV_OK);
    expect_win("standard white diagonal", &g, RV_WHITE, "b8", "f4");
}

static void test_edges_and_sizes(void) {
    rv_gomoku g;
    /* 5x5: the whole bottom row, the whole left column, both long diagonals */
    static const char *row[] = {".....", "OOOO.", ".....", ".....", "XX*XX"};
    static const char *col[] = {"X....", "X.OO.", "*.OO.", "X....", "X...."};
    static const char *diag[] = {"X...O", ".X..O", "..*.O", "...XO", "....X"};
    static const char *anti[] = {"OOOOX", "...X.", "..*..", ".X...", "X...."};
    CHECK(diagram(&g, 5, RV_RULE_STANDARD, row, RV_BLACK) == RV_OK);
    expect_win("5x5 row", &g, RV_BLACK, "a1", "e1");
    CHECK(diagram(&g, 5, RV_RULE_STANDARD, col, RV_BLACK) == RV_OK);
    expect_win("5x5 column", &g, RV_BLACK, "a1", "a5");
    CHECK(diagram(&g, 5, RV_RULE_RENJU, diag, RV_BLACK) == RV_OK);
    expect_win("5x5 diagonal", &g, RV_BLACK, "a5", "e1");
    CHECK(diagram(&g, 5, RV_RULE_CARO, anti, RV_BLACK) == RV_OK);
    expect_win("5x5 anti-diagonal", &g, RV_BLACK, "a1", "e5");
    /* 26x26: a five along the far top edge and into the corner z26 */
    char rows26[26][27];
    const char *r26[26];
    for (int y = 0; y < 26; y++) {
        memset(rows26[y], '.', 26);
        rows26[y][26] = '\0';
        r26[y] = rows26[y];
    }
    memcpy(rows26[0] + 21, "XXXX*", 5);
    memcpy(rows26[2] + 10, "OOOO", 4);
    CHECK(diagram(&g, 26, RV_RULE_STANDARD, r26, RV_BLACK) == RV_OK);
    expect_win("26x26 corner", &g, RV_BLACK, "v26", "z26");
    CHECK(rv_gomoku_check(&g, 26, 0, NULL) == RV_EOVER);
    /* off the board and sizes */
    CHECK(rv_gomoku_init(&g, 4, 15, RV_RULE_FREESTYLE) == RV_ERANGE);
    CHECK(rv_gomoku_init(&g, 27, 27, RV_RULE_FREESTYLE) == RV_ERANGE);
    CHECK(rv_gomoku_init(&g, 26, 5, RV_RULE_FREESTYLE) == RV_OK);
    CHECK(rv_gomoku_play(&g, 26, 0) == RV_ERANGE);
    CHECK(rv_gomoku_play(&g, 0, 5) == RV_ERANGE);
    CHECK(rv_gomoku_play(&g, -1, 0) == RV_ERANGE);
    CHECK(rv_gomoku_play(&g, 25, 4) == RV_OK);
    CHECK(rv_gomoku_at(&g, 25, 4) == RV_BLACK);
    CHECK(rv_gomoku_at(&g, 26, 4) == RV_EMPTY);
    /* a rectangle: five down a 5-high board's column */
    for (int y = 0; y < 4; y++) CHECK(rv_gomoku_set_stone(&g, 3, y, RV_WHITE) == RV_OK);
    CHECK(rv_gomoku_play(&g, 3, 4) == RV_OK);
    expect_win("26x5 column", &g, RV_WHITE, "d1", "d5");
}

static void test_draw_and_bookkeeping(void) {
    /* 5x5 filled without five in a row anywhere: a draw on the last move */
    static const char *full[] = {"XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"};
    rv_gomoku_point b[13], w[12], moves[25];
    int nb = 0, nw = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            rv_gomoku_point p = {x, y};
            if (full[y][x] == 'X')
                b[nb++] = p;
            else
                w[nw++] = p;
        }
    CHECK(nb == 13 && nw == 12);
    for (int i = 0; i < 25; i++) moves[i] = i % 2 ? w[i / 2] : b[i / 2];
    rv_gomoku g;
    rv_gomoku_init(&g, 5, 5, RV_RULE_FREESTYLE);
    int bad = -1;
    CHECK(rv_gomoku_play_moves(&g, moves, 24, &bad) == RV_OK);
    rv_gomoku_result r;
    rv_gomoku_get_result(&g, &r);
    CHECK(!r.over);
    CHECK(rv_gomoku_to_move(&g) == RV_BLACK && rv_gomoku_move_count(&g) == 24);
    CHECK(rv_gomoku_play(&g, moves[24].x, moves[24].y) == RV_OK);
    rv_gomoku_get_result(&g, &r);
    CHECK(r.over && r.winner == RV_EMPTY && !r.forbidden);
    /* undo reopens the game; occupied points are refused */
    CHECK(rv_gomoku_undo(&g) == RV_OK);
    rv_gomoku_get_result(&g, &r);
    CHECK(!r.over);
    CHECK(rv_gomoku_play(&g, moves[0].x, moves[0].y) == RV_EOCCUPIED);
    int x, y;
    CHECK(rv_gomoku_move_at(&g, 23, &x, &y) == RV_OK && x == moves[23].x && y == moves[23].y);
    CHECK(rv_gomoku_move_at(&g, 24, &x, &y) == RV_ERANGE);
    for (int i = 0; i < 24; i++) CHECK(rv_gomoku_undo(&g) == RV_OK);
    CHECK(rv_gomoku_undo(&g) == RV_EEMPTY);
    for (int yy = 0; yy < 5; yy++)
        for (int xx = 0; xx < 5; xx++) CHECK(rv_gomoku_at(&g, xx, yy) == RV_EMPTY);
    /* a stopped replay reports the failing move's index */
    rv_gomoku_point dup[3] = {{2, 2}, {1, 1}, {2, 2}};
    CHECK(rv_gomoku_play_moves(&g, dup, 3, &bad) == RV_EOCCUPIED && bad == 2);
    CHECK(rv_gomoku_move_count(&g) == 2 && rv_gomoku_to_move(&g) == RV_BLACK);
}

static void test_makes_five(void) {
    /* black a5 and d5-g5 (row 5 of 9x9): c5 and h5 complete exact fives; b5 nothing */
    static const char *rows[] = {
        ".........", ".........", ".........", ".........", "X..XXXX..",
        ".........", "OOOO.....", ".........", ".........",
    };
    rv_gomoku g;
    rv_gomoku_init(&g, 9, 9, RV_RULE_RENJU);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            if (rows[y][x] != '.')
                rv_gomoku_set_stone(&g, x, y, rows[y][x] == 'X' ? RV_BLACK : RV_WHITE);
    CHECK(rv_gomoku_makes_five(&g, 7, 4));  /* h5: d5-h5 */
    CHECK(rv_gomoku_makes_five(&g, 2, 4));  /* c5: c5-g5, b5 empty between it and a5 */
    CHECK(!rv_gomoku_makes_five(&g, 1, 4)); /* b5: nothing */
    CHECK(!rv_gomoku_makes_five(&g, 3, 4)); /* occupied */
    CHECK(!rv_gomoku_makes_five(&g, 4, 6)); /* e3 would complete white's row, not black's */
    CHECK(!rv_gomoku_makes_five(&g, 9, 4)); /* off the board */
    /* with a black stone on b5, c5 joins a5-g5: seven, no five */
    rv_gomoku_set_stone(&g, 1, 4, RV_BLACK);
    CHECK(!rv_gomoku_makes_five(&g, 2, 4));
    CHECK(rv_gomoku_forbidden(&g, 2, 4) == RV_FORBID_OVERLINE);
    CHECK(rv_gomoku_makes_five(&g, 7, 4)); /* h5 still an exact five */
}

static void test_rule_names(void) {
    rv_gomoku_rule r;
    CHECK(rv_gomoku_rule_parse("renju", &r) == RV_OK && r == RV_RULE_RENJU);
    CHECK(rv_gomoku_rule_parse("standard", &r) == RV_OK && r == RV_RULE_STANDARD);
    CHECK(rv_gomoku_rule_parse("exact5", &r) == RV_OK && r == RV_RULE_STANDARD);
    CHECK(rv_gomoku_rule_parse("caro", &r) == RV_OK && r == RV_RULE_CARO);
    CHECK(rv_gomoku_rule_parse("Renju", &r) == RV_EINVAL);
    CHECK(rv_gomoku_rule_from_gomocup(0, &r) == RV_OK && r == RV_RULE_FREESTYLE);
    CHECK(rv_gomoku_rule_from_gomocup(1, &r) == RV_OK && r == RV_RULE_STANDARD);
    CHECK(rv_gomoku_rule_from_gomocup(2, &r) == RV_OK && r == RV_RULE_RENJU);
    CHECK(rv_gomoku_rule_from_gomocup(4, &r) == RV_OK && r == RV_RULE_RENJU);
    CHECK(rv_gomoku_rule_from_gomocup(8, &r) == RV_OK && r == RV_RULE_CARO);
    CHECK(rv_gomoku_rule_from_gomocup(9, &r) == RV_OK && r == RV_RULE_STANDARD_CARO);
    CHECK(rv_gomoku_rule_from_gomocup(3, &r) == RV_OK && r == RV_RULE_STANDARD);
    CHECK(rv_gomoku_rule_from_gomocup(12, &r) == RV_EINVAL);
    CHECK(rv_gomoku_rule_from_gomocup(-1, &r) == RV_ERANGE);
    CHECK_EQ_STR(rv_gomoku_rule_name(RV_RULE_STANDARD_CARO), "standard-caro");
    CHECK_EQ_STR(rv_forbid_name(RV_FORBID_DOUBLE_THREE), "double-three");
    CHECK_EQ_STR(rv_forbid_name(RV_FORBID_NONE), "");
}

int main(void) {
    test_five_and_overline();
    test_renju_forbidden_play();
    test_caro();
    test_edges_and_sizes();
    test_draw_and_bookkeeping();
    test_makes_five();
    test_rule_names();
    return test_finish();
}
