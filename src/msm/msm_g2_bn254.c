/* SPDX-License-Identifier: Apache-2.0 */
/* Pippenger MSM over g2_bn254: the msm_impl.h template instantiated for this group. */
#include "czk/czk_ff.h"

#define MSM_G g2_bn254
#define MSM_F fp2_bn254
#define MSM_INV_VT czk_fp2_bn254_inv_vartime
#define MSM_FP fp_bn254
#define MSM_FP_N 4
#define MSM_FP_P FP_BN254_P
#define MSM_F_DEG 2
#include "msm/msm_impl.h"
