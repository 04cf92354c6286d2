/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the CPU Pippenger MSM (src/msm/) on G1 and G2 of BN254 and BLS12-381.
 *
 * Two independent oracles:
 *  - naive: sum_i czk_G_mul(P_i, s_i) (the variable-time wNAF multiplication of src/ec/,
 *    czk_G_mul_limbs for scalars >= r), for n up to 1000;
 *  - discrete logs: every base is drawn from a pool of points whose discrete logarithm
 *    k_i to the generator is known (a random walk P_j = P_{j-1} + T_t over 16 random
 *    multiples T_t of G, tracked with GMP mod r), so sum s_i P_i = [sum s_i k_i mod r] G,
 *    one multiplication whatever n is.
 * Results are compared with czk_G_eq (projective equality). Covered: n = 0 .. 4097
 * (non-powers of two), threads 1, 2, 3 and 0, scalars 0, 1, 2, r - 1, >= r (taken as
 * integers), bases at infinity, duplicate bases, P and -P, every window width 1..16 with
 * several point splits, and both accumulation kernels. Inputs are seeded random
 * (CZK_TEST_SEED replays a run). Single-threaded test code; the MSM spawns its workers.
 */
#include "test_util.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk_ec.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"

#define POOL 4500
#define AFF_MAX 192 /* G2 BLS12-381 affine */
#define JAC_MAX 288 /* G2 BLS12-381 Jacobian */

typedef uint64_t scalar_t[4];

struct grp {
    const char *name;
    size_t aff, jac, fe; /* sizes: affine, Jacobian, coordinate field element */
    void (*generator)(void *p);
    void (*from_affine)(void *r, const void *p);
    void (*batch_to_affine)(void *out, const void *in, size_t n, void *scratch);
    void (*affine_neg)(void *r, const void *p);
    void (*affine_set_inf)(void *p);
    void (*set_inf)(void *p);
    bool (*is_inf)(const void *p);
    bool (*eq)(const void *a, const void *b);
    void (*add)(void *r, const void *a, const void *b);
    void (*mul)(void *r, const void *p, const uint64_t k[4]); /* czk_G_mul, k < r canonical */
    void (*mul_limbs)(void *r, const void *p, const uint64_t *k, size_t n);
    const uint64_t *(*fr_modulus)(void);
    enum czk_status (*msm)(void *out, const void *bases, const uint64_t (*s)[4], size_t n,
                           unsigned threads);
    enum czk_status (*msm_ex)(void *out, const void *bases, const uint64_t (*s)[4], size_t n,
                              unsigned threads, const struct czk_msm_opts *o,
                              struct czk_msm_stats *st);
};

#define GRP_WRAP(G, FR)                                                                            \
    static void G##_w_generator(void *p) { czk_##G##_generator(p); }                               \
    static void G##_w_from_affine(void *r, const void *p) { czk_##G##_from_affine(r, p); }         \
    static void G##_w_batch_to_affine(void *o, const void *i, size_t n, void *s)                   \
    {                                                                                              \
        czk_##G##_batch_to_affine(o, i, n, s);                                                     \
    }                                                                                              \
    static void G##_w_affine_neg(void *r, const void *p) { czk_##G##_affine_neg(r, p); }           \
    static void G##_w_affine_set_inf(void *p) { czk_##G##_affine_set_inf(p); }                     \
    static void G##_w_set_inf(void *p) { czk_##G##_set_inf(p); }                                   \
    static bool G##_w_is_inf(const void *p) { return czk_##G##_is_inf(p); }                        \
    static bool G##_w_eq(const void *a, const void *b) { return czk_##G##_eq(a, b); }              \
    static void G##_w_add(void *r, const void *a, const void *b) { czk_##G##_add(r, a, b); }       \
    static void G##_w_mul(void *r, const void *p, const uint64_t k[4])                             \
    {                                                                                              \
        struct czk_##FR f;                                                                         \
        assert_int_equal(czk_##FR##_from_canonical(&f, k), CZK_OK);                                \
        czk_##G##_mul(r, p, &f);                                                                   \
    }                                                                                              \
    static void G##_w_mul_limbs(void *r, const void *p, const uint64_t *k, size_t n)               \
    {                                                                                              \
        czk_##G##_mul_limbs(r, p, k, n);                                                           \
    }                                                                                              \
    static enum czk_status G##_w_msm(void *o, const void *b, const uint64_t(*s)[4], size_t n,      \
                                     unsigned t)                                                   \
    {                                                                                              \
        return czk_msm_##G(o, b, s, n, t);                                                         \
    }                                                                                              \
    static enum czk_status G##_w_msm_ex(void *o, const void *b, const uint64_t(*s)[4], size_t n,   \
                                        unsigned t, const struct czk_msm_opts *op,                 \
                                        struct czk_msm_stats *st)                                  \
    {                                                                                              \
        return czk_msm_##G##_ex(o, b, s, n, t, op, st);                                            \
    }

