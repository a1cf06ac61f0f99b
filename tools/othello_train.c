/*
 * rv-train: the reproducible pipeline behind the Othello evaluation weights
 * (src/reversi/eval_weights.bin).  Everything is deterministic for given
 * arguments, so `make weights` rebuilds the committed table bit for bit.
 *
 *   rv-train selfplay --games N --seed S [--depth D] [--solve E] [--out FILE]
 *       Plays N games of the engine against itself, each from a different
 *       random opening, and writes one line per position:
 *           PLAYER OPPONENT SCORE      (hex bitboards, side to move first)
 *       SCORE is the exact final disc difference for the side to move:
 *       positions with at most E empties are solved exactly; earlier ones get
 *       the exact value of the game's first position with E empties (the
 *       game's result with perfect play from there on).
 *
 *   rv-train label --games N --seed S [--depth D] [--solve E] [--out FILE] ...
 *       Plays N games from varied openings and labels every position after
 *       the opening by a search: exact at E empties or fewer, else the score of
 *       a depth-D midgame search (see label()).
 *
 *   rv-train games [--solve E] [--out FILE] GAMES...
 *       Replays recorded games (the WTHOR database: .wtb files or PGN text) and
 *       labels their positions like selfplay (see games_label()).
 *
 *   rv-train relabel [--depth D] [--solve E] [--blend A] [--every K] [--out FILE] DATA...
 *       Labels the positions of DATA files again by the engine's search (see
 *       relabel()): exact at E empties or fewer, else A% of a depth-D score
 *       and (100 - A)% of the old label; one position in K.
 *
 *   rv-train fit [--epochs N] [--l2 X] [--init FILE --delta FILE] [--out FILE] DATA...
 *       Fits the weights of the pattern evaluation (src/reversi/pattern.h) to
 *       the positions by regularised least squares (see fit_stage()) and
 *       writes them in the format CMake compiles (src/reversi/eval_weights.bin).
 *
 *   rv-train probcut-data --positions N --seed S [--depth D] [--out FILE]
 *       Samples N positions from games played from random openings and
 *       writes, for each, 'PLAYER OPPONENT EMPTIES S0 S1 ... SD': the scores
 *       (centidiscs, side to move) of full-window midgame searches of depth
 *       0..D without any forward pruning.
 *
 *   rv-train probcut-fit [--out FILE] DATA...
 *       Fits the Multi-ProbCut regressions (src/reversi/probcut.h) of the
 *       depth-d scores on the depth-rv_pc_shallow(d) scores, per stage, and
 *       writes them as C (src/reversi/probcut_table.c).
 *
 *   rv-train eg-probcut-data --positions N --seed S [--min E] [--max F] [--out FILE]
 *       Samples N positions of E..F empties from games played from random
 *       openings, solves each exactly and writes
 *       'PLAYER OPPONENT EMPTIES EXACT S0 ... S8': the exact score (discs) and
 *       the midgame search's scores (centidiscs) at depths 0..8.
 *
 *   rv-train eg-probcut-fit [--out FILE] DATA...
 *       Fits the exact solver's ProbCut model (src/reversi/endgame_probcut.h):
 *       per depth, the mean and sd of exact - shallow; writes it as C
 *       (src/reversi/endgame_probcut.c).
 *
 * Run with --help for the options.  See docs/engine-othello.md.
 */
#include "cmdline/cmdline.h"
#include "renversi/renversi.h"
#include "reversi/ai_internal.h"
#include "reversi/endgame_probcut.h"
#include "reversi/pattern.h"
#include "reversi/probcut.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
    fprintf(f,
            "usage: rv-train selfplay --games N --seed S [--depth D] [--solve E] [--eval E] [--out FILE]\n"
            "       rv-train label --games N --seed S [--depth D] [--solve E] [--random R]\n"
            "                      [--weights FILE] [--out FILE]\n"
            "       rv-train games [--solve E] [--out FILE] GAMES...\n"
            "       rv-train relabel [--depth D] [--solve E] [--blend A] [--every K] [--out FILE] DATA...\n"
            "       rv-train fit [--epochs N] [--l2 X] [--min N] [--init FILE [--delta FILE]\n"
            "                    [--quantum Q] [--first-stage A] [--last-stage B]] [--freeze-patterns 1]\n"
            "                    [--out FILE] DATA...\n"
            "       rv-train probcut-data --positions N --seed S [--depth D] [--out FILE]\n"
            "       rv-train probcut-fit [--out FILE] DATA...\n"
            "       rv-train eg-probcut-data --positions N --seed S [--min E] [--max F] [--out FILE]\n"
            "       rv-train eg-probcut-fit [--out FILE] DATA...\n"
                        "\n"
            "selfplay  plays N engine-vs-engine games from random openings (6-24 random\n"
            "          moves; seed S) at midgame depth D (default 4), solves every\n"
            "          position with at most E empties exactly (default 18) and writes\n"
            "          'PLAYER OPPONENT SCORE' lines (hex bitboards, exact disc difference\n"
            "          for the side to move; earlier positions get the exact value of\n"
            "          the game at E empties).  --eval simple|pattern: the engine's\n"
            "          evaluation (default pattern: the weights built in).  Progress on\n"
            "          stderr.\n"
            "label     plays N games from random openings (2-29 random moves; seed S),\n"
            "          the moves of a depth-D search (default 8, with the engine's\n"
            "          forward pruning) but one in R (default 10) at random, and writes\n"
            "          every position after the opening as 'PLAYER OPPONENT SCORE':\n"
            "          the exact disc difference at E empties or fewer (default 20),\n"
            "          else the depth-D score in discs (side to move).  --weights: the\n"
            "          evaluation's weights from a file instead of the built-in ones.\n"
            "games     replays recorded games (WTHOR .wtb files, or PGN text: a line\n"
            "          starting with '[' is a header, words like f5 are moves) and\n"
            "          writes every position as 'PLAYER OPPONENT SCORE': exact from\n"
            "          E empties on (default 16), earlier the exact value of the\n"
            "          game's first position with E empties.  Games with an illegal\n"
            "          move or that stop early are skipped (counted on stderr).\n"
            "relabel   labels the positions of DATA files (output of the commands above)\n"
            "          again: one in K (by hash, default all) is kept, solved exactly at\n"
            "          E empties or fewer (default 18), else labelled A%% (default 100)\n"
            "          by a depth-D search (default 8, with the engine's forward pruning\n"
            "          and built-in weights) and (100-A)%% by its old label, in discs.\n"
            "          A position that comes again is looked up, not searched again.\n"
            "fit       fits the pattern weights to the DATA files (selfplay or label\n"
            "          output) by least squares with an L2 penalty X (default 8), N\n"
            "          sweeps (default 100), and writes them (default eval_weights.bin).\n"
            "          A stage's positions are widened to neighbouring empties until\n"
            "          there are N (--min, default 50000).  One position in 20 (by hash)\n"
            "          is held out; the error on it is printed per stage.  --init FILE\n"
            "          starts from those weights (the penalty pulls towards them),\n"
            "          rounds each change to a multiple of Q/128 disc (--quantum,\n"
            "          default 1) and --delta writes the changes as a delta file.\n"
            "          --freeze-patterns 1 fits only mobility and the empties bias.\n"
            "          --first-stage A --last-stage B (0..14, empties / 4) fit only those\n"
            "          stages; the others keep the --init weights.\n"
            "probcut-data  samples N positions (12..52 empties, seed S) from games played\n"
            "          from random openings and writes 'PLAYER OPPONENT EMPTIES S0 .. SD':\n"
            "          full-window midgame scores (centidiscs) at depths 0..D (default 11)\n"
            "          without forward pruning.\n"
            "probcut-fit  fits deep = a * shallow + b (residual sd sigma) per stage and\n"
            "          depth on probcut-data files and writes the C table (default\n"
            "          probcut_table.c; the build uses src/reversi/probcut_table.c).\n"
            "eg-probcut-data  samples N positions of E..F empties (default 12..20,\n"
            "          seed S) from games played from random openings, solves each\n"
            "          exactly and writes 'PLAYER OPPONENT EMPTIES EXACT S0 .. S8': the\n"
            "          exact score in discs and the midgame search's scores\n"
            "          (centidiscs, its own ProbCut on, as the solver runs it) at\n"
            "          depths 0..8, all for the side to move.\n"
            "eg-probcut-fit  fits the exact solver's ProbCut model on eg-probcut-data\n"
            "          files: per depth d, bias = mean of 100 * EXACT - Sd and sigma =\n"
            "          its sd (slope taken as 1; the fitted slope is printed as a\n"
            "          check), and writes the C table (default endgame_probcut.c; the\n"
            "          build uses src/reversi/endgame_probcut.c).\n");
}

/* Reads the options of subcommand SUB (a word that is not an option is refused). Returns
   -1 to go on, else the exit status (0 after --help). */
