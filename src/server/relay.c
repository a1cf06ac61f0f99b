/*
 * The relay between each client's TCP socket and libwebsockets. libwebsockets 4.1 takes
 * unmasked client frames (RFC 6455 section 5.1 says a server must close the connection), and
 * it offers no hook before its parser reads a frame header. So libwebsockets is given one end
 * of a socket pair, and this thread moves the bytes between the client and the other end,
 * letting on only what wsguard.c checked: on an unmasked frame, nothing of it reaches
 * libwebsockets; the client gets a Close frame with status 1002 (protocol error) at the next
 * frame boundary of the server's stream, and the connection ends.
 *
 * One epoll set, edge-triggered, served either by a thread of its own or by the network
 * thread (srv_relay_run, from the server's libev loop: no thread hop between the relay and
 * libwebsockets). Whenever either socket of a pair reports anything, every direction of the
 * pair is tried until none moves, for at most RELAY_TURN_ROUNDS rounds: a pair still moving
 * then waits on a busy list and is served again after the events of the others, so one fast
 * stream cannot hold the thread. A socket is read only when epoll said it has bytes and the
 * last read did not drain it (a read shorter than the buffer drained it: a new arrival is a
 * new edge), and a socket is watched for room to write only while a write to it is blocked
 * (a socket pair reports room after every read by the other end): a message costs the relay
 * one read and one write, no probes. A pair costs three descriptors (listen.c counts them)
 * and two buffers of RELAY_BUF bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "renversi/core.h"
#include "server/srv.h"
#include "server/wsguard.h"

#define RELAY_BUF 16384 /* per direction and pair: fewer hops through this thread on a busy machine */
#define RELAY_LINGER_NS (2ull * 1000000000ull) /* waiting for a client to end after our end */
#define RELAY_TURN_ROUNDS 4 /* rounds a pair is served in a row before the others get their turn */
#define RELAY_SOCKETPAIR_SNDBUF (8 * 1024) /* what libwebsockets may write ahead: small, so a
                                            client that does not read is noticed as before */

typedef struct relay_pair {
    struct relay_pair *next, *prev;
    int t;                     /* the client's TCP socket (-1: closed) */
    int a;                     /* our end of the pair; libwebsockets has the other (-1: closed) */
    uint64_t serial;           /* the connection's number, as libwebsockets' wsi knows it */
    srv_wsguard g;
    size_t in_off, in_ok, in_len; /* in[in_off, in_ok) may go on; in[in_ok, in_len) is held */
    size_t out_off, out_len;
    int t_eof;                 /* the client ended its side */
    int t_shut;                /* we ended ours (the pair then waits for the client's end) */
    int a_shut;                /* the client's end was passed on to libwebsockets */
    int close_queued;          /* the Close frame is in `out` */
    int dead;                  /* closed; freed after the current batch of events */
    int busy;                  /* on the busy list: its turn ended with bytes still moving */
    int t_rd, a_rd;            /* the socket may have bytes to read (an edge since it drained) */
    int t_hup, a_hup;          /* its other end has shut: read it to the end (no edge follows) */
    int t_wout, a_wout;        /* a write to it was blocked: watched for room (EPOLLOUT) */
    struct relay_pair *busy_next;
    uint64_t deadline_ns;      /* lingering or refusing: the pair is dropped after this */
    uint8_t in[RELAY_BUF], out[RELAY_BUF];
} relay_pair;

struct srv_relay {
    int ep, wake;              /* epoll; eventfd for new pairs, upgrades and quitting */
    pthread_t thread;
    int started;               /* it has a thread (else srv_relay_run serves it) */
    uint64_t last_scan;        /* the last look for pairs past their deadline */
    atomic_int quit;
    atomic_int npairs;         /* pairs alive (each holds up to three descriptors) */
    pthread_mutex_t lock;      /* guards the three fields below */
    relay_pair *incoming;      /* new pairs from the accept thread */
    uint64_t *upgraded;        /* serials libwebsockets upgraded to WebSocket */
    size_t nupgraded, capupgraded;
    uint64_t next_serial;
    relay_pair *live;          /* the relay thread's own */
    relay_pair *graveyard;
    relay_pair *busy;          /* pairs to serve again without waiting for an event */
    int nwaiting;              /* pairs with a deadline */
};

