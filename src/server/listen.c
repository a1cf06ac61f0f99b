/*
 * The listening socket and its accept thread. libwebsockets gets each accepted connection
 * through lws_adopt_socket_vhost() on the network thread; owning the accept lets the server
 * (1) refuse a --host that names no local address before anything starts, (2) keep a reserve
 * of file descriptors for the database by pausing accepts at a connection limit below
 * `ulimit -n`, and (3) back off when accept() fails for lack of descriptors or memory,
 * logging once per interval instead of spinning on a listening socket that stays readable.
 * Each connection goes through the relay (relay.c), which checks the client's frames before
 * libwebsockets reads them; libwebsockets gets the other end of a socket pair.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "renversi/core.h"
#include "server/srv.h"

#define LOG_INTERVAL_NS (10ull * 1000000000ull) /* one line per 10 s per kind of trouble */
#define FD_RESERVE 32                            /* descriptors kept for the database & co */
#define FD_WANTED 65536                          /* the soft limit asked for, at most */

int srv_listen_open(srv_listener *l, const char *host, int port, char *err, size_t errlen) {
    memset(l, 0, sizeof *l);
    l->fd = -1;
    if (!host || !*host) {
        snprintf(err, errlen, "--host is empty: give an address such as 127.0.0.1 or 0.0.0.0");
        return -1;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &res);
    if (rc) {
        snprintf(err, errlen, "--host '%s': %s", host, gai_strerror(rc));
        return -1;
    }
    int saved = 0;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        int one = 1;
        /* Best effort: without it a restart may wait for TIME_WAIT, which bind reports. */
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 511) == 0) {
            l->fd = fd;
            break;
        }
        saved = errno;
        close(fd);
    }
    freeaddrinfo(res);
    if (l->fd < 0) {
        snprintf(err, errlen, "cannot listen on %s:%d: %s", host, port, strerror(saved));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    l->port = port;
    if (getsockname(l->fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (ss.ss_family == AF_INET) l->port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
        else if (ss.ss_family == AF_INET6) l->port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    }
    /* The connection limit: what `ulimit -n` allows, less what is open now and a reserve. */
    struct rlimit rl;
    long limit = 100000;
    /* Each connection takes three descriptors (relay.c): the soft limit is raised to the hard
       one (as `ulimit -n` in a shell sets both), up to what the server can use. */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max && rl.rlim_cur < FD_WANTED) {
        rl.rlim_cur = rl.rlim_max < FD_WANTED ? rl.rlim_max : FD_WANTED;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < limit)
        limit = (long)rl.rlim_cur;
    /* Descriptors in use now (fds are numbered lowest first, so the count is what matters). */
    int open_now = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            if (e->d_name[0] != '.') open_now++;
        closedir(d);
    } else {
        for (int fd = 0; fd < 1024 && fd < limit; fd++) open_now += fcntl(fd, F_GETFD) != -1;
    }
    /* Three descriptors a connection: the client's socket and the two ends of its pair. */
    l->max_conns = (int)((limit - open_now - FD_RESERVE) / 3);
    if (l->max_conns < 4) l->max_conns = 4;
    l->limit = limit;
    pthread_mutex_init(&l->lock, NULL);
    l->lock_ready = 1;
    return 0;
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Prints a line about trouble of this kind unless one was printed in the last interval. */
static void log_once(srv_listener *l, int kind, const char *fmt, long a, long b) {
    uint64_t now = rv_clock_ns();
    if (l->logged_ns[kind] && now - l->logged_ns[kind] < LOG_INTERVAL_NS) return;
    l->logged_ns[kind] = now;
    fprintf(stderr, fmt, a, b);
    fflush(stderr);
}

