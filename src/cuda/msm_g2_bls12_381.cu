/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: the BLS12-381 G2 instantiation of the device MSM (msm_impl.cuh), alone in its
 * translation unit: it takes the longest to compile (Fp2 over 12-limb Fp), and on its own it
 * compiles in parallel with the rest of the CUDA code. Called by czk_msm_g2_run (msm_g2.cu).
 * Its kernels spill around the point-operation calls: spill reports are off for this file
 * (CMakeLists.txt).
 */
#include "cuda/msm_impl.cuh"

enum czk_status czk_msm_g2_bls12_381_run(cudaStream_t stream, const uint64_t *bases, const uint64_t *scalars,
                                         size_t n, uint64_t *host_out, void *d_scratch, size_t scratch_bytes,
                                         char *err, size_t errlen)
{
    return msm_impl<g2_bls12_381_t>(stream, bases, scalars, n, host_out, d_scratch, scratch_bytes, err, errlen);
}

size_t czk_msm_g2_bls12_381_scratch(size_t n, size_t avail) { return scratch_for<g2_bls12_381_t>(n, avail); }
