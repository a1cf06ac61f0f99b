/* libFuzzer: the NBoard engine session on arbitrary input never crashes, hangs or leaks. */
#include <stdint.h>
#include <stdio.h>

#include "proto/nboard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    FILE *out = fopen("/dev/null", "w");
    if (in && out) rv_nboard_run(in, out, 2, 1, 0, 0); /* depth <= 2, 1 MB table: quick */
    if (in) fclose(in);
    if (out) fclose(out);
    return 0;
}
