/*
 * libFuzzer target: the Gomoku move-list parser (rv_gomoku_moves_parse) and
 * point notation. Any bytes: no crash, errors point inside the input, and a
 * parsed list prints back to a list that parses to the same points.
 */
#include "renversi/gomoku_record.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static rv_gomoku_point pts[RV_GOMOKU_MAX_POINTS], back[RV_GOMOKU_MAX_POINTS];
    const char *s = (const char *)data;
    int height = 5 + (size ? data[0] % 22 : 0);
    int n = -1;
    rv_parse_error err;
    rv_status st = rv_gomoku_moves_parse(s, size, height, pts, RV_GOMOKU_MAX_POINTS, &n, &err);
    if (st != RV_OK) {
        if (err.offset >= size && size > 0) abort();
        if (strlen(err.token) >= sizeof err.token || err.expected == NULL) abort();
        return 0;
    }
    if (n < 0 || n > RV_GOMOKU_MAX_POINTS) abort();
    /* print and parse again: the same points */
    size_t cap = (size_t)n * 4 + 1;
    char *buf = malloc(cap);
    if (buf == NULL) return 0;
    int len = rv_gomoku_moves_format(pts, n, height, buf, cap);
    if (len < 0 || (size_t)len >= cap) abort();
    int m = -1;
    if (rv_gomoku_moves_parse(buf, (size_t)len, height, back, RV_GOMOKU_MAX_POINTS, &m, NULL) !=
            RV_OK ||
        m != n)
        abort();
    for (int i = 0; i < n; i++)
        if (back[i].x != pts[i].x || back[i].y != pts[i].y) abort();
    free(buf);
    /* Gomocup X,Y on the same bytes */
    int x, y;
    if (rv_gomoku_gomocup_parse(s, size, &x, &y) == RV_OK &&
        (x < 0 || y < 0 || x >= RV_GOMOKU_MAX_SIZE || y >= RV_GOMOKU_MAX_SIZE))
        abort();
    return 0;
}
