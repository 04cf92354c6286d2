/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk CUDA, internal to msm_impl.cuh: the pairwise ("tree") batch-affine bucket accumulation.
 *
 * The sorted (window, bucket) lists of a group of windows are summed level by level. At each
 * level a bucket of c > 0 elements has ceil(c/2) items: item k adds elements 2k and 2k + 1 of
 * the bucket (the last item of an odd bucket only carries its element). Every item of a level
 * is independent of every other, so any set of them can share one field inversion (Montgomery's
 * trick): a thread takes B items and pays 6 multiplications per affine addition (the trick's
 * 3, lambda, lambda^2, y3) plus one inversion per B, against 10 for an XYZZ mixed addition.
 * A bucket with c <= 2 elements is finished by its level (its item writes the bucket); the
 * others write their sums to the next level's list, in bucket order, and the next level sees
 * ceil(c/2) elements there. Levels repeat until no bucket is left (log2 of the largest bucket).
 *
 * Per level, on the device: counts (items and outputs per bucket), two exclusive scans (item
 * and output offsets), a max-scan over bucket markers (the bucket of each item), the plan
 * (element references and destination of each item) and the batch-affine kernel. The host reads
 * the two totals (one 8-byte copy and synchronisation per level) to size the launches.
 *
 * Windows are taken in groups of g, sized so that a group's first level is about one round of
 * T threads x B items; memory is thus about T B (2 list elements + 1 prefix product + one
 * descriptor) whatever n. List elements are affine; infinity (a sum P + (-P)) is marked by an x
 * whose last word is all ones (no reduced coordinate has it: every modulus is below 2^(32N-1)).
 * Everything per item is CZK_HD so czk_cuda_msm_tree_host_check runs the same code on the host.
 */
#ifndef CZK_CUDA_MSM_TREE_CUH
#define CZK_CUDA_MSM_TREE_CUH

