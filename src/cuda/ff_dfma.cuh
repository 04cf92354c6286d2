/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: Montgomery multiplication on the FP64 pipe (DFMA) with integer accumulation, the
 * "IMAD + DFMA" code shape of issue 6, for czk bench field to measure beside the carry-chain CIOS
 * of ff.cuh. Not used by the prover.
 *
 * An element of mont<P> (N 32-bit words, R = 2^(32 N)) is read as L = 8 limbs of B = 4 N bits
 * (48 for the 381-bit field, 32 for the 254/255-bit ones), each held exactly in a double. The
 * product of two limbs (< 2^(2B) <= 2^96) is split exactly into its high and low B bits by two
 * FMAs (the technique of Emmart, Luitjens, Weems and Woolley, "Optimizing modular multiplication
 * for NVIDIA's Maxwell GPUs", and Emmart's FP64 Montgomery work):
 *   h = fma_rz(a, b, 2^(B+52))             exact value in [2^(B+52), 2^(B+53)), ulp 2^B, so
 *                                          round-toward-zero keeps floor(ab / 2^B) in the mantissa
 *   l = fma(a, b, (2^(B+52) + 2^52) - h)   = (ab mod 2^B) + 2^52, exact, mantissa = ab mod 2^B
 * The raw bit patterns of h and l are those integers plus fixed offsets (the exponent fields);
 * they are summed as 64-bit integers (IADD3 on the integer pipe, co-issuing with the DFMAs) and
 * the offsets subtracted once per column and row. The Montgomery factor m = t0 (-p^-1) mod 2^B
 * is the low half of one more split. The rows are CIOS (operand scanning): a product row, the
 * reduction row, a shift by one limb; columns stay below 2^54 so no carry is propagated inside a
 * row. The result (< 2p) is packed back into 32-bit words and reduced once: bit-exact with
 * mont<P>::mul.
 *
 * Host emulation (czk_cuda_test_field on_host = 1) computes the same bit patterns from exact
 * 128-bit integer products, so the accumulation and reduction are checked without a GPU; the
 * two FMAs themselves are checked only on the device.
 */
#ifndef CZK_CUDA_FF_DFMA_CUH
#define CZK_CUDA_FF_DFMA_CUH

#include <string.h>

#include "cuda/ff.cuh"

namespace czk_cuda {
namespace dfma {

constexpr int L = 8; /* limbs per element */

CZK_HD uint64_t bits_of(double x)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(x);
#else
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
#endif
}
CZK_HD double from_bits(uint64_t u)
{
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)u);
#else
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
#endif
}
/* the bit pattern of 2^e (normal range) */
CZK_HD constexpr uint64_t pow2_bits(int e) { return (uint64_t)(1023 + e) << 52; }

/* x < 2^52 as an exact double: 2^52 + x has x as its mantissa */
CZK_HD double to_double(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __dsub_rn(from_bits(pow2_bits(52) | x), 4503599627370496.0);
#else
    return from_bits(pow2_bits(52) | x) - 4503599627370496.0;
#endif
}

/* ab = hi 2^B + lo for exact integers a, b < 2^B; returns the raw bits of h and l (see top) */
template <int B> CZK_HD void split(double a, double b, uint64_t &h, uint64_t &l)
{
    static_assert(B >= 32 && B <= 50, "limb width");
#ifdef __CUDA_ARCH__
    const double c1 = from_bits(pow2_bits(B + 52));
    /* 2^(B+52) + 2^52: mantissa bit k of 2^(B+52) weighs 2^(B+k) */
    const double c2 = from_bits(pow2_bits(B + 52) | ((uint64_t)1 << (52 - B)));
    double hd = __fma_rz(a, b, c1);
    double ld = __fma_rn(a, b, __dsub_rn(c2, hd));
    h = bits_of(hd);
    l = bits_of(ld);
#else
    unsigned __int128 p = (unsigned __int128)(uint64_t)a * (uint64_t)b;
    h = pow2_bits(B + 52) + (uint64_t)(p >> B);
    l = pow2_bits(52) + ((uint64_t)p & (((uint64_t)1 << B) - 1));
#endif
}

/* -p^-1 mod 2^64 from the low 64 bits of an odd p (Newton: each step doubles the correct bits) */
CZK_HD constexpr uint64_t neg_inv64(uint64_t p)
{
    uint64_t y = p; /* p y = 1 mod 8 */
    y *= 2 - p * y;
    y *= 2 - p * y;
    y *= 2 - p * y;
    y *= 2 - p * y;
    y *= 2 - p * y;
    return (uint64_t)0 - y;
}

