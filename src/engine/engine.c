/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The proving engine's front: configuration, devices and budgets, worker start and
 * stop, the job table, submit / status / wait / result / cancel / release, statistics
 * and the timeline reader (include/czk/engine.h). The worker loops and partition
 * retirement are in workers.c.
 *
 * Threading: the public calls may run concurrently from any thread (czk_engine_free
 * excepted). e->mu (taken through eng_lock, which counts acquisitions per site and the
 * time spent waiting) guards the priority queue, the job table and job->in_table;
 * everything else a call reads is atomic. Waiting for a job does not hold the mutex:
 * waiters register in job->waiters and sleep on job->done_sem; the thread that ends
 * the job publishes the state first and then posts once per registered waiter (both
 * sequentially consistent, so either the waiter sees the end or the ender sees it).
 * Ownership: jobs belong to the table until released and are freed at their last
 * reference (table, in-flight partitions, waiting callers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/parallel.h"
#include "engine/engine_internal.h"
#ifdef CZK_USE_CUDA
#include "cuda/pinned.h"
#endif

#define ENG_MAX_PARTITIONS 65536u
#define ENG_MAX_WORKERS 64u
#define ENG_MAX_QUEUE (1u << 24)
#define ENG_MAX_LOOKAHEAD 64u

/* ---- names ---------------------------------------------------------------------------- */

static const char *const PRIO_NAMES[CZK_PRIORITY_COUNT] = {"low", "normal", "high", "critical"};
static const char *const JOB_STATE_NAMES[] = {"queued", "running", "done", "failed", "cancelled"};
static const char *const PART_STATE_NAMES[CZK_PART_STATE_COUNT] = {
    "queued", "reserving", "synth", "ready", "proving", "finishing", "done", "failed",
    "cancelled"};
static const char *const STAGE_NAMES[] = {"synth", "start", "finish"};

const char *czk_priority_name(enum czk_priority p)
{
    return (unsigned)p < CZK_PRIORITY_COUNT ? PRIO_NAMES[p] : "?";
}

const char *czk_job_state_name(enum czk_job_state s)
{
    return (unsigned)s <= CZK_JOB_STATE_CANCELLED ? JOB_STATE_NAMES[s] : "?";
}

const char *czk_part_state_name(enum czk_part_state s)
{
    return (unsigned)s < CZK_PART_STATE_COUNT ? PART_STATE_NAMES[s] : "?";
}

const char *czk_engine_stage_name(enum czk_engine_stage s)
{
    return (unsigned)s <= CZK_ENGINE_STAGE_FINISH ? STAGE_NAMES[s] : "?";
}

bool czk_priority_parse(const char *s, enum czk_priority *out)
{
    if (!s || !out)
        return false;
    for (int i = 0; i < CZK_PRIORITY_COUNT; i++)
        if (strcasecmp(s, PRIO_NAMES[i]) == 0) {
            *out = (enum czk_priority)i;
            return true;
        }
    return false;
}

/* ---- clock and lock --------------------------------------------------------------------- */

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double eng_now_ms(const struct czk_engine *e) { return mono_ms() - e->t0_ms; }

double czk_engine_now_ms(czk_engine_t e) { return e ? eng_now_ms(e) : 0.0; }

void eng_lock(struct czk_engine *e, enum czk_engine_lock_site site)
{
    if (pthread_mutex_trylock(&e->mu) != 0) {
        double t0 = mono_ms();
        pthread_mutex_lock(&e->mu);
        uint64_t ns = (uint64_t)((mono_ms() - t0) * 1e6);
        atomic_fetch_add_explicit(&e->lock_wait_ns, ns, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&e->lock_acq[site], 1, memory_order_relaxed);
}

void eng_unlock(struct czk_engine *e) { pthread_mutex_unlock(&e->mu); }

/* ---- jobs ------------------------------------------------------------------------------- */

bool eng_job_cancelled(const struct eng_job *j)
{
    return __atomic_load_n(&j->cancel, __ATOMIC_ACQUIRE) != 0;
}

static void job_free(struct eng_job *j)
{
    for (size_t i = 0; i < j->n; i++)
        czk_groth16_public_free(&j->results[i].pub);
    sem_destroy(&j->done_sem);
    free(j->results);
    free(j->parts);
    free(j->paths_blob);
    free(j);
}

void eng_job_unref(struct eng_job *j)
{
    if (atomic_fetch_sub_explicit(&j->refs, 1, memory_order_acq_rel) == 1)
        job_free(j);
}

static bool job_ended(const struct eng_job *j)
{
    return atomic_load(&j->state) >= CZK_JOB_STATE_DONE;
}

/* Job table: chained hash on the id, doubled when the load passes 1. Under e->mu. */
static struct eng_job **table_slot(struct czk_engine *e, czk_job_id id)
{
    struct eng_job **s = &e->table[id & (e->table_nb - 1)];
    while (*s && (*s)->id != id)
        s = &(*s)->hnext;
    return s;
}

static bool table_grow(struct czk_engine *e)
{
    size_t nb = e->table_nb * 2;
    struct eng_job **t = calloc(nb, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < e->table_nb; i++)
        for (struct eng_job *j = e->table[i], *next; j; j = next) {
            next = j->hnext;
            j->hnext = t[j->id & (nb - 1)];
            t[j->id & (nb - 1)] = j;
        }
    free(e->table);
    e->table = t;
    e->table_nb = nb;
    return true;
}

static struct eng_job *table_get_ref(struct czk_engine *e, czk_job_id id)
{
    eng_lock(e, CZK_ENGINE_LOCK_API);
    struct eng_job *j = *table_slot(e, id);
    if (j)
        atomic_fetch_add(&j->refs, 1);
    eng_unlock(e);
    return j;
}

static bool part_of_job(const struct eng_part *p, const void *job) { return p->job == job; }

/* Cancel a job the caller holds a reference to. */
static void job_cancel(struct czk_engine *e, struct eng_job *j)
{
    if (job_ended(j))
        return;
    atomic_store(&j->cancel_requested, true);
    __atomic_store_n(&j->cancel, 1, __ATOMIC_RELEASE);
    struct eng_part **drop = malloc(j->n * sizeof *drop);
    size_t n = 0;
    eng_lock(e, CZK_ENGINE_LOCK_API);
    if (drop)
        n = eng_pq_remove_if(&e->q, part_of_job, j, drop, j->n);
    eng_unlock(e);
    /* Without memory for the list the queued partitions are dropped when popped. */
    for (size_t i = 0; i < n; i++) {
        /* Take back their queue tokens; a token already taken by a synthesis worker
         * makes that worker find the queue empty (counted as pops_empty). */
        if (sem_trywait(&e->queue_items) != 0) {
        }
        snprintf(drop[i]->err, sizeof drop[i]->err, "cancelled while queued");
        eng_part_retire(e, drop[i], CZK_CANCELLED, false);
    }
    free(drop);
}

void eng_part_set_state(struct czk_engine *e, struct eng_part *p, enum czk_part_state s)
{
    atomic_fetch_sub_explicit(&e->parts_in[p->state], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->parts_in[s], 1, memory_order_relaxed);
    p->state = (int)s;
}

/* ---- submit ----------------------------------------------------------------------------- */

static uint64_t witness_bytes(const struct czk_prover_key_info *k)
{
    return (uint64_t)k->n_vars * 32 + 4096;
}

static enum czk_status spec_check(const struct czk_engine_job_spec *s, char *err, size_t errlen)
{
    if (!s->circuit)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: job without a circuit id");
    if ((unsigned)s->priority >= CZK_PRIORITY_COUNT)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: priority %d out of range",
                        (int)s->priority);
    if (s->n_partitions == 0 || s->n_partitions > ENG_MAX_PARTITIONS)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "engine: %zu partitions (1..%u allowed)", s->n_partitions,
                        ENG_MAX_PARTITIONS);
    if (!s->witness_paths == !s->witnesses)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "engine: give exactly one of witness_paths and witnesses");
    for (size_t i = 0; i < s->n_partitions; i++)
        if (s->witness_paths ? !s->witness_paths[i] : !s->witnesses[i])
            return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: witness %zu is NULL", i);
    if (s->label && strlen(s->label) > 63)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: label longer than 63 bytes");
    return CZK_OK;
}

