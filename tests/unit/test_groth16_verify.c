/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Groth16 verification (czk_groth16.h) against the circom/snarkjs vectors in
 * tests/vectors/groth16/<curve>/<circuit>/ (tools/gen_groth16_vectors.sh), plus
 * synthetic keys and proofs built from random scalars so that the verification
 * equation is checked independently of snarkjs (including 0 and 40 public
 * signals).
 *
 * Every committed proof must verify. Tampering must give CZK_ERR_INVALID_PROOF:
 * each proof point replaced by another valid point, each public signal + 1, the
 * vkey of another circuit, swapped vkey fields. Malformed input must give the
 * documented status and a message naming the input: wrong or unknown curve,
 * wrong number of public signals, points off the curve or outside the
 * subgroup, coordinates >= p, signals >= r, invalid JSON, missing members,
 * wrong protocol. Modifications are made on the JSON with jansson, so every
 * case runs through the same path as `czk verify`.
 */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <jansson.h>

#include "test_util.h"
#include "czk/czk_groth16.h"

#define NCURVES 2
#define NCIRCUITS 3

static const char *const curve_dirs[NCURVES] = {"bn254", "bls12_381"};
static const char *const circuits[NCIRCUITS] = {"cubic", "mulchain", "poly5"};
static const size_t circuit_npub[NCIRCUITS] = {1, 3, 5};

static const char *const r_dec[NCURVES] = {
    "21888242871839275222246405745257275088548364400416034343698204186575808495617",
    "52435875175126190479447740508185965837690552500527637822603658699938581184513",
};
static const char *const p_dec[NCURVES] = {
    "21888242871839275222246405745257275088696311157297823662689037894645226208583",
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687"
    "629129015664037894272559787",
};

struct vec {
    int curve; /* index into curve_dirs */
    int circuit;
    size_t npub;
    char *vk, *pub, *proof;
};

static struct vec vecs[NCURVES * NCIRCUITS];

/* ---- helpers --------------------------------------------------------------- */

static char *read_vec(int cv, int ci, const char *file)
{
    char name[256];
    char *s;

    snprintf(name, sizeof(name), "groth16/%s/%s/%s", curve_dirs[cv], circuits[ci], file);
    s = czk_test_read_vector(name, NULL);
    if (!s)
        fail_msg("missing vector %s (run tools/gen_groth16_vectors.sh)", name);
    return s;
}

static int setup_vectors(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++) {
        for (int ci = 0; ci < NCIRCUITS; ci++) {
            struct vec *v = &vecs[cv * NCIRCUITS + ci];
            v->curve = cv;
            v->circuit = ci;
            v->npub = circuit_npub[ci];
            v->vk = read_vec(cv, ci, "verification_key.json");
            v->pub = read_vec(cv, ci, "public.json");
            v->proof = read_vec(cv, ci, "proof.json");
        }
    }
    return 0;
}

static int teardown_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        free(vecs[i].vk);
        free(vecs[i].pub);
        free(vecs[i].proof);
    }
    return 0;
}

static json_t *jparse(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    if (!j)
        fail_msg("test JSON does not parse: %s", je.text);
    return j;
}

/* Dump j (stealing the reference) into a heap string. */
static char *jdump(json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    assert_non_null(s);
    json_decref(j);
    return s;
}

/* Decimal string of (dec + k) in a fresh jansson string. */
static json_t *dec_add(const char *dec, long k)
{
    mpz_t z;
    char *s;
    json_t *j;

    mpz_init(z);
    assert_int_equal(mpz_set_str(z, dec, 10), 0);
    if (k >= 0)
        mpz_add_ui(z, z, (unsigned long)k);
    else
        mpz_sub_ui(z, z, (unsigned long)-k);
    s = mpz_get_str(NULL, 10, z);
    j = json_string(s);
    free(s);
    mpz_clear(z);
    return j;
}

/* Which of the three inputs a case modifies. */
enum which { W_VK, W_PUB, W_PROOF };

/*
 * Verify v with input `w` replaced by `repl` (stolen; NULL: unmodified).
 * Returns the status; the message goes to err.
 */
static enum czk_status verify_with(const struct vec *v, enum which w, json_t *repl, char *err,
                                   size_t errlen)
{
    char *s = repl ? jdump(repl) : NULL;
    enum czk_status st;

    err[0] = '\0';
    st = czk_groth16_verify_json(w == W_VK && s ? s : v->vk, w == W_PUB && s ? s : v->pub,
                                 w == W_PROOF && s ? s : v->proof, err, errlen);
    free(s);
    return st;
}

static void expect(const struct vec *v, enum which w, json_t *repl, enum czk_status want,
                   const char *msg_part)
{
    char err[512];
    enum czk_status st = verify_with(v, w, repl, err, sizeof(err));

    if (st != want)
        fail_msg("%s/%s: status %d (%s) \"%s\", expected %d (%s)", curve_dirs[v->curve],
                 circuits[v->circuit], st, czk_status_str(st), err, want, czk_status_str(want));
    if (msg_part && !strstr(err, msg_part))
        fail_msg("%s/%s: message \"%s\" lacks \"%s\"", curve_dirs[v->curve], circuits[v->circuit],
                 err, msg_part);
}

static json_t *vk_json(const struct vec *v) { return jparse(v->vk); }
static json_t *pub_json(const struct vec *v) { return jparse(v->pub); }
static json_t *proof_json(const struct vec *v) { return jparse(v->proof); }

/* ---- per-curve point builders ---------------------------------------------- */

