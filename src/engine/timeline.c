/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's in-memory timeline: a ring of stage begin/end events that any worker
 * appends to without a lock and a reader copies out (czk_engine_timeline_read, used by
 * `czk batch` for its per-worker summary). Event i lives in slot i % cap; its writer
 * marks the slot 2i+1 (writing), stores the fields, then 2i+2 (written), all atomics, so
 * a reader takes an event only when it reads 2i+2 before and after copying the fields.
 * Two writers of one slot at once (events i and i + cap in flight together) would need
 * the ring to wrap during one store; the reader's check drops such an event.
 * Threading: any writers, any readers. Ownership: the engine owns the slots.
 */
#include <stdlib.h>

#include "engine/engine_internal.h"

enum czk_status eng_tl_init(struct eng_timeline *tl, size_t cap)
{
    tl->slots = calloc(cap, sizeof *tl->slots);
    if (!tl->slots)
        return CZK_ERR_NOMEM;
    tl->cap = cap;
    for (size_t i = 0; i < cap; i++) {
        atomic_init(&tl->slots[i].seq, 0);
        atomic_init(&tl->slots[i].t_us, 0);
        atomic_init(&tl->slots[i].job, 0);
        atomic_init(&tl->slots[i].packed, 0);
    }
    atomic_init(&tl->next, 0);
    return CZK_OK;
}

void eng_tl_destroy(struct eng_timeline *tl)
{
    free(tl->slots);
    tl->slots = NULL;
}

void eng_tl_put(struct eng_timeline *tl, double t_ms, czk_job_id job, uint32_t part,
                uint16_t worker, enum czk_engine_stage stage, bool begin)
{
    uint64_t i = atomic_fetch_add_explicit(&tl->next, 1, memory_order_relaxed);
    struct eng_tl_slot *s = &tl->slots[i % tl->cap];
    atomic_store_explicit(&s->seq, 2 * i + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&s->t_us, (uint64_t)(t_ms * 1000.0), memory_order_relaxed);
    atomic_store_explicit(&s->job, job, memory_order_relaxed);
    uint64_t packed = (uint64_t)part << 32 | (uint64_t)worker << 16 | (uint64_t)stage << 8 |
                      (begin ? 1u : 0u);
    atomic_store_explicit(&s->packed, packed, memory_order_relaxed);
    atomic_store_explicit(&s->seq, 2 * i + 2, memory_order_release);
}

size_t eng_tl_read(struct eng_timeline *tl, uint64_t from, struct czk_engine_event *ev,
                   size_t cap, uint64_t *next)
{
    uint64_t end = atomic_load_explicit(&tl->next, memory_order_acquire);
    if (end > tl->cap && from < end - tl->cap)
        from = end - tl->cap;
    size_t n = 0;
    uint64_t i = from;
    for (; i < end && n < cap; i++) {
        struct eng_tl_slot *s = &tl->slots[i % tl->cap];
        uint64_t s1 = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (s1 != 2 * i + 2) {
            if (s1 < 2 * i + 2)
                break; /* still being written: read it next time */
            continue;  /* overwritten meanwhile */
        }
        uint64_t t = atomic_load_explicit(&s->t_us, memory_order_relaxed);
        uint64_t job = atomic_load_explicit(&s->job, memory_order_relaxed);
        uint64_t packed = atomic_load_explicit(&s->packed, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->seq, memory_order_relaxed) != s1)
            continue;
        ev[n].seq = i;
        ev[n].t_ms = (double)t / 1000.0;
        ev[n].job = job;
        ev[n].part = (uint32_t)(packed >> 32);
        ev[n].worker = (uint16_t)(packed >> 16);
        ev[n].stage = (uint8_t)(packed >> 8);
        ev[n].begin = (uint8_t)(packed & 1u);
        n++;
    }
    *next = i;
    return n;
}
