/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BN254 (alt_bn128) optimal ate pairing.
 *
 * x = 4965661367192848881; the Miller loop runs over the NAF of 6x + 2 and ends with
 * the two Frobenius additions T + psi(Q), then the line to -psi^2(Q), where psi is
 * the p-power Frobenius pulled back to the D-type twist E': y^2 = x^3 + 3/xi,
 * psi(x, y) = (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)) and
 * psi^2(x, y) = (x xi^((p^2-1)/3), -y).
 *
 * The hard part of the final exponentiation, (p^4 - p^2 + 1)/r = l0 + l1 p + l2 p^2 +
 * l3 p^3 with l3 = 1, l2 = 6x^2 + 1, l1 = -36x^3 - 18x^2 - 12x + 1,
 * l0 = -36x^3 - 30x^2 - 18x - 2, follows Scott, Benger, Charlemagne, Dominguez Perez
 * and Kachisa ("On the final exponentiation for calculating pairings on ordinary
 * elliptic curves", Pairing 2009): three exponentiations by x with cyclotomic
 * squarings, then a vectorial addition chain. It computes exactly that exponent
 * (@noble/curves uses the Fuentes-Castaneda et al. chain, whose result is the
 * standard pairing raised to m = 2x(6x^2 + 3x + 1)).
 */
#define PR bn254
#define PR_N 4
#define PR_C(x) BN254##x
#define PR_XI0 9
#define PR_TWIST_D 1
#define PR_LOOP_LEN (sizeof BN254_LOOP / sizeof BN254_LOOP[0])
#include "pairing/tower_impl.h"
#include "pairing/pairing_impl.h"

/* 3 b' = 9/xi, a general Fp2 constant. */
static void mul_by_3b(fp2_t *r, const fp2_t *a) { fp2_mul(r, a, &BN254_TWIST_3B); }

static void miller_tail(fp12_t *f, struct ml_pair *st, size_t m)
{
    struct ml_line l;
    for (size_t j = 0; j < m; j++) {
        fp2_t x1, y1, x2;
        /* Q1 = psi(Q) */
        fp2_conj(&x1, &st[j].qx);
        fp2_mul(&x1, &x1, &BN254_PSI_X);
        fp2_conj(&y1, &st[j].qy);
        fp2_mul(&y1, &y1, &BN254_PSI_Y);
        add_step(&st[j], &x1, &y1, &l, true);
        fp12_mul_line(f, &l);
        /* -Q2 = -psi^2(Q) = (x xi^((p^2-1)/3), y); T is not needed afterwards. */
        fp2_mul_fp(&x2, &st[j].qx, &BN254_PSI2_X);
        add_step(&st[j], &x2, &st[j].qy, &l, false);
        fp12_mul_line(f, &l);
    }
}

/* f^x, x > 0 */
static void exp_by_x(fp12_t *r, const fp12_t *f)
{
    fp12_cyc_exp(r, f, BN254_X_NAF, sizeof BN254_X_NAF / sizeof BN254_X_NAF[0]);
}

static void final_exp_hard(fp12_t *r, const fp12_t *f)
{
    fp12_t fx, fx2, fx3, y0, y1, y2, y3, y4, y5, y6, t0, t1;
    exp_by_x(&fx, f);
    exp_by_x(&fx2, &fx);
    exp_by_x(&fx3, &fx2);

    fp12_frob(&y0, f, 1);
    fp12_frob(&t0, f, 2);
    fp12_mul(&y0, &y0, &t0);
    fp12_frob(&t0, f, 3);
    fp12_mul(&y0, &y0, &t0); /* f^(p + p^2 + p^3) */
    fp12_conj(&y1, f);       /* f^-1 */
    fp12_frob(&y2, &fx2, 2); /* f^(x^2 p^2) */
    fp12_frob(&y3, &fx, 1);
    fp12_conj(&y3, &y3); /* f^(-x p) */
    fp12_frob(&y4, &fx2, 1);
    fp12_mul(&y4, &y4, &fx);
    fp12_conj(&y4, &y4);  /* f^(-x - x^2 p) */
    fp12_conj(&y5, &fx2); /* f^(-x^2) */
    fp12_frob(&y6, &fx3, 1);
    fp12_mul(&y6, &y6, &fx3);
    fp12_conj(&y6, &y6); /* f^(-x^3 - x^3 p) */

    /* y0 y1^2 y2^6 y3^12 y4^18 y5^30 y6^36 */
    fp12_cyc_sqr(&t0, &y6);
    fp12_mul(&t0, &t0, &y4);
    fp12_mul(&t0, &t0, &y5);
    fp12_mul(&t1, &y3, &y5);
    fp12_mul(&t1, &t1, &t0);
    fp12_mul(&t0, &t0, &y2);
    fp12_cyc_sqr(&t1, &t1);
    fp12_mul(&t1, &t1, &t0);
    fp12_cyc_sqr(&t1, &t1);
    fp12_mul(&t0, &t1, &y1);
    fp12_mul(&t1, &t1, &y0);
    fp12_cyc_sqr(&t0, &t0);
    fp12_mul(r, &t0, &t1);
}
