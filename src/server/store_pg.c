/*
 * The PostgreSQL store (libpq): the tables of store_sqlite.c, shared by any number of
 * server instances. A commit is one call of the function rv_commit, which locks the game
 * row, checks its version, writes, queues or drops the game's AI job and notifies the
 * channel `renversi` with "ROOM GAME VERSION" (a room's own changes: "ROOM"), all in one
 * transaction (version 5 on: "ROOM GAME VERSION KEEP UNDO AI MOVES RESULT", the change
 * itself, so that the other servers need not read it back); new AI jobs are announced on
 * `renversi_jobs`. A connection that broke is re-opened on the next call (or, for the
 * network thread's handle, step by step without waiting: rv_store_set_nonblocking_reconnect).
 */
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/store_impl.h"

enum {
    Q_NEW_GAME,
    Q_COMMIT,
    Q_GET_GAME,
    Q_LOAD_GAME,
    Q_LIST,
    Q_PUT_ROOM,
    Q_GET_ROOM,
    Q_CLAIM,
    Q_SET_ROOM_GAME,
    Q_SET_PLAYERS,
    Q_ADD_EVENT,
    Q_GET_EVENTS,
    Q_CLAIM_JOB,
    Q_DROP_JOB,
    Q_NOTIFY,
    Q_NEXT_GAME,
    Q_COUNT
};

#define GAME_COLUMNS                                                                          \
    "id, room, variant, size, black, white, created, result, "                               \
    "(SELECT count(*) FROM moves m WHERE m.game = g.id), version, undo_request, "             \
    "EXISTS(SELECT 1 FROM ai_jobs j WHERE j.game = g.id)"

static const char *const sql_text[Q_COUNT] = {
    [Q_NEW_GAME] = "INSERT INTO games(room, variant, size, black, white, created, result) "
                   "VALUES($1,$2,$3,$4,$5,$6,'') RETURNING id",
    [Q_COMMIT] = "SELECT rv_commit($1, $2, $3, $4, $5, $6, $7)",
    [Q_GET_GAME] = "SELECT " GAME_COLUMNS " FROM games g WHERE id = $1",
    /* One statement sees one snapshot: the header and the moves agree. Moves never hold a
       space (commit refuses them), so a space-separated list is exact. */
    [Q_LOAD_GAME] = "SELECT " GAME_COLUMNS ", (SELECT coalesce(string_agg(move, ' ' ORDER BY "
                    "ply), '') FROM moves m WHERE m.game = g.id) FROM games g WHERE id = $1",
    [Q_LIST] = "SELECT " GAME_COLUMNS " FROM games g WHERE EXISTS "
               "(SELECT 1 FROM moves m WHERE m.game = g.id) ORDER BY id DESC LIMIT $1",
    [Q_PUT_ROOM] = "WITH u AS (INSERT INTO rooms(id, mode, game, black_token, white_token, ai_color, "
                   "level) VALUES($1,$2,$3,$4,$5,$6,$7) ON CONFLICT (id) DO UPDATE SET "
                   "mode = EXCLUDED.mode, game = EXCLUDED.game, black_token = "
                   "EXCLUDED.black_token, white_token = EXCLUDED.white_token, ai_color = "
                   "EXCLUDED.ai_color, level = EXCLUDED.level RETURNING id) "
                   "SELECT pg_notify('renversi', id) FROM u",
    [Q_GET_ROOM] = "SELECT id, mode, game, black_token, white_token, ai_color, level "
                   "FROM rooms WHERE id = $1",
    /* The room's changes are announced too (one row back when it changed). */
    [Q_CLAIM] = "WITH u AS (UPDATE rooms SET black_token = CASE WHEN $2::int = 1 THEN $3 ELSE"
                " black_token END, white_token = CASE WHEN $2::int = 2 THEN $3 ELSE white_token"
                " END WHERE id = $1 AND coalesce(CASE WHEN $2::int = 1 THEN black_token"
                " ELSE white_token END, '') = '' RETURNING id)"
                " SELECT pg_notify('renversi', id) FROM u",
    [Q_SET_ROOM_GAME] = "WITH u AS (UPDATE rooms SET game = $3 WHERE id = $1 AND game = $2"
                        " RETURNING id) SELECT pg_notify('renversi', id) FROM u",
    [Q_SET_PLAYERS] = "UPDATE games SET black = $2, white = $3 WHERE id = $1",
    /* The other servers hear of it with all of it (chat reaches their clients live). */
    [Q_ADD_EVENT] = "WITH i AS (INSERT INTO events(game, ply, kind, who, created, text) "
                    "VALUES($1,$2,$3,$4,$5,$6) RETURNING game) SELECT pg_notify('renversi', "
                    "'!e ' || coalesce(g.room, '') || ' ' || $1 || ' ' || $2 || ' ' || $5 || ' '"
                    " || $3 || ' ' || coalesce(nullif($4, ''), '-') || ' ' || $6) FROM i "
                    "JOIN games g ON g.id = i.game",
    [Q_GET_EVENTS] = "SELECT ply, kind, who, created, text FROM events WHERE game = $1 "
                     "ORDER BY seq",
    /* The oldest job nobody holds (or whose holder's lease ran out); SKIP LOCKED lets
       servers claiming at once take different jobs instead of waiting for each other. */
    [Q_CLAIM_JOB] = "UPDATE ai_jobs SET owner = $1, lease_until = clock_timestamp() + "
                    "make_interval(secs => $2::int) WHERE game = (SELECT game FROM ai_jobs "
                    "WHERE lease_until IS NULL OR lease_until < clock_timestamp() ORDER BY "
                    "created LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING game, version, level",
    [Q_DROP_JOB] = "DELETE FROM ai_jobs WHERE game = $1 AND version = $2",
    [Q_NOTIFY] = "SELECT pg_notify('renversi', $1)",
    /* A room moves on to its next game, the seats exchanged when $4 <> 0 (SET reads the
       old row); the room as it is now comes back. */
    [Q_NEXT_GAME] = "WITH u AS (UPDATE rooms SET game = $3, black_token = CASE WHEN $4::int <> 0"
                    " THEN white_token ELSE black_token END, white_token = CASE WHEN $4::int <> 0"
                    " THEN black_token ELSE white_token END, ai_color = CASE WHEN $4::int <> 0"
                    " THEN ((ai_color & 1) << 1) | ((ai_color & 2) >> 1) ELSE ai_color END"
                    " WHERE id = $1 AND game = $2 RETURNING id, mode, game, black_token,"
                    " white_token, ai_color, level) SELECT u.*, pg_notify('renversi', u.id) FROM u",
};

