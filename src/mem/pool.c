/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The slab pool (mem.h): n_slabs slabs of slab_size bytes from one allocator, all
 * allocated by czk_pool_new and kept until czk_pool_free. Free slabs are a stack of
 * indices under one mutex, so acquire and release are O(1) (one push or pop) whatever
 * the pool size. A slot map (out[i]) catches slabs given back twice or slabs that are
 * not the pool's, which are logged and ignored rather than corrupting the stack.
 *
 * Exhaustion: with fallback_pageable the caller gets a pageable slab from the host
 * allocator at once (its bytes reserved in the pool's budget while out; a warning the
 * first time per pool, then only counted); otherwise it waits on the pool's condition
 * variable, which every release signals once. A woken waiter re-checks the stack
 * before its deadline or cancel flag, so a release is never lost to a waiter that is
 * leaving. Waiting is not FIFO: a newcomer may take a slab released while a waiter is
 * still waking up (the engine bounds its own concurrency by the budget, which is FIFO).
 *
 * Budget: the pool's bytes (slab bytes rounded up to pages, times n_slabs) are reserved
 * in the budget for the pool's lifetime; creation fails with CZK_ERR_BUDGET when they
 * do not fit now, leaving nothing reserved.
 * Threading: all functions are thread-safe; a pool must outlive its slabs.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/mem.h"
#include "mem/mem_internal.h"

struct czk_pool {
    const struct czk_allocator *alloc;
    czk_budget_t budget;
    size_t slab_size;
    uint64_t slab_bytes; /* slab_size rounded up to pages: what one slab costs the budget */
    uint32_t n_slabs;
    void **ptr;          /* n_slabs slab addresses */
    uint8_t *out;        /* n_slabs: 1 while handed out */
    uint32_t *stack;     /* free indices, stack[0..n_free) */
    uint32_t n_free;
    uint32_t n_fallback_out; /* pageable slabs not yet returned */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct czk_pool_stats st;
    atomic_bool warned; /* pageable fallback warning logged */
};

static uint64_t page_round(size_t n)
{
    long ps = sysconf(_SC_PAGESIZE);
    uint64_t p = ps > 0 ? (uint64_t)ps : 4096;
    return ((uint64_t)n + p - 1) / p * p;
}

/* Frees the slabs and arrays of a pool that is not (or no longer) shared. */
static void pool_destroy(struct czk_pool *p)
{
    for (uint32_t i = 0; p->ptr && i < p->n_slabs; i++)
        if (p->ptr[i])
            p->alloc->free(p->alloc->ctx, p->ptr[i], p->slab_size);
    free(p->ptr);
    free(p->out);
    free(p->stack);
    free(p);
}

static enum czk_status pool_alloc_slabs(struct czk_pool *p)
{
    p->ptr = calloc(p->n_slabs, sizeof *p->ptr);
    p->out = calloc(p->n_slabs, 1);
    p->stack = malloc((size_t)p->n_slabs * sizeof *p->stack);
    if (!p->ptr || !p->out || !p->stack)
        return CZK_ERR_NOMEM;
    for (uint32_t i = 0; i < p->n_slabs; i++) {
        p->ptr[i] = p->alloc->alloc(p->alloc->ctx, p->slab_size);
        if (!p->ptr[i])
            return CZK_ERR_NOMEM;
        /* pop order 0, 1, 2, ...: the first slabs get reused first */
        p->stack[i] = p->n_slabs - 1 - i;
    }
    p->n_free = p->n_slabs;
    return CZK_OK;
}

enum czk_status czk_pool_new(czk_pool_t *out, const struct czk_allocator *alloc, size_t slab_size,
                             uint32_t n_slabs, czk_budget_t budget)
{
    if (!out || slab_size == 0 || n_slabs == 0 || n_slabs == UINT32_MAX)
        return CZK_ERR_INVALID_ARG;
    if (!alloc)
        alloc = czk_allocator_host();
    if (!alloc->alloc || !alloc->free)
        return CZK_ERR_INVALID_ARG;
    uint64_t slab_bytes = page_round(slab_size);
    if (slab_bytes < slab_size || slab_bytes > UINT64_MAX / n_slabs) /* rounding wrapped */
        return CZK_ERR_INVALID_ARG;
    uint64_t total = slab_bytes * n_slabs;
    if (budget && !czk_budget_try_reserve(budget, total))
        return CZK_ERR_BUDGET;

    struct czk_pool *p = calloc(1, sizeof *p);
    enum czk_status st = CZK_ERR_NOMEM;
    if (p) {
        p->alloc = alloc;
        p->budget = budget;
        p->slab_size = slab_size;
        p->slab_bytes = slab_bytes;
        p->n_slabs = n_slabs;
        st = pool_alloc_slabs(p);
    }
    if (st == CZK_OK && pthread_mutex_init(&p->mu, NULL) != 0)
        st = CZK_ERR_NOMEM;
    if (st == CZK_OK && czk_mem_cond_init(&p->cv) != 0) {
        pthread_mutex_destroy(&p->mu);
        st = CZK_ERR_NOMEM;
    }
    if (st != CZK_OK) {
        if (p)
            pool_destroy(p);
        czk_budget_release(budget, total);
        czk_log(CZK_LOG_ERROR, "mem", "pool: cannot allocate %u %s slabs of %zu bytes", n_slabs,
                alloc->name, slab_size);
        return st;
    }
    p->st.slab_size = slab_size;
    p->st.n_slabs = n_slabs;
    atomic_init(&p->warned, false);
    *out = p;
    return CZK_OK;
}

