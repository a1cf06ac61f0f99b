#!/usr/bin/env bash
# Runs CMD... beside a throwaway PostgreSQL cluster of Debian's packages, then drops it.
#   scripts/pg-tmp.sh CMD [ARGS...]
# The cluster lives in a temporary directory and listens on a Unix socket there only (no
# TCP port, so several can run at once). As root it runs as the `postgres` user. CMD gets:
#   RV_TEST_PG   a URL of the empty database rvtest (postgresql:///rvtest?host=DIR&user=postgres)
#   PGHOST PGUSER PGDATABASE   the same, for psql
#   RV_PG_CTL    a script that runs pg_ctl on the cluster (`$RV_PG_CTL stop -m fast`, `$RV_PG_CTL start`)
#   RV_PG_NOLOGIN_URL  the same database as a role that may not log in
#   RV_PG_BADPW_URL    the same database as a role with a password, given the wrong one
# Exit: CMD's exit code, or 3 when no cluster could be started (never a silent skip).
set -eu
[ $# -ge 1 ] || { echo "usage: scripts/pg-tmp.sh CMD [ARGS...]" >&2; exit 2; }

bindir=
for d in "$(pg_config --bindir 2>/dev/null || true)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
    if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; break; fi
done
if [ -z "$bindir" ]; then
    echo "pg-tmp: no PostgreSQL server programs (initdb, pg_ctl): install the postgresql package (scripts/deps.sh test)" >&2
    exit 3
fi

dir=$(mktemp -d /tmp/rv-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "pg-tmp: running as root but there is no postgres user" >&2; rm -rf "$dir"; exit 3; }
    chown postgres "$dir"
    as_pg=(runuser -u postgres --)
fi
ctl=("${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 -o "-k $dir -c listen_addresses= -c fsync=off -c max_connections=200")
cleanup() {
    "${ctl[@]}" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! "${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1; then
    echo "pg-tmp: initdb failed:" >&2; cat "$dir/initdb.log" >&2; exit 3
fi
# A role with a password logs in with it; everything else is trusted on the socket.
printf 'local all rv_pw scram-sha-256\nlocal all all trust\n' >"$dir/data/pg_hba.conf"
if ! "${ctl[@]}" start >/dev/null 2>&1; then
    echo "pg-tmp: the server did not start:" >&2; cat "$dir/log" >&2; exit 3
fi
psql=("$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -U postgres)
[ -x "$bindir/psql" ] || psql=(psql -X -q -v ON_ERROR_STOP=1 -h "$dir" -U postgres)
if ! "${psql[@]}" -d postgres -c "CREATE DATABASE rvtest" \
        -c "CREATE ROLE rv_nologin NOLOGIN" \
        -c "CREATE ROLE rv_pw LOGIN PASSWORD 'right'" >"$dir/psql.log" 2>&1; then
    echo "pg-tmp: cannot prepare the database:" >&2; cat "$dir/psql.log" >&2; exit 3
fi

export PGHOST=$dir PGUSER=postgres PGDATABASE=rvtest
export RV_TEST_PG="postgresql:///rvtest?host=$dir&user=postgres"
export RV_PG_NOLOGIN_URL="postgresql:///rvtest?host=$dir&user=rv_nologin"
export RV_PG_BADPW_URL="postgresql://rv_pw:wrong@/rvtest?host=$dir"
{ printf '#!/bin/sh\nexec'; printf " '%s'" "${ctl[@]}"; printf ' "$@"\n'; } >"$dir/ctl"
chmod 755 "$dir/ctl"
export RV_PG_CTL="$dir/ctl"
set +e
"$@"
rc=$?
set -e
exit $rc
