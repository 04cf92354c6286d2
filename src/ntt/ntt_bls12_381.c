/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU NTT of ntt_impl.h over the BLS12-381 scalar field (see ntt_internal.h). */
#define NTT_F fr_bls12_381
#define NTT_C(x) FR_BLS12_381##x
#include "ntt/ntt_impl.h"
