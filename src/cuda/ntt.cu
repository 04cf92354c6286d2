/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: number-theoretic transforms over BN254 and BLS12-381 Fr, the definition of
 * src/ntt/ntt.h (natural order in and out, forward A_i = sum a_j w^ij, inverse with n^-1,
 * optional coset shift: forward multiplies a_j by shift^j first, inverse multiplies the
 * result by shift^-j), bit for bit equal to the CPU NTT.
 *
 * Algorithm: radix-2 decimation in time on bit-reversed input.
 *  - n <= 2^11: one block does everything in shared memory: gather in bit-reversed order
 *    (times shift^i), all stages, scaled store (n^-1 shift^-j).
 *  - larger n: an in-place bit-reversal swap kernel (times shift^i), then passes of up to
 *    11 stages each, every pass one read and one write of the data: a block loads 2^(k+c)
 *    elements (2^k rows of the pass's stage span, 2^c consecutive columns so global accesses
 *    come in runs), runs k stages in shared memory and stores; the last pass applies the
 *    inverse's scale. 2^27 = passes of 9 + 9 + 9 stages (4 global passes with the swap).
 * Shared memory holds elements limb-major (8 planes of 32-bit words, padded one word every
 * 32) so a warp's butterflies hit distinct banks.
 * Twiddles: T[k] = w^k, k < 2^(Lt-1), built on the device once per (curve, convention, Lt)
 * and cached per device; a transform of size 2^L <= 2^Lt reads T with stride 2^(Lt-L)
 * (checked: w_L = w_Lt^(2^(Lt-L)) for the convention), the inverse's w^-k = -T[2^(Lt-1) - k].
 * Coset and scale factors f(j) = scale * base^j come from two small power tables,
 * f(j) = lo[j mod 2^a] * hi[j >> a], cached per device as well.
 * Multiplies per transform: (n/2)(L-1) butterflies (stage 0 has only w = 1) plus 2n for a
 * shift, 1n for n^-1 alone (czk_cuda_ntt_mul_count).
 * Threading and ownership: see cuda_internal.h; the caches are filled under the device lock
 * and their tables are never freed while the process runs.
 */
#include <string.h>

#include "cuda/cuda_bench.h"
#include "cuda/cuda_internal.h"
#include "cuda/ff.cuh"

using czk_cuda::fr_bls12_381;
using czk_cuda::fr_bn254;

