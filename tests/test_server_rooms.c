/*
 * `renversi serve` rooms beyond moves (docs/protocol-web.md): chat (limits, rate, storage,
 * history on join, replay), hints between players (off unless allowed, announced when used),
 * a declined undo announced, colours swapping on the next game, and the opening rules
 * (swap2, Soosõrv-8) between two players and against the computer, with every kind of bad
 * input refused with its code and changing nothing, and a restart in the middle of an opening.
 */
#include "rooms_harness.h"

/* Waits for a state whose opening step and move count are these (NULL on timeout). */
static cJSON *state_at(ws_conn *c, const char *step, int moves) {
    double end = harness_now() + HARNESS_WAIT_MS / 1000.0;
    for (;;) {
        int left = (int)((end - harness_now()) * 1000);
        cJSON *s = left > 0 ? harness_recv_type(c, "state", left) : NULL;
        if (!s) return NULL;
        const cJSON *o = cJSON_GetObjectItem(s, "opening");
        if (!strcmp(harness_str(o, "step"), step) && harness_nmoves(s) == moves) return s;
        cJSON_Delete(s);
    }
}

static const char *ostr(const cJSON *state, const char *k) {
    return harness_str(cJSON_GetObjectItem(state, "opening"), k);
}

/* The next event message (NULL on timeout). */
static cJSON *event(ws_conn *c) { return harness_recv_type(c, "event", HARNESS_WAIT_MS); }

static void send_(ws_conn *c, const char *m) { ws_send_text(c, m); }

/* ---------------------------------------------------------------- chat */

