/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snarkjs Groth16 .zkey files (zkey_utils.js, zkey_new.js), version 1, protocol 1:
 *   1  u32 protocol (1 = Groth16; PLONK/FFLONK keys are rejected as unsupported)
 *   2  u32 n8q, q, u32 n8r, r, u32 nVars, u32 nPublic, u32 domainSize,
 *      alpha1 (G1), beta1 (G1), beta2 (G2), gamma2 (G2), delta1 (G1), delta2 (G2)
 *   3  IC: nPublic + 1 G1
 *   4  u32 nCoefs, then nCoefs x {u32 matrix, u32 constraint, u32 signal, n8r bytes value}
 *   5  A: nVars G1      6  B1: nVars G1      7  B2: nVars G2
 *   8  C: nVars - nPublic - 1 G1            9  H: domainSize G1
 *   10 MPC contributions (must be present; kept as raw bytes, not interpreted)
 * Points are x || y with every Fq component in Montgomery form (little-endian), G2
 * coordinates c0 || c1; all-zero bytes are the point at infinity.
 *
 * Checks, in order (the first failure is reported, naming file, section and offset):
 * section table; sections 1-10 each present once; protocol; q and r are one curve's
 * (n8q 32/48, n8r 32); nVars >= nPublic + 1; domainSize a power of two > nPublic with
 * lg(domainSize) < the two-adicity of Fr (the prover needs a 2*domainSize-th root of
 * unity for snarkjs's odd coset); every section size equal to its count times the
 * element size; every coefficient with matrix in {0, 1}, constraint < domainSize,
 * signal < nVars, value < r; every point with coordinates < q and on its curve, and,
 * unless CZK_IO_SKIP_SUBGROUP or the key is already trusted (formats.h), in the
 * prime-order subgroup. The point checks run in one czk_parallel_for over all points
 * (G2 subgroup checks dominate the load time of a large key); the lowest failing
 * point is then re-checked on the calling thread to name it, so the message does not
 * depend on thread timing.
 *
 * Memory: point sections are borrowed from the mapping when 8-byte aligned, else
 * copied once into 64-byte aligned buffers (owned[]); the six header points are
 * always copied (they sit at offsets that are not multiples of 8), and the
 * coefficients are decoded into struct czk_zkey_coef (48 bytes each, 44 in the file).
 *
 * Threading: the loader uses `threads` workers for the point checks. The process-wide
 * set of trusted key hashes is guarded by a mutex; the trusted-keys file is appended
 * with single O_APPEND writes, so concurrent processes do not interleave lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/parallel.h"
#include "core/sha256.h"
#include "io/binfile.h"
#include "io/formats.h"

#define COEF_BYTES(n8r) (12u + (n8r))

/* ---- point checks ----------------------------------------------------------------------- */

typedef enum czk_status (*point_check_fn)(const uint8_t *in, unsigned ec_flags);

#define POINT_CHECK(G)                                                                             \
    static enum czk_status check_##G(const uint8_t *in, unsigned ec_flags)                         \
    {                                                                                              \
        struct czk_##G##_affine p;                                                                 \
        return czk_##G##_from_zkey(&p, in, ec_flags);                                              \
    }
POINT_CHECK(g1_bn254)
POINT_CHECK(g2_bn254)
POINT_CHECK(g1_bls12_381)
POINT_CHECK(g2_bls12_381)

struct point_array {
    const char *what;     /* "alpha1", "A", ... */
    uint32_t section;
    bool g2;
    const uint8_t *data;  /* the points (borrowed or owned copy) */
    uint64_t n;
    uint64_t file_offset; /* of the first point, for messages */
};

#define MAX_ARRAYS 12

struct check_job {
    const struct point_array *arr;
    unsigned n_arr;
    uint64_t start[MAX_ARRAYS + 1]; /* prefix sums of arr[].n */
    point_check_fn g1, g2;
    uint32_t g1_bytes, g2_bytes;
    unsigned ec_flags;
    _Atomic uint64_t first_bad; /* lowest failing global index, UINT64_MAX if none */
};

static void locate(const struct check_job *j, uint64_t gi, unsigned *a, uint64_t *i)
{
    unsigned k = 0;
    while (gi >= j->start[k + 1])
        k++;
    *a = k;
    *i = gi - j->start[k];
}

static enum czk_status check_one(const struct check_job *j, uint64_t gi)
{
    unsigned a;
    uint64_t i;
    locate(j, gi, &a, &i);
    const struct point_array *pa = &j->arr[a];
    if (pa->g2)
        return j->g2(pa->data + i * j->g2_bytes, j->ec_flags);
    return j->g1(pa->data + i * j->g1_bytes, j->ec_flags);
}

static void check_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    struct check_job *j = ctx;
    (void)worker;
    for (uint64_t gi = begin; gi < end; gi++) {
        if (gi >= atomic_load_explicit(&j->first_bad, memory_order_relaxed))
            return; /* a lower point already failed */
        if (check_one(j, gi) != CZK_OK) {
            uint64_t cur = atomic_load_explicit(&j->first_bad, memory_order_relaxed);
            while (gi < cur && !atomic_compare_exchange_weak(&j->first_bad, &cur, gi)) {
            }
            return;
        }
    }
}

