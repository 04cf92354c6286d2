/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal helpers shared by the .r1cs, .wtns and .zkey readers and writers
 * (src/io/r1cs.c, wtns.c, zkey.c): the iden3 binfile section table, bounds-checked
 * little-endian cursors over a section, a buffered writer that emits sections of
 * declared sizes into a temporary file renamed into place, and the two curves' field
 * parameters.
 *
 * Section table: 4-byte magic, u32 version, u32 n_sections, then n_sections times
 * {u32 type, u64 size, size bytes}. The parser checks every header and size against
 * what is left of the file (no arithmetic that can overflow), requires the sections
 * to end exactly at the end of the file, and never allocates more than the file
 * size implies (n_sections <= (size - 12) / 12). Lookups by id reject duplicates.
 *
 * Everything here is single-threaded per object; no global state. The section table
 * is heap-allocated (czk_binfile_free). Error messages name the file, the section
 * and the byte offset.
 */
#ifndef CZK_IO_BINFILE_H
#define CZK_IO_BINFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "czk/czk_groth16.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "czk io: the file formats are borrowed in place; a little-endian host is required"
#endif

struct czk_bin_section {
    uint32_t type;
    uint64_t offset; /* of the data, from the start of the file */
    uint64_t size;
};

struct czk_binfile {
    const char *name; /* for messages (borrowed) */
    const uint8_t *data;
    uint64_t size;
    uint32_t version;
    uint32_t n_sections;
    struct czk_bin_section *sec; /* n_sections, in file order */
};

/* Parses the header and section table. Accepts versions in [min_version, max_version]. */
enum czk_status czk_binfile_parse(struct czk_binfile *bf, const char *name, const uint8_t *data,
                                  uint64_t size, const char magic[4], uint32_t min_version,
                                  uint32_t max_version, char *err, size_t errlen);
void czk_binfile_free(struct czk_binfile *bf);

/* Number of sections with id `type`. */
uint32_t czk_binfile_count(const struct czk_binfile *bf, uint32_t type);

/* The unique section `type`: CZK_ERR_FORMAT if it is duplicated, or missing while
 * `required`; *out = NULL if missing and not required. */
enum czk_status czk_binfile_find(const struct czk_binfile *bf, uint32_t type, bool required,
                                 const struct czk_bin_section **out, char *err, size_t errlen);

/* A bounds-checked cursor over one section. */
struct czk_bin_cursor {
    const struct czk_binfile *bf;
    const struct czk_bin_section *s;
    uint64_t pos; /* relative to the section data */
};

void czk_bin_cursor_init(struct czk_bin_cursor *c, const struct czk_binfile *bf,
                         const struct czk_bin_section *s);
/* Bytes left in the section. */
static inline uint64_t czk_bin_left(const struct czk_bin_cursor *c) { return c->s->size - c->pos; }
/* Absolute file offset of the cursor (for messages). */
static inline uint64_t czk_bin_offset(const struct czk_bin_cursor *c)
{
    return c->s->offset + c->pos;
}
static inline const uint8_t *czk_bin_ptr(const struct czk_bin_cursor *c)
{
    return c->bf->data + c->s->offset + c->pos;
}
/* Reads advance the cursor; on a short section they fail with CZK_ERR_FORMAT naming
 * `what` and leave the cursor where it was. */
enum czk_status czk_bin_u32(struct czk_bin_cursor *c, uint32_t *v, const char *what, char *err,
                            size_t errlen);
enum czk_status czk_bin_u64(struct czk_bin_cursor *c, uint64_t *v, const char *what, char *err,
                            size_t errlen);
enum czk_status czk_bin_bytes(struct czk_bin_cursor *c, const uint8_t **p, uint64_t n,
                              const char *what, char *err, size_t errlen);
/* CZK_ERR_FORMAT unless the cursor is at the end of the section. */
enum czk_status czk_bin_end(const struct czk_bin_cursor *c, char *err, size_t errlen);

static inline uint32_t czk_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t czk_rd64(const uint8_t *p)
{
    return (uint64_t)czk_rd32(p) | (uint64_t)czk_rd32(p + 4) << 32;
}
static inline void czk_wr32(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void czk_wr64(uint8_t *p, uint64_t v)
{
    czk_wr32(p, (uint32_t)v);
    czk_wr32(p + 4, (uint32_t)(v >> 32));
}

/* a < m for n-limb little-endian integers. */
static inline bool czk_limbs_lt(const uint64_t *a, const uint64_t *m, unsigned n)
{
    for (unsigned i = n; i-- > 0;)
        if (a[i] != m[i])
            return a[i] < m[i];
    return false;
}

/* ---- curves ----------------------------------------------------------------------------- */

struct czk_io_curve {
    enum czk_groth16_curve curve;
    const char *name;    /* "bn128" / "bls12381", as snarkjs names them */
    uint32_t n8q, n8r;   /* bytes of Fq, Fr */
    const uint64_t *(*q)(void); /* n8q / 8 limbs (the field's czk_*_modulus) */
    const uint64_t *(*r)(void); /* 4 limbs */
    uint32_t g1, g2;     /* zkey point sizes */
};

/* The curve whose scalar field has modulus r = the n8 bytes at p (LE); NULL if none. */
const struct czk_io_curve *czk_io_curve_by_r(const uint8_t *p, uint32_t n8);
/* The curve whose base field has modulus q = the n8 bytes at p (LE); NULL if none. */
const struct czk_io_curve *czk_io_curve_by_q(const uint8_t *p, uint32_t n8);
const struct czk_io_curve *czk_io_curve_get(enum czk_groth16_curve curve);

/* Converts between canonical and Montgomery scalars of `curve` (4 limbs). from_canonical
 * returns CZK_ERR_RANGE for values >= r. */
enum czk_status czk_io_fr_from_canonical(enum czk_groth16_curve curve, uint64_t out[4],
                                         const uint64_t in[4]);
void czk_io_fr_to_canonical(enum czk_groth16_curve curve, uint64_t out[4], const uint64_t in[4]);

/* ---- memory ----------------------------------------------------------------------------- */

/* 64-byte aligned allocation of n bytes (n may be 0: returns a valid pointer); free(). */
void *czk_io_aligned_alloc(uint64_t n);

/* ---- writer ----------------------------------------------------------------------------- */

struct czk_bin_writer {
    FILE *f;
    const char *path;  /* final name (borrowed) */
    char *tmp;         /* temporary name, renamed to path by close */
    uint64_t left;     /* bytes still owed to the current section */
    uint32_t sections_left; /* sections declared in the header and not yet started */
    bool in_section;
    bool failed;       /* a write failed (errno kept in err_no) */
    int err_no;
};

enum czk_status czk_binw_open(struct czk_bin_writer *w, const char *path, const char magic[4],
                              uint32_t version, uint32_t n_sections, char *err, size_t errlen);
/* Starts section `type` of exactly `size` bytes (the previous one must be complete). */
void czk_binw_section(struct czk_bin_writer *w, uint32_t type, uint64_t size);
void czk_binw_bytes(struct czk_bin_writer *w, const void *p, uint64_t n);
void czk_binw_u32(struct czk_bin_writer *w, uint32_t v);
void czk_binw_u64(struct czk_bin_writer *w, uint64_t v);
/* Flushes, checks that every section got its declared size, fsyncs nothing (callers
 * that need durability sync the directory themselves), renames the temporary file to
 * the path. On any failure the temporary file is removed. */
enum czk_status czk_binw_close(struct czk_bin_writer *w, char *err, size_t errlen);
/* Abandons the file (removes the temporary). */
void czk_binw_abort(struct czk_bin_writer *w);

#endif
