/*
 * renversi — small shared helpers: a seeded random generator, a clock, big tables and a
 * bounded line reader. No global state: a generator is a plain struct the caller owns.
 */
#ifndef RENVERSI_CORE_H
#define RENVERSI_CORE_H

#include <stdio.h>

#include "renversi/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* xoshiro256** generator state; seed it with rv_rng_seed(). */
typedef struct rv_rng {
    uint64_t s[4];
} rv_rng;

/* Seeds the generator deterministically from one 64-bit value. */
void rv_rng_seed(rv_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t rv_rng_next(rv_rng *r);

/* A uniform integer in [0, n); n must be > 0. */
uint64_t rv_rng_below(rv_rng *r, uint64_t n);

/* A zeroed table of `bytes` for random access (a transposition table): from 2 MB on,
 * aligned to 2 MB and (on Linux) marked for transparent huge pages. NULL when out of
 * memory or bytes is 0. Free it with rv_table_free and the same size. */
void *rv_table_alloc(size_t bytes);

/* Frees a table from rv_table_alloc of `bytes` (NULL: nothing). */
void rv_table_free(void *table, size_t bytes);

/* Monotonic wall-clock time in seconds (arbitrary origin). */
double rv_clock_seconds(void);

/* Monotonic time in nanoseconds (arbitrary origin). */
uint64_t rv_clock_ns(void);

/*
 * Reads one line of at most max bytes from f into *buf (NUL-terminated, without the
 * "\n" or "\r\n"; grown with realloc, *cap its size, both may start as NULL and 0) and
 * its length into *len. Never holds more than max + 1 bytes of a line. Returns RV_OK;
 * RV_EEMPTY at the end of the input (nothing read); RV_ETOOLONG when the line is longer
 * than max (the rest of it stays unread: rv_line_skip() drops it); RV_EIO on a read error
 * (errno set); RV_ENOMEM. A last line without "\n" is a line.
 */
rv_status rv_line_read(FILE *f, size_t max, char **buf, size_t *cap, size_t *len);

/* Reads and drops the rest of the current line, in constant memory. RV_OK, RV_EEMPTY
 * when the input ended first, RV_EIO on a read error. */
rv_status rv_line_skip(FILE *f);

/*
 * rv_line_read for protocols where a lone CR also ends a line: CR LF, LF and CR each end
 * one. *cr is the caller's state between calls (start it at 0; one per stream): set when
 * the last line ended with CR, so that an LF read next is taken as the rest of that line
 * end. A line ending in CR is returned at once, without waiting for the next byte.
 */
rv_status rv_line_read_cr(FILE *f, size_t max, int *cr, char **buf, size_t *cap, size_t *len);

/* rv_line_skip for rv_line_read_cr's line ends (CR, LF, CR LF), with the same *cr state. */
rv_status rv_line_skip_cr(FILE *f, int *cr);

#ifdef __cplusplus
}
#endif
#endif