/* included inside msm_impl.cuh's anonymous namespace */
namespace tree {

constexpr uint32_t FINAL = 1u << 31; /* destination is a bucket (id in the group) */

/* List elements are stored contiguously, Q uint4 words each: a lane_array of one thread
 * (element e at words e Q + q) */
template <class F> CZK_HD lane_array<F> elem_array(uint4 *p) { return lane_array<F>{p, 1}; }

template <class F> CZK_HD bool x_is_inf(const F &x)
{
    uint32_t w[sizeof(F) / 4];
    memcpy(w, &x, sizeof w);
    return w[sizeof(F) / 4 - 1] == 0xffffffffu;
}
template <class F> CZK_HD F inf_x()
{
    F r;
    memset(&r, 0xff, sizeof r);
    return r;
}

/* level 0: bucket b of the group spans [start[b], end[b]) of the group's sorted list */
CZK_HD void bounds_one(uint32_t e, const uint32_t *keys, uint32_t len, uint32_t m, uint32_t M, uint32_t *start,
                       uint32_t *end)
{
    uint32_t k = keys[e];
    if (!k)
        return;
    uint32_t w = e / m, o = e - w * m, b = w * M + k - 1;
    if (o == 0 || keys[e - 1] != k)
        start[b] = e;
    if (o + 1 == m || e + 1 == len || keys[e + 1] != k)
        end[b] = e + 1;
}

/* items and outputs of bucket b (cnt holds the ends at level 0, the counts after) */
CZK_HD void counts_one(uint32_t b, const uint32_t *start, uint32_t *cnt, bool from_end, uint32_t *items,
                       uint32_t *outc)
{
    uint32_t c = from_end ? cnt[b] - start[b] : cnt[b];
    if (from_end)
        cnt[b] = c;
    uint32_t i = (c + 1) / 2;
    items[b] = i;
    outc[b] = c > 2 ? i : 0;
}

/* descriptor of item q: element references (level 0: the sorted vals, index | sign << 31;
 * after: list indices; NONE: no second element), destination (FINAL | bucket, or list index) */
CZK_HD void plan_one(uint32_t q, const uint32_t *gid, const uint32_t *istart, const uint32_t *start,
                     const uint32_t *cnt, const uint32_t *ostart, const uint32_t *vals, uint4 *desc)
{
    uint32_t b = gid[q], k = q - istart[b], c = cnt[b], e = start[b] + 2 * k;
    uint4 d;
    d.x = vals ? vals[e] : e;
    d.y = 2 * k + 1 < c ? (vals ? vals[e + 1] : e + 1) : NONE;
    d.z = c <= 2 ? (b | FINAL) : ostart[b] + k;
    d.w = 0;
    desc[q] = d;
}

struct level_args {
    const uint4 *desc; /* read only by the level kernel */
    uint32_t items, T, B, rounds; /* item q = (r T + j T ... ): q = r T B + j T + t */
    uint32_t gbase;               /* bucket id of the group's first bucket */
    const uint64_t *bases;        /* level 0 */
    uint4 *in_x, *in_y, *out_x, *out_y, *pre;
};

/* Coordinate `half` (0: x, 1: y) of base i (zkey layout: N/2 u64 per coordinate, so every
 * coordinate is 16-byte aligned): 16-byte loads through the read-only path on the device. */
template <class F> CZK_HD F base_coord(const uint64_t *bases, uint32_t i, unsigned half)
{
    const uint64_t *p = bases + (size_t)i * F::N + half * (F::N / 2);
#ifdef __CUDA_ARCH__
    const uint4 *v = reinterpret_cast<const uint4 *>(p);
    return field_from_words<F>([=](unsigned q) { return __ldg(v + q); });
#else
    F r;
    r.load(p);
    return r;
#endif
}

/* The element access and output of one level's thread; FIRST: level 0 (elements are signed
 * bases): descriptor-driven loads, the writes, and the per-item steps of both passes. */
template <class G, bool FIRST> struct level_io {
    typedef typename G::field F;
    typedef typename G::pt pt;
    const level_args &a;
    typename G::pt *buckets;
    /* the lists, made from the arguments at each use (kernel parameters, not registers) */
    CZK_HD lane_array<F> IX() const { return elem_array<F>(a.in_x); }
    CZK_HD lane_array<F> IY() const { return elem_array<F>(a.in_y); }
    CZK_HD lane_array<F> OX() const { return elem_array<F>(a.out_x); }
    CZK_HD lane_array<F> OY() const { return elem_array<F>(a.out_y); }
    CZK_HD lane_array<F> PRE() const { return lane_array<F>{a.pre, a.T}; }
    CZK_HD level_io(const level_args &a_, pt *b_) : a(a_), buckets(b_) {}
    CZK_HD F ex(uint32_t r) const
    {
        if (FIRST)
            return base_coord<F>(a.bases, r & 0x7fffffffu, 0);
        return IX().ld(r, 0);
    }
    CZK_HD F ey(uint32_t r) const
    {
        if (FIRST) {
            F y = base_coord<F>(a.bases, r & 0x7fffffffu, 1);
            return r >> 31 ? F::neg(y) : y;
        }
        return IY().ld(r, 0);
    }
    /* descriptor of item q, through the read-only path on the device */
    CZK_HD uint4 desc(size_t q) const
    {
#ifdef __CUDA_ARCH__
        return __ldg(a.desc + q);
#else
        return a.desc[q];
#endif
    }
    /* the second element's reference, or the first's for a lone element (never NONE) */
    CZK_HD static uint32_t second(const uint4 &d) { return d.y == NONE ? d.x : d.y; }
    CZK_HD void put(uint32_t dest, const F &x, const F &y, bool inf) const
    {
        if (dest & FINAL) {
            pt p = pt::inf();
            if (!inf) {
                p.X = x;
                p.Y = y;
                p.ZZ = F::one();
                p.ZZZ = F::one();
            }
            buckets[a.gbase + (dest & ~FINAL)] = p;
        } else {
            OX().st(dest, 0, inf ? inf_x<F>() : x);
            OY().st(dest, 0, y);
        }
    }
    /* pass 1 of item d, its elements' x given: an item that needs no inversion is written at
     * once (returns false); else returns true (it waits for the round's inverse) and its
     * denominator in *den */
    CZK_HD bool classify(const uint4 &d, const F &xa, const F &xb, F *den) const
    {
        if (d.y == NONE) {
            put(d.z, xa, ey(d.x), !FIRST && x_is_inf(xa));
        } else if (!FIRST && x_is_inf(xa)) {
            put(d.z, xb, ey(d.y), x_is_inf(xb));
        } else if (!FIRST && x_is_inf(xb)) {
            put(d.z, xa, ey(d.x), false);
        } else if (!F::eq(xa, xb)) {
            *den = F::sub(xb, xa);
            return true;
        } else {
            F ya = ey(d.x);
            if (F::eq(ya, ey(d.y))) { /* P + P: the tangent */
                *den = F::dbl(ya);
                return true;
            }
            put(d.z, xa, ya, true); /* P + (-P) */
        }
        return false;
    }
    /* pass 2 of an item with two elements: its elements, the slope's denominator and numerator
     * (*sab the sum of the two x). Pass 1's classification is made again from the coordinates
     * (no status is stored between the passes): returns false for an item pass 1 wrote. */
    CZK_HD bool operands(const uint4 &d, F *xa, F *ya, F *sab, F *den, F *num) const
    {
        /* all four loads before any branch, so their latencies overlap */
        *xa = ex(d.x);
        *ya = ey(d.x);
        const F xb = ex(d.y), yb = ey(d.y);
        if (!FIRST && (x_is_inf(*xa) || x_is_inf(xb)))
            return false;
        *sab = F::add(*xa, xb);
        if (F::eq(*xa, xb)) {
            if (!F::eq(*ya, yb))
                return false; /* P + (-P) */
            *den = F::dbl(*ya);
            F s = F::sqr(*xa);
            *num = F::add(F::dbl(s), s);
            return true;
        }
        *den = F::sub(xb, *xa);
        *num = F::sub(yb, *ya);
        return true;
    }
};

/*
 * The work of thread t (t < T) at one level; FIRST: level 0. A thread's items of a round are
 * q = r T B + j T + t (j < B). Pass 1 loads descriptors two items ahead and the next item's x
 * coordinates one ahead, so neither the descriptor nor the elements it names are waited for;
 * pass 2 loads the next descriptor one ahead and an item's four coordinates and prefix
 * product together before using any of them. Nothing is written between the passes but the
 * prefix products: pass 2 tells the waiting items again from their coordinates, so the
 * descriptors stay read-only.
 */
template <class G, bool FIRST> CZK_HD void level_thread(const level_args &a, typename G::pt *buckets, uint32_t t)
{
    typedef typename G::field F;
    const level_io<G, FIRST> io(a, buckets);
    for (uint32_t r = 0; r < a.rounds; r++) {
        const size_t q0 = (size_t)r * a.T * a.B + t;
        if (q0 >= a.items)
            break; /* later rounds start later still */
        const size_t left = (a.items - q0 + a.T - 1) / a.T;
        const uint32_t nj = left < a.B ? (uint32_t)left : a.B; /* this thread's items this round */
        F prod = F::one();
        bool any = false;
        /* pass 1: the items without an inversion are done at once; the others' denominators
         * go into the prefix products */
        uint4 d = io.desc(q0), dn = nj > 1 ? io.desc(q0 + a.T) : d;
        F xa = io.ex(d.x), xb = io.ex(io.second(d));
        for (uint32_t j = 0; j < nj; j++) {
            const size_t q = q0 + (size_t)j * a.T;
            uint4 dnn = dn;
            F xan = xa, xbn = xb;
            if (j + 1 < nj) {
                xan = io.ex(dn.x);
                xbn = io.ex(io.second(dn));
                if (j + 2 < nj)
                    dnn = io.desc(q + 2 * (size_t)a.T);
            }
            F den;
            if (io.classify(d, xa, xb, &den)) {
                io.PRE().st(j, t, prod);
                prod = F::mul(prod, den);
                any = true;
            }
            d = dn;
            dn = dnn;
            xa = xan;
            xb = xbn;
        }
        if (!any)
            continue;
        /* pass 2: one inversion, then the waiting items, last first */
        F inv = F::inv(prod);
        d = io.desc(q0 + (size_t)(nj - 1) * a.T);
        for (uint32_t j = nj; j-- > 0;) {
            const size_t q = q0 + (size_t)j * a.T;
            const uint4 dc = d;
            if (j > 0)
                d = io.desc(q - a.T);
            if (dc.y == NONE)
                continue; /* a lone element: written by pass 1 */
            const F p = io.PRE().ld(j, t);
            F xa2, ya, sab, den, num;
            if (!io.operands(dc, &xa2, &ya, &sab, &den, &num))
                continue;
            F lam = F::mul(num, F::mul(inv, p));
            inv = F::mul(inv, den);
            F x3 = F::sub(F::sqr(lam), sab);
            io.put(dc.z, x3, F::sub(F::mul(lam, F::sub(xa2, x3)), ya), false);
        }
    }
}

__global__ void bounds_kernel(const uint32_t *keys, uint32_t len, uint32_t m, uint32_t M, uint32_t *start,
                              uint32_t *end)
{
    uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < len)
        bounds_one(e, keys, len, m, M, start, end);
}
__global__ void counts_kernel(uint32_t nb, const uint32_t *start, uint32_t *cnt, bool from_end, uint32_t *items,
                              uint32_t *outc)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb)
        counts_one(b, start, cnt, from_end, items, outc);
}
/* tot = {items, outputs} of the level */
__global__ void totals_kernel(uint32_t nb, const uint32_t *items, const uint32_t *istart, const uint32_t *outc,
                              const uint32_t *ostart, uint32_t *tot)
{
    tot[0] = istart[nb - 1] + items[nb - 1];
    tot[1] = ostart[nb - 1] + outc[nb - 1];
}
/* marks[istart[b]] = b for the buckets with items (marks zeroed first): a max-scan of marks is
 * then the bucket of every item */
