/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SRS manager (srs.h): registered circuits, their keys' tiers, and LRU eviction
 * under the host budget (warm) and the device budgets (hot).
 *
 * State per key: COLD (file only) -> LOADING (one thread runs czk_prover_key_load with
 * the manager lock dropped; every other acquirer of the id waits on the manager's
 * condition variable for that load and shares its result, error included) -> WARM
 * (loaded; `holds` counts the jobs using it) -> EVICTING (being freed, lock dropped)
 * -> COLD. Only a WARM key with holds == 0 is ever evicted; the victim is the one with
 * the oldest use stamp (taken at each acquire and release).
 *
 * Memory accounting, from the header alone (czk_zkey_peek at register time):
 *   host_bytes   = file size (czk_zkey_load maps the whole file and its checks touch
 *                  every point page, so all of it becomes resident)
 *                + the loader's heap (header points, section 4 decoded at 48 bytes per
 *                  coefficient, copies of point sections not 8-byte aligned in the file)
 *                + the precompiled circuit, czk_pce_bytes: 16·(domainSize + 1) +
 *                  36·nCoefs (CSR row offsets of A and B, columns and values).
 *                Transient load-time buffers (the PCE build's 16·domainSize bytes of
 *                cursors) are not counted: they are gone when the load returns.
 *   device_bytes = the bases a GPU keeps resident (A, B1, B2, C, H point sections:
 *                  everything of sections 5-9) + the CSR matrices of A and B uploaded
 *                  for on-device evaluation (the same czk_pce_bytes).
 * A key's host_bytes are reserved in the host budget while it is WARM; its device_bytes
 * in a device budget from the first acquire with that budget until it is evicted.
 * The device copies belong to the prover key (the backend makes them on first use and
 * frees them with the key), so making room on a device evicts an unheld key that is hot
 * there all the way to COLD: that is the only way its device memory is returned.
 *
 * Making room (make_room): try_reserve; else evict the LRU unheld candidate and retry;
 * with nothing left to evict, wait up to opts.wait_ms in czk_budget_reserve (queued
 * FIFO with the budget's other users), interrupted whenever a key becomes unheld or is
 * evicted (a per-waiter flag used as the cancel flag), then retry.
 *
 * Threading: one mutex for the manager; never held across a key load, a key free or a
 * budget wait. Logs: SRS_LOAD and SRS_EVICT lines in logfmt through czk_log (comp srs).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/srs.h"
#include "groth16/pce.h"
#include "io/formats.h"
#include "mem/mem_internal.h"

#define SRS_ID_MAX 63
#define SRS_MAX_HOT 16 /* device budgets a key can be hot on */

enum key_state { KEY_COLD, KEY_LOADING, KEY_WARM, KEY_EVICTING };

struct srs_key {
    char id[SRS_ID_MAX + 1];
    char *path;
    struct czk_srs_info info; /* tier is computed by czk_srs_info */
    enum key_state state;
    czk_prover_key_t key;     /* WARM only */
    unsigned holds;
    uint64_t stamp;           /* last use, for LRU */
    czk_budget_t hot[SRS_MAX_HOT]; /* device budgets holding device_bytes for this key */
    unsigned n_hot;
    uint64_t load_gen;        /* finished load attempts */
    enum czk_status load_st;  /* outcome of the last one */
    char load_err[256];
};

/* A make_room waiter: its flag is set (atomically) when memory may have become free. */
struct srs_poke {
    int flag;
    struct srs_poke *next;
};

struct czk_srs_mgr {
    struct czk_srs_opts o;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a key changed state or became unheld */
    struct srs_key **keys;
    size_t n_keys, cap;
    uint64_t clock;
    struct srs_poke *pokes;
};

/* ---- lifetime and lookup -------------------------------------------------------------- */

enum czk_status czk_srs_mgr_new(czk_srs_mgr_t *out, const struct czk_srs_opts *opts)
{
    if (!out || !opts || !opts->host_budget)
        return CZK_ERR_INVALID_ARG;
    czk_srs_mgr_t m = calloc(1, sizeof *m);
    if (!m)
        return CZK_ERR_NOMEM;
    m->o = *opts;
    if (pthread_mutex_init(&m->mu, NULL) != 0) {
        free(m);
        return CZK_ERR_NOMEM;
    }
    if (pthread_cond_init(&m->cv, NULL) != 0) {
        pthread_mutex_destroy(&m->mu);
        free(m);
        return CZK_ERR_NOMEM;
    }
    *out = m;
    return CZK_OK;
}

/* Gives back what a WARM key holds (mu not held, nobody else touches k). */
static void key_drop(czk_srs_mgr_t m, czk_prover_key_t pk, const struct srs_key *k,
                     czk_budget_t const *hot, unsigned n_hot)
{
    czk_prover_key_free(pk);
    czk_budget_release(m->o.host_budget, k->info.host_bytes);
    for (unsigned i = 0; i < n_hot; i++)
        czk_budget_release(hot[i], k->info.device_bytes);
}

void czk_srs_mgr_free(czk_srs_mgr_t m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_keys; i++) {
        struct srs_key *k = m->keys[i];
        if (k->holds)
            czk_log(CZK_LOG_ERROR, "srs", "manager freed while key %s is held %u times", k->id,
                    k->holds);
        if (k->state == KEY_WARM)
            key_drop(m, k->key, k, k->hot, k->n_hot);
        free(k->path);
        free(k);
    }
    free(m->keys);
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
    free(m);
}

