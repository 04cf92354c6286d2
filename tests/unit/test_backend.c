/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the backend layer (include/czk/czk_backend.h, src/backend/): registry
 * and selection, buffers, and every op on both curves against naive oracles —
 *   NTT: O(n^2) DFT on the domain and on a shifted coset, inverse∘forward = id;
 *   MSM: sum of czk_G_mul over G1 and G2, with a scalar offset;
 *   sparse_eval: a dense row-by-row evaluation of random CSR matrices;
 *   quotient / to_canonical: pointwise field arithmetic.
 * Each op runs on the CPU backend (threads 1 and 2) and on a fake device declared here
 * whose memory is "not host-addressable" and which implements no op, so every op takes
 * the dispatch layer's CPU fallback through temporary host copies; results must be
 * identical. Seeded random inputs (CZK_TEST_SEED replays). Single-threaded test code.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "backend/backend_impl.h"
#include "czk/czk_backend.h"
#include "io/formats.h"

typedef uint64_t fr_t[4];

/* ---- per-curve field and group shims ------------------------------------------------- */

struct fops {
    enum czk_groth16_curve curve;
    const char *name;
    void (*mul)(fr_t r, const fr_t a, const fr_t b);
    void (*add)(fr_t r, const fr_t a, const fr_t b);
    void (*sub)(fr_t r, const fr_t a, const fr_t b);
    void (*one)(fr_t r);
    void (*to_can)(fr_t r, const fr_t a);
    void (*root)(fr_t w, unsigned lg);
    void (*inv)(fr_t r, const fr_t a);
    const uint64_t *(*modulus)(void);
    /* G1 / G2 */
    size_t g_aff[3], g_jac[3];
    void (*gen)(unsigned g, void *aff);
    void (*from_aff)(unsigned g, void *jac, const void *aff);
    void (*to_aff)(unsigned g, void *aff, const void *jac);
    void (*gmul)(unsigned g, void *r, const void *jac, const fr_t k_mont);
    void (*gadd)(unsigned g, void *r, const void *a, const void *b);
    void (*ginf)(unsigned g, void *r);
    bool (*geq)(unsigned g, const void *a, const void *b);
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
    static void C##_one(fr_t r) { czk_fr_##C##_one((void *)r); }                                   \
    static void C##_to_can(fr_t r, const fr_t a)                                                   \
    {                                                                                              \
        struct czk_fr_##C t;                                                                       \
        memcpy(&t, a, 32);                                                                         \
        czk_fr_##C##_to_canonical(r, &t);                                                          \
    }                                                                                              \
    static void C##_root(fr_t w, unsigned lg)                                                      \
    {                                                                                              \
        assert_int_equal(czk_fr_##C##_root_of_unity((void *)w, lg, CZK_NTT_SNARKJS), CZK_OK);      \
    }                                                                                              \
    static void C##_inv(fr_t r, const fr_t a) { czk_fr_##C##_inv((void *)r, (const void *)a); }    \
    static void C##_gen(unsigned g, void *aff)                                                     \
    {                                                                                              \
        if (g == 1)                                                                                \
            czk_g1_##C##_generator(aff);                                                           \
        else                                                                                       \
            czk_g2_##C##_generator(aff);                                                           \
    }                                                                                              \
    static void C##_from_aff(unsigned g, void *j, const void *a)                                   \
    {                                                                                              \
        if (g == 1)                                                                                \
            czk_g1_##C##_from_affine(j, a);                                                        \
        else                                                                                       \
            czk_g2_##C##_from_affine(j, a);                                                        \
    }                                                                                              \
    static void C##_to_aff(unsigned g, void *a, const void *j)                                     \
    {                                                                                              \
        if (g == 1)                                                                                \
            czk_g1_##C##_to_affine(a, j);                                                          \
        else                                                                                       \
            czk_g2_##C##_to_affine(a, j);                                                          \
    }                                                                                              \
    static void C##_gmul(unsigned g, void *r, const void *p, const fr_t k)                         \
    {                                                                                              \
        if (g == 1)                                                                                \
            czk_g1_##C##_mul(r, p, (const void *)k);                                               \
        else                                                                                       \
            czk_g2_##C##_mul(r, p, (const void *)k);                                               \
    }                                                                                              \
    static void C##_gadd(unsigned g, void *r, const void *a, const void *b)                        \
    {                                                                                              \
        if (g == 1)                                                                                \
            czk_g1_##C##_add(r, a, b);                                                             \
        else                                                                                       \
            czk_g2_##C##_add(r, a, b);                                                             \
    }                                                                                              \
    static void C##_ginf(unsigned g, void *r)                                                      \
    {                                                                                              \
        if (g == 1)                                                                                \
            czk_g1_##C##_set_inf(r);                                                               \
        else                                                                                       \
            czk_g2_##C##_set_inf(r);                                                               \
    }                                                                                              \
    static bool C##_geq(unsigned g, const void *a, const void *b)                                  \
    {                                                                                              \
        return g == 1 ? czk_g1_##C##_eq(a, b) : czk_g2_##C##_eq(a, b);                             \
    }                                                                                              \
    static const struct fops fops_##C = {                                                          \
        .mul = C##_mul,                                                                            \
        .add = C##_add,                                                                            \
        .sub = C##_sub,                                                                            \
        .one = C##_one,                                                                            \
        .to_can = C##_to_can,                                                                      \
        .root = C##_root,                                                                          \
        .inv = C##_inv,                                                                            \
        .modulus = czk_fr_##C##_modulus,                                                           \
        .g_aff = {0, sizeof(struct czk_g1_##C##_affine), sizeof(struct czk_g2_##C##_affine)},      \
        .g_jac = {0, sizeof(struct czk_g1_##C), sizeof(struct czk_g2_##C)},                        \
        .gen = C##_gen,                                                                            \
        .from_aff = C##_from_aff,                                                                  \
        .to_aff = C##_to_aff,                                                                      \
        .gmul = C##_gmul,                                                                          \
        .gadd = C##_gadd,                                                                          \
        .ginf = C##_ginf,                                                                          \
        .geq = C##_geq,                                                                            \
    };

FOPS(bn254)
FOPS(bls12_381)

static struct fops F[2];

static void init_fops(void)
{
    F[0] = fops_bn254;
    F[0].curve = CZK_GROTH16_CURVE_BN254;
    F[0].name = "bn254";
    F[1] = fops_bls12_381;
    F[1].curve = CZK_GROTH16_CURVE_BLS12_381;
    F[1].name = "bls12_381";
}

/* A uniform canonical value < r. */
static void rand_can(const struct fops *f, fr_t out)
{
    const uint64_t *r = f->modulus();
    for (;;) {
        czk_test_rand_bytes(out, 32);
        out[3] &= 0x7fffffffffffffffull >> (r[3] >> 62 ? 0 : 1);
        int lt = 0;
        for (int i = 3; i >= 0; i--)
            if (out[i] != r[i]) {
                lt = out[i] < r[i];
                break;
            }
        if (lt)
            return;
    }
}

/* A uniform Montgomery element (a random canonical value read as Montgomery limbs is a
 * uniform element too). */
static void rand_mont(const struct fops *f, fr_t out) { rand_can(f, out); }

/* ---- a fake device: opaque memory, no op slots --------------------------------------- */

static enum czk_status fake_sync(czk_backend_t be)
{
    (void)be;
    return CZK_OK;
}
static enum czk_status fake_set(czk_backend_t be, czk_buf_t b, size_t off, const void *src,
                                size_t n)
{
    (void)be;
    memcpy((uint8_t *)b->ptr + off, src, n);
    return CZK_OK;
}
static enum czk_status fake_get(czk_backend_t be, czk_buf_t b, size_t off, void *dst, size_t n)
{
    (void)be;
    memcpy(dst, (const uint8_t *)b->ptr + off, n);
    return CZK_OK;
}
static const char *fake_name(czk_device_t d)
{
    (void)d;
    return "fake0";
}
static void fake_props(czk_device_t d, struct czk_device_props *p)
{
    (void)d;
    p->name = "fake0";
    p->description = "test device with opaque memory";
    p->type = CZK_DEVICE_TYPE_GPU;
}
static enum czk_status fake_new(czk_device_t d, czk_backend_t be, char *err, size_t errlen)
{
    (void)d, (void)err, (void)errlen;
    memset(&be->iface, 0, sizeof be->iface);
    be->iface.synchronize = fake_sync;
    be->iface.buf_set = fake_set;
    be->iface.buf_get = fake_get;
    return CZK_OK;
}
static enum czk_status fake_alloc(czk_device_t d, size_t n, void **p)
{
    (void)d;
    *p = malloc(n);
    return *p ? CZK_OK : CZK_ERR_NOMEM;
}
static void fake_free(czk_device_t d, void *p)
{
    (void)d;
    free(p);
}
static bool fake_supports(czk_device_t d, enum czk_groth16_curve c, enum czk_backend_op op,
                          unsigned lg)
{
    (void)d, (void)c, (void)op, (void)lg;
    return false;
}

static struct czk_device fake_dev = {
    .iface = {.get_name = fake_name,
              .get_props = fake_props,
              .supports = fake_supports,
              .backend_new = fake_new,
              .buf_alloc = fake_alloc,
              .buf_free = fake_free},
    .host_memory = false,
};

/* The backends every op test runs on. */
#define NB 3
static czk_backend_t B[NB];

static int setup(void **state)
{
    (void)state;
    czk_device_t cpu = czk_backend_reg_device_get(czk_backend_reg_by_name("cpu"), 0);
    if (czk_backend_new(cpu, 1, &B[0], NULL, 0) != CZK_OK ||
        czk_backend_new(cpu, 2, &B[1], NULL, 0) != CZK_OK ||
        czk_backend_new(&fake_dev, 2, &B[2], NULL, 0) != CZK_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < NB; i++)
        czk_backend_free(B[i]);
    return 0;
}

static czk_buf_t upload(czk_backend_t be, const void *p, size_t n)
{
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(czk_backend_get_device(be), n, &b), CZK_OK);
    assert_int_equal(czk_buf_set(be, b, 0, p, n), CZK_OK);
    return b;
}

static void download(czk_backend_t be, czk_buf_t b, void *p, size_t n)
{
    assert_int_equal(czk_buf_get(be, b, 0, p, n), CZK_OK);
}

/* ---- registry, selection, buffers ------------------------------------------------------- */

static void test_registry(void **state)
{
    (void)state;
    assert_true(czk_backend_reg_count() >= 1);
    czk_backend_reg_t cpu = czk_backend_reg_get(0);
    assert_non_null(cpu);
    assert_string_equal(czk_backend_reg_name(cpu), "cpu");
    assert_ptr_equal(czk_backend_reg_by_name("cpu"), cpu);
    assert_null(czk_backend_reg_by_name("nope"));
    assert_null(czk_backend_reg_get(czk_backend_reg_count()));
    assert_int_equal(czk_backend_reg_device_count(cpu), 1);
    czk_device_t d = czk_backend_reg_device_get(cpu, 0);
    assert_non_null(d);
    assert_null(czk_backend_reg_device_get(cpu, 1));
    assert_string_equal(czk_device_name(d), "cpu");
    struct czk_device_props p;
    czk_device_get_props(d, &p);
    assert_int_equal(p.type, CZK_DEVICE_TYPE_CPU);
    assert_true(p.host_memory);
    assert_true(p.compute_units >= 1);
    assert_true(p.max_lg_n >= 28);
    assert_true(p.mem_total > 0);
    assert_true(czk_device_supports(d, CZK_GROTH16_CURVE_BN254, CZK_BACKEND_OP_NTT, 20));
    assert_false(czk_device_supports(d, CZK_GROTH16_CURVE_NONE, CZK_BACKEND_OP_NTT, 20));
    void *h = czk_device_host_alloc(d, 100);
    assert_non_null(h);
    memset(h, 1, 100);
    czk_device_host_free(d, h);
    czk_device_host_free(d, NULL);
}

static void test_select(void **state)
{
    (void)state;
    czk_device_t devs[8];
    size_t n = 0;
    char err[256] = "";
    assert_int_equal(czk_backend_select("cpu", devs, 8, &n, err, sizeof err), CZK_OK);
    assert_int_equal(n, 1);
    assert_string_equal(czk_device_name(devs[0]), "cpu");
    /* auto: every GPU, else the CPU */
    assert_int_equal(czk_backend_select("auto", devs, 8, &n, err, sizeof err), CZK_OK);
    assert_true(n >= 1);
    if (!czk_backend_reg_by_name("cuda")) {
        assert_int_equal(n, 1);
        assert_string_equal(czk_device_name(devs[0]), "cpu");
        err[0] = 0;
        assert_int_equal(czk_backend_select("cuda", devs, 8, &n, err, sizeof err),
                         CZK_ERR_UNSUPPORTED);
        assert_non_null(strstr(err, "cuda"));
        czk_backend_t be = NULL;
        assert_int_equal(czk_backend_init_by_name(&be, "cuda", 1, err, sizeof err),
                         CZK_ERR_UNSUPPORTED);
        assert_null(be);
    }
    assert_int_equal(czk_backend_select(NULL, NULL, 0, &n, err, sizeof err), CZK_OK);
    assert_true(n >= 1);
    assert_int_equal(czk_backend_select("gpu-please", devs, 8, &n, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "gpu-please"));
    czk_backend_t be = NULL;
    assert_int_equal(czk_backend_init_by_name(&be, "cpu", 3, err, sizeof err), CZK_OK);
    assert_int_equal(czk_backend_threads(be), 3);
    assert_string_equal(czk_backend_name(be), "cpu");
    assert_int_equal(czk_backend_synchronize(be), CZK_OK);
    czk_backend_free(be);
    czk_backend_free(NULL);
}

static void test_buffers(void **state)
{
    (void)state;
    uint8_t src[1000], dst[1000];
    czk_test_rand_bytes(src, sizeof src);
    for (int k = 0; k < NB; k++) {
        czk_backend_t be = B[k];
        czk_device_t d = czk_backend_get_device(be);
        czk_buf_t b = NULL, h = NULL;
        assert_int_equal(czk_buf_alloc(d, 0, &b), CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_buf_alloc(d, sizeof src, &b), CZK_OK);
        assert_int_equal(czk_buf_size(b), sizeof src);
        assert_int_equal(czk_buf_set(be, b, 0, src, sizeof src), CZK_OK);
        memset(dst, 0, sizeof dst);
        assert_int_equal(czk_buf_get(be, b, 0, dst, sizeof dst), CZK_OK);
        assert_memory_equal(src, dst, sizeof src);
        /* partial, async and out-of-range transfers */
        assert_int_equal(czk_buf_set_async(be, b, 10, src + 500, 100), CZK_OK);
        assert_int_equal(czk_backend_synchronize(be), CZK_OK);
        assert_int_equal(czk_buf_get_async(be, b, 10, dst, 100), CZK_OK);
        assert_int_equal(czk_backend_synchronize(be), CZK_OK);
        assert_memory_equal(dst, src + 500, 100);
        assert_int_equal(czk_buf_set(be, b, 901, src, 100), CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_buf_get(be, b, 1001, dst, 0), CZK_ERR_INVALID_ARG);
        assert_int_equal(czk_buf_get(be, b, 1000, dst, 0), CZK_OK);
        /* from_host: borrowed on host-memory devices, copied elsewhere */
        assert_int_equal(czk_buf_from_host(be, src, sizeof src, &h), CZK_OK);
        if (d->host_memory) {
            assert_ptr_equal(czk_buf_host_ptr(h), src);
            assert_non_null(czk_buf_host_ptr(b));
        } else {
            assert_null(czk_buf_host_ptr(h));
            assert_null(czk_buf_host_ptr(b));
        }
        memset(dst, 0, sizeof dst);
        assert_int_equal(czk_buf_get(be, h, 0, dst, sizeof dst), CZK_OK);
        assert_memory_equal(src, dst, sizeof src);
        /* a buffer of another device is refused by the ops */
        czk_buf_t other = NULL;
        czk_device_t od = d == &fake_dev ? czk_backend_get_device(B[0]) : &fake_dev;
        assert_int_equal(czk_buf_alloc(od, 32 * 8, &other), CZK_OK);
        assert_int_equal(czk_backend_to_canonical(be, CZK_GROTH16_CURVE_BN254, other, 8),
                         CZK_ERR_INVALID_ARG);
        czk_buf_free(other);
        czk_buf_free(h);
        czk_buf_free(b);
        czk_buf_free(NULL);
    }
}

/* ---- NTT -------------------------------------------------------------------------------- */

static void pow_small(const struct fops *f, fr_t r, const fr_t a, size_t e)
{
    fr_t acc, base;
    f->one(acc);
    memcpy(base, a, 32);
    while (e) {
        if (e & 1)
            f->mul(acc, acc, base);
        f->mul(base, base, base);
        e >>= 1;
    }
    memcpy(r, acc, 32);
}

/* out_i = sum_j in_j (shift·w^i)^j */
static void naive_dft(const struct fops *f, fr_t *out, const fr_t *in, unsigned lg,
                      const fr_t shift)
{
    size_t n = (size_t)1 << lg;
    fr_t w;
    f->root(w, lg);
    for (size_t i = 0; i < n; i++) {
        fr_t x, xp, acc, t;
        pow_small(f, x, w, i);
        if (shift)
            f->mul(x, x, shift);
        f->one(xp);
        memset(acc, 0, 32);
        for (size_t j = 0; j < n; j++) {
            f->mul(t, in[j], xp);
            f->add(acc, acc, t);
            f->mul(xp, xp, x);
        }
        memcpy(out[i], acc, 32);
    }
}

static void test_ntt(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        const struct fops *f = &F[c];
        for (unsigned lg = 0; lg <= 7; lg++) {
            size_t n = (size_t)1 << lg;
            fr_t *in = malloc(n * 32), *want = malloc(n * 32), *got = malloc(n * 32);
            fr_t shift;
            rand_mont(f, shift);
            for (size_t i = 0; i < n; i++)
                rand_mont(f, in[i]);
            for (int sh = 0; sh < 2; sh++) {
                naive_dft(f, want, (const fr_t *)in, lg, sh ? (const uint64_t *)shift : NULL);
                for (int k = 0; k < NB; k++) {
                    czk_buf_t b = upload(B[k], in, n * 32);
                    assert_int_equal(czk_backend_ntt(B[k], f->curve, b, lg, CZK_BACKEND_FORWARD,
                                                     CZK_NTT_SNARKJS, sh ? shift : NULL),
                                     CZK_OK);
                    download(B[k], b, got, n * 32);
                    assert_memory_equal(got, want, n * 32);
                    assert_int_equal(czk_backend_ntt(B[k], f->curve, b, lg, CZK_BACKEND_INVERSE,
                                                     CZK_NTT_SNARKJS, sh ? shift : NULL),
                                     CZK_OK);
                    download(B[k], b, got, n * 32);
                    assert_memory_equal(got, in, n * 32);
                    czk_buf_free(b);
                }
            }
            /* argument checks: buffer too small, lg above the two-adicity, no curve */
            czk_buf_t b = upload(B[0], in, n * 32);
            assert_int_equal(czk_backend_ntt(B[0], f->curve, b, lg + 1, CZK_BACKEND_FORWARD,
                                             CZK_NTT_SNARKJS, NULL),
                             CZK_ERR_INVALID_ARG);
            assert_int_equal(
                czk_backend_ntt(B[0], f->curve, b, 40, CZK_BACKEND_FORWARD, CZK_NTT_SNARKJS, NULL),
                CZK_ERR_INVALID_ARG);
            assert_int_equal(czk_backend_ntt(B[0], CZK_GROTH16_CURVE_NONE, b, lg,
                                             CZK_BACKEND_FORWARD, CZK_NTT_SNARKJS, NULL),
                             CZK_ERR_INVALID_ARG);
            czk_buf_free(b);
            free(in);
            free(want);
            free(got);
        }
    }
}

/* A larger transform: every backend agrees bit for bit (multithreaded paths). */
static void test_ntt_large(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        const struct fops *f = &F[c];
        unsigned lg = 14;
        size_t n = (size_t)1 << lg;
        fr_t *in = malloc(n * 32), *ref = malloc(n * 32), *got = malloc(n * 32);
        fr_t shift;
        rand_mont(f, shift);
        for (size_t i = 0; i < n; i++)
            rand_mont(f, in[i]);
        for (int k = 0; k < NB; k++) {
            czk_buf_t b = upload(B[k], in, n * 32);
            assert_int_equal(
                czk_backend_ntt(B[k], f->curve, b, lg, CZK_BACKEND_INVERSE, CZK_NTT_SNARKJS, NULL),
                CZK_OK);
            assert_int_equal(
                czk_backend_ntt(B[k], f->curve, b, lg, CZK_BACKEND_FORWARD, CZK_NTT_SNARKJS, shift),
                CZK_OK);
            download(B[k], b, k ? got : ref, n * 32);
            if (k)
                assert_memory_equal(got, ref, n * 32);
            czk_buf_free(b);
        }
        /* evaluations on the coset of the interpolant: spot-check one point naively */
        fr_t w, x, xp, acc, t;
        fr_t *coef = malloc(n * 32);
        memcpy(coef, in, n * 32);
        czk_buf_t b = upload(B[0], coef, n * 32);
        assert_int_equal(
            czk_backend_ntt(B[0], f->curve, b, lg, CZK_BACKEND_INVERSE, CZK_NTT_SNARKJS, NULL),
            CZK_OK);
        download(B[0], b, coef, n * 32);
        czk_buf_free(b);
        size_t i = (size_t)(czk_test_rand64() % n);
        f->root(w, lg);
        pow_small(f, x, w, i);
        f->mul(x, x, shift);
        f->one(xp);
        memset(acc, 0, 32);
        for (size_t j = 0; j < n; j++) {
            f->mul(t, coef[j], xp);
            f->add(acc, acc, t);
            f->mul(xp, xp, x);
        }
        assert_memory_equal(acc, ref[i], 32);
        free(coef);
        free(in);
        free(ref);
        free(got);
    }
}

/* ---- MSM -------------------------------------------------------------------------------- */

static void test_msm(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        const struct fops *f = &F[c];
        for (unsigned g = 1; g <= 2; g++) {
            size_t n = 37, off = 5, aff = f->g_aff[g];
            uint8_t *bases = malloc(n * aff), gen[192], gj[288], acc[288], t[288], p[288];
            fr_t *sc = malloc((n + off) * 32);
            f->gen(g, gen);
            f->from_aff(g, gj, gen);
            f->ginf(g, acc);
            for (size_t i = 0; i < n + off; i++) {
                rand_can(f, sc[i]);
                if (i % 7 == 3)
                    memset(sc[i], 0, 32); /* zeros */
                if (i % 7 == 4) {
                    memset(sc[i], 0, 32); /* ones */
                    sc[i][0] = 1;
                }
            }
            for (size_t i = 0; i < n; i++) {
                fr_t k;
                rand_mont(f, k);
                f->gmul(g, p, gj, k);
                f->to_aff(g, bases + i * aff, p);
                if (i == 10)
                    memset(bases + i * aff, 0, aff); /* infinity (0, 0) */
                if (i == 11)
                    memcpy(bases + i * aff, bases + 9 * aff, aff); /* duplicate */
            }
            /* naive: acc = sum [s_{off+i}] P_i. czk_G_mul takes Montgomery scalars:
             * Mont(x) = mul(x, R^2), and R^2 = R·2^256 is R (one()) doubled 256 times. */
            fr_t r2m;
            f->one(r2m);
            for (int i = 0; i < 256; i++)
                f->add(r2m, r2m, r2m);
            for (size_t i = 0; i < n; i++) {
                fr_t km;
                uint8_t pj[288];
                f->mul(km, sc[off + i], r2m); /* x·R^2·R^-1 = Mont(x) */
                f->from_aff(g, pj, bases + i * aff);
                if (i == 10)
                    f->ginf(g, pj);
                f->gmul(g, t, pj, km);
                f->gadd(g, acc, acc, t);
            }
            for (int k = 0; k < NB; k++) {
                czk_buf_t bb = upload(B[k], bases, n * aff);
                czk_buf_t sb = upload(B[k], sc, (n + off) * 32);
                uint8_t out[288];
                enum czk_status st = g == 1
                                         ? czk_backend_msm_g1(B[k], f->curve, bb, sb, off, n, out)
                                         : czk_backend_msm_g2(B[k], f->curve, bb, sb, off, n, out);
                assert_int_equal(st, CZK_OK);
                assert_true(f->geq(g, out, acc));
                /* n = 0 is infinity; too many scalars is refused */
                uint8_t inf[288];
                f->ginf(g, inf);
                st = g == 1 ? czk_backend_msm_g1(B[k], f->curve, bb, sb, 0, 0, out)
                            : czk_backend_msm_g2(B[k], f->curve, bb, sb, 0, 0, out);
                assert_int_equal(st, CZK_OK);
                assert_true(f->geq(g, out, inf));
                st = g == 1 ? czk_backend_msm_g1(B[k], f->curve, bb, sb, off + 1, n, out)
                            : czk_backend_msm_g2(B[k], f->curve, bb, sb, off + 1, n, out);
                assert_int_equal(st, CZK_ERR_INVALID_ARG);
                czk_buf_free(bb);
                czk_buf_free(sb);
            }
            free(bases);
            free(sc);
        }
    }
}

/* ---- sparse evaluation ------------------------------------------------------------------ */

static void rand_csr(const struct fops *f, struct czk_csr *m, uint32_t rows, uint32_t cols)
{
    m->n_rows = rows;
    m->n_cols = cols;
    m->row_ptr = calloc(rows + 1, sizeof *m->row_ptr);
    size_t cap = (size_t)rows * 4 + 1;
    m->col = malloc(cap * sizeof *m->col);
    m->val = malloc(cap * sizeof *m->val);
    uint64_t k = 0;
    for (uint32_t r = 0; r < rows; r++) {
        unsigned e = (unsigned)(czk_test_rand64() % 5); /* 0..4 entries, repeats allowed */
        if (r % 3 == 2)
            e = 0;
        for (unsigned j = 0; j < e; j++, k++) {
            m->col[k] = (uint32_t)(czk_test_rand64() % cols);
            rand_mont(f, m->val[k]);
        }
        m->row_ptr[r + 1] = k;
    }
    m->nnz = k;
}

static void csr_free(struct czk_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
}

static void test_sparse_eval(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        const struct fops *f = &F[c];
        uint32_t rows = 3000, cols = 257; /* several chunks of rows */
        struct czk_csr A, Bm;
        rand_csr(f, &A, rows, cols);
        rand_csr(f, &Bm, rows, cols);
        fr_t *w = malloc(cols * 32), *wa = malloc(rows * 32), *wb = malloc(rows * 32),
             *wc = malloc(rows * 32), *g = malloc(rows * 32);
        for (uint32_t i = 0; i < cols; i++)
            rand_can(f, w[i]);
        memset(w[0], 0, 32);
        w[0][0] = 1;
        /* dense oracle: sum over entries, the same Montgomery-product convention */
        for (uint32_t r = 0; r < rows; r++) {
            const struct czk_csr *ms[2] = {&A, &Bm};
            fr_t *outs[2] = {wa, wb};
            for (int m = 0; m < 2; m++) {
                fr_t acc = {0, 0, 0, 0}, t;
                for (uint32_t col = 0; col < cols; col++)
                    for (uint64_t k = ms[m]->row_ptr[r]; k < ms[m]->row_ptr[r + 1]; k++)
                        if (ms[m]->col[k] == col) {
                            f->mul(t, ms[m]->val[k], w[col]);
                            f->add(acc, acc, t);
                        }
                memcpy(outs[m][r], acc, 32);
            }
            f->mul(wc[r], wa[r], wb[r]);
        }
        for (int k = 0; k < NB; k++) {
            czk_device_t d = czk_backend_get_device(B[k]);
            czk_buf_t bw = upload(B[k], w, cols * 32), ba, bb, bc;
            assert_int_equal(czk_buf_alloc(d, rows * 32, &ba), CZK_OK);
            assert_int_equal(czk_buf_alloc(d, rows * 32, &bb), CZK_OK);
            assert_int_equal(czk_buf_alloc(d, rows * 32, &bc), CZK_OK);
            assert_int_equal(czk_backend_sparse_eval(B[k], f->curve, &A, &Bm, bw, ba, bb, bc),
                             CZK_OK);
            download(B[k], ba, g, rows * 32);
            assert_memory_equal(g, wa, rows * 32);
            download(B[k], bb, g, rows * 32);
            assert_memory_equal(g, wb, rows * 32);
            download(B[k], bc, g, rows * 32);
            assert_memory_equal(g, wc, rows * 32);
            /* shape mismatch refused */
            A.n_cols++;
            assert_int_equal(czk_backend_sparse_eval(B[k], f->curve, &A, &Bm, bw, ba, bb, bc),
                             CZK_ERR_INVALID_ARG);
            A.n_cols--;
            czk_buf_free(bw);
            czk_buf_free(ba);
            czk_buf_free(bb);
            czk_buf_free(bc);
        }
        csr_free(&A);
        csr_free(&Bm);
        free(w);
        free(wa);
        free(wb);
        free(wc);
        free(g);
    }
}

