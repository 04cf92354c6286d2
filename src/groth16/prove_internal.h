/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: what the prover's translation units (prove.c, prove_json.c, prove_r1cs.c)
 * and the `czk prove` command share beyond czk_prover.h. Same threading and ownership
 * rules as czk_prover.h: the zkey returned by czk_prover_key_zkey is borrowed from the
 * key and read-only.
 */
#ifndef CZK_GROTH16_PROVE_INTERNAL_H
#define CZK_GROTH16_PROVE_INTERNAL_H

#include "czk/czk_prover.h"
#include "io/formats.h"

/* The loaded zkey behind a prover key (valid while the key lives). */
const struct czk_zkey *czk_prover_key_zkey(czk_prover_key_t key);

/*
 * Check that witness w satisfies every constraint (A·w)·(B·w) = C·w of r1cs `r`
 * (multithreaded by constraint ranges, `threads` 0 = all cores). On CZK_OK, *first_bad
 * is the index of the first violated constraint, or UINT64_MAX when all hold.
 * CZK_ERR_FORMAT (with a message) when the r1cs and the witness disagree on the curve
 * or the number of wires.
 */
enum czk_status czk_prove_check_r1cs(const struct czk_r1cs *r, czk_witness_t w, unsigned threads,
                                     uint64_t *first_bad, char *err, size_t errlen);

#endif
