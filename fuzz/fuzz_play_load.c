/*
 * libFuzzer target: loading a game record into the terminal game (cli/tui_game.c:
 * move lists and PSQ for Gomoku, transcripts and GGF for Reversi), then exporting it
 * again in every format. The first byte picks the game.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/tui_game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 1 << 16) return 0;
    static const char *const variants[] = {"renju", "freestyle", "standard", "reversi"};
    pg_game *g = malloc(sizeof *g);
    char err[200];
    if (pg_init(g, variants[data[0] % 4], data[0] % 4 == 3 ? 8 : 5 + data[0] % 22, err, sizeof err)) {
        free(g);
        return 0;
    }
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    if (pg_load(g, text, err, sizeof err) == RV_OK) {
        const char *formats[] = {"moves", "psq", "ggf", "transcript"};
        for (int i = 0; i < 4; i++) free(pg_export(g, formats[i]));
        uint8_t marks[RV_GOMOKU_MAX_POINTS];
        pg_marks(g, marks);
        char res[200];
        pg_result_text(g, res, sizeof res);
    }
    free(text);
    free(g);
    return 0;
}