namespace {

#define LG_SMALL 11u   /* one-block transform up to 2^11 */
#define LG_BLOCK 11u   /* elements per pass block: 2^(k+c) <= 2^11 */
#define LG_COLS 2u     /* 2^c consecutive columns per block in later passes */
#define NTT_THREADS 256u
#define TW_MIN_LG 16u   /* smallest cached twiddle table: 2^15 entries */

template <class F> __device__ __forceinline__ F gld(const uint4 *p, size_t i)
{
    uint4 a = p[2 * i], b = p[2 * i + 1];
    F r;
    r.limb[0] = a.x, r.limb[1] = a.y, r.limb[2] = a.z, r.limb[3] = a.w;
    r.limb[4] = b.x, r.limb[5] = b.y, r.limb[6] = b.z, r.limb[7] = b.w;
    return r;
}

template <class F> __device__ __forceinline__ void gst(uint4 *p, size_t i, const F &x)
{
    p[2 * i] = make_uint4(x.limb[0], x.limb[1], x.limb[2], x.limb[3]);
    p[2 * i + 1] = make_uint4(x.limb[4], x.limb[5], x.limb[6], x.limb[7]);
}

__device__ __forceinline__ unsigned pad(unsigned e) { return e + (e >> 5); }

template <class F> __device__ __forceinline__ F sld(const uint32_t *sm, unsigned S, unsigned e)
{
    F r;
    unsigned q = pad(e);
#pragma unroll
    for (int l = 0; l < 8; l++)
        r.limb[l] = sm[l * S + q];
    return r;
}

template <class F>
__device__ __forceinline__ void sst(uint32_t *sm, unsigned S, unsigned e, const F &x)
{
    unsigned q = pad(e);
#pragma unroll
    for (int l = 0; l < 8; l++)
        sm[l * S + q] = x.limb[l];
}

/* f(j) = scale * base^j, or the constant lo[0] */
struct powtab {
    const uint4 *lo, *hi;
    unsigned lo_bits;
    int konst;
};

template <class F> __device__ __forceinline__ F pw(const powtab &t, uint64_t j)
{
    F a = gld<F>(t.lo, t.konst ? 0 : (size_t)(j & ((1ull << t.lo_bits) - 1)));
    if (t.konst)
        return a;
    return F::mul(a, gld<F>(t.hi, (size_t)(j >> t.lo_bits)));
}

struct ntt_params {
    const uint4 *tw; /* T[k] = w_Lt^k, k < 2^(Lt-1) */
    unsigned Lt, L;
    int inverse;
    int has_pre, has_post;
    powtab pre, post;
};

/* w_(2^(s+1))^t for the transform: index x = t << (Lt - 1 - s) into T */
template <class F> __device__ __forceinline__ F twiddle(const ntt_params &p, uint64_t x)
{
    if (!p.inverse)
        return gld<F>(p.tw, (size_t)x);
    if (x == 0)
        return F::one();
    return F::neg(gld<F>(p.tw, (size_t)((1ull << (p.Lt - 1)) - x)));
}

template <class F>
__device__ __forceinline__ void bfly(uint32_t *sm, unsigned S, unsigned ie, unsigned je, const F &w,
                                     bool trivial)
{
    F u = sld<F>(sm, S, ie), v = sld<F>(sm, S, je);
    if (!trivial)
        v = F::mul(v, w);
    sst(sm, S, ie, F::add(u, v));
    sst(sm, S, je, F::sub(u, v));
}

template <class F>
__global__ void __launch_bounds__(NTT_THREADS, 2) ntt_small(uint4 *data, ntt_params p)
{
    extern __shared__ uint32_t sm[];
    const unsigned L = p.L, n = 1u << L, S = n + (n >> 5) + 1;
    for (unsigned e = threadIdx.x; e < n; e += blockDim.x) {
        unsigned i = __brev(e) >> (32 - L);
        F x = gld<F>(data, i);
        if (p.has_pre)
            x = F::mul(x, pw<F>(p.pre, i));
        sst(sm, S, e, x);
    }
    __syncthreads();
    for (unsigned s = 0; s < L; s++) {
        const unsigned h = 1u << s;
        for (unsigned q = threadIdx.x; q < n / 2; q += blockDim.x) {
            unsigned t = q & (h - 1), ie = ((q >> s) << (s + 1)) | t;
            F w = s ? twiddle<F>(p, (uint64_t)t << (p.Lt - 1 - s)) : F::one();
            bfly<F>(sm, S, ie, ie + h, w, s == 0);
        }
        __syncthreads();
    }
    for (unsigned e = threadIdx.x; e < n; e += blockDim.x) {
        F x = sld<F>(sm, S, e);
        if (p.has_post)
            x = F::mul(x, pw<F>(p.post, e));
        gst(data, e, x);
    }
}

/* In place: x'[bitrev(i)] = x[i] * pre(i). */
template <class F> __global__ void ntt_bitrev(uint4 *data, ntt_params p)
{
    const uint64_t n = 1ull << p.L;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t j = __brevll(i) >> (64 - p.L);
        if (i < j) {
            F a = gld<F>(data, (size_t)i), b = gld<F>(data, (size_t)j);
            if (p.has_pre) {
                a = F::mul(a, pw<F>(p.pre, i));
                b = F::mul(b, pw<F>(p.pre, j));
            }
            gst(data, (size_t)j, a);
            gst(data, (size_t)i, b);
        } else if (i == j && p.has_pre) {
            gst(data, (size_t)i, F::mul(gld<F>(data, (size_t)i), pw<F>(p.pre, i)));
        }
    }
}

