/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: Montgomery field arithmetic on 32-bit limbs (device, and host for testing).
 *
 * API (namespace czk_cuda). F is one of the prime fields
 *
 *   fr_bn254       BN254 scalar field       8 x 32-bit limbs
 *   fp_bn254       BN254 base field         8 limbs
 *   fr_bls12_381   BLS12-381 scalar field   8 limbs
 *   fp_bls12_381   BLS12-381 base field    12 limbs
 *
 * and E one of the quadratic extensions fp2_bn254, fp2_bls12_381 = Fp[u]/(u^2 + 1).
 *
 *   struct F { uint32_t limb[F::N]; }          Montgomery form a*R mod p, R = 2^(32N), i.e. the
 *                                              host's R = 2^(64*N/2): a host uint64_t[N/2] is the
 *                                              device uint32_t[N] little-endian, bit for bit.
 *   struct E { F c0, c1; }                     c0 + c1*u.
 *   static: zero() one() add(a,b) sub(a,b) neg(a) dbl(a) mul(a,b) sqr(a) sqr_lean(a) is_zero(a) eq(a,b)
 *           from_canonical(a) (a*R^2, reduce) to_canonical(a) (reduce a*1) pow(a, uint32_t e)
 *           cmov(a, b, c) (c ? b : a)
 *   members: load(const uint64_t *p), store(uint64_t *p) (host layout: N/2 u64 per Fp element,
 *            c0 then c1 for E), operators * + - (binary), - (unary), == .
 *   F::inv(a) (binary extended Euclid, no value-dependent branch; inv(0) = 0);
 *   F::mul_wide(a, b): mul through 64-bit products (another code shape, same result).
 *
 * Values are always fully reduced (< p): equality is bitwise and results equal the host's src/ff
 * bit for bit. Every function is __host__ __device__: on the host the PTX carry-chain primitives
 * below are emulated, so the same code is tested on a machine without a GPU.
 *
 * Multiplication: CIOS (coarsely integrated operand scanning) over 32-bit limbs. Each row
 * t += a*b_i and each reduction row t += m*p is done as two carry chains, one over the even
 * limbs of a (p) and one over the odd ones, so every product contributes its low and high words
 * through mad.lo.cc / madc.hi.cc without any 64-bit arithmetic. All four moduli are below R/2,
 * so t stays below 2p < R and one conditional subtraction finishes.
 */
#ifndef CZK_CUDA_FF_CUH
#define CZK_CUDA_FF_CUH

#include <stdint.h>

#ifdef __CUDACC__
#define CZK_HD __host__ __device__ __forceinline__
#else
#define CZK_HD inline
#endif

namespace czk_cuda {

/* ---- carry-chain primitives: PTX on the device, emulated on the host ----------------------- */
namespace ptx {
#ifndef __CUDA_ARCH__
/* Host emulation of the condition-code carry flag (one per thread). */
inline uint32_t &cf()
{
    static thread_local uint32_t f;
    return f;
}
#endif

CZK_HD uint32_t add_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t s = (uint64_t)a + b;
    cf() = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}
CZK_HD uint32_t addc_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t s = (uint64_t)a + b + cf();
    cf() = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}
CZK_HD uint32_t addc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return (uint32_t)((uint64_t)a + b + cf());
#endif
}
CZK_HD uint32_t sub_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    cf() = a < b;
    return a - b;
#endif
}
CZK_HD uint32_t subc_cc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t d = (uint64_t)a - b - cf();
    cf() = (uint32_t)(d >> 63);
    return (uint32_t)d;
#endif
}
CZK_HD uint32_t subc(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return a - b - cf();
#endif
}
/* d = lo(a*b) + c, carry out */
CZK_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t s = (uint64_t)(uint32_t)((uint64_t)a * b) + c;
    cf() = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}
CZK_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t s = (uint64_t)(uint32_t)((uint64_t)a * b) + c + cf();
    cf() = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}
CZK_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t s = (((uint64_t)a * b) >> 32) + c + cf();
    cf() = (uint32_t)(s >> 32);
    return (uint32_t)s;
#endif
}
CZK_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return (uint32_t)((((uint64_t)a * b) >> 32) + c + cf());
#endif
}
} /* namespace ptx */