/* The migrations, numbered as in store_sqlite.c (same tables, PostgreSQL's types). */
static const char *const migration[RV_STORE_SCHEMA_VERSION + 1] = {
    [1] = "CREATE TABLE IF NOT EXISTS games(id BIGSERIAL PRIMARY KEY, room TEXT,"
          " variant TEXT NOT NULL, size INTEGER NOT NULL, black TEXT, white TEXT,"
          " created BIGINT, result TEXT);"
          "CREATE TABLE IF NOT EXISTS moves(game BIGINT NOT NULL REFERENCES games(id),"
          " ply INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY(game, ply));"
          "CREATE TABLE IF NOT EXISTS rooms(id TEXT PRIMARY KEY, mode TEXT, game BIGINT,"
          " black_token TEXT, white_token TEXT, ai_color INTEGER, level INTEGER);",
    [2] = "ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;"
          "ALTER TABLE games ADD COLUMN undo_request INTEGER NOT NULL DEFAULT 0;"
          /* Returns the new version, -1 when the game is at another version, -2 when
             there is no such game. */
          "CREATE OR REPLACE FUNCTION rv_commit(g BIGINT, v BIGINT, keep INTEGER, mv TEXT[],"
          " res TEXT, undo INTEGER) RETURNS BIGINT LANGUAGE plpgsql AS $$"
          " DECLARE cur BIGINT; rm TEXT;"
          " BEGIN"
          "  SELECT version, room INTO cur, rm FROM games WHERE id = g FOR UPDATE;"
          "  IF NOT FOUND THEN RETURN -2; END IF;"
          "  IF cur <> v THEN RETURN -1; END IF;"
          "  DELETE FROM moves WHERE game = g AND ply >= keep;"
          "  INSERT INTO moves(game, ply, move)"
          "   SELECT g, keep + t.o::int - 1, t.m FROM unnest(mv) WITH ORDINALITY AS t(m, o);"
          "  UPDATE games SET version = v + 1, result = res, undo_request = undo WHERE id = g;"
          "  PERFORM pg_notify('renversi', coalesce(rm, '') || ' ' || (v + 1));"
          "  RETURN v + 1;"
          " END $$;",
    /* AI jobs; rv_commit queues and drops them and names the game in its notice. */
    [3] = "CREATE TABLE ai_jobs(game BIGINT PRIMARY KEY REFERENCES games(id), version BIGINT"
          " NOT NULL, level INTEGER NOT NULL, owner TEXT, lease_until TIMESTAMPTZ,"
          " created TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());"
          "DROP FUNCTION rv_commit(BIGINT, BIGINT, INTEGER, TEXT[], TEXT, INTEGER);"
          "CREATE FUNCTION rv_commit(g BIGINT, v BIGINT, keep INTEGER, mv TEXT[], res TEXT,"
          " undo INTEGER, ai INTEGER) RETURNS BIGINT LANGUAGE plpgsql AS $$"
          " DECLARE cur BIGINT; rm TEXT;"
          " BEGIN"
          "  SELECT version, room INTO cur, rm FROM games WHERE id = g FOR UPDATE;"
          "  IF NOT FOUND THEN RETURN -2; END IF;"
          "  IF cur <> v THEN RETURN -1; END IF;"
          "  DELETE FROM moves WHERE game = g AND ply >= keep;"
          "  INSERT INTO moves(game, ply, move)"
          "   SELECT g, keep + t.o::int - 1, t.m FROM unnest(mv) WITH ORDINALITY AS t(m, o);"
          "  UPDATE games SET version = v + 1, result = res, undo_request = undo WHERE id = g;"
          "  DELETE FROM ai_jobs WHERE game = g;"
          "  IF ai > 0 THEN"
          "   INSERT INTO ai_jobs(game, version, level) VALUES(g, v + 1, ai);"
          "   PERFORM pg_notify('renversi_jobs', g::text);"
          "  END IF;"
          "  PERFORM pg_notify('renversi', coalesce(rm, '') || ' ' || g || ' ' || (v + 1));"
          "  RETURN v + 1;"
          " END $$;",
    [4] = "CREATE TABLE events(seq BIGSERIAL PRIMARY KEY, game BIGINT NOT NULL REFERENCES"
          " games(id), ply INTEGER NOT NULL, kind TEXT NOT NULL, who TEXT, created BIGINT,"
          " text TEXT);"
          "CREATE INDEX events_game ON events(game, seq);",
    /* The notice carries the change (keep, undo request, AI level, moves, result): the
       servers watching apply it to their copy without reading the game back. */
    [5] = "CREATE OR REPLACE FUNCTION rv_commit(g BIGINT, v BIGINT, keep INTEGER, mv TEXT[],"
          " res TEXT, undo INTEGER, ai INTEGER) RETURNS BIGINT LANGUAGE plpgsql AS $$"
          " DECLARE cur BIGINT; rm TEXT;"
          " BEGIN"
          "  SELECT version, room INTO cur, rm FROM games WHERE id = g FOR UPDATE;"
          "  IF NOT FOUND THEN RETURN -2; END IF;"
          "  IF cur <> v THEN RETURN -1; END IF;"
          "  DELETE FROM moves WHERE game = g AND ply >= keep;"
          "  INSERT INTO moves(game, ply, move)"
          "   SELECT g, keep + t.o::int - 1, t.m FROM unnest(mv) WITH ORDINALITY AS t(m, o);"
          "  UPDATE games SET version = v + 1, result = res, undo_request = undo WHERE id = g;"
          "  DELETE FROM ai_jobs WHERE game = g;"
          "  IF ai > 0 THEN"
          "   INSERT INTO ai_jobs(game, version, level) VALUES(g, v + 1, ai);"
          "   PERFORM pg_notify('renversi_jobs', g::text);"
          "  END IF;"
          "  PERFORM pg_notify('renversi', coalesce(rm, '') || ' ' || g || ' ' || (v + 1) || ' '"
          "   || keep || ' ' || undo || ' ' || ai || ' ' ||"
          "   coalesce(nullif(array_to_string(mv, ','), ''), '-') || ' ' || res);"
          "  RETURN v + 1;"
          " END $$;",
};

