/*
 * `renversi nboard`: the NBoard protocol, engine side (docs/protocol-nboard.md,
 * shared/spec/othello.md "NBoard protocol").
 *
 * The main thread reads commands; `go` and `hint` run on a worker thread so
 * that `ping` can stop them at once (rv_reversi_ai_stop) and answer `pong`
 * after the worker has finished.  Every line to stdout goes through out(),
 * under a mutex, and is flushed: the GUI reads a pipe.
 */
#include "proto/nboard.h"

#include "cmdline/cmdline.h"

#include "renversi/core.h"
#include "renversi/reversi.h"
#include "renversi/reversi_ai.h"
#include "renversi/reversi_record.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NB_NAME "renversi"
#define NB_DEFAULT_DEPTH 12
#define NB_MAX_LINE (1L << 20)

typedef struct nb_job {
    int kind; /* 'g' go, 'h' hint */
    int hints;
    rv_reversi_pos pos;
    rv_reversi_limits limits;
} nb_job;

typedef struct nboard {
    rv_reversi_ai *ai;
    rv_reversi_game game;
    int depth, max_depth;
    FILE *out;
    pthread_mutex_t out_lock;
    pthread_t worker;
    int busy; /* a worker thread exists and has not been joined */
    nb_job job;
} nboard;

