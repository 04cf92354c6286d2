/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Groth16 prover of czk_prover.h: proving keys (zkey + precompiled circuit),
 * witnesses, and the two halves of a proof.
 *
 * Data flow of one proof (snarkjs's groth16_prove.js, stage by stage, on a backend):
 *   w (canonical, borrowed)  --sparse_eval-->  a, b, c = a∘b  (domain evaluations, Mont)
 *   a, b, c  --iNTT, NTT onto the odd coset (shift w_{2N})-->  evaluations on the coset
 *   a := a·b − c, to canonical  =  h, the H-MSM scalars (no division by Z: the zkey's
 *                                 H points are the matching coset Lagrange points)
 *   MSMs: A (w), B1 (w), C (w[nPublic+1..]), H (h) in G1; B2 (w) in G2
 *   finish: blinding with r, s (getrandom) and assembly.
 * Each polynomial lives in one device buffer and is transformed in place; b and c are
 * released before the MSMs, a right after the H MSM.
 *
 * Threading: a key is immutable after load except for its cache of bases buffers per
 * device (SRS residency), guarded by a mutex. A job is used by one thread at a time.
 * Ownership: keys own their zkey mapping and PCE; bases buffers belong to the key (or to
 * the job when the key's cache is full); a job owns its work buffers and frees itself in
 * czk_prove_finish.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "backend/backend_impl.h"
#include "czk/czk_prover.h"
#include "groth16/pce.h"
#include "groth16/prove_internal.h"
#include "io/formats.h"
#include "ntt/ntt_snarkjs.h"

#define KEY_MAX_RESIDENT 8
#define FR_BYTES 32u

/* Bases of one key on one device (czk_buf_from_host: borrowed on the CPU). */
struct bases {
    czk_device_t dev;
    czk_buf_t a, b1, b2, c, h; /* c is NULL when the key has no private signals */
};

struct czk_prover_key {
    struct czk_zkey z;
    struct czk_pce pce;
    bool has_pce;
    pthread_mutex_t lock;
    struct bases res[KEY_MAX_RESIDENT];
    size_t n_res;
};

struct czk_witness {
    enum czk_groth16_curve curve;
    size_t n;
    const uint64_t (*values)[4];
    struct czk_wtns file;
    bool loaded;
};

struct pts_bn254 {
    struct czk_g1_bn254 a, b1, c, h;
    struct czk_g2_bn254 b2;
};

struct pts_bls12_381 {
    struct czk_g1_bls12_381 a, b1, c, h;
    struct czk_g2_bls12_381 b2;
};

struct czk_prove_job {
    czk_prover_key_t key;
    czk_backend_t be;
    czk_witness_t w;
    struct czk_prove_opts opts;
    struct bases *bases;
    struct bases own; /* used when the key's cache is full */
    czk_buf_t wbuf;
    bool have_b2;
    bool fixed_rs[2]; /* test-only blinding given (copied from opts) */
    uint64_t fixed[2][4];
    union {
        struct pts_bn254 bn254;
        struct pts_bls12_381 bls12_381;
    } pt;
};

/* ---- small helpers ---------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void stage_done(const struct czk_prove_opts *o, const char *name, double t0)
{
    if (o->on_stage)
        o->on_stage(o->user, name, now_ms() - t0);
}

/* The flag is written by other threads (the engine's cancel): read it atomically. */
static bool cancelled(const struct czk_prove_opts *o)
{
    return o->cancel && __atomic_load_n(o->cancel, __ATOMIC_ACQUIRE) != 0;
}

static size_t g1_bytes(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? sizeof(struct czk_g1_bn254_affine)
                                        : sizeof(struct czk_g1_bls12_381_affine);
}

static size_t g2_bytes(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? sizeof(struct czk_g2_bn254_affine)
                                        : sizeof(struct czk_g2_bls12_381_affine);
}

static bool fr_canonical_ok(enum czk_groth16_curve c, const uint64_t v[4])
{
    const uint64_t *r =
        c == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_modulus() : czk_fr_bls12_381_modulus();
    for (int i = 3; i >= 0; i--)
        if (v[i] != r[i])
            return v[i] < r[i];
    return false;
}

static bool is_one_canonical(const uint64_t v[4])
{
    return v[0] == 1 && v[1] == 0 && v[2] == 0 && v[3] == 0;
}

/* ---- keys --------------------------------------------------------------------------- */

enum czk_status czk_prover_key_load(czk_prover_key_t *out, const char *zkey_path, unsigned flags,
                                    unsigned threads, char *err, size_t errlen)
{
    if (!out || !zkey_path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "prover key: NULL argument");
    czk_prover_key_t key = calloc(1, sizeof *key);
    if (!key)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "prover key: out of memory");
    unsigned io = (flags & CZK_PROVER_KEY_TRUST) ? CZK_IO_SKIP_SUBGROUP : 0;
    if (flags & CZK_PROVER_KEY_REMEMBER)
        io |= CZK_IO_PERSIST_TRUST;
    enum czk_status st = czk_zkey_load(&key->z, zkey_path, io, threads, err, errlen);
    if (st != CZK_OK) {
        free(key);
        return st;
    }
    if (!(flags & CZK_PROVER_KEY_VKEY_ONLY)) {
        char e2[256];
        st = czk_pce_build(&key->pce, &key->z, e2, sizeof e2);
        if (st != CZK_OK) {
            czk_zkey_free(&key->z);
            free(key);
            return czk_errf(st, err, errlen, "%s: %s", zkey_path, e2);
        }
        key->has_pce = true;
    }
    pthread_mutex_init(&key->lock, NULL);
    *out = key;
    return CZK_OK;
}

static void bases_free(struct bases *b)
{
    czk_buf_free(b->a);
    czk_buf_free(b->b1);
    czk_buf_free(b->b2);
    czk_buf_free(b->c);
    czk_buf_free(b->h);
    memset(b, 0, sizeof *b);
}

void czk_prover_key_free(czk_prover_key_t key)
{
    if (!key)
        return;
    for (size_t i = 0; i < key->n_res; i++)
        bases_free(&key->res[i]);
    pthread_mutex_destroy(&key->lock);
    czk_pce_free(&key->pce);
    czk_zkey_free(&key->z);
    free(key);
}

void czk_prover_key_get_info(czk_prover_key_t key, struct czk_prover_key_info *info)
{
    memset(info, 0, sizeof *info);
    if (!key)
        return;
    info->curve = key->z.curve;
    info->n_vars = key->z.n_vars;
    info->n_public = key->z.n_public;
    info->domain_size = key->z.domain_size;
    info->lg_domain = key->z.lg_domain;
    if (key->has_pce) {
        info->n_rows_used = key->pce.n_rows_used;
        info->nnz_a = key->pce.a.nnz;
        info->nnz_b = key->pce.b.nnz;
    }
}

const struct czk_zkey *czk_prover_key_zkey(czk_prover_key_t key) { return key ? &key->z : NULL; }

enum czk_status czk_prover_key_vkey(czk_prover_key_t key, struct czk_groth16_vkey *vk, char *err,
                                    size_t errlen)
{
    if (!key || !vk)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "vkey: NULL argument");
    const struct czk_zkey *z = &key->z;
    struct czk_groth16_vkey v;
    memset(&v, 0, sizeof v);
    v.curve = z->curve;
    v.n_public = z->n_public;
    size_t nic = (size_t)z->n_public + 1;
    /* The same copy for either curve's vkey struct (the zkey's points are affine). */
#define PROVE_VKEY_COPY(k)                                                                         \
    do {                                                                                           \
        memcpy(&(k)->alpha, z->alpha1, sizeof (k)->alpha);                                         \
        memcpy(&(k)->beta, z->beta2, sizeof (k)->beta);                                            \
        memcpy(&(k)->gamma, z->gamma2, sizeof (k)->gamma);                                         \
        memcpy(&(k)->delta, z->delta2, sizeof (k)->delta);                                         \
        (k)->ic = malloc(nic * sizeof *(k)->ic);                                                   \
        if (!(k)->ic)                                                                              \
            return czk_errf(CZK_ERR_NOMEM, err, errlen, "vkey: out of memory");                    \
        memcpy((k)->ic, z->ic, nic * sizeof *(k)->ic);                                             \
    } while (0)
    if (z->curve == CZK_GROTH16_CURVE_BN254)
        PROVE_VKEY_COPY(&v.bn254);
    else
        PROVE_VKEY_COPY(&v.bls12_381);
#undef PROVE_VKEY_COPY
    *vk = v;
    return CZK_OK;
}

