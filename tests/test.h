/*
 * A minimal test harness: CHECK macros that count and report, and a closing
 * line "N passed, M failed" (the plain form CI reads). Each tests/test_*.c is
 * one program; main() runs its cases and returns test_finish().
 */
#ifndef RV_TEST_H
#define RV_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed_, test_failed_;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (cond) test_passed_++;                                                          \
        else {                                                                             \
            test_failed_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
        }                                                                                  \
    } while (0)

#define CHECK_MSG(cond, ...)                                                               \
    do {                                                                                   \
        if (cond) test_passed_++;                                                          \
        else {                                                                             \
            test_failed_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                 \
    do {                                                                                   \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ == b_) test_passed_++;                                                      \
        else {                                                                             \
            test_failed_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n", __FILE__,    \
                    __LINE__, #a, #b, a_, b_);                                             \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                 \
    do {                                                                                   \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                   \
        if (a_ == b_) test_passed_++;                                                      \
        else {                                                                             \
            test_failed_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%" PRIu64 " != %" PRIu64 ")\n", \
                    __FILE__, __LINE__, #a, #b, a_, b_);                                   \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                 \
    do {                                                                                   \
        const char *a_ = (a), *b_ = (b);                                                   \
        if (a_ && b_ && strcmp(a_, b_) == 0) test_passed_++;                               \
        else {                                                                             \
            test_failed_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (\"%s\" != \"%s\")\n", __FILE__, \
                    __LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");             \
        }                                                                                  \
    } while (0)

/* Path of a file in tests/data (RV_TEST_DATA overrides the built-in path). */
static inline const char *test_data_path(const char *name) {
    static char buf[4096];
    const char *dir = getenv("RV_TEST_DATA");
#ifdef RV_TEST_DATA_DIR
    if (!dir) dir = RV_TEST_DATA_DIR;
#endif
    snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "tests/data", name);
    return buf;
}

/* A scale factor for randomized tests: RV_TEST_SCALE (default 1). */
static inline long test_scale(void) {
    const char *s = getenv("RV_TEST_SCALE");
    long v = s ? atol(s) : 1;
    return v > 0 ? v : 1;
}

static inline int test_finish(void) {
    printf("%d passed, %d failed\n", test_passed_, test_failed_);
    return test_failed_ ? 1 : 0;
}

#endif
