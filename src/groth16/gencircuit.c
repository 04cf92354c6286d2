/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic circuits for `czk gen-circuit` (see gencircuit.h for the two shapes).
 *
 * Randomness: splitmix64 streams, one per (seed, purpose, index), so any row or witness
 * value can be generated on any thread in any order with the same result. Field
 * elements are drawn by rejection (random bits below the modulus' bit length, kept if
 * < r and nonzero).
 *
 * porep rows are built in two passes over the rows: the first draws only each row's
 * term counts (the first two draws of its stream), a prefix sum gives the CSR row
 * pointers, and the second pass replays the stream and writes the row in place, both
 * passes parallel over rows. The witness (Montgomery copy) is drawn before the rows; a
 * row's C side is then solved: with p = (A·w)(B·w) and C terms k_t·w_t, all k_t but
 * one are random nonzero and the remaining one, on a term whose value is nonzero
 * (preferably 1, which needs no inversion), is (p − Σ others) / w_b. Rows where that
 * would force a zero coefficient (p = 0 with exactly one nonzero-valued term) get one
 * term swapped for the constant wire or for a zero-valued wire first.
 *
 * Field arithmetic goes through a small table of the curve's Fr functions on
 * uint64_t[4] (both scalar fields have 4 limbs). Threading: czk_parallel_for; workers
 * write disjoint rows and wires.
 */
#include "groth16/gencircuit.h"

#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "czk/czk_ff.h"

#define POREP_BASE (1u + CZK_GEN_POREP_PUBLIC) /* first private wire */
#define TAG_WITNESS 0x7769746eull
#define TAG_ROW 0x726f7773ull
#define TAG_EXCL_A 0x78636c41ull
#define TAG_MUL 0x6d756c63ull
#define TAG_MUL_WITNESS 0x6d756c77ull

/* ---- scalar field dispatch ------------------------------------------------------------- */

typedef uint64_t fe[4];

struct gc_fr {
    void (*mul)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*add)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*sub)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*inv)(uint64_t *r, const uint64_t *a);
    void (*to_canonical)(uint64_t *out, const uint64_t *a);
    enum czk_status (*from_canonical)(uint64_t *r, const uint64_t *in);
    void (*one)(uint64_t *r);
    uint64_t top_mask; /* mask of the top limb for the modulus' bit length */
};

#define GC_FR_WRAP(F)                                                                              \
    static void F##_w_mul(uint64_t *r, const uint64_t *a, const uint64_t *b)                       \
    {                                                                                              \
        czk_##F##_mul((struct czk_##F *)r, (const struct czk_##F *)a, (const struct czk_##F *)b);  \
    }                                                                                              \
    static void F##_w_add(uint64_t *r, const uint64_t *a, const uint64_t *b)                       \
    {                                                                                              \
        czk_##F##_add((struct czk_##F *)r, (const struct czk_##F *)a, (const struct czk_##F *)b);  \
    }                                                                                              \
    static void F##_w_sub(uint64_t *r, const uint64_t *a, const uint64_t *b)                       \
    {                                                                                              \
        czk_##F##_sub((struct czk_##F *)r, (const struct czk_##F *)a, (const struct czk_##F *)b);  \
    }                                                                                              \
    static void F##_w_inv(uint64_t *r, const uint64_t *a)                                          \
    {                                                                                              \
        czk_##F##_inv_vartime((struct czk_##F *)r, (const struct czk_##F *)a);                     \
    }                                                                                              \
    static void F##_w_to_canonical(uint64_t *out, const uint64_t *a)                               \
    {                                                                                              \
        czk_##F##_to_canonical(out, (const struct czk_##F *)a);                                    \
    }                                                                                              \
    static enum czk_status F##_w_from_canonical(uint64_t *r, const uint64_t *in)                   \
    {                                                                                              \
        return czk_##F##_from_canonical((struct czk_##F *)r, in);                                  \
    }                                                                                              \
    static void F##_w_one(uint64_t *r) { czk_##F##_one((struct czk_##F *)r); }

