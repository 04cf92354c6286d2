/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: the page-locking host allocator for the slab pool (mem.h, issue 7): memory the
 * GPUs read by DMA at full speed (H2D from pinned memory ran at 55 GB/s on the H200 host,
 * from pageable memory at 7 GB/s). Includable from C and C++; exists only in CUDA builds
 * (CZK_USE_CUDA), so callers guard their use with #ifdef CZK_USE_CUDA.
 *
 * alloc: cudaHostAlloc(cudaHostAllocPortable) of the size rounded up to whole pages (pinned
 * for every device's context); NULL when the size rounds past SIZE_MAX or the call fails
 * (logged by the CUDA check helpers, "cudaHostAlloc at cuda/pinned.cu:N: ..."), so a caller
 * such as the engine can fall back to plain host memory. The memory is not zeroed.
 * free: cudaFreeHost (checked and logged; nothing is freed on a device marked lost).
 * Threading: stateless, callable from any thread. The allocator is static.
 */
#ifndef CZK_CUDA_PINNED_H
#define CZK_CUDA_PINNED_H

#include "mem/mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The "cuda-pinned" allocator (pinned = true). Static. */
const struct czk_allocator *czk_cuda_pinned_allocator(void);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CUDA_PINNED_H */
