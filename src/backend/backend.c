/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Backend registry, device selection and the dispatch layer of czk_backend.h.
 *
 * The registry is built once (pthread_once) on the first call: "cpu" always, then
 * "cuda" when the build has the CUDA backend (CZK_USE_CUDA and src/cuda/backend_cuda.h)
 * and its probe finds a usable GPU. Every public op is checked here (curve, sizes,
 * buffer/device match) and then goes to the backend's slot when the slot is set and the
 * device supports the op; otherwise it runs on the CPU kernels (czk_cpu_*) over host
 * views of the buffers — direct pointers for host-memory devices, temporary copies
 * otherwise. Optional buffer slots get their defaults here too.
 *
 * Threading: the registry is immutable after initialization. Dispatch functions keep no
 * state; a backend is used by one thread at a time (czk_backend.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_impl.h"
#include "core/parallel.h"
#include "io/formats.h"

#if defined(CZK_USE_CUDA) && defined(__has_include)
#if __has_include("cuda/backend_cuda.h")
#include "cuda/backend_cuda.h" /* czk_backend_reg_t czk_backend_cuda_reg(void) */
#define CZK_REGISTER_CUDA 1
#endif
#endif

#define REG_MAX 4

static czk_backend_reg_t g_regs[REG_MAX];
static size_t g_nregs;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void reg_add(czk_backend_reg_t reg)
{
    if (reg && reg->api_version == CZK_BACKEND_API_VERSION && g_nregs < REG_MAX)
        g_regs[g_nregs++] = reg;
}

static void registry_init(void)
{
    reg_add(czk_backend_cpu_reg());
#ifdef CZK_REGISTER_CUDA
    reg_add(czk_backend_cuda_reg());
#endif
}

static void registry(void) { pthread_once(&g_once, registry_init); }

size_t czk_backend_reg_count(void)
{
    registry();
    return g_nregs;
}

czk_backend_reg_t czk_backend_reg_get(size_t i)
{
    registry();
    return i < g_nregs ? g_regs[i] : NULL;
}

const char *czk_backend_reg_name(czk_backend_reg_t reg)
{
    return reg ? reg->iface.get_name(reg) : "none";
}

czk_backend_reg_t czk_backend_reg_by_name(const char *name)
{
    registry();
    for (size_t i = 0; name && i < g_nregs; i++)
        if (!strcmp(czk_backend_reg_name(g_regs[i]), name))
            return g_regs[i];
    return NULL;
}

size_t czk_backend_reg_device_count(czk_backend_reg_t reg)
{
    return reg ? reg->iface.device_count(reg) : 0;
}

czk_device_t czk_backend_reg_device_get(czk_backend_reg_t reg, size_t i)
{
    return reg && i < czk_backend_reg_device_count(reg) ? reg->iface.device_get(reg, i) : NULL;
}

static void put_dev(czk_device_t *devs, size_t cap, size_t *n, czk_device_t d)
{
    if (*n < cap)
        devs[*n] = d;
    (*n)++;
}

enum czk_status czk_backend_select(const char *spec, czk_device_t *devs, size_t cap, size_t *n,
                                   char *err, size_t errlen)
{
    if (!n || (cap && !devs))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "backend: NULL argument");
    registry();
    size_t k = 0;
    if (!spec || !*spec || !strcmp(spec, "auto")) {
        for (size_t r = 0; r < g_nregs; r++) {
            size_t nd = czk_backend_reg_device_count(g_regs[r]);
            for (size_t i = 0; i < nd; i++) {
                czk_device_t d = czk_backend_reg_device_get(g_regs[r], i);
                struct czk_device_props p;
                czk_device_get_props(d, &p);
                if (p.type == CZK_DEVICE_TYPE_GPU)
                    put_dev(devs, cap, &k, d);
            }
        }
        if (k == 0)
            put_dev(devs, cap, &k, czk_backend_reg_device_get(czk_backend_cpu_reg(), 0));
    } else if (!strcmp(spec, "cpu")) {
        put_dev(devs, cap, &k, czk_backend_reg_device_get(czk_backend_cpu_reg(), 0));
    } else if (!strcmp(spec, "cuda")) {
        czk_backend_reg_t reg = czk_backend_reg_by_name("cuda");
        size_t nd = czk_backend_reg_device_count(reg);
        if (nd == 0) {
#ifdef CZK_REGISTER_CUDA
            return czk_errf(CZK_ERR_UNSUPPORTED, err, errlen,
                            "backend cuda: no usable CUDA GPU was found");
#else
            return czk_errf(CZK_ERR_UNSUPPORTED, err, errlen,
                            "backend cuda: this build of czk has no CUDA backend");
#endif
        }
        for (size_t i = 0; i < nd; i++)
            put_dev(devs, cap, &k, czk_backend_reg_device_get(reg, i));
    } else {
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen,
                        "backend: unknown backend '%s' (expected auto, cpu or cuda)", spec);
    }
    *n = k;
    return CZK_OK;
}

