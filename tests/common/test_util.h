/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared helpers for the cmocka suites: a seeded PRNG (xoshiro256**) whose seed
 * is printed at start and can be replayed with CZK_TEST_SEED=<n>, and small
 * file helpers for the committed vectors in tests/vectors/.
 * Include <cmocka.h> prerequisites (stdarg, stddef, setjmp) via this header.
 */
#ifndef CZK_TESTS_TEST_UTIL_H
#define CZK_TESTS_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

/* Seed from CZK_TEST_SEED or the clock; prints "seed=<n>" once. Call in main(). */
uint64_t czk_test_seed_init(const char *suite);
uint64_t czk_test_rand64(void);
void czk_test_rand_bytes(void *buf, size_t n);
/* Number of random cases: CZK_TEST_CASES or `dflt`. */
size_t czk_test_cases(size_t dflt);

/* Read a whole file under tests/vectors/ (NUL-terminated); NULL if missing. */
char *czk_test_read_vector(const char *name, size_t *len);

#endif
