/* Core helpers: status strings, the seeded generator, the clock. */
#include "test.h"

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

int main(void) {
    test_strerror();
    test_rng();
    test_clock();
    return test_finish();
}
