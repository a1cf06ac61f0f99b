/* `renversi judge`: picks the game (--game gomoku|reversi) and hands over. */
#include "cli/cli.h"

#include <string.h>

int rv_cmd_judge(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *game = NULL;
        if (strcmp(argv[i], "--game") == 0 && i + 1 < argc) game = argv[i + 1];
        else if (strncmp(argv[i], "--game=", 7) == 0) game = argv[i] + 7;
        if (game == NULL) continue;
        if (strcmp(game, "reversi") == 0 || strcmp(game, "othello") == 0)
            return rv_cmd_judge_reversi(argc, argv);
        if (strcmp(game, "gomoku") == 0 || strcmp(game, "renju") == 0)
            return rv_cmd_judge_gomoku(argc, argv);
        return rv_cli_fail("judge", "unknown game '%s' (expected gomoku or reversi)", game);
    }
    return rv_cmd_judge_gomoku(argc, argv);
}
