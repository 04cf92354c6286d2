/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUDA field arithmetic and MSM against the host (label gpu).
 *
 * Field: every op of src/cuda/ff.cuh on all four prime fields and both Fp2, random and edge
 * values (0, 1, p-1, canonical 1), compared bit for bit with src/ff. The same device code also
 * runs on the host with emulated carry chains; that part runs even without a GPU (a failure there
 * fails the suite; otherwise the suite reports skipped when no GPU is present).
 * MSM: G1/G2 on both curves against czk_cpu_msm after conversion to affine, n = 0 ... 2^20,
 * random scalars, 0/1 mixes, duplicate and infinity bases; output poisoned first.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "czk/czk.h"
#include "czk/czk_ff.h"

#ifdef CZK_USE_CUDA
#include <unistd.h>

#include "backend/backend_impl.h"
#include "czk/czk_ec.h"
#include "cuda/field_bench.h"
#include "cuda/msm_cuda.h"

#include <cuda_runtime_api.h>

enum czk_status czk_cuda_device_count(int *count);

/* ---- host oracle ------------------------------------------------------------------------------ */
#define HOST_PRIME(F)                                                                              \
    static void host_##F(int op, uint64_t *r, const uint64_t *a, const uint64_t *b)                \
    {                                                                                              \
        struct czk_##F x, y, z;                                                                    \
        memcpy(x.l, a, sizeof x.l);                                                                \
        memcpy(y.l, b, sizeof y.l);                                                                \
        czk_##F##_zero(&z);                                                                        \
        switch (op) {                                                                              \
        case CZK_CUDA_OP_ADD: czk_##F##_add(&z, &x, &y); break;                                    \
        case CZK_CUDA_OP_SUB: czk_##F##_sub(&z, &x, &y); break;                                    \
        case CZK_CUDA_OP_NEG: czk_##F##_neg(&z, &x); break;                                        \
        case CZK_CUDA_OP_DBL: czk_##F##_dbl(&z, &x); break;                                        \
        case CZK_CUDA_OP_MUL:                                                                      \
        case CZK_CUDA_OP_MUL_ALT:                                                                  \
        case CZK_CUDA_OP_MUL_DFMA: czk_##F##_mul(&z, &x, &y); break;                               \
        case CZK_CUDA_OP_SQR: czk_##F##_sqr(&z, &x); break;                                        \
        case CZK_CUDA_OP_FROM_CANONICAL: assert_int_equal(czk_##F##_from_canonical(&z, x.l), CZK_OK); break; \
        case CZK_CUDA_OP_TO_CANONICAL: czk_##F##_to_canonical(z.l, &x); break;                     \
        case CZK_CUDA_OP_POW: {                                                                    \
            uint64_t e = (uint32_t)b[0];                                                           \
            czk_##F##_pow(&z, &x, &e, 1);                                                          \
            break;                                                                                 \
        }                                                                                          \
        case CZK_CUDA_OP_INV: czk_##F##_inv(&z, &x); break;                                        \
        case CZK_CUDA_OP_EQ: z.l[0] = czk_##F##_eq(&x, &y); break;                                 \
        case CZK_CUDA_OP_IS_ZERO: z.l[0] = czk_##F##_is_zero(&x); break;                           \
        case CZK_CUDA_OP_ONE: czk_##F##_one(&z); break;                                            \
        default: fail();                                                                           \
        }                                                                                          \
        memcpy(r, z.l, sizeof z.l);                                                                \
    }
HOST_PRIME(fr_bn254)
HOST_PRIME(fp_bn254)
HOST_PRIME(fr_bls12_381)
HOST_PRIME(fp_bls12_381)

#define HOST_EXT(F2, F)                                                                            \
    static void host_##F2(int op, uint64_t *r, const uint64_t *a, const uint64_t *b)               \
    {                                                                                              \
        const size_t w = sizeof(struct czk_##F) / 8;                                               \
        struct czk_##F2 x, y, z;                                                                   \
        memcpy(&x, a, sizeof x);                                                                   \
        memcpy(&y, b, sizeof y);                                                                   \
        czk_##F2##_zero(&z);                                                                       \
        switch (op) {                                                                              \
        case CZK_CUDA_OP_ADD: czk_##F2##_add(&z, &x, &y); break;                                   \
        case CZK_CUDA_OP_SUB: czk_##F2##_sub(&z, &x, &y); break;                                   \
        case CZK_CUDA_OP_NEG: czk_##F2##_neg(&z, &x); break;                                       \
        case CZK_CUDA_OP_DBL: czk_##F2##_dbl(&z, &x); break;                                       \
        case CZK_CUDA_OP_MUL:                                                                      \
        case CZK_CUDA_OP_MUL_ALT:                                                                  \
        case CZK_CUDA_OP_MUL_DFMA: czk_##F2##_mul(&z, &x, &y); break;                              \
        case CZK_CUDA_OP_SQR: czk_##F2##_sqr(&z, &x); break;                                       \
        case CZK_CUDA_OP_FROM_CANONICAL:                                                           \
        case CZK_CUDA_OP_TO_CANONICAL:                                                             \
            host_##F(op, z.c0.l, a, b);                                                            \
            host_##F(op, z.c1.l, a + w, b + w);                                                    \
            break;                                                                                 \
        case CZK_CUDA_OP_POW: {                                                                    \
            uint64_t e = (uint32_t)b[0];                                                           \
            czk_##F2##_pow(&z, &x, &e, 1);                                                         \
            break;                                                                                 \
        }                                                                                          \
        case CZK_CUDA_OP_INV: czk_##F2##_inv(&z, &x); break;                                       \
        case CZK_CUDA_OP_EQ: z.c0.l[0] = czk_##F2##_eq(&x, &y); break;                             \
        case CZK_CUDA_OP_IS_ZERO: z.c0.l[0] = czk_##F2##_is_zero(&x); break;                       \
        case CZK_CUDA_OP_ONE: czk_##F2##_one(&z); break;                                           \
        default: fail();                                                                           \
        }                                                                                          \
        memcpy(r, &z, sizeof z);                                                                   \
    }
HOST_EXT(fp2_bn254, fp_bn254)
HOST_EXT(fp2_bls12_381, fp_bls12_381)

struct field_info {
    const char *name;
    enum czk_cuda_field id;
    size_t w;       /* u64 per element */
    size_t prime_w; /* u64 per base-field coefficient */
    const uint64_t *(*modulus)(void);
    void (*host)(int op, uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*one)(uint64_t *r); /* Montgomery one of the base field */
};

#define ONE_FN(F)                                                                                  \
    static void one_##F(uint64_t *r)                                                               \
    {                                                                                              \
        struct czk_##F o;                                                                          \
        czk_##F##_one(&o);                                                                         \
        memcpy(r, o.l, sizeof o.l);                                                                \
    }
ONE_FN(fr_bn254)
ONE_FN(fp_bn254)
ONE_FN(fr_bls12_381)
ONE_FN(fp_bls12_381)

static const struct field_info fields[] = {
    {"fr_bn254", CZK_CUDA_FR_BN254, 4, 4, czk_fr_bn254_modulus, host_fr_bn254, one_fr_bn254},
    {"fp_bn254", CZK_CUDA_FP_BN254, 4, 4, czk_fp_bn254_modulus, host_fp_bn254, one_fp_bn254},
    {"fr_bls12_381", CZK_CUDA_FR_BLS12_381, 4, 4, czk_fr_bls12_381_modulus, host_fr_bls12_381,
     one_fr_bls12_381},
    {"fp_bls12_381", CZK_CUDA_FP_BLS12_381, 6, 6, czk_fp_bls12_381_modulus, host_fp_bls12_381,
     one_fp_bls12_381},
    {"fp2_bn254", CZK_CUDA_FP2_BN254, 8, 4, czk_fp_bn254_modulus, host_fp2_bn254, one_fp_bn254},
    {"fp2_bls12_381", CZK_CUDA_FP2_BLS12_381, 12, 6, czk_fp_bls12_381_modulus, host_fp2_bls12_381,
     one_fp_bls12_381},
};

/* a random value < p in w limbs */
static void rand_below(uint64_t *r, const uint64_t *p, size_t w)
{
    for (;;) {
        czk_test_rand_bytes(r, w * 8);
        r[w - 1] &= (~0ull) >> __builtin_clzll(p[w - 1]);
        for (size_t i = w; i-- > 0;) {
            if (r[i] != p[i]) {
                if (r[i] < p[i])
                    return;
                break;
            }
        }
    }
}

/* coefficient number k of the edge values: 0, Montgomery 1, p-1, canonical 1, p-2, random */
static void edge_coeff(uint64_t *r, const struct field_info *f, unsigned k)
{
    const uint64_t *p = f->modulus();
    size_t w = f->prime_w;
    memset(r, 0, w * 8);
    switch (k % 6) {
    case 0: break;
    case 1: f->one(r); break;
    case 2:
    case 4: { /* p - 1, p - 2 */
        uint64_t sub = (k % 6 == 2) ? 1 : 2, borrow = 0;
        memcpy(r, p, w * 8);
        for (size_t i = 0; i < w; i++) {
            uint64_t s = (i == 0 ? sub : 0) + borrow;
            borrow = r[i] < s;
            r[i] -= s;
        }
        break;
    }
    case 3: r[0] = 1; break;
    default: rand_below(r, p, w); break;
    }
}

/* n inputs: the first `edges` pairs run over all edge combinations, the rest random */
static void make_inputs(const struct field_info *f, uint64_t *a, uint64_t *b, size_t n)
{
    size_t per = f->w / f->prime_w, k = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < per; c++) {
            uint64_t *pa = a + i * f->w + c * f->prime_w, *pb = b + i * f->w + c * f->prime_w;
            if (i < 36 * per) {
                edge_coeff(pa, f, (unsigned)((k / 6) % 6));
                edge_coeff(pb, f, (unsigned)(k % 6));
                k++;
            } else {
                rand_below(pa, f->modulus(), f->prime_w);
                rand_below(pb, f->modulus(), f->prime_w);
            }
        }
        if (i % 7 == 3) /* equal operands for eq/sub */
            memcpy(b + i * f->w, a + i * f->w, f->w * 8);
    }
}

