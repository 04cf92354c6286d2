/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: GPU-timed helpers for `czk bench ntt|eval` and the GPU tests (C API). Each runs on
 * the stream of a backend of the "cuda" kind, times with CUDA events on that stream and
 * returns per-repetition milliseconds; CZK_ERR_INVALID_ARG when `be` is not a CUDA backend.
 * Threading: as the backend (one thread per czk_backend_t).
 */
#ifndef CZK_CUDA_CUDA_BENCH_H
#define CZK_CUDA_CUDA_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "czk/czk_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether be is a context of the CUDA kind. */
bool czk_cuda_is_backend(czk_backend_t be);

/* n random Fr elements (< r, any value: "Montgomery form") into buf, made on the device. */
enum czk_status czk_cuda_fill_random(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t buf,
                                     size_t n, uint64_t seed);

/* reps NTTs of buf (2^lg_n elements) timed one by one into ms[reps]; *muls = multiplies of one. */
enum czk_status czk_cuda_bench_ntt(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t buf,
                                   unsigned lg_n, enum czk_backend_dir dir,
                                   enum czk_ntt_convention conv, const uint64_t shift[4],
                                   unsigned reps, double *ms, double *muls);

/* Device-to-device copy rate over `bytes` (read + write counted), GB/s. */
enum czk_status czk_cuda_bench_copy(czk_backend_t be, size_t bytes, double *gbps);

/* Fr Montgomery multiplications per second of a simple independent-chains kernel. */
enum czk_status czk_cuda_bench_fr_mul(czk_backend_t be, enum czk_groth16_curve curve,
                                      double *muls_per_s);

/*
 * Sparse evaluation on a PoRep-shaped pair of matrices with `rows` rows made on the device
 * (A: 2.37 terms per row on average, B: 1; 328 public columns, one private column per row;
 * random Montgomery values; a witness with `bool_frac` of its private values 0 or 1), timed
 * `reps` times into ms[reps]. *muls and *bytes: multiplies and minimum device bytes of one run.
 */
enum czk_status czk_cuda_bench_eval(czk_backend_t be, enum czk_groth16_curve curve, uint32_t rows,
                                    double bool_frac, uint64_t seed, unsigned reps, double *ms,
                                    double *muls, double *bytes);

/* Test hook: launches a kernel that writes to an invalid address on be's device (a sticky
 * fault), then synchronizes; returns the resulting status (CZK_ERR_DEVICE_LOST expected). */
enum czk_status czk_cuda_debug_fault(czk_backend_t be);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CUDA_CUDA_BENCH_H */
