/* Helpers shared by every subcommand: errors, --help, numbers, input, output (cmdline.h). */
#include "cmdline/cmdline.h"

#include "renversi/core.h"

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

int rv_cli_read_line(const char *cmd, const char *name, FILE *f, char **buf, size_t *cap,
                     size_t *len, long *lineno) {
    size_t n = 0;
    errno = 0;
    rv_status st = rv_line_read(f, RV_CLI_MAX_LINE, buf, cap, &n);
    if (st == RV_EEMPTY) return 0;
    ++*lineno;
    if (strcmp(name, "-") == 0) name = "standard input";
    if (st == RV_ETOOLONG) {
        rv_cli_fail(cmd, "%s line %ld: longer than %zu bytes", name, *lineno, RV_CLI_MAX_LINE);
        return -1;
    }
    if (st == RV_EIO) {
        rv_cli_fail(cmd, "cannot read %s: %s", name, errno ? strerror(errno) : "read error");
        return -1;
    }
    if (st != RV_OK) {
        rv_cli_fail(cmd, "%s line %ld: %s", name, *lineno, rv_strerror(st));
        return -1;
    }
    if (len) *len = n;
    return 1;
}

FILE *rv_cli_open(const char *path) {
    if (strcmp(path, "-") == 0) return stdin;
    return fopen(path, "r");
}

int rv_cli_finish(const char *cmd, int rc) {
    errno = 0;
    int lost = ferror(stdout) != 0;
    if (fflush(stdout) != 0) lost = 1;
    int why = errno;
    /* A stdout closed before the start (EBADF) with nothing left to write lost nothing. */
    if (fclose(stdout) != 0 && errno != EBADF) lost = 1, why = errno;
    if (!lost) return rc;
    fprintf(stderr, "renversi %s: write error: %s\n", cmd,
            why ? strerror(why) : "output lost");
    return rc ? rc : RV_EXIT_WRITE;
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

int rv_cli_parse_count(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    if (s == NULL || *s == '\0') return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* A number in [lo, hi] with nothing after it; 0 on success. */
static int parse_num(const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi)) return -1;
    *out = v;
    return 0;
}

int rv_cli_options(const char *who, int argc, char **argv, const rv_cli_opt *opts, int *npos) {
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return RV_CLI_HELP;
        if (strncmp(a, "--", 2) != 0) {
            argv[n++] = argv[i]; /* n <= i: the words not yet read are untouched */
            continue;
        }
        const rv_cli_opt *o = opts;
        while (o->name && strcmp(o->name, a)) o++;
        if (!o->name) {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", who, a);
            return RV_EXIT_BAD;
        }
        if (o->kind == RV_CLI_FLAG) {
            *(int *)o->out = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", who, a);
            return RV_EXIT_BAD;
        }
        const char *v = argv[++i];
        long l;
        double d;
        if (o->kind == RV_CLI_STR) {
            *(const char **)o->out = v;
        } else if (o->kind == RV_CLI_INT && !rv_cli_parse_int(v, (long)o->lo, (long)o->hi, &l)) {
            *(long *)o->out = l;
        } else if (o->kind == RV_CLI_NUM && !parse_num(v, o->lo, o->hi, &d)) {
            *(double *)o->out = d;
        } else {
            fprintf(stderr, "%s: %s expects %.15g..%.15g (not '%s')\n", who, a, o->lo, o->hi, v);
            return RV_EXIT_BAD;
        }
    }
    *npos = n;
    return 0;
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
    long lineno = 0;
    int got = 0;
    while (rc == 0 && (got = rv_cli_read_line(cmd, file, f, &line, &cap, NULL, &lineno)) > 0)
        if (!rv_cli_skip_line(line)) rc = fn(ctx, line, ++index);
    if (rc == 0 && got < 0) rc = RV_EXIT_BAD;
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
