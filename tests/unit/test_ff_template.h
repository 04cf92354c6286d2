/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Template of the GMP cross-check suite for one prime field of czk_ff.h (and, where the
 * including file asks for it, the field's Fp2 extension or its NTT constants).
 *
 * A suite file defines the field and includes this header once:
 *   TF_NAME   field name as in the API (fp_bn254, ...)       TF_N      limb count
 *   TF_P      the modulus as a string for mpz_set_str base 0 (hardcoded, not czk_F_modulus)
 *   TF_FP2    optional: name of the quadratic extension over this field; TF_XI0 is c0 of
 *             its non-residue xi = TF_XI0 + u
 *   TF_FR_S   optional: two-adicity of this scalar field; TF_BELLMAN_G is the bellman
 *             generator (7 on BLS12-381, 5 on BN254), TF_COSET the documented coset generator
 *
 * The oracle never goes through the library's own conversions: elements are built by writing
 * v*R mod p (R = 2^(64N)) straight into the limbs of the struct and read back by multiplying
 * the raw limbs with R^-1 in GMP, as czk_ff.h documents the representation. Every result is
 * therefore checked bit for bit, which also catches results that are correct modulo p but not
 * fully reduced. Random inputs carry a biased share of edge values (0, 1, 2, p-1, p-2, the
 * halves, small values, all-ones limbs, values near p, values whose Montgomery form is an edge
 * value) because that is where carry and reduction bugs live. Outputs are given one of the
 * documented aliasing patterns at random. On a failure the operation, its inputs and the
 * expected and actual values are printed; the seed line at the start replays the run.
 */
#include <ctype.h>
#include <gmp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk_ff.h"
#include "test_util.h"

#define TF_PASTE3_(a, b, c) a##b##c
#define TF_PASTE3(a, b, c) TF_PASTE3_(a, b, c)
#define TF_STRUCT_(f) struct czk_##f
#define TF_STRUCT(f) TF_STRUCT_(f)
#define TF_STR_(x) #x
#define TF_STR(x) TF_STR_(x)

/* FN(add) is czk_<field>_add. */
#define FN(op) TF_PASTE3(czk_, TF_NAME, _##op)
#define NL TF_N
#define NBYTES (8 * NL)

typedef TF_STRUCT(TF_NAME) fe;

_Static_assert(sizeof(fe) == 8 * NL, "element must be exactly N limbs");

/* ---- oracle state ------------------------------------------------------------------------ */

static mpz_t P;     /* the hardcoded modulus                    */
static mpz_t RM;    /* R mod p                                  */
static mpz_t RINV;  /* R^-1 mod p                               */
static mpz_t HALF;  /* (p-1)/2                                  */
static mpz_t INV2;  /* 2^-1 mod p                               */
static mpz_t TOP;   /* 2^(64N), one past the largest limb value */
static mpz_t S1;    /* scratch of the element helpers only      */
static mpz_t S2a, S2b; /* scratch of the Fp2 model only        */
static size_t PBITS;

/* What is being checked, printed when a check fails. */
static const char *ctx_op;
static mpz_srcptr ctx_in[4];
static int ctx_mode;

static void ctx(const char *op, mpz_srcptr a, mpz_srcptr b, mpz_srcptr c, mpz_srcptr d)
{
    ctx_op = op;
    ctx_in[0] = a;
    ctx_in[1] = b;
    ctx_in[2] = c;
    ctx_in[3] = d;
    ctx_mode = -1;
}

static void ctx_dump(void)
{
    fprintf(stderr, "[%s] %s failed", TF_STR(TF_NAME), ctx_op ? ctx_op : "?");
    if (ctx_mode >= 0)
        fprintf(stderr, " (alias mode %d)", ctx_mode);
    for (int i = 0; i < 4; i++)
        if (ctx_in[i])
            gmp_fprintf(stderr, "\n  in%d = 0x%Zx", i, ctx_in[i]);
    fputc('\n', stderr);
}

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            ctx_dump();                                                                            \
            gmp_fprintf(stderr, "  " __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                                   \
            fail();                                                                                \
        }                                                                                          \
    } while (0)

/* ---- random numbers ---------------------------------------------------------------------- */

static uint64_t rnd(void) { return czk_test_rand64(); }

static unsigned rndn(unsigned n) { return (unsigned)(czk_test_rand64() % n); }

static void limbs_get(mpz_t z, const uint64_t *l, size_t n)
{
    mpz_import(z, n, -1, sizeof *l, 0, 0, l);
}

static void limbs_set(uint64_t *l, size_t n, const mpz_t z)
{
    size_t cnt = 0;
    CHECK(mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= 64 * n, "oracle value 0x%Zx exceeds %zu limbs",
          z, n);
    memset(l, 0, n * sizeof *l);
    mpz_export(l, &cnt, -1, sizeof *l, 0, 0, z);
}

static void rand_bits(mpz_t v, size_t bits)
{
    uint64_t l[9] = {0};
    size_t n = (bits + 63) / 64;
    for (size_t i = 0; i < n; i++)
        l[i] = rnd();
    if (bits % 64)
        l[n - 1] &= (UINT64_C(1) << (bits % 64)) - 1;
    limbs_get(v, l, n ? n : 1);
}

static void rand_uniform(mpz_t v)
{
    do {
        rand_bits(v, PBITS);
    } while (mpz_cmp(v, P) >= 0);
}

/* A value in [0, p), about 3/8 of the time an edge value. */
static void rand_value(mpz_t v)
{
    uint64_t l[NL];
    switch (rndn(40)) {
    case 0:
        mpz_set_ui(v, 0);
        break;
    case 1:
        mpz_set_ui(v, 1);
        break;
    case 2:
        mpz_set_ui(v, 2);
        break;
    case 3:
        mpz_sub_ui(v, P, 1);
        break;
    case 4:
        mpz_sub_ui(v, P, 2);
        break;
    case 5:
        mpz_set(v, HALF);
        break;
    case 6:
        mpz_add_ui(v, HALF, 1);
        break;
    case 7:
        mpz_set_ui(v, (unsigned long)(rnd() & 0xffff));
        break;
    case 8: /* one full limb */
        l[0] = rnd();
        limbs_get(v, l, 1);
        break;
    case 9:
        mpz_sub_ui(v, P, 1 + (unsigned long)(rnd() & 0xffff));
        break;
    case 10: /* p - 1 - (up to 128 random bits) */
        rand_bits(v, 1 + rndn(128));
        mpz_sub(v, P, v);
        mpz_sub_ui(v, v, 1);
        break;
    case 11: /* all-ones limbs below p */
        if (rndn(2)) {
            mpz_set_ui(v, 0);
            mpz_setbit(v, 64 * (1 + rndn(NL - 1)));
            mpz_sub_ui(v, v, 1);
        } else {
            /* The top limb below p's keeps the value below p whatever the others are. */
            uint64_t pt[NL];
            limbs_set(pt, NL, P);
            for (size_t i = 0; i + 1 < NL; i++)
                l[i] = rndn(2) ? ~UINT64_C(0) : rnd();
            l[NL - 1] = rnd() % pt[NL - 1];
            limbs_get(v, l, NL);
        }
        break;
    case 12: /* Montgomery form is an edge value: raw limbs small, near p, or all ones */
        switch (rndn(3)) {
        case 0:
            mpz_set_ui(v, 1 + (unsigned long)(rnd() & 0xff));
            break;
        case 1:
            mpz_sub_ui(v, P, 1 + (unsigned long)(rnd() & 0xff));
            break;
        default:
            mpz_set_ui(v, 0);
            mpz_setbit(v, 64 * (1 + rndn(NL - 1)));
            mpz_sub_ui(v, v, 1);
            break;
        }
        mpz_mul(v, v, RINV);
        mpz_mod(v, v, P);
        break;
    case 13: /* a power of two; 2^(bits-1) < p as p is not a power of two */
        mpz_set_ui(v, 0);
        mpz_setbit(v, rndn((unsigned)PBITS));
        break;
    case 14: /* around (p-1)/2 */
        if (rndn(2))
            mpz_add_ui(v, HALF, 1 + (unsigned long)(rnd() & 0xff));
        else
            mpz_sub_ui(v, HALF, 1 + (unsigned long)(rnd() & 0xff));
        break;
    default:
        rand_uniform(v);
        break;
    }
}

