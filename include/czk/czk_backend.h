/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — compute backends: the registry of backend kinds ("cpu", and "cuda" in CUDA
 * builds), their devices, execution contexts on a device, device memory, and the
 * coarse operations the Groth16 prover is made of (NTT, MSM over G1 and G2, the
 * quotient, pointwise conversion).
 *
 * Four opaque handles (the ggml model, three levels plus memory):
 *   czk_backend_reg_t  a kind of backend ("cpu", "cuda"), static, never freed
 *   czk_device_t       one device of a kind (the host CPU set, one GPU), static
 *   czk_backend_t      an execution context on a device (a stream); caller-owned
 *   czk_buf_t          memory owned by a device; caller-owned
 *
 * Data layout is the same on every device: scalar-field (Fr) elements are four
 * little-endian 64-bit limbs (both curves), Montgomery form unless an operation says
 * "canonical"; affine points are in the snarkjs .zkey layout, which is the layout of
 * the czk_ec.h affine structs (infinity = all zero bytes). Results computed on any
 * device are bit-identical to the CPU backend's (MSM results after conversion to
 * affine), which is how devices are tested.
 *
 * Threading: the registry and devices are immutable after the first call into this
 * API and may be used from any thread. A czk_backend_t is used by one thread at a
 * time (one worker owns it); operations issued on it execute in issue order. Distinct
 * backends, also on the same device, may run concurrently. Buffers may be shared by
 * backends of the same device; the caller orders conflicting accesses.
 *
 * Synchronicity: every operation is complete when it returns, except the _async
 * buffer transfers, which are complete after czk_backend_synchronize. (A device may
 * queue work internally; the dispatch layer synchronizes where results reach the
 * host.) Errors: every failable function returns enum czk_status and, where it takes
 * (err, errlen), writes a message there.
 *
 * Fallback: an operation a device declines (czk_device_supports returns false, or the
 * backend leaves the slot empty) runs on the CPU kernels over host copies of the
 * buffers, so callers never need two code paths.
 */
#ifndef CZK_CZK_BACKEND_H
#define CZK_CZK_BACKEND_H

#include "czk_groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_backend_reg *czk_backend_reg_t; /* a kind: "cpu", "cuda"         */
typedef struct czk_device *czk_device_t;           /* one CPU set or one GPU        */
typedef struct czk_backend *czk_backend_t;         /* an execution context (stream) */
typedef struct czk_buf *czk_buf_t;                 /* memory owned by a device      */

enum czk_device_type {
    CZK_DEVICE_TYPE_CPU = 0,
    CZK_DEVICE_TYPE_GPU = 1,
};

/* Coarse operations, for czk_device_supports. */
enum czk_backend_op {
    CZK_BACKEND_OP_NTT = 0,
    CZK_BACKEND_OP_MSM_G1 = 1,
    CZK_BACKEND_OP_MSM_G2 = 2,
    CZK_BACKEND_OP_SPARSE_EVAL = 3,
    CZK_BACKEND_OP_QUOTIENT = 4,
    CZK_BACKEND_OP_TO_CANONICAL = 5,
};

struct czk_device_props {
    const char *name;        /* "cpu", "cuda0", ...; static */
    const char *description; /* "x86-64, 16 threads", "NVIDIA H200"; static or device-owned */
    enum czk_device_type type;
    size_t mem_total, mem_free; /* bytes (host RAM for the CPU device) */
    unsigned compute_units;     /* CPU threads, GPU multiprocessors */
    unsigned max_lg_n;          /* largest NTT of the device: 2^max_lg_n elements */
    bool host_memory;           /* buffers are host memory (czk_buf_host_ptr non-NULL) */
    bool pinned_host;           /* czk_device_host_alloc returns page-locked memory */
    bool async;                 /* _async transfers overlap with compute */
};

/* ---- registry ---------------------------------------------------------------- */

/** Number of registered backend kinds (>= 1: "cpu" is always registered first). */
CZK_API size_t czk_backend_reg_count(void);

/** The i-th kind, or NULL when i >= czk_backend_reg_count(). */
CZK_API czk_backend_reg_t czk_backend_reg_get(size_t i);

/** The kind named `name` ("cpu", "cuda"), or NULL if not registered in this build/host. */
CZK_API czk_backend_reg_t czk_backend_reg_by_name(const char *name);

/** Static name of a kind. */
CZK_API const char *czk_backend_reg_name(czk_backend_reg_t reg);

/** Number of usable devices of a kind (CUDA: GPUs that passed the startup probe). */
CZK_API size_t czk_backend_reg_device_count(czk_backend_reg_t reg);

/** The i-th device of a kind, or NULL when out of range. */
CZK_API czk_device_t czk_backend_reg_device_get(czk_backend_reg_t reg, size_t i);

