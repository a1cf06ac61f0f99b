/*
 * The check in front of libwebsockets (src/server/wsguard.c) on hand-made streams: request
 * heads (where each ends, which ones hold), frames (RFC 6455 section 5.2: masked or not,
 * 7-, 16- and 64-bit lengths, control frames), fed at once and a byte at a time, and the
 * server's side (its 101 answer, then frame boundaries).
 */
#include "server/wsguard.h"
#include "test.h"

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static const char upgrade_head[] = "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n"
                                   "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n";

/* Feeds a byte at a time (saying the upgrade was accepted at a hold); returns bytes passed. */
static size_t bytewise(srv_wsguard *g, const uint8_t *p, size_t n) {
    size_t passed = 0;
    for (size_t i = 0; i < n && g->state != SRV_WSG_BAD; i++) {
        size_t k = srv_wsguard_client(g, p + i, 1);
        if (g->state == SRV_WSG_HOLD) {
            srv_wsguard_upgraded(g);
            if (!k) k = srv_wsguard_client(g, p + i, 1);
        }
        passed += k;
    }
    return passed;
}

static void test_heads(void) {
    srv_wsguard g;
    srv_wsguard_init(&g);
    /* Plain requests pass whole, keep-alive after keep-alive, with or without CR. */
    CHECK_EQ_INT(srv_wsguard_client(&g, S("GET / HTTP/1.1\r\nHost: h\r\n\r\n")), 27);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("GET /a HTTP/1.1\nUpgrade-Insecure-Requests: 1\n\n")), 46);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("GET /b HTTP/1.1\r\nX-Upgrade: no\r\n\r\n")), 34);
    CHECK_EQ_INT(g.state, SRV_WSG_HTTP);
    /* An Upgrade line (any case) holds everything after its head's end. */
    char buf[256];
    int n = snprintf(buf, sizeof buf, "%s\x81\x80", upgrade_head);
    CHECK_EQ_INT(srv_wsguard_client(&g, (const uint8_t *)buf, (size_t)n), sizeof upgrade_head - 1);
    CHECK_EQ_INT(g.state, SRV_WSG_HOLD);
    CHECK_EQ_INT(srv_wsguard_client(&g, (const uint8_t *)buf + n - 2, 2), 0);
    srv_wsguard_init(&g);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("GET /ws HTTP/1.1\nUPGRADE:websocket\n\nrest")), 36);
    CHECK_EQ_INT(g.state, SRV_WSG_HOLD);
    /* The earliest end libwebsockets could see: a line feed at a line's start, after an
       optional CR (so "\n\r\n" ends the head, "\r\r\n" does not). */
    srv_wsguard_init(&g);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("GET / HTTP/1.1\r\nUpgrade: x\r\r\nA: b\n\r\nz")), 36);
    CHECK_EQ_INT(g.state, SRV_WSG_HOLD);
    /* The upgrade accepted outside a hold: the streams disagree, refuse. */
    srv_wsguard_init(&g);
    srv_wsguard_upgraded(&g);
    CHECK_EQ_INT(g.state, SRV_WSG_BAD);
}

static void test_frames(void) {
    srv_wsguard g;
    srv_wsguard_init(&g);
    CHECK_EQ_INT(srv_wsguard_client(&g, S(upgrade_head)), sizeof upgrade_head - 1);
    srv_wsguard_upgraded(&g);
    CHECK_EQ_INT(g.state, SRV_WSG_FRAMES);
    /* Masked: 7-bit length, a Ping with no payload, a 16-bit length (300), then the start of
       an unmasked frame: passed up to (not including) its second byte. */
    uint8_t f[400];
    size_t k = 0;
    memcpy(f + k, "\x81\x83\x01\x02\x03\x04" "abc", 9), k += 9;
    memcpy(f + k, "\x89\x80\x00\x00\x00\x00", 6), k += 6;
    memcpy(f + k, "\x82\xfe\x01\x2c\x09\x09\x09\x09", 8), k += 8;
    memset(f + k, 'p', 300), k += 300;
    size_t good = k;
    memcpy(f + k, "\x81\x03xyz", 5), k += 5;
    CHECK_EQ_INT(srv_wsguard_client(&g, f, k), good + 1);
    CHECK_EQ_INT(g.state, SRV_WSG_BAD);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("\x81\x80\0\0\0\0")), 0);
    /* The same a byte at a time. */
    srv_wsguard_init(&g);
    CHECK_EQ_INT(bytewise(&g, S(upgrade_head)), sizeof upgrade_head - 1);
    CHECK_EQ_INT(bytewise(&g, f, k), good + 1);
    CHECK_EQ_INT(g.state, SRV_WSG_BAD);
    /* A payload that looks like unmasked headers is payload: masked 5 bytes "\x81\x05..." */
    srv_wsguard_init(&g);
    srv_wsguard_client(&g, S(upgrade_head));
    srv_wsguard_upgraded(&g);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("\x81\x85\0\0\0\0\x81\x05\x81\x05\x81")), 11);
    CHECK_EQ_INT(g.state, SRV_WSG_FRAMES);
    /* 64-bit lengths: 2^32 passes (its payload is then expected); 2^63 is refused, its
       header held back before its last byte. */
    CHECK_EQ_INT(srv_wsguard_client(&g, S("\x82\xff\0\0\0\x01\0\0\0\0\1\2\3\4")), 14);
    CHECK(g.in.left == 1ull << 32);
    srv_wsguard_init(&g);
    srv_wsguard_client(&g, S(upgrade_head));
    srv_wsguard_upgraded(&g);
    CHECK_EQ_INT(srv_wsguard_client(&g, S("\x82\xff\x80\0\0\0\0\0\0\0\1\2\3\4")), 13);
    CHECK_EQ_INT(g.state, SRV_WSG_BAD);
}

static void test_server_side(void) {
    srv_wsguard g;
    srv_wsguard_init(&g);
    /* Before the 101 answer: HTTP, no boundary (a file body is not frames). */
    CHECK_EQ_INT(srv_wsguard_server(&g, S("HTTP/1.1 200 OK\r\n\r\n\x81\x05"), 0), 21);
    CHECK(!srv_wsguard_server_at_boundary(&g));
    CHECK_EQ_INT(srv_wsguard_server(&g, S("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"), 0), 56);
    CHECK(srv_wsguard_server_at_boundary(&g));
    CHECK_EQ_INT(srv_wsguard_server(&g, S("\x81\x05hel"), 0), 5);
    CHECK(!srv_wsguard_server_at_boundary(&g));
    /* To the boundary: the frame's last two bytes, not the next frame. */
    CHECK_EQ_INT(srv_wsguard_server(&g, S("lo\x81\x01!"), 1), 2);
    CHECK(srv_wsguard_server_at_boundary(&g));
    CHECK_EQ_INT(srv_wsguard_server(&g, S("\x81\x01!"), 1), 0);
    /* A 16-bit length split in its header. */
    CHECK_EQ_INT(srv_wsguard_server(&g, S("\x81\x7e\x01"), 0), 3);
    CHECK_EQ_INT(srv_wsguard_server(&g, S("\x00"), 1), 1);
    CHECK(g.out.left == 256 && !srv_wsguard_server_at_boundary(&g));
}

int main(void) {
    test_heads();
    test_frames();
    test_server_side();
    return test_finish();
}
