/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the Groth16 prover (include/czk/czk_prover.h, src/groth16/prove*.c,
 * pce.c) on every committed vector (tests/vectors/groth16/{bn254,bls12_381}/
 * {mulchain,cubic,poly5}, from circom2 + snarkjs 0.7.6):
 *  - prove with random blinding on the CPU backend with 1 and 2 threads; the proof
 *    verifies (czk_groth16_verify) under the committed verification_key.json, and the
 *    public signals encode to the committed public.json byte for byte;
 *  - fixed r, s (0/0 and nonzero pairs): deterministic, verifies, independent of the
 *    thread count and of where B2 runs; r = 1, s = 2 on the cubic circuits equals the
 *    proof.json snarkjs's own prover writes with the same r, s (embedded below, made by
 *    running node_modules/snarkjs/src/groth16_prove.js with Fr.random replaced);
 *  - a witness with one private element changed gives a proof that does not verify;
 *  - key/witness mismatches (other circuit, other curve, w[0] != 1) are rejected before
 *    any stage runs; cancellation; VKEY_ONLY keys cannot prove;
 *  - export of the vkey equals the committed verification_key.json byte for byte;
 *  - the precompiled circuit's shape against the .r1cs, the --r1cs witness check, the
 *    bellman encoding, czk_witness_wrap range checks.
 * Single-threaded test code; the prover starts its own workers.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "czk/czk_prover.h"
#include "groth16/prove_internal.h"
#include "io/formats.h"

/* Proofs snarkjs 0.7.6 computes for the cubic circuits with r = 1, s = 2. */
static const char REF_BN254_CUBIC_R1_S2[] =
    "{\n"
    " \"pi_a\": [\n"
    "  \"10037742108651244706995210677036963981830031084498938586154269641033364538921\",\n"
    "  \"3334784165448560425644772839148915717587281843096019021441036294040619875555\",\n"
    "  \"1\"\n"
    " ],\n"
    " \"pi_b\": [\n"
    "  [\n"
    "   \"8292729539379160373555067409367238736923722174388018947061911168164795232229\",\n"
    "   \"20504302784739008862556854494308850596773479305630457858680111041122777650023\"\n"
    "  ],\n"
    "  [\n"
    "   \"15475083367814961832797717191143802197157723774334089650016002913446452208150\",\n"
    "   \"15492367627429590140977684249545841353149905586711874711116265867046650864153\"\n"
    "  ],\n"
    "  [\n"
    "   \"1\",\n"
    "   \"0\"\n"
    "  ]\n"
    " ],\n"
    " \"pi_c\": [\n"
    "  \"17604699835888788934244560531519478807789502070454266966901658366987211204312\",\n"
    "  \"1073741939952135623490095740917120596234357227058814657299058847852567646723\",\n"
    "  \"1\"\n"
    " ],\n"
    " \"protocol\": \"groth16\",\n"
    " \"curve\": \"bn128\"\n"
    "}";
static const char REF_BLS12_381_CUBIC_R1_S2[] =
    "{\n"
    " \"pi_a\": [\n"
    "  \"102366553548451725034476688734307813239903413080084981947518196893197289617829428309"
    "2554010145855561480085360359278\",\n"
    "  \"307034862012477730401951602498512108982667384902181020598270072313956790266064118246"
    "8456530921919599808501107186256\",\n"
    "  \"1\"\n"
    " ],\n"
    " \"pi_b\": [\n"
    "  [\n"
    "   \"15745174829188056688432854797761003113552969795785875382019363425253113041135961814"
    "68710169333321246347904184018734\",\n"
    "   \"14831276202917815620426469552488726511194560757404187689745997563376745258364050178"
    "45439762087354775030572173172039\"\n"
    "  ],\n"
    "  [\n"
    "   \"32639835166567505439364285352242515857651229486747192703541895435345711660156136110"
    "41121934281402447769193482850879\",\n"
    "   \"24335430333734353574434474172132558280272683608709935503374308263917168357377487134"
    "94249053843009461216537474277235\"\n"
    "  ],\n"
    "  [\n"
    "   \"1\",\n"
    "   \"0\"\n"
    "  ]\n"
    " ],\n"
    " \"pi_c\": [\n"
    "  \"457578189318681737627644306576255711513933777160287244892747836281723241952586986175"
    "418221390873641776206375061923\",\n"
    "  \"259197537049966337315390822431195001872291273347496416175627878916880035971328518795"
    "1491693587669179276870643758587\",\n"
    "  \"1\"\n"
    " ],\n"
    " \"protocol\": \"groth16\",\n"
    " \"curve\": \"bls12381\"\n"
    "}";