static const char *op_names[] = {"add",  "sub",  "neg",          "dbl",        "mul",
                                 "sqr",  "from_canonical", "to_canonical", "pow", "inv",
                                 "eq",   "is_zero",        "one",          "mul_alt",
                                 "mul_dfma"};
_Static_assert(sizeof op_names / sizeof op_names[0] == CZK_CUDA_OP_COUNT, "one name per field op");

static void check_fields(int on_host)
{
    size_t n = czk_test_cases(on_host ? 300 : 4000);
    if (n < 200)
        n = 200;
    for (size_t fi = 0; fi < sizeof fields / sizeof fields[0]; fi++) {
        const struct field_info *f = &fields[fi];
        uint64_t *a = malloc(n * f->w * 8), *b = malloc(n * f->w * 8), *got = malloc(n * f->w * 8),
                 *want = malloc(n * f->w * 8);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(got);
        assert_non_null(want);
        make_inputs(f, a, b, n);
        for (int op = 0; op < CZK_CUDA_OP_COUNT; op++) {
            size_t m = (op == CZK_CUDA_OP_INV || op == CZK_CUDA_OP_POW) ? (on_host ? 40 : n) : n;
            char err[256] = "";
            memset(got, 0x5a, n * f->w * 8);
            enum czk_status st = czk_cuda_test_field(f->id, (enum czk_cuda_field_op)op, a, b, got, m,
                                                     on_host, err, sizeof err);
            if (st != CZK_OK)
                fail_msg("%s %s: %s (%s)", f->name, op_names[op], czk_status_str(st), err);
            for (size_t i = 0; i < m; i++) {
                f->host(op, want + i * f->w, a + i * f->w, b + i * f->w);
                if (memcmp(want + i * f->w, got + i * f->w, f->w * 8) != 0) {
                    fprintf(stderr, "%s %s (%s) mismatch at %zu\n a =", f->name, op_names[op],
                            on_host ? "host emulation" : "device", i);
                    for (size_t j = 0; j < f->w; j++)
                        fprintf(stderr, " %016llx", (unsigned long long)a[i * f->w + j]);
                    fprintf(stderr, "\n b =");
                    for (size_t j = 0; j < f->w; j++)
                        fprintf(stderr, " %016llx", (unsigned long long)b[i * f->w + j]);
                    fprintf(stderr, "\n got =");
                    for (size_t j = 0; j < f->w; j++)
                        fprintf(stderr, " %016llx", (unsigned long long)got[i * f->w + j]);
                    fprintf(stderr, "\n want=");
                    for (size_t j = 0; j < f->w; j++)
                        fprintf(stderr, " %016llx", (unsigned long long)want[i * f->w + j]);
                    fprintf(stderr, "\n");
                    fail();
                }
            }
        }
        free(a);
        free(b);
        free(got);
        free(want);
    }
}

