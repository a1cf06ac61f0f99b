/*
 * Several `renversi serve` instances on one PostgreSQL database (run by
 * tests/cli_store_pg.sh beside a throwaway cluster; RV_TEST_PG names it). Real servers in
 * child processes on loopback ports, real WebSocket clients:
 *   - two players and a spectator, each on another instance, play a game to its end (with
 *     an undo asked on one instance and accepted on another), then both ask for the next
 *     game at once on two instances: one starts, the colours swap once;
 *   - two connections of the same seat on two instances send a move for the same turn at
 *     the same moment, round after round: exactly one is committed each time;
 *   - a game against the computer whose move is thought by whichever instance claims it;
 *   - kill -9 of an instance at a random moment of a game, or while the computer thinks,
 *     ten times: the clients come back through another instance, no acknowledged move is
 *     lost and none is applied twice;
 *   - presence (seats taken, spectators) and chat lines reach the clients of the other
 *     instances live; an instance killed (-9) stops counting when it falls silent;
 *   - a swap2 opening played across instances: choices heard live, seats follow tokens;
 *   - the database stopped and started again (RV_PG_CTL): /readyz says 503, an action is
 *     refused as `unavailable` and not stored, and after the restart the game goes on,
 *     every instance's clients see it and each instance creates rooms again.
 * Usage: pg_cluster [SEED]
 */
#include "server_harness.h"
#include "test.h"

#define NINST 3

static char db_url[1024];
static char web_dir[256];
static pid_t pids[NINST];
static int ports[NINST];

/* Starts instance I (a server in a child process on a free port). */
static void start_instance(int i) {
    harness_opts ho = {.db = db_url, .web = web_dir, .ai_lease_s = 2};
    pids[i] = harness_start(&ho, &ports[i]);
    CHECK_MSG(ports[i] > 0, "instance %d did not start", i);
}

/* Stops instance I with SIG; its exit code (-1 when the signal killed it). */
static int stop_instance(int i, int sig) {
    if (pids[i] <= 0) return -1;
    int code = harness_stop(pids[i], sig);
    pids[i] = 0;
    return code;
}

/* ---------------------------------------------------------------- client helpers */

static int has_move(const cJSON *state, const char *pt) {
    cJSON *mv = cJSON_GetObjectItem(state, "moves");
    for (int i = 0; i < cJSON_GetArraySize(mv); i++)
        if (!strcmp(cJSON_GetArrayItem(mv, i)->valuestring, pt)) return 1;
    return 0;
}

static int64_t now_ms(void) { return (int64_t)(harness_now() * 1000); }

/* How long a client may wait for its instance to show another instance's change: a guard
   against a hang, not a measure (the notice and the re-read take their time on a loaded
   machine). */
#define HEAR_MS 30000

/* States until one with N moves; NULL after TIMEOUT_MS. */
static cJSON *recv_state_n(ws_conn *c, int n, int timeout_ms) {
    int64_t end = now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - now_ms());
        cJSON *j = left > 0 ? harness_recv_type(c, "state", left) : NULL;
        if (!j || harness_nmoves(j) == n) return j;
        cJSON_Delete(j);
    }
}

/* States until one where PRED holds; NULL after TIMEOUT_MS. */
static cJSON *recv_state_where(ws_conn *c, int (*pred)(const cJSON *, int), int arg,
                               int timeout_ms) {
    int64_t end = now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - now_ms());
        cJSON *j = left > 0 ? harness_recv_type(c, "state", left) : NULL;
        if (!j || pred(j, arg)) return j;
        cJSON_Delete(j);
    }
}

/* White asks to take a move back (for recv_state_where). */
static int undo_asked_by_white(const cJSON *s, int unused) {
    (void)unused;
    return !strcmp(harness_str(s, "undo_request"), "white");
}

static int open_on(seat *s, int inst) {
    s->inst = inst;
    int ok = ws_open(&s->c, ports[inst], "/ws", "") == 0;
    CHECK_MSG(ok, "cannot connect to instance %d (port %d)", inst, ports[inst]);
    return ok ? 0 : -1;
}

static void create_on(seat *s, int inst, const char *json) {
    memset(s, 0, sizeof *s);
    if (open_on(s, inst)) return;
    ws_send_text(&s->c, json);
    harness_read_joined(s);
    cJSON_Delete(harness_recv_type(&s->c, "state", HEAR_MS));
}

static void join_on(seat *s, int inst, const char *room, const char *token) {
    memset(s, 0, sizeof *s);
    if (open_on(s, inst)) return;
    char m[256];
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room, token);
    ws_send_text(&s->c, m);
    harness_read_joined(s);
}

static void send_move(seat *s, const char *pt) {
    char m[96];
    snprintf(m, sizeof m, "{\"type\":\"move\",\"move\":\"%s\"}", pt);
    ws_send_text(&s->c, m);
}