/* Per-partition needs of circuit `info` on this engine's devices. */
static enum czk_status job_needs(struct czk_engine *e, const char *circuit,
                                 const struct czk_prover_key_info *k, uint64_t *host,
                                 uint64_t *dev, char *err, size_t errlen)
{
    *host = *dev = 0;
    for (size_t d = 0; d < e->n_devs; d++) {
        uint64_t h, g;
        if (e->prover->need)
            e->prover->need(e->pctx, k, e->devs[d].gpu, e->backend_threads, &h, &g);
        else
            czk_engine_partition_need(k, e->devs[d].dev, e->backend_threads, &h, &g);
        if (e->pool) /* the witness lives in a slab, already reserved */
            h = h > witness_bytes(k) ? h - witness_bytes(k) : 0;
        *host = h > *host ? h : *host;
        *dev = g > *dev ? g : *dev;
        struct czk_budget_stats bs;
        if (e->devs[d].budget) {
            czk_budget_get_stats(e->devs[d].budget, &bs);
            if (g > bs.limit)
                return czk_errf(CZK_ERR_BUDGET, err, errlen,
                                "engine: a partition of %s needs %llu bytes on %s, its budget "
                                "is %llu",
                                circuit, (unsigned long long)g, e->devs[d].name,
                                (unsigned long long)bs.limit);
        }
    }
    struct czk_budget_stats hs;
    czk_budget_get_stats(e->host_budget, &hs);
    if (*host > hs.limit)
        return czk_errf(CZK_ERR_BUDGET, err, errlen,
                        "engine: a partition of %s needs %llu bytes of host memory, the budget "
                        "is %llu",
                        circuit, (unsigned long long)*host, (unsigned long long)hs.limit);
    if (e->pool && (uint64_t)k->n_vars * 32 > e->cfg.slab_bytes)
        return czk_errf(CZK_ERR_BUDGET, err, errlen,
                        "engine: a witness of %s (%u values) does not fit a %zu-byte slab",
                        circuit, k->n_vars, e->cfg.slab_bytes);
    return CZK_OK;
}

