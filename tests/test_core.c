/* Core helpers: status strings, the seeded generator, the clock. */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

#include "renversi/core.h"

static void test_strerror(void) {
    CHECK_EQ_STR(rv_strerror(RV_OK), "ok");
    CHECK_EQ_STR(rv_strerror(RV_EOCCUPIED), "occupied");
    CHECK_EQ_STR(rv_strerror((rv_status)12345), "unknown error");
}

static void test_rng(void) {
    rv_rng a, b;
    rv_rng_seed(&a, 42);
    rv_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) CHECK_EQ_U64(rv_rng_next(&a), rv_rng_next(&b));
    rv_rng_seed(&b, 43);
    CHECK(rv_rng_next(&a) != rv_rng_next(&b));
    /* rv_rng_below stays in range and hits every value of a small range. */
    int seen[7] = {0};
    for (int i = 0; i < 1000; i++) {
        uint64_t v = rv_rng_below(&a, 7);
        CHECK(v < 7);
        if (v < 7) seen[v]++;
    }
    for (int i = 0; i < 7; i++) CHECK(seen[i] > 50);
}

static void test_clock(void) {
    uint64_t t0 = rv_clock_ns(), t1 = rv_clock_ns();
    CHECK(t1 >= t0);
}

/* The bounded line reader: line ends, the limit (never more than max + 1 bytes held), and
 * the rest of an over-long line dropped by rv_line_skip. */
static void test_line_read(void) {
    static const char text[] = "one\r\n\ntwo-is-too-long\nthree";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    CHECK(f != NULL);
    if (!f) return;
    char *buf = NULL;
    size_t cap = 0, len = 99;
    CHECK(rv_line_read(f, 8, &buf, &cap, &len) == RV_OK);
    CHECK_EQ_STR(buf, "one");
    CHECK_EQ_INT(len, 3);
    CHECK(rv_line_read(f, 8, &buf, &cap, &len) == RV_OK);
    CHECK_EQ_INT(len, 0);
    CHECK(rv_line_read(f, 8, &buf, &cap, &len) == RV_ETOOLONG);
    CHECK(cap <= 9);
    CHECK(rv_line_skip(f) == RV_OK);
    CHECK(rv_line_read(f, 8, &buf, &cap, &len) == RV_OK); /* the last line has no newline */
    CHECK_EQ_STR(buf, "three");
    CHECK(rv_line_read(f, 8, &buf, &cap, &len) == RV_EEMPTY);
    CHECK(rv_line_skip(f) == RV_EEMPTY);
    fclose(f);
    /* Exactly max bytes is a line; a line that ends at the limit is not too long. */
    f = fmemopen((void *)"12345678\n", 9, "r");
    CHECK(f && rv_line_read(f, 8, &buf, &cap, &len) == RV_OK && len == 8);
    if (f) fclose(f);
    free(buf);
}

int main(void) {
    test_strerror();
    test_rng();
    test_clock();
    test_line_read();
    return test_finish();
}
