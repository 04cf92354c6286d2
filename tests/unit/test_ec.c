/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the four elliptic-curve groups of src/ec/ (G1/G2 of BN254 and BLS12-381).
 *
 * The oracle is an affine chord-and-tangent implementation over GMP written here
 * (Fp and Fp2 = Fp[u]/(u^2 + 1), the curve constant b derived from its definition, not
 * read from libczk), plus known answers computed with @noble/curves 2.0.1
 * ([k]G for k = 2^200 + 0xdeadbeef) and the standard generators. Cofactors, h_eff and
 * the endomorphism constants are recomputed here from the curve parameter x with GMP.
 *
 * The groups are driven through a table of wrappers (struct grp), so every check runs on
 * all four groups. Inputs are seeded random (CZK_TEST_SEED replays a run).
 */
#include "test_util.h"

#include <gmp.h>
#include <string.h>

#include "czk/czk_ec.h"
#include "curves/bls12_381.h"
#include "curves/bn254.h"

/* Big enough for a Jacobian point of G2 over BLS12-381 (3 x 2 x 6 limbs). */
struct pt {
    uint64_t w[36];
};

typedef mpz_t rfe[2]; /* reference Fp2 element c0 + c1 u (c1 = 0 for Fp) */

struct rpt {
    int inf;
    rfe x, y;
};

struct grp {
    const char *name;
    int nf;  /* coordinate field degree over Fp */
    int fpl; /* limbs of an Fp element */
    size_t aff_size, jac_size;
    void (*fp_to_mpz)(mpz_t r, const uint64_t *fe);
    void (*fp_from_mpz)(uint64_t *fe, const mpz_t v);
    const uint64_t *(*fp_modulus)(void);
    const uint64_t *(*fr_modulus)(void);
    void (*generator)(void *p);
    bool (*affine_is_inf)(const void *p);
    void (*affine_set_inf)(void *p);
    bool (*on_curve)(const void *p);
    bool (*in_subgroup)(const void *p);
    bool (*in_subgroup_slow)(const void *p);
    bool (*affine_eq)(const void *a, const void *b);
    void (*affine_neg)(void *r, const void *p);
    bool (*from_x)(void *p, const void *x, bool gt_half);
    void (*from_affine)(void *r, const void *p);
    void (*to_affine)(void *r, const void *p);
    void (*batch_to_affine)(void *out, const void *in, size_t n, void *scratch);
    void (*set_inf)(void *p);
    bool (*is_inf)(const void *p);
    bool (*eq)(const void *a, const void *b);
    void (*add)(void *r, const void *a, const void *b);
    void (*add_ct)(void *r, const void *a, const void *b);
    void (*add_affine)(void *r, const void *a, const void *b);
    void (*sub)(void *r, const void *a, const void *b);
    void (*dbl)(void *r, const void *a);
    void (*neg)(void *r, const void *a);
    void (*mul)(void *r, const void *p, const uint64_t k[4]);
    void (*mul_ct)(void *r, const void *p, const uint64_t k[4]);
    void (*mul_limbs)(void *r, const void *p, const uint64_t *k, size_t n);
    void (*clear_cofactor)(void *r, const void *p);
    const uint64_t *(*order_limbs)(size_t *n);
    const uint64_t *(*cofactor_limbs)(size_t *n);
    void (*rescale)(void *p, const void *lambda);
    void (*endo)(void *r, const void *p); /* psi / phi on affine points (NULL: none) */
    const char *gen_hex[4];               /* x.c0, x.c1, y.c0, y.c1 (G1: x, y) */
    const char *kat_hex[4];               /* [2^200 + 0xdeadbeef] G, same layout */
    /* filled in by setup_groups() */
    mpz_t p, r, h, heff, endo_ev;
    rfe b;
};

/* ---- wrappers ------------------------------------------------------------------------------- */

