/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU NTT template, instantiated once per scalar field. The including file defines
 * NTT_F (fr_bn254 or fr_bls12_381) and includes this file once; it produces
 * czk_ntt_<F>_tables and czk_ntt_<F>_run of ntt_internal.h and nothing else.
 *
 * Algorithm (forward; the inverse reuses it, see below). n = n1 * n2, the data seen
 * as n1 rows of n2 contiguous elements, a[j1 * n2 + j2]. With k = k1 + n1 * k2,
 *   A_k = sum_j2 w_n2^(j2 k2) * w_n^(j2 k1) * (sum_j1 a[j1 n2 + j2] w_n1^(j1 k1))
 * so the transform is (Bailey's four-step, without the transposes):
 *   1. column phase: an n1-point DIF transform down every column (stride n2), done
 *      on groups of NTT_COLS adjacent columns at a time so that a group's rows share
 *      cache lines and its whole working set (n1 x NTT_COLS elements) stays in L2;
 *      this replaces the lg_n1 large-stride stages of a plain radix-2 transform.
 *      DIF leaves B[k1][c] in row bitrev(k1);
 *   2. row phase: each row r is multiplied by w_n^(c * bitrev(r)) (a cached table in
 *      access order) and transformed by an n2-point DIF in place, in cache;
 *   3. the result sits at bitrev_n1(k1) * n2 + bitrev_n2(k2) = bitrev_n(k), so one
 *      bit-reversal permutation restores natural order.
 * Groups of columns and rows are independent, so both phases run under
 * czk_parallel_for with no synchronisation beyond the phase barrier. Sizes below
 * 2^CZK_NTT_LG_FOURSTEP are one DIF transform (lg_n1 = 0).
 *
 * Butterflies are radix-4 (two DIF stages per pass over the data: 4 products per 4
 * elements, as radix-2, but half the loads and stores), with one trailing radix-2
 * stage when the size is an odd power of two; that stage has only trivial twiddles.
 *
 * Inverse: sum_i A_i w^(-ik) is the forward transform read at index (n - k) mod n,
 * so the inverse runs the forward transform, the bit reversal, then one pass that
 * swaps k <-> n - k while multiplying by n^-1 (and by shift^-k for a coset). The
 * twiddle tables are therefore shared by both directions.
 *
 * Coset shifts: forward multiplies a_j by shift^j before the transform, in parallel
 * chunks that each start from shift^begin (one pow per chunk, then one product per
 * element).
 *
 * Threading: every function here is reentrant; the tables are read-only. Nothing is
 * allocated on the transform path (czk_parallel_for creates its worker threads).
 */
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "czk/czk_ff.h"
#include "ff/ff_consts.h"
#include "ff/ff_cpu.h"
#include "ntt/ntt_internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define NT_CAT_(a, b) a##b
#define NT_CAT(a, b) NT_CAT_(a, b)
#define NT_T struct NT_CAT(czk_, NTT_F)
#define NT_FN(x) NT_CAT(NT_CAT(czk_, NTT_F), _##x)
#define NT_S(x) NT_CAT(NT_CAT(ntt_, NTT_F), _##x)
#define NT_API(x) NT_CAT(NT_CAT(czk_ntt_, NTT_F), _##x)

/* Columns per group in the column phase: 8 elements = 256 bytes = 4 cache lines per row. */
#ifndef NTT_COLS
#define NTT_COLS 8
#endif

_Static_assert(sizeof(NT_T) == 4 * sizeof(uint64_t), "Fr elements are 4 limbs");
/* Four-step sizes have n2 >= 2^(CZK_NTT_LG_FOURSTEP - CZK_NTT_LG_FOURSTEP / 2) columns. */
_Static_assert(NTT_COLS <= (1 << (CZK_NTT_LG_FOURSTEP - CZK_NTT_LG_FOURSTEP / 2)),
               "a column group must fit in a row");

/* ---- field addition ------------------------------------------------------------ */

/*
 * Inline modular addition and subtraction. They compute exactly what czk_F_add and
 * czk_F_sub compute (fully reduced, branch-free in the values, since the transformed
 * polynomials can be secret) but stay in registers inside the butterflies; the
 * out-of-line versions cost as much as a product here. Both moduli are below 2^255,
 * so a + b never carries out of 256 bits.
 */
#if defined(__x86_64__)
#define NT_ADC(c, a, b, r) _addcarry_u64((c), (a), (b), (r))
#define NT_SBB(c, a, b, r) _subborrow_u64((c), (a), (b), (r))
typedef unsigned long long nt_limb;
typedef unsigned char nt_carry;
#else
static inline unsigned NT_S(adc)(unsigned c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned __int128 t = (unsigned __int128)a + b + c;
    *r = (uint64_t)t;
    return (unsigned)(t >> 64);
}
static inline unsigned NT_S(sbb)(unsigned c, uint64_t a, uint64_t b, uint64_t *r)
{
    unsigned __int128 t = (unsigned __int128)a - b - c;
    *r = (uint64_t)t;
    return (unsigned)(t >> 64) & 1;
}
#define NT_ADC(c, a, b, r) NT_S(adc)((c), (a), (b), (r))
#define NT_SBB(c, a, b, r) NT_S(sbb)((c), (a), (b), (r))
typedef uint64_t nt_limb;
typedef unsigned nt_carry;
#endif

static inline void NT_S(add)(NT_T *r, const NT_T *a, const NT_T *b)
{
    static const uint64_t *const p = NTT_C(_P);
    nt_limb t0, t1, t2, t3, d0, d1, d2, d3;
    nt_carry c = NT_ADC(0, a->l[0], b->l[0], &t0);
    c = NT_ADC(c, a->l[1], b->l[1], &t1);
    c = NT_ADC(c, a->l[2], b->l[2], &t2);
    (void)NT_ADC(c, a->l[3], b->l[3], &t3);
    nt_carry br = NT_SBB(0, t0, p[0], &d0);
    br = NT_SBB(br, t1, p[1], &d1);
    br = NT_SBB(br, t2, p[2], &d2);
    br = NT_SBB(br, t3, p[3], &d3);
    uint64_t keep = 0 - (uint64_t)br; /* all ones if a + b < p */
    r->l[0] = (uint64_t)d0 ^ (((uint64_t)t0 ^ (uint64_t)d0) & keep);
    r->l[1] = (uint64_t)d1 ^ (((uint64_t)t1 ^ (uint64_t)d1) & keep);
    r->l[2] = (uint64_t)d2 ^ (((uint64_t)t2 ^ (uint64_t)d2) & keep);
    r->l[3] = (uint64_t)d3 ^ (((uint64_t)t3 ^ (uint64_t)d3) & keep);
}

static inline void NT_S(sub)(NT_T *r, const NT_T *a, const NT_T *b)
{
    static const uint64_t *const p = NTT_C(_P);
    nt_limb t0, t1, t2, t3, r0, r1, r2, r3;
    nt_carry br = NT_SBB(0, a->l[0], b->l[0], &t0);
    br = NT_SBB(br, a->l[1], b->l[1], &t1);
    br = NT_SBB(br, a->l[2], b->l[2], &t2);
    br = NT_SBB(br, a->l[3], b->l[3], &t3);
    uint64_t mask = 0 - (uint64_t)br; /* add p back if a < b */
    nt_carry c = NT_ADC(0, t0, p[0] & mask, &r0);
    c = NT_ADC(c, t1, p[1] & mask, &r1);
    c = NT_ADC(c, t2, p[2] & mask, &r2);
    (void)NT_ADC(c, t3, p[3] & mask, &r3);
    r->l[0] = r0;
    r->l[1] = r1;
    r->l[2] = r2;
    r->l[3] = r3;
}

/*
 * r = a * b (Montgomery). On x86-64 with ADX this calls the field's mulx/adcx/adox
 * kernel directly, saving the dispatch call of czk_F_mul (the products are most of the
 * transform's time); otherwise czk_F_mul.
 */
static inline void NT_S(mul)(NT_T *r, const NT_T *a, const NT_T *b)
{
#if CZK_FF_HAVE_ASM
    if (__builtin_expect(czk_ff_have_adx, 1)) {
        NT_CAT(NT_CAT(czk_ff_, NTT_F), _mul_adx)(r->l, a->l, b->l);
        return;
    }
#endif
    NT_FN(mul)(r, a, b);
}

/* ---- butterflies ------------------------------------------------------------- */

/* (x, y) <- (x + y, x - y). */
static inline void NT_S(bf2)(NT_T *x, NT_T *y)
{
    NT_T u = *x;
    NT_S(add)(x, &u, y);
    NT_S(sub)(y, &u, y);
}

/*
 * Two DIF stages on (x0, x1, x2, x3) = a[j], a[j+q], a[j+2q], a[j+3q] of a block of
 * 4q with w = w_4q: with t1 = x0 - x2 and t3 = i (x1 - x3), i = w^q = w_4,
 *   x0 <- (x0 + x2) + (x1 + x3)          x1 <- ((x0 + x2) - (x1 + x3)) w^2j
 *   x2 <- (t1 + t3) w^j                  x3 <- (t1 - t3) w^3j
 * which is exactly what the two radix-2 stages of half sizes 2q and q produce.
 */
static inline void NT_S(bf4)(NT_T *x0, NT_T *x1, NT_T *x2, NT_T *x3, const NT_T *im, const NT_T *w1,
                             const NT_T *w2, const NT_T *w3)
{
    NT_T t0, t1, t2, t3;
    NT_S(add)(&t0, x0, x2);
    NT_S(sub)(&t1, x0, x2);
    NT_S(add)(&t2, x1, x3);
    NT_S(sub)(&t3, x1, x3);
    NT_S(mul)(&t3, &t3, im);
    NT_S(add)(x0, &t0, &t2);
    NT_S(sub)(x1, &t0, &t2);
    NT_S(add)(x2, &t1, &t3);
    NT_S(sub)(x3, &t1, &t3);
    if (w1) {
        NT_S(mul)(x1, x1, w2);
        NT_S(mul)(x2, x2, w1);
        NT_S(mul)(x3, x3, w3);
    }
}

/*
 * In-place DIF transform of size m = 2^lg_m on nc interleaved sequences: element i of
 * sequence c is a[i * rs + c]. tw holds w_m^j for j < m. Output in bit-reversed order.
 */
static inline __attribute__((always_inline)) void NT_S(dif)(NT_T *a, size_t rs, size_t nc,
                                                            unsigned lg_m, const NT_T *tw)
{
    size_t m = (size_t)1 << lg_m;
    unsigned left = lg_m;
    size_t blk = m;
    for (; left >= 2; left -= 2, blk >>= 2) {
        const NT_T *im = &tw[m / 4];
        size_t q = blk >> 2, ts = m / blk;
        for (size_t b = 0; b < m; b += blk) {
            for (size_t j = 0; j < q; j++) {
                NT_T *p0 = a + (b + j) * rs, *p1 = p0 + q * rs, *p2 = p1 + q * rs;
                NT_T *p3 = p2 + q * rs;
                const NT_T *w1 = j ? &tw[j * ts] : NULL;
                const NT_T *w2 = &tw[2 * j * ts], *w3 = &tw[3 * j * ts];
                for (size_t c = 0; c < nc; c++)
                    NT_S(bf4)(p0 + c, p1 + c, p2 + c, p3 + c, im, w1, w2, w3);
            }
        }
    }
    if (left == 1) {
        for (size_t b = 0; b < m; b += 2) {
            NT_T *p0 = a + b * rs, *p1 = p0 + rs;
            for (size_t c = 0; c < nc; c++)
                NT_S(bf2)(p0 + c, p1 + c);
        }
    }
}

/* dif specialised for one contiguous sequence (rows, small sizes) ... */
static void NT_S(dif_row)(NT_T *a, unsigned lg_m, const NT_T *tw) { NT_S(dif)(a, 1, 1, lg_m, tw); }

/* ... and for NTT_COLS interleaved sequences (column groups), so that the column loop
 * has a constant trip count. */
static void NT_S(dif_cols)(NT_T *a, size_t rs, unsigned lg_m, const NT_T *tw)
{
    NT_S(dif)(a, rs, NTT_COLS, lg_m, tw);
}

/* ---- tables -------------------------------------------------------------------- */

/* t[j] = w^j for j < m. */
static void NT_S(powers)(NT_T *t, size_t m, const NT_T *w)
{
    NT_FN(one)(&t[0]);
    for (size_t j = 1; j < m; j++)
        NT_S(mul)(&t[j], &t[j - 1], w);
}

struct NT_S(tw2d_ctx) {
    NT_T *tw2d;
    const NT_T *w; /* w_n */
    unsigned lg_n1, lg_n2;
};

static void NT_S(tw2d_rows)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct NT_S(tw2d_ctx) *ctx = vctx;
    size_t n2 = (size_t)1 << ctx->lg_n2;
    for (size_t r = begin; r < end; r++) {
        uint64_t e = czk_ntt_bitrev(r, ctx->lg_n1);
        NT_T base;
        NT_FN(pow)(&base, ctx->w, &e, 1);
        NT_S(powers)(ctx->tw2d + r * n2, n2, &base);
    }
}

