/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp -> Fp2 -> Fp6 -> Fp12 tower template of the pairing, instantiated once per curve.
 *
 * The including file defines
 *   PR          the curve name token (bn254, bls12_381)
 *   PR_N        limbs of one base-field element
 *   PR_C(x)     pastes the constant prefix of pairing_consts.h: PR_C(_P) -> BN254_P
 *   PR_XI0      the integer a of the non-residue xi = a + u (9 or 1)
 * and includes this file once, then pairing_impl.h.
 *
 * Everything here is static and inlined into the Miller loop and the final
 * exponentiation. The base-field additions are re-implemented in this file (same
 * Montgomery representation as src/ff, R = 2^(64 N), elements fully reduced below p)
 * so that the hot loops make no calls across translation units for them; the
 * Montgomery product is src/ff's mulx/adx kernel where the CPU has one (a C fallback
 * otherwise), called on unreduced sums where the bounds allow it. The single
 * base-field inversion per final exponentiation calls src/ff.
 *
 * Requires 4p < 2^(64 N), which holds for both curves (254 and 381 bits): sums of two
 * reduced elements then fit in N limbs and multiply without a reduction first.
 *
 * Tower: Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v).
 * Writing an Fp12 element as sum g_i w^i over Fp2 (w^6 = xi), the slots are
 * g0 = c0.c0, g1 = c1.c0, g2 = c0.c1, g3 = c1.c1, g4 = c0.c2, g5 = c1.c2.
 * Nothing allocates; all functions are reentrant.
 */
#include <string.h>

#include "czk/czk_pairing.h"
#include "ff/ff_cpu.h"
#include "pairing/pairing_consts.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define PR_CAT_(a, b) a##b
#define PR_CAT(a, b) PR_CAT_(a, b)
#define PR_API(pre, x) PR_CAT(PR_CAT(PR_CAT(czk_, pre), PR), _##x)

typedef struct PR_CAT(czk_fp_, PR) fp_t;
typedef struct PR_CAT(czk_fp2_, PR) fp2_t;
typedef struct PR_CAT(czk_fp6_, PR) fp6_t;
typedef struct PR_CAT(czk_fp12_, PR) fp12_t;
typedef struct PR_CAT(PR_CAT(czk_g1_, PR), _affine) g1a_t;
typedef struct PR_CAT(PR_CAT(czk_g2_, PR), _affine) g2a_t;
typedef unsigned __int128 u128;

#define N PR_N
static const uint64_t *const MOD = PR_C(_P);

/* ------------------------------------------------------------------ Fp --- */

/*
 * Carry chains: the x86-64 intrinsics give plain adc/sbb sequences, which GCC does not
 * produce from the portable 128-bit formulation.
 */
#if defined(__x86_64__)
static inline uint64_t adc64(uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
    unsigned long long t;
    c = _addcarry_u64((unsigned char)c, a, b, &t);
    *r = t;
    return c;
}

static inline uint64_t sbb64(uint64_t a, uint64_t b, uint64_t br, uint64_t *r)
{
    unsigned long long t;
    br = _subborrow_u64((unsigned char)br, a, b, &t);
    *r = t;
    return br;
}
#else
static inline uint64_t adc64(uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
    u128 t = (u128)a + b + c;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64);
}

static inline uint64_t sbb64(uint64_t a, uint64_t b, uint64_t br, uint64_t *r)
{
    u128 t = (u128)a - b - br;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64) & 1;
}
#endif

/*
 * r = t mod p for t < 2p, branch-free: subtract p, add it back under the borrow mask.
 * (Two carry chains rather than a masked select: GCC turns the select into SSE code
 * that goes through memory and stalls on store forwarding.)
 */
static inline void fp_reduce1(uint64_t r[N], const uint64_t t[N])
{
    uint64_t d[N], br = 0, c = 0;
    for (int i = 0; i < N; i++)
        br = sbb64(t[i], MOD[i], br, &d[i]);
    uint64_t mask = 0 - br; /* t < p: add p back */
    for (int i = 0; i < N; i++)
        c = adc64(d[i], MOD[i] & mask, c, &r[i]);
}

static inline void fp_zero(fp_t *r) { memset(r, 0, sizeof *r); }

