/* The game clock of `renversi nboard` (GGF TI[]/TB[]/TW[] and move times). */
#include "proto/nboard_clock.h"

#include "renversi/reversi_ai.h"

#include <ctype.h>
#include <string.h>

/* One time "[[H:]M:]S[.FRAC]" from s up to end; empty is 0. -1 when malformed. */
static int parse_time(const char *s, const char *end, double *out) {
    double t = 0;
    int parts = 0;
    *out = 0;
    if (s == end) return 0;
    for (;;) {
        if (s == end || !isdigit((unsigned char)*s)) return -1;
        long v = 0;
        int digits = 0;
        while (s < end && isdigit((unsigned char)*s)) {
            if (++digits > 6) return -1; /* no clock has a million hours */
            v = v * 10 + (*s++ - '0');
        }
        t = t * 60 + (double)v;
        if (++parts > 3) return -1;
        if (s < end && *s == ':') {
            s++;
            continue;
        }
        break;
    }
    if (s < end && *s == '.') {
        double f = 0.1;
        s++;
        if (s == end || !isdigit((unsigned char)*s)) return -1;
        while (s < end && isdigit((unsigned char)*s)) {
            t += f * (*s++ - '0');
            f /= 10;
        }
    }
    if (s != end) return -1;
    *out = t;
    return 0;
}

int nb_clock_parse(const char *text, double *main_s, double *inc_s) {
    const char *part[3] = {text, NULL, NULL}, *stop = text + strlen(text);
    const char *ends[3] = {stop, stop, stop};
    int n = 1;
    for (const char *p = text; *p; p++)
        if (*p == '/') {
            if (n == 3) return -1;
            ends[n - 1] = p;
            part[n++] = p + 1;
        }
    double m, inc = 0, ext = 0;
    if (part[0] == ends[0]) return -1; /* the main time must be given */
    if (parse_time(part[0], ends[0], &m) != 0) return -1;
    if (n > 1 && parse_time(part[1], ends[1], &inc) != 0) return -1;
    if (n > 2 && parse_time(part[2], ends[2], &ext) != 0) return -1;
    *main_s = m;
    *inc_s = inc;
    return 0;
}

int64_t nb_clock_budget(const nb_clock *c, const rv_reversi_game *g, const double *used) {
    const rv_reversi_pos *pos = rv_reversi_game_position(g);
    int side = pos->side;
    /* moves alternate from the start position's side, passes included */
    double left = c->main_s[side];
    int me = g->start.side;
    for (int i = 0; i < g->nplies; i++, me = 3 - me)
        if (me == side) left += c->inc_s[side] - used[i];
    return rv_reversi_clock_budget_ms((int64_t)(left * 1000.0), (int64_t)(c->inc_s[side] * 1000.0),
                                      rv_reversi_count(pos, RV_EMPTY));
}
