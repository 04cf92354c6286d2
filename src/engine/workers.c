/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's threads and partition retirement (see engine_internal.h):
 *
 *   synthesis worker  credit ─> queue pop (the one engine-mutex acquisition of a
 *                     partition) ─> SRS key (warm) ─> host reservation ─> slab ─>
 *                     witness load ─> `ready` ring
 *   device worker     `ready` ring ─> [GPU: key hot + device reservation] ─> compute
 *                     token ─> credit back ─> czk_prove_start ─> token back ─> `fin` ring
 *   finalizer         `fin` ring ─> czk_prove_finish ─> retire (release everything,
 *                     malloc_trim) ─> job tracker
 *
 * Lookahead credits bound the partitions popped and not yet started (cfg.lookahead per
 * device): a partition of a higher-priority job submitted later overtakes every queued
 * one and waits at most for those already popped. The compute token interlocks the
 * workers of a device: while one runs czk_prove_start the next holds its synthesized
 * partition ready, so the device moves on at once.
 *
 * A partition is retired exactly once, by the stage that holds it when it ends (done,
 * failed, cancelled); retirement releases what it holds in reverse order of taking it.
 * After a partition has been retired the stage never touches it again (its job may be
 * freed by then).
 */
#include <stdio.h>
#include <string.h>

#include "engine/engine_internal.h"

#define US(ms) ((int_fast64_t)((ms) * 1000.0))

/* ---- timeline and logs ------------------------------------------------------------------- */

static const char WORKER_KIND[] = {'s', 'g', 'f'};

static void tl_event(struct czk_engine *e, const struct eng_part *p, unsigned worker,
                     enum czk_engine_stage stage, bool begin, double t)
{
    eng_tl_put(&e->tl, t, p->job->id, p->idx, (uint16_t)worker, stage, begin);
    if (czk_log_level_get() <= CZK_LOG_DEBUG)
        czk_log(CZK_LOG_DEBUG, "engine", "TIMELINE ev=%s stage=%s worker=%c%u job=%llu part=%u "
                "t_ms=%.3f", begin ? "begin" : "end", czk_engine_stage_name(stage),
                WORKER_KIND[stage], worker, (unsigned long long)p->job->id, p->idx, t);
}

/* ---- retirement --------------------------------------------------------------------------- */

static void job_end(struct czk_engine *e, struct eng_job *j)
{
    enum czk_job_state s = CZK_JOB_STATE_DONE;
    if (atomic_load(&j->cancel_requested))
        s = CZK_JOB_STATE_CANCELLED;
    else if (atomic_load(&j->n_failed) || atomic_load(&j->n_cancelled))
        s = CZK_JOB_STATE_FAILED;
    double now = eng_now_ms(e);
    atomic_store(&j->end_us, US(now));
    atomic_store(&j->state, (int)s);
    atomic_fetch_add(s == CZK_JOB_STATE_DONE     ? &e->jobs_done
                     : s == CZK_JOB_STATE_FAILED ? &e->jobs_failed
                                                 : &e->jobs_cancelled,
                     1);
    bool failed = atomic_load_explicit(&j->fail_claim, memory_order_acquire) == 2;
    czk_log(s == CZK_JOB_STATE_FAILED ? CZK_LOG_WARN : CZK_LOG_INFO, "engine",
            "ENGINE_JOB job=%llu label=%s circuit=%s priority=%s state=%s partitions=%zu "
            "latency_ms=%.3f error=\"%s\"",
            (unsigned long long)j->id, j->label[0] ? j->label : "-", j->circuit,
            czk_priority_name(j->prio), czk_job_state_name(s), j->n, now - j->submit_ms,
            failed ? j->error : "");
    if (j->on_done)
        j->on_done(j->user, j->id, s);
    for (unsigned n = atomic_load(&j->waiters); n > 0; n--)
        eng_sem_post(&j->done_sem);
    atomic_fetch_sub(&e->jobs_inflight, 1);
    eng_job_unref(j); /* the in-flight reference */
}