GC_FR_WRAP(fr_bn254)
GC_FR_WRAP(fr_bls12_381)

static const struct gc_fr gc_fr_bn254 = {
    fr_bn254_w_mul, fr_bn254_w_add,          fr_bn254_w_sub,
    fr_bn254_w_inv, fr_bn254_w_to_canonical, fr_bn254_w_from_canonical,
    fr_bn254_w_one, (1ull << 62) - 1, /* r < 2^254 */
};

static const struct gc_fr gc_fr_bls12_381 = {
    fr_bls12_381_w_mul,          fr_bls12_381_w_add,
    fr_bls12_381_w_sub,          fr_bls12_381_w_inv,
    fr_bls12_381_w_to_canonical, fr_bls12_381_w_from_canonical,
    fr_bls12_381_w_one,          (1ull << 63) - 1, /* r < 2^255 */
};

static bool fe_is_zero(const uint64_t *a) { return (a[0] | a[1] | a[2] | a[3]) == 0; }

static bool fe_eq(const uint64_t *a, const uint64_t *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/* r = k·w, skipping the multiplication for the common coefficient 1. */
static void fe_scale(const struct gc_fr *F, uint64_t *r, const uint64_t *k, const uint64_t *w,
                     const uint64_t *one)
{
    if (fe_eq(k, one))
        memcpy(r, w, sizeof(fe));
    else
        F->mul(r, k, w);
}

/* ---- randomness ------------------------------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct gc_rng {
    uint64_t s;
};

static void rng_init(struct gc_rng *g, uint64_t seed, uint64_t tag, uint64_t idx)
{
    g->s = mix64(seed + 0x9e3779b97f4a7c15ull * (mix64(tag) ^ mix64(idx + 0x632be59bd9b4e019ull)));
}

static uint64_t rng_next(struct gc_rng *g)
{
    g->s += 0x9e3779b97f4a7c15ull;
    return mix64(g->s);
}

static double rng_u01(struct gc_rng *g) { return (double)(rng_next(g) >> 11) * 0x1p-53; }

static uint32_t rng_below(struct gc_rng *g, uint32_t n) { return (uint32_t)(rng_next(g) % n); }

/* A uniform nonzero field element in Montgomery form. */
static void rng_fe(const struct gc_fr *F, struct gc_rng *g, uint64_t *out)
{
    for (;;) {
        uint64_t c[4] = {rng_next(g), rng_next(g), rng_next(g), rng_next(g) & F->top_mask};
        if (F->from_canonical(out, c) == CZK_OK && !fe_is_zero(out))
            return;
    }
}

/* ---- common ------------------------------------------------------------------------------ */

uint32_t czk_gen_n_public(enum czk_gen_shape shape)
{
    return shape == CZK_GEN_SHAPE_POREP ? CZK_GEN_POREP_PUBLIC : CZK_GEN_MUL_PUBLIC;
}

unsigned czk_gen_max_lg_domain(enum czk_groth16_curve curve)
{
    unsigned s = curve == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_two_adicity()
                                                  : czk_fr_bls12_381_two_adicity();
    return s < 31 ? s : 31;
}

void czk_gen_circuit_free(struct czk_gen_circuit *c)
{
    if (!c)
        return;
    czk_r1cs_free(&c->r1cs);
    free(c->witness);
    memset(c, 0, sizeof *c);
}

static bool csr_alloc(struct czk_csr *m, uint32_t rows, uint32_t cols, uint64_t nnz)
{
    m->n_rows = rows;
    m->n_cols = cols;
    m->nnz = nnz;
    m->row_ptr = malloc(((size_t)rows + 1) * sizeof *m->row_ptr);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    return m->row_ptr && m->col && m->val;
}

/* Sorts the n <= 4 terms (wire, coefficient) of one row by wire. */
static void sort_terms(uint32_t *w, fe *k, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        for (unsigned j = i; j > 0 && w[j - 1] > w[j]; j--) {
            uint32_t tw = w[j];
            w[j] = w[j - 1];
            w[j - 1] = tw;
            fe tk;
            memcpy(tk, k[j], sizeof tk);
            memcpy(k[j], k[j - 1], sizeof tk);
            memcpy(k[j - 1], tk, sizeof tk);
        }
    }
}

