/*
 * `renversi gomocup` (also `pbrain-renversi`): a Gomocup brain on stdin/stdout,
 * the protocol of shared/spec/gomocup.md (docs/protocol-gomocup.md lists what is
 * supported). One command per line; CR LF, LF or a lone CR end a line.
 *
 * The main thread reads commands; a move is thought on a worker thread, so that
 * YXSTOP, END, INFO and ABOUT are handled while it thinks. A stop names the
 * worker's think by number (rv_gomoku_ai_stop_think), so it holds even if the
 * worker has not begun. Every reply goes through reply(), under a mutex.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cmdline/cmdline.h"
#include "proto/gomocup.h"
#include "proto/gomocup_game.h"
#include "renversi/core.h"
#include "renversi/gomoku_ai.h"
#include "renversi/opening.h"

#define LINE_MAX_LEN 4096
#define UNLIMITED 2147483647LL

typedef struct brain {
    gc_game gm;
    rv_gomoku_ai *ai;
    size_t tt_bytes;
    int64_t timeout_turn, timeout_match, time_left, max_memory;
    int time_left_known; /* INFO time_left came (managers send it before each move) */
    double used_s;       /* seconds this brain thought in the current game */
    int fixed_level;     /* --level: play at a fixed level instead of by the clock */
    int64_t max_node;    /* --nodes / INFO max_node: nodes a move instead of the clock, 0 = none */
    double t_cmd;        /* when the current command's first line arrived */
    FILE *in, *out;
    int in_cr; /* the last input line ended with CR (rv_line_read_cr's state) */
    pthread_mutex_t out_lock;
    int quiet; /* END came: the worker's answer is not wanted */
    /* the worker thread and its job */
    pthread_t worker;
    int busy;       /* a worker exists and has not been joined */
    uint64_t think; /* the engine's number of the worker's think */
    rv_gomoku pos;
    rv_gomoku_limits lim;
} brain;

