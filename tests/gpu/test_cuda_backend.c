/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA backend against the CPU backend (label gpu): every op on both curves, results
 * compared bit for bit (MSM after conversion to affine), fresh random inputs each run (the
 * seed is printed; CZK_TEST_SEED replays), device buffers poisoned before each op and
 * checked for writes outside the op's range.
 *   NTT: forward / inverse, plain, snarkjs odd coset, bellman coset, sizes 2^0 .. 2^20;
 *   sparse evaluation: random CSR pairs with empty, short and long (> 32 terms) rows, a
 *     witness rich in 0 and 1, 1 .. 2^20 rows, evaluated twice (the second call hits the
 *     resident-matrix cache) with another witness;
 *   quotient (with and without 1/Z), to_canonical: 1 .. 2^20 + 3 elements;
 *   MSM G1/G2 through the backend (device MSM or the CPU fallback);
 *   device properties, pinned memory round trips, and errors: an allocation larger than
 *     the device is reported (not a crash) and the device keeps working.
 * Without a CUDA build or GPU: exit 77 (skipped). Single-threaded test code.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "backend/backend_impl.h"
#include "czk/czk_backend.h"
#include "czk/czk_ec.h"
#include "io/formats.h"
#include "ntt/ntt_snarkjs.h"

typedef uint64_t fr_t[4];

static czk_backend_t g_cpu, g_gpu;
static czk_device_t g_dev;
static const enum czk_groth16_curve g_curves[2] = {CZK_GROTH16_CURVE_BN254,
                                                   CZK_GROTH16_CURVE_BLS12_381};

static const char *cname(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? "bn254" : "bls12_381";
}

static const uint64_t *modulus(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_modulus() : czk_fr_bls12_381_modulus();
}

/* uniform in [0, r) */
static void rand_fr(enum czk_groth16_curve c, uint64_t v[4])
{
    const uint64_t *r = modulus(c);
    uint64_t top = r[3];
    unsigned bits = 64 - (unsigned)__builtin_clzll(top);
    for (;;) {
        for (int i = 0; i < 4; i++)
            v[i] = czk_test_rand64();
        v[3] &= bits == 64 ? ~0ull : ((1ull << bits) - 1);
        int lt = 0;
        for (int i = 3; i >= 0; i--)
            if (v[i] != r[i]) {
                lt = v[i] < r[i];
                break;
            }
        if (lt)
            return;
    }
}

static fr_t *rand_vec(enum czk_groth16_curve c, size_t n)
{
    fr_t *v = malloc((n ? n : 1) * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++)
        rand_fr(c, v[i]);
    return v;
}

#define POISON 0xa5

/* A device buffer of `bytes` + a guard of 256 bytes, all poisoned. */
static czk_buf_t poisoned(size_t bytes)
{
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(g_dev, bytes + 256, &b), CZK_OK);
    uint8_t *p = malloc(bytes + 256);
    assert_non_null(p);
    memset(p, POISON, bytes + 256);
    assert_int_equal(czk_buf_set(g_gpu, b, 0, p, bytes + 256), CZK_OK);
    free(p);
    return b;
}

/* Reads `bytes` of b into out and checks the guard after them is still poison. */
static void fetch(czk_buf_t b, void *out, size_t bytes)
{
    uint8_t guard[256];
    assert_int_equal(czk_buf_get(g_gpu, b, 0, out, bytes), CZK_OK);
    assert_int_equal(czk_buf_get(g_gpu, b, bytes, guard, sizeof guard), CZK_OK);
    for (size_t i = 0; i < sizeof guard; i++)
        if (guard[i] != POISON)
            fail_msg("write past the end of the op's range (guard byte %zu)", i);
}

static void expect_equal(const char *what, const fr_t *got, const fr_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(got[i], want[i], 32)) {
            fail_msg("%s: element %zu of %zu differs: got %016llx.. want %016llx..", what, i, n,
                     (unsigned long long)got[i][3], (unsigned long long)want[i][3]);
        }
}

/* ---- NTT ------------------------------------------------------------------------------ */

