/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: test hooks of the device field code (ff.cuh), field microbenchmarks and the
 * running-sum base generator. See field_bench.h.
 */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda/ff.cuh"
#include "cuda/ff_dfma.cuh"
#include "cuda/field_bench.h"
#include "cuda/msm_internal.cuh"

using namespace czk_cuda;

namespace {

template <class F> struct field_words {
    static constexpr int W = F::N / 2; /* u64 per element */
};

template <class F> CZK_HD F ld(const uint64_t *p)
{
    F r;
    r.load(p);
    return r;
}

template <class F> CZK_HD F from_bool(bool v)
{
    F r = F::zero();
    uint64_t w[field_words<F>::W];
    r.store(w);
    w[0] = v ? 1 : 0;
    r.load(w);
    return r;
}

template <class F> CZK_HD F mul_alt(const F &a, const F &b) { return F::mul_wide(a, b); }
template <class F> CZK_HD fp2<F> mul_alt(const fp2<F> &a, const fp2<F> &b) { return fp2<F>::mul_karatsuba(a, b); }

template <class F> CZK_HD void apply_op(int op, const uint64_t *a, const uint64_t *b, uint64_t *out)
{
    F x = ld<F>(a), y = ld<F>(b), r;
    switch (op) {
    case CZK_CUDA_OP_ADD: r = F::add(x, y); break;
    case CZK_CUDA_OP_SUB: r = F::sub(x, y); break;
    case CZK_CUDA_OP_NEG: r = F::neg(x); break;
    case CZK_CUDA_OP_DBL: r = F::dbl(x); break;
    case CZK_CUDA_OP_MUL: r = F::mul(x, y); break;
    case CZK_CUDA_OP_MUL_ALT: r = mul_alt(x, y); break;
    case CZK_CUDA_OP_MUL_DFMA: r = dfma::mul(x, y); break;
    case CZK_CUDA_OP_SQR: r = F::sqr(x); break;
    case CZK_CUDA_OP_FROM_CANONICAL: r = F::from_canonical(x); break;
    case CZK_CUDA_OP_TO_CANONICAL: r = F::to_canonical(x); break;
    case CZK_CUDA_OP_POW: r = F::pow(x, (uint32_t)b[0]); break;
    case CZK_CUDA_OP_INV: r = F::inv(x); break;
    case CZK_CUDA_OP_EQ: r = from_bool<F>(F::eq(x, y)); break;
    case CZK_CUDA_OP_IS_ZERO: r = from_bool<F>(F::is_zero(x)); break;
    case CZK_CUDA_OP_ONE: r = F::one(); break;
    default: r = F::zero(); break;
    }
    r.store(out);
}

template <class F>
__global__ void test_field_kernel(int op, const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n)
{
    const int W = field_words<F>::W;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        apply_op<F>(op, a + i * W, b + i * W, out + i * W);
}

template <class F>
enum czk_status test_field(int op, const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n,
                           int on_host, char *err, size_t errlen)
{
    const int W = field_words<F>::W;
    enum czk_status st = CZK_OK;
    uint64_t *d = NULL;
    size_t bytes = n * W * sizeof(uint64_t);
    if (on_host) {
        for (size_t i = 0; i < n; i++)
            apply_op<F>(op, a + i * W, b + i * W, out + i * W);
        return CZK_OK;
    }
    if (n == 0)
        return CZK_OK;
    CZK_CU_CHECK(cudaMalloc(&d, 3 * bytes));
    CZK_CU_CHECK(cudaMemcpy(d, a, bytes, cudaMemcpyHostToDevice));
    CZK_CU_CHECK(cudaMemcpy(d + n * W, b, bytes, cudaMemcpyHostToDevice));
    CZK_CU_CHECK(cudaMemset(d + 2 * n * W, 0xa5, bytes)); /* poison */
    CZK_CU_LAUNCH(test_field_kernel<F><<<(unsigned)((n + 127) / 128), 128>>>(op, d, d + n * W,
                                                                           d + 2 * n * W, n));
    CZK_CU_CHECK(cudaMemcpy(out, d + 2 * n * W, bytes, cudaMemcpyDeviceToHost));
out:
    if (d)
        cudaFree(d);
    return st;
}

} /* namespace */

