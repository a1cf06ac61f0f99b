/*
 * `renversi serve` under hostile clients, through real sockets (docs/protocol-web.md,
 * "Limits"): clients that never read (memory measured from /proc; a dropped one leaves no
 * socket behind, from /proc/net/tcp), the compact replay,
 * the Origin check, invalid UTF-8, and descriptor exhaustion (CPU time and log lines
 * measured). The server runs in a child process.
 */
#define _GNU_SOURCE /* prlimit: the test limits the running server's file size */
#include "renversi/core.h"
#include "server/store.h"
#include "server_harness.h"
#include "test.h"

#include <sys/stat.h>

static char db_path[256], web_dir[256], err_path[256];
static int sanitized;

/* A 26x26 freestyle game that fills the board with no five: the stone at (x, y) is black
   when x/2 + y is even (no run is longer than two in any direction). */
#define BIG 26
static int64_t store_big_game(const char *path) {
    char err[256];
    rv_store *st = rv_store_open(path, err, sizeof err);
    CHECK_MSG(st != NULL, "store: %s", err);
    if (!st) return -1;
    int64_t id = rv_store_new_game(st, "0123456789", "freestyle", BIG, "human", "human");
    int bx[BIG * BIG], by[BIG * BIG], wx[BIG * BIG], wy[BIG * BIG], nb = 0, nw = 0;
    for (int y = 0; y < BIG; y++)
        for (int x = 0; x < BIG; x++) {
            if ((x / 2 + y) % 2 == 0) bx[nb] = x, by[nb++] = y;
            else wx[nw] = x, wy[nw++] = y;
        }
    CHECK(nb == nw && nb == BIG * BIG / 2);
    static char text[BIG * BIG][8];
    const char *moves[BIG * BIG];
    for (int i = 0; i < BIG * BIG; i++) {
        int x = i % 2 ? wx[i / 2] : bx[i / 2], y = i % 2 ? wy[i / 2] : by[i / 2];
        /* Gomoku notation: column letter, row counted from the bottom. */
        snprintf(text[i], sizeof text[i], "%c%d", 'a' + x, (BIG - y) % 100);
        moves[i] = text[i];
    }
    rv_store_change ch = {.game = id, .version = 0, .keep = 0, .moves = moves, .n = BIG * BIG,
                          .result = ""};
    int64_t version;
    CHECK(rv_store_commit(st, &ch, &version) == RV_STORE_OK);
    rv_store_close(st);
    return id;
}

static int port;
static pid_t pid;

static void open_ok(ws_conn *c) {
    int ok = ws_open(c, port, "/ws", "") == 0;
    CHECK_MSG(ok, "cannot connect to port %d", port);
}

/* A client that reads slowly: a receive buffer of RCVBUF bytes (the kernel doubles it) from
   the start. */
static void open_rcvbuf(ws_conn *c, int rcvbuf) {
    int ok = ws_open_rcvbuf(c, port, "/ws", "", rcvbuf) == 0;
    CHECK_MSG(ok, "cannot connect to port %d", port);
}

static void open_small(ws_conn *c) { open_rcvbuf(c, 2048); }

static int alive(ws_conn *c) {
    ws_send_text(c, "{\"type\":\"ping\",\"id\":7}");
    cJSON *p = harness_recv_type(c, "pong", 5000);
    int ok = p != NULL;
    cJSON_Delete(p);
    return ok;
}