struct vec {
    const char *dir; /* under tests/vectors/groth16/ */
    enum czk_groth16_curve curve;
};

static const struct vec VECS[] = {
    {"bn254/mulchain", CZK_GROTH16_CURVE_BN254},
    {"bn254/cubic", CZK_GROTH16_CURVE_BN254},
    {"bn254/poly5", CZK_GROTH16_CURVE_BN254},
    {"bls12_381/mulchain", CZK_GROTH16_CURVE_BLS12_381},
    {"bls12_381/cubic", CZK_GROTH16_CURVE_BLS12_381},
    {"bls12_381/poly5", CZK_GROTH16_CURVE_BLS12_381},
};
#define NVEC (sizeof VECS / sizeof VECS[0])

static czk_prover_key_t KEYS[NVEC];
static czk_witness_t WITS[NVEC];
static struct czk_groth16_vkey VKS[NVEC];
static czk_backend_t BE1, BE2;

static const char *vpath(const struct vec *v, const char *file, char *buf, size_t len)
{
    snprintf(buf, len, "%s/groth16/%s/%s", CZK_VECTORS_DIR, v->dir, file);
    return buf;
}

static char *vread(const struct vec *v, const char *file)
{
    char name[256];
    snprintf(name, sizeof name, "groth16/%s/%s", v->dir, file);
    char *s = czk_test_read_vector(name, NULL);
    assert_non_null(s);
    return s;
}

static int setup(void **state)
{
    (void)state;
    char p[1024], err[512];
    for (size_t i = 0; i < NVEC; i++) {
        if (czk_prover_key_load(&KEYS[i], vpath(&VECS[i], "circuit.zkey", p, sizeof p), 0, 2, err,
                                sizeof err) != CZK_OK) {
            fprintf(stderr, "key %s: %s\n", VECS[i].dir, err);
            return -1;
        }
        if (czk_witness_load(&WITS[i], vpath(&VECS[i], "witness.wtns", p, sizeof p), err,
                             sizeof err) != CZK_OK) {
            fprintf(stderr, "witness %s: %s\n", VECS[i].dir, err);
            return -1;
        }
        char *js = vread(&VECS[i], "verification_key.json");
        enum czk_status st = czk_groth16_vkey_parse(&VKS[i], js, err, sizeof err);
        free(js);
        if (st != CZK_OK) {
            fprintf(stderr, "vkey %s: %s\n", VECS[i].dir, err);
            return -1;
        }
    }
    czk_device_t cpu = czk_backend_reg_device_get(czk_backend_reg_by_name("cpu"), 0);
    if (czk_backend_new(cpu, 1, &BE1, NULL, 0) != CZK_OK ||
        czk_backend_new(cpu, 2, &BE2, NULL, 0) != CZK_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < NVEC; i++) {
        czk_prover_key_free(KEYS[i]);
        czk_witness_free(WITS[i]);
        czk_groth16_vkey_free(&VKS[i]);
    }
    czk_backend_free(BE1);
    czk_backend_free(BE2);
    return 0;
}

static bool proof_eq(const struct czk_groth16_proof *a, const struct czk_groth16_proof *b)
{
    if (a->curve != b->curve)
        return false;
    if (a->curve == CZK_GROTH16_CURVE_BN254)
        return !memcmp(&a->bn254, &b->bn254, sizeof a->bn254);
    return !memcmp(&a->bls12_381, &b->bls12_381, sizeof a->bls12_381);
}

