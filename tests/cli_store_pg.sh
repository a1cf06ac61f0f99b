#!/usr/bin/env bash
# The PostgreSQL store beside a throwaway cluster (scripts/pg-tmp.sh): the store tests of
# test_store.c on PostgreSQL, and `renversi serve --db postgresql://...` starting, migrating,
# and refusing bad URLs, refused logins and newer schemas with one line and exit 2; the room
# cases of test_server_rooms on PostgreSQL; then several servers sharing the database
# (tests/pg_cluster.c).
# Never skipped: without PostgreSQL's programs this test fails and says what to install.
if [ -z "${RV_TEST_PG:-}" ]; then
    exec "${RV_SOURCE_DIR:?}/scripts/pg-tmp.sh" bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

# The store's own tests, on PostgreSQL this time.
if "${RV_BUILD_DIR:?}/test_store" >"$tmp/store.out" 2>&1; then ok; else bad "test_store on PostgreSQL:"; cat "$tmp/store.out" >&2; fi
tail -1 "$tmp/store.out" | grep -q '^[1-9][0-9]* passed, 0 failed' && ok || bad "test_store: $(tail -1 "$tmp/store.out")"
grep -q "RV_TEST_PG unset" "$tmp/store.out" && bad "test_store did not test PostgreSQL" || ok

# One line, exit 2, for each kind of bad database argument.
one_line_exit2() { # WANT DB
    "$RENVERSI" serve --port 0 --db "$2" >"$tmp/out" 2>"$tmp/err" </dev/null
    local code=$?
    [ "$code" = 2 ] && ok || bad "--db $2: exit $code, want 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] && ok || bad "--db $2: not one line: $(cat "$tmp/err")"
    grep -qF -- "$1" "$tmp/err" && ok || bad "--db $2: stderr lacks '$1': $(cat "$tmp/err")"
}
RENVERSI=$(cd "$(dirname "$RENVERSI")" && pwd)/$(basename "$RENVERSI")
RV_BUILD_DIR=$(cd "$RV_BUILD_DIR" && pwd)
cd "$tmp"
one_line_exit2 "malformed --db URL" "postgresql://[::1"
one_line_exit2 "malformed --db URL" "postgresql:///rvtest?host=$PGHOST&bogus=1"
one_line_exit2 "malformed --db URL" "postgres:rvtest"
[ -z "$(ls "$tmp" | grep -v -e '^out$' -e '^err$' -e '^store.out$')" ] && ok || bad "a bad URL left files: $(ls "$tmp")"
one_line_exit2 "not permitted to log in" "$RV_PG_NOLOGIN_URL"
one_line_exit2 "password authentication failed" "$RV_PG_BADPW_URL"
# The password is not echoed.
grep -q wrong "$tmp/err" && bad "the password was printed" || ok
one_line_exit2 "does not exist" "postgresql:///nosuchdb?host=$PGHOST&user=postgres"
psql -X -q -c "CREATE SCHEMA future; CREATE TABLE future.schema_version(version INTEGER NOT NULL); INSERT INTO future.schema_version VALUES(42)" >/dev/null
one_line_exit2 "schema version 42, newer than" "$RV_TEST_PG&options=-csearch_path%3Dfuture"
[ "$(psql -X -At -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'future'")" = 1 ] && ok || bad "the newer schema was written to"

# A server on PostgreSQL starts, creates the tables at the current version, stops on SIGTERM.
psql -X -q -c "CREATE SCHEMA srv" >/dev/null
"$RENVERSI" serve --host 127.0.0.1 --port 0 --db "$RV_TEST_PG&options=-csearch_path%3Dsrv" 2>"$tmp/serve.err" &
pid=$!
port=
for _ in $(seq 1200); do # a 60 s hang guard: start-up under ASan on a busy machine is slow
    port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.err")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
[ -n "$port" ] && ok || bad "serve on PostgreSQL did not start: $(cat "$tmp/serve.err")"
grep -q "db postgresql)" "$tmp/serve.err" && ok || bad "listening line: $(cat "$tmp/serve.err")"
tables=$(psql -X -At -c "SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'srv'")
[ "$tables" = "ai_jobs events games moves rooms schema_version" ] && ok || bad "tables: $tables"
if command -v curl >/dev/null 2>&1; then
    [ "$(curl -s "http://127.0.0.1:$port/healthz")" = ok ] && ok || bad "/healthz"
    code=$(curl -s -o "$tmp/ready" -w '%{http_code}' "http://127.0.0.1:$port/readyz")
    [ "$code $(cat "$tmp/ready")" = "200 ready: the database (postgresql) answers" ] && ok || bad "/readyz: $code $(cat "$tmp/ready")"
fi
v=$(psql -X -At -c 'SELECT version FROM srv.schema_version')
[ "${v:-0}" -ge 2 ] && ok || bad "schema version '$v'"
kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" = 0 ] && ok || bad "SIGTERM: exit $code"

# The room cases of test_server_rooms (chat, hints, undo, the next game, openings, a restart
# mid-opening) with the server on PostgreSQL, where its store worker does the database work.
psql -X -q -c "CREATE SCHEMA rooms" >/dev/null
if RV_TEST_ROOMS_DB="$RV_TEST_PG&options=-csearch_path%3Drooms" "$RV_BUILD_DIR/test_server_rooms" >"$tmp/rooms.out" 2>&1; then ok; else bad "test_server_rooms on PostgreSQL:"; cat "$tmp/rooms.out" >&2; fi
tail -1 "$tmp/rooms.out" | grep -q '^[1-9][0-9]* passed, 0 failed' && ok || bad "test_server_rooms: $(tail -1 "$tmp/rooms.out")"

# Three instances on one database: a game across them, two moves for one turn, the computer
# through the job table, ten kill -9 rounds (tests/pg_cluster.c).
psql -X -q -c "CREATE SCHEMA cluster" >/dev/null
if RV_TEST_PG_SCHEMA=cluster "$RV_BUILD_DIR/pg_cluster" >"$tmp/cluster.out" 2>&1; then ok; else bad "pg_cluster:"; cat "$tmp/cluster.out" >&2; fi
tail -1 "$tmp/cluster.out" | grep -q '^[1-9][0-9]* passed, 0 failed' && ok || bad "pg_cluster: $(tail -1 "$tmp/cluster.out")"
finish
