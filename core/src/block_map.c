/*
 * A map from block address to block size, for allocators whose free callback is told the size that
 * was asked for rather than the size of the block handed out (a cached block may be larger than the
 * request it served). Open addressing with linear probing and backward-shift deletion, so there are
 * no tombstones and a lookup never scans more than the run its key hashes into. Not thread-safe: the
 * owning allocator holds its lock around every call.
 */
#include "core_internal.h"

#include <stdlib.h>

static size_t slot_of(const tc_blockmap *m, const void *ptr) {
    uint64_t h = (uint64_t)(uintptr_t)ptr >> 12; /* blocks are page-aligned: the low bits say nothing */
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (m->capacity - 1);
}

static int grow(tc_blockmap *m) {
    size_t capacity = m->capacity ? m->capacity * 2 : 64;
    if (capacity < m->capacity || capacity > SIZE_MAX / sizeof(tc_blockmap_entry)) return TC_FAIL;
    tc_blockmap_entry *old = m->entries;
    size_t old_capacity = m->capacity;
    tc_blockmap_entry *entries = calloc(capacity, sizeof *entries);
    if (!entries) return TC_FAIL;
    m->entries = entries;
    m->capacity = capacity;
    m->count = 0;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i].ptr) tc_blockmap_put(m, old[i].ptr, old[i].size); /* cannot fail: room was made */
    free(old);
    return TC_OK;
}

int tc_blockmap_put(tc_blockmap *m, void *ptr, size_t size) {
    if ((m->count + 1) * 2 > m->capacity && grow(m) != TC_OK) return TC_FAIL;
    size_t i = slot_of(m, ptr);
    while (m->entries[i].ptr && m->entries[i].ptr != ptr) i = (i + 1) & (m->capacity - 1);
    if (!m->entries[i].ptr) m->count++;
    m->entries[i] = (tc_blockmap_entry){ptr, size};
    return TC_OK;
}

size_t tc_blockmap_take(tc_blockmap *m, const void *ptr) {
    if (!m->capacity || !ptr) return 0;
    const size_t mask = m->capacity - 1;
    size_t i = slot_of(m, ptr);
    while (m->entries[i].ptr != ptr) {
        if (!m->entries[i].ptr) return 0;
        i = (i + 1) & mask;
    }
    const size_t size = m->entries[i].size;
    /* Backward shift: pull later members of the run into the hole when their home slot allows. */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; m->entries[j].ptr; j = (j + 1) & mask) {
        size_t home = slot_of(m, m->entries[j].ptr);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            m->entries[hole] = m->entries[j];
            hole = j;
        }
    }
    m->entries[hole] = (tc_blockmap_entry){NULL, 0};
    m->count--;
    return size;
}
