/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — Groth16 verification of snarkjs proofs on BN254 and BLS12-381.
 *
 * Inputs are the three JSON files snarkjs writes: verification_key.json
 * ("vkey"), public.json ("public") and proof.json ("proof"). They can be
 * verified in one call (czk_groth16_verify_json) or parsed into structs first
 * (czk_groth16_vkey_parse, _public_parse, _proof_parse) and verified with
 * czk_groth16_verify, which is how in-memory proofs are checked.
 *
 * Accepted JSON (the snarkjs 0.7 formats; unknown members are ignored, duplicate
 * members are rejected):
 *  vkey    {"protocol": "groth16", "curve": C, "nPublic": n,
 *           "vk_alpha_1": G1, "vk_beta_2": G2, "vk_gamma_2": G2, "vk_delta_2": G2,
 *           "IC": [G1 x (n + 1)]}                  (vk_alphabeta_12 is ignored)
 *  proof   {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol"?: "groth16", "curve"?: C}
 *  public  ["decimal", ...]                         (n strings)
 * where G1 = ["x", "y", "z"] and G2 = [["x.c0", "x.c1"], ["y.c0", "y.c1"],
 * ["z.c0", "z.c1"]] are decimal strings with z = 1, or the infinity triple
 * snarkjs writes (0, 1, 0). C is a curve name as snarkjs reads it: case and
 * punctuation are ignored, and "bn128", "bn254", "altbn128" mean BN254,
 * "bls12381" (also "bls12-381", "BLS12_381") means BLS12-381. snarkjs writes
 * "bn128" and "bls12381".
 *
 * Validation: every point (vkey and proof) must be on its curve and in the
 * prime-order subgroup; coordinates must be < p. Public signals must be decimal
 * strings (digits only; snarkjs would also take "0x" hex strings and JSON
 * numbers) with a value < r. czk never reduces a signal modulo r: a value >= r
 * is rejected with CZK_ERR_RANGE. (snarkjs 0.7's groth16 verify rejects such
 * values as well; older snarkjs versions multiplied by them, which reduces.)
 *
 * Verification computes IC = IC_0 + sum_i s_i * IC_(i+1) (variable time: the
 * public signals are public) and checks
 *     e(-A, B) * e(alpha, beta) * e(IC, gamma) * e(C, delta) == 1.
 *
 * Error detail: every function taking (char *err, size_t errlen) writes a
 * message there on failure when err != NULL and errlen > 0. Messages start with
 * the input they are about: "vkey: ...", "public[1]: value >= r",
 * "proof: pi_b is not in the G2 subgroup", "public: 3 signals but the vkey
 * expects 2", "vkey: curve bls12381 but proof says bn128".
 *
 * Ownership: parsed vkeys and public-signal lists own heap arrays and are
 * released with czk_groth16_vkey_free / czk_groth16_public_free; proofs own no
 * memory. Thread safety: no global state; distinct structs may be used from
 * different threads, and a parsed vkey may be shared read-only by concurrent
 * czk_groth16_verify calls.
 */
#ifndef CZK_CZK_GROTH16_H
#define CZK_CZK_GROTH16_H

#include "czk_ec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Curve of a Groth16 key or proof. Zero is not a curve (a zeroed struct is empty). */
enum czk_groth16_curve {
    CZK_GROTH16_CURVE_NONE = 0,
    CZK_GROTH16_CURVE_BN254 = 1,     /* snarkjs "bn128" */
    CZK_GROTH16_CURVE_BLS12_381 = 2, /* snarkjs "bls12381" */
};

/**
 * The curve named `name` (any snarkjs alias, see above) into *curve.
 * Returns CZK_OK, CZK_ERR_INVALID_ARG if an argument is NULL, or
 * CZK_ERR_FORMAT if the name is not a supported curve.
 */
CZK_API enum czk_status czk_groth16_curve_from_name(enum czk_groth16_curve *curve,
                                                    const char *name);

/** The name snarkjs writes for `curve` ("bn128", "bls12381"); "none" otherwise. Static. */
CZK_API const char *czk_groth16_curve_name(enum czk_groth16_curve curve);

struct czk_groth16_vkey_bn254 {
    struct czk_g1_bn254_affine alpha;
    struct czk_g2_bn254_affine beta, gamma, delta;
    struct czk_g1_bn254_affine *ic; /* n_public + 1 points (heap) */
};

struct czk_groth16_vkey_bls12_381 {
    struct czk_g1_bls12_381_affine alpha;
    struct czk_g2_bls12_381_affine beta, gamma, delta;
    struct czk_g1_bls12_381_affine *ic; /* n_public + 1 points (heap) */
};

/* A verification key; the union member named by `curve` is valid. */
struct czk_groth16_vkey {
    enum czk_groth16_curve curve;
    size_t n_public; /* number of public signals (outputs + public inputs) */
    union {
        struct czk_groth16_vkey_bn254 bn254;
        struct czk_groth16_vkey_bls12_381 bls12_381;
    };
};

struct czk_groth16_proof_bn254 {
    struct czk_g1_bn254_affine a;
    struct czk_g2_bn254_affine b;
    struct czk_g1_bn254_affine c;
};

struct czk_groth16_proof_bls12_381 {
    struct czk_g1_bls12_381_affine a;
    struct czk_g2_bls12_381_affine b;
    struct czk_g1_bls12_381_affine c;
};

/* A proof (pi_a, pi_b, pi_c); the union member named by `curve` is valid. */
struct czk_groth16_proof {
    enum czk_groth16_curve curve;
    union {
        struct czk_groth16_proof_bn254 bn254;
        struct czk_groth16_proof_bls12_381 bls12_381;
    };
};

/* Public signals in the order of public.json; the union member named by `curve` is valid. */
struct czk_groth16_public {
    enum czk_groth16_curve curve;
    size_t n;
    union {
        struct czk_fr_bn254 *bn254;         /* n elements (heap; NULL when n == 0) */
        struct czk_fr_bls12_381 *bls12_381; /* n elements (heap; NULL when n == 0) */
    };
};

/**
 * Parse a snarkjs verification_key.json (NUL-terminated text) into *vk, which
 * the caller provides (its prior contents are ignored; it is written only on
 * success and must then be released with czk_groth16_vkey_free).
 * Returns CZK_OK; CZK_ERR_INVALID_ARG (NULL argument); CZK_ERR_FORMAT (invalid
 * JSON, missing or mistyped member, unknown curve, protocol other than
 * "groth16", IC length != nPublic + 1, malformed point); CZK_ERR_RANGE
 * (coordinate >= p); CZK_ERR_NOT_ON_CURVE; CZK_ERR_NOT_IN_SUBGROUP;
 * CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_groth16_vkey_parse(struct czk_groth16_vkey *vk, const char *json,
                                               char *err, size_t errlen);

/** Release the IC array of a parsed vkey and zero *vk. NULL or a zeroed struct: no-op. */
CZK_API void czk_groth16_vkey_free(struct czk_groth16_vkey *vk);

/**
 * Parse a snarkjs proof.json into *proof for `curve` (normally vk->curve).
 * If the JSON has "protocol" it must be "groth16"; if it has "curve" it must
 * name `curve`. Writes *proof only on success.
 * Returns CZK_OK; CZK_ERR_INVALID_ARG (NULL argument or curve NONE);
 * CZK_ERR_FORMAT (invalid JSON, missing/mistyped member, wrong protocol, curve
 * mismatch, malformed point); CZK_ERR_RANGE; CZK_ERR_NOT_ON_CURVE;
 * CZK_ERR_NOT_IN_SUBGROUP.
 */
CZK_API enum czk_status czk_groth16_proof_parse(struct czk_groth16_proof *proof,
                                                enum czk_groth16_curve curve, const char *json,
                                                char *err, size_t errlen);

/**
 * Parse a snarkjs public.json (array of decimal strings) into *pub as elements
 * of the scalar field of `curve`. Writes *pub only on success; release it with
 * czk_groth16_public_free.
 * Returns CZK_OK; CZK_ERR_INVALID_ARG; CZK_ERR_FORMAT (invalid JSON, not an
 * array, an element that is not a decimal string); CZK_ERR_RANGE (value >= r);
 * CZK_ERR_NOMEM.
 */
CZK_API enum czk_status czk_groth16_public_parse(struct czk_groth16_public *pub,
                                                 enum czk_groth16_curve curve, const char *json,
                                                 char *err, size_t errlen);

/** Release the signal array and zero *pub. NULL or a zeroed struct: no-op. */
CZK_API void czk_groth16_public_free(struct czk_groth16_public *pub);

/**
 * Verify `proof` for public signals `pub` under `vk`. The points must be valid
 * group elements (as the parsers guarantee); they are not checked again.
 * Returns CZK_OK (valid); CZK_ERR_INVALID_PROOF (the pairing check fails);
 * CZK_ERR_INVALID_ARG (NULL argument, curve NONE); CZK_ERR_FORMAT (the three
 * inputs are for different curves, or pub->n != vk->n_public).
 */
CZK_API enum czk_status czk_groth16_verify(const struct czk_groth16_vkey *vk,
                                           const struct czk_groth16_public *pub,
                                           const struct czk_groth16_proof *proof, char *err,
                                           size_t errlen);

/**
 * Parse and verify in one call; the curve comes from the vkey, and the proof's
 * and public signals' consistency with it is checked.
 * Returns CZK_OK (valid), CZK_ERR_INVALID_PROOF (well-formed, does not
 * verify), or any status of the parsers above, with `err` naming the input
 * ("vkey", "public", "proof") and the problem.
 */
CZK_API enum czk_status czk_groth16_verify_json(const char *vkey_json, const char *public_json,
                                                const char *proof_json, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_GROTH16_H */
