/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BLS12-381 G2: the M-type sextic twist E'(Fp2): y^2 = x^3 + 4(1 + u), the ec_impl.h
 * template over fp2_bls12_381. #E'(Fp2) = r * h2.
 *
 * psi = untwist o Frobenius o twist; for the M-type twist the untwisting divides by
 * powers of w (w^6 = xi = 1 + u), so
 *   psi(x, y) = (conj(x) / xi^((p-1)/3), conj(y) / xi^((p-1)/2)),
 * and on Jacobian coordinates psi(X, Y, Z) = (conj(X) cx, conj(Y) cy, conj(Z)) because
 * conjugation is a field automorphism. On G2, psi acts as [x] (x = -0xd201000000010000),
 * and P is in G2 iff psi(P) == [x]P (Scott, "A note on group membership tests for G1, G2
 * and GT on BLS pairing-friendly curves", 2021).
 *
 * Cofactor clearing is the Budroni-Pintore map of RFC 9380 (G.3),
 *   h_eff P = [x^2 - x - 1] P + [x - 1] psi(P) + psi^2(2P),
 * equal to multiplication by h_eff = 3(x^2 - 1) h2; it costs two multiplications by |x|.
 */
#include "curves/bls12_381.h"

#define EC_G g2_bls12_381
#define EC_F fp2_bls12_381
#define EC_FR fr_bls12_381
#define EC_B bls12_381_g2_b
#define EC_GEN bls12_381_g2_gen
#define EC_ORDER bls12_381_r
#define EC_COFACTOR bls12_381_g2_h
#define EC_INV_VT czk_fp2_bls12_381_inv_vartime
#include "ec/ec_impl.h"

static void g2_bls12_381_psi(struct czk_g2_bls12_381 *r, const struct czk_g2_bls12_381 *p)
{
    czk_fp2_bls12_381_conj(&r->x, &p->x);
    czk_fp2_bls12_381_mul(&r->x, &r->x, &bls12_381_psi_x);
    czk_fp2_bls12_381_conj(&r->y, &p->y);
    czk_fp2_bls12_381_mul(&r->y, &r->y, &bls12_381_psi_y);
    czk_fp2_bls12_381_conj(&r->z, &p->z);
}

/* r = [x] p = -[|x|] p */
static void g2_bls12_381_mul_x(struct czk_g2_bls12_381 *r, const struct czk_g2_bls12_381 *p)
{
    ec_mul_u64(r, p, BLS12_381_X_ABS);
    czk_g2_bls12_381_neg(r, r);
}

bool czk_g2_bls12_381_affine_in_subgroup(const struct czk_g2_bls12_381_affine *p)
{
    if (czk_g2_bls12_381_affine_is_inf(p))
        return true;
    struct czk_g2_bls12_381 t;
    struct czk_g2_bls12_381_affine q;
    ec_mul_u64_affine(&t, p, BLS12_381_X_ABS); /* [|x|] P = -[x] P */
    /* psi(P) == [x]P  <=>  [|x|]P == -psi(P) */
    czk_fp2_bls12_381_conj(&q.x, &p->x);
    czk_fp2_bls12_381_mul(&q.x, &q.x, &bls12_381_psi_x);
    czk_fp2_bls12_381_conj(&q.y, &p->y);
    czk_fp2_bls12_381_mul(&q.y, &q.y, &bls12_381_psi_y);
    czk_fp2_bls12_381_neg(&q.y, &q.y);
    return ec_eq_affine(&t, &q);
}

void czk_g2_bls12_381_clear_cofactor(struct czk_g2_bls12_381 *r, const struct czk_g2_bls12_381 *p)
{
    /* RFC 9380 G.3 clear_cofactor_bls12381_g2, with c1 = x. */
    struct czk_g2_bls12_381 t1, t2, t3;
    g2_bls12_381_mul_x(&t1, p);   /* t1 = [x] P */
    g2_bls12_381_psi(&t2, p);     /* t2 = psi(P) */
    czk_g2_bls12_381_dbl(&t3, p); /* t3 = psi^2(2P) */
    g2_bls12_381_psi(&t3, &t3);
    g2_bls12_381_psi(&t3, &t3);
    czk_g2_bls12_381_sub(&t3, &t3, &t2); /* t3 = psi^2(2P) - psi(P) */
    czk_g2_bls12_381_add(&t2, &t1, &t2); /* t2 = [x] ([x] P + psi(P)) */
    g2_bls12_381_mul_x(&t2, &t2);
    czk_g2_bls12_381_add(&t3, &t3, &t2);
    czk_g2_bls12_381_sub(&t3, &t3, &t1);
    czk_g2_bls12_381_sub(r, &t3, p); /* Q = t3 - P */
}