static struct eng_job *job_new(struct czk_engine *e, const struct czk_engine_job_spec *s)
{
    struct eng_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    size_t n = s->n_partitions, blob = 0;
    j->parts = calloc(n, sizeof *j->parts);
    j->results = calloc(n, sizeof *j->results);
    if (s->witness_paths)
        for (size_t i = 0; i < n; i++)
            blob += strlen(s->witness_paths[i]) + 1;
    j->paths_blob = blob ? malloc(blob) : NULL;
    if (!j->parts || !j->results || (blob && !j->paths_blob) || sem_init(&j->done_sem, 0, 0)) {
        free(j->parts);
        free(j->results);
        free(j->paths_blob);
        free(j);
        return NULL;
    }
    j->e = e;
    j->n = n;
    j->prio = s->priority;
    snprintf(j->circuit, sizeof j->circuit, "%s", s->circuit);
    snprintf(j->label, sizeof j->label, "%s", s->label ? s->label : "");
    j->on_done = s->on_done;
    j->user = s->user;
    atomic_init(&j->remaining, n);
    atomic_init(&j->state, CZK_JOB_STATE_QUEUED);
    atomic_init(&j->first_start_us, -1);
    atomic_init(&j->end_us, -1);
    atomic_init(&j->refs, 2); /* the table, the partitions in flight */
    char *cur = j->paths_blob;
    for (size_t i = 0; i < n; i++) {
        struct eng_part *p = &j->parts[i];
        p->job = j;
        p->idx = (uint32_t)i;
        p->dev = -1;
        p->state = CZK_PART_STATE_QUEUED;
        j->results[i].status = CZK_ERR_BUSY;
        if (s->witness_paths) {
            size_t len = strlen(s->witness_paths[i]) + 1;
            memcpy(cur, s->witness_paths[i], len);
            p->path = cur;
            cur += len;
        } else {
            p->user_w = s->witnesses[i];
        }
    }
    return j;
}

enum czk_status czk_engine_submit(czk_engine_t e, const struct czk_engine_job_spec *spec,
                                  czk_job_id *id, char *err, size_t errlen)
{
    if (!e || !spec || !id)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: NULL argument");
    enum czk_status st = spec_check(spec, err, errlen);
    if (st != CZK_OK)
        return st;
    struct czk_srs_info si;
    if (czk_srs_info(e->srs, spec->circuit, &si) != CZK_OK)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "engine: circuit '%s' is not registered", spec->circuit);
    uint64_t need_host, need_dev;
    if ((st = job_needs(e, spec->circuit, &si.key, &need_host, &need_dev, err, errlen)) != CZK_OK)
        return st;
    struct eng_job *j = job_new(e, spec);
    if (!j)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "engine: out of memory");
    j->need_host = need_host;
    j->need_dev = need_dev;
    j->prove_flags = e->cfg.prove_flags;
    double now = eng_now_ms(e);
    j->submit_ms = now;
    for (size_t i = 0; i < j->n; i++)
        j->parts[i].t_queued = now;

    eng_lock(e, CZK_ENGINE_LOCK_SUBMIT);
    if (e->q.n + j->n > e->q.cap || (e->table_n >= e->table_nb && !table_grow(e))) {
        size_t queued = e->q.n;
        eng_unlock(e);
        atomic_fetch_add(&e->jobs_busy, 1);
        size_t n = j->n;
        job_free(j);
        return czk_errf(CZK_ERR_BUSY, err, errlen,
                        "engine: queue full (%zu of %zu partitions queued, job has %zu)", queued,
                        e->q.cap, n);
    }
    j->id = e->next_id++;
    struct eng_job **slot = table_slot(e, j->id);
    *slot = j;
    j->in_table = true;
    e->table_n++;
    for (size_t i = 0; i < j->n; i++)
        eng_pq_push(&e->q, &j->parts[i], j->prio);
    atomic_fetch_add(&e->parts_in[CZK_PART_STATE_QUEUED], j->n);
    atomic_fetch_add(&e->jobs_inflight, 1);
    atomic_fetch_add(&e->jobs_submitted, 1);
    *id = j->id;
    size_t n = j->n;
    eng_unlock(e);
    for (size_t i = 0; i < n; i++)
        eng_sem_post(&e->queue_items);
    return CZK_OK;
}

