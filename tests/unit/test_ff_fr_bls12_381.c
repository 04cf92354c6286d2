/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GMP cross-check of the BLS12-381 scalar field fr_bls12_381 and of its NTT constants
 * (two-adicity 32; snarkjs roots from 5, bellman roots and coset generator from 7). The tests
 * themselves are in test_ff_template.h.
 */
#define TF_NAME fr_bls12_381
#define TF_N 4
#define TF_P "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define TF_FR_S 32
#define TF_BELLMAN_G 7
#define TF_COSET 7
#include "test_ff_template.h"
