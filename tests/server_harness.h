/*
 * The harness of the server tests (and of tests/pg_cluster.c): `renversi serve` in a child
 * process, started with options (database, --origin, a descriptor limit, the AI lease, stderr
 * to a file) and stopped; its memory (VmRSS) and CPU time read from /proc; and a client's
 * messages received by type. Everything is static inline: a test uses what it needs.
 */
#ifndef RV_SERVER_HARNESS_H
#define RV_SERVER_HARNESS_H

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "server/server.h"
#include "test.h"
#include "ws_client.h"

typedef struct harness_opts {
    const char *db;
    const char *web;
    const char *origin;   /* --origin, or NULL */
    long nofile;          /* RLIMIT_NOFILE (soft and hard) for the server, 0: unchanged */
    const char *errfile;  /* the server's stderr goes here, NULL: inherited */
    int ai_lease_s;       /* --ai-lease (a shared database), 0: the default */
} harness_opts;

static inline void harness_ready(int port, void *arg) {
    int fd = *(int *)arg;
    if (write(fd, &port, sizeof port) != (ssize_t)sizeof port) _exit(3);
    close(fd);
}

/* Starts a server; returns its pid (port in *port, 0 when it did not start). */
static inline pid_t harness_start(const harness_opts *ho, int *port) {
    int p[2];
    if (pipe(p)) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        int wfd = p[1];
        if (ho->errfile) {
            int fd = open(ho->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) dup2(fd, 2), close(fd);
        }
        if (ho->nofile) {
            struct rlimit rl;
            getrlimit(RLIMIT_NOFILE, &rl);
            /* Both limits, as `ulimit -n` does (the server raises a soft limit to the hard). */
            rl.rlim_cur = rl.rlim_max = (rlim_t)ho->nofile;
            setrlimit(RLIMIT_NOFILE, &rl);
        }
        rv_server_opts o = {.host = "127.0.0.1", .port = 0, .db = ho->db, .web = ho->web,
                            .quiet = 1, .origin = ho->origin, .ready = harness_ready,
                            .ready_arg = &wfd, .ai_lease_s = ho->ai_lease_s};
        /* exit, not _exit: under the sanitizers the leak check runs when the server stops. */
        exit(rv_server_run(&o));
    }
    close(p[1]);
    *port = 0;
    if (read(p[0], port, sizeof *port) != (ssize_t)sizeof *port) *port = 0;
    close(p[0]);
    return pid;
}

/* Stops the server; returns its exit code (-1 when killed by the signal). */
static inline int harness_stop(pid_t pid, int sig) {
    kill(pid, sig);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Resident memory of a process in kB (VmRSS), -1 if unknown. */
static inline long harness_rss_kb(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

/* CPU time (user + system) of a process in clock ticks, -1 if unknown. */
static inline long harness_cpu_ticks(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    /* After the name: state (field 3) ... utime is field 14, stime 15. */
    long ut = 0, st = 0;
    int field = 2;
    for (char *t = strtok(p + 1, " "); t; t = strtok(NULL, " ")) {
        field++;
        if (field == 14) ut = atol(t);
        if (field == 15) {
            st = atol(t);
            break;
        }
    }
    return ut + st;
}

static inline double harness_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The next message, whatever it is (NULL on timeout). */
static inline cJSON *harness_recv_any(ws_conn *c, int timeout_ms) {
    char *m;
    if (ws_recv(c, &m, timeout_ms) <= 0) return NULL;
    cJSON *j = cJSON_Parse(m);
    free(m);
    return j;
}

/* Receives messages until one of this type (others are dropped: a caller that needs one of
   them later, or cannot know their order, reads with harness_recv_any); NULL on timeout. */
static inline cJSON *harness_recv_type(ws_conn *c, const char *type, int timeout_ms) {
    double end = harness_now() + timeout_ms / 1000.0;
    for (;;) {
        int left = (int)((end - harness_now()) * 1000);
        if (left <= 0) return NULL;
        cJSON *j = harness_recv_any(c, left);
        if (!j) return NULL;
        const cJSON *t = cJSON_GetObjectItem(j, "type");
        if (cJSON_IsString(t) && !strcmp(t->valuestring, type)) return j;
        cJSON_Delete(j);
    }
}

/* Drops the messages that come until none has for 150 ms. */
static inline void harness_drain(ws_conn *c) {
    cJSON *j;
    while ((j = harness_recv_any(c, 150))) cJSON_Delete(j);
}

/* The string member k of j ("" when there is none). */
static inline const char *harness_str(const cJSON *j, const char *k) {
    const cJSON *v = j ? cJSON_GetObjectItem(j, k) : NULL;
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The number of moves in a state message. */
static inline int harness_nmoves(const cJSON *state) {
    return cJSON_GetArraySize(cJSON_GetObjectItem(state, "moves"));
}

/* A client in a room: its connection and what `joined` told it. */
typedef struct seat {
    ws_conn c;
    int inst;             /* the server it is connected to (tests with several) */
    char seat[16], token[80], room[32];
} seat;

/* How long a test waits for an answer the server owes (through its store worker and the
   database, on a loaded machine): a guard against a hang, not a measure. */
#define HARNESS_WAIT_MS 30000

/* Reads the `joined` answer into s (a failed check when none comes within HARNESS_WAIT_MS). */
static inline void harness_read_joined(seat *s) {
    cJSON *j = harness_recv_type(&s->c, "joined", HARNESS_WAIT_MS);
    CHECK(j != NULL);
    snprintf(s->seat, sizeof s->seat, "%s", harness_str(j, "seat"));
    snprintf(s->token, sizeof s->token, "%s", harness_str(j, "token"));
    snprintf(s->room, sizeof s->room, "%s", harness_str(j, "room"));
    cJSON_Delete(j);
}

/* A plain TCP connection to the server (no handshake), connecting in the background (a full
   listen queue must not stall the caller): -1 on failure. */
static inline int harness_tcp(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

#endif