static void out(nboard *nb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(nboard *nb, const char *fmt, ...) {
    va_list ap;
    pthread_mutex_lock(&nb->out_lock);
    va_start(ap, fmt);
    vfprintf(nb->out, fmt, ap);
    va_end(ap);
    fputc('\n', nb->out);
    fflush(nb->out);
    pthread_mutex_unlock(&nb->out_lock);
}

/* An evaluation in discs with two decimals, as NBoard shows it. */
static void fmt_eval(char *buf, size_t n, int centi) {
    int a = centi < 0 ? -centi : centi;
    snprintf(buf, n, "%s%d.%02d", centi < 0 ? "-" : "", a / 100, a % 100);
}

static void *nb_work(void *arg) {
    nboard *nb = arg;
    nb_job *j = &nb->job;
    double t0 = rv_clock_seconds();
    out(nb, "status " NB_NAME " is thinking");
    if (j->kind == 'g') {
        rv_reversi_ai_info info;
        rv_status s = rv_reversi_ai_think(nb->ai, &j->pos, &j->limits, &info);
        if (s != RV_OK) {
            out(nb, "status no move: %s", s == RV_EOVER ? "the game is over" : rv_strerror(s));
        } else {
            char sq[3], ev[16];
            fmt_eval(ev, sizeof ev, info.eval_centi);
            out(nb, "nodestats %llu %.3f", (unsigned long long)info.nodes, info.seconds);
            out(nb, "=== %s/%s/%.3f", rv_reversi_square_format(info.move, 1, sq), ev,
                rv_clock_seconds() - t0);
        }
    } else {
        rv_reversi_move_eval ev[32];
        int n = 0;
        rv_status s = rv_reversi_ai_eval_moves(nb->ai, &j->pos, &j->limits, ev,
                                               j->hints < 32 ? j->hints : 32, &n);
        if (s != RV_OK) {
            out(nb, "status no hint: %s", s == RV_EOVER ? "the game is over" : rv_strerror(s));
        } else if (n == 0) {
            out(nb, "search PA 0.00 0 0");
        } else {
            for (int i = 0; i < n; i++) {
                char sq[3], e[16], d[8];
                fmt_eval(e, sizeof e, ev[i].eval_centi);
                if (ev[i].exact) snprintf(d, sizeof d, "100%%");
                else snprintf(d, sizeof d, "%d", ev[i].depth);
                out(nb, "search %s %s 0 %s", rv_reversi_square_format(ev[i].move, 1, sq), e, d);
            }
        }
        if (s == RV_OK)
            out(nb, "nodestats %llu %.3f", (unsigned long long)rv_reversi_ai_nodes(nb->ai),
                rv_clock_seconds() - t0);
    }
    out(nb, "status " NB_NAME " is waiting");
    return NULL;
}

/* Stops a running go/hint and waits for it (its answer is sent first). */
static void nb_stop(nboard *nb) {
    if (!nb->busy) return;
    rv_reversi_ai_stop(nb->ai);
    pthread_join(nb->worker, NULL);
    nb->busy = 0;
}

static void nb_start(nboard *nb, int kind, int hints) {
    nb_stop(nb);
    nb->job.kind = kind;
    nb->job.hints = hints;
    nb->job.pos = *rv_reversi_game_position(&nb->game);
    nb->job.limits = (rv_reversi_limits){0, nb->depth, 0};
    if (pthread_create(&nb->worker, NULL, nb_work, nb) == 0) nb->busy = 1;
    else nb_work(nb); /* no thread: answer synchronously */
}

/* The text after the first n words of s (and the blanks after them). */
static const char *after_words(const char *s, int n) {
    while (n-- > 0) {
        while (*s == ' ' || *s == '\t') s++;
        while (*s && *s != ' ' && *s != '\t') s++;
    }
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

static void nb_move(nboard *nb, const char *arg) {
    size_t len = strcspn(arg, "/ \t");
    int sq;
    if (len != 2 || rv_reversi_square_parse(arg, len, &sq) != RV_OK) {
        out(nb, "status illegal move from GUI: '%.*s' is not a square", (int)(len > 8 ? 8 : len),
            arg);
        return;
    }
    rv_status s = rv_reversi_game_play(&nb->game, sq);
    if (s != RV_OK) {
        char name[3];
        out(nb, "status illegal move from GUI: %s (%s)", rv_reversi_square_format(sq, 1, name),
            rv_strerror(s));
    }
}

static void nb_set_game(nboard *nb, const char *ggf_text) {
    rv_reversi_ggf *ggf = malloc(sizeof *ggf);
    rv_reversi_game *g = malloc(sizeof *g);
    rv_reversi_error err;
    if (!ggf || !g) {
        out(nb, "status error: out of memory");
    } else if (rv_reversi_ggf_parse(ggf_text, strlen(ggf_text), ggf, NULL, &err) != RV_OK) {
        out(nb, "status error: bad GGF in set game: %s", err.message);
    } else if (rv_reversi_ggf_game(ggf, g) != RV_OK) {
        out(nb, "status error: bad GGF in set game: a move is illegal");
    } else {
        nb->game = *g;
    }
    free(ggf);
    free(g);
}

static void nb_command(nboard *nb, const char *line) {
    char w1[16] = "", w2[16] = "";
    sscanf(line, "%15s %15s", w1, w2);
    if (strcmp(w1, "nboard") == 0) {
        /* starts the session; the protocol wants no answer */
    } else if (strcmp(w1, "ping") == 0) {
        nb_stop(nb);
        out(nb, "pong %s", after_words(line, 1));
    } else if (strcmp(w1, "go") == 0) {
        nb_start(nb, 'g', 0);
    } else if (strcmp(w1, "hint") == 0) {
        long n = 1;
        if (rv_cli_parse_int(w2, 1, 64, &n) != 0) n = 1;
        nb_start(nb, 'h', (int)n);
    } else if (strcmp(w1, "move") == 0) {
        nb_stop(nb);
        nb_move(nb, after_words(line, 1));
    } else if (strcmp(w1, "learn") == 0) {
        nb_stop(nb);
        out(nb, "learned");
    } else if (strcmp(w1, "set") == 0) {
        nb_stop(nb);
        const char *arg = after_words(line, 2);
        long v;
        if (strcmp(w2, "depth") == 0) {
            if (rv_cli_parse_int(arg, 1, 60, &v) == 0) {
                nb->depth = (int)v < nb->max_depth ? (int)v : nb->max_depth;
                out(nb, "set myname " NB_NAME "%d", nb->depth);
            } else {
                out(nb, "status error: set depth wants 1..60, got '%.20s'", arg);
            }
        } else if (strcmp(w2, "game") == 0) {
            nb_set_game(nb, arg);
        } else if (strcmp(w2, "contempt") == 0) {
            if (rv_cli_parse_int(arg, -6400, 6400, &v) == 0)
                rv_reversi_ai_set_contempt(nb->ai, (int)v);
            else out(nb, "status error: set contempt wants centidiscs, got '%.20s'", arg);
        }
        /* other "set" lines (time controls, ...) are ignored */
    }
    /* unknown commands are ignored (protocol rule) */
}

int rv_nboard_run(FILE *in, FILE *outf, int max_depth, size_t tt_mb) {
    nboard *nb = calloc(1, sizeof *nb);
    if (!nb) return -1;
    nb->ai = rv_reversi_ai_new(tt_mb << 20);
    if (!nb->ai) {
        free(nb);
        return -1;
    }
    nb->out = outf;
    nb->max_depth = max_depth < 1 ? 1 : max_depth > 60 ? 60 : max_depth;
    nb->depth = NB_DEFAULT_DEPTH < nb->max_depth ? NB_DEFAULT_DEPTH : nb->max_depth;
    rv_reversi_game_init(&nb->game, NULL);
    pthread_mutex_init(&nb->out_lock, NULL);
    char *buf = NULL;
    size_t cap = 0;
    long len;
    while ((len = rv_cli_getline(&buf, &cap, in)) >= 0) {
        if (len > NB_MAX_LINE) continue; /* far too long for any command: ignored */
        if (strcmp(buf, "quit") == 0) break;
        nb_command(nb, buf);
    }
    /* End of input: let a running go/hint finish its answer. */
    if (nb->busy) {
        pthread_join(nb->worker, NULL);
        nb->busy = 0;
    }
    free(buf);
    pthread_mutex_destroy(&nb->out_lock);
    rv_reversi_ai_free(nb->ai);
    free(nb);
    return 0;
}

int rv_cmd_nboard(int argc, char **argv) {
    static const char help[] =
        "usage: renversi nboard [--hash MB]\n"
        "\n"
        "Runs the Othello engine as an NBoard-protocol engine on stdin/stdout\n"
        "(docs/protocol-nboard.md): nboard, set depth, set game, set contempt, move,\n"
        "hint, go, ping, learn. The search depth defaults to 12; positions with at\n"
        "most twice the depth empty squares (up to 26) are solved exactly.\n";
    if (rv_cli_wants_help(argc, argv)) {
        fputs(help, stdout);
        return RV_EXIT_OK;
    }
    long hash = 64;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--hash") == 0 && i + 1 < argc) {
            if (rv_cli_parse_int(argv[++i], 1, 65536, &hash) != 0)
                return rv_cli_fail("nboard", "--hash: expected 1..65536 MB, got '%s'", argv[i]);
        } else {
            return rv_cli_fail("nboard", "unknown argument '%s' (see renversi nboard --help)",
                               argv[i]);
        }
    }
    if (rv_nboard_run(stdin, stdout, 60, (size_t)hash) != 0)
        return rv_cli_fail("nboard", "out of memory for a %ld MB table", hash);
    return RV_EXIT_OK;
}