/* mu held */
static struct srs_key *find(czk_srs_mgr_t m, const char *id)
{
    for (size_t i = 0; i < m->n_keys; i++)
        if (strcmp(m->keys[i]->id, id) == 0)
            return m->keys[i];
    return NULL;
}

static bool valid_id(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > SRS_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
        if (!ok)
            return false;
    }
    return true;
}

/* ---- register -------------------------------------------------------------------------- */

static struct srs_key *key_new(const char *id, const char *path, const struct czk_zkey_info *zi)
{
    struct srs_key *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->path = strdup(path);
    if (!k->path) {
        free(k);
        return NULL;
    }
    snprintf(k->id, sizeof k->id, "%s", id);
    struct czk_prover_key_info *ki = &k->info.key;
    ki->curve = zi->curve;
    ki->n_vars = zi->n_vars;
    ki->n_public = zi->n_public;
    ki->domain_size = zi->domain_size;
    ki->lg_domain = zi->lg_domain;
    /* formulas: see the file comment */
    uint64_t pce = czk_pce_bytes(zi->domain_size, zi->n_coefs);
    uint64_t ic = ((uint64_t)zi->n_public + 1) * 2 * zi->n8q;
    k->info.host_bytes = zi->file_size + zi->heap_bytes + pce;
    k->info.device_bytes = zi->point_bytes - ic + pce;
    return k;
}

/* mu held: the outcome of registering id again. */
static enum czk_status reregister(const struct srs_key *k, const char *path, char *err,
                                  size_t errlen)
{
    if (strcmp(k->path, path) == 0)
        return CZK_OK;
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                    "srs: circuit %s is already registered with %s", k->id, k->path);
}

enum czk_status czk_srs_register(czk_srs_mgr_t m, const char *id, const char *zkey_path, char *err,
                                 size_t errlen)
{
    if (!m || !id || !zkey_path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "srs: NULL argument");
    if (!valid_id(id))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "srs: circuit id \"%.80s\" is not 1-%d characters of [A-Za-z0-9._-]", id,
                        SRS_ID_MAX);
    pthread_mutex_lock(&m->mu);
    struct srs_key *k = find(m, id);
    enum czk_status st = k ? reregister(k, zkey_path, err, errlen) : CZK_OK;
    pthread_mutex_unlock(&m->mu);
    if (k)
        return st;

    struct czk_zkey_info zi;
    if ((st = czk_zkey_peek(&zi, zkey_path, err, errlen)) != CZK_OK)
        return st;
    struct srs_key *nk = key_new(id, zkey_path, &zi);
    if (!nk)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "srs: out of memory");

    pthread_mutex_lock(&m->mu);
    if ((k = find(m, id)) != NULL) { /* registered meanwhile by another thread */
        st = reregister(k, zkey_path, err, errlen);
    } else if (m->n_keys == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 8;
        void *p = realloc(m->keys, cap * sizeof *m->keys);
        if (p) {
            m->keys = p;
            m->cap = cap;
        } else {
            st = czk_errf(CZK_ERR_NOMEM, err, errlen, "srs: out of memory");
        }
    }
    bool added = !k && st == CZK_OK;
    if (added)
        m->keys[m->n_keys++] = nk;
    pthread_mutex_unlock(&m->mu);
    if (!added) {
        free(nk->path);
        free(nk);
    }
    return st;
}

/* ---- eviction and making room ---------------------------------------------------------- */

