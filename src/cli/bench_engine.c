/* SPDX-License-Identifier: Apache-2.0 */
/* Placeholder until the benchmark lands: it reports that it is not built. */
#include <stdio.h>

#include "cli/cli.h"

int czk_bench_engine(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "czk bench engine: not available in this build yet\n");
    return 2;
}
