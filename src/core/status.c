/* SPDX-License-Identifier: Apache-2.0 */
/* Status-code names, the version string and czk_errf (the optional error-detail writer). */
#include <stdarg.h>
#include <stdio.h>

#include "czk/czk.h"

const char *czk_version(void) { return "0.1.0"; }

const char *czk_status_str(enum czk_status s)
{
    switch (s) {
    case CZK_OK: return "ok";
    case CZK_CANCELLED: return "cancelled";
    case CZK_ERR_INVALID_ARG: return "invalid argument";
    case CZK_ERR_NOMEM: return "out of memory";
    case CZK_ERR_BUDGET: return "memory budget exceeded";
    case CZK_ERR_DEVICE: return "device error";
    case CZK_ERR_DEVICE_LOST: return "device lost";
    case CZK_ERR_IO: return "I/O error";
    case CZK_ERR_FORMAT: return "bad format";
    case CZK_ERR_UNSUPPORTED: return "unsupported";
    case CZK_ERR_BUSY: return "busy";
    case CZK_ERR_SHORT_BUFFER: return "buffer too small";
    case CZK_ERR_INTERNAL: return "internal error";
    case CZK_ERR_NOT_ON_CURVE: return "point not on curve";
    case CZK_ERR_NOT_IN_SUBGROUP: return "point not in subgroup";
    case CZK_ERR_RANGE: return "value >= modulus";
    case CZK_ERR_INVALID_PROOF: return "invalid proof";
    }
    return "unknown status";
}

enum czk_status czk_errf(enum czk_status s, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return s;
}
