/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk demo`: a self-check of the arithmetic of both curves on fresh random inputs
 * (fields, groups, encodings, pairing bilinearity), followed by `czk verify` on the
 * snarkjs proofs bundled in tests/vectors/groth16/<curve>/<circuit>/. Prints one line
 * per check and a closing summary; exits 0 only if every check passed. Randomness comes
 * from getrandom(2), so each run exercises new values.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cli/cli.h"
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

int czk_cli_demo(int argc, char **argv)
{
    const char *vectors = "tests/vectors/groth16";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--vectors") && i + 1 < argc) {
            vectors = argv[++i];
        } else {
            fprintf(stderr, "usage: czk demo [--vectors DIR]\n");
            return 2;
        }
    }
    printf("czk %s demo\nfields\n", czk_version());
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
    printf("demo: %d passed, %d failed\n", n_ok, n_fail);
    return n_fail ? 1 : 0;
}
