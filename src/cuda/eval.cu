/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: the sparse evaluation a = A·w, b = B·w, c = a∘b of czk_backend_sparse_eval, the
 * Groth16 quotient a = (a·b − c)[·zinv] and Montgomery -> canonical conversion, for both Fr.
 *
 * Sparse evaluation: each key's CSR matrices are uploaded once and kept resident on the device
 * (a small per-device cache keyed by the host struct's address plus a fingerprint of its sizes,
 * array addresses and sampled contents, LRU-evicted when unused and memory or slots run
 * short), so a partition only uploads its witness. Rows with at most CZK_CUDA_SHORT_ROW terms
 * in A and in B (all of a PoRep-shaped circuit) are evaluated one thread per row: consecutive
 * threads read consecutive rows, each coefficient is one 32-byte sector, the witness gathers
 * are 32-byte sectors too, and a coefficient is not even read when its witness value is 0.
 * Longer rows (listed at upload) are evaluated one warp per row with a shuffle reduction, so
 * a dense row cannot stall a whole grid. Values multiply as the CPU kernel does
 * (Mont(c·R²·w) = Mont(c·w)), in the same order within a row: results are bit-identical.
 *
 * Threading and ownership: see cuda_internal.h. A resident matrix is pinned (refs) while an
 * evaluation uses it and is freed only when unused.
 */
#include <stdio.h>
#include <string.h>

#include "cuda/cuda_bench.h"
#include "cuda/cuda_internal.h"
#include "cuda/ff.cuh"

using czk_cuda::fr_bls12_381;
using czk_cuda::fr_bn254;

namespace {

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

/* A matrix on the device. */
struct dmat {
    const uint64_t *row_ptr;
    const uint32_t *col;
    const uint4 *val;
};

template <class F>
__device__ __forceinline__ F row_sum(const dmat &m, const uint4 *w, uint64_t k0, uint64_t k1)
{
    F s = F::zero();
    for (uint64_t k = k0; k < k1; k++) {
        F wv = gld<F>(w, __ldg(&m.col[k]));
        if (!F::is_zero(wv))
            s = F::add(s, F::mul(gld<F>(m.val, (size_t)k), wv));
    }
    return s;
}

template <class F>
__global__ void __launch_bounds__(256) eval_short(dmat A, dmat B, const uint4 *w, uint4 *a,
                                                  uint4 *b, uint4 *c, uint32_t rows)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < rows;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t a0 = A.row_ptr[i], a1 = A.row_ptr[i + 1], b0 = B.row_ptr[i], b1 = B.row_ptr[i + 1];
        if (a1 - a0 > CZK_CUDA_SHORT_ROW || b1 - b0 > CZK_CUDA_SHORT_ROW)
            continue; /* eval_long's */
        F sa = row_sum<F>(A, w, a0, a1), sb = row_sum<F>(B, w, b0, b1);
        gst(a, (size_t)i, sa);
        gst(b, (size_t)i, sb);
        gst(c, (size_t)i, F::mul(sa, sb));
    }
}

/* Lane-strided partial sums folded in lane order: the result equals the sequential sum
 * because field addition is exact (associative and commutative). */
template <class F> __device__ __forceinline__ F warp_sum(F s)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        F o;
#pragma unroll
        for (int l = 0; l < F::N; l++)
            o.limb[l] = __shfl_down_sync(0xffffffffu, s.limb[l], off);
        s = F::add(s, o);
    }
    return s;
}

template <class F>
__device__ __forceinline__ F row_sum_warp(const dmat &m, const uint4 *w, uint64_t k0, uint64_t k1,
                                          unsigned lane)
{
    F s = F::zero();
    for (uint64_t k = k0 + lane; k < k1; k += 32) {
        F wv = gld<F>(w, __ldg(&m.col[k]));
        if (!F::is_zero(wv))
            s = F::add(s, F::mul(gld<F>(m.val, (size_t)k), wv));
    }
    return warp_sum<F>(s);
}

