/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the czk subcommands (see cli.h). */
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "czk/czk_groth16.h"

double czk_cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double czk_cli_median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const char *czk_cli_curve_id(int curve)
{
    return curve == CZK_GROTH16_CURVE_BN254 ? "bn254" : "bls12_381";
}
