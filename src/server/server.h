/*
 * `renversi serve`: one libwebsockets process serving web/ over HTTP and the
 * JSON game protocol on /ws (docs/protocol-web.md), with SQLite as the store.
 *
 * Threads: the network thread runs libwebsockets, the rooms and the store; an
 * accept thread (listen.c) and the AI worker threads (ai_worker.c) hand their
 * results to it through lws_cancel_service() (LWS_CALLBACK_EVENT_WAIT_CANCELLED).
 */
#ifndef RV_SERVER_H
#define RV_SERVER_H

#include <signal.h>

typedef struct rv_server_opts {
    const char *host;  /* interface address to listen on, "127.0.0.1" by default */
    int port;          /* 0 = any free port (reported through ready) */
    const char *db;    /* SQLite file path or ":memory:", or a PostgreSQL URL (store.h) */
    const char *web;   /* directory with index.html */
    int quiet;         /* 1: no "listening" line on stderr */
    const char *origin; /* allowed WebSocket Origins, comma-separated; NULL or "": the
                           Origin must name the host the page was asked from */
    int ai_lease_s;    /* a shared store's AI job passes to another server after this many
                          seconds without an answer (0: SRV_AI_LEASE_S) */
    /* Called once listening, with the actual port. */
    void (*ready)(int port, void *arg);
    void *ready_arg;
    /* The server returns when *stop becomes non-zero (NULL: SIGINT/SIGTERM stop it). */
    volatile sig_atomic_t *stop;
} rv_server_opts;

/* Runs the server until stopped. Returns 0, or 2 after printing why it could not start. */
int rv_server_run(const rv_server_opts *opts);

#endif
