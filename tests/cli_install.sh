#!/usr/bin/env bash
# `cmake --install` puts the headers, both libraries, the pkg-config file, the
# program and its pbrain- alias under a prefix, and a program builds against them.
. "$(dirname "$0")/lib.sh"
: "${RV_BUILD_DIR:?}"
prefix="$tmp/prefix"
expect_exit 0 cmake --install "$RV_BUILD_DIR" --prefix "$prefix"
for f in include/renversi/renversi.h include/renversi/gomoku.h lib/librenversi.a \
         lib/pkgconfig/renversi.pc bin/renversi bin/pbrain-renversi; do
    if [ -e "$prefix/$f" ]; then ok; else bad "not installed: $f"; fi
done
so=$(ls "$prefix"/lib/librenversi.so* 2>/dev/null | head -1)
if [ -n "$so" ]; then ok; else bad "no shared library installed"; fi

cat > "$tmp/app.c" <<'C'
#include <renversi/renversi.h>
#include <stdio.h>
int main(void) {
    rv_reversi_pos p; rv_reversi_init(&p);
    printf("%s|%s|%d\n", rv_version(), rv_strerror(RV_EOCCUPIED), rv_reversi_count(&p, RV_BLACK));
    return 0;
}
C
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs renversi)
# Sanitizer builds need the same flags at link time; the shared library is what we test here.
if ${CC:-cc} "$tmp/app.c" -o "$tmp/app" $flags $( [ -n "${RV_SANITIZED:-}" ] && echo -fsanitize=address,undefined ); then ok; else bad "does not compile against the installed library"; fi
expect_stdout "0.1.0|occupied|2" env LD_LIBRARY_PATH="$prefix/lib" "$tmp/app"
finish
