/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal template of setup_dev.c: the dev setup of one curve (formulas in
 * setup_dev.h). The including file defines
 *   SD_SUF    suffix of the generated names (bn254, bls12_381)
 *   SD_CURVE  enum czk_groth16_curve value
 *   SD_FR SD_G1 SD_G2   the scalar field and groups (fr_bn254, g1_bn254, g2_bn254)
 * after instantiating setup_fb_impl.h for SD_G1 and SD_G2, and gets the static
 * functions sd_lagrange_<SUF> and sd_setup_<SUF>.
 *
 * Stages: Lagrange basis at tau on the domain; column sums u = Aᵀ·L, v = Bᵀ·L, w = Cᵀ·L
 * (a transposed index of each matrix, built sequentially, then parallel over columns);
 * the per-signal scalars; the odd-coset Lagrange values for H; fixed-base
 * multiplications; the coefficient section; czk_zkey_write. Every array is owned here
 * and freed before returning.
 */
#include <stdlib.h>
#include <string.h>

#define SD_CAT_(a, b) a##b
#define SD_CAT(a, b) SD_CAT_(a, b)
#define SD_FN(x) SD_CAT(SD_CAT(sd_, x), SD_CAT(_, SD_SUF))
#define SD_FRFN(x) SD_CAT(SD_CAT(czk_, SD_FR), _##x)
#define SD_FR_T struct SD_CAT(czk_, SD_FR)
#define SD_G1A_T struct SD_CAT(SD_CAT(czk_, SD_G1), _affine)
#define SD_G2A_T struct SD_CAT(SD_CAT(czk_, SD_G2), _affine)
#define SD_FB1(x) SD_CAT(SD_CAT(fb_, SD_G1), _##x)
#define SD_FB2(x) SD_CAT(SD_CAT(fb_, SD_G2), _##x)

#define SD_LAG_BLOCK 1024u

/* ---- Lagrange values ------------------------------------------------------------------ */

struct SD_FN(lag_ctx) {
    SD_FR_T *out;
    SD_FR_T omega, g, k, tau;
    atomic_int failed;
};

/* out[j] = k·x_j / (tau − x_j), x_j = g·omega^j. */
static void SD_FN(lag_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct SD_FN(lag_ctx) *c = vctx;
    SD_FR_T *d = malloc(2 * SD_LAG_BLOCK * sizeof *d);
    SD_FR_T x, t;
    uint64_t eb = b;

    if (!d) {
        atomic_store(&c->failed, 1);
        return;
    }
    SD_FRFN(pow)(&x, &c->omega, &eb, 1);
    SD_FRFN(mul)(&x, &x, &c->g);
    for (size_t i = b; i < e; i += SD_LAG_BLOCK) {
        size_t m = e - i < SD_LAG_BLOCK ? e - i : SD_LAG_BLOCK;
        for (size_t j = 0; j < m; j++) {
            SD_FRFN(mul)(&c->out[i + j], &x, &c->k);
            SD_FRFN(sub)(&d[j], &c->tau, &x);
            SD_FRFN(mul)(&x, &x, &c->omega);
        }
        SD_FRFN(batch_inv)(d, d, m, d + SD_LAG_BLOCK);
        for (size_t j = 0; j < m; j++) {
            t = c->out[i + j];
            SD_FRFN(mul)(&c->out[i + j], &t, &d[j]);
        }
    }
    free(d);
}

/* Domain (odd false) or odd-coset (odd true) Lagrange values at tau, times `scale`
 * (Montgomery; NULL = 1). CZK_ERR_INVALID_ARG when tau is one of the points. */
