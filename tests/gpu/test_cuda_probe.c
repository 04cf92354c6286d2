/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU smoke test (label gpu): counts CUDA devices and runs the probe kernel on each.
 * Without a CUDA build or without a device it exits 77, which ctest reports as skipped.
 */
#include "test_util.h"

#include "czk/czk.h"

#ifdef CZK_USE_CUDA
enum czk_status czk_cuda_device_count(int *count);
enum czk_status czk_cuda_probe(int device);

static int n_dev;

static void test_probe_every_device(void **state)
{
    (void)state;
    for (int d = 0; d < n_dev; d++)
        assert_int_equal(czk_cuda_probe(d), CZK_OK);
}
#endif

int main(void)
{
#ifdef CZK_USE_CUDA
    if (czk_cuda_device_count(&n_dev) != CZK_OK || n_dev == 0) {
        printf("test_cuda_probe: no CUDA device: skipped\n");
        return 77;
    }
    printf("test_cuda_probe: %d device(s)\n", n_dev);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_probe_every_device)};
    return cmocka_run_group_tests(tests, NULL, NULL);
#else
    printf("test_cuda_probe: built without CUDA: skipped\n");
    return 77;
#endif
}
