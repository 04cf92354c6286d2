/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The monotonic clock and the bounded condition wait of src/mem (see mem_internal.h).
 */
#include <time.h>

#include "mem/mem_internal.h"

double czk_mem_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int czk_mem_cond_init(pthread_cond_t *cv)
{
    pthread_condattr_t a;
    int rc = pthread_condattr_init(&a);
    if (rc != 0)
        return rc;
    rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    if (rc == 0)
        rc = pthread_cond_init(cv, &a);
    pthread_condattr_destroy(&a);
    return rc;
}

struct czk_mem_deadline czk_mem_deadline_in(int timeout_ms)
{
    struct czk_mem_deadline d = {timeout_ms < 0, 0.0};
    if (!d.forever)
        d.at_ms = czk_mem_now_ms() + (double)timeout_ms;
    return d;
}

bool czk_mem_deadline_passed(const struct czk_mem_deadline *d)
{
    return !d->forever && czk_mem_now_ms() >= d->at_ms;
}

void czk_mem_cond_wait(pthread_cond_t *cv, pthread_mutex_t *mu, const struct czk_mem_deadline *d,
                       const volatile int *cancel)
{
    if (d->forever && !cancel) {
        pthread_cond_wait(cv, mu);
        return;
    }
    double now = czk_mem_now_ms();
    double until = d->forever ? now + CZK_MEM_POLL_MS : d->at_ms;
    if (cancel && until > now + CZK_MEM_POLL_MS)
        until = now + CZK_MEM_POLL_MS;
    if (until <= now)
        return;
    /* absolute CLOCK_MONOTONIC time of `until` */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double ns = (double)ts.tv_nsec + (until - now) * 1e6;
    ts.tv_sec += (time_t)(ns / 1e9);
    ts.tv_nsec = (long)(ns - (double)(time_t)(ns / 1e9) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(cv, mu, &ts);
}
