/*
 * `renversi serve` over real WebSocket connections: seats and tokens, spectators, bad
 * input answered to its sender only, the rate limit, forbidden moves refused with their
 * kind, undo by request, AI games, stored games, and kill -9 + restart losing no
 * acknowledged move, and the first client of a fresh server answered. The server runs in a
 * child process (fork), so it can be killed.
 */
#include "rooms_harness.h"

/* ---------------------------------------------------------------- cases */

static void test_seats_and_tokens(void) {
    seat a, b, w, x;
    create(&a, "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"online\",\"color\":\"black\"}");
    CHECK_EQ_STR(a.seat, "black");
    CHECK_EQ_INT(strlen(a.token), 32); /* 128 random bits */
    join(&b, a.room, "");
    CHECK_EQ_STR(b.seat, "white");
    CHECK(strlen(b.token) == 32 && strcmp(a.token, b.token) != 0);
    join(&w, a.room, "");
    CHECK_EQ_STR(w.seat, "spectator");
    CHECK_EQ_STR(w.token, "");
    /* A made-up token or a near miss of a real one gives no seat. */
    char forged[80];
    snprintf(forged, sizeof forged, "%s", a.token);
    forged[0] = forged[0] == '0' ? '1' : '0';
    join(&x, a.room, forged);
    CHECK_EQ_STR(x.seat, "spectator");
    harness_drain(&a.c);
    harness_drain(&b.c);

    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"h8\"}", "not_your_turn");
    expect_error(&w.c, "{\"type\":\"move\",\"move\":\"h8\"}", "not_seated");
    expect_error(&x.c, "{\"type\":\"move\",\"move\":\"h8\"}", "not_seated");
    expect_error(&w.c, "{\"type\":\"resign\"}", "not_seated");
    expect_error(&w.c, "{\"type\":\"undo\"}", "not_seated");

    cJSON *s = move(&a.c, "h8");
    CHECK(s && harness_nmoves(s) == 1);
    cJSON_Delete(s);
    /* Everyone in the room sees the move, the spectator too. */
    s = harness_recv_type(&w.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 1 && !strcmp(harness_str(s, "to_move"), "white"));
    cJSON_Delete(s);
    s = harness_recv_type(&b.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 1);
    cJSON_Delete(s);
    expect_error(&a.c, "{\"type\":\"move\",\"move\":\"i9\"}", "not_your_turn");
    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"h8\"}", "occupied");
    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"z99\"}", "illegal");
    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"hello\"}", "bad_move");
    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"i9\",\"ply\":0}", "stale");

    /* The real token from another connection takes the seat back (a reload). */
    ws_close(&a.c);
    seat a2;
    join(&a2, a.room, a.token);
    CHECK_EQ_STR(a2.seat, "black");
    s = move(&b.c, "i9");
    CHECK(s && harness_nmoves(s) == 2);
    cJSON_Delete(s);
    s = move(&a2.c, "h9");
    CHECK(s != NULL);
    cJSON_Delete(s);

    /* Undo online: asked by white, answered by black. */
    harness_drain(&b.c);
    harness_drain(&a2.c);
    expect_error(&a2.c, "{\"type\":\"undo_reply\",\"accept\":true}", "no_request");
    ws_send_text(&b.c, "{\"type\":\"undo\"}");
    s = harness_recv_type(&a2.c, "state", HARNESS_WAIT_MS);
    CHECK(s && !strcmp(harness_str(s, "undo_request"), "white") && harness_nmoves(s) == 3);
    cJSON_Delete(s);
    expect_error(&b.c, "{\"type\":\"undo_reply\",\"accept\":true}", "no_request");
    ws_send_text(&a2.c, "{\"type\":\"undo_reply\",\"accept\":true}");
    s = harness_recv_type(&a2.c, "state", HARNESS_WAIT_MS);
    /* White's i9 and black's h9 after it are taken back: white to move again. */
    CHECK(s && harness_nmoves(s) == 1 && !strcmp(harness_str(s, "to_move"), "white"));
    cJSON_Delete(s);

    /* Resign ends the game; then no more moves. */
    harness_drain(&b.c);
    ws_send_text(&b.c, "{\"type\":\"resign\"}");
    s = harness_recv_type(&b.c, "state", HARNESS_WAIT_MS);
    CHECK(s && !strcmp(harness_str(s, "result"), "black wins: white resigned"));
    cJSON_Delete(s);
    expect_error(&a2.c, "{\"type\":\"move\",\"move\":\"a1\"}", "over");
    expect_error(&b.c, "{\"type\":\"resign\"}", "over");
    ws_close(&a2.c);
    ws_close(&b.c);
    ws_close(&w.c);
    ws_close(&x.c);
}

