/* Internal structures of `renversi serve` shared by its files (network thread only,
 * except the AI queue and the store worker's queues, which have their own locks). */
#ifndef RV_SERVER_SRV_H
#define RV_SERVER_SRV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "renversi/game.h"
#include "renversi/game_ai.h"
#include "renversi/opening.h"
#include "server/store.h"

struct srv_event;
struct srv_db_job;
struct srv_deferred;

#define SRV_MAX_MESSAGE 4096     /* a client message larger than this is refused */
#define SRV_MAX_QUEUE_BYTES (256 * 1024) /* queued for one client before it is dropped */
#define SRV_MAX_QUEUE_TOTAL (64 * 1024 * 1024) /* queued for all: past it, backlogs are dropped */
#define SRV_STATE_STALE_MS 1000  /* a state unsent this long, or ... */
#define SRV_STATE_BACKLOG (64 * 1024) /* ... this much queued: a newer state replaces it */
#define SRV_RATE_BURST 40.0      /* rate limit: a bucket of this many messages ... */
#define SRV_RATE_PER_SEC 20.0    /* ... refilled at this rate */
#define SRV_ROOM_BUCKETS 1024
#define SRV_TICK_MS 250
#define SRV_AI_MS 3000           /* the AI's time cap per move in the browser game ... */
#define SRV_AI_MIN_MS 250        /* ... shrinking to this as the queue grows */
#define SRV_AI_WORKERS 4         /* AI threads at most (one per core) */
#define SRV_AI_QUEUE 64          /* AI jobs waiting at most; past it, rooms wait their turn */
#define SRV_AI_LEASE_S 20        /* a claimed AI job (shared store) is another server's after */
#define SRV_CHAT_MAX 200         /* characters in one chat message */
#define SRV_CHAT_BURST 5.0       /* chat: a bucket of this many messages ... */
#define SRV_CHAT_PER_SEC 0.5     /* ... refilled at this rate */
#define SRV_OPENING_PROBE_MS 150 /* the engine's time per position weighed in an opening choice */
#define SRV_PRESENCE_BEAT_MS 5000 /* a shared store: each server says it lives this often ... */
#define SRV_PRESENCE_LOST_MS 15000 /* ... and the clients it counted are gone when it is silent */
#define SRV_PRESENCE_PEERS 8     /* other servers' counts kept per room */

struct room;
struct lws;
struct lws_context;
struct lws_vhost;

/* outq.c: the bytes of all outgoing messages (one counter per server). */
typedef struct srv_queues {
    size_t bytes;
    unsigned long dropped;     /* connections dropped for not reading */
} srv_queues;

/* One outgoing message, shared by the queues it is in. */
typedef struct srv_buf {
    int refs;
    size_t len;
    srv_queues *owner;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the payload */
} srv_buf;

typedef struct srv_msg {
    struct srv_msg *next, *prev;
    srv_buf *buf;
    uint64_t queued_ns;        /* for a state: when it was queued */
    struct srv_msg *snext;     /* for a state: the next queued state (newer) */
} srv_msg;

typedef struct srv_conn {
    struct lws *wsi;
    struct room *room;
    int seat;                  /* RV_BLACK, RV_WHITE, or 0 for a spectator */
    struct srv_conn *next_in_room;
    srv_msg *qhead, *qtail;
    srv_msg *qsfirst, *qstate; /* the oldest and newest queued states (chained by snext):
                                  a client with a backlog gets the newest only (outq.c) */
    int qlen;
    size_t qbytes;
    srv_queues *queues;        /* the server's totals (NULL in a test harness) */
    int closing;
    char *rx;                  /* the message being received */
    size_t rxlen;
    int rx_too_big;
    uint64_t rx_ns;            /* when the message being received began (RV_SERVE_TRACE) */
    double bucket;             /* rate limit tokens */
    uint64_t bucket_ns;
    uint64_t rate_err_ns;      /* when the last rate-limit error was sent */
    double chat_bucket;        /* chat rate limit tokens */
    uint64_t chat_ns;
    /* A shared store: the store worker's jobs for this connection (a join, a list...), and
       while it joins a room, its messages waiting (rooms.c). */
    struct srv_db_job *jobs;
    int joining;
    struct srv_deferred *deferred, *deferred_tail;
} srv_conn;

