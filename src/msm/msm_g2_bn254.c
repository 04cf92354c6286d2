/* SPDX-License-Identifier: Apache-2.0 */
/* Pippenger MSM over g2_bn254: the msm_impl.h template instantiated for this group. */
#include "czk/czk_ff.h"

/* Variable-time Fp2 inversion (public data only): (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2)
 * with the fast binary Fp inversion. */
static void msm_fp2_bn254_inv_vartime(struct czk_fp2_bn254 *r, const struct czk_fp2_bn254 *a)
{
    struct czk_fp_bn254 n, t;
    czk_fp_bn254_sqr(&n, &a->c0);
    czk_fp_bn254_sqr(&t, &a->c1);
    czk_fp_bn254_add(&n, &n, &t);
    czk_fp_bn254_inv_vartime(&n, &n);
    czk_fp_bn254_mul(&t, &a->c1, &n);
    czk_fp_bn254_mul(&r->c0, &a->c0, &n);
    czk_fp_bn254_neg(&r->c1, &t);
}

#define MSM_G g2_bn254
#define MSM_F fp2_bn254
#define MSM_INV_VT msm_fp2_bn254_inv_vartime
#define MSM_FP fp_bn254
#define MSM_FP_N 4
#define MSM_FP_P FP_BN254_P
#define MSM_F_DEG 2
#include "msm/msm_impl.h"
