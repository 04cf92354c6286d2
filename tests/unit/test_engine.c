/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The proving engine (include/czk/engine.h) on the CPU device:
 *  - real proofs of the committed BN254 and BLS12-381 vectors through the default prover,
 *    verified with the keys' verification keys, results in partition order;
 *  - with a fake prover (the engine's pluggable vtable): priority order under load and
 *    FIFO within a level; cancel in every state (queued, synthesis, start, finish, done);
 *    reservations, slabs and in-flight jobs released on every failure path (a fault
 *    injected at admission, witness load, start and finish); the host budget never
 *    exceeded with many concurrent jobs (sampled); one engine-mutex acquisition per
 *    partition in the hot loop (counted); a full queue answers CZK_ERR_BUSY; bad specs;
 *  - czk_engine_partition_need against the measured heap peak of real proofs.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#include "czk/engine.h"
#include "engine/srs.h"
#include "groth16/gencircuit.h"
#include "groth16/setup_dev.h"
#include "mem/mem.h"

#define VEC(curve, c, f) CZK_VECTORS_DIR "/groth16/" curve "/" c "/" f

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* ---- fixture: budget + SRS manager with the two vector circuits --------------------------- */

struct fix {
    czk_budget_t budget;
    czk_srs_mgr_t srs;
    czk_engine_t e;
};

static void fix_open(struct fix *f, uint64_t budget)
{
    char err[256];
    memset(f, 0, sizeof *f);
    assert_int_equal(czk_budget_new(&f->budget, "host", budget), CZK_OK);
    struct czk_srs_opts so = {0};
    so.host_budget = f->budget;
    so.threads = 2;
    so.wait_ms = 5000;
    assert_int_equal(czk_srs_mgr_new(&f->srs, &so), CZK_OK);
    assert_int_equal(czk_srs_register(f->srs, "mul", VEC("bn254", "mulchain", "circuit.zkey"), err,
                                      sizeof err),
                     CZK_OK);
    assert_int_equal(czk_srs_register(f->srs, "cubic", VEC("bls12_381", "cubic", "circuit.zkey"),
                                      err, sizeof err),
                     CZK_OK);
}

static void fix_engine(struct fix *f, struct czk_engine_config *c)
{
    char err[256] = "";
    c->srs = f->srs;
    c->host_budget = f->budget;
    c->devices = "cpu";
    if (!c->backend_threads)
        c->backend_threads = 2;
    enum czk_status st = czk_engine_new(&f->e, c, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "engine: %s\n", err);
    assert_int_equal(st, CZK_OK);
}

/* Everything released: nothing reserved, every slab back. */
static void assert_idle(struct fix *f)
{
    struct czk_engine_stats st;
    czk_engine_get_stats(f->e, &st);
    struct czk_budget_stats bs;
    czk_budget_get_stats(f->budget, &bs);
    struct czk_srs_info si;
    assert_int_equal(czk_srs_info(f->srs, "mul", &si), CZK_OK);
    uint64_t keys = si.tier ? si.host_bytes : 0;
    assert_int_equal(czk_srs_info(f->srs, "cubic", &si), CZK_OK);
    keys += si.tier ? si.host_bytes : 0;
    /* only the warm keys and the pool (slabs of at most 64 KiB here) stay reserved */
    assert_true(bs.reserved <= keys + (uint64_t)st.pool_slabs * (1u << 16));
    assert_int_equal(st.pool_free, st.pool_slabs);
    for (int s = CZK_PART_STATE_QUEUED; s <= CZK_PART_STATE_FINISHING; s++)
        assert_int_equal(st.parts[s], 0);
}

static void fix_close(struct fix *f)
{
    czk_engine_free(f->e);
    czk_srs_mgr_free(f->srs);
    struct czk_budget_stats bs;
    czk_budget_get_stats(f->budget, &bs);
    assert_int_equal(bs.reserved, 0);
    czk_budget_free(f->budget);
}

static czk_job_id submit_paths(struct fix *f, const char *circuit, enum czk_priority prio,
                               const char *path, size_t n)
{
    const char **paths = calloc(n, sizeof *paths);
    for (size_t i = 0; i < n; i++)
        paths[i] = path;
    struct czk_engine_job_spec s = {0};
    s.circuit = circuit;
    s.priority = prio;
    s.n_partitions = n;
    s.witness_paths = paths;
    czk_job_id id = 0;
    char err[256] = "";
    enum czk_status st = czk_engine_submit(f->e, &s, &id, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "submit: %s\n", err);
    assert_int_equal(st, CZK_OK);
    free(paths);
    return id;
}

static enum czk_job_state wait_job(struct fix *f, czk_job_id id)
{
    enum czk_job_state s;
    assert_int_equal(czk_engine_job_wait(f->e, id, 60000, &s), CZK_OK);
    return s;
}

/* ---- real proofs ---------------------------------------------------------------------------- */

static void verify_job(struct fix *f, czk_job_id id, const char *circuit, size_t n)
{
    const struct czk_engine_part_result *r;
    size_t got;
    char err[256];
    assert_int_equal(czk_engine_job_result(f->e, id, &r, &got), CZK_OK);
    assert_int_equal(got, n);
    czk_prover_key_t key;
    struct czk_groth16_vkey vk;
    assert_int_equal(czk_srs_acquire(f->srs, circuit, NULL, &key, err, sizeof err), CZK_OK);
    assert_int_equal(czk_prover_key_vkey(key, &vk, err, sizeof err), CZK_OK);
    czk_srs_release(f->srs, circuit);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r[i].status, CZK_OK);
        assert_int_equal(czk_groth16_verify(&vk, &r[i].pub, &r[i].proof, err, sizeof err),
                         CZK_OK);
        /* blinded independently: two partitions of one witness give different proofs */
        if (i > 0)
            assert_memory_not_equal(&r[i].proof, &r[0].proof, sizeof r[0].proof);
    }
    czk_groth16_vkey_free(&vk);
}