static const char *point_error(enum czk_status st)
{
    switch (st) {
    case CZK_ERR_RANGE: return "coordinate >= q";
    case CZK_ERR_NOT_ON_CURVE: return "not on the curve";
    case CZK_ERR_NOT_IN_SUBGROUP: return "not in the prime-order subgroup";
    default: return czk_status_str(st);
    }
}

static enum czk_status check_points(const char *name, const struct czk_io_curve *cv,
                                    const struct point_array *arr, unsigned n_arr, bool subgroup,
                                    unsigned threads, char *err, size_t errlen)
{
    struct check_job j;
    memset(&j, 0, sizeof j);
    j.arr = arr;
    j.n_arr = n_arr;
    for (unsigned k = 0; k < n_arr; k++)
        j.start[k + 1] = j.start[k] + arr[k].n;
    if (cv->curve == CZK_GROTH16_CURVE_BN254) {
        j.g1 = check_g1_bn254;
        j.g2 = check_g2_bn254;
    } else {
        j.g1 = check_g1_bls12_381;
        j.g2 = check_g2_bls12_381;
    }
    j.g1_bytes = cv->g1;
    j.g2_bytes = cv->g2;
    j.ec_flags = subgroup ? 0 : CZK_EC_SKIP_SUBGROUP;
    atomic_init(&j.first_bad, UINT64_MAX);

    uint64_t total = j.start[n_arr];
    czk_parallel_for((size_t)total, subgroup ? 16 : 1024, threads, check_range, &j);

    uint64_t bad = atomic_load(&j.first_bad);
    if (bad == UINT64_MAX)
        return CZK_OK;
    enum czk_status st = check_one(&j, bad);
    if (st == CZK_OK) /* cannot happen: the checks are deterministic */
        st = CZK_ERR_INTERNAL;
    unsigned a;
    uint64_t i;
    locate(&j, bad, &a, &i);
    const struct point_array *pa = &arr[a];
    uint64_t off = pa->file_offset + i * (pa->g2 ? cv->g2 : cv->g1);
    if (pa->n == 1)
        return czk_errf(st, err, errlen, "%s: section %u: %s (%s) at offset %llu: %s", name,
                        pa->section, pa->what, pa->g2 ? "G2" : "G1", (unsigned long long)off,
                        point_error(st));
    return czk_errf(st, err, errlen, "%s: section %u (%s): %s point %llu at offset %llu: %s",
                    name, pa->section, pa->what, pa->g2 ? "G2" : "G1", (unsigned long long)i,
                    (unsigned long long)off, point_error(st));
}

/* ---- trusted keys ----------------------------------------------------------------------- */

static pthread_mutex_t trust_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t (*trust_set)[32];
static size_t trust_n, trust_cap;

static bool trust_has(const uint8_t h[32])
{
    bool found = false;
    pthread_mutex_lock(&trust_lock);
    for (size_t i = 0; i < trust_n && !found; i++)
        found = memcmp(trust_set[i], h, 32) == 0;
    pthread_mutex_unlock(&trust_lock);
    return found;
}

static void trust_add(const uint8_t h[32])
{
    pthread_mutex_lock(&trust_lock);
    bool found = false;
    for (size_t i = 0; i < trust_n && !found; i++)
        found = memcmp(trust_set[i], h, 32) == 0;
    if (!found) {
        if (trust_n == trust_cap) {
            size_t cap = trust_cap ? 2 * trust_cap : 16;
            void *p = realloc(trust_set, cap * sizeof *trust_set);
            if (p) {
                trust_set = p;
                trust_cap = cap;
            }
        }
        if (trust_n < trust_cap)
            memcpy(trust_set[trust_n++], h, 32);
    }
    pthread_mutex_unlock(&trust_lock);
}

void czk_zkey_trust_cache_clear(void)
{
    pthread_mutex_lock(&trust_lock);
    free(trust_set);
    trust_set = NULL;
    trust_n = trust_cap = 0;
    pthread_mutex_unlock(&trust_lock);
}

/* $XDG_CACHE_HOME/czk (absolute XDG_CACHE_HOME only, per the XDG spec) or ~/.cache/czk. */
static bool trust_dir(char *buf, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME");
    int n;
    if (x && x[0] == '/') {
        n = snprintf(buf, len, "%s/czk", x);
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/')
            return false;
        n = snprintf(buf, len, "%s/.cache/czk", home);
    }
    return n > 0 && (size_t)n < len - 16;
}

static bool trust_file_has(const uint8_t h[32])
{
    char path[4096], hex[65];
    struct stat st;
    bool found = false;

    if (!trust_dir(path, sizeof path))
        return false;
    strcat(path, "/trusted-keys");
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return false;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & S_IWOTH) || st.st_size > (64 << 20)) {
        czk_log(CZK_LOG_WARN, "io", "%s: ignored (not a regular file of this user, writable by "
                "others, or over 64 MiB)", path);
        close(fd);
        return false;
    }
    char *text = malloc((size_t)st.st_size + 1);
    ssize_t got = 0;
    if (text) {
        while (got < st.st_size) {
            ssize_t k = read(fd, text + got, (size_t)(st.st_size - got));
            if (k <= 0)
                break;
            got += k;
        }
        text[got] = '\0';
        czk_sha256_hex(hex, h);
        /* one hash per line; a line must be exactly the 64 hex digits */
        for (char *line = text; line && *line && !found;) {
            char *nl = strchr(line, '\n');
            size_t l = nl ? (size_t)(nl - line) : strlen(line);
            found = l == 64 && memcmp(line, hex, 64) == 0;
            line = nl ? nl + 1 : NULL;
        }
    }
    free(text);
    close(fd);
    return found;
}

