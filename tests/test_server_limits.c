/*
 * `renversi serve` under hostile clients, through real sockets (docs/protocol-web.md,
 * "Limits"): clients that never read (memory measured from /proc), the compact replay,
 * the Origin check, invalid UTF-8, and descriptor exhaustion (CPU time and log lines
 * measured). The server runs in a child process.
 */
#include "renversi/core.h"
#include "server/store.h"
#include "server_harness.h"
#include "test.h"

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
    long rss0 = harness_rss_kb(pid);

    static ws_conn rp[REPLAYERS], wt[WATCHERS];
    char replay[96];
    snprintf(replay, sizeof replay, "{\"type\":\"replay\",\"id\":%lld}", (long long)big);
    int small = 2048;
    for (int i = 0; i < REPLAYERS; i++) {
        open_ok(&rp[i]);
        setsockopt(rp[i].fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    }
    for (int i = 0; i < WATCHERS; i++) {
        open_ok(&wt[i]);
        setsockopt(wt[i].fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    }
    /* 5 s at the rate limit (20 messages/s each); the players play meanwhile. */
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
            ws_send_text(p, m);
            int got = 0;
            while (!got && harness_now() - s0 < 3.0) {
                cJSON *st = harness_recv_type(p, "state", 3000);
                if (!st) break;
                got = cJSON_GetArraySize(cJSON_GetObjectItem(st, "moves")) == played + 1;
                cJSON_Delete(st);
            }
            CHECK_MSG(got, "move %d not acknowledged within 3 s", played + 1);
            fprintf(stderr, "move %d: %.0f ms\n", played + 1, (harness_now() - s0) * 1000);
            played++;
        }
        double next = t0 + (tick + 1) * 0.05;
        while (harness_now() < next) usleep(2000);
    }
    CHECK_EQ_INT(played, 10);
    long rss1 = harness_rss_kb(pid);
    fprintf(stderr, "slow readers: server RSS %ld kB before, %ld kB after\n", rss0, rss1);
    if (!sanitized) CHECK_MSG(rss1 < 100 * 1024, "RSS %ld kB", rss1);
    /* The backlogs were dropped: every replayer's connection ends (after what it had). */
    int closed = 0;
    for (int i = 0; i < REPLAYERS; i++) {
        char *m;
        int r;
        double s0 = harness_now();
        while ((r = ws_recv(&rp[i], &m, 2000)) == 1 && harness_now() - s0 < 10) free(m);
        closed += r < 0;
        ws_close(&rp[i]);
    }
    CHECK_EQ_INT(closed, REPLAYERS);
    for (int i = 0; i < WATCHERS; i++) ws_close(&wt[i]);
    CHECK(alive(&a) && alive(&b));
    ws_close(&a);
    ws_close(&b);
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
