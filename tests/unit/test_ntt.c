/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_ntt (src/ntt/ntt.h) over the scalar fields of BN254 and BLS12-381, in both
 * root-of-unity conventions, against a GMP oracle that shares nothing with the library:
 * the moduli are hardcoded, the roots of unity are derived here from their definitions
 * (snarkjs: 5^t; bellman: 7^t on BLS12-381, 5^t on BN254; r - 1 = 2^s t, then squared
 * down), and elements enter and leave the Montgomery form by v*2^256 mod r and
 * limbs*2^-256 mod r in GMP, never through czk's conversions.
 *
 * Checks: forward, inverse, coset forward and coset inverse against the naive O(n^2)
 * sums for lg_n = 0..9 (both the single-transform and the four-step paths);
 * inverse(forward(x)) = x up to lg_n = 16, with and without a coset; threads = 1, 2, 3
 * give identical bytes; linearity on random vectors; argument errors and lg_n = 0;
 * the snarkjs coset shift helper against ffjavascript's Fr.w[i] / Fr.shift
 * (tests/vectors/noble/bn254_roots.txt, bls12_381_roots.txt); and the twiddle cache
 * under concurrent use and clearing. Inputs are seeded random (CZK_TEST_SEED replays a run).
 */
#include <gmp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "czk/czk_ff.h"
#include "ntt/ntt.h"
#include "ntt/ntt_snarkjs.h"

typedef uint64_t fe[4];

struct fld {
    const char *name;
    enum czk_groth16_curve curve;
    const char *modulus;
    unsigned s;           /* two-adicity */
    unsigned bellman_gen; /* 7 on BLS12-381, 5 on BN254 */
    const char *roots_file;
    mpz_t p, rm, rinv, t; /* modulus, R mod p, R^-1 mod p, (p-1) >> s */
    mpz_t w_top[2];       /* primitive 2^s-th roots: [CZK_NTT_SNARKJS], [CZK_NTT_BELLMAN] */
};

static struct fld g_flds[2] = {
    {.name = "bn254",
     .curve = CZK_GROTH16_CURVE_BN254,
     .modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617",
     .s = 28,
     .bellman_gen = 5,
     .roots_file = "noble/bn254_roots.txt"},
    {.name = "bls12_381",
     .curve = CZK_GROTH16_CURVE_BLS12_381,
     .modulus = "52435875175126190479447740508185965837690552500527637822603658699938581184513",
     .s = 32,
     .bellman_gen = 7,
     .roots_file = "noble/bls12_381_roots.txt"},
};

static const enum czk_ntt_convention g_convs[2] = {CZK_NTT_SNARKJS, CZK_NTT_BELLMAN};

static const char *conv_name(enum czk_ntt_convention c)
{
    return c == CZK_NTT_SNARKJS ? "snarkjs" : "bellman";
}

/* ---- oracle ------------------------------------------------------------------------------ */

static void fld_init(struct fld *f)
{
    mpz_inits(f->p, f->rm, f->rinv, f->t, f->w_top[0], f->w_top[1], NULL);
    mpz_set_str(f->p, f->modulus, 10);
    mpz_setbit(f->rm, 256);
    mpz_mod(f->rm, f->rm, f->p);
    mpz_invert(f->rinv, f->rm, f->p);
    mpz_sub_ui(f->t, f->p, 1);
    mpz_tdiv_q_2exp(f->t, f->t, f->s);
    mpz_t g;
    mpz_init_set_ui(g, 5);
    mpz_powm(f->w_top[CZK_NTT_SNARKJS], g, f->t, f->p);
    mpz_set_ui(g, f->bellman_gen);
    mpz_powm(f->w_top[CZK_NTT_BELLMAN], g, f->t, f->p);
    mpz_clear(g);
}

static void fld_clear(struct fld *f)
{
    mpz_clears(f->p, f->rm, f->rinv, f->t, f->w_top[0], f->w_top[1], NULL);
}