static bool in_list(const uint32_t *w, unsigned n, uint32_t x)
{
    for (unsigned i = 0; i < n; i++)
        if (w[i] == x)
            return true;
    return false;
}

/* ---- witness to canonical ------------------------------------------------------------------ */

struct canon_ctx {
    const struct gc_fr *F;
    const fe *in;
    fe *out;
};

static void canon_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct canon_ctx *c = vctx;
    for (size_t i = b; i < e; i++)
        c->F->to_canonical(c->out[i], c->in[i]);
}

/* ---- mul shape ------------------------------------------------------------------------------ */

struct mul_ctx {
    struct czk_r1cs *r;
    const fe *one;
    const uint8_t *sq; /* per row: 1 = x_i · x_i, 0 = x_i · y */
};

/* Wire holding x_i (i = 0 .. n): x_0 = 2 (public input), x_n = 1 (out), else 3 + i. */
static uint32_t mul_x_wire(uint32_t i, uint32_t n) { return i == 0 ? 2u : i == n ? 1u : 3u + i; }

static void mul_rows_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct mul_ctx *c = vctx;
    uint32_t n = c->r->n_constraints;
    for (size_t i = b; i < e; i++) {
        for (unsigned k = 0; k < 3; k++) {
            c->r->m[k].row_ptr[i] = i;
            memcpy(c->r->m[k].val[i], *c->one, sizeof(fe));
        }
        c->r->m[0].col[i] = mul_x_wire((uint32_t)i, n);
        c->r->m[1].col[i] = c->sq[i] ? mul_x_wire((uint32_t)i, n) : 3u;
        c->r->m[2].col[i] = mul_x_wire((uint32_t)i + 1, n);
    }
}

static enum czk_status gen_mul(struct czk_gen_circuit *out, const struct czk_gen_params *p,
                               const struct gc_fr *F, char *err, size_t errlen)
{
    struct czk_r1cs *r = &out->r1cs;
    uint32_t n = p->n_constraints;
    uint32_t nw = n + 3;
    fe *wm = NULL, one, y;
    uint8_t *sq = NULL;
    struct gc_rng g;
    enum czk_status st = CZK_ERR_NOMEM;

    r->n_wires = nw;
    r->n_pub_out = 1;
    r->n_pub_in = 1;
    r->n_prv_in = 1;
    r->n_constraints = n;
    r->n_labels = nw;
    for (unsigned k = 0; k < 3; k++)
        if (!csr_alloc(&r->m[k], n, nw, n))
            goto out;
    r->wire_to_label = malloc((size_t)nw * sizeof *r->wire_to_label);
    out->witness = malloc((size_t)nw * sizeof *out->witness);
    wm = malloc((size_t)nw * sizeof *wm);
    sq = malloc(n);
    if (!r->wire_to_label || !out->witness || !wm || !sq)
        goto out;

    F->one(one);
    rng_init(&g, p->seed, TAG_MUL, 0);
    memcpy(wm[0], one, sizeof one);
    rng_fe(F, &g, wm[2]); /* x */
    rng_fe(F, &g, y);
    for (uint32_t i = 0; i < n; i++)
        sq[i] = (uint8_t)(rng_next(&g) >> 63);
    if (p->witness_index) { /* same rows (sq), other inputs */
        struct gc_rng gw;
        rng_init(&gw, p->seed, TAG_MUL_WITNESS, p->witness_index);
        rng_fe(F, &gw, wm[2]);
        rng_fe(F, &gw, y);
    }
    memcpy(wm[3], y, sizeof y);
    /* The chain itself is sequential: one multiplication per row. */
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t *x = wm[mul_x_wire(i, n)];
        F->mul(wm[mul_x_wire(i + 1, n)], x, sq[i] ? x : y);
    }
    for (uint32_t i = 0; i < nw; i++)
        r->wire_to_label[i] = i;
    for (unsigned k = 0; k < 3; k++)
        r->m[k].row_ptr[n] = n;

    struct mul_ctx mc = {r, (const fe *)&one, sq};
    czk_parallel_for(n, 1u << 14, p->threads, mul_rows_fn, &mc);
    struct canon_ctx cc = {F, (const fe *)wm, out->witness};
    czk_parallel_for(nw, 1u << 14, p->threads, canon_fn, &cc);
    st = CZK_OK;