/* mu held: memory may have become available to make_room waiters. */
static void poke_all(czk_srs_mgr_t m)
{
    for (struct srs_poke *p = m->pokes; p; p = p->next)
        __atomic_store_n(&p->flag, 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&m->cv);
}

static bool is_hot_on(const struct srs_key *k, czk_budget_t dev)
{
    for (unsigned i = 0; i < k->n_hot; i++)
        if (k->hot[i] == dev)
            return true;
    return false;
}

/* mu held: the least recently used unheld WARM key other than self (hot on dev when
 * dev != NULL), or NULL. */
static struct srs_key *lru_victim(czk_srs_mgr_t m, const struct srs_key *self, czk_budget_t dev)
{
    struct srs_key *v = NULL;
    for (size_t i = 0; i < m->n_keys; i++) {
        struct srs_key *k = m->keys[i];
        if (k == self || k->state != KEY_WARM || k->holds || (dev && !is_hot_on(k, dev)))
            continue;
        if (!v || k->stamp < v->stamp)
            v = k;
    }
    return v;
}

/* mu held, k WARM and unheld: drop it to COLD (the lock is released meanwhile). */
static void evict_key(czk_srs_mgr_t m, struct srs_key *k, const char *reason)
{
    czk_prover_key_t pk = k->key;
    czk_budget_t hot[SRS_MAX_HOT];
    unsigned n_hot = k->n_hot;
    memcpy(hot, k->hot, sizeof hot);
    k->key = NULL;
    k->n_hot = 0;
    k->state = KEY_EVICTING;
    pthread_mutex_unlock(&m->mu);
    double t0 = czk_mem_now_ms();
    key_drop(m, pk, k, hot, n_hot);
    double ms = czk_mem_now_ms() - t0;
    pthread_mutex_lock(&m->mu);
    k->state = KEY_COLD;
    k->info.n_evictions++;
    czk_log(CZK_LOG_INFO, "srs",
            "SRS_EVICT key=%s tier=%s reason=%s ms=%.3f host_bytes=%llu device_bytes=%llu", k->id,
            n_hot ? "hot" : "warm", reason, ms, (unsigned long long)k->info.host_bytes,
            (unsigned long long)(k->info.device_bytes * n_hot));
    poke_all(m);
}

/* mu held: wait in the budget until it grants `bytes`, the deadline passes, or memory
 * may have been freed here (poked). CZK_OK, CZK_CANCELLED (poked: retry) or
 * CZK_ERR_BUDGET (deadline). */
static enum czk_status wait_budget(czk_srs_mgr_t m, czk_budget_t b, uint64_t bytes,
                                   const struct czk_mem_deadline *dl)
{
    struct srs_poke pk = {0, m->pokes};
    m->pokes = &pk;
    int ms = -1;
    if (!dl->forever) {
        double left = dl->at_ms - czk_mem_now_ms();
        ms = left < 1 ? 1 : left > 1e9 ? 1000000000 : (int)left;
    }
    pthread_mutex_unlock(&m->mu);
    enum czk_status st = czk_budget_reserve(b, bytes, &pk.flag, ms);
    pthread_mutex_lock(&m->mu);
    struct srs_poke **pp = &m->pokes;
    while (*pp != &pk)
        pp = &(*pp)->next;
    *pp = pk.next;
    return st;
}

/*
 * mu held: reserve `bytes` of budget b for key self, evicting LRU unheld keys (only keys
 * hot on b when `device`), then waiting up to opts.wait_ms (see the file comment).
 */
static enum czk_status make_room(czk_srs_mgr_t m, czk_budget_t b, uint64_t bytes,
                                 const struct srs_key *self, bool device, char *err,
                                 size_t errlen)
{
    struct czk_budget_stats bs;
    czk_budget_get_stats(b, &bs);
    if (bytes > bs.limit)
        return czk_errf(CZK_ERR_BUDGET, err, errlen,
                        "srs: key %s needs %llu bytes, more than budget %s (%llu bytes)",
                        self->id, (unsigned long long)bytes, czk_budget_name(b),
                        (unsigned long long)bs.limit);
    struct czk_mem_deadline dl = czk_mem_deadline_in(m->o.wait_ms);
    for (;;) {
        if (czk_budget_try_reserve(b, bytes))
            return CZK_OK;
        struct srs_key *v = lru_victim(m, self, device ? b : NULL);
        if (v) {
            evict_key(m, v, device ? "device_budget" : "host_budget");
            continue;
        }
        enum czk_status st = CZK_ERR_BUDGET;
        if (m->o.wait_ms != 0 && !czk_mem_deadline_passed(&dl))
            st = wait_budget(m, b, bytes, &dl);
        if (st == CZK_OK)
            return CZK_OK;
        if (st != CZK_CANCELLED) {
            czk_budget_get_stats(b, &bs);
            return czk_errf(CZK_ERR_BUDGET, err, errlen,
                            "srs: key %s needs %llu bytes of budget %s (%llu of %llu reserved) "
                            "and no unused key is left to evict",
                            self->id, (unsigned long long)bytes, czk_budget_name(b),
                            (unsigned long long)bs.reserved, (unsigned long long)bs.limit);
        }
    }
}

