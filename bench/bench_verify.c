/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk_bench_verify: time of one Groth16 verification of the bundled snarkjs proofs
 * (tests/vectors/groth16/<curve>/<circuit>), per curve: `verify` = czk_groth16_verify on
 * parsed structs (public-input sum + the 4-pair check: what blst would do for the same
 * work), `verify_json` = parse (with on-curve and subgroup checks of every point) + verify.
 * Median of 21 runs. Usage: czk_bench_verify [vectors-dir] (default: the source tree's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk_groth16.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static char *slurp(const char *dir, const char *name)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(f);
    return b;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define REPS 21

static int bench_dir(const char *root, const char *curve, const char *circuit)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s/%s", root, curve, circuit);
    char *vj = slurp(dir, "verification_key.json"), *pj = slurp(dir, "public.json"),
         *rj = slurp(dir, "proof.json");
    int rc = 1;
    struct czk_groth16_vkey vk = {0};
    struct czk_groth16_public pub = {0};
    struct czk_groth16_proof proof;
    char err[256];
    double t1[REPS], t2[REPS];
    if (!vj || !pj || !rj) {
        fprintf(stderr, "czk_bench_verify: missing vectors in %s\n", dir);
        goto out;
    }
    if (czk_groth16_vkey_parse(&vk, vj, err, sizeof err) != CZK_OK ||
        czk_groth16_public_parse(&pub, vk.curve, pj, err, sizeof err) != CZK_OK ||
        czk_groth16_proof_parse(&proof, vk.curve, rj, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk_bench_verify: %s: %s\n", dir, err);
        goto out;
    }
    for (int i = 0; i < REPS; i++) {
        double t = now_ns();
        enum czk_status s1 = czk_groth16_verify(&vk, &pub, &proof, err, sizeof err);
        t1[i] = now_ns() - t;
        t = now_ns();
        enum czk_status s2 = czk_groth16_verify_json(vj, pj, rj, err, sizeof err);
        t2[i] = now_ns() - t;
        if (s1 != CZK_OK || s2 != CZK_OK) {
            fprintf(stderr, "czk_bench_verify: %s does not verify\n", dir);
            goto out;
        }
    }
    qsort(t1, REPS, sizeof t1[0], cmp_d);
    qsort(t2, REPS, sizeof t2[0], cmp_d);
    printf("bench: verify curve=%s circuit=%s n_public=%u op=verify impl=czk ns=%.0f\n", curve,
           circuit, (unsigned)pub.n, t1[REPS / 2]);
    printf("bench: verify curve=%s circuit=%s n_public=%u op=verify_json impl=czk ns=%.0f\n",
           curve, circuit, (unsigned)pub.n, t2[REPS / 2]);
    rc = 0;
out:
    czk_groth16_vkey_free(&vk);
    czk_groth16_public_free(&pub);
    free(vj);
    free(pj);
    free(rj);
    return rc;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : CZK_BENCH_VECTORS_DIR;
    int rc = 0;
    rc |= bench_dir(root, "bn254", "poly5");
    rc |= bench_dir(root, "bls12_381", "poly5");
    return rc;
}
