/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Slow tests of the CPU Pippenger MSM (src/msm/): 2^16, 2^17 and 2^18 points on all four
 * groups, at the sizes where the cost model picks wide windows (c = 12..16), several
 * point splits and the affine kernel's window groups.
 *
 * Bases are the running sums P_i = (i + 1) G (repeated mixed addition of the generator,
 * then one batch_to_affine), so the expected value is [sum_i k_i (i + 1) mod r] G with
 * the sum computed by GMP: one scalar multiplication checks the whole MSM. Scalars are
 * seeded random (CZK_TEST_SEED replays a run): uniform < r, and a PoRep-like mix of
 * 0, 1 and random values. Both kernels are run on every size; threads = all cores, and
 * 3 on the smallest size.
 */
#include "test_util.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk_ec.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"

typedef uint64_t scalar_t[4];

static void rand_below(scalar_t k, const mpz_t r, mpz_t tmp)
{
    size_t bits = mpz_sizeinbase(r, 2);
    for (;;) {
        for (int l = 0; l < 4; l++)
            k[l] = czk_test_rand64();
        if (bits < 256)
            k[3] &= (1ull << (bits - 192)) - 1;
        mpz_import(tmp, 4, -1, 8, 0, 0, k);
        if (mpz_cmp(tmp, r) < 0)
            return;
    }
}

/* Scalars: kind 0 uniform < r, kind 1 PoRep-like (40% zero, 40% one, 20% uniform). */
static void fill_scalars(scalar_t *s, size_t n, const mpz_t r, int kind)
{
    mpz_t tmp;
    mpz_init(tmp);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = kind ? czk_test_rand64() % 10 : 9;
        if (x < 8) {
            memset(s[i], 0, sizeof(scalar_t));
            s[i][0] = x < 4 ? 0 : 1;
        } else {
            rand_below(s[i], r, tmp);
        }
    }
    mpz_clear(tmp);
}

/* e = sum_i s_i (i + 1) mod r, as 4 limbs. */
static void expected_scalar(uint64_t e[4], const scalar_t *s, size_t n, const mpz_t r)
{
    mpz_t acc, t;
    mpz_init(acc);
    mpz_init(t);
    for (size_t i = 0; i < n; i++) {
        mpz_import(t, 4, -1, 8, 0, 0, s[i]);
        mpz_mul_ui(t, t, (unsigned long)(i + 1));
        mpz_add(acc, acc, t);
    }
    mpz_mod(acc, acc, r);
    memset(e, 0, 4 * sizeof(uint64_t));
    mpz_export(e, NULL, -1, 8, 0, 0, acc);
    mpz_clear(acc);
    mpz_clear(t);
}

#define LARGE_GROUP(G, FR, F)                                                                      \
    static void test_large_##G(void **state)                                                       \
    {                                                                                              \
        (void)state;                                                                               \
        const size_t nmax = (size_t)1 << 18;                                                       \
        struct czk_##G##_affine *bases = malloc(nmax * sizeof *bases), gen;                        \
        struct czk_##G *jac = malloc(nmax * sizeof *jac), acc, got, want, genj;                    \
        struct czk_##F *scratch = malloc(nmax * sizeof *scratch);                                  \
        scalar_t *sc = malloc(nmax * sizeof *sc);                                                  \
        assert_non_null(bases);                                                                    \
        assert_non_null(jac);                                                                      \
        assert_non_null(scratch);                                                                  \
        assert_non_null(sc);                                                                       \
        czk_##G##_generator(&gen);                                                                 \
        czk_##G##_from_affine(&genj, &gen);                                                        \
        czk_##G##_from_affine(&acc, &gen);                                                         \
        for (size_t i = 0; i < nmax; i++) {                                                        \
            jac[i] = acc; /* (i + 1) G */                                                          \
            czk_##G##_add_affine(&acc, &acc, &gen);                                                \
        }                                                                                          \
        czk_##G##_batch_to_affine(bases, jac, nmax, scratch);                                      \
        free(jac);                                                                                 \
        free(scratch);                                                                             \
        mpz_t r;                                                                                   \
        mpz_init(r);                                                                               \
        mpz_import(r, 4, -1, 8, 0, 0, czk_##FR##_modulus());                                       \
        for (unsigned lg = 16; lg <= 18; lg++) {                                                   \
            size_t n = (size_t)1 << lg;                                                            \
            for (int kind = 0; kind < 2; kind++) {                                                 \
                fill_scalars(sc, n, r, kind);                                                      \
                uint64_t e[4];                                                                     \
                expected_scalar(e, (const scalar_t *)sc, n, r);                                    \
                czk_##G##_mul_limbs(&want, &genj, e, 4);                                           \
                for (unsigned a = CZK_MSM_ACCUM_AUTO; a <= CZK_MSM_ACCUM_AFFINE; a++) {            \
                    unsigned threads = (lg == 16 && a == CZK_MSM_ACCUM_XYZZ) ? 3 : 0;              \
                    struct czk_msm_opts o = {0, 0, a, 0};                                          \
                    struct czk_msm_stats st;                                                       \
                    assert_int_equal(czk_msm_##G##_ex(&got, bases, (const uint64_t(*)[4])sc, n,    \
                                                      threads, &o, &st),                           \
                                     CZK_OK);                                                      \
                    printf("  %s n=2^%u scalars=%s accum=%u->%u c=%u splits=%u group=%u\n", #G,    \
                           lg, kind ? "porep" : "uniform", a, st.accum, st.c, st.splits,           \
                           st.group);                                                              \
                    if (!czk_##G##_eq(&got, &want))                                                \
                        fail_msg("%s n=2^%u kind=%d accum=%u: MSM differs from the oracle", #G,    \
                                 lg, kind, a);                                                     \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        /* The public entry point, once. */                                                        \
        assert_int_equal(czk_msm_##G(&got, bases, (const uint64_t(*)[4])sc, nmax, 0), CZK_OK);     \
        assert_true(czk_##G##_eq(&got, &want));                                                    \
        mpz_clear(r);                                                                              \
        free(bases);                                                                               \
        free(sc);                                                                                  \
    }

LARGE_GROUP(g1_bn254, fr_bn254, fp_bn254)
LARGE_GROUP(g2_bn254, fr_bn254, fp2_bn254)
LARGE_GROUP(g1_bls12_381, fr_bls12_381, fp_bls12_381)
LARGE_GROUP(g2_bls12_381, fr_bls12_381, fp2_bls12_381)

int main(void)
{
    czk_test_seed_init("test_msm_large");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_g1_bn254),
        cmocka_unit_test(test_large_g2_bn254),
        cmocka_unit_test(test_large_g1_bls12_381),
        cmocka_unit_test(test_large_g2_bls12_381),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
