/*
 * The CPU allocator. Small blocks come from malloc (aligned); large blocks are mmap'd, advised to
 * use huge pages, and kept in a bounded cache when freed, because faulting in fresh pages costs far
 * more than the arithmetic of a large elementwise op (docs/architecture.md, "CPU memory").
 */
#include "core_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ALIGNMENT 64
#define LARGE_BLOCK (1u << 20)      /* below: malloc; at or above: cached mmap */
#define HUGE_PAGE (2u << 20)
#define CACHE_SLOTS 64

typedef struct cached_block {
    void *ptr;
    size_t size;
} cached_block;

static struct {
    pthread_mutex_t lock;
    cached_block blocks[CACHE_SLOTS];
    int n_blocks;
    size_t cached_bytes;
    size_t cache_limit;
    tc_allocator_stats stats;
} cpu = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t cache_limit(void) {
    if (!cpu.cache_limit) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        size_t total = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : ((size_t)4 << 30);
        const char *env = getenv("TORCH_CPU_CACHE_LIMIT_MB");
        cpu.cache_limit = env ? (size_t)strtoull(env, NULL, 10) << 20 : total / 8;
    }
    return cpu.cache_limit;
}

static size_t round_large(size_t n) { return (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1); }

static void *map_large(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, size, MADV_HUGEPAGE);
    return p;
}

/* Best fit among cached blocks no more than 1/4 larger than asked, so a small request does not pin
 * a huge block. Called with the lock held. */
static void *take_cached(size_t size) {
    int best = -1;
    for (int i = 0; i < cpu.n_blocks; i++) {
        size_t s = cpu.blocks[i].size;
        if (s >= size && s - size <= size / 4 && (best < 0 || s < cpu.blocks[best].size)) best = i;
    }
    if (best < 0) return NULL;
    void *p = cpu.blocks[best].ptr;
    cpu.cached_bytes -= cpu.blocks[best].size;
    cpu.blocks[best] = cpu.blocks[--cpu.n_blocks];
    return p;
}

static size_t block_size(size_t nbytes) { return nbytes >= LARGE_BLOCK ? round_large(nbytes) : nbytes; }

static void *cpu_alloc(void *ctx, size_t nbytes, int32_t device_index, void *stream) {
    if (nbytes == 0) nbytes = 1;
    size_t size = block_size(nbytes);
    if (size < nbytes) return NULL; /* rounding overflowed */
    void *p = NULL;
    pthread_mutex_lock(&cpu.lock);
    if (size >= LARGE_BLOCK && (p = take_cached(size))) cpu.stats.n_cache_hits++;
    cpu.stats.n_allocs++;
    cpu.stats.allocated_bytes += size;
    if (cpu.stats.allocated_bytes > cpu.stats.peak_allocated_bytes)
        cpu.stats.peak_allocated_bytes = cpu.stats.allocated_bytes;
    pthread_mutex_unlock(&cpu.lock);
    if (!p) {
        if (size >= LARGE_BLOCK) {
            p = map_large(size);
        } else {
            size_t rounded = (size + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1);
            p = aligned_alloc(ALIGNMENT, rounded);
        }
        if (!p) {
            pthread_mutex_lock(&cpu.lock);
            cpu.stats.allocated_bytes -= size;
            pthread_mutex_unlock(&cpu.lock);
        }
    }
    return p;
}

static void cpu_free(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream) {
    if (!ptr) return;
    if (nbytes == 0) nbytes = 1;
    size_t size = block_size(nbytes);
    if (size < LARGE_BLOCK) {
        free(ptr);
        pthread_mutex_lock(&cpu.lock);
        cpu.stats.allocated_bytes -= size;
        pthread_mutex_unlock(&cpu.lock);
        return;
    }
    void *evict = NULL;
    size_t evict_size = 0;
    pthread_mutex_lock(&cpu.lock);
    cpu.stats.allocated_bytes -= size;
    if (size <= cache_limit()) {
        /* Make room: drop the oldest blocks until this one fits under the bound. */
        while (cpu.n_blocks > 0 && (cpu.n_blocks == CACHE_SLOTS || cpu.cached_bytes + size > cache_limit())) {
            cached_block old = cpu.blocks[0];
            memmove(cpu.blocks, cpu.blocks + 1, (size_t)(cpu.n_blocks - 1) * sizeof(cached_block));
            cpu.n_blocks--;
            cpu.cached_bytes -= old.size;
            pthread_mutex_unlock(&cpu.lock);
            munmap(old.ptr, old.size);
            pthread_mutex_lock(&cpu.lock);
        }
        cpu.blocks[cpu.n_blocks++] = (cached_block){ptr, size};
        cpu.cached_bytes += size;
    } else {
        evict = ptr;
        evict_size = size;
    }
    pthread_mutex_unlock(&cpu.lock);
    if (evict) munmap(evict, evict_size);
}

static void cpu_empty_cache(void *ctx) {
    pthread_mutex_lock(&cpu.lock);
    cached_block blocks[CACHE_SLOTS];
    int n = cpu.n_blocks;
    memcpy(blocks, cpu.blocks, sizeof(cached_block) * (size_t)n);
    cpu.n_blocks = 0;
    cpu.cached_bytes = 0;
    pthread_mutex_unlock(&cpu.lock);
    for (int i = 0; i < n; i++) munmap(blocks[i].ptr, blocks[i].size);
}

static void cpu_stats(void *ctx, tc_allocator_stats *out) {
    pthread_mutex_lock(&cpu.lock);
    *out = cpu.stats;
    out->cached_bytes = cpu.cached_bytes;
    pthread_mutex_unlock(&cpu.lock);
}

static const tc_allocator cpu_allocator = {
    .struct_size = sizeof(tc_allocator),
    .alloc = cpu_alloc,
    .free = cpu_free,
    .empty_cache = cpu_empty_cache,
    .stats = cpu_stats,
};

const tc_allocator *tc_alloc_cpu(void) { return &cpu_allocator; }
