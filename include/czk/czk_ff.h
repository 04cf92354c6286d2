/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — finite fields of BN254 and BLS12-381.
 *
 * Four prime fields, one API each (F is one of the names below):
 *
 *   fp_bn254       BN254 base field           4 x 64-bit limbs (32 bytes)
 *   fr_bn254       BN254 scalar field         4 limbs          (32 bytes)
 *   fp_bls12_381   BLS12-381 base field       6 limbs          (48 bytes)
 *   fr_bls12_381   BLS12-381 scalar field     4 limbs          (32 bytes)
 *
 * and the quadratic extensions fp2_bn254, fp2_bls12_381 = Fp[u]/(u^2 + 1).
 *
 * Representation: struct czk_F holds the Montgomery form a*R mod p (R = 2^(64*N))
 * as little-endian 64-bit limbs, always fully reduced (< p). This is exactly the
 * byte layout of snarkjs .zkey files and of the device code, so arrays of
 * elements can be memcpy'd between them on little-endian hosts.
 *
 * Conventions:
 *  - Output pointers may alias inputs.
 *  - Arithmetic (add, sub, neg, dbl, mul, sqr, inv, eq, is_zero, cmov) is
 *    constant-time in the values of its operands; pow is constant-time in the
 *    base and variable-time in the (public) exponent; sqrt, legendre, string
 *    I/O and the _vartime functions are variable-time and must only see public
 *    data.
 *  - inv(0) = 0.
 *  - Parsers return enum czk_status and write their output only on success;
 *    values >= p are rejected with CZK_ERR_RANGE, malformed text with
 *    CZK_ERR_FORMAT.
 *  - Thread-safe: no global mutable state.
 */
#ifndef CZK_CZK_FF_H
#define CZK_CZK_FF_H

#include "czk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Root-of-unity conventions of the two proof systems czk is compatible with. */
enum czk_ntt_convention {
    /* snarkjs/ffjavascript: omega_{2^s} = g^t with g the smallest quadratic
     * non-residue (5 for both BN254 Fr and BLS12-381 Fr), r - 1 = 2^s * t. */
    CZK_NTT_SNARKJS = 0,
    /* bellman/zcash/blst: omega_{2^s} = 7^t on BLS12-381 Fr (5^t on BN254 Fr,
     * where both conventions coincide); coset generator 7 (BN254: 5). */
    CZK_NTT_BELLMAN = 1,
};

/*
 * CZK_FF_DECLARE(F, N) declares the API of prime field F with N limbs.
 *
 *  czk_F_modulus()          p as N little-endian limbs (static storage).
 *  czk_F_zero/one/from_u64  constants; from_u64 takes any u64 (reduced mod p).
 *  czk_F_is_zero/is_one/eq  constant-time predicates.
 *  czk_F_cmov(r, a, c)      r = c ? a : r, constant-time.
 *  czk_F_add/sub/neg/dbl/half/mul/sqr   r = a op b mod p.
 *  czk_F_inv(r, a)          r = a^-1 (Fermat, constant-time); inv(0) = 0.
 *  czk_F_inv_vartime        same value, faster, variable-time (public data only).
 *  czk_F_pow(r, a, e, n)    r = a^e, e given as n little-endian limbs.
 *  czk_F_legendre(a)        1 if a is a nonzero square, -1 if not, 0 if a == 0.
 *  czk_F_sqrt(r, a)         returns true and a root if a is a square (either
 *                           root; use is_odd / gt_half to pick a sign), false
 *                           and r untouched otherwise.
 *  czk_F_is_odd(a)          canonical value is odd (the "sign" of sgn0).
 *  czk_F_gt_half(a)         canonical value > (p-1)/2 ("lexicographically largest"
 *                           of the zcash/bellman encodings).
 *  czk_F_from_canonical     limbs < p -> Montgomery; CZK_ERR_RANGE if >= p.
 *  czk_F_to_canonical       Montgomery -> canonical limbs.
 *  czk_F_from_mont_limbs    limbs already in Montgomery form (zkey), checked < p.
 *  czk_F_from_bytes_le/be   8N bytes, canonical value, checked < p.
 *  czk_F_to_bytes_le/be     8N bytes, canonical value.
 *  czk_F_from_dec           decimal text (digits only, no sign, at most 200 chars);
 *                           CZK_ERR_FORMAT if malformed, CZK_ERR_RANGE if >= p.
 *  czk_F_from_hex           hex text with optional 0x prefix, at most 2*8N digits.
 *  czk_F_to_dec/to_hex      write NUL-terminated text into buf[len]; return the
 *                           string length (excluding NUL) or 0 if len is too small.
 *                           to_hex writes "0x" and lowercase digits without
 *                           leading zeros ("0x0" for zero).
 *  czk_F_batch_inv(out, in, n, scratch)  out[i] = in[i]^-1 with one inversion;
 *                           zero inputs give zero; scratch holds n elements;
 *                           out may equal in; scratch must not alias either.
 */