static void reply(brain *br, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(brain *br, const char *fmt, ...) {
    va_list ap;
    pthread_mutex_lock(&br->out_lock);
    if (!br->quiet) {
        va_start(ap, fmt);
        vfprintf(br->out, fmt, ap);
        va_end(ap);
        fputc('\n', br->out);
        fflush(br->out);
    }
    pthread_mutex_unlock(&br->out_lock);
}

/*
 * Reads the next line that is not blank into *buf (the library's bounded reader, any of
 * CR LF, LF, CR ends a line) and returns it. A line over LINE_MAX_LEN - 1 bytes is
 * dropped: "" is returned and *too_long set. NULL at the end of input (or on an error).
 */
static const char *read_line(brain *br, char **buf, size_t *cap, int *too_long) {
    size_t len;
    for (;;) {
        *too_long = 0;
        rv_status st = rv_line_read_cr(br->in, LINE_MAX_LEN - 1, &br->in_cr, buf, cap, &len);
        if (st == RV_ETOOLONG) {
            *too_long = 1;
            st = rv_line_skip_cr(br->in, &br->in_cr);
            if (st == RV_OK || st == RV_EEMPTY) return "";
        }
        if (st == RV_ENOMEM) reply(br, "ERROR out of memory reading a line");
        if (st != RV_OK) return NULL;
        if (len > 0) return *buf;
    }
}

/* Parses "X,Y" (spaces allowed around the numbers) with a rest pointer. */
static int parse_xy(const char *s, int *x, int *y, const char **rest) {
    char *end;
    while (*s == ' ') s++;
    if (!isdigit((unsigned char)*s)) return -1;
    long a = strtol(s, &end, 10);
    while (*end == ' ') end++;
    if (*end != ',') return -1;
    s = end + 1;
    while (*s == ' ') s++;
    if (!isdigit((unsigned char)*s)) return -1;
    long b = strtol(s, &end, 10);
    if (a > 1000 || b > 1000) return -1;
    *x = (int)a;
    *y = (int)b;
    if (rest)
        *rest = end;
    else {
        while (*end == ' ') end++;
        if (*end) return -1;
    }
    return 0;
}

/* Milliseconds this move may take: inside timeout_turn and the match time, with margins;
   *target (when not NULL) gets the time it should take: the same, or under a match clock
   its share of the time left (the budget is then at most twice that). */
static int64_t move_budget(const brain *br, int64_t *target) {
    int64_t turn = br->timeout_turn > 0 ? br->timeout_turn : 0;
    int64_t budget;
    if (turn > 0) {
        /* the answer must arrive within timeout_turn: keep 10 ms and 2% for the pipes,
           the stop poll and the scheduler (on a quiet machine the answer comes within a
           millisecond of the think's end; a loaded one's waits shorten the think itself,
           search.h's late_s; BENCHMARKS.md) */
        int64_t margin = 10 + turn / 50;
        budget = turn - margin;
    } else
        budget = 100; /* timeout_turn 0: "play as fast as possible" */
    /* what is left of the game: time_left when told, else timeout_match less what this
       brain has used, so a huge timeout_turn never outlasts the match */
    int64_t left = UNLIMITED;
    if (br->time_left_known && br->time_left < UNLIMITED)
        left = br->time_left;
    else if (br->timeout_match > 0)
        left = br->timeout_match - (int64_t)(br->used_s * 1000.0);
    if (left < UNLIMITED) {
        int empties = br->gm.w * br->gm.h - br->gm.n;
        int64_t moves_left = empties / 6;
        if (moves_left < 12) moves_left = 12;
        if (moves_left > 40) moves_left = 40;
        int64_t share = (left - 100) / moves_left, most = (left - 100) / 4;
        if (share < 5) share = 5;
        if (share < budget) {
            if (most > 2 * share) most = 2 * share;
            if (most < budget) budget = most;
            if (target) *target = share;
            return budget < 5 ? 5 : budget;
        }
    }
    if (budget < 5) budget = 5;
    if (target) *target = budget;
    return budget;
}

/* Applies max_memory (half of it for the table) before the next think. */
static int ensure_engine(brain *br) {
    size_t want = 16u << 20;
    if (br->max_memory > 0) {
        int64_t half = br->max_memory / 2 - (2 << 20);
        want = half < (64 << 10) ? (64 << 10) : half > (256ll << 20) ? (256u << 20) : (size_t)half;
    }
    if (br->ai && want == br->tt_bytes) return 0;
    rv_gomoku_ai_free(br->ai);
    br->ai = rv_gomoku_ai_new(want);
    br->tt_bytes = want;
    return br->ai ? 0 : -1;
}

/* The limits of the next think: the fixed level, or the clock from the command's arrival. */
static rv_gomoku_limits think_limits(const brain *br) {
    rv_gomoku_limits lim = {0};
    if (br->fixed_level)
        lim.level = br->fixed_level;
    if (br->max_node > 0)
        lim.nodes = br->max_node; /* with no level: the node count alone, the clock is ignored */
    else if (!br->fixed_level) {
        /* the clock runs from the command's arrival (BOARD lines, replaying the game) */
        int64_t spent = (int64_t)((rv_clock_seconds() - br->t_cmd) * 1000.0), target;
        int64_t most = move_budget(br, &target);
        lim.time_ms = target - spent;
        if (lim.time_ms < 2) lim.time_ms = 2;
        if (most > target) lim.time_max_ms = most - spent > 2 ? most - spent : 2;
    }
    return lim;
}

/* CPU seconds the calling thread has used (0 where the clock is missing). */
static double thread_cpu_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The worker: thinks about br->pos and answers the move. */
static void *work(void *arg) {
    brain *br = arg;
    rv_gomoku_ai_info info;
    double t0 = rv_clock_seconds(), c0 = thread_cpu_seconds();
    rv_status s = rv_gomoku_ai_think(br->ai, &br->pos, &br->lim, &info);
    br->used_s += rv_clock_seconds() - t0;
    double cpu = thread_cpu_seconds() - c0;
    if (s != RV_OK) {
        reply(br, "ERROR no move to play: %s", rv_strerror(s));
        return NULL;
    }
    br->gm.st[br->gm.n++] = (gc_stone){info.x, info.y, 1};
    /* both lines in one write: on a loaded machine the manager, woken by the first, takes
       the core, and this thread (which has used its share) could wait that long again to
       send the move (BENCHMARKS.md, up to 174 ms between the two under load 10) */
    reply(br, "MESSAGE depth %d eval %d nodes %llu time %.3f cpu %.3f\n%d,%d", info.depth,
          info.eval, (unsigned long long)info.nodes, info.seconds, cpu, info.x, info.y);
    return NULL;
}

/* Waits for a running think to end; with stop, asks it to answer at once first. */
static void finish_think(brain *br, int stop) {
    if (!br->busy) return;
    if (stop) rv_gomoku_ai_stop_think(br->ai, br->think);
    pthread_join(br->worker, NULL);
    br->busy = 0;
}

/* Starts thinking about g on the worker; the answer comes from it. */
static void start_think(brain *br, const rv_gomoku *g) {
    if (ensure_engine(br) != 0) {
        reply(br, "ERROR out of memory");
        return;
    }
    br->pos = *g;
    br->lim = think_limits(br);
    br->think = rv_gomoku_ai_next_think(br->ai); /* nothing else thinks now */
    if (pthread_create(&br->worker, NULL, work, br) == 0)
        br->busy = 1;
    else
        work(br); /* no thread: think here */
}

/* The brain's move in the current game: thinks, records and answers "X,Y". */
static void play_own(brain *br) {
    rv_gomoku g;
    rv_status s = gc_position(&br->gm, &g);
    if (s != RV_OK) {
        reply(br, "ERROR cannot play this board: %s",
              s == RV_EOVER    ? "the game is over"
              : s == RV_EINVAL ? "stone counts do not fit"
                               : rv_strerror(s));
        return;
    }
    start_think(br, &g);
}

static int add_stone(brain *br, int x, int y, int own) {
    rv_status s = gc_free_point(&br->gm, x, y);
    if (s != RV_OK) {
        reply(br, "ERROR %d,%d is %s", x, y, s == RV_ERANGE ? "off the board" : "occupied");
        return -1;
    }
    br->gm.st[br->gm.n++] = (gc_stone){x, y, own};
    return 0;
}

static void cmd_start(brain *br, int w, int h) {
    rv_gomoku g;
    if (rv_gomoku_init(&g, w, h, br->gm.rule) != RV_OK &&
        rv_gomoku_init(&g, w, h, RV_RULE_FREESTYLE) != RV_OK) {
        reply(br, "ERROR unsupported board size %dx%d (5..%d)", w, h, RV_GOMOKU_MAX_SIZE);
        return;
    }
    br->gm.w = w;
    br->gm.h = h;
    br->gm.n = 0;
    br->used_s = 0;
    if (br->ai) rv_gomoku_ai_clear(br->ai);
    reply(br, "OK");
}

/* Reads "X,Y,F" lines up to DONE into the game; returns 0 when all were valid. */
static int read_board(brain *br) {
    char *buf = NULL;
    size_t cap = 0;
    const char *line;
    int too_long, bad = 0;
    br->gm.n = 0;
    while ((line = read_line(br, &buf, &cap, &too_long)) != NULL) {
        if (strncasecmp(line, "DONE", 4) == 0) {
            free(buf);
            return bad ? -1 : 0;
        }
        int x, y, f;
        const char *rest;
        if (bad) continue;
        if (too_long) {
            reply(br, "ERROR BOARD line too long (expected X,Y,F)");
            bad = 1;
            continue;
        }
        if (parse_xy(line, &x, &y, &rest) != 0 || *rest != ',' ||
            sscanf(rest + 1, "%d", &f) != 1 || f < 1 || f > 3) {
            reply(br, "ERROR bad BOARD line '%.40s' (expected X,Y,F with F 1..3)", line);
            bad = 1;
            continue;
        }
        /* F = 3 marks a stone of a winning line in continuous games: the opponent's */
        if (add_stone(br, x, y, f == 1) != 0) bad = 1;
    }
    free(buf);
    return -1;
}

/* The numeric INFO keys and the values each accepts (spec/gomocup.md). */
static const struct {
    const char *key;
    long long lo, hi;
} info_keys[] = {
    {"timeout_turn", 0, UNLIMITED},  {"timeout_match", 0, UNLIMITED},
    {"time_left", -UNLIMITED, UNLIMITED}, {"max_memory", 0, 1LL << 50},
    {"rule", 0, 15},                 {"game_type", 0, 3},
    {"thread_num", 0, 1024},         {"max_node", 0, 1LL << 50},
};

static void cmd_info(brain *br, const char *args) {
    char key[64];
    int n = 0;
    if (sscanf(args, "%63s %n", key, &n) != 1) return;
    const char *val = args + n;
    int k = -1;
    for (int i = 0; i < (int)(sizeof info_keys / sizeof *info_keys); i++)
        if (strcasecmp(key, info_keys[i].key) == 0) k = i;
    if (k < 0) return; /* evaluate, folder and unknown keys: nothing to do */
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    while (*end == ' ' || *end == '\t') end++;
    if (end == val || *end != '\0' || errno == ERANGE || v < info_keys[k].lo ||
        v > info_keys[k].hi) {
        reply(br, "ERROR INFO %s: expected a whole number %lld..%lld, got '%.40s'", key,
              info_keys[k].lo, info_keys[k].hi, val);
        return;
    }
    if (k == 0)
        br->timeout_turn = v;
    else if (k == 1)
        br->timeout_match = v;
    else if (k == 2)
        br->time_left = v, br->time_left_known = 1;
    else if (k == 3)
        br->max_memory = v;
    else if (k == 4) {
        rv_gomoku_rule r;
        if (rv_gomoku_rule_from_gomocup((int)v, &r) != RV_OK)
            reply(br, "ERROR INFO rule %lld is not supported", v);
        else
            br->gm.rule = r;
    }
    else if (k == 7)
        br->max_node = v;
    /* game_type, thread_num: nothing to do (one thread) */
}

static void cmd_takeback(brain *br, const char *args) {
    int x, y;
    if (parse_xy(args, &x, &y, NULL) != 0) {
        reply(br, "ERROR TAKEBACK expects X,Y");
        return;
    }
    for (int i = br->gm.n - 1; i >= 0; i--)
        if (br->gm.st[i].x == x && br->gm.st[i].y == y) {
            memmove(&br->gm.st[i], &br->gm.st[i + 1],
                    (size_t)(br->gm.n - i - 1) * sizeof(gc_stone));
            br->gm.n--;
            reply(br, "OK");
            return;
        }
    reply(br, "ERROR TAKEBACK %d,%d: no stone there", x, y);
}

/*
 * Swap2 (spec/gomocup.md), decided by the library's opening rule (renversi/opening.h): with
 * no stones, propose three (black, white, black); with 3, take black ("SWAP"), play white's
 * move, or place two more stones; with 5, take black ("SWAP") or play white's move.
 * Ownership is recorded so a following TURN works.
 */
static void gc_swap2(brain *br, const int *xs, const int *ys, int n) {
    br->gm.n = 0;
    rv_gomoku g;
    rv_opening o;
    rv_opening_act act;
    rv_status s = rv_gomoku_init(&g, br->gm.w, br->gm.h, br->gm.rule);
    if (s == RV_OK) s = rv_opening_init(&o, RV_OPENING_SWAP2, &g);
    if (s == RV_OK && n >= 3) {
        /* Replay the opening so far: three stones, then (5) the choice of two more. */
        memset(&act, 0, sizeof act);
        act.step = RV_STEP_PLACE;
        act.n = 3;
        for (int i = 0; i < 3; i++) act.pts[i] = (rv_gomoku_point){xs[i], ys[i]};
        s = rv_opening_apply(&o, &g, &act, NULL);
        if (s == RV_OK && n == 5) {
            act.step = RV_STEP_CHOOSE;
            act.choice = RV_CHOICE_PLUS2;
            s = rv_opening_apply(&o, &g, &act, NULL);
            act.step = RV_STEP_PLACE;
            act.n = 2;
            act.pts[0] = (rv_gomoku_point){xs[3], ys[3]};
            act.pts[1] = (rv_gomoku_point){xs[4], ys[4]};
            if (s == RV_OK) s = rv_opening_apply(&o, &g, &act, NULL);
        }
    }
    if (s != RV_OK || ensure_engine(br) != 0) {
        reply(br, "ERROR cannot play this SWAP2BOARD position");
        return;
    }
    /* Several positions are weighed: each gets a share of the move's time. */
    rv_gomoku_limits lim = {0};
    if (br->fixed_level) lim.level = br->fixed_level;
    if (br->max_node > 0)
        lim.nodes = br->max_node / 12 + 1;
    else if (!br->fixed_level)
        lim.time_ms = move_budget(br, NULL) / 12 + 1;
    if (rv_opening_decide(&o, &g, br->ai, &lim, &act) != RV_OK) {
        reply(br, "ERROR cannot play this SWAP2BOARD position");
        return;
    }
    for (int i = 0; i < n; i++) br->gm.st[br->gm.n++] = (gc_stone){xs[i], ys[i], i % 2 == 1};
    if (act.step == RV_STEP_PLACE) {
        /* The opener's three stones, or two more (white, black) passing the choice back. */
        char line[64] = "";
        size_t len = 0;
        for (int i = 0; i < act.n; i++) {
            br->gm.st[br->gm.n++] = (gc_stone){act.pts[i].x, act.pts[i].y, i != 1};
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%d,%d", i ? " " : "",
                                    act.pts[i].x, act.pts[i].y);
        }
        reply(br, "%s", line);
        return;
    }
    if (act.choice == RV_CHOICE_PLUS2) {
        /* Decide the two stones now (the opening's next step). */
        rv_opening_apply(&o, &g, &act, NULL);
        if (rv_opening_decide(&o, &g, br->ai, &lim, &act) != RV_OK || act.n != 2) {
            br->gm.n = 0;
            reply(br, "ERROR cannot play this SWAP2BOARD position");
            return;
        }
        br->gm.st[br->gm.n++] = (gc_stone){act.pts[0].x, act.pts[0].y, 1};
        br->gm.st[br->gm.n++] = (gc_stone){act.pts[1].x, act.pts[1].y, 0};
        reply(br, "%d,%d %d,%d", act.pts[0].x, act.pts[0].y, act.pts[1].x, act.pts[1].y);
        return;
    }
    if (act.choice == RV_CHOICE_BLACK) {
        for (int i = 0; i < br->gm.n; i++) br->gm.st[i].own = !br->gm.st[i].own;
        reply(br, "SWAP");
        return;
    }
    /* White: the brain plays white's move now. */
    rv_gomoku_ai_info info;
    lim.nodes = br->max_node;
    lim.time_ms = br->fixed_level || br->max_node > 0 ? 0 : move_budget(br, NULL);
    if (rv_gomoku_ai_think(br->ai, &g, &lim, &info) != RV_OK) {
        br->gm.n = 0;
        reply(br, "ERROR cannot play this SWAP2BOARD position");
        return;
    }
    br->gm.st[br->gm.n++] = (gc_stone){info.x, info.y, 1};
    reply(br, "%d,%d", info.x, info.y);
}

