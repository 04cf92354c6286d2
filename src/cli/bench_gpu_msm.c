/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk bench msm` and `czk bench field`.
 *
 *   czk bench msm   [--backend cuda|cpu] [--curve bn254|bls12_381] [--group 1|2] [--log-n K]
 *                   [--reps R] [--acc auto|xyzz|affine|tree] [--compare-cpu]
 *   czk bench field [--curve bn254|bls12_381] [--reps R]
 *
 * msm: bases P_i = (i + 1)·G (made on the GPU for cuda: running sums of the generator; on the
 * host for cpu), random scalars < r. cuda time: CUDA events around each czk_cuda_msm call (bases
 * and scalars already on the device, scratch preallocated), median of R after one warm-up
 * call; cpu time: the monotonic clock around czk_cpu_msm on every core. Printed: median ms,
 * the window plan (width c, windows, entries per accumulation thread, accumulation passes,
 * points with a general scalar / with scalar 1), the scratch bytes. --acc forces the bucket
 * accumulation (XYZZ, batch-affine lanes or tree; default: by size) of the cuda runs. --compare-cpu also runs
 * both backends at 2^20 on the same host-made bases and scalars, checks that the results are
 * equal and prints the ratio.
 * field: Montgomery multiplications/s of the device code shapes of src/cuda/ff.cuh (mul: CIOS on
 * PTX carry chains; mul_wide: 64-bit products, IMAD.WIDE) for Fp and Fr, next to the IMAD rate
 * measured in the same run and the bound it gives each shape (mul: 2N^2 IMAD.LO + 2N^2 IMAD.HI
 * at half rate = 6N^2 IMAD slots for N 32-bit limbs; mul_wide: 2N^2 IMAD.WIDE at half rate).
 * One logfmt line per measurement (`bench: ...`), a short table last.
 * Exit status: 0 done, 1 a run failed, 2 usage error or no CUDA in this build.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend_impl.h"
#include "cli/cli.h"
#include "czk/czk_ec.h"
#include "czk/czk_ff.h"
#ifdef CZK_USE_CUDA
#include "cuda/field_bench.h"
#include "cuda/msm_cuda.h"
#endif

struct mopts {
    const char *backend;
    enum czk_groth16_curve curve;
    unsigned group, lg, reps;
    bool compare;
    unsigned acc; /* CZK_MSM_ACC_* or 0: automatic */
};

#ifdef CZK_USE_CUDA
static const char *acc_name(unsigned acc)
{
    return acc == CZK_MSM_ACC_AFFINE ? "affine" : acc == CZK_MSM_ACC_TREE ? "tree" : "xyzz";
}
#endif

static int parse_curve(const char *v, enum czk_groth16_curve *c)
{
    if (!strcmp(v, "bn254"))
        *c = CZK_GROTH16_CURVE_BN254;
    else if (!strcmp(v, "bls12_381") || !strcmp(v, "bls12-381"))
        *c = CZK_GROTH16_CURVE_BLS12_381;
    else {
        fprintf(stderr, "czk bench: --curve: '%s' is not bn254 or bls12_381\n", v);
        return 2;
    }
    return 0;
}

static int parse_uint(const char *what, const char *v, unsigned long lo, unsigned long hi, unsigned *out)
{
    char *e;
    unsigned long k = strtoul(v, &e, 10);
    if (!*v || *e || k < lo || k > hi) {
        fprintf(stderr, "czk bench: %s: '%s' is not in %lu..%lu\n", what, v, lo, hi);
        return 2;
    }
    *out = (unsigned)k;
    return 0;
}

static unsigned host_threads(void)
{
    long t = sysconf(_SC_NPROCESSORS_ONLN);
    return t > 0 ? (unsigned)t : 1;
}

/* uniform-enough random scalars < r */
static void host_scalars(enum czk_groth16_curve c, uint64_t (*v)[4], size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    const uint64_t *r = c == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_modulus() : czk_fr_bls12_381_modulus();
    for (size_t i = 0; i < n; i++) {
        for (int l = 0; l < 4; l++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            v[i][l] = s;
        }
        v[i][3] %= r[3];
    }
}

/* host bases P_i = (i + 1)·G and affine conversion of a Jacobian result, per group */
#define HOST_GROUP(G, F)                                                                           \
    static int G##_bases(void *out, size_t n)                                                      \
    {                                                                                              \
        struct czk_##G##_affine g;                                                                 \
        struct czk_##G cur, *tmp = malloc(n * sizeof *tmp);                                        \
        struct czk_##F *scr = malloc(n * sizeof *scr);                                             \
        if (!tmp || !scr) {                                                                        \
            free(tmp);                                                                             \
            free(scr);                                                                             \
            return 1;                                                                              \
        }                                                                                          \
        czk_##G##_generator(&g);                                                                   \
        czk_##G##_from_affine(&cur, &g);                                                           \
        for (size_t i = 0; i < n; i++) {                                                           \
            tmp[i] = cur;                                                                          \
            czk_##G##_add_affine(&cur, &cur, &g);                                                  \
        }                                                                                          \
        czk_##G##_batch_to_affine(out, tmp, n, scr);                                               \
        free(tmp);                                                                                 \
        free(scr);                                                                                 \
        return 0;                                                                                  \
    }                                                                                              \
    static void G##_aff(void *aff, const void *jac) { czk_##G##_to_affine(aff, jac); }
HOST_GROUP(g1_bn254, fp_bn254)
HOST_GROUP(g2_bn254, fp2_bn254)
HOST_GROUP(g1_bls12_381, fp_bls12_381)
HOST_GROUP(g2_bls12_381, fp2_bls12_381)

struct hgroup {
    size_t aff_bytes;
    int (*bases)(void *out, size_t n);
    void (*aff)(void *aff, const void *jac);
};

static struct hgroup hgroup_of(enum czk_groth16_curve c, unsigned group)
{
    struct hgroup h;
    if (c == CZK_GROTH16_CURVE_BN254) {
        h.aff_bytes = group == 1 ? sizeof(struct czk_g1_bn254_affine) : sizeof(struct czk_g2_bn254_affine);
        h.bases = group == 1 ? g1_bn254_bases : g2_bn254_bases;
        h.aff = group == 1 ? g1_bn254_aff : g2_bn254_aff;
    } else {
        h.aff_bytes =
            group == 1 ? sizeof(struct czk_g1_bls12_381_affine) : sizeof(struct czk_g2_bls12_381_affine);
        h.bases = group == 1 ? g1_bls12_381_bases : g2_bls12_381_bases;
        h.aff = group == 1 ? g1_bls12_381_aff : g2_bls12_381_aff;
    }
    return h;
}

/* CPU backend MSM: median ms over reps (after one warm-up), result in out */
static int cpu_msm(const struct mopts *o, const void *bases, const uint64_t (*sc)[4], size_t n, void *out,
                   double *med)
{
    double *ms = calloc(o->reps, sizeof *ms);
    if (!ms)
        return 1;
    for (unsigned r = 0; r <= o->reps; r++) {
        double t0 = czk_cli_now_ms();
        enum czk_status st = czk_cpu_msm(o->curve, o->group, bases, sc, n, out, host_threads());
        if (st != CZK_OK) {
            fprintf(stderr, "czk bench msm: cpu: %s\n", czk_status_str(st));
            free(ms);
            return 1;
        }
        if (r)
            ms[r - 1] = czk_cli_now_ms() - t0;
    }
    *med = czk_cli_median(ms, o->reps);
    free(ms);
    return 0;
}

int czk_bench_msm(int argc, char **argv)
{
    struct mopts o = {"cuda", CZK_GROTH16_CURVE_BLS12_381, 1, 20, 5, false, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: czk bench msm [--backend cuda|cpu] [--curve bn254|bls12_381] [--group 1|2] "
                   "[--log-n K] [--reps R] [--acc auto|xyzz|affine|tree] [--compare-cpu]\n");
            return 0;
        } else if (!strcmp(a, "--backend") && v) {
            o.backend = v, i++;
        } else if (!strcmp(a, "--curve") && v) {
            rc = parse_curve(v, &o.curve), i++;
        } else if (!strcmp(a, "--group") && v) {
            rc = parse_uint("--group", v, 1, 2, &o.group), i++;
        } else if (!strcmp(a, "--log-n") && v) {
            rc = parse_uint("--log-n", v, 0, 28, &o.lg), i++;
        } else if (!strcmp(a, "--reps") && v) {
            rc = parse_uint("--reps", v, 1, 1000, &o.reps), i++;
        } else if (!strcmp(a, "--compare-cpu")) {
            o.compare = true;
        } else if (!strcmp(a, "--acc") && v) {
            if (!strcmp(v, "auto"))
                o.acc = 0;
            else if (!strcmp(v, "xyzz"))
                o.acc = 1;
            else if (!strcmp(v, "affine"))
                o.acc = 2;
            else if (!strcmp(v, "tree"))
                o.acc = 3;
            else {
                fprintf(stderr, "czk bench msm: --acc: '%s' is not auto, xyzz, affine or tree\n", v);
                return 2;
            }
            i++;
        } else {
            fprintf(stderr, "czk bench msm: unknown or incomplete option '%s'\n", a);
            return 2;
        }
        if (rc)
            return rc;
    }
    if (strcmp(o.backend, "cpu") && strcmp(o.backend, "cuda")) {
        fprintf(stderr, "czk bench msm: --backend: '%s' is not cpu or cuda\n", o.backend);
        return 2;
    }
    bool gpu = !strcmp(o.backend, "cuda");
#ifndef CZK_USE_CUDA
    if (gpu) {
        fprintf(stderr, "czk bench msm: --backend cuda: this build of czk is not built with CUDA\n");
        return 2;
    }
#endif
    struct hgroup hg = hgroup_of(o.curve, o.group);
    size_t n = (size_t)1 << o.lg;
    uint64_t(*sc)[4] = malloc(n * sizeof *sc);
    uint8_t out[1024];
    double med = 0;
    int rc = 1;
    void *hb = NULL;
    if (!sc) {
        fprintf(stderr, "czk bench msm: out of host memory\n");
        return 1;
    }
    host_scalars(o.curve, sc, n, 42);
#ifdef CZK_USE_CUDA
    struct czk_cuda_msm_stats stt;
    memset(&stt, 0, sizeof stt);
    double ms_bases = 0;
    size_t scratch = 0;
#endif
    if (gpu) {
#ifdef CZK_USE_CUDA
        char err[256] = "";
        czk_cuda_msm_force_accumulation(o.acc);
        enum czk_status st = czk_cuda_msm_running(o.curve, o.group, (const uint64_t(*)[4])sc, n, out, o.reps + 1,
                                                  &med, &ms_bases, err, sizeof err);
        if (st != CZK_OK) {
            fprintf(stderr, "czk bench msm: cuda: %s (%s)\n", czk_status_str(st), err);
            goto done;
        }
        czk_cuda_msm_last_stats(&stt);
        scratch = stt.scratch;
#endif
    } else {
        hb = malloc(n * hg.aff_bytes);
        if (!hb || hg.bases(hb, n)) {
            fprintf(stderr, "czk bench msm: out of host memory\n");
            goto done;
        }
        if (cpu_msm(&o, hb, (const uint64_t(*)[4])sc, n, out, &med))
            goto done;
    }
    printf("bench: msm curve=%s group=%u lg_n=%u backend=%s reps=%u median_ms=%.3f", czk_cli_curve_id(o.curve), o.group,
           o.lg, o.backend, o.reps, med);
#ifdef CZK_USE_CUDA
    if (gpu)
        printf(" acc=%s lanes=%u c=%u windows=%u chunk=%u levels=%u general=%zu ones=%zu scratch_bytes=%zu "
               "bases_ms=%.1f",
               acc_name(stt.acc), stt.lanes, stt.c, stt.windows, stt.chunk,
               stt.levels, stt.n_general, stt.n_ones, scratch, ms_bases);
    if (gpu)
        printf(" select_ms=%.2f digits_ms=%.2f sort_ms=%.2f accumulate_ms=%.2f reduce_ms=%.2f combine_ms=%.2f",
               stt.stage_ms[0], stt.stage_ms[1], stt.stage_ms[2], stt.stage_ms[3], stt.stage_ms[4],
               stt.stage_ms[5]);
#endif
    printf("\n");

    double cpu20 = 0, gpu20 = 0;
    bool same = true;
    if (o.compare) {
        const size_t n20 = (size_t)1 << 20;
        uint8_t ocpu[1024], ogpu[1024], acpu[512], agpu[512];
        void *b20 = malloc(n20 * hg.aff_bytes);
        uint64_t(*s20)[4] = malloc(n20 * sizeof *s20);
        if (!b20 || !s20 || hg.bases(b20, n20)) {
            free(b20);
            free(s20);
            fprintf(stderr, "czk bench msm: out of host memory\n");
            goto done;
        }
        host_scalars(o.curve, s20, n20, 43);
        int crc = cpu_msm(&o, b20, (const uint64_t(*)[4])s20, n20, ocpu, &cpu20);
#ifdef CZK_USE_CUDA
        if (!crc && gpu) {
            char err[256] = "";
            enum czk_status st = czk_cuda_msm_host(o.curve, o.group, b20, (const uint64_t(*)[4])s20, n20, ogpu,
                                                   o.reps + 1, &gpu20, err, sizeof err);
            if (st != CZK_OK) {
                fprintf(stderr, "czk bench msm: cuda 2^20: %s (%s)\n", czk_status_str(st), err);
                crc = 1;
            } else {
                memset(acpu, 0, sizeof acpu);
                memset(agpu, 0xff, sizeof agpu);
                hg.aff(acpu, ocpu);
                hg.aff(agpu, ogpu);
                same = memcmp(acpu, agpu, hg.aff_bytes) == 0;
            }
        }
#else
        (void)ogpu;
        (void)acpu;
        (void)agpu;
#endif
        free(b20);
        free(s20);
        if (crc)
            goto done;
        printf("bench: msm-compare curve=%s group=%u lg_n=20 cpu_median_ms=%.3f cpu_threads=%u", czk_cli_curve_id(o.curve),
               o.group, cpu20, host_threads());
        if (gpu)
            printf(" cuda_median_ms=%.3f ratio=%.1f equal=%s", gpu20, gpu20 > 0 ? cpu20 / gpu20 : 0,
                   same ? "yes" : "NO");
        printf("\n");
    }
    printf("\n| MSM %s G%u 2^%u | %s |\n|---|---|\n", czk_cli_curve_id(o.curve), o.group, o.lg, o.backend);
    printf("| median ms | %.3f |\n", med);
#ifdef CZK_USE_CUDA
    if (gpu) {
        printf("| plan | %s, c=%u, %u windows, %u entries/%s, %u passes |\n| scratch | %.2f GB |\n",
               acc_name(stt.acc), stt.c, stt.windows, stt.chunk,
               stt.acc == CZK_MSM_ACC_AFFINE ? "lane" : stt.acc == CZK_MSM_ACC_TREE ? "inversion" : "thread",
               stt.levels, (double)scratch / 1e9);
        printf("| stages ms (last run): select, digits, sort, accumulate, reduce, combine | %.2f, %.2f, %.2f, "
               "%.2f, %.2f, %.2f |\n",
               stt.stage_ms[0], stt.stage_ms[1], stt.stage_ms[2], stt.stage_ms[3], stt.stage_ms[4],
               stt.stage_ms[5]);
    }
#endif
    if (o.compare && gpu)
        printf("| 2^20: cpu ms / gpu ms | %.2f / %.3f = %.1fx (%s) |\n", cpu20, gpu20,
               gpu20 > 0 ? cpu20 / gpu20 : 0, same ? "equal" : "DIFFERENT");
    else if (o.compare)
        printf("| 2^20 cpu ms | %.2f |\n", cpu20);
    rc = same ? 0 : 1;
done:
    free(hb);
    free(sc);
    return rc;
}

int czk_bench_field(int argc, char **argv)
{
    enum czk_groth16_curve curve = CZK_GROTH16_CURVE_BLS12_381;
    unsigned reps = 9;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: czk bench field [--curve bn254|bls12_381] [--reps R]\n");
            return 0;
        } else if (!strcmp(a, "--curve") && v) {
            rc = parse_curve(v, &curve), i++;
        } else if (!strcmp(a, "--reps") && v) {
            rc = parse_uint("--reps", v, 1, 64, &reps), i++;
        } else {
            fprintf(stderr, "czk bench field: unknown or incomplete option '%s'\n", a);
            return 2;
        }
        if (rc)
            return rc;
    }
#ifndef CZK_USE_CUDA
    (void)curve;
    (void)reps;
    fprintf(stderr, "czk bench field: this build of czk is not built with CUDA\n");
    return 2;
#else
    char err[256] = "";
    double imad = 0;
    enum czk_status st = czk_cuda_bench_imad(reps, &imad, err, sizeof err);
    if (st != CZK_OK) {
        fprintf(stderr, "czk bench field: imad: %s (%s)\n", czk_status_str(st), err);
        return 1;
    }
    printf("bench: imad tera_per_s=%.3f\n", imad);
    double dfma = 0;
    st = czk_cuda_bench_dfma(reps, &dfma, err, sizeof err);
    if (st != CZK_OK) {
        fprintf(stderr, "czk bench field: dfma: %s (%s)\n", czk_status_str(st), err);
        return 1;
    }
    printf("bench: dfma tera_per_s=%.3f\n", dfma);
    bool bn = curve == CZK_GROTH16_CURVE_BN254;
    enum { NV = 4 };
    struct {
        const char *name;
        enum czk_cuda_field f;
        unsigned limbs;
        const char *shape[NV];
    } fl[3] = {{"fp", bn ? CZK_CUDA_FP_BN254 : CZK_CUDA_FP_BLS12_381, bn ? 8u : 12u,
                {"mul (carry chains)", "mul_wide (IMAD.WIDE)", "mul_dfma (DFMA + IADD3)",
                 "sqr (cross products once, redc)"}},
               {"fr", bn ? CZK_CUDA_FR_BN254 : CZK_CUDA_FR_BLS12_381, 8u,
                {"mul (carry chains)", "mul_wide (IMAD.WIDE)", "mul_dfma (DFMA + IADD3)",
                 "sqr (cross products once, redc)"}},
               {"fp2", bn ? CZK_CUDA_FP2_BN254 : CZK_CUDA_FP2_BLS12_381, bn ? 8u : 12u,
                {"mul (lazy reduction)", "mul_karatsuba (3 reductions)", NULL, NULL}}};
    double g[3][NV] = {{0}}, bound[3][NV];
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < NV && fl[k].shape[v]; v++) {
            st = czk_cuda_bench_field(fl[k].f, v, reps, &g[k][v], err, sizeof err);
            if (st != CZK_OK) {
                fprintf(stderr, "czk bench field: %s: %s (%s)\n", fl[k].name, czk_status_str(st), err);
                return 1;
            }
            /* Slot models. IMAD: a prime-field mul 6 N^2 (carry chains) or 4 N^2 (wide) slots; an
             * Fp2 mul three N x N products and two (mul, lazy) or three (mul_karatsuba) reductions of 3 N^2
             * each. DFMA: 8 x 8 limbs, 2 x 64 + 8 splits of two DFMAs and one DADD per product
             * (the integer sums co-issue and are not counted); not benched for Fp2. A squaring:
             * N (N + 1) / 2 products (3 slots each) plus the reduction's 3 N^2. */
            double nn = (double)fl[k].limbs * fl[k].limbs, slots;
            if (v == 3)
                slots = 1.5 * fl[k].limbs * (fl[k].limbs + 1) + 3 * nn;
            else if (v == 2)
                slots = 3.0 * (2 * 64 + 8);
            else
                slots = k < 2 ? (v == 0 ? 6 * nn : 4 * nn) : (v == 0 ? 15 * nn : 18 * nn);
            bound[k][v] = (v == 2 ? dfma : imad) * 1e3 / slots;
            printf("bench: field curve=%s field=%s variant=%.*s gmul_per_s=%.2f bound_gmul_per_s=%.2f "
                   "of_bound=%.0f%%\n", /* the variant is the shape's first word */
                   czk_cli_curve_id(curve), fl[k].name, (int)strcspn(fl[k].shape[v], " "), fl[k].shape[v],
                   g[k][v], bound[k][v],
                   100 * g[k][v] / bound[k][v]);
        }
    printf("\n| %s field mul | G/s | bound G/s (IMAD or DFMA model) | of bound |\n|---|---|---|---|\n",
           czk_cli_curve_id(curve));
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < NV && fl[k].shape[v]; v++)
            printf("| %s %s | %.2f | %.2f | %.0f%% |\n", fl[k].name, fl[k].shape[v], g[k][v], bound[k][v],
                   100 * g[k][v] / bound[k][v]);
    printf("| DFMA rate | %.2f T/s |\n", dfma);
    printf("| IMAD rate | %.2f T/s |\n", imad);
    return 0;
#endif
}
