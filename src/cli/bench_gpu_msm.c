/* SPDX-License-Identifier: Apache-2.0 */
/* Placeholder until the benchmark lands: it reports that it is not built. */
#include <stdio.h>

#include "cli/cli.h"

int czk_bench_msm(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "czk bench msm: not available in this build yet\n");
    return 2;
}

int czk_bench_field(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "czk bench field: not available in this build yet\n");
    return 2;
}
