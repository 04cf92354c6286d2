/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MSM planning: the cost model that picks the Pippenger window width c and the number of
 * point chunks per window (see msm_internal.h). Pure arithmetic on the sizes; no state,
 * thread-safe.
 *
 * Model, in units of one bucket accumulation: a task (one window, one chunk of m/k
 * points) costs m/k accumulations plus the running-sum reduction of its 2^(c-1) buckets
 * (two additions each, reduce_cost/2 units per addition and bucket, i.e. reduce_cost 2^c
 * units per task... see below). The W k tasks are taken by T workers, so the parallel
 * phase lasts about ceil(W k / T) tasks; the calling thread then adds the W k partial
 * sums and does the W c doublings of the window combination.
 */
#include "msm/msm_internal.h"

void czk_msm_plan(size_t m, unsigned bits, unsigned threads, double reduce_cost, unsigned c_max,
                  unsigned *c_out, unsigned *splits_out)
{
    if (threads < 1)
        threads = 1;
    if (bits < 1)
        bits = 1;
    if (c_max < 1)
        c_max = 1;
    if (c_max > CZK_MSM_C_MAX)
        c_max = CZK_MSM_C_MAX;
    /* A full addition of two partial sums and a doubling, in accumulation units. */
    const double add_cost = reduce_cost, dbl_cost = 0.6 * reduce_cost;
    double best = -1.0;
    unsigned best_c = 1, best_k = 1;
    /* More chunks than 4 per worker and window never pays: it only adds reductions. */
    size_t k_max = (size_t)threads * 4;
    if (k_max > m)
        k_max = m ? m : 1;
    for (unsigned c = 1; c <= c_max; c++) {
        unsigned w = czk_msm_windows(bits, c);
        double red = reduce_cost * (double)(UINT64_C(1) << c);
        for (size_t k = 1; k <= k_max; k++) {
            size_t tasks = (size_t)w * k;
            size_t rounds = (tasks + threads - 1) / threads;
            double cost = (double)rounds * ((double)m / (double)k + red) +
                          add_cost * (double)tasks + dbl_cost * (double)w * c;
            if (best < 0 || cost < best) {
                best = cost;
                best_c = c;
                best_k = (unsigned)k;
            }
        }
    }
    *c_out = best_c;
    *splits_out = best_k;
}
