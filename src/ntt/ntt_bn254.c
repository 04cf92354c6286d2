/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU NTT of ntt_impl.h over the BN254 scalar field (see ntt_internal.h). */
#define NTT_F fr_bn254
#define NTT_C(x) FR_BN254##x
#include "ntt/ntt_impl.h"