static void test_bad_input(void) {
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    expect_error(&a.c, "{\"type\":\"move\",", "bad_json");
    expect_error(&a.c, "not json at all", "bad_json");
    expect_error(&a.c, "[1,2,3]", "bad_request");
    expect_error(&a.c, "{\"type\":42}", "bad_request");
    expect_error(&a.c, "{\"type\":\"launch\"}", "unknown_type");
    expect_error(&a.c, "{\"type\":\"join\"}", "bad_request");
    expect_error(&a.c, "{\"type\":\"join\",\"room\":\"nosuchroom\"}", "no_room");
    expect_error(&a.c, "{\"type\":\"create\",\"variant\":\"chess\"}", "bad_request");
    expect_error(&a.c, "{\"type\":\"create\",\"variant\":\"renju\",\"size\":99}", "bad_request");
    expect_error(&a.c, "{\"type\":\"create\",\"mode\":\"ai\",\"level\":\"max\"}", "bad_request");
    expect_error(&a.c, "{\"type\":\"create\",\"size\":4e45}", "bad_request");
    expect_error(&a.c, "{\"type\":\"create\",\"size\":15.5}", "bad_request");
    expect_error(&a.c, "{\"type\":\"replay\",\"id\":1e999}", "bad_request");
    expect_error(&a.c, "{\"type\":\"export\",\"id\":1,\"format\":\"pdf\"}", "bad_format");
    expect_error(&a.c, "{\"type\":\"replay\",\"id\":-5}", "bad_request");
    CHECK(alive(&a.c));
    /* An oversized message: refused, the connection lives on. */
    size_t big = 64 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    memcpy(huge, "{\"type\":\"ping\",\"pad\":\"", 22);
    memcpy(huge + big - 2, "\"}", 2);
    huge[big] = 0;
    expect_error(&a.c, huge, "too_big");
    free(huge);
    CHECK(alive(&a.c));
    /* A message in fragments is put together. */
    ws_send_frame(&a.c, 1, 0, "{\"type\":\"pi", 11);
    ws_send_frame(&a.c, 0, 1, "ng\",\"id\":7}", 11);
    cJSON *p = harness_recv_type(&a.c, "pong", HARNESS_WAIT_MS);
    CHECK(p != NULL);
    cJSON_Delete(p);
    ws_send_frame(&a.c, 2, 1, "\x01\x02", 2);
    p = harness_recv_type(&a.c, "error", HARNESS_WAIT_MS);
    CHECK(p && !strcmp(harness_str(p, "code"), "bad_json"));
    cJSON_Delete(p);
    /* None of that reached the other player. */
    cJSON *leak = harness_recv_any(&b.c, 300);
    CHECK_MSG(leak == NULL, "the other client got: %s", harness_str(leak, "type"));
    cJSON_Delete(leak);

    /* A flood: rate-limited with an error, the game goes on afterwards. */
    for (int i = 0; i < 300; i++) ws_send_text(&a.c, "{\"type\":\"list\"}");
    cJSON *e = harness_recv_type(&a.c, "error", HARNESS_WAIT_MS);
    CHECK(e && !strcmp(harness_str(e, "code"), "rate_limited"));
    cJSON_Delete(e);
    usleep(2500 * 1000);
    harness_drain(&a.c);
    cJSON *s = move(&a.c, "h8");
    CHECK(s && harness_nmoves(s) == 1);
    cJSON_Delete(s);
    CHECK(alive(&b.c));
    /* Not a WebSocket path. */
    ws_conn bad;
    CHECK(ws_open(&bad, port, "/notws", "") != 0 || (ws_recv(&bad, &(char *){NULL}, 1000) < 0));
    ws_close(&bad);
    ws_close(&a.c);
    ws_close(&b.c);
}

