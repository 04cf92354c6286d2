/* SPDX-License-Identifier: Apache-2.0 */
/* Pippenger MSM over g2_bls12_381: the msm_impl.h template instantiated for this group. */
#include "czk/czk_ff.h"

/* Variable-time Fp2 inversion (public data only): (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2)
 * with the fast binary Fp inversion. */
static void msm_fp2_bls12_381_inv_vartime(struct czk_fp2_bls12_381 *r,
                                          const struct czk_fp2_bls12_381 *a)
{
    struct czk_fp_bls12_381 n, t;
    czk_fp_bls12_381_sqr(&n, &a->c0);
    czk_fp_bls12_381_sqr(&t, &a->c1);
    czk_fp_bls12_381_add(&n, &n, &t);
    czk_fp_bls12_381_inv_vartime(&n, &n);
    czk_fp_bls12_381_mul(&t, &a->c1, &n);
    czk_fp_bls12_381_mul(&r->c0, &a->c0, &n);
    czk_fp_bls12_381_neg(&r->c1, &t);
}

#define MSM_G g2_bls12_381
#define MSM_F fp2_bls12_381
#define MSM_INV_VT msm_fp2_bls12_381_inv_vartime
#define MSM_FP fp_bls12_381
#define MSM_FP_N 6
#define MSM_FP_P FP_BLS12_381_P
#define MSM_F_DEG 2
#include "msm/msm_impl.h"
