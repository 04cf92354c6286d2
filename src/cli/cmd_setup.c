/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk setup --dev circuit.r1cs out.zkey [--seed S] [--threads N]`: an INSECURE
 * single-party Groth16 setup that writes a snarkjs .zkey for the circuit (BN254 or
 * BLS12-381, from the r1cs' prime), for development and benchmarks only: the toxic
 * waste is derived from the seed (SHA-256 of the seed text) or drawn with getrandom(2)
 * and known to this process, so anyone who knows it can forge proofs. A warning says so
 * on stderr; one summary line (logfmt) goes to stdout. The key works with
 * `snarkjs zkey export verificationkey`, `snarkjs groth16 prove` and `czk prove`.
 * Exit status: 0 on success, 1 when reading the circuit or computing/writing the key
 * fails, 2 for usage errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cli/cli.h"
#include "core/parallel.h"
#include "core/sha256.h"
#include "groth16/setup_dev.h"

static void setup_usage(FILE *f)
{
    fprintf(f, "usage: czk setup --dev circuit.r1cs out.zkey [--seed S] [--threads N]\n"
               "\n"
               "INSECURE single-party Groth16 setup: writes a snarkjs .zkey for the circuit\n"
               "(curve from the r1cs prime). Whoever knows the seed, or this process, knows\n"
               "the toxic waste and can forge proofs: development and benchmarks only.\n"
               "  --dev      required (the only kind of setup czk does)\n"
               "  --seed S   derive the toxic waste from the text S (reproducible keys);\n"
               "             default: random (getrandom)\n"
               "  --threads  worker threads (default: all cores)\n");
}

static int setup_bad(const char *msg, const char *arg)
{
    fprintf(stderr, "czk setup: %s%s%s%s\n", msg, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    fprintf(stderr, "run 'czk setup --help' for usage\n");
    return 2;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int czk_cli_setup(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL}, *seed_s = NULL, *threads_s = NULL;
    unsigned npos = 0, threads = 0;
    bool dev = false;
    uint8_t seed[32];
    struct czk_setup_toxic tw;
    struct czk_r1cs r;
    char err[512];
    int rc = 1;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            setup_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--dev")) {
            dev = true;
        } else if (!strcmp(a, "--seed") || !strncmp(a, "--seed=", 7)) {
            if (seed_s)
                return setup_bad("option given twice:", "--seed");
            if (a[6] == '=')
                seed_s = a + 7;
            else if (i + 1 < argc)
                seed_s = argv[++i];
            else
                return setup_bad("missing value for", a);
        } else if (!strcmp(a, "--threads") || !strncmp(a, "--threads=", 10)) {
            if (threads_s)
                return setup_bad("option given twice:", "--threads");
            if (a[9] == '=')
                threads_s = a + 10;
            else if (i + 1 < argc)
                threads_s = argv[++i];
            else
                return setup_bad("missing value for", a);
        } else if (a[0] == '-' && a[1] != '\0') {
            return setup_bad("unknown option", a);
        } else {
            if (npos == 2)
                return setup_bad("unexpected argument", a);
            pos[npos++] = a;
        }
    }
    if (!dev)
        return setup_bad("only development setups are supported: pass --dev "
                         "(INSECURE, for development and benchmarks)",
                         NULL);
    if (npos != 2)
        return setup_bad("expected circuit.r1cs and out.zkey", NULL);
    if (threads_s) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(threads_s, &end, 10);
        if (errno || end == threads_s || *end || threads_s[0] == '-' || v == 0 || v > 4096)
            return setup_bad("--threads must be an integer in [1, 4096]:", threads_s);
        threads = (unsigned)v;
    }
    if (seed_s && !*seed_s)
        return setup_bad("--seed must not be empty", NULL);

    fprintf(stderr,
            "czk setup: WARNING: this is an INSECURE single-party development setup; "
            "the toxic waste is %s, so proofs for this key can be forged. Use it for "
            "development and benchmarks only.\n",
            seed_s ? "derived from --seed" : "known to this process");

    if (seed_s) {
        czk_sha256(seed, seed_s, strlen(seed_s));
    } else {
        size_t got = 0;
        while (got < sizeof seed) {
            ssize_t k = getrandom(seed + got, sizeof seed - got, 0);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                fprintf(stderr, "czk setup: getrandom failed: %s\n", strerror(errno));
                return 1;
            }
            got += (size_t)k;
        }
    }

    double t0 = now_ms();
    memset(&r, 0, sizeof r);
    if (czk_r1cs_load(&r, pos[0], err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk setup: %s\n", err);
        goto out;
    }
    uint32_t npub = r.n_pub_out + r.n_pub_in;
    unsigned lg = czk_setup_lg_domain(r.n_constraints, npub);
    if (czk_setup_toxic_derive(&tw, r.curve, seed, lg) != CZK_OK) {
        fprintf(stderr,
                "czk setup: %s: %u constraints + %u public signals need a domain of 2^%u, "
                "too large for %s\n",
                pos[0], r.n_constraints, npub, lg, czk_groth16_curve_name(r.curve));
        goto out;
    }
    double t1 = now_ms();
    if (czk_setup_dev(&r, &tw, pos[1], threads, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk setup: %s: %s\n", pos[0], err);
        goto out;
    }
    double t2 = now_ms();
    printf("setup curve=%s constraints=%u signals=%u public=%u domain_log=%u coefs=%llu "
           "threads=%u load_ms=%.0f setup_ms=%.0f out=%s\n",
           czk_groth16_curve_name(r.curve), r.n_constraints, r.n_wires, npub, lg,
           (unsigned long long)(r.m[0].nnz + r.m[1].nnz + npub + 1), czk_threads_resolve(threads),
           t1 - t0, t2 - t1, pos[1]);
    rc = 0;
out:
    memset(&tw, 0, sizeof tw);
    memset(seed, 0, sizeof seed);
    czk_r1cs_free(&r);
    return rc;
}
