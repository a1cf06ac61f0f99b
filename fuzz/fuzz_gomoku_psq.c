/*
 * libFuzzer target: the PSQ reader. Any bytes: no crash; a record that reads
 * writes back to text that reads to the same board and moves.
 */
#include "renversi/gomoku_record.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static rv_gomoku_psq psq, back;
    static char buf[RV_GOMOKU_MAX_POINTS * 40 + 64];
    rv_parse_error err;
    if (rv_gomoku_psq_read((const char *)data, size, &psq, &err) != RV_OK) {
        if (err.offset > size || err.expected == NULL) abort();
        return 0;
    }
    int len = rv_gomoku_psq_write(&psq, buf, sizeof buf);
    if (len < 0 || (size_t)len >= sizeof buf) abort();
    if (rv_gomoku_psq_read(buf, (size_t)len, &back, NULL) != RV_OK) abort();
    if (back.width != psq.width || back.height != psq.height || back.nmoves != psq.nmoves) abort();
    for (int i = 0; i < psq.nmoves; i++)
        if (back.moves[i].x != psq.moves[i].x || back.moves[i].y != psq.moves[i].y ||
            back.time_ms[i] != psq.time_ms[i])
            abort();
    return 0;
}
