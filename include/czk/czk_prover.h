/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — the Groth16 prover for snarkjs keys (.zkey) and circom witnesses (.wtns), on
 * BN254 and BLS12-381, producing proofs that snarkjs verifies.
 *
 * Objects:
 *   czk_prover_key_t  a loaded, validated proving key plus its precompiled circuit
 *                     (the A/B coefficients as CSR matrices). Immutable after load;
 *                     share it read-only between any number of concurrent proofs.
 *   czk_witness_t     a witness: canonical field elements w[0..n) with w[0] = 1 and
 *                     the public signals at w[1..nPublic].
 *   czk_prove_job_t   one proof in flight, split in two halves so a pipeline can run
 *                     them on different workers:
 *       czk_prove_start   synthesis (a = A·w, b = B·w, c = a∘b over the domain),
 *                         3 inverse NTTs + 3 NTTs onto snarkjs's odd coset, the quotient
 *                         h = a·b − c there (converted to canonical), and the G1 MSMs
 *                         (A, B1, C, H) — the heavy, device-friendly part;
 *       czk_prove_finish  the G2 MSM (B2) unless start did it, the blinding with fresh
 *                         r, s, the assembly into affine points, the public signals.
 *
 * The formulas are snarkjs's (groth16_prove.js), with r, s uniform in Fr:
 *   pi_a = alpha1 + sum_i w_i·A_i + r·delta1
 *   pi_b = beta2  + sum_i w_i·B2_i + s·delta2
 *   pib1 = beta1  + sum_i w_i·B1_i + s·delta1
 *   pi_c = sum_{i > nPublic} w_i·C_i + sum_j h_j·H_j + s·pi_a + r·pib1 − (r·s)·delta1
 * The multiplications by r, s and r·s use the constant-time scalar multiplication.
 *
 * Threading: a key may be used by concurrent jobs; a job belongs to one thread at a time
 * (start on one worker, finish on another is fine). The backend passed to
 * czk_prove_start is used by the job until czk_prove_finish / czk_prove_job_free
 * returns, so it must not be used concurrently by another thread meanwhile.
 * Errors: every failable function returns enum czk_status and writes a message naming
 * the file or input into err (when err != NULL and errlen > 0).
 */
#ifndef CZK_CZK_PROVER_H
#define CZK_CZK_PROVER_H

#include "czk_backend.h"
#include "czk_groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_prover_key *czk_prover_key_t;
typedef struct czk_witness *czk_witness_t;
typedef struct czk_prove_job *czk_prove_job_t;

/* ---- proving keys ---------------------------------------------------------------- */

enum czk_prover_key_flags {
    /* --trust-key: check proving-key points against the curve equation only, skipping
     * the (expensive) subgroup checks. */
    CZK_PROVER_KEY_TRUST = 1u << 0,
    /* Load only what a verification key needs (no precompiled circuit): for
     * `zkey export-vkey`. Such a key cannot prove (CZK_ERR_INVALID_ARG). */
    CZK_PROVER_KEY_VKEY_ONLY = 1u << 1,
    /* Remember keys whose subgroup checks passed across processes: the key's id (a SHA-256
     * over the SHA-256s of the file's 4 MiB chunks, computed in parallel) is appended to $XDG_CACHE_HOME/czk/trusted-keys (else ~/.cache/czk/trusted-keys) and
     * a later load of a file with a listed hash skips the subgroup checks (the on-curve
     * checks still run). The file is used only when owned by the user and not writable by
     * others. `czk prove` sets this by default (--no-key-cache clears it): the subgroup
     * check of a key is then done once per key, not once per proof. */
    CZK_PROVER_KEY_REMEMBER = 1u << 2,
};

struct czk_prover_key_info {
    enum czk_groth16_curve curve;
    uint32_t n_vars;      /* witness length */
    uint32_t n_public;    /* public signals (outputs + public inputs) */
    uint32_t domain_size; /* 2^lg_domain */
    uint32_t lg_domain;
    uint32_t n_rows_used;  /* 1 + the last domain row with a coefficient (constraints +
                              nPublic + 1 for snarkjs keys); 0 for VKEY_ONLY keys */
    uint64_t nnz_a, nnz_b; /* coefficients of A and B */
};