static inline void fp_one(fp_t *r) { memcpy(r->l, PR_C(_ONE), sizeof r->l); }

static inline bool fp_is_zero(const fp_t *a)
{
    uint64_t acc = 0;
    for (int i = 0; i < N; i++)
        acc |= a->l[i];
    return acc == 0;
}

static inline bool fp_eq(const fp_t *a, const fp_t *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < N; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

static inline void fp_add(fp_t *r, const fp_t *a, const fp_t *b)
{
    uint64_t t[N], c = 0;
    for (int i = 0; i < N; i++)
        c = adc64(a->l[i], b->l[i], c, &t[i]); /* < 2p < 2^(64N): no carry out */
    fp_reduce1(r->l, t);
}

static inline void fp_dbl(fp_t *r, const fp_t *a) { fp_add(r, a, a); }

static inline void fp_sub(fp_t *r, const fp_t *a, const fp_t *b)
{
    uint64_t t[N], br = 0, c = 0;
    for (int i = 0; i < N; i++)
        br = sbb64(a->l[i], b->l[i], br, &t[i]);
    uint64_t mask = 0 - br; /* a < b: add p back */
    for (int i = 0; i < N; i++)
        c = adc64(t[i], MOD[i] & mask, c, &r->l[i]);
}

/* r = (p if a != 0 else 0) - a, one borrow chain (-0 = 0, not p) */
static inline void fp_neg(fp_t *r, const fp_t *a)
{
    uint64_t acc = 0, br = 0;
    for (int i = 0; i < N; i++)
        acc |= a->l[i];
    uint64_t nz = 0 - (uint64_t)(acc != 0);
    for (int i = 0; i < N; i++)
        br = sbb64(MOD[i] & nz, a->l[i], br, &r->l[i]);
}

/* r = a/2: (a + p)/2 if a is odd; a + p < 2^(64N), so no bit is lost. The shift is
 * interleaved with the carry chain (written as two loops, GCC vectorizes it through
 * memory). */
static inline void fp_half(fp_t *r, const fp_t *a)
{
    uint64_t mask = 0 - (a->l[0] & 1), lo, hi, c;
    c = adc64(a->l[0], MOD[0] & mask, 0, &lo);
    for (int i = 1; i < N; i++) {
        c = adc64(a->l[i], MOD[i] & mask, c, &hi);
        r->l[i - 1] = (lo >> 1) | (hi << 63);
        lo = hi;
    }
    r->l[N - 1] = lo >> 1;
}

/* Unreduced a + b (below 2p: fits N limbs). */
static inline void fp_add_nr(uint64_t r[N], const uint64_t a[N], const uint64_t b[N])
{
    uint64_t c = 0;
    for (int i = 0; i < N; i++)
        c = adc64(a[i], b[i], c, &r[i]);
}

/* Unreduced a - b + p (in (0, 2p)). */
static inline void fp_sub_nr(uint64_t r[N], const uint64_t a[N], const uint64_t b[N])
{
    uint64_t t[N], c = 0, br = 0;
    for (int i = 0; i < N; i++)
        c = adc64(a[i], MOD[i], c, &t[i]);
    for (int i = 0; i < N; i++)
        br = sbb64(t[i], b[i], br, &r[i]);
}

/*
 * Montgomery product a*b/R mod p, fully reduced, for a, b < 2p (unreduced sums are
 * allowed as inputs): a*b < 4p^2 < pR since 4p < R, so the product before the final
 * conditional subtraction is below 2p; the running value stays below a + p < 3p < R.
 * On x86-64 CPUs with BMI2/ADX this is src/ff's mulx/adcx/adox kernel (which keeps an
 * extra accumulator limb and has the same bounds); otherwise CIOS in C.
 */
static inline void fp_mul_raw(uint64_t r[N], const uint64_t a[N], const uint64_t b[N])
{
#if CZK_FF_HAVE_ASM
    if (__builtin_expect(czk_ff_have_adx, 1)) {
        PR_CAT(PR_CAT(czk_ff_fp_, PR), _mul_adx)(r, a, b);
        return;
    }
#endif
    uint64_t t[N] = {0};
#pragma GCC unroll 8
    for (int i = 0; i < N; i++) {
        uint64_t bi = b[i];
        u128 uv = (u128)a[0] * bi + t[0];
        uint64_t hi = (uint64_t)(uv >> 64), t0 = (uint64_t)uv;
        uint64_t m = t0 * PR_C(_N0);
        uv = (u128)m * MOD[0] + t0;
        uint64_t c = (uint64_t)(uv >> 64);
#pragma GCC unroll 8
        for (int j = 1; j < N; j++) {
            uv = (u128)a[j] * bi + t[j] + hi;
            hi = (uint64_t)(uv >> 64);
            uv = (u128)m * MOD[j] + (uint64_t)uv + c;
            c = (uint64_t)(uv >> 64);
            t[j - 1] = (uint64_t)uv;
        }
        t[N - 1] = c + hi;
    }
    fp_reduce1(r, t);
}

static inline void fp_mul(fp_t *r, const fp_t *a, const fp_t *b) { fp_mul_raw(r->l, a->l, b->l); }

static inline void fp_sqr(fp_t *r, const fp_t *a) { fp_mul(r, a, a); }

/* ----------------------------------------------------------------- Fp2 --- */

static inline void fp2_zero(fp2_t *r) { memset(r, 0, sizeof *r); }

static inline void fp2_one(fp2_t *r)
{
    fp_one(&r->c0);
    fp_zero(&r->c1);
}

static inline bool fp2_is_zero(const fp2_t *a) { return fp_is_zero(&a->c0) & fp_is_zero(&a->c1); }

static inline bool fp2_eq(const fp2_t *a, const fp2_t *b)
{
    return fp_eq(&a->c0, &b->c0) & fp_eq(&a->c1, &b->c1);
}

static inline void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}

