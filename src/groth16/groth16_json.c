/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snarkjs Groth16 JSON readers: verification_key.json, proof.json and
 * public.json into the structs of czk_groth16.h, and czk_groth16_verify_json,
 * which chains them with czk_groth16_verify (verify.c).
 *
 * JSON goes through jansson with duplicate members rejected. Points are handed
 * to the czk_G_from_dec decoders of src/ec, which check range, the curve
 * equation and subgroup membership; this file only checks the JSON shape and
 * turns decoder statuses into messages that name the input ("vkey", "proof",
 * "public") and the member. Nothing is written to the caller's struct unless
 * the whole input is valid. No global state; thread-safe.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "czk/czk_groth16.h"

/* Longest curve name we normalise ("ALTBN128" and friends are far shorter). */
#define CURVE_NAME_MAX 32

enum czk_status czk_groth16_curve_from_name(enum czk_groth16_curve *curve, const char *name)
{
    char norm[CURVE_NAME_MAX + 1];
    size_t n = 0;

    if (!curve || !name)
        return CZK_ERR_INVALID_ARG;
    /* snarkjs: upper-case, keep only [A-Za-z0-9]. */
    for (const char *p = name; *p; p++) {
        if (!isalnum((unsigned char)*p))
            continue;
        if (n == CURVE_NAME_MAX)
            return CZK_ERR_FORMAT;
        norm[n++] = (char)toupper((unsigned char)*p);
    }
    norm[n] = '\0';
    if (!strcmp(norm, "BN128") || !strcmp(norm, "BN254") || !strcmp(norm, "ALTBN128")) {
        *curve = CZK_GROTH16_CURVE_BN254;
        return CZK_OK;
    }
    if (!strcmp(norm, "BLS12381")) {
        *curve = CZK_GROTH16_CURVE_BLS12_381;
        return CZK_OK;
    }
    return CZK_ERR_FORMAT;
}

const char *czk_groth16_curve_name(enum czk_groth16_curve curve)
{
    switch (curve) {
    case CZK_GROTH16_CURVE_BN254: return "bn128";
    case CZK_GROTH16_CURVE_BLS12_381: return "bls12381";
    case CZK_GROTH16_CURVE_NONE: break;
    }
    return "none";
}

static bool curve_valid(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 || c == CZK_GROTH16_CURVE_BLS12_381;
}

/* ---- JSON helpers -------------------------------------------------------- */

static enum czk_status load_json(json_t **out, const char *text, const char *what, char *err,
                                 size_t errlen)
{
    json_error_t je;
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &je);

    if (!j)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: invalid JSON at line %d column %d: %s",
                        what, je.line, je.column, je.text);
    *out = j;
    return CZK_OK;
}

/* The C string of a JSON string without embedded NUL, else NULL. */
static const char *json_cstr(const json_t *v)
{
    const char *s;

    if (!json_is_string(v))
        return NULL;
    s = json_string_value(v);
    if (strlen(s) != json_string_length(v))
        return NULL;
    return s;
}

/* ["x", "y", "z"] -> s[0..2]. */
static bool g1_strings(const json_t *v, const char *s[3])
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return false;
    for (size_t k = 0; k < 3; k++) {
        s[k] = json_cstr(json_array_get(v, k));
        if (!s[k])
            return false;
    }
    return true;
}

/* [["x0", "x1"], ["y0", "y1"], ["z0", "z1"]] -> s[0..5]. */
static bool g2_strings(const json_t *v, const char *s[6])
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return false;
    for (size_t k = 0; k < 3; k++) {
        const json_t *c = json_array_get(v, k);
        if (!json_is_array(c) || json_array_size(c) != 2)
            return false;
        for (size_t i = 0; i < 2; i++) {
            s[2 * k + i] = json_cstr(json_array_get(c, i));
            if (!s[2 * k + i])
                return false;
        }
    }
    return true;
}

