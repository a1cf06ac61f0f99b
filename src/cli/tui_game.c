/* One game of either kind for the terminal game and the server (see tui_game.h). */
#include "cli/tui_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "renversi/gomoku_record.h"
#include "renversi/reversi_record.h"

/* ---------------------------------------------------------------- setup */

rv_status pg_init(pg_game *p, const char *variant, int size, char *err, size_t errlen) {
    pg_game g;
    memset(&g, 0, sizeof g);
    if (!variant) variant = "renju";
    if (!strcasecmp(variant, "reversi") || !strcasecmp(variant, "othello")) {
        if (size && size != 8) {
            snprintf(err, errlen, "Reversi is played on 8x8 (not %d)", size);
            return RV_ERANGE;
        }
        g.reversi = 1;
        g.size = 8;
        snprintf(g.variant, sizeof g.variant, "reversi");
        rv_reversi_game_init(&g.r, NULL);
    } else {
        rv_gomoku_rule rule;
        if (!strcasecmp(variant, "gomoku")) rule = RV_RULE_FREESTYLE;
        else if (rv_gomoku_rule_parse(variant, &rule) != RV_OK) {
            snprintf(err, errlen,
                     "unknown game '%.32s' (expected gomoku, freestyle, standard, renju, caro or "
                     "reversi)",
                     variant);
            return RV_EINVAL;
        }
        if (!size) size = 15;
        if (rv_gomoku_init(&g.g, size, size, rule) != RV_OK) {
            snprintf(err, errlen, "board size %d is outside %d..%d", size, RV_GOMOKU_MIN_SIZE,
                     RV_GOMOKU_MAX_SIZE);
            return RV_ERANGE;
        }
        g.size = size;
        snprintf(g.variant, sizeof g.variant, "%s", rv_gomoku_rule_name(rule));
    }
    *p = g;
    return RV_OK;
}

/* ---------------------------------------------------------------- queries */

static const rv_reversi_pos *rpos(const pg_game *p) { return rv_reversi_game_position(&p->r); }

int pg_over(const pg_game *p) {
    if (p->resigned) return 1;
    if (p->reversi) return rv_reversi_is_over(rpos(p));
    rv_gomoku_result r;
    rv_gomoku_get_result(&p->g, &r);
    return r.over;
}

rv_color pg_to_move(const pg_game *p) {
    if (pg_over(p)) return RV_EMPTY;
    return p->reversi ? rpos(p)->side : rv_gomoku_to_move(&p->g);
}

int pg_is_pass(const pg_game *p, int i) {
    return p->reversi && i >= 0 && i < p->r.nplies && p->r.moves[i] == RV_REVERSI_PASS;
}

int pg_nmoves(const pg_game *p) {
    return p->reversi ? p->r.nplies : rv_gomoku_move_count(&p->g);
}

rv_color pg_move_color(const pg_game *p, int i) {
    if (i < 0 || i >= pg_nmoves(p)) return RV_EMPTY;
    if (p->reversi) return p->r.history[i].side;
    return (i % 2) ? RV_WHITE : RV_BLACK;
}

void pg_point_text(const pg_game *p, int x, int y, char *buf, size_t n) {
    if (p->reversi) {
        char sq[3];
        snprintf(buf, n, "%s", rv_reversi_square_format(y * 8 + x, 0, sq));
    } else if (rv_gomoku_point_format(x, y, p->size, buf, n) < 0) {
        snprintf(buf, n, "?");
    }
}

int pg_move_xy(const pg_game *p, int i, int *x, int *y) {
    if (i < 0 || i >= pg_nmoves(p)) return 0;
    if (p->reversi) {
        int sq = p->r.moves[i];
        if (sq >= 64) return 0;
        *x = sq % 8;
        *y = sq / 8;
        return 1;
    }
    return rv_gomoku_move_at(&p->g, i, x, y) == RV_OK;
}

void pg_move_text(const pg_game *p, int i, char *buf, size_t n) {
    int x, y;
    if (p->reversi && i >= 0 && i < pg_nmoves(p) && p->r.moves[i] == RV_REVERSI_PASS)
        snprintf(buf, n, "pass");
    else if (pg_move_xy(p, i, &x, &y))
        pg_point_text(p, x, y, buf, n);
    else
        snprintf(buf, n, "?");
}

rv_color pg_at(const pg_game *p, int x, int y) {
    if (x < 0 || y < 0 || x >= p->size || y >= p->size) return RV_EMPTY;
    return p->reversi ? rv_reversi_at(rpos(p), y * 8 + x) : rv_gomoku_at(&p->g, x, y);
}

