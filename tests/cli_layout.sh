#!/usr/bin/env bash
# The layout of shared/DESIGN.md, checked on the sources: the library (include/renversi/,
# src/core, gomoku, reversi, record, game) includes no front end, and no front end
# includes another's headers (src/cmdline/ holds what several of them share).
. "$(dirname "$0")/lib.sh"
src=${RV_SOURCE_DIR:?RV_SOURCE_DIR must name the source tree}
includes() { # includes DIR...: every quoted #include in those folders, as FILE:HEADER
    for d in "$@"; do
        [ -d "$src/$d" ] || continue
        grep -HE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$src/$d"/*.[ch] 2>/dev/null |
            sed -E 's|^'"$src"'/||; s|:[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]*)".*|:\1|'
    done
}
frontends="cli bench match proto server cmdline"
# The library: only its own headers and folders.
bad_lib=$(includes include/renversi src/core src/gomoku src/reversi src/record src/game |
    grep -E ':(cli|bench|match|proto|server|cmdline)/')
[ -z "$bad_lib" ] && ok || bad "the library includes a front end: $bad_lib"
# Each front end: the public API, its own headers, and the shared command-line helpers.
for fe in $frontends; do
    others=$(echo "$frontends" | tr ' ' '\n' | grep -vx "$fe" | grep -vx cmdline | paste -sd'|')
    found=$(includes "src/$fe" | grep -E ":($others)/")
    [ -z "$found" ] && ok || bad "src/$fe includes another front end's header: $found"
done
# The shared helpers themselves lean on no front end.
found=$(includes src/cmdline | grep -E ':(cli|bench|match|proto|server)/')
[ -z "$found" ] && ok || bad "src/cmdline includes a front end: $found"
finish
