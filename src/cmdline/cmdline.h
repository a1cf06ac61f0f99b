/*
 * Helpers shared by every `renversi` subcommand, whichever front end it belongs
 * to (src/cli/, src/bench/, src/proto/, src/match/): exit codes, one-line errors,
 * --help, numbers, input files and lines, checked output, the machine description,
 * and the entry point of each subcommand. Beside it: gomoku_cli.h (move lists with
 * messages) and solve_run.h (OBF files solved). Not public API.
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
#define RV_EXIT_WRITE 1 /* the output could not be written (disk full, closed pipe or stdout) */
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

/* The longest input line any command reads (1 MB): a longer one is refused, not read. */
#define RV_CLI_MAX_LINE ((size_t)1 << 20)

/*
 * Reads the next line of input NAME (a path or "-", for messages) with the library's
 * bounded reader (rv_line_read, at most RV_CLI_MAX_LINE bytes) into *buf, without the
 * "\n" or "\r\n"; its length goes to *len (may be NULL) and *lineno counts the lines.
 * Returns 1 for a line, 0 at the end of input, or -1 after printing a one-line error:
 * "renversi CMD: NAME line N: longer than 1048576 bytes" or "... cannot read NAME: ERR".
 */
int rv_cli_read_line(const char *cmd, const char *name, FILE *f, char **buf, size_t *cap,
                     size_t *len, long *lineno);

/* Opens PATH for reading, "-" meaning stdin. NULL (errno set) on failure. */
FILE *rv_cli_open(const char *path);

/*
 * Ends a command's output: flushes and closes stdout. When anything written to it was
 * lost (a full disk, a closed stdout), prints "renversi CMD: write error: REASON" and
 * returns rc, or RV_EXIT_WRITE when rc was 0; otherwise returns rc. Called once, by main.
 */
int rv_cli_finish(const char *cmd, int rc);

/*
 * Calls fn(ctx, line, index) for each line of FILE (rv_cli_open; skipped
 * lines left out; index from 1) or, when file is NULL, for builtin[0..n);
 * stops at the first non-zero return and returns it.  A file that cannot be
 * opened or holds no line fails (message naming cmd, exit status 2).
 */
int rv_cli_each_line(const char *cmd, const char *file, const char *const *builtin, size_t n,
                     int (*fn)(void *ctx, const char *line, int index), void *ctx);

/* Prints the machine description (CPU model, cores, compiler) on stderr. */
void rv_cli_describe_machine(void);

/* Parses a decimal integer in [lo, hi]; returns 0 on success. */
int rv_cli_parse_int(const char *s, long lo, long hi, long *out);

/* Parses a decimal count in [lo, hi] (64 bits on every platform); returns 0 on success. */
int rv_cli_parse_count(const char *s, long long lo, long long hi, long long *out);

/* One option of a command line: "--name VALUE" or, for a flag, "--name". */
typedef enum rv_cli_opt_kind {
    RV_CLI_INT,                /* a decimal integer in [lo, hi] into *(long *)out */
    RV_CLI_NUM,                /* a number in [lo, hi] into *(double *)out */
    RV_CLI_STR,                /* the word itself into *(const char **)out */
    RV_CLI_FLAG                /* no value: *(int *)out = 1 */
} rv_cli_opt_kind;

typedef struct rv_cli_opt {
    const char *name;          /* "--depth"; a NULL name ends the table */
    rv_cli_opt_kind kind;
    void *out;
    double lo, hi;
} rv_cli_opt;

/* rv_cli_options' answer when -h or --help was given (the caller prints its help). */
#define RV_CLI_HELP (-1)

/*
 * Reads argv[0..argc) against the options in opts. The other words (not starting with
 * "--", or "-" alone) are moved, in order, to argv[0..*npos). Returns 0, RV_CLI_HELP, or
 * RV_EXIT_BAD after printing "WHO: --depth expects 1..60 (not 'x')", "WHO: --out needs a
 * value" or "WHO: unknown option '--x' (try --help)" on stderr. Outputs of options not
 * given are left as they were.
 */
int rv_cli_options(const char *who, int argc, char **argv, const rv_cli_opt *opts, int *npos);

#endif
