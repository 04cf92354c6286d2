/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Witness check against a circom .r1cs (`czk prove --r1cs`): every constraint
 * (A·w)·(B·w) = C·w must hold, and the first one that does not is reported by index.
 *
 * Arithmetic: r1cs coefficients are in Montgomery form (v·R) and the witness is
 * canonical, so one Montgomery product per entry gives the canonical product v·w as raw
 * limbs and the row sums are the canonical values A, B, C. Then mont(A, B) = A·B·R^-1 and
 * mont(C, 1) = C·R^-1 are equal exactly when A·B = C; no conversion of the witness.
 *
 * Threading: constraint ranges on czk_parallel_for workers; the smallest violated index
 * is kept with an atomic minimum, and ranges past it are skipped.
 */
#include <stdatomic.h>

#include "core/parallel.h"
#include "groth16/prove_internal.h"

struct check_ctx {
    const struct czk_r1cs *r;
    const uint64_t (*w)[4];
    _Atomic uint64_t first_bad;
};

static void atomic_min(_Atomic uint64_t *m, uint64_t v)
{
    uint64_t cur = atomic_load(m);
    while (v < cur && !atomic_compare_exchange_weak(m, &cur, v))
        ;
}

#define CHECK_IMPL(FR)                                                                             \
    static void FR##_row(const struct czk_csr *m, const uint64_t(*w)[4], size_t i,                 \
                         struct czk_##FR *acc)                                                     \
    {                                                                                              \
        struct czk_##FR t;                                                                         \
        czk_##FR##_zero(acc);                                                                      \
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {                             \
            czk_##FR##_mul(&t, (const struct czk_##FR *)m->val[k],                                 \
                           (const struct czk_##FR *)w[m->col[k]]);                                 \
            czk_##FR##_add(acc, acc, &t);                                                          \
        }                                                                                          \
    }                                                                                              \
    static void FR##_check(void *vctx, size_t begin, size_t end, unsigned worker)                  \
    {                                                                                              \
        struct check_ctx *x = vctx;                                                                \
        static const struct czk_##FR one_raw = {{1, 0, 0, 0}};                                     \
        (void)worker;                                                                              \
        if (begin >= atomic_load(&x->first_bad))                                                   \
            return;                                                                                \
        for (size_t i = begin; i < end; i++) {                                                     \
            struct czk_##FR a, b, c, ab, cc;                                                       \
            FR##_row(&x->r->m[CZK_MATRIX_A], x->w, i, &a);                                         \
            FR##_row(&x->r->m[CZK_MATRIX_B], x->w, i, &b);                                         \
            FR##_row(&x->r->m[CZK_MATRIX_C], x->w, i, &c);                                         \
            czk_##FR##_mul(&ab, &a, &b);       /* A·B·R^-1 */                                    \
            czk_##FR##_mul(&cc, &c, &one_raw); /* C·R^-1 */                                       \
            if (!czk_##FR##_eq(&ab, &cc)) {                                                        \
                atomic_min(&x->first_bad, i);                                                      \
                return;                                                                            \
            }                                                                                      \
        }                                                                                          \
    }

CHECK_IMPL(fr_bn254)
CHECK_IMPL(fr_bls12_381)

enum czk_status czk_prove_check_r1cs(const struct czk_r1cs *r, czk_witness_t w, unsigned threads,
                                     uint64_t *first_bad, char *err, size_t errlen)
{
    if (!r || !w || !first_bad)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "r1cs check: NULL argument");
    if (r->curve != czk_witness_curve(w))
        return czk_errf(
            CZK_ERR_FORMAT, err, errlen, "the r1cs is for curve %s but the witness for %s",
            czk_groth16_curve_name(r->curve), czk_groth16_curve_name(czk_witness_curve(w)));
    if (r->n_wires != czk_witness_count(w))
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "the r1cs has %u wires but the witness %zu values", r->n_wires,
                        czk_witness_count(w));
    for (int m = 0; m < 3; m++)
        if (r->m[m].n_rows != r->n_constraints)
            return czk_errf(CZK_ERR_FORMAT, err, errlen, "r1cs: matrix row count mismatch");
    struct check_ctx x = {.r = r, .w = czk_witness_values(w)};
    atomic_init(&x.first_bad, UINT64_MAX);
    if (r->n_constraints)
        czk_parallel_for(r->n_constraints, 1024, threads,
                         r->curve == CZK_GROTH16_CURVE_BN254 ? fr_bn254_check : fr_bls12_381_check,
                         &x);
    *first_bad = atomic_load(&x.first_bad);
    return CZK_OK;
}
