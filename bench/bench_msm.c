/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_bench_msm: wall time of the CPU Pippenger MSM (src/msm/) for G1 and G2 of BN254
 * and BLS12-381 on random bases and uniformly random scalars < r, n = 2^12, 2^14, 2^16
 * (and 2^18 with --large), all cores unless -t is given. Each figure is the median (and
 * the minimum) of repeated calls, printed on one line as
 *
 *   bench: msm group=g1_bn254 n=65536 threads=2 accum=affine c=12 splits=1 group=1
 *          ms=123.4 min_ms=120.1 cpu_ms=240.3
 *
 * with the plan the cost model chose (kernel, window, point chunks, windows per task)
 * and cpu_ms the process CPU time of the call (all threads; with -t 1 on a loaded
 * machine a steadier figure than wall time).
 * Options:
 *   -q           quick (fewer repetitions)      -r REPS   repetitions (median reported)
 *   -t THREADS   worker threads (0 = all)       --large   also n = 2^18
 *   -g GROUP     only this group                -n LG     only n = 2^LG (repeatable)
 *   --accum K    auto | xyzz | affine           --sweep   also time every window c in
 *                                                         [c_auto - 3, c_auto + 3]
 *   --sparse     PoRep-like scalars: 45% zero, 45% one, 10% random
 * Before timing, each instance's result is checked against the same MSM computed with a
 * different window and kernel; a mismatch aborts with exit status 1. Bases are a random
 * walk P_i = P_{i-1} + T_j over 16 random multiples T_j of the generator (cheap to make,
 * as good as random points for timing).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk_ec.h"
#include "../src/msm/msm_internal.h" /* internal API: bench/ has no src/ include path */

/* Self-contained helpers (bench_util.h is single-threaded and pins the process to one CPU,
 * which a multithreaded benchmark must not do). */
#define BENCH_MAX_REPS 64

static double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of the whole process (all threads): with threads = 1 on a loaded machine it
 * is a steadier figure than wall time. */
