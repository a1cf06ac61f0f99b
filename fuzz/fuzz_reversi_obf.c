/* libFuzzer target: the OBF reader. No crash on any input; a line that
 * reads writes back to a line that reads to the same position and scores. */
#include <stdlib.h>
#include <string.h>

#include "renversi/reversi_record.h"

/* Field by field: the struct's padding is not part of the position. */
static int same_pos(const rv_reversi_pos *a, const rv_reversi_pos *b) {
    return a->player == b->player && a->opponent == b->opponent && a->side == b->side;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rv_reversi_obf o, o2;
    rv_reversi_error err;
    for (int with_moves = 0; with_moves <= 1; with_moves++) {
        if (rv_reversi_obf_parse((const char *)data, size, with_moves, &o, &err) != RV_OK) {
            if (strlen(err.message) == 0 || err.offset < 0 || (size_t)err.offset > size) abort();
            continue;
        }
        char buf[1024];
        size_t len = rv_reversi_obf_format(&o, buf, sizeof buf);
        if (len >= sizeof buf) abort();
        if (rv_reversi_obf_parse(buf, len, 1, &o2, &err) != RV_OK) abort();
        if (!same_pos(&o.pos, &o2.pos) || o.nscores != o2.nscores ||
            memcmp(o.moves, o2.moves, (size_t)o.nscores) != 0 ||
            memcmp(o.scores, o2.scores, (size_t)o.nscores) != 0)
            abort();
        (void)rv_reversi_perft(&o.pos, 2, with_moves);
    }
    return 0;
}
