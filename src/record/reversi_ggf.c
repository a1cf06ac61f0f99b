/*
 * GGF games: "(;GM[Othello]PC[..]...BO[8 <64 cells> <side>]B[f5]W[d6/-1.00/0.5];)".
 * Tags are NAME[value]; unknown tags are skipped (docs/formats.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/reversi_util.h"

void rv_reversi_ggf_init(rv_reversi_ggf *ggf) {
    memset(ggf, 0, sizeof *ggf);
    rv_reversi_init(&ggf->start);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Copies a tag value (cut to fit) into dst, undoing the '\\' escapes. */
static void keep(char *dst, const char *v, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n && k < RV_REVERSI_GGF_TAG - 1; i++) {
        if (v[i] == '\\' && i + 1 < n) i++;
        dst[k++] = v[i];
    }
    dst[k] = '\0';
}

/* Reads a decimal number (sign, digits, '.', digits) from v[0..n) exactly. */
static int parse_number(const char *v, size_t n, double *out) {
    char buf[40];
    if (n == 0 || n >= sizeof buf) return -1;
    size_t i = 0, digits = 0;
    if (v[i] == '+' || v[i] == '-') i++;
    for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) digits++;
    if (i < n && v[i] == '.')
        for (i++; i < n && v[i] >= '0' && v[i] <= '9'; i++) digits++;
    if (i != n || digits == 0) return -1;
    memcpy(buf, v, n);
    buf[n] = '\0';
    *out = strtod(buf, NULL);
    return 0;
}

/* A move value "f5", "F5/-1.00", "f5/2/0.5", "PA". Time may also be
 * written "mm:ss" by some servers; that is kept as seconds too. */
static rv_status parse_move(const char *text, size_t len, size_t off, size_t n,
                            rv_reversi_ggf_move *m, rv_reversi_error *err) {
    const char *v = text + off;
    char q[12];
    int sq;
    size_t a = 0;
    while (a < n && is_blank(v[a])) a++;
    if (n - a < 2 || rv_reversi_square_parse(v + a, n - a, &sq) != RV_OK ||
        (n - a > 2 && v[a + 2] != '/' && !is_blank(v[a + 2])))
        return rv_reversi_fail_at(err, text, len, off + a, "a square (a1..h8) or PA", "bad move '%s' (expected a square or PA)",
                                  rv_reversi_quote(v + a, n - a, q));
    memset(m, 0, sizeof *m);
    m->sq = (uint8_t)sq;
    size_t i = a + 2;
    while (i < n && is_blank(v[i])) i++;
    if (i < n && v[i] == '/') {
        size_t s = ++i;
        while (i < n && v[i] != '/') i++;
        if (i > s) {
            if (parse_number(v + s, i - s, &m->eval) != 0)
                return rv_reversi_fail_at(err, text, len, off + s, "a decimal evaluation", "bad evaluation '%s'",
                                          rv_reversi_quote(v + s, i - s, q));
            if (m->eval < -1e6 || m->eval > 1e6)
                return rv_reversi_fail_at(err, text, len, off + s, "an evaluation within +-1000000",
                                          "evaluation '%s' out of range",
                                          rv_reversi_quote(v + s, i - s, q));
            m->has_eval = 1;
        }
        if (i < n && v[i] == '/') {
            s = ++i;
            size_t colon = n;
            for (; i < n; i++)
                if (v[i] == ':' && colon == n) colon = i;
            double t = 0, mm = 0;
            /* Like the evaluation, the time may be empty (B[f5//], B[f5/1.5/]): none given. */
            int bad = 0;
            if (i > s && colon < n)
                bad = parse_number(v + s, colon - s, &mm) != 0 ||
                      parse_number(v + colon + 1, n - colon - 1, &t) != 0;
            else if (i > s) bad = parse_number(v + s, n - s, &t) != 0;
            if (bad)
                return rv_reversi_fail_at(err, text, len, off + s, "a time in seconds or mm:ss", "bad time '%s'",
                                          rv_reversi_quote(v + s, n - s, q));
            /* Bounded so that the writer's plain decimal form reads back. */
            if (i > s && (mm * 60 + t < 0 || mm * 60 + t > 1e8))
                return rv_reversi_fail_at(err, text, len, off + s, "a time of 0 to 100000000 seconds",
                                          "time '%s' out of range", rv_reversi_quote(v + s, n - s, q));
            if (i > s) {
                m->seconds = mm * 60 + t;
                m->has_time = 1;
            }
        }
    } else if (i < n) {
        return rv_reversi_fail_at(err, text, len, off + i, "'/' or ']' after the square", "unexpected '%s' in a move",
                                  rv_reversi_quote(v + i, n - i, q));
    }
    return RV_OK;
}