static void test_field_host_emulation(void **state)
{
    (void)state;
    check_fields(1);
}

static void test_field_device(void **state)
{
    (void)state;
    check_fields(0);
}

/* ---- MSM ------------------------------------------------------------------------------------------- */
#define MSM_MAX_LOG 20

struct group_info {
    const char *name;
    enum czk_groth16_curve curve;
    unsigned group;
    size_t aff_bytes, jac_bytes;
    const uint64_t *(*r)(void);
    void (*make_bases)(void *out, size_t n);
    void (*to_affine)(void *aff, const void *jac);
    void (*neg_affine)(void *p); /* p = -p in place */
};

/* random-looking bases: P_0 = k G, P_i = P_{i-1} + Q_{i mod 4} with random multiples Q_j of G */
#define GROUP_FNS(G, FR, F)                                                                        \
    static void G##_make_bases(void *out, size_t n)                                                \
    {                                                                                              \
        struct czk_##G##_affine g;                                                                 \
        struct czk_##G gj, q[4], cur;                                                              \
        struct czk_##G *tmp = malloc(n * sizeof *tmp);                                             \
        struct czk_##F *scr = malloc(n * sizeof *scr);                                             \
        assert_non_null(tmp);                                                                      \
        assert_non_null(scr);                                                                      \
        czk_##G##_generator(&g);                                                                   \
        czk_##G##_from_affine(&gj, &g);                                                            \
        for (int j = 0; j < 4; j++) {                                                              \
            uint64_t k[4];                                                                         \
            rand_below(k, czk_##FR##_modulus(), 4);                                                \
            czk_##G##_mul_limbs(&q[j], &gj, k, 4);                                                 \
        }                                                                                          \
        uint64_t k0[4];                                                                            \
        rand_below(k0, czk_##FR##_modulus(), 4);                                                   \
        czk_##G##_mul_limbs(&cur, &gj, k0, 4);                                                     \
        for (size_t i = 0; i < n; i++) {                                                           \
            tmp[i] = cur;                                                                          \
            czk_##G##_add(&cur, &cur, &q[i & 3]);                                                  \
        }                                                                                          \
        czk_##G##_batch_to_affine(out, tmp, n, scr);                                               \
        free(tmp);                                                                                 \
        free(scr);                                                                                 \
    }                                                                                              \
    static void G##_to_aff(void *aff, const void *jac) { czk_##G##_to_affine(aff, jac); }          \
    static void G##_neg_aff(void *p)                                                               \
    {                                                                                              \
        struct czk_##G##_affine a;                                                                 \
        memcpy(&a, p, sizeof a);                                                                   \
        czk_##G##_affine_neg(&a, &a);                                                              \
        memcpy(p, &a, sizeof a);                                                                   \
    }
GROUP_FNS(g1_bn254, fr_bn254, fp_bn254)
GROUP_FNS(g2_bn254, fr_bn254, fp2_bn254)
GROUP_FNS(g1_bls12_381, fr_bls12_381, fp_bls12_381)
GROUP_FNS(g2_bls12_381, fr_bls12_381, fp2_bls12_381)

static const struct group_info groups[] = {
    {"g1_bn254", CZK_GROTH16_CURVE_BN254, 1, sizeof(struct czk_g1_bn254_affine),
     sizeof(struct czk_g1_bn254), czk_fr_bn254_modulus, g1_bn254_make_bases, g1_bn254_to_aff, g1_bn254_neg_aff},
    {"g2_bn254", CZK_GROTH16_CURVE_BN254, 2, sizeof(struct czk_g2_bn254_affine),
     sizeof(struct czk_g2_bn254), czk_fr_bn254_modulus, g2_bn254_make_bases, g2_bn254_to_aff, g2_bn254_neg_aff},
    {"g1_bls12_381", CZK_GROTH16_CURVE_BLS12_381, 1, sizeof(struct czk_g1_bls12_381_affine),
     sizeof(struct czk_g1_bls12_381), czk_fr_bls12_381_modulus, g1_bls12_381_make_bases,
     g1_bls12_381_to_aff, g1_bls12_381_neg_aff},
    {"g2_bls12_381", CZK_GROTH16_CURVE_BLS12_381, 2, sizeof(struct czk_g2_bls12_381_affine),
     sizeof(struct czk_g2_bls12_381), czk_fr_bls12_381_modulus, g2_bls12_381_make_bases,
     g2_bls12_381_to_aff, g2_bls12_381_neg_aff},
};

static unsigned host_threads(void)
{
    long t = sysconf(_SC_NPROCESSORS_ONLN);
    return t > 0 ? (unsigned)t : 1;
}

/* GPU result == CPU result (compared as affine points); output poisoned first */
static void check_msm(const struct group_info *g, const void *bases, const uint64_t (*sc)[4], size_t n,
                      const char *what)
{
    uint8_t got[1024], want[1024], ga[512], wa[512];
    char err[256] = "";
    memset(got, 0xa5, sizeof got);
    memset(want, 0x5a, sizeof want);
    enum czk_status st = czk_cuda_msm_host(g->curve, g->group, bases, sc, n, got, 1, NULL, err, sizeof err);
    if (st != CZK_OK)
        fail_msg("%s %s n=%zu: %s (%s)", g->name, what, n, czk_status_str(st), err);
    assert_int_equal(czk_cpu_msm(g->curve, g->group, bases, sc, n, want, host_threads()), CZK_OK);
    memset(ga, 0x11, sizeof ga);
    memset(wa, 0x22, sizeof wa);
    g->to_affine(ga, got);
    g->to_affine(wa, want);
    if (memcmp(ga, wa, g->aff_bytes) != 0) {
        struct czk_cuda_msm_stats stt;
        czk_cuda_msm_last_stats(&stt);
        fail_msg("%s %s n=%zu: GPU MSM differs from the CPU (acc=%u lanes=%u c=%u windows=%u chunk=%u "
                 "levels=%u general=%zu ones=%zu)",
                 g->name, what, n, stt.acc, stt.lanes, stt.c, stt.windows, stt.chunk, stt.levels, stt.n_general,
                 stt.n_ones);
    }
}

/* every case with the accumulation forced to `acc` (CZK_MSM_ACC_XYZZ or _AFFINE) */
static void msm_group_acc(const struct group_info *g, unsigned acc)
{
    czk_cuda_msm_force_accumulation(acc);
    size_t nmax = (size_t)1 << MSM_MAX_LOG;
    uint8_t *bases = malloc(nmax * g->aff_bytes), *b2 = malloc(nmax * g->aff_bytes);
    uint64_t(*sc)[4] = malloc(nmax * sizeof *sc);
    assert_non_null(bases);
    assert_non_null(b2);
    assert_non_null(sc);
    g->make_bases(bases, nmax);
    for (size_t i = 0; i < nmax; i++)
        rand_below(sc[i], g->r(), 4);

    /* sizes: random scalars */
    static const size_t small[] = {0, 1, 2, 3, 5, 31, 100, 1000, 4097};
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++)
        check_msm(g, bases, (const uint64_t(*)[4])sc, small[k], "random");
    for (unsigned lg = 4; lg <= MSM_MAX_LOG; lg += 2)
        check_msm(g, bases, (const uint64_t(*)[4])sc, (size_t)1 << lg, "random");

    /* 0/1/r-1/2 mixes with duplicate and infinity bases */
    size_t nm = (size_t)1 << 16;
    uint64_t(*mix)[4] = malloc(nm * sizeof *mix);
    assert_non_null(mix);
    memcpy(b2, bases, nm * g->aff_bytes);
    for (size_t i = 0; i < nm; i++) {
        memcpy(mix[i], sc[i], 32);
        switch (i % 7) {
        case 0:
        case 1: memset(mix[i], 0, 32); break;
        case 2: memset(mix[i], 0, 32), mix[i][0] = 1; break;
        case 3: memcpy(mix[i], g->r(), 32), mix[i][0] -= 1; break; /* r - 1: r is odd */
        case 4: if (i % 3 == 0) memset(mix[i], 0, 32), mix[i][0] = 2; break;
        default: break;
        }
        if (i % 11 == 5)
            memcpy(b2 + i * g->aff_bytes, b2 + (i / 2) * g->aff_bytes, g->aff_bytes); /* duplicate */
        if (i % 13 == 6)
            memset(b2 + i * g->aff_bytes, 0, g->aff_bytes); /* infinity */
        if (i % 17 == 3) { /* P and -P with the same scalar: they cancel in every bucket */
            memcpy(b2 + i * g->aff_bytes, b2 + (i - 1) * g->aff_bytes, g->aff_bytes);
            g->neg_affine(b2 + i * g->aff_bytes);
            memcpy(mix[i], mix[i - 1], 32);
        }
    }
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++)
        check_msm(g, b2, (const uint64_t(*)[4])mix, small[k], "mixed");
    check_msm(g, b2, (const uint64_t(*)[4])mix, nm, "mixed");
    /* only zeros and ones */
    for (size_t i = 0; i < nm; i++) {
        memset(mix[i], 0, 32);
        mix[i][0] = (i * 2654435761u >> 7) & 1;
    }
    check_msm(g, b2, (const uint64_t(*)[4])mix, nm, "zeros+ones");
    memset(mix, 0, nm * sizeof *mix);
    check_msm(g, b2, (const uint64_t(*)[4])mix, nm, "all zero");
    /* one scalar for every point: every window is one huge bucket (multi-pass accumulation) */
    for (size_t i = 0; i < nm; i++)
        memcpy(mix[i], sc[7], 32);
    check_msm(g, bases, (const uint64_t(*)[4])mix, nm, "equal scalars");
    /* small scalars: few buckets, long runs */
    for (size_t i = 0; i < nm; i++) {
        memset(mix[i], 0, 32);
        mix[i][0] = 2 + i % 5;
    }
    check_msm(g, bases, (const uint64_t(*)[4])mix, nm, "small scalars");
    /* the same point everywhere (doublings inside buckets) */
    for (size_t i = 0; i < 4096; i++)
        memcpy(b2 + i * g->aff_bytes, bases, g->aff_bytes);
    check_msm(g, b2, (const uint64_t(*)[4])sc, 4096, "one base");
    /* every window width */
    static const unsigned cs[] = {2, 3, 4, 5, 7, 8, 11, 13, 16, 17, 19, 20};
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        czk_cuda_msm_force_window(cs[k]);
        check_msm(g, bases, (const uint64_t(*)[4])sc, 3000, "forced window");
        check_msm(g, b2, (const uint64_t(*)[4])sc, 3000, "forced window, one base");
    }
    czk_cuda_msm_force_window(0);
    czk_cuda_msm_force_accumulation(0);
    free(mix);
    free(bases);
    free(b2);
    free(sc);
}