/* Serialises migrations of instances starting together (any constant will do). */
#define MIGRATION_LOCK "7301944"

typedef struct pg_store {
    rv_store base;
    PGconn *conn;
    int prepared;    /* the statements exist on this connection */
    int version;     /* the schema's */
    int nonblocking; /* a lost connection is re-made step by step (PQresetStart/Poll) */
    int resetting;   /* ... and that is under way */
    PostgresPollingStatusType poll_for; /* what the next step waits for */
    int in_tx;       /* inside BEGIN ... COMMIT: a lost connection is not re-made meanwhile */
} pg_store;

static pg_store *P(rv_store *s) { return (pg_store *)s; }

static void quiet_notices(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

/* libpq's message on one line (it ends lines with \n and indents details). */
static void one_line(char *dst, size_t cap, const char *msg) {
    size_t k = 0;
    int space = 0;
    for (const char *p = msg ? msg : ""; *p && k + 1 < cap; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t' || *p == ' ') {
            space = k > 0;
            continue;
        }
        if (space && k + 2 < cap) dst[k++] = ' ';
        space = 0;
        dst[k++] = *p;
    }
    dst[k] = 0;
}

static void report(pg_store *s, const char *what) {
    char m[512];
    one_line(m, sizeof m, PQerrorMessage(s->conn));
    fprintf(stderr, "renversi serve: store (postgresql) %s: %s\n", what, m);
}

static void pg_close(rv_store *base) {
    pg_store *s = P(base);
    if (s->conn) PQfinish(s->conn);
    free(s);
}

/* Runs SQL that returns no rows; 0 on success, else the error in err (if given). */
static int exec_ok(pg_store *s, const char *sql, char *err, size_t errlen) {
    PGresult *r = PQexec(s->conn, sql);
    int st = PQresultStatus(r);
    int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok && err) one_line(err, errlen, PQresultErrorMessage(r));
    PQclear(r);
    return ok ? 0 : -1;
}

/* A one-value query as an integer; -1 on failure or NULL. */
static long long query_int(pg_store *s, const char *sql) {
    PGresult *r = PQexec(s->conn, sql);
    long long v = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0))
        v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return v;
}

/* Brings the schema to this build's version in one transaction, under an advisory lock so
   that instances starting together migrate once. Nothing is written to a newer schema. */
