/* `renversi serve`: the libwebsockets context, the HTTP mount of web/ and the /ws protocol. */
#include "server/server.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renversi/core.h"
#include "server/srv.h"

static volatile sig_atomic_t signal_stop;
static struct lws_context *signal_ctx;

static void on_signal(int sig) {
    (void)sig;
    signal_stop = 1;
    if (signal_ctx) lws_cancel_service(signal_ctx);
}

void srv_send(srv_conn *c, const char *text, size_t len) {
    if (c->closing) return;
    if (c->qlen >= SRV_MAX_QUEUE) {
        /* A client that does not read its messages is dropped rather than buffered forever. */
        c->closing = 1;
        if (c->wsi) lws_callback_on_writable(c->wsi);
        return;
    }
    srv_msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) return;
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    if (c->qtail) c->qtail->next = m;
    else c->qhead = m;
    c->qtail = m;
    c->qlen++;
    if (c->wsi) lws_callback_on_writable(c->wsi); /* no wsi: a test harness reads the queue */
}

static void conn_free_queue(srv_conn *c) {
    while (c->qhead) {
        srv_msg *m = c->qhead;
        c->qhead = m->next;
        free(m);
    }
    c->qtail = NULL;
    c->qlen = 0;
    free(c->rx);
    c->rx = NULL;
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
    c->rx[c->rxlen] = 0;
    srv_handle(s, c, c->rx, c->rxlen);
}

static int callback_game(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                         size_t len) {
    srv_conn *c = user;
    struct lws_context *ctx = lws_get_context(wsi);
    srv *s = ctx ? lws_context_user(ctx) : NULL;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED: {
        char uri[64] = "";
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) < 0 || strcmp(uri, "/ws") != 0)
            return -1; /* the game protocol lives on /ws only */
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
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
        srv_msg *m = c->qhead;
        if (!m) break;
        int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        if (n < (int)m->len) return -1;
        c->qhead = m->next;
        if (!c->qhead) c->qtail = NULL;
        c->qlen--;
        free(m);
        if (c->qhead) lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_CLOSED:
        if (s && c->wsi) srv_conn_closed(s, c);
        conn_free_queue(c);
        c->wsi = NULL;
        break;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (s) srv_ai_collect(s);
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

int rv_server_run(const rv_server_opts *o) {
    srv *s = calloc(1, sizeof *s);
    if (!s) return 2;
    char err[512];
    s->store = rv_store_open(o->db, err, sizeof err);
    if (!s->store) {
        fprintf(stderr, "renversi serve: %s\n", err);
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

    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = o->port;
    info.iface = o->host;
    info.protocols = protocols;
    info.pvo = &pvo;
    info.mounts = &mount;
    info.user = s;
    info.vhost_name = "renversi";
    info.server_string = "renversi";
    info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE |
                   LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
    info.fd_limit_per_thread = 0;
    info.timeout_secs = 20;
    info.retry_and_idle_policy = &idle_policy;
    s->ctx = lws_create_context(&info);
    if (!s->ctx) {
        fprintf(stderr, "renversi serve: cannot listen on %s:%d\n", o->host, o->port);
        rv_store_close(s->store);
        free(s);
        return 2;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(s->ctx, "renversi");
    int port = vh ? lws_get_vhost_listen_port(vh) : o->port;
    if (srv_ai_start(s)) {
        fprintf(stderr, "renversi serve: cannot start the AI thread\n");
        lws_context_destroy(s->ctx);
        rv_store_close(s->store);
        free(s);
        return 2;
    }
    if (!o->quiet) {
        /* A PostgreSQL URL may hold a password: only the kind of store is printed. */
        int pg = strcmp(rv_store_kind(s->store), "sqlite") != 0;
        fprintf(stderr, "renversi serve: http://%s:%d/ (web %s, db %s)\n", o->host, port, o->web,
                pg ? "postgresql" : o->db);
    }
    if (o->ready) o->ready(port, o->ready_arg);

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
    while (!*stop)
        if (lws_service(s->ctx, 0) < 0) break;
    if (!o->stop) {
        sigaction(SIGINT, &sa_int, NULL);
        sigaction(SIGTERM, &sa_term, NULL);
        signal_ctx = NULL;
    }
    srv_ai_stop(s);
    lws_context_destroy(s->ctx);
    srv_rooms_free(s);
    rv_store_close(s->store);
    free(s);
    return 0;
}