static void test_real_proofs(void **state)
{
    (void)state;
    struct fix f;
    fix_open(&f, 1ull << 32);
    struct czk_engine_config c = {0};
    c.n_slabs = 2;
    c.slab_bytes = 1u << 16;
    fix_engine(&f, &c);
    czk_job_id a = submit_paths(&f, "mul", CZK_PRIORITY_NORMAL,
                                VEC("bn254", "mulchain", "witness.wtns"), 3);
    czk_job_id b = submit_paths(&f, "cubic", CZK_PRIORITY_HIGH,
                                VEC("bls12_381", "cubic", "witness.wtns"), 2);
    assert_int_equal(wait_job(&f, a), CZK_JOB_STATE_DONE);
    assert_int_equal(wait_job(&f, b), CZK_JOB_STATE_DONE);
    verify_job(&f, a, "mul", 3);
    verify_job(&f, b, "cubic", 2);
    /* a mismatched witness (BLS12-381 for a BN254 key) fails its job with a message */
    czk_job_id bad = submit_paths(&f, "mul", CZK_PRIORITY_LOW,
                                  VEC("bls12_381", "cubic", "witness.wtns"), 2);
    assert_int_equal(wait_job(&f, bad), CZK_JOB_STATE_FAILED);
    struct czk_engine_job_info info;
    assert_int_equal(czk_engine_job_status(f.e, bad, &info), CZK_OK);
    assert_int_not_equal(info.status, CZK_OK);
    assert_true(strstr(info.error, "partition") != NULL);
    assert_idle(&f);
    struct czk_engine_stats st;
    czk_engine_get_stats(f.e, &st);
    assert_int_equal(st.jobs_done, 2);
    assert_int_equal(st.jobs_failed, 1);
    assert_int_equal(czk_engine_job_release(f.e, a), CZK_OK);
    assert_int_equal(czk_engine_job_status(f.e, a, &info), CZK_ERR_INVALID_ARG);
    fix_close(&f);
}

/* ---- fake prover ------------------------------------------------------------------------------ */

enum { ST_NONE = 0, ST_ADMIT, ST_LOAD, ST_START, ST_FINISH };

struct fake {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    long start_us, finish_us;
    int hold;             /* stage that blocks until released */
    bool arrived, released;
    int fail;             /* stage that fails */
    uint64_t need_host;
    uint64_t order[4096]; /* witness tags in order of start */
    size_t n_order;
    atomic_int live;      /* fake prover jobs allocated and not yet freed */
    /* backends held by a job from start to finish or free (under mu) */
    czk_backend_t held[64];
    size_t n_held;
    size_t be_shared;     /* starts on a backend another job still held */
    size_t max_held;
};

/* The fake job: the backend it holds until finished or freed, as a real one does. */
struct fake_job {
    czk_backend_t be;
};

static void fake_hold(struct fake *k, czk_backend_t be)
{
    pthread_mutex_lock(&k->mu);
    for (size_t i = 0; i < k->n_held; i++)
        if (k->held[i] == be)
            k->be_shared++;
    if (k->n_held < 64)
        k->held[k->n_held++] = be;
    if (k->n_held > k->max_held)
        k->max_held = k->n_held;
    pthread_mutex_unlock(&k->mu);
}

