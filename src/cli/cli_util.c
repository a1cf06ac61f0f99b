/* Helpers of the command-line front end: input files of positions, machine description. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rv_cli_each_line(const char *cmd, const char *file, const char *const *builtin, size_t n,
                     int (*fn)(void *ctx, const char *line, int index), void *ctx) {
    int rc = 0, index = 0;
    if (!file) {
        for (size_t i = 0; rc == 0 && i < n; i++) rc = fn(ctx, builtin[i], ++index);
        return rc;
    }
    FILE *f = rv_cli_open(file);
    if (!f) return rv_cli_fail(cmd, "cannot open '%s'", file);
    char *line = NULL;
    size_t cap = 0;
    while (rc == 0 && rv_cli_getline(&line, &cap, f) >= 0)
        if (!rv_cli_skip_line(line)) rc = fn(ctx, line, ++index);
    free(line);
    if (f != stdin) fclose(f);
    if (rc == 0 && index == 0) rc = rv_cli_fail(cmd, "no positions in '%s'", file);
    return rc;
}

void rv_cli_describe_machine(void) {
    char model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *p = strchr(line, ':');
                if (p) {
                    p++;
                    while (isspace((unsigned char)*p)) p++;
                    p[strcspn(p, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        }
        fclose(f);
    }
    long cores = 0;
#ifdef _SC_NPROCESSORS_ONLN
    cores = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    fprintf(stderr, "machine: %s, %ld cores, compiler %s\n", model, cores,
#ifdef __clang__
            "clang " __clang_version__
#elif defined(__GNUC__)
            "gcc " __VERSION__
#else
            "unknown"
#endif
    );
}