static double bench_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* splitmix64: deterministic inputs, so runs are comparable. */
static uint64_t bench_rand64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double bench_load(void)
{
    double l[1];
    return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

struct bopts {
    int reps;
    unsigned threads;
    int large, sweep, sparse;
    unsigned accum;
    const char *group;
    unsigned lgs[8];
    int nlgs;
};

static uint64_t g_seed = 0x6d736d2d62656e63ull;

static const char *accum_name(unsigned a)
{
    return a == CZK_MSM_ACCUM_AFFINE ? "affine" : a == CZK_MSM_ACCUM_XYZZ ? "xyzz" : "auto";
}

static void fill_scalars(uint64_t (*s)[4], size_t n, const uint64_t *r, int sparse)
{
    for (size_t i = 0; i < n; i++) {
        if (sparse) {
            uint64_t x = bench_rand64(&g_seed) % 100;
            if (x < 90) {
                s[i][0] = x < 45 ? 0 : 1;
                s[i][1] = s[i][2] = s[i][3] = 0;
                continue;
            }
        }
        for (;;) {
            for (int l = 0; l < 4; l++)
                s[i][l] = bench_rand64(&g_seed);
            s[i][3] &= (UINT64_C(1) << (64 - __builtin_clzll(r[3]))) - 1;
            int lt = 0;
            for (int l = 3; l >= 0; l--)
                if (s[i][l] != r[l]) {
                    lt = s[i][l] < r[l];
                    break;
                }
            if (lt)
                break;
        }
    }
}

#define BENCH_GROUP(G, FR, F)                                                                      \
    static void bench_##G(const struct bopts *o)                                                   \
    {                                                                                              \
        if (o->group && strcmp(o->group, #G) != 0)                                                 \
            return;                                                                                \
        unsigned lgs[8] = {12, 14, 16, 18};                                                        \
        int nlg = o->large ? 4 : 3;                                                                \
        if (o->nlgs) {                                                                             \
            memcpy(lgs, o->lgs, sizeof lgs);                                                       \
            nlg = o->nlgs;                                                                         \
        }                                                                                          \
        unsigned maxlg = 0;                                                                        \
        for (int i = 0; i < nlg; i++)                                                              \
            maxlg = lgs[i] > maxlg ? lgs[i] : maxlg;                                               \
        size_t nmax = (size_t)1 << maxlg;                                                          \
        struct czk_##G##_affine *bases = malloc(nmax * sizeof *bases), gen;                        \
        struct czk_##G *jac = malloc(nmax * sizeof *jac), steps[16], cur, out, ref;                \
        struct czk_##F *scratch = malloc(nmax * sizeof *scratch);                                  \
        uint64_t(*sc)[4] = malloc(nmax * sizeof *sc);                                              \
        if (!bases || !jac || !scratch || !sc) {                                                   \
            fprintf(stderr, "czk_bench_msm: out of memory\n");                                     \
            exit(1);                                                                               \
        }                                                                                          \
        const uint64_t *r = czk_##FR##_modulus();                                                  \
        czk_##G##_generator(&gen);                                                                 \
        czk_##G##_from_affine(&cur, &gen);                                                         \
        for (int t = 0; t < 16; t++) {                                                             \
            uint64_t k[4];                                                                         \
            fill_scalars(&k, 1, r, 0);                                                             \
            czk_##G##_mul_limbs(&steps[t], &cur, k, 4);                                            \
        }                                                                                          \
        for (size_t i = 0; i < nmax; i++) {                                                        \
            czk_##G##_add(&cur, &cur, &steps[bench_rand64(&g_seed) & 15]);                         \
            jac[i] = cur;                                                                          \
        }                                                                                          \
        czk_##G##_batch_to_affine(bases, jac, nmax, scratch);                                      \
        free(jac);                                                                                 \
        free(scratch);                                                                             \
        fill_scalars(sc, nmax, r, o->sparse);                                                      \
        for (int li = 0; li < nlg; li++) {                                                         \
            size_t n = (size_t)1 << lgs[li];                                                       \
            struct czk_msm_opts mo = {0, 0, o->accum, 0};                                          \
            struct czk_msm_stats st;                                                               \
            if (czk_msm_##G##_ex(&out, bases, (const uint64_t(*)[4])sc, n, o->threads, &mo,        \
                                 &st) != CZK_OK)                                                   \
                exit(1);                                                                           \
            /* Cross-check with another window and the other kernel. */                            \
            struct czk_msm_opts xo = {                                                             \
                st.c > 4 ? st.c - 3 : st.c + 2, 1,                                                 \
                st.accum == CZK_MSM_ACCUM_AFFINE ? CZK_MSM_ACCUM_XYZZ : CZK_MSM_ACCUM_AFFINE, 0};  \
            if (czk_msm_##G##_ex(&ref, bases, (const uint64_t(*)[4])sc, n, o->threads, &xo,        \
                                 NULL) != CZK_OK ||                                                \
                !czk_##G##_eq(&out, &ref)) {                                                       \
                fprintf(stderr, "czk_bench_msm: %s n=%zu: results disagree\n", #G, n);             \
                exit(1);                                                                           \
            }                                                                                      \
            unsigned c0 = st.c;                                                                    \
            int lo = o->sweep ? -3 : 0, hi = o->sweep ? 3 : 0;                                     \
            for (int dc = lo; dc <= hi; dc++) {                                                    \
                if ((int)c0 + dc < 1 || (int)c0 + dc > (int)CZK_MSM_C_MAX)                         \
                    continue;                                                                      \
                struct czk_msm_opts to = {dc ? c0 + (unsigned)dc : 0, dc ? st.splits : 0,          \
                                          dc ? st.accum : o->accum, 0};                            \
                double v[BENCH_MAX_REPS], u[BENCH_MAX_REPS];                                       \
                struct czk_msm_stats ts;                                                           \
                for (int rep = 0; rep < o->reps; rep++) {                                          \
                    double t0 = bench_now_ns(), c0_ = bench_cpu_ns();                              \
                    czk_msm_##G##_ex(&out, bases, (const uint64_t(*)[4])sc, n, o->threads, &to,    \
                                     &ts);                                                         \
                    v[rep] = (bench_now_ns() - t0) / 1e6;                                          \
                    u[rep] = (bench_cpu_ns() - c0_) / 1e6;                                         \
                }                                                                                  \
                double med = bench_median(v, o->reps), lo_ms = v[0]; /* v is sorted now */         \
                printf("bench: msm group=%s n=%zu threads=%u accum=%s c=%u splits=%u group=%u%s "  \
                       "ms=%.2f min_ms=%.2f cpu_ms=%.2f\n",                                        \
                       #G, n, ts.threads, accum_name(ts.accum), ts.c, ts.splits, ts.group,         \
                       dc ? " (sweep)" : "", med, lo_ms, bench_median(u, o->reps));                \
                fflush(stdout);                                                                    \
            }                                                                                      \
        }                                                                                          \
        free(bases);                                                                               \
        free(sc);                                                                                  \
    }

BENCH_GROUP(g1_bn254, fr_bn254, fp_bn254)
BENCH_GROUP(g2_bn254, fr_bn254, fp2_bn254)
BENCH_GROUP(g1_bls12_381, fr_bls12_381, fp_bls12_381)
BENCH_GROUP(g2_bls12_381, fr_bls12_381, fp2_bls12_381)

static void usage(const char *p)
{
    fprintf(stderr,
            "usage: %s [-q] [-r REPS] [-t THREADS] [--large] [-g GROUP] [-n LG]... "
            "[--accum auto|xyzz|affine] [--sweep] [--sparse]\n",
            p);
    exit(2);
}

int main(int argc, char **argv)
{
    struct bopts o = {5, 0, 0, 0, 0, CZK_MSM_ACCUM_AUTO, NULL, {0}, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-q") == 0) {
            o.reps = 3;
        } else if (strcmp(a, "-r") == 0 && i + 1 < argc) {
            o.reps = atoi(argv[++i]);
            if (o.reps < 1 || o.reps > BENCH_MAX_REPS)
                usage(argv[0]);
        } else if (strcmp(a, "-t") == 0 && i + 1 < argc) {
            o.threads = (unsigned)atoi(argv[++i]);
        } else if (strcmp(a, "--large") == 0) {
            o.large = 1;
        } else if (strcmp(a, "--sweep") == 0) {
            o.sweep = 1;
        } else if (strcmp(a, "--sparse") == 0) {
            o.sparse = 1;
        } else if (strcmp(a, "-g") == 0 && i + 1 < argc) {
            o.group = argv[++i];
        } else if (strcmp(a, "-n") == 0 && i + 1 < argc && o.nlgs < 8) {
            int lg = atoi(argv[++i]);
            if (lg < 0 || lg > 26)
                usage(argv[0]);
            o.lgs[o.nlgs++] = (unsigned)lg;
        } else if (strcmp(a, "--accum") == 0 && i + 1 < argc) {
            const char *k = argv[++i];
            o.accum = strcmp(k, "xyzz") == 0     ? CZK_MSM_ACCUM_XYZZ
                      : strcmp(k, "affine") == 0 ? CZK_MSM_ACCUM_AFFINE
                                                 : CZK_MSM_ACCUM_AUTO;
        } else {
            usage(argv[0]);
        }
    }
    printf("bench: msm reps=%d load=%.2f\n", o.reps, bench_load());
    bench_g1_bn254(&o);
    bench_g2_bn254(&o);
    bench_g1_bls12_381(&o);
    bench_g2_bls12_381(&o);
    return 0;
}