static void fake_unhold(struct fake *k, struct fake_job *j)
{
    pthread_mutex_lock(&k->mu);
    for (size_t i = 0; i < k->n_held; i++)
        if (k->held[i] == j->be) {
            k->held[i] = k->held[--k->n_held];
            break;
        }
    pthread_mutex_unlock(&k->mu);
    free(j);
}

static void fake_init(struct fake *k)
{
    memset(k, 0, sizeof *k);
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    k->need_host = 1000;
}

static void fake_gate(struct fake *k, int stage)
{
    pthread_mutex_lock(&k->mu);
    if (k->hold == stage) {
        k->arrived = true;
        pthread_cond_broadcast(&k->cv);
        while (!k->released)
            pthread_cond_wait(&k->cv, &k->mu);
    }
    pthread_mutex_unlock(&k->mu);
}

static void fake_wait_arrived(struct fake *k)
{
    pthread_mutex_lock(&k->mu);
    while (!k->arrived)
        pthread_cond_wait(&k->cv, &k->mu);
    pthread_mutex_unlock(&k->mu);
}

static void fake_release(struct fake *k)
{
    pthread_mutex_lock(&k->mu);
    k->released = true;
    pthread_cond_broadcast(&k->cv);
    pthread_mutex_unlock(&k->mu);
}

static enum czk_status fake_fail(struct fake *k, int stage, char *err, size_t errlen)
{
    if (k->fail != stage)
        return CZK_OK;
    return czk_errf(CZK_ERR_DEVICE, err, errlen, "injected fault at stage %d", stage);
}

static uint64_t TAG_ONE[2][4] = {{1, 0, 0, 0}, {7, 0, 0, 0}};

static enum czk_status fake_load(void *ctx, const char *path, void *dst, size_t cap,
                                 czk_witness_t *w, char *err, size_t errlen)
{
    struct fake *k = ctx;
    (void)path;
    fake_gate(k, ST_LOAD);
    enum czk_status st = fake_fail(k, ST_LOAD, err, errlen);
    if (st != CZK_OK)
        return st;
    const uint64_t(*v)[4] = (const uint64_t(*)[4])TAG_ONE;
    if (dst) {
        assert_true(cap >= sizeof TAG_ONE);
        memcpy(dst, TAG_ONE, sizeof TAG_ONE);
        v = (const uint64_t(*)[4])dst;
    }
    return czk_witness_wrap(w, CZK_GROTH16_CURVE_BN254, v, 2, err, errlen);
}

static void fake_wfree(void *ctx, czk_witness_t w)
{
    (void)ctx;
    czk_witness_free(w);
}

static enum czk_status fake_start(void *ctx, void **job, czk_prover_key_t key, czk_backend_t be,
                                  czk_witness_t w, const struct czk_prove_opts *o, char *err,
                                  size_t errlen)
{
    struct fake *k = ctx;
    (void)key;
    pthread_mutex_lock(&k->mu);
    if (k->n_order < 4096)
        k->order[k->n_order++] = czk_witness_values(w)[1][0];
    pthread_mutex_unlock(&k->mu);
    fake_gate(k, ST_START);
    if (k->start_us)
        sleep_us(k->start_us);
    if (o->cancel && __atomic_load_n(o->cancel, __ATOMIC_ACQUIRE))
        return CZK_CANCELLED;
    enum czk_status st = fake_fail(k, ST_START, err, errlen);
    if (st != CZK_OK)
        return st;
    struct fake_job *fj = malloc(sizeof *fj);
    assert_non_null(fj);
    fj->be = be;
    fake_hold(k, be);
    *job = fj;
    atomic_fetch_add(&k->live, 1);
    return CZK_OK;
}

static enum czk_status fake_finish(void *ctx, void *job, struct czk_groth16_proof *proof,
                                   struct czk_groth16_public *pub, char *err, size_t errlen)
{
    struct fake *k = ctx;
    (void)pub;
    fake_gate(k, ST_FINISH);
    if (k->finish_us) /* the G2 MSM on the job's backend */
        sleep_us(k->finish_us);
    fake_unhold(k, job);
    atomic_fetch_sub(&k->live, 1);
    enum czk_status st = fake_fail(k, ST_FINISH, err, errlen);
    if (st == CZK_OK)
        memset(proof, 0, sizeof *proof);
    return st;
}

static void fake_jfree(void *ctx, void *job)
{
    struct fake *k = ctx;
    fake_unhold(k, job);
    atomic_fetch_sub(&k->live, 1);
}

static void fake_need(void *ctx, const struct czk_prover_key_info *info, bool gpu, unsigned t,
                      uint64_t *host, uint64_t *dev)
{
    struct fake *k = ctx;
    (void)info;
    (void)gpu;
    (void)t;
    *host = k->need_host;
    *dev = 0;
}

