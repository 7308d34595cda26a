/*
 * check.h - the C tests' harness: CHECK(cond, fmt, ...) records a failure with its place and message
 * and goes on; run(name, fn) runs one test function and prints "ok" or "FAIL" for it; the program ends
 * by printing n_passed and n_failed. Header-only: each test program is one translation unit.
 */
#ifndef TC_TEST_CHECK_H
#define TC_TEST_CHECK_H

#include <stdio.h>

static int n_passed, n_failed;
static int current_failures;

#define CHECK(cond, ...)                                                                            \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            current_failures++;                                                                     \
            printf("  FAIL %s:%d: ", __FILE__, __LINE__);                                          \
            printf(__VA_ARGS__);                                                                    \
            printf("\n");                                                                           \
        }                                                                                           \
    } while (0)

static void run(const char *name, void (*fn)(void)) {
    current_failures = 0;
    fn();
    if (current_failures) {
        n_failed++;
        printf("FAIL %s\n", name);
    } else {
        n_passed++;
        printf("ok   %s\n", name);
    }
}

#endif
