/*
 * libFuzzer target: the browser game's message handler (src/server/rooms.c) on arbitrary
 * input. Each line of the input is one WebSocket message from one client, handled exactly
 * as the server would (rooms, moves, undo, stored games in an in-memory database), without
 * the network. No input may crash, hang or leak. A line starting with '|' comes from the
 * second client, and "@room" in a line stands for the first client's room id (room ids are
 * random), so two players can meet and finish a game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv.h"

static rv_store *store;

/* The first "@room" in line[0..len), or NULL. */
static const char *find_room_mark(const char *line, size_t len) {
    for (size_t i = 0; i + 5 <= len; i++)
        if (!memcmp(line + i, "@room", 5)) return line + i;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!store) {
        char err[256];
        store = rv_store_open(":memory:", err, sizeof err);
        if (!store) abort();
    }
    if (size > 4096) return 0;
    srv s;
    memset(&s, 0, sizeof s);
    s.store = store;
    /* The AI queue without its workers: jobs are queued and dropped at the end. */
    pthread_mutex_init(&s.ai_lock, NULL);
    pthread_cond_init(&s.ai_cond, NULL);
    s.ai_lock_ready = 1;
    srv_conn c[2];
    memset(c, 0, sizeof c);
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    /* A line starting with '|' comes from the second client. */
    char *line = text;
    while (line && *line) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        int who = len && line[0] == '|';
        char msg[4200];
        const char *at = find_room_mark(line + who, len - (size_t)who);
        if (at && c[0].room && len < 4096) {
            int n = snprintf(msg, sizeof msg, "%.*s%s%.*s", (int)(at - line - who), line + who, c[0].room->rec.id,
                             (int)(line + len - at - 5), at + 5);
            srv_handle(&s, &c[who], msg, (size_t)n);
        } else {
            srv_handle(&s, &c[who], line + who, len - (size_t)who);
        }
        srv_rooms_flush(&s);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    for (int i = 0; i < 2; i++) {
        srv_conn_closed(&s, &c[i]);
        srv_queue_free(&c[i]);
    }
    while (s.todo_head) {
        ai_job *j = s.todo_head;
        s.todo_head = j->next;
        free(j);
    }
    srv_rooms_tick(&s);
    srv_rooms_free(&s);
    pthread_mutex_destroy(&s.ai_lock);
    pthread_cond_destroy(&s.ai_cond);
    return 0;
}
