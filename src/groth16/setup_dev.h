/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: an INSECURE single-party Groth16 setup ("dev setup") that writes snarkjs
 * .zkey files, for development and benchmarks only: whoever runs it knows the toxic
 * waste (tau, alpha, beta, gamma, delta) and can forge proofs.
 *
 * The key has exactly the structure `snarkjs zkey new` + contributions give
 * (zkey_new.js): domain N = 2^ceil(log2(nConstraints + nPublic + 1)) (at least 2), the
 * nPublic + 1 extra rows of A (signal s at row nConstraints + s, coefficient 1), the
 * coefficient section holding c·R² mod r, and, with L_i the Lagrange basis of the domain
 * <w_N> (ffjavascript's roots, czk's CZK_NTT_SNARKJS) evaluated at tau:
 *   A_s  = [Σ_c A_cs·L_c(tau)]_1,   B1_s = [Σ_c B_cs·L_c(tau)]_1,  B2_s = [same]_2,
 *   IC_s = [(beta·A_s(tau) + alpha·B_s(tau) + C_s(tau)) / gamma]_1   (s <= nPublic),
 *   C_s  = [(beta·A_s(tau) + alpha·B_s(tau) + C_s(tau)) / delta]_1   (s > nPublic),
 *   H_j  = [L'_j(tau) / delta]_1, j < N,
 * where L'_j is the Lagrange polynomial of the point x_j = g·w_N^j of the 2N-point set
 * <w_N> ∪ g<w_N>, g the odd-coset shift of snarkjs's prover (czk_ntt_snarkjs_shift:
 * w_2N, or 25 when N = 2^s): L'_j(t) = (t^N − 1)(t^N − g^N)·x_j / ((t − x_j)·N·g^N·(g^N − 1)).
 * Since A·B − C has degree < 2N and vanishes on <w_N>, Σ_j (A·B − C)(x_j)·H_j is
 * [(A·B − C)(tau)/delta]_1 = [h(tau)·Z(tau)/delta]_1, which is what the prover's
 * a·b − c on the odd coset, without division by Z, needs. (For g = w_2N, L'_j is the
 * odd-index Lagrange polynomial of the 2N-point domain: section 9 of `zkey new`.)
 * alpha1, beta1, beta2, gamma2, delta1, delta2 are the generators times the secrets
 * (snarkjs's own keys keep gamma = 1; a random gamma only changes gamma2 and IC, which
 * the verification key carries).
 * Section 10 is czk_zkey_write's record without contributions (a zero circuit hash:
 * the hash zkey_new.js would record is that of a gamma = delta = 1 key, which this
 * setup never computes; snarkjs's prover and vkey export do not read it).
 *
 * Points are computed by fixed-base multiplication of the generators with a
 * precomputed table of windows (c-bit digits, ceil(255/c) positions, (2^c − 1) affine
 * multiples per position; c from czk_setup_window_bits: 8 bits x 32 positions for small
 * keys, up to 16 bits for large ones), multithreaded (czk_parallel_for) over the points,
 * converted to affine in batches.
 * Threading: no global state; `threads` 0 = all cores.
 */
#ifndef CZK_GROTH16_SETUP_DEV_H
#define CZK_GROTH16_SETUP_DEV_H

#include <stdint.h>

#include "io/formats.h"

/* The secrets of a dev setup, canonical little-endian limbs, each in [1, r). */
struct czk_setup_toxic {
    uint64_t tau[4], alpha[4], beta[4], gamma[4], delta[4];
};

/* The snarkjs domain exponent for a circuit: cirPower of zkey_new.js,
 * floor(log2(n_constraints + n_public)) + 1 (1 when both are 0). */
unsigned czk_setup_lg_domain(uint64_t n_constraints, uint64_t n_public);

/*
 * Derives toxic waste from a 32-byte seed, deterministically: each secret is the first
 * SHA-256(seed || label || counter) (labels "tau", "alpha", ..., counter a u32 LE from
 * 0), cut to the bit length of r, that is nonzero and < r; tau is also redrawn while
 * tau^N = 1 or tau^N = g^N for the domain 2^lg_domain (tau on the domain or on the odd
 * coset). CZK_ERR_INVALID_ARG for a bad curve or lg_domain above the two-adicity.
 */
enum czk_status czk_setup_toxic_derive(struct czk_setup_toxic *t, enum czk_groth16_curve curve,
                                       const uint8_t seed[32], unsigned lg_domain);

/*
 * The setup of circuit `r` with secrets `t`, written to `zkey_path` (czk_zkey_write).
 * CZK_ERR_INVALID_ARG (bad secrets: zero, >= r, tau on the domain or coset; circuit
 * larger than the curve's largest domain), CZK_ERR_FORMAT (inconsistent r1cs), CZK_ERR_NOMEM,
 * CZK_ERR_IO, with a message in err.
 */
enum czk_status czk_setup_dev(const struct czk_r1cs *r, const struct czk_setup_toxic *t,
                              const char *zkey_path, unsigned threads, char *err, size_t errlen);

/* ---- exposed for tests ---------------------------------------------------------------- */

/*
 * out[j] = L_j(tau) (odd_coset false: the domain's Lagrange basis) or L'_j(tau)
 * (odd_coset true: the coset points of the 2N-point set, see above), in Montgomery
 * form, j < 2^lg_n. tau canonical. CZK_ERR_INVALID_ARG if tau is one of the points or
 * lg_n is out of range; CZK_ERR_NOMEM.
 */
enum czk_status czk_setup_lagrange(enum czk_groth16_curve curve, uint64_t (*out)[4], unsigned lg_n,
                                   const uint64_t tau[4], bool odd_coset, unsigned threads);

/* The window width for n fixed-base multiplications of one group: the c in [4, 16]
 * minimising ceil(255/c)·(1.5·2^c + n) additions (table build plus lookups); 8 for a few
 * thousand points, 16 from about 735000 on. */
unsigned czk_setup_window_bits(size_t n);

/*
 * out[i] = scalars[i] · G (canonical scalars < r) for the generator G of G1 (group 1)
 * or G2 (group 2) of `curve`, with a table of window_bits-bit windows (1..16; 0 = the
 * width of czk_setup_window_bits(n)); out is an array of the curve's affine points of
 * that group. CZK_ERR_INVALID_ARG, CZK_ERR_NOMEM.
 */
enum czk_status czk_setup_fixed_base(enum czk_groth16_curve curve, unsigned group, void *out,
                                     const uint64_t (*scalars)[4], size_t n, unsigned window_bits,
                                     unsigned threads);

#endif