static void msm_group(const struct group_info *g)
{
    msm_group_acc(g, CZK_MSM_ACC_XYZZ);
    msm_group_acc(g, CZK_MSM_ACC_AFFINE);
    msm_group_acc(g, CZK_MSM_ACC_TREE);
}

/* The batch-affine lane code and the tree's level code run on the host (no GPU) against the
 * CPU MSM: random points, one repeated base (P + P and P - P inside lanes and in every tree
 * level), P/-P pairs with equal scalars (infinite sums in the lists), long runs of few buckets
 * (heads and tails across lanes, deep trees), with small lane, step, thread and batch counts and
 * window groups of 1 to all windows. */
/* the host-run result `got` (status st) against the CPU MSM, compared in affine form */
static void check_host_result(const struct group_info *g, const void *bases, const uint64_t (*sc)[4], size_t n,
                              enum czk_status st, const uint8_t *got, const char *err, const char *what,
                              const char *params)
{
    uint8_t want[512], ga[256], wa[256];
    if (st != CZK_OK)
        fail_msg("%s %s: %s (%s)", g->name, what, czk_status_str(st), err);
    memset(want, 0x5a, sizeof want);
    assert_int_equal(czk_cpu_msm(g->curve, g->group, bases, sc, n, want, host_threads()), CZK_OK);
    g->to_affine(ga, got);
    g->to_affine(wa, want);
    if (memcmp(ga, wa, g->aff_bytes) != 0)
        fail_msg("%s %s n=%zu %s: host MSM differs from the CPU", g->name, what, n, params);
}