static void ntt_case(enum czk_groth16_curve c, unsigned lg, enum czk_backend_dir dir, int kind)
{
    size_t n = (size_t)1 << lg;
    enum czk_ntt_convention conv = kind == 2 ? CZK_NTT_BELLMAN : CZK_NTT_SNARKJS;
    uint64_t shift[4];
    const uint64_t *sp = NULL;
    if (kind == 1) {
        czk_ntt_snarkjs_shift(c, lg, shift);
        sp = shift;
    } else if (kind == 2) {
        if (c == CZK_GROTH16_CURVE_BN254)
            czk_fr_bn254_coset_gen((struct czk_fr_bn254 *)shift, CZK_NTT_BELLMAN);
        else
            czk_fr_bls12_381_coset_gen((struct czk_fr_bls12_381 *)shift, CZK_NTT_BELLMAN);
        sp = shift;
    }
    fr_t *x = rand_vec(c, n), *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    assert_non_null(ref);
    assert_non_null(got);
    memcpy(ref, x, n * sizeof *x);
    assert_int_equal(czk_cpu_ntt(c, ref, lg, dir, conv, sp, czk_backend_threads(g_cpu)), CZK_OK);
    czk_buf_t b = poisoned(n * 32);
    assert_int_equal(czk_buf_set(g_gpu, b, 0, x, n * 32), CZK_OK);
    assert_true(czk_device_supports(g_dev, c, CZK_BACKEND_OP_NTT, lg));
    assert_int_equal(czk_backend_ntt(g_gpu, c, b, lg, dir, conv, sp), CZK_OK);
    fetch(b, got, n * 32);
    char what[96];
    snprintf(what, sizeof what, "ntt %s 2^%u %s %s", cname(c), lg,
             dir == CZK_BACKEND_FORWARD ? "forward" : "inverse",
             kind == 0 ? "plain" : kind == 1 ? "snarkjs coset" : "bellman coset");
    expect_equal(what, got, ref, n);
    czk_buf_free(b);
    free(x);
    free(ref);
    free(got);
}

static void test_ntt(void **state)
{
    (void)state;
    static const unsigned lgs[] = {0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 15, 16, 18, 20};
    for (int ci = 0; ci < 2; ci++)
        for (size_t li = 0; li < sizeof lgs / sizeof lgs[0]; li++)
            for (int dir = 0; dir < 2; dir++)
                for (int kind = 0; kind < 3; kind++)
                    ntt_case(g_curves[ci], lgs[li], (enum czk_backend_dir)dir, kind);
}

/* inverse(forward(x)) = x through the device alone, at a size the table cache reuses */
static void test_ntt_roundtrip(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        enum czk_groth16_curve c = g_curves[ci];
        for (unsigned lg = 7; lg <= 17; lg += 5) {
            size_t n = (size_t)1 << lg;
            uint64_t shift[4];
            czk_ntt_snarkjs_shift(c, lg, shift);
            fr_t *x = rand_vec(c, n), *got = malloc(n * sizeof *got);
            czk_buf_t b = poisoned(n * 32);
            assert_int_equal(czk_buf_set(g_gpu, b, 0, x, n * 32), CZK_OK);
            assert_int_equal(czk_backend_ntt(g_gpu, c, b, lg, CZK_BACKEND_FORWARD,
                                             CZK_NTT_SNARKJS, shift),
                             CZK_OK);
            assert_int_equal(czk_backend_ntt(g_gpu, c, b, lg, CZK_BACKEND_INVERSE,
                                             CZK_NTT_SNARKJS, shift),
                             CZK_OK);
            fetch(b, got, n * 32);
            expect_equal("ntt roundtrip", got, x, n);
            czk_buf_free(b);
            free(x);
            free(got);
        }
    }
}

/* ---- sparse evaluation ------------------------------------------------------------------ */

static void rand_csr(enum czk_groth16_curve c, struct czk_csr *m, uint32_t rows, uint32_t cols)
{
    m->n_rows = rows;
    m->n_cols = cols;
    m->row_ptr = malloc(((size_t)rows + 1) * sizeof *m->row_ptr);
    assert_non_null(m->row_ptr);
    uint64_t nnz = 0;
    m->row_ptr[0] = 0;
    for (uint32_t i = 0; i < rows; i++) {
        uint64_t r = czk_test_rand64() % 1000, len;
        if (r < 100)
            len = 0;
        else if (r < 990)
            len = 1 + r % 4;
        else if (r < 998)
            len = 33 + r % 70; /* long: the warp path */
        else
            len = 500 + czk_test_rand64() % 1500;
        nnz += len;
        m->row_ptr[i + 1] = nnz;
    }
    m->nnz = nnz;
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    assert_non_null(m->col);
    assert_non_null(m->val);
    for (uint64_t k = 0; k < nnz; k++) {
        m->col[k] = (uint32_t)(czk_test_rand64() % cols);
        rand_fr(c, m->val[k]);
    }
}

