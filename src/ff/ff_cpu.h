/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: CPU-specific field kernels and the flag that selects them (see cpu.c). */
#ifndef CZK_FF_FF_CPU_H
#define CZK_FF_FF_CPU_H

#include <stdbool.h>
#include <stdint.h>

extern bool czk_ff_have_adx;

#if defined(__x86_64__) && defined(__ELF__)
#define CZK_FF_HAVE_ASM 1
void czk_ff_fp_bn254_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
void czk_ff_fr_bn254_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
void czk_ff_fp_bls12_381_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
void czk_ff_fr_bls12_381_mul_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
#else
#define CZK_FF_HAVE_ASM 0
#endif

#endif