/* ---- job queries ------------------------------------------------------------------------- */

static void job_info_fill(const struct eng_job *j, struct czk_engine_job_info *info)
{
    memset(info, 0, sizeof *info);
    info->id = j->id;
    info->state = (enum czk_job_state)atomic_load(&j->state);
    info->priority = j->prio;
    info->n_partitions = j->n;
    info->n_done = atomic_load(&j->n_done);
    info->n_failed = atomic_load(&j->n_failed);
    info->n_cancelled = atomic_load(&j->n_cancelled);
    info->status = CZK_OK;
    if (atomic_load_explicit(&j->fail_claim, memory_order_acquire) == 2) {
        info->status = j->status;
        snprintf(info->error, sizeof info->error, "%s", j->error);
    } else if (info->state == CZK_JOB_STATE_CANCELLED) {
        info->status = CZK_CANCELLED;
        snprintf(info->error, sizeof info->error, "cancelled");
    }
    info->submit_ms = j->submit_ms;
    int64_t fs = atomic_load(&j->first_start_us), en = atomic_load(&j->end_us);
    info->first_start_ms = fs < 0 ? -1.0 : (double)fs / 1e3;
    info->end_ms = en < 0 ? -1.0 : (double)en / 1e3;
}

enum czk_status czk_engine_job_status(czk_engine_t e, czk_job_id id,
                                      struct czk_engine_job_info *info)
{
    if (!e || !info)
        return CZK_ERR_INVALID_ARG;
    eng_lock(e, CZK_ENGINE_LOCK_API);
    struct eng_job *j = *table_slot(e, id);
    if (j)
        job_info_fill(j, info);
    eng_unlock(e);
    return j ? CZK_OK : CZK_ERR_INVALID_ARG;
}

enum czk_status czk_engine_job_wait(czk_engine_t e, czk_job_id id, int timeout_ms,
                                    enum czk_job_state *state)
{
    if (!e)
        return CZK_ERR_INVALID_ARG;
    struct eng_job *j = table_get_ref(e, id);
    if (!j)
        return CZK_ERR_INVALID_ARG;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    if (timeout_ms >= 0) {
        dl.tv_sec += timeout_ms / 1000;
        dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (dl.tv_nsec >= 1000000000L) {
            dl.tv_sec++;
            dl.tv_nsec -= 1000000000L;
        }
    }
    atomic_fetch_add(&j->waiters, 1);
    while (!job_ended(j)) {
        int rc = timeout_ms < 0 ? sem_wait(&j->done_sem) : sem_timedwait(&j->done_sem, &dl);
        if (rc != 0 && errno == ETIMEDOUT)
            break;
    }
    atomic_fetch_sub(&j->waiters, 1);
    enum czk_job_state s = (enum czk_job_state)atomic_load(&j->state);
    eng_job_unref(j);
    if (state)
        *state = s;
    return s >= CZK_JOB_STATE_DONE ? CZK_OK : CZK_ERR_BUSY;
}

enum czk_status czk_engine_job_result(czk_engine_t e, czk_job_id id,
                                      const struct czk_engine_part_result **parts, size_t *n)
{
    if (!e || !parts || !n)
        return CZK_ERR_INVALID_ARG;
    enum czk_status st = CZK_ERR_INVALID_ARG;
    eng_lock(e, CZK_ENGINE_LOCK_API);
    struct eng_job *j = *table_slot(e, id);
    if (j && !job_ended(j)) {
        st = CZK_ERR_BUSY;
    } else if (j) {
        *parts = j->results;
        *n = j->n;
        st = CZK_OK;
    }
    eng_unlock(e);
    return st;
}

