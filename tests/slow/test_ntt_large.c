/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Large CPU NTTs (label slow): lg_n = 20 and 22 on both curves. For each size the
 * forward transform is checked at 100 random output indices by direct evaluation
 * (Horner over all n coefficients with the field API, at the point w^i, or shift·w^i
 * for the coset transform), and inverse(forward(x)) = x is checked in full, with and
 * without a coset. The point evaluations run on two threads of their own. Inputs are
 * seeded random (CZK_TEST_SEED replays a run); the transforms use all cores.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "czk/czk_ff.h"
#include "ntt/ntt.h"
#include "ntt/ntt_snarkjs.h"

typedef uint64_t fe[4];

/* The few field operations the oracle needs, per curve. */
struct ops {
    const char *name;
    enum czk_groth16_curve curve;
    const uint64_t *(*modulus)(void);
    void (*mul)(fe r, const fe a, const fe b);
    void (*add)(fe r, const fe a, const fe b);
    void (*one)(fe r);
    enum czk_status (*root)(fe w, unsigned lg, enum czk_ntt_convention conv);
    void (*pow)(fe r, const fe a, uint64_t e);
};

#define OPS_DEFINE(F)                                                                              \
    static void F##_mul(fe r, const fe a, const fe b)                                              \
    {                                                                                              \
        czk_##F##_mul((struct czk_##F *)r, (const struct czk_##F *)a, (const struct czk_##F *)b);  \
    }                                                                                              \
    static void F##_add(fe r, const fe a, const fe b)                                              \
    {                                                                                              \
        czk_##F##_add((struct czk_##F *)r, (const struct czk_##F *)a, (const struct czk_##F *)b);  \
    }                                                                                              \
    static void F##_one(fe r) { czk_##F##_one((struct czk_##F *)r); }                              \
    static enum czk_status F##_root(fe w, unsigned lg, enum czk_ntt_convention conv)               \
    {                                                                                              \
        return czk_##F##_root_of_unity((struct czk_##F *)w, lg, conv);                             \
    }                                                                                              \
    static void F##_pow(fe r, const fe a, uint64_t e)                                              \
    {                                                                                              \
        czk_##F##_pow((struct czk_##F *)r, (const struct czk_##F *)a, &e, 1);                      \
    }

OPS_DEFINE(fr_bn254)
OPS_DEFINE(fr_bls12_381)

static const struct ops g_ops[2] = {
    {"bn254", CZK_GROTH16_CURVE_BN254, czk_fr_bn254_modulus, fr_bn254_mul, fr_bn254_add,
     fr_bn254_one, fr_bn254_root, fr_bn254_pow},
    {"bls12_381", CZK_GROTH16_CURVE_BLS12_381, czk_fr_bls12_381_modulus, fr_bls12_381_mul,
     fr_bls12_381_add, fr_bls12_381_one, fr_bls12_381_root, fr_bls12_381_pow},
};

/* Uniform limbs below p (a valid Montgomery form of a uniform element). */
static void rand_fe(const struct ops *o, fe x)
{
    const uint64_t *p = o->modulus();
    uint64_t top = p[3] | (p[3] >> 1);
    for (int s = 2; s < 64; s <<= 1)
        top |= top >> s;
    for (;;) {
        for (int k = 0; k < 4; k++)
            x[k] = czk_test_rand64();
        x[3] &= top;
        int k = 3;
        while (k > 0 && x[k] == p[k])
            k--;
        if (x[k] < p[k])
            return;
    }
}

struct eval_job {
    const struct ops *o;
    const fe *coef;
    size_t n;
    const fe *pts; /* evaluation points */
    fe *out;
    size_t begin, end;
};

static void *eval_run(void *arg)
{
    struct eval_job *j = arg;
    for (size_t k = j->begin; k < j->end; k++) {
        fe acc = {0};
        for (size_t i = j->n; i-- > 0;) {
            j->o->mul(acc, acc, j->pts[k]);
            j->o->add(acc, acc, j->coef[i]);
        }
        memcpy(j->out[k], acc, sizeof acc);
    }
    return NULL;
}

/* out[k] = sum_i coef[i] pts[k]^i for k < npts, on two threads. */
static void eval_points(const struct ops *o, const fe *coef, size_t n, const fe *pts, fe *out,
                        size_t npts)
{
    struct eval_job jobs[2] = {{o, coef, n, pts, out, 0, npts / 2},
                               {o, coef, n, pts, out, npts / 2, npts}};
    pthread_t tid;
    bool threaded = pthread_create(&tid, NULL, eval_run, &jobs[1]) == 0;
    eval_run(&jobs[0]);
    if (threaded)
        pthread_join(tid, NULL);
    else
        eval_run(&jobs[1]);
}

#define NPTS 100

static void check_size(const struct ops *o, unsigned lg, enum czk_ntt_convention conv, bool coset)
{
    size_t n = (size_t)1 << lg;
    fe *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    assert_true(x && y);
    for (size_t i = 0; i < n; i++)
        rand_fe(o, x[i]);
    memcpy(y, x, n * sizeof *x);

    fe shift, w;
    czk_ntt_snarkjs_shift(o->curve, lg, shift);
    assert_int_equal(o->root(w, lg, conv), CZK_OK);
    const uint64_t *shp = coset ? shift : NULL;

    assert_int_equal(czk_ntt(o->curve, y, lg, CZK_NTT_FORWARD, conv, shp, 0), CZK_OK);

    size_t idx[NPTS];
    fe pts[NPTS], got[NPTS];
    idx[0] = 0;
    idx[1] = n - 1;
    idx[2] = n / 2;
    for (int k = 3; k < NPTS; k++)
        idx[k] = czk_test_rand64() & (n - 1);
    for (int k = 0; k < NPTS; k++) {
        o->pow(pts[k], w, idx[k]);
        if (coset)
            o->mul(pts[k], pts[k], shift);
    }
    eval_points(o, (const fe *)x, n, (const fe *)pts, got, NPTS);
    int bad = 0;
    for (int k = 0; k < NPTS; k++) {
        if (memcmp(got[k], y[idx[k]], sizeof(fe)) != 0) {
            if (bad++ < 4)
                print_error("%s lg_n=%u conv=%d coset=%d: output %zu differs from direct "
                            "evaluation\n",
                            o->name, lg, conv, coset, idx[k]);
        }
    }
    if (bad)
        fail_msg("%s lg_n=%u: %d of %d outputs wrong", o->name, lg, bad, NPTS);

    assert_int_equal(czk_ntt(o->curve, y, lg, CZK_NTT_INVERSE, conv, shp, 0), CZK_OK);
    if (memcmp(x, y, n * sizeof *x) != 0)
        fail_msg("%s lg_n=%u conv=%d coset=%d: inverse(forward(x)) != x", o->name, lg, conv, coset);
    free(x);
    free(y);
}

static void test_lg20(void **state)
{
    for (int c = 0; c < 2; c++) {
        check_size(&g_ops[c], 20, CZK_NTT_SNARKJS, false);
        check_size(&g_ops[c], 20, CZK_NTT_BELLMAN, true);
    }
    czk_ntt_cache_clear();
}

static void test_lg22(void **state)
{
    check_size(&g_ops[0], 22, CZK_NTT_SNARKJS, true);
    check_size(&g_ops[1], 22, CZK_NTT_BELLMAN, false);
    czk_ntt_cache_clear();
}

int main(void)
{
    czk_test_seed_init("test_ntt_large");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lg20),
        cmocka_unit_test(test_lg22),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
