/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Quadratic-extension template: Fp2 = Fp[u]/(u^2 + 1), instantiated per base field.
 *
 * The including file defines F2 (fp2_bn254), F (fp_bn254), FF_C(x) (constant prefix of
 * the base field, see ff_consts.h) and F2_MUL_BY_NONRESIDUE_BODY, the body of
 * mul_by_nonresidue with `r` and `a` in scope (the twist non-residue xi differs per
 * curve). Both czk base primes are 3 mod 4, so -1 is a non-residue and the square
 * root is Algorithm 9 of Adj and Rodriguez-Henriquez ("Square root computation over
 * even extension fields", 2012). Arithmetic is constant-time (it only calls the
 * constant-time base-field operations); pow, sqrt and is_square are variable-time.
 */
#include "czk/czk_ff.h"
#include "ff/ff_consts.h"

#define F2_CAT_(a, b) a##b
#define F2_CAT(a, b) F2_CAT_(a, b)
#define F2_FN(x) F2_CAT(F2_CAT(czk_, F2), _##x)
#define B_FN(x) F2_CAT(F2_CAT(czk_, F), _##x)
#define F2_T struct F2_CAT(czk_, F2)
#define B_T struct F2_CAT(czk_, F)

void F2_FN(zero)(F2_T *r)
{
    B_FN(zero)(&r->c0);
    B_FN(zero)(&r->c1);
}

void F2_FN(one)(F2_T *r)
{
    B_FN(one)(&r->c0);
    B_FN(zero)(&r->c1);
}

bool F2_FN(is_zero)(const F2_T *a) { return B_FN(is_zero)(&a->c0) & B_FN(is_zero)(&a->c1); }

bool F2_FN(is_one)(const F2_T *a) { return B_FN(is_one)(&a->c0) & B_FN(is_zero)(&a->c1); }

bool F2_FN(eq)(const F2_T *a, const F2_T *b)
{
    return B_FN(eq)(&a->c0, &b->c0) & B_FN(eq)(&a->c1, &b->c1);
}

void F2_FN(cmov)(F2_T *r, const F2_T *a, bool c)
{
    B_FN(cmov)(&r->c0, &a->c0, c);
    B_FN(cmov)(&r->c1, &a->c1, c);
}

void F2_FN(add)(F2_T *r, const F2_T *a, const F2_T *b)
{
    B_FN(add)(&r->c0, &a->c0, &b->c0);
    B_FN(add)(&r->c1, &a->c1, &b->c1);
}

void F2_FN(sub)(F2_T *r, const F2_T *a, const F2_T *b)
{
    B_FN(sub)(&r->c0, &a->c0, &b->c0);
    B_FN(sub)(&r->c1, &a->c1, &b->c1);
}

void F2_FN(neg)(F2_T *r, const F2_T *a)
{
    B_FN(neg)(&r->c0, &a->c0);
    B_FN(neg)(&r->c1, &a->c1);
}

void F2_FN(dbl)(F2_T *r, const F2_T *a)
{
    B_FN(dbl)(&r->c0, &a->c0);
    B_FN(dbl)(&r->c1, &a->c1);
}

void F2_FN(conj)(F2_T *r, const F2_T *a)
{
    r->c0 = a->c0;
    B_FN(neg)(&r->c1, &a->c1);
}

void F2_FN(mul)(F2_T *r, const F2_T *a, const F2_T *b)
{
    /* Karatsuba: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 */
    B_T v0, v1, s, t;
    B_FN(mul)(&v0, &a->c0, &b->c0);
    B_FN(mul)(&v1, &a->c1, &b->c1);
    B_FN(add)(&s, &a->c0, &a->c1);
    B_FN(add)(&t, &b->c0, &b->c1);
    B_FN(mul)(&s, &s, &t);
    B_FN(sub)(&s, &s, &v0);
    B_FN(sub)(&r->c1, &s, &v1);
    B_FN(sub)(&r->c0, &v0, &v1);
}

void F2_FN(mul_fp)(F2_T *r, const F2_T *a, const B_T *k)
{
    B_FN(mul)(&r->c0, &a->c0, k);
    B_FN(mul)(&r->c1, &a->c1, k);
}

void F2_FN(sqr)(F2_T *r, const F2_T *a)
{
    /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
    B_T s, d, m;
    B_FN(add)(&s, &a->c0, &a->c1);
    B_FN(sub)(&d, &a->c0, &a->c1);
    B_FN(mul)(&m, &a->c0, &a->c1);
    B_FN(mul)(&r->c0, &s, &d);
    B_FN(dbl)(&r->c1, &m);
}

