/* Internal structures of `renversi serve` shared by its files (network thread only,
 * except the AI queue, which has its own lock). */
#ifndef RV_SERVER_SRV_H
#define RV_SERVER_SRV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "renversi/game.h"
#include "renversi/game_ai.h"
#include "renversi/opening.h"
#include "server/store.h"

#define SRV_MAX_MESSAGE 4096     /* a client message larger than this is refused */
#define SRV_MAX_QUEUE 512        /* outgoing messages queued for one client before it is dropped */
#define SRV_RATE_BURST 40.0      /* rate limit: a bucket of this many messages ... */
#define SRV_RATE_PER_SEC 20.0    /* ... refilled at this rate */
#define SRV_ROOM_BUCKETS 1024
#define SRV_AI_MS 3000           /* the AI's time cap per move in the browser game */
#define SRV_CHAT_MAX 200         /* characters in one chat message */
#define SRV_CHAT_BURST 5.0       /* chat: a bucket of this many messages ... */
#define SRV_CHAT_PER_SEC 0.5     /* ... refilled at this rate */
#define SRV_OPENING_PROBE_MS 150 /* the engine's time per position weighed in an opening choice */

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
    double chat_bucket;        /* chat rate limit tokens */
    uint64_t chat_ns;
} srv_conn;

typedef struct room {
    struct room *next;         /* hash chain */
    rv_store_room rec;         /* id, mode, game id, tokens, AI colour and level */
    rv_game game;
    srv_conn *conns;
    int nconns;
    int64_t version;           /* the stored game's version this copy is at (store.h) */
    rv_color undo_request;     /* colour asking to take back a move (online) */
    int thinking;              /* an AI job is queued or running */
    int hints;                 /* hint jobs queued or running (the room stays loaded) */
    uint64_t gen;              /* new on load, undo, resign, new game: answers of the AI for an
                                  older state (or an earlier load of the room) are dropped */
    rv_opening open;           /* the opening rule's progress (Gomoku; free for Reversi) */
    int allow_hints;           /* online rooms: the creator allowed hints */
    int hints_used[3];         /* hints asked this game, by colour */
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
    rv_gomoku_ai *open_ai;     /* the worker's engine for opening choices */
    uint64_t ai_busy_gen;      /* generation of the job being thought about */
    char ai_busy_room[24];
} srv;

struct cJSON;

/* server.c: queue a text message for one client (copied). */
void srv_send(srv_conn *c, const char *text, size_t len);
/* rooms.c */
void srv_handle(srv *s, srv_conn *c, const char *text, size_t len);
void srv_error(srv_conn *c, const char *code, const char *message);
void srv_conn_closed(srv *s, srv_conn *c);
void srv_ai_done(srv *s, ai_job *job);
void srv_rooms_free(srv *s);
/* An error with parameters for the page's wording ("params":{...}; params is consumed). */
void srv_error_params(srv_conn *c, const char *code, const char *message, struct cJSON *params);
void srv_send_json(srv_conn *c, const struct cJSON *j);
void srv_broadcast_json(room *r, const struct cJSON *j);
void srv_broadcast_state(room *r);
/* Commits game g (its moves from ply keep on) as the room's game; 0 on success, and then the
   room holds g. */
int srv_room_commit(srv *s, room *r, const rv_game *g, int keep);
/* The colour whose holder must act now: the opening's actor, else the side to move. */
rv_color srv_turn(const room *r);
/* Does the computer hold the colour that must act now? */
int srv_ai_turn(const room *r);
/* The two players exchange colours (seats, tokens, the computer's colour). 0 on success. */
int srv_swap_colors(srv *s, room *r);
const char *srv_color_name(rv_color c);
/* "human" or "ai N" for the seat of colour `seat`, as the games table records it. */
const char *srv_player_label(const room *r, int seat, char *buf, size_t n);
/* chat.c: chat lines and the game's other events (hints used, opening choices). */
void srv_chat(srv *s, srv_conn *c, const struct cJSON *msg);
/* Stores an event of the room's current game and tells everyone in the room. 0 on success. */
int srv_event(srv *s, room *r, const char *kind, const char *who, const char *text);
/* Sends the current game's events to one client (after a join). */
void srv_send_events(srv *s, srv_conn *c, const room *r);
/* A game's events as a JSON array (NULL when they cannot be read). */
struct cJSON *srv_events_json(srv *s, int64_t game);
/* opening.c: the opening rule in a room. */
void srv_opening_msg(srv *s, srv_conn *c, const struct cJSON *msg);
/* A point given by a player while the opening waits for a stone or a pick. */
void srv_opening_point(srv *s, srv_conn *c, int x, int y);
/* Applies the computer's opening act (its turn in the room); the caller broadcasts. */
void srv_opening_ai_act(srv *s, room *r, const rv_opening_act *act);
/* The opening of a loaded game, replayed from its moves and events; 0 on success. */
int srv_opening_rebuild(room *r, const rv_store_event *ev, int nev);
/* The opening's part of the state message ("opening":{...}), malloc'd. */
char *srv_opening_json(const room *r);
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
