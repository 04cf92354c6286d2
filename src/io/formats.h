/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circom/snarkjs binary files: .r1cs, .wtns (v2) and Groth16 .zkey — the internal
 * contract between the readers/writers (src/io/) and their users (prover, dev setup,
 * circuit generator). All three are iden3 "binfile" containers: 4-byte magic,
 * u32 version, u32 section count, then sections {u32 type, u64 size, bytes}; every
 * integer little-endian; sections are located by id, never by position (snarkjs
 * writes them out of numeric order). The ffjavascript/snarkjs sources in
 * node_modules are the specification (r1csfile, wtns_utils, zkey_utils).
 *
 * Scalar-field elements of both curves are 4 x 64-bit limbs, so they are handled
 * here as `uint64_t[4]` whatever the curve. Readers validate everything before any
 * heavy work and name file, section and offset in `err`.
 *
 * Ownership: *_load fills a caller-provided struct and *_free releases it
 * (_free on a zeroed struct is a no-op). Readers memory-map the file; pointers into
 * it stay valid until _free. Structs are read-only after load and may be shared
 * between threads. A mapped file must not be truncated or rewritten while it is
 * loaded (that would be SIGBUS or data changing after validation); writers here
 * write a temporary file and rename it, so rewriting a loaded file with them is safe.
 * The *_load_mem variants read a caller buffer instead of a file (same checks; the
 * buffer is borrowed and must outlive the struct).
 *
 * Host byte order must be little-endian (the loaders borrow limbs in place).
 */
#ifndef CZK_IO_FORMATS_H
#define CZK_IO_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk/czk_groth16.h"

/* A read-only memory map of a whole file. */
struct czk_mapped_file {
    const uint8_t *data;
    size_t size;
    void *map; /* munmap handle; NULL when not mapped (closed, or a _load_mem buffer) */
};

/* Compressed sparse rows: row i has entries [row_ptr[i], row_ptr[i+1]) of col/val.
 * Values are in Montgomery form. */
struct czk_csr {
    uint32_t n_rows, n_cols;
    uint64_t nnz;
    uint64_t *row_ptr;     /* n_rows + 1 */
    uint32_t *col;         /* nnz */
    uint64_t (*val)[4];    /* nnz, Montgomery form */
};

enum czk_matrix { CZK_MATRIX_A = 0, CZK_MATRIX_B = 1, CZK_MATRIX_C = 2 };

/* .r1cs: the constraints A·w ∘ B·w = C·w as three CSR matrices (rows = constraints,
 * cols = wires). Wire 0 is the constant 1; wires 1..n_pub_out+n_pub_in are public.
 * After load every array is a heap copy (the file is not kept mapped; val is 64-byte
 * aligned) and czk_r1cs_free releases them with free(), which a hand-built struct
 * for czk_r1cs_write may rely on too if its arrays come from malloc. Terms keep the
 * file's order, duplicates included. Custom-gate files (PLONK) are CZK_ERR_UNSUPPORTED. */
struct czk_r1cs {
    enum czk_groth16_curve curve;
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    struct czk_csr m[3];
    uint64_t *wire_to_label; /* n_wires, or NULL if the section is absent */
};

/* .wtns v2: n witness values, canonical (not Montgomery), little-endian, each < r
 * (checked at load); borrowed from the mapping when 8-byte aligned, else copied. */
struct czk_wtns {
    enum czk_groth16_curve curve;
    uint32_t n;
    const uint64_t (*values)[4];
    struct czk_mapped_file file;
    void *owned; /* aligned copy, if one was needed */
};

/* One entry of zkey section 4: coefficient of `signal` in row `constraint` of A (0)
 * or B (1); value is stored as c·R^2 mod r (zkey_new.js), so one Montgomery product
 * with a canonical witness value gives Mont(c·w). */
struct czk_zkey_coef {
    uint32_t matrix, constraint, signal;
    uint64_t value[4];
};

/* snarkjs Groth16 .zkey. Point arrays are in the zkey layout, which equals the czk
 * affine structs (Montgomery little-endian x||y, G2 c0||c1, infinity = all zeros),
 * so they are exposed as `const void *` to be cast to the curve's affine type:
 * struct czk_g1_bn254_affine / czk_g2_bn254_affine, or the bls12_381 ones.
 * Borrowed from the mapping when the section is 8-byte aligned, else copied once. */
