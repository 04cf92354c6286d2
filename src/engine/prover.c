/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's default prover (czk_engine_prover_default): the real czk_witness_load /
 * czk_prove_start / czk_prove_finish behind the engine's vtable, and the memory-need
 * formula of a partition (czk_engine_partition_need, documented in engine.h).
 * Threading: stateless; every member may run concurrently. Ownership: witnesses loaded
 * into a slab borrow the slab, which the engine releases after the witness.
 */
#include <string.h>

#include "czk/engine.h"

#define ELEM 32u

static enum czk_status real_witness_load(void *ctx, const char *path, void *dst, size_t dst_cap,
                                         czk_witness_t *w, char *err, size_t errlen)
{
    (void)ctx;
    czk_witness_t fw;
    enum czk_status st = czk_witness_load(&fw, path, err, errlen);
    if (st != CZK_OK || !dst) {
        if (st == CZK_OK)
            *w = fw;
        return st;
    }
    /* Into the slab (pinned on GPU builds): the device uploads from there. */
    size_t n = czk_witness_count(fw);
    if (n > dst_cap / ELEM) {
        czk_witness_free(fw);
        return czk_errf(CZK_ERR_BUDGET, err, errlen,
                        "%s: %zu witness values (%zu bytes) do not fit the %zu-byte slab", path,
                        n, n * (size_t)ELEM, dst_cap);
    }
    memcpy(dst, czk_witness_values(fw), n * ELEM);
    enum czk_groth16_curve curve = czk_witness_curve(fw);
    czk_witness_free(fw);
    return czk_witness_wrap(w, curve, (const uint64_t(*)[4])dst, n, err, errlen);
}

static void real_witness_free(void *ctx, czk_witness_t w)
{
    (void)ctx;
    czk_witness_free(w);
}

static enum czk_status real_start(void *ctx, void **job, czk_prover_key_t key, czk_backend_t be,
                                  czk_witness_t w, const struct czk_prove_opts *opts, char *err,
                                  size_t errlen)
{
    (void)ctx;
    czk_prove_job_t j;
    enum czk_status st = czk_prove_start(&j, key, be, w, opts, err, errlen);
    if (st == CZK_OK)
        *job = j;
    return st;
}

static enum czk_status real_finish(void *ctx, void *job, struct czk_groth16_proof *proof,
                                   struct czk_groth16_public *pub, char *err, size_t errlen)
{
    (void)ctx;
    return czk_prove_finish((czk_prove_job_t)job, proof, pub, err, errlen);
}

static void real_job_free(void *ctx, void *job)
{
    (void)ctx;
    czk_prove_job_free((czk_prove_job_t)job);
}

static const struct czk_engine_prover_i real_prover = {
    .witness_load = real_witness_load,
    .witness_free = real_witness_free,
    .start = real_start,
    .finish = real_finish,
    .job_free = real_job_free,
    .need = NULL,
    .admit = NULL,
};

const struct czk_engine_prover_i *czk_engine_prover_default(void) { return &real_prover; }

static uint64_t max3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a > b ? a : b;
    return m > c ? m : c;
}

void czk_engine_partition_need(const struct czk_prover_key_info *info, czk_device_t dev,
                               unsigned threads, uint64_t *host_bytes, uint64_t *device_bytes)
{
    uint64_t N = info->domain_size, V = info->n_vars, T = threads ? threads : 1;
    bool bls = info->curve == CZK_GROTH16_CURVE_BLS12_381;
    uint64_t ga = bls ? 192 : 128, gx = 2 * ga; /* G2 affine / XYZZ bytes */
    uint64_t wit = V * ELEM + 4096;
    uint64_t abc = 3 * N * ELEM;
    uint64_t big = V > N ? V : N;
    uint64_t msm = 4 * big + T * ((1ull << 15) * (ga + gx + 1) + 2048 * (ga + 2 * ELEM) + 8192) +
                   65536;
    uint64_t proof = 4096 + ((uint64_t)info->n_public + 1) * ELEM;
    struct czk_device_props pr;
    memset(&pr, 0, sizeof pr);
    if (dev)
        czk_device_get_props(dev, &pr);
    if (pr.type == CZK_DEVICE_TYPE_GPU) {
        /* the G1 MSMs run on V (A, B1; C on fewer) and N (H) points, the G2 MSM on V */
        uint64_t s1 = czk_device_msm_scratch(dev, info->curve, 1, (size_t)big);
        uint64_t s2 = czk_device_msm_scratch(dev, info->curve, 2, (size_t)V);
        *host_bytes = wit + proof + (16ull << 20);
        *device_bytes = wit + N * ELEM + (64ull << 20) + max3(abc, N * ELEM + s1, s2);
    } else {
        *host_bytes = wit + abc + msm + proof;
        *device_bytes = 0;
    }
}