static void test_chat(void) {
    seat a, b, w;
    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    join(&w, a.room, "");
    CHECK_EQ_STR(w.seat, "spectator");
    harness_drain(&a.c);
    harness_drain(&b.c);
    /* Text arrives as sent, markup and all (the page shows it as text), to everyone. */
    send_(&a.c, "{\"type\":\"chat\",\"text\":\"  hi <b>&amp; \\\"you\\\"  \"}");
    ws_conn *all[3] = {&a.c, &b.c, &w.c};
    for (int i = 0; i < 3; i++) {
        cJSON *e = event(all[i]);
        CHECK(e && !strcmp(harness_str(e, "kind"), "chat") && !strcmp(harness_str(e, "who"), "black"));
        CHECK_MSG(e && !strcmp(harness_str(e, "text"), "hi <b>&amp; \"you\""), "text '%s'", harness_str(e, "text"));
        cJSON_Delete(e);
    }
    /* The spectator talks too; 200 Chinese characters (600 bytes) are within the limit. */
    char m[1200];
    int k = snprintf(m, sizeof m, "{\"type\":\"chat\",\"text\":\"");
    for (int i = 0; i < 200; i++) k += snprintf(m + k, sizeof m - (size_t)k, "好");
    snprintf(m + k, sizeof m - (size_t)k, "\"}");
    send_(&w.c, m);
    cJSON *e = event(&b.c);
    CHECK(e && !strcmp(harness_str(e, "who"), "spectator") && strlen(harness_str(e, "text")) == 600);
    cJSON_Delete(e);
    harness_drain(&a.c);
    harness_drain(&w.c);
    /* Bad chat: a code each, nothing stored or sent. */
    expect_error(&a.c, "{\"type\":\"chat\"}", "bad_request");
    expect_error(&a.c, "{\"type\":\"chat\",\"text\":42}", "bad_request");
    expect_error(&a.c, "{\"type\":\"chat\",\"text\":\"   \"}", "chat_empty");
    expect_error(&a.c, "{\"type\":\"chat\",\"text\":\"bell\\u0007\"}", "chat_bad_text");
    expect_error(&a.c, "{\"type\":\"chat\",\"text\":\"a\\nb\"}", "chat_bad_text");
    k = snprintf(m, sizeof m, "{\"type\":\"chat\",\"text\":\"");
    for (int i = 0; i < 201; i++) m[k++] = 'x';
    snprintf(m + k, sizeof m - (size_t)k, "\"}");
    send_(&a.c, m);
    e = harness_recv_type(&a.c, "error", HARNESS_WAIT_MS);
    CHECK(e && !strcmp(harness_str(e, "code"), "chat_too_long"));
    CHECK(e && cJSON_GetObjectItem(e, "max") && cJSON_GetObjectItem(e, "max")->valueint == 200);
    cJSON_Delete(e);
    cJSON *leak = harness_recv_type(&b.c, "event", 300);
    CHECK_MSG(leak == NULL, "a refused chat reached the room: %s", harness_str(leak, "text"));
    cJSON_Delete(leak);
    /* The chat rate: a burst of 5, then refused. */
    int ok = 0, limited = 0;
    for (int i = 0; i < 8; i++) {
        send_(&b.c, "{\"type\":\"chat\",\"text\":\"again\"}");
        cJSON *r = harness_recv_any(&b.c, HARNESS_WAIT_MS);
        while (r && strcmp(harness_str(r, "type"), "event") && strcmp(harness_str(r, "type"), "error")) {
            cJSON_Delete(r);
            r = harness_recv_any(&b.c, HARNESS_WAIT_MS);
        }
        if (r && !strcmp(harness_str(r, "type"), "event")) ok++;
        if (r && !strcmp(harness_str(r, "code"), "chat_rate")) limited++;
        cJSON_Delete(r);
    }
    CHECK_MSG(ok == 5 && limited == 3, "%d sent, %d limited", ok, limited);
    /* A newcomer gets the history: exactly the accepted lines, in order. */
    seat late;
    open_client(&late.c);
    char jm[128];
    snprintf(jm, sizeof jm, "{\"type\":\"join\",\"room\":\"%s\"}", a.room);
    send_(&late.c, jm);
    cJSON *h = harness_recv_type(&late.c, "events", HARNESS_WAIT_MS);
    cJSON *ev = cJSON_GetObjectItem(h, "events");
    CHECK_EQ_INT(cJSON_GetArraySize(ev), 7);
    CHECK(h && !strcmp(harness_str(cJSON_GetArrayItem(ev, 0), "text"), "hi <b>&amp; \"you\""));
    CHECK(h && !strcmp(harness_str(cJSON_GetArrayItem(ev, 6), "text"), "again"));
    cJSON_Delete(h);
    /* Chat is kept with the game: its replay has it. */
    harness_drain(&a.c);
    cJSON *s = move(&a.c, "h8");
    int game = s ? cJSON_GetObjectItem(s, "game_id")->valueint : 0;
    cJSON_Delete(s);
    snprintf(jm, sizeof jm, "{\"type\":\"replay\",\"id\":%d}", game);
    send_(&w.c, jm);
    cJSON *rp = harness_recv_type(&w.c, "replay", HARNESS_WAIT_MS);
    CHECK(rp && cJSON_GetArraySize(cJSON_GetObjectItem(rp, "events")) == 7);
    cJSON_Delete(rp);
    ws_conn nobody;
    open_client(&nobody);
    expect_error(&nobody, "{\"type\":\"chat\",\"text\":\"hello\"}", "no_room");
    ws_close(&nobody);
    ws_close(&late.c);
    ws_close(&a.c);
    ws_close(&b.c);
    ws_close(&w.c);
}

/* ---------------------------------------------------------------- hints, undo, next game */

