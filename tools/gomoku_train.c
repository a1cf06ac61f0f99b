/*
 * rv-gomoku-train: the reproducible pipeline behind the Gomoku/Renju evaluation
 * tables (src/gomoku/eval_weights.c).  Deterministic for given arguments.
 *
 *   rv-gomoku-train selfplay --rule R --games N --seed S [--nodes K] [--eval E]
 *                            [--openings classic|wide] [--out FILE]
 *       Plays N games of the engine against itself (K nodes a move) on 15x15,
 *       each from an opening drawn by seed S: one of the 26 classical three-stone
 *       openings (one game in three) or 3-6 random stones in the central 7x7
 *       (wide: one game in four, or 3-8 stones in the central 9x9).
 *       One line per game: 'RESULT NOPEN x,y,EVAL ...' (RESULT 1 black won,
 *       -1 white won, 0 draw; the first NOPEN moves are the opening; EVAL the
 *       engine's score for the mover, 0 in the opening). --eval hand plays with
 *       the hand-set tables (gb_eval_hand) instead of the built-in fitted ones,
 *       --eval table:FILE with a table written by fit.
 *
 *   rv-gomoku-train versus --rule R --games N --seed S --against E2 [--eval E] [--nodes K]
 *                          [--openings classic|wide]
 *       Plays evaluation E against E2 at K nodes a move (the same trees whatever the
 *       machine's load), each opening with both colours, and prints E's score.
 *
 *   rv-gomoku-train fit --rule R [--l2 X] [--blend B] [--blend-plies P] [--iters N] [--prior P]
 *                       [--out FILE] DATA...
 *       Fits the rule's tables by regularised logistic regression of the game
 *       result (or a blend of it with the self-play search's score, with --blend-plies
 *       only in the positions of fewer than P stones) on the
 *       evaluation's features (see fit()) and writes them as text; the penalty pulls
 *       towards the hand-set values, or with --prior fitted|table:FILE towards the
 *       built-in tables or a table's (the specs of --eval). --fit-classes C fits only
 *       the classes of one of scale's selections and the three threat terms, then
 *       puts the strong shapes back in the order the tests ask (shape_order()).
 *
 *   rv-gomoku-train prior --rule R [--out FILE]
 *       Writes the hand-set values (the fit's starting point) in the same text form.
 *
 *   rv-gomoku-train emit --out FILE.c FREESTYLE STANDARD RENJU
 *       Turns three fitted tables into the C source the engine builds
 *       (src/gomoku/eval_weights.c).
 *
 *   rv-gomoku-train movefit --rule R [--l2 X] [--iters N] [--out FILE] DATA...
 *       Fits the rule's move scores (gb_move_score) to the moves the self-play
 *       searches played (see movefit()) and writes them as text.
 *
 *   rv-gomoku-train emit-moves --out FILE.c FREESTYLE STANDARD RENJU
 *       Turns three move-score tables into src/gomoku/move_weights.c.
 *
 *   rv-gomoku-train scale --rule R --factor F [--classes C] [--role both|to-move|waiting]
 *                         [--from FILE [--keep-terms]] [--out FILE] TABLE
 *       Writes TABLE's values times F: every value (all), or only the classes with no
 *       open three, four or five on any line (weak), with no two or more (space), whose
 *       strongest line is a two (twos), a closed two (closed-twos) or an open two
 *       (open-twos), of a four-three or open-four point (threats), of an open-four
 *       point (open-four), of a double-three, four-three or open-four point (strong),
 *       whose strongest line is a closed three (closed-threes), of one open three and
 *       no four (open-threes), or only the three threat terms (terms); of both roles
 *       or one. With --from the
 *       selected values and the threat terms are FILE's (times F) instead (with
 *       --keep-terms the threat terms stay TABLE's); FILE "hand" is the rule's hand-set
 *       tables (as prior writes them).
 *
 *   rv-gomoku-train relabel --rule R [--nodes K] [--eval E] [--out FILE] DATA...
 *       Writes DATA's games (selfplay's lines) again with each position's EVAL from
 *       its own search of K nodes (evaluation E): deeper targets for fit --blend 0.
 *
 *   selfplay, versus and relabel take --moves hand|fitted|table:FILE (versus also
 *   --against-moves) for the engines' move scores.
 *
 * See docs/engine-gomoku.md and scripts/fit-gomoku-weights.sh (`make weights`).
 */
#include "cmdline/cmdline.h"
#include "gomoku/pattern.h"
#include "gomoku/search.h"
#include "renversi/core.h"
#include "renversi/gomoku_ai.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCLS GB_CLASSES
#define NPAR (2 * 2 * NCLS + 2 * GB_X_N)
#define BOARD 15

static int par_cls(int colour, int role, int cls) { return (colour * 2 + role) * NCLS + cls; }
static int par_extra(int stm, int term) { return 4 * NCLS + stm * GB_X_N + term; }

static void usage(FILE *f) {
    fprintf(f,
            "usage: rv-gomoku-train selfplay --rule R --games N --seed S [--nodes K] [--eval E]\n"
            "                                [--openings classic|wide] [--out FILE]\n"
            "       rv-gomoku-train versus --rule R --games N --seed S --against E2 [--eval E]\n"
            "                              [--nodes K] [--openings classic|wide]\n"
            "       rv-gomoku-train fit --rule R [--l2 X] [--role-l2 Y] [--blend B] [--blend-plies P]\n"
            "                           [--iters N] [--prior P] [--out FILE] DATA...\n"
            "       rv-gomoku-train prior --rule R [--out FILE]\n"
            "       rv-gomoku-train emit --out FILE.c FREESTYLE STANDARD RENJU\n"
            "       rv-gomoku-train movefit --rule R [--l2 X] [--iters N] [--out FILE] DATA...\n"
            "       rv-gomoku-train emit-moves --out FILE.c FREESTYLE STANDARD RENJU\n"
            "       rv-gomoku-train scale --rule R --factor F [--classes C] [--role O] [--from FILE]\n"
            "                             [--out FILE]\n"
            "                             TABLE\n"
            "       rv-gomoku-train relabel --rule R [--nodes K] [--eval E] [--out FILE] DATA...\n"
            "\n"
            "R is freestyle, standard or renju (15x15).\n"
            "selfplay  N engine-vs-engine games, K nodes a move (default 4000), from\n"
            "          openings drawn with seed S (the 26 classical ones, or 3-6 random\n"
            "          stones; wide: more of them, farther out); one line per game:\n"
            "          'RESULT NOPEN x,y,EVAL ...'.\n"
            "          --eval hand|fitted|table:FILE: the engine's evaluation tables\n"
            "          (default fitted: the ones built in; FILE: a table fit wrote).\n"
            "versus    evaluation E (default fitted) against E2, K nodes a move, N games:\n"
            "          N/2 openings drawn with seed S, each with both colours; prints\n"
            "          'versus: N games, +W =D -L, score X%% +- M' (M: the 95%% margin).\n"
            "fit       logistic regression of the results on the evaluation's features,\n"
            "          L2 penalty X towards the hand-set values (default 20), N Newton\n"
            "          steps (default 60); one game in 10 is held out and its log loss\n"
            "          against the results printed; writes the tables as text (default\n"
            "          R.txt).  --blend B: the target is B x result + (1 - B) x the\n"
            "          self-play search's score as a probability (default 1); --blend-plies\n"
            "          P: only in the positions with fewer than P stones, the later ones'\n"
            "          target the score (default 225: all).  --prior\n"
            "          hand|fitted|table:FILE: the values the penalty pulls towards and the\n"
            "          fit starts from (default hand: the hand-set ones; fitted: the built-in\n"
            "          ones; FILE: a table).  --role-l2 Y: each class's two roles are\n"
            "          fitted as their mean (penalty X) and their difference, the side to\n"
            "          move's value minus the waiting side's (penalty Y; the other classes'\n"
            "          difference X): with a large X only the prior's role asymmetry is\n"
            "          fitted.  --role-classes C: the classes whose difference is fitted so,\n"
            "          one of scale's selections (default all).  --fit-classes C: only the\n"
            "          classes of selection C and the three threat terms are fitted, the\n"
            "          other classes and the tempo held at the prior; then the strong\n"
            "          shapes' values out of the order the tests ask are raised into it.\n"
            "prior     the hand-set tables in the same text form.\n"
            "emit      the C source of the three rules' tables.\n"
            "movefit   the move scores: a softmax over each position's candidate points\n"
            "          fitted to the move the self-play search played, L2 penalty X towards\n"
            "          the hand-set order (default 0.5), N Newton steps (default 60); one\n"
            "          game in 10 held out, its hit rates printed; writes text (moves.txt).\n"
            "emit-moves  the C source of the three rules' move scores.\n"
            "scale     TABLE's values times F, rounded, written as a table (default\n"
            "          scaled.txt): --classes all (default: every class, both colours and\n"
            "          roles, and the tempo and threat terms), weak (the classes with no\n"
            "          open three, four or five on any line; the rest kept), space (no two or\n"
            "          more on any line), threats (a four-three or open-four point: a\n"
            "          double four, a four and an open three, or an open four), twos (the\n"
            "          strongest line a two), closed-twos, open-twos, open-four (an open-four\n"
            "          point: a double four or an open four), quiet (the colour makes no three\n"
            "          or four there), strong (a double-three, four-three or open-four\n"
            "          point), closed-threes (the strongest line a closed three),\n"
            "          open-threes (one open three and no four) or terms (only the four-three,\n"
            "          double-three and answered four-three terms, no class); --role both\n"
            "          (default), to-move or waiting: the scaled classes' role.  --from\n"
            "          FILE: the selected values and the three threat terms are FILE's times\n"
            "          F, the rest TABLE's (a table fitted with --fit-classes put on another);\n"
            "          --keep-terms: the threat terms stay TABLE's; FILE hand: the rule's\n"
            "          hand-set tables (prior's).\n"
            "relabel   the games of DATA (selfplay's lines) with each position's EVAL from a\n"
            "          search of K nodes (default 4000) with evaluation E: targets for\n"
            "          fit --blend 0 from deeper searches than the games' own.\n"
            "--moves hand|fitted|table:FILE (selfplay, versus, relabel; versus also\n"
            "          --against-moves):\n"
            "          the engine's move scores (hand: the hand-set order; FILE: movefit's).\n");
}