/* Replay: the start and one short step per ply instead of every position. */
static void test_replay_compact(int64_t id) {
    ws_conn c;
    open_ok(&c);
    char m[96];
    snprintf(m, sizeof m, "{\"type\":\"replay\",\"id\":%lld}", (long long)id);
    ws_send_text(&c, m);
    char *raw = NULL;
    int r = 0;
    for (int i = 0; i < 5; i++) {
        r = ws_recv(&c, &raw, 5000);
        if (r <= 0 || strstr(raw, "\"replay\"")) break;
        free(raw);
        raw = NULL;
    }
    CHECK(r == 1 && raw);
    if (!raw) return;
    size_t bytes = strlen(raw);
    /* Every position would be 677 * 676 bytes (458 kB); the steps take a few per ply. */
    CHECK_MSG(bytes < 40000, "replay of %d moves is %zu bytes", BIG * BIG, bytes);
    cJSON *x = cJSON_Parse(raw);
    free(raw);
    cJSON *steps = cJSON_GetObjectItem(x, "steps");
    CHECK_EQ_INT(cJSON_GetArraySize(steps), BIG * BIG);
    CHECK(cJSON_GetObjectItem(x, "room") == NULL);
    /* Applying the steps to the start gives the final board the server sends. */
    char b[BIG * BIG + 1];
    snprintf(b, sizeof b, "%s", harness_str(x, "start"));
    CHECK_EQ_INT(strlen(b), BIG * BIG);
    for (int i = 0; i < cJSON_GetArraySize(steps); i++) {
        const char *s = cJSON_GetArrayItem(steps, i)->valuestring;
        CHECK(s[0] == (i % 2 ? 'O' : 'X') && strlen(s) == 3);
        for (size_t k = 1; k + 1 < strlen(s); k += 2) b[(s[k + 1] - 'a') * BIG + (s[k] - 'a')] = s[0];
    }
    CHECK_EQ_STR(b, harness_str(x, "board"));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(x, "over")));
    cJSON_Delete(x);
    ws_close(&c);
}

