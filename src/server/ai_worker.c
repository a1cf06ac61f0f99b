/*
 * The AI workers: threads that think for the rooms, so the network thread never waits for a
 * search. Jobs carry a copy of the game and the room's generation; answers go back through
 * lws_cancel_service(), and a room that changed meanwhile (undo, new game) ignores them.
 *
 * Fairness under load: one worker per core (at most SRV_AI_WORKERS); a bounded queue
 * (SRV_AI_QUEUE, oldest first); a room has at most one move and one hint in it; the jobs of a
 * room nobody is in are withdrawn; and the time a move may take shrinks as the queue grows
 * (SRV_AI_MS with nothing waiting, down to SRV_AI_MIN_MS), so the wait for an answer stays
 * bounded whoever fills the queue.
 */
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/srv.h"

/* The time for the next job with `waiting` jobs behind it. */
static int think_ms(const srv *s, int waiting) {
    int n = s->ai_nworkers > 0 ? s->ai_nworkers : 1;
    long ms = (long)SRV_AI_MS * n / (n + waiting);
    return ms < SRV_AI_MIN_MS ? SRV_AI_MIN_MS : (int)ms;
}

static void *worker(void *arg) {
    srv_ai_worker *w = arg;
    srv *s = w->s;
    pthread_mutex_lock(&s->ai_lock);
    for (;;) {
        while (!s->todo_head && !s->ai_quit) pthread_cond_wait(&s->ai_cond, &s->ai_lock);
        if (s->ai_quit) break;
        ai_job *j = s->todo_head;
        s->todo_head = j->next;
        if (!s->todo_head) s->todo_tail = NULL;
        s->ai_queued--;
        int ms = think_ms(s, s->ai_queued);
        w->busy = j;
        srv_trace(s, "ai0", "%s %d %d %d %d", j->room, rv_game_nmoves(&j->game), j->hint, ms,
                  s->ai_queued);
        pthread_mutex_unlock(&s->ai_lock);

        if (j->opening) {
            rv_gomoku_limits lim = {0};
            lim.level = j->level;
            lim.time_ms = SRV_OPENING_PROBE_MS;
            j->status = rv_opening_decide(&j->open, rv_game_gomoku(&j->game), w->open_ai, &lim,
                                          &j->act);
        } else {
            j->status = rv_game_ai_think(w->ai, &j->game, j->level, ms, &j->x, &j->y);
        }

        srv_trace(s, "ai1", "%s %d %d %d", j->room, rv_game_nmoves(&j->game), j->hint, j->status);
        pthread_mutex_lock(&s->ai_lock);
        w->busy = NULL;
        j->next = s->done;
        s->done = j;
        pthread_mutex_unlock(&s->ai_lock);
        if (s->ctx) lws_cancel_service(s->ctx);
        pthread_mutex_lock(&s->ai_lock);
    }
    pthread_mutex_unlock(&s->ai_lock);
    return NULL;
}

static void free_jobs(ai_job *j) {
    while (j) {
        ai_job *n = j->next;
        free(j);
        j = n;
    }
}

int srv_ai_start(srv *s) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cores < 1 ? 1 : cores > SRV_AI_WORKERS ? SRV_AI_WORKERS : (int)cores;
    pthread_mutex_init(&s->ai_lock, NULL);
    pthread_cond_init(&s->ai_cond, NULL);
    s->ai_lock_ready = 1;
    for (int i = 0; i < n; i++) {
        srv_ai_worker *w = &s->ai_workers[i];
        w->s = s;
        w->ai = rv_game_ai_new();
        w->open_ai = rv_gomoku_ai_new(0);
        if (!w->ai || !w->open_ai || pthread_create(&w->thread, NULL, worker, w)) {
            rv_game_ai_free(w->ai);
            rv_gomoku_ai_free(w->open_ai);
            w->ai = NULL;
            w->open_ai = NULL;
            break;
        }
        s->ai_nworkers++;
    }
    return s->ai_nworkers > 0 ? 0 : -1;
}

