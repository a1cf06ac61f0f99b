/*
 * RFC 6455 section 5.1 through real sockets: a server must close the connection on a client
 * frame that is not masked (with a Close frame of status 1002, which renversi sends), wherever
 * the frame comes: first, after good frames, in the same write as good ones, in the same
 * write as the handshake, as a control frame, as a continuation, its header split across
 * writes. Masked frames split anywhere keep working, and so does plain HTTP keep-alive.
 * The frames are written by hand here (tests/ws_client.h masks every frame it sends).
 */
#include "server_harness.h"
#include "test.h"

static int port;
static char web_dir[256];

/* A frame: first byte (FIN, opcode), then the length, the mask key if `masked`, the payload. */
static size_t frame(uint8_t *f, int first, int masked, const void *data, size_t len) {
    static const uint8_t key[4] = {0x37, 0xfa, 0x21, 0x3d};
    size_t k = 0;
    f[k++] = (uint8_t)first;
    uint8_t m = masked ? 0x80 : 0;
    if (len < 126) {
        f[k++] = (uint8_t)(m | len);
    } else {
        f[k++] = m | 126;
        f[k++] = (uint8_t)(len >> 8);
        f[k++] = (uint8_t)len;
    }
    if (masked) memcpy(f + k, key, 4), k += 4;
    const uint8_t *d = data;
    for (size_t i = 0; i < len; i++) f[k + i] = masked ? d[i] ^ key[i & 3] : d[i];
    return k + len;
}

static size_t text(uint8_t *f, int masked, const char *s) {
    return frame(f, 0x81, masked, s, strlen(s));
}

static void put(ws_conn *c, const void *p, size_t n) { CHECK(ws_write_all(c->fd, p, n) == 0); }

/* How long the test waits for the server to answer or to close: a guard against a hang, not
   a measure (a loaded machine gives the server a fraction of a core). */
#define WAIT_MS 30000

/* What the server sent until it closed the connection, sent `pongs` Pong frames (0: no
   such stop), or `ms` passed. */
typedef struct ending {
    int texts;       /* text messages */
    int others;      /* text messages other than a pong with the id `allowed` */
    int pongs;       /* Pong control frames */
    int close_code;  /* the status of its Close frame, -1: none */
    int closed;      /* the connection ended */
} ending;

static ending read_to_end(ws_conn *c, int ms, const char *allowed, int pongs) {
    ending e = {0, 0, 0, -1, 0};
    double end = harness_now() + ms / 1000.0;
    for (;;) {
        while (c->inlen >= 2) {
            const uint8_t *b = c->in;
            size_t hl = 2, len = b[1] & 127;
            if (len == 126) {
                if (c->inlen < 4) break;
                len = (size_t)b[2] << 8 | b[3];
                hl = 4;
            }
            CHECK_MSG(len < 127 || hl == 4, "a server frame over 64 kB");
            if (c->inlen < hl + len) break;
            int op = b[0] & 15;
            if (op == 1) {
                char body[512];
                snprintf(body, sizeof body, "%.*s", (int)len, (const char *)b + hl);
                cJSON *j = cJSON_Parse(body);
                e.texts++;
                e.others += !allowed || strcmp(harness_str(j, "type"), "pong") ||
                            strcmp(harness_str(j, "id"), allowed);
                cJSON_Delete(j);
            }
            if (op == 10) e.pongs++;
            if (op == 8) e.close_code = len >= 2 ? b[hl] << 8 | b[hl + 1] : 1005;
            memmove(c->in, c->in + hl + len, c->inlen - hl - len);
            c->inlen -= hl + len;
        }
        if (e.closed || (pongs && e.pongs >= pongs)) return e;
        int left = (int)((end - harness_now()) * 1000);
        if (left <= 0) return e;
        struct pollfd pf = {c->fd, POLLIN, 0};
        if (poll(&pf, 1, left) > 0 && ws_fill(c)) e.closed = 1;
    }
}

/* The server refused the connection as RFC 6455 says: Close 1002, then the end, and no
   answer to the frame or anything after it (only, perhaps, to the frame `allowed` before). */
static void check_refused(ws_conn *c, const char *allowed, const char *what) {
    ending e = read_to_end(c, WAIT_MS, allowed, 0);
    CHECK_MSG(e.closed, "%s: the connection is still open", what);
    CHECK_MSG(e.close_code == 1002, "%s: close status %d, expected 1002", what, e.close_code);
    CHECK_MSG(e.others == 0, "%s: %d answers after the refused frame", what, e.others);
}

