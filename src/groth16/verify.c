/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Groth16 verification on parsed structs (czk_groth16_verify).
 *
 * For public signals s_1..s_n the verifier forms the public-input commitment
 * IC = IC_0 + sum_i s_i * IC_i with variable-time scalar multiplications (all of
 * it is public data) and accepts iff
 *     e(-A, B) * e(alpha, beta) * e(IC, gamma) * e(C, delta) == 1,
 * which is the Groth16 equation e(A, B) = e(alpha, beta) e(IC, gamma) e(C, delta)
 * evaluated as one multi-pairing (one shared final exponentiation).
 *
 * The body is written once as a macro and instantiated for BN254 and BLS12-381.
 * Inputs are trusted to be valid group elements (the JSON parsers check that).
 * No allocation, no global state; thread-safe.
 */
#include "czk/czk_groth16.h"
#include "czk/czk_pairing.h"

#define CZK_GROTH16_VERIFY_IMPL(C)                                                                 \
    static bool verify_##C(const struct czk_groth16_vkey_##C *vk, const struct czk_fr_##C *s,      \
                           size_t n, const struct czk_groth16_proof_##C *pr)                       \
    {                                                                                              \
        struct czk_g1_##C acc, base, term;                                                         \
        struct czk_g1_##C##_affine p[4];                                                           \
        struct czk_g2_##C##_affine q[4];                                                           \
                                                                                                   \
        /* IC = IC_0 + sum s_i * IC_i */                                                           \
        czk_g1_##C##_from_affine(&acc, &vk->ic[0]);                                                \
        for (size_t i = 0; i < n; i++) {                                                           \
            if (czk_fr_##C##_is_zero(&s[i]) || czk_g1_##C##_affine_is_inf(&vk->ic[i + 1]))         \
                continue;                                                                          \
            czk_g1_##C##_from_affine(&base, &vk->ic[i + 1]);                                       \
            czk_g1_##C##_mul(&term, &base, &s[i]);                                                 \
            czk_g1_##C##_add(&acc, &acc, &term);                                                   \
        }                                                                                          \
        /* e(-A, B) e(alpha, beta) e(IC, gamma) e(C, delta) == 1 */                                \
        czk_g1_##C##_affine_neg(&p[0], &pr->a);                                                    \
        q[0] = pr->b;                                                                              \
        p[1] = vk->alpha;                                                                          \
        q[1] = vk->beta;                                                                           \
        czk_g1_##C##_to_affine(&p[2], &acc);                                                       \
        q[2] = vk->gamma;                                                                          \
        p[3] = pr->c;                                                                              \
        q[3] = vk->delta;                                                                          \
        return czk_pairing_##C##_check(p, q, 4);                                                   \
    }

CZK_GROTH16_VERIFY_IMPL(bn254)
CZK_GROTH16_VERIFY_IMPL(bls12_381)

enum czk_status czk_groth16_verify(const struct czk_groth16_vkey *vk,
                                   const struct czk_groth16_public *pub,
                                   const struct czk_groth16_proof *proof, char *err, size_t errlen)
{
    bool ok;

    if (!vk || !pub || !proof)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    if (vk->curve != CZK_GROTH16_CURVE_BN254 && vk->curve != CZK_GROTH16_CURVE_BLS12_381)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "vkey: no curve (not parsed?)");
    if (proof->curve != vk->curve)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "vkey: curve %s but proof is for %s",
                        czk_groth16_curve_name(vk->curve), czk_groth16_curve_name(proof->curve));
    if (pub->curve != vk->curve && pub->n > 0)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "vkey: curve %s but public signals are for %s",
                        czk_groth16_curve_name(vk->curve), czk_groth16_curve_name(pub->curve));
    if (pub->n != vk->n_public)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "public: %zu signals but the vkey expects %zu",
                        pub->n, vk->n_public);

    if (vk->curve == CZK_GROTH16_CURVE_BN254)
        ok = verify_bn254(&vk->bn254, pub->bn254, pub->n, &proof->bn254);
    else
        ok = verify_bls12_381(&vk->bls12_381, pub->bls12_381, pub->n, &proof->bls12_381);
    if (!ok)
        return czk_errf(CZK_ERR_INVALID_PROOF, err, errlen,
                        "proof does not verify (pairing check failed)");
    return CZK_OK;
}