/* Montgomery limbs of v (0 <= v < p). */
static void to_mont(const struct fld *f, fe out, const mpz_t v)
{
    mpz_t x;
    mpz_init(x);
    mpz_mul(x, v, f->rm);
    mpz_mod(x, x, f->p);
    memset(out, 0, sizeof(fe));
    mpz_export(out, NULL, -1, 8, 0, 0, x);
    mpz_clear(x);
}

/* The value held in Montgomery limbs; fails the test if the limbs are not reduced. */
static void from_mont(const struct fld *f, mpz_t v, const fe in)
{
    mpz_import(v, 4, -1, 8, 0, 0, in);
    assert_true(mpz_cmp(v, f->p) < 0);
    mpz_mul(v, v, f->rinv);
    mpz_mod(v, v, f->p);
}

static void rand_elem(const struct fld *f, mpz_t v)
{
    uint64_t l[8];
    for (int i = 0; i < 8; i++)
        l[i] = czk_test_rand64();
    mpz_import(v, 8, -1, 8, 0, 0, l);
    mpz_mod(v, v, f->p);
}

/* Primitive 2^lg-th root of unity of the convention, from the definition. */
static void root(const struct fld *f, mpz_t w, unsigned lg, enum czk_ntt_convention conv)
{
    mpz_set(w, f->w_top[conv]);
    for (unsigned i = lg; i < f->s; i++) {
        mpz_mul(w, w, w);
        mpz_mod(w, w, f->p);
    }
}

/* n values: v[i] in GMP and the same in Montgomery limbs. */
struct vec {
    size_t n;
    mpz_t *v;
    fe *m;
};

static void vec_init(struct vec *x, size_t n)
{
    x->n = n;
    x->v = malloc(n * sizeof *x->v);
    x->m = malloc(n * sizeof *x->m);
    assert_non_null(x->v);
    assert_non_null(x->m);
    for (size_t i = 0; i < n; i++)
        mpz_init(x->v[i]);
}

static void vec_rand(const struct fld *f, struct vec *x)
{
    for (size_t i = 0; i < x->n; i++) {
        rand_elem(f, x->v[i]);
        to_mont(f, x->m[i], x->v[i]);
    }
}

static void vec_clear(struct vec *x)
{
    for (size_t i = 0; i < x->n; i++)
        mpz_clear(x->v[i]);
    free(x->v);
    free(x->m);
}

/* sum_j c[j] x^j (Horner). */
static void horner(const struct fld *f, mpz_t out, mpz_t *c, size_t n, const mpz_t x)
{
    mpz_set_ui(out, 0);
    for (size_t j = n; j-- > 0;) {
        mpz_mul(out, out, x);
        mpz_add(out, out, c[j]);
        mpz_mod(out, out, f->p);
    }
}

/* Compares the Montgomery output got[] with the expected values; prints the first few
 * mismatches and fails. */
static void expect_vec(const struct fld *f, const char *what, unsigned lg_n, const fe *got,
                       mpz_t *want, size_t n)
{
    mpz_t v;
    mpz_init(v);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        from_mont(f, v, got[i]);
        if (mpz_cmp(v, want[i]) != 0) {
            if (bad < 4)
                gmp_fprintf(stderr, "%s %s lg_n=%u: index %zu: got %Zx want %Zx\n", f->name, what,
                            lg_n, i, v, want[i]);
            bad++;
        }
    }
    mpz_clear(v);
    if (bad)
        fail_msg("%s %s lg_n=%u: %zu of %zu wrong", f->name, what, lg_n, bad, n);
}

/* ---- naive transforms ---------------------------------------------------------------------- */

/* out[i] = sum_j a_j (shift w^i)^j; shift may be NULL (1). */
static void naive_fwd(const struct fld *f, mpz_t *out, mpz_t *a, unsigned lg_n,
                      enum czk_ntt_convention conv, const mpz_t shift)
{
    size_t n = (size_t)1 << lg_n;
    mpz_t w, x;
    mpz_inits(w, x, NULL);
    root(f, w, lg_n, conv);
    mpz_set_ui(x, 1);
    if (shift)
        mpz_set(x, shift);
    for (size_t i = 0; i < n; i++) {
        horner(f, out[i], a, n, x);
        mpz_mul(x, x, w);
        mpz_mod(x, x, f->p);
    }
    mpz_clears(w, x, NULL);
}