static inline void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}

static inline void fp2_dbl(fp2_t *r, const fp2_t *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}

static inline void fp2_neg(fp2_t *r, const fp2_t *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}

static inline void fp2_half(fp2_t *r, const fp2_t *a)
{
    fp_half(&r->c0, &a->c0);
    fp_half(&r->c1, &a->c1);
}

/* a^p = c0 - c1 u */
static inline void fp2_conj(fp2_t *r, const fp2_t *a)
{
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}

/*
 * Karatsuba, 3 base products: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1,
 * the sums left unreduced (fp_mul_raw accepts operands below 2p).
 */
static inline void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    uint64_t sa[N], sb[N];
    fp_t t0, t1, t2;
    fp_add_nr(sa, a->c0.l, a->c1.l);
    fp_add_nr(sb, b->c0.l, b->c1.l);
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_mul_raw(t2.l, sa, sb);
    fp_sub(&r->c0, &t0, &t1);
    fp_add(&t0, &t0, &t1);
    fp_sub(&r->c1, &t2, &t0);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + (2 a0) a1 u, operands unreduced */
static inline void fp2_sqr(fp2_t *r, const fp2_t *a)
{
    uint64_t s[N], d[N], a2[N];
    fp_add_nr(s, a->c0.l, a->c1.l);
    fp_sub_nr(d, a->c0.l, a->c1.l);
    fp_add_nr(a2, a->c0.l, a->c0.l);
    fp_mul_raw(r->c1.l, a2, a->c1.l);
    fp_mul_raw(r->c0.l, s, d);
}

static inline void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *k)
{
    fp_mul(&r->c0, &a->c0, k);
    fp_mul(&r->c1, &a->c1, k);
}

/* r = a * xi, xi = PR_XI0 + u: (X a0 - a1) + (a0 + X a1) u. */
static inline void fp2_mul_xi(fp2_t *r, const fp2_t *a)
{
#if PR_XI0 == 1
    fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
#elif PR_XI0 == 9
    fp_t x0, x1, t;
    fp_dbl(&x0, &a->c0);
    fp_dbl(&x0, &x0);
    fp_dbl(&x0, &x0);
    fp_add(&x0, &x0, &a->c0); /* 9 a0 */
    fp_dbl(&x1, &a->c1);
    fp_dbl(&x1, &x1);
    fp_dbl(&x1, &x1);
    fp_add(&x1, &x1, &a->c1); /* 9 a1 */
    fp_sub(&t, &x0, &a->c1);
    fp_add(&r->c1, &a->c0, &x1);
    r->c0 = t;
#else
#error "unsupported PR_XI0"
#endif
}

/* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2); the one call into src/ff. */
static inline void fp2_inv(fp2_t *r, const fp2_t *a)
{
    fp_t n0, n1, t;
    fp_sqr(&n0, &a->c0);
    fp_sqr(&n1, &a->c1);
    fp_add(&n0, &n0, &n1);
    PR_API(fp_, inv)(&t, &n0);
    fp_mul(&r->c0, &a->c0, &t);
    fp_mul(&t, &a->c1, &t);
    fp_neg(&r->c1, &t);
}

/* ----------------------------------------------------------------- Fp6 --- */

static inline void fp6_zero(fp6_t *r) { memset(r, 0, sizeof *r); }

static inline void fp6_one(fp6_t *r)
{
    fp2_one(&r->c0);
    fp2_zero(&r->c1);
    fp2_zero(&r->c2);
}

static inline bool fp6_is_zero(const fp6_t *a)
{
    return fp2_is_zero(&a->c0) & fp2_is_zero(&a->c1) & fp2_is_zero(&a->c2);
}

static inline bool fp6_eq(const fp6_t *a, const fp6_t *b)
{
    return fp2_eq(&a->c0, &b->c0) & fp2_eq(&a->c1, &b->c1) & fp2_eq(&a->c2, &b->c2);
}

static inline void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}

static inline void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}

static inline void fp6_neg(fp6_t *r, const fp6_t *a)
{
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}

/* r = a * v: (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
static inline void fp6_mul_v(fp6_t *r, const fp6_t *a)
{
    fp2_t t;
    fp2_mul_xi(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/*
 * Karatsuba over the cubic extension (6 Fp2 products), with v_i = a_i b_i:
 *   c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2)
 *   c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
 *   c2 = (a0 + a2)(b0 + b2) - v0 + v1 - v2
 */
static inline void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_t v0, v1, v2, s, t, c0, c1, c2;
    fp2_mul(&v0, &a->c0, &b->c0);
    fp2_mul(&v1, &a->c1, &b->c1);
    fp2_mul(&v2, &a->c2, &b->c2);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&t, &b->c1, &b->c2);
    fp2_mul(&c0, &s, &t);
    fp2_sub(&c0, &c0, &v1);
    fp2_sub(&c0, &c0, &v2);
    fp2_mul_xi(&c0, &c0);
    fp2_add(&c0, &c0, &v0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&t, &b->c0, &b->c1);
    fp2_mul(&c1, &s, &t);
    fp2_sub(&c1, &c1, &v0);
    fp2_sub(&c1, &c1, &v1);
    fp2_mul_xi(&t, &v2);
    fp2_add(&c1, &c1, &t);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&t, &b->c0, &b->c2);
    fp2_mul(&c2, &s, &t);
    fp2_sub(&c2, &c2, &v0);
    fp2_add(&c2, &c2, &v1);
    fp2_sub(&c2, &c2, &v2);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/*
 * Chung-Hasan SQR2: s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2,
 * s4 = a2^2; c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.
 */
static inline void fp6_sqr(fp6_t *r, const fp6_t *a)
{
    fp2_t s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    fp2_add(&t, &s1, &s2);
    fp2_add(&t, &t, &s3);
    fp2_sub(&t, &t, &s0);
    fp2_sub(&r->c2, &t, &s4);
    fp2_mul_xi(&t, &s4);
    fp2_add(&r->c1, &s1, &t);
    fp2_mul_xi(&t, &s3);
    fp2_add(&r->c0, &s0, &t);
}

/* r = a * (b0 + b1 v), 5 Fp2 products:
 *   c0 = a0 b0 + xi a2 b1,  c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1,  c2 = a2 b0 + a1 b1 */