/* The first failure of a job names the job's error and stops its other partitions. */
static void job_fail(struct eng_job *j, const struct eng_part *p, enum czk_status st)
{
    int expect = 0;
    if (atomic_compare_exchange_strong(&j->fail_claim, &expect, 1)) {
        j->status = st;
        int k = snprintf(j->error, sizeof j->error, "partition %u: ", p->idx);
        size_t off = k > 0 && (size_t)k < sizeof j->error ? (size_t)k : 0;
        const char *msg = p->err[0] ? p->err : czk_status_str(st);
        size_t n = strnlen(msg, sizeof j->error - off - 1);
        memcpy(j->error + off, msg, n);
        j->error[off + n] = '\0';
        atomic_store_explicit(&j->fail_claim, 2, memory_order_release);
    }
    __atomic_store_n(&j->cancel, 1, __ATOMIC_RELEASE);
}

static void release_resources(struct czk_engine *e, struct eng_part *p)
{
    struct eng_job *j = p->job;
    if (p->pjob) {
        e->prover->job_free(e->pctx, p->pjob);
        p->pjob = NULL;
    }
    if (p->beh) { /* after the job, the last user of the backend */
        atomic_store(&p->beh->busy, false);
        eng_sem_post(&p->be_owner->bes_free);
        p->beh = NULL;
        p->be_owner = NULL;
    }
    if (p->w && p->w_owned)
        e->prover->witness_free(e->pctx, p->w);
    p->w = NULL;
    if (p->have_slab) {
        czk_pool_release(e->pool, &p->slab);
        p->have_slab = false;
    }
    if (p->dev_reserved) {
        czk_budget_release(e->devs[p->dev].budget, p->dev_reserved);
        p->dev_reserved = 0;
    }
    if (p->host_reserved) {
        czk_budget_release(e->host_budget, p->host_reserved);
        p->host_reserved = 0;
    }
    if (p->dev_key_held) {
        czk_srs_release(e->srs, j->circuit);
        p->dev_key_held = false;
    }
    if (p->key_held) {
        czk_srs_release(e->srs, j->circuit);
        p->key_held = false;
    }
    if (p->credit) {
        eng_sem_post(&e->credits);
        p->credit = false;
    }
}

void eng_part_retire(struct czk_engine *e, struct eng_part *p, enum czk_status st, bool trim)
{
    struct eng_job *j = p->job;
    release_resources(e, p);
    struct czk_engine_part_result *r = &j->results[p->idx];
    r->status = st;
    r->worker_id = p->worker_id;
    r->device = p->dev >= 0 ? e->devs[p->dev].name : NULL;
    r->queue_wait_ms = p->t_popped > 0 ? p->t_popped - p->t_queued : 0;
    r->synth_ms = p->reserve_ms + p->load_ms;
    r->prove_ms = p->t_start1 > p->t_start0 ? p->t_start1 - p->t_start0 : 0;
    if (st == CZK_OK) {
        atomic_fetch_add(&j->n_done, 1);
        eng_part_set_state(e, p, CZK_PART_STATE_DONE);
    } else if (st == CZK_CANCELLED) {
        atomic_fetch_add(&j->n_cancelled, 1);
        eng_part_set_state(e, p, CZK_PART_STATE_CANCELLED);
    } else {
        atomic_fetch_add(&j->n_failed, 1);
        eng_part_set_state(e, p, CZK_PART_STATE_FAILED);
        job_fail(j, p, st);
    }
    if (trim)
        czk_mem_trim();
    if (atomic_fetch_sub(&j->remaining, 1) == 1)
        job_end(e, j);
}

/* ---- synthesis ----------------------------------------------------------------------------- */

static double stage_ms(struct czk_engine *e, double *t)
{
    double now = eng_now_ms(e), d = now - *t;
    *t = now;
    return d;
}