/* out[j] = n^-1 shift^-j sum_i A_i w^-ij. */
static void naive_inv(const struct fld *f, mpz_t *out, mpz_t *A, unsigned lg_n,
                      enum czk_ntt_convention conv, const mpz_t shift)
{
    size_t n = (size_t)1 << lg_n;
    mpz_t winv, x, fac, step;
    mpz_inits(winv, x, fac, step, NULL);
    root(f, winv, lg_n, conv);
    mpz_invert(winv, winv, f->p);
    mpz_set_ui(fac, (unsigned long)n);
    mpz_invert(fac, fac, f->p); /* n^-1 shift^-j, starting at j = 0 */
    mpz_set_ui(step, 1);
    if (shift)
        mpz_invert(step, shift, f->p);
    mpz_set_ui(x, 1);
    for (size_t j = 0; j < n; j++) {
        horner(f, out[j], A, n, x);
        mpz_mul(out[j], out[j], fac);
        mpz_mod(out[j], out[j], f->p);
        mpz_mul(x, x, winv);
        mpz_mod(x, x, f->p);
        mpz_mul(fac, fac, step);
        mpz_mod(fac, fac, f->p);
    }
    mpz_clears(winv, x, fac, step, NULL);
}

static void run_ok(const struct fld *f, fe *data, unsigned lg_n, enum czk_ntt_dir dir,
                   enum czk_ntt_convention conv, const fe shift, unsigned threads)
{
    enum czk_status st = czk_ntt(f->curve, data, lg_n, dir, conv, shift, threads);
    if (st != CZK_OK)
        fail_msg("%s czk_ntt lg_n=%u dir=%d conv=%d: status %d", f->name, lg_n, dir, conv, st);
}

/* ---- tests --------------------------------------------------------------------------------- */

/* The library's root_of_unity agrees with the definition (the NTT relies on it). */
static void test_roots(void **state)
{
    mpz_t w, v;
    mpz_inits(w, v, NULL);
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        for (int ci = 0; ci < 2; ci++) {
            for (unsigned lg = 0; lg <= f->s; lg++) {
                fe got;
                if (f->curve == CZK_GROTH16_CURVE_BN254)
                    assert_int_equal(
                        czk_fr_bn254_root_of_unity((struct czk_fr_bn254 *)got, lg, g_convs[ci]),
                        CZK_OK);
                else
                    assert_int_equal(czk_fr_bls12_381_root_of_unity((struct czk_fr_bls12_381 *)got,
                                                                    lg, g_convs[ci]),
                                     CZK_OK);
                root(f, w, lg, g_convs[ci]);
                from_mont(f, v, got);
                assert_true(mpz_cmp(v, w) == 0);
            }
            /* primitivity of the top root: w^(2^(s-1)) = -1 */
            mpz_set(w, f->w_top[g_convs[ci]]);
            for (unsigned i = 1; i < f->s; i++) {
                mpz_mul(w, w, w);
                mpz_mod(w, w, f->p);
            }
            mpz_add_ui(w, w, 1);
            assert_true(mpz_cmp(w, f->p) == 0);
        }
    }
    mpz_clears(w, v, NULL);
}

