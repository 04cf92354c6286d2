/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GMP cross-check of the BN254 scalar field fr_bn254 and of its NTT constants (two-adicity 28;
 * both root-of-unity conventions built from 5, coset generator 5). The tests themselves are in
 * test_ff_template.h.
 */
#define TF_NAME fr_bn254
#define TF_N 4
#define TF_P "21888242871839275222246405745257275088548364400416034343698204186575808495617"
#define TF_FR_S 28
#define TF_BELLMAN_G 5
#define TF_COSET 5
#include "test_ff_template.h"
