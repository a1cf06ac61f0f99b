#!/usr/bin/env bash
# The load test of `renversi serve` (BENCHMARKS.md): builds bench/load.c, starts a server
# on a free loopback port with a fresh database file, runs CLIENTS WebSocket clients for
# SECONDS, stops the server.
#   bench/load.sh [CLIENTS=500] [SECONDS=10] [THINK_MS=0] [BUILD=build]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
clients=${1:-500}
seconds=${2:-10}
think=${3:-0}
bench_init "${4:-$here/../build}"
dir=$(mktemp -d)
trap 'bench_stop; rm -rf "$dir"' EXIT
ulimit -n 4096 2>/dev/null || true
bench_serve "$dir" 1 --db "$dir/load.db"
bench_machine
bench_run "$clients" "$seconds" "$think"