static int again(int e) { return e == EAGAIN || e == EWOULDBLOCK || e == EINTR; }

static void pair_unlink(srv_relay *r, relay_pair *p) {
    if (p->prev) p->prev->next = p->next;
    else r->live = p->next;
    if (p->next) p->next->prev = p->prev;
    p->next = p->prev = NULL;
}

/* Closes both sockets and frees the pair after the current batch of events. */
static void pair_kill(srv_relay *r, relay_pair *p) {
    if (p->dead) return;
    p->dead = 1;
    if (p->t >= 0) close(p->t);
    if (p->a >= 0) close(p->a);
    p->t = p->a = -1;
    if (p->deadline_ns) r->nwaiting--;
    pair_unlink(r, p);
    p->next = r->graveyard;
    r->graveyard = p;
    atomic_fetch_sub(&r->npairs, 1);
}

/* A pair past its deadline: a client that did not end its side within RELAY_LINGER_NS after
   ours, or a refusal that stalled. When bytes for the client are still unsent (it does not
   read: a dropped slow client), its socket is reset instead of closed: closed, the kernel
   keeps it as an orphan in FIN-WAIT-1 with those bytes (about 100 kB), probing the client's
   closed window, for as long as the client stays connected (a client that answers the
   probes never lets it time out). Everything sent and acknowledged: an ordinary close. */
