/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal to src/mem: the monotonic clock and the bounded condition wait that the
 * budget and the pool share. A wait sleeps on a condition variable created with
 * CLOCK_MONOTONIC (czk_mem_cond_init), for at most the time left to its deadline and,
 * when a cancel flag is given, at most CZK_MEM_POLL_MS, so the flag is seen within
 * that time even if nobody signals. No global state.
 */
#ifndef CZK_MEM_MEM_INTERNAL_H
#define CZK_MEM_MEM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#define CZK_MEM_POLL_MS 10

/* *cancel != 0, read atomically (relaxed): a flag set by another thread is not a data
 * race as long as the writer stores it atomically too (__atomic_store_n or a C11
 * atomic_int of the same size). NULL: false. */
static inline bool czk_mem_cancelled(const volatile int *cancel)
{
    return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED) != 0;
}

/* Milliseconds on CLOCK_MONOTONIC. */
double czk_mem_now_ms(void);

/* pthread_cond_init with CLOCK_MONOTONIC. Returns 0 or an errno value. */
int czk_mem_cond_init(pthread_cond_t *cv);

/* A wait deadline: timeout_ms < 0 is none (forever). */
struct czk_mem_deadline {
    bool forever;
    double at_ms; /* czk_mem_now_ms() value, when !forever */
};

struct czk_mem_deadline czk_mem_deadline_in(int timeout_ms);

/* True once the deadline has passed. */
bool czk_mem_deadline_passed(const struct czk_mem_deadline *d);

/* One bounded wait on cv (mu held): returns after a signal, a spurious wakeup, the
 * deadline, or CZK_MEM_POLL_MS when cancel != NULL. The caller re-checks its state. */
void czk_mem_cond_wait(pthread_cond_t *cv, pthread_mutex_t *mu, const struct czk_mem_deadline *d,
                       const volatile int *cancel);

#endif
