/*
 * Engines for `renversi match`: internal levels, or child processes on pipes.
 * Each external engine runs in a process group of its own, so stopping it
 * (after the match, a time loss or a crash, or when the referee is killed by a
 * signal) takes whatever its command started with it.
 */
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "match/match.h"
#include "renversi/core.h"

int engine_spec_parse(const char *s, engine_spec *out) {
    memset(out, 0, sizeof *out);
    if (strncmp(s, "level:", 6) == 0) {
        char *end;
        long v = strtol(s + 6, &end, 10);
        if (end == s + 6 || v < RV_GOMOKU_AI_MIN_LEVEL || v > RV_GOMOKU_AI_MAX_LEVEL) return -1;
        if (!strcmp(end, ":simple")) out->simple_eval = 1;
        else if (*end) return -1;
        out->kind = ENG_LEVEL;
        out->level = (int)v;
        snprintf(out->name, sizeof out->name, "level:%ld%s", v, end);
        return 0;
    }
    const char *cmd = NULL;
    if (strncmp(s, "pbrain:", 7) == 0)
        out->kind = ENG_PBRAIN, cmd = s + 7;
    else if (strncmp(s, "nboard:", 7) == 0)
        out->kind = ENG_NBOARD, cmd = s + 7;
    if (!cmd || !*cmd) return -1;
    out->cmd = cmd;
    snprintf(out->name, sizeof out->name, "%.63s", s);
    return 0;
}

/* The process groups of the running external engines. A group is registered and
 * removed under reg_lock, which the signal thread (engine_guard_signals) also takes
 * before killing them all: no engine can be forked and missed. */
#define MAX_GROUPS 16
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
#define SEND_WAIT_MS 2000 /* an engine that reads nothing for this long is broken */
static atomic_int groups[MAX_GROUPS];

static void group_add(pid_t pg) {
    for (int i = 0; i < MAX_GROUPS; i++) {
        int zero = 0;
        if (atomic_compare_exchange_strong(&groups[i], &zero, (int)pg)) return;
    }
}

static void group_remove(pid_t pg) {
    for (int i = 0; i < MAX_GROUPS; i++) {
        int want = (int)pg;
        if (atomic_compare_exchange_strong(&groups[i], &want, 0)) return;
    }
}

/* SIGKILL to every registered group; the caller holds reg_lock. */
static void kill_groups(void) {
    for (int i = 0; i < MAX_GROUPS; i++) {
        int pg = atomic_load(&groups[i]);
        if (pg > 0) kill(-pg, SIGKILL);
    }
}

void engine_kill_all(void) {
    pthread_mutex_lock(&reg_lock);
    kill_groups();
    pthread_mutex_unlock(&reg_lock);
}

/* The signals that stop the referee (and so every engine). */
static void stop_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
}

/* Waits for a stopping signal; kills the engines, then dies of that signal. */
static void *signal_thread(void *arg) {
    sigset_t set;
    int sig = 0;
    (void)arg;
    stop_signals(&set);
    if (sigwait(&set, &sig) != 0) return NULL;
    pthread_mutex_lock(&reg_lock); /* kept: no engine starts after this */
    kill_groups();
    signal(sig, SIG_DFL);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached */
}

int engine_guard_signals(void) {
    sigset_t set;
    stop_signals(&set);
    /* blocked here and in every thread started later; only signal_thread takes them */
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    pthread_t t;
    if (pthread_create(&t, NULL, signal_thread, NULL) != 0) {
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        return -1;
    }
    pthread_detach(t);
    return 0;
}

int engine_start(engine *e, const engine_spec *spec, int reversi) {
    memset(e, 0, sizeof *e);
    e->spec = spec;
    e->reversi = reversi;
    e->to_fd = e->from_fd = -1;
    if (spec->kind == ENG_LEVEL) {
        if (reversi) {
            e->rai = rv_reversi_ai_new(16u << 20);
            if (e->rai && spec->simple_eval) rv_reversi_ai_set_eval(e->rai, RV_REVERSI_EVAL_SIMPLE);
        } else
            e->ai = rv_gomoku_ai_new(8u << 20);
        return e->ai || e->rai ? 0 : -1;
    }
    int in[2], out[2];
    if (pipe(in) != 0) return -1;
    if (pipe(out) != 0) {
        close(in[0]), close(in[1]);
        return -1;
    }
    /* Engines started later must not inherit this one's pipes: a child
     * holding them keeps the other engine from seeing end of input. */
    for (int k = 0; k < 2; k++) fcntl(in[k], F_SETFD, FD_CLOEXEC), fcntl(out[k], F_SETFD, FD_CLOEXEC);
    pthread_mutex_lock(&reg_lock);
    pid_t pid = fork();
    if (pid < 0) {
        pthread_mutex_unlock(&reg_lock);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        /* the referee ignores SIGPIPE and blocks the stopping signals; the engine must not
           inherit either */
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", spec->cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here, so the group exists before anyone signals it */
    group_add(pid);
    pthread_mutex_unlock(&reg_lock);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK); /* engine_send bounds its waits */
    close(in[0]);
    close(out[1]);
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    return 0;
}

