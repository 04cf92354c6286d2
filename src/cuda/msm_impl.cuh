/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA, internal to msm.cu and msm_g2.cu: Pippenger MSM on the device (see msm_cuda.h for
 * the contract). Everything here has internal linkage (each translation unit instantiates the
 * groups it serves: G1 in msm.cu, G2 in msm_g2.cu, so the two compile in parallel).
 *
 * Steps of one call, all on `stream`:
 *  1. select: indices of the "general" points (scalar not 0 and not 1, base not infinity),
 *     compacted with cub::DeviceSelect::If; the points with scalar 1 are summed by ones_kernel.
 *  2. digits: per general point and window, the Booth digit d in [-2^(c-1), 2^(c-1)]:
 *     key = |d| (bucket |d| - 1; 0 = nothing to add), value = point index | sign << 31.
 *  3. sort: per window, cub::DeviceRadixSort::SortPairs over the c low key bits.
 *  4. accumulate: the sorted (window, key) list of all windows is cut into chunks of `chunk`
 *     entries, one thread each. A run of equal keys that lies inside a chunk is a finished
 *     bucket, written directly; a run that crosses a chunk boundary leaves a partial sum at the
 *     chunk's head or tail. The partials (compacted, still sorted) go through the same kernel
 *     again, until a pass has a single chunk; every bucket is written exactly once.
 *  5. reduce: per window, sum_b (b + 1) B_b in levels (reduce_level): a level's threads take
 *     segments of `seg` entries and leave their running sums; the sums of the segments become
 *     the next level's entries (their weights seg times larger), until one segment per window.
 *  6. combine: Horner over the windows (c doublings each) plus the sum of the scalar-1 points,
 *     one warp sharing each point operation (msm_combine.cuh), converted to Jacobian on the
 *     device and copied to the host.
 * Step 4's first pass is XYZZ (accumulate_first: one point at a time per thread, 8M + 2S per
 * mixed addition) or batch-affine (accumulate_affine: lanes of a thread sharing one inversion
 * per step, 5M + 1S); acc_for picks it (G2 from 2^24 sorted entries: batch-affine, measured
 * faster there and slower for G1). The later passes and the reduction are XYZZ.
 */
#ifndef CZK_CUDA_MSM_IMPL_CUH
#define CZK_CUDA_MSM_IMPL_CUH

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "czk/czk_ec.h"
#include "cuda/ec.cuh"
#include "cuda/msm_cuda.h"
#include "cuda/msm_internal.cuh"

using namespace czk_cuda;

/* State shared by the translation units (defined in msm.cu). */
namespace czk_msm_state {
extern thread_local unsigned forced_c;
extern thread_local unsigned forced_acc;
extern thread_local struct czk_cuda_msm_stats last_stats;
} /* namespace czk_msm_state */

/* The G2 instantiations, each in its own translation unit (msm_g2.cu, msm_g2_bls12_381.cu), as
 * czk_cuda_msm and czk_cuda_msm_scratch_fit of msm_cuda.h take them. */
enum czk_status czk_msm_g2_run(enum czk_groth16_curve curve, cudaStream_t stream, const uint64_t *bases,
                               const uint64_t *scalars, size_t n, uint64_t *host_out, void *d_scratch,
                               size_t scratch_bytes, char *err, size_t errlen);
size_t czk_msm_g2_scratch(enum czk_groth16_curve curve, size_t n, size_t avail);
enum czk_status czk_msm_g2_bls12_381_run(cudaStream_t stream, const uint64_t *bases, const uint64_t *scalars,
                                         size_t n, uint64_t *host_out, void *d_scratch, size_t scratch_bytes,
                                         char *err, size_t errlen);
size_t czk_msm_g2_bls12_381_scratch(size_t n, size_t avail);

