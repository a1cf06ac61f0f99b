/* One game of either kind: setup, queries, notation, moves and the result (game.h). */
#include "renversi/game.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

/* ---------------------------------------------------------------- setup */

rv_status rv_game_init(rv_game *g, const char *variant, int size, char *err, size_t errlen) {
    rv_game t;
    memset(&t, 0, sizeof t);
    if (!variant) variant = "renju";
    if (!strcasecmp(variant, "reversi") || !strcasecmp(variant, "othello")) {
        if (size && size != 8) {
            say(err, errlen, "Reversi is played on 8x8 (not %d)", size);
            return RV_ERANGE;
        }
        t.reversi = 1;
        t.size = 8;
        snprintf(t.variant, sizeof t.variant, "reversi");
        rv_reversi_game_init(&t.r, NULL);
    } else {
        rv_gomoku_rule rule;
        if (!strcasecmp(variant, "gomoku")) {
            rule = RV_RULE_FREESTYLE;
        } else if (rv_gomoku_rule_parse(variant, &rule) != RV_OK) {
            say(err, errlen,
                "unknown game '%.32s' (expected gomoku, freestyle, standard, renju, caro, "
                "standard-caro or reversi)",
                variant);
            return RV_EINVAL;
        }
        if (!size) size = 15;
        if (rv_gomoku_init(&t.g, size, size, rule) != RV_OK) {
            say(err, errlen, "board size %d is outside %d..%d", size, RV_GOMOKU_MIN_SIZE,
                RV_GOMOKU_MAX_SIZE);
            return RV_ERANGE;
        }
        t.size = size;
        snprintf(t.variant, sizeof t.variant, "%s", rv_gomoku_rule_name(rule));
    }
    *g = t;
    return RV_OK;
}

static const rv_reversi_pos *rpos(const rv_game *g) { return rv_reversi_game_position(&g->r); }

void rv_game_init_reversi(rv_game *g, const rv_reversi_game *record) {
    memset(g, 0, sizeof *g);
    g->reversi = 1;
    g->size = 8;
    snprintf(g->variant, sizeof g->variant, "reversi");
    g->r = *record;
    if (rv_reversi_must_pass(rpos(g))) rv_reversi_game_play(&g->r, RV_REVERSI_PASS);
}

int rv_game_is_reversi(const rv_game *g) { return g->reversi; }
const char *rv_game_variant(const rv_game *g) { return g->variant; }
int rv_game_size(const rv_game *g) { return g->size; }
const rv_gomoku *rv_game_gomoku(const rv_game *g) { return g->reversi ? NULL : &g->g; }
const rv_reversi_game *rv_game_reversi(const rv_game *g) { return g->reversi ? &g->r : NULL; }

/* ---------------------------------------------------------------- queries */

int rv_game_over(const rv_game *g) {
    if (g->conceded) return 1;
    if (g->reversi) return rv_reversi_is_over(rpos(g));
    rv_gomoku_result r;
    rv_gomoku_get_result(&g->g, &r);
    return r.over;
}

rv_color rv_game_to_move(const rv_game *g) {
    if (rv_game_over(g)) return RV_EMPTY;
    return g->reversi ? rpos(g)->side : rv_gomoku_to_move(&g->g);
}

int rv_game_nmoves(const rv_game *g) {
    return g->reversi ? g->r.nplies : rv_gomoku_move_count(&g->g);
}

int rv_game_is_pass(const rv_game *g, int i) {
    return g->reversi && i >= 0 && i < g->r.nplies && g->r.moves[i] == RV_REVERSI_PASS;
}

rv_color rv_game_move_color(const rv_game *g, int i) {
    if (i < 0 || i >= rv_game_nmoves(g)) return RV_EMPTY;
    if (g->reversi) return g->r.history[i].side;
    return (i % 2) ? RV_WHITE : RV_BLACK;
}