#define CURVE_HELPERS(C)                                                                           \
    static json_t *g1_json_##C(const struct czk_g1_##C##_affine *p)                                \
    {                                                                                              \
        char s[3][CZK_FF_DEC_MAX];                                                                 \
        czk_g1_##C##_to_dec(s, p);                                                                 \
        return json_pack("[sss]", s[0], s[1], s[2]);                                               \
    }                                                                                              \
    static json_t *g2_json_##C(const struct czk_g2_##C##_affine *p)                                \
    {                                                                                              \
        char s[6][CZK_FF_DEC_MAX];                                                                 \
        czk_g2_##C##_to_dec(s, p);                                                                 \
        return json_pack("[[ss][ss][ss]]", s[0], s[1], s[2], s[3], s[4], s[5]);                    \
    }                                                                                              \
    /* A twist point outside the r-subgroup, with x = k (k small). */                              \
    static json_t *g2_nonsub_json_##C(void)                                                        \
    {                                                                                              \
        struct czk_fp2_##C x;                                                                      \
        struct czk_g2_##C##_affine p;                                                              \
        for (uint64_t k = 1; k < 1000; k++) {                                                      \
            czk_fp_##C##_from_u64(&x.c0, k);                                                       \
            czk_fp_##C##_from_u64(&x.c1, 1);                                                       \
            if (!czk_g2_##C##_affine_from_x(&p, &x, false))                                        \
                continue;                                                                          \
            assert_true(czk_g2_##C##_affine_on_curve(&p));                                         \
            if (czk_g2_##C##_affine_in_subgroup(&p))                                               \
                continue;                                                                          \
            assert_false(czk_g2_##C##_affine_in_subgroup_slow(&p));                                \
            return g2_json_##C(&p);                                                                \
        }                                                                                          \
        fail_msg("no G2 point outside the subgroup found");                                        \
        return NULL;                                                                               \
    }                                                                                              \
    static json_t *g1_gen_json_##C(void)                                                           \
    {                                                                                              \
        struct czk_g1_##C##_affine g;                                                              \
        czk_g1_##C##_generator(&g);                                                                \
        return g1_json_##C(&g);                                                                    \
    }                                                                                              \
    static json_t *g2_gen_json_##C(void)                                                           \
    {                                                                                              \
        struct czk_g2_##C##_affine g;                                                              \
        czk_g2_##C##_generator(&g);                                                                \
        return g2_json_##C(&g);                                                                    \
    }

CURVE_HELPERS(bn254)
CURVE_HELPERS(bls12_381)

static json_t *g1_gen_json(int cv)
{
    return cv == 0 ? g1_gen_json_bn254() : g1_gen_json_bls12_381();
}
static json_t *g2_gen_json(int cv)
{
    return cv == 0 ? g2_gen_json_bn254() : g2_gen_json_bls12_381();
}
static json_t *g2_nonsub_json(int cv)
{
    return cv == 0 ? g2_nonsub_json_bn254() : g2_nonsub_json_bls12_381();
}

/* A BLS12-381 G1 point outside the subgroup (BN254 G1 has cofactor 1). */
static json_t *g1_nonsub_json_bls12_381(void)
{
    struct czk_fp_bls12_381 x;
    struct czk_g1_bls12_381_affine p;

    for (uint64_t k = 1; k < 1000; k++) {
        czk_fp_bls12_381_from_u64(&x, k);
        if (!czk_g1_bls12_381_affine_from_x(&p, &x, false))
            continue;
        if (czk_g1_bls12_381_affine_in_subgroup(&p))
            continue;
        assert_false(czk_g1_bls12_381_affine_in_subgroup_slow(&p));
        return g1_json_bls12_381(&p);
    }
    fail_msg("no G1 point outside the subgroup found");
    return NULL;
}

/* ---- committed vectors verify ---------------------------------------------- */

static void test_vectors_verify(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++)
        expect(&vecs[i], W_VK, NULL, CZK_OK, NULL);
}

static void test_vectors_struct_api(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        enum czk_groth16_curve want =
            v->curve == 0 ? CZK_GROTH16_CURVE_BN254 : CZK_GROTH16_CURVE_BLS12_381;
        struct czk_groth16_vkey vk;
        struct czk_groth16_public pub;
        struct czk_groth16_proof proof;
        char err[256];

        assert_int_equal(czk_groth16_vkey_parse(&vk, v->vk, err, sizeof(err)), CZK_OK);
        assert_int_equal(vk.curve, want);
        assert_int_equal(vk.n_public, v->npub);
        assert_int_equal(czk_groth16_proof_parse(&proof, vk.curve, v->proof, err, sizeof(err)),
                         CZK_OK);
        assert_int_equal(czk_groth16_public_parse(&pub, vk.curve, v->pub, err, sizeof(err)),
                         CZK_OK);
        assert_int_equal(pub.n, v->npub);
        assert_int_equal(czk_groth16_verify(&vk, &pub, &proof, err, sizeof(err)), CZK_OK);

        /* The same parsed key, shared: each public signal + 1 in place fails. */
        for (size_t k = 0; k < pub.n; k++) {
            if (want == CZK_GROTH16_CURVE_BN254) {
                struct czk_fr_bn254 one, save = pub.bn254[k];
                czk_fr_bn254_one(&one);
                czk_fr_bn254_add(&pub.bn254[k], &pub.bn254[k], &one);
                assert_int_equal(czk_groth16_verify(&vk, &pub, &proof, err, sizeof(err)),
                                 CZK_ERR_INVALID_PROOF);
                pub.bn254[k] = save;
            } else {
                struct czk_fr_bls12_381 one, save = pub.bls12_381[k];
                czk_fr_bls12_381_one(&one);
                czk_fr_bls12_381_add(&pub.bls12_381[k], &pub.bls12_381[k], &one);
                assert_int_equal(czk_groth16_verify(&vk, &pub, &proof, err, sizeof(err)),
                                 CZK_ERR_INVALID_PROOF);
                pub.bls12_381[k] = save;
            }
        }
        assert_int_equal(czk_groth16_verify(&vk, &pub, &proof, err, sizeof(err)), CZK_OK);

        /* Proof parsed for the other curve: rejected by the curve field. */
        {
            enum czk_groth16_curve other = want == CZK_GROTH16_CURVE_BN254
                                               ? CZK_GROTH16_CURVE_BLS12_381
                                               : CZK_GROTH16_CURVE_BN254;
            struct czk_groth16_proof p2;
            assert_int_equal(czk_groth16_proof_parse(&p2, other, v->proof, err, sizeof(err)),
                             CZK_ERR_FORMAT);
            assert_non_null(strstr(err, "proof: curve"));
        }
        /* Public signals with another count: FORMAT from the struct API too. */
        {
            size_t n = pub.n;
            pub.n = n - 1;
            assert_int_equal(czk_groth16_verify(&vk, &pub, &proof, err, sizeof(err)),
                             CZK_ERR_FORMAT);
            pub.n = n;
        }
        assert_int_equal(czk_groth16_verify(NULL, &pub, &proof, err, sizeof(err)),
                         CZK_ERR_INVALID_ARG);
        czk_groth16_public_free(&pub);
        czk_groth16_vkey_free(&vk);
        czk_groth16_vkey_free(&vk); /* zeroed: no-op */
        czk_groth16_vkey_free(NULL);
        czk_groth16_public_free(NULL);
    }
}

/* ---- tampering: well-formed but invalid ------------------------------------ */

static void test_tamper_proof_points(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        json_t *vk = vk_json(v), *p;

        /* pi_a := vk_alpha_1, generator, pi_c */
        p = proof_json(v);
        json_object_set(p, "pi_a", json_object_get(vk, "vk_alpha_1"));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, "does not verify");
        p = proof_json(v);
        json_object_set_new(p, "pi_a", g1_gen_json(v->curve));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        p = proof_json(v);
        json_object_set(p, "pi_a", json_object_get(p, "pi_c"));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        /* pi_b := vk_gamma_2, generator */
        p = proof_json(v);
        json_object_set(p, "pi_b", json_object_get(vk, "vk_gamma_2"));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        p = proof_json(v);
        json_object_set_new(p, "pi_b", g2_gen_json(v->curve));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        /* pi_c := IC[0], pi_a, infinity */
        p = proof_json(v);
        json_object_set(p, "pi_c", json_array_get(json_object_get(vk, "IC"), 0));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        p = proof_json(v);
        json_object_set(p, "pi_c", json_object_get(p, "pi_a"));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        p = proof_json(v);
        json_object_set_new(p, "pi_c", json_pack("[sss]", "0", "1", "0"));
        expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        /* -pi_a (y -> p - y) */
        {
            json_t *a;
            json_t *y;
            mpz_t z, pm;
            char *s;
            p = proof_json(v);
            a = json_object_get(p, "pi_a");
            y = json_array_get(a, 1);
            mpz_init_set_str(z, json_string_value(y), 10);
            mpz_init_set_str(pm, p_dec[v->curve], 10);
            mpz_sub(z, pm, z);
            s = mpz_get_str(NULL, 10, z);
            json_array_set_new(a, 1, json_string(s));
            free(s);
            mpz_clear(z);
            mpz_clear(pm);
            expect(v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
        }
        json_decref(vk);
    }
}

static void test_tamper_public(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        for (size_t k = 0; k < v->npub; k++) {
            json_t *pub = pub_json(v);
            json_array_set_new(pub, k, dec_add(json_string_value(json_array_get(pub, k)), 1));
            expect(v, W_PUB, pub, CZK_ERR_INVALID_PROOF, "does not verify");
            /* r - 1 is in range and wrong too. */
            pub = pub_json(v);
            json_array_set_new(pub, k, dec_add(r_dec[v->curve], -1));
            expect(v, W_PUB, pub, CZK_ERR_INVALID_PROOF, NULL);
        }
        /* Two signals swapped. */
        if (v->npub >= 2) {
            json_t *pub = pub_json(v);
            json_t *a = json_incref(json_array_get(pub, 0));
            json_array_set(pub, 0, json_array_get(pub, 1));
            json_array_set_new(pub, 1, a);
            expect(v, W_PUB, pub, CZK_ERR_INVALID_PROOF, NULL);
        }
    }
}

