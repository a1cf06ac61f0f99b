/*
 * RV_SERVE_TRACE=FILE: one line per stage of every move, for finding where a slow move's
 * time went (bench/trace.py joins them with bench/load.c's own record of each move):
 *   STAGE NS WORDS...   NS is CLOCK_MONOTONIC (rv_clock_ns), the same clock in every process
 * on the machine. Stages: `sub` (the network thread hands a move to the store worker: room,
 * game, moves before it, when its message arrived), `c0`/`c1` (the store worker sends the
 * commit / has its answer: game, moves before, batch size), `done` (the network thread has
 * the answer: room, moves before), `heard` (the watch thread received a notice: its text),
 * `apply` (the network thread applied a change heard: room, moves before); for the
 * computer's moves and hints: `mv` (the network thread took a player's move: room, moves
 * before), `aiq` (a job queued: room, moves, hint, jobs queued with it), `ai0` (a worker
 * starts it: room, moves, hint, its time in ms, jobs still queued), `ai1` (its answer: room,
 * moves, hint, status), `aix` (a queued job withdrawn: room, moves, hint, jobs left), `aid`
 * (the network thread has the answer: room, moves, hint, 1 when the room still wants it);
 * `wr` (libwebsockets may write to a seated player: room, moves, 1 when the message is a
 * state). aiq, ai0 and aix are written under the queue's lock, in its order (the soak test
 * replays them). Off (one test of
 * a pointer) unless the variable is set; meant for load tests, not for production.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "renversi/core.h"
#include "server/srv.h"

void srv_trace_open(srv *s) {
    const char *path = getenv("RV_SERVE_TRACE");
    if (!path || !*path) return;
    char name[512];
    snprintf(name, sizeof name, "%s.%ld", path, (long)getpid());
    s->trace = fopen(name, "w");
    if (!s->trace) {
        fprintf(stderr, "renversi serve: RV_SERVE_TRACE: cannot write %s\n", name);
        return;
    }
    pthread_mutex_init(&s->trace_lock, NULL);
}

void srv_trace(srv *s, const char *stage, const char *fmt, ...) {
    if (!s->trace) return;
    uint64_t t = rv_clock_ns();
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&s->trace_lock);
    fprintf(s->trace, "%s %llu ", stage, (unsigned long long)t);
    vfprintf(s->trace, fmt, ap);
    fputc('\n', s->trace);
    pthread_mutex_unlock(&s->trace_lock);
    va_end(ap);
}

void srv_trace_close(srv *s) {
    if (!s->trace) return;
    fclose(s->trace);
    s->trace = NULL;
    pthread_mutex_destroy(&s->trace_lock);
}
