/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA, internal to backend_cuda.cu, ntt.cu and eval.cu (C++ only): the device and
 * context structs behind czk_device_t / czk_backend_t of the "cuda" kind, and the kernels'
 * host entry points the backend's op slots call.
 *
 * Threading: a struct czk_cuda_device is shared by every context on its GPU; its caches
 * (NTT twiddles, power tables, resident CSR matrices) are guarded by `lock` and their
 * entries, once published, are immutable until the process ends (twiddles, power tables) or
 * until evicted while unused (CSR). A struct czk_cuda_ctx (one stream) is used by one thread
 * at a time, like the czk_backend_t that owns it.
 * Every entry point first selects the context's device (cudaSetDevice) on the calling thread.
 * Kernels are queued on the context's stream: results are complete after a synchronize on
 * that stream (buf_get does one).
 */
#ifndef CZK_CUDA_CUDA_INTERNAL_H
#define CZK_CUDA_CUDA_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "backend/backend_impl.h"
#include "cuda/cuda_check.h"
#include "io/formats.h"

#define CZK_CUDA_MAX_DEVICES 16
#define CZK_CUDA_TW_CACHE 64  /* twiddle tables per device (4 (curve, conv) x lg 16..31) */
#define CZK_CUDA_POW_CACHE 32 /* power tables per device (coset shifts, scales) */
#define CZK_CUDA_CSR_CACHE 8  /* resident CSR matrices per device */

/* NTT twiddles: T[k] = w^k, k < 2^(lg-1), w the primitive 2^lg-th root of (curve, conv). */
struct czk_cuda_tw {
    int curve, conv;
    unsigned lg;
    void *d;
};

/* Power table of f(j) = scale * base^j for j < 2^lg: lo[t] = scale*base^t (t < 2^lo_bits),
 * hi[t] = base^(t << lo_bits), f(j) = lo[j & mask] * hi[j >> lo_bits]. */
struct czk_cuda_pow {
    int curve;
    unsigned lg, lo_bits;
    uint64_t base[4], scale[4];
    void *d; /* lo then hi */
};

/* A CSR matrix resident on the device, keyed by its host struct (plus a fingerprint). */
struct czk_cuda_csr {
    const struct czk_csr *key;
    uint64_t fp;      /* fingerprint of sizes, array addresses and sampled contents */
    uint32_t n_rows, n_cols;
    uint64_t nnz;
    uint64_t *row_ptr; /* device */
    uint32_t *col;
    void *val;
    uint32_t *long_rows; /* device list of rows with more than CZK_CUDA_SHORT_ROW terms */
    uint32_t n_long;
    size_t bytes;
    unsigned refs;  /* contexts using it now */
    uint64_t stamp; /* last use, for LRU eviction */
};

struct czk_cuda_device {
    struct czk_device dev;
    int ordinal;
    char name[16];
    char desc[256];
    size_t mem_total;
    unsigned sms;
    unsigned max_lg_n;
    pthread_mutex_t lock;
    struct czk_cuda_tw tw[CZK_CUDA_TW_CACHE];
    unsigned n_tw;
    struct czk_cuda_pow pw[CZK_CUDA_POW_CACHE];
    unsigned n_pw, next_pw;
    struct czk_cuda_csr csr[CZK_CUDA_CSR_CACHE];
    uint64_t csr_clock;
};

/* Uploads from pageable memory of at least CZK_CUDA_STAGE_MIN bytes go through the context's
 * pinned double buffer, CZK_CUDA_STAGE_CHUNK bytes a half (backend_cuda.cu: upload). */
#define CZK_CUDA_STAGE_CHUNK ((size_t)8 << 20)
#define CZK_CUDA_STAGE_MIN ((size_t)1 << 20)

struct czk_cuda_ctx {
    struct czk_cuda_device *d;
    cudaStream_t stream;
    char err[256]; /* last error of an op on this context */
    /* Staging for pageable uploads, made on first use, freed by be_free: two pinned halves of
     * CZK_CUDA_STAGE_CHUNK bytes (stage[1] = stage[0] + CHUNK) and, per half, an event
     * recorded after the DMA that reads it (waited on before the half is refilled). */
    uint8_t *stage[2];
    cudaEvent_t stage_ev[2];
    bool stage_off; /* staging could not be set up: pageable uploads go direct */
};

/* Rows with at most this many terms (in A and in B) are evaluated one thread per row. */
#define CZK_CUDA_SHORT_ROW 32u

/* From cuda_probe.cu. */
extern "C" enum czk_status czk_cuda_device_count(int *count);
extern "C" enum czk_status czk_cuda_probe(int device);

/* Device memory with the free-memory prediction ("cuda0: need X bytes, Y free"). */
enum czk_status czk_cuda_dev_alloc(struct czk_cuda_device *d, size_t size, void **ptr, char *err,
                                   size_t errlen);
void czk_cuda_dev_free(struct czk_cuda_device *d, void *ptr);

/* Selects the context's device on this thread; CZK_ERR_DEVICE_LOST if it was lost. */
enum czk_status czk_cuda_enter(struct czk_cuda_ctx *x);

/* ntt.cu: the NTT of czk_backend_ntt on 2^lg_n elements at device address data. */
enum czk_status czk_cuda_ntt_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve, void *data,
                                 unsigned lg_n, enum czk_backend_dir dir,
                                 enum czk_ntt_convention conv, const uint64_t shift[4]);
/* Field multiplications one NTT performs (for rates). */
double czk_cuda_ntt_mul_count(unsigned lg_n, enum czk_backend_dir dir, bool shift);
/* Device bytes the NTT of 2^lg_n keeps cached (twiddles), beside the data. */
size_t czk_cuda_ntt_cache_bytes(unsigned lg_n);

/* eval.cu */
enum czk_status czk_cuda_sparse_eval_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                         const struct czk_csr *A, const struct czk_csr *B,
                                         const void *w, void *a, void *b, void *c);
enum czk_status czk_cuda_quotient_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                      void *a, const void *b, const void *c, size_t n,
                                      const uint64_t zinv[4]);
enum czk_status czk_cuda_to_canonical_run(struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                          void *data, size_t n);

/* The context of a backend / device of this kind. */
static inline struct czk_cuda_ctx *czk_cuda_ctx_of(czk_backend_t be)
{
    return (struct czk_cuda_ctx *)be->context;
}
static inline struct czk_cuda_device *czk_cuda_dev_of(czk_device_t dev)
{
    return (struct czk_cuda_device *)dev->context;
}

/* Blocks of `threads` covering n items, capped for grid-stride loops. */
static inline unsigned czk_cuda_grid(size_t n, unsigned threads, unsigned cap)
{
    size_t b = (n + threads - 1) / threads;
    return b == 0 ? 1u : (b > cap ? cap : (unsigned)b);
}

#endif /* CZK_CUDA_CUDA_INTERNAL_H */
