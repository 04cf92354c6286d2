/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — elliptic-curve groups of BN254 and BLS12-381.
 *
 * Four groups, one API each (G is one of the names below, F its coordinate
 * field, FR the scalar field):
 *
 *   g1_bn254       y^2 = x^3 + 3        over fp_bn254       cofactor 1
 *   g2_bn254       y^2 = x^3 + 3/(9+u)  over fp2_bn254      (D-type sextic twist)
 *   g1_bls12_381   y^2 = x^3 + 4        over fp_bls12_381
 *   g2_bls12_381   y^2 = x^3 + 4(1+u)   over fp2_bls12_381  (M-type sextic twist)
 *
 * Types:
 *   struct czk_G_affine { F x, y; }   affine; the point at infinity is (0, 0),
 *                                     which is on none of the curves and is how
 *                                     snarkjs .zkey files store it.
 *   struct czk_G { F x, y, z; }       Jacobian (X/Z^2, Y/Z^3); infinity has z = 0.
 *
 * Arithmetic never allocates and never fails. add/dbl/add_affine handle every
 * exceptional case (infinity, P + P, P + (-P)). The _ct functions are
 * constant-time in the scalar and in the points; use them for secret scalars
 * (the Groth16 blinding factors r, s). Everything else is variable-time.
 *
 * Decoders validate everything: length (by the API), flag bits, coordinates
 * < p (CZK_ERR_RANGE), non-canonical forms (CZK_ERR_FORMAT), the curve equation
 * (CZK_ERR_NOT_ON_CURVE) and, unless CZK_EC_SKIP_SUBGROUP is given, membership
 * of the prime-order subgroup (CZK_ERR_NOT_IN_SUBGROUP). They write their output
 * only on success.
 */
#ifndef CZK_CZK_EC_H
#define CZK_CZK_EC_H

#include "czk_ff.h"