static enum czk_status SD_FN(lagrange)(SD_FR_T *out, unsigned lg, const SD_FR_T *tau, bool odd,
                                       const SD_FR_T *scale, unsigned threads)
{
    struct SD_FN(lag_ctx) c;
    SD_FR_T one, tn, gn, num, den, t;
    uint64_t n = 1ull << lg;

    if (lg > SD_FRFN(two_adicity)() || lg > 31)
        return CZK_ERR_INVALID_ARG;
    memset(&c, 0, sizeof c);
    SD_FRFN(one)(&one);
    if (SD_FRFN(root_of_unity)(&c.omega, lg, CZK_NTT_SNARKJS) != CZK_OK)
        return CZK_ERR_INVALID_ARG;
    if (odd)
        czk_ntt_snarkjs_shift(SD_CURVE, lg, c.g.l);
    else
        c.g = one;
    c.tau = *tau;
    SD_FRFN(pow)(&tn, tau, &n, 1);
    SD_FRFN(pow)(&gn, &c.g, &n, 1);
    /* domain:  k = (tau^N − 1) / N
     * coset:   k = (tau^N − 1)(tau^N − g^N) / (N·g^N·(g^N − 1)) */
    SD_FRFN(sub)(&num, &tn, &one);
    SD_FRFN(from_u64)(&den, n);
    if (odd) {
        SD_FRFN(sub)(&t, &tn, &gn);
        SD_FRFN(mul)(&num, &num, &t);
        SD_FRFN(mul)(&den, &den, &gn);
        SD_FRFN(sub)(&t, &gn, &one);
        SD_FRFN(mul)(&den, &den, &t);
    }
    if (SD_FRFN(is_zero)(&num) || SD_FRFN(is_zero)(&den))
        return CZK_ERR_INVALID_ARG; /* tau on the domain or the coset */
    SD_FRFN(inv_vartime)(&den, &den);
    SD_FRFN(mul)(&c.k, &num, &den);
    if (scale)
        SD_FRFN(mul)(&c.k, &c.k, scale);
    c.out = out;
    atomic_init(&c.failed, 0);
    czk_parallel_for(n, 4 * SD_LAG_BLOCK, threads, SD_FN(lag_chunk), &c);
    return atomic_load(&c.failed) ? CZK_ERR_NOMEM : CZK_OK;
}

/* ---- column sums ------------------------------------------------------------------------ */

struct SD_FN(col_ctx) {
    const struct czk_csr *m;
    const uint64_t *col_ptr, *ent;
    const uint32_t *row;
    const SD_FR_T *lag;
    SD_FR_T *out;
};

static void SD_FN(col_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct SD_FN(col_ctx) *c = vctx;
    SD_FR_T acc, t, v;
    for (size_t s = b; s < e; s++) {
        SD_FRFN(zero)(&acc);
        for (uint64_t p = c->col_ptr[s]; p < c->col_ptr[s + 1]; p++) {
            memcpy(v.l, c->m->val[c->ent[p]], sizeof v.l);
            SD_FRFN(mul)(&t, &v, &c->lag[c->row[p]]);
            SD_FRFN(add)(&acc, &acc, &t);
        }
        c->out[s] = acc;
    }
}

/* out[s] = Σ_c M[c][s]·lag[c] over the rows of m, for s < n_cols. */
static enum czk_status SD_FN(colsum)(const struct czk_csr *m, uint32_t n_cols, const SD_FR_T *lag,
                                     SD_FR_T *out, unsigned threads)
{
    uint64_t *col_ptr = calloc((size_t)n_cols + 1, sizeof *col_ptr);
    uint64_t *cursor = malloc(((size_t)n_cols + 1) * sizeof *cursor);
    uint64_t *ent = malloc((m->nnz ? m->nnz : 1) * sizeof *ent);
    uint32_t *row = malloc((m->nnz ? m->nnz : 1) * sizeof *row);
    enum czk_status st = CZK_ERR_NOMEM;

    if (!col_ptr || !cursor || !ent || !row)
        goto out;
    for (uint64_t j = 0; j < m->nnz; j++)
        col_ptr[m->col[j] + 1]++;
    for (uint32_t s = 0; s < n_cols; s++)
        col_ptr[s + 1] += col_ptr[s];
    memcpy(cursor, col_ptr, ((size_t)n_cols + 1) * sizeof *cursor);
    for (uint32_t i = 0; i < m->n_rows; i++) {
        for (uint64_t j = m->row_ptr[i]; j < m->row_ptr[i + 1]; j++) {
            uint64_t p = cursor[m->col[j]]++;
            ent[p] = j;
            row[p] = i;
        }
    }
    struct SD_FN(col_ctx) c = {m, col_ptr, ent, row, lag, out};
    czk_parallel_for(n_cols, 1024, threads, SD_FN(col_chunk), &c);
    st = CZK_OK;
out:
    free(col_ptr);
    free(cursor);
    free(ent);
    free(row);
    return st;
}

/* ---- per-signal scalars ----------------------------------------------------------------- */

