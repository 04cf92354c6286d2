/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk gen-circuit`: writes a synthetic circuit (circuit.r1cs) and a witness that
 * satisfies it (witness.wtns) into a directory, for benchmarks and tests of the setup
 * and the prover (shapes in src/groth16/gencircuit.h).
 *
 *   czk gen-circuit --curve bn254|bls12_381 (--constraints N | --domain-log K)
 *                   --shape mul|porep [--bool-frac F] [--seed S] [--threads T]
 *                   [--witnesses N] --out DIR
 *
 * --domain-log K asks for the largest circuit whose snarkjs domain is 2^K:
 * N = 2^K − nPublic − 1 constraints. Output is deterministic for a seed (default 1),
 * whatever the thread count. One summary line (logfmt) on stdout.
 * Exit status: 0 on success, 1 when generating or writing fails, 2 for usage errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "core/parallel.h"
#include "groth16/gencircuit.h"

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: czk gen-circuit --curve bn254|bls12_381 (--constraints N | --domain-log K)\n"
            "                       --shape mul|porep [--bool-frac F] [--seed S] [--threads T]\n"
            "                       [--witnesses N] --out DIR\n"
            "\n"
            "Write DIR/circuit.r1cs and DIR/witness.wtns: a synthetic circuit and a witness\n"
            "that satisfies it.\n"
            "  --curve        bn254 (snarkjs bn128) or bls12_381 (bls12381)\n"
            "  --constraints  number of constraints N >= 1\n"
            "  --domain-log   K: N = 2^K - nPublic - 1, the largest circuit on snarkjs's\n"
            "                 domain 2^K\n"
            "  --shape        mul: multiplication chain, 2 public signals;\n"
            "                 porep: PoRep-like rows (A 2.37, B 1, C 2.17 terms), 328 public\n"
            "  --bool-frac    porep: share F in [0, 1] of private witness values that are\n"
            "                 0 or 1 (default %.2f)\n"
            "  --seed         unsigned 64-bit seed (default 1); same seed, same files\n"
            "  --threads      worker threads (default: all cores)\n"
            "  --witnesses    mul: N >= 1 satisfying witnesses of the one circuit: witness.wtns\n"
            "                 and witness-1.wtns .. witness-(N-1).wtns (other inputs x, y)\n"
            "  --out          output directory (created if missing)\n",
            CZK_GEN_POREP_BOOL_FRAC_DEFAULT);
}

static int gen_bad(const char *msg, const char *arg)
{
    fprintf(stderr, "czk gen-circuit: %s%s%s%s\n", msg, arg ? " '" : "", arg ? arg : "",
            arg ? "'" : "");
    fprintf(stderr, "run 'czk gen-circuit --help' for usage\n");
    return 2;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
        return false;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *v = x;
    return true;
}

bool czk_cli_make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
            buf[i] = c;
        }
    }
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* witness-1.wtns .. witness-(n-1).wtns: other satisfying witnesses of the same circuit. */
static int write_more_witnesses(const struct czk_gen_params *base, const char *out_dir, uint32_t n)
{
    char err[512], path[4200];
    for (uint32_t k = 1; k < n; k++) {
        struct czk_gen_params p = *base;
        struct czk_gen_circuit c;
        p.witness_index = k;
        if (czk_gen_circuit(&c, &p, err, sizeof err) != CZK_OK) {
            fprintf(stderr, "czk gen-circuit: %s\n", err);
            return -1;
        }
        snprintf(path, sizeof path, "%s/witness-%u.wtns", out_dir, k);
        enum czk_status st = czk_wtns_write(path, p.curve, (const uint64_t(*)[4])c.witness,
                                            c.r1cs.n_wires, err, sizeof err);
        czk_gen_circuit_free(&c);
        if (st != CZK_OK) {
            fprintf(stderr, "czk gen-circuit: %s\n", err);
            return -1;
        }
    }
    return 0;
}

int czk_cli_gen_circuit(int argc, char **argv)
{
    const char *curve_s = NULL, *shape_s = NULL, *out_dir = NULL, *cons_s = NULL, *lg_s = NULL;
    const char *bool_s = NULL, *seed_s = NULL, *threads_s = NULL, *nw_s = NULL;
    uint64_t n_witnesses = 1;
    struct czk_gen_params p;
    struct czk_gen_circuit c;
    char err[512], path[4200];
    int rc = 1;

    memset(&p, 0, sizeof p);
    memset(&c, 0, sizeof c);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            gen_usage(stdout);
            return 0;
        }
        static const char *const names[] = {"--curve",       "--shape",      "--out",
                                            "--constraints", "--domain-log", "--bool-frac",
                                            "--seed",        "--threads",    "--witnesses"};
        const char **slots[] = {&curve_s, &shape_s, &out_dir, &cons_s,   &lg_s,
                                &bool_s,  &seed_s,  &threads_s, &nw_s};
        bool matched = false;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            size_t ln = strlen(names[k]);
            const char *val = NULL;
            if (!strcmp(a, names[k])) {
                if (i + 1 >= argc)
                    return gen_bad("missing value for", a);
                val = argv[++i];
            } else if (!strncmp(a, names[k], ln) && a[ln] == '=') {
                val = a + ln + 1;
            } else {
                continue;
            }
            if (*slots[k])
                return gen_bad("option given twice:", names[k]);
            *slots[k] = val;
            matched = true;
            break;
        }
        if (!matched)
            return gen_bad(a[0] == '-' ? "unknown option" : "unexpected argument", a);
    }

    if (!curve_s)
        return gen_bad("--curve is required", NULL);
    if (czk_groth16_curve_from_name(&p.curve, curve_s) != CZK_OK)
        return gen_bad("unknown curve (bn254 or bls12_381):", curve_s);
    if (!shape_s)
        return gen_bad("--shape is required", NULL);
    if (!strcmp(shape_s, "mul"))
        p.shape = CZK_GEN_SHAPE_MUL;
    else if (!strcmp(shape_s, "porep"))
        p.shape = CZK_GEN_SHAPE_POREP;
    else
        return gen_bad("unknown shape (mul or porep):", shape_s);
    if (!out_dir || !*out_dir)
        return gen_bad("--out DIR is required", NULL);
    if (strlen(out_dir) > 4000)
        return gen_bad("output path too long", NULL);

    uint32_t npub = czk_gen_n_public(p.shape);
    unsigned maxlg = czk_gen_max_lg_domain(p.curve);
    uint64_t v;
    if (!!cons_s == !!lg_s)
        return gen_bad("give exactly one of --constraints N and --domain-log K", NULL);
    if (cons_s) {
        if (!parse_u64(cons_s, &v) || v == 0)
            return gen_bad("--constraints must be a positive integer:", cons_s);
        if (v + npub + 1 > (1ull << maxlg)) {
            fprintf(stderr,
                    "czk gen-circuit: %s constraints + %u public + 1 exceed the largest domain "
                    "2^%u of %s\n",
                    cons_s, npub, maxlg, curve_s);
            return 2;
        }
        p.n_constraints = (uint32_t)v;
    } else {
        if (!parse_u64(lg_s, &v) || v > maxlg) {
            fprintf(stderr, "czk gen-circuit: --domain-log must be an integer <= %u for %s: '%s'\n",
                    maxlg, curve_s, lg_s);
            return 2;
        }
        if ((1ull << v) < npub + 2ull) {
            fprintf(stderr,
                    "czk gen-circuit: --domain-log %s leaves no room for constraints (shape %s "
                    "has %u public signals; need 2^K >= %u)\n",
                    lg_s, shape_s, npub, npub + 2);
            return 2;
        }
        p.n_constraints = (uint32_t)((1ull << v) - npub - 1);
    }
    if (bool_s) {
        char *end;
        if (p.shape != CZK_GEN_SHAPE_POREP)
            return gen_bad("--bool-frac applies to --shape porep only", NULL);
        errno = 0;
        p.bool_frac = strtod(bool_s, &end);
        if (errno || end == bool_s || *end || !(p.bool_frac >= 0.0 && p.bool_frac <= 1.0))
            return gen_bad("--bool-frac must be a number in [0, 1]:", bool_s);
    } else {
        p.bool_frac = p.shape == CZK_GEN_SHAPE_POREP ? CZK_GEN_POREP_BOOL_FRAC_DEFAULT : 0.0;
    }
    p.seed = 1;
    if (seed_s && !parse_u64(seed_s, &p.seed))
        return gen_bad("--seed must be an unsigned 64-bit integer:", seed_s);
    if (threads_s) {
        if (!parse_u64(threads_s, &v) || v == 0 || v > 4096)
            return gen_bad("--threads must be an integer in [1, 4096]:", threads_s);
        p.threads = (unsigned)v;
    }

    if (nw_s && (!parse_u64(nw_s, &n_witnesses) || n_witnesses == 0 || n_witnesses > 4096))
        return gen_bad("--witnesses must be an integer in [1, 4096]:", nw_s);
    if (n_witnesses > 1 && p.shape != CZK_GEN_SHAPE_MUL)
        return gen_bad("--witnesses applies to --shape mul only", NULL);

    if (!czk_cli_make_dirs(out_dir)) {
        fprintf(stderr, "czk gen-circuit: cannot create directory '%s': %s\n", out_dir,
                strerror(errno));
        return 1;
    }

    double t0 = now_ms();
    if (czk_gen_circuit(&c, &p, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk gen-circuit: %s\n", err);
        goto out;
    }
    double t1 = now_ms();
    snprintf(path, sizeof path, "%s/circuit.r1cs", out_dir);
    if (czk_r1cs_write(path, &c.r1cs, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk gen-circuit: %s\n", err);
        goto out;
    }
    snprintf(path, sizeof path, "%s/witness.wtns", out_dir);
    if (czk_wtns_write(path, p.curve, (const uint64_t(*)[4])c.witness, c.r1cs.n_wires, err,
                       sizeof err) != CZK_OK) {
        fprintf(stderr, "czk gen-circuit: %s\n", err);
        goto out;
    }
    if (write_more_witnesses(&p, out_dir, (uint32_t)n_witnesses) != 0)
        goto out;
    double t2 = now_ms();

    uint64_t bools = 0;
    for (uint32_t i = 0; i < c.r1cs.n_wires; i++) {
        const uint64_t *w = c.witness[i];
        if ((w[1] | w[2] | w[3]) == 0 && w[0] <= 1)
            bools++;
    }
    uint64_t rows = (uint64_t)c.r1cs.n_constraints + npub + 1;
    unsigned lg = 0;
    while ((1ull << lg) < rows)
        lg++;
    printf("gen-circuit curve=%s shape=%s constraints=%u wires=%u public=%u nnz_a=%llu "
           "nnz_b=%llu nnz_c=%llu domain_log=%u bool_share=%.4f seed=%llu threads=%u "
           "gen_ms=%.0f write_ms=%.0f out=%s\n",
           czk_groth16_curve_name(p.curve), shape_s, c.r1cs.n_constraints, c.r1cs.n_wires, npub,
           (unsigned long long)c.r1cs.m[0].nnz, (unsigned long long)c.r1cs.m[1].nnz,
           (unsigned long long)c.r1cs.m[2].nnz, lg, (double)bools / c.r1cs.n_wires,
           (unsigned long long)p.seed, czk_threads_resolve(p.threads), t1 - t0, t2 - t1, out_dir);
    rc = 0;
out:
    czk_gen_circuit_free(&c);
    return rc;
}
