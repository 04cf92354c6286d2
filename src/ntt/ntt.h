/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU number-theoretic transforms over the scalar fields of BN254 and BLS12-381.
 *
 * Elements are Fr in Montgomery form as uint64_t[4] (both curves' Fr have 4 limbs),
 * n = 2^lg_n of them, natural order in and out. With w the primitive n-th root of
 * unity of the convention (czk_fr_*_root_of_unity):
 *   forward:  A_i = sum_j a_j w^(ij)                      (coefficients -> evaluations)
 *   inverse:  a_j = n^-1 sum_i A_i w^(-ij)                (evaluations -> coefficients)
 * With shift != NULL (Montgomery form) the evaluation points are shift·w^i:
 *   forward multiplies a_j by shift^j before transforming; inverse multiplies the
 *   result by shift^-j. snarkjs's odd coset for domain 2^k is shift = root_of_unity(k+1).
 * Twiddle tables are computed once per (curve, convention, lg_n) and cached for the
 * life of the process (thread-safe; memory about 32 bytes x n per cached size).
 * threads: 0 = all cores. Returns CZK_ERR_INVALID_ARG for lg_n above the two-adicity,
 * CZK_ERR_NOMEM if the twiddles cannot be allocated.
 */
#ifndef CZK_NTT_NTT_H
#define CZK_NTT_NTT_H

#include "czk/czk_groth16.h"

enum czk_ntt_dir { CZK_NTT_FORWARD = 0, CZK_NTT_INVERSE = 1 };

enum czk_status czk_ntt(enum czk_groth16_curve curve, uint64_t (*data)[4], unsigned lg_n,
                        enum czk_ntt_dir dir, enum czk_ntt_convention conv,
                        const uint64_t shift[4], unsigned threads);

/* Frees the twiddle cache (tests and shutdown). */
void czk_ntt_cache_clear(void);

#endif
