/*
 * Gomoku notation (shared/DESIGN.md "Notation", shared/spec/gomocup.md):
 * "h8" points with rows from the bottom, move lists spaced or run together,
 * Gomocup X,Y from the top-left, PSQ records from 1 at the top-left.
 */
#include "test.h"

#include "renversi/gomoku_record.h"

static void test_points(void) {
    int x = -9, y = -9;
    /* h8 is the centre of 15x15; a1 the bottom-left; o15 the top-right */
    CHECK(rv_gomoku_point_parse("h8", 2, 15, &x, &y) == RV_OK && x == 7 && y == 7);
    CHECK(rv_gomoku_point_parse("a1", 2, 15, &x, &y) == RV_OK && x == 0 && y == 14);
    CHECK(rv_gomoku_point_parse("o15", 3, 15, &x, &y) == RV_OK && x == 14 && y == 0);
    CHECK(rv_gomoku_point_parse("J10", 3, 20, &x, &y) == RV_OK && x == 9 && y == 10);
    CHECK(rv_gomoku_point_parse("z26", 3, 26, &x, &y) == RV_OK && x == 25 && y == 0);
    /* off the board parses (the caller says "off the board") */
    CHECK(rv_gomoku_point_parse("p16", 3, 15, &x, &y) == RV_OK && x == 15 && y == -1);
    const char *bad[] = {"", "h", "8", "h0", "h08", "h123", "8h", "h8x", "h-1", "#8", "h 8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(rv_gomoku_point_parse(bad[i], strlen(bad[i]), 15, &x, &y) == RV_EINVAL,
                  "'%s' should not parse", bad[i]);
    char buf[8];
    CHECK(rv_gomoku_point_format(7, 7, 15, buf, sizeof buf) == 2);
    CHECK_EQ_STR(buf, "h8");
    CHECK(rv_gomoku_point_format(0, 0, 15, buf, sizeof buf) == 3);
    CHECK_EQ_STR(buf, "a15");
    CHECK(rv_gomoku_point_format(25, 25, 26, buf, sizeof buf) == 2);
    CHECK_EQ_STR(buf, "z1");
    CHECK(rv_gomoku_point_format(26, 0, 26, buf, sizeof buf) == RV_ERANGE);
    CHECK(rv_gomoku_point_format(0, 15, 15, buf, sizeof buf) == RV_ERANGE);
    CHECK(rv_gomoku_point_format(1, 1, 15, buf, 3) == RV_ERANGE); /* "b14" needs 4 bytes */
    /* every point of every size survives a round trip */
    for (int n = 5; n <= 26; n++)
        for (int yy = 0; yy < n; yy++)
            for (int xx = 0; xx < n; xx++) {
                int k = rv_gomoku_point_format(xx, yy, n, buf, sizeof buf);
                CHECK(k > 0 && rv_gomoku_point_parse(buf, (size_t)k, n, &x, &y) == RV_OK &&
                      x == xx && y == yy);
            }
}

static void test_move_lists(void) {
    rv_gomoku_point p[8];
    int n = -1;
    rv_parse_error err;
    const char *s = "h8i9h10";
    CHECK(rv_gomoku_moves_parse(s, strlen(s), 15, p, 8, &n, &err) == RV_OK && n == 3);
    CHECK(p[0].x == 7 && p[0].y == 7 && p[1].x == 8 && p[1].y == 6 && p[2].x == 7 && p[2].y == 5);
    s = "  h8 i9,\th10  ";
    CHECK(rv_gomoku_moves_parse(s, strlen(s), 15, p, 8, &n, &err) == RV_OK && n == 3 &&
          p[2].y == 5);
    CHECK(rv_gomoku_moves_parse("", 0, 15, p, 8, &n, &err) == RV_OK && n == 0);
    s = "h8 i9 x0 j7";
    CHECK(rv_gomoku_moves_parse(s, strlen(s), 15, p, 8, &n, &err) == RV_EINVAL);
    CHECK(err.offset == 6);
    CHECK_EQ_STR(err.token, "x0");
    CHECK(err.expected != NULL);
    s = "h8 i9h10?? j7";
    CHECK(rv_gomoku_moves_parse(s, strlen(s), 15, p, 8, &n, &err) == RV_EINVAL);
    CHECK(err.offset == 5);
    CHECK_EQ_STR(err.token, "h10??");
    s = "h8 \x01";
    CHECK(rv_gomoku_moves_parse(s, strlen(s), 15, p, 8, &n, &err) == RV_EINVAL);
    CHECK(err.offset == 3);
    CHECK_EQ_STR(err.token, "?");
    s = "a1 a2 a3";
    CHECK(rv_gomoku_moves_parse(s, strlen(s), 15, p, 2, &n, &err) == RV_ETOOLONG);
    CHECK(err.offset == 6);
    /* format */
    char buf[64];
    rv_gomoku_point q[3] = {{7, 7}, {8, 6}, {7, 5}};
    CHECK(rv_gomoku_moves_format(q, 3, 15, buf, sizeof buf) == 9);
    CHECK_EQ_STR(buf, "h8 i9 h10");
    CHECK(rv_gomoku_moves_format(q, 3, 15, buf, 5) == 9); /* cut, but the full length */
    CHECK_EQ_STR(buf, "h8 i");
    CHECK(rv_gomoku_moves_format(q, 0, 15, buf, sizeof buf) == 0);
    CHECK_EQ_STR(buf, "");
}