static int parse_rule(const char *s, rv_gomoku_rule *r) {
    if (!strcmp(s, "freestyle")) *r = RV_RULE_FREESTYLE;
    else if (!strcmp(s, "standard")) *r = RV_RULE_STANDARD;
    else if (!strcmp(s, "renju")) *r = RV_RULE_RENJU;
    else {
        fprintf(stderr, "rv-gomoku-train: rule '%s': expected freestyle, standard or renju\n", s);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ self-play */

/* The k-th (0..25) classical opening: black (0,0), white (0,-1) direct or (1,-1)
   indirect, black's third stone within two points, one of each mirror pair. */
static void classical(int k, int *dx, int *dy) {
    int n = 0;
    for (int ind = 0; ind < 2; ind++)
        for (int y = -2; y <= 2; y++)
            for (int x = -2; x <= 2; x++) {
                int wx = ind, wy = -1;
                if ((x == 0 && y == 0) || (x == wx && y == wy)) continue;
                if (!ind && x < 0) continue;     /* mirror x -> -x */
                if (ind && x + y < 0) continue; /* mirror (x, y) -> (-y, -x) */
                if (n++ == k) {
                    dx[0] = 0, dy[0] = 0, dx[1] = wx, dy[1] = wy, dx[2] = x, dy[2] = y;
                    return;
                }
            }
}

/* The opening of a game: one of the 26 classical ones (one game in three), or 3-6 random
   stones in the central 7x7; with wide, the classical ones one game in four, else 3-8
   random stones in the central 9x9. Returns its number of stones. */
static int play_opening(rv_gomoku *g, rv_rng *r, int wide) {
    int c = BOARD / 2;
    if (rv_rng_below(r, wide ? 4 : 3) == 0) {
        int dx[3], dy[3];
        classical((int)rv_rng_below(r, 26), dx, dy);
        for (int i = 0; i < 3; i++)
            if (rv_gomoku_play(g, c + dx[i], c + dy[i]) != RV_OK) return -1;
        return 3;
    }
    int n = 3 + (int)rv_rng_below(r, wide ? 6 : 4), half = wide ? 4 : 3;
    for (int i = 0; i < n;) {
        int x = c - half + (int)rv_rng_below(r, (uint64_t)(2 * half + 1));
        int y = c - half + (int)rv_rng_below(r, (uint64_t)(2 * half + 1));
        if (rv_gomoku_play(g, x, y) == RV_OK) i++; /* occupied or forbidden: draw again */
    }
    return n;
}

/* An engine with evaluation tables w and move scores mw (NULL: the built-in fitted ones)
   for the rule. */
static rv_gomoku_ai *new_ai(rv_gomoku_rule rule, const gb_eval_weights *w,
                            const gb_move_weights *mw) {
    rv_gomoku_ai *ai = rv_gomoku_ai_new(8u << 20);
    if (!ai) {
        fprintf(stderr, "rv-gomoku-train: out of memory\n");
        return NULL;
    }
    if (w || mw) {
        /* the engine's tables, built now for the rule (a think keeps them), get w / mw */
        gb_tables_build(&ai->tables, rule, 0x9E3779B97F4A7C15ull);
        if (w) gb_tables_set_eval(&ai->tables, w);
        if (mw) gb_tables_set_moves(&ai->tables, mw);
    }
    return ai;
}

/* Plays the games with evaluation tables w (NULL: the built-in fitted ones). */
static int selfplay(rv_gomoku_rule rule, long games, long seed, long nodes,
                    const gb_eval_weights *w, const gb_move_weights *mw, int wide, FILE *out) {
    rv_gomoku_ai *ai = new_ai(rule, w, mw);
    if (!ai) return 1;
    rv_rng r;
    rv_rng_seed(&r, (uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)rule);
    rv_gomoku_limits lim = {.level = 0, .nodes = nodes};
    int wins[3] = {0, 0, 0};
    for (long gi = 0; gi < games; gi++) {
        rv_gomoku g;
        rv_gomoku_init(&g, BOARD, BOARD, rule);
        rv_gomoku_ai_clear(ai);
        int nopen = play_opening(&g, &r, wide);
        if (nopen < 0) {
            fprintf(stderr, "rv-gomoku-train: bad opening\n");
            rv_gomoku_ai_free(ai);
            return 1;
        }
        static int ev[RV_GOMOKU_MAX_POINTS];
        int nmoves = nopen;
        for (int i = 0; i < nopen; i++) ev[i] = 0;
        rv_gomoku_result res;
        rv_gomoku_get_result(&g, &res);
        while (!res.over && nmoves < BOARD * BOARD) {
            rv_gomoku_ai_info info;
            if (rv_gomoku_ai_think(ai, &g, &lim, &info) != RV_OK) break; /* no legal move */
            if (rv_gomoku_play_forced(&g, info.x, info.y) != RV_OK) break;
            ev[nmoves++] = info.eval;
            rv_gomoku_get_result(&g, &res);
        }
        int result = res.winner == RV_BLACK ? 1 : res.winner == RV_WHITE ? -1 : 0;
        wins[result + 1]++;
        if (fprintf(out, "%d %d", result, nopen) < 0) return 1;
        for (int i = 0; i < nmoves; i++) {
            int x, y;
            rv_gomoku_move_at(&g, i, &x, &y);
            fprintf(out, " %d,%d,%d", x, y, ev[i]);
        }
        if (fputc('\n', out) == EOF || fflush(out)) {
            perror("rv-gomoku-train: write");
            rv_gomoku_ai_free(ai);
            return 1;
        }
        if ((gi + 1) % 50 == 0)
            fprintf(stderr, "selfplay: %ld games (black %d, white %d, draws %d)\n", gi + 1, wins[2],
                    wins[0], wins[1]);
    }
    rv_gomoku_ai_free(ai);
    return 0;
}

/* Rewrites games (the selfplay format) with each position's score from a search of K nodes
   (the position's own search, the table w, one game's searches sharing the hash table): the
   games' moves and results stay, the EVAL fields become the deeper searches' scores, for a fit
   whose targets are those scores (fit --blend 0). */
static int relabel(rv_gomoku_rule rule, long nodes, const gb_eval_weights *w,
                   const gb_move_weights *mw, int nfiles, char **files, FILE *out) {
    rv_gomoku_ai *ai = new_ai(rule, w, mw);
    if (!ai) return 1;
    rv_gomoku_limits lim = {.level = 0, .nodes = nodes};
    static char line[16384];
    long ngames = 0;
    for (int fi = 0; fi < nfiles; fi++) {
        FILE *f = fopen(files[fi], "r");
        if (!f) {
            perror(files[fi]);
            rv_gomoku_ai_free(ai);
            return 1;
        }
        long lineno = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            int result, nopen, pos;
            if (sscanf(line, "%d %d%n", &result, &nopen, &pos) != 2 || result < -1 || result > 1) {
                fprintf(stderr, "%s:%ld: expected 'RESULT NOPEN moves...'\n", files[fi], lineno);
                fclose(f);
                rv_gomoku_ai_free(ai);
                return 1;
            }
            rv_gomoku g;
            rv_gomoku_init(&g, BOARD, BOARD, rule);
            rv_gomoku_ai_clear(ai);
            fprintf(out, "%d %d", result, nopen);
            const char *s = line + pos;
            for (int i = 0;; i++) {
                int x, y, e, n;
                if (sscanf(s, " %d,%d,%d%n", &x, &y, &e, &n) != 3) break;
                s += n;
                int deep = 0;
                rv_gomoku_result res;
                rv_gomoku_get_result(&g, &res);
                if (i >= nopen && !res.over) {
                    rv_gomoku_ai_info info;
                    if (rv_gomoku_ai_think(ai, &g, &lim, &info) == RV_OK) deep = info.eval;
                }
                if (rv_gomoku_play_forced(&g, x, y) != RV_OK) {
                    fprintf(stderr, "%s:%ld: move %d (%d,%d) not playable\n", files[fi], lineno, i,
                            x, y);
                    fclose(f);
                    rv_gomoku_ai_free(ai);
                    return 1;
                }
                fprintf(out, " %d,%d,%d", x, y, deep);
            }
            if (fputc('\n', out) == EOF || fflush(out)) {
                perror("rv-gomoku-train: write");
                fclose(f);
                rv_gomoku_ai_free(ai);
                return 1;
            }
            if (++ngames % 20 == 0) fprintf(stderr, "relabel: %ld games\n", ngames);
        }
        fclose(f);
    }
    rv_gomoku_ai_free(ai);
    return 0;
}

/* Plays games/2 openings drawn by seed, each with both colours, between evaluation
   tables a and b (NULL: the built-in ones) at the given nodes a move; prints a's
   score. */
static int versus(rv_gomoku_rule rule, long games, long seed, long nodes, const gb_eval_weights *a,
                  const gb_move_weights *ma, const gb_eval_weights *b, const gb_move_weights *mb,
                  int wide) {
    rv_gomoku_ai *ai[2] = {new_ai(rule, a, ma), new_ai(rule, b, mb)};
    if (!ai[0] || !ai[1]) {
        rv_gomoku_ai_free(ai[0]);
        rv_gomoku_ai_free(ai[1]);
        return 1;
    }
    rv_rng r;
    rv_rng_seed(&r, (uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)rule + 77);
    rv_gomoku_limits lim = {.level = 0, .nodes = nodes};
    long won = 0, drawn = 0, lost = 0;
    rv_gomoku open;
    int nopen = 0;
    for (long gi = 0; gi < games; gi++) {
        if (gi % 2 == 0) {
            rv_gomoku_init(&open, BOARD, BOARD, rule);
            nopen = play_opening(&open, &r, wide);
            if (nopen < 0) break;
        }
        /* a plays black in even games, white in odd ones; the opening's last stone
           decides who moves first */
        int a_black = gi % 2 == 0;
        rv_gomoku g = open;
        rv_gomoku_ai_clear(ai[0]);
        rv_gomoku_ai_clear(ai[1]);
        rv_gomoku_result res;
        rv_gomoku_get_result(&g, &res);
        while (!res.over && rv_gomoku_move_count(&g) < BOARD * BOARD) {
            int black = rv_gomoku_to_move(&g) == RV_BLACK;
            rv_gomoku_ai *e = ai[black == a_black ? 0 : 1];
            rv_gomoku_ai_info info;
            if (rv_gomoku_ai_think(e, &g, &lim, &info) != RV_OK) break;
            if (rv_gomoku_play_forced(&g, info.x, info.y) != RV_OK) break;
            rv_gomoku_get_result(&g, &res);
        }
        if (res.winner == RV_EMPTY)
            drawn++;
        else if ((res.winner == RV_BLACK) == a_black)
            won++;
        else
            lost++;
        if ((gi + 1) % 20 == 0)
            fprintf(stderr, "versus: %ld games, +%ld =%ld -%ld\n", gi + 1, won, drawn, lost);
    }
    rv_gomoku_ai_free(ai[0]);
    rv_gomoku_ai_free(ai[1]);
    long n = won + drawn + lost;
    if (n == 0) return 1;
    double sc = (won + 0.5 * drawn) / (double)n, var = 0;
    /* the 95% margin from the games' own spread */
    var = ((double)won * (1 - sc) * (1 - sc) + drawn * (0.5 - sc) * (0.5 - sc) + lost * sc * sc) / n;
    printf("versus: %ld games, +%ld =%ld -%ld, score %.1f%% +- %.1f\n", n, won, drawn, lost,
           100 * sc, 100 * 1.96 * sqrt(var / n));
    return 0;
}

/* ------------------------------------------------------------------ the tables as text */

static int write_table(const char *path, rv_gomoku_rule rule, const double *w) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "# rv-gomoku-train table, rule %s: own[2][%d] waiting[2][%d] per colour, extra[2][%d]\n",
            rv_gomoku_rule_name(rule), NCLS, NCLS, GB_X_N);
    for (int i = 0; i < NPAR; i++) {
        double v = round(w[i]);
        if (v > 32000) v = 32000;
        if (v < -32000) v = -32000;
        fprintf(f, "%d%c", (int)v, (i + 1) % 16 == 0 || i + 1 == NPAR ? '\n' : ' ');
    }
    if (fclose(f)) {
        perror(path);
        return 1;
    }
    return 0;
}