/* The answer to this client's move PT: 1 a state that has it, 0 an error, -1 nothing. */
static int move_answer(seat *s, const char *pt, cJSON **state) {
    int64_t end = now_ms() + HEAR_MS;
    for (;;) {
        int left = (int)(end - now_ms());
        cJSON *j = left > 0 ? harness_recv_any(&s->c, left) : NULL;
        if (!j) return -1;
        if (!strcmp(harness_str(j, "type"), "error")) {
            fprintf(stderr, "move %s on instance %d: error %s (%s)\n", pt, s->inst,
                    harness_str(j, "code"), harness_str(j, "message"));
            cJSON_Delete(j);
            return 0;
        }
        if (!strcmp(harness_str(j, "type"), "state") && has_move(j, pt)) {
            if (state) *state = j;
            else cJSON_Delete(j);
            return 1;
        }
        cJSON_Delete(j);
    }
}

/* Plays PT and returns the state that has it (NULL on error or timeout). */
static cJSON *play(seat *s, const char *pt) {
    send_move(s, pt);
    cJSON *st = NULL;
    return move_answer(s, pt, &st) == 1 ? st : NULL;
}

/* ---------------------------------------------------------------- cases */

static void test_three_instances(void) {
    seat a, b, w;
    create_on(&a, 0, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join_on(&b, 1, a.room, "");
    /* The spectator's ping sent right behind its join waits for the join (the store
       worker reads the room): joined and events come before the pong (the state is sent
       when the server's turn of work ends, so it may come after). */
    memset(&w, 0, sizeof w);
    if (open_on(&w, 2) == 0) {
        char m[160];
        snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\"}", a.room);
        ws_send_text(&w.c, m);
        ws_send_text(&w.c, "{\"type\":\"ping\",\"id\":7}");
        char seen[128] = "";
        for (int k = 0; k < 4; k++) {
            cJSON *j = harness_recv_any(&w.c, HEAR_MS);
            const char *t = j ? harness_str(j, "type") : "(none)";
            if (j && !strcmp(t, "joined")) snprintf(w.seat, sizeof w.seat, "%s", harness_str(j, "seat"));
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s ", t);
            int last = !j || !strcmp(t, "pong");
            cJSON_Delete(j);
            if (last) break;
        }
        CHECK_MSG(!strncmp(seen, "joined ", 7) && strstr(seen, "events ") &&
                      strstr(seen, "events ") < strstr(seen, "pong"),
                  "messages after a join and a ping: %s", seen);
    }
    CHECK_EQ_STR(a.seat, "black");
    CHECK_EQ_STR(b.seat, "white");
    CHECK_EQ_STR(w.seat, "spectator");
    harness_drain(&a.c);
    harness_drain(&b.c);
    harness_drain(&w.c);
    const char *seq[] = {"h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"};
    for (int i = 0; i < 8; i++) {
        seat *mover = i % 2 ? &b : &a, *other = i % 2 ? &a : &b;
        cJSON *s = play(mover, seq[i]);
        CHECK_MSG(s && harness_nmoves(s) == i + 1, "move %d %s on instance %d", i + 1, seq[i], mover->inst);
        cJSON_Delete(s);
        /* The other player and the spectator hear of it through their own instances. */
        s = recv_state_n(&other->c, i + 1, HEAR_MS);
        CHECK_MSG(s && has_move(s, seq[i]), "instance %d did not show %s", other->inst, seq[i]);
        cJSON_Delete(s);
        s = recv_state_n(&w.c, i + 1, HEAR_MS);
        CHECK_MSG(s && has_move(s, seq[i]), "the spectator did not see %s", seq[i]);
        cJSON_Delete(s);
    }
    /* White (instance 1) asks to take a4 back; black (instance 0) sees it and accepts. */
    ws_send_text(&b.c, "{\"type\":\"undo\"}");
    cJSON *s = recv_state_where(&a.c, undo_asked_by_white, 0, HEAR_MS);
    CHECK_MSG(s != NULL, "black did not see the request");
    cJSON_Delete(s);
    ws_send_text(&a.c, "{\"type\":\"undo_reply\",\"accept\":true}");
    s = recv_state_n(&b.c, 7, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(s, "to_move"), "white"), "white did not get its move back");
    cJSON_Delete(s);
    s = recv_state_n(&w.c, 7, HEAR_MS);
    CHECK_MSG(s != NULL, "the spectator did not see the undo");
    cJSON_Delete(s);
    harness_drain(&a.c);
    /* White plays elsewhere; black completes five once its instance has shown b5 (sent
       before, l8 would meet a copy of the room where it is still white's turn). */
    s = play(&b, "b5");
    CHECK(s != NULL);
    cJSON_Delete(s);
    s = recv_state_n(&a.c, 8, HEAR_MS);
    CHECK_MSG(s && has_move(s, "b5"), "instance 0 did not show b5");
    cJSON_Delete(s);
    s = play(&a, "l8");
    CHECK(s && cJSON_IsTrue(cJSON_GetObjectItem(s, "over")));
    cJSON_Delete(s);
    s = recv_state_n(&w.c, 9, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(s, "winner"), "black"), "the spectator's last state: %s",
              s ? harness_str(s, "result") : "(none)");
    cJSON_Delete(s);
    s = recv_state_n(&b.c, 9, HEAR_MS);
    CHECK(s && cJSON_IsTrue(cJSON_GetObjectItem(s, "over")));
    cJSON_Delete(s);
    /* No more moves, on any instance. */
    send_move(&b, "c5");
    CHECK_EQ_INT(move_answer(&b, "c5", NULL), 0);
    /* The finished game is in every instance's list, and replays with its nine moves. */
    harness_drain(&w.c);
    ws_send_text(&w.c, "{\"type\":\"list\"}");
    cJSON *games = harness_recv_type(&w.c, "games", HEAR_MS);
    double gid = 0;
    cJSON *g, *list = games ? cJSON_GetObjectItem(games, "games") : NULL;
    cJSON_ArrayForEach(g, list)
        if (cJSON_GetObjectItem(g, "nmoves") && cJSON_GetObjectItem(g, "nmoves")->valueint == 9)
            gid = cJSON_GetObjectItem(g, "id")->valuedouble;
    CHECK_MSG(gid > 0, "the list has no game of nine moves");
    cJSON_Delete(games);
    char rq[96];
    snprintf(rq, sizeof rq, "{\"type\":\"replay\",\"id\":%.0f}", gid);
    ws_send_text(&a.c, rq);
    cJSON *rp = harness_recv_type(&a.c, "replay", HEAR_MS);
    CHECK_MSG(rp && cJSON_GetArraySize(cJSON_GetObjectItem(rp, "steps")) == 9, "replay of game %.0f", gid);
    cJSON_Delete(rp);
    /* Both players ask for the next game at the same moment, on two instances: one game
       starts and the colours swap once (the swap and the game are one transaction; the
       later `new` finds the game started and is refused, or is the one that started it). */
    harness_drain(&a.c);
    harness_drain(&b.c);
    harness_drain(&w.c);
    ws_send_text(&a.c, "{\"type\":\"new\"}");
    ws_send_text(&b.c, "{\"type\":\"new\"}");
    cJSON *ja = harness_recv_type(&a.c, "joined", HEAR_MS), *jb = harness_recv_type(&b.c, "joined", HEAR_MS);
    CHECK_MSG(ja && !strcmp(harness_str(ja, "seat"), "white"), "the old black is now %s",
              ja ? harness_str(ja, "seat") : "(no joined)");
    CHECK_MSG(jb && !strcmp(harness_str(jb, "seat"), "black"), "the old white is now %s",
              jb ? harness_str(jb, "seat") : "(no joined)");
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    s = recv_state_n(&w.c, 0, HEAR_MS);
    CHECK_MSG(s && !cJSON_IsTrue(cJSON_GetObjectItem(s, "over")), "the spectator saw no new game");
    cJSON_Delete(s);
    /* Settled: no second swap, and the new black (on instance 1) opens the game. */
    usleep(500 * 1000);
    for (seat *p = &a; p; p = p == &a ? &b : NULL) {
        cJSON *j;
        while ((j = harness_recv_any(&p->c, 200))) {
            CHECK_MSG(strcmp(harness_str(j, "type"), "joined") != 0, "a second swap on instance %d",
                      p->inst);
            if (!strcmp(harness_str(j, "type"), "error"))
                CHECK_EQ_STR(harness_str(j, "code"), "in_progress");
            cJSON_Delete(j);
        }
    }
    s = play(&b, "h8");
    CHECK_MSG(s && harness_nmoves(s) == 1, "the new black could not open the new game");
    cJSON_Delete(s);
    s = recv_state_n(&a.c, 1, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(s, "to_move"), "white"), "the new white did not see h8");
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);
    ws_close(&w.c);
}