static void test_room_rules(void) {
    seat a, b;
    /* Hints between players are off unless the creator allows them. */
    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    expect_error(&a.c, "{\"type\":\"hint\"}", "hint_off");
    expect_error(&a.c, "{\"type\":\"create\",\"variant\":\"freestyle\",\"hints\":\"yes\"}",
                 "bad_request");
    ws_close(&a.c);
    ws_close(&b.c);

    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\",\"hints\":true}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    send_(&a.c, "{\"type\":\"hint\"}");
    cJSON *h = harness_recv_type(&a.c, "hint", HARNESS_WAIT_MS);
    CHECK(h != NULL);
    cJSON_Delete(h);
    /* The other player sees that it was used. */
    cJSON *e = event(&b.c);
    CHECK(e && !strcmp(harness_str(e, "kind"), "hint") && !strcmp(harness_str(e, "who"), "black"));
    cJSON_Delete(e);
    cJSON *s = harness_recv_type(&b.c, "state", HARNESS_WAIT_MS);
    const cJSON *hints = s ? cJSON_GetObjectItem(s, "hints") : NULL;
    CHECK(hints && cJSON_IsTrue(cJSON_GetObjectItem(hints, "allowed")) &&
          cJSON_GetObjectItem(hints, "black")->valueint == 1);
    cJSON_Delete(s);

    /* A declined undo is announced to the asker. */
    cJSON_Delete(move(&a.c, "h8"));
    cJSON_Delete(move(&b.c, "i9"));
    harness_drain(&a.c);
    harness_drain(&b.c);
    send_(&a.c, "{\"type\":\"undo\"}");
    cJSON_Delete(harness_recv_type(&b.c, "state", HARNESS_WAIT_MS));
    send_(&b.c, "{\"type\":\"undo_reply\",\"accept\":false}");
    /* The state first (it clears the page's message), then the notice. */
    for (int i = 0; i < 3; i++) {
        s = harness_recv_type(&a.c, "state", HARNESS_WAIT_MS);
        if (!s || cJSON_IsNull(cJSON_GetObjectItem(s, "undo_request"))) break;
        cJSON_Delete(s);
    }
    CHECK(s && harness_nmoves(s) == 2 && cJSON_IsNull(cJSON_GetObjectItem(s, "undo_request")));
    cJSON_Delete(s);
    cJSON *n = harness_recv_type(&a.c, "notice", HARNESS_WAIT_MS);
    CHECK(n && !strcmp(harness_str(n, "code"), "undo_declined"));
    CHECK(n && !strcmp(harness_str(n, "by"), "white") && !strcmp(harness_str(n, "asker"), "black"));
    cJSON_Delete(n);

    /* The next game: colours swap, each seat follows its token. */
    harness_drain(&b.c);
    send_(&b.c, "{\"type\":\"resign\"}");
    cJSON_Delete(harness_recv_type(&a.c, "state", HARNESS_WAIT_MS));
    send_(&a.c, "{\"type\":\"new\"}");
    cJSON *ja = harness_recv_type(&a.c, "joined", HARNESS_WAIT_MS), *jb = harness_recv_type(&b.c, "joined", HARNESS_WAIT_MS);
    CHECK(ja && !strcmp(harness_str(ja, "seat"), "white") && !strcmp(harness_str(ja, "token"), a.token));
    CHECK(jb && !strcmp(harness_str(jb, "seat"), "black") && !strcmp(harness_str(jb, "token"), b.token));
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    s = harness_recv_type(&b.c, "state", HARNESS_WAIT_MS);
    CHECK(s && harness_nmoves(s) == 0);
    cJSON_Delete(s);
    cJSON_Delete(move(&b.c, "h8")); /* b now plays black */
    expect_error(&a.c, "{\"type\":\"move\",\"move\":\"h9\",\"ply\":0}", "stale");
    /* A reload with the token finds the swapped seat. */
    ws_close(&a.c);
    seat a2;
    join(&a2, a.room, a.token);
    CHECK_EQ_STR(a2.seat, "white");
    ws_close(&a2.c);
    ws_close(&b.c);
}

/* ---------------------------------------------------------------- swap2 between players */

/* Sends a bad message: its error code, and no new state reaches the other player. */
static void refused(ws_conn *c, ws_conn *other, const char *msg, const char *code) {
    harness_drain(other);
    expect_error(c, msg, code);
    cJSON *leak = harness_recv_type(other, "state", 200);
    CHECK_MSG(leak == NULL, "%s changed the room", msg);
    cJSON_Delete(leak);
}