__global__ void marks_kernel(uint32_t nb, const uint32_t *items, const uint32_t *istart, uint32_t *marks)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb && items[b])
        marks[istart[b]] = b;
}
struct max_u32 {
    __host__ __device__ uint32_t operator()(uint32_t x, uint32_t y) const { return x > y ? x : y; }
};
__global__ void plan_kernel(uint32_t items, const uint32_t *gid, const uint32_t *istart, const uint32_t *start,
                            const uint32_t *cnt, const uint32_t *ostart, const uint32_t *vals, uint4 *desc)
{
    uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q < items)
        plan_one(q, gid, istart, start, cnt, ostart, vals, desc);
}

/* minimum blocks per SM of the level kernel: its threads per SM are BLOCK times this */
/* (CZK_TREE_MINB_FP12 / _FP8 override the G1 values at build time, for register experiments) */
#ifndef CZK_TREE_MINB_FP12
#define CZK_TREE_MINB_FP12 3
#endif
#ifndef CZK_TREE_MINB_FP8
#define CZK_TREE_MINB_FP8 4
#endif
template <class G> constexpr int level_minb()
{
    return sizeof(typename G::field) > 48 ? 2 : G::field::N == 12 ? CZK_TREE_MINB_FP12 : CZK_TREE_MINB_FP8;
}
template <class G, bool FIRST>
__global__ void __launch_bounds__(BLOCK, level_minb<G>()) level_kernel(level_args a, typename G::pt *buckets)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < a.T)
        level_thread<G, FIRST>(a, buckets, t);
}
/* Launch shape of a level of `items` items: T threads (at most tmax), B items per thread and
 * round (at most bmax), rounds. */
