/* Records of an rv_game: export through the record modules, and loading (game.h). */
#include "renversi/game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renversi/gomoku_record.h"
#include "renversi/reversi_record.h"

static void say(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t n, const char *fmt, ...) {
    if (!buf || n == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- export */

static rv_status export_gomoku(const rv_game *g, const char *format, char **out) {
    const rv_gomoku *go = rv_game_gomoku(g);
    int nm = rv_game_nmoves(g), size = rv_game_size(g);
    size_t cap = (size_t)nm * 16 + 256;
    int moves = !strcmp(format, "moves");
    if (!moves && strcmp(format, "psq")) return RV_EINVAL;
    char *buf = malloc(cap);
    if (!buf) return RV_ENOMEM;
    if (moves) {
        rv_gomoku_point *pts = malloc(((size_t)nm + 1) * sizeof *pts);
        if (!pts) return free(buf), RV_ENOMEM;
        for (int i = 0; i < nm; i++) rv_gomoku_move_at(go, i, &pts[i].x, &pts[i].y);
        int len = rv_gomoku_moves_format(pts, nm, size, buf, cap - 1);
        free(pts);
        if (len < 0 || (size_t)len >= cap - 1) return free(buf), RV_ENOMEM;
        strcat(buf, "\n");
    } else {
        rv_gomoku_psq *psq = calloc(1, sizeof *psq);
        if (!psq) return free(buf), RV_ENOMEM;
        psq->width = psq->height = size;
        psq->nmoves = nm;
        for (int i = 0; i < nm; i++) rv_gomoku_move_at(go, i, &psq->moves[i].x, &psq->moves[i].y);
        int len = rv_gomoku_psq_write(psq, buf, cap);
        free(psq);
        if (len < 0 || (size_t)len >= cap) return free(buf), RV_ENOMEM;
    }
    *out = buf;
    return RV_OK;
}

/* "f5 d6 pa c3": the transcript with passes, one space between squares. */
static rv_status export_moves(const uint8_t *moves, int nm, char **out) {
    char *t = malloc((size_t)nm * 3 + 2);
    if (!t) return RV_ENOMEM;
    size_t k = 0;
    for (int i = 0; i < nm; i++) {
        char sq[3];
        if (i) t[k++] = ' ';
        rv_reversi_square_format(moves[i], 0, sq);
        t[k++] = sq[0];
        t[k++] = sq[1];
    }
    t[k++] = '\n';
    t[k] = 0;
    *out = t;
    return RV_OK;
}

static rv_status export_reversi(const rv_game *g, const char *format, char **out) {
    const rv_reversi_game *r = rv_game_reversi(g);
    int nm = r->nplies;
    if (!strcmp(format, "moves")) return export_moves(r->moves, nm, out);
    if (!strcmp(format, "transcript")) {
        size_t need = rv_reversi_transcript_format(r->moves, nm, 0, NULL, 0);
        char *t = malloc(need + 2);
        if (!t) return RV_ENOMEM;
        rv_reversi_transcript_format(r->moves, nm, 0, t, need + 1);
        strcat(t, "\n");
        *out = t;
        return RV_OK;
    }
    if (strcmp(format, "ggf")) return RV_EINVAL;
    rv_reversi_ggf *ggf = malloc(sizeof *ggf);
    if (!ggf) return RV_ENOMEM;
    rv_reversi_ggf_init(ggf);
    snprintf(ggf->pc, sizeof ggf->pc, "renversi");
    snprintf(ggf->pb, sizeof ggf->pb, "black");
    snprintf(ggf->pw, sizeof ggf->pw, "white");
    rv_game_result res;
    rv_game_get_result(g, &res);
    if (res.end == RV_END_SCORE) {
        /* GGF results are black's disc difference, the empties to the winner. */
        snprintf(ggf->re, sizeof ggf->re, "%+d", res.black - res.white);
    } else if (res.end == RV_END_RESIGN || res.end == RV_END_TIME) {
        snprintf(ggf->re, sizeof ggf->re, "%s64:%c", res.winner == RV_BLACK ? "+" : "-",
                 res.end == RV_END_RESIGN ? 'r' : 't');
    }
    ggf->start = r->start;
    ggf->nmoves = nm;
    for (int i = 0; i < nm; i++) ggf->moves[i].sq = r->moves[i];
    size_t need = rv_reversi_ggf_format(ggf, NULL, 0);
    char *t = malloc(need + 2);
    if (t) {
        rv_reversi_ggf_format(ggf, t, need + 1);
        strcat(t, "\n");
    }
    free(ggf);
    if (!t) return RV_ENOMEM;
    *out = t;
    return RV_OK;
}

rv_status rv_game_export(const rv_game *g, const char *format, char **out) {
    if (!format) return RV_EINVAL;
    return rv_game_is_reversi(g) ? export_reversi(g, format, out) : export_gomoku(g, format, out);
}

/* ---------------------------------------------------------------- load */

static rv_status load_reversi(rv_game *g, const char *text, size_t len, const char *s, char *why,
                              size_t n) {
    rv_reversi_game r;
    rv_reversi_error e;
    memset(&e, 0, sizeof e);
    rv_reversi_game_init(&r, NULL);
    if (*s == '(') {
        rv_reversi_ggf *ggf = malloc(sizeof *ggf);
        if (!ggf) return RV_ENOMEM;
        rv_status st = rv_reversi_ggf_parse(text, len, ggf, NULL, &e);
        if (st == RV_OK) st = rv_reversi_ggf_game(ggf, &r);
        free(ggf);
        if (st != RV_OK) {
            say(why, n, "not a GGF game: %s", e.message[0] ? e.message : rv_strerror(st));
            return st;
        }
    } else {
        uint8_t moves[RV_REVERSI_MAX_PLIES];
        int nm = 0, failed = -1;
        rv_status st = rv_reversi_transcript_parse(text, len, moves, RV_REVERSI_MAX_PLIES, &nm, &e);
        if (st != RV_OK) {
            say(why, n, "not a transcript: %s", e.message[0] ? e.message : rv_strerror(st));
            return st;
        }
        st = rv_reversi_transcript_replay(&r, moves, nm, &failed);
        if (st != RV_OK) {
            say(why, n, "move %d of the transcript is illegal", failed + 1);
            return st;
        }
    }
    rv_game_init_reversi(g, &r);
    return RV_OK;
}

static rv_status load_gomoku(rv_game *g, const char *text, size_t len, const char *s, char *why,
                             size_t n) {
    rv_parse_error e;
    memset(&e, 0, sizeof e);
    rv_gomoku_point *pts = malloc(RV_GOMOKU_MAX_POINTS * sizeof *pts);
    rv_gomoku_psq *psq = malloc(sizeof *psq);
    if (!pts || !psq) return free(pts), free(psq), RV_ENOMEM;
    int nm = 0, size = rv_game_size(g);
    rv_status st;
    if (!strncmp(s, "Piskvork", 8)) {
        st = rv_gomoku_psq_read(text, len, psq, &e);
        if (st == RV_OK && psq->width != psq->height) st = RV_ERANGE;
        if (st == RV_OK) {
            size = psq->width;
            nm = psq->nmoves;
            memcpy(pts, psq->moves, (size_t)nm * sizeof *pts);
        }
    } else {
        st = rv_gomoku_moves_parse(text, len, size, pts, RV_GOMOKU_MAX_POINTS, &nm, &e);
    }
    free(psq);
    if (st != RV_OK) {
        free(pts);
        say(why, n, "not a move list or PSQ record: at '%s' expected %s", e.token,
            e.expected ? e.expected : "a square board");
        return st;
    }
    rv_game t;
    char w[160];
    st = rv_game_init(&t, rv_game_variant(g), size, w, sizeof w);
    if (st != RV_OK) say(why, n, "%s", w);
    for (int i = 0; st == RV_OK && i < nm; i++) {
        st = rv_game_play_xy(&t, pts[i].x, pts[i].y, w, sizeof w, NULL);
        if (st != RV_OK) say(why, n, "move %d: %s", i + 1, w);
    }
    free(pts);
    if (st != RV_OK) return st;
    *g = t;
    return RV_OK;
}

rv_status rv_game_load(rv_game *g, const char *text, size_t len, char *why, size_t n) {
    /* The readers below stop at the length; the prefix checks need a NUL-terminated look. */
    size_t skip = 0;
    while (skip < len && (text[skip] == ' ' || text[skip] == '\n' || text[skip] == '\r' ||
                          text[skip] == '\t'))
        skip++;
    if (skip == len) {
        say(why, n, "the record is empty");
        return RV_EEMPTY;
    }
    char head[9] = {0};
    memcpy(head, text + skip, len - skip < 8 ? len - skip : 8);
    return rv_game_is_reversi(g) ? load_reversi(g, text, len, head, why, n)
                                 : load_gomoku(g, text, len, head, why, n);
}