/* Item 1 of issue 10: clients that ask and never read. */
static void test_slow_readers(int64_t big) {
    enum { REPLAYERS = 8, WATCHERS = 100 };
    ws_conn a, b;
    open_ok(&a);
    ws_send_text(&a, "{\"type\":\"create\",\"variant\":\"freestyle\",\"mode\":\"online\"}");
    cJSON *j = harness_recv_type(&a, "joined", 5000);
    char room[32];
    snprintf(room, sizeof room, "%s", harness_str(j, "room"));
    cJSON_Delete(j);
    open_ok(&b);
    char join[96];
    snprintf(join, sizeof join, "{\"type\":\"join\",\"room\":\"%s\"}", room);
    ws_send_text(&b, join);
    cJSON_Delete(harness_recv_type(&b, "joined", 5000));
    long rss0 = harness_rss_kb(pid), cpu0 = harness_cpu_ticks(pid);

    static ws_conn rp[REPLAYERS], wt[WATCHERS];
    char replay[96];
    snprintf(replay, sizeof replay, "{\"type\":\"replay\",\"id\":%lld}", (long long)big);
    for (int i = 0; i < REPLAYERS; i++) open_small(&rp[i]);
    for (int i = 0; i < WATCHERS; i++) open_small(&wt[i]);
    /* 5 s at the rate limit (20 messages/s each); the players play meanwhile (the flood waits
       while a player waits for its move's answer, and catches up after). */
    const char *moves[] = {"h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "b8", "a9"};
    int played = 0;
    double t0 = harness_now();
    for (int tick = 0; tick < 100; tick++) {
        for (int i = 0; i < REPLAYERS; i++) ws_send_text(&rp[i], replay);
        for (int i = 0; i < WATCHERS; i++) ws_send_text(&wt[i], join);
        if (tick % 10 == 5 && played < 10) {
            ws_conn *p = played % 2 ? &b : &a;
            char m[96];
            snprintf(m, sizeof m, "{\"type\":\"move\",\"move\":\"%s\"}", moves[played]);
            double s0 = harness_now();
            long c0 = harness_cpu_ticks(pid);
            ws_send_text(p, m);
            int got = 0;
            while (!got && harness_now() - s0 < 60) {
                cJSON *st = harness_recv_type(p, "state", (int)((s0 + 60 - harness_now()) * 1000) + 1);
                if (!st) break;
                got = cJSON_GetArraySize(cJSON_GetObjectItem(st, "moves")) == played + 1;
                cJSON_Delete(st);
            }
            double cpu = (double)(harness_cpu_ticks(pid) - c0) / (double)sysconf(_SC_CLK_TCK);
            fprintf(stderr, "move %d: %.0f ms, server CPU %.2f s\n", played + 1,
                    (harness_now() - s0) * 1000, cpu);
            CHECK_MSG(got, "move %d not acknowledged (60 s)", played + 1);
            if (!got) break; /* the next move would be out of turn */
            /* The flood does not starve the players: the server answers a move after little
               work for the others (a turn of its loop takes at most SRV_RATE_BURST of each
               client's messages; 0.02-0.13 s of CPU under the sanitizers with four copies of
               this test at load 12). Counted in the server's CPU time, not the wall clock's:
               a loaded machine gives the server a fraction of a core (2 s for 0.13 s). */
            CHECK_MSG(cpu < 1.0, "move %d: the server worked %.2f s for others first", played + 1, cpu);
            played++;
        }
        double next = t0 + (tick + 1) * 0.05;
        while (harness_now() < next) usleep(2000);
    }
    CHECK_EQ_INT(played, 10);
    long rss1 = harness_rss_kb(pid);
    fprintf(stderr, "slow readers: server RSS %ld kB before, %ld kB after; CPU %.2f s in %.2f s\n",
            rss0, rss1, (double)(harness_cpu_ticks(pid) - cpu0) / (double)sysconf(_SC_CLK_TCK),
            harness_now() - t0);
    if (!sanitized) CHECK_MSG(rss1 < 100 * 1024, "RSS %ld kB", rss1);
    /* The backlogs were dropped: every replayer's connection ends (after what it had). The
       server ended each when it dropped its backlog, during the 5 s or after them (a loaded
       server is behind its clients): the 60 s are a guard against a hang, not a measure. */
    int closed = 0;
    double end = harness_now() + 60;
    for (int i = 0; i < REPLAYERS; i++) {
        char *m;
        int r = 0;
        while (harness_now() < end &&
               (r = ws_recv(&rp[i], &m, (int)((end - harness_now()) * 1000) + 1)) == 1)
            free(m);
        closed += r < 0;
        ws_close(&rp[i]);
    }
    fprintf(stderr, "slow readers: the replayers' connections ended after %.2f s more\n",
            harness_now() - (end - 60));
    CHECK_EQ_INT(closed, REPLAYERS);
    for (int i = 0; i < WATCHERS; i++) ws_close(&wt[i]);
    CHECK(alive(&a) && alive(&b));
    ws_close(&a);
    ws_close(&b);
}

/* The kernel's state of the server's socket for the client connection C (the server on
   127.0.0.1:SPORT, from /proc/net/tcp): 1 established, 4 FIN-WAIT-1 (closed by the server,
   its FIN behind bytes the client has not taken), 5 FIN-WAIT-2 (closed, everything taken),
   ...; 0 when there is none. *UNSENT: the bytes it holds for the client. */
static int server_socket_state(int sport, const ws_conn *c, unsigned *unsent) {
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    *unsent = 0;
    if (getsockname(c->fd, (struct sockaddr *)&a, &len)) return -1;
    unsigned cport = ntohs(a.sin_port);
    FILE *f = fopen("/proc/net/tcp", "r");
    if (!f) return -1;
    char line[512];
    unsigned la, lp, ra, rp, st, tx, rx;
    int state = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, " %*d: %x:%x %x:%x %x %x:%x", &la, &lp, &ra, &rp, &st, &tx, &rx) == 7 &&
            lp == (unsigned)sport && rp == cport)
            state = (int)st, *unsent = tx;
    fclose(f);
    return state;
}

/* A client that asks for replays, then neither reads nor sends again: the server drops it,
   and once its 2 s linger is over keeps no socket for it with bytes the client has not
   taken. (Closed with them, the socket would stay in FIN-WAIT-1, probing the client's
   closed window, with the bytes, for as long as the client lives: the server resets it.) */
