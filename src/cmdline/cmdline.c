/* Helpers shared by every subcommand: errors, --help, numbers, input (cmdline.h). */
#include "cmdline/cmdline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

int rv_cli_fail(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "renversi %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return RV_EXIT_BAD;
}

int rv_cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 1;
    }
    return 0;
}

int rv_cli_skip_line(const char *line) {
    while (*line == ' ' || *line == '\t' || *line == '\r') line++;
    return *line == '\0' || *line == '#' || *line == '%';
}

long rv_cli_getline(char **buf, size_t *cap, FILE *f) {
    ssize_t n = getline(buf, cap, f);
    if (n < 0) return -1;
    while (n > 0 && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r')) (*buf)[--n] = '\0';
    return (long)n;
}

FILE *rv_cli_open(const char *path) {
    if (strcmp(path, "-") == 0) return stdin;
    return fopen(path, "r");
}

int rv_cli_parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    if (s == NULL || *s == '\0') return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}
