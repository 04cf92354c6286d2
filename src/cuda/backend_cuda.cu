/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA backend: registry kind "cuda", one device per GPU that passes the startup probe
 * (cuda_probe.cu), contexts = one CUDA stream each, device buffers (cudaMalloc, with the
 * free memory checked first so an oversized request is reported as "cuda0: need X bytes,
 * Y free" instead of failing somewhere inside the driver), pinned host memory
 * (cudaHostAlloc, pageable fallback), and the op slots: NTT (ntt.cu), sparse evaluation,
 * quotient and Montgomery->canonical (eval.cu), G1/G2 MSM (msm.cu, msm_g2.cu). The MSM reads
 * bases and scalars where they are: device buffers (the prover keeps a key's bases resident
 * per device and uploads the witness once per proof); its scratch is allocated per call with
 * the free-memory prediction of czk_cuda_dev_alloc.
 *
 * Uploads (buf_set, buf_set_async, buf_from_host): a source that is page-locked (cudaHostAlloc,
 * cudaHostRegister: the engine's witness slabs) is copied by one cudaMemcpyAsync. A pageable
 * source of CZK_CUDA_STAGE_MIN bytes or more (memory-mapped keys, malloc'd witnesses) goes
 * through the context's pinned double buffer (two halves of CZK_CUDA_STAGE_CHUNK bytes, made
 * on first use): the CPU copies chunk k+1 into one half while the DMA of chunk k reads the
 * other, each half's reuse waiting on the event recorded after its DMA, so memcpy and DMA
 * overlap instead of the driver's serial pageable path (7 GB/s against 55 pinned on the H200
 * host). Smaller pageable sources are copied directly, as are all sources when the staging
 * memory cannot be had (warned once per context).
 *
 * Faults: every CUDA call is checked (cuda_check.h). A sticky error marks the device lost:
 * from then on its contexts return CZK_ERR_DEVICE_LOST, `supports` answers false (the
 * dispatch layer sends new work to the CPU kernels) and new contexts are refused; other
 * devices and the process carry on.
 *
 * Threading: the registry is built once (pthread_once). Devices are static; their caches are
 * locked (cuda_internal.h). A context is used by one thread at a time. Every entry point
 * selects its device on the calling thread first, so worker threads need no setup.
 * Ownership: a context owns its stream and staging memory; buffers own their device memory;
 * cached twiddles and power tables live until the process ends, resident CSR matrices until
 * evicted.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/backend_cuda.h"
#include "cuda/cuda_bench.h"
#include "cuda/cuda_internal.h"
#include "cuda/msm_cuda.h"
#include "mem/mem.h"

/* ---- errors and health ---------------------------------------------------------------- */

static int g_lost[64];
static char g_last[64][256];
static pthread_mutex_t g_err_lock = PTHREAD_MUTEX_INITIALIZER;

bool czk_cuda_error_is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchTimeout:
    case cudaErrorContextIsDestroyed:
    case cudaErrorDevicesUnavailable:
    case cudaErrorUnknown:
        return true;
    default:
        return false;
    }
}

void czk_cuda_mark_lost(int device)
{
    if (device >= 0 && device < 64)
        __atomic_store_n(&g_lost[device], 1, __ATOMIC_RELEASE);
}

bool czk_cuda_device_lost(int device)
{
    return device >= 0 && device < 64 && __atomic_load_n(&g_lost[device], __ATOMIC_ACQUIRE);
}

void czk_cuda_last_error(int device, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    buf[0] = 0;
    if (device < 0 || device >= 64)
        return;
    pthread_mutex_lock(&g_err_lock);
    snprintf(buf, len, "%s", g_last[device]);
    pthread_mutex_unlock(&g_err_lock);
}