int rv_game_move_xy(const rv_game *g, int i, int *x, int *y) {
    if (i < 0 || i >= rv_game_nmoves(g)) return 0;
    if (g->reversi) {
        int sq = g->r.moves[i];
        if (sq >= 64) return 0;
        *x = sq % 8;
        *y = sq / 8;
        return 1;
    }
    return rv_gomoku_move_at(&g->g, i, x, y) == RV_OK;
}

rv_color rv_game_at(const rv_game *g, int x, int y) {
    if (x < 0 || y < 0 || x >= g->size || y >= g->size) return RV_EMPTY;
    return g->reversi ? rv_reversi_at(rpos(g), y * 8 + x) : rv_gomoku_at(&g->g, x, y);
}

int rv_game_marks(const rv_game *g, uint8_t *marks) {
    int n = g->size, count = 0;
    memset(marks, 0, (size_t)n * n);
    if (rv_game_over(g)) return 0;
    if (g->reversi) {
        for (uint64_t m = rv_reversi_moves(rpos(g)); m; m &= m - 1) {
            marks[rv_bb_first(m)] = RV_MARK_LEGAL;
            count++;
        }
        return count;
    }
    if (rv_gomoku_get_rule(&g->g) != RV_RULE_RENJU || rv_gomoku_to_move(&g->g) != RV_BLACK)
        return 0;
    return rv_gomoku_forbidden_map(&g->g, marks);
}

/* ---------------------------------------------------------------- notation */

void rv_game_point_text(const rv_game *g, int x, int y, char *buf, size_t n) {
    if (x < 0 || y < 0 || x >= g->size || y >= g->size) {
        say(buf, n, "?");
    } else if (g->reversi) {
        char sq[3];
        say(buf, n, "%s", rv_reversi_square_format(y * 8 + x, 0, sq));
    } else if (rv_gomoku_point_format(x, y, g->size, buf, n) < 0) {
        say(buf, n, "?");
    }
}

void rv_game_move_text(const rv_game *g, int i, char *buf, size_t n) {
    int x, y;
    if (rv_game_is_pass(g, i)) say(buf, n, "pass");
    else if (rv_game_move_xy(g, i, &x, &y)) rv_game_point_text(g, x, y, buf, n);
    else say(buf, n, "?");
}

rv_status rv_game_parse_point(const rv_game *g, const char *text, int *x, int *y) {
    while (*text == ' ' || *text == '\t') text++;
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r' ||
                   text[len - 1] == '\n'))
        len--;
    if (g->reversi) {
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
    if (rv_gomoku_point_parse(text, len, g->size, &px, &py) != RV_OK) return RV_EINVAL;
    *x = px;
    *y = py;
    return RV_OK;
}

/* ---------------------------------------------------------------- moves */

static const char *why_status(rv_status st) {
    switch (st) {
    case RV_EOCCUPIED: return "occupied";
    case RV_ERANGE: return "off the board";
    case RV_EOVER: return "the game is over";
    case RV_EILLEGAL: return "it flips nothing";
    default: return rv_strerror(st);
    }
}

static rv_status play(rv_game *g, int x, int y, int forced, char *why, size_t n, int *kind) {
    char t[16];
    if (kind) *kind = 0;
    if (g->conceded) {
        say(why, n, "the game is over");
        return RV_EOVER;
    }
    if (g->reversi) {
        int sq = x < 0 ? RV_REVERSI_PASS : (x >= 8 || y < 0 || y >= 8) ? -1 : y * 8 + x;
        if (sq < 0) {
            say(why, n, "illegal move: off the board");
            return RV_ERANGE;
        }
        if (sq == RV_REVERSI_PASS) snprintf(t, sizeof t, "pass");
        else rv_game_point_text(g, x, y, t, sizeof t);
        rv_status st = rv_reversi_game_play(&g->r, sq);
        if (st != RV_OK) {
            say(why, n, "illegal move %s: %s", t,
                sq == RV_REVERSI_PASS && st == RV_EILLEGAL ? "a move is possible" : why_status(st));
            return st;
        }
        /* The next player has no move but the game goes on: the pass is forced. */
        if (rv_reversi_must_pass(rpos(g))) rv_reversi_game_play(&g->r, RV_REVERSI_PASS);
        return RV_OK;
    }
    if (x < 0 || y < 0 || x >= g->size || y >= g->size) {
        say(why, n, "illegal move: off the board");
        return RV_ERANGE;
    }
    rv_game_point_text(g, x, y, t, sizeof t);
    rv_forbid_kind k = RV_FORBID_NONE;
    rv_status st = forced ? rv_gomoku_play_forced(&g->g, x, y) : rv_gomoku_check(&g->g, x, y, &k);
    if (st == RV_EFORBIDDEN) {
        if (kind) *kind = (int)k;
        say(why, n, "forbidden move %s: %s", t, rv_forbid_name(k));
        return st;
    }
    if (st == RV_OK && !forced) st = rv_gomoku_play(&g->g, x, y);
    if (st != RV_OK) say(why, n, "illegal move %s: %s", t, why_status(st));
    return st;
}