static void csr_free(struct czk_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static fr_t *rand_witness(enum czk_groth16_curve c, size_t n)
{
    fr_t *w = rand_vec(c, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = czk_test_rand64() % 10;
        if (r < 4) /* 0 or 1 */
            memset(w[i], 0, 32), w[i][0] = r & 1;
    }
    if (n)
        memset(w[0], 0, 32), w[0][0] = 1;
    return w;
}

static void eval_case(enum czk_groth16_curve c, uint32_t rows)
{
    uint32_t cols = rows / 2 + 5;
    struct czk_csr A, B;
    rand_csr(c, &A, rows, cols);
    rand_csr(c, &B, rows, cols);
    size_t rb = (size_t)rows * 32;
    fr_t *ra = malloc(rb + 32), *rbv = malloc(rb + 32), *rc = malloc(rb + 32);
    fr_t *ga = malloc(rb + 32), *gb = malloc(rb + 32), *gc = malloc(rb + 32);
    assert_true(ra && rbv && rc && ga && gb && gc);
    for (int round = 0; round < 2; round++) {
        fr_t *w = rand_witness(c, cols);
        assert_int_equal(czk_cpu_sparse_eval(c, &A, &B, (const uint64_t(*)[4])w, ra, rbv, rc, 4),
                         CZK_OK);
        czk_buf_t bw = NULL;
        assert_int_equal(czk_buf_from_host(g_gpu, w, (size_t)cols * 32, &bw), CZK_OK);
        czk_buf_t ba = poisoned(rb), bb = poisoned(rb), bc = poisoned(rb);
        assert_int_equal(czk_backend_sparse_eval(g_gpu, c, &A, &B, bw, ba, bb, bc), CZK_OK);
        fetch(ba, ga, rb);
        fetch(bb, gb, rb);
        fetch(bc, gc, rb);
        char what[96];
        snprintf(what, sizeof what, "sparse_eval %s rows=%u round %d: a", cname(c), rows, round);
        expect_equal(what, ga, ra, rows);
        what[strlen(what) - 1] = 'b';
        expect_equal(what, gb, rbv, rows);
        what[strlen(what) - 1] = 'c';
        expect_equal(what, gc, rc, rows);
        czk_buf_free(ba);
        czk_buf_free(bb);
        czk_buf_free(bc);
        czk_buf_free(bw);
        free(w);
    }
    free(ra), free(rbv), free(rc), free(ga), free(gb), free(gc);
    csr_free(&A);
    csr_free(&B);
}

static void test_sparse_eval(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 7, 100, 1000, 1u << 10, 1u << 16, 1u << 20};
    for (int ci = 0; ci < 2; ci++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            eval_case(g_curves[ci], sizes[i]);
}

/* ---- quotient and to_canonical ------------------------------------------------------------- */

static void test_pointwise(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 5, 1000, 1u << 16, (1u << 20) + 3};
    for (int ci = 0; ci < 2; ci++) {
        enum czk_groth16_curve c = g_curves[ci];
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si], bytes = n * 32;
            fr_t *a = rand_vec(c, n), *b = rand_vec(c, n), *cc = rand_vec(c, n);
            fr_t *ref = malloc(bytes), *got = malloc(bytes);
            uint64_t z[4];
            rand_fr(c, z);
            for (int withz = 0; withz < 2; withz++) {
                memcpy(ref, a, bytes);
                czk_cpu_quotient(c, ref, (const uint64_t(*)[4])b, (const uint64_t(*)[4])cc, n,
                                 withz ? z : NULL, 2);
                czk_buf_t da = poisoned(bytes), db = NULL, dc = NULL;
                assert_int_equal(czk_buf_set(g_gpu, da, 0, a, bytes), CZK_OK);
                assert_int_equal(czk_buf_from_host(g_gpu, b, bytes, &db), CZK_OK);
                assert_int_equal(czk_buf_from_host(g_gpu, cc, bytes, &dc), CZK_OK);
                assert_int_equal(czk_backend_quotient(g_gpu, c, da, db, dc, n, withz ? z : NULL),
                                 CZK_OK);
                fetch(da, got, bytes);
                expect_equal(withz ? "quotient/Z" : "quotient", got, ref, n);
                czk_buf_free(da), czk_buf_free(db), czk_buf_free(dc);
            }
            memcpy(ref, a, bytes);
            czk_cpu_to_canonical(c, ref, n, 2);
            czk_buf_t da = poisoned(bytes);
            assert_int_equal(czk_buf_set(g_gpu, da, 0, a, bytes), CZK_OK);
            assert_int_equal(czk_backend_to_canonical(g_gpu, c, da, n), CZK_OK);
            fetch(da, got, bytes);
            expect_equal("to_canonical", got, ref, n);
            czk_buf_free(da);
            free(a), free(b), free(cc), free(ref), free(got);
        }
    }
}

