/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the per-field halves of the CPU NTT (ntt_impl.h, instantiated in
 * ntt_bn254.c and ntt_bls12_381.c) and the tables they share with the dispatcher
 * and twiddle cache in ntt.c.
 *
 * Shape (see ntt_impl.h for the algebra): n = n1 * n2 with n1 = 2^lg_n1 rows and
 * n2 = 2^lg_n2 contiguous columns. Small sizes use lg_n1 = 0 (one in-cache transform).
 * A table set is immutable once built, so any number of threads may read it; its
 * lifetime is managed by ntt.c (reference counted cache entries).
 */
#ifndef CZK_NTT_NTT_INTERNAL_H
#define CZK_NTT_NTT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ntt/ntt.h"

/* Sizes below 2^CZK_NTT_LG_FOURSTEP run as one transform on one thread. */
#define CZK_NTT_LG_FOURSTEP 7
/* Sizes below 2^CZK_NTT_LG_PARALLEL never start threads (the work is below ~0.1 ms). */
#define CZK_NTT_LG_PARALLEL 11

struct czk_ntt_tables {
    unsigned lg_n, lg_n1, lg_n2;
    uint64_t (*tw1)[4];  /* w_n1^j for j < n1 (NULL when n1 == 1) */
    uint64_t (*tw2)[4];  /* w_n2^j for j < n2 */
    uint64_t (*tw2d)[4]; /* row r, column c: w_n^(c * bitrev_lg_n1(r)); NULL when n1 == 1 */
    uint64_t ninv[4];    /* n^-1 */
    void *mem;           /* the one allocation holding the three tables */
};

/* Builds the tables of 2^lg_n for the convention (lg_n <= two-adicity, checked by the
 * caller); CZK_ERR_NOMEM on allocation failure. */
enum czk_status czk_ntt_fr_bn254_tables(struct czk_ntt_tables *t, unsigned lg_n,
                                        enum czk_ntt_convention conv, unsigned threads);
enum czk_status czk_ntt_fr_bls12_381_tables(struct czk_ntt_tables *t, unsigned lg_n,
                                            enum czk_ntt_convention conv, unsigned threads);

/* The transform of ntt.h on tables built for data's size (lg_n >= 1). */
void czk_ntt_fr_bn254_run(const struct czk_ntt_tables *t, uint64_t (*data)[4], enum czk_ntt_dir dir,
                          const uint64_t shift[4], unsigned threads);
void czk_ntt_fr_bls12_381_run(const struct czk_ntt_tables *t, uint64_t (*data)[4],
                              enum czk_ntt_dir dir, const uint64_t shift[4], unsigned threads);

void czk_ntt_tables_free(struct czk_ntt_tables *t);

/* The low `bits` bits of x in reverse order (bits <= 63). */
static inline size_t czk_ntt_bitrev(size_t x, unsigned bits)
{
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    v = __builtin_bswap64(v);
    return bits ? (size_t)(v >> (64 - bits)) : 0;
}

#endif
