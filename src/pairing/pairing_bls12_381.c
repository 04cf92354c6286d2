/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BLS12-381 optimal ate pairing.
 *
 * x = -0xd201000000010000; the Miller loop runs over the bits of |x| on the M-type
 * twist E': y^2 = x^3 + 4 xi and conjugates the result at the end because x < 0
 * (f_{x,Q} = 1/f_{|x|,Q} up to factors killed by the final exponentiation, and the
 * inverse equals the conjugate after it).
 *
 * Hard part: with 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3
 * (Hayashida, Hayasaka and Teruya, 2020) and 3 | x - 1, the exact exponent is
 *   (p^4 - p^2 + 1)/r = ((x - 1)^2 / 3) (x + p)(x^2 + p^2 - 1) + 1,
 * and (x - 1)^2 / 3 = k (x - 1) with k = (x - 1)/3. czk computes it as
 *   a = f^k, g = a^(x-1), h = g^(x + p), result = h^(x^2 + p^2 - 1) * f,
 * five exponentiations as in the usual chain, one of them by the denser k. This is
 * the standard (p^12 - 1)/r pairing; @noble/curves (and the 3 (...) chain) returns
 * its cube.
 */
#define PR bls12_381
#define PR_N 6
#define PR_C(x) BLS12_381##x
#define PR_XI0 1
#define PR_TWIST_D 0
#define PR_LOOP_LEN (sizeof BLS12_381_LOOP / sizeof BLS12_381_LOOP[0])
#include "pairing/tower_impl.h"
#include "pairing/pairing_impl.h"

/* 3 b' = 12 (1 + u): one multiplication by xi and additions. */
static void mul_by_3b(fp2_t *r, const fp2_t *a)
{
    fp2_t t;
    fp2_mul_xi(&t, a);
    fp2_dbl(&t, &t);
    fp2_dbl(&t, &t); /* 4 xi a */
    fp2_dbl(r, &t);
    fp2_add(r, r, &t); /* 12 xi a */
}

static void miller_tail(fp12_t *f, struct ml_pair *st, size_t m)
{
    (void)st;
    (void)m;
    fp12_conj(f, f);
}

/* f^x = conj(f^|x|), x < 0, f cyclotomic */
static void exp_by_x(fp12_t *r, const fp12_t *f)
{
    fp12_cyc_exp(r, f, BLS12_381_X_NAF, sizeof BLS12_381_X_NAF / sizeof BLS12_381_X_NAF[0]);
    fp12_conj(r, r);
}

static void final_exp_hard(fp12_t *r, const fp12_t *f)
{
    fp12_t a, g, h, t;
    /* a = f^k, k = (x - 1)/3 < 0 */
    fp12_cyc_exp(&a, f, BLS12_381_K_NAF, sizeof BLS12_381_K_NAF / sizeof BLS12_381_K_NAF[0]);
    fp12_conj(&a, &a);
    /* g = a^(x - 1) = f^((x - 1)^2 / 3) */
    exp_by_x(&g, &a);
    fp12_conj(&t, &a);
    fp12_mul(&g, &g, &t);
    /* h = g^(x + p) */
    exp_by_x(&h, &g);
    fp12_frob(&t, &g, 1);
    fp12_mul(&h, &h, &t);
    /* h^(x^2 + p^2 - 1) * f */
    exp_by_x(&g, &h);
    exp_by_x(&g, &g);
    fp12_frob(&t, &h, 2);
    fp12_mul(&g, &g, &t);
    fp12_conj(&t, &h);
    fp12_mul(&g, &g, &t);
    fp12_mul(r, &g, f);
}
