/*
 * allocator.c - the CUDA caching allocator.
 *
 * Two kinds of blocks, as PyTorch's:
 *   small  requests up to 1 MiB, rounded to 512 bytes; each its own cudaMalloc; a freed one goes onto
 *          the free list of its (device, stream, size) and the next request of that size takes it.
 *   large  requests above 1 MiB, rounded to 512 bytes, carved from segments (cudaMalloc of a multiple
 *          of 2 MiB): best fit among the pool's free blocks, split when at least 1 MiB would be left
 *          over (the rest stays free in the pool); a freed block merges with its free neighbours of
 *          the same segment, so a whole segment frees up again as one block.
 * Pools are per (device, stream): a block goes back to the pool of the stream that was current when
 * it was allocated (the stream its users ran on), and is handed out again only on that stream, so its
 * reuse is ordered after its last use without synchronising. A pointer map finds a freed pointer's
 * block. In steady state (a training loop asking for the same shapes every step) cudaMalloc is never
 * called. When cudaMalloc fails the cache is released (cudaFree of every free small block and every
 * wholly free segment) and the call retried once; then the out-of-memory error says PyTorch's words
 * with the figures (torch.cuda.OutOfMemoryError).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_plugin.h"

#define SMALL_LIMIT ((size_t)1 << 20)
#define ROUND ((size_t)512)
#define SEGMENT_ROUND ((size_t)2 << 20)
#define SPLIT_MIN ((size_t)1 << 20) /* a large block is split when this much or more would be left */
#define MAX_DEVICES 16
#define BUCKETS 1024
#define PTR_BUCKETS 4096

typedef struct block {
    char *ptr;
    size_t size;
    int32_t device;
    int is_free;
    void *stream;                    /* the pool it belongs to */
    struct block *prev, *next;       /* large: neighbours in its segment (prev NULL: the segment's start) */
    struct block *fprev, *fnext;     /* on a free list */
    struct block *hnext;             /* pointer map chain (live blocks) */
} block;

/* Small blocks: one free list per (device, stream, size), chained hash keyed by them. */
typedef struct free_list {
    size_t size;
    int32_t device;
    void *stream;
    block *blocks;
    struct free_list *next;
} free_list;

/* Large blocks: one pool per (device, stream), its free blocks in a list (best fit by a scan). */
typedef struct large_pool {
    int32_t device;
    void *stream;
    block *free;
    struct large_pool *next;
} large_pool;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static free_list *table[BUCKETS];
static large_pool *pools;
static block *live[PTR_BUCKETS];
static block *spare; /* recycled block records */
static tc_allocator_stats stats;
static uint64_t stats_oom_count, stats_retries, stats_splits, stats_merges, stats_segments;

/* The rounded size of a request; 0 when rounding up would overflow (no such allocation can succeed). */
static size_t round_size(size_t n) {
    if (n == 0) return ROUND;
    if (n > SIZE_MAX - SEGMENT_ROUND) return 0;
    return (n + ROUND - 1) / ROUND * ROUND;
}

static block *new_block(void) {
    block *b = spare;
    if (b) spare = b->hnext;
    else b = malloc(sizeof *b);
    if (b) *b = (block){0};
    return b;
}

static void drop_block(block *b) {
    b->hnext = spare;
    spare = b;
}

static size_t ptr_hash(const void *p) { return ((uintptr_t)p >> 9) % PTR_BUCKETS; }

static void map_insert(block *b) {
    size_t h = ptr_hash(b->ptr);
    b->hnext = live[h];
    live[h] = b;
}

static block *map_remove(const void *p) {
    for (block **at = &live[ptr_hash(p)]; *at; at = &(*at)->hnext)
        if ((*at)->ptr == p) {
            block *b = *at;
            *at = b->hnext;
            b->hnext = NULL;
            return b;
        }
    return NULL;
}

static free_list *list_for(size_t size, int32_t device, void *stream, int create) {
    size_t h = (size / ROUND * 31u + (size_t)device + ((uintptr_t)stream >> 4)) % BUCKETS;
    for (free_list *l = table[h]; l; l = l->next)
        if (l->size == size && l->device == device && l->stream == stream) return l;
    if (!create) return NULL;
    free_list *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->size = size;
    l->device = device;
    l->stream = stream;
    l->next = table[h];
    table[h] = l;
    return l;
}

static large_pool *pool_for(int32_t device, void *stream, int create) {
    for (large_pool *p = pools; p; p = p->next)
        if (p->device == device && p->stream == stream) return p;
    if (!create) return NULL;
    large_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->device = device;
    p->stream = stream;
    p->next = pools;
    pools = p;
    return p;
}

