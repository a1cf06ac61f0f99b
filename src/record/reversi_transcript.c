/* Reversi transcripts: "f5d6c3d3c4", either case, separators allowed. */
#include <string.h>

#include "record/reversi_util.h"

static int is_separator(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' ||
           c == '-' || c == '.';
}

rv_status rv_reversi_transcript_parse(const char *text, size_t len, uint8_t *moves, int cap,
                                      int *n, rv_reversi_error *err) {
    int k = 0;
    char q[12];
    size_t i = 0;
    /* A first pass checks everything, so on failure moves[] is untouched. */
    for (int pass = 0; pass < 2; pass++) {
        k = 0;
        for (i = 0; i < len;) {
            if (is_separator(text[i])) {
                i++;
                continue;
            }
            int sq;
            /* "a10" is a square off the board, not "a1" and a stray '0'. */
            int more = len - i > 2 && text[i + 2] >= '0' && text[i + 2] <= '9';
            if (more || rv_reversi_square_parse(text + i, len - i, &sq) != RV_OK)
                return rv_reversi_fail_at(err, text, len, i,
                                          "a square a1..h8 or pa", "bad square '%s' (expected a1..h8 or pa)",
                                          rv_reversi_quote(text + i, len - i < 2 ? len - i : 2 + (size_t)more, q));
            if (k >= cap) {
                rv_reversi_fail_at(err, text, len, i, "no more moves than the caller's limit", "too many moves (more than %d)", cap);
                return RV_ETOOLONG;
            }
            if (pass == 1) moves[k] = (uint8_t)sq;
            k++;
            i += 2;
        }
    }
    *n = k;
    return RV_OK;
}

rv_status rv_reversi_transcript_replay(rv_reversi_game *g, const uint8_t *moves, int n,
                                       int *failed) {
    for (int i = 0; i < n; i++) {
        const rv_reversi_pos *p = rv_reversi_game_position(g);
        /* Transcripts usually leave passes out: insert one when the side to
         * move has no move and the game goes on (spec/othello.md). */
        if (moves[i] != RV_REVERSI_PASS && rv_reversi_must_pass(p)) {
            rv_status st = rv_reversi_game_play(g, RV_REVERSI_PASS);
            if (st != RV_OK) {
                if (failed) *failed = i;
                return st;
            }
        }
        rv_status st = rv_reversi_game_play(g, moves[i]);
        if (st != RV_OK) {
            if (failed) *failed = i;
            return st;
        }
    }
    return RV_OK;
}

size_t rv_reversi_transcript_format(const uint8_t *moves, int n, int with_passes, char *out,
                                    size_t cap) {
    size_t k = 0;
    char sq[3];
    for (int i = 0; i < n; i++) {
        if (moves[i] == RV_REVERSI_PASS && !with_passes) continue;
        rv_reversi_square_format(moves[i], 0, sq);
        for (int j = 0; j < 2; j++, k++)
            if (k + 1 < cap) out[k] = sq[j];
    }
    if (cap > 0) out[k < cap ? k : cap - 1] = '\0';
    return k;
}