enum czk_status czk_cuda_fail(cudaError_t e, const char *expr, const char *file, int line,
                              char *err, size_t errlen)
{
    int dev = -1;
    (void)cudaGetDevice(&dev);
    bool sticky = czk_cuda_error_is_sticky(e);
    /* the called function's name: expr up to '(' */
    char fn[64];
    size_t k = 0;
    while (expr[k] && expr[k] != '(' && k < sizeof fn - 1) {
        fn[k] = expr[k];
        k++;
    }
    fn[k] = 0;
    const char *shown = file, *last = NULL;
    for (const char *q = file; *q; q++)
        if (*q == '/') {
            shown = last ? last + 1 : file; /* keep "cuda/x.cu" */
            last = q;
        }
    char msg[256];
    snprintf(msg, sizeof msg, "%s at %s:%d: %s (cuda%d%s)", fn, shown, line, cudaGetErrorString(e),
             dev, sticky ? ", device lost" : "");
    if (sticky) {
        czk_cuda_mark_lost(dev);
    } else {
        (void)cudaGetLastError(); /* clear a non-sticky error */
    }
    if (dev >= 0 && dev < 64) {
        pthread_mutex_lock(&g_err_lock);
        snprintf(g_last[dev], sizeof g_last[dev], "%s", msg);
        pthread_mutex_unlock(&g_err_lock);
    }
    czk_log(CZK_LOG_ERROR, "cuda", "%s", msg);
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
    return sticky ? CZK_ERR_DEVICE_LOST : CZK_ERR_DEVICE;
}

/* ---- devices ---------------------------------------------------------------------------- */

static struct czk_cuda_device g_devs[CZK_CUDA_MAX_DEVICES];
static size_t g_ndevs;
static struct czk_backend_reg g_reg;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static bool dev_lost(const struct czk_cuda_device *d) { return czk_cuda_device_lost(d->ordinal); }

enum czk_status czk_cuda_enter(struct czk_cuda_ctx *x)
{
    if (dev_lost(x->d)) {
        snprintf(x->err, sizeof x->err, "%s: device lost after an earlier fault", x->d->name);
        return CZK_ERR_DEVICE_LOST;
    }
    CZK_CUDA_TRY(cudaSetDevice(x->d->ordinal), x->err, sizeof x->err);
    return CZK_OK;
}

enum czk_status czk_cuda_dev_alloc(struct czk_cuda_device *d, size_t size, void **ptr, char *err,
                                   size_t errlen)
{
    if (dev_lost(d))
        return czk_errf(CZK_ERR_DEVICE_LOST, err, errlen, "%s: device lost", d->name);
    CZK_CUDA_TRY(cudaSetDevice(d->ordinal), err, errlen);
    size_t fr = 0, total = 0;
    CZK_CUDA_TRY(cudaMemGetInfo(&fr, &total), err, errlen);
    /* Keep a little for the runtime (kernel launches, library workspaces). */
    const size_t slack = (size_t)64 << 20;
    if (size > fr || fr - size < slack) {
        char m[160];
        snprintf(m, sizeof m, "%s: need %zu bytes, %zu free (of %zu)", d->name, size, fr, total);
        czk_log(CZK_LOG_ERROR, "cuda", "%s", m);
        pthread_mutex_lock(&g_err_lock);
        snprintf(g_last[d->ordinal], sizeof g_last[d->ordinal], "%s", m);
        pthread_mutex_unlock(&g_err_lock);
        return czk_errf(CZK_ERR_DEVICE, err, errlen, "%s", m);
    }
    void *p = NULL;
    CZK_CUDA_TRY(cudaMalloc(&p, size), err, errlen);
    *ptr = p;
    return CZK_OK;
}

void czk_cuda_dev_free(struct czk_cuda_device *d, void *ptr)
{
    if (!ptr || dev_lost(d))
        return; /* a lost context's memory goes with the process */
    if (cudaSetDevice(d->ordinal) != cudaSuccess)
        return;
    cudaError_t e = cudaFree(ptr);
    if (e != cudaSuccess)
        czk_cuda_fail(e, "cudaFree(ptr)", __FILE__, __LINE__, NULL, 0);
}

