/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circom .r1cs files, version 1 (r1csfile.js), into three CSR matrices.
 *   section 1 header (exactly 32 + n8 bytes): u32 n8, n8 bytes prime, u32 nWires,
 *             u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels, u32 mConstraints
 *   section 2 constraints: mConstraints times three linear combinations A, B, C, each
 *             u32 nTerms then nTerms x {u32 wire, n8 bytes coefficient (canonical LE)}
 *   section 3 wire-to-label map (optional): nWires x u64
 *   sections 4, 5 custom gates (PLONK only): rejected as unsupported
 * Sections 1-3 must be unique; other ids are ignored (forward compatibility). n8 must
 * be 32 and the prime BN254's or BLS12-381's r; 1 + nPubOut + nPubIn + nPrvIn <= nWires;
 * every wire id < nWires; every coefficient < r (converted to Montgomery form); the
 * constraints must fill section 2 exactly. Section 2 is walked once to count the terms
 * against its size before anything is allocated, so no count can make the loader
 * allocate more than a small multiple of the file size. Terms keep their file order
 * (duplicate wires within one combination are kept as separate entries).
 *
 * The writer emits sections in circom's order (2, 1, 3; 3 only when wire_to_label is
 * set), so loading and writing a circom file gives the same bytes.
 * Threading: none; everything is copied out of the file, which is unmapped at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "io/binfile.h"
#include "io/formats.h"

#define TERM_BYTES 36u /* u32 wire + 32-byte coefficient */

static const char *const matrix_name[3] = {"A", "B", "C"};

