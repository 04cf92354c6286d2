/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SRS manager (src/engine/srs.h): registration and its validation, acquire/release
 * of real keys (small mul circuits with dev setups generated in a temporary directory),
 * LRU eviction under a host budget that fits one key, held keys never evicted (failing
 * at once with wait_ms 0, waiting for a release with wait_ms > 0), one load for
 * concurrent acquirers, preload and evict.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#include "core/sha256.h"
#include "czk/czk_prover.h"
#include "engine/srs.h"
#include "groth16/gencircuit.h"
#include "groth16/setup_dev.h"
#include "mem/mem.h"

static char TMP[1024];
static char ZKEY1[1100], ZKEY2[1100], JUNK[1100], EMPTYF[1100];
/* Sizes the manager accounts for each key (from a probe manager). */
static uint64_t HOST1, HOST2;

/* ---- fixtures ---------------------------------------------------------------------------- */

static int make_key(const char *path, uint32_t n_constraints, uint64_t seed)
{
    struct czk_gen_params p = {CZK_GROTH16_CURVE_BN254, CZK_GEN_SHAPE_MUL, n_constraints, 0, seed,
                               2, 0};
    struct czk_gen_circuit c;
    char err[256] = "";
    if (czk_gen_circuit(&c, &p, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "gen: %s\n", err);
        return -1;
    }
    uint8_t s[32];
    czk_sha256(s, path, strlen(path));
    struct czk_setup_toxic t;
    unsigned lg = czk_setup_lg_domain(c.r1cs.n_constraints, c.r1cs.n_pub_out + c.r1cs.n_pub_in);
    enum czk_status st = czk_setup_toxic_derive(&t, CZK_GROTH16_CURVE_BN254, s, lg);
    if (st == CZK_OK)
        st = czk_setup_dev(&c.r1cs, &t, path, 2, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "setup %s: %s\n", path, err);
    czk_gen_circuit_free(&c);
    return st == CZK_OK ? 0 : -1;
}

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = n ? fwrite(data, 1, n, f) : 0;
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static int group_setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(TMP, sizeof TMP, "%s/czk-test-srs.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(TMP))
        return -1;
    snprintf(ZKEY1, sizeof ZKEY1, "%s/one.zkey", TMP);
    snprintf(ZKEY2, sizeof ZKEY2, "%s/two.zkey", TMP);
    snprintf(JUNK, sizeof JUNK, "%s/junk.zkey", TMP);
    snprintf(EMPTYF, sizeof EMPTYF, "%s/empty.zkey", TMP);
    if (make_key(ZKEY1, 20, 1) || make_key(ZKEY2, 40, 2))
        return -1;
    static const char junk[] = "this is not a zkey file, only some text of moderate length\n";
    if (write_file(JUNK, junk, sizeof junk - 1) || write_file(EMPTYF, "", 0))
        return -1;

    /* The accounted sizes of both keys, from a manager with room for anything. */
    czk_budget_t b;
    czk_srs_mgr_t m;
    struct czk_srs_opts o = {0};
    if (czk_budget_new(&b, "host", 1ull << 40) != CZK_OK)
        return -1;
    o.host_budget = b;
    o.threads = 2;
    if (czk_srs_mgr_new(&m, &o) != CZK_OK)
        return -1;
    struct czk_srs_info i1, i2;
    int rc = czk_srs_register(m, "one", ZKEY1, NULL, 0) == CZK_OK &&
                     czk_srs_register(m, "two", ZKEY2, NULL, 0) == CZK_OK &&
                     czk_srs_info(m, "one", &i1) == CZK_OK && czk_srs_info(m, "two", &i2) == CZK_OK
                 ? 0
                 : -1;
    czk_srs_mgr_free(m);
    czk_budget_free(b);
    HOST1 = i1.host_bytes;
    HOST2 = i2.host_bytes;
    if (rc || HOST1 == 0 || HOST2 <= HOST1)
        return -1;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", TMP);
    return system(cmd) == 0 ? 0 : -1;
}