template <class F>
__global__ void __launch_bounds__(256) eval_long(const uint32_t *list, uint32_t nlist, dmat A,
                                                 dmat B, const uint4 *w, uint4 *a, uint4 *b,
                                                 uint4 *c)
{
    const unsigned lane = threadIdx.x & 31;
    const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    for (uint64_t r = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32; r < nlist;
         r += warps) {
        uint32_t i = list[r];
        F sa = row_sum_warp<F>(A, w, A.row_ptr[i], A.row_ptr[i + 1], lane);
        F sb = row_sum_warp<F>(B, w, B.row_ptr[i], B.row_ptr[i + 1], lane);
        if (lane == 0) {
            gst(a, i, sa);
            gst(b, i, sb);
            gst(c, i, F::mul(sa, sb));
        }
    }
}

template <class F>
__global__ void quotient_k(uint4 *a, const uint4 *b, const uint4 *c, size_t n, F zinv, int has_z)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        F x = F::sub(F::mul(gld<F>(a, i), gld<F>(b, i)), gld<F>(c, i));
        if (has_z)
            x = F::mul(x, zinv);
        gst(a, i, x);
    }
}

template <class F> __global__ void canonical_k(uint4 *a, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        gst(a, i, F::to_canonical(gld<F>(a, i)));
}

template <class F>
enum czk_status launch_eval(struct czk_cuda_ctx *x, const dmat &A, const dmat &B,
                            const uint32_t *longA, uint32_t nA, const uint32_t *longB, uint32_t nB,
                            uint32_t rows, const void *w, void *a, void *b, void *c)
{
    if (rows == 0)
        return CZK_OK;
    unsigned g = czk_cuda_grid(rows, 256, x->d->sms * 64);
    eval_short<F><<<g, 256, 0, x->stream>>>(A, B, (const uint4 *)w, (uint4 *)a, (uint4 *)b,
                                            (uint4 *)c, rows);
    CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    const uint32_t *lists[2] = {longA, longB};
    uint32_t counts[2] = {nA, nB};
    for (int m = 0; m < 2; m++) {
        if (!counts[m])
            continue;
        unsigned gl = czk_cuda_grid((size_t)counts[m] * 32, 256, x->d->sms * 16);
        eval_long<F><<<gl, 256, 0, x->stream>>>(lists[m], counts[m], A, B, (const uint4 *)w,
                                                (uint4 *)a, (uint4 *)b, (uint4 *)c);
        CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    }
    return CZK_OK;
}

/* ---- resident CSR cache --------------------------------------------------------------------- */

uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

uint64_t fingerprint(const struct czk_csr *m)
{
    uint64_t h = mix(mix(mix(0, m->n_rows), m->n_cols), m->nnz);
    h = mix(mix(mix(h, (uintptr_t)m->row_ptr), (uintptr_t)m->col), (uintptr_t)m->val);
    for (unsigned s = 0; s < 64; s++) {
        uint64_t r = m->n_rows ? (uint64_t)m->n_rows * s / 64 : 0;
        h = mix(h, m->row_ptr[r]);
        if (m->nnz) {
            uint64_t k = m->nnz * s / 64;
            h = mix(mix(mix(h, m->col[k]), m->val[k][0]), m->val[k][3]);
        }
    }
    return mix(h, m->row_ptr[m->n_rows]);
}

void entry_free(struct czk_cuda_device *d, struct czk_cuda_csr *e)
{
    czk_cuda_dev_free(d, e->row_ptr);
    czk_cuda_dev_free(d, e->col);
    czk_cuda_dev_free(d, e->val);
    czk_cuda_dev_free(d, e->long_rows);
    memset(e, 0, sizeof *e);
}

/* Frees the least recently used unused entry; false if none. Lock held. */
bool evict_one(struct czk_cuda_device *d)
{
    struct czk_cuda_csr *v = NULL;
    for (unsigned i = 0; i < CZK_CUDA_CSR_CACHE; i++) {
        struct czk_cuda_csr *e = &d->csr[i];
        if (e->key && e->refs == 0 && (!v || e->stamp < v->stamp))
            v = e;
    }
    if (!v)
        return false;
    czk_log(CZK_LOG_INFO, "cuda", "%s: evicting a resident matrix (%zu bytes)", d->name, v->bytes);
    entry_free(d, v);
    return true;
}