/* Forward, inverse and both coset directions against the naive sums. */
static void test_naive(void **state)
{
    mpz_t shift;
    mpz_init(shift);
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        for (int ci = 0; ci < 2; ci++) {
            enum czk_ntt_convention conv = g_convs[ci];
            for (unsigned lg = 0; lg <= 9; lg++) {
                size_t n = (size_t)1 << lg;
                struct vec a, want;
                vec_init(&a, n);
                vec_init(&want, n);
                vec_rand(f, &a);
                fe sh;
                do
                    rand_elem(f, shift);
                while (mpz_sgn(shift) == 0);
                to_mont(f, sh, shift);
                char what[64];

                naive_fwd(f, want.v, a.v, lg, conv, NULL);
                memcpy(want.m, a.m, n * sizeof(fe));
                run_ok(f, want.m, lg, CZK_NTT_FORWARD, conv, NULL, 0);
                snprintf(what, sizeof what, "%s fwd", conv_name(conv));
                expect_vec(f, what, lg, want.m, want.v, n);

                naive_inv(f, want.v, a.v, lg, conv, NULL);
                memcpy(want.m, a.m, n * sizeof(fe));
                run_ok(f, want.m, lg, CZK_NTT_INVERSE, conv, NULL, 0);
                snprintf(what, sizeof what, "%s inv", conv_name(conv));
                expect_vec(f, what, lg, want.m, want.v, n);

                naive_fwd(f, want.v, a.v, lg, conv, shift);
                memcpy(want.m, a.m, n * sizeof(fe));
                run_ok(f, want.m, lg, CZK_NTT_FORWARD, conv, sh, 0);
                snprintf(what, sizeof what, "%s coset fwd", conv_name(conv));
                expect_vec(f, what, lg, want.m, want.v, n);

                naive_inv(f, want.v, a.v, lg, conv, shift);
                memcpy(want.m, a.m, n * sizeof(fe));
                run_ok(f, want.m, lg, CZK_NTT_INVERSE, conv, sh, 0);
                snprintf(what, sizeof what, "%s coset inv", conv_name(conv));
                expect_vec(f, what, lg, want.m, want.v, n);

                vec_clear(&a);
                vec_clear(&want);
            }
        }
    }
    mpz_clear(shift);
}

/* inverse(forward(x)) = x and coset-inverse(coset-forward(x)) = x, lg_n = 1..16. */
static void test_roundtrip(void **state)
{
    mpz_t v;
    mpz_init(v);
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        for (int ci = 0; ci < 2; ci++) {
            for (unsigned lg = 1; lg <= 16; lg++) {
                size_t n = (size_t)1 << lg;
                fe *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
                assert_non_null(x);
                assert_non_null(y);
                for (size_t i = 0; i < n; i++) {
                    rand_elem(f, v);
                    to_mont(f, x[i], v);
                }
                for (int coset = 0; coset < 2; coset++) {
                    fe sh;
                    do
                        rand_elem(f, v);
                    while (mpz_sgn(v) == 0);
                    to_mont(f, sh, v);
                    const uint64_t *shp = coset ? sh : NULL;
                    unsigned th = (unsigned)(czk_test_rand64() % 3); /* 0 = all, 1, 2 */
                    memcpy(y, x, n * sizeof *x);
                    run_ok(f, y, lg, CZK_NTT_FORWARD, g_convs[ci], shp, th);
                    if (lg >= 2 && memcmp(x, y, n * sizeof *x) == 0)
                        fail_msg("%s: forward lg_n=%u left the data unchanged", f->name, lg);
                    run_ok(f, y, lg, CZK_NTT_INVERSE, g_convs[ci], shp, th);
                    if (memcmp(x, y, n * sizeof *x) != 0)
                        fail_msg("%s %s coset=%d: inverse(forward) != id at lg_n=%u", f->name,
                                 conv_name(g_convs[ci]), coset, lg);
                }
                free(x);
                free(y);
            }
        }
    }
    mpz_clear(v);
}

