#!/usr/bin/env bash
# `renversi judge --game reversi`: replays, results, illegal moves, bad input.
. "$(dirname "$0")/lib.sh"
R=$RENVERSI
J() { "$R" judge --game reversi "$@"; }

expect_stdout "white to move" J f5
expect_stdout "black to move" J f5d6
expect_stdout "black to move" J F5 d6-c3,D3
expect_stdout "black to move" J f5 d6
expect_stdout "black to move" "$R" judge --game=othello f5d6
expect_stdout "black to move" J -- f5 d6
expect_stdout "white to move" J f5 --board "---------------------------OX------XO--------------------------- X"
# The shortest possible game: 9 moves, black wipes white out 13-0 (a
# published fact); empties go to the winner: 64-0.
expect_stdout "black wins 64-0" J d3c3b3d2e1d6d7e3f4
expect_exit 0 J d3c3b3d2e1d6d7e3f4
expect_stderr_has "illegal move 10 (a1): after the end" J d3c3b3d2e1d6d7e3f4a1
# From a board: one empty square a1, black (b1) cannot move, white can:
# the pass is implied, white takes a1 and wins 63-1.
board="-XOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X"
expect_stdout "white to move" J --board "$board"
expect_stdout "white wins 64-0" J --board "$board" a1
expect_stdout "white wins 64-0" J --board "$board" pa a1
expect_stderr_has "illegal move 1 (b2): occupied" J --board "$board" b2
expect_stderr_has "illegal move 2 (a1): after the end" J --board "$board" a1 a1
# Rows 1-4 black, rows 5-8 white but h8 empty; black's h8 flips h5 h6 h7
# (column up to h4) and g7 f6 e5 (diagonal up to d4): 39-25 by hand.
last="XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO- X"
# A full board 32-32 is a draw.
full="XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO O"
expect_stdout "draw 32-32" J --board "$full"
expect_stdout "black wins 39-25" J --board "$last" h8

expect_exit 2 J f5f5
expect_stderr_has "illegal move 2 (f5): occupied" J f5f5
expect_stdout "illegal move 2 (f5): occupied" J f5f5
expect_stdout "illegal move 3 (i9): off the board" J f5d6i9
expect_stderr_has "illegal move 2 (a1): flips nothing" J f5a1
expect_stderr_has "illegal move 2 (pa): a pass while a move exists" J f5pa
expect_stderr_has "illegal move 3 (i9): off the board" J f5d6i9
expect_stderr_has "illegal move 3 (a10): off the board" J f5d6a10
expect_stderr_has "bad transcript: offset 4: bad square" J f5d6%%
expect_exit 2 J
expect_exit 2 J --size 15 f5
expect_exit 2 J --rule renju f5
expect_exit 2 J --bogus f5
expect_exit 0 J --help
expect_stdout_has "usage: renversi judge --game reversi" J --help
big=$(head -c 100000 /dev/zero | tr '\0' 'f')
expect_exit 2 J "$big"
long=$(yes f5d6 | head -c 100000 | tr -d '\n')
expect_stderr_has "illegal move 3 (f5): occupied" J "$long"
expect_stderr_has "illegal move 2 (f5): occupied" J f5f5zz
expect_stderr_has "illegal move 10 (d3): after the end" J d3c3b3d2e1d6d7e3f4 $(yes d3 | head -290)
finish
