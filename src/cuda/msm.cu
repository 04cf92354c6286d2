/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA: Pippenger MSM on the device, C API (msm_cuda.h) and G1; G2 is instantiated in
 * msm_g2.cu. The algorithm is described in msm_impl.cuh.
 */
#include "cuda/field_bench.h"
#include "cuda/msm_impl.cuh"

#include <algorithm>
#include <vector>

namespace czk_msm_state {
thread_local unsigned forced_c = 0;
thread_local unsigned forced_acc = 0;
thread_local struct czk_cuda_msm_stats last_stats;
} /* namespace czk_msm_state */

extern "C" size_t czk_cuda_msm_scratch_fit(enum czk_groth16_curve curve, unsigned group, size_t n, size_t avail)
{
    if (n == 0)
        n = 1;
    if (curve == CZK_GROTH16_CURVE_BN254)
        return group == 1 ? scratch_for<g1_bn254_t>(n, avail) : group == 2 ? czk_msm_g2_scratch(curve, n, avail) : 0;
    if (curve == CZK_GROTH16_CURVE_BLS12_381)
        return group == 1   ? scratch_for<g1_bls12_381_t>(n, avail)
               : group == 2 ? czk_msm_g2_scratch(curve, n, avail)
                            : 0;
    return 0;
}

extern "C" size_t czk_cuda_msm_room(size_t free_bytes, size_t total_bytes)
{
    const size_t least = (size_t)256 << 20, keep = total_bytes / 16 > least ? total_bytes / 16 : least;
    return free_bytes > keep ? free_bytes - keep : 0;
}

extern "C" size_t czk_cuda_msm_scratch_plan(enum czk_groth16_curve curve, unsigned group, size_t n, size_t avail,
                                            size_t spare)
{
    const size_t least = czk_cuda_msm_scratch_fit(curve, group, n, 0);
    if (avail > least && avail - least > spare)
        avail = least + spare;
    return czk_cuda_msm_scratch_fit(curve, group, n, avail);
}

extern "C" size_t czk_cuda_msm_scratch_bytes(enum czk_groth16_curve curve, unsigned group, size_t n)
{
    return czk_cuda_msm_scratch_fit(curve, group, n, 0);
}

extern "C" enum czk_status czk_cuda_msm(cudaStream_t stream, enum czk_groth16_curve curve, unsigned group,
                                        const void *d_bases, const void *d_scalars, size_t n, void *out,
                                        void *d_scratch, size_t scratch_bytes, char *err, size_t errlen)
{
    const uint64_t *b = (const uint64_t *)d_bases, *s = (const uint64_t *)d_scalars;
    uint64_t *o = (uint64_t *)out;
    if (!out || (n && (!d_bases || !d_scalars)))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: NULL argument");
    if (curve == CZK_GROTH16_CURVE_BN254) {
        if (group == 1)
            return msm_impl<g1_bn254_t>(stream, b, s, n, o, d_scratch, scratch_bytes, err, errlen);
        if (group == 2)
            return czk_msm_g2_run(curve, stream, b, s, n, o, d_scratch, scratch_bytes, err, errlen);
    } else if (curve == CZK_GROTH16_CURVE_BLS12_381) {
        if (group == 1)
            return msm_impl<g1_bls12_381_t>(stream, b, s, n, o, d_scratch, scratch_bytes, err, errlen);
        if (group == 2)
            return czk_msm_g2_run(curve, stream, b, s, n, o, d_scratch, scratch_bytes, err, errlen);
    }
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: bad curve %d or group %u", (int)curve, group);
}

extern "C" void czk_cuda_msm_last_stats(struct czk_cuda_msm_stats *stats) { *stats = last_stats; }

extern "C" void czk_cuda_msm_force_window(unsigned c) { forced_c = c >= C_MIN && c <= C_MAX ? c : 0; }