static void test_tamper_vkey(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        json_t *vk, *a;

        /* Swapped G2 members. */
        static const char *const swaps[][2] = {
            {"vk_gamma_2", "vk_delta_2"},
            {"vk_beta_2", "vk_gamma_2"},
            {"vk_beta_2", "vk_delta_2"},
        };
        for (size_t s = 0; s < sizeof(swaps) / sizeof(swaps[0]); s++) {
            vk = vk_json(v);
            a = json_incref(json_object_get(vk, swaps[s][0]));
            json_object_set(vk, swaps[s][0], json_object_get(vk, swaps[s][1]));
            json_object_set_new(vk, swaps[s][1], a);
            expect(v, W_VK, vk, CZK_ERR_INVALID_PROOF, "does not verify");
        }
        /* alpha := IC[0]; IC[0] := alpha */
        vk = vk_json(v);
        a = json_incref(json_object_get(vk, "vk_alpha_1"));
        json_object_set(vk, "vk_alpha_1", json_array_get(json_object_get(vk, "IC"), 0));
        json_array_set_new(json_object_get(vk, "IC"), 0, a);
        expect(v, W_VK, vk, CZK_ERR_INVALID_PROOF, NULL);
        /* IC[1] and IC[2] swapped */
        if (v->npub >= 2) {
            json_t *ic;
            vk = vk_json(v);
            ic = json_object_get(vk, "IC");
            a = json_incref(json_array_get(ic, 1));
            json_array_set(ic, 1, json_array_get(ic, 2));
            json_array_set_new(ic, 2, a);
            expect(v, W_VK, vk, CZK_ERR_INVALID_PROOF, NULL);
        }
        /* Each IC[k] replaced by the generator. */
        for (size_t k = 0; k <= v->npub; k++) {
            vk = vk_json(v);
            json_array_set_new(json_object_get(vk, "IC"), k, g1_gen_json(v->curve));
            expect(v, W_VK, vk, CZK_ERR_INVALID_PROOF, NULL);
        }
    }
}

