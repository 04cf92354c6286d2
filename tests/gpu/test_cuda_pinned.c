/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pinned host memory for the CUDA path (label gpu; exit 77 without a GPU):
 *   - the "cuda-pinned" allocator (src/cuda/pinned.h): name and pinned flag, page-aligned
 *     page-locked memory that can be written and freed, a slab pool on it, sizes that cannot
 *     be had (huge, wrapping, 0) returning NULL without losing the device;
 *   - the engine's default slab allocator: cuda-pinned with CUDA devices, host with the CPU
 *     device or when the configuration names one (read from its INFO log line);
 *   - uploads from pageable memory (staged through the context's pinned double buffer from
 *     1 MiB up) and from pinned memory (direct): buf_from_host, buf_set and buf_set_async of
 *     random bytes, sizes 0, 1, 4095, 1 MiB - 1, 1 MiB, 8 MiB + 5, 64 MiB + 17, read back
 *     bit-exact; writes at offsets into a buffer (odd offsets and sources, chunk boundaries);
 *     back-to-back async staged uploads;
 *   - informational: H2D GB/s of a 64 MiB + 17 upload staged from pageable memory, by a
 *     plain cudaMemcpy from the same pageable memory, and from pinned memory (never asserted).
 */
#include "test_util.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "czk/czk_backend.h"
#ifdef CZK_USE_CUDA
#include "backend/backend_impl.h"
#include "czk/engine.h"
#include "cuda/cuda_check.h"
#include "cuda/pinned.h"
#include "engine/srs.h"
#include "mem/mem.h"

#define MiB ((size_t)1 << 20)

static czk_device_t gpu_dev(void)
{
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    czk_device_t dev = czk_backend_reg_device_get(reg, 0);
    assert_non_null(dev);
    return dev;
}

static czk_backend_t gpu_backend(void)
{
    char err[256] = "";
    czk_backend_t be = NULL;
    enum czk_status st = czk_backend_new(gpu_dev(), 2, &be, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "backend: %s\n", err);
    assert_int_equal(st, CZK_OK);
    return be;
}

/* The CUDA ordinal of a device buffer (for raw cudaMemcpy and lost checks). */
static int buf_ordinal(czk_buf_t b)
{
    struct cudaPointerAttributes a;
    assert_int_equal(cudaPointerGetAttributes(&a, b->ptr), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeDevice);
    return a.device;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

/* Bit-exact comparison that reports the first difference only (cmocka's assert_memory_equal
 * prints every differing byte: megabytes of output for a broken 64 MiB upload). */
#define assert_bytes_equal(got, want, n) bytes_equal((got), (want), (n), __FILE__, __LINE__)
static void bytes_equal(const void *got, const void *want, size_t n, const char *file, int line)
{
    if (n == 0 || memcmp(got, want, n) == 0)
        return;
    const uint8_t *g = got, *w = want;
    size_t first = 0, count = 0;
    while (g[first] == w[first])
        first++;
    for (size_t i = first; i < n; i++)
        count += g[i] != w[i];
    print_error("%s:%d: %zu of %zu bytes differ, the first at offset %zu (0x%02x, want 0x%02x)\n",
                file, line, count, n, first, g[first], w[first]);
    fail();
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the allocator ------------------------------------------------------------------- */

static void test_allocator(void **state)
{
    (void)state;
    const struct czk_allocator *a = czk_cuda_pinned_allocator();
    assert_non_null(a);
    assert_ptr_equal(a, czk_cuda_pinned_allocator());
    assert_string_equal(a->name, "cuda-pinned");
    assert_true(a->pinned);
    assert_non_null(a->alloc);
    assert_non_null(a->free);
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);

    const size_t sizes[] = {1, 4095, 4096, 3 * MiB + 7};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        uint8_t *p = a->alloc(a->ctx, n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % ps, 0);
        struct cudaPointerAttributes at;
        assert_int_equal(cudaPointerGetAttributes(&at, p), cudaSuccess);
        assert_int_equal(at.type, cudaMemoryTypeHost); /* page-locked */
        for (size_t k = 0; k < n; k++)
            p[k] = (uint8_t)(k * 131 + 7);
        for (size_t k = 0; k < n; k += 4093)
            assert_int_equal(p[k], (uint8_t)(k * 131 + 7));
        assert_int_equal(p[n - 1], (uint8_t)((n - 1) * 131 + 7));
        a->free(a->ctx, p, n);
    }

    /* sizes that cannot be had: NULL, and the device stays usable */
    assert_null(a->alloc(a->ctx, 0));
    assert_null(a->alloc(a->ctx, SIZE_MAX));           /* page rounding would wrap */
    assert_null(a->alloc(a->ctx, SIZE_MAX - 100));
    assert_null(a->alloc(a->ctx, (size_t)1 << 62));    /* beyond any address space */
    int dev = -1;
    assert_int_equal(cudaGetDevice(&dev), cudaSuccess);
    assert_false(czk_cuda_device_lost(dev));
    void *p = a->alloc(a->ctx, MiB);
    assert_non_null(p);
    a->free(a->ctx, p, MiB);
    a->free(a->ctx, NULL, 0); /* no-op */
}