/* ---- MSM through the backend ------------------------------------------------------------------ */

#define MSM_CASE(C, G, GN)                                                                           \
    static void msm_##G##_##C(size_t n)                                                            \
    {                                                                                              \
        struct czk_##G##_##C##_affine *aff = malloc((n ? n : 1) * sizeof *aff);                    \
        struct czk_##G##_##C *jac = malloc((n ? n : 1) * sizeof *jac), acc, r1, r2;                \
        struct czk_##G##_##C##_affine g, a1, a2;                                                   \
        memset(aff, 0, (n ? n : 1) * sizeof *aff);                                                 \
        czk_##G##_##C##_generator(&g);                                                             \
        czk_##G##_##C##_from_affine(&acc, &g);                                                     \
        struct czk_##G##_##C gj = acc;                                                             \
        for (size_t i = 0; i < n; i++) { /* P_i = (i+1) G */                                       \
            jac[i] = acc;                                                                          \
            czk_##G##_##C##_add(&acc, &acc, &gj);                                                  \
        }                                                                                          \
        for (size_t i = 0; i < n; i++)                                                             \
            czk_##G##_##C##_to_affine(&aff[i], &jac[i]);                                           \
        if (n > 3)                                                                                 \
            czk_##G##_##C##_affine_set_inf(&aff[3]);                                               \
        fr_t *k = rand_vec(CZK_GROTH16_CURVE_##C##_UP, n + 2);                                     \
        if (n > 5)                                                                                 \
            memset(k[2 + 5], 0, 32), memset(k[2 + 4], 0, 32), k[2 + 4][0] = 1;                     \
        czk_buf_t bb = NULL, bs = NULL, cb = NULL, cs = NULL;                                      \
        assert_int_equal(czk_buf_from_host(g_gpu, aff, (n ? n : 1) * sizeof *aff, &bb), CZK_OK);           \
        assert_int_equal(czk_buf_from_host(g_gpu, k, (n + 2) * 32, &bs), CZK_OK);                  \
        assert_int_equal(czk_buf_from_host(g_cpu, aff, (n ? n : 1) * sizeof *aff, &cb), CZK_OK);           \
        assert_int_equal(czk_buf_from_host(g_cpu, k, (n + 2) * 32, &cs), CZK_OK);                  \
        enum czk_groth16_curve cv = CZK_GROTH16_CURVE_##C##_UP;                                    \
        if (GN == 1) {                                                                             \
            assert_int_equal(czk_backend_msm_g1(g_gpu, cv, bb, bs, 2, n, &r1), CZK_OK);            \
            assert_int_equal(czk_backend_msm_g1(g_cpu, cv, cb, cs, 2, n, &r2), CZK_OK);            \
        } else {                                                                                   \
            assert_int_equal(czk_backend_msm_g2(g_gpu, cv, bb, bs, 2, n, &r1), CZK_OK);            \
            assert_int_equal(czk_backend_msm_g2(g_cpu, cv, cb, cs, 2, n, &r2), CZK_OK);            \
        }                                                                                          \
        czk_##G##_##C##_to_affine(&a1, &r1);                                                       \
        czk_##G##_##C##_to_affine(&a2, &r2);                                                       \
        if (memcmp(&a1, &a2, sizeof a1))                                                           \
            fail_msg("msm " #G " " #C " n=%zu: device and CPU results differ", n);                 \
        czk_buf_free(bb), czk_buf_free(bs), czk_buf_free(cb), czk_buf_free(cs);                    \
        free(aff), free(jac), free(k);                                                             \
    }

#define CZK_GROTH16_CURVE_bn254_UP CZK_GROTH16_CURVE_BN254
#define CZK_GROTH16_CURVE_bls12_381_UP CZK_GROTH16_CURVE_BLS12_381
MSM_CASE(bn254, g1, 1)
MSM_CASE(bn254, g2, 2)
MSM_CASE(bls12_381, g1, 1)
MSM_CASE(bls12_381, g2, 2)

static void test_msm(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 33, 1000, 1u << 12};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        msm_g1_bn254(sizes[i]);
        msm_g1_bls12_381(sizes[i]);
        if (sizes[i] <= 1000) {
            msm_g2_bn254(sizes[i]);
            msm_g2_bls12_381(sizes[i]);
        }
    }
}