/* Reads n integers in -32000..32000 after an optional # comment line. 0 or 1 (told). */
static int read_values(const char *path, int *w, int n) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    int c = fgetc(f);
    if (c == '#')
        while (c != '\n' && c != EOF) c = fgetc(f);
    else
        ungetc(c, f);
    for (int i = 0; i < n; i++)
        if (fscanf(f, "%d", &w[i]) != 1 || w[i] < -32000 || w[i] > 32000) {
            fprintf(stderr, "%s: value %d missing or out of range (expected %d integers)\n", path,
                    i, n);
            fclose(f);
            return 1;
        }
    fclose(f);
    return 0;
}

static int read_table(const char *path, int *w) { return read_values(path, w, NPAR); }

/* A table read by read_table as the engine's evaluation tables. */
static void values_to_weights(const int *v, gb_eval_weights *w) {
    for (int c = 0; c < 2; c++) {
        for (int r = 0; r < 2; r++)
            for (int k = 0; k < NCLS; k++) w->cls[c][r][k] = (int16_t)v[par_cls(c, r, k)];
        for (int x = 0; x < GB_X_N; x++) w->extra[c][x] = (int16_t)v[par_extra(c, x)];
    }
}

/* The engine's evaluation tables as a parameter vector: the inverse of values_to_weights. */
static void weights_to_values(const gb_eval_weights *w, double *v) {
    for (int c = 0; c < 2; c++) {
        for (int r = 0; r < 2; r++)
            for (int k = 0; k < NCLS; k++) v[par_cls(c, r, k)] = w->cls[c][r][k];
        for (int x = 0; x < GB_X_N; x++) v[par_extra(c, x)] = w->extra[c][x];
    }
}

/* The hand-set values (gb_eval_hand) as the fit's parameter vector. */
static void prior_values(rv_gomoku_rule rule, double *w) {
    static gb_eval_weights h;
    gb_eval_hand(rule, &h);
    weights_to_values(&h, w);
}

static int load_eval(const char *who, const char *spec, rv_gomoku_rule rule, gb_eval_weights *buf,
                     const gb_eval_weights **w);

/* ------------------------------------------------------------------ fit */

/* One training position: label (1 win, 0.5 draw, 0 loss for the side to move) and its
   sparse features (parameter index, count). */
typedef struct sample {
    float y;  /* the target: the result, or a blend with the search's score */
    float yo; /* the result */
    int e;    /* the self-play search's score for the side to move */
    int hold; /* held out */
    int ply;  /* stones on the board */
    int off, n;
} sample;

typedef struct dataset {
    sample *s;
    size_t ns, cap;
    int32_t *idx;
    float *val;
    size_t nf, fcap;
} dataset;

static int push_feature(dataset *d, int idx, float v) {
    if (d->nf == d->fcap) {
        size_t cap = d->fcap ? d->fcap * 2 : 1 << 20;
        int32_t *i2 = realloc(d->idx, cap * sizeof *i2);
        if (!i2) return -1;
        d->idx = i2;
        float *v2 = realloc(d->val, cap * sizeof *v2);
        if (!v2) return -1;
        d->val = v2;
        d->fcap = cap;
    }
    d->idx[d->nf] = idx;
    d->val[d->nf++] = v;
    return 0;
}

/* Adds the position of b (side to move's view) with label y; quiet positions only. */
static int add_position(dataset *d, const gboard *b, float y, int e, int hold) {
    int us = b->stm - 1, them = 1 - us;
    /* the search never evaluates these: a five to play or to stop, an open four to make */
    if (b->cnt[us][TL_FIVE] || b->cnt[them][TL_FIVE] || b->cnt[us][TL_FLEX4]) return 0;
    int own[NCLS], opp[NCLS];
    memset(own, 0, sizeof own);
    memset(opp, 0, sizeof opp);
    for (int yy = 0; yy < b->h; yy++)
        for (int x = 0; x < b->w; x++) {
            int p = gb_index(x, yy);
            if (b->cell[p]) continue;
            own[gb_class_of(b->combo[us][p])]++;
            opp[gb_class_of(b->combo[them][p])]++;
        }
    if (d->ns == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 1 << 16;
        sample *s2 = realloc(d->s, cap * sizeof *s2);
        if (!s2) return -1;
        d->s = s2;
        d->cap = cap;
    }
    sample *s = &d->s[d->ns++];
    s->y = s->yo = y;
    s->e = e;
    s->hold = hold;
    s->ply = b->nstones;
    s->off = (int)d->nf;
    for (int k = 0; k < NCLS; k++) {
        if (own[k] && push_feature(d, par_cls(us, GB_TO_MOVE, k), (float)own[k])) return -1;
        if (opp[k] && push_feature(d, par_cls(them, GB_WAITING, k), -(float)opp[k])) return -1;
    }
    if (push_feature(d, par_extra(us, GB_X_TEMPO), 1)) return -1;
    int term = gb_threat_term(b);
    if (term != GB_X_TEMPO && push_feature(d, par_extra(us, term), 1)) return -1;
    s->n = (int)d->nf - s->off;
    return 0;
}

/* One position of a game file, before its move (x, y) with the search's value e is played:
   result is black's (-1, 0, 1), hold says whether the game is held out. Nonzero stops. */
typedef int (*game_visit)(void *ctx, gboard *b, int x, int y, int e, int result, int hold);

/* Reads a game file ("RESULT NOPEN x,y,e ..." a line) and calls visit for every position after
   the opening; every tenth game (counted in *ngames) is held out. 0 or 1 (told on stderr). */
