/* SPDX-License-Identifier: Apache-2.0 */
/* The fr_bn254 prime field: the Montgomery template of ff_impl.h instantiated with its constants. */
#define FF fr_bn254
#define FF_N 4
#define FF_C(x) FR_BN254##x
#include "ff/ff_impl.h"
#include "ff/fr_ntt_impl.h"
