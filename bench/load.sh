#!/usr/bin/env bash
# The load test of `renversi serve` (BENCHMARKS.md): builds bench/load.c, starts a server
# on a free loopback port with a fresh database file, runs CLIENTS WebSocket clients for
# SECONDS, stops the server.
#   bench/load.sh [CLIENTS=500] [SECONDS=10] [THINK_MS=0] [BUILD=build]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
clients=${1:-500}
seconds=${2:-10}
think=${3:-0}
build=${4:-$here/../build}
renversi=$build/renversi
[ -x "$renversi" ] || { echo "load: build first (make)" >&2; exit 2; }
cc -O2 -Wall -Wextra -o "$build/bench-load" "$here/load.c" $(pkg-config --cflags --libs libcjson)
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
ulimit -n 4096 2>/dev/null || true
: >"$dir/err" # there before the server's shell opens it, for the sed below
"$renversi" serve --host 127.0.0.1 --port 0 --db "$dir/load.db" 2>"$dir/err" &
pid=$!
for _ in $(seq 50); do
    port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/err")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "${port:-}" ] || { cat "$dir/err" >&2; exit 1; }
echo "$("$renversi" --version); $(nproc) cores: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)" >&2
# CPU time (user + system, all threads) of the server, so that runs on a busy machine can be
# compared per move (BENCHMARKS.md).
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
s0=$(ticks "$pid")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$build/bench-load" "$port" "$clients" "$seconds" "$think"
s1=$(ticks "$pid")
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); cpu during the run: server $(( (s1 - s0) * 1000 / hz )) ms" >&2
