/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the SRS manager (src/engine/srs.c) with real small keys made by the dev
 * setup: register validation, acquire/release, info, LRU eviction under a host budget
 * that fits one key, held keys never evicted, evict of a held key -> CZK_ERR_BUSY,
 * preload, and one load shared by concurrent acquirers.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "engine/srs.h"
#include "groth16/gencircuit.h"
#include "groth16/setup_dev.h"

static char DIR_PATH[512];
static char KEY1[600], KEY2[600], BAD[600];

static void make_key(const char *path, uint32_t n, uint32_t tag)
{
    struct czk_gen_params p = {.curve = CZK_GROTH16_CURVE_BN254, .shape = CZK_GEN_SHAPE_MUL,
                               .n_constraints = n, .seed = tag, .threads = 1};
    struct czk_gen_circuit c;
    char err[256] = "";
    assert_int_equal(czk_gen_circuit(&c, &p, err, sizeof err), CZK_OK);
    struct czk_setup_toxic t;
    uint8_t seed[32] = {0};
    memcpy(seed, &tag, sizeof tag);
    unsigned lg = czk_setup_lg_domain(n, CZK_GEN_MUL_PUBLIC);
    assert_int_equal(czk_setup_toxic_derive(&t, CZK_GROTH16_CURVE_BN254, seed, lg), CZK_OK);
    assert_int_equal(czk_setup_dev(&c.r1cs, &t, path, 1, err, sizeof err), CZK_OK);
    czk_gen_circuit_free(&c);
}

static int group_setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(DIR_PATH, sizeof DIR_PATH, "%s/czk-test-srs.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(DIR_PATH))
        return -1;
    snprintf(KEY1, sizeof KEY1, "%s/k1.zkey", DIR_PATH);
    snprintf(KEY2, sizeof KEY2, "%s/k2.zkey", DIR_PATH);
    snprintf(BAD, sizeof BAD, "%s/bad.zkey", DIR_PATH);
    make_key(KEY1, 20, 1);
    make_key(KEY2, 40, 2);
    FILE *f = fopen(BAD, "w");
    if (!f)
        return -1;
    fputs("not a zkey at all", f);
    fclose(f);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", DIR_PATH);
    return system(cmd) == 0 ? 0 : -1;
}

static czk_srs_mgr_t mgr(czk_budget_t host)
{
    struct czk_srs_opts o = {.host_budget = host, .load_flags = CZK_PROVER_KEY_TRUST,
                             .threads = 1};
    czk_srs_mgr_t m = NULL;
    assert_int_equal(czk_srs_mgr_new(&m, &o), CZK_OK);
    return m;
}

