/*
 * The store of `renversi serve`: rooms, games and their moves, behind one interface with
 * two implementations chosen by the --db argument:
 *   - SQLite (store_sqlite.c), a file path or ":memory:": the embedded default, one server;
 *   - PostgreSQL (store_pg.c), a `postgresql://` or `postgres://` URL (libpq): several
 *     server instances sharing the games.
 * Both hold the same tables and a schema version; rv_store_open runs the migrations up to
 * RV_STORE_SCHEMA_VERSION and refuses a database of a newer version without writing to it.
 *
 * Every write is committed before the call returns, so a `kill -9` loses nothing the server
 * acknowledged. A game carries a version that every change bumps: rv_store_commit applies a
 * change only to the version it was made against, so two servers can never both commit a
 * move for the same turn. One handle is used by one thread at a time.
 *
 * Adding a table or a column: one more migration in BOTH store_sqlite.c and store_pg.c
 * (same number, same meaning) and RV_STORE_SCHEMA_VERSION one higher.
 */
#ifndef RV_SERVER_STORE_H
#define RV_SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>

/* The schema this build writes (1: games, moves, rooms; 2: game versions, undo requests;
   3: AI jobs; 4: notes: chat and opening choices; 5: a commit's notice carries the change). */
#define RV_STORE_SCHEMA_VERSION 5

/* Results of the calls that return int. */
enum {
    RV_STORE_OK = 0,
    RV_STORE_FAIL = -1,     /* the database refused or could not be reached */
    RV_STORE_CONFLICT = -2, /* the row changed since it was read: nothing was written */
};

typedef struct rv_store rv_store;

/* A stored game's header (strings are copied into the fixed fields). */
typedef struct rv_store_game {
    int64_t id;
    char room[24];
    char variant[16]; /* freestyle, standard, renju, caro, reversi */
    int size;
    char black[16], white[16]; /* "human", "ai 3", ... */
    int64_t created;  /* unix seconds */
    int nmoves;
    char result[96];  /* "" while the game goes on */
    int64_t version;  /* bumped by every commit; 0 for a new game */
    int undo_request; /* 0, or the colour (1 black, 2 white) asking to take back a move */
    int ai_pending;   /* an AI job waits for this game (shared stores) */
} rv_store_game;

/* A stored room: its current game and the two seats' tokens ("" = open seat). */
typedef struct rv_store_room {
    char id[24];
    char mode[8];     /* "ai" or "online" */
    int64_t game_id;
    char token[2][40]; /* [0] black, [1] white */
    int ai_color;     /* 0 none, 1 black, 2 white, 3 both */
    int level;
} rv_store_room;

/*
 * One change to a game, made against `version`: the moves from ply `keep` on are deleted,
 * then `moves` (n of them) are stored as plies keep, keep+1, ...; the result and the undo
 * request are set. A move: keep = moves played, n = 1 (or 2 with a forced pass). An undo:
 * keep = moves left, n = 0. A resignation or an undo request: keep = moves played, n = 0.
 */
typedef struct rv_store_change {
    int64_t game;
    int64_t version;
    int keep;
    const char *const *moves;
    int n;
    const char *result;   /* "" while the game goes on */
    int undo_request;
    int ai_level;         /* > 0: the computer is to move next: shared stores queue an AI job
                             for the new version at this level (SQLite ignores it: its one
                             server thinks in process) */
} rv_store_change;

/*
 * Opens DB: a PostgreSQL URL (postgresql://... or postgres://...) or else an SQLite file
 * path (created if missing) or ":memory:", and migrates its schema. NULL on failure with a
 * one-line reason in err: a malformed URL, a refused login, a schema newer than this build.
 */
rv_store *rv_store_open(const char *db, char *err, size_t errlen);
void rv_store_close(rv_store *s);
/* "sqlite" or "postgresql". */
const char *rv_store_kind(const rv_store *s);
/* The schema version the open database is at (RV_STORE_SCHEMA_VERSION after a good open). */
int rv_store_schema_version(rv_store *s);
/* RV_STORE_OK when the database answers now (reconnecting first if it had gone away). */
int rv_store_ping(rv_store *s);
/* 1 when several servers may share this store (PostgreSQL): rooms must be re-read when
   rv_store_watch reports a change, and AI moves go through the job table. */