/* ---- field constants ------------------------------------------------------------------------
 * Copied from src/ff/ff_consts.h (64-bit limbs split low word first); the tests compare one()
 * and from_canonical() with the host, so a wrong word cannot go unnoticed. */
#define CZK_CUDA_FIELD_PARAMS(NAME, NW, N0, ...)                                                   \
    struct NAME {                                                                                  \
        static constexpr int N = NW;                                                               \
        static constexpr uint32_t n0 = N0;                                                         \
        CZK_HD static constexpr uint32_t get(int which, int i)                                     \
        {                                                                                          \
            constexpr uint32_t v[3][NW] = {__VA_ARGS__};                                           \
            return v[which][i];                                                                    \
        }                                                                                          \
        CZK_HD static constexpr uint32_t p(int i) { return get(0, i); }                            \
        CZK_HD static constexpr uint32_t one(int i) { return get(1, i); }                          \
        CZK_HD static constexpr uint32_t r2(int i) { return get(2, i); }                           \
    }

CZK_CUDA_FIELD_PARAMS(fp_bn254_params, 8, 0xe4866389u,
    {0xd87cfd47u, 0x3c208c16u, 0x6871ca8du, 0x97816a91u, 0x8181585du, 0xb85045b6u, 0xe131a029u, 0x30644e72u},
    {0xc58f0d9du, 0xd35d438du, 0xf5c70b3du, 0x0a78eb28u, 0x7879462cu, 0x666ea36fu, 0x9a07df2fu, 0x0e0a77c1u},
    {0x538afa89u, 0xf32cfc5bu, 0xd44501fbu, 0xb5e71911u, 0x0a417ff6u, 0x47ab1effu, 0xcab8351fu, 0x06d89f71u});
CZK_CUDA_FIELD_PARAMS(fr_bn254_params, 8, 0xefffffffu,
    {0xf0000001u, 0x43e1f593u, 0x79b97091u, 0x2833e848u, 0x8181585du, 0xb85045b6u, 0xe131a029u, 0x30644e72u},
    {0x4ffffffbu, 0xac96341cu, 0x9f60cd29u, 0x36fc7695u, 0x7879462eu, 0x666ea36fu, 0x9a07df2fu, 0x0e0a77c1u},
    {0xae216da7u, 0x1bb8e645u, 0xe35c59e3u, 0x53fe3ab1u, 0x53bb8085u, 0x8c49833du, 0x7f4e44a5u, 0x0216d0b1u});
CZK_CUDA_FIELD_PARAMS(fp_bls12_381_params, 12, 0xfffcfffdu,
    {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, 0x64774b84u,
     0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau},
    {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u, 0x70525745u, 0x77ce5853u,
     0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u},
    {0x1c341746u, 0xf4df1f34u, 0x09d104f1u, 0x0a76e6a6u, 0x4c95b6d5u, 0x8de5476cu, 0x939d83c0u, 0x67eb88a9u,
     0xb519952du, 0x9a793e85u, 0x92cae3aau, 0x11988fe5u});
CZK_CUDA_FIELD_PARAMS(fr_bls12_381_params, 8, 0xffffffffu,
    {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, 0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u},
    {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau, 0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u},
    {0xf3f29c6du, 0xc999e990u, 0x87925c23u, 0x2b6cedcbu, 0x7254398fu, 0x05d31496u, 0x9f59ff11u, 0x0748d9d9u});
#undef CZK_CUDA_FIELD_PARAMS