#define FP_HELPERS(F, N)                                                                           \
    static void F##_to_mpz(mpz_t r, const uint64_t *fe)                                            \
    {                                                                                              \
        uint64_t l[N];                                                                             \
        struct czk_##F t;                                                                          \
        memcpy(t.l, fe, sizeof t.l);                                                               \
        czk_##F##_to_canonical(l, &t);                                                             \
        mpz_import(r, N, -1, 8, 0, 0, l);                                                          \
    }                                                                                              \
    static void F##_from_mpz(uint64_t *fe, const mpz_t v)                                          \
    {                                                                                              \
        uint64_t l[N] = {0};                                                                       \
        struct czk_##F t;                                                                          \
        assert_true(mpz_sizeinbase(v, 2) <= 64 * N);                                               \
        mpz_export(l, NULL, -1, 8, 0, 0, v);                                                       \
        assert_int_equal(czk_##F##_from_canonical(&t, l), CZK_OK);                                 \
        memcpy(fe, t.l, sizeof t.l);                                                               \
    }

FP_HELPERS(fp_bn254, 4)
FP_HELPERS(fp_bls12_381, 6)

#define GROUP_WRAPPERS(G, F, FR)                                                                   \
    static void G##_generator_w(void *p) { czk_##G##_generator(p); }                               \
    static bool G##_affine_is_inf_w(const void *p) { return czk_##G##_affine_is_inf(p); }          \
    static void G##_affine_set_inf_w(void *p) { czk_##G##_affine_set_inf(p); }                     \
    static bool G##_on_curve_w(const void *p) { return czk_##G##_affine_on_curve(p); }             \
    static bool G##_in_subgroup_w(const void *p) { return czk_##G##_affine_in_subgroup(p); }       \
    static bool G##_in_subgroup_slow_w(const void *p)                                              \
    {                                                                                              \
        return czk_##G##_affine_in_subgroup_slow(p);                                               \
    }                                                                                              \
    static bool G##_affine_eq_w(const void *a, const void *b)                                      \
    {                                                                                              \
        return czk_##G##_affine_eq(a, b);                                                          \
    }                                                                                              \
    static void G##_affine_neg_w(void *r, const void *p) { czk_##G##_affine_neg(r, p); }           \
    static bool G##_from_x_w(void *p, const void *x, bool s)                                       \
    {                                                                                              \
        return czk_##G##_affine_from_x(p, x, s);                                                   \
    }                                                                                              \
    static void G##_from_affine_w(void *r, const void *p) { czk_##G##_from_affine(r, p); }         \
    static void G##_to_affine_w(void *r, const void *p) { czk_##G##_to_affine(r, p); }             \
    static void G##_batch_w(void *o, const void *i, size_t n, void *s)                             \
    {                                                                                              \
        czk_##G##_batch_to_affine(o, i, n, s);                                                     \
    }                                                                                              \
    static void G##_set_inf_w(void *p) { czk_##G##_set_inf(p); }                                   \
    static bool G##_is_inf_w(const void *p) { return czk_##G##_is_inf(p); }                        \
    static bool G##_eq_w(const void *a, const void *b) { return czk_##G##_eq(a, b); }              \
    static void G##_add_w(void *r, const void *a, const void *b) { czk_##G##_add(r, a, b); }       \
    static void G##_add_ct_w(void *r, const void *a, const void *b) { czk_##G##_add_ct(r, a, b); } \
    static void G##_add_affine_w(void *r, const void *a, const void *b)                            \
    {                                                                                              \
        czk_##G##_add_affine(r, a, b);                                                             \
    }                                                                                              \
    static void G##_sub_w(void *r, const void *a, const void *b) { czk_##G##_sub(r, a, b); }       \
    static void G##_dbl_w(void *r, const void *a) { czk_##G##_dbl(r, a); }                         \
    static void G##_neg_w(void *r, const void *a) { czk_##G##_neg(r, a); }                         \
    static void G##_mul_w(void *r, const void *p, const uint64_t k[4])                             \
    {                                                                                              \
        struct czk_##FR s;                                                                         \
        assert_int_equal(czk_##FR##_from_canonical(&s, k), CZK_OK);                                \
        czk_##G##_mul(r, p, &s);                                                                   \
    }                                                                                              \
    static void G##_mul_ct_w(void *r, const void *p, const uint64_t k[4])                          \
    {                                                                                              \
        struct czk_##FR s;                                                                         \
        assert_int_equal(czk_##FR##_from_canonical(&s, k), CZK_OK);                                \
        czk_##G##_mul_ct(r, p, &s);                                                                \
    }                                                                                              \
    static void G##_mul_limbs_w(void *r, const void *p, const uint64_t *k, size_t n)               \
    {                                                                                              \
        czk_##G##_mul_limbs(r, p, k, n);                                                           \
    }                                                                                              \
    static void G##_clear_w(void *r, const void *p) { czk_##G##_clear_cofactor(r, p); }            \
    static void G##_rescale_w(void *pv, const void *lv)                                            \
    {                                                                                              \
        /* (X, Y, Z) -> (l^2 X, l^3 Y, l Z): the same projective point */                          \
        struct czk_##G *p = pv;                                                                    \
        const struct czk_##F *l = lv;                                                              \
        struct czk_##F l2, l3;                                                                     \
        czk_##F##_sqr(&l2, l);                                                                     \
        czk_##F##_mul(&l3, &l2, l);                                                                \
        czk_##F##_mul(&p->x, &p->x, &l2);                                                          \
        czk_##F##_mul(&p->y, &p->y, &l3);                                                          \
        czk_##F##_mul(&p->z, &p->z, l);                                                            \
    }

GROUP_WRAPPERS(g1_bn254, fp_bn254, fr_bn254)
GROUP_WRAPPERS(g2_bn254, fp2_bn254, fr_bn254)
GROUP_WRAPPERS(g1_bls12_381, fp_bls12_381, fr_bls12_381)
GROUP_WRAPPERS(g2_bls12_381, fp2_bls12_381, fr_bls12_381)

/* The endomorphisms, written here from the constant tables (whose values are checked
 * against GMP in test_constants). */
static void g2_bn254_psi_w(void *rv, const void *pv)
{
    struct czk_g2_bn254_affine *r = rv;
    const struct czk_g2_bn254_affine *p = pv;
    czk_fp2_bn254_conj(&r->x, &p->x);
    czk_fp2_bn254_mul(&r->x, &r->x, &bn254_psi_x);
    czk_fp2_bn254_conj(&r->y, &p->y);
    czk_fp2_bn254_mul(&r->y, &r->y, &bn254_psi_y);
}

static void g1_bls12_381_phi_w(void *rv, const void *pv)
{
    struct czk_g1_bls12_381_affine *r = rv;
    const struct czk_g1_bls12_381_affine *p = pv;
    czk_fp_bls12_381_mul(&r->x, &p->x, &bls12_381_beta);
    r->y = p->y;
}

static void g2_bls12_381_psi_w(void *rv, const void *pv)
{
    struct czk_g2_bls12_381_affine *r = rv;
    const struct czk_g2_bls12_381_affine *p = pv;
    czk_fp2_bls12_381_conj(&r->x, &p->x);
    czk_fp2_bls12_381_mul(&r->x, &r->x, &bls12_381_psi_x);
    czk_fp2_bls12_381_conj(&r->y, &p->y);
    czk_fp2_bls12_381_mul(&r->y, &r->y, &bls12_381_psi_y);
}

#define GROUP_ENTRY(G, NF, FP, FR, ENDO)                                                           \
    .name = #G, .nf = NF, .fpl = sizeof(struct czk_##FP) / 8,                                      \
    .aff_size = sizeof(struct czk_##G##_affine), .jac_size = sizeof(struct czk_##G),               \
    .fp_to_mpz = FP##_to_mpz, .fp_from_mpz = FP##_from_mpz, .fp_modulus = czk_##FP##_modulus,      \
    .fr_modulus = czk_##FR##_modulus, .generator = G##_generator_w,                                \
    .affine_is_inf = G##_affine_is_inf_w, .affine_set_inf = G##_affine_set_inf_w,                  \
    .on_curve = G##_on_curve_w, .in_subgroup = G##_in_subgroup_w,                                  \
    .in_subgroup_slow = G##_in_subgroup_slow_w, .affine_eq = G##_affine_eq_w,                      \
    .affine_neg = G##_affine_neg_w, .from_x = G##_from_x_w, .from_affine = G##_from_affine_w,      \
    .to_affine = G##_to_affine_w, .batch_to_affine = G##_batch_w, .set_inf = G##_set_inf_w,        \
    .is_inf = G##_is_inf_w, .eq = G##_eq_w, .add = G##_add_w, .add_ct = G##_add_ct_w,              \
    .add_affine = G##_add_affine_w, .sub = G##_sub_w, .dbl = G##_dbl_w, .neg = G##_neg_w,          \
    .mul = G##_mul_w, .mul_ct = G##_mul_ct_w, .mul_limbs = G##_mul_limbs_w,                        \
    .clear_cofactor = G##_clear_w, .order_limbs = czk_##G##_order_limbs,                           \
    .cofactor_limbs = czk_##G##_cofactor_limbs, .rescale = G##_rescale_w, .endo = ENDO

static struct grp groups[4] = {
    {GROUP_ENTRY(g1_bn254, 1, fp_bn254, fr_bn254, NULL), .gen_hex = {"1", NULL, "2", NULL},
     .kat_hex = {"2b80492e098b7cf5799391df2fc001b66b3bad98a2c6a54669665bb498508c98", NULL,
                 "12cd5d89a6fa3023ba82402970885e0ece21f630859082ff22f208424b5c7f18", NULL}},
    {GROUP_ENTRY(g2_bn254, 2, fp_bn254, fr_bn254, g2_bn254_psi_w),
     .gen_hex = {"1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed",
                 "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2",
                 "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa",
                 "90689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"},
     .kat_hex = {"217441de1649d03a4307742a01867ee41fbe2f1efe0107e747d9fa059354b9a6",
                 "1a1745c81c0d7dc53ddc14ae653beb2357b170c7849e2268c73d0357c6105e52",
                 "1f0aca30477b7a6679b350fa939a4c6c7191ca4e0505dfc635a0590f5799e36d",
                 "22e4c79c64e0f3948634d1aeea56baf1502d21f8c5d34906d8fb683913165daf"}},
    {GROUP_ENTRY(g1_bls12_381, 1, fp_bls12_381, fr_bls12_381, g1_bls12_381_phi_w),
     .gen_hex = {"17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1a"
                 "effb3af00adb22c6bb",
                 NULL,
                 "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888a"
                 "e40caa232946c5e7e1",
                 NULL},
     .kat_hex = {"0de5d887635dbfdff6eaf793c0e394564baadd9d2e86207ba968987fe781401d3423f741128c5d"
                 "e0e1c90bc7d055204b",
                 NULL,
                 "18042d444c272879c43fea1c9dbbd732d6a891a311d840a1b5010e73914b11773f1bcc92ee968a"
                 "75675b7f75ddea9037",
                 NULL}},
    {GROUP_ENTRY(g2_bls12_381, 2, fp_bls12_381, fr_bls12_381, g2_bls12_381_psi_w),
     .gen_hex = {"024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bb"
                 "efd48056c8c121bdb8",
                 "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d"
                 "57e5ac7d055d042b7e",
                 "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca2"
                 "89e193548608b82801",
                 "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1d"
                 "a1aaa9075ff05f79be"},
     .kat_hex = {"1410738042581521dcc9f512f72601588af27097d48d1ed2f23457143faca92850a143686dda8a"
                 "c1c9aa64effa13bea4",
                 "08270148fde0d00c6b9acdcb100169bbf30bf2dc62ce21a748e38051eed16508ef59c9c72e40a3"
                 "f1084f6a0d72720b31",
                 "113b40481e918ffd6deaaf42c013d6ad1353c7079c5b63cc9315d88c683da6f03324eb96ad6ddc"
                 "eee71b104438b14980",
                 "0bbf59bafd5e001b930eafe1f60b5d630aef84f421d9f7de601f21b82c40b3fe806abb6b09cdfb"
                 "762fae92e823ebc3f4"}},
};

/* ---- reference arithmetic (GMP) ------------------------------------------------------------ */

static void rf_init(rfe a) { mpz_inits(a[0], a[1], NULL); }
static void rf_clear(rfe a) { mpz_clears(a[0], a[1], NULL); }
static void rf_set(rfe r, const rfe a)
{
    mpz_set(r[0], a[0]);
    mpz_set(r[1], a[1]);
}
static bool rf_eq(const rfe a, const rfe b) { return !mpz_cmp(a[0], b[0]) && !mpz_cmp(a[1], b[1]); }
static bool rf_is_zero(const rfe a) { return !mpz_sgn(a[0]) && !mpz_sgn(a[1]); }

static void rf_add(const struct grp *g, rfe r, const rfe a, const rfe b)
{
    for (int c = 0; c < 2; c++) {
        mpz_add(r[c], a[c], b[c]);
        mpz_mod(r[c], r[c], g->p);
    }
}

static void rf_sub(const struct grp *g, rfe r, const rfe a, const rfe b)
{
    for (int c = 0; c < 2; c++) {
        mpz_sub(r[c], a[c], b[c]);
        mpz_mod(r[c], r[c], g->p);
    }
}

static void rf_mul(const struct grp *g, rfe r, const rfe a, const rfe b)
{
    /* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u, u^2 = -1 */
    mpz_t t0, t1, t2;
    mpz_inits(t0, t1, t2, NULL);
    mpz_mul(t0, a[0], b[0]);
    mpz_mul(t2, a[1], b[1]);
    mpz_sub(t0, t0, t2);
    mpz_mul(t1, a[0], b[1]);
    mpz_mul(t2, a[1], b[0]);
    mpz_add(t1, t1, t2);
    mpz_mod(r[0], t0, g->p);
    mpz_mod(r[1], t1, g->p);
    mpz_clears(t0, t1, t2, NULL);
}

static void rf_mul_ui(const struct grp *g, rfe r, const rfe a, unsigned long k)
{
    for (int c = 0; c < 2; c++) {
        mpz_mul_ui(r[c], a[c], k);
        mpz_mod(r[c], r[c], g->p);
    }
}

static void rf_inv(const struct grp *g, rfe r, const rfe a)
{
    /* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2) */
    mpz_t n, t;
    mpz_inits(n, t, NULL);
    mpz_mul(n, a[0], a[0]);
    mpz_mul(t, a[1], a[1]);
    mpz_add(n, n, t);
    mpz_mod(n, n, g->p);
    assert_true(mpz_invert(n, n, g->p));
    mpz_mul(r[0], a[0], n);
    mpz_mod(r[0], r[0], g->p);
    mpz_mul(r[1], a[1], n);
    mpz_neg(r[1], r[1]);
    mpz_mod(r[1], r[1], g->p);
    mpz_clears(n, t, NULL);
}

static void rf_pow(const struct grp *g, rfe r, const rfe a, const mpz_t e)
{
    rfe acc, base;
    rf_init(acc);
    rf_init(base);
    mpz_set_ui(acc[0], 1);
    rf_set(base, a);
    for (size_t i = mpz_sizeinbase(e, 2); i-- > 0;) {
        rf_mul(g, acc, acc, acc);
        if (mpz_tstbit(e, i))
            rf_mul(g, acc, acc, base);
    }
    rf_set(r, acc);
    rf_clear(acc);
    rf_clear(base);
}

static void rp_init(struct rpt *p)
{
    p->inf = 1;
    rf_init(p->x);
    rf_init(p->y);
}

static void rp_clear(struct rpt *p)
{
    rf_clear(p->x);
    rf_clear(p->y);
}

static void rp_set(struct rpt *r, const struct rpt *p)
{
    r->inf = p->inf;
    rf_set(r->x, p->x);
    rf_set(r->y, p->y);
}

static bool rp_eq(const struct rpt *a, const struct rpt *b)
{
    if (a->inf || b->inf)
        return a->inf && b->inf;
    return rf_eq(a->x, b->x) && rf_eq(a->y, b->y);
}

static bool rp_on_curve(const struct grp *g, const struct rpt *p)
{
    if (p->inf)
        return true;
    rfe l, r;
    rf_init(l);
    rf_init(r);
    rf_mul(g, l, p->y, p->y);
    rf_mul(g, r, p->x, p->x);
    rf_mul(g, r, r, p->x);
    rf_add(g, r, r, g->b);
    bool ok = rf_eq(l, r);
    rf_clear(l);
    rf_clear(r);
    return ok;
}

/* r = p + q, affine chord-and-tangent; r may alias p or q. */
static void rp_add(const struct grp *g, struct rpt *r, const struct rpt *p, const struct rpt *q)
{
    if (p->inf) {
        rp_set(r, q);
        return;
    }
    if (q->inf) {
        rp_set(r, p);
        return;
    }
    rfe lam, t, x3, y3;
    rf_init(lam);
    rf_init(t);
    rf_init(x3);
    rf_init(y3);
    if (rf_eq(p->x, q->x)) {
        rf_add(g, t, p->y, q->y);
        if (rf_is_zero(t)) {
            r->inf = 1;
            goto out;
        }
        rf_mul(g, lam, p->x, p->x); /* 3 x^2 / (2 y) */
        rf_mul_ui(g, lam, lam, 3);
        rf_add(g, t, p->y, p->y);
    } else {
        rf_sub(g, lam, q->y, p->y); /* (y2 - y1) / (x2 - x1) */
        rf_sub(g, t, q->x, p->x);
    }
    rf_inv(g, t, t);
    rf_mul(g, lam, lam, t);
    rf_mul(g, x3, lam, lam);
    rf_sub(g, x3, x3, p->x);
    rf_sub(g, x3, x3, q->x);
    rf_sub(g, y3, p->x, x3);
    rf_mul(g, y3, y3, lam);
    rf_sub(g, y3, y3, p->y);
    r->inf = 0;
    rf_set(r->x, x3);
    rf_set(r->y, y3);
out:
    rf_clear(lam);
    rf_clear(t);
    rf_clear(x3);
    rf_clear(y3);
}

/* r = [k] p, naive double-and-add, k >= 0. */
static void rp_mul(const struct grp *g, struct rpt *r, const struct rpt *p, const mpz_t k)
{
    struct rpt acc, base;
    rp_init(&acc);
    rp_init(&base);
    rp_set(&base, p);
    for (size_t i = mpz_sizeinbase(k, 2); i-- > 0;) {
        rp_add(g, &acc, &acc, &acc);
        if (mpz_tstbit(k, i))
            rp_add(g, &acc, &acc, &base);
    }
    rp_set(r, &acc);
    rp_clear(&acc);
    rp_clear(&base);
}

/* ---- conversions between libczk points and the reference --------------------------------- */

static size_t fel(const struct grp *g) { return (size_t)(g->nf * g->fpl); }

static void fe_to_rf(const struct grp *g, rfe r, const uint64_t *fe)
{
    mpz_set_ui(r[1], 0);
    for (int c = 0; c < g->nf; c++)
        g->fp_to_mpz(r[c], fe + c * g->fpl);
}

static void rf_to_fe(const struct grp *g, uint64_t *fe, const rfe a)
{
    for (int c = 0; c < g->nf; c++)
        g->fp_from_mpz(fe + c * g->fpl, a[c]);
}

static void aff_to_rp(const struct grp *g, struct rpt *r, const struct pt *a)
{
    fe_to_rf(g, r->x, a->w);
    fe_to_rf(g, r->y, a->w + fel(g));
    r->inf = rf_is_zero(r->x) && rf_is_zero(r->y);
}

static void rp_to_aff(const struct grp *g, struct pt *a, const struct rpt *r)
{
    memset(a, 0, sizeof *a);
    if (r->inf) {
        g->affine_set_inf(a);
        return;
    }
    rf_to_fe(g, a->w, r->x);
    rf_to_fe(g, a->w + fel(g), r->y);
}

/* Jacobian -> reference affine, computing X/Z^2, Y/Z^3 with GMP (independent of to_affine). */
static void jac_to_rp(const struct grp *g, struct rpt *r, const struct pt *j)
{
    rfe z, zi, t;
    rf_init(z);
    rf_init(zi);
    rf_init(t);
    fe_to_rf(g, z, j->w + 2 * fel(g));
    if (rf_is_zero(z)) {
        r->inf = 1;
    } else {
        r->inf = 0;
        rf_inv(g, zi, z);
        rf_mul(g, t, zi, zi);
        fe_to_rf(g, r->x, j->w);
        rf_mul(g, r->x, r->x, t);
        rf_mul(g, t, t, zi);
        fe_to_rf(g, r->y, j->w + fel(g));
        rf_mul(g, r->y, r->y, t);
    }
    rf_clear(z);
    rf_clear(zi);
    rf_clear(t);
}

static void assert_jac_is(const struct grp *g, const struct pt *j, const struct rpt *want)
{
    struct rpt got;
    rp_init(&got);
    jac_to_rp(g, &got, j);
    if (!rp_eq(&got, want))
        fail_msg("%s: point differs from the reference", g->name);
    rp_clear(&got);
}

static void assert_jac_eq(const struct grp *g, const struct pt *a, const struct pt *b)
{
    if (!g->eq(a, b))
        fail_msg("%s: Jacobian points differ", g->name);
}

/* ---- random inputs ------------------------------------------------------------------------- */

static void rand_below(mpz_t r, const mpz_t n)
{
    size_t bits = mpz_sizeinbase(n, 2), nl = (bits + 63) / 64;
    uint64_t l[16];
    assert_true(nl <= 16);
    do {
        for (size_t i = 0; i < nl; i++)
            l[i] = czk_test_rand64();
        if (bits % 64)
            l[nl - 1] &= (1ull << (bits % 64)) - 1;
        mpz_import(r, nl, -1, 8, 0, 0, l);
    } while (mpz_cmp(r, n) >= 0);
}

static void mpz_to_limbs(uint64_t *out, size_t n, const mpz_t v)
{
    size_t cnt = 0;
    assert_true(mpz_sizeinbase(v, 2) <= 64 * n);
    memset(out, 0, n * 8);
    mpz_export(out, &cnt, -1, 8, 0, 0, v);
}

static void rand_fe(const struct grp *g, uint64_t *fe)
{
    mpz_t v;
    mpz_init(v);
    for (int c = 0; c < g->nf; c++) {
        rand_below(v, g->p);
        g->fp_from_mpz(fe + c * g->fpl, v);
    }
    mpz_clear(v);
}

/* A random nonzero coordinate-field element, for rescaling Jacobian coordinates. */
static void rand_fe_nonzero(const struct grp *g, uint64_t *fe)
{
    rfe t;
    rf_init(t);
    do {
        rand_fe(g, fe);
        fe_to_rf(g, t, fe);
    } while (rf_is_zero(t));
    rf_clear(t);
}

/* Random point of E (or E'), usually outside the subgroup (affine_from_x on random x). */
static void rand_curve_point(const struct grp *g, struct pt *a)
{
    struct pt x;
    memset(a, 0, sizeof *a);
    memset(&x, 0, sizeof x);
    do
        rand_fe(g, x.w);
    while (!g->from_x(a, x.w, czk_test_rand64() & 1));
}

static void rand_scalar(const struct grp *g, uint64_t k[4], mpz_t km)
{
    rand_below(km, g->r);
    mpz_to_limbs(k, 4, km);
}

/* Jacobian point from an affine one, with a random Z. */
static void jac_from(const struct grp *g, struct pt *j, const struct pt *a)
{
    struct pt l;
    memset(j, 0, sizeof *j);
    memset(&l, 0, sizeof l);
    g->from_affine(j, a);
    rand_fe_nonzero(g, l.w);
    g->rescale(j, l.w);
}

/* Random subgroup point [k] G as Jacobian (with its reference value if ref != NULL). */
static void rand_subgroup_point(const struct grp *g, struct pt *j, struct rpt *ref)
{
    struct pt ga, gj;
    uint64_t k[4];
    mpz_t km;
    mpz_init(km);
    memset(&ga, 0, sizeof ga);
    g->generator(&ga);
    jac_from(g, &gj, &ga);
    rand_scalar(g, k, km);
    memset(j, 0, sizeof *j);
    g->mul(j, &gj, k);
    g->rescale(j, gj.w + 2 * fel(g)); /* a different Z again */
    if (ref) {
        struct rpt gr;
        rp_init(&gr);
        aff_to_rp(g, &gr, &ga);
        rp_mul(g, ref, &gr, km);
        rp_clear(&gr);
    }
    mpz_clear(km);
}

/* ---- setup --------------------------------------------------------------------------------- */

static void setup_groups(void)
{
    mpz_t x, t, xi0;
    mpz_inits(x, t, xi0, NULL);
    for (int i = 0; i < 4; i++) {
        struct grp *g = &groups[i];
        mpz_inits(g->p, g->r, g->h, g->heff, g->endo_ev, NULL);
        rf_init(g->b);
        bool bn = i < 2;
        if (bn) {
            /* BN: p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 + 6x + 1 */
            mpz_set_ui(x, 4965661367192848881ull);
            mpz_set_ui(g->p, 36);
            mpz_set_ui(g->r, 36);
            unsigned long cp[4] = {36, 24, 6, 1}, cr[4] = {36, 18, 6, 1};
            for (int j = 0; j < 4; j++) {
                mpz_mul(g->p, g->p, x);
                mpz_add_ui(g->p, g->p, cp[j]);
                mpz_mul(g->r, g->r, x);
                mpz_add_ui(g->r, g->r, cr[j]);
            }
        } else {
            /* BLS12: r = x^4 - x^2 + 1, p = (x - 1)^2 r / 3 + x, x = -0xd201000000010000 */
            mpz_set_ui(x, 0xd201000000010000ull);
            mpz_neg(x, x);
            mpz_pow_ui(g->r, x, 4);
            mpz_pow_ui(t, x, 2);
            mpz_sub(g->r, g->r, t);
            mpz_add_ui(g->r, g->r, 1);
            mpz_sub_ui(t, x, 1);
            mpz_mul(t, t, t);
            mpz_mul(g->p, t, g->r);
            mpz_divexact_ui(g->p, g->p, 3);
            mpz_add(g->p, g->p, x);
        }
        /* the curve constant b, from its definition */
        if (g->nf == 1) {
            mpz_set_ui(g->b[0], bn ? 3 : 4);
        } else if (bn) {
            rfe xi, three;
            rf_init(xi);
            rf_init(three);
            mpz_set_ui(xi[0], 9);
            mpz_set_ui(xi[1], 1);
            mpz_set_ui(three[0], 3);
            rf_inv(g, xi, xi);
            rf_mul(g, g->b, three, xi); /* 3 / (9 + u) */
            rf_clear(xi);
            rf_clear(three);
        } else {
            mpz_set_ui(g->b[0], 4); /* 4 (1 + u) */
            mpz_set_ui(g->b[1], 4);
        }
        /* cofactors, clearing multipliers and endomorphism eigenvalues */
        switch (i) {
        case 0:
            mpz_set_ui(g->h, 1);
            mpz_set_ui(g->heff, 1);
            break;
        case 1:
            mpz_mul_ui(g->h, g->p, 2); /* h2 = 2p - r */
            mpz_sub(g->h, g->h, g->r);
            mpz_set(g->heff, g->h);
            mpz_mod(g->endo_ev, g->p, g->r); /* psi = [p] on G2 */
            break;
        case 2:
            mpz_sub_ui(g->h, x, 1); /* h1 = (x - 1)^2 / 3 */
            mpz_mul(g->h, g->h, g->h);
            mpz_divexact_ui(g->h, g->h, 3);
            mpz_ui_sub(g->heff, 1, x); /* 1 - x */
            mpz_mul(g->endo_ev, x, x); /* phi = [-x^2] */
            mpz_neg(g->endo_ev, g->endo_ev);
            mpz_mod(g->endo_ev, g->endo_ev, g->r);
            break;
        case 3: {
            /* h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 */
            long c[9] = {1, -4, 5, 0, -4, 6, -4, -4, 13};
            mpz_set_ui(g->h, 0);
            for (int j = 0; j < 9; j++) {
                mpz_mul(g->h, g->h, x);
                if (c[j] >= 0)
                    mpz_add_ui(g->h, g->h, (unsigned long)c[j]);
                else
                    mpz_sub_ui(g->h, g->h, (unsigned long)-c[j]);
            }
            mpz_divexact_ui(g->h, g->h, 9);
            mpz_mul(g->heff, x, x); /* h_eff = 3 (x^2 - 1) h2 */
            mpz_sub_ui(g->heff, g->heff, 1);
            mpz_mul_ui(g->heff, g->heff, 3);
            mpz_mul(g->heff, g->heff, g->h);
            mpz_mod(g->endo_ev, g->p, g->r); /* psi = [p] on G2 */
            break;
        }
        }
    }
    mpz_clears(x, t, xi0, NULL);
}

static void teardown_groups(void)
{
    for (int i = 0; i < 4; i++) {
        struct grp *g = &groups[i];
        mpz_clears(g->p, g->r, g->h, g->heff, g->endo_ev, NULL);
        rf_clear(g->b);
    }
}

static void assert_limbs_eq_mpz(const uint64_t *l, size_t n, const mpz_t v, const char *what)
{
    mpz_t t;
    mpz_init(t);
    mpz_import(t, n, -1, 8, 0, 0, l);
    if (mpz_cmp(t, v) != 0)
        fail_msg("%s differs", what);
    mpz_clear(t);
}

/* ---- tests --------------------------------------------------------------------------------- */

static void hex_to_rp(const struct grp *g, struct rpt *r, const char *const *h)
{
    r->inf = 0;
    mpz_set_str(r->x[0], h[0], 16);
    mpz_set_str(r->x[1], g->nf == 2 ? h[1] : "0", 16);
    mpz_set_str(r->y[0], h[2], 16);
    mpz_set_str(r->y[1], g->nf == 2 ? h[3] : "0", 16);
}

static void test_constants(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        const struct grp *g = &groups[i];
        size_t n;
        const uint64_t *l;
        /* moduli, order, cofactor */
        assert_limbs_eq_mpz(g->fp_modulus(), (size_t)g->fpl, g->p, "p");
        assert_limbs_eq_mpz(g->fr_modulus(), 4, g->r, "fr modulus");
        l = g->order_limbs(&n);
        assert_limbs_eq_mpz(l, n, g->r, "order_limbs");
        l = g->cofactor_limbs(&n);
        assert_limbs_eq_mpz(l, n, g->h, "cofactor_limbs");
        assert_true(n == 1 || l[n - 1] != 0);

        /* the generator: known value, on the (reference) curve, order r */
        struct pt ga, gj, t;
        struct rpt want, got;
        rp_init(&want);
        rp_init(&got);
        memset(&ga, 0, sizeof ga);
        g->generator(&ga);
        hex_to_rp(g, &want, g->gen_hex);
        aff_to_rp(g, &got, &ga);
        assert_true(rp_eq(&got, &want));
        assert_true(rp_on_curve(g, &got));
        assert_true(g->on_curve(&ga));
        assert_true(g->in_subgroup(&ga));
        assert_true(g->in_subgroup_slow(&ga));
        rp_mul(g, &got, &want, g->r);
        assert_true(got.inf); /* [r] G = O in the reference */
        jac_from(g, &gj, &ga);
        l = g->order_limbs(&n);
        g->mul_limbs(&t, &gj, l, n);
        assert_true(g->is_inf(&t));

        /* known answer from @noble/curves: [2^200 + 0xdeadbeef] G */
        uint64_t k[4] = {0xdeadbeef, 0, 0, 1ull << 8};
        hex_to_rp(g, &want, g->kat_hex);
        g->mul(&t, &gj, k);
        assert_jac_is(g, &t, &want);
        g->mul_ct(&t, &gj, k);
        assert_jac_is(g, &t, &want);
        g->mul_limbs(&t, &gj, k, 4);
        assert_jac_is(g, &t, &want);
        rp_clear(&want);
        rp_clear(&got);
    }

    /* endomorphism constants, recomputed with GMP */
    mpz_t e;
    rfe xi, c, v;
    mpz_init(e);
    rf_init(xi);
    rf_init(c);
    rf_init(v);
    {
        const struct grp *g = &groups[1]; /* BN254: psi = (xi^((p-1)/3), xi^((p-1)/2)), xi = 9+u */
        mpz_set_ui(xi[0], 9);
        mpz_set_ui(xi[1], 1);
        mpz_sub_ui(e, g->p, 1);
        mpz_divexact_ui(e, e, 3);
        rf_pow(g, c, xi, e);
        fe_to_rf(g, v, (const uint64_t *)&bn254_psi_x);
        assert_true(rf_eq(c, v));
        mpz_sub_ui(e, g->p, 1);
        mpz_divexact_ui(e, e, 2);
        rf_pow(g, c, xi, e);
        fe_to_rf(g, v, (const uint64_t *)&bn254_psi_y);
        assert_true(rf_eq(c, v));
        fe_to_rf(g, v, (const uint64_t *)&bn254_g2_b);
        assert_true(rf_eq(g->b, v));
    }
    {
        const struct grp *g = &groups[3]; /* BLS12-381: psi = 1 / the same powers of 1 + u */
        mpz_set_ui(xi[0], 1);
        mpz_set_ui(xi[1], 1);
        mpz_sub_ui(e, g->p, 1);
        mpz_divexact_ui(e, e, 3);
        rf_pow(g, c, xi, e);
        rf_inv(g, c, c);
        fe_to_rf(g, v, (const uint64_t *)&bls12_381_psi_x);
        assert_true(rf_eq(c, v));
        mpz_sub_ui(e, g->p, 1);
        mpz_divexact_ui(e, e, 2);
        rf_pow(g, c, xi, e);
        rf_inv(g, c, c);
        fe_to_rf(g, v, (const uint64_t *)&bls12_381_psi_y);
        assert_true(rf_eq(c, v));
        fe_to_rf(g, v, (const uint64_t *)&bls12_381_g2_b);
        assert_true(rf_eq(g->b, v));
    }
    {
        const struct grp *g = &groups[2]; /* beta: beta^2 + beta + 1 = 0 */
        fe_to_rf(g, v, (const uint64_t *)&bls12_381_beta);
        mpz_mul(e, v[0], v[0]);
        mpz_add(e, e, v[0]);
        mpz_add_ui(e, e, 1);
        mpz_mod(e, e, g->p);
        assert_int_equal(mpz_sgn(e), 0);
        mpz_set_ui(e, BLS12_381_X_ABS);
        assert_true(mpz_cmp_ui(e, 0xd201000000010000ull) == 0);
        /* h_eff of RFC 9380 */
        uint64_t he[10];
        mpz_to_limbs(he, 10, groups[3].heff);
        assert_memory_equal(he, bls12_381_g2_h_eff, sizeof he);
    }
    mpz_clear(e);
    rf_clear(xi);
    rf_clear(c);
    rf_clear(v);
}

/* add, add_ct, add_affine (when b is given affine) all equal r. */
static void check_adds(const struct grp *g, const struct pt *a, const struct pt *b,
                       const struct pt *want)
{
    struct pt s, ba;
    memset(&ba, 0, sizeof ba);
    g->add(&s, a, b);
    assert_jac_eq(g, &s, want);
    g->add_ct(&s, a, b);
    assert_jac_eq(g, &s, want);
    g->to_affine(&ba, b);
    g->add_affine(&s, a, &ba);
    assert_jac_eq(g, &s, want);
}

static void test_add(void **state)
{
    (void)state;
    size_t cases = czk_test_cases(24);
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &groups[gi];
        struct rpt rp, rq, rs;
        rp_init(&rp);
        rp_init(&rq);
        rp_init(&rs);
        struct pt p, q, w, s, t, u, inf, na, pa;
        memset(&pa, 0, sizeof pa);
        memset(&na, 0, sizeof na);
        g->set_inf(&inf);
        for (size_t c = 0; c < cases; c++) {
            /* subgroup points and (for the groups with a cofactor) other curve points */
            if (c % 2 == 0 || gi == 0) {
                rand_subgroup_point(g, &p, &rp);
                rand_subgroup_point(g, &q, &rq);
            } else {
                rand_curve_point(g, &pa);
                aff_to_rp(g, &rp, &pa);
                jac_from(g, &p, &pa);
                rand_curve_point(g, &pa);
                aff_to_rp(g, &rq, &pa);
                jac_from(g, &q, &pa);
            }
            assert_jac_is(g, &p, &rp);
            /* P + Q against the reference; commutativity */
            rp_add(g, &rs, &rp, &rq);
            g->add(&s, &p, &q);
            assert_jac_is(g, &s, &rs);
            check_adds(g, &p, &q, &s);
            check_adds(g, &q, &p, &s);
            /* P + P = dbl P, also with a different Z for the second operand */
            rp_add(g, &rs, &rp, &rp);
            g->dbl(&w, &p);
            assert_jac_is(g, &w, &rs);
            check_adds(g, &p, &p, &w);
            t = p;
            rand_fe_nonzero(g, u.w);
            g->rescale(&t, u.w);
            assert_jac_eq(g, &t, &p);
            check_adds(g, &p, &t, &w);
            /* P + (-P) = O; P - P = O */
            g->neg(&t, &p);
            g->rescale(&t, u.w);
            check_adds(g, &p, &t, &inf);
            g->sub(&s, &p, &p);
            assert_true(g->is_inf(&s));
            g->sub(&s, &p, &q);
            g->add(&t, &s, &q);
            assert_jac_eq(g, &t, &p);
            /* identities with O */
            check_adds(g, &p, &inf, &p);
            check_adds(g, &inf, &p, &p);
            check_adds(g, &inf, &inf, &inf);
            g->dbl(&s, &inf);
            assert_true(g->is_inf(&s));
            g->neg(&s, &inf);
            assert_true(g->is_inf(&s));
            /* associativity: (P + Q) + W = P + (Q + W) with W = 2P + Q */
            g->add(&s, &p, &q);
            g->add(&s, &s, &w);
            g->add(&t, &q, &w);
            g->add(&t, &p, &t);
            assert_jac_eq(g, &s, &t);
            /* aliasing: r == a, r == b */
            g->add(&s, &p, &q);
            t = p;
            g->add(&t, &t, &q);
            assert_jac_eq(g, &t, &s);
            t = q;
            g->add_ct(&t, &p, &t);
            assert_jac_eq(g, &t, &s);
            t = p;
            g->to_affine(&na, &q);
            g->add_affine(&t, &t, &na);
            assert_jac_eq(g, &t, &s);
            t = p;
            g->dbl(&t, &t);
            assert_jac_eq(g, &t, &w);
            /* eq distinguishes */
            assert_false(g->eq(&p, &q));
            assert_false(g->eq(&p, &inf));
            assert_false(g->eq(&inf, &p));
            assert_true(g->eq(&inf, &inf));
        }
        rp_clear(&rp);
        rp_clear(&rq);
        rp_clear(&rs);
    }
}

/* [k] P by mul, mul_ct and mul_limbs agree with each other and (if ref) with the reference. */
static void check_mul(const struct grp *g, const struct pt *p, const struct rpt *rp, const mpz_t km)
{
    uint64_t k[4];
    struct pt a, b, c, d;
    mpz_to_limbs(k, 4, km);
    g->mul(&a, p, k);
    g->mul_ct(&b, p, k);
    g->mul_limbs(&c, p, k, 4);
    assert_jac_eq(g, &a, &b);
    assert_jac_eq(g, &a, &c);
    /* with leading zero limbs */
    uint64_t k6[6] = {k[0], k[1], k[2], k[3], 0, 0};
    g->mul_limbs(&d, p, k6, 6);
    assert_jac_eq(g, &a, &d);
    /* output aliasing the input */
    d = *p;
    g->mul(&d, &d, k);
    assert_jac_eq(g, &a, &d);
    d = *p;
    g->mul_ct(&d, &d, k);
    assert_jac_eq(g, &a, &d);
    if (rp) {
        struct rpt want;
        rp_init(&want);
        rp_mul(g, &want, rp, km);
        assert_jac_is(g, &a, &want);
        rp_clear(&want);
    }
}

static void test_mul(void **state)
{
    (void)state;
    size_t cases = czk_test_cases(12);
    mpz_t km;
    mpz_init(km);
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &groups[gi];
        struct rpt rp;
        rp_init(&rp);
        struct pt p, pa, t, u, inf;
        memset(&pa, 0, sizeof pa);
        g->set_inf(&inf);
        for (size_t c = 0; c < cases; c++) {
            if (c % 3 == 2 && gi != 0) {
                rand_curve_point(g, &pa); /* outside the subgroup: [k] still defined */
                aff_to_rp(g, &rp, &pa);
                jac_from(g, &p, &pa);
            } else {
                rand_subgroup_point(g, &p, &rp);
            }
            /* edge scalars 0, 1, 2, 15, 16, 17, r - 1, r - 2 and a random one */
            const unsigned long small[] = {0, 1, 2, 15, 16, 17, 31, 32, 33};
            for (size_t j = 0; j < sizeof small / sizeof small[0]; j++) {
                mpz_set_ui(km, small[j]);
                check_mul(g, &p, c == 0 ? &rp : NULL, km);
            }
            mpz_sub_ui(km, g->r, 1);
            check_mul(g, &p, c < 2 ? &rp : NULL, km);
            mpz_sub_ui(km, g->r, 2);
            check_mul(g, &p, NULL, km);
            rand_below(km, g->r);
            check_mul(g, &p, &rp, km);
            /* scalars with long runs of ones / zeros (wNAF carries) */
            mpz_set_ui(km, 1);
            mpz_mul_2exp(km, km, 200 + c % 50); /* stays below r for any case count */
            mpz_sub_ui(km, km, 1);
            check_mul(g, &p, NULL, km);
            mpz_set_ui(km, 1);
            mpz_mul_2exp(km, km, 250);
            mpz_add_ui(km, km, 1);
            check_mul(g, &p, NULL, km);

            /* long integers for mul_limbs: [k1 + k2] = [k1] + [k2] with k1 of 10 and 14 limbs */
            uint64_t big[14];
            for (size_t j = 0; j < 14; j++)
                big[j] = czk_test_rand64();
            struct pt a, b;
            for (size_t nl = 5; nl <= 14; nl += 9) {
                mpz_import(km, nl, -1, 8, 0, 0, big);
                g->mul_limbs(&a, &p, big, nl);
                if (c == 0) {
                    struct rpt want;
                    rp_init(&want);
                    rp_mul(g, &want, &rp, km);
                    assert_jac_is(g, &a, &want);
                    rp_clear(&want);
                }
                /* [k] P = [k mod r] P on subgroup points */
                if (c % 3 != 2 || gi == 0) {
                    mpz_mod(km, km, g->r);
                    uint64_t kr[4];
                    mpz_to_limbs(kr, 4, km);
                    g->mul(&b, &p, kr);
                    assert_jac_eq(g, &a, &b);
                }
            }
            /* all-ones integers: the wNAF carry runs through every limb into a new one */
            uint64_t ones[5] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
            for (size_t nl = 1; nl <= 5; nl += 2) {
                mpz_import(km, nl, -1, 8, 0, 0, ones);
                g->mul_limbs(&a, &p, ones, nl);
                g->mul_limbs(&b, &p, ones, nl - 1); /* [2^(64 nl) - 1] = [2^(64 (nl-1)) - 1] */
                for (size_t j = 0; j < 64; j++)     /*   * 2^64 + [2^64 - 1] */
                    g->dbl(&b, &b);
                g->mul_limbs(&t, &p, ones, 1);
                g->add(&b, &b, &t);
                assert_jac_eq(g, &a, &b);
                if (c == 0) {
                    struct rpt want;
                    rp_init(&want);
                    rp_mul(g, &want, &rp, km);
                    assert_jac_is(g, &a, &want);
                    rp_clear(&want);
                }
            }
            /* identities: [k] O = O, [r] P = O, [r - 1] P = -P, nlimbs = 0 */
            rand_below(km, g->r);
            uint64_t k[4];
            mpz_to_limbs(k, 4, km);
            g->mul(&t, &inf, k);
            assert_true(g->is_inf(&t));
            g->mul_ct(&t, &inf, k);
            assert_true(g->is_inf(&t));
            g->mul_limbs(&t, &p, k, 0);
            assert_true(g->is_inf(&t));
            if (c % 3 != 2 || gi == 0) {
                size_t n;
                const uint64_t *r = g->order_limbs(&n);
                g->mul_limbs(&t, &p, r, n);
                assert_true(g->is_inf(&t));
                mpz_sub_ui(km, g->r, 1);
                mpz_to_limbs(k, 4, km);
                g->mul_ct(&t, &p, k);
                g->neg(&u, &p);
                assert_jac_eq(g, &t, &u);
            }
        }
        rp_clear(&rp);
    }
    mpz_clear(km);
}

static void test_affine(void **state)
{
    (void)state;
    size_t cases = czk_test_cases(16);
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &groups[gi];
        enum { N = 19 };
        struct pt jac[N], aff[N], one, x, a, b;
        /* the batch needs contiguous arrays of the group's own types */
        uint64_t jbuf[N * 36], abuf[N * 24], scratch[N * 12];
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        memset(&x, 0, sizeof x);
        for (size_t c = 0; c < cases; c++) {
            for (int i = 0; i < N; i++) {
                int kind = (int)(czk_test_rand64() % 4);
                if (kind == 0) {
                    struct pt l;
                    g->set_inf(&jac[i]);
                    rand_fe_nonzero(g, l.w);
                    g->rescale(&jac[i], l.w); /* other X, Y with Z = 0 */
                } else if (kind == 1) {
                    rand_curve_point(g, &a);
                    jac_from(g, &jac[i], &a);
                } else {
                    rand_subgroup_point(g, &jac[i], NULL);
                }
                if (c == 0 && i == 3)
                    g->set_inf(&jac[i]);
                memcpy((char *)jbuf + i * g->jac_size, &jac[i], g->jac_size);
            }
            g->batch_to_affine(abuf, jbuf, N, scratch);
            for (int i = 0; i < N; i++) {
                memset(&aff[i], 0, sizeof aff[i]);
                memcpy(&aff[i], (char *)abuf + i * g->aff_size, g->aff_size);
                memset(&one, 0, sizeof one);
                g->to_affine(&one, &jac[i]);
                assert_true(g->affine_eq(&one, &aff[i]));
                struct rpt want, got;
                rp_init(&want);
                rp_init(&got);
                jac_to_rp(g, &want, &jac[i]);
                aff_to_rp(g, &got, &aff[i]);
                assert_true(rp_eq(&want, &got));
                assert_int_equal(g->affine_is_inf(&aff[i]), g->is_inf(&jac[i]));
                assert_true(g->on_curve(&aff[i]));
                assert_true(rp_on_curve(g, &got));
                /* round trip */
                g->from_affine(&b, &aff[i]);
                assert_jac_eq(g, &b, &jac[i]);
                rp_clear(&want);
                rp_clear(&got);
            }
            g->batch_to_affine(abuf, jbuf, 0, scratch); /* n = 0 is a no-op */
            g->batch_to_affine(abuf, jbuf + 3 * g->jac_size / 8, 1, scratch);
            memcpy(&one, abuf, g->aff_size);
            g->to_affine(&b, &jac[3]);
            assert_true(g->affine_eq(&one, &b));

            /* affine_from_x: existence matches the reference, both signs, on the curve */
            rand_fe(g, x.w);
            rfe rx, rhs, t;
            rf_init(rx);
            rf_init(rhs);
            rf_init(t);
            fe_to_rf(g, rx, x.w);
            rf_mul(g, rhs, rx, rx);
            rf_mul(g, rhs, rhs, rx);
            rf_add(g, rhs, rhs, g->b);
            /* square test: in Fp the Legendre symbol; a in Fp2 is a square iff its norm
             * a0^2 + a1^2 is a square in Fp */
            if (g->nf == 1) {
                mpz_set(t[0], rhs[0]);
            } else {
                mpz_mul(t[0], rhs[0], rhs[0]);
                mpz_mul(t[1], rhs[1], rhs[1]);
                mpz_add(t[0], t[0], t[1]);
                mpz_mod(t[0], t[0], g->p);
            }
            bool square = mpz_legendre(t[0], g->p) >= 0;
            for (int s = 0; s < 2; s++) {
                memset(&a, 0xa5, sizeof a);
                struct pt before = a;
                bool ok = g->from_x(&a, x.w, s);
                assert_int_equal(ok, square);
                if (!ok) {
                    assert_memory_equal(&a, &before, sizeof a); /* untouched */
                    continue;
                }
                struct rpt rp;
                rp_init(&rp);
                aff_to_rp(g, &rp, &a);
                assert_true(rf_eq(rp.x, rx));
                assert_true(rp_on_curve(g, &rp));
                assert_true(g->on_curve(&a));
                /* zcash "lexicographically largest": c1 > (p-1)/2, or c1 == 0 and c0 > (p-1)/2 */
                mpz_t half;
                mpz_init(half);
                mpz_sub_ui(half, g->p, 1);
                mpz_fdiv_q_2exp(half, half, 1);
                bool big =
                    mpz_sgn(rp.y[1]) ? mpz_cmp(rp.y[1], half) > 0 : mpz_cmp(rp.y[0], half) > 0;
                assert_int_equal(big, s);
                mpz_clear(half);
                /* the other flag gives -y */
                struct pt o, n;
                memset(&o, 0, sizeof o);
                memset(&n, 0, sizeof n);
                assert_true(g->from_x(&o, x.w, !s));
                g->affine_neg(&n, &a);
                assert_true(g->affine_eq(&o, &n));
                assert_false(g->affine_eq(&o, &a));
                /* perturbed y is off the curve */
                rf_add(g, rp.y, rp.y, rp.x);
                rp_to_aff(g, &n, &rp);
                assert_int_equal(g->on_curve(&n), rp_on_curve(g, &rp));
                rp_clear(&rp);
            }
            rf_clear(rx);
            rf_clear(rhs);
            rf_clear(t);
        }
        /* infinity */
        g->affine_set_inf(&a);
        assert_true(g->affine_is_inf(&a));
        assert_true(g->on_curve(&a));
        assert_true(g->in_subgroup(&a));
        assert_true(g->in_subgroup_slow(&a));
        g->affine_neg(&b, &a);
        assert_true(g->affine_is_inf(&b));
        g->from_affine(&b, &a);
        assert_true(g->is_inf(&b));
        g->set_inf(&b);
        g->to_affine(&a, &b);
        assert_true(g->affine_is_inf(&a));
    }
}