/* Creates the bases buffers of the key on be's device. */
static enum czk_status bases_make(struct bases *b, const struct czk_zkey *z, czk_backend_t be)
{
    enum czk_groth16_curve c = z->curve;
    size_t nv = z->n_vars, nc = (size_t)z->n_vars - z->n_public - 1;
    enum czk_status st;
    memset(b, 0, sizeof *b);
    b->dev = czk_backend_get_device(be);
    if ((st = czk_buf_from_host(be, z->a, nv * g1_bytes(c), &b->a)) != CZK_OK ||
        (st = czk_buf_from_host(be, z->b1, nv * g1_bytes(c), &b->b1)) != CZK_OK ||
        (st = czk_buf_from_host(be, z->b2, nv * g2_bytes(c), &b->b2)) != CZK_OK ||
        (nc && (st = czk_buf_from_host(be, z->c, nc * g1_bytes(c), &b->c)) != CZK_OK) ||
        (st = czk_buf_from_host(be, z->h, (size_t)z->domain_size * g1_bytes(c), &b->h)) != CZK_OK) {
        bases_free(b);
        return st;
    }
    return CZK_OK;
}

/* The key's bases on be's device, made on first use (kept for the key's lifetime). */
static enum czk_status bases_get(czk_prove_job_t job)
{
    czk_prover_key_t key = job->key;
    czk_device_t dev = czk_backend_get_device(job->be);
    enum czk_status st = CZK_OK;
    pthread_mutex_lock(&key->lock);
    for (size_t i = 0; i < key->n_res; i++)
        if (key->res[i].dev == dev) {
            job->bases = &key->res[i];
            goto out;
        }
    if (key->n_res < KEY_MAX_RESIDENT) {
        st = bases_make(&key->res[key->n_res], &key->z, job->be);
        if (st == CZK_OK)
            job->bases = &key->res[key->n_res++];
    } else {
        st = bases_make(&job->own, &key->z, job->be);
        if (st == CZK_OK)
            job->bases = &job->own;
    }
out:
    pthread_mutex_unlock(&key->lock);
    return st;
}

