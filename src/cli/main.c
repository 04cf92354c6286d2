/* SPDX-License-Identifier: Apache-2.0 */
/* The `czk` command line: dispatches subcommands (see cli.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "czk/czk.h"

static void usage(FILE *f)
{
    fprintf(f, "czk %s — Groth16 prover for BN254 and BLS12-381\n"
               "usage:\n"
               "  czk demo [--vectors DIR]              self-check of the arithmetic, then verify the bundled proofs\n"
               "  czk verify vkey.json public.json proof.json\n"
               "                                        verify a snarkjs Groth16 proof\n"
               "  czk prove [options] circuit.zkey witness.wtns proof.json public.json\n"
               "                                        prove a circom witness (see czk prove --help)\n"
               "  czk zkey export-vkey circuit.zkey vkey.json\n"
               "                                        the key's verification_key.json\n"
               "  czk gen-circuit --curve C (--constraints N | --domain-log K) --shape mul|porep --out DIR\n"
               "                                        synthetic circuit + witness (see czk gen-circuit --help)\n"
               "  czk setup --dev circuit.r1cs out.zkey [--seed S] [--threads N]\n"
               "                                        INSECURE single-party Groth16 setup (development only)\n"
               "  czk batch [options] JOBS.json         run proving jobs through the engine (see czk batch --help)\n"
               "  czk bench prove|engine|ntt|eval|msm|field [options]\n"
               "                                        benchmarks (see czk bench --help)\n"
               "  czk --version | --help\n",
            czk_version());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("czk %s\n", czk_version());
        return 0;
    }
    if (!strcmp(cmd, "demo"))
        return czk_cli_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify"))
        return czk_cli_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove"))
        return czk_cli_prove(argc - 1, argv + 1);
    if (!strcmp(cmd, "zkey"))
        return czk_cli_zkey(argc - 1, argv + 1);
    if (!strcmp(cmd, "gen-circuit"))
        return czk_cli_gen_circuit(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return czk_cli_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "batch"))
        return czk_cli_batch(argc - 1, argv + 1);
    if (!strcmp(cmd, "setup"))
        return czk_cli_setup(argc - 1, argv + 1);
    fprintf(stderr, "czk: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