GRP_WRAP(g1_bn254, fr_bn254)
GRP_WRAP(g2_bn254, fr_bn254)
GRP_WRAP(g1_bls12_381, fr_bls12_381)
GRP_WRAP(g2_bls12_381, fr_bls12_381)

#define GRP(G, FR, F)                                                                              \
    {                                                                                              \
#G, sizeof(struct czk_##G##_affine), sizeof(struct czk_##G), sizeof(struct czk_##F),       \
            G##_w_generator, G##_w_from_affine, G##_w_batch_to_affine, G##_w_affine_neg,           \
            G##_w_affine_set_inf, G##_w_set_inf, G##_w_is_inf, G##_w_eq, G##_w_add, G##_w_mul,     \
            G##_w_mul_limbs, czk_##FR##_modulus, G##_w_msm, G##_w_msm_ex                           \
    }

static const struct grp g_grps[4] = {
    GRP(g1_bn254, fr_bn254, fp_bn254),
    GRP(g2_bn254, fr_bn254, fp2_bn254),
    GRP(g1_bls12_381, fr_bls12_381, fp_bls12_381),
    GRP(g2_bls12_381, fr_bls12_381, fp2_bls12_381),
};

/* Per group: a pool of affine points with known discrete logs. */
struct pool {
    unsigned char *pts; /* POOL affine points */
    mpz_t dlog[POOL];
    mpz_t r;
};

static struct pool g_pools[4];

static void *aff_at(const struct grp *g, void *base, size_t i)
{
    return (unsigned char *)base + i * g->aff;
}

static void mpz_from_limbs(mpz_t r, const uint64_t *l, size_t n)
{
    mpz_import(r, n, -1, 8, 0, 0, l);
}

static void limbs_from_mpz(uint64_t l[4], const mpz_t v)
{
    memset(l, 0, 4 * sizeof(uint64_t));
    size_t cnt = 0;
    assert_true(mpz_sizeinbase(v, 2) <= 256);
    mpz_export(l, &cnt, -1, 8, 0, 0, v);
}

/* Uniform scalar in [0, r). */
static void rand_scalar(const struct grp *g, uint64_t k[4])
{
    const uint64_t *r = g->fr_modulus();
    unsigned top = 64 - (unsigned)__builtin_clzll(r[3]);
    for (;;) {
        for (int i = 0; i < 4; i++)
            k[i] = czk_test_rand64();
        k[3] &= (top == 64) ? ~0ull : ((1ull << top) - 1);
        int lt = 0;
        for (int i = 3; i >= 0; i--) {
            if (k[i] != r[i]) {
                lt = k[i] < r[i];
                break;
            }
        }
        if (lt)
            return;
    }
}

static void build_pool(const struct grp *g, struct pool *pl)
{
    mpz_init(pl->r);
    mpz_from_limbs(pl->r, g->fr_modulus(), 4);
    unsigned char gen[AFF_MAX], steps[16][JAC_MAX], cur[JAC_MAX], genj[JAC_MAX];
    mpz_t sk[16], acc;
    g->generator(gen);
    g->from_affine(genj, gen);
    for (int t = 0; t < 16; t++) {
        uint64_t k[4];
        rand_scalar(g, k);
        mpz_init(sk[t]);
        mpz_from_limbs(sk[t], k, 4);
        g->mul(steps[t], genj, k);
    }
    uint64_t k0[4];
    rand_scalar(g, k0);
    mpz_init(acc);
    mpz_from_limbs(acc, k0, 4);
    g->mul(cur, genj, k0);
    unsigned char *jac = malloc(POOL * g->jac), *scratch = malloc(POOL * g->fe);
    pl->pts = malloc(POOL * g->aff);
    assert_non_null(jac);
    assert_non_null(scratch);
    assert_non_null(pl->pts);
    for (size_t i = 0; i < POOL; i++) {
        unsigned t = (unsigned)(czk_test_rand64() & 15);
        g->add(cur, cur, steps[t]);
        mpz_add(acc, acc, sk[t]);
        mpz_mod(acc, acc, pl->r);
        memcpy(jac + i * g->jac, cur, g->jac);
        mpz_init_set(pl->dlog[i], acc);
    }
    g->batch_to_affine(pl->pts, jac, POOL, scratch);
    for (int t = 0; t < 16; t++)
        mpz_clear(sk[t]);
    mpz_clear(acc);
    free(jac);
    free(scratch);
}