struct fx {
    czk_budget_t budget;
    czk_srs_mgr_t m;
};

static void fx_new(struct fx *f, uint64_t limit, int wait_ms)
{
    assert_int_equal(czk_budget_new(&f->budget, "host", limit), CZK_OK);
    struct czk_srs_opts o = {0};
    o.host_budget = f->budget;
    o.threads = 2;
    o.wait_ms = wait_ms;
    assert_int_equal(czk_srs_mgr_new(&f->m, &o), CZK_OK);
}

static void fx_free(struct fx *f)
{
    czk_srs_mgr_free(f->m);
    struct czk_budget_stats bs;
    czk_budget_get_stats(f->budget, &bs);
    assert_int_equal(bs.reserved, 0); /* every warm key gave its bytes back */
    czk_budget_free(f->budget);
}

static uint64_t reserved(const struct fx *f)
{
    struct czk_budget_stats bs;
    czk_budget_get_stats(f->budget, &bs);
    return bs.reserved;
}

static struct czk_srs_info info_of(const struct fx *f, const char *id)
{
    struct czk_srs_info i;
    memset(&i, 0, sizeof i);
    assert_int_equal(czk_srs_info(f->m, id, &i), CZK_OK);
    return i;
}

/* Log capture: counts SRS_LOAD / SRS_EVICT lines and errors of component "srs". */
static pthread_mutex_t LOG_MU = PTHREAD_MUTEX_INITIALIZER;
static int LOG_LOADS, LOG_EVICTS, LOG_ERRORS;

static void log_sink(enum czk_log_level lv, const char *comp, const char *msg, void *user)
{
    (void)user;
    if (strcmp(comp, "srs") != 0)
        return;
    pthread_mutex_lock(&LOG_MU);
    if (strstr(msg, "SRS_LOAD key="))
        LOG_LOADS++;
    if (strstr(msg, "SRS_EVICT key="))
        LOG_EVICTS++;
    if (lv == CZK_LOG_ERROR)
        LOG_ERRORS++;
    pthread_mutex_unlock(&LOG_MU);
}

static void log_capture(void)
{
    pthread_mutex_lock(&LOG_MU);
    LOG_LOADS = LOG_EVICTS = LOG_ERRORS = 0;
    pthread_mutex_unlock(&LOG_MU);
    czk_log_set(log_sink, NULL, CZK_LOG_INFO);
}

