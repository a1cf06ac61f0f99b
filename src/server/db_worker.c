/*
 * The store worker of a server on a shared store (PostgreSQL): the database work of a move
 * (one call of the commit function), the re-reads of rooms after a conflict or a change
 * heard from another server, and the notices to the other servers run on this thread with
 * its own connection, so the network thread never waits for the database on them (nor for
 * a reconnection). The network thread hands it jobs (srv_db_submit); done, they go back
 * through lws_cancel_service() and srv_db_collect(). While a room has a job, its clients'
 * messages wait (rooms.c), so the room's changes stay in order.
 *
 * When idle the worker asks the database whether it answers, once a second (four times a
 * second while it does not): /readyz reports that answer without waiting.
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/srv.h"

#define PROBE_MS 1000
#define PROBE_DOWN_MS 250

static void run_job(srv *s, srv_db_job *j) {
    switch (j->kind) {
    case SRV_DB_COMMIT: {
        const char *mv[3] = {j->moves[0], j->moves[1], j->moves[2]};
        rv_store_change ch = {.game = j->game_id, .version = j->version, .keep = j->keep,
                              .moves = mv, .n = j->nmoves, .result = j->result,
                              .undo_request = j->undo, .ai_level = j->ai};
        srv_trace(s, "c0", "%lld %d 1", (long long)j->game_id, j->keep);
        j->rc = rv_store_commit(s->db_store, &ch, &j->nv);
        srv_trace(s, "c1", "%lld %d 1", (long long)j->game_id, j->keep);
        break;
    }
    case SRV_DB_READ:
        j->rc = srv_room_read(s->db_store, j->room->rec.id, &j->data.rec, j->room_too, &j->data)
                    ? RV_STORE_FAIL
                    : RV_STORE_OK;
        break;
    case SRV_DB_NOTIFY:
        j->rc = rv_store_notify(s->db_store, j->notice);
        break;
    case SRV_DB_JOIN:
        srv_join_read(s->db_store, j);
        break;
    case SRV_DB_ASK:
        srv_ask_run(s->db_store, j);
        break;
    case SRV_DB_NOTE:
        j->rc = rv_store_add_event(s->db_store, j->game_id, j->note_ply, j->note_kind,
                                   j->note_who, j->notice);
        break;
    case SRV_DB_ACT:
        j->rc = srv_act_store(s->db_store, j->act, &j->nv);
        break;
    case SRV_DB_START: {
        srv_new_game *n = j->start;
        j->rc = rv_store_start_game(s->db_store, &n->rec, n->old_game, n->swap,
                                    rv_game_variant(&n->game), rv_game_size(&n->game), n->black,
                                    n->white, n->rules);
        break;
    }
    }
}

#define MAX_BATCH 64

static void commit_batch(srv *s, srv_db_job **jobs, int n) {
    rv_store_change ch[MAX_BATCH];
    const rv_store_change *p[MAX_BATCH] = {0};
    const char *mv[MAX_BATCH][3];
    int rc[MAX_BATCH] = {0};
    int64_t nv[MAX_BATCH] = {0};
    for (int i = 0; i < n; i++) {
        srv_db_job *j = jobs[i];
        for (int k = 0; k < 3; k++) mv[i][k] = j->moves[k];
        ch[i] = (rv_store_change){.game = j->game_id, .version = j->version, .keep = j->keep,
                                  .moves = mv[i], .n = j->nmoves, .result = j->result,
                                  .undo_request = j->undo, .ai_level = j->ai};
        p[i] = &ch[i];
    }
    for (int i = 0; i < n; i++) srv_trace(s, "c0", "%lld %d %d", (long long)ch[i].game, ch[i].keep, n);
    rv_store_commit_many(s->db_store, p, n, rc, nv);
    for (int i = 0; i < n; i++) srv_trace(s, "c1", "%lld %d %d", (long long)ch[i].game, ch[i].keep, n);
    for (int i = 0; i < n; i++) {
        jobs[i]->rc = rc[i];
        jobs[i]->nv = nv[i];
        jobs[i]->done = 1;
    }
}

static void *db_main(void *arg) {
    srv *s = arg;
    pthread_mutex_lock(&s->db_lock);
    while (!s->db_quit) {
        if (!s->db_todo) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            long ms = atomic_load(&s->db_ready) ? PROBE_MS : PROBE_DOWN_MS;
            until.tv_sec += ms / 1000;
            until.tv_nsec += (ms % 1000) * 1000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            if (pthread_cond_timedwait(&s->db_cond, &s->db_lock, &until) && !s->db_todo &&
                !s->db_quit) {
                pthread_mutex_unlock(&s->db_lock);
                int ok = rv_store_ping(s->db_store) == RV_STORE_OK;
                atomic_store(&s->db_ready, ok);
                atomic_store(&s->db_session, rv_store_session(s->db_store));
                pthread_mutex_lock(&s->db_lock);
            }
            continue;
        }
        srv_db_job *batch = s->db_todo;
        s->db_todo = s->db_todo_tail = NULL;
        pthread_mutex_unlock(&s->db_lock);
        /* The commits waiting go to the database together (rooms have one job at a time,
           so no two of them are for the same game). */
        srv_db_job *commits[MAX_BATCH];
        int n = 0;
        for (srv_db_job *j = batch; j && n < MAX_BATCH; j = j->next)
            if (j->kind == SRV_DB_COMMIT) commits[n++] = j;
        if (n > 1) commit_batch(s, commits, n);
        srv_db_job *done = NULL, **tail = &done;
        while (batch) {
            srv_db_job *j = batch;
            batch = j->next;
            j->next = NULL;
            if (!j->done) run_job(s, j);
            atomic_store(&s->db_ready, j->rc != RV_STORE_FAIL);
            atomic_store(&s->db_session, rv_store_session(s->db_store));
            if (j->kind == SRV_DB_NOTIFY) {
                free(j);
                continue;
            }
            *tail = j;
            tail = &j->next;
        }
        pthread_mutex_lock(&s->db_lock);
        if (done) {
            /* Kept in order: the oldest answer is applied first. The network thread is woken
               only if it has not been already for answers it has not taken yet. */
            int wake = !s->db_done;
            srv_db_job **end = &s->db_done;
            while (*end) end = &(*end)->next;
            *end = done;
            if (wake) lws_cancel_service(s->ctx);
        }
    }
    pthread_mutex_unlock(&s->db_lock);
    return NULL;
}