rv_status rv_game_play_xy(rv_game *g, int x, int y, char *why, size_t n, int *kind) {
    return play(g, x, y, 0, why, n, kind);
}

rv_status rv_game_play_forced(rv_game *g, int x, int y, char *why, size_t n) {
    return play(g, x, y, 1, why, n, NULL);
}

rv_status rv_game_play_text(rv_game *g, const char *text, char *why, size_t n, int *kind) {
    int x, y;
    if (kind) *kind = 0;
    if (rv_game_parse_point(g, text, &x, &y) != RV_OK) {
        say(why, n, "'%.20s' is not a move (expected a point like %s)", text,
            g->reversi ? "d3, or pass" : "h8");
        return RV_EINVAL;
    }
    return rv_game_play_xy(g, x, y, why, n, kind);
}

rv_status rv_game_undo(rv_game *g) {
    if (g->conceded) {
        g->conceded = RV_END_NONE;
        g->loser = RV_EMPTY;
        return RV_OK;
    }
    if (!g->reversi) return rv_gomoku_undo(&g->g);
    if (g->r.nplies == 0) return RV_EEMPTY;
    if (g->r.moves[g->r.nplies - 1] == RV_REVERSI_PASS && g->r.nplies > 1)
        rv_reversi_game_undo(&g->r);
    return rv_reversi_game_undo(&g->r);
}

static int moves_of(const rv_game *g, rv_color who) {
    int k = 0;
    for (int i = 0; i < rv_game_nmoves(g); i++)
        k += rv_game_move_color(g, i) == who && !rv_game_is_pass(g, i);
    return k;
}

rv_status rv_game_undo_for(rv_game *g, rv_color who) {
    int have = moves_of(g, who);
    if (have == 0) return RV_EEMPTY;
    rv_game t = *g;
    t.conceded = RV_END_NONE;
    t.loser = RV_EMPTY;
    while (moves_of(&t, who) == have)
        if (rv_game_undo(&t) != RV_OK) return RV_EEMPTY;
    *g = t;
    return RV_OK;
}

static rv_status concede(rv_game *g, rv_color c, rv_game_end how) {
    if (c != RV_BLACK && c != RV_WHITE) return RV_EINVAL;
    if (rv_game_over(g)) return RV_EOVER;
    g->conceded = how;
    g->loser = c;
    return RV_OK;
}

rv_status rv_game_resign(rv_game *g, rv_color c) { return concede(g, c, RV_END_RESIGN); }
rv_status rv_game_lose_on_time(rv_game *g, rv_color c) { return concede(g, c, RV_END_TIME); }

/* ---------------------------------------------------------------- the result */

