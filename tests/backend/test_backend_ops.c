/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every op of a device backend against the CPU backend (label gpu), on both curves and at
 * every size 2^0, 2^1, ..., 2^20 plus odd sizes (0, 2^k + 3, 1000, ...), results compared
 * bit for bit (MSM after conversion to affine). Fresh random inputs each run (the seed is
 * printed; CZK_TEST_SEED replays). Every output is poisoned (0xa5) first: device buffers
 * carry a poisoned guard after the op's range that must stay untouched, and every output
 * element must be reduced (< r; the poison is not), so an element nobody wrote fails even
 * where the CPU reference did not write it either.
 *   NTT: forward / inverse x plain (snarkjs and bellman roots), snarkjs odd coset, bellman
 *     coset, 2^0 .. 2^20; inverse(forward(x)) = x on the device alone;
 *   sparse evaluation: random CSR pairs with empty, short and long (> 32 terms) rows, a
 *     witness rich in 0 and 1, 0 .. 2^20 + 3 rows, evaluated twice (the second call hits the
 *     resident-matrix cache) with another witness;
 *   quotient (with and without 1/Z), to_canonical: 0 .. 2^20 + 3 elements (every 2^k and
 *     2^k + 3);
 *   MSM G1 and G2: 0 .. 2^20 + 3 points, scalars uniform in [0, r) with 0, 1, 2, r - 1,
 *     r - 2, small and repeated values sprinkled in, a scalar offset; bases P_i = m_i·G made
 *     cheaply (running sums (i+1)·G, batch conversion to affine), shuffled, with
 *     infinities, duplicates, negations and random multiples k·G mixed in, the m_i tracked
 *     in Fr. The result host struct is poisoned and must be overwritten; device and CPU
 *     results agree in affine, and both equal (sum k_i·m_i mod r)·G;
 *   device properties, pinned memory round trips, and errors: an allocation larger than
 *     the device is reported (not a crash) and the device keeps working.
 * One line per (op, curve) gives the sizes run and the time.
 * Without a CUDA build or GPU: exit 77 (skipped). CZK_TEST_BACKEND=cpu puts a second CPU
 * backend in the device's place (to check this suite itself on a machine without a GPU);
 * CZK_TEST_MAX_LG=<k> (default 20) lowers the largest size to 2^k. Single-threaded test
 * code (the base generation and the CPU kernels use worker threads).
 */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend_impl.h"
#include "core/parallel.h"
#include "czk/czk_backend.h"
#include "czk/czk_ec.h"
#include "io/formats.h"
#include "ntt/ntt_snarkjs.h"

typedef uint64_t fr_t[4];

#define SUITE "test_backend_ops"
#define POISON 0xa5

static czk_backend_t g_cpu, g_gpu;
static czk_device_t g_dev;
static bool g_is_gpu;
static unsigned g_max_lg = 20;
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int lt_r(enum czk_groth16_curve c, const uint64_t v[4])
{
    const uint64_t *r = modulus(c);
    for (int i = 3; i >= 0; i--)
        if (v[i] != r[i])
            return v[i] < r[i];
    return 0;
}

/* uniform in [0, r) */
static void rand_fr(enum czk_groth16_curve c, uint64_t v[4])
{
    unsigned bits = 64 - (unsigned)__builtin_clzll(modulus(c)[3]);
    do {
        for (int i = 0; i < 4; i++)
            v[i] = czk_test_rand64();
        v[3] &= bits == 64 ? ~0ull : ((1ull << bits) - 1);
    } while (!lt_r(c, v));
}

static fr_t *rand_vec(enum czk_groth16_curve c, size_t n)
{
    fr_t *v = malloc((n ? n : 1) * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++)
        rand_fr(c, v[i]);
    return v;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    assert_non_null(p);
    return p;
}

/* A device buffer of `bytes` + a guard of 256 bytes, all poisoned. */
static czk_buf_t poisoned(size_t bytes)
{
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(g_dev, bytes + 256, &b), CZK_OK);
    uint8_t *p = xmalloc(bytes + 256);
    memset(p, POISON, bytes + 256);
    assert_int_equal(czk_buf_set(g_gpu, b, 0, p, bytes + 256), CZK_OK);
    free(p);
    return b;
}