#ifdef __cplusplus
extern "C" {
#endif

enum czk_ec_flags {
    CZK_EC_SKIP_SUBGROUP = 1u << 0, /* decoders: skip the subgroup check (trusted keys) */
};

/*
 * CZK_EC_DECLARE(G, F, FR, NF) declares the API of group G over field F
 * (NF = number of base-field Fp components per coordinate: 1 for G1, 2 for G2).
 *
 *  czk_G_generator(p)              the standard generator (snarkjs/zcash).
 *  czk_G_affine_is_inf / set_inf   (0, 0) test / set.
 *  czk_G_affine_on_curve(p)        curve equation holds, or p is infinity.
 *  czk_G_affine_in_subgroup(p)     p is in the order-r subgroup (fast endomorphism
 *                                  test; precondition: on curve). Infinity: true.
 *  czk_G_affine_in_subgroup_slow   the same by [r]p == O (reference for tests).
 *  czk_G_affine_eq, czk_G_affine_neg
 *  czk_G_affine_from_x(p, x, gt_half)  the curve point with abscissa x whose y
 *                                  satisfies F_gt_half(y) == gt_half; false if x^3+b
 *                                  is not a square (no subgroup check).
 *  czk_G_from_affine / to_affine   conversions (infinity preserved).
 *  czk_G_batch_to_affine(out, in, n, scratch)  one inversion for n points;
 *                                  scratch holds n coordinate-field elements.
 *  czk_G_set_inf / is_inf / eq     Jacobian infinity, projective equality.
 *  czk_G_add / add_affine / dbl / neg / sub
 *  czk_G_add_ct                    add with exceptional cases selected by cmov.
 *  czk_G_mul(r, p, k)              r = [k]p, k a scalar-field element (vartime, wNAF).
 *  czk_G_mul_ct(r, p, k)           constant-time in k and p.
 *  czk_G_mul_limbs(r, p, k, n)     r = [k]p for any integer k (n LE limbs), vartime.
 *  czk_G_clear_cofactor(r, p)      r = [h]p (or an equivalent map into the subgroup).
 *  czk_G_order_limbs / cofactor_limbs  constants as LE limbs; *n receives the count.
 *
 * Encodings:
 *  czk_G_from_zkey(p, in, flags)   snarkjs .zkey / ffjavascript binary: x || y, each
 *                                  coordinate in Montgomery form, little-endian,
 *                                  G2 coordinates as c0 || c1; (0, 0) is infinity.
 *                                  Size CZK_G_ZKEY_BYTES.
 *  czk_G_to_zkey(out, p)
 *  czk_G_from_dec(p, s, flags)     snarkjs JSON projective triple as decimal strings:
 *                                  G1: s[0..2] = x, y, z; G2: s[0..5] = x.c0, x.c1,
 *                                  y.c0, y.c1, z.c0, z.c1. Accepted: z == 1 with
 *                                  (x, y) on the curve, or the infinity triple
 *                                  snarkjs writes (0, 1, 0). Anything else is
 *                                  CZK_ERR_FORMAT.
 *  czk_G_to_dec(s, p)              writes the same triple into s[k][CZK_FF_DEC_MAX]
 *                                  (3 strings for G1, 6 for G2), infinity as (0,1,0).
 */
#define CZK_EC_DECLARE(G, F, FR, NF)                                                               \
    struct czk_##G##_affine {                                                                      \
        struct czk_##F x, y;                                                                       \
    };                                                                                             \
    struct czk_##G {                                                                               \
        struct czk_##F x, y, z;                                                                    \
    };                                                                                             \
    CZK_API void czk_##G##_generator(struct czk_##G##_affine *p);                                  \
    CZK_API bool czk_##G##_affine_is_inf(const struct czk_##G##_affine *p);                        \
    CZK_API void czk_##G##_affine_set_inf(struct czk_##G##_affine *p);                             \
    CZK_API bool czk_##G##_affine_on_curve(const struct czk_##G##_affine *p);                      \
    CZK_API bool czk_##G##_affine_in_subgroup(const struct czk_##G##_affine *p);                   \
    CZK_API bool czk_##G##_affine_in_subgroup_slow(const struct czk_##G##_affine *p);              \
    CZK_API bool czk_##G##_affine_eq(const struct czk_##G##_affine *a,                             \
                                     const struct czk_##G##_affine *b);                            \
    CZK_API void czk_##G##_affine_neg(struct czk_##G##_affine *r,                                  \
                                      const struct czk_##G##_affine *p);                           \
    CZK_API bool czk_##G##_affine_from_x(struct czk_##G##_affine *p, const struct czk_##F *x,      \
                                         bool gt_half);                                            \
    CZK_API void czk_##G##_from_affine(struct czk_##G *r, const struct czk_##G##_affine *p);       \
    CZK_API void czk_##G##_to_affine(struct czk_##G##_affine *r, const struct czk_##G *p);         \
    CZK_API void czk_##G##_batch_to_affine(struct czk_##G##_affine *out, const struct czk_##G *in, \
                                           size_t n, struct czk_##F *scratch);                     \
    CZK_API void czk_##G##_set_inf(struct czk_##G *p);                                             \
    CZK_API bool czk_##G##_is_inf(const struct czk_##G *p);                                        \
    CZK_API bool czk_##G##_eq(const struct czk_##G *a, const struct czk_##G *b);                   \
    CZK_API void czk_##G##_add(struct czk_##G *r, const struct czk_##G *a,                         \
                               const struct czk_##G *b);                                           \
    CZK_API void czk_##G##_add_ct(struct czk_##G *r, const struct czk_##G *a,                      \
                                  const struct czk_##G *b);                                        \
    CZK_API void czk_##G##_add_affine(struct czk_##G *r, const struct czk_##G *a,                  \
                                      const struct czk_##G##_affine *b);                           \
    CZK_API void czk_##G##_sub(struct czk_##G *r, const struct czk_##G *a,                         \
                               const struct czk_##G *b);                                           \
    CZK_API void czk_##G##_dbl(struct czk_##G *r, const struct czk_##G *a);                        \
    CZK_API void czk_##G##_neg(struct czk_##G *r, const struct czk_##G *a);                        \
    CZK_API void czk_##G##_mul(struct czk_##G *r, const struct czk_##G *p,                         \
                               const struct czk_##FR *k);                                          \
    CZK_API void czk_##G##_mul_ct(struct czk_##G *r, const struct czk_##G *p,                      \
                                  const struct czk_##FR *k);                                       \
    CZK_API void czk_##G##_mul_limbs(struct czk_##G *r, const struct czk_##G *p,                   \
                                     const uint64_t *k, size_t nlimbs);                            \
    CZK_API void czk_##G##_clear_cofactor(struct czk_##G *r, const struct czk_##G *p);             \
    CZK_API const uint64_t *czk_##G##_order_limbs(size_t *n);                                      \
    CZK_API const uint64_t *czk_##G##_cofactor_limbs(size_t *n);                                   \
    CZK_API enum czk_status czk_##G##_from_zkey(struct czk_##G##_affine *p, const uint8_t *in,     \
                                                unsigned flags);                                   \
    CZK_API void czk_##G##_to_zkey(uint8_t *out, const struct czk_##G##_affine *p);                \
    CZK_API enum czk_status czk_##G##_from_dec(struct czk_##G##_affine *p,                         \
                                               const char *const *s, unsigned flags);              \
    CZK_API void czk_##G##_to_dec(char (*s)[CZK_FF_DEC_MAX], const struct czk_##G##_affine *p);