/* ---- witnesses ---------------------------------------------------------------------- */

enum czk_status czk_witness_load(czk_witness_t *out, const char *path, char *err, size_t errlen)
{
    if (!out || !path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "witness: NULL argument");
    czk_witness_t w = calloc(1, sizeof *w);
    if (!w)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "witness: out of memory");
    enum czk_status st = czk_wtns_load(&w->file, path, err, errlen);
    if (st != CZK_OK) {
        free(w);
        return st;
    }
    w->loaded = true;
    w->curve = w->file.curve;
    w->n = w->file.n;
    w->values = w->file.values;
    *out = w;
    return CZK_OK;
}

enum czk_status czk_witness_wrap(czk_witness_t *out, enum czk_groth16_curve curve,
                                 const uint64_t (*values)[4], size_t n, char *err, size_t errlen)
{
    if (!out || (n && !values) ||
        (curve != CZK_GROTH16_CURVE_BN254 && curve != CZK_GROTH16_CURVE_BLS12_381))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "witness: invalid argument");
    for (size_t i = 0; i < n; i++)
        if (!fr_canonical_ok(curve, values[i]))
            return czk_errf(CZK_ERR_RANGE, err, errlen, "witness[%zu]: value >= r", i);
    czk_witness_t w = calloc(1, sizeof *w);
    if (!w)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "witness: out of memory");
    w->curve = curve;
    w->n = n;
    w->values = values;
    *out = w;
    return CZK_OK;
}

void czk_witness_free(czk_witness_t w)
{
    if (!w)
        return;
    if (w->loaded)
        czk_wtns_free(&w->file);
    free(w);
}

enum czk_groth16_curve czk_witness_curve(czk_witness_t w)
{
    return w ? w->curve : CZK_GROTH16_CURVE_NONE;
}

size_t czk_witness_count(czk_witness_t w) { return w ? w->n : 0; }

const uint64_t (*czk_witness_values(czk_witness_t w))[4] { return w ? w->values : NULL; }

/* ---- start ---------------------------------------------------------------------------- */

void czk_prove_job_free(czk_prove_job_t job)
{
    if (!job)
        return;
    czk_buf_free(job->wbuf);
    bases_free(&job->own);
    free(job);
}