static void test_gomocup(void) {
    int x = -1, y = -1;
    CHECK(rv_gomoku_gomocup_parse("7,7", 3, &x, &y) == RV_OK && x == 7 && y == 7);
    CHECK(rv_gomoku_gomocup_parse(" 0 , 25 ", 8, &x, &y) == RV_OK && x == 0 && y == 25);
    CHECK(rv_gomoku_gomocup_parse("26,0", 4, &x, &y) == RV_ERANGE);
    CHECK(rv_gomoku_gomocup_parse("99999999999999999999,0", 22, &x, &y) == RV_ERANGE);
    const char *bad[] = {"", "7", "7,", ",7", "7,7,", "a,b", "-1,3", "7;7", "7,7x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(rv_gomoku_gomocup_parse(bad[i], strlen(bad[i]), &x, &y) == RV_EINVAL,
                  "'%s' should not parse", bad[i]);
    char buf[8];
    CHECK(rv_gomoku_gomocup_format(14, 0, buf, sizeof buf) == 4);
    CHECK_EQ_STR(buf, "14,0");
    CHECK(rv_gomoku_gomocup_format(26, 0, buf, sizeof buf) == RV_ERANGE);
    /* X,Y is column X and row N - Y: Gomocup 7,7 is h8 on 15x15, 0,0 is a15 */
    CHECK(rv_gomoku_point_format(7, 7, 15, buf, sizeof buf) == 2);
    CHECK_EQ_STR(buf, "h8");
}

static void test_psq(void) {
    static rv_gomoku_psq psq, back;
    rv_parse_error err;
    /* the example of shared/spec/gomocup.md, with CR LF line ends */
    const char *text = "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,312\r\n8,9,250\r\n-1\r\n";
    CHECK(rv_gomoku_psq_read(text, strlen(text), &psq, &err) == RV_OK);
    CHECK(psq.width == 15 && psq.height == 15 && psq.nmoves == 3);
    char buf[4096];
    /* 8,8 is h8; 9,9 is i7; 8,9 is h7 (x,y from 1 at the top-left) */
    CHECK(rv_gomoku_moves_format(psq.moves, psq.nmoves, 15, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "h8 i7 h7");
    CHECK(psq.time_ms[1] == 312);
    /* engine names after the moves are skipped */
    text = "Piskvorky 20x20, 11:11, 0\n1,1,5\n20,20,6\npbrain-a.exe\npbrain-b.exe\n-1\n";
    CHECK(rv_gomoku_psq_read(text, strlen(text), &psq, &err) == RV_OK);
    CHECK(psq.width == 20 && psq.nmoves == 2 && psq.moves[1].x == 19 && psq.moves[1].y == 19);
    /* write, read back */
    int len = rv_gomoku_psq_write(&psq, buf, sizeof buf);
    CHECK(len > 0 && (size_t)len == strlen(buf));
    CHECK_EQ_STR(buf, "Piskvorky 20x20, 11:11, 0\n1,1,5\n20,20,6\n-1\n");
    CHECK(rv_gomoku_psq_read(buf, (size_t)len, &back, &err) == RV_OK);
    CHECK(back.nmoves == 2 && back.moves[0].x == 0 && back.time_ms[1] == 6);
    /* errors: bad header, size, move off the board; the output stays untouched */
    back.nmoves = 77;
    text = "Piskvork 15x15\n8,8,0\n";
    CHECK(rv_gomoku_psq_read(text, strlen(text), &back, &err) == RV_EINVAL && back.nmoves == 77);
    CHECK(err.offset == 0);
    text = "Piskvorky 30x30, 1:1, 0\n";
    CHECK(rv_gomoku_psq_read(text, strlen(text), &back, &err) == RV_ERANGE);
    text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n";
    CHECK(rv_gomoku_psq_read(text, strlen(text), &back, &err) == RV_EINVAL);
    CHECK(err.offset == 32);
    CHECK_EQ_STR(err.token, "16,1,0");
    CHECK(rv_gomoku_psq_read("", 0, &back, &err) == RV_EINVAL && back.nmoves == 77);
}

int main(void) {
    test_points();
    test_move_lists();
    test_gomocup();
    test_psq();
    return test_finish();
}
