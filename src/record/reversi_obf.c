/* OBF positions: "<64 cells> <side>; A2:+38; ..." (docs/formats.md). */
#include <stdio.h>
#include <string.h>

#include "record/reversi_util.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

rv_status rv_reversi_board_parse_at(const char *text, size_t len, size_t start,
                                    rv_reversi_pos *pos, size_t *end, rv_reversi_error *err) {
    uint64_t black = 0, white = 0;
    size_t i = start;
    char q[12];
    for (int sq = 0; sq < 64; sq++) {
        /* Blanks between cells are allowed (GGF writers sometimes use them). */
        while (i < len && sq > 0 && is_blank(text[i])) i++;
        if (i >= len)
            return rv_reversi_fail_at(err, text, len, i,
                                      "64 squares", "board has only %d of 64 squares", sq);
        char c = text[i];
        if (c == 'X' || c == 'x' || c == '*') black |= 1ULL << sq;
        else if (c == 'O' || c == 'o') white |= 1ULL << sq;
        else if (c != '-' && c != '.')
            return rv_reversi_fail_at(err, text, len, i,
                                      "X, *, O, - or .", "bad board character '%s' at square %d (expected X, *, "
                                      "O, - or .)",
                                      rv_reversi_quote(text + i, 1, q), sq + 1);
        i++;
    }
    if (i < len && !is_blank(text[i]))
        return rv_reversi_fail_at(err, text, len, i,
                                  "a blank after the 64 squares", "board has more than 64 squares or no blank before the side");
    while (i < len && is_blank(text[i])) i++;
    if (i >= len)
        return rv_reversi_fail_at(err, text, len, i,
                                  "the side to move (X or O)", "missing side to move after the board (expected X or O)");
    char s = text[i];
    rv_color side;
    if (s == 'X' || s == 'x' || s == '*' || s == 'B' || s == 'b') side = RV_BLACK;
    else if (s == 'O' || s == 'o' || s == 'W' || s == 'w') side = RV_WHITE;
    else
        return rv_reversi_fail_at(err, text, len, i, "the side to move (X or O)", "bad side to move '%s' (expected X or O)",
                                  rv_reversi_quote(text + i, 1, q));
    if (i + 1 < len && !is_blank(text[i + 1]) && text[i + 1] != ';' && text[i + 1] != ']')
        return rv_reversi_fail_at(err, text, len, i + 1,
                                  "a blank or ';' after the side to move", "unexpected '%s' after the side to move",
                                  rv_reversi_quote(text + i + 1, 1, q));
    /* Every game starts with d4 e4 d5 e5 filled, and discs never leave. */
    static const int centre[4] = {27, 28, 35, 36};
    for (int k = 0; k < 4; k++)
        if (!(((black | white) >> centre[k]) & 1)) {
            char nm[3];
            return rv_reversi_fail_at(err, text, len, start,
                                      "a possible board (d4 e4 d5 e5 occupied)", "impossible board: centre square %s is empty",
                                      rv_reversi_square_format(centre[k], 0, nm));
        }
    rv_reversi_from_colors(pos, black, white, side);
    *end = i + 1;
    return RV_OK;
}

rv_status rv_reversi_obf_parse(const char *line, size_t len, int with_moves,
                               rv_reversi_obf *obf, rv_reversi_error *err) {
    rv_reversi_obf o;
    size_t i = 0;
    char q[12];
    while (i < len && is_blank(line[i])) i++;
    if (i >= len) return rv_reversi_fail_at(err, line, len, i, "a board", "empty line (expected a board)");
    rv_status st = rv_reversi_board_parse_at(line, len, i, &o.pos, &i, err);
    if (st != RV_OK) return st;
    o.nscores = 0;
    while (i < len && is_blank(line[i])) i++;
    if (i < len && line[i] != ';')
        return rv_reversi_fail_at(err, line, len, i, "';'", "expected ';' after the side to move, got '%s'",
                                  rv_reversi_quote(line + i, len - i, q));
    if (i < len) i++;
    while (with_moves && i < len) {
        while (i < len && is_blank(line[i])) i++;
        if (i >= len) break;
        int sq;
        if (rv_reversi_square_parse(line + i, len - i, &sq) != RV_OK)
            return rv_reversi_fail_at(err, line, len, i,
                                      "a square like A2 or PA", "bad move '%s' (expected a square like A2 or PA)",
                                      rv_reversi_quote(line + i, len - i < 2 ? len - i : 2, q));
        i += 2;
        if (i >= len || line[i] != ':')
            return rv_reversi_fail_at(err, line, len, i, "':'", "expected ':' after the move");
        i++;
        size_t score_at = i;
        int sign = 1;
        if (i < len && (line[i] == '+' || line[i] == '-')) sign = line[i++] == '-' ? -1 : 1;
        int v = 0, digits = 0;
        while (i < len && line[i] >= '0' && line[i] <= '9' && digits < 3)
            v = v * 10 + (line[i++] - '0'), digits++;
        if (digits == 0 || (i < len && line[i] >= '0' && line[i] <= '9') || v > 64)
            return rv_reversi_fail_at(err, line, len, score_at,
                                      "an integer -64..+64", "bad score (expected an integer -64..+64)");
        while (i < len && is_blank(line[i])) i++;
        if (i >= len || line[i] != ';')
            return rv_reversi_fail_at(err, line, len, i, "';'", "expected ';' after the score");
        i++;
        if (o.nscores >= 64)
            return rv_reversi_fail_at(err, line, len, i, "at most 64 scored moves", "more than 64 scored moves");
        o.moves[o.nscores] = (uint8_t)sq;
        o.scores[o.nscores] = (int8_t)(sign * v);
        o.nscores++;
    }
    *obf = o;
    return RV_OK;
}

size_t rv_reversi_board_format(const rv_reversi_pos *pos, char *out, size_t cap) {
    char buf[68];
    for (int sq = 0; sq < 64; sq++) {
        rv_color c = rv_reversi_at(pos, sq);
        buf[sq] = c == RV_BLACK ? 'X' : c == RV_WHITE ? 'O' : '-';
    }
    buf[64] = ' ';
    buf[65] = pos->side == RV_BLACK ? 'X' : 'O';
    buf[66] = '\0';
    if (cap > 0) snprintf(out, cap, "%s", buf);
    return 66;
}

size_t rv_reversi_obf_format(const rv_reversi_obf *obf, char *out, size_t cap) {
    char buf[68 + 64 * 10];
    size_t k = rv_reversi_board_format(&obf->pos, buf, sizeof buf);
    buf[k++] = ';';
    for (int i = 0; i < obf->nscores && i < 64; i++) {
        char sq[3];
        k += (size_t)snprintf(buf + k, sizeof buf - k, " %s:%+d;",
                              rv_reversi_square_format(obf->moves[i], 1, sq), obf->scores[i]);
    }
    buf[k] = '\0';
    if (cap > 0) snprintf(out, cap, "%s", buf);
    return k;
}
