/* `renversi`: one program, git-style subcommands (contract: shared/DESIGN.md). */
#include "cli/cli.h"

#include <string.h>

#include "renversi/common.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

#ifndef RV_WITH_SERVER
/* Configured with -DRV_SERVER=OFF: src/server/ (and its `serve`) is not built. */
static int serve_missing(int argc, char **argv) {
    (void)argc, (void)argv;
    return rv_cli_fail("serve", "this build has no server (configured with -DRV_SERVER=OFF)");
}
#endif

static const struct command commands[] = {
    {"play", rv_cmd_play, "play in the terminal (gomoku, renju or reversi)"},
#ifdef RV_WITH_SERVER
    {"serve", rv_cmd_serve, "serve the browser game and online rooms"},
#else
    {"serve", serve_missing, "serve the browser game and online rooms"},
#endif
    {"gomocup", rv_cmd_gomocup, "Gomocup (pbrain) engine on stdin/stdout"},
    {"nboard", rv_cmd_nboard, "NBoard engine on stdin/stdout"},
    {"forbidden", rv_cmd_forbidden, "Renju forbidden points for black in a position"},
    {"judge", rv_cmd_judge, "replay a game record and say who won or what is illegal"},
    {"vcf", rv_cmd_vcf, "find a winning continuous-four sequence (Gomoku/Renju)"},
    {"perft", rv_cmd_perft, "count the Reversi game tree to a depth"},
    {"solve", rv_cmd_solve, "solve Reversi endgames exactly (OBF input)"},
    {"analyse", rv_cmd_analyse, "evaluate every move of a Reversi game"},
    {"match", rv_cmd_match, "play engines against each other"},
    {"bench", rv_cmd_bench, "measure speed: forbidden, perft, solve, search"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
    fprintf(out,
            "usage: renversi COMMAND [OPTIONS] [ARGS]\n"
            "\n"
            "Gomoku/Renju and Reversi/Othello: exact rules, engines, records and games.\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "`renversi COMMAND --help` describes one command.\n"
            "Invoked as pbrain-renversi, the program runs `renversi gomocup`.\n");
}

int main(int argc, char **argv) {
    const char *self = strrchr(argv[0], '/');
    self = self ? self + 1 : argv[0];
    if (strncmp(self, "pbrain-", 7) == 0) return rv_cli_finish("gomocup", rv_cmd_gomocup(argc, argv));

    if (argc < 2) {
        usage(stderr);
        return RV_EXIT_BAD;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        if (strcmp(name, "help") == 0 && argc > 2) {
            for (size_t i = 0; i < NCOMMANDS; i++)
                if (strcmp(argv[2], commands[i].name) == 0) {
                    char *args[] = {argv[2], "--help", NULL};
                    return rv_cli_finish(argv[2], commands[i].run(2, args));
                }
            return rv_cli_fail("help", "unknown command '%s'", argv[2]);
        }
        usage(stdout);
        return rv_cli_finish("help", RV_EXIT_OK);
    }
    if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
        printf("renversi %s\n", rv_version());
        return rv_cli_finish("version", RV_EXIT_OK);
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return rv_cli_finish(name, commands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "renversi: unknown command '%s' (try `renversi --help`)\n", name);
    return RV_EXIT_BAD;
}
