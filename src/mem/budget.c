/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory budgets (mem.h): a byte counter under a limit, guarded by one mutex.
 *
 * Fairness: a reservation that cannot be served at once joins a FIFO queue of waiters
 * (nodes on the waiters' stacks, each with its own condition variable). Only the head
 * of the queue may take bytes, so a large request at the head is not overtaken by a
 * stream of small ones arriving later (they queue behind it; try_reserve fails while
 * anybody waits). Whoever changes what the head could see — a release, or the head
 * itself leaving with or without its bytes — signals the head only, so there is no
 * thundering herd. A waiter that times out or is cancelled unlinks itself from any
 * position. Waiters with a cancel flag wake at least every CZK_MEM_POLL_MS (10 ms).
 *
 * Also here: the default host budget, size parsing and malloc_trim (mem.h).
 *
 * Threading: every function is thread-safe. Logging (over-release, free with bytes
 * still reserved) happens after the lock is dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "mem/mem.h"
#include "mem/mem_internal.h"

struct waiter {
    struct waiter *next;
    pthread_cond_t cv;
};

struct czk_budget {
    char name[32];
    pthread_mutex_t mu;
    struct waiter *head, *tail; /* FIFO of blocked reservations */
    struct czk_budget_stats st; /* st.limit is the limit; st.reserved the counter */
};

enum czk_status czk_budget_new(czk_budget_t *out, const char *name, uint64_t limit)
{
    if (!out || !name || limit == 0)
        return CZK_ERR_INVALID_ARG;
    czk_budget_t b = calloc(1, sizeof *b);
    if (!b)
        return CZK_ERR_NOMEM;
    snprintf(b->name, sizeof b->name, "%s", name);
    if (pthread_mutex_init(&b->mu, NULL) != 0) {
        free(b);
        return CZK_ERR_NOMEM;
    }
    b->st.limit = limit;
    *out = b;
    return CZK_OK;
}

void czk_budget_free(czk_budget_t b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->mu);
    uint64_t left = b->st.reserved;
    bool waiting = b->head != NULL;
    pthread_mutex_unlock(&b->mu);
    if (left || waiting)
        czk_log(CZK_LOG_ERROR, "mem", "budget %s freed with %llu bytes reserved%s", b->name,
                (unsigned long long)left, waiting ? " and reservations waiting" : "");
    pthread_mutex_destroy(&b->mu);
    free(b);
}

/* mu held */
static bool fits(const struct czk_budget *b, uint64_t bytes)
{
    return bytes <= b->st.limit - b->st.reserved;
}

/* mu held, fits(b, bytes) */
static void take(struct czk_budget *b, uint64_t bytes)
{
    b->st.reserved += bytes;
    if (b->st.reserved > b->st.peak)
        b->st.peak = b->st.reserved;
    b->st.n_reserve++;
}

/* mu held: unlink w; when it was the head, wake the next one (it may fit now). */
static void dequeue(struct czk_budget *b, struct waiter *w)
{
    struct waiter **pp = &b->head, *prev = NULL;
    while (*pp != w) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    bool was_head = prev == NULL;
    *pp = w->next;
    if (b->tail == w)
        b->tail = prev;
    if (was_head && b->head)
        pthread_cond_signal(&b->head->cv);
}

/* mu held: queue up and wait for the turn of `bytes` (see the file comment). */
static enum czk_status wait_turn(struct czk_budget *b, uint64_t bytes, const volatile int *cancel,
                                 int timeout_ms)
{
    struct waiter w;
    w.next = NULL;
    if (czk_mem_cond_init(&w.cv) != 0)
        return CZK_ERR_INTERNAL;
    struct czk_mem_deadline dl = czk_mem_deadline_in(timeout_ms);
    double t0 = czk_mem_now_ms();
    if (b->tail)
        b->tail->next = &w;
    else
        b->head = &w;
    b->tail = &w;
    b->st.n_waits++;

    enum czk_status st;
    for (;;) {
        if (b->head == &w && fits(b, bytes)) {
            take(b, bytes);
            st = CZK_OK;
            break;
        }
        if (czk_mem_cancelled(cancel)) {
            st = CZK_CANCELLED;
            break;
        }
        if (czk_mem_deadline_passed(&dl)) {
            st = CZK_ERR_BUDGET;
            break;
        }
        czk_mem_cond_wait(&w.cv, &b->mu, &dl, cancel);
    }
    dequeue(b, &w);
    b->st.wait_ms_total += czk_mem_now_ms() - t0;
    pthread_cond_destroy(&w.cv);
    return st;
}

