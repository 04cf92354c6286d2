/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUDA MSM at the sizes of the targets (label gpu), where 32-bit offsets break: bases
 * P_i = (i + 1)·G made on the GPU (running sums of the generator), fresh random scalars k_i,
 * result checked against (sum k_i·(i + 1) mod r)·G computed on the CPU (exact multi-precision
 * sum, one scalar multiplication). BLS12-381 G1 at 2^24 and 2^26, BN254 G1 at 2^24, G2 of both
 * curves at 2^22. Also: device out-of-memory is predicted and reported (CZK_ERR_DEVICE, "need
 * ... bytes"), not discovered by a crash. Times are printed for information only.
 * Skipped (77) without a GPU or without CUDA.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "czk/czk.h"

#ifdef CZK_USE_CUDA
#include "czk/czk_ec.h"
#include "czk/czk_ff.h"
#include "cuda/msm_cuda.h"

enum czk_status czk_cuda_device_count(int *count);

/* expected = (sum_i k_i (i + 1) mod r)·G as affine bytes; gpu_jac converted to affine bytes */
#define GROUP_FNS(G, FR)                                                                           \
    static void G##_expect(const uint64_t k[4], void *aff)                                         \
    {                                                                                              \
        struct czk_##G##_affine g;                                                                 \
        struct czk_##G gj, r;                                                                      \
        czk_##G##_generator(&g);                                                                   \
        czk_##G##_from_affine(&gj, &g);                                                            \
        czk_##G##_mul_limbs(&r, &gj, k, 4);                                                        \
        czk_##G##_to_affine(aff, &r);                                                              \
    }                                                                                              \
    static void G##_to_aff(void *aff, const void *jac) { czk_##G##_to_affine(aff, jac); }          \
    static void G##_reduce(const uint64_t acc[6], uint64_t k[4])                                   \
    {                                                                                              \
        struct czk_##FR x, t, two64, l;                                                            \
        const uint64_t two64_l[4] = {0, 1, 0, 0};                                                  \
        assert_int_equal(czk_##FR##_from_canonical(&two64, two64_l), CZK_OK);                     \
        czk_##FR##_zero(&x);                                                                       \
        for (int j = 5; j >= 0; j--) {                                                             \
            const uint64_t lj[4] = {acc[j], 0, 0, 0};                                              \
            assert_int_equal(czk_##FR##_from_canonical(&l, lj), CZK_OK);                           \
            czk_##FR##_mul(&t, &x, &two64);                                                        \
            czk_##FR##_add(&x, &t, &l);                                                            \
        }                                                                                          \
        czk_##FR##_to_canonical(k, &x);                                                            \
    }
GROUP_FNS(g1_bn254, fr_bn254)
GROUP_FNS(g2_bn254, fr_bn254)
GROUP_FNS(g1_bls12_381, fr_bls12_381)
GROUP_FNS(g2_bls12_381, fr_bls12_381)

struct group_info {
    const char *name;
    enum czk_groth16_curve curve;
    unsigned group;
    size_t aff_bytes;
    const uint64_t *(*r)(void);
    void (*expect)(const uint64_t k[4], void *aff);
    void (*to_affine)(void *aff, const void *jac);
    void (*reduce)(const uint64_t acc[6], uint64_t k[4]);
};

static const struct group_info groups[] = {
    {"g1_bn254", CZK_GROTH16_CURVE_BN254, 1, sizeof(struct czk_g1_bn254_affine), czk_fr_bn254_modulus,
     g1_bn254_expect, g1_bn254_to_aff, g1_bn254_reduce},
    {"g2_bn254", CZK_GROTH16_CURVE_BN254, 2, sizeof(struct czk_g2_bn254_affine), czk_fr_bn254_modulus,
     g2_bn254_expect, g2_bn254_to_aff, g2_bn254_reduce},
    {"g1_bls12_381", CZK_GROTH16_CURVE_BLS12_381, 1, sizeof(struct czk_g1_bls12_381_affine),
     czk_fr_bls12_381_modulus, g1_bls12_381_expect, g1_bls12_381_to_aff, g1_bls12_381_reduce},
    {"g2_bls12_381", CZK_GROTH16_CURVE_BLS12_381, 2, sizeof(struct czk_g2_bls12_381_affine),
     czk_fr_bls12_381_modulus, g2_bls12_381_expect, g2_bls12_381_to_aff, g2_bls12_381_reduce},
};

/* random k < r: random top limb reduced below r's top limb */
static void rand_scalar(uint64_t k[4], const uint64_t *r)
{
    for (int l = 0; l < 4; l++)
        k[l] = czk_test_rand64();
    k[3] %= r[3];
}

static void check_running(const struct group_info *g, unsigned lg)
{
    size_t n = (size_t)1 << lg;
    uint64_t(*sc)[4] = malloc(n * sizeof *sc);
    assert_non_null(sc);
    uint64_t acc[6] = {0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        rand_scalar(sc[i], g->r());
        /* a few zeros and ones among them (the select path at full size) */
        if (i % 1000 == 17)
            memset(sc[i], 0, 32);
        else if (i % 1000 == 33)
            memset(sc[i], 0, 32), sc[i][0] = 1;
        unsigned __int128 carry = 0;
        uint64_t mult = (uint64_t)i + 1;
        for (int l = 0; l < 4; l++) {
            unsigned __int128 p = (unsigned __int128)sc[i][l] * mult + acc[l] + carry;
            acc[l] = (uint64_t)p;
            carry = p >> 64;
        }
        for (int l = 4; l < 6; l++) {
            unsigned __int128 p = (unsigned __int128)acc[l] + carry;
            acc[l] = (uint64_t)p;
            carry = p >> 64;
        }
        assert_true(carry == 0);
    }
    uint64_t k[4];
    g->reduce(acc, k);
    uint8_t want[512], got_aff[512], got[1024];
    memset(want, 0x5a, sizeof want);
    memset(got_aff, 0xa5, sizeof got_aff);
    memset(got, 0xa5, sizeof got);
    g->expect(k, want);
    char err[256] = "";
    double ms = 0, ms_bases = 0;
    enum czk_status st =
        czk_cuda_msm_running(g->curve, g->group, (const uint64_t(*)[4])sc, n, got, 3, &ms, &ms_bases, err,
                             sizeof err);
    if (st != CZK_OK)
        fail_msg("%s 2^%u: %s (%s)", g->name, lg, czk_status_str(st), err);
    struct czk_cuda_msm_stats stt;
    czk_cuda_msm_last_stats(&stt);
    g->to_affine(got_aff, got);
    printf("test_backend_msm_large: %s 2^%u: median %.2f ms (bases made in %.1f ms), c=%u windows=%u "
           "chunk=%u levels=%u general=%zu ones=%zu scratch=%.2f GB\n",
           g->name, lg, ms, ms_bases, stt.c, stt.windows, stt.chunk, stt.levels, stt.n_general, stt.n_ones,
           (double)stt.scratch / 1e9);
    if (memcmp(got_aff, want, g->aff_bytes) != 0)
        fail_msg("%s 2^%u: GPU MSM over running-sum bases differs from (sum k_i (i+1))·G", g->name, lg);
    free(sc);
}

static void test_bls_g1_2_24(void **state) { (void)state; check_running(&groups[2], 24); }
static void test_bls_g1_2_26(void **state) { (void)state; check_running(&groups[2], 26); }
static void test_bn_g1_2_24(void **state) { (void)state; check_running(&groups[0], 24); }
static void test_bn_g2_2_22(void **state) { (void)state; check_running(&groups[1], 22); }
static void test_bls_g2_2_22(void **state) { (void)state; check_running(&groups[3], 22); }

/* 2^30 G2 bases of BLS12-381 are 206 GB: refused before any allocation, with the sizes */
static void test_oom_predicted(void **state)
{
    (void)state;
    uint64_t dummy[1][4] = {{0, 0, 0, 0}};
    uint8_t out[1024];
    char err[256] = "";
    enum czk_status st = czk_cuda_msm_running(CZK_GROTH16_CURVE_BLS12_381, 2, (const uint64_t(*)[4])dummy,
                                              (size_t)1 << 30, out, 1, NULL, NULL, err, sizeof err);
    assert_int_equal(st, CZK_ERR_DEVICE);
    assert_non_null(strstr(err, "need"));
    printf("test_backend_msm_large: predicted: %s\n", err);
    /* the device is still usable afterwards */
    uint64_t one[1][4] = {{1, 0, 0, 0}};
    uint8_t want[512], got_aff[512];
    const uint64_t k1[4] = {1, 0, 0, 0};
    st = czk_cuda_msm_running(CZK_GROTH16_CURVE_BLS12_381, 1, (const uint64_t(*)[4])one, 1, out, 1, NULL, NULL,
                              err, sizeof err);
    if (st != CZK_OK)
        fail_msg("after the refused call: %s (%s)", czk_status_str(st), err);
    groups[2].expect(k1, want);
    groups[2].to_affine(got_aff, out);
    assert_memory_equal(got_aff, want, groups[2].aff_bytes);
}
#endif /* CZK_USE_CUDA */

int main(void)
{
#ifdef CZK_USE_CUDA
    czk_test_seed_init("test_backend_msm_large");
    int n_dev = 0;
    if (czk_cuda_device_count(&n_dev) != CZK_OK || n_dev == 0) {
        printf("test_backend_msm_large: no CUDA device: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oom_predicted), cmocka_unit_test(test_bls_g1_2_24),
        cmocka_unit_test(test_bn_g1_2_24),    cmocka_unit_test(test_bn_g2_2_22),
        cmocka_unit_test(test_bls_g2_2_22),   cmocka_unit_test(test_bls_g1_2_26),
    };
    return cmocka_run_group_tests_name("backend_msm_large", tests, NULL, NULL);
#else
    printf("test_backend_msm_large: built without CUDA: skipped\n");
    return 77;
#endif
}