static const char *dev_name(czk_device_t dev) { return czk_cuda_dev_of(dev)->name; }

static void dev_props(czk_device_t dev, struct czk_device_props *p)
{
    struct czk_cuda_device *d = czk_cuda_dev_of(dev);
    p->name = d->name;
    p->description = d->desc;
    p->type = CZK_DEVICE_TYPE_GPU;
    p->mem_total = d->mem_total;
    p->mem_free = 0;
    size_t fr = 0, total = 0;
    if (!dev_lost(d) && cudaSetDevice(d->ordinal) == cudaSuccess &&
        cudaMemGetInfo(&fr, &total) == cudaSuccess)
        p->mem_free = fr;
    else
        (void)cudaGetLastError();
    p->compute_units = d->sms;
    p->max_lg_n = d->max_lg_n;
    p->host_memory = false;
    p->pinned_host = true;
    p->async = true;
}

static bool dev_supports(czk_device_t dev, enum czk_groth16_curve curve, enum czk_backend_op op,
                         unsigned lg_n)
{
    struct czk_cuda_device *d = czk_cuda_dev_of(dev);
    (void)curve;
    if (dev_lost(d))
        return false;
    switch (op) {
    case CZK_BACKEND_OP_NTT:
        return lg_n <= d->max_lg_n;
    case CZK_BACKEND_OP_SPARSE_EVAL:
    case CZK_BACKEND_OP_QUOTIENT:
    case CZK_BACKEND_OP_TO_CANONICAL:
        return true;
    case CZK_BACKEND_OP_MSM_G1:
    case CZK_BACKEND_OP_MSM_G2:
        return lg_n <= 30; /* point indices in 31 bits */
    }
    return false;
}

static enum czk_status dev_buf_alloc(czk_device_t dev, size_t size, void **ptr)
{
    return czk_cuda_dev_alloc(czk_cuda_dev_of(dev), size, ptr, NULL, 0);
}

static void dev_buf_free(czk_device_t dev, void *ptr) { czk_cuda_dev_free(czk_cuda_dev_of(dev), ptr); }

static void *dev_host_alloc(czk_device_t dev, size_t size)
{
    struct czk_cuda_device *d = czk_cuda_dev_of(dev);
    void *p = NULL;
    if (size == 0)
        size = 1;
    if (!dev_lost(d) && cudaSetDevice(d->ordinal) == cudaSuccess &&
        cudaHostAlloc(&p, size, cudaHostAllocPortable) == cudaSuccess)
        return p;
    (void)cudaGetLastError();
    czk_log(CZK_LOG_WARN, "cuda", "%s: cudaHostAlloc of %zu bytes failed: pageable memory instead",
            d->name, size);
    return malloc(size);
}

static void dev_host_free(czk_device_t dev, void *ptr)
{
    (void)dev;
    if (!ptr)
        return;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) == cudaSuccess && a.type == cudaMemoryTypeHost) {
        if (cudaFreeHost(ptr) != cudaSuccess)
            (void)cudaGetLastError();
        return;
    }
    (void)cudaGetLastError();
    free(ptr);
}

/* A CUDA call whose failure is only logged (cleanup paths): czk_cuda_fail still marks the
 * device lost on a sticky error. */
