/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 after FIPS 180-4, section 6.2 (see sha256.h). Two compression functions:
 * the portable one (FIPS 180-4 6.2.2, written directly from the standard) and, on
 * x86-64 CPUs with the SHA extensions, one built on SHA256RNDS2/MSG1/MSG2 (about five
 * times faster: it matters when a multi-gigabyte zkey is hashed at every load). The
 * choice is made once per process from CPUID; CZK_SHA256_NO_SHANI=1 in the
 * environment forces the portable path (the tests compare both).
 *
 * No allocation; the only global is the cached CPU-feature choice (an atomic int,
 * written with the same value by whichever thread gets there first).
 */
#include "core/sha256.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* FIPS 180-4 6.2.2: n blocks of 64 bytes. */
static void compress_portable(uint32_t h[8], const uint8_t *p, size_t n)
{
    for (; n > 0; n--, p += 64) {
        uint32_t w[64];
        for (unsigned t = 0; t < 16; t++)
            w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
                   (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
        for (unsigned t = 16; t < 64; t++) {
            uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = s1 + w[t - 7] + s0 + w[t - 16];
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
        for (unsigned t = 0; t < 64; t++) {
            uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            uint32_t ch = (e & f) ^ (~e & g);
            uint32_t t1 = k + S1 + ch + K[t] + w[t];
            uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
            uint32_t t2 = S0 + maj;
            k = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += k;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

#define CZK_SHA256_HAVE_SHANI 1

/*
 * The SHA extensions keep the eight working variables as two vectors, ABEF and CDGH
 * (lane 3 first). SHA256RNDS2 runs two rounds with W+K of those rounds in lanes 0-1;
 * MSG1/MSG2 compute the sigma0 and sigma1 parts of the message schedule, and the
 * W[t-7] term is added in between (alignr of the two previous message vectors).
 */
__attribute__((target("sha,ssse3,sse4.1"))) static void compress_shani(uint32_t h[8],
                                                                        const uint8_t *p,
                                                                        size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    __m128i t = _mm_loadu_si128((const __m128i *)&h[0]);  /* a b c d (lane 0 = a) */
    __m128i s1 = _mm_loadu_si128((const __m128i *)&h[4]); /* e f g h */
    t = _mm_shuffle_epi32(t, 0xB1);                       /* b a d c */
    s1 = _mm_shuffle_epi32(s1, 0x1B);                     /* h g f e */
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);               /* ABEF */
    s1 = _mm_blend_epi16(s1, t, 0xF0);                    /* CDGH */

    for (; n > 0; n--, p += 64) {
        __m128i save0 = s0, save1 = s1, m[4];
        for (unsigned i = 0; i < 4; i++)
            m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
        for (unsigned g = 0; g < 16; g++) {
            if (g >= 4) { /* W[4g..4g+3] from W[4g-16..4g-1] */
                __m128i x = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
                x = _mm_add_epi32(x, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
                m[g & 3] = _mm_sha256msg2_epu32(x, m[(g + 3) & 3]);
            }
            __m128i wk = _mm_add_epi32(m[g & 3], _mm_loadu_si128((const __m128i *)&K[4 * g]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, wk);
            wk = _mm_shuffle_epi32(wk, 0x0E);
            s0 = _mm_sha256rnds2_epu32(s0, s1, wk);
        }
        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
    }

    t = _mm_shuffle_epi32(s0, 0x1B);   /* a b e f */
    s1 = _mm_shuffle_epi32(s1, 0xB1);  /* g h c d */
    s0 = _mm_blend_epi16(t, s1, 0xF0); /* a b c d */
    s1 = _mm_alignr_epi8(s1, t, 8);    /* e f g h */
    _mm_storeu_si128((__m128i *)&h[0], s0);
    _mm_storeu_si128((__m128i *)&h[4], s1);
}

/* 1: SHA extensions usable, 2: portable; 0: not decided yet. */
static _Atomic int sha_impl;

static bool use_shani(void)
{
    int v = atomic_load_explicit(&sha_impl, memory_order_relaxed);
    if (v == 0) {
        unsigned a, b, c, d;
        bool ok = false;
        const char *off = getenv("CZK_SHA256_NO_SHANI");
        if (!(off && *off && *off != '0') && __get_cpuid_max(0, NULL) >= 7) {
            __cpuid(1, a, b, c, d);
            bool sse = ((c >> 9) & 1) && ((c >> 19) & 1); /* SSSE3, SSE4.1 */
            __cpuid_count(7, 0, a, b, c, d);
            ok = sse && ((b >> 29) & 1); /* SHA */
        }
        v = ok ? 1 : 2;
        atomic_store_explicit(&sha_impl, v, memory_order_relaxed);
    }
    return v == 1;
}
#endif

bool czk_sha256_set_accel(bool on)
{
#ifdef CZK_SHA256_HAVE_SHANI
    if (!on) {
        atomic_store_explicit(&sha_impl, 2, memory_order_relaxed);
        return false;
    }
    atomic_store_explicit(&sha_impl, 0, memory_order_relaxed);
    return use_shani();
#else
    (void)on;
    return false;
#endif
}

static void compress(uint32_t h[8], const uint8_t *p, size_t n)
{
#ifdef CZK_SHA256_HAVE_SHANI
    if (use_shani()) {
        compress_shani(h, p, n);
        return;
    }
#endif
    compress_portable(h, p, n);
}

void czk_sha256_init(struct czk_sha256 *c)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->len = 0;
    c->nbuf = 0;
}

void czk_sha256_update(struct czk_sha256 *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    c->len += n;
    if (c->nbuf > 0) {
        size_t k = 64 - c->nbuf < n ? 64 - c->nbuf : n;
        memcpy(c->buf + c->nbuf, p, k);
        c->nbuf += k;
        p += k;
        n -= k;
        if (c->nbuf < 64)
            return;
        compress(c->h, c->buf, 1);
        c->nbuf = 0;
    }
    if (n >= 64) {
        compress(c->h, p, n / 64);
        p += n & ~(size_t)63;
        n &= 63;
    }
    if (n > 0) {
        memcpy(c->buf, p, n);
        c->nbuf = n;
    }
}

/* FIPS 180-4 5.1.1: 0x80, zeros to 56 mod 64, then the bit length big-endian. */
void czk_sha256_final(struct czk_sha256 *c, uint8_t out[CZK_SHA256_BYTES])
{
    uint64_t bits = c->len * 8;
    uint8_t pad[72] = {0x80};
    size_t np = (c->nbuf < 56 ? 56 : 120) - c->nbuf;
    for (unsigned i = 0; i < 8; i++)
        pad[np + i] = (uint8_t)(bits >> (56 - 8 * i));
    czk_sha256_update(c, pad, np + 8);
    for (unsigned i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->h[i];
    }
    memset(c, 0, sizeof *c);
}

void czk_sha256(uint8_t out[CZK_SHA256_BYTES], const void *data, size_t n)
{
    struct czk_sha256 c;
    czk_sha256_init(&c);
    czk_sha256_update(&c, data, n);
    czk_sha256_final(&c, out);
}

void czk_sha256_hex(char hex[2 * CZK_SHA256_BYTES + 1], const uint8_t d[CZK_SHA256_BYTES])
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < CZK_SHA256_BYTES; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[2 * CZK_SHA256_BYTES] = '\0';
}