enum czk_status czk_backend_init_by_name(czk_backend_t *out, const char *spec, unsigned threads,
                                         char *err, size_t errlen)
{
    czk_device_t dev = NULL;
    size_t n = 0;
    enum czk_status st = czk_backend_select(spec, &dev, 1, &n, err, errlen);
    if (st != CZK_OK)
        return st;
    return czk_backend_new(dev, threads, out, err, errlen);
}

/* ---- devices ------------------------------------------------------------------ */

const char *czk_device_name(czk_device_t dev) { return dev ? dev->iface.get_name(dev) : "none"; }

void czk_device_get_props(czk_device_t dev, struct czk_device_props *props)
{
    memset(props, 0, sizeof *props);
    if (dev)
        dev->iface.get_props(dev, props);
}

static bool curve_ok(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 || c == CZK_GROTH16_CURVE_BLS12_381;
}

static unsigned two_adicity(enum czk_groth16_curve c)
{
    return c == CZK_GROTH16_CURVE_BN254 ? czk_fr_bn254_two_adicity()
                                        : czk_fr_bls12_381_two_adicity();
}

bool czk_device_supports(czk_device_t dev, enum czk_groth16_curve curve, enum czk_backend_op op,
                         unsigned lg_n)
{
    if (!dev || !curve_ok(curve))
        return false;
    return dev->iface.supports ? dev->iface.supports(dev, curve, op, lg_n) : true;
}

void *czk_device_host_alloc(czk_device_t dev, size_t size)
{
    if (dev && dev->iface.host_alloc)
        return dev->iface.host_alloc(dev, size);
    return malloc(size ? size : 1);
}

void czk_device_host_free(czk_device_t dev, void *ptr)
{
    if (!ptr)
        return;
    if (dev && dev->iface.host_free)
        dev->iface.host_free(dev, ptr);
    else
        free(ptr);
}

uint64_t czk_device_msm_scratch(czk_device_t dev, enum czk_groth16_curve curve, unsigned group,
                                size_t n)
{
    if (!dev || !curve_ok(curve) || (group != 1 && group != 2) || !dev->iface.msm_scratch)
        return 0;
    return dev->iface.msm_scratch(dev, curve, group, n);
}

/* ---- backends ----------------------------------------------------------------- */

enum czk_status czk_backend_new(czk_device_t dev, unsigned threads, czk_backend_t *out, char *err,
                                size_t errlen)
{
    if (!dev || !out)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "backend: NULL argument");
    czk_backend_t be = calloc(1, sizeof *be);
    if (!be)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "backend: out of memory");
    be->device = dev;
    be->threads = czk_threads_resolve(threads);
    enum czk_status st = dev->iface.backend_new(dev, be, err, errlen);
    if (st != CZK_OK) {
        free(be);
        return st;
    }
    *out = be;
    return CZK_OK;
}

