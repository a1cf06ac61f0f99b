/* The SQLite store: one server owns the file; migrations, prepared statements, one
 * committed transaction per write (see store.h). */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server/store_impl.h"

enum {
    Q_BEGIN,
    Q_COMMIT,
    Q_ROLLBACK,
    Q_NEW_GAME,
    Q_VERSION,
    Q_TRUNCATE,
    Q_ADD_MOVE,
    Q_SET_GAME,
    Q_GET_GAME,
    Q_GET_MOVES,
    Q_LIST,
    Q_PUT_ROOM,
    Q_GET_ROOM,
    Q_CLAIM,
    Q_SET_ROOM_GAME,
    Q_SET_PLAYERS,
    Q_ADD_EVENT,
    Q_GET_EVENTS,
    Q_NEXT_GAME,
    Q_COUNT
};

#define GAME_COLUMNS                                                                          \
    "id, room, variant, size, black, white, created, result, "                               \
    "(SELECT count(*) FROM moves m WHERE m.game = g.id), version, undo_request, "             \
    "EXISTS(SELECT 1 FROM ai_jobs j WHERE j.game = g.id)"

static const char *const sql_text[Q_COUNT] = {
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_NEW_GAME] = "INSERT INTO games(room, variant, size, black, white, created, result) "
                   "VALUES(?,?,?,?,?,?,'')",
    [Q_VERSION] = "SELECT version FROM games WHERE id = ?",
    [Q_TRUNCATE] = "DELETE FROM moves WHERE game = ? AND ply >= ?",
    [Q_ADD_MOVE] = "INSERT INTO moves(game, ply, move) VALUES(?,?,?)",
    [Q_SET_GAME] = "UPDATE games SET version = ?, result = ?, undo_request = ? WHERE id = ?",
    [Q_GET_GAME] = "SELECT " GAME_COLUMNS " FROM games g WHERE id = ?",
    [Q_GET_MOVES] = "SELECT move FROM moves WHERE game = ? ORDER BY ply",
    [Q_LIST] = "SELECT " GAME_COLUMNS " FROM games g WHERE EXISTS "
               "(SELECT 1 FROM moves m WHERE m.game = g.id) ORDER BY id DESC LIMIT ?",
    [Q_PUT_ROOM] = "INSERT OR REPLACE INTO rooms(id, mode, game, black_token, white_token, "
                   "ai_color, level) VALUES(?,?,?,?,?,?,?)",
    [Q_GET_ROOM] = "SELECT id, mode, game, black_token, white_token, ai_color, level "
                   "FROM rooms WHERE id = ?",
    [Q_CLAIM] = "UPDATE rooms SET black_token = CASE WHEN ?2 = 1 THEN ?3 ELSE black_token END,"
                " white_token = CASE WHEN ?2 = 2 THEN ?3 ELSE white_token END WHERE id = ?1"
                " AND coalesce(CASE WHEN ?2 = 1 THEN black_token ELSE white_token END, '') = ''",
    [Q_SET_ROOM_GAME] = "UPDATE rooms SET game = ?3 WHERE id = ?1 AND game = ?2",
    [Q_SET_PLAYERS] = "UPDATE games SET black = ?, white = ? WHERE id = ?",
    [Q_ADD_EVENT] = "INSERT INTO events(game, ply, kind, who, created, text) VALUES(?,?,?,?,?,?)",
    [Q_GET_EVENTS] = "SELECT ply, kind, who, created, text FROM events WHERE game = ? ORDER BY seq",
    /* A room moves on to its next game, the seats exchanged when ?4 (SET reads the old row). */
    [Q_NEXT_GAME] = "UPDATE rooms SET game = ?3, black_token = CASE WHEN ?4 THEN white_token"
                    " ELSE black_token END, white_token = CASE WHEN ?4 THEN black_token ELSE"
                    " white_token END, ai_color = CASE WHEN ?4 THEN ((ai_color & 1) << 1) |"
                    " ((ai_color & 2) >> 1) ELSE ai_color END WHERE id = ?1 AND game = ?2",
};