void czk_pool_free(czk_pool_t p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    uint32_t missing = p->n_slabs - p->n_free, fb = p->n_fallback_out;
    pthread_mutex_unlock(&p->mu);
    if (missing || fb)
        czk_log(CZK_LOG_ERROR, "mem",
                "pool freed with %u of %u slabs and %u pageable slabs still out (the pooled "
                "ones are unmapped now)",
                missing, p->n_slabs, fb);
    czk_budget_release(p->budget, p->slab_bytes * p->n_slabs);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    pool_destroy(p);
}

/* mu held, n_free > 0 */
static void pop(struct czk_pool *p, struct czk_slab *s)
{
    uint32_t i = p->stack[--p->n_free];
    p->out[i] = 1;
    p->st.n_acquire++;
    s->ptr = p->ptr[i];
    s->size = p->slab_size;
    s->index = i;
    s->pinned = p->alloc->pinned;
}

/* A pageable slab of the pool's size, its bytes reserved in the budget while out. */
static enum czk_status fallback(struct czk_pool *p, struct czk_slab *s)
{
    const struct czk_allocator *h = czk_allocator_host();
    if (p->budget && !czk_budget_try_reserve(p->budget, p->slab_bytes))
        return CZK_ERR_BUDGET;
    void *ptr = h->alloc(h->ctx, p->slab_size);
    if (!ptr) {
        czk_budget_release(p->budget, p->slab_bytes);
        return CZK_ERR_NOMEM;
    }
    pthread_mutex_lock(&p->mu);
    p->n_fallback_out++;
    p->st.n_fallback++;
    p->st.n_acquire++;
    pthread_mutex_unlock(&p->mu);
    if (!atomic_exchange(&p->warned, true))
        czk_log(CZK_LOG_WARN, "mem",
                "pool of %u x %zu-byte %s slabs exhausted: handing out pageable memory "
                "(slower transfers; counted in n_fallback, warned once per pool)",
                p->n_slabs, p->slab_size, p->alloc->name);
    s->ptr = ptr;
    s->size = p->slab_size;
    s->index = UINT32_MAX;
    s->pinned = false;
    return CZK_OK;
}

/* mu held, no slab free: wait for one. */
static enum czk_status wait_slab(struct czk_pool *p, const volatile int *cancel, int timeout_ms,
                                 struct czk_slab *s)
{
    struct czk_mem_deadline dl = czk_mem_deadline_in(timeout_ms);
    double t0 = czk_mem_now_ms();
    enum czk_status st;
    p->st.n_waits++;
    for (;;) {
        if (p->n_free) {
            pop(p, s);
            st = CZK_OK;
            break;
        }
        if (czk_mem_cancelled(cancel)) {
            st = CZK_CANCELLED;
            break;
        }
        if (czk_mem_deadline_passed(&dl)) {
            st = CZK_ERR_BUSY;
            break;
        }
        czk_mem_cond_wait(&p->cv, &p->mu, &dl, cancel);
    }
    p->st.wait_ms_total += czk_mem_now_ms() - t0;
    return st;
}

enum czk_status czk_pool_acquire(czk_pool_t p, bool fallback_pageable, const volatile int *cancel,
                                 int timeout_ms, struct czk_slab *out)
{
    if (!p || !out)
        return CZK_ERR_INVALID_ARG;
    enum czk_status st;
    pthread_mutex_lock(&p->mu);
    if (p->n_free) {
        pop(p, out);
        st = CZK_OK;
    } else if (fallback_pageable) {
        pthread_mutex_unlock(&p->mu);
        return fallback(p, out);
    } else if (czk_mem_cancelled(cancel)) {
        st = CZK_CANCELLED;
    } else if (timeout_ms == 0) {
        st = CZK_ERR_BUSY;
    } else {
        st = wait_slab(p, cancel, timeout_ms, out);
    }
    pthread_mutex_unlock(&p->mu);
    return st;
}

static void release_fallback(struct czk_pool *p, struct czk_slab *s)
{
    pthread_mutex_lock(&p->mu);
    bool ok = p->n_fallback_out > 0 && s->size == p->slab_size;
    if (ok)
        p->n_fallback_out--;
    pthread_mutex_unlock(&p->mu);
    if (!ok) {
        czk_log(CZK_LOG_ERROR, "mem", "pool: release of a pageable slab (%zu bytes at %p) it "
                "did not hand out: ignored", s->size, s->ptr);
        return;
    }
    const struct czk_allocator *h = czk_allocator_host();
    h->free(h->ctx, s->ptr, p->slab_size);
    czk_budget_release(p->budget, p->slab_bytes);
}

void czk_pool_release(czk_pool_t p, struct czk_slab *s)
{
    if (!p || !s || !s->ptr)
        return;
    if (s->index == UINT32_MAX) {
        release_fallback(p, s);
    } else {
        pthread_mutex_lock(&p->mu);
        uint32_t i = s->index;
        bool ok = i < p->n_slabs && p->ptr[i] == s->ptr && p->out[i];
        if (ok) {
            p->out[i] = 0;
            p->stack[p->n_free++] = i;
            pthread_cond_signal(&p->cv);
        }
        pthread_mutex_unlock(&p->mu);
        if (!ok) {
            czk_log(CZK_LOG_ERROR, "mem", "pool: release of slab %u at %p that is not out "
                    "(double release or another pool's slab): ignored", i, s->ptr);
            return;
        }
    }
    memset(s, 0, sizeof *s);
    s->index = UINT32_MAX;
}

void czk_pool_get_stats(czk_pool_t p, struct czk_pool_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    *st = p->st;
    st->n_free = p->n_free;
    pthread_mutex_unlock(&p->mu);
}
