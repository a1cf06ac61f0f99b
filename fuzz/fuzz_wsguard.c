/*
 * libFuzzer target: the check of client bytes in front of libwebsockets
 * (src/server/wsguard.c). The input's first byte chooses how the rest is cut into reads;
 * the rest is fed as a client stream (saying the upgrade was accepted whenever the check
 * holds) and as a server stream. Cut anywhere, the check must pass the same bytes and end in
 * the same state as when fed at once, never pass more than it was given, and never pass a
 * byte after refusing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/wsguard.h"

/* Feeds d[0..n) in reads of the lengths `cut` picks; returns the bytes passed. */
static size_t feed_client(srv_wsguard *g, const uint8_t *d, size_t n, unsigned cut) {
    size_t off = 0, passed = 0;
    unsigned x = cut * 2654435761u + 1;
    while (off < n) {
        size_t len = cut ? 1 + (x >> 24) % (cut % 29 + 1) : n;
        x = x * 1664525u + 1013904223u;
        if (len > n - off) len = n - off;
        size_t done = 0;
        while (done < len) {
            size_t k = srv_wsguard_client(g, d + off + done, len - done);
            if (k > len - done) abort();
            done += k;
            passed += k;
            if (g->state == SRV_WSG_HOLD) srv_wsguard_upgraded(g);
            else if (g->state == SRV_WSG_BAD) break;
        }
        if (g->state == SRV_WSG_BAD) {
            /* Refused: nothing more may ever pass. */
            if (srv_wsguard_client(g, d + off, n - off)) abort();
            return passed;
        }
        off += len;
    }
    return passed;
}

static size_t feed_server(srv_wsguard *g, const uint8_t *d, size_t n, unsigned cut) {
    size_t off = 0;
    unsigned x = cut * 40503u + 7;
    while (off < n) {
        size_t len = cut ? 1 + (x >> 24) % (cut % 23 + 1) : n;
        x = x * 1664525u + 1013904223u;
        if (len > n - off) len = n - off;
        if (srv_wsguard_server(g, d + off, len, 0) != len) abort();
        off += len;
    }
    return off;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 65536) return 0;
    unsigned cut = data[0];
    data++, size--;
    srv_wsguard whole, parts;
    srv_wsguard_init(&whole);
    srv_wsguard_init(&parts);
    size_t a = feed_client(&whole, data, size, 0), b = feed_client(&parts, data, size, cut | 1);
    if (a != b || whole.state != parts.state || a > size) abort();
    feed_server(&whole, data, size, 0);
    feed_server(&parts, data, size, cut | 1);
    if (srv_wsguard_server_at_boundary(&whole) != srv_wsguard_server_at_boundary(&parts)) abort();
    /* Walking to the boundary stops there, or uses up the input. */
    size_t k = srv_wsguard_server(&whole, data, size, 1);
    if (k > size || (k < size && whole.out_state == 2 && !srv_wsguard_server_at_boundary(&whole)))
        abort();
    return 0;
}
