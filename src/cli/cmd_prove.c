/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk prove [options] circuit.zkey witness.wtns proof.json public.json`: a Groth16 proof
 * of a circom witness under a snarkjs key (rapidsnark's argument order), written as
 * snarkjs's proof.json and public.json.
 *
 * Exit status: 0 proved (files written); 1 the witness does not satisfy the --r1cs
 * constraints, or --check found that the proof does not verify (nothing written);
 * 2 usage error, unreadable or malformed input (the message names the file and the
 * problem), key/witness mismatch, unavailable backend, or any other failure.
 * Output files are written to a temporary file in the same directory and renamed, so a
 * reader never sees a partial proof. On a terminal, one line per stage goes to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "czk/czk_prover.h"
#include "groth16/prove_internal.h"

static void prove_usage(FILE *f)
{
    fprintf(f, "usage: czk prove [options] circuit.zkey witness.wtns proof.json public.json\n"
               "\n"
               "Prove a circom witness under a snarkjs Groth16 key (bn128 or bls12381) and write\n"
               "proof.json and public.json as snarkjs does.\n"
               "\n"
               "options:\n"
               "  --threads N        CPU threads (default: all cores)\n"
               "  --backend B        auto (every GPU, else CPU; default), cpu or cuda\n"
               "  --check            verify the proof with the key's own vkey before writing\n"
               "  --r1cs FILE        first check the witness against the circuit's constraints\n"
               "  --trust-key        skip the subgroup checks of the proving-key points\n"
               "  --no-key-cache     neither use nor update the cache of checked keys (by\n"
               "                     default a key whose subgroup checks passed is remembered\n"
               "                     by its hash in $XDG_CACHE_HOME/czk/trusted-keys, or\n"
               "                     ~/.cache/czk/trusted-keys, and not checked again)\n"
               "  --format F         snarkjs (default) or bellman: also write the 192-byte\n"
               "                     compressed proof (BLS12-381) next to proof.json, as .bin\n"
               "\n"
               "exit status: 0 proved; 1 constraint violated (--r1cs) or proof rejected\n"
               "(--check); 2 bad input or other failure\n");
}

/* Writes data to path via a temporary file in the same directory and rename(2). */
int czk_cli_write_atomic(const char *prog, const char *path, const void *data, size_t len)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16);
    FILE *f = NULL;
    int fd = -1, rc = -1;
    if (!tmp) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    memcpy(tmp, path, pl);
    memcpy(tmp + pl, ".tmp.XXXXXX", 12);
    fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot create '%s': %s\n", prog, tmp, strerror(errno));
        goto out;
    }
    f = fdopen(fd, "wb");
    if (!f) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        goto out;
    }
    if (fwrite(data, 1, len, f) != len || fflush(f) != 0 || fsync(fileno(f)) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path, strerror(errno));
        fclose(f);
        unlink(tmp);
        goto out;
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path, strerror(errno));
        unlink(tmp);
        goto out;
    }
    /* mkstemp creates 0600; give the file the permissions an ordinary create would. */
    mode_t um = umask(0);
    umask(um);
    chmod(tmp, 0666 & ~um);
    if (rename(tmp, path) != 0) {
        fprintf(stderr, "%s: cannot rename '%s' to '%s': %s\n", prog, tmp, path, strerror(errno));
        unlink(tmp);
        goto out;
    }
    rc = 0;
out:
    free(tmp);
    return rc;
}

static void on_stage(void *user, const char *stage, double ms)
{
    (void)user;
    fprintf(stderr, "czk prove: %-9s %10.1f ms\n", stage, ms);
}

/* Parses "R,S" (decimal) into canonical limbs for the key's curve. */
static bool parse_fixed_rs(const char *arg, enum czk_groth16_curve c, uint64_t r[4], uint64_t s[4])
{
    char buf[512];
    const char *comma = strchr(arg, ',');
    size_t n = strlen(arg);
    if (!comma || n >= sizeof buf)
        return false;
    memcpy(buf, arg, n + 1);
    buf[comma - arg] = 0;
    const char *rs[2] = {buf, buf + (comma - arg) + 1};
    uint64_t *out[2] = {r, s};
    for (int i = 0; i < 2; i++) {
        if (c == CZK_GROTH16_CURVE_BN254) {
            struct czk_fr_bn254 v;
            if (czk_fr_bn254_from_dec(&v, rs[i]) != CZK_OK)
                return false;
            czk_fr_bn254_to_canonical(out[i], &v);
        } else {
            struct czk_fr_bls12_381 v;
            if (czk_fr_bls12_381_from_dec(&v, rs[i]) != CZK_OK)
                return false;
            czk_fr_bls12_381_to_canonical(out[i], &v);
        }
    }
    return true;
}

static bool parse_uint(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v > 4096 || s[0] == '-')
        return false;
    *out = (unsigned)v;
    return true;
}

int czk_cli_prove(int argc, char **argv)
{
    const char *pos[4];
    int npos = 0;
    unsigned threads = 0, kflags = CZK_PROVER_KEY_REMEMBER;
    const char *backend = "auto", *r1cs_path = NULL, *format = "snarkjs", *fixed_rs = NULL;
    bool check = false, tty = isatty(2) != 0;
    char err[512];
    int rc = 2;
    czk_witness_t wit = NULL;
    czk_prover_key_t key = NULL;
    czk_backend_t be = NULL;
    struct czk_r1cs r1cs;
    bool have_r1cs = false;
    struct czk_groth16_proof proof;
    struct czk_groth16_public pub;
    bool have_pub = false;
    char *pjson = NULL, *ujson = NULL, *binpath = NULL;
    size_t plen = 0, ulen = 0;
    enum czk_status st;

    memset(&r1cs, 0, sizeof r1cs);
    memset(&pub, 0, sizeof pub);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            prove_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--threads") && has_next) {
            if (!parse_uint(argv[++i], &threads)) {
                fprintf(stderr, "czk prove: --threads: '%s' is not a thread count\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--backend") && has_next) {
            backend = argv[++i];
        } else if (!strcmp(a, "--r1cs") && has_next) {
            r1cs_path = argv[++i];
        } else if (!strcmp(a, "--format") && has_next) {
            format = argv[++i];
        } else if (!strcmp(a, "--test-fixed-rs") && has_next) {
            fixed_rs = argv[++i]; /* hidden, test-only: deterministic blinding */
        } else if (!strcmp(a, "--check")) {
            check = true;
        } else if (!strcmp(a, "--trust-key")) {
            kflags |= CZK_PROVER_KEY_TRUST;
        } else if (!strcmp(a, "--no-key-cache")) {
            kflags &= ~(unsigned)CZK_PROVER_KEY_REMEMBER;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "czk prove: unknown or incomplete option '%s'\n", a);
            prove_usage(stderr);
            return 2;
        } else if (npos < 4) {
            pos[npos++] = a;
        } else {
            fprintf(stderr, "czk prove: too many arguments\n");
            prove_usage(stderr);
            return 2;
        }
    }
    if (npos != 4) {
        prove_usage(stderr);
        return 2;
    }
    if (strcmp(format, "snarkjs") && strcmp(format, "bellman")) {
        fprintf(stderr, "czk prove: --format: '%s' is not snarkjs or bellman\n", format);
        return 2;
    }
    const char *zkey_path = pos[0], *wtns_path = pos[1], *proof_path = pos[2],
               *public_path = pos[3];

    if ((st = czk_witness_load(&wit, wtns_path, err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk prove: witness %s: %s\n", wtns_path, err);
        goto out;
    }
    if (r1cs_path) {
        uint64_t bad;
        if ((st = czk_r1cs_load(&r1cs, r1cs_path, err, sizeof err)) != CZK_OK) {
            fprintf(stderr, "czk prove: r1cs %s: %s\n", r1cs_path, err);
            goto out;
        }
        have_r1cs = true;
        if ((st = czk_prove_check_r1cs(&r1cs, wit, threads, &bad, err, sizeof err)) != CZK_OK) {
            fprintf(stderr, "czk prove: %s / %s: %s\n", r1cs_path, wtns_path, err);
            goto out;
        }
        if (bad != UINT64_MAX) {
            fprintf(stderr, "czk prove: the witness %s violates constraint %llu of %s (0-based)\n",
                    wtns_path, (unsigned long long)bad, r1cs_path);
            rc = 1;
            goto out;
        }
    }
    if ((st = czk_prover_key_load(&key, zkey_path, kflags, threads, err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk prove: zkey %s: %s\n", zkey_path, err);
        goto out;
    }
    if (have_r1cs &&
        (st = czk_zkey_check_r1cs(czk_prover_key_zkey(key), &r1cs, err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk prove: %s was not made for %s: %s\n", zkey_path, r1cs_path, err);
        goto out;
    }
    struct czk_prover_key_info info;
    czk_prover_key_get_info(key, &info);
    if (!strcmp(format, "bellman") && info.curve != CZK_GROTH16_CURVE_BLS12_381) {
        fprintf(stderr, "czk prove: --format bellman needs a BLS12-381 key; %s is %s\n", zkey_path,
                czk_groth16_curve_name(info.curve));
        goto out;
    }
    uint64_t fr[4], fs[4];
    struct czk_prove_opts opts = {0};
    if (fixed_rs) {
        if (!parse_fixed_rs(fixed_rs, info.curve, fr, fs)) {
            fprintf(stderr, "czk prove: --test-fixed-rs: expected R,S (decimal, < r)\n");
            goto out;
        }
        opts.test_fixed_r = fr;
        opts.test_fixed_s = fs;
    }
    if (tty)
        opts.on_stage = on_stage;
    if ((st = czk_backend_init_by_name(&be, backend, threads, err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk prove: %s\n", err);
        goto out;
    }
    if (tty)
        fprintf(stderr, "czk prove: %s, 2^%u domain, %u signals, backend %s, %u threads\n",
                czk_groth16_curve_name(info.curve), info.lg_domain, info.n_vars,
                czk_backend_name(be), czk_backend_threads(be));
    st = czk_prove(key, be, wit, &opts, &proof, &pub, err, sizeof err);
    if (st != CZK_OK) {
        if (st == CZK_ERR_FORMAT)
            fprintf(stderr, "czk prove: %s does not match %s: %s\n", wtns_path, zkey_path, err);
        else
            fprintf(stderr, "czk prove: %s\n", err);
        goto out;
    }
    have_pub = true;
    if (check) {
        struct czk_groth16_vkey vk;
        if ((st = czk_prover_key_vkey(key, &vk, err, sizeof err)) != CZK_OK) {
            fprintf(stderr, "czk prove: --check: %s\n", err);
            goto out;
        }
        st = czk_groth16_verify(&vk, &pub, &proof, err, sizeof err);
        czk_groth16_vkey_free(&vk);
        if (st != CZK_OK) {
            fprintf(stderr, "czk prove: --check: the proof does not verify (%s); nothing written\n",
                    err);
            rc = st == CZK_ERR_INVALID_PROOF ? 1 : 2;
            goto out;
        }
        if (tty)
            fprintf(stderr, "czk prove: --check: the proof verifies\n");
    }
    if (czk_groth16_proof_to_json(&proof, &pjson, &plen) != CZK_OK ||
        czk_groth16_public_to_json(&pub, &ujson, &ulen) != CZK_OK) {
        fprintf(stderr, "czk prove: out of memory\n");
        goto out;
    }
    if (!strcmp(format, "bellman")) {
        uint8_t bin[192];
        size_t pl = strlen(proof_path);
        binpath = malloc(pl + 5);
        if (!binpath) {
            fprintf(stderr, "czk prove: out of memory\n");
            goto out;
        }
        memcpy(binpath, proof_path, pl + 1);
        if (pl > 5 && !strcmp(binpath + pl - 5, ".json"))
            binpath[pl - 5] = 0;
        strcat(binpath, ".bin");
        czk_groth16_proof_to_bellman(&proof, bin);
        if (czk_cli_write_atomic("czk prove", binpath, bin, sizeof bin) != 0)
            goto out;
    }
    if (czk_cli_write_atomic("czk prove", proof_path, pjson, plen) != 0 ||
        czk_cli_write_atomic("czk prove", public_path, ujson, ulen) != 0)
        goto out;
    rc = 0;
out:
    free(pjson);
    free(ujson);
    free(binpath);
    if (have_pub)
        czk_groth16_public_free(&pub);
    czk_backend_free(be);
    czk_prover_key_free(key);
    if (have_r1cs)
        czk_r1cs_free(&r1cs);
    czk_witness_free(wit);
    return rc;
}
