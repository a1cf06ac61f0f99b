/*
 * Helpers shared by every `renversi` subcommand, whichever front end it belongs
 * to (src/cli/, src/proto/): exit codes, one-line errors, --help, numbers,
 * input files and lines, and the entry point of each subcommand. Not public API.
 *
 * Contract (shared/DESIGN.md): machine-readable output on stdout, diagnostics
 * on stderr, exit 0 on success and 2 on bad input with a one-line message.
 */
#ifndef RV_CMDLINE_H
#define RV_CMDLINE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define RV_EXIT_OK 0
#define RV_EXIT_BAD 2

/* Every subcommand: argv[0] is the subcommand's name. Returns the exit code. */
int rv_cmd_play(int argc, char **argv);
int rv_cmd_serve(int argc, char **argv);
int rv_cmd_gomocup(int argc, char **argv);
int rv_cmd_nboard(int argc, char **argv);
int rv_cmd_forbidden(int argc, char **argv);
int rv_cmd_judge(int argc, char **argv);
int rv_cmd_judge_gomoku(int argc, char **argv);
int rv_cmd_judge_reversi(int argc, char **argv);
int rv_cmd_perft(int argc, char **argv);
int rv_cmd_solve(int argc, char **argv);
int rv_cmd_vcf(int argc, char **argv);
int rv_cmd_match(int argc, char **argv);
int rv_cmd_analyse(int argc, char **argv);
int rv_cmd_bench(int argc, char **argv);
int rv_bench_forbidden(int argc, char **argv);
int rv_bench_perft(int argc, char **argv);
int rv_bench_solve(int argc, char **argv);
int rv_bench_search(int argc, char **argv);
int rv_bench_midgame(int argc, char **argv);

/* Prints "renversi CMD: MESSAGE" on stderr and returns RV_EXIT_BAD. */
int rv_cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* True when argv[i] is -h or --help. */
int rv_cli_wants_help(int argc, char **argv);

/* True for lines an input file skips: blank, or starting with '#' or '%'. */
int rv_cli_skip_line(const char *line);

/*
 * Reads one line (any length) into *buf (grown with realloc), without the
 * trailing "\n" or "\r\n". Returns the length, or -1 at end of file.
 */
long rv_cli_getline(char **buf, size_t *cap, FILE *f);

/* Opens PATH for reading, "-" meaning stdin. NULL (errno set) on failure. */
FILE *rv_cli_open(const char *path);

/* Parses a decimal integer in [lo, hi]; returns 0 on success. */
int rv_cli_parse_int(const char *s, long lo, long hi, long *out);

#endif