static int migrate(pg_store *s, char *err, size_t errlen) {
    char why[400] = "";
    if (exec_ok(s, "BEGIN", why, sizeof why) ||
        exec_ok(s, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", why, sizeof why))
        goto fail;
    long long has = query_int(s, "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = "
                                 "'schema_version' AND schemaname = current_schema()");
    long long from = has > 0 ? query_int(s, "SELECT coalesce(max(version), 0) FROM schema_version")
                             : has;
    if (from < 0) {
        one_line(why, sizeof why, PQerrorMessage(s->conn));
        goto fail;
    }
    if (from > RV_STORE_SCHEMA_VERSION) {
        exec_ok(s, "ROLLBACK", NULL, 0);
        snprintf(err, errlen,
                 "the PostgreSQL database has schema version %lld, newer than this "
                 "renversi's %d: upgrade renversi (nothing was written)",
                 from, RV_STORE_SCHEMA_VERSION);
        return -1;
    }
    if (from == RV_STORE_SCHEMA_VERSION) return exec_ok(s, "COMMIT", err, errlen);
    for (long long v = from + 1; v <= RV_STORE_SCHEMA_VERSION; v++)
        if (exec_ok(s, migration[v], why, sizeof why)) goto fail;
    char sql[200];
    snprintf(sql, sizeof sql,
             "CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL);"
             "DELETE FROM schema_version; INSERT INTO schema_version VALUES(%d)",
             RV_STORE_SCHEMA_VERSION);
    if (exec_ok(s, sql, why, sizeof why) || exec_ok(s, "COMMIT", why, sizeof why)) goto fail;
    return 0;
fail:
    exec_ok(s, "ROLLBACK", NULL, 0);
    snprintf(err, errlen, "PostgreSQL: migrating the schema to version %d: %s",
             RV_STORE_SCHEMA_VERSION, why);
    return -1;
}

static int prepare_all(pg_store *s) {
    for (int i = 0; i < Q_COUNT; i++) {
        char name[8];
        snprintf(name, sizeof name, "q%d", i);
        PGresult *r = PQprepare(s->conn, name, sql_text[i], 0, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok) return -1;
    }
    s->prepared = 1;
    return 0;
}

static const rv_store_ops pg_ops;

/*
 * The connection's defaults (the URL's own parameters override them): a connection attempt
 * gives up after 10 s, and over TCP a server that stopped answering is noticed within about
 * 10 s (keepalives; unacknowledged data) instead of the kernel's minutes.
 */
static const char *const conn_keys[] = {"connect_timeout", "keepalives", "keepalives_idle",
                                        "keepalives_interval", "keepalives_count",
                                        "tcp_user_timeout", "application_name", "dbname", NULL};
#define CONN_VALS(app, url)                                                                   \
    ((const char *const[]){"10", "1", "5", "2", "2", "10000", app, url, NULL})

rv_store *rv_store_pg_open(const char *url, char *err, size_t errlen) {
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(url, &perr);
    if (!opts) {
        char m[300];
        one_line(m, sizeof m, perr ? perr : "out of memory");
        snprintf(err, errlen, "malformed --db URL (want postgresql://[user@][host][:port]/dbname"
                              "[?param=value...]): %s", m);
        PQfreemem(perr);
        return NULL;
    }
    PQconninfoFree(opts);
    pg_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->base.ops = &pg_ops;
    /* Defaults first: the URL's own parameters override them. */
    s->conn = PQconnectdbParams(conn_keys, CONN_VALS("renversi", url), 1);
    if (!s->conn || PQstatus(s->conn) != CONNECTION_OK) {
        char m[400];
        one_line(m, sizeof m, s->conn ? PQerrorMessage(s->conn) : "out of memory");
        snprintf(err, errlen, "cannot connect to PostgreSQL: %s", m);
        pg_close(&s->base);
        return NULL;
    }
    PQsetNoticeProcessor(s->conn, quiet_notices, NULL);
    if (migrate(s, err, errlen)) {
        pg_close(&s->base);
        return NULL;
    }
    s->version = RV_STORE_SCHEMA_VERSION;
    if (prepare_all(s)) {
        char m[400];
        one_line(m, sizeof m, PQerrorMessage(s->conn));
        snprintf(err, errlen, "PostgreSQL: %s", m);
        pg_close(&s->base);
        return NULL;
    }
    return &s->base;
}

/* One step of a connection being re-made without waiting: 0 when it is up. */
static int reset_step(pg_store *s) {
    if (!s->resetting) {
        if (!PQresetStart(s->conn)) return -1;
        s->resetting = 1;
        s->poll_for = PGRES_POLLING_WRITING;
    }
    for (;;) {
        struct pollfd p = {.fd = PQsocket(s->conn),
                           .events = s->poll_for == PGRES_POLLING_READING ? POLLIN : POLLOUT};
        if (p.fd >= 0 && poll(&p, 1, 0) == 0) return -1; /* not yet: the next call goes on */
        s->poll_for = PQresetPoll(s->conn);
        if (s->poll_for == PGRES_POLLING_OK) {
            s->resetting = 0;
            return 0;
        }
        if (s->poll_for == PGRES_POLLING_FAILED) {
            s->resetting = 0; /* the next call starts again */
            return -1;
        }
    }
}

/* The connection, re-opened (with its statements) if it broke; 0 when usable. */
static int ensure(pg_store *s) {
    if (!s->resetting && PQstatus(s->conn) == CONNECTION_OK && s->prepared) return 0;
    if (s->resetting || PQstatus(s->conn) != CONNECTION_OK) {
        s->prepared = 0;
        if (s->nonblocking) {
            if (reset_step(s)) return -1;
        } else {
            PQreset(s->conn);
        }
        if (PQstatus(s->conn) != CONNECTION_OK) return -1;
        PQsetNoticeProcessor(s->conn, quiet_notices, NULL);
    }
    return prepare_all(s);
}

/* Runs prepared statement Q with text parameters; the result when it succeeded, else NULL
   (reported on stderr). */
static PGresult *run(pg_store *s, int q, int n, const char *const *params) {
    if (s->in_tx ? PQtransactionStatus(s->conn) != PQTRANS_INTRANS : ensure(s) != 0) {
        report(s, "connection");
        return NULL;
    }
    char name[8];
    snprintf(name, sizeof name, "q%d", q);
    PGresult *r = PQexecPrepared(s->conn, name, n, params, NULL, NULL, 0);
    int st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
    report(s, "query");
    PQclear(r);
    if (PQstatus(s->conn) != CONNECTION_OK) s->prepared = 0;
    return NULL;
}

static int pg_schema_version(rv_store *s) { return P(s)->version; }

static int pg_ping(rv_store *base) {
    pg_store *s = P(base);
    if (ensure(s)) return RV_STORE_FAIL;
    return exec_ok(s, "SELECT 1", NULL, 0) ? RV_STORE_FAIL : RV_STORE_OK;
}

static int pg_session(rv_store *base) {
    pg_store *s = P(base);
    return !s->resetting && PQstatus(s->conn) == CONNECTION_OK ? PQbackendPID(s->conn) : 0;
}

static int pg_notify(rv_store *base, const char *notice) {
    const char *p[] = {notice};
    PGresult *r = run(P(base), Q_NOTIFY, 1, p);
    if (!r) return RV_STORE_FAIL;
    PQclear(r);
    return RV_STORE_OK;
}

static void pg_nonblocking(rv_store *base) { P(base)->nonblocking = 1; }

static int64_t pg_new_game(rv_store *base, const char *room, const char *variant, int size,
                           const char *black, const char *white) {
    char sz[16], created[24];
    snprintf(sz, sizeof sz, "%d", size);
    snprintf(created, sizeof created, "%lld", (long long)time(NULL));
    const char *p[] = {room, variant, sz, black, white, created};
    PGresult *r = run(P(base), Q_NEW_GAME, 6, p);
    if (!r) return -1;
    int64_t id = PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    return id;
}

/* The moves as a PostgreSQL array literal {"h8","i9"}; NULL when a move holds a character
   that no move text has (space, quote, backslash, control) or out of memory. */
static char *array_literal(const char *const *moves, int n) {
    size_t len = 3;
    for (int i = 0; i < n; i++) {
        for (const char *p = moves[i]; *p; p++)
            if ((unsigned char)*p <= ' ' || *p == '"' || *p == '\\') return NULL;
        len += strlen(moves[i]) + 3;
    }
    char *a = malloc(len), *w = a;
    if (!a) return NULL;
    *w++ = '{';
    for (int i = 0; i < n; i++) w += sprintf(w, "%s\"%s\"", i ? "," : "", moves[i]);
    *w++ = '}';
    *w = 0;
    return a;
}

/* A commit's answer: its RV_STORE_* code, the new version in *version. */
static int commit_answer(PGresult *r, int64_t *version) {
    long long nv = PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -2;
    if (nv == -1) return RV_STORE_CONFLICT;
    if (nv < 0) return RV_STORE_FAIL;
    if (version) *version = nv;
    return RV_STORE_OK;
}

static int pg_commit(rv_store *base, const rv_store_change *c, int64_t *version) {
    char *arr = array_literal(c->moves, c->n);
    if (!arr) return RV_STORE_FAIL;
    char g[24], v[24], keep[16], undo[16], ai[16];
    snprintf(g, sizeof g, "%lld", (long long)c->game);
    snprintf(v, sizeof v, "%lld", (long long)c->version);
    snprintf(keep, sizeof keep, "%d", c->keep);
    snprintf(undo, sizeof undo, "%d", c->undo_request);
    snprintf(ai, sizeof ai, "%d", c->ai_level);
    const char *p[] = {g, v, keep, arr, c->result, undo, ai};
    PGresult *r = run(P(base), Q_COMMIT, 7, p);
    free(arr);
    if (!r) return RV_STORE_FAIL;
    int rc = commit_answer(r, version);
    PQclear(r);
    return rc;
}

static int by_game(const void *a, const void *b) {
    const rv_store_change *x = *(const rv_store_change *const *)a,
                          *y = *(const rv_store_change *const *)b;
    return x->game < y->game ? -1 : x->game > y->game;
}

#define MANY_MAX 64

/*
 * Several commits in one pipeline (libpq's pipeline mode): sent together, answered together,
 * one transaction (committed at the pipeline's sync) for all. The games are locked in order
 * of their ids, so two servers' batches cannot deadlock. Should anything fail, nothing was
 * written and each commit is tried again on its own.
 */
static void pg_commit_many(rv_store *base, const rv_store_change *const *changes, int n,
                           int *rc, int64_t *version) {
    pg_store *s = P(base);
    const rv_store_change *c[MANY_MAX];
    int idx[MANY_MAX];
    char *arr[MANY_MAX] = {0};
    int m = n < MANY_MAX ? n : MANY_MAX, ok = !ensure(s);
    memcpy(c, changes, (size_t)m * sizeof *c);
    qsort(c, (size_t)m, sizeof *c, by_game);
    for (int i = 0; i < m; i++) {
        for (idx[i] = 0; changes[idx[i]] != c[i]; idx[i]++) {}
        if (!(arr[i] = array_literal(c[i]->moves, c[i]->n))) ok = 0;
    }
    if (ok && PQenterPipelineMode(s->conn)) {
        char name[8];
        snprintf(name, sizeof name, "q%d", Q_COMMIT);
        int sent = 0;
        for (int i = 0; i < m && ok; i++) {
            char g[24], v[24], keep[16], undo[16], ai[16];
            snprintf(g, sizeof g, "%lld", (long long)c[i]->game);
            snprintf(v, sizeof v, "%lld", (long long)c[i]->version);
            snprintf(keep, sizeof keep, "%d", c[i]->keep);
            snprintf(undo, sizeof undo, "%d", c[i]->undo_request);
            snprintf(ai, sizeof ai, "%d", c[i]->ai_level);
            const char *p[] = {g, v, keep, arr[i], c[i]->result, undo, ai};
            ok = PQsendQueryPrepared(s->conn, name, 7, p, NULL, NULL, 0);
            sent += ok;
        }
        int synced = ok && PQpipelineSync(s->conn);
        ok = synced;
        int got = 0, ends = 0, rcs[MANY_MAX];
        int64_t nv[MANY_MAX];
        /* Every answer is read, whatever happened: each statement's (then a NULL), then the
           sync's; unless the connection ended. */
        for (;;) {
            PGresult *r = PQgetResult(s->conn);
            if (!r) {
                if (PQstatus(s->conn) != CONNECTION_OK || ++ends > sent || (!synced && ends == sent))
                    break;
                continue;
            }
            int st = PQresultStatus(r);
            if (st == PGRES_PIPELINE_SYNC) {
                PQclear(r);
                break;
            }
            if (st == PGRES_TUPLES_OK && got < m) {
                rcs[got] = commit_answer(r, &nv[got]);
                got++;
            } else {
                ok = 0;
            }
            PQclear(r);
        }
        if (!PQexitPipelineMode(s->conn)) ok = 0;
        if (PQstatus(s->conn) != CONNECTION_OK) s->prepared = 0;
        if (ok && got == m) {
            for (int i = 0; i < m; i++) {
                rc[idx[i]] = rcs[i];
                if (version && rcs[i] == RV_STORE_OK) version[idx[i]] = nv[i];
            }
        } else {
            ok = 0;
        }
    } else {
        ok = 0;
    }
    for (int i = 0; i < m; i++) free(arr[i]);
    if (!ok) report(s, "pipelined commits (trying them one by one)");
    for (int i = ok ? m : 0; i < n; i++)
        rc[i] = pg_commit(base, changes[i], version ? &version[i] : NULL);
}

static void copy_val(char *dst, size_t cap, const PGresult *r, int row, int col) {
    snprintf(dst, cap, "%s", PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col));
}

static long long int_val(const PGresult *r, int row, int col) {
    return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static void read_game(const PGresult *r, int row, rv_store_game *g) {
    memset(g, 0, sizeof *g);
    g->id = int_val(r, row, 0);
    copy_val(g->room, sizeof g->room, r, row, 1);
    copy_val(g->variant, sizeof g->variant, r, row, 2);
    g->size = (int)int_val(r, row, 3);
    copy_val(g->black, sizeof g->black, r, row, 4);
    copy_val(g->white, sizeof g->white, r, row, 5);
    g->created = int_val(r, row, 6);
    copy_val(g->result, sizeof g->result, r, row, 7);
    g->nmoves = (int)int_val(r, row, 8);
    g->version = int_val(r, row, 9);
    g->undo_request = (int)int_val(r, row, 10);
    g->ai_pending = !strcmp(PQgetvalue(r, row, 11), "t");
}

static int pg_get_game(rv_store *base, int64_t game, rv_store_game *out) {
    char g[24];
    snprintf(g, sizeof g, "%lld", (long long)game);
    const char *p[] = {g};
    PGresult *r = run(P(base), Q_GET_GAME, 1, p);
    if (!r) return RV_STORE_FAIL;
    int found = PQntuples(r) == 1;
    if (found) read_game(r, 0, out);
    PQclear(r);
    return found ? RV_STORE_OK : RV_STORE_FAIL;
}

static int pg_load_game(rv_store *base, int64_t game, rv_store_game *hdr, char ***moves,
                        int *n) {
    char g[24];
    snprintf(g, sizeof g, "%lld", (long long)game);
    const char *p[] = {g};
    PGresult *r = run(P(base), Q_LOAD_GAME, 1, p);
    if (!r) return RV_STORE_FAIL;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return RV_STORE_FAIL;
    }
    rv_store_game h;
    read_game(r, 0, &h);
    rv_store_moves m = {0};
    int bad = 0;
    const char *t = PQgetvalue(r, 0, 12);
    while (*t && !bad) {
        size_t len = strcspn(t, " ");
        char mv[32];
        if (len >= sizeof mv) {
            bad = 1;
            break;
        }
        memcpy(mv, t, len);
        mv[len] = 0;
        bad = rv_store_moves_push(&m, mv) != 0;
        t += len + (t[len] == ' ');
    }
    PQclear(r);
    if (bad || m.n != h.nmoves) {
        rv_store_free_moves(m.v, m.n);
        return RV_STORE_FAIL;
    }
    *hdr = h;
    *moves = m.v;
    *n = m.n;
    return RV_STORE_OK;
}

static int pg_list_games(rv_store *base, rv_store_game *out, int max) {
    char lim[16];
    snprintf(lim, sizeof lim, "%d", max);
    const char *p[] = {lim};
    PGresult *r = run(P(base), Q_LIST, 1, p);
    if (!r) return 0;
    int n = PQntuples(r) < max ? PQntuples(r) : max;
    for (int i = 0; i < n; i++) read_game(r, i, &out[i]);
    PQclear(r);
    return n;
}

static int pg_put_room(rv_store *base, const rv_store_room *rm) {
    char game[24], ai[16], level[16];
    snprintf(game, sizeof game, "%lld", (long long)rm->game_id);
    snprintf(ai, sizeof ai, "%d", rm->ai_color);
    snprintf(level, sizeof level, "%d", rm->level);
    const char *p[] = {rm->id, rm->mode, game, rm->token[0], rm->token[1], ai, level};
    PGresult *r = run(P(base), Q_PUT_ROOM, 7, p);
    if (!r) return RV_STORE_FAIL;
    PQclear(r);
    return RV_STORE_OK;
}

/* A room's columns (id, mode, game, black_token, white_token, ai_color, level) of row 0. */
static void read_room(const PGresult *r, rv_store_room *out) {
    memset(out, 0, sizeof *out);
    copy_val(out->id, sizeof out->id, r, 0, 0);
    copy_val(out->mode, sizeof out->mode, r, 0, 1);
    out->game_id = int_val(r, 0, 2);
    copy_val(out->token[0], sizeof out->token[0], r, 0, 3);
    copy_val(out->token[1], sizeof out->token[1], r, 0, 4);
    out->ai_color = (int)int_val(r, 0, 5);
    out->level = (int)int_val(r, 0, 6);
}

static int pg_get_room(rv_store *base, const char *id, rv_store_room *out) {
    const char *p[] = {id};
    PGresult *r = run(P(base), Q_GET_ROOM, 1, p);
    if (!r) return RV_STORE_FAIL;
    int found = PQntuples(r) == 1;
    if (found) read_room(r, out);
    PQclear(r);
    return found ? RV_STORE_OK : RV_STORE_FAIL;
}

/* A conditional update: OK when it changed one row (and returned it), CONFLICT when the
   condition failed. */
static int changed_one(PGresult *r) {
    if (!r) return RV_STORE_FAIL;
    int one = PQntuples(r) == 1;
    PQclear(r);
    return one ? RV_STORE_OK : RV_STORE_CONFLICT;
}

static int pg_claim_seat(rv_store *base, const char *room, int seat, const char *token) {
    char st[8];
    snprintf(st, sizeof st, "%d", seat);
    const char *p[] = {room, st, token};
    return changed_one(run(P(base), Q_CLAIM, 3, p));
}

static int pg_set_room_game(rv_store *base, const char *room, int64_t old_game,
                            int64_t new_game) {
    char o[24], n[24];
    snprintf(o, sizeof o, "%lld", (long long)old_game);
    snprintf(n, sizeof n, "%lld", (long long)new_game);
    const char *p[] = {room, o, n};
    return changed_one(run(P(base), Q_SET_ROOM_GAME, 3, p));
}

static int pg_add_event(rv_store *base, int64_t game, int ply, const char *kind,
                        const char *who, const char *text);

static int pg_start_game(rv_store *base, rv_store_room *room, int64_t old_game, int swap,
                         const char *variant, int size, const char *black, const char *white,
                         const char *rules) {
    pg_store *s = P(base);
    if (ensure(s) || exec_ok(s, "BEGIN", NULL, 0)) {
        report(s, "new game");
        return RV_STORE_FAIL;
    }
    s->in_tx = 1;
    rv_store_room rec = *room;
    int out = RV_STORE_OK;
    int64_t id = pg_new_game(base, room->id, variant, size, black, white);
    if (id < 0 || pg_add_event(base, id, 0, "rules", "", rules)) out = RV_STORE_FAIL;
    if (out == RV_STORE_OK && !old_game) {
        rec.game_id = id;
        out = pg_put_room(base, &rec);
    } else if (out == RV_STORE_OK) {
        char o[24], n[24], sw[4];
        snprintf(o, sizeof o, "%lld", (long long)old_game);
        snprintf(n, sizeof n, "%lld", (long long)id);
        snprintf(sw, sizeof sw, "%d", swap != 0);
        const char *p[] = {room->id, o, n, sw};
        PGresult *r = run(s, Q_NEXT_GAME, 4, p);
        if (!r) out = RV_STORE_FAIL;
        else if (PQntuples(r) != 1) out = RV_STORE_CONFLICT;
        else read_room(r, &rec);
        PQclear(r);
    }
    s->in_tx = 0;
    if (out == RV_STORE_OK && exec_ok(s, "COMMIT", NULL, 0)) {
        report(s, "new game");
        out = RV_STORE_FAIL;
    }
    if (out != RV_STORE_OK) {
        if (PQstatus(s->conn) == CONNECTION_OK) exec_ok(s, "ROLLBACK", NULL, 0);
        else s->prepared = 0;
        return out;
    }
    *room = rec;
    return RV_STORE_OK;
}

static int pg_claim_job(rv_store *base, const char *owner, int lease_s, rv_store_job *job) {
    char lease[16];
    snprintf(lease, sizeof lease, "%d", lease_s);
    const char *p[] = {owner, lease};
    PGresult *r = run(P(base), Q_CLAIM_JOB, 2, p);
    if (!r) return -1;
    int got = PQntuples(r) == 1;
    if (got) {
        job->game = int_val(r, 0, 0);
        job->version = int_val(r, 0, 1);
        job->level = (int)int_val(r, 0, 2);
    }
    PQclear(r);
    return got;
}

static int pg_drop_job(rv_store *base, const rv_store_job *job) {
    char g[24], v[24];
    snprintf(g, sizeof g, "%lld", (long long)job->game);
    snprintf(v, sizeof v, "%lld", (long long)job->version);
    const char *p[] = {g, v};
    PGresult *r = run(P(base), Q_DROP_JOB, 2, p);
    if (!r) return RV_STORE_FAIL;
    PQclear(r);
    return RV_STORE_OK;
}

static int pg_set_players(rv_store *base, int64_t game, const char *black, const char *white) {
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)game);
    const char *p[] = {id, black, white};
    PGresult *r = run(P(base), Q_SET_PLAYERS, 3, p);
    if (!r) return RV_STORE_FAIL;
    PQclear(r);
    return RV_STORE_OK;
}

