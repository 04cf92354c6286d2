/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Point encodings of the four groups (declared in czk/czk_ec.h):
 *
 *  - snarkjs .zkey / ffjavascript "LEM" binary: x || y, every base-field component in
 *    Montgomery form as little-endian bytes, Fp2 as c0 || c1; infinity is all zero bytes
 *    (wasmcurves' zeroAffine, which is also what toAffine gives for z = 0).
 *  - snarkjs JSON projective triples of decimal strings (ffjavascript curve.toObject):
 *    affine points carry z = 1 (G2: ["1", "0"]), infinity is (0, 1, 0).
 *  - BLS12-381 zcash/bellman encodings: big-endian coordinates, Fp2 as c1 || c0, three
 *    flag bits on top of byte 0 (compressed, infinity, sort = y lexicographically largest).
 *
 * Decoders build the point in a local and copy it out only on success, so a rejected input
 * leaves the caller's point untouched. Check order (and so which error wins when several
 * apply): flags / layout (CZK_ERR_FORMAT), coordinate range (CZK_ERR_RANGE), curve
 * (CZK_ERR_NOT_ON_CURVE), subgroup (CZK_ERR_NOT_IN_SUBGROUP).
 *
 * The in-memory affine infinity (0, 0) is accepted by czk_G_affine_on_curve, so decoders of
 * formats that mark infinity some other way (JSON z = 0, zcash flag bit) reject an explicit
 * (0, 0) themselves: it is not a curve point.
 *
 * Everything here is variable-time and must only see public data (points are public).
 * No allocation, no logging, no global state.
 */
#include "czk/czk_ec.h"

#include <string.h>

/* ---- base-field helpers ----------------------------------------------------------------- */

/*
 * BASE_HELPERS(B, N) defines, for base field B with N limbs:
 *   B_read_mont(r, in)   8N little-endian bytes holding Montgomery limbs -> r (checked < p)
 *   B_write_mont(out, a) inverse of read_mont (the struct already holds Montgomery limbs)
 *   B_read_dec(r, s)     decimal string -> r; NULL is CZK_ERR_FORMAT
 *   B_write_dec(s, a)    decimal string into s[CZK_FF_DEC_MAX]
 * Limbs are assembled byte by byte so the code does not depend on host endianness.
 */
#define BASE_HELPERS(B, N)                                                                         \
    static enum czk_status B##_read_mont(struct czk_##B *r, const uint8_t *in) {                   \
        uint64_t l[N];                                                                             \
        for (size_t i = 0; i < (N); i++) {                                                         \
            uint64_t v = 0;                                                                        \
            for (size_t j = 0; j < 8; j++)                                                         \
                v |= (uint64_t)in[8 * i + j] << (8 * j);                                           \
            l[i] = v;                                                                              \
        }                                                                                          \
        return czk_##B##_from_mont_limbs(r, l);                                                    \
    }                                                                                              \
    static void B##_write_mont(uint8_t *out, const struct czk_##B *a) {                            \
        for (size_t i = 0; i < (N); i++)                                                           \
            for (size_t j = 0; j < 8; j++)                                                         \
                out[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));                                    \
    }                                                                                              \
    static enum czk_status B##_read_dec(struct czk_##B *r, const char *s) {                        \
        if (s == NULL)                                                                             \
            return CZK_ERR_FORMAT;                                                                 \
        return czk_##B##_from_dec(r, s);                                                           \
    }                                                                                              \
    static void B##_write_dec(char *s, const struct czk_##B *a) {                                  \
        if (czk_##B##_to_dec(s, CZK_FF_DEC_MAX, a) == 0)                                           \
            s[0] = '\0'; /* unreachable: CZK_FF_DEC_MAX fits every element */                      \
    }

BASE_HELPERS(fp_bn254, 4)
BASE_HELPERS(fp_bls12_381, 6)

