/*
 * Several servers on one PostgreSQL store. Two threads, each with its own connection:
 *   - the watch thread hears every server's notices (LISTEN renversi) and hands them to the
 *     network thread through lws_cancel_service() (not the store worker's own commits, which
 *     the network thread has from the worker), and new AI jobs (LISTEN renversi_jobs, on the
 *     same connection) to the job thread: a commit's notice carries the change, which
 *     the rooms loaded here replay through the rules (no read; a room that cannot follow is
 *     read again by the store worker, db_worker.c); chat lines and opening choices stored by
 *     another server ("!e") go to this server's clients of the room;
 *   - the job thread claims AI jobs of any room (FOR UPDATE SKIP LOCKED, with a lease, so a
 *     job whose server died is taken again), thinks, and commits the move against the
 *     job's version like any other move; every server with watchers hears of it.
 * Presence: each server tells the others how many clients it has at each seat of a room
 * ("!p ROOM SERVER BLACK WHITE SPECTATORS") when that changes or another server loads the room
 * ("!q ROOM"), says it lives every SRV_PRESENCE_BEAT_MS ("!h SERVER") and that it stops
 * ("!x SERVER"); the counts of a server silent for SRV_PRESENCE_LOST_MS (killed) are dropped.
 * Nothing here runs for an SQLite store: one server holds it.
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "renversi/core.h"
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
    int wake = !s->events; /* else the network thread is woken already and takes this too */
    e->next = s->events;
    s->events = e;
    pthread_mutex_unlock(&s->ev_lock);
    if (wake) lws_cancel_service(s->ctx);
}

/* Wakes the job thread to claim a job now. */
static void kick_jobs(srv *s) {
    pthread_mutex_lock(&s->job_lock);
    s->job_kick = 1;
    pthread_cond_signal(&s->job_cond);
    pthread_mutex_unlock(&s->job_lock);
}

/* The job thread waits up to MS for a kick (jobs whose lease ran out are seen by the claim
   that follows, so it claims at least every MS). */
static void wait_for_jobs(srv *s, long ms) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->job_lock);
    if (!s->job_kick && !s->shared_quit) pthread_cond_timedwait(&s->job_cond, &s->job_lock, &until);
    s->job_kick = 0;
    pthread_mutex_unlock(&s->job_lock);
}

