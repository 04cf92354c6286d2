/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA, internal to msm.cu and field_bench.cu: checked CUDA calls.
 *
 * CZK_CU_CHECK(call) evaluates a CUDA runtime call; on failure it writes
 * "call at file:line: message" into (err, errlen), sets `st` to CZK_ERR_DEVICE (or
 * CZK_ERR_DEVICE_LOST for the sticky errors that leave the context unusable) and jumps to `out`.
 * The enclosing function declares `enum czk_status st`, `char *err`, `size_t errlen` and a label
 * `out:` (single exit).
 */
#ifndef CZK_CUDA_MSM_INTERNAL_CUH
#define CZK_CUDA_MSM_INTERNAL_CUH

#include <cuda_runtime.h>

#include "czk/czk.h"

namespace czk_cuda {

/* Errors after which the CUDA context is corrupt: every later call in the process fails. */
static inline bool cuda_error_is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchTimeout:
    case cudaErrorDevicesUnavailable:
        return true;
    default:
        return false;
    }
}

static inline enum czk_status cuda_fail(cudaError_t e, const char *call, const char *file, int line,
                                        char *err, size_t errlen)
{
    enum czk_status s = cuda_error_is_sticky(e) ? CZK_ERR_DEVICE_LOST : CZK_ERR_DEVICE;
    czk_errf(s, err, errlen, "%s at %s:%d: %s", call, file, line, cudaGetErrorString(e));
    czk_log(CZK_LOG_ERROR, "cuda", "%s at %s:%d: %s", call, file, line, cudaGetErrorString(e));
    return s;
}

} /* namespace czk_cuda */

#define CZK_CU_CHECK(call)                                                                         \
    do {                                                                                           \
        cudaError_t czk_cu_e_ = (call);                                                            \
        if (czk_cu_e_ != cudaSuccess) {                                                            \
            st = czk_cuda::cuda_fail(czk_cu_e_, #call, __FILE__, __LINE__, err, errlen);           \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* A kernel launch (the whole `k<<<g, b, s, stream>>>(args)` statement): launch-configuration
 * errors are caught here, execution errors at the next checked synchronising call. */
#define CZK_CU_LAUNCH(...)                                                                         \
    do {                                                                                           \
        __VA_ARGS__;                                                                               \
        CZK_CU_CHECK(cudaGetLastError());                                                          \
    } while (0)

#endif /* CZK_CUDA_MSM_INTERNAL_CUH */