static void log_restore(void)
{
    czk_log_set(NULL, NULL, CZK_LOG_WARN);
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_new_args(void **state)
{
    (void)state;
    czk_srs_mgr_t m = NULL;
    struct czk_srs_opts o = {0};
    assert_int_equal(czk_srs_mgr_new(&m, &o), CZK_ERR_INVALID_ARG); /* no budget */
    assert_null(m);
    assert_int_equal(czk_srs_mgr_new(NULL, &o), CZK_ERR_INVALID_ARG);
    czk_srs_mgr_free(NULL);
}

static void test_register_validation(void **state)
{
    (void)state;
    struct fx f;
    fx_new(&f, 1ull << 40, 0);
    char err[512];
    char long_id[80];
    memset(long_id, 'a', 64);
    long_id[64] = '\0';
    const char *bad_ids[] = {"", "a/b", "sp ace", "semi;colon", long_id, "caf\xc3\xa9"};
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
        err[0] = '\0';
        assert_int_equal(czk_srs_register(f.m, bad_ids[i], ZKEY1, err, sizeof err),
                         CZK_ERR_INVALID_ARG);
        assert_non_null(strstr(err, "circuit id"));
    }
    long_id[63] = '\0'; /* 63 characters: the longest valid id */
    assert_int_equal(czk_srs_register(f.m, long_id, ZKEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(f.m, NULL, ZKEY1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_register(f.m, "x", NULL, err, sizeof err), CZK_ERR_INVALID_ARG);

    char missing[1200];
    snprintf(missing, sizeof missing, "%s/missing.zkey", TMP);
    err[0] = '\0';
    assert_int_equal(czk_srs_register(f.m, "missing", missing, err, sizeof err), CZK_ERR_IO);
    assert_non_null(strstr(err, "missing.zkey"));

    enum czk_status st = czk_srs_register(f.m, "junk", JUNK, err, sizeof err);
    assert_true(st != CZK_OK);
    st = czk_srs_register(f.m, "empty", EMPTYF, err, sizeof err);
    assert_true(st != CZK_OK);
    st = czk_srs_register(f.m, "dir", TMP, err, sizeof err);
    assert_true(st != CZK_OK);

    /* Nothing of the failed registrations exists. */
    struct czk_srs_info i;
    const char *gone[] = {"a/b", "missing", "junk", "empty", "dir"};
    for (size_t k = 0; k < sizeof gone / sizeof *gone; k++) {
        assert_int_equal(czk_srs_info(f.m, gone[k], &i), CZK_ERR_INVALID_ARG);
        czk_prover_key_t key = NULL;
        assert_int_equal(czk_srs_acquire(f.m, gone[k], NULL, &key, err, sizeof err),
                         CZK_ERR_INVALID_ARG);
        assert_null(key);
        assert_int_equal(czk_srs_preload(f.m, gone[k], err, sizeof err), CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_srs_evict(f.m, gone[k]), CZK_ERR_INVALID_ARG);
    }

    /* Registration reads the header only: the key is cold, sizes known, nothing reserved. */
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    i = info_of(&f, "one");
    assert_int_equal(i.tier, CZK_SRS_COLD);
    assert_int_equal(i.n_loads, 0);
    assert_int_equal(i.key.curve, CZK_GROTH16_CURVE_BN254);
    assert_int_equal(i.key.n_public, CZK_GEN_MUL_PUBLIC);
    assert_int_equal(i.key.domain_size, 1u << i.key.lg_domain);
    assert_true(i.key.domain_size >= 20 + CZK_GEN_MUL_PUBLIC + 1);
    assert_int_equal(i.host_bytes, HOST1);
    assert_int_equal(reserved(&f), 0);

    /* Same id, same path: no-op; another path: refused, the first stays. */
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    err[0] = '\0';
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY2, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "already registered"));
    assert_int_equal(info_of(&f, "one").host_bytes, HOST1);
    fx_free(&f);
}