rv_status rv_reversi_ggf_parse(const char *text, size_t len, rv_reversi_ggf *out, size_t *used,
                               rv_reversi_error *err) {
    /* Large (over 8 KB with the move array); kept off the caller's way by
     * building into a local and copying only on success. */
    rv_reversi_ggf g;
    rv_reversi_ggf_init(&g);
    rv_reversi_game game;
    rv_reversi_game_init(&game, NULL);
    int board_seen = 0;
    size_t i = 0;
    char q[12];
    while (i < len && is_blank(text[i])) i++;
    if (i + 1 >= len || text[i] != '(' || text[i + 1] != ';')
        return rv_reversi_fail_at(err, text, len, i, "'(;'", "expected '(;' to start a GGF game, got '%s'",
                                  rv_reversi_quote(text + i, len - i, q));
    i += 2;
    for (;;) {
        while (i < len && is_blank(text[i])) i++;
        if (i >= len)
            return rv_reversi_fail_at(err, text, len, i, "';)'", "game not closed (expected ';)')");
        if (text[i] == ';') {
            size_t j = i + 1;
            while (j < len && is_blank(text[j])) j++;
            if (j >= len || text[j] != ')')
                return rv_reversi_fail_at(err, text, len, j, "')'", "expected ')' after ';'");
            i = j + 1;
            break;
        }
        /* NAME[value] */
        size_t name = i;
        while (i < len && text[i] >= 'A' && text[i] <= 'Z' && i - name < 8) i++;
        size_t nlen = i - name;
        if (nlen == 0 || i >= len || text[i] != '[')
            return rv_reversi_fail_at(err, text, len, i < len && nlen ? i : name,
                                      "a tag NAME[value]", "expected a tag like NAME[value], got '%s'",
                                      rv_reversi_quote(text + name, len - name, q));
        size_t v = ++i;
        while (i < len && text[i] != ']') {
            if (text[i] == '\\' && i + 1 < len) i++; /* an escaped ']' */
            i++;
        }
        if (i >= len)
            return rv_reversi_fail_at(err, text, len, v - 1, "']'", "tag %.*s has no closing ']'",
                                      (int)nlen, text + name);
        size_t vlen = i - v;
        i++;
        const char *nm = text + name;
#define IS(s) (nlen == strlen(s) && memcmp(nm, s, nlen) == 0)
        if (IS("GM")) {
            if (!(vlen == 7 && (memcmp(text + v, "Othello", 7) == 0 ||
                                memcmp(text + v, "othello", 7) == 0)))
                return rv_reversi_fail_at(err, text, len, v,
                                          "GM[Othello]", "game type '%s' is not Othello",
                                          rv_reversi_quote(text + v, vlen, q));
        } else if (IS("TY")) {
            /* "8", possibly followed by variant letters we do not play. */
            if (!(vlen == 1 && text[v] == '8'))
                return rv_reversi_fail_at(err, text, len, v,
                                          "TY[8]", "board type '%s' not supported (expected 8)",
                                          rv_reversi_quote(text + v, vlen, q));
        } else if (IS("BO")) {
            if (game.nplies > 0)
                return rv_reversi_fail_at(err, text, len, name, "BO[] before the moves", "BO[] after the first move");
            size_t j = v;
            while (j < v + vlen && is_blank(text[j])) j++;
            if (j >= v + vlen || text[j] != '8' || j + 1 >= v + vlen || !is_blank(text[j + 1]))
                return rv_reversi_fail_at(err, text, len, j,
                                          "'8 ' at the start of BO[]", "BO[] must start with the size 8 and a blank");
            j++;
            while (j < v + vlen && is_blank(text[j])) j++;
            size_t end;
            rv_status st = rv_reversi_board_parse_at(text, v + vlen, j, &g.start, &end, err);
            if (st != RV_OK) return st;
            while (end < v + vlen && is_blank(text[end])) end++;
            if (end != v + vlen)
                return rv_reversi_fail_at(err, text, len, end, "']' after the side to move", "unexpected '%s' in BO[]",
                                          rv_reversi_quote(text + end, v + vlen - end, q));
            rv_reversi_game_init(&game, &g.start);
            board_seen = 1;
        } else if (IS("B") || IS("W")) {
            rv_color who = nm[0] == 'B' ? RV_BLACK : RV_WHITE;
            const rv_reversi_pos *p = rv_reversi_game_position(&game);
            if (who != p->side)
                return rv_reversi_fail_at(err, text, len, name, "a move by the side to move", "%s moves but it is %s's turn",
                                          who == RV_BLACK ? "black" : "white",
                                          p->side == RV_BLACK ? "black" : "white");
            rv_reversi_ggf_move m;
            rv_status st = parse_move(text, len, v, vlen, &m, err);
            if (st != RV_OK) return st;
            if (g.nmoves >= RV_REVERSI_MAX_PLIES) {
                rv_reversi_fail_at(err, text, len, name, "at most 128 moves", "too many moves");
                return RV_ETOOLONG;
            }
            st = rv_reversi_game_play(&game, m.sq);
            if (st != RV_OK) {
                char sq[3];
                return rv_reversi_fail_at(err, text, len, v, "a legal move", "move %d (%s) is illegal: %s",
                                          g.nmoves + 1, rv_reversi_square_format(m.sq, 0, sq),
                                          st == RV_EOCCUPIED ? "occupied"
                                          : st == RV_EOVER   ? "after the end of the game"
                                          : m.sq == RV_REVERSI_PASS
                                              ? "a pass while a move exists"
                                              : "flips nothing");
            }
            g.moves[g.nmoves++] = m;
        } else if (IS("PC")) keep(g.pc, text + v, vlen);
        else if (IS("DT")) keep(g.dt, text + v, vlen);
        else if (IS("PB")) keep(g.pb, text + v, vlen);
        else if (IS("PW")) keep(g.pw, text + v, vlen);
        else if (IS("RE")) keep(g.re, text + v, vlen);
        else if (IS("TI")) keep(g.ti, text + v, vlen);
        else if (IS("TB")) keep(g.tb, text + v, vlen);
        else if (IS("TW")) keep(g.tw, text + v, vlen);
        /* Any other tag (RB, RW, CO, KW, ...) is skipped. */
#undef IS
    }
    (void)board_seen;
    *out = g;
    if (used) *used = i;
    return RV_OK;
}