#define CUDA_LOG(call)                                                                             \
    do {                                                                                           \
        cudaError_t czk_cuda_e_ = (call);                                                          \
        if (czk_cuda_e_ != cudaSuccess)                                                            \
            (void)czk_cuda_fail(czk_cuda_e_, #call, __FILE__, __LINE__, NULL, 0);                  \
    } while (0)

/* ---- contexts ----------------------------------------------------------------------------- */

static enum czk_status be_sync(czk_backend_t be)
{
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    CZK_CUDA_TRY(cudaStreamSynchronize(x->stream), x->err, sizeof x->err);
    return CZK_OK;
}

static void be_free(czk_backend_t be)
{
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    if (!x)
        return;
    /* On a lost device the staging memory goes with the process, like device buffers. */
    if (!dev_lost(x->d) && cudaSetDevice(x->d->ordinal) == cudaSuccess) {
        if (x->stage[0]) {
            /* the DMA of an async upload may still read the staging halves */
            cudaError_t e = cudaStreamSynchronize(x->stream);
            if (e != cudaSuccess) {
                (void)czk_cuda_fail(e, "cudaStreamSynchronize(x->stream)", __FILE__, __LINE__,
                                    NULL, 0);
            } else {
                CUDA_LOG(cudaEventDestroy(x->stage_ev[0]));
                CUDA_LOG(cudaEventDestroy(x->stage_ev[1]));
                CUDA_LOG(cudaFreeHost(x->stage[0]));
            }
        }
        (void)cudaStreamDestroy(x->stream);
    }
    (void)cudaGetLastError();
    free(x);
    be->context = NULL;
}

/* The staging halves and their events, on the first pageable upload (device selected).
 * CZK_OK: ready (x->stage[0] set) or not to be had (x->stage_off: direct uploads from now on,
 * warned); another status only when the failure lost the device. */
static enum czk_status stage_init(struct czk_cuda_ctx *x)
{
    if (x->stage[0] || x->stage_off)
        return CZK_OK;
    char m[256] = "";
    enum czk_status st = CZK_OK;
    void *p = NULL;
    CZK_CUDA_GOTO(st, cudaHostAlloc(&p, 2 * CZK_CUDA_STAGE_CHUNK, cudaHostAllocPortable), fail, m,
                  sizeof m);
    CZK_CUDA_GOTO(st, cudaEventCreateWithFlags(&x->stage_ev[0], cudaEventDisableTiming), fail, m,
                  sizeof m);
    CZK_CUDA_GOTO(st, cudaEventCreateWithFlags(&x->stage_ev[1], cudaEventDisableTiming), fail, m,
                  sizeof m);
    x->stage[0] = (uint8_t *)p;
    x->stage[1] = x->stage[0] + CZK_CUDA_STAGE_CHUNK;
    return CZK_OK;
fail:
    if (st == CZK_ERR_DEVICE_LOST) {
        snprintf(x->err, sizeof x->err, "%s", m);
        return st;
    }
    for (int h = 0; h < 2; h++)
        if (x->stage_ev[h]) {
            CUDA_LOG(cudaEventDestroy(x->stage_ev[h]));
            x->stage_ev[h] = NULL;
        }
    if (p)
        CUDA_LOG(cudaFreeHost(p));
    x->stage_off = true;
    czk_log(CZK_LOG_WARN, "cuda", "%s: no pinned staging buffers (%s): uploads from pageable "
            "memory are direct (slower)", x->d->name, m);
    return CZK_OK;
}

/*
 * Host -> device copy of size bytes on x's stream (see the file comment). wait: return after
 * the copy is complete. Without wait the copy of a page-locked or small source is only queued;
 * a staged one returns once the whole source has been read into the staging halves (the
 * caller may reuse it at once) with the DMA of at most the last two chunks still queued, so
 * for a pageable source of CZK_CUDA_STAGE_MIN bytes or more the "async" upload is, in effect,
 * synchronous (it waits for all but those DMAs). Either way, the copy is complete after a
 * synchronize of the stream. The staged DMAs are queued in stream order like everything else,
 * so a staged upload issued behind queued kernels waits for them from its third chunk on.
 */
static enum czk_status upload(struct czk_cuda_ctx *x, void *dst, const void *src, size_t size,
                              bool wait)
{
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    bool staged = false;
    if (size >= CZK_CUDA_STAGE_MIN) {
        cudaPointerAttributes a;
        CZK_CUDA_TRY(cudaPointerGetAttributes(&a, src), x->err, sizeof x->err);
        if (a.type == cudaMemoryTypeUnregistered) {
            if ((st = stage_init(x)) != CZK_OK)
                return st;
            staged = !x->stage_off;
        }
    }
    if (!staged) {
        CZK_CUDA_TRY(cudaMemcpyAsync(dst, src, size, cudaMemcpyHostToDevice, x->stream), x->err,
                     sizeof x->err);
    } else {
        const uint8_t *s = (const uint8_t *)src;
        uint8_t *d = (uint8_t *)dst;
        size_t off = 0;
        for (unsigned k = 0; off < size; k ^= 1) {
            size_t len = size - off < CZK_CUDA_STAGE_CHUNK ? size - off : CZK_CUDA_STAGE_CHUNK;
            /* half k is free once the DMA of its previous chunk (this call's or an earlier
             * call's) is done; an event never recorded is complete */
            CZK_CUDA_TRY(cudaEventSynchronize(x->stage_ev[k]), x->err, sizeof x->err);
            memcpy(x->stage[k], s + off, len);
            CZK_CUDA_TRY(cudaMemcpyAsync(d + off, x->stage[k], len, cudaMemcpyHostToDevice,
                                         x->stream),
                         x->err, sizeof x->err);
            CZK_CUDA_TRY(cudaEventRecord(x->stage_ev[k], x->stream), x->err, sizeof x->err);
            off += len;
        }
    }
    if (wait)
        CZK_CUDA_TRY(cudaStreamSynchronize(x->stream), x->err, sizeof x->err);
    return CZK_OK;
}

static enum czk_status copy(czk_backend_t be, void *dst, const void *src, size_t size,
                            cudaMemcpyKind kind, bool wait)
{
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    CZK_CUDA_TRY(cudaMemcpyAsync(dst, src, size, kind, x->stream), x->err, sizeof x->err);
    if (wait)
        CZK_CUDA_TRY(cudaStreamSynchronize(x->stream), x->err, sizeof x->err);
    return CZK_OK;
}

static enum czk_status be_buf_set(czk_backend_t be, czk_buf_t buf, size_t off, const void *src,
                                  size_t size)
{
    return upload(czk_cuda_ctx_of(be), (uint8_t *)buf->ptr + off, src, size, true);
}

static enum czk_status be_buf_get(czk_backend_t be, czk_buf_t buf, size_t off, void *dst,
                                  size_t size)
{
    return copy(be, dst, (const uint8_t *)buf->ptr + off, size, cudaMemcpyDeviceToHost, true);
}

/* A pageable source of CZK_CUDA_STAGE_MIN bytes or more is staged: the call then returns once
 * the source has been read (all but the last DMAs done), see upload(). */
static enum czk_status be_buf_set_async(czk_backend_t be, czk_buf_t buf, size_t off,
                                        const void *src, size_t size)
{
    return upload(czk_cuda_ctx_of(be), (uint8_t *)buf->ptr + off, src, size, false);
}

static enum czk_status be_buf_get_async(czk_backend_t be, czk_buf_t buf, size_t off, void *dst,
                                        size_t size)
{
    return copy(be, dst, (const uint8_t *)buf->ptr + off, size, cudaMemcpyDeviceToHost, false);
}

static enum czk_status be_buf_from_host(czk_backend_t be, czk_buf_t buf, const void *host)
{
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    void *p = NULL;
    enum czk_status st = czk_cuda_dev_alloc(x->d, buf->size, &p, x->err, sizeof x->err);
    if (st != CZK_OK)
        return st;
    buf->ptr = p;
    buf->borrowed = false;
    st = upload(x, p, host, buf->size, true);
    if (st != CZK_OK) {
        czk_cuda_dev_free(x->d, p);
        buf->ptr = NULL;
    }
    return st;
}

static enum czk_status be_ntt(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t data,
                              unsigned lg_n, enum czk_backend_dir dir, enum czk_ntt_convention conv,
                              const uint64_t shift[4])
{
    return czk_cuda_ntt_run(czk_cuda_ctx_of(be), curve, data->ptr, lg_n, dir, conv, shift);
}

static enum czk_status be_sparse_eval(czk_backend_t be, enum czk_groth16_curve curve,
                                      const struct czk_csr *A, const struct czk_csr *B,
                                      czk_buf_t w, czk_buf_t a, czk_buf_t b, czk_buf_t c)
{
    return czk_cuda_sparse_eval_run(czk_cuda_ctx_of(be), curve, A, B, w->ptr, a->ptr, b->ptr,
                                    c->ptr);
}

static enum czk_status be_quotient(czk_backend_t be, enum czk_groth16_curve curve, czk_buf_t a,
                                   czk_buf_t b, czk_buf_t c, size_t n, const uint64_t zinv[4])
{
    return czk_cuda_quotient_run(czk_cuda_ctx_of(be), curve, a->ptr, b->ptr, c->ptr, n, zinv);
}

static enum czk_status be_to_canonical(czk_backend_t be, enum czk_groth16_curve curve,
                                       czk_buf_t data, size_t n)
{
    return czk_cuda_to_canonical_run(czk_cuda_ctx_of(be), curve, data->ptr, n);
}

/* Scratch an MSM may take beyond its least plan (a larger scratch runs a faster plan, see
 * czk_cuda_msm_scratch_fit): CZK_CUDA_MSM_SCRATCH_MB MiB (0: the least plan only), by default half
 * of the device's memory (every plan measured fits: BLS12-381 G1 2^26 takes 55 GB of an H200's 141
 * at B = 4096); never more than czk_cuda_msm_room of the free memory. An invalid value is
 * reported once and ignored. */
static long long g_msm_cap_mb = -1; /* -1: the default */
static void msm_cap_from_env(void)
{
    const char *v = getenv("CZK_CUDA_MSM_SCRATCH_MB");
    if (!v || !*v)
        return;
    char *end = NULL;
    long long x = strtoll(v, &end, 10);
    if (*end || x < 0 || x > (1LL << 40))
        czk_log(CZK_LOG_WARN, "cuda", "CZK_CUDA_MSM_SCRATCH_MB=%s is not a number of MiB in 0..2^40; ignored", v);
    else
        g_msm_cap_mb = x;
}
static size_t msm_scratch_avail(size_t fr, size_t total)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, msm_cap_from_env);
    size_t cap = g_msm_cap_mb >= 0 ? (size_t)g_msm_cap_mb << 20 : total / 2, room = czk_cuda_msm_room(fr, total);
    return cap < room ? cap : room;
}

