/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA NTT at the sizes where 32-bit offsets break (label gpu), both curves:
 *  - 2^24, forward (plain) and inverse (snarkjs odd coset): bit-exact against the CPU NTT;
 *  - 2^27: on a dense random input, forward then inverse is the identity, and
 *    CZK_TEST_CASES (default 32) outputs of the forward transform equal the polynomial
 *    evaluated directly at w^i (Horner on the CPU, multithreaded: 2^27 steps per output);
 *    on an input a_j = sum_m c_m r_m^j (4 random geometric sequences), 1000 outputs equal
 *    the closed form sum_m c_m (r_m^n - 1) / (r_m w^i - 1).
 * Fresh random inputs each run (seed printed). Exit 77 without a GPU.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "backend/backend_impl.h"
#include "core/parallel.h"
#include "czk/czk_backend.h"
#include "ntt/ntt_snarkjs.h"

typedef uint64_t fr_t[4];

static czk_backend_t g_gpu;
static czk_device_t g_dev;

struct fops {
    enum czk_groth16_curve curve;
    const char *name;
    void (*mul)(fr_t r, const fr_t a, const fr_t b);
    void (*add)(fr_t r, const fr_t a, const fr_t b);
    void (*sub)(fr_t r, const fr_t a, const fr_t b);
    void (*inv)(fr_t r, const fr_t a);
    void (*one)(fr_t r);
    void (*root)(fr_t w, unsigned lg);
    const uint64_t *(*modulus)(void);
};

#define FOPS(C)                                                                                    \
    static void C##_mul(fr_t r, const fr_t a, const fr_t b)                                        \
    {                                                                                              \
        czk_fr_##C##_mul((void *)r, (const void *)a, (const void *)b);                             \
    }                                                                                              \
    static void C##_add(fr_t r, const fr_t a, const fr_t b)                                        \
    {                                                                                              \
        czk_fr_##C##_add((void *)r, (const void *)a, (const void *)b);                             \
    }                                                                                              \
    static void C##_sub(fr_t r, const fr_t a, const fr_t b)                                        \
    {                                                                                              \
        czk_fr_##C##_sub((void *)r, (const void *)a, (const void *)b);                             \
    }                                                                                              \
    static void C##_inv(fr_t r, const fr_t a)                                                      \
    {                                                                                              \
        czk_fr_##C##_inv_vartime((void *)r, (const void *)a);                                      \
    }                                                                                              \
    static void C##_one(fr_t r) { czk_fr_##C##_one((void *)r); }                                   \
    static void C##_root(fr_t w, unsigned lg)                                                      \
    {                                                                                              \
        assert_int_equal(czk_fr_##C##_root_of_unity((void *)w, lg, CZK_NTT_SNARKJS), CZK_OK);      \
    }
FOPS(bn254)
FOPS(bls12_381)

static const struct fops g_f[2] = {
    {CZK_GROTH16_CURVE_BN254, "bn254", bn254_mul, bn254_add, bn254_sub, bn254_inv, bn254_one,
     bn254_root, czk_fr_bn254_modulus},
    {CZK_GROTH16_CURVE_BLS12_381, "bls12_381", bls12_381_mul, bls12_381_add, bls12_381_sub,
     bls12_381_inv, bls12_381_one, bls12_381_root, czk_fr_bls12_381_modulus},
};

static void rand_fr(const struct fops *f, uint64_t v[4])
{
    const uint64_t *r = f->modulus();
    unsigned bits = 64 - (unsigned)__builtin_clzll(r[3]);
    for (;;) {
        for (int i = 0; i < 4; i++)
            v[i] = czk_test_rand64();
        v[3] &= (1ull << bits) - 1;
        for (int i = 3; i >= 0; i--)
            if (v[i] != r[i]) {
                if (v[i] < r[i])
                    return;
                break;
            }
    }
}

static void fpow(const struct fops *f, fr_t r, const fr_t a, uint64_t e)
{
    fr_t b;
    memcpy(b, a, 32);
    f->one(r);
    while (e) {
        if (e & 1)
            f->mul(r, r, b);
        f->mul(b, b, b);
        e >>= 1;
    }
}

static fr_t *big(size_t n)
{
    fr_t *p = malloc(n * sizeof *p);
    assert_non_null(p);
    return p;
}

static void gpu_ntt(const struct fops *f, fr_t *data, unsigned lg, enum czk_backend_dir dir,
                    const uint64_t *shift)
{
    size_t bytes = (size_t)32 << lg;
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(g_dev, bytes, &b), CZK_OK);
    assert_int_equal(czk_buf_set(g_gpu, b, 0, data, bytes), CZK_OK);
    assert_int_equal(czk_backend_ntt(g_gpu, f->curve, b, lg, dir, CZK_NTT_SNARKJS, shift), CZK_OK);
    assert_int_equal(czk_buf_get(g_gpu, b, 0, data, bytes), CZK_OK);
    czk_buf_free(b);
}