/**
 * Resolve a selection `spec` into devices: "cpu" = the CPU device; "cuda" = every
 * CUDA device; "auto" (or NULL / "") = every GPU of every registered kind, or the CPU
 * device when there is none. Writes up to `cap` devices to devs and their total count
 * to *n (so cap = 0 queries the count).
 * Returns CZK_OK; CZK_ERR_INVALID_ARG (unknown spec, NULL n); CZK_ERR_UNSUPPORTED
 * ("cuda" in a build without CUDA, or with no usable GPU), with a message in err.
 */
CZK_API enum czk_status czk_backend_select(const char *spec, czk_device_t *devs, size_t cap,
                                           size_t *n, char *err, size_t errlen);

/**
 * Convenience: a backend on the first device of czk_backend_select(spec), with
 * `threads` CPU threads (0 = all cores). The caller frees it with czk_backend_free.
 * Returns the statuses of czk_backend_select and czk_backend_new.
 */
CZK_API enum czk_status czk_backend_init_by_name(czk_backend_t *out, const char *spec,
                                                 unsigned threads, char *err, size_t errlen);

/* ---- devices ----------------------------------------------------------------- */

/** Static name of a device ("cpu", "cuda0"). */
CZK_API const char *czk_device_name(czk_device_t dev);

/** Fill *props (memory figures are sampled at the call). */
CZK_API void czk_device_get_props(czk_device_t dev, struct czk_device_props *props);

/** Whether the device runs `op` for `curve` at size 2^lg_n itself (else the CPU does). */
CZK_API bool czk_device_supports(czk_device_t dev, enum czk_groth16_curve curve,
                                 enum czk_backend_op op, unsigned lg_n);

/**
 * Host memory suited to transfers to the device (page-locked for GPUs when possible,
 * plain malloc otherwise); NULL on failure. Free with czk_device_host_free.
 */
CZK_API void *czk_device_host_alloc(czk_device_t dev, size_t size);
CZK_API void czk_device_host_free(czk_device_t dev, void *ptr);

/**
 * Device memory an MSM of n points in G1 (group 1) or G2 (group 2) of `curve` takes on
 * `dev` beyond its bases, scalars and output, at the least: the scratch of its slowest
 * plan. A call runs a faster plan when it can have more (czk_backend_set_scratch_budget).
 * 0 on devices that take no scratch of their own (the CPU) and for a bad curve or group.
 * A caller that reserves device memory for its work reserves this much for its MSMs.
 */
CZK_API uint64_t czk_device_msm_scratch(czk_device_t dev, enum czk_groth16_curve curve,
                                        unsigned group, size_t n);

/* ---- backends (execution contexts) ------------------------------------------- */

/**
 * New execution context on `dev`. `threads` bounds the host threads its operations
 * (and CPU fallbacks) use; 0 = all cores. *out is written only on success.
 * Returns CZK_OK, CZK_ERR_NOMEM, CZK_ERR_DEVICE.
 */
CZK_API enum czk_status czk_backend_new(czk_device_t dev, unsigned threads, czk_backend_t *out,
                                        char *err, size_t errlen);

/** Wait for outstanding work, then release the context. NULL: no-op. */
CZK_API void czk_backend_free(czk_backend_t be);

CZK_API czk_device_t czk_backend_get_device(czk_backend_t be);
CZK_API const char *czk_backend_name(czk_backend_t be);
/** Resolved host thread count (>= 1). */
CZK_API unsigned czk_backend_threads(czk_backend_t be);

struct czk_budget; /* src/mem/mem.h: a budget of bytes (the engine's, one per GPU) */

/**
 * Device scratch beyond an operation's least (czk_device_msm_scratch) comes out of
 * `budget` (borrowed; the device's memory budget, whose holders reserve their buffers
 * there): reserved without waiting before the operation, released when it returns; an
 * operation that cannot have it (the budget full, or someone waiting on it) runs its
 * least plan, which the caller's own reservation covers. NULL (the default): an
 * operation plans with the device's free memory alone. No-op on a NULL backend.
 */
CZK_API void czk_backend_set_scratch_budget(czk_backend_t be, struct czk_budget *budget);

/** Block until every operation and transfer issued on `be` has completed. */
CZK_API enum czk_status czk_backend_synchronize(czk_backend_t be);

/* ---- buffers ------------------------------------------------------------------- */

/**
 * `size` bytes of device memory (uninitialized) on `dev`; *out written on success.
 * Returns CZK_OK, CZK_ERR_INVALID_ARG (size 0), CZK_ERR_NOMEM (host), CZK_ERR_DEVICE.
 */
CZK_API enum czk_status czk_buf_alloc(czk_device_t dev, size_t size, czk_buf_t *out);