static void *accept_main(void *arg) {
    srv *s = arg;
    srv_listener *l = &s->listener;
    int backoff_ms = 0;
    unsigned long failures = 0;
    while (!atomic_load(&l->quit)) {
        int live = srv_relay_count(l->relay);
        if (live >= l->max_conns) {
            /* Full: the kernel keeps new connections in the listen backlog meanwhile. */
            log_once(l, 0,
                     "renversi serve: %ld connections, the most `ulimit -n` %ld allows: "
                     "new connections wait\n",
                     (long)live, l->limit);
            sleep_ms(50);
            continue;
        }
        struct pollfd pf = {l->fd, POLLIN, 0};
        if (poll(&pf, 1, 200) <= 0) continue;
        int fd = accept(l->fd, NULL, NULL), e = errno;
        if (fd < 0 && (e == EAGAIN || e == EWOULDBLOCK || e == EINTR || e == ECONNABORTED ||
                       e == EPROTO))
            continue;
        srv_accepted acc = {-1, 0};
        if (fd >= 0) {
            /* What the kernel holds for a client that does not read is bounded too (it would
               otherwise grow to megabytes per connection before the server's own queue
               fills). */
            int sndbuf = SRV_SOCKET_SNDBUF;
            if (fcntl(fd, F_SETFD, FD_CLOEXEC) ||
                setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf)) {
                e = errno; /* unbounded or inherited: refused, as when the relay cannot take it */
            } else {
                acc.fd = srv_relay_add(l->relay, fd, &acc.serial);
                e = errno;
            }
            if (acc.fd < 0) close(fd);
        }
        if (acc.fd < 0) {
            /* EMFILE, ENFILE, ENOBUFS, ENOMEM (for the socket, or the relay's socket pair):
               wait for a descriptor to be freed. */
            failures++;
            log_once(l, 1, "renversi serve: cannot accept a connection (errno %ld, %ld so far): "
                           "backing off\n", e, (long)failures);
            backoff_ms = backoff_ms ? (backoff_ms * 2 > 1000 ? 1000 : backoff_ms * 2) : 10;
            sleep_ms(backoff_ms);
            continue;
        }
        backoff_ms = 0;
        for (;;) {
            pthread_mutex_lock(&l->lock);
            int room = l->nq < SRV_ACCEPT_QUEUE;
            if (room) l->q[l->nq++] = acc;
            pthread_mutex_unlock(&l->lock);
            if (room || atomic_load(&l->quit)) break;
            sleep_ms(5);
        }
        lws_cancel_service(s->ctx);
    }
    return NULL;
}

int srv_listen_start(srv *s, int in_loop) {
    srv_listener *l = &s->listener;
    atomic_store(&l->quit, 0);
    if (!(l->relay = srv_relay_start(!in_loop))) return -1;
    if (pthread_create(&l->thread, NULL, accept_main, s)) return -1;
    l->started = 1;
    return 0;
}

void srv_listen_adopt(srv *s, struct lws_vhost *vh) {
    srv_listener *l = &s->listener;
    if (!l->lock_ready) return;
    srv_accepted acc[SRV_ACCEPT_QUEUE];
    int n;
    pthread_mutex_lock(&l->lock);
    n = l->nq;
    memcpy(acc, l->q, (size_t)n * sizeof *acc);
    l->nq = 0;
    pthread_mutex_unlock(&l->lock);
    for (int i = 0; i < n; i++) {
        /* On failure lws closes the descriptor itself (and the relay sees its pair end). */
        struct lws *wsi = lws_adopt_socket_vhost(vh, acc[i].fd);
        /* The connection's number, for telling the relay of its WebSocket upgrade. */
        if (wsi) lws_set_opaque_user_data(wsi, (void *)(uintptr_t)acc[i].serial);
    }
}

void srv_listen_close(srv *s) {
    srv_listener *l = &s->listener;
    if (l->started) {
        atomic_store(&l->quit, 1);
        pthread_join(l->thread, NULL);
        l->started = 0;
    }
    if (l->lock_ready) {
        for (int i = 0; i < l->nq; i++) close(l->q[i].fd);
        l->nq = 0;
        pthread_mutex_destroy(&l->lock);
        l->lock_ready = 0;
    }
    srv_relay_stop(l->relay);
    l->relay = NULL;
    if (l->fd >= 0) close(l->fd);
    l->fd = -1;
}
