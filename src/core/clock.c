/* Monotonic clock. */
#include "renversi/core.h"

#include <time.h>

uint64_t rv_clock_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

double rv_clock_seconds(void) { return (double)rv_clock_ns() * 1e-9; }