static enum czk_status r1cs_parse(struct czk_r1cs *r, const char *name, const uint8_t *data,
                                  uint64_t size, char *err, size_t errlen)
{
    struct czk_binfile bf;
    const struct czk_bin_section *sh, *sc, *sm;
    struct czk_bin_cursor c;
    const struct czk_io_curve *cv;
    const uint8_t *prime;
    uint32_t n8, m;
    uint64_t nnz[3] = {0, 0, 0};
    enum czk_status st;

    st = czk_binfile_parse(&bf, name, data, size, "r1cs", 1, 1, err, errlen);
    if (st != CZK_OK)
        return st;
    if (czk_binfile_count(&bf, 4) || czk_binfile_count(&bf, 5)) {
        st = czk_errf(CZK_ERR_UNSUPPORTED, err, errlen,
                      "%s: custom gates (sections 4/5, PLONK only) are not supported by "
                      "Groth16",
                      name);
        goto out;
    }
    if ((st = czk_binfile_find(&bf, 1, true, &sh, err, errlen)) != CZK_OK ||
        (st = czk_binfile_find(&bf, 2, true, &sc, err, errlen)) != CZK_OK ||
        (st = czk_binfile_find(&bf, 3, false, &sm, err, errlen)) != CZK_OK)
        goto out;

    /* header */
    czk_bin_cursor_init(&c, &bf, sh);
    if ((st = czk_bin_u32(&c, &n8, "field size n8", err, errlen)) != CZK_OK)
        goto out;
    if (n8 != 32) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 1 at offset %llu: field size n8 = %u, expected 32", name,
                      (unsigned long long)sh->offset, n8);
        goto out;
    }
    if ((st = czk_bin_bytes(&c, &prime, n8, "prime", err, errlen)) != CZK_OK)
        goto out;
    if (!(cv = czk_io_curve_by_r(prime, n8))) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 1 at offset %llu: prime is neither BN254's nor BLS12-381's "
                      "scalar field",
                      name, (unsigned long long)sh->offset + 4);
        goto out;
    }
    if ((st = czk_bin_u32(&c, &r->n_wires, "nWires", err, errlen)) != CZK_OK ||
        (st = czk_bin_u32(&c, &r->n_pub_out, "nPubOut", err, errlen)) != CZK_OK ||
        (st = czk_bin_u32(&c, &r->n_pub_in, "nPubIn", err, errlen)) != CZK_OK ||
        (st = czk_bin_u32(&c, &r->n_prv_in, "nPrvIn", err, errlen)) != CZK_OK ||
        (st = czk_bin_u64(&c, &r->n_labels, "nLabels", err, errlen)) != CZK_OK ||
        (st = czk_bin_u32(&c, &m, "mConstraints", err, errlen)) != CZK_OK ||
        (st = czk_bin_end(&c, err, errlen)) != CZK_OK)
        goto out;
    if (r->n_wires == 0 ||
        1ull + r->n_pub_out + r->n_pub_in + r->n_prv_in > (uint64_t)r->n_wires) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 1 at offset %llu: %u wires cannot hold the constant 1 + %u "
                      "outputs + %u public + %u private inputs",
                      name, (unsigned long long)sh->offset + 4 + n8, r->n_wires, r->n_pub_out,
                      r->n_pub_in, r->n_prv_in);
        goto out;
    }
    r->curve = cv->curve;
    r->n_constraints = m;

    /* pass 1: count the terms of each matrix against the section size */
    if ((uint64_t)m > sc->size / 12) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 2 at offset %llu: %u constraints need at least %llu bytes, "
                      "the section has %llu",
                      name, (unsigned long long)sc->offset, m, 12ull * m,
                      (unsigned long long)sc->size);
        goto out;
    }
    czk_bin_cursor_init(&c, &bf, sc);
    for (uint32_t i = 0; i < m; i++) {
        for (unsigned k = 0; k < 3; k++) {
            uint32_t t;
            const uint8_t *p;
            if ((st = czk_bin_u32(&c, &t, "term count", err, errlen)) != CZK_OK)
                goto out;
            if (czk_bin_left(&c) < (uint64_t)t * TERM_BYTES) {
                st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                              "%s: section 2: constraint %u, %s: %u terms at offset %llu run "
                              "past the end of the section (%llu bytes left)",
                              name, i, matrix_name[k], t,
                              (unsigned long long)czk_bin_offset(&c) - 4,
                              (unsigned long long)czk_bin_left(&c));
                goto out;
            }
            (void)czk_bin_bytes(&c, &p, (uint64_t)t * TERM_BYTES, "terms", err, errlen);
            nnz[k] += t;
        }
    }
    if ((st = czk_bin_end(&c, err, errlen)) != CZK_OK)
        goto out;

    for (unsigned k = 0; k < 3; k++) {
        struct czk_csr *a = &r->m[k];
        a->n_rows = m;
        a->n_cols = r->n_wires;
        a->nnz = nnz[k];
        a->row_ptr = malloc(((size_t)m + 1) * sizeof *a->row_ptr);
        a->col = malloc((nnz[k] ? nnz[k] : 1) * sizeof *a->col);
        a->val = czk_io_aligned_alloc(nnz[k] * sizeof *a->val);
        if (!a->row_ptr || !a->col || !a->val) {
            st = czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory for %llu terms", name,
                          (unsigned long long)nnz[k]);
            goto out;
        }
        a->row_ptr[0] = 0;
    }

    /* pass 2: fill, checking wire ids and coefficients */
    uint64_t fill[3] = {0, 0, 0};
    const uint8_t *p = data + sc->offset;
    for (uint32_t i = 0; i < m; i++) {
        for (unsigned k = 0; k < 3; k++) {
            struct czk_csr *a = &r->m[k];
            uint32_t t = czk_rd32(p);
            p += 4;
            for (uint32_t j = 0; j < t; j++, p += TERM_BYTES) {
                uint32_t wire = czk_rd32(p);
                uint64_t v[4];
                uint64_t e = fill[k]++;
                if (wire >= r->n_wires) {
                    st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                                  "%s: section 2: constraint %u, %s: wire %u at offset %llu is "
                                  ">= nWires = %u",
                                  name, i, matrix_name[k], wire,
                                  (unsigned long long)(p - data), r->n_wires);
                    goto out;
                }
                for (unsigned l = 0; l < 4; l++)
                    v[l] = czk_rd64(p + 4 + 8 * l);
                if (czk_io_fr_from_canonical(r->curve, a->val[e], v) != CZK_OK) {
                    st = czk_errf(CZK_ERR_RANGE, err, errlen,
                                  "%s: section 2: constraint %u, %s: coefficient at offset %llu "
                                  "is >= r",
                                  name, i, matrix_name[k], (unsigned long long)(p + 4 - data));
                    goto out;
                }
                a->col[e] = wire;
            }
            a->row_ptr[i + 1] = fill[k];
        }
    }

    /* wire-to-label map */
    if (sm) {
        if (sm->size != (uint64_t)r->n_wires * 8) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                          "%s: section 3 at offset %llu: size %llu, expected nWires x 8 = %llu",
                          name, (unsigned long long)sm->offset, (unsigned long long)sm->size,
                          (unsigned long long)r->n_wires * 8);
            goto out;
        }
        r->wire_to_label = malloc(sm->size ? sm->size : 1);
        if (!r->wire_to_label) {
            st = czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory", name);
            goto out;
        }
        for (uint32_t i = 0; i < r->n_wires; i++)
            r->wire_to_label[i] = czk_rd64(data + sm->offset + 8ull * i);
    }
    st = CZK_OK;
out:
    czk_binfile_free(&bf);
    return st;
}

enum czk_status czk_r1cs_load_mem(struct czk_r1cs *r, const void *data, size_t size,
                                  const char *name, char *err, size_t errlen)
{
    enum czk_status st;
    if (!r || (!data && size))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(r, 0, sizeof *r);
    st = r1cs_parse(r, name ? name : "r1cs", data, size, err, errlen);
    if (st != CZK_OK)
        czk_r1cs_free(r);
    return st;
}