static int got_pong(ws_conn *c, const char *id) {
    cJSON *p = harness_recv_type(c, "pong", WAIT_MS);
    int ok = p && !strcmp(harness_str(p, "id"), id);
    cJSON_Delete(p);
    return ok;
}

static void open_ok(ws_conn *c) {
    int ok = ws_open(c, port, "/ws", "") == 0;
    CHECK_MSG(ok, "cannot connect to port %d", port);
}

static void test_unmasked_first(void) {
    ws_conn c;
    open_ok(&c);
    uint8_t f[64];
    put(&c, f, text(f, 0, "{\"type\":\"ping\",\"id\":\"1\"}"));
    check_refused(&c, NULL, "an unmasked first frame");
    ws_close(&c);
}

static void test_after_masked(void) {
    ws_conn c;
    open_ok(&c);
    uint8_t f[64];
    put(&c, f, text(f, 1, "{\"type\":\"ping\",\"id\":\"a\"}"));
    CHECK(got_pong(&c, "a"));
    put(&c, f, text(f, 1, "{\"type\":\"ping\",\"id\":\"b\"}"));
    CHECK(got_pong(&c, "b"));
    put(&c, f, text(f, 0, "{\"type\":\"ping\",\"id\":\"c\"}"));
    check_refused(&c, NULL, "an unmasked frame after masked ones");
    ws_close(&c);
}

/* Three frames in one write, the middle one unmasked: 1002, no answer to it or the third. */
static void test_back_to_back(void) {
    ws_conn c;
    open_ok(&c);
    uint8_t f[256];
    size_t n = text(f, 1, "{\"type\":\"ping\",\"id\":\"x\"}");
    n += text(f + n, 0, "{\"type\":\"ping\",\"id\":\"y\"}");
    n += text(f + n, 1, "{\"type\":\"ping\",\"id\":\"z\"}");
    put(&c, f, n);
    /* "x" went to libwebsockets before "y" was seen: its answer may come or not (the
       connection ends at once); "y" and "z" must get none. */
    check_refused(&c, "x", "an unmasked frame between two masked ones in one write");
    ws_close(&c);
}

/* A masked frame with a 16-bit length written in seven pieces still works; an unmasked one
   whose header comes a byte at a time is refused. */
static void test_split(void) {
    ws_conn c;
    open_ok(&c);
    char msg[400], id[320];
    memset(id, 'q', 300);
    id[300] = 0;
    snprintf(msg, sizeof msg, "{\"type\":\"ping\",\"id\":\"%s\"}", id);
    uint8_t f[512];
    size_t n = text(f, 1, msg);
    CHECK(n > 300 && f[1] == (0x80 | 126));
    size_t cuts[] = {1, 2, 3, 5, 8, 100, 250, n};
    size_t at = 0;
    for (int i = 0; i < 8; i++) {
        put(&c, f + at, cuts[i] - at);
        at = cuts[i];
        usleep(20 * 1000);
    }
    CHECK_MSG(got_pong(&c, id), "a masked frame split in pieces");
    n = text(f, 0, "{\"type\":\"ping\",\"id\":\"s\"}");
    put(&c, f, 1);
    usleep(50 * 1000);
    put(&c, f + 1, 1);
    usleep(50 * 1000);
    put(&c, f + 2, n - 2);
    check_refused(&c, NULL, "an unmasked frame whose header came a byte at a time");
    ws_close(&c);
}

/* Control frames: a masked Ping gets its Pong; an unmasked Ping is refused. */
static void test_control(void) {
    ws_conn c;
    open_ok(&c);
    uint8_t f[64];
    put(&c, f, frame(f, 0x89, 1, "abc", 3));
    /* Its Pong, whenever the server gets to it (not within a time: under load it may take
       seconds), and the connection open. */
    ending e = read_to_end(&c, WAIT_MS, NULL, 1);
    CHECK_MSG(e.pongs == 1 && !e.closed && e.texts == 0, "a masked Ping: %d pongs, %d texts, closed %d",
              e.pongs, e.texts, e.closed);
    put(&c, f, frame(f, 0x89, 0, "abc", 3));
    check_refused(&c, NULL, "an unmasked Ping");
    ws_close(&c);
}

/* A message in two fragments works; an unmasked continuation is refused. */
static void test_fragments(void) {
    ws_conn c;
    open_ok(&c);
    uint8_t f[128];
    const char *a = "{\"type\":\"pi", *b = "ng\",\"id\":\"f\"}";
    size_t n = frame(f, 0x01, 1, a, strlen(a));
    n += frame(f + n, 0x80, 1, b, strlen(b));
    put(&c, f, n);
    CHECK_MSG(got_pong(&c, "f"), "a message in two masked fragments");
    n = frame(f, 0x01, 1, a, strlen(a));
    n += frame(f + n, 0x80, 0, b, strlen(b));
    put(&c, f, n);
    check_refused(&c, NULL, "an unmasked continuation");
    ws_close(&c);
}