static enum czk_status fake_admit(void *ctx, const char *circuit, const char *path, uint32_t part,
                                  char *err, size_t errlen)
{
    (void)circuit;
    (void)path;
    (void)part;
    return fake_fail(ctx, ST_ADMIT, err, errlen);
}

static const struct czk_engine_prover_i FAKE = {fake_load,  fake_wfree, fake_start, fake_finish,
                                                fake_jfree, fake_need,  fake_admit};

static void fake_engine(struct fix *f, struct fake *k, unsigned gpu_workers, unsigned synth,
                        unsigned queue_cap)
{
    struct czk_engine_config c = {0};
    c.prover = &FAKE;
    c.prover_ctx = k;
    c.gpu_workers_per_device = gpu_workers;
    c.synth_workers = synth;
    c.queue_capacity = queue_cap;
    fix_engine(f, &c);
}

/* In-memory witnesses tagged tag0, tag0 + 1, ... (w[1] = tag). */
struct tagged {
    uint64_t v[64][2][4];
    czk_witness_t w[64];
    size_t n;
};

static void tagged_make(struct tagged *t, uint64_t tag0, size_t n)
{
    char err[128];
    assert_true(n <= 64);
    t->n = n;
    for (size_t i = 0; i < n; i++) {
        memset(t->v[i], 0, sizeof t->v[i]);
        t->v[i][0][0] = 1;
        t->v[i][1][0] = tag0 + i;
        assert_int_equal(czk_witness_wrap(&t->w[i], CZK_GROTH16_CURVE_BN254,
                                          (const uint64_t(*)[4])t->v[i], 2, err, sizeof err),
                         CZK_OK);
    }
}

static void tagged_free(struct tagged *t)
{
    for (size_t i = 0; i < t->n; i++)
        czk_witness_free(t->w[i]);
}

static czk_job_id submit_mem(struct fix *f, enum czk_priority prio, const struct tagged *t)
{
    struct czk_engine_job_spec s = {0};
    s.circuit = "mul";
    s.priority = prio;
    s.n_partitions = t->n;
    s.witnesses = t->w;
    czk_job_id id = 0;
    char err[256] = "";
    enum czk_status st = czk_engine_submit(f->e, &s, &id, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "submit: %s\n", err);
    assert_int_equal(st, CZK_OK);
    return id;
}

static size_t n_started(struct fake *k)
{
    pthread_mutex_lock(&k->mu);
    size_t n = k->n_order;
    pthread_mutex_unlock(&k->mu);
    return n;
}

static size_t pos_of(struct fake *k, uint64_t tag)
{
    size_t pos = SIZE_MAX;
    pthread_mutex_lock(&k->mu);
    for (size_t i = 0; i < k->n_order && pos == SIZE_MAX; i++)
        if (k->order[i] == tag)
            pos = i;
    pthread_mutex_unlock(&k->mu);
    if (pos == SIZE_MAX)
        fail_msg("tag %llu never started", (unsigned long long)tag);
    return pos;
}

/* ---- scheduling ------------------------------------------------------------------------------ */

static void test_priority_order(void **state)
{
    (void)state;
    struct fix f;
    struct fake k;
    fake_init(&k);
    k.start_us = 3000;
    fix_open(&f, 1ull << 32);
    fake_engine(&f, &k, 1, 1, 0);
    struct tagged low, n1, n2, crit;
    tagged_make(&low, 1000, 40);
    tagged_make(&n1, 2000, 3);
    tagged_make(&n2, 3000, 3);
    tagged_make(&crit, 9000, 2);
    czk_job_id jl = submit_mem(&f, CZK_PRIORITY_LOW, &low);
    while (n_started(&k) == 0)
        sleep_us(200); /* the LOW job is running */
    czk_job_id ja = submit_mem(&f, CZK_PRIORITY_NORMAL, &n1);
    czk_job_id jb = submit_mem(&f, CZK_PRIORITY_NORMAL, &n2);
    czk_job_id jc = submit_mem(&f, CZK_PRIORITY_CRITICAL, &crit);
    size_t low_started = n_started(&k);
    assert_int_equal(wait_job(&f, jc), CZK_JOB_STATE_DONE);
    assert_int_equal(wait_job(&f, ja), CZK_JOB_STATE_DONE);
    assert_int_equal(wait_job(&f, jb), CZK_JOB_STATE_DONE);
    assert_int_equal(wait_job(&f, jl), CZK_JOB_STATE_DONE);
    /* CRITICAL overtakes the queued ones: at most the partitions already popped (one
     * running + lookahead 1 + one in hand-off) start between its submit and its start */
    assert_true(pos_of(&k, 9000) <= low_started + 2);
    assert_int_equal(pos_of(&k, 9001), pos_of(&k, 9000) + 1);
    /* NORMAL before the remaining LOW, FIFO within NORMAL and within LOW */
    assert_true(pos_of(&k, 2000) < pos_of(&k, 3000));
    assert_true(pos_of(&k, 3002) < pos_of(&k, 1039));
    for (uint64_t i = 1; i < 40; i++)
        assert_true(pos_of(&k, 1000 + i - 1) < pos_of(&k, 1000 + i));
    for (uint64_t i = 1; i < 3; i++) {
        assert_true(pos_of(&k, 2000 + i - 1) < pos_of(&k, 2000 + i));
        assert_true(pos_of(&k, 3000 + i - 1) < pos_of(&k, 3000 + i));
    }
    struct czk_engine_stats st;
    czk_engine_get_stats(f.e, &st);
    assert_int_equal(st.partitions_popped, 48);
    /* the hot loop: one engine-mutex acquisition per partition */
    assert_int_equal(st.lock_acquisitions[CZK_ENGINE_LOCK_POP], st.partitions_popped);
    assert_true(st.hot_lock_per_partition <= 1.0);
    assert_idle(&f);
    fix_close(&f);
    tagged_free(&low);
    tagged_free(&n1);
    tagged_free(&n2);
    tagged_free(&crit);
    assert_int_equal(atomic_load(&k.live), 0);
}