extern "C" size_t czk_cuda_field_words(enum czk_cuda_field field)
{
    switch (field) {
    case CZK_CUDA_FR_BN254:
    case CZK_CUDA_FP_BN254:
    case CZK_CUDA_FR_BLS12_381: return 4;
    case CZK_CUDA_FP_BLS12_381: return 6;
    case CZK_CUDA_FP2_BN254: return 8;
    case CZK_CUDA_FP2_BLS12_381: return 12;
    }
    return 0;
}

extern "C" enum czk_status czk_cuda_test_field(enum czk_cuda_field field, enum czk_cuda_field_op op,
                                               const uint64_t *a, const uint64_t *b, uint64_t *out,
                                               size_t n, int on_host, char *err, size_t errlen)
{
    if ((int)op < 0 || op >= CZK_CUDA_OP_COUNT)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "unknown field op %d", (int)op);
    switch (field) {
    case CZK_CUDA_FR_BN254: return test_field<fr_bn254>(op, a, b, out, n, on_host, err, errlen);
    case CZK_CUDA_FP_BN254: return test_field<fp_bn254>(op, a, b, out, n, on_host, err, errlen);
    case CZK_CUDA_FR_BLS12_381: return test_field<fr_bls12_381>(op, a, b, out, n, on_host, err, errlen);
    case CZK_CUDA_FP_BLS12_381: return test_field<fp_bls12_381>(op, a, b, out, n, on_host, err, errlen);
    case CZK_CUDA_FP2_BN254: return test_field<fp2_bn254>(op, a, b, out, n, on_host, err, errlen);
    case CZK_CUDA_FP2_BLS12_381: return test_field<fp2_bls12_381>(op, a, b, out, n, on_host, err, errlen);
    }
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "unknown field %d", (int)field);
}

/* ---- microbenchmarks ---------------------------------------------------------------------------- */
namespace {

constexpr int BENCH_CHAINS = 4;  /* independent products per thread */
constexpr int BENCH_ITERS = 256; /* dependent products per chain */

/* benchmark operands: pseudo-random limbs below every modulus here, and a fixed multiplier */
template <class P> CZK_HD void bench_fill(mont<P> &x, uint32_t &s)
{
#pragma unroll
    for (int i = 0; i < P::N; i++) {
        s = s * 1664525u + 1013904223u;
        x.limb[i] = i == P::N - 1 ? s >> 8 : s;
    }
}
template <class F> CZK_HD void bench_fill(fp2<F> &x, uint32_t &s)
{
    bench_fill(x.c0, s);
    bench_fill(x.c1, s);
}
template <class P> CZK_HD void bench_y(mont<P> &y, uint32_t seed)
{
    y = mont<P>::one();
#pragma unroll
    for (int i = 0; i < P::N; i++)
        y.limb[i] ^= i == P::N - 1 ? 0 : seed;
}
template <class F> CZK_HD void bench_y(fp2<F> &y, uint32_t seed)
{
    bench_y(y.c0, seed);
    bench_y(y.c1, seed * 3u);
}
template <class P> CZK_HD uint32_t bench_fold(const mont<P> &x)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < P::N; i++)
        acc ^= x.limb[i];
    return acc;
}
template <class F> CZK_HD uint32_t bench_fold(const fp2<F> &x) { return bench_fold(x.c0) ^ bench_fold(x.c1); }

/* VARIANT 0: F::mul, 1: mul_alt (prime fields: mul_wide; Fp2: Karatsuba with three reductions),
 * 2: dfma::mul (FP64 products, integer sums; ff_dfma.cuh), 3: F::sqr (each chain squared) */
