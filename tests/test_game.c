/*
 * rv_game (renversi/game.h): one game of either kind and its one result. The Reversi
 * games were checked with an independent move generator (disc counts, passes) and
 * scored by hand with the tournament rule of shared/spec/othello.md (empties to the
 * winner, shared in a draw); the Gomoku positions are drawn out in the comments.
 */
#include <stdlib.h>
#include <string.h>

#include "renversi/game.h"
#include "test.h"

/* Black wins 48-14 on the board with 2 empty squares, after 2 passes (white's, as
 * moves 38 and 56): tournament score 50-14, GGF RE[+36]. */
static const char GAME_50_14[] =
    "e6f6c4c5b6e7f7b5b4f8g6a3e8a5a6c7a4g8f5f4c6h7g4d6h5h4h3h6h8g7c8b8g5a7d8b7d7e3f2d3f3g3e2"
    "d1e1c2h2a8d2b3c1c3b2a2g2f1g1h1";
/* 31-31 with 2 empty squares, no pass: a draw, 32-32. */
static const char GAME_DRAW[] =
    "f5f4f3d6c6b6b7b8d3g2d7e6c7c8d8e7a6b5e8f6a8c5c4d2a7f8g6b4g3h7e3f7c1c3c2a4g5g4h6d1h4h5e1"
    "h3e2g7a3f1f2b3g8g1a5b1a2b2h2h1";

static void play_all(rv_game *g, const char *moves, int pairs) {
    size_t n = strlen(moves);
    for (size_t i = 0; i < n; i += pairs ? 2 : 0) {
        char t[8];
        if (pairs) {
            snprintf(t, sizeof t, "%.2s", moves + i);
        } else {
            size_t k = strcspn(moves + i, " ");
            snprintf(t, sizeof t, "%.*s", (int)k, moves + i);
            i += k + (moves[i + k] == ' ');
        }
        char why[128];
        rv_status st = rv_game_play_text(g, t, why, sizeof why, NULL);
        CHECK_MSG(st == RV_OK, "move %s: %s", t, why);
        if (st != RV_OK) return;
        if (!pairs && i >= n) break;
    }
}

static void text_is(const rv_game *g, const char *want) {
    char buf[160];
    rv_game_status_text(g, buf, sizeof buf);
    CHECK_EQ_STR(buf, want);
}

static void test_reversi_empties_and_passes(void) {
    rv_game g;
    CHECK(rv_game_init(&g, "reversi", 0, NULL, 0) == RV_OK);
    play_all(&g, GAME_50_14, 1);
    CHECK(rv_game_over(&g));
    CHECK_EQ_INT(rv_game_nmoves(&g), 60); /* 58 discs played + 2 passes */
    CHECK(rv_game_is_pass(&g, 37) && rv_game_is_pass(&g, 55));
    CHECK_EQ_INT(rv_game_move_color(&g, 37), RV_WHITE);
    rv_game_result r;
    rv_game_get_result(&g, &r);
    CHECK_EQ_INT(r.end, RV_END_SCORE);
    CHECK_EQ_INT(r.winner, RV_BLACK);
    CHECK_EQ_INT(r.discs_black, 48);
    CHECK_EQ_INT(r.discs_white, 14);
    CHECK_EQ_INT(r.black, 50);
    CHECK_EQ_INT(r.white, 14);
    text_is(&g, "black wins 50-14");
    char *t = NULL;
    CHECK(rv_game_export(&g, "ggf", &t) == RV_OK);
    CHECK(t && strstr(t, "RE[+36]") && strstr(t, "W[PA]"));
    free(t);
    t = NULL;
    CHECK(rv_game_export(&g, "transcript", &t) == RV_OK);
    CHECK(t && !strncmp(t, GAME_50_14, strlen(GAME_50_14)) && !strcmp(t + strlen(GAME_50_14), "\n"));
    /* The transcript reads back into the same result. */
    rv_game h;
    rv_game_init(&h, "reversi", 8, NULL, 0);
    char why[160];
    CHECK(t && rv_game_load(&h, t, strlen(t), why, sizeof why) == RV_OK);
    text_is(&h, "black wins 50-14");
    free(t);
    /* Undo of the last move (white's h1) takes nothing else. */
    CHECK(rv_game_undo(&g) == RV_OK);
    CHECK(!rv_game_over(&g));
    text_is(&g, "white to move");
    CHECK(rv_game_export(&g, "psq", &t) == RV_EINVAL);
}