static void *watch_main(void *arg) {
    srv *s = arg;
    while (!s->shared_quit) {
        rv_store_event ev;
        int rc = rv_store_watch_next(s->watch, 250, &ev);
        if (rc == 1 && ev.job) {
            kick_jobs(s);
        } else if (rc == 1) {
            srv_trace(s, "heard", "%d %s", ev.sender, ev.notice);
            /* The store worker's own commits and chat lines are applied (or told) already
               (heard_change, heard_event): not worth waking the network thread for. */
            int ours = ev.sender && ev.sender == atomic_load(&s->db_session);
            if (ours && (ev.notice[0] != '!' || !strncmp(ev.notice, "!e ", 3))) continue;
            push_event(s, &ev, 0);
        } else if (rc < 0) {
            /* Lost (or back): anything may have been missed, jobs too. */
            push_event(s, NULL, 1);
            kick_jobs(s);
        }
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
    int rc = srv_commit_game(st, job->game, job->version, g, from, 0, again, NULL, NULL);
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
        /* None (or the database is away): wait for a new job (the watch thread hears of it),
           at most a second, so that jobs whose lease runs out are seen too. */
        if (got < 0) usleep(250 * 1000);
        else wait_for_jobs(s, 1000);
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
    pthread_mutex_init(&s->job_lock, NULL);
    pthread_cond_init(&s->job_cond, NULL);
    s->job_lock_ready = 1;
    s->job_kick = 0;
    s->shared_quit = 0;
    /* One listening connection for both channels: PostgreSQL wakes every listening session
       for every notice, so a second one would wake for each move to find nothing. */
    if (!(s->watch = rv_store_watch_open(s->db, RV_STORE_WATCH_ALL, err, errlen)) ||
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
    if (s->instance[0]) {
        /* The other servers forget this one's clients now rather than when it falls silent. */
        char n[64];
        snprintf(n, sizeof n, "!x %s", s->instance);
        rv_store_notify(s->store, n);
    }
    s->shared_quit = 1;
    if (s->job_lock_ready) kick_jobs(s);
    if (s->job_ai) rv_game_ai_stop(s->job_ai);
    if (s->watch_started) pthread_join(s->watch_thread, NULL);
    if (s->job_started) pthread_join(s->job_thread, NULL);
    s->watch_started = s->job_started = 0;
    rv_store_watch_close(s->watch);
    rv_store_close(s->job_store);
    if (s->job_ai) rv_game_ai_free(s->job_ai);
    if (s->job_lock_ready) {
        pthread_mutex_destroy(&s->job_lock);
        pthread_cond_destroy(&s->job_cond);
        s->job_lock_ready = 0;
    }
    s->watch = NULL;
    s->job_store = NULL;
    s->job_ai = NULL;
    while (s->events) {
        srv_event *e = s->events;
        s->events = e->next;
        free(e);
    }
    pthread_mutex_destroy(&s->ev_lock);
}

/* The next space-separated word of a notice into buf (cut to fit); the rest after it. */
static const char *word(const char *p, char *buf, size_t n) {
    size_t k = strcspn(p, " ");
    snprintf(buf, n, "%.*s", (int)(k < n ? k : n - 1), p);
    p += k;
    return *p == ' ' ? p + 1 : p;
}

/* A commit or a room's change heard from another server (or from this one's AI thread). */
static void heard_change(srv *s, room *r, const rv_store_event *ev) {
    /* This server's own moves are applied when the worker answers, its other changes
       before they were told. */
    if (ev->sender &&
        (ev->sender == atomic_load(&s->db_session) || ev->sender == rv_store_session(s->store)))
        return;
    /* Our own commit (or one we have re-read already) needs nothing. */
    if (ev->game && ev->game == r->rec.game_id && ev->version <= r->version) return;
    if (ev->game && ev->game == r->rec.game_id) {
        char w[64];
        const char *p = word(word(word(ev->notice, w, sizeof w), w, sizeof w), w, sizeof w);
        int keep, undo, ai;
        if (*p && sscanf(p, "%d %d %d", &keep, &undo, &ai) == 3) {
            char moves[80];
            p = word(word(word(p, w, sizeof w), w, sizeof w), w, sizeof w);
            size_t k = strcspn(p, " ");
            if (k > 0 && k < sizeof moves) {
                p = word(p, moves, sizeof moves);
                /* The change itself: the rules replay it on this copy, no read needed. */
                if (!srv_room_apply_commit(s, r, ev->version, keep, undo, ai, moves, p)) return;
            }
        }
    }
    srv_room_reread(s, r);
}

static room *loaded(srv *s, const char *id) { return srv_room_find(s, id); }

/* "!e ROOM GAME PLY CREATED KIND WHO TEXT": a chat line or a choice stored by another server. */
static void heard_event(srv *s, const rv_store_event *ev) {
    /* Ours (the network thread's or the store worker's): told already. */
    if (ev->sender &&
        (ev->sender == rv_store_session(s->store) || ev->sender == atomic_load(&s->db_session)))
        return;
    char id[24], w[32], kind[12], who[12];
    const char *p = word(ev->notice + 3, id, sizeof id);
    room *r = loaded(s, id);
    if (!r) return;
    long long game = 0, ply = 0, created = 0;
    p = word(p, w, sizeof w);
    game = strtoll(w, NULL, 10);
    p = word(p, w, sizeof w);
    ply = strtoll(w, NULL, 10);
    p = word(p, w, sizeof w);
    created = strtoll(w, NULL, 10);
    p = word(p, kind, sizeof kind);
    p = word(p, who, sizeof who);
    if (game != r->rec.game_id || !kind[0]) return;
    srv_event_broadcast(r, kind, strcmp(who, "-") ? who : "", p, (int)ply, created);
    /* Opening choices and hints change the room's state: read it again. */
    if (strcmp(kind, "chat")) srv_room_reread(s, r);
}

/* Another server's clients in a room: "!p ROOM SERVER BLACK WHITE SPECTATORS". */
static void heard_presence(srv *s, const rv_store_event *ev) {
    char id[24], inst[48];
    const char *p = word(word(ev->notice + 3, id, sizeof id), inst, sizeof inst);
    int b, w, sp;
    if (!strcmp(inst, s->instance) || sscanf(p, "%d %d %d", &b, &w, &sp) != 3) return;
    room *r = loaded(s, id);
    if (!r) return;
    int i = 0;
    while (i < r->npeers && strcmp(r->peers[i].instance, inst)) i++;
    if (b <= 0 && w <= 0 && sp <= 0) {
        if (i == r->npeers) return;
        r->peers[i] = r->peers[--r->npeers];
    } else {
        if (i == r->npeers) {
            if (r->npeers == SRV_PRESENCE_PEERS) return;
            r->npeers++;
            snprintf(r->peers[i].instance, sizeof r->peers[i].instance, "%s", inst);
        }
        r->peers[i].black = b;
        r->peers[i].white = w;
        r->peers[i].spectators = sp;
        r->peers[i].heard_ns = rv_clock_ns();
    }
    srv_broadcast_state(r);
}

/* Every room: F(s, r, arg). */
static void each_room(srv *s, void (*f)(srv *, room *, const char *), const char *arg) {
    for (int i = 0; i < SRV_ROOM_BUCKETS; i++)
        for (room *r = s->rooms[i], *n; r; r = n) {
            n = r->next;
            f(s, r, arg);
        }
}

static void mark_presence(srv *s, room *r, const char *arg) {
    (void)s;
    (void)arg;
    if (r->nconns) r->presence_dirty = 1;
}

/* "!h SERVER": it lives (its counts stay); "!x SERVER": it stopped (they go). */
static void peer_heard(srv *s, room *r, const char *inst) {
    (void)s;
    for (int i = 0; i < r->npeers; i++)
        if (!strcmp(r->peers[i].instance, inst)) r->peers[i].heard_ns = rv_clock_ns();
}

static void peer_gone(srv *s, room *r, const char *inst) {
    (void)s;
    for (int i = 0; i < r->npeers; i++)
        if (!inst || !strcmp(r->peers[i].instance, inst)) {
            r->peers[i--] = r->peers[--r->npeers];
            srv_broadcast_state(r);
        }
}

static void peer_expire(srv *s, room *r, const char *arg) {
    (void)s;
    (void)arg;
    uint64_t now = rv_clock_ns();
    for (int i = 0; i < r->npeers; i++)
        if (now - r->peers[i].heard_ns > (uint64_t)SRV_PRESENCE_LOST_MS * 1000000u) {
            r->peers[i--] = r->peers[--r->npeers];
            srv_broadcast_state(r);
        }
}

static void reread_room(srv *s, room *r, const char *arg) {
    (void)arg;
    srv_room_reread(s, r);
}

static void heard_notice(srv *s, const rv_store_event *ev) {
    const char *n = ev->notice;
    char arg[48];
    if (!strncmp(n, "!e ", 3)) return heard_event(s, ev);
    if (!strncmp(n, "!p ", 3)) return heard_presence(s, ev);
    word(n + 3, arg, sizeof arg);
    if (!strncmp(n, "!q ", 3)) {
        /* A server loaded a room (or all, "*"): those who have clients in it say so. */
        room *r = strcmp(arg, "*") ? loaded(s, arg) : NULL;
        if (r) mark_presence(s, r, NULL);
        else if (!strcmp(arg, "*")) each_room(s, mark_presence, NULL);
    } else if (!strncmp(n, "!h ", 3) && strcmp(arg, s->instance)) {
        each_room(s, peer_heard, arg);
    } else if (!strncmp(n, "!x ", 3) && strcmp(arg, s->instance)) {
        each_room(s, peer_gone, arg);
    }
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
        } else if (x->ev.notice[0] == '!') {
            heard_notice(s, &x->ev);
        } else {
            room *r = loaded(s, x->ev.room);
            if (r) heard_change(s, r, &x->ev);
        }
    }
    while (rev) {
        srv_event *n = rev->next;
        free(rev);
        rev = n;
    }
    if (resync) {
        /* Anything may have been missed: every room is read again, every server says who
           it has where. */
        each_room(s, reread_room, NULL);
        srv_db_notify(s, "!q *");
    }
}