/*
 * FP2_HELPERS(F2, B, BB) lifts the helpers to Fp2 = c0 + c1*u (BB = bytes of B): the zkey
 * and JSON forms both list c0 first.
 */
#define FP2_HELPERS(F2, B, BB)                                                                     \
    static enum czk_status F2##_read_mont(struct czk_##F2 *r, const uint8_t *in) {                 \
        struct czk_##F2 t;                                                                         \
        enum czk_status st = B##_read_mont(&t.c0, in);                                             \
        if (st == CZK_OK)                                                                          \
            st = B##_read_mont(&t.c1, in + (BB));                                                  \
        if (st == CZK_OK)                                                                          \
            *r = t;                                                                                \
        return st;                                                                                 \
    }                                                                                              \
    static void F2##_write_mont(uint8_t *out, const struct czk_##F2 *a) {                          \
        B##_write_mont(out, &a->c0);                                                               \
        B##_write_mont(out + (BB), &a->c1);                                                        \
    }                                                                                              \
    static enum czk_status F2##_read_decs(struct czk_##F2 *r, const char *const *s) {              \
        struct czk_##F2 t;                                                                         \
        enum czk_status st = B##_read_dec(&t.c0, s[0]);                                            \
        if (st == CZK_OK)                                                                          \
            st = B##_read_dec(&t.c1, s[1]);                                                        \
        if (st == CZK_OK)                                                                          \
            *r = t;                                                                                \
        return st;                                                                                 \
    }                                                                                              \
    static void F2##_write_decs(char (*s)[CZK_FF_DEC_MAX], const struct czk_##F2 *a) {             \
        B##_write_dec(s[0], &a->c0);                                                               \
        B##_write_dec(s[1], &a->c1);                                                               \
    }

FP2_HELPERS(fp2_bn254, fp_bn254, CZK_FP_BN254_BYTES)
FP2_HELPERS(fp2_bls12_381, fp_bls12_381, CZK_FP_BLS12_381_BYTES)

/* One-component coordinate fields get the same _decs interface as Fp2 (one string). */
static enum czk_status fp_bn254_read_decs(struct czk_fp_bn254 *r, const char *const *s) {
    return fp_bn254_read_dec(r, s[0]);
}
static void fp_bn254_write_decs(char (*s)[CZK_FF_DEC_MAX], const struct czk_fp_bn254 *a) {
    fp_bn254_write_dec(s[0], a);
}
static enum czk_status fp_bls12_381_read_decs(struct czk_fp_bls12_381 *r, const char *const *s) {
    return fp_bls12_381_read_dec(r, s[0]);
}
static void fp_bls12_381_write_decs(char (*s)[CZK_FF_DEC_MAX], const struct czk_fp_bls12_381 *a) {
    fp_bls12_381_write_dec(s[0], a);
}

/* ---- snarkjs forms, all four groups ----------------------------------------------------- */

/*
 * SNARKJS_IMPL(G, F, NF, CB): group G with coordinate field F of NF base components and CB
 * bytes per coordinate.
 */
