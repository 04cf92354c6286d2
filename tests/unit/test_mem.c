/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of src/mem: size parsing, the default host budget, budgets (limits,
 * timeouts, cancel, FIFO order, many threads never above the limit) and the slab pool
 * (exhaustion, waits, timeouts, cancel, pageable fallback and its budget accounting,
 * creation failures leaving nothing reserved or allocated, misuse detection).
 * No assertion depends on timing: waits are made observable through the stats
 * (n_waits) and short timeouts only have to end.
 */
#include <stdatomic.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#include "mem/mem.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void set_flag(volatile int *f) { __atomic_store_n(f, 1, __ATOMIC_RELAXED); }

/* Logs captured while a test runs: count of messages containing a substring. */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char log_buf[16384];
static size_t log_len;

static void log_sink(enum czk_log_level level, const char *comp, const char *msg, void *user)
{
    (void)level;
    (void)user;
    pthread_mutex_lock(&log_mu);
    int n = snprintf(log_buf + log_len, sizeof log_buf - log_len, "%s: %s\n", comp, msg);
    if (n > 0 && (size_t)n < sizeof log_buf - log_len)
        log_len += (size_t)n;
    pthread_mutex_unlock(&log_mu);
}

static void log_capture(void)
{
    pthread_mutex_lock(&log_mu);
    log_len = 0;
    log_buf[0] = '\0';
    pthread_mutex_unlock(&log_mu);
    czk_log_set(log_sink, NULL, CZK_LOG_DEBUG);
}

static unsigned log_count(const char *needle)
{
    unsigned n = 0;
    pthread_mutex_lock(&log_mu);
    for (const char *p = log_buf; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    pthread_mutex_unlock(&log_mu);
    return n;
}

static void log_restore(void) { czk_log_set(NULL, NULL, CZK_LOG_WARN); }

static struct czk_budget_stats bstats(czk_budget_t b)
{
    struct czk_budget_stats st;
    czk_budget_get_stats(b, &st);
    return st;
}

/* Waits (without a time limit: a hang is a failure ctest reports) until n_waits >= n. */
static void wait_budget_waiters(czk_budget_t b, uint64_t n)
{
    while (bstats(b).n_waits < n)
        sleep_ms(1);
}

/* ---- sizes -------------------------------------------------------------------------------- */

static void test_parse_size(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"0", 0},
        {"123", 123},
        {"64M", 64ull << 20},
        {"2G", 2ull << 30},
        {"1.5T", 3ull << 39},
        {"512MiB", 512ull << 20},
        {"4kB", 4096},
        {"4KB", 4096},
        {"4k", 4096},
        {"1B", 1},
        {"0.5K", 512},
        {"0.0009765625K", 1},        /* exactly 1 byte */
        {"1.0000000001K", 1024},     /* rounded down to whole bytes */
        {"3.14159265358979323846G", 3373259426ull}, /* digits past the 18th ignored */
        {"18446744073709551615", UINT64_MAX},
        {"16777215T", 16777215ull << 40},
        {"007", 7},
    };
    static const char *const bad[] = {
        "",    " 1",   "1 ",   "-1",   "+1",   "1.5",  "1.5B", "1.",  ".5G", "1X",
        "1KK", "1iB",  "1Bi",  "1GBB", "abc",  "1e9",  "0x10", "1,5G", "1P",  "G",
        "18446744073709551616", "16777216T", "99999999999999999999", "1. 5G", "1.5 G",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 42;
        if (!czk_mem_parse_size(good[i].s, &v))
            fail_msg("\"%s\" rejected", good[i].s);
        if (v != good[i].v)
            fail_msg("\"%s\" = %llu, expected %llu", good[i].s, (unsigned long long)v,
                     (unsigned long long)good[i].v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 42;
        if (czk_mem_parse_size(bad[i], &v))
            fail_msg("\"%s\" accepted as %llu", bad[i], (unsigned long long)v);
        assert_int_equal(v, 42); /* untouched */
    }
    uint64_t v;
    assert_false(czk_mem_parse_size(NULL, &v));
    assert_false(czk_mem_parse_size("1", NULL));
}

