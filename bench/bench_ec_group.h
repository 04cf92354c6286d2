/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-group part of czk_bench_ec, instantiated once per group (the including
 * file defines BE, the group name, BE_FR, its scalar field, and BE_NF, 1 for G1
 * and 2 for G2, then includes this file; everything is #undef'd at the end).
 *
 * It defines static be_<G>_run(opts, seed): deterministic random points and
 * scalars, consistency checks between the entry points that must agree (add vs
 * add_ct vs add_affine, mul vs mul_ct vs mul_limbs), then the latency of each
 * operation as a dependent chain r = op(r, ...), median of the repetitions.
 */

#define BE_CAT_(a, b) a##b
#define BE_CAT(a, b) BE_CAT_(a, b)
#define BE_STR_(a) #a
#define BE_STR(a) BE_STR_(a)
#define BE_FN(x) BE_CAT(BE_CAT(czk_, BE), _##x)
#define BE_FRFN(x) BE_CAT(BE_CAT(czk_, BE_FR), _##x)
#define BE_S(x) BE_CAT(BE_CAT(be_, BE), _##x)
#define BE_T struct BE_CAT(czk_, BE)
#define BE_A struct BE_CAT(BE_CAT(czk_, BE), _affine)
#define BE_K struct BE_CAT(czk_, BE_FR)
#define BE_NAME BE_STR(BE)

/* Operands of one chain; each loop uses the ones it needs. */
struct BE_S(args) {
    BE_T q;
    BE_A qa;
    BE_K k;
};

typedef void (*BE_S(fn))(BE_T *r, const struct BE_S(args) *x, long n);

static void BE_S(loop_add)(BE_T *r, const struct BE_S(args) *x, long n)
{
    for (long i = 0; i < n; i++)
        BE_FN(add)(r, r, &x->q);
}
static void BE_S(loop_add_ct)(BE_T *r, const struct BE_S(args) *x, long n)
{
    for (long i = 0; i < n; i++)
        BE_FN(add_ct)(r, r, &x->q);
}
static void BE_S(loop_add_affine)(BE_T *r, const struct BE_S(args) *x, long n)
{
    for (long i = 0; i < n; i++)
        BE_FN(add_affine)(r, r, &x->qa);
}
static void BE_S(loop_dbl)(BE_T *r, const struct BE_S(args) *x, long n)
{
    (void)x;
    for (long i = 0; i < n; i++)
        BE_FN(dbl)(r, r);
}
static void BE_S(loop_mul)(BE_T *r, const struct BE_S(args) *x, long n)
{
    for (long i = 0; i < n; i++)
        BE_FN(mul)(r, r, &x->k);
}
static void BE_S(loop_mul_ct)(BE_T *r, const struct BE_S(args) *x, long n)
{
    for (long i = 0; i < n; i++)
        BE_FN(mul_ct)(r, r, &x->k);
}

static void BE_S(rand_scalar)(BE_K *k, uint64_t *seed)
{
    const uint64_t *r = BE_FRFN(modulus)();
    int bits = 64 - __builtin_clzll(r[3]);
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = bench_rand64(seed);
        l[3] &= mask;
    } while (BE_FRFN(from_canonical)(k, l) != CZK_OK);
}

/* A point of the subgroup with a random-looking Jacobian z. */
static void BE_S(rand_point)(BE_T *p, uint64_t *seed)
{
    BE_A g;
    BE_T t;
    uint64_t k[2] = {bench_rand64(seed), bench_rand64(seed) >> 1};
    BE_FN(generator)(&g);
    BE_FN(from_affine)(&t, &g);
    BE_FN(mul_limbs)(p, &t, k, 2);
}

static void BE_S(measure)(const struct bench_opts *o, const char *op, BE_S(fn) f,
                          const BE_T *start, const struct BE_S(args) *x, long n)
{
    double t[BENCH_MAX_REPS];
    BE_T r = *start;
    f(&r, x, n / 16 + 1); /* warm-up */
    for (int k = 0; k < o->reps; k++) {
        BENCH_TIME(t[k], (r = *start, f(&r, x, n)));
        t[k] /= (double)n;
    }
    if (BE_FN(is_inf)(&r))
        bench_die(BE_NAME " %s chain reached infinity", op);
    bench_record(BE_NAME, op, bench_median(t, o->reps));
}

static void BE_S(check)(const BE_T *p, const struct BE_S(args) *x)
{
    BE_T a, b, c;
    BE_A pa;
    uint64_t kl[4];
    BE_FN(to_affine)(&pa, p);
    if (!BE_FN(affine_on_curve)(&pa) || !BE_FN(affine_in_subgroup)(&pa))
        bench_die(BE_NAME ": benchmark point not in the subgroup");
    BE_FN(add)(&a, p, &x->q);
    BE_FN(add_ct)(&b, p, &x->q);
    BE_FN(add_affine)(&c, p, &x->qa);
    if (!BE_FN(eq)(&a, &b) || !BE_FN(eq)(&a, &c))
        bench_die("MISMATCH: " BE_NAME " add, add_ct and add_affine disagree");
    BE_FN(dbl)(&a, p);
    BE_FN(add)(&b, p, p);
    if (!BE_FN(eq)(&a, &b))
        bench_die("MISMATCH: " BE_NAME " dbl(p) != add(p, p)");
    BE_FN(mul)(&a, p, &x->k);
    BE_FN(mul_ct)(&b, p, &x->k);
    BE_FRFN(to_canonical)(kl, &x->k);
    BE_FN(mul_limbs)(&c, p, kl, 4);
    if (!BE_FN(eq)(&a, &b) || !BE_FN(eq)(&a, &c))
        bench_die("MISMATCH: " BE_NAME " mul, mul_ct and mul_limbs disagree");
}

static void BE_S(run)(const struct bench_opts *o, uint64_t seed)
{
    BE_T p;
    struct BE_S(args) x;
    BE_S(rand_point)(&p, &seed);
    BE_S(rand_point)(&x.q, &seed);
    BE_FN(to_affine)(&x.qa, &x.q);
    BE_S(rand_scalar)(&x.k, &seed);
    BE_S(check)(&p, &x);

    /* A few milliseconds per repetition at most (see bench_util.h). */
    long ng = bench_iters(o, BE_NF == 1 ? 2000 : 500);
    long nm = bench_iters(o, BE_NF == 1 ? 10 : 3);
    BE_S(measure)(o, "add", BE_S(loop_add), &p, &x, ng);
    BE_S(measure)(o, "add_ct", BE_S(loop_add_ct), &p, &x, ng);
    BE_S(measure)(o, "add_affine", BE_S(loop_add_affine), &p, &x, ng);
    BE_S(measure)(o, "dbl", BE_S(loop_dbl), &p, &x, ng);
    BE_S(measure)(o, "mul", BE_S(loop_mul), &p, &x, nm);
    BE_S(measure)(o, "mul_ct", BE_S(loop_mul_ct), &p, &x, nm);
}

#undef BE_CAT_
#undef BE_CAT
#undef BE_STR_
#undef BE_STR
#undef BE_FN
#undef BE_FRFN
#undef BE_S
#undef BE_T
#undef BE_A
#undef BE_K
#undef BE_NAME
#undef BE
#undef BE_FR
#undef BE_NF