enum czk_status NT_API(tables)(struct czk_ntt_tables *t, unsigned lg_n,
                               enum czk_ntt_convention conv, unsigned threads)
{
    memset(t, 0, sizeof *t);
    unsigned lg_n1 = lg_n >= CZK_NTT_LG_FOURSTEP ? lg_n / 2 : 0;
    unsigned lg_n2 = lg_n - lg_n1;
    size_t n1 = (size_t)1 << lg_n1, n2 = (size_t)1 << lg_n2;
    size_t n = n1 * n2;
    size_t count = n2 + (n1 > 1 ? n1 + n : 0);
    size_t bytes = (count * sizeof(NT_T) + 63) & ~(size_t)63;
    NT_T *mem = aligned_alloc(64, bytes);
    if (!mem)
        return CZK_ERR_NOMEM;
    t->lg_n = lg_n;
    t->lg_n1 = lg_n1;
    t->lg_n2 = lg_n2;
    t->mem = mem;

    NT_T w, w1, w2;
    if (NT_FN(root_of_unity)(&w, lg_n, conv) != CZK_OK ||
        NT_FN(root_of_unity)(&w1, lg_n1, conv) != CZK_OK ||
        NT_FN(root_of_unity)(&w2, lg_n2, conv) != CZK_OK) {
        free(mem);
        memset(t, 0, sizeof *t);
        return CZK_ERR_INVALID_ARG;
    }
    NT_T *tw2 = mem;
    NT_S(powers)(tw2, n2, &w2);
    t->tw2 = (uint64_t(*)[4])tw2;
    if (n1 > 1) {
        NT_T *tw1 = mem + n2, *tw2d = tw1 + n1;
        NT_S(powers)(tw1, n1, &w1);
        struct NT_S(tw2d_ctx) ctx = {tw2d, &w, lg_n1, lg_n2};
        unsigned th = lg_n < CZK_NTT_LG_PARALLEL ? 1 : threads;
        czk_parallel_for(n1, 1, th, NT_S(tw2d_rows), &ctx);
        t->tw1 = (uint64_t(*)[4])tw1;
        t->tw2d = (uint64_t(*)[4])tw2d;
    }
    NT_T ninv;
    NT_FN(from_u64)(&ninv, (uint64_t)n);
    NT_FN(inv_vartime)(&ninv, &ninv);
    memcpy(t->ninv, ninv.l, sizeof t->ninv);
    return CZK_OK;
}