static void test_default_host_budget(void **state)
{
    (void)state;
    const char *old = getenv("CZK_HOST_BUDGET");
    char *saved = old ? strdup(old) : NULL;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    uint64_t phys = (uint64_t)pages * (uint64_t)psz;

    setenv("CZK_HOST_BUDGET", "3G", 1);
    assert_int_equal(czk_mem_default_host_budget(), 3ull << 30);
    setenv("CZK_HOST_BUDGET", "1.5M", 1);
    assert_int_equal(czk_mem_default_host_budget(), 3ull << 19);

    unsetenv("CZK_HOST_BUDGET");
    uint64_t d = czk_mem_default_host_budget();
    assert_true(d > 0);
    assert_true(d <= phys); /* 80% of MemAvailable <= physical memory */

    log_capture();
    setenv("CZK_HOST_BUDGET", "lots", 1);
    uint64_t g = czk_mem_default_host_budget();
    setenv("CZK_HOST_BUDGET", "0", 1);
    uint64_t z = czk_mem_default_host_budget();
    log_restore();
    assert_true(g > 0 && g <= phys); /* invalid: ignored, machine default */
    assert_true(z > 0 && z <= phys);
    assert_int_equal(log_count("CZK_HOST_BUDGET"), 2);

    if (saved) {
        setenv("CZK_HOST_BUDGET", saved, 1);
        free(saved);
    } else {
        unsetenv("CZK_HOST_BUDGET");
    }
    assert_true(czk_mem_trim() >= 0.0);
}

/* ---- budgets ------------------------------------------------------------------------------ */

static void test_budget_basic(void **state)
{
    (void)state;
    czk_budget_t b = NULL;
    assert_int_equal(czk_budget_new(&b, "x", 0), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_budget_new(&b, NULL, 10), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_budget_new(NULL, "x", 10), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_budget_new(&b, "host", 1000), CZK_OK);
    assert_string_equal(czk_budget_name(b), "host");

    assert_int_equal(czk_budget_reserve(b, 0, NULL, -1), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 600, NULL, -1), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 400, NULL, -1), CZK_OK); /* exactly the limit */
    struct czk_budget_stats st = bstats(b);
    assert_int_equal(st.limit, 1000);
    assert_int_equal(st.reserved, 1000);
    assert_int_equal(st.peak, 1000);
    assert_int_equal(st.n_reserve, 2);
    assert_int_equal(st.n_waits, 0);
    assert_false(czk_budget_try_reserve(b, 1));
    assert_true(czk_budget_try_reserve(b, 0));
    czk_budget_release(b, 700);
    assert_true(czk_budget_try_reserve(b, 200));
    st = bstats(b);
    assert_int_equal(st.reserved, 500);
    assert_int_equal(st.peak, 1000);

    /* larger than the limit: rejected at once, even with an endless timeout */
    assert_int_equal(czk_budget_reserve(b, 1001, NULL, -1), CZK_ERR_BUDGET);
    assert_false(czk_budget_try_reserve(b, 1001));
    assert_int_equal(czk_budget_reserve(b, UINT64_MAX, NULL, -1), CZK_ERR_BUDGET);
    st = bstats(b);
    assert_int_equal(st.n_rejected, 2);
    assert_int_equal(st.n_waits, 0);

    /* over-release: clamped to what is reserved, and logged */
    log_capture();
    czk_budget_release(b, 501);
    log_restore();
    assert_int_equal(bstats(b).reserved, 0);
    assert_int_equal(log_count("clamped"), 1);

    assert_int_equal(czk_budget_reserve(NULL, 1, NULL, 0), CZK_ERR_INVALID_ARG);
    czk_budget_free(b);
    czk_budget_free(NULL);
}

