/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BN254 G1: E(Fp): y^2 = x^3 + 3, the ec_impl.h template over fp_bn254. The group order
 * is prime (#E(Fp) = p + 1 - t = r), so every point on the curve is in the subgroup and
 * cofactor clearing is the identity.
 */
#include "curves/bn254.h"

#define EC_G g1_bn254
#define EC_F fp_bn254
#define EC_FR fr_bn254
#define EC_B bn254_g1_b
#define EC_GEN bn254_g1_gen
#define EC_ORDER bn254_r
#define EC_COFACTOR bn254_g1_h
#define EC_INV_VT czk_fp_bn254_inv_vartime
#include "ec/ec_impl.h"

bool czk_g1_bn254_affine_in_subgroup(const struct czk_g1_bn254_affine *p)
{
    (void)p; /* cofactor 1: on the curve (the precondition) means in the subgroup */
    return true;
}

void czk_g1_bn254_clear_cofactor(struct czk_g1_bn254 *r, const struct czk_g1_bn254 *p) { *r = *p; }
