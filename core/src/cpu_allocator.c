/*
 * The CPU allocator. Small blocks come from malloc (aligned); large blocks are mmap'd, advised to
 * use huge pages, and kept in a bounded cache when freed, because faulting in fresh pages costs far
 * more than the arithmetic of a large elementwise op (docs/architecture.md, "CPU memory").
 *
 * A cached block may serve a request up to a quarter smaller than itself, and free() is told only
 * the size that was asked for, so every live large block's real size is kept in a block map: a block
 * always goes back to the cache, or to munmap, with its own size.
 */
#include "core_internal.h"

#include <malloc.h>
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
    tc_blockmap live; /* large blocks handed out: address -> mapped size */
    tc_allocator_stats stats;
} cpu = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t configure_once = PTHREAD_ONCE_INIT;

/* TORCH_CPU_CACHE_LIMIT_MB: a decimal count of MiB, nothing else ("0" disables the cache). */
static bool parse_limit_mb(const char *s, size_t *bytes) {
    if (!*s) return false;
    size_t mb = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        if (__builtin_mul_overflow(mb, (size_t)10, &mb) || __builtin_add_overflow(mb, (size_t)(*p - '0'), &mb))
            return false;
    }
    if (mb > (SIZE_MAX >> 20)) return false;
    *bytes = mb << 20;
    return true;
}

static void configure(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t total = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : ((size_t)4 << 30);
    cpu.cache_limit = total / 8;
    const char *env = getenv("TORCH_CPU_CACHE_LIMIT_MB");
    if (env && !parse_limit_mb(env, &cpu.cache_limit)) {
        cpu.cache_limit = total / 8;
        tc_warn("TORCH_CPU_CACHE_LIMIT_MB='%s' is not a whole number of MiB (0 or more); using the "
                "default, %zu MiB (1/8 of RAM)", env, cpu.cache_limit >> 20);
    }
    /* Blocks below LARGE_BLOCK come from malloc. glibc's dynamic thresholds would otherwise mmap some
     * of them, or trim the heap top under them, on every free, so that each new tensor of a few
     * hundred KiB faulted its pages in again (~10 ms for 1 MiB on a loaded machine): keep them in the
     * heap, which is bounded by what the program holds at its peak. */
    mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK);
    mallopt(M_TRIM_THRESHOLD, 64 * LARGE_BLOCK);
}

void tc_alloc_cpu_configure(void) { pthread_once(&configure_once, configure); }

static size_t round_large(size_t n) { return (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1); }

static void *map_large(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, size, MADV_HUGEPAGE);
    return p;
}

/* Best fit among cached blocks no more than 1/4 larger than asked, so a small request does not pin
 * a huge block. Called with the lock held; *got is the block's own size. */
static void *take_cached(size_t size, size_t *got) {
    int best = -1;
    for (int i = 0; i < cpu.n_blocks; i++) {
        size_t s = cpu.blocks[i].size;
        if (s >= size && s - size <= size / 4 && (best < 0 || s < cpu.blocks[best].size)) best = i;
    }
    if (best < 0) return NULL;
    void *p = cpu.blocks[best].ptr;
    *got = cpu.blocks[best].size;
    cpu.cached_bytes -= cpu.blocks[best].size;
    cpu.blocks[best] = cpu.blocks[--cpu.n_blocks];
    return p;
}

static void account_alloc(size_t size) {
    cpu.stats.n_allocs++;
    cpu.stats.allocated_bytes += size;
    if (cpu.stats.allocated_bytes > cpu.stats.peak_allocated_bytes)
        cpu.stats.peak_allocated_bytes = cpu.stats.allocated_bytes;
}

static void *alloc_small(size_t nbytes) {
    size_t rounded = (nbytes + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1);
    void *p = aligned_alloc(ALIGNMENT, rounded);
    if (p) {
        pthread_mutex_lock(&cpu.lock);
        account_alloc(nbytes);
        pthread_mutex_unlock(&cpu.lock);
    }
    return p;
}

static void *alloc_large(size_t nbytes) {
    size_t size = round_large(nbytes), got = 0;
    if (size < nbytes) return NULL; /* rounding overflowed */
    pthread_mutex_lock(&cpu.lock);
    void *p = take_cached(size, &got);
    if (p) cpu.stats.n_cache_hits++;
    pthread_mutex_unlock(&cpu.lock);
    if (!p) {
        if (!(p = map_large(size))) return NULL;
        got = size;
    }
    pthread_mutex_lock(&cpu.lock);
    int rc = tc_blockmap_put(&cpu.live, p, got);
    if (rc == TC_OK) account_alloc(got);
    pthread_mutex_unlock(&cpu.lock);
    if (rc != TC_OK) {
        munmap(p, got);
        return NULL;
    }
    return p;
}

static void *cpu_alloc(void *ctx, size_t nbytes, int32_t device_index, void *stream) {
    if (nbytes == 0) nbytes = 1;
    return nbytes < LARGE_BLOCK ? alloc_small(nbytes) : alloc_large(nbytes);
}

/* Caches a freed large block, evicting the oldest ones to stay under the bound; returns what to
 * munmap instead when the block itself does not fit. Called with the lock held. */
static void cache_block(void *ptr, size_t size, cached_block *evicted, int *n_evicted, cached_block *rejected) {
    if (size > cpu.cache_limit) {
        *rejected = (cached_block){ptr, size};
        return;
    }
    while (cpu.n_blocks > 0 && (cpu.n_blocks == CACHE_SLOTS || cpu.cached_bytes + size > cpu.cache_limit)) {
        evicted[(*n_evicted)++] = cpu.blocks[0];
        cpu.cached_bytes -= cpu.blocks[0].size;
        memmove(cpu.blocks, cpu.blocks + 1, (size_t)(cpu.n_blocks - 1) * sizeof(cached_block));
        cpu.n_blocks--;
    }
    cpu.blocks[cpu.n_blocks++] = (cached_block){ptr, size};
    cpu.cached_bytes += size;
}

static void cpu_free(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream) {
    if (!ptr) return;
    if (nbytes == 0) nbytes = 1;
    if (nbytes < LARGE_BLOCK) {
        free(ptr);
        pthread_mutex_lock(&cpu.lock);
        cpu.stats.allocated_bytes -= nbytes;
        pthread_mutex_unlock(&cpu.lock);
        return;
    }
    tc_alloc_cpu_configure();
    cached_block evicted[CACHE_SLOTS], rejected = {NULL, 0};
    int n_evicted = 0;
    pthread_mutex_lock(&cpu.lock);
    size_t size = tc_blockmap_take(&cpu.live, ptr);
    if (size == 0) size = round_large(nbytes); /* not ours to cache: unmap what the caller says */
    cpu.stats.allocated_bytes -= size;
    cache_block(ptr, size, evicted, &n_evicted, &rejected);
    pthread_mutex_unlock(&cpu.lock);
    for (int i = 0; i < n_evicted; i++) munmap(evicted[i].ptr, evicted[i].size);
    if (rejected.ptr) munmap(rejected.ptr, rejected.size);
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
