/* libFuzzer target: the Reversi transcript reader and replay. Whatever the
 * input, no crash; a valid transcript that replays writes back and reads
 * back to the same moves. */
#include <stdlib.h>
#include <string.h>

#include "renversi/reversi_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t moves[RV_REVERSI_MAX_PLIES];
    int n = 0;
    rv_reversi_error err;
    if (rv_reversi_transcript_parse((const char *)data, size, moves, RV_REVERSI_MAX_PLIES, &n,
                                    &err) != RV_OK) {
        if (strlen(err.message) == 0 || err.offset < 0 || (size_t)err.offset > size) abort();
        return 0;
    }
    rv_reversi_game g;
    rv_reversi_game_init(&g, NULL);
    int failed = -1;
    if (rv_reversi_transcript_replay(&g, moves, n, &failed) != RV_OK) {
        if (failed < 0 || failed >= n) abort();
        return 0;
    }
    char text[2 * RV_REVERSI_MAX_PLIES + 1];
    size_t len = rv_reversi_transcript_format(g.moves, g.nplies, 1, text, sizeof text);
    if (len >= sizeof text) abort();
    uint8_t again[RV_REVERSI_MAX_PLIES];
    int m = 0;
    if (rv_reversi_transcript_parse(text, len, again, RV_REVERSI_MAX_PLIES, &m, &err) != RV_OK)
        abort();
    if (m != g.nplies || memcmp(again, g.moves, (size_t)m) != 0) abort();
    return 0;
}
