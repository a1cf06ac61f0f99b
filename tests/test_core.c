/* Core helpers: status strings, the seeded generator, the clock, the line reader, big tables. */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Reads one line with rv_line_read_cr (limit 8) and checks its text. */
static void expect_cr_line(FILE *f, int *cr, char **buf, size_t *cap, const char *want) {
    size_t len = 99;
    rv_status st = rv_line_read_cr(f, 8, cr, buf, cap, &len);
    CHECK_EQ_INT(st, RV_OK);
    if (st != RV_OK) return;
    CHECK_EQ_STR(*buf, want);
    CHECK_EQ_INT(len, strlen(want));
}

/* rv_line_read_cr (the Gomocup spec: "accept CR LF, LF or CR"): each line end alone and
 * mixed, blank lines kept, over-long lines ending in CR or CR LF, and a CR LF split between
 * two writes on a pipe, where the line must come back before the LF is even sent. */
static void test_line_read_cr(void) {
    static const char text[] = "one\rtwo\r\nthree\n\r\r\nfour";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    CHECK(f != NULL);
    if (!f) return;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    int cr = 0;
    expect_cr_line(f, &cr, &buf, &cap, "one"); /* lone CR */
    CHECK_EQ_INT(cr, 1);
    expect_cr_line(f, &cr, &buf, &cap, "two"); /* CR LF: one line end, not two */
    expect_cr_line(f, &cr, &buf, &cap, "three"); /* LF after CR LF */
    CHECK_EQ_INT(cr, 0);
    expect_cr_line(f, &cr, &buf, &cap, ""); /* "\r" after "\n": a blank line */
    expect_cr_line(f, &cr, &buf, &cap, ""); /* "\r\n": another one */
    expect_cr_line(f, &cr, &buf, &cap, "four"); /* no line end at the end */
    CHECK(rv_line_read_cr(f, 8, &cr, &buf, &cap, &len) == RV_EEMPTY);
    fclose(f);

    /* over-long lines: the rest is skipped up to CR, LF or CR LF, in at most 9 bytes */
    static const char lng[] = "123456789\rnext\n123456789abc\r\nlast\r\n";
    f = fmemopen((void *)lng, sizeof lng - 1, "r");
    CHECK(f != NULL);
    if (!f) return;
    cr = 0;
    CHECK(rv_line_read_cr(f, 8, &cr, &buf, &cap, &len) == RV_ETOOLONG);
    CHECK(cap <= 9);
    CHECK(rv_line_skip_cr(f, &cr) == RV_OK);
    expect_cr_line(f, &cr, &buf, &cap, "next");
    CHECK(rv_line_read_cr(f, 8, &cr, &buf, &cap, &len) == RV_ETOOLONG);
    CHECK(rv_line_skip_cr(f, &cr) == RV_OK);
    CHECK_EQ_INT(cr, 1);
    expect_cr_line(f, &cr, &buf, &cap, "last"); /* the LF of the skipped CR LF is not a line */
    CHECK(rv_line_read_cr(f, 8, &cr, &buf, &cap, &len) == RV_EEMPTY);
    CHECK(rv_line_skip_cr(f, &cr) == RV_EEMPTY);
    CHECK(cap <= 9);
    fclose(f);

    /* interactive input: "go\r" is a whole line although the LF is not written yet (a
     * reader that peeked past the CR would wait here forever) */
    int fd[2];
    CHECK(pipe(fd) == 0);
    f = fdopen(fd[0], "r");
    CHECK(f != NULL);
    if (!f) return;
    cr = 0;
    CHECK(write(fd[1], "go\r", 3) == 3);
    expect_cr_line(f, &cr, &buf, &cap, "go");
    CHECK(write(fd[1], "\nnext\r", 6) == 6);
    expect_cr_line(f, &cr, &buf, &cap, "next"); /* the late LF ended "go", not a line */
    close(fd[1]);
    CHECK(rv_line_read_cr(f, 8, &cr, &buf, &cap, &len) == RV_EEMPTY);
    fclose(f);
    free(buf);
}

/* rv_table_alloc: zeroed, writable end to end, 2 MB aligned from 2 MB on (Linux), freed. */
static void test_table(void) {
    CHECK(rv_table_alloc(0) == NULL);
    const size_t sizes[] = {64, 100000, (size_t)2 << 20, ((size_t)5 << 20) + 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        unsigned char *t = rv_table_alloc(n);
        CHECK_MSG(t != NULL, "%zu bytes", n);
        if (!t) continue;
        size_t nonzero = 0;
        for (size_t k = 0; k < n; k++) nonzero += t[k] != 0;
        CHECK_MSG(nonzero == 0, "%zu bytes: %zu not zero", n, nonzero);
#if defined(__linux__)
        if (n >= ((size_t)2 << 20)) CHECK_MSG((uintptr_t)t % ((size_t)2 << 20) == 0, "%zu", n);
#endif
        memset(t, 0xA5, n); /* every byte is ours (ASan checks the small ones) */
        CHECK(t[0] == 0xA5 && t[n - 1] == 0xA5);
        rv_table_free(t, n);
    }
    rv_table_free(NULL, 0);
}

int main(void) {
    test_strerror();
    test_rng();
    test_clock();
    test_line_read();
    test_line_read_cr();
    test_table();
    return test_finish();
}