static void test_forbidden(void) {
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    /* Black h8 i8 (a row) and j9 j10 (a column): j8 would make two open threes at once. */
    const char *seq[] = {"h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"};
    for (int i = 0; i < 8; i++) {
        cJSON *s = move(i % 2 ? &b.c : &a.c, seq[i]);
        CHECK(s != NULL);
        if (i == 7 && s) {
            /* The state lists j8 as forbidden for black, with its kind. */
            cJSON *f = cJSON_GetObjectItem(s, "forbidden");
            int found = 0;
            for (int k = 0; k < cJSON_GetArraySize(f); k++) {
                cJSON *pt = cJSON_GetArrayItem(f, k);
                if (cJSON_GetArrayItem(pt, 0)->valueint == 9 && cJSON_GetArrayItem(pt, 1)->valueint == 7)
                    found = !strcmp(cJSON_GetArrayItem(pt, 2)->valuestring, "double-three");
            }
            CHECK_MSG(found, "j8 not listed as a double-three");
        }
        cJSON_Delete(s);
    }
    ws_send_text(&a.c, "{\"type\":\"move\",\"move\":\"j8\"}");
    cJSON *e = harness_recv_type(&a.c, "error", HARNESS_WAIT_MS);
    CHECK(e && !strcmp(harness_str(e, "code"), "forbidden") && !strcmp(harness_str(e, "kind"), "double-three"));
    CHECK(e && strstr(harness_str(e, "message"), "j8"));
    CHECK_EQ_STR(harness_str(e, "point"), "j8");
    cJSON_Delete(e);
    /* The game goes on: black plays elsewhere. */
    cJSON *s = move(&a.c, "g8");
    CHECK(s && harness_nmoves(s) == 9);
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);
}

static void test_reversi_and_records(void) {
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    expect_error(&a.c, "{\"type\":\"move\",\"move\":\"a1\"}", "illegal");
    expect_error(&a.c, "{\"type\":\"move\",\"move\":\"pass\"}", "illegal");
    /* Leaving for another room and coming back with the token keeps the seat. */
    ws_send_text(&a.c, "{\"type\":\"join\",\"room\":\"zz\"}");
    harness_drain(&a.c);
    ws_close(&a.c);
    seat a2;
    join(&a2, a.room, a.token);
    CHECK_EQ_STR(a2.seat, "black");
    harness_drain(&b.c);
    cJSON *s = move(&a2.c, "f5");
    /* The legal moves of the side to move (white): d6 f4 f6, as (x, y) from the top-left. */
    cJSON *legal = s ? cJSON_GetObjectItem(s, "legal") : NULL;
    CHECK_EQ_INT(cJSON_GetArraySize(legal), 3);
    int want[3][2] = {{5, 3}, {3, 5}, {5, 5}}, seen = 0;
    for (int i = 0; i < cJSON_GetArraySize(legal); i++) {
        cJSON *pt = cJSON_GetArrayItem(legal, i);
        for (int k = 0; k < 3; k++)
            seen += cJSON_GetArrayItem(pt, 0)->valueint == want[k][0] &&
                    cJSON_GetArrayItem(pt, 1)->valueint == want[k][1];
    }
    CHECK_EQ_INT(seen, 3);
    /* f5 flipped e5: black now has d5 e4 e5 f5. */
    const char *bd = harness_str(s, "board");
    CHECK(strlen(bd) == 64 && bd[4 * 8 + 5] == 'X' && bd[4 * 8 + 4] == 'X' && bd[3 * 8 + 3] == 'O');
    CHECK_EQ_STR(harness_str(s, "to_move"), "white");
    cJSON_Delete(s);
    s = move(&b.c, "d6");
    CHECK(s != NULL);
    int64_t id = s ? (int64_t)cJSON_GetObjectItem(s, "game_id")->valuedouble : 0;
    cJSON_Delete(s);
    char m[128];
    snprintf(m, sizeof m, "{\"type\":\"export\",\"id\":%lld,\"format\":\"transcript\"}", (long long)id);
    ws_send_text(&b.c, m);
    cJSON *x = harness_recv_type(&b.c, "export", HARNESS_WAIT_MS);
    CHECK(x && !strcmp(harness_str(x, "text"), "f5d6\n"));
    cJSON_Delete(x);
    snprintf(m, sizeof m, "{\"type\":\"replay\",\"id\":%lld}", (long long)id);
    ws_send_text(&b.c, m);
    x = harness_recv_type(&b.c, "replay", HARNESS_WAIT_MS);
    CHECK(x && cJSON_GetArraySize(cJSON_GetObjectItem(x, "steps")) == 2);
    if (x) {
        /* The start position: d4 e5 white, d5 e4 black (a1 top-left). */
        const char *b0 = harness_str(x, "start");
        CHECK(strlen(b0) == 64 && b0[3 * 8 + 3] == 'O' && b0[4 * 8 + 4] == 'O' &&
              b0[4 * 8 + 3] == 'X' && b0[3 * 8 + 4] == 'X');
        /* f5 (column 5, row 4 from the top) by black flips e5; d6 by white flips d5. */
        cJSON *st = cJSON_GetObjectItem(x, "steps");
        CHECK_EQ_STR(cJSON_GetArrayItem(st, 0)->valuestring, "Xfeee");
        CHECK_EQ_STR(cJSON_GetArrayItem(st, 1)->valuestring, "Odfde");
        /* The room id (the share link) is not in a stored game's record. */
        CHECK(cJSON_GetObjectItem(x, "room") == NULL);
        char *txt = cJSON_PrintUnformatted(x);
        CHECK(txt && !strstr(txt, a.room));
        free(txt);
    }
    cJSON_Delete(x);
    ws_send_text(&b.c, "{\"type\":\"list\"}");
    x = harness_recv_type(&b.c, "games", HARNESS_WAIT_MS);
    int listed = 0;
    cJSON *g = cJSON_GetObjectItem(x, "games");
    for (int i = 0; i < cJSON_GetArraySize(g); i++)
        listed |= (int64_t)cJSON_GetObjectItem(cJSON_GetArrayItem(g, i), "id")->valuedouble == id;
    CHECK(listed);
    /* No room id (a share-link secret) anywhere in the list. */
    char *txt = x ? cJSON_PrintUnformatted(x) : NULL;
    CHECK(txt && !strstr(txt, a.room) && !strstr(txt, "\"room\""));
    free(txt);
    cJSON_Delete(x);
    ws_close(&a.c);
    ws_close(&a2.c);
    ws_close(&b.c);
}