/* An MSM instance: bases, their dlogs, scalars. */
struct inst {
    size_t n;
    unsigned char *bases;
    mpz_t *dlog;
    scalar_t *sc;
};

static void inst_init(struct inst *in, const struct grp *g, size_t n)
{
    in->n = n;
    in->bases = malloc((n ? n : 1) * g->aff);
    in->dlog = malloc((n ? n : 1) * sizeof(mpz_t));
    in->sc = malloc((n ? n : 1) * sizeof(scalar_t));
    assert_non_null(in->bases);
    assert_non_null(in->dlog);
    assert_non_null(in->sc);
    for (size_t i = 0; i < n; i++)
        mpz_init(in->dlog[i]);
}

static void inst_free(struct inst *in)
{
    for (size_t i = 0; i < in->n; i++)
        mpz_clear(in->dlog[i]);
    free(in->bases);
    free(in->dlog);
    free(in->sc);
}

/* Base i := pool point j. */
static void inst_set_pool(struct inst *in, const struct grp *g, struct pool *pl, size_t i, size_t j)
{
    memcpy(aff_at(g, in->bases, i), aff_at(g, pl->pts, j), g->aff);
    mpz_set(in->dlog[i], pl->dlog[j]);
}

/* Random pool bases and random scalars < r. */
static void inst_random(struct inst *in, const struct grp *g, struct pool *pl, size_t n)
{
    inst_init(in, g, n);
    for (size_t i = 0; i < n; i++) {
        inst_set_pool(in, g, pl, i, czk_test_rand64() % POOL);
        rand_scalar(g, in->sc[i]);
    }
}

/* Oracle 1: [sum s_i k_i mod r] G. */
static void oracle_dlog(const struct grp *g, struct pool *pl, const struct inst *in, void *out)
{
    mpz_t sum, s;
    mpz_init(sum);
    mpz_init(s);
    for (size_t i = 0; i < in->n; i++) {
        mpz_from_limbs(s, in->sc[i], 4);
        mpz_addmul(sum, s, in->dlog[i]);
    }
    mpz_mod(sum, sum, pl->r);
    uint64_t k[4];
    limbs_from_mpz(k, sum);
    unsigned char gen[AFF_MAX], genj[JAC_MAX];
    g->generator(gen);
    g->from_affine(genj, gen);
    g->mul_limbs(out, genj, k, 4);
    mpz_clear(sum);
    mpz_clear(s);
}

/* Oracle 2: sum_i czk_G_mul(P_i, s_i). */
static void oracle_naive(const struct grp *g, struct pool *pl, const struct inst *in, void *out)
{
    unsigned char pj[JAC_MAX], t[JAC_MAX];
    g->set_inf(out);
    mpz_t s;
    mpz_init(s);
    for (size_t i = 0; i < in->n; i++) {
        g->from_affine(pj, aff_at(g, in->bases, i));
        mpz_from_limbs(s, in->sc[i], 4);
        if (mpz_cmp(s, pl->r) < 0)
            g->mul(t, pj, in->sc[i]);
        else
            g->mul_limbs(t, pj, in->sc[i], 4);
        g->add(out, out, t);
    }
    mpz_clear(s);
}

/* Runs the MSM with each thread count and compares with the oracles. */
static void check_inst(const struct grp *g, struct pool *pl, const struct inst *in, bool naive,
                       const char *what)
{
    unsigned char want[JAC_MAX], got[JAC_MAX], alt[JAC_MAX];
    oracle_dlog(g, pl, in, want);
    if (naive) {
        oracle_naive(g, pl, in, alt);
        if (!g->eq(alt, want))
            fail_msg("%s %s n=%zu: the two oracles disagree", g->name, what, in->n);
    }
    static const unsigned threads[] = {1, 2, 3, 0};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        memset(got, 0xa5, sizeof got);
        assert_int_equal(g->msm(got, in->bases, (const uint64_t(*)[4])in->sc, in->n, threads[t]),
                         CZK_OK);
        if (!g->eq(got, want))
            fail_msg("%s %s n=%zu threads=%u: MSM differs from the oracle", g->name, what, in->n,
                     threads[t]);
    }
}

