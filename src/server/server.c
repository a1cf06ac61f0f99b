/* `renversi serve`: the libwebsockets context, the HTTP mount of web/ and the /ws protocol. */
#include "server/server.h"

#include <ev.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "renversi/core.h"
#include "server/health.h"
#include "server/srv.h"

static volatile sig_atomic_t signal_stop;
static struct lws_context *signal_ctx;

static void on_signal(int sig) {
    (void)sig;
    signal_stop = 1;
    if (signal_ctx) lws_cancel_service(signal_ctx);
}

/* RFC 3629 UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int utf8_valid(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char ch = p[i];
        if (ch < 0x80) {
            i++;
            continue;
        }
        int len;
        unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
        if (ch >= 0xc2 && ch <= 0xdf) len = 2;
        else if (ch >= 0xe0 && ch <= 0xef) {
            len = 3;
            if (ch == 0xe0) lo = 0xa0;
            if (ch == 0xed) hi = 0x9f;
        } else if (ch >= 0xf0 && ch <= 0xf4) {
            len = 4;
            if (ch == 0xf0) lo = 0x90;
            if (ch == 0xf4) hi = 0x8f;
        } else {
            return 0;
        }
        if (n - i < (size_t)len) return 0;
        if (p[i + 1] < lo || p[i + 1] > hi) return 0;
        for (int k = 2; k < len; k++)
            if (p[i + k] < 0x80 || p[i + k] > 0xbf) return 0;
        i += (size_t)len;
    }
    return 1;
}

/* The rate limit: a token bucket per connection. Returns 1 when the message may go on. */
static int rate_ok(srv_conn *c) {
    uint64_t now = rv_clock_ns();
    c->bucket += (double)(now - c->bucket_ns) * 1e-9 * SRV_RATE_PER_SEC;
    if (c->bucket > SRV_RATE_BURST) c->bucket = SRV_RATE_BURST;
    c->bucket_ns = now;
    if (c->bucket >= 1.0) {
        c->bucket -= 1.0;
        return 1;
    }
    if (now - c->rate_err_ns > 1000000000ull) {
        c->rate_err_ns = now;
        srv_error(c, "rate_limited", "too many messages: slow down (this one was ignored)");
    }
    return 0;
}