static uint64_t dev_msm_scratch(czk_device_t dev, enum czk_groth16_curve curve, unsigned group, size_t n)
{
    struct czk_cuda_device *d = czk_cuda_dev_of(dev);
    if (cudaSetDevice(d->ordinal) != cudaSuccess) /* the plan counts this device's SMs */
        (void)cudaGetLastError();
    return czk_cuda_msm_scratch_bytes(curve, group, n);
}

/*
 * The MSM's scratch: the fastest plan that fits the free memory (msm_scratch_avail) and, when the
 * backend has a scratch budget, the least plan (the caller's reservation) plus what that budget
 * has free, reserved without waiting (*extra, released by the caller after the call). Memory
 * taken since the query, or a budget that filled meanwhile: the least plan.
 */
static enum czk_status msm_scratch_take(czk_backend_t be, struct czk_cuda_ctx *x, enum czk_groth16_curve curve,
                                        unsigned group, size_t n, void **scratch, size_t *bytes, uint64_t *extra)
{
    size_t least = czk_cuda_msm_scratch_bytes(curve, group, n), fr = 0, total = 0;
    *extra = 0;
    if (least == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, x->err, sizeof x->err, "%s: msm: bad curve %d or group %u",
                        x->d->name, (int)curve, group);
    CZK_CUDA_TRY(cudaMemGetInfo(&fr, &total), x->err, sizeof x->err);
    size_t spare = SIZE_MAX;
    if (be->scratch_budget) {
        struct czk_budget_stats bs;
        czk_budget_get_stats(be->scratch_budget, &bs);
        spare = bs.limit > bs.reserved ? (size_t)(bs.limit - bs.reserved) : 0;
    }
    size_t need = czk_cuda_msm_scratch_plan(curve, group, n, msm_scratch_avail(fr, total), spare);
    if (need > least && be->scratch_budget) {
        if (czk_budget_try_reserve(be->scratch_budget, need - least))
            *extra = need - least;
        else
            need = least;
    }
    enum czk_status st = czk_cuda_dev_alloc(x->d, need, scratch, x->err, sizeof x->err);
    if (st == CZK_ERR_DEVICE && need > least) {
        need = least;
        st = czk_cuda_dev_alloc(x->d, need, scratch, x->err, sizeof x->err);
    }
    if ((st != CZK_OK || need == least) && *extra) {
        czk_budget_release(be->scratch_budget, *extra);
        *extra = 0;
    }
    *bytes = need;
    return st;
}