/* ---- transform passes ------------------------------------------------------------ */

struct NT_S(pass) {
    NT_T *a;
    const struct czk_ntt_tables *t;
    NT_T s, sinv, ninv; /* shift, shift^-1 (coset only), n^-1 */
    int coset;
};

/* a_j *= s^j over [begin, end). */
static void NT_S(shift_chunk)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct NT_S(pass) *p = vctx;
    NT_T x;
    uint64_t e = begin;
    NT_FN(pow)(&x, &p->s, &e, 1);
    for (size_t j = begin; j < end; j++) {
        NT_S(mul)(&p->a[j], &p->a[j], &x);
        NT_S(mul)(&x, &x, &p->s);
    }
}

static void NT_S(col_groups)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct NT_S(pass) *p = vctx;
    const struct czk_ntt_tables *t = p->t;
    size_t n2 = (size_t)1 << t->lg_n2;
    for (size_t g = begin; g < end; g++)
        NT_S(dif_cols)(p->a + g * NTT_COLS, n2, t->lg_n1, (const NT_T *)t->tw1);
}

static void NT_S(rows)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct NT_S(pass) *p = vctx;
    const struct czk_ntt_tables *t = p->t;
    size_t n2 = (size_t)1 << t->lg_n2;
    const NT_T *tw2d = (const NT_T *)t->tw2d;
    for (size_t r = begin; r < end; r++) {
        NT_T *row = p->a + r * n2;
        if (r) {
            const NT_T *tr = tw2d + r * n2;
            for (size_t c = 1; c < n2; c++)
                NT_S(mul)(&row[c], &row[c], &tr[c]);
        }
        NT_S(dif_row)(row, t->lg_n2, (const NT_T *)t->tw2);
    }
}

