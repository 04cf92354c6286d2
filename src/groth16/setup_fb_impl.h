/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal template of setup_dev.c: fixed-base scalar multiplication of one group's
 * generator, instantiated once per group. The including file defines
 *   FB_G  the group (g1_bn254, g2_bls12_381, ...)
 *   FB_F  its coordinate field (fp_bn254, fp2_bls12_381, ...)
 * and gets static functions fb_<FB_G>_table / _table_free / _run.
 *
 * Table: for window position j < 32 and digit d in 1..255 the affine point
 * d·2^(8j)·G (32·255 points: 0.5 MB for BN254 G1, 1.5 MB for BLS12-381 G2). [k]G for a
 * canonical scalar k < 2^256 is then the sum of at most 32 table points, one per nonzero
 * byte of k, by mixed additions (which handle every exceptional case). Points are
 * computed in blocks of FB_BLOCK in Jacobian form and converted to affine with one
 * inversion per block. Threading: czk_parallel_for over the points; the table is
 * read-only while shared. Variable time (this is the insecure dev setup).
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

#ifndef FB_WINDOWS
#define FB_WINDOWS 32u /* 8-bit windows of a 256-bit scalar */
#define FB_DIGITS 255u
#define FB_BLOCK 256u
#endif

/* The table of the generator (FB_WINDOWS·FB_DIGITS affine points), or NULL. */
static FB_AT *FB_FN(table)(void)
{
    FB_AT *tbl = malloc((size_t)FB_WINDOWS * FB_DIGITS * sizeof *tbl);
    FB_T *row = malloc(FB_DIGITS * sizeof *row);
    FB_FT *scratch = malloc(FB_DIGITS * sizeof *scratch);
    FB_AT g;
    FB_T base;

    if (!tbl || !row || !scratch) {
        free(tbl);
        tbl = NULL;
        goto out;
    }
    FB_GFN(generator)(&g);
    FB_GFN(from_affine)(&base, &g);
    for (unsigned j = 0; j < FB_WINDOWS; j++) {
        row[0] = base;
        for (unsigned d = 1; d < FB_DIGITS; d++)
            FB_GFN(add)(&row[d], &row[d - 1], &base);
        FB_GFN(batch_to_affine)(tbl + (size_t)j * FB_DIGITS, row, FB_DIGITS, scratch);
        for (unsigned k = 0; k < 8; k++)
            FB_GFN(dbl)(&base, &base);
    }
out:
    free(row);
    free(scratch);
    return tbl;
}

static void FB_FN(mul)(FB_T *r, const FB_AT *tbl, const uint64_t k[4])
{
    FB_GFN(set_inf)(r);
    for (unsigned j = 0; j < FB_WINDOWS; j++) {
        unsigned d = (unsigned)(k[j / 8] >> (8 * (j % 8))) & 0xffu;
        if (d)
            FB_GFN(add_affine)(r, r, &tbl[(size_t)j * FB_DIGITS + d - 1]);
    }
}

struct FB_FN(ctx) {
    const FB_AT *tbl;
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
            FB_FN(mul)(&jac[t], c->tbl, c->scalars[i + t]);
        FB_GFN(batch_to_affine)(c->out + i, jac, m, scratch);
    }
out:
    free(jac);
    free(scratch);
}

/* out[i] = scalars[i]·G for i < n with table tbl. CZK_ERR_NOMEM if a worker could not
 * get its scratch (out is then incomplete). */
static enum czk_status FB_FN(run)(const FB_AT *tbl, FB_AT *out, const uint64_t (*scalars)[4],
                                  size_t n, unsigned threads)
{
    struct FB_FN(ctx) c;
    c.tbl = tbl;
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
