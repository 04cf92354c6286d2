/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plain host allocator (mem.h): anonymous private mappings, page-aligned, given
 * back to the operating system by munmap on free (no heap fragmentation, nothing left
 * for malloc_trim). Stateless and thread-safe.
 */
#include <sys/mman.h>

#include "mem/mem.h"

static void *host_alloc(void *ctx, size_t size)
{
    (void)ctx;
    if (size == 0)
        return NULL;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void host_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (ptr && munmap(ptr, size) != 0)
        czk_log(CZK_LOG_ERROR, "mem", "munmap of %zu bytes at %p failed", size, ptr);
}

static const struct czk_allocator host_allocator = {
    .name = "host",
    .pinned = false,
    .alloc = host_alloc,
    .free = host_free,
    .ctx = NULL,
};

const struct czk_allocator *czk_allocator_host(void) { return &host_allocator; }
