/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Short-Weierstrass group template (y^2 = x^3 + b, a = 0), instantiated once per group.
 *
 * The including file defines
 *   EC_G            the group name (g1_bn254, ...), used to paste czk_EC_G_* names
 *   EC_F            the coordinate field (fp_bn254, fp2_bn254, ...); G1 and G2 fields share
 *                   the function names used here (add, sub, dbl, neg, mul, sqr, eq, cmov,
 *                   is_zero, is_one, inv, sqrt, gt_half)
 *   EC_FR           the scalar field (fr_bn254, fr_bls12_381)
 *   EC_B            the curve constant b (a const struct czk_EC_F object)
 *   EC_GEN          the generator (a const affine point object)
 *   EC_ORDER, EC_COFACTOR   uint64_t arrays (LE limbs) of the group order r and the cofactor
 *   EC_INV_VT       the fastest inversion of EC_F (variable time is fine: public data only)
 * and includes this file once. The group file then defines the group-specific functions:
 * affine_in_subgroup and clear_cofactor, using the static helpers below.
 *
 * Points are Jacobian (X, Y, Z) ~ (X/Z^2, Y/Z^3); Z = 0 is infinity (set_inf writes
 * (1, 1, 0)). Affine infinity is (0, 0), which lies on none of czk's curves since b != 0.
 * None of the curves has points of order 2 (all group orders are odd), so Y = 0 never
 * occurs on a curve point and doubling needs no special case: Z3 = 2 Y1 Z1 is zero
 * exactly when Z1 is.
 *
 * Formulas (Explicit-Formulas Database, a = 0): dbl-2009-l (2M + 5S), add-2007-bl
 * (11M + 5S), madd-2007-bl (7M + 4S). The variable-time functions branch on the
 * exceptional cases; add_ct computes the generic sum and the doubling and selects by
 * cmov. Every output may alias any input (batch_to_affine: out, in and scratch are
 * distinct arrays). Nothing allocates; all state is on the stack.
 */
#include <string.h>

#include "czk/czk_ec.h"

#define EC_CAT_(a, b) a##b
#define EC_CAT(a, b) EC_CAT_(a, b)
#define EC_FN(x) EC_CAT(EC_CAT(czk_, EC_G), _##x)
#define EC_T struct EC_CAT(czk_, EC_G)
#define EC_AFF_T struct EC_CAT(EC_CAT(czk_, EC_G), _affine)
#define F_FN(x) EC_CAT(EC_CAT(czk_, EC_F), _##x)
#define F_T struct EC_CAT(czk_, EC_F)
#define FR_FN(x) EC_CAT(EC_CAT(czk_, EC_FR), _##x)
#define FR_T struct EC_CAT(czk_, EC_FR)

#define EC_NLIMBS(a) (sizeof(a) / sizeof((a)[0]))

/* wNAF width for the variable-time multiplications: digits odd in [-15, 15], 8 table entries. */
#define EC_WNAF_W 5
#define EC_WNAF_TBL (1 << (EC_WNAF_W - 2))
/* Longest scalar mul_limbs recodes (768 bits covers every cofactor, h_eff included);
 * longer ones fall back to plain double-and-add. */
#define EC_WNAF_MAX_LIMBS 12

/* ---- affine --------------------------------------------------------------------------------- */

void EC_FN(generator)(EC_AFF_T *p) { *p = EC_GEN; }

bool EC_FN(affine_is_inf)(const EC_AFF_T *p) { return F_FN(is_zero)(&p->x) & F_FN(is_zero)(&p->y); }

void EC_FN(affine_set_inf)(EC_AFF_T *p)
{
    F_FN(zero)(&p->x);
    F_FN(zero)(&p->y);
}

/* x^3 + b */
static inline void ec_rhs(F_T *r, const F_T *x)
{
    F_T t;
    F_FN(sqr)(&t, x);
    F_FN(mul)(&t, &t, x);
    F_FN(add)(r, &t, &EC_B);
}

bool EC_FN(affine_on_curve)(const EC_AFF_T *p)
{
    if (EC_FN(affine_is_inf)(p))
        return true;
    F_T l, r;
    F_FN(sqr)(&l, &p->y);
    ec_rhs(&r, &p->x);
    return F_FN(eq)(&l, &r);
}

bool EC_FN(affine_eq)(const EC_AFF_T *a, const EC_AFF_T *b)
{
    return F_FN(eq)(&a->x, &b->x) & F_FN(eq)(&a->y, &b->y);
}