/* Canonical limbs of a small decimal-free value, or of a big one given as limbs. */
static void limbs(uint64_t out[4], uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3)
{
    out[0] = l0, out[1] = l1, out[2] = l2, out[3] = l3;
}

static enum czk_status prove_fixed(size_t vi, czk_backend_t be, const uint64_t r[4],
                                   const uint64_t s[4], unsigned flags,
                                   struct czk_groth16_proof *proof, struct czk_groth16_public *pub)
{
    char err[512] = "";
    struct czk_prove_opts o = {0};
    o.flags = flags;
    o.test_fixed_r = r;
    o.test_fixed_s = s;
    enum czk_status st = czk_prove(KEYS[vi], be, WITS[vi], &o, proof, pub, err, sizeof err);
    if (st != CZK_OK && st != CZK_ERR_RANGE) /* RANGE: the test's own bad r */
        fprintf(stderr, "%s: %s\n", VECS[vi].dir, err);
    return st;
}

/* ---- proofs verify; public signals equal the committed ones --------------------------- */

static void test_prove_verify(void **state)
{
    (void)state;
    for (size_t i = 0; i < NVEC; i++) {
        char *want_pub = vread(&VECS[i], "public.json");
        for (int t = 0; t < 2; t++) {
            struct czk_groth16_proof proof;
            struct czk_groth16_public pub;
            char err[512] = "";
            assert_int_equal(
                czk_prove(KEYS[i], t ? BE2 : BE1, WITS[i], NULL, &proof, &pub, err, sizeof err),
                CZK_OK);
            assert_int_equal(proof.curve, VECS[i].curve);
            assert_int_equal(czk_groth16_verify(&VKS[i], &pub, &proof, err, sizeof err), CZK_OK);
            char *pj = NULL, *uj = NULL;
            size_t pl = 0, ul = 0;
            assert_int_equal(czk_groth16_public_to_json(&pub, &uj, &ul), CZK_OK);
            assert_int_equal(ul, strlen(uj));
            assert_string_equal(uj, want_pub);
            /* the JSON round trip verifies too (what `czk verify` / snarkjs read) */
            assert_int_equal(czk_groth16_proof_to_json(&proof, &pj, &pl), CZK_OK);
            char *vk = vread(&VECS[i], "verification_key.json");
            assert_int_equal(czk_groth16_verify_json(vk, uj, pj, err, sizeof err), CZK_OK);
            free(vk);
            free(pj);
            free(uj);
            czk_groth16_public_free(&pub);
        }
        free(want_pub);
    }
}

static void test_random_blinding(void **state)
{
    (void)state;
    struct czk_groth16_proof p1, p2;
    assert_int_equal(czk_prove(KEYS[1], BE2, WITS[1], NULL, &p1, NULL, NULL, 0), CZK_OK);
    assert_int_equal(czk_prove(KEYS[1], BE2, WITS[1], NULL, &p2, NULL, NULL, 0), CZK_OK);
    assert_false(proof_eq(&p1, &p2));
}

/* ---- fixed r, s: deterministic, verifies, layout-independent ---------------------------- */

