/*
 * Internal to `renversi match` (src/match/): engines (internal levels, or
 * external programs speaking Gomocup / NBoard), one refereed game, and the
 * match bookkeeping. The referee asks the library's rv_game (renversi/game.h)
 * for every rule and result; this folder only talks to engines and keeps time.
 */
#ifndef RV_MATCH_H
#define RV_MATCH_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "renversi/game.h"
#include "renversi/gomoku.h"
#include "renversi/gomoku_ai.h"
#include "renversi/reversi.h"
#include "renversi/reversi_ai.h"

enum { ENG_LEVEL, ENG_PBRAIN, ENG_NBOARD };

/* How an engine is given on the command line: level:N, pbrain:CMD, nboard:CMD. */
typedef struct engine_spec {
    int kind;
    int level;
    int simple_eval; /* Othello level:N:simple, the hand-weighted evaluation */
    const char *cmd;
    char name[64];
} engine_spec;

/* A running engine (one per game slot). */
typedef struct engine {
    const engine_spec *spec;
    int reversi;
    rv_gomoku_ai *ai;   /* ENG_LEVEL, Gomoku */
    rv_reversi_ai *rai; /* ENG_LEVEL, Othello */
    pid_t pid;          /* external: the child, leader of its own process group; 0 = none */
    int to_fd, from_fd;
    char buf[8192]; /* bytes read but not yet consumed */
    size_t nbuf;
    int greeted; /* NBoard: the session was opened and answered a ping */
} engine;

/* Time control of a match: per move and/or per game, in milliseconds (0 = none). */
typedef struct match_tc {
    int64_t turn_ms;
    int64_t game_ms;
    int64_t tolerance_ms; /* lateness forgiven before a time loss */
} match_tc;

/* What every game of a match shares. */
typedef struct match_setup {
    int reversi;
    rv_gomoku_rule rule; /* Gomoku family */
    int size;
    match_tc tc;
    int depth; /* --depth for NBoard engines, 0 = none given */
} match_setup;

/* How a game ended. */
enum { END_NONE, END_FIVE, END_DRAW, END_FORBIDDEN, END_ILLEGAL, END_TIME, END_CRASH };

typedef struct game_result {
    int winner; /* 0 draw, 1 the engine with black, 2 the engine with white */
    int how;    /* END_* (END_FIVE also for a Reversi game decided by the discs) */
    char detail[256];
} game_result;

/* ------------------------------------------------------------ engines (engine.c) */

/* Parses level:N / pbrain:CMD / nboard:CMD. 0 on success. */
int engine_spec_parse(const char *s, engine_spec *out);

/*
 * Starts an engine (for Othello when reversi): an internal one, or `sh -c CMD`
 * in a process group of its own with its stdin/stdout on pipes. 0 on success.
 */
int engine_start(engine *e, const engine_spec *spec, int reversi);

/*
 * Stops an engine: END / quit, a short grace, then SIGKILL to its whole
 * process group (what a wrapper script left behind goes too), and reaps it.
 */
void engine_stop(engine *e);

/* A fresh process for an external engine (after a time loss or a crash); 0 on success. */
int engine_restart(engine *e);

/* Kills every engine process group still registered. */
void engine_kill_all(void);

/*
 * From now on SIGINT, SIGTERM and SIGHUP kill every engine's process group before
 * they end the program (a thread waits for them; call before starting any other
 * thread, which then inherits the blocked mask). 0 on success.
 */
int engine_guard_signals(void);

/* Sends one line (adds "\n"). 0 on success. */
int engine_send(engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Reads the engine's next line, waiting until wait_ms after t0 at most
 * (wait_ms < 0: no limit). Returns the length, -2 on timeout, or -1 with
 * why set when the engine exited. A line longer than the buffer is dropped.
 */
int engine_next_line(engine *e, double t0, int64_t wait_ms, char *line, size_t cap, char *why,
                     size_t why_size);

/* ---------------------------------------------------------- protocols */

/*
 * How long an external engine may take to answer at the start of a game
 * (START, ping): one move's time when the match has one, at least 5 s, 30 s
 * without a time control. One deadline for the whole exchange.
 */
int64_t match_start_wait(const match_tc *tc);

/* Gomocup (pbrain.c): START and INFO for a game; 0 when the brain said OK. */
int pbrain_start(engine *e, const match_setup *ms, char *why, size_t why_size);
/* Asks a brain for its move in g. 0 ok, -1 protocol error/crash, -2 late. */
int pbrain_move(engine *e, const rv_game *g, const match_setup *ms, int64_t clock_left,
                int64_t wait_ms, int *x, int *y, char *why, size_t why_size);

/* NBoard (nboard_client.c): opens the session once per process (nboard 2, depth or
 * time, then ping/pong); 0 when the engine answered. */
int nboard_greet(engine *e, const match_setup *ms, char *why, size_t why_size);
/* Asks an NBoard engine for its move in g (times[i]: ms move i took). As pbrain_move. */
int nboard_move(engine *e, const rv_game *g, const int32_t *times, const match_setup *ms,
                int64_t wait_ms, int *x, int *y, char *why, size_t why_size);

/* ---------------------------------------------------------- one game (referee.c) */

/*
 * Plays one game between black and white from the opening already in g,
 * refereed by rv_game: every move goes through the rules, the result is
 * rv_game's. An illegal move, a protocol error, a crash or a late answer ends
 * the game against the engine at fault (recorded in g as a resignation or a
 * time loss). times[i] gets the milliseconds move i took (0 for the opening
 * and for forced passes).
 */
void match_game(engine *black, engine *white, const match_setup *ms, rv_game *g,
                int32_t *times, game_result *res);

/* ------------------------------------------------------------ openings */

/* The built-in Othello openings: every 4-ply line from f5 (the other first moves are
   symmetric). Returns the number written. */
int match_reversi_openings(uint8_t (*out)[4], int max);

/* Builds the built-in balanced opening set (the 26 three-stone shapes). */
int match_builtin_openings(int size, rv_gomoku_point (*out)[3], int max);

#endif