static void test_dropped_released(int64_t big) {
    ws_conn c;
    open_rcvbuf(&c, 2048);
    char replay[96];
    snprintf(replay, sizeof replay, "{\"type\":\"replay\",\"id\":%lld}", (long long)big);
    /* One replay first, until the server's socket holds what the client did not take (so
       that bytes are unsent when it is dropped), then 29 more at once: the backlog is over
       256 kB and the server drops the client. 60 s: guards against a hang (a loaded server
       answers late), not measures. */
    ws_send_text(&c, replay);
    double t0 = harness_now();
    unsigned unsent = 0;
    int st;
    while ((st = server_socket_state(port, &c, &unsent)) == 1 && unsent == 0 && harness_now() - t0 < 60)
        usleep(20 * 1000);
    CHECK_MSG(st == 1 && unsent > 0, "the first replay: state %d, %u bytes unsent", st, unsent);
    /* The 29 in one segment: the server reads them at once and queues their answers in one
       turn (it writes only after it), past 256 kB. */
    int one = 1, zero = 0;
    setsockopt(c.fd, IPPROTO_TCP, TCP_CORK, &one, sizeof one);
    for (int i = 0; i < 29; i++) ws_send_text(&c, replay);
    setsockopt(c.fd, IPPROTO_TCP, TCP_CORK, &zero, sizeof zero);
    t0 = harness_now();
    while (((st = server_socket_state(port, &c, &unsent)) == 1 || st == 4) && harness_now() - t0 < 60)
        usleep(100 * 1000);
    fprintf(stderr, "dropped client: the server's socket gone (state %d) %.2f s after the requests\n",
            st, harness_now() - t0);
    CHECK_MSG(st == 0, "the server's socket of a dropped client: state %d, %u bytes unsent", st, unsent);
    ws_close(&c);
}

static void test_origin(void) {
    char good[128];
    snprintf(good, sizeof good, "Origin: http://127.0.0.1:%d\r\n", port);
    ws_conn c;
    CHECK_MSG(ws_open(&c, port, "/ws", "Origin: http://evil.example\r\n") != 0,
              "a page from another site opened the WebSocket");
    ws_close(&c);
    CHECK(ws_open(&c, port, "/ws", "Origin: null\r\n") != 0);
    ws_close(&c);
    CHECK(ws_open(&c, port, "/ws", good) == 0 && alive(&c));
    ws_close(&c);
    /* --origin: the listed origins only (the page may be served by a proxy elsewhere). */
    harness_opts ho = {.db = ":memory:", .web = web_dir, .origin = "https://games.example.org, http://localhost:9"};
    int p2;
    pid_t other = harness_start(&ho, &p2);
    CHECK(other > 0 && p2 > 0);
    CHECK(ws_open(&c, p2, "/ws", "Origin: https://games.example.org\r\n") == 0 && alive(&c));
    ws_close(&c);
    CHECK(ws_open(&c, p2, "/ws", "Origin: http://localhost:9\r\n") == 0);
    ws_close(&c);
    snprintf(good, sizeof good, "Origin: http://127.0.0.1:%d\r\n", p2);
    CHECK(ws_open(&c, p2, "/ws", good) != 0);
    ws_close(&c);
    CHECK(ws_open(&c, p2, "/ws", "Origin: https://games.example.org.evil\r\n") != 0);
    ws_close(&c);
    CHECK_EQ_INT(harness_stop(other, SIGTERM), 0);
}

/* Item 7: invalid UTF-8 is bad_json and the connection lives on (as the doc says). */
static void test_utf8(void) {
    ws_conn c;
    open_ok(&c);
    const char *bad[] = {"{\"type\":\"ping\",\"id\":\"\xff\"}", "{\"type\":\"ping\",\"id\":\"\xc0\xaf\"}",
                         "{\"type\":\"ping\",\"id\":\"\xed\xa0\x80\"}", "{\"type\":\"ping\",\"id\":\"\xe2\x82\"}",
                         "{\"type\":\"ping\",\"id\":\"\xf4\x90\x80\x80\"}"};
    for (int i = 0; i < 5; i++) {
        ws_send_text(&c, bad[i]);
        cJSON *e = harness_recv_type(&c, "error", 3000);
        CHECK_MSG(e && !strcmp(harness_str(e, "code"), "bad_json"), "invalid UTF-8 #%d: %s", i,
                  e ? harness_str(e, "code") : "(nothing)");
        cJSON_Delete(e);
    }
    /* Valid multi-byte text goes through: e-acute, a CJK character, an emoji. */
    ws_send_text(&c, "{\"type\":\"ping\",\"id\":\"\xc3\xa9\xe6\xa3\x8b\xf0\x9f\x8e\xb2\"}");
    cJSON *p = harness_recv_type(&c, "pong", 3000);
    CHECK(p && !strcmp(harness_str(p, "id"), "\xc3\xa9\xe6\xa3\x8b\xf0\x9f\x8e\xb2"));
    cJSON_Delete(p);
    CHECK(alive(&c));
    ws_close(&c);
}

