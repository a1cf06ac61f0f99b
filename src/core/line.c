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

/*
 * The one reader behind rv_line_read (cr NULL: only LF ends a line, a CR before it is
 * dropped) and rv_line_read_cr (*cr the caller's state: CR, LF and CR LF end a line).
 */
static rv_status read_line(FILE *f, size_t max, int *cr, char **buf, size_t *cap, size_t *len) {
    size_t n = 0;
    int c;
    int swallow = cr && *cr; /* the last line ended with CR: an LF now is the rest of it */
    if (cr) *cr = 0;
    /* The buffer grows by doubling but never past max + 1 bytes (the line and its NUL). */
    while ((c = getc(f)) != EOF) {
        if (swallow) {
            swallow = 0;
            if (c == '\n') continue;
        }
        if (c == '\n' || (cr && c == '\r')) break;
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
    if (!cr && n > 0 && (*buf)[n - 1] == '\r') n--;
    if (cr) *cr = c == '\r'; /* not peeking at the next byte: it may not have been sent yet */
    (*buf)[n] = '\0';
    *len = n;
    return RV_OK;
}

rv_status rv_line_read(FILE *f, size_t max, char **buf, size_t *cap, size_t *len) {
    return read_line(f, max, NULL, buf, cap, len);
}

rv_status rv_line_read_cr(FILE *f, size_t max, int *cr, char **buf, size_t *cap, size_t *len) {
    return read_line(f, max, cr, buf, cap, len);
}

rv_status rv_line_skip(FILE *f) {
    int c;
    while ((c = getc(f)) != EOF)
        if (c == '\n') return RV_OK;
    return ferror(f) ? RV_EIO : RV_EEMPTY;
}

rv_status rv_line_skip_cr(FILE *f, int *cr) {
    int c;
    int swallow = *cr;
    *cr = 0;
    while ((c = getc(f)) != EOF) {
        if (swallow) {
            swallow = 0;
            if (c == '\n') continue;
        }
        if (c == '\n' || c == '\r') {
            *cr = c == '\r';
            return RV_OK;
        }
    }
    return ferror(f) ? RV_EIO : RV_EEMPTY;
}
