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
 *   bench/load PORT[,PORT...] [CLIENTS=500] [SECONDS=10] [THINK_MS=0]
 */
#include <cjson/cJSON.h>
#include <signal.h>
#include <time.h>

#include "../tests/ws_client.h"

static int (*unused_recv)(ws_conn *, char **, int) __attribute__((unused)) = ws_recv;

typedef struct client {
    ws_conn c;
    int id, seat;       /* 1 black, 2 white, 0 not yet */
    char room[32];
    int waiting;        /* a move was sent and not yet seen in a state */
    int ply;            /* moves in the game when the move was sent */
    uint64_t sent_ns;
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
static long errors, games;

static void record(uint64_t ns) {
    if (nlat == caplat) {
        caplat = caplat ? caplat * 2 : 1 << 16;
        lat = realloc(lat, caplat * sizeof *lat);
    }
    lat[nlat++] = ns;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void on_state(client *cl, cJSON *j, int measuring) {
    const cJSON *moves = cJSON_GetObjectItem(j, "moves");
    int n = cJSON_GetArraySize(moves);
    const char *tm = cJSON_GetStringValue(cJSON_GetObjectItem(j, "to_move"));
    int over = cJSON_IsTrue(cJSON_GetObjectItem(j, "over"));
    /* Its move is in any state past the position it was sent for (a newer state may have
       replaced the one it first appeared in, on a slow client). */
    if (cl->waiting && n > cl->ply) {
        if (measuring) record(now_ns() - cl->sent_ns);
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
    cl->ply = n;
    memcpy(cl->pending, m, sizeof m);
    if (think_ns) {
        /* Uniform in [0.5, 1.5] x THINK_MS, so the players do not move in lockstep. */
        cl->rng = cl->rng * 1103515245u + 12345u;
        cl->due_ns = now_ns() + think_ns / 2 + (uint64_t)((double)think_ns * ((cl->rng >> 8) % 1000) / 1000.0);
        return;
    }
    cl->sent_ns = now_ns();
    ws_send_text(&cl->c, m);
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
    struct pollfd *pf = calloc((size_t)n, sizeof *pf);
    uint64_t t0 = now_ns();
    for (int i = 0; i < n; i++) {
        cl[i].id = i;
        cl[i].rng = 2654435761u * (unsigned)(i + 1);
        if (ws_open(&cl[i].c, ports[i % nports], "/ws", "")) {
            fprintf(stderr, "load: client %d cannot connect\n", i);
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
    double srv0 = -1, db0 = -1;
    int sampled = 0;
    while (now_ns() < end) {
        if (!sampled && now_ns() >= measure_from) {
            sampled = 1;
            srv0 = cpu_ms("LOAD_CPU_PIDS");
            db0 = cpu_ms("LOAD_CPU_DB_PIDS");
        }
        for (int i = 0; i < n; i++) pf[i] = (struct pollfd){cl[i].c.fd, POLLIN, 0};
        int timeout = think_ns || errors ? 1 : 100;
        if (poll(pf, (nfds_t)n, timeout) < 0) break;
        uint64_t t = now_ns();
        for (int i = 0; (think_ns || errors) && i < n; i++) {
            /* Over the rate limit a message may be dropped without an answer: send it again. */
            if (cl[i].waiting && !cl[i].due_ns && t - cl[i].sent_ns > 500000000ull)
                cl[i].due_ns = t;
            if (cl[i].due_ns && t >= cl[i].due_ns) {
                cl[i].due_ns = 0;
                cl[i].sent_ns = now_ns();
                ws_send_text(&cl[i].c, cl[i].pending);
            }
        }
        for (int i = 0; i < n; i++) {
            if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (ws_fill(&cl[i].c)) {
                fprintf(stderr, "load: client %d disconnected\n", i);
                return 1;
            }
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
                    on_state(&cl[i], j, now_ns() >= measure_from);
                    moves_measured += nlat > before;
                } else if (!strcmp(type, "error")) {
                    /* A refused move (the rate limit, with few fast clients): retry it later. */
                    if (errors++ < 5)
                        fprintf(stderr, "load: client %d: %s\n", i,
                                cJSON_GetStringValue(cJSON_GetObjectItem(j, "message")));
                    if (cl[i].pending[0]) cl[i].due_ns = now_ns() + 200000000ull;
                }
                cJSON_Delete(j);
            }
        }
    }
    double srv1 = cpu_ms("LOAD_CPU_PIDS"), db1 = cpu_ms("LOAD_CPU_DB_PIDS");
    double span = (double)(now_ns() - measure_from) * 1e-9;
    for (int i = 0; i < n; i++) ws_close(&cl[i].c);
    if (!nlat) {
        fprintf(stderr, "load: no move was measured\n");
        return 1;
    }
    qsort(lat, nlat, sizeof *lat, cmp_u64);
    double p50 = (double)lat[nlat / 2] * 1e-6, p99 = (double)lat[nlat * 99 / 100] * 1e-6;
    double mx = (double)lat[nlat - 1] * 1e-6;
    printf("load: %d clients (%d rooms), think %.0f ms, %.1f s: %ld moves, %.0f moves/s, round trip p50 %.2f ms, "
           "p99 %.2f ms, max %.2f ms; %ld games finished, %ld errors\n",
           n, n / 2, (double)think_ns * 1e-6, span, moves_measured, (double)moves_measured / span, p50, p99, mx, games, errors);
    if (srv0 >= 0 && moves_measured) {
        printf("load: cpu over the measured %.1f s: servers %.0f ms (%.3f ms per move)", span,
               srv1 - srv0, (srv1 - srv0) / (double)moves_measured);
        if (db0 >= 0)
            printf(", database %.0f ms (%.3f ms per move)", db1 - db0,
                   (db1 - db0) / (double)moves_measured);
        printf("\n");
    }
    free(lat);
    free(cl);
    free(pf);
    return 0;
}