struct SD_FN(sc_ctx) {
    SD_FR_T *u, *v, *w; /* in: column sums; out: canonical A, B and IC/C scalars */
    SD_FR_T alpha, beta, gamma_inv, delta_inv;
    uint32_t n_public;
};

static void SD_FN(sc_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct SD_FN(sc_ctx) *c = vctx;
    SD_FR_T k, t;
    for (size_t s = b; s < e; s++) {
        SD_FRFN(mul)(&k, &c->beta, &c->u[s]);
        SD_FRFN(mul)(&t, &c->alpha, &c->v[s]);
        SD_FRFN(add)(&k, &k, &t);
        SD_FRFN(add)(&k, &k, &c->w[s]);
        SD_FRFN(mul)(&k, &k, s <= c->n_public ? &c->gamma_inv : &c->delta_inv);
        SD_FRFN(to_canonical)(c->w[s].l, &k);
        t = c->u[s];
        SD_FRFN(to_canonical)(c->u[s].l, &t);
        t = c->v[s];
        SD_FRFN(to_canonical)(c->v[s].l, &t);
    }
}

struct SD_FN(canon_ctx) {
    SD_FR_T *x;
};

static void SD_FN(canon_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct SD_FN(canon_ctx) *c = vctx;
    for (size_t i = b; i < e; i++) {
        SD_FR_T t = c->x[i];
        SD_FRFN(to_canonical)(c->x[i].l, &t);
    }
}

/* ---- coefficients ----------------------------------------------------------------------- */

struct SD_FN(coef_ctx) {
    const struct czk_r1cs *r;
    struct czk_zkey_coef *coefs;
    SD_FR_T r_mont; /* Montgomery form of R mod r: mul(c·R, it) has limbs c·R² */
};

static void SD_FN(coef_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct SD_FN(coef_ctx) *c = vctx;
    const struct czk_csr *ma = &c->r->m[0], *mb = &c->r->m[1];
    SD_FR_T v, t;
    for (size_t i = b; i < e; i++) {
        struct czk_zkey_coef *o = c->coefs + ma->row_ptr[i] + mb->row_ptr[i];
        for (unsigned k = 0; k < 2; k++) {
            const struct czk_csr *m = k ? mb : ma;
            for (uint64_t j = m->row_ptr[i]; j < m->row_ptr[i + 1]; j++, o++) {
                o->matrix = k;
                o->constraint = (uint32_t)i;
                o->signal = m->col[j];
                memcpy(v.l, m->val[j], sizeof v.l);
                SD_FRFN(mul)(&t, &v, &c->r_mont);
                memcpy(o->value, t.l, sizeof t.l);
            }
        }
    }
}

/* ---- the setup ---------------------------------------------------------------------------- */

static enum czk_status SD_FN(secret)(SD_FR_T *out, const uint64_t in[4], const char *name,
                                     char *err, size_t errlen)
{
    if (SD_FRFN(from_canonical)(out, in) != CZK_OK || SD_FRFN(is_zero)(out))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "setup: %s must be in [1, r)", name);
    return CZK_OK;
}