/* A value in [p, 2^(64N)): what every parser must reject with CZK_ERR_RANGE. */
static void rand_over(mpz_t v)
{
    switch (rndn(7)) {
    case 0:
        mpz_set(v, P);
        break;
    case 1:
        mpz_add_ui(v, P, 1);
        break;
    case 2:
        mpz_add_ui(v, P, 2 + (unsigned long)(rnd() & 0xffff));
        break;
    case 3:
        mpz_sub_ui(v, TOP, 1);
        break;
    case 4:
        mpz_sub_ui(v, TOP, 1 + (unsigned long)(rnd() & 0xffff));
        break;
    case 5:
        mpz_mul_2exp(v, P, 1);
        mpz_sub_ui(v, v, 1);
        if (mpz_cmp(v, TOP) >= 0)
            mpz_add_ui(v, P, 3);
        break;
    default:
        do {
            rand_bits(v, 64 * NL);
        } while (mpz_cmp(v, P) < 0);
        break;
    }
}

/* Exponent of 1..8 random limbs (zero and all-ones limbs favoured), or an edge exponent. */
static size_t rand_exp(uint64_t e[8], mpz_t ez)
{
    size_t n = 1 + rndn(8);
    if (rndn(8) == 0) {
        switch (rndn(6)) {
        case 0:
            mpz_set_ui(ez, rndn(3)); /* 0, 1, 2 */
            break;
        case 1:
            mpz_sub_ui(ez, P, 1);
            break;
        case 2:
            mpz_sub_ui(ez, P, 2);
            break;
        case 3:
            mpz_set(ez, HALF);
            break;
        case 4:
            mpz_add_ui(ez, P, 1);
            mpz_fdiv_q_2exp(ez, ez, 2);
            break;
        default:
            mpz_sub_ui(ez, TOP, 1);
            break;
        }
        n = NL + rndn(8 - NL + 1); /* extra zero limbs on top */
        limbs_set(e, n, ez);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned k = rndn(8);
        e[i] = k == 0 ? 0 : k == 1 ? ~UINT64_C(0) : rnd();
    }
    limbs_get(ez, e, n);
    return n;
}

static void fill_junk(void *p, size_t n) { czk_test_rand_bytes(p, n); }

/* ---- elements ---------------------------------------------------------------------------- */

/* r = the element of value v (< p), Montgomery limbs written directly. */
static void el_set(fe *r, const mpz_t v)
{
    mpz_mul(S1, v, RM);
    mpz_mod(S1, S1, P);
    limbs_set(r->l, NL, S1);
}

/* v = value of a; the raw limbs must be fully reduced. */
static void el_get(mpz_t v, const fe *a)
{
    limbs_get(S1, a->l, NL);
    CHECK(mpz_cmp(S1, P) < 0, "result not fully reduced: raw limbs 0x%Zx >= p", S1);
    mpz_mul(v, S1, RINV);
    mpz_mod(v, v, P);
}

static void expect_el(const fe *got, const mpz_t want, const char *what)
{
    fe w;
    el_set(&w, want);
    if (memcmp(got, &w, sizeof w) != 0) {
        mpz_t g;
        mpz_init(g);
        limbs_get(g, got->l, NL);
        if (mpz_cmp(g, P) < 0) {
            mpz_mul(g, g, RINV);
            mpz_mod(g, g, P);
            CHECK(0, "%s: want 0x%Zx, got 0x%Zx", what, want, g);
        }
        CHECK(0, "%s: want 0x%Zx, got unreduced raw limbs 0x%Zx", what, want, g);
    }
}

/* Aliasing patterns: 0 r distinct, 1 r == a, 2 r == b, 3 r == a == b (caller made x == y). */
#define DEFINE_RUNNERS(T, sfx)                                                                     \
    static void run_bin_##sfx(void (*op)(T *, const T *, const T *), const T *x, const T *y,      \
                              unsigned mode, T *out)                                               \
    {                                                                                              \
        T a = *x, b = *y;                                                                          \
        ctx_mode = (int)mode;                                                                      \
        switch (mode) {                                                                            \
        case 0:                                                                                    \
            fill_junk(out, sizeof *out);                                                           \
            op(out, &a, &b);                                                                       \
            CHECK(!memcmp(&a, x, sizeof a) && !memcmp(&b, y, sizeof b), "const input modified");   \
            break;                                                                                 \
        case 1:                                                                                    \
            op(&a, &a, &b);                                                                        \
            *out = a;                                                                              \
            CHECK(!memcmp(&b, y, sizeof b), "const input modified");                               \
            break;                                                                                 \
        case 2:                                                                                    \
            op(&b, &a, &b);                                                                        \
            *out = b;                                                                              \
            CHECK(!memcmp(&a, x, sizeof a), "const input modified");                               \
            break;                                                                                 \
        default:                                                                                   \
            op(&a, &a, &a);                                                                        \
            *out = a;                                                                              \
            break;                                                                                 \
        }                                                                                          \
    }                                                                                              \
    static void run_un_##sfx(void (*op)(T *, const T *), const T *x, unsigned mode, T *out)        \
    {                                                                                              \
        T a = *x;                                                                                  \
        ctx_mode = (int)mode;                                                                      \
        if (mode == 0) {                                                                           \
            fill_junk(out, sizeof *out);                                                           \
            op(out, &a);                                                                           \
            CHECK(!memcmp(&a, x, sizeof a), "const input modified");                               \
        } else {                                                                                   \
            op(&a, &a);                                                                            \
            *out = a;                                                                              \
        }                                                                                          \
    }

DEFINE_RUNNERS(fe, fe)

/* ---- setup ------------------------------------------------------------------------------- */

static size_t n_cases;

static int group_setup(void **state)
{
    (void)state;
    mpz_inits(P, RM, RINV, HALF, INV2, TOP, S1, S2a, S2b, NULL);
    if (mpz_set_str(P, TF_P, 0) != 0)
        return -1;
    PBITS = mpz_sizeinbase(P, 2);
    mpz_setbit(TOP, 64 * NL);
    mpz_mod(RM, TOP, P);
    mpz_invert(RINV, RM, P);
    mpz_sub_ui(HALF, P, 1);
    mpz_fdiv_q_2exp(HALF, HALF, 1);
    mpz_set_ui(INV2, 2);
    mpz_invert(INV2, INV2, P);
    n_cases = czk_test_cases(10000);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    mpz_clears(P, RM, RINV, HALF, INV2, TOP, S1, S2a, S2b, NULL);
    return 0;
}

/* ---- constants ---------------------------------------------------------------------------- */

static void test_constants(void **state)
{
    (void)state;
    mpz_t m, v;
    mpz_inits(m, v, NULL);
    ctx("modulus", NULL, NULL, NULL, NULL);
    limbs_get(m, FN(modulus)(), NL);
    CHECK(mpz_cmp(m, P) == 0, "czk modulus 0x%Zx != known prime 0x%Zx", m, P);
    CHECK(mpz_probab_prime_p(P, 30) > 0, "hardcoded modulus is not prime");

    fe r;
    fill_junk(&r, sizeof r);
    FN(zero)(&r);
    mpz_set_ui(v, 0);
    ctx("zero", NULL, NULL, NULL, NULL);
    expect_el(&r, v, "zero");
    fill_junk(&r, sizeof r);
    FN(one)(&r);
    mpz_set_ui(v, 1);
    ctx("one", NULL, NULL, NULL, NULL);
    expect_el(&r, v, "one");

    for (size_t i = 0; i < n_cases; i++) {
        uint64_t u;
        switch (rndn(8)) {
        case 0:
            u = rndn(4);
            break;
        case 1:
            u = ~UINT64_C(0) - rndn(4);
            break;
        case 2:
            u = rnd() & 0xffffffff;
            break;
        default:
            u = rnd();
            break;
        }
        limbs_get(v, &u, 1);
        mpz_mod(v, v, P);
        ctx("from_u64", v, NULL, NULL, NULL);
        fill_junk(&r, sizeof r);
        FN(from_u64)(&r, u);
        expect_el(&r, v, "from_u64");
    }
    mpz_clears(m, v, NULL);
}

/* ---- add, sub, neg, dbl, half ------------------------------------------------------------- */