namespace {
using czk_msm_state::forced_acc;
using czk_msm_state::forced_c;
using czk_msm_state::last_stats;

constexpr uint32_t NONE = 0xffffffffu;
constexpr unsigned C_MIN = 2, C_MAX = 20;
constexpr unsigned MAX_LEVELS = 16;
constexpr unsigned BLOCK = 128;

/* ---- group descriptions ---------------------------------------------------------------------- */
template <class F, unsigned BITS> struct group_t {
    typedef F field;
    typedef affine<F> aff;
    typedef xyzz<F> pt;
    static constexpr unsigned bits = BITS;
};
typedef group_t<fp_bn254, 254> g1_bn254_t;
typedef group_t<fp2_bn254, 254> g2_bn254_t;
typedef group_t<fp_bls12_381, 255> g1_bls12_381_t;
typedef group_t<fp2_bls12_381, 255> g2_bls12_381_t;

/* ---- small device helpers ---------------------------------------------------------------------- */
template <class G> __device__ __forceinline__ typename G::aff load_base(const uint64_t *bases, uint32_t i)
{
    typename G::aff a;
    a.load(bases + (size_t)i * G::field::N); /* 2 coordinates of N/2 u64 */
    return a;
}

__device__ __forceinline__ void load_scalar(const uint64_t *s, uint32_t i, uint64_t k[4])
{
    const ulonglong2 *p = reinterpret_cast<const ulonglong2 *>(s + (size_t)i * 4);
    ulonglong2 a = p[0], b = p[1];
    k[0] = a.x;
    k[1] = a.y;
    k[2] = b.x;
    k[3] = b.y;
}

__device__ __forceinline__ bool scalar_is(const uint64_t k[4], uint64_t v)
{
    return k[0] == v && (k[1] | k[2] | k[3]) == 0;
}

/* Booth digit of window j (width c) of k, as czk_msm_booth of src/msm/msm_internal.h. */
CZK_HD int32_t booth(const uint64_t k[4], unsigned j, unsigned c)
{
    unsigned w = c + 1;
    uint64_t v;
    if (j == 0) {
        v = (k[0] << 1) & ((1ull << w) - 1);
    } else {
        unsigned pos = j * c - 1, limb = pos >> 6, off = pos & 63;
        if (limb >= 4)
            return 0;
        v = k[limb] >> off;
        if (off + w > 64 && limb + 1 < 4)
            v |= k[limb + 1] << (64 - off);
        v &= (1ull << w) - 1;
    }
    int32_t u = (int32_t)((v + 1) >> 1);
    return u - (int32_t)((v >> c) << c);
}

template <class P> __device__ __forceinline__ P shfl_down(const P &v, unsigned off)
{
    P r;
    const uint32_t *s = reinterpret_cast<const uint32_t *>(&v);
    uint32_t *d = reinterpret_cast<uint32_t *>(&r);
#pragma unroll
    for (unsigned i = 0; i < sizeof(P) / 4; i++)
        d[i] = __shfl_down_sync(0xffffffffu, s[i], off);
    return r;
}

/* Sum of v over the block (result valid in thread 0). blockDim.x is a multiple of 32, <= 1024. */
template <class G> __device__ typename G::pt block_sum(typename G::pt v)
{
    typedef typename G::pt pt;
    __shared__ pt warp_part[32];
    for (unsigned off = 16; off > 0; off >>= 1)
        pt::add(v, v, shfl_down(v, off));
    unsigned lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if (lane == 0)
        warp_part[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = lane < nw ? warp_part[lane] : pt::inf();
        for (unsigned off = 16; off > 0; off >>= 1)
            pt::add(v, v, shfl_down(v, off));
    }
    return v;
}

/* ---- kernels ---------------------------------------------------------------------------------------- */
struct general_pred {
    const uint64_t *scalars;
    const uint64_t *bases;
    unsigned base_words; /* u64 per affine base */
    __device__ bool operator()(uint32_t i) const
    {
        uint64_t k[4];
        load_scalar(scalars, i, k);
        if ((k[1] | k[2] | k[3]) == 0 && k[0] <= 1)
            return false;
        const uint64_t *b = bases + (size_t)i * base_words;
        uint64_t acc = 0;
        for (unsigned w = 0; w < base_words; w++)
            acc |= b[w];
        return acc != 0;
    }
};

/* out[blockIdx] = sum of the bases with scalar 1; *count += their number */
template <class G>
__global__ void __launch_bounds__(BLOCK) ones_kernel(const uint64_t *bases, const uint64_t *scalars,
                                                     uint32_t n, typename G::pt *out,
                                                     unsigned long long *count)
{
    typedef typename G::pt pt;
    /* the inline addition: values live across an out-of-line call in this loop spill (ptxas,
     * BN254 G1) */
    pt acc = pt::inf();
    unsigned cnt = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint64_t k[4];
        load_scalar(scalars, i, k);
        if (scalar_is(k, 1)) {
            typename G::aff a = load_base<G>(bases, i);
            if (!G::aff::is_inf(a)) {
                pt::add_affine_inline(acc, acc, a);
                cnt++;
            }
        }
    }
    for (unsigned off = 16; off > 0; off >>= 1)
        cnt += __shfl_down_sync(0xffffffffu, cnt, off);
    if ((threadIdx.x & 31) == 0 && cnt)
        atomicAdd(count, (unsigned long long)cnt);
    acc = block_sum<G>(acc);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

/* keys[w m + j] = |digit w of scalar idx[j]|, vals[w m + j] = idx[j] | sign << 31 */
__global__ void digits_kernel(const uint64_t *scalars, const uint32_t *idx, uint32_t m, unsigned c,
                              unsigned windows, uint32_t *keys, uint32_t *vals)
{
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    uint32_t i = idx[j];
    uint64_t k[4];
    load_scalar(scalars, i, k);
    for (unsigned w = 0; w < windows; w++) {
        int32_t d = booth(k, w, c);
        size_t o = (size_t)w * m + j;
        keys[o] = (uint32_t)(d < 0 ? -d : d);
        vals[o] = i | (d < 0 ? 0x80000000u : 0u);
    }
}

/*
 * First accumulation pass over the sorted lists of all windows (total = windows * m entries):
 * thread t takes entries [t chunk, (t + 1) chunk). Bucket id of entry pos: (pos / m) * M + key - 1
 * (NONE for key 0). Finished runs go to buckets[id]; a run continuing from the previous chunk
 * (head) or into the next (tail) goes to part[2t] / part[2t + 1] with its id (NONE if absent).
 *
 * The kernel is latency-bound (one dependent carry chain per warp, few warps: Nsight Compute
 * on the H200 showed 30-37 % of issue slots busy, DRAM under 5 %), so its shape is chosen per
 * group by acc_kind (measured on the H200 at 2^24, docs/GPU_RUNS.md):
 *   ACC_CALL     the addition out of line (G2: inlined, its Fp2 points spill),
 *   ACC_INLINE   the addition inlined, accumulator in registers (BN254 G1: 84 -> 74 ms),
 *   ACC_PREFETCH inlined, and the next entry's base loaded during the addition, at most 255
 *                registers (BLS12-381 G1: 251 -> 163 ms).
 */
enum { ACC_CALL = 0, ACC_INLINE = 1, ACC_PREFETCH = 3 };
template <class G> constexpr int acc_kind()
{
    return sizeof(typename G::field) > 48 ? ACC_CALL : G::field::N == 12 ? ACC_PREFETCH : ACC_INLINE;
}

template <class G, int V>
__global__ void __launch_bounds__(BLOCK, V == ACC_PREFETCH ? 2 : 1)
    accumulate_first(const uint32_t *keys, const uint32_t *vals, uint32_t m, size_t total,
                     uint32_t chunk, uint32_t M, const uint64_t *bases, typename G::pt *buckets,
                     uint32_t *part_id, typename G::pt *part)
{
    typedef typename G::pt pt;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t s = t * chunk;
    if (s >= total)
        return;
    size_t e = s + chunk < total ? s + chunk : total;
    uint32_t w = (uint32_t)(s / m);
    size_t wend = (size_t)(w + 1) * m;
    auto id_at = [&](size_t pos) -> uint32_t {
        uint32_t k = keys[pos];
        return k ? (uint32_t)(pos / m) * M + k - 1 : NONE;
    };
    uint32_t first_id = id_at(s);
    bool head = s > 0 && first_id != NONE && id_at(s - 1) == first_id;
    uint32_t last_id = id_at(e - 1);
    bool tail = e < total && last_id != NONE && id_at(e) == last_id;
    part_id[2 * t] = NONE;
    part_id[2 * t + 1] = NONE;

    uint32_t cur = NONE;
    bool cur_is_head = false;
    pt acc = pt::inf();
    typename G::aff next;
    if (V == ACC_PREFETCH)
        next = load_base<G>(bases, vals[s] & 0x7fffffffu);
    for (size_t pos = s; pos < e; pos++) {
        if (pos == wend) {
            w++;
            wend += m;
        }
        typename G::aff a;
        if (V == ACC_PREFETCH) { /* the next entry's base is loaded while this one is added */
            a = next;
            if (pos + 1 < e)
                next = load_base<G>(bases, vals[pos + 1] & 0x7fffffffu);
        }
        uint32_t k = keys[pos];
        uint32_t id = k ? w * M + k - 1 : NONE;
        if (id != cur) {
            if (cur != NONE) {
                if (cur_is_head) {
                    part_id[2 * t] = cur;
                    part[2 * t] = acc;
                } else {
                    buckets[cur] = acc;
                }
            }
            cur = id;
            cur_is_head = pos == s && head;
            acc = pt::inf();
        }
        if (id == NONE)
            continue;
        uint32_t v = vals[pos];
        if (V != ACC_PREFETCH)
            a = load_base<G>(bases, v & 0x7fffffffu);
        if (v >> 31)
            a.y = G::field::neg(a.y);
        if (V == ACC_CALL)
            pt::add_affine(acc, acc, a);
        else
            pt::add_affine_inline(acc, acc, a);
    }
    if (cur != NONE) {
        if (cur_is_head) { /* head (and perhaps tail too): one partial */
            part_id[2 * t] = cur;
            part[2 * t] = acc;
        } else if (tail) {
            part_id[2 * t + 1] = cur;
            part[2 * t + 1] = acc;
        } else {
            buckets[cur] = acc;
        }
    }
    (void)last_id;
}

/*
 * Batch-affine accumulation (the first pass, in place of accumulate_first; see acc_for):
 * the sorted list is cut into G = T * B lanes of L consecutive entries; thread t owns the B
 * lanes g = i T + t (i < B). A lane keeps one affine accumulator A and the bucket id of its
 * current run (as accumulate_first does for its chunk), and all B lanes of a thread advance
 * one entry per step: each step adds at most one point to each lane's A, and the B affine
 * additions of the step share one field inversion (Montgomery's trick): pass 1 forms the
 * prefix products of the denominators (x_P - x_A, or 2 y_A for P = A), pass 2 walks the lanes
 * back, takes each inverse and finishes the addition (lambda = num / den, x3 = lambda^2 - x_A
 * - x_P, y3 = lambda (x_A - x3) - y_A): 5M + 1S per point plus (one inversion) / B, against
 * 8M + 2S for XYZZ. P = -A gives infinity at once (no inversion). Lane state (A, prefix
 * products, ids) lives in global memory, word-interleaved across threads so that a warp's
 * accesses are coalesced. Output as accumulate_first's with lane g in place of thread t:
 * finished runs to buckets, head/tail partials to part[2g], part[2g + 1].
 */
constexpr uint32_t BA_HEAD = 1u << 31; /* the run continues from the previous lane */
constexpr uint32_t BA_PEND = 1u << 30; /* an addition waits for this step's inverse */
constexpr uint32_t BA_INF = 1u << 29;  /* A is infinity (the run so far sums to 0) */
constexpr uint32_t BA_ID = BA_INF - 1; /* id bits; BA_ID itself: no run */

/* A field element from its Q 16-byte words, word q = ld(q) (F is an array of u32 limbs, not a
 * uint4 object, so the words are copied through memcpy). */
template <class F, class Load> CZK_HD F field_from_words(Load ld)
{
    constexpr unsigned Q = sizeof(F) / 16;
    uint32_t w[4 * Q];
#pragma unroll
    for (unsigned q = 0; q < Q; q++) {
        uint4 u = ld(q);
        w[4 * q] = u.x;
        w[4 * q + 1] = u.y;
        w[4 * q + 2] = u.z;
        w[4 * q + 3] = u.w;
    }
    F r;
    memcpy(&r, w, sizeof r);
    return r;
}

/* B field elements per thread, element i of thread t at words ((i Q + w) T + t), Q uint4 each */
template <class F> struct lane_array {
    uint4 *p;
    size_t T;
    static constexpr unsigned Q = sizeof(F) / 16;
    CZK_HD F ld(uint32_t i, size_t t) const
    {
        const uint4 *a = p;
        const size_t T_ = T;
        return field_from_words<F>([=](unsigned q) { return a[((size_t)i * Q + q) * T_ + t]; });
    }
    CZK_HD void st(uint32_t i, size_t t, const F &v) const
    {
        uint32_t w[4 * Q];
        memcpy(w, &v, sizeof w);
#pragma unroll
        for (unsigned q = 0; q < Q; q++)
            p[((size_t)i * Q + q) * T + t] = make_uint4(w[4 * q], w[4 * q + 1], w[4 * q + 2], w[4 * q + 3]);
    }
};

struct ba_args {
    const uint32_t *keys, *vals;
    uint32_t m, M, B, L;
    size_t total, T;
    double inv_m; /* 1 / m, for the window of an entry */
    const uint64_t *bases;
    uint32_t *part_id, *aid;
    uint4 *ax, *ay, *pre;
};

/* The work of thread t (host and device: the host runs it in czk_cuda_msm_affine_host_check) */
template <class G> CZK_HD void affine_lanes(const ba_args &a, typename G::pt *buckets, typename G::pt *part, size_t t)
{
    typedef typename G::field F;
    typedef typename G::pt pt;
    const size_t T = a.T;
    const lane_array<F> AX = {a.ax, T}, AY = {a.ay, T}, PRE = {a.pre, T};
    auto id_at = [&](size_t pos) -> uint32_t {
        uint32_t k = a.keys[pos];
        if (!k)
            return BA_ID;
        size_t w = (size_t)((double)pos * a.inv_m); /* exact up to one either way */
        if (w * a.m > pos)
            w--;
        else if ((w + 1) * a.m <= pos)
            w++;
        return (uint32_t)w * a.M + k - 1;
    };
    auto signed_y = [&](uint32_t v) -> F {
        F y;
        y.load(a.bases + (size_t)(v & 0x7fffffffu) * F::N + F::N / 2);
        return v >> 31 ? F::neg(y) : y;
    };
    auto base_x = [&](uint32_t v) -> F {
        F x;
        x.load(a.bases + (size_t)(v & 0x7fffffffu) * F::N);
        return x;
    };
    /* the accumulator of a finished run: a head partial, or its bucket */
    auto flush = [&](uint32_t i, uint32_t st, size_t g, bool tail) {
        uint32_t id = st & BA_ID;
        if (id == BA_ID)
            return;
        pt p = pt::inf();
        if (!(st & BA_INF)) {
            p.X = AX.ld(i, t);
            p.Y = AY.ld(i, t);
            p.ZZ = F::one();
            p.ZZZ = F::one();
        }
        if (st & BA_HEAD) {
            a.part_id[2 * g] = id;
            part[2 * g] = p;
        } else if (tail) {
            a.part_id[2 * g + 1] = id;
            part[2 * g + 1] = p;
        } else if (!(st & BA_INF)) {
            buckets[id] = p;
        }
    };

    for (uint32_t i = 0; i < a.B; i++) {
        size_t g = (size_t)i * T + t;
        a.part_id[2 * g] = NONE;
        a.part_id[2 * g + 1] = NONE;
        a.aid[g] = BA_ID;
    }
    for (uint32_t k = 0; k < a.L; k++) {
        /* pass 1: run changes, and the prefix products of this step's denominators */
        F prod = F::one();
        bool any = false;
        for (uint32_t i = 0; i < a.B; i++) {
            size_t g = (size_t)i * T + t, pos = g * a.L + k;
            if (pos >= a.total)
                continue;
            uint32_t st = a.aid[g], id = id_at(pos);
            if (id != (st & BA_ID)) { /* the lane's run ended: flush it, start the next */
                flush(i, st, g, false);
                uint32_t ns = id;
                if (id != BA_ID) {
                    uint32_t v = a.vals[pos];
                    if (k == 0 && pos > 0 && id_at(pos - 1) == id)
                        ns |= BA_HEAD;
                    AX.st(i, t, base_x(v));
                    AY.st(i, t, signed_y(v));
                }
                a.aid[g] = ns;
                continue;
            }
            if (id == BA_ID)
                continue;
            uint32_t v = a.vals[pos];
            if (st & BA_INF) { /* A = 0: A = P */
                AX.st(i, t, base_x(v));
                AY.st(i, t, signed_y(v));
                a.aid[g] = st & ~BA_INF;
                continue;
            }
            F xa = AX.ld(i, t), xp = base_x(v), d;
            if (!F::eq(xp, xa)) {
                d = F::sub(xp, xa);
            } else {
                F ya = AY.ld(i, t);
                if (!F::eq(ya, signed_y(v))) { /* P = -A */
                    a.aid[g] = st | BA_INF;
                    continue;
                }
                d = F::dbl(ya); /* P = A: the tangent */
            }
            PRE.st(i, t, prod);
            prod = F::mul(prod, d);
            a.aid[g] = st | BA_PEND;
            any = true;
        }
        if (!any)
            continue;
        /* pass 2: one inversion, then each waiting lane's inverse, last lane first */
        F inv = F::inv(prod);
        for (uint32_t i = a.B; i-- > 0;) {
            size_t g = (size_t)i * T + t;
            uint32_t st = a.aid[g];
            if (!(st & BA_PEND))
                continue;
            uint32_t v = a.vals[g * a.L + k];
            F xa = AX.ld(i, t), ya = AY.ld(i, t), xp = base_x(v), d, num;
            if (F::eq(xp, xa)) {
                d = F::dbl(ya);
                num = F::sqr_lean(xa);
                num = F::add(F::dbl(num), num);
            } else {
                d = F::sub(xp, xa);
                num = F::sub(signed_y(v), ya);
            }
            F lam = F::mul(num, F::mul(inv, PRE.ld(i, t)));
            inv = F::mul(inv, d);
            F x3 = F::sub(F::sub(F::sqr_lean(lam), xa), xp);
            AY.st(i, t, F::sub(F::mul(lam, F::sub(xa, x3)), ya));
            AX.st(i, t, x3);
            a.aid[g] = st & ~BA_PEND;
        }
    }
    /* the last run of each lane: a head or tail partial, or a finished bucket */
    for (uint32_t i = 0; i < a.B; i++) {
        size_t g = (size_t)i * T + t, s = g * a.L;
        if (s >= a.total)
            continue;
        size_t e = s + a.L < a.total ? s + a.L : a.total;
        uint32_t st = a.aid[g];
        bool tail = e < a.total && (st & BA_ID) != BA_ID && id_at(e) == (st & BA_ID);
        flush(i, st, g, tail);
    }
}

template <class G> __global__ void __launch_bounds__(BLOCK) accumulate_affine(ba_args a, typename G::pt *buckets,
                                                                               typename G::pt *part)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < a.T)
        affine_lanes<G>(a, buckets, part, t);
}

