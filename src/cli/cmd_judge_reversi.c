/* `renversi judge --game reversi TRANSCRIPT`: replays a Reversi game and
 * prints who is to move, the final score, or the first illegal move. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "renversi/game.h"
#include "renversi/reversi_record.h"

static const char help[] =
    "usage: renversi judge --game reversi [--board BOARD] TRANSCRIPT...\n"
    "\n"
    "Replays a Reversi/Othello game written as a transcript (\"f5d6c3d3c4\",\n"
    "either case, separators allowed, \"pa\" for a pass; passes may be left out)\n"
    "from the start position or from --board (OBF board and side). Prints one\n"
    "line:\n"
    "  black to move | white to move   (the side that can move next)\n"
    "  black wins 40-24 | white wins 33-31 | draw 32-32   (empties to the winner,\n"
    "                                                      shared in a draw)\n"
    "Exit 0 when the whole record is valid; exit 2 with\n"
    "  illegal move N (SQ): occupied | flips nothing | a pass while a move exists\n"
    "  | after the end | off the board\n"
    "or a parse error.\n";

static const char *why(rv_status st, int sq) {
    switch (st) {
    case RV_EOCCUPIED: return "occupied";
    case RV_EOVER: return "after the end";
    case RV_ETOOLONG: return "too many moves";
    default: return sq == RV_REVERSI_PASS ? "a pass while a move exists" : "flips nothing";
    }
}

/* The verdict on stdout (the line scripts read, as for Gomoku) and on stderr. */
static int illegal(const char *cmd, int n, const char *sq, const char *why) {
    printf("illegal move %d (%s): %s\n", n, sq, why);
    return rv_cli_fail(cmd, "illegal move %d (%s): %s", n, sq, why);
}

int rv_cmd_judge_reversi(int argc, char **argv) {
    const char *cmd = "judge";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    const char *board = NULL;
    size_t total = 0;
    for (int i = 1; i < argc; i++) total += strlen(argv[i]) + 1;
    char *text = malloc(total + 1);
    if (!text) return rv_cli_fail(cmd, "out of memory");
    size_t len = 0;
    int nargs = 0, options = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = 0; /* everything after "--" is the transcript */
            continue;
        }
        if (!options) {
            size_t n = strlen(a);
            memcpy(text + len, a, n);
            len += n;
            text[len++] = ' ';
            nargs++;
            continue;
        }
        if (strcmp(a, "--game") == 0 || strcmp(a, "--board") == 0 || strcmp(a, "--size") == 0 ||
            strcmp(a, "--rule") == 0) {
            if (i + 1 >= argc) {
                free(text);
                return rv_cli_fail(cmd, "%s needs a value", a);
            }
            const char *v = argv[++i];
            if (a[2] == 'b') board = v;
            else if (a[2] == 's' && strcmp(v, "8") != 0) {
                free(text);
                return rv_cli_fail(cmd, "reversi is played on 8x8 (got --size %s)", v);
            } else if (a[2] == 'r') {
                free(text);
                return rv_cli_fail(cmd, "--rule is for gomoku, not reversi");
            }
            continue;
        }
        if (strncmp(a, "--game=", 7) == 0) continue;
        if (strncmp(a, "--board=", 8) == 0) {
            board = a + 8;
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            free(text);
            return rv_cli_fail(cmd, "unknown option '%s'", a);
        }
        size_t n = strlen(a);
        memcpy(text + len, a, n);
        len += n;
        text[len++] = ' ';
        nargs++;
    }
    text[len] = '\0';

    rv_reversi_pos start;
    rv_reversi_init(&start);
    if (board) {
        rv_reversi_obf obf;
        rv_reversi_error err;
        if (rv_reversi_obf_parse(board, strlen(board), 0, &obf, &err) != RV_OK) {
            free(text);
            return rv_cli_fail(cmd, "bad --board: %s", err.message);
        }
        start = obf.pos;
    }
    /* Syntax and rules are checked in the order of the record: the text up
     * to a syntax error is replayed first, so an earlier illegal move is the
     * one reported. */
    int cap = (int)(len / 2 + 1);
    uint8_t *moves = malloc((size_t)cap);
    if (!moves) {
        free(text);
        return rv_cli_fail(cmd, "out of memory");
    }
    int n = 0;
    rv_reversi_error err;
    rv_status syntax = rv_reversi_transcript_parse(text, len, moves, cap, &n, &err);
    if (syntax != RV_OK)
        rv_reversi_transcript_parse(text, (size_t)err.offset, moves, cap, &n, NULL);

    rv_reversi_game g;
    rv_reversi_game_init(&g, &start);
    int failed = 0;
    rv_status st = rv_reversi_transcript_replay(&g, moves, n, &failed);
    if (st != RV_OK) {
        char sq[3];
        int rc = illegal(cmd, failed + 1, rv_reversi_square_format(moves[failed], 0, sq),
                         why(st, moves[failed]));
        free(moves);
        free(text);
        return rc;
    }
    free(moves);
    if (syntax != RV_OK) {
        int rc;
        const char *p = text + err.offset;
        if (isalpha((unsigned char)p[0]) && isdigit((unsigned char)p[1])) {
            size_t k = 1;
            while (isdigit((unsigned char)p[k])) k++;
            char sq[16];
            snprintf(sq, sizeof sq, "%.*s", k < 8 ? (int)k : 8, p);
            rc = illegal(cmd, n + 1, sq, "off the board");
        } else {
            rc = rv_cli_fail(cmd, "bad transcript: %s", err.message);
        }
        free(text);
        return rc;
    }
    free(text);
    if (nargs == 0 && !board) return rv_cli_fail(cmd, "missing TRANSCRIPT (try --help)");
    if (n == 0 && !board) return rv_cli_fail(cmd, "empty transcript");

    /* The verdict is the library's one result (renversi/game.h). */
    rv_game game;
    char verdict[128];
    rv_game_init_reversi(&game, &g);
    rv_game_status_text(&game, verdict, sizeof verdict);
    printf("%s\n", verdict);
    return RV_EXIT_OK;
}