static void test_pool_pinned(void **state)
{
    (void)state;
    czk_budget_t budget = NULL;
    assert_int_equal(czk_budget_new(&budget, "host", 64 * MiB), CZK_OK);
    czk_pool_t pool = NULL;
    const size_t slab = 2 * MiB + 3;
    assert_int_equal(czk_pool_new(&pool, czk_cuda_pinned_allocator(), slab, 2, budget), CZK_OK);
    struct czk_slab s0, s1;
    assert_int_equal(czk_pool_acquire(pool, false, NULL, 0, &s0), CZK_OK);
    assert_int_equal(czk_pool_acquire(pool, false, NULL, 0, &s1), CZK_OK);
    assert_true(s0.pinned);
    assert_true(s1.pinned);
    assert_int_equal(s0.size, slab);
    czk_test_rand_bytes(s0.ptr, slab);
    /* the engine's path: a witness in a pinned slab uploaded directly */
    czk_backend_t be = gpu_backend();
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_from_host(be, s0.ptr, slab, &b), CZK_OK);
    assert_int_equal(czk_buf_get(be, b, 0, s1.ptr, slab), CZK_OK);
    assert_bytes_equal(s0.ptr, s1.ptr, slab);
    czk_buf_free(b);
    czk_backend_free(be);
    czk_pool_release(pool, &s0);
    czk_pool_release(pool, &s1);
    czk_pool_free(pool);
    struct czk_budget_stats bs;
    czk_budget_get_stats(budget, &bs);
    assert_int_equal(bs.reserved, 0);
    czk_budget_free(budget);
}

/* ---- the engine's default ------------------------------------------------------------ */

static pthread_mutex_t g_log_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_pool_line[256];

static void log_sink(enum czk_log_level level, const char *comp, const char *msg, void *user)
{
    (void)user;
    if (level == CZK_LOG_INFO && strcmp(comp, "engine") == 0 && strncmp(msg, "pool:", 5) == 0) {
        pthread_mutex_lock(&g_log_mu);
        snprintf(g_pool_line, sizeof g_pool_line, "%s", msg);
        pthread_mutex_unlock(&g_log_mu);
    }
    if (level >= CZK_LOG_WARN)
        fprintf(stderr, "[%s] %s\n", comp, msg);
}

/* Starts and stops an engine on `devices`; returns its pool's INFO line. */
static void engine_pool_line(const char *devices, const struct czk_allocator *alloc, char *line,
                             size_t len)
{
    char err[256] = "";
    czk_budget_t budget = NULL;
    assert_int_equal(czk_budget_new(&budget, "host", 256 * MiB), CZK_OK);
    struct czk_srs_opts so = {0};
    so.host_budget = budget;
    so.threads = 1;
    czk_srs_mgr_t srs = NULL;
    assert_int_equal(czk_srs_mgr_new(&srs, &so), CZK_OK);
    struct czk_engine_config c;
    memset(&c, 0, sizeof c);
    c.srs = srs;
    c.host_budget = budget;
    c.devices = devices;
    c.gpu_workers_per_device = 1;
    c.synth_workers = 1;
    c.finalizer_workers = 1;
    c.backend_threads = 1;
    c.n_slabs = 2;
    c.slab_bytes = MiB;
    c.slab_allocator = alloc;
    pthread_mutex_lock(&g_log_mu);
    g_pool_line[0] = 0;
    pthread_mutex_unlock(&g_log_mu);
    enum czk_log_level lvl = czk_log_level_get();
    czk_log_set(log_sink, NULL, CZK_LOG_INFO);
    czk_engine_t e = NULL;
    enum czk_status st = czk_engine_new(&e, &c, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "engine (%s): %s\n", devices, err);
    assert_int_equal(st, CZK_OK);
    czk_engine_free(e);
    czk_log_set(NULL, NULL, lvl);
    pthread_mutex_lock(&g_log_mu);
    snprintf(line, len, "%s", g_pool_line);
    pthread_mutex_unlock(&g_log_mu);
    printf("engine devices=%s: %s\n", devices, line);
    czk_srs_mgr_free(srs);
    czk_budget_free(budget);
}

