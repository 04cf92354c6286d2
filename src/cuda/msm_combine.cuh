/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA, internal to msm_impl.cuh: the window combination (step 6) on one warp.
 *
 * Horner over the W window sums is one dependent chain of c (W - 1) doublings (240 at c = 20
 * over a 255-bit group), and a single thread runs it at the latency of its carry chains: the
 * carry flag is one resource, so the independent products of a doubling cannot overlap in one
 * thread. Here a team of 32 threads (one warp) shares each point operation. The operation is cut
 * into stages of independent products; in a stage team thread t computes part t % K of product
 * t / K, the parts go to shared memory (the board), a warp barrier ends the stage, and every
 * thread reads back what the next stage needs. For F = Fp a product is one Montgomery
 * multiplication (K = 1); for F = Fp2 it is split into the three Fp products of Karatsuba
 * (K = 3: a0 b0, a1 b1, (a0 + a1)(b0 + b1), with u^2 = -1 as fp2::mul), so a stage costs about one
 * Fp multiplication of latency whatever F:
 *   doubling (XYZZ, 2 squares and 7 products in 3 stages):
 *     V = (2Y)^2, X^2  |  W = 2Y V, S = X V, ZZ3 = V ZZ, M^2 (M = 3 X^2)  |  W Y, ZZZ3 = W ZZZ,
 *     M (S - X3) (X3 = M^2 - 2S); Y3 = M (S - X3) - W Y
 *   addition (XYZZ + XYZZ, 14 products in 4 stages):
 *     U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, ZZ1 ZZ2, ZZZ1 ZZZ2  |  P^2, R^2
 *     (P = U2 - U1, R = S2 - S1)  |  PPP = P PP, Q = U1 PP, ZZ3 = ZZ1 ZZ2 PP  |
 *     ZZZ3 = ZZZ1 ZZZ2 PPP, S1 PPP, R (Q - X3) (X3 = R^2 - PPP - 2Q); Y3 = R (Q - X3) - S1 PPP
 * against 9 and 14 products in a row on one thread (each of them three for Fp2). The formulas
 * and so the values are those of xyzz<F>::dbl and add (every element reduced): the result is
 * bit-identical. Every thread keeps the running point in its registers and computes the same
 * control decisions (infinity, P = 0) from the same shared values, so branches are uniform.
 *
 * Stage s of an operation writes row s of the board. An operation's last reads (its result)
 * touch rows 1..3 only, and the next operation writes row 0 first, then each later row after a
 * barrier that follows those reads in every thread: one barrier per stage is enough.
 *
 * The host checks run the same code: there a stage is a loop over the team's threads.
 */
#ifndef CZK_CUDA_MSM_COMBINE_CUH
#define CZK_CUDA_MSM_COMBINE_CUH