enum czk_status czk_engine_job_cancel(czk_engine_t e, czk_job_id id)
{
    if (!e)
        return CZK_ERR_INVALID_ARG;
    struct eng_job *j = table_get_ref(e, id);
    if (!j)
        return CZK_ERR_INVALID_ARG;
    job_cancel(e, j);
    eng_job_unref(j);
    return CZK_OK;
}

enum czk_status czk_engine_job_release(czk_engine_t e, czk_job_id id)
{
    if (!e)
        return CZK_ERR_INVALID_ARG;
    eng_lock(e, CZK_ENGINE_LOCK_API);
    struct eng_job **slot = table_slot(e, id), *j = *slot;
    if (j) {
        *slot = j->hnext;
        j->hnext = NULL;
        j->in_table = false;
        e->table_n--;
    }
    eng_unlock(e);
    if (!j)
        return CZK_ERR_INVALID_ARG;
    job_cancel(e, j); /* no effect when ended */
    eng_job_unref(j); /* the table's reference */
    return CZK_OK;
}

/* ---- stats, timeline --------------------------------------------------------------------- */

static void gauge_fill(struct czk_engine_budget_gauge *g, czk_budget_t b, const char *name)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    if (!b)
        return;
    struct czk_budget_stats bs;
    czk_budget_get_stats(b, &bs);
    g->limit = bs.limit;
    g->reserved = bs.reserved;
    g->peak = bs.peak;
    g->n_waits = bs.n_waits;
}

void czk_engine_get_stats(czk_engine_t e, struct czk_engine_stats *st)
{
    if (!e || !st)
        return;
    memset(st, 0, sizeof *st);
    eng_lock(e, CZK_ENGINE_LOCK_API);
    for (int i = 0; i < CZK_PRIORITY_COUNT; i++)
        st->queue_depth[i] = e->q.depth[i];
    eng_unlock(e);
    for (int i = 0; i < CZK_PART_STATE_COUNT; i++)
        st->parts[i] = atomic_load(&e->parts_in[i]);
    st->jobs_submitted = atomic_load(&e->jobs_submitted);
    st->jobs_done = atomic_load(&e->jobs_done);
    st->jobs_failed = atomic_load(&e->jobs_failed);
    st->jobs_cancelled = atomic_load(&e->jobs_cancelled);
    st->jobs_rejected_busy = atomic_load(&e->jobs_busy);
    for (int i = 0; i < CZK_ENGINE_LOCK_SITES; i++)
        st->lock_acquisitions[i] = atomic_load(&e->lock_acq[i]);
    st->lock_wait_ms = (double)atomic_load(&e->lock_wait_ns) / 1e6;
    st->partitions_popped = atomic_load(&e->pops);
    st->pops_empty = atomic_load(&e->pops_empty);
    st->hot_lock_per_partition =
        st->partitions_popped
            ? (double)st->lock_acquisitions[CZK_ENGINE_LOCK_POP] / (double)st->partitions_popped
            : 0.0;
    gauge_fill(&st->host, e->host_budget, "host");
    st->n_devices = e->n_devs;
    for (size_t d = 0; d < e->n_devs; d++)
        gauge_fill(&st->gpu[d], e->devs[d].budget, e->devs[d].name);
    if (e->pool) {
        struct czk_pool_stats ps;
        czk_pool_get_stats(e->pool, &ps);
        st->pool_slabs = ps.n_slabs;
        st->pool_free = ps.n_free;
        st->pool_fallbacks = ps.n_fallback;
        st->pool_waits = ps.n_waits;
    }
    st->n_synth_workers = e->n_synth;
    st->n_gpu_workers = e->n_gpu;
    st->n_finalizers = e->n_fin;
}

enum czk_status czk_engine_timeline_read(czk_engine_t e, uint64_t from_seq,
                                         struct czk_engine_event *ev, size_t cap, size_t *n,
                                         uint64_t *next_seq)
{
    if (!e || (!ev && cap) || !n || !next_seq)
        return CZK_ERR_INVALID_ARG;
    *n = eng_tl_read(&e->tl, from_seq, ev, cap, next_seq);
    return CZK_OK;
}

/* ---- new / free ---------------------------------------------------------------------------- */

