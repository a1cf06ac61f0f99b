/*
 * The outgoing queue of each connection, bounded in bytes.
 *
 * A message is a reference-counted buffer, so a state broadcast to a room's hundred
 * spectators is built once and queued a hundred times by reference. A `state` is a whole
 * snapshot of the room: for a client that has fallen behind, a newer one replaces a queued
 * one not yet sent, so a spectator that reads slowly holds at most one. Anything else that would take a connection's queue over
 * SRV_MAX_QUEUE_BYTES, or the server's over SRV_MAX_QUEUE_TOTAL, closes that connection
 * (a client that does not read is dropped, not buffered for).
 */
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#include "renversi/core.h"
#include "server/srv.h"

/* Bookkeeping bytes counted for every queued message besides its text. */
#define MSG_OVERHEAD 64

srv_buf *srv_buf_new(srv_queues *q, const char *text, size_t len) {
    srv_buf *b = malloc(sizeof *b + LWS_PRE + len);
    if (!b) return NULL;
    b->refs = 1;
    b->len = len;
    b->owner = q;
    memcpy(b->data + LWS_PRE, text, len);
    if (q) q->bytes += len + MSG_OVERHEAD;
    return b;
}

void srv_buf_unref(srv_buf *b) {
    if (!b || --b->refs > 0) return;
    if (b->owner) b->owner->bytes -= b->len + MSG_OVERHEAD;
    free(b);
}

static void msg_free(srv_conn *c, srv_msg *m) {
    c->qbytes -= m->buf->len + MSG_OVERHEAD;
    c->qlen--;
    srv_buf_unref(m->buf);
    free(m);
}

void srv_queue_free(srv_conn *c) {
    while (c->qhead) {
        srv_msg *m = c->qhead;
        c->qhead = m->next;
        msg_free(c, m);
    }
    c->qtail = NULL;
    c->qsfirst = c->qstate = NULL;
    free(c->rx);
    c->rx = NULL;
}

/* Drops a slow consumer: its queue goes now, the connection at the next service. */
static void drop_slow(srv_conn *c) {
    c->closing = 1;
    char *rx = c->rx; /* srv_queue_free also frees the receive buffer: keep it */
    c->rx = NULL;
    srv_queue_free(c);
    c->rx = rx;
    if (c->queues) c->queues->dropped++;
    if (c->wsi) lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* Unlinks message m from c's queue (it is not the one being written). In constant time:
   a spectator that does not read has a long queue, and each state replaces one in it. */
static void unlink_msg(srv_conn *c, srv_msg *m) {
    if (m->prev) m->prev->next = m->next;
    else c->qhead = m->next;
    if (m->next) m->next->prev = m->prev;
    else c->qtail = m->prev;
    m->next = m->prev = NULL;
}

/* Drops every queued state (none has been written: lws takes a message whole). */
static void drop_states(srv_conn *c) {
    srv_msg *m = c->qsfirst;
    while (m) {
        srv_msg *n = m->snext;
        unlink_msg(c, m);
        msg_free(c, m);
        m = n;
    }
    c->qsfirst = c->qstate = NULL;
}

void srv_send_buf(srv_conn *c, srv_buf *b, int is_state) {
    if (c->closing || !b) return;
    /* A client that keeps up sees every state; one with a backlog (an unsent state older
       than SRV_STATE_STALE_MS, or SRV_STATE_BACKLOG bytes queued) gets the newest only:
       every queued state goes, not only the last one, or a client served slowly (a room
       whose spectators come and go makes a state at every flush) would find each answer
       behind a backlog of stale states that never shrinks (the eleventh session's soak:
       30 s behind 64 kB of them). Amortised constant time: a state is dropped once. */
    if (is_state && c->qsfirst &&
        (c->qbytes >= SRV_STATE_BACKLOG ||
         rv_clock_ns() - c->qsfirst->queued_ns >= (uint64_t)SRV_STATE_STALE_MS * 1000000u))
        drop_states(c);
    size_t cost = b->len + MSG_OVERHEAD;
    int over_conn = c->qbytes + cost > SRV_MAX_QUEUE_BYTES;
    int over_all = c->queues && c->qhead && c->queues->bytes > SRV_MAX_QUEUE_TOTAL;
    if (c->qhead && (over_conn || over_all)) {
        /* An empty queue always takes one message (an answer is never refused for size
           alone); a backlog that grows past the limits means the client is not reading. */
        drop_slow(c);
        return;
    }
    srv_msg *m = calloc(1, sizeof *m);
    if (!m) return;
    b->refs++;
    m->buf = b;
    m->prev = c->qtail;
    if (c->qtail) c->qtail->next = m;
    else c->qhead = m;
    c->qtail = m;
    c->qlen++;
    c->qbytes += cost;
    if (is_state) {
        m->queued_ns = rv_clock_ns();
        if (c->qstate) c->qstate->snext = m;
        else c->qsfirst = m;
        c->qstate = m;
    }
    /* No wsi: a test harness reads the queue. A non-empty queue already asked. */
    if (c->wsi && c->qhead == m) lws_callback_on_writable(c->wsi);
}

void srv_send(srv_conn *c, const char *text, size_t len) {
    if (c->closing) return;
    srv_buf *b = srv_buf_new(c->queues, text, len);
    if (!b) return;
    srv_send_buf(c, b, 0);
    srv_buf_unref(b);
}

void srv_queue_copy(const srv_conn *from, srv_conn *to) {
    for (const srv_msg *m = from->qhead; m; m = m->next)
        srv_send(to, (const char *)m->buf->data + LWS_PRE, m->buf->len);
}

int srv_queue_write(srv_conn *c) {
    srv_msg *m = c->qhead;
    if (!m) return 0;
    int n = lws_write(c->wsi, m->buf->data + LWS_PRE, m->buf->len, LWS_WRITE_TEXT);
    if (n < (int)m->buf->len) return -1;
    /* lws took the whole message (what the socket did not take, lws keeps and sends
       before it calls for the next write). */
    c->qhead = m->next;
    if (c->qhead) c->qhead->prev = NULL;
    else c->qtail = NULL;
    if (c->qsfirst == m && !(c->qsfirst = m->snext)) c->qstate = NULL;
    msg_free(c, m);
    if (c->qhead) lws_callback_on_writable(c->wsi);
    return 0;
}
