/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_blst_compare: czk's BLS12-381 pairing against blst (supranational/blst, built
 * outside the repository with its build.sh; cmake -DCZK_BLST_DIR=<dir with libblst.a
 * and bindings/blst.h>). Built only when CZK_BLST_DIR is given; never part of CI.
 *
 * Both libraries keep Fp elements as 6 little-endian 64-bit limbs in Montgomery form
 * with R = 2^384 and use the same Fp12 tower, so points and Fp12 values are copied
 * between them with memcpy. Before timing, the program checks that blst's
 * miller_loop + final_exp agrees with czk_pairing_bls12_381 (exactly, or as the cube
 * of czk's value when blst's final exponentiation computes 3 (p^12 - 1)/r; which one
 * is printed), and that both accept the same cancelling 4-pair product.
 *
 * Timed (median over single-operation samples, the two libraries alternating so
 * that machine noise hits both alike; samples that saw a context switch are retaken): the
 * Groth16-shaped 4-pair check, i.e. for czk czk_pairing_bls12_381_check(P, Q, 4) and for blst
 * blst_miller_loop_n over the 4 pairs + blst_final_exp + blst_fp12_is_one; plus the single Miller
 * loop and final exponentiation of each. Output lines:
 *
 *   bench: pairing curve=bls12_381 op=check4 impl=blst ns=...
 *   bench: pairing curve=bls12_381 op=check4 ratio_czk_over_blst=...
 * Single-threaded; pins itself to the CPU it starts on.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "blst.h"
#include "czk/czk_pairing.h"

_Static_assert(sizeof(blst_fp) == sizeof(struct czk_fp_bls12_381), "Fp layout");
_Static_assert(sizeof(blst_p1_affine) == sizeof(struct czk_g1_bls12_381_affine), "G1 layout");
_Static_assert(sizeof(blst_p2_affine) == sizeof(struct czk_g2_bls12_381_affine), "G2 layout");
_Static_assert(sizeof(blst_fp12) == sizeof(struct czk_fp12_bls12_381), "Fp12 layout");

static volatile uint64_t g_sink;

enum { OP_CHECK4, OP_ML1, OP_FE, OP_N };
static const char *const g_names[OP_N] = {"check4", "miller_loop", "final_exp"};

struct inputs {
    struct czk_g1_bls12_381_affine P[4];
    struct czk_g2_bls12_381_affine Q[4];
    blst_p1_affine bP[4];
    blst_p2_affine bQ[4];
    const blst_p1_affine *bPp[4];
    const blst_p2_affine *bQp[4];
    struct czk_fp12_bls12_381 f;
    blst_fp12 bf;
};

static void run_czk(int op, struct inputs *in, int k)
{
    struct czk_fp12_bls12_381 e;
    if (op == OP_CHECK4) {
        e.c0.c0.c0.l[0] = czk_pairing_bls12_381_check(in->P, in->Q, 4);
    } else if (op == OP_ML1) {
        czk_pairing_bls12_381_miller_loop(&e, &in->P[k & 3], &in->Q[k & 3], 1);
    } else {
        czk_pairing_bls12_381_final_exp(&e, &in->f);
    }
    g_sink += e.c0.c0.c0.l[0];
}

static void run_blst(int op, struct inputs *in, int k)
{
    blst_fp12 e;
    if (op == OP_CHECK4) {
        blst_miller_loop_n(&e, in->bQp, in->bPp, 4);
        blst_final_exp(&e, &e);
        g_sink += blst_fp12_is_one(&e);
    } else if (op == OP_ML1) {
        blst_miller_loop(&e, &in->bQ[k & 3], &in->bP[k & 3]);
    } else {
        blst_final_exp(&e, &in->bf);
    }
    uint64_t w;
    memcpy(&w, &e, sizeof w);
    g_sink += w;
}