static void test_acquire_release(void **state)
{
    (void)state;
    struct fx f;
    fx_new(&f, 1ull << 40, 0);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    log_capture();
    czk_prover_key_t k1 = NULL, k2 = NULL;
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k1, err, sizeof err), CZK_OK);
    assert_non_null(k1);
    struct czk_srs_info i = info_of(&f, "one");
    assert_int_equal(i.tier, CZK_SRS_WARM);
    assert_int_equal(i.n_loads, 1);
    assert_true(i.last_load_ms >= 0);
    assert_int_equal(reserved(&f), HOST1);

    /* The key is a real, usable key of the circuit. */
    struct czk_prover_key_info ki;
    czk_prover_key_get_info(k1, &ki);
    assert_int_equal(ki.n_public, CZK_GEN_MUL_PUBLIC);
    assert_int_equal(ki.domain_size, i.key.domain_size);
    assert_int_equal(ki.n_vars, i.key.n_vars);

    /* A second hold shares the loaded key. */
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k2, err, sizeof err), CZK_OK);
    assert_ptr_equal(k1, k2);
    assert_int_equal(info_of(&f, "one").n_loads, 1);
    assert_int_equal(reserved(&f), HOST1);
    czk_srs_release(f.m, "one");
    czk_srs_release(f.m, "one");
    /* Released keys stay warm (until evicted). */
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_WARM);
    assert_int_equal(reserved(&f), HOST1);

    /* Release of a key not held: logged as an error and ignored. */
    czk_srs_release(f.m, "one");
    czk_srs_release(f.m, "nobody");
    assert_int_equal(czk_srs_acquire(f.m, "nobody", NULL, &k1, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, NULL, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    log_restore();
    assert_int_equal(LOG_LOADS, 1);
    assert_int_equal(LOG_ERRORS, 2);
    fx_free(&f);
}

static void test_load_error(void **state)
{
    (void)state;
    /* A registered key whose file is replaced by garbage: acquire fails with the load
     * error, the key stays cold, nothing is reserved; a later acquire tries again. */
    char path[1200], err[512];
    snprintf(path, sizeof path, "%s/swap.zkey", TMP);
    FILE *in = fopen(ZKEY1, "rb");
    assert_non_null(in);
    fseek(in, 0, SEEK_END);
    long n = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, in), (size_t)n);
    fclose(in);
    assert_int_equal(write_file(path, buf, (size_t)n), 0);

    struct fx f;
    fx_new(&f, 1ull << 40, 0);
    assert_int_equal(czk_srs_register(f.m, "swap", path, err, sizeof err), CZK_OK);
    /* Truncated behind its back (sections missing). */
    assert_int_equal(write_file(path, buf, (size_t)n / 2), 0);
    czk_prover_key_t k = NULL;
    err[0] = '\0';
    enum czk_status st = czk_srs_acquire(f.m, "swap", NULL, &k, err, sizeof err);
    assert_true(st != CZK_OK);
    assert_true(err[0] != '\0');
    assert_null(k);
    assert_int_equal(info_of(&f, "swap").tier, CZK_SRS_COLD);
    assert_int_equal(info_of(&f, "swap").n_loads, 0);
    assert_int_equal(reserved(&f), 0);
    /* Restored: the next acquire loads it. */
    assert_int_equal(write_file(path, buf, (size_t)n), 0);
    assert_int_equal(czk_srs_acquire(f.m, "swap", NULL, &k, err, sizeof err), CZK_OK);
    assert_non_null(k);
    czk_srs_release(f.m, "swap");
    fx_free(&f);
    free(buf);
}

static void test_lru_eviction(void **state)
{
    (void)state;
    /* Room for the larger key alone, not for both. */
    struct fx f;
    fx_new(&f, HOST2 + HOST1 / 2, 0);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(f.m, "two", ZKEY2, err, sizeof err), CZK_OK);
    log_capture();
    czk_prover_key_t k = NULL;
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k, err, sizeof err), CZK_OK);
    czk_srs_release(f.m, "one");
    assert_int_equal(reserved(&f), HOST1);

    /* Acquiring the second evicts the unheld first. */
    assert_int_equal(czk_srs_acquire(f.m, "two", NULL, &k, err, sizeof err), CZK_OK);
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_COLD);
    assert_int_equal(info_of(&f, "one").n_evictions, 1);
    assert_int_equal(info_of(&f, "two").tier, CZK_SRS_WARM);
    assert_int_equal(info_of(&f, "two").n_evictions, 0);
    assert_int_equal(reserved(&f), HOST2);
    czk_srs_release(f.m, "two");

    /* And back: the first is loaded again, the second evicted. */
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k, err, sizeof err), CZK_OK);
    czk_srs_release(f.m, "one");
    struct czk_srs_info i1 = info_of(&f, "one"), i2 = info_of(&f, "two");
    assert_int_equal(i1.n_loads, 2);
    assert_int_equal(i1.tier, CZK_SRS_WARM);
    assert_int_equal(i2.tier, CZK_SRS_COLD);
    assert_int_equal(i2.n_evictions, 1);
    assert_int_equal(reserved(&f), HOST1);
    log_restore();
    assert_int_equal(LOG_LOADS, 3);
    assert_int_equal(LOG_EVICTS, 2);

    struct czk_budget_stats bs;
    czk_budget_get_stats(f.budget, &bs);
    assert_true(bs.peak <= bs.limit);
    fx_free(&f);
}

