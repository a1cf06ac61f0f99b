/*
 * renversi — Reversi/Othello notation and records: squares, transcripts,
 * OBF positions and GGF games (docs/formats.md describes each format).
 *
 * Readers take a pointer and a length (the text need not be NUL-terminated),
 * never read past it, and on failure fill an rv_reversi_error whose message
 * names the place (offset, and line for multi-line input) and the problem;
 * their other outputs are then left untouched. Writers take a buffer and its
 * size, always NUL-terminate when cap > 0, and return the length the full
 * text needs (like snprintf): a result >= cap means it was cut short.
 */
#ifndef RENVERSI_REVERSI_RECORD_H
#define RENVERSI_REVERSI_RECORD_H

#include "renversi/reversi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a reader failed. offset is 0-based in the input, line
 * 1-based; message is one line, e.g. "offset 4: bad square 'z9' ...".
 * parse holds the same failure in the library-wide form of common.h
 * (offset, the offending token, a static "expected" description). */
typedef struct rv_reversi_error {
    long offset;
    long line;
    char message[160];
    rv_parse_error parse;
} rv_reversi_error;

/* ---------------------------------------------------------------- squares */

/*
 * Reads one square from the 2 characters at s: "a1".."h8" (column letter,
 * row digit, rows counted from the top; either case) -> 0..63, or "pa" (a
 * pass) -> RV_REVERSI_PASS. Returns RV_EINVAL for anything else (or len < 2).
 */
rv_status rv_reversi_square_parse(const char *s, size_t len, int *sq);

/* Writes sq's name ("a1", "pa" for RV_REVERSI_PASS; upper case if upper) and
 * a NUL into out (3 bytes). Returns out, or "??" for a value out of range. */
const char *rv_reversi_square_format(int sq, int upper, char out[3]);

/* ---------------------------------------------------------------- transcripts */

/*
 * Reads a transcript: squares written together or with separators (spaces,
 * tabs, newlines, ',', ';', '-', '.'), "pa" for an explicit pass, either
 * case, e.g. "f5d6c3d3c4" or "F5 d6 C3". At most cap squares go to moves[],
 * their number to *n. Syntax only; rv_reversi_transcript_replay() checks the
 * rules. Fails with RV_EINVAL (bad character or square) or RV_ETOOLONG
 * (more than cap squares).
 */
rv_status rv_reversi_transcript_parse(const char *text, size_t len, uint8_t *moves, int cap,
                                      int *n, rv_reversi_error *err);

/*
 * Plays moves[0..n) on g from its current position. A pass that the
 * transcript leaves out is inserted when the side to move has no move and the
 * game is not over (so "f5d6..." transcripts without "pa" replay). Stops at
 * the first move the rules reject, returning its status (RV_EILLEGAL,
 * RV_EOCCUPIED, RV_EOVER, RV_ETOOLONG) with its index in *failed (0-based);
 * g then holds the moves before it. RV_OK when all were played.
 */
rv_status rv_reversi_transcript_replay(rv_reversi_game *g, const uint8_t *moves, int n,
                                       int *failed);

/*
 * Writes the moves of a game as a transcript ("f5d6c3"): lower case, no
 * separators, passes as "pa" if with_passes, otherwise left out (they are
 * implied). Returns the length the full text needs (see top of file).
 */
size_t rv_reversi_transcript_format(const uint8_t *moves, int n, int with_passes, char *out,
                                    size_t cap);

/* ---------------------------------------------------------------- OBF */

/* An OBF line: a position and optionally scored moves ("A2:+38;"). */
typedef struct rv_reversi_obf {
    rv_reversi_pos pos;
    int nscores;
    uint8_t moves[64]; /* squares 0..63, or RV_REVERSI_PASS */
    int8_t scores[64]; /* exact disc differences, -64..64 */
} rv_reversi_obf;