static void test_fixed_rs(void **state)
{
    (void)state;
    uint64_t rs[3][2][4];
    limbs(rs[0][0], 0, 0, 0, 0);
    limbs(rs[0][1], 0, 0, 0, 0);
    limbs(rs[1][0], 1, 0, 0, 0);
    limbs(rs[1][1], 2, 0, 0, 0);
    limbs(rs[2][0], 0x0123456789abcdefull, 0xfedcba9876543210ull, 0x1111111111111111ull,
          0x0222222222222222ull);
    limbs(rs[2][1], 0xdeadbeefcafef00dull, 0x0badc0de0badc0deull, 0x3333333333333333ull,
          0x0123456789abcdefull);
    for (size_t i = 0; i < NVEC; i++) {
        struct czk_groth16_proof first;
        for (int k = 0; k < 3; k++) {
            struct czk_groth16_proof p[3];
            struct czk_groth16_public pub;
            assert_int_equal(prove_fixed(i, BE1, rs[k][0], rs[k][1], 0, &p[0], &pub), CZK_OK);
            assert_int_equal(prove_fixed(i, BE2, rs[k][0], rs[k][1], 0, &p[1], NULL), CZK_OK);
            assert_int_equal(
                prove_fixed(i, BE2, rs[k][0], rs[k][1], CZK_PROVE_G2_IN_START, &p[2], NULL),
                CZK_OK);
            assert_true(proof_eq(&p[0], &p[1]));
            assert_true(proof_eq(&p[0], &p[2]));
            assert_int_equal(czk_groth16_verify(&VKS[i], &pub, &p[0], NULL, 0), CZK_OK);
            if (k == 0)
                first = p[0];
            else
                assert_false(proof_eq(&first, &p[0]));
            czk_groth16_public_free(&pub);
        }
        /* a fixed r >= the group order is refused */
        struct czk_groth16_proof p;
        uint64_t big[4] = {~0ull, ~0ull, ~0ull, ~0ull};
        assert_int_equal(prove_fixed(i, BE1, big, rs[1][1], 0, &p, NULL), CZK_ERR_RANGE);
    }
}

static void test_snarkjs_reference(void **state)
{
    (void)state;
    uint64_t r[4] = {1, 0, 0, 0}, s[4] = {2, 0, 0, 0};
    const struct {
        size_t vi;
        const char *want;
    } cases[] = {{1, REF_BN254_CUBIC_R1_S2}, {4, REF_BLS12_381_CUBIC_R1_S2}};
    for (size_t k = 0; k < 2; k++) {
        struct czk_groth16_proof p;
        char *js = NULL;
        assert_int_equal(prove_fixed(cases[k].vi, BE2, r, s, 0, &p, NULL), CZK_OK);
        assert_int_equal(czk_groth16_proof_to_json(&p, &js, NULL), CZK_OK);
        assert_string_equal(js, cases[k].want);
        free(js);
    }
}

/* ---- a wrong witness gives a proof that does not verify -------------------------------- */

static czk_witness_t flipped(size_t vi, uint64_t (**vals)[4])
{
    size_t n = czk_witness_count(WITS[vi]);
    struct czk_prover_key_info info;
    czk_prover_key_get_info(KEYS[vi], &info);
    *vals = malloc(n * sizeof **vals);
    memcpy(*vals, czk_witness_values(WITS[vi]), n * sizeof **vals);
    size_t j = info.n_public + 1; /* the first private signal */
    assert_true(j < n);
    czk_witness_t w = NULL;
    (*vals)[j][0] ^= 1;
    if (czk_witness_wrap(&w, VECS[vi].curve, (const uint64_t(*)[4]) * vals, n, NULL, 0) != CZK_OK) {
        (*vals)[j][0] ^= 3; /* was r - 1: r - 1 ^ 2 */
        assert_int_equal(
            czk_witness_wrap(&w, VECS[vi].curve, (const uint64_t(*)[4]) * vals, n, NULL, 0),
            CZK_OK);
    }
    return w;
}

static void test_flipped_witness(void **state)
{
    (void)state;
    for (size_t i = 0; i < NVEC; i++) {
        uint64_t(*vals)[4] = NULL;
        czk_witness_t w = flipped(i, &vals);
        for (int fixed = 0; fixed < 2; fixed++) {
            struct czk_groth16_proof p;
            struct czk_groth16_public pub;
            uint64_t r[4] = {3, 0, 0, 0}, s[4] = {4, 0, 0, 0};
            struct czk_prove_opts o = {0};
            if (fixed) {
                o.test_fixed_r = r;
                o.test_fixed_s = s;
            }
            assert_int_equal(czk_prove(KEYS[i], BE2, w, &o, &p, &pub, NULL, 0), CZK_OK);
            char err[256] = "";
            assert_int_equal(czk_groth16_verify(&VKS[i], &pub, &p, err, sizeof err),
                             CZK_ERR_INVALID_PROOF);
            czk_groth16_public_free(&pub);
        }
        czk_witness_free(w);
        free(vals);
    }
}