static void test_swap2_online(void) {
    seat a, b, w;
    ws_conn x;
    open_client(&x);
    expect_error(&x, "{\"type\":\"create\",\"variant\":\"freestyle\",\"opening\":\"soosorv8\"}", "bad_opening");
    expect_error(&x, "{\"type\":\"create\",\"variant\":\"reversi\",\"opening\":\"swap2\"}", "bad_opening");
    expect_error(&x, "{\"type\":\"create\",\"variant\":\"renju\",\"size\":13,\"opening\":\"soosorv8\"}", "bad_opening");
    expect_error(&x, "{\"type\":\"create\",\"opening\":\"yamaguchi\"}", "bad_opening");
    expect_error(&x, "{\"type\":\"opening\",\"choice\":\"black\"}", "no_room");
    ws_close(&x);

    create(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\",\"opening\":\"swap2\"}");
    join(&b, a.room, "");
    join(&w, a.room, "");
    harness_drain(&a.c);
    harness_drain(&b.c);
    /* The opener places black, white, black. */
    refused(&b.c, &a.c, "{\"type\":\"move\",\"move\":\"h8\"}", "not_your_turn");
    refused(&a.c, &b.c, "{\"type\":\"opening\",\"choice\":\"black\"}", "opening_step");
    refused(&a.c, &b.c, "{\"type\":\"undo\"}", "opening_undo");
    const char *stones[] = {"h8", "i9", "g10"};
    cJSON *s = NULL;
    for (int i = 0; i < 3; i++) {
        cJSON_Delete(s);
        s = move(&a.c, stones[i]);
        CHECK(s && harness_nmoves(s) == i + 1);
    }
    CHECK(s && !strcmp(ostr(s, "step"), "choose") && !strcmp(ostr(s, "actor"), "white"));
    CHECK(s && !strcmp(harness_str(s, "turn"), "white"));
    CHECK(s && cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "opening"), "choices")) == 3);
    cJSON_Delete(s);
    harness_drain(&b.c);
    harness_drain(&w.c);
    /* Bad opening messages: a code each; the room does not change. */
    refused(&a.c, &b.c, "{\"type\":\"opening\",\"choice\":\"white\"}", "not_your_turn");
    refused(&w.c, &b.c, "{\"type\":\"opening\",\"choice\":\"white\"}", "not_seated");
    refused(&b.c, &a.c, "{\"type\":\"opening\"}", "bad_request");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"choice\":\"white\",\"declare\":2}", "bad_request");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"choice\":\"purple\"}", "bad_request");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"choice\":7}", "bad_request");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"declare\":3}", "opening_step");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"declare\":2.5}", "bad_request");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"offer\":[\"h9\"]}", "opening_step");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"offer\":\"h9\"}", "bad_request");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"offer\":[\"zz\"]}", "bad_move");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"select\":\"h9\"}", "opening_step");
    refused(&b.c, &a.c, "{\"type\":\"move\",\"move\":\"j10\"}", "opening_step");
    refused(&b.c, &a.c, "{\"type\":\"hint\"}", "hint_off");
    /* Two more stones, then the opener chooses. */
    send_(&b.c, "{\"type\":\"opening\",\"choice\":\"plus2\"}");
    s = state_at(&a.c, "place", 3);
    CHECK(s && !strcmp(ostr(s, "actor"), "white"));
    cJSON_Delete(s);
    cJSON *e = event(&w.c);
    CHECK(e && !strcmp(harness_str(e, "kind"), "choose") && !strcmp(harness_str(e, "text"), "plus2"));
    cJSON_Delete(e);
    cJSON_Delete(move(&b.c, "j7"));
    refused(&b.c, &a.c, "{\"type\":\"move\",\"move\":\"j7\"}", "occupied");
    refused(&b.c, &a.c, "{\"type\":\"move\",\"x\":30,\"y\":2}", "bad_request");
    cJSON_Delete(move(&b.c, "f6"));
    s = state_at(&a.c, "choose", 5);
    CHECK(s && !strcmp(ostr(s, "actor"), "black"));
    cJSON_Delete(s);
    harness_drain(&b.c);
    refused(&a.c, &b.c, "{\"type\":\"opening\",\"choice\":\"plus2\"}", "opening_choice");
    /* The opener takes white: the seats follow the players. */
    send_(&a.c, "{\"type\":\"opening\",\"choice\":\"white\"}");
    cJSON *ja = harness_recv_type(&a.c, "joined", HARNESS_WAIT_MS), *jb = harness_recv_type(&b.c, "joined", HARNESS_WAIT_MS);
    CHECK(ja && !strcmp(harness_str(ja, "seat"), "white"));
    CHECK(jb && !strcmp(harness_str(jb, "seat"), "black"));
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    s = state_at(&a.c, "play", 5);
    CHECK(s && !strcmp(harness_str(s, "turn"), "white") && cJSON_GetObjectItem(cJSON_GetObjectItem(s, "opening"), "locked")->valueint == 5);
    cJSON_Delete(s);
    refused(&a.c, &b.c, "{\"type\":\"opening\",\"choice\":\"white\"}", "opening_over");
    cJSON_Delete(move(&a.c, "k11")); /* a plays white's 6th */
    cJSON_Delete(move(&b.c, "e5"));
    /* Undo stops at the opening: a's k11 may go, nothing before move 6. */
    harness_drain(&a.c);
    harness_drain(&b.c);
    ws_close(&a.c);
    ws_close(&b.c);
    ws_close(&w.c);
}

