/* `renversi play`: the terminal game (docs/play.md). Plain text when stdout is not a
 * terminal, so it can be scripted; ANSI colours when it is. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/tui_board.h"
#include "renversi/game.h"
#include "renversi/core.h"
#include "renversi/game_ai.h"
#include "cli/tui_text.h"

static const char usage[] =
    "usage: renversi play [gomoku|renju|reversi] [--ai black|white|both|none] [--level N]\n"
    "                     [--size N] [--lang en|zh]\n"
    "\n"
    "Plays in the terminal against the computer (or two people at one keyboard with\n"
    "--ai none). Type moves in the game's notation (h8 for Gomoku/Renju, d3 for Reversi)\n"
    "and the commands undo, hint, save FILE, load FILE, new, quit, help.\n"
    "\n"
    "  gomoku|renju|reversi  the game (default renju); also freestyle, standard, caro\n"
    "  --ai SIDE     the computer's side: black, white (default), both or none\n"
    "  --level N     the computer's strength, 1..20 (default 5)\n"
    "  --size N      Gomoku/Renju board size, 5..26 (default 15)\n"
    "  --lang L      en or zh (default: from LANG)\n"
    "Colours are used when stdout is a terminal (and NO_COLOR is not set).\n";

typedef struct tui {
    rv_game game;
    rv_game_ai *ai;
    int ai_mask; /* bit RV_BLACK, bit RV_WHITE */
    int level;
    tui_lang lang;
    int ansi;
    FILE *out;
} tui;

static const char *color_text(tui *t, rv_color c) {
    return tui_text(t->lang, c == RV_BLACK ? M_BLACK : M_WHITE);
}

static const char *kind_text(tui *t, int kind) {
    return tui_text(t->lang, kind == RV_FORBID_DOUBLE_THREE  ? M_DOUBLE_THREE
                             : kind == RV_FORBID_DOUBLE_FOUR ? M_DOUBLE_FOUR
                                                             : M_OVERLINE);
}

/* The result line in the chosen language (English is the judge's wording); both come from
 * the library's one result (rv_game_result). */
static void result_text(tui *t, char *buf, size_t n) {
    rv_game_result r;
    rv_game_get_result(&t->game, &r);
    if (t->lang == TUI_EN) {
        rv_game_result_text(&t->game, buf, n);
        return;
    }
    char wins[64], a[16], b[16], what[160];
    snprintf(wins, sizeof wins, tui_text(t->lang, M_WINS), r.winner ? color_text(t, r.winner) : "");
    switch (r.end) {
    case RV_END_FIVE: {
        char ab[40];
        rv_game_point_text(&t->game, r.x0, r.y0, a, sizeof a);
        rv_game_point_text(&t->game, r.x1, r.y1, b, sizeof b);
        snprintf(ab, sizeof ab, "%s-%s", a, b);
        snprintf(what, sizeof what, tui_text(t->lang, M_FIVE), ab);
        snprintf(buf, n, "%.63s：%.95s", wins, what);
        break;
    }
    case RV_END_FORBIDDEN:
        rv_game_point_text(&t->game, r.x0, r.y0, a, sizeof a);
        snprintf(what, sizeof what, tui_text(t->lang, M_FORBIDDEN_LOSS), a, kind_text(t, r.kind));
        snprintf(buf, n, "%.63s：%.120s", wins, what);
        break;
    case RV_END_RESIGN:
        snprintf(what, sizeof what, tui_text(t->lang, M_RESIGNED), color_text(t, r.loser));
        snprintf(buf, n, "%.63s：%.63s", wins, what);
        break;
    case RV_END_SCORE:
        if (r.winner == RV_EMPTY) snprintf(buf, n, "%s %d-%d", tui_text(t->lang, M_DRAW), r.black, r.white);
        else if (r.winner == RV_BLACK) snprintf(buf, n, "%s %d-%d", wins, r.black, r.white);
        else snprintf(buf, n, "%s %d-%d", wins, r.white, r.black);
        break;
    case RV_END_BOARD_FULL: snprintf(buf, n, "%s", tui_text(t->lang, M_DRAW)); break;
    default: rv_game_result_text(&t->game, buf, n); break;
    }
}