template <class F, int VARIANT> __global__ void __launch_bounds__(256) bench_mul_kernel(uint64_t *sink, uint32_t seed)
{
    F x[BENCH_CHAINS], y;
    uint32_t s = seed ^ (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u;
#pragma unroll
    for (int k = 0; k < BENCH_CHAINS; k++)
        bench_fill(x[k], s);
    bench_y(y, seed);
#pragma unroll 1
    for (int it = 0; it < BENCH_ITERS; it++) {
#pragma unroll
        for (int k = 0; k < BENCH_CHAINS; k++)
            x[k] = VARIANT == 0   ? F::mul(x[k], y)
                   : VARIANT == 1 ? mul_alt(x[k], y)
                   : VARIANT == 2 ? dfma::mul(x[k], y)
                                  : F::sqr(x[k]);
    }
    uint32_t acc = 0;
#pragma unroll
    for (int k = 0; k < BENCH_CHAINS; k++)
        acc ^= bench_fold(x[k]);
    if (acc == 0x12345678u) /* practically never: keeps the work alive */
        sink[0] = acc;
}

constexpr int RATE_CHAINS = 8;
constexpr int RATE_ITERS = 4096;

/* independent chains of one instruction, the ceiling field code is measured against: IMAD
 * (mad.lo.u32) or DFMA (fma.rn.f64) */
struct imad_chain {
    typedef uint32_t T;
    T b, c;
    __device__ explicit imad_chain(uint32_t seed) : b(seed | 1), c(seed >> 3) {}
    __device__ T start(int k, uint32_t seed) const { return threadIdx.x + k * 7919u + seed; }
    __device__ void step(T &a) const { asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(a) : "r"(b), "r"(c)); }
};
struct dfma_chain {
    typedef double T;
    T b, c;
    __device__ explicit dfma_chain(uint32_t seed) : b(1.0 + seed * 1e-12), c(seed * 1e-15) {}
    __device__ T start(int k, uint32_t) const { return threadIdx.x + k * 0.5; }
    __device__ void step(T &a) const { asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(a) : "d"(b), "d"(c)); }
};

template <class C> __global__ void __launch_bounds__(256) bench_rate_kernel(uint32_t *sink, uint32_t seed)
{
    const C op(seed);
    typename C::T a[RATE_CHAINS], acc = 0;
#pragma unroll
    for (int k = 0; k < RATE_CHAINS; k++)
        a[k] = op.start(k, seed);
#pragma unroll 1
    for (int it = 0; it < RATE_ITERS; it += 16) {
#pragma unroll
        for (int u = 0; u < 16; u++)
#pragma unroll
            for (int k = 0; k < RATE_CHAINS; k++)
                op.step(a[k]);
    }
#pragma unroll
    for (int k = 0; k < RATE_CHAINS; k++)
        acc += a[k];
    if (acc == (typename C::T)12345678) /* practically never: keeps the work alive */
        sink[0] = 1;
}

int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* median over reps of the time of `launch` (ms) */
template <class L> enum czk_status time_launches(L launch, unsigned reps, double *ms_med, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    double t[64];
    if (reps < 1)
        reps = 1;
    if (reps > 64)
        reps = 64;
    CZK_CU_CHECK(cudaEventCreate(&e0));
    CZK_CU_CHECK(cudaEventCreate(&e1));
    CZK_CU_LAUNCH(launch()); /* warm-up */
    CZK_CU_CHECK(cudaDeviceSynchronize());
    for (unsigned r = 0; r < reps; r++) {
        float ms = 0;
        CZK_CU_CHECK(cudaEventRecord(e0));
        CZK_CU_LAUNCH(launch());
        CZK_CU_CHECK(cudaEventRecord(e1));
        CZK_CU_CHECK(cudaEventSynchronize(e1));
        CZK_CU_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms;
    }
    qsort(t, reps, sizeof t[0], cmp_d);
    *ms_med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    return st;
}

int device_sms()
{
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
        sms = 132;
    return sms;
}