/* The output file (standard output without --out); NULL after saying why it cannot be written. */
static FILE *open_out(const char *path) {
    FILE *out = path ? fopen(path, "w") : stdout;
    if (!out) fprintf(stderr, "rv-train: cannot write %s: %s\n", path, strerror(errno));
    return out;
}

static int options(const char *sub, int argc, char **argv, const rv_cli_opt *opts) {
    char who[64];
    snprintf(who, sizeof who, "rv-train %s", sub);
    int npos, rc = rv_cli_options(who, argc, argv, opts, &npos);
    if (rc == RV_CLI_HELP) return usage(stdout), 0;
    if (rc) return rc;
    if (npos) return fprintf(stderr, "%s: unexpected argument '%s'\n", who, argv[0]), 2;
    return -1;
}

/* ------------------------------------------------------------ selfplay */

typedef struct sample {
    uint64_t p, o;
    int exact; /* score known exactly for this position */
    int score; /* for the side to move, when exact */
    int black; /* side to move is black */
} sample;

static int random_move(rv_rng *rng, uint64_t moves) {
    int n = rv_bb_count(moves), k = (int)rv_rng_below(rng, (uint64_t)n);
    while (k--) moves &= moves - 1;
    return rv_bb_first(moves);
}

static int selfplay(int argc, char **argv) {
    long games = -1, seed = -1, depth = 4, solve_at = 18;
    const char *out_path = NULL;
    const char *eval_name = "pattern";
    const rv_cli_opt opts[] = {{"--games", RV_CLI_INT, &games, 1, 100000000},
                               {"--seed", RV_CLI_INT, &seed, 0, 2000000000},
                               {"--depth", RV_CLI_INT, &depth, 1, 20},
                               {"--solve", RV_CLI_INT, &solve_at, 0, 30},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {"--eval", RV_CLI_STR, &eval_name, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int rc = options("selfplay", argc, argv, opts);
    if (rc >= 0) return rc;
    rv_reversi_eval eval = RV_REVERSI_EVAL_PATTERN;
    if (!strcmp(eval_name, "simple")) eval = RV_REVERSI_EVAL_SIMPLE;
    else if (strcmp(eval_name, "pattern"))
        return fprintf(stderr, "rv-train selfplay: --eval expects simple or pattern (not '%s')\n",
                       eval_name), 2;
    if (games < 0 || seed < 0) {
        fprintf(stderr, "rv-train selfplay: --games and --seed are required\n");
        return 2;
    }
    FILE *out = open_out(out_path);
    if (!out) return 1;
    rv_reversi_ai *ai = rv_reversi_ai_new(16u << 20);
    if (!ai) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    rv_reversi_ai_set_eval(ai, eval);
    /* The committed weights were fitted on games without forward pruning:
     * keep the games (and so a refit) the same. */
    rv_reversi_ai_set_probcut(ai, 0);
    rv_rng rng;
    rv_rng_seed(&rng, (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1);
    rv_reversi_limits mid = {0, (int)depth, 0, 0};
    long written = 0;
    double t0 = rv_clock_seconds();
    for (long g = 0; g < games; g++) {
        sample s[RV_REVERSI_MAX_PLIES];
        int n = 0, anchor = -1;
        rv_reversi_pos pos;
        rv_reversi_init(&pos);
        int random_plies = 6 + (int)rv_rng_below(&rng, 19), ply = 0;
        while (!rv_reversi_is_over(&pos)) {
            uint64_t moves = rv_reversi_moves(&pos);
            int empties = rv_reversi_count(&pos, RV_EMPTY), mv;
            if (!moves) {
                rv_reversi_play(&pos, RV_REVERSI_PASS);
                continue;
            }
            if (ply < random_plies) {
                mv = random_move(&rng, moves);
            } else if (empties <= solve_at) {
                rv_reversi_solve_result r;
                if (rv_reversi_solve(ai, &pos, 0, &r) != RV_OK) return 1;
                s[n] = (sample){pos.player, pos.opponent, 1, r.score, pos.side == RV_BLACK};
                if (anchor < 0) anchor = n;
                n++;
                /* Exact labels whatever is played: vary the line a little. */
                mv = rv_rng_below(&rng, 5) == 0 ? random_move(&rng, moves) : r.move;
            } else {
                rv_reversi_ai_info info;
                if (rv_reversi_ai_think(ai, &pos, &mid, &info) != RV_OK) return 1;
                s[n++] = (sample){pos.player, pos.opponent, 0, 0, pos.side == RV_BLACK};
                mv = info.move;
            }
            if (rv_reversi_play(&pos, mv) != RV_OK) return fprintf(stderr, "rv-train: bad move\n"), 1;
            ply++;
        }
        if (anchor < 0) { /* the game ended before E empties: its result is exact */
            int sc = rv_reversi_score(&pos);
            for (int i = 0; i < n; i++) {
                s[i].exact = 1;
                s[i].score = (s[i].black == (pos.side == RV_BLACK)) ? sc : -sc;
            }
        }
        for (int i = 0; i < n; i++) {
            int sc = s[i].score;
            if (!s[i].exact) sc = s[i].black == s[anchor].black ? s[anchor].score : -s[anchor].score;
            fprintf(out, "%016" PRIx64 " %016" PRIx64 " %d\n", s[i].p, s[i].o, sc);
            written++;
        }
        if ((g + 1) % 100 == 0 || g + 1 == games) {
            double t = rv_clock_seconds() - t0;
            fprintf(stderr, "\rselfplay: %ld/%ld games, %ld positions, %.0f s, ~%.0f s left ", g + 1,
                    games, written, t, t / (double)(g + 1) * (double)(games - g - 1));
            fflush(out);
        }
    }
    fprintf(stderr, "\n");
    rv_reversi_ai_free(ai);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "rv-train: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}


/* ------------------------------------------------------------ label */

static int16_t *read_weights(const char *path);

/*
 * Games from varied openings, every position after the opening labelled by a
 * search: an exact solve at E empties or fewer, else a midgame search of
 * depth D (with the engine's forward pruning, as it plays).  The moves are the
 * search's own, except one in R chosen at random (so the games branch out);
 * the label is always the searched position's value, whatever is played next.
 */
static int label(int argc, char **argv) {
    long games = -1, seed = -1, depth = 8, solve_at = 20, rnd = 10;
    const char *out_path = NULL, *weights_path = NULL;
    const rv_cli_opt opts[] = {{"--games", RV_CLI_INT, &games, 1, 100000000},
                               {"--seed", RV_CLI_INT, &seed, 0, 2000000000},
                               {"--depth", RV_CLI_INT, &depth, 1, 20},
                               {"--solve", RV_CLI_INT, &solve_at, 0, 26},
                               {"--random", RV_CLI_INT, &rnd, 2, 1000000},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {"--weights", RV_CLI_STR, &weights_path, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int rc = options("label", argc, argv, opts);
    if (rc >= 0) return rc;
    if (games < 0 || seed < 0) {
        fprintf(stderr, "rv-train label: --games and --seed are required\n");
        return 2;
    }
    FILE *out = open_out(out_path);
    if (!out) return 1;
    rv_reversi_ai *ai = rv_reversi_ai_new(16u << 20);
    if (!ai) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    if (weights_path) {
        int16_t *w = read_weights(weights_path);
        if (!w) return 1;
        free(w);
        FILE *wf = fopen(weights_path, "rb");
        size_t cap = RV_PAT_FILE_HEADER + (size_t)rv_pat_offset[RV_PAT_GROUPS] * RV_PAT_STAGES * 2;
        unsigned char *img = malloc(cap);
        size_t got = wf && img ? fread(img, 1, cap, wf) : 0;
        if (wf) fclose(wf);
        if (!img || rv_reversi_ai_set_weights(ai, img, got) != RV_OK)
            return fprintf(stderr, "rv-train: cannot load %s\n", weights_path), 1;
        free(img);
    }
    rv_rng rng;
    rv_rng_seed(&rng, (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 3);
    rv_reversi_limits mid = {0, (int)depth, 0, 0};
    long written = 0;
    double t0 = rv_clock_seconds();
    for (long g = 0; g < games; g++) {
        rv_reversi_pos pos;
        rv_reversi_init(&pos);
        rv_reversi_ai_clear(ai);
        /* 2..29 random plies: openings from the usual to the strange. */
        int random_plies = 2 + (int)rv_rng_below(&rng, 28), ply = 0;
        while (!rv_reversi_is_over(&pos)) {
            uint64_t moves = rv_reversi_moves(&pos);
            int empties = rv_reversi_count(&pos, RV_EMPTY), mv, centi;
            if (!moves) {
                rv_reversi_play(&pos, RV_REVERSI_PASS);
                continue;
            }
            if (ply < random_plies) {
                if (rv_reversi_play(&pos, random_move(&rng, moves)) != RV_OK) return 1;
                ply++;
                continue;
            }
            if (empties <= solve_at) {
                rv_reversi_solve_result r;
                if (rv_reversi_solve(ai, &pos, 0, &r) != RV_OK) return 1;
                centi = 100 * r.score;
                mv = r.move;
            } else {
                rv_reversi_ai_info info;
                if (rv_reversi_ai_think(ai, &pos, &mid, &info) != RV_OK) return 1;
                centi = info.eval_centi;
                mv = info.move;
            }
            fprintf(out, "%016" PRIx64 " %016" PRIx64 " %.2f\n", pos.player, pos.opponent, centi / 100.0);
            written++;
            if (rv_rng_below(&rng, (uint64_t)rnd) == 0) mv = random_move(&rng, moves);
            if (rv_reversi_play(&pos, mv) != RV_OK) return fprintf(stderr, "rv-train: bad move\n"), 1;
            ply++;
        }
        if ((g + 1) % 10 == 0 || g + 1 == games) {
            double t = rv_clock_seconds() - t0;
            fprintf(stderr, "\rlabel: %ld/%ld games, %ld positions, %.0f s, ~%.0f s left ", g + 1, games,
                    written, t, t / (double)(g + 1) * (double)(games - g - 1));
            fflush(out);
        }
    }
    fprintf(stderr, "\n");
    rv_reversi_ai_free(ai);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "rv-train: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}


/* ------------------------------------------------------------ games */

/*
 * Recorded games (the WTHOR database of the French Othello federation, as
 * its .wtb files or as PGN text), each labelled like selfplay: the game's
 * first position with at most E empties is solved exactly, every later
 * position too, and the earlier ones get the value of the first (the result
 * of the game's opening and midgame with perfect play from E empties on).
 */

/* A game's moves as squares 0..63 (passes are not recorded). */
typedef struct game_rec {
    uint8_t sq[RV_REVERSI_MAX_PLIES];
    int n;
} game_rec;

typedef struct games_stats {
    long games, bad, short_, written;
} games_stats;

/* Replays g, labels its positions and writes them; a game with a move that is
 * not legal, or that stops before E empties without being over, is counted
 * and skipped. */
static int games_label(rv_reversi_ai *ai, const game_rec *g, int solve_at, FILE *out,
                       games_stats *st) {
    sample s[RV_REVERSI_MAX_PLIES];
    int n = 0, anchor = -1;
    rv_reversi_pos pos;
    rv_reversi_init(&pos);
    st->games++;
    for (int i = 0; i < g->n && !rv_reversi_is_over(&pos); i++) {
        uint64_t moves = rv_reversi_moves(&pos);
        if (!moves) {
            rv_reversi_play(&pos, RV_REVERSI_PASS);
            moves = rv_reversi_moves(&pos);
        }
        if (!((moves >> g->sq[i]) & 1)) return st->bad++, 0;
        if (n < RV_REVERSI_MAX_PLIES) s[n++] = (sample){pos.player, pos.opponent, 0, 0, pos.side == RV_BLACK};
        rv_reversi_play(&pos, g->sq[i]);
    }
    int over = rv_reversi_is_over(&pos);
    for (int i = 0; i < n; i++) {
        if (64 - rv_bb_count(s[i].p | s[i].o) > solve_at) continue;
        rv_reversi_pos q = pos;
        q.player = s[i].p;
        q.opponent = s[i].o;
        q.side = s[i].black ? RV_BLACK : RV_WHITE;
        rv_reversi_solve_result r;
        if (rv_reversi_solve(ai, &q, 0, &r) != RV_OK) return -1;
        s[i].exact = 1;
        s[i].score = r.score;
        if (anchor < 0) anchor = i;
    }
    if (anchor < 0) {
        if (!over) return st->short_++, 0; /* the record stops early */
        int sc = rv_reversi_score(&pos);
        for (int i = 0; i < n; i++) {
            s[i].exact = 1;
            s[i].score = s[i].black == (pos.side == RV_BLACK) ? sc : -sc;
        }
    }
    for (int i = 0; i < n; i++) {
        int sc = s[i].score;
        if (!s[i].exact) sc = s[i].black == s[anchor].black ? s[anchor].score : -s[anchor].score;
        fprintf(out, "%016" PRIx64 " %016" PRIx64 " %d\n", s[i].p, s[i].o, sc);
        st->written++;
    }
    return 0;
}

/* The games of a WTHOR .wtb file: a 16-byte header (byte 12: board size, 0 or
 * 8 for 8x8), then 68-byte records whose bytes 8..67 are the moves as
 * 10 * row + column (1..8 each; 0 after the last move). */
static int games_wtb(FILE *f, const char *path, rv_reversi_ai *ai, int solve_at, FILE *out,
                     games_stats *st) {
    unsigned char h[16], r[68];
    if (fread(h, 1, 16, f) != 16 || (h[12] != 0 && h[12] != 8))
        return fprintf(stderr, "rv-train: %s: expected a WTHOR 8x8 game file (.wtb)\n", path), -1;
    while (fread(r, 1, 68, f) == 68) {
        game_rec g = {.n = 0};
        for (int i = 8; i < 68 && r[i]; i++) {
            int row = r[i] / 10, col = r[i] % 10;
            if (row < 1 || row > 8 || col < 1 || col > 8) break;
            g.sq[g.n++] = (uint8_t)((row - 1) * 8 + col - 1);
        }
        if (games_label(ai, &g, solve_at, out, st) != 0) return -1;
    }
    return 0;
}

/* The games of a PGN text file: a line starting with '[' is a header (a new
 * game starts at the first header after some moves); elsewhere every word of
 * a column letter and a row digit ("f5", "F5") is a move. */
static int games_pgn(FILE *f, rv_reversi_ai *ai, int solve_at, FILE *out, games_stats *st) {
    game_rec g = {.n = 0};
    char tok[3];
    int c, prev = '\n', header = 0, len = 0, too_long = 0;
    do {
        c = getc(f);
        if (c != EOF && isalnum(c)) {
            if (len < 3) tok[len] = (char)c;
            len++;
        } else {
            if (len == 2 && (tok[0] | 32) >= 'a' && (tok[0] | 32) <= 'h' && tok[1] >= '1' && tok[1] <= '8') {
                if (g.n < RV_REVERSI_MAX_PLIES) g.sq[g.n++] = (uint8_t)((tok[1] - '1') * 8 + ((tok[0] | 32) - 'a'));
                else too_long = 1;
            }
            len = 0;
        }
        if (c == EOF || (prev == '\n' && c == '[')) {
            if (too_long) st->bad++;
            else if (g.n && games_label(ai, &g, solve_at, out, st) != 0) return -1;
            g.n = too_long = 0;
            header = 1;
        }
        if (c == '\n') header = 0;
        if (header) len = 0; /* words of a header are not moves */
        prev = c;
    } while (c != EOF);
    return 0;
}

static int games_cmd(int argc, char **argv) {
    long solve_at = 16;
    const char *out_path = NULL;
    const rv_cli_opt opts[] = {{"--solve", RV_CLI_INT, &solve_at, 0, 26},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int npos, rc = rv_cli_options("rv-train games", argc, argv, opts, &npos);
    if (rc == RV_CLI_HELP) return usage(stdout), 0;
    if (rc) return rc;
    if (!npos) return fprintf(stderr, "rv-train games: no game files given (.wtb or .pgn)\n"), 2;
    FILE *out = open_out(out_path);
    if (!out) return 1;
    rv_reversi_ai *ai = rv_reversi_ai_new(16u << 20);
    if (!ai) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    games_stats st = {0};
    double t0 = rv_clock_seconds();
    for (int i = 0; i < npos; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) return fprintf(stderr, "rv-train: cannot read %s: %s\n", argv[i], strerror(errno)), 1;
        size_t len = strlen(argv[i]);
        int wtb = len > 4 && (!strcmp(argv[i] + len - 4, ".wtb") || !strcmp(argv[i] + len - 4, ".WTB"));
        rc = wtb ? games_wtb(f, argv[i], ai, (int)solve_at, out, &st)
                 : games_pgn(f, ai, (int)solve_at, out, &st);
        fclose(f);
        if (rc) return 1;
        fprintf(stderr, "games: %s: %ld games so far, %ld positions, %ld with an illegal move, %ld cut short, %.0f s\n",
                argv[i], st.games, st.written, st.bad, st.short_, rv_clock_seconds() - t0);
        fflush(out);
    }
    rv_reversi_ai_free(ai);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "rv-train: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ data files */

typedef struct position {
    uint64_t p, o;
    float score; /* discs, side to move */
} position;

typedef struct dataset {
    position *v;
    size_t n, cap;
} dataset;

static int load_data(const char *path, dataset *d) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "rv-train: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[256];
    long ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '#' || line[0] == '\n') continue;
        uint64_t p, o;
        float sc;
        int used = 0;
        if (sscanf(line, "%" SCNx64 " %" SCNx64 " %f %n", &p, &o, &sc, &used) != 3 ||
            line[used] != '\0' || (p & o) || !(sc >= -64 && sc <= 64)) {
            fprintf(stderr, "rv-train: %s:%ld: expected 'PLAYER OPPONENT SCORE' (hex, hex, -64..64)\n",
                    path, ln);
            fclose(f);
            return -1;
        }
        if (d->n == d->cap) {
            size_t cap = d->cap ? d->cap * 2 : 1 << 16;
            position *v = realloc(d->v, cap * sizeof *v);
            if (!v) {
                fclose(f);
                fprintf(stderr, "rv-train: out of memory\n");
                return -1;
            }
            d->v = v;
            d->cap = cap;
        }
        d->v[d->n++] = (position){p, o, sc};
    }
    fclose(f);
    return 0;
}

/* ------------------------------------------------------------ relabel */

/* One in K positions, by a hash of the position (independent of the fit's
 * held-out choice, which reads other bits of another hash). */
static int relabel_pick(uint64_t p, uint64_t o, long every) {
    uint64_t h = (p ^ (o * 0x9E3779B97F4A7C15ULL)) * 0xD6E8FEB86659FD93ULL;
    return (long)((h >> 16) % (uint64_t)every) == 0;
}

/* The value (centidiscs, side to move) of (P, O) by a solve at E empties or
 * fewer, else by a depth-D search; a side without a move passes.  *exact is
 * set when the value is exact.  -1 when the engine fails. */
static int relabel_value(rv_reversi_ai *ai, uint64_t P, uint64_t O, int depth, int solve_at,
                         int *centi, int *exact) {
    rv_reversi_pos pos;
    rv_reversi_init(&pos);
    pos.player = P;
    pos.opponent = O;
    pos.side = RV_BLACK; /* colours do not change a value */
    int sign = 1;
    if (rv_reversi_is_over(&pos)) {
        *centi = 100 * rv_reversi_score(&pos);
        *exact = 1;
        return 0;
    }
    if (!rv_reversi_moves(&pos)) {
        if (rv_reversi_play(&pos, RV_REVERSI_PASS) != RV_OK) return -1;
        sign = -1;
    }
    if (rv_reversi_count(&pos, RV_EMPTY) <= solve_at) {
        rv_reversi_solve_result r;
        if (rv_reversi_solve(ai, &pos, 0, &r) != RV_OK) return -1;
        *centi = sign * 100 * r.score;
        *exact = 1;
        return 0;
    }
    rv_reversi_limits mid = {0, depth, 0, 0};
    rv_reversi_ai_info info;
    if (rv_reversi_ai_think(ai, &pos, &mid, &info) != RV_OK) return -1;
    *centi = sign * info.eval_centi;
    *exact = info.exact;
    return 0;
}

/*
 * Positions of DATA files (selfplay, label or games output) labelled again:
 * one in K (by hash) is kept, solved exactly at E empties or fewer, else
 * given A% of a depth-D search's score plus (100 - A)% of its old label.  A
 * position that comes again takes its value from a cache instead of a new
 * search.
 */
static int relabel(int argc, char **argv) {
    long depth = 8, solve_at = 18, blend = 100, every = 1;
    const char *out_path = NULL;
    const rv_cli_opt opts[] = {{"--depth", RV_CLI_INT, &depth, 1, 20},
                               {"--solve", RV_CLI_INT, &solve_at, 0, 24},
                               {"--blend", RV_CLI_INT, &blend, 0, 100},
                               {"--every", RV_CLI_INT, &every, 1, 1000000},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int npos, rc = rv_cli_options("rv-train relabel", argc, argv, opts, &npos);
    if (rc == RV_CLI_HELP) return usage(stdout), 0;
    if (rc) return rc;
    if (!npos) return fprintf(stderr, "rv-train relabel: no data files given\n"), 2;
    FILE *out = open_out(out_path);
    if (!out) return 1;
    rv_reversi_ai *ai = rv_reversi_ai_new(16u << 20);
    enum { CACHE = 1 << 20 };
    struct { uint64_t p, o; int centi, exact; } *cache = calloc(CACHE, sizeof *cache);
    if (!ai || !cache) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    long kept = 0, searched = 0, hits = 0;
    double t0 = rv_clock_seconds();
    for (int i = 0; i < npos; i++) {
        dataset d = {0};
        if (load_data(argv[i], &d) != 0) return 1;
        for (size_t j = 0; j < d.n; j++) {
            uint64_t P = d.v[j].p, O = d.v[j].o;
            if (!relabel_pick(P, O, every)) continue;
            size_t slot = (size_t)(((P * 0xC2B2AE3D27D4EB4FULL) ^ O) * 0x9E3779B97F4A7C15ULL >> 44);
            int centi, exact;
            if (cache[slot].p == P && cache[slot].o == O && (P | O)) {
                centi = cache[slot].centi;
                exact = cache[slot].exact;
                hits++;
            } else {
                if (relabel_value(ai, P, O, (int)depth, (int)solve_at, &centi, &exact) != 0)
                    return fprintf(stderr, "rv-train: the engine failed on %016" PRIx64 " %016" PRIx64 "\n", P, O), 1;
                cache[slot].p = P;
                cache[slot].o = O;
                cache[slot].centi = centi;
                cache[slot].exact = exact;
                searched++;
            }
            double v = exact ? centi / 100.0
                             : (blend * (centi / 100.0) + (100 - blend) * (double)d.v[j].score) / 100.0;
            fprintf(out, "%016" PRIx64 " %016" PRIx64 " %.2f\n", P, O, v);
            kept++;
            if (kept % 10000 == 0) {
                fprintf(stderr, "\rrelabel: %s: %ld positions, %ld searched, %.0f s ", argv[i], kept,
                        searched, rv_clock_seconds() - t0);
                fflush(out);
            }
        }
        free(d.v);
    }
    fprintf(stderr, "\nrelabel: %ld positions (%ld searched, %ld repeats), %.0f s\n", kept, searched, hits,
            rv_clock_seconds() - t0);
    free(cache);
    rv_reversi_ai_free(ai);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "rv-train: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ fit */

/*
 * canon[i]: the representative of weight i among the configurations that
 * are mirror images of each other (a pattern that some symmetry maps onto
 * itself sees the same situation under two indices); tied weights are fitted
 * as one, so the evaluation is exactly symmetric.
 */
static uint32_t *make_canon(void) {
    uint32_t n = rv_pat_offset[RV_PAT_GROUPS];
    uint32_t *canon = malloc(n * sizeof *canon);
    if (!canon) return NULL;
    for (uint32_t i = 0; i < n; i++) canon[i] = i;
    for (int t = 0; t < RV_PAT_TYPES; t++) {
        uint64_t m = rv_pat_mask[t];
        int sq[10], ns = 0;
        for (uint64_t b = m; b; b &= b - 1) sq[ns++] = __builtin_ctzll(b);
        for (int k = 1; k < 8; k++) {
            /* perm[j]: the digit that symmetry k reads at digit j. */
            int perm[10], ok = 1;
            for (int j = 0; j < ns && ok; j++) {
                int src = -1;
                for (int p = 0; p < 64; p++)
                    if (rv_pat_transform(1ULL << p, k) == 1ULL << sq[j]) src = p;
                perm[j] = -1;
                for (int q = 0; q < ns; q++)
                    if (sq[q] == src) perm[j] = q;
                ok = perm[j] >= 0;
            }
            if (!ok) continue; /* k does not map the pattern onto itself */
            uint32_t size = rv_pat_offset[t + 1] - rv_pat_offset[t];
            for (uint32_t idx = 0; idx < size; idx++) {
                int d[10];
                uint32_t x = idx, y = 0, w = 1;
                for (int j = 0; j < ns; j++, x /= 3) d[j] = (int)(x % 3);
                for (int j = 0; j < ns; j++, w *= 3) y += (uint32_t)d[perm[j]] * w;
                uint32_t a = rv_pat_offset[t] + idx, b = rv_pat_offset[t] + y;
                /* Union by minimum (the symmetries form a group: one pass of
                 * each element reaches the whole orbit, repeated to settle). */
                uint32_t ca = canon[a], cb = canon[b], c = ca < cb ? ca : cb;
                canon[a] = canon[b] = c;
            }
        }
        /* Settle chains to their smallest member. */
        for (uint32_t i = rv_pat_offset[t]; i < rv_pat_offset[t + 1]; i++)
            while (canon[canon[i]] != canon[i]) canon[i] = canon[canon[i]];
    }
    return canon;
}

static int is_holdout(const position *p) {
    uint64_t h = p->p * 0x9E3779B97F4A7C15ULL ^ p->o * 0xC2B2AE3D27D4EB4FULL;
    return (h >> 40) % 20 == 0;
}

/*
 * Fits one stage: minimises sum (score - sum of the sample's weights)^2 +
 * l2 * sum w^2 by block coordinate descent, one feature group at a time:
 * each weight moves by its residual sum over (uses * instances of the group
 * per position + l2), a damped Jacobi step that cannot overshoot.  w gets the
 * stage's weights in discs.
 */
static void fit_stage(const uint32_t *feat, const float *y, size_t n, const uint32_t *vfeat,
                      const float *vy, size_t vn, float *w, int epochs, double l2, int stage,
                      int first_group) {
    uint32_t nw = rv_pat_offset[RV_PAT_GROUPS];
    float *r = malloc(n * sizeof *r);
    double *num = calloc(nw, sizeof *num);
    uint32_t *cnt = calloc(nw, sizeof *cnt);
    if (!r || !num || !cnt) {
        fprintf(stderr, "rv-train: out of memory\n");
        exit(1);
    }
    /* The features of group g are first[g] .. end[g] - 1 (the generated
     * instances come grouped by type, then the three extra features). */
    int first[RV_PAT_GROUPS], end[RV_PAT_GROUPS] = {0};
    for (int f = RV_PAT_FEATURES - 1; f >= 0; f--) {
        int g = f < RV_PAT_INSTANCES ? rv_pat_inst_type[f] : RV_PAT_TYPES + f - RV_PAT_INSTANCES;
        first[g] = f;
        if (!end[g]) end[g] = f + 1;
    }
    for (size_t s = 0; s < n; s++) {
        for (int f = 0; f < RV_PAT_FEATURES; f++) cnt[feat[s * RV_PAT_FEATURES + f]]++;
        r[s] = y[s];
    }
    for (uint32_t i = 0; i < nw; i++) w[i] = 0;
    for (int ep = 0; ep < epochs; ep++) {
        for (int g = first_group; g < RV_PAT_GROUPS; g++) {
            const int f0 = first[g], f1 = end[g], per = f1 - f0;
            for (uint32_t i = rv_pat_offset[g]; i < rv_pat_offset[g + 1]; i++) num[i] = 0;
            for (size_t s = 0; s < n; s++)
                for (int f = f0; f < f1; f++) num[feat[s * RV_PAT_FEATURES + f]] += r[s];
            for (uint32_t i = rv_pat_offset[g]; i < rv_pat_offset[g + 1]; i++) {
                if (!cnt[i]) continue;
                double d = (num[i] - l2 * w[i]) / ((double)cnt[i] * per + l2);
                num[i] = d;
                w[i] += (float)d;
            }
            for (size_t s = 0; s < n; s++) {
                double d = 0;
                for (int f = f0; f < f1; f++) d += num[feat[s * RV_PAT_FEATURES + f]];
                r[s] -= (float)d;
            }
        }
        if (ep + 1 == epochs || (ep + 1) % 50 == 0) {
            double se = 0, vse = 0;
            for (size_t s = 0; s < n; s++) se += (double)r[s] * r[s];
            for (size_t s = 0; s < vn; s++) {
                double p = 0;
                for (int f = 0; f < RV_PAT_FEATURES; f++) p += w[vfeat[s * RV_PAT_FEATURES + f]];
                vse += (vy[s] - p) * (vy[s] - p);
            }
            fprintf(stderr, "stage %2d (%2d-%2d empties) sweep %3d: %zu positions, rms error %.2f discs, held-out %zu: %.2f\n",
                    stage, 4 * stage, stage == RV_PAT_STAGES - 1 ? 60 : 4 * stage + 3, ep + 1, n,
                    n ? sqrt(se / (double)n) : 0.0, vn, vn ? sqrt(vse / (double)vn) : 0.0);
        }
    }
    free(r);
    free(num);
    free(cnt);
}

static void put32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}


static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The weights of a file written by `fit` (checked against this build's
 * layout), or NULL with a message. */
static int16_t *read_weights(const char *path) {
    uint32_t nw = rv_pat_offset[RV_PAT_GROUPS];
    size_t bytes = (size_t)nw * RV_PAT_STAGES * 2;
    unsigned char *buf = malloc(RV_PAT_FILE_HEADER + bytes + 1);
    int16_t *w = malloc(bytes);
    FILE *f = fopen(path, "rb");
    size_t got = f && buf ? fread(buf, 1, RV_PAT_FILE_HEADER + bytes + 1, f) : 0;
    if (f) fclose(f);
    if (!f || !buf || !w || got != RV_PAT_FILE_HEADER + bytes || memcmp(buf, RV_PAT_FILE_MAGIC, 4) ||
        get32(buf + 4) != RV_PAT_FILE_VERSION || get32(buf + 8) != RV_PAT_STAGES ||
        get32(buf + 12) != nw || get32(buf + 16) != rv_pat_file_hash(buf + RV_PAT_FILE_HEADER, bytes)) {
        fprintf(stderr, "rv-train: %s: expected a weights file of %d stages x %u weights (from rv-train fit)\n",
                path, RV_PAT_STAGES, nw);
        free(buf);
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < bytes / 2; i++)
        w[i] = (int16_t)(uint16_t)(buf[RV_PAT_FILE_HEADER + 2 * i] | buf[RV_PAT_FILE_HEADER + 2 * i + 1] << 8);
    free(buf);
    return w;
}

static void put_varint(unsigned char **p, uint32_t v) {
    for (; v >= 0x80; v >>= 7) *(*p)++ = (unsigned char)(v | 0x80);
    *(*p)++ = (unsigned char)v;
}

/* Writes the changes from base to w (both whole tables; bytes: w's file
 * bytes, for the checksum) as a delta file (pattern.h). */
static int write_delta(const char *path, const int16_t *base, const int16_t *w, const unsigned char *bytes) {
    uint32_t nw = rv_pat_offset[RV_PAT_GROUPS];
    size_t total = (size_t)nw * RV_PAT_STAGES;
    unsigned char *buf = malloc(RV_PAT_DELTA_HEADER + 8 * total), *p = buf + RV_PAT_DELTA_HEADER;
    if (!buf) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    uint32_t n = 0;
    size_t prev = (size_t)-1;
    for (size_t i = 0; i < total; i++) {
        int d = w[i] - base[i];
        if (!d) continue;
        put_varint(&p, (uint32_t)(i - prev - 1));
        put_varint(&p, d >= 0 ? 2u * (uint32_t)d : 2u * (uint32_t)-d - 1);
        prev = i;
        n++;
    }
    memcpy(buf, RV_PAT_DELTA_MAGIC, 4);
    put32(buf + 4, RV_PAT_DELTA_VERSION);
    put32(buf + 8, RV_PAT_STAGES);
    put32(buf + 12, nw);
    put32(buf + 16, n);
    put32(buf + 20, rv_pat_file_hash(bytes, 2 * total));
    size_t len = (size_t)(p - buf);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        free(buf);
        return fprintf(stderr, "rv-train: cannot write %s\n", path), 1;
    }
    fprintf(stderr, "fit: wrote %s (%u changed weights of %zu, %zu bytes)\n", path, n, total, len);
    free(buf);
    return 0;
}

/* The options and data files of `fit`: -1 to go on, else the exit status. */
static int fit_args(int argc, char **argv, dataset *dd, int *nfiles_out, long *epochs_out,
                    double *l2_out, const char **out_out, const char **init_out, long *min_out,
                    const char **delta_out, long *quantum_out, int *freeze_out, long *stages_out) {
    dataset d = *dd;
    int nfiles = 0;
    long epochs = *epochs_out;
    double l2 = *l2_out;
    const char *out_path = *out_out;
    long freeze = *freeze_out;
    const rv_cli_opt opts[] = {{"--epochs", RV_CLI_INT, &epochs, 1, 100000},
                               {"--l2", RV_CLI_NUM, &l2, 0, 1e6},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {"--init", RV_CLI_STR, init_out, 0, 0},
                               {"--delta", RV_CLI_STR, delta_out, 0, 0},
                               {"--freeze-patterns", RV_CLI_INT, &freeze, 0, 1},
                               {"--quantum", RV_CLI_INT, quantum_out, 1, 1024},
                               {"--min", RV_CLI_INT, min_out, 1, 100000000},
                               {"--first-stage", RV_CLI_INT, &stages_out[0], 0, RV_PAT_STAGES - 1},
                               {"--last-stage", RV_CLI_INT, &stages_out[1], 0, RV_PAT_STAGES - 1},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int npos, rc = rv_cli_options("rv-train fit", argc, argv, opts, &npos);
    *freeze_out = (int)freeze;
    if (rc == RV_CLI_HELP) {
        usage(stdout);
        rc = 0;
        goto done;
    }
    if (rc) goto done;
    rc = -1;
    for (int i = 0; i < npos; i++) {
        if (load_data(argv[i], &d) != 0) {
            rc = 1;
            goto done;
        }
        nfiles++;
    }
done:
    *dd = d;
    *nfiles_out = nfiles;
    *epochs_out = epochs;
    *l2_out = l2;
    *out_out = out_path;
    return rc;
}

static int fit_run(int argc, char **argv, dataset *dp) {
    long epochs = 100;
    double l2 = 8.0;
    const char *out_path = "eval_weights.bin", *init_path = NULL, *delta_path = NULL;
    long min_n = 50000, quantum = 1;
    int freeze = 0;
    long stages[2] = {0, RV_PAT_STAGES - 1};
    dataset d = {0};
    int nfiles = 0;
    int rc = fit_args(argc, argv, &d, &nfiles, &epochs, &l2, &out_path, &init_path, &min_n,
                      &delta_path, &quantum, &freeze, stages);
    *dp = d;
    if (rc >= 0) return rc;
    if (!nfiles) return fprintf(stderr, "rv-train fit: no DATA files given\n"), 2;
    if (delta_path && !init_path) return fprintf(stderr, "rv-train fit: --delta needs --init\n"), 2;
    if (stages[0] > stages[1])
        return fprintf(stderr, "rv-train fit: --first-stage %ld is after --last-stage %ld\n", stages[0], stages[1]), 2;
    if ((stages[0] > 0 || stages[1] < RV_PAT_STAGES - 1) && !init_path)
        return fprintf(stderr, "rv-train fit: --first-stage/--last-stage need --init (the other stages keep it)\n"), 2;
    fprintf(stderr, "fit: %zu positions from %d files\n", d.n, nfiles);
    uint32_t *canon = make_canon();
    uint32_t nw = rv_pat_offset[RV_PAT_GROUPS];
    float *w = malloc((size_t)nw * sizeof *w);
    int16_t *out = calloc((size_t)nw * RV_PAT_STAGES, sizeof *out);
    if (!canon || !w || !out) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    /* With --init the fit starts from those weights: it fits the residual of
     * their evaluation, so the L2 penalty pulls towards them (a weight the
     * new data does not see keeps its value). */
    int16_t *init = NULL;
    if (init_path && !(init = read_weights(init_path))) return 1;

    for (int st = 0; st < RV_PAT_STAGES; st++) {
        if (st < stages[0] || st > stages[1]) { /* not fitted: the --init weights stay */
            memcpy(&out[(size_t)st * nw], &init[(size_t)st * nw], (size_t)nw * sizeof *out);
            continue;
        }
        /* The stage's positions, widened to neighbouring empties while there
         * are too few (the first moves of a game are rarely in the data). */
        int lo = 4 * st, hi = st == RV_PAT_STAGES - 1 ? 60 : 4 * st + 3;
        int widen = 0;
        size_t n, vn;
        for (;;) {
            n = vn = 0;
            for (size_t s = 0; s < d.n; s++) {
                int e = 64 - rv_bb_count(d.v[s].p | d.v[s].o);
                if (e < lo - widen || e > hi + widen) continue;
                /* Held out: only the stage's own positions count (both
                 * ways they stay out of the fit). */
                if (is_holdout(&d.v[s])) vn += e >= lo && e <= hi;
                else n++;
            }
            if (n >= (size_t)min_n || widen >= 16) break;
            widen += 2;
        }
        uint32_t *feat = malloc((n + 1) * RV_PAT_FEATURES * sizeof *feat);
        uint32_t *vfeat = malloc((vn + 1) * RV_PAT_FEATURES * sizeof *vfeat);
        float *y = malloc((n + 1) * sizeof *y), *vy = malloc((vn + 1) * sizeof *vy);
        if (!feat || !vfeat || !y || !vy) return fprintf(stderr, "rv-train: out of memory\n"), 1;
        size_t k = 0, vk = 0;
        double vbase_se = 0;
        for (size_t s = 0; s < d.n; s++) {
            int e = 64 - rv_bb_count(d.v[s].p | d.v[s].o);
            if (e < lo - widen || e > hi + widen) continue;
            if (is_holdout(&d.v[s]) && (e < lo || e > hi)) continue;
            uint32_t f[RV_PAT_FEATURES];
            rv_pat_features(d.v[s].p, d.v[s].o, f);
            /* Positions of a neighbouring stage keep their own bias entry. */
            int eb = e < lo ? lo : e > hi ? hi : e;
            f[RV_PAT_INSTANCES + 2] = rv_pat_offset[RV_PAT_TYPES + 2] + (uint32_t)(eb - 4 * st);
            uint32_t *dst = is_holdout(&d.v[s]) ? &vfeat[vk * RV_PAT_FEATURES] : &feat[k * RV_PAT_FEATURES];
            float base = 0;
            if (init) {
                int sum = 0;
                for (int j = 0; j < RV_PAT_FEATURES; j++) sum += init[(size_t)st * nw + f[j]];
                base = (float)sum / RV_PAT_SCALE;
            }
            for (int j = 0; j < RV_PAT_FEATURES; j++) dst[j] = canon[f[j]];
            if (is_holdout(&d.v[s])) {
                vy[vk++] = d.v[s].score - base;
                vbase_se += (double)(d.v[s].score - base) * (d.v[s].score - base);
            } else {
                y[k++] = d.v[s].score - base;
            }
        }
        if (init)
            fprintf(stderr, "stage %2d: held-out rms error of the --init weights %.2f discs\n", st,
                    vk ? sqrt(vbase_se / (double)vk) : 0.0);
        fit_stage(feat, y, k, vfeat, vy, vk, w, (int)epochs, l2, st, freeze ? RV_PAT_TYPES : 0);
        for (uint32_t i = 0; i < nw; i++) {
            /* A change from --init is rounded to a multiple of the quantum:
             * changes below it are noise, and a delta file of fewer, smaller
             * changes is small. */
            double q = round((double)w[canon[i]] * RV_PAT_SCALE / (double)quantum) * (double)quantum +
                       (init ? init[(size_t)st * nw + i] : 0);
            out[(size_t)st * nw + i] = (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
        }
        free(feat);
        free(vfeat);
        free(y);
        free(vy);
    }

    size_t bytes = (size_t)nw * RV_PAT_STAGES * 2;
    unsigned char *buf = malloc(RV_PAT_FILE_HEADER + bytes);
    if (!buf) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    memcpy(buf, RV_PAT_FILE_MAGIC, 4);
    put32(buf + 4, RV_PAT_FILE_VERSION);
    put32(buf + 8, RV_PAT_STAGES);
    put32(buf + 12, nw);
    for (size_t i = 0; i < (size_t)nw * RV_PAT_STAGES; i++) {
        uint16_t v = (uint16_t)out[i];
        buf[RV_PAT_FILE_HEADER + 2 * i] = (unsigned char)(v & 0xFF);
        buf[RV_PAT_FILE_HEADER + 2 * i + 1] = (unsigned char)(v >> 8);
    }
    put32(buf + 16, rv_pat_file_hash(buf + RV_PAT_FILE_HEADER, bytes));
    FILE *f = fopen(out_path, "wb");
    if (!f || fwrite(buf, 1, RV_PAT_FILE_HEADER + bytes, f) != RV_PAT_FILE_HEADER + bytes ||
        fclose(f) != 0) {
        fprintf(stderr, "rv-train: cannot write %s\n", out_path);
        return 1;
    }
    fprintf(stderr, "fit: wrote %s (%u weights per stage, %d stages)\n", out_path, nw, RV_PAT_STAGES);
    if (delta_path && write_delta(delta_path, init, out, buf + RV_PAT_FILE_HEADER)) return 1;
    free(buf);
    free(out);
    free(w);
    free(canon);
    free(init);
    return 0;
}

static int fit(int argc, char **argv) {
    dataset d = {0};
    int rc = fit_run(argc, argv, &d);
    free(d.v);
    return rc;
}

/* ------------------------------------------------------------ probcut */

/* A sample position for the ProbCut fits: 6..24 random moves, then a depth-2 engine with
 * one move in eight random, up to a position of lo..hi empties (drawn). 1 with *out set, 0
 * when the game ended first, -1 when the engine or a move failed (told on stderr). */
static int sample_position(rv_reversi_ai *ai, rv_rng *rng, int lo, int hi, rv_reversi_pos *out) {
    const rv_reversi_limits play = {0, 2, 0, 0};
    rv_reversi_pos pos;
    rv_reversi_init(&pos);
    int random_plies = 6 + (int)rv_rng_below(rng, 19), ply = 0;
    int target = lo + (int)rv_rng_below(rng, (uint64_t)(hi - lo + 1));
    while (!rv_reversi_is_over(&pos)) {
        uint64_t moves = rv_reversi_moves(&pos);
        if (!moves) {
            rv_reversi_play(&pos, RV_REVERSI_PASS);
            continue;
        }
        if (rv_reversi_count(&pos, RV_EMPTY) <= target) {
            *out = pos;
            return 1;
        }
        int mv;
        if (ply < random_plies || rv_rng_below(rng, 8) == 0) {
            mv = random_move(rng, moves);
        } else {
            rv_reversi_ai_info info;
            if (rv_reversi_ai_think(ai, &pos, &play, &info) != RV_OK) return -1;
            mv = info.move;
        }
        if (rv_reversi_play(&pos, mv) != RV_OK) return fprintf(stderr, "rv-train: bad move\n"), -1;
        ply++;
    }
    return 0;
}

static int probcut_data(int argc, char **argv) {
    long count = -1, seed = -1, depth = RV_PC_MAX_DEPTH;
    const char *out_path = NULL;
    const rv_cli_opt opts[] = {{"--positions", RV_CLI_INT, &count, 1, 100000000},
                               {"--seed", RV_CLI_INT, &seed, 0, 2000000000},
                               {"--depth", RV_CLI_INT, &depth, 1, 20},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int rc = options("probcut-data", argc, argv, opts);
    if (rc >= 0) return rc;
    if (count < 0 || seed < 0) {
        fprintf(stderr, "rv-train probcut-data: --positions and --seed are required\n");
        return 2;
    }
    FILE *out = open_out(out_path);
    if (!out) return 1;
    rv_reversi_ai *ai = rv_reversi_ai_new(16u << 20);
    if (!ai) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    rv_reversi_ai_set_probcut(ai, 0);
    rv_rng rng;
    rv_rng_seed(&rng, (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 7);
    double t0 = rv_clock_seconds();
    long done = 0;
    while (done < count) {
        rv_reversi_pos pos;
        int got = sample_position(ai, &rng, 12, 52, &pos);
        if (got < 0) return 1;
        if (!got) continue;
        rv_reversi_ai_clear(ai);
        fprintf(out, "%016" PRIx64 " %016" PRIx64 " %d", pos.player, pos.opponent,
                rv_reversi_count(&pos, RV_EMPTY));
        for (int d = 0; d <= depth; d++)
            fprintf(out, " %d", rv_ai_mid_search(ai, pos.player, pos.opponent, -6500, 6500, d));
        fputc('\n', out);
        done++;
        if (done % 10 == 0 || done == count) {
            double t = rv_clock_seconds() - t0;
            fprintf(stderr, "\rprobcut-data: %ld/%ld positions, %.0f s, ~%.0f s left ", done, count, t,
                    t / (double)done * (double)(count - done));
            fflush(out);
        }
    }
    fprintf(stderr, "\n");
    rv_reversi_ai_free(ai);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "rv-train: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}

/* The fewest positions a regression is fitted on (the stage's empties range
 * is widened until it holds this many). */
#define PC_MIN_SAMPLES 100

typedef struct pc_sample {
    int e;
    int s[RV_PC_MAX_DEPTH + 1];
} pc_sample;

/* Least squares y = a x + b over the samples of the stage's empties range
 * [lo, hi] for depths (deep, shallow); returns the count, *sigma the rms
 * residual. */
static size_t pc_regress(const pc_sample *v, size_t n, int lo, int hi, int deep, int shallow,
                         double *a, double *b, double *sigma) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].e < lo || v[i].e > hi || v[i].e <= deep) continue;
        double x = v[i].s[shallow], y = v[i].s[deep];
        sx += x, sy += y, sxx += x * x, sxy += x * y;
        k++;
    }
    if (k < 2) return k;
    double det = (double)k * sxx - sx * sx;
    *a = det > 0 ? ((double)k * sxy - sx * sy) / det : 1.0;
    *b = (sy - *a * sx) / (double)k;
    double se = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].e < lo || v[i].e > hi || v[i].e <= deep) continue;
        double r = v[i].s[deep] - (*a * v[i].s[shallow] + *b);
        se += r * r;
    }
    *sigma = sqrt(se / (double)k);
    return k;
}

static int probcut_fit(int argc, char **argv) {
    const char *out_path = "probcut_table.c";
    pc_sample *v = NULL;
    size_t n = 0, cap = 0;
    const rv_cli_opt opts[] = {{"--out", RV_CLI_STR, &out_path, 0, 0}, {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int nfiles = 0, npos, rc = rv_cli_options("rv-train probcut-fit", argc, argv, opts, &npos);
    if (rc == RV_CLI_HELP) return usage(stdout), 0;
    if (rc) return rc;
    for (int i = 0; i < npos && !rc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            rc = (fprintf(stderr, "rv-train: cannot read %s: %s\n", argv[i], strerror(errno)), 1);
            break;
        }
        nfiles++;
        char line[512];
        long ln = 0;
        while (!rc && fgets(line, sizeof line, f)) {
            ln++;
            if (line[0] == '#' || line[0] == '\n') continue;
            uint64_t p, o;
            pc_sample s;
            int used = 0, k = 0;
            if (sscanf(line, "%" SCNx64 " %" SCNx64 " %d%n", &p, &o, &s.e, &used) != 3 || (p & o) ||
                s.e < 0 || s.e > 60) {
                rc = (fprintf(stderr, "rv-train: %s:%ld: expected 'PLAYER OPPONENT EMPTIES S0 .. SD'\n",
                             argv[i], ln), 1);
                break;
            }
            const char *c = line + used;
            int got;
            while (k <= RV_PC_MAX_DEPTH && sscanf(c, "%d%n", &s.s[k], &got) == 1) {
                if (s.s[k] < -6400 || s.s[k] > 6400) break;
                c += got;
                k++;
            }
            if (k != RV_PC_MAX_DEPTH + 1) {
                rc = (fprintf(stderr, "rv-train: %s:%ld: expected %d scores in -6400..6400 (depths 0..%d)\n",
                             argv[i], ln, RV_PC_MAX_DEPTH + 1, RV_PC_MAX_DEPTH), 1);
                break;
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 4096;
                pc_sample *nv = realloc(v, cap * sizeof *nv);
                if (!nv) {
                    rc = (fprintf(stderr, "rv-train: out of memory\n"), 1);
                    break;
                }
                v = nv;
            }
            v[n++] = s;
        }
        fclose(f);
    }
    if (!rc && !nfiles) rc = (fprintf(stderr, "rv-train probcut-fit: no DATA files given\n"), 2);
    if (rc) {
        free(v);
        return rc;
    }
    fprintf(stderr, "probcut-fit: %zu positions from %d files\n", n, nfiles);
    FILE *f = fopen(out_path, "w");
    if (!f) {
        free(v);
        return fprintf(stderr, "rv-train: cannot write %s: %s\n", out_path, strerror(errno)), 1;
    }
    fprintf(f, "/*\n * Multi-ProbCut calibration (see probcut.h), written by `rv-train probcut-fit`\n"
               " * from %zu positions (scripts/fit-probcut.sh).  [stage][depth] = {a, b, sigma}:\n"
               " * deep = a * shallow + b, residual sd sigma, in centidiscs.\n */\n"
               "#include \"reversi/probcut.h\"\n\n"
               "const rv_pc_param rv_pc_table[RV_PC_STAGES][RV_PC_MAX_DEPTH + 1] = {\n", n);
    fprintf(stderr, "stage empties   sigma (discs) for depth %d..%d\n", RV_PC_MIN_DEPTH, RV_PC_MAX_DEPTH);
    for (int st = 0; st < RV_PC_STAGES; st++) {
        fprintf(f, "    {");
        fprintf(stderr, "%5d %2d-%2d  ", st, 4 * st, 4 * st + 3);
        for (int d = 0; d <= RV_PC_MAX_DEPTH; d++) {
            double a = 1, b = 0, sigma = 0;
            if (d >= RV_PC_MIN_DEPTH) {
                /* Widen the empties range until there are enough samples. */
                int lo = 4 * st, hi = 4 * st + 3;
                size_t k = 0;
                for (int w = 0; w <= 60; w += 2) {
                    k = pc_regress(v, n, lo - w, hi + w, d, rv_pc_shallow(d), &a, &b, &sigma);
                    if (k >= PC_MIN_SAMPLES) break;
                }
                if (k < PC_MIN_SAMPLES) a = 1, b = 0, sigma = 0; /* too few: no cut */
                fprintf(stderr, " %5.2f", sigma / 100);
            }
            fprintf(f, "%s{%.4ff, %.1ff, %.1ff}", d ? ", " : "", a, b, sigma);
        }
        fprintf(f, "},\n");
        fprintf(stderr, "\n");
    }
    fprintf(f, "};\n");
    free(v);
    if (fclose(f) != 0) return fprintf(stderr, "rv-train: error writing %s\n", out_path), 1;
    fprintf(stderr, "probcut-fit: wrote %s\n", out_path);
    return 0;
}

/* ------------------------------------------------------------ the solver's ProbCut */

/* The depths of the shallow searches eg-probcut-data writes (0..8, as
 * endgame_probcut.h). */
#define EG_PC_D (RV_EG_PC_DEPTHS - 1)

static int eg_probcut_data(int argc, char **argv) {
    long count = -1, seed = -1, lo = 12, hi = 20;
    const char *out_path = NULL;
    const rv_cli_opt opts[] = {{"--positions", RV_CLI_INT, &count, 1, 100000000},
                               {"--seed", RV_CLI_INT, &seed, 0, 2000000000},
                               {"--min", RV_CLI_INT, &lo, EG_PC_D + 1, 30},
                               {"--max", RV_CLI_INT, &hi, EG_PC_D + 1, 30},
                               {"--out", RV_CLI_STR, &out_path, 0, 0},
                               {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int rc = options("eg-probcut-data", argc, argv, opts);
    if (rc >= 0) return rc;
    if (count < 0 || seed < 0) {
        fprintf(stderr, "rv-train eg-probcut-data: --positions and --seed are required\n");
        return 2;
    }
    if (lo > hi) {
        fprintf(stderr, "rv-train eg-probcut-data: --min %ld is above --max %ld\n", lo, hi);
        return 2;
    }
    FILE *out = open_out(out_path);
    if (!out) return 1;
    /* The searches run as in the solver: the built-in evaluation, the
     * midgame search's own ProbCut on (the default). */
    rv_reversi_ai *ai = rv_reversi_ai_new(16u << 20);
    if (!ai) return fprintf(stderr, "rv-train: out of memory\n"), 1;
    rv_rng rng;
    rv_rng_seed(&rng, (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 12);
    double t0 = rv_clock_seconds();
    long done = 0;
    while (done < count) {
        rv_reversi_pos pos;
        int got = sample_position(ai, &rng, (int)lo, (int)hi, &pos);
        if (got < 0) return 1;
        if (!got) continue;
        rv_reversi_ai_clear(ai);
        rv_reversi_solve_result res;
        if (rv_reversi_solve(ai, &pos, 0, &res) != RV_OK) return fprintf(stderr, "rv-train: solve failed\n"), 1;
        rv_reversi_ai_clear(ai);
        fprintf(out, "%016" PRIx64 " %016" PRIx64 " %d %d", pos.player, pos.opponent,
                rv_reversi_count(&pos, RV_EMPTY), res.score);
        for (int d = 0; d <= EG_PC_D; d++)
            fprintf(out, " %d", rv_ai_mid_search(ai, pos.player, pos.opponent, -6500, 6500, d));
        fputc('\n', out);
        done++;
        if (done % 10 == 0 || done == count) {
            double t = rv_clock_seconds() - t0;
            fprintf(stderr, "\reg-probcut-data: %ld/%ld positions, %.0f s, ~%.0f s left ", done, count,
                    t, t / (double)done * (double)(count - done));
            fflush(out);
        }
    }
    fprintf(stderr, "\n");
    rv_reversi_ai_free(ai);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "rv-train: error writing %s\n", out_path);
        return 1;
    }
    return 0;
}

static int eg_probcut_fit(int argc, char **argv) {
    const char *out_path = "endgame_probcut.c";
    const rv_cli_opt opts[] = {{"--out", RV_CLI_STR, &out_path, 0, 0}, {NULL, RV_CLI_FLAG, NULL, 0, 0}};
    int nfiles = 0, npos, rc = rv_cli_options("rv-train eg-probcut-fit", argc, argv, opts, &npos);
    if (rc == RV_CLI_HELP) return usage(stdout), 0;
    if (rc) return rc;
    if (!npos) return fprintf(stderr, "rv-train eg-probcut-fit: no DATA files given\n"), 2;
    /* Sums per depth of r = 100 * exact - shallow, of r^2, and of shallow,
     * shallow^2 and shallow * exact for the slope printed as a check. */
    double sr[RV_EG_PC_DEPTHS] = {0}, srr[RV_EG_PC_DEPTHS] = {0}, sx[RV_EG_PC_DEPTHS] = {0},
           sxx[RV_EG_PC_DEPTHS] = {0}, sxy[RV_EG_PC_DEPTHS] = {0}, sy = 0;
    long n = 0;
    for (int i = 0; i < npos && !rc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            rc = (fprintf(stderr, "rv-train: cannot read %s: %s\n", argv[i], strerror(errno)), 1);
            break;
        }
        nfiles++;
        char line[512];
        long ln = 0;
        while (!rc && fgets(line, sizeof line, f)) {
            ln++;
            if (line[0] == '#' || line[0] == '\n') continue;
            uint64_t p, o;
            int e, exact, used = 0, k = 0, s[RV_EG_PC_DEPTHS], got;
            if (sscanf(line, "%" SCNx64 " %" SCNx64 " %d %d%n", &p, &o, &e, &exact, &used) != 4 ||
                (p & o) || e != 64 - bit_count(p | o) || exact < -64 || exact > 64) {
                rc = (fprintf(stderr,
                              "rv-train: %s:%ld: expected 'PLAYER OPPONENT EMPTIES EXACT S0 .. S%d' "
                              "(EMPTIES the empty squares, EXACT -64..64)\n",
                              argv[i], ln, EG_PC_D), 1);
                break;
            }
            const char *c = line + used;
            while (k < RV_EG_PC_DEPTHS && sscanf(c, "%d%n", &s[k], &got) == 1) {
                if (s[k] < -6400 || s[k] > 6400) break;
                c += got;
                k++;
            }
            while (isspace((unsigned char)*c)) c++;
            if (k != RV_EG_PC_DEPTHS || *c) {
                rc = (fprintf(stderr, "rv-train: %s:%ld: expected %d scores in -6400..6400 (depths 0..%d)\n",
                              argv[i], ln, RV_EG_PC_DEPTHS, EG_PC_D), 1);
                break;
            }
            double y = 100.0 * exact;
            sy += y;
            for (int d = 0; d < RV_EG_PC_DEPTHS; d++) {
                double r = y - s[d];
                sr[d] += r, srr[d] += r * r, sx[d] += s[d], sxx[d] += (double)s[d] * s[d];
                sxy[d] += (double)s[d] * y;
            }
            n++;
        }
        fclose(f);
    }
    if (rc) return rc;
    if (n < 2) return fprintf(stderr, "rv-train eg-probcut-fit: %ld positions; need at least 2\n", n), 1;
    int bias[RV_EG_PC_DEPTHS], sigma[RV_EG_PC_DEPTHS];
    fprintf(stderr, "eg-probcut-fit: %ld positions from %d files\ndepth  bias  sigma (centidiscs)  slope\n",
            n, nfiles);
    for (int d = 0; d < RV_EG_PC_DEPTHS; d++) {
        double mean = sr[d] / (double)n, var = srr[d] / (double)n - mean * mean;
        bias[d] = (int)lround(mean);
        sigma[d] = (int)lround(sqrt(var > 0 ? var : 0));
        double det = (double)n * sxx[d] - sx[d] * sx[d];
        double slope = det > 0 ? ((double)n * sxy[d] - sx[d] * sy) / det : 1.0;
        fprintf(stderr, "%5d %5d %6d %20.3f\n", d, bias[d], sigma[d], slope);
    }
    FILE *f = fopen(out_path, "w");
    if (!f) return fprintf(stderr, "rv-train: cannot write %s: %s\n", out_path, strerror(errno)), 1;
    fprintf(f, "/*\n * The exact solver's ProbCut model (endgame_probcut.h): exact = shallow + bias,\n"
               " * residual sd sigma, in centidiscs, per shallow depth 0..%d.  Written by\n"
               " * `rv-train eg-probcut-fit` from %ld positions solved exactly\n"
               " * (scripts/fit-eg-probcut.sh).\n */\n"
               "#include \"reversi/endgame_probcut.h\"\n\n",
            EG_PC_D, n);
    fprintf(f, "const int rv_eg_pc_bias[RV_EG_PC_DEPTHS] = {");
    for (int d = 0; d < RV_EG_PC_DEPTHS; d++) fprintf(f, "%s%d", d ? ", " : "", bias[d]);
    fprintf(f, "};\nconst int rv_eg_pc_sigma[RV_EG_PC_DEPTHS] = {");
    for (int d = 0; d < RV_EG_PC_DEPTHS; d++) fprintf(f, "%s%d", d ? ", " : "", sigma[d]);
    fprintf(f, "};\n");
    if (fclose(f) != 0) return fprintf(stderr, "rv-train: error writing %s\n", out_path), 1;
    fprintf(stderr, "eg-probcut-fit: wrote %s\n", out_path);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "selfplay")) return selfplay(argc - 2, argv + 2);
    if (!strcmp(argv[1], "label")) return label(argc - 2, argv + 2);
    if (!strcmp(argv[1], "games")) return games_cmd(argc - 2, argv + 2);
    if (!strcmp(argv[1], "relabel")) return relabel(argc - 2, argv + 2);
    if (!strcmp(argv[1], "fit")) return fit(argc - 2, argv + 2);
    if (!strcmp(argv[1], "probcut-data")) return probcut_data(argc - 2, argv + 2);
    if (!strcmp(argv[1], "probcut-fit")) return probcut_fit(argc - 2, argv + 2);
    if (!strcmp(argv[1], "eg-probcut-data")) return eg_probcut_data(argc - 2, argv + 2);
    if (!strcmp(argv[1], "eg-probcut-fit")) return eg_probcut_fit(argc - 2, argv + 2);
    fprintf(stderr, "rv-train: unknown command '%s' (try --help)\n", argv[1]);
    return 2;
}