static enum czk_status cfg_check(struct czk_engine_config *c, char *err, size_t errlen)
{
    if (!c->srs)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: no SRS manager given");
    if (!c->gpu_workers_per_device)
        c->gpu_workers_per_device = 2;
    if (!c->synth_workers)
        c->synth_workers = 2;
    if (!c->finalizer_workers)
        c->finalizer_workers = 1;
    if (!c->queue_capacity)
        c->queue_capacity = 4096;
    if (!c->lookahead)
        c->lookahead = 1;
    if (!c->timeline_capacity)
        c->timeline_capacity = 65536;
    if (c->gpu_workers_per_device > ENG_MAX_WORKERS || c->synth_workers > ENG_MAX_WORKERS ||
        c->finalizer_workers > ENG_MAX_WORKERS)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "engine: worker counts must be 1..%u", ENG_MAX_WORKERS);
    if (c->queue_capacity > ENG_MAX_QUEUE)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "engine: queue_capacity %u above %u", c->queue_capacity, ENG_MAX_QUEUE);
    if (c->lookahead > ENG_MAX_LOOKAHEAD)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: lookahead %u above %u",
                        c->lookahead, ENG_MAX_LOOKAHEAD);
    if (c->n_slabs && !c->slab_bytes)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: n_slabs without slab_bytes");
    if (c->timeline_capacity > (1u << 24))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: timeline_capacity above 2^24");
    return CZK_OK;
}

static enum czk_status devices_open(struct czk_engine *e, char *err, size_t errlen)
{
    czk_device_t devs[CZK_ENGINE_MAX_DEVICES];
    size_t n = 0;
    enum czk_status st =
        czk_backend_select(e->cfg.devices, devs, CZK_ENGINE_MAX_DEVICES, &n, err, errlen);
    if (st != CZK_OK)
        return st;
    if (n > CZK_ENGINE_MAX_DEVICES)
        n = CZK_ENGINE_MAX_DEVICES;
    for (size_t d = 0; d < n; d++) {
        struct eng_device *ed = &e->devs[d];
        struct czk_device_props pr;
        czk_device_get_props(devs[d], &pr);
        ed->dev = devs[d];
        ed->name = czk_device_name(devs[d]);
        ed->gpu = pr.type == CZK_DEVICE_TYPE_GPU;
        if (sem_init(&ed->token, 0, 1) != 0)
            return czk_errf(CZK_ERR_INTERNAL, err, errlen, "engine: sem_init failed");
        e->n_devs = d + 1;
        if (ed->gpu) {
            uint64_t lim = e->cfg.gpu_budget_bytes ? e->cfg.gpu_budget_bytes
                                                   : (uint64_t)pr.mem_total / 10 * 9;
            if ((st = czk_budget_new(&ed->budget, ed->name, lim ? lim : 1)) != CZK_OK)
                return czk_errf(st, err, errlen, "engine: budget for %s", ed->name);
        }
    }
    return CZK_OK;
}

/* The slab pool's allocator when the configuration names none: page-locked memory (the GPUs
 * upload witnesses from it by direct DMA) when the build has CUDA and a device is a CUDA GPU,
 * else plain host memory. */
static const struct czk_allocator *slab_allocator_default(const struct czk_engine *e)
{
#ifdef CZK_USE_CUDA
    czk_backend_reg_t cuda = czk_backend_reg_by_name("cuda");
    size_t n_cuda = cuda ? czk_backend_reg_device_count(cuda) : 0;
    for (size_t d = 0; d < e->n_devs; d++)
        for (size_t i = 0; i < n_cuda; i++)
            if (czk_backend_reg_device_get(cuda, i) == e->devs[d].dev)
                return czk_cuda_pinned_allocator();
#else
    (void)e;
#endif
    return czk_allocator_host();
}

static enum czk_status workers_start(struct czk_engine *e, char *err, size_t errlen)
{
    e->n_synth = e->cfg.synth_workers;
    e->n_fin = e->cfg.finalizer_workers;
    e->n_gpu = e->cfg.gpu_workers_per_device * (unsigned)e->n_devs;
    e->synth = calloc(e->n_synth, sizeof *e->synth);
    e->gpu = calloc(e->n_gpu, sizeof *e->gpu);
    e->fins = calloc(e->n_fin, sizeof *e->fins);
    if (!e->synth || !e->gpu || !e->fins)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "engine: out of memory");
    for (unsigned i = 0; i < e->n_gpu; i++) {
        struct eng_worker *w = &e->gpu[i];
        w->e = e;
        w->id = i;
        w->dev = (int)(i / e->cfg.gpu_workers_per_device);
        if (sem_init(&w->bes_free, 0, ENG_WORKER_BACKENDS) != 0)
            return czk_errf(CZK_ERR_INTERNAL, err, errlen, "engine: sem_init failed");
        w->bes_sem = true;
        for (unsigned k = 0; k < ENG_WORKER_BACKENDS; k++) {
            enum czk_status st = czk_backend_new(e->devs[w->dev].dev, e->cfg.backend_threads,
                                                 &w->bes[k].be, err, errlen);
            if (st != CZK_OK)
                return st;
            /* an MSM's scratch beyond its least plan (in the partition's need) from the
             * device's budget, so it never takes memory a reservation was promised */
            if (e->devs[w->dev].budget)
                czk_backend_set_scratch_budget(w->bes[k].be, e->devs[w->dev].budget);
        }
    }
    struct {
        struct eng_worker *w;
        unsigned n;
        void *(*fn)(void *);
    } kinds[3] = {{e->fins, e->n_fin, eng_fin_main},
                  {e->gpu, e->n_gpu, eng_device_main},
                  {e->synth, e->n_synth, eng_synth_main}};
    for (int k = 0; k < 3; k++)
        for (unsigned i = 0; i < kinds[k].n; i++) {
            struct eng_worker *w = &kinds[k].w[i];
            w->e = e;
            w->id = i;
            if (pthread_create(&w->thread, NULL, kinds[k].fn, w) != 0)
                return czk_errf(CZK_ERR_INTERNAL, err, errlen, "engine: cannot start a thread");
            w->started = true;
        }
    return CZK_OK;
}

