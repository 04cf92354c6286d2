/* SPDX-License-Identifier: Apache-2.0 */
/* Parallel-for with per-call pthreads and a shared atomic chunk counter (see parallel.h). */
#include "core/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

unsigned czk_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

unsigned czk_threads_resolve(unsigned threads) { return threads ? threads : czk_cpu_count(); }

struct pf_job {
    size_t n, chunk;
    _Atomic size_t next;
    czk_parallel_fn fn;
    void *ctx;
};

struct pf_arg {
    struct pf_job *job;
    unsigned worker;
};

static void pf_run(struct pf_job *job, unsigned worker)
{
    for (;;) {
        size_t b = atomic_fetch_add(&job->next, job->chunk);
        if (b >= job->n)
            return;
        size_t e = b + job->chunk < job->n ? b + job->chunk : job->n;
        job->fn(job->ctx, b, e, worker);
    }
}

static void *pf_thread(void *p)
{
    struct pf_arg *a = p;
    pf_run(a->job, a->worker);
    return NULL;
}

unsigned czk_parallel_for(size_t n, size_t grain, unsigned threads, czk_parallel_fn fn,
                          void *ctx)
{
    if (n == 0)
        return 1;
    if (grain == 0)
        grain = 1;
    unsigned t = czk_threads_resolve(threads);
    size_t max_t = (n + grain - 1) / grain;
    if (t > max_t)
        t = (unsigned)max_t;
    if (t > 256)
        t = 256;
    if (t <= 1) {
        fn(ctx, 0, n, 0);
        return 1;
    }
    /* About 4 chunks per worker for balance, never below the grain. */
    size_t chunk = n / ((size_t)t * 4);
    if (chunk < grain)
        chunk = grain;
    struct pf_job job = {.n = n, .chunk = chunk, .fn = fn, .ctx = ctx};
    atomic_init(&job.next, 0);
    pthread_t tid[256];
    struct pf_arg args[256];
    unsigned started = 0;
    for (unsigned i = 1; i < t; i++) {
        args[i] = (struct pf_arg){&job, i};
        if (pthread_create(&tid[i], NULL, pf_thread, &args[i]) != 0)
            break;
        started = i;
    }
    pf_run(&job, 0);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    return started + 1;
}