static void show(tui *t) {
    tui_draw(t->out, &t->game, t->ansi, t->lang);
    if (rv_game_over(&t->game)) {
        char r[512];
        result_text(t, r, sizeof r);
        fprintf(t->out, tui_text(t->lang, M_RESULT), r);
    } else {
        fprintf(t->out, tui_text(t->lang, M_TO_MOVE), color_text(t, rv_game_to_move(&t->game)));
    }
    fputc('\n', t->out);
    fflush(t->out);
}

/* Says which forced passes the last action brought (Reversi). */
static void announce_passes(tui *t, int from) {
    for (int i = from; i < rv_game_nmoves(&t->game); i++) {
        char m[16];
        rv_game_move_text(&t->game, i, m, sizeof m);
        if (!strcmp(m, "pass") && i > from) {
            fprintf(t->out, tui_text(t->lang, M_PASSES), color_text(t, rv_game_move_color(&t->game, i)));
            fputc('\n', t->out);
        }
    }
}

/* Plays a typed move; prints why when it is refused. */
static void human_move(tui *t, const char *text) {
    if (rv_game_over(&t->game)) {
        fprintf(t->out, "%s\n", tui_text(t->lang, M_OVER));
        return;
    }
    char why[160];
    int kind, x, y, from = rv_game_nmoves(&t->game);
    if (rv_game_parse_point(&t->game, text, &x, &y) != RV_OK) {
        fprintf(t->out, tui_text(t->lang, M_NOTAMOVE), text);
        fputc('\n', t->out);
        return;
    }
    rv_status st = rv_game_play_xy(&t->game, x, y, why, sizeof why, &kind);
    if (st != RV_OK) {
        char pt[16] = "";
        if (x >= 0) rv_game_point_text(&t->game, x, y, pt, sizeof pt);
        if (x >= 0 && (x >= rv_game_size(&t->game) || y >= rv_game_size(&t->game))) snprintf(pt, sizeof pt, "%s", text);
        switch (st) {
        case RV_EFORBIDDEN: fprintf(t->out, tui_text(t->lang, M_FORBIDDEN), pt, kind_text(t, kind)); break;
        case RV_EOCCUPIED: fprintf(t->out, tui_text(t->lang, M_OCCUPIED), pt); break;
        case RV_ERANGE: fprintf(t->out, tui_text(t->lang, M_OFFBOARD), pt); break;
        case RV_EILLEGAL:
            if (x < 0) fputs(tui_text(t->lang, M_MUSTPLAY), t->out);
            else fprintf(t->out, tui_text(t->lang, M_NOFLIP), pt);
            break;
        default: fprintf(t->out, "%s", why); break;
        }
        fputc('\n', t->out);
        return;
    }
    announce_passes(t, from);
    show(t);
}

static int ai_to_move(tui *t) {
    rv_color c = rv_game_to_move(&t->game);
    return c && (t->ai_mask & c);
}

static int ai_move(tui *t) {
    int x, y, from = rv_game_nmoves(&t->game);
    rv_color me = rv_game_to_move(&t->game);
    if (rv_game_ai_think(t->ai, &t->game, t->level, 5000, &x, &y) != RV_OK) return -1;
    char why[160], m[16];
    int kind;
    if (rv_game_play_xy(&t->game, x, y, why, sizeof why, &kind) != RV_OK) {
        fprintf(stderr, "renversi play: the computer's move was refused: %s\n", why);
        return -1;
    }
    rv_game_move_text(&t->game, from, m, sizeof m);
    fprintf(t->out, tui_text(t->lang, M_AI_PLAYS), color_text(t, me), m);
    fputc('\n', t->out);
    announce_passes(t, from);
    show(t);
    return 0;
}

static void undo(tui *t) {
    int n = rv_game_nmoves(&t->game);
    if (n == 0 && !rv_game_over(&t->game)) {
        fprintf(t->out, "%s\n", tui_text(t->lang, M_NOUNDO));
        return;
    }
    rv_color human = (t->ai_mask & RV_BLACK) ? RV_WHITE : RV_BLACK;
    if (t->ai_mask == 0 || t->ai_mask == 3) {
        rv_game_undo(&t->game);
    } else {
        /* Against the computer: back to my last turn (its answer goes too). */
        if (rv_game_undo_for(&t->game, human) != RV_OK) {
            fprintf(t->out, "%s\n", tui_text(t->lang, M_NOUNDO));
            return;
        }
    }
    fprintf(t->out, "%s\n", tui_text(t->lang, M_UNDONE));
    show(t);
}

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcasecmp(s + a - b, suffix);
}

