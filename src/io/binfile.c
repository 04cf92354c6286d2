/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory-mapped input files, the binfile section table, section cursors, the section
 * writer and the curve table (see binfile.h and formats.h). Single-threaded per
 * object; no global state.
 */
#include "io/binfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/formats.h"

/* ---- mapped files ----------------------------------------------------------------------- */

enum czk_status czk_mapped_file_open(struct czk_mapped_file *f, const char *path, char *err,
                                     size_t errlen)
{
    struct stat st;
    int fd;

    if (!f || !path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(f, 0, sizeof *f);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: not a regular file", path);
    }
    if (st.st_size == 0) {
        close(fd);
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: empty file", path);
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: too large to map", path);
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED)
        return czk_errf(e == ENOMEM ? CZK_ERR_NOMEM : CZK_ERR_IO, err, errlen,
                        "%s: cannot map %lld bytes: %s", path, (long long)st.st_size,
                        strerror(e));
    f->map = m;
    f->data = m;
    f->size = (size_t)st.st_size;
    return CZK_OK;
}

void czk_mapped_file_close(struct czk_mapped_file *f)
{
    if (!f)
        return;
    if (f->map)
        munmap(f->map, f->size);
    memset(f, 0, sizeof *f);
}

/* ---- section table ---------------------------------------------------------------------- */

enum czk_status czk_binfile_parse(struct czk_binfile *bf, const char *name, const uint8_t *data,
                                  uint64_t size, const char magic[4], uint32_t min_version,
                                  uint32_t max_version, char *err, size_t errlen)
{
    memset(bf, 0, sizeof *bf);
    bf->name = name;
    bf->data = data;
    bf->size = size;
    if (size == 0)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: empty file", name);
    if (size < 12 || memcmp(data, magic, 4) != 0) {
        if (size >= 4 && memcmp(data, magic, 4) == 0)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "%s: truncated header (%llu bytes, need 12)", name,
                            (unsigned long long)size);
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: not a .%.4s file (bad magic)", name,
                        magic);
    }
    bf->version = czk_rd32(data + 4);
    if (bf->version < min_version || bf->version > max_version) {
        if (min_version == max_version)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "%s: unsupported .%.4s version %u (expected %u), offset 4", name,
                            magic, bf->version, min_version);
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: unsupported .%.4s version %u (expected %u..%u), offset 4", name,
                        magic, bf->version, min_version, max_version);
    }
    uint32_t n = czk_rd32(data + 8);
    /* each section needs at least its 12-byte header: bound the allocation by the file */
    if ((uint64_t)n > (size - 12) / 12)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: %u sections cannot fit in %llu bytes (offset 8)", name, n,
                        (unsigned long long)size);
    bf->sec = calloc(n ? n : 1, sizeof *bf->sec);
    if (!bf->sec)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory", name);
    bf->n_sections = n;

    uint64_t pos = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (size - pos < 12) {
            czk_binfile_free(bf);
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "%s: truncated: header of section %u of %u at offset %llu runs past "
                            "the end (%llu bytes)",
                            name, i + 1, n, (unsigned long long)pos, (unsigned long long)size);
        }
        uint32_t type = czk_rd32(data + pos);
        uint64_t len = czk_rd64(data + pos + 4);
        pos += 12;
        if (len > size - pos) {
            czk_binfile_free(bf);
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "%s: section %u (id %u) at offset %llu: size %llu runs past the end "
                            "(%llu bytes left)",
                            name, i + 1, type, (unsigned long long)pos - 12,
                            (unsigned long long)len, (unsigned long long)(size - pos));
        }
        bf->sec[i].type = type;
        bf->sec[i].offset = pos;
        bf->sec[i].size = len;
        pos += len;
    }
    if (pos != size) {
        czk_binfile_free(bf);
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: %llu bytes of trailing data after the last section (offset %llu)",
                        name, (unsigned long long)(size - pos), (unsigned long long)pos);
    }
    return CZK_OK;
}

void czk_binfile_free(struct czk_binfile *bf)
{
    if (!bf)
        return;
    free(bf->sec);
    bf->sec = NULL;
    bf->n_sections = 0;
}

uint32_t czk_binfile_count(const struct czk_binfile *bf, uint32_t type)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < bf->n_sections; i++)
        k += bf->sec[i].type == type;
    return k;
}

enum czk_status czk_binfile_find(const struct czk_binfile *bf, uint32_t type, bool required,
                                 const struct czk_bin_section **out, char *err, size_t errlen)
{
    const struct czk_bin_section *found = NULL;
    *out = NULL;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        if (bf->sec[i].type != type)
            continue;
        if (found)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "%s: section %u duplicated (offsets %llu and %llu)", bf->name, type,
                            (unsigned long long)found->offset - 12,
                            (unsigned long long)bf->sec[i].offset - 12);
        found = &bf->sec[i];
    }
    if (!found && required)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "%s: missing section %u", bf->name, type);
    *out = found;
    return CZK_OK;
}