static void pool_push(large_pool *p, block *b) {
    b->is_free = 1;
    b->fprev = NULL;
    b->fnext = p->free;
    if (p->free) p->free->fprev = b;
    p->free = b;
}

static void pool_unlink(large_pool *p, block *b) {
    if (b->fprev) b->fprev->fnext = b->fnext;
    else p->free = b->fnext;
    if (b->fnext) b->fnext->fprev = b->fprev;
    b->fprev = b->fnext = NULL;
    b->is_free = 0;
}

/* PyTorch's format_size: bytes, KiB, MiB or GiB with two decimals. */
static void format_size(char *buf, size_t len, size_t n) {
    if (n < 1024) snprintf(buf, len, "%zu bytes", n);
    else if (n < 1048576) snprintf(buf, len, "%.2f KiB", n / 1024.0);
    else if (n < 1073741824) snprintf(buf, len, "%.2f MiB", n / 1048576.0);
    else snprintf(buf, len, "%.2f GiB", n / 1073741824.0);
}

/* The core's out-of-memory error in PyTorch's words, with the figures; called with the lock held. */
static void out_of_memory(size_t nbytes, int32_t device) {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) cudaGetLastError();
    char req[32], tot[32], fr[32], al[32], rs[32];
    format_size(req, sizeof req, nbytes);
    format_size(tot, sizeof tot, total_b);
    format_size(fr, sizeof fr, free_b);
    format_size(al, sizeof al, (size_t)stats.allocated_bytes);
    format_size(rs, sizeof rs, (size_t)stats.cached_bytes);
    stats_oom_count++;
    cuda_core->set_error(TC_ERR_OUT_OF_MEMORY,
                         "CUDA out of memory. Tried to allocate %s. GPU %d has a total capacity of %s of which %s is "
                         "free. Of the allocated memory %s is allocated by PyTorch, and %s is reserved by PyTorch but "
                         "unallocated. If reserved but unallocated memory is large try setting "
                         "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation "
                         "for Memory Management  "
                         "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
                         req, (int)device, tot, fr, al, rs);
}

/* cudaMalloc on `device`; called with the lock held. */
static cudaError_t device_malloc(void **ptr, size_t size, int32_t device) {
    int current = -1;
    cudaGetDevice(&current);
    if (current != device) cudaSetDevice(device);
    cudaError_t e = cudaMalloc(ptr, size);
    if (current >= 0 && current != device) cudaSetDevice(current);
    return e;
}

/* cudaFree every free small block and every wholly free large segment; called with the lock held. */
static void release_cached(void) {
    int current = -1;
    cudaGetDevice(&current);
    for (size_t h = 0; h < BUCKETS; h++)
        for (free_list *l = table[h]; l; l = l->next)
            while (l->blocks) {
                block *b = l->blocks;
                l->blocks = b->fnext;
                cudaSetDevice(l->device);
                cudaFree(b->ptr);
                stats.cached_bytes -= b->size;
                drop_block(b);
            }
    for (large_pool *p = pools; p; p = p->next)
        for (block *b = p->free, *nb; b; b = nb) {
            nb = b->fnext;
            if (b->prev || b->next) continue; /* part of a segment still in use */
            pool_unlink(p, b);
            cudaSetDevice(p->device);
            cudaFree(b->ptr);
            stats.cached_bytes -= b->size;
            stats_segments--;
            drop_block(b);
        }
    if (current >= 0) cudaSetDevice(current);
}

/* A large block of `size` from the pool (best fit, split), or NULL; called with the lock held. */
static block *take_large(large_pool *p, size_t size) {
    block *best = NULL;
    for (block *b = p->free; b; b = b->fnext)
        if (b->size >= size && (!best || b->size < best->size)) best = b;
    if (!best) return NULL;
    pool_unlink(p, best);
    stats.cached_bytes -= best->size;
    if (best->size - size >= SPLIT_MIN) {
        block *rest = new_block();
        if (rest) { /* without a record the block is handed out whole */
            rest->ptr = best->ptr + size;
            rest->size = best->size - size;
            rest->device = best->device;
            rest->stream = best->stream;
            rest->prev = best;
            rest->next = best->next;
            if (best->next) best->next->prev = rest;
            best->next = rest;
            best->size = size;
            pool_push(p, rest);
            stats.cached_bytes += rest->size;
            stats_splits++;
        }
    }
    return best;
}