void czk_backend_free(czk_backend_t be)
{
    if (!be)
        return;
    be->iface.synchronize(be);
    if (be->iface.free)
        be->iface.free(be);
    free(be);
}

czk_device_t czk_backend_get_device(czk_backend_t be) { return be ? be->device : NULL; }

void czk_backend_set_scratch_budget(czk_backend_t be, struct czk_budget *budget)
{
    if (be)
        be->scratch_budget = budget;
}

const char *czk_backend_name(czk_backend_t be) { return be ? czk_device_name(be->device) : "none"; }

unsigned czk_backend_threads(czk_backend_t be) { return be ? be->threads : 1; }

enum czk_status czk_backend_synchronize(czk_backend_t be)
{
    if (!be)
        return CZK_ERR_INVALID_ARG;
    return be->iface.synchronize(be);
}

/* ---- buffers ------------------------------------------------------------------ */

enum czk_status czk_buf_alloc(czk_device_t dev, size_t size, czk_buf_t *out)
{
    if (!dev || !out || size == 0)
        return CZK_ERR_INVALID_ARG;
    czk_buf_t b = calloc(1, sizeof *b);
    if (!b)
        return CZK_ERR_NOMEM;
    b->device = dev;
    b->size = size;
    enum czk_status st = dev->iface.buf_alloc(dev, size, &b->ptr);
    if (st != CZK_OK) {
        free(b);
        return st;
    }
    *out = b;
    return CZK_OK;
}

enum czk_status czk_buf_from_host(czk_backend_t be, const void *host, size_t size, czk_buf_t *out)
{
    if (!be || !out || !host || size == 0)
        return CZK_ERR_INVALID_ARG;
    czk_device_t dev = be->device;
    enum czk_status st;
    czk_buf_t b = calloc(1, sizeof *b);
    if (!b)
        return CZK_ERR_NOMEM;
    b->device = dev;
    b->size = size;
    if (be->iface.buf_from_host) {
        st = be->iface.buf_from_host(be, b, host);
    } else if (dev->host_memory) {
        b->ptr = (void *)host; /* borrowed, read-only by contract */
        b->borrowed = true;
        st = CZK_OK;
    } else {
        st = dev->iface.buf_alloc(dev, size, &b->ptr);
        if (st == CZK_OK) {
            st = be->iface.buf_set(be, b, 0, host, size);
            if (st != CZK_OK)
                dev->iface.buf_free(dev, b->ptr);
        }
    }
    if (st != CZK_OK) {
        free(b);
        return st;
    }
    *out = b;
    return CZK_OK;
}

void czk_buf_free(czk_buf_t buf)
{
    if (!buf)
        return;
    if (!buf->borrowed && buf->ptr)
        buf->device->iface.buf_free(buf->device, buf->ptr);
    free(buf);
}

size_t czk_buf_size(czk_buf_t buf) { return buf ? buf->size : 0; }

void *czk_buf_host_ptr(czk_buf_t buf) { return buf && buf->device->host_memory ? buf->ptr : NULL; }

static bool range_ok(czk_backend_t be, czk_buf_t buf, size_t off, const void *host, size_t size)
{
    return be && buf && host && buf->device == be->device && off <= buf->size &&
           size <= buf->size - off;
}

enum czk_status czk_buf_set(czk_backend_t be, czk_buf_t buf, size_t offset, const void *src,
                            size_t size)
{
    if (!range_ok(be, buf, offset, src, size))
        return CZK_ERR_INVALID_ARG;
    return size ? be->iface.buf_set(be, buf, offset, src, size) : CZK_OK;
}

enum czk_status czk_buf_get(czk_backend_t be, czk_buf_t buf, size_t offset, void *dst, size_t size)
{
    if (!range_ok(be, buf, offset, dst, size))
        return CZK_ERR_INVALID_ARG;
    return size ? be->iface.buf_get(be, buf, offset, dst, size) : CZK_OK;
}

