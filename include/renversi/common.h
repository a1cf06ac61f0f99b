/*
 * renversi — common definitions shared by every part of the library.
 *
 * Every function that can fail returns an rv_status; on failure its outputs
 * are left untouched. rv_strerror() turns a status into a short message.
 */
#ifndef RENVERSI_COMMON_H
#define RENVERSI_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes. RV_OK is 0; every error is negative. */
typedef enum rv_status {
    RV_OK = 0,
    RV_EINVAL = -1,     /* malformed input or argument (parse error, bad size) */
    RV_ERANGE = -2,     /* a point, size or number outside its allowed range */
    RV_EOCCUPIED = -3,  /* a move on a point that already holds a stone */
    RV_EILLEGAL = -4,   /* a move the rules do not allow (e.g. flips nothing) */
    RV_EFORBIDDEN = -5, /* a Renju forbidden point for black */
    RV_EOVER = -6,      /* a move after the game has ended */
    RV_ENOMEM = -7,     /* out of memory */
    RV_EIO = -8,        /* an I/O error reading or writing a file */
    RV_EEMPTY = -9,     /* nothing to undo, or empty input where some is needed */
    RV_ETOOLONG = -10   /* input longer than the limit */
} rv_status;

/*
 * Where and why a parser stopped, for every text parser in the library (move
 * lists, PSQ, OBF, ...). offset is the byte offset of the offending token in
 * the input, token a copy of it (cut to fit, NUL-terminated), expected a
 * static description of what was expected there ("a point like h8").
 */
typedef struct rv_parse_error {
    size_t offset;
    char token[32];
    const char *expected;
} rv_parse_error;

/* Stone / disc colours, shared by both games. */
typedef enum rv_color { RV_EMPTY = 0, RV_BLACK = 1, RV_WHITE = 2 } rv_color;

/* The other colour: RV_BLACK <-> RV_WHITE (RV_EMPTY stays RV_EMPTY). */
static inline rv_color rv_opponent(rv_color c) {
    return c == RV_EMPTY ? RV_EMPTY : (rv_color)(3 - c);
}

/* A short, static, English description of a status code. */
const char *rv_strerror(rv_status s);

/* The library version, "MAJOR.MINOR.PATCH". */
const char *rv_version(void);

#ifdef __cplusplus
}
#endif
#endif