enum czk_status czk_budget_reserve(czk_budget_t b, uint64_t bytes, const volatile int *cancel,
                                   int timeout_ms)
{
    if (!b)
        return CZK_ERR_INVALID_ARG;
    if (bytes == 0)
        return CZK_OK;
    enum czk_status st;
    pthread_mutex_lock(&b->mu);
    if (bytes > b->st.limit) {
        st = CZK_ERR_BUDGET; /* can never fit */
    } else if (!b->head && fits(b, bytes)) {
        take(b, bytes);
        st = CZK_OK;
    } else if (czk_mem_cancelled(cancel)) {
        st = CZK_CANCELLED;
    } else if (timeout_ms == 0) {
        st = CZK_ERR_BUDGET;
    } else {
        st = wait_turn(b, bytes, cancel, timeout_ms);
    }
    if (st != CZK_OK)
        b->st.n_rejected++;
    pthread_mutex_unlock(&b->mu);
    return st;
}

bool czk_budget_try_reserve(czk_budget_t b, uint64_t bytes)
{
    if (!b)
        return false;
    if (bytes == 0)
        return true;
    pthread_mutex_lock(&b->mu);
    bool ok = !b->head && fits(b, bytes);
    if (ok)
        take(b, bytes);
    pthread_mutex_unlock(&b->mu);
    return ok;
}

void czk_budget_release(czk_budget_t b, uint64_t bytes)
{
    if (!b || bytes == 0)
        return;
    pthread_mutex_lock(&b->mu);
    uint64_t had = b->st.reserved;
    b->st.reserved -= bytes <= had ? bytes : had;
    if (b->head)
        pthread_cond_signal(&b->head->cv);
    pthread_mutex_unlock(&b->mu);
    if (bytes > had)
        czk_log(CZK_LOG_ERROR, "mem",
                "budget %s: release of %llu bytes with only %llu reserved (clamped)", b->name,
                (unsigned long long)bytes, (unsigned long long)had);
}

void czk_budget_get_stats(czk_budget_t b, struct czk_budget_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    if (!b)
        return;
    pthread_mutex_lock(&b->mu);
    *st = b->st;
    pthread_mutex_unlock(&b->mu);
}

const char *czk_budget_name(czk_budget_t b) { return b ? b->name : ""; }

/* ---- sizes and the machine's memory ------------------------------------------------------ */

/* Binary multiplier of a unit letter, 0 if none. */
static uint64_t unit_mult(char c)
{
    switch (c) {
    case 'k': case 'K': return 1ull << 10;
    case 'm': case 'M': return 1ull << 20;
    case 'g': case 'G': return 1ull << 30;
    case 't': case 'T': return 1ull << 40;
    default: return 0;
    }
}

/*
 * digits ["." digits] [unit ["i"] ["B"] | "B"], unit one of K M G T (either case), binary.
 * A fraction needs a unit (bytes are whole) and is cut down to whole bytes; fraction
 * digits past the 18th are read but ignored (below a byte even at T). Exact integer
 * arithmetic, no floating point.
 */
bool czk_mem_parse_size(const char *s, uint64_t *out)
{
    if (!s || !out)
        return false;
    const char *p = s;
    uint64_t ip = 0, fp = 0, fscale = 1;
    bool frac = false;
    if (*p < '0' || *p > '9')
        return false; /* empty, sign, space, garbage */
    for (; *p >= '0' && *p <= '9'; p++) {
        if (ip > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return false;
        ip = ip * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return false;
        frac = true;
        for (unsigned n = 0; *p >= '0' && *p <= '9'; p++, n++)
            if (n < 18) {
                fp = fp * 10 + (uint64_t)(*p - '0');
                fscale *= 10;
            }
    }
    uint64_t mult = unit_mult(*p);
    if (mult) {
        p++;
        if (*p == 'i')
            p++;
        if (*p == 'B')
            p++;
    } else if (*p == 'B') {
        p++;
        mult = 1;
    } else {
        mult = 1;
    }
    if (*p != '\0' || (frac && mult == 1))
        return false;
    unsigned __int128 v = (unsigned __int128)ip * mult + (unsigned __int128)fp * mult / fscale;
    if (v > UINT64_MAX)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* MemAvailable of /proc/meminfo in bytes (it counts the reclaimable page cache), 0 if
 * unreadable. */
static uint64_t meminfo_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(f);
    return found && kib <= UINT64_MAX / 1024 ? (uint64_t)kib * 1024 : 0;
}

uint64_t czk_mem_default_host_budget(void)
{
    const char *env = getenv("CZK_HOST_BUDGET");
    uint64_t v = 0;
    if (env && *env) {
        if (czk_mem_parse_size(env, &v) && v > 0)
            return v;
        czk_log(CZK_LOG_WARN, "mem",
                "CZK_HOST_BUDGET=\"%s\" is not a size > 0 (e.g. 64G, 1.5T): ignored", env);
    }
    uint64_t avail = meminfo_available();
    if (avail == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
        if (pages > 0 && psz > 0)
            avail = (uint64_t)pages * (uint64_t)psz;
    }
    v = avail / 5 * 4;
    return v ? v : (1ull << 30); /* nothing readable: 1 GiB rather than a zero budget */
}

double czk_mem_trim(void)
{
    double t0 = czk_mem_now_ms();
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    return czk_mem_now_ms() - t0;
}