static int setup_pools(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++)
        build_pool(&g_grps[i], &g_pools[i]);
    return 0;
}

static int teardown_pools(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        for (size_t j = 0; j < POOL; j++)
            mpz_clear(g_pools[i].dlog[j]);
        mpz_clear(g_pools[i].r);
        free(g_pools[i].pts);
    }
    return 0;
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_random_sizes(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 100, 1000, 4097};
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            struct inst in;
            inst_random(&in, g, &g_pools[gi], sizes[si]);
            check_inst(g, &g_pools[gi], &in, sizes[si] <= 1000, "random");
            inst_free(&in);
        }
    }
}

static void test_n0_writes_infinity(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        unsigned char got[JAC_MAX];
        memset(got, 0x5a, sizeof got);
        assert_int_equal(g->msm(got, NULL, NULL, 0, 0), CZK_OK);
        assert_true(g->is_inf(got));
    }
}

static void test_zero_scalars(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        struct inst in;
        inst_random(&in, g, &g_pools[gi], 300);
        memset(in.sc, 0, 300 * sizeof(scalar_t));
        unsigned char got[JAC_MAX];
        struct czk_msm_stats st;
        assert_int_equal(g->msm_ex(got, in.bases, (const uint64_t(*)[4])in.sc, in.n, 2, NULL, &st),
                         CZK_OK);
        assert_true(g->is_inf(got));
        assert_int_equal(st.n_general, 0);
        assert_int_equal(st.n_ones, 0);
        check_inst(g, &g_pools[gi], &in, false, "zero");
        inst_free(&in);
    }
}

/* Scalars drawn from {0, 1, 2, r - 1, random} with the given weights (out of 16). */
static void fill_mixed(const struct grp *g, struct inst *in, const int w[5])
{
    const uint64_t *r = g->fr_modulus();
    for (size_t i = 0; i < in->n; i++) {
        int x = (int)(czk_test_rand64() % 16), kind = 0;
        while (kind < 4 && x >= w[kind]) {
            x -= w[kind];
            kind++;
        }
        uint64_t *k = in->sc[i];
        memset(k, 0, sizeof(scalar_t));
        switch (kind) {
        case 0: break;
        case 1: k[0] = 1; break;
        case 2: k[0] = 2; break;
        case 3:
            memcpy(k, r, sizeof(scalar_t));
            k[0] -= 1; /* r is odd */
            break;
        default: rand_scalar(g, k);
        }
    }
}

static void test_zero_one_mixed(void **state)
{
    (void)state;
    static const int weights[][5] = {
        {8, 8, 0, 0, 0},  /* only 0 and 1 */
        {0, 16, 0, 0, 0}, /* all 1 */
        {6, 6, 1, 1, 2},  /* PoRep-like: mostly 0/1 */
        {2, 2, 4, 4, 4},  /* many equal scalars */
    };
    static const size_t sizes[] = {1, 5, 700, 4097};
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        for (size_t wi = 0; wi < sizeof weights / sizeof weights[0]; wi++) {
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                if (sizes[si] == 4097 && (gi & 1))
                    continue; /* keep the G2 share of the suite's time small */
                struct inst in;
                inst_random(&in, g, &g_pools[gi], sizes[si]);
                fill_mixed(g, &in, weights[wi]);
                check_inst(g, &g_pools[gi], &in, sizes[si] <= 5, "mixed01");
                size_t ones = 0;
                for (size_t i = 0; i < in.n; i++)
                    ones += (in.sc[i][0] == 1 && !in.sc[i][1] && !in.sc[i][2] && !in.sc[i][3]);
                struct czk_msm_stats st;
                unsigned char got[JAC_MAX];
                assert_int_equal(
                    g->msm_ex(got, in.bases, (const uint64_t(*)[4])in.sc, in.n, 3, NULL, &st),
                    CZK_OK);
                assert_int_equal(st.n_ones, ones);
                inst_free(&in);
            }
        }
    }
}