template <class P> struct shape {
    static constexpr int B = 4 * P::N;
    static constexpr uint64_t MASK = ((uint64_t)1 << B) - 1;
    /* bits [B j, B j + B) of the N-word value whose word i is w(i) */
    template <class W> CZK_HD static constexpr uint64_t limb_of(const W &w, int j)
    {
        const int bit = B * j, q = bit / 32, s = bit % 32;
        uint64_t v = (uint64_t)w(q) >> s;
        if (q + 1 < P::N)
            v |= (uint64_t)w(q + 1) << (32 - s);
        if (s + B > 64 && q + 2 < P::N)
            v |= (uint64_t)w(q + 2) << (64 - s);
        return v & MASK;
    }
    struct words {
        const uint32_t *v;
        CZK_HD constexpr uint32_t operator()(int i) const { return v[i]; }
    };
    struct p_words {
        CZK_HD constexpr uint32_t operator()(int i) const { return P::p(i); }
    };
    /* the modulus' limbs and -p^-1 mod 2^B as doubles (exact, < 2^48): compile-time constants */
    CZK_HD static constexpr double p_limb(int j) { return (double)limb_of(p_words(), j); }
    CZK_HD static constexpr double pinv()
    {
        return (double)(neg_inv64((uint64_t)P::p(0) | (uint64_t)P::p(1) << 32) & MASK);
    }
};

/* a b R^-1 mod p, R = 2^(32 N): the same value as mont<P>::mul */
template <class P> CZK_HD mont<P> mul(const mont<P> &a, const mont<P> &b)
{
    typedef shape<P> S;
    constexpr int B = S::B;
    constexpr uint64_t OH = pow2_bits(B + 52), OL = pow2_bits(52);
    double ad[L], bd[L], pd[L];
#pragma unroll
    for (int j = 0; j < L; j++) {
        ad[j] = to_double(S::limb_of(typename S::words{a.limb}, j));
        bd[j] = to_double(S::limb_of(typename S::words{b.limb}, j));
        pd[j] = S::p_limb(j);
    }
    constexpr double qd = S::pinv();
    uint64_t t[L + 1];
#pragma unroll
    for (int j = 0; j <= L; j++)
        t[j] = 0;
#pragma unroll
    for (int i = 0; i < L; i++) {
        uint64_t h[L], l[L];
        /* product row: t += a_i b (raw bits; each column gains one lo and one hi offset) */
#pragma unroll
        for (int j = 0; j < L; j++)
            split<B>(ad[i], bd[j], h[j], l[j]);
        t[0] += l[0];
#pragma unroll
        for (int j = 1; j < L; j++)
            t[j] += l[j] + h[j - 1];
        t[L] += h[L - 1];
        /* m = t0 (-p^-1) mod 2^B */
        uint64_t mh, ml;
        split<B>(to_double((t[0] - OL) & S::MASK), qd, mh, ml);
        (void)mh;
        const double md = to_double(ml - OL);
        /* reduction row: t += m p, which clears t0's low B bits */
#pragma unroll
        for (int j = 0; j < L; j++)
            split<B>(md, pd[j], h[j], l[j]);
        t[0] += l[0];
#pragma unroll
        for (int j = 1; j < L; j++)
            t[j] += l[j] + h[j - 1];
        t[L] += h[L - 1];
        /* shift by one limb, taking the offsets of this row out */
        const uint64_t c = (t[0] - 2 * OL) >> B;
        t[0] = t[1] - 2 * (OL + OH) + c;
#pragma unroll
        for (int j = 1; j < L - 1; j++)
            t[j] = t[j + 1] - 2 * (OL + OH);
        t[L - 1] = t[L] - 2 * OH;
        t[L] = 0;
    }
    /* carries, then back to 32-bit words (the value is below 2p < 2^(B L)) */
#pragma unroll
    for (int j = 0; j < L - 1; j++) {
        t[j + 1] += t[j] >> B;
        t[j] &= S::MASK;
    }
    mont<P> r;
#pragma unroll
    for (int i = 0; i < P::N; i++)
        r.limb[i] = 0;
#pragma unroll
    for (int j = 0; j < L; j++) {
        const int bit = B * j, q = bit / 32, s = bit % 32;
        r.limb[q] |= (uint32_t)(t[j] << s);
        if (q + 1 < P::N)
            r.limb[q + 1] |= (uint32_t)(t[j] >> (32 - s));
        if (s + B > 64 && q + 2 < P::N)
            r.limb[q + 2] |= (uint32_t)(t[j] >> (64 - s));
    }
    mont<P>::final_sub(r.limb);
    return r;
}

/* Fp2: Karatsuba over the DFMA base-field product */
template <class F> CZK_HD fp2<F> mul(const fp2<F> &a, const fp2<F> &b)
{
    F t0 = mul(a.c0, b.c0), t1 = mul(a.c1, b.c1);
    F t2 = mul(F::add(a.c0, a.c1), F::add(b.c0, b.c1));
    return fp2<F>::make(F::sub(t0, t1), F::sub(F::sub(t2, t0), t1));
}

} /* namespace dfma */
} /* namespace czk_cuda */

#endif