static void test_ai_game(void) {
    seat a;
    create(&a, "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"ai\",\"color\":\"black\",\"level\":1}");
    CHECK_EQ_STR(a.seat, "black");
    ws_send_text(&a.c, "{\"type\":\"move\",\"move\":\"h8\"}");
    int saw_thinking = 0, answered = 0;
    for (int i = 0; i < 20 && !answered; i++) {
        cJSON *s = harness_recv_type(&a.c, "state", 30000);
        if (!s) break;
        saw_thinking |= cJSON_IsTrue(cJSON_GetObjectItem(s, "thinking"));
        answered = harness_nmoves(s) == 2 && !cJSON_IsTrue(cJSON_GetObjectItem(s, "thinking"));
        cJSON_Delete(s);
    }
    CHECK(saw_thinking);
    CHECK(answered);
    /* Undo against the computer takes back its answer and my move. */
    ws_send_text(&a.c, "{\"type\":\"undo\"}");
    cJSON *s = harness_recv_type(&a.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 0 && !strcmp(harness_str(s, "to_move"), "black"));
    cJSON_Delete(s);
    /* Playing white: the computer opens. */
    seat w;
    create(&w, "{\"type\":\"create\",\"variant\":\"freestyle\",\"size\":9,\"mode\":\"ai\",\"color\":\"white\",\"level\":1}");
    CHECK_EQ_STR(w.seat, "white");
    s = harness_recv_type(&w.c, "state", 30000);
    CHECK(s && harness_nmoves(s) == 1 && !strcmp(harness_str(s, "to_move"), "white"));
    cJSON_Delete(s);
    /* Reversi against the computer, which opens as black with one of the four legal moves. */
    seat r;
    create(&r, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"ai\",\"color\":\"white\",\"level\":1}");
    s = harness_recv_type(&r.c, "state", 30000);
    const char *first = s && harness_nmoves(s) == 1 ? cJSON_GetArrayItem(cJSON_GetObjectItem(s, "moves"), 0)->valuestring : "";
    CHECK_MSG(!strcmp(first, "d3") || !strcmp(first, "c4") || !strcmp(first, "f5") || !strcmp(first, "e6"),
              "the computer opened with '%s'", first);
    cJSON_Delete(s);
    ws_close(&r.c);
    ws_close(&a.c);
    ws_close(&w.c);
}