/* Stages s0 .. s0+k-1 over blocks of 2^k rows (stride 2^s0) x 2^c consecutive columns. */
template <class F>
__global__ void __launch_bounds__(NTT_THREADS, 2)
    ntt_pass(uint4 *data, ntt_params p, unsigned s0, unsigned k, unsigned c, int last)
{
    extern __shared__ uint32_t sm[];
    const unsigned E = 1u << (k + c), S = E + (E >> 5) + 1, C = 1u << c;
    const uint64_t blk = blockIdx.x;
    const unsigned gbits = s0 - c;
    const uint64_t lgp = blk & ((1ull << gbits) - 1), hi = blk >> gbits;
    const uint64_t base = (hi << (s0 + k)) | (lgp << c);
    for (unsigned e = threadIdx.x; e < E; e += blockDim.x) {
        uint64_t g = base | ((uint64_t)(e >> c) << s0) | (e & (C - 1));
        sst(sm, S, e, gld<F>(data, (size_t)g));
    }
    __syncthreads();
    for (unsigned ls = 0; ls < k; ls++) {
        const unsigned s = s0 + ls, hm = 1u << ls;
        for (unsigned q = threadIdx.x; q < E / 2; q += blockDim.x) {
            unsigned col = q & (C - 1), r = q >> c;
            unsigned m = ((r >> ls) << (ls + 1)) | (r & (hm - 1));
            unsigned ie = (m << c) | col, je = ie + (hm << c);
            uint64_t t = ((uint64_t)(m & (hm - 1)) << s0) | (lgp << c) | col; /* i mod 2^s */
            F w = s ? twiddle<F>(p, t << (p.Lt - 1 - s)) : F::one();
            bfly<F>(sm, S, ie, je, w, s == 0);
        }
        __syncthreads();
    }
    for (unsigned e = threadIdx.x; e < E; e += blockDim.x) {
        uint64_t g = base | ((uint64_t)(e >> c) << s0) | (e & (C - 1));
        F x = sld<F>(sm, S, e);
        if (last && p.has_post)
            x = F::mul(x, pw<F>(p.post, g));
        gst(data, (size_t)g, x);
    }
}

/* T[k] = w^k for k < half, 64 consecutive per thread. */
template <class F> __global__ void build_twiddles(uint4 *T, uint64_t half, F w)
{
    uint64_t k0 = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * 64;
    if (k0 >= half)
        return;
    F x = F::pow(w, (uint32_t)k0);
    uint64_t end = k0 + 64 < half ? k0 + 64 : half;
    for (uint64_t k = k0; k < end; k++) {
        gst(T, (size_t)k, x);
        x = F::mul(x, w);
    }
}

/* lo[t] = scale*base^t (t < nlo), hi[t] = B^t (t < nhi), B = base^nlo */
template <class F> __global__ void build_pow(uint4 *lo, uint4 *hi, F base, F scale, unsigned nlo,
                                             unsigned nhi)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nlo)
        gst(lo, t, F::mul(scale, F::pow(base, t)));
    if (t < nhi)
        gst(hi, t, F::pow(F::pow(base, nlo), t));
}

/* Ceiling: independent chains of multiplications. */
template <class F> __global__ void mul_rate(uint4 *out, unsigned iters, F y)
{
    uint64_t tid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    F a = y, b = y, c2 = y, d = y;
    a.limb[0] ^= (uint32_t)tid;
    b.limb[1] ^= (uint32_t)tid;
    c2.limb[2] ^= (uint32_t)tid;
    d.limb[3] ^= (uint32_t)tid;
    for (unsigned i = 0; i < iters; i++) {
        a = F::mul(a, y);
        b = F::mul(b, y);
        c2 = F::mul(c2, y);
        d = F::mul(d, y);
    }
    F s = F::add(F::add(a, b), F::add(c2, d));
    if (F::is_zero(s))
        gst(out, (size_t)tid, s); /* practically never: keeps the chains alive */
}

/* Random elements < r: 256 hashed bits, top bits masked below 2r, one conditional subtract. */
__device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <class F> __global__ void fill_random(uint4 *out, size_t n, uint64_t seed, unsigned topbits)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        F x;
#pragma unroll
        for (int l = 0; l < 4; l++) {
            uint64_t v = mix64(seed ^ mix64(i * 4 + l + 1));
            x.limb[2 * l] = (uint32_t)v;
            x.limb[2 * l + 1] = (uint32_t)(v >> 32);
        }
        x.limb[7] &= (1u << topbits) - 1;
        F::final_sub(x.limb);
        gst(out, i, x);
    }
}

/* ---- host side ---------------------------------------------------------------------------- */