#define SNARKJS_IMPL(G, F, NF, CB)                                                                 \
    static enum czk_status G##_check(const struct czk_##G##_affine *t, unsigned flags) {           \
        if (!czk_##G##_affine_on_curve(t))                                                         \
            return CZK_ERR_NOT_ON_CURVE;                                                           \
        if (!(flags & CZK_EC_SKIP_SUBGROUP) && !czk_##G##_affine_in_subgroup(t))                   \
            return CZK_ERR_NOT_IN_SUBGROUP;                                                        \
        return CZK_OK;                                                                             \
    }                                                                                              \
                                                                                                   \
    /* x || y in Montgomery form; (0, 0) passes the curve check as infinity. */                    \
    enum czk_status czk_##G##_from_zkey(struct czk_##G##_affine *p, const uint8_t *in,             \
                                        unsigned flags) {                                          \
        struct czk_##G##_affine t;                                                                 \
        enum czk_status st = F##_read_mont(&t.x, in);                                              \
        if (st == CZK_OK)                                                                          \
            st = F##_read_mont(&t.y, in + (CB));                                                   \
        if (st == CZK_OK)                                                                          \
            st = G##_check(&t, flags);                                                             \
        if (st == CZK_OK)                                                                          \
            *p = t;                                                                                \
        return st;                                                                                 \
    }                                                                                              \
                                                                                                   \
    void czk_##G##_to_zkey(uint8_t *out, const struct czk_##G##_affine *p) {                       \
        F##_write_mont(out, &p->x);                                                                \
        F##_write_mont(out + (CB), &p->y);                                                         \
    }                                                                                              \
                                                                                                   \
    /*                                                                                             \
     * (x, y, z) with z = 1: the affine point (x, y); (0, 1, 0): infinity. snarkjs itself reads    \
     * any z = 0 as infinity and other z as Jacobian, but it never writes those, so they are       \
     * rejected as non-canonical. (0, 0, 1) is the in-memory infinity but no curve point.          \
     */                                                                                            \
    enum czk_status czk_##G##_from_dec(struct czk_##G##_affine *p, const char *const *s,           \
                                       unsigned flags) {                                           \
        struct czk_##G##_affine t;                                                                 \
        struct czk_##F z;                                                                          \
        enum czk_status st;                                                                        \
        if (s == NULL)                                                                             \
            return CZK_ERR_FORMAT;                                                                 \
        st = F##_read_decs(&t.x, s);                                                               \
        if (st == CZK_OK)                                                                          \
            st = F##_read_decs(&t.y, s + (NF));                                                    \
        if (st == CZK_OK)                                                                          \
            st = F##_read_decs(&z, s + 2 * (NF));                                                  \
        if (st != CZK_OK)                                                                          \
            return st;                                                                             \
        if (czk_##F##_is_zero(&z)) {                                                               \
            if (!czk_##F##_is_zero(&t.x) || !czk_##F##_is_one(&t.y))                               \
                return CZK_ERR_FORMAT;                                                             \
            czk_##G##_affine_set_inf(p);                                                           \
            return CZK_OK;                                                                         \
        }                                                                                          \
        if (!czk_##F##_is_one(&z))                                                                 \
            return CZK_ERR_FORMAT;                                                                 \
        if (czk_##G##_affine_is_inf(&t))                                                           \
            return CZK_ERR_NOT_ON_CURVE;                                                           \
        st = G##_check(&t, flags);                                                                 \
        if (st == CZK_OK)                                                                          \
            *p = t;                                                                                \
        return st;                                                                                 \
    }                                                                                              \
                                                                                                   \
    void czk_##G##_to_dec(char (*s)[CZK_FF_DEC_MAX], const struct czk_##G##_affine *p) {           \
        struct czk_##F zero, one;                                                                  \
        czk_##F##_zero(&zero);                                                                     \
        czk_##F##_one(&one);                                                                       \
        if (czk_##G##_affine_is_inf(p)) {                                                          \
            F##_write_decs(s, &zero);                                                              \
            F##_write_decs(s + (NF), &one);                                                        \
            F##_write_decs(s + 2 * (NF), &zero);                                                   \
        } else {                                                                                   \
            F##_write_decs(s, &p->x);                                                              \
            F##_write_decs(s + (NF), &p->y);                                                       \
            F##_write_decs(s + 2 * (NF), &one);                                                    \
        }                                                                                          \
    }

SNARKJS_IMPL(g1_bn254, fp_bn254, 1, CZK_FP_BN254_BYTES)
SNARKJS_IMPL(g2_bn254, fp2_bn254, 2, 2 * CZK_FP_BN254_BYTES)
SNARKJS_IMPL(g1_bls12_381, fp_bls12_381, 1, CZK_FP_BLS12_381_BYTES)
SNARKJS_IMPL(g2_bls12_381, fp2_bls12_381, 2, 2 * CZK_FP_BLS12_381_BYTES)

/* ---- BLS12-381 zcash/bellman encodings -------------------------------------------------- */

#define FLAG_COMPRESSED 0x80u
#define FLAG_INFINITY 0x40u
#define FLAG_SORT 0x20u
#define FLAG_MASK 0xe0u
#define BLS_FP CZK_FP_BLS12_381_BYTES

/*
 * Validates the flag bits of an encoding of len bytes that must (compressed) or must not
 * carry the compression bit, and returns the infinity and sort bits. Infinity must be the
 * only other bit set in the whole encoding (zcash: "all remaining bits zero"), and the sort
 * bit is meaningless, hence rejected, without compression.
 */
static enum czk_status bls_flags(const uint8_t *in, size_t len, bool compressed, bool *inf,
                                 bool *sort) {
    unsigned f = in[0] & FLAG_MASK;
    if (((f & FLAG_COMPRESSED) != 0) != compressed)
        return CZK_ERR_FORMAT;
    *inf = (f & FLAG_INFINITY) != 0;
    *sort = (f & FLAG_SORT) != 0;
    if (*inf) {
        if (*sort || (in[0] & ~FLAG_MASK) != 0)
            return CZK_ERR_FORMAT;
        for (size_t i = 1; i < len; i++)
            if (in[i] != 0)
                return CZK_ERR_FORMAT;
    } else if (!compressed && *sort) {
        return CZK_ERR_FORMAT;
    }
    return CZK_OK;
}

/* A big-endian Fp element; with first set, the three flag bits of in[0] are masked off. */
static enum czk_status bls_read_fp(struct czk_fp_bls12_381 *r, const uint8_t *in, bool first) {
    uint8_t buf[BLS_FP];
    memcpy(buf, in, BLS_FP);
    if (first)
        buf[0] &= (uint8_t)~FLAG_MASK;
    return czk_fp_bls12_381_from_bytes_be(r, buf);
}

/* Fp2 as c1 || c0, big-endian; the flags live in c1's first byte. */
static enum czk_status bls_read_fp2(struct czk_fp2_bls12_381 *r, const uint8_t *in, bool first) {
    struct czk_fp2_bls12_381 t;
    enum czk_status st = bls_read_fp(&t.c1, in, first);
    if (st == CZK_OK)
        st = bls_read_fp(&t.c0, in + BLS_FP, false);
    if (st == CZK_OK)
        *r = t;
    return st;
}

static void bls_write_fp2(uint8_t *out, const struct czk_fp2_bls12_381 *a) {
    czk_fp_bls12_381_to_bytes_be(out, &a->c1);
    czk_fp_bls12_381_to_bytes_be(out + BLS_FP, &a->c0);
}

/* Canonical values are < p < 2^381, so the top three bits are free for the flags. */
static void bls_write_inf(uint8_t *out, size_t len, bool compressed) {
    memset(out, 0, len);
    out[0] = (uint8_t)(FLAG_INFINITY | (compressed ? FLAG_COMPRESSED : 0));
}

/*
 * BLS_IMPL(G, F, CB, READ, WRITE): the four zcash codecs of G; CB bytes per coordinate,
 * READ(r, in, first) / WRITE(out, a) the big-endian coordinate codecs.
 */
#define BLS_IMPL(G, F, CB, READ, WRITE)                                                            \
    void czk_##G##_compress(uint8_t out[CB], const struct czk_##G##_affine *p) {                   \
        if (czk_##G##_affine_is_inf(p)) {                                                          \
            bls_write_inf(out, (CB), true);                                                        \
            return;                                                                                \
        }                                                                                          \
        WRITE(out, &p->x);                                                                         \
        out[0] |= (uint8_t)(FLAG_COMPRESSED | (czk_##F##_gt_half(&p->y) ? FLAG_SORT : 0));         \
    }                                                                                              \
                                                                                                   \
    enum czk_status czk_##G##_uncompress(struct czk_##G##_affine *p, const uint8_t in[CB],         \
                                         unsigned flags) {                                         \
        struct czk_##G##_affine t;                                                                 \
        struct czk_##F x;                                                                          \
        bool inf, sort;                                                                            \
        enum czk_status st = bls_flags(in, (CB), true, &inf, &sort);                               \
        if (st != CZK_OK)                                                                          \
            return st;                                                                             \
        if (inf) {                                                                                 \
            czk_##G##_affine_set_inf(p);                                                           \
            return CZK_OK;                                                                         \
        }                                                                                          \
        st = READ(&x, in, true);                                                                   \
        if (st != CZK_OK)                                                                          \
            return st;                                                                             \
        /* y^2 = x^3 + b must have a root; from_x picks the one whose sign matches. */             \
        if (!czk_##G##_affine_from_x(&t, &x, sort))                                                \
            return CZK_ERR_NOT_ON_CURVE;                                                           \
        /* Only y = 0 (a 2-torsion point, not in any odd-order subgroup) could disagree. */        \
        if (czk_##F##_gt_half(&t.y) != sort)                                                       \
            return CZK_ERR_FORMAT;                                                                 \
        if (!(flags & CZK_EC_SKIP_SUBGROUP) && !czk_##G##_affine_in_subgroup(&t))                  \
            return CZK_ERR_NOT_IN_SUBGROUP;                                                        \
        *p = t;                                                                                    \
        return CZK_OK;                                                                             \
    }                                                                                              \
                                                                                                   \
    void czk_##G##_serialize(uint8_t out[2 * (CB)], const struct czk_##G##_affine *p) {            \
        if (czk_##G##_affine_is_inf(p)) {                                                          \
            bls_write_inf(out, 2 * (CB), false);                                                   \
            return;                                                                                \
        }                                                                                          \
        WRITE(out, &p->x);                                                                         \
        WRITE(out + (CB), &p->y);                                                                  \
    }                                                                                              \
                                                                                                   \
    enum czk_status czk_##G##_deserialize(struct czk_##G##_affine *p, const uint8_t in[2 * (CB)],  \
                                          unsigned flags) {                                        \
        struct czk_##G##_affine t;                                                                 \
        bool inf, sort;                                                                            \
        enum czk_status st = bls_flags(in, 2 * (CB), false, &inf, &sort);                          \
        if (st != CZK_OK)                                                                          \
            return st;                                                                             \
        if (inf) {                                                                                 \
            czk_##G##_affine_set_inf(p);                                                           \
            return CZK_OK;                                                                         \
        }                                                                                          \
        st = READ(&t.x, in, true);                                                                 \
        if (st == CZK_OK)                                                                          \
            st = READ(&t.y, in + (CB), false);                                                     \
        if (st != CZK_OK)                                                                          \
            return st;                                                                             \
        /* (0, 0) without the infinity flag is not a point (on_curve would take it as O). */       \
        if (czk_##G##_affine_is_inf(&t))                                                           \
            return CZK_ERR_NOT_ON_CURVE;                                                           \
        if (!czk_##G##_affine_on_curve(&t))                                                        \
            return CZK_ERR_NOT_ON_CURVE;                                                           \
        if (!(flags & CZK_EC_SKIP_SUBGROUP) && !czk_##G##_affine_in_subgroup(&t))                  \
            return CZK_ERR_NOT_IN_SUBGROUP;                                                        \
        *p = t;                                                                                    \
        return CZK_OK;                                                                             \
    }

#define BLS_WRITE_FP(out, a) czk_fp_bls12_381_to_bytes_be((out), (a))

BLS_IMPL(g1_bls12_381, fp_bls12_381, 48, bls_read_fp, BLS_WRITE_FP)
BLS_IMPL(g2_bls12_381, fp2_bls12_381, 96, bls_read_fp2, bls_write_fp2)