out:
    if (st != CZK_OK)
        czk_errf(st, err, errlen, "gen-circuit: out of memory for %u constraints", n);
    free(wm);
    free(sq);
    return st;
}

/* ---- porep shape ------------------------------------------------------------------------------
 */

#define POREP_A_EXTRA_P 0.37 /* A has 2 terms, a third with this probability: 2.37 */
#define POREP_C_EXTRA_P 0.17 /* C has 2 terms, a third with this probability: 2.17 */
#define POREP_B_SHARE 0.254  /* share of private wires occurring in B */
#define POREP_A_EXCL 30u     /* per 10000 private wires never in A (99.7% are) */
#define POREP_ZERO_LIST 64u  /* zero-valued private wires remembered for the C fix-up */

struct porep_ctx {
    const struct gc_fr *F;
    uint64_t seed;
    double bool_frac;
    uint32_t n, n_wires, n_b; /* constraints (= private wires), wires, |B set| */
    fe one;
    fe *wm; /* Montgomery witness */
    const uint32_t *zeros;
    uint32_t n_zeros;
    struct czk_r1cs *r;
};

static bool porep_excluded_a(uint64_t seed, uint32_t j)
{
    return mix64(seed ^ mix64(TAG_EXCL_A ^ mix64(j))) % 10000u < POREP_A_EXCL;
}

static void porep_witness_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct porep_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        struct gc_rng g;
        rng_init(&g, c->seed, TAG_WITNESS, i);
        if (i == 0) {
            memcpy(c->wm[0], c->one, sizeof(fe));
        } else if (i >= POREP_BASE && rng_u01(&g) < c->bool_frac) {
            if (rng_next(&g) >> 63)
                memcpy(c->wm[i], c->one, sizeof(fe));
            else
                memset(c->wm[i], 0, sizeof(fe));
        } else {
            rng_fe(c->F, &g, c->wm[i]);
        }
    }
}

/* The first draws of row i's stream: its term counts in A and C. */
static void porep_row_counts(struct gc_rng *g, uint64_t seed, uint32_t i, unsigned *na,
                             unsigned *nc)
{
    rng_init(g, seed, TAG_ROW, i);
    *na = 2u + (rng_u01(g) < POREP_A_EXTRA_P);
    *nc = 2u + (rng_u01(g) < POREP_C_EXTRA_P);
}

static void porep_count_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct porep_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        struct gc_rng g;
        unsigned na, nc;
        porep_row_counts(&g, c->seed, (uint32_t)i, &na, &nc);
        c->r->m[0].row_ptr[i + 1] = na;
        c->r->m[2].row_ptr[i + 1] = nc;
    }
}

/* A coefficient: 1 with probability p_one, else a random nonzero element. */
static void porep_coef(const struct porep_ctx *c, struct gc_rng *g, double p_one, uint64_t *k)
{
    if (rng_u01(g) < p_one)
        memcpy(k, c->one, sizeof(fe));
    else
        rng_fe(c->F, g, k);
}