static void test_lru_order(void **state)
{
    (void)state;
    /* Three ids over the same file (HOST1 bytes each), room for two. Using a, then b,
     * then a again makes b the least recently used: loading c evicts b, not a. */
    struct fx f;
    fx_new(&f, 2 * HOST1 + HOST1 / 2, 0);
    char err[512];
    const char *ids[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(czk_srs_register(f.m, ids[i], ZKEY1, err, sizeof err), CZK_OK);
    czk_prover_key_t k;
    assert_int_equal(czk_srs_preload(f.m, "a", err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_preload(f.m, "b", err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_acquire(f.m, "a", NULL, &k, err, sizeof err), CZK_OK);
    czk_srs_release(f.m, "a");
    assert_int_equal(czk_srs_acquire(f.m, "c", NULL, &k, err, sizeof err), CZK_OK);
    czk_srs_release(f.m, "c");
    assert_int_equal(info_of(&f, "a").tier, CZK_SRS_WARM);
    assert_int_equal(info_of(&f, "b").tier, CZK_SRS_COLD);
    assert_int_equal(info_of(&f, "c").tier, CZK_SRS_WARM);
    assert_int_equal(reserved(&f), 2 * HOST1);
    fx_free(&f);
}

static void test_held_never_evicted(void **state)
{
    (void)state;
    struct fx f;
    fx_new(&f, HOST2 + HOST1 / 2, 0);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(f.m, "two", ZKEY2, err, sizeof err), CZK_OK);
    czk_prover_key_t k1 = NULL, k2 = NULL;
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k1, err, sizeof err), CZK_OK);
    err[0] = '\0';
    assert_int_equal(czk_srs_acquire(f.m, "two", NULL, &k2, err, sizeof err), CZK_ERR_BUDGET);
    assert_null(k2);
    assert_non_null(strstr(err, "two"));
    assert_int_equal(czk_srs_preload(f.m, "two", err, sizeof err), CZK_ERR_BUDGET);
    /* The held key is intact and still usable. */
    struct czk_srs_info i = info_of(&f, "one");
    assert_int_equal(i.tier, CZK_SRS_WARM);
    assert_int_equal(i.n_evictions, 0);
    assert_int_equal(info_of(&f, "two").tier, CZK_SRS_COLD);
    assert_int_equal(reserved(&f), HOST1);
    struct czk_prover_key_info ki;
    czk_prover_key_get_info(k1, &ki);
    assert_int_equal(ki.n_public, CZK_GEN_MUL_PUBLIC);
    /* Evicting a held key: busy. */
    assert_int_equal(czk_srs_evict(f.m, "one"), CZK_ERR_BUSY);
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_WARM);
    czk_srs_release(f.m, "one");
    /* Once released, the second one fits by evicting it. */
    assert_int_equal(czk_srs_acquire(f.m, "two", NULL, &k2, err, sizeof err), CZK_OK);
    assert_int_equal(info_of(&f, "one").n_evictions, 1);
    czk_srs_release(f.m, "two");
    fx_free(&f);
}

static void test_too_large(void **state)
{
    (void)state;
    /* A key larger than the whole budget fails at once, even with waiting allowed. */
    struct fx f;
    fx_new(&f, HOST1 / 2, -1);
    char err[512] = "";
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    czk_prover_key_t k = NULL;
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k, err, sizeof err), CZK_ERR_BUDGET);
    assert_non_null(strstr(err, "more than budget"));
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_COLD);
    fx_free(&f);
}

struct releaser {
    struct fx *f;
    const char *id;
    unsigned delay_ms;
    int released; /* set (atomically) just before the release */
};