void EC_FN(affine_neg)(EC_AFF_T *r, const EC_AFF_T *p)
{
    r->x = p->x;
    F_FN(neg)(&r->y, &p->y); /* -0 = 0: infinity stays (0, 0) */
}

bool EC_FN(affine_from_x)(EC_AFF_T *p, const F_T *x, bool gt_half)
{
    F_T t, y;
    ec_rhs(&t, x);
    if (!F_FN(sqrt)(&y, &t))
        return false;
    if (F_FN(gt_half)(&y) != gt_half)
        F_FN(neg)(&y, &y);
    /* y = 0 would have no root with gt_half set; unreachable (no 2-torsion), kept exact. */
    if (F_FN(gt_half)(&y) != gt_half)
        return false;
    p->x = *x;
    p->y = y;
    return true;
}

bool EC_FN(affine_in_subgroup_slow)(const EC_AFF_T *p)
{
    if (EC_FN(affine_is_inf)(p))
        return true;
    EC_T t;
    EC_FN(from_affine)(&t, p);
    EC_FN(mul_limbs)(&t, &t, EC_ORDER, EC_NLIMBS(EC_ORDER));
    return EC_FN(is_inf)(&t);
}

const uint64_t *EC_FN(order_limbs)(size_t *n)
{
    *n = EC_NLIMBS(EC_ORDER);
    return EC_ORDER;
}

const uint64_t *EC_FN(cofactor_limbs)(size_t *n)
{
    *n = EC_NLIMBS(EC_COFACTOR);
    return EC_COFACTOR;
}

/* ---- Jacobian: conversions and predicates ---------------------------------------------------- */

void EC_FN(set_inf)(EC_T *p)
{
    F_FN(one)(&p->x);
    F_FN(one)(&p->y);
    F_FN(zero)(&p->z);
}

bool EC_FN(is_inf)(const EC_T *p) { return F_FN(is_zero)(&p->z); }

void EC_FN(from_affine)(EC_T *r, const EC_AFF_T *p)
{
    bool inf = EC_FN(affine_is_inf)(p);
    F_T zero;
    F_FN(zero)(&zero);
    r->x = p->x;
    r->y = p->y;
    F_FN(one)(&r->z);
    F_FN(cmov)(&r->z, &zero, inf);
}

void EC_FN(to_affine)(EC_AFF_T *r, const EC_T *p)
{
    if (EC_FN(is_inf)(p)) {
        EC_FN(affine_set_inf)(r);
        return;
    }
    if (F_FN(is_one)(&p->z)) {
        r->x = p->x;
        r->y = p->y;
        return;
    }
    F_T zi, zi2;
    EC_INV_VT(&zi, &p->z);
    F_FN(sqr)(&zi2, &zi);
    F_FN(mul)(&r->x, &p->x, &zi2); /* X / Z^2 */
    F_FN(mul)(&zi2, &zi2, &zi);
    F_FN(mul)(&r->y, &p->y, &zi2); /* Y / Z^3 */
}

void EC_FN(batch_to_affine)(EC_AFF_T *out, const EC_T *in, size_t n, F_T *scratch)
{
    /* Montgomery's trick over the nonzero Z: scratch[i] = prod_{j<i, Z_j != 0} Z_j, one
     * inversion of the full product, then walk back peeling one Z_i per step. */
    F_T acc, zi, zi2;
    F_FN(one)(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!EC_FN(is_inf)(&in[i]))
            F_FN(mul)(&acc, &acc, &in[i].z);
    }
    EC_INV_VT(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (EC_FN(is_inf)(&in[i])) {
            EC_FN(affine_set_inf)(&out[i]);
            continue;
        }
        F_FN(mul)(&zi, &acc, &scratch[i]); /* Z_i^-1 */
        F_FN(mul)(&acc, &acc, &in[i].z);   /* drop Z_i from the running inverse */
        F_FN(sqr)(&zi2, &zi);
        F_FN(mul)(&out[i].x, &in[i].x, &zi2);
        F_FN(mul)(&zi2, &zi2, &zi);
        F_FN(mul)(&out[i].y, &in[i].y, &zi2);
    }
}

