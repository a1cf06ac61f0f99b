/*
 * Load test of `renversi serve`: N WebSocket clients on loopback, in pairs, each pair in
 * its own online room playing Gomoku moves (random empty points) as fast as the server
 * answers. Reports moves per second and the move round trip (move sent -> the state with
 * that move received by its sender): p50, p99, max. Human play only: no AI thinking.
 *
 * With THINK_MS > 0 each player waits that long before answering (a paced load: the
 * round trip then measures the server, not the queue in front of it).
 *
 * PORT may list several servers sharing a PostgreSQL store ("8081,8082"): client i talks to
 * the (i mod count)-th, so the two players of a room are on different servers and every move
 * crosses between them (bench/load_pg.sh).
 *
 * The round trip runs from the FIRST sending of a move to the reading of the first state
 * with it (the bytes' arrival, before they are parsed): a move resent after 500 ms without
 * an answer keeps its first time, and resends are counted. The client waits on epoll until
 * the next move is due, so on a loaded machine it competes for the cores as little as it
 * can; it reports how late its own sends went out ("send lag") and its own CPU, and for
 * every process measured the time its threads waited for a core (/proc/PID/task/x/schedstat:
 * runnable, not running), so a slow run shows whether the machine's scheduler was the cause.
 *
 * LOAD_TRACE=FILE writes one line per measured move ("ROOM PLY SENT_NS READ_NS RESENDS",
 * CLOCK_MONOTONIC), to be joined with the servers' RV_SERVE_TRACE by bench/trace.py.
 *
 *   bench/load PORT[,PORT...] [CLIENTS=500] [SECONDS=10] [THINK_MS=0]
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>

#include "../tests/ws_client.h"

static int (*unused_recv)(ws_conn *, char **, int) __attribute__((unused)) = ws_recv;

typedef struct client {
    ws_conn c;
    int id, seat;       /* 1 black, 2 white, 0 not yet */
    char room[32];
    int waiting;        /* a move was sent and not yet seen in a state */
    int ply;            /* moves in the game when the move was sent */
    uint64_t sent_ns;   /* the last sending of the waiting move (for the resend) */
    uint64_t first_ns;  /* its first sending (the round trip's start) */
    int resends;        /* times it was sent again */
    uint64_t due_ns;    /* when a paced move is to be sent (0: none) */
    char pending[96];
    unsigned rng;
} client;

static uint64_t think_ns;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint64_t *lat;
static size_t nlat, caplat;
static long errors, games, resends, resent_moves;
static FILE *trace;

/* The round trips (and, separately, the send lags): appended, sorted at the end. */
static void push(uint64_t **a, size_t *n, size_t *cap, uint64_t v) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 1 << 16;
        uint64_t *m = realloc(*a, *cap * sizeof **a);
        if (!m) {
            fprintf(stderr, "load: out of memory\n");
            exit(1);
        }
        *a = m;
    }
    (*a)[(*n)++] = v;
}

static uint64_t *lag;
static size_t nlag, caplag;

static void record(const client *cl, uint64_t read_ns) {
    push(&lat, &nlat, &caplat, read_ns - cl->first_ns);
    if (cl->resends) resent_moves++;
    if (trace)
        fprintf(trace, "%s %d %llu %llu %d\n", cl->room, cl->ply, (unsigned long long)cl->first_ns,
                (unsigned long long)read_ns, cl->resends);
}