namespace {
/* Host oracles of the batch-affine accumulations (affine_lanes, the tree's level code), run over
 * every thread, with the digits and per-window sort of the device path done here and the bucket
 * reduction and window combination done plainly: they check the accumulation logic without a
 * GPU. Every point must be general (scalar not 0 or 1, base finite). */

/* the sorted (key, val) lists of every window, as digits_kernel and the sort make them */
void sorted_lists(const uint64_t *scalars, size_t n, unsigned c, unsigned W, std::vector<uint32_t> &keys,
                  std::vector<uint32_t> &vals)
{
    keys.assign((size_t)W * n, 0);
    vals.assign((size_t)W * n, 0);
    std::vector<uint32_t> order(n), k(n), v(n);
    for (unsigned w = 0; w < W; w++) {
        for (size_t j = 0; j < n; j++) {
            int32_t d = booth(scalars + 4 * j, w, c);
            k[j] = (uint32_t)(d < 0 ? -d : d);
            v[j] = (uint32_t)j | (d < 0 ? 0x80000000u : 0u);
            order[j] = (uint32_t)j;
        }
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return k[x] < k[y]; });
        for (size_t j = 0; j < n; j++) {
            keys[(size_t)w * n + j] = k[order[j]];
            vals[(size_t)w * n + j] = v[order[j]];
        }
    }
}

/* sum_w 2^(c w) sum_b (b + 1) B_{w,b}, to Jacobian: the device's level reduction (planned for
 * one SM, so that every window runs several levels) with each level's threads in a loop, then
 * the device's combination */
template <class G> void reduce_combine(const std::vector<typename G::pt> &buckets, unsigned W, size_t M, unsigned c,
                                       uint64_t *host_out)
{
    typedef typename G::pt pt;
    const red_plan rp = reduce_plan(W, (uint32_t)M, 1);
    std::vector<pt> buf0(2 * rp.cap[0]), buf1(2 * rp.cap[1] + 1), S(W);
    red_level<G> lv[RED_MAX_LEVELS];
    const unsigned nl = reduce_levels<G>(rp, W, (uint32_t)M, buckets.data(), buf0.data(), buf1.data(), S.data(), lv);
    for (unsigned l = 0; l < nl; l++)
        for (size_t t = 0; t < lv[l].threads; t++)
            reduce_level_at<G>(lv[l], t);
    team::board<typename G::field> bd;
    combine_windows<G>(S.data(), W, c, nullptr, 0, host_out, bd);
}

template <class G>
enum czk_status affine_host_check(const uint64_t *bases, const uint64_t *scalars, size_t n, unsigned c,
                                  unsigned lanes, unsigned steps, uint64_t *host_out)
{
    typedef typename G::pt pt;
    typedef typename G::field F;
    const unsigned W = windows_for(G::bits, c);
    const size_t M = (size_t)1 << (c - 1), total = (size_t)W * n;
    std::vector<uint32_t> keys, vals;
    sorted_lists(scalars, n, c, W, keys, vals);
    ba_args a;
    a.keys = keys.data();
    a.vals = vals.data();
    a.m = (uint32_t)n;
    a.M = (uint32_t)M;
    a.B = lanes;
    a.L = steps;
    a.total = total;
    a.T = ((total + steps - 1) / steps + lanes - 1) / lanes;
    a.inv_m = 1.0 / (double)n;
    a.bases = bases;
    const size_t G_lanes = a.T * lanes, Q = sizeof(F) / 16;
    std::vector<uint32_t> part_id(2 * G_lanes), aid(G_lanes);
    std::vector<uint4> ax(G_lanes * Q), ay(G_lanes * Q), pre(G_lanes * Q);
    std::vector<pt> part(2 * G_lanes, pt::inf()), buckets((size_t)W * M, pt::inf());
    a.part_id = part_id.data();
    a.aid = aid.data();
    a.ax = ax.data();
    a.ay = ay.data();
    a.pre = pre.data();
    for (size_t t = 0; t < a.T; t++)
        affine_lanes<G>(a, buckets.data(), part.data(), t);
    for (size_t j = 0; j < 2 * G_lanes; j++)
        if (part_id[j] != NONE)
            pt::add(buckets[part_id[j]], buckets[part_id[j]], part[j]);
    reduce_combine<G>(buckets, W, M, c, host_out);
    return CZK_OK;
}

/* The tree as tree_accumulate drives it, each device step done by a host loop (the scans
 * plainly); the per-bucket, per-item and per-thread code is the device's. */