/* Creates a room and returns the connection's first state (NULL on failure). */
static cJSON *create_room(ws_conn *c, const char *json) {
    open_ok(c);
    ws_send_text(c, json);
    cJSON_Delete(harness_recv_type(c, "joined", 5000));
    return harness_recv_type(c, "state", 5000);
}

static int nmoves_of(const cJSON *st) { return cJSON_GetArraySize(cJSON_GetObjectItem(st, "moves")); }

/* Plays the first legal Reversi move and waits for the computer's answer (up to
   timeout_s). Returns the seconds it took, or -1. */
static double reversi_turn(ws_conn *c, cJSON **state, double timeout_s) {
    cJSON *legal = cJSON_GetObjectItem(*state, "legal");
    if (cJSON_GetArraySize(legal) < 1) return -1;
    cJSON *pt = cJSON_GetArrayItem(legal, 0);
    int n = nmoves_of(*state);
    char m[96];
    snprintf(m, sizeof m, "{\"type\":\"move\",\"x\":%d,\"y\":%d}", cJSON_GetArrayItem(pt, 0)->valueint,
             cJSON_GetArrayItem(pt, 1)->valueint);
    double t0 = harness_now();
    ws_send_text(c, m);
    while (harness_now() - t0 < timeout_s) {
        cJSON *st = harness_recv_type(c, "state", (int)((timeout_s - (harness_now() - t0)) * 1000) + 1);
        if (!st) break;
        /* My move and the computer's (a pass counts as one). */
        if (nmoves_of(st) >= n + 2 && !strcmp(harness_str(st, "to_move"), "black")) {
            cJSON_Delete(*state);
            *state = st;
            return harness_now() - t0;
        }
        cJSON_Delete(st);
    }
    return -1;
}

/* Item 2: attackers create strong AI rooms as fast as the rate limit allows; a player's own
   game against the computer still gets its answers, and nothing thinks after they leave. */
static void test_ai_flood(void) {
    enum { ATTACKERS = 3, CREATES = 100 };
    ws_conn v;
    cJSON *st = create_room(&v, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"ai\",\"level\":3}");
    CHECK(st != NULL);
    if (!st) return;
    static ws_conn att[ATTACKERS];
    for (int i = 0; i < ATTACKERS; i++) open_rcvbuf(&att[i], 4096);
    /* A room at the strongest level and a move in it: the computer has to think. */
    const char *mk = "{\"type\":\"create\",\"variant\":\"renju\",\"mode\":\"ai\",\"level\":20}";
    const char *mv = "{\"type\":\"move\",\"move\":\"h8\"}";
    double worst = 0;
    int turns = 0;
    for (int k = 0; k < CREATES; k++) {
        double t0 = harness_now();
        for (int i = 0; i < ATTACKERS; i++) ws_send_text(&att[i], k % 2 ? mv : mk);
        if (k % 20 == 10) {
            double w = reversi_turn(&v, &st, 20.0);
            CHECK_MSG(w >= 0, "the computer did not answer within 20 s under attack");
            if (w < 0) break;
            if (w > worst) worst = w;
            turns++;
        }
        while (harness_now() - t0 < 0.05) usleep(2000);
    }
    fprintf(stderr, "ai flood: %d answers, the slowest in %.2f s\n", turns, worst);
    CHECK_EQ_INT(turns, 5);
    for (int i = 0; i < ATTACKERS; i++) ws_close(&att[i]);
    /* The attackers' rooms are empty now: their jobs are withdrawn, nothing thinks on. */
    usleep(500 * 1000);
    long c0 = harness_cpu_ticks(pid);
    sleep(2);
    long c1 = harness_cpu_ticks(pid);
    fprintf(stderr, "ai flood: %ld ticks of CPU in the 2 s after the attackers left\n", c1 - c0);
    CHECK_MSG(c1 - c0 < sysconf(_SC_CLK_TCK) / 2, "the server thought on for rooms nobody is in");
    /* The player's game goes on. */
    CHECK(reversi_turn(&v, &st, 20.0) >= 0);
    cJSON_Delete(st);
    ws_close(&v);
}