static int read_games(const char *path, rv_gomoku_rule rule, gb_tables *t, long *ngames,
                      game_visit visit, void *ctx) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    static char line[16384];
    static gboard b;
    long lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s:%ld: line longer than %zu bytes\n", path, lineno, sizeof line - 1);
            fclose(f);
            return 1;
        }
        int result, nopen, pos;
        if (sscanf(line, "%d %d%n", &result, &nopen, &pos) != 2 || result < -1 || result > 1) {
            fprintf(stderr, "%s:%ld: expected 'RESULT NOPEN moves...'\n", path, lineno);
            fclose(f);
            return 1;
        }
        rv_gomoku g;
        rv_gomoku_init(&g, BOARD, BOARD, rule);
        gb_load(&b, t, &g);
        int hold = (*ngames)++ % 10 == 0;
        const char *s = line + pos;
        for (int i = 0;; i++) {
            int x, y, e, n;
            if (sscanf(s, " %d,%d,%d%n", &x, &y, &e, &n) != 3) break;
            s += n;
            if (x < 0 || x >= BOARD || y < 0 || y >= BOARD || b.cell[gb_index(x, y)]) {
                fprintf(stderr, "%s:%ld: move %d (%d,%d) off the board or occupied\n", path,
                        lineno, i, x, y);
                fclose(f);
                return 1;
            }
            if (i >= nopen && visit(ctx, &b, x, y, e, result, hold)) {
                fprintf(stderr, "rv-gomoku-train: out of memory\n");
                fclose(f);
                return 1;
            }
            gb_play(&b, gb_index(x, y));
        }
    }
    fclose(f);
    return 0;
}

/* The evaluation's sample: the position labelled by the game's result for the side to move. */
static int visit_eval(void *ctx, gboard *b, int x, int y, int e, int result, int hold) {
    (void)x, (void)y;
    float lab = result == 0 ? 0.5f : (result == 1) == (b->stm == RV_BLACK) ? 1.0f : 0.0f;
    return add_position(ctx, b, lab, e, hold);
}

static int load_games(dataset *d, const char *path, rv_gomoku_rule rule, gb_tables *t, long *ngames) {
    return read_games(path, rule, t, ngames, visit_eval, d);
}

static double sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

static double logloss(double y, double z) {
    /* -(y log p + (1-y) log(1-p)), p = sigmoid(z), computed stably */
    double lp = z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z));        /* log p */
    double lq = z >= 0 ? -z - log1p(exp(-z)) : -log1p(exp(z));       /* log (1-p) */
    return -(y * lp + (1 - y) * lq);
}

static double dot(const dataset *d, const sample *s, const double *w) {
    double z = 0;
    for (int j = 0; j < s->n; j++) z += w[d->idx[s->off + j]] * d->val[s->off + j];
    return z;
}

/* Mean log loss against the results over the training (hold 0) or held-out (hold 1)
   positions. */
static double mean_loss(const dataset *d, const double *w, double scale, int hold) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->ns; i++)
        if (d->s[i].hold == hold) sum += logloss(d->s[i].yo, scale * dot(d, &d->s[i], w)), n++;
    return n ? sum / (double)n : 0;
}

/*
 * The fit. The evaluation is linear in its parameters: z = sum_j w_j x_j, where x
 * counts the empty points of each class for the side to move (role "to move") and,
 * negated, for the opponent (role "waiting"), plus the tempo and threat terms;
 * P(side to move wins) = sigmoid(z) is fitted to the results. First the hand-set
 * values p get a scale s (P = sigmoid(s * hand eval)); then w (logit units) is
 * fitted by damped diagonal Newton steps, minimising the summed log loss plus
 * l2 * sum (w_j - s p_j)^2 — rare classes stay at their hand-set values. The
 * tables are w / s: the search's units.
 */
static void class_kinds(rv_gomoku_rule rule, int *top, int (*tl)[NCLS]);
static int scale_selection(const char *classes);
static int scale_takes(int sel, int top, int tl);

/* --role-l2: rewrites the class features in the (mean, difference) parameters of the two roles
   (a class's "to move" slot holds the mean, its "waiting" slot half the difference, to move
   minus waiting: to move = mean + half, waiting = mean - half). 0, or -1 out of memory. */
static int roles_to_mean_diff(dataset *d) {
    int32_t *idx = malloc(2 * d->nf * sizeof *idx);
    float *val = malloc(2 * d->nf * sizeof *val);
    if (!idx || !val) {
        free(idx);
        free(val);
        return -1;
    }
    size_t nf = 0;
    for (size_t i = 0; i < d->ns; i++) {
        sample *sm = &d->s[i];
        int off = (int)nf;
        for (int j = 0; j < sm->n; j++) {
            int k = d->idx[sm->off + j];
            float x = d->val[sm->off + j];
            if (k >= 4 * NCLS) {
                idx[nf] = k, val[nf++] = x;
                continue;
            }
            int colour = k / (2 * NCLS), role = k / NCLS % 2, cls = k % NCLS;
            idx[nf] = par_cls(colour, GB_TO_MOVE, cls), val[nf++] = x;
            idx[nf] = par_cls(colour, GB_WAITING, cls), val[nf++] = role == GB_TO_MOVE ? x : -x;
        }
        sm->off = off;
        sm->n = (int)nf - off;
    }
    free(d->idx);
    free(d->val);
    d->idx = idx;
    d->val = val;
    d->fcap = 2 * d->nf;
    d->nf = nf;
    return 0;
}

/* The two roles' values of every class as (mean, half the difference) and back (in place). */
static void values_to_mean_diff(double *v) {
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < NCLS; k++) {
            double a = v[par_cls(c, GB_TO_MOVE, k)], b = v[par_cls(c, GB_WAITING, k)];
            v[par_cls(c, GB_TO_MOVE, k)] = (a + b) / 2;
            v[par_cls(c, GB_WAITING, k)] = (a - b) / 2;
        }
}
static void mean_diff_to_values(double *v) {
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < NCLS; k++) {
            double m = v[par_cls(c, GB_TO_MOVE, k)], h = v[par_cls(c, GB_WAITING, k)];
            v[par_cls(c, GB_TO_MOVE, k)] = m + h;
            v[par_cls(c, GB_WAITING, k)] = m - h;
        }
}

/*
 * Puts the strong shapes of table w (search units) back in the order tests/test_gomoku_eval.c
 * asks of every table, after a fit that moved them: for each colour and role and both open
 * threes, a four-three above a three and a four, an open four at least a four-three and above
 * a four, and where the colour has no forbidden points a double three above a three and a
 * four and a double four above a four-three; a value out of order is raised to the least
 * that keeps it (the values are rounded first, as the table is written).
 */
static void shape_order(rv_gomoku_rule rule, double *w) {
    for (int j = 0; j < NPAR; j++) w[j] = round(w[j]);
    for (int c = 0; c < 2; c++) {
        int forb = rule == RV_RULE_RENJU && c == 0;
        for (int r = 0; r < 2; r++) {
#define SV(a, b) w[par_cls(c, r, gb_class_of(gb_combo(a, b, 0, 0)))]
            double four = SV(PAT_BLOCK4, 0);
            for (int t3 = PAT_FLEX3; t3 <= PAT_FLEX3_2; t3++) {
                double three = SV(t3, 0), need = fmax(three, four) + 1;
                if (SV(PAT_BLOCK4, t3) < need) SV(PAT_BLOCK4, t3) = need;
                if (!forb && SV(t3, t3) < need) SV(t3, t3) = need;
            }
            double four3 = fmax(SV(PAT_BLOCK4, PAT_FLEX3), SV(PAT_BLOCK4, PAT_FLEX3_2));
            if (SV(PAT_FLEX4, 0) < fmax(four3, four + 1)) SV(PAT_FLEX4, 0) = fmax(four3, four + 1);
            if (!forb && SV(PAT_BLOCK4, PAT_BLOCK4) < four3 + 1) SV(PAT_BLOCK4, PAT_BLOCK4) = four3 + 1;
#undef SV
        }
    }
}