bool EC_FN(eq)(const EC_T *a, const EC_T *b)
{
    bool ai = EC_FN(is_inf)(a), bi = EC_FN(is_inf)(b);
    if (ai || bi)
        return ai && bi;
    /* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3 */
    F_T z1z1, z2z2, t1, t2;
    F_FN(sqr)(&z1z1, &a->z);
    F_FN(sqr)(&z2z2, &b->z);
    F_FN(mul)(&t1, &a->x, &z2z2);
    F_FN(mul)(&t2, &b->x, &z1z1);
    if (!F_FN(eq)(&t1, &t2))
        return false;
    F_FN(mul)(&t1, &a->y, &z2z2);
    F_FN(mul)(&t1, &t1, &b->z);
    F_FN(mul)(&t2, &b->y, &z1z1);
    F_FN(mul)(&t2, &t2, &a->z);
    return F_FN(eq)(&t1, &t2);
}

/* Jacobian q equals affine a (variable time). */
static inline bool ec_eq_affine(const EC_T *q, const EC_AFF_T *a)
{
    bool qi = EC_FN(is_inf)(q), ai = EC_FN(affine_is_inf)(a);
    if (qi || ai)
        return qi && ai;
    F_T zz, t;
    F_FN(sqr)(&zz, &q->z);
    F_FN(mul)(&t, &a->x, &zz);
    if (!F_FN(eq)(&t, &q->x))
        return false;
    F_FN(mul)(&zz, &zz, &q->z);
    F_FN(mul)(&t, &a->y, &zz);
    return F_FN(eq)(&t, &q->y);
}

/* r = c ? a : r, constant-time */
static inline void ec_cmov(EC_T *r, const EC_T *a, bool c)
{
    F_FN(cmov)(&r->x, &a->x, c);
    F_FN(cmov)(&r->y, &a->y, c);
    F_FN(cmov)(&r->z, &a->z, c);
}

/* ---- Jacobian arithmetic ------------------------------------------------------------------- */

void EC_FN(neg)(EC_T *r, const EC_T *a)
{
    r->x = a->x;
    F_FN(neg)(&r->y, &a->y);
    r->z = a->z;
}

void EC_FN(dbl)(EC_T *r, const EC_T *p)
{
    F_T a, b, c, d, e, f;
    F_FN(sqr)(&a, &p->x);     /* A = X1^2 */
    F_FN(sqr)(&b, &p->y);     /* B = Y1^2 */
    F_FN(sqr)(&c, &b);        /* C = B^2 */
    F_FN(add)(&d, &p->x, &b); /* D = 2((X1 + B)^2 - A - C) */
    F_FN(sqr)(&d, &d);
    F_FN(sub)(&d, &d, &a);
    F_FN(sub)(&d, &d, &c);
    F_FN(dbl)(&d, &d);
    F_FN(dbl)(&e, &a); /* E = 3A */
    F_FN(add)(&e, &e, &a);
    F_FN(sqr)(&f, &e); /* F = E^2 */
    /* Z3 = 2 Y1 Z1 first: it is the last use of Y1 and Z1 (r may alias p). */
    F_FN(mul)(&r->z, &p->y, &p->z);
    F_FN(dbl)(&r->z, &r->z);
    F_FN(sub)(&r->x, &f, &d); /* X3 = F - 2D */
    F_FN(sub)(&r->x, &r->x, &d);
    F_FN(sub)(&d, &d, &r->x); /* Y3 = E (D - X3) - 8C */
    F_FN(mul)(&d, &d, &e);
    F_FN(dbl)(&c, &c);
    F_FN(dbl)(&c, &c);
    F_FN(dbl)(&c, &c);
    F_FN(sub)(&r->y, &d, &c);
}

/*
 * add-2007-bl tail: given U1 = X1 Z2^2, S1 = Y1 Z2^3, H = U2 - U1, R = S2 - S1 (not yet
 * doubled) and Z1 + Z2, Z1Z1, Z2Z2, write the sum into r. With H = 0 this yields Z3 = 0
 * (infinity), which is right for P + (-P) and wrong only for P + P.
 */
