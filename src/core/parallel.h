/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parallel-for over an index range for the CPU kernels (NTT, MSM, sparse
 * evaluation, key checks). The range [0, n) is cut into chunks of at least `grain`
 * indices; `threads` workers (0 = all online cores, capped at n / grain) take chunks
 * from a shared atomic counter, so uneven chunks balance. The calling thread is one
 * of the workers; the call returns when every chunk is done. Workers are pthreads
 * created per call (tens of microseconds), so use it for work of a millisecond or more.
 * fn must not call czk_parallel_for recursively with threads > 1.
 */
#ifndef CZK_CORE_PARALLEL_H
#define CZK_CORE_PARALLEL_H

#include <stddef.h>

typedef void (*czk_parallel_fn)(void *ctx, size_t begin, size_t end, unsigned worker);

/* Number of online CPUs (>= 1). */
unsigned czk_cpu_count(void);

/* Resolve a requested thread count: 0 -> czk_cpu_count(). */
unsigned czk_threads_resolve(unsigned threads);

/* Runs fn over [0, n) in chunks; worker ids are < the resolved thread count. Returns
 * the number of workers used (>= 1). If threads cannot be created, runs the rest on
 * the calling thread. */
unsigned czk_parallel_for(size_t n, size_t grain, unsigned threads, czk_parallel_fn fn,
                          void *ctx);

#endif
