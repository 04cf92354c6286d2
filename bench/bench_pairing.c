/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_bench_pairing: latency of the optimal ate pairing of BN254 and BLS12-381 —
 * one full pairing, one Miller loop, one final exponentiation, the Miller loop of
 * 4 pairs, and the 4-pair product check that Groth16 verification performs
 * (4 interleaved Miller loops + one final exponentiation). Each figure is the
 * median over single-operation samples (64, or -r of them in quick mode; samples
 * during which the thread was switched out are retaken), printed as
 *
 *   bench: pairing curve=bls12_381 op=check4 impl=czk ns=1234567.8
 *
 * and summarised in a table at the end. Inputs are fixed multiples of the
 * generators; before timing, e(aP, Q) e(-P, aQ) == 1 is checked (exit status 1
 * if not). Single-threaded; pins itself to the CPU it starts on.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "czk/czk_pairing.h"

struct pr_result {
    const char *curve, *op;
    double ns;
};

static struct pr_result g_results[16];
static int g_nresults;

static void bench_record(const char *curve, const char *op, double ns)
{
    if (g_nresults < (int)(sizeof g_results / sizeof g_results[0]))
        g_results[g_nresults++] = (struct pr_result){curve, op, ns};
    printf("bench: pairing curve=%s op=%s impl=czk ns=%.1f\n", curve, op, ns);
    fflush(stdout);
}

/* Keeps the optimiser from dropping results. */
static volatile uint64_t g_sink;

/*
 * BENCH_CURVE(C): points P_i = [k_i]G1, Q_i = [l_i]G2 (deterministic k_i, l_i), then
 * the timings. CHECK4 is arranged to hold: pairs (aG1, G2), (-G1, aG2) twice.
 */
#define BENCH_CURVE(C)                                                                             \
    static void bench_##C(const struct bench_opts *o)                                              \
    {                                                                                              \
        struct czk_g1_##C##_affine g1, P[4];                                                       \
        struct czk_g2_##C##_affine g2, Q[4];                                                       \
        struct czk_g1_##C j1;                                                                      \
        struct czk_g2_##C j2;                                                                      \
        struct czk_fr_##C a;                                                                       \
        struct czk_fp12_##C f, e;                                                                  \
        uint64_t seed = 0x70616972ull;                                                             \
        czk_g1_##C##_generator(&g1);                                                               \
        czk_g2_##C##_generator(&g2);                                                               \
        for (int i = 0; i < 2; i++) {                                                              \
            czk_fr_##C##_from_u64(&a, bench_rand64(&seed));                                        \
            czk_g1_##C##_from_affine(&j1, &g1);                                                    \
            czk_g1_##C##_mul(&j1, &j1, &a);                                                        \
            czk_g1_##C##_to_affine(&P[2 * i], &j1);                                                \
            Q[2 * i] = g2;                                                                         \
            czk_g1_##C##_affine_neg(&P[2 * i + 1], &g1);                                           \
            czk_g2_##C##_from_affine(&j2, &g2);                                                    \
            czk_g2_##C##_mul(&j2, &j2, &a);                                                        \
            czk_g2_##C##_to_affine(&Q[2 * i + 1], &j2);                                            \
        }                                                                                          \
        if (!czk_pairing_##C##_check(P, Q, 4)) {                                                   \
            fprintf(stderr, "czk_bench_pairing: %s: check of a cancelling product failed\n", #C);  \
            exit(1);                                                                               \
        }                                                                                          \
        double v[BENCH_MAX_REPS];                                                                  \
        /* one operation per sample (about a millisecond), so that few samples see a               \
         * context switch; BENCH_TIME retakes those that do */                                     \
        int ns = (int)bench_iters(o, BENCH_MAX_REPS);                                              \
        if (ns < o->reps)                                                                          \
            ns = o->reps;                                                                          \
        if (ns > BENCH_MAX_REPS)                                                                   \
            ns = BENCH_MAX_REPS;                                                                   \
        enum { OP_PAIR, OP_ML1, OP_FE, OP_ML4, OP_CHECK4, OP_N };                                  \
        static const char *const names[OP_N] = {"pairing", "miller_loop", "final_exp",             \
                                                "miller_loop4", "check4"};                         \
        czk_pairing_##C##_miller_loop(&f, P, Q, 1);                                                \
        for (int op = 0; op < OP_N; op++) {                                                        \
            for (int k = 0; k < ns; k++) {                                                         \
                switch (op) {                                                                      \
                case OP_PAIR: BENCH_TIME(v[k], czk_pairing_##C(&e, &P[k & 3], &Q[k & 3])); break;  \
                case OP_ML1:                                                                       \
                    BENCH_TIME(v[k], czk_pairing_##C##_miller_loop(&e, &P[k & 3], &Q[k & 3], 1));  \
                    break;                                                                         \
                case OP_FE: BENCH_TIME(v[k], czk_pairing_##C##_final_exp(&e, &f)); break;          \
                case OP_ML4: BENCH_TIME(v[k], czk_pairing_##C##_miller_loop(&e, P, Q, 4)); break;  \
                default:                                                                           \
                    BENCH_TIME(v[k], e.c0.c0.c0.l[0] = czk_pairing_##C##_check(P, Q, 4));          \
                    break;                                                                         \
                }                                                                                  \
                g_sink += e.c0.c0.c0.l[0];                                                         \
            }                                                                                      \
            bench_record(#C, names[op], bench_median(v, ns));                                      \
        }                                                                                          \
    }

BENCH_CURVE(bn254)
BENCH_CURVE(bls12_381)

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse(argc, argv);
    bench_pin();
    double load = bench_load();
    if (load > 1.0)
        fprintf(stderr, "czk_bench_pairing: load average %.2f; figures may be noisy\n", load);
    bench_bn254(&o);
    bench_bls12_381(&o);
    printf("bench: pairing retakes=%ld load=%.2f\n", bench_retakes, bench_load());
    printf("\n| curve | op | czk us |\n|---|---|---:|\n");
    for (int i = 0; i < g_nresults; i++)
        printf("| %s | %s | %.1f |\n", g_results[i].curve, g_results[i].op, g_results[i].ns / 1e3);
    return 0;
}
