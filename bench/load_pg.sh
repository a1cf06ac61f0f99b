#!/usr/bin/env bash
# The load test with several `renversi serve` instances on one PostgreSQL database
# (BENCHMARKS.md, docs/deploy.md): a throwaway cluster on this machine (scripts/pg-tmp.sh),
# INSTANCES servers on free loopback ports, CLIENTS WebSocket clients split across them so
# that the two players of each room are on different servers, for SECONDS.
#   bench/load_pg.sh [CLIENTS=1000] [SECONDS=10] [THINK_MS=100] [INSTANCES=2] [BUILD=build]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
clients=${1:-1000}
seconds=${2:-10}
think=${3:-100}
instances=${4:-2}
build=${5:-$here/../build}
if [ -z "${RV_TEST_PG:-}" ]; then
    exec "$here/../scripts/pg-tmp.sh" bash "$0" "$clients" "$seconds" "$think" "$instances" "$build"
fi
renversi=$build/renversi
[ -x "$renversi" ] || { echo "load_pg: build first (make)" >&2; exit 2; }
cc -O2 -Wall -Wextra -o "$build/bench-load" "$here/load.c" $(pkg-config --cflags --libs libcjson)
dir=$(mktemp -d "$PGHOST/load.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$dir"' EXIT
ulimit -n 8192 2>/dev/null || true
ports=
for i in $(seq "$instances"); do
    : >"$dir/err$i" # there before the server's shell opens it, for the sed below
    "$renversi" serve --host 127.0.0.1 --port 0 --db "$RV_TEST_PG" 2>"$dir/err$i" &
    pids+=($!)
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/err$i")
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$dir/err$i" >&2; exit 1; }
    ports=${ports:+$ports,}$port
done
echo "$("$renversi" --version); $(nproc) cores: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); $instances instances on PostgreSQL $(psql -X -At -c 'SHOW server_version')" >&2
# CPU time (user + system, all threads) of the servers and of the database's processes, so
# that runs on a busy machine can be compared per move (BENCHMARKS.md).
ticks() { local t=0 p; for p in "$@"; do [ -r "/proc/$p/stat" ] && t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo "$t"; }
pg_pids() { local pm; pm=$(head -1 "$PGHOST/data/postmaster.pid" 2>/dev/null) && echo "$pm $(pgrep -P "$pm" | tr '\n' ' ')"; }
hz=$(getconf CLK_TCK)
s0=$(ticks "${pids[@]}"); d0=$(ticks $(pg_pids))
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$build/bench-load" "$ports" "$clients" "$seconds" "$think"
s1=$(ticks "${pids[@]}"); d1=$(ticks $(pg_pids))
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); cpu during the run: servers $(( (s1 - s0) * 1000 / hz )) ms, database $(( (d1 - d0) * 1000 / hz )) ms" >&2