CZK_EC_DECLARE(g1_bn254, fp_bn254, fr_bn254, 1)
CZK_EC_DECLARE(g2_bn254, fp2_bn254, fr_bn254, 2)
CZK_EC_DECLARE(g1_bls12_381, fp_bls12_381, fr_bls12_381, 1)
CZK_EC_DECLARE(g2_bls12_381, fp2_bls12_381, fr_bls12_381, 2)

#define CZK_G1_BN254_ZKEY_BYTES 64
#define CZK_G2_BN254_ZKEY_BYTES 128
#define CZK_G1_BLS12_381_ZKEY_BYTES 96
#define CZK_G2_BLS12_381_ZKEY_BYTES 192

/*
 * zcash/bellman encodings of BLS12-381 points (big-endian coordinates; G2 as
 * c1 || c0). The three top bits of the first byte are flags:
 *   bit 7  compression (set in the 48/96-byte forms, clear in the 96/192-byte forms)
 *   bit 6  infinity (then every other bit must be zero)
 *   bit 5  sort: y is lexicographically largest (compressed forms only; must be
 *          clear for uncompressed and infinity)
 *
 *  czk_g1_bls12_381_compress(out[48], p) / czk_g1_bls12_381_uncompress(p, in[48], flags)
 *  czk_g1_bls12_381_serialize(out[96], p) / czk_g1_bls12_381_deserialize(p, in[96], flags)
 *  czk_g2_bls12_381_compress(out[96], p)  / czk_g2_bls12_381_uncompress(p, in[96], flags)
 *  czk_g2_bls12_381_serialize(out[192], p)/ czk_g2_bls12_381_deserialize(p, in[192], flags)
 */
CZK_API void czk_g1_bls12_381_compress(uint8_t out[48], const struct czk_g1_bls12_381_affine *p);
CZK_API enum czk_status czk_g1_bls12_381_uncompress(struct czk_g1_bls12_381_affine *p,
                                                    const uint8_t in[48], unsigned flags);
CZK_API void czk_g1_bls12_381_serialize(uint8_t out[96], const struct czk_g1_bls12_381_affine *p);
CZK_API enum czk_status czk_g1_bls12_381_deserialize(struct czk_g1_bls12_381_affine *p,
                                                     const uint8_t in[96], unsigned flags);
CZK_API void czk_g2_bls12_381_compress(uint8_t out[96], const struct czk_g2_bls12_381_affine *p);
CZK_API enum czk_status czk_g2_bls12_381_uncompress(struct czk_g2_bls12_381_affine *p,
                                                    const uint8_t in[96], unsigned flags);
CZK_API void czk_g2_bls12_381_serialize(uint8_t out[192],
                                        const struct czk_g2_bls12_381_affine *p);
CZK_API enum czk_status czk_g2_bls12_381_deserialize(struct czk_g2_bls12_381_affine *p,
                                                     const uint8_t in[192], unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_EC_H */