/* ---- loading and holding --------------------------------------------------------------- */

/* mu held: a load of k finished with status st (message e); wakes the waiters. */
static void load_done(czk_srs_mgr_t m, struct srs_key *k, enum czk_status st, const char *e)
{
    k->load_gen++;
    k->load_st = st;
    snprintf(k->load_err, sizeof k->load_err, "%s", e);
    pthread_cond_broadcast(&m->cv);
}

/* mu held, k COLD: load it; on CZK_OK it is WARM and held once by the caller. */
static enum czk_status load(czk_srs_mgr_t m, struct srs_key *k, char *err, size_t errlen)
{
    char e[256] = "";
    k->state = KEY_LOADING;
    enum czk_status st = make_room(m, m->o.host_budget, k->info.host_bytes, k, false, e,
                                   sizeof e);
    if (st != CZK_OK) {
        k->state = KEY_COLD;
        load_done(m, k, st, e);
        return czk_errf(st, err, errlen, "%s", e);
    }
    pthread_mutex_unlock(&m->mu);
    double t0 = czk_mem_now_ms();
    czk_prover_key_t pk = NULL;
    st = czk_prover_key_load(&pk, k->path, m->o.load_flags, m->o.threads, e, sizeof e);
    double ms = czk_mem_now_ms() - t0;
    if (st != CZK_OK)
        czk_budget_release(m->o.host_budget, k->info.host_bytes);
    pthread_mutex_lock(&m->mu);
    if (st != CZK_OK) {
        k->state = KEY_COLD;
        load_done(m, k, st, e);
        return czk_errf(st, err, errlen, "%s", e);
    }
    k->key = pk;
    k->state = KEY_WARM;
    k->holds++;
    k->stamp = ++m->clock;
    k->info.n_loads++;
    k->info.last_load_ms = ms;
    czk_prover_key_get_info(pk, &k->info.key);
    load_done(m, k, CZK_OK, "");
    czk_log(CZK_LOG_INFO, "srs", "SRS_LOAD key=%s tier=warm ms=%.3f bytes=%llu", k->id, ms,
            (unsigned long long)k->info.host_bytes);
    return CZK_OK;
}

/* mu held: hold k WARM, loading it or waiting for another thread's load or eviction. */
static enum czk_status hold_warm(czk_srs_mgr_t m, struct srs_key *k, char *err, size_t errlen)
{
    for (;;) {
        switch (k->state) {
        case KEY_WARM:
            k->holds++;
            k->stamp = ++m->clock;
            return CZK_OK;
        case KEY_COLD:
            return load(m, k, err, errlen);
        case KEY_LOADING: {
            uint64_t gen = k->load_gen;
            while (k->state == KEY_LOADING)
                pthread_cond_wait(&m->cv, &m->mu);
            if (k->load_gen != gen && k->load_st != CZK_OK)
                return czk_errf(k->load_st, err, errlen, "%s", k->load_err);
            break; /* loaded (or evicted again meanwhile): look again */
        }
        case KEY_EVICTING:
            pthread_cond_wait(&m->cv, &m->mu);
            break;
        }
    }
}

/* mu held */
static void unhold(czk_srs_mgr_t m, struct srs_key *k)
{
    k->holds--;
    k->stamp = ++m->clock;
    if (k->holds == 0)
        poke_all(m);
}

