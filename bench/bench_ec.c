/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_bench_ec: latency of the elliptic-curve group operations of czk for G1 and
 * G2 of BN254 and BLS12-381: Jacobian add (and its constant-time add_ct), mixed
 * add with an affine point, doubling, and scalar multiplication by a full-size
 * random scalar (mul, variable-time wNAF; mul_ct, constant-time). Each figure is
 * the median over repetitions of a dependent chain r = op(r, ...), printed as
 *
 *   bench: ec group=g1_bn254 op=add impl=czk ns=412.3
 *
 * and summarised in a table at the end. Before timing, the entry points that
 * must agree are compared and any disagreement aborts with exit status 1.
 * Single-threaded; pins itself to the CPU it starts on.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "czk/czk_ec.h"

struct ec_result {
    const char *group, *op;
    double ns;
};

static struct ec_result g_results[64];
static int g_nresults;

static void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bench_die(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "czk_bench_ec: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

static void bench_record(const char *group, const char *op, double ns)
{
    if (g_nresults == (int)(sizeof g_results / sizeof g_results[0]))
        bench_die("too many results");
    g_results[g_nresults++] = (struct ec_result){group, op, ns};
    printf("bench: ec group=%s op=%s impl=czk ns=%.1f\n", group, op, ns);
    fflush(stdout);
}

#define BE g1_bn254
#define BE_FR fr_bn254
#define BE_NF 1
#include "bench_ec_group.h"
#define BE g2_bn254
#define BE_FR fr_bn254
#define BE_NF 2
#include "bench_ec_group.h"
#define BE g1_bls12_381
#define BE_FR fr_bls12_381
#define BE_NF 1
#include "bench_ec_group.h"
#define BE g2_bls12_381
#define BE_FR fr_bls12_381
#define BE_NF 2
#include "bench_ec_group.h"

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse(argc, argv);
    bench_pin();
    printf("bench: ec reps=%d work=%.2f load=%.2f\n", o.reps, o.work, bench_load());
    be_g1_bn254_run(&o, 11);
    be_g2_bn254_run(&o, 12);
    be_g1_bls12_381_run(&o, 13);
    be_g2_bls12_381_run(&o, 14);

    printf("\n%-13s %-11s %12s %10s\n", "group", "op", "ns/op", "us/op");
    for (int i = 0; i < g_nresults; i++)
        printf("%-13s %-11s %12.1f %10.2f\n", g_results[i].group, g_results[i].op,
               g_results[i].ns, g_results[i].ns / 1e3);
    printf("bench: ec retakes=%ld load=%.2f\n", bench_retakes, bench_load());
    return 0;
}