static int spectators_are(const cJSON *s, int n) {
    return cJSON_GetObjectItem(s, "spectators")->valueint == n;
}

static int white_present(const cJSON *s, int yes) {
    return cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "present"), "white")) == yes;
}

/* Both seats taken by someone connected and N spectators. */
static int all_here(const cJSON *s, int n) {
    const cJSON *p = cJSON_GetObjectItem(s, "present");
    return spectators_are(s, n) && cJSON_IsTrue(cJSON_GetObjectItem(p, "black")) &&
           cJSON_IsTrue(cJSON_GetObjectItem(p, "white"));
}

static int step_is_place_3(const cJSON *s, int unused) {
    (void)unused;
    return !strcmp(harness_str(cJSON_GetObjectItem(s, "opening"), "step"), "place") && harness_nmoves(s) == 3;
}

/*
 * The next `event` message of KIND. Another instance's event and its state change reach a
 * client through two notices in either order: the first state meeting PRED(ARG) seen on the
 * way is kept in *STATE (when STATE is not NULL and *STATE is still NULL); other messages are
 * dropped.
 */
static cJSON *recv_event_keep(ws_conn *c, const char *kind, int timeout_ms,
                              int (*pred)(const cJSON *, int), int arg, cJSON **state) {
    int64_t end = now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - now_ms());
        cJSON *j = left > 0 ? harness_recv_any(c, left) : NULL;
        if (!j) return NULL;
        const char *type = harness_str(j, "type");
        if (!strcmp(type, "event") && !strcmp(harness_str(j, "kind"), kind)) return j;
        if (state && !*state && !strcmp(type, "state") && pred(j, arg)) {
            *state = j;
            continue;
        }
        cJSON_Delete(j);
    }
}