struct shape {
    uint32_t T, B, rounds;
};
inline shape level_shape(uint32_t items, uint32_t tmax, uint32_t bmax)
{
    shape s;
    s.T = items < tmax ? items : tmax;
    if (s.T == 0)
        s.T = 1;
    size_t per = (size_t)s.T * bmax;
    s.rounds = (uint32_t)((items + per - 1) / per);
    if (s.rounds == 0)
        s.rounds = 1;
    size_t r = (size_t)s.T * s.rounds;
    s.B = (uint32_t)((items + r - 1) / r);
    if (s.B == 0)
        s.B = 1;
    return s;
}

/* Windows per group for m points per window: the group's first level holds about T bmax items */
inline unsigned group_windows(size_t m, unsigned W, size_t tmax, size_t bmax)
{
    size_t g = 2 * tmax * bmax / (m ? m : 1);
    return g < 1 ? 1 : g > W ? W : (unsigned)g;
}

/* Sizes (elements) that bound every group and level for any m' <= m at this W and M: e0 the
 * group's sorted entries, e1 the first list and the items of a level, e2 the second list. */
struct sizes {
    size_t e0, e1, e2, nb;
};
inline sizes bound_sizes(size_t m, unsigned W, size_t M, size_t tmax, size_t bmax)
{
    sizes s;
    size_t a = m > 2 * tmax * bmax ? m : 2 * tmax * bmax, b = (size_t)W * m;
    s.e0 = a < b ? a : b;
    s.nb = (size_t)W * M;
    s.e1 = (s.e0 + s.nb) / 2 + 1;
    s.e2 = (s.e1 + s.nb) / 2 + 1;
    return s;
}

} /* namespace tree */

#endif /* CZK_CUDA_MSM_TREE_CUH */
