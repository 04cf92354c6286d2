/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA backend kind ("cuda"): one czk_device per visible GPU that passes the startup
 * probe (src/cuda/cuda_probe.cu). Registered by src/backend/backend.c in CUDA builds.
 * Includable from C and C++.
 */
#ifndef CZK_CUDA_BACKEND_CUDA_H
#define CZK_CUDA_BACKEND_CUDA_H

#include "backend/backend_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The "cuda" kind, built on the first call (thread-safe); NULL when no GPU is usable. */
czk_backend_reg_t czk_backend_cuda_reg(void);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CUDA_BACKEND_CUDA_H */
