/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the precompiled circuit ("PCE", cuzk's term) of a snarkjs Groth16 key —
 * zkey section 4 (the A and B coefficients of the QAP, each stored as c·R²) turned
 * once, at key load, into two CSR matrices whose rows are the constraint indices over
 * the whole evaluation domain (domain_size rows; the rows past the last constraint are
 * empty) and whose columns are the signals (n_vars). Values are kept as stored, so one
 * Montgomery product with a canonical witness value gives Mont(c·w), which is what
 * czk_backend_sparse_eval computes. The C matrix is not needed: for snarkjs keys the C
 * evaluations on the domain equal A·w ∘ B·w row by row.
 *
 * Ownership: czk_pce_build fills a caller-provided struct (one allocation per matrix
 * array), czk_pce_free releases it; a zeroed struct frees as a no-op. Read-only after
 * build, shared by every proof of the key from any thread.
 */
#ifndef CZK_GROTH16_PCE_H
#define CZK_GROTH16_PCE_H

#include "io/formats.h"

struct czk_pce {
    struct czk_csr a, b;  /* n_rows = domain_size, n_cols = n_vars */
    uint32_t n_rows_used; /* 1 + the largest row with an entry (0 if none) */
};

/* Builds the PCE of a loaded zkey. CZK_ERR_FORMAT (with "zkey section 4: ..." in err)
 * if a coefficient names a matrix other than A/B, a row >= domain_size or a signal >=
 * n_vars; CZK_ERR_NOMEM. Writes *pce only on success. */
enum czk_status czk_pce_build(struct czk_pce *pce, const struct czk_zkey *z, char *err,
                              size_t errlen);

void czk_pce_free(struct czk_pce *pce);

/* Bytes czk_pce_build keeps for a key of domain_size rows and n_coefs coefficients:
 * per matrix (domain_size + 1) row offsets of 8 bytes, and per coefficient a 4-byte
 * column and a 32-byte value: 16·(domain_size + 1) + 36·n_coefs. (The build also
 * allocates 16·domain_size bytes of cursors while it runs.) */
uint64_t czk_pce_bytes(uint32_t domain_size, uint64_t n_coefs);

#endif
