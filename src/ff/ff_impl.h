/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Montgomery prime-field template, instantiated once per field.
 *
 * The including file defines:
 *   FF        the field name (fp_bn254, ...), used to paste czk_FF_* names
 *   FF_N      the number of 64-bit limbs
 *   FF_C(x)   pastes the constant prefix: FF_C(_P) -> FP_BN254_P (see ff_consts.h)
 * and includes this file once. Every function here is either exported through
 * CZK_FF_DECLARE in include/czk/czk_ff.h or static.
 *
 * Arithmetic is branch-free in the operand values: reductions select with masks.
 * Multiplication is the CIOS Montgomery product without the extra carry word,
 * valid because every czk modulus has its top bit clear and its top limb below
 * 2^63 - 1 (checked by a static assertion on the constants at first use in tests).
 * Elements are kept fully reduced (< p).
 *
 * Nothing allocates, logs or locks; all state lives on the caller's stack.
 */
#include <string.h>

#include "czk/czk_ff.h"
#include "ff/ff_consts.h"
#include "ff/ff_cpu.h"

#define FF_CAT_(a, b) a##b
#define FF_CAT(a, b) FF_CAT_(a, b)
#define FF_FN(x) FF_CAT(FF_CAT(czk_, FF), _##x)
#define FF_T struct FF_CAT(czk_, FF)
#define FF_S(x) FF_CAT(FF_CAT(ff_, FF), _##x)

typedef unsigned __int128 ff_u128;

#if !defined(CZK_FF_IMPL_COMMON)
#define CZK_FF_IMPL_COMMON
#if defined(__x86_64__)
#include <x86intrin.h>
/* r = a + b + carry_in, returns carry out (adc chain). */
static inline uint64_t ff_adc(uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
    unsigned long long t;
    uint64_t co = _addcarry_u64((unsigned char)c, a, b, &t);
    *r = t;
    return co;
}
/* r = a - b - borrow_in, returns borrow out (sbb chain). */
static inline uint64_t ff_sbb(uint64_t a, uint64_t b, uint64_t br, uint64_t *r)
{
    unsigned long long t;
    uint64_t bo = _subborrow_u64((unsigned char)br, a, b, &t);
    *r = t;
    return bo;
}
#else
/* r = a + b + carry_in, returns carry out. */
static inline uint64_t ff_adc(uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
    ff_u128 t = (ff_u128)a + b + c;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64);
}
/* r = a - b - borrow_in, returns borrow out (0 or 1). */
static inline uint64_t ff_sbb(uint64_t a, uint64_t b, uint64_t br, uint64_t *r)
{
    ff_u128 t = (ff_u128)a - b - br;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64) & 1;
}
#endif
#endif

static const uint64_t *const FF_S(p) = FF_C(_P);

/* r = t - p if t >= p else t, for t < 2p; constant-time. */
static inline void FF_S(reduce_once)(uint64_t r[FF_N], const uint64_t t[FF_N])
{
    uint64_t d[FF_N], br = 0;
    for (int i = 0; i < FF_N; i++)
        br = ff_sbb(t[i], FF_S(p)[i], br, &d[i]);
    uint64_t keep = 0 - br; /* all ones if t < p */
    for (int i = 0; i < FF_N; i++)
        r[i] = (t[i] & keep) | (d[i] & ~keep);
}

/* Canonical compare: returns true if a < p. */
static inline bool FF_S(lt_p)(const uint64_t a[FF_N])
{
    uint64_t d, br = 0;
    for (int i = 0; i < FF_N; i++)
        br = ff_sbb(a[i], FF_S(p)[i], br, &d);
    return br != 0;
}

/* Montgomery product r = a*b*R^-1 mod p (CIOS, no extra carry word), portable C. Kept out of
 * line so the dispatching wrapper below stays a flag test and a tail call. */
