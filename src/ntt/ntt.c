/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_ntt (ntt.h): argument checks, dispatch on the curve to the per-field
 * transforms (ntt_bn254.c, ntt_bls12_381.c), the process-wide twiddle cache, and the
 * snarkjs coset shift (ntt_snarkjs.h).
 *
 * The cache is a list of table sets keyed by (curve, convention, lg_n), guarded by one
 * mutex that is held only to find, insert or unlink an entry; tables are built outside
 * it (two threads that miss at once both build, and the loser frees its copy). Entries
 * are reference counted while a transform uses them, so czk_ntt_cache_clear is safe to
 * call concurrently with transforms: it unlinks every entry and frees those not in use;
 * the last user frees the rest.
 */
#include "ntt/ntt.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk_ff.h"
#include "ntt/ntt_internal.h"
#include "ntt/ntt_snarkjs.h"

struct ntt_entry {
    struct ntt_entry *next;
    enum czk_groth16_curve curve;
    enum czk_ntt_convention conv;
    unsigned lg_n;
    unsigned refs;
    bool orphan; /* unlinked by czk_ntt_cache_clear while in use */
    struct czk_ntt_tables t;
};

static pthread_mutex_t g_ntt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ntt_entry *g_ntt_head;

void czk_ntt_tables_free(struct czk_ntt_tables *t)
{
    free(t->mem);
    memset(t, 0, sizeof *t);
}

static void ntt_entry_free(struct ntt_entry *e)
{
    czk_ntt_tables_free(&e->t);
    free(e);
}

/* Caller holds the lock. */
static struct ntt_entry *ntt_find(enum czk_groth16_curve curve, enum czk_ntt_convention conv,
                                  unsigned lg_n)
{
    for (struct ntt_entry *e = g_ntt_head; e; e = e->next)
        if (e->curve == curve && e->conv == conv && e->lg_n == lg_n)
            return e;
    return NULL;
}

static enum czk_status ntt_acquire(enum czk_groth16_curve curve, enum czk_ntt_convention conv,
                                   unsigned lg_n, unsigned threads, struct ntt_entry **out)
{
    pthread_mutex_lock(&g_ntt_lock);
    struct ntt_entry *e = ntt_find(curve, conv, lg_n);
    if (e)
        e->refs++;
    pthread_mutex_unlock(&g_ntt_lock);
    if (e) {
        *out = e;
        return CZK_OK;
    }

    struct ntt_entry *fresh = calloc(1, sizeof *fresh);
    if (!fresh)
        return CZK_ERR_NOMEM;
    enum czk_status st = curve == CZK_GROTH16_CURVE_BN254
                             ? czk_ntt_fr_bn254_tables(&fresh->t, lg_n, conv, threads)
                             : czk_ntt_fr_bls12_381_tables(&fresh->t, lg_n, conv, threads);
    if (st != CZK_OK) {
        free(fresh);
        return st;
    }
    fresh->curve = curve;
    fresh->conv = conv;
    fresh->lg_n = lg_n;
    fresh->refs = 1;

    pthread_mutex_lock(&g_ntt_lock);
    e = ntt_find(curve, conv, lg_n);
    if (e) {
        e->refs++;
    } else {
        fresh->next = g_ntt_head;
        g_ntt_head = fresh;
        e = fresh;
        fresh = NULL;
    }
    pthread_mutex_unlock(&g_ntt_lock);
    if (fresh)
        ntt_entry_free(fresh);
    *out = e;
    return CZK_OK;
}

static void ntt_release(struct ntt_entry *e)
{
    pthread_mutex_lock(&g_ntt_lock);
    bool dead = --e->refs == 0 && e->orphan;
    pthread_mutex_unlock(&g_ntt_lock);
    if (dead)
        ntt_entry_free(e);
}

void czk_ntt_cache_clear(void)
{
    pthread_mutex_lock(&g_ntt_lock);
    struct ntt_entry *e = g_ntt_head, *dead = NULL;
    g_ntt_head = NULL;
    while (e) {
        struct ntt_entry *next = e->next;
        if (e->refs == 0) {
            e->next = dead;
            dead = e;
        } else {
            e->orphan = true;
            e->next = NULL;
        }
        e = next;
    }
    pthread_mutex_unlock(&g_ntt_lock);
    while (dead) {
        struct ntt_entry *next = dead->next;
        ntt_entry_free(dead);
        dead = next;
    }
}

enum czk_status czk_ntt(enum czk_groth16_curve curve, uint64_t (*data)[4], unsigned lg_n,
                        enum czk_ntt_dir dir, enum czk_ntt_convention conv, const uint64_t shift[4],
                        unsigned threads)
{
    unsigned s;
    if (curve == CZK_GROTH16_CURVE_BN254)
        s = czk_fr_bn254_two_adicity();
    else if (curve == CZK_GROTH16_CURVE_BLS12_381)
        s = czk_fr_bls12_381_two_adicity();
    else
        return CZK_ERR_INVALID_ARG;
    if (!data || lg_n > s || (dir != CZK_NTT_FORWARD && dir != CZK_NTT_INVERSE) ||
        (conv != CZK_NTT_SNARKJS && conv != CZK_NTT_BELLMAN))
        return CZK_ERR_INVALID_ARG;
    if (lg_n == 0)
        return CZK_OK; /* n = 1: w = 1, n^-1 = 1, shift^0 = 1 */

    struct ntt_entry *e;
    enum czk_status st = ntt_acquire(curve, conv, lg_n, threads, &e);
    if (st != CZK_OK)
        return st;
    if (curve == CZK_GROTH16_CURVE_BN254)
        czk_ntt_fr_bn254_run(&e->t, data, dir, shift, threads);
    else
        czk_ntt_fr_bls12_381_run(&e->t, data, dir, shift, threads);
    ntt_release(e);
    return CZK_OK;
}

void czk_ntt_snarkjs_shift(enum czk_groth16_curve c, unsigned lg_n, uint64_t out[4])
{
    memset(out, 0, 4 * sizeof *out);
    if (c == CZK_GROTH16_CURVE_BN254) {
        struct czk_fr_bn254 r;
        unsigned s = czk_fr_bn254_two_adicity();
        if (lg_n < s) {
            czk_fr_bn254_root_of_unity(&r, lg_n + 1, CZK_NTT_SNARKJS);
        } else if (lg_n == s) {
            czk_fr_bn254_coset_gen(&r, CZK_NTT_SNARKJS); /* the non-residue 5 */
            czk_fr_bn254_sqr(&r, &r);
        } else {
            return;
        }
        memcpy(out, r.l, sizeof r.l);
    } else if (c == CZK_GROTH16_CURVE_BLS12_381) {
        struct czk_fr_bls12_381 r;
        unsigned s = czk_fr_bls12_381_two_adicity();
        if (lg_n < s) {
            czk_fr_bls12_381_root_of_unity(&r, lg_n + 1, CZK_NTT_SNARKJS);
        } else if (lg_n == s) {
            czk_fr_bls12_381_coset_gen(&r, CZK_NTT_SNARKJS);
            czk_fr_bls12_381_sqr(&r, &r);
        } else {
            return;
        }
        memcpy(out, r.l, sizeof r.l);
    }
}
