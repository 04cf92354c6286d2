/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk demo [--dir DIR] [--vectors DIR]`: the project end to end, in three parts.
 *  1. arithmetic: a self-check of both curves on fresh random inputs (fields, groups,
 *     encodings, pairing bilinearity), then `czk verify` on the snarkjs proofs bundled in
 *     tests/vectors/groth16/<curve>/<circuit>/;
 *  2. prover: for BN254 and BLS12-381, a generated multiplication-chain circuit (2^12
 *     domain, four witnesses), an insecure dev setup, one proof on the CPU backend (and one
 *     on the GPU when a CUDA device is present), each checked by `czk verify`;
 *  3. engine: `czk batch` of multi-partition jobs of both circuits at all four
 *     priorities — LOW and NORMAL jobs first, HIGH and CRITICAL ones submitted later that
 *     overtake them — with every proof verified, the order of completion and each
 *     worker's timeline.
 * Files go to DIR (default $TMPDIR/czk-demo, else /tmp/czk-demo). Prints one line per
 * check and a closing summary; exits 0 only if every check passed. Randomness comes from
 * getrandom(2), so each run exercises new values.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cli/cli.h"
#include "czk/czk_backend.h"
#include "czk/czk_ec.h"
#include "czk/czk_groth16.h"
#include "czk/czk_pairing.h"

static int n_ok, n_fail;

static void report(const char *what, bool ok, double ms)
{
    printf("  %-66s %s  (%.2f ms)\n", what, ok ? "ok" : "FAILED", ms);
    if (ok)
        n_ok++;
    else
        n_fail++;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void rnd(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t k = getrandom(p, n, 0);
        if (k <= 0) {
            perror("getrandom");
            exit(2);
        }
        p += k;
        n -= (size_t)k;
    }
}

/* A uniformly random field element: random bytes with the top byte masked, resampled
 * until below the modulus (rejection sampling keeps the distribution uniform). */
#define RANDOM_ELEMENT(F, BYTES)                                                                   \
    static void rand_##F(struct czk_##F *r)                                                        \
    {                                                                                              \
        uint8_t b[BYTES];                                                                          \
        do {                                                                                       \
            rnd(b, sizeof b);                                                                      \
            b[BYTES - 1] &= 0x7f;                                                                  \
        } while (czk_##F##_from_bytes_le(r, b) != CZK_OK);                                         \
    }
RANDOM_ELEMENT(fp_bn254, 32)
RANDOM_ELEMENT(fr_bn254, 32)
RANDOM_ELEMENT(fp_bls12_381, 48)
RANDOM_ELEMENT(fr_bls12_381, 32)

/* Field laws: (a*b)/b == a, sqrt(a^2)^2 == a^2, decimal round trip, 1000 random pairs. */
#define FIELD_CHECK(F)                                                                             \
    static void check_##F(void)                                                                    \
    {                                                                                              \
        double t = now_ms();                                                                       \
        bool ok = true;                                                                            \
        for (int i = 0; i < 1000 && ok; i++) {                                                     \
            struct czk_##F a, b, c, d;                                                             \
            char s[CZK_FF_DEC_MAX];                                                                \
            rand_##F(&a);                                                                          \
            rand_##F(&b);                                                                          \
            czk_##F##_mul(&c, &a, &b);                                                             \
            czk_##F##_inv(&d, &b);                                                                 \
            czk_##F##_mul(&c, &c, &d);                                                             \
            ok &= czk_##F##_is_zero(&b) || czk_##F##_eq(&c, &a);                                   \
            czk_##F##_sqr(&c, &a);                                                                 \
            ok &= czk_##F##_sqrt(&d, &c);                                                          \
            czk_##F##_sqr(&d, &d);                                                                 \
            ok &= czk_##F##_eq(&d, &c);                                                            \
            ok &= czk_##F##_to_dec(s, sizeof s, &a) > 0 && czk_##F##_from_dec(&d, s) == CZK_OK &&  \
                  czk_##F##_eq(&d, &a);                                                            \
        }                                                                                          \
        report(#F ": mul/inv/sqrt/decimal on 1000 random pairs", ok, now_ms() - t);               \
    }
FIELD_CHECK(fp_bn254)
FIELD_CHECK(fr_bn254)
FIELD_CHECK(fp_bls12_381)
FIELD_CHECK(fr_bls12_381)

/* Group laws: [a]G + [b]G == [a+b]G, mul_ct == mul, [r]G == O, subgroup check, zkey round trip. */
#define GROUP_CHECK(G, FR)                                                                         \
    static void check_##G(void)                                                                    \
    {                                                                                              \
        double t = now_ms();                                                                       \
        bool ok = true;                                                                            \
        struct czk_##G##_affine g, pa, back;                                                       \
        struct czk_##G gj, p1, p2, p3;                                                             \
        struct czk_##FR a, b, c;                                                                   \
        size_t nr;                                                                                 \
        uint8_t buf[256];                                                                          \
        czk_##G##_generator(&g);                                                                   \
        ok &= czk_##G##_affine_on_curve(&g) && czk_##G##_affine_in_subgroup(&g);                   \
        czk_##G##_from_affine(&gj, &g);                                                            \
        const uint64_t *r = czk_##G##_order_limbs(&nr);                                            \
        czk_##G##_mul_limbs(&p1, &gj, r, nr);                                                      \
        ok &= czk_##G##_is_inf(&p1);                                                               \
        for (int i = 0; i < 8 && ok; i++) {                                                        \
            rand_##FR(&a);                                                                         \
            rand_##FR(&b);                                                                         \
            czk_##FR##_add(&c, &a, &b);                                                            \
            czk_##G##_mul(&p1, &gj, &a);                                                           \
            czk_##G##_mul_ct(&p2, &gj, &b);                                                        \
            czk_##G##_add(&p1, &p1, &p2);                                                          \
            czk_##G##_mul(&p3, &gj, &c);                                                           \
            ok &= czk_##G##_eq(&p1, &p3);                                                          \
            czk_##G##_to_affine(&pa, &p1);                                                         \
            ok &= czk_##G##_affine_in_subgroup(&pa);                                               \
            czk_##G##_to_zkey(buf, &pa);                                                           \
            ok &= czk_##G##_from_zkey(&back, buf, 0) == CZK_OK && czk_##G##_affine_eq(&back, &pa); \
        }                                                                                          \
        report(#G ": group laws, [r]G = O, subgroup, zkey encoding", ok, now_ms() - t);           \
    }
GROUP_CHECK(g1_bn254, fr_bn254)
GROUP_CHECK(g2_bn254, fr_bn254)
GROUP_CHECK(g1_bls12_381, fr_bls12_381)
GROUP_CHECK(g2_bls12_381, fr_bls12_381)

/* Bilinearity: e([a]P, [b]Q) * e(-[ab]P, Q) == 1, and a perturbed product is rejected. */
#define PAIRING_CHECK(C)                                                                           \
    static void check_pairing_##C(void)                                                            \
    {                                                                                              \
        double t = now_ms();                                                                       \
        struct czk_g1_##C##_affine g1, p[2];                                                       \
        struct czk_g2_##C##_affine g2, q[2];                                                       \
        struct czk_g1_##C j1;                                                                      \
        struct czk_g2_##C j2;                                                                      \
        struct czk_fr_##C a, b, ab;                                                                \
        czk_g1_##C##_generator(&g1);                                                               \
        czk_g2_##C##_generator(&g2);                                                               \
        rand_fr_##C(&a);                                                                           \
        rand_fr_##C(&b);                                                                           \
        czk_fr_##C##_mul(&ab, &a, &b);                                                             \
        czk_g1_##C##_from_affine(&j1, &g1);                                                        \
        czk_g1_##C##_mul(&j1, &j1, &a);                                                            \
        czk_g1_##C##_to_affine(&p[0], &j1);                                                        \
        czk_g2_##C##_from_affine(&j2, &g2);                                                        \
        czk_g2_##C##_mul(&j2, &j2, &b);                                                            \
        czk_g2_##C##_to_affine(&q[0], &j2);                                                        \
        czk_g1_##C##_from_affine(&j1, &g1);                                                        \
        czk_g1_##C##_mul(&j1, &j1, &ab);                                                           \
        czk_g1_##C##_neg(&j1, &j1);                                                                \
        czk_g1_##C##_to_affine(&p[1], &j1);                                                        \
        q[1] = g2;                                                                                 \
        bool ok = czk_pairing_##C##_check(p, q, 2);                                                \
        q[1] = q[0];                                                                               \
        ok &= !czk_pairing_##C##_check(p, q, 2);                                                   \
        report("pairing " #C ": e([a]P,[b]Q) = e(P,Q)^ab, perturbed rejected", ok, now_ms() - t); \
    }
PAIRING_CHECK(bn254)
PAIRING_CHECK(bls12_381)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && n < (64l << 20) && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
            if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
                free(buf);
                buf = NULL;
            } else {
                buf[n] = 0;
            }
        }
    }
    fclose(f);
    return buf;
}

static void verify_dir(const char *dir, const char *label)
{
    char pv[4096], pp[4096], pr[4096], what[128], err[256] = "";
    if (snprintf(pv, sizeof pv, "%s/verification_key.json", dir) >= (int)sizeof pv ||
        snprintf(pp, sizeof pp, "%s/public.json", dir) >= (int)sizeof pp ||
        snprintf(pr, sizeof pr, "%s/proof.json", dir) >= (int)sizeof pr)
        return; /* path too long: not one of ours */
    char *v = slurp(pv), *p = slurp(pp), *r = slurp(pr);
    if (!v || !p || !r) {
        free(v);
        free(p);
        free(r);
        return; /* not a vector directory */
    }
    double t = now_ms();
    enum czk_status st = czk_groth16_verify_json(v, p, r, err, sizeof err);
    if (snprintf(what, sizeof what, "czk verify %s", label) >= (int)sizeof what)
        what[sizeof what - 1] = 0;
    report(what, st == CZK_OK, now_ms() - t);
    if (st != CZK_OK)
        printf("    %s: %s\n", czk_status_str(st), err);
    free(v);
    free(p);
    free(r);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Visit DIR/<curve>/<circuit>/ in sorted order. */
static void verify_bundled(const char *root)
{
    const char *curves[] = {"bn254", "bls12_381", "bn128", "bls12381"};
    for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++) {
        char cdir[4096];
        if (snprintf(cdir, sizeof cdir, "%s/%s", root, curves[c]) >= (int)sizeof cdir)
            continue;
        DIR *d = opendir(cdir);
        if (!d)
            continue;
        char *names[256];
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(d)) && n < 256)
            if (e->d_name[0] != '.')
                names[n++] = strdup(e->d_name);
        closedir(d);
        qsort(names, n, sizeof names[0], by_name);
        for (size_t i = 0; i < n; i++) {
            char dir[4096], label[600];
            if (snprintf(dir, sizeof dir, "%s/%s", cdir, names[i]) < (int)sizeof dir &&
                snprintf(label, sizeof label, "%s/%s", curves[c], names[i]) < (int)sizeof label)
                verify_dir(dir, label);
            free(names[i]);
        }
    }
}

/* Runs a czk subcommand in-process (argv NULL-terminated); true when it exits 0. */
static bool run_cmd(int (*fn)(int, char **), char **argv, const char *what)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    double t = now_ms();
    fflush(stdout);
    int rc = fn(argc, argv);
    fflush(stdout);
    report(what, rc == 0, now_ms() - t);
    return rc == 0;
}

static bool have_cuda(void)
{
    czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
    return reg && czk_backend_reg_device_count(reg) > 0;
}

#define DEMO_PATH(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__) < (int)sizeof buf)

/* Part 2: circuit, dev key, proofs on each backend, verification. */
static bool demo_prover(const char *dir, const char *curve)
{
    char cdir[4096], r1cs[4200], zkey[4200], wtns[4200], proof[4200], pub[4200], vkey[4200],
        what[160];
    if (!DEMO_PATH(cdir, "%s/%s", dir, curve) || !DEMO_PATH(r1cs, "%s/circuit.r1cs", cdir) ||
        !DEMO_PATH(zkey, "%s/circuit.zkey", cdir) || !DEMO_PATH(wtns, "%s/witness.wtns", cdir) ||
        !DEMO_PATH(vkey, "%s/verification_key.json", cdir))
        return false;
    char *gen[] = {"gen-circuit", "--curve", (char *)curve, "--domain-log", "12", "--shape",
                   "mul", "--witnesses", "4", "--out", cdir, NULL};
    char *setup[] = {"setup", "--dev", r1cs, zkey, NULL};
    char *vk[] = {"zkey", "export-vkey", zkey, vkey, NULL};
    snprintf(what, sizeof what, "%s: gen-circuit mul 2^12 domain, 4 witnesses", curve);
    if (!run_cmd(czk_cli_gen_circuit, gen, what))
        return false;
    snprintf(what, sizeof what, "%s: setup --dev (insecure, development only)", curve);
    if (!run_cmd(czk_cli_setup, setup, what))
        return false;
    snprintf(what, sizeof what, "%s: zkey export-vkey", curve);
    if (!run_cmd(czk_cli_zkey, vk, what))
        return false;
    const char *backends[] = {"cpu", "cuda"};
    for (int b = 0; b < 2; b++) {
        if (b == 1 && !have_cuda()) {
            printf("  %s: no CUDA device: GPU proof skipped\n", curve);
            continue;
        }
        if (!DEMO_PATH(proof, "%s/proof-%s.json", cdir, backends[b]) ||
            !DEMO_PATH(pub, "%s/public-%s.json", cdir, backends[b]))
            return false;
        char *prove[] = {"prove", "--backend", (char *)backends[b], zkey, wtns, proof, pub, NULL};
        char *verify[] = {"verify", vkey, pub, proof, NULL};
        snprintf(what, sizeof what, "%s: prove --backend %s", curve, backends[b]);
        run_cmd(czk_cli_prove, prove, what);
        snprintf(what, sizeof what, "%s: czk verify of the %s proof", curve, backends[b]);
        run_cmd(czk_cli_verify, verify, what);
    }
    return true;
}

/* Part 3: JOBS.json of both circuits at four priorities, run through the engine. */
static void demo_engine(const char *dir)
{
    char jobs[4200], out[4200];
    if (!DEMO_PATH(jobs, "%s/jobs.json", dir) || !DEMO_PATH(out, "%s/proofs", dir))
        return;
    FILE *f = fopen(jobs, "w");
    if (!f) {
        report("engine: write jobs.json", false, 0);
        return;
    }
    static const char *w4 = "[\"%s/witness.wtns\", \"%s/witness-1.wtns\", \"%s/witness-2.wtns\", "
                            "\"%s/witness-3.wtns\"]";
    static const struct {
        const char *label, *circuit, *prio;
        int at_ms;
    } J[] = {
        {"bn-low-1", "bn254", "low", 0},          {"bn-low-2", "bn254", "low", 0},
        {"bls-low-1", "bls12_381", "low", 0},     {"bn-normal", "bn254", "normal", 0},
        {"bls-normal", "bls12_381", "normal", 0}, {"bn-high", "bn254", "high", 150},
        {"bls-critical", "bls12_381", "critical", 300},
    };
    fprintf(f, "{\n  \"circuits\": {\"bn254\": \"bn254/circuit.zkey\", "
               "\"bls12_381\": \"bls12_381/circuit.zkey\"},\n  \"jobs\": [\n");
    for (size_t i = 0; i < sizeof J / sizeof J[0]; i++) {
        fprintf(f, "    {\"label\": \"%s\", \"circuit\": \"%s\", \"priority\": \"%s\", "
                   "\"submit_at_ms\": %d,\n     \"witnesses\": ", J[i].label, J[i].circuit,
                J[i].prio, J[i].at_ms);
        fprintf(f, w4, J[i].circuit, J[i].circuit, J[i].circuit, J[i].circuit);
        fprintf(f, "}%s\n", i + 1 < sizeof J / sizeof J[0] ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    if (fclose(f) != 0) {
        report("engine: write jobs.json", false, 0);
        return;
    }
    printf("  %s: 7 jobs x 4 partitions; LOW and NORMAL at t=0, HIGH at 150 ms, CRITICAL at "
           "300 ms\n", jobs);
    char *batch[] = {"batch", "--out", out, jobs, NULL};
    run_cmd(czk_cli_batch, batch, "engine: czk batch, every proof verified");
}

int czk_cli_demo(int argc, char **argv)
{
    const char *vectors = "tests/vectors/groth16", *dir = NULL;
    char defdir[4096];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--vectors") && i + 1 < argc) {
            vectors = argv[++i];
        } else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
            dir = argv[++i];
        } else {
            fprintf(stderr, "usage: czk demo [--dir DIR] [--vectors DIR]\n");
            return 2;
        }
    }
    if (!dir) {
        const char *tmp = getenv("TMPDIR");
        snprintf(defdir, sizeof defdir, "%s/czk-demo", tmp && tmp[0] == '/' ? tmp : "/tmp");
        dir = defdir;
    }
    if (!czk_cli_make_dirs(dir)) {
        fprintf(stderr, "czk demo: cannot create '%s'\n", dir);
        return 2;
    }
    printf("czk %s demo (files in %s)\n1. arithmetic\nfields\n", czk_version(), dir);
    check_fp_bn254();
    check_fr_bn254();
    check_fp_bls12_381();
    check_fr_bls12_381();
    printf("groups\n");
    check_g1_bn254();
    check_g2_bn254();
    check_g1_bls12_381();
    check_g2_bls12_381();
    printf("pairings\n");
    check_pairing_bn254();
    check_pairing_bls12_381();
    printf("snarkjs proofs in %s\n", vectors);
    int before = n_ok + n_fail;
    verify_bundled(vectors);
    if (n_ok + n_fail == before)
        printf("  (none found)\n");
    printf("2. prover\n");
    bool circuits = demo_prover(dir, "bn254");
    circuits &= demo_prover(dir, "bls12_381");
    printf("3. engine\n");
    if (circuits)
        demo_engine(dir);
    else
        printf("  skipped: the circuits could not be made\n");
    printf("demo: %d passed, %d failed\n", n_ok, n_fail);
    return n_fail ? 1 : 0;
}