/* Pop the next partition (one engine-mutex acquisition), or NULL when stopping. */
static struct eng_part *synth_pop(struct czk_engine *e)
{
    for (;;) {
        eng_sem_wait(&e->credits);
        eng_sem_wait(&e->queue_items);
        if (atomic_load(&e->stopping))
            return NULL;
        eng_lock(e, CZK_ENGINE_LOCK_POP);
        struct eng_part *p = eng_pq_pop(&e->q);
        eng_unlock(e);
        atomic_fetch_add_explicit(&e->pops, 1, memory_order_relaxed);
        if (p) {
            p->credit = true;
            return p;
        }
        /* a cancel took this partition's token race: give the credit back */
        atomic_fetch_add_explicit(&e->pops_empty, 1, memory_order_relaxed);
        eng_sem_post(&e->credits);
    }
}

static void mark_started(struct czk_engine *e, struct eng_part *p)
{
    struct eng_job *j = p->job;
    p->t_popped = eng_now_ms(e);
    p->pipeline_id = atomic_fetch_add(&e->next_pipeline, 1) + 1;
    int_fast64_t none = -1;
    atomic_compare_exchange_strong(&j->first_start_us, &none, US(p->t_popped));
    int queued = CZK_JOB_STATE_QUEUED;
    atomic_compare_exchange_strong(&j->state, &queued, CZK_JOB_STATE_RUNNING);
    eng_part_set_state(e, p, CZK_PART_STATE_RESERVING);
}

/* Key, memory, slab, witness; CZK_OK with p READY, else the failure (p->err set). */
static enum czk_status synthesize(struct czk_engine *e, struct eng_part *p)
{
    struct eng_job *j = p->job;
    const volatile int *cancel = &j->cancel;
    double t = p->t_popped;
    enum czk_status st;
    if (eng_job_cancelled(j))
        return CZK_CANCELLED;
    if (e->prover->admit &&
        (st = e->prover->admit(e->pctx, j->circuit, p->path, p->idx, p->err, sizeof p->err)) !=
            CZK_OK)
        return st;
    if ((st = czk_srs_acquire(e->srs, j->circuit, NULL, &p->key, p->err, sizeof p->err)) !=
        CZK_OK)
        return st;
    p->key_held = true;
    if ((st = czk_budget_reserve(e->host_budget, j->need_host, cancel, -1)) != CZK_OK) {
        snprintf(p->err, sizeof p->err, "host memory reservation of %llu bytes: %s",
                 (unsigned long long)j->need_host, czk_status_str(st));
        return st;
    }
    p->host_reserved = j->need_host;
    if (e->pool && p->path) {
        st = czk_pool_acquire(e->pool, e->cfg.slab_fallback_pageable, cancel, -1, &p->slab);
        if (st != CZK_OK) {
            snprintf(p->err, sizeof p->err, "witness slab: %s", czk_status_str(st));
            return st;
        }
        p->have_slab = true;
    }
    p->reserve_ms = stage_ms(e, &t);
    if (eng_job_cancelled(j))
        return CZK_CANCELLED;
    eng_part_set_state(e, p, CZK_PART_STATE_SYNTH);
    if (p->path) {
        st = e->prover->witness_load(e->pctx, p->path, p->have_slab ? p->slab.ptr : NULL,
                                     p->have_slab ? p->slab.size : 0, &p->w, p->err,
                                     sizeof p->err);
        if (st != CZK_OK)
            return st;
        p->w_owned = true;
    } else {
        p->w = p->user_w;
    }
    p->load_ms = stage_ms(e, &t);
    return eng_job_cancelled(j) ? CZK_CANCELLED : CZK_OK;
}

