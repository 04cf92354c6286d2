/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: G1/G2 point arithmetic for the MSM (device, and host for testing), over a
 * coordinate field F of ff.cuh (fp_* for G1, fp2_* for G2). All four curves have a = 0, and the
 * formulas below do not use b, so one template serves every group.
 *
 *   affine<F>  { F x, y; }           the zkey layout (x then y, host limb layout); infinity is
 *                                    (0, 0), which lies on none of the curves (b != 0).
 *   xyzz<F>    { F X, Y, ZZ, ZZZ; }  x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity: ZZ = 0.
 *   jacobian<F>{ F X, Y, Z; }        x = X/Z^2, y = Y/Z^3; infinity (1, 1, 0) as the host writes it.
 *
 * xyzz: add_affine (madd-2008-s, 8M + 2S), add (add-2008-s, 12M + 2S), dbl (dbl-2008-s-1,
 * 6M + 3S), dbl_affine (mdbl-2008-s-1), mul_u32, to_jacobian; each writes its result through
 * its first argument (which may alias the inputs, except for mul_u32); every exceptional case handled: infinity on either
 * side, P + P (doubling), P + (-P) (infinity). None of the curves has points of order 2.
 * Variable time (MSM data is public).
 */
#ifndef CZK_CUDA_EC_CUH
#define CZK_CUDA_EC_CUH

#include "cuda/ff.cuh"

/* The point operations are out of line on the device: inlining every field multiplication of
 * every call site makes kernels of hundreds of thousands of instructions (minutes of compile
 * time for G2); the field code inside each of them is inlined. The one hot loop that gains
 * from inlining (the MSM's G1 bucket accumulation) calls the _inline forms. */
#ifdef __CUDACC__
#define CZK_HD_NOINLINE __host__ __device__ __noinline__
#else
#define CZK_HD_NOINLINE inline
#endif