static void test_add_sub(void **state)
{
    (void)state;
    mpz_t a, b, w;
    mpz_inits(a, b, w, NULL);
    for (size_t i = 0; i < n_cases; i++) {
        fe x, y, r;
        unsigned mode = rndn(4);
        rand_value(a);
        rand_value(b);
        if (mode == 3)
            mpz_set(b, a);
        el_set(&x, a);
        el_set(&y, b);

        ctx("add", a, b, NULL, NULL);
        run_bin_fe(FN(add), &x, &y, mode, &r);
        mpz_add(w, a, b);
        mpz_mod(w, w, P);
        expect_el(&r, w, "add");

        ctx("sub", a, b, NULL, NULL);
        run_bin_fe(FN(sub), &x, &y, mode, &r);
        mpz_sub(w, a, b);
        mpz_mod(w, w, P);
        expect_el(&r, w, "sub");

        mode = rndn(2);
        ctx("neg", a, NULL, NULL, NULL);
        run_un_fe(FN(neg), &x, mode, &r);
        mpz_neg(w, a);
        mpz_mod(w, w, P);
        expect_el(&r, w, "neg");

        ctx("dbl", a, NULL, NULL, NULL);
        run_un_fe(FN(dbl), &x, mode, &r);
        mpz_mul_2exp(w, a, 1);
        mpz_mod(w, w, P);
        expect_el(&r, w, "dbl");

        ctx("half", a, NULL, NULL, NULL);
        run_un_fe(FN(half), &x, mode, &r);
        mpz_mul(w, a, INV2);
        mpz_mod(w, w, P);
        expect_el(&r, w, "half");
    }
    mpz_clears(a, b, w, NULL);
}

/* ---- mul, sqr ------------------------------------------------------------------------------ */

static void test_mul_sqr(void **state)
{
    (void)state;
    mpz_t a, b, w;
    mpz_inits(a, b, w, NULL);
    for (size_t i = 0; i < n_cases; i++) {
        fe x, y, r;
        unsigned mode = rndn(4);
        rand_value(a);
        rand_value(b);
        if (mode == 3)
            mpz_set(b, a);
        el_set(&x, a);
        el_set(&y, b);

        ctx("mul", a, b, NULL, NULL);
        run_bin_fe(FN(mul), &x, &y, mode, &r);
        mpz_mul(w, a, b);
        mpz_mod(w, w, P);
        expect_el(&r, w, "mul");

        ctx("sqr", a, NULL, NULL, NULL);
        run_un_fe(FN(sqr), &x, rndn(2), &r);
        mpz_mul(w, a, a);
        mpz_mod(w, w, P);
        expect_el(&r, w, "sqr");
    }
    mpz_clears(a, b, w, NULL);
}

/* ---- inv, inv_vartime ---------------------------------------------------------------------- */

static void test_inv(void **state)
{
    (void)state;
    mpz_t a, w;
    mpz_inits(a, w, NULL);
    for (size_t i = 0; i < n_cases; i++) {
        fe x, r;
        if (i == 0)
            mpz_set_ui(a, 0);
        else
            rand_value(a);
        el_set(&x, a);
        if (mpz_sgn(a) == 0)
            mpz_set_ui(w, 0); /* documented: inv(0) = 0 */
        else
            CHECK(mpz_invert(w, a, P) != 0, "oracle: no inverse");

        ctx("inv", a, NULL, NULL, NULL);
        run_un_fe(FN(inv), &x, rndn(2), &r);
        expect_el(&r, w, "inv");

        ctx("inv_vartime", a, NULL, NULL, NULL);
        run_un_fe(FN(inv_vartime), &x, rndn(2), &r);
        expect_el(&r, w, "inv_vartime");
    }
    mpz_clears(a, w, NULL);
}

/* ---- pow ----------------------------------------------------------------------------------- */

static void test_pow(void **state)
{
    (void)state;
    mpz_t a, ez, w;
    mpz_inits(a, ez, w, NULL);
    for (size_t i = 0; i < n_cases; i++) {
        uint64_t e[8], e0[8];
        fe x, r;
        size_t n = rand_exp(e, ez);
        memcpy(e0, e, sizeof e);
        rand_value(a);
        el_set(&x, a);
        mpz_powm(w, a, ez, P); /* 0^0 = 1 */
        ctx("pow", a, ez, NULL, NULL);
        if (rndn(2)) {
            ctx_mode = 0;
            fill_junk(&r, sizeof r);
            fe x0 = x;
            FN(pow)(&r, &x, e, n);
            CHECK(!memcmp(&x, &x0, sizeof x), "const input modified");
        } else {
            ctx_mode = 1;
            r = x;
            FN(pow)(&r, &r, e, n);
        }
        CHECK(!memcmp(e, e0, n * sizeof *e), "exponent modified");
        expect_el(&r, w, "pow");
    }
    mpz_clears(a, ez, w, NULL);
}

/* ---- legendre, sqrt ------------------------------------------------------------------------ */

static void test_legendre_sqrt(void **state)
{
    (void)state;
    mpz_t a, w, g;
    mpz_inits(a, w, g, NULL);
    size_t nonres = 0, res = 0;
    for (size_t i = 0; i < n_cases; i++) {
        fe x, r, junk;
        rand_value(a);
        if (rndn(2)) { /* make sure the root branch is well exercised */
            mpz_mul(a, a, a);
            mpz_mod(a, a, P);
        }
        el_set(&x, a);
        int leg = mpz_legendre(a, P);

        ctx("legendre", a, NULL, NULL, NULL);
        int got = FN(legendre)(&x);
        CHECK(got == leg, "legendre: want %d, got %d", leg, got);

        ctx("sqrt", a, NULL, NULL, NULL);
        bool ok;
        fill_junk(&junk, sizeof junk);
        if (rndn(2)) {
            ctx_mode = 0;
            r = junk;
            ok = FN(sqrt)(&r, &x);
            el_get(w, &x);
            CHECK(mpz_cmp(w, a) == 0, "const input modified");
        } else {
            ctx_mode = 1;
            r = x;
            junk = x;
            ok = FN(sqrt)(&r, &r);
        }
        if (leg >= 0) {
            res++;
            CHECK(ok, "sqrt returned false for a square");
            el_get(g, &r);
            mpz_mul(w, g, g);
            mpz_mod(w, w, P);
            CHECK(mpz_cmp(w, a) == 0, "sqrt: root 0x%Zx squares to 0x%Zx", g, w);
        } else {
            nonres++;
            CHECK(!ok, "sqrt returned true for a non-residue");
            CHECK(!memcmp(&r, &junk, sizeof r), "sqrt wrote its output on failure");
        }
    }
    /* Both branches must have been reached, or the test proves nothing. */
    ctx("sqrt coverage", NULL, NULL, NULL, NULL);
    CHECK(n_cases < 100 || (nonres > n_cases / 10 && res > n_cases / 10), "res=%zu nonres=%zu",
          res, nonres);
    mpz_clears(a, w, g, NULL);
}

/* ---- predicates and cmov ------------------------------------------------------------------- */

static void test_predicates(void **state)
{
    (void)state;
    mpz_t a, b, w;
    mpz_inits(a, b, w, NULL);
    for (size_t i = 0; i < n_cases; i++) {
        fe x, y, r;
        rand_value(a);
        switch (rndn(3)) {
        case 0:
            mpz_set(b, a);
            break;
        case 1:
            mpz_add_ui(b, a, 1);
            mpz_mod(b, b, P);
            break;
        default:
            rand_value(b);
            break;
        }
        el_set(&x, a);
        el_set(&y, b);

        ctx("is_odd", a, NULL, NULL, NULL);
        CHECK(FN(is_odd)(&x) == (mpz_odd_p(a) != 0), "is_odd");
        ctx("gt_half", a, NULL, NULL, NULL);
        CHECK(FN(gt_half)(&x) == (mpz_cmp(a, HALF) > 0), "gt_half");
        ctx("is_zero", a, NULL, NULL, NULL);
        CHECK(FN(is_zero)(&x) == (mpz_sgn(a) == 0), "is_zero");
        ctx("is_one", a, NULL, NULL, NULL);
        CHECK(FN(is_one)(&x) == (mpz_cmp_ui(a, 1) == 0), "is_one");
        ctx("eq", a, b, NULL, NULL);
        CHECK(FN(eq)(&x, &y) == (mpz_cmp(a, b) == 0), "eq");
        CHECK(FN(eq)(&x, &x), "eq(a, a)");

        bool c = rndn(2) != 0;
        ctx("cmov", a, b, NULL, NULL);
        ctx_mode = c;
        r = y;
        FN(cmov)(&r, &x, c);
        expect_el(&r, c ? a : b, "cmov");
        r = x;
        FN(cmov)(&r, &r, c);
        expect_el(&r, a, "cmov(r, r)");
    }
    mpz_clears(a, b, w, NULL);
}