enum czk_status czk_buf_set_async(czk_backend_t be, czk_buf_t buf, size_t offset, const void *src,
                                  size_t size)
{
    if (!range_ok(be, buf, offset, src, size))
        return CZK_ERR_INVALID_ARG;
    if (!size)
        return CZK_OK;
    return be->iface.buf_set_async ? be->iface.buf_set_async(be, buf, offset, src, size)
                                   : be->iface.buf_set(be, buf, offset, src, size);
}

enum czk_status czk_buf_get_async(czk_backend_t be, czk_buf_t buf, size_t offset, void *dst,
                                  size_t size)
{
    if (!range_ok(be, buf, offset, dst, size))
        return CZK_ERR_INVALID_ARG;
    if (!size)
        return CZK_OK;
    return be->iface.buf_get_async ? be->iface.buf_get_async(be, buf, offset, dst, size)
                                   : be->iface.buf_get(be, buf, offset, dst, size);
}

/* ---- host views for the CPU fallback ------------------------------------------- */

struct hview {
    czk_buf_t buf;
    void *p;
    size_t size;
    bool tmp;
};

/* A host pointer to the first `size` bytes of buf (read = fetch the contents). */
static enum czk_status view_open(czk_backend_t be, struct hview *v, czk_buf_t buf, size_t size,
                                 bool read)
{
    v->buf = buf;
    v->size = size;
    v->tmp = false;
    v->p = NULL;
    if (size == 0)
        return CZK_OK;
    if (buf->device->host_memory) {
        v->p = buf->ptr;
        return CZK_OK;
    }
    v->p = malloc(size);
    if (!v->p)
        return CZK_ERR_NOMEM;
    v->tmp = true;
    if (read) {
        enum czk_status st = be->iface.buf_get(be, buf, 0, v->p, size);
        if (st != CZK_OK) {
            free(v->p);
            v->p = NULL;
            v->tmp = false;
            return st;
        }
    }
    return CZK_OK;
}

/* Write back (when `write` and the view was a copy) and release. */
static enum czk_status view_close(czk_backend_t be, struct hview *v, bool write)
{
    enum czk_status st = CZK_OK;
    if (v->tmp) {
        if (write)
            st = be->iface.buf_set(be, v->buf, 0, v->p, v->size);
        free(v->p);
    }
    v->p = NULL;
    v->tmp = false;
    return st;
}

static enum czk_status fallback_prepare(czk_backend_t be)
{
    /* Device work may still be queued on be when a CPU kernel is about to read. */
    return be->device->host_memory ? CZK_OK : be->iface.synchronize(be);
}

static bool use_slot(czk_backend_t be, bool has_slot, enum czk_groth16_curve curve,
                     enum czk_backend_op op, unsigned lg_n)
{
    return has_slot && czk_device_supports(be->device, curve, op, lg_n);
}

static bool buf_ok(czk_backend_t be, czk_buf_t b, size_t need)
{
    return b && b->device == be->device && b->size >= need;
}

static unsigned lg_ceil(size_t n)
{
    unsigned k = 0;
    while (k < 63 && ((size_t)1 << k) < n)
        k++;
    return k;
}

/* ---- operations ----------------------------------------------------------------- */

#define FR_BYTES 32u

enum czk_status czk_backend_ntt(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t data,
                                unsigned lg_n, enum czk_backend_dir dir,
                                enum czk_ntt_convention conv, const uint64_t shift[4])
{
    if (!be || !curve_ok(curve) || lg_n > two_adicity(curve) ||
        !buf_ok(be, data, (size_t)FR_BYTES << lg_n) ||
        (dir != CZK_BACKEND_FORWARD && dir != CZK_BACKEND_INVERSE))
        return CZK_ERR_INVALID_ARG;
    if (use_slot(be, be->iface.ntt != NULL, curve, CZK_BACKEND_OP_NTT, lg_n))
        return be->iface.ntt(be, curve, data, lg_n, dir, conv, shift);
    struct hview v = {0};
    enum czk_status st = fallback_prepare(be);
    if (st == CZK_OK)
        st = view_open(be, &v, data, (size_t)FR_BYTES << lg_n, true);
    if (st != CZK_OK)
        return st;
    st = czk_cpu_ntt(curve, v.p, lg_n, dir, conv, shift, be->threads);
    enum czk_status st2 = view_close(be, &v, st == CZK_OK);
    return st != CZK_OK ? st : st2;
}