void engine_stop(engine *e) {
    if (e->ai) rv_gomoku_ai_free(e->ai), e->ai = NULL;
    if (e->rai) rv_reversi_ai_free(e->rai), e->rai = NULL;
    if (e->pid > 0) {
        if (e->spec->kind == ENG_PBRAIN)
            engine_send(e, "END");
        else
            engine_send(e, "quit");
        close(e->to_fd);
        /* a moment to exit by itself; the leader stays a zombie (not reaped) so
           its group id cannot be reused before the kill below */
        for (int i = 0; i < 50; i++) {
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                si.si_pid == e->pid)
                break;
            usleep(10000);
        }
        pthread_mutex_lock(&reg_lock);
        kill(-e->pid, SIGKILL); /* the whole group: a wrapper's children too */
        kill(e->pid, SIGKILL);  /* in case it left its group */
        group_remove(e->pid);   /* before the reaping frees the group's number */
        pthread_mutex_unlock(&reg_lock);
        waitpid(e->pid, NULL, 0);
        close(e->from_fd);
        e->pid = 0;
        e->to_fd = e->from_fd = -1;
    }
}

int engine_restart(engine *e) {
    const engine_spec *spec = e->spec;
    int reversi = e->reversi;
    engine_stop(e);
    return engine_start(e, spec, reversi);
}

int engine_send(engine *e, const char *fmt, ...) {
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1) return -1;
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(e->to_fd, line + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) {
            /* the pipe is full: an engine that stops reading gets a bounded wait */
            struct pollfd p = {.fd = e->to_fd, .events = POLLOUT};
            int r = poll(&p, 1, SEND_WAIT_MS);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return -1;
            continue;
        }
        if (w <= 0) return -1;
        off += (int)w;
    }
    return 0;
}

/* One line within timeout_ms (< 0: no limit): its length, -1 at end of file, -2 on timeout. */
static int engine_read_line(engine *e, char *line, size_t cap, int64_t timeout_ms) {
    double deadline = rv_clock_seconds() + (double)timeout_ms / 1000.0;
    for (;;) {
        char *nl = NULL;
        for (size_t i = 0; i < e->nbuf; i++)
            if (e->buf[i] == '\n' || e->buf[i] == '\r') {
                nl = e->buf + i;
                break;
            }
        if (nl) {
            size_t len = (size_t)(nl - e->buf);
            size_t keep = len < cap - 1 ? len : cap - 1;
            memcpy(line, e->buf, keep);
            line[keep] = '\0';
            memmove(e->buf, nl + 1, e->nbuf - len - 1);
            e->nbuf -= len + 1;
            if (keep == 0) continue; /* the LF of CR LF, or a blank line */
            return (int)keep;
        }
        if (e->nbuf == sizeof e->buf) e->nbuf = 0; /* an endless line: drop it */
        int wait_ms = -1;
        if (timeout_ms >= 0) {
            double left = deadline - rv_clock_seconds();
            if (left <= 0) return -2;
            wait_ms = (int)(left * 1000.0) + 1;
        }
        struct pollfd p = {.fd = e->from_fd, .events = POLLIN};
        int r = poll(&p, 1, wait_ms);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return -2;
        ssize_t got = read(e->from_fd, e->buf + e->nbuf, sizeof e->buf - e->nbuf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        e->nbuf += (size_t)got;
    }
}

int engine_next_line(engine *e, double t0, int64_t wait_ms, char *line, size_t cap, char *why,
                     size_t why_size) {
    int64_t left = wait_ms < 0 ? -1 : wait_ms - (int64_t)((rv_clock_seconds() - t0) * 1000);
    if (wait_ms >= 0 && left < 0) left = 0;
    int r = engine_read_line(e, line, cap, left);
    if (r == -1) snprintf(why, why_size, "engine exited");
    return r;
}