/* A length of 2^63 or more (RFC 6455 5.2: the top bit must be 0) is refused the same way. */
static void test_huge_length(void) {
    ws_conn c;
    open_ok(&c);
    uint8_t f[14] = {0x81, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4};
    put(&c, f, sizeof f);
    check_refused(&c, NULL, "a 64-bit length with its top bit set");
    ws_close(&c);
}

/* The handshake and a frame in one write: held until the upgrade, then checked. */
static void test_with_handshake(void) {
    for (int masked = 1; masked >= 0; masked--) {
        ws_conn c;
        memset(&c, 0, sizeof c);
        c.fd = harness_tcp(port);
        struct pollfd pf = {c.fd, POLLOUT, 0};
        CHECK(c.fd >= 0 && poll(&pf, 1, 5000) == 1);
        char req[512];
        int n = snprintf(req, sizeof req,
                         "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n",
                         port);
        uint8_t buf[600];
        memcpy(buf, req, (size_t)n);
        size_t len = (size_t)n + text(buf + n, masked, "{\"type\":\"ping\",\"id\":\"h\"}");
        put(&c, buf, len);
        /* The answer's head, then frames. */
        char head[1024];
        size_t h = 0;
        while (h + 1 < sizeof head) {
            struct pollfd pi = {c.fd, POLLIN, 0};
            if (poll(&pi, 1, 5000) <= 0 || recv(c.fd, head + h, 1, 0) != 1) break;
            h++;
            if (h >= 4 && !memcmp(head + h - 4, "\r\n\r\n", 4)) break;
        }
        head[h] = 0;
        CHECK_MSG(!strncmp(head, "HTTP/1.1 101", 12), "handshake answer: %.40s", head);
        if (masked) CHECK_MSG(got_pong(&c, "h"), "a masked frame in the handshake's write");
        else check_refused(&c, NULL, "an unmasked frame in the handshake's write");
        ws_close(&c);
    }
}

/* HTTP keep-alive through the check: two requests on one connection, the first with a header
   that starts like Upgrade (browsers send Upgrade-Insecure-Requests with every page). */
static void test_http_keepalive(void) {
    int fd = harness_tcp(port);
    struct pollfd pf = {fd, POLLOUT, 0};
    CHECK(fd >= 0 && poll(&pf, 1, 5000) == 1);
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade-Insecure-Requests: 1\r\n\r\n"
                     "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n",
                     port, port);
    CHECK(ws_write_all(fd, req, (size_t)n) == 0);
    char got[8192];
    size_t len = 0;
    int oks = 0;
    double end = harness_now() + WAIT_MS / 1000.0;
    while (oks < 2 && harness_now() < end && len + 1 < sizeof got) {
        struct pollfd pi = {fd, POLLIN, 0};
        if (poll(&pi, 1, 500) <= 0) continue;
        ssize_t k = recv(fd, got + len, sizeof got - 1 - len, 0);
        if (k <= 0) break;
        len += (size_t)k;
        got[len] = 0;
        oks = 0;
        for (const char *p = got; (p = strstr(p, "HTTP/1.1 200")); p++) oks++;
    }
    CHECK_MSG(oks == 2, "%d of 2 keep-alive answers", oks);
    close(fd);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
#ifdef RV_WEB_DIR
    snprintf(web_dir, sizeof web_dir, "%s", RV_WEB_DIR);
#endif
    harness_opts ho = {.db = ":memory:", .web = web_dir};
    pid_t pid = harness_start(&ho, &port);
    CHECK(pid > 0 && port > 0);
    if (port > 0) {
        ws_conn honest;
        open_ok(&honest);
        test_unmasked_first();
        test_after_masked();
        test_back_to_back();
        test_split();
        test_control();
        test_fragments();
        test_huge_length();
        test_with_handshake();
        test_http_keepalive();
        /* A connection open through all of it is untouched. */
        ws_send_text(&honest, "{\"type\":\"ping\",\"id\":\"end\"}");
        CHECK(got_pong(&honest, "end"));
        fprintf(stderr, "server: RSS %ld kB, CPU %ld ticks\n", harness_rss_kb(pid),
                harness_cpu_ticks(pid));
        ws_close(&honest);
        CHECK_EQ_INT(harness_stop(pid, SIGTERM), 0);
    }
    return test_finish();
}