static int fit(rv_gomoku_rule rule, double l2, double role_l2, const char *role_classes,
               const char *fit_classes, double blend, long blend_plies, long iters, const char *prior, int nfiles,
               char **files, const char *out) {
    int rsel = scale_selection(role_classes), fsel = fit_classes ? scale_selection(fit_classes) : 0;
    if (rsel < 0 || fsel < 0) {
        fprintf(stderr, "rv-gomoku-train fit: --%s '%s': unknown selection\n",
                rsel < 0 ? "role-classes" : "fit-classes", rsel < 0 ? role_classes : fit_classes);
        return 2;
    }
    static double p[NPAR];
    static gb_eval_weights pb;
    const gb_eval_weights *pw;
    int rc = load_eval("rv-gomoku-train fit --prior", prior, rule, &pb, &pw);
    if (rc) return rc;
    weights_to_values(pw ? pw : &gb_eval_fitted[gb_eval_rule_index(rule)], p);
    static gb_tables t;
    gb_tables_build(&t, rule, 1);
    dataset d = {0};
    long ngames = 0;
    for (int i = 0; i < nfiles; i++)
        if (load_games(&d, files[i], rule, &t, &ngames)) return 1;
    size_t ntrain = 0;
    for (size_t i = 0; i < d.ns; i++) ntrain += !d.s[i].hold;
    /* the penalty of each parameter: with --role-l2 the class parameters are the two roles'
       mean (2 x l2: the same penalty on the two values as without it) and half their
       difference (2 x role_l2) */
    static double lam[NPAR];
    for (int j = 0; j < NPAR; j++) lam[j] = l2;
    if (fit_classes) {
        /* only the selected classes (both colours and roles) and the three threat terms
           move: the other classes and the tempo are held at the prior by a penalty no data
           outweighs */
        static int top[NCLS], tl[2][NCLS];
        class_kinds(rule, top, tl);
        for (int c = 0; c < 2; c++)
            for (int k = 0; k < NCLS; k++)
                if (!scale_takes(fsel, top[k], tl[c][k]))
                    lam[par_cls(c, GB_TO_MOVE, k)] = lam[par_cls(c, GB_WAITING, k)] = 1e12;
        for (int c = 0; c < 2; c++) lam[par_extra(c, GB_X_TEMPO)] = 1e12;
    }
    if (role_l2 >= 0) {
        if (roles_to_mean_diff(&d)) {
            fprintf(stderr, "rv-gomoku-train: out of memory\n");
            return 1;
        }
        values_to_mean_diff(p);
        static int top[NCLS], tl[2][NCLS];
        class_kinds(rule, top, tl);
        for (int c = 0; c < 2; c++)
            for (int k = 0; k < NCLS; k++) {
                lam[par_cls(c, GB_TO_MOVE, k)] = 2 * l2;
                lam[par_cls(c, GB_WAITING, k)] = 2 * (scale_takes(rsel, top[k], tl[c][k]) ? role_l2 : l2);
            }
    }
    fprintf(stderr, "fit: %ld games, %zu positions (%zu held out), %zu features\n", ngames, d.ns,
            d.ns - ntrain, d.nf);
    if (ntrain == 0) {
        fprintf(stderr, "fit: no positions\n");
        return 1;
    }
    static double w[NPAR], g[NPAR], h[NPAR], wn[NPAR];
    if (blend < 1) {
        /* the search scores' scale against the results, then the blended targets */
        double lo = -6, hi = -1, se;
        for (int it = 0; it < 60; it++) {
            double a = hi - (hi - lo) * 0.618, bb = lo + (hi - lo) * 0.618, la = 0, lb = 0;
            for (size_t i = 0; i < d.ns; i++) {
                const sample *sm = &d.s[i];
                if (sm->hold || abs(sm->e) >= RV_GOMOKU_AI_WIN_MIN) continue;
                la += logloss(sm->yo, pow(10, a) * sm->e);
                lb += logloss(sm->yo, pow(10, bb) * sm->e);
            }
            if (la < lb)
                hi = bb;
            else
                lo = a;
        }
        se = pow(10, (lo + hi) / 2);
        for (size_t i = 0; i < d.ns; i++) {
            sample *sm = &d.s[i];
            double q = sm->e >= RV_GOMOKU_AI_WIN_MIN    ? 1
                       : sm->e <= -RV_GOMOKU_AI_WIN_MIN ? 0
                                                        : sigmoid(se * sm->e);
            double b = sm->ply < blend_plies ? blend : 0;
            sm->y = (float)(b * sm->yo + (1 - b) * q);
        }
        fprintf(stderr, "fit: search score scale %.3g/point; targets %.2f result + %.2f score", se,
                blend, 1 - blend);
        if (blend_plies < BOARD * BOARD)
            fprintf(stderr, " below %ld stones, the score from there", blend_plies);
        fputc('\n', stderr);
    }
    /* the scale of the hand-set evaluation: golden-section search on log10 s */
    double lo = -6, hi = -1;
    for (int it = 0; it < 60; it++) {
        double a = hi - (hi - lo) * 0.618, bb = lo + (hi - lo) * 0.618;
        if (mean_loss(&d, p, pow(10, a), 0) < mean_loss(&d, p, pow(10, bb), 0))
            hi = bb;
        else
            lo = a;
    }
    double s = pow(10, (lo + hi) / 2);
    fprintf(stderr, "fit: prior scale %.3g/point; log loss train %.4f held out %.4f\n", s,
            mean_loss(&d, p, s, 0), mean_loss(&d, p, s, 1));
    for (int j = 0; j < NPAR; j++) w[j] = s * p[j];
    double obj = 0;
    for (long it = 0; it <= iters; it++) {
        memset(g, 0, sizeof g);
        memset(h, 0, sizeof h);
        double loss = 0;
        for (size_t i = 0; i < d.ns; i++) {
            const sample *sm = &d.s[i];
            if (sm->hold) continue;
            double zz = dot(&d, sm, w), q = sigmoid(zz);
            loss += logloss(sm->y, zz);
            double r = q - sm->y, c = q * (1 - q);
            for (int j = 0; j < sm->n; j++) {
                int k = d.idx[sm->off + j];
                double x = d.val[sm->off + j];
                g[k] += r * x;
                h[k] += c * x * x;
            }
        }
        double pen = 0;
        for (int j = 0; j < NPAR; j++) {
            double dv = w[j] - s * p[j];
            pen += lam[j] * dv * dv;
            g[j] += 2 * lam[j] * dv;
            h[j] += 2 * lam[j];
        }
        obj = loss + pen;
        if (it == iters) break;
        /* a damped diagonal Newton step, halved until the objective falls */
        double eta = 1;
        for (int tries = 0; tries < 20; tries++, eta /= 2) {
            for (int j = 0; j < NPAR; j++) wn[j] = w[j] - eta * g[j] / h[j];
            double l = 0, pn = 0;
            for (size_t i = 0; i < d.ns; i++)
                if (!d.s[i].hold) l += logloss(d.s[i].y, dot(&d, &d.s[i], wn));
            for (int j = 0; j < NPAR; j++) pn += lam[j] * (wn[j] - s * p[j]) * (wn[j] - s * p[j]);
            if (l + pn < obj) break;
        }
        memcpy(w, wn, sizeof w);
        if (it % 10 == 0 || it + 1 == iters)
            fprintf(stderr, "fit: step %ld (eta %.3g): train %.4f held out %.4f\n", it + 1, eta,
                    mean_loss(&d, w, 1, 0), mean_loss(&d, w, 1, 1));
    }
    fprintf(stderr, "fit: final train %.4f held out %.4f (prior %.4f)\n", mean_loss(&d, w, 1, 0),
            mean_loss(&d, w, 1, 1), mean_loss(&d, p, s, 1));
    if (role_l2 >= 0) mean_diff_to_values(w);
    for (int j = 0; j < NPAR; j++) w[j] /= s;
    if (fit_classes) shape_order(rule, w);
    free(d.s);
    free(d.idx);
    free(d.val);
    return write_table(out, rule, w);
}

/* ------------------------------------------------------------------ emit */

static void emit_row(FILE *f, const int *v, int n) {
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d,", i % 16 == 0 ? "\n         " : " ", v[i]);
}

static int emit(const char *out, char **files) {
    static int w[3][NPAR];
    for (int r = 0; r < 3; r++)
        if (read_table(files[r], w[r])) return 1;
    FILE *f = fopen(out, "w");
    if (!f) {
        perror(out);
        return 1;
    }
    fprintf(f, "/*\n * The Gomoku/Renju evaluation tables, fitted by tools/gomoku_train.c from the\n"
               " * engine's self-play games (scripts/fit-gomoku-weights.sh, `make weights`).\n"
               " * Generated: do not edit. See docs/engine-gomoku.md.\n */\n"
               "#include \"gomoku/pattern.h\"\n\n"
               "const gb_eval_weights gb_eval_fitted[3] = {\n");
    static const char *names[3] = {"freestyle", "exact five", "Renju"};
    for (int r = 0; r < 3; r++) {
        fprintf(f, "    /* %s */\n    {.cls = {", names[r]);
        for (int c = 0; c < 2; c++) {
            fprintf(f, "{");
            for (int ro = 0; ro < 2; ro++) {
                fprintf(f, "{");
                emit_row(f, w[r] + par_cls(c, ro, 0), NCLS);
                fprintf(f, "},");
            }
            fprintf(f, "},");
        }
        fprintf(f, "},\n     .extra = {");
        for (int c = 0; c < 2; c++) {
            fprintf(f, "{");
            for (int k = 0; k < GB_X_N; k++) fprintf(f, "%d,", w[r][par_extra(c, k)]);
            fprintf(f, "},");
        }
        fprintf(f, "}},\n");
    }
    fprintf(f, "};\n");
    if (fclose(f)) {
        perror(out);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ move scores */

/* The move-score parameters (gb_move_weights): own[2][NCLS], opp[2][NCLS], pair[2][TL_N^2]. */
#define NMP (4 * NCLS + 2 * TL_N * TL_N)
static int mpar_own(int stm, int cls) { return stm * NCLS + cls; }
static int mpar_opp(int stm, int cls) { return 2 * NCLS + stm * NCLS + cls; }
static int mpar_pair(int stm, int a, int b) { return 4 * NCLS + (stm * TL_N + a) * TL_N + b; }

/* One candidate point of a position: its three parameters and its hand-set order score. */
typedef struct mcand {
    int32_t f[3];
    int32_t hand;
} mcand;

/* One position: its candidates, the one the self-play search played, held out or not. */
typedef struct mpos {
    size_t off;
    int n, chosen, hold;
} mpos;

typedef struct mdata {
    mpos *p;
    size_t np, pcap;
    mcand *c;
    size_t nc, ccap;
} mdata;

/* The hand-set move-ordering score of gen_moves before the fit (history aside). */
static int hand_order(const gboard *b, int p) {
    int us = b->stm - 1;
    return gb_val(b, us, p) * 4 + gb_val(b, 1 - us, p) * 3;
}

/* Adds the position of b, whose played move is m: the candidates are the legal empty
   points near a stone or with a threat for either side (the search's wide list); positions
   with a five to play or to stop are left out (nothing to choose). */
static int add_move_position(mdata *d, gboard *b, int m, int hold) {
    int us = b->stm - 1, them = 1 - us;
    if (b->cnt[us][TL_FIVE] || b->cnt[them][TL_FIVE]) return 0;
    size_t off = d->nc;
    int chosen = -1, n = 0;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            int p = gb_index(x, y);
            if (b->cell[p] || (!b->near[p] && b->tl[0][p] == TL_NONE && b->tl[1][p] == TL_NONE))
                continue;
            if (!gb_legal(b, p)) continue;
            if (d->nc == d->ccap) {
                size_t cap = d->ccap ? d->ccap * 2 : 1 << 20;
                mcand *c2 = realloc(d->c, cap * sizeof *c2);
                if (!c2) return -1;
                d->c = c2, d->ccap = cap;
            }
            mcand *c = &d->c[d->nc++];
            c->f[0] = mpar_own(us, gb_class_of(b->combo[us][p]));
            c->f[1] = mpar_opp(us, gb_class_of(b->combo[them][p]));
            c->f[2] = mpar_pair(us, b->tl[us][p], b->tl[them][p]);
            c->hand = hand_order(b, p);
            if (p == m) chosen = n;
            n++;
        }
    if (chosen < 0 || n < 2) { /* played off the list (or nothing to choose): not used */
        d->nc = off;
        return 0;
    }
    if (d->np == d->pcap) {
        size_t cap = d->pcap ? d->pcap * 2 : 1 << 16;
        mpos *p2 = realloc(d->p, cap * sizeof *p2);
        if (!p2) return -1;
        d->p = p2, d->pcap = cap;
    }
    d->p[d->np++] = (mpos){off, n, chosen, hold};
    return 0;
}

/* The move scores' sample: the position and the move the search played there. */
static int visit_move(void *ctx, gboard *b, int x, int y, int e, int result, int hold) {
    (void)e, (void)result;
    return add_move_position(ctx, b, gb_index(x, y), hold);
}

static int load_move_games(mdata *d, const char *path, rv_gomoku_rule rule, gb_tables *t,
                           long *ngames) {
    return read_games(path, rule, t, ngames, visit_move, d);
}

static double mscore(const mcand *c, const double *w) { return w[c->f[0]] + w[c->f[1]] + w[c->f[2]]; }

/* The summed softmax log loss of the played moves (train: hold 0, held out: 1) with
   parameters w times scale. */
static double move_loss(const mdata *d, const double *w, double scale, int hold, size_t *npos) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->np; i++) {
        const mpos *p = &d->p[i];
        if (p->hold != hold) continue;
        const mcand *c = d->c + p->off;
        double mx = -1e300;
        for (int j = 0; j < p->n; j++) {
            double z = scale * mscore(&c[j], w);
            if (z > mx) mx = z;
        }
        double se = 0;
        for (int j = 0; j < p->n; j++) se += exp(scale * mscore(&c[j], w) - mx);
        sum += mx + log(se) - scale * mscore(&c[p->chosen], w);
        n++;
    }
    if (npos) *npos = n;
    return sum;
}

