/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal interface of the CPU MSM (src/msm/): the tunable entry points behind msm.h,
 * the cost model that picks the window size and the number of point chunks per window,
 * and the signed-digit (Booth) window recoding shared by the four group instances.
 *
 * czk_msm_<G>_ex is czk_msm_<G> with the plan forced by `opts` (any field 0 = chosen by
 * the cost model) and the plan actually used reported in `stats` (either may be NULL).
 * Tests use it to cover every window size and split; the bench uses it to check the
 * cost model's choice against a sweep. Same threading and ownership rules as msm.h:
 * the call owns its scratch (allocated once per call, freed before return) and reads
 * bases and scalars only.
 */
#ifndef CZK_MSM_MSM_INTERNAL_H
#define CZK_MSM_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "msm.h" /* relative: also found from bench/ */

/* Largest window: 2^(c-1) buckets per worker, Booth digits fit in int32 comfortably. */
#define CZK_MSM_C_MAX 20u
/* The largest window the cost model picks (bucket memory per worker stays at most
 * 2^15 buckets: 4 MiB for G1 BN254, 12 MiB for G2 BLS12-381). */
#define CZK_MSM_C_AUTO_MAX 16u

/* Bucket accumulation kernels. */
enum czk_msm_accum {
    CZK_MSM_ACCUM_AUTO = 0,  /* the faster one for the group (see msm_impl.h) */
    CZK_MSM_ACCUM_XYZZ = 1,  /* mixed additions into XYZZ buckets */
    CZK_MSM_ACCUM_AFFINE = 2 /* batched affine additions (one inversion per batch) */
};

struct czk_msm_opts {
    unsigned c;      /* window bits 1..CZK_MSM_C_MAX; 0 = cost model */
    unsigned splits; /* point chunks per window (>= 1); 0 = cost model */
    unsigned accum;  /* enum czk_msm_accum */
    unsigned group;  /* affine: windows per task, 1..CZK_MSM_GROUP_MAX; 0 = cost model */
};

struct czk_msm_stats {
    unsigned c, splits, windows, threads, accum, group;
    size_t n_general; /* points that went through the buckets */
    size_t n_ones;    /* points with scalar 1 (summed directly) */
};

#define CZK_MSM_DECLARE_EX(G)                                                                      \
    enum czk_status czk_msm_##G##_ex(                                                              \
        struct czk_##G *out, const struct czk_##G##_affine *bases, const uint64_t(*scalars)[4],    \
        size_t n, unsigned threads, const struct czk_msm_opts *opts, struct czk_msm_stats *stats);

CZK_MSM_DECLARE_EX(g1_bn254)
CZK_MSM_DECLARE_EX(g2_bn254)
CZK_MSM_DECLARE_EX(g1_bls12_381)
CZK_MSM_DECLARE_EX(g2_bls12_381)

/* Most windows one affine task handles together. */
#define CZK_MSM_GROUP_MAX 32u

/* Costs of a kernel, in field multiplications of the coordinate field. */
struct czk_msm_cost {
    double acc;             /* accumulating one point into one bucket */
    double reduce;          /* reducing one bucket (running sum: two additions) */
    double add, dbl;        /* adding two partial sums; one doubling */
    unsigned group_buckets; /* affine: group windows until a task has this many buckets
                             * (0: one window per task) */
};

/* The two kernels' costs (msm_plan.c). */
extern const struct czk_msm_cost czk_msm_cost_xyzz, czk_msm_cost_affine;

/*
 * Cost model (msm_plan.c): m points through the buckets, scalars of at most `bits` bits,
 * `threads` workers (resolved, >= 1). Picks c in [1, c_max], the point chunks per window
 * and the windows per task minimising the estimated wall time
 *   ceil(groups k / T) g (m / k acc + 2^(c-1) reduce) + W k add + W c dbl
 * with W = ceil((bits + 1) / c) windows in groups of g. Returns that estimate.
 */
double czk_msm_plan(size_t m, unsigned bits, unsigned threads, const struct czk_msm_cost *cost,
                    unsigned c_max, unsigned *c, unsigned *splits, unsigned *group);

/* Number of windows of width c that cover scalars of `bits` bits with Booth digits. */
static inline unsigned czk_msm_windows(unsigned bits, unsigned c) { return (bits + c) / c; }

/*
 * Booth digit of window j (width c) of the 256-bit scalar k (4 LE limbs): with b_i the
 * bits of k (b_{-1} = 0, b_i = 0 for i >= 256) the digit is
 *   d_j = b_{jc-1} + sum_{i<c-1} 2^i b_{jc+i} - 2^(c-1) b_{jc+c-1}   in [-2^(c-1), 2^(c-1)],
 * and k = sum_j d_j 2^(jc) as soon as b_{Wc-1} = 0 (which czk_msm_windows guarantees).
 * Computed from the c + 1 bits starting at jc - 1: u = (v + 1) >> 1 equals
 * b_{jc-1} + sum_{i<c} 2^i b_{jc+i}, and the top bit of v subtracts 2^c.
 */
static inline int32_t czk_msm_booth(const uint64_t k[4], unsigned j, unsigned c)
{
    unsigned w = c + 1;
    uint64_t v;
    if (j == 0) {
        v = (k[0] << 1) & ((UINT64_C(1) << w) - 1);
    } else {
        unsigned pos = j * c - 1, limb = pos >> 6, off = pos & 63;
        if (limb >= 4)
            return 0;
        v = k[limb] >> off;
        if (off + w > 64 && limb + 1 < 4)
            v |= k[limb + 1] << (64 - off);
        v &= (UINT64_C(1) << w) - 1;
    }
    int32_t u = (int32_t)((v + 1) >> 1);
    return u - (int32_t)((v >> c) << c);
}

#endif