static void on_receive(srv *s, srv_conn *c, struct lws *wsi, const char *in, size_t len) {
    if (lws_is_first_fragment(wsi)) {
        if (s && s->trace) c->rx_ns = rv_clock_ns();
        c->rxlen = 0;
        c->rx_too_big = 0;
    }
    if (!c->rx_too_big) {
        if (c->rxlen + len > SRV_MAX_MESSAGE) {
            c->rx_too_big = 1;
        } else {
            if (!c->rx && !(c->rx = malloc(SRV_MAX_MESSAGE + 1))) return;
            memcpy(c->rx + c->rxlen, in, len);
            c->rxlen += len;
        }
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return;
    if (!rate_ok(c)) return;
    if (c->rx_too_big) {
        char msg[96];
        snprintf(msg, sizeof msg, "message too large (the limit is %d bytes)", SRV_MAX_MESSAGE);
        srv_error(c, "too_big", msg);
        return;
    }
    if (lws_frame_is_binary(wsi)) {
        srv_error(c, "bad_json", "binary frames are not understood: send JSON text");
        return;
    }
    if (!utf8_valid((const unsigned char *)c->rx, c->rxlen)) {
        srv_error(c, "bad_json", "the message is not valid UTF-8 text");
        return;
    }
    c->rx[c->rxlen] = 0;
    srv_handle(s, c, c->rx, c->rxlen);
}

/* Case-insensitive equality of a and the n bytes at b. */
static int same_text(const char *a, const char *b, size_t n) {
    return strlen(a) == n && !strncasecmp(a, b, n);
}

/*
 * Whether a WebSocket upgrade may go on: a browser sends the page's Origin, and a page from
 * another site must not play (or read rooms) with the visitor's seats. Without --origin the
 * Origin must name the host the request was sent to; with it, one of the listed origins.
 * No Origin at all: not a browser, which could send any Origin it liked anyway.
 */
static int origin_ok(const srv *s, struct lws *wsi) {
    char origin[256], host[256];
    int total = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (total <= 0) return 1;
    if (total >= (int)sizeof origin || lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return 0;
    if (s->origin_list) {
        const char *p = s->origin_list;
        while (*p) {
            size_t n = strcspn(p, ",");
            while (n && p[n - 1] == ' ') n--;
            if (same_text(origin, p, n)) return 1;
            p += strcspn(p, ",");
            while (*p == ',' || *p == ' ') p++;
        }
        return 0;
    }
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0) return 0;
    const char *rest = !strncasecmp(origin, "http://", 7)    ? origin + 7
                       : !strncasecmp(origin, "https://", 8) ? origin + 8
                                                             : NULL;
    return rest && !strcasecmp(rest, host);
}


static int callback_game(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                         size_t len) {
    srv_conn *c = user;
    struct lws_context *ctx = lws_get_context(wsi);
    srv *s = ctx ? lws_context_user(ctx) : NULL;
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        /* Non-zero refuses the upgrade (HTTP 403). */
        return s && !origin_ok(s, wsi);
    case LWS_CALLBACK_ESTABLISHED: {
        char uri[64] = "";
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) < 0 || strcmp(uri, "/ws") != 0)
            return -1; /* the game protocol lives on /ws only */
        /* The relay held what the client sent after its handshake: frames from here on,
           checked for masking before libwebsockets reads them (relay.c). */
        if (s) srv_relay_upgraded(s->listener.relay, (uint64_t)(uintptr_t)lws_get_opaque_user_data(wsi));
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        c->queues = s ? &s->out : NULL;
        c->bucket = SRV_RATE_BURST;
        c->bucket_ns = rv_clock_ns();
        break;
    }
    case LWS_CALLBACK_RECEIVE:
        on_receive(s, c, wsi, in, len);
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (c->closing) {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, NULL, 0);
            return -1;
        }
        if (s && s->trace && c->seat && c->room && c->qhead)
            srv_trace(s, "wr", "%s %d %d", c->room->rec.id, rv_game_nmoves(&c->room->game),
                      c->qsfirst == c->qhead);
        if (srv_queue_write(c)) return -1;
        break;
    }
    case LWS_CALLBACK_CLOSED:
        if (s && c->wsi) srv_conn_closed(s, c);
        srv_queue_free(c);
        c->wsi = NULL;
        break;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (s) {
            srv_listen_adopt(s, lws_get_vhost_by_name(ctx, "renversi"));
            srv_ai_collect(s);
            srv_db_collect(s);
            srv_shared_collect(s);
        }
        break;
    default:
        /* Plain HTTP (the files of web/) may land on this protocol as the vhost's default:
           the stock handler serves them and ends each transaction, so keep-alive works. */
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"http", lws_callback_http_dummy, 0, 0, 0, NULL, 0},
    {"renversi", callback_game, sizeof(srv_conn), SRV_MAX_MESSAGE, 0, NULL, 0},
    {"renversi-health", srv_health_callback, 96, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* Browsers that send no subprotocol get the game protocol on /ws all the same. */
static const struct lws_protocol_vhost_options pvo_default = {NULL, NULL, "default", "1"};
static const struct lws_protocol_vhost_options pvo = {NULL, &pvo_default, "renversi", ""};

/* File types of web/ (libwebsockets' own table lacks some). */
static const struct lws_protocol_vhost_options mime_png = {NULL, NULL, ".png", "image/png"};
static const struct lws_protocol_vhost_options mime_svg = {&mime_png, NULL, ".svg", "image/svg+xml"};
static const struct lws_protocol_vhost_options mime_css = {&mime_svg, NULL, ".css", "text/css"};
static const struct lws_protocol_vhost_options mime_js = {&mime_css, NULL, ".js",
                                                          "text/javascript"};

/* A connection quiet for 30 s is pinged; one that has not answered for 70 s is dropped
   (a phone that went away), so its seat shows as away. */
static const lws_retry_bo_t idle_policy = {.secs_since_valid_ping = 30,
                                           .secs_since_valid_hangup = 70};

/* The rooms' periodic work (AI retries), every SRV_TICK_MS on the network thread. */
typedef struct srv_tick {
    lws_sorted_usec_list_t sul;
    srv *s;
    int relay_in_loop;
} srv_tick;

/* The relay's sockets have something (the relay on the network thread). */
typedef struct srv_relay_watch {
    ev_io io;
    srv_relay *relay;
    int busy;                  /* pairs still moving: served again before waiting */
} srv_relay_watch;

static void on_relay(struct ev_loop *loop, ev_io *w, int revents) {
    (void)loop;
    (void)revents;
    srv_relay_watch *rw = (srv_relay_watch *)w;
    rw->busy = srv_relay_run(rw->relay);
}

static void on_tick(lws_sorted_usec_list_t *sul) {
    srv_tick *t = lws_container_of(sul, srv_tick, sul);
    /* The relay's deadlines (lingering, refused clients) when it runs on this thread. */
    if (t->relay_in_loop) srv_relay_run(t->s->listener.relay);
    srv_rooms_tick(t->s);
    srv_shared_tick(t->s);
    lws_sul_schedule(t->s->ctx, 0, &t->sul, on_tick, (lws_usec_t)SRV_TICK_MS * 1000);
}

int rv_server_run(const rv_server_opts *o) {
    srv *s = calloc(1, sizeof *s);
    if (!s) return 2;
    s->listener.fd = -1;
    s->origin_list = o->origin && *o->origin ? o->origin : NULL;
    /* A file size limit (RLIMIT_FSIZE) must fail the write, not kill the server. */
    signal(SIGXFSZ, SIG_IGN);
    char err[512];
    s->store = rv_store_open(o->db, err, sizeof err);
    if (!s->store) {
        fprintf(stderr, "renversi serve: %s\n", err);
        free(s);
        return 2;
    }
    if (srv_listen_open(&s->listener, o->host, o->port, err, sizeof err)) {
        fprintf(stderr, "renversi serve: %s\n", err);
        rv_store_close(s->store);
        free(s);
        return 2;
    }
    struct lws_http_mount mount;
    memset(&mount, 0, sizeof mount);
    mount.mountpoint = "/";
    mount.mountpoint_len = 1;
    mount.origin = o->web;
    mount.def = "index.html";
    mount.origin_protocol = LWSMPRO_FILE;
    mount.extra_mimetypes = &mime_js;
    mount.cache_max_age = 0;
    /* /healthz and /readyz for load balancers (health.c). */
    struct lws_http_mount health[2];
    memset(health, 0, sizeof health);
    for (int i = 0; i < 2; i++) {
        health[i].mountpoint = i ? "/readyz" : "/healthz";
        health[i].mountpoint_len = (unsigned char)strlen(health[i].mountpoint);
        health[i].origin = "renversi-health";
        health[i].origin_protocol = LWSMPRO_CALLBACK;
        health[i].mount_next = i ? &mount : &health[1];
    }

    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    /* No listening socket of its own: listen.c accepts and hands connections over. */
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
    info.protocols = protocols;
    info.pvo = &pvo;
    info.mounts = &health[0];
    info.user = s;
    info.vhost_name = "renversi";
    info.server_string = "renversi";
    /* UTF-8 is checked by the server itself (bad_json, the connection lives on). */
    info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE |
                   LWS_SERVER_OPTION_DISABLE_IPV6;
    info.fd_limit_per_thread = 0;
    info.timeout_secs = 20;
    info.retry_and_idle_policy = &idle_policy;
    /* The network thread waits on epoll through libev (libwebsockets' libev back-end, our
       own loop): the default loop polls every connection at each wake, which at 1,000
       connections was a quarter of the server's CPU. Without the back-end (a libwebsockets
       built without it, its plug-in not installed): the default loop. */
    struct ev_loop *loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV);
    void *foreign[1] = {loop};
    if (loop && !getenv("RV_SERVE_POLL")) {
        info.options |= LWS_SERVER_OPTION_LIBEV;
        info.foreign_loops = foreign;
        s->ctx = lws_create_context(&info);
        if (!s->ctx) {
            fprintf(stderr, "renversi serve: libwebsockets has no libev loop (install "
                            "libwebsockets-evlib-ev): polling instead\n");
            info.options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
            info.foreign_loops = NULL;
        }
    }
    if (!info.foreign_loops) {
        if (loop) ev_loop_destroy(loop);
        loop = NULL;
        s->ctx = lws_create_context(&info);
    } else if (s->ctx) {
        /* On an event library, libwebsockets initialises the protocols from a timer that
           is armed only after the first event, so a client connecting at once got an
           uninitialised default protocol (no ESTABLISHED: the relay held its frames). The
           protocols now, and a first event (arming the timers, ours included). */
        lws_protocol_init(s->ctx);
        lws_cancel_service(s->ctx);
    }
    if (!s->ctx) {
        fprintf(stderr, "renversi serve: cannot start libwebsockets\n");
        srv_listen_close(s);
        rv_store_close(s->store);
        free(s);
        return 2;
    }
    int port = s->listener.port;
    srv_trace_open(s);
    /* On the libev loop the relay is served by this thread: no hop between two threads for
       every message each way. */
    if (srv_ai_start(s) || srv_listen_start(s, loop != NULL)) {
        fprintf(stderr, "renversi serve: cannot start the AI and accept threads\n");
        srv_listen_close(s);
        srv_ai_stop(s);
        lws_context_destroy(s->ctx);
        if (loop) ev_loop_destroy(loop);
        srv_trace_close(s);
        rv_store_close(s->store);
        free(s);
        return 2;
    }
    s->db = o->db;
    s->ai_lease_s = o->ai_lease_s > 0 ? o->ai_lease_s : SRV_AI_LEASE_S;
    int shared_failed = srv_shared_start(s, err, sizeof err);
    if (shared_failed || srv_db_start(s, err, sizeof err)) {
        fprintf(stderr, "renversi serve: %s\n", err);
        if (!shared_failed) srv_shared_stop(s);
        srv_listen_close(s);
        srv_ai_stop(s);
        lws_context_destroy(s->ctx);
        if (loop) ev_loop_destroy(loop);
        srv_trace_close(s);
        rv_store_close(s->store);
        free(s);
        return 2;
    }
    /* The network thread never waits for a lost connection to come back (db_worker.c). */
    if (s->db_started) rv_store_set_nonblocking_reconnect(s->store);
    srv_tick tick;
    memset(&tick, 0, sizeof tick);
    tick.s = s;
    tick.relay_in_loop = loop != NULL;
    srv_relay_watch rw;
    memset(&rw, 0, sizeof rw);
    rw.relay = s->listener.relay;
    if (loop) {
        ev_io_init(&rw.io, on_relay, srv_relay_fd(rw.relay), EV_READ);
        ev_io_start(loop, &rw.io);
    }
    lws_sul_schedule(s->ctx, 0, &tick.sul, on_tick, (lws_usec_t)SRV_TICK_MS * 1000);

    volatile sig_atomic_t *stop = o->stop;
    struct sigaction sa_int, sa_term;
    if (!stop) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        signal_ctx = s->ctx;
        signal_stop = 0;
        sigaction(SIGINT, &sa, &sa_int);
        sigaction(SIGTERM, &sa, &sa_term);
        stop = &signal_stop;
    }
    /* Announced only now: a SIGTERM sent as soon as the address is known stops it cleanly. */
    if (!o->quiet) {
        /* A PostgreSQL URL may hold a password: only the kind of store is printed. */
        int pg = strcmp(rv_store_kind(s->store), "sqlite") != 0;
        fprintf(stderr, "renversi serve: http://%s:%d/ (web %s, db %s)\n", o->host, port, o->web,
                pg ? "postgresql" : o->db);
    }
    if (o->ready) o->ready(port, o->ready_arg);
    while (!*stop) {
        if (loop) {
            ev_run(loop, rw.busy ? EVRUN_NOWAIT : EVRUN_ONCE); /* libwebsockets' callbacks */
            if (rw.busy) rw.busy = srv_relay_run(rw.relay);
        } else if (lws_service(s->ctx, 0) < 0) {
            break;
        }
        srv_rooms_flush(s);
    }
    if (!o->stop) {
        sigaction(SIGINT, &sa_int, NULL);
        sigaction(SIGTERM, &sa_term, NULL);
        signal_ctx = NULL;
    }
    lws_sul_cancel(&tick.sul);
    if (loop) ev_io_stop(loop, &rw.io);
    srv_listen_close(s);
    srv_shared_stop(s);
    srv_db_stop(s);
    srv_ai_stop(s);
    lws_context_destroy(s->ctx);
    if (loop) ev_loop_destroy(loop);
    srv_rooms_free(s);
    srv_trace_close(s);
    rv_store_close(s->store);
    free(s);
    return 0;
}
