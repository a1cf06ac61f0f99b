/*
 * `renversi match`: plays two engines against each other over N games with
 * alternating colours from an opening set, refereeing every move, and reports
 * W/D/L, the score and an Elo difference with its 95% interval.
 */
#include <math.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline/cmdline.h"
#include "match/match.h"
#include "renversi/gomoku_record.h"
#include "renversi/reversi_record.h"

#define MAX_OPENINGS 4096
#define MAX_OPENING_MOVES 32

typedef struct opening {
    int n;
    rv_gomoku_point mv[MAX_OPENING_MOVES]; /* Gomoku */
    uint8_t sq[60];                        /* Othello squares */
} opening;

typedef struct match {
    engine_spec spec[2];
    match_setup setup; /* game kind, rule, size, time control, depth */
    int reversi;       /* --game reversi */
    rv_gomoku_rule rule;
    int size, games, concurrency, quiet;
    int size_given, rule_given;
    opening *open;
    int nopen;
    const char *save; /* PSQ file prefix, or NULL */
    pthread_mutex_t lock;
    int next, done;
    int w, d, l; /* from the first engine's point of view */
    int illegal, timeouts, crashes;
    int failed;      /* a worker could not start its engines */
    int save_failed; /* a game could not be written */
} match;


/* Notes a record that could not be written (the match then exits non-zero). */
static void save_error(match *m, const char *path) {
    fprintf(stderr, "renversi match: cannot write %s: %s\n", path, strerror(errno));
    pthread_mutex_lock(&m->lock);
    m->save_failed = 1;
    pthread_mutex_unlock(&m->lock);
}