static void test_budget_timeout(void **state)
{
    (void)state;
    czk_budget_t b;
    assert_int_equal(czk_budget_new(&b, "t", 100), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 80, NULL, -1), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 30, NULL, 0), CZK_ERR_BUDGET); /* no wait */
    assert_int_equal(czk_budget_reserve(b, 30, NULL, 20), CZK_ERR_BUDGET);
    struct czk_budget_stats st = bstats(b);
    assert_int_equal(st.n_rejected, 2);
    assert_int_equal(st.n_waits, 1);
    assert_true(st.wait_ms_total > 0.0);
    assert_int_equal(st.reserved, 80);
    /* the queue is empty again: small requests go through */
    assert_true(czk_budget_try_reserve(b, 20));
    czk_budget_release(b, 100);
    czk_budget_free(b);
}

struct resv_arg {
    czk_budget_t b;
    uint64_t bytes;
    int timeout_ms;
    const volatile int *cancel;
    enum czk_status st;
    /* order of success, and hold-then-release behaviour for the FIFO test */
    _Atomic unsigned *seq;
    unsigned my_seq;
    bool release_after;
};

static void *resv_thread(void *p)
{
    struct resv_arg *a = p;
    a->st = czk_budget_reserve(a->b, a->bytes, a->cancel, a->timeout_ms);
    if (a->st == CZK_OK && a->seq)
        a->my_seq = atomic_fetch_add(a->seq, 1);
    if (a->st == CZK_OK && a->release_after)
        czk_budget_release(a->b, a->bytes);
    return NULL;
}

static void test_budget_cancel(void **state)
{
    (void)state;
    czk_budget_t b;
    volatile int cancel = 1;
    assert_int_equal(czk_budget_new(&b, "c", 100), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 100, NULL, -1), CZK_OK);
    /* already cancelled: no wait */
    assert_int_equal(czk_budget_reserve(b, 10, &cancel, -1), CZK_CANCELLED);
    assert_int_equal(bstats(b).n_waits, 0);
    /* cancelled while waiting forever: seen by polling, nobody signals */
    cancel = 0;
    struct resv_arg a = {b, 10, -1, &cancel, CZK_OK, NULL, 0, false};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, resv_thread, &a), 0);
    wait_budget_waiters(b, 1);
    set_flag(&cancel);
    pthread_join(t, NULL);
    assert_int_equal(a.st, CZK_CANCELLED);
    struct czk_budget_stats st = bstats(b);
    assert_int_equal(st.reserved, 100);
    assert_int_equal(st.n_rejected, 2);
    czk_budget_release(b, 100);
    czk_budget_free(b);
}

/* try_reserve fails while a reservation waits, even when the bytes would fit. */
static void test_budget_try_behind_waiter(void **state)
{
    (void)state;
    czk_budget_t b;
    assert_int_equal(czk_budget_new(&b, "w", 100), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 90, NULL, -1), CZK_OK);
    struct resv_arg a = {b, 50, -1, NULL, CZK_OK, NULL, 0, false};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, resv_thread, &a), 0);
    wait_budget_waiters(b, 1);
    assert_false(czk_budget_try_reserve(b, 5));              /* would fit: 95 <= 100 */
    assert_int_equal(czk_budget_reserve(b, 5, NULL, 0), CZK_ERR_BUDGET); /* queued behind */
    czk_budget_release(b, 90);
    pthread_join(t, NULL);
    assert_int_equal(a.st, CZK_OK);
    assert_int_equal(bstats(b).reserved, 50);
    czk_budget_release(b, 50);
    czk_budget_free(b);
}