template <class G>
enum czk_status tree_host_check(const uint64_t *bases, const uint64_t *scalars, size_t n, unsigned c,
                                unsigned group, unsigned threads, unsigned batch, uint64_t *host_out)
{
    typedef typename G::pt pt;
    typedef typename G::field F;
    const unsigned W = windows_for(G::bits, c);
    const uint32_t M = 1u << (c - 1), m = (uint32_t)n;
    const size_t Q = sizeof(F) / 16;
    std::vector<uint32_t> keys, vals;
    sorted_lists(scalars, n, c, W, keys, vals);
    std::vector<pt> buckets((size_t)W * M, pt::inf());
    const size_t cap = ((size_t)group * n + (size_t)group * M) / 2 + 1;
    std::vector<uint32_t> S[2], C[2], items, istart, marks, gid;
    std::vector<uint4> desc(cap), lx[2], ly[2], pre((size_t)threads * batch * Q);
    for (int i = 0; i < 2; i++) {
        lx[i].resize(cap * Q);
        ly[i].resize(cap * Q);
    }
    for (unsigned w0 = 0; w0 < W; w0 += group) {
        const unsigned gw = W - w0 < group ? W - w0 : group;
        const uint32_t len = gw * m, nb = gw * M;
        for (int i = 0; i < 2; i++) {
            S[i].assign(nb, 0);
            C[i].assign(nb, 0);
        }
        items.assign(nb, 0);
        istart.assign(nb, 0);
        for (uint32_t e = 0; e < len; e++)
            tree::bounds_one(e, keys.data() + (size_t)w0 * m, len, m, M, S[0].data(), C[0].data());
        unsigned cur = 0;
        for (unsigned level = 0;; level++) {
            const unsigned nxt = cur ^ 1;
            uint32_t ni = 0, no = 0;
            for (uint32_t b = 0; b < nb; b++) {
                tree::counts_one(b, S[cur].data(), C[cur].data(), level == 0, items.data(), C[nxt].data());
                istart[b] = ni;
                S[nxt][b] = no;
                ni += items[b];
                no += C[nxt][b];
            }
            if (ni == 0)
                break;
            if (ni > cap || no > cap)
                return CZK_ERR_INTERNAL;
            marks.assign(ni, 0);
            gid.assign(ni, 0);
            for (uint32_t b = 0; b < nb; b++)
                if (items[b])
                    marks[istart[b]] = b;
            for (uint32_t q = 0, mx = 0; q < ni; q++)
                gid[q] = mx = marks[q] > mx ? marks[q] : mx;
            for (uint32_t q = 0; q < ni; q++)
                tree::plan_one(q, gid.data(), istart.data(), S[cur].data(), C[cur].data(), S[nxt].data(),
                               level == 0 ? vals.data() + (size_t)w0 * m : nullptr, desc.data());
            tree::shape sh = tree::level_shape(ni, threads, batch);
            tree::level_args a;
            a.desc = desc.data();
            a.items = ni;
            a.T = sh.T;
            a.B = sh.B;
            a.rounds = sh.rounds;
            a.gbase = w0 * M;
            a.bases = bases;
            a.in_x = lx[(level + 1) & 1].data();
            a.in_y = ly[(level + 1) & 1].data();
            a.out_x = lx[level & 1].data();
            a.out_y = ly[level & 1].data();
            a.pre = pre.data();
            for (uint32_t t = 0; t < sh.T; t++) {
                if (level == 0)
                    tree::level_thread<G, true>(a, buckets.data(), t);
                else
                    tree::level_thread<G, false>(a, buckets.data(), t);
            }
            if (no == 0)
                break;
            cur = nxt;
        }
    }
    reduce_combine<G>(buckets, W, M, c, host_out);
    return CZK_OK;
}
/* The one-warp point operations of the combination (team::dbl, team::add, combine_windows)
 * against xyzz's one-thread ones, on the host: points from the bases, half of them with ZZ != 1,
 * plus infinity; additions of distinct points, of a point to itself and to its negative. */