static void affine_host_case(const struct group_info *g, const void *bases, const uint64_t (*sc)[4], size_t n,
                             unsigned c, unsigned lanes, unsigned steps, const char *what)
{
    uint8_t got[512];
    char err[256] = "", params[96];
    memset(got, 0xa5, sizeof got);
    enum czk_status st = czk_cuda_msm_affine_host_check(g->curve, bases, sc, n, c, lanes, steps, got, err, sizeof err);
    snprintf(params, sizeof params, "batch-affine lanes: c=%u lanes=%u steps=%u", c, lanes, steps);
    check_host_result(g, bases, sc, n, st, got, err, what, params);
}

static void tree_host_case(const struct group_info *g, const void *bases, const uint64_t (*sc)[4], size_t n,
                           unsigned c, unsigned group, unsigned threads, unsigned batch, const char *what)
{
    uint8_t got[512];
    char err[256] = "", params[96];
    memset(got, 0xa5, sizeof got);
    enum czk_status st =
        czk_cuda_msm_tree_host_check(g->curve, bases, sc, n, c, group, threads, batch, got, err, sizeof err);
    snprintf(params, sizeof params, "tree: c=%u group=%u threads=%u batch=%u", c, group, threads, batch);
    check_host_result(g, bases, sc, n, st, got, err, what, params);
}