struct host_fr {
    enum czk_groth16_curve curve;
    void mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) const
    {
        if (curve == CZK_GROTH16_CURVE_BN254) {
            struct czk_fr_bn254 x, y, z;
            memcpy(x.l, a, 32), memcpy(y.l, b, 32);
            czk_fr_bn254_mul(&z, &x, &y);
            memcpy(r, z.l, 32);
        } else {
            struct czk_fr_bls12_381 x, y, z;
            memcpy(x.l, a, 32), memcpy(y.l, b, 32);
            czk_fr_bls12_381_mul(&z, &x, &y);
            memcpy(r, z.l, 32);
        }
    }
    void inv(uint64_t r[4], const uint64_t a[4]) const
    {
        if (curve == CZK_GROTH16_CURVE_BN254) {
            struct czk_fr_bn254 x, z;
            memcpy(x.l, a, 32);
            czk_fr_bn254_inv_vartime(&z, &x);
            memcpy(r, z.l, 32);
        } else {
            struct czk_fr_bls12_381 x, z;
            memcpy(x.l, a, 32);
            czk_fr_bls12_381_inv_vartime(&z, &x);
            memcpy(r, z.l, 32);
        }
    }
    void from_u64(uint64_t r[4], uint64_t v) const
    {
        if (curve == CZK_GROTH16_CURVE_BN254) {
            struct czk_fr_bn254 z;
            czk_fr_bn254_from_u64(&z, v);
            memcpy(r, z.l, 32);
        } else {
            struct czk_fr_bls12_381 z;
            czk_fr_bls12_381_from_u64(&z, v);
            memcpy(r, z.l, 32);
        }
    }
    void one(uint64_t r[4]) const { from_u64(r, 1); }
    enum czk_status root(uint64_t r[4], unsigned lg, enum czk_ntt_convention conv) const
    {
        enum czk_status st;
        if (curve == CZK_GROTH16_CURVE_BN254) {
            struct czk_fr_bn254 z;
            st = czk_fr_bn254_root_of_unity(&z, lg, conv);
            memcpy(r, z.l, 32);
        } else {
            struct czk_fr_bls12_381 z;
            st = czk_fr_bls12_381_root_of_unity(&z, lg, conv);
            memcpy(r, z.l, 32);
        }
        return st;
    }
};

template <class F> F from_host(const uint64_t v[4])
{
    F r;
    r.load(v);
    return r;
}

