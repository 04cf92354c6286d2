/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk bench <what> [options]`: the benchmarks of the project. Each subcommand lives in
 * its own file (bench_<what>.c) and prints a table whose last lines summarise the run.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

struct bench_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
};

static const struct bench_cmd cmds[] = {
    {"prove", czk_bench_prove, "end-to-end proving time, optionally against rapidsnark and snarkjs"},
    {"engine", czk_bench_engine, "scheduling overhead and priority latency of the proving engine"},
    {"ntt", czk_bench_ntt, "NTT throughput on a backend (--backend, --curve, --log-n)"},
    {"eval", czk_bench_eval, "sparse evaluation A·w, B·w on a backend"},
    {"msm", czk_bench_msm, "G1/G2 multi-scalar multiplication on a backend"},
    {"field", czk_bench_field, "field multiplication rate against the device's integer ceiling"},
};

static void usage(FILE *f) {
    fprintf(f, "usage: czk bench <what> [options]   (czk bench <what> --help)\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
}

int czk_cli_bench(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "czk bench: unknown benchmark '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