/* ---- mismatches are rejected before any stage ------------------------------------------ */

static int g_stages;
static char g_stage_log[512];

static void count_stage(void *user, const char *stage, double ms)
{
    (void)user;
    assert_true(ms >= 0);
    g_stages++;
    strncat(g_stage_log, stage, sizeof g_stage_log - strlen(g_stage_log) - 2);
    strcat(g_stage_log, " ");
}

static void test_mismatch(void **state)
{
    (void)state;
    struct czk_prove_opts o = {0};
    o.on_stage = count_stage;
    czk_prove_job_t job = NULL;
    char err[512];
    int tested = 0;
    g_stages = 0;
    for (size_t i = 0; i < NVEC; i++) {
        for (size_t j = 0; j < NVEC; j++) {
            if (i == j)
                continue;
            struct czk_prover_key_info ki;
            czk_prover_key_get_info(KEYS[i], &ki);
            bool same_shape =
                VECS[i].curve == VECS[j].curve && ki.n_vars == czk_witness_count(WITS[j]);
            if (same_shape)
                continue; /* a witness of the right curve and length is not detectable */
            err[0] = 0;
            tested++;
            assert_int_equal(czk_prove_start(&job, KEYS[i], BE1, WITS[j], &o, err, sizeof err),
                             CZK_ERR_FORMAT);
            assert_null(job);
            if (VECS[i].curve != VECS[j].curve)
                assert_non_null(strstr(err, "curve"));
            else
                assert_non_null(strstr(err, "nVars"));
        }
    }
    assert_int_equal(g_stages, 0);
    assert_true(tested >= 24); /* every cross-curve pair, and same-curve pairs of other sizes */
    /* w[0] must be 1 */
    size_t n = czk_witness_count(WITS[0]);
    uint64_t(*vals)[4] = malloc(n * sizeof *vals);
    memcpy(vals, czk_witness_values(WITS[0]), n * sizeof *vals);
    vals[0][0] = 2;
    czk_witness_t w = NULL;
    assert_int_equal(czk_witness_wrap(&w, VECS[0].curve, (const uint64_t(*)[4])vals, n, NULL, 0),
                     CZK_OK);
    assert_int_equal(czk_prove_start(&job, KEYS[0], BE1, w, &o, err, sizeof err), CZK_ERR_FORMAT);
    assert_int_equal(g_stages, 0);
    czk_witness_free(w);
    free(vals);
    /* NULL arguments */
    assert_int_equal(czk_prove_start(&job, NULL, BE1, WITS[0], NULL, NULL, 0), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_prove_start(&job, KEYS[0], NULL, WITS[0], NULL, NULL, 0),
                     CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_prove_finish(NULL, NULL, NULL, NULL, 0), CZK_ERR_INVALID_ARG);
}

/* ---- the split, stage reporting, cancellation ------------------------------------------ */