#include "cuda/msm_tree.cuh"

/*
 * Later passes: the partials of the previous pass, compacted (sel[0 .. *len) index part/part_id
 * of that pass, in order). Same chunking and output rules as accumulate_first.
 */
template <class G>
__global__ void __launch_bounds__(BLOCK)
    accumulate_next(const uint32_t *sel, const uint32_t *len_p, const uint32_t *in_id,
                    const typename G::pt *in, uint32_t chunk, typename G::pt *buckets,
                    uint32_t *part_id, typename G::pt *part)
{
    typedef typename G::pt pt;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t total = *len_p, s = t * chunk;
    if (s >= total)
        return;
    size_t e = s + chunk < total ? s + chunk : total;
    uint32_t first_id = in_id[sel[s]];
    bool head = s > 0 && in_id[sel[s - 1]] == first_id;
    uint32_t last_id = in_id[sel[e - 1]];
    bool tail = e < total && in_id[sel[e]] == last_id;

    uint32_t cur = NONE;
    bool cur_is_head = false;
    pt acc = pt::inf();
    for (size_t pos = s; pos < e; pos++) {
        uint32_t q = sel[pos];
        uint32_t id = in_id[q];
        if (id != cur) {
            if (cur != NONE) {
                if (cur_is_head) {
                    part_id[2 * t] = cur;
                    part[2 * t] = acc;
                } else {
                    buckets[cur] = acc;
                }
            }
            cur = id;
            cur_is_head = pos == s && head;
            acc = pt::inf();
        }
        pt::add(acc, acc, in[q]);
    }
    if (cur_is_head) {
        part_id[2 * t] = cur;
        part[2 * t] = acc;
    } else if (tail) {
        part_id[2 * t + 1] = cur;
        part[2 * t + 1] = acc;
    } else {
        buckets[cur] = acc;
    }
}

/* Compaction of a partial list (cub::DeviceScan between the two): flags, then indices. */
__global__ void flag_kernel(const uint32_t *id, size_t len, uint32_t *flags)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        flags[i] = id[i] != NONE;
}

__global__ void scatter_kernel(const uint32_t *id, const uint32_t *pos, size_t len, uint32_t *sel,
                               uint32_t *count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len)
        return;
    bool f = id[i] != NONE;
    if (f)
        sel[pos[i]] = (uint32_t)i;
    if (i == len - 1)
        *count = pos[i] + (f ? 1u : 0u);
}