static void trust_file_add(const uint8_t h[32])
{
    char path[4096], line[66];
    if (!trust_dir(path, sizeof path))
        return;
    /* create $XDG_CACHE_HOME (or ~/.cache) and .../czk, and missing parents, if needed */
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int r = mkdir(path, 0700);
        *p = '/';
        if (r != 0 && errno != EEXIST)
            goto fail;
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        goto fail;
    strcat(path, "/trusted-keys");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        goto fail;
    czk_sha256_hex(line, h);
    line[64] = '\n';
    ssize_t k = write(fd, line, 65);
    int e = k < 0 ? errno : EIO;
    close(fd);
    if (k == 65)
        return;
    errno = e;
fail:
    czk_log(CZK_LOG_WARN, "io", "cannot record the checked key in %s: %s", path,
            strerror(errno));
}

/* ---- key id ----------------------------------------------------------------------------- */

/* The key id (formats.h): SHA-256 over a tag, the file size and the SHA-256 of every
 * 4 MiB chunk, the chunks hashed in parallel (one SHA-256 of a 124 MB key took ~95 ms, half
 * of the key's load time with a remembered key on 16 cores). */
#define KEY_ID_CHUNK (4u << 20)

struct key_id_job {
    const uint8_t *data;
    uint64_t size;
    uint8_t (*digests)[32];
};

static void key_id_range(void *ctx, size_t b, size_t e, unsigned worker)
{
    (void)worker;
    const struct key_id_job *j = ctx;
    for (size_t i = b; i < e; i++) {
        uint64_t off = (uint64_t)i * KEY_ID_CHUNK;
        uint64_t n = j->size - off < KEY_ID_CHUNK ? j->size - off : KEY_ID_CHUNK;
        czk_sha256(j->digests[i], j->data + off, (size_t)n);
    }
}

void czk_zkey_id(uint8_t out[32], const uint8_t *data, uint64_t size, unsigned threads)
{
    static const char tag[16] = "czk-zkey-id-v1";
    size_t n = (size_t)((size + KEY_ID_CHUNK - 1) / KEY_ID_CHUNK);
    uint8_t le[8], one[32];
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(size >> (8 * i));
    struct czk_sha256 c;
    czk_sha256_init(&c);
    czk_sha256_update(&c, tag, sizeof tag);
    czk_sha256_update(&c, le, sizeof le);
    uint8_t(*d)[32] = n ? malloc(n * sizeof *d) : NULL;
    if (d) {
        struct key_id_job j = {data, size, d};
        czk_parallel_for(n, 1, threads, key_id_range, &j);
        czk_sha256_update(&c, d, n * sizeof *d);
        free(d);
    } else { /* no memory for the digests (or an empty file): the same digests, in turn */
        for (size_t i = 0; i < n; i++) {
            uint64_t off = (uint64_t)i * KEY_ID_CHUNK;
            czk_sha256(one, data + off, (size_t)(size - off < KEY_ID_CHUNK ? size - off
                                                                           : KEY_ID_CHUNK));
            czk_sha256_update(&c, one, sizeof one);
        }
    }
    czk_sha256_final(&c, out);
}

/* ---- loader ----------------------------------------------------------------------------- */

/* Borrows n bytes at `off` when 8-byte aligned, else copies them into owned[slot]. */
static const uint8_t *borrow(struct czk_zkey *z, unsigned slot, uint64_t off, uint64_t n)
{
    const uint8_t *p = z->file.data + off;
    if (((uintptr_t)p & 7) == 0)
        return p;
    z->owned[slot] = czk_io_aligned_alloc(n);
    if (!z->owned[slot])
        return NULL;
    memcpy(z->owned[slot], p, n);
    return z->owned[slot];
}

enum { OWN_HEADER, OWN_COEFS, OWN_IC, OWN_A, OWN_B1, OWN_B2, OWN_C, OWN_H };

/* The point sections 3, 5-9 of a zkey whose header counts are known. */
struct point_section {
    uint32_t id;
    const char *what;
    uint64_t n;
    bool g2;
    unsigned slot;
    const void **dst;
};

static void point_sections(struct czk_zkey *z, struct point_section ps[6])
{
    ps[0] = (struct point_section){3, "IC", (uint64_t)z->n_public + 1, false, OWN_IC, &z->ic};
    ps[1] = (struct point_section){5, "A", z->n_vars, false, OWN_A, &z->a};
    ps[2] = (struct point_section){6, "B1", z->n_vars, false, OWN_B1, &z->b1};
    ps[3] = (struct point_section){7, "B2", z->n_vars, true, OWN_B2, &z->b2};
    ps[4] = (struct point_section){8, "C", (uint64_t)z->n_vars - z->n_public - 1, false, OWN_C,
                                   &z->c};
    ps[5] = (struct point_section){9, "H", z->domain_size, false, OWN_H, &z->h};
}