static void save(tui *t, const char *path) {
    const char *fmt = rv_game_is_reversi(&t->game) ? (ends_with(path, ".ggf") ? "ggf" : "transcript")
                                      : (ends_with(path, ".psq") ? "psq" : "moves");
    char *text = NULL;
    rv_game_export(&t->game, fmt, &text);
    FILE *f = text ? fopen(path, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        fprintf(t->out, tui_text(t->lang, M_CANNOT_SAVE), path);
    } else {
        fprintf(t->out, tui_text(t->lang, M_SAVED), path);
    }
    fputc('\n', t->out);
    free(text);
}

/* The longest record `load` reads, and the longest typed line. */
#define PLAY_MAX_RECORD ((size_t)1 << 20)
#define PLAY_MAX_LINE ((size_t)4096)

/* Loads a record; the game is replaced only when the whole file was read and every move in
 * it is legal (a directory, an unreadable, empty or over-long file changes nothing). */
static void load(tui *t, const char *path) {
    char why[200] = "";
    FILE *f = fopen(path, "r");
    char *buf = f ? malloc(PLAY_MAX_RECORD + 1) : NULL;
    size_t n = 0;
    if (!f) {
        snprintf(why, sizeof why, "%s", strerror(errno));
    } else if (!buf) {
        snprintf(why, sizeof why, "out of memory");
    } else {
        n = fread(buf, 1, PLAY_MAX_RECORD, f);
        if (ferror(f)) snprintf(why, sizeof why, "%s", strerror(errno));
        else if (n == PLAY_MAX_RECORD && getc(f) != EOF)
            snprintf(why, sizeof why, "longer than %zu bytes", PLAY_MAX_RECORD);
    }
    if (f) fclose(f);
    rv_game g = t->game;
    if (!why[0] && rv_game_load(&g, buf, n, why, sizeof why) == RV_OK) {
        t->game = g;
        fprintf(t->out, tui_text(t->lang, M_LOADED), path);
        fputc('\n', t->out);
        free(buf);
        show(t);
        return;
    }
    free(buf);
    fprintf(t->out, tui_text(t->lang, M_CANNOT_LOAD), path, why);
    fputc('\n', t->out);
}

static void hint(tui *t) {
    int x, y;
    if (rv_game_over(&t->game)) {
        fprintf(t->out, "%s\n", tui_text(t->lang, M_OVER));
        return;
    }
    if (rv_game_ai_think(t->ai, &t->game, t->level, 5000, &x, &y) != RV_OK) return;
    char m[16] = "pass";
    if (x >= 0) rv_game_point_text(&t->game, x, y, m, sizeof m);
    fprintf(t->out, tui_text(t->lang, M_HINT), m);
    fputc('\n', t->out);
}