typedef struct room {
    struct room *next;         /* hash chain */
    struct srv *owner;         /* the server whose table holds it */
    int dirty;                 /* its state is to be sent (srv_rooms_flush) */
    struct room *next_dirty;
    rv_store_room rec;         /* id, mode, game id, tokens, AI colour and level */
    rv_game game;
    srv_conn *conns;
    int nconns;
    int64_t version;           /* the stored game's version this copy is at (store.h) */
    rv_color undo_request;     /* colour asking to take back a move (online) */
    int thinking;              /* an AI job is queued or running */
    int ai_wait;               /* the computer is to move but has no job yet (a full queue,
                                  or its move could not be stored): retried by the tick */
    uint64_t ai_retry_ns;      /* when to retry */
    int ai_backoff_ms;         /* the wait after a failed commit, doubling */
    int ai_pending;            /* an AI job waits in the shared store's job table */
    int hints;                 /* hint jobs queued or running (the room stays loaded) */
    uint64_t gen;              /* new on load, undo, resign, new game: answers of the AI for an
                                  older state (or an earlier load of the room) are dropped */
    rv_opening open;           /* the opening rule's progress (Gomoku; free for Reversi) */
    int allow_hints;           /* online rooms: the creator allowed hints */
    int hints_used[3];         /* hints asked this game, by colour */
    /* A shared store (db_worker.c): the store worker has a job for the room (a commit, a
       re-read); its clients' messages wait in `deferred` until it is done. */
    int busy;
    srv_conn *busy_conn;       /* whose message the job answers (NULL: none, or left) */
    struct srv_deferred *deferred, *deferred_tail;
    int reread;                /* a change was heard meanwhile: read the room again after */
    /* Other servers' clients in this room (shared.c), by server. */
    int presence_dirty;        /* this server's counts changed: tell the others */
    int npeers;
    struct srv_peer {
        char instance[48];
        int black, white, spectators;
        uint64_t heard_ns;
    } peers[SRV_PRESENCE_PEERS];
} room;

typedef struct ai_job {
    struct ai_job *next;
    char room[24];
    uint64_t gen;
    int level;
    int hint;                  /* 0: the room's computer player moves; 1: a hint for `seat` */
    int opening;               /* 1: an opening act for the computer (open, act) */
    rv_opening open;
    rv_opening_act act;
    int seat;
    rv_game game;
    int status, x, y;          /* the answer */
    int cancelled;             /* withdrawn while running (under ai_lock) */
} ai_job;

/* listen.c: the listening socket and the accept thread. */
#define SRV_ACCEPT_QUEUE 256
#define SRV_SOCKET_SNDBUF (64 * 1024) /* the kernel's send buffer per connection */
/* relay.c: the thread between the clients' sockets and libwebsockets (RFC 6455 masking). */
typedef struct srv_relay srv_relay;
typedef struct srv_accepted {
    int fd;                    /* libwebsockets' end of the connection's socket pair */
    uint64_t serial;           /* the relay's number for it */
} srv_accepted;
typedef struct srv_listener {
    int fd;
    int port;                  /* the port bound (for --port 0) */
    long limit;                /* ulimit -n */
    int max_conns;             /* connections at once: the limit less a reserve, over the
                                  three descriptors each takes */
    pthread_t thread;
    int started, lock_ready;
    atomic_int quit;
    pthread_mutex_t lock;
    srv_accepted q[SRV_ACCEPT_QUEUE]; /* accepted connections for the network thread */
    int nq;
    srv_relay *relay;
    uint64_t logged_ns[2];
} srv_listener;

struct srv;
typedef struct srv_ai_worker {
    struct srv *s;
    pthread_t thread;
    rv_game_ai *ai;
    rv_gomoku_ai *open_ai;     /* for opening choices */
    ai_job *busy;              /* the job being thought about (under ai_lock) */
} srv_ai_worker;

