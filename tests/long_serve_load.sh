#!/usr/bin/env bash
# `make test-long`: the load test (bench/load.sh) as a check — 500 WebSocket clients in 250
# rooms for 10 s at a brisk pace: every move answered, no error, no disconnection.
. "$(dirname "$0")/lib.sh"
src=${RV_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=$(cd "$(dirname "$RENVERSI")" && pwd)
out=$(bash "$src/bench/load.sh" 500 10 100 "$build" 2>"$tmp/err")
code=$?
echo "$out"
[ "$code" = 0 ] && ok || { bad "load test exit $code"; cat "$tmp/err" >&2; }
echo "$out" | grep -qE ' [1-9][0-9]* moves, ' && ok || bad "no moves: $out"
echo "$out" | grep -q ' 0 errors, 0 moves resent ' && ok || bad "errors or resent moves: $out"
grep -q 'disconnected' "$tmp/err" && bad "a client was disconnected" || ok
finish
