/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inline coordinate-field arithmetic for the MSM hot loops (included by msm_impl.h).
 *
 * The field API of czk_ff.h is out-of-line: every add or sub is a call, and the Fp2
 * operations call the Fp ones. In the bucket loops additions and subtractions are about
 * half of all field operations, so msm_impl.h uses these inline versions instead: the
 * same values (elements fully reduced, Montgomery form, the layout of czk_ff.h), with
 * the modulus a compile-time constant from ff/ff_consts.h. Multiplication goes straight
 * to the mulx/adx kernel of src/ff/ when the CPU has it (czk_ff_have_adx, set before
 * main), else to the library's portable czk_<fp>_mul; Fp2 products are Karatsuba over
 * it with the inline additions. Variable time is fine here (public data) but the
 * reductions are branch-free anyway: their branches would be unpredictable.
 *
 * The including file defines
 *   MSM_F        the coordinate field (fp_bn254, fp2_bn254, ...)
 *   MSM_FP       its base prime field (fp_bn254 for both BN254 groups, ...)
 *   MSM_FP_N     limbs of MSM_FP
 *   MSM_FP_P     the modulus limbs (FP_BN254_P, FP_BLS12_381_P)
 *   MSM_F_DEG    1 (G1: MSM_F == MSM_FP) or 2 (G2: MSM_F = MSM_FP[u]/(u^2 + 1))
 * No state; thread-safe.
 */
#ifndef CZK_MSM_MSM_FIELD_H
#define CZK_MSM_MSM_FIELD_H

#include <stdbool.h>
#include <stdint.h>

#include "czk/czk_ff.h"
#include "ff/ff_consts.h"
#include "ff/ff_cpu.h"

#define MF_CAT_(a, b) a##b
#define MF_CAT(a, b) MF_CAT_(a, b)
#define MF_T struct MF_CAT(czk_, MSM_F)
#define MF_B struct MF_CAT(czk_, MSM_FP)

#if defined(__x86_64__)
#include <x86intrin.h>
static inline unsigned char mf_adc(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned long long t;
    c = _addcarry_u64(c, a, b, &t);
    *r = t;
    return c;
}
static inline unsigned char mf_sbb(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned long long t;
    c = _subborrow_u64(c, a, b, &t);
    *r = t;
    return c;
}
#else
static inline unsigned char mf_adc(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned __int128 t = (unsigned __int128)a + b + c;
    *r = (uint64_t)t;
    return (unsigned char)(t >> 64);
}
static inline unsigned char mf_sbb(unsigned char c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned __int128 t = (unsigned __int128)a - b - c;
    *r = (uint64_t)t;
    return (unsigned char)((t >> 64) & 1);
}
#endif

/*
 * Left alone, GCC's SLP vectorizer turns the limb-wise selects below into SSE code that
 * reloads the limbs just stored by the carry chain as 16-byte words, which stalls on
 * store forwarding (measured: the library's out-of-line add costs as much as a
 * multiplication). An empty asm that takes the value in a general register keeps the
 * limbs there.
 */
#if defined(__GNUC__)
#define MF_REG(x) __asm__("" : "+r"(x))
#else
#define MF_REG(x) ((void)0)
#endif

/* ---- base field ----------------------------------------------------------------------------- */

/* r = a for an a just computed: limb by limb in general registers (a struct copy would
 * reload the fresh limbs as 16-byte words and stall on store forwarding). */
static inline void mfb_copy(MF_B *r, const MF_B *a)
{
    for (int i = 0; i < MSM_FP_N; i++) {
        uint64_t x = a->l[i];
        MF_REG(x);
        r->l[i] = x;
    }
}

/* r = a + b mod p (a, b < p; p < 2^(64N - 1), so a + b does not carry out). */
static inline void mfb_add(MF_B *r, const MF_B *a, const MF_B *b)
{
    uint64_t t[MSM_FP_N], d[MSM_FP_N];
    unsigned char c = 0, br = 0;
    for (int i = 0; i < MSM_FP_N; i++)
        c = mf_adc(c, a->l[i], b->l[i], &t[i]);
    for (int i = 0; i < MSM_FP_N; i++)
        br = mf_sbb(br, t[i], MSM_FP_P[i], &d[i]);
    uint64_t keep = 0 - (uint64_t)br; /* t < p: keep t */
    for (int i = 0; i < MSM_FP_N; i++) {
        uint64_t x = t[i] ^ d[i];
        MF_REG(x); /* keep the select in general registers (see MF_REG) */
        r->l[i] = d[i] ^ (x & keep);
    }
}

/* r = a - b mod p */
static inline void mfb_sub(MF_B *r, const MF_B *a, const MF_B *b)
{
    uint64_t t[MSM_FP_N];
    unsigned char br = 0, c = 0;
    for (int i = 0; i < MSM_FP_N; i++)
        br = mf_sbb(br, a->l[i], b->l[i], &t[i]);
    uint64_t mask = 0 - (uint64_t)br;
    for (int i = 0; i < MSM_FP_N; i++)
        c = mf_adc(c, t[i], MSM_FP_P[i] & mask, &r->l[i]);
}

