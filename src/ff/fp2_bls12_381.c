/* SPDX-License-Identifier: Apache-2.0 */
/* BLS12-381 Fp2 = Fp[u]/(u^2+1); the tower and twist non-residue is xi = 1 + u. */
#define F2 fp2_bls12_381
#define F fp_bls12_381
#define FF_C(x) FP_BLS12_381##x
/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
#define F2_MUL_BY_NONRESIDUE_BODY                                                                  \
    struct czk_fp_bls12_381 t0;                                                                    \
    czk_fp_bls12_381_sub(&t0, &a->c0, &a->c1);                                                     \
    czk_fp_bls12_381_add(&r->c1, &a->c0, &a->c1);                                                  \
    r->c0 = t0;
#include "ff/ff2_impl.h"