static uint32_t porep_a_extra(const struct porep_ctx *c, struct gc_rng *g)
{
    double u = rng_u01(g);
    if (u < 0.02)
        return 0;
    if (u < 0.07)
        return 1u + rng_below(g, CZK_GEN_POREP_PUBLIC);
    for (;;) {
        uint32_t j = rng_below(g, c->n);
        if (!porep_excluded_a(c->seed, j))
            return POREP_BASE + j;
    }
}

/* A zero-valued private wire not among w[0..n), or UINT32_MAX. */
static uint32_t porep_zero_wire(const struct porep_ctx *c, struct gc_rng *g, const uint32_t *w,
                                unsigned n)
{
    if (!c->n_zeros)
        return UINT32_MAX;
    uint32_t s = rng_below(g, c->n_zeros);
    for (uint32_t t = 0; t < c->n_zeros; t++) {
        uint32_t z = c->zeros[(s + t) % c->n_zeros];
        if (!in_list(w, n, z))
            return z;
    }
    return UINT32_MAX;
}

static void porep_row(const struct porep_ctx *c, uint32_t i)
{
    const struct gc_fr *F = c->F;
    struct czk_r1cs *r = c->r;
    struct gc_rng g;
    unsigned na, nc;
    uint32_t aw[3], cw[4], bw;
    fe ak[3], ck[4], bk, sa, sb, p, t;

    porep_row_counts(&g, c->seed, i, &na, &nc);

    /* A: the designated private wire (a bijection rows -> private wires, skipping the
     * ones excluded from A), then random extras. */
    uint32_t d = (i + 1) % c->n;
    aw[0] =
        porep_excluded_a(c->seed, d) ? 1u + rng_below(&g, CZK_GEN_POREP_PUBLIC) : POREP_BASE + d;
    for (unsigned k = 1; k < na; k++) {
        uint32_t x;
        do
            x = porep_a_extra(c, &g);
        while (in_list(aw, k, x));
        aw[k] = x;
    }
    for (unsigned k = 0; k < na; k++)
        porep_coef(c, &g, 0.75, ak[k]);

    /* B: one wire of the B set (the first n_b rows cover it, the rest draw from it). */
    uint32_t m = i < c->n_b ? i : rng_below(&g, c->n_b);
    bw = POREP_BASE + (uint32_t)((uint64_t)m * c->n / c->n_b);
    porep_coef(c, &g, 0.9, bk);

    /* p = (A·w)(B·w) */
    memset(sa, 0, sizeof sa);
    for (unsigned k = 0; k < na; k++) {
        fe_scale(F, t, ak[k], c->wm[aw[k]], c->one);
        F->add(sa, sa, t);
    }
    fe_scale(F, sb, bk, c->wm[bw], c->one);
    F->mul(p, sa, sb);

    /* C: the row's fresh output wire and random extras (never the constant wire). */
    cw[0] = POREP_BASE + i;
    for (unsigned k = 1; k < nc; k++) {
        uint32_t x;
        do
            x = 1u + rng_below(&g, c->n_wires - 1);
        while (in_list(cw, k, x));
        cw[k] = x;
    }

    /* Make the C equation solvable with nonzero coefficients. */
    unsigned nz = 0, nzi[4];
    for (unsigned k = 0; k < nc; k++)
        if (!fe_is_zero(c->wm[cw[k]]))
            nzi[nz++] = k;
    if (!fe_is_zero(p) && nz == 0) {
        cw[nc - 1] = 0; /* the constant wire carries p */
    } else if (fe_is_zero(p) && nz == 1) {
        unsigned j = nzi[0];
        if (j == 0) {
            cw[nc - 1] = 0; /* two nonzero terms: output and constant */
        } else {
            uint32_t z = porep_zero_wire(c, &g, cw, nc);
            if (z != UINT32_MAX)
                cw[j] = z; /* every term zero-valued: 0 = 0 */
            else if (nc > 2)
                cw[j == 1 ? 2 : 1] = 0;
            else
                cw[0] = 0;
        }
    }
    nz = 0;
    for (unsigned k = 0; k < nc; k++)
        if (!fe_is_zero(c->wm[cw[k]]))
            nzi[nz++] = k;

    for (unsigned k = 0; k < nc; k++)
        porep_coef(c, &g, 0.5, ck[k]);
    if (nz > 0) {
        unsigned b = nzi[0];
        for (unsigned k = 0; k < nz; k++)
            if (fe_eq(c->wm[cw[nzi[k]]], c->one)) {
                b = nzi[k];
                break;
            }
        fe rem;
        for (;;) {
            memcpy(rem, p, sizeof rem);
            for (unsigned k = 0; k < nc; k++) {
                if (k == b)
                    continue;
                fe_scale(F, t, ck[k], c->wm[cw[k]], c->one);
                F->sub(rem, rem, t);
            }
            if (!fe_is_zero(rem))
                break;
            /* rem = 0 would force k_b = 0: shift another nonzero-valued term's
             * coefficient (one exists, see above), keeping it nonzero. */
            unsigned t2 = nzi[0] == b ? nzi[1] : nzi[0];
            do
                F->add(ck[t2], ck[t2], c->one);
            while (fe_is_zero(ck[t2]));
        }
        if (fe_eq(c->wm[cw[b]], c->one)) {
            memcpy(ck[b], rem, sizeof rem);
        } else {
            F->inv(t, c->wm[cw[b]]);
            F->mul(ck[b], rem, t);
        }
    }

    sort_terms(aw, ak, na);
    sort_terms(cw, ck, nc);
    uint64_t oa = r->m[0].row_ptr[i], oc = r->m[2].row_ptr[i];
    for (unsigned k = 0; k < na; k++) {
        r->m[0].col[oa + k] = aw[k];
        memcpy(r->m[0].val[oa + k], ak[k], sizeof(fe));
    }
    r->m[1].col[i] = bw;
    memcpy(r->m[1].val[i], bk, sizeof(fe));
    for (unsigned k = 0; k < nc; k++) {
        r->m[2].col[oc + k] = cw[k];
        memcpy(r->m[2].val[oc + k], ck[k], sizeof(fe));
    }
}

