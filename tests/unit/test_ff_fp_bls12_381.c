/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GMP cross-check of the BLS12-381 base field fp_bls12_381 and of its extension fp2_bls12_381
 * (xi = 1 + u). The tests themselves are in test_ff_template.h.
 */
#define TF_NAME fp_bls12_381
#define TF_N 6
#define TF_P                                                                                       \
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffff" \
    "ffaaab"
#define TF_FP2 fp2_bls12_381
#define TF_XI0 1
#include "test_ff_template.h"