typedef struct srv {
    struct lws_context *ctx;
    srv_listener listener;
    srv_queues out;
    room *dirty;               /* rooms whose state is to be sent */
    const char *origin_list;   /* --origin: allowed WebSocket Origins, comma-separated (NULL:
                                  the host the page was asked from) */
    rv_store *store;
    room *rooms[SRV_ROOM_BUCKETS];
    int nrooms;
    uint64_t last_gen;         /* generations are unique across rooms and reloads */
    /* AI workers */
    srv_ai_worker ai_workers[SRV_AI_WORKERS];
    int ai_nworkers;
    int ai_lock_ready;
    pthread_mutex_t ai_lock;
    pthread_cond_t ai_cond;
    ai_job *todo_head, *todo_tail, *done;
    int ai_queued;
    int ai_quit;
    /* A shared store (PostgreSQL; shared.c): other servers' commits, heard by a watch
       thread, and AI moves thought by a job thread for any server. */
    const char *db;
    char instance[48];         /* this server's name in the job table */
    int ai_lease_s;
    const char *msg_text;      /* the client message being handled (srv_handle) ... */
    size_t msg_len;            /* ... for a store job that may have to handle it again */
    int retry;                 /* a commit met a newer version: refresh and handle again */
    int retried;
    pthread_t watch_thread, job_thread;
    int watch_started, job_started;
    volatile int shared_quit;
    pthread_mutex_t ev_lock;
    struct srv_event *events;  /* heard, not yet applied (newest first) */
    rv_store_watch *watch;     /* both channels: changes, and new AI jobs for the job thread */
    pthread_mutex_t job_lock;
    pthread_cond_t job_cond;
    int job_kick;              /* a new job was heard (or the watch was lost): claim now */
    int job_lock_ready;
    rv_store *job_store;
    rv_game_ai *job_ai;
    uint64_t beat_ns;          /* when this server last said it lives */
    /* The store worker (db_worker.c): the database work of moves and re-reads, off the
       network thread, with its own connection. */
    pthread_t db_thread;
    int db_started, db_quit;
    pthread_mutex_t db_lock;
    pthread_cond_t db_cond;
    struct srv_db_job *db_todo, *db_todo_tail, *db_done;
    rv_store *db_store;
    atomic_int db_ready;       /* the worker's last database call (or probe) succeeded */
    atomic_int db_session;     /* the worker's database session (its commits' notices) */
    FILE *trace;               /* RV_SERVE_TRACE (trace.c), or NULL */
    pthread_mutex_t trace_lock;
} srv;