/* Message for a failed point decode of member `name` of input `what`. */
static enum czk_status point_error(enum czk_status st, int group, const char *what,
                                   const char *name, char *err, size_t errlen)
{
    switch (st) {
    case CZK_ERR_NOT_ON_CURVE:
        return czk_errf(st, err, errlen, "%s: %s is not on the G%d curve", what, name, group);
    case CZK_ERR_NOT_IN_SUBGROUP:
        return czk_errf(st, err, errlen, "%s: %s is not in the G%d subgroup", what, name, group);
    case CZK_ERR_RANGE:
        return czk_errf(st, err, errlen, "%s: %s has a coordinate >= p", what, name);
    case CZK_ERR_FORMAT:
        return czk_errf(st, err, errlen,
                        "%s: %s is not a valid G%d point (decimal coordinates with z = 1, "
                        "or the infinity triple (0, 1, 0))",
                        what, name, group);
    default: return czk_errf(st, err, errlen, "%s: %s: %s", what, name, czk_status_str(st));
    }
}

/* Decode the G1 triple `v` (member `name`, NULL if missing) into *out of `curve`. */
static enum czk_status parse_g1(enum czk_groth16_curve curve, void *out, const json_t *v,
                                const char *what, const char *name, char *err, size_t errlen)
{
    const char *s[3];
    enum czk_status st;

    if (!v)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing %s", what, name);
    if (!g1_strings(v, s))
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: %s must be an array of 3 decimal strings",
                        what, name);
    if (curve == CZK_GROTH16_CURVE_BN254)
        st = czk_g1_bn254_from_dec(out, s, 0);
    else
        st = czk_g1_bls12_381_from_dec(out, s, 0);
    if (st != CZK_OK)
        return point_error(st, 1, what, name, err, errlen);
    return CZK_OK;
}

static enum czk_status parse_g2(enum czk_groth16_curve curve, void *out, const json_t *v,
                                const char *what, const char *name, char *err, size_t errlen)
{
    const char *s[6];
    enum czk_status st;

    if (!v)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing %s", what, name);
    if (!g2_strings(v, s))
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: %s must be an array of 3 pairs of decimal strings", what, name);
    if (curve == CZK_GROTH16_CURVE_BN254)
        st = czk_g2_bn254_from_dec(out, s, 0);
    else
        st = czk_g2_bls12_381_from_dec(out, s, 0);
    if (st != CZK_OK)
        return point_error(st, 2, what, name, err, errlen);
    return CZK_OK;
}

/* "protocol" must be "groth16"; when absent, an error only if `required`. */
static enum czk_status check_protocol(const json_t *root, const char *what, bool required,
                                      char *err, size_t errlen)
{
    const json_t *v = json_object_get(root, "protocol");
    const char *s;

    if (!v) {
        if (!required)
            return CZK_OK;
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing protocol", what);
    }
    s = json_cstr(v);
    if (!s)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: protocol must be a string", what);
    if (strcmp(s, "groth16") != 0)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: protocol \"%.40s\" is not groth16", what,
                        s);
    return CZK_OK;
}

/*
 * The "curve" member of `root`: *curve = NONE and *raw = NULL if absent,
 * else the curve and its text; an unsupported name is CZK_ERR_FORMAT.
 */
static enum czk_status get_curve(const json_t *root, const char *what,
                                 enum czk_groth16_curve *curve, const char **raw, char *err,
                                 size_t errlen)
{
    const json_t *v = json_object_get(root, "curve");
    const char *s;

    *curve = CZK_GROTH16_CURVE_NONE;
    *raw = NULL;
    if (!v)
        return CZK_OK;
    s = json_cstr(v);
    if (!s)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: curve must be a string", what);
    if (czk_groth16_curve_from_name(curve, s) != CZK_OK)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: unsupported curve \"%.40s\" (expected bn128 or bls12381)", what, s);
    *raw = s;
    return CZK_OK;
}