/* Cancel while a partition sits in `stage` (and a second job waits queued behind it). */
static void cancel_at(int stage)
{
    struct fix f;
    struct fake k;
    fake_init(&k);
    k.hold = stage;
    fix_open(&f, 1ull << 32);
    struct czk_engine_config c = {0};
    c.prover = &FAKE;
    c.prover_ctx = &k;
    c.gpu_workers_per_device = 1;
    c.synth_workers = 1;
    c.n_slabs = 2;
    c.slab_bytes = 4096;
    fix_engine(&f, &c);
    czk_job_id a = submit_paths(&f, "mul", CZK_PRIORITY_NORMAL, "unused.wtns", 3);
    fake_wait_arrived(&k);
    struct tagged q;
    tagged_make(&q, 100, 4);
    czk_job_id b = submit_mem(&f, CZK_PRIORITY_LOW, &q); /* queued behind a */
    assert_int_equal(czk_engine_job_cancel(f.e, b), CZK_OK); /* cancelled while queued */
    assert_int_equal(wait_job(&f, b), CZK_JOB_STATE_CANCELLED);
    assert_int_equal(czk_engine_job_cancel(f.e, a), CZK_OK);
    fake_release(&k);
    assert_int_equal(wait_job(&f, a), CZK_JOB_STATE_CANCELLED);
    struct czk_engine_job_info info;
    assert_int_equal(czk_engine_job_status(f.e, a, &info), CZK_OK);
    assert_int_equal(info.n_done + info.n_cancelled + info.n_failed, 3);
    assert_true(info.n_cancelled >= 2);
    assert_int_equal(czk_engine_job_status(f.e, b, &info), CZK_OK);
    assert_int_equal(info.n_cancelled, 4);
    assert_true(info.first_start_ms < 0); /* never started */
    assert_idle(&f);
    assert_int_equal(atomic_load(&k.live), 0);
    fix_close(&f);
    tagged_free(&q);
}

static void test_cancel_states(void **state)
{
    (void)state;
    cancel_at(ST_LOAD);
    cancel_at(ST_START);
    cancel_at(ST_FINISH);
    /* done: cancel has no effect */
    struct fix f;
    struct fake k;
    fake_init(&k);
    fix_open(&f, 1ull << 32);
    fake_engine(&f, &k, 2, 2, 0);
    struct tagged t;
    tagged_make(&t, 1, 3);
    czk_job_id a = submit_mem(&f, CZK_PRIORITY_HIGH, &t);
    assert_int_equal(wait_job(&f, a), CZK_JOB_STATE_DONE);
    assert_int_equal(czk_engine_job_cancel(f.e, a), CZK_OK);
    struct czk_engine_job_info info;
    assert_int_equal(czk_engine_job_status(f.e, a, &info), CZK_OK);
    assert_int_equal(info.state, CZK_JOB_STATE_DONE);
    assert_int_equal(info.n_done, 3);
    assert_int_equal(czk_engine_job_cancel(f.e, 12345), CZK_ERR_INVALID_ARG);
    fix_close(&f);
    tagged_free(&t);
}