static void pair_expire(srv_relay *r, relay_pair *p) {
    int unsent = 0;
    if (p->t >= 0 && !(p->t_shut && p->out_len == 0 && ioctl(p->t, SIOCOUTQ, &unsent) == 0 &&
                       unsent == 0)) {
        struct linger reset = {1, 0};
        /* If the reset cannot be set, the close below is an ordinary one. */
        (void)setsockopt(p->t, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }
    pair_kill(r, p);
}

static void set_deadline(srv_relay *r, relay_pair *p) {
    if (!p->deadline_ns) r->nwaiting++;
    p->deadline_ns = rv_clock_ns() + RELAY_LINGER_NS;
}

/* libwebsockets' end is gone (it closed the connection, or we refuse the client). */
static void a_close(srv_relay *r, relay_pair *p) {
    if (p->a >= 0) close(p->a);
    p->a = -1;
    p->in_off = p->in_ok = p->in_len = 0;
    set_deadline(r, p);
}

#define RELAY_EVENTS (EPOLLIN | EPOLLRDHUP | EPOLLET)

/* Watches one socket of the pair for room to write (while a write to it is blocked) or not. */
static void want_out(srv_relay *r, relay_pair *p, int a_side, int on) {
    int *w = a_side ? &p->a_wout : &p->t_wout;
    int fd = a_side ? p->a : p->t;
    if (*w == on || fd < 0) return;
    *w = on;
    struct epoll_event ev = {.events = RELAY_EVENTS | (on ? EPOLLOUT : 0)};
    ev.data.ptr = a_side ? (void *)((uintptr_t)p | 1) : p;
    epoll_ctl(r->ep, EPOLL_CTL_MOD, fd, &ev); /* on failure: the next event of the pair */
}

/* Sends buf[*off, end) as far as the socket takes it: 1 when some went, 0 when none was
   waiting, 2 when the socket is full (watched for room until it is written again), -1 when
   the socket failed. */
static int send_some(srv_relay *r, relay_pair *p, int a_side, const uint8_t *buf, size_t *off,
                     size_t end) {
    if (*off >= end) return 0;
    ssize_t w = send(a_side ? p->a : p->t, buf + *off, end - *off, MSG_NOSIGNAL);
    if (w > 0) {
        *off += (size_t)w;
        if (*off == end) want_out(r, p, a_side, 0);
        return 1;
    }
    if (w < 0 && !again(errno)) return -1;
    want_out(r, p, a_side, 1);
    return 2;
}

/* One read into buf: what recv returned. A read shorter than the buffer (or none) drained
   the socket: it is read again only after its next edge, unless its other end has shut
   (HUP: the end of the stream came with the same edge as the last bytes). */
static ssize_t recv_some(int fd, uint8_t *buf, int *rd, int hup) {
    ssize_t n = recv(fd, buf, RELAY_BUF, 0);
    if (n < 0 ? again(errno) && errno != EINTR : n < RELAY_BUF && n > 0 && !hup) *rd = 0;
    return n;
}

/* Moves bytes every way they can go; kills the pair when both ends are done. */
static void pair_service(srv_relay *r, relay_pair *p) {
    static const uint8_t close_1002[4] = {0x88, 0x02, 0x03, 0xea}; /* Close, 1002 */
    for (int progress = 1, rounds = 0; progress && !p->dead; rounds++) {
        if (rounds == RELAY_TURN_ROUNDS) {
            /* Its turn is over; edge-triggered epoll will not report it again, so it waits
               on the busy list, served after the other pairs' events. */
            if (!p->busy) {
                p->busy = 1;
                p->busy_next = r->busy;
                r->busy = p;
            }
            return;
        }
        progress = 0;
        /* The client's bytes to libwebsockets. */
        if (p->a >= 0) {
            int sent = send_some(r, p, 1, p->in, &p->in_off, p->in_ok);
            if (sent < 0) a_close(r, p);
            progress |= sent == 1 || sent < 0;
        }
        if (p->in_off == p->in_len) p->in_off = p->in_ok = p->in_len = 0;
        /* A held rest that the upgrade released (srv_relay_upgraded fed it again). */
        if (p->a >= 0 && p->in_ok < p->in_len && p->g.state == SRV_WSG_FRAMES) {
            size_t ok = srv_wsguard_client(&p->g, p->in + p->in_ok, p->in_len - p->in_ok);
            p->in_ok += ok;
            if (p->g.state == SRV_WSG_BAD) set_deadline(r, p);
            if (ok) progress = 1;
        }
        int reading = p->g.state == SRV_WSG_HTTP || p->g.state == SRV_WSG_FRAMES;
        if (p->t >= 0 && !p->t_eof && p->t_rd && (p->a < 0 || (reading && p->in_len == 0))) {
            uint8_t discard[RELAY_BUF];
            uint8_t *buf = p->a >= 0 ? p->in : discard; /* after our end: read to the end */
            ssize_t n = recv_some(p->t, buf, &p->t_rd, p->t_hup);
            if (n > 0) {
                if (p->a >= 0) {
                    p->in_len = (size_t)n;
                    p->in_ok = srv_wsguard_client(&p->g, p->in, p->in_len);
                    if (p->g.state == SRV_WSG_BAD) set_deadline(r, p);
                }
                progress = 1;
            } else if (n == 0) {
                p->t_eof = 1;
                progress = 1;
            } else if (!again(errno)) {
                pair_kill(r, p);
                return;
            }
        }
        if (p->t_eof && p->a >= 0 && !p->a_shut && p->in_len == 0) {
            shutdown(p->a, SHUT_WR);
            p->a_shut = 1;
        }
        /* libwebsockets' bytes to the client. */
        if (p->t >= 0) {
            int sent = send_some(r, p, 0, p->out, &p->out_off, p->out_len);
            if (sent < 0) {
                pair_kill(r, p);
                return;
            }
            progress |= sent == 1;
        }
        if (p->out_off == p->out_len) p->out_off = p->out_len = 0;
        if (p->a >= 0 && p->out_len == 0) {
            int refusing = p->g.state == SRV_WSG_BAD;
            if (refusing && (srv_wsguard_server_at_boundary(&p->g) || p->g.out_state < 2)) {
                /* Between two frames (or before any): the Close frame, and our end. */
                if (p->g.out_state == 2) {
                    memcpy(p->out, close_1002, sizeof close_1002);
                    p->out_len = sizeof close_1002;
                    p->close_queued = 1;
                }
                a_close(r, p);
                progress = 1;
                continue;
            }
            ssize_t n = p->a_rd ? recv_some(p->a, p->out, &p->a_rd, p->a_hup) : -2; /* -2: no edge */
            if (n > 0) {
                /* Refusing: the rest of the frame being sent goes, nothing after it. */
                p->out_len = srv_wsguard_server(&p->g, p->out, (size_t)n, refusing);
                if (refusing && p->out_len < (size_t)n) p->g.out_state = 2;
                progress = 1;
            } else if (n == 0 || (n == -1 && !again(errno))) {
                a_close(r, p);
                progress = 1;
            }
        }
        /* libwebsockets is done and everything it said went out: end our side. */
        if (p->a < 0 && p->t >= 0 && !p->t_shut && p->out_len == 0) {
            shutdown(p->t, SHUT_WR);
            p->t_shut = 1;
        }
        if (p->t_shut && p->t_eof) {
            pair_kill(r, p);
            return;
        }
    }
}

/* One round: waits up to timeout_ms for events, serves them, the new pairs and upgrades,
   the deadlines and the busy list. */
static void relay_step(srv_relay *r, int timeout_ms) {
    struct epoll_event evs[64];
    int n = epoll_wait(r->ep, evs, 64, r->busy ? 0 : timeout_ms);
    for (int i = 0; i < n; i++) {
        if (!evs[i].data.ptr) {
            uint64_t v;
            if (read(r->wake, &v, sizeof v) < 0) { /* nothing to read: fine */
            }
            continue;
        }
        uintptr_t tag = (uintptr_t)evs[i].data.ptr;
        relay_pair *p = (relay_pair *)(tag & ~(uintptr_t)1);
        if (p->dead) continue;
        /* The client's socket in error, or shut both ways: nothing more can move. */
        if (!(tag & 1) && (evs[i].events & (EPOLLERR | EPOLLHUP))) {
            pair_kill(r, p);
            continue;
        }
        if (evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
            int hup = (evs[i].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
            if (tag & 1) p->a_rd = 1, p->a_hup |= hup;
            else p->t_rd = 1, p->t_hup |= hup;
        }
        pair_service(r, p);
    }
    /* New pairs and upgrades. */
    pthread_mutex_lock(&r->lock);
    relay_pair *fresh = r->incoming;
    r->incoming = NULL;
    size_t nup = r->nupgraded;
    uint64_t ups[64];
    if (nup > 64) nup = 64;
    if (nup) {
        memcpy(ups, r->upgraded, nup * sizeof *ups);
        memmove(r->upgraded, r->upgraded + nup, (r->nupgraded - nup) * sizeof *ups);
        r->nupgraded -= nup;
    }
    int more = r->nupgraded > 0;
    pthread_mutex_unlock(&r->lock);
    if (more) {
        uint64_t one = 1;
        if (write(r->wake, &one, sizeof one) < 0) { /* the counter is full: awake anyway */
        }
    }
    while (fresh) {
        relay_pair *p = fresh;
        fresh = p->next;
        p->next = r->live;
        p->prev = NULL;
        if (r->live) r->live->prev = p;
        r->live = p;
        p->t_rd = p->a_rd = 1; /* whatever came before the pair was watched */
        struct epoll_event ev = {.events = RELAY_EVENTS};
        ev.data.ptr = p;
        int bad = epoll_ctl(r->ep, EPOLL_CTL_ADD, p->t, &ev) != 0;
        ev.data.ptr = (void *)((uintptr_t)p | 1);
        bad |= epoll_ctl(r->ep, EPOLL_CTL_ADD, p->a, &ev) != 0;
        if (bad) pair_kill(r, p);
        else pair_service(r, p);
    }
    for (size_t k = 0; k < nup; k++)
        for (relay_pair *p = r->live; p; p = p->next)
            if (p->serial == ups[k]) {
                srv_wsguard_upgraded(&p->g);
                if (p->g.state == SRV_WSG_BAD) set_deadline(r, p);
                pair_service(r, p);
                break;
            }
    /* Pairs past their deadline (a client that does not end, a refusal that stalls). */
    uint64_t now = rv_clock_ns();
    if (r->nwaiting > 0 && now - r->last_scan > 200000000ull) {
        r->last_scan = now;
        for (relay_pair *p = r->live, *next; p; p = next) {
            next = p->next;
            if (p->deadline_ns && now > p->deadline_ns) pair_expire(r, p);
        }
    }
    /* Pairs whose turn ended with bytes still moving get another. */
    relay_pair *busy = r->busy;
    r->busy = NULL;
    while (busy) {
        relay_pair *p = busy;
        busy = p->busy_next;
        p->busy = 0;
        if (!p->dead) pair_service(r, p);
    }
    /* No dead pair stays on the busy list: they are freed below. */
    for (relay_pair **pp = &r->busy; *pp;)
        if ((*pp)->dead) *pp = (*pp)->busy_next;
        else pp = &(*pp)->busy_next;
    while (r->graveyard) {
        relay_pair *p = r->graveyard;
        r->graveyard = p->next;
        free(p);
    }
}

static void *relay_main(void *arg) {
    srv_relay *r = arg;
    while (!atomic_load(&r->quit)) relay_step(r, 250);
    return NULL;
}

int srv_relay_fd(const srv_relay *r) { return r->ep; }

int srv_relay_run(srv_relay *r) {
    relay_step(r, 0);
    return r->busy != NULL;
}

srv_relay *srv_relay_start(int own_thread) {
    srv_relay *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->ep = epoll_create1(EPOLL_CLOEXEC);
    r->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    pthread_mutex_init(&r->lock, NULL);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    if (r->ep < 0 || r->wake < 0 || epoll_ctl(r->ep, EPOLL_CTL_ADD, r->wake, &ev) ||
        (own_thread && pthread_create(&r->thread, NULL, relay_main, r))) {
        srv_relay_stop(r);
        return NULL;
    }
    r->started = own_thread;
    return r;
}

void srv_relay_stop(srv_relay *r) {
    if (!r) return;
    if (r->started) {
        atomic_store(&r->quit, 1);
        uint64_t one = 1;
        if (write(r->wake, &one, sizeof one) < 0) { /* the thread polls every 250 ms anyway */
        }
        pthread_join(r->thread, NULL);
    }
    relay_pair *lists[3] = {r->live, r->incoming, r->graveyard};
    for (int k = 0; k < 3; k++)
        for (relay_pair *p = lists[k], *next; p; p = next) {
            next = p->next;
            if (k < 2 && p->t >= 0) close(p->t);
            if (k < 2 && p->a >= 0) close(p->a);
            free(p);
        }
    if (r->ep >= 0) close(r->ep);
    if (r->wake >= 0) close(r->wake);
    pthread_mutex_destroy(&r->lock);
    free(r->upgraded);
    free(r);
}

int srv_relay_add(srv_relay *r, int tcp_fd, uint64_t *serial) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv)) return -1;
    relay_pair *p = malloc(sizeof *p);
    if (!p) {
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    memset(p, 0, offsetof(relay_pair, in));
    p->t = tcp_fd;
    p->a = sv[0];
    srv_wsguard_init(&p->g);
    int size = RELAY_SOCKETPAIR_SNDBUF, one = 1;
    /* Small answers go out at once (the relay writes what libwebsockets wrote, in pieces);
       best effort: without it they go out a little later. */
    (void)setsockopt(tcp_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int fl = fcntl(tcp_fd, F_GETFL);
    /* The pair's buffer is a bound on what one client holds: no bound, no client. */
    if (setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size) || fl < 0 ||
        fcntl(tcp_fd, F_SETFL, fl | O_NONBLOCK)) {
        close(sv[0]);
        close(sv[1]);
        free(p);
        return -1;
    }
    pthread_mutex_lock(&r->lock);
    p->serial = ++r->next_serial;
    p->next = r->incoming;
    r->incoming = p;
    pthread_mutex_unlock(&r->lock);
    atomic_fetch_add(&r->npairs, 1);
    *serial = p->serial;
    uint64_t v = 1;
    if (write(r->wake, &v, sizeof v) < 0) { /* the thread polls every 250 ms anyway */
    }
    return sv[1];
}

void srv_relay_upgraded(srv_relay *r, uint64_t serial) {
    if (!r) return;
    pthread_mutex_lock(&r->lock);
    if (r->nupgraded == r->capupgraded) {
        size_t cap = r->capupgraded ? r->capupgraded * 2 : 64;
        uint64_t *u = realloc(r->upgraded, cap * sizeof *u);
        if (u) r->upgraded = u, r->capupgraded = cap;
    }
    /* Without room the upgrade is not passed on: the relay keeps holding, and
       libwebsockets' timeout ends the connection (never unchecked frames). */
    if (r->nupgraded < r->capupgraded) r->upgraded[r->nupgraded++] = serial;
    pthread_mutex_unlock(&r->lock);
    uint64_t v = 1;
    if (write(r->wake, &v, sizeof v) < 0) { /* the thread polls every 250 ms anyway */
    }
}

int srv_relay_count(const srv_relay *r) { return r ? atomic_load(&r->npairs) : 0; }