void F2_FN(mul_by_nonresidue)(F2_T *r, const F2_T *a) { F2_MUL_BY_NONRESIDUE_BODY }

/* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2), the norm inverted by base_inv; inv(0) = 0.
 * static inline with a constant function pointer: each caller gets its own copy. */
static inline void F2_CAT(F2, _inv_with)(F2_T *r, const F2_T *a,
                                         void (*base_inv)(B_T *, const B_T *))
{
    B_T t0, t1;
    B_FN(sqr)(&t0, &a->c0);
    B_FN(sqr)(&t1, &a->c1);
    B_FN(add)(&t0, &t0, &t1);
    base_inv(&t0, &t0);
    B_FN(mul)(&r->c0, &a->c0, &t0);
    B_FN(mul)(&t1, &a->c1, &t0);
    B_FN(neg)(&r->c1, &t1);
}

void F2_FN(inv)(F2_T *r, const F2_T *a) { F2_CAT(F2, _inv_with)(r, a, B_FN(inv)); }

/* Variable-time (the binary inversion of the norm): public data only. */
void F2_FN(inv_vartime)(F2_T *r, const F2_T *a)
{
    F2_CAT(F2, _inv_with)(r, a, B_FN(inv_vartime));
}

void F2_FN(pow)(F2_T *r, const F2_T *a, const uint64_t *e, size_t nlimbs)
{
    F2_T acc, base = *a;
    F2_FN(one)(&acc);
    size_t top = nlimbs;
    while (top > 0 && e[top - 1] == 0)
        top--;
    for (size_t i = top; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            F2_FN(sqr)(&acc, &acc);
            if ((e[i] >> b) & 1)
                F2_FN(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

bool F2_FN(is_square)(const F2_T *a)
{
    /* a is a square in Fp2 iff its norm a0^2 + a1^2 is a square in Fp. */
    B_T t0, t1;
    B_FN(sqr)(&t0, &a->c0);
    B_FN(sqr)(&t1, &a->c1);
    B_FN(add)(&t0, &t0, &t1);
    return B_FN(legendre)(&t0) >= 0;
}

bool F2_FN(sqrt)(F2_T *r, const F2_T *a)
{
    F2_T a1, alpha, a0, x0, x, chk;
    B_T minus_one;
    B_FN(one)(&minus_one);
    B_FN(neg)(&minus_one, &minus_one);
    F2_FN(pow)(&a1, a, FF_C(_P_MINUS_3_QUARTER), sizeof(FF_C(_P)) / sizeof(uint64_t));
    F2_FN(sqr)(&alpha, &a1);
    F2_FN(mul)(&alpha, &alpha, a); /* alpha = a^((p-1)/2) */
    F2_FN(conj)(&a0, &alpha);
    F2_FN(mul)(&a0, &a0, &alpha); /* a0 = alpha^(p+1), the norm test */
    if (B_FN(eq)(&a0.c0, &minus_one) && B_FN(is_zero)(&a0.c1))
        return false;
    F2_FN(mul)(&x0, &a1, a); /* x0 = a^((p+1)/4) */
    if (B_FN(eq)(&alpha.c0, &minus_one) && B_FN(is_zero)(&alpha.c1)) {
        /* x = u * x0 */
        B_FN(neg)(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        F2_T b;
        F2_FN(one)(&b);
        F2_FN(add)(&b, &b, &alpha);
        F2_FN(pow)(&b, &b, FF_C(_P_MINUS_1_HALF), sizeof(FF_C(_P)) / sizeof(uint64_t));
        F2_FN(mul)(&x, &b, &x0);
    }
    F2_FN(sqr)(&chk, &x);
    if (!F2_FN(eq)(&chk, a))
        return false;
    *r = x;
    return true;
}

bool F2_FN(gt_half)(const F2_T *a)
{
    if (!B_FN(is_zero)(&a->c1))
        return B_FN(gt_half)(&a->c1);
    return B_FN(gt_half)(&a->c0);
}

bool F2_FN(sgn0)(const F2_T *a)
{
    if (!B_FN(is_zero)(&a->c0))
        return B_FN(is_odd)(&a->c0);
    return B_FN(is_odd)(&a->c1);
}

#undef F2_FN
#undef B_FN
#undef F2_T
#undef B_T