/*
 * The cheap part of the checks (file comment): sections 1-10 present once, protocol,
 * the header of section 2 (curve, counts, domain), the sizes of every section against
 * the counts, nCoefs. Fills the counts of z (curve, n8q, n8r, n_vars, n_public,
 * domain_size, lg_domain, n_coefs), s[1..10], *cvp and *hdr_off (file offset of the six
 * header points). Reads only the section table and sections 1, 2 and the start of 4.
 */
static enum czk_status zkey_header(struct czk_zkey *z, const struct czk_binfile *bf,
                                   const struct czk_bin_section *s[11],
                                   const struct czk_io_curve **cvp, uint64_t *hdr_off,
                                   const char *name, char *err, size_t errlen)
{
    struct czk_bin_cursor c;
    const struct czk_io_curve *cv;
    const uint8_t *p;
    uint32_t u, n8q, n8r;
    enum czk_status st;

    /* 1: protocol */
    if ((st = czk_binfile_find(bf, 1, true, &s[1], err, errlen)) != CZK_OK)
        return st;
    czk_bin_cursor_init(&c, bf, s[1]);
    if ((st = czk_bin_u32(&c, &u, "protocol id", err, errlen)) != CZK_OK)
        return st;
    if (u != 1)
        return czk_errf(CZK_ERR_UNSUPPORTED, err, errlen,
                        "%s: section 1 at offset %llu: protocol %u (%s), only Groth16 (1) is "
                        "supported",
                        name, (unsigned long long)s[1]->offset, u,
                        u == 2 ? "PLONK" : u == 10 ? "FFLONK" : "unknown");
    if ((st = czk_bin_end(&c, err, errlen)) != CZK_OK)
        return st;
    for (uint32_t id = 2; id <= 10; id++)
        if ((st = czk_binfile_find(bf, id, true, &s[id], err, errlen)) != CZK_OK)
            return st;

    /* 2: header */
    czk_bin_cursor_init(&c, bf, s[2]);
    if ((st = czk_bin_u32(&c, &n8q, "n8q", err, errlen)) != CZK_OK)
        return st;
    if (n8q != 32 && n8q != 48)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: n8q = %u, expected 32 (BN254) or 48 "
                        "(BLS12-381)",
                        name, (unsigned long long)s[2]->offset, n8q);
    if ((st = czk_bin_bytes(&c, &p, n8q, "q", err, errlen)) != CZK_OK)
        return st;
    if (!(cv = czk_io_curve_by_q(p, n8q)))
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: q is neither BN254's nor BLS12-381's base "
                        "field",
                        name, (unsigned long long)s[2]->offset + 4);
    if ((st = czk_bin_u32(&c, &n8r, "n8r", err, errlen)) != CZK_OK)
        return st;
    if (n8r != cv->n8r)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: n8r = %u, expected %u for %s", name,
                        (unsigned long long)czk_bin_offset(&c) - 4, n8r, cv->n8r, cv->name);
    if ((st = czk_bin_bytes(&c, &p, n8r, "r", err, errlen)) != CZK_OK)
        return st;
    if (czk_io_curve_by_r(p, n8r) != cv)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: r is not the scalar field of %s (the "
                        "curve of q)",
                        name, (unsigned long long)czk_bin_offset(&c) - n8r, cv->name);
    z->curve = cv->curve;
    z->n8q = n8q;
    z->n8r = n8r;
    if ((st = czk_bin_u32(&c, &z->n_vars, "nVars", err, errlen)) != CZK_OK ||
        (st = czk_bin_u32(&c, &z->n_public, "nPublic", err, errlen)) != CZK_OK ||
        (st = czk_bin_u32(&c, &z->domain_size, "domainSize", err, errlen)) != CZK_OK)
        return st;
    uint64_t counts_off = czk_bin_offset(&c) - 12;
    if ((uint64_t)z->n_public + 1 > z->n_vars)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: nVars = %u < nPublic + 1 = %llu", name,
                        (unsigned long long)counts_off, z->n_vars,
                        (unsigned long long)z->n_public + 1);
    unsigned s_adic = cv->curve == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_two_adicity()
                                                           : czk_fr_bls12_381_two_adicity();
    uint32_t d = z->domain_size;
    if (d == 0 || (d & (d - 1)) != 0 || d <= z->n_public)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: domainSize = %u is not a power of two > "
                        "nPublic = %u",
                        name, (unsigned long long)counts_off + 8, d, z->n_public);
    z->lg_domain = 0;
    while ((1u << z->lg_domain) < d)
        z->lg_domain++;
    if (z->lg_domain + 1 > s_adic)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 2 at offset %llu: domainSize = 2^%u is too large for %s "
                        "(2^%u at most)",
                        name, (unsigned long long)counts_off + 8, z->lg_domain, cv->name,
                        s_adic - 1);
    uint64_t hdr_pts = 3ull * cv->g1 + 3ull * cv->g2;
    *hdr_off = czk_bin_offset(&c);
    if ((st = czk_bin_bytes(&c, &p, hdr_pts, "header points", err, errlen)) != CZK_OK ||
        (st = czk_bin_end(&c, err, errlen)) != CZK_OK)
        return st;

    /* sections 3, 5-9: sizes */
    struct point_section ps[6];
    point_sections(z, ps);
    for (unsigned k = 0; k < 6; k++) {
        const struct czk_bin_section *sk = s[ps[k].id];
        uint64_t want = ps[k].n * (ps[k].g2 ? cv->g2 : cv->g1);
        if (sk->size != want)
            return czk_errf(CZK_ERR_FORMAT, err, errlen,
                            "%s: section %u (%s) at offset %llu: size %llu, expected %llu %s "
                            "points x %u bytes = %llu",
                            name, ps[k].id, ps[k].what, (unsigned long long)sk->offset,
                            (unsigned long long)sk->size, (unsigned long long)ps[k].n,
                            ps[k].g2 ? "G2" : "G1", ps[k].g2 ? cv->g2 : cv->g1,
                            (unsigned long long)want);
    }

    /* 4: coefficient count */
    czk_bin_cursor_init(&c, bf, s[4]);
    if ((st = czk_bin_u32(&c, &z->n_coefs, "nCoefs", err, errlen)) != CZK_OK)
        return st;
    if (czk_bin_left(&c) != (uint64_t)z->n_coefs * COEF_BYTES(n8r))
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "%s: section 4 at offset %llu: size %llu, expected 4 + %u coefficients x "
                        "%u bytes = %llu",
                        name, (unsigned long long)s[4]->offset, (unsigned long long)s[4]->size,
                        z->n_coefs, COEF_BYTES(n8r),
                        4 + (unsigned long long)z->n_coefs * COEF_BYTES(n8r));
    *cvp = cv;
    return CZK_OK;
}