static inline void ec_add_tail(EC_T *r, const F_T *u1, F_T *s1, const F_T *h, F_T *rr, F_T *zsum,
                               const F_T *z1z1, const F_T *z2z2)
{
    F_T i, j, v;
    F_FN(dbl)(rr, rr); /* r = 2 (S2 - S1) */
    F_FN(dbl)(&i, h);  /* I = (2H)^2 */
    F_FN(sqr)(&i, &i);
    F_FN(mul)(&j, h, &i);  /* J = H I */
    F_FN(mul)(&v, u1, &i); /* V = U1 I */
    F_FN(sqr)(zsum, zsum); /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H */
    F_FN(sub)(zsum, zsum, z1z1);
    F_FN(sub)(zsum, zsum, z2z2);
    F_FN(mul)(&r->z, zsum, h);
    F_FN(sqr)(&r->x, rr); /* X3 = r^2 - J - 2V */
    F_FN(sub)(&r->x, &r->x, &j);
    F_FN(sub)(&r->x, &r->x, &v);
    F_FN(sub)(&r->x, &r->x, &v);
    F_FN(sub)(&v, &v, &r->x); /* Y3 = r (V - X3) - 2 S1 J */
    F_FN(mul)(&v, &v, rr);
    F_FN(mul)(s1, s1, &j);
    F_FN(dbl)(s1, s1);
    F_FN(sub)(&r->y, &v, s1);
}

/* add-2007-bl head: U1, U2, S1, S2, H = U2 - U1, R = S2 - S1, Z1 + Z2, Z1Z1, Z2Z2. */
static inline void ec_add_head(const EC_T *a, const EC_T *b, F_T *u1, F_T *s1, F_T *h, F_T *rr,
                               F_T *zsum, F_T *z1z1, F_T *z2z2)
{
    F_T u2, s2;
    F_FN(sqr)(z1z1, &a->z);
    F_FN(sqr)(z2z2, &b->z);
    F_FN(mul)(u1, &a->x, z2z2);
    F_FN(mul)(&u2, &b->x, z1z1);
    F_FN(mul)(s1, &a->y, &b->z);
    F_FN(mul)(s1, s1, z2z2);
    F_FN(mul)(&s2, &b->y, &a->z);
    F_FN(mul)(&s2, &s2, z1z1);
    F_FN(sub)(h, &u2, u1);
    F_FN(sub)(rr, &s2, s1);
    F_FN(add)(zsum, &a->z, &b->z);
}

void EC_FN(add)(EC_T *r, const EC_T *a, const EC_T *b)
{
    if (EC_FN(is_inf)(a)) {
        *r = *b;
        return;
    }
    if (EC_FN(is_inf)(b)) {
        *r = *a;
        return;
    }
    F_T u1, s1, h, rr, zsum, z1z1, z2z2;
    ec_add_head(a, b, &u1, &s1, &h, &rr, &zsum, &z1z1, &z2z2);
    if (F_FN(is_zero)(&h)) {
        if (F_FN(is_zero)(&rr))
            EC_FN(dbl)(r, a); /* a == b */
        else
            EC_FN(set_inf)(r); /* a == -b */
        return;
    }
    ec_add_tail(r, &u1, &s1, &h, &rr, &zsum, &z1z1, &z2z2);
}

void EC_FN(add_ct)(EC_T *r, const EC_T *a, const EC_T *b)
{
    bool ai = EC_FN(is_inf)(a), bi = EC_FN(is_inf)(b);
    EC_T sum, d;
    F_T u1, s1, h, rr, zsum, z1z1, z2z2;
    EC_FN(dbl)(&d, a);
    ec_add_head(a, b, &u1, &s1, &h, &rr, &zsum, &z1z1, &z2z2);
    bool same = F_FN(is_zero)(&h) & F_FN(is_zero)(&rr);
    /* H = 0 with R != 0 (a == -b) already gives Z3 = 0 in the generic formula. */
    ec_add_tail(&sum, &u1, &s1, &h, &rr, &zsum, &z1z1, &z2z2);
    ec_cmov(&sum, &d, same);
    ec_cmov(&sum, a, bi);
    ec_cmov(&sum, b, ai);
    *r = sum;
}