/* in_subgroup agrees with the slow check (and, on a sample, with the reference [r]P). */
static void test_subgroup(void **state)
{
    (void)state;
    size_t cases = czk_test_cases(240);
    mpz_t km;
    mpz_init(km);
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &groups[gi];
        struct pt a, j, t, o;
        size_t n_in = 0, n_out = 0;
        memset(&a, 0, sizeof a);
        memset(&t, 0, sizeof t);
        for (size_t c = 0; c < cases; c++) {
            int kind = (int)(c % 4);
            bool expect;
            if (kind == 0) { /* [k] G */
                rand_subgroup_point(g, &j, NULL);
                g->to_affine(&a, &j);
                expect = true;
            } else if (kind == 1) { /* a random curve point */
                rand_curve_point(g, &a);
                expect = gi == 0;
            } else { /* torsion of the cofactor only ([r] Q), or [k] G plus such torsion */
                size_t n;
                const uint64_t *r = g->order_limbs(&n);
                rand_curve_point(g, &a);
                g->from_affine(&j, &a);
                g->mul_limbs(&j, &j, r, n);
                if (kind == 3) {
                    rand_subgroup_point(g, &t, NULL);
                    g->add(&j, &j, &t);
                }
                g->to_affine(&a, &j);
                expect = gi == 0 || (kind == 2 && g->affine_is_inf(&a));
            }
            assert_true(g->on_curve(&a));
            bool fast = g->in_subgroup(&a), slow = g->in_subgroup_slow(&a);
            if (fast != slow)
                fail_msg("%s: in_subgroup %d != slow %d (case %zu)", g->name, fast, slow, c);
            assert_int_equal(fast, expect);
            n_in += fast;
            n_out += !fast;
            if (c < 12) {
                struct rpt rp;
                rp_init(&rp);
                aff_to_rp(g, &rp, &a);
                rp_mul(g, &rp, &rp, g->r);
                assert_int_equal(rp.inf, fast);
                rp_clear(&rp);
            }
            /* the endomorphism: maps onto the curve, acts as its eigenvalue exactly on G */
            if (g->endo && !g->affine_is_inf(&a)) {
                memset(&o, 0, sizeof o);
                g->endo(&o, &a);
                assert_true(g->on_curve(&o));
                size_t nl = (mpz_sizeinbase(g->endo_ev, 2) + 63) / 64;
                uint64_t ev[4];
                mpz_to_limbs(ev, 4, g->endo_ev);
                g->from_affine(&j, &a);
                g->mul_limbs(&t, &j, ev, nl);
                g->from_affine(&j, &o);
                assert_int_equal(g->eq(&t, &j), fast);
            }
        }
        if (gi != 0)
            assert_true(n_in > 0 && n_out > 0);
        print_message("%s: %zu points in the subgroup, %zu outside\n", g->name, n_in, n_out);
    }
    mpz_clear(km);
}