void srv_shared_room_loaded(srv *s, room *r) {
    if (!s->db_started) return;
    char n[64];
    snprintf(n, sizeof n, "!q %s", r->rec.id);
    srv_db_notify(s, n);
}

static void send_presence(srv *s, room *r, const char *arg) {
    (void)arg;
    if (!r->presence_dirty) return;
    r->presence_dirty = 0;
    int b, w, sp;
    srv_room_counts(r, &b, &w, &sp);
    char n[128];
    snprintf(n, sizeof n, "!p %s %s %d %d %d", r->rec.id, s->instance, b, w, sp);
    srv_db_notify(s, n);
}

void srv_shared_room_unloading(srv *s, room *r) {
    if (s->db_started) send_presence(s, r, NULL);
}

void srv_shared_tick(srv *s) {
    if (!s->db_started) return;
    /* The network thread's own connection comes back a step at a time (never waited for). */
    if (!rv_store_session(s->store)) rv_store_ping(s->store);
    each_room(s, send_presence, NULL);
    uint64_t now = rv_clock_ns();
    if (now - s->beat_ns >= (uint64_t)SRV_PRESENCE_BEAT_MS * 1000000u) {
        s->beat_ns = now;
        char n[64];
        snprintf(n, sizeof n, "!h %s", s->instance);
        srv_db_notify(s, n);
        each_room(s, peer_expire, NULL);
    }
}
