/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Readers and writers of .r1cs, .wtns and .zkey (src/io/formats.h) on the committed
 * circom/snarkjs vectors of both curves:
 *  - counts against what `snarkjs r1cs info` and the vkeys report (hardcoded below);
 *  - end to end: every r1cs constraint A·w ∘ B·w = C·w holds for the committed witness
 *    (and fails for a changed one), the zkey's coefficients are the r1cs's A and B
 *    (czk_zkey_check_r1cs), and its IC, alpha, beta, gamma, delta equal the vkey JSON;
 *  - round trips: load -> write gives the original bytes (all three formats), and
 *    random in-memory r1cs / wtns survive write -> load;
 *  - bad input: every prefix of every file, every single-bit flip of the small files
 *    (with an exact prediction of which flips may pass, see flip_* below), wrong
 *    magic/version, sizes past the end, enormous counts, duplicated sections,
 *    trailing data, values >= r, coordinates >= q, points off the curve and outside
 *    the subgroup, the wrong curve, unsupported protocols;
 *  - the subgroup-check cache, in process and in the trusted-keys file.
 * With CZK_IO_WRITE_DIR set, the written files are kept there for
 * tests/cli/test_io_snarkjs.sh, which feeds them to snarkjs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "czk/czk_groth16.h"
#include "io/formats.h"

#define NCURVES 2
#define NCIRCUITS 3

static const char *const curve_dirs[NCURVES] = {"bn254", "bls12_381"};
static const enum czk_groth16_curve curve_ids[NCURVES] = {CZK_GROTH16_CURVE_BN254,
                                                          CZK_GROTH16_CURVE_BLS12_381};
static const char *const circuits[NCIRCUITS] = {"mulchain", "cubic", "poly5"};

/* `snarkjs r1cs info` (identical for both curves) and the vkeys' nPublic. */
struct expect {
    uint32_t wires, constraints, prv_in, pub_in, out;
    uint64_t labels;
    uint32_t n_public, domain, n_coefs;
};
static const struct expect expects[NCIRCUITS] = {
    {12, 8, 1, 2, 1, 13, 3, 16, 20}, /* mulchain */
    {5, 3, 1, 0, 1, 5, 1, 8, 6},     /* cubic */
    {10, 4, 1, 4, 1, 11, 5, 16, 18}, /* poly5 */
};

static char tmpdir[256];
static char errbuf[512];

/* ---- helpers ---------------------------------------------------------------------------- */

static uint8_t *read_vec(int cv, int ci, const char *file, size_t *len)
{
    char name[256];
    snprintf(name, sizeof name, "groth16/%s/%s/%s", curve_dirs[cv], circuits[ci], file);
    uint8_t *p = (uint8_t *)czk_test_read_vector(name, len);
    if (!p)
        fail_msg("missing vector %s", name);
    return p;
}

static void vec_path(char *buf, size_t len, int cv, int ci, const char *file)
{
    snprintf(buf, len, "%s/groth16/%s/%s/%s", CZK_VECTORS_DIR, curve_dirs[cv], circuits[ci],
             file);
}

static void tmp_path(char *buf, size_t len, const char *name)
{
    const char *keep = getenv("CZK_IO_WRITE_DIR");
    snprintf(buf, len, "%s/%s", keep && *keep ? keep : tmpdir, name);
}

