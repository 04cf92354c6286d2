/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU multi-scalar multiplication: out = sum_i scalars[i]·bases[i] over G1 and G2 of
 * BN254 and BLS12-381 (multithreaded Pippenger with signed-digit windows).
 *
 * Scalars are canonical (not Montgomery) little-endian uint64_t[4], < r (not
 * checked; larger values are taken as integers below 2^256 — wrong only mod r if the
 * caller breaks the contract). Bases are affine with infinity = (0, 0); duplicates,
 * infinities, zero scalars, n = 0 and n = 1 are all handled. Scalars equal to 0 are
 * skipped and scalars equal to 1 are summed directly (most of a PoRep witness).
 * threads: 0 = all cores. Returns CZK_ERR_NOMEM if bucket memory cannot be allocated;
 * out is written only on success. Variable time (public data only).
 */
#ifndef CZK_MSM_MSM_H
#define CZK_MSM_MSM_H

#include "czk/czk_ec.h"

#define CZK_MSM_DECLARE(G)                                                                         \
    enum czk_status czk_msm_##G(struct czk_##G *out, const struct czk_##G##_affine *bases,         \
                                const uint64_t(*scalars)[4], size_t n, unsigned threads);

CZK_MSM_DECLARE(g1_bn254)
CZK_MSM_DECLARE(g2_bn254)
CZK_MSM_DECLARE(g1_bls12_381)
CZK_MSM_DECLARE(g2_bls12_381)

#endif
