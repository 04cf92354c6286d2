/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk bench engine`: three measurements of the proving engine (include/czk/engine.h).
 *
 *  (a) scheduling overhead: a fake prover whose start / finish do no work drives
 *      --partitions partitions (default 10000) in jobs of 10 through the whole pipeline
 *      (queue, host reservation, synthesis, device worker, finalizer, job tracker) on the
 *      CPU device; wall time from the first submit to the last job's end / partitions =
 *      µs per partition (target <= 50 µs), plus the engine's hot-loop mutex acquisitions
 *      per partition and the time spent waiting for that mutex.
 *  (b) priority latency: a fake prover whose start sleeps T ms (--sleep-ms, default 20),
 *      one CPU device with 2 device workers; 100 LOW single-partition jobs are queued, and
 *      once the first has started one CRITICAL job is submitted. Its latency from submit
 *      to its first pop (first_start_ms) is reported in units of T (target <= 1: it waits
 *      at most for the partitions already popped, never for the queued LOW ones), and its
 *      end-to-end latency too.
 *  (c) memory under load: real CPU proofs (the default prover) of a generated mul
 *      circuit with a 2^14 domain, 3 jobs x 4 partitions (distinct witnesses) under a host
 *      budget of --budget (default 512M); every proof is verified. Reported: the budget's
 *      peak reservation, its limit, and the process's peak RSS while the engine ran
 *      (VmHWM after a reset through /proc/self/clear_refs, when the kernel allows it) and
 *      over the whole process (getrusage ru_maxrss). RSS includes the key, the binary and
 *      the benchmark's own witnesses; the budget counts the key and the partitions.
 *
 * The keys are INSECURE dev setups (czk_setup_dev) generated in a temporary directory,
 * removed at exit. Output: a markdown table, then one logfmt line per measurement
 * ("bench: engine ..."); --json prints only the logfmt lines.
 * Exit status: 0 success; 1 a measurement failed (setup, engine error, a job not done, a
 * proof not verified, the budget's peak above its limit); 2 usage errors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/parallel.h"
#include "core/sha256.h"
#include "czk/czk_prover.h"
#include "czk/engine.h"
#include "engine/srs.h"
#include "groth16/gencircuit.h"
#include "groth16/setup_dev.h"
#include "mem/mem.h"

#define BE_JOB_PARTS 10u       /* (a): partitions per job */
#define BE_FAKE_NEED 4096u     /* (a), (b): host bytes a fake partition reserves */
#define BE_LOW_JOBS 100u       /* (b) */
#define BE_RSS_LG 14u          /* (c): domain 2^14 */
#define BE_RSS_JOBS 3u
#define BE_RSS_PARTS 4u

struct be_opts {
    unsigned partitions, sleep_ms, threads;
    unsigned workers; /* device workers per device (engine's gpu_workers_per_device) */
    uint64_t budget;
    bool json;
};

static void be_usage(FILE *f)
{
    fprintf(f,
            "usage: czk bench engine [--partitions N] [--sleep-ms T] [--budget SIZE]\n"
            "                        [--threads N] [--workers N] [--json]\n"
            "\n"
            "Measures the proving engine on the CPU device:\n"
            "  (a) scheduling overhead per partition with a no-op prover (N partitions in\n"
            "      jobs of 10; target <= 50 us), hot-loop mutex acquisitions per partition\n"
            "  (b) latency of a CRITICAL job behind 100 queued LOW jobs with a prover that\n"
            "      sleeps T ms per partition (target <= 1 partition time)\n"
            "  (c) peak reserved host budget vs its limit and the peak RSS with real proofs\n"
            "      (2^14 mul circuit, 3 jobs x 4 partitions, every proof verified)\n"
            "options:\n"
            "  --partitions N  (a) partitions, a multiple of 10 in [10, 1000000] (default 10000)\n"
            "  --sleep-ms T    (b) fake partition time in ms, 1..10000 (default 20)\n"
            "  --budget SIZE   (c) host budget, e.g. 512M (default 512M)\n"
            "  --threads N     (c) host threads of each worker's backend (default: all cores)\n"
            "  --workers N     device workers per device, all parts (default 2)\n"
            "  --json          print only the logfmt lines\n"
            "The keys are INSECURE dev setups generated in a temporary directory.\n"
            "exit status: 0 success; 1 a measurement failed; 2 usage error\n");
}

static int be_bad(const char *msg, const char *arg)
{
    fprintf(stderr, "czk bench engine: %s%s%s%s\n", msg, arg ? " '" : "", arg ? arg : "",
            arg ? "'" : "");
    fprintf(stderr, "run 'czk bench engine --help' for usage\n");
    return 2;
}

static bool be_parse_u(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || s[0] == '+' || v < lo || v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

static double be_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void be_sleep_ms(double ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - (double)(time_t)(ms / 1e3) * 1e3) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* ---- keys and witnesses ---------------------------------------------------------------- */

struct be_circuit {
    char zkey[1100];
    struct czk_gen_circuit *wit; /* n_wit generated circuits (their witnesses) */
    czk_witness_t *w;            /* wrapped witnesses */
    size_t n_wit;
};

static void be_circuit_free(struct be_circuit *c)
{
    for (size_t i = 0; i < c->n_wit; i++) {
        czk_witness_free(c->w ? c->w[i] : NULL);
        czk_gen_circuit_free(&c->wit[i]);
    }
    free(c->w);
    free(c->wit);
    c->w = NULL;
    c->wit = NULL;
    c->n_wit = 0;
}

/* A mul circuit of n_constraints on BN254, its dev key at dir/name.zkey, and n_wit
 * distinct satisfying witnesses wrapped in memory. */
static int be_circuit_make(struct be_circuit *c, const char *dir, const char *name,
                           uint32_t n_constraints, size_t n_wit, unsigned threads)
{
    char err[512] = "";
    memset(c, 0, sizeof *c);
    if ((size_t)snprintf(c->zkey, sizeof c->zkey, "%s/%s.zkey", dir, name) >= sizeof c->zkey) {
        fprintf(stderr, "czk bench engine: temporary path too long\n");
        return -1;
    }
    c->wit = calloc(n_wit, sizeof *c->wit);
    c->w = calloc(n_wit, sizeof *c->w);
    if (!c->wit || !c->w) {
        fprintf(stderr, "czk bench engine: out of memory\n");
        be_circuit_free(c);
        return -1;
    }
    for (size_t i = 0; i < n_wit; i++) {
        struct czk_gen_params p = {CZK_GROTH16_CURVE_BN254, CZK_GEN_SHAPE_MUL, n_constraints, 0,
                                   7, threads, (uint32_t)i};
        if (czk_gen_circuit(&c->wit[i], &p, err, sizeof err) != CZK_OK) {
            fprintf(stderr, "czk bench engine: generating %s: %s\n", name, err);
            be_circuit_free(c);
            return -1;
        }
        c->n_wit = i + 1;
        const struct czk_r1cs *r = &c->wit[i].r1cs;
        if (czk_witness_wrap(&c->w[i], CZK_GROTH16_CURVE_BN254,
                             (const uint64_t(*)[4])c->wit[i].witness, r->n_wires, err,
                             sizeof err) != CZK_OK) {
            fprintf(stderr, "czk bench engine: witness of %s: %s\n", name, err);
            be_circuit_free(c);
            return -1;
        }
    }
    const struct czk_r1cs *r = &c->wit[0].r1cs;
    uint8_t seed[32];
    czk_sha256(seed, name, strlen(name));
    struct czk_setup_toxic t;
    unsigned lg = czk_setup_lg_domain(r->n_constraints, r->n_pub_out + r->n_pub_in);
    enum czk_status st = czk_setup_toxic_derive(&t, CZK_GROTH16_CURVE_BN254, seed, lg);
    if (st == CZK_OK)
        st = czk_setup_dev(r, &t, c->zkey, threads, err, sizeof err);
    if (st != CZK_OK) {
        fprintf(stderr, "czk bench engine: dev setup of %s: %s\n", name, err);
        be_circuit_free(c);
        return -1;
    }
    return 0;
}

/* ---- fake provers ------------------------------------------------------------------------ */

struct be_fake {
    unsigned sleep_ms; /* start sleeps this long (0: no work) */
};

static char be_fake_job_token;

static enum czk_status be_fake_witness_load(void *ctx, const char *path, void *dst,
                                            size_t dst_cap, czk_witness_t *w, char *err,
                                            size_t errlen)
{
    (void)ctx;
    (void)dst;
    (void)dst_cap;
    (void)w;
    return czk_errf(CZK_ERR_UNSUPPORTED, err, errlen,
                    "bench: the fake prover takes in-memory witnesses only (%s)", path);
}

static void be_fake_witness_free(void *ctx, czk_witness_t w)
{
    (void)ctx;
    czk_witness_free(w);
}

static enum czk_status be_fake_start(void *ctx, void **job, czk_prover_key_t key,
                                     czk_backend_t be, czk_witness_t w,
                                     const struct czk_prove_opts *opts, char *err, size_t errlen)
{
    const struct be_fake *f = ctx;
    (void)be;
    (void)opts;
    if (!key || !w)
        return czk_errf(CZK_ERR_INTERNAL, err, errlen, "bench: fake start without key/witness");
    if (f->sleep_ms)
        be_sleep_ms(f->sleep_ms);
    *job = &be_fake_job_token;
    return CZK_OK;
}

static enum czk_status be_fake_finish(void *ctx, void *job, struct czk_groth16_proof *proof,
                                      struct czk_groth16_public *pub, char *err, size_t errlen)
{
    (void)ctx;
    if (job != &be_fake_job_token)
        return czk_errf(CZK_ERR_INTERNAL, err, errlen, "bench: fake finish of a foreign job");
    memset(proof, 0, sizeof *proof);
    memset(pub, 0, sizeof *pub);
    pub->curve = CZK_GROTH16_CURVE_BN254;
    return CZK_OK;
}

static void be_fake_job_free(void *ctx, void *job)
{
    (void)ctx;
    (void)job;
}

static void be_fake_need(void *ctx, const struct czk_prover_key_info *info, bool gpu,
                         unsigned threads, uint64_t *host_bytes, uint64_t *device_bytes)
{
    (void)ctx;
    (void)info;
    (void)gpu;
    (void)threads;
    *host_bytes = BE_FAKE_NEED;
    *device_bytes = 0;
}

static const struct czk_engine_prover_i be_fake_prover = {
    .witness_load = be_fake_witness_load,
    .witness_free = be_fake_witness_free,
    .start = be_fake_start,
    .finish = be_fake_finish,
    .job_free = be_fake_job_free,
    .need = be_fake_need,
    .admit = NULL,
};

/* ---- shared engine setup ------------------------------------------------------------------ */

struct be_env {
    czk_budget_t budget;
    czk_srs_mgr_t srs;
    czk_engine_t engine;
};

static void be_env_free(struct be_env *v)
{
    czk_engine_free(v->engine);
    czk_srs_mgr_free(v->srs);
    czk_budget_free(v->budget);
    memset(v, 0, sizeof *v);
}

static int be_env_new(struct be_env *v, uint64_t budget, const char *zkey,
                      struct czk_engine_config *cfg)
{
    char err[512] = "";
    enum czk_status st;
    memset(v, 0, sizeof *v);
    if ((st = czk_budget_new(&v->budget, "host", budget)) != CZK_OK) {
        fprintf(stderr, "czk bench engine: host budget: %s\n", czk_status_str(st));
        return -1;
    }
    struct czk_srs_opts so = {0};
    so.host_budget = v->budget;
    so.load_flags = 0;
    so.threads = cfg->backend_threads;
    if ((st = czk_srs_mgr_new(&v->srs, &so)) != CZK_OK) {
        fprintf(stderr, "czk bench engine: SRS manager: %s\n", czk_status_str(st));
        be_env_free(v);
        return -1;
    }
    if ((st = czk_srs_register(v->srs, "c", zkey, err, sizeof err)) != CZK_OK ||
        (st = czk_srs_preload(v->srs, "c", err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk bench engine: key %s: %s\n", zkey, err);
        be_env_free(v);
        return -1;
    }
    cfg->srs = v->srs;
    cfg->host_budget = v->budget;
    cfg->devices = "cpu";
    if ((st = czk_engine_new(&v->engine, cfg, err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk bench engine: engine: %s\n", err);
        be_env_free(v);
        return -1;
    }
    return 0;
}

/* Submit, retrying every ms while the queue is full. */
static enum czk_status be_submit(czk_engine_t e, const struct czk_engine_job_spec *spec,
                                 czk_job_id *id)
{
    char err[512] = "";
    for (;;) {
        enum czk_status st = czk_engine_submit(e, spec, id, err, sizeof err);
        if (st != CZK_ERR_BUSY) {
            if (st != CZK_OK)
                fprintf(stderr, "czk bench engine: submit: %s\n", err);
            return st;
        }
        be_sleep_ms(1);
    }
}

/* Wait for job id, expecting DONE; prints and returns -1 otherwise. */
static int be_wait_done(czk_engine_t e, czk_job_id id)
{
    enum czk_job_state s;
    if (czk_engine_job_wait(e, id, -1, &s) != CZK_OK || s != CZK_JOB_STATE_DONE) {
        struct czk_engine_job_info ji;
        memset(&ji, 0, sizeof ji);
        czk_engine_job_status(e, id, &ji);
        fprintf(stderr, "czk bench engine: job %" PRIu64 " ended %s: %s\n", id,
                czk_job_state_name(ji.state), ji.error);
        return -1;
    }
    return 0;
}

/* ---- (a) scheduling overhead -------------------------------------------------------------- */

struct be_sched {
    double wall_ms, us_per_part, hot_lock, lock_wait_ms;
    uint64_t pops, pop_locks, pops_empty;
};

static int be_run_sched(const struct be_opts *o, const struct be_circuit *tiny,
                        struct be_sched *r)
{
    struct be_fake fk = {0};
    struct czk_engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gpu_workers_per_device = o->workers;
    cfg.synth_workers = 2;
    cfg.finalizer_workers = 1;
    cfg.backend_threads = 1;
    cfg.queue_capacity = o->partitions > 4096 ? o->partitions : 4096;
    cfg.prover = &be_fake_prover;
    cfg.prover_ctx = &fk;
    struct be_env v;
    if (be_env_new(&v, 1ull << 30, tiny->zkey, &cfg))
        return -1;
    size_t n_jobs = o->partitions / BE_JOB_PARTS;
    czk_job_id *ids = calloc(n_jobs, sizeof *ids);
    czk_witness_t ws[BE_JOB_PARTS];
    for (size_t i = 0; i < BE_JOB_PARTS; i++)
        ws[i] = tiny->w[0]; /* borrowed, read-only, shared by every partition */
    int rc = ids ? 0 : -1;
    struct czk_engine_job_spec spec = {0};
    spec.circuit = "c";
    spec.priority = CZK_PRIORITY_NORMAL;
    spec.n_partitions = BE_JOB_PARTS;
    spec.witnesses = ws;
    double t0 = be_now_ms();
    size_t n_sub = 0;
    for (; rc == 0 && n_sub < n_jobs; n_sub++)
        if (be_submit(v.engine, &spec, &ids[n_sub]) != CZK_OK)
            rc = -1;
    for (size_t i = 0; i < n_sub; i++)
        if (be_wait_done(v.engine, ids[i]))
            rc = -1;
    double t1 = be_now_ms();
    struct czk_engine_stats st;
    czk_engine_get_stats(v.engine, &st);
    for (size_t i = 0; i < n_sub; i++)
        czk_engine_job_release(v.engine, ids[i]);
    r->wall_ms = t1 - t0;
    r->us_per_part = r->wall_ms * 1e3 / o->partitions;
    r->hot_lock = st.hot_lock_per_partition;
    r->lock_wait_ms = st.lock_wait_ms;
    r->pops = st.partitions_popped;
    r->pop_locks = st.lock_acquisitions[CZK_ENGINE_LOCK_POP];
    r->pops_empty = st.pops_empty;
    if (rc == 0 && st.parts[CZK_PART_STATE_DONE] != o->partitions) {
        fprintf(stderr, "czk bench engine: (a) %" PRIu64 " partitions done, expected %u\n",
                st.parts[CZK_PART_STATE_DONE], o->partitions);
        rc = -1;
    }
    free(ids);
    be_env_free(&v);
    return rc;
}

/* ---- (b) priority latency ----------------------------------------------------------------- */

struct be_prio {
    double pop_ms, e2e_ms, pop_ratio, e2e_ratio;
    uint64_t low_done_before; /* LOW jobs that ended before the CRITICAL one */
};

static int be_run_prio(const struct be_opts *o, const struct be_circuit *tiny, struct be_prio *r)
{
    struct be_fake fk = {o->sleep_ms};
    struct czk_engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gpu_workers_per_device = o->workers;
    cfg.synth_workers = 2;
    cfg.finalizer_workers = 1;
    cfg.backend_threads = 1;
    cfg.prover = &be_fake_prover;
    cfg.prover_ctx = &fk;
    struct be_env v;
    if (be_env_new(&v, 1ull << 30, tiny->zkey, &cfg))
        return -1;
    czk_job_id low[BE_LOW_JOBS], crit = 0;
    const czk_witness_t w = tiny->w[0];
    struct czk_engine_job_spec spec = {0};
    spec.circuit = "c";
    spec.priority = CZK_PRIORITY_LOW;
    spec.n_partitions = 1;
    spec.witnesses = &w;
    int rc = 0;
    size_t n_low = 0;
    for (; n_low < BE_LOW_JOBS; n_low++)
        if (be_submit(v.engine, &spec, &low[n_low]) != CZK_OK) {
            rc = -1;
            break;
        }
    struct czk_engine_job_info ji;
    /* Wait until the first LOW job has started (bounded: 100 partition times). */
    double deadline = be_now_ms() + 100.0 * o->sleep_ms + 10000;
    while (rc == 0) {
        if (czk_engine_job_status(v.engine, low[0], &ji) != CZK_OK) {
            rc = -1;
            break;
        }
        if (ji.first_start_ms >= 0)
            break;
        if (be_now_ms() > deadline) {
            fprintf(stderr, "czk bench engine: (b) the first LOW job never started\n");
            rc = -1;
            break;
        }
        be_sleep_ms(0.2);
    }
    spec.priority = CZK_PRIORITY_CRITICAL;
    if (rc == 0 && be_submit(v.engine, &spec, &crit) != CZK_OK)
        rc = -1;
    if (rc == 0 && be_wait_done(v.engine, crit))
        rc = -1;
    if (rc == 0 && czk_engine_job_status(v.engine, crit, &ji) == CZK_OK) {
        r->pop_ms = ji.first_start_ms - ji.submit_ms;
        r->e2e_ms = ji.end_ms - ji.submit_ms;
        r->pop_ratio = r->pop_ms / o->sleep_ms;
        r->e2e_ratio = r->e2e_ms / o->sleep_ms;
        r->low_done_before = 0;
        for (size_t i = 0; i < n_low; i++) {
            struct czk_engine_job_info li;
            if (czk_engine_job_status(v.engine, low[i], &li) == CZK_OK && li.end_ms >= 0 &&
                li.end_ms <= ji.end_ms)
                r->low_done_before++;
        }
    } else if (rc == 0) {
        rc = -1;
    }
    /* The LOW jobs still queued are cancelled by czk_engine_free. */
    be_env_free(&v);
    return rc;
}

/* ---- (c) memory under load ---------------------------------------------------------------- */

struct be_rss {
    uint64_t limit, peak, n_waits;
    uint64_t key_bytes, part_need;
    long hwm_kb;     /* VmHWM after the reset (-1: not available) */
    long maxrss_kb;  /* ru_maxrss, whole process */
    double wall_ms;
    size_t n_proofs, n_valid;
    bool hwm_reset;
};

/* VmHWM from /proc/self/status in kB, or -1. */
static long be_vm_hwm_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

static bool be_reset_hwm(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

static int be_run_rss(const struct be_opts *o, const struct be_circuit *big, struct be_rss *r)
{
    struct czk_engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gpu_workers_per_device = o->workers;
    cfg.synth_workers = 2;
    cfg.finalizer_workers = 1;
    cfg.backend_threads = o->threads;
    struct be_env v;
    czk_mem_trim();
    r->hwm_reset = be_reset_hwm();
    if (be_env_new(&v, o->budget, big->zkey, &cfg))
        return -1;
    struct czk_srs_info si;
    memset(&si, 0, sizeof si);
    czk_srs_info(v.srs, "c", &si);
    r->key_bytes = si.host_bytes;
    uint64_t dev_need;
    czk_engine_partition_need(&si.key, NULL, czk_threads_resolve(o->threads),
                              &r->part_need, &dev_need);
    czk_job_id ids[BE_RSS_JOBS];
    size_t n_sub = 0;
    int rc = 0;
    double t0 = be_now_ms();
    for (; n_sub < BE_RSS_JOBS; n_sub++) {
        struct czk_engine_job_spec spec = {0};
        spec.circuit = "c";
        spec.priority = CZK_PRIORITY_NORMAL;
        spec.n_partitions = BE_RSS_PARTS;
        spec.witnesses = &big->w[n_sub * BE_RSS_PARTS];
        if (be_submit(v.engine, &spec, &ids[n_sub]) != CZK_OK) {
            rc = -1;
            break;
        }
    }
    struct czk_groth16_vkey vk;
    char err[512] = "";
    bool have_vk = false;
    czk_prover_key_t key = NULL;
    if (czk_srs_acquire(v.srs, "c", NULL, &key, err, sizeof err) == CZK_OK) {
        have_vk = czk_prover_key_vkey(key, &vk, err, sizeof err) == CZK_OK;
        czk_srs_release(v.srs, "c");
    }
    if (!have_vk) {
        fprintf(stderr, "czk bench engine: (c) verification key: %s\n", err);
        rc = -1;
    }
    r->n_proofs = r->n_valid = 0;
    for (size_t i = 0; i < n_sub; i++) {
        if (be_wait_done(v.engine, ids[i])) {
            rc = -1;
            continue;
        }
        const struct czk_engine_part_result *parts;
        size_t n;
        if (czk_engine_job_result(v.engine, ids[i], &parts, &n) != CZK_OK) {
            rc = -1;
            continue;
        }
        for (size_t q = 0; q < n; q++) {
            r->n_proofs++;
            if (have_vk && parts[q].status == CZK_OK &&
                czk_groth16_verify(&vk, &parts[q].pub, &parts[q].proof, err, sizeof err) == CZK_OK)
                r->n_valid++;
            else
                fprintf(stderr, "czk bench engine: (c) job %zu partition %zu: proof rejected: %s\n",
                        i, q, err);
        }
    }
    r->wall_ms = be_now_ms() - t0;
    struct czk_engine_stats st;
    czk_engine_get_stats(v.engine, &st);
    r->limit = st.host.limit;
    r->peak = st.host.peak;
    r->n_waits = st.host.n_waits;
    for (size_t i = 0; i < n_sub; i++)
        czk_engine_job_release(v.engine, ids[i]);
    if (have_vk)
        czk_groth16_vkey_free(&vk);
    be_env_free(&v);
    r->hwm_kb = r->hwm_reset ? be_vm_hwm_kb() : -1;
    struct rusage ru;
    r->maxrss_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
    if (r->n_valid != (size_t)BE_RSS_JOBS * BE_RSS_PARTS)
        rc = -1;
    if (r->peak > r->limit) {
        fprintf(stderr, "czk bench engine: (c) peak reserved %" PRIu64 " above the limit %" PRIu64
                        "\n", r->peak, r->limit);
        rc = -1;
    }
    return rc;
}

/* ---- entry -------------------------------------------------------------------------------- */

static double mib(uint64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

int czk_bench_engine(int argc, char **argv)
{
    struct be_opts o = {10000, 20, 0, 2, 512ull << 20, false};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            be_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--json")) {
            o.json = true;
            continue;
        }
        static const char *const with_val[] = {"--partitions", "--sleep-ms", "--budget",
                                               "--threads", "--workers"};
        size_t k = 0;
        for (; k < 5; k++) {
            size_t n = strlen(with_val[k]);
            if (!strncmp(a, with_val[k], n) && (a[n] == '\0' || a[n] == '=')) {
                if (a[n] == '=')
                    val = a + n + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else
                    return be_bad("missing value for", a);
                break;
            }
        }
        if (k == 5)
            return be_bad("unknown argument", a);
        if (k == 0) {
            if (!be_parse_u(val, BE_JOB_PARTS, 1000000, &o.partitions) ||
                o.partitions % BE_JOB_PARTS)
                return be_bad("--partitions must be a multiple of 10 in [10, 1000000]:", val);
        } else if (k == 1) {
            if (!be_parse_u(val, 1, 10000, &o.sleep_ms))
                return be_bad("--sleep-ms must be an integer in [1, 10000]:", val);
        } else if (k == 2) {
            if (!czk_mem_parse_size(val, &o.budget) || o.budget == 0)
                return be_bad("--budget must be a size such as 512M or 2G:", val);
        } else if (k == 3) {
            if (!be_parse_u(val, 1, 4096, &o.threads))
                return be_bad("--threads must be an integer in [1, 4096]:", val);
        } else {
            if (!be_parse_u(val, 1, 64, &o.workers))
                return be_bad("--workers must be an integer in [1, 64]:", val);
        }
    }

    char dir[1024];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/czk-bench-engine.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "czk bench engine: mkdtemp %s: %s\n", dir, strerror(errno));
        return 1;
    }
    struct be_circuit tiny, big;
    memset(&tiny, 0, sizeof tiny);
    memset(&big, 0, sizeof big);
    int rc = 0;
    /* 2^14 domain: n_constraints + 2 public in [2^13, 2^14). */
    uint32_t big_n = (1u << BE_RSS_LG) - 400;
    if (be_circuit_make(&tiny, dir, "tiny", 8, 1, o.threads) ||
        be_circuit_make(&big, dir, "mul14", big_n, (size_t)BE_RSS_JOBS * BE_RSS_PARTS,
                        o.threads))
        rc = 1;

    struct be_sched a;
    struct be_prio b;
    struct be_rss c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    bool ok_a = false, ok_b = false, ok_c = false;
    if (rc == 0) {
        ok_a = be_run_sched(&o, &tiny, &a) == 0;
        ok_b = be_run_prio(&o, &tiny, &b) == 0;
        ok_c = be_run_rss(&o, &big, &c) == 0;
        if (!ok_a || !ok_b || !ok_c)
            rc = 1;
    }
    be_circuit_free(&tiny);
    be_circuit_free(&big);
    unlink(tiny.zkey);
    unlink(big.zkey);
    if (rmdir(dir) != 0)
        fprintf(stderr, "czk bench engine: rmdir %s: %s\n", dir, strerror(errno));
    if (!ok_a && !ok_b && !ok_c)
        return 1;

    if (!o.json) {
        printf("| measurement | value | target |\n|---|---|---|\n");
        if (ok_a) {
            printf("| (a) scheduling overhead, %u partitions in jobs of %u | %.2f us/partition "
                   "(%.1f ms wall) | <= 50 us |\n",
                   o.partitions, BE_JOB_PARTS, a.us_per_part, a.wall_ms);
            printf("| (a) hot-loop mutex acquisitions per partition | %.4f (%" PRIu64
                   " pops, %" PRIu64 " empty) | <= 1 (+ cancel races) |\n",
                   a.hot_lock, a.pops, a.pops_empty);
            printf("| (a) engine mutex wait | %.3f ms total | |\n", a.lock_wait_ms);
        }
        if (ok_b) {
            printf("| (b) CRITICAL behind %u LOW, T = %u ms: submit to first pop | %.2f ms = "
                   "%.2f T | <= 1 T |\n",
                   BE_LOW_JOBS, o.sleep_ms, b.pop_ms, b.pop_ratio);
            printf("| (b) CRITICAL submit to end | %.2f ms = %.2f T (%" PRIu64
                   " LOW jobs ended first) | |\n",
                   b.e2e_ms, b.e2e_ratio, b.low_done_before);
        }
        if (ok_c) {
            printf("| (c) real proofs, 2^%u mul, %u jobs x %u partitions | %zu/%zu verified, "
                   "%.0f ms | |\n",
                   BE_RSS_LG, BE_RSS_JOBS, BE_RSS_PARTS, c.n_valid, c.n_proofs, c.wall_ms);
            printf("| (c) host budget peak reserved / limit | %.1f / %.1f MiB (key %.1f MiB, "
                   "partition %.1f MiB, %" PRIu64 " waits) | peak <= limit |\n",
                   mib(c.peak), mib(c.limit), mib(c.key_bytes), mib(c.part_need), c.n_waits);
            if (c.hwm_kb >= 0)
                printf("| (c) peak RSS while the engine ran (VmHWM) | %.1f MiB | |\n",
                       c.hwm_kb / 1024.0);
            printf("| (c) peak RSS of the process (ru_maxrss) | %.1f MiB | |\n",
                   c.maxrss_kb / 1024.0);
            printf("\nRSS includes the key, the binary and the benchmark's witnesses; the "
                   "budget counts the key and the partitions' reservations. On Linux "
                   "ru_maxrss reads the same high-water mark that clear_refs resets%s.\n\n",
                   c.hwm_reset ? "" : " (the reset failed here: it includes the key generation)");
        }
    }
    if (ok_a)
        printf("bench: engine test=sched partitions=%u jobs=%u wall_ms=%.3f us_per_partition=%.3f "
               "hot_lock_per_partition=%.4f pop_locks=%" PRIu64 " pops=%" PRIu64
               " pops_empty=%" PRIu64 " lock_wait_ms=%.3f target_us=50\n",
               o.partitions, o.partitions / BE_JOB_PARTS, a.wall_ms, a.us_per_part, a.hot_lock,
               a.pop_locks, a.pops, a.pops_empty, a.lock_wait_ms);
    if (ok_b)
        printf("bench: engine test=priority low_jobs=%u sleep_ms=%u gpu_workers=%u "
               "submit_to_start_ms=%.3f start_ratio=%.3f submit_to_end_ms=%.3f end_ratio=%.3f "
               "low_done_before=%" PRIu64 " target_ratio=1\n",
               BE_LOW_JOBS, o.sleep_ms, o.workers, b.pop_ms, b.pop_ratio, b.e2e_ms, b.e2e_ratio,
               b.low_done_before);
    if (ok_c)
        printf("bench: engine test=rss lg_domain=%u jobs=%u partitions=%u proofs=%zu verified=%zu "
               "wall_ms=%.1f budget_limit=%" PRIu64 " budget_peak=%" PRIu64 " key_bytes=%" PRIu64
               " partition_need=%" PRIu64 " budget_waits=%" PRIu64 " rss_hwm_kb=%ld "
               "maxrss_kb=%ld rss_note=\"RSS includes the key and the binary\"\n",
               BE_RSS_LG, BE_RSS_JOBS, BE_RSS_PARTS, c.n_proofs, c.n_valid, c.wall_ms, c.limit,
               c.peak, c.key_bytes, c.part_need, c.n_waits, c.hwm_kb, c.maxrss_kb);
    return rc;
}
