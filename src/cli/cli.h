/*
 * Internal helpers of the command-line front end (src/cli/) on top of the ones
 * every subcommand shares (cmdline/cmdline.h). Not public API.
 */
#ifndef RV_CLI_H
#define RV_CLI_H

#include "cmdline/cmdline.h"

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

#endif