static void cmd_swap2board(brain *br) {
    char *buf = NULL;
    size_t cap = 0;
    const char *line;
    int too_long, n = 0, bad = 0, xs[8], ys[8];
    while ((line = read_line(br, &buf, &cap, &too_long)) != NULL) {
        if (strncasecmp(line, "DONE", 4) == 0) break;
        int x, y;
        if (bad) continue;
        if (too_long) {
            reply(br, "ERROR SWAP2BOARD line too long (expected X,Y)");
            bad = 1;
            continue;
        }
        if (parse_xy(line, &x, &y, NULL) != 0 || n >= 5 || x >= br->gm.w ||
            y >= br->gm.h) {
            reply(br, "ERROR bad SWAP2BOARD line '%.40s'", line);
            bad = 1;
            continue;
        }
        for (int i = 0; i < n; i++)
            if (xs[i] == x && ys[i] == y) bad = 1;
        if (bad) {
            reply(br, "ERROR SWAP2BOARD: %d,%d given twice", x, y);
            continue;
        }
        xs[n] = x, ys[n++] = y;
    }
    free(buf);
    if (bad) return;
    if (n != 0 && n != 3 && n != 5) {
        reply(br, "ERROR SWAP2BOARD expects 0, 3 or 5 stones, got %d", n);
        return;
    }
    gc_swap2(br, xs, ys, n);
}

