/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MSM planning: the cost model that picks the Pippenger window width c, the number of
 * point chunks per window (splits) and, for the affine kernel, how many windows one task
 * handles together (see msm_internal.h). Pure arithmetic on the sizes; no state,
 * thread-safe.
 *
 * Model, in field multiplications: a task (g windows, one chunk of m/k points) costs
 * g (m/k acc + 2^(c-1) reduce): every point is accumulated into one bucket per window,
 * every bucket is reduced by the running sum. The tasks are taken by T workers, so the
 * parallel phase lasts about ceil(tasks / T) tasks (tasks of one call are about equal);
 * then the calling thread adds the W k partial sums and does the W c doublings of the
 * window combination. With W = ceil((bits + 1) / c) windows this is the classic
 * (bits / c)(n + 2^c) estimate, refined by the rounding to whole rounds of tasks, which
 * is what decides between windows and splits when threads are many and n is small.
 */
#include "msm/msm_internal.h"

/*
 * Kernel costs, in coordinate-field multiplications (a squaring counts as one; additions
 * and the loops' bookkeeping are folded in, as measured). XYZZ: madd 8M + 2S, add
 * 12M + 2S, dbl 6M + 3S. Affine: 5M + 1S per addition plus the amortised inversion and
 * the few points that overflow into XYZZ; a bucket's reduction is a madd and an add. An
 * affine task groups windows until it has 2048 buckets (batches of 512 additions).
 */
const struct czk_msm_cost czk_msm_cost_xyzz = {12.0, 34.0, 17.0, 11.0, 0};
const struct czk_msm_cost czk_msm_cost_affine = {8.0, 24.0, 17.0, 11.0, 2048};

double czk_msm_plan(size_t m, unsigned bits, unsigned threads, const struct czk_msm_cost *cost,
                    unsigned c_max, unsigned *c_out, unsigned *splits_out, unsigned *group_out)
{
    if (threads < 1)
        threads = 1;
    if (bits < 1)
        bits = 1;
    if (c_max < 1)
        c_max = 1;
    if (c_max > CZK_MSM_C_MAX)
        c_max = CZK_MSM_C_MAX;
    double best = -1.0;
    unsigned best_c = 1, best_k = 1, best_g = 1;
    /* More chunks than 4 per worker and window never pays: it only adds reductions. */
    size_t k_max = (size_t)threads * 4;
    if (k_max > m)
        k_max = m ? m : 1;
    for (unsigned c = 1; c <= c_max; c++) {
        unsigned w = czk_msm_windows(bits, c);
        size_t nb = (size_t)1 << (c - 1);
        unsigned g = 1;
        if (cost->group_buckets > nb) {
            size_t gg = cost->group_buckets / nb;
            g = gg > CZK_MSM_GROUP_MAX ? CZK_MSM_GROUP_MAX : (unsigned)gg;
            if (g > w)
                g = w;
        }
        unsigned groups = (w + g - 1) / g;
        double red = cost->reduce * (double)nb;
        for (size_t k = 1; k <= k_max; k++) {
            size_t tasks = (size_t)groups * k;
            size_t rounds = (tasks + threads - 1) / threads;
            double t = (double)rounds * g * ((double)m / (double)k * cost->acc + red) +
                       cost->add * (double)w * k + cost->dbl * (double)w * c;
            if (best < 0 || t < best) {
                best = t;
                best_c = c;
                best_k = (unsigned)k;
                best_g = g;
            }
        }
    }
    *c_out = best_c;
    *splits_out = best_k;
    if (group_out)
        *group_out = best_g;
    return best;
}
