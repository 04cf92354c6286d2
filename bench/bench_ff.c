/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_bench_ff: prime-field arithmetic of czk against ffiasm, the generated
 * x86-64 assembly that rapidsnark uses, in the same process on the same inputs.
 *
 * For fp_bn254, fr_bn254, fp_bls12_381 and fr_bls12_381 it reports ns/op of czk's
 * mul, sqr, add, inv and inv_vartime and of ffiasm's rawMMul, rawMSquare and
 * rawAdd, as latency (dependent chain) and throughput (NELEM independent
 * elements), the median of several repetitions, one machine-readable line each:
 *
 *   bench: ff field=fp_bn254 op=mul mode=lat impl=czk ns=21.40
 *
 * then a table with the ratio czk/ffiasm and the verdict on the target (czk mul
 * within 1.3x of ffiasm for every field). Both libraries keep elements in
 * Montgomery form with R = 2^(64N) and fully reduced, so their results must agree
 * bit for bit; any disagreement aborts with exit status 1. Built without the
 * ffiasm objects (CZK_BENCH_FFIASM undefined) it times czk alone.
 *
 * Single-threaded; pins itself to the CPU it starts on.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "czk/czk_ff.h"

#ifndef CZK_BENCH_FFIASM
#define CZK_BENCH_FFIASM 0
#endif

#define NELEM 1024
#define TARGET_RATIO 1.3

struct ff_result {
    const char *field, *op, *mode;
    double czk, ffi; /* median ns/op; ffi < 0: no ffiasm counterpart */
};

static struct ff_result g_results[64];
static int g_nresults;

static void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bench_die(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "czk_bench_ff: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

static void bench_record(const char *field, const char *op, const char *mode, double czk,
                         double ffi)
{
    if (g_nresults == (int)(sizeof g_results / sizeof g_results[0]))
        bench_die("too many results");
    g_results[g_nresults++] = (struct ff_result){field, op, mode, czk, ffi};
    printf("bench: ff field=%s op=%s mode=%s impl=czk ns=%.2f\n", field, op, mode, czk);
    if (ffi >= 0)
        printf("bench: ff field=%s op=%s mode=%s impl=ffiasm ns=%.2f\n", field, op, mode, ffi);
    fflush(stdout);
}

#define BF fp_bn254
#define BF_N 4
#include "bench_ff_field.h"
#define BF fr_bn254
#define BF_N 4
#include "bench_ff_field.h"
#define BF fp_bls12_381
#define BF_N 6
#include "bench_ff_field.h"
#define BF fr_bls12_381
#define BF_N 4
#include "bench_ff_field.h"

/* Spin for about `ms` milliseconds so that the core leaves its idle clock. */
static void warm_up(double ms)
{
    struct czk_fp_bn254 x;
    czk_fp_bn254_from_u64(&x, 3);
    double t0 = bench_now_ns();
    while (bench_now_ns() - t0 < ms * 1e6)
        for (int i = 0; i < 1000; i++)
            czk_fp_bn254_sqr(&x, &x);
    if (czk_fp_bn254_is_zero(&x))
        bench_die("warm-up reached zero");
}

static void print_table(void)
{
    double worst = 0;
    printf("\n%-13s %-12s %-4s %10s %10s %8s\n", "field", "op", "mode", "czk ns", "ffiasm ns",
           "czk/ffi");
    for (int i = 0; i < g_nresults; i++) {
        const struct ff_result *r = &g_results[i];
        if (r->ffi >= 0) {
            double ratio = r->czk / r->ffi;
            printf("%-13s %-12s %-4s %10.2f %10.2f %8.2f\n", r->field, r->op, r->mode, r->czk,
                   r->ffi, ratio);
            if (strcmp(r->op, "mul") == 0 && ratio > worst)
                worst = ratio;
        } else {
            printf("%-13s %-12s %-4s %10.2f %10s %8s\n", r->field, r->op, r->mode, r->czk, "-",
                   "-");
        }
    }
    if (CZK_BENCH_FFIASM) {
        printf("\nbench: ff target=mul_ratio_le_%.1f worst_mul_ratio=%.2f status=%s\n",
               TARGET_RATIO, worst, worst <= TARGET_RATIO ? "met" : "missed");
    } else {
        printf("\nbench: ff target=mul_ratio_le_%.1f status=unknown (built without ffiasm)\n",
               TARGET_RATIO);
    }
}

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse(argc, argv);
    bench_pin();
    printf("bench: ff reps=%d work=%.2f ffiasm=%s nelem=%d load=%.2f\n", o.reps, o.work,
           CZK_BENCH_FFIASM ? "yes" : "no", NELEM, bench_load());
    warm_up(o.work < 1 ? 50 : 300);
    bf_fp_bn254_run(&o, 1);
    bf_fr_bn254_run(&o, 2);
    bf_fp_bls12_381_run(&o, 3);
    bf_fr_bls12_381_run(&o, 4);
    print_table();
    printf("bench: ff retakes=%ld load=%.2f\n", bench_retakes, bench_load());
    return 0;
}
