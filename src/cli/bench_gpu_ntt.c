/* SPDX-License-Identifier: Apache-2.0 */
/* Placeholder until the benchmark lands: it reports that it is not built. */
#include <stdio.h>

#include "cli/cli.h"

int czk_bench_ntt(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "czk bench ntt: not available in this build yet\n");
    return 2;
}

int czk_bench_eval(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "czk bench eval: not available in this build yet\n");
    return 2;
}