void EC_FN(add_affine)(EC_T *r, const EC_T *a, const EC_AFF_T *b)
{
    if (EC_FN(affine_is_inf)(b)) {
        *r = *a;
        return;
    }
    if (EC_FN(is_inf)(a)) {
        EC_FN(from_affine)(r, b);
        return;
    }
    F_T z1z1, u2, s2, h, hh, i, j, v, y1j;
    F_FN(sqr)(&z1z1, &a->z);      /* Z1Z1 = Z1^2 */
    F_FN(mul)(&u2, &b->x, &z1z1); /* U2 = X2 Z1Z1 */
    F_FN(mul)(&s2, &b->y, &a->z); /* S2 = Y2 Z1 Z1Z1 */
    F_FN(mul)(&s2, &s2, &z1z1);
    F_FN(sub)(&h, &u2, &a->x);  /* H = U2 - X1 */
    F_FN(sub)(&s2, &s2, &a->y); /* S2 - Y1 */
    if (F_FN(is_zero)(&h)) {
        if (F_FN(is_zero)(&s2))
            EC_FN(dbl)(r, a);
        else
            EC_FN(set_inf)(r);
        return;
    }
    F_FN(dbl)(&s2, &s2); /* r = 2 (S2 - Y1) */
    F_FN(sqr)(&hh, &h);  /* HH = H^2 */
    F_FN(dbl)(&i, &hh);  /* I = 4 HH */
    F_FN(dbl)(&i, &i);
    F_FN(mul)(&j, &h, &i);       /* J = H I */
    F_FN(mul)(&v, &a->x, &i);    /* V = X1 I */
    F_FN(mul)(&y1j, &a->y, &j);  /* Y1 J (last use of Y1) */
    F_FN(add)(&r->z, &a->z, &h); /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    F_FN(sqr)(&r->z, &r->z);
    F_FN(sub)(&r->z, &r->z, &z1z1);
    F_FN(sub)(&r->z, &r->z, &hh);
    F_FN(sqr)(&r->x, &s2); /* X3 = r^2 - J - 2V */
    F_FN(sub)(&r->x, &r->x, &j);
    F_FN(sub)(&r->x, &r->x, &v);
    F_FN(sub)(&r->x, &r->x, &v);
    F_FN(sub)(&v, &v, &r->x); /* Y3 = r (V - X3) - 2 Y1 J */
    F_FN(mul)(&v, &v, &s2);
    F_FN(dbl)(&y1j, &y1j);
    F_FN(sub)(&r->y, &v, &y1j);
}

void EC_FN(sub)(EC_T *r, const EC_T *a, const EC_T *b)
{
    EC_T nb;
    EC_FN(neg)(&nb, b);
    EC_FN(add)(r, a, &nb);
}

/* ---- scalar multiplication ----------------------------------------------------------------- */

/*
 * Width-w NAF of the n-limb integer k (n <= EC_WNAF_MAX_LIMBS): k = sum d[i] 2^i with every
 * nonzero d[i] odd, |d[i]| < 2^(w-1), and at most one nonzero digit in any w consecutive
 * positions. Returns the digit count (0 for k = 0); the top digit is nonzero.
 */
static size_t ec_wnaf_recode(int8_t *d, const uint64_t *k, size_t n)
{
    uint64_t t[EC_WNAF_MAX_LIMBS + 1];
    memcpy(t, k, n * sizeof(uint64_t));
    t[n] = 0;
    size_t m = n + 1, len = 0;
    for (;;) {
        while (m > 0 && t[m - 1] == 0)
            m--;
        if (m == 0)
            return len;
        int v = 0;
        if (t[0] & 1) {
            v = (int)(t[0] & ((1u << EC_WNAF_W) - 1));
            if (v >= 1 << (EC_WNAF_W - 1)) {
                v -= 1 << EC_WNAF_W;
                /* t -= v, i.e. t += |v|: the low w bits become zero, carry upward. Stays
                 * below 2^(64n) + 2^w, so limb n absorbs any carry. */
                uint64_t c = (uint64_t)-v;
                for (size_t i = 0; i <= n && c; i++) {
                    t[i] += c;
                    c = t[i] < c;
                }
                if (m <= n && t[m] != 0)
                    m++;
            } else {
                t[0] -= (uint64_t)v; /* clears the low w bits: no borrow */
            }
        }
        d[len++] = (int8_t)v;
        for (size_t i = 0; i + 1 < m; i++)
            t[i] = (t[i] >> 1) | (t[i + 1] << 63);
        t[m - 1] >>= 1;
    }
}

