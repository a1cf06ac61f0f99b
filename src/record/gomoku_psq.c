/*
 * Piskvork PSQ game records (shared/spec/gomocup.md): a "Piskvorky WxH, ..."
 * header, one "x,y,ms" line per move counted from 1 at the top-left, then
 * engine names and a result code, which we skip.
 */
#include "renversi/gomoku_record.h"

#include <stdio.h>
#include <string.h>

/* The next line of text[*pos..len): sets *start and *end (without CR/LF), advances *pos. */
static int next_line(const char *text, size_t len, size_t *pos, size_t *start, size_t *end) {
    if (*pos >= len) return 0;
    size_t i = *pos;
    *start = i;
    while (i < len && text[i] != '\n' && text[i] != '\r') i++;
    *end = i;
    if (i < len && text[i] == '\r') i++;
    if (i < len && text[i] == '\n' && (i == *end || text[i - 1] == '\r')) i++;
    *pos = i;
    return 1;
}

/* Reads an optionally signed decimal at s[*i]; 0 when there is none or it is huge. */
static int read_int(const char *s, size_t end, size_t *i, long *out) {
    size_t k = *i;
    int neg = 0;
    if (k < end && (s[k] == '-' || s[k] == '+')) neg = s[k++] == '-';
    size_t start = k;
    long v = 0;
    while (k < end && s[k] >= '0' && s[k] <= '9') {
        if (v > 100000000L) return 0;
        v = v * 10 + (s[k++] - '0');
    }
    if (k == start) return 0;
    *out = neg ? -v : v;
    *i = k;
    return 1;
}

static void fail(rv_parse_error *err, const char *text, size_t start, size_t end,
                 const char *expected) {
    if (err == NULL) return;
    size_t n = end - start;
    if (n > sizeof err->token - 1) n = sizeof err->token - 1;
    err->offset = start;
    memcpy(err->token, text + start, n);
    err->token[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)err->token[i] < 0x20 || (unsigned char)err->token[i] >= 0x7f)
            err->token[i] = '?';
    err->expected = expected;
}

rv_status rv_gomoku_psq_read(const char *text, size_t len, rv_gomoku_psq *out,
                             rv_parse_error *err) {
    static const char magic[] = "Piskvorky ";
    size_t pos = 0, start, end;
    if (text == NULL || !next_line(text, len, &pos, &start, &end)) {
        fail(err, "", 0, 0, "a header line \"Piskvorky WxH, ...\"");
        return RV_EINVAL;
    }
    size_t i = start + sizeof magic - 1;
    long w, h;
    if (end - start < sizeof magic - 1 || memcmp(text + start, magic, sizeof magic - 1) != 0 ||
        !read_int(text, end, &i, &w) || i >= end || text[i++] != 'x' ||
        !read_int(text, end, &i, &h)) {
        fail(err, text, start, end, "a header line \"Piskvorky WxH, ...\"");
        return RV_EINVAL;
    }
    if (w < RV_GOMOKU_MIN_SIZE || w > RV_GOMOKU_MAX_SIZE || h < RV_GOMOKU_MIN_SIZE ||
        h > RV_GOMOKU_MAX_SIZE) {
        fail(err, text, start, end, "a board size from 5x5 to 26x26");
        return RV_ERANGE;
    }
    static const rv_gomoku_psq zero;
    rv_gomoku_psq psq = zero;
    psq.width = (int)w;
    psq.height = (int)h;
    /* Moves: the lines "x,y" or "x,y,ms" right after the header. */
    while (next_line(text, len, &pos, &start, &end)) {
        long x, y, ms = 0;
        i = start;
        if (!read_int(text, end, &i, &x) || i >= end || text[i++] != ',' ||
            !read_int(text, end, &i, &y))
            break; /* engine names or the result code: the moves are over */
        if (i < end && text[i] == ',') {
            i++;
            if (!read_int(text, end, &i, &ms)) break;
        }
        if (i != end) break;
        if (x < 1 || x > w || y < 1 || y > h) {
            fail(err, text, start, end, "a move x,y on the board (from 1 at the top-left)");
            return RV_EINVAL;
        }
        if (psq.nmoves == (int)(w * h)) {
            fail(err, text, start, end, "no more moves than points on the board");
            return RV_EINVAL;
        }
        psq.moves[psq.nmoves].x = (int)x - 1;
        psq.moves[psq.nmoves].y = (int)y - 1;
        psq.time_ms[psq.nmoves] = (int32_t)ms;
        psq.nmoves++;
    }
    *out = psq;
    return RV_OK;
}

int rv_gomoku_psq_write(const rv_gomoku_psq *psq, char *buf, size_t size) {
    size_t total = 0;
    char line[64];
    if (size > 0) buf[0] = '\0';
    for (int i = -1; i <= psq->nmoves; i++) {
        int n;
        if (i < 0)
            n = snprintf(line, sizeof line, "Piskvorky %dx%d, 11:11, 0\n", psq->width, psq->height);
        else if (i == psq->nmoves)
            n = snprintf(line, sizeof line, "-1\n");
        else
            n = snprintf(line, sizeof line, "%d,%d,%ld\n", psq->moves[i].x + 1, psq->moves[i].y + 1,
                         (long)psq->time_ms[i]);
        if (n < 0) return RV_EINVAL;
        for (int j = 0; j < n; j++, total++)
            if (total + 1 < size) buf[total] = line[j], buf[total + 1] = '\0';
    }
    return (int)total;
}
