/*
 * `renversi match`: plays two engines against each other over N games with
 * alternating colours from an opening set, refereeing every move, and reports
 * W/D/L, the score and an Elo difference with its 95% interval.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/match.h"
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
    int reversi; /* --game reversi */
    rv_gomoku_rule rule;
    int size, games, concurrency, quiet;
    match_tc tc;
    opening *open;
    int nopen;
    const char *save; /* PSQ file prefix, or NULL */
    pthread_mutex_t lock;
    int next, done;
    int w, d, l; /* from the first engine's point of view */
    int illegal, timeouts, crashes;
    int failed; /* a worker could not start its engines */
} match;

static const char *how_name(int how) {
    static const char *names[] = {"",     "five", "draw", "forbidden move", "illegal move",
                                  "time", "crash"};
    return names[how];
}

static void save_psq(match *m, int index, const rv_gomoku_point *mv, const int32_t *t, int n) {
    rv_gomoku_psq *psq = malloc(sizeof *psq);
    char *buf = malloc(64 * 1024);
    if (!psq || !buf) goto out;
    psq->width = psq->height = m->size;
    psq->nmoves = n;
    memcpy(psq->moves, mv, (size_t)n * sizeof *mv);
    memcpy(psq->time_ms, t, (size_t)n * sizeof *t);
    rv_gomoku_psq_write(psq, buf, 64 * 1024);
    char path[4096];
    snprintf(path, sizeof path, "%s%03d.psq", m->save, index + 1);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(buf, f);
        fclose(f);
    } else
        fprintf(stderr, "renversi match: cannot write %s\n", path);
out:
    free(psq);
    free(buf);
}

/* Appends game i to PREFIX.ggf (GGF holds many games, one per line). */
static void save_ggf(match *m, int index, const engine *black, const engine *white,
                     const uint8_t *sq, const int32_t *t, int n, const game_result *res) {
    rv_reversi_ggf *ggf = malloc(sizeof *ggf);
    char *buf = malloc(16384);
    if (!ggf || !buf) goto out;
    rv_reversi_ggf_init(ggf);
    snprintf(ggf->pc, sizeof ggf->pc, "renversi match");
    snprintf(ggf->pb, sizeof ggf->pb, "%.60s", black->spec->name);
    snprintf(ggf->pw, sizeof ggf->pw, "%.60s", white->spec->name);
    if (res->how <= END_DRAW) {
        int b = 0, w = 0;
        sscanf(res->detail, "%d-%d", &b, &w);
        snprintf(ggf->re, sizeof ggf->re, "%+d", b - w);
    } else
        snprintf(ggf->re, sizeof ggf->re, "%s", res->winner == 1 ? "+64:r" : "-64:r");
    ggf->nmoves = n;
    for (int k = 0; k < n; k++) {
        memset(&ggf->moves[k], 0, sizeof ggf->moves[k]);
        ggf->moves[k].sq = sq[k];
        ggf->moves[k].has_time = 1;
        ggf->moves[k].seconds = t[k] / 1000.0;
    }
    rv_reversi_ggf_format(ggf, buf, 16384);
    char path[4096];
    snprintf(path, sizeof path, "%s.ggf", m->save);
    (void)index;
    /* the file was emptied at the start; games from both workers append whole lines */
    pthread_mutex_lock(&m->lock);
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s\n", buf);
        fclose(f);
    } else
        fprintf(stderr, "renversi match: cannot write %s\n", path);
    pthread_mutex_unlock(&m->lock);
out:
    free(ggf);
    free(buf);
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
    rv_gomoku_point *mv = malloc(sizeof *mv * RV_GOMOKU_MAX_POINTS);
    int32_t *times = malloc(sizeof *times * RV_GOMOKU_MAX_POINTS);
    uint8_t rsq[RV_REVERSI_MAX_PLIES];
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int i = m->next < m->games && !m->failed ? m->next++ : -1;
        pthread_mutex_unlock(&m->lock);
        if (i < 0 || !mv || !times) break;
        /* game 2k and 2k+1 share opening k, the first engine taking black then white */
        const opening *o = &m->open[(i / 2) % m->nopen];
        int first_black = i % 2 == 0;
        engine *black = first_black ? &e[0] : &e[1], *white = first_black ? &e[1] : &e[0];
        if (black->ai) rv_gomoku_ai_clear(black->ai);
        if (white->ai) rv_gomoku_ai_clear(white->ai);
        if (black->rai) rv_reversi_ai_clear(black->rai);
        if (white->rai) rv_reversi_ai_clear(white->rai);
        game_result res;
        int n, bd = 0, wd = 0;
        if (m->reversi) {
            match_reversi_game(black, white, o->sq, o->n, &m->tc, &res, rsq, times, &n, &bd, &wd);
            if (m->save) save_ggf(m, i, black, white, rsq, times, n, &res);
        } else {
            match_gomoku_game(black, white, m->rule, m->size, o->mv, o->n, &m->tc, &res, mv, times,
                              &n);
            if (m->save) save_psq(m, i, mv, times, n);
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
        if (!m->quiet)
            fprintf(stderr, "game %d/%d: %s (black) vs %s: %s by %s%s%s, %d moves  [+%d =%d -%d]\n",
                    i + 1, m->games, black->spec->name, white->spec->name,
                    res.winner == 0   ? "draw"
                    : res.winner == 1 ? "black wins"
                                      : "white wins",
                    m->reversi && res.how <= END_DRAW ? "discs" : how_name(res.how),
                    res.how >= END_FORBIDDEN || m->reversi ? " " : "",
                    res.how >= END_FORBIDDEN || m->reversi ? res.detail : "", n, m->w, m->d, m->l);
        pthread_mutex_unlock(&m->lock);
    }
    free(mv);
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
    "  --tolerance MS   lateness forgiven before a time loss (default 100)\n"
    "  --concurrency N  games played at once, 1 or 2 (default 1)\n"
    "  --save PREFIX    Gomoku: each game as PREFIX001.psq, ...; Othello: PREFIX.ggf\n"
    "  --quiet          no per-game progress\n";

int rv_cmd_match(int argc, char **argv) {
    match *m = calloc(1, sizeof *m);
    if (!m) return rv_cli_fail("match", "out of memory");
    m->size = 15;
    m->games = 2;
    m->concurrency = 1;
    m->rule = RV_RULE_FREESTYLE;
    m->tc.tolerance_ms = 100;
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
                    m->size = (int)v;
                else if (strcmp(a, "--games") == 0)
                    m->games = (int)v;
                else if (strcmp(a, "--concurrency") == 0)
                    m->concurrency = (int)v;
                else if (strcmp(a, "--tc") == 0)
                    m->tc.turn_ms = v;
                else if (strcmp(a, "--tc-game") == 0)
                    m->tc.game_ms = v;
                else
                    m->tc.tolerance_ms = v;
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
    rv_gomoku probe;
    if (!m->reversi && rv_gomoku_init(&probe, m->size, m->size, m->rule) != RV_OK) {
        rc = rv_cli_fail("match", "cannot play %s on %dx%d", rv_gomoku_rule_name(m->rule), m->size,
                         m->size);
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
    if (m->reversi && m->save) {
        char path[4096];
        snprintf(path, sizeof path, "%s.ggf", m->save);
        FILE *f = fopen(path, "w");
        if (!f) {
            rc = rv_cli_fail("match", "cannot write '%s'", path);
            goto out;
        }
        fclose(f);
    }
    signal(SIGPIPE, SIG_IGN); /* a brain that dies mid-write is a crash, not ours */
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
out:
    free(m->open);
    free(m);
    return rc;
}
