/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The "cuda-pinned" host allocator (pinned.h): cudaHostAlloc / cudaFreeHost behind the
 * struct czk_allocator of mem.h, so the engine's slab pool hands out page-locked witness
 * slabs that the CUDA backend uploads directly (no staging, full DMA speed).
 *
 * cudaHostAllocPortable makes the memory pinned for every device's context, whichever device
 * is current on the allocating thread (the pool is shared by all GPUs). Sizes are rounded up
 * to whole pages (mem.h asks for page-aligned sizes; cudaHostAlloc returns page-aligned
 * addresses). Failures go through czk_cuda_fail (cuda_check.h): logged with the call and
 * file:line, a sticky error marks the current device lost; alloc then returns NULL.
 */
#include <stdint.h>
#include <unistd.h>

#include "cuda/cuda_check.h"
#include "cuda/pinned.h"

static size_t page_size(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    return ps > 0 ? (size_t)ps : 4096;
}

static void *pinned_alloc(void *ctx, size_t size)
{
    (void)ctx;
    if (size == 0)
        return NULL;
    size_t ps = page_size();
    if (size > SIZE_MAX - (ps - 1))
        return NULL; /* rounding up would wrap */
    size_t bytes = (size + ps - 1) / ps * ps;
    void *p = NULL;
    cudaError_t e = cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
    if (e != cudaSuccess) {
        czk_cuda_fail(e, "cudaHostAlloc(&p, bytes, cudaHostAllocPortable)", __FILE__, __LINE__,
                      NULL, 0);
        return NULL;
    }
    return p;
}

static void pinned_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    if (!ptr)
        return;
    int dev = -1;
    if (cudaGetDevice(&dev) == cudaSuccess && czk_cuda_device_lost(dev))
        return; /* the context is unusable: the memory goes with the process */
    (void)cudaGetLastError();
    cudaError_t e = cudaFreeHost(ptr);
    if (e != cudaSuccess)
        czk_cuda_fail(e, "cudaFreeHost(ptr)", __FILE__, __LINE__, NULL, 0);
}

static const struct czk_allocator g_pinned = {
    /* .name = */ "cuda-pinned",
    /* .pinned = */ true,
    /* .alloc = */ pinned_alloc,
    /* .free = */ pinned_free,
    /* .ctx = */ NULL,
};

const struct czk_allocator *czk_cuda_pinned_allocator(void) { return &g_pinned; }