/* ---- quotient and to_canonical ---------------------------------------------------------- */

static void test_pointwise(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        const struct fops *f = &F[c];
        size_t n = 20000;
        fr_t *a = malloc(n * 32), *b = malloc(n * 32), *cc = malloc(n * 32), *want = malloc(n * 32),
             *got = malloc(n * 32), zinv;
        rand_mont(f, zinv);
        for (size_t i = 0; i < n; i++) {
            rand_mont(f, a[i]);
            rand_mont(f, b[i]);
            rand_mont(f, cc[i]);
        }
        for (int z = 0; z < 2; z++) {
            for (size_t i = 0; i < n; i++) {
                f->mul(want[i], a[i], b[i]);
                f->sub(want[i], want[i], cc[i]);
                if (z)
                    f->mul(want[i], want[i], zinv);
            }
            for (int k = 0; k < NB; k++) {
                czk_buf_t ba = upload(B[k], a, n * 32), bb = upload(B[k], b, n * 32),
                          bc = upload(B[k], cc, n * 32);
                assert_int_equal(
                    czk_backend_quotient(B[k], f->curve, ba, bb, bc, n, z ? zinv : NULL), CZK_OK);
                download(B[k], ba, got, n * 32);
                assert_memory_equal(got, want, n * 32);
                /* b and c are untouched */
                download(B[k], bb, got, n * 32);
                assert_memory_equal(got, b, n * 32);
                assert_int_equal(czk_backend_quotient(B[k], f->curve, ba, bb, bc, n + 1, NULL),
                                 CZK_ERR_INVALID_ARG);
                czk_buf_free(ba);
                czk_buf_free(bb);
                czk_buf_free(bc);
            }
        }
        for (size_t i = 0; i < n; i++)
            f->to_can(want[i], a[i]);
        for (int k = 0; k < NB; k++) {
            czk_buf_t ba = upload(B[k], a, n * 32);
            assert_int_equal(czk_backend_to_canonical(B[k], f->curve, ba, n), CZK_OK);
            download(B[k], ba, got, n * 32);
            assert_memory_equal(got, want, n * 32);
            czk_buf_free(ba);
        }
        free(a);
        free(b);
        free(cc);
        free(want);
        free(got);
    }
}

int main(void)
{
    czk_test_seed_init("test_backend");
    init_fops();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),    cmocka_unit_test(test_select),
        cmocka_unit_test(test_buffers),     cmocka_unit_test(test_ntt),
        cmocka_unit_test(test_ntt_large),   cmocka_unit_test(test_msm),
        cmocka_unit_test(test_sparse_eval), cmocka_unit_test(test_pointwise),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