int rv_cmd_play(int argc, char **argv) {
    const char *cmd = argv[0];
    if (rv_cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return RV_EXIT_OK;
    }
    const char *variant = "renju", *ai_side = "white";
    long level = 5, size = 0;
    tui t;
    memset(&t, 0, sizeof t);
    t.lang = tui_lang_from_env();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--ai") && more) ai_side = argv[++i];
        else if (!strcmp(a, "--level") && more) {
            if (rv_cli_parse_int(argv[++i], 1, 20, &level))
                return rv_cli_fail(cmd, "--level '%s': expected 1..20", argv[i]);
        } else if (!strcmp(a, "--size") && more) {
            if (rv_cli_parse_int(argv[++i], 5, 26, &size))
                return rv_cli_fail(cmd, "--size '%s': expected 5..26", argv[i]);
        } else if (!strcmp(a, "--lang") && more) {
            const char *l = argv[++i];
            if (!strncmp(l, "zh", 2)) t.lang = TUI_ZH;
            else if (!strncmp(l, "en", 2)) t.lang = TUI_EN;
            else return rv_cli_fail(cmd, "--lang '%s': expected en or zh", l);
        } else if (a[0] != '-') {
            variant = a;
        } else {
            return rv_cli_fail(cmd, "unknown or incomplete option '%s' (try --help)", a);
        }
    }
    if (!strcmp(ai_side, "black")) t.ai_mask = RV_BLACK;
    else if (!strcmp(ai_side, "white")) t.ai_mask = RV_WHITE;
    else if (!strcmp(ai_side, "both")) t.ai_mask = RV_BLACK | RV_WHITE;
    else if (!strcmp(ai_side, "none")) t.ai_mask = 0;
    else return rv_cli_fail(cmd, "--ai '%s': expected black, white, both or none", ai_side);
    char err[160];
    if (rv_game_init(&t.game, variant, (int)size, err, sizeof err) != RV_OK)
        return rv_cli_fail(cmd, "%s", err);
    t.level = (int)level;
    t.out = stdout;
    t.ansi = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    int prompt = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (t.ai_mask && !(t.ai = rv_game_ai_new())) return rv_cli_fail(cmd, "out of memory");

    const char *v = rv_game_variant(&t.game);
    tui_msg title = rv_game_is_reversi(&t.game)  ? M_TITLE_REVERSI
                    : !strcmp(v, "renju")     ? M_TITLE_RENJU
                    : !strcmp(v, "standard")  ? M_TITLE_STANDARD
                    : !strcmp(v, "freestyle") ? M_TITLE_GOMOKU
                                              : M_TITLE_CARO;
    fprintf(t.out, "renversi: %s\n", tui_text(t.lang, title));
    show(&t);
    char *line = NULL;
    size_t cap = 0;
    int rc = RV_EXIT_OK;
    for (;;) {
        if (t.ai && ai_to_move(&t)) {
            if (ai_move(&t)) break;
            continue;
        }
        if (prompt) {
            rv_color c = rv_game_to_move(&t.game);
            fprintf(t.out, tui_text(t.lang, M_YOUR_MOVE), c ? color_text(&t, c) : "");
            fflush(t.out);
        }
        size_t len;
        rv_status st = rv_line_read(stdin, PLAY_MAX_LINE, &line, &cap, &len);
        if (st == RV_ETOOLONG) {
            /* Not a move nor a command: said so, and the rest of the line is dropped unread. */
            fprintf(t.out, tui_text(t.lang, M_NOTAMOVE), "...");
            fputc('\n', t.out);
            if (rv_line_skip(stdin) == RV_OK) continue;
            break;
        }
        if (st == RV_EIO) {
            rc = rv_cli_fail(cmd, "cannot read standard input: %s", strerror(errno));
            break;
        }
        if (st != RV_OK) break;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        size_t l = strlen(s);
        while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r')) s[--l] = 0;
        if (!*s || *s == '#') continue;
        if (l > 200) {
            fprintf(t.out, tui_text(t.lang, M_NOTAMOVE), "...");
            fputc('\n', t.out);
            continue;
        }
        char word[16] = "";
        sscanf(s, "%15s", word);
        const char *arg = s + strlen(word);
        while (*arg == ' ' || *arg == '\t') arg++;
        if (!strcmp(s, "quit") || !strcmp(s, "exit") || !strcmp(s, "q")) {
            fprintf(t.out, "%s\n", tui_text(t.lang, M_BYE));
            break;
        } else if (!strcmp(s, "help") || !strcmp(s, "?")) {
            fprintf(t.out, "%s\n", tui_text(t.lang, M_HELP));
        } else if (!strcmp(s, "undo")) {
            undo(&t);
        } else if (!strcmp(s, "hint")) {
            if (!t.ai && !(t.ai = rv_game_ai_new())) break;
            hint(&t);
        } else if (!strcmp(s, "new")) {
            rv_game_init(&t.game, rv_game_variant(&t.game), rv_game_size(&t.game), err, sizeof err);
            fprintf(t.out, "%s\n", tui_text(t.lang, M_NEW));
            show(&t);
        } else if (!strcmp(word, "save") && *arg) {
            save(&t, arg);
        } else if (!strcmp(word, "load") && *arg) {
            load(&t, arg);
        } else {
            human_move(&t, s);
        }
        fflush(t.out);
    }
    free(line);
    rv_game_ai_free(t.ai);
    return rc;
}
