/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk zkey export-vkey [--trust-key] circuit.zkey vkey.json`: write the verification
 * key of a snarkjs Groth16 key exactly as `snarkjs zkey export verificationkey` does
 * (including vk_alphabeta_12). Exit status 0 written, 2 usage error or bad input
 * (the message names the file and the problem). The file is written atomically
 * (temporary file + rename).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "czk/czk_prover.h"

static void zkey_usage(FILE *f)
{
    fprintf(f, "usage: czk zkey export-vkey [--trust-key] circuit.zkey vkey.json\n"
               "\n"
               "Write the verification key of a snarkjs Groth16 .zkey as snarkjs does\n"
               "(`snarkjs zkey export verificationkey`).\n"
               "  --trust-key   skip the subgroup checks of the key's points\n");
}

static int export_vkey(int argc, char **argv)
{
    const char *pos[2];
    int npos = 0;
    unsigned flags = CZK_PROVER_KEY_VKEY_ONLY;
    char err[512], *json = NULL;
    size_t len = 0;
    czk_prover_key_t key = NULL;
    int rc = 2;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            zkey_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--trust-key")) {
            flags |= CZK_PROVER_KEY_TRUST;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "czk zkey export-vkey: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (npos < 2) {
            pos[npos++] = argv[i];
        } else {
            npos = 3;
        }
    }
    if (npos != 2) {
        zkey_usage(stderr);
        return 2;
    }
    enum czk_status st = czk_prover_key_load(&key, pos[0], flags, 0, err, sizeof err);
    if (st != CZK_OK) {
        fprintf(stderr, "czk zkey export-vkey: zkey %s: %s\n", pos[0], err);
        goto out;
    }
    if (czk_prover_key_vkey_json(key, &json, &len) != CZK_OK) {
        fprintf(stderr, "czk zkey export-vkey: out of memory\n");
        goto out;
    }
    if (czk_cli_write_atomic("czk zkey export-vkey", pos[1], json, len) != 0)
        goto out;
    rc = 0;
out:
    free(json);
    czk_prover_key_free(key);
    return rc;
}

int czk_cli_zkey(int argc, char **argv)
{
    if (argc < 2) {
        zkey_usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        zkey_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "export-vkey"))
        return export_vkey(argc - 1, argv + 1);
    fprintf(stderr, "czk zkey: unknown subcommand '%s'\n", argv[1]);
    zkey_usage(stderr);
    return 2;
}
