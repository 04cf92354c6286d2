/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The insecure single-party Groth16 setup of setup_dev.h ("czk setup --dev"): toxic
 * waste from a seed, the snarkjs key structure computed directly from the Lagrange basis
 * at tau (no powers-of-tau file), points by windowed fixed-base multiplication.
 *
 * This file instantiates two templates: setup_fb_impl.h (fixed-base multiplication) for
 * the four groups and setup_dev_impl.h (the setup) for the two curves, then dispatches
 * on the curve. Threading and ownership as in setup_dev.h.
 */
#include "groth16/setup_dev.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "core/sha256.h"
#include "czk/czk_ec.h"
#include "ntt/ntt_snarkjs.h"

#define FB_G g1_bn254
#define FB_F fp_bn254
#include "groth16/setup_fb_impl.h"
#undef FB_G
#undef FB_F

#define FB_G g2_bn254
#define FB_F fp2_bn254
#include "groth16/setup_fb_impl.h"
#undef FB_G
#undef FB_F

#define FB_G g1_bls12_381
#define FB_F fp_bls12_381
#include "groth16/setup_fb_impl.h"
#undef FB_G
#undef FB_F

#define FB_G g2_bls12_381
#define FB_F fp2_bls12_381
#include "groth16/setup_fb_impl.h"
#undef FB_G
#undef FB_F

#define SD_SUF bn254
#define SD_CURVE CZK_GROTH16_CURVE_BN254
#define SD_FR fr_bn254
#define SD_G1 g1_bn254
#define SD_G2 g2_bn254
#include "groth16/setup_dev_impl.h"
#undef SD_SUF
#undef SD_CURVE
#undef SD_FR
#undef SD_G1
#undef SD_G2

#define SD_SUF bls12_381
#define SD_CURVE CZK_GROTH16_CURVE_BLS12_381
#define SD_FR fr_bls12_381
#define SD_G1 g1_bls12_381
#define SD_G2 g2_bls12_381
#include "groth16/setup_dev_impl.h"
#undef SD_SUF
#undef SD_CURVE
#undef SD_FR
#undef SD_G1
#undef SD_G2

unsigned czk_setup_lg_domain(uint64_t n_constraints, uint64_t n_public)
{
    uint64_t v = n_constraints + n_public; /* zkey_new.js: log2(v) + 1, log2(0) = 0 */
    unsigned lg = 0;
    while (v >> (lg + 1))
        lg++;
    return lg + 1;
}

/* ---- toxic waste ------------------------------------------------------------------------ */

/* The first candidate of SHA-256(seed || label || counter) that is in [1, r), masked to
 * the bit length of r (top limb mask `top`). */
static void derive_secret(uint64_t out[4], const uint8_t seed[32], const char *label,
                          const uint64_t *mod, uint64_t top, uint32_t *counter)
{
    for (;;) {
        struct czk_sha256 h;
        uint8_t d[32], c[4];
        uint64_t x[4];
        for (unsigned i = 0; i < 4; i++)
            c[i] = (uint8_t)(*counter >> (8 * i));
        (*counter)++;
        czk_sha256_init(&h);
        czk_sha256_update(&h, "czk setup --dev v1", 18);
        czk_sha256_update(&h, seed, 32);
        czk_sha256_update(&h, label, strlen(label));
        czk_sha256_update(&h, c, 4);
        czk_sha256_final(&h, d);
        for (unsigned i = 0; i < 4; i++) {
            x[i] = 0;
            for (unsigned b = 0; b < 8; b++)
                x[i] |= (uint64_t)d[8 * i + b] << (8 * b);
        }
        x[3] &= top;
        bool lt = false, zero = (x[0] | x[1] | x[2] | x[3]) == 0;
        for (int i = 3; i >= 0; i--) {
            if (x[i] != mod[i]) {
                lt = x[i] < mod[i];
                break;
            }
        }
        if (lt && !zero) {
            memcpy(out, x, sizeof x);
            memset(d, 0, sizeof d);
            memset(x, 0, sizeof x);
            return;
        }
    }
}

