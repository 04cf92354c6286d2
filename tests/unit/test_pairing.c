/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of src/pairing: the Fp6/Fp12 towers and the optimal ate pairings of BN254
 * and BLS12-381.
 *
 * Oracles: @noble/curves 2.0.1 (tests/vectors/pairing/{bn254,bls12_381}.txt from
 * tools/gen_pairing_vectors.mjs: for fixed points P = [a]G1, Q = [b]G2 the standard
 * pairing value, obtained there as noble's Miller loop raised to (p^12 - 1)/r by a
 * generic power, and noble's own pairing value, which is the standard one raised to a
 * fixed m); GMP for the exponents (p, p^k, (p^12 - 1)/r, products of scalars); and the
 * algebra itself: bilinearity, non-degeneracy, order r, field laws, Frobenius as the
 * p-power map. Inputs are seeded random (CZK_TEST_SEED replays a run).
 *
 * Every check is written once as a macro instantiated per curve.
 */
#include "test_util.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk_pairing.h"

/* ------------------------------------------------------------- helpers --- */

/* Export a non-negative mpz into n little-endian 64-bit limbs (zero padded). */
static void mpz_to_limbs(uint64_t *out, size_t n, const mpz_t v)
{
    size_t cnt = 0;
    memset(out, 0, n * sizeof *out);
    assert_true(mpz_sizeinbase(v, 2) <= 64 * n);
    mpz_export(out, &cnt, -1, sizeof(uint64_t), 0, 0, v);
}

static void limbs_to_mpz(mpz_t r, const uint64_t *l, size_t n)
{
    mpz_import(r, n, -1, sizeof(uint64_t), 0, 0, l);
}

/* Next non-blank, non-comment line of a vector file starting with `key `; returns a
 * pointer to the text after the key (NUL-terminated line) or NULL at the end. */
static char *vec_next(char **cursor, const char *key)
{
    char *s = *cursor;
    while (s && *s) {
        char *eol = strchr(s, '\n');
        if (eol)
            *eol = '\0';
        char *line = s;
        s = eol ? eol + 1 : NULL;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        size_t kl = strlen(key);
        *cursor = s;
        if (strncmp(line, key, kl) == 0 && line[kl] == ' ')
            return line + kl + 1;
        fail_msg("vector file: expected key '%s', got '%.20s'", key, line);
    }
    *cursor = s;
    return NULL;
}

/* Split the next hex token off *s (space separated) into buf. */
static const char *vec_tok(char **s, char *buf, size_t len)
{
    while (**s == ' ')
        (*s)++;
    size_t i = 0;
    while (**s && **s != ' ' && i + 1 < len)
        buf[i++] = *(*s)++;
    buf[i] = '\0';
    assert_true(i > 0);
    return buf;
}

/* --------------------------------------------------- per-curve checks --- */

/*
 * C: curve token; NL: Fp limbs. Defines random element/point generators and the test
 * functions test_<name>_C.
 */