/* Sends the waiting move now (first time or again). */
static void send_pending(client *cl, uint64_t now) {
    if (cl->sent_ns && cl->waiting) {
        cl->resends++;
        resends++;
    } else {
        cl->first_ns = now;
        cl->resends = 0;
    }
    cl->sent_ns = now;
    ws_send_text(&cl->c, cl->pending);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void on_state(client *cl, cJSON *j, int measuring, uint64_t read_ns) {
    const cJSON *moves = cJSON_GetObjectItem(j, "moves");
    int n = cJSON_GetArraySize(moves);
    const char *tm = cJSON_GetStringValue(cJSON_GetObjectItem(j, "to_move"));
    int over = cJSON_IsTrue(cJSON_GetObjectItem(j, "over"));
    /* Its move is in any state past the position it was sent for (a newer state may have
       replaced the one it first appeared in, on a slow client). */
    if (cl->waiting && n > cl->ply && cl->sent_ns) {
        if (measuring) record(cl, read_ns);
        cl->waiting = 0;
    }
    if (over) {
        cl->waiting = 0;
        if (cl->seat == 1) {
            games++;
            snprintf(cl->pending, sizeof cl->pending, "{\"type\":\"new\"}");
            ws_send_text(&cl->c, cl->pending);
        }
        return;
    }
    int mine = tm && ((cl->seat == 1 && !strcmp(tm, "black")) || (cl->seat == 2 && !strcmp(tm, "white")));
    const cJSON *seats = cJSON_GetObjectItem(j, "seats");
    const char *w = cJSON_GetStringValue(cJSON_GetObjectItem(seats, "white"));
    if (!mine || cl->waiting || (w && !strcmp(w, "open"))) return;
    const char *board = cJSON_GetStringValue(cJSON_GetObjectItem(j, "board"));
    int size = cJSON_GetObjectItem(j, "size")->valueint;
    int empty = 0;
    for (int i = 0; board[i]; i++) empty += board[i] == '.';
    if (!empty) return;
    cl->rng = cl->rng * 1103515245u + 12345u;
    int k = (int)((cl->rng >> 8) % (unsigned)empty), at = 0;
    for (int i = 0; board[i]; i++)
        if (board[i] == '.' && k-- == 0) {
            at = i;
            break;
        }
    char m[96];
    snprintf(m, sizeof m, "{\"type\":\"move\",\"x\":%d,\"y\":%d,\"ply\":%d}", at % size, at / size, n);
    cl->waiting = 1;
    cl->sent_ns = 0; /* not sent yet */
    cl->ply = n;
    memcpy(cl->pending, m, sizeof m);
    if (think_ns) {
        /* Uniform in [0.5, 1.5] x THINK_MS, so the players do not move in lockstep. */
        cl->rng = cl->rng * 1103515245u + 12345u;
        cl->due_ns = now_ns() + think_ns / 2 + (uint64_t)((double)think_ns * ((cl->rng >> 8) % 1000) / 1000.0);
        return;
    }
    send_pending(cl, now_ns());
}

/* CPU time (user + system, all threads, ms) of the processes listed in environment variable
   VAR (comma-separated pids); -1 when it is unset or empty. Processes gone count 0. */
static double cpu_ms(const char *var) {
    const char *list = getenv(var);
    if (!list || !*list) return -1;
    double ticks = 0;
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        char path[64], buf[1024];
        snprintf(path, sizeof path, "/proc/%d/stat", atoi(p));
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = 0;
        const char *q = strrchr(buf, ')'); /* the command name may hold spaces */
        unsigned long long ut, st;
        if (q && sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2)
            ticks += (double)(ut + st);
    }
    return ticks * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

/* Time (ms) the threads of the processes in VAR (comma-separated pids; "self" for this one)
   spent runnable but waiting for a core, from /proc/PID/task/TID/schedstat; -1 when unset.
   Threads that ended are not counted (the servers' threads live through the run). */
static double wait_ms(const char *list) {
    if (!list || !*list) return -1;
    double ns = 0;
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        char dir[64];
        if (!strncmp(p, "self", 4)) snprintf(dir, sizeof dir, "/proc/self/task");
        else snprintf(dir, sizeof dir, "/proc/%d/task", atoi(p));
        DIR *d = opendir(dir);
        if (!d) continue;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            char path[400];
            snprintf(path, sizeof path, "%s/%s/schedstat", dir, e->d_name);
            FILE *f = fopen(path, "r");
            if (!f) continue;
            unsigned long long run, wait;
            if (fscanf(f, "%llu %llu", &run, &wait) == 2) ns += (double)wait;
            fclose(f);
        }
        closedir(d);
    }
    return ns * 1e-6;
}

static double self_cpu_ms(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3;
}