enum czk_status alloc_evicting(struct czk_cuda_ctx *x, size_t size, void **p)
{
    for (;;) {
        enum czk_status st = czk_cuda_dev_alloc(x->d, size ? size : 1, p, x->err, sizeof x->err);
        if (st != CZK_ERR_DEVICE || !evict_one(x->d))
            return st;
    }
}

enum czk_status upload(struct czk_cuda_ctx *x, const struct czk_csr *m, uint64_t fp,
                       struct czk_cuda_csr *e)
{
    enum czk_status st;
    memset(e, 0, sizeof *e);
    uint32_t *longs = NULL;
    uint32_t n_long = 0;
    for (uint32_t i = 0; i < m->n_rows; i++)
        if (m->row_ptr[i + 1] - m->row_ptr[i] > CZK_CUDA_SHORT_ROW)
            n_long++;
    size_t rp = ((size_t)m->n_rows + 1) * 8, cb = (size_t)m->nnz * 4, vb = (size_t)m->nnz * 32;
    void *p_rp = NULL, *p_col = NULL, *p_val = NULL, *p_long = NULL;
    if ((st = alloc_evicting(x, rp, &p_rp)) != CZK_OK ||
        (st = alloc_evicting(x, cb, &p_col)) != CZK_OK ||
        (st = alloc_evicting(x, vb, &p_val)) != CZK_OK ||
        (n_long && (st = alloc_evicting(x, (size_t)n_long * 4, &p_long)) != CZK_OK))
        goto fail;
    CZK_CUDA_GOTO(st, cudaMemcpyAsync(p_rp, m->row_ptr, rp, cudaMemcpyHostToDevice, x->stream),
                  fail, x->err, sizeof x->err);
    if (m->nnz) {
        CZK_CUDA_GOTO(st, cudaMemcpyAsync(p_col, m->col, cb, cudaMemcpyHostToDevice, x->stream),
                      fail, x->err, sizeof x->err);
        CZK_CUDA_GOTO(st, cudaMemcpyAsync(p_val, m->val, vb, cudaMemcpyHostToDevice, x->stream),
                      fail, x->err, sizeof x->err);
    }
    if (n_long) {
        longs = (uint32_t *)malloc((size_t)n_long * 4);
        if (!longs) {
            st = czk_errf(CZK_ERR_NOMEM, x->err, sizeof x->err, "eval: out of memory");
            goto fail;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < m->n_rows; i++)
            if (m->row_ptr[i + 1] - m->row_ptr[i] > CZK_CUDA_SHORT_ROW)
                longs[k++] = i;
        CZK_CUDA_GOTO(st,
                      cudaMemcpyAsync(p_long, longs, (size_t)n_long * 4, cudaMemcpyHostToDevice,
                                      x->stream),
                      fail, x->err, sizeof x->err);
    }
    CZK_CUDA_GOTO(st, cudaStreamSynchronize(x->stream), fail, x->err, sizeof x->err);
    free(longs);
    e->key = m;
    e->fp = fp;
    e->n_rows = m->n_rows, e->n_cols = m->n_cols, e->nnz = m->nnz;
    e->row_ptr = (uint64_t *)p_rp, e->col = (uint32_t *)p_col, e->val = p_val;
    e->long_rows = (uint32_t *)p_long, e->n_long = n_long;
    e->bytes = rp + cb + vb + (size_t)n_long * 4;
    return CZK_OK;
fail:
    free(longs);
    czk_cuda_dev_free(x->d, p_rp);
    czk_cuda_dev_free(x->d, p_col);
    czk_cuda_dev_free(x->d, p_val);
    czk_cuda_dev_free(x->d, p_long);
    return st;
}

