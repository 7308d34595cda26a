/*
 * allocator.c - the CUDA caching allocator (first cut).
 *
 * Sizes are rounded to a size class: multiples of 512 bytes up to 1 MiB, of 2 MiB above. A freed
 * block goes onto its class's free list (the core's free passes the size alloc received, so no
 * pointer map is needed) and the next request of that class takes it back without cudaMalloc: in
 * steady state (a training loop asking for the same shapes every step) cudaMalloc is never called.
 * When cudaMalloc fails the cache is released (cudaFree of every free block) and the call retried
 * once; NULL then makes the core raise its out-of-memory error.
 *
 * Every kernel and copy runs on the legacy default stream, which orders a block's reuse after its
 * previous users; per-stream pools, splitting and merging come with streams (docs/cuda.md).
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuda_plugin.h"

#define SMALL_LIMIT (1u << 20)
#define SMALL_ROUND 512u
#define LARGE_ROUND (2u << 20)
#define MAX_DEVICES 16
#define BUCKETS 1024

typedef struct block {
    void *ptr;
    size_t size; /* the class size */
    struct block *next;
} block;

/* One free list per (device, class size), in a chained hash table keyed by the size. */
typedef struct free_list {
    size_t size;
    int32_t device;
    block *blocks;
    struct free_list *next;
} free_list;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static free_list *table[BUCKETS];
static block *spare; /* recycled block records */
static tc_allocator_stats stats;

static size_t class_size(size_t n) {
    if (n <= SMALL_LIMIT) return n == 0 ? SMALL_ROUND : (n + SMALL_ROUND - 1) / SMALL_ROUND * SMALL_ROUND;
    return (n + LARGE_ROUND - 1) / LARGE_ROUND * LARGE_ROUND;
}

static free_list *list_for(size_t size, int32_t device, int create) {
    size_t h = (size / SMALL_ROUND * 31u + (size_t)device) % BUCKETS;
    for (free_list *l = table[h]; l; l = l->next)
        if (l->size == size && l->device == device) return l;
    if (!create) return NULL;
    free_list *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->size = size;
    l->device = device;
    l->next = table[h];
    table[h] = l;
    return l;
}

/* cudaFree every cached block; called with the lock held. */
static void release_cached(void) {
    int current = -1;
    cudaGetDevice(&current);
    for (size_t h = 0; h < BUCKETS; h++)
        for (free_list *l = table[h]; l; l = l->next) {
            while (l->blocks) {
                block *b = l->blocks;
                l->blocks = b->next;
                cudaSetDevice(l->device);
                cudaFree(b->ptr);
                stats.cached_bytes -= b->size;
                b->next = spare;
                spare = b;
            }
        }
    if (current >= 0) cudaSetDevice(current);
}

void *cuda_cache_alloc(size_t nbytes, int32_t device) {
    if (device < 0 || device >= cuda_num_devices || device >= MAX_DEVICES) return NULL;
    size_t size = class_size(nbytes);
    pthread_mutex_lock(&lock);
    stats.n_allocs++;
    free_list *l = list_for(size, device, 1);
    void *ptr = NULL;
    if (l && l->blocks) {
        block *b = l->blocks;
        l->blocks = b->next;
        ptr = b->ptr;
        b->next = spare;
        spare = b;
        stats.cached_bytes -= size;
        stats.n_cache_hits++;
    } else if (l) {
        int current = -1;
        cudaGetDevice(&current);
        if (current != device) cudaSetDevice(device);
        if (cudaMalloc(&ptr, size) != cudaSuccess) {
            cudaGetLastError(); /* clear the sticky-free error */
            release_cached();   /* out of memory: give the cache back and try once more */
            cudaSetDevice(device);
            if (cudaMalloc(&ptr, size) != cudaSuccess) {
                cudaGetLastError();
                ptr = NULL;
            }
        }
        if (current >= 0 && current != device) cudaSetDevice(current);
    }
    if (ptr) {
        stats.allocated_bytes += size;
        if (stats.allocated_bytes > stats.peak_allocated_bytes) stats.peak_allocated_bytes = stats.allocated_bytes;
    }
    pthread_mutex_unlock(&lock);
    return ptr;
}

void cuda_cache_free(void *ptr, size_t nbytes, int32_t device) {
    if (!ptr) return;
    size_t size = class_size(nbytes);
    pthread_mutex_lock(&lock);
    free_list *l = list_for(size, device, 1);
    block *b = spare;
    if (b) spare = b->next;
    else b = malloc(sizeof *b);
    if (l && b) {
        b->ptr = ptr;
        b->size = size;
        b->next = l->blocks;
        l->blocks = b;
        stats.cached_bytes += size;
    } else { /* no memory for the record: hand the block back to the driver */
        free(b);
        cudaFree(ptr);
    }
    stats.allocated_bytes -= size;
    pthread_mutex_unlock(&lock);
}

void cuda_cache_empty(void) {
    pthread_mutex_lock(&lock);
    release_cached();
    pthread_mutex_unlock(&lock);
}

void cuda_cache_reset_peak(void) {
    pthread_mutex_lock(&lock);
    stats.peak_allocated_bytes = stats.allocated_bytes;
    pthread_mutex_unlock(&lock);
}

static void *a_alloc(void *ctx, size_t nbytes, int32_t device_index, void *stream) {
    return cuda_cache_alloc(nbytes, device_index);
}
static void a_free(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream) {
    cuda_cache_free(ptr, nbytes, device_index);
}
static void a_empty(void *ctx) { cuda_cache_empty(); }
static void a_stats(void *ctx, tc_allocator_stats *out) {
    pthread_mutex_lock(&lock);
    *out = stats;
    pthread_mutex_unlock(&lock);
}

const tc_allocator cuda_allocator = {
    .struct_size = sizeof(tc_allocator),
    .alloc = a_alloc,
    .free = a_free,
    .empty_cache = a_empty,
    .stats = a_stats,
};