static enum czk_status zkey_parse(struct czk_zkey *z, const char *name, unsigned flags,
                                  unsigned threads, char *err, size_t errlen)
{
    struct czk_binfile bf;
    const struct czk_bin_section *s[11];
    const struct czk_io_curve *cv = NULL;
    const uint8_t *p;
    uint64_t hdr_off = 0;
    enum czk_status st;

    st = czk_binfile_parse(&bf, name, z->file.data, z->file.size, "zkey", 1, 1, err, errlen);
    if (st != CZK_OK)
        return st;
    if ((st = zkey_header(z, &bf, s, &cv, &hdr_off, name, err, errlen)) != CZK_OK)
        goto out;
    uint32_t n8r = z->n8r;

    /* always copied: the header points are not 8-byte aligned in snarkjs files */
    uint64_t hdr_pts = 3ull * cv->g1 + 3ull * cv->g2;
    z->owned[OWN_HEADER] = czk_io_aligned_alloc(hdr_pts);
    if (!z->owned[OWN_HEADER])
        goto nomem;
    memcpy(z->owned[OWN_HEADER], z->file.data + hdr_off, hdr_pts);
    const uint8_t *hp = z->owned[OWN_HEADER];
    z->alpha1 = hp;
    z->beta1 = hp + cv->g1;
    z->beta2 = hp + 2ull * cv->g1;
    z->gamma2 = hp + 2ull * cv->g1 + cv->g2;
    z->delta1 = hp + 2ull * cv->g1 + 2ull * cv->g2;
    z->delta2 = hp + 3ull * cv->g1 + 2ull * cv->g2;
    struct point_section ps[6];
    point_sections(z, ps);

    /* 4: coefficients */
    struct czk_zkey_coef *coefs = czk_io_aligned_alloc((uint64_t)z->n_coefs * sizeof *coefs);
    if (!coefs)
        goto nomem;
    memset(coefs, 0, (size_t)z->n_coefs * sizeof *coefs); /* padding too: comparable bytes */
    z->owned[OWN_COEFS] = coefs;
    z->coefs = coefs;
    const uint64_t *rmod = cv->r();
    p = z->file.data + s[4]->offset + 4;
    for (uint32_t i = 0; i < z->n_coefs; i++, p += COEF_BYTES(n8r)) {
        struct czk_zkey_coef *e = &coefs[i];
        uint64_t off = (uint64_t)(p - z->file.data);
        e->matrix = czk_rd32(p);
        e->constraint = czk_rd32(p + 4);
        e->signal = czk_rd32(p + 8);
        for (unsigned l = 0; l < 4; l++)
            e->value[l] = czk_rd64(p + 12 + 8 * l);
        if (e->matrix > 1) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                          "%s: section 4: coefficient %u at offset %llu: matrix %u (0 = A, "
                          "1 = B expected)",
                          name, i, (unsigned long long)off, e->matrix);
            goto out;
        }
        if (e->constraint >= z->domain_size) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                          "%s: section 4: coefficient %u at offset %llu: constraint %u >= "
                          "domainSize %u",
                          name, i, (unsigned long long)off + 4, e->constraint, z->domain_size);
            goto out;
        }
        if (e->signal >= z->n_vars) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                          "%s: section 4: coefficient %u at offset %llu: signal %u >= nVars %u",
                          name, i, (unsigned long long)off + 8, e->signal, z->n_vars);
            goto out;
        }
        if (!czk_limbs_lt(e->value, rmod, 4)) {
            st = czk_errf(CZK_ERR_RANGE, err, errlen,
                          "%s: section 4: coefficient %u at offset %llu: value >= r", name, i,
                          (unsigned long long)off + 12);
            goto out;
        }
    }

    /* point sections: borrow or copy */
    struct point_array arr[MAX_ARRAYS];
    unsigned n_arr = 0;
    static const char *const hdr_name[6] = {"alpha1", "beta1", "beta2", "gamma2", "delta1",
                                            "delta2"};
    static const bool hdr_g2[6] = {false, false, true, true, false, true};
    const uint8_t *q = hp;
    for (unsigned k = 0; k < 6; k++) {
        arr[n_arr++] = (struct point_array){hdr_name[k], 2, hdr_g2[k], q, 1,
                                            hdr_off + (uint64_t)(q - hp)};
        q += hdr_g2[k] ? cv->g2 : cv->g1;
    }
    for (unsigned k = 0; k < 6; k++) {
        const struct czk_bin_section *sk = s[ps[k].id];
        const uint8_t *data = borrow(z, ps[k].slot, sk->offset, sk->size);
        if (!data)
            goto nomem;
        *ps[k].dst = data;
        arr[n_arr++] =
            (struct point_array){ps[k].what, ps[k].id, ps[k].g2, data, ps[k].n, sk->offset};
    }

    /* 10: contributions, kept as bytes */
    z->contributions = z->file.data + s[10]->offset;
    z->contributions_size = s[10]->size;

    /* hash and trust */
    bool want_sub = !(flags & CZK_IO_SKIP_SUBGROUP);
    if (want_sub || (flags & CZK_IO_FORCE_HASH)) {
        czk_zkey_id(z->hash, z->file.data, z->file.size, threads);
        z->has_hash = true;
    }
    z->subgroup = CZK_ZKEY_SUBGROUP_SKIPPED;
    if (want_sub) {
        if (trust_has(z->hash)) {
            z->subgroup = CZK_ZKEY_SUBGROUP_CACHED;
        } else if ((flags & CZK_IO_PERSIST_TRUST) && trust_file_has(z->hash)) {
            z->subgroup = CZK_ZKEY_SUBGROUP_TRUSTED_FILE;
            trust_add(z->hash);
        } else {
            z->subgroup = CZK_ZKEY_SUBGROUP_CHECKED;
        }
    }
    bool sub = z->subgroup == CZK_ZKEY_SUBGROUP_CHECKED;
    st = check_points(name, cv, arr, n_arr, sub, threads, err, errlen);
    if (st != CZK_OK)
        goto out;
    if (sub) {
        trust_add(z->hash);
        if (flags & CZK_IO_PERSIST_TRUST)
            trust_file_add(z->hash);
    }
    st = CZK_OK;
    goto out;
