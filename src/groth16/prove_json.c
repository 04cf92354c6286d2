/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Encodings the prover writes: proof.json and public.json as `snarkjs groth16 prove`
 * writes them, verification_key.json as `snarkjs zkey export verificationkey` does, and
 * the 192-byte bellman proof.
 *
 * snarkjs writes its JSON with bfj (space: 1): one space per nesting level, members as
 * "key": value, no trailing newline, and an empty array as "[", newline, indentation,
 * "]". The writer below reproduces that byte for byte.
 *
 * vk_alphabeta_12 is ffjavascript's pairing e(alpha1, beta2). Its final exponentiation
 * computes a fixed power of the standard one (czk_pairing.h): e_ffjs = e^m with
 * m = 2x(6x^2 + 3x + 1), x = 4965661367192848881, on BN254, and e^3 on BLS12-381; the
 * coefficients are written in the tower order c0.c0.c0, c0.c0.c1, ... (which both use).
 *
 * Threading: pure functions of their inputs. Ownership: returned strings are heap
 * blocks of the caller (free()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk_pairing.h"
#include "groth16/prove_internal.h"

struct sb {
    char *p;
    size_t len, cap;
    bool oom;
};

static void sb_put(struct sb *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1024;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void sb_str(struct sb *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_nl(struct sb *b, unsigned depth)
{
    sb_put(b, "\n", 1);
    for (unsigned i = 0; i < depth; i++)
        sb_put(b, " ", 1);
}

static void sb_q(struct sb *b, const char *s)
{
    sb_put(b, "\"", 1);
    sb_str(b, s); /* decimal digits and fixed names only: nothing to escape */
    sb_put(b, "\"", 1);
}

static enum czk_status sb_done(struct sb *b, char **json, size_t *len)
{
    if (b->oom || !b->p) {
        free(b->p);
        return CZK_ERR_NOMEM;
    }
    *json = b->p;
    if (len)
        *len = b->len;
    return CZK_OK;
}

/* An array of n decimal strings whose opening bracket sits at nesting `depth`. */
static void str_array(struct sb *b, unsigned depth, const char (*s)[CZK_FF_DEC_MAX], size_t n)
{
    sb_put(b, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_put(b, ",", 1);
        sb_nl(b, depth + 1);
        sb_q(b, s[i]);
    }
    sb_nl(b, depth);
    sb_put(b, "]", 1);
}

/* An array of `groups` arrays of `per` strings. */
static void str_array2(struct sb *b, unsigned depth, const char (*s)[CZK_FF_DEC_MAX], size_t groups,
                       size_t per)
{
    sb_put(b, "[", 1);
    for (size_t g = 0; g < groups; g++) {
        if (g)
            sb_put(b, ",", 1);
        sb_nl(b, depth + 1);
        str_array(b, depth + 1, s + g * per, per);
    }
    sb_nl(b, depth);
    sb_put(b, "]", 1);
}

/* "key": at depth 1 of the top-level object (first member without a comma). */
static void member(struct sb *b, const char *key, bool first)
{
    if (!first)
        sb_put(b, ",", 1);
    sb_nl(b, 1);
    sb_q(b, key);
    sb_put(b, ": ", 2);
}

/* Decimal strings of points: 3 for G1, 6 for G2 (to_dec layout). */
static void g1_dec(enum czk_groth16_curve c, const void *p, char (*s)[CZK_FF_DEC_MAX])
{
    if (c == CZK_GROTH16_CURVE_BN254)
        czk_g1_bn254_to_dec(s, p);
    else
        czk_g1_bls12_381_to_dec(s, p);
}

static void g2_dec(enum czk_groth16_curve c, const void *p, char (*s)[CZK_FF_DEC_MAX])
{
    if (c == CZK_GROTH16_CURVE_BN254)
        czk_g2_bn254_to_dec(s, p);
    else
        czk_g2_bls12_381_to_dec(s, p);
}

static void g1_member(struct sb *b, enum czk_groth16_curve c, const char *key, const void *p,
                      bool first)
{
    char s[3][CZK_FF_DEC_MAX];
    g1_dec(c, p, s);
    member(b, key, first);
    str_array(b, 1, (const char(*)[CZK_FF_DEC_MAX])s, 3);
}

static void g2_member(struct sb *b, enum czk_groth16_curve c, const char *key, const void *p)
{
    char s[6][CZK_FF_DEC_MAX];
    g2_dec(c, p, s);
    member(b, key, false);
    str_array2(b, 1, (const char(*)[CZK_FF_DEC_MAX])s, 3, 2);
}

enum czk_status czk_groth16_proof_to_json(const struct czk_groth16_proof *proof, char **json,
                                          size_t *len)
{
    if (!proof || !json)
        return CZK_ERR_INVALID_ARG;
    enum czk_groth16_curve c = proof->curve;
    const void *pa, *pb, *pc;
    if (c == CZK_GROTH16_CURVE_BN254) {
        pa = &proof->bn254.a, pb = &proof->bn254.b, pc = &proof->bn254.c;
    } else if (c == CZK_GROTH16_CURVE_BLS12_381) {
        pa = &proof->bls12_381.a, pb = &proof->bls12_381.b, pc = &proof->bls12_381.c;
    } else {
        return CZK_ERR_INVALID_ARG;
    }
    struct sb b = {0};
    sb_put(&b, "{", 1);
    g1_member(&b, c, "pi_a", pa, true);
    g2_member(&b, c, "pi_b", pb);
    g1_member(&b, c, "pi_c", pc, false);
    member(&b, "protocol", false);
    sb_q(&b, "groth16");
    member(&b, "curve", false);
    sb_q(&b, czk_groth16_curve_name(c));
    sb_nl(&b, 0);
    sb_put(&b, "}", 1);
    return sb_done(&b, json, len);
}

enum czk_status czk_groth16_public_to_json(const struct czk_groth16_public *pub, char **json,
                                           size_t *len)
{
    if (!pub || !json ||
        (pub->curve != CZK_GROTH16_CURVE_BN254 && pub->curve != CZK_GROTH16_CURVE_BLS12_381))
        return CZK_ERR_INVALID_ARG;
    struct sb b = {0};
    char s[CZK_FF_DEC_MAX];
    sb_put(&b, "[", 1);
    for (size_t i = 0; i < pub->n; i++) {
        if (pub->curve == CZK_GROTH16_CURVE_BN254)
            czk_fr_bn254_to_dec(s, sizeof s, &pub->bn254[i]);
        else
            czk_fr_bls12_381_to_dec(s, sizeof s, &pub->bls12_381[i]);
        if (i)
            sb_put(&b, ",", 1);
        sb_nl(&b, 1);
        sb_q(&b, s);
    }
    sb_nl(&b, 0);
    sb_put(&b, "]", 1);
    return sb_done(&b, json, len);
}

enum czk_status czk_groth16_proof_to_bellman(const struct czk_groth16_proof *proof,
                                             uint8_t out[192])
{
    if (!proof || !out || proof->curve != CZK_GROTH16_CURVE_BLS12_381)
        return CZK_ERR_INVALID_ARG;
    czk_g1_bls12_381_compress(out, &proof->bls12_381.a);
    czk_g2_bls12_381_compress(out + 48, &proof->bls12_381.b);
    czk_g1_bls12_381_compress(out + 144, &proof->bls12_381.c);
    return CZK_OK;
}

/* e(alpha1, beta2) as ffjavascript computes it, as 12 decimal strings. */
static void alphabeta_dec(const struct czk_zkey *z, char (*s)[CZK_FF_DEC_MAX])
{
    if (z->curve == CZK_GROTH16_CURVE_BN254) {
        /* m = 2x(6x^2 + 3x + 1) for x = 4965661367192848881, little-endian limbs */
        static const uint64_t m[3] = {0x2e5d4e223ddedaf4ull, 0x1ea96b02d9d9e38dull,
                                      0x3bec47df15e307c8ull};
        struct czk_fp12_bn254 f;
        czk_pairing_bn254(&f, z->alpha1, z->beta2);
        czk_fp12_bn254_pow(&f, &f, m, 3);
        const struct czk_fp2_bn254 *c[6] = {&f.c0.c0, &f.c0.c1, &f.c0.c2,
                                            &f.c1.c0, &f.c1.c1, &f.c1.c2};
        for (int i = 0; i < 6; i++) {
            czk_fp_bn254_to_dec(s[2 * i], CZK_FF_DEC_MAX, &c[i]->c0);
            czk_fp_bn254_to_dec(s[2 * i + 1], CZK_FF_DEC_MAX, &c[i]->c1);
        }
    } else {
        struct czk_fp12_bls12_381 f, f2;
        czk_pairing_bls12_381(&f, z->alpha1, z->beta2);
        czk_fp12_bls12_381_sqr(&f2, &f);
        czk_fp12_bls12_381_mul(&f, &f2, &f); /* e^3 */
        const struct czk_fp2_bls12_381 *c[6] = {&f.c0.c0, &f.c0.c1, &f.c0.c2,
                                                &f.c1.c0, &f.c1.c1, &f.c1.c2};
        for (int i = 0; i < 6; i++) {
            czk_fp_bls12_381_to_dec(s[2 * i], CZK_FF_DEC_MAX, &c[i]->c0);
            czk_fp_bls12_381_to_dec(s[2 * i + 1], CZK_FF_DEC_MAX, &c[i]->c1);
        }
    }
}

enum czk_status czk_prover_key_vkey_json(czk_prover_key_t key, char **json, size_t *len)
{
    const struct czk_zkey *z = czk_prover_key_zkey(key);
    if (!z || !json)
        return CZK_ERR_INVALID_ARG;
    enum czk_groth16_curve c = z->curve;
    struct sb b = {0};
    char num[16];
    char ab[12][CZK_FF_DEC_MAX];

    sb_put(&b, "{", 1);
    member(&b, "protocol", true);
    sb_q(&b, "groth16");
    member(&b, "curve", false);
    sb_q(&b, czk_groth16_curve_name(c));
    member(&b, "nPublic", false);
    snprintf(num, sizeof num, "%u", z->n_public);
    sb_str(&b, num);
    g1_member(&b, c, "vk_alpha_1", z->alpha1, false);
    g2_member(&b, c, "vk_beta_2", z->beta2);
    g2_member(&b, c, "vk_gamma_2", z->gamma2);
    g2_member(&b, c, "vk_delta_2", z->delta2);

    /* vk_alphabeta_12: [[[c0.c0.c0, c0.c0.c1], [..], [..]], [[..], [..], [..]]] */
    alphabeta_dec(z, ab);
    member(&b, "vk_alphabeta_12", false);
    sb_put(&b, "[", 1);
    for (int h = 0; h < 2; h++) {
        if (h)
            sb_put(&b, ",", 1);
        sb_nl(&b, 2);
        str_array2(&b, 2, (const char(*)[CZK_FF_DEC_MAX])ab + 6 * h, 3, 2);
    }
    sb_nl(&b, 1);
    sb_put(&b, "]", 1);

    member(&b, "IC", false);
    sb_put(&b, "[", 1);
    size_t g1b = c == CZK_GROTH16_CURVE_BN254 ? sizeof(struct czk_g1_bn254_affine)
                                              : sizeof(struct czk_g1_bls12_381_affine);
    for (uint32_t i = 0; i <= z->n_public; i++) {
        char s[3][CZK_FF_DEC_MAX];
        g1_dec(c, (const uint8_t *)z->ic + i * g1b, s);
        if (i)
            sb_put(&b, ",", 1);
        sb_nl(&b, 2);
        str_array(&b, 2, (const char(*)[CZK_FF_DEC_MAX])s, 3);
    }
    sb_nl(&b, 1);
    sb_put(&b, "]", 1);
    sb_nl(&b, 0);
    sb_put(&b, "}", 1);
    return sb_done(&b, json, len);
}