template <class G> bool team_host_check(const uint64_t *bases, size_t n, char *err, size_t errlen)
{
    typedef typename G::pt pt;
    typedef typename G::field F;
    std::vector<pt> P;
    for (size_t i = 0; i < n; i++) {
        affine<F> a, b;
        a.load(bases + i * F::N);
        b.load(bases + ((i + 1) % n) * F::N);
        pt p = pt::from_affine(a);
        if (i % 3 == 1)
            pt::dbl(p, p);
        else if (i % 3 == 2)
            pt::add_affine(p, p, b);
        P.push_back(p);
    }
    P.push_back(pt::inf());
    /* equal as results: both infinity, or the same coordinates bit for bit */
    auto same = [](const pt &x, const pt &y) {
        return pt::is_inf(x) ? pt::is_inf(y) : !pt::is_inf(y) && memcmp(&x, &y, sizeof x) == 0;
    };
    team::board<F> bd;
    for (size_t i = 0; i < P.size(); i++) {
        pt want, got = P[i];
        pt::dbl(want, P[i]);
        team::dbl(got, bd);
        if (!same(got, want)) {
            czk_errf(CZK_ERR_INTERNAL, err, errlen, "team dbl differs at point %zu", i);
            return false;
        }
        const pt qs[4] = {P[(i + 1) % P.size()], P[i], pt::neg(P[i]), pt::inf()};
        for (unsigned k = 0; k < 4; k++) {
            pt::add(want, P[i], qs[k]);
            got = P[i];
            team::add(got, &qs[k], bd);
            if (!same(got, want)) {
                czk_errf(CZK_ERR_INTERNAL, err, errlen, "team add differs at point %zu, case %u", i, k);
                return false;
            }
        }
    }
    /* Horner over W of the points (c = 3) plus a scalar-1 sum, against the one-thread loop */
    const unsigned W = P.size() < 6 ? (unsigned)P.size() - 1 : 5, c = 3;
    pt acc = pt::inf();
    for (int w = (int)W - 1; w >= 0; w--) {
        for (unsigned i = 0; i < c && w != (int)W - 1; i++)
            pt::dbl(acc, acc);
        pt::add(acc, acc, P[w]);
    }
    pt::add(acc, acc, P[W]);
    jacobian<F> j;
    pt::to_jacobian(j, acc);
    uint64_t want[3 * F::N / 2], got[3 * F::N / 2];
    j.store(want);
    combine_windows<G>(P.data(), W, c, &P[W], 1, got, bd);
    if (memcmp(got, want, sizeof got) != 0) {
        czk_errf(CZK_ERR_INTERNAL, err, errlen, "team combination differs");
        return false;
    }
    return true;
}
} /* namespace */