/* A waiter leaving the head of the queue (timeout) passes the turn to the next one. */
static void test_budget_queue_departure(void **state)
{
    (void)state;
    czk_budget_t b;
    volatile int cancel = 0;
    assert_int_equal(czk_budget_new(&b, "q", 100), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 100, NULL, -1), CZK_OK);
    struct resv_arg a1 = {b, 60, 30, NULL, CZK_OK, NULL, 0, false};     /* head, times out */
    struct resv_arg a2 = {b, 60, -1, &cancel, CZK_OK, NULL, 0, false};  /* middle, cancelled */
    struct resv_arg a3 = {b, 60, -1, NULL, CZK_OK, NULL, 0, false};     /* tail, served */
    pthread_t t1, t2, t3;
    assert_int_equal(pthread_create(&t1, NULL, resv_thread, &a1), 0);
    wait_budget_waiters(b, 1);
    assert_int_equal(pthread_create(&t2, NULL, resv_thread, &a2), 0);
    wait_budget_waiters(b, 2);
    assert_int_equal(pthread_create(&t3, NULL, resv_thread, &a3), 0);
    wait_budget_waiters(b, 3);
    pthread_join(t1, NULL);
    assert_int_equal(a1.st, CZK_ERR_BUDGET);
    set_flag(&cancel);
    pthread_join(t2, NULL);
    assert_int_equal(a2.st, CZK_CANCELLED);
    czk_budget_release(b, 100);
    pthread_join(t3, NULL);
    assert_int_equal(a3.st, CZK_OK);
    assert_int_equal(bstats(b).reserved, 60);
    czk_budget_release(b, 60);
    czk_budget_free(b);
}

/* FIFO: a large request queued first is served before smaller ones queued after it. */
static void test_budget_fifo(void **state)
{
    (void)state;
    enum { N_SMALL = 4 };
    czk_budget_t b;
    _Atomic unsigned seq = 0;
    assert_int_equal(czk_budget_new(&b, "fifo", 100), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 100, NULL, -1), CZK_OK);
    struct resv_arg big = {b, 100, -1, NULL, CZK_OK, &seq, 0, true};
    struct resv_arg small[N_SMALL];
    pthread_t tb, ts[N_SMALL];
    assert_int_equal(pthread_create(&tb, NULL, resv_thread, &big), 0);
    wait_budget_waiters(b, 1);
    for (unsigned i = 0; i < N_SMALL; i++) {
        /* 60 each: one at a time fits, so the order of success is the order served */
        small[i] = (struct resv_arg){b, 60, -1, NULL, CZK_OK, &seq, 0, true};
        assert_int_equal(pthread_create(&ts[i], NULL, resv_thread, &small[i]), 0);
        wait_budget_waiters(b, 2 + i);
    }
    czk_budget_release(b, 100);
    pthread_join(tb, NULL);
    for (unsigned i = 0; i < N_SMALL; i++)
        pthread_join(ts[i], NULL);
    assert_int_equal(big.st, CZK_OK);
    assert_int_equal(big.my_seq, 0);
    for (unsigned i = 0; i < N_SMALL; i++) {
        assert_int_equal(small[i].st, CZK_OK);
        assert_int_equal(small[i].my_seq, 1 + i);
    }
    struct czk_budget_stats st = bstats(b);
    assert_int_equal(st.reserved, 0);
    assert_int_equal(st.peak, 100);
    assert_int_equal(st.n_reserve, 2 + N_SMALL);
    czk_budget_free(b);
}

/* Many threads reserving and releasing random amounts: a sampler never sees reserved
 * above the limit, and everything adds up at the end. */
enum { HAMMER_THREADS = 8, HAMMER_ITERS = 400 };
static const uint64_t HAMMER_LIMIT = 1000;

struct hammer {
    czk_budget_t b;
    _Atomic int done;
    _Atomic uint64_t max_seen, samples;
};

struct hammer_arg {
    czk_budget_t b;
    uint64_t seed;
};