/* Item 4: the computer's move cannot be stored (a file size limit stands in for a full
   disk): the player hears of it, and once the disk has room the computer moves. */
static void test_ai_commit_fails(void) {
    char db[300], wal[310];
    snprintf(db, sizeof db, "%s.full", db_path);
    snprintf(wal, sizeof wal, "%s-wal", db);
    harness_opts ho = {.db = db, .web = web_dir, .errfile = err_path};
    int p2, saved = port;
    pid_t child = harness_start(&ho, &p2);
    CHECK(child > 0 && p2 > 0);
    if (p2 <= 0) return;
    port = p2;
    ws_conn v;
    cJSON *st = create_room(&v, "{\"type\":\"create\",\"variant\":\"reversi\",\"mode\":\"ai\",\"level\":20}");
    CHECK(st != NULL);
    /* From now on the server cannot make its files any longer. */
    struct stat sb;
    off_t cap = stat(wal, &sb) == 0 ? sb.st_size : 0;
    if (stat(db, &sb) == 0 && sb.st_size > cap) cap = sb.st_size;
    /* My move goes in over the cap's edge? No: the first move is written before the cap,
       by playing it now and capping while the computer thinks (level 20 takes its time). */
    ws_send_text(&v, "{\"type\":\"move\",\"move\":\"f5\"}");
    cJSON *mine = NULL;
    while ((mine = harness_recv_type(&v, "state", 5000)) && nmoves_of(mine) < 1) cJSON_Delete(mine);
    CHECK(mine && nmoves_of(mine) == 1 && cJSON_IsTrue(cJSON_GetObjectItem(mine, "thinking")));
    cJSON_Delete(mine);
    cap = stat(wal, &sb) == 0 ? sb.st_size : 0;
    struct rlimit rl = {(rlim_t)cap, RLIM_INFINITY};
    CHECK(prlimit(child, RLIMIT_FSIZE, &rl, NULL) == 0);
    cJSON *e = harness_recv_type(&v, "error", 15000);
    CHECK_MSG(e && !strcmp(harness_str(e, "code"), "store_failed"), "no error for the lost move: %s",
              e ? harness_str(e, "code") : "(nothing)");
    cJSON_Delete(e);
    /* Room again on the disk: the computer's move arrives, and the game goes on. */
    rl.rlim_cur = RLIM_INFINITY;
    CHECK(prlimit(child, RLIMIT_FSIZE, &rl, NULL) == 0);
    int moved = 0;
    double t0 = harness_now();
    while (!moved && harness_now() - t0 < 20) {
        cJSON *s2 = harness_recv_type(&v, "state", 20000);
        if (!s2) break;
        moved = nmoves_of(s2) == 2 && !cJSON_IsTrue(cJSON_GetObjectItem(s2, "thinking"));
        if (moved) {
            cJSON_Delete(st);
            st = s2;
        } else {
            cJSON_Delete(s2);
        }
    }
    CHECK_MSG(moved, "the computer never moved after the disk had room again");
    if (moved) CHECK(reversi_turn(&v, &st, 20.0) >= 0);
    cJSON_Delete(st);
    ws_close(&v);
    CHECK_EQ_INT(harness_stop(child, SIGTERM), 0);
    /* The stored game has both moves, and more. */
    char err[256];
    rv_store *sto = rv_store_open(db, err, sizeof err);
    rv_store_game hdr;
    char **mv;
    int n = 0;
    CHECK(sto && rv_store_load_game(sto, 1, &hdr, &mv, &n) == RV_STORE_OK && n >= 4);
    if (sto && n) rv_store_free_moves(mv, n);
    rv_store_close(sto);
    port = saved;
    unlink(db);
    unlink(wal);
}