/* The next `event` message of KIND (other messages dropped). */
static cJSON *recv_event(ws_conn *c, const char *kind, int timeout_ms) {
    return recv_event_keep(c, kind, timeout_ms, NULL, 0, NULL);
}

/*
 * Presence and chat across instances: black on 0, white on 1, a spectator on 2. Each sees
 * the others' seats taken and the spectator counted; a chat line said on 1 reaches 0 and 2
 * at once; the spectator leaving and white's instance killed (-9) show on 0.
 */
static void test_presence_chat(void) {
    seat a, b, w;
    create_on(&a, 0, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join_on(&b, 1, a.room, "");
    join_on(&w, 2, a.room, "");
    cJSON *s = recv_state_where(&a.c, all_here, 1, HEAR_MS);
    CHECK_MSG(s != NULL, "instance 0 did not count white on 1 and the spectator on 2");
    cJSON_Delete(s);
    s = recv_state_where(&b.c, all_here, 1, HEAR_MS);
    CHECK_MSG(s != NULL, "instance 1 did not count black on 0 and the spectator on 2");
    cJSON_Delete(s);
    harness_drain(&w.c);
    ws_send_text(&b.c, "{\"type\":\"chat\",\"text\":\"hello from one\"}");
    cJSON *e = recv_event(&a.c, "chat", HEAR_MS);
    CHECK_MSG(e && !strcmp(harness_str(e, "text"), "hello from one") && !strcmp(harness_str(e, "who"), "white"),
              "black on instance 0 did not hear white's chat line live");
    cJSON_Delete(e);
    e = recv_event(&w.c, "chat", HEAR_MS);
    CHECK_MSG(e && !strcmp(harness_str(e, "text"), "hello from one"), "the spectator on 2 did not hear it");
    cJSON_Delete(e);
    e = recv_event(&b.c, "chat", HEAR_MS);
    CHECK_MSG(e && !strcmp(harness_str(e, "text"), "hello from one"), "white did not get its own line");
    cJSON_Delete(e);
    /* Said once: nobody hears it twice. */
    e = recv_event(&a.c, "chat", 700);
    CHECK_MSG(e == NULL, "black heard the line twice");
    cJSON_Delete(e);
    ws_close(&w.c);
    s = recv_state_where(&a.c, spectators_are, 0, HEAR_MS);
    CHECK_MSG(s != NULL, "the spectator's leaving (instance 2) did not show on instance 0");
    cJSON_Delete(s);
    /* White's instance dies without a word: its client counts go when it falls silent
       (15 s, SRV_PRESENCE_LOST_MS, seen at the next 5 s beat; then the hang guard). */
    stop_instance(1, SIGKILL);
    s = recv_state_where(&a.c, white_present, 0, 20000 + HEAR_MS);
    CHECK_MSG(s != NULL, "white still shown present after its instance was killed");
    cJSON_Delete(s);
    ws_close(&b.c);
    start_instance(1);
    /* White comes back through instance 2. */
    char tok[80];
    snprintf(tok, sizeof tok, "%s", b.token);
    join_on(&b, 2, a.room, tok);
    CHECK_EQ_STR(b.seat, "white");
    s = recv_state_where(&a.c, white_present, 1, HEAR_MS);
    CHECK_MSG(s != NULL, "white's return through instance 2 did not show on 0");
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);
}

/*
 * A swap2 opening across instances: the opener (0) places three stones, white (1) asks for
 * two more: the choice reaches the opener and the spectator (2) live as an event and in the
 * state; the opener then takes white and white's client on 1 follows its token to black.
 */