template <class F, int V> enum czk_status bench_field(unsigned reps, double *gmul_s, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    uint64_t *sink = nullptr;
    double ms = 0;
    unsigned blocks = (unsigned)device_sms() * 16, threads = 256;
    CZK_CU_CHECK(cudaMalloc(&sink, 64));
    st = time_launches([&] { bench_mul_kernel<F, V><<<blocks, threads>>>(sink, 0x9e3779b9u); }, reps, &ms, err,
                       errlen);
    if (st == CZK_OK)
        *gmul_s = (double)blocks * threads * BENCH_CHAINS * BENCH_ITERS / (ms * 1e-3) / 1e9;
out:
    if (sink)
        cudaFree(sink);
    return st;
}

/* the DFMA shape is benched for the prime fields only: four Fp2 chains of it spill */
template <class F> struct dfma_bench {
    static enum czk_status run(unsigned reps, double *gmul_s, char *err, size_t errlen)
    {
        return bench_field<F, 2>(reps, gmul_s, err, errlen);
    }
};
template <class F> struct dfma_bench<fp2<F>> {
    static enum czk_status run(unsigned, double *, char *err, size_t errlen)
    {
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "bench field: no DFMA variant for Fp2");
    }
};

template <class F> enum czk_status bench_field_variant(int variant, unsigned reps, double *gmul_s, char *err, size_t errlen)
{
    switch (variant) {
    case 0: return bench_field<F, 0>(reps, gmul_s, err, errlen);
    case 1: return bench_field<F, 1>(reps, gmul_s, err, errlen);
    case 2: return dfma_bench<F>::run(reps, gmul_s, err, errlen);
    case 3: return bench_field<F, 3>(reps, gmul_s, err, errlen);
    default: return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "bench field: unknown variant %d", variant);
    }
}

} /* namespace */

extern "C" enum czk_status czk_cuda_bench_field(enum czk_cuda_field field, int variant, unsigned reps,
                                                double *gmul_s, char *err, size_t errlen)
{
    switch (field) {
    case CZK_CUDA_FR_BN254: return bench_field_variant<fr_bn254>(variant, reps, gmul_s, err, errlen);
    case CZK_CUDA_FP_BN254: return bench_field_variant<fp_bn254>(variant, reps, gmul_s, err, errlen);
    case CZK_CUDA_FR_BLS12_381: return bench_field_variant<fr_bls12_381>(variant, reps, gmul_s, err, errlen);
    case CZK_CUDA_FP_BLS12_381: return bench_field_variant<fp_bls12_381>(variant, reps, gmul_s, err, errlen);
    case CZK_CUDA_FP2_BN254: return bench_field_variant<fp2_bn254>(variant, reps, gmul_s, err, errlen);
    case CZK_CUDA_FP2_BLS12_381: return bench_field_variant<fp2_bls12_381>(variant, reps, gmul_s, err, errlen);
    default: break;
    }
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "bench field: unknown field %d", (int)field);
}

/* instructions per second / 1e12 of `kernel` (RATE_CHAINS x RATE_ITERS per thread) */
static enum czk_status bench_rate(void (*kernel)(uint32_t *, uint32_t), unsigned reps, double *t_s, char *err,
                                  size_t errlen)
{
    enum czk_status st = CZK_OK;
    uint32_t *sink = nullptr;
    double ms = 0;
    unsigned blocks = (unsigned)device_sms() * 16, threads = 256;
    CZK_CU_CHECK(cudaMalloc(&sink, 64));
    st = time_launches([&] { kernel<<<blocks, threads>>>(sink, 0x9e3779b9u); }, reps, &ms, err, errlen);
    if (st == CZK_OK)
        *t_s = (double)blocks * threads * RATE_CHAINS * RATE_ITERS / (ms * 1e-3) / 1e12;
out:
    if (sink)
        cudaFree(sink);
    return st;
}

extern "C" enum czk_status czk_cuda_bench_imad(unsigned reps, double *timad_s, char *err, size_t errlen)
{
    return bench_rate(bench_rate_kernel<imad_chain>, reps, timad_s, err, errlen);
}

extern "C" enum czk_status czk_cuda_bench_dfma(unsigned reps, double *tdfma_s, char *err, size_t errlen)
{
    return bench_rate(bench_rate_kernel<dfma_chain>, reps, tdfma_s, err, errlen);
}