static size_t point_bytes(enum czk_groth16_curve curve, unsigned group)
{
    if (curve == CZK_GROTH16_CURVE_BN254)
        return group == 1 ? sizeof(struct czk_g1_bn254_affine) : sizeof(struct czk_g2_bn254_affine);
    return group == 1 ? sizeof(struct czk_g1_bls12_381_affine)
                      : sizeof(struct czk_g2_bls12_381_affine);
}

static enum czk_status backend_msm(czk_backend_t be, enum czk_groth16_curve curve, unsigned group,
                                   czk_buf_t bases, czk_buf_t scalars, size_t scalar_off, size_t n,
                                   void *out)
{
    if (!be || !curve_ok(curve) || !out || !bases || !scalars)
        return CZK_ERR_INVALID_ARG;
    size_t pb = point_bytes(curve, group);
    if (n > SIZE_MAX / pb || scalar_off > SIZE_MAX / FR_BYTES - n || !buf_ok(be, bases, n * pb) ||
        !buf_ok(be, scalars, (scalar_off + n) * FR_BYTES))
        return CZK_ERR_INVALID_ARG;
    enum czk_backend_op op = group == 1 ? CZK_BACKEND_OP_MSM_G1 : CZK_BACKEND_OP_MSM_G2;
    if (use_slot(be, be->iface.msm != NULL, curve, op, lg_ceil(n)))
        return be->iface.msm(be, curve, group, bases, scalars, scalar_off, n, out);
    struct hview vb = {0}, vs = {0};
    enum czk_status st = fallback_prepare(be);
    if (st != CZK_OK)
        return st;
    st = view_open(be, &vb, bases, n * pb, true);
    if (st != CZK_OK)
        return st;
    st = view_open(be, &vs, scalars, (scalar_off + n) * FR_BYTES, true);
    if (st == CZK_OK) {
        const uint64_t(*s)[4] = vs.p ? (const uint64_t(*)[4])vs.p + scalar_off : NULL;
        st = czk_cpu_msm(curve, group, vb.p, s, n, out, be->threads);
        view_close(be, &vs, false);
    }
    view_close(be, &vb, false);
    return st;
}

enum czk_status czk_backend_msm_g1(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t bases,
                                   czk_buf_t scalars, size_t scalar_off, size_t n, void *out)
{
    return backend_msm(be, curve, 1, bases, scalars, scalar_off, n, out);
}

enum czk_status czk_backend_msm_g2(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t bases,
                                   czk_buf_t scalars, size_t scalar_off, size_t n, void *out)
{
    return backend_msm(be, curve, 2, bases, scalars, scalar_off, n, out);
}

