/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk — public core API: version, status codes, logging.
 *
 * Every failable function in libczk returns enum czk_status: zero is success,
 * negative values are failures, positive values are non-error outcomes.
 * Pure arithmetic returns void and predicates return bool (see czk_ff.h).
 *
 * Logging goes through one process-wide callback set with czk_log_set(); the
 * library never writes to stdout/stderr on its own once a callback is set.
 * The default sink writes WARN and above to stderr. The callback may be called
 * from any thread and must be thread-safe.
 */
#ifndef CZK_CZK_H
#define CZK_CZK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CZK_BUILDING) && defined(__GNUC__)
#define CZK_API __attribute__((visibility("default")))
#else
#define CZK_API
#endif

#define CZK_VERSION_MAJOR 0
#define CZK_VERSION_MINOR 1
#define CZK_VERSION_PATCH 0

/** Version string "MAJOR.MINOR.PATCH"; static storage. */
CZK_API const char *czk_version(void);

enum czk_status {
    CZK_OK = 0,
    CZK_CANCELLED = 1,          /* non-error outcome                              */
    CZK_ERR_INVALID_ARG = -1,   /* bad argument or malformed value                 */
    CZK_ERR_NOMEM = -2,         /* host allocation failed                          */
    CZK_ERR_BUDGET = -3,        /* would exceed the memory budget (retryable)      */
    CZK_ERR_DEVICE = -4,        /* device (CUDA) error; details logged             */
    CZK_ERR_DEVICE_LOST = -5,   /* sticky device error: device taken out of use    */
    CZK_ERR_IO = -6,            /* file or socket I/O failed                       */
    CZK_ERR_FORMAT = -7,        /* bad encoding: length, flags, range, curve       */
    CZK_ERR_UNSUPPORTED = -8,   /* backend or build declined the operation         */
    CZK_ERR_BUSY = -9,          /* queue full                                      */
    CZK_ERR_SHORT_BUFFER = -10, /* output buffer too small; *len holds the need    */
    CZK_ERR_INTERNAL = -11,     /* invariant violated inside libczk                */
    CZK_ERR_NOT_ON_CURVE = -12, /* point does not satisfy the curve equation       */
    CZK_ERR_NOT_IN_SUBGROUP = -13, /* point on the curve but outside the r-subgroup */
    CZK_ERR_RANGE = -14,        /* integer value >= field modulus                  */
    CZK_ERR_INVALID_PROOF = -15, /* well-formed proof that does not verify          */
};

/** Static, human-readable name of a status ("ok", "value >= modulus", ...). */
CZK_API const char *czk_status_str(enum czk_status s);

enum czk_log_level {
    CZK_LOG_DEBUG = 0,
    CZK_LOG_INFO = 1,
    CZK_LOG_WARN = 2,
    CZK_LOG_ERROR = 3,
};

/**
 * Log sink. `comp` is the component ("ff", "io", "engine", ...), `msg` the
 * formatted message without trailing newline. Both are valid only during the
 * call. Must be thread-safe.
 */
typedef void (*czk_log_fn)(enum czk_log_level level, const char *comp, const char *msg,
                           void *user);

/**
 * Install the log sink and minimum level. fn == NULL restores the default
 * stderr sink. Thread-safe; messages below `min_level` are not formatted.
 */
CZK_API void czk_log_set(czk_log_fn fn, void *user, enum czk_log_level min_level);

/** Current minimum level (for callers that want to skip expensive formatting). */
CZK_API enum czk_log_level czk_log_level_get(void);

/** printf-style logging entry used by libczk and its programs. */
CZK_API void czk_log(enum czk_log_level level, const char *comp, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * Optional error detail for public entry points that take (char *err, size_t errlen):
 * czk_errf writes a formatted message into err when err != NULL && errlen > 0
 * and returns `s`, so parsers can write `return czk_errf(s, err, errlen, "...")`.
 */
CZK_API enum czk_status czk_errf(enum czk_status s, char *err, size_t errlen, const char *fmt,
                                 ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* CZK_CZK_H */