/* ---- verification key ---------------------------------------------------- */

/* The start of every object parser: JSON text -> *root (an object; the caller releases
 * it, also on failure), "protocol" checked (required or optional), curve read. */
static enum czk_status open_object(json_t **root, const char *json, const char *what,
                                   bool protocol_required, enum czk_groth16_curve *curve,
                                   const char **raw, char *err, size_t errlen)
{
    enum czk_status st = load_json(root, json, what, err, errlen);
    if (st != CZK_OK)
        return st;
    if (!json_is_object(*root))
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: not a JSON object", what);
    st = check_protocol(*root, what, protocol_required, err, errlen);
    if (st != CZK_OK)
        return st;
    return get_curve(*root, what, curve, raw, err, errlen);
}

enum czk_status czk_groth16_vkey_parse(struct czk_groth16_vkey *vk, const char *json, char *err,
                                       size_t errlen)
{
    static const char *const what = "vkey";
    struct czk_groth16_vkey tmp;
    json_t *root = NULL;
    const json_t *v, *ic;
    const char *raw;
    json_int_t np;
    void *ic_pts = NULL;
    size_t g1_size, n_ic;
    enum czk_status st;

    memset(&tmp, 0, sizeof(tmp));
    if (!vk || !json) {
        st = czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: NULL argument", what);
        goto out;
    }
    st = open_object(&root, json, what, true, &tmp.curve, &raw, err, errlen);
    if (st != CZK_OK)
        goto out;
    if (tmp.curve == CZK_GROTH16_CURVE_NONE) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing curve", what);
        goto out;
    }

    v = json_object_get(root, "nPublic");
    if (!v) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing nPublic", what);
        goto out;
    }
    np = json_is_integer(v) ? json_integer_value(v) : -1;
    if (np < 0) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: nPublic must be a non-negative integer",
                      what);
        goto out;
    }
    ic = json_object_get(root, "IC");
    if (!ic) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing IC", what);
        goto out;
    }
    if (!json_is_array(ic)) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: IC must be an array of G1 points", what);
        goto out;
    }
    n_ic = json_array_size(ic);
    /* IC is an array that fits in memory, so n_ic - 1 cannot overflow below. */
    if ((json_int_t)n_ic < 1 || (json_int_t)(n_ic - 1) != np) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: IC has %zu points but nPublic is %lld (expected nPublic + 1)", what,
                      n_ic, (long long)np);
        goto out;
    }
    tmp.n_public = n_ic - 1;

    if (tmp.curve == CZK_GROTH16_CURVE_BN254) {
        g1_size = sizeof(struct czk_g1_bn254_affine);
        st = parse_g1(tmp.curve, &tmp.bn254.alpha, json_object_get(root, "vk_alpha_1"), what,
                      "vk_alpha_1", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(tmp.curve, &tmp.bn254.beta, json_object_get(root, "vk_beta_2"), what,
                          "vk_beta_2", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(tmp.curve, &tmp.bn254.gamma, json_object_get(root, "vk_gamma_2"), what,
                          "vk_gamma_2", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(tmp.curve, &tmp.bn254.delta, json_object_get(root, "vk_delta_2"), what,
                          "vk_delta_2", err, errlen);
    } else {
        g1_size = sizeof(struct czk_g1_bls12_381_affine);
        st = parse_g1(tmp.curve, &tmp.bls12_381.alpha, json_object_get(root, "vk_alpha_1"), what,
                      "vk_alpha_1", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(tmp.curve, &tmp.bls12_381.beta, json_object_get(root, "vk_beta_2"), what,
                          "vk_beta_2", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(tmp.curve, &tmp.bls12_381.gamma, json_object_get(root, "vk_gamma_2"),
                          what, "vk_gamma_2", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(tmp.curve, &tmp.bls12_381.delta, json_object_get(root, "vk_delta_2"),
                          what, "vk_delta_2", err, errlen);
    }
    if (st != CZK_OK)
        goto out;

    ic_pts = calloc(n_ic, g1_size);
    if (!ic_pts) {
        st =
            czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory for %zu IC points", what, n_ic);
        goto out;
    }
    for (size_t i = 0; i < n_ic; i++) {
        char name[32];
        snprintf(name, sizeof(name), "IC[%zu]", i);
        st = parse_g1(tmp.curve, (char *)ic_pts + i * g1_size, json_array_get(ic, i), what, name,
                      err, errlen);
        if (st != CZK_OK)
            goto out;
    }
    if (tmp.curve == CZK_GROTH16_CURVE_BN254)
        tmp.bn254.ic = ic_pts;
    else
        tmp.bls12_381.ic = ic_pts;
    ic_pts = NULL;
    *vk = tmp;
    st = CZK_OK;

out:
    free(ic_pts);
    json_decref(root);
    return st;
}

void czk_groth16_vkey_free(struct czk_groth16_vkey *vk)
{
    if (!vk)
        return;
    if (vk->curve == CZK_GROTH16_CURVE_BN254)
        free(vk->bn254.ic);
    else if (vk->curve == CZK_GROTH16_CURVE_BLS12_381)
        free(vk->bls12_381.ic);
    memset(vk, 0, sizeof(*vk));
}

/* ---- proof ---------------------------------------------------------------- */

/*
 * Parse proof.json for `curve`. `from_vkey` only selects the wording of a curve
 * mismatch (the vkey is then where the expected curve came from).
 */
static enum czk_status proof_parse(struct czk_groth16_proof *proof, enum czk_groth16_curve curve,
                                   const char *json, bool from_vkey, char *err, size_t errlen)
{
    static const char *const what = "proof";
    struct czk_groth16_proof tmp;
    json_t *root = NULL;
    enum czk_groth16_curve pc;
    const char *raw;
    enum czk_status st;

    memset(&tmp, 0, sizeof(tmp));
    if (!proof || !json || !curve_valid(curve)) {
        st = czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: NULL argument or no curve", what);
        goto out;
    }
    st = open_object(&root, json, what, false, &pc, &raw, err, errlen);
    if (st != CZK_OK)
        goto out;
    if (pc != CZK_GROTH16_CURVE_NONE && pc != curve) {
        if (from_vkey)
            st = czk_errf(CZK_ERR_FORMAT, err, errlen, "vkey: curve %s but proof says %.40s",
                          czk_groth16_curve_name(curve), raw);
        else
            st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: curve %.40s but %s expected", what, raw,
                          czk_groth16_curve_name(curve));
        goto out;
    }
    tmp.curve = curve;
    if (curve == CZK_GROTH16_CURVE_BN254) {
        st =
            parse_g1(curve, &tmp.bn254.a, json_object_get(root, "pi_a"), what, "pi_a", err, errlen);
        if (st == CZK_OK)
            st = parse_g2(curve, &tmp.bn254.b, json_object_get(root, "pi_b"), what, "pi_b", err,
                          errlen);
        if (st == CZK_OK)
            st = parse_g1(curve, &tmp.bn254.c, json_object_get(root, "pi_c"), what, "pi_c", err,
                          errlen);
    } else {
        st = parse_g1(curve, &tmp.bls12_381.a, json_object_get(root, "pi_a"), what, "pi_a", err,
                      errlen);
        if (st == CZK_OK)
            st = parse_g2(curve, &tmp.bls12_381.b, json_object_get(root, "pi_b"), what, "pi_b", err,
                          errlen);
        if (st == CZK_OK)
            st = parse_g1(curve, &tmp.bls12_381.c, json_object_get(root, "pi_c"), what, "pi_c", err,
                          errlen);
    }
    if (st != CZK_OK)
        goto out;
    *proof = tmp;

out:
    json_decref(root);
    return st;
}

enum czk_status czk_groth16_proof_parse(struct czk_groth16_proof *proof,
                                        enum czk_groth16_curve curve, const char *json, char *err,
                                        size_t errlen)
{
    return proof_parse(proof, curve, json, false, err, errlen);
}

/* ---- public signals ------------------------------------------------------- */

enum czk_status czk_groth16_public_parse(struct czk_groth16_public *pub,
                                         enum czk_groth16_curve curve, const char *json, char *err,
                                         size_t errlen)
{
    static const char *const what = "public";
    json_t *root = NULL;
    void *vals = NULL;
    size_t n, fr_size;
    enum czk_status st;

    if (!pub || !json || !curve_valid(curve)) {
        st = czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: NULL argument or no curve", what);
        goto out;
    }
    st = load_json(&root, json, what, err, errlen);
    if (st != CZK_OK)
        goto out;
    if (!json_is_array(root)) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: not a JSON array of decimal strings", what);
        goto out;
    }
    n = json_array_size(root);
    fr_size = curve == CZK_GROTH16_CURVE_BN254 ? sizeof(struct czk_fr_bn254)
                                               : sizeof(struct czk_fr_bls12_381);
    if (n > 0) {
        vals = calloc(n, fr_size);
        if (!vals) {
            st = czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory for %zu signals", what, n);
            goto out;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const char *s = json_cstr(json_array_get(root, i));
        void *dst = (char *)vals + i * fr_size;

        if (!s) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s[%zu]: not a decimal string", what, i);
            goto out;
        }
        if (curve == CZK_GROTH16_CURVE_BN254)
            st = czk_fr_bn254_from_dec(dst, s);
        else
            st = czk_fr_bls12_381_from_dec(dst, s);
        if (st == CZK_ERR_RANGE) {
            st = czk_errf(st, err, errlen, "%s[%zu]: value >= r", what, i);
            goto out;
        }
        if (st != CZK_OK) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen, "%s[%zu]: \"%.40s\" is not a decimal string",
                          what, i, s);
            goto out;
        }
    }
    pub->curve = curve;
    pub->n = n;
    if (curve == CZK_GROTH16_CURVE_BN254)
        pub->bn254 = vals;
    else
        pub->bls12_381 = vals;
    vals = NULL;
    st = CZK_OK;

out:
    free(vals);
    json_decref(root);
    return st;
}

void czk_groth16_public_free(struct czk_groth16_public *pub)
{
    if (!pub)
        return;
    if (pub->curve == CZK_GROTH16_CURVE_BN254)
        free(pub->bn254);
    else if (pub->curve == CZK_GROTH16_CURVE_BLS12_381)
        free(pub->bls12_381);
    memset(pub, 0, sizeof(*pub));
}

/* ---- all in one ----------------------------------------------------------- */

enum czk_status czk_groth16_verify_json(const char *vkey_json, const char *public_json,
                                        const char *proof_json, char *err, size_t errlen)
{
    struct czk_groth16_vkey vk;
    struct czk_groth16_public pub;
    struct czk_groth16_proof proof;
    enum czk_status st;

    memset(&vk, 0, sizeof(vk));
    memset(&pub, 0, sizeof(pub));
    if (!vkey_json || !public_json || !proof_json) {
        st = czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
        goto out;
    }
    st = czk_groth16_vkey_parse(&vk, vkey_json, err, errlen);
    if (st != CZK_OK)
        goto out;
    st = proof_parse(&proof, vk.curve, proof_json, true, err, errlen);
    if (st != CZK_OK)
        goto out;
    st = czk_groth16_public_parse(&pub, vk.curve, public_json, err, errlen);
    if (st != CZK_OK)
        goto out;
    st = czk_groth16_verify(&vk, &pub, &proof, err, errlen);

out:
    czk_groth16_public_free(&pub);
    czk_groth16_vkey_free(&vk);
    return st;
}