enum czk_status czk_r1cs_load(struct czk_r1cs *r, const char *path, char *err, size_t errlen)
{
    struct czk_mapped_file f;
    enum czk_status st;
    if (!r || !path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(r, 0, sizeof *r);
    st = czk_mapped_file_open(&f, path, err, errlen);
    if (st != CZK_OK)
        return st;
    st = czk_r1cs_load_mem(r, f.data, f.size, path, err, errlen);
    czk_mapped_file_close(&f);
    return st;
}

void czk_r1cs_free(struct czk_r1cs *r)
{
    if (!r)
        return;
    for (unsigned k = 0; k < 3; k++) {
        free(r->m[k].row_ptr);
        free(r->m[k].col);
        free(r->m[k].val);
    }
    free(r->wire_to_label);
    memset(r, 0, sizeof *r);
}

/* ---- writer ----------------------------------------------------------------------------- */

static enum czk_status check_csr(const struct czk_r1cs *r, unsigned k, const char *path,
                                 char *err, size_t errlen)
{
    const struct czk_csr *a = &r->m[k];
    const uint64_t *mod = czk_io_curve_get(r->curve)->r();
    if (a->n_rows != r->n_constraints || (a->n_cols != 0 && a->n_cols != r->n_wires))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "%s: matrix %s is %u x %u, expected %u x %u", path, matrix_name[k],
                        a->n_rows, a->n_cols, r->n_constraints, r->n_wires);
    if (!a->row_ptr || (a->nnz && (!a->col || !a->val)))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: matrix %s: NULL arrays", path,
                        matrix_name[k]);
    if (a->row_ptr[0] != 0 || a->row_ptr[a->n_rows] != a->nnz)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: matrix %s: bad row_ptr", path,
                        matrix_name[k]);
    for (uint32_t i = 0; i < a->n_rows; i++) {
        uint64_t b = a->row_ptr[i], e = a->row_ptr[i + 1];
        if (e < b || e - b > UINT32_MAX)
            return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                            "%s: matrix %s: bad row_ptr at row %u", path, matrix_name[k], i);
    }
    for (uint64_t j = 0; j < a->nnz; j++) {
        if (a->col[j] >= r->n_wires)
            return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                            "%s: matrix %s: entry %llu: wire %u >= n_wires %u", path,
                            matrix_name[k], (unsigned long long)j, a->col[j], r->n_wires);
        if (!czk_limbs_lt(a->val[j], mod, 4))
            return czk_errf(CZK_ERR_RANGE, err, errlen, "%s: matrix %s: entry %llu is >= r",
                            path, matrix_name[k], (unsigned long long)j);
    }
    return CZK_OK;
}

enum czk_status czk_r1cs_write(const char *path, const struct czk_r1cs *r, char *err,
                               size_t errlen)
{
    const struct czk_io_curve *cv;
    struct czk_bin_writer w;
    enum czk_status st;

    if (!path || !r)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    if (!(cv = czk_io_curve_get(r->curve)))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: no curve", path);
    if (r->n_wires == 0 ||
        1ull + r->n_pub_out + r->n_pub_in + r->n_prv_in > (uint64_t)r->n_wires)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: inconsistent wire counts", path);
    uint64_t size2 = 12ull * r->n_constraints;
    for (unsigned k = 0; k < 3; k++) {
        if ((st = check_csr(r, k, path, err, errlen)) != CZK_OK)
            return st;
        size2 += TERM_BYTES * r->m[k].nnz;
    }

    st = czk_binw_open(&w, path, "r1cs", 1, r->wire_to_label ? 3 : 2, err, errlen);
    if (st != CZK_OK)
        return st;
    czk_binw_section(&w, 2, size2);
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        for (unsigned k = 0; k < 3; k++) {
            const struct czk_csr *a = &r->m[k];
            czk_binw_u32(&w, (uint32_t)(a->row_ptr[i + 1] - a->row_ptr[i]));
            for (uint64_t j = a->row_ptr[i]; j < a->row_ptr[i + 1]; j++) {
                uint8_t t[TERM_BYTES];
                uint64_t v[4];
                czk_io_fr_to_canonical(r->curve, v, a->val[j]);
                czk_wr32(t, a->col[j]);
                for (unsigned l = 0; l < 4; l++)
                    czk_wr64(t + 4 + 8 * l, v[l]);
                czk_binw_bytes(&w, t, sizeof t);
            }
        }
    }
    czk_binw_section(&w, 1, 32 + 32);
    czk_binw_u32(&w, 32);
    for (unsigned l = 0; l < 4; l++)
        czk_binw_u64(&w, cv->r()[l]);
    czk_binw_u32(&w, r->n_wires);
    czk_binw_u32(&w, r->n_pub_out);
    czk_binw_u32(&w, r->n_pub_in);
    czk_binw_u32(&w, r->n_prv_in);
    czk_binw_u64(&w, r->n_labels);
    czk_binw_u32(&w, r->n_constraints);
    if (r->wire_to_label) {
        czk_binw_section(&w, 3, 8ull * r->n_wires);
        for (uint32_t i = 0; i < r->n_wires; i++)
            czk_binw_u64(&w, r->wire_to_label[i]);
    }
    return czk_binw_close(&w, err, errlen);
}