/*
 * The migrations: migration[v] takes the schema from version v-1 to v. Version 1 is the
 * schema that databases written before versions existed already have (hence IF NOT EXISTS).
 * store_pg.c has the same list for PostgreSQL.
 */
static const char *const migration[RV_STORE_SCHEMA_VERSION + 1] = {
    [1] = "CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY, room TEXT,"
          " variant TEXT NOT NULL, size INTEGER NOT NULL, black TEXT, white TEXT,"
          " created INTEGER, result TEXT);"
          "CREATE TABLE IF NOT EXISTS moves(game INTEGER NOT NULL REFERENCES games(id),"
          " ply INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY(game, ply)) WITHOUT ROWID;"
          "CREATE TABLE IF NOT EXISTS rooms(id TEXT PRIMARY KEY, mode TEXT, game INTEGER,"
          " black_token TEXT, white_token TEXT, ai_color INTEGER, level INTEGER);",
    [2] = "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;"
          "ALTER TABLE games ADD COLUMN undo_request INTEGER NOT NULL DEFAULT 0;",
    /* The job table of shared stores; one SQLite server thinks in process and leaves it
       empty. */
    [3] = "CREATE TABLE ai_jobs(game INTEGER PRIMARY KEY REFERENCES games(id), version INTEGER"
          " NOT NULL, level INTEGER NOT NULL, owner TEXT, lease_until INTEGER, created INTEGER);",
    [4] = "CREATE TABLE events(seq INTEGER PRIMARY KEY, game INTEGER NOT NULL REFERENCES"
          " games(id), ply INTEGER NOT NULL, kind TEXT NOT NULL, who TEXT, created INTEGER,"
          " text TEXT);"
          "CREATE INDEX events_game ON events(game, seq);",
    /* PostgreSQL's commit function tells the change itself; SQLite has no watches. */
    [5] = "",
};

typedef struct sqlite_store {
    rv_store base;
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
    int version; /* the schema's */
} sqlite_store;

static sqlite_store *S(rv_store *s) { return (sqlite_store *)s; }

static void st_close(rv_store *base) {
    sqlite_store *s = S(base);
    for (int i = 0; i < Q_COUNT; i++) sqlite3_finalize(s->q[i]);
    sqlite3_close(s->db);
    free(s);
}

/* The schema version written in the file (0 for a new file or one from before versions);
   -1 when it cannot be read. Reads only. */