/* The window sums T(A) = sum_{i < n} (i + 1) A_i over a window's buckets A, level by level and
 * without scalar multiplications. A level cuts each window's n entries into K = n / seg segments;
 * segment t's running sums give U_t = sum_j (j + 1) A_{t seg + j} and R_t = sum_j A_{t seg + j},
 * and since (i + 1) = (j + 1) + t seg,
 *     T(A) = sum_t U_t + seg sum_t t R_t = sum_t U_t + seg T(A'),  A'_i = R_{i + 1}, A'_{K-1} = 0,
 * so the next level works on A' (R read one entry on) with a weight seg times larger. D carries
 * the weighted U sums: D_t = 2^scale U_t + sum_j D_prev[t seg + j] (2^scale: the product of the
 * earlier levels' segs); the last level (one segment per window) leaves T in D. Every level costs
 * about two additions per entry, against the earlier single level's scalar multiplication of
 * every segment's R by (t seg + 1) (about 1.5 log2 M point operations per thread). */
template <class G> struct red_level {
    const typename G::pt *A; /* entries, n per window (read from index shift) */
    uint32_t shift, n, seg;
    unsigned scale;              /* log2 of the entries' weight */
    const typename G::pt *Dprev; /* the previous level's D (n per window), or none */
    typename G::pt *R, *D;       /* this level's outputs, n / seg per window (R: none on the last) */
    size_t threads;              /* windows n / seg */
};

/* thread t of a level (the kernel's body; the host checks run it in a loop) */
template <class G> CZK_HD void reduce_level_at(const red_level<G> &v, size_t t)
{
    typedef typename G::pt pt;
    const uint32_t K = v.n / v.seg, w = (uint32_t)(t / K), s = (uint32_t)(t % K);
    const pt *a = v.A + (size_t)w * v.n;
    pt run = pt::inf(), sum = pt::inf();
    for (uint32_t j = v.seg; j-- > 0;) {
        uint32_t i = s * v.seg + j + v.shift;
        if (i < v.n)
            pt::add(run, run, a[i]);
        pt::add(sum, sum, run);
    }
    for (unsigned k = 0; k < v.scale; k++)
        pt::dbl(sum, sum);
    if (v.Dprev) {
        const pt *d = v.Dprev + (size_t)w * v.n + (size_t)s * v.seg;
        for (uint32_t j = 0; j < v.seg; j++)
            pt::add(sum, sum, d[j]);
    }
    if (v.R)
        v.R[t] = run;
    v.D[t] = sum;
}

template <class G> __global__ void __launch_bounds__(BLOCK) reduce_level(red_level<G> v)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < v.threads)
        reduce_level_at<G>(v, t);
}