/* Writes text to path (mode "w" or "a"); 0 on success, every step checked. */
static int write_file(const char *path, const char *mode, const char *text) {
    FILE *f = fopen(path, mode);
    if (!f) return -1;
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* Game i as PREFIX<i>.psq: the moves with their times (Piskvork's format). */
static void save_psq(match *m, int index, const rv_game *g, const int32_t *t) {
    rv_gomoku_psq *psq = malloc(sizeof *psq);
    char *buf = malloc(64 * 1024);
    char path[4096];
    snprintf(path, sizeof path, "%s%03d.psq", m->save, index + 1);
    if (!psq || !buf) {
        errno = ENOMEM;
        save_error(m, path);
        goto out;
    }
    psq->width = psq->height = m->size;
    psq->nmoves = rv_game_nmoves(g);
    for (int k = 0; k < psq->nmoves; k++) {
        rv_game_move_xy(g, k, &psq->moves[k].x, &psq->moves[k].y);
        psq->time_ms[k] = t[k];
    }
    rv_gomoku_psq_write(psq, buf, 64 * 1024);
    if (write_file(path, "w", buf) != 0) save_error(m, path);
out:
    free(psq);
    free(buf);
}

/* Appends game i to PREFIX.ggf (GGF holds many games, one per line); the result is
 * rv_game's: black's score with the empties to the winner, ":r"/":t" for a forfeit. */
static void save_ggf(match *m, const engine *black, const engine *white, const rv_game *g,
                     const int32_t *t) {
    rv_reversi_ggf *ggf = malloc(sizeof *ggf);
    char *buf = malloc(16384);
    char path[4096];
    snprintf(path, sizeof path, "%s.ggf", m->save);
    if (!ggf || !buf) {
        errno = ENOMEM;
        save_error(m, path);
        goto out;
    }
    const rv_reversi_game *rg = rv_game_reversi(g);
    rv_reversi_ggf_init(ggf);
    snprintf(ggf->pc, sizeof ggf->pc, "renversi match");
    snprintf(ggf->pb, sizeof ggf->pb, "%.60s", black->spec->name);
    snprintf(ggf->pw, sizeof ggf->pw, "%.60s", white->spec->name);
    rv_game_result r;
    rv_game_get_result(g, &r);
    if (r.end == RV_END_SCORE)
        snprintf(ggf->re, sizeof ggf->re, "%+d", r.black - r.white);
    else
        snprintf(ggf->re, sizeof ggf->re, "%s:%c", r.winner == RV_BLACK ? "+64" : "-64",
                 r.end == RV_END_TIME ? 't' : 'r');
    ggf->start = rg->start;
    ggf->nmoves = rg->nplies;
    for (int k = 0; k < rg->nplies; k++) {
        memset(&ggf->moves[k], 0, sizeof ggf->moves[k]);
        ggf->moves[k].sq = rg->moves[k];
        ggf->moves[k].has_time = 1;
        ggf->moves[k].seconds = t[k] / 1000.0;
    }
    rv_reversi_ggf_format(ggf, buf, 16384);
    size_t len = strlen(buf);
    buf[len] = '\n';
    buf[len + 1] = '\0';
    /* the file was emptied at the start; games from both workers append whole lines */
    pthread_mutex_lock(&m->lock);
    int bad = write_file(path, "a", buf) != 0;
    pthread_mutex_unlock(&m->lock);
    if (bad) save_error(m, path);
out:
    free(ggf);
    free(buf);
}

/* A new game of the match's kind with opening o played. */
static void new_game(const match *m, const opening *o, rv_game *g) {
    if (m->reversi) {
        rv_reversi_game *rg = malloc(sizeof *rg);
        if (!rg) return;
        rv_reversi_game_init(rg, NULL);
        for (int k = 0; k < o->n; k++) rv_reversi_game_play(rg, o->sq[k]);
        rv_game_init_reversi(g, rg);
        free(rg);
        return;
    }
    rv_game_init(g, rv_gomoku_rule_name(m->rule), m->size, NULL, 0);
    for (int k = 0; k < o->n; k++) rv_game_play_forced(g, o->mv[k].x, o->mv[k].y, NULL, 0);
}

static void *worker(void *arg) {
    match *m = arg;
    engine e[2];
    if (engine_start(&e[0], &m->spec[0], m->reversi) != 0 ||
        engine_start(&e[1], &m->spec[1], m->reversi) != 0) {
        pthread_mutex_lock(&m->lock);
        m->failed = 1;
        pthread_mutex_unlock(&m->lock);
        return NULL;
    }
    rv_game *g = malloc(sizeof *g);
    int32_t *times = malloc(sizeof *times * RV_GOMOKU_MAX_POINTS);
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int i = m->next < m->games && !m->failed ? m->next++ : -1;
        pthread_mutex_unlock(&m->lock);
        if (i < 0 || !g || !times) break;
        /* game 2k and 2k+1 share opening k, the first engine taking black then white */
        const opening *o = &m->open[(i / 2) % m->nopen];
        int first_black = i % 2 == 0;
        engine *black = first_black ? &e[0] : &e[1], *white = first_black ? &e[1] : &e[0];
        if (black->ai) rv_gomoku_ai_clear(black->ai);
        if (white->ai) rv_gomoku_ai_clear(white->ai);
        if (black->rai) rv_reversi_ai_clear(black->rai);
        if (white->rai) rv_reversi_ai_clear(white->rai);
        game_result res;
        new_game(m, o, g);
        match_game(black, white, &m->setup, g, times, &res);
        if (m->save) {
            if (m->reversi) save_ggf(m, black, white, g, times);
            else save_psq(m, i, g, times);
        }
        /* an engine that lost on time, crashed or broke the protocol may still be busy
           with that game, or out of step: it starts the next game as a fresh process */
        if (res.how >= END_ILLEGAL) {
            engine *loser = res.winner == 1 ? white : black;
            if (loser->pid > 0 && engine_restart(loser) != 0) {
                pthread_mutex_lock(&m->lock);
                m->failed = 1;
                pthread_mutex_unlock(&m->lock);
            }
        }
        int first_result = res.winner == 0 ? 0 : (res.winner == 1) == first_black ? 1 : -1;
        pthread_mutex_lock(&m->lock);
        if (first_result > 0)
            m->w++;
        else if (first_result < 0)
            m->l++;
        else
            m->d++;
        if (res.how == END_ILLEGAL || res.how == END_FORBIDDEN) m->illegal++;
        if (res.how == END_TIME) m->timeouts++;
        if (res.how == END_CRASH) m->crashes++;
        m->done++;
        /* a natural end in the judge's words (rv_game), a forfeit with its reason */
        if (!m->quiet)
            fprintf(stderr, "game %d/%d: %s (black) vs %s: %s%s, %d moves  [+%d =%d -%d]\n",
                    i + 1, m->games, black->spec->name, white->spec->name,
                    res.how >= END_ILLEGAL ? (res.winner == 1 ? "black wins: " : "white wins: ")
                                           : "",
                    res.detail, rv_game_nmoves(g), m->w, m->d, m->l);
        pthread_mutex_unlock(&m->lock);
    }
    free(g);
    free(times);
    engine_stop(&e[0]);
    engine_stop(&e[1]);
    return NULL;
}

/* Elo difference for a score fraction p (0 < p < 1). */
static double elo(double p) { return -400.0 * log10(1.0 / p - 1.0); }

static void print_summary(const match *m) {
    int n = m->w + m->d + m->l;
    double p = n ? (m->w + 0.5 * m->d) / n : 0.5;
    printf("%s vs %s: %d games, +%d =%d -%d, score %.1f/%d (%.1f%%)\n", m->spec[0].name,
           m->spec[1].name, n, m->w, m->d, m->l, m->w + 0.5 * m->d, n, 100.0 * p);
    printf("illegal moves: %d, time losses: %d, crashes: %d\n", m->illegal, m->timeouts,
           m->crashes);
    if (n == 0) return;
    /* the 95% interval from the per-game score variance (normal approximation) */
    double var = (m->w * (1 - p) * (1 - p) + m->d * (0.5 - p) * (0.5 - p) + m->l * p * p) / n;
    double se = sqrt(var / n);
    double lo = p - 1.96 * se, hi = p + 1.96 * se;
    if (p <= 0.0 || p >= 1.0) {
        printf("elo: %sinf (95%% interval unbounded: no %s)\n", p >= 1.0 ? "+" : "-",
               p >= 1.0 ? "loss or draw" : "win or draw");
        return;
    }
    char los[32], his[32];
    if (lo <= 0)
        snprintf(los, sizeof los, "-inf");
    else
        snprintf(los, sizeof los, "%+.0f", elo(lo));
    if (hi >= 1)
        snprintf(his, sizeof his, "+inf");
    else
        snprintf(his, sizeof his, "%+.0f", elo(hi));
    if (lo > 0 && hi < 1)
        printf("elo: %+.0f +- %.0f (95%% interval %s..%s)\n", elo(p), (elo(hi) - elo(lo)) / 2, los,
               his);
    else
        printf("elo: %+.0f (95%% interval %s..%s)\n", elo(p), los, his);
}

static int load_openings(match *m, const char *path) {
    FILE *f = rv_cli_open(path);
    if (!f) return rv_cli_fail("match", "cannot open openings file '%s'", path);
    char *line = NULL;
    size_t cap = 0, len;
    long lineno = 0;
    int rc_bad, got;
    while ((got = rv_cli_read_line("match", path, f, &line, &cap, &len, &lineno)) > 0) {
        if (rv_cli_skip_line(line)) continue;
        if (m->nopen >= MAX_OPENINGS) break;
        opening *o = &m->open[m->nopen];
        if (m->reversi) {
            rv_reversi_error rerr;
            rv_reversi_game *rg = malloc(sizeof *rg);
            rv_status rs =
                rg ? rv_reversi_transcript_parse(line, (size_t)len, o->sq, 60, &o->n, &rerr)
                   : RV_ENOMEM;
            int failed = 0;
            if (rs == RV_OK) {
                rv_reversi_game_init(rg, NULL);
                for (int k = 0; rs == RV_OK && k < o->n; k++)
                    rs = rv_reversi_game_play(rg, o->sq[k]);
                if (rs == RV_OK && rv_reversi_is_over(rv_reversi_game_position(rg))) failed = 1;
            }
            free(rg);
            if (rs != RV_OK || failed) {
                long bad_line = lineno;
                free(line);
                if (f != stdin) fclose(f);
                return rv_cli_fail("match", "%s:%ld: bad opening (%s)", path, bad_line,
                                   rs != RV_OK ? rv_strerror(rs) : "the game is already over");
            }
            m->nopen++;
            continue;
        }
        rv_parse_error err;
        rv_status s = rv_gomoku_moves_parse(line, (size_t)len, m->size, o->mv, MAX_OPENING_MOVES,
                                            &o->n, &err);
        rv_gomoku g;
        rv_gomoku_init(&g, m->size, m->size, m->rule);
        for (int i = 0; s == RV_OK && i < o->n; i++) s = rv_gomoku_play(&g, o->mv[i].x, o->mv[i].y);
        rv_gomoku_result r;
        rv_gomoku_get_result(&g, &r);
        if (s != RV_OK || r.over) {
            rc_bad = rv_cli_fail("match", "%s:%ld: bad opening '%.60s' (%s)", path, lineno, line,
                                 s != RV_OK ? rv_strerror(s) : "the game is already over");
            free(line);
            if (f != stdin) fclose(f);
            return rc_bad;
        }
        m->nopen++;
    }
    free(line);
    if (f != stdin) fclose(f);
    if (got < 0) return RV_EXIT_BAD;
    if (m->nopen == 0) return rv_cli_fail("match", "no openings in '%s'", path);
    return 0;
}

static const char help[] =
    "usage: renversi match [OPTIONS] ENGINE1 ENGINE2\n"
    "\n"
    "Plays ENGINE1 against ENGINE2 over N games (Gomoku/Renju or Othello), alternating\n"
    "colours on each opening, refereeing every move. ENGINE is\n"
    "  level:N       the built-in engine at level 1..20 (Othello: level:N:simple\n"
    "                plays with the hand-weighted evaluation instead of the fitted one)\n"
    "  pbrain:CMD    an external Gomocup brain started with `sh -c CMD` (Gomoku)\n"
    "  nboard:CMD    an external NBoard engine started with `sh -c CMD` (Othello)\n"
    "Progress goes to stderr; the result (W/D/L from ENGINE1's side, score, Elo\n"
    "difference with its 95% interval, illegal moves, time losses) to stdout.\n"
    "\n"
    "  --game G         gomoku (default) or reversi (Othello)\n"
    "  --rule R         freestyle (default), standard, renju, caro, standard-caro\n"
    "  --size N         board size (default 15)\n"
    "  --games N        number of games (default 2)\n"
    "  --openings FILE  one move list per line (default: Gomoku, the 26 classical 3-stone\n"
    "                   openings; Othello, every 4-ply line from f5)\n"
    "  --tc MS          time per move in milliseconds\n"
    "  --tc-game MS     time per game in milliseconds (with or without --tc)\n"
    "  --depth N        Othello: `set depth N` for NBoard engines (default 12 without\n"
    "                   a time control; with one, no depth unless given)\n"
    "  --tolerance MS   lateness forgiven before a time loss (default 100)\n"
    "  --concurrency N  games played at once, 1 or 2 (default 1)\n"
    "  --save PREFIX    Gomoku: each game as PREFIX001.psq, ...; Othello: PREFIX.ggf\n"
    "                   (a record that cannot be written makes the exit status 1)\n"
    "  --quiet          no per-game progress\n";

int rv_cmd_match(int argc, char **argv) {
    match *m = calloc(1, sizeof *m);
    if (!m) return rv_cli_fail("match", "out of memory");
    m->size = 15;
    m->games = 2;
    m->concurrency = 1;
    m->rule = RV_RULE_FREESTYLE;
    m->setup.tc.tolerance_ms = 100;
    const char *openings = NULL, *eng[2] = {NULL, NULL};
    int neng = 0, rc = RV_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(help, stdout);
            free(m);
            return RV_EXIT_OK;
        }
        if (strcmp(a, "--quiet") == 0) {
            m->quiet = 1;
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            if (i + 1 >= argc) {
                rc = rv_cli_fail("match", "%s needs a value", a);
                goto out;
            }
            const char *val = argv[++i];
            if (strcmp(a, "--game") == 0) {
                if (strcmp(val, "reversi") == 0 || strcmp(val, "othello") == 0)
                    m->reversi = 1;
                else if (strcmp(val, "gomoku") != 0) {
                    rc =
                        rv_cli_fail("match", "unknown game '%s' (expected gomoku or reversi)", val);
                    goto out;
                }
            } else if (strcmp(a, "--rule") == 0) {
                m->rule_given = 1;
                if (rv_gomoku_rule_parse(val, &m->rule) != RV_OK) {
                    rc = rv_cli_fail("match", "unknown rule '%s'", val);
                    goto out;
                }
            } else if (strcmp(a, "--openings") == 0)
                openings = val;
            else if (strcmp(a, "--save") == 0)
                m->save = val;
            else {
                long lo = 0, hi = 1000000000;
                if (strcmp(a, "--size") == 0)
                    lo = RV_GOMOKU_MIN_SIZE, hi = RV_GOMOKU_MAX_SIZE;
                else if (strcmp(a, "--games") == 0)
                    lo = 1, hi = 1000000;
                else if (strcmp(a, "--concurrency") == 0)
                    lo = 1, hi = 2;
                else if (strcmp(a, "--depth") == 0)
                    lo = 1, hi = 60;
                else if (strcmp(a, "--tc") != 0 && strcmp(a, "--tc-game") != 0 &&
                         strcmp(a, "--tolerance") != 0) {
                    rc = rv_cli_fail("match", "unknown option '%s' (try --help)", a);
                    goto out;
                }
                if (rv_cli_parse_int(val, lo, hi, &v) != 0) {
                    rc = rv_cli_fail("match", "%s expects %ld..%ld, got '%s'", a, lo, hi, val);
                    goto out;
                }
                if (strcmp(a, "--size") == 0)
                    m->size = (int)v, m->size_given = 1;
                else if (strcmp(a, "--depth") == 0)
                    m->setup.depth = (int)v;
                else if (strcmp(a, "--games") == 0)
                    m->games = (int)v;
                else if (strcmp(a, "--concurrency") == 0)
                    m->concurrency = (int)v;
                else if (strcmp(a, "--tc") == 0)
                    m->setup.tc.turn_ms = v;
                else if (strcmp(a, "--tc-game") == 0)
                    m->setup.tc.game_ms = v;
                else
                    m->setup.tc.tolerance_ms = v;
            }
        } else if (neng < 2) {
            eng[neng++] = a;
        } else {
            rc = rv_cli_fail("match", "more than two engines given");
            goto out;
        }
    }
    if (neng != 2) {
        rc = rv_cli_fail("match", "need two engines, e.g. level:10 level:3 (try --help)");
        goto out;
    }
    for (int k = 0; k < 2; k++)
        if (engine_spec_parse(eng[k], &m->spec[k]) != 0 ||
            m->spec[k].kind == (m->reversi ? ENG_PBRAIN : ENG_NBOARD) ||
            (m->spec[k].simple_eval && !m->reversi)) {
            rc = rv_cli_fail("match", "bad engine '%s' (expected level:1..20%s or %s:CMD)", eng[k],
                             m->reversi ? "[:simple]" : "", m->reversi ? "nboard" : "pbrain");
            goto out;
        }
    /* Othello is 8x8 with its one rule: a size or rule would be silently ignored */
    if (m->reversi && m->size_given && m->size != 8) {
        rc = rv_cli_fail("match", "--size %d: Othello is played on 8x8 only", m->size);
        goto out;
    }
    if (m->reversi && m->rule_given) {
        rc = rv_cli_fail("match", "--rule is for Gomoku; Othello has one rule");
        goto out;
    }
    if (!m->reversi && m->setup.depth) {
        rc = rv_cli_fail("match", "--depth is for Othello (NBoard engines); Gomocup brains "
                                  "think by the clock");
        goto out;
    }
    if (m->reversi) m->size = 8;
    m->setup.reversi = m->reversi;
    m->setup.rule = m->rule;
    m->setup.size = m->size;
    /* the games are rv_game's: ask it whether it plays this variant on this board */
    rv_game *probe = malloc(sizeof *probe);
    char why[160] = "";
    rv_status ps = !probe ? RV_ENOMEM
                   : m->reversi
                       ? RV_OK
                       : rv_game_init(probe, rv_gomoku_rule_name(m->rule), m->size, why, sizeof why);
    free(probe);
    if (ps != RV_OK) {
        rc = rv_cli_fail("match", "cannot play %s on %dx%d%s%s", rv_gomoku_rule_name(m->rule),
                         m->size, m->size, why[0] ? ": " : "", why);
        goto out;
    }
    m->open = calloc(MAX_OPENINGS, sizeof *m->open);
    if (!m->open) {
        rc = rv_cli_fail("match", "out of memory");
        goto out;
    }
    if (openings) {
        if ((rc = load_openings(m, openings)) != 0) goto out;
    } else if (m->reversi) {
        uint8_t four[512][4];
        m->nopen = match_reversi_openings(four, 512);
        for (int k = 0; k < m->nopen; k++) {
            m->open[k].n = 4;
            memcpy(m->open[k].sq, four[k], 4);
        }
    } else {
        rv_gomoku_point tri[64][3];
        m->nopen = match_builtin_openings(m->size, tri, 64);
        for (int k = 0; k < m->nopen; k++) {
            m->open[k].n = 3;
            memcpy(m->open[k].mv, tri[k], sizeof tri[k]);
        }
    }
    if (m->save) {
        /* find out now, not after the match, that the records cannot be written: Othello's
           file is created empty; Gomoku's first file is tried and removed again */
        char path[4096];
        snprintf(path, sizeof path, m->reversi ? "%s.ggf" : "%s001.psq", m->save);
        FILE *f = fopen(path, "w");
        if (!f || fclose(f) != 0) {
            rc = rv_cli_fail("match", "--save: cannot write '%s': %s", path, strerror(errno));
            goto out;
        }
        if (!m->reversi) remove(path);
    }
    signal(SIGPIPE, SIG_IGN); /* a brain that dies mid-write is a crash, not ours */
    if (engine_guard_signals() != 0) {
        rc = rv_cli_fail("match", "cannot set up signal handling");
        goto out;
    }
    pthread_mutex_init(&m->lock, NULL);
    pthread_t th[2];
    int started = 0;
    for (int k = 0; k < m->concurrency; k++)
        if (pthread_create(&th[k], NULL, worker, m) == 0) started++;
    if (started == 0) worker(m);
    for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
    pthread_mutex_destroy(&m->lock);
    if (m->failed && m->done < m->games) {
        rc = rv_cli_fail("match", "could not start the engines");
        goto out;
    }
    print_summary(m);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        rc = rv_cli_fail("match", "cannot write the result: %s", strerror(errno));
        goto out;
    }
    if (m->save_failed) rc = 1; /* each failure was named on stderr */
out:
    free(m->open);
    free(m);
    return rc;
}