/* threads = 1, 2, 3 (and 0) give the same bytes, for every direction and with a coset. */
static void test_threads(void **state)
{
    static const unsigned lgs[] = {11, 12, 13, 15};
    mpz_t v;
    mpz_init(v);
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        for (size_t li = 0; li < sizeof lgs / sizeof lgs[0]; li++) {
            unsigned lg = lgs[li];
            size_t n = (size_t)1 << lg;
            enum czk_ntt_convention conv = g_convs[li & 1];
            fe *x = malloc(n * sizeof *x), *ref = malloc(n * sizeof *x), *y = malloc(n * sizeof *x);
            assert_true(x && ref && y);
            for (size_t i = 0; i < n; i++) {
                rand_elem(f, v);
                to_mont(f, x[i], v);
            }
            fe sh;
            rand_elem(f, v);
            mpz_add_ui(v, v, 1);
            mpz_mod(v, v, f->p);
            to_mont(f, sh, v);
            for (int mode = 0; mode < 4; mode++) {
                enum czk_ntt_dir dir = (mode & 1) ? CZK_NTT_INVERSE : CZK_NTT_FORWARD;
                const uint64_t *shp = (mode & 2) ? sh : NULL;
                memcpy(ref, x, n * sizeof *x);
                run_ok(f, ref, lg, dir, conv, shp, 1);
                for (unsigned th = 0; th <= 3; th++) {
                    memcpy(y, x, n * sizeof *x);
                    run_ok(f, y, lg, dir, conv, shp, th);
                    if (memcmp(ref, y, n * sizeof *x) != 0)
                        fail_msg("%s lg_n=%u mode=%d: threads=%u differs from threads=1", f->name,
                                 lg, mode, th);
                }
            }
            free(x);
            free(ref);
            free(y);
        }
    }
    mpz_clear(v);
}

/* F(alpha x + y) = alpha F(x) + F(y), checked in GMP. */
static void test_linearity(void **state)
{
    static const unsigned lgs[] = {3, 8, 12, 14};
    mpz_t alpha;
    mpz_init(alpha);
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        for (size_t li = 0; li < sizeof lgs / sizeof lgs[0]; li++) {
            for (int ci = 0; ci < 2; ci++) {
                for (int dir = 0; dir < 2; dir++) {
                    unsigned lg = lgs[li];
                    size_t n = (size_t)1 << lg;
                    struct vec x, y, z;
                    vec_init(&x, n);
                    vec_init(&y, n);
                    vec_init(&z, n);
                    vec_rand(f, &x);
                    vec_rand(f, &y);
                    rand_elem(f, alpha);
                    for (size_t i = 0; i < n; i++) {
                        mpz_mul(z.v[i], alpha, x.v[i]);
                        mpz_add(z.v[i], z.v[i], y.v[i]);
                        mpz_mod(z.v[i], z.v[i], f->p);
                        to_mont(f, z.m[i], z.v[i]);
                    }
                    run_ok(f, x.m, lg, (enum czk_ntt_dir)dir, g_convs[ci], NULL, 0);
                    run_ok(f, y.m, lg, (enum czk_ntt_dir)dir, g_convs[ci], NULL, 0);
                    run_ok(f, z.m, lg, (enum czk_ntt_dir)dir, g_convs[ci], NULL, 0);
                    for (size_t i = 0; i < n; i++) {
                        from_mont(f, x.v[i], x.m[i]);
                        from_mont(f, y.v[i], y.m[i]);
                        mpz_mul(x.v[i], x.v[i], alpha);
                        mpz_add(x.v[i], x.v[i], y.v[i]);
                        mpz_mod(x.v[i], x.v[i], f->p);
                    }
                    expect_vec(f, dir ? "linearity inv" : "linearity fwd", lg, z.m, x.v, n);
                    vec_clear(&x);
                    vec_clear(&y);
                    vec_clear(&z);
                }
            }
        }
    }
    mpz_clear(alpha);
}

