/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BLS12-381 G1: E(Fp): y^2 = x^3 + 4, the ec_impl.h template over fp_bls12_381.
 * #E(Fp) = r * h1, h1 = (x - 1)^2 / 3, x = -0xd201000000010000.
 *
 * Subgroup test (Bowe, "Faster subgroup checks for BLS12-381", 2019): with
 * phi(x, y) = (beta x, y), beta a primitive cube root of unity chosen so that phi acts
 * on G1 as [-x^2], P is in G1 iff phi(P) == -[x^2]P. [x^2]P costs two multiplications
 * by the sparse 64-bit |x| (6 bits set) instead of the 255-bit [r]P.
 *
 * Cofactor clearing multiplies by h_eff = 1 - x (RFC 9380, 8.8.1), which maps E(Fp)
 * onto G1 (1 - x is a multiple of the cofactor's prime-to-r part).
 */
#include "curves/bls12_381.h"

#define EC_G g1_bls12_381
#define EC_F fp_bls12_381
#define EC_FR fr_bls12_381
#define EC_B bls12_381_g1_b
#define EC_GEN bls12_381_g1_gen
#define EC_ORDER bls12_381_r
#define EC_COFACTOR bls12_381_g1_h
#define EC_INV_VT czk_fp_bls12_381_inv_vartime
#include "ec/ec_impl.h"

bool czk_g1_bls12_381_affine_in_subgroup(const struct czk_g1_bls12_381_affine *p)
{
    if (czk_g1_bls12_381_affine_is_inf(p))
        return true;
    struct czk_g1_bls12_381 t;
    struct czk_g1_bls12_381_affine q;
    ec_mul_u64_affine(&t, p, BLS12_381_X_ABS);
    ec_mul_u64(&t, &t, BLS12_381_X_ABS); /* [x^2] P */
    /* phi(P) == -[x^2]P  <=>  [x^2]P == (beta x, -y) */
    czk_fp_bls12_381_mul(&q.x, &p->x, &bls12_381_beta);
    czk_fp_bls12_381_neg(&q.y, &p->y);
    return ec_eq_affine(&t, &q);
}

void czk_g1_bls12_381_clear_cofactor(struct czk_g1_bls12_381 *r, const struct czk_g1_bls12_381 *p)
{
    struct czk_g1_bls12_381 t;
    ec_mul_u64(&t, p, BLS12_381_X_ABS); /* [1 - x] P = [|x|] P + P */
    czk_g1_bls12_381_add(r, &t, p);
}