/* tau^N != 1 and tau^N != g^N on the curve's field. */
#define TAU_OK(F, CURVE)                                                                           \
    static bool tau_ok_##F(const uint64_t tau[4], unsigned lg)                                     \
    {                                                                                              \
        struct czk_##F t, g, one;                                                                  \
        uint64_t n = 1ull << lg;                                                                   \
        if (czk_##F##_from_canonical(&t, tau) != CZK_OK)                                           \
            return false;                                                                          \
        czk_ntt_snarkjs_shift(CURVE, lg, g.l);                                                     \
        czk_##F##_pow(&t, &t, &n, 1);                                                              \
        czk_##F##_pow(&g, &g, &n, 1);                                                              \
        czk_##F##_one(&one);                                                                       \
        return !czk_##F##_eq(&t, &one) && !czk_##F##_eq(&t, &g);                                   \
    }
TAU_OK(fr_bn254, CZK_GROTH16_CURVE_BN254)
TAU_OK(fr_bls12_381, CZK_GROTH16_CURVE_BLS12_381)

enum czk_status czk_setup_toxic_derive(struct czk_setup_toxic *t, enum czk_groth16_curve curve,
                                       const uint8_t seed[32], unsigned lg_domain)
{
    const uint64_t *mod;
    uint64_t top;
    unsigned s;
    uint32_t ctr = 0;

    if (!t || !seed)
        return CZK_ERR_INVALID_ARG;
    if (curve == CZK_GROTH16_CURVE_BN254) {
        mod = czk_fr_bn254_modulus();
        top = (1ull << 62) - 1;
        s = czk_fr_bn254_two_adicity();
    } else if (curve == CZK_GROTH16_CURVE_BLS12_381) {
        mod = czk_fr_bls12_381_modulus();
        top = (1ull << 63) - 1;
        s = czk_fr_bls12_381_two_adicity();
    } else {
        return CZK_ERR_INVALID_ARG;
    }
    if (lg_domain > s || lg_domain > 31)
        return CZK_ERR_INVALID_ARG;
    for (;;) {
        derive_secret(t->tau, seed, "tau", mod, top, &ctr);
        bool ok = curve == CZK_GROTH16_CURVE_BN254 ? tau_ok_fr_bn254(t->tau, lg_domain)
                                                   : tau_ok_fr_bls12_381(t->tau, lg_domain);
        if (ok)
            break;
    }
    ctr = 0;
    derive_secret(t->alpha, seed, "alpha", mod, top, &ctr);
    ctr = 0;
    derive_secret(t->beta, seed, "beta", mod, top, &ctr);
    ctr = 0;
    derive_secret(t->gamma, seed, "gamma", mod, top, &ctr);
    ctr = 0;
    derive_secret(t->delta, seed, "delta", mod, top, &ctr);
    return CZK_OK;
}

/* ---- entry points ------------------------------------------------------------------------ */

enum czk_status czk_setup_dev(const struct czk_r1cs *r, const struct czk_setup_toxic *t,
                              const char *zkey_path, unsigned threads, char *err, size_t errlen)
{
    if (!r || !t || !zkey_path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "setup: NULL argument");
    if (r->curve == CZK_GROTH16_CURVE_BN254)
        return sd_setup_bn254(r, t, zkey_path, threads, err, errlen);
    if (r->curve == CZK_GROTH16_CURVE_BLS12_381)
        return sd_setup_bls12_381(r, t, zkey_path, threads, err, errlen);
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "setup: unknown curve");
}

enum czk_status czk_setup_lagrange(enum czk_groth16_curve curve, uint64_t (*out)[4], unsigned lg_n,
                                   const uint64_t tau[4], bool odd_coset, unsigned threads)
{
    if (!out || !tau)
        return CZK_ERR_INVALID_ARG;
    if (curve == CZK_GROTH16_CURVE_BN254) {
        struct czk_fr_bn254 t;
        if (czk_fr_bn254_from_canonical(&t, tau) != CZK_OK)
            return CZK_ERR_INVALID_ARG;
        return sd_lagrange_bn254((struct czk_fr_bn254 *)out, lg_n, &t, odd_coset, NULL, threads);
    }
    if (curve == CZK_GROTH16_CURVE_BLS12_381) {
        struct czk_fr_bls12_381 t;
        if (czk_fr_bls12_381_from_canonical(&t, tau) != CZK_OK)
            return CZK_ERR_INVALID_ARG;
        return sd_lagrange_bls12_381((struct czk_fr_bls12_381 *)out, lg_n, &t, odd_coset, NULL,
                                     threads);
    }
    return CZK_ERR_INVALID_ARG;
}

unsigned czk_setup_window_bits(size_t n)
{
    unsigned best = 8;
    double best_cost = 0;
    for (unsigned c = 4; c <= 16; c++) {
        double w = (255 + c - 1) / c;
        double cost = w * (1.5 * (double)(1u << c) + (double)n);
        if (c == 4 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

#define FB_DISPATCH(G)                                                                             \
    do {                                                                                           \
        struct fb_##G##_table tbl_;                                                                \
        enum czk_status st_ = fb_##G##_table_init(&tbl_, c, threads);                              \
        if (st_ != CZK_OK)                                                                         \
            return st_;                                                                            \
        st_ = fb_##G##_run(&tbl_, out, scalars, n, threads);                                       \
        fb_##G##_table_free(&tbl_);                                                                \
        return st_;                                                                                \
    } while (0)

enum czk_status czk_setup_fixed_base(enum czk_groth16_curve curve, unsigned group, void *out,
                                     const uint64_t (*scalars)[4], size_t n, unsigned window_bits,
                                     unsigned threads)
{
    unsigned c = window_bits ? window_bits : czk_setup_window_bits(n);
    if (!out || (!scalars && n) || c > 16)
        return CZK_ERR_INVALID_ARG;
    if (curve == CZK_GROTH16_CURVE_BN254 && group == 1)
        FB_DISPATCH(g1_bn254);
    if (curve == CZK_GROTH16_CURVE_BN254 && group == 2)
        FB_DISPATCH(g2_bn254);
    if (curve == CZK_GROTH16_CURVE_BLS12_381 && group == 1)
        FB_DISPATCH(g1_bls12_381);
    if (curve == CZK_GROTH16_CURVE_BLS12_381 && group == 2)
        FB_DISPATCH(g2_bls12_381);
    return CZK_ERR_INVALID_ARG;
}
