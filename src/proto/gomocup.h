/* Internal: the Gomocup brain loop, callable on any streams (tests, fuzzing). */
#ifndef RV_PROTO_GOMOCUP_H
#define RV_PROTO_GOMOCUP_H

#include <stdio.h>

/* Runs the protocol on in/out until END or end of input; level 0 = by the clock;
   nodes > 0: that many nodes a move instead of the clock (0 = by level / clock). */
int rv_gomocup_run(FILE *in, FILE *out, int level, long long nodes);

#endif