static void test_clear_cofactor(void **state)
{
    (void)state;
    size_t cases = czk_test_cases(24);
    for (int gi = 0; gi < 4; gi++) {
        const struct grp *g = &groups[gi];
        uint64_t heff[12];
        size_t nh = (mpz_sizeinbase(g->heff, 2) + 63) / 64;
        mpz_to_limbs(heff, nh, g->heff);
        struct pt a, j, r, t, inf;
        memset(&a, 0, sizeof a);
        for (size_t c = 0; c < cases; c++) {
            if (c % 4 == 3)
                rand_subgroup_point(g, &j, NULL);
            else {
                rand_curve_point(g, &a);
                jac_from(g, &j, &a);
            }
            g->clear_cofactor(&r, &j);
            g->to_affine(&a, &r);
            assert_true(g->on_curve(&a));
            assert_true(g->in_subgroup(&a));
            assert_true(g->in_subgroup_slow(&a));
            /* equals [h_eff] P */
            g->mul_limbs(&t, &j, heff, nh);
            assert_jac_eq(g, &r, &t);
            if (c < 2) {
                struct rpt rp;
                rp_init(&rp);
                jac_to_rp(g, &rp, &j);
                rp_mul(g, &rp, &rp, g->heff);
                assert_jac_is(g, &r, &rp);
                rp_clear(&rp);
            }
            /* aliasing */
            t = j;
            g->clear_cofactor(&t, &t);
            assert_jac_eq(g, &r, &t);
        }
        g->set_inf(&inf);
        g->clear_cofactor(&r, &inf);
        assert_true(g->is_inf(&r));
    }
}

int main(void)
{
    czk_test_seed_init("test_ec");
    setup_groups();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants), cmocka_unit_test(test_add),
        cmocka_unit_test(test_mul),       cmocka_unit_test(test_affine),
        cmocka_unit_test(test_subgroup),  cmocka_unit_test(test_clear_cofactor),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    teardown_groups();
    return rc;
}