static const char help[] =
    "usage: renversi gomocup [--level N] [--nodes N]\n"
    "       pbrain-renversi\n"
    "\n"
    "A Gomocup (\"pbrain\") brain on stdin/stdout for Piskvork, c-gomoku-cli and other\n"
    "managers. Supports START, RECTSTART, BEGIN, TURN, BOARD, INFO (timeout_turn,\n"
    "timeout_match, time_left, max_memory, max_node, rule, game_type), RESTART, TAKEBACK,\n"
    "SWAP2BOARD, PLAY, ABOUT, YXSTOP and END; it reads commands while it thinks\n"
    "(YXSTOP answers at once, END exits at once). See docs/protocol-gomocup.md.\n"
    "\n"
    "  --level N   think at a fixed engine level (1..20) instead of by the clock\n"
    "  --nodes N   think N nodes a move (1..2^50) and ignore the clock: the same moves on\n"
    "              a loaded machine, for testing (INFO max_node N does the same; 0 = off)\n";

int rv_cmd_gomocup(int argc, char **argv) {
    int level = 0;
    long long nodes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return RV_EXIT_OK;
        } else if (strcmp(argv[i], "--level") == 0 && i + 1 < argc) {
            long v;
            if (rv_cli_parse_int(argv[++i], 1, 20, &v) != 0)
                return rv_cli_fail("gomocup", "--level expects 1..20, got '%s'", argv[i]);
            level = (int)v;
        } else if (strcmp(argv[i], "--nodes") == 0 && i + 1 < argc) {
            if (rv_cli_parse_count(argv[++i], 1, 1LL << 50, &nodes) != 0)
                return rv_cli_fail("gomocup", "--nodes expects 1..%lld, got '%s'", 1LL << 50,
                                   argv[i]);
        } else
            return rv_cli_fail("gomocup", "unknown option '%s' (try --help)", argv[i]);
    }
    return rv_gomocup_run(stdin, stdout, level, nodes);
}