static uint8_t *read_path(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void write_path(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

/* The test's own reading of a section table (independent of src/io/binfile.c). */
struct tsec {
    uint32_t type;
    size_t hdr, off, size; /* header offset, data offset, data size */
};

static int tsections(const uint8_t *d, size_t n, struct tsec *s, int max)
{
    int ns = (int)rd32(d + 8);
    size_t p = 12;
    assert_true(ns <= max);
    for (int i = 0; i < ns; i++) {
        s[i].type = rd32(d + p);
        s[i].size = (size_t)rd64(d + p + 4);
        s[i].hdr = p;
        s[i].off = p + 12;
        p += 12 + s[i].size;
    }
    assert_int_equal(p, n);
    return ns;
}

static const struct tsec *tfind(const struct tsec *s, int ns, uint32_t type)
{
    for (int i = 0; i < ns; i++)
        if (s[i].type == type)
            return &s[i];
    fail_msg("section %u missing", type);
    return NULL;
}

static const uint64_t *fr_mod(int cv)
{
    return cv == 0 ? czk_fr_bn254_modulus() : czk_fr_bls12_381_modulus();
}

static bool limbs_lt(const uint64_t *a, const uint64_t *m, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != m[i])
            return a[i] < m[i];
    return false;
}

static bool le_lt(const uint8_t *p, const uint64_t *m, int nlimbs)
{
    uint64_t a[6];
    for (int i = 0; i < nlimbs; i++)
        a[i] = rd64(p + 8 * i);
    return limbs_lt(a, m, nlimbs);
}

/* ---- r1cs satisfaction ------------------------------------------------------------------ */

#define SATISFIED(C)                                                                               \
    static bool satisfied_##C(const struct czk_r1cs *r, const uint64_t (*w)[4], uint32_t n)       \
    {                                                                                              \
        struct czk_fr_##C *wm = malloc(n * sizeof *wm);                                            \
        bool ok = true;                                                                            \
        assert_non_null(wm);                                                                       \
        for (uint32_t i = 0; i < n; i++)                                                           \
            assert_int_equal(czk_fr_##C##_from_canonical(&wm[i], w[i]), CZK_OK);                   \
        for (uint32_t i = 0; i < r->n_constraints && ok; i++) {                                    \
            struct czk_fr_##C acc[3], t, v;                                                        \
            for (int k = 0; k < 3; k++) {                                                          \
                const struct czk_csr *a = &r->m[k];                                                \
                czk_fr_##C##_zero(&acc[k]);                                                        \
                for (uint64_t j = a->row_ptr[i]; j < a->row_ptr[i + 1]; j++) {                     \
                    memcpy(v.l, a->val[j], sizeof v.l);                                            \
                    assert_true(a->col[j] < n);                                                    \
                    czk_fr_##C##_mul(&t, &v, &wm[a->col[j]]);                                      \
                    czk_fr_##C##_add(&acc[k], &acc[k], &t);                                        \
                }                                                                                  \
            }                                                                                      \
            czk_fr_##C##_mul(&t, &acc[0], &acc[1]);                                                \
            ok = czk_fr_##C##_eq(&t, &acc[2]);                                                     \
        }                                                                                          \
        free(wm);                                                                                  \
        return ok;                                                                                 \
    }
SATISFIED(bn254)
SATISFIED(bls12_381)

static bool satisfied(const struct czk_r1cs *r, const uint64_t (*w)[4], uint32_t n)
{
    assert_int_equal(n, r->n_wires);
    if (r->curve == CZK_GROTH16_CURVE_BN254)
        return satisfied_bn254(r, w, n);
    return satisfied_bls12_381(r, w, n);
}

/* ---- zkey vs vkey JSON ------------------------------------------------------------------ */

#define VKEY_EQ(C)                                                                                 \
    static void vkey_eq_##C(const struct czk_zkey *z, const struct czk_groth16_vkey *vk)          \
    {                                                                                              \
        const struct czk_g1_##C##_affine *ic = z->ic;                                              \
        assert_true(czk_g1_##C##_affine_eq(z->alpha1, &vk->C.alpha));                              \
        assert_true(czk_g2_##C##_affine_eq(z->beta2, &vk->C.beta));                                \
        assert_true(czk_g2_##C##_affine_eq(z->gamma2, &vk->C.gamma));                              \
        assert_true(czk_g2_##C##_affine_eq(z->delta2, &vk->C.delta));                              \
        for (size_t i = 0; i <= vk->n_public; i++)                                                 \
            assert_true(czk_g1_##C##_affine_eq(&ic[i], &vk->C.ic[i]));                             \
        /* and a negative control: IC_0 differs from IC_1 */                                       \
        assert_false(czk_g1_##C##_affine_eq(&ic[0], &vk->C.ic[1]));                                \
    }
VKEY_EQ(bn254)
VKEY_EQ(bls12_381)

static void check_vkey(int cv, int ci, const struct czk_zkey *z)
{
    size_t len;
    char *json = (char *)read_vec(cv, ci, "verification_key.json", &len);
    struct czk_groth16_vkey vk;
    assert_int_equal(czk_groth16_vkey_parse(&vk, json, errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(vk.curve, z->curve);
    assert_int_equal(vk.n_public, z->n_public);
    if (cv == 0)
        vkey_eq_bn254(z, &vk);
    else
        vkey_eq_bls12_381(z, &vk);
    czk_groth16_vkey_free(&vk);
    free(json);
}

/* ---- loading the vectors ---------------------------------------------------------------- */

static void test_load_vectors(void **state)
{
    (void)state;
    char path[1024];
    for (int cv = 0; cv < NCURVES; cv++) {
        for (int ci = 0; ci < NCIRCUITS; ci++) {
            const struct expect *e = &expects[ci];
            struct czk_r1cs r;
            struct czk_wtns w;
            struct czk_zkey z;

            vec_path(path, sizeof path, cv, ci, "circuit.r1cs");
            assert_int_equal(czk_r1cs_load(&r, path, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(r.curve, curve_ids[cv]);
            assert_int_equal(r.n_wires, e->wires);
            assert_int_equal(r.n_constraints, e->constraints);
            assert_int_equal(r.n_prv_in, e->prv_in);
            assert_int_equal(r.n_pub_in, e->pub_in);
            assert_int_equal(r.n_pub_out, e->out);
            assert_int_equal(r.n_labels, e->labels);
            assert_non_null(r.wire_to_label);
            assert_int_equal(r.wire_to_label[0], 0);
            for (int k = 0; k < 3; k++) {
                assert_int_equal(r.m[k].n_rows, e->constraints);
                assert_int_equal(r.m[k].n_cols, e->wires);
                assert_int_equal(r.m[k].row_ptr[e->constraints], r.m[k].nnz);
            }

            vec_path(path, sizeof path, cv, ci, "witness.wtns");
            assert_int_equal(czk_wtns_load(&w, path, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(w.curve, curve_ids[cv]);
            assert_int_equal(w.n, e->wires);
            assert_true(w.values[0][0] == 1 && w.values[0][1] == 0 && w.values[0][2] == 0 &&
                        w.values[0][3] == 0);
            assert_non_null(w.owned); /* snarkjs puts section 2 at offset 76 */
            assert_true(((uintptr_t)w.values & 7) == 0);

            /* end to end: the witness satisfies the constraints ... */
            assert_true(satisfied(&r, w.values, w.n));
            /* ... and a changed witness does not (the check can fail) */
            uint64_t(*bad)[4] = malloc(w.n * sizeof *bad);
            assert_non_null(bad);
            memcpy(bad, w.values, w.n * sizeof *bad);
            bad[w.n - 1][0] ^= 1;
            assert_false(satisfied(&r, (const uint64_t(*)[4])bad, w.n));
            memcpy(bad, w.values, w.n * sizeof *bad);
            bad[1][0] ^= 2; /* the first output */
            assert_false(satisfied(&r, (const uint64_t(*)[4])bad, w.n));
            free(bad);

            vec_path(path, sizeof path, cv, ci, "circuit.zkey");
            czk_zkey_trust_cache_clear();
            assert_int_equal(czk_zkey_load(&z, path, 0, 0, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(z.curve, curve_ids[cv]);
            assert_int_equal(z.n8q, cv == 0 ? 32 : 48);
            assert_int_equal(z.n8r, 32);
            assert_int_equal(z.n_vars, e->wires);
            assert_int_equal(z.n_public, e->n_public);
            assert_int_equal(z.n_public, e->out + e->pub_in);
            assert_int_equal(z.domain_size, e->domain);
            assert_int_equal(1u << z.lg_domain, e->domain);
            assert_int_equal(z.n_coefs, e->n_coefs);
            assert_true(z.has_hash);
            assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
            assert_non_null(z.contributions);
            assert_true(z.contributions_size >= 68);
            assert_int_equal(rd32(z.contributions + 64), 1); /* one contribution */
            assert_non_null(z.file.map);
            check_vkey(cv, ci, &z);
            assert_int_equal(czk_zkey_check_r1cs(&z, &r, errbuf, sizeof errbuf), CZK_OK);

            /* the second load of the same bytes skips the subgroup check */
            struct czk_zkey z2;
            assert_int_equal(czk_zkey_load(&z2, path, 0, 1, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(z2.subgroup, CZK_ZKEY_SUBGROUP_CACHED);
            assert_memory_equal(z2.hash, z.hash, 32);
            czk_zkey_free(&z2);
            assert_int_equal(czk_zkey_load(&z2, path, CZK_IO_SKIP_SUBGROUP, 1, errbuf,
                                           sizeof errbuf),
                             CZK_OK);
            assert_int_equal(z2.subgroup, CZK_ZKEY_SUBGROUP_SKIPPED);
            assert_false(z2.has_hash);
            czk_zkey_free(&z2);
            assert_int_equal(czk_zkey_load(&z2, path, CZK_IO_SKIP_SUBGROUP | CZK_IO_FORCE_HASH,
                                           1, errbuf, sizeof errbuf),
                             CZK_OK);
            assert_true(z2.has_hash);
            assert_memory_equal(z2.hash, z.hash, 32);
            czk_zkey_free(&z2);

            czk_zkey_free(&z);
            czk_wtns_free(&w);
            czk_r1cs_free(&r);
            /* _free leaves a zeroed struct; freeing again is a no-op */
            czk_zkey_free(&z);
            czk_wtns_free(&w);
            czk_r1cs_free(&r);
        }
    }
}

/* A zkey must not be accepted for another circuit or with a changed coefficient. */
static void test_zkey_r1cs_mismatch(void **state)
{
    (void)state;
    char path[1024];
    struct czk_r1cs r, r_other;
    struct czk_zkey z;
    vec_path(path, sizeof path, 0, 0, "circuit.r1cs");
    assert_int_equal(czk_r1cs_load(&r, path, errbuf, sizeof errbuf), CZK_OK);
    vec_path(path, sizeof path, 0, 2, "circuit.r1cs");
    assert_int_equal(czk_r1cs_load(&r_other, path, errbuf, sizeof errbuf), CZK_OK);
    vec_path(path, sizeof path, 0, 0, "circuit.zkey");
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_SKIP_SUBGROUP, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(czk_zkey_check_r1cs(&z, &r, errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(czk_zkey_check_r1cs(&z, &r_other, errbuf, sizeof errbuf), CZK_ERR_FORMAT);

    /* one changed r1cs coefficient */
    uint64_t save = r.m[1].val[0][0];
    r.m[1].val[0][0] ^= 1;
    assert_int_equal(czk_zkey_check_r1cs(&z, &r, errbuf, sizeof errbuf), CZK_ERR_FORMAT);
    r.m[1].val[0][0] = save;
    /* a moved wire */
    uint32_t col = r.m[0].col[0];
    r.m[0].col[0] = col == 1 ? 2 : 1;
    assert_int_equal(czk_zkey_check_r1cs(&z, &r, errbuf, sizeof errbuf), CZK_ERR_FORMAT);
    r.m[0].col[0] = col;
    assert_int_equal(czk_zkey_check_r1cs(&z, &r, errbuf, sizeof errbuf), CZK_OK);

    /* the other curve */
    struct czk_r1cs rb;
    vec_path(path, sizeof path, 1, 0, "circuit.r1cs");
    assert_int_equal(czk_r1cs_load(&rb, path, errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(czk_zkey_check_r1cs(&z, &rb, errbuf, sizeof errbuf), CZK_ERR_FORMAT);
    czk_r1cs_free(&rb);
    czk_zkey_free(&z);
    czk_r1cs_free(&r);
    czk_r1cs_free(&r_other);
}

/* ---- round trips ------------------------------------------------------------------------ */

static void assert_same_file(const char *a, const uint8_t *orig, size_t orig_len)
{
    size_t n;
    uint8_t *b = read_path(a, &n);
    assert_non_null(b);
    assert_int_equal(n, orig_len);
    assert_memory_equal(b, orig, n);
    free(b);
}

static void assert_r1cs_eq(const struct czk_r1cs *a, const struct czk_r1cs *b)
{
    assert_int_equal(a->curve, b->curve);
    assert_int_equal(a->n_wires, b->n_wires);
    assert_int_equal(a->n_pub_out, b->n_pub_out);
    assert_int_equal(a->n_pub_in, b->n_pub_in);
    assert_int_equal(a->n_prv_in, b->n_prv_in);
    assert_int_equal(a->n_constraints, b->n_constraints);
    assert_int_equal(a->n_labels, b->n_labels);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(a->m[k].nnz, b->m[k].nnz);
        assert_memory_equal(a->m[k].row_ptr, b->m[k].row_ptr,
                            (a->n_constraints + 1) * sizeof(uint64_t));
        if (a->m[k].nnz) {
            assert_memory_equal(a->m[k].col, b->m[k].col, a->m[k].nnz * sizeof(uint32_t));
            assert_memory_equal(a->m[k].val, b->m[k].val, a->m[k].nnz * 32);
        }
    }
    assert_int_equal(a->wire_to_label == NULL, b->wire_to_label == NULL);
    if (a->wire_to_label)
        assert_memory_equal(a->wire_to_label, b->wire_to_label, a->n_wires * 8);
}

static void assert_zkey_eq(const struct czk_zkey *a, const struct czk_zkey *b, bool contrib)
{
    const struct czk_io_sizes {
        uint32_t g1, g2;
    } sz = {a->curve == CZK_GROTH16_CURVE_BN254 ? 64u : 96u,
            a->curve == CZK_GROTH16_CURVE_BN254 ? 128u : 192u};
    assert_int_equal(a->curve, b->curve);
    assert_int_equal(a->n_vars, b->n_vars);
    assert_int_equal(a->n_public, b->n_public);
    assert_int_equal(a->domain_size, b->domain_size);
    assert_int_equal(a->lg_domain, b->lg_domain);
    assert_int_equal(a->n_coefs, b->n_coefs);
    assert_memory_equal(a->alpha1, b->alpha1, sz.g1);
    assert_memory_equal(a->beta1, b->beta1, sz.g1);
    assert_memory_equal(a->beta2, b->beta2, sz.g2);
    assert_memory_equal(a->gamma2, b->gamma2, sz.g2);
    assert_memory_equal(a->delta1, b->delta1, sz.g1);
    assert_memory_equal(a->delta2, b->delta2, sz.g2);
    assert_memory_equal(a->ic, b->ic, (a->n_public + 1) * sz.g1);
    assert_memory_equal(a->coefs, b->coefs, a->n_coefs * sizeof *a->coefs);
    assert_memory_equal(a->a, b->a, a->n_vars * sz.g1);
    assert_memory_equal(a->b1, b->b1, a->n_vars * sz.g1);
    assert_memory_equal(a->b2, b->b2, a->n_vars * sz.g2);
    assert_memory_equal(a->c, b->c, (a->n_vars - a->n_public - 1) * sz.g1);
    assert_memory_equal(a->h, b->h, a->domain_size * sz.g1);
    if (contrib) {
        assert_int_equal(a->contributions_size, b->contributions_size);
        assert_memory_equal(a->contributions, b->contributions, a->contributions_size);
    }
}

static void test_round_trip_vectors(void **state)
{
    (void)state;
    char path[1024], out[1024], name[128];
    for (int cv = 0; cv < NCURVES; cv++) {
        for (int ci = 0; ci < NCIRCUITS; ci++) {
            size_t len;
            uint8_t *orig;

            /* r1cs: circom's section order is reproduced, so the bytes are identical */
            struct czk_r1cs r, r2;
            vec_path(path, sizeof path, cv, ci, "circuit.r1cs");
            orig = read_vec(cv, ci, "circuit.r1cs", &len);
            assert_int_equal(czk_r1cs_load(&r, path, errbuf, sizeof errbuf), CZK_OK);
            snprintf(name, sizeof name, "%s_%s.r1cs", curve_dirs[cv], circuits[ci]);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_r1cs_write(out, &r, errbuf, sizeof errbuf), CZK_OK);
            assert_same_file(out, orig, len);
            assert_int_equal(czk_r1cs_load(&r2, out, errbuf, sizeof errbuf), CZK_OK);
            assert_r1cs_eq(&r, &r2);
            czk_r1cs_free(&r2);
            /* without the wire map: 2 sections, still loads */
            uint64_t *map = r.wire_to_label;
            r.wire_to_label = NULL;
            snprintf(name, sizeof name, "%s_%s_nomap.r1cs", curve_dirs[cv], circuits[ci]);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_r1cs_write(out, &r, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(czk_r1cs_load(&r2, out, errbuf, sizeof errbuf), CZK_OK);
            assert_null(r2.wire_to_label);
            assert_r1cs_eq(&r, &r2);
            czk_r1cs_free(&r2);
            r.wire_to_label = map;
            free(orig);

            /* wtns */
            struct czk_wtns w, w2;
            vec_path(path, sizeof path, cv, ci, "witness.wtns");
            orig = read_vec(cv, ci, "witness.wtns", &len);
            assert_int_equal(czk_wtns_load(&w, path, errbuf, sizeof errbuf), CZK_OK);
            snprintf(name, sizeof name, "%s_%s.wtns", curve_dirs[cv], circuits[ci]);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_wtns_write(out, w.curve, w.values, w.n, errbuf, sizeof errbuf),
                             CZK_OK);
            assert_same_file(out, orig, len);
            assert_int_equal(czk_wtns_load(&w2, out, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(w2.n, w.n);
            assert_int_equal(w2.curve, w.curve);
            assert_memory_equal(w2.values, w.values, w.n * 32);
            czk_wtns_free(&w2);
            czk_wtns_free(&w);
            free(orig);

            /* zkey: snarkjs writes sections 1..10 in order, so the bytes are identical */
            struct czk_zkey z, z2;
            vec_path(path, sizeof path, cv, ci, "circuit.zkey");
            orig = read_vec(cv, ci, "circuit.zkey", &len);
            assert_int_equal(czk_zkey_load(&z, path, 0, 0, errbuf, sizeof errbuf), CZK_OK);
            snprintf(name, sizeof name, "%s_%s.zkey", curve_dirs[cv], circuits[ci]);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_zkey_write(out, &z, errbuf, sizeof errbuf), CZK_OK);
            assert_same_file(out, orig, len);
            assert_int_equal(czk_zkey_load(&z2, out, 0, 0, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(z2.subgroup, CZK_ZKEY_SUBGROUP_CACHED); /* same bytes */
            assert_zkey_eq(&z, &z2, true);
            czk_zkey_free(&z2);

            /* without contributions: the empty MPC record; new bytes, checked again */
            struct czk_zkey zc = z;
            zc.contributions = NULL;
            zc.contributions_size = 0;
            zc.n8q = zc.n8r = 0; /* 0 = the curve's */
            snprintf(name, sizeof name, "%s_%s_nocontrib.zkey", curve_dirs[cv], circuits[ci]);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_zkey_write(out, &zc, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(czk_zkey_load(&z2, out, 0, 2, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(z2.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
            assert_zkey_eq(&z, &z2, false);
            assert_int_equal(z2.contributions_size, 68);
            for (int i = 0; i < 68; i++)
                assert_int_equal(z2.contributions[i], 0);
            assert_int_equal(czk_zkey_check_r1cs(&z2, &r, errbuf, sizeof errbuf), CZK_OK);
            czk_zkey_free(&z2);
            czk_zkey_free(&z);
            czk_r1cs_free(&r);
            free(orig);
        }
    }
}

/* Random circuits and witnesses through write -> load (exercises the writers on data that
 * did not come from a file). */
static void test_round_trip_random(void **state)
{
    (void)state;
    char out[1024], name[64];
    for (int cv = 0; cv < NCURVES; cv++) {
        for (int iter = 0; iter < 5; iter++) {
            struct czk_r1cs r, r2;
            memset(&r, 0, sizeof r);
            r.curve = curve_ids[cv];
            r.n_wires = 1 + (uint32_t)(czk_test_rand64() % 50);
            r.n_pub_out = r.n_wires > 1 ? 1 : 0;
            r.n_pub_in = 0;
            r.n_prv_in = r.n_wires > 2 ? 1 : 0;
            r.n_labels = r.n_wires + czk_test_rand64() % 10;
            r.n_constraints = (uint32_t)(czk_test_rand64() % 40);
            for (int k = 0; k < 3; k++) {
                struct czk_csr *a = &r.m[k];
                a->n_rows = r.n_constraints;
                a->n_cols = r.n_wires;
                a->row_ptr = malloc((r.n_constraints + 1) * sizeof *a->row_ptr);
                a->col = malloc(r.n_constraints * 8 * sizeof *a->col + 4);
                a->val = malloc(r.n_constraints * 8 * sizeof *a->val + 32);
                assert_true(a->row_ptr && a->col && a->val);
                a->row_ptr[0] = 0;
                for (uint32_t i = 0; i < r.n_constraints; i++) {
                    uint64_t t = czk_test_rand64() % 8;
                    for (uint64_t j = 0; j < t; j++) {
                        uint64_t e = a->row_ptr[i] + j, v[4];
                        a->col[e] = (uint32_t)(czk_test_rand64() % r.n_wires);
                        do {
                            czk_test_rand_bytes(v, sizeof v);
                            v[3] >>= 2;
                        } while (!limbs_lt(v, fr_mod(cv), 4));
                        memcpy(a->val[e], v, sizeof v); /* any value < r is a Montgomery form */
                    }
                    a->row_ptr[i + 1] = a->row_ptr[i] + t;
                }
                a->nnz = a->row_ptr[r.n_constraints];
            }
            if (iter & 1) {
                r.wire_to_label = malloc(r.n_wires * sizeof *r.wire_to_label);
                for (uint32_t i = 0; i < r.n_wires; i++)
                    r.wire_to_label[i] = czk_test_rand64();
            }
            snprintf(name, sizeof name, "random_%d_%d.r1cs", cv, iter);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_r1cs_write(out, &r, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(czk_r1cs_load(&r2, out, errbuf, sizeof errbuf), CZK_OK);
            assert_r1cs_eq(&r, &r2);
            czk_r1cs_free(&r2);

            /* writer input validation */
            if (r.m[0].nnz) {
                uint32_t c = r.m[0].col[0];
                r.m[0].col[0] = r.n_wires;
                assert_int_equal(czk_r1cs_write(out, &r, errbuf, sizeof errbuf),
                                 CZK_ERR_INVALID_ARG);
                r.m[0].col[0] = c;
                uint64_t v = r.m[0].val[0][3];
                memcpy(r.m[0].val[0], fr_mod(cv), 32);
                assert_int_equal(czk_r1cs_write(out, &r, errbuf, sizeof errbuf), CZK_ERR_RANGE);
                r.m[0].val[0][0] = 0;
                r.m[0].val[0][3] = v;
            }
            czk_r1cs_free(&r);

            /* wtns */
            uint32_t n = (uint32_t)(czk_test_rand64() % 100);
            uint64_t(*vals)[4] = malloc((n + 1) * sizeof *vals);
            for (uint32_t i = 0; i < n; i++) {
                do {
                    czk_test_rand_bytes(vals[i], 32);
                    vals[i][3] >>= czk_test_rand64() % 4;
                } while (!limbs_lt(vals[i], fr_mod(cv), 4));
            }
            struct czk_wtns w;
            snprintf(name, sizeof name, "random_%d_%d.wtns", cv, iter);
            tmp_path(out, sizeof out, name);
            assert_int_equal(czk_wtns_write(out, curve_ids[cv], (const uint64_t(*)[4])vals, n,
                                            errbuf, sizeof errbuf),
                             CZK_OK);
            assert_int_equal(czk_wtns_load(&w, out, errbuf, sizeof errbuf), CZK_OK);
            assert_int_equal(w.n, n);
            if (n)
                assert_memory_equal(w.values, vals, n * 32);
            czk_wtns_free(&w);
            if (n) {
                memcpy(vals[n - 1], fr_mod(cv), 32);
                assert_int_equal(czk_wtns_write(out, curve_ids[cv], (const uint64_t(*)[4])vals,
                                                n, errbuf, sizeof errbuf),
                                 CZK_ERR_RANGE);
            }
            free(vals);
        }
    }
    /* unwritable path */
    uint64_t one[1][4] = {{1, 0, 0, 0}};
    assert_int_equal(czk_wtns_write("/nonexistent-dir/x.wtns", CZK_GROTH16_CURVE_BN254,
                                    (const uint64_t(*)[4])one, 1, errbuf, sizeof errbuf),
                     CZK_ERR_IO);
    assert_int_equal(czk_wtns_write("/tmp/x.wtns", CZK_GROTH16_CURVE_NONE,
                                    (const uint64_t(*)[4])one, 1, errbuf, sizeof errbuf),
                     CZK_ERR_INVALID_ARG);
}

/* ---- alignment: borrowed vs copied ------------------------------------------------------ */

static void test_alignment(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++) {
        size_t wl, zl;
        uint8_t *wf = read_vec(cv, 0, "witness.wtns", &wl);
        uint8_t *zf = read_vec(cv, 0, "circuit.zkey", &zl);
        uint8_t *base = aligned_alloc(64, (64 + zl + wl + 63) / 64 * 64);
        assert_non_null(base);
        struct czk_wtns ref, w;
        assert_int_equal(czk_wtns_load_mem(&ref, wf, wl, "w", errbuf, sizeof errbuf), CZK_OK);
        struct czk_zkey zref, z;
        assert_int_equal(
            czk_zkey_load_mem(&zref, zf, zl, "z", CZK_IO_SKIP_SUBGROUP, 1, errbuf, sizeof errbuf),
            CZK_OK);
        for (size_t shift = 0; shift < 8; shift++) {
            memcpy(base + shift, wf, wl);
            assert_int_equal(czk_wtns_load_mem(&w, base + shift, wl, "w", errbuf, sizeof errbuf),
                             CZK_OK);
            /* section 2 at file offset 76: borrowed exactly when base + shift + 76 is aligned */
            bool aligned = ((uintptr_t)(base + shift + 76) & 7) == 0;
            assert_int_equal(w.owned == NULL, aligned);
            if (aligned)
                assert_ptr_equal(w.values, base + shift + 76);
            assert_true(((uintptr_t)w.values & 7) == 0);
            assert_memory_equal(w.values, ref.values, w.n * 32);
            czk_wtns_free(&w);

            memcpy(base + shift, zf, zl);
            assert_int_equal(czk_zkey_load_mem(&z, base + shift, zl, "z", CZK_IO_SKIP_SUBGROUP, 1,
                                               errbuf, sizeof errbuf),
                             CZK_OK);
            assert_null(z.file.map);
            const void *ptrs[6] = {z.ic, z.a, z.b1, z.b2, z.c, z.h};
            for (int k = 0; k < 6; k++)
                assert_true(((uintptr_t)ptrs[k] & 7) == 0);
            assert_true(((uintptr_t)z.alpha1 & 7) == 0 && ((uintptr_t)z.coefs & 7) == 0);
            assert_zkey_eq(&zref, &z, true);
            czk_zkey_free(&z);
        }
        czk_zkey_free(&zref);
        czk_wtns_free(&ref);
        free(base);
        free(wf);
        free(zf);
    }
}

/* ---- truncation ------------------------------------------------------------------------- */

enum kind { K_R1CS, K_WTNS, K_ZKEY };
static const char *const kind_file[3] = {"circuit.r1cs", "witness.wtns", "circuit.zkey"};

static enum czk_status load_kind(enum kind k, const uint8_t *d, size_t n, unsigned zflags)
{
    enum czk_status st;
    errbuf[0] = '\0';
    if (k == K_R1CS) {
        struct czk_r1cs r;
        st = czk_r1cs_load_mem(&r, d, n, "r1cs", errbuf, sizeof errbuf);
        czk_r1cs_free(&r);
    } else if (k == K_WTNS) {
        struct czk_wtns w;
        st = czk_wtns_load_mem(&w, d, n, "wtns", errbuf, sizeof errbuf);
        czk_wtns_free(&w);
    } else {
        struct czk_zkey z;
        st = czk_zkey_load_mem(&z, d, n, "zkey", zflags, 1, errbuf, sizeof errbuf);
        czk_zkey_free(&z);
    }
    if (st != CZK_OK && errbuf[0] == '\0')
        fail_msg("status %d without a message", st);
    return st;
}

static void test_truncation(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++)
        for (int ci = 0; ci < NCIRCUITS; ci++)
            for (int k = 0; k < 3; k++) {
                size_t len;
                uint8_t *d = read_vec(cv, ci, kind_file[k], &len);
                assert_int_equal(load_kind(k, d, len, CZK_IO_SKIP_SUBGROUP), CZK_OK);
                for (size_t n = 0; n < len; n++) {
                    /* a fresh heap copy so ASan sees any read past the prefix */
                    uint8_t *p = malloc(n ? n : 1);
                    memcpy(p, d, n);
                    enum czk_status st = load_kind(k, p, n, CZK_IO_SKIP_SUBGROUP);
                    if (st != CZK_ERR_FORMAT)
                        fail_msg("%s/%s/%s truncated to %zu bytes: status %d (%s)",
                                 curve_dirs[cv], circuits[ci], kind_file[k], n, st, errbuf);
                    free(p);
                }
                free(d);
            }
}

/* ---- single-bit flips ------------------------------------------------------------------- */

/*
 * Every bit of the small files is flipped in turn and the outcome compared with a
 * prediction made from the file layout. Byte classes:
 *   MUST_REJECT  structure and everything checked exactly: magic, version, section
 *                count, section headers, field sizes and primes, counts, point data
 *                (a flipped coordinate is >= q or off the curve), r1cs term counts;
 *   MUST_PASS    data no check can judge: zkey section 10 (contributions, kept as raw
 *                bytes), the r1cs wire-to-label map and nLabels;
 *   VALUE        a field element (wtns value, r1cs coefficient, zkey coefficient):
 *                passes iff the flipped value is still < r;
 *   WIRE n       a u32 index that passes iff still < n (r1cs wire ids vs nWires, zkey
 *                signal vs nVars, zkey constraint vs domainSize, zkey matrix vs 2);
 *   PUBCOUNT     r1cs nPubOut / nPubIn / nPrvIn: passes iff 1 + their sum <= nWires;
 *   SECTYPE3     the id of the optional r1cs map section: passes iff the new id is
 *                not 1, 2, 4 or 5 (then the map is just absent);
 *   ANY          r1cs term counts: a changed count re-frames the rest of the
 *                constraint stream, which can be valid again by coincidence (in
 *                cubic.r1cs, B's count 1 -> 0 reads the next 76 bytes as C with two
 *                terms, all in range); only "no crash, a message if rejected" holds.
 */
enum cls { MUST_REJECT, MUST_PASS, VALUE, INDEX, PUBCOUNT, SECTYPE3, ANY };

struct bytecls {
    uint8_t cls;
    uint32_t start; /* first byte of the field */
    uint32_t limit; /* INDEX: exclusive bound */
};

static void set_range(struct bytecls *c, size_t from, size_t n, enum cls k, uint32_t limit)
{
    for (size_t i = from; i < from + n; i++)
        c[i] = (struct bytecls){(uint8_t)k, (uint32_t)from, limit};
}

static void classify(enum kind k, int cv, const uint8_t *d, size_t n, struct bytecls *c)
{
    struct tsec s[16];
    int ns = tsections(d, n, s, 16);
    set_range(c, 0, n, MUST_REJECT, 0);
    if (k == K_WTNS) {
        const struct tsec *s2 = tfind(s, ns, 2);
        for (size_t o = s2->off; o < s2->off + s2->size; o += 32)
            set_range(c, o, 32, VALUE, 0);
    } else if (k == K_R1CS) {
        const struct tsec *s1 = tfind(s, ns, 1), *s2 = tfind(s, ns, 2), *s3 = tfind(s, ns, 3);
        uint32_t nw = rd32(d + s1->off + 36), m = rd32(d + s1->off + 60);
        set_range(c, s3->hdr, 4, SECTYPE3, 0);
        set_range(c, s3->off, s3->size, MUST_PASS, 0);
        set_range(c, s1->off + 40, 12, PUBCOUNT, 0);
        set_range(c, s1->off + 52, 8, MUST_PASS, 0);
        size_t p = s2->off;
        for (uint32_t i = 0; i < 3 * m; i++) {
            uint32_t t = rd32(d + p);
            set_range(c, p, 4, ANY, 0);
            p += 4;
            for (uint32_t j = 0; j < t; j++, p += 36) {
                set_range(c, p, 4, INDEX, nw);
                set_range(c, p + 4, 32, VALUE, 0);
            }
        }
    } else {
        const struct tsec *s2 = tfind(s, ns, 2), *s4 = tfind(s, ns, 4), *s10 = tfind(s, ns, 10);
        uint32_t n8q = rd32(d + s2->off);
        const uint8_t *cnt = d + s2->off + 4 + n8q + 4 + 32;
        uint32_t nvars = rd32(cnt), domain = rd32(cnt + 8);
        uint32_t nc = rd32(d + s4->off);
        for (uint32_t i = 0; i < nc; i++) {
            size_t o = s4->off + 4 + 44ull * i;
            set_range(c, o, 4, INDEX, 2);
            set_range(c, o + 4, 4, INDEX, domain);
            set_range(c, o + 8, 4, INDEX, nvars);
            set_range(c, o + 12, 32, VALUE, 0);
        }
        set_range(c, s10->off, s10->size, MUST_PASS, 0);
    }
    (void)cv;
}

/* Whether the flipped file should load; PUBCOUNT needs the whole header (caller). */
static bool predict(const struct bytecls *c, const uint8_t *flipped, int cv)
{
    const uint8_t *f = flipped + c->start;
    switch (c->cls) {
    case MUST_PASS: return true;
    case VALUE: return le_lt(f, fr_mod(cv), 4);
    case INDEX: return rd32(f) < c->limit;
    case SECTYPE3: {
        uint32_t t = rd32(f);
        return t != 1 && t != 2 && t != 4 && t != 5;
    }
    default: return false;
    }
}

static void flip_file(enum kind k, int cv, int ci, size_t *n_pass)
{
    size_t len;
    uint8_t *orig = read_vec(cv, ci, kind_file[k], &len);
    uint8_t *d = malloc(len);
    struct bytecls *cls = malloc(len * sizeof *cls);
    assert_true(d && cls);
    classify(k, cv, orig, len, cls);
    struct tsec s[16];
    int ns = tsections(orig, len, s, 16);
    size_t h1 = k == K_R1CS ? tfind(s, ns, 1)->off : 0;

    for (size_t byte = 0; byte < len; byte++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(d, orig, len);
            d[byte] ^= (uint8_t)(1u << bit);
            bool want = predict(&cls[byte], d, cv);
            if (cls[byte].cls == PUBCOUNT) {
                uint64_t sum = 1ull + rd32(d + h1 + 40) + rd32(d + h1 + 44) + rd32(d + h1 + 48);
                want = sum <= rd32(d + h1 + 36);
            }
            enum czk_status st = load_kind(k, d, len, CZK_IO_SKIP_SUBGROUP);
            if (cls[byte].cls == ANY)
                want = st == CZK_OK;
            if ((st == CZK_OK) != want)
                fail_msg("%s/%s/%s: bit %d of byte %zu (class %d): status %d (%s), expected %s",
                         curve_dirs[cv], circuits[ci], kind_file[k], bit, byte, cls[byte].cls,
                         st, errbuf, want ? "success" : "rejection");
            if (st == CZK_OK)
                (*n_pass)++;
            /* rejected values and points fail with the specific status */
            if (cls[byte].cls == VALUE && !want)
                assert_int_equal(st, CZK_ERR_RANGE);
        }
    }
    free(cls);
    free(d);
    free(orig);
}

static void test_bit_flips(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++)
        for (int k = 0; k < 3; k++) {
            size_t n_pass = 0;
            flip_file(k, cv, 1 /* cubic */, &n_pass);
            printf("flips: %s cubic %s: %zu of the single-bit flips load (allowed data)\n",
                   curve_dirs[cv], kind_file[k], n_pass);
        }
}

/* Random multi-byte corruption of every vector: no crash, a message on rejection (ASan
 * runs of this suite check the "no out-of-bounds read" part). */
static void test_random_corruption(void **state)
{
    (void)state;
    size_t cases = czk_test_cases(300);
    for (int cv = 0; cv < NCURVES; cv++)
        for (int ci = 0; ci < NCIRCUITS; ci++)
            for (int k = 0; k < 3; k++) {
                size_t len;
                uint8_t *orig = read_vec(cv, ci, kind_file[k], &len);
                uint8_t *d = malloc(len);
                for (size_t t = 0; t < cases; t++) {
                    memcpy(d, orig, len);
                    size_t nb = 1 + czk_test_rand64() % 8;
                    for (size_t i = 0; i < nb; i++)
                        d[czk_test_rand64() % len] = (uint8_t)czk_test_rand64();
                    /* half the time also overwrite a whole u32 near a section header */
                    if (t & 1) {
                        size_t o = 8 + 12 * (czk_test_rand64() % 4);
                        if (o + 4 <= len)
                            wr32(d + o, (uint32_t)czk_test_rand64());
                    }
                    (void)load_kind(k, d, len, t % 3 ? CZK_IO_SKIP_SUBGROUP : 0);
                }
                free(d);
                free(orig);
            }
}

/* Flips inside zkey points with the full subgroup check: rejected with a point status. */
static void test_point_flips(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++) {
        size_t len;
        uint8_t *orig = read_vec(cv, 0, "circuit.zkey", &len);
        struct tsec s[16];
        int ns = tsections(orig, len, s, 16);
        static const uint32_t ids[] = {2, 3, 5, 6, 7, 8, 9};
        uint8_t *e = malloc(len);
        for (size_t t = 0; t < 60; t++) {
            const struct tsec *sec = tfind(s, ns, ids[czk_test_rand64() % 7]);
            size_t first = sec->type == 2 ? sec->size - 3 * (cv ? 96 : 64) - 3 * (cv ? 192 : 128)
                                          : 0;
            size_t byte = sec->off + first + czk_test_rand64() % (sec->size - first);
            memcpy(e, orig, len);
            e[byte] ^= (uint8_t)(1u << (czk_test_rand64() % 8));
            czk_zkey_trust_cache_clear();
            enum czk_status st = load_kind(K_ZKEY, e, len, 0);
            if (st != CZK_ERR_NOT_ON_CURVE && st != CZK_ERR_RANGE)
                fail_msg("byte %zu: status %d (%s)", byte, st, errbuf);
        }
        free(e);
        free(orig);
    }
}

/* ---- crafted bad input ------------------------------------------------------------------ */

#define expect_fail(k, d, n, zflags, want, text)                                                   \
    expect_fail_at(__LINE__, k, d, n, zflags, want, text)

static void expect_fail_at(int line, enum kind k, const uint8_t *d, size_t n, unsigned zflags,
                           enum czk_status want, const char *text)
{
    enum czk_status st = load_kind(k, d, n, zflags);
    if (st != want)
        fail_msg("line %d: status %d (%s), expected %d", line, st, errbuf, want);
    if (text && !strstr(errbuf, text))
        fail_msg("line %d: message '%s' lacks '%s'", line, errbuf, text);
}

static void test_bad_headers(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        size_t len;
        uint8_t *d = read_vec(0, 1, kind_file[k], &len);
        uint8_t *e = malloc(len + 64);
        struct tsec s[16];
        int ns = tsections(d, len, s, 16);

        /* wrong magic */
        memcpy(e, d, len);
        memcpy(e, k == K_ZKEY ? "r1cs" : "zkey", 4);
        expect_fail(k, e, len, 0, CZK_ERR_FORMAT, "magic");
        /* wrong versions */
        static const uint32_t bad_versions[] = {0, 3, 0xffffffffu};
        for (int i = 0; i < 3; i++) {
            memcpy(e, d, len);
            wr32(e + 4, bad_versions[i]);
            expect_fail(k, e, len, 0, CZK_ERR_FORMAT, "version");
        }
        memcpy(e, d, len);
        wr32(e + 4, k == K_WTNS ? 1 : 2);
        expect_fail(k, e, len, 0, CZK_ERR_FORMAT, "version");
        /* enormous section count */
        memcpy(e, d, len);
        wr32(e + 8, 0xffffffffu);
        expect_fail(k, e, len, 0, CZK_ERR_FORMAT, "sections cannot fit");
        /* a section size past the end, and 2^64 - 1 (no overflow) */
        static const uint64_t bad_sizes[] = {0, 1, 1ull << 63, ~0ull};
        for (int i = 0; i < 4; i++) {
            memcpy(e, d, len);
            wr64(e + s[0].hdr + 4, (uint64_t)len + bad_sizes[i]);
            expect_fail(k, e, len, 0, CZK_ERR_FORMAT, "past the end");
        }
        /* trailing data */
        memcpy(e, d, len);
        memset(e + len, 0, 16);
        expect_fail(k, e, len + 16, 0, CZK_ERR_FORMAT, "trailing");
        /* a duplicated section: the first one copied to the end */
        memcpy(e, d, len);
        size_t dup = 12 + s[0].size;
        if (len + dup <= len + 64) {
            memcpy(e + len, d + s[0].hdr, dup);
            wr32(e + 8, (uint32_t)ns + 1);
            expect_fail(k, e, len + dup, 0, CZK_ERR_FORMAT, "duplicated");
        }
        /* a missing section (first id renamed to an unused one) */
        memcpy(e, d, len);
        wr32(e + s[0].hdr, 77);
        expect_fail(k, e, len, 0, CZK_ERR_FORMAT, "missing section");
        /* magic only */
        expect_fail(k, d, 4, 0, CZK_ERR_FORMAT, "truncated");
        free(e);
        free(d);
    }
}

static void test_bad_wtns(void **state)
{
    (void)state;
    size_t len, lb;
    uint8_t *d = read_vec(0, 0, "witness.wtns", &len);
    uint8_t *b = read_vec(1, 0, "witness.wtns", &lb);
    uint8_t *e = malloc(len);
    const size_t prime = 24 + 4, count = 24 + 36, vals = 76;

    /* the BLS12-381 witness names its curve; the BN254 prime swapped for BLS's r gives a
     * BLS12-381 witness (all values are < both r), the base field q is no scalar field */
    struct czk_wtns w;
    assert_int_equal(czk_wtns_load_mem(&w, b, lb, "b", errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(w.curve, CZK_GROTH16_CURVE_BLS12_381);
    czk_wtns_free(&w);
    memcpy(e, d, len);
    memcpy(e + prime, b + prime, 32);
    assert_int_equal(czk_wtns_load_mem(&w, e, len, "e", errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(w.curve, CZK_GROTH16_CURVE_BLS12_381);
    czk_wtns_free(&w);
    memcpy(e, d, len);
    for (int i = 0; i < 4; i++)
        wr64(e + prime + 8 * i, czk_fp_bn254_modulus()[i]);
    expect_fail(K_WTNS, e, len, 0, CZK_ERR_FORMAT, "prime");
    /* n8 = 48 (the BLS base field size) */
    memcpy(e, d, len);
    wr32(e + 24, 48);
    expect_fail(K_WTNS, e, len, 0, CZK_ERR_FORMAT, "n8");
    /* counts */
    static const uint32_t counts[] = {0, 11, 13, 0xffffffffu};
    for (int i = 0; i < 4; i++) {
        memcpy(e, d, len);
        wr32(e + count, counts[i]);
        expect_fail(K_WTNS, e, len, 0, CZK_ERR_FORMAT, "expected");
    }
    /* values: r is rejected, r - 1 accepted; a BLS value between the two r's */
    for (int cv = 0; cv < 2; cv++) {
        uint8_t *f = cv ? b : d;
        size_t fl = cv ? lb : len;
        uint8_t *g = malloc(fl);
        const uint64_t *r = fr_mod(cv);
        for (int i = 0; i < 4; i++) {
            memcpy(g, f, fl);
            uint8_t *v = g + vals + 32 * (size_t)(i * 3);
            for (int l = 0; l < 4; l++)
                wr64(v + 8 * l, r[l]);
            expect_fail(K_WTNS, g, fl, 0, CZK_ERR_RANGE, ">= r");
            wr64(v, r[0] - 1);
            assert_int_equal(czk_wtns_load_mem(&w, g, fl, "g", errbuf, sizeof errbuf), CZK_OK);
            czk_wtns_free(&w);
            memset(v, 0xff, 32);
            expect_fail(K_WTNS, g, fl, 0, CZK_ERR_RANGE, ">= r");
        }
        free(g);
    }
    /* BN254 r as a value of the BLS witness: fine there */
    memcpy(e, d, len);
    uint8_t *g = malloc(lb);
    memcpy(g, b, lb);
    for (int l = 0; l < 4; l++)
        wr64(g + vals + 8 * l, czk_fr_bn254_modulus()[l]);
    assert_int_equal(czk_wtns_load_mem(&w, g, lb, "g", errbuf, sizeof errbuf), CZK_OK);
    czk_wtns_free(&w);
    free(g);
    free(e);
    free(b);
    free(d);
}

static void test_bad_r1cs(void **state)
{
    (void)state;
    size_t len;
    uint8_t *d = read_vec(0, 1, "circuit.r1cs", &len);
    uint8_t *e = malloc(len + 64);
    struct tsec s[16];
    int ns = tsections(d, len, s, 16);
    const struct tsec *s1 = tfind(s, ns, 1), *s2 = tfind(s, ns, 2), *s3 = tfind(s, ns, 3);
    struct czk_r1cs r;

    /* enormous constraint count / wire count / term count */
    memcpy(e, d, len);
    wr32(e + s1->off + 60, 0xffffffffu);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "constraints need");
    memcpy(e, d, len);
    wr32(e + s1->off + 60, 4);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "section 2");
    memcpy(e, d, len);
    wr32(e + s2->off, 0xffffffffu);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "run past the end of the section");
    memcpy(e, d, len);
    wr32(e + s1->off + 36, 0xffffffffu);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "section 3");
    /* wires too few for the inputs */
    memcpy(e, d, len);
    wr32(e + s1->off + 48, 5);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "cannot hold");
    /* a wire id >= nWires (first term of A, constraint 0) */
    memcpy(e, d, len);
    wr32(e + s2->off + 4, 5);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "nWires");
    wr32(e + s2->off + 4, 4);
    assert_int_equal(czk_r1cs_load_mem(&r, e, len, "e", errbuf, sizeof errbuf), CZK_OK);
    czk_r1cs_free(&r);
    /* a coefficient = r, and = r - 1 */
    memcpy(e, d, len);
    for (int l = 0; l < 4; l++)
        wr64(e + s2->off + 8 + 8 * l, czk_fr_bn254_modulus()[l]);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_RANGE, ">= r");
    wr64(e + s2->off + 8, czk_fr_bn254_modulus()[0] - 1);
    assert_int_equal(czk_r1cs_load_mem(&r, e, len, "e", errbuf, sizeof errbuf), CZK_OK);
    czk_r1cs_free(&r);
    /* the prime of the other curve changes the curve; a wrong one is rejected */
    memcpy(e, d, len);
    for (int l = 0; l < 4; l++)
        wr64(e + s1->off + 4 + 8 * l, czk_fr_bls12_381_modulus()[l]);
    assert_int_equal(czk_r1cs_load_mem(&r, e, len, "e", errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(r.curve, CZK_GROTH16_CURVE_BLS12_381);
    czk_r1cs_free(&r);
    e[s1->off + 4] ^= 1;
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, "prime");
    /* wire map size */
    memcpy(e, d, len);
    wr64(e + s3->hdr + 4, s3->size - 8);
    expect_fail(K_R1CS, e, len - 8, 0, CZK_ERR_FORMAT, "section 3");
    /* custom gates (section 4) are unsupported */
    memcpy(e, d, len);
    wr32(e + s3->hdr, 4);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_UNSUPPORTED, "custom gates");
    /* an unknown extra section is ignored */
    memcpy(e, d, len);
    wr32(e + 8, (uint32_t)ns + 1);
    wr32(e + len, 99);
    wr64(e + len + 4, 3);
    memset(e + len + 12, 0xab, 3);
    assert_int_equal(czk_r1cs_load_mem(&r, e, len + 15, "e", errbuf, sizeof errbuf), CZK_OK);
    czk_r1cs_free(&r);
    /* header size */
    memcpy(e, d, len);
    wr64(e + s1->hdr + 4, 60);
    expect_fail(K_R1CS, e, len, 0, CZK_ERR_FORMAT, NULL);
    free(e);
    free(d);
}

/* Replaces point `idx` of zkey section `sec` by the given encoding. */
static void put_point(uint8_t *d, const struct tsec *sec, size_t idx, const uint8_t *p, size_t n)
{
    assert_true((idx + 1) * n <= sec->size);
    memcpy(d + sec->off + idx * n, p, n);
}

static void test_bad_zkey(void **state)
{
    (void)state;
    for (int cv = 0; cv < NCURVES; cv++) {
        size_t len;
        uint8_t *d = read_vec(cv, 1 /* cubic: nVars 5, domain 8 */, "circuit.zkey", &len);
        uint8_t *e = malloc(len);
        struct tsec s[16];
        int ns = tsections(d, len, s, 16);
        const struct tsec *s1 = tfind(s, ns, 1), *s2 = tfind(s, ns, 2), *s4 = tfind(s, ns, 4);
        const struct tsec *s5 = tfind(s, ns, 5), *s7 = tfind(s, ns, 7);
        const uint32_t n8q = cv ? 48 : 32, g1 = 2 * n8q, g2 = 4 * n8q;
        const size_t cnt = s2->off + 4 + n8q + 4 + 32;

        /* protocol */
        memcpy(e, d, len);
        wr32(e + s1->off, 2);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_UNSUPPORTED, "PLONK");
        wr32(e + s1->off, 0);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_UNSUPPORTED, "Groth16");
        /* q of the wrong curve / r of the other curve */
        memcpy(e, d, len);
        e[s2->off + 4] ^= 2;
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "q is neither");
        memcpy(e, d, len);
        for (int l = 0; l < 4; l++)
            wr64(e + s2->off + 4 + n8q + 4 + 8 * l, fr_mod(1 - cv)[l]);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "r is not");
        memcpy(e, d, len);
        wr32(e + s2->off, 40);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "n8q");
        /* counts: enormous nVars, nPublic, domain; non-power-of-two domain */
        static const uint32_t huge[] = {0xffffffffu, 0x80000000u, 6};
        for (int i = 0; i < 3; i++) {
            memcpy(e, d, len);
            wr32(e + cnt, huge[i]);
            expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, NULL);
            memcpy(e, d, len);
            wr32(e + cnt + 4, huge[i]);
            expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, NULL);
            memcpy(e, d, len);
            wr32(e + cnt + 8, huge[i]);
            /* 2^31 is a valid BLS12-381 domain: then section 9's size is wrong */
            expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT,
                        huge[i] == 0x80000000u ? (cv ? "section 9 (H)" : "too large")
                                               : "not a power of two");
        }
        memcpy(e, d, len);
        wr32(e + cnt + 4, rd32(d + cnt)); /* nPublic = nVars */
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "nPublic + 1");
        if (cv == 0) { /* BN254: 2^28 is a power of two but leaves no odd coset */
            memcpy(e, d, len);
            wr32(e + cnt + 8, 1u << 28);
            expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "too large");
        }
        /* coefficients: count, matrix, constraint, signal, value */
        memcpy(e, d, len);
        wr32(e + s4->off, 0xffffffffu);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "coefficients");
        memcpy(e, d, len);
        wr32(e + s4->off + 4, 2);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "matrix 2");
        memcpy(e, d, len);
        wr32(e + s4->off + 8, 8);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "constraint 8");
        memcpy(e, d, len);
        wr32(e + s4->off + 12, 5);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "signal 5");
        memcpy(e, d, len);
        for (int l = 0; l < 4; l++)
            wr64(e + s4->off + 16 + 8 * l, fr_mod(cv)[l]);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_RANGE, "value >= r");
        /* point sections must match the counts */
        memcpy(e, d, len);
        wr32(e + cnt, rd32(d + cnt) + 1); /* nVars + 1 */
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_FORMAT, "section 5 (A) at offset");

        /* points: a coordinate = q, off the curve, not in the subgroup */
        const uint64_t *q = cv ? czk_fp_bls12_381_modulus() : czk_fp_bn254_modulus();
        uint8_t pt[192];
        memcpy(e, d, len);
        for (unsigned l = 0; l < n8q / 8; l++)
            wr64(e + s5->off + g1 + 8 * l, q[l]);
        expect_fail(K_ZKEY, e, len, CZK_IO_SKIP_SUBGROUP, CZK_ERR_RANGE, "section 5 (A): G1 "
                                                                        "point 1");
        memcpy(e, d, len);
        e[s5->off + g1 + n8q] ^= 1; /* y + 1 (in Montgomery limbs) */
        expect_fail(K_ZKEY, e, len, CZK_IO_SKIP_SUBGROUP, CZK_ERR_NOT_ON_CURVE, "not on the "
                                                                               "curve");
        /* header points are named */
        memcpy(e, d, len);
        e[s2->off + (cnt - s2->off) + 12 + g1 + 3] ^= 0x10; /* beta1 */
        expect_fail(K_ZKEY, e, len, CZK_IO_SKIP_SUBGROUP, CZK_ERR_NOT_ON_CURVE, "beta1");

        /* a G2 point on the twist but outside the subgroup (BN254 G2 and BLS G1/G2 have
         * cofactors) */
        memcpy(e, d, len);
        if (cv == 0) {
            struct czk_g2_bn254_affine p;
            struct czk_fp2_bn254 x;
            uint64_t k = 1;
            do {
                czk_fp_bn254_from_u64(&x.c0, k++);
                czk_fp_bn254_from_u64(&x.c1, 1);
            } while (!czk_g2_bn254_affine_from_x(&p, &x, false) ||
                     czk_g2_bn254_affine_in_subgroup(&p));
            czk_g2_bn254_to_zkey(pt, &p);
        } else {
            struct czk_g2_bls12_381_affine p;
            struct czk_fp2_bls12_381 x;
            uint64_t k = 1;
            do {
                czk_fp_bls12_381_from_u64(&x.c0, k++);
                czk_fp_bls12_381_from_u64(&x.c1, 1);
            } while (!czk_g2_bls12_381_affine_from_x(&p, &x, false) ||
                     czk_g2_bls12_381_affine_in_subgroup(&p));
            czk_g2_bls12_381_to_zkey(pt, &p);
        }
        /* two bad points; threads must not change which one is reported (the lower) */
        put_point(e, s7, 3, pt, g2);
        put_point(e, s7, 4, pt, g2);
        czk_zkey_trust_cache_clear();
        for (unsigned threads = 1; threads <= 4; threads++) {
            struct czk_zkey z;
            enum czk_status st =
                czk_zkey_load_mem(&z, e, len, "e", 0, threads, errbuf, sizeof errbuf);
            assert_int_equal(st, CZK_ERR_NOT_IN_SUBGROUP);
            assert_non_null(strstr(errbuf, "section 7 (B2): G2 point 3 at offset"));
        }
        /* skipping the subgroup check accepts it (on the curve), and does not trust it */
        expect_fail(K_ZKEY, e, len, CZK_IO_SKIP_SUBGROUP, CZK_OK, NULL);
        expect_fail(K_ZKEY, e, len, 0, CZK_ERR_NOT_IN_SUBGROUP, "subgroup");
        if (cv == 1) { /* BLS12-381 G1 has a cofactor too */
            struct czk_g1_bls12_381_affine p;
            struct czk_fp_bls12_381 x;
            uint64_t k = 1;
            do
                czk_fp_bls12_381_from_u64(&x, k++);
            while (!czk_g1_bls12_381_affine_from_x(&p, &x, false) ||
                   czk_g1_bls12_381_affine_in_subgroup(&p));
            czk_g1_bls12_381_to_zkey(pt, &p);
            memcpy(e, d, len);
            put_point(e, tfind(s, ns, 9), 7, pt, g1);
            expect_fail(K_ZKEY, e, len, 0, CZK_ERR_NOT_IN_SUBGROUP, "section 9 (H): G1 point 7");
            expect_fail(K_ZKEY, e, len, CZK_IO_SKIP_SUBGROUP, CZK_OK, NULL);
        }
        /* infinity (all zeros) is valid anywhere */
        memcpy(e, d, len);
        memset(pt, 0, sizeof pt);
        put_point(e, s7, 0, pt, g2);
        put_point(e, s5, 1, pt, g1);
        expect_fail(K_ZKEY, e, len, 0, CZK_OK, NULL);
        free(e);
        free(d);
    }
}

static void test_files(void **state)
{
    (void)state;
    char path[1024];
    struct czk_wtns w;
    struct czk_zkey z;
    struct czk_r1cs r;
    struct czk_mapped_file f;

    snprintf(path, sizeof path, "%s/empty", tmpdir);
    write_path(path, "", 0);
    assert_int_equal(czk_wtns_load(&w, path, errbuf, sizeof errbuf), CZK_ERR_FORMAT);
    assert_non_null(strstr(errbuf, "empty"));
    assert_int_equal(czk_mapped_file_open(&f, path, errbuf, sizeof errbuf), CZK_ERR_FORMAT);
    assert_int_equal(czk_r1cs_load(&r, "/nonexistent/x.r1cs", errbuf, sizeof errbuf),
                     CZK_ERR_IO);
    assert_non_null(strstr(errbuf, "/nonexistent/x.r1cs"));
    assert_int_equal(czk_zkey_load(&z, tmpdir, 0, 0, errbuf, sizeof errbuf), CZK_ERR_IO);
    assert_non_null(strstr(errbuf, "regular"));
    vec_path(path, sizeof path, 0, 0, "witness.wtns");
    assert_int_equal(czk_mapped_file_open(&f, path, errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(f.size, 460);
    assert_memory_equal(f.data, "wtns", 4);
    czk_mapped_file_close(&f);
    assert_null(f.map);
    czk_mapped_file_close(&f);
    /* loading the wrong kind of file */
    assert_int_equal(czk_zkey_load(&z, path, 0, 0, errbuf, sizeof errbuf), CZK_ERR_FORMAT);
    assert_non_null(strstr(errbuf, "witness.wtns"));
    /* NULL arguments */
    assert_int_equal(czk_wtns_load(NULL, path, errbuf, sizeof errbuf), CZK_ERR_INVALID_ARG);
    assert_int_equal(czk_wtns_load(&w, NULL, NULL, 0), CZK_ERR_INVALID_ARG);
}

/* ---- trusted-keys file ------------------------------------------------------------------ */

/* The key id against a known answer computed with Python's hashlib (3 chunks, the last
 * short; and the empty file), for several thread counts. */
static void test_key_id(void **state)
{
    (void)state;
    static const char *want = "a727cc785c21a708ecd01bb4e8cf476df82d9dc5b762f4203fc1ee89656fbffa";
    static const char *want0 = "dc56590930e0bd1e99f6bb3810807e32bc7a309663677523ce540a4c37d4015d";
    size_t n = 9u * (1u << 20) + 5;
    uint8_t *data = malloc(n), id[32];
    char hex[65];
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (uint8_t)((i * 31 + 7) % 251);
    static const unsigned threads[] = {1, 2, 3, 8};
    for (size_t t = 0; t < 4; t++) {
        memset(id, 0, sizeof id);
        czk_zkey_id(id, data, n, threads[t]);
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", id[i]);
        assert_string_equal(hex, want);
    }
    czk_zkey_id(id, data, 0, 1);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    assert_string_equal(hex, want0);
    free(data);
}

static void test_trust_file(void **state)
{
    (void)state;
    char cache[512], file[600], path[1024], hex[65];
    struct czk_zkey z;
    snprintf(cache, sizeof cache, "%s/xdg", tmpdir);
    snprintf(file, sizeof file, "%s/czk/trusted-keys", cache);
    assert_int_equal(setenv("XDG_CACHE_HOME", cache, 1), 0);
    vec_path(path, sizeof path, 1, 2, "circuit.zkey");

    czk_zkey_trust_cache_clear();
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_PERSIST_TRUST, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", z.hash[i]);
    czk_zkey_free(&z);
    size_t n;
    char *text = (char *)read_path(file, &n);
    assert_non_null(text);
    assert_int_equal(n, 65);
    assert_memory_equal(text, hex, 64);
    free(text);
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);

    /* a new process (simulated: the in-memory set emptied) trusts it from the file */
    czk_zkey_trust_cache_clear();
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_PERSIST_TRUST, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_TRUSTED_FILE);
    czk_zkey_free(&z);
    /* ... which then is in the process-wide set too */
    assert_int_equal(czk_zkey_load(&z, path, 0, 0, errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CACHED);
    czk_zkey_free(&z);
    /* without the flag the file is not consulted */
    czk_zkey_trust_cache_clear();
    assert_int_equal(czk_zkey_load(&z, path, 0, 0, errbuf, sizeof errbuf), CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
    czk_zkey_free(&z);
    /* a file writable by others is ignored */
    czk_zkey_trust_cache_clear();
    assert_int_equal(chmod(file, 0666), 0);
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_PERSIST_TRUST, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
    czk_zkey_free(&z);
    assert_int_equal(chmod(file, 0600), 0);
    /* a line that is a prefix or has extra text does not match */
    write_path(file, "garbage\n", 8);
    FILE *fp = fopen(file, "ab");
    fprintf(fp, "%.63s\n%s0\n %s\n", hex, hex, hex);
    fclose(fp);
    chmod(file, 0600);
    czk_zkey_trust_cache_clear();
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_PERSIST_TRUST, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
    czk_zkey_free(&z);
    /* the check appended it: now trusted */
    czk_zkey_trust_cache_clear();
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_PERSIST_TRUST, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_TRUSTED_FILE);
    czk_zkey_free(&z);
    /* a different key is not trusted by another key's line */
    vec_path(path, sizeof path, 1, 1, "circuit.zkey");
    czk_zkey_trust_cache_clear();
    assert_int_equal(czk_zkey_load(&z, path, CZK_IO_PERSIST_TRUST, 0, errbuf, sizeof errbuf),
                     CZK_OK);
    assert_int_equal(z.subgroup, CZK_ZKEY_SUBGROUP_CHECKED);
    czk_zkey_free(&z);
    unsetenv("XDG_CACHE_HOME");
    czk_zkey_trust_cache_clear();
}

/* ---- main ------------------------------------------------------------------------------- */

static void rm_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
}

int main(void)
{
    czk_test_seed_init("test_io");
    snprintf(tmpdir, sizeof tmpdir, "%s/czk-test-io.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                               : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_vectors),     cmocka_unit_test(test_zkey_r1cs_mismatch),
        cmocka_unit_test(test_round_trip_vectors), cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_alignment),        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_bit_flips),        cmocka_unit_test(test_point_flips),
        cmocka_unit_test(test_random_corruption),
        cmocka_unit_test(test_bad_headers),      cmocka_unit_test(test_bad_wtns),
        cmocka_unit_test(test_bad_r1cs),         cmocka_unit_test(test_bad_zkey),
        cmocka_unit_test(test_files),            cmocka_unit_test(test_trust_file),
        cmocka_unit_test(test_key_id),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rm_tree(tmpdir);
    return rc;
}
