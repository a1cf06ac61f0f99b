/* The SQLite store: schema, prepared statements, one committed transaction per write. */
#include "server/store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    Q_NEW_GAME,
    Q_ADD_MOVE,
    Q_TRUNCATE,
    Q_SET_RESULT,
    Q_GET_GAME,
    Q_GET_MOVES,
    Q_LIST,
    Q_PUT_ROOM,
    Q_GET_ROOM,
    Q_SET_PLAYERS,
    Q_ADD_EVENT,
    Q_GET_EVENTS,
    Q_COUNT
};

static const char *const sql_text[Q_COUNT] = {
    [Q_NEW_GAME] = "INSERT INTO games(room, variant, size, black, white, created, result) "
                   "VALUES(?,?,?,?,?,?,'')",
    [Q_ADD_MOVE] = "INSERT OR REPLACE INTO moves(game, ply, move) VALUES(?,?,?)",
    [Q_TRUNCATE] = "DELETE FROM moves WHERE game = ? AND ply >= ?",
    [Q_SET_RESULT] = "UPDATE games SET result = ? WHERE id = ?",
    [Q_GET_GAME] = "SELECT id, room, variant, size, black, white, created, result, "
                   "(SELECT count(*) FROM moves m WHERE m.game = g.id) FROM games g WHERE id = ?",
    [Q_GET_MOVES] = "SELECT move FROM moves WHERE game = ? ORDER BY ply",
    [Q_LIST] = "SELECT id, room, variant, size, black, white, created, result, "
               "(SELECT count(*) FROM moves m WHERE m.game = g.id) AS n FROM games g "
               "WHERE n > 0 ORDER BY id DESC LIMIT ?",
    [Q_PUT_ROOM] = "INSERT OR REPLACE INTO rooms(id, mode, game, black_token, white_token, "
                   "ai_color, level) VALUES(?,?,?,?,?,?,?)",
    [Q_GET_ROOM] = "SELECT id, mode, game, black_token, white_token, ai_color, level "
                   "FROM rooms WHERE id = ?",
    [Q_SET_PLAYERS] = "UPDATE games SET black = ?, white = ? WHERE id = ?",
    [Q_ADD_EVENT] = "INSERT INTO events(game, ply, kind, who, created, text) VALUES(?,?,?,?,?,?)",
    [Q_GET_EVENTS] = "SELECT ply, kind, who, created, text FROM events WHERE game = ? ORDER BY seq",
};

static const char schema[] =
    /* One server owns the file: an exclusive lock taken once spares a lock/unlock system
       call pair per transaction (and the shared-memory index of the WAL). */
    "PRAGMA locking_mode=EXCLUSIVE;"
    "PRAGMA journal_mode=WAL;"
    /* NORMAL in WAL mode: a committed transaction survives the process being killed (it is
       in the OS's cache); FULL would also survive a power cut at the cost of an fsync per move. */
    "PRAGMA synchronous=NORMAL;"
    "PRAGMA foreign_keys=ON;"
    "CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY, room TEXT, variant TEXT NOT NULL,"
    " size INTEGER NOT NULL, black TEXT, white TEXT, created INTEGER, result TEXT);"
    "CREATE TABLE IF NOT EXISTS moves(game INTEGER NOT NULL REFERENCES games(id), ply INTEGER"
    " NOT NULL, move TEXT NOT NULL, PRIMARY KEY(game, ply)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS rooms(id TEXT PRIMARY KEY, mode TEXT, game INTEGER,"
    " black_token TEXT, white_token TEXT, ai_color INTEGER, level INTEGER);"
    /* Chat lines and opening choices, in the order they happened (seq). */
    "CREATE TABLE IF NOT EXISTS events(seq INTEGER PRIMARY KEY, game INTEGER NOT NULL"
    " REFERENCES games(id), ply INTEGER NOT NULL, kind TEXT NOT NULL, who TEXT, created INTEGER,"
    " text TEXT);"
    "CREATE INDEX IF NOT EXISTS events_game ON events(game, seq);";

struct rv_store {
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
};

void rv_store_close(rv_store *s) {
    if (!s) return;
    for (int i = 0; i < Q_COUNT; i++) sqlite3_finalize(s->q[i]);
    sqlite3_close(s->db);
    free(s);
}

rv_store *rv_store_open(const char *path, char *err, size_t errlen) {
    rv_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (sqlite3_open(path, &s->db) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open database '%s': %s", path, sqlite3_errmsg(s->db));
        rv_store_close(s);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 2000);
    char *msg = NULL;
    if (sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "database '%s': %s", path, msg ? msg : "schema failed");
        sqlite3_free(msg);
        rv_store_close(s);
        return NULL;
    }
    for (int i = 0; i < Q_COUNT; i++)
        if (sqlite3_prepare_v2(s->db, sql_text[i], -1, &s->q[i], NULL) != SQLITE_OK) {
            snprintf(err, errlen, "database '%s': %s", path, sqlite3_errmsg(s->db));
            rv_store_close(s);
            return NULL;
        }
    return s;
}