/* ---- canonical and Montgomery limbs --------------------------------------------------------- */

static void test_canonical(void **state)
{
    (void)state;
    mpz_t a, w;
    mpz_inits(a, w, NULL);
    for (size_t i = 0; i < n_cases; i++) {
        uint64_t l[NL], want[NL];
        fe x, r, junk;
        rand_value(a);
        el_set(&x, a);
        limbs_set(want, NL, a);

        ctx("to_canonical", a, NULL, NULL, NULL);
        fill_junk(l, sizeof l);
        if (rndn(2)) {
            FN(to_canonical)(l, &x);
            CHECK(!memcmp(l, want, sizeof l), "to_canonical");
        } else {
            ctx_mode = 1;
            r = x;
            FN(to_canonical)(r.l, &r);
            CHECK(!memcmp(r.l, want, sizeof l), "to_canonical in place");
        }

        ctx("from_canonical", a, NULL, NULL, NULL);
        if (rndn(2)) {
            fill_junk(&r, sizeof r);
            CHECK(FN(from_canonical)(&r, want) == CZK_OK, "from_canonical rejected a value < p");
        } else {
            ctx_mode = 1;
            memcpy(r.l, want, sizeof want);
            CHECK(FN(from_canonical)(&r, r.l) == CZK_OK, "from_canonical rejected a value < p");
        }
        expect_el(&r, a, "from_canonical");

        /* Montgomery limbs m < p stand for m * R^-1. */
        uint64_t m[NL];
        rand_value(w);
        limbs_set(m, NL, w);
        mpz_mul(a, w, RINV);
        mpz_mod(a, a, P);
        ctx("from_mont_limbs", w, NULL, NULL, NULL);
        fill_junk(&r, sizeof r);
        CHECK(FN(from_mont_limbs)(&r, m) == CZK_OK, "from_mont_limbs rejected limbs < p");
        expect_el(&r, a, "from_mont_limbs");
        CHECK(!memcmp(r.l, m, sizeof m), "from_mont_limbs must keep the limbs");

        /* Out of range: rejected and output untouched. */
        rand_over(w);
        limbs_set(l, NL, w);
        ctx("from_canonical range", w, NULL, NULL, NULL);
        fill_junk(&junk, sizeof junk);
        r = junk;
        enum czk_status st = FN(from_canonical)(&r, l);
        CHECK(st == CZK_ERR_RANGE, "want CZK_ERR_RANGE, got %d", (int)st);
        CHECK(!memcmp(&r, &junk, sizeof r), "output written on rejection");
        ctx("from_mont_limbs range", w, NULL, NULL, NULL);
        st = FN(from_mont_limbs)(&r, l);
        CHECK(st == CZK_ERR_RANGE, "want CZK_ERR_RANGE, got %d", (int)st);
        CHECK(!memcmp(&r, &junk, sizeof r), "output written on rejection");
    }
    mpz_clears(a, w, NULL);
}

/* ---- bytes ---------------------------------------------------------------------------------- */

static void bytes_le(uint8_t out[NBYTES], const mpz_t v)
{
    size_t cnt = 0;
    memset(out, 0, NBYTES);
    mpz_export(out, &cnt, -1, 1, 0, 0, v);
}

static void bytes_reverse(uint8_t *out, const uint8_t *in)
{
    for (size_t i = 0; i < NBYTES; i++)
        out[i] = in[NBYTES - 1 - i];
}

static void test_bytes(void **state)
{
    (void)state;
    mpz_t a;
    mpz_init(a);
    for (size_t i = 0; i < n_cases; i++) {
        uint8_t le[NBYTES], be[NBYTES], got[NBYTES];
        fe x, r, junk;
        rand_value(a);
        el_set(&x, a);
        bytes_le(le, a);
        bytes_reverse(be, le);

        ctx("to_bytes_le", a, NULL, NULL, NULL);
        fill_junk(got, sizeof got);
        FN(to_bytes_le)(got, &x);
        CHECK(!memcmp(got, le, sizeof le), "to_bytes_le");
        ctx("to_bytes_be", a, NULL, NULL, NULL);
        fill_junk(got, sizeof got);
        FN(to_bytes_be)(got, &x);
        CHECK(!memcmp(got, be, sizeof be), "to_bytes_be");

        ctx("from_bytes_le", a, NULL, NULL, NULL);
        fill_junk(&r, sizeof r);
        CHECK(FN(from_bytes_le)(&r, le) == CZK_OK, "from_bytes_le rejected a value < p");
        expect_el(&r, a, "from_bytes_le");
        ctx("from_bytes_be", a, NULL, NULL, NULL);
        fill_junk(&r, sizeof r);
        CHECK(FN(from_bytes_be)(&r, be) == CZK_OK, "from_bytes_be rejected a value < p");
        expect_el(&r, a, "from_bytes_be");

        rand_over(a);
        bytes_le(le, a);
        bytes_reverse(be, le);
        fill_junk(&junk, sizeof junk);
        r = junk;
        ctx("from_bytes_le range", a, NULL, NULL, NULL);
        enum czk_status st = FN(from_bytes_le)(&r, le);
        CHECK(st == CZK_ERR_RANGE, "want CZK_ERR_RANGE, got %d", (int)st);
        CHECK(!memcmp(&r, &junk, sizeof r), "output written on rejection");
        ctx("from_bytes_be range", a, NULL, NULL, NULL);
        st = FN(from_bytes_be)(&r, be);
        CHECK(st == CZK_ERR_RANGE, "want CZK_ERR_RANGE, got %d", (int)st);
        CHECK(!memcmp(&r, &junk, sizeof r), "output written on rejection");
    }
    mpz_clear(a);
}

/* ---- text ----------------------------------------------------------------------------------- */

#define DEC_LIMIT 200          /* documented longest decimal input */
#define HEX_LIMIT (2 * NBYTES) /* documented most hex digits       */

typedef enum czk_status (*parse_fn)(fe *, const char *);
typedef size_t (*print_fn)(char *, size_t, const fe *);

/* s must parse to value v, or be rejected with want_st leaving the output untouched. */
static void expect_parse(parse_fn parse, const char *name, const char *s, enum czk_status want_st,
                         const mpz_t v)
{
    fe r, junk;
    fill_junk(&junk, sizeof junk);
    r = junk;
    enum czk_status st = parse(&r, s);
    CHECK(st == want_st, "%s(\"%s\"): want status %d, got %d", name, s, (int)want_st, (int)st);
    if (want_st == CZK_OK)
        expect_el(&r, v, name);
    else
        CHECK(!memcmp(&r, &junk, sizeof r), "%s(\"%s\") wrote its output on rejection", name, s);
}

/* Printing into exact-size, larger and too-short buffers; nothing may be written past len. */
static void expect_print(print_fn print, const char *name, const fe *x, const char *want)
{
    char buf[CZK_FF_DEC_MAX + CZK_FF_HEX_MAX + 16];
    size_t n = strlen(want), got;

    memset(buf, 'Z', sizeof buf);
    got = print(buf, sizeof buf, x);
    CHECK(got == n && !strcmp(buf, want), "%s: want \"%s\" (%zu), got \"%.*s\" (%zu)", name, want,
          n, (int)(got < sizeof buf ? got : 0), buf, got);

    memset(buf, 'Z', sizeof buf);
    got = print(buf, n + 1, x);
    CHECK(got == n && !strcmp(buf, want), "%s with exact buffer %zu: got %zu", name, n + 1, got);
    for (size_t i = n + 1; i < sizeof buf; i++)
        CHECK(buf[i] == 'Z', "%s wrote past its buffer", name);

    size_t len = rndn(2) ? n : rndn((unsigned)n + 1);
    memset(buf, 'Z', sizeof buf);
    got = print(buf, len, x);
    CHECK(got == 0, "%s with buffer %zu for %zu chars: want 0, got %zu", name, len, n, got);
    for (size_t i = len; i < sizeof buf; i++)
        CHECK(buf[i] == 'Z', "%s wrote past a too-short buffer of %zu", name, len);
}