/* both batch-affine accumulations on one input: lanes (c, lanes, steps), tree (c, windows per
 * group, threads, items per thread and round) */
static void host_cases(const struct group_info *g, const void *bases, const uint64_t (*sc)[4], size_t n, unsigned c,
                       unsigned lanes, unsigned steps, unsigned group, unsigned threads, unsigned batch,
                       const char *what)
{
    affine_host_case(g, bases, sc, n, c, lanes, steps, what);
    tree_host_case(g, bases, sc, n, c, group, threads, batch, what);
}

static void test_msm_affine_host(void **state)
{
    (void)state;
    const size_t n = 400;
    for (unsigned gi = 0; gi < 4; gi += 2) {
        const struct group_info *g = &groups[gi];
        uint8_t *bases = malloc(n * g->aff_bytes), *b2 = malloc(n * g->aff_bytes);
        uint64_t(*sc)[4] = malloc(n * sizeof *sc), (*s2)[4] = malloc(n * sizeof *s2);
        assert_non_null(bases);
        assert_non_null(b2);
        assert_non_null(sc);
        assert_non_null(s2);
        g->make_bases(bases, n);
        for (size_t i = 0; i < n; i++) {
            rand_below(sc[i], g->r(), 4);
            sc[i][0] |= 2; /* > 1 */
        }
        host_cases(g, bases, (const uint64_t(*)[4])sc, n, 6, 8, 5, 3, 16, 4, "random");
        host_cases(g, bases, (const uint64_t(*)[4])sc, n, 9, 3, 1, 100, 7, 1000, "random, one step");
        tree_host_case(g, bases, (const uint64_t(*)[4])sc, n, 3, 1, 1, 1, "tree: one thread, one item");
        for (size_t i = 0; i < n; i++)
            memcpy(b2 + i * g->aff_bytes, bases, g->aff_bytes);
        host_cases(g, b2, (const uint64_t(*)[4])sc, n, 5, 4, 7, 2, 5, 9, "one base");
        memcpy(b2, bases, n * g->aff_bytes);
        memcpy(s2, sc, n * sizeof *sc);
        for (size_t i = 1; i < n; i += 2) { /* P_i = -P_(i-1), same scalar: they cancel */
            memcpy(b2 + i * g->aff_bytes, b2 + (i - 1) * g->aff_bytes, g->aff_bytes);
            g->neg_affine(b2 + i * g->aff_bytes);
            memcpy(s2[i], s2[i - 1], 32);
        }
        host_cases(g, b2, (const uint64_t(*)[4])s2, n, 7, 8, 3, 4, 11, 6, "P and -P");
        for (size_t i = 0; i < n; i++) {
            memset(s2[i], 0, 32);
            s2[i][0] = 2 + i % 5;
        }
        host_cases(g, bases, (const uint64_t(*)[4])s2, n, 4, 16, 3, 5, 3, 2, "small scalars, long runs");
        host_cases(g, bases, (const uint64_t(*)[4])s2, n, 4, 2, 40, 1, 64, 64, "small scalars, long lanes");
        free(bases);
        free(b2);
        free(sc);
        free(s2);
    }
}

/* The window combination's one-warp point operations, run on the host, against the one-thread
 * XYZZ operations (bit for bit), on all four groups. */
