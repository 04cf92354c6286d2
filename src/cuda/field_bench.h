/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: device field microbenchmarks, the running-sum base generator and the test hooks of
 * src/cuda/ff.cuh / ec.cuh (field_bench.cu). C API, includable from C and C++.
 */
#ifndef CZK_CUDA_FIELD_BENCH_H
#define CZK_CUDA_FIELD_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "czk/czk.h"
#include "czk/czk_groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fields of the device code (czk_cuda_test_field, czk_cuda_bench_field). */
enum czk_cuda_field {
    CZK_CUDA_FR_BN254 = 0,
    CZK_CUDA_FP_BN254 = 1,
    CZK_CUDA_FR_BLS12_381 = 2,
    CZK_CUDA_FP_BLS12_381 = 3,
    CZK_CUDA_FP2_BN254 = 4,
    CZK_CUDA_FP2_BLS12_381 = 5,
};

/* Operations of czk_cuda_test_field: out[i] = op(a[i], b[i]). */
enum czk_cuda_field_op {
    CZK_CUDA_OP_ADD = 0,
    CZK_CUDA_OP_SUB,
    CZK_CUDA_OP_NEG,
    CZK_CUDA_OP_DBL,
    CZK_CUDA_OP_MUL,
    CZK_CUDA_OP_SQR,
    CZK_CUDA_OP_FROM_CANONICAL,
    CZK_CUDA_OP_TO_CANONICAL,
    CZK_CUDA_OP_POW,     /* exponent: low 32 bits of b[i]'s first limb */
    CZK_CUDA_OP_INV,
    CZK_CUDA_OP_EQ,      /* out[i] = (a == b) as the field element 0 or 1 in its first limb */
    CZK_CUDA_OP_IS_ZERO, /* likewise */
    CZK_CUDA_OP_ONE,
    CZK_CUDA_OP_MUL_ALT, /* mul through the alternative code shape (czk_cuda_bench_field) */
    CZK_CUDA_OP_MUL_DFMA, /* mul on the FP64 pipe (src/cuda/ff_dfma.cuh; Fp2: its Karatsuba) */
    CZK_CUDA_OP_COUNT
};

/* u64 limbs of one element of `field` in the host layout (4, 6, 8 or 12); 0 if unknown. */
size_t czk_cuda_field_words(enum czk_cuda_field field);

/*
 * Test hook: out[i] = op(a[i], b[i]) for i < n, elements in the host layout (Montgomery form,
 * czk_cuda_field_words u64 each), on the device (on_host = 0: a, b, out are host arrays, copied)
 * or through the same code on the host with emulated carry chains (on_host = 1, no GPU needed).
 */
enum czk_status czk_cuda_test_field(enum czk_cuda_field field, enum czk_cuda_field_op op,
                                    const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n,
                                    int on_host, char *err, size_t errlen);

/*
 * Field multiplication throughput on the current device: `variant` 0 = F::mul (prime fields:
 * CIOS on PTX carry chains; Fp2: Karatsuba with lazy reduction), 1 = the alternative shape
 * (prime fields: F::mul_wide, 64-bit products; Fp2: Karatsuba with three reductions), 2 = the
 * FP64 shape of ff_dfma.cuh (DFMA products, integer sums; prime fields only), 3 = F::sqr
 * (squarings); *gmul_s = multiplications (or squarings) per second / 1e9,
 * median of `reps` timed launches filling the device. czk_cuda_bench_imad measures the IMAD
 * (32-bit multiply-add) rate of independent chains, the ceiling field code is measured against,
 * in 1e12 per second.
 */
enum czk_status czk_cuda_bench_field(enum czk_cuda_field field, int variant, unsigned reps,
                                     double *gmul_s, char *err, size_t errlen);
enum czk_status czk_cuda_bench_imad(unsigned reps, double *timad_s, char *err, size_t errlen);
/* likewise the FP64 FMA (DFMA) rate, the ceiling of variant 2, in 1e12 per second */
enum czk_status czk_cuda_bench_dfma(unsigned reps, double *tdfma_s, char *err, size_t errlen);

/*
 * d_bases[i] = (i + 1)·G for i < n (G the group's generator), affine zkey layout, computed on the
 * current device (blocks of consecutive multiples: one small scalar multiplication per block,
 * then additions of G). For large MSM tests and benches without host scalar multiplications.
 */
enum czk_status czk_cuda_make_running_bases(enum czk_groth16_curve curve, unsigned group,
                                            void *d_bases, size_t n, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CZK_CUDA_FIELD_BENCH_H */
