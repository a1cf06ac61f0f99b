#!/usr/bin/env bash
# `renversi bench forbidden`: the exact last line, FILE input, bad input.
. "$(dirname "$0")/lib.sh"
R=$RENVERSI
re='^forbidden: [0-9]+ maps, [0-9]+ empty points, [0-9]+\.[0-9]{3} s, [0-9]+\.[0-9]{2} ns/point$'

expect_exit 0 "$R" bench forbidden --help
expect_stdout_has "usage: renversi bench forbidden" "$R" bench forbidden --help

"$R" bench forbidden --seconds 0.2 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] && ok || bad "bench forbidden: exit $rc"
tail -n 1 "$tmp/out" | grep -Eq "$re" && ok || bad "last line: $(tail -n 1 "$tmp/out")"
grep -q "^positions: 1020 (built-in)" "$tmp/out" && ok || bad "built-in set: $(head -n 1 "$tmp/out")"
grep -q "^machine: " "$tmp/err" && ok || bad "no machine description on stderr"
# the built-in set has 1216 forbidden points (the count is stable: the set is fixed)
grep -q "^forbidden points found: 1216 per pass" "$tmp/out" && ok || bad "count: $(grep found "$tmp/out")"

# FILE: move lists; 2 positions x 225 points - stones = empty points per pass
printf '# two positions\nf8 a1 g8 a2 h6 a3 h7 | 1 forbidden\n\nh8 i9\n' >"$tmp/set.txt"
"$R" bench forbidden "$tmp/set.txt" --seconds 0.2 >"$tmp/out" 2>/dev/null
line=$(tail -n 1 "$tmp/out")
echo "$line" | grep -Eq "$re" && ok || bad "FILE last line: $line"
maps=$(echo "$line" | sed 's/^forbidden: \([0-9]*\) maps, \([0-9]*\) empty.*/\1 \2/')
set -- $maps
[ $(( $1 % 2 )) = 0 ] && [ "$2" = $(( $1 / 2 * (218 + 223) )) ] && ok || bad "counts: $line"
grep -q "^forbidden points found: 1 per pass" "$tmp/out" && ok || bad "FILE count: $(grep found "$tmp/out")"

for args in "/nonexistent" "--seconds 0" "--seconds x" "--size 4" "--bogus" "a b"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$R" bench forbidden $args
done
printf 'h8 h8\n' >"$tmp/bad.txt"
expect_stderr_has "line 1: move 2 (h8): occupied" "$R" bench forbidden "$tmp/bad.txt"
printf '# nothing\n' >"$tmp/empty.txt"
expect_exit 2 "$R" bench forbidden "$tmp/empty.txt"
finish