static void test_dec(void **state)
{
    (void)state;
    mpz_t a, zero;
    mpz_inits(a, zero, NULL);
    char s[DEC_LIMIT + 64], want[CZK_FF_DEC_MAX + 8];
    for (size_t i = 0; i < n_cases; i++) {
        fe x;
        rand_value(a);
        el_set(&x, a);
        mpz_get_str(want, 10, a);
        ctx("to_dec", a, NULL, NULL, NULL);
        expect_print(FN(to_dec), "to_dec", &x, want);

        /* Leading zeros are digits; the string may be up to the documented limit long. */
        size_t n = strlen(want), z = 0;
        if (rndn(4) == 0)
            z = rndn(4) ? rndn(4) + 1 : DEC_LIMIT - n;
        memset(s, '0', z);
        memcpy(s + z, want, n + 1);
        ctx("from_dec", a, NULL, NULL, NULL);
        expect_parse(FN(from_dec), "from_dec", s, CZK_OK, a);

        rand_over(a);
        mpz_get_str(s, 10, a);
        ctx("from_dec range", a, NULL, NULL, NULL);
        expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_RANGE, a);
    }

    ctx("from_dec fixed", NULL, NULL, NULL, NULL);
    memset(s, '9', DEC_LIMIT);
    s[DEC_LIMIT] = 0;
    expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_RANGE, zero);
    memset(s, '0', DEC_LIMIT);
    expect_parse(FN(from_dec), "from_dec", s, CZK_OK, zero);
    s[DEC_LIMIT - 1] = '1';
    mpz_set_ui(a, 1);
    expect_parse(FN(from_dec), "from_dec", s, CZK_OK, a);
    memset(s, '0', DEC_LIMIT + 1);
    s[DEC_LIMIT] = '1';
    s[DEC_LIMIT + 1] = 0;
    expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_FORMAT, zero);
    s[DEC_LIMIT] = '0';
    expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_FORMAT, zero);
    char *huge = malloc(4097);
    assert_non_null(huge);
    memset(huge, '1', 4096);
    huge[4096] = 0;
    expect_parse(FN(from_dec), "from_dec", huge, CZK_ERR_FORMAT, zero);
    free(huge);

    static const char *const bad[] = {
        "",    "-1",  "+1",  " 1",  "1 ",   "12a", "0x", "0xg", "0x10", "1.0", "1e3",
        "\t1", "1\n", "1 2", "-0",  "a",    "1,0", "_1", "1_0", "\xd9\xa3",    "\x80",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect_parse(FN(from_dec), "from_dec", bad[i], CZK_ERR_FORMAT, zero);

    /* The documented range cases, explicitly. */
    mpz_get_str(s, 10, P);
    expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_RANGE, zero);
    mpz_add_ui(a, P, 1);
    mpz_get_str(s, 10, a);
    expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_RANGE, zero);
    mpz_sub_ui(a, TOP, 1);
    mpz_get_str(s, 10, a);
    expect_parse(FN(from_dec), "from_dec", s, CZK_ERR_RANGE, zero);
    mpz_sub_ui(a, P, 1);
    mpz_get_str(s, 10, a);
    expect_parse(FN(from_dec), "from_dec", s, CZK_OK, a);
    mpz_clears(a, zero, NULL);
}