/* The resident copy of m, uploaded on first use; pinned until release(). */
enum czk_status acquire(struct czk_cuda_ctx *x, const struct czk_csr *m, struct czk_cuda_csr **out)
{
    struct czk_cuda_device *d = x->d;
    uint64_t fp = fingerprint(m);
    enum czk_status st = CZK_OK;
    pthread_mutex_lock(&d->lock);
    struct czk_cuda_csr *hit = NULL, *slot = NULL;
    for (unsigned i = 0; i < CZK_CUDA_CSR_CACHE; i++) {
        struct czk_cuda_csr *e = &d->csr[i];
        if (e->key == m && e->fp == fp) {
            hit = e;
            break;
        }
        if (e->key == m && e->refs == 0)
            entry_free(d, e); /* same address, other contents: stale */
    }
    if (!hit) {
        for (;;) {
            for (unsigned i = 0; i < CZK_CUDA_CSR_CACHE && !slot; i++)
                if (!d->csr[i].key)
                    slot = &d->csr[i];
            if (slot || !evict_one(d))
                break;
        }
        if (!slot) {
            st = czk_errf(CZK_ERR_DEVICE, x->err, sizeof x->err,
                          "%s: %u resident matrices all in use", d->name, CZK_CUDA_CSR_CACHE);
        } else {
            st = upload(x, m, fp, slot);
            if (st == CZK_OK)
                hit = slot;
        }
    }
    if (hit) {
        hit->refs++;
        hit->stamp = ++d->csr_clock;
        *out = hit;
    }
    pthread_mutex_unlock(&d->lock);
    return st;
}

void release(struct czk_cuda_device *d, struct czk_cuda_csr *e)
{
    pthread_mutex_lock(&d->lock);
    e->refs--;
    pthread_mutex_unlock(&d->lock);
}

} /* namespace */

enum czk_status czk_cuda_sparse_eval_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                         const struct czk_csr *A, const struct czk_csr *B,
                                         const void *w, void *a, void *b, void *c)
{
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK || A->n_rows == 0)
        return st;
    struct czk_cuda_csr *ea = NULL, *eb = NULL;
    if ((st = acquire(x, A, &ea)) != CZK_OK)
        return st;
    if ((st = acquire(x, B, &eb)) != CZK_OK) {
        release(x->d, ea);
        return st;
    }
    dmat da = {ea->row_ptr, ea->col, (const uint4 *)ea->val};
    dmat db = {eb->row_ptr, eb->col, (const uint4 *)eb->val};
    if (curve == CZK_GROTH16_CURVE_BN254)
        st = launch_eval<fr_bn254>(x, da, db, ea->long_rows, ea->n_long, eb->long_rows, eb->n_long,
                                   A->n_rows, w, a, b, c);
    else
        st = launch_eval<fr_bls12_381>(x, da, db, ea->long_rows, ea->n_long, eb->long_rows,
                                       eb->n_long, A->n_rows, w, a, b, c);
    /* The matrices stay pinned until the kernels are done with them. */
    if (st == CZK_OK)
        CZK_CUDA_GOTO(st, cudaStreamSynchronize(x->stream), out, x->err, sizeof x->err);
out:
    release(x->d, eb);
    release(x->d, ea);
    return st;
}

enum czk_status czk_cuda_quotient_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                      void *a, const void *b, const void *c, size_t n,
                                      const uint64_t zinv[4])
{
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK || n == 0)
        return st;
    unsigned g = czk_cuda_grid(n, 256, x->d->sms * 32);
    uint64_t z[4] = {0, 0, 0, 0};
    if (zinv)
        memcpy(z, zinv, sizeof z);
    if (curve == CZK_GROTH16_CURVE_BN254) {
        fr_bn254 zz;
        zz.load(z);
        quotient_k<fr_bn254><<<g, 256, 0, x->stream>>>((uint4 *)a, (const uint4 *)b,
                                                       (const uint4 *)c, n, zz, zinv != NULL);
    } else {
        fr_bls12_381 zz;
        zz.load(z);
        quotient_k<fr_bls12_381><<<g, 256, 0, x->stream>>>((uint4 *)a, (const uint4 *)b,
                                                           (const uint4 *)c, n, zz, zinv != NULL);
    }
    CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    return CZK_OK;
}