/* ---- cursors ---------------------------------------------------------------------------- */

void czk_bin_cursor_init(struct czk_bin_cursor *c, const struct czk_binfile *bf,
                         const struct czk_bin_section *s)
{
    c->bf = bf;
    c->s = s;
    c->pos = 0;
}

static enum czk_status short_section(const struct czk_bin_cursor *c, uint64_t n,
                                     const char *what, char *err, size_t errlen)
{
    return czk_errf(CZK_ERR_FORMAT, err, errlen,
                    "%s: section %u: %s at offset %llu needs %llu bytes, %llu left in the "
                    "section",
                    c->bf->name, c->s->type, what, (unsigned long long)czk_bin_offset(c),
                    (unsigned long long)n, (unsigned long long)czk_bin_left(c));
}

enum czk_status czk_bin_u32(struct czk_bin_cursor *c, uint32_t *v, const char *what, char *err,
                            size_t errlen)
{
    if (czk_bin_left(c) < 4)
        return short_section(c, 4, what, err, errlen);
    *v = czk_rd32(czk_bin_ptr(c));
    c->pos += 4;
    return CZK_OK;
}

enum czk_status czk_bin_u64(struct czk_bin_cursor *c, uint64_t *v, const char *what, char *err,
                            size_t errlen)
{
    if (czk_bin_left(c) < 8)
        return short_section(c, 8, what, err, errlen);
    *v = czk_rd64(czk_bin_ptr(c));
    c->pos += 8;
    return CZK_OK;
}

enum czk_status czk_bin_bytes(struct czk_bin_cursor *c, const uint8_t **p, uint64_t n,
                              const char *what, char *err, size_t errlen)
{
    if (czk_bin_left(c) < n)
        return short_section(c, n, what, err, errlen);
    *p = czk_bin_ptr(c);
    c->pos += n;
    return CZK_OK;
}

enum czk_status czk_bin_end(const struct czk_bin_cursor *c, char *err, size_t errlen)
{
    if (czk_bin_left(c) != 0)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section %u: %llu unexpected bytes at offset %llu (section size "
                        "%llu)",
                        c->bf->name, c->s->type, (unsigned long long)czk_bin_left(c),
                        (unsigned long long)czk_bin_offset(c), (unsigned long long)c->s->size);
    return CZK_OK;
}

/* ---- curves ----------------------------------------------------------------------------- */

static const struct czk_io_curve curves[2] = {
    {CZK_GROTH16_CURVE_BN254, "bn128", 32, 32, czk_fp_bn254_modulus, czk_fr_bn254_modulus,
     CZK_G1_BN254_ZKEY_BYTES, CZK_G2_BN254_ZKEY_BYTES},
    {CZK_GROTH16_CURVE_BLS12_381, "bls12381", 48, 32, czk_fp_bls12_381_modulus,
     czk_fr_bls12_381_modulus, CZK_G1_BLS12_381_ZKEY_BYTES, CZK_G2_BLS12_381_ZKEY_BYTES},
};

/* n8 LE bytes at p equal the n8/8 limbs of m. */
static bool bytes_eq_limbs(const uint8_t *p, uint32_t n8, const uint64_t *m)
{
    for (uint32_t i = 0; i < n8 / 8; i++)
        if (czk_rd64(p + 8 * i) != m[i])
            return false;
    return true;
}

const struct czk_io_curve *czk_io_curve_by_r(const uint8_t *p, uint32_t n8)
{
    for (unsigned i = 0; i < 2; i++)
        if (n8 == curves[i].n8r && bytes_eq_limbs(p, n8, curves[i].r()))
            return &curves[i];
    return NULL;
}

const struct czk_io_curve *czk_io_curve_by_q(const uint8_t *p, uint32_t n8)
{
    for (unsigned i = 0; i < 2; i++)
        if (n8 == curves[i].n8q && bytes_eq_limbs(p, n8, curves[i].q()))
            return &curves[i];
    return NULL;
}

const struct czk_io_curve *czk_io_curve_get(enum czk_groth16_curve curve)
{
    for (unsigned i = 0; i < 2; i++)
        if (curves[i].curve == curve)
            return &curves[i];
    return NULL;
}

enum czk_status czk_io_fr_from_canonical(enum czk_groth16_curve curve, uint64_t out[4],
                                         const uint64_t in[4])
{
    enum czk_status st;
    if (curve == CZK_GROTH16_CURVE_BN254) {
        struct czk_fr_bn254 t;
        st = czk_fr_bn254_from_canonical(&t, in);
        if (st == CZK_OK)
            memcpy(out, t.l, sizeof t.l);
    } else {
        struct czk_fr_bls12_381 t;
        st = czk_fr_bls12_381_from_canonical(&t, in);
        if (st == CZK_OK)
            memcpy(out, t.l, sizeof t.l);
    }
    return st;
}