/* ---------------------------------------------------------------- Soosõrv-8 between players */

static void test_soosorv_online(pid_t *pid) {
    seat a, b;
    create(&a, "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"online\",\"opening\":\"soosorv8\"}");
    join(&b, a.room, "");
    harness_drain(&a.c);
    refused(&a.c, &b.c, "{\"type\":\"move\",\"move\":\"a1\"}", "opening_area");
    cJSON_Delete(move(&a.c, "h8"));
    refused(&a.c, &b.c, "{\"type\":\"move\",\"move\":\"j8\"}", "opening_area");
    cJSON_Delete(move(&a.c, "h9"));
    refused(&a.c, &b.c, "{\"type\":\"move\",\"move\":\"h11\"}", "opening_area");
    cJSON_Delete(move(&a.c, "h10"));
    /* White's holder stays white, declares two fifth moves, plays the 4th on h15. */
    harness_drain(&b.c);
    send_(&b.c, "{\"type\":\"opening\",\"choice\":\"white\"}");
    cJSON_Delete(state_at(&b.c, "declare", 3));
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"declare\":9}", "opening_declare");
    refused(&b.c, &a.c, "{\"type\":\"opening\",\"declare\":0}", "opening_declare");
    send_(&b.c, "{\"type\":\"opening\",\"declare\":2}");
    cJSON_Delete(state_at(&b.c, "place", 3));
    cJSON_Delete(move(&b.c, "h15"));
    cJSON *s = state_at(&a.c, "choose", 4);
    CHECK(s && !strcmp(ostr(s, "actor"), "black"));
    CHECK(s && cJSON_GetObjectItem(cJSON_GetObjectItem(s, "opening"), "declared")->valueint == 2);
    cJSON_Delete(s);

    /* kill -9 and a restart in the middle of the opening: it comes back where it was. */
    harness_stop(*pid, SIGKILL);
    *pid = start_server(&port);
    CHECK(*pid > 0 && port > 0);
    ws_close(&a.c);
    ws_close(&b.c);
    seat a2, b2;
    join(&a2, a.room, a.token);
    join(&b2, a.room, b.token);
    harness_drain(&a2.c);
    send_(&a2.c, "{\"type\":\"ping\"}");
    send_(&b2.c, "{\"type\":\"opening\",\"choice\":\"black\"}"); /* not b's turn */
    cJSON *err = harness_recv_type(&b2.c, "error", HARNESS_WAIT_MS);
    CHECK(err && !strcmp(harness_str(err, "code"), "not_your_turn"));
    cJSON_Delete(err);
    send_(&a2.c, "{\"type\":\"opening\",\"choice\":\"black\"}");
    s = state_at(&a2.c, "offer", 4);
    CHECK(s != NULL);
    cJSON_Delete(s);
    harness_drain(&b2.c);
    /* Offers: exactly two, on free points, not mirror images across column h. */
    refused(&a2.c, &b2.c, "{\"type\":\"opening\",\"offer\":[\"g8\"]}", "opening_count");
    refused(&a2.c, &b2.c, "{\"type\":\"opening\",\"offer\":[\"g8\",\"j8\",\"k8\"]}", "opening_count");
    refused(&a2.c, &b2.c, "{\"type\":\"opening\",\"offer\":[\"g8\",\"i8\"]}", "opening_symmetric");
    refused(&a2.c, &b2.c, "{\"type\":\"opening\",\"offer\":[\"g8\",\"h9\"]}", "occupied");
    refused(&a2.c, &b2.c, "{\"type\":\"opening\",\"offer\":[\"g8\",\"g8\"]}", "occupied");
    refused(&a2.c, &b2.c, "{\"type\":\"opening\",\"offer\":[1,2]}", "bad_move");
    send_(&a2.c, "{\"type\":\"opening\",\"offer\":[\"g8\",\"j9\"]}");
    s = state_at(&b2.c, "select", 4);
    const cJSON *offers = s ? cJSON_GetObjectItem(cJSON_GetObjectItem(s, "opening"), "offers") : NULL;
    CHECK(cJSON_GetArraySize(offers) == 2);
    CHECK(offers && !strcmp(cJSON_GetArrayItem(cJSON_GetArrayItem(offers, 1), 2)->valuestring, "j9"));
    cJSON_Delete(s);
    harness_drain(&a2.c);
    refused(&b2.c, &a2.c, "{\"type\":\"opening\",\"select\":\"k9\"}", "opening_not_offered");
    /* White picks j9 by clicking it: black's 5th; white plays the 6th. */
    s = move(&b2.c, "j9");
    CHECK(s && harness_nmoves(s) == 5 && !strcmp(ostr(s, "step"), "play") && !strcmp(harness_str(s, "turn"), "white"));
    cJSON_Delete(s);
    s = move(&b2.c, "k11");
    CHECK(s && harness_nmoves(s) == 6);
    cJSON_Delete(s);
    /* The replay lists the choices with the moves. */
    int game = 0;
    harness_drain(&a2.c);
    send_(&a2.c, "{\"type\":\"resign\"}");
    s = harness_recv_type(&a2.c, "state", HARNESS_WAIT_MS);
    if (s) game = cJSON_GetObjectItem(s, "game_id")->valueint;
    cJSON_Delete(s);
    char m[64];
    snprintf(m, sizeof m, "{\"type\":\"replay\",\"id\":%d}", game);
    send_(&a2.c, m);
    cJSON *rp = harness_recv_type(&a2.c, "replay", HARNESS_WAIT_MS);
    cJSON *ev = rp ? cJSON_GetObjectItem(rp, "events") : NULL;
    CHECK_EQ_INT(cJSON_GetArraySize(ev), 4); /* choose, declare, choose, offer */
    CHECK(ev && !strcmp(harness_str(cJSON_GetArrayItem(ev, 3), "text"), "g8 j9"));
    cJSON_Delete(rp);
    ws_close(&a2.c);
    ws_close(&b2.c);
}