void *cuda_cache_alloc(size_t nbytes, int32_t device) {
    if (device < 0 || device >= cuda_num_devices || device >= MAX_DEVICES) return NULL;
    size_t size = round_size(nbytes);
    void *stream = cuda_current_stream(device);
    pthread_mutex_lock(&lock);
    block *b = NULL;
    if (size == 0) goto oom;
    stats.n_allocs++;
    int large = size > SMALL_LIMIT;
    free_list *l = large ? NULL : list_for(size, device, stream, 1);
    large_pool *p = large ? pool_for(device, stream, 1) : NULL;
    if (!l && !p) goto oom; /* no memory for the bookkeeping */
    if (l && l->blocks) {
        b = l->blocks;
        l->blocks = b->fnext;
        b->fnext = NULL;
        b->is_free = 0;
        stats.cached_bytes -= b->size;
        stats.n_cache_hits++;
    } else if (p && (b = take_large(p, size))) {
        stats.n_cache_hits++;
    } else {
        size_t want = size;
        if (large) want = (size + SEGMENT_ROUND - 1) / SEGMENT_ROUND * SEGMENT_ROUND; /* no overflow: round_size */
        void *ptr = NULL;
        cudaError_t e = device_malloc(&ptr, want, device);
        if (e == cudaErrorMemoryAllocation) {
            cudaGetLastError(); /* clear the non-sticky error */
            stats_retries++;
            release_cached(); /* out of memory: give the cache back and try once more */
            e = device_malloc(&ptr, want, device);
        }
        if (e != cudaSuccess) {
            cudaGetLastError();
            if (e == cudaErrorMemoryAllocation) goto oom;
            cuda_fail(e, "cudaMalloc"); /* not memory: a broken context, say so */
            goto fail;
        }
        if (!(b = new_block())) {
            cudaFree(ptr);
            goto oom;
        }
        b->ptr = ptr;
        b->size = want;
        b->device = device;
        b->stream = stream;
        if (large) {
            stats_segments++;
            if (want > size) { /* the segment's rest goes to the pool (split when big enough) */
                pool_push(p, b);
                stats.cached_bytes += b->size;
                b = take_large(p, size);
            }
        }
    }
    map_insert(b);
    stats.allocated_bytes += b->size;
    if (stats.allocated_bytes > stats.peak_allocated_bytes) stats.peak_allocated_bytes = stats.allocated_bytes;
    pthread_mutex_unlock(&lock);
    return b->ptr;
oom:
    out_of_memory(nbytes, device);
fail:
    pthread_mutex_unlock(&lock);
    return NULL;
}

void cuda_cache_free(void *ptr, size_t nbytes, int32_t device) {
    (void)nbytes;
    (void)device;
    if (!ptr) return;
    pthread_mutex_lock(&lock);
    block *b = map_remove(ptr);
    if (!b) { /* not ours: cannot happen through the core; hand it to the driver */
        pthread_mutex_unlock(&lock);
        cudaFree(ptr);
        return;
    }
    stats.allocated_bytes -= b->size;
    if (!b->prev && !b->next && b->size <= SMALL_LIMIT) {
        free_list *l = list_for(b->size, b->device, b->stream, 1);
        if (!l) { /* no memory for the list: back to the driver */
            cudaFree(b->ptr);
            drop_block(b);
        } else {
            b->is_free = 1;
            b->fnext = l->blocks;
            l->blocks = b;
            stats.cached_bytes += b->size;
        }
        pthread_mutex_unlock(&lock);
        return;
    }
    large_pool *p = pool_for(b->device, b->stream, 0); /* exists: the block came from it */
    stats.cached_bytes += b->size;
    block *n = b->next;
    if (n && n->is_free) { /* merge the next free neighbour into b */
        pool_unlink(p, n);
        b->size += n->size;
        b->next = n->next;
        if (n->next) n->next->prev = b;
        drop_block(n);
        stats_merges++;
    }
    block *v = b->prev;
    if (v && v->is_free) { /* merge b into the previous free neighbour, which stays on the list */
        v->size += b->size;
        v->next = b->next;
        if (b->next) b->next->prev = v;
        drop_block(b);
        stats_merges++;
    } else {
        pool_push(p, b);
    }
    pthread_mutex_unlock(&lock);
}

void cuda_cache_empty(void) {
    pthread_mutex_lock(&lock);
    release_cached();
    pthread_mutex_unlock(&lock);
}

/* The figures torch.cuda.memory_stats adds to the ABI's: OOMs raised, cache flushes retried, large
 * block splits and merges, segments held (out[0..4]). */
TC_EXPORT void tc_cuda_allocator_counters(uint64_t *out) {
    pthread_mutex_lock(&lock);
    out[0] = stats_oom_count;
    out[1] = stats_retries;
    out[2] = stats_splits;
    out[3] = stats_merges;
    out[4] = stats_segments;
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
