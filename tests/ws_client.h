/*
 * A small WebSocket client (RFC 6455) over plain sockets for the server tests and the
 * load test: handshake, masked text frames out, frames in (fragments joined). Not the
 * server's code: written from the RFC so the tests check libwebsockets' side honestly.
 */
#ifndef RV_WS_CLIENT_H
#define RV_WS_CLIENT_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct ws_conn {
    int fd;
    unsigned char *in; /* bytes received and not yet parsed */
    size_t inlen, incap;
    char *msg;         /* the message being assembled from fragments */
    size_t msglen;
    uint32_t mask_state;
} ws_conn;

/* Milliseconds left until the deadline END (CLOCK_MONOTONIC, in ms), 0 once it has passed. */
static int ws_ms_left(int64_t end) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t left = end - ((int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000);
    return left > 0 ? (left < INT32_MAX ? (int)left : INT32_MAX) : 0;
}

/* The deadline TIMEOUT_MS from now, for ws_ms_left. */
static int64_t ws_deadline(int timeout_ms) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000 + (timeout_ms > 0 ? timeout_ms : 0);
}

static int ws_write_all(int fd, const void *p, size_t n) {
    const unsigned char *b = p;
    while (n) {
        ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) {
            struct pollfd pf = {fd, POLLOUT, 0};
            poll(&pf, 1, 1000);
            continue;
        }
        if (k <= 0) return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Connects and upgrades; 0 on success. extra_header may add a line ("X: y\r\n") or be "".
   rcvbuf > 0: the socket's receive buffer (SO_RCVBUF), set before it connects, as a client
   that reads slowly would have it. (Shrunk after the connection carried data, the buffer
   can end smaller than a segment the server may already send into the window it was
   offered: the kernel then drops every try of that segment and the server's retries back
   off for tens of seconds, its FIN behind them.) */
static int ws_open_rcvbuf(ws_conn *c, int port, const char *path, const char *extra_header,
                          int rcvbuf) {
    memset(c, 0, sizeof *c);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) return -1;
    if (rcvbuf > 0) setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a)) goto fail;
    char req[512];
    /* The key's value does not matter to the test; the server must answer 101. */
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n%s\r\n",
                     path, port, extra_header ? extra_header : "");
    if (ws_write_all(c->fd, req, (size_t)n)) goto fail;
    /* Read the response head byte by byte up to the blank line, within 5 s in all (a server
       that trickles it fails the open instead of holding it). */
    char head[2048];
    size_t h = 0;
    int64_t end = ws_deadline(5000);
    while (h + 1 < sizeof head) {
        struct pollfd pf = {c->fd, POLLIN, 0};
        if (poll(&pf, 1, ws_ms_left(end)) <= 0) goto fail;
        ssize_t k = recv(c->fd, head + h, 1, 0);
        if (k <= 0) goto fail;
        h++;
        if (h >= 4 && !memcmp(head + h - 4, "\r\n\r\n", 4)) break;
    }
    head[h] = 0;
    if (strncmp(head, "HTTP/1.1 101", 12)) goto fail;
    c->mask_state = 0x9e3779b9u ^ (uint32_t)c->fd;
    return 0;
fail:
    close(c->fd);
    c->fd = -1;
    return -1;
}

static int ws_open(ws_conn *c, int port, const char *path, const char *extra_header) {
    return ws_open_rcvbuf(c, port, path, extra_header, 0);
}

static void ws_close(ws_conn *c) {
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    free(c->in);
    free(c->msg);
    c->in = NULL;
    c->msg = NULL;
}

