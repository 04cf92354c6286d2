/* SPDX-License-Identifier: Apache-2.0 */
/* Pippenger MSM over g2_bls12_381: the msm_impl.h template instantiated for this group. */
#include "czk/czk_ff.h"

#define MSM_G g2_bls12_381
#define MSM_F fp2_bls12_381
#define MSM_INV_VT czk_fp2_bls12_381_inv_vartime
#define MSM_FP fp_bls12_381
#define MSM_FP_N 6
#define MSM_FP_P FP_BLS12_381_P
#define MSM_F_DEG 2
#include "msm/msm_impl.h"