static void porep_rows_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    for (size_t i = b; i < e; i++)
        porep_row(vctx, (uint32_t)i);
}

static enum czk_status gen_porep(struct czk_gen_circuit *out, const struct czk_gen_params *p,
                                 const struct gc_fr *F, char *err, size_t errlen)
{
    struct czk_r1cs *r = &out->r1cs;
    uint32_t n = p->n_constraints;
    uint32_t nw = POREP_BASE + n;
    uint32_t zeros[POREP_ZERO_LIST];
    struct porep_ctx c;
    enum czk_status st = CZK_ERR_NOMEM;

    memset(&c, 0, sizeof c);
    c.F = F;
    c.seed = p->seed;
    c.bool_frac = p->bool_frac;
    c.n = n;
    c.n_wires = nw;
    c.n_b = (uint32_t)(POREP_B_SHARE * n + 0.5);
    if (c.n_b == 0)
        c.n_b = 1;
    c.r = r;
    F->one(c.one);

    r->n_wires = nw;
    r->n_pub_out = 0;
    r->n_pub_in = CZK_GEN_POREP_PUBLIC;
    r->n_prv_in = 0;
    r->n_constraints = n;
    r->n_labels = nw;
    r->m[0].row_ptr = malloc(((size_t)n + 1) * sizeof *r->m[0].row_ptr);
    r->m[2].row_ptr = malloc(((size_t)n + 1) * sizeof *r->m[2].row_ptr);
    r->wire_to_label = malloc((size_t)nw * sizeof *r->wire_to_label);
    out->witness = malloc((size_t)nw * sizeof *out->witness);
    c.wm = malloc((size_t)nw * sizeof *c.wm);
    if (!r->m[0].row_ptr || !r->m[2].row_ptr || !r->wire_to_label || !out->witness || !c.wm ||
        !csr_alloc(&r->m[1], n, nw, n))
        goto out;

    /* Term counts, then row pointers. */
    czk_parallel_for(n, 1u << 14, p->threads, porep_count_fn, &c);
    for (unsigned k = 0; k < 3; k += 2) {
        uint64_t *rp = r->m[k].row_ptr;
        rp[0] = 0;
        for (uint32_t i = 0; i < n; i++)
            rp[i + 1] += rp[i];
        uint64_t nnz = rp[n];
        r->m[k].n_rows = n;
        r->m[k].n_cols = nw;
        r->m[k].nnz = nnz;
        r->m[k].col = malloc(nnz * sizeof *r->m[k].col);
        r->m[k].val = malloc(nnz * sizeof *r->m[k].val);
        if (!r->m[k].col || !r->m[k].val)
            goto out;
    }
    for (uint32_t i = 0; i <= n; i++)
        r->m[1].row_ptr[i] = i;
    for (uint32_t i = 0; i < nw; i++)
        r->wire_to_label[i] = i;

    /* Witness first, then the rows that it satisfies. */
    czk_parallel_for(nw, 1u << 14, p->threads, porep_witness_fn, &c);
    for (uint32_t i = POREP_BASE; i < nw && c.n_zeros < POREP_ZERO_LIST; i++)
        if (fe_is_zero(c.wm[i]))
            zeros[c.n_zeros++] = i;
    c.zeros = zeros;
    czk_parallel_for(n, 1u << 12, p->threads, porep_rows_fn, &c);

    struct canon_ctx cc = {F, (const fe *)c.wm, out->witness};
    czk_parallel_for(nw, 1u << 14, p->threads, canon_fn, &cc);
    st = CZK_OK;
out:
    if (st != CZK_OK)
        czk_errf(st, err, errlen, "gen-circuit: out of memory for %u constraints", n);
    free(c.wm);
    return st;
}

