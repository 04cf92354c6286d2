/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk memory management for the engine (issue 7): pluggable allocators, memory
 * budgets and the pinned host-memory pool.
 *
 *   struct czk_allocator  where host memory comes from: plain page-aligned memory on
 *                         CPU-only builds and in CI; the CUDA build plugs in a
 *                         page-locking allocator (cudaHostAlloc) for full-speed H2D.
 *   czk_budget_t          one budget of bytes (host RAM with pinned memory counted, or
 *                         one GPU's memory): reservations block rather than overcommit.
 *   czk_pool_t            fixed-size slabs from an allocator, acquired and released in
 *                         O(1) per partition; exhaustion waits, or falls back to
 *                         pageable memory with a warning and a counter.
 *
 * Threading: every function is thread-safe. Cancel flags (`const volatile int *`) are
 * read atomically (relaxed); a thread that sets one should store it atomically too
 * (__atomic_store_n(flag, 1, __ATOMIC_RELAXED)) so sanitizers see no data race.
 * Ownership: objects are freed by their
 * _free function; a pool must outlive every slab acquired from it.
 * This layer sits above groth16 and below the engine; it never logs from a hot path
 * except the pageable-fallback warning (once per pool, then counted).
 */
#ifndef CZK_MEM_MEM_H
#define CZK_MEM_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk/czk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- allocators ----------------------------------------------------------------- */

struct czk_allocator {
    const char *name; /* "host", "cuda-pinned"; static */
    bool pinned;      /* memory is page-locked (counts as pinned in budgets and gauges) */
    /* size > 0 bytes, page-aligned; NULL on failure. */
    void *(*alloc)(void *ctx, size_t size);
    /* release memory from alloc (size = the size passed to alloc). */
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
};

/** Plain page-aligned host memory (mmap, returned to the OS on free). Static. */
const struct czk_allocator *czk_allocator_host(void);

/* ---- budgets -------------------------------------------------------------------- */

typedef struct czk_budget *czk_budget_t;

struct czk_budget_stats {
    uint64_t limit;        /* bytes */
    uint64_t reserved;     /* bytes reserved now */
    uint64_t peak;         /* highest `reserved` ever seen */
    uint64_t n_reserve;    /* successful reservations */
    uint64_t n_waits;      /* reservations that had to wait */
    uint64_t n_rejected;   /* requests larger than the limit, timeouts, cancels */
    double wait_ms_total;  /* time spent waiting */
};

/** New budget `name` ("host", "gpu0") of `limit` bytes (> 0). */
enum czk_status czk_budget_new(czk_budget_t *out, const char *name, uint64_t limit);
/** NULL: no-op. No reservation may be outstanding (checked: logged if violated). */
void czk_budget_free(czk_budget_t b);

/**
 * Reserve `bytes`, waiting (FIFO: an earlier waiter is served first, so a large
 * request is not starved by small ones) until they fit under the limit.
 * timeout_ms < 0 waits forever; cancel (may be NULL) is polled while waiting, at
 * least every 10 ms. Returns CZK_OK; CZK_ERR_BUDGET immediately when bytes > limit
 * (it can never fit) or after the timeout; CZK_CANCELLED when *cancel became nonzero.
 * bytes == 0 succeeds at once.
 */
enum czk_status czk_budget_reserve(czk_budget_t b, uint64_t bytes, const volatile int *cancel,
                                   int timeout_ms);
/** Non-blocking: true and reserved when it fits now and nobody waits, else false. */
bool czk_budget_try_reserve(czk_budget_t b, uint64_t bytes);
/** Return `bytes` (<= reserved; more is a bug: clamped and logged) and wake waiters. */
void czk_budget_release(czk_budget_t b, uint64_t bytes);
void czk_budget_get_stats(czk_budget_t b, struct czk_budget_stats *st);
const char *czk_budget_name(czk_budget_t b);

/**
 * Default host budget: `CZK_HOST_BUDGET` env (czk_mem_parse_size syntax, > 0) when set
 * and valid (an invalid value is logged and ignored), else 80% of MemAvailable at the
 * call (/proc/meminfo; it counts the reclaimable page cache), else 80% of the physical
 * memory (sysconf), else 1 GiB. On machines whose reported memory grows with use, set
 * the budget explicitly.
 */
uint64_t czk_mem_default_host_budget(void);

/**
 * Parse "123", "64M", "2G", "1.5T", "512MiB", "4kB" (binary units K M G T, either case,
 * optional "i" and "B"; a bare "B" suffix means bytes) into bytes; a fraction needs a
 * unit and is rounded down to whole bytes. false (and *out untouched) on NULL, empty,
 * signs, spaces, unknown suffixes, a fraction of bytes, or a value above UINT64_MAX.
 */
bool czk_mem_parse_size(const char *s, uint64_t *out);

/** malloc_trim(0) where glibc provides it (no-op elsewhere); returns elapsed ms. */
double czk_mem_trim(void);

/* ---- pinned pool ---------------------------------------------------------------- */

typedef struct czk_pool *czk_pool_t;

struct czk_slab {
    void *ptr;      /* slab_size bytes */
    size_t size;
    uint32_t index; /* slot in the pool, or UINT32_MAX for a pageable fallback */
    bool pinned;    /* from the pool's allocator (pinned when it is) */
};

struct czk_pool_stats {
    size_t slab_size;
    uint32_t n_slabs, n_free;
    uint64_t n_acquire, n_waits, n_fallback; /* fallback = pageable slabs handed out */
    double wait_ms_total;
};

/**
 * A pool of n_slabs slabs of slab_size bytes from `alloc` (NULL = czk_allocator_host()),
 * all allocated up front (CZK_ERR_NOMEM if that fails: nothing is kept). When `budget`
 * is non-NULL the pool's bytes are reserved in it for the pool's lifetime (fails with
 * CZK_ERR_BUDGET when they do not fit) and pageable fallback slabs are reserved there
 * while they are out.
 */
enum czk_status czk_pool_new(czk_pool_t *out, const struct czk_allocator *alloc, size_t slab_size,
                             uint32_t n_slabs, czk_budget_t budget);
/** All slabs must be back (checked: logged if violated). NULL: no-op. */
void czk_pool_free(czk_pool_t p);

/**
 * Take a slab in O(1). When none is free: with fallback_pageable, a pageable slab of the
 * same size at once (warning once, counted); else wait until one is released, up to
 * timeout_ms (< 0 = forever), polling cancel. Returns CZK_OK, CZK_ERR_BUSY (timeout),
 * CZK_CANCELLED, CZK_ERR_NOMEM / CZK_ERR_BUDGET (fallback could not be had).
 */
enum czk_status czk_pool_acquire(czk_pool_t p, bool fallback_pageable, const volatile int *cancel,
                                 int timeout_ms, struct czk_slab *out);
/** Give a slab back in O(1) (fallback slabs are freed). */
void czk_pool_release(czk_pool_t p, struct czk_slab *slab);
void czk_pool_get_stats(czk_pool_t p, struct czk_pool_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* CZK_MEM_MEM_H */