/* A fault at each stage fails the job, names the partition and releases everything. */
static void test_faults_release(void **state)
{
    (void)state;
    static const int stages[] = {ST_ADMIT, ST_LOAD, ST_START, ST_FINISH};
    for (size_t s = 0; s < 4; s++) {
        struct fix f;
        struct fake k;
        fake_init(&k);
        k.fail = stages[s];
        fix_open(&f, 1ull << 32);
        struct czk_engine_config c = {0};
        c.prover = &FAKE;
        c.prover_ctx = &k;
        c.n_slabs = 3;
        c.slab_bytes = 4096;
        fix_engine(&f, &c);
        czk_job_id a = submit_paths(&f, "mul", CZK_PRIORITY_NORMAL, "unused.wtns", 5);
        assert_int_equal(wait_job(&f, a), CZK_JOB_STATE_FAILED);
        struct czk_engine_job_info info;
        assert_int_equal(czk_engine_job_status(f.e, a, &info), CZK_OK);
        assert_int_equal(info.status, CZK_ERR_DEVICE);
        assert_non_null(strstr(info.error, "injected fault"));
        assert_non_null(strstr(info.error, "partition"));
        assert_true(info.n_failed >= 1);
        assert_int_equal(info.n_failed + info.n_cancelled + info.n_done, 5);
        assert_idle(&f);
        assert_int_equal(atomic_load(&k.live), 0);
        fix_close(&f);
    }
}

/* czk_prove_finish runs on a finalizer with the job's backend while the device worker
 * starts the next partition: no backend may be held by two jobs at once (a CUDA context is
 * one stream and one error buffer), and finishing must still overlap the next start. */
static void test_backend_exclusive(void **state)
{
    (void)state;
    struct fix f;
    struct fake k;
    fake_init(&k);
    k.start_us = 300;
    k.finish_us = 2000; /* finish outlasts the next start */
    fix_open(&f, 1ull << 32);
    struct czk_engine_config c = {0};
    c.prover = &FAKE;
    c.prover_ctx = &k;
    c.gpu_workers_per_device = 2;
    c.synth_workers = 2;
    c.finalizer_workers = 3;
    fix_engine(&f, &c);
    struct tagged t[3];
    czk_job_id ids[3];
    for (int i = 0; i < 3; i++) {
        tagged_make(&t[i], (uint64_t)i * 100 + 1, 10);
        ids[i] = submit_mem(&f, CZK_PRIORITY_NORMAL, &t[i]);
    }
    for (int i = 0; i < 3; i++)
        assert_int_equal(wait_job(&f, ids[i]), CZK_JOB_STATE_DONE);
    print_message("backends: %zu held at most, %zu shared starts\n", k.max_held, k.be_shared);
    assert_int_equal(k.be_shared, 0);
    assert_int_equal(k.n_held, 0);
    /* the pipeline still overlaps: more jobs in flight than device workers */
    assert_true(k.max_held > 2);
    assert_idle(&f);
    fix_close(&f);
    for (int i = 0; i < 3; i++)
        tagged_free(&t[i]);
    assert_int_equal(atomic_load(&k.live), 0);
}

/* Many concurrent jobs under a budget of 3 partitions: reserved never above the limit. */
struct sampler {
    czk_budget_t b;
    atomic_bool stop;
    uint64_t max;
    size_t n;
};

static void *sample_main(void *arg)
{
    struct sampler *s = arg;
    while (!atomic_load(&s->stop)) {
        struct czk_budget_stats bs;
        czk_budget_get_stats(s->b, &bs);
        if (bs.reserved > s->max)
            s->max = bs.reserved;
        s->n++;
        sleep_us(50);
    }
    return NULL;
}

