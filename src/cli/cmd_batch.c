/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `czk batch JOBS.json`: runs a set of proving jobs through the engine in one process and
 * reports per-job latency, the order of completion per priority and a per-worker timeline
 * summary. Until the daemon exists this is how the engine is driven from the command line
 * (and what `czk demo` runs).
 *
 * JOBS.json (relative paths are taken from the file's directory; unknown members are
 * errors, so a typo does not silently change a run):
 *
 *   {
 *     "circuits": { "ID": "path/to/circuit.zkey", ... },
 *     "jobs": [
 *       { "circuit": "ID", "priority": "low|normal|high|critical",   (default normal)
 *         "witnesses": ["a.wtns", "b.wtns", ...],                    (one per partition)
 *         "label": "name",                                           (default job<i>)
 *         "submit_at_ms": 250 },                                     (default 0)
 *       ...
 *     ]
 *   }
 *
 * Jobs are submitted in order of submit_at_ms (ties: file order), each when its time has
 * come (ms after the engine started); a full queue is retried every 5 ms. Every proof is
 * verified with the key's verification key unless --no-verify. Exit status: 0 every job
 * done and every proof valid; 1 a job failed or was cancelled, or a proof did not verify;
 * 2 bad input or a setup failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "czk/czk_prover.h"
#include "czk/engine.h"
#include "engine/srs.h"
#include "mem/mem.h"

#define BATCH_MAX_JOBS 100000u
#define BATCH_MAX_CIRCUITS 256u
#define BATCH_MAX_SUBMIT_MS 3600000.0

struct batch_job {
    char label[64];
    const char *circuit; /* borrowed from the JSON document */
    enum czk_priority priority;
    double submit_at_ms;
    size_t n;
    char **paths;
    size_t file_index;
    czk_job_id id;
    _Atomic unsigned done_seq; /* 1-based position in the completion order, 0 = not yet */
    _Atomic unsigned *done_counter; /* the batch's: jobs ended so far */
    struct czk_engine_job_info info;
    size_t n_valid, n_invalid;
};

struct batch_opts {
    const char *jobs_path, *devices, *out_dir;
    unsigned gpu_workers, synth_workers, finalizers, threads;
    uint64_t host_budget;
    bool verify, trust_key, quiet;
    enum czk_log_level log_level;
};

struct batch {
    struct batch_opts o;
    json_t *doc;
    char base[PATH_MAX]; /* directory of JOBS.json, with a trailing '/' */
    struct batch_job *jobs;
    size_t n_jobs;
    const char *circuit_ids[BATCH_MAX_CIRCUITS];
    const char *circuit_paths[BATCH_MAX_CIRCUITS];
    size_t n_circuits;
    _Atomic unsigned done_counter;
    czk_budget_t budget;
    czk_srs_mgr_t srs;
    czk_engine_t engine;
};