/* Commands that need a board (START first); anything else unknown is UNKNOWN. */
static int needs_board(const char *cmd) {
    static const char *const names[] = {"RESTART", "BEGIN",    "TURN",      "PLAY",
                                        "BOARD",   "TAKEBACK", "SWAP2BOARD"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(cmd, names[i]) == 0) return 1;
    return 0;
}

int rv_gomocup_run(FILE *in, FILE *out, int level, long long nodes) {
    brain br;
    memset(&br, 0, sizeof br);
    br.in = in;
    br.out = out;
    br.fixed_level = level;
    br.max_node = nodes;
    br.timeout_turn = 30000;
    br.time_left = UNLIMITED;
    br.gm.rule = RV_RULE_FREESTYLE;
    pthread_mutex_init(&br.out_lock, NULL);
    char *buf = NULL, *skip_buf = NULL;
    size_t cap = 0, skip_cap = 0;
    const char *line;
    int too_long;
    while ((line = read_line(&br, &buf, &cap, &too_long)) != NULL) {
        char cmd[32];
        int n = 0;
        if (too_long) {
            reply(&br, "ERROR line too long");
            continue;
        }
        if (sscanf(line, "%31s %n", cmd, &n) != 1) continue;
        const char *args = line + n;
        for (char *p = cmd; *p; p++) *p = (char)toupper((unsigned char)*p);
        /* while the worker thinks: YXSTOP and END stop it, INFO is taken at once, and
           anything else waits for its answer (answers stay in order) */
        if (strcmp(cmd, "END") == 0) {
            pthread_mutex_lock(&br.out_lock);
            br.quiet = 1; /* nobody wants a move after END */
            pthread_mutex_unlock(&br.out_lock);
            finish_think(&br, 1);
            break;
        }
        if (strcmp(cmd, "YXSTOP") == 0) {
            finish_think(&br, 1); /* the move found so far is answered now */
            continue;
        }
        if (strcmp(cmd, "INFO") == 0) {
            cmd_info(&br, args);
            continue;
        }
        finish_think(&br, 0);
        br.t_cmd = rv_clock_seconds();
        int x, y;
        if (strcmp(cmd, "ABOUT") == 0) {
            reply(&br,
                  "name=\"renversi\", version=\"%s\", author=\"renversi developers\", "
                  "country=\"-\", www=\"-\"",
                  rv_version());
        } else if (strcmp(cmd, "START") == 0) {
            long s;
            if (rv_cli_parse_int(args, 1, 1000, &s) != 0)
                reply(&br, "ERROR START expects a size");
            else
                cmd_start(&br, (int)s, (int)s);
        } else if (strcmp(cmd, "RECTSTART") == 0) {
            if (parse_xy(args, &x, &y, NULL) != 0)
                reply(&br, "ERROR RECTSTART expects W,H");
            else
                cmd_start(&br, x, y);
        } else if (br.gm.w == 0 && needs_board(cmd)) {
            reply(&br, "ERROR no board yet: send START first");
            if (strcmp(cmd, "BOARD") == 0 || strcmp(cmd, "SWAP2BOARD") == 0) {
                /* skip the stone lines up to DONE */
                const char *l;
                while ((l = read_line(&br, &skip_buf, &skip_cap, &too_long)) != NULL &&
                       strncasecmp(l, "DONE", 4) != 0) {
                }
            }
        } else if (strcmp(cmd, "RESTART") == 0) {
            br.gm.n = 0;
            br.used_s = 0;
            if (br.ai) rv_gomoku_ai_clear(br.ai);
            reply(&br, "OK");
        } else if (strcmp(cmd, "BEGIN") == 0) {
            if (br.gm.n != 0)
                reply(&br, "ERROR BEGIN on a board that is not empty");
            else
                play_own(&br);
        } else if (strcmp(cmd, "TURN") == 0) {
            if (parse_xy(args, &x, &y, NULL) != 0)
                reply(&br, "ERROR TURN expects X,Y");
            else if (add_stone(&br, x, y, 0) == 0)
                play_own(&br);
        } else if (strcmp(cmd, "PLAY") == 0) {
            if (parse_xy(args, &x, &y, NULL) != 0)
                reply(&br, "ERROR PLAY expects X,Y");
            else if (add_stone(&br, x, y, 1) == 0) {
                br.gm.st[br.gm.n - 1].own = 1;
                reply(&br, "%d,%d", x, y);
            }
        } else if (strcmp(cmd, "BOARD") == 0) {
            if (read_board(&br) == 0) play_own(&br);
        } else if (strcmp(cmd, "TAKEBACK") == 0) {
            cmd_takeback(&br, args);
        } else if (strcmp(cmd, "SWAP2BOARD") == 0) {
            cmd_swap2board(&br);
        } else {
            reply(&br, "UNKNOWN %.60s", line);
        }
    }
    /* end of input: the move being thought is still answered */
    finish_think(&br, 0);
    pthread_mutex_destroy(&br.out_lock);
    rv_gomoku_ai_free(br.ai);
    free(buf);
    free(skip_buf);
    return RV_EXIT_OK;
}