static void test_opening_across(void) {
    seat a, b, w;
    create_on(&a, 0, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\","
                     "\"opening\":\"swap2\"}");
    join_on(&b, 1, a.room, "");
    join_on(&w, 2, a.room, "");
    harness_drain(&a.c);
    const char *stones[] = {"h8", "i9", "g10"};
    for (int i = 0; i < 3; i++) {
        cJSON *s = play(&a, stones[i]);
        CHECK_MSG(s && harness_nmoves(s) == i + 1, "opening stone %s", stones[i]);
        cJSON_Delete(s);
    }
    cJSON *s = recv_state_n(&b.c, 3, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(cJSON_GetObjectItem(s, "opening"), "step"), "choose") &&
                  !strcmp(harness_str(s, "turn"), "white"),
              "white on instance 1 was not asked to choose");
    cJSON_Delete(s);
    harness_drain(&a.c);
    harness_drain(&w.c);
    ws_send_text(&b.c, "{\"type\":\"opening\",\"choice\":\"plus2\"}");
    cJSON *kept = NULL;
    cJSON *e = recv_event_keep(&a.c, "choose", HEAR_MS, step_is_place_3, 0, &kept);
    CHECK_MSG(e && !strcmp(harness_str(e, "text"), "plus2"), "the opener on 0 did not hear the choice live");
    cJSON_Delete(e);
    e = recv_event(&w.c, "choose", HEAR_MS);
    CHECK_MSG(e && !strcmp(harness_str(e, "text"), "plus2"), "the spectator on 2 did not hear the choice");
    cJSON_Delete(e);
    s = kept ? kept : recv_state_where(&a.c, step_is_place_3, 0, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(cJSON_GetObjectItem(s, "opening"), "actor"), "white"),
              "the opener's state did not move on to white's two stones");
    cJSON_Delete(s);
    cJSON_Delete(play(&b, "j7"));
    s = play(&b, "f6");
    CHECK(s && harness_nmoves(s) == 5);
    cJSON_Delete(s);
    s = recv_state_n(&a.c, 5, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(cJSON_GetObjectItem(s, "opening"), "step"), "choose"),
              "the opener was not asked to choose after the two stones");
    cJSON_Delete(s);
    harness_drain(&b.c);
    ws_send_text(&a.c, "{\"type\":\"opening\",\"choice\":\"white\"}");
    cJSON *jb = harness_recv_type(&b.c, "joined", HEAR_MS);
    CHECK_MSG(jb && !strcmp(harness_str(jb, "seat"), "black"), "white's client on 1 did not follow its token");
    cJSON_Delete(jb);
    s = play(&a, "k11"); /* the opener now plays white's 6th */
    CHECK_MSG(s && harness_nmoves(s) == 6, "white's 6th after the swap");
    cJSON_Delete(s);
    s = recv_state_n(&b.c, 6, HEAR_MS);
    CHECK_MSG(s && !strcmp(harness_str(s, "turn"), "black"), "instance 1 did not show the 6th move");
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);
    ws_close(&w.c);
}

static void test_same_turn_race(void) {
    static const char *const p1[] = {"a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a13", "c13"};
    static const char *const p2[] = {"b3", "d3", "f3", "h3", "j3", "l3", "n3", "b11", "d11", "f11"};
    static const char *const wh[] = {"a15", "c15", "e15", "g15", "i15", "k15", "m15", "o15", "b9", "d9"};
    seat a, a2, b;
    create_on(&a, 0, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join_on(&b, 2, a.room, "");
    join_on(&a2, 1, a.room, a.token); /* black's seat again, through another instance */
    CHECK_EQ_STR(a2.seat, "black");
    char winners[10][8];
    int rounds = 10, ok = 1;
    for (int r = 0; r < rounds && ok; r++) {
        /* Both of black's connections move once their instances have shown white's last
           move: sent earlier, a move meets a copy of the room where it is still white's
           turn and is refused (not_your_turn) without a race; the two instances hear of it
           through the database, each in its own time. */
        for (seat *p = r ? &a : NULL; p; p = p == &a ? &a2 : NULL) {
            cJSON *s = recv_state_n(&p->c, 2 * r, HEAR_MS);
            CHECK_MSG(s && has_move(s, wh[r - 1]), "round %d: instance %d did not show %s", r,
                      p->inst, wh[r - 1]);
            ok = s != NULL;
            cJSON_Delete(s);
        }
        if (!ok) break;
        harness_drain(&a.c);
        harness_drain(&a2.c);
        send_move(&a, p1[r]);
        send_move(&a2, p2[r]);
        int w1 = move_answer(&a, p1[r], NULL), w2 = move_answer(&a2, p2[r], NULL);
        CHECK_MSG(w1 >= 0 && w2 >= 0 && w1 + w2 == 1, "round %d: answers %d and %d", r, w1, w2);
        snprintf(winners[r], sizeof winners[r], "%s", w1 == 1 ? p1[r] : p2[r]);
        cJSON *s = recv_state_n(&b.c, 2 * r + 1, HEAR_MS);
        CHECK_MSG(s && has_move(s, winners[r]), "round %d: white did not see %s", r, winners[r]);
        cJSON_Delete(s);
        s = play(&b, wh[r]);
        ok = s != NULL;
        CHECK_MSG(ok, "round %d: white's move", r);
        cJSON_Delete(s);
    }
    /* The stored game: one black move per round, the winner's, then white's. */
    seat v;
    join_on(&v, 2, a.room, "");
    cJSON *s = harness_recv_type(&v.c, "state", HEAR_MS);
    CHECK_EQ_INT(s ? harness_nmoves(s) : -1, 2 * rounds);
    for (int r = 0; s && r < rounds && 2 * r + 1 < harness_nmoves(s); r++) {
        cJSON *mv = cJSON_GetObjectItem(s, "moves");
        CHECK_EQ_STR(cJSON_GetArrayItem(mv, 2 * r)->valuestring, winners[r]);
        CHECK_EQ_STR(cJSON_GetArrayItem(mv, 2 * r + 1)->valuestring, wh[r]);
    }
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&a2.c);
    ws_close(&b.c);
    ws_close(&v.c);
}