static void *hammer_thread(void *p)
{
    struct hammer_arg *h = p;
    uint64_t x = h->seed | 1;
    for (unsigned i = 0; i < HAMMER_ITERS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t n = 1 + x % 400;
        /* mix of endless waits, short timeouts and try_reserve */
        bool ok;
        if (i % 3 == 2)
            ok = czk_budget_try_reserve(h->b, n);
        else
            ok = czk_budget_reserve(h->b, n, NULL, i % 3 ? 2 : -1) == CZK_OK;
        if (ok) {
            sched_yield(); /* hold it a moment: others must wait */
            czk_budget_release(h->b, n);
        }
    }
    return NULL;
}

static void *sampler_thread(void *p)
{
    struct hammer *h = p;
    while (!atomic_load(&h->done)) {
        uint64_t r = bstats(h->b).reserved;
        if (r > atomic_load(&h->max_seen))
            atomic_store(&h->max_seen, r);
        atomic_fetch_add(&h->samples, 1);
    }
    return NULL;
}

static void test_budget_hammer(void **state)
{
    (void)state;
    struct hammer h;
    h.b = NULL;
    atomic_init(&h.done, 0);
    atomic_init(&h.max_seen, 0);
    atomic_init(&h.samples, 0);
    assert_int_equal(czk_budget_new(&h.b, "hammer", HAMMER_LIMIT), CZK_OK);
    pthread_t s, t[HAMMER_THREADS];
    struct hammer_arg ht[HAMMER_THREADS];
    assert_int_equal(pthread_create(&s, NULL, sampler_thread, &h), 0);
    while (atomic_load(&h.samples) == 0) /* sampling before the hammers start */
        sched_yield();
    for (unsigned i = 0; i < HAMMER_THREADS; i++) {
        memset(&ht[i], 0, sizeof ht[i]); /* not a copy of h: the sampler writes its atomics */
        ht[i].b = h.b;
        ht[i].seed = czk_test_rand64();
        assert_int_equal(pthread_create(&t[i], NULL, hammer_thread, &ht[i]), 0);
    }
    for (unsigned i = 0; i < HAMMER_THREADS; i++)
        pthread_join(t[i], NULL);
    atomic_store(&h.done, 1);
    pthread_join(s, NULL);
    struct czk_budget_stats st = bstats(h.b);
    print_message("hammer: %llu samples, max reserved seen %llu, peak %llu, %llu waits, %llu "
                  "rejected\n",
                  (unsigned long long)atomic_load(&h.samples),
                  (unsigned long long)atomic_load(&h.max_seen), (unsigned long long)st.peak,
                  (unsigned long long)st.n_waits, (unsigned long long)st.n_rejected);
    assert_true(atomic_load(&h.samples) > 0);
    assert_true(atomic_load(&h.max_seen) <= HAMMER_LIMIT);
    assert_true(st.peak <= HAMMER_LIMIT);
    assert_int_equal(st.reserved, 0);
    assert_true(st.n_reserve > 0);
    assert_true(st.n_waits > 0); /* the test exercised the waiting path */
    czk_budget_free(h.b);
}

/* ---- pool --------------------------------------------------------------------------------- */

static struct czk_pool_stats pstats(czk_pool_t p)
{
    struct czk_pool_stats st;
    czk_pool_get_stats(p, &st);
    return st;
}

static uint64_t page_bytes(size_t n)
{
    uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
    return ((uint64_t)n + ps - 1) / ps * ps;
}