static int read_version(sqlite_store *s) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                           "name = 'schema_version'",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st), has = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (has <= 0) return has;
    if (sqlite3_prepare_v2(s->db, "SELECT max(version) FROM schema_version", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

/* Runs the migrations from the file's version up to this build's, in one transaction. */
static int migrate(sqlite_store *s, char *err, size_t errlen, const char *path) {
    char *msg = NULL;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK) goto fail;
    int from = read_version(s);
    if (from < 0) goto fail;
    for (int v = from + 1; v <= RV_STORE_SCHEMA_VERSION; v++)
        if (sqlite3_exec(s->db, migration[v], NULL, NULL, &msg) != SQLITE_OK) goto fail;
    char sql[160];
    snprintf(sql, sizeof sql,
             "CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL);"
             "DELETE FROM schema_version; INSERT INTO schema_version VALUES(%d); COMMIT",
             RV_STORE_SCHEMA_VERSION);
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) goto fail;
    return 0;
fail:
    snprintf(err, errlen, "database '%s': migrating the schema to version %d: %s", path,
             RV_STORE_SCHEMA_VERSION, msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static int st_schema_version(rv_store *s) { return S(s)->version; }

static const rv_store_ops sqlite_ops;

/* Why PATH (or its directory) cannot be written, or NULL when it can or it is unclear. */
static const char *not_writable(const char *path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    if (access(path, F_OK) == 0 && access(path, W_OK) != 0)
        return errno == EROFS ? "the file system is read-only" : "the file is read-only";
    if (access(dir, W_OK) != 0 && (errno == EROFS || errno == EACCES || errno == EPERM))
        return errno == EROFS ? "the file system is read-only"
                              : "the directory is read-only (the journal is a file beside it)";
    return NULL;
}

/* The start-up error: a damaged file and a read-only place are named as such. */
static void open_error(sqlite_store *s, const char *path, const char *msg, char *err,
                       size_t errlen) {
    int code = s->db ? sqlite3_errcode(s->db) : SQLITE_ERROR;
    if (!msg) msg = s->db ? sqlite3_errmsg(s->db) : "out of memory";
    const char *ro = not_writable(path);
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        snprintf(err, errlen, "database '%s' is damaged or not a database (%s): refusing to "
                 "start; restore a backup or move the file away", path, msg);
    else if (ro)
        snprintf(err, errlen, "cannot open database '%s': %s", path, ro);
    else
        snprintf(err, errlen, "cannot open database '%s': %s", path, msg);
}

/* PRAGMA quick_check: 0 when the file is sound, else a message in err. */
static int quick_check(sqlite_store *s, const char *path, char *err, size_t errlen) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK) {
        open_error(s, path, NULL, err, errlen);
        return -1;
    }
    int rc = sqlite3_step(st);
    const unsigned char *t = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
    int ok = t && !strcmp((const char *)t, "ok");
    if (!ok && t)
        snprintf(err, errlen,
                 "database '%s' is damaged (integrity check: %.200s): refusing to start; "
                 "restore a backup or move the file away",
                 path, (const char *)t);
    else if (!ok)
        open_error(s, path, NULL, err, errlen);
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

rv_store *rv_store_sqlite_open(const char *path, char *err, size_t errlen) {
    sqlite_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->base.ops = &sqlite_ops;
    if (sqlite3_open(path, &s->db) != SQLITE_OK) {
        open_error(s, path, NULL, err, errlen);
        st_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 2000);
    /* One server owns the file: an exclusive lock taken once spares a lock/unlock system
       call pair per transaction (and the shared-memory index of the WAL). A second server
       on the same file finds it locked and stops. */
    int v = sqlite3_exec(s->db, "PRAGMA locking_mode=EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK
                ? read_version(s)
                : -1;
    if (v < 0) {
        open_error(s, path, NULL, err, errlen);
        st_close(&s->base);
        return NULL;
    }
    /* A file with damaged pages would start and lose games as they are read: refuse it. */
    if (quick_check(s, path, err, errlen)) {
        st_close(&s->base);
        return NULL;
    }
    if (v > RV_STORE_SCHEMA_VERSION) {
        snprintf(err, errlen,
                 "database '%s' has schema version %d, newer than this renversi's %d: "
                 "upgrade renversi (nothing was written)",
                 path, v, RV_STORE_SCHEMA_VERSION);
        st_close(&s->base);
        return NULL;
    }
    char *msg = NULL;
    /* NORMAL in WAL mode: a committed transaction survives the process being killed (it is
       in the OS's cache); FULL would also survive a power cut at the cost of an fsync per
       move. */
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                            "PRAGMA foreign_keys=ON;",
                     NULL, NULL, &msg) != SQLITE_OK) {
        open_error(s, path, msg, err, errlen);
        sqlite3_free(msg);
        st_close(&s->base);
        return NULL;
    }
    if (v < RV_STORE_SCHEMA_VERSION && migrate(s, err, errlen, path)) {
        const char *ro = not_writable(path);
        if (ro) snprintf(err, errlen, "cannot open database '%s': %s", path, ro);
        st_close(&s->base);
        return NULL;
    }
    s->version = RV_STORE_SCHEMA_VERSION;
    for (int i = 0; i < Q_COUNT; i++)
        if (sqlite3_prepare_v2(s->db, sql_text[i], -1, &s->q[i], NULL) != SQLITE_OK) {
            snprintf(err, errlen, "database '%s': %s", path, sqlite3_errmsg(s->db));
            st_close(&s->base);
            return NULL;
        }
    return &s->base;
}

static void report(sqlite_store *s) {
    fprintf(stderr, "renversi serve: store: %s\n", sqlite3_errmsg(s->db));
}

/* Runs a write statement to completion and resets it; 0 on success. */
static int step_done(sqlite_store *s, sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) report(s);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int st_ping(rv_store *base) {
    sqlite_store *s = S(base);
    return sqlite3_exec(s->db, "SELECT 1", NULL, NULL, NULL) == SQLITE_OK ? RV_STORE_OK
                                                                          : RV_STORE_FAIL;
}

