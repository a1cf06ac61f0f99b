#!/usr/bin/env bash
# `make test-long`: the soak of tests/test_server_soak.c for longer (3 minutes of attacks)
# and with the honest games at level 10: memory under 200 MB, both games finished, every
# answer of the computer within twice its time per move.
. "$(dirname "$0")/lib.sh"
build=${RV_BUILD_DIR:-$(cd "$(dirname "$RENVERSI")" && pwd)}
if RV_SOAK_SECONDS=${RV_SOAK_SECONDS:-180} RV_SOAK_LEVEL=${RV_SOAK_LEVEL:-10} \
    "$build/test_server_soak" 2>"$tmp/soak.err"; then
    ok
else
    bad "soak failed"
fi
grep '^soak:' "$tmp/soak.err" >&2
grep 'CHECK failed' "$tmp/soak.err" >&2
finish