/* Runs the G2 MSM of B2 into the job. */
static enum czk_status msm_b2(czk_prove_job_t job)
{
    double t0 = now_ms();
    enum czk_groth16_curve c = job->key->z.curve;
    void *out =
        c == CZK_GROTH16_CURVE_BN254 ? (void *)&job->pt.bn254.b2 : (void *)&job->pt.bls12_381.b2;
    enum czk_status st =
        czk_backend_msm_g2(job->be, c, job->bases->b2, job->wbuf, 0, job->key->z.n_vars, out);
    if (st == CZK_OK) {
        job->have_b2 = true;
        stage_done(&job->opts, "msm_b2", t0);
    }
    return st;
}

static void stage_err(enum czk_status st, const char *stage, char *err, size_t errlen)
{
    czk_errf(st, err, errlen, "prove: stage %s failed: %s", stage, czk_status_str(st));
}

enum czk_status czk_prove_start(czk_prove_job_t *out, czk_prover_key_t key, czk_backend_t be,
                                czk_witness_t w, const struct czk_prove_opts *opts, char *err,
                                size_t errlen)
{
    static const struct czk_prove_opts no_opts;
    if (!out || !key || !be || !w)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "prove: NULL argument");
    if (!key->has_pce)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "prove: key was loaded for its verification key only");
    const struct czk_zkey *z = &key->z;
    enum czk_groth16_curve curve = z->curve;

    /* The witness must belong to this key; checked before any heavy work. */
    if (w->curve != curve)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "witness is for curve %s but the key is for %s",
                        czk_groth16_curve_name(w->curve), czk_groth16_curve_name(curve));
    if (w->n != z->n_vars)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "witness has %zu values but the key's circuit has nVars = %u", w->n,
                        z->n_vars);
    if (w->n == 0 || !is_one_canonical(w->values[0]))
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "witness[0] is not 1 (not a circom witness)");
    if (z->n_vars < (uint64_t)z->n_public + 1)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "key: nVars < nPublic + 1");

    if (opts && ((opts->test_fixed_r && !fr_canonical_ok(curve, opts->test_fixed_r)) ||
                 (opts->test_fixed_s && !fr_canonical_ok(curve, opts->test_fixed_s))))
        return czk_errf(CZK_ERR_RANGE, err, errlen, "prove: fixed r or s >= the group order");

    czk_prove_job_t job = calloc(1, sizeof *job);
    if (!job)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "prove: out of memory");
    job->key = key;
    job->be = be;
    job->w = w;
    job->opts = opts ? *opts : no_opts;
    const struct czk_prove_opts *o = &job->opts;
    const uint64_t *fx[2] = {o->test_fixed_r, o->test_fixed_s};
    for (int i = 0; i < 2; i++)
        if (fx[i]) {
            job->fixed_rs[i] = true;
            memcpy(job->fixed[i], fx[i], sizeof job->fixed[i]);
        }
    job->opts.test_fixed_r = job->opts.test_fixed_s = NULL;

    czk_device_t dev = czk_backend_get_device(be);
    size_t N = z->domain_size, nbytes = N * FR_BYTES;
    unsigned lg = z->lg_domain;
    czk_buf_t a = NULL, b = NULL, c = NULL;
    const char *stage = "setup";
    enum czk_status st;
    double t0;

    if (cancelled(o)) {
        st = CZK_CANCELLED;
        goto fail;
    }
    if ((st = bases_get(job)) != CZK_OK ||
        (st = czk_buf_from_host(be, w->values, w->n * FR_BYTES, &job->wbuf)) != CZK_OK ||
        (st = czk_buf_alloc(dev, nbytes, &a)) != CZK_OK ||
        (st = czk_buf_alloc(dev, nbytes, &b)) != CZK_OK ||
        (st = czk_buf_alloc(dev, nbytes, &c)) != CZK_OK)
        goto fail;

    /* Synthesis: a = A·w, b = B·w, c = a∘b on every row of the domain. */
    t0 = now_ms();
    stage = "synth";
    if ((st = czk_backend_sparse_eval(be, curve, &key->pce.a, &key->pce.b, job->wbuf, a, b, c)) !=
        CZK_OK)
        goto fail;
    stage_done(o, stage, t0);

    /* Evaluations on the domain -> coefficients -> evaluations on the odd coset. */
    uint64_t shift[4];
    czk_ntt_snarkjs_shift(curve, lg, shift);
    czk_buf_t polys[3] = {a, b, c};
    static const char *const ntt_names[3] = {"ntt_a", "ntt_b", "ntt_c"};
    for (int i = 0; i < 3; i++) {
        if (cancelled(o)) {
            st = CZK_CANCELLED;
            goto fail;
        }
        t0 = now_ms();
        stage = ntt_names[i];
        if ((st = czk_backend_ntt(be, curve, polys[i], lg, CZK_BACKEND_INVERSE, CZK_NTT_SNARKJS,
                                  NULL)) != CZK_OK ||
            (st = czk_backend_ntt(be, curve, polys[i], lg, CZK_BACKEND_FORWARD, CZK_NTT_SNARKJS,
                                  shift)) != CZK_OK)
            goto fail;
        stage_done(o, stage, t0);
    }

    /* h = a·b − c on the coset, canonical for the H MSM. */
    t0 = now_ms();
    stage = "quotient";
    if ((st = czk_backend_quotient(be, curve, a, b, c, N, NULL)) != CZK_OK ||
        (st = czk_backend_to_canonical(be, curve, a, N)) != CZK_OK)
        goto fail;
    czk_buf_free(b);
    czk_buf_free(c);
    b = c = NULL;
    stage_done(o, stage, t0);

    /* G1 MSMs, one after another, each with all of the backend's threads. */
    void *pa, *pb1, *pc, *ph;
    if (curve == CZK_GROTH16_CURVE_BN254) {
        pa = &job->pt.bn254.a, pb1 = &job->pt.bn254.b1, pc = &job->pt.bn254.c;
        ph = &job->pt.bn254.h;
    } else {
        pa = &job->pt.bls12_381.a, pb1 = &job->pt.bls12_381.b1, pc = &job->pt.bls12_381.c;
        ph = &job->pt.bls12_381.h;
    }
    size_t nv = z->n_vars, off_c = (size_t)z->n_public + 1, nc = nv - off_c;
    struct {
        const char *name;
        czk_buf_t bases, scalars;
        size_t off, n;
        void *out;
    } msm[4] = {
        {"msm_a", job->bases->a, job->wbuf, 0, nv, pa},
        {"msm_b1", job->bases->b1, job->wbuf, 0, nv, pb1},
        {"msm_c", job->bases->c, job->wbuf, off_c, nc, pc},
        {"msm_h", job->bases->h, a, 0, N, ph},
    };
    for (int i = 0; i < 4; i++) {
        if (cancelled(o)) {
            st = CZK_CANCELLED;
            goto fail;
        }
        t0 = now_ms();
        stage = msm[i].name;
        if (msm[i].n == 0) {
            /* No private signals: the C sum is empty. */
            if (curve == CZK_GROTH16_CURVE_BN254)
                czk_g1_bn254_set_inf(msm[i].out);
            else
                czk_g1_bls12_381_set_inf(msm[i].out);
        } else if ((st = czk_backend_msm_g1(be, curve, msm[i].bases, msm[i].scalars, msm[i].off,
                                            msm[i].n, msm[i].out)) != CZK_OK) {
            goto fail;
        }
        stage_done(o, stage, t0);
    }
    czk_buf_free(a);
    a = NULL;

    if (o->flags & CZK_PROVE_G2_IN_START) {
        stage = "msm_b2";
        if (cancelled(o)) {
            st = CZK_CANCELLED;
            goto fail;
        }
        if ((st = msm_b2(job)) != CZK_OK)
            goto fail;
    }
    *out = job;
    return CZK_OK;