void *eng_synth_main(void *arg)
{
    struct eng_worker *w = arg;
    struct czk_engine *e = w->e;
    struct eng_part *p;
    while ((p = synth_pop(e))) {
        mark_started(e, p);
        tl_event(e, p, w->id, CZK_ENGINE_STAGE_SYNTH, true, p->t_popped);
        enum czk_status st = synthesize(e, p);
        double t_end = eng_now_ms(e);
        czk_log(CZK_LOG_INFO, "engine",
                "SYNTH_TIMING worker=s%u job=%llu partition_idx=%u pipeline_id=%llu "
                "queue_wait_ms=%.3f reserve_ms=%.3f load_ms=%.3f bytes=%llu total_ms=%.3f "
                "status=%s",
                w->id, (unsigned long long)p->job->id, p->idx,
                (unsigned long long)p->pipeline_id, p->t_popped - p->t_queued, p->reserve_ms,
                p->load_ms, (unsigned long long)p->host_reserved, t_end - p->t_popped,
                czk_status_str(st));
        tl_event(e, p, w->id, CZK_ENGINE_STAGE_SYNTH, false, t_end);
        if (st != CZK_OK) {
            eng_part_retire(e, p, st, st != CZK_CANCELLED);
            continue;
        }
        p->t_ready = t_end;
        eng_part_set_state(e, p, CZK_PART_STATE_READY);
        eng_ring_push(&e->ready, p);
    }
    return NULL;
}

/* ---- device workers ------------------------------------------------------------------------ */

static void on_stage(void *user, const char *stage, double ms)
{
    struct eng_part *p = user;
    if (!strcmp(stage, "synth"))
        p->eval_ms += ms;
    else if (!strncmp(stage, "ntt", 3) || !strcmp(stage, "quotient"))
        p->ntt_ms += ms;
    else if (!strncmp(stage, "msm", 3))
        *(p->state == CZK_PART_STATE_PROVING ? &p->msm_ms : &p->fin_msm_ms) += ms;
}

/* GPU devices: the key hot on the device and the partition's device memory. */
static enum czk_status device_reserve(struct czk_engine *e, struct eng_part *p, int dev)
{
    struct eng_job *j = p->job;
    struct eng_device *d = &e->devs[dev];
    czk_prover_key_t key;
    enum czk_status st;
    p->dev = dev;
    if (!d->gpu)
        return CZK_OK;
    if ((st = czk_srs_acquire(e->srs, j->circuit, d->budget, &key, p->err, sizeof p->err)) !=
        CZK_OK)
        return st;
    p->dev_key_held = true;
    if ((st = czk_budget_reserve(d->budget, j->need_dev, &j->cancel, -1)) != CZK_OK) {
        snprintf(p->err, sizeof p->err, "%s memory reservation of %llu bytes: %s", d->name,
                 (unsigned long long)j->need_dev, czk_status_str(st));
        return st;
    }
    p->dev_reserved = j->need_dev;
    return CZK_OK;
}

/* One of w's backends for p, waiting until a partition it started has been retired. */
static void backend_take(struct eng_worker *w, struct eng_part *p)
{
    eng_sem_wait(&w->bes_free);
    for (unsigned i = 0;; i = (i + 1) % ENG_WORKER_BACKENDS) {
        bool no = false;
        if (atomic_compare_exchange_strong(&w->bes[i].busy, &no, true)) {
            p->be_owner = w;
            p->beh = &w->bes[i];
            return;
        }
    }
}

