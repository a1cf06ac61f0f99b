/* libFuzzer: the Gomocup brain on arbitrary input never crashes, hangs or leaks. */
#include <stdint.h>
#include <stdio.h>

#include "proto/gomocup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    FILE *out = fopen("/dev/null", "w");
    if (in && out) rv_gomocup_run(in, out, 1, 0); /* level 1: shallow and quick */
    if (in) fclose(in);
    if (out) fclose(out);
    return 0;
}