static void test_msm_team_host(void **state)
{
    (void)state;
    const size_t n = 12;
    for (unsigned gi = 0; gi < 4; gi++) {
        const struct group_info *g = &groups[gi];
        void *bases = malloc(n * g->aff_bytes);
        assert_non_null(bases);
        g->make_bases(bases, n);
        char err[256] = "";
        enum czk_status st = czk_cuda_msm_team_host_check(g->curve, g->group, bases, n, err, sizeof err);
        free(bases);
        if (st != CZK_OK)
            fail_msg("%s: %s (%s)", g->name, czk_status_str(st), err);
    }
    char err[256] = "";
    uint8_t one[256] = {0};
    assert_int_equal(czk_cuda_msm_team_host_check(CZK_GROTH16_CURVE_BN254, 3, one, 2, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_cuda_msm_team_host_check(CZK_GROTH16_CURVE_BN254, 1, one, 1, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
}

static void test_msm_g1_bn254(void **state) { (void)state; msm_group(&groups[0]); }
static void test_msm_g2_bn254(void **state) { (void)state; msm_group(&groups[1]); }
static void test_msm_g1_bls12_381(void **state) { (void)state; msm_group(&groups[2]); }
static void test_msm_g2_bls12_381(void **state) { (void)state; msm_group(&groups[3]); }

/* The plan follows the scratch: BN254 G2 at 2^21 points has at least 13 windows, so 2^24+ sorted
 * entries, where the automatic choice is the tree when the scratch holds B = 4096 and XYZZ in the
 * least scratch; both give the CPU's result, and a scratch below the least is refused (out untouched). */
static void test_msm_plan_by_scratch(void **state)
{
    (void)state;
    const struct group_info *g = &groups[1];
    const size_t n = (size_t)1 << 21;
    uint8_t *bases = malloc(n * g->aff_bytes), got[512], want[512], ga[256], wa[256];
    uint64_t(*sc)[4] = malloc(n * sizeof *sc);
    void *d_bases = NULL, *d_sc = NULL, *scr = NULL;
    char err[256] = "";
    assert_non_null(bases);
    assert_non_null(sc);
    g->make_bases(bases, n);
    for (size_t i = 0; i < n; i++)
        rand_below(sc[i], g->r(), 4);
    assert_int_equal(czk_cpu_msm(g->curve, g->group, bases, (const uint64_t(*)[4])sc, n, want, host_threads()), CZK_OK);
    g->to_affine(wa, want);
    assert_int_equal(cudaMalloc(&d_bases, n * g->aff_bytes), cudaSuccess);
    assert_int_equal(cudaMalloc(&d_sc, n * 32), cudaSuccess);
    assert_int_equal(cudaMemcpy(d_bases, bases, n * g->aff_bytes, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(d_sc, sc, n * 32, cudaMemcpyHostToDevice), cudaSuccess);
    const bool tuned = getenv("CZK_MSM_ACC") || getenv("CZK_MSM_TREE_B");
    const size_t least = czk_cuda_msm_scratch_bytes(g->curve, g->group, n);
    const size_t most = czk_cuda_msm_scratch_fit(g->curve, g->group, n, SIZE_MAX);
    assert_true(least > 0);
    assert_true(tuned || most > least);
    assert_int_equal(czk_cuda_msm_scratch_fit(g->curve, g->group, n, least), least);
    assert_int_equal(czk_cuda_msm_scratch_fit(g->curve, g->group, n, least - 1), least);
    assert_int_equal(cudaMalloc(&scr, most), cudaSuccess);
    const size_t sizes[2] = {least, most};
    const unsigned accs[2] = {CZK_MSM_ACC_XYZZ, CZK_MSM_ACC_TREE};
    for (int k = 0; k < 2; k++) {
        struct czk_cuda_msm_stats stt;
        memset(got, 0xa5, sizeof got);
        enum czk_status st =
            czk_cuda_msm(NULL, g->curve, g->group, d_bases, d_sc, n, got, scr, sizes[k], err, sizeof err);
        if (st != CZK_OK)
            fail_msg("scratch %zu: %s (%s)", sizes[k], czk_status_str(st), err);
        czk_cuda_msm_last_stats(&stt);
        assert_true(stt.scratch == sizes[k]);
        if (!tuned) { /* the environment's CZK_MSM_ACC / CZK_MSM_TREE_B would fix the plan */
            assert_int_equal(stt.acc, accs[k]);
            if (k == 1)
                assert_int_equal(stt.chunk, 4096);
        }
        memset(ga, 0x11, sizeof ga);
        g->to_affine(ga, got);
        if (memcmp(ga, wa, g->aff_bytes) != 0)
            fail_msg("scratch %zu (acc %u): GPU MSM differs from the CPU", sizes[k], stt.acc);
    }
    memset(got, 0xa5, sizeof got);
    assert_int_equal(czk_cuda_msm(NULL, g->curve, g->group, d_bases, d_sc, n, got, scr, least - 1, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "below the least"));
    assert_int_equal(got[0], 0xa5); /* out untouched */
    cudaFree(scr);
    cudaFree(d_sc);
    cudaFree(d_bases);
    free(bases);
    free(sc);
}

static void test_msm_bad_args(void **state)
{
    (void)state;
    uint8_t out[512];
    char err[128];
    assert_int_equal(czk_cuda_msm(NULL, CZK_GROTH16_CURVE_BN254, 3, NULL, NULL, 0, out, NULL, 0, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_cuda_msm(NULL, CZK_GROTH16_CURVE_NONE, 1, NULL, NULL, 0, out, NULL, 0, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_cuda_msm(NULL, CZK_GROTH16_CURVE_BN254, 1, NULL, NULL, 5, out, NULL, 0, err, sizeof err),
                     CZK_ERR_INVALID_ARG);
    assert_true(czk_cuda_msm_scratch_bytes(CZK_GROTH16_CURVE_BN254, 1, 1000) > 0);
    assert_int_equal(czk_cuda_msm_scratch_bytes(CZK_GROTH16_CURVE_BN254, 3, 1000), 0);
}

/* The reserve czk_cuda_msm_room keeps out of the free device memory: a sixteenth of the
 * device, at least 256 MiB (host arithmetic). */
static void test_msm_room(void **state)
{
    (void)state;
    const size_t G = (size_t)1 << 30;
    assert_int_equal(czk_cuda_msm_room(100 * G, 128 * G), 100 * G - 8 * G);
    assert_int_equal(czk_cuda_msm_room(3 * G, 2 * G), 3 * G - ((size_t)256 << 20));
    assert_int_equal(czk_cuda_msm_room(G / 8, 2 * G), 0);
}

/* The scratch plan from the device's room and a budget's spare bytes (the sizes come from
 * CUB's temporary-storage queries, so this needs a device): no spare = the least plan,
 * whatever the room; a spare that covers the fastest plan's extra = the fastest plan the room
 * holds; a spare below the next plan's extra = a plan within least + spare. For both groups of
 * both curves at sizes where the plans differ (G1 from 2^27 sorted entries, G2 from 2^24). */
static void test_msm_scratch_plan(void **state)
{
    (void)state;
    const enum czk_groth16_curve cv[2] = {CZK_GROTH16_CURVE_BN254, CZK_GROTH16_CURVE_BLS12_381};
    for (int c = 0; c < 2; c++)
        for (unsigned grp = 1; grp <= 2; grp++) {
            const size_t n = grp == 1 ? (size_t)1 << 24 : (size_t)1 << 21;
            const size_t least = czk_cuda_msm_scratch_bytes(cv[c], grp, n);
            const size_t most = czk_cuda_msm_scratch_fit(cv[c], grp, n, SIZE_MAX);
            assert_true(least > 0 && most > least);
            assert_int_equal(czk_cuda_msm_scratch_plan(cv[c], grp, n, SIZE_MAX, 0), least);
            assert_int_equal(czk_cuda_msm_scratch_plan(cv[c], grp, n, 0, SIZE_MAX), least);
            assert_int_equal(czk_cuda_msm_scratch_plan(cv[c], grp, n, SIZE_MAX, SIZE_MAX), most);
            assert_int_equal(czk_cuda_msm_scratch_plan(cv[c], grp, n, most, most - least), most);
            assert_int_equal(czk_cuda_msm_scratch_plan(cv[c], grp, n, most - 1, SIZE_MAX),
                             czk_cuda_msm_scratch_fit(cv[c], grp, n, most - 1));
            const size_t spare = (most - least) / 2;
            const size_t mid = czk_cuda_msm_scratch_plan(cv[c], grp, n, SIZE_MAX, spare);
            assert_true(mid >= least && mid <= least + spare);
            print_message("%s G%u n=%zu: least %zu MiB, fastest %zu MiB, spare %zu MiB -> %zu MiB\n",
                          c ? "BLS12-381" : "BN254", grp, n, least >> 20, most >> 20, spare >> 20, mid >> 20);
        }
}
#endif /* CZK_USE_CUDA */

/* --host-only: the host emulation group alone (CI, no GPU) */
int main(int argc, char **argv)
{
    const bool host_only = argc > 1 && strcmp(argv[1], "--host-only") == 0;
    if (argc > 1 && !host_only) {
        fprintf(stderr, "usage: test_cuda_msm [--host-only]\n");
        return 2;
    }
#ifdef CZK_USE_CUDA
    czk_test_seed_init("test_cuda_msm");
    int n_dev = 0;
    const struct CMUnitTest host_tests[] = {cmocka_unit_test(test_field_host_emulation),
                                            cmocka_unit_test(test_msm_affine_host),
                                            cmocka_unit_test(test_msm_team_host),
                                            cmocka_unit_test(test_msm_room)};
    int rc = cmocka_run_group_tests_name("cuda_host_emulation", host_tests, NULL, NULL);
    if (rc != 0 || host_only)
        return rc;
    if (czk_cuda_device_count(&n_dev) != CZK_OK || n_dev == 0) {
        printf("test_cuda_msm: no CUDA device: device tests skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_device),       cmocka_unit_test(test_msm_bad_args),
        cmocka_unit_test(test_msm_plan_by_scratch), cmocka_unit_test(test_msm_scratch_plan),
        cmocka_unit_test(test_msm_g1_bn254),       cmocka_unit_test(test_msm_g1_bls12_381),
        cmocka_unit_test(test_msm_g2_bn254),       cmocka_unit_test(test_msm_g2_bls12_381),
    };
    return cmocka_run_group_tests_name("cuda_device", tests, NULL, NULL);
#else
    printf("test_cuda_msm: built without CUDA: skipped\n");
    return 77;
#endif
}
