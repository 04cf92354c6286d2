/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_bench_ntt: wall-clock milliseconds of the CPU NTT (src/ntt/ntt.h) per curve for
 * lg_n = 16, 18, 20 (and 22 with --large): forward, inverse, forward onto a coset
 * (dir=coset, the snarkjs odd-coset shift) and its inverse (dir=coset_inv), snarkjs
 * convention, on deterministic pseudo-random data. Each figure is the median of REPS
 * runs after one warm-up run; that first call, which also builds the cached twiddle
 * tables, is reported on its own as dir=first. One line per measurement:
 *   bench: ntt curve=bn254 lg_n=20 dir=fwd threads=2 ms=... cpu_ms=...
 * where cpu_ms is the median CPU time of all threads (a steadier figure than the wall
 * clock on a shared machine).
 * Options: --large (add 2^22), -r REPS (default 5), -t THREADS (default 0 = all cores),
 * -l LG (only this size). Single process; the library threads are czk_parallel_for's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "czk/czk_ff.h"
/* Internal headers: bench/CMakeLists.txt puts only include/ on the path. */
#include "../src/core/parallel.h"
#include "../src/ntt/ntt.h"
#include "../src/ntt/ntt_snarkjs.h"

/* CPU time of the whole process (all threads), ns: robust against a loaded machine. */
static double cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void fill(enum czk_groth16_curve c, uint64_t (*a)[4], size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        /* Montgomery limbs of a value below 2^250: reduced on both curves. */
        for (int k = 0; k < 4; k++)
            a[i][k] = bench_rand64(&seed);
        a[i][3] &= (1ull << 58) - 1;
    }
    (void)c;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--large] [-r REPS] [-t THREADS] [-l LG]\n", prog);
    exit(2);
}

int main(int argc, char **argv)
{
    int reps = 5, large = 0, only = -1;
    unsigned threads = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--large") == 0)
            large = 1;
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
            only = atoi(argv[++i]);
        else
            usage(argv[0]);
    }
    if (reps < 1 || reps > BENCH_MAX_REPS)
        usage(argv[0]);
    (void)bench_retakes; /* BENCH_TIME's retakes do not suit multithreaded runs */
    unsigned th = czk_threads_resolve(threads);
    printf("# czk_bench_ntt: %u threads, %d reps, load %.2f\n", th, reps, bench_load());

    static const unsigned lgs[] = {16, 18, 20, 22};
    static const struct {
        enum czk_groth16_curve c;
        const char *name;
    } curves[] = {{CZK_GROTH16_CURVE_BN254, "bn254"}, {CZK_GROTH16_CURVE_BLS12_381, "bls12_381"}};
    static const char *const dirs[] = {"fwd", "inv", "coset", "coset_inv"};

    for (size_t ci = 0; ci < 2; ci++) {
        for (size_t li = 0; li < sizeof lgs / sizeof lgs[0]; li++) {
            unsigned lg = lgs[li];
            if ((only >= 0 && (unsigned)only != lg) || (only < 0 && lg == 22 && !large))
                continue;
            size_t n = (size_t)1 << lg;
            uint64_t(*a)[4] = aligned_alloc(64, n * sizeof *a);
            if (!a) {
                fprintf(stderr, "out of memory at lg_n=%u\n", lg);
                return 1;
            }
            fill(curves[ci].c, a, n, 1234 + lg);
            uint64_t shift[4];
            czk_ntt_snarkjs_shift(curves[ci].c, lg, shift);

            czk_ntt_cache_clear();
            double t0 = bench_now_ns();
            if (czk_ntt(curves[ci].c, a, lg, CZK_NTT_FORWARD, CZK_NTT_SNARKJS, NULL, threads) !=
                CZK_OK) {
                fprintf(stderr, "czk_ntt failed\n");
                return 1;
            }
            double t_first = bench_now_ns() - t0;
            printf("bench: ntt curve=%s lg_n=%u dir=first threads=%u ms=%.2f\n", curves[ci].name,
                   lg, th, t_first / 1e6);

            for (int d = 0; d < 4; d++) {
                enum czk_ntt_dir dir = (d & 1) ? CZK_NTT_INVERSE : CZK_NTT_FORWARD;
                const uint64_t *sh = (d & 2) ? shift : NULL;
                double v[BENCH_MAX_REPS], u[BENCH_MAX_REPS];
                for (int r = 0; r < reps; r++) {
                    double c0 = cpu_now_ns();
                    t0 = bench_now_ns();
                    czk_ntt(curves[ci].c, a, lg, dir, CZK_NTT_SNARKJS, sh, threads);
                    v[r] = bench_now_ns() - t0;
                    u[r] = cpu_now_ns() - c0;
                }
                printf("bench: ntt curve=%s lg_n=%u dir=%s threads=%u ms=%.2f cpu_ms=%.2f\n",
                       curves[ci].name, lg, dirs[d], th, bench_median(v, reps) / 1e6,
                       bench_median(u, reps) / 1e6);
                fflush(stdout);
            }
            free(a);
        }
    }
    czk_ntt_cache_clear();
    return 0;
}
