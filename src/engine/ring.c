/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bounded MPMC rings for the engine's stage hand-offs (engine_internal.h), after
 * Dmitry Vyukov's bounded queue design: every cell carries a sequence number; a
 * producer claims position `tail` with a CAS when cell.seq == tail and publishes the
 * cell with seq = tail + 1 (release); a consumer claims `head` when cell.seq ==
 * head + 1 and frees the cell with seq = head + capacity. No mutex is involved.
 * Blocking is done with two POSIX semaphores (futex-based in glibc, no mutex): `slots`
 * counts free cells, `items` published ones, so a push never finds the ring full and a
 * pop never finds it empty; a claimed cell not yet published by a slower producer is
 * waited for with a short yield loop (the producer is between its CAS and its store).
 * Threading: any number of producers and consumers. Ownership: the ring stores the
 * pointers only.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "engine/engine_internal.h"

void eng_sem_wait(sem_t *s)
{
    while (sem_wait(s) != 0 && errno == EINTR)
        ;
}

void eng_sem_post(sem_t *s) { (void)sem_post(s); }

enum czk_status eng_ring_init(struct eng_ring *r, size_t min_capacity)
{
    size_t cap = 2;
    while (cap < min_capacity)
        cap <<= 1;
    r->cells = malloc(cap * sizeof *r->cells);
    if (!r->cells)
        return CZK_ERR_NOMEM;
    for (size_t i = 0; i < cap; i++) {
        atomic_init(&r->cells[i].seq, i);
        r->cells[i].data = NULL;
    }
    r->mask = cap - 1;
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    if (sem_init(&r->items, 0, 0) != 0) {
        free(r->cells);
        return CZK_ERR_INTERNAL;
    }
    if (sem_init(&r->slots, 0, (unsigned)cap) != 0) {
        sem_destroy(&r->items);
        free(r->cells);
        return CZK_ERR_INTERNAL;
    }
    return CZK_OK;
}

void eng_ring_destroy(struct eng_ring *r)
{
    if (!r->cells)
        return;
    sem_destroy(&r->items);
    sem_destroy(&r->slots);
    free(r->cells);
    r->cells = NULL;
}

void eng_ring_push(struct eng_ring *r, void *p)
{
    eng_sem_wait(&r->slots);
    size_t pos = atomic_fetch_add_explicit(&r->tail, 1, memory_order_relaxed);
    struct eng_cell *c = &r->cells[pos & r->mask];
    /* The slot semaphore guarantees the cell is free or being freed by a consumer. */
    while (atomic_load_explicit(&c->seq, memory_order_acquire) != pos)
        sched_yield();
    c->data = p;
    atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
    eng_sem_post(&r->items);
}

void *eng_ring_pop(struct eng_ring *r)
{
    eng_sem_wait(&r->items);
    size_t pos = atomic_fetch_add_explicit(&r->head, 1, memory_order_relaxed);
    struct eng_cell *c = &r->cells[pos & r->mask];
    while (atomic_load_explicit(&c->seq, memory_order_acquire) != pos + 1)
        sched_yield();
    void *p = c->data;
    atomic_store_explicit(&c->seq, pos + r->mask + 1, memory_order_release);
    eng_sem_post(&r->slots);
    return p;
}
