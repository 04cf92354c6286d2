/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — the optimal ate pairing of BN254 and BLS12-381, and the Fp6/Fp12 towers
 * its values live in.
 *
 * Towers (the ones @noble/curves and blst use, so values
 * compare coefficient by coefficient):
 *
 *   Fp6  = Fp2[v] / (v^3 - xi)     element c0 + c1*v + c2*v^2
 *   Fp12 = Fp6[w] / (w^2 - v)      element c0 + c1*w
 *
 * with xi = 9 + u (BN254) and 1 + u (BLS12-381), the non-residue of czk_ff.h.
 * Coefficients are Montgomery-form field elements like every czk field element.
 *
 * The pairing e: G1 x G2 -> GT is the optimal ate pairing followed by the
 * standard final exponentiation to the power (p^12 - 1)/r, so e(P, Q)^r == 1 and
 * e(aP, bQ) == e(P, Q)^(ab). (@noble/curves returns e(P, Q)^m for a fixed m
 * coprime to r: m = 2x(6x^2 + 3x + 1) on BN254, m = 3 on BLS12-381, because its
 * final-exponentiation chains compute multiples of the hard part; czk's values
 * raised to m equal noble's. blst's BLS12-381 final exponentiation likewise
 * returns the cube.)
 *
 * Conventions:
 *  - Inputs are affine points assumed on the curve and in the order-r subgroup
 *    (the decoders of czk_ec.h check that); the point at infinity (0, 0) is
 *    accepted and makes its pair contribute 1.
 *  - Output pointers may alias inputs.
 *  - Nothing allocates, logs or locks; every function is thread-safe.
 *  - The pairing and the Fp12 operations are not constant-time in every value
 *    (infinity is skipped, pow is variable-time in the exponent); the pairing
 *    is meant for public data (proof verification).
 */
#ifndef CZK_CZK_PAIRING_H
#define CZK_CZK_PAIRING_H

#include "czk_ec.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * CZK_PAIRING_DECLARE(C) declares the towers and the pairing of curve C
 * (bn254 or bls12_381):
 *
 *  struct czk_fp6_C  { czk_fp2_C c0, c1, c2; }     c0 + c1 v + c2 v^2
 *  struct czk_fp12_C { czk_fp6_C c0, c1; }         c0 + c1 w
 *
 *  czk_fp6_C_zero/one(r), is_zero(a), eq(a, b)   constants and predicates.
 *  czk_fp6_C_add/sub/mul(r, a, b), neg/sqr(r, a)  ring operations.
 *  czk_fp6_C_inv(r, a)                            r = a^-1; inv(0) = 0.
 *
 *  czk_fp12_C_zero/one(r), is_one(a), eq(a, b)   constants and predicates.
 *  czk_fp12_C_mul(r, a, b), sqr(r, a)             ring operations.
 *  czk_fp12_C_inv(r, a)                           r = a^-1; inv(0) = 0.
 *  czk_fp12_C_conj(r, a)                          c0 - c1 w = a^(p^6); equals a^-1 for
 *                                                 a in GT (and any a^(p^6-1)).
 *  czk_fp12_C_frobenius(r, a, k)                  r = a^(p^k), any k (taken mod 12).
 *  czk_fp12_C_pow(r, a, e, n)                     r = a^e, e given as n little-endian
 *                                                 64-bit limbs (variable time in e).
 *  czk_fp12_C_cyclotomic_sqr(r, a)                r = a^2 for a in the cyclotomic
 *                                                 subgroup (a^(p^4 - p^2 + 1) == 1, which
 *                                                 holds after the easy part of the final
 *                                                 exponentiation and for every GT element);
 *                                                 Granger-Scott squaring, garbage otherwise.
 *
 *  czk_pairing_C_miller_loop(f, p, q, n)   f = product over i < n of the optimal ate
 *                                          Miller loops f_{p_i, q_i} (before the final
 *                                          exponentiation); pairs with p_i or q_i at
 *                                          infinity contribute 1; n == 0 gives 1. The
 *                                          loops share their squarings.
 *  czk_pairing_C_final_exp(r, f)           r = f^((p^12 - 1)/r).
 *  czk_pairing_C(r, p, q)                  r = e(p, q) = final_exp(miller_loop(p, q)).
 *  czk_pairing_C_check(p, q, n)            true iff the product of e(p_i, q_i) over i < n
 *                                          is 1 (one shared final exponentiation). True
 *                                          for n == 0. Groth16 verification calls it
 *                                          with 4 pairs.
 */
