/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal template of setup_dev.c: fixed-base scalar multiplication of one group's
 * generator, instantiated once per group. The including file defines
 *   FB_G  the group (g1_bn254, g2_bls12_381, ...)
 *   FB_F  its coordinate field (fp_bn254, fp2_bls12_381, ...)
 * and gets the static functions fb_<FB_G>_table / _table_free / _run.
 *
 * Table for a window width c (czk_setup_window_bits: 8 bits and 32 positions for small
 * key sections, 12 or 16 bits for large ones): for position j < W = ceil(255 / c) and
 * digit d in 1 .. 2^c − 1 the affine point d·2^(cj)·G (W·(2^c − 1) points: 0.5 MB for
 * 8-bit windows of BN254 G1, 200 MB for 16-bit windows of BLS12-381 G2). [k]G for a
 * canonical scalar k < r < 2^255 is the sum of at most W table points, one per nonzero
 * c-bit digit of k, by mixed additions (which handle every exceptional case). The table
 * rows are built in parallel; points are computed in blocks of FB_BLOCK in Jacobian form
 * and converted to affine with one inversion per block. Threading: czk_parallel_for; the
 * table is read-only while shared. Variable time (this is the insecure dev setup).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "czk/czk_ec.h"

#define FB_CAT_(a, b) a##b
#define FB_CAT(a, b) FB_CAT_(a, b)
#define FB_FN(x) FB_CAT(FB_CAT(fb_, FB_G), _##x)
#define FB_GFN(x) FB_CAT(FB_CAT(czk_, FB_G), _##x)
#define FB_T struct FB_CAT(czk_, FB_G)
#define FB_AT struct FB_CAT(FB_CAT(czk_, FB_G), _affine)
#define FB_FT struct FB_CAT(czk_, FB_F)

#ifndef FB_BLOCK
#define FB_BLOCK 256u
#define FB_SCALAR_BITS 255u /* both scalar fields: r < 2^255 */

/* Digit j (bits [c·j, c·j + c)) of a 4-limb scalar, c <= 16. */
static inline unsigned fb_digit(const uint64_t k[4], unsigned c, unsigned j)
{
    unsigned bit = c * j, limb = bit / 64, off = bit % 64;
    if (limb >= 4)
        return 0;
    uint64_t v = k[limb] >> off;
    if (off + c > 64 && limb + 1 < 4)
        v |= k[limb + 1] << (64 - off);
    return (unsigned)(v & ((1u << c) - 1));
}
#endif

struct FB_FN(table) {
    unsigned c, windows;
    size_t digits; /* 2^c − 1 */
    FB_AT *pts;    /* windows · digits */
};

struct FB_FN(build_ctx) {
    struct FB_FN(table) * t;
    const FB_T *bases; /* 2^(c·j)·G for each window j */
    atomic_int failed;
};

static void FB_FN(build_row)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct FB_FN(build_ctx) *c = vctx;
    size_t nd = c->t->digits;
    FB_T *row = malloc(nd * sizeof *row);
    FB_FT *scratch = malloc(nd * sizeof *scratch);

    if (!row || !scratch) {
        atomic_store(&c->failed, 1);
        goto out;
    }
    for (size_t j = b; j < e; j++) {
        row[0] = c->bases[j];
        for (size_t d = 1; d < nd; d++)
            FB_GFN(add)(&row[d], &row[d - 1], &c->bases[j]);
        FB_GFN(batch_to_affine)(c->t->pts + j * nd, row, nd, scratch);
    }
out:
    free(row);
    free(scratch);
}

static void FB_FN(table_free)(struct FB_FN(table) * t)
{
    free(t->pts);
    t->pts = NULL;
}

/* The table of the generator for window width c in [1, 16]. CZK_ERR_NOMEM. */
static enum czk_status FB_FN(table_init)(struct FB_FN(table) * t, unsigned c, unsigned threads)
{
    struct FB_FN(build_ctx) bc;
    FB_T *bases;
    FB_AT g;

    t->c = c;
    t->windows = (FB_SCALAR_BITS + c - 1) / c;
    t->digits = ((size_t)1 << c) - 1;
    t->pts = malloc((size_t)t->windows * t->digits * sizeof *t->pts);
    bases = malloc(t->windows * sizeof *bases);
    if (!t->pts || !bases) {
        free(bases);
        FB_FN(table_free)(t);
        return CZK_ERR_NOMEM;
    }
    FB_GFN(generator)(&g);
    FB_GFN(from_affine)(&bases[0], &g);
    for (unsigned j = 1; j < t->windows; j++) {
        bases[j] = bases[j - 1];
        for (unsigned k = 0; k < c; k++)
            FB_GFN(dbl)(&bases[j], &bases[j]);
    }
    bc.t = t;
    bc.bases = bases;
    atomic_init(&bc.failed, 0);
    czk_parallel_for(t->windows, 1, c >= 12 ? threads : 1, FB_FN(build_row), &bc);
    free(bases);
    if (atomic_load(&bc.failed)) {
        FB_FN(table_free)(t);
        return CZK_ERR_NOMEM;
    }
    return CZK_OK;
}

static void FB_FN(mul)(FB_T *r, const struct FB_FN(table) * t, const uint64_t k[4])
{
    FB_GFN(set_inf)(r);
    for (unsigned j = 0; j < t->windows; j++) {
        unsigned d = fb_digit(k, t->c, j);
        if (d)
            FB_GFN(add_affine)(r, r, &t->pts[(size_t)j * t->digits + d - 1]);
    }
}

struct FB_FN(ctx) {
    const struct FB_FN(table) * t;
    const uint64_t (*scalars)[4];
    FB_AT *out;
    atomic_int failed;
};

static void FB_FN(chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    struct FB_FN(ctx) *c = vctx;
    FB_T *jac = malloc(FB_BLOCK * sizeof *jac);
    FB_FT *scratch = malloc(FB_BLOCK * sizeof *scratch);

    if (!jac || !scratch) {
        atomic_store(&c->failed, 1);
        goto out;
    }
    for (size_t i = b; i < e; i += FB_BLOCK) {
        size_t m = e - i < FB_BLOCK ? e - i : FB_BLOCK;
        for (size_t t = 0; t < m; t++)
            FB_FN(mul)(&jac[t], c->t, c->scalars[i + t]);
        FB_GFN(batch_to_affine)(c->out + i, jac, m, scratch);
    }
out:
    free(jac);
    free(scratch);
}

/* out[i] = scalars[i]·G for i < n with table t. CZK_ERR_NOMEM if a worker could not get
 * its scratch (out is then incomplete). */
static enum czk_status FB_FN(run)(const struct FB_FN(table) * t, FB_AT *out,
                                  const uint64_t (*scalars)[4], size_t n, unsigned threads)
{
    struct FB_FN(ctx) c;
    c.t = t;
    c.scalars = scalars;
    c.out = out;
    atomic_init(&c.failed, 0);
    if (n)
        czk_parallel_for(n, 4 * FB_BLOCK, threads, FB_FN(chunk), &c);
    return atomic_load(&c.failed) ? CZK_ERR_NOMEM : CZK_OK;
}

#undef FB_FN
#undef FB_GFN
#undef FB_T
#undef FB_AT
#undef FB_FT