static void *release_later(void *arg)
{
    struct releaser *r = arg;
    struct timespec ts = {0, (long)r->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    __atomic_store_n(&r->released, 1, __ATOMIC_SEQ_CST);
    czk_srs_release(r->f->m, r->id);
    return NULL;
}

static void test_wait_for_release(void **state)
{
    (void)state;
    /* wait_ms > 0: acquiring the second key waits while the first is held, and gets it
     * (the first evicted) once another thread releases the first. */
    struct fx f;
    fx_new(&f, HOST2 + HOST1 / 2, 10000);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(f.m, "two", ZKEY2, err, sizeof err), CZK_OK);
    czk_prover_key_t k1 = NULL, k2 = NULL;
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k1, err, sizeof err), CZK_OK);
    struct releaser r = {&f, "one", 100, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, release_later, &r), 0);
    assert_int_equal(czk_srs_acquire(f.m, "two", NULL, &k2, err, sizeof err), CZK_OK);
    /* It cannot have succeeded before the release (an ordering check, not a timing one). */
    assert_int_equal(__atomic_load_n(&r.released, __ATOMIC_SEQ_CST), 1);
    pthread_join(th, NULL);
    assert_non_null(k2);
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_COLD);
    assert_int_equal(info_of(&f, "one").n_evictions, 1);
    assert_int_equal(reserved(&f), HOST2);
    czk_srs_release(f.m, "two");

    /* A bounded wait that nobody ends fails with CZK_ERR_BUDGET. */
    czk_srs_mgr_free(f.m);
    struct czk_srs_opts o = {0};
    o.host_budget = f.budget;
    o.threads = 2;
    o.wait_ms = 50;
    assert_int_equal(czk_srs_mgr_new(&f.m, &o), CZK_OK);
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_register(f.m, "two", ZKEY2, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k1, err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_acquire(f.m, "two", NULL, &k2, err, sizeof err), CZK_ERR_BUDGET);
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_WARM);
    czk_srs_release(f.m, "one");
    fx_free(&f);
}

struct racer {
    struct fx *f;
    pthread_barrier_t *bar;
    czk_prover_key_t key;
    enum czk_status st;
};

static void *race_acquire(void *arg)
{
    struct racer *r = arg;
    char err[256];
    pthread_barrier_wait(r->bar);
    r->st = czk_srs_acquire(r->f->m, "two", NULL, &r->key, err, sizeof err);
    return NULL;
}

static void test_concurrent_acquire(void **state)
{
    (void)state;
    struct fx f;
    fx_new(&f, 1ull << 40, 0);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "two", ZKEY2, err, sizeof err), CZK_OK);
    log_capture();
    enum { N = 4 };
    pthread_barrier_t bar;
    assert_int_equal(pthread_barrier_init(&bar, NULL, N), 0);
    struct racer r[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        r[i] = (struct racer){&f, &bar, NULL, CZK_ERR_INTERNAL};
        assert_int_equal(pthread_create(&th[i], NULL, race_acquire, &r[i]), 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&bar);
    log_restore();
    for (int i = 0; i < N; i++) {
        assert_int_equal(r[i].st, CZK_OK);
        assert_ptr_equal(r[i].key, r[0].key);
    }
    struct czk_srs_info i = info_of(&f, "two");
    assert_int_equal(i.n_loads, 1);
    assert_int_equal(LOG_LOADS, 1);
    assert_int_equal(reserved(&f), HOST2);
    assert_int_equal(czk_srs_evict(f.m, "two"), CZK_ERR_BUSY);
    for (int k = 0; k < N - 1; k++) {
        czk_srs_release(f.m, "two");
        assert_int_equal(czk_srs_evict(f.m, "two"), CZK_ERR_BUSY); /* still held */
    }
    czk_srs_release(f.m, "two");
    assert_int_equal(czk_srs_evict(f.m, "two"), CZK_OK);
    assert_int_equal(info_of(&f, "two").tier, CZK_SRS_COLD);
    fx_free(&f);
}