static void test_r_minus_1(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        struct inst in;
        inst_random(&in, g, &g_pools[gi], 257);
        for (size_t i = 0; i < in.n; i++) {
            memcpy(in.sc[i], g->fr_modulus(), sizeof(scalar_t));
            in.sc[i][0] -= 1;
        }
        check_inst(g, &g_pools[gi], &in, true, "r-1");
        inst_free(&in);
    }
}

/* Scalars >= r are taken as integers: [k]P = [k mod r]P. */
static void test_large_scalars(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        struct inst in;
        inst_random(&in, g, &g_pools[gi], 90);
        for (size_t i = 0; i < in.n; i++) {
            if (i % 3 == 0) {
                memset(in.sc[i], 0xff, sizeof(scalar_t)); /* 2^256 - 1 */
            } else if (i % 3 == 1) {
                for (int l = 0; l < 4; l++)
                    in.sc[i][l] = czk_test_rand64(); /* up to 2^256 - 1 */
                in.sc[i][3] |= 1ull << 63;
            }
        }
        check_inst(g, &g_pools[gi], &in, true, "large");
        inst_free(&in);
    }
}

static void test_duplicates_and_negations(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        struct pool *pl = &g_pools[gi];
        /* (a) few distinct bases, random scalars; (b) duplicates with equal scalars: equal
         * points in one bucket; (c) P and -P with equal scalars: they cancel in every
         * bucket; (d) P and -P with random scalars; (e) all the same point and scalar;
         * (f) scalars 1 on pairs P, P and P, -P (tangent and cancellation in the pairwise
         * sum of the scalar-1 points); (g) scalars 1 on one point (tangents at every
         * level of that sum). */
        for (int variant = 0; variant < 7; variant++) {
            struct inst in;
            size_t n = 400;
            inst_random(&in, g, pl, n);
            uint64_t common[4];
            rand_scalar(g, common);
            for (size_t i = 0; i < n; i++) {
                switch (variant) {
                case 0: inst_set_pool(&in, g, pl, i, czk_test_rand64() % 5); break;
                case 1:
                    if (i % 2 == 1) {
                        memcpy(aff_at(g, in.bases, i), aff_at(g, in.bases, i - 1), g->aff);
                        mpz_set(in.dlog[i], in.dlog[i - 1]);
                        memcpy(in.sc[i], in.sc[i - 1], sizeof(scalar_t));
                    }
                    break;
                case 2:
                case 3:
                    if (i % 2 == 1) {
                        g->affine_neg(aff_at(g, in.bases, i), aff_at(g, in.bases, i - 1));
                        mpz_sub(in.dlog[i], pl->r, in.dlog[i - 1]);
                        if (variant == 2)
                            memcpy(in.sc[i], in.sc[i - 1], sizeof(scalar_t));
                    }
                    break;
                case 4:
                    inst_set_pool(&in, g, pl, i, 7);
                    memcpy(in.sc[i], common, sizeof(scalar_t));
                    break;
                case 5:
                    memset(in.sc[i], 0, sizeof(scalar_t));
                    in.sc[i][0] = 1;
                    if (i % 4 == 1) {
                        memcpy(aff_at(g, in.bases, i), aff_at(g, in.bases, i - 1), g->aff);
                        mpz_set(in.dlog[i], in.dlog[i - 1]);
                    } else if (i % 4 == 3) {
                        g->affine_neg(aff_at(g, in.bases, i), aff_at(g, in.bases, i - 1));
                        mpz_sub(in.dlog[i], pl->r, in.dlog[i - 1]);
                    }
                    break;
                default:
                    memset(in.sc[i], 0, sizeof(scalar_t));
                    in.sc[i][0] = 1;
                    inst_set_pool(&in, g, pl, i, 11);
                }
            }
            check_inst(g, pl, &in, variant == 0 || variant == 2 || variant == 5, "dup/neg");
            if (variant == 2) {
                unsigned char got[JAC_MAX];
                assert_int_equal(g->msm(got, in.bases, (const uint64_t(*)[4])in.sc, n, 2), CZK_OK);
                assert_true(g->is_inf(got));
            }
            /* The same inputs through both kernels and several windows. */
            static const unsigned cs[] = {3, 7, 10};
            unsigned char want[JAC_MAX], got[JAC_MAX];
            oracle_dlog(g, pl, &in, want);
            for (unsigned a = CZK_MSM_ACCUM_XYZZ; a <= CZK_MSM_ACCUM_AFFINE; a++) {
                for (size_t ci = 0; ci < 3; ci++) {
                    struct czk_msm_opts o = {cs[ci], 2, a, 0};
                    assert_int_equal(
                        g->msm_ex(got, in.bases, (const uint64_t(*)[4])in.sc, n, 2, &o, NULL),
                        CZK_OK);
                    if (!g->eq(got, want))
                        fail_msg("%s dup/neg variant %d accum=%u c=%u differs", g->name, variant, a,
                                 cs[ci]);
                }
            }
            inst_free(&in);
        }
    }
}