int pg_marks(const pg_game *p, uint8_t *marks) {
    int n = p->size, count = 0;
    memset(marks, 0, (size_t)n * n);
    if (pg_over(p)) return 0;
    if (p->reversi) {
        uint64_t m = rv_reversi_moves(rpos(p));
        for (; m; m &= m - 1) {
            marks[rv_bb_first(m)] = PG_MARK_LEGAL;
            count++;
        }
        return count;
    }
    if (rv_gomoku_get_rule(&p->g) != RV_RULE_RENJU || rv_gomoku_to_move(&p->g) != RV_BLACK)
        return 0;
    return rv_gomoku_forbidden_map(&p->g, marks);
}

rv_color pg_winner(const pg_game *p) {
    if (p->resigned) return rv_opponent(p->resigned);
    if (p->reversi) return rv_reversi_is_over(rpos(p)) ? rv_reversi_winner(rpos(p)) : RV_EMPTY;
    rv_gomoku_result r;
    rv_gomoku_get_result(&p->g, &r);
    return r.over ? r.winner : RV_EMPTY;
}

void pg_counts(const pg_game *p, int *black, int *white) {
    if (p->reversi) {
        *black = rv_reversi_count(rpos(p), RV_BLACK);
        *white = rv_reversi_count(rpos(p), RV_WHITE);
        return;
    }
    *black = *white = 0;
    for (int y = 0; y < p->size; y++)
        for (int x = 0; x < p->size; x++) {
            rv_color c = rv_gomoku_at(&p->g, x, y);
            *black += c == RV_BLACK;
            *white += c == RV_WHITE;
        }
}

void pg_result_text(const pg_game *p, char *buf, size_t n) {
    buf[0] = 0;
    if (!pg_over(p)) return;
    if (p->resigned) {
        snprintf(buf, n, "%s wins: %s resigned", p->resigned == RV_BLACK ? "white" : "black",
                 p->resigned == RV_BLACK ? "black" : "white");
        return;
    }
    if (p->reversi) {
        int b, w;
        pg_counts(p, &b, &w);
        rv_color win = rv_reversi_winner(rpos(p));
        if (win == RV_EMPTY) snprintf(buf, n, "draw %d-%d", b, w);
        else if (win == RV_BLACK) snprintf(buf, n, "black wins %d-%d", b, w);
        else snprintf(buf, n, "white wins %d-%d", w, b);
        return;
    }
    rv_gomoku_result r;
    rv_gomoku_get_result(&p->g, &r);
    if (r.winner == RV_EMPTY) {
        snprintf(buf, n, "draw: board full");
    } else if (r.forbidden) {
        char t[8];
        int x, y;
        rv_gomoku_move_at(&p->g, rv_gomoku_move_count(&p->g) - 1, &x, &y);
        pg_point_text(p, x, y, t, sizeof t);
        snprintf(buf, n, "white wins: black's forbidden move %s (%s)", t,
                 rv_forbid_name(r.forbid_kind));
    } else {
        char a[8], b[8];
        pg_point_text(p, r.x0, r.y0, a, sizeof a);
        pg_point_text(p, r.x1, r.y1, b, sizeof b);
        snprintf(buf, n, "%s wins: five %s-%s", r.winner == RV_BLACK ? "black" : "white", a, b);
    }
}

/* ---------------------------------------------------------------- moves */

rv_status pg_parse_point(const pg_game *p, const char *text, int *x, int *y) {
    while (*text == ' ' || *text == '\t') text++;
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r')) len--;
    if (p->reversi) {
        if ((len == 4 && !strncasecmp(text, "pass", 4)) || (len == 2 && !strncasecmp(text, "pa", 2))) {
            *x = *y = -1;
            return RV_OK;
        }
        int sq;
        if (len != 2 || rv_reversi_square_parse(text, len, &sq) != RV_OK || sq < 0 || sq >= 64)
            return RV_EINVAL;
        *x = sq % 8;
        *y = sq / 8;
        return RV_OK;
    }
    int px, py;
    if (rv_gomoku_point_parse(text, len, p->size, &px, &py) != RV_OK) return RV_EINVAL;
    *x = px;
    *y = py;
    return RV_OK;
}

static const char *why_status(rv_status st) {
    switch (st) {
    case RV_EOCCUPIED: return "occupied";
    case RV_ERANGE: return "off the board";
    case RV_EOVER: return "the game is over";
    case RV_EILLEGAL: return "it flips nothing";
    default: return rv_strerror(st);
    }
}

