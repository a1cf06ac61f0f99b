/*
 * The NBoard engine session behind `renversi nboard` (docs/protocol-nboard.md),
 * callable on any streams so tests and the fuzz target can drive it.
 */
#ifndef RV_PROTO_NBOARD_H
#define RV_PROTO_NBOARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Reads NBoard commands from in until end of input or `quit`, answering on
 * out.  max_depth caps `set depth` (1..60; the fuzz target keeps it small),
 * tt_mb is the transposition table size; cpu_clock makes time limits count the
 * engine's CPU time instead of the wall clock; nodes > 0 gives every search
 * that many nodes instead of the time controls (`--nodes`).  Returns 0, or -1
 * when out of memory at the start.
 */
int rv_nboard_run(FILE *in, FILE *out, int max_depth, size_t tt_mb, int cpu_clock, int64_t nodes);

#endif