int srv_db_start(srv *s, char *err, size_t errlen) {
    if (!rv_store_shared(s->store)) return 0;
    if (!(s->db_store = rv_store_open(s->db, err, errlen))) return -1;
    pthread_mutex_init(&s->db_lock, NULL);
    pthread_cond_init(&s->db_cond, NULL);
    atomic_store(&s->db_ready, 1);
    atomic_store(&s->db_session, rv_store_session(s->db_store));
    s->db_quit = 0;
    if (pthread_create(&s->db_thread, NULL, db_main, s)) {
        snprintf(err, errlen, "cannot start the store worker thread");
        pthread_mutex_destroy(&s->db_lock);
        pthread_cond_destroy(&s->db_cond);
        rv_store_close(s->db_store);
        s->db_store = NULL;
        return -1;
    }
    s->db_started = 1;
    return 0;
}

/* Takes a job out of its connection's list. */
static void conn_unlink(srv_db_job *j) {
    if (!j->conn) return;
    srv_db_job **pp = &j->conn->jobs;
    while (*pp && *pp != j) pp = &(*pp)->conn_next;
    if (*pp) *pp = j->conn_next;
    j->conn = NULL;
}

static void free_jobs(srv_db_job *j) {
    while (j) {
        srv_db_job *n = j->next;
        conn_unlink(j);
        free(j->msg);
        free(j->data.ev);
        free(j->start);
        free(j->act);
        if (j->out) srv_queue_free(j->out);
        free(j->out);
        free(j);
        j = n;
    }
}

void srv_db_stop(srv *s) {
    if (!s->db_started) return;
    pthread_mutex_lock(&s->db_lock);
    s->db_quit = 1;
    pthread_cond_signal(&s->db_cond);
    pthread_mutex_unlock(&s->db_lock);
    pthread_join(s->db_thread, NULL);
    s->db_started = 0;
    free_jobs(s->db_todo);
    free_jobs(s->db_done);
    s->db_todo = s->db_todo_tail = s->db_done = NULL;
    pthread_mutex_destroy(&s->db_lock);
    pthread_cond_destroy(&s->db_cond);
    rv_store_close(s->db_store);
    s->db_store = NULL;
}

void srv_db_submit(srv *s, srv_db_job *job) {
    job->next = NULL;
    if (job->conn) {
        job->conn_next = job->conn->jobs;
        job->conn->jobs = job;
    }
    if (job->room) job->room->busy = 1;
    pthread_mutex_lock(&s->db_lock);
    if (s->db_todo_tail) s->db_todo_tail->next = job;
    else s->db_todo = job;
    s->db_todo_tail = job;
    pthread_cond_signal(&s->db_cond);
    pthread_mutex_unlock(&s->db_lock);
}

void srv_db_notify(srv *s, const char *notice) {
    if (!s->db_started) return;
    srv_db_job *j = calloc(1, sizeof *j);
    if (!j) return;
    j->kind = SRV_DB_NOTIFY;
    snprintf(j->notice, sizeof j->notice, "%s", notice);
    srv_db_submit(s, j);
}

void srv_db_collect(srv *s) {
    if (!s->db_started) return;
    pthread_mutex_lock(&s->db_lock);
    srv_db_job *j = s->db_done;
    s->db_done = NULL;
    pthread_mutex_unlock(&s->db_lock);
    while (j) {
        srv_db_job *n = j->next;
        j->next = NULL;
        if (j->kind == SRV_DB_JOIN || j->kind == SRV_DB_ASK) {
            srv_conn *c = j->conn;
            conn_unlink(j);
            srv_conn_db_done(s, c, j);
        } else {
            srv_room_db_done(s, j);
        }
        free(j->msg);
        free(j->data.ev);
        free(j->start);
        free(j->act);
        if (j->out) srv_queue_free(j->out);
        free(j->out);
        free(j);
        j = n;
    }
}

int srv_db_ready(srv *s) {
    if (!s->db_started) return rv_store_ping(s->store) == RV_STORE_OK;
    return atomic_load(&s->db_ready);
}