/* lg_n = 0 is the identity; bad arguments are rejected without touching the data. */
static void test_args(void **state)
{
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        mpz_t v;
        mpz_init(v);
        fe x[4], y[4], sh;
        for (int i = 0; i < 4; i++) {
            rand_elem(f, v);
            to_mont(f, x[i], v);
        }
        rand_elem(f, v);
        to_mont(f, sh, v);
        for (int mode = 0; mode < 4; mode++) {
            memcpy(y, x, sizeof x);
            run_ok(f, y, 0, (mode & 1) ? CZK_NTT_INVERSE : CZK_NTT_FORWARD, g_convs[mode >> 1],
                   (mode & 2) ? sh : NULL, 0);
            assert_memory_equal(x, y, sizeof x);
        }
        memcpy(y, x, sizeof x);
        assert_int_equal(czk_ntt(f->curve, y, f->s + 1, CZK_NTT_FORWARD, CZK_NTT_SNARKJS, NULL, 0),
                         CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_ntt(f->curve, y, 40, CZK_NTT_INVERSE, CZK_NTT_BELLMAN, sh, 0),
                         CZK_ERR_INVALID_ARG);
        assert_int_equal(
            czk_ntt(f->curve, y, 2, CZK_NTT_FORWARD, (enum czk_ntt_convention)7, NULL, 0),
            CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_ntt(f->curve, y, 2, (enum czk_ntt_dir)5, CZK_NTT_SNARKJS, NULL, 0),
                         CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_ntt(f->curve, NULL, 2, CZK_NTT_FORWARD, CZK_NTT_SNARKJS, NULL, 0),
                         CZK_ERR_INVALID_ARG);
        assert_memory_equal(x, y, sizeof x);
        mpz_clear(v);
    }
    fe z[2] = {{0}};
    assert_int_equal(
        czk_ntt(CZK_GROTH16_CURVE_NONE, z, 1, CZK_NTT_FORWARD, CZK_NTT_SNARKJS, NULL, 0),
        CZK_ERR_INVALID_ARG);
    assert_int_equal(
        czk_ntt((enum czk_groth16_curve)9, z, 1, CZK_NTT_FORWARD, CZK_NTT_SNARKJS, NULL, 0),
        CZK_ERR_INVALID_ARG);
}

/* czk_ntt_snarkjs_shift == ffjavascript's Fr.w[lg_n + 1] (lg_n < s) or Fr.shift (lg_n == s). */
static void test_snarkjs_shift(void **state)
{
    for (int fi = 0; fi < 2; fi++) {
        struct fld *f = &g_flds[fi];
        char *buf = czk_test_read_vector(f->roots_file, NULL);
        if (!buf)
            fail_msg("cannot read tests/vectors/%s", f->roots_file);
        mpz_t *w = malloc((f->s + 1) * sizeof *w);
        assert_non_null(w);
        bool *have = calloc(f->s + 1, sizeof *have);
        assert_non_null(have);
        for (unsigned i = 0; i <= f->s; i++)
            mpz_init(w[i]);
        mpz_t shift, got;
        mpz_inits(shift, got, NULL);
        bool have_shift = false;
        unsigned s_file = 0;
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
            unsigned i;
            char hex[80];
            if (sscanf(line, "w %u %79s", &i, hex) == 2) {
                assert_true(i <= f->s);
                assert_int_equal(mpz_set_str(w[i], hex, 16), 0);
                have[i] = true;
            } else if (sscanf(line, "shift %79s", hex) == 1) {
                assert_int_equal(mpz_set_str(shift, hex, 16), 0);
                have_shift = true;
            } else if (sscanf(line, "s %u", &i) == 1) {
                s_file = i;
            }
        }
        assert_int_equal(s_file, f->s);
        assert_true(have_shift);
        for (unsigned lg = 0; lg <= f->s + 2; lg++) {
            fe out;
            czk_ntt_snarkjs_shift(f->curve, lg, out);
            if (lg > f->s) {
                for (int k = 0; k < 4; k++)
                    assert_int_equal(out[k], 0);
                continue;
            }
            from_mont(f, got, out);
            if (lg < f->s) {
                assert_true(have[lg + 1]);
                if (mpz_cmp(got, w[lg + 1]) != 0)
                    fail_msg("%s: snarkjs shift lg_n=%u != Fr.w[%u]", f->name, lg, lg + 1);
            } else if (mpz_cmp(got, shift) != 0) {
                fail_msg("%s: snarkjs shift lg_n=s != Fr.shift", f->name);
            }
        }
        fe out;
        czk_ntt_snarkjs_shift(CZK_GROTH16_CURVE_NONE, 3, out);
        for (int k = 0; k < 4; k++)
            assert_int_equal(out[k], 0);
        /* The ffjavascript roots are also the snarkjs roots the NTT uses. */
        mpz_t r;
        mpz_init(r);
        for (unsigned i = 0; i <= f->s; i++) {
            assert_true(have[i]);
            root(f, r, i, CZK_NTT_SNARKJS);
            assert_true(mpz_cmp(r, w[i]) == 0);
        }
        mpz_clear(r);
        mpz_clears(shift, got, NULL);
        for (unsigned i = 0; i <= f->s; i++)
            mpz_clear(w[i]);
        free(w);
        free(have);
        free(buf);
    }
}