static int pg_add_event(rv_store *base, int64_t game, int ply, const char *kind,
                        const char *who, const char *text) {
    char id[24], pl[16], when[24];
    snprintf(id, sizeof id, "%lld", (long long)game);
    snprintf(pl, sizeof pl, "%d", ply);
    snprintf(when, sizeof when, "%lld", (long long)time(NULL));
    const char *p[] = {id, pl, kind, who, when, text};
    PGresult *r = run(P(base), Q_ADD_EVENT, 6, p);
    if (!r) return RV_STORE_FAIL;
    int one = PQntuples(r) == 1; /* none: no such game */
    PQclear(r);
    return one ? RV_STORE_OK : RV_STORE_FAIL;
}

static int pg_get_events(rv_store *base, int64_t game, rv_store_note **events, int *n) {
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)game);
    const char *p[] = {id};
    PGresult *r = run(P(base), Q_GET_EVENTS, 1, p);
    if (!r) return RV_STORE_FAIL;
    rv_store_note *v = NULL;
    int cnt = 0, cap = 0, rows = PQntuples(r), ok = 1;
    for (int i = 0; i < rows && ok; i++)
        ok = !rv_store_notes_push(&v, &cnt, &cap, (int)int_val(r, i, 0), PQgetvalue(r, i, 1),
                                   PQgetvalue(r, i, 2), int_val(r, i, 3), PQgetvalue(r, i, 4));
    PQclear(r);
    if (!ok) {
        free(v);
        return RV_STORE_FAIL;
    }
    *events = v;
    *n = cnt;
    return RV_STORE_OK;
}