fail:
    czk_buf_free(a);
    czk_buf_free(b);
    czk_buf_free(c);
    czk_prove_job_free(job);
    if (st == CZK_CANCELLED)
        return czk_errf(st, err, errlen, "prove: cancelled before stage %s", stage);
    stage_err(st, stage, err, errlen);
    return st;
}

/* ---- finish ---------------------------------------------------------------------------- */

/* A uniform element of Fr (Montgomery) from getrandom(2), by rejection sampling. */
static enum czk_status random_fr(enum czk_groth16_curve curve, uint64_t out[4])
{
    const uint64_t *r =
        curve == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_modulus() : czk_fr_bls12_381_modulus();
    uint64_t mask = r[3];
    mask |= mask >> 1, mask |= mask >> 2, mask |= mask >> 4, mask |= mask >> 8;
    mask |= mask >> 16, mask |= mask >> 32;
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t v[4];
        uint8_t *p = (uint8_t *)v;
        size_t got = 0;
        while (got < sizeof v) {
            ssize_t k = getrandom(p + got, sizeof v - got, 0);
            if (k < 0)
                return CZK_ERR_IO;
            got += (size_t)k;
        }
        v[3] &= mask;
        if (fr_canonical_ok(curve, v)) {
            memcpy(out, v, sizeof v);
            explicit_bzero(v, sizeof v);
            return CZK_OK;
        }
    }
    return CZK_ERR_INTERNAL; /* probability < 2^-1000 */
}