namespace czk_cuda {

template <class F> struct affine {
    F x, y;
    CZK_HD static bool is_inf(const affine &p) { return F::is_zero(p.x) & F::is_zero(p.y); }
    CZK_HD void load(const uint64_t *p)
    {
        x.load(p);
        y.load(p + F::N / 2);
    }
};

template <class F> struct jacobian {
    F X, Y, Z;
    CZK_HD void store(uint64_t *p) const
    {
        X.store(p);
        Y.store(p + F::N / 2);
        Z.store(p + F::N);
    }
};

template <class F> struct xyzz {
    F X, Y, ZZ, ZZZ;

    CZK_HD static xyzz inf()
    {
        xyzz r;
        r.X = F::zero();
        r.Y = F::zero();
        r.ZZ = F::zero();
        r.ZZZ = F::zero();
        return r;
    }
    CZK_HD static bool is_inf(const xyzz &p) { return F::is_zero(p.ZZ); }
    CZK_HD static xyzz from_affine(const affine<F> &a)
    {
        if (affine<F>::is_inf(a))
            return inf();
        xyzz r;
        r.X = a.x;
        r.Y = a.y;
        r.ZZ = F::one();
        r.ZZZ = F::one();
        return r;
    }
    CZK_HD static xyzz neg(const xyzz &p)
    {
        xyzz r = p;
        r.Y = F::neg(p.Y);
        return r;
    }

    /*
     * The operations write through r (which may alias any input): every input is read before
     * the first write to r, and the steps are ordered so that few coordinates are live at once
     * (G2 over the 381-bit field holds 96 words per point; keeping two points and all the
     * temporaries in registers would exceed the register file and spill).
     */

    /* r = 2a for affine a (not infinity): U = 2y, V = U^2, W = U V, S = x V, M = 3x^2,
     * X3 = M^2 - 2S, Y3 = M (S - X3) - W y, ZZ3 = V, ZZZ3 = W */
    CZK_HD_NOINLINE static void dbl_affine(xyzz &r, const affine<F> &a) { dbl_affine_inline(r, a); }
    CZK_HD static void dbl_affine_inline(xyzz &r, const affine<F> &a)
    {
        F U = F::dbl(a.y);
        F V = F::sqr_lean(U);
        F W = F::mul(U, V);
        F S = F::mul(a.x, V);
        F WY = F::mul(W, a.y);
        F M = F::sqr_lean(a.x);
        M = F::add(F::dbl(M), M);
        r.ZZ = V;
        r.ZZZ = W;
        F X3 = F::sub(F::sqr_lean(M), F::dbl(S));
        r.X = X3;
        r.Y = F::sub(F::mul(M, F::sub(S, X3)), WY);
    }

    /* r = 2p: U = 2Y, V = U^2, W = U V, S = X V, M = 3X^2, X3 = M^2 - 2S,
     * Y3 = M (S - X3) - W Y, ZZ3 = V ZZ, ZZZ3 = W ZZZ */
    CZK_HD_NOINLINE static void dbl(xyzz &r, const xyzz &p)
    {
        if (is_inf(p)) {
            r = p;
            return;
        }
        F U = F::dbl(p.Y);
        F V = F::sqr_lean(U);
        F W = F::mul(U, V);
        F S = F::mul(p.X, V);
        F ZZ3 = F::mul(V, p.ZZ);
        F WY = F::mul(W, p.Y);
        F ZZZ3 = F::mul(W, p.ZZZ);
        F M = F::sqr_lean(p.X);
        M = F::add(F::dbl(M), M);
        r.ZZ = ZZ3;
        r.ZZZ = ZZZ3;
        F X3 = F::sub(F::sqr_lean(M), F::dbl(S));
        r.X = X3;
        r.Y = F::sub(F::mul(M, F::sub(S, X3)), WY);
    }

    /* r = p + a, a affine: U2 = x ZZ, S2 = y ZZZ, P = U2 - X, R = S2 - Y, PP = P^2, PPP = P PP,
     * Q = X PP, X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - Y PPP, ZZ3 = ZZ PP, ZZZ3 = ZZZ PPP */
    CZK_HD_NOINLINE static void add_affine(xyzz &r, const xyzz &p, const affine<F> &a)
    {
        add_affine_inline(r, p, a);
    }
    /* The same, inlined into the caller (the MSM's accumulation loop keeps its accumulator and
     * the next base in registers this way instead of passing them through the stack). */
    CZK_HD static void add_affine_inline(xyzz &r, const xyzz &p, const affine<F> &a)
    {
        if (affine<F>::is_inf(a)) {
            r = p;
            return;
        }
        if (is_inf(p)) {
            r = from_affine(a);
            return;
        }
        F P = F::sub(F::mul(a.x, p.ZZ), p.X);
        F R = F::sub(F::mul(a.y, p.ZZZ), p.Y);
        if (F::is_zero(P)) {
            if (F::is_zero(R))
                dbl_affine_inline(r, a);
            else
                r = inf();
            return;
        }
        F PP = F::sqr_lean(P);
        F PPP = F::mul(P, PP);
        F ZZ3 = F::mul(p.ZZ, PP);
        F ZZZ3 = F::mul(p.ZZZ, PPP);
        F Q = F::mul(p.X, PP);
        F YPPP = F::mul(p.Y, PPP);
        r.ZZ = ZZ3;
        r.ZZZ = ZZZ3;
        F X3 = F::sub(F::sub(F::sqr_lean(R), PPP), F::dbl(Q));
        r.X = X3;
        r.Y = F::sub(F::mul(R, F::sub(Q, X3)), YPPP);
    }

    /* r = p + q: U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1, R = S2 - S1,
     * PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R (Q - X3) - S1 PPP,
     * ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP */
    CZK_HD_NOINLINE static void add(xyzz &r, const xyzz &p, const xyzz &q)
    {
        if (is_inf(q)) {
            r = p;
            return;
        }
        if (is_inf(p)) {
            r = q;
            return;
        }
        F U1 = F::mul(p.X, q.ZZ);
        F P = F::sub(F::mul(q.X, p.ZZ), U1);
        F S1 = F::mul(p.Y, q.ZZZ);
        F R = F::sub(F::mul(q.Y, p.ZZZ), S1);
        if (F::is_zero(P)) {
            if (F::is_zero(R))
                dbl(r, p);
            else
                r = inf();
            return;
        }
        /* Live values kept few: U1, S1, P, R, PP. ZZ and ZZZ of both inputs are read for the
         * last time just before r.ZZ / r.ZZZ are written (r may alias p or q). */
        F PP = F::sqr_lean(P);
        r.ZZ = F::mul(F::mul(p.ZZ, q.ZZ), PP);
        F PPP = F::mul(P, PP);
        r.ZZZ = F::mul(F::mul(p.ZZZ, q.ZZZ), PPP);
        F Q = F::mul(U1, PP);
        F SPPP = F::mul(S1, PPP);
        F X3 = F::sub(F::sub(F::sqr_lean(R), PPP), F::dbl(Q));
        r.X = X3;
        r.Y = F::sub(F::mul(R, F::sub(Q, X3)), SPPP);
    }

    /* r = k p, k >= 0, variable time; r must not alias p */
    CZK_HD_NOINLINE static void mul_u32(xyzz &r, const xyzz &p, uint32_t k)
    {
        r = inf();
        for (int b = 31; b >= 0; b--) {
            dbl(r, r);
            if ((k >> b) & 1)
                add(r, r, p);
        }
    }

    /* Jacobian with Z = ZZZ: X' = X ZZ^2, Y' = Y ZZZ^2 (for ZZ = s^2, ZZZ = s^3:
     * X'/Z^2 = X s^4 / s^6 = X/ZZ, Y'/Z^3 = Y s^6 / s^9 = Y/ZZZ). Infinity -> (1, 1, 0). */
    CZK_HD_NOINLINE static void to_jacobian(jacobian<F> &r, const xyzz &p)
    {
        if (is_inf(p)) {
            r.X = F::one();
            r.Y = F::one();
            r.Z = F::zero();
            return;
        }
        r.X = F::mul(p.X, F::sqr_lean(p.ZZ));
        r.Y = F::mul(p.Y, F::sqr_lean(p.ZZZ));
        r.Z = p.ZZZ;
    }
};

} /* namespace czk_cuda */

#endif /* CZK_CUDA_EC_CUH */