static void test_register(void **state)
{
    (void)state;
    czk_budget_t b;
    char err[512];
    assert_int_equal(czk_budget_new(&b, "host", 1ull << 30), CZK_OK);
    czk_srs_mgr_t m = mgr(b);
    assert_int_equal(czk_srs_register(m, "", KEY1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_register(m, "a b", KEY1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_register(m, "x/y", KEY1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_register(m, "missing", "/nonexistent/k.zkey", err, sizeof err),
                     CZK_ERR_IO);
    assert_int_equal(czk_srs_register(m, "bad", BAD, err, sizeof err), CZK_ERR_FORMAT);
    assert_int_equal(czk_srs_register(m, "k1", KEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(m, "k1", KEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(m, "k1", KEY2, err, sizeof err), CZK_ERR_INVALID_ARG);
    struct czk_srs_info in;
    assert_int_equal(czk_srs_info(m, "k1", &in), CZK_OK);
    assert_int_equal(in.tier, CZK_SRS_COLD);
    assert_int_equal(in.key.n_vars, 20 + 3);
    assert_true(in.host_bytes > 0 && in.device_bytes > 0);
    assert_int_equal(czk_srs_info(m, "nope", &in), CZK_ERR_INVALID_ARG);
    czk_srs_mgr_free(m);
    czk_budget_free(b);
}

static void test_acquire_lru(void **state)
{
    (void)state;
    czk_budget_t big;
    char err[512];
    assert_int_equal(czk_budget_new(&big, "host", 1ull << 30), CZK_OK);
    czk_srs_mgr_t m = mgr(big);
    assert_int_equal(czk_srs_register(m, "k1", KEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(m, "k2", KEY2, err, sizeof err), CZK_OK);
    struct czk_srs_info i1, i2;
    czk_srs_info(m, "k1", &i1);
    czk_srs_info(m, "k2", &i2);
    czk_srs_mgr_free(m);
    czk_budget_free(big);

    /* a budget that fits either key but not both */
    uint64_t lim = (i1.host_bytes > i2.host_bytes ? i1.host_bytes : i2.host_bytes) +
                   (i1.host_bytes < i2.host_bytes ? i1.host_bytes : i2.host_bytes) / 2;
    czk_budget_t b;
    assert_int_equal(czk_budget_new(&b, "host", lim), CZK_OK);
    m = mgr(b);
    assert_int_equal(czk_srs_register(m, "k1", KEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(m, "k2", KEY2, err, sizeof err), CZK_OK);
    czk_prover_key_t k = NULL;
    assert_int_equal(czk_srs_acquire(m, "k1", NULL, &k, err, sizeof err), CZK_OK);
    assert_non_null(k);
    struct czk_srs_info in;
    czk_srs_info(m, "k1", &in);
    assert_int_equal(in.tier, CZK_SRS_WARM);
    assert_int_equal(in.n_loads, 1);
    struct czk_budget_stats bs;
    czk_budget_get_stats(b, &bs);
    assert_int_equal(bs.reserved, i1.host_bytes);
    /* k1 held: k2 cannot fit and k1 is not evicted */
    czk_prover_key_t k2 = NULL;
    assert_int_equal(czk_srs_acquire(m, "k2", NULL, &k2, err, sizeof err), CZK_ERR_BUDGET);
    assert_int_equal(czk_srs_evict(m, "k1"), CZK_ERR_BUSY);
    czk_srs_info(m, "k1", &in);
    assert_int_equal(in.tier, CZK_SRS_WARM);
    /* released: k2 evicts k1 (LRU) */
    czk_srs_release(m, "k1");
    assert_int_equal(czk_srs_acquire(m, "k2", NULL, &k2, err, sizeof err), CZK_OK);
    czk_srs_info(m, "k1", &in);
    assert_int_equal(in.tier, CZK_SRS_COLD);
    assert_int_equal(in.n_evictions, 1);
    czk_srs_release(m, "k2");
    /* preload brings k1 back (evicting k2), evict drops it */
    assert_int_equal(czk_srs_preload(m, "k1", err, sizeof err), CZK_OK);
    czk_srs_info(m, "k1", &in);
    assert_int_equal(in.tier, CZK_SRS_WARM);
    assert_int_equal(in.n_loads, 2);
    assert_int_equal(czk_srs_evict(m, "k1"), CZK_OK);
    czk_budget_get_stats(b, &bs);
    assert_int_equal(bs.reserved, 0);
    assert_true(bs.peak <= lim);
    czk_srs_mgr_free(m);
    czk_budget_free(b);
}

struct acq {
    czk_srs_mgr_t m;
    enum czk_status st;
};

static void *acq_thread(void *p)
{
    struct acq *a = p;
    czk_prover_key_t k;
    char err[256];
    a->st = czk_srs_acquire(a->m, "k2", NULL, &k, err, sizeof err);
    if (a->st == CZK_OK)
        czk_srs_release(a->m, "k2");
    return NULL;
}

static void test_concurrent_once(void **state)
{
    (void)state;
    czk_budget_t b;
    char err[512];
    assert_int_equal(czk_budget_new(&b, "host", 1ull << 30), CZK_OK);
    czk_srs_mgr_t m = mgr(b);
    assert_int_equal(czk_srs_register(m, "k2", KEY2, err, sizeof err), CZK_OK);
    enum { N = 6 };
    pthread_t t[N];
    struct acq a[N];
    for (int i = 0; i < N; i++) {
        a[i] = (struct acq){m, CZK_ERR_INTERNAL};
        assert_int_equal(pthread_create(&t[i], NULL, acq_thread, &a[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(a[i].st, CZK_OK);
    }
    struct czk_srs_info in;
    czk_srs_info(m, "k2", &in);
    assert_int_equal(in.n_loads, 1);
    czk_srs_mgr_free(m);
    czk_budget_free(b);
}

int main(void)
{
    czk_test_seed_init("srs");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register),
        cmocka_unit_test(test_acquire_lru),
        cmocka_unit_test(test_concurrent_once),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