/* Runs a write statement to completion and resets it; 0 on success. */
static int step_done(rv_store *s, sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) fprintf(stderr, "renversi serve: store: %s\n", sqlite3_errmsg(s->db));
    return rc == SQLITE_DONE ? 0 : -1;
}

int64_t rv_store_new_game(rv_store *s, const char *room, const char *variant, int size,
                          const char *black, const char *white) {
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

int rv_store_add_move(rv_store *s, int64_t game, int ply, const char *move) {
    sqlite3_stmt *st = s->q[Q_ADD_MOVE];
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, move, -1, SQLITE_TRANSIENT);
    return step_done(s, st);
}

int rv_store_truncate(rv_store *s, int64_t game, int ply) {
    sqlite3_stmt *st = s->q[Q_TRUNCATE];
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 2, ply);
    return step_done(s, st);
}

int rv_store_set_result(rv_store *s, int64_t game, const char *result) {
    sqlite3_stmt *st = s->q[Q_SET_RESULT];
    sqlite3_bind_text(st, 1, result, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, game);
    return step_done(s, st);
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
}

int rv_store_get_game(rv_store *s, int64_t game, rv_store_game *out) {
    sqlite3_stmt *st = s->q[Q_GET_GAME];
    sqlite3_bind_int64(st, 1, game);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) read_game(st, out);
    sqlite3_reset(st);
    return found ? 0 : -1;
}

int rv_store_get_moves(rv_store *s, int64_t game, char ***moves, int *n) {
    sqlite3_stmt *st = s->q[Q_GET_MOVES];
    sqlite3_bind_int64(st, 1, game);
    char **v = NULL;
    int cnt = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (cnt == cap) {
            cap = cap ? 2 * cap : 64;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        const unsigned char *t = sqlite3_column_text(st, 0);
        v[cnt] = strdup(t ? (const char *)t : "");
        if (!v[cnt]) break;
        cnt++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        rv_store_free_moves(v, cnt);
        return -1;
    }
    *moves = v;
    *n = cnt;
    return 0;
}

void rv_store_free_moves(char **moves, int n) {
    for (int i = 0; i < n; i++) free(moves[i]);
    free(moves);
}

int rv_store_list_games(rv_store *s, rv_store_game *out, int max) {
    sqlite3_stmt *st = s->q[Q_LIST];
    sqlite3_bind_int(st, 1, max);
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW) read_game(st, &out[n++]);
    sqlite3_reset(st);
    return n;
}

int rv_store_put_room(rv_store *s, const rv_store_room *r) {
    sqlite3_stmt *st = s->q[Q_PUT_ROOM];
    sqlite3_bind_text(st, 1, r->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, r->mode, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, r->game_id);
    sqlite3_bind_text(st, 4, r->token[0], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, r->token[1], -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 6, r->ai_color);
    sqlite3_bind_int(st, 7, r->level);
    return step_done(s, st);
}

int rv_store_get_room(rv_store *s, const char *id, rv_store_room *out) {
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
    return found ? 0 : -1;
}

int rv_store_set_players(rv_store *s, int64_t game, const char *black, const char *white) {
    sqlite3_stmt *st = s->q[Q_SET_PLAYERS];
    sqlite3_bind_text(st, 1, black, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, white, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, game);
    return step_done(s, st);
}

int rv_store_add_event(rv_store *s, int64_t game, int ply, const char *kind, const char *who,
                       const char *text) {
    sqlite3_stmt *st = s->q[Q_ADD_EVENT];
    size_t len = strlen(text);
    if (len > RV_STORE_EVENT_TEXT - 1) len = RV_STORE_EVENT_TEXT - 1;
    sqlite3_bind_int64(st, 1, game);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, who, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL));
    sqlite3_bind_text(st, 6, text, (int)len, SQLITE_TRANSIENT);
    return step_done(s, st);
}

int rv_store_get_events(rv_store *s, int64_t game, rv_store_event **events, int *n) {
    sqlite3_stmt *st = s->q[Q_GET_EVENTS];
    sqlite3_bind_int64(st, 1, game);
    rv_store_event *v = NULL;
    int cnt = 0, cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (cnt == cap) {
            cap = cap ? 2 * cap : 16;
            rv_store_event *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        rv_store_event *e = &v[cnt++];
        e->ply = sqlite3_column_int(st, 0);
        copy_col(e->kind, sizeof e->kind, st, 1);
        copy_col(e->who, sizeof e->who, st, 2);
        e->created = sqlite3_column_int64(st, 3);
        copy_col(e->text, sizeof e->text, st, 4);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        free(v);
        return -1;
    }
    *events = v;
    *n = cnt;
    return 0;
}
