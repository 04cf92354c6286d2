/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk bench prove`: end-to-end Groth16 proving time of czk, optionally side by side with
 * rapidsnark and snarkjs on the same files and the same number of threads.
 *
 *   czk bench prove [--curve bn254|bls12_381] [--domain-log K ...] [--shape mul|porep]
 *                   [--runs N] [--threads N] [--backend B] [--compare] [--rapidsnark PATH]
 *                   [--snarkjs PATH] [--workdir DIR] [--keep] [--trust-key]
 *
 * For each domain 2^K the synthetic circuit (`czk gen-circuit`), its dev key
 * (`czk setup --dev`, fixed seed) and the key's vkey.json are made once into
 * WORKDIR/<curve>-<shape>-k<K>/ and reused by later runs (a `ready` marker is written
 * last, so an interrupted generation is redone). Every prover is then run as a child
 * process, the same way for all (fork/exec, wait4): the time is the wall time from
 * fork to the child's exit, after it has written proof.json; the peak RSS is the
 * child's ru_maxrss. Each child is pinned to the first N CPUs the bench may use (when
 * N is fewer) and gets OMP_NUM_THREADS=N, czk gets --threads N: rapidsnark's ffiasm
 * thread pool sizes itself from std::thread::hardware_concurrency() and snarkjs from
 * os.cpus(), which the affinity mask, not their thread count, bounds. After one untimed
 * warm-up run of each prover (page cache; czk records the key's subgroup check in its
 * trust cache, as any repeated `czk prove` of a key does), the provers run round-robin
 * (czk, rapidsnark, snarkjs, czk, ...) `--runs` times; each run writes its own files.
 * After the timed runs every proof is checked with `czk verify` against the key's
 * vkey.json and every public.json against czk's: a failed run, a proof that does not
 * verify or different public signals fail the bench (exit 1).
 * Then one more proof runs in a forked child in-process with the prover's on_stage
 * callback, for the per-stage milliseconds and that proof's peak RSS.
 * --trust-key passes --trust-key to czk (rapidsnark and snarkjs never check the key's
 * points; czk prove checks each key's subgroups once, remembered by its hash, unless told so).
 *
 * Output: a table (size, prover, median ms, min ms, peak RSS MiB, time / czk time) and
 * the stage table on stdout, plus one logfmt line per measurement (`bench: prove ...`).
 * Run outputs (proofs, logs) are deleted at the end unless --keep; the generated inputs
 * stay in the work directory. Exit status: 0 done, 1 a prover or verification failed,
 * 2 usage error or unusable tool path.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/parallel.h"
#include "czk/czk_prover.h"
#include "groth16/gencircuit.h"

#define BP_MAX_SIZES 16
#define BP_MAX_RUNS 1000
#define BP_MAX_THREADS 4096

enum { P_CZK, P_RAPIDSNARK, P_SNARKJS, P_COUNT };
static const char *const prover_names[P_COUNT] = {"czk", "rapidsnark", "snarkjs"};

/* Stages reported by the in-process run, in print order. */
static const char *const stage_names[] = {"load_key", "load_wtns", "synth",  "ntt_a",
                                          "ntt_b",    "ntt_c",     "quotient", "msm_a",
                                          "msm_b1",   "msm_c",     "msm_h",  "msm_b2",
                                          "finish",   "total"};
#define N_STAGES (sizeof stage_names / sizeof stage_names[0])

struct bp_opts {
    enum czk_groth16_curve curve;
    enum czk_gen_shape shape;
    unsigned ks[BP_MAX_SIZES];
    unsigned nks;
    unsigned runs, threads;
    const char *backend;
    bool compare, keep, trust_key;
    const char *rapidsnark, *snarkjs, *workdir;
};

struct bp_tools {
    char self[PATH_MAX];
    char rapidsnark[PATH_MAX]; /* "" = not used */
    char node[PATH_MAX];       /* "" when snarkjs is run directly or not used */
    char snarkjs[PATH_MAX];    /* "" = not used */
    cpu_set_t cpus;            /* the first `threads` CPUs of our affinity mask */
    bool pin;
};

struct bp_result {
    bool used;
    double ms[BP_MAX_RUNS];
    unsigned n;
    long max_rss_kib;
};

struct bp_stages {
    double ms[N_STAGES];
    bool have[N_STAGES];
    long max_rss_kib;
    bool ok;
};

static void bp_usage(FILE *f)
{
    fprintf(f,
            "usage: czk bench prove [--curve bn254|bls12_381] [--domain-log K ...]\n"
            "                       [--shape mul|porep] [--runs N] [--threads N] [--backend B]\n"
            "                       [--compare] [--rapidsnark PATH] [--snarkjs PATH]\n"
            "                       [--workdir DIR] [--keep] [--trust-key]\n"
            "\n"
            "Wall time from process start to proof.json written of `czk prove`, and with\n"
            "--compare of rapidsnark and snarkjs on the same files, threads and CPUs; each\n"
            "prover a child process, round-robin, median and min of --runs runs after one\n"
            "warm-up run each; every proof verified afterwards; then czk's stages. czk\n"
            "runs with its defaults: the warm-up run checks the key's subgroups once and\n"
            "records it in the checked-key cache, later runs skip those checks.\n"
            "  --curve       bn254 (default) or bls12_381\n"
            "  --domain-log  domain exponents K (several: --domain-log 16 18), default 16;\n"
            "                the circuit has 2^K - nPublic - 1 constraints\n"
            "  --shape       mul (default, 2 public signals) or porep (328)\n"
            "  --runs        timed runs per prover, 1..%d (default 5)\n"
            "  --threads     threads per prover, 1..%d (default: the CPUs this process may\n"
            "                use); children are pinned to that many CPUs\n"
            "  --backend     czk's backend: cpu (default), auto or cuda\n"
            "  --compare     also run rapidsnark (BN254 only) and snarkjs, when found\n"
            "  --rapidsnark  the rapidsnark `prover` binary (tools/build_rapidsnark.sh);\n"
            "                default: $CZK_RAPIDSNARK, else `rapidsnark` on PATH\n"
            "  --snarkjs     snarkjs's cli.js (run with node) or a snarkjs executable;\n"
            "                default: node_modules/snarkjs/cli.js here or beside the build\n"
            "  --workdir     where inputs are generated and cached (default\n"
            "                $TMPDIR/czk-bench-prove, else /tmp/czk-bench-prove)\n"
            "  --keep        keep the proofs and logs of the runs\n"
            "  --trust-key   czk proves with --trust-key (no subgroup checks of the key's\n"
            "                points, which rapidsnark and snarkjs never do; czk prove checks\n"
            "                them once per key otherwise, remembered by the key's hash)\n"
            "exit status: 0 done; 1 a prover failed or a proof did not verify; 2 usage error\n",
            BP_MAX_RUNS, BP_MAX_THREADS);
}

static int bp_bad(const char *msg, const char *arg)
{
    fprintf(stderr, "czk bench prove: %s%s%s%s\n", msg, arg ? " '" : "", arg ? arg : "",
            arg ? "'" : "");
    fprintf(stderr, "run 'czk bench prove --help' for usage\n");
    return 2;
}

static bool parse_uint_range(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    if (!s || !*s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *v, unsigned n)
{
    double s[BP_MAX_RUNS];
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double minimum(const double *v, unsigned n)
{
    double m = v[0];
    for (unsigned i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

static bool file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_executable(const char *p) { return file_exists(p) && access(p, X_OK) == 0; }

/* rm -r of a directory this bench created (regular files and subdirectories only). */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char p[PATH_MAX];
            if (snprintf(p, sizeof p, "%s/%s", path, e->d_name) >= (int)sizeof p)
                continue;
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(path);
}

/* First executable `name` on $PATH into out; false if none. */
static bool find_on_path(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t l = colon ? (size_t)(colon - path) : strlen(path);
        if (l > 0 && (size_t)snprintf(out, len, "%.*s/%s", (int)l, path, name) < len &&
            is_executable(out))
            return true;
        path += l + (colon ? 1 : 0);
    }
    return false;
}

/* Whole file as a NUL-terminated string (heap), NULL on failure. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        size_t k = fread(s + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap * 2);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

/* The decimal numbers of a public.json, in order, separated by ',' (heap). Layouts differ
 * between provers (whitespace); the values must not. */
static char *public_values(const char *path)
{
    char *t = read_text(path);
    if (!t)
        return NULL;
    size_t w = 0;
    bool in = false;
    for (size_t i = 0; t[i]; i++) {
        if (t[i] >= '0' && t[i] <= '9') {
            t[w++] = t[i];
            in = true;
        } else if (in) {
            t[w++] = ',';
            in = false;
        }
    }
    t[w] = '\0';
    return t;
}

/* Prints the last lines of a child's log to stderr. */
static void show_log_tail(const char *log)
{
    char *t = read_text(log);
    if (!t)
        return;
    size_t n = strlen(t);
    const char *p = t + (n > 1500 ? n - 1500 : 0);
    fprintf(stderr, "---- %s (end) ----\n%s%s", log, p, n && t[n - 1] != '\n' ? "\n" : "");
    free(t);
}

/*
 * Runs argv[0] (a path) with argv as a child: stdout and stderr to `log`, pinned to the
 * bench's CPUs, OMP_NUM_THREADS set. Wall time from fork to exit into *ms, ru_maxrss
 * (KiB) into *rss_kib. Returns the exit status, or -1 if it could not run or was killed.
 */
static int run_child(const struct bp_tools *t, unsigned threads, char *const argv[],
                     const char *log, double *ms, long *rss_kib)
{
    char omp[32];
    snprintf(omp, sizeof omp, "%u", threads);
    fflush(stdout);
    fflush(stderr);
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "czk bench prove: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        if (t->pin)
            sched_setaffinity(0, sizeof t->cpus, &t->cpus);
        setenv("OMP_NUM_THREADS", omp, 1);
        execv(argv[0], argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    pid_t w;
    do
        w = wait4(pid, &status, 0, &ru);
    while (w < 0 && errno == EINTR);
    double t1 = now_ms();
    if (w < 0)
        return -1;
    if (ms)
        *ms = t1 - t0;
    if (rss_kib)
        *rss_kib = ru.ru_maxrss;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    fprintf(stderr, "czk bench prove: %s killed by signal %d\n", argv[0], WTERMSIG(status));
    return -1;
}

/* Runs a preparation step; on failure prints its log. */
static bool run_step(const struct bp_tools *t, unsigned threads, char *const argv[],
                     const char *log, const char *what)
{
    double ms;
    int rc = run_child(t, threads, argv, log, &ms, NULL);
    if (rc != 0) {
        fprintf(stderr, "czk bench prove: %s failed (exit %d)\n", what, rc);
        show_log_tail(log);
        return false;
    }
    fprintf(stderr, "czk bench prove: %s: %.1f s\n", what, ms / 1e3);
    return true;
}

struct bp_case {
    char dir[PATH_MAX], runs[PATH_MAX];
    char r1cs[PATH_MAX], wtns[PATH_MAX], zkey[PATH_MAX], vkey[PATH_MAX];
};

/* snprintf into a path buffer; false if it did not fit. (A function, so that the
 * fit is checked at run time: the work directory is at most 1024 bytes.) */
static bool pathf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool pathf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < len;
}
#define PATHF(buf, ...) pathf(buf, sizeof buf, __VA_ARGS__)

/* Generates (or finds) the inputs of one size. */
static bool prepare_case(const struct bp_opts *o, const struct bp_tools *t, unsigned k,
                         struct bp_case *c)
{
    const char *curve = o->curve == CZK_GROTH16_CURVE_BN254 ? "bn254" : "bls12_381";
    const char *shape = o->shape == CZK_GEN_SHAPE_MUL ? "mul" : "porep";
    char ready[PATH_MAX], log[PATH_MAX], kbuf[16], tbuf[16], seed[64];
    if (!PATHF(c->dir, "%s/%s-%s-k%u", o->workdir, curve, shape, k) ||
        !PATHF(c->runs, "%s/runs", c->dir) || !PATHF(c->r1cs, "%s/circuit.r1cs", c->dir) ||
        !PATHF(c->wtns, "%s/witness.wtns", c->dir) || !PATHF(c->zkey, "%s/circuit.zkey", c->dir) ||
        !PATHF(c->vkey, "%s/vkey.json", c->dir) || !PATHF(ready, "%s/ready", c->dir) ||
        !PATHF(log, "%s/prepare.log", c->dir)) {
        fprintf(stderr, "czk bench prove: work directory path too long\n");
        return false;
    }
    if (!czk_cli_make_dirs(c->dir) || !czk_cli_make_dirs(c->runs)) {
        fprintf(stderr, "czk bench prove: cannot create '%s': %s\n", c->runs, strerror(errno));
        return false;
    }
    if (file_exists(ready) && file_exists(c->r1cs) && file_exists(c->wtns) &&
        file_exists(c->zkey) && file_exists(c->vkey)) {
        fprintf(stderr, "czk bench prove: reusing %s\n", c->dir);
        return true;
    }
    unlink(ready);
    snprintf(kbuf, sizeof kbuf, "%u", k);
    snprintf(tbuf, sizeof tbuf, "%u", o->threads);
    snprintf(seed, sizeof seed, "czk-bench-prove-%s-%s-k%u", curve, shape, k);
    char *gen[] = {(char *)t->self, "gen-circuit", "--curve", (char *)curve, "--domain-log", kbuf,
                   "--shape", (char *)shape, "--threads", tbuf, "--out", c->dir, NULL};
    char *setup[] = {(char *)t->self, "setup", "--dev", c->r1cs, c->zkey, "--seed", seed,
                     "--threads", tbuf, NULL};
    char *vk[] = {(char *)t->self, "zkey", "export-vkey", c->zkey, c->vkey, NULL};
    char what[64];
    snprintf(what, sizeof what, "gen-circuit 2^%u", k);
    if (!run_step(t, o->threads, gen, log, what))
        return false;
    snprintf(what, sizeof what, "setup --dev 2^%u", k);
    if (!run_step(t, o->threads, setup, log, what))
        return false;
    if (!run_step(t, o->threads, vk, log, "zkey export-vkey"))
        return false;
    FILE *f = fopen(ready, "w");
    if (!f || fclose(f) != 0) {
        fprintf(stderr, "czk bench prove: cannot write '%s'\n", ready);
        return false;
    }
    return true;
}

/* argv of one prover run writing run-specific files; returns false if not built. */
struct bp_argv {
    char *v[16];
    char proof[PATH_MAX], pub[PATH_MAX], log[PATH_MAX], tbuf[16];
};

static void build_argv(const struct bp_opts *o, const struct bp_tools *t, const struct bp_case *c,
                       int p, const char *tag, struct bp_argv *a)
{
    int n = 0;
    PATHF(a->proof, "%s/proof-%s-%s.json", c->runs, prover_names[p], tag);
    PATHF(a->pub, "%s/public-%s-%s.json", c->runs, prover_names[p], tag);
    PATHF(a->log, "%s/log-%s-%s.txt", c->runs, prover_names[p], tag);
    snprintf(a->tbuf, sizeof a->tbuf, "%u", o->threads);
    switch (p) {
    case P_CZK:
        a->v[n++] = (char *)t->self;
        a->v[n++] = "prove";
        a->v[n++] = "--threads";
        a->v[n++] = a->tbuf;
        a->v[n++] = "--backend";
        a->v[n++] = (char *)o->backend;
        if (o->trust_key)
            a->v[n++] = "--trust-key";
        break;
    case P_RAPIDSNARK:
        a->v[n++] = (char *)t->rapidsnark;
        break;
    default:
        if (t->node[0])
            a->v[n++] = (char *)t->node;
        a->v[n++] = (char *)t->snarkjs;
        a->v[n++] = "groth16";
        a->v[n++] = "prove";
        break;
    }
    a->v[n++] = (char *)c->zkey;
    a->v[n++] = (char *)c->wtns;
    a->v[n++] = a->proof;
    a->v[n++] = a->pub;
    a->v[n] = NULL;
}

/* One run of prover p; false if it failed (message printed). */
static bool run_prover(const struct bp_opts *o, const struct bp_tools *t, const struct bp_case *c,
                       int p, const char *tag, double *ms, long *rss)
{
    struct bp_argv a;
    build_argv(o, t, c, p, tag, &a);
    unlink(a.proof);
    unlink(a.pub);
    int rc = run_child(t, o->threads, a.v, a.log, ms, rss);
    if (rc != 0 || !file_exists(a.proof) || !file_exists(a.pub)) {
        fprintf(stderr, "czk bench prove: %s run %s failed (exit %d%s)\n", prover_names[p], tag,
                rc, rc == 0 ? ", no proof written" : "");
        show_log_tail(a.log);
        return false;
    }
    return true;
}

/* Verifies the proof of one run with `czk verify` and compares its public signals with
 * czk's (ref, NULL for czk's own). */
static bool check_run(const struct bp_opts *o, const struct bp_tools *t, const struct bp_case *c,
                      int p, const char *tag, const char *ref_values)
{
    struct bp_argv a;
    char log[PATH_MAX];
    build_argv(o, t, c, p, tag, &a);
    PATHF(log, "%s/verify-%s-%s.txt", c->runs, prover_names[p], tag);
    char *v[] = {(char *)t->self, "verify", (char *)c->vkey, a.pub, a.proof, NULL};
    int rc = run_child(t, o->threads, v, log, NULL, NULL);
    if (rc != 0) {
        fprintf(stderr, "czk bench prove: the %s proof of run %s does not verify (czk verify "
                "exit %d): %s\n", prover_names[p], tag, rc, a.proof);
        show_log_tail(log);
        return false;
    }
    if (ref_values) {
        char *vals = public_values(a.pub);
        bool same = vals && !strcmp(vals, ref_values);
        free(vals);
        if (!same) {
            fprintf(stderr, "czk bench prove: %s public signals of run %s (%s) differ from "
                    "czk's\n", prover_names[p], tag, a.pub);
            return false;
        }
    }
    return true;
}

/* ---- in-process stage breakdown (in a forked child) ---------------------------------- */

struct stage_sink {
    FILE *f;
};

static void stage_cb(void *user, const char *stage, double ms)
{
    struct stage_sink *s = user;
    fprintf(s->f, "%s %.6f\n", stage, ms);
}

static int stage_child(const struct bp_opts *o, const struct bp_case *c, FILE *out)
{
    char err[512];
    czk_prover_key_t key = NULL;
    czk_witness_t w = NULL;
    czk_backend_t be = NULL;
    struct czk_groth16_proof proof;
    struct czk_groth16_public pub;
    struct stage_sink sink = {out};
    int rc = 1;
    double t0 = now_ms();
    /* as `czk prove`: the key checked once (by the warm-up run) and remembered */
    unsigned kflags = o->trust_key ? CZK_PROVER_KEY_TRUST : CZK_PROVER_KEY_REMEMBER;
    if (czk_prover_key_load(&key, c->zkey, kflags, o->threads, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk bench prove: %s: %s\n", c->zkey, err);
        goto out;
    }
    double t1 = now_ms();
    if (czk_witness_load(&w, c->wtns, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk bench prove: %s: %s\n", c->wtns, err);
        goto out;
    }
    double t2 = now_ms();
    fprintf(out, "load_key %.6f\nload_wtns %.6f\n", t1 - t0, t2 - t1);
    if (czk_backend_init_by_name(&be, o->backend, o->threads, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk bench prove: %s\n", err);
        goto out;
    }
    struct czk_prove_opts po = {0};
    po.on_stage = stage_cb;
    po.user = &sink;
    if (czk_prove(key, be, w, &po, &proof, &pub, err, sizeof err) != CZK_OK) {
        fprintf(stderr, "czk bench prove: in-process proof: %s\n", err);
        goto out;
    }
    fprintf(out, "total %.6f\n", now_ms() - t0);
    struct czk_groth16_vkey vk;
    if (czk_prover_key_vkey(key, &vk, err, sizeof err) == CZK_OK) {
        enum czk_status st = czk_groth16_verify(&vk, &pub, &proof, err, sizeof err);
        czk_groth16_vkey_free(&vk);
        if (st == CZK_OK)
            rc = 0;
        else
            fprintf(stderr, "czk bench prove: the in-process proof does not verify: %s\n", err);
    }
    czk_groth16_public_free(&pub);
out:
    czk_backend_free(be);
    czk_witness_free(w);
    czk_prover_key_free(key);
    return rc;
}

static bool run_stages(const struct bp_opts *o, const struct bp_tools *t, const struct bp_case *c,
                       struct bp_stages *s)
{
    int fds[2];
    memset(s, 0, sizeof *s);
    if (pipe(fds) != 0)
        return false;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        if (t->pin)
            sched_setaffinity(0, sizeof t->cpus, &t->cpus);
        FILE *f = fdopen(fds[1], "w");
        int rc = f ? stage_child(o, c, f) : 1;
        if (f)
            fclose(f);
        fflush(stderr);
        _exit(rc);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char name[64];
    double ms;
    while (f && fscanf(f, "%63s %lf", name, &ms) == 2) {
        for (size_t i = 0; i < N_STAGES; i++) {
            if (!strcmp(name, stage_names[i])) {
                s->ms[i] += ms; /* msm_b2 may come from start or finish: once either way */
                s->have[i] = true;
            }
        }
    }
    if (f)
        fclose(f);
    else
        close(fds[0]);
    int status;
    struct rusage ru;
    pid_t w;
    do
        w = wait4(pid, &status, 0, &ru);
    while (w < 0 && errno == EINTR);
    s->ok = w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    s->max_rss_kib = ru.ru_maxrss;
    return s->ok;
}

/* ---- tools --------------------------------------------------------------------------- */

static bool self_dir_file(const char *self, const char *rel, char *out, size_t len)
{
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s", self);
    char *slash = strrchr(d, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return (size_t)snprintf(out, len, "%s/%s", d, rel) < len && file_exists(out);
}

/* Resolves the tools; 2 on an explicit path that is unusable, else 0. */
static int find_tools(const struct bp_opts *o, struct bp_tools *t)
{
    memset(t, 0, sizeof *t);
    ssize_t n = readlink("/proc/self/exe", t->self, sizeof t->self - 1);
    if (n <= 0) {
        fprintf(stderr, "czk bench prove: cannot find its own executable (/proc/self/exe)\n");
        return 2;
    }
    t->self[n] = '\0';

    cpu_set_t all;
    CPU_ZERO(&all);
    CPU_ZERO(&t->cpus);
    if (sched_getaffinity(0, sizeof all, &all) == 0 && (unsigned)CPU_COUNT(&all) > o->threads) {
        unsigned got = 0;
        for (int i = 0; i < CPU_SETSIZE && got < o->threads; i++)
            if (CPU_ISSET(i, &all)) {
                CPU_SET(i, &t->cpus);
                got++;
            }
        t->pin = true;
    }
    if (!o->compare)
        return 0;

    /* rapidsnark: BN254 only (its Fr/Fq are generated for that curve). */
    const char *rs = o->rapidsnark ? o->rapidsnark : getenv("CZK_RAPIDSNARK");
    if (rs && *rs) {
        if (!is_executable(rs)) {
            fprintf(stderr, "czk bench prove: --rapidsnark: '%s' is not an executable file\n",
                    rs);
            return 2;
        }
        snprintf(t->rapidsnark, sizeof t->rapidsnark, "%s", rs);
    } else if (!find_on_path("rapidsnark", t->rapidsnark, sizeof t->rapidsnark)) {
        t->rapidsnark[0] = '\0';
        fprintf(stderr, "czk bench prove: rapidsnark not found (--rapidsnark PATH, built by "
                "tools/build_rapidsnark.sh): skipped\n");
    }
    if (t->rapidsnark[0] && o->curve != CZK_GROTH16_CURVE_BN254) {
        fprintf(stderr, "czk bench prove: rapidsnark proves BN254 keys only: skipped for "
                "%s\n", czk_groth16_curve_name(o->curve));
        t->rapidsnark[0] = '\0';
    }

    /* snarkjs: cli.js with node, or an executable. */
    const char *sj = o->snarkjs;
    char found[PATH_MAX];
    if (!sj) {
        if (file_exists("node_modules/snarkjs/cli.js") &&
            realpath("node_modules/snarkjs/cli.js", found))
            sj = found;
        else if (self_dir_file(t->self, "../node_modules/snarkjs/cli.js", found, sizeof found) ||
                 self_dir_file(t->self, "../../node_modules/snarkjs/cli.js", found, sizeof found))
            sj = found;
    } else if (!file_exists(sj)) {
        fprintf(stderr, "czk bench prove: --snarkjs: '%s' is not a file\n", sj);
        return 2;
    }
    if (!sj) {
        fprintf(stderr, "czk bench prove: snarkjs not found (--snarkjs PATH to its cli.js; "
                "npm ci installs it): skipped\n");
        return 0;
    }
    size_t l = strlen(sj);
    if (l > 3 && (!strcmp(sj + l - 3, ".js") || !strcmp(sj + l - 4, ".cjs") ||
                  !strcmp(sj + l - 4, ".mjs"))) {
        const char *node = getenv("NODE");
        if (node && *node && is_executable(node)) {
            snprintf(t->node, sizeof t->node, "%s", node);
        } else if (!find_on_path("node", t->node, sizeof t->node)) {
            if (o->snarkjs) {
                fprintf(stderr, "czk bench prove: --snarkjs %s needs node, which is not on "
                        "PATH ($NODE)\n", sj);
                return 2;
            }
            fprintf(stderr, "czk bench prove: node not found: snarkjs skipped\n");
            return 0;
        }
    } else if (!is_executable(sj)) {
        fprintf(stderr, "czk bench prove: --snarkjs: '%s' is neither a .js file nor "
                "executable\n", sj);
        return 2;
    }
    if (!realpath(sj, t->snarkjs))
        snprintf(t->snarkjs, sizeof t->snarkjs, "%s", sj);
    return 0;
}

/* ---- main ------------------------------------------------------------------------------ */

static int bench_size(const struct bp_opts *o, const struct bp_tools *t, unsigned k,
                      struct bp_result res[P_COUNT], struct bp_stages *st)
{
    struct bp_case c;
    bool use[P_COUNT] = {true, t->rapidsnark[0] != 0, t->snarkjs[0] != 0};
    char tag[16];
    if (!prepare_case(o, t, k, &c))
        return 1;
    memset(res, 0, P_COUNT * sizeof *res);
    for (int p = 0; p < P_COUNT; p++) {
        res[p].used = use[p];
        if (!use[p])
            continue;
        double ms;
        long rss;
        if (!run_prover(o, t, &c, p, "warmup", &ms, &rss))
            return 1;
        fprintf(stderr, "czk bench prove: 2^%u warm-up %-10s %10.1f ms\n", k, prover_names[p], ms);
    }
    for (unsigned r = 0; r < o->runs; r++) {
        snprintf(tag, sizeof tag, "%u", r + 1);
        for (int p = 0; p < P_COUNT; p++) {
            if (!use[p])
                continue;
            double ms;
            long rss;
            if (!run_prover(o, t, &c, p, tag, &ms, &rss))
                return 1;
            res[p].ms[res[p].n++] = ms;
            res[p].max_rss_kib = rss > res[p].max_rss_kib ? rss : res[p].max_rss_kib;
            fprintf(stderr, "czk bench prove: 2^%u run %u/%u %-10s %10.1f ms\n", k, r + 1,
                    o->runs, prover_names[p], ms);
        }
    }
    /* Verify every timed proof; public signals equal czk's. */
    char ref_pub[PATH_MAX];
    PATHF(ref_pub, "%s/public-czk-1.json", c.runs);
    char *ref = public_values(ref_pub);
    if (!ref) {
        fprintf(stderr, "czk bench prove: cannot read %s\n", ref_pub);
        return 1;
    }
    bool ok = true;
    for (unsigned r = 0; r < o->runs && ok; r++) {
        snprintf(tag, sizeof tag, "%u", r + 1);
        for (int p = 0; p < P_COUNT && ok; p++)
            if (use[p])
                ok = check_run(o, t, &c, p, tag, ref);
    }
    free(ref);
    if (!ok)
        return 1;
    fprintf(stderr, "czk bench prove: 2^%u: all %u proofs verify (czk verify)\n", k,
            o->runs * (unsigned)(use[0] + use[1] + use[2]));
    if (!run_stages(o, t, &c, st)) {
        fprintf(stderr, "czk bench prove: the in-process stage run failed\n");
        return 1;
    }
    if (!o->keep)
        remove_tree(c.runs);
    return 0;
}

int czk_bench_prove(int argc, char **argv)
{
    struct bp_opts o = {.curve = CZK_GROTH16_CURVE_BN254,
                        .shape = CZK_GEN_SHAPE_MUL,
                        .runs = 5,
                        .backend = "cpu"};
    char workdir[PATH_MAX];
    bool threads_set = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            bp_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--curve")) {
            if (!has)
                return bp_bad("--curve needs a value", NULL);
            const char *v = argv[++i];
            if (!strcmp(v, "bn254"))
                o.curve = CZK_GROTH16_CURVE_BN254;
            else if (!strcmp(v, "bls12_381"))
                o.curve = CZK_GROTH16_CURVE_BLS12_381;
            else
                return bp_bad("--curve: expected bn254 or bls12_381, got", v);
        } else if (!strcmp(a, "--shape")) {
            if (!has)
                return bp_bad("--shape needs a value", NULL);
            const char *v = argv[++i];
            if (!strcmp(v, "mul"))
                o.shape = CZK_GEN_SHAPE_MUL;
            else if (!strcmp(v, "porep"))
                o.shape = CZK_GEN_SHAPE_POREP;
            else
                return bp_bad("--shape: expected mul or porep, got", v);
        } else if (!strcmp(a, "--domain-log")) {
            if (!has)
                return bp_bad("--domain-log needs at least one value", NULL);
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                unsigned k;
                if (!parse_uint_range(argv[++i], 1, 63, &k))
                    return bp_bad("--domain-log: not a domain exponent:", argv[i]);
                if (o.nks == BP_MAX_SIZES)
                    return bp_bad("--domain-log: at most 16 sizes", NULL);
                o.ks[o.nks++] = k;
            }
            if (o.nks == 0)
                return bp_bad("--domain-log needs at least one value", NULL);
        } else if (!strcmp(a, "--runs")) {
            if (!has || !parse_uint_range(argv[++i], 1, BP_MAX_RUNS, &o.runs))
                return bp_bad("--runs: expected 1..1000, got", has ? argv[i] : "");
        } else if (!strcmp(a, "--threads")) {
            if (!has || !parse_uint_range(argv[++i], 1, BP_MAX_THREADS, &o.threads))
                return bp_bad("--threads: expected 1..4096, got", has ? argv[i] : "");
            threads_set = true;
        } else if (!strcmp(a, "--backend")) {
            if (!has)
                return bp_bad("--backend needs a value", NULL);
            o.backend = argv[++i];
            if (strcmp(o.backend, "cpu") && strcmp(o.backend, "auto") && strcmp(o.backend, "cuda"))
                return bp_bad("--backend: expected cpu, auto or cuda, got", o.backend);
        } else if (!strcmp(a, "--compare")) {
            o.compare = true;
        } else if (!strcmp(a, "--keep")) {
            o.keep = true;
        } else if (!strcmp(a, "--trust-key")) {
            o.trust_key = true;
        } else if (!strcmp(a, "--rapidsnark")) {
            if (!has || !*argv[i + 1])
                return bp_bad("--rapidsnark needs a path", NULL);
            o.rapidsnark = argv[++i];
        } else if (!strcmp(a, "--snarkjs")) {
            if (!has || !*argv[i + 1])
                return bp_bad("--snarkjs needs a path", NULL);
            o.snarkjs = argv[++i];
        } else if (!strcmp(a, "--workdir")) {
            if (!has || !*argv[i + 1])
                return bp_bad("--workdir needs a directory", NULL);
            o.workdir = argv[++i];
        } else {
            return bp_bad("unknown option or argument", a);
        }
    }
    if ((o.rapidsnark || o.snarkjs) && !o.compare)
        return bp_bad("--rapidsnark and --snarkjs need --compare", NULL);
    if (o.nks == 0)
        o.ks[o.nks++] = 16;
    unsigned min_k = o.shape == CZK_GEN_SHAPE_MUL ? 2 : 9; /* >= 1 constraint */
    unsigned max_k = czk_gen_max_lg_domain(o.curve);
    for (unsigned i = 0; i < o.nks; i++) {
        if (o.ks[i] < min_k || o.ks[i] > max_k) {
            char m[96];
            snprintf(m, sizeof m, "--domain-log %u: out of range %u..%u for this curve and shape",
                     o.ks[i], min_k, max_k);
            return bp_bad(m, NULL);
        }
    }
    if (!threads_set) {
        cpu_set_t all;
        CPU_ZERO(&all);
        o.threads = sched_getaffinity(0, sizeof all, &all) == 0 ? (unsigned)CPU_COUNT(&all)
                                                                : czk_cpu_count();
        if (o.threads < 1)
            o.threads = 1;
    }
    if (!o.workdir) {
        const char *tmp = getenv("TMPDIR");
        snprintf(workdir, sizeof workdir, "%s/czk-bench-prove",
                 tmp && tmp[0] == '/' ? tmp : "/tmp");
        o.workdir = workdir;
    }
    if (strlen(o.workdir) > 1024)
        return bp_bad("--workdir: path longer than 1024 bytes", NULL);
    struct bp_tools t;
    int rc = find_tools(&o, &t);
    if (rc)
        return rc;
    if (!czk_cli_make_dirs(o.workdir))
        return bp_bad("--workdir: cannot create the directory", o.workdir);

    const char *curve = o.curve == CZK_GROTH16_CURVE_BN254 ? "bn254" : "bls12_381";
    const char *shape = o.shape == CZK_GEN_SHAPE_MUL ? "mul" : "porep";
    static struct bp_result res[BP_MAX_SIZES][P_COUNT];
    static struct bp_stages st[BP_MAX_SIZES];
    fprintf(stderr, "czk bench prove: %s, shape %s, %u threads%s, %u runs, workdir %s\n", curve,
            shape, o.threads, t.pin ? " (children pinned to as many CPUs)" : "", o.runs,
            o.workdir);
    for (unsigned i = 0; i < o.nks; i++) {
        if (bench_size(&o, &t, o.ks[i], res[i], &st[i]) != 0) {
            fprintf(stderr, "czk bench prove: FAILED at 2^%u\n", o.ks[i]);
            return 1;
        }
    }

    /* Results. */
    printf("czk bench prove: curve=%s shape=%s threads=%u runs=%u backend=%s%s\n", curve, shape,
           o.threads, o.runs, o.backend, o.trust_key ? " trust_key=1" : "");
    printf("\n| size | prover | median ms | min ms | peak RSS MiB | time / czk |\n");
    printf("|---|---|---:|---:|---:|---:|\n");
    for (unsigned i = 0; i < o.nks; i++) {
        double czk_med = median(res[i][P_CZK].ms, res[i][P_CZK].n);
        for (int p = 0; p < P_COUNT; p++) {
            struct bp_result *r = &res[i][p];
            if (!r->used)
                continue;
            double med = median(r->ms, r->n);
            printf("| 2^%u | %s%s | %.1f | %.1f | %.1f | %.2f |\n", o.ks[i], prover_names[p],
                   p == P_CZK && o.trust_key ? " --trust-key" : "", med,
                   minimum(r->ms, r->n), r->max_rss_kib / 1024.0, med / czk_med);
        }
    }
    printf("\nczk stages, ms (one in-process proof, %u threads, backend %s)\n\n| stage |",
           o.threads, o.backend);
    for (unsigned i = 0; i < o.nks; i++)
        printf(" 2^%u |", o.ks[i]);
    printf("\n|---|");
    for (unsigned i = 0; i < o.nks; i++)
        printf("---:|");
    printf("\n");
    for (size_t s = 0; s < N_STAGES; s++) {
        printf("| %s |", stage_names[s]);
        for (unsigned i = 0; i < o.nks; i++) {
            if (st[i].have[s])
                printf(" %.1f |", st[i].ms[s]);
            else
                printf(" - |");
        }
        printf("\n");
    }
    printf("| peak RSS MiB |");
    for (unsigned i = 0; i < o.nks; i++)
        printf(" %.1f |", st[i].max_rss_kib / 1024.0);
    printf("\n\n");
    for (unsigned i = 0; i < o.nks; i++) {
        for (int p = 0; p < P_COUNT; p++) {
            struct bp_result *r = &res[i][p];
            if (!r->used)
                continue;
            printf("bench: prove curve=%s shape=%s k=%u threads=%u prover=%s%s runs=%u "
                   "median_ms=%.1f min_ms=%.1f rss_mib=%.1f\n",
                   curve, shape, o.ks[i], o.threads, prover_names[p],
                   p == P_CZK && o.trust_key ? " trust_key=1" : "", r->n,
                   median(r->ms, r->n), minimum(r->ms, r->n), r->max_rss_kib / 1024.0);
        }
        printf("bench: prove-stages curve=%s shape=%s k=%u threads=%u", curve, shape, o.ks[i],
               o.threads);
        for (size_t s = 0; s < N_STAGES; s++)
            if (st[i].have[s])
                printf(" %s_ms=%.1f", stage_names[s], st[i].ms[s]);
        printf(" rss_mib=%.1f\n", st[i].max_rss_kib / 1024.0);
    }
    return 0;
}
