/* SPDX-License-Identifier: Apache-2.0 */
/* The fp_bls12_381 prime field: the Montgomery template of ff_impl.h instantiated with its constants. */
#define FF fp_bls12_381
#define FF_N 6
#define FF_C(x) FP_BLS12_381##x
#include "ff/ff_impl.h"