static void NT_S(bitrev_chunk)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct NT_S(pass) *p = vctx;
    unsigned lg_n = p->t->lg_n;
    for (size_t i = begin; i < end; i++) {
        size_t j = czk_ntt_bitrev(i, lg_n);
        if (i < j) {
            NT_T u = p->a[i];
            p->a[i] = p->a[j];
            p->a[j] = u;
        }
    }
}

/*
 * Inverse finish over k in [begin, end) of [0, n/2]: a[k] <- a[n-k] f_k and
 * a[n-k] <- a[k] f_(n-k) with f_k = n^-1 shift^-k (f_k = n^-1 without a coset).
 */
static void NT_S(unreverse_chunk)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    struct NT_S(pass) *p = vctx;
    size_t n = (size_t)1 << p->t->lg_n, half = n >> 1;
    NT_T *a = p->a;
    NT_T f = p->ninv, g = p->ninv; /* f_k and f_(n-k) */
    if (p->coset) {
        uint64_t e = begin;
        NT_FN(pow)(&f, &p->sinv, &e, 1);
        e = n - begin;
        NT_FN(pow)(&g, &p->sinv, &e, 1);
        NT_S(mul)(&f, &f, &p->ninv);
        NT_S(mul)(&g, &g, &p->ninv);
    }
    for (size_t k = begin; k < end; k++) {
        if (k == 0 || k == half) {
            NT_S(mul)(&a[k], &a[k], &f);
        } else {
            NT_T x = a[k];
            NT_S(mul)(&a[k], &a[n - k], &f);
            NT_S(mul)(&a[n - k], &x, &g);
        }
        if (p->coset) {
            NT_S(mul)(&f, &f, &p->sinv);
            NT_S(mul)(&g, &g, &p->s);
        }
    }
}