static void test_pool_basic(void **state)
{
    (void)state;
    enum { N = 64 };
    const size_t SZ = 10000;
    czk_pool_t p;
    assert_int_equal(czk_pool_new(&p, NULL, 0, 4, NULL), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_pool_new(&p, NULL, 4096, 0, NULL), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_pool_new(NULL, NULL, 4096, 1, NULL), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_pool_new(&p, NULL, SIZE_MAX, UINT32_MAX - 1, NULL),
                     CZK_ERR_INVALID_ARG); /* bytes overflow */
    assert_int_equal(czk_pool_new(&p, NULL, SZ, N, NULL), CZK_OK);
    struct czk_slab s[N];
    for (unsigned i = 0; i < N; i++) {
        assert_int_equal(czk_pool_acquire(p, false, NULL, 0, &s[i]), CZK_OK);
        assert_non_null(s[i].ptr);
        assert_int_equal(s[i].size, SZ);
        assert_true(s[i].index < N);
        assert_false(s[i].pinned);
        assert_int_equal((uintptr_t)s[i].ptr % 4096, 0);
        memset(s[i].ptr, (int)i, SZ); /* writable, whole size */
        for (unsigned j = 0; j < i; j++) {
            assert_true(s[i].index != s[j].index);
            assert_true(s[i].ptr != s[j].ptr);
        }
    }
    struct czk_pool_stats st = pstats(p);
    assert_int_equal(st.n_free, 0);
    assert_int_equal(st.n_slabs, N);
    assert_int_equal(st.slab_size, SZ);
    assert_int_equal(st.n_acquire, N);
    struct czk_slab extra;
    assert_int_equal(czk_pool_acquire(p, false, NULL, 0, &extra), CZK_ERR_BUSY);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(((unsigned char *)s[i].ptr)[SZ - 1], (unsigned char)i);
    /* a stack: the slab given back last is the next one handed out */
    uint32_t idx = s[7].index;
    void *ptr = s[7].ptr;
    czk_pool_release(p, &s[7]);
    assert_null(s[7].ptr); /* the caller's slab is cleared */
    assert_int_equal(czk_pool_acquire(p, false, NULL, 0, &s[7]), CZK_OK);
    assert_int_equal(s[7].index, idx);
    assert_ptr_equal(s[7].ptr, ptr);
    for (unsigned i = 0; i < N; i++)
        czk_pool_release(p, &s[i]);
    st = pstats(p);
    assert_int_equal(st.n_free, N);
    assert_int_equal(st.n_waits, 0);
    assert_int_equal(st.n_fallback, 0);
    czk_pool_free(p);
    czk_pool_free(NULL);
}

struct acq_arg {
    czk_pool_t p;
    int timeout_ms;
    const volatile int *cancel;
    enum czk_status st;
    struct czk_slab s;
};

static void *acq_thread(void *v)
{
    struct acq_arg *a = v;
    a->st = czk_pool_acquire(a->p, false, a->cancel, a->timeout_ms, &a->s);
    return NULL;
}

static void wait_pool_waiters(czk_pool_t p, uint64_t n)
{
    while (pstats(p).n_waits < n)
        sleep_ms(1);
}

static void test_pool_wait(void **state)
{
    (void)state;
    czk_pool_t p;
    volatile int cancel = 0;
    assert_int_equal(czk_pool_new(&p, NULL, 4096, 1, NULL), CZK_OK);
    struct czk_slab s;
    assert_int_equal(czk_pool_acquire(p, false, NULL, -1, &s), CZK_OK);

    /* exhausted: a release wakes the waiter, which gets that slab */
    struct acq_arg a = {p, -1, NULL, CZK_OK, {0}};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, acq_thread, &a), 0);
    wait_pool_waiters(p, 1);
    uint32_t idx = s.index;
    czk_pool_release(p, &s);
    pthread_join(t, NULL);
    assert_int_equal(a.st, CZK_OK);
    assert_int_equal(a.s.index, idx);

    /* timeout */
    assert_int_equal(czk_pool_acquire(p, false, NULL, 20, &s), CZK_ERR_BUSY);
    assert_int_equal(pstats(p).n_waits, 2);
    assert_true(pstats(p).wait_ms_total > 0.0);

    /* cancel: before waiting, and while waiting forever */
    cancel = 1;
    assert_int_equal(czk_pool_acquire(p, false, &cancel, -1, &s), CZK_CANCELLED);
    assert_int_equal(pstats(p).n_waits, 2);
    cancel = 0;
    struct acq_arg c = {p, -1, &cancel, CZK_OK, {0}};
    assert_int_equal(pthread_create(&t, NULL, acq_thread, &c), 0);
    wait_pool_waiters(p, 3);
    set_flag(&cancel);
    pthread_join(t, NULL);
    assert_int_equal(c.st, CZK_CANCELLED);

    czk_pool_release(p, &a.s);
    assert_int_equal(pstats(p).n_free, 1);
    czk_pool_free(p);
}