static enum czk_status be_msm(czk_backend_t be, enum czk_groth16_curve curve, unsigned group,
                              czk_buf_t bases, czk_buf_t scalars, size_t scalar_off, size_t n,
                              void *out)
{
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    void *scratch = NULL;
    size_t bytes = 0;
    uint64_t extra = 0;
    if ((st = msm_scratch_take(be, x, curve, group, n, &scratch, &bytes, &extra)) != CZK_OK)
        return st;
    st = czk_cuda_msm(x->stream, curve, group, bases->ptr, (const uint8_t *)scalars->ptr + scalar_off * 32,
                      n, out, scratch, bytes, x->err, sizeof x->err);
    if (st == CZK_ERR_DEVICE_LOST)
        czk_cuda_mark_lost(x->d->ordinal);
    czk_cuda_dev_free(x->d, scratch);
    if (extra)
        czk_budget_release(be->scratch_budget, extra);
    return st;
}

static const struct czk_backend_i g_be_iface = {
    /* .free = */ be_free,
    /* .synchronize = */ be_sync,
    /* .buf_set = */ be_buf_set,
    /* .buf_get = */ be_buf_get,
    /* .buf_set_async = */ be_buf_set_async,
    /* .buf_get_async = */ be_buf_get_async,
    /* .buf_from_host = */ be_buf_from_host,
    /* .ntt = */ be_ntt,
    /* .msm = */ be_msm,
    /* .sparse_eval = */ be_sparse_eval,
    /* .quotient = */ be_quotient,
    /* .to_canonical = */ be_to_canonical,
};