/* A poisoned device buffer holding the `bytes` at host (an input, or an in-place output). */
static czk_buf_t upload(const void *host, size_t bytes)
{
    czk_buf_t b = poisoned(bytes);
    assert_int_equal(czk_buf_set(g_gpu, b, 0, host, bytes), CZK_OK);
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

/* got == want element by element, and every element < r (an unwritten, poisoned one is not) */
static void expect_equal(enum czk_groth16_curve c, const char *what, const fr_t *got,
                         const fr_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (memcmp(got[i], want[i], 32))
            fail_msg("%s: element %zu of %zu differs: got %016llx.. want %016llx..", what, i, n,
                     (unsigned long long)got[i][3], (unsigned long long)want[i][3]);
        if (!lt_r(c, got[i]))
            fail_msg("%s: element %zu of %zu is not reduced (%016llx..): never written?", what,
                     i, n, (unsigned long long)got[i][3]);
    }
}

/* ---- sizes ------------------------------------------------------------------------------ */

struct sizes {
    size_t v[64];
    size_t n, extra_from;
};

/* 2^0 .. 2^max_lg, then the extras no larger than 2^max_lg + 3 */
static void sizes_make(struct sizes *s, const size_t *extra, size_t n_extra)
{
    s->n = 0;
    for (unsigned k = 0; k <= g_max_lg; k++)
        s->v[s->n++] = (size_t)1 << k;
    s->extra_from = s->n;
    for (size_t i = 0; i < n_extra; i++)
        if (extra[i] <= ((size_t)1 << g_max_lg) + 3 && s->n < 64)
            s->v[s->n++] = extra[i];
}

static size_t sizes_max(const struct sizes *s)
{
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++)
        m = s->v[i] > m ? s->v[i] : m;
    return m;
}

static void report(const char *op, enum czk_groth16_curve c, const struct sizes *s, double secs,
                   const char *more)
{
    char ex[512] = "";
    size_t len = 0;
    for (size_t i = s->extra_from; i < s->n && len + 24 < sizeof ex; i++)
        len += (size_t)snprintf(ex + len, sizeof ex - len, " %zu", s->v[i]);
    printf("%s: %-12s %-9s n = 2^0..2^%u%s%s (%zu sizes): %.2f s%s\n", SUITE, op, cname(c),
           g_max_lg, len ? " and" : "", ex, s->n, secs, more ? more : "");
    fflush(stdout);
}

/* ---- NTT ------------------------------------------------------------------------------ */

/* kind: 0 plain snarkjs roots, 1 snarkjs odd coset, 2 bellman coset, 3 plain bellman roots */
static void ntt_case(enum czk_groth16_curve c, unsigned lg, enum czk_backend_dir dir, int kind)
{
    static const char *const kinds[] = {"plain", "snarkjs coset", "bellman coset",
                                        "plain bellman"};
    size_t n = (size_t)1 << lg;
    enum czk_ntt_convention conv = kind >= 2 ? CZK_NTT_BELLMAN : CZK_NTT_SNARKJS;
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
    fr_t *x = rand_vec(c, n), *ref = xmalloc(n * sizeof *ref), *got = xmalloc(n * sizeof *got);
    memcpy(ref, x, n * sizeof *x);
    assert_int_equal(czk_cpu_ntt(c, ref, lg, dir, conv, sp, czk_backend_threads(g_cpu)), CZK_OK);
    czk_buf_t b = upload(x, n * 32);
    assert_true(czk_device_supports(g_dev, c, CZK_BACKEND_OP_NTT, lg));
    assert_int_equal(czk_backend_ntt(g_gpu, c, b, lg, dir, conv, sp), CZK_OK);
    memset(got, POISON, n * 32);
    fetch(b, got, n * 32);
    char what[96];
    snprintf(what, sizeof what, "ntt %s 2^%u %s %s", cname(c), lg,
             dir == CZK_BACKEND_FORWARD ? "forward" : "inverse", kinds[kind]);
    expect_equal(c, what, got, ref, n);
    czk_buf_free(b);
    free(x);
    free(ref);
    free(got);
}

static void test_ntt(void **state)
{
    (void)state;
    struct sizes s;
    sizes_make(&s, NULL, 0);
    for (int ci = 0; ci < 2; ci++) {
        double t0 = now_s();
        for (unsigned lg = 0; lg <= g_max_lg; lg++)
            for (int dir = 0; dir < 2; dir++)
                for (int kind = 0; kind < 4; kind++)
                    ntt_case(g_curves[ci], lg, (enum czk_backend_dir)dir, kind);
        report("ntt", g_curves[ci], &s, now_s() - t0,
               " (forward, inverse x plain, snarkjs coset, bellman coset, plain bellman)");
    }
}