static void test_split_and_cancel(void **state)
{
    (void)state;
    uint64_t r[4] = {5, 0, 0, 0}, s[4] = {6, 0, 0, 0};
    for (size_t i = 0; i < NVEC; i++) {
        struct czk_groth16_proof whole, split;
        struct czk_groth16_public pub;
        assert_int_equal(prove_fixed(i, BE1, r, s, 0, &whole, NULL), CZK_OK);
        struct czk_prove_opts o = {0};
        o.test_fixed_r = r;
        o.test_fixed_s = s;
        o.on_stage = count_stage;
        g_stages = 0;
        g_stage_log[0] = 0;
        czk_prove_job_t job = NULL;
        assert_int_equal(czk_prove_start(&job, KEYS[i], BE2, WITS[i], &o, NULL, 0), CZK_OK);
        assert_string_equal(g_stage_log,
                            "synth ntt_a ntt_b ntt_c quotient msm_a msm_b1 msm_c msm_h ");
        /* opts (and the fixed r, s) were copied by start */
        uint64_t r2[4], s2[4];
        memcpy(r2, r, sizeof r2);
        memcpy(s2, s, sizeof s2);
        r[0] = 77, s[0] = 78;
        assert_int_equal(czk_prove_finish(job, &split, &pub, NULL, 0), CZK_OK);
        assert_string_equal(g_stage_log, "synth ntt_a ntt_b ntt_c quotient msm_a msm_b1 msm_c "
                                         "msm_h msm_b2 finish ");
        memcpy(r, r2, sizeof r2);
        memcpy(s, s2, sizeof s2);
        assert_true(proof_eq(&whole, &split));
        assert_int_equal(czk_groth16_verify(&VKS[i], &pub, &split, NULL, 0), CZK_OK);
        czk_groth16_public_free(&pub);

        /* abandoned after start */
        assert_int_equal(czk_prove_start(&job, KEYS[i], BE1, WITS[i], &o, NULL, 0), CZK_OK);
        czk_prove_job_free(job);
        czk_prove_job_free(NULL);

        /* cancelled before start, and between start and finish */
        volatile int cancel = 1;
        o.cancel = &cancel;
        o.on_stage = NULL;
        job = NULL;
        assert_int_equal(czk_prove_start(&job, KEYS[i], BE1, WITS[i], &o, NULL, 0), CZK_CANCELLED);
        assert_null(job);
        cancel = 0;
        assert_int_equal(czk_prove_start(&job, KEYS[i], BE1, WITS[i], &o, NULL, 0), CZK_OK);
        cancel = 1;
        memset(&split, 0xa5, sizeof split);
        struct czk_groth16_proof untouched = split;
        assert_int_equal(czk_prove_finish(job, &split, NULL, NULL, 0), CZK_CANCELLED);
        assert_memory_equal(&split, &untouched, sizeof split);
    }
}

/* ---- keys: vkey export, info, VKEY_ONLY, errors ----------------------------------------- */

static void test_vkey_export(void **state)
{
    (void)state;
    for (size_t i = 0; i < NVEC; i++) {
        char *want = vread(&VECS[i], "verification_key.json"), *got = NULL;
        size_t len = 0;
        assert_int_equal(czk_prover_key_vkey_json(KEYS[i], &got, &len), CZK_OK);
        assert_int_equal(len, strlen(got));
        assert_string_equal(got, want);
        free(got);
        free(want);
        /* the struct form equals the parsed committed file */
        struct czk_groth16_vkey vk;
        assert_int_equal(czk_prover_key_vkey(KEYS[i], &vk, NULL, 0), CZK_OK);
        assert_int_equal(vk.curve, VKS[i].curve);
        assert_int_equal(vk.n_public, VKS[i].n_public);
        if (vk.curve == CZK_GROTH16_CURVE_BN254) {
            assert_memory_equal(&vk.bn254.alpha, &VKS[i].bn254.alpha, sizeof vk.bn254.alpha);
            assert_memory_equal(&vk.bn254.delta, &VKS[i].bn254.delta, sizeof vk.bn254.delta);
            assert_memory_equal(vk.bn254.ic, VKS[i].bn254.ic,
                                (vk.n_public + 1) * sizeof *vk.bn254.ic);
        } else {
            assert_memory_equal(&vk.bls12_381.gamma, &VKS[i].bls12_381.gamma,
                                sizeof vk.bls12_381.gamma);
            assert_memory_equal(vk.bls12_381.ic, VKS[i].bls12_381.ic,
                                (vk.n_public + 1) * sizeof *vk.bls12_381.ic);
        }
        czk_groth16_vkey_free(&vk);
    }
}