static void test_infinity_bases(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        struct inst in;
        inst_random(&in, g, &g_pools[gi], 333);
        for (size_t i = 0; i < in.n; i++) {
            if (czk_test_rand64() % 3 == 0) {
                g->affine_set_inf(aff_at(g, in.bases, i));
                mpz_set_ui(in.dlog[i], 0);
                if (i % 2)
                    in.sc[i][0] = 1, in.sc[i][1] = in.sc[i][2] = in.sc[i][3] = 0;
            }
        }
        check_inst(g, &g_pools[gi], &in, true, "inf");
        /* All bases at infinity. */
        for (size_t i = 0; i < in.n; i++) {
            g->affine_set_inf(aff_at(g, in.bases, i));
            mpz_set_ui(in.dlog[i], 0);
        }
        check_inst(g, &g_pools[gi], &in, false, "all-inf");
        inst_free(&in);
    }
}

/* Every window width, several splits, both kernels, forced through czk_msm_*_ex. */
static void test_windows_and_splits(void **state)
{
    (void)state;
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &g_grps[gi];
        struct pool *pl = &g_pools[gi];
        struct inst in;
        inst_random(&in, g, pl, 301);
        static const int w[5] = {2, 2, 1, 1, 10};
        fill_mixed(g, &in, w);
        unsigned char want[JAC_MAX], got[JAC_MAX];
        oracle_dlog(g, pl, &in, want);
        /* The reduction of 2^(c-1) buckets dominates for large c: widest windows on G1. */
        unsigned cmax = (gi & 1) ? 11 : (gi == 0 ? 16 : 13);
        for (unsigned c = 1; c <= cmax; c++) {
            for (unsigned a = CZK_MSM_ACCUM_XYZZ; a <= CZK_MSM_ACCUM_AFFINE; a++) {
                unsigned splits = c > 10 ? 1 : (c % 3) + 1 + 4 * (c & 1);
                struct czk_msm_opts o = {c, splits, a, 0};
                struct czk_msm_stats st;
                unsigned threads = 1 + (c % 3);
                assert_int_equal(
                    g->msm_ex(got, in.bases, (const uint64_t(*)[4])in.sc, in.n, threads, &o, &st),
                    CZK_OK);
                assert_int_equal(st.c, c);
                assert_int_equal(st.splits, splits);
                assert_int_equal(st.accum, a);
                if (!g->eq(got, want))
                    fail_msg("%s c=%u splits=%u accum=%u threads=%u differs", g->name, c, splits, a,
                             threads);
            }
        }
        /* More splits than points in a chunk, more threads than tasks. */
        struct czk_msm_opts o = {8, 5, CZK_MSM_ACCUM_AFFINE, 3};
        assert_int_equal(g->msm_ex(got, in.bases, (const uint64_t(*)[4])in.sc, in.n, 7, &o, NULL),
                         CZK_OK);
        assert_true(g->eq(got, want));
        o = (struct czk_msm_opts){3, 1000, CZK_MSM_ACCUM_XYZZ, 0};
        assert_int_equal(g->msm_ex(got, in.bases, (const uint64_t(*)[4])in.sc, in.n, 5, &o, NULL),
                         CZK_OK);
        assert_true(g->eq(got, want));
        inst_free(&in);
    }
}