/* ---- prime field ------------------------------------------------------------------------------ */
template <class P> struct mont {
    static constexpr int N = P::N;
    typedef P params;
    uint32_t limb[N];

    CZK_HD static mont zero()
    {
        mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.limb[i] = 0;
        return r;
    }
    CZK_HD static mont one()
    {
        mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.limb[i] = P::one(i);
        return r;
    }
    CZK_HD static mont modulus_raw()
    {
        mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.limb[i] = P::p(i);
        return r;
    }
    CZK_HD static bool is_zero(const mont &a)
    {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            acc |= a.limb[i];
        return acc == 0;
    }
    CZK_HD static bool eq(const mont &a, const mont &b)
    {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            acc |= a.limb[i] ^ b.limb[i];
        return acc == 0;
    }
    /* c ? b : a */
    CZK_HD static mont cmov(const mont &a, const mont &b, bool c)
    {
        mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.limb[i] = c ? b.limb[i] : a.limb[i];
        return r;
    }

    /* t (< 2p) -> t mod p */
    CZK_HD static void final_sub(uint32_t t[N])
    {
        uint32_t d[N];
        d[0] = ptx::sub_cc(t[0], P::p(0));
#pragma unroll
        for (int i = 1; i < N; i++)
            d[i] = ptx::subc_cc(t[i], P::p(i));
        uint32_t borrow = ptx::subc(0, 0); /* 0 or 0xffffffff */
#pragma unroll
        for (int i = 0; i < N; i++)
            t[i] = borrow ? t[i] : d[i];
    }

    /* r = a - b mod p (limb arrays of reduced values) */
    CZK_HD static void sub_limbs(uint32_t r[N], const uint32_t a[N], const uint32_t b[N])
    {
        r[0] = ptx::sub_cc(a[0], b[0]);
#pragma unroll
        for (int i = 1; i < N; i++)
            r[i] = ptx::subc_cc(a[i], b[i]);
        const uint32_t mask = ptx::subc(0, 0);
        r[0] = ptx::add_cc(r[0], P::p(0) & mask);
#pragma unroll
        for (int i = 1; i < N; i++)
            r[i] = ptx::addc_cc(r[i], P::p(i) & mask);
        (void)ptx::addc(0, 0);
    }
    CZK_HD static mont add(const mont &a, const mont &b)
    {
        mont r = add_raw(a, b);
        final_sub(r.limb);
        return r;
    }
    CZK_HD static mont dbl(const mont &a) { return add(a, a); }
    CZK_HD static mont sub(const mont &a, const mont &b)
    {
        mont r;
        sub_limbs(r.limb, a.limb, b.limb);
        return r;
    }
    CZK_HD static mont neg(const mont &a)
    {
        mont r;
        uint32_t nz = is_zero(a) ? 0u : 0xffffffffu;
        r.limb[0] = ptx::sub_cc(P::p(0) & nz, a.limb[0]);
#pragma unroll
        for (int i = 1; i < N; i++)
            r.limb[i] = ptx::subc_cc(P::p(i) & nz, a.limb[i]);
        (void)ptx::subc(0, 0);
        return r;
    }

    /* operands of mul_row_n: the limbs of an element (from a pointer) and those of the modulus */
    struct limbs_at {
        const uint32_t *v;
        CZK_HD uint32_t operator()(int j) const { return v[j]; }
    };
    struct modulus_limbs {
        CZK_HD uint32_t operator()(int j) const { return P::p(j); }
    };

    /* t[0..L] += x * y(0..L-1), L >= 1, y given by the accessor; the sum must fit in L + 1
     * limbs. The products of y's even limbs go in first (lo into t[j], hi into t[j + 1]), then
     * the odd ones: two carry chains, each over disjoint limb pairs. */
    template <int L, class Y> CZK_HD static void mul_row_n(uint32_t *t, uint32_t x, const Y &y)
    {
        static_assert(L >= 1, "row length");
#pragma unroll
        for (int j = 0; j < L; j += 2) {
            t[j] = j == 0 ? ptx::mad_lo_cc(y(j), x, t[j]) : ptx::madc_lo_cc(y(j), x, t[j]);
            t[j + 1] = j + 1 == L ? ptx::madc_hi(y(j), x, t[j + 1]) : ptx::madc_hi_cc(y(j), x, t[j + 1]);
        }
        if (L % 2 == 0)
            t[L] = ptx::addc(t[L], 0);
        if (L < 2)
            return;
        t[1] = ptx::mad_lo_cc(y(1), x, t[1]);
#pragma unroll
        for (int j = 1; j < L; j += 2) {
            if (j + 2 < L) {
                t[j + 1] = ptx::madc_hi_cc(y(j), x, t[j + 1]);
                t[j + 2] = ptx::madc_lo_cc(y(j + 2), x, t[j + 2]);
            } else if (j + 1 == L) {
                t[L] = ptx::madc_hi(y(j), x, t[L]);
            } else {
                t[j + 1] = ptx::madc_hi_cc(y(j), x, t[j + 1]);
                t[L] = ptx::addc(t[L], 0);
            }
        }
    }
    /* the row of N limbs: t[0..N] += x * y */
    template <class Y> CZK_HD static void mul_row(uint32_t t[N + 1], uint32_t x, const Y &y)
    {
        mul_row_n<N>(t, x, y);
    }

    CZK_HD static mont mul(const mont &a, const mont &b)
    {
        uint32_t t[N + 1];
#pragma unroll
        for (int j = 0; j <= N; j++)
            t[j] = 0;
        const limbs_at av = {a.limb};
        const modulus_limbs pv = {};
#pragma unroll
        for (int i = 0; i < N; i++) {
            mul_row(t, b.limb[i], av);          /* t < R + p*2^32 */
            uint32_t m = t[0] * P::n0;
            mul_row(t, m, pv);                  /* t[0] = 0 now */
#pragma unroll
            for (int j = 0; j < N; j++)
                t[j] = t[j + 1];
            t[N] = 0;
        }
        mont r;
#pragma unroll
        for (int j = 0; j < N; j++)
            r.limb[j] = t[j];
        final_sub(r.limb);
        return r;
    }
    /* a^2 (dedicated): the double-width square (sqr_full), then one Montgomery reduction */
    CZK_HD static mont sqr(const mont &a)
    {
        uint32_t t[2 * N];
        sqr_full(t, a);
        return redc(t);
    }
    /* a^2 as mul(a, a): the CIOS keeps N + 1 limbs of the product live where sqr holds 2N;
     * for code at the register limit (the point functions of ec.cuh, which the XYZZ kernels
     * call; with sqr there the BLS12-381 reduction and batch-affine kernels spill) */
    CZK_HD static mont sqr_lean(const mont &a) { return mul(a, a); }

    /* ---- double-width products, for lazy reduction (fp2::mul) ----
     * A wide value is 2N limbs. The plain a + b of two elements (< 2p, below R since every
     * modulus of an Fp2 base field is below R/4, fp2::mul checks) may be an operand of mul_full;
     * redc takes any value below p R. */
    /* t = a * b (2N limbs, no reduction) */
    CZK_HD static void mul_full(uint32_t t[2 * N], const mont &a, const mont &b)
    {
        const limbs_at av = {a.limb};
#pragma unroll
        for (int j = 0; j < 2 * N; j++)
            t[j] = 0;
        /* row i adds a b_i at limb i: t[i..i+N-1] < 2^(32N) and t[i+N] = 0 before it, so the sum
         * fits the N + 1 limbs that mul_row writes */
#pragma unroll
        for (int i = 0; i < N; i++)
            mul_row(t + i, b.limb[i], av);
    }
    /* rows I.. of the cross products: t[2I + 1 ..] += a_I (a_{I+1} .. a_{N-1}). Before row I
     * the rows below wrote up to limb N + I - 1, and all rows up to I sum to less than
     * 2^(32 (N + I + 1)), so row I fits the N - I limbs that mul_row_n writes. */
    template <int I> CZK_HD static void sqr_rows(uint32_t t[2 * N], const mont &a)
    {
        if constexpr (I < N - 1) {
            const limbs_at av = {a.limb + I + 1};
            mul_row_n<N - 1 - I>(t + 2 * I + 1, a.limb[I], av);
            sqr_rows<I + 1>(t, a);
        }
    }
    /* t = a^2 (2N limbs, no reduction): the N (N - 1) / 2 cross products a_i a_j (i < j) once,
     * doubled by a one-bit shift (their sum is below a^2 / 2), then the N squares a_i^2 in one
     * carry chain: N (N + 1) / 2 limb products against mul_full's N^2. */
    CZK_HD static void sqr_full(uint32_t t[2 * N], const mont &a)
    {
#pragma unroll
        for (int j = 0; j < 2 * N; j++)
            t[j] = 0;
        sqr_rows<0>(t, a);
#pragma unroll
        for (int j = 2 * N - 1; j > 0; j--)
            t[j] = (t[j] << 1) | (t[j - 1] >> 31);
        t[0] <<= 1;
        t[0] = ptx::mad_lo_cc(a.limb[0], a.limb[0], t[0]);
        t[1] = ptx::madc_hi_cc(a.limb[0], a.limb[0], t[1]);
#pragma unroll
        for (int i = 1; i < N - 1; i++) {
            t[2 * i] = ptx::madc_lo_cc(a.limb[i], a.limb[i], t[2 * i]);
            t[2 * i + 1] = ptx::madc_hi_cc(a.limb[i], a.limb[i], t[2 * i + 1]);
        }
        t[2 * N - 2] = ptx::madc_lo_cc(a.limb[N - 1], a.limb[N - 1], t[2 * N - 2]);
        t[2 * N - 1] = ptx::madc_hi(a.limb[N - 1], a.limb[N - 1], t[2 * N - 1]);
    }
    /* the plain sum a + b (< 2p < R), not reduced: add() reduces it, mul_full takes it as is */
    CZK_HD static mont add_raw(const mont &a, const mont &b)
    {
        mont r;
        r.limb[0] = ptx::add_cc(a.limb[0], b.limb[0]);
#pragma unroll
        for (int i = 1; i < N; i++)
            r.limb[i] = ptx::addc_cc(a.limb[i], b.limb[i]);
        (void)ptx::addc(0, 0); /* a + b < 2p < R: no carry; closes the chain */
        return r;
    }
    /* t -= u over 2N limbs; returns all ones on a borrow */
    CZK_HD static uint32_t sub_wide(uint32_t t[2 * N], const uint32_t u[2 * N])
    {
        t[0] = ptx::sub_cc(t[0], u[0]);
#pragma unroll
        for (int i = 1; i < 2 * N; i++)
            t[i] = ptx::subc_cc(t[i], u[i]);
        return ptx::subc(0, 0);
    }
    /* t += u over 2N limbs (the caller knows the sum fits) */
    CZK_HD static void add_wide(uint32_t t[2 * N], const uint32_t u[2 * N])
    {
        t[0] = ptx::add_cc(t[0], u[0]);
#pragma unroll
        for (int i = 1; i < 2 * N; i++)
            t[i] = ptx::addc_cc(t[i], u[i]);
        (void)ptx::addc(0, 0);
    }
    /* t += p R where mask is all ones (a negative difference made nonnegative, below p R) */
    CZK_HD static void add_pr(uint32_t t[2 * N], uint32_t mask)
    {
        t[N] = ptx::add_cc(t[N], P::p(0) & mask);
#pragma unroll
        for (int i = 1; i < N; i++)
            t[N + i] = ptx::addc_cc(t[N + i], P::p(i) & mask);
        (void)ptx::addc(0, 0);
    }
    /* Montgomery reduction of a wide x = lo + hi R < p R: x / R mod p. The low half alone goes
     * through N rows (u = (lo + m p) / R <= p), then hi (< p) is added: u + hi < 2p. */
    CZK_HD static mont redc(const uint32_t t[2 * N])
    {
        const modulus_limbs pv = {};
        uint32_t u[N + 1];
#pragma unroll
        for (int j = 0; j < N; j++)
            u[j] = t[j];
        u[N] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            uint32_t m = u[0] * P::n0;
            mul_row(u, m, pv); /* u < R before, so u + m p < 2^(32(N+1)); u[0] = 0 now */
#pragma unroll
            for (int j = 0; j < N; j++)
                u[j] = u[j + 1];
            u[N] = 0;
        }
        mont r;
        r.limb[0] = ptx::add_cc(u[0], t[N]);
#pragma unroll
        for (int i = 1; i < N; i++)
            r.limb[i] = ptx::addc_cc(u[i], t[N + i]);
        (void)ptx::addc(0, 0);
        final_sub(r.limb);
        return r;
    }

    /* The same CIOS written with 64-bit sums s = a_j b_i + t_j + carry (< 2^64), which the
     * compiler maps to IMAD.WIDE.U32 plus 64-bit adds instead of the lo/hi carry chains above:
     * another code shape for the same result, measured against mul by czk_cuda_bench_field. */
    CZK_HD static mont mul_wide(const mont &a, const mont &b)
    {
        uint32_t t[N + 2];
#pragma unroll
        for (int j = 0; j < N + 2; j++)
            t[j] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            uint64_t c = 0;
#pragma unroll
            for (int j = 0; j < N; j++) {
                uint64_t s = (uint64_t)a.limb[j] * b.limb[i] + t[j] + c;
                t[j] = (uint32_t)s;
                c = s >> 32;
            }
            uint64_t s = (uint64_t)t[N] + c;
            t[N] = (uint32_t)s;
            t[N + 1] = (uint32_t)(s >> 32);
            uint32_t m = t[0] * P::n0;
            s = (uint64_t)m * P::p(0) + t[0];
            c = s >> 32;
#pragma unroll
            for (int j = 1; j < N; j++) {
                s = (uint64_t)m * P::p(j) + t[j] + c;
                t[j - 1] = (uint32_t)s;
                c = s >> 32;
            }
            s = (uint64_t)t[N] + c;
            t[N - 1] = (uint32_t)s;
            t[N] = t[N + 1] + (uint32_t)(s >> 32);
        }
        mont r;
