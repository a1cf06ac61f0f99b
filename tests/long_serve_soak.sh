#!/usr/bin/env bash
# `make test-long`: the soak of tests/test_server_soak.c for longer (3 minutes of attacks)
# and with the honest games at level 10: memory under 200 MB, both games finished, the AI
# queue served in order, and every answer of the computer within twice its time per move
# (RV_SOAK_ANSWER_S, 6 s, stretched by the load average over the cores): a wall-clock bound,
# meant for a quiet machine (`make test`'s soak only guards against hangs).
. "$(dirname "$0")/lib.sh"
build=${RV_BUILD_DIR:-$(cd "$(dirname "$RENVERSI")" && pwd)}
if RV_SOAK_SECONDS=${RV_SOAK_SECONDS:-180} RV_SOAK_LEVEL=${RV_SOAK_LEVEL:-10} \
    RV_SOAK_ANSWER_S=${RV_SOAK_ANSWER_S:-6} \
    "$build/test_server_soak" 2>"$tmp/soak.err"; then
    ok
else
    bad "soak failed"
fi
grep '^soak:' "$tmp/soak.err" >&2
grep 'CHECK failed' "$tmp/soak.err" >&2
finish