enum czk_status czk_backend_sparse_eval(czk_backend_t be, enum czk_groth16_curve curve,
                                        const struct czk_csr *A, const struct czk_csr *B,
                                        czk_buf_t w, czk_buf_t a, czk_buf_t b, czk_buf_t c)
{
    if (!be || !curve_ok(curve) || !A || !B || A->n_rows != B->n_rows || A->n_cols != B->n_cols)
        return CZK_ERR_INVALID_ARG;
    size_t rows = (size_t)A->n_rows * FR_BYTES, cols = (size_t)A->n_cols * FR_BYTES;
    if (!buf_ok(be, w, cols) || !buf_ok(be, a, rows) || !buf_ok(be, b, rows) ||
        !buf_ok(be, c, rows))
        return CZK_ERR_INVALID_ARG;
    if (use_slot(be, be->iface.sparse_eval != NULL, curve, CZK_BACKEND_OP_SPARSE_EVAL,
                 lg_ceil(A->n_rows)))
        return be->iface.sparse_eval(be, curve, A, B, w, a, b, c);
    struct hview vw = {0}, va = {0}, vb = {0}, vc = {0};
    bool ow = false, oa = false, ob = false, oc = false;
    enum czk_status st = fallback_prepare(be);
    if (st == CZK_OK && (st = view_open(be, &vw, w, cols, true)) == CZK_OK)
        ow = true;
    if (st == CZK_OK && (st = view_open(be, &va, a, rows, false)) == CZK_OK)
        oa = true;
    if (st == CZK_OK && (st = view_open(be, &vb, b, rows, false)) == CZK_OK)
        ob = true;
    if (st == CZK_OK && (st = view_open(be, &vc, c, rows, false)) == CZK_OK)
        oc = true;
    if (st == CZK_OK)
        st = czk_cpu_sparse_eval(curve, A, B, vw.p, va.p, vb.p, vc.p, be->threads);
    bool wr = st == CZK_OK;
    enum czk_status s2 = CZK_OK, s3;
    if (oc && (s3 = view_close(be, &vc, wr)) != CZK_OK)
        s2 = s3;
    if (ob && (s3 = view_close(be, &vb, wr)) != CZK_OK)
        s2 = s3;
    if (oa && (s3 = view_close(be, &va, wr)) != CZK_OK)
        s2 = s3;
    if (ow)
        view_close(be, &vw, false);
    return st != CZK_OK ? st : s2;
}

enum czk_status czk_backend_quotient(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t a,
                                     czk_buf_t b, czk_buf_t c, size_t n, const uint64_t zinv[4])
{
    if (!be || !curve_ok(curve) || n > SIZE_MAX / FR_BYTES)
        return CZK_ERR_INVALID_ARG;
    size_t sz = n * FR_BYTES;
    if (!buf_ok(be, a, sz) || !buf_ok(be, b, sz) || !buf_ok(be, c, sz))
        return CZK_ERR_INVALID_ARG;
    if (use_slot(be, be->iface.quotient != NULL, curve, CZK_BACKEND_OP_QUOTIENT, lg_ceil(n)))
        return be->iface.quotient(be, curve, a, b, c, n, zinv);
    struct hview va = {0}, vb = {0}, vc = {0};
    enum czk_status st = fallback_prepare(be);
    if (st != CZK_OK || (st = view_open(be, &va, a, sz, true)) != CZK_OK)
        return st;
    if ((st = view_open(be, &vb, b, sz, true)) != CZK_OK) {
        view_close(be, &va, false);
        return st;
    }
    if ((st = view_open(be, &vc, c, sz, true)) != CZK_OK) {
        view_close(be, &vb, false);
        view_close(be, &va, false);
        return st;
    }
    czk_cpu_quotient(curve, va.p, vb.p, vc.p, n, zinv, be->threads);
    view_close(be, &vc, false);
    view_close(be, &vb, false);
    return view_close(be, &va, true);
}

enum czk_status czk_backend_to_canonical(czk_backend_t be, enum czk_groth16_curve curve,
                                         czk_buf_t data, size_t n)
{
    if (!be || !curve_ok(curve) || n > SIZE_MAX / FR_BYTES || !buf_ok(be, data, n * FR_BYTES))
        return CZK_ERR_INVALID_ARG;
    if (use_slot(be, be->iface.to_canonical != NULL, curve, CZK_BACKEND_OP_TO_CANONICAL,
                 lg_ceil(n)))
        return be->iface.to_canonical(be, curve, data, n);
    struct hview v = {0};
    enum czk_status st = fallback_prepare(be);
    if (st != CZK_OK || (st = view_open(be, &v, data, n * FR_BYTES, true)) != CZK_OK)
        return st;
    czk_cpu_to_canonical(curve, v.p, n, be->threads);
    return view_close(be, &v, true);
}