/*
 * Blinding and assembly, per curve (snarkjs groth16_prove.js, after the MSMs):
 *   pi_a = A + alpha1 + r·delta1;   pi_b = B2 + beta2 + s·delta2;
 *   pib1 = B1 + beta1 + s·delta1;   pi_c = C + H + s·pi_a + r·pib1 − (r·s)·delta1.
 * r, s are canonical in; secret-dependent products and sums use the _ct functions.
 */
#define PROVE_ASSEMBLE(C)                                                                          \
    static void assemble_##C(struct czk_groth16_proof_##C *proof, struct pts_##C *pt,              \
                             const struct czk_zkey *z, const uint64_t rc[4], const uint64_t sc[4]) \
    {                                                                                              \
        struct czk_fr_##C r, s, rs;                                                                \
        struct czk_g1_##C alpha1, beta1, delta1, pia, pib1, pic, t;                                \
        struct czk_g2_##C beta2, delta2, pib, t2;                                                  \
        czk_fr_##C##_from_canonical(&r, rc);                                                       \
        czk_fr_##C##_from_canonical(&s, sc);                                                       \
        czk_g1_##C##_from_affine(&alpha1, z->alpha1);                                              \
        czk_g1_##C##_from_affine(&beta1, z->beta1);                                                \
        czk_g1_##C##_from_affine(&delta1, z->delta1);                                              \
        czk_g2_##C##_from_affine(&beta2, z->beta2);                                                \
        czk_g2_##C##_from_affine(&delta2, z->delta2);                                              \
        /* pi_a = A + alpha1 + r·delta1 */                                                        \
        czk_g1_##C##_add(&pia, &pt->a, &alpha1);                                                   \
        czk_g1_##C##_mul_ct(&t, &delta1, &r);                                                      \
        czk_g1_##C##_add_ct(&pia, &pia, &t);                                                       \
        /* pi_b = B2 + beta2 + s·delta2 */                                                        \
        czk_g2_##C##_add(&pib, &pt->b2, &beta2);                                                   \
        czk_g2_##C##_mul_ct(&t2, &delta2, &s);                                                     \
        czk_g2_##C##_add_ct(&pib, &pib, &t2);                                                      \
        /* pib1 = B1 + beta1 + s·delta1 */                                                        \
        czk_g1_##C##_add(&pib1, &pt->b1, &beta1);                                                  \
        czk_g1_##C##_mul_ct(&t, &delta1, &s);                                                      \
        czk_g1_##C##_add_ct(&pib1, &pib1, &t);                                                     \
        /* pi_c = C + H + s·pi_a + r·pib1 − (r·s)·delta1 */                                  \
        czk_g1_##C##_add(&pic, &pt->c, &pt->h);                                                    \
        czk_g1_##C##_mul_ct(&t, &pia, &s);                                                         \
        czk_g1_##C##_add_ct(&pic, &pic, &t);                                                       \
        czk_g1_##C##_mul_ct(&t, &pib1, &r);                                                        \
        czk_g1_##C##_add_ct(&pic, &pic, &t);                                                       \
        czk_fr_##C##_mul(&rs, &r, &s);                                                             \
        czk_fr_##C##_neg(&rs, &rs);                                                                \
        czk_g1_##C##_mul_ct(&t, &delta1, &rs);                                                     \
        czk_g1_##C##_add_ct(&pic, &pic, &t);                                                       \
        czk_g1_##C##_to_affine(&proof->a, &pia);                                                   \
        czk_g2_##C##_to_affine(&proof->b, &pib);                                                   \
        czk_g1_##C##_to_affine(&proof->c, &pic);                                                   \
        explicit_bzero(&r, sizeof r);                                                              \
        explicit_bzero(&s, sizeof s);                                                              \
        explicit_bzero(&rs, sizeof rs);                                                            \
        explicit_bzero(&t, sizeof t);                                                              \
        explicit_bzero(&t2, sizeof t2);                                                            \
    }