/**
 * Load the snarkjs Groth16 key at `zkey_path`: read and validate it (header, section
 * sizes, moduli, every point on its curve and, unless CZK_PROVER_KEY_TRUST, in its
 * subgroup — multithreaded with `threads`, 0 = all cores), then precompile the circuit.
 * *key is written only on success; free it with czk_prover_key_free.
 * Returns CZK_OK; CZK_ERR_INVALID_ARG; CZK_ERR_IO (cannot open/read); CZK_ERR_FORMAT
 * (not a Groth16 zkey, inconsistent sections, bad coefficient); CZK_ERR_NOT_ON_CURVE;
 * CZK_ERR_NOT_IN_SUBGROUP; CZK_ERR_NOMEM. err names the file and the problem.
 */
CZK_API enum czk_status czk_prover_key_load(czk_prover_key_t *key, const char *zkey_path,
                                            unsigned flags, unsigned threads, char *err,
                                            size_t errlen);

/** Release a key (no job may still use it). NULL: no-op. */
CZK_API void czk_prover_key_free(czk_prover_key_t key);

/** Sizes and curve of a key. */
CZK_API void czk_prover_key_get_info(czk_prover_key_t key, struct czk_prover_key_info *info);

/**
 * The verification key embedded in the proving key (alpha1, beta2, gamma2, delta2, IC)
 * into *vk (written on success; release with czk_groth16_vkey_free).
 * Returns CZK_OK, CZK_ERR_INVALID_ARG, CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_prover_key_vkey(czk_prover_key_t key, struct czk_groth16_vkey *vk,
                                            char *err, size_t errlen);

/**
 * The verification_key.json text `snarkjs zkey export verificationkey` writes for this
 * key (same members, order and layout, including vk_alphabeta_12 = e(alpha1, beta2) as
 * ffjavascript computes it). *json is a NUL-terminated heap string (free()), *len its
 * length (len may be NULL). Returns CZK_OK, CZK_ERR_INVALID_ARG, CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_prover_key_vkey_json(czk_prover_key_t key, char **json, size_t *len);

/* ---- witnesses -------------------------------------------------------------------- */

/**
 * Load a circom .wtns (v2) file; every value is checked < r. *w written on success.
 * Returns CZK_OK; CZK_ERR_IO; CZK_ERR_FORMAT; CZK_ERR_RANGE; CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_witness_load(czk_witness_t *w, const char *path, char *err,
                                         size_t errlen);

/**
 * A witness over caller memory: n canonical elements of curve's Fr (values[i] < r,
 * checked), borrowed (not copied): keep them alive and unchanged until the witness is
 * freed. Returns CZK_OK; CZK_ERR_INVALID_ARG; CZK_ERR_RANGE (naming the index);
 * CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_witness_wrap(czk_witness_t *w, enum czk_groth16_curve curve,
                                         const uint64_t (*values)[4], size_t n, char *err,
                                         size_t errlen);

/** Release a witness. NULL: no-op. */
CZK_API void czk_witness_free(czk_witness_t w);

CZK_API enum czk_groth16_curve czk_witness_curve(czk_witness_t w);
CZK_API size_t czk_witness_count(czk_witness_t w);
/** The canonical values (valid while w lives). */
CZK_API const uint64_t (*czk_witness_values(czk_witness_t w))[4];

/* ---- proving ----------------------------------------------------------------------- */

/* Called after each stage with its name and duration in milliseconds. Stages, in order:
 * "synth", "ntt_a", "ntt_b", "ntt_c", "quotient", "msm_a", "msm_b1", "msm_c", "msm_h",
 * "msm_b2" (in start or finish), "finish". Called on the thread running the stage. */
typedef void (*czk_prove_stage_fn)(void *user, const char *stage, double ms);

enum czk_prove_flags {
    /* Run the G2 MSM (B2) in czk_prove_start instead of czk_prove_finish. */
    CZK_PROVE_G2_IN_START = 1u << 0,
};

