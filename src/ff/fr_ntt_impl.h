/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scalar-field NTT data (two-adicity, roots of unity of both conventions, coset
 * generator), appended to a scalar field's instantiation of ff_impl.h. Expects FF and
 * FF_C from the including file. The 2^s-th roots are constants (tools/gen_ff_constants.py);
 * smaller orders are reached by squaring, as ffjavascript does (w[i] = w[i+1]^2).
 */
#define FN_CAT_(a, b) a##b
#define FN_CAT(a, b) FN_CAT_(a, b)
#define FN_FN(x) FN_CAT(FN_CAT(czk_, FF), _##x)
#define FN_T struct FN_CAT(czk_, FF)

unsigned FN_FN(two_adicity)(void) { return FF_C(_TWO_ADICITY); }

enum czk_status FN_FN(root_of_unity)(FN_T *w, unsigned lg_n, enum czk_ntt_convention conv)
{
    if (lg_n > FF_C(_TWO_ADICITY))
        return CZK_ERR_INVALID_ARG;
    FN_T t;
    if (conv == CZK_NTT_SNARKJS)
        memcpy(t.l, FF_C(_ROOT_SNARKJS_MONT), sizeof t.l);
    else if (conv == CZK_NTT_BELLMAN)
        memcpy(t.l, FF_C(_ROOT_BELLMAN_MONT), sizeof t.l);
    else
        return CZK_ERR_INVALID_ARG;
    for (unsigned i = lg_n; i < FF_C(_TWO_ADICITY); i++)
        FN_FN(sqr)(&t, &t);
    *w = t;
    return CZK_OK;
}

void FN_FN(coset_gen)(FN_T *g, enum czk_ntt_convention conv)
{
    FN_FN(from_u64)(g, conv == CZK_NTT_BELLMAN ? FF_C(_BELLMAN_GEN) : FF_C(_NQR));
}

#undef FN_FN
#undef FN_T