/* Sends one frame (opcode 1 text, 2 binary, 8 close); 0 on success. */
static int ws_send_frame(ws_conn *c, int opcode, int fin, const void *data, size_t len) {
    unsigned char *f = malloc(len + 14);
    if (!f) return -1;
    size_t k = 0;
    f[k++] = (unsigned char)((fin ? 0x80 : 0) | opcode);
    if (len < 126) {
        f[k++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        f[k++] = 0x80 | 126;
        f[k++] = (unsigned char)(len >> 8);
        f[k++] = (unsigned char)len;
    } else {
        f[k++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) f[k++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    c->mask_state = c->mask_state * 1664525u + 1013904223u;
    unsigned char mask[4];
    memcpy(mask, &c->mask_state, 4);
    memcpy(f + k, mask, 4);
    k += 4;
    const unsigned char *d = data;
    for (size_t i = 0; i < len; i++) f[k + i] = d[i] ^ mask[i & 3];
    int rc = ws_write_all(c->fd, f, k + len);
    free(f);
    return rc;
}

static int ws_send_text(ws_conn *c, const char *text) {
    return ws_send_frame(c, 1, 1, text, strlen(text));
}

/*
 * Tries to take one whole message out of the bytes already received. Returns 1 with
 * *out (malloc'd, NUL-terminated; the caller frees), 0 when more bytes are needed,
 * -1 when the server closed.
 */
static int ws_parse(ws_conn *c, char **out, size_t *outlen) {
    for (;;) {
        if (c->inlen < 2) return 0;
        unsigned char *b = c->in;
        int fin = b[0] & 0x80, op = b[0] & 15;
        uint64_t len = b[1] & 127;
        size_t hl = 2;
        if (len == 126) {
            if (c->inlen < 4) return 0;
            len = (uint64_t)b[2] << 8 | b[3];
            hl = 4;
        } else if (len == 127) {
            if (c->inlen < 10) return 0;
            len = 0;
            for (int i = 0; i < 8; i++) len = len << 8 | b[2 + i];
            hl = 10;
        }
        if (c->inlen < hl + len) return 0;
        const unsigned char *payload = b + hl;
        int done = 0;
        if (op == 8) return -1;
        if (op == 1 || op == 2 || op == 0) {
            char *m = realloc(c->msg, c->msglen + len + 1);
            if (!m) return -1;
            c->msg = m;
            memcpy(c->msg + c->msglen, payload, len);
            c->msglen += len;
            if (fin) done = 1;
        } else if (op == 9) {
            ws_send_frame(c, 10, 1, payload, len); /* pong */
        }
        memmove(c->in, c->in + hl + len, c->inlen - hl - len);
        c->inlen -= hl + len;
        if (done) {
            c->msg[c->msglen] = 0;
            *out = c->msg;
            if (outlen) *outlen = c->msglen;
            c->msg = NULL;
            c->msglen = 0;
            return 1;
        }
    }
}

/* Reads what the socket has (non-blocking after poll said so); -1 when closed. */
static int ws_fill(ws_conn *c) {
    if (c->incap - c->inlen < 65536) {
        size_t cap = c->incap ? c->incap * 2 : 131072;
        unsigned char *n = realloc(c->in, cap);
        if (!n) return -1;
        c->in = n;
        c->incap = cap;
    }
    ssize_t k = recv(c->fd, c->in + c->inlen, c->incap - c->inlen, MSG_DONTWAIT);
    if (k == 0) return -1;
    if (k < 0) return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    c->inlen += (size_t)k;
    return 0;
}

/* Waits up to timeout_ms in all for one message. 1 with *out (free it), 0 on timeout, -1
   closed. One deadline for the call: a server that sends a message a few bytes at a time
   cannot keep the caller waiting past it (the bytes stay buffered for the next call). With
   timeout_ms 0, it takes what has arrived already. */
static int ws_recv(ws_conn *c, char **out, int timeout_ms) {
    int64_t end = ws_deadline(timeout_ms);
    for (int first = 1;; first = 0) {
        int r = ws_parse(c, out, NULL);
        if (r) return r;
        int left = ws_ms_left(end);
        if (left == 0 && !first) return 0;
        struct pollfd pf = {c->fd, POLLIN, 0};
        if (poll(&pf, 1, left) <= 0) return 0;
        if (ws_fill(c)) return ws_parse(c, out, NULL) == 1 ? 1 : -1;
    }
}

#endif
