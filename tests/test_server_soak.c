/*
 * The soak of issue 10: one `renversi serve` (in a child, `ulimit -n` 1536, three descriptors
 * a connection: room for about 490) under three attacks at once, on loopback, while two honest
 * players each finish a Reversi game against the computer:
 *   1. clients that never read: 8 asking for the replay of a 676-move game and 300
 *      spectators joining the first honest player's room, each at the rate limit;
 *   2. 3 connections creating level-20 AI rooms and moving in them, at the rate limit;
 *   5. a flood of plain TCP connections that keeps the server at its connection limit.
 * Checked: the server's RSS (from /proc, sampled throughout) stays under 200 MB, both games
 * finish, and the attackers cannot take the computer from the honest players. That last one
 * is checked on the server's own record of its AI queue (RV_SERVE_TRACE, replayed here):
 * every job is started in the order it was queued (none overtakes another: an honest
 * player's job waits only for the jobs queued before it), no more jobs are ever queued than
 * there are rooms with a player in them that the computer plays (3 attackers + 2 honest:
 * rooms left behind are withdrawn, so creating rooms cannot fill the queue), and every
 * answer the honest players got came from a job of that record.
 *
 * Not a timing measure. Until the eleventh session each answer had to come within twice its
 * time per move (6 s), stretched by the load average: on the shared 2-core CI machine under
 * ASan (load 11-21) the server's network thread was runnable nearly all the soak and on a
 * CPU 7% of it (/proc schedstat: 5.5 s run, 66.7 s waiting for a CPU in 73.7 s), so the
 * wait measured the machine. (It also found a server defect, fixed: an answer queued
 * behind 64 kB of stale states, tests/test_server_outq.c.) Here a wait for an answer is
 * only a hang guard (SOAK_HANG_S); the wall-clock bound, twice the time per move, is
 * checked when RV_SOAK_ANSWER_S is set: tests/long_serve_soak.sh, for a quiet machine,
 * figures in BENCHMARKS.md ("Web server load test"). The server thread's CPU time and its
 * wait for a CPU are printed, so a slow run says whether the machine was the cause.
 *
 * RV_SOAK_SECONDS (default 20): the attacks last at least this long (and until both games
 * are over); RV_SOAK_LEVEL (default 3): the honest games' level; RV_SOAK_ANSWER_S (unset:
 * the hang guard only): the bound for an answer, in seconds, stretched by the 1-minute load
 * average over the cores when it is above them; RV_SERVE_TRACE: keep the server's trace
 * there (FILE.PID) instead of a temporary file. `make test` runs the short soak;
 * tests/long_serve_soak.sh a longer one at a higher level, with RV_SOAK_ANSWER_S=6.
 */
#include "renversi/core.h"
#include "server/store.h"
#include "server_harness.h"
#include "test.h"

#define BIG 26
enum { REPLAYERS = 8, WATCHERS = 300, AI_ATTACKERS = 3, FLOOD = 600, HONEST = 2 };
#define SOAK_HANG_S 120.0 /* an answer slower than this is a hang, whatever the machine */

static char db_path[256], web_dir[256], err_path[256], trace_path[256];

/* The 1-minute load average, or 0 when /proc/loadavg cannot be read. */
static double load_average(void) {
    FILE *f = fopen("/proc/loadavg", "r");
    double l = 0;
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = 0;
        fclose(f);
    }
    return l;
}

/* Thread TID of process PID: its time on a CPU and waiting for one, in seconds (/proc
   schedstat); 0 when unknown. */
static int sched_times(pid_t pid, pid_t tid, double *run, double *wait) {
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    unsigned long long r = 0, w = 0;
    int ok = f && fscanf(f, "%llu %llu", &r, &w) == 2;
    if (f) fclose(f);
    *run = ok ? (double)r * 1e-9 : 0;
    *wait = ok ? (double)w * 1e-9 : 0;
    return ok;
}

typedef struct job_key {
    char room[24];
    int moves, hint;
} job_key;

/* The AI queue replayed from the server's trace: `aiq` pushes, `aix` removes, `ai0` must
   take the head. */