static enum czk_status device_prove(struct czk_engine *e, struct eng_worker *w,
                                    struct eng_part *p)
{
    struct eng_job *j = p->job;
    struct eng_device *d = &e->devs[w->dev];
    backend_take(w, p);
    enum czk_status st = device_reserve(e, p, w->dev);
    if (st != CZK_OK)
        return st;
    eng_sem_wait(&d->token);
    /* started: the synthesis workers may pop the next partition for this device */
    eng_sem_post(&e->credits);
    p->credit = false;
    if (eng_job_cancelled(j)) {
        eng_sem_post(&d->token);
        return CZK_CANCELLED;
    }
    eng_part_set_state(e, p, CZK_PART_STATE_PROVING);
    struct czk_prove_opts o;
    memset(&o, 0, sizeof o);
    o.flags = j->prove_flags;
    o.on_stage = on_stage;
    o.user = p;
    o.cancel = &j->cancel;
    p->worker_id = w->id;
    p->t_start0 = eng_now_ms(e);
    tl_event(e, p, w->id, CZK_ENGINE_STAGE_START, true, p->t_start0);
    st = e->prover->start(e->pctx, &p->pjob, p->key, p->beh->be, p->w, &o, p->err, sizeof p->err);
    p->t_start1 = eng_now_ms(e);
    eng_sem_post(&d->token);
    tl_event(e, p, w->id, CZK_ENGINE_STAGE_START, false, p->t_start1);
    if (st != CZK_OK)
        p->pjob = NULL;
    czk_log(CZK_LOG_INFO, "engine",
            "GPU_TIMING worker_id=g%u gpu=%s job=%llu partition_idx=%u pipeline_id=%llu "
            "queue_wait_ms=%.3f h2d_ms=0.000 eval_ms=%.3f ntt_ms=%.3f msm_ms=%.3f "
            "total_ms=%.3f status=%s",
            w->id, d->name, (unsigned long long)j->id, p->idx,
            (unsigned long long)p->pipeline_id, p->t_popped - p->t_queued, p->eval_ms,
            p->ntt_ms, p->msm_ms, p->t_start1 - p->t_start0, czk_status_str(st));
    return st;
}

void *eng_device_main(void *arg)
{
    struct eng_worker *w = arg;
    struct czk_engine *e = w->e;
    struct eng_part *p;
    while ((p = eng_ring_pop(&e->ready))) {
        enum czk_status st = device_prove(e, w, p);
        if (st != CZK_OK) {
            eng_part_retire(e, p, st, true);
            continue;
        }
        eng_part_set_state(e, p, CZK_PART_STATE_FINISHING);
        eng_ring_push(&e->fin, p);
    }
    return NULL;
}

/* ---- finalizers ----------------------------------------------------------------------------- */

void *eng_fin_main(void *arg)
{
    struct eng_worker *w = arg;
    struct czk_engine *e = w->e;
    struct eng_part *p;
    while ((p = eng_ring_pop(&e->fin))) {
        struct eng_job *j = p->job;
        czk_job_id id = j->id;
        uint32_t idx = p->idx;
        uint64_t pipe = p->pipeline_id;
        double t0 = eng_now_ms(e), wait = t0 - p->t_start1;
        p->t_fin0 = t0;
        tl_event(e, p, w->id, CZK_ENGINE_STAGE_FINISH, true, t0);
        enum czk_status st = CZK_CANCELLED;
        struct czk_engine_part_result *r = &j->results[idx];
        if (!eng_job_cancelled(j)) {
            st = e->prover->finish(e->pctx, p->pjob, &r->proof, &r->pub, p->err,
                                   sizeof p->err);
            p->pjob = NULL; /* consumed whatever the outcome */
        }
        double t1 = eng_now_ms(e);
        r->finish_ms = t1 - t0;
        tl_event(e, p, w->id, CZK_ENGINE_STAGE_FINISH, false, t1);
        eng_part_retire(e, p, st, false); /* p and j may be gone after this */
        double trim = czk_mem_trim();
        czk_log(CZK_LOG_INFO, "engine",
                "FIN_TIMING worker_id=f%u job=%llu partition_idx=%u pipeline_id=%llu "
                "wait_ms=%.3f finish_ms=%.3f trim_ms=%.3f status=%s",
                w->id, (unsigned long long)id, idx, (unsigned long long)pipe, wait, t1 - t0,
                trim, czk_status_str(st));
    }
    return NULL;
}