static void test_hex(void **state)
{
    (void)state;
    mpz_t a, zero;
    mpz_inits(a, zero, NULL);
    char s[HEX_LIMIT + 64], want[CZK_FF_HEX_MAX + 8];
    for (size_t i = 0; i < n_cases; i++) {
        fe x;
        rand_value(a);
        el_set(&x, a);
        want[0] = '0';
        want[1] = 'x';
        mpz_get_str(want + 2, 16, a); /* lowercase, no leading zeros, "0" for zero */
        ctx("to_hex", a, NULL, NULL, NULL);
        expect_print(FN(to_hex), "to_hex", &x, want);

        /* With or without 0x, zero-padded up to the digit limit, any letter case. */
        const char *digits = want + 2;
        size_t n = strlen(digits), z = 0, k = 0;
        if (rndn(2)) {
            s[k++] = '0';
            s[k++] = 'x';
        }
        if (rndn(4) == 0)
            z = rndn(2) ? rndn((unsigned)(HEX_LIMIT - n) + 1) : HEX_LIMIT - n;
        memset(s + k, '0', z);
        k += z;
        memcpy(s + k, digits, n + 1);
        if (rndn(4) == 0)
            for (char *c = s + k; *c; c++)
                *c = (char)toupper((unsigned char)*c);
        ctx("from_hex", a, NULL, NULL, NULL);
        expect_parse(FN(from_hex), "from_hex", s, CZK_OK, a);

        rand_over(a);
        s[0] = '0';
        s[1] = 'x';
        mpz_get_str(s + 2, 16, a);
        ctx("from_hex range", a, NULL, NULL, NULL);
        expect_parse(FN(from_hex), "from_hex", s + 2 * rndn(2), CZK_ERR_RANGE, a);
    }

    ctx("from_hex fixed", NULL, NULL, NULL, NULL);
    /* HEX_LIMIT digits: in the length limit; all f is >= p. */
    memset(s, 'f', HEX_LIMIT);
    s[HEX_LIMIT] = 0;
    expect_parse(FN(from_hex), "from_hex", s, CZK_ERR_RANGE, zero);
    memcpy(s, "0x", 2);
    memset(s + 2, '0', HEX_LIMIT);
    s[HEX_LIMIT + 2] = 0;
    expect_parse(FN(from_hex), "from_hex", s, CZK_OK, zero);
    expect_parse(FN(from_hex), "from_hex", s + 2, CZK_OK, zero);
    s[HEX_LIMIT + 1] = '1';
    mpz_set_ui(a, 1);
    expect_parse(FN(from_hex), "from_hex", s, CZK_OK, a);
    /* One digit too many, with and without the prefix. */
    memset(s + 2, '0', HEX_LIMIT);
    s[HEX_LIMIT + 2] = '1';
    s[HEX_LIMIT + 3] = 0;
    expect_parse(FN(from_hex), "from_hex", s, CZK_ERR_FORMAT, zero);
    expect_parse(FN(from_hex), "from_hex", s + 2, CZK_ERR_FORMAT, zero);
    mpz_set_ui(a, 0x12a);
    expect_parse(FN(from_hex), "from_hex", "12a", CZK_OK, a);
    expect_parse(FN(from_hex), "from_hex", "0x12a", CZK_OK, a);
    expect_parse(FN(from_hex), "from_hex", "0x0", CZK_OK, zero);
    expect_parse(FN(from_hex), "from_hex", "0", CZK_OK, zero);

    static const char *const bad[] = {
        "",     "-1",   "+1",    " 1",  "1 ",   "0x",   "0xg", "g",   "0x-1", "0x+1", "0x 1",
        "x1",   "00x1", "0x0x1", "1g",  "0x1_0", "\n",  "0x1\n", "1h",  "0X",  "0 x1", "0x1 ",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect_parse(FN(from_hex), "from_hex", bad[i], CZK_ERR_FORMAT, zero);

    s[0] = '0';
    s[1] = 'x';
    mpz_get_str(s + 2, 16, P);
    expect_parse(FN(from_hex), "from_hex", s, CZK_ERR_RANGE, zero);
    mpz_add_ui(a, P, 1);
    mpz_get_str(s + 2, 16, a);
    expect_parse(FN(from_hex), "from_hex", s, CZK_ERR_RANGE, zero);
    mpz_sub_ui(a, TOP, 1);
    mpz_get_str(s + 2, 16, a);
    expect_parse(FN(from_hex), "from_hex", s, CZK_ERR_RANGE, zero);
    mpz_sub_ui(a, P, 1);
    mpz_get_str(s + 2, 16, a);
    expect_parse(FN(from_hex), "from_hex", s, CZK_OK, a);
    mpz_clears(a, zero, NULL);
}

/* ---- batch_inv ------------------------------------------------------------------------------ */

static void test_batch_inv(void **state)
{
    (void)state;
    enum { MAXB = 1024 };
    fe *in = malloc(MAXB * sizeof *in), *out = malloc(MAXB * sizeof *out);
    fe *scratch = malloc(MAXB * sizeof *scratch), *copy = malloc(MAXB * sizeof *copy);
    mpz_t *vals = malloc(MAXB * sizeof *vals);
    assert_true(in && out && scratch && copy && vals);
    for (size_t i = 0; i < MAXB; i++)
        mpz_init(vals[i]);
    mpz_t w;
    mpz_init(w);

    size_t done = 0;
    for (unsigned iter = 0; done < n_cases || iter < 8; iter++) {
        /* Sizes 0, 1, 2, small, one large batch; zeros at every density including all. */
        size_t n = iter < 3 ? iter : iter == 3 ? MAXB : rndn(64);
        unsigned zero_pct = iter == 4 ? 100 : rndn(4) == 0 ? 0 : rndn(50);
        for (size_t i = 0; i < n; i++) {
            if (rndn(100) < zero_pct)
                mpz_set_ui(vals[i], 0);
            else
                rand_value(vals[i]);
            el_set(&in[i], vals[i]);
        }
        memcpy(copy, in, n * sizeof *in);
        fill_junk(scratch, MAXB * sizeof *scratch);
        bool alias = rndn(2) != 0;
        fe *dst = alias ? in : out;
        if (!alias)
            fill_junk(out, MAXB * sizeof *out);
        ctx("batch_inv", NULL, NULL, NULL, NULL);
        ctx_mode = alias;
        FN(batch_inv)(dst, in, n, scratch);
        if (!alias)
            CHECK(!memcmp(in, copy, n * sizeof *in), "batch_inv modified its input (n=%zu)", n);
        for (size_t i = 0; i < n; i++) {
            if (mpz_sgn(vals[i]) == 0)
                mpz_set_ui(w, 0);
            else
                mpz_invert(w, vals[i], P);
            ctx("batch_inv", vals[i], NULL, NULL, NULL);
            ctx_mode = alias;
            char what[64];
            snprintf(what, sizeof what, "batch_inv n=%zu index %zu", n, i);
            expect_el(&dst[i], w, what);
        }
        done += n;
    }
    mpz_clear(w);
    for (size_t i = 0; i < MAXB; i++)
        mpz_clear(vals[i]);
    free(vals);
    free(copy);
    free(scratch);
    free(out);
    free(in);
}

/* ---- Fp2 ------------------------------------------------------------------------------------ */

#ifdef TF_FP2

#define FN2(op) TF_PASTE3(czk_, TF_FP2, _##op)
typedef TF_STRUCT(TF_FP2) fe2;

DEFINE_RUNNERS(fe2, fe2)

/* GMP model of Fp[u]/(u^2 + 1). */
typedef struct {
    mpz_t c0, c1;
} zf2;

static void zf2_init(zf2 *a) { mpz_inits(a->c0, a->c1, NULL); }

static void zf2_clear(zf2 *a) { mpz_clears(a->c0, a->c1, NULL); }

static void zf2_copy(zf2 *r, const zf2 *a)
{
    mpz_set(r->c0, a->c0);
    mpz_set(r->c1, a->c1);
}

/* (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + (a0 b1 + a1 b0) u; r may alias a or b. */
static void zf2_mul(zf2 *r, const zf2 *a, const zf2 *b)
{
    mpz_mul(S2a, a->c0, b->c0);
    mpz_submul(S2a, a->c1, b->c1);
    mpz_mul(S2b, a->c0, b->c1);
    mpz_addmul(S2b, a->c1, b->c0);
    mpz_mod(r->c0, S2a, P);
    mpz_mod(r->c1, S2b, P);
}

static void zf2_norm(mpz_t n, const zf2 *a)
{
    mpz_mul(n, a->c0, a->c0);
    mpz_addmul(n, a->c1, a->c1);
    mpz_mod(n, n, P);
}

static void zf2_pow(zf2 *r, const zf2 *a, const mpz_t e)
{
    zf2 acc;
    zf2_init(&acc);
    mpz_set_ui(acc.c0, 1);
    mpz_set_ui(acc.c1, 0);
    for (size_t i = mpz_sizeinbase(e, 2); i-- > 0;) {
        zf2_mul(&acc, &acc, &acc);
        if (mpz_tstbit(e, i))
            zf2_mul(&acc, &acc, a);
    }
    zf2_copy(r, &acc);
    zf2_clear(&acc);
}

static void el2_set(fe2 *r, const zf2 *a)
{
    el_set(&r->c0, a->c0);
    el_set(&r->c1, a->c1);
}

static void el2_get(zf2 *r, const fe2 *a)
{
    el_get(r->c0, &a->c0);
    el_get(r->c1, &a->c1);
}

static void expect_el2(const fe2 *got, const zf2 *want, const char *what)
{
    char buf[80];
    snprintf(buf, sizeof buf, "%s (c0)", what);
    expect_el(&got->c0, want->c0, buf);
    snprintf(buf, sizeof buf, "%s (c1)", what);
    expect_el(&got->c1, want->c1, buf);
}

static void ctx2(const char *op, const zf2 *a, const zf2 *b)
{
    ctx(op, a->c0, a->c1, b ? b->c0 : NULL, b ? b->c1 : NULL);
}

static void rand_f2(zf2 *a)
{
    rand_value(a->c0);
    rand_value(a->c1);
    switch (rndn(8)) {
    case 0:
        mpz_set_ui(a->c0, 0);
        break;
    case 1:
        mpz_set_ui(a->c1, 0);
        break;
    default:
        break;
    }
}

static size_t fp2_cases(void) { return n_cases / 5 > 0 ? n_cases / 5 : 1; }

static void test_fp2_arith(void **state)
{
    (void)state;
    zf2 a, b, w;
    mpz_t k;
    zf2_init(&a);
    zf2_init(&b);
    zf2_init(&w);
    mpz_init(k);
    size_t cases = fp2_cases();
    for (size_t i = 0; i < cases; i++) {
        fe2 x, y, r;
        unsigned mode = rndn(4);
        rand_f2(&a);
        rand_f2(&b);
        if (mode == 3)
            zf2_copy(&b, &a);
        el2_set(&x, &a);
        el2_set(&y, &b);

        ctx2("fp2 add", &a, &b);
        run_bin_fe2(FN2(add), &x, &y, mode, &r);
        mpz_add(w.c0, a.c0, b.c0);
        mpz_mod(w.c0, w.c0, P);
        mpz_add(w.c1, a.c1, b.c1);
        mpz_mod(w.c1, w.c1, P);
        expect_el2(&r, &w, "fp2 add");

        ctx2("fp2 sub", &a, &b);
        run_bin_fe2(FN2(sub), &x, &y, mode, &r);
        mpz_sub(w.c0, a.c0, b.c0);
        mpz_mod(w.c0, w.c0, P);
        mpz_sub(w.c1, a.c1, b.c1);
        mpz_mod(w.c1, w.c1, P);
        expect_el2(&r, &w, "fp2 sub");

        ctx2("fp2 mul", &a, &b);
        run_bin_fe2(FN2(mul), &x, &y, mode, &r);
        zf2_mul(&w, &a, &b);
        expect_el2(&r, &w, "fp2 mul");

        ctx2("fp2 sqr", &a, NULL);
        run_un_fe2(FN2(sqr), &x, rndn(2), &r);
        zf2_mul(&w, &a, &a);
        expect_el2(&r, &w, "fp2 sqr");

        ctx2("fp2 neg", &a, NULL);
        run_un_fe2(FN2(neg), &x, rndn(2), &r);
        mpz_neg(w.c0, a.c0);
        mpz_mod(w.c0, w.c0, P);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c1, w.c1, P);
        expect_el2(&r, &w, "fp2 neg");

        ctx2("fp2 dbl", &a, NULL);
        run_un_fe2(FN2(dbl), &x, rndn(2), &r);
        mpz_mul_2exp(w.c0, a.c0, 1);
        mpz_mod(w.c0, w.c0, P);
        mpz_mul_2exp(w.c1, a.c1, 1);
        mpz_mod(w.c1, w.c1, P);
        expect_el2(&r, &w, "fp2 dbl");

        ctx2("fp2 conj", &a, NULL);
        run_un_fe2(FN2(conj), &x, rndn(2), &r);
        mpz_set(w.c0, a.c0);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c1, w.c1, P);
        expect_el2(&r, &w, "fp2 conj");

        ctx2("fp2 mul_by_nonresidue", &a, NULL);
        run_un_fe2(FN2(mul_by_nonresidue), &x, rndn(2), &r);
        {
            zf2 xi;
            zf2_init(&xi);
            mpz_set_ui(xi.c0, TF_XI0);
            mpz_set_ui(xi.c1, 1);
            zf2_mul(&w, &a, &xi);
            zf2_clear(&xi);
        }
        expect_el2(&r, &w, "fp2 mul_by_nonresidue");

        ctx2("fp2 inv", &a, NULL);
        if (mpz_sgn(a.c0) || mpz_sgn(a.c1)) {
            run_un_fe2(FN2(inv), &x, rndn(2), &r);
            /* (c0 - c1 u) / (c0^2 + c1^2); the norm is nonzero since -1 is not a square. */
            zf2_norm(k, &a);
            CHECK(mpz_invert(k, k, P) != 0, "oracle: zero norm");
            mpz_mul(w.c0, a.c0, k);
            mpz_mod(w.c0, w.c0, P);
            mpz_mul(w.c1, a.c1, k);
            mpz_neg(w.c1, w.c1);
            mpz_mod(w.c1, w.c1, P);
            expect_el2(&r, &w, "fp2 inv");
        }
        /* inv_vartime against the constant-time inverse, zero included (inv(0) = 0). */
        ctx2("fp2 inv_vartime", &a, NULL);
        {
            fe2 ct, z;
            FN2(inv)(&ct, &x);
            run_un_fe2(FN2(inv_vartime), &x, rndn(2), &r);
            CHECK(FN2(eq)(&r, &ct), "fp2 inv_vartime differs from fp2 inv");
            FN2(zero)(&z);
            FN2(inv_vartime)(&r, &z);
            CHECK(FN2(is_zero)(&r), "fp2 inv_vartime(0) != 0");
        }

        /* mul_fp with k = b.c0 */
        fe kk;
        mpz_set(k, b.c0);
        el_set(&kk, k);
        ctx("fp2 mul_fp", a.c0, a.c1, k, NULL);
        if (rndn(2)) {
            ctx_mode = 0;
            fill_junk(&r, sizeof r);
            FN2(mul_fp)(&r, &x, &kk);
        } else {
            ctx_mode = 1;
            r = x;
            FN2(mul_fp)(&r, &r, &kk);
        }
        mpz_mul(w.c0, a.c0, k);
        mpz_mod(w.c0, w.c0, P);
        mpz_mul(w.c1, a.c1, k);
        mpz_mod(w.c1, w.c1, P);
        expect_el2(&r, &w, "fp2 mul_fp");

        /* predicates and cmov */
        bool az = !mpz_sgn(a.c0) && !mpz_sgn(a.c1);
        bool a1 = !mpz_cmp_ui(a.c0, 1) && !mpz_sgn(a.c1);
        bool same = !mpz_cmp(a.c0, b.c0) && !mpz_cmp(a.c1, b.c1);
        ctx2("fp2 predicates", &a, &b);
        CHECK(FN2(is_zero)(&x) == az, "fp2 is_zero");
        CHECK(FN2(is_one)(&x) == a1, "fp2 is_one");
        CHECK(FN2(eq)(&x, &y) == same, "fp2 eq");
        CHECK(FN2(eq)(&x, &x), "fp2 eq(a, a)");
        bool c = rndn(2) != 0;
        r = y;
        FN2(cmov)(&r, &x, c);
        expect_el2(&r, c ? &a : &b, "fp2 cmov");
    }

    fe2 r;
    ctx("fp2 zero/one", NULL, NULL, NULL, NULL);
    mpz_set_ui(w.c0, 0);
    mpz_set_ui(w.c1, 0);
    fill_junk(&r, sizeof r);
    FN2(zero)(&r);
    expect_el2(&r, &w, "fp2 zero");
    CHECK(FN2(is_zero)(&r) && !FN2(is_one)(&r), "fp2 zero predicates");
    mpz_set_ui(w.c0, 1);
    fill_junk(&r, sizeof r);
    FN2(one)(&r);
    expect_el2(&r, &w, "fp2 one");
    CHECK(!FN2(is_zero)(&r) && FN2(is_one)(&r), "fp2 one predicates");
    /* u alone is neither zero nor one. */
    mpz_set_ui(w.c0, 0);
    mpz_set_ui(w.c1, 1);
    el2_set(&r, &w);
    CHECK(!FN2(is_zero)(&r) && !FN2(is_one)(&r), "fp2 u predicates");

    mpz_clear(k);
    zf2_clear(&w);
    zf2_clear(&b);
    zf2_clear(&a);
}