/**
 * A read-only buffer on be's device holding the `size` bytes at `host`. A device with
 * host memory (the CPU) borrows `host` without copying: the caller keeps it alive and
 * unchanged until the buffer is freed. Other devices copy (e.g. SRS bases made
 * resident on a GPU). Writing to such a buffer is a contract violation.
 */
CZK_API enum czk_status czk_buf_from_host(czk_backend_t be, const void *host, size_t size,
                                          czk_buf_t *out);

/** Release a buffer. NULL: no-op. */
CZK_API void czk_buf_free(czk_buf_t buf);

CZK_API size_t czk_buf_size(czk_buf_t buf);

/** The buffer's memory when the host can address it directly (CPU device), else NULL. */
CZK_API void *czk_buf_host_ptr(czk_buf_t buf);

/**
 * Copy `size` bytes from host `src` into buf at byte `offset` (set), or from buf to
 * host `dst` (get). Synchronous. CZK_ERR_INVALID_ARG if the range exceeds the buffer.
 * The _async forms may return before the copy is done; the host memory must stay
 * valid (and, for set, unchanged) until czk_backend_synchronize.
 */
CZK_API enum czk_status czk_buf_set(czk_backend_t be, czk_buf_t buf, size_t offset, const void *src,
                                    size_t size);
CZK_API enum czk_status czk_buf_get(czk_backend_t be, czk_buf_t buf, size_t offset, void *dst,
                                    size_t size);
CZK_API enum czk_status czk_buf_set_async(czk_backend_t be, czk_buf_t buf, size_t offset,
                                          const void *src, size_t size);
CZK_API enum czk_status czk_buf_get_async(czk_backend_t be, czk_buf_t buf, size_t offset, void *dst,
                                          size_t size);

/* ---- operations ---------------------------------------------------------------- */
/* `curve` selects the scalar field / groups; CZK_ERR_INVALID_ARG for CURVE_NONE, a
 * buffer too small for the operation, or lg_n above the field's two-adicity. */

enum czk_backend_dir {
    CZK_BACKEND_FORWARD = 0, /* coefficients -> evaluations */
    CZK_BACKEND_INVERSE = 1, /* evaluations -> coefficients (scaled by n^-1) */
};

/**
 * In-place NTT of the 2^lg_n Montgomery Fr elements at the start of `data`, natural
 * order in and out, roots of convention `conv` (czk_ff.h). With shift != NULL
 * (Montgomery), the evaluation points are shift·w^i: forward multiplies a_j by
 * shift^j first, inverse multiplies the result by shift^-j (so the coset scaling is
 * part of the op). Same definition as src/ntt/ntt.h.
 */
CZK_API enum czk_status czk_backend_ntt(czk_backend_t be, enum czk_groth16_curve curve,
                                        czk_buf_t data, unsigned lg_n, enum czk_backend_dir dir,
                                        enum czk_ntt_convention conv, const uint64_t shift[4]);

/**
 * out = sum_{i<n} scalars[scalar_off + i] · bases[i] in G1 (msm_g1) or G2 (msm_g2) of
 * `curve`. bases: n affine points (zkey layout, infinity = zeros); scalars: canonical
 * (not Montgomery) Fr elements, < r. `out` points to the curve's Jacobian struct:
 * struct czk_g1_bn254 / czk_g1_bls12_381 (msm_g1), czk_g2_bn254 / czk_g2_bls12_381
 * (msm_g2); written on success only. n == 0 gives infinity. Variable time.
 */
CZK_API enum czk_status czk_backend_msm_g1(czk_backend_t be, enum czk_groth16_curve curve,
                                           czk_buf_t bases, czk_buf_t scalars, size_t scalar_off,
                                           size_t n, void *out);
CZK_API enum czk_status czk_backend_msm_g2(czk_backend_t be, enum czk_groth16_curve curve,
                                           czk_buf_t bases, czk_buf_t scalars, size_t scalar_off,
                                           size_t n, void *out);

/**
 * The Groth16 quotient evaluations, pointwise over n Montgomery elements:
 * a[i] = a[i]·b[i] − c[i] (snarkjs keys, on the odd coset), times zinv when
 * zinv != NULL (bellman keys: zinv = 1/Z on the coset, Montgomery). b and c are read.
 */
CZK_API enum czk_status czk_backend_quotient(czk_backend_t be, enum czk_groth16_curve curve,
                                             czk_buf_t a, czk_buf_t b, czk_buf_t c, size_t n,
                                             const uint64_t zinv[4]);

/** In place, n elements from Montgomery to canonical form (MSM scalars). */
CZK_API enum czk_status czk_backend_to_canonical(czk_backend_t be, enum czk_groth16_curve curve,
                                                 czk_buf_t data, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_BACKEND_H */