/* Item 6: the store refuses an empty path and a damaged file at start-up. */
static void test_store_checks(void) {
    char err[512] = "";
    CHECK(rv_store_open("", err, sizeof err) == NULL && strstr(err, "--db"));
    char bad[300];
    snprintf(bad, sizeof bad, "%s.damaged", db_path);
    for (int i = 0; i < 3; i++) store_big_game(bad);
    /* Garbage over a page in the middle of the moves table. */
    int fd = open(bad, O_RDWR);
    off_t size = lseek(fd, 0, SEEK_END);
    CHECK_MSG(size >= 8 * 4096, "the test database has only %lld bytes", (long long)size);
    char junk[4096];
    memset(junk, 0x5a, sizeof junk);
    CHECK(pwrite(fd, junk, sizeof junk, (size / 4096 / 2) * 4096) == (ssize_t)sizeof junk);
    close(fd);
    err[0] = 0;
    rv_store *st = rv_store_open(bad, err, sizeof err);
    CHECK_MSG(st == NULL && strstr(err, "damaged"), "a damaged database opened (%s)", err);
    rv_store_close(st);
    /* The server does not start on it: exit code 2, no port. */
    harness_opts ho = {.db = bad, .web = web_dir, .errfile = err_path};
    int p2;
    pid_t child = harness_start(&ho, &p2);
    CHECK_EQ_INT(p2, 0);
    int st2;
    waitpid(child, &st2, 0);
    CHECK(WIFEXITED(st2) && WEXITSTATUS(st2) == 2);
    unlink(bad);
}

/* Item 5: more connections than descriptors. The server must not spin or flood its log. */
static void test_fd_exhaustion(void) {
    enum { FLOOD = 150 };
    harness_opts ho = {.db = ":memory:", .web = web_dir, .nofile = 64, .errfile = err_path};
    int p2;
    pid_t lim = harness_start(&ho, &p2);
    CHECK(lim > 0 && p2 > 0);
    if (p2 <= 0) return;
    ws_conn honest;
    CHECK(ws_open(&honest, p2, "/ws", "") == 0);
    static int fds[FLOOD];
    for (int i = 0; i < FLOOD; i++) fds[i] = harness_tcp(p2);
    usleep(300 * 1000);
    long cpu0 = harness_cpu_ticks(lim);
    sleep(3);
    long cpu1 = harness_cpu_ticks(lim);
    long hz = sysconf(_SC_CLK_TCK);
    fprintf(stderr, "fd exhaustion: %ld ticks of CPU in 3 s (%ld per second)\n", cpu1 - cpu0, hz);
    CHECK_MSG(cpu1 - cpu0 < hz / 2, "the server used %ld ticks of CPU in 3 s", cpu1 - cpu0);
    CHECK(alive(&honest));
    for (int i = 0; i < FLOOD; i++)
        if (fds[i] >= 0) close(fds[i]);
    /* Room again: a new client gets in. */
    ws_conn later;
    int ok = 0;
    for (int i = 0; i < 20 && !ok; i++) {
        ok = ws_open(&later, p2, "/ws", "") == 0;
        if (!ok) usleep(250 * 1000);
    }
    CHECK(ok && alive(&later));
    ws_close(&later);
    ws_close(&honest);
    CHECK_EQ_INT(harness_stop(lim, SIGTERM), 0);
    FILE *f = fopen(err_path, "r");
    int lines = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        lines++;
        if (lines == 1) fprintf(stderr, "fd exhaustion: the server said: %s", line);
    }
    if (f) fclose(f);
    CHECK_MSG(lines >= 1 && lines <= 3, "%d log lines", lines);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    sanitized = getenv("RV_SANITIZED") != NULL;
    snprintf(db_path, sizeof db_path, "/tmp/renversi-test-limits-%d.db", (int)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/renversi-test-limits-%d.err", (int)getpid());
#ifdef RV_WEB_DIR
    snprintf(web_dir, sizeof web_dir, "%s", RV_WEB_DIR);
#endif
    test_store_checks();
    int64_t big = store_big_game(db_path);
    harness_opts ho = {.db = db_path, .web = web_dir};
    pid = harness_start(&ho, &port);
    CHECK(pid > 0 && port > 0);
    if (port > 0) {
        test_replay_compact(big);
        test_utf8();
        test_origin();
        test_slow_readers(big);
        test_dropped_released(big);
        test_ai_flood();
        test_ai_commit_fails();
        CHECK_EQ_INT(harness_stop(pid, SIGTERM), 0);
        test_fd_exhaustion();
    }
    char p[300];
    unlink(db_path);
    unlink(err_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return test_finish();
}
