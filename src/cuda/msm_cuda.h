/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: multi-scalar multiplication on the device (msm.cu). C API, includable from C
 * (without the CUDA headers) and C++.
 *
 * Pippenger with signed (Booth) digits: points whose scalar is 0 (or whose base is infinity)
 * are dropped, points whose scalar is 1 are summed directly, the rest are compacted; per window
 * the bucket indices are sorted with CUB's radix sort, the buckets accumulated (chunks of the
 * sorted list per thread, runs that cross chunk boundaries combined in further passes), reduced
 * (running sums over bucket segments) and the windows combined by Horner's rule, all on the
 * device. The window size is chosen from the number of points and the SM count.
 *
 * Threading: one call at a time per stream; calls on different streams may run concurrently
 * (each uses its own scratch). Bases and scalars are only read.
 */
#ifndef CZK_CUDA_MSM_CUDA_H
#define CZK_CUDA_MSM_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "czk/czk.h"
#include "czk/czk_groth16.h"

#ifdef __CUDACC__
#include <cuda_runtime_api.h>
#else
typedef struct CUstream_st *cudaStream_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Device scratch bytes that czk_cuda_msm needs at least for n points of `group` (1 or 2) on
 * `curve` on the current device, under its slowest plan (0 for an unknown curve or group). */
size_t czk_cuda_msm_scratch_bytes(enum czk_groth16_curve curve, unsigned group, size_t n);
/* The scratch of the fastest plan whose scratch is at most `avail` bytes (a larger scratch lets
 * the tree accumulation take more items per inversion, and G1 take the tree at all); the least
 * (czk_cuda_msm_scratch_bytes) when none fits. */
size_t czk_cuda_msm_scratch_fit(enum czk_groth16_curve curve, unsigned group, size_t n, size_t avail);
/* Of `free_bytes` free on a device of `total_bytes`, what an MSM may plan its scratch with: the
 * free memory less a reserve of 1/16 of the device (at least 256 MiB) for the runtime, library
 * workspaces and the device's other worker. */
size_t czk_cuda_msm_room(size_t free_bytes, size_t total_bytes);
/* The scratch to run with: the fastest plan within `avail` bytes (the device's room, capped)
 * that takes at most `spare` bytes beyond the least plan (what a memory budget has unreserved;
 * SIZE_MAX: no budget). The least plan when nothing larger fits. */
size_t czk_cuda_msm_scratch_plan(enum czk_groth16_curve curve, unsigned group, size_t n, size_t avail,
                                 size_t spare);

/*
 * out = sum scalars[i]·bases[i]; bases: n affine points on the device (zkey layout, infinity =
 * zeros); scalars: n canonical Fr elements (4 LE u64) on the device; out: host pointer to the
 * curve's Jacobian struct (struct czk_g1_bn254 ... of czk_ec.h; infinity as (1, 1, 0)). Runs on
 * `stream` of the current device and returns when the result is on the host. d_scratch: device
 * memory of scratch_bytes bytes, at least czk_cuda_msm_scratch_bytes; the call runs the fastest
 * plan that fits in it (czk_cuda_msm_scratch_fit); a smaller one is CZK_ERR_INVALID_ARG.
 * d_scratch NULL: the call sizes a scratch from the free device memory (less a reserve), takes it
 * with cudaMallocAsync on the stream and frees it. Every CUDA call checked: on error returns
 * CZK_ERR_DEVICE (or CZK_ERR_DEVICE_LOST for sticky errors) with "call at file:line: message" in
 * err; out is written on success only.
 * n < 2^31. Scalars must be < r (larger values are taken as 256-bit integers).
 */
enum czk_status czk_cuda_msm(cudaStream_t stream, enum czk_groth16_curve curve, unsigned group,
                             const void *d_bases, const void *d_scalars, size_t n, void *out,
                             void *d_scratch, size_t scratch_bytes, char *err, size_t errlen);

/* Plan of one call (for benches and tests): window bits, windows, points per accumulation
 * chunk, and the counts of the last call on this thread (general points, points with scalar 1);
 * stage_ms: device time of its stages (CUDA events): select (general points, scalar-1 sum),
 * digits, sort, accumulate (all passes), reduce, combine (with the copy to the host). */
enum { CZK_MSM_STAGES = 6 };
/* Bucket accumulation: XYZZ (one point added at a time per thread, 8M + 2S), batch-affine
 * lanes (lanes of a thread share one inversion per step, 5M + 1S + 1/lanes inversions) or the
 * batch-affine tree (pairs of each bucket's elements summed level by level, B independent
 * additions per inversion: 5M + 1S + 1/B inversions, no partial sums). */
