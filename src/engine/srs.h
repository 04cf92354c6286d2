/* SPDX-License-Identifier: Apache-2.0 */
/*
 * czk SRS manager (issue 7): the proving keys (SRS) of the circuits the engine serves,
 * in three tiers per device:
 *   cold  the .zkey file only (nothing in memory);
 *   warm  loaded and validated in host memory (czk_prover_key_t, mmap-backed);
 *   hot   additionally resident on a device (bases uploaded; GPU devices only — on the
 *         CPU device warm and hot coincide, borrowing host memory).
 * Each tier is bounded by a budget (host budget for warm keys, one budget per GPU for
 * hot keys); making a key warm or hot evicts least-recently-used keys that no job holds
 * until the new one fits; a key in use is never evicted. Load times are logged
 * (SRS_LOAD key=... tier=... ms=... bytes=...).
 *
 * Threading: all functions are thread-safe; acquire of a key being loaded by another
 * thread waits for that load instead of loading twice.
 */
#ifndef CZK_ENGINE_SRS_H
#define CZK_ENGINE_SRS_H

#include <stdbool.h>
#include <stdint.h>

#include "czk/czk_prover.h"
#include "mem/mem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_srs_mgr *czk_srs_mgr_t;

enum czk_srs_tier { CZK_SRS_COLD = 0, CZK_SRS_WARM = 1, CZK_SRS_HOT = 2 };

struct czk_srs_opts {
    czk_budget_t host_budget; /* warm keys are reserved here (required) */
    unsigned load_flags;      /* enum czk_prover_key_flags (CZK_PROVER_KEY_TRUST) */
    unsigned threads;         /* key validation threads, 0 = all cores */
    /* When a key does not fit and no unheld key is left to evict: wait up to this many
     * ms for the budget (other users releasing; keys becoming unheld), < 0 forever;
     * 0 (the default) fails at once with CZK_ERR_BUDGET. */
    int wait_ms;
};

enum czk_status czk_srs_mgr_new(czk_srs_mgr_t *out, const struct czk_srs_opts *opts);
/** No key may be held. NULL: no-op. */
void czk_srs_mgr_free(czk_srs_mgr_t m);

/**
 * Register circuit `id` (a caller-chosen name, <= 63 chars [A-Za-z0-9._-]) served from
 * `zkey_path`; cold until first used. The file header is read and validated now, so
 * the circuit's sizes are known (czk_srs_info) before any load. Re-registering the same
 * id with the same path is a no-op; another path: CZK_ERR_INVALID_ARG.
 */
enum czk_status czk_srs_register(czk_srs_mgr_t m, const char *id, const char *zkey_path, char *err,
                                 size_t errlen);

struct czk_srs_info {
    struct czk_prover_key_info key; /* curve, sizes */
    uint64_t host_bytes;            /* memory the warm tier holds for this key */
    uint64_t device_bytes;          /* device memory the hot tier holds on a GPU */
    enum czk_srs_tier tier;         /* highest tier on any device now */
    uint64_t n_loads, n_evictions;
    double last_load_ms;
};
enum czk_status czk_srs_info(czk_srs_mgr_t m, const char *id, struct czk_srs_info *info);
/** The device of budget `dev` goes away (its engine stops): every key stops being hot there
 * and its device bytes are released from `dev`, so the budget can be freed. No key may be
 * held on that device. NULL arguments: no-op. */
void czk_srs_forget_device(czk_srs_mgr_t m, czk_budget_t dev);


/**
 * Hold the key of circuit `id`, loading it to warm if needed (blocking; evicting LRU
 * keys not held under the host budget). *key stays valid until czk_srs_release.
 * With dev_budget != NULL the key is also counted hot on that device's budget
 * (the backend makes the bases resident on first use); may evict other hot keys there.
 * Returns CZK_OK; CZK_ERR_INVALID_ARG (unknown id); CZK_ERR_BUDGET (cannot fit even
 * after evicting every unheld key); load errors (CZK_ERR_IO, CZK_ERR_FORMAT, ...).
 */
enum czk_status czk_srs_acquire(czk_srs_mgr_t m, const char *id, czk_budget_t dev_budget,
                                czk_prover_key_t *key, char *err, size_t errlen);
void czk_srs_release(czk_srs_mgr_t m, const char *id);

/** Load to warm now without holding (CZK_OK when already warm). */
enum czk_status czk_srs_preload(czk_srs_mgr_t m, const char *id, char *err, size_t errlen);
/** Drop to cold if no job holds it: CZK_OK, or CZK_ERR_BUSY when held. */
enum czk_status czk_srs_evict(czk_srs_mgr_t m, const char *id);

#ifdef __cplusplus
}
#endif

#endif /* CZK_ENGINE_SRS_H */