extern "C" enum czk_status czk_cuda_msm_affine_host_check(enum czk_groth16_curve curve, const void *bases,
                                                          const uint64_t (*scalars)[4], size_t n, unsigned c,
                                                          unsigned lanes, unsigned steps, void *out, char *err,
                                                          size_t errlen)
{
    if (!bases || !scalars || !out || n == 0 || n >= 0x80000000u || c < C_MIN || c > C_MAX || lanes == 0 ||
        steps == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm host check: bad arguments");
    const uint64_t *b = (const uint64_t *)bases, *s = (const uint64_t *)scalars;
    if (curve == CZK_GROTH16_CURVE_BN254)
        return affine_host_check<g1_bn254_t>(b, s, n, c, lanes, steps, (uint64_t *)out);
    if (curve == CZK_GROTH16_CURVE_BLS12_381)
        return affine_host_check<g1_bls12_381_t>(b, s, n, c, lanes, steps, (uint64_t *)out);
    return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm host check: bad curve %d", (int)curve);
}

extern "C" enum czk_status czk_cuda_msm_tree_host_check(enum czk_groth16_curve curve, const void *bases,
                                                        const uint64_t (*scalars)[4], size_t n, unsigned c,
                                                        unsigned group, unsigned threads, unsigned batch, void *out,
                                                        char *err, size_t errlen)
{
    if (!bases || !scalars || !out || n == 0 || n >= 0x80000000u || c < C_MIN || c > C_MAX || group == 0 ||
        threads == 0 || batch == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm tree host check: bad arguments");
    const uint64_t *b = (const uint64_t *)bases, *s = (const uint64_t *)scalars;
    enum czk_status st = CZK_ERR_INVALID_ARG;
    if (curve == CZK_GROTH16_CURVE_BN254)
        st = tree_host_check<g1_bn254_t>(b, s, n, c, group, threads, batch, (uint64_t *)out);
    else if (curve == CZK_GROTH16_CURVE_BLS12_381)
        st = tree_host_check<g1_bls12_381_t>(b, s, n, c, group, threads, batch, (uint64_t *)out);
    else
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm tree host check: bad curve %d", (int)curve);
    if (st != CZK_OK)
        return czk_errf(st, err, errlen, "cuda msm tree host check: a level outgrew its plan");
    return st;
}

extern "C" enum czk_status czk_cuda_msm_team_host_check(enum czk_groth16_curve curve, unsigned group,
                                                        const void *bases, size_t n, char *err, size_t errlen)
{
    if (!bases || n < 2 || (group != 1 && group != 2))
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm team host check: bad arguments");
    const uint64_t *b = (const uint64_t *)bases;
    bool ok;
    if (curve == CZK_GROTH16_CURVE_BN254)
        ok = group == 1 ? team_host_check<g1_bn254_t>(b, n, err, errlen) : team_host_check<g2_bn254_t>(b, n, err, errlen);
    else if (curve == CZK_GROTH16_CURVE_BLS12_381)
        ok = group == 1 ? team_host_check<g1_bls12_381_t>(b, n, err, errlen)
                        : team_host_check<g2_bls12_381_t>(b, n, err, errlen);
    else
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm team host check: bad curve %d", (int)curve);
    return ok ? CZK_OK : CZK_ERR_INTERNAL;
}

extern "C" void czk_cuda_msm_force_accumulation(unsigned kind)
{
    forced_acc = kind == CZK_MSM_ACC_XYZZ || kind == CZK_MSM_ACC_AFFINE || kind == CZK_MSM_ACC_TREE ? kind : 0;
}

namespace {
int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

size_t base_bytes(enum czk_groth16_curve curve, unsigned group)
{
    size_t fb = curve == CZK_GROTH16_CURVE_BN254 ? 32 : curve == CZK_GROTH16_CURVE_BLS12_381 ? 48 : 0;
    return 2 * fb * (group == 2 ? 2 : group == 1 ? 1 : 0);
}

/* Device out-of-memory predicted before allocating: CZK_ERR_DEVICE "need X bytes, Y free". */
enum czk_status check_free(size_t bytes, const char *what, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    size_t fr = 0, total = 0;
    const size_t slack = (size_t)64 << 20;
    CZK_CU_CHECK(cudaMemGetInfo(&fr, &total));
    if (bytes > fr || fr - bytes < slack)
        st = czk_errf(CZK_ERR_DEVICE, err, errlen, "cuda msm: %s: need %zu bytes, %zu free (of %zu)", what,
                      bytes, fr, total);
out:
    return st;
}

enum czk_status run_timed(enum czk_groth16_curve curve, unsigned group, const void *d_bases,
                          const uint64_t (*scalars)[4], size_t n, void *out, unsigned reps,
                          double *ms_median, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    cudaStream_t stream = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    void *d_scal = nullptr, *scratch = nullptr;
    double *times = (double *)calloc(reps ? reps : 1, sizeof(double));
    /* the fastest plan that fits beside the scalars */
    size_t avail = free_for_scratch(), sb;
    sb = czk_cuda_msm_scratch_fit(curve, group, n, avail > n * 32 ? avail - n * 32 : 0);
    if (!times)
        return czk_errf(CZK_ERR_NOMEM, err, errlen, "cuda msm: out of host memory");
    if (reps == 0)
        reps = 1;
    if (sb == 0) {
        free(times);
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: bad curve %d or group %u", (int)curve,
                        group);
    }
    st = check_free(sb + (n ? n * 32 : 0), "msm scratch and scalars", err, errlen);
    if (st != CZK_OK)
        goto out;
    CZK_CU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CZK_CU_CHECK(cudaEventCreate(&e0));
    CZK_CU_CHECK(cudaEventCreate(&e1));
    if (n) {
        CZK_CU_CHECK(cudaMalloc(&d_scal, n * 32));
        /* on the MSM's stream: a cudaMemcpy from pageable memory may return before its DMA is
         * done, and the non-blocking stream would not wait for it (seen on the H200: a 2^12
         * G2 test read scalars not yet written, one run in a few) */
        CZK_CU_CHECK(cudaMemcpyAsync(d_scal, scalars, n * 32, cudaMemcpyHostToDevice, stream));
    }
    CZK_CU_CHECK(cudaMalloc(&scratch, sb ? sb : 1));
    for (unsigned r = 0; r < reps; r++) {
        float ms = 0;
        CZK_CU_CHECK(cudaEventRecord(e0, stream));
        st = czk_cuda_msm(stream, curve, group, d_bases, d_scal, n, out, scratch, sb, err, errlen);
        if (st != CZK_OK)
            goto out;
        CZK_CU_CHECK(cudaEventRecord(e1, stream));
        CZK_CU_CHECK(cudaEventSynchronize(e1));
        CZK_CU_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        times[r] = ms;
    }
    qsort(times, reps, sizeof(double), cmp_double);
    if (ms_median)
        *ms_median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
out:
    if (scratch)
        cudaFree(scratch);
    if (d_scal)
        cudaFree(d_scal);
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (stream)
        cudaStreamDestroy(stream);
    free(times);
    return st;
}
} /* namespace */

extern "C" enum czk_status czk_cuda_msm_dev_bases(enum czk_groth16_curve curve, unsigned group,
                                                  const void *d_bases, const uint64_t (*scalars)[4], size_t n,
                                                  void *out, unsigned reps, double *ms_median, char *err,
                                                  size_t errlen)
{
    return run_timed(curve, group, d_bases, scalars, n, out, reps, ms_median, err, errlen);
}

extern "C" enum czk_status czk_cuda_msm_host(enum czk_groth16_curve curve, unsigned group, const void *bases,
                                             const uint64_t (*scalars)[4], size_t n, void *out, unsigned reps,
                                             double *ms_median, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    void *d_bases = nullptr;
    size_t bb = base_bytes(curve, group);
    if (bb == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: bad curve %d or group %u", (int)curve,
                        group);
    if (n) {
        st = check_free(n * bb, "bases", err, errlen);
        if (st != CZK_OK)
            goto out;
        CZK_CU_CHECK(cudaMalloc(&d_bases, n * bb));
        CZK_CU_CHECK(cudaMemcpy(d_bases, bases, n * bb, cudaMemcpyHostToDevice));
        /* the copy may return before its DMA ends; the MSM runs on a non-blocking stream */
        CZK_CU_CHECK(cudaDeviceSynchronize());
    }
    st = run_timed(curve, group, d_bases, scalars, n, out, reps, ms_median, err, errlen);
out:
    if (d_bases)
        cudaFree(d_bases);
    return st;
}

extern "C" enum czk_status czk_cuda_msm_running(enum czk_groth16_curve curve, unsigned group,
                                                const uint64_t (*scalars)[4], size_t n, void *out, unsigned reps,
                                                double *ms_median, double *ms_bases, char *err, size_t errlen)
{
    enum czk_status st = CZK_OK;
    void *d_bases = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    size_t bb = base_bytes(curve, group);
    if (bb == 0)
        return czk_errf(CZK_ERR_INVALID_ARG, err, errlen, "cuda msm: bad curve %d or group %u", (int)curve,
                        group);
    if (n) {
        float ms = 0;
        st = check_free(n * bb, "running bases", err, errlen);
        if (st != CZK_OK)
            goto out;
        CZK_CU_CHECK(cudaMalloc(&d_bases, n * bb));
        CZK_CU_CHECK(cudaEventCreate(&e0));
        CZK_CU_CHECK(cudaEventCreate(&e1));
        CZK_CU_CHECK(cudaEventRecord(e0));
        st = czk_cuda_make_running_bases(curve, group, d_bases, n, err, errlen);
        if (st != CZK_OK)
            goto out;
        CZK_CU_CHECK(cudaEventRecord(e1));
        CZK_CU_CHECK(cudaEventSynchronize(e1));
        CZK_CU_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (ms_bases)
            *ms_bases = ms;
    }
    st = run_timed(curve, group, d_bases, scalars, n, out, reps, ms_median, err, errlen);
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (d_bases)
        cudaFree(d_bases);
    return st;
}
