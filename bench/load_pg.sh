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
. "$here/lib.sh"
bench_init "$build"
dir=$(mktemp -d "$PGHOST/load.XXXXXX")
trap 'bench_stop; rm -rf "$dir"' EXIT
ulimit -n 8192 2>/dev/null || true
for i in $(seq "$instances"); do bench_serve "$dir" "$i" --db "$RV_TEST_PG"; done
bench_machine "$instances instances on PostgreSQL $(psql -X -At -c 'SHOW server_version')"
# The database's processes (the servers' sessions among them) count in the CPU per move.
pm=$(head -1 "$PGHOST/data/postmaster.pid")
bench_run "$clients" "$seconds" "$think" "$pm" $(pgrep -P "$pm")
