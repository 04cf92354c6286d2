/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GMP cross-check of the BN254 base field fp_bn254 and of its extension fp2_bn254
 * (xi = 9 + u). The tests themselves are in test_ff_template.h.
 */
#define TF_NAME fp_bn254
#define TF_N 4
#define TF_P "21888242871839275222246405745257275088696311157297823662689037894645226208583"
#define TF_FP2 fp2_bn254
#define TF_XI0 9
#include "test_ff_template.h"