int main(int argc, char **argv)
{
    struct bench_opts o = bench_parse(argc, argv);
    static struct inputs in;
    struct czk_g1_bls12_381_affine g1;
    struct czk_g2_bls12_381_affine g2;
    struct czk_g1_bls12_381 j1;
    struct czk_g2_bls12_381 j2;
    struct czk_fr_bls12_381 a;
    uint64_t seed = 0x626c7374ull;

    bench_pin();
    double load = bench_load();
    if (load > 1.0)
        fprintf(stderr, "czk_blst_compare: load average %.2f; figures may be noisy\n", load);

    /* (aG1, G2), (-G1, aG2), twice: the product is 1. */
    czk_g1_bls12_381_generator(&g1);
    czk_g2_bls12_381_generator(&g2);
    for (int i = 0; i < 2; i++) {
        czk_fr_bls12_381_from_u64(&a, bench_rand64(&seed));
        czk_g1_bls12_381_from_affine(&j1, &g1);
        czk_g1_bls12_381_mul(&j1, &j1, &a);
        czk_g1_bls12_381_to_affine(&in.P[2 * i], &j1);
        in.Q[2 * i] = g2;
        czk_g1_bls12_381_affine_neg(&in.P[2 * i + 1], &g1);
        czk_g2_bls12_381_from_affine(&j2, &g2);
        czk_g2_bls12_381_mul(&j2, &j2, &a);
        czk_g2_bls12_381_to_affine(&in.Q[2 * i + 1], &j2);
    }
    for (int i = 0; i < 4; i++) {
        memcpy(&in.bP[i], &in.P[i], sizeof in.bP[i]);
        memcpy(&in.bQ[i], &in.Q[i], sizeof in.bQ[i]);
        in.bPp[i] = &in.bP[i];
        in.bQp[i] = &in.bQ[i];
        if (!blst_p1_affine_in_g1(&in.bP[i]) || !blst_p2_affine_in_g2(&in.bQ[i])) {
            fprintf(stderr, "czk_blst_compare: blst rejects input point %d\n", i);
            return 1;
        }
    }

    /* Agreement of the values. */
    struct czk_fp12_bls12_381 ce, cube;
    blst_fp12 be;
    czk_pairing_bls12_381(&ce, &in.P[0], &in.Q[0]);
    blst_miller_loop(&be, &in.bQ[0], &in.bP[0]);
    blst_final_exp(&be, &be);
    czk_fp12_bls12_381_sqr(&cube, &ce);
    czk_fp12_bls12_381_mul(&cube, &cube, &ce);
    const char *rel;
    if (memcmp(&be, &ce, sizeof be) == 0)
        rel = "blst == czk";
    else if (memcmp(&be, &cube, sizeof be) == 0)
        rel = "blst == czk^3 (blst's final exponentiation is 3 (p^12 - 1)/r)";
    else {
        fprintf(stderr, "czk_blst_compare: pairing values disagree\n");
        return 1;
    }
    printf("values: e(P, Q): %s\n", rel);
    blst_miller_loop_n(&be, in.bQp, in.bPp, 4);
    blst_final_exp(&be, &be);
    if (!blst_fp12_is_one(&be) || !czk_pairing_bls12_381_check(in.P, in.Q, 4)) {
        fprintf(stderr, "czk_blst_compare: 4-pair check disagrees\n");
        return 1;
    }
    czk_pairing_bls12_381_miller_loop(&in.f, in.P, in.Q, 1);
    blst_miller_loop(&in.bf, &in.bQ[0], &in.bP[0]);

    /* One operation per sample, czk and blst alternating; BENCH_TIME retakes samples
     * during which the thread was switched out. */
    int ns = (int)bench_iters(&o, BENCH_MAX_REPS);
    if (ns < o.reps)
        ns = o.reps;
    if (ns > BENCH_MAX_REPS)
        ns = BENCH_MAX_REPS;
    for (int op = 0; op < OP_N; op++) {
        double vc[BENCH_MAX_REPS], vb[BENCH_MAX_REPS], vr[BENCH_MAX_REPS];
        for (int r = 0; r < ns; r++) {
            BENCH_TIME(vc[r], run_czk(op, &in, r));
            BENCH_TIME(vb[r], run_blst(op, &in, r));
            vr[r] = vc[r] / vb[r];
        }
        double mc = bench_median(vc, ns), mb = bench_median(vb, ns);
        double mr = bench_median(vr, ns);
        printf("bench: pairing curve=bls12_381 op=%s impl=czk ns=%.1f\n", g_names[op], mc);
        printf("bench: pairing curve=bls12_381 op=%s impl=blst ns=%.1f\n", g_names[op], mb);
        printf("bench: pairing curve=bls12_381 op=%s ratio_czk_over_blst=%.2f\n", g_names[op], mr);
        fflush(stdout);
    }
    printf("bench: pairing retakes=%ld load=%.2f\n", bench_retakes, bench_load());
    return 0;
}