static void test_ai_shared(void) {
    seat a;
    create_on(&a, 1, "{\"type\":\"create\",\"variant\":\"freestyle\",\"size\":9,\"mode\":\"ai\","
                     "\"color\":\"black\",\"level\":1}");
    send_move(&a, "e5");
    /* (A state with "thinking" may be replaced by the answer's before it is sent: the
       server keeps only a client's newest unsent state; test_store checks the job.) */
    cJSON *s = NULL;
    for (int i = 0; i < 10; i++) {
        cJSON_Delete(s);
        s = harness_recv_type(&a.c, "state", 20000);
        if (!s) break;
        if (harness_nmoves(s) == 2 && !cJSON_IsTrue(cJSON_GetObjectItem(s, "thinking"))) break;
    }
    CHECK_MSG(s && harness_nmoves(s) == 2, "the computer did not answer through the job table");
    cJSON_Delete(s);
    ws_close(&a.c);
}

/* Moves of the state s as "m1 m2 ..." into buf. */
static void moves_text(const cJSON *s, char *buf, size_t n) {
    buf[0] = 0;
    cJSON *mv = cJSON_GetObjectItem(s, "moves");
    for (int i = 0; i < cJSON_GetArraySize(mv); i++) {
        size_t k = strlen(buf);
        snprintf(buf + k, n - k, "%s%s", i ? " " : "", cJSON_GetArrayItem(mv, i)->valuestring);
    }
}