static void test_kill_restart(pid_t *pid) {
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    const char *seq[] = {"h8", "h9", "i8", "i9", "j8", "j9", "a1", "a2", "b1", "b2", "c1"};
    int n = sizeof seq / sizeof *seq;
    for (int i = 0; i < n; i++) {
        cJSON *s = move(i % 2 ? &b.c : &a.c, seq[i]);
        CHECK(s && harness_nmoves(s) == i + 1);
        cJSON_Delete(s);
    }
    /* Killed right after the last acknowledgement: nothing may be lost. */
    harness_stop(*pid, SIGKILL);
    ws_close(&a.c);
    ws_close(&b.c);
    *pid = start_server(&port);
    CHECK(*pid > 0 && port > 0);
    seat b2, a2;
    join(&b2, a.room, b.token);
    CHECK_EQ_STR(b2.seat, "white");
    join(&a2, a.room, a.token);
    CHECK_EQ_STR(a2.seat, "black");
    harness_drain(&b2.c);
    ws_send_text(&b2.c, "{\"type\":\"ping\"}");
    cJSON *s = move(&b2.c, "c2"); /* the room resumes: white to move after 11 moves */
    CHECK(s && harness_nmoves(s) == n + 1);
    if (s) {
        cJSON *mv = cJSON_GetObjectItem(s, "moves");
        for (int i = 0; i < n; i++) CHECK_EQ_STR(cJSON_GetArrayItem(mv, i)->valuestring, seq[i]);
    }
    cJSON_Delete(s);
    /* A kill while moves stream in: every acknowledged one survives. */
    const char *more[] = {"d1", "d2", "e3", "e4", "f5", "f6", "g7", "a10"};
    int acked = n + 1;
    for (int i = 0; i < 8; i++) {
        char m[96];
        snprintf(m, sizeof m, "{\"type\":\"move\",\"move\":\"%s\"}", more[i]);
        if (i == 7) {
            /* Sent but killed before its answer: it may or may not be stored. */
            ws_send_text(i % 2 ? &b2.c : &a2.c, m);
            break;
        }
        cJSON *st = move(i % 2 ? &b2.c : &a2.c, more[i]);
        if (st) acked = harness_nmoves(st);
        cJSON_Delete(st);
    }
    harness_stop(*pid, SIGKILL);
    ws_close(&a2.c);
    ws_close(&b2.c);
    *pid = start_server(&port);
    seat w;
    open_client(&w.c);
    char m[128];
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\"}", a.room);
    ws_send_text(&w.c, m);
    s = harness_recv_type(&w.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) >= acked && harness_nmoves(s) <= acked + 1);
    CHECK_EQ_INT(acked, n + 8);
    cJSON_Delete(s);
    ws_close(&w.c);
}

/* A Reversi game in which white must pass after black's 47th move (a game the engine
 * played): the pass is played at once, stored, survives a restart without doubling, and an
 * undo takes it back together with the move before it. */
static void test_reversi_pass(pid_t *pid) {
    static const char game[] = "f5d6c4g5f6f4g6f3h5h6h7e7d3b4e6f7g4h4h3c2g3h2h1g7c6c5b5d7f2f1h8g8f8e8e3a5c7c3d8b6g1g2e1c8d2e2b8";
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    cJSON *s = NULL;
    char to_move[8] = "black";
    for (size_t i = 0; i + 1 < sizeof game; i += 2) {
        char mv[3] = {game[i], game[i + 1], 0};
        cJSON_Delete(s);
        s = move(!strcmp(to_move, "black") ? &a.c : &b.c, mv);
        if (!s) break;
        snprintf(to_move, sizeof to_move, "%s", harness_str(s, "to_move"));
        harness_drain(!strcmp(to_move, "black") ? &a.c : &b.c); /* the next mover's old states */
    }
    CHECK(s && harness_nmoves(s) == 48);
    CHECK(s && !strcmp(cJSON_GetArrayItem(cJSON_GetObjectItem(s, "moves"), 47)->valuestring, "pass"));
    CHECK(s && !strcmp(harness_str(s, "to_move"), "black"));
    cJSON_Delete(s);
    harness_stop(*pid, SIGKILL);
    ws_close(&a.c);
    ws_close(&b.c);
    *pid = start_server(&port);
    seat a2, b2;
    join(&a2, a.room, a.token);
    join(&b2, a.room, b.token);
    ws_send_text(&a2.c, "{\"type\":\"ping\"}");
    cJSON_Delete(harness_recv_type(&a2.c, "pong", HARNESS_WAIT_MS));
    char m[256];
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", a.room, a.token);
    ws_send_text(&a2.c, m);
    s = harness_recv_type(&a2.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 48 && !strcmp(harness_str(s, "to_move"), "black"));
    cJSON_Delete(s);
    /* Black asks to take back; white accepts: the pass and black's 47th move go. */
    harness_drain(&b2.c);
    ws_send_text(&a2.c, "{\"type\":\"undo\"}");
    cJSON_Delete(harness_recv_type(&b2.c, "state", HARNESS_WAIT_MS));
    ws_send_text(&b2.c, "{\"type\":\"undo_reply\",\"accept\":true}");
    s = harness_recv_type(&b2.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 46 && !strcmp(harness_str(s, "to_move"), "black"));
    cJSON_Delete(s);
    ws_close(&a2.c);
    ws_close(&b2.c);
}

/* Sends a message and expects an error with this code and parameter key = value; returns 1
 * when it came. */