static int pg_commit_act(rv_store *base, const rv_store_act *a, int64_t *version) {
    pg_store *s = P(base);
    const rv_store_change *c = &a->change;
    if (ensure(s) || exec_ok(s, "BEGIN", NULL, 0)) {
        report(s, "opening act");
        return RV_STORE_FAIL;
    }
    s->in_tx = 1;
    int64_t nv = 0;
    int out = pg_commit(base, c, &nv);
    if (out == RV_STORE_OK && a->kind &&
        pg_add_event(base, c->game, c->keep + c->n, a->kind, a->who, a->text))
        out = RV_STORE_FAIL;
    if (out == RV_STORE_OK && a->swap) {
        /* The room stays at its game; its seats are exchanged (SET reads the old row). */
        char g[24];
        snprintf(g, sizeof g, "%lld", (long long)c->game);
        const char *p[] = {a->room, g, g, "1"};
        PGresult *r = run(s, Q_NEXT_GAME, 4, p);
        out = !r ? RV_STORE_FAIL : PQntuples(r) == 1 ? RV_STORE_OK : RV_STORE_CONFLICT;
        PQclear(r);
        if (out == RV_STORE_OK) out = pg_set_players(base, c->game, a->black, a->white);
    }
    s->in_tx = 0;
    if (out == RV_STORE_OK && exec_ok(s, "COMMIT", NULL, 0)) {
        report(s, "opening act");
        out = RV_STORE_FAIL;
    }
    if (out != RV_STORE_OK) {
        if (PQstatus(s->conn) == CONNECTION_OK) exec_ok(s, "ROLLBACK", NULL, 0);
        else s->prepared = 0;
        return out;
    }
    if (version) *version = nv;
    return RV_STORE_OK;
}