static void test_reversi_wipeout_and_draw(void) {
    rv_game g;
    rv_game_init(&g, "othello", 8, NULL, 0);
    /* d3c3b3d2e1d6d7e3f4: 13 black discs, none white, 51 empties to black. */
    play_all(&g, "d3c3b3d2e1d6d7e3f4", 1);
    text_is(&g, "black wins 64-0");
    char *t = NULL;
    rv_game_export(&g, "ggf", &t);
    CHECK(t && strstr(t, "RE[+64]"));
    free(t);
    rv_game_init(&g, "reversi", 0, NULL, 0);
    play_all(&g, GAME_DRAW, 1);
    rv_game_result r;
    rv_game_get_result(&g, &r);
    CHECK_EQ_INT(r.discs_black, 31);
    CHECK_EQ_INT(r.discs_white, 31);
    CHECK_EQ_INT(r.winner, RV_EMPTY);
    text_is(&g, "draw 32-32");
    /* A pass while a move exists is refused and changes nothing. */
    rv_game_init(&g, "reversi", 0, NULL, 0);
    char why[128];
    CHECK(rv_game_play_text(&g, "pass", why, sizeof why, NULL) == RV_EILLEGAL);
    CHECK_EQ_STR(why, "illegal move pass: a move is possible");
    CHECK_EQ_INT(rv_game_nmoves(&g), 0);
    uint8_t marks[64];
    CHECK_EQ_INT(rv_game_marks(&g, marks), 4); /* d3 c4 f5 e6 */
    CHECK(marks[2 * 8 + 3] == RV_MARK_LEGAL && marks[3 * 8 + 2] == RV_MARK_LEGAL);
}

static void test_gomoku_results(void) {
    rv_game g;
    char why[160];
    rv_game_init(&g, "gomoku", 15, NULL, 0);
    play_all(&g, "h8 a1 i8 a2 j8 a3 k8 a4 l8", 0);
    text_is(&g, "black wins: five h8-l8");
    rv_game_result r;
    rv_game_get_result(&g, &r);
    CHECK_EQ_INT(r.end, RV_END_FIVE);
    CHECK_EQ_INT(r.length, 5);
    CHECK(r.x0 == 7 && r.y0 == 7 && r.x1 == 11 && r.y1 == 7); /* h8 = (7, 7) from the top */
    CHECK(rv_game_play_text(&g, "m8", why, sizeof why, NULL) == RV_EOVER);
    /* h8 i8 j8 _ l8 m8 then k8: six in a row wins in freestyle, not in standard. */
    rv_game_init(&g, "freestyle", 15, NULL, 0);
    play_all(&g, "h8 a1 i8 a3 j8 a5 l8 a7 m8 a9 k8", 0);
    text_is(&g, "black wins: overline h8-m8");
    rv_game_init(&g, "standard", 15, NULL, 0);
    play_all(&g, "h8 a1 i8 a3 j8 a5 l8 a7 m8 a9 k8", 0);
    text_is(&g, "white to move");
    /* Renju: h8 i8 and j9 j10 make j8 a double-three for black. Refused by play... */
    rv_game_init(&g, "renju", 15, NULL, 0);
    play_all(&g, "h8 a1 i8 a3 j9 a5 j10 a7", 0);
    uint8_t marks[15 * 15];
    CHECK(rv_game_marks(&g, marks) >= 1);
    CHECK_EQ_INT(marks[7 * 15 + 9], RV_FORBID_DOUBLE_THREE);
    int kind = 0;
    CHECK(rv_game_play_text(&g, "j8", why, sizeof why, &kind) == RV_EFORBIDDEN);
    CHECK_EQ_INT(kind, RV_FORBID_DOUBLE_THREE);
    CHECK_EQ_STR(why, "forbidden move j8: double-three");
    CHECK_EQ_INT(rv_game_nmoves(&g), 8);
    /* ... and loses when a referee records it. */
    CHECK(rv_game_play_forced(&g, 9, 7, why, sizeof why) == RV_OK);
    text_is(&g, "white wins: black's forbidden move j8 (double-three)");
    rv_game_get_result(&g, &r);
    CHECK(r.end == RV_END_FORBIDDEN && r.kind == RV_FORBID_DOUBLE_THREE && r.x0 == 9 && r.y0 == 7);
    /* 5x5 filled as XXOOX / OOXXO / XXOOX / OOXXO / XXOOX: no five anywhere, a draw. */
    rv_game_init(&g, "freestyle", 5, NULL, 0);
    play_all(&g, "a5 c5 b5 d5 e5 a4 c4 b4 d4 e4 a3 c3 b3 d3 e3 a2 c2 b2 d2 e2 a1 c1 b1 d1 e1", 0);
    text_is(&g, "draw: board full");
}