static void test_key_info_and_r1cs(void **state)
{
    (void)state;
    char p[1024], err[512];
    for (size_t i = 0; i < NVEC; i++) {
        struct czk_prover_key_info ki;
        czk_prover_key_get_info(KEYS[i], &ki);
        struct czk_r1cs r;
        assert_int_equal(
            czk_r1cs_load(&r, vpath(&VECS[i], "circuit.r1cs", p, sizeof p), err, sizeof err),
            CZK_OK);
        uint32_t n_pub = r.n_pub_out + r.n_pub_in;
        assert_int_equal(ki.curve, VECS[i].curve);
        assert_int_equal(ki.n_vars, r.n_wires);
        assert_int_equal(ki.n_public, n_pub);
        /* snarkjs appends nPublic + 1 rows to A: the domain covers them */
        assert_int_equal(ki.n_rows_used, r.n_constraints + n_pub + 1);
        assert_int_equal(ki.domain_size, 1u << ki.lg_domain);
        assert_true(ki.domain_size >= ki.n_rows_used && ki.domain_size / 2 < ki.n_rows_used);
        assert_true(ki.nnz_a >= n_pub + 1);
        /* the witness satisfies the r1cs; the flipped one does not */
        uint64_t bad = 0;
        assert_int_equal(czk_prove_check_r1cs(&r, WITS[i], 2, &bad, err, sizeof err), CZK_OK);
        assert_int_equal(bad, UINT64_MAX);
        uint64_t(*vals)[4] = NULL;
        czk_witness_t w = flipped(i, &vals);
        for (unsigned t = 1; t <= 2; t++) {
            assert_int_equal(czk_prove_check_r1cs(&r, w, t, &bad, err, sizeof err), CZK_OK);
            assert_true(bad < r.n_constraints);
        }
        czk_witness_free(w);
        free(vals);
        /* other curve / other length */
        size_t other = (i + 3) % NVEC, other_len = (i % 3 == 0) ? i + 1 : i - 1;
        assert_int_equal(czk_prove_check_r1cs(&r, WITS[other], 1, &bad, err, sizeof err),
                         CZK_ERR_FORMAT);
        if (czk_witness_count(WITS[other_len]) != r.n_wires)
            assert_int_equal(czk_prove_check_r1cs(&r, WITS[other_len], 1, &bad, err, sizeof err),
                             CZK_ERR_FORMAT);
        czk_r1cs_free(&r);
    }
}

static void test_key_errors(void **state)
{
    (void)state;
    char p[1024], err[512] = "";
    czk_prover_key_t k = NULL;
    assert_int_not_equal(czk_prover_key_load(&k, "/nonexistent/x.zkey", 0, 1, err, sizeof err),
                         CZK_OK);
    assert_null(k);
    assert_non_null(strstr(err, "/nonexistent/x.zkey"));
    err[0] = 0;
    assert_int_equal(czk_prover_key_load(&k, vpath(&VECS[0], "witness.wtns", p, sizeof p), 0, 1,
                                         err, sizeof err),
                     CZK_ERR_FORMAT);
    assert_null(k);
    assert_true(strlen(err) > 0);
    /* VKEY_ONLY keys export but cannot prove */
    assert_int_equal(czk_prover_key_load(&k, vpath(&VECS[4], "circuit.zkey", p, sizeof p),
                                         CZK_PROVER_KEY_VKEY_ONLY | CZK_PROVER_KEY_TRUST, 1, err,
                                         sizeof err),
                     CZK_OK);
    czk_prove_job_t job = NULL;
    assert_int_equal(czk_prove_start(&job, k, BE1, WITS[4], NULL, NULL, 0), CZK_ERR_INVALID_ARG);
    char *js = NULL, *want = vread(&VECS[4], "verification_key.json");
    assert_int_equal(czk_prover_key_vkey_json(k, &js, NULL), CZK_OK);
    assert_string_equal(js, want);
    struct czk_prover_key_info ki;
    czk_prover_key_get_info(k, &ki);
    assert_int_equal(ki.n_rows_used, 0);
    free(js);
    free(want);
    czk_prover_key_free(k);
    czk_prover_key_free(NULL);
}

/* ---- encodings and witnesses ------------------------------------------------------------ */