int rv_store_shared(const rv_store *s);
/* The database session of this handle (PostgreSQL: its backend's process id, which a watch
   reports as an event's sender); 0 for SQLite or while disconnected. */
int rv_store_session(rv_store *s);
/* Tells every watch of a shared store NOTICE (at most RV_STORE_NOTICE - 1 bytes, no NUL);
   RV_STORE_OK. SQLite: nothing to tell, RV_STORE_OK. */
int rv_store_notify(rv_store *s, const char *notice);
/* A lost connection is re-made without waiting (PostgreSQL): calls fail at once until it is
   back, and rv_store_ping advances it one step. For a handle of the network thread. */
void rv_store_set_nonblocking_reconnect(rv_store *s);

/* Creates a game row (version 0, no moves); returns its id, or -1. */
int64_t rv_store_new_game(rv_store *s, const char *room, const char *variant, int size,
                          const char *black, const char *white);
/*
 * Applies a change in one transaction if the game is still at change->version; then
 * *version (may be NULL) is the new version. RV_STORE_CONFLICT when another commit came
 * first, RV_STORE_FAIL on any other failure (a move text holding a space, a quote, a
 * backslash or a control character, for one); nothing is written in either case.
 */
int rv_store_commit(rv_store *s, const rv_store_change *change, int64_t *version);
/*
 * Applies N changes, each to a different game, as rv_store_commit would one by one: rc[i]
 * and version[i] (may be NULL) are change i's answer. PostgreSQL sends them together (one
 * round trip, one transaction; if that fails, one by one); SQLite commits them in turn.
 */
void rv_store_commit_many(rv_store *s, const rv_store_change *const *changes, int n, int *rc,
                          int64_t *version);
/* Reads a game header. RV_STORE_OK when found. */
int rv_store_get_game(rv_store *s, int64_t game, rv_store_game *out);
/*
 * Reads a game header and its moves at one moment (one snapshot): the moves in order into
 * a malloc'd array of malloc'd strings (*moves, *n), freed with rv_store_free_moves.
 * RV_STORE_OK when found; nothing is allocated otherwise.
 */
int rv_store_load_game(rv_store *s, int64_t game, rv_store_game *hdr, char ***moves, int *n);
void rv_store_free_moves(char **moves, int n);
/* The most recent games (up to MAX) with at least one move, newest first. Returns the count. */
int rv_store_list_games(rv_store *s, rv_store_game *out, int max);

/* Updates a game's players (after the colours were exchanged). RV_STORE_OK on success. */
int rv_store_set_players(rv_store *s, int64_t game, const char *black, const char *white);

#define RV_STORE_EVENT_TEXT 1024 /* bytes of an event's text, NUL included */

/*
 * Something said or decided during a game besides its moves: a chat line, a hint used, an
 * opening choice ("chat", "hint", "rules", "choose", "declare", "offer"), with who
 * ("black", "white", "spectator") and the number of moves on the board then.
 */
typedef struct rv_store_note {
    int ply;
    char kind[12];
    char who[12];
    int64_t created; /* unix seconds */
    char text[RV_STORE_EVENT_TEXT];
} rv_store_note;

/* Appends an event to a game (text cut to RV_STORE_EVENT_TEXT - 1 bytes). RV_STORE_OK on
   success. A shared store tells its watches: "!e ROOM GAME PLY CREATED KIND WHO TEXT" (WHO
   "-" when empty). */
int rv_store_add_event(rv_store *s, int64_t game, int ply, const char *kind, const char *who,
                       const char *text);
/* A game's events in order into a malloc'd array (*events, *n; free() it). RV_STORE_OK on
   success. */
int rv_store_get_events(rv_store *s, int64_t game, rv_store_note **events, int *n);

