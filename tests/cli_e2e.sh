#!/usr/bin/env bash
# The browser game end to end: Debian's chromium driven by npm playwright-core
# (tests/e2e/*.test.js: play.test.js the game and rooms, game.test.js what a player sees
# around the moves, words.test.js the page's words without a browser). Installs the
# pinned playwright-core with `npm ci` when tests/e2e/node_modules does not have it.
. "$(dirname "$0")/lib.sh"
dir="$(cd "$(dirname "$0")/e2e" && pwd)"
chromium=${RV_CHROMIUM:-/usr/bin/chromium}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    bad "node and npm are needed (scripts/deps.sh test installs them)"; finish
fi
if [ ! -x "$chromium" ]; then
    bad "no chromium at $chromium (scripts/deps.sh test installs it)"; finish
fi
want=$(sed -n 's/.*"playwright-core": *"\([^"]*\)".*/\1/p' "$dir/package.json" | head -1)
have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$dir/node_modules/playwright-core/package.json" 2>/dev/null | head -1)
if [ "$have" != "$want" ]; then
    # One install at a time: two test runs may share this source tree.
    (
        flock 9
        cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2
    ) 9>"$dir/.npm-lock" || { bad "npm ci failed in $dir"; finish; }
fi
# Each test prints its own "N passed, M failed" line; fold it into this script's count.
for t in "$dir"/*.test.js; do
    name=$(basename "$t")
    out=$(cd "$dir" && RENVERSI="$RENVERSI" RV_CHROMIUM="$chromium" timeout 400 node "$name" 2>&1)
    code=$?
    echo "$out" | grep -v ' passed, .* failed$' >&2
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    [ -n "$line" ] || { bad "$name printed no result (exit $code)"; continue; }
    pass=$((pass + p)); fail=$((fail + f))
    [ "$code" = 0 ] || [ "$f" != 0 ] || bad "$name exited $code"
done
finish
