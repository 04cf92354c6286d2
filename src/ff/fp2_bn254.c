/* SPDX-License-Identifier: Apache-2.0 */
/* BN254 Fp2 = Fp[u]/(u^2+1); the tower and twist non-residue is xi = 9 + u. */
#define F2 fp2_bn254
#define F fp_bn254
#define FF_C(x) FP_BN254##x
/* (a0 + a1 u)(9 + u) = (9 a0 - a1) + (a0 + 9 a1) u */
#define F2_MUL_BY_NONRESIDUE_BODY                                                                  \
    struct czk_fp_bn254 t0, t1, n0, n1;                                                            \
    czk_fp_bn254_dbl(&t0, &a->c0);                                                                 \
    czk_fp_bn254_dbl(&t0, &t0);                                                                    \
    czk_fp_bn254_dbl(&t0, &t0);                                                                    \
    czk_fp_bn254_add(&n0, &t0, &a->c0); /* 9 a0 */                                                 \
    czk_fp_bn254_dbl(&t1, &a->c1);                                                                 \
    czk_fp_bn254_dbl(&t1, &t1);                                                                    \
    czk_fp_bn254_dbl(&t1, &t1);                                                                    \
    czk_fp_bn254_add(&n1, &t1, &a->c1); /* 9 a1 */                                                 \
    czk_fp_bn254_sub(&t0, &n0, &a->c1);                                                            \
    czk_fp_bn254_add(&r->c1, &a->c0, &n1);                                                         \
    r->c0 = t0;
#include "ff/ff2_impl.h"