static double pct(const uint64_t *a, size_t n, int p) {
    return n ? (double)a[n * (size_t)p / 100 < n ? n * (size_t)p / 100 : n - 1] * 1e-6 : 0;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fprintf(stderr, "usage: load PORT [CLIENTS] [SECONDS]\n");
        return 2;
    }
    int ports[8], nports = 0;
    for (const char *p = argv[1]; *p && nports < 8; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        ports[nports] = atoi(p);
        if (ports[nports] <= 0) break;
        nports++;
    }
    if (!nports) {
        fprintf(stderr, "load: PORT must be a port number or a comma-separated list of them\n");
        return 2;
    }
    int n = argc > 2 ? atoi(argv[2]) : 500;
    double seconds = argc > 3 ? atof(argv[3]) : 10;
    think_ns = argc > 4 ? (uint64_t)(atof(argv[4]) * 1e6) : 0;
    n -= n % 2;
    client *cl = calloc((size_t)n, sizeof *cl);
    int ep = epoll_create1(0);
    struct epoll_event *evs = calloc((size_t)n, sizeof *evs);
    if (!cl || !evs || ep < 0) {
        fprintf(stderr, "load: out of memory\n");
        return 1;
    }
    const char *tp = getenv("LOAD_TRACE");
    if (tp && *tp && !(trace = fopen(tp, "w"))) {
        fprintf(stderr, "load: LOAD_TRACE: cannot write %s\n", tp);
        return 2;
    }
    uint64_t t0 = now_ns();
    for (int i = 0; i < n; i++) {
        cl[i].id = i;
        cl[i].rng = 2654435761u * (unsigned)(i + 1);
        if (ws_open(&cl[i].c, ports[i % nports], "/ws", "")) {
            fprintf(stderr, "load: client %d cannot connect\n", i);
            return 1;
        }
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, cl[i].c.fd, &ev)) {
            fprintf(stderr, "load: epoll: %s\n", strerror(errno));
            return 1;
        }
        if (i % 2 == 0)
            ws_send_text(&cl[i].c, "{\"type\":\"create\",\"variant\":\"freestyle\",\"size\":15,\"mode\":\"online\"}");
    }
    fprintf(stderr, "load: %d clients connected in %.2f s\n", n, (double)(now_ns() - t0) * 1e-9);
    uint64_t start = now_ns(), measure_from = start + 1000000000ull; /* 1 s warm-up */
    uint64_t end = measure_from + (uint64_t)(seconds * 1e9);
    long moves_measured = 0;
    /* The servers' (and the database's) CPU time over the measured seconds only. */
    double srv0 = -1, db0 = -1, me0 = 0, wsrv0 = -1, wdb0 = -1, wme0 = 0;
    const char *srv_pids = getenv("LOAD_CPU_PIDS"), *db_pids = getenv("LOAD_CPU_DB_PIDS");
    int sampled = 0;
    uint64_t next_due = 0; /* the earliest due send or resend (0: none known) */
    for (;;) {
        uint64_t t = now_ns();
        if (t >= end) break;
        if (!sampled && t >= measure_from) {
            sampled = 1;
            srv0 = cpu_ms("LOAD_CPU_PIDS");
            db0 = cpu_ms("LOAD_CPU_DB_PIDS");
            wsrv0 = wait_ms(srv_pids);
            wdb0 = wait_ms(db_pids);
            me0 = self_cpu_ms();
            wme0 = wait_ms("self");
        }
        /* Sends that are due (paced moves, resends), and the next one to wait for. */
        if (next_due && t >= next_due) {
            next_due = 0;
            for (int i = 0; i < n; i++) {
                client *c = &cl[i];
                /* No answer for 500 ms (a message dropped over the rate limit): again. */
                if (c->waiting && c->sent_ns && !c->due_ns) c->due_ns = c->sent_ns + 500000000ull;
                if (c->due_ns && t >= c->due_ns && !c->waiting) c->due_ns = 0; /* answered */
                if (c->due_ns && t >= c->due_ns) {
                    if (t >= measure_from) push(&lag, &nlag, &caplag, t - c->due_ns);
                    c->due_ns = 0;
                    send_pending(c, t);
                    c->due_ns = c->sent_ns + 500000000ull; /* the resend, unless answered */
                }
                if (c->due_ns && (!next_due || c->due_ns < next_due)) next_due = c->due_ns;
            }
        }
        uint64_t until = next_due && next_due < end ? next_due : end;
        if (!sampled && measure_from < until) until = measure_from;
        int timeout = until > t ? (int)((until - t + 999999) / 1000000) : 0;
        int k = epoll_wait(ep, evs, n, timeout);
        if (k < 0 && errno != EINTR) break;
        for (int e = 0; e < k; e++) {
            int i = (int)evs[e].data.u32;
            if (ws_fill(&cl[i].c)) {
                fprintf(stderr, "load: client %d disconnected\n", i);
                return 1;
            }
            uint64_t read_ns = now_ns(); /* the bytes are here; parsing is the client's time */
            char *msg;
            while (ws_parse(&cl[i].c, &msg, NULL) == 1) {
                cJSON *j = cJSON_Parse(msg);
                free(msg);
                const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(j, "type"));
                if (!type) {
                } else if (!strcmp(type, "joined")) {
                    /* a later `joined` (the colours swap on each new game) only moves the seat */
                    const char *seat = cJSON_GetStringValue(cJSON_GetObjectItem(j, "seat"));
                    cl[i].seat = !strcmp(seat, "black") ? 1 : !strcmp(seat, "white") ? 2 : 0;
                    int first = cl[i].room[0] == '\0';
                    snprintf(cl[i].room, sizeof cl[i].room, "%s",
                             cJSON_GetStringValue(cJSON_GetObjectItem(j, "room")));
                    if (first && i % 2 == 0) {
                        char m[96];
                        snprintf(m, sizeof m, "{\"type\":\"join\",\"room\":\"%s\"}", cl[i].room);
                        ws_send_text(&cl[i + 1].c, m);
                    }
                } else if (!strcmp(type, "state")) {
                    size_t before = nlat;
                    on_state(&cl[i], j, read_ns >= measure_from, read_ns);
                    moves_measured += nlat > before;
                } else if (!strcmp(type, "error")) {
                    /* A refused move (the rate limit, with few fast clients): retry it later. */
                    if (errors++ < 5)
                        fprintf(stderr, "load: client %d: %s\n", i,
                                cJSON_GetStringValue(cJSON_GetObjectItem(j, "message")));
                    if (cl[i].pending[0] && cl[i].waiting) cl[i].due_ns = now_ns() + 200000000ull;
                }
                cJSON_Delete(j);
                /* A paced move or a resend to wait for. */
                client *c = &cl[i];
                if (c->waiting && !c->due_ns && c->sent_ns) c->due_ns = c->sent_ns + 500000000ull;
                if (c->due_ns && (!next_due || c->due_ns < next_due)) next_due = c->due_ns;
            }
        }
    }
    double srv1 = cpu_ms("LOAD_CPU_PIDS"), db1 = cpu_ms("LOAD_CPU_DB_PIDS");
    double wsrv1 = wait_ms(srv_pids), wdb1 = wait_ms(db_pids), me1 = self_cpu_ms(), wme1 = wait_ms("self");
    double span = (double)(now_ns() - measure_from) * 1e-9;
    for (int i = 0; i < n; i++) ws_close(&cl[i].c);
    if (trace) fclose(trace);
    if (!nlat) {
        fprintf(stderr, "load: no move was measured\n");
        return 1;
    }
    qsort(lat, nlat, sizeof *lat, cmp_u64);
    qsort(lag, nlag, sizeof *lag, cmp_u64);
    double mx = (double)lat[nlat - 1] * 1e-6;
    printf("load: %d clients (%d rooms), think %.0f ms, %.1f s: %ld moves, %.0f moves/s, round trip p50 %.2f ms, "
           "p99 %.2f ms, max %.2f ms; %ld games finished, %ld errors, %ld moves resent (%ld resends)\n",
           n, n / 2, (double)think_ns * 1e-6, span, moves_measured, (double)moves_measured / span,
           pct(lat, nlat, 50), pct(lat, nlat, 99), mx, games, errors, resent_moves, resends);
    double per = moves_measured ? 1.0 / (double)moves_measured : 0;
    printf("load: the client: send lag p50 %.2f ms, p99 %.2f ms, max %.2f ms; cpu %.0f ms (%.3f ms "
           "per move), waited for a core %.0f ms\n",
           pct(lag, nlag, 50), pct(lag, nlag, 99), nlag ? (double)lag[nlag - 1] * 1e-6 : 0,
           me1 - me0, (me1 - me0) * per, wme1 - wme0);
    if (srv0 >= 0 && moves_measured) {
        printf("load: cpu over the measured %.1f s: servers %.0f ms (%.3f ms per move)", span,
               srv1 - srv0, (srv1 - srv0) * per);
        if (db0 >= 0)
            printf(", database %.0f ms (%.3f ms per move)", db1 - db0, (db1 - db0) * per);
        printf("\nload: waited for a core: servers' threads %.0f ms (%.3f ms per move)",
               wsrv1 - wsrv0, (wsrv1 - wsrv0) * per);
        if (wdb0 >= 0) printf(", database %.0f ms (%.3f ms per move)", wdb1 - wdb0, (wdb1 - wdb0) * per);
        printf("\n");
    }
    free(lat);
    free(lag);
    free(cl);
    free(evs);
    close(ep);
    return 0;
}
