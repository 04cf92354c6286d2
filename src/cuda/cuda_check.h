/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: checked runtime calls and device health, shared by every CUDA translation unit.
 *
 *   CZK_CUDA_TRY(call, err, errlen)        on failure: return the status
 *   CZK_CUDA_GOTO(st, call, label, err, errlen)  on failure: st = status, goto label
 *
 * A failing call becomes a status through czk_cuda_fail(), which writes
 * "cudaXxx at file:line: message (cudaN)" into (err, errlen) when err != NULL, logs it
 * (component "cuda", level ERROR) and returns CZK_ERR_DEVICE, or CZK_ERR_DEVICE_LOST for the
 * sticky errors that leave the device's context unusable (illegal address, launch failure,
 * ECC, illegal instruction, ...). A sticky error marks the current device lost for the life of
 * the process (czk_cuda_device_lost), so the backend stops offering it and callers fall back to
 * other devices or the CPU; the process never aborts. A non-sticky error is cleared from the
 * runtime's per-thread "last error" so it does not resurface in later, unrelated checks.
 *
 * Threading: every function may be called from any thread; the lost flags are atomic. The
 * last message of each device is kept (czk_cuda_last_error) for diagnostics.
 */
#ifndef CZK_CUDA_CUDA_CHECK_H
#define CZK_CUDA_CUDA_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime.h>

#include "czk/czk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status (and message) for the failed call `expr` at file:line; see the file comment. */
enum czk_status czk_cuda_fail(cudaError_t e, const char *expr, const char *file, int line,
                              char *err, size_t errlen);

/* Whether e leaves the device's context unusable. */
bool czk_cuda_error_is_sticky(cudaError_t e);

/* Marks / queries a device (CUDA ordinal) as lost. Ordinals >= 64 are never marked. */
void czk_cuda_mark_lost(int device);
bool czk_cuda_device_lost(int device);

/* Copies the device's last recorded error message into buf (empty if none). */
void czk_cuda_last_error(int device, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#define CZK_CUDA_TRY(call, err, errlen)                                                            \
    do {                                                                                           \
        cudaError_t czk_cuda_e_ = (call);                                                          \
        if (czk_cuda_e_ != cudaSuccess)                                                            \
            return czk_cuda_fail(czk_cuda_e_, #call, __FILE__, __LINE__, (err), (errlen));         \
    } while (0)

#define CZK_CUDA_GOTO(st, call, label, err, errlen)                                                \
    do {                                                                                           \
        cudaError_t czk_cuda_e_ = (call);                                                          \
        if (czk_cuda_e_ != cudaSuccess) {                                                          \
            (st) = czk_cuda_fail(czk_cuda_e_, #call, __FILE__, __LINE__, (err), (errlen));         \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

#endif /* CZK_CUDA_CUDA_CHECK_H */