struct czk_zkey {
    enum czk_groth16_curve curve;
    uint32_t n8q, n8r;
    uint32_t n_vars, n_public, domain_size, lg_domain;
    const void *alpha1, *beta1, *beta2, *gamma2, *delta1, *delta2; /* one point each */
    const void *ic;  /* n_public + 1 G1 */
    uint32_t n_coefs;
    const struct czk_zkey_coef *coefs; /* decoded copy of section 4 (n_coefs) */
    const void *a;   /* n_vars G1 (section 5) */
    const void *b1;  /* n_vars G1 (section 6) */
    const void *b2;  /* n_vars G2 (section 7) */
    const void *c;   /* n_vars - n_public - 1 G1 (section 8) */
    const void *h;   /* domain_size G1 (section 9) */
    uint8_t hash[32]; /* the key id (below), for the subgroup-check cache */
    struct czk_mapped_file file;
    void *owned[8];  /* aligned copies / decoded arrays to free */
    /* Added: */
    const uint8_t *contributions; /* section 10 bytes as in the file (borrowed), or NULL */
    uint64_t contributions_size;
    bool has_hash;     /* hash holds the key id (see CZK_IO_FORCE_HASH) */
    uint8_t subgroup;  /* enum czk_zkey_subgroup: how subgroup membership was settled */
};

/* czk_zkey.subgroup after a successful load. */
enum czk_zkey_subgroup {
    CZK_ZKEY_SUBGROUP_SKIPPED = 0, /* CZK_IO_SKIP_SUBGROUP: not checked */
    CZK_ZKEY_SUBGROUP_CHECKED = 1, /* every point checked by this load */
    CZK_ZKEY_SUBGROUP_CACHED = 2,  /* hash found in the process-wide set of checked keys */
    CZK_ZKEY_SUBGROUP_TRUSTED_FILE = 3, /* hash found in the trusted-keys file */
};

/*
 * Key id: SHA-256("czk-zkey-id-v1" zero-padded to 16 bytes || file size as u64 LE ||
 * SHA-256(chunk 0) || SHA-256(chunk 1) || ...), the file cut into 4 MiB chunks (the last one
 * shorter) hashed in parallel. Collision resistance is SHA-256's.
 *
 * Subgroup-check cache. After a load has checked every point of a zkey, the file's
 * key id goes into a process-wide set; a later load of a file with that id skips
 * the subgroup checks (coordinates and curve equations are still checked: they are
 * cheap and also guard against a changed mapping). With CZK_IO_PERSIST_TRUST the set
 * is also kept on disk, in $XDG_CACHE_HOME/czk/trusted-keys (or, without
 * XDG_CACHE_HOME, ~/.cache/czk/trusted-keys): one lowercase hex key id per line,
 * appended after each successful check and consulted when the process-wide set
 * misses. That file is read only when it is owned by the user and not writable by
 * others; anyone who can write it can make czk skip the subgroup check of a key, so
 * the library leaves it to the caller (`czk prove` opts in unless --no-key-cache).
 * Deleting the file forgets every entry.
 */
/* The key id of `size` bytes at data (see above), with `threads` workers (0 = all). */
void czk_zkey_id(uint8_t out[32], const uint8_t *data, uint64_t size, unsigned threads);

enum czk_io_flags {
    CZK_IO_SKIP_SUBGROUP = 1u << 0, /* zkey: on-curve checks only (--trust-key) */
    CZK_IO_PERSIST_TRUST = 1u << 1, /* zkey: also use the trusted-keys file (see above) */
    CZK_IO_FORCE_HASH = 1u << 2,    /* zkey: hash the file even with CZK_IO_SKIP_SUBGROUP
                                       (which otherwise skips hashing: has_hash false) */
};

enum czk_status czk_mapped_file_open(struct czk_mapped_file *f, const char *path, char *err,
                                     size_t errlen);
void czk_mapped_file_close(struct czk_mapped_file *f);

enum czk_status czk_r1cs_load(struct czk_r1cs *r, const char *path, char *err, size_t errlen);
void czk_r1cs_free(struct czk_r1cs *r);
enum czk_status czk_wtns_load(struct czk_wtns *w, const char *path, char *err, size_t errlen);
void czk_wtns_free(struct czk_wtns *w);
/* Loads and validates a zkey: header and section sizes against counts, field moduli
 * against the curve, every point on its curve; the subgroup check (multithreaded,
 * `threads` = 0 means all cores) is skipped with CZK_IO_SKIP_SUBGROUP or when the
 * file's hash is trusted (see above; z->subgroup says which). Statuses: CZK_ERR_IO,
 * CZK_ERR_FORMAT, CZK_ERR_RANGE (value or coordinate >= modulus),
 * CZK_ERR_NOT_ON_CURVE, CZK_ERR_NOT_IN_SUBGROUP, CZK_ERR_UNSUPPORTED (PLONK/FFLONK
 * keys), CZK_ERR_NOMEM; the message names file, section and byte offset. */