/* ---- device, memory, errors ------------------------------------------------------------------- */

static void test_device(void **state)
{
    (void)state;
    struct czk_device_props p;
    czk_device_get_props(g_dev, &p);
    printf("device %s: %s, %zu MiB (%zu free), %u SMs, max_lg_n %u\n", p.name, p.description,
           p.mem_total >> 20, p.mem_free >> 20, p.compute_units, p.max_lg_n);
    assert_int_equal(p.type, CZK_DEVICE_TYPE_GPU);
    assert_true(!strncmp(p.name, "cuda", 4));
    assert_true(p.mem_total > 0 && p.mem_free > 0 && p.mem_free <= p.mem_total);
    assert_true(p.compute_units > 0);
    assert_true(p.max_lg_n >= 20);
    assert_false(p.host_memory);
    assert_null(czk_buf_host_ptr(NULL));

    /* pinned round trip through the async copies */
    size_t sz = (size_t)8 << 20;
    uint8_t *h = czk_device_host_alloc(g_dev, sz), *h2 = czk_device_host_alloc(g_dev, sz);
    assert_non_null(h);
    assert_non_null(h2);
    czk_test_rand_bytes(h, sz);
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(g_dev, sz, &b), CZK_OK);
    assert_null(czk_buf_host_ptr(b));
    assert_int_equal(czk_buf_set_async(g_gpu, b, 0, h, sz), CZK_OK);
    assert_int_equal(czk_buf_get_async(g_gpu, b, 0, h2, sz), CZK_OK);
    assert_int_equal(czk_backend_synchronize(g_gpu), CZK_OK);
    assert_memory_equal(h, h2, sz);
    /* range checks */
    assert_int_equal(czk_buf_set(g_gpu, b, sz - 8, h, 16), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_buf_get(g_gpu, b, sz + 1, h2, 0), CZK_ERR_INVALID_ARG);
    czk_buf_free(b);
    czk_device_host_free(g_dev, h);
    czk_device_host_free(g_dev, h2);
}

static void test_oversized(void **state)
{
    (void)state;
    struct czk_device_props p;
    czk_device_get_props(g_dev, &p);
    czk_buf_t b = NULL;
    /* more than the device has: reported as a device error, nothing crashes */
    assert_int_equal(czk_buf_alloc(g_dev, p.mem_total * 2, &b), CZK_ERR_DEVICE);
    assert_null(b);
    assert_int_equal(czk_buf_alloc(g_dev, SIZE_MAX / 2, &b), CZK_ERR_DEVICE);
    uint8_t *big = malloc(1 << 20);
    assert_non_null(big);
    memset(big, 0, 1 << 20);
    /* the device still works */
    assert_true(czk_device_supports(g_dev, CZK_GROTH16_CURVE_BN254, CZK_BACKEND_OP_NTT, 10));
    ntt_case(CZK_GROTH16_CURVE_BN254, 10, CZK_BACKEND_FORWARD, 1);
    free(big);
    /* a second context on the same device runs concurrently-safe ops */
    czk_backend_t be2 = NULL;
    char err[256];
    assert_int_equal(czk_backend_new(g_dev, 2, &be2, err, sizeof err), CZK_OK);
    assert_string_equal(czk_backend_name(be2), czk_device_name(g_dev));
    czk_backend_free(be2);
}

int main(void)
{
    czk_test_seed_init("test_cuda_backend");
    char err[256] = "";
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    if (!reg || czk_backend_reg_device_count(reg) == 0) {
        printf("test_cuda_backend: no CUDA backend or no usable GPU: skipped\n");
        return 77;
    }
    g_dev = czk_backend_reg_device_get(reg, 0);
    if (czk_backend_new(g_dev, 0, &g_gpu, err, sizeof err) != CZK_OK ||
        czk_backend_init_by_name(&g_cpu, "cpu", 0, err, sizeof err) != CZK_OK) {
        printf("test_cuda_backend: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device),        cmocka_unit_test(test_ntt),
        cmocka_unit_test(test_ntt_roundtrip), cmocka_unit_test(test_sparse_eval),
        cmocka_unit_test(test_pointwise),     cmocka_unit_test(test_msm),
        cmocka_unit_test(test_oversized),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    czk_backend_free(g_gpu);
    czk_backend_free(g_cpu);
    return rc;
}
