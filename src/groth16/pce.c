/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Precompiled circuit: zkey section 4 -> CSR matrices A and B (see pce.h). A counting
 * sort by row, stable, so entries of a row keep their zkey order (the sums are the same
 * in any order; stability only makes the layout reproducible). O(nnz + rows) time,
 * single-threaded: it runs once per key, and is a small part of loading the key.
 * Ownership: the arrays belong to the struct and are freed by czk_pce_free.
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/pce.h"

static void csr_free(struct czk_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

void czk_pce_free(struct czk_pce *pce)
{
    if (!pce)
        return;
    csr_free(&pce->a);
    csr_free(&pce->b);
    pce->n_rows_used = 0;
}

static enum czk_status csr_alloc(struct czk_csr *m, uint32_t rows, uint32_t cols, uint64_t nnz)
{
    m->n_rows = rows;
    m->n_cols = cols;
    m->nnz = nnz;
    m->row_ptr = calloc((size_t)rows + 1, sizeof *m->row_ptr);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    return m->row_ptr && m->col && m->val ? CZK_OK : CZK_ERR_NOMEM;
}

enum czk_status czk_pce_build(struct czk_pce *out, const struct czk_zkey *z, char *err,
                              size_t errlen)
{
    struct czk_pce p;
    struct czk_csr *m[2];
    uint64_t nnz[2] = {0, 0};
    uint64_t *cursor = NULL;
    uint32_t used = 0;
    enum czk_status st = CZK_OK;

    memset(&p, 0, sizeof p);
    m[0] = &p.a;
    m[1] = &p.b;
    if (!out || !z || z->domain_size == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "pce: no key");

    /* Pass 1: validate and count. */
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const struct czk_zkey_coef *k = &z->coefs[i];
        if (k->matrix > 1)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "zkey section 4: coefficient %u: matrix %u is not A (0) or B (1)", i,
                            k->matrix);
        if (k->constraint >= z->domain_size)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "zkey section 4: coefficient %u: constraint %u >= domain size %u", i,
                            k->constraint, z->domain_size);
        if (k->signal >= z->n_vars)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "zkey section 4: coefficient %u: signal %u >= nVars %u", i, k->signal,
                            z->n_vars);
        nnz[k->matrix]++;
        if (k->constraint + 1 > used)
            used = k->constraint + 1;
    }
    for (int j = 0; j < 2; j++)
        if ((st = csr_alloc(m[j], z->domain_size, z->n_vars, nnz[j])) != CZK_OK)
            goto out;
    for (uint32_t i = 0; i < z->n_coefs; i++)
        m[z->coefs[i].matrix]->row_ptr[z->coefs[i].constraint + 1]++;
    for (int j = 0; j < 2; j++)
        for (uint32_t r = 0; r < z->domain_size; r++)
            m[j]->row_ptr[r + 1] += m[j]->row_ptr[r];

    /* Pass 2: place each entry at its row's cursor (stable). */
    cursor = malloc(2 * ((size_t)z->domain_size) * sizeof *cursor);
    if (!cursor) {
        st = CZK_ERR_NOMEM;
        goto out;
    }
    memcpy(cursor, p.a.row_ptr, (size_t)z->domain_size * sizeof *cursor);
    memcpy(cursor + z->domain_size, p.b.row_ptr, (size_t)z->domain_size * sizeof *cursor);
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const struct czk_zkey_coef *k = &z->coefs[i];
        uint64_t pos = cursor[(size_t)k->matrix * z->domain_size + k->constraint]++;
        m[k->matrix]->col[pos] = k->signal;
        memcpy(m[k->matrix]->val[pos], k->value, sizeof k->value);
    }
    p.n_rows_used = used;

out:
    free(cursor);
    if (st != CZK_OK) {
        czk_pce_free(&p);
        return czk_errf(st, err, errlen, "pce: out of memory (%llu coefficients)",
                        (unsigned long long)z->n_coefs);
    }
    *out = p;
    return CZK_OK;
}

uint64_t czk_pce_bytes(uint32_t domain_size, uint64_t n_coefs)
{
    return 2 * ((uint64_t)domain_size + 1) * sizeof(uint64_t) +
           n_coefs * (sizeof(uint32_t) + 4 * sizeof(uint64_t));
}