static void test_preload_evict(void **state)
{
    (void)state;
    struct fx f;
    fx_new(&f, 1ull << 40, 0);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    /* Evicting a cold key: nothing to do. */
    assert_int_equal(czk_srs_evict(f.m, "one"), CZK_OK);
    assert_int_equal(info_of(&f, "one").n_evictions, 0);
    /* Preload makes it warm without holding it; twice loads once. */
    assert_int_equal(czk_srs_preload(f.m, "one", err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_preload(f.m, "one", err, sizeof err), CZK_OK);
    struct czk_srs_info i = info_of(&f, "one");
    assert_int_equal(i.tier, CZK_SRS_WARM);
    assert_int_equal(i.n_loads, 1);
    assert_int_equal(reserved(&f), HOST1);
    /* Not held: evict drops it to cold and returns its bytes. */
    assert_int_equal(czk_srs_evict(f.m, "one"), CZK_OK);
    i = info_of(&f, "one");
    assert_int_equal(i.tier, CZK_SRS_COLD);
    assert_int_equal(i.n_evictions, 1);
    assert_int_equal(reserved(&f), 0);
    /* Acquire after evict loads again. */
    czk_prover_key_t k;
    assert_int_equal(czk_srs_acquire(f.m, "one", NULL, &k, err, sizeof err), CZK_OK);
    assert_int_equal(info_of(&f, "one").n_loads, 2);
    assert_int_equal(czk_srs_evict(f.m, "one"), CZK_ERR_BUSY);
    czk_srs_release(f.m, "one");
    assert_int_equal(czk_srs_evict(f.m, NULL), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_preload(f.m, NULL, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_srs_info(f.m, "one", NULL), CZK_ERR_INVALID_ARG);
    fx_free(&f);
}

static void test_hot_tier(void **state)
{
    (void)state;
    /* With a device budget the key is counted hot there (device_bytes) until evicted. */
    struct fx f;
    fx_new(&f, 1ull << 40, 0);
    char err[512];
    assert_int_equal(czk_srs_register(f.m, "one", ZKEY1, err, sizeof err), CZK_OK);
    czk_budget_t dev;
    assert_int_equal(czk_budget_new(&dev, "gpu0", 1ull << 40), CZK_OK);
    czk_prover_key_t k;
    assert_int_equal(czk_srs_acquire(f.m, "one", dev, &k, err, sizeof err), CZK_OK);
    struct czk_srs_info i = info_of(&f, "one");
    assert_int_equal(i.tier, CZK_SRS_HOT);
    assert_true(i.device_bytes > 0);
    struct czk_budget_stats bs;
    czk_budget_get_stats(dev, &bs);
    assert_int_equal(bs.reserved, i.device_bytes);
    /* A second acquire on the same device does not count it twice. */
    assert_int_equal(czk_srs_acquire(f.m, "one", dev, &k, err, sizeof err), CZK_OK);
    czk_budget_get_stats(dev, &bs);
    assert_int_equal(bs.reserved, i.device_bytes);
    czk_srs_release(f.m, "one");
    czk_srs_release(f.m, "one");
    /* The device goes away (its engine stops): the key stays warm, the device budget empties. */
    czk_srs_forget_device(f.m, dev);
    czk_budget_get_stats(dev, &bs);
    assert_int_equal(bs.reserved, 0);
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_WARM);
    assert_int_equal(czk_srs_acquire(f.m, "one", dev, &k, err, sizeof err), CZK_OK);
    czk_srs_release(f.m, "one");
    assert_int_equal(czk_srs_evict(f.m, "one"), CZK_OK);
    czk_budget_get_stats(dev, &bs);
    assert_int_equal(bs.reserved, 0);
    assert_int_equal(info_of(&f, "one").tier, CZK_SRS_COLD);
    fx_free(&f);
    czk_budget_free(dev);
}

int main(void)
{
    czk_test_seed_init("srs");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_args),
        cmocka_unit_test(test_register_validation),
        cmocka_unit_test(test_acquire_release),
        cmocka_unit_test(test_load_error),
        cmocka_unit_test(test_lru_eviction),
        cmocka_unit_test(test_lru_order),
        cmocka_unit_test(test_held_never_evicted),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_wait_for_release),
        cmocka_unit_test(test_concurrent_acquire),
        cmocka_unit_test(test_preload_evict),
        cmocka_unit_test(test_hot_tier),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
