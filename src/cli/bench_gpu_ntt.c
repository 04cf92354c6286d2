/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk bench ntt` and `czk bench eval`: NTT and sparse-evaluation throughput on a backend.
 *
 *   czk bench ntt  [--backend cpu|cuda] [--curve bn254|bls12_381] [--log-n K] [--reps R]
 *                  [--coset] [--inverse] [--compare-cpu]
 *   czk bench eval [--backend cpu|cuda] [--curve C] [--rows N] [--reps R] [--bool-frac F]
 *                  [--compare-cpu]
 *
 * Inputs are on the device (made there for cuda: random elements, and for eval a
 * PoRep-shaped pair of matrices: 2.37 terms per row in A, 1 in B, 328 public columns, a
 * witness with a share F of 0/1 values); GPU time comes from CUDA events around each
 * repetition after one warm-up, CPU time from the monotonic clock. Printed: median and min
 * ms, the achieved Fr multiplications/s (NTT: (n/2)(lg n - 1) butterflies plus the coset
 * and scale factors; eval: one per nonzero plus one per row) and GB/s (NTT: the global
 * passes' reads and writes; eval: every input read once, every output written once), next
 * to the ceilings measured in the same run on the same device: the device-to-device copy
 * rate and the Fr multiply rate of a simple independent-chains kernel. --compare-cpu also
 * times the CPU backend at 2^20 (NTT) / 2^20 rows (eval) and prints the ratio.
 * One logfmt line per measurement (`bench: ntt ...`), a short table last.
 * Exit status: 0 done, 1 a run failed, 2 usage error.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend_impl.h"
#include "cli/cli.h"
#include "czk/czk_backend.h"
#include "io/formats.h"
#include "ntt/ntt_snarkjs.h"
#ifdef CZK_USE_CUDA
#include "cuda/cuda_bench.h"
#endif

struct opts {
    const char *backend;
    enum czk_groth16_curve curve;
    unsigned lg, reps;
    uint32_t rows;
    double bool_frac;
    bool coset, inverse, compare;
};

static int parse(int argc, char **argv, struct opts *o, bool eval)
{
    o->backend = "cuda";
    o->curve = CZK_GROTH16_CURVE_BLS12_381;
    o->lg = 20;
    o->reps = 10;
    o->rows = 1u << 20;
    o->bool_frac = 0.9;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: czk bench %s [--backend cpu|cuda] [--curve bn254|bls12_381] %s "
                   "[--reps R] %s[--compare-cpu]\n",
                   eval ? "eval" : "ntt", eval ? "[--rows N] [--bool-frac F]" : "[--log-n K]",
                   eval ? "" : "[--coset] [--inverse] ");
            return 0;
        } else if (!strcmp(a, "--backend") && v) {
            o->backend = v, i++;
        } else if (!strcmp(a, "--curve") && v) {
            if (!strcmp(v, "bn254"))
                o->curve = CZK_GROTH16_CURVE_BN254;
            else if (!strcmp(v, "bls12_381") || !strcmp(v, "bls12-381"))
                o->curve = CZK_GROTH16_CURVE_BLS12_381;
            else {
                fprintf(stderr, "czk bench: --curve: '%s' is not bn254 or bls12_381\n", v);
                return 2;
            }
            i++;
        } else if (!eval && !strcmp(a, "--log-n") && v) {
            char *e;
            unsigned long k = strtoul(v, &e, 10);
            if (*e || k < 1 || k > 28) {
                fprintf(stderr, "czk bench ntt: --log-n: '%s' is not in 1..28\n", v);
                return 2;
            }
            o->lg = (unsigned)k, i++;
        } else if (eval && !strcmp(a, "--rows") && v) {
            char *e;
            unsigned long long k = strtoull(v, &e, 10);
            if (*e || k < 1 || k > 1ull << 31) {
                fprintf(stderr, "czk bench eval: --rows: '%s' is not in 1..2^31\n", v);
                return 2;
            }
            o->rows = (uint32_t)k, i++;
        } else if (eval && !strcmp(a, "--bool-frac") && v) {
            char *e;
            double f = strtod(v, &e);
            if (*e || !(f >= 0 && f <= 1)) {
                fprintf(stderr, "czk bench eval: --bool-frac: '%s' is not in [0, 1]\n", v);
                return 2;
            }
            o->bool_frac = f, i++;
        } else if (!strcmp(a, "--reps") && v) {
            char *e;
            unsigned long k = strtoul(v, &e, 10);
            if (*e || k < 1 || k > 1000) {
                fprintf(stderr, "czk bench: --reps: '%s' is not in 1..1000\n", v);
                return 2;
            }
            o->reps = (unsigned)k, i++;
        } else if (!eval && !strcmp(a, "--coset")) {
            o->coset = true;
        } else if (!eval && !strcmp(a, "--inverse")) {
            o->inverse = true;
        } else if (!strcmp(a, "--compare-cpu")) {
            o->compare = true;
        } else {
            fprintf(stderr, "czk bench %s: unknown or incomplete option '%s'\n",
                    eval ? "eval" : "ntt", a);
            return 2;
        }
    }
    if (strcmp(o->backend, "cpu") && strcmp(o->backend, "cuda")) {
        fprintf(stderr, "czk bench: --backend: '%s' is not cpu or cuda\n", o->backend);
        return 2;
    }
    return -1;
}

/* nominal multiplies of one NTT: butterflies of stages 1.. plus the factors */
static double ntt_muls(unsigned lg, bool inverse, bool coset)
{
    double n = (double)(1ull << lg);
    return n / 2 * (lg - 1) + (coset ? 2 * n : inverse ? n : 0);
}

static unsigned ntt_passes(unsigned lg)
{
    if (lg <= 11)
        return 1;
    unsigned p = 1;
    while (11 + 9 * (p - 1) < lg)
        p++;
    return p + 1; /* + the bit-reversal pass */
}

/* uniform-enough random Fr values < r on the host */
static void host_random(enum czk_groth16_curve c, uint64_t (*v)[4], size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    const uint64_t *r = c == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_modulus()
                                                     : czk_fr_bls12_381_modulus();
    for (size_t i = 0; i < n; i++) {
        for (int l = 0; l < 4; l++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            v[i][l] = s;
        }
        v[i][3] %= r[3]; /* < r since the top limb is below r's */
    }
}

/* CPU NTT median over reps (host buffers through the CPU backend) */
static int cpu_ntt(const struct opts *o, unsigned lg, double *med, double *mn)
{
    char err[256] = "";
    czk_backend_t be = NULL;
    if (czk_backend_init_by_name(&be, "cpu", 0, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk bench ntt: %s\n", err);
        return 1;
    }
    size_t n = (size_t)1 << lg;
    czk_buf_t b = NULL;
    double *ms = calloc(o->reps, sizeof *ms);
    if (!ms || czk_buf_alloc(czk_backend_get_device(be), n * 32, &b) != CZK_OK) {
        fprintf(stderr, "czk bench ntt: out of memory\n");
        free(ms);
        czk_backend_free(be);
        return 1;
    }
    host_random(o->curve, czk_buf_host_ptr(b), n, 7);
    uint64_t shift[4];
    czk_ntt_snarkjs_shift(o->curve, lg, shift);
    enum czk_backend_dir dir = o->inverse ? CZK_BACKEND_INVERSE : CZK_BACKEND_FORWARD;
    int rc = 0;
    for (unsigned r = 0; r <= o->reps; r++) {
        double t0 = czk_cli_now_ms();
        if (czk_backend_ntt(be, o->curve, b, lg, dir, CZK_NTT_SNARKJS, o->coset ? shift : NULL) !=
            CZK_OK) {
            rc = 1;
            break;
        }
        if (r)
            ms[r - 1] = czk_cli_now_ms() - t0;
    }
    if (!rc) {
        *med = czk_cli_median(ms, o->reps);
        *mn = ms[0];
    }
    czk_buf_free(b);
    czk_backend_free(be);
    free(ms);
    return rc;
}

#ifdef CZK_USE_CUDA
static int gpu_ntt(const struct opts *o, czk_backend_t be, unsigned lg, double *med, double *mn)
{
    size_t n = (size_t)1 << lg;
    czk_buf_t b = NULL;
    double *ms = calloc(o->reps, sizeof *ms), muls = 0;
    if (!ms || czk_buf_alloc(czk_backend_get_device(be), n * 32, &b) != CZK_OK) {
        fprintf(stderr, "czk bench ntt: cannot allocate 2^%u elements on the device\n", lg);
        free(ms);
        return 1;
    }
    uint64_t shift[4];
    czk_ntt_snarkjs_shift(o->curve, lg, shift);
    enum czk_backend_dir dir = o->inverse ? CZK_BACKEND_INVERSE : CZK_BACKEND_FORWARD;
    enum czk_status st = czk_cuda_fill_random(be, o->curve, b, n, 11);
    if (st == CZK_OK)
        st = czk_cuda_bench_ntt(be, o->curve, b, lg, dir, CZK_NTT_SNARKJS,
                                o->coset ? shift : NULL, o->reps, ms, &muls);
    if (st == CZK_OK) {
        *med = czk_cli_median(ms, o->reps);
        *mn = ms[0];
    } else {
        fprintf(stderr, "czk bench ntt: %s\n", czk_status_str(st));
    }
    czk_buf_free(b);
    free(ms);
    return st == CZK_OK ? 0 : 1;
}
#endif

int czk_bench_ntt(int argc, char **argv)
{
    struct opts o;
    memset(&o, 0, sizeof o);
    int pr = parse(argc, argv, &o, false);
    if (pr >= 0)
        return pr;
    double muls = ntt_muls(o.lg, o.inverse, o.coset);
    double bytes = (double)ntt_passes(o.lg) * 2 * 32 * (double)(1ull << o.lg);
    const char *variant = o.coset ? (o.inverse ? "inverse-coset" : "forward-coset")
                                  : (o.inverse ? "inverse" : "forward");
    double med = 0, mn = 0, cpu_med = 0, cpu_mn = 0, gpu20 = 0;
    double copy_gbps = 0, mul_rate = 0;
    const char *dev = "cpu";
    if (!strcmp(o.backend, "cpu")) {
        if (cpu_ntt(&o, o.lg, &med, &mn))
            return 1;
    } else {
#ifdef CZK_USE_CUDA
        char err[256] = "";
        czk_backend_t be = NULL;
        if (czk_backend_init_by_name(&be, "cuda", 0, err, sizeof err) != CZK_OK) {
            fprintf(stderr, "czk bench ntt: %s\n", err);
            return 1;
        }
        double m20 = 0;
        dev = czk_backend_name(be);
        if (czk_cuda_bench_copy(be, (size_t)2 << 30, &copy_gbps) != CZK_OK ||
            czk_cuda_bench_fr_mul(be, o.curve, &mul_rate) != CZK_OK ||
            gpu_ntt(&o, be, o.lg, &med, &mn) ||
            (o.compare && gpu_ntt(&o, be, 20, &gpu20, &m20))) {
            czk_backend_free(be);
            return 1;
        }
        czk_backend_free(be);
#else
        fprintf(stderr, "czk bench ntt: this build of czk has no CUDA backend\n");
        return 1;
#endif
    }
    if (o.compare && cpu_ntt(&o, 20, &cpu_med, &cpu_mn))
        return 1;
    double rate = muls / (med * 1e-3), gbps = bytes / (med * 1e-3) / 1e9;
    printf("bench: ntt curve=%s lg_n=%u variant=%s backend=%s reps=%u median_ms=%.3f min_ms=%.3f "
           "fr_mul_per_s=%.4g gbps=%.1f\n",
           czk_cli_curve_id(o.curve), o.lg, variant, dev, o.reps, med, mn, rate, gbps);
    if (mul_rate > 0)
        printf("bench: ceiling device=%s fr_mul_per_s=%.4g copy_gbps=%.1f\n", dev, mul_rate,
               copy_gbps);
    if (o.compare)
        printf("bench: ntt-compare lg_n=20 cpu_median_ms=%.3f %s_median_ms=%.3f ratio=%.1f\n",
               cpu_med, dev, strcmp(dev, "cpu") ? gpu20 : cpu_med,
               strcmp(dev, "cpu") && gpu20 > 0 ? cpu_med / gpu20 : 1.0);
    printf("\n| NTT %s 2^%u %s | %s |\n|---|---|\n", czk_cli_curve_id(o.curve), o.lg, variant, dev);
    printf("| median ms | %.3f |\n| min ms | %.3f |\n", med, mn);
    printf("| Fr mul/s (nominal %.3g muls) | %.3g |\n", muls, rate);
    if (mul_rate > 0)
        printf("| Fr mul/s ceiling (simple kernel) | %.3g (%.0f%%) |\n", mul_rate,
               100 * rate / mul_rate);
    printf("| GB/s (%u passes) | %.0f |\n", ntt_passes(o.lg), gbps);
    if (copy_gbps > 0)
        printf("| copy GB/s ceiling | %.0f |\n", copy_gbps);
    if (o.compare && strcmp(dev, "cpu"))
        printf("| 2^20: cpu ms / gpu ms | %.3f / %.3f = %.1fx |\n", cpu_med, gpu20,
               gpu20 > 0 ? cpu_med / gpu20 : 0);
    return 0;
}

/* ---- eval ------------------------------------------------------------------------------- */

/* The PoRep shape of cuda/eval.cu, on the host (for the CPU backend). */
static uint64_t porep_rp(uint64_t i)
{
    uint64_t g = i / 100, r = i % 100;
    return g * 237 + (r < 37 ? 3 * r : 111 + 2 * (r - 37));
}

static int host_porep(enum czk_groth16_curve c, uint32_t rows, double bool_frac,
                      struct czk_csr *A, struct czk_csr *B, uint64_t (**w)[4])
{
    const uint32_t pub = 328, ncols = 1 + pub + rows;
    uint64_t nnzA = porep_rp(rows);
    memset(A, 0, sizeof *A);
    memset(B, 0, sizeof *B);
    A->n_rows = B->n_rows = rows;
    A->n_cols = B->n_cols = ncols;
    A->nnz = nnzA;
    B->nnz = rows;
    A->row_ptr = malloc(((size_t)rows + 1) * 8);
    B->row_ptr = malloc(((size_t)rows + 1) * 8);
    A->col = malloc(nnzA * 4);
    B->col = malloc((size_t)rows * 4);
    A->val = malloc(nnzA * 32);
    B->val = malloc((size_t)rows * 32);
    *w = malloc((size_t)ncols * 32);
    if (!A->row_ptr || !B->row_ptr || !A->col || !B->col || !A->val || !B->val || !*w)
        return 1;
    uint64_t s = 0x1234567;
#define NEXT() (s ^= s << 13, s ^= s >> 7, s ^= s << 17, s)
    for (uint64_t i = 0; i <= rows; i++) {
        A->row_ptr[i] = porep_rp(i);
        B->row_ptr[i] = i;
    }
    for (uint64_t i = 0; i < rows; i++) {
        for (uint64_t k = porep_rp(i); k < porep_rp(i + 1); k++) {
            uint64_t h = NEXT();
            A->col[k] = k == porep_rp(i) ? 1 + pub + (uint32_t)i
                        : (h & 7)        ? 1 + pub + (uint32_t)((h >> 8) % rows)
                                         : (uint32_t)((h >> 8) % (1 + pub));
        }
        uint64_t h = NEXT();
        B->col[i] = (h & 3) == 0 ? 1 + pub + (uint32_t)((h >> 8) % rows)
                                 : (uint32_t)((h >> 8) % (1 + pub));
    }
    host_random(c, A->val, nnzA, 3);
    host_random(c, B->val, rows, 5);
    host_random(c, *w, ncols, 9);
    for (uint32_t i = 0; i < ncols; i++) {
        uint64_t h = NEXT();
        if (i == 0 || (i > pub && (double)(h % 1000) < bool_frac * 1000)) {
            memset((*w)[i], 0, 32);
            (*w)[i][0] = i == 0 ? 1 : (h >> 20) & 1;
        }
    }
#undef NEXT
    return 0;
}

static void csr_free(struct czk_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
}

static int cpu_eval(const struct opts *o, uint32_t rows, double *med, double *mn)
{
    struct czk_csr A, B;
    uint64_t(*w)[4] = NULL;
    char err[256] = "";
    czk_backend_t be = NULL;
    int rc = 1;
    double *ms = calloc(o->reps, sizeof *ms);
    czk_buf_t bw = NULL, ba = NULL, bb = NULL, bc = NULL;
    if (!ms || host_porep(o->curve, rows, o->bool_frac, &A, &B, &w)) {
        fprintf(stderr, "czk bench eval: out of memory\n");
        goto out;
    }
    if (czk_backend_init_by_name(&be, "cpu", 0, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk bench eval: %s\n", err);
        goto out;
    }
    czk_device_t d = czk_backend_get_device(be);
    if (czk_buf_from_host(be, w, (size_t)A.n_cols * 32, &bw) != CZK_OK ||
        czk_buf_alloc(d, (size_t)rows * 32, &ba) != CZK_OK ||
        czk_buf_alloc(d, (size_t)rows * 32, &bb) != CZK_OK ||
        czk_buf_alloc(d, (size_t)rows * 32, &bc) != CZK_OK)
        goto out;
    for (unsigned r = 0; r <= o->reps; r++) {
        double t0 = czk_cli_now_ms();
        if (czk_backend_sparse_eval(be, o->curve, &A, &B, bw, ba, bb, bc) != CZK_OK)
            goto out;
        if (r)
            ms[r - 1] = czk_cli_now_ms() - t0;
    }
    *med = czk_cli_median(ms, o->reps);
    *mn = ms[0];
    rc = 0;
out:
    czk_buf_free(bw), czk_buf_free(ba), czk_buf_free(bb), czk_buf_free(bc);
    czk_backend_free(be);
    csr_free(&A);
    csr_free(&B);
    free(w);
    free(ms);
    return rc;
}

#ifdef CZK_USE_CUDA
static int gpu_eval(const struct opts *o, czk_backend_t be, uint32_t rows, double *med,
                    double *mn, double *muls, double *bytes)
{
    double *ms = calloc(o->reps, sizeof *ms);
    if (!ms)
        return 1;
    enum czk_status st =
        czk_cuda_bench_eval(be, o->curve, rows, o->bool_frac, 17, o->reps, ms, muls, bytes);
    if (st == CZK_OK) {
        *med = czk_cli_median(ms, o->reps);
        *mn = ms[0];
    } else {
        fprintf(stderr, "czk bench eval: %s\n", czk_status_str(st));
    }
    free(ms);
    return st == CZK_OK ? 0 : 1;
}
#endif

int czk_bench_eval(int argc, char **argv)
{
    struct opts o;
    memset(&o, 0, sizeof o);
    int pr = parse(argc, argv, &o, true);
    if (pr >= 0)
        return pr;
    uint64_t nnz = porep_rp(o.rows) + o.rows;
    double muls = (double)nnz + o.rows;
    double bytes = (double)(2 * ((uint64_t)o.rows + 1) * 8 + nnz * 36 +
                            (1 + 328 + (uint64_t)o.rows) * 32 + 3 * (uint64_t)o.rows * 32);
    double med = 0, mn = 0, cpu_med = 0, cpu_mn = 0, g20 = 0, copy_gbps = 0,
           mul_rate = 0;
    const char *dev = "cpu";
    uint32_t cmp_rows = 1u << 20;
    if (!strcmp(o.backend, "cpu")) {
        if (cpu_eval(&o, o.rows, &med, &mn))
            return 1;
    } else {
#ifdef CZK_USE_CUDA
        char err[256] = "";
        czk_backend_t be = NULL;
        double m2 = 0, b2 = 0, g20mn = 0;
        if (czk_backend_init_by_name(&be, "cuda", 0, err, sizeof err) != CZK_OK) {
            fprintf(stderr, "czk bench eval: %s\n", err);
            return 1;
        }
        dev = czk_backend_name(be);
        if (czk_cuda_bench_copy(be, (size_t)2 << 30, &copy_gbps) != CZK_OK ||
            czk_cuda_bench_fr_mul(be, o.curve, &mul_rate) != CZK_OK ||
            gpu_eval(&o, be, o.rows, &med, &mn, &muls, &bytes) ||
            (o.compare && gpu_eval(&o, be, cmp_rows, &g20, &g20mn, &m2, &b2))) {
            czk_backend_free(be);
            return 1;
        }
        czk_backend_free(be);
#else
        fprintf(stderr, "czk bench eval: this build of czk has no CUDA backend\n");
        return 1;
#endif
    }
    if (o.compare && cpu_eval(&o, cmp_rows, &cpu_med, &cpu_mn))
        return 1;
    double rate = muls / (med * 1e-3), gbps = bytes / (med * 1e-3) / 1e9;
    printf("bench: eval curve=%s rows=%u nnz=%llu backend=%s reps=%u median_ms=%.3f min_ms=%.3f "
           "fr_mul_per_s=%.4g gbps=%.1f\n",
           czk_cli_curve_id(o.curve), o.rows, (unsigned long long)nnz, dev, o.reps, med, mn, rate, gbps);
    if (mul_rate > 0)
        printf("bench: ceiling device=%s fr_mul_per_s=%.4g copy_gbps=%.1f\n", dev, mul_rate,
               copy_gbps);
    if (o.compare)
        printf("bench: eval-compare rows=%u cpu_median_ms=%.3f %s_median_ms=%.3f ratio=%.1f\n",
               cmp_rows, cpu_med, dev, strcmp(dev, "cpu") ? g20 : cpu_med,
               strcmp(dev, "cpu") && g20 > 0 ? cpu_med / g20 : 1.0);
    printf("\n| eval %s %u rows (%llu nnz) | %s |\n|---|---|\n", czk_cli_curve_id(o.curve), o.rows,
           (unsigned long long)nnz, dev);
    printf("| median ms | %.3f |\n| min ms | %.3f |\n", med, mn);
    printf("| Fr mul/s | %.3g |\n", rate);
    if (mul_rate > 0)
        printf("| Fr mul/s ceiling | %.3g (%.0f%%) |\n", mul_rate, 100 * rate / mul_rate);
    printf("| GB/s (%.1f GB min traffic) | %.0f |\n", bytes / 1e9, gbps);
    if (copy_gbps > 0)
        printf("| copy GB/s ceiling | %.0f (%.0f%%) |\n", copy_gbps, 100 * gbps / copy_gbps);
    if (o.compare && strcmp(dev, "cpu"))
        printf("| 2^20 rows: cpu ms / gpu ms | %.3f / %.3f = %.1fx |\n", cpu_med, g20,
               g20 > 0 ? cpu_med / g20 : 0);
    return 0;
}