#define CZK_FF_DECLARE(F, N)                                                                       \
    struct czk_##F {                                                                               \
        uint64_t l[N];                                                                             \
    };                                                                                             \
    CZK_API const uint64_t *czk_##F##_modulus(void);                                              \
    CZK_API void czk_##F##_zero(struct czk_##F *r);                                                \
    CZK_API void czk_##F##_one(struct czk_##F *r);                                                 \
    CZK_API void czk_##F##_from_u64(struct czk_##F *r, uint64_t v);                                \
    CZK_API bool czk_##F##_is_zero(const struct czk_##F *a);                                       \
    CZK_API bool czk_##F##_is_one(const struct czk_##F *a);                                        \
    CZK_API bool czk_##F##_eq(const struct czk_##F *a, const struct czk_##F *b);                   \
    CZK_API void czk_##F##_cmov(struct czk_##F *r, const struct czk_##F *a, bool c);               \
    CZK_API void czk_##F##_add(struct czk_##F *r, const struct czk_##F *a,                         \
                               const struct czk_##F *b);                                           \
    CZK_API void czk_##F##_sub(struct czk_##F *r, const struct czk_##F *a,                         \
                               const struct czk_##F *b);                                           \
    CZK_API void czk_##F##_neg(struct czk_##F *r, const struct czk_##F *a);                        \
    CZK_API void czk_##F##_dbl(struct czk_##F *r, const struct czk_##F *a);                        \
    CZK_API void czk_##F##_half(struct czk_##F *r, const struct czk_##F *a);                       \
    CZK_API void czk_##F##_mul(struct czk_##F *r, const struct czk_##F *a,                         \
                               const struct czk_##F *b);                                           \
    CZK_API void czk_##F##_sqr(struct czk_##F *r, const struct czk_##F *a);                        \
    CZK_API void czk_##F##_inv(struct czk_##F *r, const struct czk_##F *a);                        \
    CZK_API void czk_##F##_inv_vartime(struct czk_##F *r, const struct czk_##F *a);                \
    CZK_API void czk_##F##_pow(struct czk_##F *r, const struct czk_##F *a, const uint64_t *e,      \
                               size_t nlimbs);                                                     \
    CZK_API int czk_##F##_legendre(const struct czk_##F *a);                                       \
    CZK_API bool czk_##F##_sqrt(struct czk_##F *r, const struct czk_##F *a);                       \
    CZK_API bool czk_##F##_is_odd(const struct czk_##F *a);                                        \
    CZK_API bool czk_##F##_gt_half(const struct czk_##F *a);                                       \
    CZK_API enum czk_status czk_##F##_from_canonical(struct czk_##F *r, const uint64_t in[N]);     \
    CZK_API void czk_##F##_to_canonical(uint64_t out[N], const struct czk_##F *a);                 \
    CZK_API enum czk_status czk_##F##_from_mont_limbs(struct czk_##F *r, const uint64_t in[N]);    \
    CZK_API enum czk_status czk_##F##_from_bytes_le(struct czk_##F *r, const uint8_t in[8 * N]);   \
    CZK_API enum czk_status czk_##F##_from_bytes_be(struct czk_##F *r, const uint8_t in[8 * N]);   \
    CZK_API void czk_##F##_to_bytes_le(uint8_t out[8 * N], const struct czk_##F *a);               \
    CZK_API void czk_##F##_to_bytes_be(uint8_t out[8 * N], const struct czk_##F *a);               \
    CZK_API enum czk_status czk_##F##_from_dec(struct czk_##F *r, const char *s);                  \
    CZK_API enum czk_status czk_##F##_from_hex(struct czk_##F *r, const char *s);                  \
    CZK_API size_t czk_##F##_to_dec(char *buf, size_t len, const struct czk_##F *a);               \
    CZK_API size_t czk_##F##_to_hex(char *buf, size_t len, const struct czk_##F *a);               \
    CZK_API void czk_##F##_batch_inv(struct czk_##F *out, const struct czk_##F *in, size_t n,      \
                                     struct czk_##F *scratch);

