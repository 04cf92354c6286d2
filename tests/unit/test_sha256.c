/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 (src/core/sha256.c) against the FIPS 180-4 / NIST example vectors, with both
 * compression functions (SHA extensions where the CPU has them, and the portable one),
 * and streaming in random splits against the one-shot digest.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "core/sha256.h"

struct kat {
    const char *msg;
    size_t repeat;
    const char *hex;
};

static const struct kat kats[] = {
    {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlm"
     "nopqrsmnopqrstnopqrstu",
     1, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    {"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
};

static void check_kats(void)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        size_t len = strlen(kats[i].msg), total = len * kats[i].repeat;
        uint8_t *buf = malloc(total + 1);
        assert_non_null(buf);
        for (size_t r = 0; r < kats[i].repeat; r++)
            memcpy(buf + r * len, kats[i].msg, len);
        uint8_t d[32];
        char hex[65];
        czk_sha256(d, buf, total);
        czk_sha256_hex(hex, d);
        assert_string_equal(hex, kats[i].hex);
        /* the same through single-byte updates */
        struct czk_sha256 c;
        czk_sha256_init(&c);
        for (size_t k = 0; k < total && total <= 1000; k++)
            czk_sha256_update(&c, buf + k, 1);
        if (total <= 1000) {
            czk_sha256_final(&c, d);
            czk_sha256_hex(hex, d);
            assert_string_equal(hex, kats[i].hex);
        }
        free(buf);
    }
}

static void test_kat_accel(void **state)
{
    (void)state;
    bool on = czk_sha256_set_accel(true);
    printf("sha256: accelerated path %s\n", on ? "in use" : "not available");
    check_kats();
}

static void test_kat_portable(void **state)
{
    (void)state;
    czk_sha256_set_accel(false);
    check_kats();
    czk_sha256_set_accel(true);
}

/* Random lengths around block boundaries: both paths, one-shot and random splits agree. */
static void test_random_splits(void **state)
{
    (void)state;
    enum { MAX = 1000 };
    uint8_t *buf = malloc(MAX);
    assert_non_null(buf);
    size_t cases = czk_test_cases(300);
    for (size_t i = 0; i < cases; i++) {
        size_t n = czk_test_rand64() % MAX;
        czk_test_rand_bytes(buf, n);
        uint8_t a[32], b[32], c[32];
        czk_sha256_set_accel(true);
        czk_sha256(a, buf, n);
        czk_sha256_set_accel(false);
        czk_sha256(b, buf, n);
        assert_memory_equal(a, b, 32);
        czk_sha256_set_accel(i & 1);
        struct czk_sha256 ctx;
        czk_sha256_init(&ctx);
        size_t off = 0;
        while (off < n) {
            size_t k = czk_test_rand64() % 130;
            if (k > n - off)
                k = n - off;
            czk_sha256_update(&ctx, buf + off, k);
            off += k;
        }
        czk_sha256_update(&ctx, buf, 0);
        czk_sha256_final(&ctx, c);
        assert_memory_equal(a, c, 32);
    }
    czk_sha256_set_accel(true);
    free(buf);
}

int main(void)
{
    czk_test_seed_init("test_sha256");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kat_accel),
        cmocka_unit_test(test_kat_portable),
        cmocka_unit_test(test_random_splits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
