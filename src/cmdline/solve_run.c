/* Reading OBF files and solving their positions, for solve and bench solve. */
#include "cmdline/solve_run.h"

#include "cmdline/cmdline.h"
#include "renversi/core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int solve_read(const char *cmd, const char *name, FILE *f, solve_set *set) {
    char *buf = NULL;
    size_t cap = 0, len;
    long line = 0;
    int got;
    while ((got = rv_cli_read_line(cmd, name, f, &buf, &cap, &len, &line)) > 0) {
        if (rv_cli_skip_line(buf)) continue;
        if (set->n == set->cap) {
            int nc = set->cap ? set->cap * 2 : 64;
            solve_item *ni = realloc(set->items, (size_t)nc * sizeof *ni);
            if (!ni) {
                free(buf);
                rv_cli_fail(cmd, "out of memory");
                return -1;
            }
            set->items = ni;
            set->cap = nc;
        }
        solve_item *it = &set->items[set->n];
        memset(it, 0, sizeof *it);
        rv_reversi_error err;
        if (rv_reversi_obf_parse(buf, (size_t)len, 1, &it->obf, &err) != RV_OK) {
            free(buf);
            rv_cli_fail(cmd, "%s:%ld: %s", name, line, err.message);
            return -1;
        }
        it->line = line;
        set->n++;
    }
    free(buf);
    if (got < 0) return -1;
    if (set->n == 0) {
        rv_cli_fail(cmd, "no positions in %s", name);
        return -1;
    }
    return 0;
}

void solve_free(solve_set *set) {
    free(set->items);
    set->items = NULL;
    set->n = set->cap = 0;
}

/* ------------------------------------------------------------ running */

typedef struct solve_shared {
    solve_set *set;
    int wld, print;
    size_t tt_bytes;
    pthread_mutex_t lock;
    int next;        /* next item to hand out */
    int printed;     /* items printed so far (in order) */
    unsigned char *done;
    int failed;
} solve_shared;

static void print_item(int index, const solve_item *it, int mark) {
    char sq[3];
    const char *mv = it->res.move == RV_REVERSI_AI_NONE ? "--"
                                                         : rv_reversi_square_format(it->res.move, 1, sq);
    char score[8];
    if (it->res.score == 0) snprintf(score, sizeof score, "0");
    else snprintf(score, sizeof score, "%+d", it->res.score);
    printf("%d %s %s %llu %.3f%s\n", index + 1, mv, score, (unsigned long long)it->res.nodes,
           it->seconds, mark && !solve_agrees(it, 0) ? " WRONG" : "");
    fflush(stdout);
}

static void *solve_worker(void *arg) {
    solve_shared *sh = arg;
    rv_reversi_ai *ai = rv_reversi_ai_new(sh->tt_bytes);
    pthread_mutex_lock(&sh->lock);
    if (!ai) sh->failed = 1;
    for (;;) {
        if (sh->failed || sh->next >= sh->set->n) break;
        int i = sh->next++;
        pthread_mutex_unlock(&sh->lock);

        solve_item *it = &sh->set->items[i];
        double t0 = rv_clock_seconds();
        it->status = rv_reversi_solve(ai, &it->obf.pos, sh->wld, &it->res);
        it->seconds = rv_clock_seconds() - t0;

        pthread_mutex_lock(&sh->lock);
        sh->done[i] = 1;
        while (sh->print && sh->printed < sh->set->n && sh->done[sh->printed]) {
            print_item(sh->set->first_index + sh->printed, &sh->set->items[sh->printed],
                       sh->print == 2);
            sh->printed++;
        }
    }
    pthread_mutex_unlock(&sh->lock);
    rv_reversi_ai_free(ai);
    return NULL;
}

int solve_run(solve_set *set, int threads, size_t tt_mb, int wld, int print) {
    solve_shared sh = {.set = set, .wld = wld, .print = print, .tt_bytes = tt_mb << 20};
    if (set->n == 0) return 0;
    sh.done = calloc((size_t)set->n, 1);
    if (!sh.done) return -1;
    pthread_mutex_init(&sh.lock, NULL);
    if (threads > set->n) threads = set->n;
    if (threads < 1) threads = 1;
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++)
        if (pthread_create(&tid[started], NULL, solve_worker, &sh) == 0) started++;
    solve_worker(&sh);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&sh.lock);
    free(sh.done);
    return sh.failed ? -1 : 0;
}

int solve_agrees(const solve_item *it, int wld) {
    const rv_reversi_obf *o = &it->obf;
    if (o->nscores == 0) return 1;
    int best = -65;
    for (int i = 0; i < o->nscores; i++)
        if (o->scores[i] > best) best = o->scores[i];
    if (wld) return it->res.score == (best > 0) - (best < 0);
    if (it->res.score != best) return 0;
    /* The move must be one the file scores as best, if the file lists it. */
    for (int i = 0; i < o->nscores; i++)
        if (o->moves[i] == it->res.move) return o->scores[i] == best;
    return 1;
}