/* Booth digits reassemble the scalar: sum d_j 2^(jc) == k, digits within range. */
static void test_booth_digits(void **state)
{
    (void)state;
    mpz_t k, acc, t;
    mpz_inits(k, acc, t, NULL);
    size_t cases = czk_test_cases(300);
    for (size_t it = 0; it < cases; it++) {
        uint64_t s[4];
        for (int l = 0; l < 4; l++)
            s[l] = czk_test_rand64();
        if (it % 4 == 1)
            s[3] >>= czk_test_rand64() % 64;
        if (it % 4 == 2)
            memset(s, 0xff, sizeof s);
        unsigned c = 1 + (unsigned)(it % CZK_MSM_C_MAX);
        mpz_from_limbs(k, s, 4);
        unsigned bits = (unsigned)mpz_sizeinbase(k, 2);
        unsigned w = czk_msm_windows(bits, c);
        assert_true((size_t)w * c >= bits + 1);
        mpz_set_ui(acc, 0);
        for (unsigned j = w; j-- > 0;) {
            int32_t d = czk_msm_booth(s, j, c);
            assert_true(d >= -(1 << (c - 1)) && d <= (1 << (c - 1)));
            mpz_mul_2exp(acc, acc, c);
            if (d >= 0)
                mpz_add_ui(acc, acc, (unsigned long)d);
            else
                mpz_sub_ui(acc, acc, (unsigned long)-d);
        }
        if (mpz_cmp(acc, k) != 0)
            fail_msg("booth c=%u: digits do not reassemble the scalar", c);
        /* Windows starting above bit 256 are zero. */
        assert_int_equal(czk_msm_booth(s, 256 / c + 2, c), 0);
    }
    mpz_clears(k, acc, t, NULL);
}

/* The cost model's choice on sizes 2^10..2^22: c grows with n, stays within a sane band,
 * splits only when windows alone cannot keep the workers busy. */
static void test_plan(void **state)
{
    (void)state;
    static const unsigned threads[] = {1, 2, 16, 64};
    const struct czk_msm_cost *costs[2] = {&czk_msm_cost_xyzz, &czk_msm_cost_affine};
    for (int ki = 0; ki < 2; ki++) {
        for (size_t ti = 0; ti < 4; ti++) {
            unsigned prev = 0;
            for (unsigned lg = 10; lg <= 22; lg++) {
                unsigned c, k, g;
                double t = czk_msm_plan((size_t)1 << lg, 254, threads[ti], costs[ki],
                                        CZK_MSM_C_AUTO_MAX, &c, &k, &g);
                assert_true(t > 0);
                assert_true(c >= prev);
                assert_true(c <= lg);
                if (threads[ti] <= 2)
                    assert_true(c >= lg / 2);
                assert_true(k >= 1 && k <= 4 * threads[ti]);
                unsigned w = czk_msm_windows(254, c);
                assert_true(g >= 1 && g <= CZK_MSM_GROUP_MAX && g <= w);
                if (ki == 0)
                    assert_int_equal(g, 1);
                else
                    assert_true(((size_t)g << (c - 1)) >= costs[ki]->group_buckets ||
                                g == CZK_MSM_GROUP_MAX || g == w);
                size_t tasks = (size_t)((w + g - 1) / g) * k;
                if (threads[ti] <= 2 && ki == 0)
                    assert_int_equal(k, 1); /* 20-ish windows are plenty for 2 workers */
                else if (lg >= 14)
                    assert_true(4 * tasks >= 3 * (size_t)threads[ti]);
                prev = c;
            }
        }
    }
    unsigned c, k, g;
    czk_msm_plan(1, 254, 1, &czk_msm_cost_xyzz, CZK_MSM_C_AUTO_MAX, &c, &k, &g);
    assert_true(c >= 1 && c <= 4 && k == 1 && g == 1);
    czk_msm_plan((size_t)1 << 26, 254, 1, &czk_msm_cost_xyzz, CZK_MSM_C_AUTO_MAX, &c, &k, &g);
    assert_int_equal(c, CZK_MSM_C_AUTO_MAX);
}

int main(void)
{
    czk_test_seed_init("test_msm");
    const char *filter = getenv("CZK_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter); /* run one test, e.g. CZK_TEST_FILTER=test_plan */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_booth_digits),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_n0_writes_infinity),
        cmocka_unit_test(test_random_sizes),
        cmocka_unit_test(test_zero_scalars),
        cmocka_unit_test(test_zero_one_mixed),
        cmocka_unit_test(test_r_minus_1),
        cmocka_unit_test(test_large_scalars),
        cmocka_unit_test(test_duplicates_and_negations),
        cmocka_unit_test(test_infinity_bases),
        cmocka_unit_test(test_windows_and_splits),
    };
    return cmocka_run_group_tests(tests, setup_pools, teardown_pools);
}