/* included inside msm_impl.cuh's anonymous namespace */
namespace team {

constexpr unsigned SIZE = 32; /* threads: one warp */
constexpr unsigned STAGES = 4;

/* How a product in F is shared: K base-field products, their operands and their recombination */
template <class F> struct split {
    typedef F base;
    static constexpr unsigned K = 1;
    CZK_HD static void operands(const F &a, const F &b, unsigned, base &x, base &y)
    {
        x = a;
        y = b;
    }
    CZK_HD static F get(const base *p) { return p[0]; }
};
template <class B> struct split<fp2<B>> {
    typedef B base;
    static constexpr unsigned K = 3;
    CZK_HD static void operands(const fp2<B> &a, const fp2<B> &b, unsigned j, base &x, base &y)
    {
        if (j == 0) {
            x = a.c0;
            y = b.c0;
        } else if (j == 1) {
            x = a.c1;
            y = b.c1;
        } else {
            x = B::add(a.c0, a.c1);
            y = B::add(b.c0, b.c1);
        }
    }
    /* (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
    CZK_HD static fp2<B> get(const base *p)
    {
        return fp2<B>::make(B::sub(p[0], p[1]), B::sub(B::sub(p[2], p[0]), p[1]));
    }
};

/* the parts of the products of one operation, by stage and team thread */
template <class F> struct board {
    typename split<F>::base part[STAGES][SIZE];
};

/* product op of stage s, recombined */
template <class F> CZK_HD F got(const board<F> &bd, unsigned s, unsigned op)
{
    return split<F>::get(&bd.part[s][op * split<F>::K]);
}

CZK_HD void barrier()
{
#ifdef __CUDA_ARCH__
    __syncwarp();
#endif
}

/* Stage s of n products (n K <= SIZE): pick(op, a, b) sets the operands of product op. The
 * operand choice diverges, the multiplication itself runs on every thread at once. */
template <class F, class Pick> CZK_HD void stage_at(board<F> &bd, unsigned s, unsigned n, unsigned t, const Pick &pick)
{
    typedef split<F> S;
    const unsigned op = t / S::K;
    F a = F::zero(), b = F::zero();
    if (op < n)
        pick(op, a, b);
    typename S::base x, y;
    S::operands(a, b, t % S::K, x, y);
    const typename S::base r = S::base::mul(x, y);
    if (op < n)
        bd.part[s][t] = r;
}
template <class F, class Pick> CZK_HD void stage(board<F> &bd, unsigned s, unsigned n, const Pick &pick)
{
#ifdef __CUDA_ARCH__
    stage_at<F>(bd, s, n, threadIdx.x % SIZE, pick);
    __syncwarp();
#else
    for (unsigned t = 0; t < n * split<F>::K; t++)
        stage_at<F>(bd, s, n, t, pick);
#endif
}

/* p = 2p (infinity stays infinity: ZZ3 = V ZZ = 0) */
template <class F> CZK_HD void dbl(xyzz<F> &p, board<F> &bd)
{
    stage<F>(bd, 0, 2, [&](unsigned op, F &a, F &b) {
        a = op == 0 ? F::dbl(p.Y) : p.X;
        b = a;
    });
    stage<F>(bd, 1, 4, [&](unsigned op, F &a, F &b) {
        const F V = got(bd, 0, 0);
        switch (op) {
        case 0:
            a = F::dbl(p.Y);
            b = V;
            break;
        case 1:
            a = p.X;
            b = V;
            break;
        case 2:
            a = V;
            b = p.ZZ;
            break;
        default: {
            const F X2 = got(bd, 0, 1);
            a = F::add(F::dbl(X2), X2);
            b = a;
        }
        }
    });
    stage<F>(bd, 2, 3, [&](unsigned op, F &a, F &b) {
        if (op < 2) {
            a = got(bd, 1, 0);
            b = op == 0 ? p.Y : p.ZZZ;
        } else {
            const F X2 = got(bd, 0, 1), S = got(bd, 1, 1);
            a = F::add(F::dbl(X2), X2);
            b = F::sub(S, F::sub(got(bd, 1, 3), F::dbl(S)));
        }
    });
    p.X = F::sub(got(bd, 1, 3), F::dbl(got(bd, 1, 1)));
    p.Y = F::sub(got(bd, 2, 2), got(bd, 2, 0));
    p.ZZ = got(bd, 1, 2);
    p.ZZZ = got(bd, 2, 1);
}

/* p += *q (q read where it lies: every thread loads the same coordinates) */
template <class F> CZK_HD void add(xyzz<F> &p, const xyzz<F> *q, board<F> &bd)
{
    if (xyzz<F>::is_inf(*q))
        return;
    if (xyzz<F>::is_inf(p)) {
        p = *q;
        return;
    }
    /* U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1 (bit 0 of op: the X or Y from q, bit 1:
     * Y and ZZZ), then ZZ1 ZZ2 and ZZZ1 ZZZ2 */
    stage<F>(bd, 0, 6, [&](unsigned op, F &a, F &b) {
        const bool y = op & 2;
        if (op < 4 && (op & 1)) {
            a = y ? q->Y : q->X;
            b = y ? p.ZZZ : p.ZZ;
        } else if (op < 4) {
            a = y ? p.Y : p.X;
            b = y ? q->ZZZ : q->ZZ;
        } else {
            a = op == 4 ? p.ZZ : p.ZZZ;
            b = op == 4 ? q->ZZ : q->ZZZ;
        }
    });
    const F P = F::sub(got(bd, 0, 1), got(bd, 0, 0)), R = F::sub(got(bd, 0, 3), got(bd, 0, 2));
    if (F::is_zero(P)) {
        barrier(); /* the doubling rewrites row 0, which the other threads may still be reading */
        if (F::is_zero(R))
            dbl(p, bd);
        else
            p = xyzz<F>::inf();
        return;
    }
    stage<F>(bd, 1, 2, [&](unsigned op, F &a, F &b) {
        a = op == 0 ? P : R;
        b = a;
    });
    stage<F>(bd, 2, 3, [&](unsigned op, F &a, F &b) {
        a = op == 0 ? P : got(bd, 0, op == 1 ? 0 : 4);
        b = got(bd, 1, 0);
    });
    stage<F>(bd, 3, 3, [&](unsigned op, F &a, F &b) {
        if (op < 2) {
            a = got(bd, 0, op == 0 ? 5 : 2);
            b = got(bd, 2, 0);
        } else {
            const F Q = got(bd, 2, 1);
            a = R;
            b = F::sub(Q, F::sub(F::sub(got(bd, 1, 1), got(bd, 2, 0)), F::dbl(Q)));
        }
    });
    const F Q = got(bd, 2, 1);
    p.X = F::sub(F::sub(got(bd, 1, 1), got(bd, 2, 0)), F::dbl(Q));
    p.Y = F::sub(got(bd, 3, 2), got(bd, 3, 1));
    p.ZZ = got(bd, 2, 2);
    p.ZZZ = got(bd, 3, 0);
}

} /* namespace team */

/* Horner over the window sums, plus the scalar-1 sum; Jacobian into out (host layout), written
 * by the team's first thread. */
template <class G>
CZK_HD void combine_windows(const typename G::pt *S, uint32_t windows, unsigned c, const typename G::pt *ones,
                            int have_ones, uint64_t *out, team::board<typename G::field> &bd)
{
    typedef typename G::pt pt;
    pt acc = pt::inf();
    for (int w = (int)windows - 1; w >= 0; w--) {
        for (unsigned i = 0; i < c && w != (int)windows - 1; i++)
            team::dbl(acc, bd);
        team::add(acc, S + w, bd);
    }
    if (have_ones)
        team::add(acc, ones, bd);
#ifdef __CUDA_ARCH__
    if (threadIdx.x != 0)
        return;
#endif
    jacobian<typename G::field> j;
    pt::to_jacobian(j, acc);
    j.store(out);
}

template <class G>
__global__ void __launch_bounds__(team::SIZE)
    combine_kernel(const typename G::pt *S, uint32_t windows, unsigned c, const typename G::pt *ones,
                   int have_ones, uint64_t *out)
{
    __shared__ team::board<typename G::field> bd;
    combine_windows<G>(S, windows, c, ones, have_ones, out, bd);
}

#endif /* CZK_CUDA_MSM_COMBINE_CUH */
