/*
 * renversi — small shared helpers: a seeded random generator and a clock.
 * No global state: a generator is a plain struct the caller owns.
 */
#ifndef RENVERSI_CORE_H
#define RENVERSI_CORE_H

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

/* Monotonic wall-clock time in seconds (arbitrary origin). */
double rv_clock_seconds(void);

/* Monotonic time in nanoseconds (arbitrary origin). */
uint64_t rv_clock_ns(void);

#ifdef __cplusplus
}
#endif
#endif