CZK_FF_DECLARE(fp_bn254, 4)
CZK_FF_DECLARE(fr_bn254, 4)
CZK_FF_DECLARE(fp_bls12_381, 6)
CZK_FF_DECLARE(fr_bls12_381, 4)

/* Byte sizes of the fields' elements. */
#define CZK_FP_BN254_BYTES 32
#define CZK_FR_BN254_BYTES 32
#define CZK_FP_BLS12_381_BYTES 48
#define CZK_FR_BLS12_381_BYTES 32

/* Largest decimal string of any field element, plus NUL (116 digits < 2^384). */
#define CZK_FF_DEC_MAX 120
#define CZK_FF_HEX_MAX 100

/*
 * Scalar-field NTT data.
 *  czk_FR_two_adicity()                 s with r - 1 = 2^s * t (BN254: 28, BLS12-381: 32).
 *  czk_FR_root_of_unity(w, lg_n, conv)  primitive 2^lg_n-th root of unity of the
 *                                       convention; CZK_ERR_INVALID_ARG if lg_n > s.
 *                                       snarkjs's odd-coset shift for domain 2^k is
 *                                       root_of_unity(k + 1) for k < s.
 *  czk_FR_coset_gen(g, conv)            the multiplicative generator of the convention:
 *                                       bellman 7 (BLS12-381) / 5 (BN254), the coset
 *                                       generator of bellman's NTTs; snarkjs 5 (the
 *                                       non-residue its roots come from). This is not
 *                                       snarkjs's odd-coset shift, which is
 *                                       root_of_unity(k + 1) for a 2^k domain, except
 *                                       at k = s, where snarkjs uses 5^2 = 25.
 *  inv(0) = 0 for Fp2 as for the prime fields; from_hex accepts 0x or 0X and
 *  digits of either case.
 */
#define CZK_FR_DECLARE_NTT(F)                                                                      \
    CZK_API unsigned czk_##F##_two_adicity(void);                                                  \
    CZK_API enum czk_status czk_##F##_root_of_unity(struct czk_##F *w, unsigned lg_n,              \
                                                    enum czk_ntt_convention conv);                 \
    CZK_API void czk_##F##_coset_gen(struct czk_##F *g, enum czk_ntt_convention conv);

CZK_FR_DECLARE_NTT(fr_bn254)
CZK_FR_DECLARE_NTT(fr_bls12_381)

