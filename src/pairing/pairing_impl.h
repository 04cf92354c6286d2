/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Optimal ate Miller loop and public API template, included after tower_impl.h.
 *
 * The including file also defines
 *   PR_TWIST_D     1 for a D-type sextic twist (BN254), 0 for an M-type one (BLS12-381)
 *   PR_LOOP_LEN    length of PR_C(_LOOP), the loop digits after the leading 1
 * and, before including this file, the static functions
 *   mul_by_3b(r, a)          r = 3 b' a (b' the coefficient of the twist)
 * and after it
 *   miller_tail(f, st, m)    the curve's end of the loop (BN254: two Frobenius
 *                            additions; BLS12-381: conjugation since x < 0)
 *   final_exp_hard(r, f)     r = f^((p^4 - p^2 + 1)/r) for cyclotomic f.
 *
 * G2 points are kept in homogeneous projective coordinates (x = X/Z, y = Y/Z) on the
 * twist E': y^2 = x^3 + b'; doubling and mixed addition use the formulas of Costello,
 * Lange and Naehrig (PKC 2010) as written by Aranha, Karabina, Longa, Gebotys and
 * Lopez (Eurocrypt 2011), which yield the line through the points with no inversion.
 *
 * The lines are the untwisted tangent/chord evaluated at P = (xp, yp), scaled by a
 * factor from Fp2 (killed by the final exponentiation). With slope s' = 3x^2/(2y) on
 * the twist:
 *   D-type, (x', y') -> (x' w^2, y' w^3):       l = yp - s' xp w + (s' x' - y') w^3
 *   M-type, (x', y') -> (x' w^-2, y' w^-3), times w^3:
 *                                               l = (s' x' - y') - s' xp v + yp v w
 * so a line has three non-zero Fp2 slots: {1, w, v w} (D) or {1, v, v w} (M); see
 * fp12_mul_line. In projective form, doubling gives 2YZ * l:
 *   -H yp + 3 X^2 xp (w | v) + (E - B) (v w | 1)   with H = 2YZ, B = Y^2, E = 3 b' Z^2,
 * and the chord through T and affine Q gives, with theta = Y - yq Z, lambda = X - xq Z,
 *   lambda yp - theta xp (w | v) + (theta xq - lambda yq) (v w | 1).
 *
 * Several pairs run through one loop: the accumulator is squared once per bit for all
 * of them (at most ML_CHUNK pairs at a time, on the stack; larger inputs go through in
 * chunks whose results are multiplied).
 */

#define ML_CHUNK 8

/* Line value with the P coordinates already multiplied in: l = c + x (.) + y (.). */
struct ml_line {
    fp2_t c, x, y;
};

/* One pair in flight: T (projective, on the twist), Q, and P-derived constants. */
struct ml_pair {
    fp2_t tx, ty, tz;
    fp2_t qx, qy, nqy;      /* Q and -Q.y */
    fp_t xp3, nxp, yp, nyp; /* 3 xp, -xp, yp, -yp */
};

static void mul_by_3b(fp2_t *r, const fp2_t *a);
static void miller_tail(fp12_t *f, struct ml_pair *st, size_t m);
static void final_exp_hard(fp12_t *r, const fp12_t *f);

/* f *= l, l sparse (13 Fp2 products instead of 18 for a full product). */
static inline void fp12_mul_line(fp12_t *f, const struct ml_line *l)
{
    fp6_t a, b, s;
    fp2_t t0, t1;
#if PR_TWIST_D
    /* l = l0 + l1 w with l0 = y (in Fp2), l1 = x + c v */
    fp6_mul_fp2(&a, &f->c0, &l->y);
    fp6_mul_01(&b, &f->c1, &l->x, &l->c);
    fp2_add(&t0, &l->y, &l->x);
    fp6_add(&s, &f->c0, &f->c1);
    fp6_mul_01(&f->c1, &s, &t0, &l->c);
#else
    /* l = l0 + l1 w with l0 = c + x v, l1 = y v */
    fp6_mul_01(&a, &f->c0, &l->c, &l->x);
    fp6_mul_1(&b, &f->c1, &l->y);
    fp2_add(&t1, &l->x, &l->y);
    fp6_add(&s, &f->c0, &f->c1);
    fp6_mul_01(&f->c1, &s, &l->c, &t1);
    (void)t0;
#endif
    fp6_sub(&f->c1, &f->c1, &a);
    fp6_sub(&f->c1, &f->c1, &b);
    fp6_mul_v(&b, &b);
    fp6_add(&f->c0, &a, &b);
#if PR_TWIST_D
    (void)t1;
#endif
}

/*
 * T = 2T and the tangent line at T:
 *   A = XY/2, B = Y^2, C = Z^2, E = 3b'C, F = 3E, G = (B + F)/2, H = (Y + Z)^2 - B - C
 *   X3 = A (B - F), Y3 = G^2 - 3 E^2, Z3 = B H
 */
static inline void dbl_step(struct ml_pair *s, struct ml_line *l)
{
    fp2_t A, B, C, E, F, G, H, t;
    fp2_mul(&A, &s->tx, &s->ty);
    fp2_half(&A, &A);
    fp2_sqr(&B, &s->ty);
    fp2_sqr(&C, &s->tz);
    mul_by_3b(&E, &C);
    fp2_dbl(&F, &E);
    fp2_add(&F, &F, &E);
    fp2_add(&G, &B, &F);
    fp2_half(&G, &G);
    fp2_add(&H, &s->ty, &s->tz);
    fp2_sqr(&H, &H);
    fp2_sub(&H, &H, &B);
    fp2_sub(&H, &H, &C);

    fp2_sub(&l->c, &E, &B);
    fp2_sqr(&t, &s->tx);
    fp2_mul_fp(&l->x, &t, &s->xp3);
    fp2_mul_fp(&l->y, &H, &s->nyp);

    fp2_sub(&t, &B, &F);
    fp2_mul(&s->tx, &A, &t);
    fp2_sqr(&G, &G);
    fp2_sqr(&t, &E);
    fp2_dbl(&C, &t);
    fp2_add(&t, &t, &C);
    fp2_sub(&s->ty, &G, &t);
    fp2_mul(&s->tz, &B, &H);
}

/*
 * The chord through T and the affine point (qx, qy), and T = T + (qx, qy) if update:
 *   theta = Y - qy Z, lambda = X - qx Z, C = theta^2, D = lambda^2, E = lambda D,
 *   F = Z C, G = X D, H = E + F - 2G; X3 = lambda H, Y3 = theta (G - H) - E Y, Z3 = Z E.
 * T != +-Q throughout the loops (T is a multiple [k]Q with 1 < k < r).
 */
static inline void add_step(struct ml_pair *s, const fp2_t *qx, const fp2_t *qy, struct ml_line *l,
                            bool update)
{
    fp2_t th, la, t, u;
    fp2_mul(&t, qy, &s->tz);
    fp2_sub(&th, &s->ty, &t);
    fp2_mul(&t, qx, &s->tz);
    fp2_sub(&la, &s->tx, &t);

    fp2_mul(&t, &th, qx);
    fp2_mul(&u, &la, qy);
    fp2_sub(&l->c, &t, &u);
    fp2_mul_fp(&l->x, &th, &s->nxp);
    fp2_mul_fp(&l->y, &la, &s->yp);
    if (!update)
        return;

    fp2_t C, D, E, F, G, H;
    fp2_sqr(&C, &th);
    fp2_sqr(&D, &la);
    fp2_mul(&E, &la, &D);
    fp2_mul(&F, &s->tz, &C);
    fp2_mul(&G, &s->tx, &D);
    fp2_add(&H, &E, &F);
    fp2_sub(&H, &H, &G);
    fp2_sub(&H, &H, &G);
    fp2_mul(&s->tx, &la, &H);
    fp2_sub(&t, &G, &H);
    fp2_mul(&t, &th, &t);
    fp2_mul(&u, &E, &s->ty);
    fp2_sub(&s->ty, &t, &u);
    fp2_mul(&s->tz, &s->tz, &E);
}

static inline void ml_pair_init(struct ml_pair *s, const g1a_t *p, const g2a_t *q)
{
    s->tx = q->x;
    s->ty = q->y;
    fp2_one(&s->tz);
    s->qx = q->x;
    s->qy = q->y;
    fp2_neg(&s->nqy, &q->y);
    fp_dbl(&s->xp3, &p->x);
    fp_add(&s->xp3, &s->xp3, &p->x);
    fp_neg(&s->nxp, &p->x);
    s->yp = p->y;
    fp_neg(&s->nyp, &p->y);
}

/* f = product of the Miller loops of st[0..m), squarings shared. */
static void miller_chunk(fp12_t *f, struct ml_pair *st, size_t m)
{
    struct ml_line l;
    fp12_one(f);
    for (size_t i = 0; i < PR_LOOP_LEN; i++) {
        if (i > 0)
            fp12_sqr(f, f);
        for (size_t j = 0; j < m; j++) {
            dbl_step(&st[j], &l);
            fp12_mul_line(f, &l);
        }
        int d = PR_C(_LOOP)[i];
        if (d == 0)
            continue;
        for (size_t j = 0; j < m; j++) {
            add_step(&st[j], &st[j].qx, d > 0 ? &st[j].qy : &st[j].nqy, &l, true);
            fp12_mul_line(f, &l);
        }
    }
    miller_tail(f, st, m);
}

static inline bool g1a_is_inf(const g1a_t *p) { return fp_is_zero(&p->x) & fp_is_zero(&p->y); }

static inline bool g2a_is_inf(const g2a_t *q) { return fp2_is_zero(&q->x) & fp2_is_zero(&q->y); }

/* acc *= the Miller loops of st[0..m); *any is false while acc holds nothing yet. */
static void miller_flush(fp12_t *acc, bool *any, struct ml_pair *st, size_t m)
{
    fp12_t part;
    miller_chunk(&part, st, m);
    if (*any)
        fp12_mul(acc, acc, &part);
    else
        *acc = part;
    *any = true;
}

static void miller_loop(fp12_t *f, const g1a_t *p, const g2a_t *q, size_t n)
{
    struct ml_pair st[ML_CHUNK];
    fp12_t acc;
    size_t m = 0;
    bool any = false;
    fp12_one(&acc);
    for (size_t i = 0; i < n; i++) {
        if (g1a_is_inf(&p[i]) || g2a_is_inf(&q[i]))
            continue; /* e(O, Q) = e(P, O) = 1 */
        ml_pair_init(&st[m++], &p[i], &q[i]);
        if (m == ML_CHUNK) {
            miller_flush(&acc, &any, st, m);
            m = 0;
        }
    }
    if (m > 0)
        miller_flush(&acc, &any, st, m);
    *f = acc;
}

/* f^((p^12 - 1)/r): easy part f^((p^6 - 1)(p^2 + 1)), then the hard part. */
static void final_exp(fp12_t *r, const fp12_t *f)
{
    fp12_t t, u;
    fp12_inv(&t, f);
    fp12_conj(&u, f);
    fp12_mul(&u, &u, &t); /* f^(p^6 - 1) */
    fp12_frob(&t, &u, 2);
    fp12_mul(&u, &t, &u); /* ^(p^2 + 1): now cyclotomic */
    final_exp_hard(r, &u);
}

/* ------------------------------------------------------------- exports --- */

void PR_API(fp6_, zero)(fp6_t *r) { fp6_zero(r); }
void PR_API(fp6_, one)(fp6_t *r) { fp6_one(r); }
bool PR_API(fp6_, is_zero)(const fp6_t *a) { return fp6_is_zero(a); }
bool PR_API(fp6_, eq)(const fp6_t *a, const fp6_t *b) { return fp6_eq(a, b); }
void PR_API(fp6_, add)(fp6_t *r, const fp6_t *a, const fp6_t *b) { fp6_add(r, a, b); }
void PR_API(fp6_, sub)(fp6_t *r, const fp6_t *a, const fp6_t *b) { fp6_sub(r, a, b); }
void PR_API(fp6_, neg)(fp6_t *r, const fp6_t *a) { fp6_neg(r, a); }
void PR_API(fp6_, mul)(fp6_t *r, const fp6_t *a, const fp6_t *b) { fp6_mul(r, a, b); }
void PR_API(fp6_, sqr)(fp6_t *r, const fp6_t *a) { fp6_sqr(r, a); }
void PR_API(fp6_, inv)(fp6_t *r, const fp6_t *a) { fp6_inv(r, a); }

void PR_API(fp12_, zero)(fp12_t *r) { memset(r, 0, sizeof *r); }
void PR_API(fp12_, one)(fp12_t *r) { fp12_one(r); }
bool PR_API(fp12_, is_one)(const fp12_t *a) { return fp12_is_one(a); }
bool PR_API(fp12_, eq)(const fp12_t *a, const fp12_t *b) { return fp12_eq(a, b); }
void PR_API(fp12_, mul)(fp12_t *r, const fp12_t *a, const fp12_t *b) { fp12_mul(r, a, b); }
void PR_API(fp12_, sqr)(fp12_t *r, const fp12_t *a) { fp12_sqr(r, a); }
void PR_API(fp12_, inv)(fp12_t *r, const fp12_t *a) { fp12_inv(r, a); }
void PR_API(fp12_, conj)(fp12_t *r, const fp12_t *a) { fp12_conj(r, a); }
void PR_API(fp12_, cyclotomic_sqr)(fp12_t *r, const fp12_t *a) { fp12_cyc_sqr(r, a); }

void PR_API(fp12_, frobenius)(fp12_t *r, const fp12_t *a, unsigned k)
{
    fp12_t t = *a;
    k %= 12;
    for (; k >= 3; k -= 3)
        fp12_frob(&t, &t, 3);
    if (k > 0)
        fp12_frob(&t, &t, (int)k);
    *r = t;
}

void PR_API(fp12_, pow)(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t nlimbs)
{
    fp12_t acc, base = *a;
    fp12_one(&acc);
    for (size_t i = nlimbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                fp12_mul(&acc, &acc, &base);
        }
    }
    *r = acc;
}

void PR_CAT(PR_CAT(czk_pairing_, PR), _miller_loop)(fp12_t *f, const g1a_t *p, const g2a_t *q,
                                                    size_t n)
{
    miller_loop(f, p, q, n);
}

void PR_CAT(PR_CAT(czk_pairing_, PR), _final_exp)(fp12_t *r, const fp12_t *f) { final_exp(r, f); }

void PR_CAT(czk_pairing_, PR)(fp12_t *r, const g1a_t *p, const g2a_t *q)
{
    fp12_t f;
    miller_loop(&f, p, q, 1);
    final_exp(r, &f);
}

bool PR_CAT(PR_CAT(czk_pairing_, PR), _check)(const g1a_t *p, const g2a_t *q, size_t n)
{
    fp12_t f;
    miller_loop(&f, p, q, n);
    final_exp(&f, &f);
    return fp12_is_one(&f);
}
