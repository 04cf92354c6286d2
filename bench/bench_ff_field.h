/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-field part of czk_bench_ff, instantiated once per prime field (the
 * including file defines BF, the field name, and BF_N, its limb count, and
 * includes this file; it is #undef'd again at the end).
 *
 * It defines static bf_<F>_run(opts), which builds deterministic random inputs,
 * checks that czk and ffiasm agree bit for bit on them, then times
 *  - latency: a dependent chain r = r op a (one call waits for the previous one),
 *  - throughput: out[i] = a[i] op b[i] over NELEM independent elements,
 * for czk and ffiasm alternately in each repetition, and records the medians.
 * The timed loops call the implementations directly (the ffiasm adapters are
 * static inline), so both sides pay the same call overhead. Function pointers are
 * used only one level up, once per repetition.
 */

#define BF_CAT_(a, b) a##b
#define BF_CAT(a, b) BF_CAT_(a, b)
#define BF_STR_(a) #a
#define BF_STR(a) BF_STR_(a)
#define BF_FN(x) BF_CAT(BF_CAT(czk_, BF), _##x)
#define BF_S(x) BF_CAT(BF_CAT(bf_, BF), _##x)
#define BF_FFI(x) BF_CAT(BF_CAT(ffiasm_, BF), _##x)
#define BF_T struct BF_CAT(czk_, BF)
#define BF_NAME BF_STR(BF)

typedef void (*BF_S(lat_fn))(BF_T *r, const BF_T *a, long n);
typedef void (*BF_S(thr_fn))(BF_T *out, const BF_T *a, const BF_T *b, long passes);

/* Timed loops; `op` is a direct call. */
#define BF_LAT2(name, op)                                                                          \
    static void name(BF_T *r, const BF_T *a, long n)                                              \
    {                                                                                              \
        for (long i = 0; i < n; i++)                                                               \
            op(r, r, a);                                                                           \
    }
#define BF_LAT1(name, op)                                                                          \
    static void name(BF_T *r, const BF_T *a, long n)                                              \
    {                                                                                              \
        (void)a;                                                                                   \
        for (long i = 0; i < n; i++)                                                               \
            op(r, r);                                                                              \
    }
#define BF_THR2(name, op)                                                                          \
    static void name(BF_T *out, const BF_T *a, const BF_T *b, long passes)                        \
    {                                                                                              \
        for (long k = 0; k < passes; k++)                                                          \
            for (int i = 0; i < NELEM; i++)                                                        \
                op(&out[i], &a[i], &b[i]);                                                         \
    }
#define BF_THR1(name, op)                                                                          \
    static void name(BF_T *out, const BF_T *a, const BF_T *b, long passes)                        \
    {                                                                                              \
        (void)b;                                                                                   \
        for (long k = 0; k < passes; k++)                                                          \
            for (int i = 0; i < NELEM; i++)                                                        \
                op(&out[i], &a[i]);                                                                \
    }

BF_LAT2(BF_S(lat_mul_czk), BF_FN(mul))
BF_LAT1(BF_S(lat_sqr_czk), BF_FN(sqr))
BF_LAT2(BF_S(lat_add_czk), BF_FN(add))
BF_LAT1(BF_S(lat_inv_czk), BF_FN(inv))
BF_LAT1(BF_S(lat_invv_czk), BF_FN(inv_vartime))
BF_THR2(BF_S(thr_mul_czk), BF_FN(mul))
BF_THR1(BF_S(thr_sqr_czk), BF_FN(sqr))
BF_THR2(BF_S(thr_add_czk), BF_FN(add))

#if CZK_BENCH_FFIASM
/* The generated raw entry points: limb arrays in Montgomery form, SysV ABI
 * (rdi = result, rsi = a, rdx = b). They clobber only caller-saved registers
 * (r12-r15, rbx, rbp are pushed) and read a[] and b[] before writing r[], so the
 * result may alias an input. */
void BF_FFI(rawMMul)(uint64_t *r, const uint64_t *a, const uint64_t *b);
void BF_FFI(rawMSquare)(uint64_t *r, const uint64_t *a);
void BF_FFI(rawAdd)(uint64_t *r, const uint64_t *a, const uint64_t *b);
/* Referenced (extern) by the generated file's tagged-element code; never reached
 * through the raw functions. */
void BF_FFI(fail)(void);
void BF_FFI(fail)(void) { bench_die("ffiasm " BF_NAME ": _fail called"); }

static inline void BF_S(ffi_mul)(BF_T *r, const BF_T *a, const BF_T *b)
{
    BF_FFI(rawMMul)(r->l, a->l, b->l);
}
static inline void BF_S(ffi_sqr)(BF_T *r, const BF_T *a) { BF_FFI(rawMSquare)(r->l, a->l); }
static inline void BF_S(ffi_add)(BF_T *r, const BF_T *a, const BF_T *b)
{
    BF_FFI(rawAdd)(r->l, a->l, b->l);
}

BF_LAT2(BF_S(lat_mul_ffi), BF_S(ffi_mul))
BF_LAT1(BF_S(lat_sqr_ffi), BF_S(ffi_sqr))
BF_LAT2(BF_S(lat_add_ffi), BF_S(ffi_add))
BF_THR2(BF_S(thr_mul_ffi), BF_S(ffi_mul))
BF_THR1(BF_S(thr_sqr_ffi), BF_S(ffi_sqr))
BF_THR2(BF_S(thr_add_ffi), BF_S(ffi_add))
#define BF_FFI_OR_NULL(x) BF_S(x)
#else
#define BF_FFI_OR_NULL(x) NULL
#endif

/* Uniform random element below p, read as Montgomery limbs. */
static void BF_S(rand_elem)(BF_T *x, uint64_t *seed)
{
    const uint64_t *p = BF_FN(modulus)();
    int bits = 64 - __builtin_clzll(p[BF_N - 1]);
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, l[BF_N];
    do {
        for (int i = 0; i < BF_N; i++)
            l[i] = bench_rand64(seed);
        l[BF_N - 1] &= mask;
    } while (BF_FN(from_mont_limbs)(x, l) != CZK_OK);
}

static double BF_S(time_lat)(BF_S(lat_fn) f, const BF_T *start, const BF_T *a, long n,
                             BF_T *final)
{
    BF_T r;
    double t;
    BENCH_TIME(t, (r = *start, f(&r, a, n)));
    *final = r;
    return t / (double)n;
}

/* Latency of czk (fc) and ffiasm (ff, may be NULL), alternating per repetition;
 * both chains start from the same value and must end on the same value. */
static void BF_S(pair_lat)(const struct bench_opts *o, const char *op, BF_S(lat_fn) fc,
                           BF_S(lat_fn) ff, const BF_T *start, const BF_T *a, long n)
{
    double tc[BENCH_MAX_REPS], tf[BENCH_MAX_REPS];
    BF_T rc, rf;
    BF_S(time_lat)(fc, start, a, n / 16 + 1, &rc); /* warm-up */
    if (ff)
        BF_S(time_lat)(ff, start, a, n / 16 + 1, &rf);
    for (int k = 0; k < o->reps; k++) {
        tc[k] = BF_S(time_lat)(fc, start, a, n, &rc);
        if (ff)
            tf[k] = BF_S(time_lat)(ff, start, a, n, &rf);
    }
    if (ff && memcmp(&rc, &rf, sizeof rc) != 0)
        bench_die("MISMATCH: " BF_NAME " %s latency chain: czk and ffiasm disagree", op);
    bench_record(BF_NAME, op, "lat", bench_median(tc, o->reps),
                 ff ? bench_median(tf, o->reps) : -1.0);
}

static void BF_S(pair_thr)(const struct bench_opts *o, const char *op, BF_S(thr_fn) fc,
                           BF_S(thr_fn) ff, const BF_T *a, const BF_T *b, long passes)
{
    static BF_T oc[NELEM], of[NELEM];
    double tc[BENCH_MAX_REPS], tf[BENCH_MAX_REPS], per = (double)passes * NELEM;
    fc(oc, a, b, 1);
    if (ff)
        ff(of, a, b, 1);
    for (int k = 0; k < o->reps; k++) {
        BENCH_TIME(tc[k], fc(oc, a, b, passes));
        tc[k] /= per;
        if (ff) {
            BENCH_TIME(tf[k], ff(of, a, b, passes));
            tf[k] /= per;
        }
    }
    if (ff && memcmp(oc, of, sizeof oc) != 0)
        bench_die("MISMATCH: " BF_NAME " %s throughput outputs: czk and ffiasm disagree", op);
    bench_record(BF_NAME, op, "thr", bench_median(tc, o->reps),
                 ff ? bench_median(tf, o->reps) : -1.0);
}

/* Element-wise checks on the benchmark inputs, before anything is timed. */
static void BF_S(check)(const BF_T *a, const BF_T *b)
{
    BF_T x, y, one;
    BF_FN(one)(&one);
    for (int i = 0; i < NELEM; i++) {
#if CZK_BENCH_FFIASM
        BF_FN(mul)(&x, &a[i], &b[i]);
        BF_S(ffi_mul)(&y, &a[i], &b[i]);
        if (memcmp(&x, &y, sizeof x) != 0)
            bench_die("MISMATCH: " BF_NAME " mul, element %d: czk and ffiasm disagree", i);
        BF_FN(sqr)(&x, &a[i]);
        BF_S(ffi_sqr)(&y, &a[i]);
        if (memcmp(&x, &y, sizeof x) != 0)
            bench_die("MISMATCH: " BF_NAME " sqr, element %d: czk and ffiasm disagree", i);
        BF_FN(add)(&x, &a[i], &b[i]);
        BF_S(ffi_add)(&y, &a[i], &b[i]);
        if (memcmp(&x, &y, sizeof x) != 0)
            bench_die("MISMATCH: " BF_NAME " add, element %d: czk and ffiasm disagree", i);
#endif
        if (i < 64) {
            BF_FN(inv)(&x, &a[i]);
            BF_FN(inv_vartime)(&y, &a[i]);
            if (memcmp(&x, &y, sizeof x) != 0)
                bench_die("MISMATCH: " BF_NAME " inv != inv_vartime, element %d", i);
            BF_FN(mul)(&y, &x, &a[i]);
            if (!BF_FN(is_zero)(&a[i]) && !BF_FN(eq)(&y, &one))
                bench_die("MISMATCH: " BF_NAME " a * inv(a) != 1, element %d", i);
        }
    }
}

static void BF_S(run)(const struct bench_opts *o, uint64_t seed)
{
    static BF_T a[NELEM], b[NELEM];
    BF_T pm1;
    uint64_t l[BF_N];
    memcpy(l, BF_FN(modulus)(), sizeof l);
    l[0] -= 1; /* p is odd */
    if (BF_FN(from_mont_limbs)(&pm1, l) != CZK_OK)
        bench_die(BF_NAME ": from_mont_limbs(p - 1) failed");
    for (int i = 0; i < NELEM; i++) {
        BF_S(rand_elem)(&a[i], &seed);
        BF_S(rand_elem)(&b[i], &seed);
    }
    /* Edge values, checked like the rest: 0, 1 and the largest limbs p - 1. */
    BF_FN(zero)(&a[0]);
    BF_FN(one)(&a[1]);
    a[2] = pm1;
    b[3] = pm1;
    a[4] = b[4] = pm1;
    BF_FN(one)(&b[5]);
    BF_S(check)(a, b);

    const BF_T *start = &a[NELEM - 1], *k = &b[NELEM - 1];
    /* About a millisecond per repetition (see bench_util.h). */
    long lat = bench_iters(o, 40000), thr = bench_iters(o, 40);
    long inv = bench_iters(o, BF_N > 4 ? 30 : 100);
    BF_S(pair_lat)(o, "mul", BF_S(lat_mul_czk), BF_FFI_OR_NULL(lat_mul_ffi), start, k, lat);
    BF_S(pair_thr)(o, "mul", BF_S(thr_mul_czk), BF_FFI_OR_NULL(thr_mul_ffi), a, b, thr);
    BF_S(pair_lat)(o, "sqr", BF_S(lat_sqr_czk), BF_FFI_OR_NULL(lat_sqr_ffi), start, k, lat);
    BF_S(pair_thr)(o, "sqr", BF_S(thr_sqr_czk), BF_FFI_OR_NULL(thr_sqr_ffi), a, b, thr);
    BF_S(pair_lat)(o, "add", BF_S(lat_add_czk), BF_FFI_OR_NULL(lat_add_ffi), start, k, 4 * lat);
    BF_S(pair_thr)(o, "add", BF_S(thr_add_czk), BF_FFI_OR_NULL(thr_add_ffi), a, b, 4 * thr);
    BF_S(pair_lat)(o, "inv", BF_S(lat_inv_czk), NULL, start, k, inv);
    BF_S(pair_lat)(o, "inv_vartime", BF_S(lat_invv_czk), NULL, start, k, inv);
}

#undef BF_LAT2
#undef BF_LAT1
#undef BF_THR2
#undef BF_THR1
#undef BF_FFI_OR_NULL
#undef BF_CAT_
#undef BF_CAT
#undef BF_STR_
#undef BF_STR
#undef BF_FN
#undef BF_S
#undef BF_FFI
#undef BF_T
#undef BF_NAME
#undef BF
#undef BF_N
