/* SPDX-License-Identifier: Apache-2.0 */
/* Test helpers: seeded xoshiro256** PRNG and vector-file loading (see test_util.h). */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t s[4];

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t czk_test_seed_init(const char *suite)
{
    const char *env = getenv("CZK_TEST_SEED");
    uint64_t seed;
    if (env && *env) {
        seed = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
    }
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        s[i] = splitmix(&x);
    printf("%s: seed=%llu (replay with CZK_TEST_SEED=%llu)\n", suite, (unsigned long long)seed,
           (unsigned long long)seed);
    fflush(stdout);
    return seed;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t czk_test_rand64(void)
{
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

void czk_test_rand_bytes(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        uint64_t r = czk_test_rand64();
        size_t k = n < 8 ? n : 8;
        memcpy(p, &r, k);
        p += k;
        n -= k;
    }
}

size_t czk_test_cases(size_t dflt)
{
    const char *env = getenv("CZK_TEST_CASES");
    if (env && *env)
        return (size_t)strtoull(env, NULL, 0);
    return dflt;
}

char *czk_test_read_vector(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", CZK_VECTORS_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (len)
            *len = (size_t)n;
    }
    return buf;
}
