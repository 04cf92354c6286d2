/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: test hooks of the device field code (ff.cuh), field microbenchmarks and the
 * running-sum base generator. See field_bench.h.
 */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda/ff.cuh"
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

template <class F> CZK_HD void apply_op(int op, const uint64_t *a, const uint64_t *b, uint64_t *out)
{
    F x = ld<F>(a), y = ld<F>(b), r;
    switch (op) {
    case CZK_CUDA_OP_ADD: r = F::add(x, y); break;
    case CZK_CUDA_OP_SUB: r = F::sub(x, y); break;
    case CZK_CUDA_OP_NEG: r = F::neg(x); break;
    case CZK_CUDA_OP_DBL: r = F::dbl(x); break;
    case CZK_CUDA_OP_MUL: r = F::mul(x, y); break;
    case CZK_CUDA_OP_MUL_ALT: r = x * y; break;
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