/* ---- 2^24 against the CPU -------------------------------------------------------------------- */

static void test_ntt_2_24(void **state)
{
    (void)state;
    const unsigned lg = 24;
    const size_t n = (size_t)1 << lg;
    for (int ci = 0; ci < 2; ci++) {
        const struct fops *f = &g_f[ci];
        fr_t *x = big(n), *ref = big(n);
        for (int dir = 0; dir < 2; dir++) {
            uint64_t shift[4];
            czk_ntt_snarkjs_shift(f->curve, lg, shift);
            const uint64_t *sp = dir ? shift : NULL;
            for (size_t i = 0; i < n; i++)
                rand_fr(f, x[i]);
            memcpy(ref, x, n * 32);
            assert_int_equal(czk_cpu_ntt(f->curve, ref, lg, (enum czk_backend_dir)dir,
                                         CZK_NTT_SNARKJS, sp, 0),
                             CZK_OK);
            gpu_ntt(f, x, lg, (enum czk_backend_dir)dir, sp);
            for (size_t i = 0; i < n; i++)
                if (memcmp(x[i], ref[i], 32))
                    fail_msg("ntt 2^24 %s %s: element %zu differs", f->name,
                             dir ? "inverse coset" : "forward", i);
            printf("ntt 2^24 %s %s: bit-exact with the CPU\n", f->name,
                   dir ? "inverse (odd coset)" : "forward");
        }
        free(x);
        free(ref);
    }
}

/* ---- 2^27: identity and direct evaluation ------------------------------------------------------- */

struct horner_ctx {
    const struct fops *f;
    const fr_t *coef;
    size_t n;
    const size_t *idx;
    const fr_t *got;
    fr_t w;
    int bad;
};

static void horner_one(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct horner_ctx *x = vctx;
    (void)worker;
    for (size_t q = begin; q < end; q++) {
        fr_t pt, acc;
        fpow(x->f, pt, x->w, x->idx[q]);
        memset(acc, 0, 32);
        for (size_t j = x->n; j-- > 0;) { /* acc = acc*pt + a_j */
            x->f->mul(acc, acc, pt);
            x->f->add(acc, acc, x->coef[j]);
        }
        if (memcmp(acc, x->got[x->idx[q]], 32))
            __atomic_store_n(&x->bad, 1, __ATOMIC_RELAXED);
    }
}

struct geo_ctx {
    const struct fops *f;
    fr_t *out;
    const fr_t *c, *r;
};

static void geo_fill(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct geo_ctx *x = vctx;
    (void)worker;
    fr_t p[4];
    for (int m = 0; m < 4; m++)
        fpow(x->f, p[m], x->r[m], begin), x->f->mul(p[m], p[m], x->c[m]);
    for (size_t j = begin; j < end; j++) {
        fr_t s;
        memcpy(s, p[0], 32);
        for (int m = 1; m < 4; m++)
            x->f->add(s, s, p[m]);
        memcpy(x->out[j], s, 32);
        for (int m = 0; m < 4; m++)
            x->f->mul(p[m], p[m], x->r[m]);
    }
}