/* mu held, k WARM and held by the caller: count it hot on dev. */
static enum czk_status hold_hot(czk_srs_mgr_t m, struct srs_key *k, czk_budget_t dev, char *err,
                                size_t errlen)
{
    if (is_hot_on(k, dev))
        return CZK_OK;
    if (k->n_hot == SRS_MAX_HOT)
        return czk_errf(CZK_ERR_UNSUPPORTED, err, errlen,
                        "srs: key %s is already hot on %d devices", k->id, SRS_MAX_HOT);
    double t0 = czk_mem_now_ms();
    enum czk_status st = make_room(m, dev, k->info.device_bytes, k, true, err, errlen);
    if (st != CZK_OK)
        return st;
    if (is_hot_on(k, dev)) { /* another acquirer made it hot while the lock was dropped */
        czk_budget_release(dev, k->info.device_bytes);
        return CZK_OK;
    }
    k->hot[k->n_hot++] = dev;
    czk_log(CZK_LOG_INFO, "srs", "SRS_LOAD key=%s tier=hot dev=%s ms=%.3f bytes=%llu", k->id,
            czk_budget_name(dev), czk_mem_now_ms() - t0, (unsigned long long)k->info.device_bytes);
    return CZK_OK;
}

enum czk_status czk_srs_acquire(czk_srs_mgr_t m, const char *id, czk_budget_t dev_budget,
                                czk_prover_key_t *key, char *err, size_t errlen)
{
    if (!m || !id || !key)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "srs: NULL argument");
    pthread_mutex_lock(&m->mu);
    struct srs_key *k = find(m, id);
    enum czk_status st = k ? hold_warm(m, k, err, errlen)
                           : czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                                      "srs: unknown circuit %.80s", id);
    if (st == CZK_OK && dev_budget) {
        st = hold_hot(m, k, dev_budget, err, errlen);
        if (st != CZK_OK)
            unhold(m, k);
    }
    if (st == CZK_OK)
        *key = k->key;
    pthread_mutex_unlock(&m->mu);
    return st;
}

void czk_srs_release(czk_srs_mgr_t m, const char *id)
{
    if (!m || !id)
        return;
    pthread_mutex_lock(&m->mu);
    struct srs_key *k = find(m, id);
    bool ok = k && k->holds > 0;
    if (ok)
        unhold(m, k);
    pthread_mutex_unlock(&m->mu);
    if (!ok)
        czk_log(CZK_LOG_ERROR, "srs", "release of circuit %.80s that is not held: ignored", id);
}

enum czk_status czk_srs_preload(czk_srs_mgr_t m, const char *id, char *err, size_t errlen)
{
    if (!m || !id)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "srs: NULL argument");
    pthread_mutex_lock(&m->mu);
    struct srs_key *k = find(m, id);
    enum czk_status st = k ? hold_warm(m, k, err, errlen)
                           : czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                                      "srs: unknown circuit %.80s", id);
    if (st == CZK_OK)
        unhold(m, k);
    pthread_mutex_unlock(&m->mu);
    return st;
}

enum czk_status czk_srs_evict(czk_srs_mgr_t m, const char *id)
{
    if (!m || !id)
        return CZK_ERR_INVALID_ARG;
    pthread_mutex_lock(&m->mu);
    struct srs_key *k = find(m, id);
    enum czk_status st = k ? CZK_OK : CZK_ERR_INVALID_ARG;
    while (k && k->state == KEY_EVICTING)
        pthread_cond_wait(&m->cv, &m->mu);
    if (k && (k->holds || k->state == KEY_LOADING))
        st = CZK_ERR_BUSY; /* in use, or being loaded for an acquirer */
    else if (k && k->state == KEY_WARM)
        evict_key(m, k, "request");
    pthread_mutex_unlock(&m->mu);
    return st;
}

void czk_srs_forget_device(czk_srs_mgr_t m, czk_budget_t dev)
{
    if (!m || !dev)
        return;
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < m->n_keys; i++) {
        struct srs_key *k = m->keys[i];
        for (unsigned h = 0; h < k->n_hot; h++) {
            if (k->hot[h] != dev)
                continue;
            czk_budget_release(dev, k->info.device_bytes);
            k->hot[h] = k->hot[--k->n_hot];
            czk_log(CZK_LOG_INFO, "srs", "SRS_EVICT key=%s tier=hot dev=%s reason=device-closed",
                    k->id, czk_budget_name(dev));
            break;
        }
    }
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->mu);
}

enum czk_status czk_srs_info(czk_srs_mgr_t m, const char *id, struct czk_srs_info *info)
{
    if (!m || !id || !info)
        return CZK_ERR_INVALID_ARG;
    pthread_mutex_lock(&m->mu);
    struct srs_key *k = find(m, id);
    if (k) {
        *info = k->info;
        info->tier = k->state != KEY_WARM ? CZK_SRS_COLD : k->n_hot ? CZK_SRS_HOT : CZK_SRS_WARM;
    }
    pthread_mutex_unlock(&m->mu);
    return k ? CZK_OK : CZK_ERR_INVALID_ARG;
}