static void test_pool_fallback(void **state)
{
    (void)state;
    const size_t SZ = 5000;
    const uint64_t SLAB = page_bytes(SZ);
    czk_budget_t b;
    czk_pool_t p;
    assert_int_equal(czk_budget_new(&b, "host", 4 * SLAB), CZK_OK);
    assert_int_equal(czk_pool_new(&p, NULL, SZ, 2, b), CZK_OK);
    assert_int_equal(bstats(b).reserved, 2 * SLAB); /* the pool's bytes, for its lifetime */

    struct czk_slab s[5];
    assert_int_equal(czk_pool_acquire(p, true, NULL, 0, &s[0]), CZK_OK);
    assert_int_equal(czk_pool_acquire(p, true, NULL, 0, &s[1]), CZK_OK);
    assert_true(s[0].index != UINT32_MAX && s[1].index != UINT32_MAX);
    log_capture();
    assert_int_equal(czk_pool_acquire(p, true, NULL, 0, &s[2]), CZK_OK);
    assert_int_equal(czk_pool_acquire(p, true, NULL, -1, &s[3]), CZK_OK);
    /* budget full now: no third pageable slab */
    assert_int_equal(czk_pool_acquire(p, true, NULL, -1, &s[4]), CZK_ERR_BUDGET);
    log_restore();
    assert_int_equal(log_count("pageable"), 1); /* warned once per pool */
    for (unsigned i = 2; i < 4; i++) {
        assert_int_equal(s[i].index, UINT32_MAX);
        assert_false(s[i].pinned);
        assert_int_equal(s[i].size, SZ);
        memset(s[i].ptr, 0xab, SZ);
    }
    struct czk_pool_stats st = pstats(p);
    assert_int_equal(st.n_fallback, 2);
    assert_int_equal(st.n_acquire, 4);
    assert_int_equal(st.n_waits, 0);
    assert_int_equal(bstats(b).reserved, 4 * SLAB);
    czk_pool_release(p, &s[2]);
    assert_int_equal(bstats(b).reserved, 3 * SLAB);
    czk_pool_release(p, &s[3]);
    czk_pool_release(p, &s[0]);
    czk_pool_release(p, &s[1]);
    assert_int_equal(bstats(b).reserved, 2 * SLAB);
    assert_int_equal(pstats(p).n_free, 2);
    czk_pool_free(p);
    assert_int_equal(bstats(b).reserved, 0);
    assert_int_equal(bstats(b).peak, 4 * SLAB);
    czk_budget_free(b);
}

/* An allocator that fails after `left` allocations and counts what is outstanding. */
struct fail_alloc {
    int left;
    int outstanding;
};

static void *fail_alloc_fn(void *ctx, size_t size)
{
    struct fail_alloc *f = ctx;
    if (f->left-- <= 0)
        return NULL;
    f->outstanding++;
    return czk_allocator_host()->alloc(NULL, size);
}

static void fail_free_fn(void *ctx, void *ptr, size_t size)
{
    struct fail_alloc *f = ctx;
    f->outstanding--;
    czk_allocator_host()->free(NULL, ptr, size);
}

