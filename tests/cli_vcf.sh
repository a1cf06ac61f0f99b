#!/usr/bin/env bash
# `renversi vcf`: hand-checked puzzles (tests/test_vcf.c re-checks the lines with the rules).
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$RENVERSI" vcf --help
expect_stdout_has "usage: renversi vcf" "$RENVERSI" vcf --help
# black's h8 i8 j8 open three, white far away: the open four g8, f8 blocked, k8 five
expect_stdout "win: g8 f8 k8" "$RENVERSI" vcf "h8 a1 i8 a2 j8 a3"
# a four on the board (g8 white): the line is the five
expect_stdout "win: l8" "$RENVERSI" vcf "h8 g8 i8 a2 j8 a3 k8 o15"
# the double four h8 (rows e8-g8 / h9-h11, both capped by white) wins in freestyle,
# and is forbidden in Renju, where no VCF is left
dbl4="e8 d8 f8 h12 g8 a1 h9 o1 h10 a15 h11 o15"
expect_stdout "win: h8 i8 h7" "$RENVERSI" vcf "$dbl4"
expect_stdout "none" "$RENVERSI" vcf --rule renju "$dbl4"
# an overline wins only in freestyle
expect_stdout "win: h8" "$RENVERSI" vcf --rule freestyle "e8 a1 f8 o1 g8 a15 i8 o15 j8 h15"
expect_stdout "none" "$RENVERSI" vcf --rule standard "e8 a1 f8 o1 g8 a15 i8 o15 j8 h15"
# Renju: white's four d4-g7 has one completion, h8, a double three for black
expect_stdout "win: d4" "$RENVERSI" vcf --rule renju "g8 e5 i8 f6 h7 g7 h9 a15 c3 o15 i9"
expect_stdout "none" "$RENVERSI" vcf --rule freestyle "g8 e5 i8 f6 h7 g7 h9 a15 c3 o15 i9"
# Renju: white's four e4-e7 (e3 black) has one completion, e8, an overline for black
expect_stdout "win: e7" "$RENVERSI" vcf --rule renju "b8 e4 c8 e5 d8 e6 f8 a15 g8 o15 e3"
# the moves written together, and on a smaller board
expect_stdout "win: g8 f8 k8" "$RENVERSI" vcf "h8a1i8a2j8a3"
expect_stdout "win: c3 b3 g3" "$RENVERSI" vcf --size 9 "d3 a9 e3 b9 f3 c9"
# none with a node budget too small to finish
expect_stdout "none" "$RENVERSI" vcf "h8"
# bad input: exit 2 with one line
expect_exit 2 "$RENVERSI" vcf
expect_exit 2 "$RENVERSI" vcf "h8 h8"
expect_stderr_has "illegal move 2 (h8): occupied" "$RENVERSI" vcf "h8 h8"
expect_exit 2 "$RENVERSI" vcf "h8 z99"
expect_exit 2 "$RENVERSI" vcf --rule nonsense "h8"
expect_exit 2 "$RENVERSI" vcf --size 40 "h8"
expect_exit 2 "$RENVERSI" vcf "h8 a1 i8 a2 j8 a3 k8 a4 l8"
expect_stderr_has "already over" "$RENVERSI" vcf "h8 a1 i8 a2 j8 a3 k8 a4 l8"
finish