/* ---------------------------------------------------------------- against the computer */

/* Plays my side of an opening (whatever is asked of my seat) until it is over. */
static cJSON *play_opening(seat *me, int *my_acts) {
    for (int i = 0; i < 400; i++) {
        cJSON *j = harness_recv_any(&me->c, 30000);
        if (!j) return NULL;
        const char *t = harness_str(j, "type");
        if (!strcmp(t, "joined")) snprintf(me->seat, sizeof me->seat, "%s", harness_str(j, "seat"));
        if (!strcmp(t, "error")) fprintf(stderr, "opening: %s\n", harness_str(j, "message"));
        if (strcmp(t, "state") || cJSON_IsTrue(cJSON_GetObjectItem(j, "thinking"))) {
            cJSON_Delete(j);
            continue;
        }
        const char *step = ostr(j, "step");
        if (!strcmp(step, "play")) return j;
        if (strcmp(harness_str(j, "turn"), me->seat)) {
            cJSON_Delete(j);
            continue;
        }
        int n = harness_nmoves(j);
        char m[160];
        if (!strcmp(step, "place")) {
            /* h8, i9, j10 for the opener (inside every area), elsewhere two far points. */
            static const char *const pts[] = {"h8", "i9", "j10", "c3", "m13"};
            snprintf(m, sizeof m, "{\"type\":\"move\",\"move\":\"%s\"}", pts[n]);
        } else if (!strcmp(step, "choose")) {
            snprintf(m, sizeof m, "{\"type\":\"opening\",\"choice\":\"%s\"}",
                     n == 3 && cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "opening"), "choices")) == 3
                         ? "plus2" : "black");
        } else if (!strcmp(step, "declare")) {
            snprintf(m, sizeof m, "{\"type\":\"opening\",\"declare\":2}");
        } else if (!strcmp(step, "offer")) {
            /* Far from the stones and from each other's mirror images. */
            static const char *const far[] = {"b2", "n3", "c14", "m12", "b9", "n7", "f2", "k14"};
            int d = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "opening"), "declared")->valueint;
            int k = snprintf(m, sizeof m, "{\"type\":\"opening\",\"offer\":[");
            for (int q = 0; q < d && q < 8; q++)
                k += snprintf(m + k, sizeof m - (size_t)k, "%s\"%s\"", q ? "," : "", far[q]);
            snprintf(m + k, sizeof m - (size_t)k, "]}");
        } else {
            const cJSON *off = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "opening"), "offers");
            snprintf(m, sizeof m, "{\"type\":\"opening\",\"select\":\"%s\"}",
                     cJSON_GetArrayItem(cJSON_GetArrayItem(off, 0), 2)->valuestring);
        }
        (*my_acts)++;
        send_(&me->c, m);
        cJSON_Delete(j);
    }
    return NULL;
}