static __attribute__((noinline)) void FF_S(mont_mul_c)(uint64_t r[FF_N], const uint64_t a[FF_N],
                                                       const uint64_t b[FF_N])
{
    uint64_t t[FF_N] = {0};
    const uint64_t *p = FF_S(p);
#pragma GCC unroll 8
    for (int i = 0; i < FF_N; i++) {
        uint64_t bi = b[i];
        ff_u128 uv = (ff_u128)a[0] * bi + t[0];
        uint64_t A = (uint64_t)(uv >> 64);
        uint64_t t0 = (uint64_t)uv;
        uint64_t m = t0 * FF_C(_N0);
        uv = (ff_u128)m * p[0] + t0;
        uint64_t C = (uint64_t)(uv >> 64);
#pragma GCC unroll 8
        for (int j = 1; j < FF_N; j++) {
            uv = (ff_u128)a[j] * bi + t[j] + A;
            A = (uint64_t)(uv >> 64);
            uint64_t tj = (uint64_t)uv;
            uv = (ff_u128)m * p[j] + tj + C;
            C = (uint64_t)(uv >> 64);
            t[j - 1] = (uint64_t)uv;
        }
        t[FF_N - 1] = C + A;
    }
    FF_S(reduce_once)(r, t);
}

/* Montgomery product: the mulx/adx kernel where the CPU has it, else the C version. */
static inline void FF_S(mont_mul)(uint64_t r[FF_N], const uint64_t a[FF_N],
                                  const uint64_t b[FF_N])
{
#if CZK_FF_HAVE_ASM
    if (__builtin_expect(czk_ff_have_adx, 1)) {
        FF_CAT(FF_CAT(czk_ff_, FF), _mul_adx)(r, a, b);
        return;
    }
#endif
    FF_S(mont_mul_c)(r, a, b);
}

const uint64_t *FF_FN(modulus)(void) { return FF_S(p); }

void FF_FN(zero)(FF_T *r) { memset(r->l, 0, sizeof r->l); }

void FF_FN(one)(FF_T *r) { memcpy(r->l, FF_C(_ONE), sizeof r->l); }

void FF_FN(from_u64)(FF_T *r, uint64_t v)
{
    uint64_t t[FF_N] = {v};
    /* v < 2^64 < p for every czk field, so t is canonical. */
    FF_S(mont_mul)(r->l, t, FF_C(_R2));
}

bool FF_FN(is_zero)(const FF_T *a)
{
    uint64_t acc = 0;
    for (int i = 0; i < FF_N; i++)
        acc |= a->l[i];
    return acc == 0;
}