rv_status pg_play_xy(pg_game *p, int x, int y, char *why, size_t n, int *kind) {
    char t[16];
    *kind = 0;
    if (p->resigned) {
        snprintf(why, n, "the game is over");
        return RV_EOVER;
    }
    if (p->reversi) {
        int sq = x < 0 ? RV_REVERSI_PASS : (x >= 8 || y < 0 || y >= 8) ? -1 : y * 8 + x;
        if (sq < 0) {
            snprintf(why, n, "illegal move: off the board");
            return RV_ERANGE;
        }
        if (sq == RV_REVERSI_PASS) snprintf(t, sizeof t, "pass");
        else pg_point_text(p, x, y, t, sizeof t);
        rv_status st = rv_reversi_game_play(&p->r, sq);
        if (st != RV_OK) {
            snprintf(why, n, "illegal move %s: %s", t,
                     sq == RV_REVERSI_PASS && st == RV_EILLEGAL ? "a move is possible"
                                                                : why_status(st));
            return st;
        }
        /* The next player has no move but the game goes on: the pass is forced. */
        if (rv_reversi_must_pass(rpos(p))) rv_reversi_game_play(&p->r, RV_REVERSI_PASS);
        return RV_OK;
    }
    if (x < 0 || y < 0 || x >= p->size || y >= p->size) {
        snprintf(why, n, "illegal move: off the board");
        return RV_ERANGE;
    }
    pg_point_text(p, x, y, t, sizeof t);
    rv_forbid_kind k = RV_FORBID_NONE;
    rv_status st = rv_gomoku_check(&p->g, x, y, &k);
    if (st == RV_EFORBIDDEN) {
        *kind = (int)k;
        snprintf(why, n, "forbidden move %s: %s", t, rv_forbid_name(k));
        return st;
    }
    if (st == RV_OK) st = rv_gomoku_play(&p->g, x, y);
    if (st != RV_OK) snprintf(why, n, "illegal move %s: %s", t, why_status(st));
    return st;
}

rv_status pg_play_text(pg_game *p, const char *text, char *why, size_t n, int *kind) {
    int x, y;
    *kind = 0;
    if (pg_parse_point(p, text, &x, &y) != RV_OK) {
        snprintf(why, n, "'%.20s' is not a move (expected a point like %s)", text,
                 p->reversi ? "d3, or pass" : "h8");
        return RV_EINVAL;
    }
    return pg_play_xy(p, x, y, why, n, kind);
}

rv_status pg_undo(pg_game *p) {
    if (p->resigned) {
        p->resigned = RV_EMPTY;
        return RV_OK;
    }
    if (!p->reversi) return rv_gomoku_undo(&p->g);
    if (p->r.nplies == 0) return RV_EEMPTY;
    if (p->r.moves[p->r.nplies - 1] == RV_REVERSI_PASS && p->r.nplies > 1)
        rv_reversi_game_undo(&p->r);
    return rv_reversi_game_undo(&p->r);
}

static int moves_of(const pg_game *p, rv_color who) {
    int k = 0;
    for (int i = 0; i < pg_nmoves(p); i++) k += pg_move_color(p, i) == who && !pg_is_pass(p, i);
    return k;
}

rv_status pg_undo_for(pg_game *p, rv_color who) {
    int have = moves_of(p, who);
    if (have == 0) return RV_EEMPTY;
    pg_game g = *p;
    g.resigned = RV_EMPTY;
    while (moves_of(&g, who) == have)
        if (pg_undo(&g) != RV_OK) return RV_EEMPTY;
    *p = g;
    return RV_OK;
}

rv_status pg_resign(pg_game *p, rv_color c) {
    if (pg_over(p)) return RV_EOVER;
    p->resigned = c;
    return RV_OK;
}

/* ---------------------------------------------------------------- records */