/*
 * Reads one OBF line: 64 board characters a1..h8 ('X' or '*' black, 'O'
 * white, '-' or '.' empty), blanks, the side to move ('X'/'*' or 'O'), then
 * optionally ';' and "MOVE:SCORE;" pairs (MOVE a square or PA, SCORE a signed
 * integer -64..64). Rejects impossible boards (an empty centre square: every
 * game starts with d4 e4 d5 e5 filled). with_moves = 0 ignores everything
 * from the first ';' on. Fails with RV_EINVAL (message in *err).
 */
rv_status rv_reversi_obf_parse(const char *line, size_t len, int with_moves,
                               rv_reversi_obf *obf, rv_reversi_error *err);

/* Writes an OBF line: board with 'X', 'O', '-', " X;" or " O;", then the
 * pairs " F5:+12;" (moves upper case). Returns the length needed. */
size_t rv_reversi_obf_format(const rv_reversi_obf *obf, char *out, size_t cap);

/* Writes just the 64 board characters and the side ("...X O"), no ';'. */
size_t rv_reversi_board_format(const rv_reversi_pos *pos, char *out, size_t cap);

/* ---------------------------------------------------------------- GGF */

/* One GGF move: square (RV_REVERSI_PASS for PA), optional eval and time. */
typedef struct rv_reversi_ggf_move {
    uint8_t sq;
    uint8_t has_eval, has_time;
    double eval;    /* disc difference for the mover, as written */
    double seconds; /* time taken, as written */
} rv_reversi_ggf_move;

#define RV_REVERSI_GGF_TAG 64 /* longest tag value kept (longer ones are cut) */

/* A GGF game. Tags the format defines but renversi does not use are skipped;
 * the ones below are kept as text (cut to RV_REVERSI_GGF_TAG - 1 bytes). */
typedef struct rv_reversi_ggf {
    char pc[RV_REVERSI_GGF_TAG], dt[RV_REVERSI_GGF_TAG]; /* place, date */
    char pb[RV_REVERSI_GGF_TAG], pw[RV_REVERSI_GGF_TAG]; /* black, white player */
    char re[RV_REVERSI_GGF_TAG], ti[RV_REVERSI_GGF_TAG]; /* result, time control */
    char tb[RV_REVERSI_GGF_TAG], tw[RV_REVERSI_GGF_TAG]; /* black's, white's time control */
    rv_reversi_pos start;                                /* BO[], or the start position */
    int nmoves;
    rv_reversi_ggf_move moves[RV_REVERSI_MAX_PLIES];
} rv_reversi_ggf;

/*
 * Reads one GGF game "(;GM[Othello]...;)" starting at text (leading blanks
 * skipped); *used (if not NULL) gets the bytes read, so a file of several
 * games can be read in a loop. Checks GM (Othello), TY (8), BO, that each
 * B[]/W[] is by the side to move and legal (PA only when it must pass).
 * Fails with RV_EINVAL (message in *err) or RV_ETOOLONG (too many moves).
 */
rv_status rv_reversi_ggf_parse(const char *text, size_t len, rv_reversi_ggf *ggf, size_t *used,
                               rv_reversi_error *err);

/* Writes a GGF game on one line, with the tags that are set, TY[8] and BO[],
 * moves upper case with "/eval" and "/time" when present. Returns the
 * length needed. */
size_t rv_reversi_ggf_format(const rv_reversi_ggf *ggf, char *out, size_t cap);

/* Sets up an empty GGF record (no tags, start position, no moves). */
void rv_reversi_ggf_init(rv_reversi_ggf *ggf);

/* Replays a GGF record into a game (g is initialised from ggf->start).
 * RV_OK, or the status of the first move the rules reject (ggf_parse
 * already checked, so only for records built by hand). */
rv_status rv_reversi_ggf_game(const rv_reversi_ggf *ggf, rv_reversi_game *g);

#ifdef __cplusplus
}
#endif
#endif