enum czk_status czk_gen_circuit(struct czk_gen_circuit *out, const struct czk_gen_params *p,
                                char *err, size_t errlen)
{
    const struct gc_fr *F;
    struct czk_gen_circuit c;
    enum czk_status st;

    if (!out || !p)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "gen-circuit: NULL argument");
    if (p->curve == CZK_GROTH16_CURVE_BN254)
        F = &gc_fr_bn254;
    else if (p->curve == CZK_GROTH16_CURVE_BLS12_381)
        F = &gc_fr_bls12_381;
    else
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "gen-circuit: unknown curve");
    if (p->shape != CZK_GEN_SHAPE_MUL && p->shape != CZK_GEN_SHAPE_POREP)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "gen-circuit: unknown shape");
    if (p->n_constraints == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "gen-circuit: at least one constraint is needed");
    unsigned lg = czk_gen_max_lg_domain(p->curve);
    uint64_t rows = (uint64_t)p->n_constraints + czk_gen_n_public(p->shape) + 1;
    if (rows > (1ull << lg))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "gen-circuit: %u constraints + %u public + 1 exceed the largest "
                        "domain 2^%u of %s",
                        p->n_constraints, czk_gen_n_public(p->shape), lg,
                        czk_groth16_curve_name(p->curve));
    if (p->witness_index && p->shape != CZK_GEN_SHAPE_MUL)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "gen-circuit: other witnesses of one circuit: shape mul only");
    if (!(p->bool_frac >= 0.0 && p->bool_frac <= 1.0))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "gen-circuit: bool fraction must be in [0, 1]");

    memset(&c, 0, sizeof c);
    c.r1cs.curve = p->curve;
    st = p->shape == CZK_GEN_SHAPE_MUL ? gen_mul(&c, p, F, err, errlen)
                                       : gen_porep(&c, p, F, err, errlen);
    if (st != CZK_OK) {
        czk_gen_circuit_free(&c);
        return st;
    }
    *out = c;
    return CZK_OK;
}
