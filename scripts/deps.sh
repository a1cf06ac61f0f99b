#!/usr/bin/env bash
# Installs (as root) or names (otherwise) the Debian packages a make target needs.
#   scripts/deps.sh build   compiler, CMake, libwebsockets (and its libev loop), SQLite, libpq, cJSON
#   scripts/deps.sh test    build + clang/libFuzzer, Chromium, Node.js, tmux, PostgreSQL
#                           (the server; the tests start a throwaway cluster: scripts/pg-tmp.sh)
# Exit 0 when everything is present (after installing, as root); exit 1 with the
# exact apt-get line to run when something is missing and we are not root.
set -eu
what=${1:-build}

pkgs="build-essential cmake pkg-config libwebsockets-dev libwebsockets-evlib-ev libev-dev libsqlite3-dev libpq-dev libcjson-dev"
if [ "$what" = test ]; then
    pkgs="$pkgs clang libclang-rt-14-dev chromium tmux postgresql"
    # Node.js: any install will do (Debian's or another); Debian's when none.
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || pkgs="$pkgs nodejs npm"
fi

missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || true
    apt-get install -y -qq --no-install-recommends $missing >&2
else
    echo "deps: missing Debian packages; run as root:" >&2
    echo "  sudo $line" >&2
    exit 1
fi