static int expect_param(ws_conn *c, const char *msg, const char *code, const char *key, const char *value) {
    ws_send_text(c, msg);
    cJSON *e = harness_recv_type(c, "error", HARNESS_WAIT_MS);
    int ok = e && !strcmp(harness_str(e, "code"), code) && !strcmp(harness_str(e, key), value);
    CHECK_MSG(ok, "%s -> %s %s=%s, want %s %s=%s", msg, e ? harness_str(e, "code") : "(nothing)", key, harness_str(e, key), code,
              key, value);
    cJSON_Delete(e);
    return ok;
}

/* Every message type with bad input: a code the page can word, the parameter it names, and
 * nothing changed for anyone (docs/protocol-web.md, issue #11). */
static void test_error_codes(void) {
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    cJSON *s = move(&a.c, "f5");
    CHECK(s && harness_nmoves(s) == 1);
    cJSON_Delete(s);
    harness_drain(&a.c);
    harness_drain(&b.c);
    /* create */
    expect_param(&a.c, "{\"type\":\"create\",\"variant\":\"chess\"}", "bad_request", "field", "variant");
    expect_param(&a.c, "{\"type\":\"create\",\"mode\":\"lan\"}", "bad_request", "field", "mode");
    expect_param(&a.c, "{\"type\":\"create\",\"color\":\"red\"}", "bad_request", "field", "color");
    expect_param(&a.c, "{\"type\":\"create\",\"size\":4}", "bad_request", "field", "size");
    expect_param(&a.c, "{\"type\":\"create\",\"level\":21}", "bad_request", "field", "level");
    /* join, move */
    expect_param(&a.c, "{\"type\":\"join\",\"room\":7}", "bad_request", "field", "room");
    expect_param(&b.c, "{\"type\":\"move\",\"move\":\"d6\",\"ply\":\"one\"}", "bad_request", "field", "ply");
    expect_param(&b.c, "{\"type\":\"move\",\"x\":-1}", "bad_request", "field", "move");
    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"z99\"}", "bad_move");
    expect_param(&b.c, "{\"type\":\"move\",\"move\":\"a1\"}", "illegal", "reason", "no_flips");
    expect_param(&b.c, "{\"type\":\"move\",\"move\":\"a1\"}", "illegal", "point", "a1");
    expect_param(&b.c, "{\"type\":\"move\",\"move\":\"pass\"}", "illegal", "reason", "must_move");
    expect_param(&b.c, "{\"type\":\"move\",\"move\":\"f5\"}", "occupied", "point", "f5");
    expect_error(&a.c, "{\"type\":\"move\",\"move\":\"d6\"}", "not_your_turn");
    expect_error(&b.c, "{\"type\":\"move\",\"move\":\"d6\",\"ply\":0}", "stale");
    /* undo_reply, new, hint, replay, export, unknown */
    expect_error(&b.c, "{\"type\":\"undo_reply\",\"accept\":true}", "no_request");
    ws_send_text(&a.c, "{\"type\":\"undo\"}");
    cJSON_Delete(harness_recv_type(&b.c, "state", HARNESS_WAIT_MS));
    harness_drain(&a.c);
    expect_param(&b.c, "{\"type\":\"undo_reply\",\"accept\":\"yes\"}", "bad_request", "field", "accept");
    expect_error(&a.c, "{\"type\":\"undo\"}", "pending");
    expect_error(&a.c, "{\"type\":\"new\"}", "in_progress");
    expect_error(&a.c, "{\"type\":\"hint\"}", "hint_off"); /* between players unless allowed */
    expect_param(&a.c, "{\"type\":\"replay\",\"id\":\"x\"}", "bad_request", "field", "id");
    expect_error(&a.c, "{\"type\":\"replay\",\"id\":999999}", "not_found");
    expect_param(&a.c, "{\"type\":\"export\",\"id\":1}", "bad_request", "field", "format");
    expect_param(&a.c, "{\"type\":\"launch\"}", "unknown_type", "got", "launch");
    expect_param(&a.c, "{\"type\":7}", "bad_request", "field", "type");
    /* Nothing reached the other player, and the game is as it was. */
    cJSON *leak = harness_recv_any(&a.c, 300);
    CHECK_MSG(leak == NULL, "a got: %s", harness_str(leak, "type"));
    cJSON_Delete(leak);
    char m[256];
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", a.room, a.token);
    ws_send_text(&a.c, m);
    s = harness_recv_type(&a.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 1 && !strcmp(harness_str(s, "to_move"), "white"));
    CHECK(s && !strcmp(harness_str(s, "undo_request"), "black"));
    /* points: where each move went; end: null while the game goes on. */
    cJSON *pts = s ? cJSON_GetObjectItem(s, "points") : NULL;
    CHECK(cJSON_GetArraySize(pts) == 1 && cJSON_GetArrayItem(cJSON_GetArrayItem(pts, 0), 0)->valueint == 5 &&
          cJSON_GetArrayItem(cJSON_GetArrayItem(pts, 0), 1)->valueint == 4);
    CHECK(s && cJSON_IsNull(cJSON_GetObjectItem(s, "end")));
    /* recent: f5 put a black disc on f5 and turned e5 (column, row from the top, a = 0). */
    cJSON *rec = s ? cJSON_GetObjectItem(s, "recent") : NULL;
    CHECK(rec && cJSON_GetObjectItem(rec, "from") && cJSON_GetObjectItem(rec, "from")->valueint == 0);
    CHECK(rec && cJSON_GetArraySize(cJSON_GetObjectItem(rec, "steps")) == 1 &&
          !strcmp(cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "steps"), 0)->valuestring, "Xfeee"));
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);

    /* A five: the end names the row, every stone of it, as the library found it. */
    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    const char *bm[] = {"d4", "e4", "f4", "g4", "h4"}, *wm[] = {"d5", "e5", "f5", "g5"};
    for (int i = 0; i < 5; i++) {
        cJSON_Delete(move(&a.c, bm[i]));
        harness_drain(&b.c);
        if (i < 4) cJSON_Delete(move(&b.c, wm[i]));
        harness_drain(&a.c);
    }
    expect_error(&b.c, "{\"type\":\"hint\"}", "over");
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", a.room, b.token);
    ws_send_text(&b.c, m);
    s = harness_recv_type(&b.c, "state", HARNESS_WAIT_MS);
    cJSON *end = s ? cJSON_GetObjectItem(s, "end") : NULL;
    CHECK_EQ_STR(harness_str(end, "reason"), "five");
    CHECK_EQ_STR(harness_str(end, "winner"), "black");
    CHECK_EQ_STR(harness_str(end, "from"), "d4");
    CHECK_EQ_STR(harness_str(end, "to"), "h4");
    cJSON *line = cJSON_GetObjectItem(end, "line");
    CHECK(cJSON_GetArraySize(line) == 5);
    for (int i = 0; i < cJSON_GetArraySize(line) && i < 5; i++) {
        cJSON *pt = cJSON_GetArrayItem(line, i);
        CHECK(cJSON_GetArrayItem(pt, 0)->valueint == 3 + i && cJSON_GetArrayItem(pt, 1)->valueint == 11);
    }
    cJSON_Delete(s);
    /* A resignation in the next game names the loser (the colours swapped: a plays white). */
    ws_send_text(&a.c, "{\"type\":\"new\"}");
    cJSON_Delete(harness_recv_type(&b.c, "state", HARNESS_WAIT_MS));
    harness_drain(&a.c);
    ws_send_text(&a.c, "{\"type\":\"resign\"}");
    s = harness_recv_type(&b.c, "state", HARNESS_WAIT_MS);
    end = s ? cJSON_GetObjectItem(s, "end") : NULL;
    CHECK_EQ_STR(harness_str(end, "reason"), "resign");
    CHECK_EQ_STR(harness_str(end, "loser"), "white");
    CHECK_EQ_STR(harness_str(end, "winner"), "black");
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);
}

