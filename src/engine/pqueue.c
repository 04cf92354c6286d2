/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's priority queue: a binary max-heap of partitions ordered by priority
 * (CRITICAL first) and, within a priority, by submission sequence (FIFO). Fixed
 * capacity (the engine's queue_capacity), allocated once. Threading: none here; the
 * engine calls it under its mutex. Ownership: entries point to partitions owned by
 * their jobs.
 */
#include <stdlib.h>

#include "engine/engine_internal.h"

/* a before b: higher priority, then older. */
static bool before(const struct eng_qent *a, const struct eng_qent *b)
{
    return a->prio != b->prio ? a->prio > b->prio : a->seq < b->seq;
}

static void swap(struct eng_qent *a, struct eng_qent *b)
{
    struct eng_qent t = *a;
    *a = *b;
    *b = t;
}

static void sift_up(struct eng_qent *h, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&h[i], &h[parent]))
            break;
        swap(&h[i], &h[parent]);
        i = parent;
    }
}

static void sift_down(struct eng_qent *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && before(&h[l], &h[m]))
            m = l;
        if (r < n && before(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        swap(&h[i], &h[m]);
        i = m;
    }
}

enum czk_status eng_pq_init(struct eng_pqueue *q, size_t cap)
{
    q->heap = malloc((cap ? cap : 1) * sizeof *q->heap);
    if (!q->heap)
        return CZK_ERR_NOMEM;
    q->n = 0;
    q->cap = cap;
    q->next_seq = 0;
    for (int i = 0; i < CZK_PRIORITY_COUNT; i++)
        q->depth[i] = 0;
    return CZK_OK;
}

void eng_pq_destroy(struct eng_pqueue *q)
{
    free(q->heap);
    q->heap = NULL;
    q->n = q->cap = 0;
}

void eng_pq_push(struct eng_pqueue *q, struct eng_part *p, enum czk_priority prio)
{
    struct eng_qent *e = &q->heap[q->n];
    e->p = p;
    e->seq = q->next_seq++;
    e->prio = (uint8_t)prio;
    q->depth[prio]++;
    sift_up(q->heap, q->n++);
}

struct eng_part *eng_pq_pop(struct eng_pqueue *q)
{
    if (q->n == 0)
        return NULL;
    struct eng_part *p = q->heap[0].p;
    q->depth[q->heap[0].prio]--;
    q->heap[0] = q->heap[--q->n];
    sift_down(q->heap, q->n, 0);
    return p;
}

size_t eng_pq_remove_if(struct eng_pqueue *q, bool (*pred)(const struct eng_part *, const void *),
                        const void *arg, struct eng_part **out, size_t cap)
{
    size_t kept = 0, removed = 0;
    for (size_t i = 0; i < q->n; i++) {
        if (removed < cap && pred(q->heap[i].p, arg)) {
            q->depth[q->heap[i].prio]--;
            out[removed++] = q->heap[i].p;
        } else {
            q->heap[kept++] = q->heap[i];
        }
    }
    q->n = kept;
    /* Floyd's heap construction restores the order in O(n). */
    for (size_t i = kept / 2; i-- > 0;)
        sift_down(q->heap, kept, i);
    return removed;
}
