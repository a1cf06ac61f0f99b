/* Placeholder until this command lands; replaced by its module's owner. */
#include "cli/cli.h"

int rv_cmd_judge_gomoku(int argc, char **argv) {
    (void)argc;
    return rv_cli_fail(argv[0], "not implemented yet");
}
