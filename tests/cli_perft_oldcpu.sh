#!/usr/bin/env bash
# The default build must run on any x86-64: under qemu-user emulating CPUs
# without AVX (Nehalem) and with AVX2 but no AVX-512 (Haswell), `renversi
# perft` picks the plain / AVX2 path, never dies with SIGILL, and counts right.
# Needs qemu-x86_64 (Debian package qemu-user); skipped without it, on other
# architectures and in the sanitizer build (ASan does not run under qemu-user).
. "$(dirname "$0")/lib.sh"
R=$RENVERSI
if [ "$(uname -m)" != x86_64 ] || ! command -v qemu-x86_64 >/dev/null || [ -n "${RV_SANITIZED:-}" ]; then
    echo "skipped: needs x86-64, qemu-x86_64 and a non-sanitized build"
    finish
fi
want="1 4 2 12 3 56 4 244 5 1396 6 8200 7 55092 "
for cpu in Nehalem Haswell; do
    got=$(qemu-x86_64 -cpu $cpu "$R" perft 7 2>/dev/null | awk '{print $1" "$2}' | tr '\n' ' ')
    [ "$got" = "$want" ] && ok || bad "qemu -cpu $cpu perft 7: '$got'"
done
path=$(qemu-x86_64 -cpu Nehalem "$R" bench perft --quick 2>&1 >/dev/null | grep '^code path')
[ "$path" = "code path: plain (best on this CPU: plain)" ] && ok || bad "Nehalem: $path"
path=$(qemu-x86_64 -cpu Haswell "$R" bench perft --quick 2>&1 >/dev/null | grep '^code path')
[ "$path" = "code path: avx2 (best on this CPU: avx2)" ] && ok || bad "Haswell: $path"
# Asking for a path the CPU lacks is refused, not attempted.
expect_exit 2 qemu-x86_64 -cpu Nehalem "$R" perft 3 --simd avx2
finish
