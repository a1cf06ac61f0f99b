/* Internal structures of `renversi serve` shared by its files (network thread only,
 * except the AI queue, which has its own lock). */
#ifndef RV_SERVER_SRV_H
#define RV_SERVER_SRV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "renversi/game.h"
#include "renversi/game_ai.h"
#include "server/store.h"

struct srv_event;

#define SRV_MAX_MESSAGE 4096     /* a client message larger than this is refused */
#define SRV_MAX_QUEUE 512        /* outgoing messages queued for one client before it is dropped */
#define SRV_RATE_BURST 40.0      /* rate limit: a bucket of this many messages ... */
#define SRV_RATE_PER_SEC 20.0    /* ... refilled at this rate */
#define SRV_ROOM_BUCKETS 1024
#define SRV_AI_MS 3000           /* the AI's time cap per move in the browser game */
#define SRV_AI_LEASE_S 20        /* a claimed AI job (shared store) is another server's after */

struct room;
struct lws;
struct lws_context;

typedef struct srv_msg {
    struct srv_msg *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the payload */
} srv_msg;

typedef struct srv_conn {
    struct lws *wsi;
    struct room *room;
    int seat;                  /* RV_BLACK, RV_WHITE, or 0 for a spectator */
    struct srv_conn *next_in_room;
    srv_msg *qhead, *qtail;
    int qlen;
    int closing;
    char *rx;                  /* the message being received */
    size_t rxlen;
    int rx_too_big;
    double bucket;             /* rate limit tokens */
    uint64_t bucket_ns;
    uint64_t rate_err_ns;      /* when the last rate-limit error was sent */
} srv_conn;

typedef struct room {
    struct room *next;         /* hash chain */
    rv_store_room rec;         /* id, mode, game id, tokens, AI colour and level */
    rv_game game;
    srv_conn *conns;
    int nconns;
    int64_t version;           /* the stored game's version this copy is at (store.h) */
    rv_color undo_request;     /* colour asking to take back a move (online) */
    int thinking;              /* an AI job is queued or running (in this process) */
    int ai_pending;            /* an AI job waits in the shared store's job table */
    int hints;                 /* hint jobs queued or running (the room stays loaded) */
    uint64_t gen;              /* new on load, undo, resign, new game: answers of the AI for an
                                  older state (or an earlier load of the room) are dropped */
} room;

typedef struct ai_job {
    struct ai_job *next;
    char room[24];
    uint64_t gen;
    int level;
    int hint;                  /* 0: the room's computer player moves; 1: a hint for `seat` */
    int seat;
    rv_game game;
    int status, x, y;          /* the answer */
} ai_job;

typedef struct srv {
    struct lws_context *ctx;
    rv_store *store;
    room *rooms[SRV_ROOM_BUCKETS];
    int nrooms;
    uint64_t last_gen;         /* generations are unique across rooms and reloads */
    /* AI worker */
    pthread_t ai_thread;
    int ai_started;
    pthread_mutex_t ai_lock;
    pthread_cond_t ai_cond;
    ai_job *todo_head, *todo_tail, *done;
    int ai_quit;
    rv_game_ai *ai;
    uint64_t ai_busy_gen;      /* generation of the job being thought about */
    char ai_busy_room[24];
    /* A shared store (PostgreSQL; shared.c): other servers' commits, heard by a watch
       thread, and AI moves thought by a job thread for any server. */
    const char *db;
    char instance[48];         /* this server's name in the job table */
    int ai_lease_s;
    int retry;                 /* a commit met a newer version: refresh and handle again */
    int retried;
    pthread_t watch_thread, job_thread;
    int watch_started, job_started;
    volatile int shared_quit;
    pthread_mutex_t ev_lock;
    struct srv_event *events;  /* heard, not yet applied (newest first) */
    rv_store_watch *watch, *job_watch;
    rv_store *job_store;
    rv_game_ai *job_ai;
} srv;

/* server.c: queue a text message for one client (copied). */
void srv_send(srv_conn *c, const char *text, size_t len);
/* rooms.c */
void srv_handle(srv *s, srv_conn *c, const char *text, size_t len);
void srv_error(srv_conn *c, const char *code, const char *message);
void srv_conn_closed(srv *s, srv_conn *c);
void srv_ai_done(srv *s, ai_job *job);
void srv_rooms_free(srv *s);
/* Re-reads a loaded room and its game; tells its clients when anything changed. */
int srv_room_refresh(srv *s, room *r);
/* The loaded room with this id, or NULL. */
room *srv_room_find(srv *s, const char *id);
/* Rebuilds game ID from a store (replaying every move through the rules). 0 on success. */
int srv_load_game(rv_store *st, int64_t id, rv_game *g, rv_store_game *hdr);
/* Commits game G (moves from ply KEEP on, result, undo request, an AI job at AI_LEVEL)
   against VERSION; the store's RV_STORE_* answer, the new version in *nv. */
int srv_commit_game(rv_store *st, int64_t game_id, int64_t version, const rv_game *g, int keep,
                    int undo_request, int ai_level, int64_t *nv);
/* shared.c (nothing happens for an SQLite store) */
int srv_shared_start(srv *s, char *err, size_t errlen);
void srv_shared_stop(srv *s);
/* Applies what the watch heard (network thread). */
void srv_shared_collect(srv *s);
/* ai_worker.c */
int srv_ai_start(srv *s);
void srv_ai_stop(srv *s);
void srv_ai_submit(srv *s, room *r);
/* Asks the worker for a hint for the seat to move (answered to that seat only). */
void srv_ai_hint(srv *s, room *r, int seat);
void srv_ai_cancel(srv *s, room *r);
/* Moves finished jobs to the rooms (network thread). */
void srv_ai_collect(srv *s);
/* tokens.c: n random bytes from the kernel as lower-case hex (2n chars + NUL). */
int srv_random_hex(char *out, size_t nbytes);

#endif