nomem:
    st = czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory", name);
out:
    czk_binfile_free(&bf);
    return st;
}

enum czk_status czk_zkey_load(struct czk_zkey *z, const char *path, unsigned flags,
                              unsigned threads, char *err, size_t errlen)
{
    enum czk_status st;
    if (!z || !path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(z, 0, sizeof *z);
    st = czk_mapped_file_open(&z->file, path, err, errlen);
    if (st == CZK_OK)
        st = zkey_parse(z, path, flags, threads, err, errlen);
    if (st != CZK_OK)
        czk_zkey_free(z);
    return st;
}

enum czk_status czk_zkey_load_mem(struct czk_zkey *z, const void *data, size_t size,
                                  const char *name, unsigned flags, unsigned threads, char *err,
                                  size_t errlen)
{
    enum czk_status st;
    if (!z || (!data && size))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(z, 0, sizeof *z);
    z->file.data = data;
    z->file.size = size;
    st = zkey_parse(z, name ? name : "zkey", flags, threads, err, errlen);
    if (st != CZK_OK)
        czk_zkey_free(z);
    return st;
}

enum czk_status czk_zkey_peek(struct czk_zkey_info *info, const char *path, char *err,
                              size_t errlen)
{
    struct czk_zkey z;
    struct czk_binfile bf;
    const struct czk_bin_section *s[11];
    const struct czk_io_curve *cv = NULL;
    uint64_t hdr_off = 0;

    if (!info || !path)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    memset(&z, 0, sizeof z);
    enum czk_status st = czk_mapped_file_open(&z.file, path, err, errlen);
    if (st != CZK_OK)
        return st;
    st = czk_binfile_parse(&bf, path, z.file.data, z.file.size, "zkey", 1, 1, err, errlen);
    bool parsed = st == CZK_OK;
    if (parsed)
        st = zkey_header(&z, &bf, s, &cv, &hdr_off, path, err, errlen);
    if (st == CZK_OK) { /* s[] points into bf: freed below */
        memset(info, 0, sizeof *info);
        info->curve = z.curve;
        info->n8q = z.n8q;
        info->n8r = z.n8r;
        info->n_vars = z.n_vars;
        info->n_public = z.n_public;
        info->domain_size = z.domain_size;
        info->lg_domain = z.lg_domain;
        info->n_coefs = z.n_coefs;
        info->file_size = z.file.size;
        /* what zkey_parse allocates: header points, decoded coefficients, and a copy of
         * each point section that is not 8-byte aligned in the (page-aligned) mapping */
        info->heap_bytes = 3ull * cv->g1 + 3ull * cv->g2 +
                           (uint64_t)z.n_coefs * sizeof(struct czk_zkey_coef);
        struct point_section ps[6];
        point_sections(&z, ps);
        for (unsigned k = 0; k < 6; k++) {
            uint64_t g = ps[k].g2 ? cv->g2 : cv->g1;
            info->point_bytes += ps[k].n * g;
            if (s[ps[k].id]->offset & 7)
                info->heap_bytes += s[ps[k].id]->size;
        }
    }
    if (parsed)
        czk_binfile_free(&bf);
    czk_mapped_file_close(&z.file);
    return st;
}

void czk_zkey_free(struct czk_zkey *z)
{
    if (!z)
        return;
    for (unsigned i = 0; i < 8; i++)
        free(z->owned[i]);
    czk_mapped_file_close(&z->file);
    memset(z, 0, sizeof *z);
}

/* ---- consistency with the r1cs ---------------------------------------------------------- */

struct coef_key {
    uint32_t matrix, constraint, signal;
    uint64_t value[4]; /* canonical c*R mod r, i.e. the r1cs's Montgomery limbs */
};

static int coef_key_cmp(const void *pa, const void *pb)
{
    const struct coef_key *a = pa, *b = pb;
    if (a->matrix != b->matrix)
        return a->matrix < b->matrix ? -1 : 1;
    if (a->constraint != b->constraint)
        return a->constraint < b->constraint ? -1 : 1;
    if (a->signal != b->signal)
        return a->signal < b->signal ? -1 : 1;
    for (unsigned l = 4; l-- > 0;)
        if (a->value[l] != b->value[l])
            return a->value[l] < b->value[l] ? -1 : 1;
    return 0;
}

enum czk_status czk_zkey_check_r1cs(const struct czk_zkey *z, const struct czk_r1cs *r,
                                    char *err, size_t errlen)
{
    struct coef_key *zk = NULL, *rk = NULL;
    uint8_t *ic_seen = NULL;
    enum czk_status st = CZK_OK;

    if (!z || !r)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    if (z->curve != r->curve)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "zkey is for %s, r1cs for %s",
                        czk_groth16_curve_name(z->curve), czk_groth16_curve_name(r->curve));
    if (z->n_vars != r->n_wires)
        return czk_errf(CZK_ERR_FORMAT, err, errlen, "zkey has %u signals, r1cs %u wires",
                        z->n_vars, r->n_wires);
    if ((uint64_t)z->n_public != (uint64_t)r->n_pub_out + r->n_pub_in)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "zkey has %u public signals, r1cs %u outputs + %u public inputs",
                        z->n_public, r->n_pub_out, r->n_pub_in);
    uint64_t m = r->n_constraints;
    if ((uint64_t)z->domain_size < m + z->n_public + 1)
        return czk_errf(CZK_ERR_FORMAT, err, errlen,
                        "zkey domain %u < %llu constraints + %u public + 1", z->domain_size,
                        (unsigned long long)m, z->n_public);

    uint64_t nr = r->m[0].nnz + r->m[1].nnz, nz = 0;
    zk = malloc((z->n_coefs ? z->n_coefs : 1) * sizeof *zk);
    rk = malloc((nr ? nr : 1) * sizeof *rk);
    ic_seen = calloc((size_t)z->n_public + 1, 1);
    if (!zk || !rk || !ic_seen) {
        st = czk_errf(CZK_ERR_NOMEM, err, errlen, "out of memory");
        goto out;
    }
    uint64_t one[4];
    {
        const uint64_t c1[4] = {1, 0, 0, 0};
        czk_io_fr_from_canonical(z->curve, one, c1);
    }
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const struct czk_zkey_coef *e = &z->coefs[i];
        uint64_t v[4];
        czk_io_fr_to_canonical(z->curve, v, e->value);
        if (e->constraint >= m) {
            uint64_t s = e->constraint - m;
            if (e->matrix != 0 || s > z->n_public || e->signal != s ||
                memcmp(v, one, sizeof v) != 0 || ic_seen[s]) {
                st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                              "zkey coefficient %u (matrix %u, constraint %u, signal %u) is not "
                              "one of the public-input rows",
                              i, e->matrix, e->constraint, e->signal);
                goto out;
            }
            ic_seen[s] = 1;
            continue;
        }
        zk[nz].matrix = e->matrix;
        zk[nz].constraint = e->constraint;
        zk[nz].signal = e->signal;
        memcpy(zk[nz].value, v, sizeof v);
        nz++;
    }
    for (uint32_t s = 0; s <= z->n_public; s++)
        if (!ic_seen[s]) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                          "zkey lacks the public-input row of signal %u", s);
            goto out;
        }
    uint64_t k = 0;
    for (unsigned mat = 0; mat < 2; mat++)
        for (uint32_t i = 0; i < r->n_constraints; i++)
            for (uint64_t j = r->m[mat].row_ptr[i]; j < r->m[mat].row_ptr[i + 1]; j++, k++) {
                rk[k].matrix = mat;
                rk[k].constraint = i;
                rk[k].signal = r->m[mat].col[j];
                memcpy(rk[k].value, r->m[mat].val[j], sizeof rk[k].value);
            }
    if (nz != nr) {
        st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                      "zkey has %llu A/B coefficients, the r1cs %llu terms",
                      (unsigned long long)nz, (unsigned long long)nr);
        goto out;
    }
    qsort(zk, nz, sizeof *zk, coef_key_cmp);
    qsort(rk, nr, sizeof *rk, coef_key_cmp);
    for (uint64_t i = 0; i < nz; i++)
        if (coef_key_cmp(&zk[i], &rk[i]) != 0) {
            st = czk_errf(CZK_ERR_FORMAT, err, errlen,
                          "zkey coefficient (matrix %u, constraint %u, signal %u) differs from "
                          "the r1cs",
                          zk[i].matrix, zk[i].constraint, zk[i].signal);
            goto out;
        }
