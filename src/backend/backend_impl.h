/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: what a backend implements. The public handles of czk_backend.h are the
 * structs below; each kind (backend_cpu.c, later src/cuda/backend_cuda.cu) fills the
 * vtables and registers a struct czk_backend_reg. backend.c owns the registry, the
 * argument checks, the defaults of the optional slots and the CPU fallback, so an
 * implementation only sees valid arguments (curve is BN254 or BLS12-381, sizes fit
 * the buffers, lg_n within the field's two-adicity).
 *
 * Adding a kind (the CUDA issue): provide `czk_backend_reg_t czk_backend_cuda_reg(void)`
 * (returns NULL when no usable GPU is present) declared in src/cuda/backend_cuda.h;
 * backend.c registers it when CZK_USE_CUDA is defined and that header exists. Nothing
 * else changes for callers.
 *
 * Threading: vtable functions of one czk_backend_t are called by one thread at a time;
 * device functions may be called concurrently (buf_alloc from several workers).
 * Ownership: registry, devices and their contexts are static for the process; a
 * backend's context is released by its `free` slot; a buffer's memory by buf_free.
 * Includable from C++ (CUDA translation units).
 */
#ifndef CZK_BACKEND_BACKEND_IMPL_H
#define CZK_BACKEND_BACKEND_IMPL_H

#include "czk/czk_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_BACKEND_API_VERSION 1

struct czk_csr; /* src/io/formats.h: compressed sparse rows, Montgomery values */

struct czk_backend_reg_i {
    const char *(*get_name)(czk_backend_reg_t reg);              /* static kind name */
    size_t (*device_count)(czk_backend_reg_t reg);               /* usable devices */
    czk_device_t (*device_get)(czk_backend_reg_t reg, size_t i); /* i < device_count */
};

struct czk_backend_reg {
    int api_version; /* CZK_BACKEND_API_VERSION; a mismatching kind is not registered */
    struct czk_backend_reg_i iface;
    void *context;
};

struct czk_device_i {
    /* static device name ("cpu", "cuda0") */
    const char *(*get_name)(czk_device_t dev);
    /* fill every field of *props */
    void (*get_props)(czk_device_t dev, struct czk_device_props *props);
    /* (optional) false = run this op on the CPU instead; default: true */
    bool (*supports)(czk_device_t dev, enum czk_groth16_curve curve, enum czk_backend_op op,
                     unsigned lg_n);
    /* new execution context; threads already resolved (>= 1); fill be->iface, be->context */
    enum czk_status (*backend_new)(czk_device_t dev, czk_backend_t be, char *err, size_t errlen);
    /* size > 0 bytes of device memory into *ptr */
    enum czk_status (*buf_alloc)(czk_device_t dev, size_t size, void **ptr);
    /* release memory from buf_alloc */
    void (*buf_free)(czk_device_t dev, void *ptr);
    /* (optional) page-locked host memory; default: malloc */
    void *(*host_alloc)(czk_device_t dev, size_t size);
    /* (optional) release host_alloc memory; default: free */
    void (*host_free)(czk_device_t dev, void *ptr);
    /* (optional) device memory an MSM of n points in `group` takes beyond its inputs and
     * output at the least (czk_device_msm_scratch; curve and group valid); default: 0 */
    uint64_t (*msm_scratch)(czk_device_t dev, enum czk_groth16_curve curve, unsigned group,
                            size_t n);
};

struct czk_device {
    struct czk_device_i iface;
    czk_backend_reg_t reg;
    bool host_memory; /* buffer memory is host-addressable (enables zero-copy paths) */
    void *context;
};

struct czk_buf {
    czk_device_t device;
    void *ptr; /* device (or host, when device->host_memory) address */
    size_t size;
    bool borrowed; /* czk_buf_from_host without copy: ptr is the caller's */
};

struct czk_backend_i {
    /* (optional) release be->context after outstanding work; default: nothing */
    void (*free)(czk_backend_t be);
    /* wait for everything issued on be */
    enum czk_status (*synchronize)(czk_backend_t be);
    /* synchronous copy host -> buf at byte offset (range checked by the caller) */
    enum czk_status (*buf_set)(czk_backend_t be, czk_buf_t buf, size_t off, const void *src,
                               size_t size);
    /* synchronous copy buf -> host */
    enum czk_status (*buf_get)(czk_backend_t be, czk_buf_t buf, size_t off, void *dst, size_t size);
    /* (optional) queued host -> buf copy, done by synchronize; default: buf_set */
    enum czk_status (*buf_set_async)(czk_backend_t be, czk_buf_t buf, size_t off, const void *src,
                                     size_t size);
    /* (optional) queued buf -> host copy, done by synchronize; default: buf_get */
    enum czk_status (*buf_get_async)(czk_backend_t be, czk_buf_t buf, size_t off, void *dst,
                                     size_t size);
    /* (optional) fill buf (device, size set) from host memory: borrow or copy; default:
     * buf_alloc + buf_set (a host-memory device borrows without this slot) */
    enum czk_status (*buf_from_host)(czk_backend_t be, czk_buf_t buf, const void *host);
    /* (optional) in-place NTT of 2^lg_n elements (czk_backend_ntt); default: CPU */
    enum czk_status (*ntt)(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t data,
                           unsigned lg_n, enum czk_backend_dir dir, enum czk_ntt_convention conv,
                           const uint64_t shift[4]);
    /* (optional) MSM in group 1 or 2 (czk_backend_msm_g1/g2); default: CPU */
    enum czk_status (*msm)(czk_backend_t be, enum czk_groth16_curve curve, unsigned group,
                           czk_buf_t bases, czk_buf_t scalars, size_t scalar_off, size_t n,
                           void *out);
    /* (optional) a = A·w, b = B·w, c = a∘b over the rows of A, B (czk_backend_sparse_eval);
     * default: CPU */
    enum czk_status (*sparse_eval)(czk_backend_t be, enum czk_groth16_curve curve,
                                   const struct czk_csr *A, const struct czk_csr *B, czk_buf_t w,
                                   czk_buf_t a, czk_buf_t b, czk_buf_t c);
    /* (optional) a = (a·b − c)[·zinv] pointwise (czk_backend_quotient); default: CPU */
    enum czk_status (*quotient)(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t a,
                                czk_buf_t b, czk_buf_t c, size_t n, const uint64_t zinv[4]);
    /* (optional) Montgomery -> canonical in place; default: CPU */
    enum czk_status (*to_canonical)(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t data,
                                    size_t n);
};

struct czk_backend {
    struct czk_backend_i iface;
    czk_device_t device;
    unsigned threads; /* host threads, resolved (>= 1) */
    struct czk_budget *scratch_budget; /* czk_backend_set_scratch_budget; NULL = none */
    void *context;
};

/*
 * Synthesis, for the prover (internal because struct czk_csr is): with A and B the
 * constraint matrices (rows = the evaluation domain, cols = signals, values c·R² as
 * zkey section 4 stores them) and w the canonical witness (A->n_cols elements),
 *   a[i] = sum_k A.val[k]·w[A.col[k]]  (Montgomery products: Mont(c·w)),
 *   b[i] likewise, c[i] = a[i]·b[i]     for every row i < A->n_rows.
 * A and B must have the same n_rows and n_cols; a, b, c hold n_rows elements.
 */
enum czk_status czk_backend_sparse_eval(czk_backend_t be, enum czk_groth16_curve curve,
                                        const struct czk_csr *A, const struct czk_csr *B,
                                        czk_buf_t w, czk_buf_t a, czk_buf_t b, czk_buf_t c);

/* The CPU device (backend_cpu.c); always present. */
czk_backend_reg_t czk_backend_cpu_reg(void);

/*
 * CPU kernels over host memory, shared by the CPU backend and the fallback of every
 * other backend. `threads` >= 1. Same contracts as the public ops.
 */
enum czk_status czk_cpu_ntt(enum czk_groth16_curve curve, uint64_t (*data)[4], unsigned lg_n,
                            enum czk_backend_dir dir, enum czk_ntt_convention conv,
                            const uint64_t shift[4], unsigned threads);
enum czk_status czk_cpu_msm(enum czk_groth16_curve curve, unsigned group, const void *bases,
                            const uint64_t (*scalars)[4], size_t n, void *out, unsigned threads);
enum czk_status czk_cpu_sparse_eval(enum czk_groth16_curve curve, const struct czk_csr *A,
                                    const struct czk_csr *B, const uint64_t (*w)[4],
                                    uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                                    unsigned threads);
void czk_cpu_quotient(enum czk_groth16_curve curve, uint64_t (*a)[4], const uint64_t (*b)[4],
                      const uint64_t (*c)[4], size_t n, const uint64_t zinv[4], unsigned threads);
void czk_cpu_to_canonical(enum czk_groth16_curve curve, uint64_t (*data)[4], size_t n,
                          unsigned threads);

#ifdef __cplusplus
}
#endif

#endif /* CZK_BACKEND_BACKEND_IMPL_H */