void srv_ai_stop(srv *s) {
    if (!s->ai_lock_ready) return;
    pthread_mutex_lock(&s->ai_lock);
    s->ai_quit = 1;
    pthread_cond_broadcast(&s->ai_cond);
    for (int i = 0; i < s->ai_nworkers; i++) {
        rv_game_ai_stop(s->ai_workers[i].ai);
        rv_gomoku_ai_stop(s->ai_workers[i].open_ai);
    }
    pthread_mutex_unlock(&s->ai_lock);
    for (int i = 0; i < s->ai_nworkers; i++) {
        pthread_join(s->ai_workers[i].thread, NULL);
        rv_game_ai_free(s->ai_workers[i].ai);
        rv_gomoku_ai_free(s->ai_workers[i].open_ai);
        s->ai_workers[i].ai = NULL;
        s->ai_workers[i].open_ai = NULL;
    }
    s->ai_nworkers = 0;
    free_jobs(s->todo_head);
    free_jobs(s->done);
    s->todo_head = s->todo_tail = s->done = NULL;
    s->ai_queued = 0;
    pthread_mutex_destroy(&s->ai_lock);
    pthread_cond_destroy(&s->ai_cond);
    s->ai_lock_ready = 0;
}

static int submit(srv *s, room *r, int hint, int seat) {
    if (!s->ai_lock_ready) return -1;
    pthread_mutex_lock(&s->ai_lock);
    int full = s->ai_queued >= SRV_AI_QUEUE;
    pthread_mutex_unlock(&s->ai_lock);
    if (full) return -1;
    ai_job *j = calloc(1, sizeof *j);
    if (!j) return -1;
    memcpy(j->room, r->rec.id, sizeof j->room);
    j->gen = r->gen;
    j->level = r->rec.level;
    j->hint = hint;
    j->seat = seat;
    j->game = r->game;
    j->opening = !hint && !rv_game_is_reversi(&r->game) &&
                 rv_opening_get_step(&r->open) != RV_STEP_PLAY;
    j->open = r->open;
    if (!hint) r->thinking = 1;
    else r->hints++;
    pthread_mutex_lock(&s->ai_lock);
    if (s->todo_tail) s->todo_tail->next = j;
    else s->todo_head = j;
    s->todo_tail = j;
    s->ai_queued++;
    srv_trace(s, "aiq", "%s %d %d %d", j->room, rv_game_nmoves(&j->game), hint, s->ai_queued);
    pthread_cond_signal(&s->ai_cond);
    pthread_mutex_unlock(&s->ai_lock);
    return 0;
}

int srv_ai_submit(srv *s, room *r) { return submit(s, r, 0, 0); }

int srv_ai_hint(srv *s, room *r, int seat) { return submit(s, r, 1, seat); }

void srv_ai_cancel(srv *s, room *r) {
    if (!s->ai_lock_ready) return;
    pthread_mutex_lock(&s->ai_lock);
    /* Queued jobs of the room go at once; a running one is asked to stop (its answer, for an
       older generation, is then dropped). */
    ai_job **pp = &s->todo_head, *last = NULL;
    while (*pp) {
        ai_job *j = *pp;
        if (!strcmp(j->room, r->rec.id)) {
            *pp = j->next;
            s->ai_queued--;
            srv_trace(s, "aix", "%s %d %d %d", j->room, rv_game_nmoves(&j->game), j->hint,
                      s->ai_queued);
            if (j->hint) r->hints--;
            free(j);
        } else {
            last = j;
            pp = &j->next;
        }
    }
    s->todo_tail = last;
    for (int i = 0; i < s->ai_nworkers; i++)
        if (s->ai_workers[i].busy && !strcmp(s->ai_workers[i].busy->room, r->rec.id)) {
            s->ai_workers[i].busy->cancelled = 1;
            rv_game_ai_stop(s->ai_workers[i].ai);
            rv_gomoku_ai_stop(s->ai_workers[i].open_ai);
        }
    pthread_mutex_unlock(&s->ai_lock);
}

void srv_ai_restop(srv *s) {
    if (!s->ai_lock_ready) return;
    /* A stop that came before the search had started is not seen by it: ask again. */
    pthread_mutex_lock(&s->ai_lock);
    for (int i = 0; i < s->ai_nworkers; i++)
        if (s->ai_workers[i].busy && s->ai_workers[i].busy->cancelled) {
            rv_game_ai_stop(s->ai_workers[i].ai);
            rv_gomoku_ai_stop(s->ai_workers[i].open_ai);
        }
    pthread_mutex_unlock(&s->ai_lock);
}

void srv_ai_collect(srv *s) {
    if (!s->ai_lock_ready) return;
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
