/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk verify vkey.json public.json proof.json`: check a snarkjs Groth16 proof,
 * with the argument order of `snarkjs groth16 verify`.
 *
 * Exit status: 0 and "OK" on stdout when the proof is valid; 1 and
 * "INVALID: <reason>" on stdout when the inputs are well-formed but the proof
 * does not verify; 2 with a message on stderr naming the file and the problem
 * for usage errors, unreadable files and malformed or inconsistent input
 * (wrong curve, wrong number of public signals, points off the curve or
 * outside the subgroup, signals >= r, ...). Input files are read whole, up to
 * 64 MiB each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "czk/czk_groth16.h"

#define VERIFY_MAX_FILE (64u << 20)

static void verify_usage(FILE *f)
{
    fprintf(f, "usage: czk verify [--help] vkey.json public.json proof.json\n"
               "\n"
               "Verify a snarkjs Groth16 proof (curves bn128 and bls12381).\n"
               "Arguments are in the order of `snarkjs groth16 verify`.\n"
               "\n"
               "exit status:\n"
               "  0  the proof is valid (prints OK)\n"
               "  1  the proof does not verify (prints INVALID and why)\n"
               "  2  usage error, unreadable file, or malformed/inconsistent input\n");
}

/*
 * Read `path` (input `what`) into a NUL-terminated heap buffer *out.
 * Returns false after printing the reason.
 */
static bool read_input(const char *what, const char *path, char **out)
{
    FILE *f = NULL;
    char *buf = NULL, *nb;
    size_t len = 0, cap = 0, got;
    bool ok = false;

    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "czk verify: %s: cannot open '%s': %s\n", what, path, strerror(errno));
        goto out;
    }
    for (;;) {
        if (len + 1 >= cap) {
            /* Full: grow. len <= VERIFY_MAX_FILE here, so the capped size still grows. */
            size_t ncap = cap ? 2 * cap : 65536;
            if (ncap > VERIFY_MAX_FILE + 2)
                ncap = VERIFY_MAX_FILE + 2;
            nb = realloc(buf, ncap);
            if (!nb) {
                fprintf(stderr, "czk verify: %s: out of memory reading '%s'\n", what, path);
                goto out;
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len > VERIFY_MAX_FILE) {
            fprintf(stderr, "czk verify: %s: '%s' is larger than %u MiB\n", what, path,
                    VERIFY_MAX_FILE >> 20);
            goto out;
        }
        if (got == 0) {
            if (ferror(f)) {
                fprintf(stderr, "czk verify: %s: cannot read '%s': %s\n", what, path,
                        strerror(errno));
                goto out;
            }
            break;
        }
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        fprintf(stderr, "czk verify: %s: '%s' contains a NUL byte\n", what, path);
        goto out;
    }
    *out = buf;
    buf = NULL;
    ok = true;

out:
    if (f)
        fclose(f);
    free(buf);
    return ok;
}

int czk_cli_verify(int argc, char **argv)
{
    const char *paths[3];
    char *text[3] = {NULL, NULL, NULL};
    static const char *const what[3] = {"vkey", "public", "proof"};
    char err[512];
    int npaths = 0, rc = 2;
    bool opts = true;
    enum czk_status st;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            verify_usage(stdout);
            rc = 0;
            goto out;
        }
        if (opts && !strcmp(a, "--")) {
            opts = false;
            continue;
        }
        if (opts && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "czk verify: unknown option '%s'\n", a);
            verify_usage(stderr);
            goto out;
        }
        if (npaths == 3) {
            fprintf(stderr, "czk verify: too many arguments\n");
            verify_usage(stderr);
            goto out;
        }
        paths[npaths++] = a;
    }
    if (npaths != 3) {
        fprintf(stderr, "czk verify: expected 3 files, got %d\n", npaths);
        verify_usage(stderr);
        goto out;
    }
    for (int k = 0; k < 3; k++) {
        if (!read_input(what[k], paths[k], &text[k]))
            goto out;
    }

    err[0] = '\0';
    st = czk_groth16_verify_json(text[0], text[1], text[2], err, sizeof(err));
    if (st == CZK_OK) {
        printf("OK\n");
        rc = 0;
    } else if (st == CZK_ERR_INVALID_PROOF) {
        printf("INVALID: %s\n", err[0] ? err : czk_status_str(st));
        rc = 1;
    } else {
        fprintf(stderr, "czk verify: %s\n", err[0] ? err : czk_status_str(st));
        rc = 2;
    }

out:
    for (int k = 0; k < 3; k++)
        free(text[k]);
    return rc;
}
