/* The check of a client's bytes before libwebsockets reads them (wsguard.h). */
#include "server/wsguard.h"

#include <string.h>

void srv_wsguard_init(srv_wsguard *g) {
    memset(g, 0, sizeof *g);
    g->state = SRV_WSG_HTTP;
    g->line = 1;
}

/* The length of a frame header whose first two bytes are known (RFC 6455 section 5.2). */
static unsigned header_size(const uint8_t *h) {
    unsigned n = 2, len = h[1] & 0x7fu;
    if (len == 126) n += 2;
    else if (len == 127) n += 8;
    if (h[1] & 0x80) n += 4;
    return n;
}

/*
 * Walks n bytes of frames and returns how many it went over. From the client (`client`), a
 * header whose mask bit is clear stops the walk before its second byte and sets *bad, as does
 * a 64-bit length with its top bit set. With `stop`, the walk ends where the current frame
 * does. The state carries over between calls: headers and payloads may be split anywhere.
 */
static size_t frames_walk(srv_wsframes *f, const uint8_t *p, size_t n, int client, int stop,
                          int *bad) {
    size_t i = 0;
    if (stop && !f->got && !f->left) return 0;
    while (i < n) {
        if (f->left) {
            size_t room = n - i;
            size_t take = f->left < room ? (size_t)f->left : room;
            i += take;
            f->left -= take;
            if (!f->left && stop) return i;
            continue;
        }
        uint8_t c = p[i];
        if (f->got == 1 && client && !(c & 0x80)) {
            *bad = 1;
            return i;
        }
        f->hdr[f->got++] = c;
        i++;
        if (f->got < 2 || f->got < header_size(f->hdr)) continue;
        uint64_t len = f->hdr[1] & 0x7fu;
        if (len == 126) {
            len = (uint64_t)f->hdr[2] << 8 | f->hdr[3];
        } else if (len == 127) {
            len = 0;
            for (int k = 0; k < 8; k++) len = len << 8 | f->hdr[2 + k];
            if (client && len >> 63) {
                *bad = 1;
                return i - 1;
            }
        }
        f->got = 0;
        f->left = len;
        if (!len && stop) return i;
    }
    return i;
}

size_t srv_wsguard_client(srv_wsguard *g, const uint8_t *p, size_t n) {
    static const char upgrade[] = "upgrade:";
    size_t i = 0;
    for (; i < n && g->state == SRV_WSG_HTTP; i++) {
        uint8_t c = p[i];
        if (g->line && c == '\n') {
            /* An empty line: the end of a request head. */
            if (g->upgrade) {
                g->state = SRV_WSG_HOLD;
                return i + 1;
            }
            g->line = 1;
            g->match = 0;
            continue;
        }
        if (g->line == 1 && c == '\r') {
            g->line = 2;
            g->match = -1;
            continue;
        }
        if (c == '\n') {
            g->line = 1;
            g->match = 0;
            continue;
        }
        g->line = 0;
        if (g->match >= 0) {
            uint8_t lc = c >= 'A' && c <= 'Z' ? (uint8_t)(c + ('a' - 'A')) : c;
            if (lc != (uint8_t)upgrade[g->match]) {
                g->match = -1;
            } else if (++g->match == (int)sizeof upgrade - 1) {
                g->upgrade = 1;
                g->match = -1;
            }
        }
    }
    if (g->state == SRV_WSG_FRAMES && i < n) {
        int bad = 0;
        i += frames_walk(&g->in, p + i, n - i, 1, 0, &bad);
        if (bad) g->state = SRV_WSG_BAD;
    }
    return i;
}

void srv_wsguard_upgraded(srv_wsguard *g) {
    g->state = g->state == SRV_WSG_HOLD ? SRV_WSG_FRAMES : SRV_WSG_BAD;
}

size_t srv_wsguard_server(srv_wsguard *g, const uint8_t *p, size_t n, int to_boundary) {
    /* libwebsockets' answer to the upgrade, then the end of its head. Neither pattern has a
       proper prefix that is also a suffix past its first byte, so a mismatch restarts. */
    static const char status[] = "HTTP/1.1 101 ", end[] = "\r\n\r\n";
    size_t i = 0;
    while (i < n && g->out_state < 2) {
        if (to_boundary) return i; /* no frames yet: no boundary known */
        uint8_t c = p[i++];
        const char *pat = g->out_state ? end : status;
        int len = g->out_state ? (int)sizeof end - 1 : (int)sizeof status - 1;
        if (c == (uint8_t)pat[g->out_match]) g->out_match++;
        else g->out_match = c == (uint8_t)pat[0];
        if (g->out_match == len) {
            g->out_state++;
            g->out_match = 0;
        }
    }
    if (i < n) {
        int bad = 0;
        i += frames_walk(&g->out, p + i, n - i, 0, to_boundary, &bad);
    }
    return i;
}

int srv_wsguard_server_at_boundary(const srv_wsguard *g) {
    return g->out_state == 2 && !g->out.got && !g->out.left;
}
