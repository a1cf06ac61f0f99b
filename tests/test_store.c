/*
 * The store (src/server/store.h) against its two implementations: SQLite always, and
 * PostgreSQL when RV_TEST_PG names a database (tests/cli_store_pg.sh runs this program
 * beside a throwaway cluster, scripts/pg-tmp.sh). The same cases run on both: versioned
 * commits and their conflicts, undo and results, rooms and seat claims, the game list,
 * reopening, migrating a database from before schema versions, refusing a newer schema
 * without writing, bad URLs and refused logins; on PostgreSQL also two connections
 * racing for the same turn, many times.
 */
#include <libpq-fe.h>
#include <pthread.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/store.h"
#include "test.h"

static char tmpdir[256];
static const char *pg_base; /* RV_TEST_PG */

/* ---------------------------------------------------------------- helpers */

/* The PostgreSQL URL of the test database with search_path set to SCHEMA. */
static void pg_url(char *out, size_t n, const char *schema) {
    snprintf(out, n, "%s%soptions=-csearch_path%%3D%s", pg_base, strchr(pg_base, '?') ? "&" : "?",
             schema);
}

/* Runs SQL on the test database (setting up a schema by hand); 0 on success. */
static int pg_sql(const char *sql) {
    PGconn *c = PQconnectdb(pg_base);
    int ok = PQstatus(c) == CONNECTION_OK;
    if (ok) {
        PGresult *r = PQexec(c, sql);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
        if (!ok) fprintf(stderr, "pg_sql: %s: %s", sql, PQresultErrorMessage(r));
        PQclear(r);
    } else {
        fprintf(stderr, "pg_sql: %s", PQerrorMessage(c));
    }
    PQfinish(c);
    return ok ? 0 : -1;
}

/* One integer from a query on the test database; -1 on failure. */
static long long pg_int(const char *sql) {
    PGconn *c = PQconnectdb(pg_base);
    long long v = -1;
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *r = PQexec(c, sql);
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
            v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        PQclear(r);
    }
    PQfinish(c);
    return v;
}

static rv_store *open_ok(const char *db) {
    char err[512] = "";
    rv_store *s = rv_store_open(db, err, sizeof err);
    CHECK_MSG(s != NULL, "open %s: %s", db, err);
    return s;
}

/* Opening fails with a message that has WANT in it and no newline. */
static void open_fails(const char *db, const char *want) {
    char err[512] = "";
    rv_store *s = rv_store_open(db, err, sizeof err);
    CHECK_MSG(s == NULL, "open %s succeeded", db);
    rv_store_close(s);
    CHECK_MSG(strstr(err, want) != NULL, "open %s: '%s' lacks '%s'", db, err, want);
    CHECK_MSG(strchr(err, '\n') == NULL, "message on more than one line: %s", err);
}

static int commit_ai(rv_store *s, int64_t game, int64_t version, int keep, const char *m1,
                     const char *m2, const char *result, int undo, int ai, int64_t *nv) {
    const char *mv[2] = {m1, m2};
    rv_store_change c = {.game = game, .version = version, .keep = keep, .moves = mv,
                         .n = m2 ? 2 : m1 ? 1 : 0, .result = result, .undo_request = undo,
                         .ai_level = ai};
    return rv_store_commit(s, &c, nv);
}

static int commit(rv_store *s, int64_t game, int64_t version, int keep, const char *m1,
                  const char *m2, const char *result, int undo, int64_t *nv) {
    return commit_ai(s, game, version, keep, m1, m2, result, undo, 0, nv);
}

/* The game's moves joined by spaces ("" for none, "?" when it cannot be read). */
static const char *moves_of(rv_store *s, int64_t game, rv_store_game *hdr) {
    static char buf[512];
    char **mv;
    int n;
    rv_store_game h;
    if (rv_store_load_game(s, game, &h, &mv, &n)) return "?";
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strcat(buf, " ");
        strncat(buf, mv[i], 16);
    }
    rv_store_free_moves(mv, n);
    CHECK_EQ_INT(h.nmoves, n);
    if (hdr) *hdr = h;
    return buf;
}

/* ---------------------------------------------------------------- the cases */