typedef struct ai_replay {
    job_key q[256];
    int n;
    int jobs, overtaken, mismatched, max_queued;
    int honest_jobs;
} ai_replay;

static void replay_trace(const char *path, char rooms[][32], int nrooms, ai_replay *ar) {
    memset(ar, 0, sizeof *ar);
    FILE *f = fopen(path, "r");
    if (!f) {
        ar->mismatched = -1;
        return;
    }
    char line[256], stage[8];
    job_key k;
    unsigned long long ns;
    int queued;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%7s %llu %23s %d %d", stage, &ns, k.room, &k.moves, &k.hint) != 5)
            continue;
        if (!strcmp(stage, "aiq")) {
            queued = ar->n + 1; /* a line without the count is counted as out of step */
            if (sscanf(line, "%*s %*u %*s %*d %*d %d", &queued) != 1 || queued != ar->n + 1 ||
                ar->n == 256) {
                ar->mismatched++;
                if (ar->n == 256) continue;
            }
            if (queued > ar->max_queued) ar->max_queued = queued;
            ar->q[ar->n++] = k;
        } else if (!strcmp(stage, "aix") || !strcmp(stage, "ai0")) {
            int i = 0;
            while (i < ar->n && (strcmp(ar->q[i].room, k.room) || ar->q[i].moves != k.moves ||
                                 ar->q[i].hint != k.hint))
                i++;
            if (i == ar->n) {
                ar->mismatched++;
                continue;
            }
            if (!strcmp(stage, "ai0")) {
                ar->jobs++;
                if (i != 0) ar->overtaken++;
                for (int h = 0; h < nrooms; h++) ar->honest_jobs += !strcmp(rooms[h], k.room);
            }
            memmove(ar->q + i, ar->q + i + 1, (size_t)(ar->n - i - 1) * sizeof *ar->q);
            ar->n--;
        }
    }
    fclose(f);
}

static void store_big_game(void) {
    char err[256];
    rv_store *st = rv_store_open(db_path, err, sizeof err);
    if (!st) {
        fprintf(stderr, "store: %s\n", err);
        exit(1);
    }
    int64_t id = rv_store_new_game(st, "0123456789", "freestyle", BIG, "human", "human");
    static char text[BIG * BIG][8];
    const char *moves[BIG * BIG];
    int b = 0, w = 0;
    for (int y = 0; y < BIG; y++)
        for (int x = 0; x < BIG; x++) {
            /* Black where x/2 + y is even: no run longer than two, the board fills. */
            int i = (x / 2 + y) % 2 == 0 ? 2 * b++ : 2 * w++ + 1;
            snprintf(text[i], sizeof text[i], "%c%d", 'a' + x, (BIG - y) % 100);
            moves[i] = text[i];
        }
    rv_store_change ch = {.game = id, .keep = 0, .moves = moves, .n = BIG * BIG, .result = ""};
    int64_t v;
    CHECK(rv_store_commit(st, &ch, &v) == RV_STORE_OK);
    rv_store_close(st);
}

typedef struct honest {
    ws_conn c;
    char room[32];
    int waiting;        /* a move was sent, the computer's answer is awaited */
    int sent_ply;       /* the number of moves when it was sent */
    double sent;
    double worst;       /* slowest answer, seconds */
    double worst_at;    /* when its move was sent (CLOCK_MONOTONIC, as RV_SERVE_TRACE) */
    int worst_ply;
    int answers;
    int over;
    char result[128];
} honest;

/* Reads what the player has and plays its next move when it is its turn. 0, or -1 when
   the connection was lost. */
