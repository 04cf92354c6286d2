/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small helpers shared by the bench_*.c programs: a monotonic clock, the median
 * of repeated measurements, a deterministic PRNG, CPU pinning and the common
 * command line (-q quick, -r REPS). Header-only (static functions) so that every
 * benchmark stays a single translation unit. Single-threaded; nothing here is
 * meant for the library.
 *
 * Noise: the development machine has 2 cores shared with compilers and test runs.
 * Each repetition is kept short (about a millisecond) and BENCH_TIME retakes a
 * repetition during which the thread was switched out (getrusage context-switch
 * counts), so a preempted sample does not enter the median; wall-clock time is
 * still what is measured (CLOCK_MONOTONIC).
 */
#ifndef CZK_BENCH_BENCH_UTIL_H
#define CZK_BENCH_BENCH_UTIL_H

#include <sched.h>
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_REPS 64
#define BENCH_MAX_TRIES 50 /* retakes of one preempted repetition before giving up */

struct bench_opts {
    int reps;    /* repetitions; the median is reported */
    double work; /* multiplier on iteration counts (quick mode: 0.1) */
};

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Context switches of this thread so far, or -1 if unknown. */
static inline long bench_switches(void)
{
#ifdef RUSAGE_THREAD
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0)
        return ru.ru_nvcsw + ru.ru_nivcsw;
#endif
    return -1;
}

/* Repetitions retaken because the thread was switched out during them. */
static long bench_retakes;

/* out = wall-clock ns of running stmt; retaken while a context switch happened
 * during it (at most BENCH_MAX_TRIES times, then the last sample is kept). */
#define BENCH_TIME(out, stmt)                                                                      \
    do {                                                                                           \
        for (int try_ = 0;; try_++) {                                                              \
            long s0_ = bench_switches();                                                           \
            double t0_ = bench_now_ns();                                                           \
            stmt;                                                                                  \
            double t_ = bench_now_ns() - t0_;                                                      \
            if (bench_switches() == s0_ || try_ >= BENCH_MAX_TRIES) {                              \
                bench_retakes += try_;                                                             \
                (out) = t_;                                                                        \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Median of v[0..n); sorts v in place. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* splitmix64: deterministic inputs, so runs are comparable. */
static inline uint64_t bench_rand64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Pin to the CPU we are running on, to keep the scheduler from migrating us. */
static inline void bench_pin(void)
{
#ifdef CPU_SET
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        (void)sched_setaffinity(0, sizeof set, &set);
    }
#endif
}

/* 1-minute load average, or -1: figures taken above ~0.5 per core are suspect. */
static inline double bench_load(void)
{
    double l[1];
    return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

static inline void bench_usage(const char *prog)
{
    fprintf(stderr, "usage: %s [-q] [-r REPS]\n  -q  quick (5 repetitions, 10%% of the work)\n"
            "  -r  repetitions per measurement (median reported; default 15)\n", prog);
    exit(2);
}

static inline struct bench_opts bench_parse(int argc, char **argv)
{
    struct bench_opts o = {15, 1.0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-q") == 0) {
            o.work = 0.1;
            o.reps = 5;
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            o.reps = atoi(argv[++i]);
            if (o.reps < 1 || o.reps > BENCH_MAX_REPS)
                bench_usage(argv[0]);
        } else {
            bench_usage(argv[0]);
        }
    }
    return o;
}

/* Iteration count scaled by the work factor, at least 1. */
static inline long bench_iters(const struct bench_opts *o, long n)
{
    long k = (long)((double)n * o->work);
    return k < 1 ? 1 : k;
}

#endif /* CZK_BENCH_BENCH_UTIL_H */