/* Games: versions, conflicts, undo, results, undo requests, the list. Returns a game id. */
static int64_t check_games(rv_store *s) {
    CHECK_EQ_INT(rv_store_schema_version(s), RV_STORE_SCHEMA_VERSION);
    CHECK_EQ_INT(rv_store_ping(s), RV_STORE_OK);
    int64_t g = rv_store_new_game(s, "room1", "renju", 15, "human", "ai 3");
    CHECK(g > 0);
    rv_store_game h;
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_STR(h.room, "room1");
    CHECK_EQ_STR(h.variant, "renju");
    CHECK_EQ_INT(h.size, 15);
    CHECK_EQ_STR(h.white, "ai 3");
    CHECK_EQ_INT(h.version, 0);
    CHECK_EQ_INT(h.nmoves, 0);
    CHECK_EQ_STR(h.result, "");
    CHECK(h.created > 1700000000);
    CHECK_EQ_STR(moves_of(s, g, NULL), "");

    int64_t v = -7;
    CHECK_EQ_INT(commit(s, g, 0, 0, "h8", NULL, "", 0, &v), RV_STORE_OK);
    CHECK_EQ_INT(v, 1);
    /* The same turn again, against the old version: refused, nothing written. */
    CHECK_EQ_INT(commit(s, g, 0, 0, "i9", NULL, "", 0, &v), RV_STORE_CONFLICT);
    CHECK_EQ_INT(v, 1);
    CHECK_EQ_STR(moves_of(s, g, &h), "h8");
    CHECK_EQ_INT(h.version, 1);
    /* A move and a forced pass at once. */
    CHECK_EQ_INT(commit(s, g, 1, 1, "i9", "pass", "", 0, &v), RV_STORE_OK);
    CHECK_EQ_INT(v, 2);
    CHECK_EQ_STR(moves_of(s, g, NULL), "h8 i9 pass");
    /* An undo request, then the undo: plies from 1 on go, the request with them. */
    CHECK_EQ_INT(commit(s, g, 2, 3, NULL, NULL, "", 2, &v), RV_STORE_OK);
    CHECK_EQ_STR(moves_of(s, g, &h), "h8 i9 pass");
    CHECK_EQ_INT(h.undo_request, 2);
    CHECK_EQ_INT(h.version, 3);
    CHECK_EQ_INT(commit(s, g, 3, 1, NULL, NULL, "", 0, &v), RV_STORE_OK);
    CHECK_EQ_STR(moves_of(s, g, &h), "h8");
    CHECK_EQ_INT(h.undo_request, 0);
    CHECK_EQ_INT(h.version, 4);
    /* A result with a quote and a backslash survives as written. */
    CHECK_EQ_INT(commit(s, g, 4, 1, "a1", NULL, "white wins: \"x\" \\ y", 0, &v), RV_STORE_OK);
    CHECK_EQ_STR(moves_of(s, g, &h), "h8 a1");
    CHECK_EQ_STR(h.result, "white wins: \"x\" \\ y");
    /* No such game; a move text no game writes. */
    CHECK_EQ_INT(commit(s, 987654321, 0, 0, "h8", NULL, "", 0, NULL), RV_STORE_FAIL);
    CHECK_EQ_INT(rv_store_get_game(s, 987654321, &h), RV_STORE_FAIL);
    char **mv = (char **)1;
    int n = -1;
    CHECK_EQ_INT(rv_store_load_game(s, 987654321, &h, &mv, &n), RV_STORE_FAIL);
    CHECK(mv == (char **)1 && n == -1);

    /* The list: games with moves only, newest first. */
    int64_t empty = rv_store_new_game(s, "room2", "reversi", 8, "human", "human");
    int64_t g2 = rv_store_new_game(s, "room3", "reversi", 8, "human", "human");
    CHECK(empty > g && g2 > empty);
    CHECK_EQ_INT(commit(s, g2, 0, 0, "f5", NULL, "", 0, NULL), RV_STORE_OK);
    rv_store_game list[10];
    int ln = rv_store_list_games(s, list, 10);
    CHECK(ln >= 2);
    CHECK_EQ_INT(list[0].id, g2);
    CHECK_EQ_INT(list[0].nmoves, 1);
    CHECK_EQ_INT(list[1].id, g);
    for (int i = 0; i < ln; i++) CHECK(list[i].id != empty);
    CHECK_EQ_INT(rv_store_list_games(s, list, 1), 1);
    return g;
}

/* AI jobs: queued by a commit, claimed once per lease, dropped by the game's next commit.
   The SQLite store never queues one (its server thinks in process). */