static void opening_vs_ai(const char *create_msg, int want_moves_min, int want_moves_max) {
    seat a;
    open_client(&a.c);
    ws_send_text(&a.c, create_msg);
    cJSON *j = harness_recv_type(&a.c, "joined", HARNESS_WAIT_MS);
    CHECK(j != NULL);
    snprintf(a.seat, sizeof a.seat, "%s", harness_str(j, "seat"));
    cJSON_Delete(j);
    int mine = 0;
    cJSON *s = play_opening(&a, &mine);
    CHECK_MSG(s != NULL, "%s: the opening did not end", create_msg);
    int n = s ? harness_nmoves(s) : 0;
    CHECK_MSG(n >= want_moves_min && n <= want_moves_max, "%s: %d moves", create_msg, n);
    /* The computer acted too: I did not make every step. */
    CHECK_MSG(mine >= 1 && mine < 9, "%s: %d acts of mine", create_msg, mine);
    cJSON_Delete(s);
    ws_close(&a.c);
}

static void test_openings_vs_ai(void) {
    /* I hold white: the computer opens, I ask for two more stones, it chooses later. */
    opening_vs_ai("{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"ai\",\"color\":\"white\","
                  "\"level\":1,\"opening\":\"swap2\"}", 3, 7);
    /* I open; the computer decides. */
    opening_vs_ai("{\"type\":\"create\",\"variant\":\"standard\",\"mode\":\"ai\",\"color\":\"black\","
                  "\"level\":1,\"opening\":\"swap2\"}", 3, 7);
    opening_vs_ai("{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"ai\",\"color\":\"black\","
                  "\"level\":1,\"opening\":\"soosorv8\"}", 5, 7);
    opening_vs_ai("{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"ai\",\"color\":\"white\","
                  "\"level\":1,\"opening\":\"soosorv8\"}", 5, 7);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    /* tests/cli_store_pg.sh runs the same cases on PostgreSQL (RV_TEST_ROOMS_DB, a URL):
       there every action goes through the server's store worker. */
    const char *db = getenv("RV_TEST_ROOMS_DB");
    if (db && *db) snprintf(db_path, sizeof db_path, "%s", db);
    else snprintf(db_path, sizeof db_path, "/tmp/renversi-test-rooms-%d.db", (int)getpid());
#ifdef RV_WEB_DIR
    snprintf(web_dir, sizeof web_dir, "%s", RV_WEB_DIR);
#endif
    pid_t pid = start_server(&port);
    CHECK(pid > 0 && port > 0);
    if (port > 0) {
        test_chat();
        test_room_rules();
        test_swap2_online();
        test_soosorv_online(&pid);
        test_openings_vs_ai();
    }
    CHECK_EQ_INT(harness_stop(pid, SIGTERM), 0);
    if (db && *db) return test_finish();
    char p[300];
    unlink(db_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return test_finish();
}