#pragma unroll
        for (int j = 0; j < N; j++)
            r.limb[j] = t[j];
        final_sub(r.limb); /* t < 2p < R: t[N] = 0 */
        return r;
    }

    CZK_HD static mont pow(const mont &a, uint32_t e)
    {
        mont r = one(), b = a;
        while (e) {
            if (e & 1)
                r = mul(r, b);
            e >>= 1;
            if (e)
                b = sqr(b);
        }
        return r;
    }
    /* bit length of p */
    CZK_HD static constexpr int bits()
    {
        int b = 32 * (N - 1);
        for (uint32_t t = P::p(N - 1); t; t >>= 1)
            b++;
        return b;
    }
    /*
     * a^-1 in Montgomery form, inv(0) = 0: the binary extended Euclid on the stored value A = a R,
     * with no branch on the value. x = A, y = p, u = R^2 mod p, v = 0 keep x = u A / R^2 and
     * y = v A / R^2 (mod p), y odd. A step makes x even (x - y, or with x < y the two swapped
     * first: y - x, and u, v likewise mod p) and halves x and u (mod p). x y at least halves
     * per step while x > 0 and starts below 2^(2 bits(p)), so after 2 bits(p) steps x = 0, y =
     * gcd(A, p) = 1 and v = R^2 / A = (a / R)^-1 R. About 18 N ALU operations per step, against
     * the ~1.5 bits(p) multiplications of a^(p-2).
     */
    CZK_HD static mont inv(const mont &a)
    {
        uint32_t x[N], y[N], u[N], v[N];
#pragma unroll
        for (int i = 0; i < N; i++) {
            x[i] = a.limb[i];
            y[i] = P::p(i);
            u[i] = P::r2(i);
            v[i] = 0;
        }
#pragma unroll 1
        for (int step = 0; step < 2 * bits(); step++) {
            const uint32_t odd = 0u - (x[0] & 1); /* all ones when x is odd */
            uint32_t d[N], e[N], du[N], dv[N];
            d[0] = ptx::sub_cc(x[0], y[0]); /* d = x - y */
#pragma unroll
            for (int i = 1; i < N; i++)
                d[i] = ptx::subc_cc(x[i], y[i]);
            const uint32_t sw = ptx::subc(0, 0) & odd; /* all ones: x odd and x < y (swap) */
            e[0] = ptx::sub_cc(0, d[0]);                 /* e = y - x */
#pragma unroll
            for (int i = 1; i < N; i++)
                e[i] = ptx::subc_cc(0, d[i]);
            (void)ptx::subc(0, 0);
            sub_limbs(du, u, v);
            sub_limbs(dv, v, u);
            const uint32_t keep = ~odd, take = odd & ~sw;
#pragma unroll
            for (int i = 0; i < N; i++) {
                const uint32_t nx = (keep & x[i]) | (take & d[i]) | (sw & e[i]);
                const uint32_t nu = (keep & u[i]) | (take & du[i]) | (sw & dv[i]);
                y[i] = (sw & x[i]) | (~sw & y[i]);
                v[i] = (sw & u[i]) | (~sw & v[i]);
                x[i] = nx;
                u[i] = nu;
            }
            /* x /= 2 (exact); u /= 2 mod p: u + p when odd, the carry shifted in at the top */
            const uint32_t uo = 0u - (u[0] & 1);
            u[0] = ptx::add_cc(u[0], P::p(0) & uo);
#pragma unroll
            for (int i = 1; i < N; i++)
                u[i] = ptx::addc_cc(u[i], P::p(i) & uo);
            const uint32_t c = ptx::addc(0, 0);
#pragma unroll
            for (int i = 0; i < N - 1; i++) {
                x[i] = (x[i] >> 1) | (x[i + 1] << 31);
                u[i] = (u[i] >> 1) | (u[i + 1] << 31);
            }
            x[N - 1] >>= 1;
            u[N - 1] = (u[N - 1] >> 1) | (c << 31);
        }
        mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.limb[i] = v[i];
        return r;
    }
    CZK_HD static mont from_canonical(const mont &a)
    {
        mont r2;
#pragma unroll
        for (int i = 0; i < N; i++)
            r2.limb[i] = P::r2(i);
        return mul(a, r2);
    }
    CZK_HD static mont to_canonical(const mont &a)
    {
        mont o = zero();
        o.limb[0] = 1;
        return mul(a, o);
    }

    CZK_HD void load(const uint64_t *p)
    {
#pragma unroll
        for (int i = 0; i < N / 2; i++) {
            uint64_t v = p[i];
            limb[2 * i] = (uint32_t)v;
            limb[2 * i + 1] = (uint32_t)(v >> 32);
        }
    }
    CZK_HD void store(uint64_t *p) const
    {
#pragma unroll
        for (int i = 0; i < N / 2; i++)
            p[i] = (uint64_t)limb[2 * i] | ((uint64_t)limb[2 * i + 1] << 32);
    }

    CZK_HD mont operator+(const mont &b) const { return add(*this, b); }
    CZK_HD mont operator-(const mont &b) const { return sub(*this, b); }
    CZK_HD mont operator*(const mont &b) const { return mul(*this, b); }
    CZK_HD mont operator-() const { return neg(*this); }
    CZK_HD bool operator==(const mont &b) const { return eq(*this, b); }
};