/* inverse(forward(x)) = x through the device alone, at a size the table cache reuses */
static void test_ntt_roundtrip(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        enum czk_groth16_curve c = g_curves[ci];
        for (unsigned lg = 7; lg <= 17 && lg <= g_max_lg; lg += 5) {
            size_t n = (size_t)1 << lg;
            uint64_t shift[4];
            czk_ntt_snarkjs_shift(c, lg, shift);
            fr_t *x = rand_vec(c, n), *got = xmalloc(n * sizeof *got);
            czk_buf_t b = upload(x, n * 32);
            assert_int_equal(czk_backend_ntt(g_gpu, c, b, lg, CZK_BACKEND_FORWARD,
                                             CZK_NTT_SNARKJS, shift),
                             CZK_OK);
            assert_int_equal(czk_backend_ntt(g_gpu, c, b, lg, CZK_BACKEND_INVERSE,
                                             CZK_NTT_SNARKJS, shift),
                             CZK_OK);
            fetch(b, got, n * 32);
            expect_equal(c, "ntt roundtrip", got, x, n);
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
    m->row_ptr = xmalloc(((size_t)rows + 1) * sizeof *m->row_ptr);
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
    m->col = xmalloc(nnz * sizeof *m->col);
    m->val = xmalloc(nnz * sizeof *m->val);
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
    fr_t *ra = xmalloc(rb), *rbv = xmalloc(rb), *rc = xmalloc(rb);
    fr_t *ga = xmalloc(rb), *gb = xmalloc(rb), *gc = xmalloc(rb);
    assert_true(czk_device_supports(g_dev, c, CZK_BACKEND_OP_SPARSE_EVAL, 0));
    for (int round = 0; round < 2; round++) {
        fr_t *w = rand_witness(c, cols);
        memset(ra, POISON, rb), memset(rbv, POISON, rb), memset(rc, POISON, rb);
        memset(ga, POISON, rb), memset(gb, POISON, rb), memset(gc, POISON, rb);
        assert_int_equal(czk_cpu_sparse_eval(c, &A, &B, (const uint64_t(*)[4])w, ra, rbv, rc,
                                             czk_backend_threads(g_cpu)),
                         CZK_OK);
        czk_buf_t bw = upload(w, (size_t)cols * 32);
        czk_buf_t ba = poisoned(rb), bb = poisoned(rb), bc = poisoned(rb);
        assert_int_equal(czk_backend_sparse_eval(g_gpu, c, &A, &B, bw, ba, bb, bc), CZK_OK);
        fetch(ba, ga, rb);
        fetch(bb, gb, rb);
        fetch(bc, gc, rb);
        char what[96];
        snprintf(what, sizeof what, "sparse_eval %s rows=%u round %d: a", cname(c), rows, round);
        expect_equal(c, what, ga, ra, rows);
        what[strlen(what) - 1] = 'b';
        expect_equal(c, what, gb, rbv, rows);
        what[strlen(what) - 1] = 'c';
        expect_equal(c, what, gc, rc, rows);
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
    static const size_t extra[] = {0, 7, 100, 1000, (1u << 10) + 3, (1u << 16) + 3,
                                   (1u << 20) + 3};
    struct sizes s;
    sizes_make(&s, extra, sizeof extra / sizeof extra[0]);
    for (int ci = 0; ci < 2; ci++) {
        double t0 = now_s();
        for (size_t i = 0; i < s.n; i++)
            eval_case(g_curves[ci], (uint32_t)s.v[i]);
        report("sparse_eval", g_curves[ci], &s, now_s() - t0, " (two witnesses each)");
    }
}

/* ---- quotient and to_canonical ------------------------------------------------------------- */

static void pointwise_sizes(struct sizes *s)
{
    size_t extra[40], ne = 0;
    extra[ne++] = 0;
    for (unsigned k = 1; k <= 20; k++)
        extra[ne++] = ((size_t)1 << k) + 3;
    extra[ne++] = 1000;
    extra[ne++] = ((size_t)1 << 20) - 1;
    sizes_make(s, extra, ne);
}

static void quotient_case(enum czk_groth16_curve c, size_t n)
{
    size_t bytes = n * 32;
    fr_t *a = rand_vec(c, n), *b = rand_vec(c, n), *cc = rand_vec(c, n);
    fr_t *ref = xmalloc(bytes), *got = xmalloc(bytes);
    uint64_t z[4];
    rand_fr(c, z);
    assert_true(czk_device_supports(g_dev, c, CZK_BACKEND_OP_QUOTIENT, 0));
    for (int withz = 0; withz < 2; withz++) {
        memcpy(ref, a, bytes);
        czk_cpu_quotient(c, ref, (const uint64_t(*)[4])b, (const uint64_t(*)[4])cc, n,
                         withz ? z : NULL, czk_backend_threads(g_cpu));
        czk_buf_t da = upload(a, bytes), db = upload(b, bytes), dc = upload(cc, bytes);
        assert_int_equal(czk_backend_quotient(g_gpu, c, da, db, dc, n, withz ? z : NULL), CZK_OK);
        memset(got, POISON, bytes);
        fetch(da, got, bytes);
        char what[96];
        snprintf(what, sizeof what, "quotient%s %s n=%zu", withz ? "/Z" : "", cname(c), n);
        expect_equal(c, what, got, ref, n);
        czk_buf_free(da), czk_buf_free(db), czk_buf_free(dc);
    }
    free(a), free(b), free(cc), free(ref), free(got);
}

static void test_quotient(void **state)
{
    (void)state;
    struct sizes s;
    pointwise_sizes(&s);
    for (int ci = 0; ci < 2; ci++) {
        double t0 = now_s();
        for (size_t i = 0; i < s.n; i++)
            quotient_case(g_curves[ci], s.v[i]);
        report("quotient", g_curves[ci], &s, now_s() - t0, " (with and without 1/Z)");
    }
}

static void to_canonical_case(enum czk_groth16_curve c, size_t n)
{
    size_t bytes = n * 32;
    fr_t *a = rand_vec(c, n), *ref = xmalloc(bytes), *got = xmalloc(bytes);
    memcpy(ref, a, bytes);
    czk_cpu_to_canonical(c, ref, n, czk_backend_threads(g_cpu));
    assert_true(czk_device_supports(g_dev, c, CZK_BACKEND_OP_TO_CANONICAL, 0));
    czk_buf_t da = upload(a, bytes);
    assert_int_equal(czk_backend_to_canonical(g_gpu, c, da, n), CZK_OK);
    memset(got, POISON, bytes);
    fetch(da, got, bytes);
    char what[96];
    snprintf(what, sizeof what, "to_canonical %s n=%zu", cname(c), n);
    expect_equal(c, what, got, ref, n);
    czk_buf_free(da);
    free(a), free(ref), free(got);
}

static void test_to_canonical(void **state)
{
    (void)state;
    struct sizes s;
    pointwise_sizes(&s);
    for (int ci = 0; ci < 2; ci++) {
        double t0 = now_s();
        for (size_t i = 0; i < s.n; i++)
            to_canonical_case(g_curves[ci], s.v[i]);
        report("to_canonical", g_curves[ci], &s, now_s() - t0, NULL);
    }
}

/* ---- MSM through the backend ------------------------------------------------------------------ */

/* Scalar-field arithmetic of a curve (Montgomery form), for the multipliers m_i of the bases. */
struct frops {
    void (*from_u64)(fr_t r, uint64_t v);
    void (*from_canonical)(fr_t r, const fr_t a);
    void (*to_canonical)(fr_t r, const fr_t a);
    void (*mul)(fr_t r, const fr_t a, const fr_t b);
    void (*add)(fr_t r, const fr_t a, const fr_t b);
    void (*neg)(fr_t r, const fr_t a);
};

#define FROPS(FR)                                                                                  \
    static void FR##_from_u64(fr_t r, uint64_t v) { czk_##FR##_from_u64((void *)r, v); }           \
    static void FR##_from_canonical(fr_t r, const fr_t a)                                          \
    {                                                                                              \
        assert_int_equal(czk_##FR##_from_canonical((void *)r, a), CZK_OK);                         \
    }                                                                                              \
    static void FR##_to_canonical(fr_t r, const fr_t a)                                            \
    {                                                                                              \
        czk_##FR##_to_canonical(r, (const void *)a);                                               \
    }                                                                                              \
    static void FR##_mul(fr_t r, const fr_t a, const fr_t b)                                       \
    {                                                                                              \
        czk_##FR##_mul((void *)r, (const void *)a, (const void *)b);                               \
    }                                                                                              \
    static void FR##_add(fr_t r, const fr_t a, const fr_t b)                                       \
    {                                                                                              \
        czk_##FR##_add((void *)r, (const void *)a, (const void *)b);                               \
    }                                                                                              \
    static void FR##_neg(fr_t r, const fr_t a) { czk_##FR##_neg((void *)r, (const void *)a); }     \
    static const struct frops FR##_ops = {FR##_from_u64, FR##_from_canonical, FR##_to_canonical,   \
                                          FR##_mul,      FR##_add,            FR##_neg};
FROPS(fr_bn254)
FROPS(fr_bls12_381)

/* One group: affine points in the zkey layout (infinity = zeros), Jacobian results. */
struct group {
    const char *op; /* "msm_g1", "msm_g2" */
    enum czk_groth16_curve curve;
    unsigned g; /* 1 or 2 */
    size_t aff_bytes, jac_bytes, coord_bytes;
    const struct frops *fr;
    /* aff[lo..hi) = (lo+1)·G .. hi·G by running sums; jac, coord: hi - lo scratch elements */
    void (*running)(uint8_t *aff, size_t lo, size_t hi, void *jac, void *coord);
    void (*mul_gen)(void *aff, const uint64_t k[4]); /* k·G, k canonical (any 256-bit integer) */
    void (*neg)(void *r, const void *p);
    void (*set_inf)(void *p);
    bool (*on_curve)(const void *aff);
    void (*to_affine)(void *aff, const void *jac);
};

#define GROUP(G, FP, CURVE, NUM, FR)                                                               \
    static void G##_running(uint8_t *aff, size_t lo, size_t hi, void *jac_v, void *coord)          \
    {                                                                                              \
        struct czk_##G *jac = jac_v, p, gj;                                                        \
        struct czk_##G##_affine g;                                                                 \
        const uint64_t k[1] = {(uint64_t)lo + 1};                                                  \
        czk_##G##_generator(&g);                                                                   \
        czk_##G##_from_affine(&gj, &g);                                                            \
        czk_##G##_mul_limbs(&p, &gj, k, 1);                                                        \
        for (size_t i = lo; i < hi; i++) {                                                         \
            jac[i - lo] = p;                                                                       \
            czk_##G##_add_affine(&p, &p, &g);                                                      \
        }                                                                                          \
        czk_##G##_batch_to_affine((struct czk_##G##_affine *)aff + lo, jac, hi - lo, coord);       \
    }                                                                                              \
    static void G##_mul_gen(void *aff, const uint64_t k[4])                                        \
    {                                                                                              \
        struct czk_##G##_affine g;                                                                 \
        struct czk_##G gj, r;                                                                      \
        czk_##G##_generator(&g);                                                                   \
        czk_##G##_from_affine(&gj, &g);                                                            \
        czk_##G##_mul_limbs(&r, &gj, k, 4);                                                        \
        czk_##G##_to_affine(aff, &r);                                                              \
    }                                                                                              \
    static void G##_neg(void *r, const void *p) { czk_##G##_affine_neg(r, p); }                    \
    static void G##_set_inf(void *p) { czk_##G##_affine_set_inf(p); }                              \
    static bool G##_on_curve(const void *p) { return czk_##G##_affine_on_curve(p); }               \
    static void G##_to_affine(void *aff, const void *jac) { czk_##G##_to_affine(aff, jac); }       \
    static const struct group G##_grp = {                                                          \
        .op = "msm_g" #NUM, .curve = CURVE, .g = NUM, .aff_bytes = sizeof(struct czk_##G##_affine), \
        .jac_bytes = sizeof(struct czk_##G), .coord_bytes = sizeof(struct czk_##FP),               \
        .fr = &FR##_ops, .running = G##_running, .mul_gen = G##_mul_gen, .neg = G##_neg,           \
        .set_inf = G##_set_inf, .on_curve = G##_on_curve, .to_affine = G##_to_affine};
GROUP(g1_bn254, fp_bn254, CZK_GROTH16_CURVE_BN254, 1, fr_bn254)
GROUP(g2_bn254, fp2_bn254, CZK_GROTH16_CURVE_BN254, 2, fr_bn254)
GROUP(g1_bls12_381, fp_bls12_381, CZK_GROTH16_CURVE_BLS12_381, 1, fr_bls12_381)
GROUP(g2_bls12_381, fp2_bls12_381, CZK_GROTH16_CURVE_BLS12_381, 2, fr_bls12_381)

#define JAC_MAX sizeof(struct czk_g2_bls12_381)
#define AFF_MAX sizeof(struct czk_g2_bls12_381_affine)
#define CHUNK 4096

struct running_ctx {
    const struct group *g;
    uint8_t *aff;
    fr_t *m;
    size_t n;
    uint8_t *jac, *coord; /* CHUNK elements per worker */
};

static void running_chunks(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct running_ctx *x = vctx;
    for (size_t ch = begin; ch < end; ch++) {
        size_t lo = ch * CHUNK, hi = lo + CHUNK < x->n ? lo + CHUNK : x->n;
        x->g->running(x->aff, lo, hi, x->jac + (size_t)worker * CHUNK * x->g->jac_bytes,
                      x->coord + (size_t)worker * CHUNK * x->g->coord_bytes);
        for (size_t i = lo; i < hi; i++)
            x->g->fr->from_u64(x->m[i], (uint64_t)i + 1);
    }
}

/*
 * n bases P_i = m_i·G with the m_i (Montgomery) in m: the running sums (i+1)·G, shuffled,
 * then infinities (m = 0), duplicates and negations of earlier bases and random multiples
 * k·G mixed in (fixed ones at 1, 2, 3 and 4..11 so that small sizes have them too).
 */
static void make_bases(const struct group *g, size_t n, uint8_t **aff_out, fr_t **m_out)
{
    uint8_t *aff = xmalloc(n * g->aff_bytes);
    fr_t *m = xmalloc(n * sizeof *m);
    unsigned threads = czk_threads_resolve(0);
    struct running_ctx x = {g, aff, m, n, xmalloc((size_t)threads * CHUNK * g->jac_bytes),
                            xmalloc((size_t)threads * CHUNK * g->coord_bytes)};
    czk_parallel_for((n + CHUNK - 1) / CHUNK, 1, threads, running_chunks, &x);
    free(x.jac);
    free(x.coord);
    uint8_t tmp[AFF_MAX];
    fr_t tm;
    size_t ab = g->aff_bytes;
    for (size_t i = n; i-- > 1;) { /* Fisher-Yates */
        size_t j = czk_test_rand64() % (i + 1);
        memcpy(tmp, aff + i * ab, ab), memcpy(aff + i * ab, aff + j * ab, ab);
        memcpy(aff + j * ab, tmp, ab);
        memcpy(tm, m[i], 32), memcpy(m[i], m[j], 32), memcpy(m[j], tm, 32);
    }
    for (size_t i = 1; i < n; i++) {
        uint64_t r = i <= 3 ? i : czk_test_rand64() % 256;
        size_t j = i <= 3 ? 0 : czk_test_rand64() % i;
        if (r == 1) { /* duplicate of an earlier base: P + P in a bucket */
            memcpy(aff + i * ab, aff + j * ab, ab);
            memcpy(m[i], m[j], 32);
        } else if (r == 2) { /* negation of an earlier base: P + (-P) */
            g->neg(aff + i * ab, aff + j * ab);
            g->fr->neg(m[i], m[j]);
        } else if (r == 3) { /* infinity */
            g->set_inf(aff + i * ab);
            memset(m[i], 0, 32);
        }
    }
    for (int q = 0; q < 16; q++) { /* random multiples k·G */
        size_t i = q < 8 ? 4 + (size_t)q : czk_test_rand64() % (n ? n : 1);
        if (i >= n)
            continue;
        fr_t k;
        rand_fr(g->curve, k);
        g->mul_gen(aff + i * ab, k);
        g->fr->from_canonical(m[i], k);
    }
    *aff_out = aff;
    *m_out = m;
}

/* off + n canonical scalars, uniform in [0, r) with special values sprinkled in */
static fr_t *msm_scalars(enum czk_groth16_curve c, size_t off, size_t n)
{
    fr_t *k = rand_vec(c, off + n);
    const uint64_t *r = modulus(c);
    for (size_t i = 0; i < n; i++) {
        uint64_t *v = k[off + i];
        switch (czk_test_rand64() % 48) {
        case 0: /* 0 */
            memset(v, 0, 32);
            break;
        case 1: /* 1 */
        case 2: /* 2 */
            memset(v, 0, 32);
            v[0] = 1 + (i & 1);
            break;
        case 3: /* r - 1, r - 2 */
            memcpy(v, r, 32);
            v[0] -= 1 + (i & 1); /* r is odd and its low limb is not 0 or 1 */
            break;
        case 4: /* small */
            memset(v, 0, 32);
            v[0] = czk_test_rand64() & 0xffff;
            break;
        case 5: /* a repeat of an earlier scalar */
        case 6:
            if (i)
                memcpy(v, k[off + czk_test_rand64() % i], 32);
            break;
        default:
            break;
        }
    }
    return k;
}

static unsigned lg_ceil(size_t n)
{
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

static enum czk_status msm_call(czk_backend_t be, const struct group *g, czk_buf_t bases,
                                czk_buf_t scalars, size_t off, size_t n, void *out)
{
    return g->g == 1 ? czk_backend_msm_g1(be, g->curve, bases, scalars, off, n, out)
                     : czk_backend_msm_g2(be, g->curve, bases, scalars, off, n, out);
}

static int all_poison(const uint8_t *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != POISON)
            return 0;
    return 1;
}

/* device and CPU over the first n bases; times accumulated into t[0] (device), t[1] (CPU) */
static void msm_case(const struct group *g, czk_buf_t gb, czk_buf_t cb, const fr_t *m, size_t n,
                     double t[2])
{
    enum czk_groth16_curve c = g->curve;
    size_t off = (size_t)(czk_test_rand64() % 4);
    fr_t *k = msm_scalars(c, off, n);
    czk_buf_t gs = NULL, cs = NULL;
    size_t sbytes = (off + n ? off + n : 1) * 32;
    assert_int_equal(czk_buf_from_host(g_gpu, k, sbytes, &gs), CZK_OK);
    assert_int_equal(czk_buf_from_host(g_cpu, k, sbytes, &cs), CZK_OK);
    assert_true(czk_device_supports(g_dev, c,
                                    g->g == 1 ? CZK_BACKEND_OP_MSM_G1 : CZK_BACKEND_OP_MSM_G2,
                                    lg_ceil(n)));
    uint8_t rd[JAC_MAX], rc[JAC_MAX], ad[AFF_MAX], ac[AFF_MAX], want[AFF_MAX];
    memset(rd, POISON, sizeof rd);
    memset(rc, POISON, sizeof rc);
    double t0 = now_s();
    enum czk_status st = msm_call(g_gpu, g, gb, gs, off, n, rd);
    double t1 = now_s();
    if (st != CZK_OK)
        fail_msg("%s %s n=%zu: device: %s", g->op, cname(c), n, czk_status_str(st));
    assert_int_equal(msm_call(g_cpu, g, cb, cs, off, n, rc), CZK_OK);
    t[0] += t1 - t0;
    t[1] += now_s() - t1;
    if (all_poison(rd, g->jac_bytes))
        fail_msg("%s %s n=%zu: the device did not write the result", g->op, cname(c), n);
    if (all_poison(rc, g->jac_bytes))
        fail_msg("%s %s n=%zu: the CPU did not write the result", g->op, cname(c), n);
    g->to_affine(ad, rd);
    g->to_affine(ac, rc);
    if (!g->on_curve(ad))
        fail_msg("%s %s n=%zu: the device result is not on the curve", g->op, cname(c), n);
    if (memcmp(ad, ac, g->aff_bytes))
        fail_msg("%s %s n=%zu (scalar offset %zu): device and CPU results differ", g->op,
                 cname(c), n, off);
    /* both against (sum k_i m_i mod r)·G */
    fr_t s, kk, prod;
    g->fr->from_u64(s, 0);
    for (size_t i = 0; i < n; i++) {
        g->fr->from_canonical(kk, k[off + i]);
        g->fr->mul(prod, kk, m[i]);
        g->fr->add(s, s, prod);
    }
    g->fr->to_canonical(kk, s);
    g->mul_gen(want, kk);
    if (memcmp(ac, want, g->aff_bytes))
        fail_msg("%s %s n=%zu: the result differs from (sum k_i m_i)·G", g->op, cname(c), n);
    czk_buf_free(gs), czk_buf_free(cs);
    free(k);
}

static void msm_group(const struct group *g)
{
    static const size_t extra[] = {0, 3, 5, 33, 1000, (1u << 12) + 3, (1u << 16) + 3,
                                   (1u << 20) + 3};
    struct sizes s;
    sizes_make(&s, extra, sizeof extra / sizeof extra[0]);
    size_t nmax = sizes_max(&s);
    double t0 = now_s(), t[2] = {0, 0};
    uint8_t *aff;
    fr_t *m;
    make_bases(g, nmax, &aff, &m);
    double t_bases = now_s() - t0;
    czk_buf_t gb = NULL, cb = NULL;
    assert_int_equal(czk_buf_from_host(g_gpu, aff, nmax * g->aff_bytes, &gb), CZK_OK);
    assert_int_equal(czk_buf_from_host(g_cpu, aff, nmax * g->aff_bytes, &cb), CZK_OK);
    for (size_t i = 0; i < s.n; i++)
        msm_case(g, gb, cb, (const fr_t *)m, s.v[i], t);
    czk_buf_free(gb), czk_buf_free(cb);
    free(aff), free(m);
    char more[128];
    snprintf(more, sizeof more, " (device %.2f s, CPU %.2f s, bases %.2f s)", t[0], t[1],
             t_bases);
    report(g->op, g->curve, &s, now_s() - t0, more);
}

static void test_msm_g1(void **state)
{
    (void)state;
    msm_group(&g1_bn254_grp);
    msm_group(&g1_bls12_381_grp);
}

static void test_msm_g2(void **state)
{
    (void)state;
    msm_group(&g2_bn254_grp);
    msm_group(&g2_bls12_381_grp);
}

/* ---- device, memory, errors ------------------------------------------------------------------- */

static void test_device(void **state)
{
    (void)state;
    if (!g_is_gpu)
        skip();
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
    if (!g_is_gpu)
        skip();
    struct czk_device_props p;
    czk_device_get_props(g_dev, &p);
    czk_buf_t b = NULL;
    /* more than the device has: reported as a device error, nothing crashes */
    assert_int_equal(czk_buf_alloc(g_dev, p.mem_total * 2, &b), CZK_ERR_DEVICE);
    assert_null(b);
    assert_int_equal(czk_buf_alloc(g_dev, SIZE_MAX / 2, &b), CZK_ERR_DEVICE);
    /* the device still works */
    assert_true(czk_device_supports(g_dev, CZK_GROTH16_CURVE_BN254, CZK_BACKEND_OP_NTT, 10));
    ntt_case(CZK_GROTH16_CURVE_BN254, 10, CZK_BACKEND_FORWARD, 1);
    /* a second context on the same device */
    czk_backend_t be2 = NULL;
    char err[256];
    assert_int_equal(czk_backend_new(g_dev, 2, &be2, err, sizeof err), CZK_OK);
    assert_string_equal(czk_backend_name(be2), czk_device_name(g_dev));
    czk_backend_free(be2);
}

int main(void)
{
    czk_test_seed_init(SUITE);
    const char *kind = getenv("CZK_TEST_BACKEND");
    if (!kind || !*kind)
        kind = "cuda";
    const char *lg = getenv("CZK_TEST_MAX_LG");
    if (lg && *lg) {
        unsigned long v = strtoul(lg, NULL, 10);
        g_max_lg = v < 20 ? (unsigned)v : 20;
    }
    char err[256] = "";
    czk_backend_reg_t reg = czk_backend_reg_by_name(kind);
    if (!reg || czk_backend_reg_device_count(reg) == 0) {
        printf(SUITE ": no %s backend or no usable device: skipped\n", kind);
        return 77;
    }
    g_dev = czk_backend_reg_device_get(reg, 0);
    struct czk_device_props p;
    czk_device_get_props(g_dev, &p);
    g_is_gpu = p.type == CZK_DEVICE_TYPE_GPU;
    if (czk_backend_new(g_dev, 0, &g_gpu, err, sizeof err) != CZK_OK ||
        czk_backend_init_by_name(&g_cpu, "cpu", 0, err, sizeof err) != CZK_OK) {
        printf(SUITE ": %s\n", err);
        return 1;
    }
    printf(SUITE ": device %s against the CPU backend (%u threads), sizes up to 2^%u\n",
           czk_device_name(g_dev), czk_backend_threads(g_cpu), g_max_lg);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device),      cmocka_unit_test(test_ntt),
        cmocka_unit_test(test_ntt_roundtrip), cmocka_unit_test(test_sparse_eval),
        cmocka_unit_test(test_quotient),    cmocka_unit_test(test_to_canonical),
        cmocka_unit_test(test_msm_g1),      cmocka_unit_test(test_msm_g2),
        cmocka_unit_test(test_oversized),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    czk_backend_free(g_gpu);
    czk_backend_free(g_cpu);
    return rc;
}
