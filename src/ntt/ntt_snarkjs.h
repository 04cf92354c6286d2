/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the coset shift that snarkjs's Groth16 prover (groth16_prove.js) uses for
 * a domain of 2^lg_n points: `inc = power == Fr.s ? Fr.shift : Fr.w[power + 1]`, i.e.
 * ffjavascript's primitive 2^(lg_n+1)-th root of unity (built from the non-residue 5)
 * for lg_n below the two-adicity s, and Fr.shift = 5^2 = 25 for lg_n == s.
 * Pure function of its arguments; thread-safe.
 */
#ifndef CZK_NTT_NTT_SNARKJS_H
#define CZK_NTT_NTT_SNARKJS_H

#include <stdint.h>

#include "czk/czk_groth16.h"

/* Writes the shift in Montgomery form to out. lg_n above the two-adicity (no such
 * domain) or an unknown curve writes zero. */
void czk_ntt_snarkjs_shift(enum czk_groth16_curve c, unsigned lg_n, uint64_t out[4]);

#endif