static void test_engine_default(void **state)
{
    (void)state;
    char line[256];
    engine_pool_line("cuda", NULL, line, sizeof line);
    assert_non_null(strstr(line, "allocator cuda-pinned"));
    engine_pool_line("auto", NULL, line, sizeof line); /* every GPU */
    assert_non_null(strstr(line, "allocator cuda-pinned"));
    engine_pool_line("cpu", NULL, line, sizeof line);
    assert_non_null(strstr(line, "allocator host"));
    engine_pool_line("cuda", czk_allocator_host(), line, sizeof line); /* configured: kept */
    assert_non_null(strstr(line, "allocator host"));
}

/* ---- uploads --------------------------------------------------------------------------- */

static const size_t UPLOAD_SIZES[] = {0, 1, 4095, MiB - 1, MiB, 8 * MiB + 5, 64 * MiB + 17};
#define N_UPLOAD_SIZES (sizeof UPLOAD_SIZES / sizeof UPLOAD_SIZES[0])

static void test_upload_sizes(void **state)
{
    (void)state;
    czk_backend_t be = gpu_backend();
    czk_device_t dev = gpu_dev();
    for (size_t i = 0; i < N_UPLOAD_SIZES; i++) {
        size_t n = UPLOAD_SIZES[i];
        uint8_t *src = xmalloc(n), *src2 = xmalloc(n), *back = xmalloc(n);
        if (n >= MiB) { /* malloc'd memory is pageable: these take the staged path */
            struct cudaPointerAttributes at;
            assert_int_equal(cudaPointerGetAttributes(&at, src), cudaSuccess);
            assert_int_equal(at.type, cudaMemoryTypeUnregistered);
        }
        czk_test_rand_bytes(src, n);
        czk_test_rand_bytes(src2, n);
        if (n == 0) {
            czk_buf_t b = NULL, small = NULL;
            assert_int_equal(czk_buf_from_host(be, src, 0, &b), CZK_ERR_INVALID_ARG);
            assert_int_equal(czk_buf_alloc(dev, 64, &small), CZK_OK);
            assert_int_equal(czk_buf_set(be, small, 0, src, 0), CZK_OK);
            assert_int_equal(czk_buf_set(be, small, 64, src, 0), CZK_OK);
            assert_int_equal(czk_buf_set_async(be, small, 0, src, 0), CZK_OK);
            assert_int_equal(czk_backend_synchronize(be), CZK_OK);
            czk_buf_free(small);
            free(src);
            free(src2);
            free(back);
            continue;
        }
        /* buf_from_host */
        czk_buf_t b = NULL;
        assert_int_equal(czk_buf_from_host(be, src, n, &b), CZK_OK);
        memset(back, 0x5a, n);
        assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
        assert_bytes_equal(back, src, n);
        /* buf_set over it */
        assert_int_equal(czk_buf_set(be, b, 0, src2, n), CZK_OK);
        memset(back, 0xa5, n);
        assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
        assert_bytes_equal(back, src2, n);
        /* buf_set_async, then synchronize */
        assert_int_equal(czk_buf_set_async(be, b, 0, src, n), CZK_OK);
        assert_int_equal(czk_backend_synchronize(be), CZK_OK);
        memset(back, 0x3c, n);
        assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
        assert_bytes_equal(back, src, n);
        printf("size %zu: from_host, set, set_async bit-exact\n", n);
        czk_buf_free(b);
        free(src);
        free(src2);
        free(back);
    }
    czk_backend_free(be);
}