typedef mont<fp_bn254_params> fp_bn254;
typedef mont<fr_bn254_params> fr_bn254;
typedef mont<fp_bls12_381_params> fp_bls12_381;
typedef mont<fr_bls12_381_params> fr_bls12_381;

/* ---- Fp2 = Fp[u]/(u^2 + 1) (both curves) ----------------------------------------------------- */
template <class F> struct fp2 {
    typedef F base;
    static constexpr int N = 2 * F::N;
    F c0, c1;

    CZK_HD static fp2 make(const F &a, const F &b)
    {
        fp2 r;
        r.c0 = a;
        r.c1 = b;
        return r;
    }
    CZK_HD static fp2 zero() { return make(F::zero(), F::zero()); }
    CZK_HD static fp2 one() { return make(F::one(), F::zero()); }
    CZK_HD static bool is_zero(const fp2 &a) { return F::is_zero(a.c0) & F::is_zero(a.c1); }
    CZK_HD static bool eq(const fp2 &a, const fp2 &b) { return F::eq(a.c0, b.c0) & F::eq(a.c1, b.c1); }
    CZK_HD static fp2 cmov(const fp2 &a, const fp2 &b, bool c)
    {
        return make(F::cmov(a.c0, b.c0, c), F::cmov(a.c1, b.c1, c));
    }
    CZK_HD static fp2 add(const fp2 &a, const fp2 &b) { return make(F::add(a.c0, b.c0), F::add(a.c1, b.c1)); }
    CZK_HD static fp2 sub(const fp2 &a, const fp2 &b) { return make(F::sub(a.c0, b.c0), F::sub(a.c1, b.c1)); }
    CZK_HD static fp2 dbl(const fp2 &a) { return make(F::dbl(a.c0), F::dbl(a.c1)); }
    CZK_HD static fp2 neg(const fp2 &a) { return make(F::neg(a.c0), F::neg(a.c1)); }
    /* Karatsuba with lazy reduction: the three products are double width and only the two
     * results are reduced (two Montgomery reductions instead of three):
     * c0 = a0 b0 - a1 b1 (plus p R when negative), c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1
     * (= a0 b1 + a1 b0 < 2 p^2). Both are below p R, as redc needs. */
    CZK_HD static fp2 mul(const fp2 &a, const fp2 &b)
    {
        static_assert(F::params::p(F::N - 1) < (1u << 30), "lazy reduction needs 4p < R");
        uint32_t t0[2 * F::N], t1[2 * F::N];
        F::mul_full(t0, a.c0, b.c0);
        F::mul_full(t1, a.c1, b.c1);
        uint32_t d[2 * F::N];
#pragma unroll
        for (int i = 0; i < 2 * F::N; i++)
            d[i] = t0[i];
        F::add_pr(d, F::sub_wide(d, t1));
        F::add_wide(t0, t1); /* a0 b0 + a1 b1 < 2 p^2 */
        fp2 r;
        r.c0 = F::redc(d);
        F::mul_full(t1, F::add_raw(a.c0, a.c1), F::add_raw(b.c0, b.c1));
        (void)F::sub_wide(t1, t0);
        r.c1 = F::redc(t1);
        return r;
    }
    /* the same product with three reductions (the earlier code shape; czk bench field compares) */
    CZK_HD static fp2 mul_karatsuba(const fp2 &a, const fp2 &b)
    {
        F t0 = F::mul(a.c0, b.c0), t1 = F::mul(a.c1, b.c1);
        F t2 = F::mul(F::add(a.c0, a.c1), F::add(b.c0, b.c1));
        return make(F::sub(t0, t1), F::sub(F::sub(t2, t0), t1));
    }
    /* (a0 + a1)(a0 - a1) + 2 a0 a1 u */
    CZK_HD static fp2 sqr(const fp2 &a)
    {
        F t = F::mul(a.c0, a.c1);
        return make(F::mul(F::add(a.c0, a.c1), F::sub(a.c0, a.c1)), F::dbl(t));
    }
    CZK_HD static fp2 sqr_lean(const fp2 &a) { return sqr(a); } /* sqr is already on F::mul */
    /* multiply by an element of the base field */
    CZK_HD static fp2 mul_base(const fp2 &a, const F &b) { return make(F::mul(a.c0, b), F::mul(a.c1, b)); }
    CZK_HD static fp2 pow(const fp2 &a, uint32_t e)
    {
        fp2 r = one(), b = a;
        while (e) {
            if (e & 1)
                r = mul(r, b);
            e >>= 1;
            if (e)
                b = sqr(b);
        }
        return r;
    }
    /* 1/a = conj(a) / (a0^2 + a1^2); inv(0) = 0 */
    CZK_HD static fp2 inv(const fp2 &a)
    {
        F n = F::inv(F::add(F::sqr(a.c0), F::sqr(a.c1)));
        return make(F::mul(a.c0, n), F::neg(F::mul(a.c1, n)));
    }
    CZK_HD static fp2 from_canonical(const fp2 &a)
    {
        return make(F::from_canonical(a.c0), F::from_canonical(a.c1));
    }
    CZK_HD static fp2 to_canonical(const fp2 &a) { return make(F::to_canonical(a.c0), F::to_canonical(a.c1)); }
    CZK_HD void load(const uint64_t *p)
    {
        c0.load(p);
        c1.load(p + F::N / 2);
    }
    CZK_HD void store(uint64_t *p) const
    {
        c0.store(p);
        c1.store(p + F::N / 2);
    }
    CZK_HD fp2 operator+(const fp2 &b) const { return add(*this, b); }
    CZK_HD fp2 operator-(const fp2 &b) const { return sub(*this, b); }
    CZK_HD fp2 operator*(const fp2 &b) const { return mul(*this, b); }
    CZK_HD fp2 operator-() const { return neg(*this); }
    CZK_HD bool operator==(const fp2 &b) const { return eq(*this, b); }
};

typedef fp2<fp_bn254> fp2_bn254;
typedef fp2<fp_bls12_381> fp2_bls12_381;

} /* namespace czk_cuda */

#endif /* CZK_CUDA_FF_CUH */