/* Held-out hit rates: the share of positions whose played move is among the first k
   candidates by score (ties share their places), for the hand-set order (w NULL) or the
   integer table v. */
static void move_hits(const mdata *d, const int *v, double *hit, const int *ks, int nk) {
    size_t n = 0;
    for (int k = 0; k < nk; k++) hit[k] = 0;
    for (size_t i = 0; i < d->np; i++) {
        const mpos *p = &d->p[i];
        if (!p->hold) continue;
        const mcand *c = d->c + p->off;
        long zc = v ? v[c[p->chosen].f[0]] + v[c[p->chosen].f[1]] + v[c[p->chosen].f[2]] : c[p->chosen].hand;
        int above = 0, ties = 0;
        for (int j = 0; j < p->n; j++) {
            if (j == p->chosen) continue;
            long z = v ? v[c[j].f[0]] + v[c[j].f[1]] + v[c[j].f[2]] : c[j].hand;
            above += z > zc, ties += z == zc;
        }
        /* the expected place when ties are ordered at random */
        double place = 1 + above + ties / 2.0;
        for (int k = 0; k < nk; k++) hit[k] += place <= ks[k];
        n++;
    }
    for (int k = 0; k < nk; k++) hit[k] = n ? 100 * hit[k] / (double)n : 0;
}

/* The hand-set order (hand_order) as move-score parameters: 4 x own value, 3 x the
   opponent's, no pair term. */
static void move_prior(rv_gomoku_rule rule, double *p) {
    static gb_tables t;
    t.ready = 0;
    gb_tables_build(&t, rule, 1);
    int rep[NCLS];
    for (int i = GB_COMBOS - 1; i >= 0; i--) rep[gb_class_of(i)] = i;
    for (int j = 0; j < NMP; j++) p[j] = 0;
    for (int us = 0; us < 2; us++)
        for (int k = 0; k < NCLS; k++) {
            p[mpar_own(us, k)] = 4 * t.combo[us][rep[k]].val;
            p[mpar_opp(us, k)] = 3 * t.combo[1 - us][rep[k]].val;
        }
}

static int write_moves(const char *path, rv_gomoku_rule rule, const double *w, double unit) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "# rv-gomoku-train move scores, rule %s: own[2][%d] opp[2][%d] pair[2][%d][%d]\n",
            rv_gomoku_rule_name(rule), NCLS, NCLS, TL_N, TL_N);
    for (int i = 0; i < NMP; i++) {
        double v = round(w[i] * unit);
        if (v > 32000) v = 32000;
        if (v < -32000) v = -32000;
        fprintf(f, "%d%c", (int)v, (i + 1) % 16 == 0 || i + 1 == NMP ? '\n' : ' ');
    }
    if (fclose(f)) {
        perror(path);
        return 1;
    }
    return 0;
}


/*
 * The move-score fit: a conditional logit. In each position the candidates' scores
 * z = own[class] + opp[class] + pair[levels] give P(candidate is the move played) =
 * softmax(z); the parameters minimise the log loss of the played moves plus
 * l2 * sum (w - s p)^2 towards the hand-set order p scaled by s (fitted first), by damped
 * diagonal Newton steps. Written in GB_MS_UNIT per logit.
 */
static int movefit(rv_gomoku_rule rule, double l2, long iters, int nfiles, char **files,
                   const char *out) {
    static gb_tables t;
    gb_tables_build(&t, rule, 1);
    mdata d = {0};
    long ngames = 0;
    for (int i = 0; i < nfiles; i++)
        if (load_move_games(&d, files[i], rule, &t, &ngames)) return 1;
    size_t ntrain = 0, nhold = 0;
    for (size_t i = 0; i < d.np; i++) ntrain += !d.p[i].hold;
    fprintf(stderr, "movefit: %ld games, %zu positions (%zu held out), %zu candidates\n", ngames,
            d.np, d.np - ntrain, d.nc);
    if (ntrain == 0) {
        fprintf(stderr, "movefit: no positions\n");
        free(d.p), free(d.c);
        return 1;
    }
    static double p[NMP], w[NMP], g[NMP], h[NMP], wn[NMP], m[NMP];
    static int touched[3 * RV_GOMOKU_MAX_POINTS];
    move_prior(rule, p);
    double lo = -6, hi = 0;
    for (int it = 0; it < 60; it++) {
        double a = hi - (hi - lo) * 0.618, bb = lo + (hi - lo) * 0.618;
        if (move_loss(&d, p, pow(10, a), 0, NULL) < move_loss(&d, p, pow(10, bb), 0, NULL))
            hi = bb;
        else
            lo = a;
    }
    double s = pow(10, (lo + hi) / 2);
    for (int j = 0; j < NMP; j++) w[j] = s * p[j];
    double obj = 0;
    for (long it = 0; it <= iters; it++) {
        memset(g, 0, sizeof g);
        memset(h, 0, sizeof h);
        double loss = 0;
        for (size_t i = 0; i < d.np; i++) {
            const mpos *ps = &d.p[i];
            if (ps->hold) continue;
            const mcand *c = d.c + ps->off;
            double mx = -1e300, se = 0;
            for (int j = 0; j < ps->n; j++) {
                double z = mscore(&c[j], w);
                if (z > mx) mx = z;
            }
            for (int j = 0; j < ps->n; j++) se += exp(mscore(&c[j], w) - mx);
            loss += mx + log(se) - mscore(&c[ps->chosen], w);
            int nt = 0;
            for (int j = 0; j < ps->n; j++) {
                double q = exp(mscore(&c[j], w) - mx) / se;
                for (int k = 0; k < 3; k++) {
                    int f = c[j].f[k];
                    if (m[f] == 0) touched[nt++] = f;
                    m[f] += q + 1e-300; /* never exactly 0 once touched */
                }
            }
            for (int k = 0; k < 3; k++) g[c[ps->chosen].f[k]] -= 1;
            for (int k = 0; k < nt; k++) {
                int f = touched[k];
                g[f] += m[f];
                h[f] += m[f] * (1 - m[f]);
                m[f] = 0;
            }
        }
        double pen = 0;
        for (int j = 0; j < NMP; j++) {
            double dv = w[j] - s * p[j];
            pen += l2 * dv * dv;
            g[j] += 2 * l2 * dv;
            h[j] += 2 * l2 + 1e-9;
        }
        obj = loss + pen;
        if (it == iters) break;
        double eta = 1;
        for (int tries = 0; tries < 20; tries++, eta /= 2) {
            for (int j = 0; j < NMP; j++) wn[j] = w[j] - eta * g[j] / h[j];
            double pn = 0;
            for (int j = 0; j < NMP; j++) pn += l2 * (wn[j] - s * p[j]) * (wn[j] - s * p[j]);
            if (move_loss(&d, wn, 1, 0, NULL) + pn < obj) break;
        }
        memcpy(w, wn, sizeof w);
        if (it % 10 == 0 || it + 1 == iters)
            fprintf(stderr, "movefit: step %ld (eta %.3g): train %.4f held out %.4f\n", it + 1, eta,
                    move_loss(&d, w, 1, 0, &ntrain) / (double)ntrain,
                    move_loss(&d, w, 1, 1, &nhold) / (double)(nhold ? nhold : 1));
    }
    /* the held-out positions: log loss and hit rates, hand-set order against the table */
    static int v[NMP];
    for (int j = 0; j < NMP; j++) {
        double x = round(w[j] * GB_MS_UNIT);
        v[j] = (int)(x > 32000 ? 32000 : x < -32000 ? -32000 : x);
    }
    static const int ks[4] = {1, 3, 6, 12};
    double hh[4], hf[4];
    move_hits(&d, NULL, hh, ks, 4);
    move_hits(&d, v, hf, ks, 4);
    move_loss(&d, w, 1, 1, &nhold);
    fprintf(stderr,
            "movefit: held out %zu positions: log loss %.4f (hand-set order %.4f); played move "
            "in the first 1/3/6/12: %.1f/%.1f/%.1f/%.1f%% (hand-set %.1f/%.1f/%.1f/%.1f%%)\n",
            nhold, move_loss(&d, w, 1, 1, NULL) / (double)(nhold ? nhold : 1),
            move_loss(&d, p, s, 1, NULL) / (double)(nhold ? nhold : 1), hf[0], hf[1], hf[2], hf[3],
            hh[0], hh[1], hh[2], hh[3]);
    free(d.p);
    free(d.c);
    return write_moves(out, rule, w, GB_MS_UNIT);
}