/* r = [k]p by wNAF over an affine table of odd multiples (one batch inversion). */
static void ec_mul_wnaf(EC_T *r, const EC_T *p, const uint64_t *k, size_t n)
{
    int8_t d[64 * EC_WNAF_MAX_LIMBS + 2];
    size_t len = ec_wnaf_recode(d, k, n);
    if (len == 0 || EC_FN(is_inf)(p)) {
        EC_FN(set_inf)(r);
        return;
    }
    EC_T tbl[EC_WNAF_TBL], p2, acc;
    EC_AFF_T aff[EC_WNAF_TBL], q;
    F_T scratch[EC_WNAF_TBL];
    tbl[0] = *p; /* tbl[i] = [2i + 1] p */
    EC_FN(dbl)(&p2, p);
    for (int i = 1; i < EC_WNAF_TBL; i++)
        EC_FN(add)(&tbl[i], &tbl[i - 1], &p2);
    EC_FN(batch_to_affine)(aff, tbl, EC_WNAF_TBL, scratch);

    int v = d[len - 1];
    EC_FN(from_affine)(&acc, &aff[v >> 1]); /* the top digit is positive */
    for (size_t i = len - 1; i-- > 0;) {
        EC_FN(dbl)(&acc, &acc);
        v = d[i];
        if (v > 0) {
            EC_FN(add_affine)(&acc, &acc, &aff[v >> 1]);
        } else if (v < 0) {
            EC_FN(affine_neg)(&q, &aff[(-v) >> 1]);
            EC_FN(add_affine)(&acc, &acc, &q);
        }
    }
    *r = acc;
}

void EC_FN(mul_limbs)(EC_T *r, const EC_T *p, const uint64_t *k, size_t nlimbs)
{
    while (nlimbs > 0 && k[nlimbs - 1] == 0)
        nlimbs--;
    if (nlimbs <= EC_WNAF_MAX_LIMBS) {
        ec_mul_wnaf(r, p, k, nlimbs);
        return;
    }
    /* Very long integers: left-to-right double-and-add, no recoding buffer needed. */
    EC_T base = *p, acc;
    EC_FN(set_inf)(&acc);
    for (size_t i = 64 * nlimbs; i-- > 0;) {
        EC_FN(dbl)(&acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            EC_FN(add)(&acc, &acc, &base);
    }
    *r = acc;
}

void EC_FN(mul)(EC_T *r, const EC_T *p, const FR_T *k)
{
    uint64_t e[4];
    FR_FN(to_canonical)(e, k);
    ec_mul_wnaf(r, p, e, 4);
}

/* r = [k]p for a small public k: binary double-and-add (cheap for sparse k like |x|). */
static inline void ec_mul_u64(EC_T *r, const EC_T *p, uint64_t k)
{
    EC_T base = *p, acc;
    EC_FN(set_inf)(&acc);
    for (int i = 63; i >= 0; i--) {
        if (!EC_FN(is_inf)(&acc))
            EC_FN(dbl)(&acc, &acc);
        if ((k >> i) & 1)
            EC_FN(add)(&acc, &acc, &base);
    }
    *r = acc;
}

/* The same with an affine base (mixed additions). */
static inline void ec_mul_u64_affine(EC_T *r, const EC_AFF_T *p, uint64_t k)
{
    EC_T acc;
    EC_FN(set_inf)(&acc);
    for (int i = 63; i >= 0; i--) {
        if (!EC_FN(is_inf)(&acc))
            EC_FN(dbl)(&acc, &acc);
        if ((k >> i) & 1)
            EC_FN(add_affine)(&acc, &acc, p);
    }
    *r = acc;
}

void EC_FN(mul_ct)(EC_T *r, const EC_T *p, const FR_T *k)
{
    /* Fixed 4-bit windows over all 256 bits; every window reads all 16 table entries by
     * cmov and adds with add_ct, so the sequence of operations and memory accesses does
     * not depend on k or p. tbl[i] = [i] p, tbl[0] = O. */
    uint64_t e[4];
    FR_FN(to_canonical)(e, k);
    EC_T tbl[16], acc, sel;
    EC_FN(set_inf)(&tbl[0]);
    tbl[1] = *p;
    EC_FN(dbl)(&tbl[2], p);
    for (int i = 3; i < 16; i++)
        EC_FN(add_ct)(&tbl[i], &tbl[i - 1], &tbl[1]);
    EC_FN(set_inf)(&acc);
    for (int w = 63; w >= 0; w--) {
        for (int j = 0; j < 4; j++)
            EC_FN(dbl)(&acc, &acc);
        uint64_t digit = (e[w / 16] >> (4 * (w % 16))) & 15;
        sel = tbl[0];
        for (uint64_t j = 1; j < 16; j++) {
            uint64_t x = j ^ digit;
            ec_cmov(&sel, &tbl[j], (bool)(((x | (0 - x)) >> 63) ^ 1)); /* j == digit */
        }
        EC_FN(add_ct)(&acc, &acc, &sel);
    }
    *r = acc;
    /* Best-effort scrub of the secret scalar's digits on the stack. */
    volatile uint64_t *ve = e;
    for (int i = 0; i < 4; i++)
        ve[i] = 0;
}
