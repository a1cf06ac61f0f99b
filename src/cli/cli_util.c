/* Helpers shared by the subcommands: errors, line input, machine description. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int rv_cli_parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    if (s == NULL || *s == '\0') return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return -1;
    *out = v;
    return 0;
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
