/* Gomoku point notation: "h8" points, move lists and Gomocup "X,Y" coordinates. */
#include "renversi/gomoku_record.h"

#include <stdio.h>
#include <string.h>

static int is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\n'; }

/* Reads "letter digits" at s[0..len); returns the bytes used (0 when malformed). */
static size_t scan_point(const char *s, size_t len, int height, int *x, int *y) {
    if (len < 2 || !is_letter(s[0]) || !is_digit(s[1]) || s[1] == '0') return 0;
    size_t i = 1;
    int row = 0;
    while (i < len && is_digit(s[i])) {
        if (i == 3) return 0; /* rows have at most two digits */
        row = row * 10 + (s[i] - '0');
        i++;
    }
    char c = s[0];
    *x = c >= 'a' ? c - 'a' : c - 'A';
    *y = height - row; /* rows count from the bottom, y from the top */
    return i;
}

rv_status rv_gomoku_point_parse(const char *s, size_t len, int height, int *x, int *y) {
    int px = 0, py = 0;
    if (s == NULL || len == 0 || scan_point(s, len, height, &px, &py) != len) return RV_EINVAL;
    *x = px;
    *y = py;
    return RV_OK;
}

int rv_gomoku_point_format(int x, int y, int height, char *buf, size_t size) {
    int row = height - y;
    if (x < 0 || x > 25 || row < 1 || row > 99) return RV_ERANGE;
    int n = snprintf(buf, size, "%c%d", 'a' + x, row);
    return n < 0 || (size_t)n >= size ? RV_ERANGE : n;
}

/* Fills err for the token starting at s + off (up to the next separator). */
static void token_error(rv_parse_error *err, const char *s, size_t len, size_t off,
                        const char *expected) {
    if (err == NULL) return;
    size_t end = off;
    while (end < len && !is_sep(s[end]) && end - off < sizeof err->token - 1) end++;
    if (end == off && off < len) end++; /* never an empty token for a bad byte */
    err->offset = off;
    memcpy(err->token, s + off, end - off);
    err->token[end - off] = '\0';
    /* Keep the message one printable line whatever bytes the input held. */
    for (size_t i = 0; i < end - off; i++)
        if ((unsigned char)err->token[i] < 0x20 || (unsigned char)err->token[i] >= 0x7f)
            err->token[i] = '?';
    err->expected = expected;
}

rv_status rv_gomoku_moves_parse(const char *s, size_t len, int height, rv_gomoku_point *out,
                                int max, int *n, rv_parse_error *err) {
    int count = 0;
    size_t i = 0;
    while (i < len) {
        if (is_sep(s[i])) {
            i++;
            continue;
        }
        int x, y;
        size_t used = scan_point(s + i, len - i, height, &x, &y);
        /* A point ends at a separator, the end, or the next point's letter. */
        if (used == 0 || (i + used < len && !is_sep(s[i + used]) && !is_letter(s[i + used]))) {
            token_error(err, s, len, i, "a point like h8 (column letter, row number 1-99)");
            return RV_EINVAL;
        }
        if (count == max) {
            token_error(err, s, len, i, "fewer moves (the list is longer than the board)");
            return RV_ETOOLONG;
        }
        out[count].x = x;
        out[count].y = y;
        count++;
        i += used;
    }
    *n = count;
    return RV_OK;
}

int rv_gomoku_moves_format(const rv_gomoku_point *pts, int n, int height, char *buf, size_t size) {
    size_t total = 0;
    if (size > 0) buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char p[8];
        int k = rv_gomoku_point_format(pts[i].x, pts[i].y, height, p, sizeof p);
        if (k < 0) return RV_ERANGE;
        if (i > 0) {
            if (total + 1 < size) buf[total] = ' ', buf[total + 1] = '\0';
            total++;
        }
        for (int j = 0; j < k; j++, total++)
            if (total + 1 < size) buf[total] = p[j], buf[total + 1] = '\0';
    }
    return (int)total;
}

/* Reads a decimal number in 0..limit with optional spaces around; returns bytes or 0. */
static size_t scan_number(const char *s, size_t len, long limit, int *out, int *over) {
    size_t i = 0;
    long v = 0;
    while (i < len && s[i] == ' ') i++;
    size_t start = i;
    while (i < len && is_digit(s[i])) {
        if (v <= limit) v = v * 10 + (s[i] - '0');
        i++;
    }
    if (i == start) return 0;
    while (i < len && s[i] == ' ') i++;
    if (v > limit) *over = 1;
    *out = (int)(v > limit ? limit : v);
    return i;
}

rv_status rv_gomoku_gomocup_parse(const char *s, size_t len, int *x, int *y) {
    int a, b, over = 0;
    if (s == NULL) return RV_EINVAL;
    size_t i = scan_number(s, len, RV_GOMOKU_MAX_SIZE - 1, &a, &over);
    if (i == 0 || i >= len || s[i] != ',') return RV_EINVAL;
    i++;
    size_t j = scan_number(s + i, len - i, RV_GOMOKU_MAX_SIZE - 1, &b, &over);
    if (j == 0 || i + j != len) return RV_EINVAL;
    if (over) return RV_ERANGE;
    *x = a;
    *y = b;
    return RV_OK;
}

int rv_gomoku_gomocup_format(int x, int y, char *buf, size_t size) {
    if (x < 0 || y < 0 || x >= RV_GOMOKU_MAX_SIZE || y >= RV_GOMOKU_MAX_SIZE) return RV_ERANGE;
    int n = snprintf(buf, size, "%d,%d", x, y);
    return n < 0 || (size_t)n >= size ? RV_ERANGE : n;
}