/* A twiddle table usable for 2^L (device lock held by the caller for the lookup). */
enum czk_status get_twiddles(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                             enum czk_ntt_convention conv, unsigned L, const uint4 **tw,
                             unsigned *Lt)
{
    struct czk_cuda_device *d = x->d;
    host_fr hf = {curve};
    uint64_t wL[4];
    enum czk_status st = hf.root(wL, L, conv);
    if (st != CZK_OK)
        return czk_errf(st, x->err, sizeof x->err, "ntt: no 2^%u-th root of unity", L);
    pthread_mutex_lock(&d->lock);
    const struct czk_cuda_tw *best = NULL;
    for (unsigned i = 0; i < d->n_tw; i++) {
        const struct czk_cuda_tw *e = &d->tw[i];
        if (e->curve != (int)curve || e->conv != (int)conv || e->lg < L)
            continue;
        if (best && best->lg <= e->lg)
            continue;
        uint64_t w[4];
        hf.root(w, e->lg, conv);
        for (unsigned k = e->lg; k > L; k--)
            hf.mul(w, w, w);
        if (!memcmp(w, wL, 32))
            best = e;
    }
    if (best) {
        *tw = (const uint4 *)best->d;
        *Lt = best->lg;
        pthread_mutex_unlock(&d->lock);
        return CZK_OK;
    }
    if (d->n_tw == CZK_CUDA_TW_CACHE) {
        pthread_mutex_unlock(&d->lock);
        return czk_errf(CZK_ERR_DEVICE, x->err, sizeof x->err, "%s: twiddle cache full", d->name);
    }
    /* Small sizes share one 2^TW_MIN_LG table (1 MiB), so the cache holds at most one table
     * per size from 2^16 up for each (curve, convention). */
    unsigned Lb = L;
    if (L < TW_MIN_LG) {
        uint64_t wb[4];
        if (hf.root(wb, TW_MIN_LG, conv) == CZK_OK) {
            for (unsigned k = TW_MIN_LG; k > L; k--)
                hf.mul(wb, wb, wb);
            if (!memcmp(wb, wL, 32)) {
                Lb = TW_MIN_LG;
                hf.root(wL, Lb, conv);
            }
        }
    }
    uint64_t half = 1ull << (Lb - 1);
    void *p = NULL;
    st = czk_cuda_dev_alloc(d, half * 32, &p, x->err, sizeof x->err);
    if (st == CZK_OK) {
        unsigned blocks = (unsigned)((half + 64 * 256 - 1) / (64 * 256));
        if (curve == CZK_GROTH16_CURVE_BN254)
            build_twiddles<fr_bn254><<<blocks, 256, 0, x->stream>>>((uint4 *)p, half,
                                                                    from_host<fr_bn254>(wL));
        else
            build_twiddles<fr_bls12_381><<<blocks, 256, 0, x->stream>>>(
                (uint4 *)p, half, from_host<fr_bls12_381>(wL));
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(x->stream);
        if (e != cudaSuccess) {
            st = czk_cuda_fail(e, "cudaStreamSynchronize(build_twiddles)", __FILE__, __LINE__,
                               x->err, sizeof x->err);
            czk_cuda_dev_free(d, p);
        } else {
            struct czk_cuda_tw *n = &d->tw[d->n_tw];
            n->curve = (int)curve, n->conv = (int)conv, n->lg = Lb, n->d = p;
            d->n_tw++; /* published: immutable from here */
            *tw = (const uint4 *)p;
            *Lt = Lb;
        }
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

/* The power table of scale*base^j for j < 2^L (konst: the constant `scale`). */
enum czk_status get_pow(struct czk_cuda_ctx *x, enum czk_groth16_curve curve, unsigned L,
                        const uint64_t base[4], const uint64_t scale[4], bool konst, powtab *out)
{
    struct czk_cuda_device *d = x->d;
    unsigned lo_bits = konst ? 0 : (L + 1) / 2, hi_bits = konst ? 0 : L - lo_bits;
    uint64_t b[4];
    if (konst)
        host_fr{curve}.one(b);
    else
        memcpy(b, base, 32);
    pthread_mutex_lock(&d->lock);
    for (unsigned i = 0; i < d->n_pw; i++) {
        const struct czk_cuda_pow *e = &d->pw[i];
        if (e->curve == (int)curve && e->lg == (konst ? 0u : L) && e->lo_bits == lo_bits &&
            !memcmp(e->base, b, 32) && !memcmp(e->scale, scale, 32)) {
            out->lo = (const uint4 *)e->d;
            out->hi = (const uint4 *)e->d + 2 * ((size_t)1 << lo_bits);
            out->lo_bits = lo_bits;
            out->konst = konst;
            pthread_mutex_unlock(&d->lock);
            return CZK_OK;
        }
    }
    unsigned nlo = 1u << lo_bits, nhi = 1u << hi_bits;
    void *p = NULL;
    enum czk_status st = CZK_OK;
    /* A full cache recycles slots round robin; a recycled table may be in use by another
     * stream, so old tables are never freed, only forgotten (they are small: <= 3 MiB). */
    st = czk_cuda_dev_alloc(d, (size_t)(nlo + nhi) * 32, &p, x->err, sizeof x->err);
    if (st == CZK_OK) {
        unsigned n = nlo > nhi ? nlo : nhi;
        if (curve == CZK_GROTH16_CURVE_BN254)
            build_pow<fr_bn254><<<(n + 255) / 256, 256, 0, x->stream>>>(
                (uint4 *)p, (uint4 *)p + 2 * (size_t)nlo, from_host<fr_bn254>(b),
                from_host<fr_bn254>(scale), nlo, nhi);
        else
            build_pow<fr_bls12_381><<<(n + 255) / 256, 256, 0, x->stream>>>(
                (uint4 *)p, (uint4 *)p + 2 * (size_t)nlo, from_host<fr_bls12_381>(b),
                from_host<fr_bls12_381>(scale), nlo, nhi);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(x->stream);
        if (e != cudaSuccess) {
            st = czk_cuda_fail(e, "cudaStreamSynchronize(build_pow)", __FILE__, __LINE__, x->err,
                               sizeof x->err);
            czk_cuda_dev_free(d, p);
        } else {
            unsigned slot;
            if (d->n_pw < CZK_CUDA_POW_CACHE) {
                slot = d->n_pw++;
            } else {
                slot = d->next_pw;
                d->next_pw = (d->next_pw + 1) % CZK_CUDA_POW_CACHE;
            }
            struct czk_cuda_pow *n = &d->pw[slot];
            n->curve = (int)curve, n->lg = konst ? 0u : L, n->lo_bits = lo_bits, n->d = p;
            memcpy(n->base, b, 32), memcpy(n->scale, scale, 32);
            out->lo = (const uint4 *)p;
            out->hi = (const uint4 *)p + 2 * (size_t)nlo;
            out->lo_bits = lo_bits;
            out->konst = konst;
        }
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

template <class F> enum czk_status run(struct czk_cuda_ctx *x, uint4 *data, const ntt_params &p)
{
    const unsigned L = p.L;
    if (L <= LG_SMALL) {
        unsigned n = 1u << L, S = n + (n >> 5) + 1;
        size_t shm = (size_t)8 * S * 4;
        unsigned thr = n / 2 < NTT_THREADS ? (n / 2 ? n / 2 : 1) : NTT_THREADS;
        CZK_CUDA_TRY(cudaFuncSetAttribute(ntt_small<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)shm),
                     x->err, sizeof x->err);
        ntt_small<F><<<1, thr, shm, x->stream>>>(data, p);
        CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
        return CZK_OK;
    }
    const uint64_t n = 1ull << L;
    ntt_bitrev<F><<<czk_cuda_grid(n, 256, 65535u * 4), 256, 0, x->stream>>>(data, p);
    CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    /* passes: first up to LG_BLOCK stages (contiguous), later ones LG_BLOCK - LG_COLS */
    const unsigned kf = LG_BLOCK, kl = LG_BLOCK - LG_COLS;
    unsigned P = 1;
    while (kf + kl * (P - 1) < L)
        P++;
    unsigned ks[8];
    unsigned left = L;
    for (unsigned i = 0; i < P; i++) {
        unsigned share = (left + (P - i) - 1) / (P - i); /* even split of what is left */
        unsigned cap = i == 0 ? kf : kl;
        if (i == 0 && left - share > kl * (P - 1))
            share = left - kl * (P - 1);
        ks[i] = share < cap ? share : cap;
        left -= ks[i];
    }
    unsigned s0 = 0;
    for (unsigned i = 0; i < P; i++) {
        unsigned k = ks[i], c = i == 0 ? 0u : (s0 < LG_COLS ? s0 : LG_COLS);
        unsigned E = 1u << (k + c), S = E + (E >> 5) + 1;
        size_t shm = (size_t)8 * S * 4;
        uint64_t blocks = n >> (k + c);
        unsigned thr = E / 2 < NTT_THREADS ? E / 2 : NTT_THREADS;
        CZK_CUDA_TRY(cudaFuncSetAttribute(ntt_pass<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)shm),
                     x->err, sizeof x->err);
        ntt_pass<F><<<(unsigned)blocks, thr, shm, x->stream>>>(data, p, s0, k, c, i + 1 == P);
        CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
        s0 += k;
    }
    return CZK_OK;
}

} /* namespace */

double czk_cuda_ntt_mul_count(unsigned lg_n, enum czk_backend_dir dir, bool shift)
{
    double n = (double)(1ull << lg_n);
    if (lg_n == 0)
        return 0;
    double m = n / 2 * (lg_n - 1);
    if (shift)
        m += 2 * n;
    else if (dir == CZK_BACKEND_INVERSE)
        m += n;
    return m;
}

size_t czk_cuda_ntt_cache_bytes(unsigned lg_n) { return lg_n ? (size_t)16 << lg_n : 0; }

enum czk_status czk_cuda_ntt_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve, void *data,
                                 unsigned lg_n, enum czk_backend_dir dir,
                                 enum czk_ntt_convention conv, const uint64_t shift[4])
{
    if (lg_n == 0)
        return CZK_OK; /* n = 1: w = 1, n^-1 = 1, shift^0 = 1 */
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    host_fr hf = {curve};
    ntt_params p;
    memset(&p, 0, sizeof p);
    p.L = lg_n;
    p.inverse = dir == CZK_BACKEND_INVERSE;
    if ((st = get_twiddles(x, curve, conv, lg_n, &p.tw, &p.Lt)) != CZK_OK) {
        czk_log(CZK_LOG_ERROR, "cuda", "%s: ntt 2^%u: %s", x->d->name, lg_n, x->err);
        return st;
    }
    uint64_t one[4];
    hf.one(one);
    if (!p.inverse && shift) {
        if ((st = get_pow(x, curve, lg_n, shift, one, false, &p.pre)) != CZK_OK)
            return st;
        p.has_pre = 1;
    } else if (p.inverse) {
        uint64_t ninv[4];
        hf.from_u64(ninv, 1ull << lg_n);
        hf.inv(ninv, ninv);
        if (shift) {
            uint64_t sinv[4];
            hf.inv(sinv, shift);
            st = get_pow(x, curve, lg_n, sinv, ninv, false, &p.post);
        } else {
            st = get_pow(x, curve, lg_n, one, ninv, true, &p.post);
        }
        if (st != CZK_OK) {
            czk_log(CZK_LOG_ERROR, "cuda", "%s: ntt 2^%u: %s", x->d->name, lg_n, x->err);
            return st;
        }
        p.has_post = 1;
    }
    st = curve == CZK_GROTH16_CURVE_BN254 ? run<fr_bn254>(x, (uint4 *)data, p)
                                          : run<fr_bls12_381>(x, (uint4 *)data, p);
    return st;
}