/* ---- the cache under concurrent transforms and clears ---------------------------------------- */

#define CC_SIZES 4
struct cc_job {
    const struct fld *f;
    fe *in[CC_SIZES], *ref[CC_SIZES];
    unsigned lg[CC_SIZES];
    int rounds;
    int failures;
};

static void *cc_worker(void *arg)
{
    struct cc_job *job = arg;
    for (int r = 0; r < job->rounds; r++) {
        int k = r % CC_SIZES;
        size_t n = (size_t)1 << job->lg[k];
        fe *y = malloc(n * sizeof *y);
        if (!y) {
            job->failures++;
            continue;
        }
        memcpy(y, job->in[k], n * sizeof *y);
        if (czk_ntt(job->f->curve, y, job->lg[k], CZK_NTT_FORWARD, CZK_NTT_BELLMAN, NULL, 1) !=
                CZK_OK ||
            memcmp(y, job->ref[k], n * sizeof *y) != 0)
            job->failures++;
        free(y);
    }
    return NULL;
}

static void test_cache_concurrent(void **state)
{
    mpz_t v;
    mpz_init(v);
    struct cc_job jobs[2];
    for (int fi = 0; fi < 2; fi++) {
        struct cc_job *job = &jobs[fi];
        memset(job, 0, sizeof *job);
        job->f = &g_flds[fi];
        job->rounds = 40;
        for (int k = 0; k < CC_SIZES; k++) {
            job->lg[k] = 5 + 3 * (unsigned)k; /* 5, 8, 11, 14 */
            size_t n = (size_t)1 << job->lg[k];
            job->in[k] = malloc(n * sizeof(fe));
            job->ref[k] = malloc(n * sizeof(fe));
            assert_true(job->in[k] && job->ref[k]);
            for (size_t i = 0; i < n; i++) {
                rand_elem(job->f, v);
                to_mont(job->f, job->in[k][i], v);
            }
            memcpy(job->ref[k], job->in[k], n * sizeof(fe));
            run_ok(job->f, job->ref[k], job->lg[k], CZK_NTT_FORWARD, CZK_NTT_BELLMAN, NULL, 1);
        }
    }
    pthread_t tid[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&tid[i], NULL, cc_worker, &jobs[i]), 0);
    for (int i = 0; i < 200; i++)
        czk_ntt_cache_clear();
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);
    czk_ntt_cache_clear();
    for (int fi = 0; fi < 2; fi++) {
        assert_int_equal(jobs[fi].failures, 0);
        for (int k = 0; k < CC_SIZES; k++) {
            free(jobs[fi].in[k]);
            free(jobs[fi].ref[k]);
        }
    }
    mpz_clear(v);
}

int main(void)
{
    czk_test_seed_init("test_ntt");
    for (int i = 0; i < 2; i++)
        fld_init(&g_flds[i]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roots),         cmocka_unit_test(test_args),
        cmocka_unit_test(test_snarkjs_shift), cmocka_unit_test(test_naive),
        cmocka_unit_test(test_roundtrip),     cmocka_unit_test(test_threads),
        cmocka_unit_test(test_linearity),     cmocka_unit_test(test_cache_concurrent),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    czk_ntt_cache_clear();
    for (int i = 0; i < 2; i++)
        fld_clear(&g_flds[i]);
    return rc;
}
