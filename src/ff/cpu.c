/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU feature detection for the field arithmetic. On x86-64 the Montgomery product
 * has a mulx/adcx/adox path (mont_x86_64.c), used when CPUID reports BMI2 and ADX.
 * The flag is set once before main() by a constructor and only read afterwards.
 * CZK_FF_NO_ADX=1 in the environment forces the portable C path (tests use it to
 * cover both implementations).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "ff/ff_cpu.h"

bool czk_ff_have_adx;

#if defined(__x86_64__) && defined(__ELF__)
#include <cpuid.h>

__attribute__((constructor)) static void czk_ff_cpu_init(void)
{
    unsigned a, b, c, d;
    const char *off = getenv("CZK_FF_NO_ADX");
    if (off && *off && *off != '0')
        return;
    if (__get_cpuid_max(0, NULL) < 7)
        return;
    __cpuid_count(7, 0, a, b, c, d);
    /* leaf 7, ebx: bit 8 BMI2 (mulx), bit 19 ADX (adcx/adox) */
    czk_ff_have_adx = ((b >> 8) & 1) && ((b >> 19) & 1);
}
#endif