static inline void fp6_mul_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1)
{
    fp2_t v0, v1, s, t, c0, c1, c2;
    fp2_mul(&v0, &a->c0, b0);
    fp2_mul(&v1, &a->c1, b1);

    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_xi(&c0, &c0);
    fp2_add(&c0, &c0, &v0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&t, b0, b1);
    fp2_mul(&c1, &s, &t);
    fp2_sub(&c1, &c1, &v0);
    fp2_sub(&c1, &c1, &v1);

    fp2_mul(&c2, &a->c2, b0);
    fp2_add(&c2, &c2, &v1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* r = a * (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
static inline void fp6_mul_1(fp6_t *r, const fp6_t *a, const fp2_t *b1)
{
    fp2_t c0;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_xi(&c0, &c0);
    fp2_mul(&r->c2, &a->c1, b1);
    fp2_mul(&r->c1, &a->c0, b1);
    r->c0 = c0;
}

static inline void fp6_mul_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b)
{
    fp2_mul(&r->c0, &a->c0, b);
    fp2_mul(&r->c1, &a->c1, b);
    fp2_mul(&r->c2, &a->c2, b);
}

/*
 * (a0 + a1 v + a2 v^2)^-1 = (t0 + t1 v + t2 v^2) / d with
 *   t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1, t2 = a1^2 - a0 a2,
 *   d = a0 t0 + xi (a2 t1 + a1 t2)  (the norm to Fp2).
 */
static inline void fp6_inv(fp6_t *r, const fp6_t *a)
{
    fp2_t t0, t1, t2, s, d;
    fp2_sqr(&t0, &a->c0);
    fp2_mul(&s, &a->c1, &a->c2);
    fp2_mul_xi(&s, &s);
    fp2_sub(&t0, &t0, &s);

    fp2_sqr(&t1, &a->c2);
    fp2_mul_xi(&t1, &t1);
    fp2_mul(&s, &a->c0, &a->c1);
    fp2_sub(&t1, &t1, &s);

    fp2_sqr(&t2, &a->c1);
    fp2_mul(&s, &a->c0, &a->c2);
    fp2_sub(&t2, &t2, &s);

    fp2_mul(&d, &a->c2, &t1);
    fp2_mul(&s, &a->c1, &t2);
    fp2_add(&d, &d, &s);
    fp2_mul_xi(&d, &d);
    fp2_mul(&s, &a->c0, &t0);
    fp2_add(&d, &d, &s);
    fp2_inv(&d, &d);

    fp2_mul(&r->c0, &t0, &d);
    fp2_mul(&r->c1, &t1, &d);
    fp2_mul(&r->c2, &t2, &d);
}

/* ---------------------------------------------------------------- Fp12 --- */

static inline void fp12_one(fp12_t *r)
{
    fp6_one(&r->c0);
    fp6_zero(&r->c1);
}

static inline bool fp12_eq(const fp12_t *a, const fp12_t *b)
{
    return fp6_eq(&a->c0, &b->c0) & fp6_eq(&a->c1, &b->c1);
}

static inline bool fp12_is_one(const fp12_t *a)
{
    fp12_t one;
    fp12_one(&one);
    return fp12_eq(a, &one);
}

static inline void fp12_conj(fp12_t *r, const fp12_t *a)
{
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

/* Karatsuba: c0 = a0 b0 + v a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 */
static inline void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b)
{
    fp6_t t0, t1, s, t;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&t, &b->c0, &b->c1);
    fp6_mul(&r->c1, &s, &t);
    fp6_sub(&r->c1, &r->c1, &t0);
    fp6_sub(&r->c1, &r->c1, &t1);
    fp6_mul_v(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring: with t = a0 a1, c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2 t. */
static inline void fp12_sqr(fp12_t *r, const fp12_t *a)
{
    fp6_t t, s, u, vt;
    fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_v(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_mul_v(&vt, &t);
    fp6_sub(&s, &s, &t);
    fp6_sub(&r->c0, &s, &vt);
    fp6_add(&r->c1, &t, &t);
}

/* (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - v a1^2) */
static inline void fp12_inv(fp12_t *r, const fp12_t *a)
{
    fp6_t t0, t1;
    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_v(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    fp6_mul(&r->c0, &a->c0, &t0);
    fp6_mul(&t1, &a->c1, &t0);
    fp6_neg(&r->c1, &t1);
}

/*
 * a^(p^k) for k = 1, 2, 3: (sum g_i w^i)^(p^k) = sum g_i^(p^k) gamma_{k,i} w^i with
 * gamma_{k,i} = xi^(i (p^k - 1)/6) (pairing_consts.h); g^(p^k) is conj(g) for odd k.
 * For k = 2 the constants lie in Fp.
 */
static inline void fp12_frob(fp12_t *r, const fp12_t *a, int k)
{
    const fp2_t *g = PR_C(_FROB)[k - 1];
    fp2_t *out[6] = {&r->c0.c0, &r->c1.c0, &r->c0.c1, &r->c1.c1, &r->c0.c2, &r->c1.c2};
    const fp2_t *in[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    for (int i = 0; i < 6; i++) {
        fp2_t t = *in[i];
        if (k & 1)
            fp2_conj(&t, &t);
        if (i == 0)
            *out[0] = t;
        else if (k == 2)
            fp2_mul_fp(out[i], &t, &g[i - 1].c0);
        else
            fp2_mul(out[i], &t, &g[i - 1]);
    }
}

/*
 * Granger-Scott squaring in the cyclotomic subgroup. View Fp12 = Fp4[w]/(w^3 - t)
 * with Fp4 = Fp2[t]/(t^2 - xi), t = w^3, and a = A + B w + C w^2 where
 * A = g0 + g3 t, B = g1 + g4 t, C = g2 + g5 t. For a in the cyclotomic subgroup
 * (a^(p^4 - p^2 + 1) = 1, true after the easy part of the final exponentiation):
 *   a^2 = (3 A^2 - 2 conj(A)) + (3 t C^2 + 2 conj(B)) w + (3 B^2 - 2 conj(C)) w^2
 * where conj is the Fp4/Fp2 conjugation t -> -t.
 */
static inline void fp4_sqr(fp2_t *r0, fp2_t *r1, const fp2_t *x0, const fp2_t *x1)
{
    fp2_t t0, t1, s;
    fp2_sqr(&t0, x0);
    fp2_sqr(&t1, x1);
    fp2_add(&s, x0, x1);
    fp2_sqr(&s, &s);
    fp2_sub(&s, &s, &t0);
    fp2_sub(r1, &s, &t1); /* 2 x0 x1 */
    fp2_mul_xi(&t1, &t1);
    fp2_add(r0, &t0, &t1); /* x0^2 + xi x1^2 */
}

/* r = 3 z - 2 x = 2 (z - x) + z */
static inline void cyc_3m2(fp2_t *r, const fp2_t *z, const fp2_t *x)
{
    fp2_t t;
    fp2_sub(&t, z, x);
    fp2_dbl(&t, &t);
    fp2_add(r, &t, z);
}

/* r = 3 z + 2 x = 2 (z + x) + z */
static inline void cyc_3p2(fp2_t *r, const fp2_t *z, const fp2_t *x)
{
    fp2_t t;
    fp2_add(&t, z, x);
    fp2_dbl(&t, &t);
    fp2_add(r, &t, z);
}

static inline void fp12_cyc_sqr(fp12_t *r, const fp12_t *a)
{
    fp2_t a0, a1, b0, b1, c0, c1, t;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1); /* A^2 */
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2); /* B^2 */
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2); /* C^2 */
    fp2_mul_xi(&t, &c1);                     /* t C^2 = xi c1 + c0 t */

    cyc_3m2(&r->c0.c0, &a0, &a->c0.c0);
    cyc_3p2(&r->c1.c1, &a1, &a->c1.c1);
    cyc_3p2(&r->c1.c0, &t, &a->c1.c0);
    cyc_3m2(&r->c0.c2, &c0, &a->c0.c2);
    cyc_3m2(&r->c0.c1, &b0, &a->c0.c1);
    cyc_3p2(&r->c1.c2, &b1, &a->c1.c2);
}

/* r = a^e for a cyclotomic a; e = 2^(n) + sum d[i] 2^(n-1-i) as signed digits (NAF,
 * the leading 1 implicit), negative digits use conj(a) = a^-1. */
static inline void fp12_cyc_exp(fp12_t *r, const fp12_t *a, const int8_t *d, size_t n)
{
    fp12_t acc = *a, ainv;
    fp12_conj(&ainv, a);
    for (size_t i = 0; i < n; i++) {
        fp12_cyc_sqr(&acc, &acc);
        if (d[i] > 0)
            fp12_mul(&acc, &acc, a);
        else if (d[i] < 0)
            fp12_mul(&acc, &acc, &ainv);
    }
    *r = acc;
}