/* The move-score tables SPEC names: "fitted" (*w NULL), "hand" (the hand-set order in
   GB_MS_UNIT) or "table:FILE" (written by movefit). Returns 0, or 1 / 2 after a message. */
static int load_moves(const char *who, const char *spec, rv_gomoku_rule rule, gb_move_weights *buf,
                      const gb_move_weights **w) {
    static int v[NMP];
    *w = NULL;
    if (!strcmp(spec, "fitted")) return 0;
    if (!strcmp(spec, "hand")) {
        static double p[NMP];
        move_prior(rule, p);
        for (int j = 0; j < NMP; j++) v[j] = (int)(p[j] > 32000 ? 32000 : p[j]);
    } else if (!strncmp(spec, "table:", 6)) {
        if (read_values(spec + 6, v, NMP)) return 1;
    } else {
        fprintf(stderr, "%s: move scores '%s': expected hand, fitted or table:FILE\n", who, spec);
        return 2;
    }
    for (int c = 0; c < 2; c++) {
        for (int k = 0; k < NCLS; k++) {
            buf->own[c][k] = (int16_t)v[mpar_own(c, k)];
            buf->opp[c][k] = (int16_t)v[mpar_opp(c, k)];
        }
        for (int a = 0; a < TL_N; a++)
            for (int b = 0; b < TL_N; b++) buf->pair[c][a][b] = (int16_t)v[mpar_pair(c, a, b)];
    }
    *w = buf;
    return 0;
}

static int emit_moves(const char *out, char **files) {
    static int v[3][NMP];
    for (int r = 0; r < 3; r++)
        if (read_values(files[r], v[r], NMP)) return 1;
    FILE *f = fopen(out, "w");
    if (!f) {
        perror(out);
        return 1;
    }
    fprintf(f, "/*\n * The Gomoku/Renju move scores (gb_move_score), fitted by tools/gomoku_train.c\n"
               " * from the engine's self-play games (scripts/fit-gomoku-weights.sh, `make\n"
               " * weights-gomoku`). Generated: do not edit. See docs/engine-gomoku.md.\n */\n"
               "#include \"gomoku/pattern.h\"\n\n"
               "const gb_move_weights gb_move_fitted[3] = {\n");
    static const char *names[3] = {"freestyle", "exact five", "Renju"};
    for (int r = 0; r < 3; r++) {
        fprintf(f, "    /* %s */\n    {.own = {", names[r]);
        for (int c = 0; c < 2; c++) {
            fprintf(f, "{");
            emit_row(f, v[r] + mpar_own(c, 0), NCLS);
            fprintf(f, "},");
        }
        fprintf(f, "},\n     .opp = {");
        for (int c = 0; c < 2; c++) {
            fprintf(f, "{");
            emit_row(f, v[r] + mpar_opp(c, 0), NCLS);
            fprintf(f, "},");
        }
        fprintf(f, "},\n     .pair = {");
        for (int c = 0; c < 2; c++) {
            fprintf(f, "{");
            for (int a = 0; a < TL_N; a++) {
                fprintf(f, "{");
                for (int b = 0; b < TL_N; b++) fprintf(f, "%d,", v[r][mpar_pair(c, a, b)]);
                fprintf(f, "},");
            }
            fprintf(f, "},");
        }
        fprintf(f, "}},\n");
    }
    fprintf(f, "};\n");
    if (fclose(f)) {
        perror(out);
        return 1;
    }
    return 0;
}

/* The evaluation tables SPEC names for the rule: "fitted" (the built-in ones: *w NULL),
   "hand" or "table:FILE" (a table fit wrote), put in *buf. Returns 0, or 1 / 2 after a
   message. */
static int load_eval(const char *who, const char *spec, rv_gomoku_rule rule, gb_eval_weights *buf,
                     const gb_eval_weights **w) {
    *w = NULL;
    if (!strcmp(spec, "fitted")) return 0;
    if (!strcmp(spec, "hand")) {
        gb_eval_hand(rule, buf);
        *w = buf;
        return 0;
    }
    if (strncmp(spec, "table:", 6)) {
        fprintf(stderr, "%s: evaluation '%s': expected hand, fitted or table:FILE\n", who, spec);
        return 2;
    }
    static int v[NPAR];
    if (read_table(spec + 6, v)) return 1;
    values_to_weights(v, buf);
    *w = buf;
    return 0;
}

/* ------------------------------------------------------------------ scale */

/* The strongest line kind (PAT_*) of each class, and its threat level (TL_*) for each
   colour under the rule. */
static void class_kinds(rv_gomoku_rule rule, int *top, int (*tl)[NCLS]) {
    for (int k = 0; k < NCLS; k++) top[k] = -1;
    for (int i = 0; i < GB_COMBOS; i++) {
        int k = gb_class_of(i), k4[4], m = 0;
        if (top[k] >= 0) continue;
        gb_combo_kinds(i, k4);
        for (int d = 0; d < 4; d++)
            if (k4[d] > m) m = k4[d];
        top[k] = m;
        for (int c = 0; c < 2; c++) {
            int16_t val;
            uint8_t level;
            gb_combo_eval(k4, rule == RV_RULE_RENJU, c + 1, &val, &level);
            tl[c][k] = level;
        }
    }
}

/* scale's class selections (--classes): the name, and which classes it takes by the strongest
   line kind of the class (top) and the colour's threat level there (tl); terms: the three threat
   terms only, no class. */
static const char *const scale_sel[] = {"all",    "weak",        "space",     "threats",
                                        "twos",   "closed-twos", "open-twos", "open-four",
                                        "quiet",  "terms",       "strong",
                                        "closed-threes", "open-threes"};
#define SCALE_SELS ((int)(sizeof scale_sel / sizeof scale_sel[0]))

/* The index of a selection name in scale_sel, or -1. */
static int scale_selection(const char *classes) {
    for (int sel = 0; sel < SCALE_SELS; sel++)
        if (!strcmp(classes, scale_sel[sel])) return sel;
    return -1;
}

static int scale_takes(int sel, int top, int tl) {
    switch (sel) {
    case 0: return 1;
    case 1: return top <= PAT_BLOCK3;
    case 2: return top <= PAT_FLEX1;
    case 3: return tl == TL_FOUR3 || tl == TL_FLEX4;
    case 4: return top >= PAT_BLOCK2 && top <= PAT_FLEX2_4;
    case 5: return top == PAT_BLOCK2;
    case 6: return top >= PAT_FLEX2 && top <= PAT_FLEX2_4;
    case 7: return tl == TL_FLEX4;
    case 8: return tl < TL_THREE;
    case 10: return tl >= TL_THREE3 && tl <= TL_FLEX4;
    case 11: return top == PAT_BLOCK3;
    case 12: return (top == PAT_FLEX3 || top == PAT_FLEX3_2) && tl == TL_THREE;
    default: return 0;
    }
}

/* Writes TABLE's values times factor (classes: one of scale_sel; role: both, to-move or
   waiting; see usage); with from, the selected values and the three threat terms are
   from's (times factor), the rest TABLE's. */