enum czk_status czk_cuda_to_canonical_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                          void *data, size_t n)
{
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK || n == 0)
        return st;
    unsigned g = czk_cuda_grid(n, 256, x->d->sms * 32);
    if (curve == CZK_GROTH16_CURVE_BN254)
        canonical_k<fr_bn254><<<g, 256, 0, x->stream>>>((uint4 *)data, n);
    else
        canonical_k<fr_bls12_381><<<g, 256, 0, x->stream>>>((uint4 *)data, n);
    CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    return CZK_OK;
}

/* ---- PoRep-shaped benchmark ------------------------------------------------------------------- */

namespace {

#define POREP_PUBLIC 328u

__device__ __forceinline__ uint64_t hmix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Rows in groups of 100: 37 with 3 terms in A, 63 with 2 (2.37 on average); B: 1 term. */
__device__ __forceinline__ uint64_t porep_rp(uint64_t i)
{
    uint64_t g = i / 100, r = i % 100;
    return g * 237 + (r < 37 ? 3 * r : 111 + 2 * (r - 37));
}

template <class F> __device__ __forceinline__ F rnd_elem(uint64_t seed, uint64_t i, unsigned top)
{
    F x;
#pragma unroll
    for (int l = 0; l < 4; l++) {
        uint64_t v = hmix(seed ^ hmix(i * 4 + l + 1));
        x.limb[2 * l] = (uint32_t)v;
        x.limb[2 * l + 1] = (uint32_t)(v >> 32);
    }
    x.limb[7] &= (1u << top) - 1;
    F::final_sub(x.limb);
    return x;
}

template <class F>
__global__ void porep_gen(uint64_t *rpA, uint32_t *colA, uint4 *valA, uint64_t *rpB,
                          uint32_t *colB, uint4 *valB, uint4 *w, uint32_t rows, uint64_t seed,
                          unsigned top, uint32_t bool_per_mille)
{
    const uint32_t ncols = 1 + POREP_PUBLIC + rows;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i <= rows || i < ncols;
         i += (uint64_t)gridDim.x * blockDim.x) {
        if (i <= rows) {
            rpA[i] = porep_rp(i);
            rpB[i] = i;
        }
        if (i < rows) {
            uint64_t k0 = porep_rp(i), k1 = porep_rp(i + 1);
            for (uint64_t k = k0; k < k1; k++) {
                uint64_t h = hmix(seed + 0x1000 + k);
                /* first term: the row's own private wire; others: random private, or public */
                uint32_t col = k == k0 ? 1 + POREP_PUBLIC + (uint32_t)i
                               : (h & 7) ? 1 + POREP_PUBLIC + (uint32_t)((h >> 8) % rows)
                                         : (uint32_t)((h >> 8) % (1 + POREP_PUBLIC));
                colA[k] = col;
                gst(valA, (size_t)k, rnd_elem<F>(seed + 1, k, top));
            }
            uint64_t h = hmix(seed + 0x2000 + i);
            colB[i] = (h & 3) == 0 ? 1 + POREP_PUBLIC + (uint32_t)((h >> 8) % rows)
                                   : (uint32_t)((h >> 8) % (1 + POREP_PUBLIC));
            gst(valB, (size_t)i, rnd_elem<F>(seed + 2, i, top));
        }
        if (i < ncols) {
            F v = F::zero();
            uint64_t h = hmix(seed + 0x3000 + i);
            if (i == 0)
                v.limb[0] = 1;
            else if (i > POREP_PUBLIC && (h % 1000) < bool_per_mille)
                v.limb[0] = (uint32_t)((h >> 20) & 1);
            else
                v = rnd_elem<F>(seed + 3, i, top); /* canonical, < r */
            gst(w, (size_t)i, v);
        }
    }
}

} /* namespace */