/* The vkey of another circuit on the same curve, cut to this circuit's public count. */
static void test_tamper_other_circuit_vkey(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++) {
        for (int ci = 0; ci < NCIRCUITS; ci++) {
            const struct vec *v = &vecs[cv * NCIRCUITS + ci];
            for (int oi = 0; oi < NCIRCUITS; oi++) {
                const struct vec *o = &vecs[cv * NCIRCUITS + oi];
                json_t *vk, *ic;
                if (oi == ci)
                    continue;
                vk = vk_json(o);
                if (o->npub != v->npub) {
                    /* As is: the count does not match. */
                    expect(v, W_VK, json_incref(vk), CZK_ERR_FORMAT, "signals but the vkey");
                    if (o->npub < v->npub) {
                        json_decref(vk);
                        continue;
                    }
                    ic = json_object_get(vk, "IC");
                    while (json_array_size(ic) > v->npub + 1)
                        json_array_remove(ic, json_array_size(ic) - 1);
                    json_object_set_new(vk, "nPublic", json_integer((json_int_t)v->npub));
                }
                expect(v, W_VK, vk, CZK_ERR_INVALID_PROOF, NULL);
            }
        }
    }
}

/* ---- synthetic keys: the equation on random instances ---------------------- */

#define SYNTH_IMPL(C, CURVE_NAME, TOPMASK)                                                         \
    static void rand_fr_##C(struct czk_fr_##C *r)                                                  \
    {                                                                                              \
        uint8_t b[32];                                                                             \
        czk_test_rand_bytes(b, sizeof(b));                                                         \
        b[31] &= TOPMASK;                                                                          \
        assert_int_equal(czk_fr_##C##_from_bytes_le(r, b), CZK_OK);                                \
    }                                                                                              \
    static void g1_mul_gen_##C(struct czk_g1_##C##_affine *out, const struct czk_fr_##C *k)        \
    {                                                                                              \
        struct czk_g1_##C##_affine g;                                                              \
        struct czk_g1_##C gj, r;                                                                   \
        czk_g1_##C##_generator(&g);                                                                \
        czk_g1_##C##_from_affine(&gj, &g);                                                         \
        czk_g1_##C##_mul(&r, &gj, k);                                                              \
        czk_g1_##C##_to_affine(out, &r);                                                           \
    }                                                                                              \
    static void g2_mul_gen_##C(struct czk_g2_##C##_affine *out, const struct czk_fr_##C *k)        \
    {                                                                                              \
        struct czk_g2_##C##_affine g;                                                              \
        struct czk_g2_##C gj, r;                                                                   \
        czk_g2_##C##_generator(&g);                                                                \
        czk_g2_##C##_from_affine(&gj, &g);                                                         \
        czk_g2_##C##_mul(&r, &gj, k);                                                              \
        czk_g2_##C##_to_affine(out, &r);                                                           \
    }                                                                                              \
    /* vkey/public/proof JSON with e(A,B) = e(alpha,beta) e(IC,gamma) e(C,delta). */               \
    static void synth_##C(size_t n, char **vk_out, char **pub_out, char **proof_out)               \
    {                                                                                              \
        struct czk_fr_##C a, b, g, d, x, y, acc, t, c;                                             \
        struct czk_g1_##C##_affine p1;                                                             \
        struct czk_g2_##C##_affine p2;                                                             \
        json_t *vk = json_object(), *ic = json_array(), *pub = json_array(), *pr = json_object();  \
        rand_fr_##C(&a);                                                                           \
        rand_fr_##C(&b);                                                                           \
        rand_fr_##C(&g);                                                                           \
        rand_fr_##C(&d);                                                                           \
        rand_fr_##C(&x);                                                                           \
        rand_fr_##C(&y);                                                                           \
        rand_fr_##C(&acc); /* acc = i0 + sum s_i k_i */                                            \
        g1_mul_gen_##C(&p1, &acc);                                                                 \
        json_array_append_new(ic, g1_json_##C(&p1));                                               \
        for (size_t i = 0; i < n; i++) {                                                           \
            struct czk_fr_##C k, s;                                                                \
            char dec[CZK_FF_DEC_MAX];                                                              \
            rand_fr_##C(&k);                                                                       \
            rand_fr_##C(&s);                                                                       \
            if (i == 1)                                                                            \
                czk_fr_##C##_zero(&s); /* a zero signal */                                         \
            g1_mul_gen_##C(&p1, &k);                                                               \
            json_array_append_new(ic, g1_json_##C(&p1));                                           \
            czk_fr_##C##_mul(&t, &s, &k);                                                          \
            czk_fr_##C##_add(&acc, &acc, &t);                                                      \
            assert_true(czk_fr_##C##_to_dec(dec, sizeof(dec), &s) > 0);                            \
            json_array_append_new(pub, json_string(dec));                                          \
        }                                                                                          \
        /* c = (x y - a b - acc g) / d */                                                          \
        czk_fr_##C##_mul(&c, &x, &y);                                                              \
        czk_fr_##C##_mul(&t, &a, &b);                                                              \
        czk_fr_##C##_sub(&c, &c, &t);                                                              \
        czk_fr_##C##_mul(&t, &acc, &g);                                                            \
        czk_fr_##C##_sub(&c, &c, &t);                                                              \
        czk_fr_##C##_inv(&t, &d);                                                                  \
        czk_fr_##C##_mul(&c, &c, &t);                                                              \
        json_object_set_new(vk, "protocol", json_string("groth16"));                               \
        json_object_set_new(vk, "curve", json_string(CURVE_NAME));                                 \
        json_object_set_new(vk, "nPublic", json_integer((json_int_t)n));                           \
        g1_mul_gen_##C(&p1, &a);                                                                   \
        json_object_set_new(vk, "vk_alpha_1", g1_json_##C(&p1));                                   \
        g2_mul_gen_##C(&p2, &b);                                                                   \
        json_object_set_new(vk, "vk_beta_2", g2_json_##C(&p2));                                    \
        g2_mul_gen_##C(&p2, &g);                                                                   \
        json_object_set_new(vk, "vk_gamma_2", g2_json_##C(&p2));                                   \
        g2_mul_gen_##C(&p2, &d);                                                                   \
        json_object_set_new(vk, "vk_delta_2", g2_json_##C(&p2));                                   \
        json_object_set_new(vk, "IC", ic);                                                         \
        g1_mul_gen_##C(&p1, &x);                                                                   \
        json_object_set_new(pr, "pi_a", g1_json_##C(&p1));                                         \
        g2_mul_gen_##C(&p2, &y);                                                                   \
        json_object_set_new(pr, "pi_b", g2_json_##C(&p2));                                         \
        g1_mul_gen_##C(&p1, &c);                                                                   \
        json_object_set_new(pr, "pi_c", g1_json_##C(&p1));                                         \
        *vk_out = jdump(vk);                                                                       \
        *pub_out = jdump(pub);                                                                     \
        *proof_out = jdump(pr);                                                                    \
    }

/* Masks keep 32 random bytes below r (r's top byte: 0x30 for BN254, 0x73 for BLS12-381). */
SYNTH_IMPL(bn254, "bn128", 0x1f)
SYNTH_IMPL(bls12_381, "bls12381", 0x3f)

static void test_synthetic(void **state)
{
    static const size_t sizes[] = {0, 1, 2, 7, 40};
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++) {
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            size_t n = sizes[si];
            struct vec v = {.curve = cv, .circuit = 0, .npub = n};
            if (cv == 0)
                synth_bn254(n, &v.vk, &v.pub, &v.proof);
            else
                synth_bls12_381(n, &v.vk, &v.pub, &v.proof);
            expect(&v, W_VK, NULL, CZK_OK, NULL);
            for (size_t k = 0; k < n; k++) {
                json_t *pub = pub_json(&v);
                json_array_set_new(pub, k, dec_add(json_string_value(json_array_get(pub, k)), 1));
                expect(&v, W_PUB, pub, CZK_ERR_INVALID_PROOF, NULL);
            }
            {
                json_t *p = proof_json(&v);
                json_object_set_new(p, "pi_c", g1_gen_json(cv));
                expect(&v, W_PROOF, p, CZK_ERR_INVALID_PROOF, NULL);
            }
            if (n == 0) {
                expect(&v, W_PUB, jparse("[\"1\"]"), CZK_ERR_FORMAT,
                       "public: 1 signals but the vkey expects 0");
            }
            free(v.vk);
            free(v.pub);
            free(v.proof);
        }
    }
}

/* ---- malformed input: the right status and message -------------------------- */

static void test_wrong_curve(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        const char *other = v->curve == 0 ? "bls12381" : "bn128";
        const char *mine = v->curve == 0 ? "bn128" : "bls12381";
        char want[96];
        json_t *j;

        /* The proof says another curve than the vkey. */
        j = proof_json(v);
        json_object_set_new(j, "curve", json_string(other));
        snprintf(want, sizeof(want), "vkey: curve %s but proof says %s", mine, other);
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, want);
        /* Unknown curve names. */
        j = vk_json(v);
        json_object_set_new(j, "curve", json_string("bn256x"));
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: unsupported curve");
        j = proof_json(v);
        json_object_set_new(j, "curve", json_string("secp256k1"));
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: unsupported curve");
        j = vk_json(v);
        json_object_set_new(j, "curve", json_integer(254));
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: curve must be a string");
        /* The vkey claims the other curve: its points do not decode there. */
        j = vk_json(v);
        json_object_set_new(j, "curve", json_string(other));
        {
            char err[512];
            enum czk_status st = verify_with(v, W_VK, j, err, sizeof(err));
            assert_true(st == CZK_ERR_FORMAT || st == CZK_ERR_RANGE || st == CZK_ERR_NOT_ON_CURVE ||
                        st == CZK_ERR_NOT_IN_SUBGROUP);
            assert_non_null(strstr(err, "vkey: "));
        }
        /* Aliases snarkjs accepts; the proof may omit protocol and curve. */
        j = vk_json(v);
        json_object_set_new(j, "curve", json_string(v->curve == 0 ? "BN254" : "BLS12-381"));
        expect(v, W_VK, j, CZK_OK, NULL);
        j = vk_json(v);
        json_object_set_new(j, "curve", json_string(v->curve == 0 ? "alt_bn128" : "BLS12_381"));
        expect(v, W_VK, j, CZK_OK, NULL);
        j = proof_json(v);
        json_object_del(j, "curve");
        json_object_del(j, "protocol");
        expect(v, W_PROOF, j, CZK_OK, NULL);
    }
}

static void test_curve_names(void **state)
{
    enum czk_groth16_curve c = CZK_GROTH16_CURVE_NONE;
    (void)state;
    assert_int_equal(czk_groth16_curve_from_name(&c, "bn128"), CZK_OK);
    assert_int_equal(c, CZK_GROTH16_CURVE_BN254);
    assert_int_equal(czk_groth16_curve_from_name(&c, "bls12381"), CZK_OK);
    assert_int_equal(c, CZK_GROTH16_CURVE_BLS12_381);
    assert_int_equal(czk_groth16_curve_from_name(&c, "AltBN-128"), CZK_OK);
    assert_int_equal(c, CZK_GROTH16_CURVE_BN254);
    assert_int_equal(czk_groth16_curve_from_name(&c, "bls12377"), CZK_ERR_FORMAT);
    assert_int_equal(czk_groth16_curve_from_name(&c, ""), CZK_ERR_FORMAT);
    assert_int_equal(czk_groth16_curve_from_name(&c, "bn12"), CZK_ERR_FORMAT);
    assert_int_equal(czk_groth16_curve_from_name(NULL, "bn128"), CZK_ERR_INVALID_ARG);
    assert_string_equal(czk_groth16_curve_name(CZK_GROTH16_CURVE_BN254), "bn128");
    assert_string_equal(czk_groth16_curve_name(CZK_GROTH16_CURVE_BLS12_381), "bls12381");
    assert_string_equal(czk_groth16_curve_name(CZK_GROTH16_CURVE_NONE), "none");
}

static void test_public_count(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        char want[96];
        json_t *pub = pub_json(v);

        json_array_remove(pub, v->npub - 1);
        snprintf(want, sizeof(want), "public: %zu signals but the vkey expects %zu", v->npub - 1,
                 v->npub);
        expect(v, W_PUB, pub, CZK_ERR_FORMAT, want);
        pub = pub_json(v);
        json_array_append_new(pub, json_string("7"));
        snprintf(want, sizeof(want), "public: %zu signals but the vkey expects %zu", v->npub + 1,
                 v->npub);
        expect(v, W_PUB, pub, CZK_ERR_FORMAT, want);
        /* vkey: nPublic disagrees with IC */
        {
            json_t *vk = vk_json(v);
            json_object_set_new(vk, "nPublic", json_integer((json_int_t)v->npub + 1));
            expect(v, W_VK, vk, CZK_ERR_FORMAT, "vkey: IC has");
            vk = vk_json(v);
            json_object_set_new(vk, "nPublic", json_integer(-1));
            expect(v, W_VK, vk, CZK_ERR_FORMAT, "vkey: nPublic");
            vk = vk_json(v);
            json_object_set_new(vk, "nPublic", json_string("3"));
            expect(v, W_VK, vk, CZK_ERR_FORMAT, "vkey: nPublic");
            vk = vk_json(v);
            json_object_set_new(vk, "IC", json_array());
            json_object_set_new(vk, "nPublic", json_integer(0));
            expect(v, W_VK, vk, CZK_ERR_FORMAT, "vkey: IC has 0 points");
        }
    }
}

static void test_public_values(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        size_t k = v->npub - 1;
        char want[64];
        json_t *pub;

        snprintf(want, sizeof(want), "public[%zu]: value >= r", k);
        pub = pub_json(v);
        json_array_set_new(pub, k, json_string(r_dec[v->curve]));
        expect(v, W_PUB, pub, CZK_ERR_RANGE, want);
        pub = pub_json(v);
        json_array_set_new(pub, k, dec_add(r_dec[v->curve], 12345));
        expect(v, W_PUB, pub, CZK_ERR_RANGE, want);
        /* value + r (what a reducing verifier would accept) */
        pub = pub_json(v);
        {
            mpz_t z, r;
            char *s;
            mpz_init_set_str(z, json_string_value(json_array_get(pub, k)), 10);
            mpz_init_set_str(r, r_dec[v->curve], 10);
            mpz_add(z, z, r);
            s = mpz_get_str(NULL, 10, z);
            json_array_set_new(pub, k, json_string(s));
            free(s);
            mpz_clear(z);
            mpz_clear(r);
        }
        expect(v, W_PUB, pub, CZK_ERR_RANGE, want);

        static const char *const bad[] = {"", "-1", "0x10", "12a", " 1", "1.5", "1e3"};
        snprintf(want, sizeof(want), "public[%zu]:", k);
        for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
            pub = pub_json(v);
            json_array_set_new(pub, k, json_string(bad[b]));
            expect(v, W_PUB, pub, CZK_ERR_FORMAT, want);
        }
        pub = pub_json(v);
        json_array_set_new(pub, k, json_integer(5));
        expect(v, W_PUB, pub, CZK_ERR_FORMAT, want);
        pub = pub_json(v);
        json_array_set_new(pub, k, json_stringn("1\0002", 3)); /* "\u0000" in the text */
        expect(v, W_PUB, pub, CZK_ERR_FORMAT, "public: invalid JSON");
        expect(v, W_PUB, jparse("{\"a\": 1}"), CZK_ERR_FORMAT, "public: not a JSON array");
    }
}

/* Decimal string + 1 of one coordinate of a point in `obj`[member]. */
static void bump_coord(json_t *obj, const char *member, int idx, int sub)
{
    json_t *a = json_object_get(obj, member);
    json_t *c = sub >= 0 ? json_array_get(json_array_get(a, (size_t)idx), (size_t)sub)
                         : json_array_get(a, (size_t)idx);
    json_t *n = dec_add(json_string_value(c), 1);

    if (sub >= 0)
        json_array_set_new(json_array_get(a, (size_t)idx), (size_t)sub, n);
    else
        json_array_set_new(a, (size_t)idx, n);
}

static void test_points_off_curve(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        json_t *j;

        j = proof_json(v);
        bump_coord(j, "pi_a", 1, -1);
        expect(v, W_PROOF, j, CZK_ERR_NOT_ON_CURVE, "proof: pi_a is not on the G1 curve");
        j = proof_json(v);
        bump_coord(j, "pi_c", 0, -1);
        expect(v, W_PROOF, j, CZK_ERR_NOT_ON_CURVE, "proof: pi_c is not on the G1 curve");
        j = proof_json(v);
        bump_coord(j, "pi_b", 1, 0);
        expect(v, W_PROOF, j, CZK_ERR_NOT_ON_CURVE, "proof: pi_b is not on the G2 curve");
        j = proof_json(v);
        bump_coord(j, "pi_b", 0, 1);
        expect(v, W_PROOF, j, CZK_ERR_NOT_ON_CURVE, "proof: pi_b is not on the G2 curve");
        j = vk_json(v);
        bump_coord(j, "vk_alpha_1", 0, -1);
        expect(v, W_VK, j, CZK_ERR_NOT_ON_CURVE, "vkey: vk_alpha_1 is not on");
        j = vk_json(v);
        bump_coord(j, "vk_delta_2", 1, 1);
        expect(v, W_VK, j, CZK_ERR_NOT_ON_CURVE, "vkey: vk_delta_2 is not on");
        j = vk_json(v);
        {
            json_t *ic = json_object_get(j, "IC");
            json_t *pt = json_array_get(ic, 1);
            json_array_set_new(pt, 1, dec_add(json_string_value(json_array_get(pt, 1)), 1));
        }
        expect(v, W_VK, j, CZK_ERR_NOT_ON_CURVE, "vkey: IC[1] is not on");

        /* z != 1, and a coordinate >= p */
        j = proof_json(v);
        json_array_set_new(json_object_get(j, "pi_a"), 2, json_string("2"));
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: pi_a is not a valid G1 point");
        j = proof_json(v);
        json_array_set_new(json_object_get(j, "pi_a"), 0, dec_add(p_dec[v->curve], 0));
        expect(v, W_PROOF, j, CZK_ERR_RANGE, "proof: pi_a has a coordinate >= p");
        j = proof_json(v);
        json_array_set_new(json_array_get(json_object_get(j, "pi_b"), 1), 1,
                           dec_add(p_dec[v->curve], 3));
        expect(v, W_PROOF, j, CZK_ERR_RANGE, "proof: pi_b has a coordinate >= p");
        /* x + p: the same point modulo p, but not canonical */
        j = proof_json(v);
        {
            json_t *a = json_object_get(j, "pi_a");
            mpz_t z, pm;
            char *s;
            mpz_init_set_str(z, json_string_value(json_array_get(a, 0)), 10);
            mpz_init_set_str(pm, p_dec[v->curve], 10);
            mpz_add(z, z, pm);
            s = mpz_get_str(NULL, 10, z);
            json_array_set_new(a, 0, json_string(s));
            free(s);
            mpz_clear(z);
            mpz_clear(pm);
        }
        expect(v, W_PROOF, j, CZK_ERR_RANGE, "proof: pi_a has a coordinate >= p");
    }
}

static void test_points_outside_subgroup(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        json_t *j;

        j = proof_json(v);
        json_object_set_new(j, "pi_b", g2_nonsub_json(v->curve));
        expect(v, W_PROOF, j, CZK_ERR_NOT_IN_SUBGROUP, "proof: pi_b is not in the G2 subgroup");
        j = vk_json(v);
        json_object_set_new(j, "vk_gamma_2", g2_nonsub_json(v->curve));
        expect(v, W_VK, j, CZK_ERR_NOT_IN_SUBGROUP, "vkey: vk_gamma_2 is not in the G2 subgroup");
        if (v->curve == 1) {
            j = proof_json(v);
            json_object_set_new(j, "pi_a", g1_nonsub_json_bls12_381());
            expect(v, W_PROOF, j, CZK_ERR_NOT_IN_SUBGROUP, "proof: pi_a is not in the G1 subgroup");
            j = vk_json(v);
            json_array_set_new(json_object_get(j, "IC"), 0, g1_nonsub_json_bls12_381());
            expect(v, W_VK, j, CZK_ERR_NOT_IN_SUBGROUP, "vkey: IC[0] is not in the G1 subgroup");
        }
    }
}

static void test_invalid_json(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        const char *const texts[3] = {v->vk, v->pub, v->proof};
        static const char *const names[3] = {"vkey: invalid JSON", "public: invalid JSON",
                                             "proof: invalid JSON"};
        static const char *const junk[] = {"", "{", "[1,", "null", "\"x\"", "{\"a\":1} x"};

        for (int w = 0; w < 3; w++) {
            /* Truncated to half. */
            size_t len = strlen(texts[w]) / 2;
            char *half = malloc(len + 1);
            char err[512];
            enum czk_status st;
            assert_non_null(half);
            memcpy(half, texts[w], len);
            half[len] = '\0';
            st = czk_groth16_verify_json(w == 0 ? half : v->vk, w == 1 ? half : v->pub,
                                         w == 2 ? half : v->proof, err, sizeof(err));
            assert_int_equal(st, CZK_ERR_FORMAT);
            assert_non_null(strstr(err, names[w]));
            free(half);
            for (size_t k = 0; k < sizeof(junk) / sizeof(junk[0]); k++) {
                st = czk_groth16_verify_json(w == 0 ? junk[k] : v->vk, w == 1 ? junk[k] : v->pub,
                                             w == 2 ? junk[k] : v->proof, err, sizeof(err));
                assert_int_equal(st, CZK_ERR_FORMAT);
                assert_true(strncmp(err, names[w], 6) == 0 || strncmp(err, names[w], 4) == 0);
            }
        }
        /* Duplicate members are rejected. */
        expect(v, W_PUB, NULL, CZK_OK, NULL);
        {
            char err[512];
            size_t len = strlen(v->proof);
            char *dup = malloc(len + 64);
            const char *brace = strchr(v->proof, '{');
            assert_non_null(dup);
            assert_non_null(brace);
            snprintf(dup, len + 64, "{\"pi_a\": [\"1\", \"2\", \"1\"], %s", brace + 1);
            assert_int_equal(czk_groth16_verify_json(v->vk, v->pub, dup, err, sizeof(err)),
                             CZK_ERR_FORMAT);
            assert_non_null(strstr(err, "proof: invalid JSON"));
            free(dup);
        }
        /* Arrays where objects are expected. */
        expect(v, W_VK, jparse("[]"), CZK_ERR_FORMAT, "vkey: not a JSON object");
        expect(v, W_PROOF, jparse("[1]"), CZK_ERR_FORMAT, "proof: not a JSON object");
    }
}

static void test_missing_and_mistyped(void **state)
{
    static const char *const vk_members[] = {"protocol",  "curve",      "nPublic",    "vk_alpha_1",
                                             "vk_beta_2", "vk_gamma_2", "vk_delta_2", "IC"};
    static const char *const proof_members[] = {"pi_a", "pi_b", "pi_c"};
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        char want[64];
        json_t *j;

        for (size_t m = 0; m < sizeof(vk_members) / sizeof(vk_members[0]); m++) {
            j = vk_json(v);
            assert_int_equal(json_object_del(j, vk_members[m]), 0);
            snprintf(want, sizeof(want), "vkey: missing %s", vk_members[m]);
            expect(v, W_VK, j, CZK_ERR_FORMAT, want);
        }
        for (size_t m = 0; m < sizeof(proof_members) / sizeof(proof_members[0]); m++) {
            j = proof_json(v);
            assert_int_equal(json_object_del(j, proof_members[m]), 0);
            snprintf(want, sizeof(want), "proof: missing %s", proof_members[m]);
            expect(v, W_PROOF, j, CZK_ERR_FORMAT, want);
        }
        /* Mistyped points. */
        j = proof_json(v);
        json_object_set(j, "pi_a", json_object_get(j, "pi_b"));
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: pi_a must be an array of 3");
        j = proof_json(v);
        json_object_set(j, "pi_b", json_object_get(j, "pi_a"));
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: pi_b must be an array of 3 pairs");
        j = proof_json(v);
        json_array_remove(json_object_get(j, "pi_c"), 2);
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: pi_c must be an array of 3");
        j = proof_json(v);
        json_array_set_new(json_object_get(j, "pi_c"), 2, json_integer(1));
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: pi_c must be an array of 3");
        j = vk_json(v);
        json_array_set_new(json_object_get(j, "IC"), 0, json_string("1"));
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: IC[0] must be an array of 3");
        j = vk_json(v);
        json_object_set_new(j, "IC", json_object());
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: IC must be an array");
    }
}