/* The Reversi result is the library's (issue #11): 48-14 on the board with 2 empty
 * squares after 2 passes is "black wins 50-14" in the state, the stored game and the GGF
 * export (RE[+36]), as `renversi judge` says (tests/cli_game_result.sh). */
static void test_reversi_result(void) {
    static const char game[] = "e6f6c4c5b6e7f7b5b4f8g6a3e8a5a6c7a4g8f5f4c6h7g4d6h5h4h3h6h8g7c8b8g5a7"
                               "d8b7d7e3f2d3f3g3e2d1e1c2h2a8d2b3c1c3b2a2g2f1g1h1";
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    cJSON *s = NULL;
    char to_move[8] = "black";
    for (size_t i = 0; i + 1 < sizeof game; i += 2) {
        char mv[3] = {game[i], game[i + 1], 0};
        cJSON_Delete(s);
        s = move(!strcmp(to_move, "black") ? &a.c : &b.c, mv);
        if (!s) break;
        snprintf(to_move, sizeof to_move, "%s", s && harness_str(s, "to_move") ? harness_str(s, "to_move") : "");
        harness_drain(!strcmp(to_move, "black") ? &a.c : &b.c);
    }
    CHECK(s && harness_nmoves(s) == 60);
    CHECK(s && cJSON_IsTrue(cJSON_GetObjectItem(s, "over")));
    CHECK(s && !strcmp(harness_str(s, "result"), "black wins 50-14"));
    CHECK(s && !strcmp(harness_str(s, "winner"), "black"));
    cJSON *end = s ? cJSON_GetObjectItem(s, "end") : NULL;
    cJSON *sc = cJSON_GetObjectItem(end, "score"), *dc = cJSON_GetObjectItem(end, "discs");
    CHECK_EQ_STR(harness_str(end, "reason"), "score");
    CHECK(cJSON_GetArraySize(sc) == 2 && cJSON_GetArrayItem(sc, 0)->valueint == 50 &&
          cJSON_GetArrayItem(sc, 1)->valueint == 14);
    CHECK(cJSON_GetArraySize(dc) == 2 && cJSON_GetArrayItem(dc, 0)->valueint == 48 &&
          cJSON_GetArrayItem(dc, 1)->valueint == 14);
    int64_t id = s ? (int64_t)cJSON_GetObjectItem(s, "game_id")->valuedouble : 0;
    cJSON_Delete(s);
    char m[128];
    snprintf(m, sizeof m, "{\"type\":\"export\",\"id\":%lld,\"format\":\"ggf\"}", (long long)id);
    harness_drain(&b.c);
    ws_send_text(&b.c, m);
    cJSON *x = harness_recv_type(&b.c, "export", HARNESS_WAIT_MS);
    CHECK(x && strstr(harness_str(x, "text"), "RE[+36]"));
    cJSON_Delete(x);
    ws_send_text(&b.c, "{\"type\":\"list\"}");
    x = harness_recv_type(&b.c, "games", HARNESS_WAIT_MS);
    cJSON *g = cJSON_GetObjectItem(x, "games");
    int found = 0;
    for (int i = 0; i < cJSON_GetArraySize(g); i++) {
        cJSON *e = cJSON_GetArrayItem(g, i);
        if ((int64_t)cJSON_GetObjectItem(e, "id")->valuedouble != id) continue;
        found = 1;
        CHECK_EQ_STR(harness_str(e, "result"), "black wins 50-14");
    }
    CHECK(found);
    cJSON_Delete(x);
    ws_close(&a.c);
    ws_close(&b.c);
}