/* ---- bench helpers ---------------------------------------------------------------------------- */

static unsigned top_bits(enum czk_groth16_curve curve)
{
    /* bits of r's top 32-bit word: 2^bits < 2r so one subtraction reduces */
    return curve == CZK_GROTH16_CURVE_BN254 ? 30u : 31u;
}

enum czk_status czk_cuda_fill_random(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t buf,
                                     size_t n, uint64_t seed)
{
    if (!czk_cuda_is_backend(be) || !buf || czk_buf_size(buf) < n * 32)
        return CZK_ERR_INVALID_ARG;
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK || n == 0)
        return st;
    unsigned g = czk_cuda_grid(n, 256, 65535u * 8);
    if (curve == CZK_GROTH16_CURVE_BN254)
        fill_random<fr_bn254><<<g, 256, 0, x->stream>>>((uint4 *)buf->ptr, n, seed, top_bits(curve));
    else
        fill_random<fr_bls12_381><<<g, 256, 0, x->stream>>>((uint4 *)buf->ptr, n, seed,
                                                            top_bits(curve));
    CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    CZK_CUDA_TRY(cudaStreamSynchronize(x->stream), x->err, sizeof x->err);
    return CZK_OK;
}

enum czk_status czk_cuda_bench_ntt(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t buf,
                                   unsigned lg_n, enum czk_backend_dir dir,
                                   enum czk_ntt_convention conv, const uint64_t shift[4],
                                   unsigned reps, double *ms, double *muls)
{
    if (!czk_cuda_is_backend(be) || !buf || czk_buf_size(buf) < ((size_t)32 << lg_n) || !ms)
        return CZK_ERR_INVALID_ARG;
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    cudaEvent_t e0 = NULL, e1 = NULL;
    CZK_CUDA_GOTO(st, cudaEventCreate(&e0), out, x->err, sizeof x->err);
    CZK_CUDA_GOTO(st, cudaEventCreate(&e1), out, x->err, sizeof x->err);
    /* warm-up: builds and caches the tables */
    if ((st = czk_cuda_ntt_run(x, curve, buf->ptr, lg_n, dir, conv, shift)) != CZK_OK)
        goto out;
    for (unsigned r = 0; r < reps; r++) {
        CZK_CUDA_GOTO(st, cudaEventRecord(e0, x->stream), out, x->err, sizeof x->err);
        if ((st = czk_cuda_ntt_run(x, curve, buf->ptr, lg_n, dir, conv, shift)) != CZK_OK)
            goto out;
        CZK_CUDA_GOTO(st, cudaEventRecord(e1, x->stream), out, x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaEventSynchronize(e1), out, x->err, sizeof x->err);
        float f = 0;
        CZK_CUDA_GOTO(st, cudaEventElapsedTime(&f, e0, e1), out, x->err, sizeof x->err);
        ms[r] = f;
    }
    if (muls)
        *muls = czk_cuda_ntt_mul_count(lg_n, dir, shift != NULL);
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    return st;
}