/* out[g] = sum_{i < cnt} in[g cnt + i]; one block per group */
template <class G>
__global__ void __launch_bounds__(BLOCK)
    sum_groups(const typename G::pt *in, uint32_t cnt, typename G::pt *out)
{
    typedef typename G::pt pt;
    pt acc = pt::inf();
    const pt *p = in + (size_t)blockIdx.x * cnt;
    for (uint32_t i = threadIdx.x; i < cnt; i += blockDim.x)
        pt::add(acc, acc, p[i]);
    acc = block_sum<G>(acc);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

#include "cuda/msm_combine.cuh"

/* ---- planning ------------------------------------------------------------------------------------- */

unsigned windows_for(unsigned bits, unsigned c) { return (bits + c) / c; }

/* Window width for m general points: minimises W (m + 3 * 2^(c-1)) (a bucket's reduction costs
 * two full additions, about three mixed ones), at most C_MAX. */
unsigned choose_c(size_t m, unsigned bits)
{
    if (forced_c)
        return forced_c;
    unsigned best = C_MIN;
    double best_cost = -1;
    for (unsigned c = C_MIN; c <= C_MAX; c++) {
        double cost = (double)windows_for(bits, c) * ((double)m + 3.0 * (double)(1u << (c - 1)));
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

int sm_count(void)
{
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
        sms = 132;
    return sms;
}

/* Threads of the first accumulation pass for `total` sorted entries: about 8 per SM slot of
 * BLOCK, at most one per 4 entries, at least one per 1024; nondecreasing in total, so scratch
 * sized for n covers any m <= n. The chunk is then ceil(total / threads). */
size_t first_threads(size_t total, int sms)
{
    size_t want = (size_t)sms * BLOCK * 8, lo = (total + 1023) / 1024, hi = (total + 3) / 4;
    size_t t = want > lo ? want : lo;
    t = t < hi ? t : hi;
    return t ? t : 1;
}
constexpr uint32_t NEXT_CHUNK = 16; /* entries per thread in the later passes */
constexpr uint32_t RED_SEG_MIN = 4;  /* entries per thread in the reduction's later levels (at least) */

/* ---- batch-affine plan ---- */
/* Tuning, from the environment once (for benches): CZK_MSM_ACC = xyzz | affine | tree (else by
 * size), CZK_MSM_BA_LANES (lanes per thread, 8..4096), CZK_MSM_BA_TPS (threads per SM, 32..2048),
 * CZK_MSM_TREE_B (tree: items per thread and inversion, 1..8192; else the largest of TREE_BS that
 * the scratch holds), CZK_MSM_TREE_TPS (tree:
 * threads per SM, 32..2048; default BLOCK times the level kernel's minimum blocks per SM),
 * CZK_MSM_RED_F (reduction: threads per SM slot of BLOCK, 1..64, default 4). */
struct ba_tuning {
    unsigned acc, lanes, tps;
    unsigned tree_b, tree_tps; /* tree: items per thread and round (0: by plan), threads per SM (0: by group) */
    unsigned red_f;            /* reduction: about red_f threads per SM slot of BLOCK */
};
unsigned env_uint(const char *name, unsigned lo, unsigned hi, unsigned dflt)
{
    const char *v = getenv(name);
    char *end = nullptr;
    unsigned long x = v && *v ? strtoul(v, &end, 10) : 0;
    return v && *v && end && !*end && x >= lo && x <= hi ? (unsigned)x : dflt;
}
const ba_tuning &tuning()
{
    static const ba_tuning t = [] {
        ba_tuning r;
        const char *a = getenv("CZK_MSM_ACC");
        r.acc = a && !strcmp(a, "xyzz")     ? CZK_MSM_ACC_XYZZ
                : a && !strcmp(a, "affine") ? CZK_MSM_ACC_AFFINE
                : a && !strcmp(a, "tree")   ? CZK_MSM_ACC_TREE
                                            : 0;
        r.lanes = env_uint("CZK_MSM_BA_LANES", 8, 4096, 256);
        r.tps = env_uint("CZK_MSM_BA_TPS", 32, 2048, 256);
        r.tree_b = env_uint("CZK_MSM_TREE_B", 1, 8192, 0);
        r.tree_tps = env_uint("CZK_MSM_TREE_TPS", 32, 2048, 0);
        r.red_f = env_uint("CZK_MSM_RED_F", 1, 64, 4);
        return r;
    }();
    return t;
}
/* Sorted entries from which the automatic choice is the tree. Measured on the H200 (docs/PERF.md
 * "MSM, fourth pass" and "fifth pass"): BLS12-381 G2 2^24 (2^27.7 entries) tree 607.6 ms (B = 512)
 * to 532.5 (B = 4096) against the lanes' 748.4 and XYZZ's 1007. G1 at 2^24 the tree wins only from
 * B = 2048 (BLS12-381 154.8 / 138.9 ms at B = 2048 / 4096 against XYZZ 162.8; BN254 71.8 / 70.5
 * against 73.7; B = 1024 165.8), so G1 takes the tree only when the scratch holds B >= 2048; at
 * BLS12-381 G1 2^22 (2^26 entries) the two tie (54.8 / 55.4 ms) and at 2^20 (2^24 entries) XYZZ
 * wins (about 22 against 30 ms), so G1 starts at 2^27 entries. */
constexpr size_t BA_MIN_TOTAL = (size_t)1 << 24, BA_MIN_TOTAL_G1 = (size_t)1 << 27;
constexpr uint32_t BA_MIN_STEPS = 4;

/* Items per thread and inversion the tree is planned with, largest (fastest, most memory) first;
 * G1 uses the first TREE_G1_BS of them. */
constexpr uint32_t TREE_BS[] = {4096, 2048, 1024, 512};
constexpr unsigned TREE_G1_BS = 2;

/* One way to run a call: the first accumulation pass and, for the tree, its items per inversion.
 * The scratch layout follows the plan (lane state and tree lists only when the plan uses them). */
struct msm_plan {
    unsigned acc;    /* CZK_MSM_ACC_* */
    uint32_t tree_b; /* CZK_MSM_ACC_TREE: items per thread and round */
};

/* The plans a call with `total` sorted entries may use, fastest first (the last needs the least
 * scratch): forced (tests) or CZK_MSM_ACC, else by group and size; CZK_MSM_TREE_B fixes the
 * tree's B. Returns how many (1..MAX_PLANS). */
constexpr unsigned MAX_PLANS = 5;
unsigned plans_for(size_t total, bool g2, msm_plan out[MAX_PLANS])
{
    unsigned k = forced_acc ? forced_acc : tuning().acc, np = 0;
    const bool tree = k == CZK_MSM_ACC_TREE || (!k && total >= (g2 ? BA_MIN_TOTAL : BA_MIN_TOTAL_G1));
    if (tree) {
        const unsigned nb = tuning().tree_b ? 1 : k || g2 ? 4 : TREE_G1_BS;
        for (unsigned i = 0; i < nb; i++)
            out[np++] = msm_plan{(unsigned)CZK_MSM_ACC_TREE, tuning().tree_b ? tuning().tree_b : TREE_BS[i]};
        if (k)
            return np;
    }
    out[np++] = msm_plan{k == CZK_MSM_ACC_AFFINE ? (unsigned)CZK_MSM_ACC_AFFINE : (unsigned)CZK_MSM_ACC_XYZZ, 0};
    return np;
}

struct ba_plan {
    uint32_t B, L; /* lanes per thread, steps (entries per lane) */
    size_t T, G;   /* threads, lanes (T B) */
};
/* about tps threads per SM of B lanes each, at least BA_MIN_STEPS entries per lane */
ba_plan plan_affine(size_t total, int sms)
{
    ba_plan p;
    p.B = tuning().lanes;
    size_t want = (size_t)sms * tuning().tps * p.B;
    size_t L = (total + want - 1) / want;
    p.L = (uint32_t)(L < BA_MIN_STEPS ? BA_MIN_STEPS : L);
    size_t lanes = (total + p.L - 1) / p.L;
    p.T = (lanes + p.B - 1) / p.B;
    if (p.T == 0)
        p.T = 1;
    p.G = p.T * p.B;
    return p;
}
/* An upper bound of plan_affine(total).G that is nondecreasing in total (the plan's own lane
 * count drops each time the steps grow by one), so scratch planned for n covers every m <= n. */
size_t affine_lanes_bound(size_t total, int sms)
{
    size_t B = tuning().lanes, want = (size_t)sms * tuning().tps * B;
    size_t lanes = (total + BA_MIN_STEPS - 1) / BA_MIN_STEPS;
    lanes = lanes < want ? lanes : want;
    size_t T = (lanes + B - 1) / B;
    return (T ? T : 1) * B;
}

/* buckets per reduction segment: about red_f threads per SM slot, between 2 and M */
uint32_t choose_seg(uint32_t windows, uint32_t M, int sms)
{
    size_t want = (size_t)sms * BLOCK * tuning().red_f;
    uint32_t seg = 2;
    while (seg < M && (size_t)windows * (M / seg) > want)
        seg <<= 1;
    if (seg > M)
        seg = M;
    return seg;
}

/* the reduction's levels: the first level's seg from choose_seg (red_f threads per SM slot),
 * the later ones (far fewer entries) at least RED_SEG_MIN, which keeps the levels few; cap: the
 * points of one output (R or D) of level 0 and of level 1 (0 without one), which the later levels
 * reuse alternately */
constexpr unsigned RED_MAX_LEVELS = 32; /* seg >= 2 and M <= 2^(C_MAX - 1): at most 19 */
struct red_plan {
    unsigned levels;
    uint32_t seg[RED_MAX_LEVELS];
    size_t cap[2];
};

red_plan reduce_plan(uint32_t windows, uint32_t M, int sms)
{
    red_plan p;
    p.levels = 0;
    uint32_t n = M;
    for (;;) {
        uint32_t seg = choose_seg(windows, n, sms);
        if (p.levels && seg < RED_SEG_MIN)
            seg = RED_SEG_MIN;
        if (seg > n)
            seg = n;
        p.seg[p.levels++] = seg;
        if (seg >= n)
            break;
        n /= seg;
    }
    p.cap[0] = (size_t)windows * (M / p.seg[0]);
    p.cap[1] = p.levels > 1 ? p.cap[0] / p.seg[1] : 0;
    return p;
}

/* The levels of plan rp over W windows of M buckets: R and D of level 0 in buf0 (2 rp.cap[0]
 * points), of level 1 in buf1 (2 rp.cap[1]), then alternating; the last level's D is S (W points). */
template <class G>
unsigned reduce_levels(const red_plan &rp, uint32_t W, uint32_t M, const typename G::pt *buckets,
                       typename G::pt *buf0, typename G::pt *buf1, typename G::pt *S, red_level<G> *lv)
{
    typedef typename G::pt pt;
    pt *buf[2] = {buf0, buf1};
    const pt *A = buckets, *Dprev = nullptr;
    uint32_t n = M;
    unsigned scale = 0;
    for (unsigned l = 0; l < rp.levels; l++) {
        red_level<G> &v = lv[l];
        const bool last = l + 1 == rp.levels;
        v.A = A;
        v.shift = l ? 1u : 0u;
        v.n = n;
        v.seg = rp.seg[l];
        v.scale = scale;
        v.Dprev = Dprev;
        v.R = last ? nullptr : buf[l & 1];
        v.D = last ? S : buf[l & 1] + rp.cap[l & 1];
        v.threads = (size_t)W * (n / v.seg);
        A = v.R;
        Dprev = v.D;
        n /= v.seg;
        for (uint32_t g = v.seg; g > 1; g >>= 1)
            scale++;
    }
    return rp.levels;
}

/* Scratch layout. The first part (idx .. S) has offsets independent of the window size. */
struct layout {
    size_t idx, nsel, ones, out, S, keys, vals, keys_alt, vals_alt, cub_tmp, cub_bytes, buckets,
        part_id[2], part[2], sel, flags, fpos, V, V2, aid, ax, ay, pre, lanes, p1;
    /* tree: bucket starts and counts (two levels), items and item offsets per bucket, bucket
     * markers and bucket of each item, descriptors, two lists (x, y), prefix products, totals */
    size_t t_s[2], t_c[2], t_items, t_istart, t_marks, t_gid, t_desc, t_x[2], t_y[2], t_pre, t_tot;
    tree::sizes tsz;
    size_t total;
};

/* tree: threads of a level (at most) */
template <class G> size_t tree_tmax(int sms)
{
    unsigned tps = tuning().tree_tps;
    return (size_t)sms * (tps ? tps : BLOCK * tree::level_minb<G>());
}

/* partial slots of the first pass: 2 per thread (xyzz) or per lane (affine, when possible) */
size_t first_partials(size_t total, int sms, bool affine)
{
    size_t a = 2 * first_threads(total, sms), b = total && affine ? 2 * affine_lanes_bound(total, sms) : 0;
    return a > b ? a : b;
}

size_t align_up(size_t v) { return (v + 255) & ~(size_t)255; }

/* n points, m of them general, window width c */
template <class G> layout make_layout(size_t n, size_t m, unsigned c, size_t cub_bytes, int sms, const msm_plan &pl)
{
    const size_t pt = sizeof(typename G::pt);
    layout L;
    unsigned W = windows_for(G::bits, c);
    size_t M = (size_t)1 << (c - 1);
    size_t total = (size_t)W * m;
    const bool affine = pl.acc == CZK_MSM_ACC_AFFINE;
    size_t p1 = first_partials(total, sms, affine), p2 = 2 * ((p1 + NEXT_CHUNK - 1) / NEXT_CHUNK);
    size_t lanes = total && affine ? affine_lanes_bound(total, sms) : 0;
    size_t o = 0;
    L.idx = o, o = align_up(o + n * 4);
    L.nsel = o, o = align_up(o + 4 * (MAX_LEVELS + 1));
    L.ones = o, o = align_up(o + (size_t)(2 * sms + 1) * pt);
    L.out = o, o = align_up(o + 3 * sizeof(typename G::field) + 8);
    L.S = o, o = align_up(o + windows_for(G::bits, C_MIN) * pt);
    L.keys = o, o = align_up(o + total * 4);
    L.vals = o, o = align_up(o + total * 4);
    L.keys_alt = o, o = align_up(o + m * 4);
    L.vals_alt = o, o = align_up(o + m * 4);
    L.cub_tmp = o, o = align_up(o + cub_bytes);
    L.cub_bytes = cub_bytes;
    L.buckets = o, o = align_up(o + (size_t)W * M * pt);
    L.part_id[0] = o, o = align_up(o + p1 * 4);
    L.part[0] = o, o = align_up(o + p1 * pt);
    L.part_id[1] = o, o = align_up(o + p2 * 4);
    L.part[1] = o, o = align_up(o + p2 * pt);
    L.sel = o, o = align_up(o + p1 * 4);
    L.flags = o, o = align_up(o + p1 * 4);
    L.fpos = o, o = align_up(o + p1 * 4);
    /* the reduction's R and D: the first level's (W K each), then the second's (W K / seg_1 each),
     * the later levels alternating between the two */
    const red_plan rp = reduce_plan(W, (uint32_t)M, sms);
    L.V = o, o = align_up(o + 2 * rp.cap[0] * pt);
    L.V2 = o, o = align_up(o + 2 * rp.cap[1] * pt);
    L.aid = o, o = align_up(o + lanes * 4); /* batch-affine lane state */
    L.ax = o, o = align_up(o + lanes * sizeof(typename G::field));
    L.ay = o, o = align_up(o + lanes * sizeof(typename G::field));
    L.pre = o, o = align_up(o + lanes * sizeof(typename G::field));
    L.lanes = lanes;
    /* tree state */
    const size_t fb = sizeof(typename G::field);
    const bool tree = m && pl.acc == CZK_MSM_ACC_TREE;
    const size_t tmax = tree_tmax<G>(sms);
    L.tsz = tree::bound_sizes(tree ? m : 0, W, M, tmax, pl.tree_b);
    if (!tree)
        L.tsz.e0 = L.tsz.e1 = L.tsz.e2 = L.tsz.nb = 0;
    const tree::sizes &ts = L.tsz;
    /* prefix products: T B of a level's shape, at most tmax B and (level_shape) items + T */
    size_t npre = tmax * pl.tree_b;
    npre = !ts.e1 ? 0 : npre < ts.e1 + tmax ? npre : ts.e1 + tmax;
    for (int i = 0; i < 2; i++) {
        L.t_s[i] = o, o = align_up(o + ts.nb * 4);
        L.t_c[i] = o, o = align_up(o + ts.nb * 4);
    }
    L.t_items = o, o = align_up(o + ts.nb * 4);
    L.t_istart = o, o = align_up(o + ts.nb * 4);
    L.t_marks = o, o = align_up(o + ts.e1 * 4);
    L.t_gid = o, o = align_up(o + ts.e1 * 4);
    L.t_desc = o, o = align_up(o + ts.e1 * 16);
    L.t_x[0] = o, o = align_up(o + ts.e1 * fb);
    L.t_y[0] = o, o = align_up(o + ts.e1 * fb);
    L.t_x[1] = o, o = align_up(o + ts.e2 * fb);
    L.t_y[1] = o, o = align_up(o + ts.e2 * fb);
    L.t_pre = o, o = align_up(o + npre * fb);
    L.t_tot = o, o = align_up(o + 8);
    L.p1 = p1;
    L.total = o;
    return L;
}

/* CUB temporary storage: radix sort of m pairs on c bits, select over n, scan of the partials */
template <class G> size_t cub_bytes_for(size_t n, size_t m, unsigned c, const msm_plan &pl)
{
    size_t a = 0, b = 0, d = 0;
    cub::DoubleBuffer<uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
    if (cub::DeviceRadixSort::SortPairs(nullptr, a, k, v, (int64_t)m, 0, (int)c) != cudaSuccess)
        return 0;
    general_pred gp = {nullptr, nullptr, 0};
    if (cub::DeviceSelect::If(nullptr, b, thrust::counting_iterator<uint32_t>(0), (uint32_t *)nullptr,
                              (uint32_t *)nullptr, (int64_t)n, gp) != cudaSuccess)
        return 0;
    size_t p1 = first_partials((size_t)windows_for(G::bits, c) * m, sm_count(), pl.acc == CZK_MSM_ACC_AFFINE);
    if (cub::DeviceScan::ExclusiveSum(nullptr, d, (uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)p1) !=
        cudaSuccess)
        return 0;
    size_t r = a > b ? a : b;
    r = r > d ? r : d;
    if (pl.acc == CZK_MSM_ACC_TREE) { /* the tree's scans over buckets and items */
        size_t M = (size_t)1 << (c - 1);
        unsigned W = windows_for(G::bits, c);
        tree::sizes ts = tree::bound_sizes(m, W, M, tree_tmax<G>(sm_count()), pl.tree_b);
        size_t e = 0, f = 0;
        if (cub::DeviceScan::ExclusiveSum(nullptr, e, (uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)ts.nb) !=
                cudaSuccess ||
            cub::DeviceScan::InclusiveScan(nullptr, f, (uint32_t *)nullptr, (uint32_t *)nullptr, tree::max_u32(),
                                           (int64_t)ts.e1) != cudaSuccess)
            return 0;
        r = r > e ? r : e;
        r = r > f ? r : f;
    }
    return r;
}

/* Largest m <= n with choose_c(m) <= c (choose_c is nondecreasing in m: the cost lines'
 * slopes W(c) decrease with c, their intercepts grow); 0 if none. */
inline size_t max_m_for(size_t n, unsigned c, unsigned bits)
{
    if (choose_c(1, bits) > c)
        return 0;
    size_t lo = 1, hi = n; /* choose_c(lo) <= c */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (choose_c(mid, bits) <= c)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Layout of a call of n points, m of them general, under plan choice `rank` (0: the fastest of
 * plans_for; past the last: the last). */
template <class G> layout layout_for(size_t n, size_t m, unsigned c, unsigned rank, int sms, msm_plan *chosen)
{
    msm_plan pl[MAX_PLANS];
    unsigned np = plans_for((size_t)windows_for(G::bits, c) * m, sizeof(typename G::field) > 48, pl);
    const msm_plan &p = pl[rank < np ? rank : np - 1];
    if (chosen)
        *chosen = p;
    return make_layout<G>(n, m, c, cub_bytes_for<G>(n, m, c, p), sms, p);
}

/* Scratch for n points, whatever number m <= n of them is general, under plan choice `rank`: for
 * each window width c the plan of the largest m that uses it (the layout grows with m at fixed c
 * and plan). 0 if a CUB size query failed. */
template <class G> size_t scratch_rank(size_t n, unsigned rank)
{
    int sms = sm_count();
    size_t best = 0;
    for (unsigned c = C_MIN; c <= C_MAX; c++) {
        size_t m = forced_c ? (c == forced_c ? n : 0) : max_m_for(n, c, G::bits);
        if (m == 0)
            continue;
        layout L = layout_for<G>(n, m, c, rank, sms, nullptr);
        if (L.cub_bytes == 0)
            return 0;
        if (L.total > best)
            best = L.total;
    }
    return best;
}

/* Scratch of the fastest plans that fit in `avail` bytes (the least any call needs when none
 * does; avail = 0 asks for that least). */
template <class G> size_t scratch_for(size_t n, size_t avail)
{
    size_t need = 0;
    for (unsigned rank = 0; rank < MAX_PLANS; rank++) {
        need = scratch_rank<G>(n, rank);
        if (need && need <= avail)
            return need;
    }
    return need;
}

/* Device memory a call without scratch of its own may plan with (czk_cuda_msm_room). */
inline size_t free_for_scratch()
{
    size_t fr = 0, total = 0;
    if (cudaMemGetInfo(&fr, &total) != cudaSuccess)
        return 0;
    return czk_cuda_msm_room(fr, total);
}

/*
 * Step 4 through the tree (msm_tree.cuh): windows in groups, levels until every bucket is
 * written; *levels: the levels run, summed over the groups; *group: windows per group.
 */
template <class G>
enum czk_status tree_accumulate(cudaStream_t stream, const layout &L, uint8_t *scr, const uint32_t *keys,
                                const uint32_t *vals, uint32_t m, unsigned W, uint32_t M, const uint64_t *bases,
                                typename G::pt *buckets, int sms, uint32_t bmax, unsigned *levels, unsigned *group,
                                char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    const size_t tmax = tree_tmax<G>(sms);
    const unsigned g = tree::group_windows(m, W, tmax, bmax);
    const tree::sizes &ts = L.tsz;
    uint32_t *S[2] = {(uint32_t *)(scr + L.t_s[0]), (uint32_t *)(scr + L.t_s[1])};
    uint32_t *C[2] = {(uint32_t *)(scr + L.t_c[0]), (uint32_t *)(scr + L.t_c[1])};
    uint32_t *items = (uint32_t *)(scr + L.t_items), *istart = (uint32_t *)(scr + L.t_istart);
    uint32_t *marks = (uint32_t *)(scr + L.t_marks), *gid = (uint32_t *)(scr + L.t_gid);
    uint32_t *d_tot = (uint32_t *)(scr + L.t_tot);
    uint32_t tot[2] = {0, 0};
    unsigned nlev = 0;
    *group = g;
    if ((size_t)g * m > ts.e0 || (size_t)g * M > ts.nb || ts.e1 == 0) {
        st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: tree group of %u windows out of plan", g);
        goto out;
    }
    for (unsigned w0 = 0; w0 < W; w0 += g) {
        const unsigned gw = W - w0 < g ? W - w0 : g;
        const uint32_t len = gw * m, nb = gw * M;
        const unsigned nbb = (nb + BLOCK - 1) / BLOCK;
        unsigned cur = 0;
        CZK_CU_CHECK(cudaMemsetAsync(S[0], 0, (size_t)nb * 4, stream));
        CZK_CU_CHECK(cudaMemsetAsync(C[0], 0, (size_t)nb * 4, stream));
        CZK_CU_LAUNCH(tree::bounds_kernel<<<(len + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(
            keys + (size_t)w0 * m, len, m, M, S[0], C[0]));
        for (unsigned level = 0;; level++) {
            const unsigned nxt = cur ^ 1;
            size_t tb = L.cub_bytes;
            CZK_CU_LAUNCH(tree::counts_kernel<<<nbb, BLOCK, 0, stream>>>(nb, S[cur], C[cur], level == 0, items,
                                                                          C[nxt]));
            CZK_CU_CHECK(cub::DeviceScan::ExclusiveSum(scr + L.cub_tmp, tb, items, istart, (int64_t)nb, stream));
            tb = L.cub_bytes;
            CZK_CU_CHECK(cub::DeviceScan::ExclusiveSum(scr + L.cub_tmp, tb, C[nxt], S[nxt], (int64_t)nb, stream));
            CZK_CU_LAUNCH(tree::totals_kernel<<<1, 1, 0, stream>>>(nb, items, istart, C[nxt], S[nxt], d_tot));
            CZK_CU_CHECK(cudaMemcpyAsync(tot, d_tot, sizeof tot, cudaMemcpyDeviceToHost, stream));
            CZK_CU_CHECK(cudaStreamSynchronize(stream));
            if (tot[0] == 0)
                break;
            if (tot[0] > ts.e1 || tot[1] > (level & 1 ? ts.e2 : ts.e1) || level >= 32) {
                st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: tree level %u (%u items) out of plan",
                              level, tot[0]);
                goto out;
            }
            nlev++;
            CZK_CU_CHECK(cudaMemsetAsync(marks, 0, (size_t)tot[0] * 4, stream));
            CZK_CU_LAUNCH(tree::marks_kernel<<<nbb, BLOCK, 0, stream>>>(nb, items, istart, marks));
            tb = L.cub_bytes;
            CZK_CU_CHECK(cub::DeviceScan::InclusiveScan(scr + L.cub_tmp, tb, marks, gid, tree::max_u32(),
                                                        (int64_t)tot[0], stream));
            uint4 *desc = (uint4 *)(scr + L.t_desc);
            CZK_CU_LAUNCH(tree::plan_kernel<<<(tot[0] + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(
                tot[0], gid, istart, S[cur], C[cur], S[nxt], level == 0 ? vals + (size_t)w0 * m : nullptr, desc));
            tree::shape sh = tree::level_shape(tot[0], (uint32_t)tmax, (uint32_t)bmax);
            tree::level_args a;
            a.desc = desc;
            a.items = tot[0];
            a.T = sh.T;
            a.B = sh.B;
            a.rounds = sh.rounds;
            a.gbase = w0 * M;
            a.bases = bases;
            a.in_x = (uint4 *)(scr + L.t_x[(level + 1) & 1]);
            a.in_y = (uint4 *)(scr + L.t_y[(level + 1) & 1]);
            a.out_x = (uint4 *)(scr + L.t_x[level & 1]);
            a.out_y = (uint4 *)(scr + L.t_y[level & 1]);
            a.pre = (uint4 *)(scr + L.t_pre);
            const unsigned lb = (sh.T + BLOCK - 1) / BLOCK;
            if (level == 0)
                CZK_CU_LAUNCH(tree::level_kernel<G, true><<<lb, BLOCK, 0, stream>>>(a, buckets));
            else
                CZK_CU_LAUNCH(tree::level_kernel<G, false><<<lb, BLOCK, 0, stream>>>(a, buckets));
            if (tot[1] == 0)
                break;
            cur = nxt;
        }
    }
    *levels = nlev;
out:
    return st;
}

template <class G>
enum czk_status msm_impl(cudaStream_t stream, const uint64_t *bases, const uint64_t *scalars,
                         size_t n, uint64_t *host_out, void *d_scratch, size_t scratch_bytes, char *err,
                         size_t errlen)
{
    typedef typename G::pt pt;
    enum czk_status st = CZK_OK;
    const size_t fw = G::field::N / 2; /* u64 per coordinate */
    uint8_t *scr = (uint8_t *)d_scratch;
    bool own = false;
    int sms = sm_count();
    struct czk_cuda_msm_stats stats;
    memset(&stats, 0, sizeof stats);
    uint32_t m = 0;
    unsigned long long n_ones = 0;
    const uint32_t ones_blocks = (uint32_t)(2 * sms);
    size_t need = 0;
    layout L;
    unsigned c = C_MIN, W = 0;
    uint64_t jac[3 * G::field::N / 2];
    cudaEvent_t ev[7] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

    if (n == 0) {
        jacobian<typename G::field> j;
        pt::to_jacobian(j, pt::inf());
        j.store(host_out);
        last_stats = stats;
        return CZK_OK;
    }
    if (n >= 0x80000000u)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: n = %zu >= 2^31", n);
    if (scr) {
        need = scratch_bytes;
        const size_t least = scratch_for<G>(n, 0);
        if (need < least)
            return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                            "cuda msm: scratch of %zu bytes is below the least plan's %zu for n = %zu", need, least,
                            n);
    } else {
        need = scratch_for<G>(n, free_for_scratch());
        if (need == 0) {
            st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: no scratch plan for n = %zu", n);
            goto out;
        }
        CZK_CU_CHECK(cudaMallocAsync((void **)&scr, need, stream));
        own = true;
    }
    /* the window-independent offsets */
    L = make_layout<G>(n, 0, C_MIN, 0, sms, msm_plan{(unsigned)CZK_MSM_ACC_XYZZ, 0});
    stats.scratch = need;
    for (int i = 0; i < 7; i++)
        CZK_CU_CHECK(cudaEventCreate(&ev[i]));
    CZK_CU_CHECK(cudaEventRecord(ev[0], stream));
    {
        /* 1. general points and the scalar-1 sum */
        uint32_t *idx = (uint32_t *)(scr + L.idx), *nsel = (uint32_t *)(scr + L.nsel);
        size_t tmp_bytes = 0;
        general_pred gp = {scalars, bases, (unsigned)(2 * fw)};
        CZK_CU_CHECK(cub::DeviceSelect::If(nullptr, tmp_bytes, thrust::counting_iterator<uint32_t>(0),
                                           idx, nsel, (int64_t)n, gp, stream));
        /* its temp storage goes where the keys will be (unused until step 2) */
        if (L.keys + tmp_bytes > need) {
            st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: select temp storage too large");
            goto out;
        }
        CZK_CU_CHECK(cub::DeviceSelect::If(scr + L.keys, tmp_bytes, thrust::counting_iterator<uint32_t>(0),
                                           idx, nsel, (int64_t)n, gp, stream));
        unsigned long long *ones_cnt = (unsigned long long *)(scr + L.out + 3 * sizeof(typename G::field));
        pt *ones = (pt *)(scr + L.ones);
        CZK_CU_CHECK(cudaMemsetAsync(ones_cnt, 0, sizeof *ones_cnt, stream));
        CZK_CU_LAUNCH(ones_kernel<G><<<ones_blocks, BLOCK, 0, stream>>>(bases, scalars, (uint32_t)n, ones,
                                                                       ones_cnt));
        CZK_CU_LAUNCH(sum_groups<G><<<1, BLOCK, 0, stream>>>(ones, ones_blocks, ones + ones_blocks));
        CZK_CU_CHECK(cudaMemcpyAsync(&m, nsel, sizeof m, cudaMemcpyDeviceToHost, stream));
        CZK_CU_CHECK(cudaMemcpyAsync(&n_ones, ones_cnt, sizeof n_ones, cudaMemcpyDeviceToHost, stream));
        CZK_CU_CHECK(cudaEventRecord(ev[1], stream));
        CZK_CU_CHECK(cudaStreamSynchronize(stream));
    }
    if (m > 0) {
        c = choose_c(m, G::bits);
        W = windows_for(G::bits, c);
        const size_t M = (size_t)1 << (c - 1), total = (size_t)W * m;
        stats.c = c;
        stats.windows = W;
        /* the fastest plan that the scratch holds */
        msm_plan plan = {(unsigned)CZK_MSM_ACC_XYZZ, 0};
        for (unsigned rank = 0; rank < MAX_PLANS; rank++) {
            L = layout_for<G>(n, m, c, rank, sms, &plan);
            if (L.cub_bytes != 0 && L.total <= need)
                break;
        }
        if (L.total > need || L.cub_bytes == 0) {
            st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: scratch of %zu bytes out of plan (%zu)", need,
                          L.total);
            goto out;
        }
        uint32_t *idx = (uint32_t *)(scr + L.idx), *nsel = (uint32_t *)(scr + L.nsel);
        uint32_t *keys = (uint32_t *)(scr + L.keys), *vals = (uint32_t *)(scr + L.vals);
        uint32_t *keys_alt = (uint32_t *)(scr + L.keys_alt), *vals_alt = (uint32_t *)(scr + L.vals_alt);
        pt *buckets = (pt *)(scr + L.buckets);

        /* 2. digits */
        CZK_CU_LAUNCH(digits_kernel<<<(m + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(scalars, idx, m, c, W,
                                                                               keys, vals));
        CZK_CU_CHECK(cudaEventRecord(ev[2], stream));
        /* 3. sort each window by bucket */
        for (unsigned w = 0; w < W; w++) {
            cub::DoubleBuffer<uint32_t> kb(keys + (size_t)w * m, keys_alt), vb(vals + (size_t)w * m, vals_alt);
            size_t tb = L.cub_bytes;
            CZK_CU_CHECK(cub::DeviceRadixSort::SortPairs(scr + L.cub_tmp, tb, kb, vb, (int64_t)m, 0, (int)c,
                                                         stream));
            if (kb.Current() != keys + (size_t)w * m)
                CZK_CU_CHECK(cudaMemcpyAsync(keys + (size_t)w * m, kb.Current(), (size_t)m * 4,
                                             cudaMemcpyDeviceToDevice, stream));
            if (vb.Current() != vals + (size_t)w * m)
                CZK_CU_CHECK(cudaMemcpyAsync(vals + (size_t)w * m, vb.Current(), (size_t)m * 4,
                                             cudaMemcpyDeviceToDevice, stream));
        }
        CZK_CU_CHECK(cudaEventRecord(ev[3], stream));
        /* 4. accumulate */
        CZK_CU_CHECK(cudaMemsetAsync(buckets, 0, (size_t)W * M * sizeof(pt), stream)); /* ZZ = 0: inf */
        uint32_t *pid = (uint32_t *)(scr + L.part_id[0]);
        pt *part = (pt *)(scr + L.part[0]);
        size_t threads; /* threads (xyzz) or lanes (affine) of the first pass: 2 partials each */
        stats.acc = plan.acc;
        if (stats.acc == CZK_MSM_ACC_TREE) {
            unsigned tl = 0, tg = 0;
            st = tree_accumulate<G>(stream, L, scr, keys, vals, m, W, (uint32_t)M, bases, buckets, sms, plan.tree_b,
                                    &tl, &tg, err, errlen);
            if (st != CZK_OK)
                goto out;
            stats.chunk = plan.tree_b;
            stats.lanes = tg;
            threads = 1; /* no partial sums */
            stats.levels = tl;
        } else if (stats.acc == CZK_MSM_ACC_AFFINE) {
            ba_plan bp = plan_affine(total, sms);
            ba_args a;
            a.keys = keys;
            a.vals = vals;
            a.m = m;
            a.M = (uint32_t)M;
            a.B = bp.B;
            a.L = bp.L;
            a.total = total;
            a.T = bp.T;
            a.inv_m = 1.0 / (double)m;
            a.bases = bases;
            a.part_id = pid;
            a.aid = (uint32_t *)(scr + L.aid);
            a.ax = (uint4 *)(scr + L.ax);
            a.ay = (uint4 *)(scr + L.ay);
            a.pre = (uint4 *)(scr + L.pre);
            if (2 * bp.G > L.p1 || bp.G > L.lanes) { /* forced after the scratch was planned */
                st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: %zu lanes out of plan", bp.G);
                goto out;
            }
            stats.chunk = bp.L;
            stats.lanes = bp.B;
            threads = bp.G;
            CZK_CU_LAUNCH(accumulate_affine<G><<<(unsigned)((bp.T + BLOCK - 1) / BLOCK), BLOCK, 0, stream>>>(
                a, buckets, part));
        } else {
            threads = first_threads(total, sms);
            const uint32_t chunk = (uint32_t)((total + threads - 1) / threads);
            threads = (total + chunk - 1) / chunk;
            stats.chunk = chunk;
            const unsigned nb = (unsigned)((threads + BLOCK - 1) / BLOCK);
            CZK_CU_LAUNCH(accumulate_first<G, acc_kind<G>()><<<nb, BLOCK, 0, stream>>>(
                keys, vals, m, total, chunk, (uint32_t)M, bases, buckets, pid, part));
        }
        size_t bound = 2 * threads; /* entries of the partial list */
        unsigned level = 1;
        uint32_t *sel = (uint32_t *)(scr + L.sel), *flags = (uint32_t *)(scr + L.flags),
                 *fpos = (uint32_t *)(scr + L.fpos);
        while (threads > 1) {
            if (level > MAX_LEVELS || bound > L.p1) {
                st = czk_errf(CZK_ERR_INTERNAL, err, errlen, "cuda msm: accumulation pass %u out of plan",
                              level);
                goto out;
            }
            size_t tb = L.cub_bytes;
            unsigned fb = (unsigned)((bound + 255) / 256);
            CZK_CU_LAUNCH(flag_kernel<<<fb, 256, 0, stream>>>(pid, bound, flags));
            CZK_CU_CHECK(cub::DeviceScan::ExclusiveSum(scr + L.cub_tmp, tb, flags, fpos, (int64_t)bound, stream));
            CZK_CU_LAUNCH(scatter_kernel<<<fb, 256, 0, stream>>>(pid, fpos, bound, sel, nsel + level));
            size_t nthreads = (bound + NEXT_CHUNK - 1) / NEXT_CHUNK;
            uint32_t *pid2 = (uint32_t *)(scr + L.part_id[level & 1]);
            pt *part2 = (pt *)(scr + L.part[level & 1]);
            CZK_CU_CHECK(cudaMemsetAsync(pid2, 0xff, 2 * nthreads * 4, stream));
            CZK_CU_LAUNCH(accumulate_next<G><<<(unsigned)((nthreads + BLOCK - 1) / BLOCK), BLOCK, 0, stream>>>(
                sel, nsel + level, pid, part, NEXT_CHUNK, buckets, pid2, part2));
            pid = pid2;
            part = part2;
            bound = 2 * nthreads;
            threads = nthreads;
            level++;
        }
        if (stats.acc != CZK_MSM_ACC_TREE)
            stats.levels = level;
        CZK_CU_CHECK(cudaEventRecord(ev[4], stream));
        /* 5. reduce */
        red_level<G> lv[RED_MAX_LEVELS];
        const unsigned nl = reduce_levels<G>(reduce_plan(W, (uint32_t)M, sms), W, (uint32_t)M, buckets,
                                             (pt *)(scr + L.V), (pt *)(scr + L.V2), (pt *)(scr + L.S), lv);
        for (unsigned l = 0; l < nl; l++)
            CZK_CU_LAUNCH(reduce_level<G><<<(unsigned)((lv[l].threads + BLOCK - 1) / BLOCK), BLOCK, 0, stream>>>(lv[l]));
        CZK_CU_CHECK(cudaEventRecord(ev[5], stream));
    } else {
        for (int i = 2; i < 6; i++)
            CZK_CU_CHECK(cudaEventRecord(ev[i], stream));
    }
    {
        /* 6. combine */
        uint64_t *d_out = (uint64_t *)(scr + L.out);
        pt *ones_sum = (pt *)(scr + L.ones) + ones_blocks;
        CZK_CU_LAUNCH(combine_kernel<G><<<1, team::SIZE, 0, stream>>>((pt *)(scr + L.S), W, c, ones_sum, n_ones != 0,
                                                            d_out));
        CZK_CU_CHECK(cudaMemcpyAsync(jac, d_out, sizeof jac, cudaMemcpyDeviceToHost, stream));
        CZK_CU_CHECK(cudaEventRecord(ev[6], stream));
        CZK_CU_CHECK(cudaStreamSynchronize(stream));
        memcpy(host_out, jac, sizeof jac);
        for (int i = 0; i < 6; i++)
            CZK_CU_CHECK(cudaEventElapsedTime(&stats.stage_ms[i], ev[i], ev[i + 1]));
    }
    stats.n_general = m;
    stats.n_ones = (size_t)n_ones;
    last_stats = stats;
out:
    for (int i = 0; i < 7; i++)
        if (ev[i])
            (void)cudaEventDestroy(ev[i]);
    if (own && scr) {
        cudaError_t e = cudaFreeAsync(scr, stream);
        if (e != cudaSuccess && st == CZK_OK)
            st = cuda_fail(e, "cudaFreeAsync(scr, stream)", __FILE__, __LINE__, err, errlen);
        if (st != CZK_OK)
            (void)cudaStreamSynchronize(stream);
    }
    return st;
}

} /* namespace */

#endif /* CZK_CUDA_MSM_IMPL_CUH */