static int honest_step(honest *h) {
    cJSON *last = NULL;
    char *m;
    int r;
    while ((r = ws_recv(&h->c, &m, 0)) == 1) {
        cJSON *j = cJSON_Parse(m);
        free(m);
        if (j && !strcmp(harness_str(j, "type"), "state")) {
            cJSON_Delete(last);
            last = j;
        } else {
            if (j && !strcmp(harness_str(j, "type"), "error"))
                fprintf(stderr, "soak: honest player got an error: %s\n", harness_str(j, "message"));
            cJSON_Delete(j);
        }
    }
    if (r < 0) {
        cJSON_Delete(last);
        return -1;
    }
    if (!last) return 0;
    if (cJSON_IsTrue(cJSON_GetObjectItem(last, "over"))) {
        h->over = 1;
        snprintf(h->result, sizeof h->result, "%s", harness_str(last, "result"));
    } else if (!strcmp(harness_str(last, "to_move"), "black") &&
               !cJSON_IsTrue(cJSON_GetObjectItem(last, "thinking")) &&
               (!h->waiting || cJSON_GetArraySize(cJSON_GetObjectItem(last, "moves")) > h->sent_ply)) {
        double now = harness_now();
        if (h->waiting) {
            if (now - h->sent > h->worst)
                h->worst = now - h->sent, h->worst_at = h->sent, h->worst_ply = h->sent_ply;
            h->answers++;
        }
        cJSON *pt = cJSON_GetArrayItem(cJSON_GetObjectItem(last, "legal"), 0);
        if (pt) {
            char mv[96];
            snprintf(mv, sizeof mv, "{\"type\":\"move\",\"x\":%d,\"y\":%d,\"ply\":%d}",
                     cJSON_GetArrayItem(pt, 0)->valueint, cJSON_GetArrayItem(pt, 1)->valueint,
                     cJSON_GetArraySize(cJSON_GetObjectItem(last, "moves")));
            ws_send_text(&h->c, mv);
            h->waiting = 1;
            h->sent = now;
            h->sent_ply = cJSON_GetArraySize(cJSON_GetObjectItem(last, "moves"));
        }
    }
    cJSON_Delete(last);
    return 0;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const char *e = getenv("RV_SOAK_SECONDS");
    double seconds = e ? atof(e) : 20;
    e = getenv("RV_SOAK_LEVEL");
    int level = e ? atoi(e) : 3;
    int sanitized = getenv("RV_SANITIZED") != NULL;
    snprintf(db_path, sizeof db_path, "/tmp/renversi-soak-%d.db", (int)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/renversi-soak-%d.err", (int)getpid());
    /* The server's trace (its file gets the server's pid appended): ours, unless asked for. */
    const char *tr = getenv("RV_SERVE_TRACE");
    int own_trace = !tr || !*tr;
    if (own_trace) {
        snprintf(trace_path, sizeof trace_path, "/tmp/renversi-soak-%d.trace", (int)getpid());
        setenv("RV_SERVE_TRACE", trace_path, 1);
    } else {
        snprintf(trace_path, sizeof trace_path, "%s", tr);
    }
    e = getenv("RV_SOAK_ANSWER_S");
    double answer_s = e ? atof(e) : 0;
#ifdef RV_WEB_DIR
    snprintf(web_dir, sizeof web_dir, "%s", RV_WEB_DIR);
#endif
    /* Our own descriptors: every client socket lives in this process. */
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < 4096 && rl.rlim_max >= 4096) rl.rlim_cur = 4096, setrlimit(RLIMIT_NOFILE, &rl);
    store_big_game();
    harness_opts ho = {.db = db_path, .web = web_dir, .nofile = 1536, .errfile = err_path};
    int port;
    double started = harness_now();
    pid_t pid = harness_start(&ho, &port);
    CHECK(pid > 0 && port > 0);
    if (port <= 0) return test_finish();

    /* The honest players first: two games against the computer. */
    static honest hp[HONEST];
    char create[160];
    snprintf(create, sizeof create,
             "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"ai\",\"level\":%d}", level);
    for (int i = 0; i < HONEST; i++) {
        CHECK(ws_open(&hp[i].c, port, "/ws", "") == 0);
        ws_send_text(&hp[i].c, create);
        cJSON *j = harness_recv_type(&hp[i].c, "joined", 5000);
        snprintf(hp[i].room, sizeof hp[i].room, "%s", harness_str(j, "room"));
        cJSON_Delete(j);
    }
    /* Then the attackers. */
    static ws_conn rp[REPLAYERS], wt[WATCHERS], ai[AI_ATTACKERS];
    /* A small receive buffer (4 kB, the kernel doubles it), set before each connects
       (ws_open_rcvbuf says why not after). */
    int small = 4096, nrp = 0, nwt = 0, nai = 0;
    for (int i = 0; i < REPLAYERS; i++) nrp += ws_open_rcvbuf(&rp[i], port, "/ws", "", small) == 0;
    for (int i = 0; i < WATCHERS; i++) nwt += ws_open_rcvbuf(&wt[i], port, "/ws", "", small) == 0;
    for (int i = 0; i < AI_ATTACKERS; i++) nai += ws_open_rcvbuf(&ai[i], port, "/ws", "", small) == 0;
    CHECK_EQ_INT(nrp + nwt + nai, REPLAYERS + WATCHERS + AI_ATTACKERS);
    static int flood[FLOOD];
    for (int i = 0; i < FLOOD; i++) flood[i] = harness_tcp(port);

    char join[96];
    snprintf(join, sizeof join, "{\"type\":\"join\",\"room\":\"%s\"}", hp[0].room);
    const char *replay = "{\"type\":\"replay\",\"id\":1}";
    const char *mk = "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"ai\",\"level\":20}";
    const char *mv = "{\"type\":\"move\",\"move\":\"h8\"}";
    long rss_max = 0, cpu0 = harness_cpu_ticks(pid);
    double run0, wait0, run1 = 0, wait1 = 0;
    int sched_ok = sched_times(pid, pid, &run0, &wait0);
    double load_max = 0, tick_max = 0, tick_max_at = 0;
    double t0 = harness_now(), end = t0 + seconds, limit = t0 + seconds + 300;
    int lost = 0, tick = 0, reopened = 0;
    while (harness_now() < limit) {
        double ts = harness_now();
        int games_over = 1;
        for (int i = 0; i < HONEST; i++) {
            if (!hp[i].over && honest_step(&hp[i])) lost++, hp[i].over = -1;
            games_over &= hp[i].over != 0;
        }
        if (games_over && ts >= end) break;
        /* 20 messages a second from each attacker: the rate limit. */
        for (int i = 0; i < REPLAYERS; i++) ws_send_text(&rp[i], replay);
        for (int i = 0; i < WATCHERS; i++) ws_send_text(&wt[i], join);
        for (int i = 0; i < AI_ATTACKERS; i++) ws_send_text(&ai[i], tick % 2 ? mv : mk);
        /* The flood keeps its connections open: the server closes idle ones after 20 s. */
        if (tick % 20 == 0)
            for (int i = 0; i < FLOOD; i++) {
                char b;
                if (flood[i] >= 0 && recv(flood[i], &b, 1, MSG_DONTWAIT) == 0) {
                    close(flood[i]);
                    flood[i] = -1;
                }
                if (flood[i] < 0 && (flood[i] = harness_tcp(port)) >= 0) reopened++;
            }
        if (tick % 10 == 0) {
            long rss = harness_rss_kb(pid);
            if (rss > rss_max) rss_max = rss;
            double l = load_average();
            if (l > load_max) load_max = l;
        }
        tick++;
        if (harness_now() - ts > tick_max) tick_max = harness_now() - ts, tick_max_at = ts;
        while (harness_now() - ts < 0.05) {
            /* The honest players read while they wait. */
            for (int i = 0; i < HONEST; i++) {
                struct pollfd pf = {hp[i].c.fd, POLLIN, 0};
                if (!hp[i].over && poll(&pf, 1, 0) > 0 && honest_step(&hp[i])) lost++, hp[i].over = -1;
            }
            usleep(2000);
        }
    }
    double took = harness_now() - t0;
    long cpu = harness_cpu_ticks(pid) - cpu0;
    sched_ok = sched_ok && sched_times(pid, pid, &run1, &wait1);
    for (int i = 0; i < HONEST; i++)
        fprintf(stderr,
                "soak: honest game %d (room %s): %s after %d answers, the slowest in %.2f s "
                "(ply %d, sent at %.3f)\n",
                i + 1, hp[i].room, hp[i].over == 1 ? hp[i].result : "NOT FINISHED", hp[i].answers,
                hp[i].worst, hp[i].worst_ply, hp[i].worst_at);
    fprintf(stderr,
            "soak: %.0f s, %d ticks; server RSS at most %ld kB, CPU %.1f s; %d flood connections "
            "reopened\n",
            took, tick, rss_max, (double)cpu / (double)sysconf(_SC_CLK_TCK), reopened);
    fprintf(stderr, "soak: the test's longest tick of sends %.2f s (at %.3f)\n", tick_max, tick_max_at);
    if (sched_ok)
        fprintf(stderr, "soak: the server's network thread: %.1f s on a CPU, %.1f s waiting for one\n",
                run1 - run0, wait1 - wait0);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double stretch = cores > 0 && load_max > (double)cores ? load_max / (double)cores : 1.0;
    double bound = answer_s > 0 ? answer_s * stretch : SOAK_HANG_S;
    fprintf(stderr, "soak: load average at most %.1f on %ld cores: answer bound %.1f s (%s)\n",
            load_max, cores, bound, answer_s > 0 ? "RV_SOAK_ANSWER_S x load / cores" : "hang guard");
    CHECK_EQ_INT(lost, 0);
    int answers = 0;
    for (int i = 0; i < HONEST; i++) {
        CHECK_MSG(hp[i].over == 1, "honest game %d did not finish", i + 1);
        CHECK_MSG(hp[i].worst <= bound, "honest game %d waited %.2f s for an answer (load %.1f)",
                  i + 1, hp[i].worst, load_max);
        answers += hp[i].answers;
    }
    if (!sanitized) CHECK_MSG(rss_max < 200 * 1024, "RSS reached %ld kB", rss_max);
    for (int i = 0; i < FLOOD; i++)
        if (flood[i] >= 0) close(flood[i]);
    for (int i = 0; i < REPLAYERS; i++) ws_close(&rp[i]);
    for (int i = 0; i < WATCHERS; i++) ws_close(&wt[i]);
    for (int i = 0; i < AI_ATTACKERS; i++) ws_close(&ai[i]);
    for (int i = 0; i < HONEST; i++) ws_close(&hp[i].c);
    CHECK_EQ_INT(harness_stop(pid, SIGTERM), 0);
    /* The AI queue as the server served it (its trace is complete once it has stopped). */
    char tfile[300], rooms[HONEST][32];
    snprintf(tfile, sizeof tfile, "%s.%d", trace_path, (int)pid);
    for (int i = 0; i < HONEST; i++) memcpy(rooms[i], hp[i].room, sizeof rooms[i]);
    ai_replay ar;
    replay_trace(tfile, rooms, HONEST, &ar);
    fprintf(stderr,
            "soak: AI queue: %d jobs started (%d for the honest players), at most %d queued, "
            "%d overtaken, %d trace lines out of step\n",
            ar.jobs, ar.honest_jobs, ar.max_queued, ar.overtaken, ar.mismatched);
    CHECK_EQ_INT(ar.mismatched, 0);
    CHECK_EQ_INT(ar.overtaken, 0);
    CHECK_MSG(ar.max_queued <= AI_ATTACKERS + HONEST, "%d AI jobs queued at once", ar.max_queued);
    CHECK_MSG(ar.honest_jobs >= answers, "%d honest jobs for %d answers", ar.honest_jobs, answers);
    CHECK(ar.jobs > ar.honest_jobs); /* the attackers' jobs were there to overtake */
    if (own_trace) unlink(tfile);
    FILE *f = fopen(err_path, "r");
    int lines = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (++lines <= 3) fprintf(stderr, "soak: the server said: %s", line);
    if (f) fclose(f);
    /* One line per 10 s at most per kind of trouble (and a few at start). */
    double up = harness_now() - started;
    CHECK_MSG(lines <= 4 + (int)(up / 10) * 2, "%d log lines in %.0f s", lines, up);
    char p[300];
    unlink(db_path);
    unlink(err_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    return test_finish();
}
