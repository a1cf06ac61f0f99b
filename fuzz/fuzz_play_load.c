/*
 * libFuzzer target: loading a game record into an rv_game (src/game/:
 * move lists and PSQ for Gomoku, transcripts and GGF for Reversi), then exporting it
 * again in every format. The first byte picks the game.
 */
#include <stdlib.h>
#include <string.h>

#include "renversi/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 1 << 16) return 0;
    static const char *const variants[] = {"renju", "freestyle", "standard", "reversi"};
    rv_game *g = malloc(sizeof *g);
    char err[200];
    if (rv_game_init(g, variants[data[0] % 4], data[0] % 4 == 3 ? 8 : 5 + data[0] % 22, err, sizeof err)) {
        free(g);
        return 0;
    }
    /* The record is not NUL-terminated: the reader must keep to its length. */
    char *text = malloc(size - 1 ? size - 1 : 1);
    memcpy(text, data + 1, size - 1);
    if (rv_game_load(g, text, size - 1, err, sizeof err) == RV_OK) {
        const char *formats[] = {"moves", "psq", "ggf", "transcript"};
        for (int i = 0; i < 4; i++) {
            char *out = NULL;
            if (rv_game_export(g, formats[i], &out) == RV_OK) free(out);
        }
        uint8_t marks[RV_GOMOKU_MAX_POINTS];
        rv_game_marks(g, marks);
        char res[200];
        rv_game_result_text(g, res, sizeof res);
    }
    free(text);
    free(g);
    return 0;
}