static void check_jobs(rv_store *s) {
    int shared = rv_store_shared(s);
    int64_t g = rv_store_new_game(s, "jobs", "renju", 15, "human", "ai 4");
    int64_t v;
    CHECK_EQ_INT(commit_ai(s, g, 0, 0, "h8", NULL, "", 0, 4, &v), RV_STORE_OK);
    rv_store_game h;
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_INT(h.ai_pending, shared);
    rv_store_job job = {0}, job2 = {0};
    /* Other tests' jobs may wait too: take jobs until this game's comes. */
    int got = 0;
    for (int i = 0; i < 50 && (got = rv_store_claim_job(s, "one", 1, &job)) == 1 && job.game != g; i++)
        ;
    if (!shared) {
        CHECK_EQ_INT(got, 0);
        return;
    }
    CHECK_EQ_INT(got, 1);
    CHECK_EQ_INT(job.game, g);
    CHECK_EQ_INT(job.version, 1);
    CHECK_EQ_INT(job.level, 4);
    /* Held: nobody else gets it until the lease runs out. */
    CHECK_EQ_INT(rv_store_claim_job(s, "two", 1, &job2), 0);
    usleep(1300 * 1000);
    CHECK_EQ_INT(rv_store_claim_job(s, "two", 30, &job2), 1);
    CHECK_EQ_INT(job2.game, g);
    /* The answer is committed against the job's version; the job goes with it. */
    CHECK_EQ_INT(commit(s, g, job2.version, 1, "i9", NULL, "", 0, &v), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_INT(h.ai_pending, 0);
    /* A second answer (the first holder waking up late) is refused: one move per turn. */
    CHECK_EQ_INT(commit(s, g, job.version, 1, "j10", NULL, "", 0, NULL), RV_STORE_CONFLICT);
    CHECK_EQ_STR(moves_of(s, g, NULL), "h8 i9");
    /* A job made stale by an undo is dropped by it. */
    CHECK_EQ_INT(commit_ai(s, g, v, 2, "a1", NULL, "", 0, 4, &v), RV_STORE_OK);
    CHECK_EQ_INT(commit(s, g, v, 1, NULL, NULL, "", 0, &v), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_INT(h.ai_pending, 0);
    CHECK_EQ_INT(rv_store_claim_job(s, "three", 30, &job), 0);
    /* Dropping by version: only that version's job goes. */
    CHECK_EQ_INT(commit_ai(s, g, v, 1, "b2", NULL, "", 0, 4, &v), RV_STORE_OK);
    rv_store_job old = {.game = g, .version = v - 1};
    CHECK_EQ_INT(rv_store_drop_job(s, &old), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_INT(h.ai_pending, 1);
    rv_store_job cur = {.game = g, .version = v};
    CHECK_EQ_INT(rv_store_drop_job(s, &cur), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_INT(h.ai_pending, 0);
}

static void check_rooms(rv_store *s, int64_t g) {
    rv_store_room r = {.id = "abc123", .mode = "online", .game_id = g, .level = 7};
    snprintf(r.token[0], sizeof r.token[0], "%s", "tok-black");
    CHECK_EQ_INT(rv_store_put_room(s, &r), RV_STORE_OK);
    rv_store_room got;
    CHECK_EQ_INT(rv_store_get_room(s, "abc123", &got), RV_STORE_OK);
    CHECK_EQ_STR(got.mode, "online");
    CHECK_EQ_INT(got.game_id, g);
    CHECK_EQ_STR(got.token[0], "tok-black");
    CHECK_EQ_STR(got.token[1], "");
    CHECK_EQ_INT(got.level, 7);
    CHECK_EQ_INT(rv_store_get_room(s, "nosuch", &got), RV_STORE_FAIL);
    /* The open seat goes to the first claim only; a taken seat is never overwritten. */
    CHECK_EQ_INT(rv_store_claim_seat(s, "abc123", 2, "tok-white"), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_claim_seat(s, "abc123", 2, "tok-thief"), RV_STORE_CONFLICT);
    CHECK_EQ_INT(rv_store_claim_seat(s, "abc123", 1, "tok-thief"), RV_STORE_CONFLICT);
    CHECK_EQ_INT(rv_store_claim_seat(s, "nosuch", 1, "tok"), RV_STORE_CONFLICT);
    CHECK_EQ_INT(rv_store_get_room(s, "abc123", &got), RV_STORE_OK);
    CHECK_EQ_STR(got.token[0], "tok-black");
    CHECK_EQ_STR(got.token[1], "tok-white");
    /* A new game in the room: only from the game it is at. */
    CHECK_EQ_INT(rv_store_set_room_game(s, "abc123", g, g + 100), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_set_room_game(s, "abc123", g, g + 200), RV_STORE_CONFLICT);
    CHECK_EQ_INT(rv_store_get_room(s, "abc123", &got), RV_STORE_OK);
    CHECK_EQ_INT(got.game_id, g + 100);
    /* Put replaces the whole room. */
    r.level = 3;
    CHECK_EQ_INT(rv_store_put_room(s, &r), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_get_room(s, "abc123", &got), RV_STORE_OK);
    CHECK_EQ_INT(got.level, 3);
    CHECK_EQ_STR(got.token[1], "");
}

/* Games started in rooms: the game, its rules note and the room in one transaction. */
static void check_start_game(rv_store *s) {
    rv_store_room r = {.id = "start1", .mode = "online", .ai_color = 2, .level = 4};
    snprintf(r.token[0], sizeof r.token[0], "%s", "tok-a");
    CHECK_EQ_INT(rv_store_start_game(s, &r, 0, 0, "renju", 15, "human", "ai 4",
                                     "opening=free;hints=1"),
                 RV_STORE_OK);
    int64_t g1 = r.game_id;
    CHECK(g1 > 0);
    rv_store_room got;
    CHECK_EQ_INT(rv_store_get_room(s, "start1", &got), RV_STORE_OK);
    CHECK_EQ_INT(got.game_id, g1);
    CHECK_EQ_STR(got.token[0], "tok-a");
    CHECK_EQ_INT(got.ai_color, 2);
    rv_store_game h;
    CHECK_EQ_INT(rv_store_get_game(s, g1, &h), RV_STORE_OK);
    CHECK_EQ_STR(h.room, "start1");
    CHECK_EQ_STR(h.variant, "renju");
    CHECK_EQ_STR(h.white, "ai 4");
    CHECK_EQ_INT(h.version, 0);
    rv_store_note *ev;
    int n;
    CHECK_EQ_INT(rv_store_get_events(s, g1, &ev, &n), RV_STORE_OK);
    CHECK_EQ_INT(n, 1);
    if (n == 1) {
        CHECK_EQ_STR(ev[0].kind, "rules");
        CHECK_EQ_STR(ev[0].text, "opening=free;hints=1");
    }
    free(ev);
    /* Another seat is claimed after this copy of the room was made: the swap done by the
       store keeps it (it exchanges the stored tokens, not the caller's). */
    CHECK_EQ_INT(rv_store_claim_seat(s, "start1", 2, "tok-b"), RV_STORE_OK);
    rv_store_room next = r;
    CHECK_EQ_INT(rv_store_start_game(s, &next, g1, 1, "renju", 15, "ai 4", "human",
                                     "opening=free;hints=0"),
                 RV_STORE_OK);
    int64_t g2 = next.game_id;
    CHECK(g2 > g1);
    CHECK_EQ_STR(next.token[0], "tok-b");
    CHECK_EQ_STR(next.token[1], "tok-a");
    CHECK_EQ_INT(next.ai_color, 1);
    CHECK_EQ_INT(rv_store_get_room(s, "start1", &got), RV_STORE_OK);
    CHECK_EQ_INT(got.game_id, g2);
    CHECK_EQ_STR(got.token[0], "tok-b");
    CHECK_EQ_STR(got.token[1], "tok-a");
    CHECK_EQ_INT(got.ai_color, 1);
    CHECK_EQ_INT(rv_store_get_game(s, g2, &h), RV_STORE_OK);
    CHECK_EQ_STR(h.black, "ai 4");
    /* A second start from the old game (another server was first): refused, nothing
       written: no game row, no note, the room as it was, the caller's copy untouched. */
    rv_store_room stale = r;
    CHECK_EQ_INT(rv_store_start_game(s, &stale, g1, 1, "renju", 15, "human", "human",
                                     "opening=free;hints=0"),
                 RV_STORE_CONFLICT);
    CHECK_EQ_INT(stale.game_id, g1);
    CHECK_EQ_STR(stale.token[0], "tok-a");
    for (int64_t k = g2 + 1; k <= g2 + 3; k++)
        CHECK_MSG(rv_store_get_game(s, k, &h) != RV_STORE_OK, "game %lld was written", (long long)k);
    CHECK_EQ_INT(rv_store_get_room(s, "start1", &got), RV_STORE_OK);
    CHECK_EQ_INT(got.game_id, g2);
    CHECK_EQ_STR(got.token[0], "tok-b");
    CHECK_EQ_INT(got.ai_color, 1);
    /* Without the swap the seats stay. */
    rv_store_room same = next;
    CHECK_EQ_INT(rv_store_start_game(s, &same, g2, 0, "freestyle", 15, "ai 4", "human",
                                     "opening=free;hints=0"),
                 RV_STORE_OK);
    CHECK_EQ_STR(same.token[0], "tok-b");
    CHECK_EQ_INT(same.ai_color, 1);
    CHECK_EQ_INT(rv_store_get_game(s, same.game_id, &h), RV_STORE_OK);
    CHECK_EQ_STR(h.variant, "freestyle");
}

/* Opening acts: the stones, the note and a colour swap in one transaction checked against
   the game's version; a stale act writes nothing at all. */
static void check_commit_act(rv_store *s) {
    rv_store_room r = {.id = "act1", .mode = "ai", .ai_color = 2, .level = 3};
    snprintf(r.token[0], sizeof r.token[0], "%s", "tok-x");
    CHECK_EQ_INT(rv_store_start_game(s, &r, 0, 0, "freestyle", 15, "human", "ai 3",
                                     "opening=swap2;hints=0"),
                 RV_STORE_OK);
    int64_t g = r.game_id, v = -1;
    /* The first three stones (no note). */
    const char *three[] = {"h8", "h9", "i9"};
    rv_store_act a = {.change = {.game = g, .version = 0, .keep = 0, .moves = three, .n = 3,
                                 .result = ""}};
    CHECK_EQ_INT(rv_store_commit_act(s, &a, &v), RV_STORE_OK);
    CHECK_EQ_INT(v, 1);
    /* A choice without stones bumps the version, with its note at ply 3, and swaps. */
    rv_store_act choose = {.change = {.game = g, .version = 1, .keep = 3, .n = 0, .result = ""},
                           .kind = "choose", .who = "white", .text = "black", .swap = 1,
                           .room = "act1", .black = "ai 3", .white = "human"};
    CHECK_EQ_INT(rv_store_commit_act(s, &choose, &v), RV_STORE_OK);
    CHECK_EQ_INT(v, 2);
    rv_store_game h;
    CHECK_EQ_STR(moves_of(s, g, &h), "h8 h9 i9");
    CHECK_EQ_INT(h.version, 2);
    CHECK_EQ_STR(h.black, "ai 3");
    CHECK_EQ_STR(h.white, "human");
    rv_store_room got;
    CHECK_EQ_INT(rv_store_get_room(s, "act1", &got), RV_STORE_OK);
    CHECK_EQ_STR(got.token[0], "");
    CHECK_EQ_STR(got.token[1], "tok-x");
    CHECK_EQ_INT(got.ai_color, 1);
    rv_store_note *ev;
    int n;
    CHECK_EQ_INT(rv_store_get_events(s, g, &ev, &n), RV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK_EQ_STR(ev[1].kind, "choose");
        CHECK_EQ_STR(ev[1].who, "white");
        CHECK_EQ_STR(ev[1].text, "black");
        CHECK_EQ_INT(ev[1].ply, 3);
    }
    free(ev);
    /* The same choice again against version 1 (another server was first): a conflict, and
       no stone, note, swap or players written. */
    const char *two[] = {"j10", "k11"};
    rv_store_act stale = choose;
    stale.change.moves = two;
    stale.change.n = 2;
    stale.black = "x";
    stale.white = "y";
    v = -1;
    CHECK_EQ_INT(rv_store_commit_act(s, &stale, &v), RV_STORE_CONFLICT);
    CHECK_EQ_INT(v, -1);
    /* A room no longer at this game refuses the swap: nothing written either, even with
       the game's version right. */
    rv_store_act moved = stale;
    moved.change.version = 2;
    moved.room = "no-such-room";
    CHECK_EQ_INT(rv_store_commit_act(s, &moved, &v), RV_STORE_CONFLICT);
    CHECK_EQ_STR(moves_of(s, g, &h), "h8 h9 i9");
    CHECK_EQ_INT(h.version, 2);
    CHECK_EQ_STR(h.black, "ai 3");
    CHECK_EQ_INT(rv_store_get_room(s, "act1", &got), RV_STORE_OK);
    CHECK_EQ_STR(got.token[1], "tok-x");
    CHECK_EQ_INT(got.ai_color, 1);
    CHECK_EQ_INT(rv_store_get_events(s, g, &ev, &n), RV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    free(ev);
    /* A bad stone text fails the whole act: its note is not written. */
    const char *bad[] = {"j 10"};
    rv_store_act broken = {.change = {.game = g, .version = 2, .keep = 3, .moves = bad, .n = 1,
                                      .result = ""},
                           .kind = "declare", .who = "black", .text = "2"};
    CHECK_EQ_INT(rv_store_commit_act(s, &broken, &v), RV_STORE_FAIL);
    CHECK_EQ_INT(rv_store_get_events(s, g, &ev, &n), RV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    free(ev);
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_INT(h.version, 2);
}

/* Several commits at once (the store worker's batches), each as if alone: the answers in
   the caller's order, a conflict and a bad change failing alone. */
static void check_commit_many(rv_store *s) {
    int64_t g[4];
    for (int i = 0; i < 4; i++) g[i] = rv_store_new_game(s, "many", "freestyle", 15, "human", "human");
    int64_t v3;
    CHECK_EQ_INT(commit(s, g[3], 0, 0, "a1", NULL, "", 0, &v3), RV_STORE_OK);
    const char *m0[] = {"h8"}, *m1[] = {"h 8"}, *m2[] = {"i9", "j10"}, *m3[] = {"b2"};
    /* Given newest game first: the store may reorder them, the answers may not be. */
    rv_store_change c[4] = {
        {.game = g[3], .version = 0, .keep = 1, .moves = m3, .n = 1, .result = ""}, /* stale */
        {.game = g[2], .version = 0, .keep = 0, .moves = m2, .n = 2, .result = ""},
        {.game = g[1], .version = 0, .keep = 0, .moves = m1, .n = 1, .result = ""}, /* bad */
        {.game = g[0], .version = 0, .keep = 0, .moves = m0, .n = 1, .result = "", .undo_request = 1},
    };
    const rv_store_change *p[4] = {&c[0], &c[1], &c[2], &c[3]};
    int rc[4] = {9, 9, 9, 9};
    int64_t nv[4] = {0};
    rv_store_commit_many(s, p, 4, rc, nv);
    CHECK_EQ_INT(rc[0], RV_STORE_CONFLICT);
    CHECK_EQ_INT(rc[1], RV_STORE_OK);
    CHECK_EQ_INT(rc[2], RV_STORE_FAIL);
    CHECK_EQ_INT(rc[3], RV_STORE_OK);
    CHECK_EQ_INT(nv[1], 1);
    CHECK_EQ_INT(nv[3], 1);
    rv_store_game h;
    CHECK_EQ_STR(moves_of(s, g[0], &h), "h8");
    CHECK_EQ_INT(h.version, 1);
    CHECK_EQ_INT(h.undo_request, 1);
    CHECK_EQ_STR(moves_of(s, g[1], &h), "");
    CHECK_EQ_INT(h.version, 0);
    CHECK_EQ_STR(moves_of(s, g[2], &h), "i9 j10");
    CHECK_EQ_INT(h.version, 1);
    CHECK_EQ_STR(moves_of(s, g[3], &h), "a1");
    CHECK_EQ_INT(h.version, 1);
}

/* PostgreSQL: a batch the database refuses as a whole (one commit's notice is longer than
   NOTIFY takes, so the pipeline's transaction fails) is tried again one by one: the others
   are committed exactly once, the bad one not at all, and the connection goes on. */
static void check_pipeline_retry(rv_store *s) {
    int64_t g[3];
    for (int i = 0; i < 3; i++) g[i] = rv_store_new_game(s, "pipe", "freestyle", 15, "human", "human");
    static char huge[9000];
    memset(huge, 'r', sizeof huge - 1);
    const char *m0[] = {"h8"}, *m1[] = {"i9"}, *m2[] = {"j10"};
    rv_store_change c[3] = {
        {.game = g[0], .version = 0, .keep = 0, .moves = m0, .n = 1, .result = ""},
        {.game = g[1], .version = 0, .keep = 0, .moves = m1, .n = 1, .result = huge},
        {.game = g[2], .version = 0, .keep = 0, .moves = m2, .n = 1, .result = ""},
    };
    const rv_store_change *p[3] = {&c[0], &c[1], &c[2]};
    int rc[3] = {9, 9, 9};
    int64_t nv[3] = {0};
    rv_store_commit_many(s, p, 3, rc, nv);
    CHECK_EQ_INT(rc[0], RV_STORE_OK);
    CHECK_EQ_INT(rc[1], RV_STORE_FAIL);
    CHECK_EQ_INT(rc[2], RV_STORE_OK);
    CHECK_EQ_INT(nv[0], 1);
    CHECK_EQ_INT(nv[2], 1);
    rv_store_game h;
    CHECK_EQ_STR(moves_of(s, g[0], &h), "h8");
    CHECK_EQ_INT(h.version, 1);
    CHECK_EQ_STR(moves_of(s, g[1], &h), "");
    CHECK_EQ_INT(h.version, 0);
    CHECK_EQ_STR(moves_of(s, g[2], &h), "j10");
    CHECK_EQ_INT(h.version, 1);
    /* The same connection pipelines the next batch. */
    const char *m3[] = {"k11"}, *m4[] = {"l12"};
    rv_store_change d[2] = {
        {.game = g[0], .version = 1, .keep = 1, .moves = m3, .n = 1, .result = ""},
        {.game = g[1], .version = 0, .keep = 0, .moves = m4, .n = 1, .result = ""},
    };
    const rv_store_change *q[2] = {&d[0], &d[1]};
    rv_store_commit_many(s, q, 2, rc, nv);
    CHECK_EQ_INT(rc[0], RV_STORE_OK);
    CHECK_EQ_INT(rc[1], RV_STORE_OK);
    CHECK_EQ_STR(moves_of(s, g[0], NULL), "h8 k11");
    CHECK_EQ_STR(moves_of(s, g[1], NULL), "l12");
}

/* Events (chat, opening choices) and players: kept in order, text as given, cut to size. */
static void check_events(rv_store *s, int64_t g) {
    CHECK_EQ_INT(rv_store_add_event(s, g, 0, "rules", "", "opening=swap2;hints=0"), RV_STORE_OK);
    CHECK_EQ_INT(rv_store_add_event(s, g, 3, "chat", "spectator", "<b>好</b> 'x' \"y\""), RV_STORE_OK);
    char big[RV_STORE_EVENT_TEXT + 100];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK_EQ_INT(rv_store_add_event(s, g, 3, "choose", "white", big), RV_STORE_OK);
    rv_store_note *ev;
    int n;
    CHECK_EQ_INT(rv_store_get_events(s, g, &ev, &n), RV_STORE_OK);
    CHECK_EQ_INT(n, 3);
    if (n == 3) {
        CHECK_EQ_STR(ev[0].kind, "rules");
        CHECK_EQ_INT(ev[1].ply, 3);
        CHECK_EQ_STR(ev[1].who, "spectator");
        CHECK_EQ_STR(ev[1].text, "<b>好</b> 'x' \"y\"");
        CHECK_EQ_INT(strlen(ev[2].text), RV_STORE_EVENT_TEXT - 1);
        CHECK(ev[1].created > 1700000000);
    }
    free(ev);
    CHECK_EQ_INT(rv_store_get_events(s, g + 12345, &ev, &n), RV_STORE_OK);
    CHECK_EQ_INT(n, 0);
    free(ev);
    CHECK_EQ_INT(rv_store_set_players(s, g, "ai 4", "human"), RV_STORE_OK);
    rv_store_game h;
    CHECK_EQ_INT(rv_store_get_game(s, g, &h), RV_STORE_OK);
    CHECK_EQ_STR(h.black, "ai 4");
    CHECK_EQ_STR(h.white, "human");
}

/* The whole suite on DB: a fresh database, then reopened (unless it lives in memory). */
static void check_store(const char *db, const char *kind) {
    rv_store *s = open_ok(db);
    if (!s) return;
    CHECK_EQ_STR(rv_store_kind(s), kind);
    int64_t g = check_games(s);
    check_rooms(s, g);
    check_events(s, g);
    check_jobs(s);
    check_start_game(s);
    check_commit_act(s);
    check_commit_many(s);
    if (strcmp(kind, "sqlite") != 0) check_pipeline_retry(s);
    CHECK_EQ_INT(rv_store_shared(s), strcmp(kind, "sqlite") != 0);
    rv_store_close(s);
    if (!strcmp(db, ":memory:")) return;
    s = open_ok(db);
    if (!s) return;
    rv_store_game h;
    CHECK_EQ_STR(moves_of(s, g, &h), "h8 a1");
    CHECK_EQ_INT(h.version, 5);
    rv_store_room got;
    CHECK_EQ_INT(rv_store_get_room(s, "abc123", &got), RV_STORE_OK);
    rv_store_close(s);
}

/* ---------------------------------------------------------------- SQLite */

static int sqlite_exec(const char *path, const char *sql) {
    sqlite3 *db;
    int rc = sqlite3_open(path, &db) == SQLITE_OK ? sqlite3_exec(db, sql, NULL, NULL, NULL) : -1;
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = malloc(1 << 20);
    *n = b ? fread(b, 1, 1 << 20, f) : 0;
    fclose(f);
    return b;
}

static void test_sqlite(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/store.db", tmpdir);
    check_store(path, "sqlite");
    check_store(":memory:", "sqlite");

    /* A database written before schema versions (version 1's tables, one game). */
    snprintf(path, sizeof path, "%s/old.db", tmpdir);
    CHECK(sqlite_exec(path,
                      "CREATE TABLE games(id INTEGER PRIMARY KEY, room TEXT, variant TEXT NOT "
                      "NULL, size INTEGER NOT NULL, black TEXT, white TEXT, created INTEGER, "
                      "result TEXT);"
                      "CREATE TABLE moves(game INTEGER NOT NULL REFERENCES games(id), ply INTEGER"
                      " NOT NULL, move TEXT NOT NULL, PRIMARY KEY(game, ply)) WITHOUT ROWID;"
                      "CREATE TABLE rooms(id TEXT PRIMARY KEY, mode TEXT, game INTEGER,"
                      " black_token TEXT, white_token TEXT, ai_color INTEGER, level INTEGER);"
                      "INSERT INTO games VALUES(5, 'r', 'freestyle', 15, 'human', 'human', "
                      "1700000000, '');"
                      "INSERT INTO moves VALUES(5, 0, 'h8'), (5, 1, 'h9');") == 0);
    rv_store *s = open_ok(path);
    if (s) {
        rv_store_game h;
        CHECK_EQ_STR(moves_of(s, 5, &h), "h8 h9");
        CHECK_EQ_INT(h.version, 0);
        CHECK_EQ_INT(commit(s, 5, 0, 2, "h10", NULL, "", 0, NULL), RV_STORE_OK);
        rv_store_close(s);
    }

    /* A newer schema: refused, the file left byte for byte as it was. */
    snprintf(path, sizeof path, "%s/new.db", tmpdir);
    CHECK(sqlite_exec(path, "PRAGMA journal_mode=DELETE; CREATE TABLE schema_version(version "
                            "INTEGER NOT NULL); INSERT INTO schema_version VALUES(99);") == 0);
    size_t n0 = 0, n1 = 0;
    char *before = slurp(path, &n0);
    open_fails(path, "schema version 99, newer than");
    char *after = slurp(path, &n1);
    CHECK(before && after && n0 == n1 && n0 > 0 && !memcmp(before, after, n0));
    free(before);
    free(after);
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", path);
    CHECK(access(wal, F_OK) != 0);

    snprintf(path, sizeof path, "%s/no/such/dir/x.db", tmpdir);
    open_fails(path, "cannot open database");
    /* Not a database at all. */
    snprintf(path, sizeof path, "%s/text.db", tmpdir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("this is not an SQLite file, but it is long enough to have a header\n", f);
        for (int i = 0; i < 100; i++) fputs("................................\n", f);
        fclose(f);
    }
    open_fails(path, "not a database");
}

/* ---------------------------------------------------------------- PostgreSQL */

typedef struct racer {
    rv_store *s;
    int64_t game;
    int rounds;
    const char *tag;
    pthread_barrier_t *bar;
    int won[64];
} racer;

/* Each round, both racers commit their own move for the same turn at the same moment. */
static void *race(void *arg) {
    racer *r = arg;
    for (int i = 0; i < r->rounds; i++) {
        char mv[16];
        snprintf(mv, sizeof mv, "%s%d", r->tag, i);
        pthread_barrier_wait(r->bar);
        r->won[i] = commit(r->s, r->game, i, i, mv, NULL, "", 0, NULL);
        pthread_barrier_wait(r->bar);
    }
    return NULL;
}

static void test_pg(void) {
    char schema[64], url[1024];
    snprintf(schema, sizeof schema, "rvt%ld_main", (long)getpid());
    char sql[256];
    snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
    CHECK(pg_sql(sql) == 0);
    pg_url(url, sizeof url, schema);
    check_store(url, "postgresql");

    /* Two instances, one game: each round exactly one of two simultaneous commits wins. */
    rv_store *a = open_ok(url), *b = open_ok(url);
    if (a && b) {
        int64_t g = rv_store_new_game(a, "race", "freestyle", 15, "human", "human");
        pthread_barrier_t bar;
        pthread_barrier_init(&bar, NULL, 2);
        racer ra = {.s = a, .game = g, .rounds = 64, .tag = "a", .bar = &bar};
        racer rb = {.s = b, .game = g, .rounds = 64, .tag = "b", .bar = &bar};
        pthread_t ta, tb;
        pthread_create(&ta, NULL, race, &ra);
        pthread_create(&tb, NULL, race, &rb);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        pthread_barrier_destroy(&bar);
        int ok = 0, conflicts = 0;
        for (int i = 0; i < 64; i++) {
            ok += (ra.won[i] == RV_STORE_OK) + (rb.won[i] == RV_STORE_OK);
            conflicts += (ra.won[i] == RV_STORE_CONFLICT) + (rb.won[i] == RV_STORE_CONFLICT);
            CHECK_MSG((ra.won[i] == RV_STORE_OK) != (rb.won[i] == RV_STORE_OK),
                      "round %d: %d and %d", i, ra.won[i], rb.won[i]);
        }
        CHECK_EQ_INT(ok, 64);
        CHECK_EQ_INT(conflicts, 64);
        rv_store_game h;
        moves_of(b, g, &h);
        CHECK_EQ_INT(h.nmoves, 64);
        CHECK_EQ_INT(h.version, 64);
    }
    rv_store_close(a);
    rv_store_close(b);

    /* A database written before schema versions. */
    snprintf(schema, sizeof schema, "rvt%ld_v1", (long)getpid());
    snprintf(sql, sizeof sql, "CREATE SCHEMA %s; SET search_path = %s;", schema, schema);
    char old[1200];
    snprintf(old, sizeof old,
             "%s CREATE TABLE games(id BIGSERIAL PRIMARY KEY, room TEXT, variant TEXT NOT NULL,"
             " size INTEGER NOT NULL, black TEXT, white TEXT, created BIGINT, result TEXT);"
             "CREATE TABLE moves(game BIGINT NOT NULL REFERENCES games(id), ply INTEGER NOT "
             "NULL, move TEXT NOT NULL, PRIMARY KEY(game, ply));"
             "CREATE TABLE rooms(id TEXT PRIMARY KEY, mode TEXT, game BIGINT, black_token TEXT,"
             " white_token TEXT, ai_color INTEGER, level INTEGER);"
             "INSERT INTO games VALUES(5, 'r', 'freestyle', 15, 'human', 'human', 1700000000, "
             "''); INSERT INTO moves VALUES(5, 0, 'h8'), (5, 1, 'h9');",
             sql);
    CHECK(pg_sql(old) == 0);
    pg_url(url, sizeof url, schema);
    rv_store *s = open_ok(url);
    if (s) {
        rv_store_game h;
        CHECK_EQ_STR(moves_of(s, 5, &h), "h8 h9");
        CHECK_EQ_INT(h.version, 0);
        CHECK_EQ_INT(commit(s, 5, 0, 2, "h10", NULL, "", 0, NULL), RV_STORE_OK);
        CHECK_EQ_STR(moves_of(s, 5, NULL), "h8 h9 h10");
        rv_store_close(s);
    }

    /* A newer schema: refused, nothing written (still one table, still version 99). */
    snprintf(schema, sizeof schema, "rvt%ld_v99", (long)getpid());
    snprintf(old, sizeof old,
             "CREATE SCHEMA %s; CREATE TABLE %s.schema_version(version INTEGER NOT NULL);"
             "INSERT INTO %s.schema_version VALUES(99);",
             schema, schema, schema);
    CHECK(pg_sql(old) == 0);
    pg_url(url, sizeof url, schema);
    open_fails(url, "schema version 99, newer than");
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_tables WHERE schemaname = '%s'", schema);
    CHECK_EQ_INT(pg_int(sql), 1);
    snprintf(sql, sizeof sql, "SELECT max(version) FROM %s.schema_version", schema);
    CHECK_EQ_INT(pg_int(sql), 99);

    /* Logins the database refuses. */
    const char *nologin = getenv("RV_PG_NOLOGIN_URL"), *badpw = getenv("RV_PG_BADPW_URL");
    CHECK_MSG(nologin && badpw, "scripts/pg-tmp.sh sets RV_PG_NOLOGIN_URL and RV_PG_BADPW_URL");
    if (nologin) open_fails(nologin, "not permitted to log in");
    if (badpw) open_fails(badpw, "password authentication failed");
}

/* Bad URLs are told apart from file names and refused before anything is written. */
static void test_bad_urls(void) {
    if (chdir(tmpdir)) return;
    open_fails("postgresql://[::1", "malformed --db URL");
    open_fails("postgresql://host/db?nosuchparam=1", "malformed --db URL");
    open_fails("postgres:nonsense", "malformed --db URL");
    open_fails("POSTGRESQL://%zz", "malformed --db URL");
    open_fails("", "--db needs");
    struct stat st;
    CHECK(stat("postgres:nonsense", &st) != 0 && stat("postgresql:", &st) != 0);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rv-store-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    test_sqlite();
    pg_base = getenv("RV_TEST_PG");
    if (pg_base && *pg_base) test_pg();
    else fprintf(stderr, "test_store: RV_TEST_PG unset: PostgreSQL is tested by cli_store_pg\n");
    test_bad_urls();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_finish();
}