/* Wake every thread with a stop request and join it. */
static void workers_stop(struct czk_engine *e)
{
    atomic_store(&e->stopping, true);
    for (unsigned i = 0; i < e->n_synth; i++) {
        eng_sem_post(&e->credits);
        eng_sem_post(&e->queue_items);
    }
    for (unsigned i = 0; i < e->n_synth; i++)
        if (e->synth[i].started)
            pthread_join(e->synth[i].thread, NULL);
    for (unsigned i = 0; i < e->n_gpu; i++)
        if (e->gpu[i].started)
            eng_ring_push(&e->ready, NULL);
    for (unsigned i = 0; i < e->n_gpu; i++)
        if (e->gpu[i].started)
            pthread_join(e->gpu[i].thread, NULL);
    for (unsigned i = 0; i < e->n_fin; i++)
        if (e->fins[i].started)
            eng_ring_push(&e->fin, NULL);
    for (unsigned i = 0; i < e->n_fin; i++)
        if (e->fins[i].started)
            pthread_join(e->fins[i].thread, NULL);
}

/* Cancel every job and wait until none is in flight. */
static void jobs_drain(struct czk_engine *e)
{
    for (;;) {
        eng_lock(e, CZK_ENGINE_LOCK_API);
        struct eng_job *live = NULL;
        for (size_t b = 0; b < e->table_nb && !live; b++)
            for (struct eng_job *j = e->table[b]; j && !live; j = j->hnext)
                if (!job_ended(j) && !atomic_load(&j->cancel_requested))
                    live = j;
        if (live)
            atomic_fetch_add(&live->refs, 1);
        eng_unlock(e);
        if (!live)
            break;
        job_cancel(e, live);
        eng_job_unref(live);
    }
    while (atomic_load(&e->jobs_inflight) > 0) {
        struct timespec ts = {0, 1000000L};
        nanosleep(&ts, NULL);
    }
}