static void test_bellman(void **state)
{
    (void)state;
    struct czk_groth16_proof p;
    uint8_t bin[192];
    assert_int_equal(czk_prove(KEYS[5], BE2, WITS[5], NULL, &p, NULL, NULL, 0), CZK_OK);
    assert_int_equal(czk_groth16_proof_to_bellman(&p, bin), CZK_OK);
    struct czk_g1_bls12_381_affine a, c;
    struct czk_g2_bls12_381_affine b;
    assert_int_equal(czk_g1_bls12_381_uncompress(&a, bin, 0), CZK_OK);
    assert_int_equal(czk_g2_bls12_381_uncompress(&b, bin + 48, 0), CZK_OK);
    assert_int_equal(czk_g1_bls12_381_uncompress(&c, bin + 144, 0), CZK_OK);
    assert_true(czk_g1_bls12_381_affine_eq(&a, &p.bls12_381.a));
    assert_true(czk_g2_bls12_381_affine_eq(&b, &p.bls12_381.b));
    assert_true(czk_g1_bls12_381_affine_eq(&c, &p.bls12_381.c));
    assert_int_equal(bin[0] & 0x80, 0x80); /* compressed flag */
    assert_int_equal(czk_prove(KEYS[0], BE2, WITS[0], NULL, &p, NULL, NULL, 0), CZK_OK);
    assert_int_equal(czk_groth16_proof_to_bellman(&p, bin), CZK_ERR_INVALID_ARG);
}

static void test_witness_and_json(void **state)
{
    (void)state;
    const uint64_t *r = czk_fr_bn254_modulus();
    uint64_t vals[3][4] = {{1, 0, 0, 0}, {5, 0, 0, 0}, {r[0], r[1], r[2], r[3]}};
    czk_witness_t w = NULL;
    char err[256] = "";
    assert_int_equal(czk_witness_wrap(&w, CZK_GROTH16_CURVE_BN254, (const uint64_t(*)[4])vals, 3,
                                      err, sizeof err),
                     CZK_ERR_RANGE);
    assert_non_null(strstr(err, "[2]"));
    assert_null(w);
    assert_int_equal(czk_witness_wrap(&w, CZK_GROTH16_CURVE_BN254, (const uint64_t(*)[4])vals, 2,
                                      err, sizeof err),
                     CZK_OK);
    assert_int_equal(czk_witness_count(w), 2);
    assert_int_equal(czk_witness_curve(w), CZK_GROTH16_CURVE_BN254);
    assert_ptr_equal(czk_witness_values(w), vals);
    czk_witness_free(w);
    czk_witness_free(NULL);
    assert_int_equal(
        czk_witness_wrap(&w, CZK_GROTH16_CURVE_NONE, (const uint64_t(*)[4])vals, 2, NULL, 0),
        CZK_ERR_INVALID_ARG);
    assert_int_not_equal(czk_witness_load(&w, "/nonexistent.wtns", err, sizeof err), CZK_OK);

    /* public.json with no signals, as bfj writes it */
    struct czk_groth16_public pub = {0};
    pub.curve = CZK_GROTH16_CURVE_BLS12_381;
    char *js = NULL;
    size_t len = 0;
    assert_int_equal(czk_groth16_public_to_json(&pub, &js, &len), CZK_OK);
    assert_string_equal(js, "[\n]");
    assert_int_equal(len, 3);
    free(js);
    pub.curve = CZK_GROTH16_CURVE_NONE;
    assert_int_equal(czk_groth16_public_to_json(&pub, &js, &len), CZK_ERR_INVALID_ARG);
}

int main(void)
{
    czk_test_seed_init("test_prove");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prove_verify),      cmocka_unit_test(test_random_blinding),
        cmocka_unit_test(test_fixed_rs),          cmocka_unit_test(test_snarkjs_reference),
        cmocka_unit_test(test_flipped_witness),   cmocka_unit_test(test_mismatch),
        cmocka_unit_test(test_split_and_cancel),  cmocka_unit_test(test_vkey_export),
        cmocka_unit_test(test_key_info_and_r1cs), cmocka_unit_test(test_key_errors),
        cmocka_unit_test(test_bellman),           cmocka_unit_test(test_witness_and_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
