/* Reversi squares: "a1".."h8" with a1 top-left and rows counted downwards,
 * "pa" for a pass (docs/formats.md). The one place this conversion lives. */
#include <stdarg.h>
#include <stdio.h>

#include "record/reversi_util.h"

rv_status rv_reversi_square_parse(const char *s, size_t len, int *sq) {
    if (s == NULL || len < 2) return RV_EINVAL;
    char c = s[0], r = s[1];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if ((c == 'p') && (r == 'a' || r == 'A')) {
        *sq = RV_REVERSI_PASS;
        return RV_OK;
    }
    if (c < 'a' || c > 'h' || r < '1' || r > '8') return RV_EINVAL;
    *sq = (r - '1') * 8 + (c - 'a');
    return RV_OK;
}

const char *rv_reversi_square_format(int sq, int upper, char out[3]) {
    if (sq == RV_REVERSI_PASS) {
        out[0] = upper ? 'P' : 'p';
        out[1] = upper ? 'A' : 'a';
    } else if (sq >= 0 && sq < 64) {
        out[0] = (char)((upper ? 'A' : 'a') + sq % 8);
        out[1] = (char)('1' + sq / 8);
    } else {
        out[0] = out[1] = '?';
    }
    out[2] = '\0';
    return out;
}

rv_status rv_reversi_fail_at(rv_reversi_error *err, const char *text, size_t len, size_t off,
                             const char *expected, const char *fmt, ...) {
    if (err == NULL) return RV_EINVAL;
    /* The library-wide form (common.h): the token runs to the next blank or
     * delimiter, printable bytes only. */
    size_t t = 0;
    err->parse.offset = off;
    err->parse.expected = expected;
    while (off + t < len && t < sizeof err->parse.token - 1) {
        unsigned char c = (unsigned char)text[off + t];
        if (c <= ' ' || c >= 127 || (t > 0 && (c == ';' || c == ']' || c == '[' || c == ',')))
            break;
        err->parse.token[t++] = (char)c;
    }
    err->parse.token[t] = '\0';
    long line = 1;
    int multiline = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') {
            if (i < off) line++;
            if (i + 1 < len) multiline = 1;
        }
    err->offset = (long)off;
    err->line = line;
    int k = multiline ? snprintf(err->message, sizeof err->message, "line %ld, offset %zu: ",
                                 line, off)
                      : snprintf(err->message, sizeof err->message, "offset %zu: ", off);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + k, sizeof err->message - (size_t)k, fmt, ap);
    va_end(ap);
    return RV_EINVAL;
}

const char *rv_reversi_quote(const char *s, size_t avail, char out[12]) {
    size_t n = avail < 8 ? avail : 8, k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || c == '\r') break;
        out[k++] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    if (k == 0 && avail == 0) {
        snprintf(out, 12, "<end>");
        return out;
    }
    out[k] = '\0';
    return out;
}