void rv_game_get_result(const rv_game *g, rv_game_result *out) {
    rv_game_result r;
    memset(&r, 0, sizeof r);
    if (g->reversi) {
        r.discs_black = rv_reversi_count(rpos(g), RV_BLACK);
        r.discs_white = rv_reversi_count(rpos(g), RV_WHITE);
    } else {
        for (int y = 0; y < g->size; y++)
            for (int x = 0; x < g->size; x++) {
                rv_color c = rv_gomoku_at(&g->g, x, y);
                r.discs_black += c == RV_BLACK;
                r.discs_white += c == RV_WHITE;
            }
    }
    r.black = r.discs_black;
    r.white = r.discs_white;
    if (g->conceded) {
        r.end = g->conceded;
        r.loser = g->loser;
        r.winner = rv_opponent(g->loser);
    } else if (g->reversi) {
        if (rv_reversi_is_over(rpos(g))) {
            /* Tournament scoring (shared/spec/othello.md): the empties go to the winner,
               and are shared in a draw. */
            int empties = 64 - r.discs_black - r.discs_white;
            r.end = RV_END_SCORE;
            r.winner = rv_reversi_winner(rpos(g));
            if (r.winner == RV_BLACK) r.black += empties;
            else if (r.winner == RV_WHITE) r.white += empties;
            else r.black += empties / 2, r.white += empties - empties / 2;
        }
    } else {
        rv_gomoku_result gr;
        rv_gomoku_get_result(&g->g, &gr);
        if (gr.over) {
            r.winner = gr.winner;
            r.x0 = gr.x0, r.y0 = gr.y0, r.x1 = gr.x1, r.y1 = gr.y1;
            if (gr.forbidden) {
                r.end = RV_END_FORBIDDEN;
                r.kind = gr.forbid_kind;
                r.length = 1;
            } else if (gr.winner == RV_EMPTY) {
                r.end = RV_END_BOARD_FULL;
            } else {
                int dx = gr.x1 - gr.x0, dy = gr.y1 - gr.y0;
                r.end = RV_END_FIVE;
                r.length = (dx < 0 ? -dx : dx) > (dy < 0 ? -dy : dy) ? (dx < 0 ? -dx : dx) + 1
                                                                     : (dy < 0 ? -dy : dy) + 1;
            }
        }
    }
    *out = r;
}

rv_color rv_game_winner(const rv_game *g) {
    rv_game_result r;
    rv_game_get_result(g, &r);
    return r.winner;
}

static const char *cname(rv_color c) { return c == RV_BLACK ? "black" : "white"; }

size_t rv_game_result_text(const rv_game *g, char *buf, size_t n) {
    rv_game_result r;
    rv_game_get_result(g, &r);
    char a[16], b[16];
    int len = 0;
    switch (r.end) {
    case RV_END_NONE: len = snprintf(buf, n, "%s", ""); break;
    case RV_END_RESIGN:
        len = snprintf(buf, n, "%s wins: %s resigned", cname(r.winner), cname(r.loser));
        break;
    case RV_END_TIME:
        len = snprintf(buf, n, "%s wins: %s lost on time", cname(r.winner), cname(r.loser));
        break;
    case RV_END_SCORE:
        if (r.winner == RV_EMPTY) len = snprintf(buf, n, "draw %d-%d", r.black, r.white);
        else if (r.winner == RV_BLACK) len = snprintf(buf, n, "black wins %d-%d", r.black, r.white);
        else len = snprintf(buf, n, "white wins %d-%d", r.white, r.black);
        break;
    case RV_END_BOARD_FULL: len = snprintf(buf, n, "draw: board full"); break;
    case RV_END_FORBIDDEN:
        rv_game_point_text(g, r.x0, r.y0, a, sizeof a);
        len = snprintf(buf, n, "white wins: black's forbidden move %s (%s)", a, rv_forbid_name(r.kind));
        break;
    case RV_END_FIVE:
        rv_game_point_text(g, r.x0, r.y0, a, sizeof a);
        rv_game_point_text(g, r.x1, r.y1, b, sizeof b);
        len = snprintf(buf, n, "%s wins: %s %s-%s", cname(r.winner),
                       r.length == 5 ? "five" : "overline", a, b);
        break;
    }
    return len < 0 ? 0 : (size_t)len;
}

size_t rv_game_status_text(const rv_game *g, char *buf, size_t n) {
    rv_color c = rv_game_to_move(g);
    if (c == RV_EMPTY) return rv_game_result_text(g, buf, n);
    int len = snprintf(buf, n, "%s to move", cname(c));
    return len < 0 ? 0 : (size_t)len;
}
