/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal structures of the proving engine (include/czk/engine.h), shared by its
 * modules:
 *   ring.c      bounded MPMC rings (Vyukov's sequence-numbered cells, C11 atomics) with
 *               POSIX semaphores to sleep on: the stage hand-offs, no mutex;
 *   pqueue.c    the priority queue: a binary heap on (priority desc, seq asc) under the
 *               engine mutex;
 *   timeline.c  the in-memory ring of stage begin/end events (per-slot sequence check);
 *   engine.c    configuration, devices, the job table, the public calls, stats;
 *   workers.c   the synthesis, device and finalizer threads and partition retirement;
 *   prover.c    the default prover vtable and the memory-need formula.
 *
 * Threading model: e->mu guards the queue, the job table and job->in_table. Everything a
 * worker touches per partition is either owned by the stage holding the partition (the
 * partition struct moves through the rings; a ring hand-off is a release/acquire pair)
 * or atomic (counters, job state, cancel flag). A job is freed when its refcount drops
 * to zero: one reference for the job table, one while partitions are in flight, one per
 * API caller waiting on it.
 */
#ifndef CZK_ENGINE_ENGINE_INTERNAL_H
#define CZK_ENGINE_ENGINE_INTERNAL_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk/engine.h"
#include "engine/srs.h"
#include "mem/mem.h"

/* ---- rings ------------------------------------------------------------------------------ */

struct eng_cell {
    atomic_size_t seq;
    void *data;
};

/* A bounded multi-producer multi-consumer FIFO of pointers. push blocks while full,
 * pop while empty (semaphores), the cells themselves are lock-free. */
struct eng_ring {
    struct eng_cell *cells;
    size_t mask;
    atomic_size_t head, tail;
    sem_t items, slots;
};

enum czk_status eng_ring_init(struct eng_ring *r, size_t min_capacity);
void eng_ring_destroy(struct eng_ring *r);
void eng_ring_push(struct eng_ring *r, void *p);
void *eng_ring_pop(struct eng_ring *r);

/* sem_wait / sem_post that retry on EINTR (sem_wait) and never fail otherwise. */
void eng_sem_wait(sem_t *s);
void eng_sem_post(sem_t *s);

/* ---- priority queue --------------------------------------------------------------------- */

struct eng_part;

struct eng_qent {
    struct eng_part *p;
    uint64_t seq;
    uint8_t prio;
};

struct eng_pqueue {
    struct eng_qent *heap;
    size_t n, cap;
    uint64_t next_seq;
    size_t depth[CZK_PRIORITY_COUNT];
};

enum czk_status eng_pq_init(struct eng_pqueue *q, size_t cap);
void eng_pq_destroy(struct eng_pqueue *q);
/* Caller checks room (q->n < q->cap). */
void eng_pq_push(struct eng_pqueue *q, struct eng_part *p, enum czk_priority prio);
/* The highest-priority, oldest entry; NULL when empty. */
struct eng_part *eng_pq_pop(struct eng_pqueue *q);
/* Remove every entry whose partition satisfies pred(p, arg) into out (capacity cap,
 * must be >= the number removed); returns the count. O(n). */
size_t eng_pq_remove_if(struct eng_pqueue *q, bool (*pred)(const struct eng_part *, const void *),
                        const void *arg, struct eng_part **out, size_t cap);

/* ---- timeline ---------------------------------------------------------------------------- */

struct eng_tl_slot {
    atomic_uint_fast64_t seq; /* 2*i+1 while event i is written, 2*i+2 once written */
    atomic_uint_fast64_t t_us, job, packed;
};

struct eng_timeline {
    struct eng_tl_slot *slots;
    size_t cap;
    atomic_uint_fast64_t next;
};

enum czk_status eng_tl_init(struct eng_timeline *tl, size_t cap);
void eng_tl_destroy(struct eng_timeline *tl);
void eng_tl_put(struct eng_timeline *tl, double t_ms, czk_job_id job, uint32_t part,
                uint16_t worker, enum czk_engine_stage stage, bool begin);
size_t eng_tl_read(struct eng_timeline *tl, uint64_t from, struct czk_engine_event *ev,
                   size_t cap, uint64_t *next);

/* ---- jobs and partitions ------------------------------------------------------------------ */

struct czk_engine;
struct eng_job;

struct eng_part {
    struct eng_job *job;
    uint32_t idx;
    const char *path;          /* witness file (owned by the job), or NULL */
    czk_witness_t user_w;      /* caller's witness (borrowed), or NULL */
    uint64_t pipeline_id;      /* dispatch order */
    int state;                 /* enum czk_part_state, written by the stage holding it */
    /* Resources held; each released exactly once by eng_part_retire. */
    czk_witness_t w;           /* the witness proved */
    bool w_owned;              /* w to be freed through the prover vtable */
    bool have_slab;
    struct czk_slab slab;
    uint64_t host_reserved, dev_reserved;
    int dev;                   /* device index of dev_reserved / dev key, -1 = none */
    czk_prover_key_t key;      /* held in the SRS manager (warm) */
    bool key_held, dev_key_held;
    void *pjob;                /* in-flight prover job */
    struct eng_worker *be_owner; /* the worker whose backend *beh is; NULL = none held */
    struct eng_backend *beh;   /* the backend pjob runs on, held until retired */
    bool credit;               /* holds a lookahead credit */
    /* Outcome so far. */
    enum czk_status st;
    char err[256];
    /* Timings (engine clock, ms) and stage sums from the prover's on_stage callback. */
    double t_queued, t_popped, t_ready, t_start0, t_start1, t_fin0;
    double reserve_ms, load_ms, eval_ms, ntt_ms, msm_ms, fin_msm_ms;
    unsigned worker_id;
};

struct eng_job {
    struct czk_engine *e;
    czk_job_id id;
    enum czk_priority prio;
    char circuit[64];
    char label[64];
    size_t n;
    struct eng_part *parts;
    struct czk_engine_part_result *results;
    char *paths_blob; /* the copied witness paths */
    uint64_t need_host, need_dev; /* per partition */
    unsigned prove_flags;
    /* The prover's cancel flag (read by czk_prove_* as a volatile int; written and read
     * here with __atomic builtins). Set by cancel and by the first failure. */
    volatile int cancel;
    atomic_bool cancel_requested; /* by the caller (the job ends CANCELLED) */
    atomic_int fail_claim;        /* 0, 1 = writing status/error, 2 = written */
    enum czk_status status;
    char error[256];
    atomic_size_t remaining; /* partitions not retired */
    atomic_size_t n_done, n_failed, n_cancelled;
    atomic_int state;        /* enum czk_job_state */
    atomic_int_fast64_t first_start_us, end_us;
    double submit_ms;
    atomic_int refs;
    atomic_uint waiters;
    sem_t done_sem;
    czk_engine_done_fn on_done;
    void *user;
    bool in_table;           /* under e->mu */
    struct eng_job *hnext;   /* job table chain, under e->mu */
};

/* ---- engine ----------------------------------------------------------------------------- */

struct eng_device {
    czk_device_t dev;
    const char *name;
    bool gpu;
    czk_budget_t budget; /* GPUs: device memory; NULL on the CPU */
    sem_t token;         /* compute token: one worker in czk_prove_start at a time */
};

/* A device worker's execution contexts. A partition holds one from czk_prove_start until it
 * is retired, since czk_prove_finish (on a finalizer) runs the G2 MSM on the job's backend
 * while the worker starts the next partition: two contexts let the two overlap without one
 * context (a CUDA stream and its error buffer) used by two threads at once. */
#define ENG_WORKER_BACKENDS 2
struct eng_backend {
    czk_backend_t be;
    atomic_bool busy;   /* held by a partition */
};

struct eng_worker {
    struct czk_engine *e;
    pthread_t thread;
    bool started;
    unsigned id;  /* index within its kind */
    int dev;      /* device workers: index into e->devs */
    struct eng_backend bes[ENG_WORKER_BACKENDS]; /* device workers */
    sem_t bes_free;  /* counts the bes not busy */
    bool bes_sem;    /* bes_free initialised */
};

struct czk_engine {
    /* Configuration (immutable after new). */
    struct czk_engine_config cfg;
    const struct czk_engine_prover_i *prover;
    void *pctx;
    czk_srs_mgr_t srs;
    czk_budget_t host_budget;
    bool own_host_budget;
    czk_pool_t pool;
    unsigned backend_threads;
    size_t n_devs;
    struct eng_device devs[CZK_ENGINE_MAX_DEVICES];
    double t0_ms; /* CLOCK_MONOTONIC at start */

    /* The engine mutex: queue + job table. */
    pthread_mutex_t mu;
    struct eng_pqueue q;
    struct eng_job **table;
    size_t table_nb, table_n;
    czk_job_id next_id;

    sem_t queue_items;   /* queued partitions (+ wake-ups at shutdown) */
    sem_t credits;       /* lookahead: partitions popped and not yet started */
    struct eng_ring ready; /* synthesized -> device workers */
    struct eng_ring fin;   /* device workers (and failed stages) -> finalizers */
    struct eng_timeline tl;
    atomic_bool stopping;
    atomic_size_t jobs_inflight;
    atomic_uint_fast64_t next_pipeline;

    struct eng_worker *synth, *gpu, *fins;
    unsigned n_synth, n_gpu, n_fin;

    /* Counters. */
    atomic_uint_fast64_t lock_acq[CZK_ENGINE_LOCK_SITES];
    atomic_uint_fast64_t lock_wait_ns;
    atomic_uint_fast64_t pops, pops_empty;
    atomic_uint_fast64_t parts_in[CZK_PART_STATE_COUNT];
    atomic_uint_fast64_t jobs_submitted, jobs_done, jobs_failed, jobs_cancelled, jobs_busy;
};

/* Engine clock (ms since start). */
double eng_now_ms(const struct czk_engine *e);
/* Lock e->mu, counting the acquisition at `site` and the time waited. */
void eng_lock(struct czk_engine *e, enum czk_engine_lock_site site);
void eng_unlock(struct czk_engine *e);
/* Move a partition between states (counters). */
void eng_part_set_state(struct czk_engine *e, struct eng_part *p, enum czk_part_state s);
/* Is the job being cancelled (caller's cancel or a failed partition)? */
bool eng_job_cancelled(const struct eng_job *j);
/* Drop a reference; the last frees the job. */
void eng_job_unref(struct eng_job *j);
/* Release everything p holds, record its outcome (st, p->err) and end the job after its
 * last partition. trim: call czk_mem_trim (finalizer paths). */
void eng_part_retire(struct czk_engine *e, struct eng_part *p, enum czk_status st, bool trim);

/* workers.c */
void *eng_synth_main(void *arg);
void *eng_device_main(void *arg);
void *eng_fin_main(void *arg);

#endif /* CZK_ENGINE_ENGINE_INTERNAL_H */