out:
    free(zk);
    free(rk);
    free(ic_seen);
    return st;
}

/* ---- writer ----------------------------------------------------------------------------- */

enum czk_status czk_zkey_write(const char *path, const struct czk_zkey *z, char *err,
                               size_t errlen)
{
    const struct czk_io_curve *cv;
    struct czk_bin_writer w;
    enum czk_status st;

    if (!path || !z)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "NULL argument");
    if (!(cv = czk_io_curve_get(z->curve)))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: no curve", path);
    if ((z->n8q && z->n8q != cv->n8q) || (z->n8r && z->n8r != cv->n8r))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: n8q/n8r do not match %s", path,
                        cv->name);
    uint32_t d = z->domain_size;
    if ((uint64_t)z->n_public + 1 > z->n_vars || d == 0 || (d & (d - 1)) || d <= z->n_public)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "%s: inconsistent counts (nVars %u, nPublic %u, domainSize %u)", path,
                        z->n_vars, z->n_public, d);
    uint64_t n_c = (uint64_t)z->n_vars - z->n_public - 1;
    if (!z->alpha1 || !z->beta1 || !z->beta2 || !z->gamma2 || !z->delta1 || !z->delta2 ||
        !z->ic || !z->a || !z->b1 || !z->b2 || !z->h || (n_c && !z->c) ||
        (z->n_coefs && !z->coefs) || (z->contributions_size && !z->contributions))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: NULL section data", path);
    const uint64_t *rmod = cv->r();
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const struct czk_zkey_coef *e = &z->coefs[i];
        if (e->matrix > 1 || e->constraint >= d || e->signal >= z->n_vars ||
            !czk_limbs_lt(e->value, rmod, 4))
            return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "%s: coefficient %u is invalid",
                            path, i);
    }

    uint64_t g1 = cv->g1, g2 = cv->g2;
    st = czk_binw_open(&w, path, "zkey", 1, 10, err, errlen);
    if (st != CZK_OK)
        return st;
    czk_binw_section(&w, 1, 4);
    czk_binw_u32(&w, 1);
    czk_binw_section(&w, 2, 4 + cv->n8q + 4 + cv->n8r + 12 + 3 * g1 + 3 * g2);
    czk_binw_u32(&w, cv->n8q);
    for (unsigned l = 0; l < cv->n8q / 8; l++)
        czk_binw_u64(&w, cv->q()[l]);
    czk_binw_u32(&w, cv->n8r);
    for (unsigned l = 0; l < cv->n8r / 8; l++)
        czk_binw_u64(&w, rmod[l]);
    czk_binw_u32(&w, z->n_vars);
    czk_binw_u32(&w, z->n_public);
    czk_binw_u32(&w, d);
    czk_binw_bytes(&w, z->alpha1, g1);
    czk_binw_bytes(&w, z->beta1, g1);
    czk_binw_bytes(&w, z->beta2, g2);
    czk_binw_bytes(&w, z->gamma2, g2);
    czk_binw_bytes(&w, z->delta1, g1);
    czk_binw_bytes(&w, z->delta2, g2);
    czk_binw_section(&w, 3, ((uint64_t)z->n_public + 1) * g1);
    czk_binw_bytes(&w, z->ic, ((uint64_t)z->n_public + 1) * g1);
    czk_binw_section(&w, 4, 4 + (uint64_t)z->n_coefs * COEF_BYTES(cv->n8r));
    czk_binw_u32(&w, z->n_coefs);
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        uint8_t b[44];
        const struct czk_zkey_coef *e = &z->coefs[i];
        czk_wr32(b, e->matrix);
        czk_wr32(b + 4, e->constraint);
        czk_wr32(b + 8, e->signal);
        for (unsigned l = 0; l < 4; l++)
            czk_wr64(b + 12 + 8 * l, e->value[l]);
        czk_binw_bytes(&w, b, sizeof b);
    }
    czk_binw_section(&w, 5, z->n_vars * g1);
    czk_binw_bytes(&w, z->a, z->n_vars * g1);
    czk_binw_section(&w, 6, z->n_vars * g1);
    czk_binw_bytes(&w, z->b1, z->n_vars * g1);
    czk_binw_section(&w, 7, z->n_vars * g2);
    czk_binw_bytes(&w, z->b2, z->n_vars * g2);
    czk_binw_section(&w, 8, n_c * g1);
    czk_binw_bytes(&w, z->c, n_c * g1);
    czk_binw_section(&w, 9, (uint64_t)d * g1);
    czk_binw_bytes(&w, z->h, (uint64_t)d * g1);
    if (z->contributions) {
        czk_binw_section(&w, 10, z->contributions_size);
        czk_binw_bytes(&w, z->contributions, z->contributions_size);
    } else {
        static const uint8_t empty[68]; /* csHash (64 zero bytes), 0 contributions */
        czk_binw_section(&w, 10, sizeof empty);
        czk_binw_bytes(&w, empty, sizeof empty);
    }
    return czk_binw_close(&w, err, errlen);
}