/* One kill -9 round during a game between two people. */
static void kill_round_game(int round, unsigned *seed) {
    static const char *const seq[] = {"h8", "a1", "i9", "a3", "j10", "a5", "g7", "a7",
                                      "c2", "o15", "c4", "o13", "c6", "o11"};
    int x = rand_r(seed) % 2, y = 1 - x; /* a's and b's instances; 2 is where they return */
    seat a, b;
    create_on(&a, x, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join_on(&b, y, a.room, "");
    harness_drain(&a.c);
    int upto = 1 + rand_r(seed) % 10, inflight = rand_r(seed) % 2;
    char acked[256] = "";
    int nack = 0;
    for (int i = 0; i < upto; i++) {
        cJSON *s = play(i % 2 ? &b : &a, seq[i]);
        if (!s) fprintf(stderr, "round %d: move %d %s not acknowledged\n", round, i + 1, seq[i]);
        if (!s) break;
        moves_text(s, acked, sizeof acked);
        nack = harness_nmoves(s);
        cJSON_Delete(s);
        /* The next player moves once its own instance has shown it this move, as a page
           does: sent earlier, the move meets a copy of the room that has not heard yet and
           is `not_your_turn` (the instance tells what it has shown). */
        s = recv_state_n(i % 2 ? &a.c : &b.c, i + 1, HEAR_MS);
        int shown = s != NULL;
        CHECK_MSG(shown, "round %d: instance %d did not show move %d", round,
                  (i % 2 ? &a : &b)->inst, i + 1);
        cJSON_Delete(s);
        if (!shown) break;
    }
    CHECK_EQ_INT(nack, upto);
    /* The instance of the player to move dies, maybe with that player's move in flight. */
    seat *mover = upto % 2 ? &b : &a;
    int victim = mover->inst;
    if (inflight) send_move(mover, seq[upto]);
    if (inflight && rand_r(seed) % 2) usleep((useconds_t)(rand_r(seed) % 3000));
    stop_instance(victim, SIGKILL);
    ws_close(&mover->c);
    seat back;
    join_on(&back, 2, a.room, mover->token);
    CHECK_EQ_STR(back.seat, mover == &a ? "black" : "white");
    ws_send_text(&back.c, "{\"type\":\"ping\"}");
    cJSON *s = harness_recv_type(&back.c, "state", HEAR_MS);
    char now[256] = "";
    if (s) moves_text(s, now, sizeof now);
    int n = s ? harness_nmoves(s) : -1;
    /* Every acknowledged move is there, in order, once; the one in flight at most once. */
    CHECK_MSG(strncmp(now, acked, strlen(acked)) == 0 && (n == nack || (inflight && n == nack + 1)),
              "round %d: stored '%s', acknowledged '%s'%s", round, now, acked,
              inflight ? " + one in flight" : "");
    cJSON_Delete(s);
    /* The game goes on through the surviving instances. The move in flight may still come:
       the database can commit what the dead instance sent before it died after the read
       above (its COMMIT was in the database's socket), and then refuses this one as out of
       turn; either way the game has it once, at ply nack. */
    if (n == nack) {
        cJSON *t = play(&back, seq[upto]);
        if (!t && inflight) {
            fprintf(stderr, "round %d: the move in flight came after the read\n", round);
            t = recv_state_n(&back.c, nack + 1, HEAR_MS);
        }
        CHECK_MSG(t != NULL, "round %d: no move after the kill", round);
        char all[256] = "";
        if (t) moves_text(t, all, sizeof all);
        CHECK_MSG(t && harness_nmoves(t) == nack + 1 &&
                      !strcmp(cJSON_GetArrayItem(cJSON_GetObjectItem(t, "moves"), nack)->valuestring,
                              seq[upto]),
                  "round %d: after the kill '%s'", round, all);
        cJSON_Delete(t);
        n++;
    }
    seat *other = mover == &a ? &b : &a;
    s = recv_state_n(&other->c, n, HEAR_MS);
    CHECK_MSG(s != NULL, "round %d: the other player (instance %d) did not see move %d", round,
              other->inst, n);
    cJSON_Delete(s);
    ws_close(&a.c);
    ws_close(&b.c);
    ws_close(&back.c);
    start_instance(victim);
}

static int has_h8(const cJSON *s, int unused) {
    (void)unused;
    return has_move(s, "h8");
}

/* One kill -9 round while the computer thinks: the move comes exactly once. */
static void kill_round_ai(int round, unsigned *seed) {
    int x = rand_r(seed) % 2;
    seat a;
    create_on(&a, x, "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"ai\","
                     "\"color\":\"black\",\"level\":2}");
    send_move(&a, "h8");
    /* Acknowledged: a state with h8 (the job is queued in the same transaction; the state
       may already have the computer's answer too). */
    cJSON *s = recv_state_where(&a.c, has_h8, 0, HEAR_MS);
    CHECK(s != NULL);
    cJSON_Delete(s);
    usleep((useconds_t)(rand_r(seed) % 400) * 1000);
    stop_instance(x, SIGKILL);
    ws_close(&a.c);
    seat back;
    join_on(&back, 2, a.room, a.token);
    CHECK_EQ_STR(back.seat, "black");
    /* The computer's answer comes (from any instance; a dead one's lease runs out: 2 s). */
    s = NULL;
    int64_t end = now_ms() + HEAR_MS;
    int n = -1;
    while (now_ms() < end) {
        cJSON_Delete(s);
        s = harness_recv_type(&back.c, "state", (int)(end - now_ms()));
        if (!s) break;
        n = harness_nmoves(s);
        if (n >= 2 && !cJSON_IsTrue(cJSON_GetObjectItem(s, "thinking"))) break;
    }
    CHECK_MSG(n == 2, "round %d: %d moves after the computer's turn", round, n);
    cJSON_Delete(s);
    /* Once only: nothing more comes. */
    s = harness_recv_type(&back.c, "state", 1500);
    CHECK_MSG(!s || harness_nmoves(s) == 2, "round %d: another state with %d moves", round, harness_nmoves(s));
    cJSON_Delete(s);
    ws_close(&back.c);
    start_instance(x);
}

/* The HTTP status of GET PATH on instance I (-1 when there is no answer). */
static int http_status(int i, const char *path) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)ports[i])};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
        if (fd >= 0) close(fd);
        return -1;
    }
    char req[128], resp[64] = "";
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path);
    int code = -1;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (write(fd, req, (size_t)n) == n && poll(&p, 1, 15000) == 1 &&
        read(fd, resp, sizeof resp - 1) > 12)
        sscanf(resp, "HTTP/1.1 %d", &code);
    close(fd);
    return code;
}

/* /readyz of instance I once it says WANT (it reports the instance's last call to the
   database or its probe, made every second; HEAR_MS is the hang guard): the status it last
   gave. */
