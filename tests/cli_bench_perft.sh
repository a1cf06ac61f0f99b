#!/usr/bin/env bash
# `renversi bench perft --quick`: runs, the last line has the fixed format and
# the published count from the start (perft 9 = 3005288) is in the first line.
. "$(dirname "$0")/lib.sh"
R=$RENVERSI
"$R" bench perft --quick >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && ok || bad "bench perft --quick exit"
tail -1 "$tmp/out" | grep -Eq '^perft: [0-9]+ nodes, [0-9]+\.[0-9]{3} s, [0-9]+\.[0-9] M nodes/s$' && ok ||
    bad "last line: $(tail -1 "$tmp/out")"
head -1 "$tmp/out" | grep -q ' 3005288 nodes' && ok || bad "first line: $(head -1 "$tmp/out")"
grep -q '^machine: ' "$tmp/err" && ok || bad "machine description on stderr"
# Every path this CPU has gives the same total.
want=$(tail -1 "$tmp/out" | cut -d' ' -f2)
for simd in plain avx2 avx512; do
    if "$R" perft 1 --simd $simd >/dev/null 2>&1; then
        got=$("$R" bench perft --quick --simd $simd 2>/dev/null | tail -1 | cut -d' ' -f2)
        [ "$got" = "$want" ] && ok || bad "--simd $simd total $got, want $want"
    fi
done
expect_exit 0 "$R" bench perft --help
expect_exit 2 "$R" bench perft --bogus
expect_exit 2 "$R" bench perft --simd mmx
finish
