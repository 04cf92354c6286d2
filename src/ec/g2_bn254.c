/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BN254 G2: the D-type sextic twist E'(Fp2): y^2 = x^3 + 3/(9 + u), the ec_impl.h
 * template over fp2_bn254. #E'(Fp2) = r * h2 with h2 = 2p - r.
 *
 * psi = untwist o Frobenius o twist maps E' to itself:
 *   psi(x, y) = (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)),  xi = 9 + u,
 * and acts on the order-r subgroup as multiplication by p = 6x^2 (mod r), x the BN
 * parameter. The membership test is psi(P) == [6x^2]P, a 127-bit multiplication instead
 * of the 254-bit [r]P. It accepts exactly G2: psi satisfies psi^2 - t psi + p = 0 on E'
 * (t = 6x^2 + 1 the trace), so psi(P) = [6x^2]P implies [36x^4 - 6x^2 t + p]P = O, and
 * 36x^4 - 6x^2 (6x^2 + 1) + p = p - 6x^2 = r. The unit tests also compare it with
 * [r]P == O on random points in and outside the subgroup, pure cofactor torsion included.
 */
#include "curves/bn254.h"

#define EC_G g2_bn254
#define EC_F fp2_bn254
#define EC_FR fr_bn254
#define EC_B bn254_g2_b
#define EC_GEN bn254_g2_gen
#define EC_ORDER bn254_r
#define EC_COFACTOR bn254_g2_h
#define EC_INV_VT czk_fp2_bn254_inv_vartime
#include "ec/ec_impl.h"

/* psi on an affine point; infinity (0, 0) maps to itself. */
static void g2_bn254_psi_affine(struct czk_g2_bn254_affine *r, const struct czk_g2_bn254_affine *p)
{
    czk_fp2_bn254_conj(&r->x, &p->x);
    czk_fp2_bn254_mul(&r->x, &r->x, &bn254_psi_x);
    czk_fp2_bn254_conj(&r->y, &p->y);
    czk_fp2_bn254_mul(&r->y, &r->y, &bn254_psi_y);
}

bool czk_g2_bn254_affine_in_subgroup(const struct czk_g2_bn254_affine *p)
{
    if (czk_g2_bn254_affine_is_inf(p))
        return true;
    struct czk_g2_bn254 t;
    struct czk_g2_bn254_affine q;
    czk_g2_bn254_from_affine(&t, p);
    czk_g2_bn254_mul_limbs(&t, &t, bn254_six_x2, EC_NLIMBS(bn254_six_x2));
    g2_bn254_psi_affine(&q, p);
    return ec_eq_affine(&t, &q);
}

void czk_g2_bn254_clear_cofactor(struct czk_g2_bn254 *r, const struct czk_g2_bn254 *p)
{
    czk_g2_bn254_mul_limbs(r, p, bn254_g2_h, EC_NLIMBS(bn254_g2_h));
}
