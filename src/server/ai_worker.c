/*
 * The AI worker: one thread that thinks for the rooms, so the network thread never
 * waits for a search. Jobs carry a copy of the game and the room's generation; the
 * answer goes back through lws_cancel_service(), and a room that changed meanwhile
 * (undo, new game) ignores it.
 */
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv.h"

static void *worker(void *arg) {
    srv *s = arg;
    pthread_mutex_lock(&s->ai_lock);
    for (;;) {
        while (!s->todo_head && !s->ai_quit) pthread_cond_wait(&s->ai_cond, &s->ai_lock);
        if (s->ai_quit) break;
        ai_job *j = s->todo_head;
        s->todo_head = j->next;
        if (!s->todo_head) s->todo_tail = NULL;
        s->ai_busy_gen = j->gen;
        memcpy(s->ai_busy_room, j->room, sizeof s->ai_busy_room);
        pthread_mutex_unlock(&s->ai_lock);

        if (j->opening) {
            rv_gomoku_limits lim = {0};
            lim.level = j->level;
            lim.time_ms = SRV_OPENING_PROBE_MS;
            j->status = rv_opening_decide(&j->open, rv_game_gomoku(&j->game), s->open_ai, &lim, &j->act);
        } else {
            j->status = rv_game_ai_think(s->ai, &j->game, j->level, SRV_AI_MS, &j->x, &j->y);
        }

        pthread_mutex_lock(&s->ai_lock);
        s->ai_busy_room[0] = 0;
        j->next = s->done;
        s->done = j;
        pthread_mutex_unlock(&s->ai_lock);
        lws_cancel_service(s->ctx);
        pthread_mutex_lock(&s->ai_lock);
    }
    pthread_mutex_unlock(&s->ai_lock);
    return NULL;
}

int srv_ai_start(srv *s) {
    s->ai = rv_game_ai_new();
    if (!s->ai) return -1;
    s->open_ai = rv_gomoku_ai_new(0);
    if (!s->open_ai) {
        rv_game_ai_free(s->ai);
        s->ai = NULL;
        return -1;
    }
    pthread_mutex_init(&s->ai_lock, NULL);
    pthread_cond_init(&s->ai_cond, NULL);
    if (pthread_create(&s->ai_thread, NULL, worker, s)) {
        rv_game_ai_free(s->ai);
        rv_gomoku_ai_free(s->open_ai);
        s->ai = NULL;
        s->open_ai = NULL;
        return -1;
    }
    s->ai_started = 1;
    return 0;
}

static void free_jobs(ai_job *j) {
    while (j) {
        ai_job *n = j->next;
        free(j);
        j = n;
    }
}

void srv_ai_stop(srv *s) {
    if (!s->ai_started) return;
    pthread_mutex_lock(&s->ai_lock);
    s->ai_quit = 1;
    pthread_cond_signal(&s->ai_cond);
    pthread_mutex_unlock(&s->ai_lock);
    rv_game_ai_stop(s->ai);
    rv_gomoku_ai_stop(s->open_ai);
    pthread_join(s->ai_thread, NULL);
    free_jobs(s->todo_head);
    free_jobs(s->done);
    s->todo_head = s->todo_tail = s->done = NULL;
    rv_game_ai_free(s->ai);
    rv_gomoku_ai_free(s->open_ai);
    s->open_ai = NULL;
    pthread_mutex_destroy(&s->ai_lock);
    pthread_cond_destroy(&s->ai_cond);
    s->ai_started = 0;
}

static void submit(srv *s, room *r, int hint, int seat, int opening) {
    ai_job *j = calloc(1, sizeof *j);
    if (!j) return;
    memcpy(j->room, r->rec.id, sizeof j->room);
    j->gen = r->gen;
    j->level = r->rec.level;
    j->hint = hint;
    j->seat = seat;
    j->game = r->game;
    j->opening = opening;
    j->open = r->open;
    if (!hint) r->thinking = 1;
    else r->hints++;
    pthread_mutex_lock(&s->ai_lock);
    if (s->todo_tail) s->todo_tail->next = j;
    else s->todo_head = j;
    s->todo_tail = j;
    pthread_cond_signal(&s->ai_cond);
    pthread_mutex_unlock(&s->ai_lock);
}

void srv_ai_submit(srv *s, room *r) {
    submit(s, r, 0, 0, rv_opening_get_step(&r->open) != RV_STEP_PLAY);
}

void srv_ai_hint(srv *s, room *r, int seat) { submit(s, r, 1, seat, 0); }

void srv_ai_cancel(srv *s, room *r) {
    /* Queued jobs of the room are dropped when they come back (old generation); a running
       one is asked to stop now. */
    pthread_mutex_lock(&s->ai_lock);
    int running = strcmp(s->ai_busy_room, r->rec.id) == 0;
    pthread_mutex_unlock(&s->ai_lock);
    if (running) {
        rv_game_ai_stop(s->ai);
        rv_gomoku_ai_stop(s->open_ai);
    }
}

void srv_ai_collect(srv *s) {
    pthread_mutex_lock(&s->ai_lock);
    ai_job *j = s->done;
    s->done = NULL;
    pthread_mutex_unlock(&s->ai_lock);
    /* Oldest first. */
    ai_job *rev = NULL;
    while (j) {
        ai_job *n = j->next;
        j->next = rev;
        rev = j;
        j = n;
    }
    while (rev) {
        ai_job *n = rev->next;
        srv_ai_done(s, rev);
        free(rev);
        rev = n;
    }
}
