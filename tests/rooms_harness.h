/*
 * Helpers for the tests of `renversi serve` over real WebSocket connections: a server in a
 * child process (fork, so it can be killed), clients, and waiting for messages by type.
 * Included by test_server.c and test_server_rooms.c (everything is static).
 */
#ifndef RV_TEST_ROOMS_HARNESS_H
#define RV_TEST_ROOMS_HARNESS_H

#include <cjson/cJSON.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "server/server.h"
#include "test.h"
#include "ws_client.h"

static char db_path[256];
static char web_dir[256];

static void on_ready(int port, void *arg) {
    int fd = *(int *)arg;
    if (write(fd, &port, sizeof port) != (ssize_t)sizeof port) _exit(3);
    close(fd);
}

/* Starts a server on db_path in a child; returns its pid and the port in *port. */
static pid_t start_server(int *port) {
    int p[2];
    if (pipe(p)) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        int wfd = p[1];
        rv_server_opts o = {.host = "127.0.0.1", .port = 0, .db = db_path, .web = web_dir,
                            .quiet = 1, .ready = on_ready, .ready_arg = &wfd};
        /* exit, not _exit: under the sanitizers the leak check runs when the server stops. */
        exit(rv_server_run(&o));
    }
    close(p[1]);
    *port = 0;
    if (read(p[0], port, sizeof *port) != (ssize_t)sizeof *port) *port = 0;
    close(p[0]);
    return pid;
}

/* Stops the server; returns its exit code (-1 when killed by the signal). */
static int stop_server(pid_t pid, int sig) {
    kill(pid, sig);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int port;

static void open_client(ws_conn *c) {
    int ok = ws_open(c, port, "/ws", "") == 0;
    CHECK_MSG(ok, "cannot connect to port %d", port);
}

/* Receives messages until one of this type (others are dropped); NULL on timeout. */
static cJSON *recv_type(ws_conn *c, const char *type, int timeout_ms) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec t1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        int left = timeout_ms - (int)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
        if (left <= 0) return NULL;
        char *m;
        int r = ws_recv(c, &m, left);
        if (r <= 0) return NULL;
        cJSON *j = cJSON_Parse(m);
        free(m);
        const cJSON *t = j ? cJSON_GetObjectItem(j, "type") : NULL;
        if (cJSON_IsString(t) && !strcmp(t->valuestring, type)) return j;
        cJSON_Delete(j);
    }
}

/* The next message, whatever it is (NULL on timeout). */
static cJSON *recv_any(ws_conn *c, int timeout_ms) {
    char *m;
    if (ws_recv(c, &m, timeout_ms) <= 0) return NULL;
    cJSON *j = cJSON_Parse(m);
    free(m);
    return j;
}

static const char *str(const cJSON *j, const char *k) {
    const cJSON *v = j ? cJSON_GetObjectItem(j, k) : NULL;
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int nmoves(const cJSON *state) {
    return cJSON_GetArraySize(cJSON_GetObjectItem(state, "moves"));
}

/* Sends a message and expects an error with this code (the next error message). */
static void expect_error(ws_conn *c, const char *msg, const char *code) {
    ws_send_text(c, msg);
    cJSON *e = recv_type(c, "error", 3000);
    CHECK_MSG(e && !strcmp(str(e, "code"), code), "%s -> %s, want %s", msg,
              e ? str(e, "code") : "(nothing)", code);
    cJSON_Delete(e);
}

/* The connection still answers (ping -> pong). */
__attribute__((unused)) static int alive(ws_conn *c) {
    ws_send_text(c, "{\"type\":\"ping\",\"id\":7}");
    cJSON *p = recv_type(c, "pong", 3000);
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
        cJSON *j = recv_any(c, 5000);
        if (!j) return NULL;
        const char *t = str(j, "type");
        if (!strcmp(t, "error")) {
            fprintf(stderr, "move %s: %s\n", pt, str(j, "message"));
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

static void drain(ws_conn *c) {
    cJSON *j;
    while ((j = recv_any(c, 150))) cJSON_Delete(j);
}

typedef struct seat {
    ws_conn c;
    char seat[16];
    char token[80];
    char room[32];
} seat;

static void create(seat *s, const char *json) {
    open_client(&s->c);
    ws_send_text(&s->c, json);
    cJSON *j = recv_type(&s->c, "joined", 3000);
    CHECK(j != NULL);
    snprintf(s->seat, sizeof s->seat, "%s", str(j, "seat"));
    snprintf(s->token, sizeof s->token, "%s", str(j, "token"));
    snprintf(s->room, sizeof s->room, "%s", str(j, "room"));
    cJSON_Delete(j);
    cJSON_Delete(recv_type(&s->c, "state", 3000));
}

static void join(seat *s, const char *room, const char *token) {
    open_client(&s->c);
    char m[256];
    snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room, token);
    ws_send_text(&s->c, m);
    cJSON *j = recv_type(&s->c, "joined", 3000);
    CHECK(j != NULL);
    snprintf(s->seat, sizeof s->seat, "%s", str(j, "seat"));
    snprintf(s->token, sizeof s->token, "%s", str(j, "token"));
    snprintf(s->room, sizeof s->room, "%s", str(j, "room"));
    cJSON_Delete(j);
    drain(&s->c);
}

/* ---------------------------------------------------------------- cases */

#endif
