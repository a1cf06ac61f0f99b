/*
 * Internal to `renversi match`: engines (internal levels or external programs
 * speaking Gomocup / NBoard), one game, and the match bookkeeping.
 */
#ifndef RV_CLI_MATCH_H
#define RV_CLI_MATCH_H

#include <stdio.h>
#include <sys/types.h>

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
    rv_gomoku_ai *ai;   /* ENG_LEVEL, Gomoku */
    rv_reversi_ai *rai; /* ENG_LEVEL, Othello */
    pid_t pid;          /* external: the child process, 0 when not running */
    int to_fd, from_fd;
    char buf[8192]; /* bytes read but not yet consumed */
    size_t nbuf;
    int greeted; /* NBoard: the protocol version was sent */
} engine;

/* Time control of a match: per move and/or per game, in milliseconds (0 = none). */
typedef struct match_tc {
    int64_t turn_ms;
    int64_t game_ms;
    int64_t tolerance_ms; /* lateness forgiven before a time loss */
} match_tc;

/* How a game ended. */
enum { END_NONE, END_FIVE, END_DRAW, END_FORBIDDEN, END_ILLEGAL, END_TIME, END_CRASH };

typedef struct game_result {
    int winner; /* 0 draw, 1 the engine with black, 2 the engine with white */
    int how;    /* END_* */
    char detail[256];
} game_result;

/* Parses level:N / pbrain:CMD / nboard:CMD. 0 on success. */
int engine_spec_parse(const char *s, engine_spec *out);

/* Starts / stops an engine (for Othello when reversi); engine_start returns 0 on success. */
int engine_start(engine *e, const engine_spec *spec, int reversi);
void engine_stop(engine *e);

/* Sends one line (adds "\n"). 0 on success. */
int engine_send(engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads one line (without the line end) within timeout_ms (< 0: wait forever).
   Returns the length, -1 on end of file or error, -2 on timeout. */
int engine_read_line(engine *e, char *line, size_t cap, int64_t timeout_ms);

/* Reads the engine's next line, waiting until wait_ms after t0 at most (wait_ms < 0: no
   limit). Returns the length, -2 on timeout, or -1 with why set when the engine exited. */
int engine_next_line(engine *e, double t0, int64_t wait_ms, char *line, size_t cap, char *why,
                     size_t why_size);

/*
 * Plays one Gomoku game from the opening (n moves) between black and white
 * under the rule/size/time control; records the moves and times in psq.
 */
void match_gomoku_game(engine *black, engine *white, rv_gomoku_rule rule, int size,
                       const rv_gomoku_point *opening, int nopening, const match_tc *tc,
                       game_result *res, rv_gomoku_point *moves, int32_t *times, int *nmoves);

/*
 * Plays one Othello game from the opening (n moves from the start position);
 * records the moves (RV_REVERSI_PASS for passes) and times.
 */
void match_reversi_game(engine *black, engine *white, const uint8_t *opening, int nopening,
                        const match_tc *tc, game_result *res, uint8_t *moves, int32_t *times,
                        int *nmoves, int *black_discs, int *white_discs);

/* The built-in Othello openings: every 4-ply line from f5 (the other first moves are
   symmetric). Returns the number written. */
int match_reversi_openings(uint8_t (*out)[4], int max);

/* Builds the built-in balanced opening set (the 26 three-stone shapes). */
int match_builtin_openings(int size, rv_gomoku_point (*out)[3], int max);

#endif