rv_status rv_reversi_ggf_game(const rv_reversi_ggf *ggf, rv_reversi_game *g) {
    rv_reversi_game_init(g, &ggf->start);
    for (int i = 0; i < ggf->nmoves; i++) {
        rv_status st = rv_reversi_game_play(g, ggf->moves[i].sq);
        if (st != RV_OK) return st;
    }
    return RV_OK;
}

/* Appends to a bounded buffer, counting what the full text needs. */
typedef struct sink {
    char *out;
    size_t cap, n;
} sink;

static void put(sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sink *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->n < s->cap ? s->cap - s->n : 0;
    int k = vsnprintf(room ? s->out + s->n : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0) s->n += (size_t)k;
}

/* Writes a tag value, escaping ']' and '\\'. */
static void put_tag(sink *s, const char *name, const char *v) {
    if (v[0] == '\0') return;
    put(s, "%s[", name);
    for (; *v; v++) {
        if (*v == ']' || *v == '\\') put(s, "\\");
        put(s, "%c", *v);
    }
    put(s, "]");
}

size_t rv_reversi_ggf_format(const rv_reversi_ggf *ggf, char *out, size_t cap) {
    sink s = {out, cap, 0};
    if (cap > 0) out[0] = '\0';
    put(&s, "(;GM[Othello]");
    put_tag(&s, "PC", ggf->pc);
    put_tag(&s, "DT", ggf->dt);
    put_tag(&s, "PB", ggf->pb);
    put_tag(&s, "PW", ggf->pw);
    put_tag(&s, "RE", ggf->re);
    put_tag(&s, "TI", ggf->ti);
    put_tag(&s, "TB", ggf->tb);
    put_tag(&s, "TW", ggf->tw);
    char board[70];
    rv_reversi_board_format(&ggf->start, board, sizeof board);
    /* GGF writes black as '*'. */
    for (int k = 0; k < 66; k++)
        if (board[k] == 'X') board[k] = '*';
    put(&s, "TY[8]BO[8 %s]", board);
    rv_color side = ggf->start.side;
    for (int i = 0; i < ggf->nmoves; i++) {
        const rv_reversi_ggf_move *m = &ggf->moves[i];
        char sq[3];
        put(&s, "%c[%s", side == RV_BLACK ? 'B' : 'W', rv_reversi_square_format(m->sq, 1, sq));
        if (m->has_eval || m->has_time) {
            if (m->has_eval) put(&s, "/%.2f", m->eval);
            else put(&s, "/");
        }
        if (m->has_time) {
            /* Plain decimal (never an exponent, which the reader rejects), trailing zeros cut. */
            char t[32];
            int k = snprintf(t, sizeof t, "%.3f", m->seconds);
            while (k > 0 && t[k - 1] == '0') t[--k] = '\0';
            if (k > 0 && t[k - 1] == '.') t[--k] = '\0';
            put(&s, "/%s", t);
        }
        put(&s, "]");
        side = rv_opponent(side);
    }
    put(&s, ";)");
    return s.n;
}