static int readyz_becomes(int i, int want) {
    int64_t end = now_ms() + HEAR_MS;
    int code;
    while ((code = http_status(i, "/readyz")) != want && now_ms() < end) usleep(100 * 1000);
    return code;
}

static int pg_ctl(const char *what) {
    const char *ctl = getenv("RV_PG_CTL");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", ctl ? ctl : "false", what);
    return system(cmd);
}

static void test_db_down(void) {
    CHECK_MSG(getenv("RV_PG_CTL") != NULL, "scripts/pg-tmp.sh sets RV_PG_CTL");
    seat a, b;
    create_on(&a, 0, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    join_on(&b, 1, a.room, "");
    harness_drain(&a.c);
    cJSON *s = play(&a, "h8");
    CHECK(s != NULL);
    cJSON_Delete(s);
    /* White's instance has shown h8 before the database stops (else it never hears of it). */
    s = recv_state_n(&b.c, 1, HEAR_MS);
    CHECK_MSG(s != NULL, "instance 1 did not show h8");
    cJSON_Delete(s);
    CHECK_EQ_INT(http_status(1, "/healthz"), 200);
    CHECK_EQ_INT(http_status(1, "/readyz"), 200);
    CHECK_EQ_INT(pg_ctl("stop -m fast"), 0);
    /* The database is away: the move is refused, the server says why and stays up. */
    send_move(&b, "i9");
    cJSON *e = harness_recv_type(&b.c, "error", HEAR_MS);
    CHECK_MSG(e && !strcmp(harness_str(e, "code"), "unavailable"), "while the database is down: %s",
              e ? harness_str(e, "code") : "(no answer)");
    cJSON_Delete(e);
    CHECK_EQ_INT(http_status(1, "/healthz"), 200);
    CHECK_EQ_INT(readyz_becomes(1, 503), 503);
    CHECK_EQ_INT(readyz_becomes(0, 503), 503);
    CHECK_EQ_INT(pg_ctl("start"), 0);
    /* Back: the same move is played once (the refused one was never stored). */
    s = play(&b, "i9");
    CHECK_MSG(s && harness_nmoves(s) == 2, "after the restart: %d moves", s ? harness_nmoves(s) : -1);
    cJSON_Delete(s);
    s = recv_state_n(&a.c, 2, HEAR_MS);
    CHECK_MSG(s != NULL, "instance 0 did not hear of the move after the database came back");
    cJSON_Delete(s);
    s = play(&a, "j10");
    CHECK(s && harness_nmoves(s) == 3);
    cJSON_Delete(s);
    CHECK_EQ_INT(readyz_becomes(0, 200), 200);
    CHECK_EQ_INT(readyz_becomes(1, 200), 200);
    /* The actions each network thread stores itself (a new room) work again too: its own
       connection came back, a step at a time, without the thread waiting for it. */
    for (int i = 0; i < 2; i++) {
        seat n;
        int64_t end = now_ms() + HEAR_MS;
        int joined = 0;
        do {
            memset(&n, 0, sizeof n);
            if (open_on(&n, i)) break;
            ws_send_text(&n.c, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
            int left = (int)(end - now_ms());
            cJSON *j = harness_recv_any(&n.c, left > 1000 ? left : 1000);
            joined = j && !strcmp(harness_str(j, "type"), "joined");
            cJSON_Delete(j);
            ws_close(&n.c);
            if (!joined) usleep(250 * 1000);
        } while (!joined && now_ms() < end);
        CHECK_MSG(joined, "instance %d cannot create a room after the restart", i);
    }
    ws_close(&a.c);
    ws_close(&b.c);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    const char *base = getenv("RV_TEST_PG");
    if (!base || !*base) {
        fprintf(stderr, "pg_cluster: RV_TEST_PG must name a PostgreSQL database "
                        "(run it under scripts/pg-tmp.sh)\n");
        return 2;
    }
    const char *schema = getenv("RV_TEST_PG_SCHEMA");
    snprintf(db_url, sizeof db_url, "%s%soptions=-csearch_path%%3D%s", base,
             strchr(base, '?') ? "&" : "?", schema ? schema : "public");
    snprintf(web_dir, sizeof web_dir, "%s", RV_WEB_DIR);
    unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : (unsigned)time(NULL);
    fprintf(stderr, "pg_cluster: seed %u\n", seed);
    for (int i = 0; i < NINST; i++) start_instance(i);
    test_three_instances();
    test_presence_chat();
    test_opening_across();
    test_same_turn_race();
    test_ai_shared();
    for (int round = 0; round < 10; round++) {
        if (round % 2) kill_round_ai(round, &seed);
        else kill_round_game(round, &seed);
    }
    test_db_down();
    for (int i = 0; i < NINST; i++) CHECK_EQ_INT(stop_instance(i, SIGTERM), 0);
    return test_finish();
}