enum czk_status czk_cuda_bench_eval(czk_backend_t be, enum czk_groth16_curve curve, uint32_t rows,
                                    double bool_frac, uint64_t seed, unsigned reps, double *ms,
                                    double *muls, double *bytes)
{
    if (!czk_cuda_is_backend(be) || rows == 0 || !ms || rows > 0xffffffffu - 1 - POREP_PUBLIC)
        return CZK_ERR_INVALID_ARG;
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    const uint64_t nnzA = (uint64_t)(rows / 100) * 237 + (rows % 100 < 37 ? 3 * (rows % 100)
                                                                        : 111 + 2 * (rows % 100 - 37));
    const uint64_t nnzB = rows, ncols = 1 + POREP_PUBLIC + (uint64_t)rows;
    void *p[10] = {NULL};
    size_t sz[10] = {((size_t)rows + 1) * 8, nnzA * 4, nnzA * 32, ((size_t)rows + 1) * 8,
                     nnzB * 4, nnzB * 32, ncols * 32, (size_t)rows * 32, (size_t)rows * 32,
                     (size_t)rows * 32};
    cudaEvent_t e0 = NULL, e1 = NULL;
    unsigned top = curve == CZK_GROTH16_CURVE_BN254 ? 30u : 31u;
    uint32_t bpm = (uint32_t)(bool_frac * 1000.0 + 0.5);
    for (int i = 0; i < 10; i++)
        if ((st = czk_cuda_dev_alloc(x->d, sz[i], &p[i], x->err, sizeof x->err)) != CZK_OK)
            goto out;
    {
        unsigned g = czk_cuda_grid(ncols + 1, 256, x->d->sms * 64);
        if (curve == CZK_GROTH16_CURVE_BN254)
            porep_gen<fr_bn254><<<g, 256, 0, x->stream>>>(
                (uint64_t *)p[0], (uint32_t *)p[1], (uint4 *)p[2], (uint64_t *)p[3],
                (uint32_t *)p[4], (uint4 *)p[5], (uint4 *)p[6], rows, seed, top, bpm);
        else
            porep_gen<fr_bls12_381><<<g, 256, 0, x->stream>>>(
                (uint64_t *)p[0], (uint32_t *)p[1], (uint4 *)p[2], (uint64_t *)p[3],
                (uint32_t *)p[4], (uint4 *)p[5], (uint4 *)p[6], rows, seed, top, bpm);
        CZK_CUDA_GOTO(st, cudaGetLastError(), out, x->err, sizeof x->err);
    }
    CZK_CUDA_GOTO(st, cudaEventCreate(&e0), out, x->err, sizeof x->err);
    CZK_CUDA_GOTO(st, cudaEventCreate(&e1), out, x->err, sizeof x->err);
    {
        dmat A = {(const uint64_t *)p[0], (const uint32_t *)p[1], (const uint4 *)p[2]};
        dmat B = {(const uint64_t *)p[3], (const uint32_t *)p[4], (const uint4 *)p[5]};
        for (unsigned r = 0; r <= reps; r++) { /* r = 0: warm-up */
            CZK_CUDA_GOTO(st, cudaEventRecord(e0, x->stream), out, x->err, sizeof x->err);
            st = curve == CZK_GROTH16_CURVE_BN254
                     ? launch_eval<fr_bn254>(x, A, B, NULL, 0, NULL, 0, rows, p[6], p[7], p[8], p[9])
                     : launch_eval<fr_bls12_381>(x, A, B, NULL, 0, NULL, 0, rows, p[6], p[7], p[8],
                                                 p[9]);
            if (st != CZK_OK)
                goto out;
            CZK_CUDA_GOTO(st, cudaEventRecord(e1, x->stream), out, x->err, sizeof x->err);
            CZK_CUDA_GOTO(st, cudaEventSynchronize(e1), out, x->err, sizeof x->err);
            float f = 0;
            CZK_CUDA_GOTO(st, cudaEventElapsedTime(&f, e0, e1), out, x->err, sizeof x->err);
            if (r > 0)
                ms[r - 1] = f;
        }
    }
    if (muls)
        *muls = (double)(nnzA + nnzB + rows);
    if (bytes) /* each input read once, each output written once */
        *bytes = (double)(sz[0] + sz[1] + sz[2] + sz[3] + sz[4] + sz[5] + sz[6] + sz[7] + sz[8] +
                          sz[9]);
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    for (int i = 0; i < 10; i++)
        czk_cuda_dev_free(x->d, p[i]);
    return st;
}