static enum czk_status dev_backend_new(czk_device_t dev, czk_backend_t be, char *err,
                                       size_t errlen)
{
    struct czk_cuda_device *d = czk_cuda_dev_of(dev);
    if (dev_lost(d))
        return czk_errf(CZK_ERR_DEVICE_LOST, err, errlen, "%s: device lost after an earlier fault",
                        d->name);
    struct czk_cuda_ctx *x = (struct czk_cuda_ctx *)calloc(1, sizeof *x);
    if (!x)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "%s: out of memory", d->name);
    x->d = d;
    enum czk_status st;
    CZK_CUDA_GOTO(st, cudaSetDevice(d->ordinal), fail, err, errlen);
    CZK_CUDA_GOTO(st, cudaStreamCreateWithFlags(&x->stream, cudaStreamNonBlocking), fail, err,
                  errlen);
    be->iface = g_be_iface;
    be->context = x;
    return CZK_OK;
fail:
    free(x);
    return st;
}

bool czk_cuda_is_backend(czk_backend_t be)
{
    return be && be->device && be->device->reg == &g_reg;
}

/* ---- registry ------------------------------------------------------------------------------- */

static const char *reg_name(czk_backend_reg_t reg)
{
    (void)reg;
    return "cuda";
}

static size_t reg_count(czk_backend_reg_t reg)
{
    (void)reg;
    return g_ndevs;
}

static czk_device_t reg_get(czk_backend_reg_t reg, size_t i)
{
    (void)reg;
    return i < g_ndevs ? &g_devs[i].dev : NULL;
}