static int64_t st_new_game(rv_store *base, const char *room, const char *variant, int size,
                           const char *black, const char *white) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_NEW_GAME];
    sqlite3_bind_text(st, 1, room, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, size);
    sqlite3_bind_text(st, 4, black, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, white, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
    if (step_done(s, st)) return -1;
    return sqlite3_last_insert_rowid(s->db);
}

/* A change's writes inside the caller's transaction: RV_STORE_* (nothing kept unless OK). */
static int commit_writes(sqlite_store *s, const rv_store_change *c) {
    /* As in store_pg.c: no move text holds a space, a quote or a control character. */
    for (int i = 0; i < c->n; i++)
        for (const char *p = c->moves[i]; *p; p++)
            if ((unsigned char)*p <= ' ' || *p == '"' || *p == '\\') return RV_STORE_FAIL;
    sqlite3_stmt *st = s->q[Q_VERSION];
    sqlite3_bind_int64(st, 1, c->game);
    int rc = sqlite3_step(st);
    int64_t cur = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_reset(st);
    int out = rc != SQLITE_ROW ? RV_STORE_FAIL : cur != c->version ? RV_STORE_CONFLICT : RV_STORE_OK;
    if (out == RV_STORE_OK) {
        st = s->q[Q_TRUNCATE];
        sqlite3_bind_int64(st, 1, c->game);
        sqlite3_bind_int(st, 2, c->keep);
        if (step_done(s, st)) out = RV_STORE_FAIL;
    }
    for (int i = 0; out == RV_STORE_OK && i < c->n; i++) {
        st = s->q[Q_ADD_MOVE];
        sqlite3_bind_int64(st, 1, c->game);
        sqlite3_bind_int(st, 2, c->keep + i);
        sqlite3_bind_text(st, 3, c->moves[i], -1, SQLITE_TRANSIENT);
        if (step_done(s, st)) out = RV_STORE_FAIL;
    }
    if (out == RV_STORE_OK) {
        st = s->q[Q_SET_GAME];
        sqlite3_bind_int64(st, 1, c->version + 1);
        sqlite3_bind_text(st, 2, c->result, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, c->undo_request);
        sqlite3_bind_int64(st, 4, c->game);
        if (step_done(s, st)) out = RV_STORE_FAIL;
    }
    return out;
}

/* Ends the transaction: COMMIT when OUT is RV_STORE_OK (FAIL if that fails), else ROLLBACK. */
static int finish(sqlite_store *s, int out) {
    if (out == RV_STORE_OK && step_done(s, s->q[Q_COMMIT])) out = RV_STORE_FAIL;
    if (out != RV_STORE_OK) {
        sqlite3_step(s->q[Q_ROLLBACK]);
        sqlite3_reset(s->q[Q_ROLLBACK]);
    }
    return out;
}

static int st_commit(rv_store *base, const rv_store_change *c, int64_t *version) {
    sqlite_store *s = S(base);
    if (step_done(s, s->q[Q_BEGIN])) return RV_STORE_FAIL;
    int out = finish(s, commit_writes(s, c));
    if (out == RV_STORE_OK && version) *version = c->version + 1;
    return out;
}

static void copy_col(char *dst, size_t cap, sqlite3_stmt *st, int col) {
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static void read_game(sqlite3_stmt *st, rv_store_game *g) {
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(st, 0);
    copy_col(g->room, sizeof g->room, st, 1);
    copy_col(g->variant, sizeof g->variant, st, 2);
    g->size = sqlite3_column_int(st, 3);
    copy_col(g->black, sizeof g->black, st, 4);
    copy_col(g->white, sizeof g->white, st, 5);
    g->created = sqlite3_column_int64(st, 6);
    copy_col(g->result, sizeof g->result, st, 7);
    g->nmoves = sqlite3_column_int(st, 8);
    g->version = sqlite3_column_int64(st, 9);
    g->undo_request = sqlite3_column_int(st, 10);
    g->ai_pending = sqlite3_column_int(st, 11);
}

static int st_get_game(rv_store *base, int64_t game, rv_store_game *out) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_GET_GAME];
    sqlite3_bind_int64(st, 1, game);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) read_game(st, out);
    sqlite3_reset(st);
    return found ? RV_STORE_OK : RV_STORE_FAIL;
}

