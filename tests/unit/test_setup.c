/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the dev setup (src/groth16/setup_dev.c), the synthetic circuits
 * (src/groth16/gencircuit.c) and, against the JavaScript reference prover's committed
 * outputs (tests/vectors/ref/, tools/ref_prover.mjs), of czk's prover:
 *  - snarkjs's domain exponent; toxic waste derivation (deterministic, in range, tau off
 *    the domain and the odd coset);
 *  - Lagrange values at tau: against the product formula on small domains, the
 *    identities Σ L_i = 1 and Σ L_i·w^i = tau, the odd-coset values through
 *    Σ_j p(x_j)·L'_j(tau) = p(tau) for p = h·(x^N − 1), thread independence, tau on the
 *    domain/coset rejected;
 *  - fixed-base multiplication against czk_G_mul for G1 and G2 of both curves;
 *  - gen-circuit: every constraint of both shapes checked with GMP, the porep
 *    statistics, determinism across thread counts, the r1cs/wtns files round trip,
 *    option errors;
 *  - setup on the committed circuits: the coefficient section equals the one of the
 *    snarkjs key byte for byte, the points at infinity are the same, and proofs of the
 *    committed witnesses verify; on generated circuits of both shapes and curves: the
 *    key loads, matches its r1cs, proves and verifies, the secret points are the
 *    generators times the secrets, a changed witness gives a proof that fails;
 *  - czk's prover with the fixed (r, s) pairs of tests/vectors/ref/README.md gives
 *    exactly the proof.json the reference prover wrote.
 * Temporary files go to a fresh directory under $TMPDIR (or /tmp), removed at the end.
 */
#include "test_util.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/czk_prover.h"
#include "groth16/gencircuit.h"
#include "groth16/prove_internal.h"
#include "groth16/setup_dev.h"
#include "io/formats.h"

static char TMPDIR_PATH[1024];
static czk_backend_t BE;

static const enum czk_groth16_curve CURVES[2] = {CZK_GROTH16_CURVE_BN254,
                                                 CZK_GROTH16_CURVE_BLS12_381};
static const char *const CURVE_DIR[2] = {"bn254", "bls12_381"};
static const char *const CIRCUITS[3] = {"mulchain", "cubic", "poly5"};

static const uint64_t *fr_modulus(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_modulus() : czk_fr_bls12_381_modulus();
}

static void mpz_from_limbs(mpz_t z, const uint64_t l[4]) { mpz_import(z, 4, -1, 8, 0, 0, l); }

static void limbs_from_mpz(uint64_t l[4], const mpz_t z)
{
    size_t cnt = 0;
    memset(l, 0, 4 * sizeof *l);
    mpz_export(l, &cnt, -1, 8, 0, 0, z);
}

static bool limbs_lt(const uint64_t *a, const uint64_t *b)
{
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i];
    return false;
}

/* A random canonical element < r (nonzero). */
static void rand_fr(enum czk_groth16_curve c, uint64_t out[4])
{
    const uint64_t *m = fr_modulus(c);
    do {
        czk_test_rand_bytes(out, 32);
        out[3] &= (1ull << 62) - 1;
    } while (!limbs_lt(out, m) || (out[0] | out[1] | out[2] | out[3]) == 0);
}

static char *tmp_path(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", TMPDIR_PATH, name);
    return buf;
}