#define CZK_PAIRING_DECLARE(C)                                                                     \
    struct czk_fp6_##C {                                                                           \
        struct czk_fp2_##C c0, c1, c2;                                                             \
    };                                                                                             \
    struct czk_fp12_##C {                                                                          \
        struct czk_fp6_##C c0, c1;                                                                 \
    };                                                                                             \
    CZK_API void czk_fp6_##C##_zero(struct czk_fp6_##C *r);                                        \
    CZK_API void czk_fp6_##C##_one(struct czk_fp6_##C *r);                                         \
    CZK_API bool czk_fp6_##C##_is_zero(const struct czk_fp6_##C *a);                               \
    CZK_API bool czk_fp6_##C##_eq(const struct czk_fp6_##C *a, const struct czk_fp6_##C *b);       \
    CZK_API void czk_fp6_##C##_add(struct czk_fp6_##C *r, const struct czk_fp6_##C *a,             \
                                   const struct czk_fp6_##C *b);                                   \
    CZK_API void czk_fp6_##C##_sub(struct czk_fp6_##C *r, const struct czk_fp6_##C *a,             \
                                   const struct czk_fp6_##C *b);                                   \
    CZK_API void czk_fp6_##C##_neg(struct czk_fp6_##C *r, const struct czk_fp6_##C *a);            \
    CZK_API void czk_fp6_##C##_mul(struct czk_fp6_##C *r, const struct czk_fp6_##C *a,             \
                                   const struct czk_fp6_##C *b);                                   \
    CZK_API void czk_fp6_##C##_sqr(struct czk_fp6_##C *r, const struct czk_fp6_##C *a);            \
    CZK_API void czk_fp6_##C##_inv(struct czk_fp6_##C *r, const struct czk_fp6_##C *a);            \
    CZK_API void czk_fp12_##C##_zero(struct czk_fp12_##C *r);                                      \
    CZK_API void czk_fp12_##C##_one(struct czk_fp12_##C *r);                                       \
    CZK_API bool czk_fp12_##C##_is_one(const struct czk_fp12_##C *a);                              \
    CZK_API bool czk_fp12_##C##_eq(const struct czk_fp12_##C *a, const struct czk_fp12_##C *b);    \
    CZK_API void czk_fp12_##C##_mul(struct czk_fp12_##C *r, const struct czk_fp12_##C *a,          \
                                    const struct czk_fp12_##C *b);                                 \
    CZK_API void czk_fp12_##C##_sqr(struct czk_fp12_##C *r, const struct czk_fp12_##C *a);         \
    CZK_API void czk_fp12_##C##_inv(struct czk_fp12_##C *r, const struct czk_fp12_##C *a);         \
    CZK_API void czk_fp12_##C##_conj(struct czk_fp12_##C *r, const struct czk_fp12_##C *a);        \
    CZK_API void czk_fp12_##C##_frobenius(struct czk_fp12_##C *r, const struct czk_fp12_##C *a,    \
                                          unsigned k);                                             \
    CZK_API void czk_fp12_##C##_pow(struct czk_fp12_##C *r, const struct czk_fp12_##C *a,          \
                                    const uint64_t *e, size_t nlimbs);                             \
    CZK_API void czk_fp12_##C##_cyclotomic_sqr(struct czk_fp12_##C *r,                             \
                                               const struct czk_fp12_##C *a);                      \
    CZK_API void czk_pairing_##C##_miller_loop(struct czk_fp12_##C *f,                             \
                                               const struct czk_g1_##C##_affine *p,                \
                                               const struct czk_g2_##C##_affine *q, size_t n);     \
    CZK_API void czk_pairing_##C##_final_exp(struct czk_fp12_##C *r,                               \
                                             const struct czk_fp12_##C *f);                        \
    CZK_API void czk_pairing_##C(struct czk_fp12_##C *r, const struct czk_g1_##C##_affine *p,      \
                                 const struct czk_g2_##C##_affine *q);                             \
    CZK_API bool czk_pairing_##C##_check(const struct czk_g1_##C##_affine *p,                      \
                                         const struct czk_g2_##C##_affine *q, size_t n);

CZK_PAIRING_DECLARE(bn254)
CZK_PAIRING_DECLARE(bls12_381)

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_PAIRING_H */