static void test_budget_bound(void **state)
{
    (void)state;
    struct fix f;
    struct fake k;
    fake_init(&k);
    k.start_us = 500;
    /* the budget holds the two keys (loaded on first use) and three partitions */
    fix_open(&f, 1ull << 32);
    struct czk_srs_info si;
    char err[256];
    assert_int_equal(czk_srs_preload(f.srs, "mul", err, sizeof err), CZK_OK);
    assert_int_equal(czk_srs_info(f.srs, "mul", &si), CZK_OK);
    czk_srs_mgr_free(f.srs);
    czk_budget_free(f.budget);
    uint64_t limit = si.host_bytes + 3 * k.need_host;
    fix_open(&f, limit);
    struct czk_engine_config c = {0};
    c.prover = &FAKE;
    c.prover_ctx = &k;
    c.synth_workers = 4;
    c.lookahead = 8; /* more partitions popped than the budget holds: reservations wait */
    fix_engine(&f, &c);
    struct sampler sm = {f.budget, false, 0, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, sample_main, &sm), 0);
    struct tagged t[12];
    czk_job_id ids[12];
    for (int i = 0; i < 12; i++) {
        tagged_make(&t[i], (uint64_t)i * 100 + 1, 6);
        ids[i] = submit_mem(&f, (enum czk_priority)(i % 4), &t[i]);
    }
    for (int i = 0; i < 12; i++)
        assert_int_equal(wait_job(&f, ids[i]), CZK_JOB_STATE_DONE);
    atomic_store(&sm.stop, true);
    pthread_join(th, NULL);
    struct czk_engine_stats st;
    czk_engine_get_stats(f.e, &st);
    print_message("budget: limit %llu, max sampled %llu, peak %llu, %zu samples, %llu waits\n",
                  (unsigned long long)limit, (unsigned long long)sm.max,
                  (unsigned long long)st.host.peak, sm.n, (unsigned long long)st.host.n_waits);
    assert_true(sm.n > 0);
    assert_true(sm.max <= limit);
    assert_true(st.host.peak <= limit);
    assert_true(st.host.n_waits > 0); /* the budget, not luck, bounded the concurrency */
    assert_int_equal(st.lock_acquisitions[CZK_ENGINE_LOCK_POP], st.partitions_popped);
    assert_idle(&f);
    fix_close(&f);
    for (int i = 0; i < 12; i++)
        tagged_free(&t[i]);
}

static void test_busy_and_bad_specs(void **state)
{
    (void)state;
    struct fix f;
    struct fake k;
    fake_init(&k);
    k.hold = ST_START;
    fix_open(&f, 1ull << 32);
    fake_engine(&f, &k, 1, 1, 4);
    struct tagged a, b, c;
    tagged_make(&a, 1, 1);
    tagged_make(&b, 10, 4);
    tagged_make(&c, 20, 2);
    czk_job_id ja = submit_mem(&f, CZK_PRIORITY_NORMAL, &a);
    fake_wait_arrived(&k);
    czk_job_id jb = submit_mem(&f, CZK_PRIORITY_NORMAL, &b); /* fills the queue of 4 */
    char err[256] = "";
    struct czk_engine_job_spec s = {0};
    czk_job_id id;
    s.circuit = "mul";
    s.n_partitions = c.n;
    s.witnesses = c.w;
    assert_int_equal(czk_engine_submit(f.e, &s, &id, err, sizeof err), CZK_ERR_BUSY);
    assert_non_null(strstr(err, "queue full"));
    s.circuit = "nope";
    assert_int_equal(czk_engine_submit(f.e, &s, &id, err, sizeof err), CZK_ERR_INVALID_ARG);
    s.circuit = "mul";
    s.n_partitions = 0;
    assert_int_equal(czk_engine_submit(f.e, &s, &id, err, sizeof err), CZK_ERR_INVALID_ARG);
    s.n_partitions = 1;
    const char *path = "x.wtns";
    s.witness_paths = &path; /* both paths and witnesses */
    assert_int_equal(czk_engine_submit(f.e, &s, &id, err, sizeof err), CZK_ERR_INVALID_ARG);
    s.witness_paths = NULL;
    s.priority = (enum czk_priority)9;
    assert_int_equal(czk_engine_submit(f.e, &s, &id, err, sizeof err), CZK_ERR_INVALID_ARG);
    /* a partition larger than the whole budget can never run */
    k.need_host = 1ull << 40;
    s.priority = CZK_PRIORITY_LOW;
    assert_int_equal(czk_engine_submit(f.e, &s, &id, err, sizeof err), CZK_ERR_BUDGET);
    k.need_host = 1000;
    struct czk_engine_stats st;
    czk_engine_get_stats(f.e, &st);
    assert_int_equal(st.jobs_rejected_busy, 1);
    fake_release(&k);
    assert_int_equal(wait_job(&f, ja), CZK_JOB_STATE_DONE);
    assert_int_equal(wait_job(&f, jb), CZK_JOB_STATE_DONE);
    fix_close(&f);
    tagged_free(&a);
    tagged_free(&b);
    tagged_free(&c);
}