/*
 * A client that connects the moment a server is ready is answered. (With libwebsockets on
 * its libev loop, the protocols were set up by a timer armed only after the first event: a
 * connection that came first was left without its protocol, its messages held by the relay.
 * That happened to a few percent of fresh servers, so twenty are started here.)
 */
static void test_first_client(void) {
    char db[300];
    snprintf(db, sizeof db, "%s-first", db_path);
    int lost = 0;
    for (int i = 0; i < 20; i++) {
        harness_opts ho = {.db = db, .web = web_dir};
        int p = 0;
        pid_t pid = harness_start(&ho, &p);
        ws_conn c;
        if (p <= 0 || ws_open(&c, p, "/ws", "")) {
            CHECK_MSG(0, "fresh server %d did not start", i);
            harness_stop(pid, SIGKILL);
            continue;
        }
        ws_send_text(&c, "{\"type\":\"create\",\"variant\":\"freestyle\"}");
        cJSON *j = harness_recv_type(&c, "joined", HARNESS_WAIT_MS);
        lost += j == NULL;
        cJSON_Delete(j);
        ws_close(&c);
        CHECK_EQ_INT(harness_stop(pid, SIGTERM), 0);
    }
    CHECK_MSG(lost == 0, "%d of 20 fresh servers left their first client unanswered", lost);
    char f[320];
    unlink(db);
    snprintf(f, sizeof f, "%s-wal", db);
    unlink(f);
    snprintf(f, sizeof f, "%s-shm", db);
    unlink(f);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    snprintf(db_path, sizeof db_path, "/tmp/renversi-test-server-%d.db", (int)getpid());
#ifdef RV_WEB_DIR
    snprintf(web_dir, sizeof web_dir, "%s", RV_WEB_DIR);
#endif
    pid_t pid = start_server(&port);
    CHECK(pid > 0 && port > 0);
    if (port > 0) {
        test_seats_and_tokens();
        test_bad_input();
        test_error_codes();
        test_forbidden();
        test_reversi_and_records();
        test_reversi_result();
        test_ai_game();
        test_kill_restart(&pid);
        test_reversi_pass(&pid);
        test_first_client();
    }
    /* A clean stop on SIGTERM (and, in the sanitizer build, no leak). */
    CHECK_EQ_INT(harness_stop(pid, SIGTERM), 0);
    char p[300];
    unlink(db_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return test_finish();
}