static void test_pool_new_failures(void **state)
{
    (void)state;
    czk_budget_t b;
    czk_pool_t p = NULL;
    assert_int_equal(czk_budget_new(&b, "small", 3 * 4096), CZK_OK);
    assert_int_equal(czk_budget_reserve(b, 4096, NULL, 0), CZK_OK);
    /* does not fit: nothing reserved, nothing allocated */
    assert_int_equal(czk_pool_new(&p, NULL, 4096, 3, b), CZK_ERR_BUDGET);
    assert_null(p);
    assert_int_equal(bstats(b).reserved, 4096);

    /* allocation failing half-way: the slabs made so far are freed, the budget restored */
    struct fail_alloc f = {3, 0};
    const struct czk_allocator fa = {"failing", true, fail_alloc_fn, fail_free_fn, &f};
    log_capture();
    assert_int_equal(czk_pool_new(&p, &fa, 4096, 2 + 3, NULL), CZK_ERR_NOMEM);
    log_restore();
    assert_null(p);
    assert_int_equal(f.outstanding, 0);
    czk_budget_release(b, 4096);
    f.left = 2;
    log_capture();
    assert_int_equal(czk_pool_new(&p, &fa, 4096, 3, b), CZK_ERR_NOMEM);
    log_restore();
    assert_int_equal(f.outstanding, 0);
    assert_int_equal(bstats(b).reserved, 0);

    /* the pinned flag of the allocator reaches the slabs */
    f.left = 100;
    assert_int_equal(czk_pool_new(&p, &fa, 4096, 3, b), CZK_OK);
    assert_int_equal(f.outstanding, 3);
    struct czk_slab s;
    assert_int_equal(czk_pool_acquire(p, false, NULL, 0, &s), CZK_OK);
    assert_true(s.pinned);
    czk_pool_release(p, &s);
    czk_pool_free(p);
    assert_int_equal(f.outstanding, 0);
    assert_int_equal(bstats(b).reserved, 0);
    czk_budget_free(b);
}

static void test_pool_misuse(void **state)
{
    (void)state;
    czk_pool_t p, q;
    assert_int_equal(czk_pool_new(&p, NULL, 4096, 2, NULL), CZK_OK);
    assert_int_equal(czk_pool_new(&q, NULL, 4096, 2, NULL), CZK_OK);
    struct czk_slab s, copy, foreign;
    assert_int_equal(czk_pool_acquire(p, false, NULL, 0, &s), CZK_OK);
    assert_int_equal(czk_pool_acquire(q, false, NULL, 0, &foreign), CZK_OK);
    copy = s;
    log_capture();
    czk_pool_release(p, &s);
    czk_pool_release(p, &copy);    /* double release: ignored */
    czk_pool_release(p, &foreign); /* another pool's slab: ignored */
    struct czk_slab fake = {foreign.ptr, 4096, UINT32_MAX, false};
    czk_pool_release(p, &fake);    /* a "pageable" slab p never handed out */
    log_restore();
    assert_int_equal(log_count("not out"), 2);
    assert_int_equal(log_count("did not hand out"), 1);
    assert_int_equal(pstats(p).n_free, 2);
    /* freeing a pool with a slab still out is reported */
    log_capture();
    czk_pool_free(q);
    log_restore();
    assert_int_equal(log_count("still out"), 1);
    czk_pool_free(p);
}

int main(void)
{
    czk_test_seed_init("mem");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_default_host_budget),
        cmocka_unit_test(test_budget_basic),
        cmocka_unit_test(test_budget_timeout),
        cmocka_unit_test(test_budget_cancel),
        cmocka_unit_test(test_budget_try_behind_waiter),
        cmocka_unit_test(test_budget_queue_departure),
        cmocka_unit_test(test_budget_fifo),
        cmocka_unit_test(test_budget_hammer),
        cmocka_unit_test(test_pool_basic),
        cmocka_unit_test(test_pool_wait),
        cmocka_unit_test(test_pool_fallback),
        cmocka_unit_test(test_pool_new_failures),
        cmocka_unit_test(test_pool_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