struct czk_prove_opts {
    unsigned flags;              /* enum czk_prove_flags */
    czk_prove_stage_fn on_stage; /* may be NULL */
    void *user;                  /* passed to on_stage */
    /* If non-NULL, checked at every stage boundary: nonzero -> CZK_CANCELLED. */
    const volatile int *cancel;
    /*
     * TEST ONLY. Fixed blinding factors as canonical little-endian limbs (< r), instead
     * of fresh random ones from getrandom(2); NULL = random. With fixed r, s the proof is
     * a deterministic function of the witness, which tests compare with a reference
     * prover. Never set them in production: a proof whose r, s are known reveals
     * information about the witness.
     */
    const uint64_t *test_fixed_r;
    const uint64_t *test_fixed_s;
};

/**
 * First half of a proof of `w` under `key` on backend `be` (opts may be NULL: defaults).
 * Checks first, before any heavy work, that the witness matches the key (same curve,
 * n == nVars, w[0] == 1): CZK_ERR_FORMAT otherwise, with err saying what differs.
 * key, be and w are borrowed until the job is finished or freed; *opts is copied (the
 * fixed r, s values too). *job written on success.
 * Returns CZK_OK; CZK_ERR_INVALID_ARG (NULL argument, VKEY_ONLY key); CZK_ERR_FORMAT;
 * CZK_ERR_RANGE (test_fixed_r/s >= r); CZK_ERR_NOMEM; CZK_CANCELLED; backend errors
 * (CZK_ERR_DEVICE, ...).
 */
CZK_API enum czk_status czk_prove_start(czk_prove_job_t *job, czk_prover_key_t key,
                                        czk_backend_t be, czk_witness_t w,
                                        const struct czk_prove_opts *opts, char *err,
                                        size_t errlen);

/**
 * Second half: writes the proof (affine points) to *proof and, when pub != NULL, the
 * public signals w[1..nPublic] to *pub (release with czk_groth16_public_free). The job
 * is freed whatever the outcome. Outputs are written only on success.
 * Returns CZK_OK; CZK_ERR_INVALID_ARG; CZK_ERR_NOMEM; CZK_ERR_IO (getrandom failed);
 * CZK_CANCELLED; backend errors.
 */
CZK_API enum czk_status czk_prove_finish(czk_prove_job_t job, struct czk_groth16_proof *proof,
                                         struct czk_groth16_public *pub, char *err, size_t errlen);

/** Abandon a started job and free it. NULL: no-op. */
CZK_API void czk_prove_job_free(czk_prove_job_t job);

/** czk_prove_start followed by czk_prove_finish. */
CZK_API enum czk_status czk_prove(czk_prover_key_t key, czk_backend_t be, czk_witness_t w,
                                  const struct czk_prove_opts *opts,
                                  struct czk_groth16_proof *proof, struct czk_groth16_public *pub,
                                  char *err, size_t errlen);

/* ---- encodings ------------------------------------------------------------------------ */

/**
 * proof.json exactly as snarkjs writes it (`groth16 prove`: members pi_a, pi_b, pi_c,
 * protocol, curve; projective decimal triples with z = 1; one-space indentation; no
 * final newline). *json is a heap string (free()); *len its length (may be NULL).
 * Returns CZK_OK, CZK_ERR_INVALID_ARG, CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_groth16_proof_to_json(const struct czk_groth16_proof *proof,
                                                  char **json, size_t *len);

/** public.json as snarkjs writes it: an array of decimal strings. Same conventions. */
CZK_API enum czk_status czk_groth16_public_to_json(const struct czk_groth16_public *pub,
                                                   char **json, size_t *len);

/**
 * The 192-byte bellman/zcash proof encoding of a BLS12-381 proof: compressed
 * A (48) || B (96) || C (48). CZK_ERR_INVALID_ARG for other curves.
 */
CZK_API enum czk_status czk_groth16_proof_to_bellman(const struct czk_groth16_proof *proof,
                                                     uint8_t out[192]);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_PROVER_H */