enum { CZK_MSM_ACC_XYZZ = 1, CZK_MSM_ACC_AFFINE = 2, CZK_MSM_ACC_TREE = 3 };
struct czk_cuda_msm_stats {
    unsigned c, windows, chunk, levels; /* tree: chunk = items per inversion (at most), levels summed over groups */
    unsigned acc;   /* CZK_MSM_ACC_* of the first accumulation pass */
    unsigned lanes; /* affine: lanes per thread (chunk: entries per lane); tree: windows per group */
    size_t n_general, n_ones;
    size_t scratch; /* bytes of scratch the call had (given, or allocated for itself) */
    float stage_ms[CZK_MSM_STAGES];
};
/* Stats of the last czk_cuda_msm on the calling thread. */
void czk_cuda_msm_last_stats(struct czk_cuda_msm_stats *stats);
/*
 * For tests and benches: copies n bases (zkey layout) and scalars from host memory to the device,
 * runs czk_cuda_msm on a new stream reps >= 1 times and writes the result to out; *ms_median
 * (optional) is the median device time of one czk_cuda_msm call (events around it, bases and
 * scalars already on the device, scratch preallocated).
 */
enum czk_status czk_cuda_msm_host(enum czk_groth16_curve curve, unsigned group, const void *bases,
                                  const uint64_t (*scalars)[4], size_t n, void *out, unsigned reps,
                                  double *ms_median, char *err, size_t errlen);
/* As czk_cuda_msm_host with the bases already on the device (d_bases). */
enum czk_status czk_cuda_msm_dev_bases(enum czk_groth16_curve curve, unsigned group,
                                       const void *d_bases, const uint64_t (*scalars)[4], size_t n,
                                       void *out, unsigned reps, double *ms_median, char *err,
                                       size_t errlen);

/* As czk_cuda_msm_host with the bases P_i = (i + 1)·G made on the device
 * (czk_cuda_make_running_bases); *ms_bases (optional): the time that took. */
enum czk_status czk_cuda_msm_running(enum czk_groth16_curve curve, unsigned group,
                                     const uint64_t (*scalars)[4], size_t n, void *out, unsigned reps,
                                     double *ms_median, double *ms_bases, char *err, size_t errlen);

/* Force the window size of later calls on the calling thread (0 = automatic); for tests. */
void czk_cuda_msm_force_window(unsigned c);
/* Force the accumulation (CZK_MSM_ACC_*, 0 = automatic: CZK_MSM_ACC from the environment, else
 * from 2^24 sorted entries the tree, at the largest B the scratch holds (G1: only B >= 2048, else
 * XYZZ), XYZZ below) of later calls on the calling thread; for tests and benches. */
void czk_cuda_msm_force_accumulation(unsigned kind);
/* Test hook, no GPU needed: the G1 MSM of n points through the batch-affine accumulation code
 * run on the host (lanes per thread, steps per lane as given; window width c), with plain
 * partial merging, reduction and combination; out as czk_cuda_msm's. Every scalar must be > 1
 * and < r and every base finite. */
enum czk_status czk_cuda_msm_affine_host_check(enum czk_groth16_curve curve, const void *bases,
                                               const uint64_t (*scalars)[4], size_t n, unsigned c,
                                               unsigned lanes, unsigned steps, void *out, char *err,
                                               size_t errlen);
/* Test hook, no GPU needed: as czk_cuda_msm_affine_host_check through the tree accumulation
 * (level code run on the host with `threads` threads of at most `batch` items each, windows in
 * groups of `group` windows). */
enum czk_status czk_cuda_msm_tree_host_check(enum czk_groth16_curve curve, const void *bases,
                                             const uint64_t (*scalars)[4], size_t n, unsigned c,
                                             unsigned group, unsigned threads, unsigned batch, void *out,
                                             char *err, size_t errlen);
/* Test hook, no GPU needed: the one-warp point operations of the window combination (run on
 * the host, a stage a loop over the team's threads) against the one-thread XYZZ ones, on points
 * made from n >= 2 finite bases of G1 or G2 (group 1 or 2); CZK_ERR_INTERNAL with the operation
 * and point in err on the first difference. */
enum czk_status czk_cuda_msm_team_host_check(enum czk_groth16_curve curve, unsigned group,
                                             const void *bases, size_t n, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CUDA_MSM_CUDA_H */
