#!/usr/bin/env bash
# `renversi serve` as a command: options, start-up failures, the files it serves, the
# database it holds, and stopping on SIGTERM. (The game protocol: tests/test_server.c.)
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$RENVERSI" serve --help
expect_stdout_has "--db" "$RENVERSI" serve --help
expect_exit 2 "$RENVERSI" serve --port 99999
expect_exit 2 "$RENVERSI" serve --port abc
expect_exit 2 "$RENVERSI" serve --bogus
expect_exit 2 "$RENVERSI" serve --web /nonexistent
expect_stderr_has "no index.html" "$RENVERSI" serve --web "$tmp"
expect_exit 2 "$RENVERSI" serve --port 0 --db /nonexistent/dir/x.db
expect_stderr_has "cannot open database" "$RENVERSI" serve --port 0 --db /nonexistent/dir/x.db
# An empty --db would be a temporary database (every game lost on restart): refused.
expect_exit 2 "$RENVERSI" serve --port 0 --db ""
expect_stderr_has "needs a file name" "$RENVERSI" serve --port 0 --db ""
# An address that is not one: exit 2 before anything starts (no URL printed).
for h in 999.1.1.1 "" no-such-host.invalid 192.0.2.1; do
    expect_exit 2 "$RENVERSI" serve --port 0 --db "$tmp/h.db" --host "$h"
done
"$RENVERSI" serve --port 0 --db "$tmp/h.db" --host 999.1.1.1 2>"$tmp/h.err"
grep -q "http://" "$tmp/h.err" && bad "a URL for a bad --host: $(cat "$tmp/h.err")" || ok
# A read-only directory says so (not "disk I/O error").
mkdir -p "$tmp/ro"
if [ "$(id -u)" = 0 ]; then
    # root ignores permissions: a read-only mount in a private mount namespace instead.
    if unshare -m true 2>/dev/null; then
        unshare -m sh -c "mount -t tmpfs -o ro none '$tmp/ro' && exec '$RENVERSI' serve --port 0 --db '$tmp/ro/x.db'" 2>"$tmp/ro.err"
        code=$?
        [ "$code" = 2 ] && ok || bad "read-only mount: exit $code"
        grep -q "read-only" "$tmp/ro.err" && ok || bad "read-only mount: $(cat "$tmp/ro.err")"
    else
        echo "unshare -m not permitted: the read-only check is skipped" >&2
    fi
else
    chmod 555 "$tmp/ro"
    expect_exit 2 "$RENVERSI" serve --port 0 --db "$tmp/ro/x.db"
    expect_stderr_has "read-only" "$RENVERSI" serve --port 0 --db "$tmp/ro/x.db"
    chmod 755 "$tmp/ro"
fi

# Start one on a free port and wait for its address line.
start() { # start DB -> sets pid, port
    "$RENVERSI" serve --host 127.0.0.1 --port "${2:-0}" --db "$1" 2>"$tmp/serve.err" &
    pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.err")
        [ -n "$port" ] && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
if start "$tmp/a.db"; then ok; else bad "serve did not start: $(cat "$tmp/serve.err")"; finish; fi

# The same port twice: the second one says so and exits 2. (libwebsockets 4.1.6 itself
# leaks 72 bytes when it cannot bind; the sanitizer build is told not to count that.)
nolsan="env ASAN_OPTIONS=detect_leaks=0"
expect_exit 2 $nolsan "$RENVERSI" serve --host 127.0.0.1 --port "$port" --db "$tmp/b.db"
expect_stderr_has "cannot listen" $nolsan "$RENVERSI" serve --host 127.0.0.1 --port "$port" --db "$tmp/b.db"
# The same database twice: the running server holds it.
expect_exit 2 "$RENVERSI" serve --host 127.0.0.1 --port 0 --db "$tmp/a.db"

if command -v curl >/dev/null 2>&1; then
    head=$(curl -s -D - -o "$tmp/index" "http://127.0.0.1:$port/")
    echo "$head" | grep -q '^HTTP/1.1 200' && ok || bad "GET / : $head"
    grep -q '<canvas id="board"' "$tmp/index" && ok || bad "GET / is not the page"
    # No inline scripts: the CSP forbids them, so everything is in files.
    grep -q '<script>' "$tmp/index" && bad "inline script in index.html" || ok
    echo "$head" | grep -qi "^content-security-policy: .*script-src 'self'" && ok || bad "no CSP header"
    ctype=$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/style.css" "http://127.0.0.1:$port/app.js" | grep -i '^content-type')
    echo "$ctype" | grep -qi 'text/css' && echo "$ctype" | grep -qi 'javascript' && ok || bad "content types: $ctype"
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/no-such-file.js")
    [ "$code" = 404 ] && ok || bad "missing file: HTTP $code"
    code=$(curl -s --path-as-is -o "$tmp/trav" -w "%{http_code}" "http://127.0.0.1:$port/../../etc/passwd")
    grep -q "root:" "$tmp/trav" && bad "path traversal served /etc/passwd (HTTP $code)" || ok
else
    echo "curl not installed: HTTP checks skipped" >&2
fi

kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" = 0 ] && ok || bad "SIGTERM: exit $code"
# The database was created with its tables.
if command -v sqlite3 >/dev/null 2>&1; then
    tables=$(sqlite3 "$tmp/a.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)" 2>&1)
    case "$tables" in *events*games*moves*rooms*) ok ;; *) bad "tables: $tables" ;; esac
fi
finish