static enum czk_status SD_FN(setup)(const struct czk_r1cs *r, const struct czk_setup_toxic *tw,
                                    const char *path, unsigned threads, char *err, size_t errlen)
{
    SD_FR_T tau, alpha, beta, gamma, delta, inv, one;
    SD_FR_T *lag = NULL, *u = NULL, *v = NULL, *w = NULL, *hs = NULL;
    SD_G1A_T *a = NULL, *b1 = NULL, *cw = NULL, *h = NULL, g1s[3];
    SD_G2A_T *b2 = NULL, g2s[3];
    struct SD_FB1(table) g1tbl = {0, 0, 0, NULL};
    struct SD_FB2(table) g2tbl = {0, 0, 0, NULL};
    struct czk_zkey_coef *coefs = NULL;
    struct czk_zkey z;
    enum czk_status st;
    uint32_t npub = r->n_pub_out + r->n_pub_in, nv = r->n_wires, n = r->n_constraints;
    unsigned lg = czk_setup_lg_domain(n, npub);
    unsigned maxlg = SD_FRFN(two_adicity)() < 31 ? SD_FRFN(two_adicity)() : 31;
    uint64_t nd = 1ull << lg;

    if (lg > maxlg)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "setup: %u constraints + %u public signals need a domain of 2^%u, "
                        "above the largest (2^%u) of %s",
                        n, npub, lg, maxlg, czk_groth16_curve_name(SD_CURVE));
    if ((uint64_t)npub + 1 > nv || nv == 0)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "setup: %u public signals but only %u wires",
                        npub, nv);
    for (unsigned k = 0; k < 3; k++)
        if (r->m[k].n_rows != n || !r->m[k].row_ptr || r->m[k].row_ptr[n] != r->m[k].nnz)
            return czk_errf(CZK_ERR_FORMAT, err, errlen, "setup: matrix %u is inconsistent", k);
    uint64_t ncoef = r->m[0].nnz + r->m[1].nnz + npub + 1;
    if (ncoef > UINT32_MAX)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "setup: %llu coefficients do not fit a zkey (u32 count)",
                        (unsigned long long)ncoef);
    if ((st = SD_FN(secret)(&tau, tw->tau, "tau", err, errlen)) != CZK_OK ||
        (st = SD_FN(secret)(&alpha, tw->alpha, "alpha", err, errlen)) != CZK_OK ||
        (st = SD_FN(secret)(&beta, tw->beta, "beta", err, errlen)) != CZK_OK ||
        (st = SD_FN(secret)(&gamma, tw->gamma, "gamma", err, errlen)) != CZK_OK ||
        (st = SD_FN(secret)(&delta, tw->delta, "delta", err, errlen)) != CZK_OK)
        return st;

    st = CZK_ERR_NOMEM;
    lag = malloc(nd * sizeof *lag);
    u = calloc(nv, sizeof *u);
    v = calloc(nv, sizeof *v);
    w = calloc(nv, sizeof *w);
    coefs = malloc(ncoef * sizeof *coefs);
    if (!lag || !u || !v || !w || !coefs)
        goto nomem;

    /* Scalars of A, B1/B2, IC and C. */
    st = SD_FN(lagrange)(lag, lg, &tau, false, NULL, threads);
    if (st == CZK_ERR_INVALID_ARG) {
        czk_errf(st, err, errlen, "setup: tau lies on the domain");
        goto out;
    }
    if (st != CZK_OK)
        goto nomem;
    if (SD_FN(colsum)(&r->m[0], nv, lag, u, threads) != CZK_OK ||
        SD_FN(colsum)(&r->m[1], nv, lag, v, threads) != CZK_OK ||
        SD_FN(colsum)(&r->m[2], nv, lag, w, threads) != CZK_OK)
        goto nomem;
    for (uint32_t s = 0; s <= npub; s++) /* the extra rows of A */
        SD_FRFN(add)(&u[s], &u[s], &lag[n + s]);
    struct SD_FN(sc_ctx) sc = {u, v, w, alpha, beta, gamma, delta, npub};
    SD_FRFN(inv_vartime)(&sc.gamma_inv, &gamma);
    SD_FRFN(inv_vartime)(&sc.delta_inv, &delta);
    czk_parallel_for(nv, 4096, threads, SD_FN(sc_chunk), &sc);

    /* Scalars of H: the odd-coset Lagrange values over delta (reusing lag). */
    hs = lag;
    lag = NULL;
    st = SD_FN(lagrange)(hs, lg, &tau, true, &sc.delta_inv, threads);
    if (st == CZK_ERR_INVALID_ARG) {
        czk_errf(st, err, errlen, "setup: tau lies on the odd coset");
        goto out;
    }
    if (st != CZK_OK)
        goto nomem;
    struct SD_FN(canon_ctx) cc = {hs};
    czk_parallel_for(nd, 4096, threads, SD_FN(canon_chunk), &cc);

    /* Points. */
    st = CZK_ERR_NOMEM;
    a = malloc((size_t)nv * sizeof *a);
    b1 = malloc((size_t)nv * sizeof *b1);
    b2 = malloc((size_t)nv * sizeof *b2);
    h = malloc(nd * sizeof *h);
    cw = malloc((size_t)nv * sizeof *cw); /* IC (npub + 1) then C */
    if (!a || !b1 || !b2 || !h || !cw)
        goto nomem;
    /* Window widths from the number of nonzero scalars per group (B is sparse). */
    size_t nz1 = nd, nz2 = 0;
    for (uint32_t s = 0; s < nv; s++) {
        nz1 += !SD_FRFN(is_zero)(&u[s]) + !SD_FRFN(is_zero)(&w[s]);
        nz2 += !SD_FRFN(is_zero)(&v[s]);
    }
    nz1 += nz2;
    if (SD_FB1(table_init)(&g1tbl, czk_setup_window_bits(nz1), threads) != CZK_OK ||
        SD_FB2(table_init)(&g2tbl, czk_setup_window_bits(nz2), threads) != CZK_OK)
        goto nomem;
    uint64_t sec1[3][4], sec2[3][4];
    SD_FRFN(to_canonical)(sec1[0], &alpha);
    SD_FRFN(to_canonical)(sec1[1], &beta);
    SD_FRFN(to_canonical)(sec1[2], &delta);
    SD_FRFN(to_canonical)(sec2[0], &beta);
    SD_FRFN(to_canonical)(sec2[1], &gamma);
    SD_FRFN(to_canonical)(sec2[2], &delta);
    if (SD_FB1(run)(&g1tbl, g1s, (const uint64_t(*)[4])sec1, 3, 1) != CZK_OK ||
        SD_FB2(run)(&g2tbl, g2s, (const uint64_t(*)[4])sec2, 3, 1) != CZK_OK ||
        SD_FB1(run)(&g1tbl, a, (const uint64_t(*)[4])u, nv, threads) != CZK_OK ||
        SD_FB1(run)(&g1tbl, b1, (const uint64_t(*)[4])v, nv, threads) != CZK_OK ||
        SD_FB2(run)(&g2tbl, b2, (const uint64_t(*)[4])v, nv, threads) != CZK_OK ||
        SD_FB1(run)(&g1tbl, cw, (const uint64_t(*)[4])w, nv, threads) != CZK_OK ||
        SD_FB1(run)(&g1tbl, h, (const uint64_t(*)[4])hs, nd, threads) != CZK_OK)
        goto nomem;
    memset(&sec1, 0, sizeof sec1);
    memset(&sec2, 0, sizeof sec2);

    /* Section 4: A and B of every constraint, then the extra rows of A (value 1). */
    struct SD_FN(coef_ctx) co;
    co.r = r;
    co.coefs = coefs;
    SD_FRFN(one)(&one);
    if (SD_FRFN(from_canonical)(&co.r_mont, one.l) != CZK_OK) {
        st = CZK_ERR_INTERNAL;
        goto out;
    }
    czk_parallel_for(n, 4096, threads, SD_FN(coef_chunk), &co);
    for (uint32_t s = 0; s <= npub; s++) {
        struct czk_zkey_coef *o = coefs + r->m[0].nnz + r->m[1].nnz + s;
        o->matrix = 0;
        o->constraint = n + s;
        o->signal = s;
        memcpy(o->value, co.r_mont.l, sizeof o->value); /* 1·R² */
    }

    memset(&z, 0, sizeof z);
    z.curve = SD_CURVE;
    z.n_vars = nv;
    z.n_public = npub;
    z.domain_size = (uint32_t)nd;
    z.lg_domain = lg;
    z.alpha1 = &g1s[0];
    z.beta1 = &g1s[1];
    z.delta1 = &g1s[2];
    z.beta2 = &g2s[0];
    z.gamma2 = &g2s[1];
    z.delta2 = &g2s[2];
    z.ic = cw;
    z.n_coefs = (uint32_t)ncoef;
    z.coefs = coefs;
    z.a = a;
    z.b1 = b1;
    z.b2 = b2;
    z.c = cw + npub + 1;
    z.h = h;
    st = czk_zkey_write(path, &z, err, errlen);
    goto out;

nomem:
    st = czk_errf(CZK_ERR_NOMEM, err, errlen, "setup: out of memory (%u signals, domain 2^%u)", nv,
                  lg);
out:
    memset(&tau, 0, sizeof tau);
    memset(&alpha, 0, sizeof alpha);
    memset(&beta, 0, sizeof beta);
    memset(&gamma, 0, sizeof gamma);
    memset(&delta, 0, sizeof delta);
    (void)inv;
    free(lag);
    free(u);
    free(v);
    free(w);
    free(hs);
    free(a);
    free(b1);
    free(b2);
    free(h);
    free(cw);
    SD_FB1(table_free)(&g1tbl);
    SD_FB2(table_free)(&g2tbl);
    free(coefs);
    return st;
}

#undef SD_FN
#undef SD_FRFN
#undef SD_FR_T
#undef SD_G1A_T
#undef SD_G2A_T
#undef SD_FB1
#undef SD_FB2