void czk_io_fr_to_canonical(enum czk_groth16_curve curve, uint64_t out[4], const uint64_t in[4])
{
    if (curve == CZK_GROTH16_CURVE_BN254) {
        struct czk_fr_bn254 t;
        memcpy(t.l, in, sizeof t.l);
        czk_fr_bn254_to_canonical(out, &t);
    } else {
        struct czk_fr_bls12_381 t;
        memcpy(t.l, in, sizeof t.l);
        czk_fr_bls12_381_to_canonical(out, &t);
    }
}

void *czk_io_aligned_alloc(uint64_t n)
{
    void *p = NULL;
    if (n > SIZE_MAX - 64)
        return NULL;
    if (posix_memalign(&p, 64, n ? (size_t)n : 64) != 0)
        return NULL;
    return p;
}

/* ---- writer ----------------------------------------------------------------------------- */

static void binw_fail(struct czk_bin_writer *w, int e)
{
    if (!w->failed) {
        w->failed = true;
        w->err_no = e;
    }
}

enum czk_status czk_binw_open(struct czk_bin_writer *w, const char *path, const char magic[4],
                              uint32_t version, uint32_t n_sections, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    if (!path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL path");
    w->path = path;
    size_t n = strlen(path) + 32;
    w->tmp = malloc(n);
    if (!w->tmp)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory", path);
    snprintf(w->tmp, n, "%s.tmp%ld", path, (long)getpid());
    int fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        free(w->tmp);
        w->tmp = NULL;
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: cannot create: %s", path, strerror(e));
    }
    w->f = fdopen(fd, "wb");
    if (!w->f) {
        int e = errno;
        close(fd);
        unlink(w->tmp);
        free(w->tmp);
        w->tmp = NULL;
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: %s", path, strerror(e));
    }
    setvbuf(w->f, NULL, _IOFBF, 1u << 20);
    uint8_t h[12];
    memcpy(h, magic, 4);
    czk_wr32(h + 4, version);
    czk_wr32(h + 8, n_sections);
    w->sections_left = n_sections;
    if (fwrite(h, 1, 12, w->f) != 12)
        binw_fail(w, errno);
    return CZK_OK;
}

void czk_binw_section(struct czk_bin_writer *w, uint32_t type, uint64_t size)
{
    uint8_t h[12];
    if ((w->in_section && w->left != 0) || w->sections_left == 0)
        binw_fail(w, EINVAL);
    w->sections_left--;
    czk_wr32(h, type);
    czk_wr64(h + 4, size);
    if (!w->failed && fwrite(h, 1, 12, w->f) != 12)
        binw_fail(w, errno);
    w->in_section = true;
    w->left = size;
}

void czk_binw_bytes(struct czk_bin_writer *w, const void *p, uint64_t n)
{
    if (w->failed || n == 0)
        return;
    if (!w->in_section || n > w->left) {
        binw_fail(w, EINVAL);
        return;
    }
    w->left -= n;
    if (fwrite(p, 1, (size_t)n, w->f) != (size_t)n)
        binw_fail(w, errno);
}

void czk_binw_u32(struct czk_bin_writer *w, uint32_t v)
{
    uint8_t b[4];
    czk_wr32(b, v);
    czk_binw_bytes(w, b, 4);
}

void czk_binw_u64(struct czk_bin_writer *w, uint64_t v)
{
    uint8_t b[8];
    czk_wr64(b, v);
    czk_binw_bytes(w, b, 8);
}

void czk_binw_abort(struct czk_bin_writer *w)
{
    if (w->f)
        fclose(w->f);
    if (w->tmp)
        unlink(w->tmp);
    free(w->tmp);
    memset(w, 0, sizeof *w);
}

enum czk_status czk_binw_close(struct czk_bin_writer *w, char *err, size_t errlen)
{
    if ((w->in_section && w->left != 0) || w->sections_left != 0)
        binw_fail(w, EINVAL);
    if (w->failed) {
        int e = w->err_no;
        const char *path = w->path;
        czk_binw_abort(w);
        if (e == EINVAL)
            return czk_errf(CZK_ERR_INTERNAL, err, errlen,
                            "%s: section sizes do not match the data written", path);
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: write failed: %s", path, strerror(e));
    }
    FILE *f = w->f;
    w->f = NULL;
    if (fclose(f) != 0) {
        int e = errno;
        const char *path = w->path;
        czk_binw_abort(w);
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: write failed: %s", path, strerror(e));
    }
    if (rename(w->tmp, w->path) != 0) {
        int e = errno;
        const char *path = w->path;
        czk_binw_abort(w);
        return czk_errf(CZK_ERR_IO, err, errlen, "%s: cannot rename the temporary file: %s",
                        path, strerror(e));
    }
    free(w->tmp);
    memset(w, 0, sizeof *w);
    return CZK_OK;
}
