/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUDA presence probe: the first piece of the CUDA backend. It counts usable
 * devices and runs one tiny kernel so a broken driver/runtime is detected before
 * any real work is scheduled. Every CUDA call is checked; failures return a status
 * and never abort the process.
 */
#include <cuda_runtime.h>

#include "czk/czk.h"

extern "C" {
CZK_API enum czk_status czk_cuda_device_count(int *count);
CZK_API enum czk_status czk_cuda_probe(int device);
}

static __global__ void probe_kernel(unsigned *out)
{
    /* 64-bit carry chain through 32-bit limbs, as the field kernels will use. */
    unsigned a = 0xffffffffu, b = 1u, lo, hi;
    asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, 0, 0;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b));
    out[threadIdx.x] = lo + hi + threadIdx.x;
}

enum czk_status czk_cuda_device_count(int *count)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
        *count = 0;
        return CZK_OK;
    }
    if (e != cudaSuccess) {
        czk_log(CZK_LOG_WARN, "cuda", "cudaGetDeviceCount: %s (%s:%d)", cudaGetErrorString(e),
                __FILE__, __LINE__);
        return CZK_ERR_DEVICE;
    }
    *count = n;
    return CZK_OK;
}

enum czk_status czk_cuda_probe(int device)
{
    unsigned *d = NULL, h[32];
    enum czk_status st = CZK_OK;
    cudaError_t e;
    if ((e = cudaSetDevice(device)) != cudaSuccess || (e = cudaMalloc(&d, sizeof h)) != cudaSuccess)
        goto fail;
    probe_kernel<<<1, 32>>>(d);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)) != cudaSuccess)
        goto fail;
    for (unsigned i = 0; i < 32; i++)
        if (h[i] != 1u + i)
            st = CZK_ERR_DEVICE;
    cudaFree(d);
    return st;
fail:
    czk_log(CZK_LOG_ERROR, "cuda", "device %d probe: %s (%s:%d)", device, cudaGetErrorString(e),
            __FILE__, __LINE__);
    if (d)
        cudaFree(d);
    return CZK_ERR_DEVICE;
}