PROVE_ASSEMBLE(bn254)
PROVE_ASSEMBLE(bls12_381)

enum czk_status czk_prove_finish(czk_prove_job_t job, struct czk_groth16_proof *proof,
                                 struct czk_groth16_public *pub, char *err, size_t errlen)
{
    if (!job)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "prove: NULL job");
    enum czk_status st = CZK_OK;
    const struct czk_zkey *z = &job->key->z;
    enum czk_groth16_curve curve = z->curve;
    const struct czk_prove_opts *o = &job->opts;
    struct czk_groth16_proof pr;
    struct czk_groth16_public pb;
    uint64_t r[4], s[4];
    memset(&pr, 0, sizeof pr);
    memset(&pb, 0, sizeof pb);

    if (!proof) {
        st = czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "prove: NULL proof");
        goto out;
    }
    if (!job->have_b2) {
        if (cancelled(o)) {
            st = czk_errf(CZK_CANCELLED, err, errlen, "prove: cancelled before stage msm_b2");
            goto out;
        }
        if ((st = msm_b2(job)) != CZK_OK) {
            stage_err(st, "msm_b2", err, errlen);
            goto out;
        }
    }
    if (cancelled(o)) {
        st = czk_errf(CZK_CANCELLED, err, errlen, "prove: cancelled before stage finish");
        goto out;
    }
    double t0 = now_ms();
    uint64_t *rs[2] = {r, s};
    for (int i = 0; i < 2; i++) {
        if (job->fixed_rs[i]) {
            memcpy(rs[i], job->fixed[i], sizeof r);
        } else if ((st = random_fr(curve, rs[i])) != CZK_OK) {
            czk_errf(st, err, errlen, "prove: getrandom failed");
            goto out;
        }
    }
    pr.curve = curve;
    if (curve == CZK_GROTH16_CURVE_BN254)
        assemble_bn254(&pr.bn254, &job->pt.bn254, z, r, s);
    else
        assemble_bls12_381(&pr.bls12_381, &job->pt.bls12_381, z, r, s);

    if (pub) {
        size_t np = z->n_public;
        pb.curve = curve;
        pb.n = np;
        if (np) {
            void *arr = malloc(np * sizeof(struct czk_fr_bn254));
            if (!arr) {
                st = czk_errf(CZK_ERR_NOMEM, err, errlen, "prove: out of memory");
                goto out;
            }
            for (size_t i = 0; i < np; i++) {
                /* Values were checked < r at load: from_canonical cannot fail. */
                if (curve == CZK_GROTH16_CURVE_BN254)
                    czk_fr_bn254_from_canonical((struct czk_fr_bn254 *)arr + i,
                                                job->w->values[1 + i]);
                else
                    czk_fr_bls12_381_from_canonical((struct czk_fr_bls12_381 *)arr + i,
                                                    job->w->values[1 + i]);
            }
            if (curve == CZK_GROTH16_CURVE_BN254)
                pb.bn254 = arr;
            else
                pb.bls12_381 = arr;
        }
    }
    stage_done(o, "finish", t0);
    *proof = pr;
    if (pub)
        *pub = pb;
out:
    explicit_bzero(r, sizeof r);
    explicit_bzero(s, sizeof s);
    explicit_bzero(job->fixed, sizeof job->fixed);
    czk_prove_job_free(job);
    return st;
}

enum czk_status czk_prove(czk_prover_key_t key, czk_backend_t be, czk_witness_t w,
                          const struct czk_prove_opts *opts, struct czk_groth16_proof *proof,
                          struct czk_groth16_public *pub, char *err, size_t errlen)
{
    czk_prove_job_t job = NULL;
    enum czk_status st = czk_prove_start(&job, key, be, w, opts, err, errlen);
    if (st != CZK_OK)
        return st;
    return czk_prove_finish(job, proof, pub, err, errlen);
}