enum czk_status czk_cuda_bench_copy(czk_backend_t be, size_t bytes, double *gbps)
{
    if (!czk_cuda_is_backend(be) || !gbps || bytes == 0)
        return CZK_ERR_INVALID_ARG;
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    void *a = NULL, *b = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float best = 0;
    if ((st = czk_cuda_dev_alloc(x->d, bytes, &a, x->err, sizeof x->err)) != CZK_OK ||
        (st = czk_cuda_dev_alloc(x->d, bytes, &b, x->err, sizeof x->err)) != CZK_OK)
        goto out;
    CZK_CUDA_GOTO(st, cudaEventCreate(&e0), out, x->err, sizeof x->err);
    CZK_CUDA_GOTO(st, cudaEventCreate(&e1), out, x->err, sizeof x->err);
    CZK_CUDA_GOTO(st, cudaMemsetAsync(a, 0x5a, bytes, x->stream), out, x->err, sizeof x->err);
    for (int r = 0; r < 6; r++) {
        CZK_CUDA_GOTO(st, cudaEventRecord(e0, x->stream), out, x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, x->stream), out,
                      x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaEventRecord(e1, x->stream), out, x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaEventSynchronize(e1), out, x->err, sizeof x->err);
        float f = 0;
        CZK_CUDA_GOTO(st, cudaEventElapsedTime(&f, e0, e1), out, x->err, sizeof x->err);
        if (r > 0 && (best == 0 || f < best))
            best = f;
    }
    *gbps = best > 0 ? 2.0 * (double)bytes / (best * 1e-3) / 1e9 : 0;
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    czk_cuda_dev_free(x->d, a);
    czk_cuda_dev_free(x->d, b);
    return st;
}