void NT_API(run)(const struct czk_ntt_tables *t, uint64_t (*data)[4], enum czk_ntt_dir dir,
                 const uint64_t shift[4], unsigned threads)
{
    size_t n1 = (size_t)1 << t->lg_n1, n2 = (size_t)1 << t->lg_n2, n = n1 * n2;
    if (t->lg_n < CZK_NTT_LG_PARALLEL)
        threads = 1;
    struct NT_S(pass) p = {.a = (NT_T *)data, .t = t, .coset = shift != NULL};
    memcpy(p.ninv.l, t->ninv, sizeof p.ninv.l);
    if (shift) {
        memcpy(p.s.l, shift, sizeof p.s.l);
        NT_FN(inv_vartime)(&p.sinv, &p.s);
    }
    if (shift && dir == CZK_NTT_FORWARD)
        czk_parallel_for(n, 4096, threads, NT_S(shift_chunk), &p);

    if (n1 == 1) {
        NT_S(dif_row)(p.a, t->lg_n, (const NT_T *)t->tw2);
    } else {
        czk_parallel_for(n2 / NTT_COLS, 1, threads, NT_S(col_groups), &p);
        czk_parallel_for(n1, 1, threads, NT_S(rows), &p);
    }
    czk_parallel_for(n, 4096, threads, NT_S(bitrev_chunk), &p);

    if (dir == CZK_NTT_INVERSE)
        czk_parallel_for(n / 2 + 1, 2048, threads, NT_S(unreverse_chunk), &p);
}

#undef NT_CAT_
#undef NT_CAT
#undef NT_T
#undef NT_FN
#undef NT_S
#undef NT_API