/* Writes at offsets into one buffer, mirrored on the host, then the whole buffer compared. */
static void test_upload_offsets(void **state)
{
    (void)state;
    czk_backend_t be = gpu_backend();
    const size_t total = 24 * MiB + 123;
    uint8_t *mirror = xmalloc(total), *back = xmalloc(total), *src = xmalloc(total + 64);
    czk_test_rand_bytes(mirror, total);
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_from_host(be, mirror, total, &b), CZK_OK);
    struct {
        size_t off, len, src_off;
        bool async;
    } w[] = {
        {3, 9 * MiB + 7, 1, false},            /* odd destination and source, two chunks */
        {9 * MiB + 10, MiB, 0, false},         /* exactly the staging threshold */
        {0, 3, 5, false},                      /* small: direct */
        {total - (MiB - 1), MiB - 1, 3, false}, /* to the end, just under the threshold */
        {8 * MiB - 1, 8 * MiB + 2, 7, true},   /* across chunk boundaries, async */
        {16 * MiB + 1, 8 * MiB, 0, true},      /* one full chunk, async, right after */
        {total - 1, 1, 9, false},              /* the last byte */
        {total, 0, 0, false},                  /* empty at the end */
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        uint8_t *s = src + w[i].src_off;
        czk_test_rand_bytes(s, w[i].len);
        if (w[i].async) {
            assert_int_equal(czk_buf_set_async(be, b, w[i].off, s, w[i].len), CZK_OK);
            /* the contract keeps the source unchanged until synchronize: use a fresh one */
            assert_int_equal(czk_backend_synchronize(be), CZK_OK);
        } else {
            assert_int_equal(czk_buf_set(be, b, w[i].off, s, w[i].len), CZK_OK);
        }
        memcpy(mirror + w[i].off, s, w[i].len);
    }
    /* out of range is refused */
    assert_int_equal(czk_buf_set(be, b, total - 1, src, 2), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_buf_set(be, b, total + 1, src, 0), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_buf_get(be, b, 0, back, total), CZK_OK);
    assert_bytes_equal(back, mirror, total);
    /* partial reads at offsets agree too */
    memset(back, 0, total);
    assert_int_equal(czk_buf_get(be, b, 8 * MiB - 1, back, 2 * MiB), CZK_OK);
    assert_bytes_equal(back, mirror + 8 * MiB - 1, 2 * MiB);
    czk_buf_free(b);
    free(mirror);
    free(back);
    free(src);
    czk_backend_free(be);
}

/* Several staged async uploads queued back to back (each half's reuse waits on the DMA of
 * the previous call), into two buffers, synchronized once. */
static void test_upload_async_chain(void **state)
{
    (void)state;
    czk_backend_t be = gpu_backend();
    czk_device_t dev = gpu_dev();
    const size_t n = 17 * MiB + 9;
    enum { K = 5 };
    uint8_t *src[K];
    czk_buf_t b[2] = {NULL, NULL};
    assert_int_equal(czk_buf_alloc(dev, n, &b[0]), CZK_OK);
    assert_int_equal(czk_buf_alloc(dev, n, &b[1]), CZK_OK);
    for (int k = 0; k < K; k++) {
        src[k] = xmalloc(n);
        czk_test_rand_bytes(src[k], n);
    }
    /* b[0] gets src 0, 2, 4 (last wins), b[1] gets 1, 3; plus 1 MiB at the start of b[1]
     * from src[4] and a small write */
    for (int k = 0; k < K; k++)
        assert_int_equal(czk_buf_set_async(be, b[k & 1], 0, src[k], n), CZK_OK);
    assert_int_equal(czk_buf_set_async(be, b[1], 5, src[4] + 11, MiB), CZK_OK);
    assert_int_equal(czk_buf_set_async(be, b[1], 2 * MiB, src[0], 100), CZK_OK);
    assert_int_equal(czk_backend_synchronize(be), CZK_OK);
    uint8_t *want = xmalloc(n), *back = xmalloc(n);
    assert_int_equal(czk_buf_get(be, b[0], 0, back, n), CZK_OK);
    assert_bytes_equal(back, src[4], n);
    memcpy(want, src[3], n);
    memcpy(want + 5, src[4] + 11, MiB);
    memcpy(want + 2 * MiB, src[0], 100);
    assert_int_equal(czk_buf_get(be, b[1], 0, back, n), CZK_OK);
    assert_bytes_equal(back, want, n);
    for (int k = 0; k < K; k++)
        free(src[k]);
    free(want);
    free(back);
    czk_buf_free(b[0]);
    czk_buf_free(b[1]);
    czk_backend_free(be);
}

/* Page-locked sources take the direct path: the same sizes from the pinned allocator and
 * from czk_device_host_alloc. */
