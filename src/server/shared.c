/*
 * Several servers on one PostgreSQL store. Two threads, each with its own connection:
 *   - the watch thread hears every server's commits (LISTEN renversi) and hands them to the
 *     network thread through lws_cancel_service(), which re-reads the rooms it has loaded
 *     and pushes their new state to its clients;
 *   - the job thread claims AI jobs of any room (FOR UPDATE SKIP LOCKED, with a lease, so a
 *     job whose server died is taken again), thinks, and commits the move against the
 *     job's version like any other move; every server with watchers hears of it.
 * Nothing here runs for an SQLite store: one server holds it.
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/srv.h"

typedef struct srv_event {
    struct srv_event *next;
    rv_store_event ev;
    int resync; /* the watch lost its connection: re-read every loaded room */
} srv_event;

static void push_event(srv *s, const rv_store_event *ev, int resync) {
    srv_event *e = calloc(1, sizeof *e);
    if (!e) return;
    if (ev) e->ev = *ev;
    e->resync = resync;
    pthread_mutex_lock(&s->ev_lock);
    e->next = s->events;
    s->events = e;
    pthread_mutex_unlock(&s->ev_lock);
    lws_cancel_service(s->ctx);
}

static void *watch_main(void *arg) {
    srv *s = arg;
    while (!s->shared_quit) {
        rv_store_event ev;
        int rc = rv_store_watch_next(s->watch, 250, &ev);
        if (rc == 1) push_event(s, &ev, 0);
        else if (rc < 0) push_event(s, NULL, 1);
    }
    return NULL;
}

/* Thinks about one claimed job and commits the answer (job thread). */
static void think_job(srv *s, const rv_store_job *job) {
    rv_store *st = s->job_store;
    rv_game *g = malloc(sizeof *g);
    rv_store_game hdr;
    rv_store_room room;
    if (!g || srv_load_game(st, job->game, g, &hdr) || hdr.version != job->version ||
        rv_store_get_room(st, hdr.room, &room) || room.game_id != job->game) {
        /* The game moved on (or is gone): the job is stale. */
        rv_store_drop_job(st, job);
        free(g);
        return;
    }
    rv_color tm = rv_game_to_move(g);
    int x = -1, y = -1;
    rv_status status = tm && (room.ai_color & tm)
                           ? rv_game_ai_think(s->job_ai, g, job->level, SRV_AI_MS, &x, &y)
                           : RV_EOVER;
    int from = rv_game_nmoves(g);
    char why[160];
    int kind;
    if (status == RV_OK)
        status = x < 0 ? rv_game_play_text(g, "pass", why, sizeof why, &kind)
                       : rv_game_play_xy(g, x, y, why, sizeof why, &kind);
    if (status != RV_OK || s->shared_quit) {
        /* Nothing to play (or stopping): a stopped server leaves the job to its lease. */
        if (!s->shared_quit) rv_store_drop_job(st, job);
        free(g);
        return;
    }
    rv_color next = rv_game_to_move(g);
    int again = next && (room.ai_color & next) ? room.level : 0;
    int rc = srv_commit_game(st, job->game, job->version, g, from, 0, again, NULL);
    /* A conflict: someone undid or resigned meanwhile; their commit dropped the job. */
    if (rc == RV_STORE_FAIL) fprintf(stderr, "renversi serve: the AI's move could not be stored\n");
    free(g);
}

static void *job_main(void *arg) {
    srv *s = arg;
    while (!s->shared_quit) {
        rv_store_job job;
        int got = rv_store_claim_job(s->job_store, s->instance, s->ai_lease_s, &job);
        if (got == 1) {
            think_job(s, &job);
            continue;
        }
        /* None (or the database is away): wait for a new job, at most a second, so that
           jobs whose lease runs out are seen too. */
        rv_store_event ev;
        if (got < 0 || rv_store_watch_next(s->job_watch, 1000, &ev) < 0) usleep(250 * 1000);
    }
    return NULL;
}

int srv_shared_start(srv *s, char *err, size_t errlen) {
    if (!rv_store_shared(s->store)) return 0;
    char host[32] = "";
    gethostname(host, sizeof host - 1);
    char rnd[9];
    if (srv_random_hex(rnd, 4)) snprintf(rnd, sizeof rnd, "0");
    snprintf(s->instance, sizeof s->instance, "%.24s:%ld:%s", host, (long)getpid(), rnd);
    pthread_mutex_init(&s->ev_lock, NULL);
    s->shared_quit = 0;
    if (!(s->watch = rv_store_watch_open(s->db, RV_STORE_WATCH_ROOMS, err, errlen)) ||
        !(s->job_watch = rv_store_watch_open(s->db, RV_STORE_WATCH_JOBS, err, errlen)) ||
        !(s->job_store = rv_store_open(s->db, err, errlen))) {
        srv_shared_stop(s);
        return -1;
    }
    if (!(s->job_ai = rv_game_ai_new())) {
        snprintf(err, errlen, "out of memory");
        srv_shared_stop(s);
        return -1;
    }
    if (pthread_create(&s->watch_thread, NULL, watch_main, s)) {
        snprintf(err, errlen, "cannot start the watch thread");
        srv_shared_stop(s);
        return -1;
    }
    s->watch_started = 1;
    if (pthread_create(&s->job_thread, NULL, job_main, s)) {
        snprintf(err, errlen, "cannot start the AI job thread");
        srv_shared_stop(s);
        return -1;
    }
    s->job_started = 1;
    return 0;
}

void srv_shared_stop(srv *s) {
    if (!rv_store_shared(s->store)) return;
    s->shared_quit = 1;
    if (s->job_ai) rv_game_ai_stop(s->job_ai);
    if (s->watch_started) pthread_join(s->watch_thread, NULL);
    if (s->job_started) pthread_join(s->job_thread, NULL);
    s->watch_started = s->job_started = 0;
    rv_store_watch_close(s->watch);
    rv_store_watch_close(s->job_watch);
    rv_store_close(s->job_store);
    if (s->job_ai) rv_game_ai_free(s->job_ai);
    s->watch = s->job_watch = NULL;
    s->job_store = NULL;
    s->job_ai = NULL;
    while (s->events) {
        srv_event *e = s->events;
        s->events = e->next;
        free(e);
    }
    pthread_mutex_destroy(&s->ev_lock);
}

void srv_shared_collect(srv *s) {
    if (!rv_store_shared(s->store) || !s->watch) return;
    pthread_mutex_lock(&s->ev_lock);
    srv_event *e = s->events;
    s->events = NULL;
    pthread_mutex_unlock(&s->ev_lock);
    /* Oldest first. */
    srv_event *rev = NULL;
    while (e) {
        srv_event *n = e->next;
        e->next = rev;
        rev = e;
        e = n;
    }
    int resync = 0;
    for (srv_event *x = rev; x; x = x->next) {
        if (x->resync) {
            resync = 1;
            continue;
        }
        room *r = srv_room_find(s, x->ev.room);
        /* Our own commit (or one we have re-read already) needs nothing. */
        if (!r || (x->ev.game && x->ev.game == r->rec.game_id && x->ev.version <= r->version))
            continue;
        /* A commit to the game the room is at leaves the room's row as it was. */
        srv_room_refresh_game(s, r, !(x->ev.game && x->ev.game == r->rec.game_id));
    }
    while (rev) {
        srv_event *n = rev->next;
        free(rev);
        rev = n;
    }
    if (resync)
        for (int i = 0; i < SRV_ROOM_BUCKETS; i++)
            for (room *r = s->rooms[i]; r; r = r->next) srv_room_refresh(s, r);
}