char *pg_export(const pg_game *p, const char *format) {
    int nm = pg_nmoves(p);
    if (!p->reversi) {
        size_t cap = (size_t)nm * 16 + 256;
        char *buf = malloc(cap);
        if (!buf) return NULL;
        if (!strcmp(format, "moves")) {
            rv_gomoku_point *pts = malloc(((size_t)nm + 1) * sizeof *pts);
            if (!pts) return free(buf), NULL;
            for (int i = 0; i < nm; i++) rv_gomoku_move_at(&p->g, i, &pts[i].x, &pts[i].y);
            rv_gomoku_moves_format(pts, nm, p->size, buf, cap - 1);
            free(pts);
            strcat(buf, "\n");
            return buf;
        }
        if (!strcmp(format, "psq")) {
            rv_gomoku_psq *psq = calloc(1, sizeof *psq);
            if (!psq) return free(buf), NULL;
            psq->width = psq->height = p->size;
            psq->nmoves = nm;
            for (int i = 0; i < nm; i++)
                rv_gomoku_move_at(&p->g, i, &psq->moves[i].x, &psq->moves[i].y);
            rv_gomoku_psq_write(psq, buf, cap);
            free(psq);
            return buf;
        }
        free(buf);
        return NULL;
    }
    if (!strcmp(format, "moves") || !strcmp(format, "transcript")) {
        /* "transcript": the usual f5d6c3 form (passes implied); "moves": the same with
           separators and explicit passes. */
        int explicit_pass = !strcmp(format, "moves");
        size_t need = rv_reversi_transcript_format(p->r.moves, nm, explicit_pass, NULL, 0);
        char *t = malloc(need + 2);
        if (!t) return NULL;
        rv_reversi_transcript_format(p->r.moves, nm, explicit_pass, t, need + 1);
        if (explicit_pass) {
            /* Space-separate the squares for people to read. */
            char *o = malloc(need * 3 / 2 + 4);
            if (!o) return free(t), NULL;
            size_t k = 0;
            for (size_t i = 0; t[i]; i += 2) {
                if (i) o[k++] = ' ';
                o[k++] = t[i];
                if (t[i + 1]) o[k++] = t[i + 1];
            }
            o[k] = 0;
            free(t);
            t = o;
        }
        strcat(t, "\n");
        return t;
    }
    if (!strcmp(format, "ggf")) {
        rv_reversi_ggf *ggf = malloc(sizeof *ggf);
        if (!ggf) return NULL;
        rv_reversi_ggf_init(ggf);
        snprintf(ggf->pc, sizeof ggf->pc, "renversi");
        snprintf(ggf->pb, sizeof ggf->pb, "black");
        snprintf(ggf->pw, sizeof ggf->pw, "white");
        if (pg_over(p)) {
            /* GGF results are black's disc difference (empties to the winner); "r" marks a
               resignation. */
            int sc = rv_reversi_score(rpos(p));
            if (rpos(p)->side == RV_WHITE) sc = -sc;
            if (p->resigned)
                snprintf(ggf->re, sizeof ggf->re, "%s64:r", p->resigned == RV_BLACK ? "-" : "+");
            else
                snprintf(ggf->re, sizeof ggf->re, "%+d", sc);
        }
        ggf->start = p->r.start;
        ggf->nmoves = nm;
        for (int i = 0; i < nm; i++) ggf->moves[i].sq = p->r.moves[i];
        size_t need = rv_reversi_ggf_format(ggf, NULL, 0);
        char *t = malloc(need + 2);
        if (t) {
            rv_reversi_ggf_format(ggf, t, need + 1);
            strcat(t, "\n");
        }
        free(ggf);
        return t;
    }
    return NULL;
}

rv_status pg_load(pg_game *p, const char *text, char *why, size_t n) {
    pg_game g;
    char err[160];
    size_t len = strlen(text);
    const char *s = text;
    while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t') s++;
    if (p->reversi) {
        pg_init(&g, "reversi", 8, err, sizeof err);
        rv_reversi_error e;
        memset(&e, 0, sizeof e);
        if (*s == '(') {
            rv_reversi_ggf *ggf = malloc(sizeof *ggf);
            if (!ggf) return RV_ENOMEM;
            rv_status st = rv_reversi_ggf_parse(text, len, ggf, NULL, &e);
            if (st == RV_OK) st = rv_reversi_ggf_game(ggf, &g.r);
            free(ggf);
            if (st != RV_OK) {
                snprintf(why, n, "not a GGF game: %s", e.message[0] ? e.message : rv_strerror(st));
                return st;
            }
        } else {
            uint8_t moves[RV_REVERSI_MAX_PLIES];
            int nm = 0, failed = -1;
            rv_status st = rv_reversi_transcript_parse(text, len, moves, RV_REVERSI_MAX_PLIES, &nm, &e);
            if (st != RV_OK) {
                snprintf(why, n, "not a transcript: %s", e.message[0] ? e.message : rv_strerror(st));
                return st;
            }
            st = rv_reversi_transcript_replay(&g.r, moves, nm, &failed);
            if (st != RV_OK) {
                snprintf(why, n, "move %d of the transcript is illegal", failed + 1);
                return st;
            }
        }
        if (rv_reversi_must_pass(rpos(&g))) rv_reversi_game_play(&g.r, RV_REVERSI_PASS);
        *p = g;
        return RV_OK;
    }
    rv_parse_error e;
    memset(&e, 0, sizeof e);
    rv_gomoku_point *pts = malloc(RV_GOMOKU_MAX_POINTS * sizeof *pts);
    rv_gomoku_psq *psq = malloc(sizeof *psq);
    if (!pts || !psq) return free(pts), free(psq), RV_ENOMEM;
    int nm = 0, size = p->size;
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
        snprintf(why, n, "not a move list or PSQ record: at '%s' expected %s", e.token,
                 e.expected ? e.expected : "a square board");
        return st;
    }
    st = pg_init(&g, p->variant, size, err, sizeof err);
    for (int i = 0; st == RV_OK && i < nm; i++) {
        int kind;
        char w[128];
        st = pg_play_xy(&g, pts[i].x, pts[i].y, w, sizeof w, &kind);
        if (st != RV_OK) snprintf(why, n, "move %d: %s", i + 1, w);
    }
    free(pts);
    if (st != RV_OK) return st;
    *p = g;
    return RV_OK;
}

