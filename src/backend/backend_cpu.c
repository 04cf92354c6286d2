/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CPU backend: one device ("cpu", host memory) whose execution contexts run every
 * op on the calling thread plus up to `threads` workers (czk_parallel_for), with the
 * NTT of src/ntt and the Pippenger MSM of src/msm. It is the reference every other
 * backend is compared with, and its kernels (czk_cpu_*) are the CPU fallback of the
 * dispatch layer (backend.c).
 *
 * Threading: the kernels keep no state; a context holds nothing but its thread count,
 * so a CPU context is cheap and operations complete before returning (synchronize is a
 * no-op). Ownership: buffers are 64-byte aligned heap blocks; buffers made from host
 * memory borrow it (backend.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_impl.h"
#include "core/parallel.h"
#include "io/formats.h"
#include "msm/msm.h"
#include "ntt/ntt.h"

/* ---- kernels ------------------------------------------------------------------- */

enum czk_status czk_cpu_ntt(enum czk_groth16_curve curve, uint64_t (*data)[4], unsigned lg_n,
                            enum czk_backend_dir dir, enum czk_ntt_convention conv,
                            const uint64_t shift[4], unsigned threads)
{
    return czk_ntt(curve, data, lg_n,
                   dir == CZK_BACKEND_INVERSE ? CZK_NTT_INVERSE : CZK_NTT_FORWARD, conv, shift,
                   threads);
}

enum czk_status czk_cpu_msm(enum czk_groth16_curve curve, unsigned group, const void *bases,
                            const uint64_t (*scalars)[4], size_t n, void *out, unsigned threads)
{
    if (curve == CZK_GROTH16_CURVE_BN254)
        return group == 1 ? czk_msm_g1_bn254(out, bases, scalars, n, threads)
                          : czk_msm_g2_bn254(out, bases, scalars, n, threads);
    if (curve == CZK_GROTH16_CURVE_BLS12_381)
        return group == 1 ? czk_msm_g1_bls12_381(out, bases, scalars, n, threads)
                          : czk_msm_g2_bls12_381(out, bases, scalars, n, threads);
    return CZK_ERR_INVALID_ARG;
}

/* Rows per chunk of the sparse evaluation and elements per chunk of pointwise loops:
 * large enough that a chunk is tens of microseconds, small enough to balance. */
#define SPARSE_GRAIN 1024u
#define POINTWISE_GRAIN 8192u

struct sparse_ctx {
    const struct czk_csr *A, *B;
    const uint64_t (*w)[4];
    uint64_t (*a)[4], (*b)[4], (*c)[4];
};

struct pointwise_ctx {
    uint64_t (*a)[4];
    const uint64_t (*b)[4], (*c)[4];
    const uint64_t *zinv;
};

/*
 * Per-field kernels. Each Montgomery product of a stored coefficient (c·R²) with a
 * canonical witness value w is c·R²·w·R^-1 = Mont(c·w), so the row sums are the
 * Montgomery forms of A·w and B·w without converting the witness.
 */
#define CPU_KERNELS(FR)                                                                            \
    static void FR##_csr_row(const struct czk_csr *m, const uint64_t(*w)[4], size_t i,             \
                             struct czk_##FR *acc)                                                 \
    {                                                                                              \
        struct czk_##FR t;                                                                         \
        czk_##FR##_zero(acc);                                                                      \
        for (uint64_t k = m->row_ptr[i], e = m->row_ptr[i + 1]; k < e; k++) {                      \
            czk_##FR##_mul(&t, (const struct czk_##FR *)m->val[k],                                 \
                           (const struct czk_##FR *)w[m->col[k]]);                                 \
            czk_##FR##_add(acc, acc, &t);                                                          \
        }                                                                                          \
    }                                                                                              \
    static void FR##_sparse_rows(void *vctx, size_t begin, size_t end, unsigned worker)            \
    {                                                                                              \
        const struct sparse_ctx *x = vctx;                                                         \
        (void)worker;                                                                              \
        for (size_t i = begin; i < end; i++) {                                                     \
            struct czk_##FR *a = (struct czk_##FR *)x->a[i], *b = (struct czk_##FR *)x->b[i];      \
            FR##_csr_row(x->A, x->w, i, a);                                                        \
            FR##_csr_row(x->B, x->w, i, b);                                                        \
            czk_##FR##_mul((struct czk_##FR *)x->c[i], a, b);                                      \
        }                                                                                          \
    }                                                                                              \
    static void FR##_quotient_range(void *vctx, size_t begin, size_t end, unsigned worker)         \
    {                                                                                              \
        const struct pointwise_ctx *x = vctx;                                                      \
        (void)worker;                                                                              \
        for (size_t i = begin; i < end; i++) {                                                     \
            struct czk_##FR *a = (struct czk_##FR *)x->a[i];                                       \
            czk_##FR##_mul(a, a, (const struct czk_##FR *)x->b[i]);                                \
            czk_##FR##_sub(a, a, (const struct czk_##FR *)x->c[i]); /* a·b − c */               \
            if (x->zinv)                                                                           \
                czk_##FR##_mul(a, a, (const struct czk_##FR *)x->zinv); /* /Z on the coset */      \
        }                                                                                          \
    }                                                                                              \
    static void FR##_canonical_range(void *vctx, size_t begin, size_t end, unsigned worker)        \
    {                                                                                              \
        const struct pointwise_ctx *x = vctx;                                                      \
        (void)worker;                                                                              \
        for (size_t i = begin; i < end; i++) {                                                     \
            struct czk_##FR t = *(const struct czk_##FR *)x->a[i];                                 \
            czk_##FR##_to_canonical(x->a[i], &t);                                                  \
        }                                                                                          \
    }

CPU_KERNELS(fr_bn254)
CPU_KERNELS(fr_bls12_381)

enum czk_status czk_cpu_sparse_eval(enum czk_groth16_curve curve, const struct czk_csr *A,
                                    const struct czk_csr *B, const uint64_t (*w)[4],
                                    uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                                    unsigned threads)
{
    struct sparse_ctx x = {A, B, w, a, b, c};
    if (A->n_rows == 0)
        return CZK_OK;
    czk_parallel_fn fn =
        curve == CZK_GROTH16_CURVE_BN254 ? fr_bn254_sparse_rows : fr_bls12_381_sparse_rows;
    czk_parallel_for(A->n_rows, SPARSE_GRAIN, threads, fn, &x);
    return CZK_OK;
}

void czk_cpu_quotient(enum czk_groth16_curve curve, uint64_t (*a)[4], const uint64_t (*b)[4],
                      const uint64_t (*c)[4], size_t n, const uint64_t zinv[4], unsigned threads)
{
    struct pointwise_ctx x = {a, b, c, zinv};
    if (n == 0)
        return;
    czk_parallel_for(n, POINTWISE_GRAIN, threads,
                     curve == CZK_GROTH16_CURVE_BN254 ? fr_bn254_quotient_range
                                                      : fr_bls12_381_quotient_range,
                     &x);
}

void czk_cpu_to_canonical(enum czk_groth16_curve curve, uint64_t (*data)[4], size_t n,
                          unsigned threads)
{
    struct pointwise_ctx x = {data, NULL, NULL, NULL};
    if (n == 0)
        return;
    czk_parallel_for(n, POINTWISE_GRAIN, threads,
                     curve == CZK_GROTH16_CURVE_BN254 ? fr_bn254_canonical_range
                                                      : fr_bls12_381_canonical_range,
                     &x);
}

/* ---- backend vtable -------------------------------------------------------------- */

static enum czk_status cpu_synchronize(czk_backend_t be)
{
    (void)be;
    return CZK_OK;
}

static enum czk_status cpu_buf_set(czk_backend_t be, czk_buf_t buf, size_t off, const void *src,
                                   size_t size)
{
    (void)be;
    memcpy((uint8_t *)buf->ptr + off, src, size);
    return CZK_OK;
}

static enum czk_status cpu_buf_get(czk_backend_t be, czk_buf_t buf, size_t off, void *dst,
                                   size_t size)
{
    (void)be;
    memcpy(dst, (const uint8_t *)buf->ptr + off, size);
    return CZK_OK;
}

static enum czk_status cpu_ntt(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t data,
                               unsigned lg_n, enum czk_backend_dir dir,
                               enum czk_ntt_convention conv, const uint64_t shift[4])
{
    return czk_cpu_ntt(curve, data->ptr, lg_n, dir, conv, shift, be->threads);
}

static enum czk_status cpu_msm(czk_backend_t be, enum czk_groth16_curve curve, unsigned group,
                               czk_buf_t bases, czk_buf_t scalars, size_t scalar_off, size_t n,
                               void *out)
{
    const uint64_t(*s)[4] = (const uint64_t(*)[4])scalars->ptr + scalar_off;
    return czk_cpu_msm(curve, group, bases->ptr, s, n, out, be->threads);
}

static enum czk_status cpu_sparse_eval(czk_backend_t be, enum czk_groth16_curve curve,
                                       const struct czk_csr *A, const struct czk_csr *B,
                                       czk_buf_t w, czk_buf_t a, czk_buf_t b, czk_buf_t c)
{
    return czk_cpu_sparse_eval(curve, A, B, w->ptr, a->ptr, b->ptr, c->ptr, be->threads);
}

static enum czk_status cpu_quotient(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t a,
                                    czk_buf_t b, czk_buf_t c, size_t n, const uint64_t zinv[4])
{
    czk_cpu_quotient(curve, a->ptr, b->ptr, c->ptr, n, zinv, be->threads);
    return CZK_OK;
}

static enum czk_status cpu_to_canonical(czk_backend_t be, enum czk_groth16_curve curve,
                                        czk_buf_t data, size_t n)
{
    czk_cpu_to_canonical(curve, data->ptr, n, be->threads);
    return CZK_OK;
}

static const struct czk_backend_i cpu_backend_iface = {
    .free = NULL,
    .synchronize = cpu_synchronize,
    .buf_set = cpu_buf_set,
    .buf_get = cpu_buf_get,
    .buf_set_async = NULL,
    .buf_get_async = NULL,
    .buf_from_host = NULL, /* host memory: backend.c borrows */
    .ntt = cpu_ntt,
    .msm = cpu_msm,
    .sparse_eval = cpu_sparse_eval,
    .quotient = cpu_quotient,
    .to_canonical = cpu_to_canonical,
};

/* ---- device and registry ------------------------------------------------------------ */

static const char *cpu_dev_name(czk_device_t dev)
{
    (void)dev;
    return "cpu";
}

static void cpu_dev_props(czk_device_t dev, struct czk_device_props *p)
{
    long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
    long pg = sysconf(_SC_PAGESIZE);
    (void)dev;
    p->name = "cpu";
    p->description = "host CPU";
    p->type = CZK_DEVICE_TYPE_CPU;
    p->mem_total = pages > 0 && pg > 0 ? (size_t)pages * (size_t)pg : 0;
    p->mem_free = avail > 0 && pg > 0 ? (size_t)avail * (size_t)pg : 0;
    p->compute_units = czk_cpu_count();
    p->max_lg_n = czk_fr_bls12_381_two_adicity() > czk_fr_bn254_two_adicity()
                      ? czk_fr_bls12_381_two_adicity()
                      : czk_fr_bn254_two_adicity();
    p->host_memory = true;
    p->pinned_host = false;
    p->async = false;
}

static enum czk_status cpu_backend_new(czk_device_t dev, czk_backend_t be, char *err, size_t errlen)
{
    (void)dev;
    (void)err;
    (void)errlen;
    be->iface = cpu_backend_iface;
    be->context = NULL;
    return CZK_OK;
}

static enum czk_status cpu_buf_alloc(czk_device_t dev, size_t size, void **ptr)
{
    (void)dev;
    /* aligned_alloc wants a multiple of the alignment */
    size_t sz = (size + 63) & ~(size_t)63;
    void *p = sz >= size ? aligned_alloc(64, sz) : NULL;
    if (!p)
        return CZK_ERR_NOMEM;
    *ptr = p;
    return CZK_OK;
}

static void cpu_buf_free(czk_device_t dev, void *ptr)
{
    (void)dev;
    free(ptr);
}

static struct czk_backend_reg g_cpu_reg;

static struct czk_device g_cpu_device = {
    .iface =
        {
            .get_name = cpu_dev_name,
            .get_props = cpu_dev_props,
            .supports = NULL, /* every op, every size the field allows */
            .backend_new = cpu_backend_new,
            .buf_alloc = cpu_buf_alloc,
            .buf_free = cpu_buf_free,
            .host_alloc = NULL,
            .host_free = NULL,
        },
    .reg = &g_cpu_reg,
    .host_memory = true,
    .context = NULL,
};

static const char *cpu_reg_name(czk_backend_reg_t reg)
{
    (void)reg;
    return "cpu";
}

static size_t cpu_reg_count(czk_backend_reg_t reg)
{
    (void)reg;
    return 1;
}

static czk_device_t cpu_reg_get(czk_backend_reg_t reg, size_t i)
{
    (void)reg;
    (void)i;
    return &g_cpu_device;
}

static struct czk_backend_reg g_cpu_reg = {
    .api_version = CZK_BACKEND_API_VERSION,
    .iface = {.get_name = cpu_reg_name, .device_count = cpu_reg_count, .device_get = cpu_reg_get},
    .context = NULL,
};

czk_backend_reg_t czk_backend_cpu_reg(void) { return &g_cpu_reg; }