#define PAIRING_TESTS(C, NL)                                                                       \
    typedef struct czk_fp12_##C fp12_##C;                                                          \
    typedef struct czk_fp6_##C fp6_##C;                                                            \
                                                                                                   \
    static void rand_fp_##C(struct czk_fp_##C *r)                                                  \
    {                                                                                              \
        const uint64_t *p = czk_fp_##C##_modulus();                                                \
        uint64_t l[NL];                                                                            \
        do {                                                                                       \
            for (int i = 0; i < NL; i++)                                                           \
                l[i] = czk_test_rand64();                                                          \
            l[NL - 1] &= (UINT64_C(1) << (64 - __builtin_clzll(p[NL - 1]))) - 1;                   \
        } while (czk_fp_##C##_from_canonical(r, l) != CZK_OK);                                     \
    }                                                                                              \
                                                                                                   \
    static void rand_fr_##C(struct czk_fr_##C *r)                                                  \
    {                                                                                              \
        const uint64_t *p = czk_fr_##C##_modulus();                                                \
        uint64_t l[4];                                                                             \
        do {                                                                                       \
            for (int i = 0; i < 4; i++)                                                            \
                l[i] = czk_test_rand64();                                                          \
            l[3] &= (UINT64_C(1) << (64 - __builtin_clzll(p[3]))) - 1;                             \
        } while (czk_fr_##C##_from_canonical(r, l) != CZK_OK || czk_fr_##C##_is_zero(r));          \
    }                                                                                              \
                                                                                                   \
    static void rand_fp2_##C(struct czk_fp2_##C *r)                                                \
    {                                                                                              \
        rand_fp_##C(&r->c0);                                                                       \
        rand_fp_##C(&r->c1);                                                                       \
    }                                                                                              \
                                                                                                   \
    static void rand_fp6_##C(fp6_##C *r)                                                           \
    {                                                                                              \
        rand_fp2_##C(&r->c0);                                                                      \
        rand_fp2_##C(&r->c1);                                                                      \
        rand_fp2_##C(&r->c2);                                                                      \
    }                                                                                              \
                                                                                                   \
    static void rand_fp12_##C(fp12_##C *r)                                                         \
    {                                                                                              \
        rand_fp6_##C(&r->c0);                                                                      \
        rand_fp6_##C(&r->c1);                                                                      \
    }                                                                                              \
                                                                                                   \
    /* The 12 Fp coefficients in tower order (noble's order). */                                   \
    static struct czk_fp_##C *coef_##C(fp12_##C *a, int i)                                         \
    {                                                                                              \
        struct czk_fp2_##C *f2[6] = {&a->c0.c0, &a->c0.c1, &a->c0.c2,                              \
                                     &a->c1.c0, &a->c1.c1, &a->c1.c2};                             \
        return (i & 1) ? &f2[i / 2]->c1 : &f2[i / 2]->c0;                                          \
    }                                                                                              \
                                                                                                   \
    static void fr_to_mpz_##C(mpz_t r, const struct czk_fr_##C *k)                                 \
    {                                                                                              \
        uint64_t l[4];                                                                             \
        czk_fr_##C##_to_canonical(l, k);                                                           \
        limbs_to_mpz(r, l, 4);                                                                     \
    }                                                                                              \
                                                                                                   \
    /* r = a^e for a non-negative mpz e */                                                         \
    static void pow_mpz_##C(fp12_##C *r, const fp12_##C *a, const mpz_t e)                         \
    {                                                                                              \
        size_t n = (mpz_sizeinbase(e, 2) + 63) / 64;                                               \
        uint64_t *l = calloc(n, sizeof *l);                                                        \
        assert_non_null(l);                                                                        \
        mpz_to_limbs(l, n, e);                                                                     \
        czk_fp12_##C##_pow(r, a, l, n);                                                            \
        free(l);                                                                                   \
    }                                                                                              \
                                                                                                   \
    static void mpz_p_##C(mpz_t p) { limbs_to_mpz(p, czk_fp_##C##_modulus(), NL); }                \
    static void mpz_r_##C(mpz_t r) { limbs_to_mpz(r, czk_fr_##C##_modulus(), 4); }                 \
                                                                                                   \
    /* [k]G1 and [k]G2 as affine points */                                                         \
    static void g1k_##C(struct czk_g1_##C##_affine *out, const struct czk_fr_##C *k)               \
    {                                                                                              \
        struct czk_g1_##C##_affine g;                                                              \
        struct czk_g1_##C j;                                                                       \
        czk_g1_##C##_generator(&g);                                                                \
        czk_g1_##C##_from_affine(&j, &g);                                                          \
        czk_g1_##C##_mul(&j, &j, k);                                                               \
        czk_g1_##C##_to_affine(out, &j);                                                           \
    }                                                                                              \
    static void g2k_##C(struct czk_g2_##C##_affine *out, const struct czk_fr_##C *k)               \
    {                                                                                              \
        struct czk_g2_##C##_affine g;                                                              \
        struct czk_g2_##C j;                                                                       \
        czk_g2_##C##_generator(&g);                                                                \
        czk_g2_##C##_from_affine(&j, &g);                                                          \
        czk_g2_##C##_mul(&j, &j, k);                                                               \
        czk_g2_##C##_to_affine(out, &j);                                                           \
    }                                                                                              \
                                                                                                   \
    /* Values against @noble/curves. */                                                            \
    static void test_noble_vectors_##C(void **state)                                               \
    {                                                                                              \
        (void)state;                                                                               \
        size_t len;                                                                                \
        char *text = czk_test_read_vector("pairing/" #C ".txt", &len);                             \
        assert_non_null(text);                                                                     \
        char *cur = text, *s, tok[256];                                                            \
        mpz_t m;                                                                                   \
        mpz_init(m);                                                                               \
        s = vec_next(&cur, "m");                                                                   \
        assert_non_null(s);                                                                        \
        assert_int_equal(mpz_set_str(m, vec_tok(&s, tok, sizeof tok), 16), 0);                     \
        int cases = 0;                                                                             \
        while ((s = vec_next(&cur, "a")) != NULL) {                                                \
            struct czk_g1_##C##_affine P;                                                          \
            struct czk_g2_##C##_affine Q;                                                          \
            fp12_##C e, std, got, t;                                                               \
            assert_non_null(vec_next(&cur, "b"));                                                  \
            s = vec_next(&cur, "P");                                                               \
            assert_int_equal(czk_fp_##C##_from_hex(&P.x, vec_tok(&s, tok, sizeof tok)), CZK_OK);   \
            assert_int_equal(czk_fp_##C##_from_hex(&P.y, vec_tok(&s, tok, sizeof tok)), CZK_OK);   \
            s = vec_next(&cur, "Q");                                                               \
            assert_int_equal(czk_fp_##C##_from_hex(&Q.x.c0, vec_tok(&s, tok, sizeof tok)),         \
                             CZK_OK);                                                              \
            assert_int_equal(czk_fp_##C##_from_hex(&Q.x.c1, vec_tok(&s, tok, sizeof tok)),         \
                             CZK_OK);                                                              \
            assert_int_equal(czk_fp_##C##_from_hex(&Q.y.c0, vec_tok(&s, tok, sizeof tok)),         \
                             CZK_OK);                                                              \
            assert_int_equal(czk_fp_##C##_from_hex(&Q.y.c1, vec_tok(&s, tok, sizeof tok)),         \
                             CZK_OK);                                                              \
            s = vec_next(&cur, "e");                                                               \
            for (int i = 0; i < 12; i++)                                                           \
                assert_int_equal(                                                                  \
                    czk_fp_##C##_from_hex(coef_##C(&e, i), vec_tok(&s, tok, sizeof tok)), CZK_OK); \
            s = vec_next(&cur, "std");                                                             \
            for (int i = 0; i < 12; i++)                                                           \
                assert_int_equal(                                                                  \
                    czk_fp_##C##_from_hex(coef_##C(&std, i), vec_tok(&s, tok, sizeof tok)),        \
                    CZK_OK);                                                                       \
            assert_true(czk_g1_##C##_affine_on_curve(&P));                                         \
            assert_true(czk_g2_##C##_affine_on_curve(&Q));                                         \
            czk_pairing_##C(&got, &P, &Q);                                                         \
            assert_true(czk_fp12_##C##_eq(&got, &std));                                            \
            /* noble's value is the standard one to the power m */                                 \
            pow_mpz_##C(&t, &got, m);                                                              \
            assert_true(czk_fp12_##C##_eq(&t, &e));                                                \
            /* the parts agree with the whole */                                                   \
            czk_pairing_##C##_miller_loop(&t, &P, &Q, 1);                                          \
            czk_pairing_##C##_final_exp(&t, &t);                                                   \
            assert_true(czk_fp12_##C##_eq(&t, &std));                                              \
            cases++;                                                                               \
        }                                                                                          \
        assert_true(cases >= 10);                                                                  \
        mpz_clear(m);                                                                              \
        free(text);                                                                                \
    }                                                                                              \
                                                                                                   \
    /* e(aP, bQ) = e(P, Q)^(ab), e != 1, e^r = 1 */                                                \
    static void test_bilinear_##C(void **state)                                                    \
    {                                                                                              \
        (void)state;                                                                               \
        struct czk_g1_##C##_affine g1, P;                                                          \
        struct czk_g2_##C##_affine g2, Q;                                                          \
        fp12_##C e0, e, t, one;                                                                    \
        mpz_t ab, r;                                                                               \
        mpz_inits(ab, r, NULL);                                                                    \
        mpz_r_##C(r);                                                                              \
        czk_g1_##C##_generator(&g1);                                                               \
        czk_g2_##C##_generator(&g2);                                                               \
        czk_pairing_##C(&e0, &g1, &g2);                                                            \
        czk_fp12_##C##_one(&one);                                                                  \
        assert_false(czk_fp12_##C##_is_one(&e0));                                                  \
        pow_mpz_##C(&t, &e0, r);                                                                   \
        assert_true(czk_fp12_##C##_is_one(&t));                                                    \
        size_t n = czk_test_cases(3);                                                              \
        for (size_t it = 0; it < n; it++) {                                                        \
            struct czk_fr_##C a, b, c;                                                             \
            rand_fr_##C(&a);                                                                       \
            rand_fr_##C(&b);                                                                       \
            g1k_##C(&P, &a);                                                                       \
            g2k_##C(&Q, &b);                                                                       \
            czk_pairing_##C(&e, &P, &Q);                                                           \
            czk_fr_##C##_mul(&c, &a, &b);                                                          \
            fr_to_mpz_##C(ab, &c);                                                                 \
            pow_mpz_##C(&t, &e0, ab);                                                              \
            assert_true(czk_fp12_##C##_eq(&e, &t));                                                \
            assert_false(czk_fp12_##C##_is_one(&e));                                               \
            pow_mpz_##C(&t, &e, r);                                                                \
            assert_true(czk_fp12_##C##_eq(&t, &one));                                              \
            /* a different point gives a different value */                                        \
            czk_g1_##C##_affine_neg(&P, &P);                                                       \
            czk_pairing_##C(&t, &P, &Q);                                                           \
            assert_false(czk_fp12_##C##_eq(&t, &e));                                               \
            czk_fp12_##C##_mul(&t, &t, &e); /* e(-aP, bQ) e(aP, bQ) = 1 */                         \
            assert_true(czk_fp12_##C##_is_one(&t));                                                \
        }                                                                                          \
        mpz_clears(ab, r, NULL);                                                                   \
    }                                                                                              \
                                                                                                   \
    /* check(): cancelling products, perturbations, chunking, infinity */                          \
    static void test_check_##C(void **state)                                                       \
    {                                                                                              \
        (void)state;                                                                               \
        struct czk_g1_##C##_affine g1, P[15];                                                      \
        struct czk_g2_##C##_affine g2, Q[15];                                                      \
        struct czk_fr_##C a[12], b[12], acc, t;                                                    \
        czk_g1_##C##_generator(&g1);                                                               \
        czk_g2_##C##_generator(&g2);                                                               \
        /* e(aP, Q) e(-P, aQ) = 1 */                                                               \
        rand_fr_##C(&a[0]);                                                                        \
        g1k_##C(&P[0], &a[0]);                                                                     \
        czk_g1_##C##_affine_neg(&P[1], &g1);                                                       \
        Q[0] = g2;                                                                                 \
        g2k_##C(&Q[1], &a[0]);                                                                     \
        assert_true(czk_pairing_##C##_check(P, Q, 2));                                             \
        assert_false(czk_pairing_##C##_check(P, Q, 1));                                            \
        P[1] = g1; /* e(aP, Q) e(P, aQ) = e(P, Q)^(2a) != 1 */                                     \
        assert_false(czk_pairing_##C##_check(P, Q, 2));                                            \
        /* Groth16 shape: e(A, B) e(-alpha, beta) e(-L, gamma) e(-C, delta) = 1 with               \
         * ab = sum of the other three products */                                                 \
        for (int k = 0; k < 4; k++) {                                                              \
            rand_fr_##C(&a[k]);                                                                    \
            rand_fr_##C(&b[k]);                                                                    \
        }                                                                                          \
        czk_fr_##C##_zero(&acc);                                                                   \
        for (int k = 1; k < 4; k++) {                                                              \
            czk_fr_##C##_mul(&t, &a[k], &b[k]);                                                    \
            czk_fr_##C##_add(&acc, &acc, &t);                                                      \
        }                                                                                          \
        czk_fr_##C##_inv(&t, &b[0]);                                                               \
        czk_fr_##C##_mul(&a[0], &acc, &t); /* a0 b0 = sum */                                       \
        for (int k = 0; k < 4; k++) {                                                              \
            g1k_##C(&P[k], &a[k]);                                                                 \
            if (k > 0)                                                                             \
                czk_g1_##C##_affine_neg(&P[k], &P[k]);                                             \
            g2k_##C(&Q[k], &b[k]);                                                                 \
        }                                                                                          \
        assert_true(czk_pairing_##C##_check(P, Q, 4));                                             \
        struct czk_g1_##C##_affine keep = P[2];                                                    \
        czk_g1_##C##_affine_neg(&P[2], &P[2]); /* perturbed: one sign flipped */                   \
        assert_false(czk_pairing_##C##_check(P, Q, 4));                                            \
        P[2] = keep;                                                                               \
        struct czk_g2_##C##_affine keepq = Q[3];                                                   \
        Q[3] = g2; /* perturbed: wrong point */                                                    \
        assert_false(czk_pairing_##C##_check(P, Q, 4));                                            \
        Q[3] = keepq;                                                                              \
        assert_true(czk_pairing_##C##_check(P, Q, 4));                                             \
        /* 12 pairs (more than one chunk of 8): sum a_i = 0 over P_i = [a_i]G1, Q = G2, with       \
         * infinity pairs mixed in */                                                              \
        czk_fr_##C##_zero(&acc);                                                                   \
        for (int k = 0; k < 11; k++) {                                                             \
            rand_fr_##C(&a[k]);                                                                    \
            czk_fr_##C##_add(&acc, &acc, &a[k]);                                                   \
            g1k_##C(&P[k], &a[k]);                                                                 \
            Q[k] = g2;                                                                             \
        }                                                                                          \
        czk_fr_##C##_neg(&a[11], &acc);                                                            \
        g1k_##C(&P[11], &a[11]);                                                                   \
        Q[11] = g2;                                                                                \
        assert_true(czk_pairing_##C##_check(P, Q, 12));                                            \
        assert_false(czk_pairing_##C##_check(P, Q, 11));                                           \
        czk_g2_##C##_affine_set_inf(&Q[9]); /* now missing [a_9]: product != 1 */                  \
        assert_false(czk_pairing_##C##_check(P, Q, 12));                                           \
        Q[9] = g2;                                                                                 \
        assert_true(czk_pairing_##C##_check(P, Q, 12));                                            \
        /* pairs with an infinity member contribute 1, also across the chunk boundary */           \
        czk_g1_##C##_affine_set_inf(&P[12]);                                                       \
        Q[12] = Q[0];                                                                              \
        P[13] = P[0];                                                                              \
        czk_g2_##C##_affine_set_inf(&Q[13]);                                                       \
        assert_true(czk_pairing_##C##_check(P, Q, 14));                                            \
        P[14] = P[7];                                                                              \
        Q[14] = Q[7];                                                                              \
        P[7] = P[12];                                                                              \
        assert_true(czk_pairing_##C##_check(P, Q, 15)); /* moved pair, infinity in its place */    \
        assert_false(czk_pairing_##C##_check(P, Q, 14));                                           \
    }                                                                                              \
                                                                                                   \
    /* Infinity contributes 1; the multi-loop equals the product of single loops. */               \
    static void test_infinity_multi_##C(void **state)                                              \
    {                                                                                              \
        (void)state;                                                                               \
        struct czk_g1_##C##_affine P[3], inf1;                                                     \
        struct czk_g2_##C##_affine Q[3], inf2;                                                     \
        struct czk_fr_##C k;                                                                       \
        fp12_##C f, f0, f1, t;                                                                     \
        czk_g1_##C##_affine_set_inf(&inf1);                                                        \
        czk_g2_##C##_affine_set_inf(&inf2);                                                        \
        for (int i = 0; i < 2; i++) {                                                              \
            rand_fr_##C(&k);                                                                       \
            g1k_##C(&P[i], &k);                                                                    \
            rand_fr_##C(&k);                                                                       \
            g2k_##C(&Q[i], &k);                                                                    \
        }                                                                                          \
        czk_pairing_##C(&f, &inf1, &Q[0]);                                                         \
        assert_true(czk_fp12_##C##_is_one(&f));                                                    \
        czk_pairing_##C(&f, &P[0], &inf2);                                                         \
        assert_true(czk_fp12_##C##_is_one(&f));                                                    \
        czk_pairing_##C##_miller_loop(&f, P, Q, 0);                                                \
        assert_true(czk_fp12_##C##_is_one(&f));                                                    \
        assert_true(czk_pairing_##C##_check(P, Q, 0));                                             \
        assert_true(czk_pairing_##C##_check(&inf1, &Q[0], 1));                                     \
        assert_true(czk_pairing_##C##_check(&P[0], &inf2, 1));                                     \
        assert_false(czk_pairing_##C##_check(&P[0], &Q[0], 1));                                    \
        /* multi-loop == product of single loops, exactly (before the final exp) */                \
        czk_pairing_##C##_miller_loop(&f0, &P[0], &Q[0], 1);                                       \
        czk_pairing_##C##_miller_loop(&f1, &P[1], &Q[1], 1);                                       \
        czk_fp12_##C##_mul(&t, &f0, &f1);                                                          \
        czk_pairing_##C##_miller_loop(&f, P, Q, 2);                                                \
        assert_true(czk_fp12_##C##_eq(&f, &t));                                                    \
        /* an infinity pair in the middle changes nothing */                                       \
        P[2] = P[1];                                                                               \
        Q[2] = Q[1];                                                                               \
        P[1] = inf1;                                                                               \
        czk_pairing_##C##_miller_loop(&f, P, Q, 3);                                                \
        assert_true(czk_fp12_##C##_eq(&f, &t));                                                    \
        Q[1] = inf2;                                                                               \
        P[1] = P[0];                                                                               \
        czk_pairing_##C##_miller_loop(&f, P, Q, 3);                                                \
        assert_true(czk_fp12_##C##_eq(&f, &t));                                                    \
    }                                                                                              \
                                                                                                   \
    /* Field laws of Fp6 and Fp12. */                                                              \
    static void test_tower_##C(void **state)                                                       \
    {                                                                                              \
        (void)state;                                                                               \
        size_t n = czk_test_cases(20);                                                             \
        for (size_t it = 0; it < n; it++) {                                                        \
            fp6_##C x, y, z, s, u, v6;                                                             \
            rand_fp6_##C(&x);                                                                      \
            rand_fp6_##C(&y);                                                                      \
            rand_fp6_##C(&z);                                                                      \
            czk_fp6_##C##_sqr(&s, &x);                                                             \
            czk_fp6_##C##_mul(&u, &x, &x);                                                         \
            assert_true(czk_fp6_##C##_eq(&s, &u));                                                 \
            czk_fp6_##C##_mul(&s, &x, &y);                                                         \
            czk_fp6_##C##_mul(&u, &y, &x);                                                         \
            assert_true(czk_fp6_##C##_eq(&s, &u));                                                 \
            czk_fp6_##C##_mul(&s, &s, &z);                                                         \
            czk_fp6_##C##_mul(&u, &y, &z);                                                         \
            czk_fp6_##C##_mul(&u, &x, &u);                                                         \
            assert_true(czk_fp6_##C##_eq(&s, &u)); /* (xy)z = x(yz) */                             \
            czk_fp6_##C##_add(&s, &y, &z);                                                         \
            czk_fp6_##C##_mul(&s, &x, &s);                                                         \
            czk_fp6_##C##_mul(&u, &x, &y);                                                         \
            czk_fp6_##C##_mul(&v6, &x, &z);                                                        \
            czk_fp6_##C##_add(&u, &u, &v6);                                                        \
            assert_true(czk_fp6_##C##_eq(&s, &u)); /* x(y+z) = xy + xz */                          \
            czk_fp6_##C##_inv(&s, &x);                                                             \
            czk_fp6_##C##_mul(&s, &s, &x);                                                         \
            czk_fp6_##C##_one(&u);                                                                 \
            assert_true(czk_fp6_##C##_eq(&s, &u));                                                 \
            czk_fp6_##C##_sub(&s, &x, &y);                                                         \
            czk_fp6_##C##_neg(&u, &y);                                                             \
            czk_fp6_##C##_add(&u, &x, &u);                                                         \
            assert_true(czk_fp6_##C##_eq(&s, &u));                                                 \
            /* v^3 = xi: (v)(v)(v) with v = (0, 1, 0) equals (xi, 0, 0) */                         \
            czk_fp6_##C##_zero(&v6);                                                               \
            czk_fp2_##C##_one(&v6.c1);                                                             \
            czk_fp6_##C##_mul(&s, &v6, &v6);                                                       \
            czk_fp6_##C##_mul(&s, &s, &v6);                                                        \
            czk_fp6_##C##_zero(&u);                                                                \
            czk_fp2_##C##_one(&u.c0);                                                              \
            czk_fp2_##C##_mul_by_nonresidue(&u.c0, &u.c0);                                         \
            assert_true(czk_fp6_##C##_eq(&s, &u));                                                 \
                                                                                                   \
            fp12_##C a, b, c, d, e, one;                                                           \
            rand_fp12_##C(&a);                                                                     \
            rand_fp12_##C(&b);                                                                     \
            rand_fp12_##C(&c);                                                                     \
            czk_fp12_##C##_one(&one);                                                              \
            czk_fp12_##C##_sqr(&d, &a);                                                            \
            czk_fp12_##C##_mul(&e, &a, &a);                                                        \
            assert_true(czk_fp12_##C##_eq(&d, &e));                                                \
            czk_fp12_##C##_mul(&d, &a, &b);                                                        \
            czk_fp12_##C##_mul(&e, &b, &a);                                                        \
            assert_true(czk_fp12_##C##_eq(&d, &e));                                                \
            czk_fp12_##C##_mul(&d, &d, &c);                                                        \
            czk_fp12_##C##_mul(&e, &b, &c);                                                        \
            czk_fp12_##C##_mul(&e, &a, &e);                                                        \
            assert_true(czk_fp12_##C##_eq(&d, &e));                                                \
            czk_fp12_##C##_inv(&d, &a);                                                            \
            czk_fp12_##C##_mul(&d, &d, &a);                                                        \
            assert_true(czk_fp12_##C##_is_one(&d));                                                \
            assert_false(czk_fp12_##C##_is_one(&a));                                               \
            czk_fp12_##C##_mul(&d, &a, &one);                                                      \
            assert_true(czk_fp12_##C##_eq(&d, &a));                                                \
            /* w^2 = v: w = (0, 1) in Fp6[w] */                                                    \
            fp12_##C w;                                                                            \
            czk_fp12_##C##_zero(&w);                                                               \
            czk_fp2_##C##_one(&w.c1.c0);                                                           \
            czk_fp12_##C##_sqr(&d, &w);                                                            \
            czk_fp12_##C##_zero(&e);                                                               \
            czk_fp2_##C##_one(&e.c0.c1);                                                           \
            assert_true(czk_fp12_##C##_eq(&d, &e));                                                \
            /* conj is the p^6 Frobenius, and an automorphism */                                   \
            czk_fp12_##C##_frobenius(&d, &a, 6);                                                   \
            czk_fp12_##C##_conj(&e, &a);                                                           \
            assert_true(czk_fp12_##C##_eq(&d, &e));                                                \
            czk_fp12_##C##_mul(&d, &a, &b);                                                        \
            czk_fp12_##C##_frobenius(&d, &d, 1);                                                   \
            czk_fp12_##C##_frobenius(&e, &a, 1);                                                   \
            czk_fp12_##C##_frobenius(&c, &b, 1);                                                   \
            czk_fp12_##C##_mul(&e, &e, &c);                                                        \
            assert_true(czk_fp12_##C##_eq(&d, &e));                                                \
            /* frob^k composes; frob^12 = identity */                                              \
            czk_fp12_##C##_frobenius(&d, &a, 0);                                                   \
            assert_true(czk_fp12_##C##_eq(&d, &a));                                                \
            e = a;                                                                                 \
            for (unsigned k = 1; k <= 12; k++) {                                                   \
                czk_fp12_##C##_frobenius(&e, &e, 1);                                               \
                czk_fp12_##C##_frobenius(&d, &a, k);                                               \
                assert_true(czk_fp12_##C##_eq(&d, &e));                                            \
                if (k < 12)                                                                        \
                    assert_false(czk_fp12_##C##_eq(&d, &a));                                       \
            }                                                                                      \
            assert_true(czk_fp12_##C##_eq(&e, &a));                                                \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    /* frobenius(a, k) == a^(p^k) for k = 1, 2, 3 (independent exponent from GMP). */              \
    static void test_frobenius_pow_##C(void **state)                                               \
    {                                                                                              \
        (void)state;                                                                               \
        mpz_t p, e;                                                                                \
        mpz_inits(p, e, NULL);                                                                     \
        mpz_p_##C(p);                                                                              \
        size_t n = czk_test_cases(2);                                                              \
        for (size_t it = 0; it < n; it++) {                                                        \
            fp12_##C a, x, y;                                                                      \
            rand_fp12_##C(&a);                                                                     \
            for (unsigned k = 1; k <= 3; k++) {                                                    \
                mpz_pow_ui(e, p, k);                                                               \
                pow_mpz_##C(&x, &a, e);                                                            \
                czk_fp12_##C##_frobenius(&y, &a, k);                                               \
                assert_true(czk_fp12_##C##_eq(&x, &y));                                            \
            }                                                                                      \
        }                                                                                          \
        mpz_clears(p, e, NULL);                                                                    \
    }                                                                                              \
                                                                                                   \
    /* Cyclotomic squaring and the final exponentiation against a generic power. */                \
    static void test_final_exp_##C(void **state)                                                   \
    {                                                                                              \
        (void)state;                                                                               \
        mpz_t p, r, e;                                                                             \
        mpz_inits(p, r, e, NULL);                                                                  \
        mpz_p_##C(p);                                                                              \
        mpz_r_##C(r);                                                                              \
        mpz_pow_ui(e, p, 12);                                                                      \
        mpz_sub_ui(e, e, 1);                                                                       \
        assert_true(mpz_divisible_p(e, r));                                                        \
        mpz_divexact(e, e, r); /* (p^12 - 1)/r */                                                  \
        size_t n = czk_test_cases(2);                                                              \
        for (size_t it = 0; it < n; it++) {                                                        \
            fp12_##C a, c, x, y;                                                                   \
            rand_fp12_##C(&a);                                                                     \
            /* c = a^((p^6 - 1)(p^2 + 1)) is cyclotomic */                                         \
            czk_fp12_##C##_inv(&x, &a);                                                            \
            czk_fp12_##C##_conj(&c, &a);                                                           \
            czk_fp12_##C##_mul(&c, &c, &x);                                                        \
            czk_fp12_##C##_frobenius(&x, &c, 2);                                                   \
            czk_fp12_##C##_mul(&c, &x, &c);                                                        \
            for (int k = 0; k < 5; k++) {                                                          \
                czk_fp12_##C##_cyclotomic_sqr(&x, &c);                                             \
                czk_fp12_##C##_sqr(&y, &c);                                                        \
                assert_true(czk_fp12_##C##_eq(&x, &y));                                            \
                c = x;                                                                             \
            }                                                                                      \
            /* and it is not the plain square off the subgroup (the test can fail) */              \
            czk_fp12_##C##_cyclotomic_sqr(&x, &a);                                                 \
            czk_fp12_##C##_sqr(&y, &a);                                                            \
            assert_false(czk_fp12_##C##_eq(&x, &y));                                               \
            /* cyclotomic inverse is conj */                                                       \
            czk_fp12_##C##_conj(&x, &c);                                                           \
            czk_fp12_##C##_mul(&x, &x, &c);                                                        \
            assert_true(czk_fp12_##C##_is_one(&x));                                                \
            /* final exponentiation == a^((p^12 - 1)/r) */                                         \
            czk_pairing_##C##_final_exp(&x, &a);                                                   \
            pow_mpz_##C(&y, &a, e);                                                                \
            assert_true(czk_fp12_##C##_eq(&x, &y));                                                \
            pow_mpz_##C(&y, &x, r);                                                                \
            assert_true(czk_fp12_##C##_is_one(&y));                                                \
        }                                                                                          \
        mpz_clears(p, r, e, NULL);                                                                 \
    }

PAIRING_TESTS(bn254, 4)
PAIRING_TESTS(bls12_381, 6)

#define BOTH(t) cmocka_unit_test(t##_bn254), cmocka_unit_test(t##_bls12_381)

int main(void)
{
    czk_test_seed_init("test_pairing");
    const struct CMUnitTest tests[] = {
        BOTH(test_tower),          BOTH(test_frobenius_pow), BOTH(test_final_exp),
        BOTH(test_noble_vectors),  BOTH(test_bilinear),      BOTH(test_check),
        BOTH(test_infinity_multi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