bool FF_FN(eq)(const FF_T *a, const FF_T *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FF_N; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

bool FF_FN(is_one)(const FF_T *a)
{
    uint64_t acc = 0;
    for (int i = 0; i < FF_N; i++)
        acc |= a->l[i] ^ FF_C(_ONE)[i];
    return acc == 0;
}

void FF_FN(cmov)(FF_T *r, const FF_T *a, bool c)
{
    uint64_t mask = 0 - (uint64_t)c;
    for (int i = 0; i < FF_N; i++)
        r->l[i] ^= (r->l[i] ^ a->l[i]) & mask;
}

void FF_FN(add)(FF_T *r, const FF_T *a, const FF_T *b)
{
    uint64_t t[FF_N], c = 0;
    /* a + b < 2p < 2^(64N) since p < 2^(64N-1): no carry out. */
    for (int i = 0; i < FF_N; i++)
        c = ff_adc(a->l[i], b->l[i], c, &t[i]);
    FF_S(reduce_once)(r->l, t);
}

void FF_FN(dbl)(FF_T *r, const FF_T *a) { FF_FN(add)(r, a, a); }

void FF_FN(sub)(FF_T *r, const FF_T *a, const FF_T *b)
{
    uint64_t t[FF_N], br = 0, c = 0;
    for (int i = 0; i < FF_N; i++)
        br = ff_sbb(a->l[i], b->l[i], br, &t[i]);
    uint64_t mask = 0 - br; /* add p back if a < b */
    for (int i = 0; i < FF_N; i++)
        c = ff_adc(t[i], FF_S(p)[i] & mask, c, &r->l[i]);
}

void FF_FN(neg)(FF_T *r, const FF_T *a)
{
    /* p - a, and 0 stays 0 (mask the result when a == 0). */
    uint64_t acc = 0, br = 0, t[FF_N];
    for (int i = 0; i < FF_N; i++) {
        acc |= a->l[i];
        br = ff_sbb(FF_S(p)[i], a->l[i], br, &t[i]);
    }
    uint64_t nz = 0 - (uint64_t)(acc != 0);
    for (int i = 0; i < FF_N; i++)
        r->l[i] = t[i] & nz;
}

void FF_FN(half)(FF_T *r, const FF_T *a)
{
    /* a odd -> (a + p) / 2, else a / 2; a + p < 2^(64N), so no bit is lost. */
    uint64_t mask = 0 - (a->l[0] & 1), t[FF_N], c = 0;
    for (int i = 0; i < FF_N; i++)
        c = ff_adc(a->l[i], FF_S(p)[i] & mask, c, &t[i]);
    for (int i = 0; i < FF_N - 1; i++)
        r->l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r->l[FF_N - 1] = t[FF_N - 1] >> 1;
}

void FF_FN(mul)(FF_T *r, const FF_T *a, const FF_T *b) { FF_S(mont_mul)(r->l, a->l, b->l); }

void FF_FN(sqr)(FF_T *r, const FF_T *a) { FF_S(mont_mul)(r->l, a->l, a->l); }

void FF_FN(pow)(FF_T *r, const FF_T *a, const uint64_t *e, size_t nlimbs)
{
    FF_T acc, base = *a;
    FF_FN(one)(&acc);
    size_t top = nlimbs;
    while (top > 0 && e[top - 1] == 0)
        top--;
    for (size_t i = top; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            FF_FN(sqr)(&acc, &acc);
            if ((e[i] >> b) & 1)
                FF_FN(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

void FF_FN(inv)(FF_T *r, const FF_T *a)
{
    /* Fermat: a^(p-2). The exponent is public, so the square-and-multiply pattern
     * is the same for every a; inv(0) = 0^(p-2) = 0. */
    FF_FN(pow)(r, a, FF_C(_P_MINUS_2), FF_N);
}

static inline bool FF_S(is_one_raw)(const uint64_t x[FF_N])
{
    uint64_t acc = x[0] ^ 1;
    for (int i = 1; i < FF_N; i++)
        acc |= x[i];
    return acc == 0;
}

static inline bool FF_S(geq_raw)(const uint64_t a[FF_N], const uint64_t b[FF_N])
{
    for (int i = FF_N; i-- > 0;)
        if (a[i] != b[i])
            return a[i] > b[i];
    return true;
}

static inline void FF_S(sub_raw)(uint64_t a[FF_N], const uint64_t b[FF_N])
{
    uint64_t br = 0;
    for (int i = 0; i < FF_N; i++)
        br = ff_sbb(a[i], b[i], br, &a[i]);
}

static inline void FF_S(shr1_raw)(uint64_t a[FF_N])
{
    for (int i = 0; i < FF_N - 1; i++)
        a[i] = (a[i] >> 1) | (a[i + 1] << 63);
    a[FF_N - 1] >>= 1;
}

void FF_FN(inv_vartime)(FF_T *r, const FF_T *a)
{
    /* Binary extended Euclid on the integer x = aR (the Montgomery limbs), which
     * yields x^-1 = a^-1 R^-1; one Montgomery product with R^3 gives a^-1 R.
     * Invariants: x1*x = u, x2*x = v (mod p). */
    if (FF_FN(is_zero)(a)) {
        FF_FN(zero)(r);
        return;
    }
    uint64_t u[FF_N], v[FF_N];
    FF_T x1, x2;
    memcpy(u, a->l, sizeof u);
    memcpy(v, FF_S(p), sizeof v);
    memset(x1.l, 0, sizeof x1.l);
    memset(x2.l, 0, sizeof x2.l);
    x1.l[0] = 1;
    while (!FF_S(is_one_raw)(u) && !FF_S(is_one_raw)(v)) {
        while ((u[0] & 1) == 0) {
            FF_S(shr1_raw)(u);
            FF_FN(half)(&x1, &x1);
        }
        while ((v[0] & 1) == 0) {
            FF_S(shr1_raw)(v);
            FF_FN(half)(&x2, &x2);
        }
        if (FF_S(geq_raw)(u, v)) {
            FF_S(sub_raw)(u, v);
            FF_FN(sub)(&x1, &x1, &x2);
        } else {
            FF_S(sub_raw)(v, u);
            FF_FN(sub)(&x2, &x2, &x1);
        }
    }
    const FF_T *res = FF_S(is_one_raw)(u) ? &x1 : &x2;
    FF_S(mont_mul)(r->l, res->l, FF_C(_R3));
}

int FF_FN(legendre)(const FF_T *a)
{
    FF_T t;
    FF_FN(pow)(&t, a, FF_C(_P_MINUS_1_HALF), FF_N);
    if (FF_FN(is_zero)(&t))
        return 0;
    return FF_FN(is_one)(&t) ? 1 : -1;
}

bool FF_FN(sqrt)(FF_T *r, const FF_T *a)
{
    FF_T x;
#if FF_C(_P_3MOD4)
    /* p = 3 mod 4: x = a^((p+1)/4), a square iff x^2 == a. */
    FF_FN(pow)(&x, a, FF_C(_P_PLUS_1_QUARTER), FF_N);
#else
    /* Tonelli-Shanks with p - 1 = 2^s t: z = g^t for the non-residue g. */
    FF_T z, b, w, tt;
    unsigned m = FF_C(_TWO_ADICITY);
    if (FF_FN(is_zero)(a)) {
        FF_FN(zero)(r);
        return true;
    }
    memcpy(z.l, FF_C(_NQR_T_MONT), sizeof z.l);
    FF_FN(pow)(&w, a, FF_C(_T_MINUS_1_HALF), FF_N); /* a^((t-1)/2) */
    FF_FN(mul)(&x, &w, a);                           /* a^((t+1)/2) */
    FF_FN(mul)(&b, &x, &w);                          /* a^t */
    while (!FF_FN(is_one)(&b)) {
        unsigned i = 0;
        tt = b;
        while (!FF_FN(is_one)(&tt)) {
            FF_FN(sqr)(&tt, &tt);
            if (++i == m)
                return false; /* a is not a square */
        }
        FF_T c = z;
        for (unsigned j = 0; j + i + 1 < m; j++)
            FF_FN(sqr)(&c, &c);
        m = i;
        FF_FN(sqr)(&z, &c);
        FF_FN(mul)(&x, &x, &c);
        FF_FN(mul)(&b, &b, &z);
    }
#endif
    FF_T chk;
    FF_FN(sqr)(&chk, &x);
    if (!FF_FN(eq)(&chk, a))
        return false;
    *r = x;
    return true;
}

void FF_FN(to_canonical)(uint64_t out[FF_N], const FF_T *a)
{
    static const uint64_t one[FF_N] = {1};
    FF_S(mont_mul)(out, a->l, one);
}

bool FF_FN(is_odd)(const FF_T *a)
{
    uint64_t c[FF_N];
    FF_FN(to_canonical)(c, a);
    return c[0] & 1;
}

bool FF_FN(gt_half)(const FF_T *a)
{
    /* c > (p-1)/2  <=>  c >= (p+1)/2 */
    uint64_t c[FF_N];
    FF_FN(to_canonical)(c, a);
    return FF_S(geq_raw)(c, FF_C(_P_PLUS_1_HALF));
}

enum czk_status FF_FN(from_canonical)(FF_T *r, const uint64_t in[FF_N])
{
    if (!FF_S(lt_p)(in))
        return CZK_ERR_RANGE;
    FF_S(mont_mul)(r->l, in, FF_C(_R2));
    return CZK_OK;
}

enum czk_status FF_FN(from_mont_limbs)(FF_T *r, const uint64_t in[FF_N])
{
    if (!FF_S(lt_p)(in))
        return CZK_ERR_RANGE;
    memcpy(r->l, in, sizeof r->l);
    return CZK_OK;
}

enum czk_status FF_FN(from_bytes_le)(FF_T *r, const uint8_t in[8 * FF_N])
{
    uint64_t t[FF_N];
    for (int i = 0; i < FF_N; i++) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--)
            w = (w << 8) | in[8 * i + k];
        t[i] = w;
    }
    return FF_FN(from_canonical)(r, t);
}

enum czk_status FF_FN(from_bytes_be)(FF_T *r, const uint8_t in[8 * FF_N])
{
    uint64_t t[FF_N];
    for (int i = 0; i < FF_N; i++) {
        uint64_t w = 0;
        const uint8_t *src = in + 8 * (FF_N - 1 - i);
        for (int k = 0; k < 8; k++)
            w = (w << 8) | src[k];
        t[i] = w;
    }
    return FF_FN(from_canonical)(r, t);
}

void FF_FN(to_bytes_le)(uint8_t out[8 * FF_N], const FF_T *a)
{
    uint64_t c[FF_N];
    FF_FN(to_canonical)(c, a);
    for (int i = 0; i < FF_N; i++)
        for (int k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(c[i] >> (8 * k));
}

void FF_FN(to_bytes_be)(uint8_t out[8 * FF_N], const FF_T *a)
{
    uint64_t c[FF_N];
    FF_FN(to_canonical)(c, a);
    for (int i = 0; i < FF_N; i++)
        for (int k = 0; k < 8; k++)
            out[8 * (FF_N - 1 - i) + 7 - k] = (uint8_t)(c[i] >> (8 * k));
}

/* acc = acc * mul + add over FF_N + 1 limbs; returns false on overflow past FF_N limbs. */
static bool FF_S(muladd_small)(uint64_t acc[FF_N], unsigned mul, unsigned add)
{
    uint64_t carry = add;
    for (int i = 0; i < FF_N; i++) {
        ff_u128 t = (ff_u128)acc[i] * mul + carry;
        acc[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    return carry == 0;
}

enum czk_status FF_FN(from_dec)(FF_T *r, const char *s)
{
    uint64_t acc[FF_N] = {0};
    size_t n = strlen(s);
    if (n == 0 || n > 200)
        return CZK_ERR_FORMAT;
    bool overflow = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return CZK_ERR_FORMAT;
        if (!overflow && !FF_S(muladd_small)(acc, 10, (unsigned)(s[i] - '0')))
            overflow = true;
    }
    if (overflow)
        return CZK_ERR_RANGE;
    return FF_FN(from_canonical)(r, acc);
}

enum czk_status FF_FN(from_hex)(FF_T *r, const char *s)
{
    uint64_t acc[FF_N] = {0};
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    size_t n = strlen(s);
    if (n == 0 || n > 16 * FF_N)
        return CZK_ERR_FORMAT;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        unsigned d;
        if (ch >= '0' && ch <= '9')
            d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            d = (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            d = (unsigned)(ch - 'A' + 10);
        else
            return CZK_ERR_FORMAT;
        FF_S(muladd_small)(acc, 16, d); /* n <= 16*N digits never overflow */
    }
    return FF_FN(from_canonical)(r, acc);
}

size_t FF_FN(to_dec)(char *buf, size_t len, const FF_T *a)
{
    uint64_t c[FF_N];
    char tmp[CZK_FF_DEC_MAX];
    size_t n = 0;
    FF_FN(to_canonical)(c, a);
    /* Repeated division by 10^19 yields 19-digit chunks, least significant first. */
    const uint64_t D = 10000000000000000000ull;
    bool nz;
    do {
        uint64_t rem = 0;
        nz = false;
        for (int i = FF_N; i-- > 0;) {
            ff_u128 cur = ((ff_u128)rem << 64) | c[i];
            c[i] = (uint64_t)(cur / D);
            rem = (uint64_t)(cur % D);
            nz |= c[i] != 0;
        }
        for (int k = 0; k < 19; k++) {
            tmp[n++] = (char)('0' + rem % 10);
            rem /= 10;
            if (!nz && rem == 0)
                break;
        }
    } while (nz);
    while (n > 1 && tmp[n - 1] == '0')
        n--;
    if (len < n + 1)
        return 0;
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return n;
}

size_t FF_FN(to_hex)(char *buf, size_t len, const FF_T *a)
{
    static const char digits[] = "0123456789abcdef";
    uint64_t c[FF_N];
    char tmp[16 * FF_N];
    size_t n = 0;
    FF_FN(to_canonical)(c, a);
    for (int i = 0; i < FF_N; i++)
        for (int k = 0; k < 16; k++)
            tmp[n++] = digits[(c[i] >> (4 * k)) & 15];
    while (n > 1 && tmp[n - 1] == '0')
        n--;
    if (len < n + 3)
        return 0;
    buf[0] = '0';
    buf[1] = 'x';
    for (size_t i = 0; i < n; i++)
        buf[2 + i] = tmp[n - 1 - i];
    buf[n + 2] = 0;
    return n + 2;
}

void FF_FN(batch_inv)(FF_T *out, const FF_T *in, size_t n, FF_T *scratch)
{
    /* Montgomery's trick: scratch[i] = product of the nonzero in[0..i-1]. */
    FF_T acc, t;
    FF_FN(one)(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!FF_FN(is_zero)(&in[i]))
            FF_FN(mul)(&acc, &acc, &in[i]);
    }
    FF_FN(inv)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FF_FN(is_zero)(&in[i])) {
            FF_FN(zero)(&out[i]);
            continue;
        }
        FF_FN(mul)(&t, &acc, &scratch[i]); /* in[i]^-1 */
        FF_FN(mul)(&acc, &acc, &in[i]);
        out[i] = t;
    }
}

#undef FF_FN
#undef FF_T
#undef FF_S