static int scale_table(rv_gomoku_rule rule, const char *in, double factor, const char *classes,
                       const char *role, const char *from, int keep_terms, const char *out) {
    int sel = 0;
    while (sel < SCALE_SELS && strcmp(classes, scale_sel[sel])) sel++;
    if (sel == SCALE_SELS) {
        fprintf(stderr, "rv-gomoku-train scale: --classes '%s': expected all, weak, space, "
                "threats, twos, closed-twos, open-twos, open-four, quiet, terms, strong, "
                "closed-threes or open-threes\n", classes);
        return 2;
    }
    int r0 = 0, r1 = 1;
    if (!strcmp(role, "to-move"))
        r1 = 0;
    else if (!strcmp(role, "waiting"))
        r0 = 1;
    else if (strcmp(role, "both")) {
        fprintf(stderr, "rv-gomoku-train scale: --role '%s': expected both, to-move or waiting\n",
                role);
        return 2;
    }
    static int v[NPAR], top[NCLS], tl[2][NCLS];
    static double w[NPAR];
    if (read_table(in, v)) return 1;
    class_kinds(rule, top, tl);
    for (int i = 0; i < NPAR; i++) w[i] = v[i];
    int terms = !strcmp(scale_sel[sel], "terms");
    if (from) {
        /* the scaled values are taken from the other table (hand: the hand-set one) */
        if (!strcmp(from, "hand")) {
            static double h[NPAR];
            prior_values(rule, h);
            for (int i = 0; i < NPAR; i++) v[i] = (int)lround(h[i]);
        } else if (read_table(from, v)) {
            return 1;
        }
        terms = !keep_terms;
    }
    for (int c = 0; c < 2; c++) {
        for (int r = r0; r <= r1; r++)
            for (int k = 0; k < NCLS; k++)
                if (scale_takes(sel, top[k], tl[c][k]))
                    w[par_cls(c, r, k)] = v[par_cls(c, r, k)] * factor;
        for (int x = 0; x < GB_X_N; x++)
            if ((sel == 0 && r0 == 0 && r1 == 1) || (terms && x != GB_X_TEMPO))
                w[par_extra(c, x)] = v[par_extra(c, x)] * factor;
    }
    return write_table(out, rule, w);
}

/* ------------------------------------------------------------------ main */

/* selfplay and relabel (files != NULL): the evaluation (--eval) and move scores (--moves)
 * loaded, the games written to --out (stdout when none), the file closed and checked. */
typedef struct {
    const char *who, *eval, *moves, *out;
    rv_gomoku_rule rule;
    long games, seed, nodes;
    int wide, nfiles;
    char **files;
} game_job;

static int write_games(const game_job *j) {
    static gb_eval_weights ew;
    static gb_move_weights mwb;
    const gb_eval_weights *w;
    const gb_move_weights *mw;
    int rc;
    if ((rc = load_eval(j->who, j->eval, j->rule, &ew, &w))) return rc;
    if ((rc = load_moves(j->who, j->moves, j->rule, &mwb, &mw))) return rc;
    FILE *f = j->out ? fopen(j->out, "w") : stdout;
    if (!f) {
        perror(j->out);
        return 1;
    }
    rc = j->files ? relabel(j->rule, j->nodes, w, mw, j->nfiles, j->files, f)
                  : selfplay(j->rule, j->games, j->seed, j->nodes, w, mw, j->wide, f);
    if (j->out && fclose(f)) {
        perror(j->out);
        return 1;
    }
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "selfplay") && strcmp(cmd, "versus") && strcmp(cmd, "fit") &&
        strcmp(cmd, "prior") && strcmp(cmd, "emit") && strcmp(cmd, "movefit") &&
        strcmp(cmd, "emit-moves") && strcmp(cmd, "scale") && strcmp(cmd, "relabel")) {
        fprintf(stderr, "rv-gomoku-train: unknown command '%s'\n", cmd);
        usage(stderr);
        return 2;
    }
    rv_gomoku_rule rule = RV_RULE_FREESTYLE;
    long games = 0, seed = -1, nodes = 4000, iters = 60, blend_plies = BOARD * BOARD;
    double l2 = -1, role_l2 = -1, blend = 1, factor = -1; /* l2 < 0: the command's default;
                                                              role_l2 < 0: off */
    const char *rule_name = NULL, *eval = "fitted", *against = NULL, *openings = "classic",
               *out = NULL, *moves = "fitted", *against_moves = "fitted", *prior = "hand",
               *classes = "all", *role = "both", *role_classes = "all", *fit_classes = NULL,
               *from = NULL;
    int keep_terms = 0;
    const rv_cli_opt opts[] = {{"--rule", RV_CLI_STR, &rule_name, 0, 0},
                               {"--games", RV_CLI_INT, &games, 1, 10000000},
                               {"--seed", RV_CLI_INT, &seed, 0, 1000000000},
                               {"--nodes", RV_CLI_INT, &nodes, 100, 100000000},
                               {"--iters", RV_CLI_INT, &iters, 0, 100000},
                               {"--l2", RV_CLI_NUM, &l2, 0, 1e12},
                               {"--role-l2", RV_CLI_NUM, &role_l2, 0, 1e12},
                               {"--role-classes", RV_CLI_STR, &role_classes, 0, 0},
                               {"--fit-classes", RV_CLI_STR, &fit_classes, 0, 0},
                               {"--from", RV_CLI_STR, &from, 0, 0},
                               {"--blend", RV_CLI_NUM, &blend, 0, 1},
                               {"--blend-plies", RV_CLI_INT, &blend_plies, 0, BOARD * BOARD},
                               {"--eval", RV_CLI_STR, &eval, 0, 0},
                               {"--against", RV_CLI_STR, &against, 0, 0},
                               {"--openings", RV_CLI_STR, &openings, 0, 0},
                               {"--out", RV_CLI_STR, &out, 0, 0},
                               {"--moves", RV_CLI_STR, &moves, 0, 0},
                               {"--against-moves", RV_CLI_STR, &against_moves, 0, 0},
                               {"--prior", RV_CLI_STR, &prior, 0, 0},
                               {"--factor", RV_CLI_NUM, &factor, 0, 100},
                               {"--classes", RV_CLI_STR, &classes, 0, 0},
                               {"--role", RV_CLI_STR, &role, 0, 0},
                               {"--keep-terms", RV_CLI_FLAG, &keep_terms, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    char who[64];
    snprintf(who, sizeof who, "rv-gomoku-train %s", cmd);
    int nfiles, rc = rv_cli_options(who, argc - 2, argv + 2, opts, &nfiles);
    if (rc == RV_CLI_HELP) return usage(stdout), 0;
    if (rc) return rc;
    char **files = argv + 2;
    if (rule_name && parse_rule(rule_name, &rule)) return 2;
    if (strcmp(openings, "wide") && strcmp(openings, "classic")) {
        fprintf(stderr, "%s: --openings '%s': expected classic or wide\n", who, openings);
        return 2;
    }
    if (!strcmp(cmd, "selfplay")) {
        if (!rule_name || games <= 0 || seed < 0 || nfiles) {
            fprintf(stderr, "rv-gomoku-train selfplay: needs --rule, --games and --seed\n");
            return 2;
        }
        game_job j = {who, eval, moves, out, rule, games, seed, nodes, !strcmp(openings, "wide"), 0, NULL};
        return write_games(&j);
    }
    if (!strcmp(cmd, "relabel")) {
        if (!rule_name || nfiles == 0) {
            fprintf(stderr, "rv-gomoku-train relabel: needs --rule and DATA files\n");
            return 2;
        }
        game_job j = {who, eval, moves, out, rule, 0, 0, nodes, 0, nfiles, files};
        return write_games(&j);
    }
    if (!strcmp(cmd, "versus")) {
        if (!rule_name || games <= 0 || seed < 0 || nfiles || !against) {
            fprintf(stderr, "rv-gomoku-train versus: needs --rule, --games, --seed and --against\n");
            return 2;
        }
        static gb_eval_weights ea, eb;
        const gb_eval_weights *wa, *wb;
        if ((rc = load_eval(who, eval, rule, &ea, &wa)) || (rc = load_eval(who, against, rule, &eb, &wb)))
            return rc;
        static gb_move_weights ma, mb;
        const gb_move_weights *mwa, *mwb;
        if ((rc = load_moves(who, moves, rule, &ma, &mwa)) ||
            (rc = load_moves(who, against_moves, rule, &mb, &mwb)))
            return rc;
        return versus(rule, games, seed, nodes, wa, mwa, wb, mwb, !strcmp(openings, "wide"));
    }
    if (!strcmp(cmd, "fit")) {
        if (!rule_name || nfiles == 0) {
            fprintf(stderr, "rv-gomoku-train fit: needs --rule and DATA files\n");
            return 2;
        }
        return fit(rule, l2 >= 0 ? l2 : 20, role_l2, role_classes, fit_classes, blend, blend_plies,
                   iters, prior,
                   nfiles, files,
                   out ? out : rule == RV_RULE_RENJU ? "renju.txt"
                           : rule == RV_RULE_STANDARD ? "standard.txt" : "freestyle.txt");
    }
    if (!strcmp(cmd, "prior")) {
        if (!rule_name || nfiles) {
            fprintf(stderr, "rv-gomoku-train prior: needs --rule\n");
            return 2;
        }
        static double p[NPAR];
        prior_values(rule, p);
        return write_table(out ? out : "prior.txt", rule, p);
    }
    if (!strcmp(cmd, "movefit")) {
        if (!rule_name || nfiles == 0) {
            fprintf(stderr, "rv-gomoku-train movefit: needs --rule and DATA files\n");
            return 2;
        }
        return movefit(rule, l2 >= 0 ? l2 : 0.5, iters, nfiles, files, out ? out : "moves.txt");
    }
    if (!strcmp(cmd, "scale")) {
        if (!rule_name || factor < 0 || nfiles != 1) {
            fprintf(stderr, "rv-gomoku-train scale: needs --rule, --factor and one TABLE\n");
            return 2;
        }
        return scale_table(rule, files[0], factor, classes, role, from, keep_terms,
                           out ? out : "scaled.txt");
    }
    if (nfiles != 3 || !out) {
        fprintf(stderr, "rv-gomoku-train %s: needs --out FILE.c and 3 table files\n", cmd);
        return 2;
    }
    return strcmp(cmd, "emit") ? emit_moves(out, files) : emit(out, files);
}
