/* libFuzzer target: the GGF reader. No crash on any input; every game read
 * from the input (several may follow each other) writes back to a GGF text
 * that reads to the same moves. */
#include <stdlib.h>
#include <string.h>

#include "renversi/reversi_record.h"

/* Field by field: the struct's padding is not part of the position. */
static int same_pos(const rv_reversi_pos *a, const rv_reversi_pos *b) {
    return a->player == b->player && a->opponent == b->opponent && a->side == b->side;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static rv_reversi_ggf g, g2; /* large: off the stack (fuzzer is single-threaded) */
    rv_reversi_error err;
    size_t at = 0;
    while (at < size) {
        size_t used = 0;
        if (rv_reversi_ggf_parse((const char *)data + at, size - at, &g, &used, &err) != RV_OK) {
            if (strlen(err.message) == 0 || err.offset < 0 || (size_t)err.offset > size - at)
                abort();
            break;
        }
        if (used == 0 || used > size - at) abort();
        at += used;
        static char buf[16384];
        size_t len = rv_reversi_ggf_format(&g, buf, sizeof buf);
        if (len >= sizeof buf) abort();
        if (rv_reversi_ggf_parse(buf, len, &g2, NULL, &err) != RV_OK) abort();
        if (g2.nmoves != g.nmoves || strcmp(g2.pb, g.pb) != 0 || strcmp(g2.pw, g.pw) != 0 ||
            !same_pos(&g2.start, &g.start))
            abort();
        for (int i = 0; i < g.nmoves; i++)
            if (g2.moves[i].sq != g.moves[i].sq) abort();
        rv_reversi_game game;
        if (rv_reversi_ggf_game(&g, &game) != RV_OK) abort();
    }
    return 0;
}
