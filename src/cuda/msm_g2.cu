/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: the BN254 G2 instantiation of the device MSM (msm_impl.cuh), in its own translation
 * unit so that it compiles in parallel with G1 (msm.cu), which calls it (BLS12-381 G2, the
 * slowest to compile, is msm_g2_bls12_381.cu); and the running-sum
 * bases of field_bench.h (czk_cuda_make_running_bases), whose G2 kernels share the register
 * pressure of G2 (spill reports are off for this file, see CMakeLists.txt).
 */
#include "cuda/field_bench.h"
#include "cuda/msm_impl.cuh"

enum czk_status czk_msm_g2_run(enum czk_groth16_curve curve, cudaStream_t stream, const uint64_t *bases,
                               const uint64_t *scalars, size_t n, uint64_t *host_out, void *d_scratch,
                               size_t scratch_bytes, char *err, size_t errlen)
{
    if (curve == CZK_GROTH16_CURVE_BN254)
        return msm_impl<g2_bn254_t>(stream, bases, scalars, n, host_out, d_scratch, scratch_bytes, err, errlen);
    if (curve == CZK_GROTH16_CURVE_BLS12_381)
        return czk_msm_g2_bls12_381_run(stream, bases, scalars, n, host_out, d_scratch, scratch_bytes, err,
                                        errlen);
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: bad curve %d", (int)curve);
}

size_t czk_msm_g2_scratch(enum czk_groth16_curve curve, size_t n, size_t avail)
{
    if (curve == CZK_GROTH16_CURVE_BN254)
        return scratch_for<g2_bn254_t>(n, avail);
    if (curve == CZK_GROTH16_CURVE_BLS12_381)
        return czk_msm_g2_bls12_381_scratch(n, avail);
    return 0;
}

namespace {

/* ---- running-sum bases ----------------------------------------------------------------------- */
struct gen_words {
    uint64_t w[24];
};

template <class F> CZK_HD affine<F> to_affine(const xyzz<F> &p)
{
    affine<F> a;
    if (xyzz<F>::is_inf(p)) {
        a.x = F::zero();
        a.y = F::zero();
        return a;
    }
    F inv = F::inv(p.ZZZ);   /* 1/s^3 */
    F t = F::mul(p.ZZ, inv); /* 1/s */
    a.x = F::mul(p.X, F::sqr(t));
    a.y = F::mul(p.Y, inv);
    return a;
}

constexpr uint32_t RUN_PER_THREAD = 64;

template <class F> __global__ void __launch_bounds__(128) running_bases_kernel(uint64_t *out, size_t n, gen_words g)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t start = t * RUN_PER_THREAD;
    if (start >= n)
        return;
    affine<F> G;
    G.load(g.w);
    xyzz<F> acc;
    xyzz<F>::mul_u32(acc, xyzz<F>::from_affine(G), (uint32_t)(start + 1));
    size_t end = start + RUN_PER_THREAD < n ? start + RUN_PER_THREAD : n;
    for (size_t i = start; i < end; i++) {
        affine<F> a = to_affine(acc);
        a.x.store(out + i * F::N);
        a.y.store(out + i * F::N + F::N / 2);
        xyzz<F>::add_affine(acc, acc, G);
    }
}

template <class F>
enum czk_status running_bases(const void *gen, size_t gen_bytes, void *d_bases, size_t n, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    gen_words g;
    memset(&g, 0, sizeof g);
    memcpy(g.w, gen, gen_bytes);
    size_t threads = (n + RUN_PER_THREAD - 1) / RUN_PER_THREAD;
    if (n == 0)
        return CZK_OK;
    if (n >= 0xffffffffu)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "running bases: n too large");
    CZK_CU_LAUNCH(running_bases_kernel<F><<<(unsigned)((threads + 127) / 128), 128>>>((uint64_t *)d_bases, n, g));
    CZK_CU_CHECK(cudaDeviceSynchronize());
out:
    return st;
}

} /* namespace */

extern "C" enum czk_status czk_cuda_make_running_bases(enum czk_groth16_curve curve, unsigned group, void *d_bases,
                                                       size_t n, char *err, size_t errlen)
{
    if (curve == CZK_GROTH16_CURVE_BN254 && group == 1) {
        struct czk_g1_bn254_affine g;
        czk_g1_bn254_generator(&g);
        return running_bases<fp_bn254>(&g, sizeof g, d_bases, n, err, errlen);
    }
    if (curve == CZK_GROTH16_CURVE_BN254 && group == 2) {
        struct czk_g2_bn254_affine g;
        czk_g2_bn254_generator(&g);
        return running_bases<fp2_bn254>(&g, sizeof g, d_bases, n, err, errlen);
    }
    if (curve == CZK_GROTH16_CURVE_BLS12_381 && group == 1) {
        struct czk_g1_bls12_381_affine g;
        czk_g1_bls12_381_generator(&g);
        return running_bases<fp_bls12_381>(&g, sizeof g, d_bases, n, err, errlen);
    }
    if (curve == CZK_GROTH16_CURVE_BLS12_381 && group == 2) {
        struct czk_g2_bls12_381_affine g;
        czk_g2_bls12_381_generator(&g);
        return running_bases<fp2_bls12_381>(&g, sizeof g, d_bases, n, err, errlen);
    }
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "running bases: bad curve %d or group %u", (int)curve, group);
}