static void test_wrong_protocol(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCURVES * NCIRCUITS; i++) {
        const struct vec *v = &vecs[i];
        json_t *j;

        j = vk_json(v);
        json_object_set_new(j, "protocol", json_string("plonk"));
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: protocol \"plonk\" is not groth16");
        j = proof_json(v);
        json_object_set_new(j, "protocol", json_string("fflonk"));
        expect(v, W_PROOF, j, CZK_ERR_FORMAT, "proof: protocol \"fflonk\" is not groth16");
        j = vk_json(v);
        json_object_set_new(j, "protocol", json_null());
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: protocol must be a string");
        j = vk_json(v);
        json_object_set_new(j, "protocol", json_string("Groth16"));
        expect(v, W_VK, j, CZK_ERR_FORMAT, "vkey: protocol");
    }
}

static void test_bad_args(void **state)
{
    const struct vec *v = &vecs[0];
    struct czk_groth16_vkey vk;
    struct czk_groth16_proof proof;
    struct czk_groth16_public pub;
    char err[128];
    (void)state;

    assert_int_equal(czk_groth16_verify_json(NULL, v->pub, v->proof, err, sizeof(err)),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_groth16_vkey_parse(NULL, v->vk, err, sizeof(err)), CZK_ERR_INVALID_ARG);
    assert_int_equal(
        czk_groth16_proof_parse(&proof, CZK_GROTH16_CURVE_NONE, v->proof, err, sizeof(err)),
        CZK_ERR_INVALID_ARG);
    assert_int_equal(
        czk_groth16_public_parse(&pub, CZK_GROTH16_CURVE_NONE, v->pub, err, sizeof(err)),
        CZK_ERR_INVALID_ARG);
    /* No error buffer, and a tiny one: still the right status. */
    assert_int_equal(czk_groth16_verify_json(v->vk, "[]", v->proof, NULL, 0), CZK_ERR_FORMAT);
    assert_int_equal(czk_groth16_verify_json(v->vk, "[]", v->proof, err, 4), CZK_ERR_FORMAT);
    assert_int_equal(strlen(err), 3);
    /* Structs for different curves. */
    assert_int_equal(czk_groth16_vkey_parse(&vk, vecs[0].vk, err, sizeof(err)), CZK_OK);
    assert_int_equal(czk_groth16_proof_parse(&proof, CZK_GROTH16_CURVE_BLS12_381,
                                             vecs[NCIRCUITS].proof, err, sizeof(err)),
                     CZK_OK);
    assert_int_equal(
        czk_groth16_public_parse(&pub, CZK_GROTH16_CURVE_BN254, vecs[0].pub, err, sizeof(err)),
        CZK_OK);
    assert_int_equal(czk_groth16_verify(&vk, &pub, &proof, err, sizeof(err)), CZK_ERR_FORMAT);
    czk_groth16_public_free(&pub);
    czk_groth16_vkey_free(&vk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_verify),
        cmocka_unit_test(test_vectors_struct_api),
        cmocka_unit_test(test_tamper_proof_points),
        cmocka_unit_test(test_tamper_public),
        cmocka_unit_test(test_tamper_vkey),
        cmocka_unit_test(test_tamper_other_circuit_vkey),
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_wrong_curve),
        cmocka_unit_test(test_curve_names),
        cmocka_unit_test(test_public_count),
        cmocka_unit_test(test_public_values),
        cmocka_unit_test(test_points_off_curve),
        cmocka_unit_test(test_points_outside_subgroup),
        cmocka_unit_test(test_invalid_json),
        cmocka_unit_test(test_missing_and_mistyped),
        cmocka_unit_test(test_wrong_protocol),
        cmocka_unit_test(test_bad_args),
    };
    czk_test_seed_init("groth16_verify");
    return cmocka_run_group_tests(tests, setup_vectors, teardown_vectors);
}
