/* A line reader with a limit (core.h): a line never costs more than the limit in memory. */
#include "renversi/core.h"

#include <stdlib.h>

/* Makes *buf exactly need bytes long when it is shorter. */
static rv_status reserve(char **buf, size_t *cap, size_t need) {
    if (*cap >= need) return RV_OK;
    char *b = realloc(*buf, need);
    if (!b) return RV_ENOMEM;
    *buf = b;
    *cap = need;
    return RV_OK;
}

rv_status rv_line_read(FILE *f, size_t max, char **buf, size_t *cap, size_t *len) {
    size_t n = 0;
    int c;
    /* The buffer grows by doubling but never past max + 1 bytes (the line and its NUL). */
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n >= max) return RV_ETOOLONG;
        if (*cap < n + 2) {
            size_t want = *cap ? *cap * 2 : 256;
            if (want > max + 1) want = max + 1;
            if (want < n + 1) want = n + 1;
            if (reserve(buf, cap, want) != RV_OK) return RV_ENOMEM;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && ferror(f)) return RV_EIO;
    if (c == EOF && n == 0) return RV_EEMPTY;
    if (reserve(buf, cap, n + 1) != RV_OK) return RV_ENOMEM;
    if (n > 0 && (*buf)[n - 1] == '\r') n--;
    (*buf)[n] = '\0';
    *len = n;
    return RV_OK;
}

rv_status rv_line_skip(FILE *f) {
    int c;
    while ((c = getc(f)) != EOF)
        if (c == '\n') return RV_OK;
    return ferror(f) ? RV_EIO : RV_EEMPTY;
}
