/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Process-wide log sink. The sink and level are read and written atomically so
 * czk_log may run on any thread while another thread calls czk_log_set; the user
 * pointer is published together with the function under a small mutex because two
 * words cannot be swapped atomically. Messages are formatted into a stack buffer
 * (truncated at 1 KiB) only when their level passes the filter.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "czk/czk.h"

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static czk_log_fn log_fn;
static void *log_user;
static _Atomic int log_min = CZK_LOG_WARN;

static const char *level_name(enum czk_log_level l)
{
    switch (l) {
    case CZK_LOG_DEBUG: return "debug";
    case CZK_LOG_INFO: return "info";
    case CZK_LOG_WARN: return "warn";
    case CZK_LOG_ERROR: return "error";
    }
    return "?";
}

void czk_log_set(czk_log_fn fn, void *user, enum czk_log_level min_level)
{
    pthread_mutex_lock(&log_mu);
    log_fn = fn;
    log_user = user;
    atomic_store(&log_min, (int)min_level);
    pthread_mutex_unlock(&log_mu);
}

enum czk_log_level czk_log_level_get(void) { return (enum czk_log_level)atomic_load(&log_min); }

void czk_log(enum czk_log_level level, const char *comp, const char *fmt, ...)
{
    if ((int)level < atomic_load(&log_min))
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&log_mu);
    czk_log_fn fn = log_fn;
    void *user = log_user;
    pthread_mutex_unlock(&log_mu);
    if (fn)
        fn(level, comp, msg, user);
    else
        fprintf(stderr, "level=%s comp=%s msg=\"%s\"\n", level_name(level), comp, msg);
}
