/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circom/snarkjs witness files, .wtns version 2 (wtns_utils.js):
 *   section 1: u32 n8, n8 bytes prime (LE), u32 n          (exactly 8 + n8 bytes)
 *   section 2: n values of n8 bytes, canonical little-endian
 * Both sections must be unique. n8 must be 32 and the prime the scalar field of BN254 or
 * BLS12-381 (that names the curve); every value must be < r. The values are borrowed
 * from the mapping when section 2 starts 8-byte aligned, else copied once into an
 * aligned buffer (`owned`); snarkjs's own files put section 2 at offset 76, so they are
 * copied. Other section ids are ignored (snarkjs ignores them too).
 *
 * The writer emits sections 1 and 2 in that order, as snarkjs does.
 * Threading: none; a loaded struct is read-only.
 */
#include <stdlib.h>
#include <string.h>

#include "io/binfile.h"
#include "io/formats.h"

static enum czk_status wtns_parse(struct czk_wtns *w, const char *name, char *err, size_t errlen)
{
    struct czk_binfile bf;
    const struct czk_bin_section *s1, *s2;
    struct czk_bin_cursor c;
    const struct czk_io_curve *cv;
    const uint8_t *prime, *vals;
    uint32_t n8, n;
    enum czk_status st;

    st = czk_binfile_parse(&bf, name, w->file.data, w->file.size, "wtns", 2, 2, err, errlen);
    if (st != CZK_OK)
        return st;
    st = czk_binfile_find(&bf, 1, true, &s1, err, errlen);
    if (st == CZK_OK)
        st = czk_binfile_find(&bf, 2, true, &s2, err, errlen);
    if (st != CZK_OK)
        goto out;

    czk_bin_cursor_init(&c, &bf, s1);
    if ((st = czk_bin_u32(&c, &n8, "field size n8", err, errlen)) != CZK_OK)
        goto out;
    if (n8 != 32) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 1 at offset %llu: field size n8 = %u, expected 32", name,
                      (unsigned long long)s1->offset, n8);
        goto out;
    }
    if ((st = czk_bin_bytes(&c, &prime, n8, "prime", err, errlen)) != CZK_OK)
        goto out;
    cv = czk_io_curve_by_r(prime, n8);
    if (!cv) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 1 at offset %llu: prime is neither BN254's nor "
                      "BLS12-381's scalar field",
                      name, (unsigned long long)s1->offset + 4);
        goto out;
    }
    if ((st = czk_bin_u32(&c, &n, "witness count", err, errlen)) != CZK_OK)
        goto out;
    if ((st = czk_bin_end(&c, err, errlen)) != CZK_OK)
        goto out;
    if (s2->size != (uint64_t)n * n8) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "%s: section 2 at offset %llu: size %llu, expected %u values x %u bytes = "
                      "%llu",
                      name, (unsigned long long)s2->offset, (unsigned long long)s2->size, n, n8,
                      (unsigned long long)n * n8);
        goto out;
    }

    vals = w->file.data + s2->offset;
    const uint64_t *r = cv->r();
    if (((uintptr_t)vals & 7) == 0) {
        w->values = (const uint64_t(*)[4])(const void *)vals;
    } else {
        w->owned = czk_io_aligned_alloc(s2->size);
        if (!w->owned) {
            st = czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory (%llu bytes)", name,
                          (unsigned long long)s2->size);
            goto out;
        }
        if (s2->size)
            memcpy(w->owned, vals, s2->size);
        w->values = (const uint64_t(*)[4])w->owned;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!czk_limbs_lt(w->values[i], r, 4)) {
            st = czk_errf(CZK_ERR_RANGE, err, errlen,
                          "%s: section 2: witness value %u at offset %llu is >= r", name, i,
                          (unsigned long long)s2->offset + (uint64_t)i * n8);
            goto out;
        }
    }
    w->curve = cv->curve;
    w->n = n;
    st = CZK_OK;
out:
    czk_binfile_free(&bf);
    return st;
}

enum czk_status czk_wtns_load(struct czk_wtns *w, const char *path, char *err, size_t errlen)
{
    enum czk_status st;
    if (!w || !path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(w, 0, sizeof *w);
    st = czk_mapped_file_open(&w->file, path, err, errlen);
    if (st == CZK_OK)
        st = wtns_parse(w, path, err, errlen);
    if (st != CZK_OK)
        czk_wtns_free(w);
    return st;
}

enum czk_status czk_wtns_load_mem(struct czk_wtns *w, const void *data, size_t size,
                                  const char *name, char *err, size_t errlen)
{
    enum czk_status st;
    if (!w || (!data && size))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(w, 0, sizeof *w);
    w->file.data = data;
    w->file.size = size;
    st = wtns_parse(w, name ? name : "wtns", err, errlen);
    if (st != CZK_OK)
        czk_wtns_free(w);
    return st;
}

void czk_wtns_free(struct czk_wtns *w)
{
    if (!w)
        return;
    free(w->owned);
    czk_mapped_file_close(&w->file);
    memset(w, 0, sizeof *w);
}

enum czk_status czk_wtns_write(const char *path, enum czk_groth16_curve curve,
                               const uint64_t (*values)[4], uint32_t n, char *err, size_t errlen)
{
    const struct czk_io_curve *cv = czk_io_curve_get(curve);
    struct czk_bin_writer w;
    enum czk_status st;

    if (!path || (!values && n))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    if (!cv)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: no curve", path);
    const uint64_t *r = cv->r();
    for (uint32_t i = 0; i < n; i++)
        if (!czk_limbs_lt(values[i], r, 4))
            return czk_errf(CZK_ERR_RANGE, err, errlen, "%s: witness value %u is >= r", path, i);

    st = czk_binw_open(&w, path, "wtns", 2, 2, err, errlen);
    if (st != CZK_OK)
        return st;
    czk_binw_section(&w, 1, 8 + 32);
    czk_binw_u32(&w, 32);
    for (unsigned i = 0; i < 4; i++)
        czk_binw_u64(&w, r[i]);
    czk_binw_u32(&w, n);
    czk_binw_section(&w, 2, (uint64_t)n * 32);
    czk_binw_bytes(&w, values, (uint64_t)n * 32); /* LE host: limbs are the file bytes */
    return czk_binw_close(&w, err, errlen);
}