static void test_upload_pinned_source(void **state)
{
    (void)state;
    czk_backend_t be = gpu_backend();
    czk_device_t dev = gpu_dev();
    const struct czk_allocator *a = czk_cuda_pinned_allocator();
    for (size_t i = 1; i < N_UPLOAD_SIZES; i++) {
        size_t n = UPLOAD_SIZES[i];
        uint8_t *p = a->alloc(a->ctx, n);
        uint8_t *q = czk_device_host_alloc(dev, n);
        uint8_t *back = xmalloc(n);
        assert_non_null(p);
        assert_non_null(q);
        czk_test_rand_bytes(p, n);
        czk_test_rand_bytes(q, n);
        czk_buf_t b = NULL;
        assert_int_equal(czk_buf_from_host(be, p, n, &b), CZK_OK);
        assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
        assert_bytes_equal(back, p, n);
        assert_int_equal(czk_buf_set_async(be, b, 0, q, n), CZK_OK);
        assert_int_equal(czk_backend_synchronize(be), CZK_OK);
        assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
        assert_bytes_equal(back, q, n);
        if (n > 1) { /* an interior pointer of pinned memory */
            assert_int_equal(czk_buf_set(be, b, 1, p + 1, n - 1), CZK_OK);
            assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
            assert_int_equal(back[0], q[0]);
            assert_bytes_equal(back + 1, p + 1, n - 1);
        }
        czk_buf_free(b);
        a->free(a->ctx, p, n);
        czk_device_host_free(dev, q);
        free(back);
    }
    czk_backend_free(be);
}

/* ---- rates (informational) ------------------------------------------------------------ */

static void test_upload_rate(void **state)
{
    (void)state;
    czk_backend_t be = gpu_backend();
    czk_device_t dev = gpu_dev();
    const size_t n = 64 * MiB + 17;
    const int reps = 5;
    uint8_t *src = xmalloc(n), *back = xmalloc(n);
    czk_test_rand_bytes(src, n); /* every page touched */
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(dev, n, &b), CZK_OK);
    int ord = buf_ordinal(b);

    double staged = 1e30, direct = 1e30, pinned = 1e30;
    assert_int_equal(czk_buf_set(be, b, 0, src, n), CZK_OK); /* warm-up (staging made) */
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        assert_int_equal(czk_buf_set(be, b, 0, src, n), CZK_OK);
        double t = now_s() - t0;
        staged = t < staged ? t : staged;
    }
    assert_int_equal(cudaSetDevice(ord), cudaSuccess);
    assert_int_equal(cudaMemcpy(b->ptr, src, n, cudaMemcpyHostToDevice), cudaSuccess);
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        assert_int_equal(cudaMemcpy(b->ptr, src, n, cudaMemcpyHostToDevice), cudaSuccess);
        double t = now_s() - t0;
        direct = t < direct ? t : direct;
    }
    const struct czk_allocator *a = czk_cuda_pinned_allocator();
    uint8_t *p = a->alloc(a->ctx, n);
    assert_non_null(p);
    memcpy(p, src, n);
    assert_int_equal(czk_buf_set(be, b, 0, p, n), CZK_OK);
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        assert_int_equal(czk_buf_set(be, b, 0, p, n), CZK_OK);
        double t = now_s() - t0;
        pinned = t < pinned ? t : pinned;
    }
    assert_int_equal(czk_buf_get(be, b, 0, back, n), CZK_OK);
    assert_bytes_equal(back, src, n);
    printf("H2D of %zu bytes (best of %d; informational): staged from pageable %.1f GB/s, "
           "plain cudaMemcpy from pageable %.1f GB/s, from pinned %.1f GB/s\n",
           n, reps, (double)n / staged * 1e-9, (double)n / direct * 1e-9,
           (double)n / pinned * 1e-9);
    a->free(a->ctx, p, n);
    czk_buf_free(b);
    free(src);
    free(back);
    czk_backend_free(be);
}

#endif

int main(void)
{
    czk_test_seed_init("test_cuda_pinned");
#ifndef CZK_USE_CUDA
    printf("test_cuda_pinned: built without CUDA: skipped\n");
    return 77;
#else
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    if (!reg || czk_backend_reg_device_count(reg) == 0) {
        printf("test_cuda_pinned: no CUDA backend or no usable GPU: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_pool_pinned),
        cmocka_unit_test(test_engine_default),
        cmocka_unit_test(test_upload_sizes),
        cmocka_unit_test(test_upload_offsets),
        cmocka_unit_test(test_upload_async_chain),
        cmocka_unit_test(test_upload_pinned_source),
        cmocka_unit_test(test_upload_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#endif
}