/* r = -a mod p (0 stays 0) */
static inline void mfb_neg(MF_B *r, const MF_B *a)
{
    uint64_t t[MSM_FP_N], nz = 0;
    unsigned char br = 0;
    for (int i = 0; i < MSM_FP_N; i++) {
        nz |= a->l[i];
        br = mf_sbb(br, MSM_FP_P[i], a->l[i], &t[i]);
    }
    uint64_t mask = 0 - (uint64_t)(nz != 0);
    for (int i = 0; i < MSM_FP_N; i++) {
        MF_REG(t[i]);
        r->l[i] = t[i] & mask;
    }
}

static inline bool mfb_is_zero(const MF_B *a)
{
    uint64_t acc = 0;
    for (int i = 0; i < MSM_FP_N; i++)
        acc |= a->l[i];
    return acc == 0;
}

static inline bool mfb_eq(const MF_B *a, const MF_B *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < MSM_FP_N; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

static inline void mfb_mul(MF_B *r, const MF_B *a, const MF_B *b)
{
#if CZK_FF_HAVE_ASM
    if (__builtin_expect(czk_ff_have_adx, 1)) {
        MF_CAT(MF_CAT(czk_ff_, MSM_FP), _mul_adx)(r->l, a->l, b->l);
        return;
    }
#endif
    MF_CAT(MF_CAT(czk_, MSM_FP), _mul)(r, a, b);
}

/* ---- coordinate field ----------------------------------------------------------------------- */

#if MSM_F_DEG == 1

static inline void mf_copy(MF_T *r, const MF_T *a) { mfb_copy(r, a); }
static inline void mf_add(MF_T *r, const MF_T *a, const MF_T *b) { mfb_add(r, a, b); }
static inline void mf_sub(MF_T *r, const MF_T *a, const MF_T *b) { mfb_sub(r, a, b); }
static inline void mf_dbl(MF_T *r, const MF_T *a) { mfb_add(r, a, a); }
static inline void mf_neg(MF_T *r, const MF_T *a) { mfb_neg(r, a); }
static inline bool mf_is_zero(const MF_T *a) { return mfb_is_zero(a); }
static inline bool mf_eq(const MF_T *a, const MF_T *b) { return mfb_eq(a, b); }
static inline void mf_mul(MF_T *r, const MF_T *a, const MF_T *b) { mfb_mul(r, a, b); }
static inline void mf_sqr(MF_T *r, const MF_T *a) { mfb_mul(r, a, a); }

#else

static inline void mf_copy(MF_T *r, const MF_T *a)
{
    mfb_copy(&r->c0, &a->c0);
    mfb_copy(&r->c1, &a->c1);
}

static inline void mf_add(MF_T *r, const MF_T *a, const MF_T *b)
{
    mfb_add(&r->c0, &a->c0, &b->c0);
    mfb_add(&r->c1, &a->c1, &b->c1);
}

static inline void mf_sub(MF_T *r, const MF_T *a, const MF_T *b)
{
    mfb_sub(&r->c0, &a->c0, &b->c0);
    mfb_sub(&r->c1, &a->c1, &b->c1);
}

static inline void mf_dbl(MF_T *r, const MF_T *a) { mf_add(r, a, a); }

static inline void mf_neg(MF_T *r, const MF_T *a)
{
    mfb_neg(&r->c0, &a->c0);
    mfb_neg(&r->c1, &a->c1);
}

static inline bool mf_is_zero(const MF_T *a) { return mfb_is_zero(&a->c0) && mfb_is_zero(&a->c1); }

static inline bool mf_eq(const MF_T *a, const MF_T *b)
{
    return mfb_eq(&a->c0, &b->c0) && mfb_eq(&a->c1, &b->c1);
}

/* Karatsuba, u^2 = -1: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1. */
static inline void mf_mul(MF_T *r, const MF_T *a, const MF_T *b)
{
    MF_B v0, v1, s, t;
    mfb_mul(&v0, &a->c0, &b->c0);
    mfb_mul(&v1, &a->c1, &b->c1);
    mfb_add(&s, &a->c0, &a->c1);
    mfb_add(&t, &b->c0, &b->c1);
    mfb_mul(&s, &s, &t);
    mfb_sub(&s, &s, &v0);
    mfb_sub(&r->c1, &s, &v1);
    mfb_sub(&r->c0, &v0, &v1);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
static inline void mf_sqr(MF_T *r, const MF_T *a)
{
    MF_B s, d, m;
    mfb_add(&s, &a->c0, &a->c1);
    mfb_sub(&d, &a->c0, &a->c1);
    mfb_mul(&m, &a->c0, &a->c1);
    mfb_mul(&r->c0, &s, &d);
    mfb_add(&r->c1, &m, &m);
}

#endif

#endif
