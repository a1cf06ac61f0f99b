/*
 * /healthz and /readyz for load balancers: /healthz answers 200 while the server's event
 * loop runs; /readyz answers 200 when the database answers too, else 503 (the server then
 * refuses every action with `unavailable` and keeps its clients, see docs/deploy.md). With a
 * shared store the answer is the store worker's last call or probe (db_worker.c, at most a
 * second old): a probe never waits for the database on the network thread.
 */
#include <libwebsockets.h>
#include <string.h>

#include "server/health.h"
#include "server/srv.h"

typedef struct health_sess {
    char body[96];
} health_sess;

int srv_health_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                        size_t len) {
    health_sess *h = user;
    struct lws_context *ctx = lws_get_context(wsi);
    srv *s = ctx ? lws_context_user(ctx) : NULL;
    switch (reason) {
    case LWS_CALLBACK_HTTP: {
        char uri[32] = "";
        lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
        int ready = !strcmp(uri, "/readyz");
        if (!ready && strcmp(uri, "/healthz")) return lws_callback_http_dummy(wsi, reason, user, in, len);
        int ok = !ready || (s && srv_db_ready(s));
        if (!ready) snprintf(h->body, sizeof h->body, "ok\n");
        else if (ok) snprintf(h->body, sizeof h->body, "ready: the database (%s) answers\n",
                              rv_store_kind(s->store));
        else snprintf(h->body, sizeof h->body, "not ready: the database does not answer\n");
        unsigned char buf[LWS_PRE + 512], *start = buf + LWS_PRE, *p = start,
                                          *end = buf + sizeof buf - 1;
        if (lws_add_http_common_headers(wsi, ok ? HTTP_STATUS_OK : HTTP_STATUS_SERVICE_UNAVAILABLE,
                                        "text/plain", strlen(h->body), &p, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                         (const unsigned char *)"no-store", 8, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return 1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    case LWS_CALLBACK_HTTP_WRITEABLE: {
        size_t n = strlen(h->body);
        unsigned char buf[LWS_PRE + sizeof h->body];
        memcpy(buf + LWS_PRE, h->body, n);
        if (lws_write(wsi, buf + LWS_PRE, n, LWS_WRITE_HTTP_FINAL) != (int)n) return 1;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}