static void test_fp2_pow(void **state)
{
    (void)state;
    zf2 a, w;
    mpz_t ez;
    zf2_init(&a);
    zf2_init(&w);
    mpz_init(ez);
    size_t cases = fp2_cases();
    for (size_t i = 0; i < cases; i++) {
        uint64_t e[8], e0[8];
        fe2 x, r;
        size_t n = rand_exp(e, ez);
        memcpy(e0, e, sizeof e);
        rand_f2(&a);
        el2_set(&x, &a);
        zf2_pow(&w, &a, ez);
        ctx("fp2 pow", a.c0, a.c1, ez, NULL);
        if (rndn(2)) {
            ctx_mode = 0;
            fill_junk(&r, sizeof r);
            FN2(pow)(&r, &x, e, n);
        } else {
            ctx_mode = 1;
            r = x;
            FN2(pow)(&r, &r, e, n);
        }
        CHECK(!memcmp(e, e0, n * sizeof *e), "exponent modified");
        expect_el2(&r, &w, "fp2 pow");
    }
    mpz_clear(ez);
    zf2_clear(&w);
    zf2_clear(&a);
}

static void test_fp2_sqrt(void **state)
{
    (void)state;
    zf2 a, g, w;
    mpz_t nrm;
    zf2_init(&a);
    zf2_init(&g);
    zf2_init(&w);
    mpz_init(nrm);
    size_t cases = fp2_cases(), squares = 0, nonsq = 0;
    for (size_t i = 0; i < cases; i++) {
        fe2 x, r, junk;
        rand_f2(&a);
        switch (rndn(5)) {
        case 0: /* a square by construction */
            zf2_mul(&a, &a, &a);
            break;
        case 1: /* an element of Fp, square or not there: always a square in Fp2 */
            mpz_set_ui(a.c1, 0);
            break;
        case 2:
            mpz_set_ui(a.c0, 0);
            break;
        default:
            break;
        }
        el2_set(&x, &a);
        /* Norm criterion: a is a square in Fp2 iff N(a) = c0^2 + c1^2 is a square in Fp. */
        zf2_norm(nrm, &a);
        bool sq = mpz_legendre(nrm, P) != -1;
        squares += sq;
        nonsq += !sq;

        ctx2("fp2 is_square", &a, NULL);
        CHECK(FN2(is_square)(&x) == sq, "fp2 is_square: want %d", (int)sq);

        ctx2("fp2 sqrt", &a, NULL);
        fill_junk(&junk, sizeof junk);
        bool ok;
        if (rndn(2)) {
            ctx_mode = 0;
            r = junk;
            ok = FN2(sqrt)(&r, &x);
        } else {
            ctx_mode = 1;
            r = x;
            junk = x;
            ok = FN2(sqrt)(&r, &r);
        }
        CHECK(ok == sq, "fp2 sqrt returned %d, want %d", (int)ok, (int)sq);
        if (sq) {
            el2_get(&g, &r);
            zf2_mul(&w, &g, &g);
            CHECK(!mpz_cmp(w.c0, a.c0) && !mpz_cmp(w.c1, a.c1),
                  "fp2 sqrt: root 0x%Zx + 0x%Zx u squares to 0x%Zx + 0x%Zx u", g.c0, g.c1, w.c0,
                  w.c1);
        } else {
            CHECK(!memcmp(&r, &junk, sizeof r), "fp2 sqrt wrote its output on failure");
        }
    }
    ctx("fp2 sqrt coverage", NULL, NULL, NULL, NULL);
    CHECK(cases < 100 || (squares > cases / 10 && nonsq > cases / 20), "sq=%zu nonsq=%zu",
          squares, nonsq);
    mpz_clear(nrm);
    zf2_clear(&w);
    zf2_clear(&g);
    zf2_clear(&a);
}