static void batch_usage(FILE *f)
{
    fprintf(f,
            "usage: czk batch [options] JOBS.json\n"
            "\n"
            "Run the proving jobs of JOBS.json through the engine (priority queue, synthesis,\n"
            "device and finalizer workers) and report per-job latency, the order of completion\n"
            "per priority and each worker's timeline. JOBS.json:\n"
            "  {\"circuits\": {\"ID\": \"circuit.zkey\", ...},\n"
            "   \"jobs\": [{\"circuit\": \"ID\", \"priority\": \"high\", \"witnesses\": [\"w.wtns\", ...],\n"
            "             \"label\": \"name\", \"submit_at_ms\": 0}, ...]}\n"
            "(relative paths from the file's directory; priority low|normal|high|critical).\n"
            "\n"
            "options:\n"
            "  --devices D        auto (every GPU, else the CPU; default), cpu or cuda\n"
            "  --gpu-workers N    device workers per device (default 2)\n"
            "  --synth-workers N  synthesis workers (default 2)\n"
            "  --finalizers N     finalizer threads (default 1)\n"
            "  --threads N        host threads of each worker's backend (default: all cores)\n"
            "  --host-budget S    host memory budget, e.g. 8G (default: $CZK_HOST_BUDGET, else\n"
            "                     80%% of the available memory)\n"
            "  --out DIR          write DIR/<label>/proof-<i>.json and public-<i>.json\n"
            "  --no-verify        do not verify the proofs\n"
            "  --trust-key        skip the subgroup checks of the keys' points\n"
            "  --log-level L      debug|info|warn|error for the engine's logfmt lines on stderr\n"
            "                     (GPU_TIMING, SYNTH_TIMING, FIN_TIMING at info; default warn)\n"
            "  --quiet            only the summary line\n"
            "\n"
            "exit status: 0 all jobs done and verified; 1 a job failed or a proof was rejected;\n"
            "2 bad input\n");
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void sleep_ms(double ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - (double)(time_t)(ms / 1e3) * 1e3) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static bool parse_count(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

/* ---- JOBS.json ------------------------------------------------------------------------- */

static int bad_input(const char *path, const char *where, const char *what)
{
    fprintf(stderr, "czk batch: %s: %s%s%s\n", path, where ? where : "", where ? ": " : "", what);
    return 2;
}

/* Only `allowed` members (NULL-terminated) in object o; else the first unknown one. */
static const char *unknown_member(json_t *o, const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        bool ok = false;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = !strcmp(k, allowed[i]);
        if (!ok)
            return k;
    }
    return NULL;
}

/* *out = base + rel (rel when absolute); false when too long. */
static bool resolve(const struct batch *b, const char *rel, char **out)
{
    size_t need = (rel[0] == '/' ? 0 : strlen(b->base)) + strlen(rel) + 1;
    if (need > PATH_MAX || !(*out = malloc(need)))
        return false;
    snprintf(*out, need, "%s%s", rel[0] == '/' ? "" : b->base, rel);
    return true;
}

static bool valid_id(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

static int parse_circuits(struct batch *b, json_t *circ)
{
    const char *path = b->o.jobs_path, *id;
    json_t *v;
    if (!json_is_object(circ) || json_object_size(circ) == 0)
        return bad_input(path, "circuits", "expected a non-empty object of id: zkey path");
    if (json_object_size(circ) > BATCH_MAX_CIRCUITS)
        return bad_input(path, "circuits", "more than 256 circuits");
    json_object_foreach(circ, id, v) {
        char where[96];
        snprintf(where, sizeof where, "circuits.%.63s", id);
        if (!valid_id(id))
            return bad_input(path, where, "an id is 1-63 characters of [A-Za-z0-9._-]");
        if (!json_is_string(v) || json_string_length(v) == 0)
            return bad_input(path, where, "expected the path of a .zkey file");
        b->circuit_ids[b->n_circuits] = id;
        b->circuit_paths[b->n_circuits++] = json_string_value(v);
    }
    return 0;
}

static bool known_circuit(const struct batch *b, const char *id)
{
    for (size_t i = 0; i < b->n_circuits; i++)
        if (!strcmp(b->circuit_ids[i], id))
            return true;
    return false;
}

static int parse_job(struct batch *b, json_t *o, size_t i, struct batch_job *j)
{
    static const char *const allowed[] = {"circuit", "priority", "witnesses", "label",
                                          "submit_at_ms", NULL};
    const char *path = b->o.jobs_path, *k;
    char where[32];
    snprintf(where, sizeof where, "jobs[%zu]", i);
    if (!json_is_object(o))
        return bad_input(path, where, "expected an object");
    if ((k = unknown_member(o, allowed))) {
        fprintf(stderr, "czk batch: %s: %s: unknown member \"%s\"\n", path, where, k);
        return 2;
    }
    json_t *c = json_object_get(o, "circuit"), *p = json_object_get(o, "priority"),
           *w = json_object_get(o, "witnesses"), *l = json_object_get(o, "label"),
           *t = json_object_get(o, "submit_at_ms");
    if (!json_is_string(c) || !known_circuit(b, json_string_value(c)))
        return bad_input(path, where, "\"circuit\" must name an id of \"circuits\"");
    j->circuit = json_string_value(c);
    j->priority = CZK_PRIORITY_NORMAL;
    if (p && (!json_is_string(p) || !czk_priority_parse(json_string_value(p), &j->priority)))
        return bad_input(path, where, "\"priority\" must be low, normal, high or critical");
    if (!json_is_array(w) || json_array_size(w) == 0 || json_array_size(w) > 65536)
        return bad_input(path, where, "\"witnesses\" must be an array of 1..65536 .wtns paths");
    if (l && (!json_is_string(l) || !valid_id(json_string_value(l))))
        return bad_input(path, where, "\"label\" is 1-63 characters of [A-Za-z0-9._-]");
    snprintf(j->label, sizeof j->label, "%s", l ? json_string_value(l) : "");
    if (!l)
        snprintf(j->label, sizeof j->label, "job%zu", i);
    if (t && (!json_is_number(t) || json_number_value(t) < 0 ||
              json_number_value(t) > BATCH_MAX_SUBMIT_MS))
        return bad_input(path, where, "\"submit_at_ms\" must be a number in 0..3600000");
    j->submit_at_ms = t ? json_number_value(t) : 0;
    j->n = json_array_size(w);
    j->file_index = i;
    j->done_counter = &b->done_counter;
    if (!(j->paths = calloc(j->n, sizeof *j->paths)))
        return bad_input(path, where, "out of memory");
    for (size_t q = 0; q < j->n; q++) {
        json_t *e = json_array_get(w, q);
        if (!json_is_string(e) || json_string_length(e) == 0)
            return bad_input(path, where, "every witness must be a path string");
        if (!resolve(b, json_string_value(e), &j->paths[q]))
            return bad_input(path, where, "witness path too long");
    }
    for (size_t q = 0; q < i; q++)
        if (!strcmp(b->jobs[q].label, j->label))
            return bad_input(path, where, "duplicate label");
    return 0;
}

static int by_submit_time(const void *pa, const void *pb)
{
    const struct batch_job *a = pa, *b = pb;
    if (a->submit_at_ms != b->submit_at_ms)
        return a->submit_at_ms < b->submit_at_ms ? -1 : 1;
    return a->file_index < b->file_index ? -1 : a->file_index > b->file_index;
}

static int load_jobs(struct batch *b)
{
    static const char *const allowed[] = {"circuits", "jobs", NULL};
    const char *path = b->o.jobs_path, *k;
    json_error_t je;
    b->doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!b->doc) {
        fprintf(stderr, "czk batch: %s: line %d column %d: %s\n", path, je.line, je.column,
                je.text);
        return 2;
    }
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    if (dl >= sizeof b->base)
        return bad_input(path, NULL, "path too long");
    memcpy(b->base, path, dl);
    b->base[dl] = 0;
    if (!json_is_object(b->doc))
        return bad_input(path, NULL, "expected an object with \"circuits\" and \"jobs\"");
    if ((k = unknown_member(b->doc, allowed))) {
        fprintf(stderr, "czk batch: %s: unknown member \"%s\"\n", path, k);
        return 2;
    }
    int rc = parse_circuits(b, json_object_get(b->doc, "circuits"));
    if (rc)
        return rc;
    json_t *jobs = json_object_get(b->doc, "jobs");
    if (!json_is_array(jobs) || json_array_size(jobs) == 0 ||
        json_array_size(jobs) > BATCH_MAX_JOBS)
        return bad_input(path, "jobs", "expected an array of 1..100000 jobs");
    b->n_jobs = json_array_size(jobs);
    if (!(b->jobs = calloc(b->n_jobs, sizeof *b->jobs)))
        return bad_input(path, NULL, "out of memory");
    for (size_t i = 0; i < b->n_jobs; i++)
        if ((rc = parse_job(b, json_array_get(jobs, i), i, &b->jobs[i])))
            return rc;
    qsort(b->jobs, b->n_jobs, sizeof *b->jobs, by_submit_time);
    return 0;
}

/* ---- engine ---------------------------------------------------------------------------- */

static void on_done(void *user, czk_job_id id, enum czk_job_state state)
{
    (void)id;
    (void)state;
    struct batch_job *j = user;
    atomic_store(&j->done_seq, atomic_fetch_add(j->done_counter, 1) + 1);
}

static int start_engine(struct batch *b)
{
    char err[512];
    enum czk_status st;
    uint64_t limit = b->o.host_budget ? b->o.host_budget : czk_mem_default_host_budget();
    if ((st = czk_budget_new(&b->budget, "host", limit)) != CZK_OK) {
        fprintf(stderr, "czk batch: host budget: %s\n", czk_status_str(st));
        return 2;
    }
    struct czk_srs_opts so = {0};
    so.host_budget = b->budget;
    so.load_flags = b->o.trust_key ? CZK_PROVER_KEY_TRUST : CZK_PROVER_KEY_REMEMBER;
    so.threads = b->o.threads;
    so.wait_ms = -1;
    if ((st = czk_srs_mgr_new(&b->srs, &so)) != CZK_OK) {
        fprintf(stderr, "czk batch: SRS manager: %s\n", czk_status_str(st));
        return 2;
    }
    for (size_t i = 0; i < b->n_circuits; i++) {
        char *zk;
        if (!resolve(b, b->circuit_paths[i], &zk))
            return bad_input(b->o.jobs_path, b->circuit_ids[i], "zkey path too long");
        st = czk_srs_register(b->srs, b->circuit_ids[i], zk, err, sizeof err);
        free(zk);
        if (st != CZK_OK) {
            fprintf(stderr, "czk batch: circuit %s: %s\n", b->circuit_ids[i], err);
            return 2;
        }
    }
    struct czk_engine_config cfg = {0};
    cfg.srs = b->srs;
    cfg.host_budget = b->budget;
    cfg.devices = b->o.devices;
    cfg.gpu_workers_per_device = b->o.gpu_workers;
    cfg.synth_workers = b->o.synth_workers;
    cfg.finalizer_workers = b->o.finalizers;
    cfg.backend_threads = b->o.threads;
    if ((st = czk_engine_new(&b->engine, &cfg, err, sizeof err)) != CZK_OK) {
        fprintf(stderr, "czk batch: engine: %s\n", err);
        return 2;
    }
    return 0;
}

static int submit_all(struct batch *b)
{
    char err[512];
    for (size_t i = 0; i < b->n_jobs; i++) {
        struct batch_job *j = &b->jobs[i];
        sleep_ms(j->submit_at_ms - czk_engine_now_ms(b->engine));
        struct czk_engine_job_spec spec = {0};
        spec.circuit = j->circuit;
        spec.priority = j->priority;
        spec.n_partitions = j->n;
        spec.witness_paths = (const char *const *)j->paths;
        spec.on_done = on_done;
        spec.user = j;
        spec.label = j->label;
        enum czk_status st;
        while ((st = czk_engine_submit(b->engine, &spec, &j->id, err, sizeof err)) ==
               CZK_ERR_BUSY)
            sleep_ms(5);
        if (st != CZK_OK) {
            fprintf(stderr, "czk batch: job %s: %s\n", j->label, err);
            return 2;
        }
    }
    return 0;
}

/* ---- results --------------------------------------------------------------------------- */

static int write_proof(const struct batch *b, const struct batch_job *j, size_t q,
                       const struct czk_engine_part_result *r)
{
    char dir[PATH_MAX], pp[PATH_MAX + 48], pu[PATH_MAX + 48];
    char *proof = NULL, *pub = NULL;
    size_t lp = 0, lu = 0;
    int rc = -1;
    if (snprintf(dir, sizeof dir, "%s/%s", b->o.out_dir, j->label) >= (int)sizeof dir ||
        !czk_cli_make_dirs(dir)) {
        fprintf(stderr, "czk batch: cannot create %s/%s\n", b->o.out_dir, j->label);
        return -1;
    }
    snprintf(pp, sizeof pp, "%s/proof-%zu.json", dir, q);
    snprintf(pu, sizeof pu, "%s/public-%zu.json", dir, q);
    if (czk_groth16_proof_to_json(&r->proof, &proof, &lp) == CZK_OK &&
        czk_groth16_public_to_json(&r->pub, &pub, &lu) == CZK_OK &&
        czk_cli_write_atomic("czk batch", pp, proof, lp) == 0 &&
        czk_cli_write_atomic("czk batch", pu, pub, lu) == 0)
        rc = 0;
    free(proof);
    free(pub);
    return rc;
}

/* Verifies and writes the proofs of one ended job. */
static int collect_job(struct batch *b, struct batch_job *j)
{
    char err[512];
    const struct czk_engine_part_result *parts;
    size_t n;
    int rc = 0;
    czk_engine_job_status(b->engine, j->id, &j->info);
    if (j->info.state != CZK_JOB_STATE_DONE)
        return 1;
    if (czk_engine_job_result(b->engine, j->id, &parts, &n) != CZK_OK)
        return 1;
    struct czk_groth16_vkey vk;
    bool have_vk = false;
    if (b->o.verify) {
        czk_prover_key_t key;
        if (czk_srs_acquire(b->srs, j->circuit, NULL, &key, err, sizeof err) != CZK_OK) {
            fprintf(stderr, "czk batch: %s: %s\n", j->circuit, err);
            return 2;
        }
        have_vk = czk_prover_key_vkey(key, &vk, err, sizeof err) == CZK_OK;
        czk_srs_release(b->srs, j->circuit);
        if (!have_vk) {
            fprintf(stderr, "czk batch: %s: verification key: %s\n", j->circuit, err);
            return 2;
        }
    }
    for (size_t q = 0; q < n; q++) {
        if (have_vk) {
            if (czk_groth16_verify(&vk, &parts[q].pub, &parts[q].proof, err, sizeof err) ==
                CZK_OK) {
                j->n_valid++;
            } else {
                j->n_invalid++;
                fprintf(stderr, "czk batch: job %s partition %zu: proof rejected: %s\n",
                        j->label, q, err);
                rc = 1;
            }
        }
        if (b->o.out_dir && write_proof(b, j, q, &parts[q]) != 0)
            rc = 2;
    }
    if (have_vk)
        czk_groth16_vkey_free(&vk);
    return rc;
}

static void print_jobs(const struct batch *b)
{
    printf("\n| job | circuit | priority | parts | state | submit ms | wait ms | latency ms | "
           "done # | verified |\n|---|---|---|---:|---|---:|---:|---:|---:|---|\n");
    for (size_t i = 0; i < b->n_jobs; i++) {
        const struct batch_job *j = &b->jobs[i];
        const struct czk_engine_job_info *f = &j->info;
        char ver[32];
        if (!b->o.verify)
            snprintf(ver, sizeof ver, "-");
        else
            snprintf(ver, sizeof ver, "%zu/%zu", j->n_valid, j->n);
        printf("| %s | %s | %s | %zu | %s | %.1f | %.1f | %.1f | %u | %s |\n", j->label,
               j->circuit, czk_priority_name(j->priority), j->n, czk_job_state_name(f->state),
               f->submit_ms, f->first_start_ms >= 0 ? f->first_start_ms - f->submit_ms : -1.0,
               f->end_ms >= 0 ? f->end_ms - f->submit_ms : -1.0, atomic_load(&j->done_seq), ver);
        if (f->state == CZK_JOB_STATE_FAILED)
            printf("|   error: %s (%s) |\n", f->error, czk_status_str(f->status));
    }
}

static int by_done_seq(const void *pa, const void *pb)
{
    const struct batch_job *a = *(const struct batch_job *const *)pa,
                           *b = *(const struct batch_job *const *)pb;
    unsigned x = atomic_load(&a->done_seq), y = atomic_load(&b->done_seq);
    return x < y ? -1 : x > y;
}

static void print_order(const struct batch *b)
{
    const struct batch_job **o = malloc(b->n_jobs * sizeof *o);
    if (!o)
        return;
    for (size_t i = 0; i < b->n_jobs; i++)
        o[i] = &b->jobs[i];
    qsort(o, b->n_jobs, sizeof *o, by_done_seq);
    printf("\norder of completion per priority\n");
    for (int p = CZK_PRIORITY_CRITICAL; p >= CZK_PRIORITY_LOW; p--) {
        size_t shown = 0;
        for (size_t i = 0; i < b->n_jobs; i++) {
            if (o[i]->priority != (enum czk_priority)p)
                continue;
            if (shown == 0)
                printf("  %-8s", czk_priority_name((enum czk_priority)p));
            if (shown < 24)
                printf(" %s(#%u)", o[i]->label, atomic_load(&o[i]->done_seq));
            else if (shown == 24)
                printf(" ...");
            shown++;
        }
        if (shown)
            printf("\n");
    }
    free(o);
}

/* Per worker and stage: partitions, busy time (begin..end pairs), share of the wall time. */
struct worker_sum {
    uint8_t stage;
    uint16_t worker;
    unsigned n;
    double busy_ms, open_t;
    bool open;
};

static void print_timeline(const struct batch *b)
{
    enum { CAP = 4096, MAXW = 3 * 256 };
    static struct czk_engine_event ev[CAP];
    static struct worker_sum ws[MAXW];
    size_t nws = 0, n;
    uint64_t seq = 0, next;
    double t_first = -1, t_last = 0;
    do {
        if (czk_engine_timeline_read(b->engine, seq, ev, CAP, &n, &next) != CZK_OK)
            return;
        for (size_t i = 0; i < n; i++) {
            const struct czk_engine_event *e = &ev[i];
            size_t k = 0;
            while (k < nws && !(ws[k].stage == e->stage && ws[k].worker == e->worker))
                k++;
            if (k == nws) {
                if (nws == MAXW)
                    continue;
                ws[nws++] = (struct worker_sum){.stage = e->stage, .worker = e->worker};
            }
            if (t_first < 0 || e->t_ms < t_first)
                t_first = e->t_ms;
            if (e->t_ms > t_last)
                t_last = e->t_ms;
            if (e->begin) {
                ws[k].open = true;
                ws[k].open_t = e->t_ms;
            } else if (ws[k].open) {
                ws[k].open = false;
                ws[k].busy_ms += e->t_ms - ws[k].open_t;
                ws[k].n++;
            }
        }
        seq = next;
    } while (n == CAP);
    double wall = t_last > t_first ? t_last - t_first : 0;
    static const char kind[] = {'s', 'g', 'f'};
    printf("\nworker timeline (%.1f ms from the first event to the last)\n"
           "\n| worker | stage | partitions | busy ms | busy %% | mean ms |\n"
           "|---|---|---:|---:|---:|---:|\n", wall);
    for (unsigned st = 0; st < 3; st++)
        for (size_t k = 0; k < nws; k++)
            if (ws[k].stage == st)
                printf("| %c%u | %s | %u | %.1f | %.1f | %.1f |\n", kind[st], ws[k].worker,
                       czk_engine_stage_name((enum czk_engine_stage)st), ws[k].n, ws[k].busy_ms,
                       wall > 0 ? 100.0 * ws[k].busy_ms / wall : 0.0,
                       ws[k].n ? ws[k].busy_ms / ws[k].n : 0.0);
}

static void print_stats(const struct batch *b, double wall_ms)
{
    struct czk_engine_stats st;
    czk_engine_get_stats(b->engine, &st);
    size_t parts = 0;
    for (size_t i = 0; i < b->n_jobs; i++)
        parts += b->jobs[i].n;
    printf("\nengine: %zu jobs, %zu partitions in %.1f ms (%.2f partitions/s); workers: %u "
           "synthesis, %u device, %u finalizer\n",
           b->n_jobs, parts, wall_ms, wall_ms > 0 ? parts / (wall_ms / 1e3) : 0.0,
           st.n_synth_workers, st.n_gpu_workers, st.n_finalizers);
    printf("engine: hot-loop mutex acquisitions per partition %.3f, lock wait %.3f ms in "
           "total\n", st.hot_lock_per_partition, st.lock_wait_ms);
    printf("engine: host budget %s: peak %.1f MiB reserved of %.1f MiB (%" PRIu64 " waits)\n",
           st.host.name, st.host.peak / 1048576.0, st.host.limit / 1048576.0, st.host.n_waits);
    for (size_t d = 0; d < st.n_devices && d < CZK_ENGINE_MAX_DEVICES; d++)
        if (st.gpu[d].limit)
            printf("engine: device budget %s: peak %.1f MiB of %.1f MiB\n", st.gpu[d].name,
                   st.gpu[d].peak / 1048576.0, st.gpu[d].limit / 1048576.0);
}

static int parse_args(int argc, char **argv, struct batch_opts *o)
{
    o->verify = true;
    o->log_level = CZK_LOG_WARN;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            batch_usage(stdout);
            return -1;
        } else if (!strcmp(a, "--devices") && has) {
            o->devices = argv[++i];
        } else if (!strcmp(a, "--gpu-workers") && has) {
            if (!parse_count(argv[++i], 1, 64, &o->gpu_workers))
                return fprintf(stderr, "czk batch: --gpu-workers: 1..64\n"), 2;
        } else if (!strcmp(a, "--synth-workers") && has) {
            if (!parse_count(argv[++i], 1, 64, &o->synth_workers))
                return fprintf(stderr, "czk batch: --synth-workers: 1..64\n"), 2;
        } else if (!strcmp(a, "--finalizers") && has) {
            if (!parse_count(argv[++i], 1, 64, &o->finalizers))
                return fprintf(stderr, "czk batch: --finalizers: 1..64\n"), 2;
        } else if (!strcmp(a, "--threads") && has) {
            if (!parse_count(argv[++i], 1, 4096, &o->threads))
                return fprintf(stderr, "czk batch: --threads: 1..4096\n"), 2;
        } else if (!strcmp(a, "--host-budget") && has) {
            if (!czk_mem_parse_size(argv[++i], &o->host_budget) || o->host_budget == 0)
                return fprintf(stderr, "czk batch: --host-budget: '%s' is not a size\n", argv[i]),
                       2;
        } else if (!strcmp(a, "--out") && has) {
            o->out_dir = argv[++i];
        } else if (!strcmp(a, "--log-level") && has) {
            const char *l = argv[++i];
            if (!strcmp(l, "debug"))
                o->log_level = CZK_LOG_DEBUG;
            else if (!strcmp(l, "info"))
                o->log_level = CZK_LOG_INFO;
            else if (!strcmp(l, "warn"))
                o->log_level = CZK_LOG_WARN;
            else if (!strcmp(l, "error"))
                o->log_level = CZK_LOG_ERROR;
            else
                return fprintf(stderr, "czk batch: --log-level: debug|info|warn|error\n"), 2;
        } else if (!strcmp(a, "--no-verify")) {
            o->verify = false;
        } else if (!strcmp(a, "--trust-key")) {
            o->trust_key = true;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "czk batch: unknown or incomplete option '%s'\n", a);
            batch_usage(stderr);
            return 2;
        } else if (!o->jobs_path) {
            o->jobs_path = a;
        } else {
            fprintf(stderr, "czk batch: one JOBS.json only\n");
            return 2;
        }
    }
    if (!o->jobs_path) {
        batch_usage(stderr);
        return 2;
    }
    return 0;
}