/*
 * Quadratic extension Fp2 = Fp[u]/(u^2 + 1) over each base field; element c0 + c1*u.
 *  czk_F2_mul_by_nonresidue(r, a)  r = a * xi, where xi = 9 + u (BN254) or 1 + u
 *                                  (BLS12-381) is the non-residue of the Fp6 tower
 *                                  and of the G2 twist.
 *  czk_F2_conj(r, a)               c0 - c1*u, which is also the Frobenius a^p.
 *  czk_F2_mul_fp(r, a, k)          r = a * k for k in Fp.
 *  czk_F2_sqrt(r, a)               true and a root if a is a square, else false and
 *                                  r untouched; any root (pick the sign with
 *                                  czk_F2_gt_half / czk_F2_sgn0).
 *  czk_F2_gt_half(a)               zcash "lexicographically largest": c1 > (p-1)/2,
 *                                  or c1 == 0 and c0 > (p-1)/2.
 *  czk_F2_sgn0(a)                  RFC 9380 sgn0: parity of c0, or of c1 if c0 == 0.
 *  czk_F2_pow(r, a, e, n)          variable time in e.
 *  czk_F2_inv_vartime(r, a)        the same value as czk_F2_inv (inv(0) = 0), through
 *                                  the variable-time base-field inversion: faster,
 *                                  for public data only (to_affine, MSM buckets).
 */
#define CZK_FF2_DECLARE(F2, F)                                                                     \
    struct czk_##F2 {                                                                              \
        struct czk_##F c0, c1;                                                                     \
    };                                                                                             \
    CZK_API void czk_##F2##_zero(struct czk_##F2 *r);                                              \
    CZK_API void czk_##F2##_one(struct czk_##F2 *r);                                               \
    CZK_API bool czk_##F2##_is_zero(const struct czk_##F2 *a);                                     \
    CZK_API bool czk_##F2##_is_one(const struct czk_##F2 *a);                                      \
    CZK_API bool czk_##F2##_eq(const struct czk_##F2 *a, const struct czk_##F2 *b);                \
    CZK_API void czk_##F2##_cmov(struct czk_##F2 *r, const struct czk_##F2 *a, bool c);            \
    CZK_API void czk_##F2##_add(struct czk_##F2 *r, const struct czk_##F2 *a,                      \
                                const struct czk_##F2 *b);                                         \
    CZK_API void czk_##F2##_sub(struct czk_##F2 *r, const struct czk_##F2 *a,                      \
                                const struct czk_##F2 *b);                                         \
    CZK_API void czk_##F2##_neg(struct czk_##F2 *r, const struct czk_##F2 *a);                     \
    CZK_API void czk_##F2##_dbl(struct czk_##F2 *r, const struct czk_##F2 *a);                     \
    CZK_API void czk_##F2##_conj(struct czk_##F2 *r, const struct czk_##F2 *a);                    \
    CZK_API void czk_##F2##_mul(struct czk_##F2 *r, const struct czk_##F2 *a,                      \
                                const struct czk_##F2 *b);                                         \
    CZK_API void czk_##F2##_mul_fp(struct czk_##F2 *r, const struct czk_##F2 *a,                   \
                                   const struct czk_##F *k);                                       \
    CZK_API void czk_##F2##_sqr(struct czk_##F2 *r, const struct czk_##F2 *a);                     \
    CZK_API void czk_##F2##_mul_by_nonresidue(struct czk_##F2 *r, const struct czk_##F2 *a);       \
    CZK_API void czk_##F2##_inv(struct czk_##F2 *r, const struct czk_##F2 *a);                     \
    CZK_API void czk_##F2##_inv_vartime(struct czk_##F2 *r, const struct czk_##F2 *a);             \
    CZK_API void czk_##F2##_pow(struct czk_##F2 *r, const struct czk_##F2 *a, const uint64_t *e,   \
                                size_t nlimbs);                                                    \
    CZK_API bool czk_##F2##_is_square(const struct czk_##F2 *a);                                   \
    CZK_API bool czk_##F2##_sqrt(struct czk_##F2 *r, const struct czk_##F2 *a);                    \
    CZK_API bool czk_##F2##_gt_half(const struct czk_##F2 *a);                                     \
    CZK_API bool czk_##F2##_sgn0(const struct czk_##F2 *a);

CZK_FF2_DECLARE(fp2_bn254, fp_bn254)
CZK_FF2_DECLARE(fp2_bls12_381, fp_bls12_381)

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_FF_H */