enum czk_status czk_zkey_load(struct czk_zkey *z, const char *path, unsigned flags,
                              unsigned threads, char *err, size_t errlen);
void czk_zkey_free(struct czk_zkey *z);

/* What czk_zkey_peek learns of a zkey without loading it. */
struct czk_zkey_info {
    enum czk_groth16_curve curve;
    uint32_t n8q, n8r;
    uint32_t n_vars, n_public, domain_size, lg_domain;
    uint32_t n_coefs;    /* A and B coefficients (section 4) */
    uint64_t file_size;  /* bytes (czk_zkey_load maps all of them) */
    uint64_t heap_bytes; /* bytes czk_zkey_load allocates besides the mapping */
    uint64_t point_bytes; /* bytes of the point sections 3 and 5-9 (IC, A, B1, B2, C, H) */
};

/* The cheap half of czk_zkey_load's checks: the section table, sections 1-10 present
 * once, protocol, curve, counts and domain of section 2, and every section's size
 * against the counts; it reads only the section headers and sections 1 and 2 (the
 * file is mapped, not read). Points and coefficients are not checked (a later load
 * may still fail). Same statuses and messages as czk_zkey_load for what it checks. */
enum czk_status czk_zkey_peek(struct czk_zkey_info *info, const char *path, char *err,
                              size_t errlen);

/* The same loaders on a caller buffer (borrowed until _free); `name` names it in
 * messages. No file is mapped (file.map == NULL). */
enum czk_status czk_r1cs_load_mem(struct czk_r1cs *r, const void *data, size_t size,
                                  const char *name, char *err, size_t errlen);
enum czk_status czk_wtns_load_mem(struct czk_wtns *w, const void *data, size_t size,
                                  const char *name, char *err, size_t errlen);
enum czk_status czk_zkey_load_mem(struct czk_zkey *z, const void *data, size_t size,
                                  const char *name, unsigned flags, unsigned threads, char *err,
                                  size_t errlen);

/* Consistency of a zkey with the circuit it was made for: same curve, n_vars ==
 * n_wires, n_public == n_pub_out + n_pub_in, domain_size >= n_constraints + n_public
 * + 1 (zkey_new.js), and every coefficient of A/B with constraint < n_constraints
 * equal to the r1cs entry (the IC rows above must be the value 1 at signal
 * constraint - n_constraints). CZK_ERR_FORMAT naming the first mismatch. */
enum czk_status czk_zkey_check_r1cs(const struct czk_zkey *z, const struct czk_r1cs *r,
                                    char *err, size_t errlen);

/* Empties the process-wide set of subgroup-checked keys (tests; not the file). */
void czk_zkey_trust_cache_clear(void);

/* Writers (used by `czk gen-circuit` and `czk setup --dev`). Values given in the
 * in-memory forms above; the writers emit exactly what snarkjs reads. Each writes
 * "<path>.tmp<pid>" and renames it over path, so readers never see a partial file
 * and a failed write leaves path untouched. Inputs are validated first
 * (CZK_ERR_INVALID_ARG / CZK_ERR_RANGE); CZK_ERR_IO for file errors. */
/* r1cs: sections in circom's order (2 constraints, 1 header, 3 wire map; 3 only when
 * wire_to_label != NULL), so a circom file loaded and written back is byte-identical.
 * Checks: matrices n_constraints x n_wires (n_cols 0 is accepted), row_ptr monotonic
 * and ending at nnz, wires < n_wires, values (Montgomery) < r. */
enum czk_status czk_r1cs_write(const char *path, const struct czk_r1cs *r, char *err,
                               size_t errlen);
/* wtns v2: canonical values, each checked < r. */
enum czk_status czk_wtns_write(const char *path, enum czk_groth16_curve curve,
                               const uint64_t (*values)[4], uint32_t n, char *err, size_t errlen);
/* Writes a zkey from a struct whose pointers reference memory of the caller (or of
 * a loaded zkey); sections 1-10 in numeric order, which is what `snarkjs zkey
 * contribute/beacon` write, so a loaded snarkjs key is written back byte-identical.
 * Section 10 is z->contributions verbatim when set, else an MPC record without
 * contributions (64 zero bytes of circuit hash, u32 0), which snarkjs reads.
 * Coefficients, n8q/n8r (0 = the curve's), counts and the domain are checked;
 * points are written as given (not re-validated). */
enum czk_status czk_zkey_write(const char *path, const struct czk_zkey *z, char *err,
                               size_t errlen);

#endif