static void test_concede_undo_and_load(void) {
    rv_game g;
    char why[160];
    rv_game_init(&g, "renju", 0, NULL, 0);
    CHECK_EQ_INT(rv_game_size(&g), 15);
    play_all(&g, "h8 i9", 0);
    CHECK(rv_game_resign(&g, RV_BLACK) == RV_OK);
    text_is(&g, "white wins: black resigned");
    CHECK(rv_game_resign(&g, RV_WHITE) == RV_EOVER);
    CHECK(rv_game_undo(&g) == RV_OK); /* the resignation goes, the moves stay */
    CHECK_EQ_INT(rv_game_nmoves(&g), 2);
    CHECK(rv_game_lose_on_time(&g, RV_WHITE) == RV_OK);
    text_is(&g, "black wins: white lost on time");
    /* undo_for: back to black's turn before its last move (white's answer goes too). */
    CHECK(rv_game_undo_for(&g, RV_BLACK) == RV_OK);
    CHECK_EQ_INT(rv_game_nmoves(&g), 0);
    CHECK(rv_game_undo_for(&g, RV_BLACK) == RV_EEMPTY);
    /* Loading: an empty record or a bad one changes nothing. */
    play_all(&g, "h8", 0);
    CHECK(rv_game_load(&g, " \n\t", 3, why, sizeof why) == RV_EEMPTY);
    CHECK(rv_game_load(&g, "", 0, why, sizeof why) == RV_EEMPTY);
    CHECK(rv_game_load(&g, "h8 h8", 5, why, sizeof why) != RV_OK);
    CHECK_EQ_INT(rv_game_nmoves(&g), 1);
    /* A record is read to its length only (no NUL needed). */
    CHECK(rv_game_load(&g, "h8 i9 j10", 5, why, sizeof why) == RV_OK);
    CHECK_EQ_INT(rv_game_nmoves(&g), 2);
    char *t = NULL;
    CHECK(rv_game_export(&g, "moves", &t) == RV_OK);
    CHECK(t && !strcmp(t, "h8 i9\n"));
    free(t);
    CHECK(rv_game_export(&g, "ggf", &t) == RV_EINVAL);
    /* Bad variants and sizes. */
    char err[160];
    CHECK(rv_game_init(&g, "chess", 0, err, sizeof err) == RV_EINVAL);
    CHECK(strstr(err, "unknown game 'chess'") != NULL);
    CHECK(rv_game_init(&g, "reversi", 10, err, sizeof err) == RV_ERANGE);
    CHECK(rv_game_init(&g, "renju", 27, err, sizeof err) == RV_ERANGE);
    CHECK_EQ_INT(rv_game_nmoves(&g), 2); /* unchanged by the failed inits */
}

int main(void) {
    test_reversi_empties_and_passes();
    test_reversi_wipeout_and_draw();
    test_gomoku_results();
    test_concede_undo_and_load();
    return test_finish();
}