/* One server owns the file, so the two reads see the same game without a transaction. */
static int st_load_game(rv_store *base, int64_t game, rv_store_game *hdr, char ***moves,
                        int *n) {
    sqlite_store *s = S(base);
    rv_store_game g;
    if (st_get_game(base, game, &g)) return RV_STORE_FAIL;
    sqlite3_stmt *st = s->q[Q_GET_MOVES];
    sqlite3_bind_int64(st, 1, game);
    rv_store_moves m = {0};
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (rv_store_moves_push(&m, (const char *)sqlite3_column_text(st, 0))) break;
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        rv_store_free_moves(m.v, m.n);
        return RV_STORE_FAIL;
    }
    *hdr = g;
    *moves = m.v;
    *n = m.n;
    return RV_STORE_OK;
}

static int st_list_games(rv_store *base, rv_store_game *out, int max) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_LIST];
    sqlite3_bind_int(st, 1, max);
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW) read_game(st, &out[n++]);
    sqlite3_reset(st);
    return n;
}

static int st_put_room(rv_store *base, const rv_store_room *r) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_PUT_ROOM];
    sqlite3_bind_text(st, 1, r->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, r->mode, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, r->game_id);
    sqlite3_bind_text(st, 4, r->token[0], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, r->token[1], -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 6, r->ai_color);
    sqlite3_bind_int(st, 7, r->level);
    return step_done(s, st) ? RV_STORE_FAIL : RV_STORE_OK;
}

static int st_get_room(rv_store *base, const char *id, rv_store_room *out) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_GET_ROOM];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        memset(out, 0, sizeof *out);
        copy_col(out->id, sizeof out->id, st, 0);
        copy_col(out->mode, sizeof out->mode, st, 1);
        out->game_id = sqlite3_column_int64(st, 2);
        copy_col(out->token[0], sizeof out->token[0], st, 3);
        copy_col(out->token[1], sizeof out->token[1], st, 4);
        out->ai_color = sqlite3_column_int(st, 5);
        out->level = sqlite3_column_int(st, 6);
    }
    sqlite3_reset(st);
    return found ? RV_STORE_OK : RV_STORE_FAIL;
}

/* A conditional update: OK when it changed a row, CONFLICT when the condition failed. */
static int changed_one(sqlite_store *s, sqlite3_stmt *st) {
    if (step_done(s, st)) return RV_STORE_FAIL;
    return sqlite3_changes(s->db) == 1 ? RV_STORE_OK : RV_STORE_CONFLICT;
}

static int st_claim_seat(rv_store *base, const char *room, int seat, const char *token) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_CLAIM];
    sqlite3_bind_text(st, 1, room, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, seat);
    sqlite3_bind_text(st, 3, token, -1, SQLITE_TRANSIENT);
    return changed_one(s, st);
}

static int st_set_room_game(rv_store *base, const char *room, int64_t old_game,
                            int64_t new_game) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_SET_ROOM_GAME];
    sqlite3_bind_text(st, 1, room, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, old_game);
    sqlite3_bind_int64(st, 3, new_game);
    return changed_one(s, st);
}

static int st_add_event(rv_store *base, int64_t game, int ply, const char *kind,
                        const char *who, const char *text);

static int st_start_game(rv_store *base, rv_store_room *room, int64_t old_game, int swap,
                         const char *variant, int size, const char *black, const char *white,
                         const char *rules) {
    sqlite_store *s = S(base);
    if (step_done(s, s->q[Q_BEGIN])) return RV_STORE_FAIL;
    rv_store_room rec = *room;
    int out = RV_STORE_OK;
    int64_t id = st_new_game(base, room->id, variant, size, black, white);
    if (id < 0 || st_add_event(base, id, 0, "rules", "", rules)) out = RV_STORE_FAIL;
    if (out == RV_STORE_OK && !old_game) {
        rec.game_id = id;
        out = st_put_room(base, &rec);
    } else if (out == RV_STORE_OK) {
        sqlite3_stmt *st = s->q[Q_NEXT_GAME];
        sqlite3_bind_text(st, 1, room->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, old_game);
        sqlite3_bind_int64(st, 3, id);
        sqlite3_bind_int(st, 4, swap != 0);
        out = changed_one(s, st);
        if (out == RV_STORE_OK && st_get_room(base, room->id, &rec)) out = RV_STORE_FAIL;
    }
    if ((out = finish(s, out)) != RV_STORE_OK) return out;
    *room = rec;
    return RV_STORE_OK;
}