enum czk_status czk_cuda_bench_fr_mul(czk_backend_t be, enum czk_groth16_curve curve,
                                      double *muls_per_s)
{
    if (!czk_cuda_is_backend(be) || !muls_per_s)
        return CZK_ERR_INVALID_ARG;
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    const unsigned threads = 256, blocks = x->d->sms * 8, iters = 2048;
    void *out = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float best = 0;
    uint64_t y[4] = {0x1234567890abcdefull, 0x0fedcba987654321ull, 0x1111222233334444ull,
                     0x0123456789abcdefull};
    if ((st = czk_cuda_dev_alloc(x->d, (size_t)threads * blocks * 32, &out, x->err,
                                 sizeof x->err)) != CZK_OK)
        goto out;
    CZK_CUDA_GOTO(st, cudaEventCreate(&e0), out, x->err, sizeof x->err);
    CZK_CUDA_GOTO(st, cudaEventCreate(&e1), out, x->err, sizeof x->err);
    for (int r = 0; r < 4; r++) {
        CZK_CUDA_GOTO(st, cudaEventRecord(e0, x->stream), out, x->err, sizeof x->err);
        if (curve == CZK_GROTH16_CURVE_BN254)
            mul_rate<fr_bn254><<<blocks, threads, 0, x->stream>>>((uint4 *)out, iters,
                                                                  from_host<fr_bn254>(y));
        else
            mul_rate<fr_bls12_381><<<blocks, threads, 0, x->stream>>>(
                (uint4 *)out, iters, from_host<fr_bls12_381>(y));
        CZK_CUDA_GOTO(st, cudaGetLastError(), out, x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaEventRecord(e1, x->stream), out, x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaEventSynchronize(e1), out, x->err, sizeof x->err);
        float f = 0;
        CZK_CUDA_GOTO(st, cudaEventElapsedTime(&f, e0, e1), out, x->err, sizeof x->err);
        if (r > 0 && (best == 0 || f < best))
            best = f;
    }
    *muls_per_s = best > 0 ? 4.0 * iters * threads * (double)blocks / (best * 1e-3) : 0;
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    czk_cuda_dev_free(x->d, out);
    return st;
}
