/* The out-of-line entry to the stable-disc count (see endgame_stable.h). */
#include "reversi/endgame_stable.h"

uint64_t rv_ai_stable(uint64_t own, uint64_t other) { return stable_discs(own, other); }