/* trace.c: RV_SERVE_TRACE, the stages of each move with their times (off unless set). */
void srv_trace_open(srv *s);
void srv_trace(srv *s, const char *stage, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void srv_trace_close(srv *s);

/* outq.c: queue a text message for one client (copied). */
void srv_send(srv_conn *c, const char *text, size_t len);
/* A shared message (refs 1, counted in q's total if q); release with srv_buf_unref. */
srv_buf *srv_buf_new(srv_queues *q, const char *text, size_t len);
void srv_buf_unref(srv_buf *b);
/* Queues a shared message; a state replaces the client's queued state not yet sent. */
void srv_send_buf(srv_conn *c, srv_buf *b, int is_state);
/* Writes the next queued message (on LWS_CALLBACK_SERVER_WRITEABLE); -1: close. */
int srv_queue_write(srv_conn *c);
/* Queues for TO a copy of each message queued for FROM (a connection that only collects). */
void srv_queue_copy(const srv_conn *from, srv_conn *to);
/* Frees a client's queue and receive buffer. */
void srv_queue_free(srv_conn *c);
/* rooms.c */
void srv_handle(srv *s, srv_conn *c, const char *text, size_t len);
void srv_error(srv_conn *c, const char *code, const char *message);
void srv_conn_closed(srv *s, srv_conn *c);
void srv_ai_done(srv *s, ai_job *job);
void srv_rooms_free(srv *s);
/* Sends the state of every room that changed since the last call (after each service). */
void srv_rooms_flush(srv *s);
struct cJSON;
/* An error with parameters for the page to word it with: the members of params (consumed)
   become members of the error, like `point` and `field`. */
void srv_error_params(srv_conn *c, const char *code, const char *message, struct cJSON *params);
void srv_send_json(srv_conn *c, const struct cJSON *j);
/* bad_request naming the member of the message that is missing or wrong (`field`). */
void srv_bad_request(srv_conn *c, const char *field, const char *message);
void srv_broadcast_json(room *r, const struct cJSON *j);
void srv_broadcast_state(room *r);
/* Commits game g (its moves from ply keep on) as the room's game; 0 on success, and then the
   room holds g. */
int srv_room_commit(srv *s, room *r, const rv_game *g, int keep);
/* The colour whose holder must act now: the opening's actor, else the side to move. */
rv_color srv_turn(const room *r);
/* Does the computer hold the colour that must act now? */
int srv_ai_turn(const room *r);
/* The computer is to act: queues its job (or lets the tick retry). */
void srv_ai_request(srv *s, room *r);
/* The two players have exchanged colours in the store (REC: the room as stored now, its
   tokens and computer colour exchanged): the room takes it, each seated connection follows
   its token to the other seat. */
void srv_swap_seats(room *r, const rv_store_room *rec);
const char *srv_color_name(rv_color c);
/* "human" or "ai N" for the seat of colour `seat`, as the games table records it. */
const char *srv_player_label(const rv_store_room *rec, int seat, char *buf, size_t n);
/* chat.c: chat lines and the game's other events (hints used, opening choices). */
void srv_chat(srv *s, srv_conn *c, const struct cJSON *msg);
/* Stores an event of the room's current game and tells everyone in the room. 0 on success. */
int srv_note(srv *s, room *r, const char *kind, const char *who, const char *text);
/* The same through the store worker on a shared store (the room waits; C, if not NULL,
   hears of a failure); at once otherwise. A "hint" note counts in the room's state. */
void srv_note_async(srv *s, room *r, srv_conn *c, const char *kind, const char *who,
                    const char *text);
/* A note of the store worker is done (network thread). */
void srv_note_done(srv *s, room *r, srv_conn *c, const struct srv_db_job *j);
/* Sends an event (a chat line, an opening choice...) to the room's clients on this server. */
void srv_event_broadcast(room *r, const char *kind, const char *who, const char *text, int ply,
                         int64_t created);
/* Sends the current game's events to one client (after a join). */
void srv_send_events(srv *s, srv_conn *c, const room *r);
/* Sends game `game`'s events, read already as a JSON array (taken over), to one client. */
void srv_send_events_array(srv_conn *c, int64_t game, struct cJSON *events);
/* A game's events as a JSON array (NULL when they cannot be read). */
struct cJSON *srv_events_json(rv_store *st, int64_t game);
/* Events read already as a JSON array (the settings left out). */
struct cJSON *srv_notes_json(const rv_store_note *ev, int n);
/* room_opening.c: the opening rule in a room. */
void srv_opening_msg(srv *s, srv_conn *c, const struct cJSON *msg);
/* A point given by a player while the opening waits for a stone or a pick. */
void srv_opening_point(srv *s, srv_conn *c, int x, int y);
/* Applies the computer's opening act (its turn in the room); the caller broadcasts. */
void srv_opening_ai_act(srv *s, room *r, const rv_opening_act *act);
/* The opening of a loaded game, replayed from its moves and notes; 0 on success. */
int srv_opening_rebuild(room *r, const rv_store_note *ev, int nev);
/* The opening's part of the state message ("opening":{...}), malloc'd. */
char *srv_opening_json(const room *r);
/* Every SRV_TICK_MS: rooms whose computer move waits for a job get one if they can. */
void srv_rooms_tick(srv *s);
/* Re-reads a loaded room and its game; tells its clients when anything changed. */
int srv_room_refresh(srv *s, room *r);
/* The same, with ROOM_TOO 0: the game only (a commit to the game the room is at). */
int srv_room_refresh_game(srv *s, room *r, int room_too);
/* The loaded room with this id, or NULL. */
room *srv_room_find(srv *s, const char *id);
/* Rebuilds game ID from a store (replaying every move through the rules). 0 on success. */
int srv_load_game(rv_store *st, int64_t id, rv_game *g, rv_store_game *hdr);
/* Commits game G (moves from ply KEEP on, result, undo request, an AI job at AI_LEVEL)
   against VERSION; with ACT (an opening act: its note, its swap; its change is ignored) all
   in one transaction. The store's RV_STORE_* answer, the new version in *nv. */
int srv_commit_game(rv_store *st, int64_t game_id, int64_t version, const rv_game *g, int keep,
                    int undo_request, int ai_level, const rv_store_act *act, int64_t *nv);
/* db_worker.c: the store worker (shared stores only). */
enum { SRV_DB_COMMIT, SRV_DB_READ, SRV_DB_NOTIFY, SRV_DB_START, SRV_DB_NOTE, SRV_DB_JOIN,
       SRV_DB_ASK, SRV_DB_ACT };
/* What a re-read of a room finds (srv_room_read). */
typedef struct srv_room_data {
    rv_store_room rec;
    rv_store_game hdr;
    rv_game game;
    rv_store_note *ev;
    int nev;
} srv_room_data;
/* A new game for a room (rooms.c): what rv_store_start_game stores and the room then holds. */
typedef struct srv_new_game {
    rv_store_room rec;         /* the room (its tokens, AI colour); on success as stored */
    int64_t old_game;          /* 0: a new room */
    int swap;                  /* the players exchange colours */
    char black[16], white[16], rules[64];
    rv_game game;
    rv_opening open;
    int allow_hints;
} srv_new_game;
struct srv_act;
typedef struct srv_db_job {
    struct srv_db_job *next;
    int kind;
    room *room;                /* held loaded while the job runs (room->busy) */
    /* SRV_DB_COMMIT: the change, the game it makes, and the message to handle again if
       another commit came first */
    int64_t game_id, version;
    int keep, nmoves, undo, ai;
    char moves[3][16];
    char result[128];
    rv_game after;
    char *msg;
    size_t msglen;
    int retried;
    int after_kind;            /* rooms.c: what else the room does once it is stored */
    int asker, by;             /* (a declined undo request: who asked, who declined) */
    char what[32];             /* "the move", "the undo"...: for the errors */
    /* SRV_DB_READ */
    int room_too;
    srv_room_data data;
    /* SRV_DB_NOTIFY: the notice; SRV_DB_NOTE: an event of game game_id (its text in
       `notice`) */
    char notice[RV_STORE_NOTICE];
    char note_kind[12], note_who[12];
    int note_ply;
    /* SRV_DB_START: a new game in the room (rv_store_start_game), `after` its empty board;
       `create`: a room being created, not stored yet */
    struct srv_new_game *start;
    /* SRV_DB_ACT: an opening act and the state it leads to (room_opening.c) */
    struct srv_act *act;
    /* SRV_DB_JOIN, SRV_DB_ASK: a job for a connection (NULL once it has closed), in its
       list of jobs. JOIN: room join_id is read into `data`; an open seat of an online room
       is claimed for a visitor without TOKEN (the seat in join_seat, its token in `claimed`).
       ASK: the message `msg` (list, replay, export) is answered into `out` (a connection
       that only collects messages). */
    srv_conn *conn;
    struct srv_db_job *conn_next;
    char join_id[24], join_token[40], claimed[40];
    int join_seat;
    srv_conn *out;
    /* the answer */
    int done;                  /* run already (with others, in one batch) */
    int rc;
    int64_t nv;
} srv_db_job;
int srv_db_start(srv *s, char *err, size_t errlen);
void srv_db_stop(srv *s);
/* Hands a job to the worker (taking it); for a room, marks it busy. */
void srv_db_submit(srv *s, srv_db_job *job);
/* Tells the other servers NOTICE (without waiting). */
void srv_db_notify(srv *s, const char *notice);
/* Applies the finished jobs (network thread). */
void srv_db_collect(srv *s);
/* Whether the database answered the worker's last call (SQLite: asks it now). */
int srv_db_ready(srv *s);
/* rooms.c: the room side of the worker's jobs. */
/* Reads what a refresh needs with store ST (any thread): 0 on success, d->ev malloc'd. */
int srv_room_read(rv_store *st, const char *id, const rv_store_room *cur, int room_too,
                  srv_room_data *d);
/* Takes what was read into the room and tells its clients (frees d->ev). */
void srv_room_apply(srv *s, room *r, srv_room_data *d);
/* A job of the worker is done: its answer goes to the room (network thread). */
void srv_room_db_done(srv *s, srv_db_job *job);
/* The store worker's part of an opening act: stores it (one transaction). */
int srv_act_store(rv_store *st, const struct srv_act *a, int64_t *nv);
/* An opening act the store worker has stored (or not): the room takes it, or the message is
   handled again on the room read anew, or its sender hears why not. */
void srv_act_done(srv *s, room *r, srv_db_job *j);
/* rooms.c, for jobs of other files: copies the message being handled into J (0 on success);
   reads room R again and then handles J's message anew (a conflict) for C. */
int srv_job_msg(srv *s, srv_db_job *j);
void srv_reread_retry(srv *s, room *r, srv_conn *c, srv_db_job *j);
/* A commit heard from another server, applied to the room's copy through the rules when it
   follows it directly (no opening under way); -1: the room must be read again. */
int srv_room_apply_commit(srv *s, room *r, int64_t version, int keep, int undo, int ai,
                          const char *moves, const char *result);
/* Re-reads the room through the worker (it is busy meanwhile); at once if it is busy. */
void srv_room_reread(srv *s, room *r);
/* Handles messages that waited for the room's job. */
void srv_room_run_deferred(srv *s, room *r);
/* A join or a question of connection C is done (C NULL: it has closed; network thread). */
void srv_conn_db_done(srv *s, srv_conn *c, srv_db_job *j);
/* The store worker's part of a join or a question (any thread; rooms.c). */
void srv_join_read(rv_store *st, srv_db_job *j);
void srv_ask_run(rv_store *st, srv_db_job *j);
/* Unloads the room if nobody and nothing holds it. */
void srv_room_maybe_unload(srv *s, room *r);
/* The clients of each seat in the room on this server. */
void srv_room_counts(const room *r, int *black, int *white, int *spectators);

/* shared.c (nothing happens for an SQLite store) */
int srv_shared_start(srv *s, char *err, size_t errlen);
void srv_shared_stop(srv *s);
/* Applies what the watch heard (network thread). */
void srv_shared_collect(srv *s);
/* Every tick: says this server lives, tells the others of rooms whose clients changed,
   forgets servers gone silent. */
void srv_shared_tick(srv *s);
/* A room was loaded: asks the other servers for their clients in it. */
void srv_shared_room_loaded(srv *s, room *r);
/* A room is unloaded: the other servers hear that its last client here left. */
void srv_shared_room_unloading(srv *s, room *r);
/* ai_worker.c */
int srv_ai_start(srv *s);
void srv_ai_stop(srv *s);
/* Queues the room's computer move; -1 when the queue is full (nothing queued). */
int srv_ai_submit(srv *s, room *r);
/* Asks the worker for a hint for the seat to move (answered to that seat only). */
int srv_ai_hint(srv *s, room *r, int seat);
/* Withdraws the room's queued jobs and stops its running ones. */
void srv_ai_cancel(srv *s, room *r);
/* Stops again the running jobs that were withdrawn (every tick). */
void srv_ai_restop(srv *s);
/* Moves finished jobs to the rooms (network thread). */
void srv_ai_collect(srv *s);
/* listen.c: binds host:port (0 on success, else *err). */
int srv_listen_open(srv_listener *l, const char *host, int port, char *err, size_t errlen);
/* Starts the accept thread (s->ctx set) and the relay: with a thread of its own, or, when
   IN_LOOP, served by the network thread (srv_relay_fd, srv_relay_run). */
int srv_listen_start(srv *s, int in_loop);
/* Hands the accepted connections to libwebsockets (network thread). */
void srv_listen_adopt(srv *s, struct lws_vhost *vh);
/* Stops the thread and closes the socket. */
void srv_listen_close(srv *s);
/* relay.c: starts the relay, with a thread of its own when OWN_THREAD, else served by
   srv_relay_run (NULL when it cannot). */
srv_relay *srv_relay_start(int own_thread);
/* A descriptor that is readable when the relay has work (without its own thread). */
int srv_relay_fd(const srv_relay *r);
/* Serves what is ready without waiting (network thread); 1 when pairs still have bytes
   moving (run it again before waiting for events). */
int srv_relay_run(srv_relay *r);
/* Stops it and closes every connection it holds. */
void srv_relay_stop(srv_relay *r);
/* Takes a client's socket; returns the descriptor for libwebsockets (-1 on failure, the
   socket left open) and the connection's number in *serial (accept thread). */
int srv_relay_add(srv_relay *r, int tcp_fd, uint64_t *serial);
/* libwebsockets accepted the WebSocket upgrade of connection `serial` (network thread). */
void srv_relay_upgraded(srv_relay *r, uint64_t serial);
/* Connections the relay holds. */
int srv_relay_count(const srv_relay *r);
/* tokens.c: n random bytes from the kernel as lower-case hex (2n chars + NUL). */
int srv_random_hex(char *out, size_t nbytes);

#endif
