/*
 * The outgoing queue of a connection (src/server/outq.c), driven directly: a connection
 * without a libwebsockets handle, whose queue the test reads. What is checked is the rule
 * for states (a state is a whole snapshot of the room): a client with a backlog (an unsent
 * state older than SRV_STATE_STALE_MS, or SRV_STATE_BACKLOG bytes queued) gets the newest
 * state only, with none of the older ones left before it, while every other message stays,
 * in order. Before the eleventh session only the newest queued state was replaced, so the
 * older ones stayed ahead of every answer (the soak's 30 s waits). Ages are set on the
 * queued messages, not waited for: nothing here depends on the machine's speed.
 */
#include <libwebsockets.h>

#include "renversi/core.h"
#include "server/srv.h"
#include "test.h"

/* A message of `len` bytes starting with tag (the rest 'x'). */
static void put(srv_conn *c, const char *tag, size_t len, int is_state) {
    char *t = malloc(len + 1);
    memset(t, 'x', len);
    t[len] = 0;
    memcpy(t, tag, strlen(tag) < len ? strlen(tag) : len);
    srv_buf *b = srv_buf_new(NULL, t, len);
    srv_send_buf(c, b, is_state);
    srv_buf_unref(b);
    free(t);
}

/* The tags of the queued messages (the text up to the first 'x'), space separated. */
static void tags(const srv_conn *c, char *out, size_t n) {
    size_t k = 0;
    out[0] = 0;
    for (const srv_msg *m = c->qhead; m; m = m->next) {
        const char *d = (const char *)m->buf->data + LWS_PRE;
        size_t l = 0;
        while (l < m->buf->len && d[l] != 'x') l++;
        k += (size_t)snprintf(out + k, n - k, "%s%.*s", k ? " " : "", (int)l, d);
        if (k >= n) break;
    }
}

static int nstates(const srv_conn *c) {
    int n = 0;
    for (const srv_msg *m = c->qsfirst; m; m = m->snext) n++;
    return n;
}

/* An unsent state older than SRV_STATE_STALE_MS: the next state replaces every queued one
   (the newer ones too), the other messages keep their order. */
static void test_stale(void) {
    srv_conn c;
    memset(&c, 0, sizeof c);
    put(&c, "S1", 100, 1);
    put(&c, "E1", 100, 0);
    put(&c, "S2", 100, 1);
    put(&c, "E2", 100, 0);
    put(&c, "S3", 100, 1);
    char t[256];
    tags(&c, t, sizeof t);
    CHECK_EQ_STR(t, "S1 E1 S2 E2 S3");
    CHECK_EQ_INT(nstates(&c), 3);
    /* Only the oldest is old (S2 and S3 fresh, as when a room makes a state at every flush
       and each is younger than the limit than the one before it). */
    c.qsfirst->queued_ns = rv_clock_ns() - 2ull * SRV_STATE_STALE_MS * 1000000u;
    put(&c, "S4", 100, 1);
    tags(&c, t, sizeof t);
    CHECK_EQ_STR(t, "E1 E2 S4");
    CHECK_EQ_INT(nstates(&c), 1);
    CHECK(c.qsfirst == c.qstate && c.qstate == c.qtail);
    CHECK_EQ_INT(c.qlen, 3);
    CHECK_EQ_INT((long long)c.qbytes, 3 * (100 + 64));
    /* A message that is not a state never replaces one. */
    c.qsfirst->queued_ns = rv_clock_ns() - 2ull * SRV_STATE_STALE_MS * 1000000u;
    put(&c, "E3", 100, 0);
    tags(&c, t, sizeof t);
    CHECK_EQ_STR(t, "E1 E2 S4 E3");
    srv_queue_free(&c);
    CHECK(!c.qhead && !c.qsfirst && !c.qstate && c.qlen == 0 && c.qbytes == 0);
}

/* SRV_STATE_BACKLOG bytes queued: a new state leaves no older state before it. States of
   4 kB are queued until that has happened three times (a slow machine may also make some
   stale on the way, which drops them the same way). */
static void test_backlog(void) {
    srv_conn c;
    memset(&c, 0, sizeof c);
    put(&c, "E0", 200, 0);
    int hits = 0;
    for (int i = 0; i < 10000 && hits < 3; i++) {
        size_t before = c.qbytes;
        char tag[16];
        snprintf(tag, sizeof tag, "S%d", i);
        put(&c, tag, 4096, 1);
        if (before >= SRV_STATE_BACKLOG) {
            hits++;
            char t[64];
            tags(&c, t, sizeof t);
            char want[64];
            snprintf(want, sizeof want, "E0 %s", tag);
            CHECK_EQ_STR(t, want);
            CHECK_EQ_INT(nstates(&c), 1);
        }
        CHECK_MSG(c.qbytes < SRV_STATE_BACKLOG + 2 * (4096 + 64), "%zu bytes queued", c.qbytes);
    }
    CHECK_EQ_INT(hits, 3);
    srv_queue_free(&c);
}

int main(void) {
    test_stale();
    test_backlog();
    return test_finish();
}