/* One server thinks in process: no job is ever queued here. */
static int st_claim_job(rv_store *s, const char *owner, int lease_s, rv_store_job *job) {
    return 0;
}

static int st_drop_job(rv_store *s, const rv_store_job *job) { return RV_STORE_OK; }

static int st_set_players(rv_store *base, int64_t game, const char *black, const char *white) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_SET_PLAYERS];
    sqlite3_bind_text(st, 1, black, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, white, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, game);
    return step_done(s, st) ? RV_STORE_FAIL : RV_STORE_OK;
}

static int st_add_event(rv_store *base, int64_t game, int ply, const char *kind,
                        const char *who, const char *text) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_ADD_EVENT];
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, who, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL));
    sqlite3_bind_text(st, 6, text, -1, SQLITE_TRANSIENT);
    return step_done(s, st) ? RV_STORE_FAIL : RV_STORE_OK;
}

static int st_get_events(rv_store *base, int64_t game, rv_store_note **events, int *n) {
    sqlite_store *s = S(base);
    sqlite3_stmt *st = s->q[Q_GET_EVENTS];
    sqlite3_bind_int64(st, 1, game);
    rv_store_note *v = NULL;
    int cnt = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (rv_store_notes_push(&v, &cnt, &cap, sqlite3_column_int(st, 0),
                                 (const char *)sqlite3_column_text(st, 1),
                                 (const char *)sqlite3_column_text(st, 2),
                                 sqlite3_column_int64(st, 3),
                                 (const char *)sqlite3_column_text(st, 4)))
            break;
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        free(v);
        return RV_STORE_FAIL;
    }
    *events = v;
    *n = cnt;
    return RV_STORE_OK;
}

static int st_commit_act(rv_store *base, const rv_store_act *a, int64_t *version) {
    sqlite_store *s = S(base);
    const rv_store_change *c = &a->change;
    if (step_done(s, s->q[Q_BEGIN])) return RV_STORE_FAIL;
    int out = commit_writes(s, c);
    if (out == RV_STORE_OK && a->kind &&
        st_add_event(base, c->game, c->keep + c->n, a->kind, a->who, a->text))
        out = RV_STORE_FAIL;
    if (out == RV_STORE_OK && a->swap) {
        /* The room stays at its game; its seats are exchanged (SET reads the old row). */
        sqlite3_stmt *st = s->q[Q_NEXT_GAME];
        sqlite3_bind_text(st, 1, a->room, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, c->game);
        sqlite3_bind_int64(st, 3, c->game);
        sqlite3_bind_int(st, 4, 1);
        out = changed_one(s, st);
        if (out == RV_STORE_OK) out = st_set_players(base, c->game, a->black, a->white);
    }
    out = finish(s, out);
    if (out == RV_STORE_OK && version) *version = c->version + 1;
    return out;
}

static const rv_store_ops sqlite_ops = {
    .kind = "sqlite",
    .close = st_close,
    .schema_version = st_schema_version,
    .ping = st_ping,
    .new_game = st_new_game,
    .commit = st_commit,
    .get_game = st_get_game,
    .load_game = st_load_game,
    .list_games = st_list_games,
    .put_room = st_put_room,
    .get_room = st_get_room,
    .claim_seat = st_claim_seat,
    .set_room_game = st_set_room_game,
    .start_game = st_start_game,
    .set_players = st_set_players,
    .commit_act = st_commit_act,
    .add_event = st_add_event,
    .get_events = st_get_events,
    .claim_job = st_claim_job,
    .drop_job = st_drop_job,
};
