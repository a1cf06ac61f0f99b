/*
 * Rooms and seats for the tests of `renversi serve` over real WebSocket connections, over
 * the server harness (server_harness.h): a server on db_path, clients that create and join
 * rooms, moves, expected errors. Included by test_server.c and test_server_rooms.c.
 */
#ifndef RV_TEST_ROOMS_HARNESS_H
#define RV_TEST_ROOMS_HARNESS_H

#include "server_harness.h"
#include "test.h"

static char db_path[256];
static char web_dir[256];

/* Starts a server on db_path in a child; returns its pid and the port in *port. */
static pid_t start_server(int *port) {
    harness_opts ho = {.db = db_path, .web = web_dir};
    return harness_start(&ho, port);
}

static int port;

static void open_client(ws_conn *c) {
    int ok = ws_open(c, port, "/ws", "") == 0;
    CHECK_MSG(ok, "cannot connect to port %d", port);
}

/* Sends a message and expects an error with this code (the next error message). */
static void expect_error(ws_conn *c, const char *msg, const char *code) {
    ws_send_text(c, msg);
    cJSON *e = harness_recv_type(c, "error", HARNESS_WAIT_MS);
    CHECK_MSG(e && !strcmp(harness_str(e, "code"), code), "%s -> %s, want %s", msg,
              e ? harness_str(e, "code") : "(nothing)", code);
    cJSON_Delete(e);
}

/* The connection still answers (ping -> pong). */
__attribute__((unused)) static int alive(ws_conn *c) {
    ws_send_text(c, "{\"type\":\"ping\",\"id\":7}");
    cJSON *p = harness_recv_type(c, "pong", HARNESS_WAIT_MS);
    int ok = p && cJSON_GetObjectItem(p, "id") && cJSON_GetObjectItem(p, "id")->valueint == 7;
    cJSON_Delete(p);
    return ok;
}

/* Sends a move and waits for the state that has it (or the error). Returns the state. */
static cJSON *move(ws_conn *c, const char *pt) {
    char m[96];
    snprintf(m, sizeof m, "{\"type\":\"move\",\"move\":\"%s\"}", pt);
    ws_send_text(c, m);
    for (;;) {
        cJSON *j = harness_recv_any(c, HARNESS_WAIT_MS);
        if (!j) return NULL;
        const char *t = harness_str(j, "type");
        if (!strcmp(t, "error")) {
            fprintf(stderr, "move %s: %s\n", pt, harness_str(j, "message"));
            cJSON_Delete(j);
            return NULL;
        }
        if (!strcmp(t, "state")) {
            cJSON *mv = cJSON_GetObjectItem(j, "moves");
            int n = cJSON_GetArraySize(mv);
            int has = 0;
            for (int i = 0; i < n; i++)
                has |= !strcmp(cJSON_GetArrayItem(mv, i)->valuestring, pt);
            if (has) return j;
        }
        cJSON_Delete(j);
    }
}

static void create(seat *s, const char *json) {
    open_client(&s->c);
    ws_send_text(&s->c, json);
    harness_read_joined(s);
    cJSON_Delete(harness_recv_type(&s->c, "state", HARNESS_WAIT_MS));
}

static void join(seat *s, const char *room, const char *token) {
    open_client(&s->c);
    char m[256];
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room, token);
    ws_send_text(&s->c, m);
    harness_read_joined(s);
    harness_drain(&s->c);
}

/* ---------------------------------------------------------------- cases */

#endif