static void test_ntt_2_27(void **state)
{
    (void)state;
    const unsigned lg = 27;
    const size_t n = (size_t)1 << lg;
    size_t cases = czk_test_cases(32);
    for (int ci = 0; ci < 2; ci++) {
        const struct fops *f = &g_f[ci];
        fr_t *x = big(n), *y = big(n);
        for (size_t i = 0; i < n; i++)
            rand_fr(f, x[i]);
        memcpy(y, x, n * 32);
        gpu_ntt(f, y, lg, CZK_BACKEND_FORWARD, NULL);
        /* direct evaluation of `cases` outputs */
        size_t *idx = malloc(cases * sizeof *idx);
        assert_non_null(idx);
        for (size_t q = 0; q < cases; q++)
            idx[q] = q < 2 ? (q ? n - 1 : 0) : czk_test_rand64() % n;
        struct horner_ctx h = {f, (const fr_t *)x, n, idx, (const fr_t *)y, {0}, 0};
        f->root(h.w, lg);
        czk_parallel_for(cases, 1, 0, horner_one, &h);
        if (h.bad)
            fail_msg("ntt 2^27 %s: an output differs from the direct evaluation", f->name);
        printf("ntt 2^27 %s: %zu outputs equal Horner evaluations\n", f->name, cases);
        /* inverse: back to x */
        gpu_ntt(f, y, lg, CZK_BACKEND_INVERSE, NULL);
        for (size_t i = 0; i < n; i++)
            if (memcmp(x[i], y[i], 32))
                fail_msg("ntt 2^27 %s: inverse(forward(x)) differs at %zu", f->name, i);
        /* coset pair: identity as well */
        uint64_t shift[4];
        czk_ntt_snarkjs_shift(f->curve, lg, shift);
        gpu_ntt(f, y, lg, CZK_BACKEND_FORWARD, shift);
        gpu_ntt(f, y, lg, CZK_BACKEND_INVERSE, shift);
        for (size_t i = 0; i < n; i++)
            if (memcmp(x[i], y[i], 32))
                fail_msg("ntt 2^27 %s: coset inverse(forward(x)) differs at %zu", f->name, i);
        printf("ntt 2^27 %s: inverse(forward(x)) = x, plain and odd coset\n", f->name);

        /* geometric input, 1000 outputs in closed form */
        fr_t c[4], r[4], rn[4], w;
        for (int m = 0; m < 4; m++) {
            rand_fr(f, c[m]);
            rand_fr(f, r[m]);
            fpow(f, rn[m], r[m], n);
        }
        struct geo_ctx g = {f, x, (const fr_t *)c, (const fr_t *)r};
        czk_parallel_for(n, (size_t)1 << 16, 0, geo_fill, &g);
        gpu_ntt(f, x, lg, CZK_BACKEND_FORWARD, NULL);
        f->root(w, lg);
        for (int q = 0; q < 1000; q++) {
            size_t i = q < 2 ? (q ? n - 1 : 0) : czk_test_rand64() % n;
            fr_t wi, s, t, one, d;
            fpow(f, wi, w, i);
            f->one(one);
            memset(s, 0, 32);
            for (int m = 0; m < 4; m++) {
                f->mul(d, r[m], wi);
                f->sub(d, d, one); /* r w^i - 1 */
                f->inv(d, d);
                f->sub(t, rn[m], one); /* r^n - 1 */
                f->mul(t, t, d);
                f->mul(t, t, c[m]);
                f->add(s, s, t);
            }
            if (memcmp(s, x[i], 32))
                fail_msg("ntt 2^27 %s: geometric input, output %zu differs from the closed form",
                         f->name, i);
        }
        printf("ntt 2^27 %s: 1000 outputs equal the closed form\n", f->name);
        free(idx);
        free(x);
        free(y);
    }
}

int main(void)
{
    czk_test_seed_init("test_backend_ntt_large");
    char err[256] = "";
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    if (!reg || czk_backend_reg_device_count(reg) == 0) {
        printf("test_backend_ntt_large: no CUDA backend or no usable GPU: skipped\n");
        return 77;
    }
    g_dev = czk_backend_reg_device_get(reg, 0);
    if (czk_backend_new(g_dev, 0, &g_gpu, err, sizeof err) != CZK_OK) {
        printf("test_backend_ntt_large: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ntt_2_24),
        cmocka_unit_test(test_ntt_2_27),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    czk_backend_free(g_gpu);
    return rc;
}
