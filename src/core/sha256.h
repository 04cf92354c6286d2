/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 (FIPS 180-4), used to identify files: the zkey loader keys its cache of
 * subgroup-checked keys by the SHA-256 of the whole file. Not for secrets (it is not
 * constant-time with respect to anything, and needs not be).
 *
 * Streaming: czk_sha256_init, any number of czk_sha256_update calls (any lengths,
 * including 0), czk_sha256_final, which writes the 32-byte digest and leaves the
 * context unusable until the next init. czk_sha256 is the one-shot form.
 *
 * Threading: a context belongs to one thread at a time; no global state. No
 * allocation. Input up to 2^61 - 1 bytes (the length is counted in bits in 64 bits).
 */
#ifndef CZK_CORE_SHA256_H
#define CZK_CORE_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CZK_SHA256_BYTES 32

struct czk_sha256 {
    uint32_t h[8];   /* chaining value */
    uint64_t len;    /* bytes hashed so far */
    uint8_t buf[64]; /* partial block */
    size_t nbuf;     /* bytes in buf (< 64) */
};

void czk_sha256_init(struct czk_sha256 *c);
void czk_sha256_update(struct czk_sha256 *c, const void *data, size_t n);
void czk_sha256_final(struct czk_sha256 *c, uint8_t out[CZK_SHA256_BYTES]);
void czk_sha256(uint8_t out[CZK_SHA256_BYTES], const void *data, size_t n);

/* Test hook: on = false forces the portable compression function, on = true restores the
 * CPU's best; returns whether the accelerated one is now in use. Not thread-safe against
 * concurrent hashing (the outputs are the same either way, only speed differs). */
bool czk_sha256_set_accel(bool on);

/* Lowercase hex of a digest into hex[65] (NUL-terminated). */
void czk_sha256_hex(char hex[2 * CZK_SHA256_BYTES + 1], const uint8_t d[CZK_SHA256_BYTES]);

#endif