/* The timeline holds a begin and an end per stage and partition. */
static void test_timeline(void **state)
{
    (void)state;
    struct fix f;
    struct fake k;
    fake_init(&k);
    fix_open(&f, 1ull << 32);
    fake_engine(&f, &k, 2, 2, 0);
    struct tagged t;
    tagged_make(&t, 1, 5);
    czk_job_id a = submit_mem(&f, CZK_PRIORITY_NORMAL, &t);
    assert_int_equal(wait_job(&f, a), CZK_JOB_STATE_DONE);
    struct czk_engine_event ev[64];
    size_t n;
    uint64_t next;
    assert_int_equal(czk_engine_timeline_read(f.e, 0, ev, 64, &n, &next), CZK_OK);
    assert_int_equal(n, 5 * 3 * 2);
    assert_int_equal(next, n);
    unsigned begins[3] = {0}, ends[3] = {0};
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ev[i].job, a);
        assert_true(ev[i].stage <= CZK_ENGINE_STAGE_FINISH);
        (ev[i].begin ? begins : ends)[ev[i].stage]++;
        if (i)
            assert_true(ev[i].seq == ev[i - 1].seq + 1);
    }
    for (int s = 0; s < 3; s++) {
        assert_int_equal(begins[s], 5);
        assert_int_equal(ends[s], 5);
    }
    fix_close(&f);
    tagged_free(&t);
}

/* ---- the memory-need formula against a real proof ------------------------------------------ */

struct heap_sampler {
    atomic_bool stop;
    size_t peak;
};

static size_t heap_now(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

static void *heap_main(void *arg)
{
    struct heap_sampler *h = arg;
    while (!atomic_load(&h->stop)) {
        size_t n = heap_now();
        if (n > h->peak)
            h->peak = n;
        sleep_us(20);
    }
    return NULL;
}

/* czk_engine_partition_need (CPU) >= the heap growth of one proof of a 2^12 circuit, on
 * both curves (sampled every 20 us, so the measured peak is a lower bound). */
static void test_need_bound(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    skip(); /* the sanitizers' allocators do not report to mallinfo2 */
#endif
    static const enum czk_groth16_curve curves[] = {CZK_GROTH16_CURVE_BN254,
                                                    CZK_GROTH16_CURVE_BLS12_381};
    char err[256] = "", path[] = "/tmp/czk-test-engine-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int c = 0; c < 2; c++) {
        struct czk_gen_params gp = {curves[c], CZK_GEN_SHAPE_MUL, (1u << 12) - 3, 0, 5, 2, 0};
        struct czk_gen_circuit g;
        assert_int_equal(czk_gen_circuit(&g, &gp, err, sizeof err), CZK_OK);
        struct czk_setup_toxic t;
        uint8_t seed[32] = {9};
        assert_int_equal(czk_setup_toxic_derive(&t, curves[c], seed, 12), CZK_OK);
        assert_int_equal(czk_setup_dev(&g.r1cs, &t, path, 2, err, sizeof err), CZK_OK);
        czk_prover_key_t key;
        czk_witness_t w;
        czk_backend_t be;
        assert_int_equal(czk_prover_key_load(&key, path, CZK_PROVER_KEY_TRUST, 2, err, sizeof err),
                         CZK_OK);
        assert_int_equal(czk_witness_wrap(&w, curves[c], (const uint64_t(*)[4])g.witness,
                                          g.r1cs.n_wires, err, sizeof err),
                         CZK_OK);
        assert_int_equal(czk_backend_init_by_name(&be, "cpu", 2, err, sizeof err), CZK_OK);
        struct czk_prover_key_info info;
        czk_prover_key_get_info(key, &info);
        uint64_t need, dev;
        czk_engine_partition_need(&info, czk_backend_get_device(be), 2, &need, &dev);
        struct czk_groth16_proof proof;
        struct czk_groth16_public pub;
        struct heap_sampler h = {false, 0};
        size_t base = heap_now();
        h.peak = base;
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, heap_main, &h), 0);
        assert_int_equal(czk_prove(key, be, w, NULL, &proof, &pub, err, sizeof err), CZK_OK);
        atomic_store(&h.stop, true);
        pthread_join(th, NULL);
        size_t grown = h.peak - base;
        print_message("%s 2^12: formula %llu bytes, measured heap peak +%zu bytes\n",
                      czk_groth16_curve_name(curves[c]), (unsigned long long)need, grown);
        assert_true(grown > 0);
        assert_true(need >= grown);
        czk_groth16_public_free(&pub);
        czk_backend_free(be);
        czk_witness_free(w);
        czk_prover_key_free(key);
        czk_gen_circuit_free(&g);
    }
    unlink(path);
}

int main(void)
{
    czk_test_seed_init("test_engine");
    czk_log_set(NULL, NULL, CZK_LOG_ERROR);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_proofs),     cmocka_unit_test(test_priority_order),
        cmocka_unit_test(test_backend_exclusive),
        cmocka_unit_test(test_cancel_states),   cmocka_unit_test(test_faults_release),
        cmocka_unit_test(test_budget_bound),    cmocka_unit_test(test_busy_and_bad_specs),
        cmocka_unit_test(test_timeline),        cmocka_unit_test(test_need_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
