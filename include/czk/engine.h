/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk proving engine (issue 7): turns a stream of jobs into Groth16 proofs with the
 * devices kept busy and memory never overcommitted.
 *
 * Model. A job is one circuit (an id registered in the SRS manager, czk_srs_register)
 * plus N witnesses; each witness is a partition. A partition flows through
 *
 *   priority queue ──> reservation (host budget) ──> synthesis worker (load + validate
 *   the witness, into a slab of the pool when one is configured) ──> device worker
 *   (GPU budget reservation on GPUs, czk_prove_start on the worker's own backend) ──>
 *   finalizer (czk_prove_finish, czk_mem_trim, release of reservations and slab) ──>
 *   job tracker (results in partition order, job state, callback, waiters).
 *
 * Scheduling. Four priorities, CRITICAL > HIGH > NORMAL > LOW, FIFO within a level;
 * queued partitions of a higher-priority job overtake queued lower ones (running work
 * is not pre-empted). The queue is bounded (queue_capacity partitions): submit answers
 * CZK_ERR_BUSY when a job does not fit. Synthesis workers pop the queue only while a
 * device worker can take the result soon (at most `lookahead` partitions per device are
 * popped and not yet started), so a CRITICAL job waits for at most the partitions
 * already popped, never for the queued ones.
 *
 * Workers. gpu_workers_per_device workers per selected device (czk_backend_select:
 * "auto" = every GPU, else the CPU device), each owning one czk_backend_t. The workers
 * of one device are interlocked by a compute token: one runs czk_prove_start while the
 * next waits with its partition synthesized and popped, so the device moves to the next
 * partition at once; czk_prove_finish runs on finalizer threads. With no GPU the CPU
 * device plays the same roles.
 *
 * Locks. The worker hot loop takes one mutex acquisition per partition: the queue pop.
 * Hand-offs between stages use bounded lock-free rings (C11 atomics) with POSIX
 * semaphores for sleeping; job completion is published with atomics (waiters sleep on
 * a semaphore). Every acquisition of the engine's mutex is counted, by site, with the
 * time spent waiting for it (czk_engine_stats). The memory layer (budgets, pool) and
 * the SRS manager have their own locks, outside this count.
 *
 * Memory. Before a partition is dispatched its host need is reserved in the host
 * budget (blocking, never overcommitting), and on GPU devices its device need in that
 * device's budget before czk_prove_start. Needs come from the circuit's header before
 * anything is loaded; the formula is czk_engine_partition_need's. Reservations, slabs,
 * witnesses, keys and in-flight proofs are released on every path: success, failure
 * at any stage, cancel.
 *
 * Logs (logfmt through czk_log, component "engine"; INFO unless noted):
 *   SYNTH_TIMING worker=s<i> job= partition_idx= pipeline_id= reserve_ms= load_ms=
 *                bytes= total_ms=
 *   GPU_TIMING worker_id= gpu= job= partition_idx= pipeline_id= queue_wait_ms= h2d_ms=
 *              eval_ms= ntt_ms= msm_ms= total_ms=
 *     (stage times from the prover's on_stage callback: synth -> eval_ms, ntt_a/b/c and
 *     quotient -> ntt_ms, msm_* -> msm_ms; h2d_ms is 0 on the CPU backend, which borrows
 *     host memory and transfers nothing; on GPUs the upload happens inside the prover's
 *     stages and is included in them until the prover reports it separately)
 *   FIN_TIMING worker_id=f<i> job= partition_idx= pipeline_id= wait_ms= finish_ms=
 *              trim_ms=
 *   TIMELINE ev=begin|end stage=synth|start|finish worker= job= part= t_ms=  (DEBUG)
 *   ENGINE_JOB job= state= partitions= latency_ms= error="..."    (one per job end)
 * and the same begin/end events in an in-memory ring (czk_engine_timeline_read).
 *
 * Threading: every function is thread-safe. Ownership: the engine borrows the SRS
 * manager and (when given) the host budget, which must outlive it; witnesses given in
 * memory are borrowed until their job has ended (state DONE/FAILED/CANCELLED seen
 * through status/wait, or its callback ran). Job results are owned by the engine until
 * czk_engine_job_release.
 */
#ifndef CZK_ENGINE_H
#define CZK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk.h"
#include "czk_backend.h"
#include "czk_groth16.h"
#include "czk_prover.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_engine *czk_engine_t;
/* The SRS manager (src/engine/srs.h) and a memory budget (src/mem/mem.h). */
struct czk_srs_mgr;
struct czk_budget;
struct czk_allocator;

enum czk_priority {
    CZK_PRIORITY_LOW = 0,
    CZK_PRIORITY_NORMAL = 1,
    CZK_PRIORITY_HIGH = 2,
    CZK_PRIORITY_CRITICAL = 3,
};
#define CZK_PRIORITY_COUNT 4

enum czk_job_state {
    CZK_JOB_STATE_QUEUED = 0,    /* no partition dispatched yet */
    CZK_JOB_STATE_RUNNING = 1,   /* at least one partition dispatched */
    CZK_JOB_STATE_DONE = 2,      /* every partition proved */
    CZK_JOB_STATE_FAILED = 3,    /* a partition failed (error = the first failure) */
    CZK_JOB_STATE_CANCELLED = 4, /* cancel requested before the job ended */
};

/* Where a partition is; counts per state are in czk_engine_stats. */
enum czk_part_state {
    CZK_PART_STATE_QUEUED = 0,    /* in the priority queue */
    CZK_PART_STATE_RESERVING = 1, /* popped, waiting for host memory / a slab */
    CZK_PART_STATE_SYNTH = 2,     /* witness being loaded */
    CZK_PART_STATE_READY = 3,     /* synthesized, waiting for a device worker */
    CZK_PART_STATE_PROVING = 4,   /* in czk_prove_start on a device worker */
    CZK_PART_STATE_FINISHING = 5, /* waiting for or in czk_prove_finish */
    CZK_PART_STATE_DONE = 6,      /* terminal states: totals since the engine started */
    CZK_PART_STATE_FAILED = 7,
    CZK_PART_STATE_CANCELLED = 8,
};
#define CZK_PART_STATE_COUNT 9

CZK_API const char *czk_priority_name(enum czk_priority p);         /* "low", ... */
CZK_API const char *czk_job_state_name(enum czk_job_state s);       /* "queued", ... */
CZK_API const char *czk_part_state_name(enum czk_part_state s);     /* "queued", ... */
/** Parse "low|normal|high|critical" (case-insensitive); false when unknown. */
CZK_API bool czk_priority_parse(const char *s, enum czk_priority *out);

/* ---- pluggable prover ---------------------------------------------------------------- */

/*
 * The operations the engine runs per partition. The default (czk_engine_prover_default)
 * calls czk_witness_load / czk_prove_start / czk_prove_finish / czk_prove_job_free;
 * tests and `czk bench engine` plug in a fake one. `ctx` is the config's prover_ctx.
 * All members are called concurrently from several worker threads.
 */
struct czk_engine_prover_i {
    /* Load the witness file `path`. With dst != NULL (a slab of dst_cap bytes), the
     * values must end up in dst and *w must borrow them. *w written on success. */
    enum czk_status (*witness_load)(void *ctx, const char *path, void *dst, size_t dst_cap,
                                    czk_witness_t *w, char *err, size_t errlen);
    /* Release a witness from witness_load (or czk_witness_wrap over a slab). */
    void (*witness_free)(void *ctx, czk_witness_t w);
    /* czk_prove_start's contract; *job is an opaque in-flight handle. */
    enum czk_status (*start)(void *ctx, void **job, czk_prover_key_t key, czk_backend_t be,
                             czk_witness_t w, const struct czk_prove_opts *opts, char *err,
                             size_t errlen);
    /* czk_prove_finish's contract: consumes job whatever the outcome. */
    enum czk_status (*finish)(void *ctx, void *job, struct czk_groth16_proof *proof,
                              struct czk_groth16_public *pub, char *err, size_t errlen);
    /* Abandon a started job (cancel, failure elsewhere). */
    void (*job_free)(void *ctx, void *job);
    /* (optional) Override the memory needs of a partition of a circuit with `info`;
     * NULL = czk_engine_partition_need. */
    void (*need)(void *ctx, const struct czk_prover_key_info *info, bool gpu, unsigned threads,
                 uint64_t *host_bytes, uint64_t *device_bytes);
    /* (optional) Admission check before a partition's memory is reserved (policy, fault
     * injection): a status other than CZK_OK fails the partition with that status.
     * witness_path is NULL for in-memory witnesses. */
    enum czk_status (*admit)(void *ctx, const char *circuit, const char *witness_path,
                             uint32_t partition, char *err, size_t errlen);
};

/** The real prover (static). */
CZK_API const struct czk_engine_prover_i *czk_engine_prover_default(void);

/**
 * Memory a partition of a circuit with sizes `info` needs on device `dev`, from the key
 * header alone (N = domain_size, V = n_vars, T = backend threads, E = 32-byte field
 * elements):
 *
 *   witness  W   = V·E + 4096                    (values; file header)
 *   a, b, c  ABC = 3·N·E
 *   MSM      M   = 4·max(V, N) + T·(2^15·(Ga + Gx + 1) + 2048·(Ga + 2E) + 8192) + 65536
 *                  (the index array of the non-trivial scalars; per thread the largest
 *                  bucket space of the CPU Pippenger, 2^15 buckets, Ga/Gx the affine /
 *                  XYZZ point size of the curve's G2 (the widest group: 192/384 bytes on
 *                  BLS12-381, 128/256 on BN254), and its scalar-one buffer; the MSMs run
 *                  one after another, so one is live at a time)
 *   proof    P   = 4096 + (nPublic+1)·E
 *   scratch  S1, S2 = czk_device_msm_scratch(dev, curve, 1, max(V, N)) and (dev, curve, 2, V):
 *                  the device scratch of the G1 and G2 MSMs' least plans
 *
 *   CPU device (or dev NULL):  host = W + ABC + M + P,  device = 0
 *   GPU device:  host = W + P + 16 MiB (staging),
 *                device = W + N·E + 64 MiB + max(ABC, N·E + S1, S2)
 *                (the witness copy and the NTT's twiddles throughout; a, b, c through the
 *                synthesis and the NTTs; a, the H MSM's scalars, and the scratch through the
 *                G1 MSMs; the scratch alone through the G2 MSM, a being released). An MSM
 *                that finds more device memory free in the device's budget runs a faster
 *                plan with it for its duration (czk_backend_set_scratch_budget).
 *
 * When a slab holds the witness (pool configured) W is taken from the pool, whose bytes
 * are reserved in the host budget for its lifetime, and is not reserved again. The
 * bound is checked against the sampled heap peak of real CPU proofs (test_engine:
 * test_need_bound; generous for small circuits, where the MSM uses fewer buckets).
 */
CZK_API void czk_engine_partition_need(const struct czk_prover_key_info *info, czk_device_t dev,
                                       unsigned threads, uint64_t *host_bytes,
                                       uint64_t *device_bytes);

/* ---- engine ---------------------------------------------------------------------------- */

struct czk_engine_config {
    struct czk_srs_mgr *srs;         /* required: the circuits' keys (borrowed) */
    struct czk_budget *host_budget;  /* borrowed (share it with the SRS manager); NULL =
                                        the engine makes one of host_budget_bytes */
    uint64_t host_budget_bytes;      /* 0 = czk_mem_default_host_budget() */
    uint64_t gpu_budget_bytes;       /* per GPU; 0 = 90% of the device's memory */
    const char *devices;             /* "auto" | "cpu" | "cuda" (czk_backend_select); NULL = auto */
    unsigned gpu_workers_per_device; /* 0 = 2 */
    unsigned synth_workers;          /* 0 = 2 */
    unsigned finalizer_workers;      /* 0 = 1 */
    unsigned backend_threads;        /* host threads of each worker's backend; 0 = all cores */
    unsigned queue_capacity;         /* queued partitions at most; 0 = 4096 */
    unsigned lookahead;              /* partitions popped ahead of each device; 0 = 1 */
    unsigned prove_flags;            /* enum czk_prove_flags for every proof */
    /* Slab pool for witnesses (0 slabs = none): n_slabs slabs of slab_bytes from
     * slab_allocator (NULL = page-locked "cuda-pinned" memory when a configured device is a
     * CUDA GPU, else plain host memory; plain memory also when the pinned pool cannot be
     * had), reserved in the host budget. */
    uint32_t n_slabs;
    size_t slab_bytes;
    const struct czk_allocator *slab_allocator;
    bool slab_fallback_pageable; /* exhausted pool: pageable slab (warned, counted) vs wait */
    unsigned timeline_capacity;  /* events kept in memory; 0 = 65536; the ring wraps */
    const struct czk_engine_prover_i *prover; /* NULL = czk_engine_prover_default() */
    void *prover_ctx;
};

/**
 * Start an engine: select devices, create the budgets, pool, backends and threads.
 * *out written on success. Returns CZK_OK; CZK_ERR_INVALID_ARG (no SRS manager, a
 * count out of range: workers 1..64 per kind, queue_capacity <= 1<<24, lookahead <= 64,
 * slab_bytes 0 with n_slabs > 0); czk_backend_select's errors; CZK_ERR_NOMEM;
 * CZK_ERR_BUDGET (the pool does not fit the host budget); CZK_ERR_DEVICE; with err.
 */
CZK_API enum czk_status czk_engine_new(czk_engine_t *out, const struct czk_engine_config *cfg,
                                       char *err, size_t errlen);

/**
 * Stop: cancel every job not yet ended, wait for the workers to retire them (every
 * reservation released) and free everything, including jobs not released. No other
 * call may run concurrently or follow. NULL: no-op.
 */
CZK_API void czk_engine_free(czk_engine_t e);

/* ---- jobs ------------------------------------------------------------------------------ */

typedef uint64_t czk_job_id; /* > 0, unique per engine */

struct czk_engine_result;
/* Called once when a job ends, on the engine thread that retired its last partition,
 * after the state is published (so job_status / job_result work inside). Must not
 * call czk_engine_free; may release the job. */
typedef void (*czk_engine_done_fn)(void *user, czk_job_id id, enum czk_job_state state);

struct czk_engine_job_spec {
    const char *circuit;        /* id registered in the SRS manager */
    enum czk_priority priority;
    size_t n_partitions;        /* 1..65536 */
    const char *const *witness_paths; /* n .wtns paths (copied), or NULL and: */
    const czk_witness_t *witnesses;   /* n in-memory witnesses (borrowed until the job ends) */
    czk_engine_done_fn on_done;       /* may be NULL */
    void *user;
    const char *label; /* optional, copied (<= 63 chars), shown in logs as label= */
};

/**
 * Queue a job. All its partitions enter the queue at once or none does.
 * *id written on success. Returns CZK_OK; CZK_ERR_INVALID_ARG (unknown circuit, bad
 * priority, n_partitions 0 or too many, neither or both of witness_paths/witnesses, a
 * NULL element); CZK_ERR_BUDGET (one partition can never fit the host or GPU budget);
 * CZK_ERR_BUSY (the queue has not room for n_partitions more: retry later);
 * CZK_ERR_NOMEM; with err.
 */
CZK_API enum czk_status czk_engine_submit(czk_engine_t e, const struct czk_engine_job_spec *spec,
                                          czk_job_id *id, char *err, size_t errlen);

struct czk_engine_job_info {
    czk_job_id id;
    enum czk_job_state state;
    enum czk_priority priority;
    enum czk_status status; /* CZK_OK, or the first failing partition's status */
    char error[256];        /* the first failure's message ("" when none) */
    size_t n_partitions, n_done, n_failed, n_cancelled; /* retired partitions */
    double submit_ms;   /* engine clock (ms since the engine started) */
    double first_start_ms; /* first partition popped from the queue; -1 = not yet */
    double end_ms;      /* -1 while running */
};

/** Snapshot of a job. CZK_OK; CZK_ERR_INVALID_ARG (unknown or released id). */
CZK_API enum czk_status czk_engine_job_status(czk_engine_t e, czk_job_id id,
                                              struct czk_engine_job_info *info);

/**
 * Wait until the job ends or timeout_ms passes (< 0: forever). *state (may be NULL)
 * gets the state at return. Returns CZK_OK (ended); CZK_ERR_BUSY (timeout: still
 * running); CZK_ERR_INVALID_ARG (unknown id).
 */
CZK_API enum czk_status czk_engine_job_wait(czk_engine_t e, czk_job_id id, int timeout_ms,
                                            enum czk_job_state *state);

/* One partition's outcome (owned by the engine until the job is released). */
struct czk_engine_part_result {
    enum czk_status status;            /* CZK_OK: proof and pub are valid */
    struct czk_groth16_proof proof;
    struct czk_groth16_public pub;     /* public signals w[1..nPublic] */
    unsigned worker_id;                /* device worker that ran czk_prove_start */
    const char *device;                /* its device name (static) */
    double queue_wait_ms, synth_ms, prove_ms, finish_ms; /* stage durations */
};

/**
 * The per-partition results of an ended job, in partition order: *parts points to
 * n_partitions entries owned by the job (valid until czk_engine_job_release).
 * Returns CZK_OK; CZK_ERR_BUSY (not ended yet); CZK_ERR_INVALID_ARG (unknown id).
 */
CZK_API enum czk_status czk_engine_job_result(czk_engine_t e, czk_job_id id,
                                              const struct czk_engine_part_result **parts,
                                              size_t *n);

/**
 * Cancel a job: its queued partitions are dropped at once, running ones stop at their
 * next stage boundary (the prover's cancel flag), and every reservation, slab and
 * in-flight proof is released; the job ends CANCELLED once its last partition retired
 * (wait for it). On an ended job: no effect. Returns CZK_OK; CZK_ERR_INVALID_ARG.
 */
CZK_API enum czk_status czk_engine_job_cancel(czk_engine_t e, czk_job_id id);

/**
 * Forget a job and free its results. A job that has not ended is cancelled first and
 * freed when it ends. The id is unknown afterwards. CZK_OK; CZK_ERR_INVALID_ARG.
 */
CZK_API enum czk_status czk_engine_job_release(czk_engine_t e, czk_job_id id);

/* ---- statistics ------------------------------------------------------------------------ */

/* Sites of the engine mutex, for the acquisition counters. */
enum czk_engine_lock_site {
    CZK_ENGINE_LOCK_POP = 0,    /* worker hot loop: queue pop */
    CZK_ENGINE_LOCK_SUBMIT = 1, /* caller: submit */
    CZK_ENGINE_LOCK_API = 2,    /* caller: status, wait, result, cancel, release, stats */
};
#define CZK_ENGINE_LOCK_SITES 3

#define CZK_ENGINE_MAX_DEVICES 16

struct czk_engine_budget_gauge {
    char name[16];          /* "host", "cuda0" */
    uint64_t limit, reserved, peak;
    uint64_t n_waits;       /* reservations that waited */
};

struct czk_engine_stats {
    uint64_t queue_depth[CZK_PRIORITY_COUNT]; /* queued partitions per priority */
    uint64_t parts[CZK_PART_STATE_COUNT];     /* partitions per state (terminal: totals) */
    uint64_t jobs_submitted, jobs_done, jobs_failed, jobs_cancelled, jobs_rejected_busy;
    /* Engine mutex: acquisitions per site, time waited for it in total. */
    uint64_t lock_acquisitions[CZK_ENGINE_LOCK_SITES];
    double lock_wait_ms;
    /* Worker hot-loop acquisitions (POP: the only site workers take) per partition
     * popped; 1.0 plus the pops that lost a race with a cancel. */
    double hot_lock_per_partition;
    uint64_t partitions_popped;
    uint64_t pops_empty; /* pops that found the queue empty (after a cancel race) */
    struct czk_engine_budget_gauge host;
    size_t n_devices;
    struct czk_engine_budget_gauge gpu[CZK_ENGINE_MAX_DEVICES]; /* GPUs only (limit 0: CPU) */
    /* Pool (zeros when none). */
    uint32_t pool_slabs, pool_free;
    uint64_t pool_fallbacks, pool_waits;
    unsigned n_synth_workers, n_gpu_workers, n_finalizers;
};

/** Fill *st (a consistent-enough snapshot: counters are read one by one). */
CZK_API void czk_engine_get_stats(czk_engine_t e, struct czk_engine_stats *st);

/* ---- timeline ---------------------------------------------------------------------------- */

enum czk_engine_stage {
    CZK_ENGINE_STAGE_SYNTH = 0,  /* synthesis worker: reservation + witness load */
    CZK_ENGINE_STAGE_START = 1,  /* device worker: czk_prove_start (compute token held) */
    CZK_ENGINE_STAGE_FINISH = 2, /* finalizer: czk_prove_finish + trim + release */
};

struct czk_engine_event {
    uint64_t seq;     /* position in the ring's history */
    double t_ms;      /* engine clock */
    czk_job_id job;
    uint32_t part;
    uint16_t worker;  /* index within its kind: s<i>, g<i> (device worker id), f<i> */
    uint8_t stage;    /* enum czk_engine_stage */
    uint8_t begin;    /* 1 = begin, 0 = end */
};

/**
 * Copy timeline events with seq >= from_seq (the oldest still in the ring when from_seq
 * has been overwritten) into ev[0..cap), oldest first; *n gets the count copied and
 * *next_seq the seq to pass next time. An event being written is skipped (read it next
 * time). Returns CZK_OK; CZK_ERR_INVALID_ARG.
 */
CZK_API enum czk_status czk_engine_timeline_read(czk_engine_t e, uint64_t from_seq,
                                                 struct czk_engine_event *ev, size_t cap,
                                                 size_t *n, uint64_t *next_seq);

/** Name of a stage ("synth", "start", "finish"). */
CZK_API const char *czk_engine_stage_name(enum czk_engine_stage s);

/** Milliseconds since the engine started (the clock of events and job infos). */
CZK_API double czk_engine_now_ms(czk_engine_t e);

#ifdef __cplusplus
}
#endif

#endif /* CZK_ENGINE_H */