static int group_setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(TMPDIR_PATH, sizeof TMPDIR_PATH, "%s/czk-test-setup.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(TMPDIR_PATH))
        return -1;
    czk_device_t cpu = czk_backend_reg_device_get(czk_backend_reg_by_name("cpu"), 0);
    return czk_backend_new(cpu, 2, &BE, NULL, 0) == CZK_OK ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    char cmd[1100];
    czk_backend_free(BE);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", TMPDIR_PATH);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- domain and toxic waste ------------------------------------------------------------ */

static void test_lg_domain(void **state)
{
    (void)state;
    assert_int_equal(czk_setup_lg_domain(0, 0), 1);
    assert_int_equal(czk_setup_lg_domain(1, 0), 1);
    assert_int_equal(czk_setup_lg_domain(1, 1), 2);
    assert_int_equal(czk_setup_lg_domain(3, 2), 3);
    assert_int_equal(czk_setup_lg_domain(13, 2), 4); /* 16 rows exactly */
    assert_int_equal(czk_setup_lg_domain(14, 2), 5); /* 17 rows */
    assert_int_equal(czk_setup_lg_domain(695, 328), 10);
    for (uint64_t v = 1; v < 5000; v++) {
        unsigned lg = czk_setup_lg_domain(v, 0);
        assert_true((1ull << lg) >= v + 1);      /* room for the extra row(s) */
        assert_true((1ull << (lg - 1)) < v + 1); /* and the smallest such domain */
    }
}

static void test_toxic_derive(void **state)
{
    (void)state;
    uint8_t seed[32] = {1, 2, 3};
    for (unsigned ci = 0; ci < 2; ci++) {
        struct czk_setup_toxic a, b, c;
        assert_int_equal(czk_setup_toxic_derive(&a, CURVES[ci], seed, 10), CZK_OK);
        assert_int_equal(czk_setup_toxic_derive(&b, CURVES[ci], seed, 10), CZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
        seed[31] ^= 1;
        assert_int_equal(czk_setup_toxic_derive(&c, CURVES[ci], seed, 10), CZK_OK);
        seed[31] ^= 1;
        assert_memory_not_equal(&a, &c, sizeof a);
        const uint64_t *sec[5] = {a.tau, a.alpha, a.beta, a.gamma, a.delta};
        for (unsigned k = 0; k < 5; k++) {
            assert_true(limbs_lt(sec[k], fr_modulus(CURVES[ci])));
            assert_true((sec[k][0] | sec[k][1] | sec[k][2] | sec[k][3]) != 0);
            for (unsigned j = 0; j < k; j++)
                assert_memory_not_equal(sec[k], sec[j], 32);
        }
        /* tau off the domain and the coset: the Lagrange computations accept it. */
        uint64_t(*out)[4] = malloc(1024 * sizeof *out);
        assert_non_null(out);
        assert_int_equal(czk_setup_lagrange(CURVES[ci], out, 10, a.tau, false, 1), CZK_OK);
        assert_int_equal(czk_setup_lagrange(CURVES[ci], out, 10, a.tau, true, 1), CZK_OK);
        free(out);
        assert_int_equal(czk_setup_toxic_derive(&a, CZK_GROTH16_CURVE_NONE, seed, 10),
                         CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_setup_toxic_derive(&a, CURVES[ci], seed, 40), CZK_ERR_INVALID_ARG);
    }
}

/* ---- Lagrange values ------------------------------------------------------------------- */

/* Field-generic checks, instantiated for both scalar fields. */
#define LAGRANGE_TESTS(F, CURVE)                                                                   \
    static void lagrange_small_##F(void)                                                           \
    {                                                                                              \
        /* Against L_i(t) = prod_{j != i} (t - w^j) / (w^i - w^j) on 8 points. */                  \
        const unsigned lg = 3, n = 8;                                                              \
        struct czk_##F w, pts[8], tau, num, den, t, l[8];                                          \
        uint64_t tc[4];                                                                            \
        rand_fr(CURVE, tc);                                                                        \
        assert_int_equal(czk_##F##_from_canonical(&tau, tc), CZK_OK);                              \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l, lg, tc, false, 1), CZK_OK);  \
        assert_int_equal(czk_##F##_root_of_unity(&w, lg, CZK_NTT_SNARKJS), CZK_OK);                \
        czk_##F##_one(&pts[0]);                                                                    \
        for (unsigned i = 1; i < n; i++)                                                           \
            czk_##F##_mul(&pts[i], &pts[i - 1], &w);                                               \
        for (unsigned i = 0; i < n; i++) {                                                         \
            czk_##F##_one(&num);                                                                   \
            czk_##F##_one(&den);                                                                   \
            for (unsigned j = 0; j < n; j++) {                                                     \
                if (j == i)                                                                        \
                    continue;                                                                      \
                czk_##F##_sub(&t, &tau, &pts[j]);                                                  \
                czk_##F##_mul(&num, &num, &t);                                                     \
                czk_##F##_sub(&t, &pts[i], &pts[j]);                                               \
                czk_##F##_mul(&den, &den, &t);                                                     \
            }                                                                                      \
            czk_##F##_inv(&den, &den);                                                             \
            czk_##F##_mul(&num, &num, &den);                                                       \
            assert_true(czk_##F##_eq(&num, &l[i]));                                                \
        }                                                                                          \
        /* tau on the domain: rejected. */                                                         \
        czk_##F##_to_canonical(tc, &pts[3]);                                                       \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l, lg, tc, false, 1),           \
                         CZK_ERR_INVALID_ARG);                                                     \
        /* tau on the odd coset g·<w>, g = w_16: rejected there, fine on the domain. */           \
        struct czk_##F g;                                                                          \
        assert_int_equal(czk_##F##_root_of_unity(&g, lg + 1, CZK_NTT_SNARKJS), CZK_OK);            \
        czk_##F##_mul(&t, &g, &pts[5]);                                                            \
        czk_##F##_to_canonical(tc, &t);                                                            \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l, lg, tc, true, 1),            \
                         CZK_ERR_INVALID_ARG);                                                     \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l, lg, tc, false, 1), CZK_OK);  \
    }                                                                                              \
                                                                                                   \
    static void lagrange_identities_##F(void)                                                      \
    {                                                                                              \
        const unsigned lg = 12, n = 1u << 12;                                                      \
        struct czk_##F *l1 = malloc(n * sizeof *l1), *l2 = malloc(n * sizeof *l2);                 \
        struct czk_##F w, x, sum, sumw, t, tau;                                                    \
        uint64_t tc[4];                                                                            \
        assert_non_null(l1);                                                                       \
        assert_non_null(l2);                                                                       \
        rand_fr(CURVE, tc);                                                                        \
        assert_int_equal(czk_##F##_from_canonical(&tau, tc), CZK_OK);                              \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l1, lg, tc, false, 1), CZK_OK); \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l2, lg, tc, false, 2), CZK_OK); \
        assert_memory_equal(l1, l2, n * sizeof *l1);                                               \
        czk_##F##_root_of_unity(&w, lg, CZK_NTT_SNARKJS);                                          \
        czk_##F##_one(&x);                                                                         \
        czk_##F##_zero(&sum);                                                                      \
        czk_##F##_zero(&sumw);                                                                     \
        for (unsigned i = 0; i < n; i++) {                                                         \
            czk_##F##_add(&sum, &sum, &l1[i]);                                                     \
            czk_##F##_mul(&t, &l1[i], &x);                                                         \
            czk_##F##_add(&sumw, &sumw, &t);                                                       \
            czk_##F##_mul(&x, &x, &w);                                                             \
        }                                                                                          \
        czk_##F##_one(&t);                                                                         \
        assert_true(czk_##F##_eq(&sum, &t));                                                       \
        assert_true(czk_##F##_eq(&sumw, &tau));                                                    \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l1, lg, tc, true, 1), CZK_OK);  \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])l2, lg, tc, true, 2), CZK_OK);  \
        assert_memory_equal(l1, l2, n * sizeof *l1);                                               \
        free(l1);                                                                                  \
        free(l2);                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* Horner evaluation of the polynomial c[0..n) at x. */                                        \
    static void horner_##F(struct czk_##F *r, const struct czk_##F *c, unsigned n,                 \
                           const struct czk_##F *x)                                                \
    {                                                                                              \
        czk_##F##_zero(r);                                                                         \
        for (unsigned i = n; i-- > 0;) {                                                           \
            czk_##F##_mul(r, r, x);                                                                \
            czk_##F##_add(r, r, &c[i]);                                                            \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void lagrange_coset_##F(unsigned lg)                                                    \
    {                                                                                              \
        /* p = h·(x^N − 1), deg h < N: Σ_j p(x_j)·L'_j(tau) = p(tau). */                      \
        unsigned n = 1u << lg;                                                                     \
        struct czk_##F *h = malloc(n * sizeof *h), *lo = malloc(n * sizeof *lo);                   \
        struct czk_##F w, g, x, tau, acc, t, v, one, xn;                                           \
        uint64_t tc[4], nn = n;                                                                    \
        assert_non_null(h);                                                                        \
        assert_non_null(lo);                                                                       \
        for (unsigned i = 0; i < n; i++) {                                                         \
            rand_fr(CURVE, tc);                                                                    \
            czk_##F##_from_canonical(&h[i], tc);                                                   \
        }                                                                                          \
        rand_fr(CURVE, tc);                                                                        \
        czk_##F##_from_canonical(&tau, tc);                                                        \
        assert_int_equal(czk_setup_lagrange(CURVE, (uint64_t(*)[4])lo, lg, tc, true, 1), CZK_OK);  \
        czk_##F##_root_of_unity(&w, lg, CZK_NTT_SNARKJS);                                          \
        czk_##F##_root_of_unity(&g, lg + 1, CZK_NTT_SNARKJS);                                      \
        czk_##F##_one(&one);                                                                       \
        czk_##F##_zero(&acc);                                                                      \
        x = g;                                                                                     \
        for (unsigned j = 0; j < n; j++) {                                                         \
            horner_##F(&v, h, n, &x);                                                              \
            czk_##F##_pow(&xn, &x, &nn, 1);                                                        \
            czk_##F##_sub(&xn, &xn, &one);                                                         \
            czk_##F##_mul(&v, &v, &xn);                                                            \
            czk_##F##_mul(&t, &v, &lo[j]);                                                         \
            czk_##F##_add(&acc, &acc, &t);                                                         \
            czk_##F##_mul(&x, &x, &w);                                                             \
        }                                                                                          \
        horner_##F(&v, h, n, &tau);                                                                \
        czk_##F##_pow(&xn, &tau, &nn, 1);                                                          \
        czk_##F##_sub(&xn, &xn, &one);                                                             \
        czk_##F##_mul(&v, &v, &xn);                                                                \
        assert_true(czk_##F##_eq(&acc, &v));                                                       \
        /* The even points alone do not reproduce it (the test can fail). */                       \
        assert_false(czk_##F##_is_zero(&acc));                                                     \
        free(h);                                                                                   \
        free(lo);                                                                                  \
    }

LAGRANGE_TESTS(fr_bn254, CZK_GROTH16_CURVE_BN254)
LAGRANGE_TESTS(fr_bls12_381, CZK_GROTH16_CURVE_BLS12_381)

static void test_lagrange(void **state)
{
    (void)state;
    lagrange_small_fr_bn254();
    lagrange_small_fr_bls12_381();
    lagrange_identities_fr_bn254();
    lagrange_identities_fr_bls12_381();
    for (unsigned lg = 1; lg <= 6; lg++) {
        lagrange_coset_fr_bn254(lg);
        lagrange_coset_fr_bls12_381(lg);
    }
    uint64_t tc[4] = {5, 0, 0, 0}, out[4][4];
    assert_int_equal(czk_setup_lagrange(CZK_GROTH16_CURVE_BN254, out, 29, tc, false, 1),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_setup_lagrange(CZK_GROTH16_CURVE_NONE, out, 2, tc, false, 1),
                     CZK_ERR_INVALID_ARG);
}

/* ---- fixed-base multiplication ---------------------------------------------------------- */

#define FIXED_BASE_TEST(G, FR, CURVE, GROUP)                                                       \
    static void fixed_base_##G(unsigned wbits)                                                     \
    {                                                                                              \
        enum { N = 300 };                                                                          \
        uint64_t(*k)[4] = malloc(N * sizeof *k);                                                   \
        struct czk_##G##_affine *out = malloc(N * sizeof *out), gen, want;                         \
        struct czk_##G g, r;                                                                       \
        struct czk_##FR s;                                                                         \
        const uint64_t *m = fr_modulus(CURVE);                                                     \
        assert_non_null(k);                                                                        \
        assert_non_null(out);                                                                      \
        for (unsigned i = 0; i < N; i++)                                                           \
            rand_fr(CURVE, k[i]);                                                                  \
        memset(k[0], 0, 32); /* 0 -> infinity */                                                   \
        memset(k[1], 0, 32);                                                                       \
        k[1][0] = 1; /* the generator */                                                           \
        memcpy(k[2], m, 32);                                                                       \
        k[2][0] -= 1; /* r - 1 = -1 */                                                             \
        memset(k[3], 0, 32);                                                                       \
        k[3][3] = 0x00ff000000000000ull; /* one nonzero byte, high window */                       \
        memset(k[4], 0, 32);                                                                       \
        k[4][1] = 0x0100000000000001ull; /* digit 1 in two windows */                              \
        memcpy(k[5], k[6], 32);          /* duplicates */                                          \
        assert_int_equal(                                                                          \
            czk_setup_fixed_base(CURVE, GROUP, out, (const uint64_t(*)[4])k, N, wbits, 2),         \
            CZK_OK);                                                                               \
        czk_##G##_generator(&gen);                                                                 \
        czk_##G##_from_affine(&g, &gen);                                                           \
        for (unsigned i = 0; i < N; i++) {                                                         \
            assert_int_equal(czk_##FR##_from_canonical(&s, k[i]), CZK_OK);                         \
            czk_##G##_mul(&r, &g, &s);                                                             \
            czk_##G##_to_affine(&want, &r);                                                        \
            assert_memory_equal(&want, &out[i], sizeof want);                                      \
        }                                                                                          \
        assert_true(czk_##G##_affine_is_inf(&out[0]));                                             \
        assert_memory_equal(&gen, &out[1], sizeof gen);                                            \
        assert_int_equal(czk_setup_fixed_base(CURVE, 3, out, (const uint64_t(*)[4])k, N, 0, 2),    \
                         CZK_ERR_INVALID_ARG);                                                     \
        assert_int_equal(                                                                          \
            czk_setup_fixed_base(CURVE, GROUP, out, (const uint64_t(*)[4])k, N, 17, 2),            \
            CZK_ERR_INVALID_ARG);                                                                  \
        free(k);                                                                                   \
        free(out);                                                                                 \
    }

FIXED_BASE_TEST(g1_bn254, fr_bn254, CZK_GROTH16_CURVE_BN254, 1)
FIXED_BASE_TEST(g2_bn254, fr_bn254, CZK_GROTH16_CURVE_BN254, 2)
FIXED_BASE_TEST(g1_bls12_381, fr_bls12_381, CZK_GROTH16_CURVE_BLS12_381, 1)
FIXED_BASE_TEST(g2_bls12_381, fr_bls12_381, CZK_GROTH16_CURVE_BLS12_381, 2)

static void test_fixed_base(void **state)
{
    (void)state;
    /* Auto (6 bits at this size), widths that do and do not divide the scalar size. */
    static const unsigned widths[] = {0, 5, 12, 1};
    for (unsigned i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        fixed_base_g1_bn254(widths[i]);
        fixed_base_g2_bn254(widths[i]);
        fixed_base_g1_bls12_381(widths[i]);
        fixed_base_g2_bls12_381(widths[i]);
    }
    fixed_base_g1_bn254(16); /* the widest table, once */
    assert_int_equal(czk_setup_window_bits(1), 4);
    assert_int_equal(czk_setup_window_bits(300), 6);
    assert_int_equal(czk_setup_window_bits(3000), 8);
    assert_int_equal(czk_setup_window_bits(1000000), 16);
    unsigned prev = 4;
    for (size_t n = 1; n < (1u << 26); n *= 2) {
        unsigned c = czk_setup_window_bits(n);
        assert_true(c >= prev && c <= 16); /* grows with n */
        prev = c;
    }
}

/* ---- gen-circuit -------------------------------------------------------------------------- */

/* Canonical value of a Montgomery coefficient. */
static void coef_canonical(enum czk_groth16_curve c, uint64_t out[4], const uint64_t in[4])
{
    if (c == CZK_GROTH16_CURVE_BN254) {
        struct czk_fr_bn254 t;
        memcpy(t.l, in, 32);
        czk_fr_bn254_to_canonical(out, &t);
    } else {
        struct czk_fr_bls12_381 t;
        memcpy(t.l, in, 32);
        czk_fr_bls12_381_to_canonical(out, &t);
    }
}

/* Every constraint with GMP; no zero coefficient, no repeated wire in a combination.
 * Returns the index of the first violated constraint, or UINT32_MAX. */
static uint32_t gmp_check(const struct czk_r1cs *r, const uint64_t (*w)[4])
{
    mpz_t mod, lc[3], t, v;
    uint32_t bad = UINT32_MAX;
    mpz_inits(mod, lc[0], lc[1], lc[2], t, v, NULL);
    mpz_from_limbs(mod, fr_modulus(r->curve));
    for (uint32_t i = 0; i < r->n_constraints && bad == UINT32_MAX; i++) {
        for (unsigned k = 0; k < 3; k++) {
            const struct czk_csr *m = &r->m[k];
            mpz_set_ui(lc[k], 0);
            for (uint64_t j = m->row_ptr[i]; j < m->row_ptr[i + 1]; j++) {
                uint64_t c[4];
                for (uint64_t j2 = m->row_ptr[i]; j2 < j; j2++)
                    assert_int_not_equal(m->col[j2], m->col[j]);
                coef_canonical(r->curve, c, m->val[j]);
                assert_true((c[0] | c[1] | c[2] | c[3]) != 0);
                mpz_from_limbs(t, c);
                mpz_from_limbs(v, w[m->col[j]]);
                mpz_addmul(lc[k], t, v);
            }
            mpz_mod(lc[k], lc[k], mod);
        }
        mpz_mul(t, lc[0], lc[1]);
        mpz_mod(t, t, mod);
        if (mpz_cmp(t, lc[2]) != 0)
            bad = i;
    }
    mpz_clears(mod, lc[0], lc[1], lc[2], t, v, NULL);
    return bad;
}

static void gen(struct czk_gen_circuit *c, enum czk_groth16_curve curve, enum czk_gen_shape shape,
                uint32_t n, double bf, uint64_t seed, unsigned threads)
{
    struct czk_gen_params p = {curve, shape, n, bf, seed, threads, 0};
    char err[256] = "";
    enum czk_status st = czk_gen_circuit(c, &p, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "gen: %s\n", err);
    assert_int_equal(st, CZK_OK);
}

static void assert_same_circuit(const struct czk_gen_circuit *a, const struct czk_gen_circuit *b)
{
    const struct czk_r1cs *x = &a->r1cs, *y = &b->r1cs;
    assert_int_equal(x->n_wires, y->n_wires);
    assert_int_equal(x->n_constraints, y->n_constraints);
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(x->m[k].nnz, y->m[k].nnz);
        assert_memory_equal(x->m[k].row_ptr, y->m[k].row_ptr,
                            ((size_t)x->n_constraints + 1) * sizeof(uint64_t));
        assert_memory_equal(x->m[k].col, y->m[k].col, x->m[k].nnz * sizeof(uint32_t));
        assert_memory_equal(x->m[k].val, y->m[k].val, x->m[k].nnz * 32);
    }
    assert_memory_equal(a->witness, b->witness, (size_t)x->n_wires * 32);
}

static void test_gen_mul(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 10, 1000};
    for (unsigned ci = 0; ci < 2; ci++) {
        for (unsigned si = 0; si < 4; si++) {
            struct czk_gen_circuit c;
            uint32_t n = sizes[si];
            gen(&c, CURVES[ci], CZK_GEN_SHAPE_MUL, n, 0, 7, 2);
            const struct czk_r1cs *r = &c.r1cs;
            assert_int_equal(r->n_constraints, n);
            assert_int_equal(r->n_wires, n + 3);
            assert_int_equal(r->n_pub_out + r->n_pub_in, 2);
            for (unsigned k = 0; k < 3; k++)
                assert_int_equal(r->m[k].nnz, n);
            assert_int_equal(r->m[2].col[n - 1], 1); /* the chain ends in out */
            assert_int_equal(r->m[0].col[0], 2);     /* and starts at the input */
            assert_int_equal(gmp_check(r, (const uint64_t(*)[4])c.witness), UINT32_MAX);
            /* A changed intermediate breaks it (when there is one). */
            if (n > 1) {
                c.witness[4][0] ^= 1;
                assert_int_not_equal(gmp_check(r, (const uint64_t(*)[4])c.witness), UINT32_MAX);
            }
            czk_gen_circuit_free(&c);
        }
    }
}

/* witness_index k > 0: the same rows, another satisfying witness (GMP-checked). */
static void test_gen_mul_witnesses(void **state)
{
    (void)state;
    for (unsigned ci = 0; ci < 2; ci++) {
        struct czk_gen_circuit c0, ck, cj;
        struct czk_gen_params p = {CURVES[ci], CZK_GEN_SHAPE_MUL, 500, 0, 9, 2, 0};
        char err[256] = "";
        assert_int_equal(czk_gen_circuit(&c0, &p, err, sizeof err), CZK_OK);
        p.witness_index = 1;
        assert_int_equal(czk_gen_circuit(&ck, &p, err, sizeof err), CZK_OK);
        p.witness_index = 2;
        assert_int_equal(czk_gen_circuit(&cj, &p, err, sizeof err), CZK_OK);
        const struct czk_r1cs *a = &c0.r1cs, *b = &ck.r1cs;
        for (unsigned k = 0; k < 3; k++) {
            assert_int_equal(a->m[k].nnz, b->m[k].nnz);
            assert_memory_equal(a->m[k].col, b->m[k].col, a->m[k].nnz * sizeof(uint32_t));
            assert_memory_equal(a->m[k].val, b->m[k].val, a->m[k].nnz * 32);
        }
        assert_memory_not_equal(c0.witness[2], ck.witness[2], 32); /* other x */
        assert_memory_not_equal(ck.witness[2], cj.witness[2], 32);
        assert_int_equal(gmp_check(a, (const uint64_t(*)[4])ck.witness), UINT32_MAX);
        assert_int_equal(gmp_check(a, (const uint64_t(*)[4])cj.witness), UINT32_MAX);
        czk_gen_circuit_free(&c0);
        czk_gen_circuit_free(&ck);
        czk_gen_circuit_free(&cj);
        /* porep: one witness per circuit only */
        p.shape = CZK_GEN_SHAPE_POREP;
        assert_int_equal(czk_gen_circuit(&ck, &p, err, sizeof err), CZK_ERR_INVALID_ARG);
    }
}

static void test_gen_porep(void **state)
{
    (void)state;
    for (unsigned ci = 0; ci < 2; ci++) {
        static const uint32_t sizes[] = {1, 5, 200, 20000};
        for (unsigned si = 0; si < 4; si++) {
            for (unsigned bi = 0; bi < 3; bi++) {
                static const double bfs[] = {0.0, 0.9, 1.0};
                struct czk_gen_circuit c;
                uint32_t n = sizes[si];
                if (n == 20000 && bi != 1)
                    continue;
                gen(&c, CURVES[ci], CZK_GEN_SHAPE_POREP, n, bfs[bi], 11 + si, 2);
                const struct czk_r1cs *r = &c.r1cs;
                assert_int_equal(r->n_pub_in + r->n_pub_out, 328);
                assert_int_equal(r->n_wires, 329 + n);
                assert_int_equal(gmp_check(r, (const uint64_t(*)[4])c.witness), UINT32_MAX);
                if (n < 20000) {
                    czk_gen_circuit_free(&c);
                    continue;
                }
                /* The statistics of the shape. */
                double fa = (double)r->m[0].nnz / n, fc = (double)r->m[2].nnz / n;
                assert_true(fa > 2.33 && fa < 2.41);
                assert_int_equal(r->m[1].nnz, n);
                assert_true(fc > 2.13 && fc < 2.21);
                uint8_t *seen = calloc(r->n_wires, 1);
                assert_non_null(seen);
                for (unsigned k = 0; k < 2; k++)
                    for (uint64_t j = 0; j < r->m[k].nnz; j++)
                        seen[r->m[k].col[j]] |= (uint8_t)(1u << k);
                uint32_t in_a = 0, in_b = 0, bools = 0;
                for (uint32_t wi = 329; wi < r->n_wires; wi++) {
                    in_a += seen[wi] & 1;
                    in_b += (seen[wi] >> 1) & 1;
                    const uint64_t *v = c.witness[wi];
                    bools += (v[1] | v[2] | v[3]) == 0 && v[0] <= 1;
                }
                free(seen);
                assert_true(in_a > 0.994 * n && in_a < 0.9995 * n);
                assert_true(in_b > 0.250 * n && in_b < 0.258 * n);
                assert_true(bools > 0.88 * n && bools < 0.92 * n);
                /* Same output with one thread; another seed differs. */
                struct czk_gen_circuit c1, c2;
                gen(&c1, CURVES[ci], CZK_GEN_SHAPE_POREP, n, bfs[bi], 11 + si, 1);
                assert_same_circuit(&c, &c1);
                gen(&c2, CURVES[ci], CZK_GEN_SHAPE_POREP, n, bfs[bi], 12 + si, 2);
                assert_memory_not_equal(c.witness + 329, c2.witness + 329, 32 * 100);
                czk_gen_circuit_free(&c1);
                czk_gen_circuit_free(&c2);
                /* A changed private value violates some constraint. */
                c.witness[400][0] ^= 2;
                assert_int_not_equal(gmp_check(r, (const uint64_t(*)[4])c.witness), UINT32_MAX);
                czk_gen_circuit_free(&c);
            }
        }
    }
}

static void test_gen_files(void **state)
{
    (void)state;
    char p1[1100], p2[1100], err[512];
    for (unsigned ci = 0; ci < 2; ci++) {
        for (unsigned sh = 0; sh < 2; sh++) {
            struct czk_gen_circuit c;
            struct czk_r1cs r;
            struct czk_wtns w;
            gen(&c, CURVES[ci], sh ? CZK_GEN_SHAPE_POREP : CZK_GEN_SHAPE_MUL, 300, 0.5, 3, 2);
            tmp_path("gen.r1cs", p1, sizeof p1);
            tmp_path("gen.wtns", p2, sizeof p2);
            assert_int_equal(czk_r1cs_write(p1, &c.r1cs, err, sizeof err), CZK_OK);
            assert_int_equal(czk_wtns_write(p2, CURVES[ci], (const uint64_t(*)[4])c.witness,
                                            c.r1cs.n_wires, err, sizeof err),
                             CZK_OK);
            assert_int_equal(czk_r1cs_load(&r, p1, err, sizeof err), CZK_OK);
            assert_int_equal(czk_wtns_load(&w, p2, err, sizeof err), CZK_OK);
            struct czk_gen_circuit back = {r, NULL};
            back.witness = (uint64_t(*)[4])w.values;
            assert_int_equal(r.curve, CURVES[ci]);
            assert_int_equal(w.n, c.r1cs.n_wires);
            assert_int_equal(r.n_pub_out, c.r1cs.n_pub_out);
            assert_int_equal(r.n_pub_in, c.r1cs.n_pub_in);
            assert_int_equal(r.n_prv_in, c.r1cs.n_prv_in);
            assert_same_circuit(&c, &back);
            /* The prover's own constraint check agrees. */
            czk_witness_t wt;
            uint64_t first_bad = 0;
            assert_int_equal(czk_witness_wrap(&wt, CURVES[ci], w.values, w.n, NULL, 0), CZK_OK);
            assert_int_equal(czk_prove_check_r1cs(&r, wt, 2, &first_bad, err, sizeof err), CZK_OK);
            assert_true(first_bad == UINT64_MAX);
            czk_witness_free(wt);
            czk_r1cs_free(&r);
            czk_wtns_free(&w);
            czk_gen_circuit_free(&c);
        }
    }
}

static void test_gen_errors(void **state)
{
    (void)state;
    struct czk_gen_circuit c;
    char err[256];
    struct czk_gen_params p = {CZK_GROTH16_CURVE_BN254, CZK_GEN_SHAPE_MUL, 0, 0, 1, 1, 0};
    assert_int_equal(czk_gen_circuit(&c, &p, err, sizeof err), CZK_ERR_INVALID_ARG);
    p.n_constraints = (1u << 28) - 2; /* + 2 public + 1 > 2^28 */
    assert_int_equal(czk_gen_circuit(&c, &p, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "2^28"));
    p.n_constraints = 10;
    p.bool_frac = 1.5;
    assert_int_equal(czk_gen_circuit(&c, &p, err, sizeof err), CZK_ERR_INVALID_ARG);
    p.bool_frac = 0;
    p.curve = CZK_GROTH16_CURVE_NONE;
    assert_int_equal(czk_gen_circuit(&c, &p, err, sizeof err), CZK_ERR_INVALID_ARG);
    p.curve = CZK_GROTH16_CURVE_BLS12_381;
    p.shape = (enum czk_gen_shape)7;
    assert_int_equal(czk_gen_circuit(&c, &p, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_gen_n_public(CZK_GEN_SHAPE_POREP), 328);
    assert_int_equal(czk_gen_max_lg_domain(CZK_GROTH16_CURVE_BN254), 28);
    assert_int_equal(czk_gen_max_lg_domain(CZK_GROTH16_CURVE_BLS12_381), 31);
}

/* ---- setup ------------------------------------------------------------------------------- */

static void toxic_for(struct czk_setup_toxic *t, enum czk_groth16_curve c, uint32_t tag,
                      unsigned lg)
{
    uint8_t seed[32] = {0};
    memcpy(seed, &tag, sizeof tag);
    assert_int_equal(czk_setup_toxic_derive(t, c, seed, lg), CZK_OK);
}

static void do_setup(const struct czk_r1cs *r, const struct czk_setup_toxic *t, const char *path,
                     unsigned threads)
{
    char err[512] = "";
    enum czk_status st = czk_setup_dev(r, t, path, threads, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "setup: %s\n", err);
    assert_int_equal(st, CZK_OK);
}

static size_t g1_bytes(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? CZK_G1_BN254_ZKEY_BYTES : CZK_G1_BLS12_381_ZKEY_BYTES;
}

static size_t g2_bytes(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? CZK_G2_BN254_ZKEY_BYTES : CZK_G2_BLS12_381_ZKEY_BYTES;
}

static bool all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

/* Prove w under the key at zkey_path and verify with the key's own vkey. */
static enum czk_status prove_verify(const char *zkey_path, czk_witness_t w)
{
    czk_prover_key_t key;
    struct czk_groth16_vkey vk;
    struct czk_groth16_proof proof;
    struct czk_groth16_public pub;
    char err[512] = "";
    enum czk_status st = czk_prover_key_load(&key, zkey_path, 0, 2, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "key: %s\n", err);
    assert_int_equal(st, CZK_OK);
    assert_int_equal(czk_prover_key_vkey(key, &vk, err, sizeof err), CZK_OK);
    st = czk_prove(key, BE, w, NULL, &proof, &pub, err, sizeof err);
    if (st != CZK_OK)
        fprintf(stderr, "prove: %s\n", err);
    assert_int_equal(st, CZK_OK);
    st = czk_groth16_verify(&vk, &pub, &proof, err, sizeof err);
    czk_groth16_public_free(&pub);
    czk_groth16_vkey_free(&vk);
    czk_prover_key_free(key);
    return st;
}

static void test_setup_vectors(void **state)
{
    (void)state;
    char p[1200], zp[1100], err[512];
    for (unsigned ci = 0; ci < 2; ci++) {
        for (unsigned k = 0; k < 3; k++) {
            struct czk_r1cs r;
            struct czk_zkey mine, theirs;
            struct czk_setup_toxic t;
            snprintf(p, sizeof p, "%s/groth16/%s/%s/circuit.r1cs", CZK_VECTORS_DIR, CURVE_DIR[ci],
                     CIRCUITS[k]);
            assert_int_equal(czk_r1cs_load(&r, p, err, sizeof err), CZK_OK);
            toxic_for(&t, CURVES[ci], 100 + k,
                      czk_setup_lg_domain(r.n_constraints, r.n_pub_out + r.n_pub_in));
            tmp_path("vec.zkey", zp, sizeof zp);
            do_setup(&r, &t, zp, 2);
            snprintf(p, sizeof p, "%s/groth16/%s/%s/circuit.zkey", CZK_VECTORS_DIR, CURVE_DIR[ci],
                     CIRCUITS[k]);
            assert_int_equal(czk_zkey_load(&mine, zp, 0, 2, err, sizeof err), CZK_OK);
            assert_int_equal(czk_zkey_load(&theirs, p, 0, 2, err, sizeof err), CZK_OK);
            assert_int_equal(czk_zkey_check_r1cs(&mine, &r, err, sizeof err), CZK_OK);
            /* Same shape as snarkjs's key of the circuit. */
            assert_int_equal(mine.curve, theirs.curve);
            assert_int_equal(mine.n8q, theirs.n8q);
            assert_int_equal(mine.n8r, theirs.n8r);
            assert_int_equal(mine.n_vars, theirs.n_vars);
            assert_int_equal(mine.n_public, theirs.n_public);
            assert_int_equal(mine.domain_size, theirs.domain_size);
            assert_int_equal(mine.n_coefs, theirs.n_coefs);
            assert_memory_equal(mine.coefs, theirs.coefs, mine.n_coefs * sizeof *mine.coefs);
            size_t s1 = g1_bytes(mine.curve), s2 = g2_bytes(mine.curve);
            for (uint32_t i = 0; i < mine.n_vars; i++) {
                const uint8_t *a = mine.a, *b = theirs.a;
                assert_int_equal(all_zero(a + i * s1, s1), all_zero(b + i * s1, s1));
                a = mine.b1, b = theirs.b1;
                assert_int_equal(all_zero(a + i * s1, s1), all_zero(b + i * s1, s1));
                a = mine.b2, b = theirs.b2;
                assert_int_equal(all_zero(a + i * s2, s2), all_zero(b + i * s2, s2));
            }
            czk_zkey_free(&mine);
            czk_zkey_free(&theirs);
            /* The committed witness proves under the new key. */
            czk_witness_t w;
            snprintf(p, sizeof p, "%s/groth16/%s/%s/witness.wtns", CZK_VECTORS_DIR, CURVE_DIR[ci],
                     CIRCUITS[k]);
            assert_int_equal(czk_witness_load(&w, p, err, sizeof err), CZK_OK);
            assert_int_equal(prove_verify(zp, w), CZK_OK);
            czk_witness_free(w);
            czk_r1cs_free(&r);
        }
    }
}

/* The six secret points of the key equal the generators times the secrets. */
#define SECRET_POINTS(G1, G2, FR)                                                                  \
    static void secret_points_##FR(const struct czk_zkey *z, const struct czk_setup_toxic *t)      \
    {                                                                                              \
        struct czk_##G1##_affine g1, a;                                                            \
        struct czk_##G2##_affine g2, b;                                                            \
        struct czk_##G1 j1, r1;                                                                    \
        struct czk_##G2 j2, r2;                                                                    \
        struct czk_##FR s;                                                                         \
        czk_##G1##_generator(&g1);                                                                 \
        czk_##G2##_generator(&g2);                                                                 \
        czk_##G1##_from_affine(&j1, &g1);                                                          \
        czk_##G2##_from_affine(&j2, &g2);                                                          \
        const uint64_t *s1[3] = {t->alpha, t->beta, t->delta};                                     \
        const void *p1[3] = {z->alpha1, z->beta1, z->delta1};                                      \
        for (unsigned i = 0; i < 3; i++) {                                                         \
            czk_##FR##_from_canonical(&s, s1[i]);                                                  \
            czk_##G1##_mul(&r1, &j1, &s);                                                          \
            czk_##G1##_to_affine(&a, &r1);                                                         \
            assert_memory_equal(&a, p1[i], sizeof a);                                              \
        }                                                                                          \
        const uint64_t *s2[3] = {t->beta, t->gamma, t->delta};                                     \
        const void *p2[3] = {z->beta2, z->gamma2, z->delta2};                                      \
        for (unsigned i = 0; i < 3; i++) {                                                         \
            czk_##FR##_from_canonical(&s, s2[i]);                                                  \
            czk_##G2##_mul(&r2, &j2, &s);                                                          \
            czk_##G2##_to_affine(&b, &r2);                                                         \
            assert_memory_equal(&b, p2[i], sizeof b);                                              \
        }                                                                                          \
    }
SECRET_POINTS(g1_bn254, g2_bn254, fr_bn254)
SECRET_POINTS(g1_bls12_381, g2_bls12_381, fr_bls12_381)

static void test_setup_generated(void **state)
{
    (void)state;
    char zp[1100], zp1[1100], err[512];
    for (unsigned ci = 0; ci < 2; ci++) {
        for (unsigned sh = 0; sh < 2; sh++) {
            static const uint32_t sizes[2][2] = {{1, 40}, {1, 300}};
            for (unsigned si = 0; si < 2; si++) {
                struct czk_gen_circuit c;
                struct czk_setup_toxic t;
                struct czk_zkey z;
                enum czk_gen_shape shape = sh ? CZK_GEN_SHAPE_POREP : CZK_GEN_SHAPE_MUL;
                uint32_t n = sizes[sh][si];
                gen(&c, CURVES[ci], shape, n, 0.7, 5, 2);
                unsigned lg = czk_setup_lg_domain(n, czk_gen_n_public(shape));
                toxic_for(&t, CURVES[ci], 7 * ci + 3 * sh + si, lg);
                tmp_path("gen.zkey", zp, sizeof zp);
                do_setup(&c.r1cs, &t, zp, 2);
                assert_int_equal(czk_zkey_load(&z, zp, 0, 2, err, sizeof err), CZK_OK);
                assert_int_equal(czk_zkey_check_r1cs(&z, &c.r1cs, err, sizeof err), CZK_OK);
                assert_int_equal(z.lg_domain, lg);
                assert_int_equal(z.n_public, czk_gen_n_public(shape));
                if (CURVES[ci] == CZK_GROTH16_CURVE_BN254)
                    secret_points_fr_bn254(&z, &t);
                else
                    secret_points_fr_bls12_381(&z, &t);
                /* The extra rows of A: coefficient 1 stored as R^2 mod r. */
                const struct czk_zkey_coef *e = &z.coefs[z.n_coefs - 1];
                assert_int_equal(e->constraint, n + z.n_public);
                assert_int_equal(e->signal, z.n_public);
                mpz_t rr, m, v;
                mpz_inits(rr, m, v, NULL);
                mpz_from_limbs(m, fr_modulus(CURVES[ci]));
                mpz_ui_pow_ui(rr, 2, 512);
                mpz_mod(rr, rr, m);
                mpz_from_limbs(v, e->value);
                assert_int_equal(mpz_cmp(rr, v), 0);
                mpz_clears(rr, m, v, NULL);
                /* The same key with one thread. */
                if (si == 1 && sh == 1) {
                    struct czk_zkey z1;
                    tmp_path("gen1.zkey", zp1, sizeof zp1);
                    do_setup(&c.r1cs, &t, zp1, 1);
                    assert_int_equal(czk_zkey_load(&z1, zp1, 0, 1, err, sizeof err), CZK_OK);
                    assert_int_equal(z1.file.size, z.file.size);
                    assert_memory_equal(z1.file.data, z.file.data, z.file.size);
                    czk_zkey_free(&z1);
                }
                czk_zkey_free(&z);

                czk_witness_t w;
                assert_int_equal(czk_witness_wrap(&w, CURVES[ci], (const uint64_t(*)[4])c.witness,
                                                  c.r1cs.n_wires, NULL, 0),
                                 CZK_OK);
                assert_int_equal(prove_verify(zp, w), CZK_OK);
                czk_witness_free(w);
                /* A changed value (the last one, from the end, that breaks a
                 * constraint, and not the constant): the proof does not verify. */
                uint32_t wi = c.r1cs.n_wires;
                do {
                    assert_true(wi > 1);
                    if (wi < c.r1cs.n_wires)
                        c.witness[wi][0] ^= 4;
                    wi--;
                    c.witness[wi][0] ^= 4;
                } while (gmp_check(&c.r1cs, (const uint64_t(*)[4])c.witness) == UINT32_MAX);
                assert_int_equal(czk_witness_wrap(&w, CURVES[ci], (const uint64_t(*)[4])c.witness,
                                                  c.r1cs.n_wires, NULL, 0),
                                 CZK_OK);
                assert_int_equal(prove_verify(zp, w), CZK_ERR_INVALID_PROOF);
                czk_witness_free(w);
                czk_gen_circuit_free(&c);
            }
        }
    }
}

static void test_setup_errors(void **state)
{
    (void)state;
    struct czk_gen_circuit c;
    struct czk_setup_toxic t;
    char zp[1100], err[512];
    gen(&c, CZK_GROTH16_CURVE_BN254, CZK_GEN_SHAPE_MUL, 5, 0, 1, 1);
    toxic_for(&t, CZK_GROTH16_CURVE_BN254, 1, 3);
    tmp_path("err.zkey", zp, sizeof zp);
    struct czk_setup_toxic bad = t;
    memset(bad.delta, 0, sizeof bad.delta);
    assert_int_equal(czk_setup_dev(&c.r1cs, &bad, zp, 1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "delta"));
    bad = t;
    memcpy(bad.alpha, czk_fr_bn254_modulus(), 32);
    assert_int_equal(czk_setup_dev(&c.r1cs, &bad, zp, 1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "alpha"));
    bad = t;
    memset(bad.tau, 0, sizeof bad.tau);
    bad.tau[0] = 1; /* on every domain */
    assert_int_equal(czk_setup_dev(&c.r1cs, &bad, zp, 1, err, sizeof err), CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "tau"));
    assert_int_equal(access(zp, F_OK), -1); /* nothing written */
    c.r1cs.curve = CZK_GROTH16_CURVE_NONE;
    assert_int_equal(czk_setup_dev(&c.r1cs, &t, zp, 1, err, sizeof err), CZK_ERR_INVALID_ARG);
    czk_gen_circuit_free(&c);
}

/* ---- czk's prover against the reference prover ------------------------------------------ */

/* The fixed (r, s) pairs of tests/vectors/ref/README.md. */
static const char *const RS1[2] = {
    "514631507721405312519378913364952599439317176483405283752361400573829067280",
    "19073418959183295181574299429881679062151092745154572570959326140849789028425"};

static void dec_limbs(uint64_t out[4], const char *dec, long sub)
{
    mpz_t z;
    mpz_init_set_str(z, dec, 10);
    if (sub > 0)
        mpz_sub_ui(z, z, (unsigned long)sub);
    limbs_from_mpz(out, z);
    mpz_clear(z);
}

static void test_ref_proofs(void **state)
{
    (void)state;
    char p[1200], name[256], err[512];
    static const char *const RMOD[2] = {
        "21888242871839275222246405745257275088548364400416034343698204186575808495617",
        "52435875175126190479447740508185965837690552500527637822603658699938581184513"};
    for (unsigned ci = 0; ci < 2; ci++) {
        for (unsigned k = 0; k < 3; k++) {
            czk_prover_key_t key;
            czk_witness_t w;
            snprintf(p, sizeof p, "%s/groth16/%s/%s/circuit.zkey", CZK_VECTORS_DIR, CURVE_DIR[ci],
                     CIRCUITS[k]);
            assert_int_equal(czk_prover_key_load(&key, p, 0, 2, err, sizeof err), CZK_OK);
            snprintf(p, sizeof p, "%s/groth16/%s/%s/witness.wtns", CZK_VECTORS_DIR, CURVE_DIR[ci],
                     CIRCUITS[k]);
            assert_int_equal(czk_witness_load(&w, p, err, sizeof err), CZK_OK);
            for (unsigned pair = 1; pair <= 2; pair++) {
                uint64_t r[4], s[4];
                struct czk_groth16_proof proof;
                struct czk_prove_opts o = {0};
                char *json = NULL, *want;
                size_t len = 0;
                if (pair == 1) {
                    dec_limbs(r, RS1[0], 0);
                    dec_limbs(s, RS1[1], 0);
                } else { /* r - 1, r - 2 */
                    dec_limbs(r, RMOD[ci], 1);
                    dec_limbs(s, RMOD[ci], 2);
                }
                o.test_fixed_r = r;
                o.test_fixed_s = s;
                assert_int_equal(czk_prove(key, BE, w, &o, &proof, NULL, err, sizeof err), CZK_OK);
                assert_int_equal(czk_groth16_proof_to_json(&proof, &json, &len), CZK_OK);
                snprintf(name, sizeof name, "ref/%s/%s/proof_rs%u.json", CURVE_DIR[ci], CIRCUITS[k],
                         pair);
                want = czk_test_read_vector(name, NULL);
                assert_non_null(want);
                if (strcmp(json, want) != 0)
                    fprintf(stderr, "%s differs:\n%s\n", name, json);
                assert_string_equal(json, want);
                free(json);
                free(want);
            }
            czk_witness_free(w);
            czk_prover_key_free(key);
        }
    }
}

int main(void)
{
    czk_test_seed_init("test_setup");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lg_domain),     cmocka_unit_test(test_toxic_derive),
        cmocka_unit_test(test_lagrange),      cmocka_unit_test(test_fixed_base),
        cmocka_unit_test(test_gen_mul),
        cmocka_unit_test(test_gen_mul_witnesses),       cmocka_unit_test(test_gen_porep),
        cmocka_unit_test(test_gen_files),     cmocka_unit_test(test_gen_errors),
        cmocka_unit_test(test_setup_vectors), cmocka_unit_test(test_setup_generated),
        cmocka_unit_test(test_setup_errors),  cmocka_unit_test(test_ref_proofs),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