void czk_engine_free(czk_engine_t e)
{
    if (!e)
        return;
    if (e->synth && e->gpu && e->fins) {
        jobs_drain(e);
        workers_stop(e);
    }
    for (unsigned i = 0; e->gpu && i < e->n_gpu; i++) {
        for (unsigned k = 0; k < ENG_WORKER_BACKENDS; k++)
            czk_backend_free(e->gpu[i].bes[k].be);
        if (e->gpu[i].bes_sem)
            sem_destroy(&e->gpu[i].bes_free);
    }
    free(e->synth);
    free(e->gpu);
    free(e->fins);
    for (size_t b = 0; e->table && b < e->table_nb; b++)
        for (struct eng_job *j = e->table[b], *next; j; j = next) {
            next = j->hnext;
            eng_job_unref(j);
        }
    free(e->table);
    czk_pool_free(e->pool);
    for (size_t d = 0; d < e->n_devs; d++) {
        czk_srs_forget_device(e->srs, e->devs[d].budget); /* the keys hot there */
        czk_budget_free(e->devs[d].budget);
        sem_destroy(&e->devs[d].token);
    }
    if (e->own_host_budget)
        czk_budget_free(e->host_budget);
    eng_ring_destroy(&e->ready);
    eng_ring_destroy(&e->fin);
    eng_tl_destroy(&e->tl);
    eng_pq_destroy(&e->q);
    sem_destroy(&e->queue_items);
    sem_destroy(&e->credits);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

enum czk_status czk_engine_new(czk_engine_t *out, const struct czk_engine_config *cfg,
                               char *err, size_t errlen)
{
    if (!out || !cfg)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "engine: NULL argument");
    struct czk_engine *e = calloc(1, sizeof *e);
    if (!e)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "engine: out of memory");
    e->cfg = *cfg;
    enum czk_status st = cfg_check(&e->cfg, err, errlen);
    if (st != CZK_OK) {
        free(e);
        return st;
    }
    e->t0_ms = mono_ms();
    e->prover = e->cfg.prover ? e->cfg.prover : czk_engine_prover_default();
    e->pctx = e->cfg.prover_ctx;
    e->srs = e->cfg.srs;
    e->backend_threads = czk_threads_resolve(e->cfg.backend_threads);
    e->next_id = 1;
    pthread_mutex_init(&e->mu, NULL);
    /* Everything below is undone by czk_engine_free, which copes with partial setup. */
    sem_init(&e->queue_items, 0, 0);
    sem_init(&e->credits, 0, 0);
    if ((st = eng_pq_init(&e->q, e->cfg.queue_capacity)) != CZK_OK ||
        (st = eng_tl_init(&e->tl, e->cfg.timeline_capacity)) != CZK_OK)
        goto fail_nomem;
    e->table_nb = 64;
    if (!(e->table = calloc(e->table_nb, sizeof *e->table))) {
        st = CZK_ERR_NOMEM;
        goto fail_nomem;
    }
    if ((st = devices_open(e, err, errlen)) != CZK_OK)
        goto fail;
    unsigned credits = e->cfg.lookahead * (unsigned)e->n_devs;
    for (unsigned i = 0; i < credits; i++)
        eng_sem_post(&e->credits);
    size_t n_gpu = (size_t)e->cfg.gpu_workers_per_device * e->n_devs;
    if ((st = eng_ring_init(&e->ready, credits + n_gpu + 1)) != CZK_OK ||
        (st = eng_ring_init(&e->fin, 2 * n_gpu + e->cfg.finalizer_workers + 64)) != CZK_OK)
        goto fail_nomem;
    if (e->cfg.host_budget) {
        e->host_budget = e->cfg.host_budget;
    } else {
        uint64_t lim = e->cfg.host_budget_bytes ? e->cfg.host_budget_bytes
                                                : czk_mem_default_host_budget();
        if ((st = czk_budget_new(&e->host_budget, "host", lim)) != CZK_OK) {
            czk_errf(st, err, errlen, "engine: host budget of %llu bytes",
                     (unsigned long long)lim);
            goto fail;
        }
        e->own_host_budget = true;
    }
    if (e->cfg.n_slabs) {
        const struct czk_allocator *a =
            e->cfg.slab_allocator ? e->cfg.slab_allocator : slab_allocator_default(e);
        st = czk_pool_new(&e->pool, a, e->cfg.slab_bytes, e->cfg.n_slabs, e->host_budget);
        if (st == CZK_ERR_NOMEM && !e->cfg.slab_allocator && a != czk_allocator_host()) {
            /* the default's page-locked memory could not be had: plain memory still works */
            czk_log(CZK_LOG_WARN, "engine", "pool: no %s memory for %u slabs of %zu bytes: "
                    "plain host memory instead", a->name, e->cfg.n_slabs, e->cfg.slab_bytes);
            a = czk_allocator_host();
            st = czk_pool_new(&e->pool, a, e->cfg.slab_bytes, e->cfg.n_slabs, e->host_budget);
        }
        if (st != CZK_OK) {
            czk_errf(st, err, errlen, "engine: pool of %u slabs of %zu bytes", e->cfg.n_slabs,
                     e->cfg.slab_bytes);
            goto fail;
        }
        czk_log(CZK_LOG_INFO, "engine", "pool: %u slabs of %zu bytes, allocator %s (pinned=%d)",
                e->cfg.n_slabs, e->cfg.slab_bytes, a->name, a->pinned ? 1 : 0);
    }
    if ((st = workers_start(e, err, errlen)) != CZK_OK)
        goto fail;
    czk_log(CZK_LOG_INFO, "engine",
            "ENGINE_START devices=%zu synth_workers=%u gpu_workers=%u finalizers=%u "
            "queue_capacity=%u lookahead=%u backend_threads=%u slabs=%u",
            e->n_devs, e->n_synth, e->n_gpu, e->n_fin, e->cfg.queue_capacity, e->cfg.lookahead,
            e->backend_threads, e->cfg.n_slabs);
    *out = e;
    return CZK_OK;

fail_nomem:
    czk_errf(st, err, errlen, "engine: out of memory");
fail:
    czk_engine_free(e);
    return st;
}