static void batch_free(struct batch *b)
{
    czk_engine_free(b->engine);
    czk_srs_mgr_free(b->srs);
    czk_budget_free(b->budget);
    for (size_t i = 0; i < b->n_jobs; i++) {
        for (size_t q = 0; q < b->jobs[i].n && b->jobs[i].paths; q++)
            free(b->jobs[i].paths[q]);
        free(b->jobs[i].paths);
    }
    free(b->jobs);
    json_decref(b->doc);
}

int czk_cli_batch(int argc, char **argv)
{
    struct batch b;
    memset(&b, 0, sizeof b);
    int rc = parse_args(argc, argv, &b.o);
    if (rc)
        return rc < 0 ? 0 : rc;
    czk_log_set(NULL, NULL, b.o.log_level);
    if ((rc = load_jobs(&b)) || (rc = start_engine(&b))) {
        batch_free(&b);
        return rc;
    }
    double t0 = mono_ms();
    if ((rc = submit_all(&b)) != 0) {
        batch_free(&b);
        return rc;
    }
    for (size_t i = 0; i < b.n_jobs; i++)
        czk_engine_job_wait(b.engine, b.jobs[i].id, -1, NULL);
    double wall = mono_ms() - t0;
    size_t n_ok = 0;
    for (size_t i = 0; i < b.n_jobs; i++) {
        int r = collect_job(&b, &b.jobs[i]);
        rc = r > rc ? r : rc;
        n_ok += r == 0;
    }
    if (!b.o.quiet) {
        print_jobs(&b);
        print_order(&b);
        print_timeline(&b);
        print_stats(&b, wall);
    }
    printf("batch: %zu of %zu jobs done%s in %.1f ms\n", n_ok, b.n_jobs,
           b.o.verify ? " and verified" : "", wall);
    batch_free(&b);
    return rc;
}