static const rv_store_ops pg_ops = {
    .kind = "postgresql",
    .close = pg_close,
    .schema_version = pg_schema_version,
    .ping = pg_ping,
    .new_game = pg_new_game,
    .commit = pg_commit,
    .get_game = pg_get_game,
    .load_game = pg_load_game,
    .list_games = pg_list_games,
    .put_room = pg_put_room,
    .get_room = pg_get_room,
    .claim_seat = pg_claim_seat,
    .set_room_game = pg_set_room_game,
    .start_game = pg_start_game,
    .set_players = pg_set_players,
    .commit_act = pg_commit_act,
    .add_event = pg_add_event,
    .get_events = pg_get_events,
    .claim_job = pg_claim_job,
    .drop_job = pg_drop_job,
    .commit_many = pg_commit_many,
    .session = pg_session,
    .notify = pg_notify,
    .nonblocking = pg_nonblocking,
};

/* ---------------------------------------------------------------- watching */

struct rv_store_watch {
    PGconn *conn;
    int what; /* RV_STORE_WATCH_ROOMS, _JOBS or _ALL */
    int lost; /* the connection broke: re-made on the next wait */
};

static int watch_listen(rv_store_watch *w) {
    if (PQstatus(w->conn) != CONNECTION_OK) return -1;
    PQsetNoticeProcessor(w->conn, quiet_notices, NULL);
    const char *sql = w->what == RV_STORE_WATCH_ALL    ? "LISTEN renversi; LISTEN renversi_jobs"
                      : w->what == RV_STORE_WATCH_JOBS ? "LISTEN renversi_jobs"
                                                       : "LISTEN renversi";
    PGresult *r = PQexec(w->conn, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    return ok ? 0 : -1;
}

rv_store_watch *rv_store_pg_watch_open(const char *url, int what, char *err, size_t errlen) {
    rv_store_watch *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->what = what;
    w->conn = PQconnectdbParams(conn_keys, CONN_VALS("renversi-watch", url), 1);
    if (!w->conn || watch_listen(w)) {
        char m[400];
        one_line(m, sizeof m, w->conn ? PQerrorMessage(w->conn) : "out of memory");
        snprintf(err, errlen, "cannot listen on PostgreSQL: %s", m);
        rv_store_watch_close(w);
        return NULL;
    }
    return w;
}

void rv_store_watch_close(rv_store_watch *w) {
    if (!w) return;
    if (w->conn) PQfinish(w->conn);
    free(w);
}

/* "ROOM GAME VERSION ..." or "ROOM" into an event (and "!..." as it is). */
static void parse_event(const char *payload, int sender, rv_store_event *ev) {
    memset(ev, 0, sizeof *ev);
    ev->sender = sender;
    snprintf(ev->notice, sizeof ev->notice, "%s", payload);
    if (payload[0] == '!') return;
    size_t n = strcspn(payload, " ");
    snprintf(ev->room, sizeof ev->room, "%.*s", (int)(n < sizeof ev->room ? n : 0), payload);
    long long g = 0, v = 0;
    if (payload[n] && sscanf(payload + n, "%lld %lld", &g, &v) == 2) {
        ev->game = g;
        ev->version = v;
    }
}

int rv_store_watch_next(rv_store_watch *w, int timeout_ms, rv_store_event *ev) {
    if (w->lost) {
        PQreset(w->conn);
        if (watch_listen(w)) {
            /* Still away: wait before the next try, so a caller's loop does not spin. */
            poll(NULL, 0, timeout_ms);
            return -1;
        }
        w->lost = 0;
        return -1; /* back, but anything may have happened meanwhile */
    }
    for (int waited = 0;; waited = 1) {
        if (!PQconsumeInput(w->conn)) {
            w->lost = 1;
            return -1;
        }
        PGnotify *n = PQnotifies(w->conn);
        if (n) {
            parse_event(n->extra, n->be_pid, ev);
            ev->job = !strcmp(n->relname, "renversi_jobs");
            PQfreemem(n);
            return 1;
        }
        if (waited) return 0;
        struct pollfd p = {.fd = PQsocket(w->conn), .events = POLLIN};
        if (p.fd < 0) {
            w->lost = 1;
            return -1;
        }
        int rc = poll(&p, 1, timeout_ms);
        if (rc == 0) return 0;
    }
}
