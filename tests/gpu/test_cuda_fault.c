/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A sticky device fault does not take the process down (label gpu): after a kernel writes
 * to an invalid address (test hook czk_cuda_debug_fault), the op reports
 * CZK_ERR_DEVICE_LOST with the failing call and file:line in the log, the device declines
 * every op, its contexts and new contexts report CZK_ERR_DEVICE_LOST, freeing its buffers
 * is harmless, and the CPU backend keeps working. Runs in its own process because the
 * fault ruins the GPU context for the rest of it. Exit 77 without a GPU.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "czk/czk_backend.h"
#ifdef CZK_USE_CUDA
#include "cuda/cuda_bench.h"
#include "cuda/cuda_check.h"

static void test_fault(void **state)
{
    (void)state;
    char err[256] = "";
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    czk_device_t dev = czk_backend_reg_device_get(reg, 0);
    czk_backend_t gpu = NULL, cpu = NULL, again = NULL;
    assert_int_equal(czk_backend_new(dev, 0, &gpu, err, sizeof err), CZK_OK);
    assert_int_equal(czk_backend_init_by_name(&cpu, "cpu", 0, err, sizeof err), CZK_OK);
    const size_t n = 1024;
    uint64_t(*x)[4] = calloc(n, 32);
    assert_non_null(x);
    for (size_t i = 0; i < n; i++)
        x[i][0] = i + 1;
    czk_buf_t b = NULL;
    assert_int_equal(czk_buf_alloc(dev, n * 32, &b), CZK_OK);
    assert_int_equal(czk_buf_set(gpu, b, 0, x, n * 32), CZK_OK);
    assert_int_equal(czk_backend_ntt(gpu, CZK_GROTH16_CURVE_BN254, b, 10, CZK_BACKEND_FORWARD,
                                     CZK_NTT_SNARKJS, NULL),
                     CZK_OK);
    assert_int_equal(czk_backend_synchronize(gpu), CZK_OK);
    assert_true(czk_device_supports(dev, CZK_GROTH16_CURVE_BN254, CZK_BACKEND_OP_NTT, 10));

    assert_int_equal(czk_cuda_debug_fault(gpu), CZK_ERR_DEVICE_LOST);
    char last[256];
    czk_cuda_last_error(0, last, sizeof last);
    printf("last error: %s\n", last);
    assert_non_null(strstr(last, "backend_cuda.cu:"));

    for (int op = 0; op <= CZK_BACKEND_OP_TO_CANONICAL; op++)
        assert_false(czk_device_supports(dev, CZK_GROTH16_CURVE_BN254, (enum czk_backend_op)op, 10));
    assert_int_equal(czk_backend_ntt(gpu, CZK_GROTH16_CURVE_BN254, b, 10, CZK_BACKEND_FORWARD,
                                     CZK_NTT_SNARKJS, NULL),
                     CZK_ERR_DEVICE_LOST);
    assert_int_equal(czk_backend_synchronize(gpu), CZK_ERR_DEVICE_LOST);
    assert_int_equal(czk_buf_get(gpu, b, 0, x, 32), CZK_ERR_DEVICE_LOST);
    czk_buf_t b2 = NULL;
    assert_int_equal(czk_buf_alloc(dev, 1024, &b2), CZK_ERR_DEVICE_LOST);
    assert_int_equal(czk_backend_new(dev, 0, &again, err, sizeof err), CZK_ERR_DEVICE_LOST);
    printf("new context: %s\n", err);
    czk_buf_free(b);
    czk_backend_free(gpu);

    /* the CPU still serves */
    czk_buf_t cb = NULL;
    assert_int_equal(czk_buf_alloc(czk_backend_get_device(cpu), n * 32, &cb), CZK_OK);
    assert_int_equal(czk_buf_set(cpu, cb, 0, x, n * 32), CZK_OK);
    assert_int_equal(czk_backend_ntt(cpu, CZK_GROTH16_CURVE_BN254, cb, 10, CZK_BACKEND_FORWARD,
                                     CZK_NTT_SNARKJS, NULL),
                     CZK_OK);
    czk_buf_free(cb);
    czk_backend_free(cpu);
    free(x);
}

#endif

int main(void)
{
    czk_test_seed_init("test_cuda_fault");
#ifndef CZK_USE_CUDA
    printf("test_cuda_fault: built without CUDA: skipped\n");
    return 77;
#else
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    if (!reg || czk_backend_reg_device_count(reg) == 0) {
        printf("test_cuda_fault: no CUDA backend or no usable GPU: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fault)};
    return cmocka_run_group_tests(tests, NULL, NULL);
#endif
}