static void reg_init(void)
{
    int n = 0;
    if (czk_cuda_device_count(&n) != CZK_OK || n <= 0)
        return;
    for (int i = 0; i < n && g_ndevs < CZK_CUDA_MAX_DEVICES; i++) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            (void)cudaGetLastError();
            continue;
        }
        if (prop.major < 7) {
            czk_log(CZK_LOG_WARN, "cuda", "device %d (%s): compute capability %d.%d < 7.0: not used",
                    i, prop.name, prop.major, prop.minor);
            continue;
        }
        if (czk_cuda_probe(i) != CZK_OK) {
            czk_log(CZK_LOG_WARN, "cuda", "device %d (%s): probe failed: not used", i, prop.name);
            continue;
        }
        struct czk_cuda_device *d = &g_devs[g_ndevs];
        memset(d, 0, sizeof *d);
        d->ordinal = i;
        snprintf(d->name, sizeof d->name, "cuda%zu", g_ndevs);
        /* a long device name is cut: the description is for logs */
        if (snprintf(d->desc, sizeof d->desc, "%s (sm_%d%d, %d SMs, %.1f GiB)", prop.name,
                     prop.major, prop.minor, prop.multiProcessorCount,
                     (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0)) >=
            (int)sizeof d->desc)
            d->desc[sizeof d->desc - 1] = '\0';
        d->mem_total = prop.totalGlobalMem;
        d->sms = (unsigned)prop.multiProcessorCount;
        /* data (32 B/element) + twiddles (16 B/element) must fit; exponents stay in u32 */
        unsigned lg = 0;
        while (lg < 31 && ((size_t)48 << (lg + 1)) <= d->mem_total)
            lg++;
        d->max_lg_n = lg;
        pthread_mutex_init(&d->lock, NULL);
        d->dev.iface.get_name = dev_name;
        d->dev.iface.get_props = dev_props;
        d->dev.iface.supports = dev_supports;
        d->dev.iface.backend_new = dev_backend_new;
        d->dev.iface.buf_alloc = dev_buf_alloc;
        d->dev.iface.buf_free = dev_buf_free;
        d->dev.iface.host_alloc = dev_host_alloc;
        d->dev.iface.host_free = dev_host_free;
        d->dev.iface.msm_scratch = dev_msm_scratch;
        d->dev.reg = &g_reg;
        d->dev.host_memory = false;
        d->dev.context = d;
        czk_log(CZK_LOG_INFO, "cuda", "%s: %s", d->name, d->desc);
        g_ndevs++;
    }
    if (g_ndevs == 0)
        return;
    g_reg.api_version = CZK_BACKEND_API_VERSION;
    g_reg.iface.get_name = reg_name;
    g_reg.iface.device_count = reg_count;
    g_reg.iface.device_get = reg_get;
    g_reg.context = NULL;
}

czk_backend_reg_t czk_backend_cuda_reg(void)
{
    pthread_once(&g_once, reg_init);
    return g_ndevs ? &g_reg : NULL;
}

/* ---- test hook ------------------------------------------------------------------------------- */

static __global__ void fault_kernel(unsigned *p) { p[threadIdx.x] = threadIdx.x; }

enum czk_status czk_cuda_debug_fault(czk_backend_t be)
{
    if (!czk_cuda_is_backend(be))
        return CZK_ERR_INVALID_ARG;
    struct czk_cuda_ctx *x = czk_cuda_ctx_of(be);
    enum czk_status st = czk_cuda_enter(x);
    if (st != CZK_OK)
        return st;
    fault_kernel<<<1, 32, 0, x->stream>>>((unsigned *)(uintptr_t)0x10);
    CZK_CUDA_TRY(cudaGetLastError(), x->err, sizeof x->err);
    CZK_CUDA_TRY(cudaStreamSynchronize(x->stream), x->err, sizeof x->err);
    return CZK_OK;
}