static void test_fp2_sign(void **state)
{
    (void)state;
    zf2 a;
    zf2_init(&a);
    size_t cases = fp2_cases() * 4;
    for (size_t i = 0; i < cases; i++) {
        fe2 x;
        rand_f2(&a);
        if (rndn(4) == 0) /* both zero-component rules at once, with sign-boundary values */
            mpz_set_ui(rndn(2) ? a.c0 : a.c1, 0);
        el2_set(&x, &a);
        bool c1z = mpz_sgn(a.c1) == 0, c0z = mpz_sgn(a.c0) == 0;
        bool gt = mpz_cmp(a.c1, HALF) > 0 || (c1z && mpz_cmp(a.c0, HALF) > 0);
        bool s0 = mpz_odd_p(a.c0) || (c0z && mpz_odd_p(a.c1));
        ctx2("fp2 gt_half", &a, NULL);
        CHECK(FN2(gt_half)(&x) == gt, "fp2 gt_half: want %d", (int)gt);
        ctx2("fp2 sgn0", &a, NULL);
        CHECK(FN2(sgn0)(&x) == s0, "fp2 sgn0: want %d", (int)s0);
    }
    zf2_clear(&a);
}

#endif /* TF_FP2 */

/* ---- NTT constants -------------------------------------------------------------------------- */

#ifdef TF_FR_S

static void test_roots_of_unity(void **state)
{
    (void)state;
    mpz_t t, v, w, prev, g, m1;
    mpz_inits(t, v, w, prev, g, m1, NULL);
    mpz_sub_ui(m1, P, 1);

    ctx("two_adicity", NULL, NULL, NULL, NULL);
    unsigned s = FN(two_adicity)();
    unsigned s_gmp = (unsigned)mpz_scan1(m1, 0);
    CHECK(s == TF_FR_S && s_gmp == TF_FR_S, "two_adicity: want %u (GMP %u), got %u",
          (unsigned)TF_FR_S, s_gmp, s);
    mpz_fdiv_q_2exp(t, m1, s_gmp);

    /* ffjavascript's generator is the smallest quadratic non-residue; check it is 5. */
    ctx("smallest non-residue", NULL, NULL, NULL, NULL);
    for (unsigned q = 2; q < 5; q++) {
        mpz_set_ui(v, q);
        CHECK(mpz_legendre(v, P) == 1, "%u should be a residue", q);
    }
    mpz_set_ui(v, 5);
    CHECK(mpz_legendre(v, P) == -1, "5 should be a non-residue");

    fe roots[2][TF_FR_S + 1];
    static const enum czk_ntt_convention convs[2] = {CZK_NTT_SNARKJS, CZK_NTT_BELLMAN};
    static const unsigned gens[2] = {5, TF_BELLMAN_G};
    for (int c = 0; c < 2; c++) {
        for (unsigned lg = 0; lg <= s_gmp; lg++) {
            fe *r = &roots[c][lg];
            ctx(c ? "root_of_unity bellman" : "root_of_unity snarkjs", NULL, NULL, NULL, NULL);
            ctx_mode = (int)lg;
            fill_junk(r, sizeof *r);
            enum czk_status st = FN(root_of_unity)(r, lg, convs[c]);
            CHECK(st == CZK_OK, "lg_n=%u: status %d", lg, (int)st);
            el_get(v, r);
            /* Order exactly 2^lg: w^(2^lg) == 1 and w^(2^(lg-1)) == -1. */
            mpz_set_ui(w, 0);
            mpz_setbit(w, lg);
            mpz_powm(w, v, w, P);
            CHECK(mpz_cmp_ui(w, 1) == 0, "lg_n=%u: w=0x%Zx, w^(2^lg_n) = 0x%Zx != 1", lg, v, w);
            if (lg > 0) {
                mpz_set_ui(w, 0);
                mpz_setbit(w, lg - 1);
                mpz_powm(w, v, w, P);
                CHECK(mpz_cmp(w, m1) == 0, "lg_n=%u: w^(2^(lg_n-1)) = 0x%Zx != -1", lg, w);
                /* The chain of squares: w_lg^2 == w_{lg-1}. */
                el_get(prev, &roots[c][lg - 1]);
                mpz_mul(w, v, v);
                mpz_mod(w, w, P);
                CHECK(mpz_cmp(w, prev) == 0, "lg_n=%u: w^2 = 0x%Zx != w_{lg_n-1} = 0x%Zx", lg,
                      w, prev);
            }
        }
        /* Top of the chain: g^t with the convention's generator. */
        mpz_set_ui(g, gens[c]);
        mpz_powm(w, g, t, P);
        ctx(c ? "root_of_unity bellman" : "root_of_unity snarkjs", g, t, NULL, NULL);
        expect_el(&roots[c][s_gmp], w, "w_s == g^t");
    }
    /* Where both conventions use the same generator they must agree everywhere (BN254);
     * on BLS12-381 the w_s checks above already tell them apart. */
    for (unsigned lg = 0; gens[0] == gens[1] && lg <= s_gmp; lg++) {
        ctx("root_of_unity conventions", NULL, NULL, NULL, NULL);
        ctx_mode = (int)lg;
        CHECK(!memcmp(&roots[0][lg], &roots[1][lg], sizeof(fe)), "conventions differ");
    }

    static const unsigned bad[] = {TF_FR_S + 1, TF_FR_S + 2, 63, 64, 65, 1000, UINT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        for (int c = 0; c < 2; c++) {
            fe r, junk;
            fill_junk(&junk, sizeof junk);
            r = junk;
            ctx("root_of_unity lg_n > s", NULL, NULL, NULL, NULL);
            ctx_mode = (int)(bad[i] & INT_MAX);
            enum czk_status st = FN(root_of_unity)(&r, bad[i], convs[c]);
            CHECK(st == CZK_ERR_INVALID_ARG, "lg_n=%u: want CZK_ERR_INVALID_ARG, got %d", bad[i],
                  (int)st);
            CHECK(!memcmp(&r, &junk, sizeof r), "output written on rejection");
        }
    }
    mpz_clears(t, v, w, prev, g, m1, NULL);
}

static void test_coset_gen(void **state)
{
    (void)state;
    mpz_t v, w;
    mpz_inits(v, w, NULL);
    fe g;

    ctx("coset_gen bellman", NULL, NULL, NULL, NULL);
    fill_junk(&g, sizeof g);
    FN(coset_gen)(&g, CZK_NTT_BELLMAN);
    mpz_set_ui(v, TF_COSET);
    expect_el(&g, v, "coset_gen bellman");

    /* The header names no snarkjs value (snarkjs shifts by a root of unity instead); whatever
     * it is, it must move every 2^k subgroup to a disjoint coset, i.e. lie outside the
     * 2-power subgroup: g^(2^s) != 1. */
    ctx("coset_gen snarkjs", NULL, NULL, NULL, NULL);
    fill_junk(&g, sizeof g);
    FN(coset_gen)(&g, CZK_NTT_SNARKJS);
    el_get(v, &g);
    mpz_set_ui(w, 0);
    mpz_setbit(w, TF_FR_S);
    mpz_powm(w, v, w, P);
    CHECK(mpz_sgn(v) != 0 && mpz_cmp_ui(w, 1) != 0, "coset_gen snarkjs = %Zd", v);
    mpz_clears(v, w, NULL);
}

#endif /* TF_FR_S */

/* ---- main ----------------------------------------------------------------------------------- */

int main(void)
{
    czk_test_seed_init("test_ff_" TF_STR(TF_NAME));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_add_sub),
        cmocka_unit_test(test_mul_sqr),
        cmocka_unit_test(test_inv),
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_legendre_sqrt),
        cmocka_unit_test(test_predicates),
        cmocka_unit_test(test_canonical),
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_dec),
        cmocka_unit_test(test_hex),
        cmocka_unit_test(test_batch_inv),
#ifdef TF_FP2
        cmocka_unit_test(test_fp2_arith),
        cmocka_unit_test(test_fp2_pow),
        cmocka_unit_test(test_fp2_sqrt),
        cmocka_unit_test(test_fp2_sign),
#endif
#ifdef TF_FR_S
        cmocka_unit_test(test_roots_of_unity),
        cmocka_unit_test(test_coset_gen),
#endif
    };
    return cmocka_run_group_tests_name("ff_" TF_STR(TF_NAME), tests, group_setup,
                                       group_teardown);
}