/* Inserts or replaces a room. RV_STORE_OK on success. */
int rv_store_put_room(rv_store *s, const rv_store_room *r);
/* Reads a room. RV_STORE_OK when found. */
int rv_store_get_room(rv_store *s, const char *id, rv_store_room *out);
/* Gives open seat SEAT (1 black, 2 white) of a room the token; CONFLICT if it has one. */
int rv_store_claim_seat(rv_store *s, const char *room, int seat, const char *token);
/* Points a room at game NEW if it is still at game OLD; CONFLICT otherwise. */
int rv_store_set_room_game(rv_store *s, const char *room, int64_t old_game, int64_t new_game);
/*
 * Starts a game in a room, all in one transaction: the game row (version 0, no moves, players
 * BLACK and WHITE), its "rules" event with text RULES, and the room pointed at it. OLD_GAME 0:
 * ROOM is a new room, stored whole. Otherwise the stored room must still be at game OLD_GAME
 * (RV_STORE_CONFLICT if not), and with SWAP its two tokens and the computer's colour are
 * exchanged there. On RV_STORE_OK *room is the room as stored (its new game id, its tokens);
 * on failure nothing is written and *room is untouched.
 */
int rv_store_start_game(rv_store *s, rv_store_room *room, int64_t old_game, int swap,
                        const char *variant, int size, const char *black, const char *white,
                        const char *rules);

/*
 * An opening act (Renju/Gomoku opening rules: swap, declare, choose, ...), stored whole: its
 * stones as `change` (n may be 0: the version is bumped all the same, so two servers cannot
 * both store an act for one turn), its note KIND/WHO/TEXT at ply change.keep + change.n
 * (KIND NULL: none) and, with SWAP, the exchange of room ROOM's two tokens and computer colour
 * (the room must still be at change.game) with the game's players set to BLACK and WHITE.
 */
typedef struct rv_store_act {
    rv_store_change change;
    const char *kind, *who, *text;
    int swap;
    const char *room, *black, *white;
} rv_store_act;
/* Stores an act in one transaction, checked like rv_store_commit: RV_STORE_OK with *version
   (may be NULL) the new version; RV_STORE_CONFLICT (the game or the room moved on) or
   RV_STORE_FAIL, and nothing is written. */
int rv_store_commit_act(rv_store *s, const rv_store_act *act, int64_t *version);

/*
 * AI jobs (shared stores; the SQLite store never holds any): a commit with ai_level queues
 * one for the game's new version, any later commit of the game drops it. A server claims
 * one for LEASE_S seconds; when its lease runs out (the server died while thinking) another
 * may claim it. Its move is then committed against job->version like any other.
 */
typedef struct rv_store_job {
    int64_t game;
    int64_t version;
    int level;
} rv_store_job;
/* Claims the oldest unclaimed or expired job for OWNER: 1 with *job set, 0 none, -1 failure. */
int rv_store_claim_job(rv_store *s, const char *owner, int lease_s, rv_store_job *job);
/* Removes a job if it is still for that version. RV_STORE_OK on success. */
int rv_store_drop_job(rv_store *s, const rv_store_job *job);

/*
 * Hearing other servers' commits (shared stores): a watch is its own connection to the
 * database DB, listening for changes to rooms, for new AI jobs, or for both (one connection:
 * PostgreSQL wakes every listening session for every notice, whatever its channel).
 */
typedef struct rv_store_watch rv_store_watch;
enum { RV_STORE_WATCH_ROOMS, RV_STORE_WATCH_JOBS, RV_STORE_WATCH_ALL };
/*
 * A change: a commit to GAME of ROOM at VERSION, or (game 0) to the room itself. The
 * notice's whole text is in `notice`: a commit's is "ROOM GAME VERSION KEEP UNDO AI MOVES
 * RESULT" (MOVES comma-separated or "-", RESULT the rest, maybe empty), a room's "ROOM";
 * notices of rv_store_notify and rv_store_add_event start with '!', which no room id does.
 */
#define RV_STORE_NOTICE 2048
typedef struct rv_store_event {
    char room[24];
    int64_t game;
    int64_t version;
    int sender;       /* the session that sent it (rv_store_session) */
    int job;          /* a new AI job (the notice is its game), not a change */
    char notice[RV_STORE_NOTICE];
} rv_store_event;
/* Opens a watch on DB (a PostgreSQL URL); NULL with err set otherwise. */
rv_store_watch *rv_store_watch_open(const char *db, int what, char *err, size_t errlen);
/*
 * Waits up to TIMEOUT_MS: 1 with *ev set, 0 when nothing came, -1 when the connection was
 * lost or has just been re-made (changes may have been missed: re-read what you hold).
 */
int rv_store_watch_next(rv_store_watch *w, int timeout_ms, rv_store_event *ev);
void rv_store_watch_close(rv_store_watch *w);

#endif
