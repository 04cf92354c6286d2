/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pippenger multi-scalar multiplication template, instantiated once per group (as
 * src/ec/ec_impl.h is). The including file defines
 *   MSM_G   the group (g1_bn254, ...), pasted into czk_MSM_G_* names
 *   MSM_F   its coordinate field (fp_bn254, fp2_bn254, ...)
 *   MSM_INV_VT  the fastest inversion of MSM_F (variable time is fine: public data)
 *   and the parameters of msm_field.h (MSM_FP, MSM_FP_N, MSM_FP_P, MSM_F_DEG)
 * and includes this file once; it defines czk_msm_MSM_G and czk_msm_MSM_G_ex.
 *
 * Algorithm (one call):
 *  1. Classification, parallel over blocks of points: scalars 0 and bases at infinity
 *     are dropped; scalars 1 are summed directly (msm_affine_sum: pairwise batched
 *     affine additions, per worker, then added); the rest ("general") are counted per
 *     block together with their largest bit length. If some points dropped out, a
 *     second pass writes the indices of the general points into one compact index array
 *     (uint32, 4 bytes per point: the only allocation that grows with n besides the
 *     buckets; smaller than an int16 digit array, and the window passes then never see
 *     the 0/1 scalars); with dense scalars there is no index array at all.
 *  2. The cost model (msm_plan.c) picks the kernel, the window c, the point chunks per
 *     window k and (affine) the windows per task g. Digits are Booth-recoded on the fly
 *     from the scalars (msm_internal.h), so no digit array is stored: they lie in
 *     [-2^(c-1), 2^(c-1)], digit d goes to bucket |d| - 1 with the sign applied to y,
 *     and W = ceil((bits + 1) / c) windows cover the largest scalar.
 *  3. ceil(W / g) k tasks (window group, point chunk), taken by the workers of
 *     czk_parallel_for; each worker owns one bucket set, so the hot loop takes no lock.
 *     Chunks keep all cores busy when windows alone are too few (many threads, small c).
 *     A task accumulates its points into the buckets, then reduces each window by the
 *     running sum
 *       run += B[b], tot += run   for b = top .. 0     (tot = sum (b + 1) B[b])
 *     (top: the highest bucket the task touched) and stores tot as that window's
 *     partial sum for its chunk.
 *  4. The calling thread adds the partial sums per window and combines the windows by
 *     Horner's rule with c doublings each, then adds the sum of the scalar-1 points.
 *
 * Bucket accumulation kernels:
 *  - XYZZ (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2): mixed addition madd-2008-s (8M + 2S),
 *    doubling of an affine point mdbl-2008-s-1 when the bucket equals the base, infinity
 *    when it is the negation; full addition add-2008-s (12M + 2S) and doubling
 *    dbl-2008-s-1 (6M + 3S) for the reduction (formulas of the Explicit-Formulas
 *    Database, "xyzz" coordinates for short Weierstrass curves, with a = 0).
 *  - AFFINE: buckets stay affine and additions are batched: up to MSM_BATCH pending
 *    bucket + point additions share one inversion (Montgomery's trick), so an addition
 *    costs 5M + 1S plus the amortised inversion. A task handles g windows at once in one
 *    bucket space of g 2^(c-1) buckets, so narrow windows still fill large batches. A
 *    point whose bucket already has a pending addition is deferred to the next batch
 *    once; a second conflict (or a full queue) sends it to a per-bucket XYZZ overflow
 *    accumulator, so inputs that hit one bucket over and over (equal scalars) cost what
 *    the XYZZ kernel costs, never an inversion per point.
 *  AUTO takes the kernel with the lower estimate; measured (bench_msm.c), the affine
 *  kernel is 1.2-1.8x faster from a few thousand points up (most on G2 and BLS12-381,
 *  where a multiplication costs more relative to the bookkeeping), XYZZ below.
 *
 * Threading: czk_parallel_for only; workers write disjoint memory (their bucket set,
 * their accumulator slot, their tasks' result slots). Ownership: the call allocates its
 * scratch once and frees it before returning; bases and scalars are only read.
 * Variable time: for public data only.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "msm/msm.h"
#include "msm/msm_field.h"
#include "msm/msm_internal.h"

#define MSM_CAT_(a, b) a##b
#define MSM_CAT(a, b) MSM_CAT_(a, b)
#define G_FN(x) MSM_CAT(MSM_CAT(czk_, MSM_G), _##x)
#define MSM_FN(x) MSM_CAT(MSM_CAT(czk_msm_, MSM_G), x)
#define G_T struct MSM_CAT(czk_, MSM_G)
#define A_T struct MSM_CAT(MSM_CAT(czk_, MSM_G), _affine)
#define F_FN(x) MSM_CAT(MSM_CAT(czk_, MSM_F), _##x)
#define F_T struct MSM_CAT(czk_, MSM_F)

/* Points per classification block. */
#define MSM_BLOCK 4096u
/* Pending additions per affine batch (upper bound; see msm_affine_batch_size). */
#define MSM_BATCH 1024u
/* Fewer general points than this always take the XYZZ kernel (no inversion to amortise). */
#define MSM_AFFINE_MIN_POINTS 64u
/* Index of the j-th general point (idx NULL: all points are general). */
#define MSM_IDX(idx, j) ((idx) ? (idx)[j] : (uint32_t)(j))
/* Points whose digits are computed ahead of use (bucket and base prefetched). */
#define MSM_AHEAD 4u

struct xyzz {
    F_T x, y, zz, zzz;
};

static inline unsigned char *msm_align64(unsigned char *p)
{
    return (unsigned char *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

/* ---- XYZZ arithmetic ------------------------------------------------------------------------ */

static inline void xyzz_set_inf(struct xyzz *p)
{
    F_FN(zero)(&p->zz);
    F_FN(zero)(&p->zzz);
}

static inline bool xyzz_is_inf(const struct xyzz *p) { return mf_is_zero(&p->zz); }

static inline void xyzz_from_affine(struct xyzz *p, const F_T *x, const F_T *y)
{
    p->x = *x;
    p->y = *y;
    F_FN(one)(&p->zz);
    F_FN(one)(&p->zzz);
}

/* p = 2 (x, y) for an affine point (not infinity; y != 0 on these curves): mdbl-2008-s-1. */
static void xyzz_dbl_affine(struct xyzz *p, const F_T *x, const F_T *y)
{
    F_T u, v, w, s, m, t;
    mf_dbl(&u, y);      /* U = 2 Y */
    mf_sqr(&v, &u);     /* V = U^2 */
    mf_mul(&w, &u, &v); /* W = U V */
    mf_mul(&s, x, &v);  /* S = X V */
    mf_sqr(&m, x);      /* M = 3 X^2 */
    mf_dbl(&t, &m);
    mf_add(&m, &m, &t);
    mf_sqr(&p->x, &m); /* X3 = M^2 - 2 S */
    mf_sub(&p->x, &p->x, &s);
    mf_sub(&p->x, &p->x, &s);
    mf_sub(&t, &s, &p->x); /* Y3 = M (S - X3) - W Y */
    mf_mul(&t, &t, &m);
    mf_mul(&s, &w, y);
    mf_sub(&p->y, &t, &s);
    mf_copy(&p->zz, &v);  /* ZZ3 = V */
    mf_copy(&p->zzz, &w); /* ZZZ3 = W */
}

/* r = 2 p: dbl-2008-s-1 with a = 0. r may alias p. */
static void xyzz_dbl(struct xyzz *r, const struct xyzz *p)
{
    if (xyzz_is_inf(p)) {
        xyzz_set_inf(r);
        return;
    }
    F_T u, v, w, s, m, t, x3;
    mf_dbl(&u, &p->y);     /* U = 2 Y1 */
    mf_sqr(&v, &u);        /* V = U^2 */
    mf_mul(&w, &u, &v);    /* W = U V */
    mf_mul(&s, &p->x, &v); /* S = X1 V */
    mf_sqr(&m, &p->x);     /* M = 3 X1^2 */
    mf_dbl(&t, &m);
    mf_add(&m, &m, &t);
    mf_sqr(&x3, &m); /* X3 = M^2 - 2 S */
    mf_sub(&x3, &x3, &s);
    mf_sub(&x3, &x3, &s);
    mf_sub(&t, &s, &x3); /* Y3 = M (S - X3) - W Y1 */
    mf_mul(&t, &t, &m);
    mf_mul(&s, &w, &p->y);
    mf_mul(&r->zz, &p->zz, &v);   /* ZZ3 = V ZZ1 */
    mf_mul(&r->zzz, &p->zzz, &w); /* ZZZ3 = W ZZZ1 */
    mf_sub(&r->y, &t, &s);
    mf_copy(&r->x, &x3);
}

/* p += (x2, y2) or, with neg, p -= (x2, y2); the affine point is not infinity:
 * madd-2008-s. For the negated point S2 = -Y2 ZZZ1, so R' = Y2 ZZZ1 + Y1 = -R is computed
 * instead and Y3 = R (Q - X3) - Y1 PPP becomes R' (X3 - Q) - Y1 PPP; R^2 is unchanged. */
static void xyzz_madd(struct xyzz *p, const F_T *x2, const F_T *y2, bool neg)
{
    F_T pp, ppp, q, r, t;
    if (xyzz_is_inf(p)) {
        p->x = *x2;
        if (neg)
            mf_neg(&p->y, y2);
        else
            p->y = *y2;
        F_FN(one)(&p->zz);
        F_FN(one)(&p->zzz);
        return;
    }
    mf_mul(&t, x2, &p->zz); /* P = U2 - X1, U2 = X2 ZZ1 */
    mf_sub(&t, &t, &p->x);
    mf_mul(&r, y2, &p->zzz); /* R = S2 - Y1, S2 = Y2 ZZZ1 (or R' = -R) */
    if (neg)
        mf_add(&r, &r, &p->y);
    else
        mf_sub(&r, &r, &p->y);
    if (mf_is_zero(&t)) {
        if (mf_is_zero(&r)) { /* same point */
            if (neg) {
                mf_neg(&q, y2);
                xyzz_dbl_affine(p, x2, &q);
            } else {
                xyzz_dbl_affine(p, x2, y2);
            }
        } else {
            xyzz_set_inf(p); /* opposite points */
        }
        return;
    }
    mf_sqr(&pp, &t);                /* PP = P^2 */
    mf_mul(&ppp, &t, &pp);          /* PPP = P PP */
    mf_mul(&q, &p->x, &pp);         /* Q = X1 PP (last use of X1) */
    mf_mul(&p->zz, &p->zz, &pp);    /* ZZ3 = ZZ1 PP */
    mf_mul(&p->zzz, &p->zzz, &ppp); /* ZZZ3 = ZZZ1 PPP */
    mf_sqr(&p->x, &r);              /* X3 = R^2 - PPP - 2 Q */
    mf_sub(&p->x, &p->x, &ppp);
    mf_sub(&p->x, &p->x, &q);
    mf_sub(&p->x, &p->x, &q);
    if (neg)
        mf_sub(&q, &p->x, &q); /* Y3 = R' (X3 - Q) - Y1 PPP */
    else
        mf_sub(&q, &q, &p->x); /* Y3 = R (Q - X3) - Y1 PPP */
    mf_mul(&q, &q, &r);
    mf_mul(&ppp, &ppp, &p->y);
    mf_sub(&p->y, &q, &ppp);
}

/* p += q: add-2008-s. q may alias p. */
static void xyzz_add(struct xyzz *p, const struct xyzz *q)
{
    if (xyzz_is_inf(q))
        return;
    if (xyzz_is_inf(p)) {
        *p = *q;
        return;
    }
    F_T u1, s1, t, r, pp, ppp;
    mf_mul(&u1, &p->x, &q->zz);  /* U1 = X1 ZZ2 */
    mf_mul(&t, &q->x, &p->zz);   /* U2 = X2 ZZ1 */
    mf_mul(&s1, &p->y, &q->zzz); /* S1 = Y1 ZZZ2 */
    mf_mul(&r, &q->y, &p->zzz);  /* S2 = Y2 ZZZ1 */
    mf_sub(&t, &t, &u1);         /* P = U2 - U1 */
    mf_sub(&r, &r, &s1);         /* R = S2 - S1 */
    if (mf_is_zero(&t)) {
        if (mf_is_zero(&r))
            xyzz_dbl(p, p);
        else
            xyzz_set_inf(p);
        return;
    }
    mf_sqr(&pp, &t);                /* PP = P^2 */
    mf_mul(&ppp, &t, &pp);          /* PPP = P PP */
    mf_mul(&u1, &u1, &pp);          /* Q = U1 PP */
    mf_mul(&p->zz, &p->zz, &q->zz); /* ZZ3 = ZZ1 ZZ2 PP */
    mf_mul(&p->zz, &p->zz, &pp);
    mf_mul(&p->zzz, &p->zzz, &q->zzz); /* ZZZ3 = ZZZ1 ZZZ2 PPP */
    mf_mul(&p->zzz, &p->zzz, &ppp);
    mf_sqr(&p->x, &r); /* X3 = R^2 - PPP - 2 Q (X1 is no longer needed) */
    mf_sub(&p->x, &p->x, &ppp);
    mf_sub(&p->x, &p->x, &u1);
    mf_sub(&p->x, &p->x, &u1);
    mf_sub(&u1, &u1, &p->x); /* Y3 = R (Q - X3) - S1 PPP */
    mf_mul(&u1, &u1, &r);
    mf_mul(&s1, &s1, &ppp);
    mf_sub(&p->y, &u1, &s1);
}

/* Jacobian (X ZZ^2, Y ZZZ^2, ZZZ): with ZZ = Z^2, ZZZ = Z^3 this is (X Z^4, Y Z^6, Z^3),
 * the same point as (X/ZZ, Y/ZZZ). */
static void xyzz_to_jacobian(G_T *r, const struct xyzz *p)
{
    if (xyzz_is_inf(p)) {
        G_FN(set_inf)(r);
        return;
    }
    F_T t;
    mf_sqr(&t, &p->zz);
    mf_mul(&r->x, &p->x, &t);
    mf_sqr(&t, &p->zzz);
    mf_mul(&r->y, &p->y, &t);
    r->z = p->zzz;
}

/* ---- shared state of one call --------------------------------------------------------------- */

struct msm_ctx {
    const A_T *bases;
    const uint64_t (*scalars)[4];
    size_t n, nblocks;
    /* classification */
    uint32_t *blk_count;    /* general points per block, then their offsets */
    uint16_t *blk_bits;     /* largest general scalar bit length per block */
    uint32_t *blk_ones;     /* scalar-1 points per block */
    struct xyzz *ones;      /* one accumulator per worker */
    unsigned char *ones_ws; /* per-worker buffer of scalar-1 points */
    size_t ones_stride;
    uint32_t *idx; /* general point indices, block by block (NULL: all of them) */
    size_t m;
    /* windows */
    unsigned c, windows, splits, accum;
    unsigned group;      /* windows per task (affine kernel; 1 for XYZZ) */
    size_t nb;           /* buckets per window: 2^(c-1) */
    unsigned char *work; /* per-worker bucket memory */
    size_t work_stride;  /* bytes per worker, multiple of 64 */
    struct xyzz *res;    /* windows * splits partial sums */
};

static inline bool msm_scalar_is_zero(const uint64_t k[4])
{
    return (k[0] | k[1] | k[2] | k[3]) == 0;
}

static inline bool msm_scalar_is_one(const uint64_t k[4])
{
    return ((k[0] ^ 1) | k[1] | k[2] | k[3]) == 0;
}

static inline unsigned msm_bitlen(const uint64_t k[4])
{
    for (unsigned i = 4; i-- > 0;)
        if (k[i])
            return 64 * i + 64 - (unsigned)__builtin_clzll(k[i]);
    return 0;
}

/*
 * Sum of cnt affine points (none at infinity) into acc, pairwise with batched affine
 * additions: each level adds pts[2k] + pts[2k + 1] for all k with one inversion (the
 * Montgomery trick over the chord denominators x2 - x1, or 2y for equal points;
 * opposite points drop out), halving the list, until MSM_SUM_TAIL points remain for
 * mixed additions into acc. About 6 multiplications per point instead of the 10 of a
 * mixed XYZZ addition. pts is overwritten; den and pre hold cnt / 2 elements, flag
 * cnt / 2 bytes.
 */
#define MSM_SUM_TAIL 8u
#define MSM_SUM_CHORD 0
#define MSM_SUM_TANGENT 1
#define MSM_SUM_CANCEL 2

static void msm_affine_sum(struct xyzz *acc, A_T *pts, size_t cnt, F_T *den, F_T *pre,
                           unsigned char *flag)
{
    while (cnt > MSM_SUM_TAIL) {
        size_t half = cnt / 2;
        F_T prod;
        F_FN(one)(&prod);
        for (size_t k = 0; k < half; k++) {
            const A_T *a = &pts[2 * k], *b = &pts[2 * k + 1];
            mf_sub(&den[k], &b->x, &a->x);
            flag[k] = MSM_SUM_CHORD;
            if (mf_is_zero(&den[k])) {
                if (mf_eq(&a->y, &b->y)) {
                    mf_dbl(&den[k], &a->y); /* tangent: 2 y */
                    flag[k] = MSM_SUM_TANGENT;
                } else {
                    F_FN(one)(&den[k]); /* a + (-a): nothing to invert */
                    flag[k] = MSM_SUM_CANCEL;
                }
            }
            mf_copy(&pre[k], &prod); /* product of den[0 .. k-1] */
            mf_mul(&prod, &prod, &den[k]);
        }
        F_T inv, t;
        MSM_INV_VT(&inv, &prod);
        for (size_t k = half; k-- > 0;) {
            mf_mul(&t, &inv, &pre[k]); /* 1 / den[k] */
            mf_mul(&inv, &inv, &den[k]);
            mf_copy(&den[k], &t);
        }
        /* Forward, so that writing pts[out] (out <= k < 2k) never clobbers an unread pair. */
        size_t out = 0;
        for (size_t k = 0; k < half; k++) {
            const A_T *a = &pts[2 * k], *b = &pts[2 * k + 1];
            if (flag[k] == MSM_SUM_CANCEL)
                continue;
            F_T lam, x3;
            if (flag[k] == MSM_SUM_TANGENT) {
                mf_sqr(&t, &a->x); /* lambda = 3 x^2 / (2 y) */
                mf_dbl(&lam, &t);
                mf_add(&lam, &lam, &t);
            } else {
                mf_sub(&lam, &b->y, &a->y); /* lambda = (y2 - y1) / (x2 - x1) */
            }
            mf_mul(&lam, &lam, &den[k]);
            mf_sqr(&x3, &lam); /* x3 = lambda^2 - x1 - x2 */
            mf_sub(&x3, &x3, &a->x);
            mf_sub(&x3, &x3, &b->x);
            mf_sub(&t, &a->x, &x3); /* y3 = lambda (x1 - x3) - y1 */
            mf_mul(&t, &t, &lam);
            mf_sub(&pts[out].y, &t, &a->y);
            mf_copy(&pts[out].x, &x3);
            out++;
        }
        if (cnt & 1)
            pts[out++] = pts[cnt - 1];
        cnt = out;
    }
    for (size_t k = 0; k < cnt; k++)
        xyzz_madd(acc, &pts[k].x, &pts[k].y, false);
}

/* Per-worker buffer of the scalar-1 points (MSM_ONES_BUF of them) and the scratch of
 * msm_affine_sum. */
#define MSM_ONES_BUF 2048u

static size_t msm_ones_ws_bytes(void)
{
    return MSM_ONES_BUF * sizeof(A_T) + MSM_ONES_BUF * sizeof(F_T) + MSM_ONES_BUF / 2 + 4 * 64;
}

/* Phase 1: classify blocks [b0, b1), sum the scalar-1 points. */
static void msm_classify(void *vctx, size_t b0, size_t b1, unsigned worker)
{
    struct msm_ctx *ctx = vctx;
    unsigned char *mem = msm_align64(ctx->ones_ws + (size_t)worker * ctx->ones_stride);
    A_T *buf = (A_T *)mem;
    F_T *den = (F_T *)msm_align64(mem + MSM_ONES_BUF * sizeof(A_T));
    F_T *pre = den + MSM_ONES_BUF / 2;
    unsigned char *flag = msm_align64((unsigned char *)(pre + MSM_ONES_BUF / 2));
    size_t nbuf = 0;
    struct xyzz acc;
    xyzz_set_inf(&acc);
    for (size_t b = b0; b < b1; b++) {
        size_t lo = b * MSM_BLOCK, hi = lo + MSM_BLOCK < ctx->n ? lo + MSM_BLOCK : ctx->n;
        uint32_t cnt = 0, ones = 0;
        uint64_t or_[4] = {0, 0, 0, 0};
        for (size_t i = lo; i < hi; i++) {
            const uint64_t *k = ctx->scalars[i];
            if (msm_scalar_is_zero(k))
                continue;
            const A_T *p = &ctx->bases[i];
            if (G_FN(affine_is_inf)(p))
                continue;
            if (msm_scalar_is_one(k)) {
                buf[nbuf++] = *p;
                if (nbuf == MSM_ONES_BUF) {
                    msm_affine_sum(&acc, buf, nbuf, den, pre, flag);
                    nbuf = 0;
                }
                ones++;
                continue;
            }
            cnt++;
            for (int l = 0; l < 4; l++)
                or_[l] |= k[l];
        }
        ctx->blk_count[b] = cnt;
        ctx->blk_ones[b] = ones;
        ctx->blk_bits[b] = (uint16_t)msm_bitlen(or_);
    }
    msm_affine_sum(&acc, buf, nbuf, den, pre, flag);
    xyzz_add(&ctx->ones[worker], &acc);
}

/* Phase 1b: write the general indices of blocks [b0, b1) at their offsets. */
static void msm_compact(void *vctx, size_t b0, size_t b1, unsigned worker)
{
    (void)worker;
    struct msm_ctx *ctx = vctx;
    for (size_t b = b0; b < b1; b++) {
        size_t lo = b * MSM_BLOCK, hi = lo + MSM_BLOCK < ctx->n ? lo + MSM_BLOCK : ctx->n;
        uint32_t *o = ctx->idx + ctx->blk_count[b];
        for (size_t i = lo; i < hi; i++) {
            const uint64_t *k = ctx->scalars[i];
            if (msm_scalar_is_zero(k) || msm_scalar_is_one(k) ||
                G_FN(affine_is_inf)(&ctx->bases[i]))
                continue;
            *o++ = (uint32_t)i;
        }
    }
}

static inline void msm_prefetch(const void *p, size_t bytes)
{
    const char *c = p;
    for (size_t o = 0; o < bytes; o += 64)
        __builtin_prefetch(c + o, 1, 3);
}

/* Running-sum reduction of buckets [0, top]: returns sum (b + 1) B[b]. */
static void msm_reduce_xyzz(struct xyzz *tot, const struct xyzz *bk, size_t top)
{
    struct xyzz run;
    xyzz_set_inf(&run);
    xyzz_set_inf(tot);
    for (size_t b = top + 1; b-- > 0;) {
        xyzz_add(&run, &bk[b]);
        xyzz_add(tot, &run);
    }
}

/* ---- XYZZ accumulation ---------------------------------------------------------------------- */

static void msm_task_xyzz(struct msm_ctx *ctx, struct xyzz *out, unsigned w, size_t lo, size_t hi,
                          struct xyzz *bk)
{
    const A_T *bases = ctx->bases;
    const uint64_t(*sc)[4] = ctx->scalars;
    const uint32_t *idx = ctx->idx;
    const unsigned c = ctx->c;
    memset(bk, 0, ctx->nb * sizeof *bk);
    size_t top = 0;
    bool any = false;
    /* Ring of the next MSM_AHEAD digits, their buckets and bases prefetched. */
    int32_t dq[MSM_AHEAD];
    uint32_t iq[MSM_AHEAD];
    size_t fill = 0;
    for (; fill < MSM_AHEAD && lo + fill < hi; fill++) {
        iq[fill] = MSM_IDX(idx, lo + fill);
        dq[fill] = czk_msm_booth(sc[iq[fill]], w, c);
    }
    for (size_t j = lo, s = 0; j < hi; j++, s = (s + 1) % MSM_AHEAD) {
        uint32_t i = iq[s];
        int32_t d = dq[s];
        if (j + MSM_AHEAD < hi) {
            uint32_t i2 = MSM_IDX(idx, j + MSM_AHEAD);
            int32_t d2 = czk_msm_booth(sc[i2], w, c);
            iq[s] = i2;
            dq[s] = d2;
            if (d2 != 0) {
                msm_prefetch(&bk[(d2 < 0 ? -d2 : d2) - 1], sizeof *bk);
                msm_prefetch(&bases[i2], sizeof bases[i2]);
            }
        }
        if (d == 0)
            continue;
        size_t b = (size_t)(d < 0 ? -d : d) - 1;
        xyzz_madd(&bk[b], &bases[i].x, &bases[i].y, d < 0);
        any = true;
        if (b > top)
            top = b;
    }
    if (!any) {
        xyzz_set_inf(out);
        return;
    }
    msm_reduce_xyzz(out, bk, top);
}

/* ---- batched affine accumulation ------------------------------------------------------------ */

/* Bucket states of the affine kernel. */
#define MSM_ST_FULL 1u /* the affine bucket holds a point */
#define MSM_ST_BUSY 2u /* it has a pending addition in the current batch */
#define MSM_ST_OV 4u   /* its XYZZ overflow accumulator is in use */

/*
 * Workspace of the affine kernel (one per worker, carved out of its bucket memory).
 * A point whose bucket is busy is deferred to the queue and retried after the next
 * flush; a point that finds its bucket busy again then, or finds the queue full, goes to
 * the bucket's XYZZ overflow accumulator. So every point costs at most one deferral,
 * and inputs that hit one bucket over and over (equal scalars) degrade to the XYZZ
 * kernel's cost instead of one inversion per point.
 */
struct msm_aff_ws {
    A_T *aff;          /* nb affine buckets */
    struct xyzz *ov;   /* nb overflow accumulators */
    unsigned char *st; /* nb states */
    F_T *den, *pre;    /* batch denominators and prefix products */
    uint32_t *pb, *pi; /* batch bucket and point; pi top bit: negated; MSM_PI_DBL: doubling */
    uint32_t *qi;      /* deferred points: index and digit */
    int32_t *qd;
    size_t batch, cnt, qn;
};

#define MSM_PI_NEG 0x80000000u
#define MSM_PI_DBL 0xffffffffu

static size_t msm_affine_batch_size(size_t nb)
{
    /* A batch of nb/4 keeps the share of deferred points near 1/8 and the inversion
     * amortised over hundreds of additions for the window widths the cost model picks.
     * With few buckets the batch rarely fills: most points then go to the XYZZ overflow,
     * which is what a narrow window should do anyway. */
    size_t b = nb / 4;
    if (b > MSM_BATCH)
        b = MSM_BATCH;
    return b < 32 ? 32 : b;
}

static size_t msm_affine_ws_bytes(size_t nb)
{
    size_t batch = msm_affine_batch_size(nb);
    size_t s = nb * (sizeof(A_T) + sizeof(struct xyzz) + 1) + 2 * batch * sizeof(F_T) +
               4 * batch * sizeof(uint32_t);
    return s + 10 * 64;
}

static void msm_affine_ws_init(struct msm_aff_ws *ws, unsigned char *mem, size_t nb)
{
    ws->batch = msm_affine_batch_size(nb);
    ws->cnt = ws->qn = 0;
    unsigned char *p = msm_align64(mem);
    ws->ov = (struct xyzz *)p;
    p = msm_align64(p + nb * sizeof(struct xyzz));
    ws->aff = (A_T *)p;
    p = msm_align64(p + nb * sizeof(A_T));
    ws->den = (F_T *)p;
    p = msm_align64(p + ws->batch * sizeof(F_T));
    ws->pre = (F_T *)p;
    p = msm_align64(p + ws->batch * sizeof(F_T));
    ws->pb = (uint32_t *)p;
    p = msm_align64(p + ws->batch * sizeof(uint32_t));
    ws->pi = (uint32_t *)p;
    p = msm_align64(p + ws->batch * sizeof(uint32_t));
    ws->qi = (uint32_t *)p;
    p = msm_align64(p + ws->batch * sizeof(uint32_t));
    ws->qd = (int32_t *)p;
    p = msm_align64(p + ws->batch * sizeof(int32_t));
    ws->st = p;
}

/* Applies the pending additions: one inversion of the product of the denominators, then
 * for each (walking back) lambda = num / den and the affine chord (or tangent). */
static void msm_affine_flush(struct msm_aff_ws *ws, const A_T *bases)
{
    size_t cnt = ws->cnt;
    ws->cnt = 0;
    if (cnt == 0)
        return;
    F_T acc, inv, lam, t, x3;
    mf_copy(&acc, &ws->den[0]);
    mf_copy(&ws->pre[0], &acc);
    for (size_t e = 1; e < cnt; e++) {
        mf_mul(&acc, &acc, &ws->den[e]);
        mf_copy(&ws->pre[e], &acc);
    }
    MSM_INV_VT(&inv, &acc);
    for (size_t e = cnt; e-- > 0;) {
        /* inv = (den[0] ... den[e])^-1 here. */
        F_T de;
        if (e > 0) {
            mf_mul(&de, &inv, &ws->pre[e - 1]); /* 1 / den[e] */
            mf_mul(&inv, &inv, &ws->den[e]);
        } else {
            mf_copy(&de, &inv);
        }
        uint32_t b = ws->pb[e], pi = ws->pi[e];
        A_T *B = &ws->aff[b];
        if (e >= MSM_AHEAD) { /* the bucket and base of a later step (walking back) */
            uint32_t pn = ws->pi[e - MSM_AHEAD];
            msm_prefetch(&ws->aff[ws->pb[e - MSM_AHEAD]], sizeof(A_T));
            if (pn != MSM_PI_DBL)
                msm_prefetch(&bases[pn & ~MSM_PI_NEG], sizeof(A_T));
        }
        if (pi == MSM_PI_DBL) {
            /* lambda = 3 x^2 / (2 y) */
            mf_sqr(&t, &B->x);
            mf_dbl(&lam, &t);
            mf_add(&lam, &lam, &t);
            mf_mul(&lam, &lam, &de);
            mf_sqr(&x3, &lam); /* x3 = lambda^2 - 2 x */
            mf_sub(&x3, &x3, &B->x);
            mf_sub(&x3, &x3, &B->x);
            mf_sub(&t, &B->x, &x3); /* y3 = lambda (x1 - x3) - y1 */
        } else {
            /* lambda = (y2 - y1) / (x2 - x1). For the negated point y2 = -Py: compute
             * lambda' = -lambda = (Py + y1) / (x2 - x1); x3 is the same and
             * y3 = lambda (x1 - x3) - y1 = lambda' (x3 - x1) - y1. */
            const A_T *P = &bases[pi & ~MSM_PI_NEG];
            bool neg = (pi & MSM_PI_NEG) != 0;
            if (neg)
                mf_add(&lam, &P->y, &B->y);
            else
                mf_sub(&lam, &P->y, &B->y);
            mf_mul(&lam, &lam, &de);
            mf_sqr(&x3, &lam); /* x3 = lambda^2 - x1 - x2 */
            mf_sub(&x3, &x3, &B->x);
            mf_sub(&x3, &x3, &P->x);
            if (neg)
                mf_sub(&t, &x3, &B->x);
            else
                mf_sub(&t, &B->x, &x3);
        }
        mf_mul(&t, &t, &lam);
        mf_sub(&B->y, &t, &B->y);
        mf_copy(&B->x, &x3);
        ws->st[b] &= (unsigned char)~MSM_ST_BUSY;
    }
}

/* Point i with nonzero digit d into bucket |d| - 1. A busy bucket defers the point when
 * `defer` allows and the queue has room, else sends it to the bucket's overflow. */
static inline void msm_affine_insert(struct msm_aff_ws *ws, const A_T *bases, uint32_t i, int32_t d,
                                     bool defer)
{
    size_t b = (size_t)(d < 0 ? -d : d) - 1;
    bool neg = d < 0;
    const A_T *P = &bases[i];
    unsigned char st = ws->st[b];
    A_T *B = &ws->aff[b];
    if (!(st & MSM_ST_FULL)) {
        B->x = P->x;
        if (neg)
            mf_neg(&B->y, &P->y);
        else
            B->y = P->y;
        ws->st[b] = (unsigned char)(st | MSM_ST_FULL);
        return;
    }
    if (st & MSM_ST_BUSY) {
        if (defer && ws->qn < ws->batch) {
            ws->qi[ws->qn] = i;
            ws->qd[ws->qn++] = d;
            return;
        }
        if (!(st & MSM_ST_OV)) {
            xyzz_set_inf(&ws->ov[b]);
            ws->st[b] = (unsigned char)(st | MSM_ST_OV);
        }
        xyzz_madd(&ws->ov[b], &P->x, &P->y, neg);
        return;
    }
    size_t e = ws->cnt;
    mf_sub(&ws->den[e], &P->x, &B->x);
    if (mf_is_zero(&ws->den[e])) {
        /* Same x: B == +-P. Opposite points empty the bucket, equal ones double it. */
        F_T py = P->y;
        if (neg)
            mf_neg(&py, &P->y);
        if (!mf_eq(&py, &B->y)) {
            ws->st[b] = (unsigned char)(st & ~MSM_ST_FULL);
            return;
        }
        mf_dbl(&ws->den[e], &B->y); /* tangent: den = 2 y */
        ws->pi[e] = MSM_PI_DBL;
    } else {
        ws->pi[e] = i | (neg ? MSM_PI_NEG : 0);
    }
    ws->pb[e] = (uint32_t)b;
    ws->st[b] = (unsigned char)(st | MSM_ST_BUSY);
    ws->cnt = e + 1;
}

static void msm_affine_drain(struct msm_aff_ws *ws, const A_T *bases);

/* Inserts, and flushes when the batch is full; after a flush the deferred points are
 * retried (drain), unless this insertion is itself one of those retries. */
static inline void msm_affine_push(struct msm_aff_ws *ws, const A_T *bases, uint32_t i, int32_t d,
                                   bool defer)
{
    msm_affine_insert(ws, bases, i, d, defer);
    if (ws->cnt == ws->batch) {
        msm_affine_flush(ws, bases);
        if (defer)
            msm_affine_drain(ws, bases);
    }
}

/* After a flush: retries every deferred point once (a second conflict sends it to the
 * overflow). Re-queues nothing, so the queue is empty afterwards. */
static void msm_affine_drain(struct msm_aff_ws *ws, const A_T *bases)
{
    size_t qn = ws->qn;
    ws->qn = 0;
    for (size_t k = 0; k < qn; k++)
        msm_affine_push(ws, bases, ws->qi[k], ws->qd[k], false);
}

/*
 * Affine task: windows [w0, w1) (a window group, see msm_run) over general points
 * [lo, hi). The group's windows share one bucket space of (w1 - w0) nb buckets, so a
 * narrow window still fills batches of a few hundred additions per inversion. Partial
 * sums go to ctx->res[w * splits + q].
 */
static void msm_task_affine(struct msm_ctx *ctx, unsigned w0, unsigned w1, size_t q, size_t lo,
                            size_t hi, unsigned char *mem)
{
    const A_T *bases = ctx->bases;
    const uint64_t(*sc)[4] = ctx->scalars;
    const uint32_t *idx = ctx->idx;
    const unsigned c = ctx->c, g = w1 - w0;
    const size_t nb = ctx->nb;
    struct msm_aff_ws ws;
    msm_affine_ws_init(&ws, mem, g * nb);
    memset(ws.st, 0, g * nb);
    size_t top[CZK_MSM_GROUP_MAX];
    bool any[CZK_MSM_GROUP_MAX];
    for (unsigned k = 0; k < g; k++) {
        top[k] = 0;
        any[k] = false;
    }
    /* Ring of the next points with the digit of window w0 (its bucket prefetched). */
    int32_t dq[MSM_AHEAD];
    uint32_t iq[MSM_AHEAD];
    for (size_t f = 0; f < MSM_AHEAD && lo + f < hi; f++) {
        iq[f] = MSM_IDX(idx, lo + f);
        dq[f] = czk_msm_booth(sc[iq[f]], w0, c);
    }
    for (size_t j = lo, s = 0; j < hi; j++, s = (s + 1) % MSM_AHEAD) {
        uint32_t i = iq[s];
        int32_t d = dq[s];
        if (j + MSM_AHEAD < hi) {
            uint32_t i2 = MSM_IDX(idx, j + MSM_AHEAD);
            int32_t d2 = czk_msm_booth(sc[i2], w0, c);
            iq[s] = i2;
            dq[s] = d2;
            msm_prefetch(&bases[i2], sizeof bases[i2]);
            if (d2 != 0) {
                size_t b2 = (size_t)(d2 < 0 ? -d2 : d2) - 1;
                msm_prefetch(&ws.aff[b2], sizeof ws.aff[b2]);
            }
        }
        for (unsigned k = 0; k < g; k++) {
            if (k > 0)
                d = czk_msm_booth(sc[i], w0 + k, c);
            if (d == 0)
                continue;
            size_t b = (size_t)(d < 0 ? -d : d) - 1;
            any[k] = true;
            if (b > top[k])
                top[k] = b;
            /* Bucket k nb + b: the digit's sign travels with it. */
            int32_t gd = d < 0 ? -(int32_t)(k * nb + b + 1) : (int32_t)(k * nb + b + 1);
            msm_affine_push(&ws, bases, i, gd, true);
        }
    }
    msm_affine_flush(&ws, bases);
    msm_affine_drain(&ws, bases);
    msm_affine_flush(&ws, bases);
    /* Running sum per window over its affine buckets (mixed additions) and overflows. */
    for (unsigned k = 0; k < g; k++) {
        struct xyzz run, *tot = &ctx->res[(size_t)(w0 + k) * ctx->splits + q];
        xyzz_set_inf(&run);
        xyzz_set_inf(tot);
        if (!any[k])
            continue;
        for (size_t b = k * nb + top[k] + 1; b-- > k * nb;) {
            unsigned char st = ws.st[b];
            if (st & MSM_ST_FULL)
                xyzz_madd(&run, &ws.aff[b].x, &ws.aff[b].y, false);
            if (st & MSM_ST_OV)
                xyzz_add(&run, &ws.ov[b]);
            xyzz_add(tot, &run);
        }
    }
}

/* ---- window tasks and the entry points ------------------------------------------------------ */

static void msm_window_tasks(void *vctx, size_t t0, size_t t1, unsigned worker)
{
    struct msm_ctx *ctx = vctx;
    unsigned char *mem = ctx->work + (size_t)worker * ctx->work_stride;
    for (size_t t = t0; t < t1; t++) {
        /* Task t: window group t / splits, point chunk q = t % splits. */
        unsigned w = (unsigned)(t / ctx->splits) * ctx->group;
        size_t q = t % ctx->splits;
        size_t lo = ctx->m * q / ctx->splits, hi = ctx->m * (q + 1) / ctx->splits;
        if (ctx->accum == CZK_MSM_ACCUM_AFFINE) {
            unsigned w1 = w + ctx->group < ctx->windows ? w + ctx->group : ctx->windows;
            msm_task_affine(ctx, w, w1, q, lo, hi, mem);
        } else {
            msm_task_xyzz(ctx, &ctx->res[(size_t)w * ctx->splits + q], w, lo, hi,
                          (struct xyzz *)msm_align64(mem));
        }
    }
}

static enum czk_status msm_run(struct xyzz *out, const A_T *bases, const uint64_t (*scalars)[4],
                               size_t n, unsigned threads, const struct czk_msm_opts *opts,
                               struct czk_msm_stats *stats)
{
    struct msm_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.bases = bases;
    ctx.scalars = scalars;
    ctx.n = n;
    ctx.nblocks = (n + MSM_BLOCK - 1) / MSM_BLOCK;
    unsigned T = czk_threads_resolve(threads);
    if (T > 256)
        T = 256;
    enum czk_status st = CZK_ERR_NOMEM;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (n == 0) {
        xyzz_set_inf(out);
        return CZK_OK;
    }

    ctx.blk_count = malloc(ctx.nblocks * sizeof *ctx.blk_count);
    ctx.blk_ones = malloc(ctx.nblocks * sizeof *ctx.blk_ones);
    ctx.blk_bits = malloc(ctx.nblocks * sizeof *ctx.blk_bits);
    ctx.ones = malloc(T * sizeof *ctx.ones);
    ctx.ones_stride = (msm_ones_ws_bytes() + 63) & ~(size_t)63;
    ctx.ones_ws = malloc(T * ctx.ones_stride);
    if (!ctx.blk_count || !ctx.blk_ones || !ctx.blk_bits || !ctx.ones || !ctx.ones_ws)
        goto done;
    for (unsigned t = 0; t < T; t++)
        xyzz_set_inf(&ctx.ones[t]);
    czk_parallel_for(ctx.nblocks, 1, T, msm_classify, &ctx);

    struct xyzz acc;
    xyzz_set_inf(&acc);
    for (unsigned t = 0; t < T; t++)
        xyzz_add(&acc, &ctx.ones[t]);
    size_t m = 0, ones = 0;
    unsigned bits = 0;
    for (size_t b = 0; b < ctx.nblocks; b++) {
        uint32_t cnt = ctx.blk_count[b];
        ctx.blk_count[b] = (uint32_t)m; /* becomes the block's offset */
        m += cnt;
        ones += ctx.blk_ones[b];
        if (ctx.blk_bits[b] > bits)
            bits = ctx.blk_bits[b];
    }
    ctx.m = m;
    unsigned accum = opts && opts->accum ? opts->accum : CZK_MSM_ACCUM_AUTO;
    unsigned c = 0, k = 0, g = 1;
    if (m > 0) {
        if (accum == CZK_MSM_ACCUM_AUTO) {
            unsigned c2, k2, g2;
            double tx =
                czk_msm_plan(m, bits, T, &czk_msm_cost_xyzz, CZK_MSM_C_AUTO_MAX, &c, &k, &g);
            double ta =
                czk_msm_plan(m, bits, T, &czk_msm_cost_affine, CZK_MSM_C_AUTO_MAX, &c2, &k2, &g2);
            accum = CZK_MSM_ACCUM_XYZZ;
            if (ta < tx && m >= MSM_AFFINE_MIN_POINTS) {
                accum = CZK_MSM_ACCUM_AFFINE;
                c = c2;
                k = k2;
                g = g2;
            }
        } else {
            czk_msm_plan(m, bits, T,
                         accum == CZK_MSM_ACCUM_AFFINE ? &czk_msm_cost_affine : &czk_msm_cost_xyzz,
                         CZK_MSM_C_AUTO_MAX, &c, &k, &g);
        }
        if (opts && opts->c)
            c = opts->c < CZK_MSM_C_MAX ? opts->c : CZK_MSM_C_MAX;
        if (opts && opts->splits)
            k = opts->splits;
        if (k > m)
            k = (unsigned)m;
        ctx.c = c;
        ctx.splits = k;
        ctx.windows = czk_msm_windows(bits, c);
        ctx.nb = (size_t)1 << (c - 1);
        ctx.accum = accum;
        if (accum == CZK_MSM_ACCUM_AFFINE) {
            if (opts && opts->c && !opts->group) {
                /* Forced window: regroup for it. */
                size_t gg = czk_msm_cost_affine.group_buckets / ctx.nb;
                g = gg < 1 ? 1 : gg > CZK_MSM_GROUP_MAX ? CZK_MSM_GROUP_MAX : (unsigned)gg;
            }
            if (opts && opts->group)
                g = opts->group < CZK_MSM_GROUP_MAX ? opts->group : CZK_MSM_GROUP_MAX;
            if (g > ctx.windows)
                g = ctx.windows;
        } else {
            g = 1;
        }
        ctx.group = g;
        size_t groups = (ctx.windows + g - 1) / g;
        size_t tasks = groups * k;
        unsigned workers = tasks < T ? (unsigned)tasks : T;
        size_t ws = accum == CZK_MSM_ACCUM_AFFINE ? msm_affine_ws_bytes(g * ctx.nb)
                                                  : ctx.nb * sizeof(struct xyzz) + 64;
        ctx.work_stride = (ws + 63) & ~(size_t)63;
        /* Every point general (dense scalars): the index array would be the identity. */
        if (m < n)
            ctx.idx = malloc(m * sizeof *ctx.idx);
        ctx.res = malloc((size_t)ctx.windows * k * sizeof *ctx.res);
        ctx.work = malloc(ctx.work_stride * workers);
        if ((m < n && !ctx.idx) || !ctx.res || !ctx.work)
            goto done;
        if (m < n)
            czk_parallel_for(ctx.nblocks, 1, T, msm_compact, &ctx);
        czk_parallel_for(tasks, 1, workers, msm_window_tasks, &ctx);

        /* Horner over the windows, top first: acc_w = 2^c acc_{w+1} + S_w. */
        struct xyzz win;
        xyzz_set_inf(&win);
        for (unsigned w = ctx.windows; w-- > 0;) {
            if (w + 1 < ctx.windows)
                for (unsigned i = 0; i < c && !xyzz_is_inf(&win); i++)
                    xyzz_dbl(&win, &win);
            for (size_t q = 0; q < k; q++)
                xyzz_add(&win, &ctx.res[(size_t)w * k + q]);
        }
        xyzz_add(&acc, &win);
    }
    *out = acc;
    if (stats) {
        stats->c = c;
        stats->splits = k;
        stats->windows = ctx.windows;
        stats->threads = T;
        stats->accum = m > 0 ? accum : 0;
        stats->group = ctx.group;
        stats->n_general = m;
        stats->n_ones = ones;
    }
    st = CZK_OK;
done:
    free(ctx.blk_count);
    free(ctx.blk_ones);
    free(ctx.blk_bits);
    free(ctx.ones);
    free(ctx.ones_ws);
    free(ctx.idx);
    free(ctx.res);
    free(ctx.work);
    return st;
}

/* Indices are uint32 with a flag in the top bit (the affine kernel): inputs beyond 2^30
 * points are cut into pieces whose sums are added. */
#define MSM_PIECE ((size_t)1 << 30)

enum czk_status MSM_FN(_ex)(G_T *out, const A_T *bases, const uint64_t (*scalars)[4], size_t n,
                            unsigned threads, const struct czk_msm_opts *opts,
                            struct czk_msm_stats *stats)
{
    struct xyzz sum, part;
    xyzz_set_inf(&sum);
    size_t done = 0;
    do {
        size_t len = n - done < MSM_PIECE ? n - done : MSM_PIECE;
        enum czk_status st =
            msm_run(&part, bases + done, scalars + done, len, threads, opts, stats);
        if (st != CZK_OK)
            return st;
        xyzz_add(&sum, &part);
        done += len;
    } while (done < n);
    xyzz_to_jacobian(out, &sum);
    return CZK_OK;
}

enum czk_status MSM_FN()(G_T *out, const A_T *bases, const uint64_t (*scalars)[4], size_t n,
                         unsigned threads)
{
    return MSM_FN(_ex)(out, bases, scalars, n, threads, NULL, NULL);
}
